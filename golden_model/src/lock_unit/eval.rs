//! Cycle-level evaluation of the lock unit against baselines (the `eval-lock` command, issue 13).
//!
//! **Workload** ([`Scenario`]): W warps, each looping "compute for c cycles, acquire lock l, hold
//! it for h retired instructions, release". c and h are drawn per section (uniform, inclusive
//! ranges; h per priority class), l uniformly from the first `locks_used` locks or skewed (lock 0
//! with probability `hot`, the rest uniform). Every warp has a fixed priority class (its CPR).
//! A warp holds at most one lock at a time. The warp side is the same for every engine:
//! - one acquire port and one release port (a single-issue warp scheduler issues at most one lock
//!   instruction of each kind per cycle): warps that want the port take it round robin; an
//!   acquire stays on the port (`acq_valid` high) until `acq_ready` takes it;
//! - a warp reacts to the outputs of a cycle in the next cycle (the strobes are registered);
//! - a holding warp retires one instruction per cycle (`retire`), from the cycle after it saw
//!   its `grant`; after h it drives the release (when it gets the release port);
//! - `deny` changes nothing for the warp: it waits for its `grant` (the hand-off);
//! - `revoke` cuts the section: the instructions retired so far are wasted (redone), the warp
//!   acquires the same lock again at once. A revocation that strobes in the cycle after the warp
//!   drove its release (or earlier) was applied before the release (the release port is
//!   registered and releases apply before revocations), so it cuts the section too; one that
//!   strobes later came after the release and is ignored.
//!
//! **Engines** (every one a [`LockEngine`]: a cycle model with the lock unit's ports
//! [`LockIn`]/[`LockOut`], so the one workload drives them all):
//! - [`Engine::Unit`]: the golden model [`LockUnit`] (CPRs written at start, `hold_limit` from the
//!   scenario);
//! - [`Engine::NoPreempt`]: the same model with preemption switched off
//!   ([`LockUnit::set_preemption`]): priorities act only through the hand-off to the best
//!   waiter; the hold limit stays (separates what preemption adds);
//! - [`Engine::Fifo`] ([`FifoLock`]): a hardware queue lock (HQL-like): per lock a queue of
//!   waiters in arrival order, hand-off to the head on release, no priorities, no revocation, no
//!   hold limit. Same port timing as the unit: a free lock's grant strobes 1 cycle after the
//!   acquire, a hand-off grant 2 cycles after the release is driven;
//! - [`Engine::Spin`] ([`SpinLock`]): test-and-set with exponential backoff (LR/SC-like spin on
//!   a lock word in memory): an acquire starts the warp's spin loop; every attempt travels
//!   [`SPIN_ROUND_TRIP`]/2 cycles to the memory, which serves one atomic per cycle in arrival
//!   order, and its answer travels back as long; a failed attempt backs off a random time in
//!   \[b/2, b) with b = [`SPIN_BACKOFF_MIN`]·2^(failures−1), capped at [`SPIN_BACKOFF_MAX`]; the
//!   release is a store that frees the word when it reaches the memory. No priorities.
//!
//! **Metrics** ([`LockEvalResult`]): acquire latency per priority class (cycles from the warp
//! wanting the lock — compute done, or its section cut — to seeing its `grant`, port wait
//! included; p50/p99/max); throughput (sections completed per 1000 cycles); wasted work
//! (instructions retired in cut sections, % of the instructions of completed sections); the
//! lowest class's starvation (the longest time from a section's first acquire wish to the grant
//! that completed it, counting sections still unfinished at the end); lock operations per
//! section (acquires that reached the lock; spin: test-and-set attempts); and the SPEC bound:
//! for every acquire accepted while the lock's holder (its lock word in that cycle) is of a
//! strictly lower priority and no other warp of the requester's priority or higher waits for or
//! requests that lock, the cycles from acceptance to `grant` (p50/p99/max), against
//! `fifo_depth + 3`.

use super::{LockConfig, LockError, LockIn, LockOut, LockUnit};
use crate::dispatcher::eval::Rng;
use crate::CycleModel;
use std::collections::VecDeque;

/// Spin baseline: cycles of one memory round trip (request to the memory and answer back).
pub const SPIN_ROUND_TRIP: u64 = 24;
/// Spin baseline: backoff after the first failed attempt (cycles).
pub const SPIN_BACKOFF_MIN: u64 = 8;
/// Spin baseline: the backoff stops doubling here (cycles).
pub const SPIN_BACKOFF_MAX: u64 = 512;

/// A lock implementation driven through the lock unit's ports.
pub trait LockEngine: CycleModel<In = LockIn, Out = LockOut> {
    /// Lock operations that reached the lock so far (accepted acquires; spin: test-and-set
    /// attempts served by the memory).
    fn lock_ops(&self) -> u64;
}

impl LockEngine for LockUnit {
    fn lock_ops(&self) -> u64 {
        self.stats().direct_grants + self.stats().enqueued
    }
}

/// Lock words in the unit's encoding (bit `warp_bits` = locked, low bits = owner).
fn encode_words(cfg: &LockConfig, owner: &[Option<usize>]) -> u128 {
    owner.iter().enumerate().fold(0, |acc, (i, o)| match o {
        Some(w) => acc | (((1u128 << cfg.warp_bits()) | *w as u128) << (cfg.word_bits() * i)),
        None => acc,
    })
}

/// Owner of every lock from the lock words.
pub fn decode_words(cfg: &LockConfig, words: u128) -> Vec<Option<usize>> {
    let (wb, ob) = (cfg.word_bits(), cfg.warp_bits());
    (0..cfg.locks)
        .map(|l| {
            let word = (words >> (wb * l)) & ((1 << wb) - 1);
            (word >> ob & 1 == 1).then_some((word & ((1 << ob) - 1)) as usize)
        })
        .collect()
}

fn mask(ws: impl Iterator<Item = usize>) -> u64 {
    ws.fold(0, |m, w| m | 1 << w)
}

/// Baseline (a): a hardware FIFO queue lock (HQL-like). Per lock a queue of waiting warps in
/// arrival order; a release hands the lock to the queue's head. No priorities, no revocation,
/// no hold limit; the CPR and config ports are ignored. Timing as the unit's: the release port is
/// registered (applied the next cycle), strobes are registered.
#[derive(Clone, Debug)]
pub struct FifoLock {
    cfg: LockConfig,
    owner: Vec<Option<usize>>,
    queue: Vec<VecDeque<usize>>,
    rel_q: Option<(u32, u32)>,
    out: LockOut,
    ops: u64,
}

impl FifoLock {
    pub fn new(cfg: LockConfig) -> Self {
        cfg.validate();
        let mut m = Self {
            cfg,
            owner: vec![],
            queue: vec![],
            rel_q: None,
            out: LockOut::default(),
            ops: 0,
        };
        m.reset();
        m
    }
}

impl CycleModel for FifoLock {
    type In = LockIn;
    type Out = LockOut;
    fn reset(&mut self) {
        self.owner = vec![None; self.cfg.locks];
        self.queue = vec![VecDeque::new(); self.cfg.locks];
        self.rel_q = None;
        self.out = LockOut::default();
    }
    fn step(&mut self, i: &LockIn) -> LockOut {
        let seen = LockOut {
            acq_ready: true,
            waiting: mask(self.queue.iter().flatten().copied()),
            lock_words: encode_words(&self.cfg, &self.owner),
            ..self.out.clone()
        };
        if i.reset {
            self.reset();
            return seen;
        }
        let (nw, nl) = (self.cfg.warps, self.cfg.locks);
        let mut grant = 0u64;
        let mut err = None;
        // the release registered in the previous cycle: hand the lock to the queue's head
        if let Some((w, l)) = self.rel_q.take() {
            let (w, l) = (w as usize, l as usize);
            if w >= nw || l >= nl {
                err = Some(LockError::BadId);
            } else if self.owner[l] != Some(w) {
                err = Some(LockError::NotOwner);
            } else {
                self.owner[l] = self.queue[l].pop_front();
                if let Some(n) = self.owner[l] {
                    grant |= 1 << n;
                }
            }
        }
        if i.acq_valid {
            let (w, l) = (i.acq_warp as usize, i.acq_lock as usize);
            let acq_err = if w >= nw || l >= nl {
                Some(LockError::BadId)
            } else if self.queue.iter().flatten().any(|&q| q == w) {
                Some(LockError::Busy)
            } else {
                self.ops += 1;
                if self.owner[l] == Some(w) {
                    grant |= 1 << w;
                } else if self.owner[l].is_none() && self.queue[l].is_empty() {
                    self.owner[l] = Some(w);
                    grant |= 1 << w;
                } else {
                    self.queue[l].push_back(w);
                }
                None
            };
            err = err.or(acq_err);
        }
        self.rel_q = i.rel_valid.then_some((i.rel_warp, i.rel_lock));
        self.out = registered_out(grant, err);
        seen
    }
}

/// A baseline's registered outputs for the next cycle: this cycle's grants and error strobe.
fn registered_out(grant: u64, err: Option<LockError>) -> LockOut {
    LockOut {
        grant,
        error: err.is_some(),
        error_code: err.map_or(0, |e| e as u8),
        ..LockOut::default()
    }
}

impl LockEngine for FifoLock {
    fn lock_ops(&self) -> u64 {
        self.ops
    }
}

/// A spinning warp of [`SpinLock`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Spinner {
    Idle,
    /// Waits until `retry_at`, then sends the next test-and-set.
    Backoff {
        lock: usize,
        retry_at: u64,
        fails: u32,
    },
    /// A test-and-set is on its way or at the memory.
    InFlight {
        lock: usize,
        fails: u32,
    },
    Holding,
}

/// Baseline (b): test-and-set with exponential backoff on lock words in memory (see the module
/// doc for the timing). An accepted acquire starts the warp's spin loop; `grant` strobes when a
/// successful answer arrives; `waiting` shows the spinning warps; the lock words are the
/// memory's. No priorities, no revocation; the CPR and config ports are ignored.
#[derive(Clone, Debug)]
pub struct SpinLock {
    cfg: LockConfig,
    seed: u64,
    rng: Rng,
    now: u64,
    /// Lock words at the memory.
    owner: Vec<Option<usize>>,
    warp: Vec<Spinner>,
    /// In flight: (arrival at the memory, warp, lock, is a release store).
    to_mem: Vec<(u64, usize, usize, bool)>,
    /// Atomics waiting at the memory in arrival order (one served per cycle).
    mem_q: VecDeque<(usize, usize)>,
    /// Answers on their way back: (arrival at the warp, warp, success).
    to_warp: Vec<(u64, usize, bool)>,
    out: LockOut,
    ops: u64,
}

impl SpinLock {
    pub fn new(cfg: LockConfig, seed: u64) -> Self {
        cfg.validate();
        let mut m = Self {
            cfg,
            seed,
            rng: Rng::new(seed),
            now: 0,
            owner: vec![],
            warp: vec![],
            to_mem: vec![],
            mem_q: VecDeque::new(),
            to_warp: vec![],
            out: LockOut::default(),
            ops: 0,
        };
        m.reset();
        m
    }
}

impl CycleModel for SpinLock {
    type In = LockIn;
    type Out = LockOut;
    fn reset(&mut self) {
        self.rng = Rng::new(self.seed);
        self.now = 0;
        self.owner = vec![None; self.cfg.locks];
        self.warp = vec![Spinner::Idle; self.cfg.warps];
        self.to_mem.clear();
        self.mem_q.clear();
        self.to_warp.clear();
        self.out = LockOut::default();
    }
    fn step(&mut self, i: &LockIn) -> LockOut {
        let spinning =
            |s: &Spinner| matches!(s, Spinner::Backoff { .. } | Spinner::InFlight { .. });
        let seen = LockOut {
            acq_ready: true,
            waiting: mask((0..self.cfg.warps).filter(|&w| spinning(&self.warp[w]))),
            lock_words: encode_words(&self.cfg, &self.owner),
            ..self.out.clone()
        };
        if i.reset {
            self.reset();
            return seen;
        }
        let (nw, nl, now) = (self.cfg.warps, self.cfg.locks, self.now);
        let half = SPIN_ROUND_TRIP / 2;
        let mut grant = 0u64;
        let mut err = None;
        // arrivals at the memory: stores free the word at once, atomics queue
        let mut arrived: Vec<(u64, usize, usize, bool)> = vec![];
        self.to_mem.retain(|&m| {
            let due = m.0 <= now;
            if due {
                arrived.push(m);
            }
            !due
        });
        arrived.sort_unstable();
        for (_, w, l, store) in arrived {
            if store {
                debug_assert_eq!(self.owner[l], Some(w), "spin: release of a word not owned");
                self.owner[l] = None;
            } else {
                self.mem_q.push_back((w, l));
            }
        }
        // the memory serves one atomic per cycle
        if let Some((w, l)) = self.mem_q.pop_front() {
            self.ops += 1;
            let ok = self.owner[l].is_none();
            if ok {
                self.owner[l] = Some(w);
            }
            self.to_warp.push((now + half, w, ok));
        }
        // answers arriving at the warps
        let mut answers = vec![];
        self.to_warp.retain(|&a| {
            let due = a.0 <= now;
            if due {
                answers.push(a);
            }
            !due
        });
        for (_, w, ok) in answers {
            let Spinner::InFlight { lock, fails } = self.warp[w] else {
                unreachable!("spin: answer to a warp that sent nothing")
            };
            if ok {
                self.warp[w] = Spinner::Holding;
                grant |= 1 << w;
            } else {
                let b = (SPIN_BACKOFF_MIN << fails.min(20)).min(SPIN_BACKOFF_MAX);
                let wait = b / 2 + self.rng.next_u64() % (b / 2).max(1);
                self.warp[w] = Spinner::Backoff {
                    lock,
                    retry_at: now + wait,
                    fails: fails + 1,
                };
            }
        }
        // retries whose backoff ended
        for w in 0..nw {
            if let Spinner::Backoff {
                lock,
                retry_at,
                fails,
            } = self.warp[w]
            {
                if retry_at <= now {
                    self.to_mem.push((now + half, w, lock, false));
                    self.warp[w] = Spinner::InFlight { lock, fails };
                }
            }
        }
        // the release: a store on its way to the memory
        if i.rel_valid {
            let (w, l) = (i.rel_warp as usize, i.rel_lock as usize);
            if w >= nw || l >= nl {
                err = Some(LockError::BadId);
            } else if self.warp[w] != Spinner::Holding || self.owner[l] != Some(w) {
                err = Some(LockError::NotOwner);
            } else {
                self.warp[w] = Spinner::Idle;
                self.to_mem.push((now + half, w, l, true));
            }
        }
        // a new acquire starts the warp's spin loop with its first test-and-set
        if i.acq_valid {
            let (w, l) = (i.acq_warp as usize, i.acq_lock as usize);
            let acq_err = if w >= nw || l >= nl {
                Some(LockError::BadId)
            } else if self.warp[w] != Spinner::Idle {
                Some(LockError::Busy)
            } else {
                self.to_mem.push((now + half, w, l, false));
                self.warp[w] = Spinner::InFlight { lock: l, fails: 0 };
                None
            };
            err = err.or(acq_err);
        }
        self.now += 1;
        self.out = registered_out(grant, err);
        seen
    }
}

impl LockEngine for SpinLock {
    fn lock_ops(&self) -> u64 {
        self.ops
    }
}

/// The lock implementations compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    /// The lock unit's golden model (the patent plus the hand-off).
    Unit,
    /// The unit with preemption off: priority hand-off only.
    NoPreempt,
    /// (a) hardware FIFO queue lock.
    Fifo,
    /// (b) test-and-set with exponential backoff.
    Spin,
}

impl Engine {
    pub fn all() -> [Engine; 4] {
        [Engine::Unit, Engine::NoPreempt, Engine::Fifo, Engine::Spin]
    }
    pub fn name(&self) -> &'static str {
        match self {
            Engine::Unit => "lock unit",
            Engine::NoPreempt => "unit, no preemption",
            Engine::Fifo => "FIFO queue lock",
            Engine::Spin => "TAS + backoff spin",
        }
    }
    /// A fresh engine for `cfg` (`seed` drives the spin baseline's backoff jitter).
    pub fn build(&self, cfg: LockConfig, seed: u64) -> Box<dyn LockEngine> {
        match self {
            Engine::Unit => Box::new(LockUnit::new(cfg)),
            Engine::NoPreempt => {
                let mut m = LockUnit::new(cfg);
                m.set_preemption(false);
                Box::new(m)
            }
            Engine::Fifo => Box::new(FifoLock::new(cfg)),
            Engine::Spin => Box::new(SpinLock::new(cfg, seed ^ 0xB0FF)),
        }
    }
}

/// A warp workload (see the module doc).
#[derive(Clone, Debug)]
pub struct Scenario {
    pub name: &'static str,
    pub cfg: LockConfig,
    /// Priority class (CPR value) of every warp; classes are 0, 1, … without gaps.
    pub prio: Vec<u32>,
    /// Locks the warps choose from (the first `locks_used` of the unit's).
    pub locks_used: usize,
    /// Skewed choice: lock 0 with this probability, the others uniformly; `None`: uniform.
    pub hot: Option<f64>,
    /// Compute cycles between sections (inclusive range).
    pub compute: (u64, u64),
    /// Critical-section length in retired instructions, per priority class (inclusive range).
    pub hold: Vec<(u64, u64)>,
    /// `hold_limit` register (0 = off).
    pub hold_limit: u32,
    pub cycles: u64,
    pub seed: u64,
}

impl Scenario {
    pub fn classes(&self) -> usize {
        self.prio.iter().max().map_or(0, |&p| p as usize + 1)
    }
}

/// Results of one (scenario, engine) run.
#[derive(Clone, Debug)]
pub struct LockEvalResult {
    pub scenario: &'static str,
    pub config: &'static str,
    pub hold_limit: u32,
    pub engine: &'static str,
    pub cycles: u64,
    /// Sections completed, in total and per class.
    pub sections: u64,
    pub sections_by_class: Vec<u64>,
    /// Sections completed per 1000 cycles.
    pub throughput: f64,
    /// Per class: acquire latency (p50, p99, max) in cycles; `None` without a grant.
    pub acquire: Vec<Option<(u64, u64, u64)>>,
    /// Instructions retired in cut sections (redone).
    pub redone: u64,
    /// `redone` in % of the instructions of completed sections.
    pub wasted_pct: f64,
    /// Sections cut by a revocation.
    pub cuts: u64,
    /// Lowest class: longest wait from a section's first acquire wish to the grant that
    /// completed it (unfinished sections count up to the end of the run).
    pub lowest_max_wait: u64,
    /// Lock operations per completed section.
    pub ops_per_section: f64,
    /// SPEC bound samples (see the module doc): count, worst acceptance → grant, the bound.
    pub bound_samples: u64,
    pub bound_worst: u64,
    /// Distribution of those samples: (p50, p99, max) cycles from acceptance to `grant`.
    pub bound_latency: Option<(u64, u64, u64)>,
    pub bound: u64,
    /// Samples above the bound.
    pub bound_misses: u64,
    /// Errors reported by the engine, by code (a release after its section was cut is
    /// `NOT_OWNER`; nothing else is expected).
    pub errors: [u64; 4],
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Compute {
        until: u64,
    },
    /// Wants the lock (acquire port), since `since`.
    Want,
    /// Acquire accepted at `at`; `bounded`: the SPEC bound applies to it.
    Pending {
        at: u64,
        bounded: bool,
    },
    Holding {
        retired: u64,
    },
    /// Release driven at `at`.
    Released {
        at: u64,
    },
}

#[derive(Clone, Debug)]
struct Warp {
    prio: u32,
    phase: Phase,
    lock: usize,
    hold: u64,
    /// Start of the current acquire attempt.
    since: u64,
    /// First acquire wish of the current section.
    section_start: u64,
    /// Grant of the current attempt.
    granted_at: u64,
}

fn pct3(v: &mut [u64]) -> Option<(u64, u64, u64)> {
    if v.is_empty() {
        return None;
    }
    v.sort_unstable();
    let p = |q: f64| v[((v.len() as f64 - 1.0) * q).round() as usize];
    Some((p(0.5), p(0.99), v[v.len() - 1]))
}

/// Run one scenario on one engine.
pub fn run(sc: &Scenario, engine: Engine, config: &'static str) -> LockEvalResult {
    run_inner(sc, engine, config, None)
}

/// [`run`], also returning the port trace (inputs and outputs of every cycle), for a checker
/// to judge.
pub fn run_traced(
    sc: &Scenario,
    engine: Engine,
    config: &'static str,
) -> (LockEvalResult, Vec<LockIn>, Vec<LockOut>) {
    let mut trace = (vec![], vec![]);
    let r = run_inner(sc, engine, config, Some(&mut trace));
    (r, trace.0, trace.1)
}

fn run_inner(
    sc: &Scenario,
    engine: Engine,
    config: &'static str,
    mut trace: Option<&mut (Vec<LockIn>, Vec<LockOut>)>,
) -> LockEvalResult {
    let cfg = sc.cfg;
    let nw = cfg.warps;
    assert_eq!(
        sc.prio.len(),
        nw,
        "scenario {}: one class per warp",
        sc.name
    );
    assert_eq!(
        sc.hold.len(),
        sc.classes(),
        "scenario {}: one hold range per class",
        sc.name
    );
    assert!(sc.locks_used >= 1 && sc.locks_used <= cfg.locks);
    let mut eng = engine.build(cfg, sc.seed);
    // one stream for the workload (identical for every engine)
    let mut rng = Rng::new(sc.seed);
    let setup = nw as u64 + 1; // CPR writes, one per cycle, then hold_limit
    let draw = |rng: &mut Rng, r: (u64, u64)| r.0 + rng.next_u64() % (r.1 - r.0 + 1);
    let mut warps: Vec<Warp> = (0..nw)
        .map(|w| Warp {
            prio: sc.prio[w],
            phase: Phase::Compute {
                until: setup + draw(&mut rng, sc.compute),
            },
            lock: 0,
            hold: 0,
            since: 0,
            section_start: 0,
            granted_at: 0,
        })
        .collect();
    let classes = sc.classes();
    let mut lat: Vec<Vec<u64>> = vec![vec![]; classes];
    let mut sections_by_class = vec![0u64; classes];
    let (mut redone, mut useful, mut cuts) = (0u64, 0u64, 0u64);
    let mut lowest_max_wait = 0u64;
    let lowest = classes as u32 - 1;
    let bound = cfg.fifo_depth as u64 + 3;
    let (mut bound_samples, mut bound_worst, mut bound_misses) = (0u64, 0u64, 0u64);
    let mut bound_lat: Vec<u64> = vec![];
    let mut errors = [0u64; 4];
    let (mut acq_rr, mut rel_rr) = (0usize, 0usize);
    let mut acq_port: Option<usize> = None;
    for now in 0..sc.cycles {
        let mut i = LockIn::default();
        if now < nw as u64 {
            i.cpr_we = true;
            i.cpr_warp = now as u32;
            i.cpr_prio = sc.prio[now as usize];
        } else if now == nw as u64 {
            i.cfg_we = true;
            i.cfg_hold_limit = sc.hold_limit;
        }
        // compute done: draw the next section
        for w in &mut warps {
            if let Phase::Compute { until } = w.phase {
                if now >= until {
                    w.lock = match sc.hot {
                        Some(p) if sc.locks_used > 1 && !rng.chance(p) => {
                            1 + (rng.next_u64() % (sc.locks_used as u64 - 1)) as usize
                        }
                        Some(_) => 0,
                        None => (rng.next_u64() % sc.locks_used as u64) as usize,
                    };
                    w.hold = draw(&mut rng, sc.hold[w.prio as usize]);
                    w.phase = Phase::Want;
                    w.since = now;
                    w.section_start = now;
                }
            }
        }
        // the acquire port: the warp on it stays until accepted, else the next one round robin
        if acq_port.is_none() {
            acq_port = (0..nw)
                .map(|k| (acq_rr + k) % nw)
                .find(|&w| warps[w].phase == Phase::Want);
            if let Some(w) = acq_port {
                acq_rr = (w + 1) % nw;
            }
        }
        if let Some(w) = acq_port {
            i.acq_valid = true;
            i.acq_warp = w as u32;
            i.acq_lock = warps[w].lock as u32;
        }
        // the release port, round robin among warps done with their section
        let rel = (0..nw).map(|k| (rel_rr + k) % nw).find(
            |&w| matches!(warps[w].phase, Phase::Holding { retired } if retired == warps[w].hold),
        );
        if let Some(w) = rel {
            rel_rr = (w + 1) % nw;
            i.rel_valid = true;
            i.rel_warp = w as u32;
            i.rel_lock = warps[w].lock as u32;
        }
        // retires of holding warps still inside their section
        for (k, w) in warps.iter_mut().enumerate() {
            if let Phase::Holding { retired } = &mut w.phase {
                if *retired < w.hold {
                    *retired += 1;
                    i.retire |= 1 << k;
                }
            }
        }

        let o = eng.step(&i);
        if let Some(t) = trace.as_mut() {
            t.0.push(i.clone());
            t.1.push(o.clone());
        }

        if let Some(w) = acq_port.filter(|_| o.acq_ready) {
            // the SPEC bound applies when the holder is strictly lower and nobody of the
            // requester's priority or higher waits for or requests the lock
            let l = warps[w].lock;
            let p = warps[w].prio;
            let holder = decode_words(&cfg, o.lock_words)[l];
            let bounded = holder.is_some_and(|h| warps[h].prio > p)
                && !warps.iter().enumerate().any(|(x, wx)| {
                    x != w
                        && wx.lock == l
                        && wx.prio <= p
                        && matches!(wx.phase, Phase::Pending { .. })
                });
            warps[w].phase = Phase::Pending { at: now, bounded };
            acq_port = None;
        }
        if let Some(w) = rel {
            warps[w].phase = Phase::Released { at: now };
        }
        if o.error {
            errors[o.error_code as usize & 3] += 1;
        }
        // revocations first (a warp is never granted in a cycle in which it is revoked)
        for (k, w) in warps.iter_mut().enumerate() {
            if o.revoke >> k & 1 == 0 {
                continue;
            }
            let lost = match w.phase {
                Phase::Holding { retired } => Some(retired),
                Phase::Released { at } if now <= at + 1 => Some(w.hold),
                Phase::Pending { .. } => Some(0), // its request was dropped
                _ => None,                        // came after the release: nothing to redo
            };
            if let Some(r) = lost {
                redone += r;
                cuts += 1;
                w.phase = Phase::Want;
                w.since = now + 1;
                if acq_port == Some(k) {
                    acq_port = None;
                }
            }
        }
        for (k, w) in warps.iter_mut().enumerate() {
            if o.grant >> k & 1 == 0 {
                continue;
            }
            let Phase::Pending { at, bounded } = w.phase else {
                panic!(
                    "{}: cycle {now}: grant to warp {k} in {:?}",
                    engine.name(),
                    w.phase
                );
            };
            lat[w.prio as usize].push(now - w.since);
            if bounded {
                bound_samples += 1;
                bound_worst = bound_worst.max(now - at);
                bound_lat.push(now - at);
                bound_misses += (now - at > bound) as u64;
            }
            w.granted_at = now;
            w.phase = Phase::Holding { retired: 0 };
        }
        // a release is final once no revocation applied before it can still strobe
        for w in warps.iter_mut() {
            if let Phase::Released { at } = w.phase {
                if now == at + 1 {
                    sections_by_class[w.prio as usize] += 1;
                    useful += w.hold;
                    if w.prio == lowest {
                        lowest_max_wait = lowest_max_wait.max(w.granted_at - w.section_start);
                    }
                    w.phase = Phase::Compute {
                        until: now + 1 + draw(&mut rng, sc.compute),
                    };
                }
            }
        }
        // mutual exclusion as the warps see it
        for l in 0..cfg.locks {
            let holders = warps
                .iter()
                .filter(|w| {
                    w.lock == l && matches!(w.phase, Phase::Holding { .. } | Phase::Released { .. })
                })
                .count();
            assert!(
                holders <= 1,
                "{}: cycle {now}: {holders} warps hold lock {l}",
                engine.name()
            );
        }
    }
    // unfinished sections of the lowest class count as waits up to the end
    for w in &warps {
        if w.prio == lowest && matches!(w.phase, Phase::Want | Phase::Pending { .. }) {
            lowest_max_wait = lowest_max_wait.max(sc.cycles - w.section_start);
        }
    }
    let sections: u64 = sections_by_class.iter().sum();
    LockEvalResult {
        scenario: sc.name,
        config,
        hold_limit: sc.hold_limit,
        engine: engine.name(),
        cycles: sc.cycles,
        sections,
        sections_by_class,
        throughput: sections as f64 * 1000.0 / sc.cycles as f64,
        acquire: lat.iter_mut().map(|v| pct3(v)).collect(),
        redone,
        wasted_pct: 100.0 * redone as f64 / useful.max(1) as f64,
        cuts,
        lowest_max_wait,
        ops_per_section: eng.lock_ops() as f64 / sections.max(1) as f64,
        bound_samples,
        bound_worst,
        bound_latency: pct3(&mut bound_lat),
        bound,
        bound_misses,
        errors,
    }
}

/// Hold-limit values swept: off, and the reset default (patent \[0043\]).
pub const HOLD_LIMITS: [u32; 2] = [0, LockConfig::HOLD_LIMIT_RESET];

/// The standard scenarios for a config. A scenario whose sections can reach a swept hold
/// limit runs once per [`HOLD_LIMITS`] value; the others only with the limit off (a limit above
/// every section never fires: those rows would repeat the same numbers).
pub fn scenarios(cfg: LockConfig, cycles: u64, seed: u64) -> Vec<Scenario> {
    let w = cfg.warps;
    // three classes: 1/4 at priority 0, 3/8 at 1, the rest at 2
    let three: Vec<u32> = (0..w)
        .map(|k| match k * 8 / w {
            0 | 1 => 0,
            2..=4 => 1,
            _ => 2,
        })
        .collect();
    // two classes: one warp at priority 0 (one in eight in the full config), the rest at 1
    let two: Vec<u32> = (0..w).map(|k| (k % 8 != 0) as u32).collect();
    let short = (8, 24);
    let base = Scenario {
        name: "",
        cfg,
        prio: three.clone(),
        locks_used: 1,
        hot: None,
        compute: (40, 120),
        hold: vec![short; 3],
        hold_limit: 0,
        cycles,
        seed,
    };
    let l = cfg.locks;
    let list = vec![
        Scenario {
            name: "1 lock, 3 classes",
            ..base.clone()
        },
        Scenario {
            name: "1 lock, 1 high + rest low",
            prio: two,
            hold: vec![short; 2],
            ..base.clone()
        },
        Scenario {
            name: "all locks, uniform",
            locks_used: l,
            compute: (10, 30),
            ..base.clone()
        },
        Scenario {
            name: "all locks, skewed (70% lock 0)",
            locks_used: l,
            hot: Some(0.7),
            ..base.clone()
        },
        Scenario {
            name: "1 lock, light (compute 400-1200)",
            compute: (400, 1200),
            ..base.clone()
        },
        Scenario {
            name: "1 lock, long low-class sections (32-96)",
            hold: vec![short, short, (32, 96)],
            compute: (80, 240),
            ..base.clone()
        },
    ];
    list.into_iter()
        .flat_map(|s| {
            let reach = s.hold.iter().map(|h| h.1).max().unwrap_or(0);
            HOLD_LIMITS
                .into_iter()
                .filter(|&h| h == 0 || reach >= h as u64)
                .map(|h| Scenario {
                    hold_limit: h,
                    ..s.clone()
                })
                .collect::<Vec<_>>()
        })
        .collect()
}

/// Every engine on every standard scenario of one config.
pub fn evaluate(
    cfg: LockConfig,
    config: &'static str,
    cycles: u64,
    seed: u64,
) -> Vec<LockEvalResult> {
    scenarios(cfg, cycles, seed)
        .iter()
        .flat_map(|s| Engine::all().map(|e| run(s, e, config)))
        .collect()
}

fn lat_cell(a: &Option<(u64, u64, u64)>) -> String {
    match a {
        Some((p50, p99, max)) => format!("{p50}/{p99}/{max}"),
        None => "–".into(),
    }
}

/// The results as a Markdown table.
pub fn markdown(results: &[LockEvalResult]) -> String {
    let classes = results.iter().map(|r| r.acquire.len()).max().unwrap_or(0);
    let mut s = String::from("| config | scenario | hold limit | engine | sections/1k cyc | ");
    for p in 0..classes {
        s += &format!("P{p} acquire p50/p99/max | ");
    }
    s += "lowest class max wait | redone instr % | cuts | lock ops/section | SPEC bound: n, p50/p99/max vs bound |\n|---|---|---:|---|---:|";
    for _ in 0..classes {
        s += "---:|";
    }
    s += "---:|---:|---:|---:|---|\n";
    for r in results {
        s += &format!(
            "| {} | {} | {} | {} | {:.1} | ",
            r.config,
            r.scenario,
            if r.hold_limit == 0 {
                "off".to_string()
            } else {
                r.hold_limit.to_string()
            },
            r.engine,
            r.throughput
        );
        for p in 0..classes {
            s += &format!("{} | ", r.acquire.get(p).map_or("–".into(), lat_cell));
        }
        s += &format!(
            "{} | {:.1} | {} | {:.1} | {} |\n",
            r.lowest_max_wait,
            r.wasted_pct,
            r.cuts,
            r.ops_per_section,
            if r.bound_samples == 0 {
                "–".to_string()
            } else {
                format!(
                    "{}, {} ({}{})",
                    r.bound_samples,
                    lat_cell(&r.bound_latency),
                    if r.bound_misses == 0 { "≤ " } else { "> " },
                    r.bound
                )
            }
        );
    }
    s
}

/// What priority 0 gains and the lowest class pays: per (config, scenario, hold limit) the
/// unit's P0 p99 acquire latency and each engine's as a multiple of it, and the lowest class's
/// p99 and max wait under the unit and under the FIFO lock.
pub fn summary(results: &[LockEvalResult]) -> String {
    let mut s = String::from(
        "| config | scenario | hold limit | unit P0 p99 | × no preemption | × FIFO lock | × spin | lowest class p99: unit / FIFO | lowest class max wait: unit / FIFO | sections/1k: unit / FIFO / spin |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    let p99 =
        |r: &LockEvalResult, class: usize| r.acquire.get(class).copied().flatten().map(|a| a.1);
    let mut keys: Vec<(&str, &str, u32)> = vec![];
    for r in results {
        let k = (r.config, r.scenario, r.hold_limit);
        if !keys.contains(&k) {
            keys.push(k);
        }
    }
    for (config, scenario, limit) in keys {
        let get = |e: Engine| {
            results.iter().find(|r| {
                r.config == config
                    && r.scenario == scenario
                    && r.hold_limit == limit
                    && r.engine == e.name()
            })
        };
        let (Some(u), Some(n), Some(f), Some(sp)) = (
            get(Engine::Unit),
            get(Engine::NoPreempt),
            get(Engine::Fifo),
            get(Engine::Spin),
        ) else {
            continue;
        };
        let low = u.acquire.len() - 1;
        let Some(base) = p99(u, 0) else { continue };
        let x = |r: &LockEvalResult| {
            p99(r, 0).map_or("–".into(), |v| {
                format!("{:.1}", v as f64 / base.max(1) as f64)
            })
        };
        let opt = |v: Option<u64>| v.map_or("–".into(), |v| v.to_string());
        s += &format!(
            "| {config} | {scenario} | {} | {base} | {} | {} | {} | {} / {} | {} / {} | {:.1} / {:.1} / {:.1} |\n",
            if limit == 0 { "off".to_string() } else { limit.to_string() },
            x(n),
            x(f),
            x(sp),
            opt(p99(u, low)),
            opt(p99(f, low)),
            u.lowest_max_wait,
            f.lowest_max_wait,
            u.throughput,
            f.throughput,
            sp.throughput
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quick(name: &str, hold_limit: u32) -> Scenario {
        scenarios(LockConfig::board(), 5_000, 7)
            .into_iter()
            .find(|s| s.name == name && s.hold_limit == hold_limit)
            .expect("a standard scenario")
    }

    #[test]
    fn every_engine_runs_every_scenario_without_workload_errors() {
        for s in scenarios(LockConfig::board(), 3_000, 3) {
            for e in Engine::all() {
                let r = run(&s, e, "board");
                assert!(
                    r.sections > 0,
                    "{} on {}: nothing completed",
                    e.name(),
                    s.name
                );
                assert_eq!(r.errors[LockError::Busy as usize], 0, "{r:?}");
                assert_eq!(r.errors[LockError::BadId as usize], 0, "{r:?}");
            }
        }
    }

    #[test]
    fn only_preemption_and_the_hold_limit_cut_sections() {
        let s = quick("1 lock, 3 classes", 0);
        assert!(run(&s, Engine::Unit, "board").cuts > 0);
        for e in [Engine::NoPreempt, Engine::Fifo, Engine::Spin] {
            let r = run(&s, e, "board");
            assert_eq!((r.cuts, r.redone), (0, 0), "{}", e.name());
        }
    }

    #[test]
    fn runs_are_deterministic() {
        let s = quick("1 lock, long low-class sections (32-96)", 64);
        for e in Engine::all() {
            let (a, b) = (run(&s, e, "board"), run(&s, e, "board"));
            assert_eq!(format!("{a:?}"), format!("{b:?}"));
        }
    }

    #[test]
    fn fifo_lock_hands_off_in_arrival_order() {
        let mut m = FifoLock::new(LockConfig::board());
        m.step(&LockIn::acquire(3, 1));
        assert_eq!(m.step(&LockIn::acquire(5, 1)).grant, 1 << 3);
        m.step(&LockIn::acquire(0, 1));
        m.step(&LockIn::release(3, 1));
        let o = m.step(&LockIn::default()); // release applied
        assert_eq!(o.grant, 0);
        let o = m.step(&LockIn::default());
        assert_eq!(o.grant, 1 << 5, "the first waiter, not the lowest ID");
        assert_eq!(decode_words(&LockConfig::board(), o.lock_words)[1], Some(5));
    }

    #[test]
    #[ignore]
    fn print_tables() {
        let t = std::time::Instant::now();
        let mut r = evaluate(LockConfig::board(), "board", 100_000, 1);
        r.extend(evaluate(LockConfig::full(), "full", 50_000, 1));
        println!("{}\n{}", summary(&r), markdown(&r));
        println!("{:?}", t.elapsed());
    }

    #[test]
    fn spin_lock_grants_after_a_round_trip() {
        let mut m = SpinLock::new(LockConfig::board(), 1);
        m.step(&LockIn::acquire(2, 0));
        let t = (1..100)
            .find(|_| m.step(&LockIn::default()).grant == 1 << 2)
            .unwrap();
        assert_eq!(
            t as u64,
            SPIN_ROUND_TRIP + 1,
            "round trip, then the registered strobe"
        );
    }
}
