//! Cycle-level evaluation of the dispatcher against baselines (the `eval-dispatch` command).
//!
//! Synthetic workloads ([`workloads`]: mixed priorities and sizes; head-of-line blocking;
//! fragmentation by long-lived small WGs between large independent ones, once with and once
//! without LDS in the independent ones; tiny WGs at the dispatch rate — with per-WG run times and
//! per-module retire strobes) are run on:
//! - the golden model under each module policy (`first`, `max_weighted_free`,
//!   `min_power_history`) — the patent's scheduler: parallel match of all heads, time windows,
//!   a42 tie marks, split after 256 failed cycles (all registers at their reset values);
//! - **round-robin module choice**: the same scheduler with a rotating module pointer;
//! - **strict priority, in order** (\[0028\]–\[0029\]): only the highest-priority head is considered
//!   (ties: lowest channel); if it fits nowhere nothing is dispatched (head-of-line blocking);
//!   first fitting module; no windows, no split;
//! - **the patent's scheduler without the split** (`first`, `SPLIT_THRESHOLD` = 0): what
//!   emb. 3 contributes;
//! - **MIAOW-style**: one WG at a time through a locked pipeline — each decision occupies
//!   [`MIAOW_STAGES`] cycles plus a walk of the module list ([`MIAOW_WALK_PER_CYCLE`] modules per
//!   cycle) — taking the channel heads round robin, placing on the fitting module with the
//!   largest free VGPR chunk; a head that fits nowhere is passed over until its next turn.
//!
//! Common harness (identical for every scheduler): per channel, WGs arrive (Bernoulli per cycle,
//! same sequence for every scheduler) into an unbounded host queue and move into the channel FIFO
//! (depth from the config) as room appears, one per channel per cycle; completions free resources
//! at the start of a cycle; retire strobes are drawn per module from its wave occupancy (class c
//! with probability load·(0.4 + 0.2c)).
//!
//! Metrics: throughput (WGs fully dispatched per 1k cycles; a split WG counts when its last
//! sub-WG leaves), p50/p99 queueing delay (arrival in the host queue → dispatch) per priority,
//! module load balance (max/mean of per-module wave-cycles, 1.00 = even), fragmentation failures
//! (% of dispatched WGs that at least once fit no module although some module had enough free
//! blocks in total — contiguity, not capacity, held them back), splits, and the mean wait from
//! reaching a FIFO head to dispatch.

use super::*;

/// MIAOW baseline: cycles of the locked allocation pipeline per decision.
pub const MIAOW_STAGES: u64 = 5;
/// MIAOW baseline: modules whose free lists are walked per cycle after each decision.
pub const MIAOW_WALK_PER_CYCLE: usize = 4;

/// Deterministic xorshift64* generator (no external crates in the golden model).
#[derive(Clone, Debug)]
pub struct Rng(u64);
impl Rng {
    pub fn new(seed: u64) -> Self {
        Self(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + (self.next_u64() % (hi - lo + 1) as u64) as usize
    }
    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        ((self.next_u64() >> 11) as f64) / ((1u64 << 53) as f64) < p
    }
}

/// One class of WGs that a channel emits (inclusive ranges).
#[derive(Clone, Debug)]
pub struct WgClass {
    /// Relative frequency.
    pub weight: u32,
    pub prio: (usize, usize),
    pub waves: (usize, usize),
    pub vgpr: (usize, usize),
    pub sgpr: (usize, usize),
    pub lds: (usize, usize),
    /// Probability that a WG is independent.
    pub indep: f64,
    /// Run time in cycles.
    pub cycles: (usize, usize),
}

/// A synthetic workload: per channel an arrival rate and a mix of WG classes.
#[derive(Clone, Debug)]
pub struct Workload {
    pub name: &'static str,
    /// Per channel: (arrival probability per cycle, classes).
    pub channels: Vec<(f64, Vec<WgClass>)>,
    pub cycles: u64,
    pub seed: u64,
}

/// The schedulers compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scheduler {
    Patent(Policy),
    /// The patent's scheduler with `first` and `SPLIT_THRESHOLD` = 0 (emb. 3 off): isolates
    /// what the split contributes.
    PatentNoSplit,
    StrictPriority,
    Miaow,
}

impl Scheduler {
    pub fn all() -> Vec<Scheduler> {
        vec![
            Scheduler::Patent(Policy::First),
            Scheduler::Patent(Policy::MaxWeightedFree),
            Scheduler::Patent(Policy::MinPowerHistory),
            Scheduler::Patent(Policy::RoundRobin),
            Scheduler::PatentNoSplit,
            Scheduler::StrictPriority,
            Scheduler::Miaow,
        ]
    }
    pub fn name(&self) -> &'static str {
        match self {
            Scheduler::Patent(Policy::First) => "patent, first",
            Scheduler::Patent(Policy::MaxWeightedFree) => "patent, max_weighted_free",
            Scheduler::Patent(Policy::MinPowerHistory) => "patent, min_power_history",
            Scheduler::Patent(Policy::RoundRobin) => "patent pick, round-robin module",
            Scheduler::PatentNoSplit => "patent, first, no split",
            Scheduler::StrictPriority => "strict priority in order",
            Scheduler::Miaow => "MIAOW one-at-a-time",
        }
    }
}

/// Results of one (config, workload, scheduler) run.
#[derive(Clone, Debug)]
pub struct EvalResult {
    pub scheduler: &'static str,
    pub workload: &'static str,
    pub config: &'static str,
    pub cycles: u64,
    pub arrived: u64,
    pub dispatched: u64,
    /// WGs per 1k cycles.
    pub throughput: f64,
    /// Per priority: (p50, p99) queueing delay in cycles, None without samples.
    pub delay: Vec<Option<(u64, u64)>>,
    /// max/mean of per-module wave-cycles.
    pub balance: f64,
    /// WGs that met at least one fragmentation failure, % of dispatched WGs.
    pub frag_pct: f64,
    pub splits: u64,
    /// Mean cycles from reaching a FIFO head to dispatch.
    pub mean_head_wait: f64,
}

/// The baselines' own scheduling state (FIFOs + the shared resource model).
struct Baseline {
    kind: Scheduler,
    cfg: DispatcherConfig,
    fifo: Vec<VecDeque<Wg>>,
    res: Resources,
    busy_until: u64,
    rr: usize,
    frag: std::collections::BTreeSet<u32>,
}

impl Baseline {
    fn fits(&self, wg: &Wg) -> Vec<(usize, Placement)> {
        (0..self.cfg.modules)
            .filter_map(|m| self.res.fit(m, wg).map(|p| (m, p)))
            .collect()
    }

    fn note_frag(&mut self, wg: &Wg) {
        if (0..self.cfg.modules).any(|m| self.res.fits_by_count(m, wg)) {
            self.frag.insert(wg.id);
        }
    }

    fn tick(&mut self, now: u64) -> Option<Dispatch> {
        let slot = self.res.free_slot()?;
        let (c, pl) = match self.kind {
            Scheduler::StrictPriority => {
                // the highest-priority head only; ties to the lowest channel
                let c = (0..self.cfg.channels)
                    .filter(|&c| !self.fifo[c].is_empty())
                    .min_by_key(|&c| self.fifo[c][0].prio)?;
                let wg = self.fifo[c][0];
                let f = self.fits(&wg);
                if f.is_empty() {
                    self.note_frag(&wg);
                    return None;
                }
                (c, f.into_iter().next().unwrap().1)
            }
            Scheduler::Miaow => {
                if now < self.busy_until {
                    return None;
                }
                let r = self.cfg.channels;
                let c = (0..r)
                    .map(|k| (self.rr + k) % r)
                    .find(|&c| !self.fifo[c].is_empty())?;
                self.rr = (c + 1) % r;
                let walk = self.cfg.modules.div_ceil(MIAOW_WALK_PER_CYCLE) as u64;
                self.busy_until = now + MIAOW_STAGES + walk;
                let wg = self.fifo[c][0];
                let f = self.fits(&wg);
                if f.is_empty() {
                    self.note_frag(&wg);
                    return None;
                }
                let chunk =
                    |m: usize| -> usize { self.res.vgpr[m].iter().map(|&x| max_run(x)).sum() };
                // largest free VGPR chunk; ties to the lowest index
                let best = f
                    .iter()
                    .map(|(m, _)| *m)
                    .max_by_key(|&m| (chunk(m), usize::MAX - m))
                    .unwrap();
                (c, f.into_iter().find(|(m, _)| *m == best).unwrap().1)
            }
            Scheduler::Patent(_) | Scheduler::PatentNoSplit => {
                unreachable!("the patent scheduler is the golden model")
            }
        };
        let wg = self.fifo[c].pop_front().unwrap();
        self.res.allocate(slot, pl.clone());
        Some(Dispatch {
            channel: c,
            wg,
            sub: false,
            slot,
            placement: pl,
        })
    }
}

enum Engine {
    Model(Box<Dispatcher>),
    Base(Box<Baseline>),
}

impl Engine {
    fn res(&self) -> &Resources {
        match self {
            Engine::Model(d) => &d.res,
            Engine::Base(b) => &b.res,
        }
    }
    fn res_mut(&mut self) -> &mut Resources {
        match self {
            Engine::Model(d) => &mut d.res,
            Engine::Base(b) => &mut b.res,
        }
    }
    fn can_push(&self, c: usize) -> bool {
        match self {
            Engine::Model(d) => d.can_push(c),
            Engine::Base(b) => b.fifo[c].len() < b.cfg.fifo_depth,
        }
    }
    fn push(&mut self, c: usize, wg: Wg) {
        match self {
            Engine::Model(d) => assert_eq!(d.enqueue(c, wg), Ok(true)),
            Engine::Base(b) => b.fifo[c].push_back(wg),
        }
    }
    fn tick(&mut self, now: u64, retire: u64) -> Option<Dispatch> {
        match self {
            Engine::Model(d) => {
                d.cycle(&DispIn {
                    retire_class: retire,
                    ..DispIn::default()
                })
                .1
            }
            Engine::Base(b) => b.tick(now),
        }
    }
    fn head(&self, c: usize) -> Option<u32> {
        match self {
            Engine::Model(d) => d.fifo[c].front().map(|w| w.id),
            Engine::Base(b) => b.fifo[c].front().map(|w| w.id),
        }
    }
}

fn percentile(sorted: &[u64], p: f64) -> u64 {
    sorted[((sorted.len() as f64 - 1.0) * p).round() as usize]
}

/// Run one workload on one scheduler.
pub fn run(
    cfg: DispatcherConfig,
    cfg_name: &'static str,
    w: &Workload,
    s: Scheduler,
) -> EvalResult {
    let mut eng = match s {
        Scheduler::Patent(p) => {
            let mut d = Dispatcher::new(cfg);
            d.set_policy(p);
            Engine::Model(Box::new(d))
        }
        Scheduler::PatentNoSplit => {
            let mut d = Dispatcher::new(cfg);
            d.regs.split_threshold = 0;
            Engine::Model(Box::new(d))
        }
        kind => Engine::Base(Box::new(Baseline {
            kind,
            cfg,
            fifo: vec![VecDeque::new(); cfg.channels],
            res: Resources::new(cfg),
            busy_until: 0,
            rr: 0,
            frag: Default::default(),
        })),
    };
    assert_eq!(
        w.channels.len(),
        cfg.channels,
        "workload {} needs {} channels",
        w.name,
        cfg.channels
    );
    // one stream for arrivals (identical for every scheduler), one for retire strobes
    let mut arr_rng = Rng::new(w.seed);
    let mut run_rng = Rng::new(w.seed ^ 0x5555);
    let mut host: Vec<VecDeque<Wg>> = vec![VecDeque::new(); cfg.channels];
    // per WG id: (arrival cycle, prio, run cycles, sub-WGs left)
    let mut info: Vec<(u64, usize, usize, usize)> = vec![];
    let mut head_since: Vec<Option<(u32, u64)>> = vec![None; cfg.channels];
    // per WG id: the cycle it first reached its FIFO head (a pipelined decision pops the head
    // before the dispatch is committed and reported)
    let mut head_at: std::collections::HashMap<u32, u64> = Default::default();
    let mut head_wait_sum = 0u64;
    let mut ends: std::collections::BinaryHeap<std::cmp::Reverse<(u64, usize)>> =
        Default::default();
    let mut delays: Vec<Vec<u64>> = vec![vec![]; cfg.prios];
    let mut wave_cycles = vec![0u64; cfg.modules];
    let mut dispatched = 0u64;
    let slots_per_module = cfg.units * cfg.wave_slots;
    for now in 0..w.cycles {
        // arrivals
        for (c, (rate, classes)) in w.channels.iter().enumerate() {
            if arr_rng.chance(*rate) {
                let total: u32 = classes.iter().map(|k| k.weight).sum();
                let mut pick = (arr_rng.next_u64() % total as u64) as u32;
                let k = classes
                    .iter()
                    .find(|k| {
                        let hit = pick < k.weight;
                        pick = pick.saturating_sub(k.weight);
                        hit
                    })
                    .unwrap();
                let waves = arr_rng.range(k.waves.0, k.waves.1);
                // scale per-wave registers down so that the WG fits an empty module
                let q = waves.div_ceil(cfg.units);
                let wg = Wg {
                    id: info.len() as u32,
                    prio: arr_rng.range(k.prio.0, k.prio.1),
                    waves,
                    vgpr: arr_rng.range(k.vgpr.0, k.vgpr.1).min(cfg.vgpr_blocks / q),
                    sgpr: arr_rng.range(k.sgpr.0, k.sgpr.1).min(cfg.sgpr_blocks / q),
                    lds: arr_rng.range(k.lds.0, k.lds.1),
                    indep: arr_rng.chance(k.indep),
                };
                let cycles = arr_rng.range(k.cycles.0, k.cycles.1);
                assert!(
                    Resources::fits_empty(&cfg, &wg),
                    "workload {}: WG {wg:?} never fits",
                    w.name
                );
                info.push((now, wg.prio, cycles, wg.waves));
                host[c].push_back(wg);
            }
        }
        // host queue -> channel FIFO
        for (c, hq) in host.iter_mut().enumerate() {
            if !hq.is_empty() && eng.can_push(c) {
                eng.push(c, hq.pop_front().unwrap());
            }
        }
        // completions due now
        while let Some(std::cmp::Reverse((t, slot))) = ends.peek().copied() {
            if t > now {
                break;
            }
            ends.pop();
            assert!(eng.res_mut().complete(slot));
        }
        // head tracking for the head-to-dispatch wait
        for (c, hs) in head_since.iter_mut().enumerate() {
            match (eng.head(c), *hs) {
                (Some(id), Some((hid, _))) if id == hid => {}
                (Some(id), _) => {
                    *hs = Some((id, now));
                    head_at.entry(id).or_insert(now);
                }
                (None, _) => *hs = None,
            }
        }
        // retire strobes from occupancy
        let mut retire = 0u64;
        for (m, wc) in wave_cycles.iter_mut().enumerate() {
            let busy: usize = eng.res().slots_free[m]
                .iter()
                .map(|&f| cfg.wave_slots - f)
                .sum();
            *wc += busy as u64;
            let load = busy as f64 / slots_per_module as f64;
            for c in 0..cfg.classes {
                if run_rng.chance(load * (0.4 + 0.2 * c as f64)) {
                    retire |= 1 << (cfg.classes * m + c);
                }
            }
        }
        if let Some(d) = eng.tick(now, retire) {
            let id = d.wg.id as usize;
            let (arrival, prio, cycles, left) = info[id];
            ends.push(std::cmp::Reverse((now + 1 + cycles as u64, d.slot)));
            let left = if d.sub { left - 1 } else { 0 };
            info[id].3 = left;
            if left == 0 {
                dispatched += 1;
                delays[prio].push(now - arrival);
                if let Some(since) = head_at.remove(&d.wg.id) {
                    head_wait_sum += now - since;
                }
            }
        }
    }
    let (frag, splits) = match &eng {
        Engine::Model(d) => (d.stats.frag_wgs.len() as u64, d.stats.splits),
        Engine::Base(b) => (b.frag.len() as u64, 0),
    };
    let mean = wave_cycles.iter().sum::<u64>() as f64 / cfg.modules as f64;
    let max = *wave_cycles.iter().max().unwrap() as f64;
    let k = w.cycles as f64 / 1000.0;
    EvalResult {
        scheduler: s.name(),
        workload: w.name,
        config: cfg_name,
        cycles: w.cycles,
        arrived: info.len() as u64,
        dispatched,
        throughput: dispatched as f64 / k,
        delay: delays
            .iter_mut()
            .map(|v| {
                v.sort_unstable();
                (!v.is_empty()).then(|| (percentile(v, 0.5), percentile(v, 0.99)))
            })
            .collect(),
        balance: if mean > 0.0 { max / mean } else { 1.0 },
        frag_pct: 100.0 * frag as f64 / dispatched.max(1) as f64,
        splits,
        mean_head_wait: head_wait_sum as f64 / dispatched.max(1) as f64,
    }
}

#[allow(clippy::too_many_arguments)]
fn class(
    weight: u32,
    prio: (usize, usize),
    waves: (usize, usize),
    vgpr: (usize, usize),
    lds: (usize, usize),
    indep: f64,
    cycles: (usize, usize),
) -> WgClass {
    let sgpr = (vgpr.0 / 2, (vgpr.1 / 2).max(vgpr.0 / 2));
    WgClass {
        weight,
        prio,
        waves,
        vgpr,
        sgpr,
        lds,
        indep,
        cycles,
    }
}

/// Arrival probability per cycle and channel that loads the machine to `rho` of its capacity
/// with `classes` (wave slots / (mean waves × mean run time), or in-flight entries / mean run
/// time, whichever is smaller), spread over `channels`. Fragmentation and LDS make the real
/// capacity lower, so `rho` ≈ 0.5 is already a busy machine.
fn rate_for(cfg: &DispatcherConfig, classes: &[WgClass], rho: f64, channels: usize) -> f64 {
    let total: f64 = classes.iter().map(|k| k.weight as f64).sum();
    let mid = |r: (usize, usize)| (r.0 + r.1) as f64 / 2.0;
    let work: f64 = classes
        .iter()
        .map(|k| k.weight as f64 / total * mid(k.waves) * mid(k.cycles))
        .sum();
    let cycles: f64 = classes
        .iter()
        .map(|k| k.weight as f64 / total * mid(k.cycles))
        .sum();
    let slots = (cfg.modules * cfg.units * cfg.wave_slots) as f64;
    // capacity in WGs per cycle: wave slots, or in-flight table entries, whichever binds
    let capacity = (slots / work).min(cfg.slots as f64 / cycles);
    (rho * capacity / channels as f64).min(0.9)
}

/// The standard workloads for a config (scaled to its size).
pub fn workloads(cfg: &DispatcherConfig, cycles: u64) -> Vec<Workload> {
    let big = cfg.max_waves();
    let (vb, lb, r) = (cfg.vgpr_blocks, cfg.lds_blocks, cfg.channels);
    let small = class(
        3,
        (1, 3),
        (1, (big / 4).max(1)),
        (1, vb / 8),
        (0, lb / 8),
        0.3,
        (100, 400),
    );
    let medium = class(
        2,
        (0, 3),
        (big / 4, big / 2),
        (vb / 16, vb / 4),
        (lb / 8, lb / 3),
        0.3,
        (200, 800),
    );
    let large = class(
        1,
        (0, 1),
        (big / 2, big),
        (vb / 8, vb / 4),
        (lb / 4, lb / 2),
        0.6,
        (300, 1000),
    );
    let mix = vec![small, medium, large];
    let mixed = Workload {
        name: "mixed",
        channels: (0..r)
            .map(|_| (rate_for(cfg, &mix, 0.6, r), mix.clone()))
            .collect(),
        cycles,
        seed: 1,
    };
    // head-of-line: channel 0 sends large high-priority WGs, the others small low-priority ones
    let hol_big = vec![class(
        1,
        (0, 0),
        (big * 3 / 4, big),
        (vb / 4, vb / 4),
        (lb / 2, lb),
        0.5,
        (400, 1200),
    )];
    let hol_small = vec![class(
        1,
        (2, 3),
        (1, 2),
        (1, vb / 16 + 1),
        (0, 1),
        0.0,
        (100, 300),
    )];
    let hol = Workload {
        name: "head-of-line",
        channels: (0..r)
            .map(|c| {
                if c == 0 {
                    (rate_for(cfg, &hol_big, 0.3, 1), hol_big.clone())
                } else {
                    (rate_for(cfg, &hol_small, 0.8, r - 1), hol_small.clone())
                }
            })
            .collect(),
        cycles,
        seed: 2,
    };
    // fragmentation: long-lived small WGs interleaved with large independent ones
    let frag_mix = vec![
        class(
            2,
            (1, 3),
            (1, 2),
            (1, vb / 4),
            (1, lb / 4),
            0.0,
            (500, 2000),
        ),
        class(
            1,
            (0, 2),
            (big / 2, big),
            (vb / 8, vb / 4),
            (lb / 4, lb / 2),
            1.0,
            (200, 600),
        ),
    ];
    let frag = Workload {
        name: "fragmenting",
        channels: (0..r)
            .map(|_| (rate_for(cfg, &frag_mix, 0.85, r), frag_mix.clone()))
            .collect(),
        cycles,
        seed: 3,
    };
    // the same arrivals, but the large independent WGs declare no LDS (waves that share nothing
    // need none): a split sub-WG then takes registers and wave slots only
    let frag_free_mix = vec![
        frag_mix[0].clone(),
        WgClass {
            lds: (0, 0),
            ..frag_mix[1].clone()
        },
    ];
    let frag_free = Workload {
        name: "frag, indep no LDS",
        channels: (0..r)
            .map(|_| (rate_for(cfg, &frag_mix, 0.85, r), frag_free_mix.clone()))
            .collect(),
        cycles,
        seed: 3,
    };
    // dispatch-rate bound: many tiny short WGs, at most 0.8 arrivals per cycle in total
    let tiny = vec![class(1, (0, 3), (1, 2), (1, 2), (0, 1), 0.0, (20, 60))];
    let burst = Workload {
        name: "tiny-burst",
        channels: (0..r)
            .map(|_| {
                (
                    rate_for(cfg, &tiny, 0.8, r).min(0.8 / r as f64),
                    tiny.clone(),
                )
            })
            .collect(),
        cycles,
        seed: 4,
    };
    vec![mixed, hol, frag, frag_free, burst]
}

/// All schedulers on all workloads for one config.
pub fn evaluate(cfg: DispatcherConfig, cfg_name: &'static str, cycles: u64) -> Vec<EvalResult> {
    let mut out = vec![];
    for w in workloads(&cfg, cycles) {
        for s in Scheduler::all() {
            out.push(run(cfg, cfg_name, &w, s));
        }
    }
    out
}

/// The results as a Markdown table.
pub fn markdown(results: &[EvalResult]) -> String {
    let prios = results.first().map_or(0, |r| r.delay.len());
    let mut s = String::from("| config | workload | scheduler | WGs/1k cyc | ");
    for p in 0..prios {
        s += &format!("P{p} delay p50/p99 | ");
    }
    s += "balance max/mean | frag-hit WGs % | splits | head wait |\n|---|---|---|---:|";
    for _ in 0..prios {
        s += "---:|";
    }
    s += "---:|---:|---:|---:|\n";
    for r in results {
        s += &format!(
            "| {} | {} | {} | {:.1} | ",
            r.config, r.workload, r.scheduler, r.throughput
        );
        for d in &r.delay {
            s += &match d {
                Some((a, b)) => format!("{a}/{b} | "),
                None => "– | ".into(),
            };
        }
        s += &format!(
            "{:.2} | {:.1} | {} | {:.1} |\n",
            r.balance, r.frag_pct, r.splits, r.mean_head_wait
        );
    }
    s
}

// ------------------------------------------------ refresh latency K: saturating streams

/// The refresh latencies the K sweep compares: the board's direct match (0), the one-cycle
/// run cache (7, 28 MHz on the ECP5), the pipelined 100 MHz cache ([`FULL_REFRESH_LATENCY`] =
/// 12) and one finder shared by two modules (19, docs/dispatcher_scale.md).
pub const SWEEP_K: [usize; 4] = [0, 7, FULL_REFRESH_LATENCY, 19];

/// A saturating stream for the K sweep: the host offers a WG on the single push port every
/// cycle (round robin over `channels` channels, skipping a full FIFO), every WG is dependent
/// (no split), and each completes `run` cycles after its record (completions queue for the one
/// `done` port). Sizes are uniform in the ranges.
#[derive(Clone, Debug)]
pub struct Stream {
    pub name: &'static str,
    /// Channels fed (0..channels).
    pub channels: usize,
    pub waves: (usize, usize),
    pub vgpr: (usize, usize),
    pub sgpr: (usize, usize),
    pub lds: (usize, usize),
    pub run: (usize, usize),
}

/// The sweep's streams for `cfg` (sizes scaled to the full config). `small` fits on every
/// module at any time (≈ 32 WGs in flight over 16 modules: what "WGs that fit" means in the
/// issue's goals), on all channels and on one; `medium` (a quarter of a module's wave slots)
/// still fits on most modules; `large` (half to all of a module's wave slots) fits on only a
/// few, so capacity, not K, bounds it.
pub fn streams(cfg: &DispatcherConfig) -> Vec<Stream> {
    let (big, r) = (cfg.max_waves(), cfg.channels);
    let small = Stream {
        name: "small, all channels",
        channels: r,
        waves: (1, (big / 8).max(1)),
        vgpr: (1, (cfg.vgpr_blocks / 16).max(1)),
        sgpr: (1, (cfg.sgpr_blocks / 16).max(1)),
        lds: (0, cfg.lds_blocks / 12),
        run: (24, 40),
    };
    let medium = Stream {
        name: "medium, all channels",
        waves: (big / 8, big / 4),
        ..small.clone()
    };
    let large = Stream {
        name: "large, all channels",
        waves: (big / 2, big),
        vgpr: (1, (cfg.vgpr_blocks / cfg.wave_slots).max(1)),
        sgpr: (1, (cfg.sgpr_blocks / cfg.wave_slots).max(1)),
        ..small.clone()
    };
    let one = Stream {
        name: "small, one channel",
        channels: 1,
        ..small.clone()
    };
    vec![small, one, medium, large]
}

/// One row of the K sweep.
#[derive(Clone, Debug)]
pub struct StreamResult {
    pub k: usize,
    pub stream: &'static str,
    /// Cycles measured (after the warm-up).
    pub cycles: u64,
    pub records: u64,
    /// Records per cycle.
    pub per_cycle: f64,
    /// Head → record (cycle the WG is its FIFO's head → cycle its record is on the ports).
    pub lat_mean: f64,
    pub lat_p99: u64,
    pub lat_max: u64,
    /// Mean number of eligible modules per cycle (maps unchanged for ≥ K cycles).
    pub eligible_mean: f64,
    /// Mean WGs in flight.
    pub inflight_mean: f64,
}

/// Warm-up cycles of a stream run (not measured).
pub const STREAM_WARMUP: u64 = 1_000;

/// Run one stream on the golden model of `cfg` (its `refresh_latency` is the K) through the
/// ports (`CycleModel::step`: push handshake, records, one completion per cycle), `cycles`
/// measured after [`STREAM_WARMUP`].
pub fn run_stream(cfg: DispatcherConfig, s: &Stream, cycles: u64, seed: u64) -> StreamResult {
    use std::cmp::Reverse;
    use std::collections::{BinaryHeap, HashMap};
    let mut d = Dispatcher::new(cfg);
    let mut rng = Rng::new(seed);
    let mut next_id = 0u32;
    let mut offer: Option<Wg> = None;
    let mut rr = 0usize;
    let mut head_seen: Vec<Option<u32>> = vec![None; cfg.channels];
    let mut head_at: HashMap<u32, u64> = HashMap::new();
    let mut due: BinaryHeap<Reverse<(u64, u32)>> = BinaryHeap::new();
    let (mut records, mut lat, mut elig_sum, mut infl_sum) = (0u64, vec![], 0u64, 0u64);
    let k = cfg.refresh_latency as u64;
    let total = STREAM_WARMUP + cycles;
    for now in 0..total {
        let measured = now >= STREAM_WARMUP;
        // heads of this cycle (a WG pushed in t is a head from t + 1)
        for (c, seen) in head_seen.iter_mut().enumerate() {
            let front = d.fifo[c].front().map(|w| w.id);
            if let Some(id) = front.filter(|_| front != *seen) {
                head_at.insert(id, now);
            }
            *seen = front;
        }
        if measured {
            elig_sum += d
                .changed
                .iter()
                .filter(|c| c.is_none_or(|c| c + k <= d.now))
                .count() as u64;
            infl_sum += d.res.inflight.iter().filter(|e| e.is_some()).count() as u64;
        }
        let wg = *offer.get_or_insert_with(|| {
            let waves = rng.range(s.waves.0, s.waves.1);
            let q = waves.div_ceil(cfg.units);
            let w = Wg {
                id: next_id & 0xFF,
                prio: rng.range(0, cfg.prios - 1),
                waves,
                vgpr: rng.range(s.vgpr.0, s.vgpr.1).min(cfg.vgpr_blocks / q),
                sgpr: rng.range(s.sgpr.0, s.sgpr.1).min(cfg.sgpr_blocks / q),
                lds: rng.range(s.lds.0, s.lds.1),
                indep: false,
            };
            next_id += 1;
            w
        });
        // the next fed channel with room, round robin
        let ch = (0..s.channels)
            .map(|j| (rr + j) % s.channels)
            .find(|&c| d.can_push(c));
        let mut i = match ch {
            Some(c) => DispIn::push(c, &wg),
            None => DispIn::default(),
        };
        if let Some(&Reverse((t, slot))) = due.peek() {
            if t <= now {
                due.pop();
                i.done_valid = true;
                i.done_slot = slot;
            }
        }
        let o = d.step(&i);
        if let Some(c) = ch {
            assert!(
                o.push_ready,
                "stream {}: push refused on channel {c}",
                s.name
            );
            offer = None;
            rr = (c + 1) % s.channels;
        }
        assert!(
            !o.error,
            "stream {}: error {} at cycle {now}",
            s.name, o.error_code
        );
        if o.disp_valid {
            let head = head_at
                .remove(&o.disp_id)
                .expect("a record of a WG that was a head");
            due.push(Reverse((
                now + rng.range(s.run.0, s.run.1) as u64,
                o.disp_slot,
            )));
            if measured {
                records += 1;
                lat.push(now - head);
            }
        }
    }
    lat.sort_unstable();
    let n = cycles as f64;
    StreamResult {
        k: cfg.refresh_latency,
        stream: s.name,
        cycles,
        records,
        per_cycle: records as f64 / n,
        lat_mean: lat.iter().sum::<u64>() as f64 / lat.len().max(1) as f64,
        lat_p99: if lat.is_empty() {
            0
        } else {
            percentile(&lat, 0.99)
        },
        lat_max: lat.last().copied().unwrap_or(0),
        eligible_mean: elig_sum as f64 / n,
        inflight_mean: infl_sum as f64 / n,
    }
}

/// Every stream of [`streams`] at every K of `ks` on `cfg` (seed 1 per stream).
pub fn k_sweep(cfg: DispatcherConfig, ks: &[usize], cycles: u64) -> Vec<StreamResult> {
    let mut out = vec![];
    for s in streams(&cfg) {
        for &k in ks {
            let c = DispatcherConfig {
                refresh_latency: k,
                ..cfg
            };
            out.push(run_stream(c, &s, cycles, 1));
        }
    }
    out
}

/// The K sweep as a Markdown table.
pub fn stream_markdown(results: &[StreamResult]) -> String {
    let mut s = String::from(
        "| stream | K | records per cycle | head → record mean / p99 / max | eligible modules (mean) | in flight (mean) |\n\
         |---|---:|---:|---|---:|---:|\n",
    );
    for r in results {
        s += &format!(
            "| {} | {} | {:.3} | {:.2} / {} / {} | {:.1} | {:.1} |\n",
            r.stream,
            r.k,
            r.per_cycle,
            r.lat_mean,
            r.lat_p99,
            r.lat_max,
            r.eligible_mean,
            r.inflight_mean
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn workload(cfg: &DispatcherConfig, cycles: u64, name: &str) -> Workload {
        workloads(cfg, cycles)
            .into_iter()
            .find(|w| w.name == name)
            .expect("a standard workload")
    }

    /// Emb. 3's split pays off only when the sub-WGs need no LDS copy each and the in-flight
    /// table has an entry for every one of them (the README's finding).
    #[test]
    fn split_pays_off_only_without_lds_and_with_table_room() {
        let thr = |cfg: DispatcherConfig, w: &str, s: Scheduler| {
            run(cfg, "board", &workload(&cfg, 50_000, w), s).throughput
        };
        let (split, no_split) = (Scheduler::Patent(Policy::First), Scheduler::PatentNoSplit);
        let board = DispatcherConfig::board();
        let roomy = DispatcherConfig { slots: 64, ..board };
        for (cfg, w, helps) in [
            (board, "fragmenting", false),
            (board, "frag, indep no LDS", false),
            (roomy, "fragmenting", false),
            (roomy, "frag, indep no LDS", true),
        ] {
            let (a, b) = (thr(cfg, w, split), thr(cfg, w, no_split));
            assert_eq!(
                a > b,
                helps,
                "{} slots, {w}: {a} WGs/1k with the split, {b} without",
                cfg.slots
            );
        }
    }

    #[test]
    fn patent_passes_blocked_heads_where_strict_priority_blocks() {
        let cfg = DispatcherConfig::board();
        let w = &workload(&cfg, 20_000, "head-of-line");
        let p = run(cfg, "board", w, Scheduler::Patent(Policy::First));
        let s = run(cfg, "board", w, Scheduler::StrictPriority);
        // the small low-priority WGs wait less when they can pass a blocked big head
        let (p3, s3) = (p.delay[3].unwrap().1, s.delay[3].unwrap().1);
        assert!(p3 < s3, "p99 delay of priority 3: patent {p3}, strict {s3}");
    }

    #[test]
    fn one_per_cycle_beats_miaow_on_tiny_wgs() {
        let cfg = DispatcherConfig::full();
        let w = &workload(&cfg, 5_000, "tiny-burst");
        let p = run(cfg, "full", w, Scheduler::Patent(Policy::First));
        let m = run(cfg, "full", w, Scheduler::Miaow);
        assert!(
            p.throughput > 2.0 * m.throughput,
            "{} vs {}",
            p.throughput,
            m.throughput
        );
    }

    /// The K sweep's harness measures the pipeline's own rates where eligibility does not bind
    /// (K = 0: one record per cycle from four channels, one per two cycles from one, head →
    /// record 3 cycles) and the finding of `docs/dispatcher_scale.md`: at the measured cache's
    /// K = 12 the full config falls below 0.95 records per cycle from four channels, at K = 7
    /// it does not.
    #[test]
    fn k_sweep_measures_the_pipeline_and_the_eligibility_loss() {
        let full = DispatcherConfig::full();
        let s = streams(&full);
        let at = |k: usize, stream: &Stream| {
            run_stream(
                DispatcherConfig {
                    refresh_latency: k,
                    ..full
                },
                stream,
                4_000,
                1,
            )
        };
        let (four, one) = (&s[0], &s[1]);
        assert_eq!((four.channels, one.channels), (4, 1));
        let r = at(0, four);
        assert!(r.per_cycle >= 0.99, "{r:?}");
        assert_eq!((r.lat_p99, r.lat_max), (3, 3), "{r:?}");
        assert!(r.eligible_mean == 16.0, "{r:?}");
        let r = at(0, one);
        assert!((r.per_cycle - 0.5).abs() < 0.01, "{r:?}");
        assert!(at(7, four).per_cycle >= 0.95);
        let r = at(FULL_REFRESH_LATENCY, four);
        assert!(r.per_cycle < 0.95 && r.eligible_mean < 8.0, "{r:?}");
    }

    #[test]
    fn runs_are_deterministic() {
        let cfg = DispatcherConfig::board();
        let w = &workloads(&cfg, 3_000)[0];
        let a = run(cfg, "board", w, Scheduler::Patent(Policy::MinPowerHistory));
        let b = run(cfg, "board", w, Scheduler::Patent(Policy::MinPowerHistory));
        assert_eq!(format!("{a:?}"), format!("{b:?}"));
        assert!(a.dispatched > 0);
    }

    #[test]
    #[ignore]
    fn print_tables() {
        for (cfg, name) in [
            (DispatcherConfig::board(), "board"),
            (DispatcherConfig::full(), "full"),
        ] {
            let t = std::time::Instant::now();
            println!(
                "{}",
                markdown(&evaluate(
                    cfg,
                    name,
                    if name == "full" { 20_000 } else { 50_000 }
                ))
            );
            println!("{name}: {:?}", t.elapsed());
        }
    }
}
