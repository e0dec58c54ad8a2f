//! Warp lock unit (SPEC Unit 1, seed 000): the executable specification.
//!
//! Priority-aware mutual exclusion between the warps of one thread block. See the module doc of
//! `hdl::lock_unit` for ports; this file decides the behaviour, cycle by cycle.
//!
//! ## Pipeline (the events of the next cycle are known a cycle early, so that every decision is a
//! shallow function of registers)
//! - **Release port registered.** A release driven in cycle t is applied in cycle t+1 (its
//!   `NOT_OWNER`/`BAD_ID` error strobes in t+2): the lock word reads free from t+2.
//! - **Hold-limit revocation one cycle after the retire.** A retire in cycle t that brings a
//!   holding warp's count to `hold_limit` revokes the warp in cycle t+1.
//! - **Queued acquires wait one cycle in a stage register**, then join the FIFO's tail.
//! - **The arbiter takes the FIFO head every cycle** and decides it against the state after this
//!   cycle's release and hold-limit revocation (SPEC: it re-reads the lock word and compares
//!   against the *current* holder). It never retries and never waits: one entry per cycle.
//! - **Hand-off one cycle after the pick.** Every cycle, the best waiter of every lock is picked
//!   from the start-of-cycle state; the next cycle, a lock that is free after that cycle's release
//!   and hold-limit revocation goes to its pick if the pick still waits for it.
//!
//! ## One cycle t (SPEC order: release → hold-limit revocation → arbiter → hand-off → acquire)
//! S is the state at the start of cycle t; every decision reads S unless said otherwise.
//!
//! 1. **Release** (the one registered from cycle t−1): if S says the warp owns the lock, the lock
//!    word clears. Errors: `BAD_ID`, `NOT_OWNER`.
//! 2. **Hold-limit revocation** (patent \[0043\]) of every warp marked in cycle t−1: all its locks
//!    clear, its queued request dies, `revoke` strobes (also when it released its last lock in
//!    between: it still learns that its critical section was cut).
//! 3. **Arbiter** (S103/S104, \[0031\]/\[0042\]) pops the FIFO head (requester r, lock l). A dead
//!    entry (r was revoked since it was queued, or in step 2) is dropped. Otherwise, with the
//!    holder of l *after steps 1–2* and the CPRs of S: holder r itself → **win** (granted again, no
//!    change); holder o with `cpr[r] < cpr[o]` → **preempt** (o is revoked — all its locks, its
//!    queued request, its wait — and r owns l; `revoke[o]`, `grant[r]`); holder o otherwise →
//!    **wait**; l free and r beats (strictly) every warp still waiting on l → **win** (r owns l;
//!    `grant[r]`); l free otherwise → **wait**. Wait: all of r's locks are released (\[0034\]), r
//!    waits on l, `deny[r]`.
//! 4. **Hand-off** (beyond the patent): a lock whose word is free after steps 1–2 goes to its
//!    pick from cycle t−1 (the waiter with the smallest CPR, ties round robin from the lock's
//!    `rr_next`), if the pick still waits for it and was not revoked in step 2 — unless the
//!    arbiter gave that lock to its requester in step 3 (it beat every waiter), or the lock was
//!    handed off in cycle t−1 (that pick was made before the hand-off moved `rr_next`; the pick
//!    of cycle t is made from the moved pointer and serves the lock in cycle t+1).
//! 5. **Acquire** (`acq_*`, accepted when `acq_ready` = FIFO not full): errors `BAD_ID`, `BUSY` (the
//!    warp waits or has a live request in the FIFO or the stage register). Otherwise a free lock
//!    nobody waits for is taken at once (strobe next cycle) — unless the lock is the one the
//!    arbiter decides in step 3 (a live head's; a dead head decides nothing), or the warp is
//!    revoked in this cycle (step 2, or preempted in step 3: SPEC 5, never granted in the cycle
//!    it is revoked), or the lock is the staged entry's and its requester strictly beat the
//!    holder when it was queued (SPEC 4 owes it the lock within `fifo_depth + 3`; a direct grant
//!    to a warp it does not beat would leave it waiting for that warp's release; the entry
//!    reaches the arbiter next cycle). Then, and whenever the lock
//!    is held (also by the requester itself: the arbiter grants it again, no state change) or
//!    waited for, a (requester, holder, lock) entry is queued: it waits one cycle in the stage
//!    register, then joins the FIFO's tail.
//! 6. The picks for cycle t+1 are made from S; hold counters, CPR and `hold_limit` writes update.
//!    The revocation check of cycle t uses the `hold_limit` of the start of cycle t−1, so a
//!    write in cycle t governs the retires of cycle t+2 on (the check is precomputed a cycle
//!    ahead from registers).
//!
//! Latency, in cycles from the input to its strobe: a free lock 1 (SPEC goal 1); a queued acquire
//! always 3 (stage register, FIFO head, arbiter: the queue moves one entry per cycle and takes at
//! most one per cycle, so nothing accepted ever waits behind another entry) — within the bound
//! `fifo_depth + 3` of SPEC for every accepted acquire, preemptive or not; a hand-off: the grant strobes 2 cycles after the release is driven (1 after the
//! release is applied), 1 cycle after the revocation that freed the lock strobes. A waiter that
//! joins (is denied) in the very cycle the release is driven is picked from the next cycle's
//! state, so its grant strobes 3 cycles after the release is driven, 2 after it is applied.
//!
//! Revocation (steps 2 and 3) ends everything a warp had: its lock words clear, it stops waiting
//! (a warp told to wait in the cycle its hold-limit mark was set is revoked while waiting), its
//! queued entry
//! dies (in the FIFO it keeps its slot until it reaches the head, where it is dropped), it stops
//! being a hold-limit candidate, `revoke[w]` strobes; its hold counter clears in the next cycle.
//!
//! Hold counters: a warp that starts a cycle holding a lock adds its `retire` bit; one that starts
//! a cycle holding none clears. Counting therefore starts the cycle after the grant. It saturates
//! (matters only for limit 0 = off). A warp is marked for hold-limit revocation when it holds a
//! lock in S, retires, its count + 1 reaches `hold_limit` ≠ 0, and it is not revoked in this cycle.
//!
//! FIFO occupancy (the FIFO plus the stage register): the arbiter retires one entry per cycle and
//! the acquire port adds at most one, so with one acquire port it never holds more than two.
//! `acq_ready` = FIFO not full.
//!
//! Errors (one per cycle, registered like the strobes): release's error wins over acquire's, which
//! wins over a CPR write to a bad warp. Erroring requests change nothing.
//!
//! [`eval`] drives this model (and baselines with the same ports) from a warp workload: the
//! `eval-lock` command.

use crate::{index_bits, CycleModel};
use std::collections::VecDeque;

pub mod eval;

/// Error codes of the lock unit (`error_code` port).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum LockError {
    /// Release of a lock the warp does not own.
    NotOwner = 1,
    /// Acquire from a warp that already has a request queued or is waiting.
    Busy = 2,
    /// Warp or lock index out of range.
    BadId = 3,
}

/// Construction-time parameters of the lock unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LockConfig {
    /// Warps W sharing the locks (≥ 1, ≤ 32).
    pub warps: usize,
    /// Locks L (≥ 1, ≤ 16).
    pub locks: usize,
    /// Width of a CPR (priority 0 is highest; reset value all ones = lowest).
    pub prio_bits: usize,
    /// Arbiter FIFO depth (≥ 1).
    pub fifo_depth: usize,
    /// Width of `hold_limit` and of each hold counter.
    pub hold_bits: usize,
}

impl LockConfig {
    /// Board config: W = 8, L = 4, 3-bit priorities, FIFO 4, 16-bit hold limit.
    pub const fn board() -> Self {
        Self {
            warps: 8,
            locks: 4,
            prio_bits: 3,
            fifo_depth: 4,
            hold_bits: 16,
        }
    }
    /// Full (patent-scale) config: W = 32, L = 16, 4-bit priorities, FIFO 8.
    pub const fn full() -> Self {
        Self {
            warps: 32,
            locks: 16,
            prio_bits: 4,
            fifo_depth: 8,
            hold_bits: 16,
        }
    }
    /// Width of a warp ID port (`clog2(W)`, at least 1). Derived.
    pub const fn warp_bits(&self) -> usize {
        index_bits(self.warps)
    }
    /// Width of a lock ID port. Derived.
    pub const fn lock_bits(&self) -> usize {
        index_bits(self.locks)
    }
    /// Width of one lock word: 1 locked bit + owner. Derived.
    pub const fn word_bits(&self) -> usize {
        1 + self.warp_bits()
    }
    /// Reset value of `hold_limit` (patent default 64).
    pub const HOLD_LIMIT_RESET: u32 = 64;

    /// Panics with a clear message when the configuration cannot be built.
    pub fn validate(&self) {
        assert!(
            self.warps >= 1 && self.warps <= 32,
            "lock_unit: warps must be 1..=32, got {}",
            self.warps
        );
        assert!(
            self.locks >= 1 && self.locks <= 16,
            "lock_unit: locks must be 1..=16, got {}",
            self.locks
        );
        assert!(
            self.prio_bits >= 1 && self.prio_bits <= 8,
            "lock_unit: prio_bits must be 1..=8"
        );
        assert!(
            self.fifo_depth >= 1 && self.fifo_depth <= 16,
            "lock_unit: fifo_depth must be 1..=16"
        );
        assert!(
            self.hold_bits >= 7 && self.hold_bits <= 16,
            "lock_unit: hold_bits must be 7..=16 (reset limit 64)"
        );
        assert!(
            self.locks * self.word_bits() <= 128,
            "lock_unit: lock_words must fit 128 bits"
        );
    }
}

/// Inputs of one cycle (port names of the exported top). `Debug` prints only the active ports.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct LockIn {
    pub reset: bool,
    pub cpr_we: bool,
    pub cpr_warp: u32,
    pub cpr_prio: u32,
    pub cfg_we: bool,
    pub cfg_hold_limit: u32,
    pub acq_valid: bool,
    pub acq_warp: u32,
    pub acq_lock: u32,
    pub rel_valid: bool,
    pub rel_warp: u32,
    pub rel_lock: u32,
    /// Bit w: warp w retired an instruction this cycle.
    pub retire: u64,
}

impl LockIn {
    /// An acquire of lock `l` by warp `w`, nothing else.
    pub fn acquire(w: u32, l: u32) -> Self {
        Self {
            acq_valid: true,
            acq_warp: w,
            acq_lock: l,
            ..Self::default()
        }
    }
    /// A release of lock `l` by warp `w`, nothing else.
    pub fn release(w: u32, l: u32) -> Self {
        Self {
            rel_valid: true,
            rel_warp: w,
            rel_lock: l,
            ..Self::default()
        }
    }
    /// A CPR write: warp `w` gets priority `p`, nothing else.
    pub fn set_cpr(w: u32, p: u32) -> Self {
        Self {
            cpr_we: true,
            cpr_warp: w,
            cpr_prio: p,
            ..Self::default()
        }
    }
    /// A `hold_limit` write, nothing else.
    pub fn set_hold_limit(limit: u32) -> Self {
        Self {
            cfg_we: true,
            cfg_hold_limit: limit,
            ..Self::default()
        }
    }
}

crate::reset_by_field!(LockIn);

/// Outputs of one cycle. `Debug` prints the strobes in binary, lock words in hex.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct LockOut {
    /// Combinational: an acquire is accepted this cycle if valid (FIFO not full).
    pub acq_ready: bool,
    /// Strobe, bit per warp: granted the lock it asked for.
    pub grant: u64,
    /// Strobe: told to wait (its locks were released).
    pub deny: u64,
    /// Strobe: all its locks were taken away.
    pub revoke: u64,
    /// Level: warp waits for a hand-off.
    pub waiting: u64,
    /// Lock i at bits `word_bits*i ..`: bit `warp_bits` = locked, low bits = owner.
    pub lock_words: u128,
    pub error: bool,
    pub error_code: u8,
}

impl std::fmt::Debug for LockIn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut parts = vec![];
        if self.reset {
            parts.push("reset".to_string());
        }
        if self.cpr_we {
            parts.push(format!("cpr[{}]={}", self.cpr_warp, self.cpr_prio));
        }
        if self.cfg_we {
            parts.push(format!("hold_limit={}", self.cfg_hold_limit));
        }
        if self.acq_valid {
            parts.push(format!("acq(w{},l{})", self.acq_warp, self.acq_lock));
        }
        if self.rel_valid {
            parts.push(format!("rel(w{},l{})", self.rel_warp, self.rel_lock));
        }
        if self.retire != 0 {
            parts.push(format!("retire={:#b}", self.retire));
        }
        if parts.is_empty() {
            parts.push("idle".into());
        }
        write!(f, "{}", parts.join(" "))
    }
}

impl std::fmt::Debug for LockOut {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "rdy={} grant={:#b} deny={:#b} revoke={:#b} waiting={:#b} words={:#x}",
            self.acq_ready as u8, self.grant, self.deny, self.revoke, self.waiting, self.lock_words
        )?;
        if self.error {
            write!(f, " ERROR={}", self.error_code)?;
        } else if self.error_code != 0 {
            write!(f, " error_code={} (without error)", self.error_code)?;
        }
        Ok(())
    }
}

/// Event counters of a model run (for coverage checks and benches; not part of the hardware).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LockStats {
    /// Acquires granted at once (free lock or re-acquire).
    pub direct_grants: u64,
    /// Acquires queued in the arbiter FIFO.
    pub enqueued: u64,
    /// Arbiter decisions: granted a free lock / preempted the holder / requester waits.
    pub arbiter_free_grants: u64,
    pub preemptions: u64,
    pub waits: u64,
    /// Dead FIFO entries dropped at the head.
    pub dead_dropped: u64,
    /// Locks handed off to a waiter; of those, chosen among ≥ 2 equal-priority waiters.
    pub hand_offs: u64,
    pub tie_hand_offs: u64,
    /// Warps revoked by the hold limit.
    pub hold_revocations: u64,
    /// Errors by code (index 1..=3).
    pub errors: [u64; 4],
    /// Cycles with `acq_valid` high while `acq_ready` was low (backpressure).
    pub backpressured: u64,
    /// Cycles stepped (reset cycles included).
    pub cycles: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Entry {
    req: usize,
    /// Holder seen when queued (informational: the arbiter re-reads the lock word).
    #[allow(dead_code)]
    holder: Option<usize>,
    lock: usize,
    live: bool,
    /// The requester strictly beat (smaller CPR, as of the start of that cycle) the holder when it
    /// was queued: SPEC 4 owes it the lock within `fifo_depth + 3` cycles of its acceptance.
    beats_holder: bool,
}

/// Stage B's verdict on an entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    /// The requester owns the lock (taken free, or it already owned it).
    Win,
    /// The holder (this warp) is revoked and the requester owns the lock.
    Preempt(usize),
    /// The requester waits on the lock and releases what it holds.
    Wait,
}

/// Cycle model of the lock unit.
#[derive(Clone, Debug)]
pub struct LockUnit {
    cfg: LockConfig,
    cpr: Vec<u32>,
    hold_limit: u32,
    /// `hold_limit` as it was at the start of the previous cycle: the value the revocation check
    /// uses (a write in cycle t governs the retires of cycle t+2 on).
    limit_prev: u32,
    owner: Vec<Option<usize>>,
    fifo: VecDeque<Entry>,
    waiting: Vec<Option<usize>>,
    hold: Vec<u32>,
    rr_next: Vec<usize>,
    /// Release driven in the previous cycle (warp, lock), applied in this one.
    rel_q: Option<(u32, u32)>,
    /// Warps marked in the previous cycle for hold-limit revocation.
    hrq: Vec<bool>,
    /// The entry queued in the previous cycle: it joins the FIFO's tail in this one.
    staged: Option<Entry>,
    /// Hand-off pick per lock, made in the previous cycle.
    pick: Vec<Option<usize>>,
    /// Per lock: handed off in the previous cycle (its pick, made before that hand-off moved
    /// `rr_next`, is stale and not used).
    handed: Vec<bool>,
    out: LockOut,
    stats: LockStats,
    /// Evaluation-only knob, not a register of the hardware (see [`LockUnit::set_preemption`]).
    preempt: bool,
}

impl LockUnit {
    pub fn new(cfg: LockConfig) -> Self {
        cfg.validate();
        let mut m = Self {
            cfg,
            cpr: vec![],
            hold_limit: 0,
            limit_prev: 0,
            owner: vec![],
            fifo: VecDeque::new(),
            waiting: vec![],
            hold: vec![],
            rr_next: vec![],
            rel_q: None,
            hrq: vec![],
            staged: None,
            pick: vec![],
            handed: vec![],
            out: LockOut::default(),
            stats: LockStats::default(),
            preempt: true,
        };
        m.reset();
        m
    }

    /// Evaluation only (the `eval-lock` baseline "this unit without revocation"): with `false`
    /// the arbiter never preempts — a strictly higher-priority requester waits like any other and
    /// gets the lock by the priority hand-off when the holder releases it. Not a register of the
    /// hardware and not touched by `reset`; `true` (the default, the hardware) leaves every
    /// decision as documented above. The hold limit is unaffected.
    pub fn set_preemption(&mut self, on: bool) {
        self.preempt = on;
    }

    pub fn config(&self) -> &LockConfig {
        &self.cfg
    }

    /// Current owner of lock `l` (host view of the lock word).
    pub fn owner(&self, l: usize) -> Option<usize> {
        self.owner[l]
    }

    /// Event counters since construction.
    pub fn stats(&self) -> &LockStats {
        &self.stats
    }

    /// Entries in the arbiter FIFO (live and dead) including the one joining its tail. At most
    /// `fifo_depth`.
    pub fn fifo_len(&self) -> usize {
        self.fifo.len() + self.staged.is_some() as usize
    }

    /// Whether warp `w` has a live request in the arbiter (FIFO or the entry joining it).
    pub fn queued(&self, w: usize) -> bool {
        self.fifo
            .iter()
            .chain(&self.staged)
            .any(|e| e.live && e.req == w)
    }

    fn prio_max(&self) -> u32 {
        (1u32 << self.cfg.prio_bits) - 1
    }

    fn hold_max(&self) -> u32 {
        (1u32 << self.cfg.hold_bits) - 1
    }

    fn lock_words(&self) -> u128 {
        let wb = self.cfg.word_bits();
        self.owner
            .iter()
            .enumerate()
            .fold(0u128, |acc, (i, o)| match o {
                Some(w) => acc | (((1u128 << self.cfg.warp_bits()) | *w as u128) << (wb * i)),
                None => acc,
            })
    }

    fn waiting_mask(&self) -> u64 {
        self.waiting
            .iter()
            .enumerate()
            .filter(|(_, x)| x.is_some())
            .fold(0, |acc, (w, _)| acc | 1 << w)
    }

    fn visible_outputs(&self) -> LockOut {
        LockOut {
            acq_ready: self.fifo_len() < self.cfg.fifo_depth,
            waiting: self.waiting_mask(),
            lock_words: self.lock_words(),
            ..self.out.clone()
        }
    }

    /// Best waiter on lock `l` by (smallest CPR, round robin from `rr_next[l]`).
    fn best_waiter(&self, l: usize) -> Option<usize> {
        let w = self.cfg.warps;
        (0..w)
            .map(|k| (self.rr_next[l] + k) % w)
            .filter(|&v| self.waiting[v] == Some(l))
            .min_by_key(|&v| self.cpr[v]) // min_by_key keeps the first of equal keys
    }

    /// Ends everything warp `w` has: its locks, its queued request, its wait.
    fn revoke_all(&mut self, w: usize) {
        self.waiting[w] = None;
        for o in self.owner.iter_mut() {
            if *o == Some(w) {
                *o = None;
            }
        }
        for e in self.fifo.iter_mut().chain(self.staged.iter_mut()) {
            if e.req == w {
                e.live = false;
            }
        }
    }
}

impl CycleModel for LockUnit {
    type In = LockIn;
    type Out = LockOut;

    fn reset(&mut self) {
        let c = self.cfg;
        self.cpr = vec![self.prio_max(); c.warps];
        self.hold_limit = LockConfig::HOLD_LIMIT_RESET;
        self.limit_prev = LockConfig::HOLD_LIMIT_RESET;
        self.owner = vec![None; c.locks];
        self.fifo.clear();
        self.staged = None;
        self.waiting = vec![None; c.warps];
        self.hold = vec![0; c.warps];
        self.rr_next = vec![0; c.locks];
        self.rel_q = None;
        self.hrq = vec![false; c.warps];
        self.pick = vec![None; c.locks];
        self.handed = vec![false; c.locks];
        self.out = LockOut::default();
    }

    fn step(&mut self, i: &LockIn) -> LockOut {
        let seen = self.visible_outputs();
        self.stats.cycles += 1;
        if i.acq_valid && !seen.acq_ready {
            self.stats.backpressured += 1;
        }
        if i.reset {
            self.reset();
            return seen;
        }
        let (nw, nl) = (self.cfg.warps, self.cfg.locks);
        let s = self.clone(); // the state at the start of the cycle: every decision reads it
        let mut grant = 0u64;
        let mut deny = 0u64;
        let mut rel_err: Option<LockError> = None;
        let mut acq_err: Option<LockError> = None;
        let mut cpr_err: Option<LockError> = None;
        let owns = |w: usize| s.owner.contains(&Some(w));
        let bit = |v: u64, w: usize| (v >> w) & 1 == 1;
        let mut revoked = vec![false; nw];

        // 1. The release registered in the previous cycle.
        if let Some((w, l)) = s.rel_q {
            let (w, l) = (w as usize, l as usize);
            if w >= nw || l >= nl {
                rel_err = Some(LockError::BadId);
            } else if s.owner[l] != Some(w) {
                rel_err = Some(LockError::NotOwner);
            } else {
                self.owner[l] = None;
            }
        }

        // 2. Hold-limit revocations marked in the previous cycle, of warps still holding a lock.
        for w in (0..nw).filter(|&w| s.hrq[w]) {
            self.stats.hold_revocations += 1;
            revoked[w] = true;
            self.revoke_all(w);
        }

        // 3. Arbiter: pop the FIFO head, decide it against the state after steps 1-2, apply.
        let mut b_won: Option<usize> = None; // lock the arbiter gave to its requester
        if let Some(a) = self.fifo.pop_front() {
            let (r, l) = (a.req, a.lock);
            if !a.live {
                self.stats.dead_dropped += 1;
            } else {
                let holder = self.owner[l];
                let beats = |other: usize| s.cpr[r] < s.cpr[other];
                let verdict = match holder {
                    Some(o) if o == r => Verdict::Win,
                    Some(o) if beats(o) && self.preempt => Verdict::Preempt(o),
                    Some(_) => Verdict::Wait,
                    None => {
                        if (0..nw).filter(|&w| self.waiting[w] == Some(l)).all(beats) {
                            Verdict::Win
                        } else {
                            Verdict::Wait
                        }
                    }
                };
                match verdict {
                    Verdict::Win | Verdict::Preempt(_) => {
                        if let Verdict::Preempt(o) = verdict {
                            self.stats.preemptions += 1;
                            revoked[o] = true;
                            self.revoke_all(o);
                        } else if holder.is_none() {
                            self.stats.arbiter_free_grants += 1;
                        }
                        self.owner[l] = Some(r);
                        b_won = Some(l);
                        grant |= 1 << r;
                    }
                    Verdict::Wait => {
                        // [0034]: wait, and release everything already held.
                        self.stats.waits += 1;
                        for o in self.owner.iter_mut() {
                            if *o == Some(r) {
                                *o = None;
                            }
                        }
                        self.waiting[r] = Some(l);
                        deny |= 1 << r;
                    }
                }
            }
        }

        // 4. Hand-off to the picks of the previous cycle (not of a lock handed off in the
        // previous cycle: that pick predates the round-robin move; the next cycle's is fresh).
        self.handed = vec![false; nl];
        for l in 0..nl {
            let Some(b) = s.pick[l] else { continue };
            if s.handed[l] {
                continue;
            }
            let free_after_12 = match s.owner[l] {
                None => true,
                Some(o) => {
                    (s.hrq[o])
                        || s.rel_q
                            .is_some_and(|(w, rl)| rl as usize == l && w as usize == o)
                }
            };
            // (not a free lock the arbiter just gave to a requester that beats every waiter)
            if free_after_12 && s.waiting[b] == Some(l) && !revoked[b] && b_won != Some(l) {
                self.stats.hand_offs += 1;
                let tied = (0..nw)
                    .filter(|&v| s.waiting[v] == Some(l) && s.cpr[v] == s.cpr[b])
                    .count();
                if tied >= 2 {
                    self.stats.tie_hand_offs += 1;
                }
                self.owner[l] = Some(b);
                self.waiting[b] = None;
                self.rr_next[l] = (b + 1) % nw;
                self.handed[l] = true;
                grant |= 1 << b;
            }
        }

        // 5. New acquire, against the start-of-cycle state.
        let mut pushed = None;
        if i.acq_valid && s.fifo_len() < self.cfg.fifo_depth {
            let (w, l) = (i.acq_warp as usize, i.acq_lock as usize);
            if w >= nw || l >= nl {
                acq_err = Some(LockError::BadId);
            } else if s.waiting[w].is_some() || s.queued(w) {
                acq_err = Some(LockError::Busy);
            } else {
                // what the arbiter decides in this cycle (step 3): a live head whose requester
                // is not revoked in step 2 (a dead head, and a release of a free lock, change
                // no free lock)
                let decided = s.fifo.front().filter(|e| e.live && !s.hrq[e.req]);
                // SPEC order: the arbiter (step 3) comes first; it may take this lock, and a
                // warp revoked in this cycle (step 2, or preempted in step 3) is never granted
                // in it (SPEC 5)
                // and SPEC 4: a staged entry whose requester strictly beat the holder is owed
                // the lock within fifo_depth + 3; a direct grant of that lock (freed meanwhile)
                // to a warp it does not beat would make it wait for that warp's release, so
                // the arbiter takes the entry first
                let conflict = decided.is_some_and(|e| e.lock == l)
                    || s.staged.is_some_and(|e| e.lock == l && e.beats_holder)
                    || revoked[w];
                let reserved = s.waiting.contains(&Some(l));
                match s.owner[l] {
                    None if !reserved && !conflict => {
                        self.stats.direct_grants += 1;
                        self.owner[l] = Some(w);
                        grant |= 1 << w;
                    }
                    holder => {
                        self.stats.enqueued += 1;
                        pushed = Some(Entry {
                            req: w,
                            holder,
                            lock: l,
                            live: true,
                            beats_holder: holder.is_some_and(|h| s.cpr[w] < s.cpr[h]),
                        });
                    }
                }
            }
        }

        // 7a. Hold-limit marks for the next cycle (not for a warp revoked in this one).
        let hold_rev: Vec<bool> = (0..nw)
            .map(|w| {
                s.limit_prev != 0
                    && owns(w)
                    && bit(i.retire, w)
                    && s.hold[w] + 1 >= s.limit_prev
                    && !revoked[w]
            })
            .collect();

        // The entry queued last cycle joins the FIFO's tail; this cycle's waits in the stage.
        if let Some(e) = self.staged.take() {
            self.fifo.push_back(e);
        }
        self.staged = pushed;

        // 7b. CPR and configuration writes (take effect next cycle).
        if i.cpr_we {
            if (i.cpr_warp as usize) < nw {
                self.cpr[i.cpr_warp as usize] = i.cpr_prio & self.prio_max();
            } else {
                cpr_err = Some(LockError::BadId);
            }
        }
        self.limit_prev = s.hold_limit;
        if i.cfg_we {
            self.hold_limit = i.cfg_hold_limit & self.hold_max();
        }

        // Hold counters: count the retires of a warp that starts the cycle holding a lock;
        // clear in a cycle that starts with the warp holding none.
        for w in 0..nw {
            self.hold[w] = if owns(w) {
                (s.hold[w] + bit(i.retire, w) as u32).min(self.hold_max())
            } else {
                0
            };
        }
        self.hrq = hold_rev;
        self.rel_q = i.rel_valid.then_some((i.rel_warp, i.rel_lock));
        self.pick = (0..nl).map(|l| s.best_waiter(l)).collect();

        let revoke = (0..nw)
            .filter(|&w| revoked[w])
            .fold(0u64, |m, w| m | 1 << w);
        let err = rel_err.or(acq_err).or(cpr_err);
        if let Some(e) = err {
            self.stats.errors[e as usize] += 1;
        }
        self.out = LockOut {
            grant,
            deny,
            revoke,
            error: err.is_some(),
            error_code: err.map_or(0, |e| e as u8),
            ..LockOut::default()
        };
        self.check_invariants(deny);
        seen
    }
}

impl LockUnit {
    fn check_invariants(&self, deny: u64) {
        for w in 0..self.cfg.warps {
            debug_assert!(
                deny >> w & 1 == 0 || self.waiting[w].is_some(),
                "lock_unit: warp {w} denied but not waiting"
            );
        }
        for w in 0..self.cfg.warps {
            debug_assert!(
                !(self.waiting[w].is_some() && self.owner.contains(&Some(w))),
                "lock_unit: warp {w} both waits and owns a lock"
            );
            debug_assert!(
                self.fifo
                    .iter()
                    .chain(&self.staged)
                    .filter(|e| e.live && e.req == w)
                    .count()
                    <= 1,
                "lock_unit: warp {w} has two live requests"
            );
            debug_assert!(
                !(self.out.revoke >> w & 1 == 1 && self.owner.contains(&Some(w))),
                "lock_unit: warp {w} revoked this cycle but owns a lock"
            );
        }
        debug_assert!(
            self.out.grant & self.out.deny == 0,
            "lock_unit: grant and deny together"
        );
        debug_assert!(
            self.out.grant & self.out.revoke == 0,
            "lock_unit: granted while revoked"
        );
        debug_assert!(
            self.fifo_len() <= self.cfg.fifo_depth,
            "lock_unit: FIFO overflow"
        );
        // the arbiter drains one entry per cycle and the stage adds one: the FIFO holds at most
        // the head (the RTL precomputes the arbiter's inputs from the stage register)
        debug_assert!(
            self.fifo.len() <= 1,
            "lock_unit: FIFO holds more than the head"
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn idle() -> LockIn {
        LockIn::default()
    }
    use LockIn as I;
    fn acq(w: u32, l: u32) -> LockIn {
        I::acquire(w, l)
    }
    fn cpr(w: u32, p: u32) -> LockIn {
        I::set_cpr(w, p)
    }

    /// Patent \[0044\]–\[0052\]: warp 1 (prio 1) holds the lock, warp 0 (prio 0) preempts it.
    #[test]
    fn patent_example_s1_to_s8() {
        let mut m = LockUnit::new(LockConfig::board());
        m.step(&cpr(0, 0)); // S1
        m.step(&cpr(1, 1));
        m.step(&acq(1, 0)); // S2
        let o = m.step(&idle());
        assert_eq!(o.grant, 0b10);
        assert_eq!(o.lock_words & 0xf, 0b1001, "locked, owner 1");
        m.step(&acq(0, 0)); // S3/S4: queued
        let o = m.step(&idle()); // S4: the entry waits in the stage register
        assert_eq!((o.grant, o.revoke), (0, 0));
        let o = m.step(&idle()); // S5-S7: the arbiter compares CPR0 < CPR1, revokes warp 1
        assert_eq!((o.grant, o.revoke), (0, 0));
        let o = m.step(&idle()); // S8: warp 0 holds the lock
        assert_eq!(o.grant, 0b01);
        assert_eq!(o.revoke, 0b10);
        assert_eq!(o.lock_words & 0xf, 0b1000, "locked, owner 0");
    }
}
