//! Timing floor of the dispatcher's allocation recurrence (`synth alloc-floor`).
//!
//! Dispatching back to back to the same execution module needs, within one clock cycle,
//! *used maps → fit test (an exact first-fit contiguous region exists) → first-fit region →
//! maps updated*. The board dispatcher (`hdl::dispatcher`) spreads that over three pipeline
//! stages and pays for it with module exclusion (2 dispatches per 3 cycles). The micro-designs
//! here are exactly that loop and nothing else, built with the dispatcher's matching technique
//! (need thermometers, `ok` vectors with constant per-iteration shifts `sh_a` / `sh_b`, the
//! one-bit overflow test `ov16` / `ov8`, the commit stage's lowest-ok-start first fit), so their
//! Fmax on the HX8K is the floor any one-dispatch-per-cycle-per-module design of this kind hits.
//!
//! | design | loop | dispatches per cycle per module |
//! |---|---|---|
//! | [`Map1`] | one 16-block map: ok vector → any → first fit → map | 1 |
//! | [`Module1`] | one module of the board config: 2 units × (16-block VGPR, 8-block SGPR, 3-bit wave count of 4 slots), 16-block LDS; grant = every test passes | 1 |
//! | [`Module1TwoHeads`] | [`Module1`] with two candidate heads and a fixed-priority pick (head 0 if it fits, else head 1); the first fit of each head is computed in parallel and the pick selects the region | 1 |
//! | [`Module1Split`] | [`Module1`] with a register cut: ok vectors (and the wave-slot test) registered from the maps, any / first fit / update from the registered vectors next cycle; no grant in the cycle after a grant (the vectors are stale) | 1/2 |
//! | [`Module1TwoHeadsSplit`] | [`Module1TwoHeads`] cut as [`Module1Split`]: both heads' ok vectors registered; any → fit → pick → first fit of both heads → select → update next cycle | 1/2 |
//! | [`Module1TwoHeadsSplitB`] | cut later: per head and map the prefix mask of the ok vector registered (its top bit is the any bit); fit → pick → region `pm ∧ ¬pm[k − n]` of both heads → select → update next cycle | 1/2 |
//! | [`Module1TwoHeadsSplitC`] | [`Module1TwoHeadsSplitB`] with the update moved across the cut: the picked regions registered (`pend`), read as `used \| pend` by the next cycle's ok vectors | 1/2 |
//!
//! ## Measured (2026-11-22, `synth alloc-floor --seeds 1,2,3`; table in `docs/alloc_floor.md`)
//! Median Fmax of seeds 1–3, each design alone on the chip (LCs with the harness):
//! `map1` 87.3 MHz (319 LCs), `module1` 79.7 (1169), `module1_2heads` 68.4 (2272),
//! `module1_split` 103.4 (1124), `module1_2heads_split` 88.9 (2101), `module1_2heads_split_b`
//! 89.3 (2082), `module1_2heads_split_c` 87.0 (2300). Routing is 60–75 % of every critical path.
//! So no one-cycle loop reaches 100 MHz even for one module alone, and the best two-cycle loop
//! that chooses between two heads misses it by about 11 % alone on a 27 %-full chip; the
//! dispatcher's loop also holds the second module, the time-window ranks, tie marks and module
//! policy, and shares an 80 %-full chip. The designs are wired from shared sub-blocks since this
//! run; the same logic written flat (the previous run) mapped to 8–77 LUT4s fewer or more per
//! design and 2.5–9 MHz other medians (e.g. `module1_split` 112.7, `module1_2heads_split_b`
//! 95.8): differences of that size are the flow's, not the designs'. (Side experiment, not in the
//! flow: yosys `-abc9` put the flat `module1_2heads_split_c` at 96.2 / 103.7 / 102.4 MHz.)
//!
//! Every design has a clock and a synchronous active-high reset; requests, need thermometers
//! (bit k = need > k) and release masks / counts are ports, grant and bases are registered
//! outputs. The measurement wraps each in the flow's harness (every port registered, so only
//! register-to-register paths count; the harness drives the thermometers from flip-flops, as the
//! dispatcher's head registers do) and places it alone on the HX8K at a 100 MHz target.

use anyhow::{anyhow, Result};
use rust_hdl::prelude::*;
use std::fmt::Write as _;
use std::path::Path;

// ---------------------------------------------------------------------------------------------
// building blocks: every design below is wired from these (yosys flattens the hierarchy)
// ---------------------------------------------------------------------------------------------

/// `ok` vector of a 16-block map: `ok[i]` = the need (thermometer) placed at start i overlaps
/// no used block and ends inside the map (the one-bit overflow test `ov16`).
#[derive(LogicBlock, Default)]
pub struct OkVec16 {
    pub used: Signal<In, Bits<16>>,
    pub need: Signal<In, Bits<16>>,
    pub ok: Signal<Out, Bits<16>>,
    sh_a: Signal<Local, Bits<5>>,
    sh_b: Signal<Local, Bits<5>>,
    ov16: Signal<Local, Bits<16>>,
    okb: Signal<Local, Bit>,
    acc: Signal<Local, Bits<16>>,
}

impl Logic for OkVec16 {
    #[hdl_gen]
    fn update(&mut self) {
        self.sh_a.next = 0.into();
        self.sh_b.next = 0.into();
        self.ov16.next = 0.into();
        self.okb.next = false;
        self.acc.next = 0.into();
        for i in 0..16 {
            self.sh_a.next = i.to_bits();
            self.sh_b.next = (16 - i).to_bits();
            self.ov16.next = bits::<16>(1) << self.sh_b.val();
            self.okb.next = !((self.need.val() << self.sh_a.val()) & self.used.val()).any()
                & !(self.need.val() & self.ov16.val()).any();
            self.acc.next = self.acc.val().replace_bit(i, self.okb.val());
        }
        self.ok.next = self.acc.val();
    }
}

/// [`OkVec16`] for an 8-block map (overflow test `ov8`).
#[derive(LogicBlock, Default)]
pub struct OkVec8 {
    pub used: Signal<In, Bits<8>>,
    pub need: Signal<In, Bits<8>>,
    pub ok: Signal<Out, Bits<8>>,
    sh_a: Signal<Local, Bits<5>>,
    sh_b: Signal<Local, Bits<5>>,
    ov8: Signal<Local, Bits<8>>,
    okb: Signal<Local, Bit>,
    acc: Signal<Local, Bits<8>>,
}

impl Logic for OkVec8 {
    #[hdl_gen]
    fn update(&mut self) {
        self.sh_a.next = 0.into();
        self.sh_b.next = 0.into();
        self.ov8.next = 0.into();
        self.okb.next = false;
        self.acc.next = 0.into();
        for i in 0..8 {
            self.sh_a.next = i.to_bits();
            self.sh_b.next = (8 - i).to_bits();
            self.ov8.next = bits::<8>(1) << self.sh_b.val();
            self.okb.next = !((self.need.val() << self.sh_a.val()) & self.used.val()).any()
                & !(self.need.val() & self.ov8.val()).any();
            self.acc.next = self.acc.val().replace_bit(i, self.okb.val());
        }
        self.ok.next = self.acc.val();
    }
}

/// First fit of a 16-block map (the commit stage's): the lowest ok start `base` and the region
/// `mask` = the thermometer shifted there (a priority chain over the ok vector).
#[derive(LogicBlock, Default)]
pub struct FirstFit16 {
    pub ok: Signal<In, Bits<16>>,
    pub need: Signal<In, Bits<16>>,
    pub mask: Signal<Out, Bits<16>>,
    pub base: Signal<Out, Bits<4>>,
    sh_a: Signal<Local, Bits<5>>,
    fnd: Signal<Local, Bit>,
}

impl Logic for FirstFit16 {
    #[hdl_gen]
    fn update(&mut self) {
        self.sh_a.next = 0.into();
        self.fnd.next = false;
        self.base.next = 0.into();
        self.mask.next = 0.into();
        for i in 0..16 {
            self.sh_a.next = i.to_bits();
            if self.ok.val().get_bit(i) & !self.fnd.val() {
                self.base.next = i.to_bits();
                self.mask.next = self.need.val() << self.sh_a.val();
                self.fnd.next = true;
            }
        }
    }
}

/// [`FirstFit16`] for an 8-block map.
#[derive(LogicBlock, Default)]
pub struct FirstFit8 {
    pub ok: Signal<In, Bits<8>>,
    pub need: Signal<In, Bits<8>>,
    pub mask: Signal<Out, Bits<8>>,
    pub base: Signal<Out, Bits<3>>,
    sh_a: Signal<Local, Bits<5>>,
    fnd: Signal<Local, Bit>,
}

impl Logic for FirstFit8 {
    #[hdl_gen]
    fn update(&mut self) {
        self.sh_a.next = 0.into();
        self.fnd.next = false;
        self.base.next = 0.into();
        self.mask.next = 0.into();
        for i in 0..8 {
            self.sh_a.next = i.to_bits();
            if self.ok.val().get_bit(i) & !self.fnd.val() {
                self.base.next = i.to_bits();
                self.mask.next = self.need.val() << self.sh_a.val();
                self.fnd.next = true;
            }
        }
    }
}

/// Prefix mask of a 16-bit ok vector: `pm[i]` = some start ≤ i fits (its top bit is the any bit).
#[derive(LogicBlock, Default)]
pub struct Prefix16 {
    pub ok: Signal<In, Bits<16>>,
    pub pm: Signal<Out, Bits<16>>,
    sh_b: Signal<Local, Bits<5>>,
    acc: Signal<Local, Bits<16>>,
}

impl Logic for Prefix16 {
    #[hdl_gen]
    fn update(&mut self) {
        self.sh_b.next = 0.into();
        self.acc.next = 0.into();
        for i in 0..16 {
            self.sh_b.next = (i + 1).to_bits();
            self.acc.next = self.acc.val().replace_bit(
                i,
                (self.ok.val() & !(bits::<16>(0xffff) << self.sh_b.val())).any(),
            );
        }
        self.pm.next = self.acc.val();
    }
}

/// [`Prefix16`] for an 8-bit ok vector.
#[derive(LogicBlock, Default)]
pub struct Prefix8 {
    pub ok: Signal<In, Bits<8>>,
    pub pm: Signal<Out, Bits<8>>,
    sh_b: Signal<Local, Bits<5>>,
    acc: Signal<Local, Bits<8>>,
}

impl Logic for Prefix8 {
    #[hdl_gen]
    fn update(&mut self) {
        self.sh_b.next = 0.into();
        self.acc.next = 0.into();
        for i in 0..8 {
            self.sh_b.next = (i + 1).to_bits();
            self.acc.next = self.acc.val().replace_bit(
                i,
                (self.ok.val() & !(bits::<8>(0xff) << self.sh_b.val())).any(),
            );
        }
        self.pm.next = self.acc.val();
    }
}

/// First-fit region of a 16-block map from its prefix mask: [b, b + n) with b the lowest ok
/// start, i.e. `pm[k] ∧ ¬pm[k − n]`, `pm[k − n]` = OR over d ≥ n of `pm[k − d]` (an AND-OR, no
/// mux chain: ABC maps every path up to the deepest one); `base` = the position of pm's lowest
/// one.
#[derive(LogicBlock, Default)]
pub struct Region16 {
    pub pm: Signal<In, Bits<16>>,
    pub need: Signal<In, Bits<16>>,
    pub mask: Signal<Out, Bits<16>>,
    pub base: Signal<Out, Bits<4>>,
    sh_a: Signal<Local, Bits<5>>,
    sh1: Signal<Local, Bits<5>>,
    x16: Signal<Local, Bits<16>>,
    rep16: Signal<Local, Bits<16>>,
    oh16: Signal<Local, Bits<16>>,
    b: Signal<Local, Bits<4>>,
}

impl Logic for Region16 {
    #[hdl_gen]
    fn update(&mut self) {
        self.sh_a.next = 0.into();
        self.sh1.next = 1.into();
        self.rep16.next = 0.into();
        self.x16.next = 0.into();
        for d in 0..16 {
            self.sh_a.next = d.to_bits();
            self.rep16.next = 0.into();
            if !self.need.val().get_bit(d) {
                self.rep16.next = bits::<16>(0xffff);
            }
            self.x16.next =
                self.x16.val() | ((self.pm.val() << self.sh_a.val()) & self.rep16.val());
        }
        self.mask.next = self.pm.val() & !self.x16.val();
        self.oh16.next = self.pm.val() & !(self.pm.val() << self.sh1.val());
        self.b.next = 0.into();
        self.b.next = self
            .b
            .val()
            .replace_bit(0, (self.oh16.val() & bits::<16>(0xaaaa)).any());
        self.b.next = self
            .b
            .val()
            .replace_bit(1, (self.oh16.val() & bits::<16>(0xcccc)).any());
        self.b.next = self
            .b
            .val()
            .replace_bit(2, (self.oh16.val() & bits::<16>(0xf0f0)).any());
        self.b.next = self
            .b
            .val()
            .replace_bit(3, (self.oh16.val() & bits::<16>(0xff00)).any());
        self.base.next = self.b.val();
    }
}

/// [`Region16`] for an 8-block map.
#[derive(LogicBlock, Default)]
pub struct Region8 {
    pub pm: Signal<In, Bits<8>>,
    pub need: Signal<In, Bits<8>>,
    pub mask: Signal<Out, Bits<8>>,
    pub base: Signal<Out, Bits<3>>,
    sh_a: Signal<Local, Bits<5>>,
    sh1: Signal<Local, Bits<5>>,
    x8: Signal<Local, Bits<8>>,
    rep8: Signal<Local, Bits<8>>,
    oh8: Signal<Local, Bits<8>>,
    b: Signal<Local, Bits<3>>,
}

impl Logic for Region8 {
    #[hdl_gen]
    fn update(&mut self) {
        self.sh_a.next = 0.into();
        self.sh1.next = 1.into();
        self.rep8.next = 0.into();
        self.x8.next = 0.into();
        for d in 0..8 {
            self.sh_a.next = d.to_bits();
            self.rep8.next = 0.into();
            if !self.need.val().get_bit(d) {
                self.rep8.next = bits::<8>(0xff);
            }
            self.x8.next = self.x8.val() | ((self.pm.val() << self.sh_a.val()) & self.rep8.val());
        }
        self.mask.next = self.pm.val() & !self.x8.val();
        self.oh8.next = self.pm.val() & !(self.pm.val() << self.sh1.val());
        self.b.next = 0.into();
        self.b.next = self
            .b
            .val()
            .replace_bit(0, (self.oh8.val() & bits::<8>(0xaa)).any());
        self.b.next = self
            .b
            .val()
            .replace_bit(1, (self.oh8.val() & bits::<8>(0xcc)).any());
        self.b.next = self
            .b
            .val()
            .replace_bit(2, (self.oh8.val() & bits::<8>(0xf0)).any());
        self.base.next = self.b.val();
    }
}

/// Wave-slot test of a unit: busy + q ≤ 4 slots, in 4 bits (as the dispatcher's match stage).
#[derive(LogicBlock, Default)]
pub struct WaveFit {
    pub busy: Signal<In, Bits<3>>,
    pub q: Signal<In, Bits<3>>,
    pub fit: Signal<Out, Bit>,
    tb3a: Signal<Local, Bits<3>>,
    tb3b: Signal<Local, Bits<3>>,
    wsum: Signal<Local, Bits<4>>,
}

impl Logic for WaveFit {
    #[hdl_gen]
    fn update(&mut self) {
        self.tb3a.next = self.busy.val();
        self.tb3b.next = self.q.val();
        self.wsum.next = bit_cast::<4, 3>(self.tb3a.val()) + bit_cast::<4, 3>(self.tb3b.val());
        self.fit.next = true;
        if self.wsum.val() > 4 {
            self.fit.next = false;
        }
    }
}

/// A 16-block used map (clocked): at the edge `rel` frees blocks and, with `take0` / `take1`
/// (exclusive; `take1` wins), the region `add0` / `add1` is taken; reset empties it.
#[derive(LogicBlock, Default)]
pub struct UsedMap16 {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub take0: Signal<In, Bit>,
    pub add0: Signal<In, Bits<16>>,
    pub take1: Signal<In, Bit>,
    pub add1: Signal<In, Bits<16>>,
    pub rel: Signal<In, Bits<16>>,
    pub map: Signal<Out, Bits<16>>,
    st: DFF<Bits<16>>,
}

impl Logic for UsedMap16 {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, st);
        self.map.next = self.st.q.val();
        self.st.d.next = self.st.q.val() & !self.rel.val();
        if self.take0.val() {
            self.st.d.next = (self.st.q.val() | self.add0.val()) & !self.rel.val();
        }
        if self.take1.val() {
            self.st.d.next = (self.st.q.val() | self.add1.val()) & !self.rel.val();
        }
        if self.reset.val() {
            self.st.d.next = 0.into();
        }
    }
}

/// [`UsedMap16`] for an 8-block map.
#[derive(LogicBlock, Default)]
pub struct UsedMap8 {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub take0: Signal<In, Bit>,
    pub add0: Signal<In, Bits<8>>,
    pub take1: Signal<In, Bit>,
    pub add1: Signal<In, Bits<8>>,
    pub rel: Signal<In, Bits<8>>,
    pub map: Signal<Out, Bits<8>>,
    st: DFF<Bits<8>>,
}

impl Logic for UsedMap8 {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, st);
        self.map.next = self.st.q.val();
        self.st.d.next = self.st.q.val() & !self.rel.val();
        if self.take0.val() {
            self.st.d.next = (self.st.q.val() | self.add0.val()) & !self.rel.val();
        }
        if self.take1.val() {
            self.st.d.next = (self.st.q.val() | self.add1.val()) & !self.rel.val();
        }
        if self.reset.val() {
            self.st.d.next = 0.into();
        }
    }
}

/// Busy wave slots of a unit (clocked): at the edge `rel` waves complete and, with `take0` /
/// `take1` (exclusive), `q0` / `q1` start (both sums computed, the take selects); reset: 0.
#[derive(LogicBlock, Default)]
pub struct WaveCount {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub take0: Signal<In, Bit>,
    pub q0: Signal<In, Bits<3>>,
    pub take1: Signal<In, Bit>,
    pub q1: Signal<In, Bits<3>>,
    pub rel: Signal<In, Bits<3>>,
    pub busy: Signal<Out, Bits<3>>,
    st: DFF<Bits<3>>,
}

impl Logic for WaveCount {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, st);
        self.busy.next = self.st.q.val();
        self.st.d.next = self.st.q.val() - self.rel.val();
        if self.take0.val() {
            self.st.d.next = self.st.q.val() + self.q0.val() - self.rel.val();
        }
        if self.take1.val() {
            self.st.d.next = self.st.q.val() + self.q1.val() - self.rel.val();
        }
        if self.reset.val() {
            self.st.d.next = 0.into();
        }
    }
}

/// The registered outputs of a design (grant, head, bases); reset clears them. Inputs a design
/// has no use for are tied to 0 (their flip-flops then drive nothing and vanish).
#[derive(LogicBlock, Default)]
pub struct OutRegs {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub d_grant: Signal<In, Bit>,
    pub d_head: Signal<In, Bit>,
    pub d_vbase0: Signal<In, Bits<4>>,
    pub d_vbase1: Signal<In, Bits<4>>,
    pub d_sbase0: Signal<In, Bits<3>>,
    pub d_sbase1: Signal<In, Bits<3>>,
    pub d_lbase: Signal<In, Bits<4>>,
    pub grant: Signal<Out, Bit>,
    pub head: Signal<Out, Bit>,
    pub vbase0: Signal<Out, Bits<4>>,
    pub vbase1: Signal<Out, Bits<4>>,
    pub sbase0: Signal<Out, Bits<3>>,
    pub sbase1: Signal<Out, Bits<3>>,
    pub lbase: Signal<Out, Bits<4>>,
    o_grant: DFF<Bit>,
    o_head: DFF<Bit>,
    o_vbase0: DFF<Bits<4>>,
    o_vbase1: DFF<Bits<4>>,
    o_sbase0: DFF<Bits<3>>,
    o_sbase1: DFF<Bits<3>>,
    o_lbase: DFF<Bits<4>>,
}

impl Logic for OutRegs {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, o_grant, o_head, o_vbase0, o_vbase1, o_sbase0, o_sbase1, o_lbase);
        self.grant.next = self.o_grant.q.val();
        self.head.next = self.o_head.q.val();
        self.vbase0.next = self.o_vbase0.q.val();
        self.vbase1.next = self.o_vbase1.q.val();
        self.sbase0.next = self.o_sbase0.q.val();
        self.sbase1.next = self.o_sbase1.q.val();
        self.lbase.next = self.o_lbase.q.val();
        self.o_grant.d.next = self.d_grant.val();
        self.o_head.d.next = self.d_head.val();
        self.o_vbase0.d.next = self.d_vbase0.val();
        self.o_vbase1.d.next = self.d_vbase1.val();
        self.o_sbase0.d.next = self.d_sbase0.val();
        self.o_sbase1.d.next = self.d_sbase1.val();
        self.o_lbase.d.next = self.d_lbase.val();
        if self.reset.val() {
            self.o_grant.d.next = false;
            self.o_head.d.next = false;
            self.o_vbase0.d.next = 0.into();
            self.o_vbase1.d.next = 0.into();
            self.o_sbase0.d.next = 0.into();
            self.o_sbase1.d.next = 0.into();
            self.o_lbase.d.next = 0.into();
        }
    }
}

// ---------------------------------------------------------------------------------------------
// map1
// ---------------------------------------------------------------------------------------------

/// One 16-block used map: first fit of `need` (thermometer), taken at the edge when `req` and a
/// fit exist; `rel` frees blocks at the same edge. `grant` / `base` are registered (the result
/// of the previous cycle's request).
#[derive(LogicBlock, Default)]
pub struct Map1 {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    /// Allocate `need` blocks this cycle.
    pub req: Signal<In, Bit>,
    /// Need thermometer: bit k = need > k.
    pub need: Signal<In, Bits<16>>,
    /// Blocks freed at this edge.
    pub rel: Signal<In, Bits<16>>,
    /// Registered: the previous cycle's request was granted.
    pub grant: Signal<Out, Bit>,
    /// Registered: its first-fit base.
    pub base: Signal<Out, Bits<4>>,
    map: UsedMap16,
    okv: OkVec16,
    ff: FirstFit16,
    outs: OutRegs,
    go: Signal<Local, Bit>,
}

impl Logic for Map1 {
    #[hdl_gen]
    fn update(&mut self) {
        self.map.clock.next = self.clock.val();
        self.map.reset.next = self.reset.val();
        self.outs.clock.next = self.clock.val();
        self.outs.reset.next = self.reset.val();
        self.grant.next = self.outs.grant.val();
        self.base.next = self.outs.lbase.val();
        // ok vector → any → first fit (the lowest ok start) → map
        self.okv.used.next = self.map.map.val();
        self.okv.need.next = self.need.val();
        self.go.next = self.req.val() & self.okv.ok.val().any();
        self.ff.ok.next = self.okv.ok.val();
        self.ff.need.next = self.need.val();
        self.map.take0.next = self.go.val();
        self.map.add0.next = self.ff.mask.val();
        self.map.take1.next = false;
        self.map.add1.next = 0.into();
        self.map.rel.next = self.rel.val();
        self.outs.d_grant.next = self.go.val();
        self.outs.d_lbase.next = self.ff.base.val();
        self.outs.d_head.next = false;
        self.outs.d_vbase0.next = 0.into();
        self.outs.d_vbase1.next = 0.into();
        self.outs.d_sbase0.next = 0.into();
        self.outs.d_sbase1.next = 0.into();
    }
}

// ---------------------------------------------------------------------------------------------
// module1
// ---------------------------------------------------------------------------------------------

/// One execution module of the board config: 2 units, each with a 16-block VGPR map, an 8-block
/// SGPR map and a busy wave-slot count of 4 slots, and one 16-block LDS map. `go` = `req` ∧ every
/// unit has the slots (busy + waves ≤ 4) and a VGPR and an SGPR start ∧ an LDS start; all five
/// maps and both counts take their first-fit regions / waves at the same edge, releases free at
/// that edge too. Outputs registered (the previous cycle's request).
#[derive(LogicBlock, Default)]
pub struct Module1 {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub req: Signal<In, Bit>,
    /// Waves on unit 0 / 1 (0..=4).
    pub q0: Signal<In, Bits<3>>,
    pub q1: Signal<In, Bits<3>>,
    /// VGPR / SGPR need thermometers of unit 0 / 1, LDS need thermometer of the module.
    pub need_v0: Signal<In, Bits<16>>,
    pub need_v1: Signal<In, Bits<16>>,
    pub need_s0: Signal<In, Bits<8>>,
    pub need_s1: Signal<In, Bits<8>>,
    pub need_l: Signal<In, Bits<16>>,
    /// Blocks / waves freed at this edge.
    pub rel_v0: Signal<In, Bits<16>>,
    pub rel_v1: Signal<In, Bits<16>>,
    pub rel_s0: Signal<In, Bits<8>>,
    pub rel_s1: Signal<In, Bits<8>>,
    pub rel_l: Signal<In, Bits<16>>,
    pub rel_w0: Signal<In, Bits<3>>,
    pub rel_w1: Signal<In, Bits<3>>,
    pub grant: Signal<Out, Bit>,
    pub vbase0: Signal<Out, Bits<4>>,
    pub vbase1: Signal<Out, Bits<4>>,
    pub sbase0: Signal<Out, Bits<3>>,
    pub sbase1: Signal<Out, Bits<3>>,
    pub lbase: Signal<Out, Bits<4>>,
    // state: per-unit VGPR / SGPR maps and wave counts, the LDS map, the outputs
    vmap: [UsedMap16; 2],
    smap: [UsedMap8; 2],
    wcnt: [WaveCount; 2],
    lmap: UsedMap16,
    outs: OutRegs,
    // fit test and first fit of every map
    okv: [OkVec16; 2],
    oks: [OkVec8; 2],
    okl: OkVec16,
    wf: [WaveFit; 2],
    ffv: [FirstFit16; 2],
    ffs: [FirstFit8; 2],
    ffl: FirstFit16,
    // per-unit views of the ports
    tq: [Signal<Local, Bits<3>>; 2],
    tv: [Signal<Local, Bits<16>>; 2],
    ts: [Signal<Local, Bits<8>>; 2],
    rv: [Signal<Local, Bits<16>>; 2],
    rs: [Signal<Local, Bits<8>>; 2],
    rw: [Signal<Local, Bits<3>>; 2],
    go: Signal<Local, Bit>,
}

impl Logic for Module1 {
    #[hdl_gen]
    fn update(&mut self) {
        self.lmap.clock.next = self.clock.val();
        self.lmap.reset.next = self.reset.val();
        self.outs.clock.next = self.clock.val();
        self.outs.reset.next = self.reset.val();
        for u in 0..2 {
            self.vmap[u].clock.next = self.clock.val();
            self.vmap[u].reset.next = self.reset.val();
            self.smap[u].clock.next = self.clock.val();
            self.smap[u].reset.next = self.reset.val();
            self.wcnt[u].clock.next = self.clock.val();
            self.wcnt[u].reset.next = self.reset.val();
        }
        self.grant.next = self.outs.grant.val();
        self.vbase0.next = self.outs.vbase0.val();
        self.vbase1.next = self.outs.vbase1.val();
        self.sbase0.next = self.outs.sbase0.val();
        self.sbase1.next = self.outs.sbase1.val();
        self.lbase.next = self.outs.lbase.val();
        self.tq[0].next = self.q0.val();
        self.tq[1].next = self.q1.val();
        self.tv[0].next = self.need_v0.val();
        self.tv[1].next = self.need_v1.val();
        self.ts[0].next = self.need_s0.val();
        self.ts[1].next = self.need_s1.val();
        self.rv[0].next = self.rel_v0.val();
        self.rv[1].next = self.rel_v1.val();
        self.rs[0].next = self.rel_s0.val();
        self.rs[1].next = self.rel_s1.val();
        self.rw[0].next = self.rel_w0.val();
        self.rw[1].next = self.rel_w1.val();

        // ---- fit test: ok vectors of every map, wave slots; first fit of every map ----
        for u in 0..2 {
            self.okv[u].used.next = self.vmap[u].map.val();
            self.okv[u].need.next = self.tv[u].val();
            self.oks[u].used.next = self.smap[u].map.val();
            self.oks[u].need.next = self.ts[u].val();
            self.wf[u].busy.next = self.wcnt[u].busy.val();
            self.wf[u].q.next = self.tq[u].val();
            self.ffv[u].ok.next = self.okv[u].ok.val();
            self.ffv[u].need.next = self.tv[u].val();
            self.ffs[u].ok.next = self.oks[u].ok.val();
            self.ffs[u].need.next = self.ts[u].val();
        }
        self.okl.used.next = self.lmap.map.val();
        self.okl.need.next = self.need_l.val();
        self.ffl.ok.next = self.okl.ok.val();
        self.ffl.need.next = self.need_l.val();
        self.go.next = self.req.val()
            & self.wf[0].fit.val()
            & self.wf[1].fit.val()
            & self.okv[0].ok.val().any()
            & self.okv[1].ok.val().any()
            & self.oks[0].ok.val().any()
            & self.oks[1].ok.val().any()
            & self.okl.ok.val().any();

        // ---- update: releases free, the grant takes its regions and waves ----
        for u in 0..2 {
            self.vmap[u].take0.next = self.go.val();
            self.vmap[u].add0.next = self.ffv[u].mask.val();
            self.vmap[u].take1.next = false;
            self.vmap[u].add1.next = 0.into();
            self.vmap[u].rel.next = self.rv[u].val();
            self.smap[u].take0.next = self.go.val();
            self.smap[u].add0.next = self.ffs[u].mask.val();
            self.smap[u].take1.next = false;
            self.smap[u].add1.next = 0.into();
            self.smap[u].rel.next = self.rs[u].val();
            self.wcnt[u].take0.next = self.go.val();
            self.wcnt[u].q0.next = self.tq[u].val();
            self.wcnt[u].take1.next = false;
            self.wcnt[u].q1.next = 0.into();
            self.wcnt[u].rel.next = self.rw[u].val();
        }
        self.lmap.take0.next = self.go.val();
        self.lmap.add0.next = self.ffl.mask.val();
        self.lmap.take1.next = false;
        self.lmap.add1.next = 0.into();
        self.lmap.rel.next = self.rel_l.val();
        self.outs.d_grant.next = self.go.val();
        self.outs.d_head.next = false;
        self.outs.d_vbase0.next = self.ffv[0].base.val();
        self.outs.d_vbase1.next = self.ffv[1].base.val();
        self.outs.d_sbase0.next = self.ffs[0].base.val();
        self.outs.d_sbase1.next = self.ffs[1].base.val();
        self.outs.d_lbase.next = self.ffl.base.val();
    }
}

// ---------------------------------------------------------------------------------------------
// module1_2heads
// ---------------------------------------------------------------------------------------------

/// [`Module1`] with two candidate heads (each with its own needs) and a fixed-priority pick:
/// head 0 if it fits, else head 1. The ok vectors and the first fit of both heads are computed in
/// parallel; the pick selects which regions are taken (the shortest pick in the loop: the fit
/// bits only steer the last select before the maps). `head` is registered with the grant.
#[derive(LogicBlock, Default)]
pub struct Module1TwoHeads {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub req0: Signal<In, Bit>,
    pub req1: Signal<In, Bit>,
    /// Head h, unit u: waves, VGPR / SGPR need thermometers; head h's LDS need thermometer.
    pub h0_q0: Signal<In, Bits<3>>,
    pub h0_q1: Signal<In, Bits<3>>,
    pub h1_q0: Signal<In, Bits<3>>,
    pub h1_q1: Signal<In, Bits<3>>,
    pub h0_need_v0: Signal<In, Bits<16>>,
    pub h0_need_v1: Signal<In, Bits<16>>,
    pub h1_need_v0: Signal<In, Bits<16>>,
    pub h1_need_v1: Signal<In, Bits<16>>,
    pub h0_need_s0: Signal<In, Bits<8>>,
    pub h0_need_s1: Signal<In, Bits<8>>,
    pub h1_need_s0: Signal<In, Bits<8>>,
    pub h1_need_s1: Signal<In, Bits<8>>,
    pub h0_need_l: Signal<In, Bits<16>>,
    pub h1_need_l: Signal<In, Bits<16>>,
    pub rel_v0: Signal<In, Bits<16>>,
    pub rel_v1: Signal<In, Bits<16>>,
    pub rel_s0: Signal<In, Bits<8>>,
    pub rel_s1: Signal<In, Bits<8>>,
    pub rel_l: Signal<In, Bits<16>>,
    pub rel_w0: Signal<In, Bits<3>>,
    pub rel_w1: Signal<In, Bits<3>>,
    pub grant: Signal<Out, Bit>,
    /// The granted head.
    pub head: Signal<Out, Bit>,
    pub vbase0: Signal<Out, Bits<4>>,
    pub vbase1: Signal<Out, Bits<4>>,
    pub sbase0: Signal<Out, Bits<3>>,
    pub sbase1: Signal<Out, Bits<3>>,
    pub lbase: Signal<Out, Bits<4>>,
    // state: per-unit VGPR / SGPR maps and wave counts, the LDS map, the outputs
    vmap: [UsedMap16; 2],
    smap: [UsedMap8; 2],
    wcnt: [WaveCount; 2],
    lmap: UsedMap16,
    outs: OutRegs,
    // fit test and first fit of each head against the same maps: [h * 2 + u] per unit, [h] per head
    okv: [OkVec16; 4],
    oks: [OkVec8; 4],
    okl: [OkVec16; 2],
    wf: [WaveFit; 4],
    ffv: [FirstFit16; 4],
    ffs: [FirstFit8; 4],
    ffl: [FirstFit16; 2],
    // views of the ports: [h * 2 + u] per unit, [h] per head
    hreq: [Signal<Local, Bit>; 2],
    tq: [Signal<Local, Bits<3>>; 4],
    tv: [Signal<Local, Bits<16>>; 4],
    ts: [Signal<Local, Bits<8>>; 4],
    tl: [Signal<Local, Bits<16>>; 2],
    rv: [Signal<Local, Bits<16>>; 2],
    rs: [Signal<Local, Bits<8>>; 2],
    rw: [Signal<Local, Bits<3>>; 2],
    fit: [Signal<Local, Bit>; 2],
    sel1: Signal<Local, Bit>,
}

impl Logic for Module1TwoHeads {
    #[hdl_gen]
    fn update(&mut self) {
        self.lmap.clock.next = self.clock.val();
        self.lmap.reset.next = self.reset.val();
        self.outs.clock.next = self.clock.val();
        self.outs.reset.next = self.reset.val();
        for u in 0..2 {
            self.vmap[u].clock.next = self.clock.val();
            self.vmap[u].reset.next = self.reset.val();
            self.smap[u].clock.next = self.clock.val();
            self.smap[u].reset.next = self.reset.val();
            self.wcnt[u].clock.next = self.clock.val();
            self.wcnt[u].reset.next = self.reset.val();
        }
        self.grant.next = self.outs.grant.val();
        self.head.next = self.outs.head.val();
        self.vbase0.next = self.outs.vbase0.val();
        self.vbase1.next = self.outs.vbase1.val();
        self.sbase0.next = self.outs.sbase0.val();
        self.sbase1.next = self.outs.sbase1.val();
        self.lbase.next = self.outs.lbase.val();
        self.hreq[0].next = self.req0.val();
        self.hreq[1].next = self.req1.val();
        self.tq[0].next = self.h0_q0.val();
        self.tq[1].next = self.h0_q1.val();
        self.tq[2].next = self.h1_q0.val();
        self.tq[3].next = self.h1_q1.val();
        self.tv[0].next = self.h0_need_v0.val();
        self.tv[1].next = self.h0_need_v1.val();
        self.tv[2].next = self.h1_need_v0.val();
        self.tv[3].next = self.h1_need_v1.val();
        self.ts[0].next = self.h0_need_s0.val();
        self.ts[1].next = self.h0_need_s1.val();
        self.ts[2].next = self.h1_need_s0.val();
        self.ts[3].next = self.h1_need_s1.val();
        self.tl[0].next = self.h0_need_l.val();
        self.tl[1].next = self.h1_need_l.val();
        self.rv[0].next = self.rel_v0.val();
        self.rv[1].next = self.rel_v1.val();
        self.rs[0].next = self.rel_s0.val();
        self.rs[1].next = self.rel_s1.val();
        self.rw[0].next = self.rel_w0.val();
        self.rw[1].next = self.rel_w1.val();

        // ---- fit test of each head against the same maps; first fit in parallel ----
        for h in 0..2 {
            for u in 0..2 {
                self.okv[h * 2 + u].used.next = self.vmap[u].map.val();
                self.okv[h * 2 + u].need.next = self.tv[h * 2 + u].val();
                self.oks[h * 2 + u].used.next = self.smap[u].map.val();
                self.oks[h * 2 + u].need.next = self.ts[h * 2 + u].val();
                self.wf[h * 2 + u].busy.next = self.wcnt[u].busy.val();
                self.wf[h * 2 + u].q.next = self.tq[h * 2 + u].val();
                self.ffv[h * 2 + u].ok.next = self.okv[h * 2 + u].ok.val();
                self.ffv[h * 2 + u].need.next = self.tv[h * 2 + u].val();
                self.ffs[h * 2 + u].ok.next = self.oks[h * 2 + u].ok.val();
                self.ffs[h * 2 + u].need.next = self.ts[h * 2 + u].val();
            }
            self.okl[h].used.next = self.lmap.map.val();
            self.okl[h].need.next = self.tl[h].val();
            self.ffl[h].ok.next = self.okl[h].ok.val();
            self.ffl[h].need.next = self.tl[h].val();
            self.fit[h].next = self.hreq[h].val()
                & self.wf[h * 2].fit.val()
                & self.wf[h * 2 + 1].fit.val()
                & self.okv[h * 2].ok.val().any()
                & self.okv[h * 2 + 1].ok.val().any()
                & self.oks[h * 2].ok.val().any()
                & self.oks[h * 2 + 1].ok.val().any()
                & self.okl[h].ok.val().any();
        }
        // fixed-priority pick
        self.sel1.next = !self.fit[0].val() & self.fit[1].val();

        // ---- update: the picked head's regions and waves ----
        for u in 0..2 {
            self.vmap[u].take0.next = self.fit[0].val();
            self.vmap[u].add0.next = self.ffv[u].mask.val();
            self.vmap[u].take1.next = self.sel1.val();
            self.vmap[u].add1.next = self.ffv[2 + u].mask.val();
            self.vmap[u].rel.next = self.rv[u].val();
            self.smap[u].take0.next = self.fit[0].val();
            self.smap[u].add0.next = self.ffs[u].mask.val();
            self.smap[u].take1.next = self.sel1.val();
            self.smap[u].add1.next = self.ffs[2 + u].mask.val();
            self.smap[u].rel.next = self.rs[u].val();
            self.wcnt[u].take0.next = self.fit[0].val();
            self.wcnt[u].q0.next = self.tq[u].val();
            self.wcnt[u].take1.next = self.sel1.val();
            self.wcnt[u].q1.next = self.tq[2 + u].val();
            self.wcnt[u].rel.next = self.rw[u].val();
        }
        self.lmap.take0.next = self.fit[0].val();
        self.lmap.add0.next = self.ffl[0].mask.val();
        self.lmap.take1.next = self.sel1.val();
        self.lmap.add1.next = self.ffl[1].mask.val();
        self.lmap.rel.next = self.rel_l.val();
        self.outs.d_grant.next = self.fit[0].val() | self.fit[1].val();
        self.outs.d_head.next = self.sel1.val();
        self.outs.d_vbase0.next = self.ffv[0].base.val();
        self.outs.d_vbase1.next = self.ffv[1].base.val();
        self.outs.d_sbase0.next = self.ffs[0].base.val();
        self.outs.d_sbase1.next = self.ffs[1].base.val();
        self.outs.d_lbase.next = self.ffl[0].base.val();
        if self.sel1.val() {
            self.outs.d_vbase0.next = self.ffv[2].base.val();
            self.outs.d_vbase1.next = self.ffv[3].base.val();
            self.outs.d_sbase0.next = self.ffs[2].base.val();
            self.outs.d_sbase1.next = self.ffs[3].base.val();
            self.outs.d_lbase.next = self.ffl[1].base.val();
        }
    }
}

// ---------------------------------------------------------------------------------------------
// module1_split
// ---------------------------------------------------------------------------------------------

/// [`Module1`] cut in two: cycle t registers the ok vectors of every map (and the wave-slot
/// test, the request and the needs) from the maps; cycle t+1 takes any / first fit / update from
/// the registered vectors. The vectors read in the cycle after a grant predate it, so no request
/// is granted in the cycle after a grant: 1 dispatch per 2 cycles per module. (Releases in
/// between only free blocks: stale vectors are then conservative, never wrong.) Same ports as
/// [`Module1`]; `grant` / bases are registered one cycle later (two after the request).
#[derive(LogicBlock, Default)]
pub struct Module1Split {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub req: Signal<In, Bit>,
    pub q0: Signal<In, Bits<3>>,
    pub q1: Signal<In, Bits<3>>,
    pub need_v0: Signal<In, Bits<16>>,
    pub need_v1: Signal<In, Bits<16>>,
    pub need_s0: Signal<In, Bits<8>>,
    pub need_s1: Signal<In, Bits<8>>,
    pub need_l: Signal<In, Bits<16>>,
    pub rel_v0: Signal<In, Bits<16>>,
    pub rel_v1: Signal<In, Bits<16>>,
    pub rel_s0: Signal<In, Bits<8>>,
    pub rel_s1: Signal<In, Bits<8>>,
    pub rel_l: Signal<In, Bits<16>>,
    pub rel_w0: Signal<In, Bits<3>>,
    pub rel_w1: Signal<In, Bits<3>>,
    pub grant: Signal<Out, Bit>,
    pub vbase0: Signal<Out, Bits<4>>,
    pub vbase1: Signal<Out, Bits<4>>,
    pub sbase0: Signal<Out, Bits<3>>,
    pub sbase1: Signal<Out, Bits<3>>,
    pub lbase: Signal<Out, Bits<4>>,
    // state: per-unit VGPR / SGPR maps and wave counts, the LDS map, the outputs
    vmap: [UsedMap16; 2],
    smap: [UsedMap8; 2],
    wcnt: [WaveCount; 2],
    lmap: UsedMap16,
    outs: OutRegs,
    // cycle-t registers (the cut)
    p_req: DFF<Bit>,
    p_wfit: DFF<Bit>,
    p_q: [DFF<Bits<3>>; 2],
    p_tv: [DFF<Bits<16>>; 2],
    p_ts: [DFF<Bits<8>>; 2],
    p_tl: DFF<Bits<16>>,
    p_okv: [DFF<Bits<16>>; 2],
    p_oks: [DFF<Bits<8>>; 2],
    p_okl: DFF<Bits<16>>,
    // cycle t: fit test from the maps; cycle t+1: first fit from the registered vectors
    okv: [OkVec16; 2],
    oks: [OkVec8; 2],
    okl: OkVec16,
    wf: [WaveFit; 2],
    ffv: [FirstFit16; 2],
    ffs: [FirstFit8; 2],
    ffl: FirstFit16,
    // per-unit views of the ports
    tq: [Signal<Local, Bits<3>>; 2],
    tv: [Signal<Local, Bits<16>>; 2],
    ts: [Signal<Local, Bits<8>>; 2],
    rv: [Signal<Local, Bits<16>>; 2],
    rs: [Signal<Local, Bits<8>>; 2],
    rw: [Signal<Local, Bits<3>>; 2],
    go: Signal<Local, Bit>,
}

impl Logic for Module1Split {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, p_req, p_wfit, p_tl, p_okl);
        self.lmap.clock.next = self.clock.val();
        self.lmap.reset.next = self.reset.val();
        self.outs.clock.next = self.clock.val();
        self.outs.reset.next = self.reset.val();
        for u in 0..2 {
            self.vmap[u].clock.next = self.clock.val();
            self.vmap[u].reset.next = self.reset.val();
            self.smap[u].clock.next = self.clock.val();
            self.smap[u].reset.next = self.reset.val();
            self.wcnt[u].clock.next = self.clock.val();
            self.wcnt[u].reset.next = self.reset.val();
            self.p_q[u].clock.next = self.clock.val();
            self.p_q[u].d.next = self.p_q[u].q.val();
            self.p_tv[u].clock.next = self.clock.val();
            self.p_tv[u].d.next = self.p_tv[u].q.val();
            self.p_ts[u].clock.next = self.clock.val();
            self.p_ts[u].d.next = self.p_ts[u].q.val();
            self.p_okv[u].clock.next = self.clock.val();
            self.p_okv[u].d.next = self.p_okv[u].q.val();
            self.p_oks[u].clock.next = self.clock.val();
            self.p_oks[u].d.next = self.p_oks[u].q.val();
        }
        self.grant.next = self.outs.grant.val();
        self.vbase0.next = self.outs.vbase0.val();
        self.vbase1.next = self.outs.vbase1.val();
        self.sbase0.next = self.outs.sbase0.val();
        self.sbase1.next = self.outs.sbase1.val();
        self.lbase.next = self.outs.lbase.val();
        self.tq[0].next = self.q0.val();
        self.tq[1].next = self.q1.val();
        self.tv[0].next = self.need_v0.val();
        self.tv[1].next = self.need_v1.val();
        self.ts[0].next = self.need_s0.val();
        self.ts[1].next = self.need_s1.val();
        self.rv[0].next = self.rel_v0.val();
        self.rv[1].next = self.rel_v1.val();
        self.rs[0].next = self.rel_s0.val();
        self.rs[1].next = self.rel_s1.val();
        self.rw[0].next = self.rel_w0.val();
        self.rw[1].next = self.rel_w1.val();

        // ================= cycle t: ok vectors from the maps, registered =================
        for u in 0..2 {
            self.okv[u].used.next = self.vmap[u].map.val();
            self.okv[u].need.next = self.tv[u].val();
            self.p_okv[u].d.next = self.okv[u].ok.val();
            self.oks[u].used.next = self.smap[u].map.val();
            self.oks[u].need.next = self.ts[u].val();
            self.p_oks[u].d.next = self.oks[u].ok.val();
            self.wf[u].busy.next = self.wcnt[u].busy.val();
            self.wf[u].q.next = self.tq[u].val();
            self.p_q[u].d.next = self.tq[u].val();
            self.p_tv[u].d.next = self.tv[u].val();
            self.p_ts[u].d.next = self.ts[u].val();
        }
        self.okl.used.next = self.lmap.map.val();
        self.okl.need.next = self.need_l.val();
        self.p_okl.d.next = self.okl.ok.val();
        self.p_tl.d.next = self.need_l.val();
        self.p_wfit.d.next = self.wf[0].fit.val() & self.wf[1].fit.val();
        self.p_req.d.next = self.req.val();
        if self.reset.val() {
            self.p_req.d.next = false;
        }

        // ================= cycle t+1: any, first fit, update from the registered vectors ======
        // module busy: the vectors read now predate a grant taken at the last edge
        self.go.next = self.p_req.q.val()
            & !self.outs.grant.val()
            & self.p_wfit.q.val()
            & self.p_okv[0].q.val().any()
            & self.p_okv[1].q.val().any()
            & self.p_oks[0].q.val().any()
            & self.p_oks[1].q.val().any()
            & self.p_okl.q.val().any();
        for u in 0..2 {
            self.ffv[u].ok.next = self.p_okv[u].q.val();
            self.ffv[u].need.next = self.p_tv[u].q.val();
            self.ffs[u].ok.next = self.p_oks[u].q.val();
            self.ffs[u].need.next = self.p_ts[u].q.val();
        }
        self.ffl.ok.next = self.p_okl.q.val();
        self.ffl.need.next = self.p_tl.q.val();
        for u in 0..2 {
            self.vmap[u].take0.next = self.go.val();
            self.vmap[u].add0.next = self.ffv[u].mask.val();
            self.vmap[u].take1.next = false;
            self.vmap[u].add1.next = 0.into();
            self.vmap[u].rel.next = self.rv[u].val();
            self.smap[u].take0.next = self.go.val();
            self.smap[u].add0.next = self.ffs[u].mask.val();
            self.smap[u].take1.next = false;
            self.smap[u].add1.next = 0.into();
            self.smap[u].rel.next = self.rs[u].val();
            self.wcnt[u].take0.next = self.go.val();
            self.wcnt[u].q0.next = self.p_q[u].q.val();
            self.wcnt[u].take1.next = false;
            self.wcnt[u].q1.next = 0.into();
            self.wcnt[u].rel.next = self.rw[u].val();
        }
        self.lmap.take0.next = self.go.val();
        self.lmap.add0.next = self.ffl.mask.val();
        self.lmap.take1.next = false;
        self.lmap.add1.next = 0.into();
        self.lmap.rel.next = self.rel_l.val();
        self.outs.d_grant.next = self.go.val();
        self.outs.d_head.next = false;
        self.outs.d_vbase0.next = self.ffv[0].base.val();
        self.outs.d_vbase1.next = self.ffv[1].base.val();
        self.outs.d_sbase0.next = self.ffs[0].base.val();
        self.outs.d_sbase1.next = self.ffs[1].base.val();
        self.outs.d_lbase.next = self.ffl.base.val();
    }
}

// ---------------------------------------------------------------------------------------------
// module1_2heads_split
// ---------------------------------------------------------------------------------------------

/// [`Module1TwoHeads`] cut as [`Module1Split`]: cycle t registers the ok vectors of both heads
/// against every map and each head's wave-slot test (with its request); cycle t+1 takes any →
/// per-head fit → fixed-priority pick (head 0 if it fits, else head 1) → the first fit of both
/// heads' regions in parallel, selected by the pick → map update, from the registered vectors. No
/// grant in the cycle after a grant (the vectors predate it): 1 dispatch per 2 cycles per module.
/// Same ports as [`Module1TwoHeads`]; outputs registered two cycles after the request.
#[derive(LogicBlock, Default)]
pub struct Module1TwoHeadsSplit {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub req0: Signal<In, Bit>,
    pub req1: Signal<In, Bit>,
    pub h0_q0: Signal<In, Bits<3>>,
    pub h0_q1: Signal<In, Bits<3>>,
    pub h1_q0: Signal<In, Bits<3>>,
    pub h1_q1: Signal<In, Bits<3>>,
    pub h0_need_v0: Signal<In, Bits<16>>,
    pub h0_need_v1: Signal<In, Bits<16>>,
    pub h1_need_v0: Signal<In, Bits<16>>,
    pub h1_need_v1: Signal<In, Bits<16>>,
    pub h0_need_s0: Signal<In, Bits<8>>,
    pub h0_need_s1: Signal<In, Bits<8>>,
    pub h1_need_s0: Signal<In, Bits<8>>,
    pub h1_need_s1: Signal<In, Bits<8>>,
    pub h0_need_l: Signal<In, Bits<16>>,
    pub h1_need_l: Signal<In, Bits<16>>,
    pub rel_v0: Signal<In, Bits<16>>,
    pub rel_v1: Signal<In, Bits<16>>,
    pub rel_s0: Signal<In, Bits<8>>,
    pub rel_s1: Signal<In, Bits<8>>,
    pub rel_l: Signal<In, Bits<16>>,
    pub rel_w0: Signal<In, Bits<3>>,
    pub rel_w1: Signal<In, Bits<3>>,
    pub grant: Signal<Out, Bit>,
    pub head: Signal<Out, Bit>,
    pub vbase0: Signal<Out, Bits<4>>,
    pub vbase1: Signal<Out, Bits<4>>,
    pub sbase0: Signal<Out, Bits<3>>,
    pub sbase1: Signal<Out, Bits<3>>,
    pub lbase: Signal<Out, Bits<4>>,
    // state: per-unit VGPR / SGPR maps and wave counts, the LDS map, the outputs
    vmap: [UsedMap16; 2],
    smap: [UsedMap8; 2],
    wcnt: [WaveCount; 2],
    lmap: UsedMap16,
    outs: OutRegs,
    // cycle-t registers (the cut): [h * 2 + u] per unit, [h] per head
    p_wf: [DFF<Bit>; 2],
    p_q: [DFF<Bits<3>>; 4],
    p_tv: [DFF<Bits<16>>; 4],
    p_ts: [DFF<Bits<8>>; 4],
    p_tl: [DFF<Bits<16>>; 2],
    p_okv: [DFF<Bits<16>>; 4],
    p_oks: [DFF<Bits<8>>; 4],
    p_okl: [DFF<Bits<16>>; 2],
    // cycle t: fit test from the maps; [h * 2 + u] per unit, [h] per head
    okv: [OkVec16; 4],
    oks: [OkVec8; 4],
    okl: [OkVec16; 2],
    wf: [WaveFit; 4],
    // cycle t+1: first fit of both heads from the registered vectors
    ffv: [FirstFit16; 4],
    ffs: [FirstFit8; 4],
    ffl: [FirstFit16; 2],
    // views of the ports: [h * 2 + u] per unit, [h] per head
    hreq: [Signal<Local, Bit>; 2],
    tq: [Signal<Local, Bits<3>>; 4],
    tv: [Signal<Local, Bits<16>>; 4],
    ts: [Signal<Local, Bits<8>>; 4],
    tl: [Signal<Local, Bits<16>>; 2],
    rv: [Signal<Local, Bits<16>>; 2],
    rs: [Signal<Local, Bits<8>>; 2],
    rw: [Signal<Local, Bits<3>>; 2],
    fit: [Signal<Local, Bit>; 2],
    go0: Signal<Local, Bit>,
    go1: Signal<Local, Bit>,
}

impl Logic for Module1TwoHeadsSplit {
    #[hdl_gen]
    fn update(&mut self) {
        self.lmap.clock.next = self.clock.val();
        self.lmap.reset.next = self.reset.val();
        self.outs.clock.next = self.clock.val();
        self.outs.reset.next = self.reset.val();
        for u in 0..2 {
            self.vmap[u].clock.next = self.clock.val();
            self.vmap[u].reset.next = self.reset.val();
            self.smap[u].clock.next = self.clock.val();
            self.smap[u].reset.next = self.reset.val();
            self.wcnt[u].clock.next = self.clock.val();
            self.wcnt[u].reset.next = self.reset.val();
        }
        for h in 0..2 {
            self.p_wf[h].clock.next = self.clock.val();
            self.p_wf[h].d.next = self.p_wf[h].q.val();
            self.p_tl[h].clock.next = self.clock.val();
            self.p_tl[h].d.next = self.p_tl[h].q.val();
            self.p_okl[h].clock.next = self.clock.val();
            self.p_okl[h].d.next = self.p_okl[h].q.val();
        }
        for k in 0..4 {
            self.p_q[k].clock.next = self.clock.val();
            self.p_q[k].d.next = self.p_q[k].q.val();
            self.p_tv[k].clock.next = self.clock.val();
            self.p_tv[k].d.next = self.p_tv[k].q.val();
            self.p_ts[k].clock.next = self.clock.val();
            self.p_ts[k].d.next = self.p_ts[k].q.val();
            self.p_okv[k].clock.next = self.clock.val();
            self.p_okv[k].d.next = self.p_okv[k].q.val();
            self.p_oks[k].clock.next = self.clock.val();
            self.p_oks[k].d.next = self.p_oks[k].q.val();
        }
        self.grant.next = self.outs.grant.val();
        self.head.next = self.outs.head.val();
        self.vbase0.next = self.outs.vbase0.val();
        self.vbase1.next = self.outs.vbase1.val();
        self.sbase0.next = self.outs.sbase0.val();
        self.sbase1.next = self.outs.sbase1.val();
        self.lbase.next = self.outs.lbase.val();
        self.hreq[0].next = self.req0.val();
        self.hreq[1].next = self.req1.val();
        self.tq[0].next = self.h0_q0.val();
        self.tq[1].next = self.h0_q1.val();
        self.tq[2].next = self.h1_q0.val();
        self.tq[3].next = self.h1_q1.val();
        self.tv[0].next = self.h0_need_v0.val();
        self.tv[1].next = self.h0_need_v1.val();
        self.tv[2].next = self.h1_need_v0.val();
        self.tv[3].next = self.h1_need_v1.val();
        self.ts[0].next = self.h0_need_s0.val();
        self.ts[1].next = self.h0_need_s1.val();
        self.ts[2].next = self.h1_need_s0.val();
        self.ts[3].next = self.h1_need_s1.val();
        self.tl[0].next = self.h0_need_l.val();
        self.tl[1].next = self.h1_need_l.val();
        self.rv[0].next = self.rel_v0.val();
        self.rv[1].next = self.rel_v1.val();
        self.rs[0].next = self.rel_s0.val();
        self.rs[1].next = self.rel_s1.val();
        self.rw[0].next = self.rel_w0.val();
        self.rw[1].next = self.rel_w1.val();

        // ================= cycle t: ok vectors of both heads from the maps, registered ==========
        for h in 0..2 {
            for u in 0..2 {
                self.okv[h * 2 + u].used.next = self.vmap[u].map.val();
                self.okv[h * 2 + u].need.next = self.tv[h * 2 + u].val();
                self.p_okv[h * 2 + u].d.next = self.okv[h * 2 + u].ok.val();
                self.oks[h * 2 + u].used.next = self.smap[u].map.val();
                self.oks[h * 2 + u].need.next = self.ts[h * 2 + u].val();
                self.p_oks[h * 2 + u].d.next = self.oks[h * 2 + u].ok.val();
                self.wf[h * 2 + u].busy.next = self.wcnt[u].busy.val();
                self.wf[h * 2 + u].q.next = self.tq[h * 2 + u].val();
                self.p_q[h * 2 + u].d.next = self.tq[h * 2 + u].val();
                self.p_tv[h * 2 + u].d.next = self.tv[h * 2 + u].val();
                self.p_ts[h * 2 + u].d.next = self.ts[h * 2 + u].val();
            }
            self.okl[h].used.next = self.lmap.map.val();
            self.okl[h].need.next = self.tl[h].val();
            self.p_okl[h].d.next = self.okl[h].ok.val();
            self.p_tl[h].d.next = self.tl[h].val();
            self.p_wf[h].d.next =
                self.hreq[h].val() & self.wf[h * 2].fit.val() & self.wf[h * 2 + 1].fit.val();
            if self.reset.val() {
                self.p_wf[h].d.next = false;
            }
        }

        // ================= cycle t+1: any → fit → pick → first fit → update ====================
        for h in 0..2 {
            self.fit[h].next = self.p_wf[h].q.val()
                & self.p_okv[h * 2].q.val().any()
                & self.p_okv[h * 2 + 1].q.val().any()
                & self.p_oks[h * 2].q.val().any()
                & self.p_oks[h * 2 + 1].q.val().any()
                & self.p_okl[h].q.val().any();
            for u in 0..2 {
                self.ffv[h * 2 + u].ok.next = self.p_okv[h * 2 + u].q.val();
                self.ffv[h * 2 + u].need.next = self.p_tv[h * 2 + u].q.val();
                self.ffs[h * 2 + u].ok.next = self.p_oks[h * 2 + u].q.val();
                self.ffs[h * 2 + u].need.next = self.p_ts[h * 2 + u].q.val();
            }
            self.ffl[h].ok.next = self.p_okl[h].q.val();
            self.ffl[h].need.next = self.p_tl[h].q.val();
        }
        // module busy: the vectors read now predate a grant taken at the last edge
        self.go0.next = !self.outs.grant.val() & self.fit[0].val();
        self.go1.next = !self.outs.grant.val() & !self.fit[0].val() & self.fit[1].val();
        for u in 0..2 {
            self.vmap[u].take0.next = self.go0.val();
            self.vmap[u].add0.next = self.ffv[u].mask.val();
            self.vmap[u].take1.next = self.go1.val();
            self.vmap[u].add1.next = self.ffv[2 + u].mask.val();
            self.vmap[u].rel.next = self.rv[u].val();
            self.smap[u].take0.next = self.go0.val();
            self.smap[u].add0.next = self.ffs[u].mask.val();
            self.smap[u].take1.next = self.go1.val();
            self.smap[u].add1.next = self.ffs[2 + u].mask.val();
            self.smap[u].rel.next = self.rs[u].val();
            self.wcnt[u].take0.next = self.go0.val();
            self.wcnt[u].q0.next = self.p_q[u].q.val();
            self.wcnt[u].take1.next = self.go1.val();
            self.wcnt[u].q1.next = self.p_q[2 + u].q.val();
            self.wcnt[u].rel.next = self.rw[u].val();
        }
        self.lmap.take0.next = self.go0.val();
        self.lmap.add0.next = self.ffl[0].mask.val();
        self.lmap.take1.next = self.go1.val();
        self.lmap.add1.next = self.ffl[1].mask.val();
        self.lmap.rel.next = self.rel_l.val();
        self.outs.d_grant.next = self.go0.val() | self.go1.val();
        self.outs.d_head.next = self.go1.val();
        self.outs.d_vbase0.next = self.ffv[0].base.val();
        self.outs.d_vbase1.next = self.ffv[1].base.val();
        self.outs.d_sbase0.next = self.ffs[0].base.val();
        self.outs.d_sbase1.next = self.ffs[1].base.val();
        self.outs.d_lbase.next = self.ffl[0].base.val();
        if self.go1.val() {
            self.outs.d_vbase0.next = self.ffv[2].base.val();
            self.outs.d_vbase1.next = self.ffv[3].base.val();
            self.outs.d_sbase0.next = self.ffs[2].base.val();
            self.outs.d_sbase1.next = self.ffs[3].base.val();
            self.outs.d_lbase.next = self.ffl[1].base.val();
        }
    }
}

// ---------------------------------------------------------------------------------------------
// module1_2heads_split_b
// ---------------------------------------------------------------------------------------------

/// [`Module1TwoHeads`] cut later than [`Module1TwoHeadsSplit`]: cycle t registers, per head and
/// map, the *prefix mask* of the ok vector (`pm[i]` = some start ≤ i fits; its top bit is the
/// map's any bit) and each head's wave-slot test (with its request); cycle t+1 takes per-head fit
/// (AND of the registered top bits) → pick → region `pm & !pm[k − need]` (no priority chain left:
/// the prefix mask is monotone, so `pm[k − n]` = OR over d ≥ n of `pm[k − d]`, one AND-OR of the
/// thermometer) of both heads, selected by the pick → map update. No grant in the cycle after a
/// grant. Same ports and cycle behaviour as [`Module1TwoHeadsSplit`].
#[derive(LogicBlock, Default)]
pub struct Module1TwoHeadsSplitB {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub req0: Signal<In, Bit>,
    pub req1: Signal<In, Bit>,
    pub h0_q0: Signal<In, Bits<3>>,
    pub h0_q1: Signal<In, Bits<3>>,
    pub h1_q0: Signal<In, Bits<3>>,
    pub h1_q1: Signal<In, Bits<3>>,
    pub h0_need_v0: Signal<In, Bits<16>>,
    pub h0_need_v1: Signal<In, Bits<16>>,
    pub h1_need_v0: Signal<In, Bits<16>>,
    pub h1_need_v1: Signal<In, Bits<16>>,
    pub h0_need_s0: Signal<In, Bits<8>>,
    pub h0_need_s1: Signal<In, Bits<8>>,
    pub h1_need_s0: Signal<In, Bits<8>>,
    pub h1_need_s1: Signal<In, Bits<8>>,
    pub h0_need_l: Signal<In, Bits<16>>,
    pub h1_need_l: Signal<In, Bits<16>>,
    pub rel_v0: Signal<In, Bits<16>>,
    pub rel_v1: Signal<In, Bits<16>>,
    pub rel_s0: Signal<In, Bits<8>>,
    pub rel_s1: Signal<In, Bits<8>>,
    pub rel_l: Signal<In, Bits<16>>,
    pub rel_w0: Signal<In, Bits<3>>,
    pub rel_w1: Signal<In, Bits<3>>,
    pub grant: Signal<Out, Bit>,
    pub head: Signal<Out, Bit>,
    pub vbase0: Signal<Out, Bits<4>>,
    pub vbase1: Signal<Out, Bits<4>>,
    pub sbase0: Signal<Out, Bits<3>>,
    pub sbase1: Signal<Out, Bits<3>>,
    pub lbase: Signal<Out, Bits<4>>,
    // state: per-unit VGPR / SGPR maps and wave counts, the LDS map, the outputs
    vmap: [UsedMap16; 2],
    smap: [UsedMap8; 2],
    wcnt: [WaveCount; 2],
    lmap: UsedMap16,
    outs: OutRegs,
    // cycle-t registers (the cut): [h * 2 + u] per unit, [h] per head
    p_wf: [DFF<Bit>; 2],
    p_q: [DFF<Bits<3>>; 4],
    p_tv: [DFF<Bits<16>>; 4],
    p_ts: [DFF<Bits<8>>; 4],
    p_tl: [DFF<Bits<16>>; 2],
    p_pv: [DFF<Bits<16>>; 4],
    p_ps: [DFF<Bits<8>>; 4],
    p_pl: [DFF<Bits<16>>; 2],
    // cycle t: fit test from the maps and prefix masks; [h * 2 + u] per unit, [h] per head
    okv: [OkVec16; 4],
    oks: [OkVec8; 4],
    okl: [OkVec16; 2],
    wf: [WaveFit; 4],
    pfv: [Prefix16; 4],
    pfs: [Prefix8; 4],
    pfl: [Prefix16; 2],
    // cycle t+1: first-fit regions of both heads from the registered prefix masks
    rgv: [Region16; 4],
    rgs: [Region8; 4],
    rgl: [Region16; 2],
    // views of the ports: [h * 2 + u] per unit, [h] per head
    hreq: [Signal<Local, Bit>; 2],
    tq: [Signal<Local, Bits<3>>; 4],
    tv: [Signal<Local, Bits<16>>; 4],
    ts: [Signal<Local, Bits<8>>; 4],
    tl: [Signal<Local, Bits<16>>; 2],
    rv: [Signal<Local, Bits<16>>; 2],
    rs: [Signal<Local, Bits<8>>; 2],
    rw: [Signal<Local, Bits<3>>; 2],
    fit: [Signal<Local, Bit>; 2],
    go0: Signal<Local, Bit>,
    go1: Signal<Local, Bit>,
}

impl Logic for Module1TwoHeadsSplitB {
    #[hdl_gen]
    fn update(&mut self) {
        self.lmap.clock.next = self.clock.val();
        self.lmap.reset.next = self.reset.val();
        self.outs.clock.next = self.clock.val();
        self.outs.reset.next = self.reset.val();
        for u in 0..2 {
            self.vmap[u].clock.next = self.clock.val();
            self.vmap[u].reset.next = self.reset.val();
            self.smap[u].clock.next = self.clock.val();
            self.smap[u].reset.next = self.reset.val();
            self.wcnt[u].clock.next = self.clock.val();
            self.wcnt[u].reset.next = self.reset.val();
        }
        for h in 0..2 {
            self.p_wf[h].clock.next = self.clock.val();
            self.p_wf[h].d.next = self.p_wf[h].q.val();
            self.p_tl[h].clock.next = self.clock.val();
            self.p_tl[h].d.next = self.p_tl[h].q.val();
            self.p_pl[h].clock.next = self.clock.val();
            self.p_pl[h].d.next = self.p_pl[h].q.val();
        }
        for k in 0..4 {
            self.p_q[k].clock.next = self.clock.val();
            self.p_q[k].d.next = self.p_q[k].q.val();
            self.p_tv[k].clock.next = self.clock.val();
            self.p_tv[k].d.next = self.p_tv[k].q.val();
            self.p_ts[k].clock.next = self.clock.val();
            self.p_ts[k].d.next = self.p_ts[k].q.val();
            self.p_pv[k].clock.next = self.clock.val();
            self.p_pv[k].d.next = self.p_pv[k].q.val();
            self.p_ps[k].clock.next = self.clock.val();
            self.p_ps[k].d.next = self.p_ps[k].q.val();
        }
        self.grant.next = self.outs.grant.val();
        self.head.next = self.outs.head.val();
        self.vbase0.next = self.outs.vbase0.val();
        self.vbase1.next = self.outs.vbase1.val();
        self.sbase0.next = self.outs.sbase0.val();
        self.sbase1.next = self.outs.sbase1.val();
        self.lbase.next = self.outs.lbase.val();
        self.hreq[0].next = self.req0.val();
        self.hreq[1].next = self.req1.val();
        self.tq[0].next = self.h0_q0.val();
        self.tq[1].next = self.h0_q1.val();
        self.tq[2].next = self.h1_q0.val();
        self.tq[3].next = self.h1_q1.val();
        self.tv[0].next = self.h0_need_v0.val();
        self.tv[1].next = self.h0_need_v1.val();
        self.tv[2].next = self.h1_need_v0.val();
        self.tv[3].next = self.h1_need_v1.val();
        self.ts[0].next = self.h0_need_s0.val();
        self.ts[1].next = self.h0_need_s1.val();
        self.ts[2].next = self.h1_need_s0.val();
        self.ts[3].next = self.h1_need_s1.val();
        self.tl[0].next = self.h0_need_l.val();
        self.tl[1].next = self.h1_need_l.val();
        self.rv[0].next = self.rel_v0.val();
        self.rv[1].next = self.rel_v1.val();
        self.rs[0].next = self.rel_s0.val();
        self.rs[1].next = self.rel_s1.val();
        self.rw[0].next = self.rel_w0.val();
        self.rw[1].next = self.rel_w1.val();

        // ================= cycle t: prefix masks of both heads from the maps, registered =========
        for h in 0..2 {
            for u in 0..2 {
                self.okv[h * 2 + u].used.next = self.vmap[u].map.val();
                self.okv[h * 2 + u].need.next = self.tv[h * 2 + u].val();
                self.pfv[h * 2 + u].ok.next = self.okv[h * 2 + u].ok.val();
                self.p_pv[h * 2 + u].d.next = self.pfv[h * 2 + u].pm.val();
                self.oks[h * 2 + u].used.next = self.smap[u].map.val();
                self.oks[h * 2 + u].need.next = self.ts[h * 2 + u].val();
                self.pfs[h * 2 + u].ok.next = self.oks[h * 2 + u].ok.val();
                self.p_ps[h * 2 + u].d.next = self.pfs[h * 2 + u].pm.val();
                self.wf[h * 2 + u].busy.next = self.wcnt[u].busy.val();
                self.wf[h * 2 + u].q.next = self.tq[h * 2 + u].val();
                self.p_q[h * 2 + u].d.next = self.tq[h * 2 + u].val();
                self.p_tv[h * 2 + u].d.next = self.tv[h * 2 + u].val();
                self.p_ts[h * 2 + u].d.next = self.ts[h * 2 + u].val();
            }
            self.okl[h].used.next = self.lmap.map.val();
            self.okl[h].need.next = self.tl[h].val();
            self.pfl[h].ok.next = self.okl[h].ok.val();
            self.p_pl[h].d.next = self.pfl[h].pm.val();
            self.p_tl[h].d.next = self.tl[h].val();
            self.p_wf[h].d.next =
                self.hreq[h].val() & self.wf[h * 2].fit.val() & self.wf[h * 2 + 1].fit.val();
            if self.reset.val() {
                self.p_wf[h].d.next = false;
            }
        }

        // ================= cycle t+1: fit → pick → regions → update ===========================
        for h in 0..2 {
            self.fit[h].next = self.p_wf[h].q.val()
                & self.p_pv[h * 2].q.val().get_bit(15)
                & self.p_pv[h * 2 + 1].q.val().get_bit(15)
                & self.p_ps[h * 2].q.val().get_bit(7)
                & self.p_ps[h * 2 + 1].q.val().get_bit(7)
                & self.p_pl[h].q.val().get_bit(15);
            for u in 0..2 {
                self.rgv[h * 2 + u].pm.next = self.p_pv[h * 2 + u].q.val();
                self.rgv[h * 2 + u].need.next = self.p_tv[h * 2 + u].q.val();
                self.rgs[h * 2 + u].pm.next = self.p_ps[h * 2 + u].q.val();
                self.rgs[h * 2 + u].need.next = self.p_ts[h * 2 + u].q.val();
            }
            self.rgl[h].pm.next = self.p_pl[h].q.val();
            self.rgl[h].need.next = self.p_tl[h].q.val();
        }
        // module busy: the masks read now predate a grant taken at the last edge
        self.go0.next = !self.outs.grant.val() & self.fit[0].val();
        self.go1.next = !self.outs.grant.val() & !self.fit[0].val() & self.fit[1].val();
        for u in 0..2 {
            self.vmap[u].take0.next = self.go0.val();
            self.vmap[u].add0.next = self.rgv[u].mask.val();
            self.vmap[u].take1.next = self.go1.val();
            self.vmap[u].add1.next = self.rgv[2 + u].mask.val();
            self.vmap[u].rel.next = self.rv[u].val();
            self.smap[u].take0.next = self.go0.val();
            self.smap[u].add0.next = self.rgs[u].mask.val();
            self.smap[u].take1.next = self.go1.val();
            self.smap[u].add1.next = self.rgs[2 + u].mask.val();
            self.smap[u].rel.next = self.rs[u].val();
            self.wcnt[u].take0.next = self.go0.val();
            self.wcnt[u].q0.next = self.p_q[u].q.val();
            self.wcnt[u].take1.next = self.go1.val();
            self.wcnt[u].q1.next = self.p_q[2 + u].q.val();
            self.wcnt[u].rel.next = self.rw[u].val();
        }
        self.lmap.take0.next = self.go0.val();
        self.lmap.add0.next = self.rgl[0].mask.val();
        self.lmap.take1.next = self.go1.val();
        self.lmap.add1.next = self.rgl[1].mask.val();
        self.lmap.rel.next = self.rel_l.val();
        self.outs.d_grant.next = self.go0.val() | self.go1.val();
        self.outs.d_head.next = self.go1.val();
        self.outs.d_vbase0.next = self.rgv[0].base.val();
        self.outs.d_vbase1.next = self.rgv[1].base.val();
        self.outs.d_sbase0.next = self.rgs[0].base.val();
        self.outs.d_sbase1.next = self.rgs[1].base.val();
        self.outs.d_lbase.next = self.rgl[0].base.val();
        if self.go1.val() {
            self.outs.d_vbase0.next = self.rgv[2].base.val();
            self.outs.d_vbase1.next = self.rgv[3].base.val();
            self.outs.d_sbase0.next = self.rgs[2].base.val();
            self.outs.d_sbase1.next = self.rgs[3].base.val();
            self.outs.d_lbase.next = self.rgl[1].base.val();
        }
    }
}

// ---------------------------------------------------------------------------------------------
// module1_2heads_split_c
// ---------------------------------------------------------------------------------------------

/// [`Module1TwoHeadsSplitB`] with the map update moved across the cut: the granted regions are
/// registered as they are (`pend_*`, zero without a grant), not merged into the maps; cycle t reads
/// the maps as `used | pend` (one more input per term of the ok vector's first LUT level, no more
/// levels) and merges `pend` into `used` at its edge. Cycle t+1 ends at the pick's select of the
/// two heads' regions. Same ports and cycle behaviour as [`Module1TwoHeadsSplit`].
#[derive(LogicBlock, Default)]
pub struct Module1TwoHeadsSplitC {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub req0: Signal<In, Bit>,
    pub req1: Signal<In, Bit>,
    pub h0_q0: Signal<In, Bits<3>>,
    pub h0_q1: Signal<In, Bits<3>>,
    pub h1_q0: Signal<In, Bits<3>>,
    pub h1_q1: Signal<In, Bits<3>>,
    pub h0_need_v0: Signal<In, Bits<16>>,
    pub h0_need_v1: Signal<In, Bits<16>>,
    pub h1_need_v0: Signal<In, Bits<16>>,
    pub h1_need_v1: Signal<In, Bits<16>>,
    pub h0_need_s0: Signal<In, Bits<8>>,
    pub h0_need_s1: Signal<In, Bits<8>>,
    pub h1_need_s0: Signal<In, Bits<8>>,
    pub h1_need_s1: Signal<In, Bits<8>>,
    pub h0_need_l: Signal<In, Bits<16>>,
    pub h1_need_l: Signal<In, Bits<16>>,
    pub rel_v0: Signal<In, Bits<16>>,
    pub rel_v1: Signal<In, Bits<16>>,
    pub rel_s0: Signal<In, Bits<8>>,
    pub rel_s1: Signal<In, Bits<8>>,
    pub rel_l: Signal<In, Bits<16>>,
    pub rel_w0: Signal<In, Bits<3>>,
    pub rel_w1: Signal<In, Bits<3>>,
    pub grant: Signal<Out, Bit>,
    pub head: Signal<Out, Bit>,
    pub vbase0: Signal<Out, Bits<4>>,
    pub vbase1: Signal<Out, Bits<4>>,
    pub sbase0: Signal<Out, Bits<3>>,
    pub sbase1: Signal<Out, Bits<3>>,
    pub lbase: Signal<Out, Bits<4>>,
    // state: per-unit VGPR / SGPR maps and wave counts, the LDS map, the outputs
    vmap: [UsedMap16; 2],
    smap: [UsedMap8; 2],
    wcnt: [WaveCount; 2],
    lmap: UsedMap16,
    outs: OutRegs,
    // the regions granted at the last edge, not yet in the used maps
    pend_v: [DFF<Bits<16>>; 2],
    pend_s: [DFF<Bits<8>>; 2],
    pend_l: DFF<Bits<16>>,
    // cycle-t registers (the cut): [h * 2 + u] per unit, [h] per head
    p_wf: [DFF<Bit>; 2],
    p_q: [DFF<Bits<3>>; 4],
    p_tv: [DFF<Bits<16>>; 4],
    p_ts: [DFF<Bits<8>>; 4],
    p_tl: [DFF<Bits<16>>; 2],
    p_pv: [DFF<Bits<16>>; 4],
    p_ps: [DFF<Bits<8>>; 4],
    p_pl: [DFF<Bits<16>>; 2],
    // cycle t: fit test from the maps and prefix masks; [h * 2 + u] per unit, [h] per head
    okv: [OkVec16; 4],
    oks: [OkVec8; 4],
    okl: [OkVec16; 2],
    wf: [WaveFit; 4],
    pfv: [Prefix16; 4],
    pfs: [Prefix8; 4],
    pfl: [Prefix16; 2],
    // cycle t+1: first-fit regions of both heads from the registered prefix masks
    rgv: [Region16; 4],
    rgs: [Region8; 4],
    rgl: [Region16; 2],
    // views of the ports: [h * 2 + u] per unit, [h] per head
    hreq: [Signal<Local, Bit>; 2],
    tq: [Signal<Local, Bits<3>>; 4],
    tv: [Signal<Local, Bits<16>>; 4],
    ts: [Signal<Local, Bits<8>>; 4],
    tl: [Signal<Local, Bits<16>>; 2],
    rv: [Signal<Local, Bits<16>>; 2],
    rs: [Signal<Local, Bits<8>>; 2],
    rw: [Signal<Local, Bits<3>>; 2],
    // the maps as cycle t sees them: used | pend
    ev: [Signal<Local, Bits<16>>; 2],
    es: [Signal<Local, Bits<8>>; 2],
    el: Signal<Local, Bits<16>>,
    fit: [Signal<Local, Bit>; 2],
    go0: Signal<Local, Bit>,
    go1: Signal<Local, Bit>,
}

impl Logic for Module1TwoHeadsSplitC {
    #[hdl_gen]
    fn update(&mut self) {
        self.lmap.clock.next = self.clock.val();
        self.lmap.reset.next = self.reset.val();
        self.outs.clock.next = self.clock.val();
        self.outs.reset.next = self.reset.val();
        for u in 0..2 {
            self.vmap[u].clock.next = self.clock.val();
            self.vmap[u].reset.next = self.reset.val();
            self.smap[u].clock.next = self.clock.val();
            self.smap[u].reset.next = self.reset.val();
            self.wcnt[u].clock.next = self.clock.val();
            self.wcnt[u].reset.next = self.reset.val();
        }
        self.pend_l.clock.next = self.clock.val();
        for u in 0..2 {
            self.pend_v[u].clock.next = self.clock.val();
            self.pend_s[u].clock.next = self.clock.val();
            self.ev[u].next = self.vmap[u].map.val() | self.pend_v[u].q.val();
            self.es[u].next = self.smap[u].map.val() | self.pend_s[u].q.val();
        }
        self.el.next = self.lmap.map.val() | self.pend_l.q.val();
        for h in 0..2 {
            self.p_wf[h].clock.next = self.clock.val();
            self.p_wf[h].d.next = self.p_wf[h].q.val();
            self.p_tl[h].clock.next = self.clock.val();
            self.p_tl[h].d.next = self.p_tl[h].q.val();
            self.p_pl[h].clock.next = self.clock.val();
            self.p_pl[h].d.next = self.p_pl[h].q.val();
        }
        for k in 0..4 {
            self.p_q[k].clock.next = self.clock.val();
            self.p_q[k].d.next = self.p_q[k].q.val();
            self.p_tv[k].clock.next = self.clock.val();
            self.p_tv[k].d.next = self.p_tv[k].q.val();
            self.p_ts[k].clock.next = self.clock.val();
            self.p_ts[k].d.next = self.p_ts[k].q.val();
            self.p_pv[k].clock.next = self.clock.val();
            self.p_pv[k].d.next = self.p_pv[k].q.val();
            self.p_ps[k].clock.next = self.clock.val();
            self.p_ps[k].d.next = self.p_ps[k].q.val();
        }
        self.grant.next = self.outs.grant.val();
        self.head.next = self.outs.head.val();
        self.vbase0.next = self.outs.vbase0.val();
        self.vbase1.next = self.outs.vbase1.val();
        self.sbase0.next = self.outs.sbase0.val();
        self.sbase1.next = self.outs.sbase1.val();
        self.lbase.next = self.outs.lbase.val();
        self.hreq[0].next = self.req0.val();
        self.hreq[1].next = self.req1.val();
        self.tq[0].next = self.h0_q0.val();
        self.tq[1].next = self.h0_q1.val();
        self.tq[2].next = self.h1_q0.val();
        self.tq[3].next = self.h1_q1.val();
        self.tv[0].next = self.h0_need_v0.val();
        self.tv[1].next = self.h0_need_v1.val();
        self.tv[2].next = self.h1_need_v0.val();
        self.tv[3].next = self.h1_need_v1.val();
        self.ts[0].next = self.h0_need_s0.val();
        self.ts[1].next = self.h0_need_s1.val();
        self.ts[2].next = self.h1_need_s0.val();
        self.ts[3].next = self.h1_need_s1.val();
        self.tl[0].next = self.h0_need_l.val();
        self.tl[1].next = self.h1_need_l.val();
        self.rv[0].next = self.rel_v0.val();
        self.rv[1].next = self.rel_v1.val();
        self.rs[0].next = self.rel_s0.val();
        self.rs[1].next = self.rel_s1.val();
        self.rw[0].next = self.rel_w0.val();
        self.rw[1].next = self.rel_w1.val();

        // ================= cycle t: prefix masks of both heads from the maps, registered =========
        for h in 0..2 {
            for u in 0..2 {
                self.okv[h * 2 + u].used.next = self.ev[u].val();
                self.okv[h * 2 + u].need.next = self.tv[h * 2 + u].val();
                self.pfv[h * 2 + u].ok.next = self.okv[h * 2 + u].ok.val();
                self.p_pv[h * 2 + u].d.next = self.pfv[h * 2 + u].pm.val();
                self.oks[h * 2 + u].used.next = self.es[u].val();
                self.oks[h * 2 + u].need.next = self.ts[h * 2 + u].val();
                self.pfs[h * 2 + u].ok.next = self.oks[h * 2 + u].ok.val();
                self.p_ps[h * 2 + u].d.next = self.pfs[h * 2 + u].pm.val();
                self.wf[h * 2 + u].busy.next = self.wcnt[u].busy.val();
                self.wf[h * 2 + u].q.next = self.tq[h * 2 + u].val();
                self.p_q[h * 2 + u].d.next = self.tq[h * 2 + u].val();
                self.p_tv[h * 2 + u].d.next = self.tv[h * 2 + u].val();
                self.p_ts[h * 2 + u].d.next = self.ts[h * 2 + u].val();
            }
            self.okl[h].used.next = self.el.val();
            self.okl[h].need.next = self.tl[h].val();
            self.pfl[h].ok.next = self.okl[h].ok.val();
            self.p_pl[h].d.next = self.pfl[h].pm.val();
            self.p_tl[h].d.next = self.tl[h].val();
            self.p_wf[h].d.next =
                self.hreq[h].val() & self.wf[h * 2].fit.val() & self.wf[h * 2 + 1].fit.val();
            if self.reset.val() {
                self.p_wf[h].d.next = false;
            }
        }

        // ================= cycle t+1: fit → pick → regions → update ===========================
        for h in 0..2 {
            self.fit[h].next = self.p_wf[h].q.val()
                & self.p_pv[h * 2].q.val().get_bit(15)
                & self.p_pv[h * 2 + 1].q.val().get_bit(15)
                & self.p_ps[h * 2].q.val().get_bit(7)
                & self.p_ps[h * 2 + 1].q.val().get_bit(7)
                & self.p_pl[h].q.val().get_bit(15);
            for u in 0..2 {
                self.rgv[h * 2 + u].pm.next = self.p_pv[h * 2 + u].q.val();
                self.rgv[h * 2 + u].need.next = self.p_tv[h * 2 + u].q.val();
                self.rgs[h * 2 + u].pm.next = self.p_ps[h * 2 + u].q.val();
                self.rgs[h * 2 + u].need.next = self.p_ts[h * 2 + u].q.val();
            }
            self.rgl[h].pm.next = self.p_pl[h].q.val();
            self.rgl[h].need.next = self.p_tl[h].q.val();
        }
        // module busy: the masks read now predate a grant taken at the last edge
        self.go0.next = !self.outs.grant.val() & self.fit[0].val();
        self.go1.next = !self.outs.grant.val() & !self.fit[0].val() & self.fit[1].val();
        // pend merges into the maps, releases free; the grant's regions (into pend) and waves
        for u in 0..2 {
            self.vmap[u].take0.next = true;
            self.vmap[u].add0.next = self.pend_v[u].q.val();
            self.vmap[u].take1.next = false;
            self.vmap[u].add1.next = 0.into();
            self.vmap[u].rel.next = self.rv[u].val();
            self.smap[u].take0.next = true;
            self.smap[u].add0.next = self.pend_s[u].q.val();
            self.smap[u].take1.next = false;
            self.smap[u].add1.next = 0.into();
            self.smap[u].rel.next = self.rs[u].val();
            self.wcnt[u].take0.next = self.go0.val();
            self.wcnt[u].q0.next = self.p_q[u].q.val();
            self.wcnt[u].take1.next = self.go1.val();
            self.wcnt[u].q1.next = self.p_q[2 + u].q.val();
            self.wcnt[u].rel.next = self.rw[u].val();
        }
        self.lmap.take0.next = true;
        self.lmap.add0.next = self.pend_l.q.val();
        self.lmap.take1.next = false;
        self.lmap.add1.next = 0.into();
        self.lmap.rel.next = self.rel_l.val();
        self.pend_l.d.next = 0.into();
        for u in 0..2 {
            self.pend_v[u].d.next = 0.into();
            self.pend_s[u].d.next = 0.into();
        }
        if self.go0.val() {
            self.pend_l.d.next = self.rgl[0].mask.val();
            for u in 0..2 {
                self.pend_v[u].d.next = self.rgv[u].mask.val();
                self.pend_s[u].d.next = self.rgs[u].mask.val();
            }
        }
        if self.go1.val() {
            self.pend_l.d.next = self.rgl[1].mask.val();
            for u in 0..2 {
                self.pend_v[u].d.next = self.rgv[2 + u].mask.val();
                self.pend_s[u].d.next = self.rgs[2 + u].mask.val();
            }
        }
        if self.reset.val() {
            self.pend_l.d.next = 0.into();
            for u in 0..2 {
                self.pend_v[u].d.next = 0.into();
                self.pend_s[u].d.next = 0.into();
            }
        }
        self.outs.d_grant.next = self.go0.val() | self.go1.val();
        self.outs.d_head.next = self.go1.val();
        self.outs.d_vbase0.next = self.rgv[0].base.val();
        self.outs.d_vbase1.next = self.rgv[1].base.val();
        self.outs.d_sbase0.next = self.rgs[0].base.val();
        self.outs.d_sbase1.next = self.rgs[1].base.val();
        self.outs.d_lbase.next = self.rgl[0].base.val();
        if self.go1.val() {
            self.outs.d_vbase0.next = self.rgv[2].base.val();
            self.outs.d_vbase1.next = self.rgv[3].base.val();
            self.outs.d_sbase0.next = self.rgs[2].base.val();
            self.outs.d_sbase1.next = self.rgs[3].base.val();
            self.outs.d_lbase.next = self.rgl[1].base.val();
        }
    }
}

// ---------------------------------------------------------------------------------------------
// measurement
// ---------------------------------------------------------------------------------------------

/// One micro-design: name, Verilog (module `top`), cycles of the loop per dispatch per module.
pub struct Design {
    pub name: &'static str,
    pub verilog: String,
    pub loop_cycles: u32,
}

/// The micro-designs, in table order.
pub fn designs() -> Vec<Design> {
    use crate::run_finder::verilog_of;
    vec![
        Design {
            name: "map1",
            verilog: verilog_of::<Map1>(),
            loop_cycles: 1,
        },
        Design {
            name: "module1",
            verilog: verilog_of::<Module1>(),
            loop_cycles: 1,
        },
        Design {
            name: "module1_2heads",
            verilog: verilog_of::<Module1TwoHeads>(),
            loop_cycles: 1,
        },
        Design {
            name: "module1_split",
            verilog: verilog_of::<Module1Split>(),
            loop_cycles: 2,
        },
        Design {
            name: "module1_2heads_split",
            verilog: verilog_of::<Module1TwoHeadsSplit>(),
            loop_cycles: 2,
        },
        Design {
            name: "module1_2heads_split_b",
            verilog: verilog_of::<Module1TwoHeadsSplitB>(),
            loop_cycles: 2,
        },
        Design {
            name: "module1_2heads_split_c",
            verilog: verilog_of::<Module1TwoHeadsSplitC>(),
            loop_cycles: 2,
        },
    ]
}

/// Summary of the clock domain's critical path in a nextpnr log (the last report, i.e. after
/// routing): LUT levels (the LUTs after the launching flip-flop, counting the LUT packed with the
/// capturing flip-flop, whose delay nextpnr reports as the setup time, unless that LC is a bare
/// flip-flop `…DFFLC`), carry cells, logic and routing delay in ns.
#[derive(Clone, Debug, PartialEq)]
pub struct CritPath {
    pub luts: usize,
    pub carries: usize,
    pub logic_ns: f64,
    pub routing_ns: f64,
}

/// Parse the last `posedge -> posedge` critical path report of a nextpnr-ice40 log.
pub fn critical_path(log: &str) -> Option<CritPath> {
    let start = log.rfind("(posedge -> posedge):")?;
    let body = &log[start..];
    let mut sources = 0usize;
    let mut carries = 0usize;
    let mut d_lut = 0usize;
    for line in body.lines().skip(1) {
        let t = line.trim_start_matches("Info:").trim();
        if let Some((logic, rest)) = t.split_once(" ns logic, ") {
            let routing = rest.split_whitespace().next()?;
            return Some(CritPath {
                luts: sources.saturating_sub(1) - carries + d_lut,
                carries,
                logic_ns: logic.trim().parse().ok()?,
                routing_ns: routing.parse().ok()?,
            });
        }
        let w: Vec<&str> = t.split_whitespace().collect();
        if w.len() >= 4 && w[2] == "Setup" {
            let sink = w[3];
            let lut_input = ["_LC.I0", "_LC.I1", "_LC.I2", "_LC.I3"]
                .iter()
                .any(|p| sink.ends_with(p));
            d_lut = usize::from(lut_input && !sink.contains("DFFLC"));
        }
        if w.len() >= 3 && w[2] == "Source" {
            sources += 1;
            if sources > 1 && w.get(3).is_some_and(|c| c.contains("$CARRY")) {
                carries += 1;
            }
        }
    }
    None
}

/// Check every design with yosys (`hierarchy -check; proc`: no latches, no undriven or implicit
/// wires), write `out/<design>.v`, synthesize each alone for the HX8K at `target_mhz` with one
/// place and route per seed, write `out/alloc_floor.md` and return the Markdown table.
pub fn run(out: &Path, seeds: &[u64], target_mhz: f64) -> Result<String> {
    std::fs::create_dir_all(out)?;
    let work = out.join("synth");
    let mut md = String::from(
        "| design | LCs (of 7680) | Fmax per seed (MHz) | median Fmax (MHz) | loop cycles per dispatch per module | critical path (first seed) |\n|---|---:|---|---:|---:|---|\n",
    );
    let mut failed = vec![];
    for d in designs() {
        yosys_validate(&format!("alloc_floor_{}", d.name), &d.verilog)
            .map_err(|e| anyhow!("{}: yosys check failed: {e:?}", d.name))?;
        std::fs::write(out.join(format!("{}.v", d.name)), &d.verilog)?;
        eprintln!("synthesizing {} ...", d.name);
        match crate::flow::synthesize_seeds(d.name, &d.verilog, &work, target_mhz, seeds) {
            Ok(r) => {
                eprintln!("  {} LCs, median {:.1} MHz", r.lcs, r.fmax_mhz);
                let log = std::fs::read_to_string(work.join(d.name).join("nextpnr.log"))?;
                let cp = critical_path(&log)
                    .map(|c| {
                        format!(
                            "{} LUT levels, {} carry cells, {:.1} ns logic + {:.1} ns routing",
                            c.luts, c.carries, c.logic_ns, c.routing_ns
                        )
                    })
                    .unwrap_or_else(|| "(no report)".into());
                let _ = writeln!(
                    md,
                    "| {} | {} | {} | {:.1} | {} | {} |",
                    d.name,
                    r.lcs,
                    r.fmax_by_seed_text(),
                    r.fmax_mhz,
                    d.loop_cycles,
                    cp
                );
            }
            Err(e) => {
                eprintln!("  FAILED: {e:#}");
                let _ = writeln!(
                    md,
                    "| {} | FAILED: {} | | | {} | |",
                    d.name,
                    format!("{e:#}").lines().next().unwrap_or(""),
                    d.loop_cycles
                );
                failed.push(d.name);
            }
        }
    }
    let _ = write!(
        md,
        "\nyosys `synth_ice40` + nextpnr-ice40 `--hx8k --package cb132 --freq {target_mhz}`, each design alone in the flow's harness (every port registered: only register-to-register paths count; LCs include the harness).\n"
    );
    std::fs::write(out.join("alloc_floor.md"), &md)?;
    anyhow::ensure!(
        failed.is_empty(),
        "the iCE40 flow failed for: {} (table with the FAILED rows in {})",
        failed.join(", "),
        out.join("alloc_floor.md").display()
    );
    Ok(md)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One clock cycle of any design: `drive` sets the inputs (clock low), then the edge.
    fn clk<B: Block>(
        b: &mut B,
        clock: fn(&mut B) -> &mut Signal<In, Clock>,
        drive: impl Fn(&mut B),
    ) {
        fn settle<B: Block>(b: &mut B) {
            for _ in 0..100 {
                b.update_all();
                if !b.has_changed() {
                    return;
                }
            }
            panic!("did not settle");
        }
        drive(b);
        clock(b).next = Clock { clk: false };
        settle(b);
        clock(b).next = Clock { clk: true };
        settle(b);
    }

    /// A design, connected and checked.
    fn fresh<B: Block + Default>() -> B {
        let mut b = B::default();
        b.connect_all();
        check_all(&b).unwrap();
        b
    }

    fn thermo(n: u32) -> u32 {
        (1u32 << n) - 1
    }

    /// The registered bases of a module design: [vbase0, vbase1, sbase0, sbase1, lbase].
    macro_rules! bases {
        ($m:expr) => {
            [
                $m.vbase0.val().index(),
                $m.vbase1.val().index(),
                $m.sbase0.val().index(),
                $m.sbase1.val().index(),
                $m.lbase.val().index(),
            ]
        };
    }

    /// Drive every input of a two-head design (all have the same ports) from `v`: reset, req0,
    /// req1, h0_q0, h0_q1, h1_q0, h1_q1, h0/h0/h1/h1 VGPR needs (unit 0, 1), the same for SGPR,
    /// h0 / h1 LDS needs, rel_v0, rel_v1, rel_s0, rel_s1, rel_l, rel_w0, rel_w1.
    macro_rules! drive_two_heads {
        ($m:expr, $v:expr) => {{
            let (m, v): (_, &[u64; 24]) = ($m, $v);
            m.reset.next = v[0] != 0;
            m.req0.next = v[1] != 0;
            m.req1.next = v[2] != 0;
            m.h0_q0.next = v[3].to_bits();
            m.h0_q1.next = v[4].to_bits();
            m.h1_q0.next = v[5].to_bits();
            m.h1_q1.next = v[6].to_bits();
            m.h0_need_v0.next = v[7].to_bits();
            m.h0_need_v1.next = v[8].to_bits();
            m.h1_need_v0.next = v[9].to_bits();
            m.h1_need_v1.next = v[10].to_bits();
            m.h0_need_s0.next = v[11].to_bits();
            m.h0_need_s1.next = v[12].to_bits();
            m.h1_need_s0.next = v[13].to_bits();
            m.h1_need_s1.next = v[14].to_bits();
            m.h0_need_l.next = v[15].to_bits();
            m.h1_need_l.next = v[16].to_bits();
            m.rel_v0.next = v[17].to_bits();
            m.rel_v1.next = v[18].to_bits();
            m.rel_s0.next = v[19].to_bits();
            m.rel_s1.next = v[20].to_bits();
            m.rel_l.next = v[21].to_bits();
            m.rel_w0.next = v[22].to_bits();
            m.rel_w1.next = v[23].to_bits();
        }};
    }

    /// One cycle of a two-head design with inputs `v` (see [`drive_two_heads`]); returns the
    /// registered (grant, head, bases) after the edge.
    macro_rules! step_two_heads {
        ($m:expr, $v:expr) => {{
            let (m, v): (_, &[u64; 24]) = ($m, $v);
            clk(m, |m| &mut m.clock, |m| drive_two_heads!(m, v));
            (m.grant.val(), m.head.val(), bases!(m))
        }};
    }

    /// Inputs of a two-head request, both heads requesting with one wave per unit; needs as
    /// counts: VGPR of h0 unit 0 / 1, h1 unit 0 / 1, the same for SGPR, LDS of h0 / h1.
    fn two_heads_req(v: [u32; 4], s: [u32; 4], l: [u32; 2]) -> [u64; 24] {
        let mut x = [0u64; 24];
        x[1..7].fill(1);
        for k in 0..4 {
            x[7 + k] = thermo(v[k]).into();
            x[11 + k] = thermo(s[k]).into();
        }
        x[15] = thermo(l[0]).into();
        x[16] = thermo(l[1]).into();
        x
    }

    #[test]
    fn map1_first_fit_and_release() {
        let mut m1: Map1 = fresh();
        // one cycle: the registered (grant, base) this cycle's request produced
        let mut cycle = |reset: bool, req: bool, need: u32, rel: u32| {
            clk(
                &mut m1,
                |m| &mut m.clock,
                |m| {
                    m.reset.next = reset;
                    m.req.next = req;
                    m.need.next = need.to_bits();
                    m.rel.next = rel.to_bits();
                },
            );
            (m1.grant.val(), m1.base.val().index())
        };
        cycle(true, false, 0, 0);
        // first fit at 0, the next one right after it
        assert_eq!(cycle(false, true, thermo(3), 0), (true, 0));
        assert_eq!(cycle(false, true, thermo(2), 0), (true, 3));
        assert_eq!(cycle(false, true, thermo(4), 0), (true, 5));
        // 9..15 free (7 blocks): 8 do not fit, nothing is taken
        assert!(!cycle(false, true, thermo(8), 0).0);
        assert_eq!(cycle(false, true, thermo(7), 0), (true, 9));
        // full: even one block does not fit; no request, no grant
        assert!(!cycle(false, true, thermo(1), 0).0);
        assert!(!cycle(false, false, 0, 0).0);
        // free the first region (0..2); a request in the same cycle still sees it used
        assert!(!cycle(false, true, thermo(1), thermo(3)).0);
        assert_eq!(cycle(false, true, thermo(3), 0), (true, 0));
        // and the map is full again
        assert!(!cycle(false, true, thermo(1), 0).0);
        // free 3..4 and 9..15: a 2-block need goes to 3, a 7-block one to 9
        assert!(!cycle(false, false, 0, 0b1111_1110_0001_1000).0);
        assert_eq!(cycle(false, true, thermo(2), 0), (true, 3));
        assert_eq!(cycle(false, true, thermo(7), 0), (true, 9));
        // reset empties the map
        cycle(true, false, 0, 0);
        assert_eq!(cycle(false, true, thermo(16), 0), (true, 0));
    }

    /// A request of waves 2 / 1, VGPR 4 / 2, SGPR 2 / 1, LDS 3 (no releases).
    fn module_req(m: &mut Module1) {
        m.reset.next = false;
        m.req.next = true;
        m.q0.next = 2.into();
        m.q1.next = 1.into();
        m.need_v0.next = thermo(4).to_bits();
        m.need_v1.next = thermo(2).to_bits();
        m.need_s0.next = thermo(2).to_bits();
        m.need_s1.next = thermo(1).to_bits();
        m.need_l.next = thermo(3).to_bits();
        m.rel_v0.next = 0.into();
        m.rel_v1.next = 0.into();
        m.rel_s0.next = 0.into();
        m.rel_s1.next = 0.into();
        m.rel_l.next = 0.into();
        m.rel_w0.next = 0.into();
        m.rel_w1.next = 0.into();
    }

    #[test]
    fn module1_fits_every_map_and_the_wave_slots() {
        let mut m: Module1 = fresh();
        let c: fn(&mut Module1) -> &mut Signal<In, Clock> = |m| &mut m.clock;
        clk(&mut m, c, |m| {
            module_req(m);
            m.reset.next = true;
        });
        clk(&mut m, c, module_req);
        assert!(m.grant.val());
        assert_eq!(bases!(m), [0, 0, 0, 0, 0]);
        clk(&mut m, c, module_req);
        assert!(m.grant.val());
        assert_eq!(bases!(m), [4, 2, 2, 1, 3]);
        // unit 0 has 4 busy wave slots: a third request does not fit (its maps would)
        clk(&mut m, c, module_req);
        assert!(!m.grant.val());
        // two of unit 0's waves complete (same edge): still refused this cycle, fits the next
        clk(&mut m, c, |m| {
            module_req(m);
            m.rel_w0.next = 2.into();
        });
        assert!(!m.grant.val());
        clk(&mut m, c, module_req);
        assert!(m.grant.val());
        assert_eq!(bases!(m), [8, 4, 4, 2, 6]);
    }

    #[test]
    fn two_heads_pick_head_0_else_head_1() {
        let mut m: Module1TwoHeads = fresh();
        // head 0 needs all 16 LDS blocks, head 1 one block; both need 1 VGPR / SGPR, 1 wave
        let v = two_heads_req([1; 4], [1; 4], [16, 1]);
        let mut reset = v;
        reset[0] = 1;
        step_two_heads!(&mut m, &reset);
        let (g, h, b) = step_two_heads!(&mut m, &v);
        assert!(g && !h);
        assert_eq!(b[4], 0);
        // the LDS is full now: head 0 does not fit, head 1 does not either (one block)
        assert!(!step_two_heads!(&mut m, &v).0);
        // free LDS blocks 0..1: head 1 gets block 0, VGPR / SGPR block 1 of both units
        let mut free = v;
        free[1] = 0;
        free[2] = 0;
        free[21] = 3;
        step_two_heads!(&mut m, &free);
        let (g, h, b) = step_two_heads!(&mut m, &v);
        assert!(g && h);
        assert_eq!((b[4], b[0], b[3]), (0, 1, 1));
    }

    #[test]
    fn split_grants_at_most_every_other_cycle() {
        let mut m: Module1Split = fresh();
        let drive = |m: &mut Module1Split| {
            m.reset.next = false;
            m.req.next = true;
            m.q0.next = 1.into();
            m.q1.next = 0.into();
            m.need_v0.next = 1.into();
            m.need_s0.next = 1.into();
            m.need_l.next = 1.into();
            m.rel_w0.next = 0.into();
        };
        let c: fn(&mut Module1Split) -> &mut Signal<In, Clock> = |m| &mut m.clock;
        clk(&mut m, c, |m| {
            drive(m);
            m.reset.next = true;
        });
        let mut grants = vec![];
        for _ in 0..8 {
            clk(&mut m, c, drive);
            grants.push((m.grant.val(), m.vbase0.val().index()));
        }
        // cycle 0 fills the cut, then a grant every other cycle at the next free block (the
        // cycles between register the previous vectors' bases); four grants fill unit 0's slots
        assert_eq!(
            grants,
            vec![
                (false, 0),
                (true, 0),
                (false, 0),
                (true, 1),
                (false, 1),
                (true, 2),
                (false, 2),
                (true, 3)
            ]
        );
    }

    /// (grant, head, [vbase0, vbase1, sbase0, sbase1, lbase]) of a two-head design after an edge.
    type TwoHeadsOut = (bool, bool, [usize; 5]);

    /// The same scenario on every 2-cycle design with two heads (same ports): head 0 needs 3 / 1
    /// VGPR, 1 / 1 SGPR and all 16 LDS blocks, head 1 needs 1 / 1, 1 / 1 and 1 LDS block; one wave
    /// per unit each. [`TWO_HEADS_RELEASES`] gives each cycle's (LDS, wave) releases; the result
    /// is (grant, head, [vbase0, vbase1, sbase0, sbase1, lbase]) after each cycle's edge (head and
    /// bases only with a grant).
    fn two_heads_split_run<B: Block + Default>(
        step: fn(&mut B, &[u64; 24]) -> TwoHeadsOut,
    ) -> Vec<TwoHeadsOut> {
        let mut m: B = fresh();
        let v = two_heads_req([3, 1, 1, 1], [1; 4], [16, 1]);
        let mut reset = v;
        reset[0] = 1;
        step(&mut m, &reset);
        let mut out = vec![];
        for &(rl, rw) in TWO_HEADS_RELEASES {
            let mut x = v;
            x[21] = rl.into();
            x[22] = rw.into();
            x[23] = rw.into();
            let (g, h, b) = step(&mut m, &x);
            out.push((g, g && h, if g { b } else { [0; 5] }));
        }
        out
    }

    /// Expected results of [`two_heads_split_run`] for the cycles of [`TWO_HEADS_RELEASES`].
    fn two_heads_split_expected() -> Vec<TwoHeadsOut> {
        let no = (false, false, [0; 5]);
        vec![
            // 1: the cut fills
            no,
            // 2: both heads fit; head 0 is taken (VGPR 0..2 / 0, SGPR 0 / 0, all of the LDS)
            (true, false, [0, 0, 0, 0, 0]),
            // 3: the vectors predate that grant (head 0 still "fits" in them): no grant
            no,
            // 4, 5, 6: LDS full, neither head fits; LDS 0..3 freed at edge 5, the cut sees it
            // at edge 6
            no,
            no,
            no,
            // 7: head 0 (16 LDS blocks) does not fit, head 1 does: the blocks after head 0's
            (true, true, [3, 1, 1, 1, 0]),
            no,
            (true, true, [4, 2, 2, 2, 1]),
            no,
            (true, true, [5, 3, 3, 3, 2]),
            // 12: stale; 13, 14: 4 busy waves on each unit (LDS block 3 would fit)
            no,
            no,
            no,
            // 15: waves released at edge 14, not yet in the vectors; 16: granted
            no,
            (true, true, [6, 4, 4, 4, 3]),
            // 17: stale (all LDS and 2 waves per unit freed at this edge); 18: the vectors
            // predate the release
            no,
            no,
            // 19: both fit again: head 0 first (its 3 VGPR blocks at 7)
            (true, false, [7, 5, 5, 5, 0]),
            no,
        ]
    }

    /// Per cycle (1, 2, …): (LDS release mask, waves released per unit) at that cycle's edge.
    const TWO_HEADS_RELEASES: &[(u32, u32)] = &[
        (0, 0),
        (0, 0),
        (0, 0),
        (0, 0),
        (0xf, 0),
        (0, 0),
        (0, 0),
        (0, 0),
        (0, 0),
        (0, 0),
        (0, 0),
        (0, 0),
        (0, 0),
        (0, 1),
        (0, 0),
        (0, 0),
        (0xffff, 2),
        (0, 0),
        (0, 0),
        (0, 0),
    ];

    #[test]
    fn two_heads_split_picks_head_0_else_head_1_every_other_cycle() {
        assert_eq!(
            two_heads_split_run::<Module1TwoHeadsSplit>(|m, v| step_two_heads!(m, v)),
            two_heads_split_expected()
        );
    }

    #[test]
    fn two_heads_split_b_picks_head_0_else_head_1_every_other_cycle() {
        assert_eq!(
            two_heads_split_run::<Module1TwoHeadsSplitB>(|m, v| step_two_heads!(m, v)),
            two_heads_split_expected()
        );
    }

    #[test]
    fn two_heads_split_c_picks_head_0_else_head_1_every_other_cycle() {
        assert_eq!(
            two_heads_split_run::<Module1TwoHeadsSplitC>(|m, v| step_two_heads!(m, v)),
            two_heads_split_expected()
        );
    }

    /// Random stream into the three 2-cycle two-head designs side by side: every cycle the same
    /// outputs. [`Module1TwoHeadsSplit`] is the direct form (priority first fit from the ok
    /// vectors); B / C compute the regions from prefix masks, C merges them a cycle later.
    /// Releases (random used-looking masks) only at an edge without a grant, where C's deferred
    /// merge cannot differ.
    #[test]
    fn two_heads_split_variants_agree_on_a_random_stream() {
        let mut a: Module1TwoHeadsSplit = fresh();
        let mut b: Module1TwoHeadsSplitB = fresh();
        let mut cc: Module1TwoHeadsSplitC = fresh();
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut rnd = |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed >> 11) % n
        };
        let th = |n: u64| (1u64 << n) - 1;
        let mut last_grant = false;
        let mut grants = [0usize; 2];
        // busy waves per unit (the test keeps releases within them) and the last request
        let mut busy = [0u64; 2];
        let mut prev = [0u64; 24];
        for cyc in 0..5000 {
            let mut v = [0u64; 24];
            v[0] = u64::from(cyc == 0 || rnd(1000) == 0);
            v[1] = u64::from(rnd(4) != 0);
            v[2] = u64::from(rnd(4) != 0);
            for x in &mut v[3..7] {
                *x = rnd(3);
            }
            for x in &mut v[7..11] {
                *x = th(rnd(6) + u64::from(rnd(8) == 0) * rnd(11));
            }
            for x in &mut v[11..15] {
                *x = th(rnd(4) + u64::from(rnd(8) == 0) * rnd(5));
            }
            for x in &mut v[15..17] {
                *x = th(rnd(6) + u64::from(rnd(8) == 0) * rnd(11));
            }
            // free at an edge without a grant: the last edge granted, so this one cannot
            if last_grant {
                v[17] = rnd(1 << 16) | rnd(1 << 16);
                v[18] = rnd(1 << 16) | rnd(1 << 16);
                v[19] = rnd(1 << 8) | rnd(1 << 8);
                v[20] = rnd(1 << 8) | rnd(1 << 8);
                v[21] = rnd(1 << 16) | rnd(1 << 16);
                v[22] = rnd(busy[0] + 1);
                v[23] = rnd(busy[1] + 1);
            }
            let ra = step_two_heads!(&mut a, &v);
            let rb = step_two_heads!(&mut b, &v);
            let rc = step_two_heads!(&mut cc, &v);
            assert_eq!(ra, rb, "B differs in cycle {cyc}");
            assert_eq!(ra, rc, "C differs in cycle {cyc}");
            last_grant = ra.0;
            // waves: the grant after this edge is the request registered at the last one
            for u in 0..2 {
                busy[u] -= v[22 + u];
                if ra.0 {
                    busy[u] += prev[3 + 2 * usize::from(ra.1) + u];
                }
                if v[0] != 0 {
                    busy[u] = 0;
                }
            }
            if ra.0 {
                grants[usize::from(ra.1)] += 1;
            }
            prev = v;
        }
        // the stream exercises both heads
        assert!(grants[0] > 100 && grants[1] > 100, "{grants:?}");
    }

    #[test]
    fn designs_pass_yosys_checks() {
        if !testbench::verilator::tool_available("yosys") {
            return;
        }
        for d in designs() {
            assert!(d.verilog.contains("module top("), "{}", d.name);
            yosys_validate(&format!("alloc_floor_test_{}", d.name), &d.verilog)
                .unwrap_or_else(|e| panic!("{}: {e:?}", d.name));
        }
    }

    #[test]
    fn parses_a_critical_path_report() {
        let log = "Info: Critical path report for clock 'clk' (posedge -> posedge):\n\
Info: curr total\n\
Info:  0.5  0.5  Source a_DFFLC.O\n\
Info:  1.0  1.5    Net a budget 0.000000 ns (1,1) -> (1,2)\n\
Info:  0.4  1.9  Source b_LC.O\n\
Info:  0.4  2.3  Source c$CARRY.COUT\n\
Info:  0.5  2.8  Setup d_DFFLC.I0\n\
Info: 1.8 ns logic, 1.0 ns routing\n";
        let bare = CritPath {
            luts: 1,
            carries: 1,
            logic_ns: 1.8,
            routing_ns: 1.0,
        };
        assert_eq!(critical_path(log), Some(bare.clone()));
        // the capturing flip-flop's LC holds a LUT of the path
        let packed = log.replace("d_DFFLC.I0", "q_SB_DFFSR_Q_D_SB_LUT4_O_LC.I2");
        assert_eq!(critical_path(&packed), Some(CritPath { luts: 2, ..bare }));
    }
}
