//! The lock unit's hold counters (patent \[0043\]): per warp, the instructions retired while it
//! holds a lock, and the run-time `hold_limit` in the derived forms the check reads. A warp's
//! counted retire that reaches the limit is reported in `limit_hit` in the cycle of the retire;
//! the parent marks it for revocation in the next cycle (`hold_revoke`).

use rust_hdl::prelude::*;

/// Hold counters of `W` warps, `HB`-bit counts and limit.
#[derive(LogicBlock)]
pub struct HoldCounters<const W: usize, const HB: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: counts 0, limit 64.
    pub reset: Signal<In, Bit>,
    /// Warps that hold a lock at the start of this cycle: their retires count; the count of any
    /// other warp is cleared.
    pub holders: Signal<In, Bits<W>>,
    /// Retire strobes, one per warp.
    pub retire: Signal<In, Bits<W>>,
    /// Write `hold_limit` (0 = unlimited); governs retires from 2 cycles on.
    pub cfg_we: Signal<In, Bit>,
    pub cfg_hold_limit: Signal<In, Bits<HB>>,
    /// Warps whose retire in this cycle, while holding, reaches the limit.
    pub limit_hit: Signal<Out, Bits<W>>,

    /// Retires counted while holding (saturating).
    hold_count: [DFF<Bits<HB>>; W],
    /// The run-time register `hold_limit` (reset 64) is kept only in the derived forms the
    /// check reads: `hold_limit − 1` (reset 63),
    hold_limit_m1: DFFWithInit<Bits<HB>>,
    /// `hold_limit ≠ 0` (reset 1),
    hold_limit_on: DFFWithInit<Bit>,
    /// `hold_limit − 2` (reset 62) and `hold_limit ≤ 1` (reset 0).
    hold_limit_m2: DFFWithInit<Bits<HB>>,
    hold_limit_le1: DFF<Bit>,
    /// `hold_limit ≠ 0 && hold_count ≥ hold_limit − 1` as of this cycle, computed in the
    /// previous one from its counters (the limit of the start of that cycle): the warp's next
    /// counted retire reaches the limit.
    at_limit: DFF<Bits<W>>,
    hold_one: Constant<Bits<HB>>,
    hold_two: Constant<Bits<HB>>,
    /// Each warp's count after this cycle.
    hold_next: [Signal<Local, Bits<HB>>; W],
    /// `hold_limit_m1` and `hold_limit_on` after this cycle's `cfg` write.
    hold_limit_m1_next: Signal<Local, Bits<HB>>,
    hold_limit_on_next: Signal<Local, Bit>,
    /// Next cycle's `at_limit`, from this cycle's counters and limit registers.
    at_limit_next: Signal<Local, Bits<W>>,
}

impl<const W: usize, const HB: usize> Default for HoldCounters<W, HB> {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            holders: Default::default(),
            retire: Default::default(),
            cfg_we: Default::default(),
            cfg_hold_limit: Default::default(),
            limit_hit: Default::default(),
            hold_count: std::array::from_fn(|_| Default::default()),
            hold_limit_m1: DFFWithInit::new(Bits::<HB>::from(63u64)),
            hold_limit_on: DFFWithInit::new(true),
            hold_limit_m2: DFFWithInit::new(Bits::<HB>::from(62u64)),
            hold_limit_le1: Default::default(),
            at_limit: Default::default(),
            hold_one: Constant::new(1u64.into()),
            hold_two: Constant::new(2u64.into()),
            hold_next: std::array::from_fn(|_| Default::default()),
            hold_limit_m1_next: Default::default(),
            hold_limit_on_next: Default::default(),
            at_limit_next: Default::default(),
        }
    }
}

impl<const W: usize, const HB: usize> Logic for HoldCounters<W, HB> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, hold_limit_le1, at_limit);
        dff_setup!(self, clock, hold_limit_m1);
        dff_setup!(self, clock, hold_limit_on);
        dff_setup!(self, clock, hold_limit_m2);
        for w in 0..W {
            self.hold_count[w].clock.next = self.clock.val();
            self.hold_count[w].d.next = self.hold_count[w].q.val();
        }
        // count while the cycle starts holding, else clear
        self.hold_limit_m1_next.next = self.hold_limit_m1.q.val();
        self.hold_limit_on_next.next = self.hold_limit_on.q.val();
        if self.cfg_we.val() {
            self.hold_limit_m1_next.next = self.cfg_hold_limit.val() - self.hold_one.val();
            self.hold_limit_on_next.next = self.cfg_hold_limit.val().any();
        }
        for w in 0..W {
            self.hold_next[w].next = 0.into();
            if self.holders.val().get_bit(w) {
                self.hold_next[w].next = self.hold_count[w].q.val();
                if self.retire.val().get_bit(w) & !self.hold_count[w].q.val().all() {
                    self.hold_next[w].next = self.hold_count[w].q.val() + 1;
                }
            }
            self.hold_count[w].d.next = self.hold_next[w].val();
        }
        // next cycle's at_limit: the next count is 0, the count, or the count + 1; compare the
        // registered count against limit − 1 and limit − 2 in parallel
        self.at_limit_next.next = 0.into();
        for w in 0..W {
            if self.hold_limit_on.q.val() {
                if !self.holders.val().get_bit(w) {
                    if self.hold_limit_le1.q.val() {
                        self.at_limit_next.next = self.at_limit_next.val().replace_bit(w, true);
                    }
                } else if self.retire.val().get_bit(w) {
                    if self.hold_limit_le1.q.val()
                        | (self.hold_count[w].q.val() >= self.hold_limit_m2.q.val())
                    {
                        self.at_limit_next.next = self.at_limit_next.val().replace_bit(w, true);
                    }
                } else if self.hold_count[w].q.val() >= self.hold_limit_m1.q.val() {
                    self.at_limit_next.next = self.at_limit_next.val().replace_bit(w, true);
                }
            }
        }
        self.at_limit.d.next = self.at_limit_next.val();
        self.hold_limit_m1.d.next = self.hold_limit_m1_next.val();
        self.hold_limit_on.d.next = self.hold_limit_on_next.val();
        if self.cfg_we.val() {
            self.hold_limit_m2.d.next = self.cfg_hold_limit.val() - self.hold_two.val();
            self.hold_limit_le1.d.next = self.cfg_hold_limit.val() <= self.hold_one.val();
        }
        if self.reset.val() {
            self.hold_limit_m1.d.next = 63.into();
            self.hold_limit_on.d.next = true;
            self.hold_limit_m2.d.next = 62.into();
            self.hold_limit_le1.d.next = false;
            self.at_limit.d.next = 0.into();
            for w in 0..W {
                self.hold_count[w].d.next = 0.into();
            }
        }
        self.limit_hit.next = self.at_limit.q.val() & self.retire.val() & self.holders.val();
    }
}
