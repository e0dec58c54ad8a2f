//! Time-shared finder (emb. 7, \[0184\]–\[0214\]): one E = 128-bit shift-AND finder serving three
//! resource bitmaps over a two-cycle schedule — the patent's own example (\[0212\]–\[0214\]).
//!
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `clock`, `reset` | in | 1 | clock; synchronous reset (schedule cycle 0, results 0) |
//! | `map0` | in | 128 | free map of resource 0 (128 blocks), 1 = free |
//! | `map1` | in | 64 | free map of resource 1 (64 blocks) |
//! | `map2` | in | 48 | free map of resource 2 (48 blocks) |
//! | `slot_cycle` | out | 1 | schedule cycle evaluated during this cycle (0: resource 0; 1: resources 1 ‖ 2) |
//! | `max_run0/1/2` | out | 8 / 7 / 6 | latest registered longest free run of each resource |
//!
//! Schedule (step g1, C = 2): in cycle 0 the shared word holds `map0`; in cycle 1 it holds `map1`
//! in bits 0..64 and `map2` in bits 64..112 (bits 112..128 read "used"), step g2. The shifted copies
//! `D_s = D_0 >> s` are ANDed with the boundary mask `m(s)` of the current cycle (\[0214\]: every bit
//! that would receive a bit from the other slot is forced to "used"), then AND-accumulated (g32–g33).
//! Each accumulated word is OR-reduced per half (`s_l`, `s_h` of \[0213\]); the highest shift with a 1
//! gives the run length + 1 (g34): in cycle 0 from `s_l | s_h`, in cycle 1 from `s_l` (resource 1)
//! and `s_h` (resource 2). Results are registered at the end of their cycle, so each resource is
//! refreshed every 2 cycles and a result is visible the cycle after it was computed.
//!
//! Cost: one 128-bit shift-AND triangle (far beyond the HX8K, like the exact 128-bit finder) serves
//! three bitmaps instead of three triangles of 128 + 64 + 48 bits; the masks add one AND per bit
//! and shift. Worked example: `map0` = a run of 100 at block 20, `map1` and `map2` all free →
//! after two cycles `max_run0 = 100`, `max_run1 = 64`, `max_run2 = 48` (not 112: the mask stops
//! the run at the slot boundary).

use rust_hdl::prelude::*;

/// Shared width E of the patent example.
pub const E: usize = 128;

fn word(f: impl Fn(usize) -> bool) -> Bits<128> {
    let mut b = Bits::<128>::default();
    for i in 0..128 {
        if f(i) {
            b = b.replace_bit(i, true);
        }
    }
    b
}

/// The patent's time-shared finder (128 | 64 ‖ 48). See the module doc.
#[derive(LogicBlock)]
pub struct TimeShared128 {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high: back to schedule cycle 0, results 0.
    pub reset: Signal<In, Bit>,
    /// Resource 0 free map (128 blocks).
    pub map0: Signal<In, Bits<128>>,
    /// Resource 1 free map (64 blocks).
    pub map1: Signal<In, Bits<64>>,
    /// Resource 2 free map (48 blocks).
    pub map2: Signal<In, Bits<48>>,
    /// Schedule cycle evaluated now.
    pub slot_cycle: Signal<Out, Bit>,
    /// Longest free run of resource 0 (registered, refreshed after schedule cycle 0).
    pub max_run0: Signal<Out, Bits<8>>,
    /// Longest free run of resource 1 (refreshed after schedule cycle 1).
    pub max_run1: Signal<Out, Bits<7>>,
    /// Longest free run of resource 2 (refreshed after schedule cycle 1).
    pub max_run2: Signal<Out, Bits<6>>,
    cycle_sel: DFF<Bit>,
    res0: DFF<Bits<8>>,
    res1: DFF<Bits<8>>,
    res2: DFF<Bits<8>>,
    /// The packed shared word D_0 (step g2).
    shared: Signal<Local, Bits<128>>,
    /// D_0 & D_1 & … & D_s with boundary masks (g33).
    acc: Vec<Signal<Local, Bits<128>>>,
    r_all: Signal<Local, Bits<8>>,
    r_lo: Signal<Local, Bits<8>>,
    r_hi: Signal<Local, Bits<8>>,
    /// Boundary masks m(s) of schedule cycle 1. Derived.
    mask1: Vec<Constant<Bits<128>>>,
    shamt: Vec<Constant<Bits<8>>>,
    len: Vec<Constant<Bits<8>>>,
    lo_half: Constant<Bits<128>>,
    hi_half: Constant<Bits<128>>,
    sh64: Constant<Bits<8>>,
}

impl Default for TimeShared128 {
    fn default() -> Self {
        // m(s) for cycle 1: slot 1 occupies bits 0..64, slot 2 bits 64..112.
        let mask =
            |s: usize| word(|i| (i < 64 && i + s < 64) || ((64..112).contains(&i) && i + s < 112));
        TimeShared128 {
            clock: Default::default(),
            reset: Default::default(),
            map0: Default::default(),
            map1: Default::default(),
            map2: Default::default(),
            slot_cycle: Default::default(),
            max_run0: Default::default(),
            max_run1: Default::default(),
            max_run2: Default::default(),
            cycle_sel: Default::default(),
            res0: Default::default(),
            res1: Default::default(),
            res2: Default::default(),
            shared: Default::default(),
            acc: (0..E).map(|_| Default::default()).collect(),
            r_all: Default::default(),
            r_lo: Default::default(),
            r_hi: Default::default(),
            mask1: (0..E).map(|s| Constant::new(mask(s))).collect(),
            shamt: (0..E as u64).map(|s| Constant::new(s.to_bits())).collect(),
            len: (1..E as u64 + 1)
                .map(|s| Constant::new(s.to_bits()))
                .collect(),
            lo_half: Constant::new(word(|i| i < 64)),
            hi_half: Constant::new(word(|i| i >= 64)),
            sh64: Constant::new(64u64.to_bits()),
        }
    }
}

impl Logic for TimeShared128 {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, cycle_sel, res0, res1, res2);
        // g2: place this cycle's bitmaps into the shared finder.
        self.shared.next = self.map0.val();
        if self.cycle_sel.q.val() {
            self.shared.next = bit_cast::<128, 64>(self.map1.val())
                | (bit_cast::<128, 48>(self.map2.val()) << self.sh64.val());
        }
        // g32–g33: shifted copies (vacated bits "used"), boundary masks in cycle 1, AND-accumulated.
        self.acc[0].next = self.shared.val();
        for s in 1..E {
            self.acc[s].next = self.acc[s - 1].val() & (self.shared.val() >> self.shamt[s].val());
            if self.cycle_sel.q.val() {
                self.acc[s].next = self.acc[s - 1].val()
                    & (self.shared.val() >> self.shamt[s].val())
                    & self.mask1[s].val();
            }
        }
        // g34: OR-reduce per half (s_l, s_h) and read out the highest shift with a 1, plus 1.
        self.r_all.next = 0.into();
        self.r_lo.next = 0.into();
        self.r_hi.next = 0.into();
        for s in 0..E {
            if self.acc[s].val().any() {
                self.r_all.next = self.len[s].val();
            }
            if (self.acc[s].val() & self.lo_half.val()).any() {
                self.r_lo.next = self.len[s].val();
            }
            if (self.acc[s].val() & self.hi_half.val()).any() {
                self.r_hi.next = self.len[s].val();
            }
        }
        // g4: register this cycle's results, move to the next schedule cycle.
        self.cycle_sel.d.next = !self.cycle_sel.q.val();
        if self.cycle_sel.q.val() {
            self.res1.d.next = self.r_lo.val();
            self.res2.d.next = self.r_hi.val();
        } else {
            self.res0.d.next = self.r_all.val();
        }
        if self.reset.val() {
            self.cycle_sel.d.next = false;
            self.res0.d.next = 0.into();
            self.res1.d.next = 0.into();
            self.res2.d.next = 0.into();
        }
        self.slot_cycle.next = self.cycle_sel.q.val();
        self.max_run0.next = self.res0.q.val();
        self.max_run1.next = self.res1.q.val().get_bits::<7>(0);
        self.max_run2.next = self.res2.q.val().get_bits::<6>(0);
    }
}
