//! Lock unit (SPEC Unit 1) verification: RTL adapter, port map for Verilator replay, stimulus
//! strategies, output-level invariants, and the drain check (every waiting warp is eventually
//! served once the holders release).

use crate::lockstep::{cycle_table, Verdict};
use golden_model::lock_unit::{LockConfig, LockIn, LockOut};
use golden_model::CycleModel;
use proptest::prelude::*;

crate::port_table! {
    /// Port map of the exported lock unit top (order of the port list).
    pub struct LockPorts(LockConfig) as c: LockIn => LockOut;
    dut [const W: usize, const L: usize, const WB: usize, const WB1: usize, const LB: usize, const PB: usize, const D: usize, const CB: usize, const HB: usize, const LW: usize, const F: usize, const WF: usize, const LF: usize] hdl::lock_unit::LockUnit<W, L, WB, WB1, LB, PB, D, CB, HB, LW, F, WF, LF>;
    ports {
        in reset: 1,
        in cpr_we: 1,
        in cpr_warp: c.warp_bits(),
        in cpr_prio: c.prio_bits,
        in cfg_we: 1,
        in cfg_hold_limit: c.hold_bits,
        in acq_valid: 1,
        out acq_ready: 1,
        in acq_warp: c.warp_bits(),
        in acq_lock: c.lock_bits(),
        in rel_valid: 1,
        in rel_warp: c.warp_bits(),
        in rel_lock: c.lock_bits(),
        in retire: c.warps,
        out grant: c.warps,
        out deny: c.warps,
        out revoke: c.warps,
        out waiting: c.warps,
        out lock_words: c.locks * c.word_bits(),
        out error: 1,
        out error_code: 3,
    }
}

/// Owners of the locks as seen on `lock_words`.
pub fn owners(cfg: &LockConfig, words: u128) -> Vec<Option<usize>> {
    let (wb, ww) = (cfg.warp_bits(), cfg.word_bits());
    (0..cfg.locks)
        .map(|l| {
            let word = (words >> (ww * l)) & ((1u128 << ww) - 1);
            (word >> wb & 1 == 1).then_some((word & ((1u128 << wb) - 1)) as usize)
        })
        .collect()
}

/// SPEC Unit 1 invariants checked on the implementation's outputs every cycle. Keeps the
/// previous cycle's outputs to check transitions of the `waiting` level.
pub struct LockInvariants {
    cfg: LockConfig,
    prev: Option<LockOut>,
    prev_reset: bool,
    /// The spec checker judged on the same cycles (`with_spec_checker`), and the cycle count.
    spec: Option<crate::spec::lock_unit::LockSpecChecker>,
    cycle: usize,
}

impl LockInvariants {
    pub fn new(cfg: LockConfig) -> Self {
        Self {
            cfg,
            prev: None,
            prev_reset: true,
            spec: None,
            cycle: 0,
        }
    }

    /// The invariants and the spec checker (SPEC §0) on every cycle checked.
    pub fn with_spec_checker(cfg: LockConfig) -> Self {
        Self {
            spec: Some(crate::spec::lock_unit::LockSpecChecker::new(cfg)),
            ..Self::new(cfg)
        }
    }

    /// The spec checker's event counts, if it runs.
    pub fn spec_stats(&self) -> Option<&crate::spec::lock_unit::SpecStats> {
        self.spec.as_ref().map(|s| &s.stats)
    }

    pub fn check(&mut self, i: &LockIn, o: &LockOut) -> Result<(), String> {
        let cycle = self.cycle;
        self.cycle += 1;
        if let Some(spec) = &mut self.spec {
            use crate::spec::SpecChecker;
            spec.check(cycle, i, o)
                .map_err(|e| format!("spec checker: {e}"))?;
        }
        self.check_invariants(i, o)
    }

    fn check_invariants(&mut self, i: &LockIn, o: &LockOut) -> Result<(), String> {
        let c = &self.cfg;
        let all = if c.warps == 64 {
            !0
        } else {
            (1u64 << c.warps) - 1
        };
        let own = owners(c, o.lock_words);
        let owning = own.iter().flatten().fold(0u64, |m, &w| m | 1 << w);
        if own.iter().flatten().any(|&w| w >= c.warps) {
            return Err(format!("a lock word names a warp out of range: {own:?}"));
        }
        if o.waiting & owning != 0 {
            return Err(format!(
                "warps {:#b} both wait and own a lock",
                o.waiting & owning
            ));
        }
        if o.revoke & owning != 0 {
            return Err(format!(
                "warps {:#b} revoked this cycle still own a lock",
                o.revoke & owning
            ));
        }
        if o.grant & o.deny != 0 || o.grant & o.revoke != 0 {
            return Err("grant together with deny or revoke for one warp".into());
        }
        if (o.grant | o.deny | o.revoke | o.waiting) & !all != 0 {
            return Err("strobe for a warp that does not exist".into());
        }
        if o.error != (o.error_code != 0) || o.error_code > 3 {
            return Err(format!("error {} with code {}", o.error, o.error_code));
        }
        if o.grant & !owning != 0 {
            return Err(format!(
                "granted warps {:#b} own no lock",
                o.grant & !owning
            ));
        }
        if o.deny & !o.waiting != 0 {
            return Err("a denied warp is not waiting".into());
        }
        if let Some(p) = &self.prev {
            if !self.prev_reset {
                // waiting ends only with a grant (hand-off) or a revocation (SPEC 5: it stops
                // waiting); it starts only with a deny
                let stopped = p.waiting & !o.waiting;
                if stopped & !(o.grant | o.revoke) != 0 {
                    return Err(format!(
                        "warps {stopped:#b} stopped waiting without a grant or a revocation"
                    ));
                }
                let started = o.waiting & !p.waiting;
                if started & !o.deny != 0 {
                    return Err(format!("warps {started:#b} started waiting without a deny"));
                }
            }
        }
        self.prev = Some(o.clone());
        self.prev_reset = i.reset;
        Ok(())
    }
}

/// Drive both implementations with an adaptive "drain" after a random trace: no new acquires,
/// every cycle the owner of the lowest held lock releases it, until nothing is held, nobody waits
/// and the FIFO is empty. Every accepted request must therefore end (no request lost), within
/// `max_cycles`. Outputs are compared every cycle; a failure prints the drain's cycle table.
pub fn drain<M, R>(
    cfg: &LockConfig,
    model: &mut M,
    rtl: &mut R,
    inv: &mut LockInvariants,
    max_cycles: usize,
) -> Verdict
where
    M: CycleModel<In = LockIn, Out = LockOut>,
    R: CycleModel<In = LockIn, Out = LockOut>,
{
    let mut inputs = vec![LockIn::default()];
    let mut history = vec![];
    let mut quiet = 0;
    for cycle in 0..max_cycles {
        let input = inputs[cycle].clone();
        let want = model.step(&input);
        let got = rtl.step(&input);
        let inv_result = inv.check(&input, &got);
        let same = got == want;
        history.push((got.clone(), want));
        if !same || inv_result.is_err() {
            let why = format!(
                "drain: {}",
                inv_result.err().unwrap_or_else(|| "outputs differ".into())
            );
            return Err(cycle_table(&inputs, &history, cycle, &why));
        }
        let own = owners(cfg, got.lock_words);
        let mut next = LockIn::default();
        if let Some((l, w)) = own.iter().enumerate().find_map(|(l, o)| o.map(|w| (l, w))) {
            next.rel_valid = true;
            next.rel_warp = w as u32;
            next.rel_lock = l as u32;
            quiet = 0;
        } else if got.waiting == 0 && got.acq_ready && got.grant == 0 {
            quiet += 1;
            // the FIFO may still hold entries while acq_ready is high: wait out its depth
            if quiet > cfg.fifo_depth + 2 {
                return Ok(());
            }
        } else {
            quiet = 0;
        }
        inputs.push(next);
    }
    Err(format!(
        "drain: no quiescence within {max_cycles} cycles: a request was lost or starved"
    ))
}

/// Stimulus knobs for one random trace.
#[derive(Clone, Debug)]
pub struct Mix {
    /// Percent of cycles with an acquire / a release / a CPR write / a hold-limit write.
    pub acq: u32,
    pub rel: u32,
    pub cpr: u32,
    pub cfg: u32,
    /// Percent of cycles that are fully idle (no request at all, no retire).
    pub idle: u32,
    /// Warps that take part (concentrates contention), and the chance of an out-of-range ID.
    pub active_warps: u32,
    pub bad_id: u32,
    /// Locks that take part (1 piles every waiter onto one lock: long hand-off chains).
    pub active_locks: u32,
}

fn pct(p: u32) -> impl Strategy<Value = bool> {
    (0u32..100).prop_map(move |x| x < p)
}

/// One cycle of stimulus. In-range warp IDs are `perm[w % active_warps]`: a trace's active
/// warps are a random subset, so every pair of warps meets in contention (hand-off picks
/// between them, one preempting the other), not only the lowest-numbered ones.
pub fn cycle_strategy(cfg: LockConfig, mix: Mix, perm: Vec<u32>) -> impl Strategy<Value = LockIn> {
    let wmax = 1u32 << cfg.warp_bits();
    let lmax = 1u32 << cfg.lock_bits();
    let pmax = 1u32 << cfg.prio_bits;
    let active = mix.active_warps.clamp(1, cfg.warps as u32);
    let active_locks = mix.active_locks.clamp(1, cfg.locks as u32);
    assert_eq!(perm.len(), cfg.warps, "perm: one entry per warp");
    let warp = move |bad: bool, w: u32| {
        if bad {
            w % wmax
        } else {
            perm[(w % active) as usize]
        }
    };
    let lock = move |bad: bool, l: u32| if bad { l % lmax } else { l % active_locks };
    // limits of every size; also just above half the counter's range, where the derived
    // `limit - 1` / `limit - 2` registers first use their top bit
    let half = 1u32 << (cfg.hold_bits - 1);
    let hold_choices = prop_oneof![
        Just(0u32),
        Just(1),
        Just(2),
        Just(3),
        Just(5),
        Just(64),
        (half + 1)..(half + 4),
        0u32..(1 << cfg.hold_bits)
    ];
    (
        (
            pct(mix.idle),
            pct(1),
            pct(mix.acq),
            pct(mix.rel),
            pct(mix.cpr),
            pct(mix.cfg),
        ),
        (pct(mix.bad_id), pct(mix.bad_id), pct(mix.bad_id)),
        (
            any::<u32>(),
            any::<u32>(),
            any::<u32>(),
            any::<u32>(),
            any::<u32>(),
            0..pmax,
        ),
        (any::<u64>(), 0u32..4, hold_choices),
    )
        .prop_map(
            move |(
                (idle, reset, a, r, c, g),
                (ba, br, bc),
                (aw, al, rw, rl, cw, cp),
                (ret, dens, hl),
            )| {
                if idle {
                    return LockIn::default();
                }
                let all = if cfg.warps == 64 {
                    !0
                } else {
                    (1u64 << cfg.warps) - 1
                };
                // retire density: none, sparse, half, all
                let retire = match dens {
                    0 => 0,
                    1 => ret & (ret >> 7) & (ret >> 13),
                    2 => ret,
                    _ => !0,
                } & all;
                LockIn {
                    reset,
                    cpr_we: c,
                    cpr_warp: warp(bc, cw),
                    cpr_prio: cp,
                    cfg_we: g,
                    cfg_hold_limit: hl,
                    acq_valid: a,
                    acq_warp: warp(ba, aw),
                    acq_lock: lock(ba, al),
                    rel_valid: r,
                    rel_warp: warp(br, rw),
                    rel_lock: lock(br, rl),
                    retire,
                }
            },
        )
}

/// Stimulus mixes: contention-heavy, release-heavy, priority churn, sparse with idle gaps,
/// a hold-limit stress with small limits and dense retirement, one contended lock, and long
/// holds under the reset hold limit.
pub fn mixes(cfg: &LockConfig) -> Vec<Mix> {
    let w = cfg.warps as u32;
    let l = cfg.locks as u32;
    vec![
        Mix {
            acq: 60,
            rel: 20,
            cpr: 5,
            cfg: 1,
            idle: 10,
            active_warps: w,
            bad_id: 3,
            active_locks: l,
        },
        Mix {
            acq: 40,
            rel: 50,
            cpr: 3,
            cfg: 1,
            idle: 5,
            active_warps: w.min(4),
            bad_id: 2,
            active_locks: l,
        },
        Mix {
            acq: 50,
            rel: 30,
            cpr: 30,
            cfg: 2,
            idle: 5,
            active_warps: w,
            bad_id: 5,
            active_locks: l,
        },
        Mix {
            acq: 20,
            rel: 15,
            cpr: 5,
            cfg: 1,
            idle: 50,
            active_warps: w,
            bad_id: 10,
            active_locks: l,
        },
        Mix {
            acq: 50,
            rel: 10,
            cpr: 10,
            cfg: 15,
            idle: 0,
            active_warps: w.min(3),
            bad_id: 1,
            active_locks: l,
        },
        // every active warp on one lock: long queues of waiters, hand-off after hand-off
        // (the best-waiter pick between every pair, round robin among ties), CPRs rewritten
        // while warps wait
        Mix {
            acq: 60,
            rel: 30,
            cpr: 10,
            cfg: 0,
            idle: 5,
            active_warps: w.min(5),
            bad_id: 1,
            active_locks: 1,
        },
        // two locks, no hold-limit writes (the reset limit of 64 governs, also after a
        // mid-trace reset), long holds under dense retirement
        Mix {
            acq: 40,
            rel: 8,
            cpr: 2,
            cfg: 0,
            idle: 2,
            active_warps: w.min(6),
            bad_id: 1,
            active_locks: 2,
        },
    ]
}

/// A whole trace: a setup prefix that writes every warp's priority, then random cycles of one
/// mix, optionally cut into bursts (busy segments separated by silent ones); or, in 2 pieces of
/// 9, a [`handoff_episode`] of the same length range.
pub fn trace_strategy(cfg: LockConfig, max_len: usize) -> impl Strategy<Value = Vec<LockIn>> {
    let setup_prios = proptest::collection::vec(0u32..(1 << cfg.prio_bits), cfg.warps);
    let mixes = mixes(&cfg);
    let kinds = mixes.len() + 2;
    let perm = Just((0..cfg.warps as u32).collect::<Vec<u32>>()).prop_shuffle();
    (setup_prios, 0..kinds, perm).prop_flat_map(move |(prios, m, perm)| {
        if m >= mixes.len() {
            return (any::<u64>(), 1..max_len.max(2))
                .prop_map(move |(seed, len)| handoff_episode(cfg, seed, len))
                .boxed();
        }
        let setup: Vec<LockIn> = prios
            .iter()
            .enumerate()
            .map(|(w, &p)| LockIn {
                cpr_we: true,
                cpr_warp: w as u32,
                cpr_prio: p,
                ..LockIn::default()
            })
            .collect();
        let body =
            proptest::collection::vec(cycle_strategy(cfg, mixes[m].clone(), perm), 1..max_len);
        // bursts: alternate busy and silent segments of random length (or none)
        let bursts = proptest::option::of(proptest::collection::vec(1usize..24, 1..40));
        (body, bursts)
            .prop_map(move |(mut body, bursts)| {
                if let Some(segments) = bursts {
                    let mut at = 0;
                    for (k, len) in segments.iter().cycle().take(body.len()).enumerate() {
                        if k % 2 == 1 {
                            for c in body.iter_mut().skip(at).take(*len) {
                                *c = LockIn::default();
                            }
                        }
                        at += len;
                        if at >= body.len() {
                            break;
                        }
                    }
                }
                let mut t = setup.clone();
                t.extend(body);
                t
            })
            .boxed()
    })
}

/// A hand-off episode (a stimulus kind of [`trace_strategy`]): after a reset and a write of
/// every warp's priority, rounds of 20..80 cycles, each on one lock among 2..=4 warps (a random
/// subset; in 3 rounds of 4 their priorities are rewritten distinct, else at random, so ties
/// occur too). The stimulus follows the golden model (closed loop): the lock's holder releases
/// it in about a third of the cycles, and in about two thirds a participant that may ask (not
/// holding it, not waiting, nothing queued) acquires it — often the warp that released it the
/// cycle before. So a lock is handed off again and again between the same few warps under
/// distinct priorities (every pair of waiters meets, the round-robin pointer at every place),
/// and releases are followed by acquires of the same lock in the next cycles (a free lock with
/// a waiter reserved for its hand-off, an entry staged behind a release). Now and then: an
/// acquire of another lock (a deny releases everything the warp holds), an acquire by any
/// participant (BUSY, a re-acquire of the lock it holds), a priority rewrite while warps wait,
/// and in a third of the episodes a hold limit of 1..=4 with dense retirement. Exactly `len`
/// cycles (at least 1), deterministic in `seed`.
pub fn handoff_episode(cfg: LockConfig, seed: u64, len: usize) -> Vec<LockIn> {
    let mut r = golden_model::dispatcher::eval::Rng::new(seed);
    let mut rng = move |n: u64| r.next_u64() % n.max(1);
    let pmax = 1u64 << cfg.prio_bits;
    let all: u64 = if cfg.warps == 64 {
        !0
    } else {
        (1u64 << cfg.warps) - 1
    };
    let mut model = golden_model::lock_unit::LockUnit::new(cfg);
    let mut t: Vec<LockIn> = vec![<LockIn as golden_model::ResetInput>::reset_input()];
    for w in 0..cfg.warps {
        t.push(LockIn::set_cpr(w as u32, rng(pmax) as u32));
    }
    let limited = rng(3) == 0;
    if limited {
        t.push(LockIn::set_hold_limit(1 + rng(4) as u32));
    }
    let mut waiting = 0u64;
    for i in &t {
        waiting = model.step(i).waiting;
    }
    let mut warp_ids: Vec<u32> = (0..cfg.warps as u32).collect();
    while t.len() < len {
        // one round: a lock, its participants and their priorities
        let lock = rng(cfg.locks as u64) as u32;
        for k in 0..warp_ids.len() {
            let j = k + rng((warp_ids.len() - k) as u64) as usize;
            warp_ids.swap(k, j);
        }
        let n = (2 + rng(3) as usize).min(cfg.warps);
        let part: Vec<u32> = warp_ids[..n].to_vec();
        let distinct = rng(4) != 0 && pmax >= n as u64;
        let mut prios: Vec<u32> = (0..pmax as u32).collect();
        for k in 0..n.min(pmax as usize) {
            let j = k + rng(pmax - k as u64) as usize;
            prios.swap(k, j);
        }
        for (k, &w) in part.iter().enumerate() {
            let p = if distinct { prios[k] } else { rng(pmax) as u32 };
            let i = LockIn::set_cpr(w, p);
            waiting = model.step(&i).waiting;
            t.push(i);
        }
        for _ in 0..20 + rng(60) {
            let holder = model.owner(lock as usize).map(|h| h as u32);
            let mut i = LockIn::default();
            if let Some(h) = holder {
                if rng(3) == 0 {
                    i.rel_valid = true;
                    i.rel_warp = h;
                    i.rel_lock = lock;
                }
            }
            if rng(3) != 0 {
                let any = rng(10) == 0;
                let may: Vec<u32> = part
                    .iter()
                    .copied()
                    .filter(|&w| {
                        any || ((waiting >> w) & 1 == 0
                            && !model.queued(w as usize)
                            && holder != Some(w))
                    })
                    .collect();
                if !may.is_empty() {
                    i.acq_valid = true;
                    i.acq_warp = may[rng(may.len() as u64) as usize];
                    i.acq_lock = if rng(10) == 0 {
                        rng(cfg.locks as u64) as u32
                    } else {
                        lock
                    };
                }
            }
            if rng(30) == 0 {
                i.cpr_we = true;
                i.cpr_warp = part[rng(n as u64) as usize];
                i.cpr_prio = rng(pmax) as u32;
            }
            if limited && rng(2) == 0 {
                i.retire = rng(u64::MAX) & all;
            }
            waiting = model.step(&i).waiting;
            t.push(i);
        }
    }
    t.truncate(len.max(1));
    t
}

/// A deterministic random trace of exactly `cycles` cycles (reset first), for benches and long
/// regressions.
pub fn random_trace(cfg: LockConfig, cycles: usize) -> Vec<LockIn> {
    let mut runner = proptest::test_runner::TestRunner::deterministic();
    trace_from(&mut runner, cfg, cycles)
}

crate::board_unit! {
    /// The lock unit's board config for the cross-unit tools.
    pub struct LockUnitBoard: "lock_unit",
        "board: W=8 L=4 prio_bits=3 fifo_depth=4 hold_bits=16";
    ports: LockPorts = LockPorts(LockConfig::board());
    verilog: hdl::lock_unit::verilog(hdl::lock_unit::BoardLockUnit::default());
    model: golden_model::lock_unit::LockUnit::new(LockConfig::board());
    rtl: hdl::lock_unit::BoardLockUnit::default();
    fn invariants() -> crate::unit::Invariants<LockIn, LockOut> {
        let mut inv = LockInvariants::new(LockConfig::board());
        Box::new(move |_, i, o| inv.check(i, o))
    }
    fn random_trace(seed: u64, cycles: usize) -> Vec<LockIn> {
        seeded_trace(LockConfig::board(), seed, cycles)
    }
}

/// [`random_trace`] from a seeded generator (the same stimulus mixes).
pub fn seeded_trace(cfg: LockConfig, seed: u64, cycles: usize) -> Vec<LockIn> {
    trace_from(&mut crate::unit::seeded_runner(seed), cfg, cycles)
}

/// A reset cycle, then [`trace_strategy`] mixes drawn by `runner`, cut to exactly `cycles`.
fn trace_from(
    runner: &mut proptest::test_runner::TestRunner,
    cfg: LockConfig,
    cycles: usize,
) -> Vec<LockIn> {
    use proptest::strategy::ValueTree;
    let strat = trace_strategy(cfg, 1000);
    let mut trace = vec![<LockIn as golden_model::ResetInput>::reset_input()];
    while trace.len() < cycles {
        trace.extend(strat.new_tree(runner).expect("strategy").current());
    }
    trace.truncate(cycles);
    trace
}
