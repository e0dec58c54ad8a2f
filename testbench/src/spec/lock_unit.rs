//! Spec checker of the warp lock unit (SPEC Unit 1), written from `SPEC.md` alone.
//!
//! It keeps the contract's own state, built from what it sees on the ports — the owner of every
//! lock (read from `lock_words` and checked against the events that may change it), the accepted
//! requests still open per warp, the waiters per lock, a history of every CPR and of
//! `hold_limit` as the host wrote them, and a hold count per warp — and no pipeline register.
//! Where SPEC leaves the cycle of an effect open (which CPR value an arbiter decision read, when
//! a release is applied), the checker accepts a short window of cycles instead of one.
//!
//! Rules (names as in [`Violation::rule`]):
//! - `reset`: the cycle after a reset shows the idle state (no lock held, nobody waiting, no
//!   strobe, no error and `error_code` 0, `acq_ready` high: the FIFO is empty).
//! - `word-change`: a lock word changes only by a grant of that lock (to the new owner), a
//!   release by its owner driven in the last two cycles, or a revocation or deny of the owner.
//! - `grant-legal`: a granted warp has an accepted request or a wait for exactly the lock whose
//!   word now names it; a grant of a held lock preempts a holder the requester strictly beats
//!   (smaller CPR) and revokes it, or re-grants the requester's own lock; a free lock with waiters
//!   goes to a requester only if it strictly beats every waiter; a hand-off goes to a waiter no
//!   other waiter strictly beats.
//! - `round-robin`: among waiters tied at the best CPR, a hand-off goes to the first one after
//!   the lock's previous hand-off recipient (by warp index, cyclically; from warp 0 after reset),
//!   in every case (judged whenever the waiters and their CPRs are settled; the exemption for a
//!   hand-off right after the same lock's previous one is gone since issue #25).
//! - `deny-legal`: a deny answers an open request, only when something blocks it: the holder or a
//!   waiter of the lock (or the warp granted it in that cycle) that the requester does not
//!   strictly beat, and never for a lock the requester owns; the denied warp owns nothing and waits.
//! - `revoke-legal`: a revocation is a preemption (a requester strictly beating the warp got one
//!   of its locks in that cycle) or the hold limit (the warp's count reached `hold_limit` one or
//!   two cycles before); the revoked warp owns nothing and waits for nothing. Its request is
//!   gone if it was accepted before the cycle the revocation was decided; one accepted in that
//!   cycle survives (SPEC order: revocation, then the new acquire) and stays under
//!   `answer-bound`. Contract bound of the hold limit: the revocation is decided one cycle after
//!   the retire that reaches the limit, so a request accepted in that retire's own cycle is
//!   ended with the rest (granted at once and then revoked, or dropped from the queue).
//! - `hold-limit`: a warp whose count of retires while holding reaches `hold_limit` (≠ 0) is
//!   revoked within 2 cycles.
//! - `answer-bound`: every accepted request is answered (grant, deny or revocation of its warp)
//!   within `fifo_depth + 3` cycles (the arbiter takes one entry per cycle; SPEC's bound for a
//!   strictly higher-priority requester), so nothing accepted is lost.
//! - `priority-bound` (SPEC 4, "a strictly higher-priority requester holds the lock within
//!   `fifo_depth + 3` cycles of its acquire being accepted"): an acquire of lock l by warp r,
//!   accepted while l is held by another warp h that r strictly beats (smaller CPR) and while r
//!   strictly beats every other warp that waits for l or has an open request for it, is granted
//!   l (the `grant` strobe shows r as its owner) within `fifo_depth + 3` cycles of its
//!   acceptance — by the arbiter, or by a hand-off after a deny — unless r is revoked first
//!   (revocation ends its request, SPEC 5). No other warp excuses it: one that comes later is
//!   queued behind r (the arbiter takes the FIFO in order), and a free-lock grant to a later
//!   warp that r does not beat would break the bound (see `free-grant`). Judged only when the
//!   CPRs of r and of those rivals are settled from `WRITE_WINDOW` cycles before the acceptance
//!   to the deadline (r surely beats each of them); a deny within the bound is not itself a
//!   violation (the `answer-bound` rule accepts it), only the missing grant at the deadline.
//! - `free-grant`: an acquire of a lock that is free and that nobody waits for at its acceptance
//!   is granted within 2 cycles. The only exceptions are the ones SPEC's event order forces (the
//!   arbiter comes before the new acquire in one cycle): the arbiter's decision in the
//!   acceptance cycle — seen as the next cycle's answers — took the lock (another warp's request
//!   for it granted, or denied and now waiting), or revoked the requester (SPEC 5: never granted
//!   in the cycle it is revoked). Then the request is bound by `answer-bound` only. One more
//!   exception SPEC forces, by item 4 against item 1: another warp's open request for the lock
//!   accepted while the lock was held by a warp it (maybe) strictly beats. SPEC 4 owes that warp
//!   the lock within `fifo_depth + 3`; a free-lock grant to a warp it does not beat, after the
//!   holder left, would make it wait for that warp's release (found by `tests/lock_eval.rs`,
//!   seed 3: 25 cycles; `priority-bound` fires on it). The exemption does not ask whether that
//!   warp also beats the lock's other waiters and requesters at its acceptance (SPEC 4's full
//!   condition): with one acquire per cycle those have been decided — the lock held or waited
//!   for, so not free — by the time the new acquire comes, unless a waiter was revoked.
//!   (Before issue #25 any other open request for the lock, or for a lock the requester held,
//!   excused it.)
//! - `hand-off`: a free lock with waiters is granted within 2 cycles.
//! - `release`: a release by the owner frees the lock within 2 cycles.
//! - `error`: every error strobe has a cause of that code (NOT_OWNER: release of a lock the warp
//!   did not own; BUSY: acquire while a request is open or the warp waits; BAD_ID: warp or lock
//!   out of range), and every cause is reported (release's within 2 cycles, acquire's and CPR's
//!   the next cycle; one error per cycle); an erring request changes nothing (it opens no
//!   request, frees no lock). BUSY is judged on the requests open at the start of the cycle: an
//!   acquire in the cycle a revocation of its warp drops the warp's queued request is BUSY
//!   (SPEC's order would drop the request first; the design's BUSY check reads the start-of-cycle
//!   state, and the `revoke` strobe tells the warp to acquire again).
//! - `waiting`: the `waiting` level equals the checker's waiter set.
//! - `ready`: `acq_ready` is low only while the FIFO is full (SPEC 2): at least `fifo_depth`
//!   entries may occupy it — open (queued) requests, and requests dropped by a revocation within
//!   the last `fifo_depth + 3` cycles (a dead entry may keep its slot until it reaches the head).

use crate::spec::{SpecChecker, Violation};
use golden_model::lock_unit::{LockConfig, LockIn, LockOut};
use std::collections::VecDeque;

/// Cycles back (from the cycle whose outputs are judged) in which a CPR or `hold_limit` write
/// may still be the value an arbiter decision or hold-limit check read.
const WRITE_WINDOW: usize = 3;

/// An accepted acquire not yet answered.
#[derive(Clone, Copy, Debug)]
struct Request {
    lock: usize,
    accepted: usize,
    /// Deadline of the free-lock grant window, if it applies.
    free_by: Option<usize>,
    /// Accepted while the lock was held by another warp that the requester may have strictly
    /// beaten (CPR window): SPEC 4 may owe it the lock (see `free-grant`).
    beat_holder: bool,
}

/// An acquire that SPEC 4 owes the lock within `fifo_depth + 3` cycles.
#[derive(Clone, Copy, Debug)]
struct Owed {
    lock: usize,
    accepted: usize,
    /// The holder, the other waiters and the other open requesters of the lock at acceptance.
    rivals: u64,
}

/// A cause for an error strobe: the code, the cycles it may strobe in, whether it must.
#[derive(Clone, Copy, Debug)]
struct ErrCause {
    /// Cycle the request was driven.
    origin: usize,
    code: u8,
    from: usize,
    to: usize,
    must: bool,
    /// A release's error (SPEC: it wins a cycle over the acquire's).
    release: bool,
    /// Precedence in one cycle: release 0, acquire 1, CPR write 2 (the others are not reported).
    rank: u8,
    what: &'static str,
}

/// How often each rule had something to judge (coverage of the checker itself).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SpecStats {
    /// Grants: of a free lock (also freed in the same cycle), of the requester's own lock
    /// again, by preemption, by hand-off; hand-offs among tied waiters judged round robin.
    pub free_grants: u64,
    pub re_grants: u64,
    pub preemptions: u64,
    pub hand_offs: u64,
    pub round_robin_judged: u64,
    /// Denies; revocations by the hold limit (not by preemption).
    pub denies: u64,
    pub hold_revocations: u64,
    /// Free-lock acquires whose 2-cycle grant window was judged.
    pub free_windows: u64,
    /// Acquires owed the lock within `fifo_depth + 3` (SPEC 4) whose deadline was judged.
    pub priority_bounds: u64,
    /// Error causes: NOT_OWNER, BAD_ID of a release, BUSY, BAD_ID of an acquire, of a CPR write.
    pub rel_not_owner: u64,
    pub rel_bad_id: u64,
    pub acq_busy: u64,
    pub acq_bad_id: u64,
    pub cpr_bad_id: u64,
    /// Cycles with `acq_ready` low.
    pub backpressure: u64,
}

/// Lock-unit spec checker for any [`LockConfig`].
pub struct LockSpecChecker {
    cfg: LockConfig,
    /// What the rules judged so far.
    pub stats: SpecStats,
    /// Lock owners as of the previous cycle's outputs.
    owner: Vec<Option<usize>>,
    /// Open accepted request per warp.
    req: Vec<Option<Request>>,
    /// The lock each warp waits for, and since which cycle (its deny).
    wait: Vec<Option<usize>>,
    wait_since: Vec<usize>,
    /// Per lock, the waiter that got its last hand-off (round robin among ties).
    rr_last: Vec<Option<usize>>,
    /// CPR history per warp: (first cycle in effect, value), newest last.
    cpr: Vec<VecDeque<(usize, u32)>>,
    /// `hold_limit` history: (first cycle in effect, value).
    limit: VecDeque<(usize, u32)>,
    /// Retires counted while holding (saturating at the port width).
    hold: Vec<u32>,
    /// Cycles at which a warp's count reached the limit: (cycle, surely).
    marks: Vec<VecDeque<(usize, bool)>>,
    /// Releases driven: (cycle, warp, lock, owned at the driving cycle).
    releases: VecDeque<(usize, usize, usize, bool)>,
    /// Error causes not yet discharged or expired.
    errs: Vec<ErrCause>,
    /// Releases by the owner that must have freed the lock by the cycle given.
    rel_due: Vec<(usize, usize, usize)>,
    /// Per lock: consecutive cycles it has been seen free while someone waits for it.
    free_waited: Vec<usize>,
    /// Acceptance cycles of requests dropped by a revocation of their warp: each may still hold
    /// a FIFO slot (as a dead entry) for `fifo_depth + 3` cycles after its acceptance.
    dropped: VecDeque<usize>,
    /// A reset was driven in the previous cycle.
    after_reset: bool,
    /// Per warp: the lock SPEC 4 owes it (`priority-bound`), until granted or revoked.
    owed: Vec<Option<Owed>>,
}

impl LockSpecChecker {
    pub fn new(cfg: LockConfig) -> Self {
        cfg.validate();
        let mut c = Self {
            cfg,
            stats: SpecStats::default(),
            owner: vec![],
            req: vec![],
            wait: vec![],
            wait_since: vec![],
            rr_last: vec![],
            cpr: vec![],
            limit: VecDeque::new(),
            hold: vec![],
            marks: vec![],
            releases: VecDeque::new(),
            errs: vec![],
            rel_due: vec![],
            free_waited: vec![],
            dropped: VecDeque::new(),
            after_reset: false,
            owed: vec![],
        };
        c.reset(0);
        c
    }

    /// SPEC reset state, in effect from cycle `from`.
    fn reset(&mut self, from: usize) {
        let (w, l) = (self.cfg.warps, self.cfg.locks);
        let lowest = (1u32 << self.cfg.prio_bits) - 1;
        self.owner = vec![None; l];
        self.req = vec![None; w];
        self.wait = vec![None; w];
        self.owed = vec![None; w];
        self.wait_since = vec![0; w];
        self.rr_last = vec![None; l];
        self.cpr = vec![VecDeque::from([(from, lowest)]); w];
        self.limit = VecDeque::from([(from, LockConfig::HOLD_LIMIT_RESET)]);
        self.hold = vec![0; w];
        self.marks = vec![VecDeque::new(); w];
        self.releases.clear();
        self.errs.clear();
        self.rel_due.clear();
        self.free_waited = vec![0; l];
        self.dropped.clear();
    }

    fn owners(&self, words: u128) -> Vec<Option<usize>> {
        let (wb, ww) = (self.cfg.warp_bits(), self.cfg.word_bits());
        (0..self.cfg.locks)
            .map(|l| {
                let word = (words >> (ww * l)) & ((1u128 << ww) - 1);
                (word >> wb & 1 == 1).then_some((word & ((1u128 << wb) - 1)) as usize)
            })
            .collect()
    }

    /// Values a history held during cycles `from..=to`: (smallest, largest, all).
    fn range(hist: &VecDeque<(usize, u32)>, from: usize, to: usize) -> (u32, u32, Vec<u32>) {
        let vals: Vec<u32> = hist
            .iter()
            .enumerate()
            .filter(|(k, &(start, _))| {
                let end = hist.get(k + 1).map_or(usize::MAX, |n| n.0);
                start <= to && end > from
            })
            .map(|(_, &(_, v))| v)
            .collect();
        let vals = if vals.is_empty() {
            vec![hist.front().map_or(0, |h| h.1)]
        } else {
            vals
        };
        (
            *vals.iter().min().unwrap(),
            *vals.iter().max().unwrap(),
            vals,
        )
    }

    fn cpr_range(&self, w: usize, cycle: usize) -> (u32, u32) {
        let (lo, hi, _) = Self::range(&self.cpr[w], cycle.saturating_sub(WRITE_WINDOW), cycle);
        (lo, hi)
    }

    /// `a` may have had a strictly smaller CPR than `b` at the decision judged in `cycle`.
    fn may_beat(&self, a: usize, b: usize, cycle: usize) -> bool {
        self.cpr_range(a, cycle).0 < self.cpr_range(b, cycle).1
    }

    /// `a` surely had a CPR smaller than or equal to `b`'s (`strict`: smaller).
    fn surely_at_least(&self, a: usize, b: usize, cycle: usize, strict: bool) -> bool {
        let (ha, lb) = (self.cpr_range(a, cycle).1, self.cpr_range(b, cycle).0);
        if strict {
            ha < lb
        } else {
            ha <= lb
        }
    }

    /// `priority-bound` applies to `ow` as of cycle `t`: the requester surely had a smaller CPR
    /// than each rival in every cycle from `WRITE_WINDOW` before the acceptance to `t`.
    fn owed_sure(&self, w: usize, ow: &Owed, t: usize) -> bool {
        let from = ow.accepted.saturating_sub(WRITE_WINDOW);
        let hi = Self::range(&self.cpr[w], from, t).1;
        Self::bits(ow.rivals).all(|c| Self::range(&self.cpr[c], from, t).0 > hi)
    }

    fn released_recently(&self, w: usize, l: usize, cycle: usize) -> bool {
        self.releases
            .iter()
            .any(|&(c, rw, rl, _)| rw == w && rl == l && c + 2 >= cycle && c < cycle)
    }

    fn bits(v: u64) -> impl Iterator<Item = usize> {
        (0..64).filter(move |&w| (v >> w) & 1 == 1)
    }

    fn judge_outputs(&mut self, t: usize, o: &LockOut) -> Result<(), Violation> {
        let v = |rule, d: String| Err(Violation::new(t, rule, d));
        let nw = self.cfg.warps;
        let all = if nw == 64 { !0 } else { (1u64 << nw) - 1 };
        if (o.grant | o.deny | o.revoke | o.waiting) & !all != 0 {
            return v(
                "grant-legal",
                format!("strobe for a warp that does not exist: {o:?}"),
            );
        }
        let new = self.owners(o.lock_words);
        if let Some((l, w)) = new
            .iter()
            .enumerate()
            .find_map(|(l, x)| x.filter(|&w| w >= nw).map(|w| (l, w)))
        {
            return v(
                "word-change",
                format!("lock {l} names warp {w} (out of range)"),
            );
        }
        if self.after_reset {
            if o.lock_words != 0
                || o.waiting != 0
                || o.grant | o.deny | o.revoke != 0
                || o.error
                || o.error_code != 0
                || !o.acq_ready
            {
                return v("reset", format!("not idle after reset: {o:?}"));
            }
            return Ok(());
        }
        let old = self.owner.clone();
        let (grant, deny, revoke) = (o.grant, o.deny, o.revoke);
        let bit = |m: u64, w: usize| (m >> w) & 1 == 1;
        // free-grant window of last cycle's acquires: SPEC's order puts the arbiter before the
        // new acquire, so its decision in the acceptance cycle (answered now) may take the lock
        // (another warp's request for it granted, or denied and now waiting) or revoke the
        // requester (SPEC 5: never granted in the cycle it is revoked); nothing else excuses it
        for w in 0..nw {
            let Some(r) = self.req[w] else { continue };
            if r.free_by.is_none() || r.accepted + 1 != t {
                continue;
            }
            let decided = (0..nw).any(|x| {
                x != w && bit(grant | deny, x) && self.req[x].is_some_and(|q| q.lock == r.lock)
            });
            if decided || bit(revoke, w) {
                self.req[w] = Some(Request { free_by: None, ..r });
            } else {
                self.stats.free_windows += 1;
            }
        }
        if grant & (deny | revoke) != 0 {
            return v("grant-legal", "grant together with deny or revoke".into());
        }
        // ---- grants: which lock, and why it was legal
        let mut granted: Vec<Option<usize>> = vec![None; nw];
        for w in Self::bits(grant) {
            let Some(l) = self.req[w].map(|r| r.lock).or(self.wait[w]) else {
                return v(
                    "grant-legal",
                    format!("grant to warp {w}, which asked for nothing"),
                );
            };
            if new[l] != Some(w) {
                return v(
                    "grant-legal",
                    format!("warp {w} granted, but lock {l} reads {:?}", new[l]),
                );
            }
            granted[w] = Some(l);
            let waiters: Vec<usize> = (0..nw)
                .filter(|&x| x != w && self.wait[x] == Some(l) && !bit(revoke, x))
                .collect();
            if self.wait[w] == Some(l) {
                self.stats.hand_offs += 1;
                // hand-off: no other waiter strictly beats it (one that joined in the previous
                // cycle may be missed: the pick may be a cycle older than the wait)
                if let Some(&x) = waiters
                    .iter()
                    .find(|&&x| self.wait_since[x] + 1 < t && self.surely_at_least(x, w, t, true))
                {
                    return v(
                        "grant-legal",
                        format!("lock {l} handed to waiter {w} while waiter {x} has a smaller CPR"),
                    );
                }
                // ties go round robin: the first tied waiter after the lock's last hand-off
                // (judged when every waiter and its CPR are settled)
                let mut all = waiters.clone();
                all.push(w);
                let settled = all.iter().all(|&x| {
                    let (lo, hi) = self.cpr_range(x, t);
                    lo == hi && self.wait_since[x] + 1 < t
                });
                if settled && all.len() > 1 {
                    self.stats.round_robin_judged += 1;
                    let p = self.cpr_range(w, t).0;
                    let from = self.rr_last[l].map_or(0, |r| r + 1);
                    let first = (0..nw)
                        .map(|k| (from + k) % nw)
                        .find(|x| all.contains(x) && self.cpr_range(*x, t).0 == p);
                    if first != Some(w) {
                        return v(
                            "round-robin",
                            format!("lock {l} handed to {w} among tied waiters {all:?}; round robin after {:?} gives {first:?}", self.rr_last[l]),
                        );
                    }
                }
                self.rr_last[l] = Some(w);
            } else {
                match old[l] {
                    Some(h) if h == w => self.stats.re_grants += 1, // re-acquire: granted again
                    Some(h) if bit(revoke, h) && self.may_beat(w, h, t) => {
                        self.stats.preemptions += 1
                    }
                    Some(h)
                        if !(self.released_recently(h, l, t) || bit(revoke, h) || bit(deny, h)) =>
                    {
                        return v(
                            "grant-legal",
                            format!(
                            "lock {l} of warp {h} granted to {w} without a release or preemption"
                        ),
                        )
                    }
                    // free, or freed in this cycle and then taken as a free lock
                    _ => {
                        self.stats.free_grants += 1;
                        if let Some(&x) = waiters
                            .iter()
                            .find(|&&x| self.surely_at_least(x, w, t, false))
                        {
                            return v(
                                "grant-legal",
                                format!("free lock {l} to requester {w} past waiter {x}, which it does not beat"),
                            );
                        }
                    }
                }
            }
        }
        // ---- lock-word changes need a cause
        for l in 0..self.cfg.locks {
            if old[l] == new[l] {
                continue;
            }
            if let Some(b) = new[l] {
                if granted[b] != Some(l) {
                    return v(
                        "word-change",
                        format!("lock {l} went {:?} -> {b} without a grant", old[l]),
                    );
                }
            }
            if let Some(a) = old[l] {
                let freed = self.released_recently(a, l, t) || bit(revoke, a) || bit(deny, a);
                let preempted = new[l].is_some_and(|b| bit(revoke, a) && granted[b] == Some(l));
                if !freed && !preempted {
                    return v(
                        "word-change",
                        format!("lock {l} of warp {a} changed to {:?} with no release, revocation or deny of {a}", new[l]),
                    );
                }
            }
        }
        // ---- revocations
        for w in Self::bits(revoke) {
            let by_preemption = (0..self.cfg.locks).any(|l| {
                old[l] == Some(w)
                    && new[l]
                        .is_some_and(|r| r != w && granted[r] == Some(l) && self.may_beat(r, w, t))
            });
            let by_limit = self.marks[w].iter().any(|&(c, _)| c + 2 >= t && c < t);
            if !by_preemption {
                self.stats.hold_revocations += 1;
            }
            if !by_preemption && !by_limit {
                return v(
                    "revoke-legal",
                    format!("warp {w} revoked: no preemption by a stronger requester, no hold limit reached"),
                );
            }
            if new.contains(&Some(w)) {
                return v(
                    "revoke-legal",
                    format!("revoked warp {w} still owns a lock"),
                );
            }
            self.wait[w] = None;
            // SPEC order: revocation before the new acquire, so a request accepted in the cycle
            // the revocation was decided (t − 1) survives it and must be answered; an older one
            // is dropped (for the hold limit, this includes one accepted in the cycle of the
            // retire that reached the limit: the revocation comes one cycle after that retire,
            // see `revoke-legal` in the module doc)
            if let Some(r) = self.req[w] {
                if r.accepted + 1 < t {
                    self.req[w] = None;
                    self.dropped.push_back(r.accepted);
                }
            }
            self.marks[w].clear();
            // a revocation ends what SPEC 4 owes the warp, unless its request survives it
            if self.req[w].is_none() {
                self.owed[w] = None;
            }
        }
        // ---- denies
        for w in Self::bits(deny) {
            let Some(r) = self.req[w] else {
                return v(
                    "deny-legal",
                    format!("deny to warp {w}, which has no open request"),
                );
            };
            let l = r.lock;
            if old[l] == Some(w) && !self.released_recently(w, l, t) {
                return v(
                    "deny-legal",
                    format!("warp {w} denied lock {l}, which it owns"),
                );
            }
            let mut blockers: Vec<usize> = [old[l], new[l]].into_iter().flatten().collect();
            blockers.extend((0..nw).filter(|&x| self.wait[x] == Some(l)));
            blockers.retain(|&b| b != w);
            if !blockers
                .iter()
                .any(|&b| !self.surely_at_least(w, b, t, true))
            {
                return v(
                    "deny-legal",
                    format!("warp {w} denied lock {l}, but it strictly beats everyone holding or waiting for it ({blockers:?})"),
                );
            }
            if new.contains(&Some(w)) {
                return v("deny-legal", format!("denied warp {w} still owns a lock"));
            }
            self.req[w] = None;
            self.wait[w] = Some(l);
            self.wait_since[w] = t;
            self.stats.denies += 1;
        }
        // ---- grants close requests and waits
        for w in Self::bits(grant) {
            self.req[w] = None;
            self.wait[w] = None;
            if let Some(ow) = self.owed[w].filter(|ow| granted[w] == Some(ow.lock)) {
                self.stats.priority_bounds += self.owed_sure(w, &ow, t) as u64;
                self.owed[w] = None;
            }
        }
        let waiting = (0..nw)
            .filter(|&w| self.wait[w].is_some())
            .fold(0u64, |m, w| m | 1 << w);
        if o.waiting != waiting {
            return v(
                "waiting",
                format!("waiting = {:#b}, the waiter set is {waiting:#b}", o.waiting),
            );
        }
        // ---- last cycle's release, now that both ownership samples are known: by the owner
        // at both it must free the lock and may not err, by the owner at neither it must err
        if let Some(&(c, w, l, owned_then)) = self.releases.iter().find(|r| r.0 + 1 == t) {
            let owns_now = new[l] == Some(w);
            let cause = self
                .errs
                .iter()
                .position(|e| e.release && e.code == 1 && e.origin == c);
            match (owned_then, owns_now, cause) {
                (true, true, Some(k)) => {
                    self.errs.remove(k);
                    self.rel_due.push((t + 1, w, l));
                }
                (false, false, Some(k)) => {
                    self.errs[k].must = true;
                    self.stats.rel_not_owner += 1;
                }
                _ => {}
            }
        }
        // ---- errors: every strobe needs a cause of that code; causes are discharged by any
        if o.error != (o.error_code != 0) || o.error_code > 3 {
            return v(
                "error",
                format!("error {} with code {}", o.error, o.error_code),
            );
        }
        if o.error {
            // the strobe answers the cause of its code that expires first (the oldest of those);
            // causes of other requests due now
            // lost the cycle to it (one error per cycle, the release's first)
            let Some(k) = self
                .errs
                .iter()
                .enumerate()
                .filter(|(_, e)| e.code == o.error_code && e.from <= t && t <= e.to)
                .min_by_key(|(_, e)| (e.to, e.origin))
                .map(|(k, _)| k)
            else {
                return v(
                    "error",
                    format!("error code {} with no such cause pending", o.error_code),
                );
            };
            let winner = self.errs.remove(k);
            self.errs.retain(|e| e.to != t || e.rank <= winner.rank);
        }
        if let Some(e) = self.errs.iter().find(|e| e.must && e.to <= t) {
            return v(
                "error",
                format!("{} not reported (code {})", e.what, e.code),
            );
        }
        self.errs.retain(|e| e.to > t);
        // ---- deadlines
        for w in 0..nw {
            if let Some(r) = self.req[w] {
                if t >= r.accepted + self.cfg.fifo_depth + 3 {
                    return v(
                        "answer-bound",
                        format!("warp {w}'s acquire of lock {} accepted at cycle {} has no answer within fifo_depth + 3", r.lock, r.accepted),
                    );
                }
                if r.free_by.is_some_and(|by| t >= by) {
                    return v(
                        "free-grant",
                        format!("warp {w}'s acquire of free lock {} accepted at cycle {} not granted within 2 cycles", r.lock, r.accepted),
                    );
                }
            }
            if let Some(ow) = self.owed[w] {
                if t >= ow.accepted + self.cfg.fifo_depth + 3 {
                    self.owed[w] = None;
                    if self.owed_sure(w, &ow, t) {
                        return v(
                            "priority-bound",
                            format!("warp {w}'s acquire of lock {} accepted at cycle {} strictly beat the holder and every rival ({:#b}) but is not granted within fifo_depth + 3", ow.lock, ow.accepted, ow.rivals),
                        );
                    }
                }
            }
            while let Some(&(c, surely)) = self.marks[w].front() {
                if c + 2 > t {
                    break;
                }
                self.marks[w].pop_front();
                if surely && c + 2 == t {
                    return v(
                        "hold-limit",
                        format!("warp {w} reached hold_limit at cycle {c} and was not revoked within 2 cycles"),
                    );
                }
            }
        }
        for (l, owner) in new.iter().enumerate() {
            let waited = self.wait.contains(&Some(l));
            self.free_waited[l] = if owner.is_none() && waited {
                self.free_waited[l] + 1
            } else {
                0
            };
            if self.free_waited[l] > 2 {
                return v(
                    "hand-off",
                    format!("lock {l} free with waiters for 3 cycles"),
                );
            }
        }
        if let Some(&(by, w, l)) = self.rel_due.iter().find(|&&(by, _, _)| by == t) {
            if new[l] == Some(w) && granted[w] != Some(l) {
                return v(
                    "release",
                    format!(
                        "warp {w} released lock {l} at cycle {} and still owns it",
                        by - 2
                    ),
                );
            }
        }
        self.rel_due.retain(|&(by, _, _)| by > t);
        // FIFO occupancy as the contract bounds it: every open request (a request still open
        // after this cycle's answers is queued: a free lock taken at once is answered by now),
        // and every dropped one that may still sit in its slot as a dead entry
        let bound = self.cfg.fifo_depth + 3;
        while self.dropped.front().is_some_and(|&a| a + bound <= t) {
            self.dropped.pop_front();
        }
        let occupancy = self.req.iter().flatten().count() + self.dropped.len();
        if !o.acq_ready {
            self.stats.backpressure += 1;
            if occupancy < self.cfg.fifo_depth {
                return v(
                    "ready",
                    format!(
                        "acq_ready low with at most {occupancy} of {} FIFO entries taken",
                        self.cfg.fifo_depth
                    ),
                );
            }
        }
        self.owner = new;
        Ok(())
    }

    fn take_inputs(&mut self, t: usize, i: &LockIn, o: &LockOut) {
        let (nw, nl) = (self.cfg.warps, self.cfg.locks);
        // hold counts: a retire counts while the warp holds a lock (outputs of this cycle)
        let limit_vals = Self::range(&self.limit, t.saturating_sub(WRITE_WINDOW), t).2;
        let sat = (1u32 << self.cfg.hold_bits) - 1;
        for w in 0..nw {
            let holds = self.owner.contains(&Some(w));
            if !holds {
                self.hold[w] = 0;
                continue;
            }
            if (i.retire >> w) & 1 == 1 {
                self.hold[w] = (self.hold[w] + 1).min(sat);
                let reach = |lim: u32| lim != 0 && self.hold[w] >= lim;
                if limit_vals.iter().any(|&l| reach(l)) {
                    let surely = limit_vals.iter().all(|&l| reach(l));
                    self.marks[w].push_back((t, surely));
                }
            }
        }
        // releases (one of a bad warp to a lock in range is kept too: it is a release of
        // that lock in flight)
        self.releases.retain(|&(c, ..)| c + 3 > t);
        if i.rel_valid {
            let (w, l) = (i.rel_warp as usize, i.rel_lock as usize);
            if l < nl {
                let owns_now = self.owner[l] == Some(w);
                self.releases.push_back((t, w, l, owns_now));
            }
            let bad = w >= nw || l >= nl;
            self.stats.rel_bad_id += bad as u64;
            self.errs.push(ErrCause {
                origin: t,
                code: if bad { 3 } else { 1 },
                from: t + 1,
                to: t + 2,
                must: bad,
                release: true,
                rank: 0,
                what: if bad {
                    "BAD_ID of a release"
                } else {
                    "NOT_OWNER of a release"
                },
            });
        }
        // acquire
        if i.acq_valid && o.acq_ready {
            let (w, l) = (i.acq_warp as usize, i.acq_lock as usize);
            if w >= nw || l >= nl {
                self.stats.acq_bad_id += 1;
                self.errs.push(ErrCause {
                    origin: t,
                    code: 3,
                    from: t + 1,
                    to: t + 1,
                    must: true,
                    release: false,
                    rank: 1,
                    what: "BAD_ID of an acquire",
                });
            } else if self.wait[w].is_some() || self.req[w].is_some() {
                self.stats.acq_busy += 1;
                self.errs.push(ErrCause {
                    origin: t,
                    code: 2,
                    from: t + 1,
                    to: t + 1,
                    must: true,
                    release: false,
                    rank: 1,
                    what: "BUSY of an acquire",
                });
            } else {
                // the free-lock window: judged next cycle, when the answers of this cycle's
                // arbiter decision are seen (see `free-grant`)
                // SPEC 4 may owe another open request for the lock (see `free-grant`)
                let owed_to_other = (0..nw)
                    .any(|x| x != w && self.req[x].is_some_and(|r| r.lock == l && r.beat_holder));
                let free =
                    self.owner[l].is_none() && !self.wait.contains(&Some(l)) && !owed_to_other;
                // (a compare as of this cycle, or with this cycle's CPR write applied)
                let next = |x: usize| {
                    (i.cpr_we && i.cpr_warp as usize == x)
                        .then_some(i.cpr_prio & ((1 << self.cfg.prio_bits) - 1))
                };
                let beat_holder = self.owner[l].is_some_and(|h| {
                    let lo = self.cpr_range(w, t).0.min(next(w).unwrap_or(u32::MAX));
                    let hi = self.cpr_range(h, t).1.max(next(h).unwrap_or(0));
                    h != w && lo < hi
                });
                // SPEC 4: held by another warp; the rivals are judged at the deadline
                self.owed[w] = self.owner[l].filter(|&h| h != w).map(|h| Owed {
                    lock: l,
                    accepted: t,
                    rivals: (0..nw)
                        .filter(|&x| {
                            x != w
                                && (x == h
                                    || self.wait[x] == Some(l)
                                    || self.req[x].is_some_and(|r| r.lock == l))
                        })
                        .fold(0, |m, x| m | 1 << x),
                });
                self.req[w] = Some(Request {
                    lock: l,
                    accepted: t,
                    free_by: free.then_some(t + 2),
                    beat_holder,
                });
            }
        }
        // CPR and hold-limit writes take effect next cycle
        if i.cpr_we {
            let w = i.cpr_warp as usize;
            if w >= nw {
                self.stats.cpr_bad_id += 1;
                self.errs.push(ErrCause {
                    origin: t,
                    code: 3,
                    from: t + 1,
                    to: t + 1,
                    must: true,
                    release: false,
                    rank: 2,
                    what: "BAD_ID of a CPR write",
                });
            } else {
                let p = i.cpr_prio & ((1 << self.cfg.prio_bits) - 1);
                let keep = WRITE_WINDOW + self.cfg.fifo_depth + 6;
                let h = &mut self.cpr[w];
                h.push_back((t + 1, p));
                // kept long enough for `priority-bound`'s window (acceptance − WRITE_WINDOW on)
                while h.len() > 2 && h[1].0 + keep < t {
                    h.pop_front();
                }
            }
        }
        if i.cfg_we {
            let sat = (1u32 << self.cfg.hold_bits) - 1;
            self.limit.push_back((t + 1, i.cfg_hold_limit & sat));
            while self.limit.len() > 2 && self.limit[1].0 + WRITE_WINDOW + 2 < t {
                self.limit.pop_front();
            }
        }
    }
}

impl SpecChecker for LockSpecChecker {
    type In = LockIn;
    type Out = LockOut;

    fn check(&mut self, cycle: usize, i: &LockIn, o: &LockOut) -> Result<(), Violation> {
        self.judge_outputs(cycle, o)?;
        if self.after_reset {
            self.owner = vec![None; self.cfg.locks];
        }
        if i.reset {
            self.reset(cycle + 1);
            self.after_reset = true;
            return Ok(());
        }
        self.after_reset = false;
        self.take_inputs(cycle, i, o);
        Ok(())
    }

    fn finish(&mut self, cycles: usize) -> Result<(), Violation> {
        // obligations whose window closed at the trace's end
        if let Some(e) = self.errs.iter().find(|e| e.must && e.to < cycles) {
            return Err(Violation::new(
                cycles,
                "error",
                format!("{} not reported", e.what),
            ));
        }
        Ok(())
    }
}

/// The lock unit's board config with its spec checker.
impl crate::unit::CheckedUnit for crate::lock_unit::LockUnitBoard {
    fn spec_checker() -> Box<dyn SpecChecker<In = LockIn, Out = LockOut>> {
        Box::new(LockSpecChecker::new(LockConfig::board()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lock_unit::seeded_trace;
    use crate::spec::judge;
    use golden_model::CycleModel;

    const SHAPES: [LockConfig; 4] = [
        LockConfig::board(),
        LockConfig {
            warps: 3,
            locks: 1,
            prio_bits: 2,
            fifo_depth: 1,
            hold_bits: 16,
        },
        LockConfig {
            warps: 5,
            locks: 3,
            prio_bits: 2,
            fifo_depth: 3,
            hold_bits: 8,
        },
        LockConfig::full(),
    ];

    fn model_outputs(cfg: LockConfig, t: &[LockIn]) -> Vec<LockOut> {
        let mut m = golden_model::lock_unit::LockUnit::new(cfg);
        t.iter().map(|i| m.step(i)).collect()
    }

    /// The golden model's traces keep every rule (the model is the reference the RTL matches).
    #[test]
    fn model_traces_pass() {
        for cfg in SHAPES {
            for seed in 0..6 {
                let t = seeded_trace(cfg, seed, 20_000);
                let o = model_outputs(cfg, &t);
                let mut c = LockSpecChecker::new(cfg);
                if let Err(e) = judge(&mut c, &t, &o) {
                    let lo = e.cycle.saturating_sub(12);
                    for k in lo..=e.cycle.min(t.len() - 1) {
                        eprintln!("{k:>6} | {:?} | {:?}", t[k], o[k]);
                    }
                    panic!("{cfg:?} seed {seed}: {e}");
                }
            }
        }
    }
}
