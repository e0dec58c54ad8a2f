//! [`PowerHistory`]: the module policy `min_power_history` (SPEC Unit 3 step 5, seed 003 emb.
//! 10) of [`super::DispatcherFull`], a sub-block with its own contract: per module the weighted
//! retire history in tumbling windows and the pairwise order of the 16 modules by it.
//!
//! ## Ports
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `clock`, `reset` | in | 1 | one clock; synchronous reset |
//! | `retire_class` | in | 64 | bit 4m + c: module m retired an instruction of class c this cycle |
//! | `weights` | in | 16 | b_c at \[4c+3:4c\] (the `POWER_WEIGHTS` register) |
//! | `window` | in | 16 | nx, cycles per window (the `POWER_WINDOW` register; 0 acts as 1) |
//! | `better` | out | 256 | registered: bit 16i + j = module i is at least as good as module j (see below) |
//!
//! **Contract** (the golden model's "Power history", `golden_model::dispatcher`): per module
//! `cur_m` accumulates Σ_c b_c·retire\[m\]\[c\] each cycle (saturating at 0xFFFF, the weights
//! of that cycle); a counter counts cycles, and when it reaches nx (after this cycle's add) it
//! restarts, `prev_m := cur_m` and `cur_m := 0`. The history of module m in cycle t is
//! P_m(t) = prev_m + cur_m (17 bits) as held in t (after the edges of t − 1); reset clears both
//! and the counter (so `better` shows zero histories from two cycles after the reset cycle). `better` in cycle t is the order of the histories of cycle t − 2: bit
//! 16i + j is 1 iff P_i < P_j, or P_i = P_j and i ≤ j (smaller history wins, ties to the lower
//! index; the diagonal is 1). The module the policy picks among a fitting set F is the i ∈ F
//! with `better` bits 16i + j set for every j ∈ F (exactly one).
//!
//! **Structure.** The sums are registered (t + 1), then the order (t + 2): 120 comparators
//! `P_i ≤ P_j` for i < j, the bits below the diagonal their complements (the kernel writes both
//! forms under a constant condition; yosys keeps one comparator per pair). Cost: 16 × (two
//! 16-bit registers, a 6-bit weighted add, a saturating 17-bit add), 16 × 17-bit sum registers,
//! 120 × 17-bit comparators and 256 flip-flops (measured within `dispatcher_full`).

use super::{konst, locals};
use rust_hdl::prelude::*;

/// The weighted retire history of 16 modules × 4 classes and their order (see the module doc).
#[derive(LogicBlock)]
pub struct PowerHistory {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub retire_class: Signal<In, Bits<64>>,
    pub weights: Signal<In, Bits<16>>,
    pub window: Signal<In, Bits<16>>,
    pub better: Signal<Out, Bits<256>>,
    cur: Vec<DFF<Bits<16>>>,
    prev: Vec<DFF<Bits<16>>>,
    sum: Vec<DFF<Bits<17>>>,
    cnt: DFF<Bits<16>>,
    ord: DFF<Bits<256>>,
    add: Signal<Local, Bits<17>>,
    acc: Signal<Local, Bits<17>>,
    nxt: Signal<Local, Bits<17>>,
    wl: Signal<Local, Bits<17>>,
    wrap: Signal<Local, Bit>,
    w4: Signal<Local, Bits<4>>,
    c16a: Signal<Local, Bits<16>>,
    c16b: Signal<Local, Bits<16>>,
    o: Signal<Local, Bits<256>>,
    lower: Vec<Constant<Bits<16>>>,
    sat: Constant<Bits<17>>,
    one17: Constant<Bits<17>>,
}

impl Default for PowerHistory {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            retire_class: Default::default(),
            weights: Default::default(),
            window: Default::default(),
            better: Default::default(),
            cur: locals(16),
            prev: locals(16),
            sum: locals(16),
            cnt: Default::default(),
            ord: Default::default(),
            add: Default::default(),
            acc: Default::default(),
            nxt: Default::default(),
            wl: Default::default(),
            wrap: Default::default(),
            w4: Default::default(),
            c16a: Default::default(),
            c16b: Default::default(),
            o: Default::default(),
            lower: (0..16)
                .map(|i| konst(0xFFFFu64 & !((1u64 << i) - 1)))
                .collect(),
            sat: konst(0xFFFF),
            one17: konst(1),
        }
    }
}

// `!(b <= a)` below the diagonal, not `b > a`: the negation of the pair's own comparator, which
// yosys's opt_merge shares with bit 16j + i (a `$gt` cell would be a second comparator per pair)
#[allow(clippy::nonminimal_bool)]
impl Logic for PowerHistory {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, cnt, ord);
        for m in 0..16 {
            self.cur[m].clock.next = self.clock.val();
            self.prev[m].clock.next = self.clock.val();
            self.sum[m].clock.next = self.clock.val();
            self.prev[m].d.next = self.prev[m].q.val();
        }
        // the window counter (nx = 0 acts as 1), with this cycle's register values
        self.wl.next = bit_cast::<17, 16>(self.window.val());
        if !self.window.val().any() {
            self.wl.next = self.one17.val();
        }
        self.nxt.next = bit_cast::<17, 16>(self.cnt.q.val()) + 1;
        self.wrap.next = self.nxt.val() >= self.wl.val();
        self.cnt.d.next = self.nxt.val().get_bits::<16>(0);
        if self.wrap.val() {
            self.cnt.d.next = 0.into();
        }
        for m in 0..16 {
            // Σ_c b_c · retire[m][c], then the saturating accumulation
            self.add.next = 0.into();
            self.w4.next = 0.into();
            for c in 0..4 {
                if self.retire_class.val().get_bit(4 * m + c) {
                    self.w4.next = self.weights.val().get_bits::<4>(4 * c);
                    self.add.next = self.add.val() + bit_cast::<17, 4>(self.w4.val());
                }
            }
            self.c16a.next = self.cur[m].q.val();
            self.acc.next = bit_cast::<17, 16>(self.c16a.val()) + self.add.val();
            if self.acc.val() > self.sat.val() {
                self.acc.next = self.sat.val();
            }
            self.cur[m].d.next = self.acc.val().get_bits::<16>(0);
            if self.wrap.val() {
                self.prev[m].d.next = self.acc.val().get_bits::<16>(0);
                self.cur[m].d.next = 0.into();
            }
            self.c16b.next = self.prev[m].q.val();
            self.sum[m].d.next =
                bit_cast::<17, 16>(self.c16b.val()) + bit_cast::<17, 16>(self.c16a.val());
        }
        // the order of the registered sums: one comparator per pair, its complement below the
        // diagonal (the constant condition leaves one form per bit after optimisation)
        self.o.next = 0.into();
        for i in 0..16 {
            for j in 0..16 {
                if self.lower[i].val().get_bit(j) {
                    self.o.next = self
                        .o
                        .val()
                        .replace_bit(16 * i + j, self.sum[i].q.val() <= self.sum[j].q.val());
                } else {
                    self.o.next = self
                        .o
                        .val()
                        .replace_bit(16 * i + j, !(self.sum[j].q.val() <= self.sum[i].q.val()));
                }
            }
        }
        self.ord.d.next = self.o.val();
        if self.reset.val() {
            self.cnt.d.next = 0.into();
            for m in 0..16 {
                self.cur[m].d.next = 0.into();
                self.prev[m].d.next = 0.into();
            }
        }
        self.better.next = self.ord.q.val();
    }
}
