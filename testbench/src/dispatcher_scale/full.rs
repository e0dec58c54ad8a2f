//! The integrated patent-scale dispatcher (`hdl::dispatcher_scale::DispatcherFull`, design
//! block 6 step 4): its port table, the two `DispatcherConfig`s it implements, the windows the
//! SPEC checker (`crate::spec::dispatcher`) judges it with, a closed-loop random driver (the
//! completions name slots the records gave out, so every part of the pipeline is exercised) and
//! the saturating stream of `synth bench --unit dispatcher --config full`.
//!
//! The judge is the SPEC checker alone (no cycle model of this pipeline exists yet): H = LA + 4
//! (the allocator's latency LA = log2(V) + 2), K = the write refresh's K + 1, F = 2, no LFSR
//! ([`DispatcherChecker::any_tie_winner`]); all three policies are built (`POLICY` 3 is
//! refused, as SPEC says).

use crate::port_table;
use crate::spec::dispatcher::{DispatcherChecker, Timing};
use golden_model::dispatcher::eval::Rng;
use golden_model::dispatcher::{reg, DispIn, DispOut, DispatcherConfig};
use hdl::dispatcher_scale::DispatcherFull;

port_table! {
    /// Port map of the exported integrated dispatcher (both configs: the full widths).
    pub struct DispFullPorts: DispIn => DispOut;
    dut [const V: usize, const S: usize, const S2: usize, const L: usize, const H: usize,
        const KV: usize, const KH: usize, const SH: usize, const DC: usize, const DT: usize,
        const R: usize, const M2: usize, const SV: usize, const LT: usize, const WS: usize,
        const MW: usize]
        DispatcherFull<V, S, S2, L, H, KV, KH, SH, DC, DT, R, M2, SV, LT, WS, MW>;
    ports {
        in reset: 1,
        in push_valid: 1,
        out push_ready: 1,
        in push_channel: 2,
        in push_id: 8,
        in push_prio: 2,
        in push_waves: 7,
        in push_vgpr: 8,
        in push_sgpr: 7,
        in push_lds: 6,
        in push_indep: 1,
        out disp_valid: 1,
        out disp_id: 8,
        out disp_module: 4,
        out disp_slot: 6,
        out disp_sub: 1,
        out disp_waves: 20,
        out disp_vgpr_base: 28,
        out disp_sgpr_base: 24,
        out disp_lds_base: 6,
        in done_valid: 1,
        in done_slot: 6,
        in cfg_we: 1,
        in cfg_addr: 4,
        in cfg_data: 16,
        in retire_class: 64,
        out error: 1,
        out error_code: 3,
    }
}

/// Which of the two built configs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FullCfg {
    /// `DispatcherConfig::full()` (maps 128 / 64 / 48, 16 wave slots).
    Full,
    /// The same channels, modules, units and slots with the board's maps (16 / 8 / 16) and 4
    /// wave slots.
    Small,
}

impl FullCfg {
    /// The allocator's request → record latency LA = log2(V) + 2.
    pub fn la(self) -> usize {
        match self {
            FullCfg::Full => 9,
            FullCfg::Small => 6,
        }
    }
    /// The write refresh's K (`MapRefresh`: D + 1).
    pub fn k(self) -> usize {
        match self {
            FullCfg::Full => 7,
            FullCfg::Small => 5,
        }
    }
    /// The SPEC config the RTL implements (K as the checker needs it: see [`Self::timing`]).
    pub fn config(self) -> DispatcherConfig {
        let full = DispatcherConfig::full();
        let base = match self {
            FullCfg::Full => full,
            FullCfg::Small => DispatcherConfig {
                vgpr_blocks: 16,
                sgpr_blocks: 8,
                lds_blocks: 16,
                wave_slots: 4,
                ..full
            },
        };
        DispatcherConfig {
            refresh_latency: self.k() + 1,
            ..base
        }
    }
    /// The checker's windows: H = head → record = LA + 4, K = refresh K + 1 (the fit of cycle
    /// d judges the heads of d − 2 on the runs of d − 1), F = 2.
    pub fn timing(self) -> Timing {
        Timing {
            head_to_record: self.la() + 4,
            refresh: self.k() + 1,
            free_latency: 2,
        }
    }
    /// The SPEC checker set up for this pipeline.
    pub fn checker(self) -> DispatcherChecker {
        DispatcherChecker::with_timing(self.config(), self.timing()).any_tie_winner()
    }
}

/// The ports carry the full config's field widths in both configs; the checker unpacks with the
/// config's. Fields that do not fit the narrower width are saturated (so the checker sees a
/// wrong value, never a silently truncated right one).
pub fn repack(cfg: &DispatcherConfig, o: &DispOut) -> DispOut {
    let full = DispatcherConfig::full();
    let re = |w: u64, from: usize, to: usize| -> u64 {
        (0..cfg.units).fold(0, |acc, t| {
            let v = (w >> (from * t)) & ((1 << from) - 1);
            acc | v.min((1 << to) - 1) << (to * t)
        })
    };
    DispOut {
        disp_waves: re(o.disp_waves, full.unit_waves_bits(), cfg.unit_waves_bits()),
        disp_vgpr_base: re(
            o.disp_vgpr_base,
            full.vgpr_base_bits(),
            cfg.vgpr_base_bits(),
        ),
        disp_sgpr_base: re(
            o.disp_sgpr_base,
            full.sgpr_base_bits(),
            cfg.sgpr_base_bits(),
        ),
        ..o.clone()
    }
}

/// A random closed-loop driver: each cycle's inputs from the seed and the records seen so far.
/// `done_pct` of the cycles complete a live slot (one recorded at least a cycle before), 2 % of
/// those a random slot (perhaps idle: `IDLE_SLOT`); config writes: policy 0..=3 (3 refused),
/// split thresholds 0..=48 (the split is exercised), windows 1..=40, weights, power windows.
/// WG ids are unique among the WGs queued and not yet recorded (the next free id, wrapping at
/// 256): a record names its WG by id only, so two channel fronts with one id would leave the
/// SPEC checker to guess the channel (it takes the first that is legal; session 13).
pub struct Driver {
    cfg: DispatcherConfig,
    rng: Rng,
    live: Vec<usize>,
    next_id: u32,
    /// Ids accepted and not yet recorded whole: the records each still needs (a split WG one
    /// per wave).
    queued: std::collections::HashMap<u32, usize>,
    /// The id pushed (accepted by `push_ready`) in the last cycle: refused if the next cycle
    /// shows a push error.
    pending: Option<u32>,
    /// Percent of cycles with a push / completion / config write; largest waves, VGPR / SGPR per
    /// wave, LDS; percent independent.
    pub push_pct: usize,
    pub done_pct: usize,
    pub cfg_pct: usize,
    pub waves_max: usize,
    pub vgpr_max: usize,
    pub sgpr_max: usize,
    pub lds_max: usize,
    pub indep_pct: usize,
    /// Percent of pushes with a bad descriptor (zero waves or never fits).
    pub bad_pct: usize,
    /// Config writes (address, data) in cycles 1, 2, … before any random one.
    pub start_writes: Vec<(u32, u32)>,
    /// Whether the random config writes include `POLICY`.
    pub policy_writes: bool,
}

impl Driver {
    /// Mix `mix` (0..5: small WGs, big WGs with splits, config churn, sparse, and 4:
    /// `min_power_history` with short power windows) for `cfg`.
    pub fn new(cfg: DispatcherConfig, seed: u64, mix: usize) -> Self {
        let mut d = Self {
            cfg,
            rng: Rng::new(seed.wrapping_mul(7919).wrapping_add(mix as u64)),
            live: vec![],
            next_id: 0,
            queued: Default::default(),
            pending: None,
            push_pct: 60,
            done_pct: 30,
            cfg_pct: 1,
            waves_max: cfg.max_waves() / 4,
            vgpr_max: cfg.vgpr_blocks / 8,
            sgpr_max: cfg.sgpr_blocks / 8,
            lds_max: cfg.lds_blocks / 4,
            indep_pct: 30,
            bad_pct: 2,
            start_writes: vec![],
            policy_writes: true,
        };
        match mix {
            0 => {}
            1 => {
                d.waves_max = cfg.max_waves();
                d.vgpr_max = cfg.vgpr_blocks / cfg.wave_slots;
                d.sgpr_max = cfg.sgpr_blocks / cfg.wave_slots;
                d.lds_max = cfg.lds_blocks;
                d.indep_pct = 70;
                d.done_pct = 15;
            }
            2 => {
                d.cfg_pct = 8;
                d.push_pct = 80;
            }
            3 => {
                d.push_pct = 15;
                d.done_pct = 10;
            }
            _ => {
                // `min_power_history` throughout: short power windows (the retire strobes are
                // random every cycle, so the modules' histories differ and keep changing),
                // random weight and window writes, no policy write
                let nx = d.rng.range(8, 96) as u32;
                d.start_writes = vec![(reg::POLICY, 2), (reg::POWER_WINDOW, nx)];
                d.policy_writes = false;
                d.cfg_pct = 2;
            }
        }
        d
    }

    fn pct(&mut self, p: usize) -> bool {
        self.rng.range(0, 99) < p
    }

    /// The inputs of the next cycle (`cycle` counts from 0; cycle 0 is a reset).
    pub fn next(&mut self, cycle: usize) -> DispIn {
        if cycle == 0 {
            self.live.clear();
            return DispIn {
                reset: true,
                ..DispIn::default()
            };
        }
        let c = self.cfg;
        let mut i = DispIn::default();
        if self.pct(self.push_pct) {
            i.push_valid = true;
            i.push_channel = self.rng.range(0, c.channels - 1) as u32;
            while self.queued.contains_key(&(self.next_id & 0xFF)) {
                self.next_id += 1;
            }
            i.push_id = self.next_id & 0xFF;
            self.next_id += 1;
            i.push_prio = self.rng.range(0, 3) as u32;
            i.push_waves = self.rng.range(1, self.waves_max.max(1)) as u32;
            i.push_vgpr = self.rng.range(0, self.vgpr_max) as u32;
            i.push_sgpr = self.rng.range(0, self.sgpr_max) as u32;
            i.push_lds = self.rng.range(0, self.lds_max) as u32;
            i.push_indep = self.pct(self.indep_pct);
            if self.pct(self.bad_pct) {
                match self.rng.range(0, 2) {
                    0 => i.push_waves = 0,
                    1 => i.push_lds = (c.lds_blocks + 1).min(63) as u32,
                    _ => i.push_vgpr = c.vgpr_blocks.min(255) as u32,
                }
            }
        }
        if self.pct(self.done_pct) {
            if !self.live.is_empty() && !self.pct(2) {
                let k = self.rng.range(0, self.live.len() - 1);
                i.done_valid = true;
                i.done_slot = self.live.swap_remove(k) as u32;
            } else if self.pct(30) {
                i.done_valid = true;
                i.done_slot = self.rng.range(0, c.slots - 1) as u32;
                self.live.retain(|&s| s != i.done_slot as usize);
            }
        }
        if let Some(&(addr, data)) = self.start_writes.get(cycle - 1) {
            i.cfg_we = true;
            i.cfg_addr = addr;
            i.cfg_data = data;
        } else if self.pct(self.cfg_pct) {
            i.cfg_we = true;
            let lo = if self.policy_writes { 0 } else { 1 };
            let (addr, data) = match self.rng.range(lo, 6) {
                0 => (reg::POLICY, self.rng.range(0, 3) as u32),
                1 => (1, self.rng.range(0, 48) as u32),
                2 => (
                    reg::WIN_LEN0 + self.rng.range(0, 3) as u32,
                    self.rng.range(1, 40) as u32,
                ),
                3 => (6, self.rng.next_u64() as u32 & 0xFFFF),
                4 => (7, self.rng.next_u64() as u32 & 0xFFFF),
                5 => (8, self.rng.range(1, 2000) as u32),
                _ => (self.rng.range(9, 15) as u32, 0),
            };
            i.cfg_addr = addr;
            i.cfg_data = data;
        }
        i.retire_class = self.rng.next_u64();
        i
    }

    /// Tell the driver what the outputs of its last cycle were (records make slots live).
    pub fn saw(&mut self, i: &DispIn, o: &DispOut) {
        if i.reset {
            self.live.clear();
            self.queued.clear();
            self.pending = None;
            return;
        }
        // the last cycle's push refused (push error codes 1..=3 beat the others)
        if let Some(id) = self.pending.take() {
            if o.error && (1..=3).contains(&o.error_code) {
                self.queued.remove(&id);
            }
        }
        if o.disp_valid {
            self.live.push(o.disp_slot as usize);
            if let Some(n) = self.queued.get_mut(&o.disp_id) {
                *n = if o.disp_sub { n.saturating_sub(1) } else { 0 };
                if *n == 0 {
                    self.queued.remove(&o.disp_id);
                }
            }
        }
        if i.push_valid && o.push_ready {
            self.queued.insert(i.push_id, i.push_waves.max(1) as usize);
            self.pending = Some(i.push_id);
        }
    }
}

/// Run `cycles` cycles of the closed-loop driver on `step` (one clock cycle of an
/// implementation), returning the trace and its outputs (in the port layout of `cfg`).
pub fn drive(
    cfg: DispatcherConfig,
    seed: u64,
    mix: usize,
    cycles: usize,
    mut step: impl FnMut(&DispIn) -> DispOut,
) -> (Vec<DispIn>, Vec<DispOut>) {
    let mut d = Driver::new(cfg, seed, mix);
    let (mut ins, mut outs) = (Vec::with_capacity(cycles), Vec::with_capacity(cycles));
    for k in 0..cycles {
        let i = d.next(k);
        let o = repack(&cfg, &step(&i));
        d.saw(&i, &o);
        ins.push(i);
        outs.push(o);
    }
    (ins, outs)
}

/// What one saturating stream measured ([`run_stream`]).
#[derive(Clone, Debug)]
pub struct StreamFigures {
    /// Cycles measured (after the warm-up) and records in them.
    pub cycles: u64,
    pub records: u64,
    /// Head → record per WG from the trace, in the SPEC view (a WG is its channel's head from
    /// the cycle after its push into an empty channel, or from the cycle after the record of the
    /// WG before it; an idle channel's WG so measures the pipeline's own head → record): mean
    /// and max over the measured records.
    pub lat_mean: f64,
    pub lat_max: u64,
    /// Push → record, smallest (an idle pipeline: push + 1 + the pipeline's head → record).
    pub push_to_record_min: u64,
}

impl StreamFigures {
    /// Records per cycle.
    pub fn per_cycle(&self) -> f64 {
        self.records as f64 / self.cycles.max(1) as f64
    }
}

/// Warm-up cycles of a stream (not measured).
pub const STREAM_WARMUP: u64 = 1_000;

/// The K sweep's saturating stream (`golden_model::dispatcher::eval::streams`: "small" WGs that
/// fit on every module at any time) on any implementation: the host offers one WG per cycle on
/// the push port, round robin over `channels` channels (a full FIFO is skipped), every WG
/// dependent, each completed 24..40 cycles after its record (one completion per cycle, queued);
/// `cycles` measured after [`STREAM_WARMUP`]. `step` returns the outputs packed for `cfg` (the
/// full RTL at a smaller config: [`repack`] them). Returns the figures and the trace (for the
/// checker).
pub fn run_stream(
    cfg: &DispatcherConfig,
    channels: usize,
    cycles: u64,
    seed: u64,
    mut step: impl FnMut(&DispIn) -> DispOut,
) -> (StreamFigures, Vec<DispIn>, Vec<DispOut>) {
    use std::collections::{BTreeMap, VecDeque};
    let s = golden_model::dispatcher::eval::streams(cfg)[0].clone();
    let mut rng = Rng::new(seed);
    let total = STREAM_WARMUP + cycles;
    let (mut ins, mut outs) = (vec![], vec![]);
    // per channel: (id, push cycle) not yet recorded; the cycle the front became the front
    let mut queue: Vec<VecDeque<(u32, u64)>> = vec![VecDeque::new(); cfg.channels];
    let mut front_since: Vec<u64> = vec![0; cfg.channels];
    let mut due: BTreeMap<u64, Vec<usize>> = BTreeMap::new();
    let mut done_q: VecDeque<usize> = VecDeque::new();
    let (mut rr, mut next_id) = (0usize, 0u32);
    let (mut records, mut lat_sum, mut lat_max, mut p2r_min) = (0u64, 0u64, 0u64, u64::MAX);
    for now in 0..total {
        let mut i = DispIn::default();
        if now == 0 {
            i.reset = true;
        } else if now > 16 {
            i.push_valid = true;
            i.push_channel = (rr % channels) as u32;
            i.push_id = next_id & 0xFF;
            i.push_prio = rng.range(0, 3) as u32;
            i.push_waves = rng.range(s.waves.0, s.waves.1) as u32;
            i.push_vgpr = rng.range(s.vgpr.0, s.vgpr.1) as u32;
            i.push_sgpr = rng.range(s.sgpr.0, s.sgpr.1) as u32;
            i.push_lds = rng.range(s.lds.0, s.lds.1) as u32;
        }
        if let Some(v) = due.remove(&now) {
            done_q.extend(v);
        }
        if let Some(slot) = done_q.pop_front() {
            i.done_valid = true;
            i.done_slot = slot as u32;
        }
        let o = step(&i);
        if i.push_valid && o.push_ready {
            let ch = i.push_channel as usize;
            if queue[ch].is_empty() {
                front_since[ch] = now + 1;
            }
            queue[ch].push_back((i.push_id, now));
            next_id += 1;
            rr += 1;
        } else if i.push_valid {
            rr += 1;
        }
        if o.disp_valid {
            let ch = (0..cfg.channels)
                .find(|&c| queue[c].front().is_some_and(|f| f.0 == o.disp_id))
                .expect("a record of some channel's front");
            if !o.disp_sub {
                let (_, pushed) = queue[ch].pop_front().expect("front");
                if now >= STREAM_WARMUP {
                    records += 1;
                    let lat = now - front_since[ch];
                    lat_sum += lat;
                    lat_max = lat_max.max(lat);
                    p2r_min = p2r_min.min(now - pushed);
                }
                front_since[ch] = now + 1;
            }
            let run = rng.range(s.run.0, s.run.1) as u64;
            due.entry(now + run).or_default().push(o.disp_slot as usize);
        }
        ins.push(i);
        outs.push(o);
    }
    (
        StreamFigures {
            cycles,
            records,
            lat_mean: lat_sum as f64 / records.max(1) as f64,
            lat_max,
            push_to_record_min: p2r_min,
        },
        ins,
        outs,
    )
}
