//! Warp lock unit (SPEC Unit 1, seed 000): priority-aware mutexes between the warps of a block.
//!
//! The behaviour, cycle by cycle, is specified by `golden_model::lock_unit` (its module doc is the
//! normative order of events); this block implements it and is checked against it every cycle.
//!
//! ## Ports (board config; the exported module `top` has exactly these)
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `clock`, `reset` | in | 1 | one clock; synchronous active-high reset |
//! | `cpr_we`, `cpr_warp`, `cpr_prio` | in | 1, WB, PB | write warp's Competitive Priority Register (0 = highest) |
//! | `cfg_we`, `cfg_hold_limit` | in | 1, HB | write `hold_limit` (reset 64; 0 = no limit) |
//! | `acq_valid`, `acq_ready`, `acq_warp`, `acq_lock` | in/out | 1, 1, WB, LB | acquire stream; `acq_ready` = arbiter FIFO not full |
//! | `rel_valid`, `rel_warp`, `rel_lock` | in | 1, WB, LB | release by the owner |
//! | `retire` | in | W | warp w retired an instruction (hold counting, patent [0043]) |
//! | `grant`, `deny`, `revoke` | out | W | one-cycle strobes per warp: granted / told to wait / lost all locks |
//! | `waiting` | out | W | level: the warp waits for a hand-off |
//! | `lock_words` | out | L·(1+WB) | lock i at bits `(1+WB)·i ..`: MSB locked, low bits owner (0 when free) |
//! | `error`, `error_code` | out | 1, 3 | strobe; 1 `NOT_OWNER`, 2 `BUSY`, 3 `BAD_ID` |
//!
//! WB = clog2(W) (≥ 1), LB = clog2(L) (≥ 1), PB = priority bits, HB = hold-limit bits.
//! Every output except `acq_ready` is a register written by the same clock edge, so all outputs
//! describe the same cycle. `acq_ready` depends only on state (never on `acq_valid`).
//!
//! ## Latency
//! - acquire of a free lock: `grant` one cycle after the acquire is accepted;
//! - acquire of a held lock: queued; the arbiter takes one entry per cycle, so the decision
//!   (grant / deny+wait / revoke of the holder) strobes at most `fifo_depth + 1` cycles after the
//!   acquire was accepted (SPEC bound `fifo_depth + 3`);
//! - hand-off to a waiter: the cycle after the lock became free, strobing one cycle later (2).
//!
//! ## Worked example (patent [0044]–[0052])
//! CPR0 = 0, CPR1 = 1. Cycle 0: `acq(1, lock 0)` → cycle 1: `grant = 0b10`, `lock_words[3:0] =
//! 4'b1001`. Cycle 3: `acq(0, lock 0)`: queued. Cycle 4: the arbiter compares CPR0 < CPR1 →
//! cycle 5: `revoke = 0b10`, `grant = 0b01`, `lock_words[3:0] = 4'b1000`.
//!
//! ## Structure and cost
//! The arbiter FIFO is a shift queue (the head is always slot 0, so the arbiter reads it without a
//! read mux; entries of revoked warps are marked dead in place and dropped at the head). Each lock
//! has a best-waiter selector (min-CPR over W warps, then a round-robin pick among ties from the
//! lock's `rr_next` pointer) that reads only registered state. The next-state logic is one
//! combinational pass in SPEC order (release → hold-limit → arbiter → hand-off → acquire).

use rust_hdl::prelude::*;

/// Lock unit RTL. Const parameters (derived ones must match; checked by [`LockUnit::new`]):
/// `W` warps, `L` locks, `WB` = clog2(W) warp-ID bits, `WB1` = WB + 1 (lock word width),
/// `LB` = clog2(L) lock-ID bits, `PB` priority bits, `D` FIFO depth, `CB` = clog2(D + 1) FIFO count
/// bits, `HB` hold-limit bits, `LW` = L · WB1 (`lock_words` width).
#[derive(LogicBlock)]
pub struct LockUnit<
    const W: usize,
    const L: usize,
    const WB: usize,
    const WB1: usize,
    const LB: usize,
    const PB: usize,
    const D: usize,
    const CB: usize,
    const HB: usize,
    const LW: usize,
> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high: back to the idle state of SPEC Unit 1.
    pub reset: Signal<In, Bit>,
    /// Write `cpr_prio` into the CPR of `cpr_warp` (effective next cycle).
    pub cpr_we: Signal<In, Bit>,
    /// Warp whose CPR is written.
    pub cpr_warp: Signal<In, Bits<WB>>,
    /// New priority (0 = highest). CPRs reset to all ones (lowest).
    pub cpr_prio: Signal<In, Bits<PB>>,
    /// Write `cfg_hold_limit` (effective next cycle).
    pub cfg_we: Signal<In, Bit>,
    /// Retired instructions a warp may execute while holding locks; 0 = unlimited. Reset 64.
    pub cfg_hold_limit: Signal<In, Bits<HB>>,
    /// Acquire request valid.
    pub acq_valid: Signal<In, Bit>,
    /// Acquire accepted when valid (arbiter FIFO not full). Combinational from state only.
    pub acq_ready: Signal<Out, Bit>,
    /// Requesting warp.
    pub acq_warp: Signal<In, Bits<WB>>,
    /// Requested lock.
    pub acq_lock: Signal<In, Bits<LB>>,
    /// Release valid.
    pub rel_valid: Signal<In, Bit>,
    /// Releasing warp.
    pub rel_warp: Signal<In, Bits<WB>>,
    /// Released lock.
    pub rel_lock: Signal<In, Bits<LB>>,
    /// Retire strobes, one per warp.
    pub retire: Signal<In, Bits<W>>,
    /// Strobe: the warp was granted the lock it asked for.
    pub grant: Signal<Out, Bits<W>>,
    /// Strobe: the warp must wait (it lost the arbitration; its locks were released).
    pub deny: Signal<Out, Bits<W>>,
    /// Strobe: the warp lost all its locks (preempted or hold limit).
    pub revoke: Signal<Out, Bits<W>>,
    /// Level: the warp waits for a hand-off.
    pub waiting: Signal<Out, Bits<W>>,
    /// Lock words, lock i at bits `WB1*i..`: MSB locked, low bits owner; 0 when free.
    pub lock_words: Signal<Out, Bits<LW>>,
    /// Strobe: a request of the previous cycle was refused.
    pub error: Signal<Out, Bit>,
    /// Why: 1 NOT_OWNER, 2 BUSY, 3 BAD_ID (0 when `error` is low).
    pub error_code: Signal<Out, Bits<3>>,

    // ---- state ----
    /// Competitive Priority Register per warp (reset all ones).
    cpr: [DFFWithInit<Bits<PB>>; W],
    /// `hold_limit` run-time register (reset 64).
    hold_limit: DFFWithInit<Bits<HB>>,
    /// Lock word MSBs: lock l is held.
    locked: DFF<Bits<L>>,
    /// Lock word low bits: owner of lock l (meaningful while locked).
    owner: [DFF<Bits<WB>>; L],
    /// Warp waits for a hand-off of `wait_lock[w]`.
    waiting_q: DFF<Bits<W>>,
    /// The lock a waiting warp waits for.
    wait_lock: [DFF<Bits<LB>>; W],
    /// Retired instructions since the warp first held a lock (saturating).
    hold_count: [DFF<Bits<HB>>; W],
    /// Per lock, where the round-robin tie search among equal-priority waiters starts.
    rr_next: [DFF<Bits<WB>>; L],
    /// Arbiter FIFO (shift queue, head = slot 0): requester.
    fifo_req: [DFF<Bits<WB>>; D],
    /// Arbiter FIFO: holder when queued (the patent's ID pair; the arbiter re-reads the lock word).
    fifo_holder: [DFF<Bits<WB>>; D],
    /// Arbiter FIFO: lock.
    fifo_lock: [DFF<Bits<LB>>; D],
    /// Arbiter FIFO: slot holds a live entry (cleared when its requester is revoked).
    fifo_live: DFF<Bits<D>>,
    /// Arbiter FIFO occupancy (live and dead entries).
    fifo_count: DFF<Bits<CB>>,
    /// Output strobe registers.
    grant_q: DFF<Bits<W>>,
    deny_q: DFF<Bits<W>>,
    revoke_q: DFF<Bits<W>>,
    error_q: DFF<Bit>,
    error_code_q: DFF<Bits<3>>,

    // ---- constants (derived; const generics cannot appear in exported expressions) ----
    depth: Constant<Bits<CB>>,
    prio_lowest: Constant<Bits<PB>>,
    hold_one: Constant<Bits<HB>>,
    word_width: Constant<Bits<8>>,
    top_offset: Constant<Bits<8>>,
    locked_bit: Constant<Bits<WB1>>,
    /// `(w + 1) mod W`: the round-robin successor of warp w.
    rr_succ: [Constant<Bits<WB>>; W],

    // ---- combinational working variables (Local signals read back what was just written) ----
    rel_ids_ok: Signal<Local, Bit>,
    rel_hit: Signal<Local, Bits<L>>,
    lk: Signal<Local, Bits<L>>,
    own: [Signal<Local, Bits<WB>>; L],
    owns_after_rel: Signal<Local, Bits<W>>,
    limit_m1: Signal<Local, Bits<HB>>,
    hold_rev: Signal<Local, Bits<W>>,
    revoked: Signal<Local, Bits<W>>,
    denied: Signal<Local, Bits<W>>,
    grant_v: Signal<Local, Bits<W>>,
    deny_v: Signal<Local, Bits<W>>,
    wait_v: Signal<Local, Bits<W>>,
    has_waiter: Signal<Local, Bits<L>>,
    best_prio: [Signal<Local, Bits<PB>>; L],
    pick: [Signal<Local, Bits<WB>>; L],
    found: Signal<Local, Bit>,
    a_valid: Signal<Local, Bit>,
    a_req: Signal<Local, Bits<WB>>,
    a_lock: Signal<Local, Bits<LB>>,
    a_held: Signal<Local, Bit>,
    a_owner: Signal<Local, Bits<WB>>,
    a_has_waiter: Signal<Local, Bit>,
    a_best: Signal<Local, Bits<PB>>,
    a_cpr_req: Signal<Local, Bits<PB>>,
    a_cpr_owner: Signal<Local, Bits<PB>>,
    a_win: Signal<Local, Bit>,
    a_lose: Signal<Local, Bit>,
    a_preempt: Signal<Local, Bit>,
    a_won_free: Signal<Local, Bit>,
    queued: Signal<Local, Bits<W>>,
    q_accept: Signal<Local, Bit>,
    q_ids_ok: Signal<Local, Bit>,
    q_busy: Signal<Local, Bit>,
    q_revoked: Signal<Local, Bit>,
    q_held: Signal<Local, Bit>,
    q_owner: Signal<Local, Bits<WB>>,
    q_reserved: Signal<Local, Bit>,
    push: Signal<Local, Bit>,
    pop: Signal<Local, Bit>,
    push_pos: Signal<Local, Bits<CB>>,
    live: Signal<Local, Bits<D>>,
    cpr_ids_ok: Signal<Local, Bit>,
    word: Signal<Local, Bits<WB1>>,
    word_owner: Signal<Local, Bits<WB>>,
    words_acc: Signal<Local, Bits<LW>>,
}

impl<
        const W: usize,
        const L: usize,
        const WB: usize,
        const WB1: usize,
        const LB: usize,
        const PB: usize,
        const D: usize,
        const CB: usize,
        const HB: usize,
        const LW: usize,
    > LockUnit<W, L, WB, WB1, LB, PB, D, CB, HB, LW>
{
    /// Build the block; panics with a clear message if the const parameters are inconsistent.
    pub fn new() -> Self {
        let clog2 = |n: usize| {
            let mut b = 1;
            while (1usize << b) < n {
                b += 1;
            }
            b
        };
        assert!((1..=32).contains(&W), "lock_unit: W must be 1..=32");
        assert!((1..=16).contains(&L), "lock_unit: L must be 1..=16");
        assert_eq!(WB, clog2(W), "lock_unit: WB must be clog2(W) (at least 1)");
        assert_eq!(WB1, WB + 1, "lock_unit: WB1 must be WB + 1");
        assert_eq!(LB, clog2(L), "lock_unit: LB must be clog2(L) (at least 1)");
        assert!((1..=8).contains(&PB), "lock_unit: PB must be 1..=8");
        assert!((1..=16).contains(&D), "lock_unit: D (FIFO depth) must be 1..=16");
        assert_eq!(CB, clog2(D + 1), "lock_unit: CB must be clog2(D + 1)");
        assert!((7..=16).contains(&HB), "lock_unit: HB must be 7..=16 (reset hold limit is 64)");
        assert_eq!(LW, L * WB1, "lock_unit: LW must be L * (WB + 1)");
        Self {
            clock: Default::default(),
            reset: Default::default(),
            cpr_we: Default::default(),
            cpr_warp: Default::default(),
            cpr_prio: Default::default(),
            cfg_we: Default::default(),
            cfg_hold_limit: Default::default(),
            acq_valid: Default::default(),
            acq_ready: Default::default(),
            acq_warp: Default::default(),
            acq_lock: Default::default(),
            rel_valid: Default::default(),
            rel_warp: Default::default(),
            rel_lock: Default::default(),
            retire: Default::default(),
            grant: Default::default(),
            deny: Default::default(),
            revoke: Default::default(),
            waiting: Default::default(),
            lock_words: Default::default(),
            error: Default::default(),
            error_code: Default::default(),
            cpr: std::array::from_fn(|_| DFFWithInit::new(Bits::<PB>::mask())),
            hold_limit: DFFWithInit::new(Bits::<HB>::from(64u64)),
            locked: Default::default(),
            owner: std::array::from_fn(|_| Default::default()),
            waiting_q: Default::default(),
            wait_lock: std::array::from_fn(|_| Default::default()),
            hold_count: std::array::from_fn(|_| Default::default()),
            rr_next: std::array::from_fn(|_| Default::default()),
            fifo_req: std::array::from_fn(|_| Default::default()),
            fifo_holder: std::array::from_fn(|_| Default::default()),
            fifo_lock: std::array::from_fn(|_| Default::default()),
            fifo_live: Default::default(),
            fifo_count: Default::default(),
            grant_q: Default::default(),
            deny_q: Default::default(),
            revoke_q: Default::default(),
            error_q: Default::default(),
            error_code_q: Default::default(),
            depth: Constant::new((D as u64).into()),
            prio_lowest: Constant::new(Bits::<PB>::mask()),
            hold_one: Constant::new(1u64.into()),
            word_width: Constant::new((WB1 as u64).into()),
            top_offset: Constant::new(((LW - WB1) as u64).into()),
            locked_bit: Constant::new((1u64 << WB).into()),
            rr_succ: std::array::from_fn(|w| Constant::new((((w + 1) % W) as u64).into())),
            rel_ids_ok: Default::default(),
            rel_hit: Default::default(),
            lk: Default::default(),
            own: std::array::from_fn(|_| Default::default()),
            owns_after_rel: Default::default(),
            limit_m1: Default::default(),
            hold_rev: Default::default(),
            revoked: Default::default(),
            denied: Default::default(),
            grant_v: Default::default(),
            deny_v: Default::default(),
            wait_v: Default::default(),
            has_waiter: Default::default(),
            best_prio: std::array::from_fn(|_| Default::default()),
            pick: std::array::from_fn(|_| Default::default()),
            found: Default::default(),
            a_valid: Default::default(),
            a_req: Default::default(),
            a_lock: Default::default(),
            a_held: Default::default(),
            a_owner: Default::default(),
            a_has_waiter: Default::default(),
            a_best: Default::default(),
            a_cpr_req: Default::default(),
            a_cpr_owner: Default::default(),
            a_win: Default::default(),
            a_lose: Default::default(),
            a_preempt: Default::default(),
            a_won_free: Default::default(),
            queued: Default::default(),
            q_accept: Default::default(),
            q_ids_ok: Default::default(),
            q_busy: Default::default(),
            q_revoked: Default::default(),
            q_held: Default::default(),
            q_owner: Default::default(),
            q_reserved: Default::default(),
            push: Default::default(),
            pop: Default::default(),
            push_pos: Default::default(),
            live: Default::default(),
            cpr_ids_ok: Default::default(),
            word: Default::default(),
            word_owner: Default::default(),
            words_acc: Default::default(),
        }
    }
}

impl<
        const W: usize,
        const L: usize,
        const WB: usize,
        const WB1: usize,
        const LB: usize,
        const PB: usize,
        const D: usize,
        const CB: usize,
        const HB: usize,
        const LW: usize,
    > Default for LockUnit<W, L, WB, WB1, LB, PB, D, CB, HB, LW>
{
    fn default() -> Self {
        Self::new()
    }
}

impl<
        const W: usize,
        const L: usize,
        const WB: usize,
        const WB1: usize,
        const LB: usize,
        const PB: usize,
        const D: usize,
        const CB: usize,
        const HB: usize,
        const LW: usize,
    > Logic for LockUnit<W, L, WB, WB1, LB, PB, D, CB, HB, LW>
{
    #[hdl_gen]
    fn update(&mut self) {
        // ---- registers hold by default ----
        dff_setup!(
            self,
            clock,
            locked,
            waiting_q,
            fifo_live,
            fifo_count,
            grant_q,
            deny_q,
            revoke_q,
            error_q,
            error_code_q
        );
        self.hold_limit.clock.next = self.clock.val();
        self.hold_limit.d.next = self.hold_limit.q.val();
        for w in 0..W {
            self.cpr[w].clock.next = self.clock.val();
            self.cpr[w].d.next = self.cpr[w].q.val();
            self.wait_lock[w].clock.next = self.clock.val();
            self.wait_lock[w].d.next = self.wait_lock[w].q.val();
            self.hold_count[w].clock.next = self.clock.val();
            self.hold_count[w].d.next = self.hold_count[w].q.val();
        }
        for l in 0..L {
            self.owner[l].clock.next = self.clock.val();
            self.owner[l].d.next = self.owner[l].q.val();
            self.rr_next[l].clock.next = self.clock.val();
            self.rr_next[l].d.next = self.rr_next[l].q.val();
        }
        for k in 0..D {
            self.fifo_req[k].clock.next = self.clock.val();
            self.fifo_req[k].d.next = self.fifo_req[k].q.val();
            self.fifo_holder[k].clock.next = self.clock.val();
            self.fifo_holder[k].d.next = self.fifo_holder[k].q.val();
            self.fifo_lock[k].clock.next = self.clock.val();
            self.fifo_lock[k].d.next = self.fifo_lock[k].q.val();
        }

        // ---- working copies of the lock words ----
        self.lk.next = self.locked.q.val();
        for l in 0..L {
            self.own[l].next = self.owner[l].q.val();
        }
        self.grant_v.next = 0.into();
        self.deny_v.next = 0.into();
        self.denied.next = 0.into();
        self.wait_v.next = self.waiting_q.q.val();

        // ---- best waiter per lock, from registered state only ----
        // minimum CPR among the lock's waiters ...
        self.has_waiter.next = 0.into();
        for l in 0..L {
            self.best_prio[l].next = self.prio_lowest.val();
            for w in 0..W {
                if self.waiting_q.q.val().get_bit(w) & (self.wait_lock[w].q.val().index() == l) {
                    if !self.has_waiter.val().get_bit(l) | (self.cpr[w].q.val() < self.best_prio[l].val()) {
                        self.best_prio[l].next = self.cpr[w].q.val();
                    }
                    self.has_waiter.next = self.has_waiter.val().replace_bit(l, true);
                }
            }
        }
        // ... then the first tied waiter at or after rr_next[l], wrapping around.
        for l in 0..L {
            self.found.next = false;
            self.pick[l].next = 0.into();
            for w in 0..W {
                if self.waiting_q.q.val().get_bit(w)
                    & (self.wait_lock[w].q.val().index() == l)
                    & (self.cpr[w].q.val() == self.best_prio[l].val())
                    & (self.rr_next[l].q.val().index() <= w)
                    & !self.found.val()
                {
                    self.pick[l].next = w.to_bits();
                    self.found.next = true;
                }
            }
            for w in 0..W {
                if self.waiting_q.q.val().get_bit(w)
                    & (self.wait_lock[w].q.val().index() == l)
                    & (self.cpr[w].q.val() == self.best_prio[l].val())
                    & !self.found.val()
                {
                    self.pick[l].next = w.to_bits();
                    self.found.next = true;
                }
            }
        }

        // ---- 1. release by the owner ----
        self.rel_ids_ok.next = false;
        for w in 0..W {
            for l in 0..L {
                if (self.rel_warp.val().index() == w) & (self.rel_lock.val().index() == l) {
                    self.rel_ids_ok.next = true;
                }
            }
        }
        self.rel_hit.next = 0.into();
        for l in 0..L {
            if self.rel_valid.val()
                & self.rel_ids_ok.val()
                & (self.rel_lock.val().index() == l)
                & self.locked.q.val().get_bit(l)
                & (self.owner[l].q.val() == self.rel_warp.val())
            {
                self.rel_hit.next = self.rel_hit.val().replace_bit(l, true);
            }
        }
        self.lk.next = self.lk.val() & !self.rel_hit.val();
        self.owns_after_rel.next = 0.into();
        for l in 0..L {
            for w in 0..W {
                if self.lk.val().get_bit(l) & (self.own[l].val().index() == w) {
                    self.owns_after_rel.next = self.owns_after_rel.val().replace_bit(w, true);
                }
            }
        }

        // ---- 2. hold-limit revocation (patent [0043]) ----
        self.limit_m1.next = self.hold_limit.q.val() - self.hold_one.val();
        self.hold_rev.next = 0.into();
        for w in 0..W {
            if self.hold_limit.q.val().any()
                & self.retire.val().get_bit(w)
                & self.owns_after_rel.val().get_bit(w)
                & (self.hold_count[w].q.val() >= self.limit_m1.val())
            {
                self.hold_rev.next = self.hold_rev.val().replace_bit(w, true);
            }
        }
        for l in 0..L {
            for w in 0..W {
                if self.hold_rev.val().get_bit(w) & (self.own[l].val().index() == w) {
                    self.lk.next = self.lk.val().replace_bit(l, false);
                }
            }
        }
        self.revoked.next = self.hold_rev.val();

        // ---- 3. arbiter: FIFO head against the current holder (S103/S104) ----
        self.pop.next = self.fifo_count.q.val().any();
        self.a_req.next = self.fifo_req[0].q.val();
        self.a_lock.next = self.fifo_lock[0].q.val();
        self.a_valid.next = self.pop.val() & self.fifo_live.q.val().get_bit(0);
        for w in 0..W {
            if (self.a_req.val().index() == w) & self.hold_rev.val().get_bit(w) {
                self.a_valid.next = false;
            }
        }
        self.a_held.next = false;
        self.a_owner.next = 0.into();
        self.a_has_waiter.next = false;
        self.a_best.next = self.prio_lowest.val();
        for l in 0..L {
            if self.a_lock.val().index() == l {
                self.a_held.next = self.lk.val().get_bit(l);
                self.a_owner.next = self.own[l].val();
                self.a_has_waiter.next = self.has_waiter.val().get_bit(l);
                self.a_best.next = self.best_prio[l].val();
            }
        }
        self.a_cpr_req.next = self.prio_lowest.val();
        self.a_cpr_owner.next = self.prio_lowest.val();
        for w in 0..W {
            if self.a_req.val().index() == w {
                self.a_cpr_req.next = self.cpr[w].q.val();
            }
            if self.a_owner.val().index() == w {
                self.a_cpr_owner.next = self.cpr[w].q.val();
            }
        }
        self.a_win.next = false;
        self.a_lose.next = false;
        self.a_preempt.next = false;
        self.a_won_free.next = false;
        if self.a_valid.val() {
            if self.a_held.val() {
                if self.a_owner.val() == self.a_req.val() {
                    self.a_win.next = true;
                } else if self.a_cpr_req.val() < self.a_cpr_owner.val() {
                    self.a_win.next = true;
                    self.a_preempt.next = true;
                } else {
                    self.a_lose.next = true;
                }
            } else if self.a_has_waiter.val() {
                if self.a_cpr_req.val() < self.a_best.val() {
                    self.a_win.next = true;
                    self.a_won_free.next = true;
                } else {
                    self.a_lose.next = true;
                }
            } else {
                self.a_win.next = true;
            }
        }
        // preempted holder: revoke it and clear all its lock words
        for w in 0..W {
            if self.a_preempt.val() & (self.a_owner.val().index() == w) {
                self.revoked.next = self.revoked.val().replace_bit(w, true);
            }
        }
        for l in 0..L {
            if self.a_preempt.val() & self.lk.val().get_bit(l) & (self.own[l].val() == self.a_owner.val()) {
                self.lk.next = self.lk.val().replace_bit(l, false);
            }
            // [0034] a requester that must wait releases everything it holds
            if self.a_lose.val() & self.lk.val().get_bit(l) & (self.own[l].val() == self.a_req.val()) {
                self.lk.next = self.lk.val().replace_bit(l, false);
            }
            if self.a_win.val() & (self.a_lock.val().index() == l) {
                self.lk.next = self.lk.val().replace_bit(l, true);
                self.own[l].next = self.a_req.val();
            }
        }
        for w in 0..W {
            if self.a_req.val().index() == w {
                if self.a_win.val() {
                    self.grant_v.next = self.grant_v.val().replace_bit(w, true);
                }
                if self.a_lose.val() {
                    self.deny_v.next = self.deny_v.val().replace_bit(w, true);
                    self.denied.next = self.denied.val().replace_bit(w, true);
                    self.wait_v.next = self.wait_v.val().replace_bit(w, true);
                    self.wait_lock[w].d.next = self.a_lock.val();
                }
            }
        }

        // ---- 4. hand-off of locks free at the start of the cycle ----
        for l in 0..L {
            if !self.locked.q.val().get_bit(l)
                & self.has_waiter.val().get_bit(l)
                & !(self.a_won_free.val() & (self.a_lock.val().index() == l))
            {
                self.lk.next = self.lk.val().replace_bit(l, true);
                self.own[l].next = self.pick[l].val();
                for w in 0..W {
                    if self.pick[l].val().index() == w {
                        self.wait_v.next = self.wait_v.val().replace_bit(w, false);
                        self.grant_v.next = self.grant_v.val().replace_bit(w, true);
                        self.rr_next[l].d.next = self.rr_succ[w].val();
                    }
                }
            }
        }

        // ---- 5. new acquire ----
        self.acq_ready.next = self.fifo_count.q.val() < self.depth.val();
        self.q_accept.next = self.acq_valid.val() & (self.fifo_count.q.val() < self.depth.val());
        self.queued.next = 0.into();
        for k in 0..D {
            for w in 0..W {
                if self.fifo_live.q.val().get_bit(k) & (self.fifo_req[k].q.val().index() == w) {
                    self.queued.next = self.queued.val().replace_bit(w, true);
                }
            }
        }
        self.q_ids_ok.next = false;
        self.q_busy.next = false;
        self.q_revoked.next = false;
        for w in 0..W {
            if self.acq_warp.val().index() == w {
                self.q_busy.next = self.waiting_q.q.val().get_bit(w) | self.queued.val().get_bit(w);
                self.q_revoked.next = self.revoked.val().get_bit(w);
                for l in 0..L {
                    if self.acq_lock.val().index() == l {
                        self.q_ids_ok.next = true;
                    }
                }
            }
        }
        self.q_held.next = false;
        self.q_owner.next = 0.into();
        self.q_reserved.next = false;
        for l in 0..L {
            if self.acq_lock.val().index() == l {
                self.q_held.next = self.lk.val().get_bit(l);
                self.q_owner.next = self.own[l].val();
                self.q_reserved.next = self.has_waiter.val().get_bit(l);
            }
        }
        self.push.next = false;
        if self.q_accept.val() & self.q_ids_ok.val() & !self.q_busy.val() {
            if !self.q_revoked.val() & self.q_held.val() & (self.q_owner.val() == self.acq_warp.val()) {
                // re-acquire of an owned lock: granted again, no state change
                for w in 0..W {
                    if self.acq_warp.val().index() == w {
                        self.grant_v.next = self.grant_v.val().replace_bit(w, true);
                    }
                }
            } else if !self.q_revoked.val() & !self.q_held.val() & !self.q_reserved.val() {
                for l in 0..L {
                    if self.acq_lock.val().index() == l {
                        self.lk.next = self.lk.val().replace_bit(l, true);
                        self.own[l].next = self.acq_warp.val();
                    }
                }
                for w in 0..W {
                    if self.acq_warp.val().index() == w {
                        self.grant_v.next = self.grant_v.val().replace_bit(w, true);
                    }
                }
            } else {
                self.push.next = true;
            }
        }

        // ---- arbiter FIFO: kill entries of revoked warps, pop the head, push ----
        self.live.next = self.fifo_live.q.val();
        for k in 0..D {
            for w in 0..W {
                if self.revoked.val().get_bit(w) & (self.fifo_req[k].q.val().index() == w) {
                    self.live.next = self.live.val().replace_bit(k, false);
                }
            }
        }
        self.push_pos.next = self.fifo_count.q.val();
        if self.pop.val() {
            self.live.next = self.live.val() >> 1;
            self.push_pos.next = self.fifo_count.q.val() - 1;
            for k in 0..(D - 1) {
                self.fifo_req[k].d.next = self.fifo_req[k + 1].q.val();
                self.fifo_holder[k].d.next = self.fifo_holder[k + 1].q.val();
                self.fifo_lock[k].d.next = self.fifo_lock[k + 1].q.val();
            }
        }
        if self.push.val() {
            for k in 0..D {
                if self.push_pos.val().index() == k {
                    self.fifo_req[k].d.next = self.acq_warp.val();
                    self.fifo_holder[k].d.next = self.q_owner.val();
                    self.fifo_lock[k].d.next = self.acq_lock.val();
                    self.live.next = self.live.val().replace_bit(k, true);
                }
            }
        }
        self.fifo_live.d.next = self.live.val();
        if self.push.val() & !self.pop.val() {
            self.fifo_count.d.next = self.fifo_count.q.val() + 1;
        }
        if !self.push.val() & self.pop.val() {
            self.fifo_count.d.next = self.fifo_count.q.val() - 1;
        }

        // ---- hold counters: count while holding, clear otherwise ----
        for w in 0..W {
            if self.owns_after_rel.val().get_bit(w) & !self.revoked.val().get_bit(w) & !self.denied.val().get_bit(w) {
                if self.retire.val().get_bit(w) & !self.hold_count[w].q.val().all() {
                    self.hold_count[w].d.next = self.hold_count[w].q.val() + 1;
                }
            } else {
                self.hold_count[w].d.next = 0.into();
            }
        }

        // ---- host writes (effective next cycle) ----
        self.cpr_ids_ok.next = false;
        for w in 0..W {
            if self.cpr_warp.val().index() == w {
                self.cpr_ids_ok.next = true;
                if self.cpr_we.val() {
                    self.cpr[w].d.next = self.cpr_prio.val();
                }
            }
        }
        if self.cfg_we.val() {
            self.hold_limit.d.next = self.cfg_hold_limit.val();
        }

        // ---- errors: release's beats acquire's beats the CPR port's ----
        self.error_q.d.next = false;
        self.error_code_q.d.next = 0.into();
        if self.cpr_we.val() & !self.cpr_ids_ok.val() {
            self.error_q.d.next = true;
            self.error_code_q.d.next = 3.into();
        }
        if self.q_accept.val() & !self.q_ids_ok.val() {
            self.error_q.d.next = true;
            self.error_code_q.d.next = 3.into();
        } else if self.q_accept.val() & self.q_busy.val() {
            self.error_q.d.next = true;
            self.error_code_q.d.next = 2.into();
        }
        if self.rel_valid.val() & !self.rel_ids_ok.val() {
            self.error_q.d.next = true;
            self.error_code_q.d.next = 3.into();
        } else if self.rel_valid.val() & !self.rel_hit.val().any() {
            self.error_q.d.next = true;
            self.error_code_q.d.next = 1.into();
        }

        // ---- state and strobe registers ----
        self.locked.d.next = self.lk.val();
        for l in 0..L {
            self.owner[l].d.next = self.own[l].val();
        }
        self.waiting_q.d.next = self.wait_v.val();
        self.grant_q.d.next = self.grant_v.val();
        self.deny_q.d.next = self.deny_v.val();
        self.revoke_q.d.next = self.revoked.val();

        // ---- synchronous reset (values equal the DFF init values) ----
        if self.reset.val() {
            self.locked.d.next = 0.into();
            self.waiting_q.d.next = 0.into();
            self.fifo_live.d.next = 0.into();
            self.fifo_count.d.next = 0.into();
            self.grant_q.d.next = 0.into();
            self.deny_q.d.next = 0.into();
            self.revoke_q.d.next = 0.into();
            self.error_q.d.next = false;
            self.error_code_q.d.next = 0.into();
            self.hold_limit.d.next = 64.into();
            for w in 0..W {
                self.cpr[w].d.next = self.prio_lowest.val();
                self.wait_lock[w].d.next = 0.into();
                self.hold_count[w].d.next = 0.into();
            }
            for l in 0..L {
                self.owner[l].d.next = 0.into();
                self.rr_next[l].d.next = 0.into();
            }
            for k in 0..D {
                self.fifo_req[k].d.next = 0.into();
                self.fifo_holder[k].d.next = 0.into();
                self.fifo_lock[k].d.next = 0.into();
            }
        }

        // ---- outputs ----
        self.grant.next = self.grant_q.q.val();
        self.deny.next = self.deny_q.q.val();
        self.revoke.next = self.revoke_q.q.val();
        self.error.next = self.error_q.q.val();
        self.error_code.next = self.error_code_q.q.val();
        self.waiting.next = self.waiting_q.q.val();
        // pack lock words: shift right by one word per lock so that lock 0 ends at the bottom
        self.words_acc.next = 0.into();
        for l in 0..L {
            self.word.next = 0.into();
            self.word_owner.next = self.owner[l].q.val();
            if self.locked.q.val().get_bit(l) {
                self.word.next = self.locked_bit.val() | bit_cast::<WB1, WB>(self.word_owner.val());
            }
            self.words_acc.next = (self.words_acc.val() >> self.word_width.val())
                | (bit_cast::<LW, WB1>(self.word.val()) << self.top_offset.val());
        }
        self.lock_words.next = self.words_acc.val();
    }
}

/// The board configuration (W = 8, L = 4, 3-bit priorities, FIFO 4, 16-bit hold limit):
/// exported as `lock_unit.v`.
pub type BoardLockUnit = LockUnit<8, 4, 3, 4, 2, 3, 4, 3, 16, 16>;
/// The full configuration (W = 32, L = 16, 4-bit priorities, FIFO 8).
pub type FullLockUnit = LockUnit<32, 16, 5, 6, 4, 4, 8, 4, 16, 96>;
/// An odd shape for the sweep: W = 3, L = 1, FIFO depth 1 (IDs 3 and lock 1 are BAD_ID).
pub type OddLockUnit = LockUnit<3, 1, 2, 3, 1, 2, 1, 1, 16, 3>;
/// A small non-power-of-two shape: W = 5, L = 3, FIFO 3.
pub type SmallLockUnit = LockUnit<5, 3, 3, 4, 2, 2, 3, 2, 8, 12>;

/// Verilog of a lock unit as module `top` (RustHDL's generator names the top module `top`).
pub fn verilog<U: Block>(mut uut: U) -> String {
    uut.connect_all();
    generate_verilog(&uut)
}
