//! Sub-blocks of the patent-scale dispatcher (SPEC Unit 3 "Patent scale", seed 003 emb. 4–7),
//! built bottom-up; design and measurements: `docs/dispatcher_scale.md`. Each block's behaviour
//! is specified by its cycle model in `golden_model::dispatcher_scale` (normative) and checked
//! against it cycle for cycle (`tests/dispatcher_scale.rs`), and against its contract by
//! `testbench::dispatcher_scale`'s checker written from the design alone.
//!
//! ## [`RunCache`]: per-module run cache with its refresher (design block 1)
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `clock`, `reset` | in | 1 | one clock; synchronous reset (acts as a change of every map) |
//! | `vgpr0`..`vgpr3` | in | V | VGPR free map of unit u, 1 = free |
//! | `sgpr0`..`sgpr3` | in | S | SGPR free map of unit u |
//! | `lds` | in | L | LDS free map of the module |
//! | `change` | in | 9 | these maps take new values at the end of this cycle: bit u VGPR u, 4 + u SGPR u, 8 LDS |
//! | `run_vgpr0`..`run_vgpr3`, `run_sgpr0`..`run_sgpr3`, `run_lds` | out | clog2(V+1) | cached longest free run of each map (registered) |
//! | `eligible` | out | 1 | registered: no `change`/`reset` in the last K = 7 cycles, so every cached run is the run of the current maps |
//!
//! **Contract.** One time-shared finder (emb. 7) serves seven slots: VGPR u (slot u < 4),
//! SGPR 0 ‖ 1 (slot 4), SGPR 2 ‖ 3 (slot 5), LDS (slot 6). `change` marks the slots of the
//! written maps dirty and loads the stale countdown with K = 7; each cycle the lowest dirty slot
//! is evaluated on the maps of that cycle and its run(s) registered (dirty cleared unless
//! `change` sets it again); `eligible` = countdown 0. With the last `change` in cycle w the new
//! maps are visible from x = w + 1, `eligible` is low in x..x+6 and high from x + 7, and then
//! every cached run is exact. While any run is stale `eligible` is low. Each cached run is the
//! run of a map the input actually held in an earlier cycle since reset (or 0 after reset).
//!
//! **Finder.** The V-bit word is two halves of H = V/2 blocks, each searched by a combinational
//! [`RunTree`] of Unit 2 (`hdl::run_finder`, `need` = 0 so its first-fit logic is trimmed). For
//! a VGPR or LDS slot the run is `max(best(lo), best(hi), slen(lo) + plen(hi))`: the free suffix
//! of the low half (a prefix-OR of its used blocks, one-hot of the highest, encoded) plus the
//! free prefix of the high half (lowest used block `!x & (x + 1)`, encoded). For an SGPR pair
//! slot (SGPR 2p in the low half, 2p + 1 in the high half, padding "used") the crossing term is
//! simply not used: that is emb. 7's boundary mask, at the one place a segment tree needs it.
//!
//! **Cost** (full widths 128 / 64 / 48, ECP5-85F, inside the flow's harness): see
//! `docs/dispatcher_scale.md` (`synth report --target ecp5-85f --full --only
//! dispatcher_scale_run_cache`).

use crate::run_finder::RunTree;
use rust_hdl::prelude::*;

pub mod allocator;
pub mod full;
pub mod map_ram;
pub mod power;
pub mod run_cache_pipe;
pub mod write_refresh;
pub use allocator::{
    allocator_verilog, Allocator, AllocatorBoard, AllocatorFull, AllocatorSmall, RegionFit,
};
pub use full::{dispatcher_full_verilog, DispatcherFull, DispatcherFullFull, DispatcherFullSmall};
pub use map_ram::{
    map_ram_verilog, KeepDff, LutRam16, MapGroup, MapRam, MapRamBoard, MapRamCore, MapRamFull,
    MapRamSmall,
};
pub use power::PowerHistory;
pub use run_cache_pipe::{
    RunCachePipe, RunCachePipeBoard, RunCachePipeFull, RunCachePipeSmall, WordFinder,
};
pub use write_refresh::{
    map_refresh_verilog, MapRefresh, MapRefreshBoard, MapRefreshFull, MapRefreshSmall,
};

fn locals<T: Default>(n: usize) -> Vec<T> {
    (0..n).map(|_| T::default()).collect()
}

fn konst<const W: usize>(v: u64) -> Constant<Bits<W>> {
    Constant::new(v.to_bits())
}

/// Per-module run cache with its refresher. `V` VGPR (finder width, a power of two 16..=128),
/// `S` SGPR (≤ V/2), `L` LDS (≤ V); derived: `H` = V/2, `KV` = clog2(V+1), `KH` = clog2(H+1),
/// `SH` = log2(H). See the module doc.
#[derive(LogicBlock)]
pub struct RunCache<
    const V: usize,
    const S: usize,
    const L: usize,
    const H: usize,
    const KV: usize,
    const KH: usize,
    const SH: usize,
> {
    /// The one clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: runs 0, every slot dirty, countdown K.
    pub reset: Signal<In, Bit>,
    /// VGPR map of unit 0 (1 = free).
    pub vgpr0: Signal<In, Bits<V>>,
    /// VGPR map of unit 1.
    pub vgpr1: Signal<In, Bits<V>>,
    /// VGPR map of unit 2.
    pub vgpr2: Signal<In, Bits<V>>,
    /// VGPR map of unit 3.
    pub vgpr3: Signal<In, Bits<V>>,
    /// SGPR map of unit 0.
    pub sgpr0: Signal<In, Bits<S>>,
    /// SGPR map of unit 1.
    pub sgpr1: Signal<In, Bits<S>>,
    /// SGPR map of unit 2.
    pub sgpr2: Signal<In, Bits<S>>,
    /// SGPR map of unit 3.
    pub sgpr3: Signal<In, Bits<S>>,
    /// LDS map of the module.
    pub lds: Signal<In, Bits<L>>,
    /// Maps written at the end of this cycle (bit u VGPR u, 4 + u SGPR u, 8 LDS).
    pub change: Signal<In, Bits<9>>,
    /// Cached longest free run of VGPR 0.
    pub run_vgpr0: Signal<Out, Bits<KV>>,
    /// Cached run of VGPR 1.
    pub run_vgpr1: Signal<Out, Bits<KV>>,
    /// Cached run of VGPR 2.
    pub run_vgpr2: Signal<Out, Bits<KV>>,
    /// Cached run of VGPR 3.
    pub run_vgpr3: Signal<Out, Bits<KV>>,
    /// Cached run of SGPR 0.
    pub run_sgpr0: Signal<Out, Bits<KV>>,
    /// Cached run of SGPR 1.
    pub run_sgpr1: Signal<Out, Bits<KV>>,
    /// Cached run of SGPR 2.
    pub run_sgpr2: Signal<Out, Bits<KV>>,
    /// Cached run of SGPR 3.
    pub run_sgpr3: Signal<Out, Bits<KV>>,
    /// Cached run of the LDS map.
    pub run_lds: Signal<Out, Bits<KV>>,
    /// No change in the last K cycles: every cached run is exact.
    pub eligible: Signal<Out, Bit>,
    /// Unit 2 tree finders over the low and the high half of the slot word.
    pub tree_lo: RunTree<H, V, KH, SH>,
    pub tree_hi: RunTree<H, V, KH, SH>,
    dirty: DFF<Bits<7>>,
    stale: DFF<Bits<3>>,
    runs: [DFF<Bits<KV>>; 9],
    sc_a: Signal<Local, Bits<7>>,
    sc_b: Signal<Local, Bits<7>>,
    sc_c: Signal<Local, Bits<7>>,
    slot_change: Signal<Local, Bits<7>>,
    /// One-hot: the lowest dirty slot, evaluated this cycle.
    pick: Signal<Local, Bits<7>>,
    word: Signal<Local, Bits<V>>,
    lo: Signal<Local, Bits<H>>,
    hi: Signal<Local, Bits<H>>,
    /// One-hot: the lowest used block of `hi`.
    z_hi: Signal<Local, Bits<H>>,
    p_acc: Vec<Signal<Local, Bits<KH>>>,
    plen_hi: Signal<Local, Bits<KH>>,
    /// Prefix-OR (downwards) of the used blocks of `lo`, its top one-hot, encoded.
    pre: Vec<Signal<Local, Bits<H>>>,
    oh_lo: Signal<Local, Bits<H>>,
    q_acc: Vec<Signal<Local, Bits<KH>>>,
    top_used_lo: Signal<Local, Bits<KH>>,
    slen_lo: Signal<Local, Bits<KH>>,
    cross_run: Signal<Local, Bits<KV>>,
    b_lo: Signal<Local, Bits<KV>>,
    b_hi: Signal<Local, Bits<KV>>,
    m1: Signal<Local, Bits<KV>>,
    full: Signal<Local, Bits<KV>>,
    low4: Constant<Bits<7>>,
    bit4: Constant<Bits<7>>,
    bit5: Constant<Bits<7>>,
    bit6: Constant<Bits<7>>,
    all7: Constant<Bits<7>>,
    one7: Constant<Bits<7>>,
    kconst: Constant<Bits<3>>,
    one3: Constant<Bits<3>>,
    hshift: Constant<Bits<8>>,
    one8: Constant<Bits<8>>,
    one_h: Constant<Bits<H>>,
    h_full: Constant<Bits<KH>>,
    hm1: Constant<Bits<KH>>,
    /// `emask[b]`: bit i set iff bit b of i is set (one-hot → binary).
    emask: Vec<Constant<Bits<H>>>,
    pow: Vec<Constant<Bits<KH>>>,
    dsh: Vec<Constant<Bits<8>>>,
}

impl<
        const V: usize,
        const S: usize,
        const L: usize,
        const H: usize,
        const KV: usize,
        const KH: usize,
        const SH: usize,
    > Default for RunCache<V, S, L, H, KV, KH, SH>
{
    fn default() -> Self {
        assert!(
            V.is_power_of_two() && (16..=128).contains(&V),
            "RunCache: V = {V} must be a power of two in 16..=128"
        );
        assert_eq!(H * 2, V, "RunCache: H must be V/2");
        assert!((1..=H).contains(&S), "RunCache: S = {S} must be 1..=V/2");
        assert!((1..=V).contains(&L), "RunCache: L = {L} must be 1..=V");
        assert_eq!(1 << SH, H, "RunCache: SH must be log2(H)");
        assert_eq!(KH, SH + 1, "RunCache: KH must be clog2(H+1)");
        assert_eq!(KV, SH + 2, "RunCache: KV must be clog2(V+1)");
        RunCache {
            clock: Default::default(),
            reset: Default::default(),
            vgpr0: Default::default(),
            vgpr1: Default::default(),
            vgpr2: Default::default(),
            vgpr3: Default::default(),
            sgpr0: Default::default(),
            sgpr1: Default::default(),
            sgpr2: Default::default(),
            sgpr3: Default::default(),
            lds: Default::default(),
            change: Default::default(),
            run_vgpr0: Default::default(),
            run_vgpr1: Default::default(),
            run_vgpr2: Default::default(),
            run_vgpr3: Default::default(),
            run_sgpr0: Default::default(),
            run_sgpr1: Default::default(),
            run_sgpr2: Default::default(),
            run_sgpr3: Default::default(),
            run_lds: Default::default(),
            eligible: Default::default(),
            tree_lo: Default::default(),
            tree_hi: Default::default(),
            dirty: Default::default(),
            stale: Default::default(),
            runs: Default::default(),
            sc_a: Default::default(),
            sc_b: Default::default(),
            sc_c: Default::default(),
            slot_change: Default::default(),
            pick: Default::default(),
            word: Default::default(),
            lo: Default::default(),
            hi: Default::default(),
            z_hi: Default::default(),
            p_acc: locals(SH + 1),
            plen_hi: Default::default(),
            pre: locals(SH + 1),
            oh_lo: Default::default(),
            q_acc: locals(SH + 1),
            top_used_lo: Default::default(),
            slen_lo: Default::default(),
            cross_run: Default::default(),
            b_lo: Default::default(),
            b_hi: Default::default(),
            m1: Default::default(),
            full: Default::default(),
            low4: konst(0xf),
            bit4: konst(1 << 4),
            bit5: konst(1 << 5),
            bit6: konst(1 << 6),
            all7: konst(0x7f),
            one7: konst(1),
            kconst: konst(7),
            one3: konst(1),
            hshift: konst(H as u64),
            one8: konst(1),
            one_h: konst(1),
            h_full: konst(H as u64),
            hm1: konst(H as u64 - 1),
            emask: (0..SH)
                .map(|b| {
                    konst(
                        (0..H)
                            .filter(|i| i >> b & 1 == 1)
                            .fold(0, |a, i| a | 1 << i),
                    )
                })
                .collect(),
            pow: (0..SH).map(|b| konst(1 << b)).collect(),
            dsh: (0..SH).map(|j| konst(1 << j)).collect(),
        }
    }
}

impl<
        const V: usize,
        const S: usize,
        const L: usize,
        const H: usize,
        const KV: usize,
        const KH: usize,
        const SH: usize,
    > Logic for RunCache<V, S, L, H, KV, KH, SH>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, dirty, stale);
        for j in 0..9 {
            self.runs[j].clock.next = self.clock.val();
            self.runs[j].d.next = self.runs[j].q.val();
        }
        // Slots of the maps written this cycle.
        self.sc_a.next = bit_cast::<7, 9>(self.change.val()) & self.low4.val();
        self.sc_b.next = self.sc_a.val();
        if self.change.val().get_bit(4) | self.change.val().get_bit(5) {
            self.sc_b.next = self.sc_a.val() | self.bit4.val();
        }
        self.sc_c.next = self.sc_b.val();
        if self.change.val().get_bit(6) | self.change.val().get_bit(7) {
            self.sc_c.next = self.sc_b.val() | self.bit5.val();
        }
        self.slot_change.next = self.sc_c.val();
        if self.change.val().get_bit(8) {
            self.slot_change.next = self.sc_c.val() | self.bit6.val();
        }
        // The lowest dirty slot, and its word (emb. 7 step g2: SGPR pairs in the two halves).
        self.pick.next = self.dirty.q.val() & (!self.dirty.q.val() + self.one7.val());
        self.word.next = 0.into();
        if self.pick.val().get_bit(0) {
            self.word.next = self.vgpr0.val();
        }
        if self.pick.val().get_bit(1) {
            self.word.next = self.vgpr1.val();
        }
        if self.pick.val().get_bit(2) {
            self.word.next = self.vgpr2.val();
        }
        if self.pick.val().get_bit(3) {
            self.word.next = self.vgpr3.val();
        }
        if self.pick.val().get_bit(4) {
            self.word.next = bit_cast::<V, S>(self.sgpr0.val())
                | (bit_cast::<V, S>(self.sgpr1.val()) << self.hshift.val());
        }
        if self.pick.val().get_bit(5) {
            self.word.next = bit_cast::<V, S>(self.sgpr2.val())
                | (bit_cast::<V, S>(self.sgpr3.val()) << self.hshift.val());
        }
        if self.pick.val().get_bit(6) {
            self.word.next = bit_cast::<V, L>(self.lds.val());
        }
        self.lo.next = self.word.val().get_bits::<H>(0);
        self.hi.next = self.word.val().get_bits::<H>(self.hshift.val().index());
        self.tree_lo.bits.next = self.lo.val();
        self.tree_lo.need.next = 0.into();
        self.tree_hi.bits.next = self.hi.val();
        self.tree_hi.need.next = 0.into();
        // Free prefix of the high half: index of its lowest used block (H if none).
        self.z_hi.next = !self.hi.val() & (self.hi.val() + self.one_h.val());
        self.p_acc[0].next = 0.into();
        for b in 0..SH {
            self.p_acc[b + 1].next = self.p_acc[b].val();
            if (self.z_hi.val() & self.emask[b].val()).any() {
                self.p_acc[b + 1].next = self.p_acc[b].val() | self.pow[b].val();
            }
        }
        for zz in SH..(SH + 1) {
            self.plen_hi.next = self.p_acc[zz].val();
        }
        if self.hi.val().all() {
            self.plen_hi.next = self.h_full.val();
        }
        // Free suffix of the low half: H − 1 − index of its highest used block (H if none).
        self.pre[0].next = !self.lo.val();
        for j in 0..SH {
            self.pre[j + 1].next = self.pre[j].val() | (self.pre[j].val() >> self.dsh[j].val());
        }
        for zz in SH..(SH + 1) {
            self.oh_lo.next = self.pre[zz].val() & !(self.pre[zz].val() >> self.one8.val());
        }
        self.q_acc[0].next = 0.into();
        for b in 0..SH {
            self.q_acc[b + 1].next = self.q_acc[b].val();
            if (self.oh_lo.val() & self.emask[b].val()).any() {
                self.q_acc[b + 1].next = self.q_acc[b].val() | self.pow[b].val();
            }
        }
        for zz in SH..(SH + 1) {
            self.top_used_lo.next = self.q_acc[zz].val();
        }
        self.slen_lo.next = self.hm1.val() - self.top_used_lo.val();
        if self.lo.val().all() {
            self.slen_lo.next = self.h_full.val();
        }
        // Whole-word run = max(best(lo), best(hi), crossing run).
        self.cross_run.next =
            bit_cast::<KV, KH>(self.slen_lo.val()) + bit_cast::<KV, KH>(self.plen_hi.val());
        self.b_lo.next = bit_cast::<KV, KH>(self.tree_lo.max_run.val());
        self.b_hi.next = bit_cast::<KV, KH>(self.tree_hi.max_run.val());
        self.m1.next = self.b_lo.val();
        if self.b_hi.val() > self.b_lo.val() {
            self.m1.next = self.b_hi.val();
        }
        self.full.next = self.m1.val();
        if self.cross_run.val() > self.m1.val() {
            self.full.next = self.cross_run.val();
        }
        // g4: register the picked slot's run(s); the SGPR pair takes the halves (no crossing).
        for j in 0..4 {
            if self.pick.val().get_bit(j) {
                self.runs[j].d.next = self.full.val();
            }
        }
        if self.pick.val().get_bit(4) {
            self.runs[4].d.next = self.b_lo.val();
            self.runs[5].d.next = self.b_hi.val();
        }
        if self.pick.val().get_bit(5) {
            self.runs[6].d.next = self.b_lo.val();
            self.runs[7].d.next = self.b_hi.val();
        }
        if self.pick.val().get_bit(6) {
            self.runs[8].d.next = self.full.val();
        }
        self.dirty.d.next = (self.dirty.q.val() & !self.pick.val()) | self.slot_change.val();
        self.stale.d.next = self.stale.q.val();
        if self.stale.q.val().any() {
            self.stale.d.next = self.stale.q.val() - self.one3.val();
        }
        if self.change.val().any() {
            self.stale.d.next = self.kconst.val();
        }
        if self.reset.val() {
            self.dirty.d.next = self.all7.val();
            self.stale.d.next = self.kconst.val();
            for j in 0..9 {
                self.runs[j].d.next = 0.into();
            }
        }
        self.run_vgpr0.next = self.runs[0].q.val();
        self.run_vgpr1.next = self.runs[1].q.val();
        self.run_vgpr2.next = self.runs[2].q.val();
        self.run_vgpr3.next = self.runs[3].q.val();
        self.run_sgpr0.next = self.runs[4].q.val();
        self.run_sgpr1.next = self.runs[5].q.val();
        self.run_sgpr2.next = self.runs[6].q.val();
        self.run_sgpr3.next = self.runs[7].q.val();
        self.run_lds.next = self.runs[8].q.val();
        self.eligible.next = !self.stale.q.val().any();
    }
}

/// Run cache, small maps (16 / 6 / 12).
pub type RunCacheSmall = RunCache<16, 6, 12, 8, 5, 4, 3>;
/// Run cache, the board dispatcher's maps (16 / 8 / 16).
pub type RunCacheBoard = RunCache<16, 8, 16, 8, 5, 4, 3>;
/// Run cache, `DispatcherConfig::full()`'s maps (128 / 64 / 48).
pub type RunCacheFull = RunCache<128, 64, 48, 64, 8, 7, 6>;

/// The exported Verilog of a run cache (module `top`).
pub fn run_cache_verilog<B: Block + Default>() -> String {
    crate::top_verilog(B::default())
}

// -------------------------------------------------------------------------------------------
// Head needs + head × module matcher (design blocks 2 and 3), full config
// -------------------------------------------------------------------------------------------

/// Heads (channels) of the full config.
pub const MATCH_HEADS: usize = 4;
/// Modules of the full config.
pub const MATCH_MODULES: usize = 16;
/// Bits per head in [`Matcher::heads`].
pub const HEAD_BITS: usize = 32;
/// Bits per module in [`Matcher::modules`].
pub const MODULE_BITS: usize = 95;

/// Head needs (block 2) and the head × module matcher (block 3) of `DispatcherConfig::full()`:
/// 4 heads × 16 modules × 4 units, against the modules' cached runs (block 1).
///
/// | port | dir | width | meaning |
/// |---|---|---|---|
/// | `clock`, `reset` | in | 1 | one clock; synchronous reset (outputs 0 for two cycles) |
/// | `heads` | in | 128 | head c at bits 32c..: waves \[6:0\] (1..=64), VGPR per wave \[14:7\], SGPR per wave \[22:15\], LDS \[30:23\], valid \[31\] |
/// | `modules` | in | 1520 | module m at bits 95m..: cached runs VGPR u \[8u+7:8u\], SGPR u \[32+8u+7:32+8u\], LDS \[71:64\]; free wave slots of unit u \[72+5u+4:72+5u\] (0..=16); split pointer \[93:92\]; eligible \[94\] |
/// | `fit` | out | 64 | bit 16c + m: head c fits module m on the cached runs (emb. 3's counter uses it) |
/// | `fit_eligible` | out | 64 | bit 16c + m: `fit` and module m eligible (what the decision may take) |
///
/// **Contract.** Stage 1 (block 2) registers per head q0 = waves div 4, r = waves mod 4 and the
/// saturated (to 255) products q0·vgpr, (q0+1)·vgpr, q0·sgpr, (q0+1)·sgpr (`*` on 16-bit
/// operands: DSP multipliers). Stage 2 (block 3): unit u of module m takes q0 + 1 waves iff
/// (u − ptr_m) mod 4 < r, else q0; it fits iff its free wave slots ≥ its waves, its cached VGPR
/// run ≥ waves·vgpr and its SGPR run ≥ waves·sgpr; the module fits iff its four units fit and
/// its cached LDS run ≥ lds (SPEC step 3 on the runs: a free run of n blocks exists iff the
/// longest run ≥ n). `fit` = valid head ∧ module fits, registered. Timing: the outputs of cycle
/// t judge the heads of cycle t − 2 on the modules of cycle t − 1.
#[derive(LogicBlock)]
pub struct Matcher {
    /// The one clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset.
    pub reset: Signal<In, Bit>,
    /// The four heads (see the table).
    pub heads: Signal<In, Bits<128>>,
    /// The sixteen modules (see the table).
    pub modules: Signal<In, Bits<1520>>,
    /// Head c fits module m (bit 16c + m).
    pub fit: Signal<Out, Bits<64>>,
    /// Head c fits module m and m is eligible.
    pub fit_eligible: Signal<Out, Bits<64>>,
    nd_valid: [DFF<Bit>; 4],
    nd_q0: [DFF<Bits<5>>; 4],
    nd_q1: [DFF<Bits<5>>; 4],
    nd_r: [DFF<Bits<2>>; 4],
    nd_v0: [DFF<Bits<8>>; 4],
    nd_v1: [DFF<Bits<8>>; 4],
    nd_s0: [DFF<Bits<8>>; 4],
    nd_s1: [DFF<Bits<8>>; 4],
    nd_l: [DFF<Bits<8>>; 4],
    out_fit: DFF<Bits<64>>,
    out_fit_eligible: DFF<Bits<64>>,
    head: Signal<Local, Bits<32>>,
    h_q0: Signal<Local, Bits<16>>,
    h_q1: Signal<Local, Bits<16>>,
    h_v: Signal<Local, Bits<16>>,
    h_s: Signal<Local, Bits<16>>,
    p_v0: Signal<Local, Bits<32>>,
    p_v1: Signal<Local, Bits<32>>,
    p_s0: Signal<Local, Bits<32>>,
    p_s1: Signal<Local, Bits<32>>,
    module_word: Signal<Local, Bits<95>>,
    ptr: Signal<Local, Bits<2>>,
    rel: Signal<Local, Bits<2>>,
    big: Signal<Local, Bit>,
    share_w: Signal<Local, Bits<5>>,
    share_v: Signal<Local, Bits<8>>,
    share_s: Signal<Local, Bits<8>>,
    ok: Signal<Local, Bit>,
    fitv: Signal<Local, Bits<64>>,
    fitev: Signal<Local, Bits<64>>,
    head_off: Vec<Constant<Bits<16>>>,
    module_off: Vec<Constant<Bits<16>>>,
    ucon: Vec<Constant<Bits<2>>>,
    voff: Vec<Constant<Bits<8>>>,
    soff: Vec<Constant<Bits<8>>>,
    woff: Vec<Constant<Bits<8>>>,
    sat: Constant<Bits<32>>,
    two: Constant<Bits<8>>,
}

impl Default for Matcher {
    fn default() -> Self {
        Matcher {
            clock: Default::default(),
            reset: Default::default(),
            heads: Default::default(),
            modules: Default::default(),
            fit: Default::default(),
            fit_eligible: Default::default(),
            nd_valid: Default::default(),
            nd_q0: Default::default(),
            nd_q1: Default::default(),
            nd_r: Default::default(),
            nd_v0: Default::default(),
            nd_v1: Default::default(),
            nd_s0: Default::default(),
            nd_s1: Default::default(),
            nd_l: Default::default(),
            out_fit: Default::default(),
            out_fit_eligible: Default::default(),
            head: Default::default(),
            h_q0: Default::default(),
            h_q1: Default::default(),
            h_v: Default::default(),
            h_s: Default::default(),
            p_v0: Default::default(),
            p_v1: Default::default(),
            p_s0: Default::default(),
            p_s1: Default::default(),
            module_word: Default::default(),
            ptr: Default::default(),
            rel: Default::default(),
            big: Default::default(),
            share_w: Default::default(),
            share_v: Default::default(),
            share_s: Default::default(),
            ok: Default::default(),
            fitv: Default::default(),
            fitev: Default::default(),
            head_off: (0..MATCH_HEADS)
                .map(|c| konst((HEAD_BITS * c) as u64))
                .collect(),
            module_off: (0..MATCH_MODULES)
                .map(|m| konst((MODULE_BITS * m) as u64))
                .collect(),
            ucon: (0..4).map(|u| konst(u as u64)).collect(),
            voff: (0..4).map(|u| konst(8 * u as u64)).collect(),
            soff: (0..4).map(|u| konst(32 + 8 * u as u64)).collect(),
            woff: (0..4).map(|u| konst(72 + 5 * u as u64)).collect(),
            sat: konst(255),
            two: konst(2),
        }
    }
}

impl Logic for Matcher {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, out_fit, out_fit_eligible);
        // Stage 1 (block 2): head needs, registered.
        for c in 0..4 {
            self.head.next = self
                .heads
                .val()
                .get_bits::<32>(self.head_off[c].val().index());
            self.h_q0.next = bit_cast::<16, 7>(self.head.val().get_bits::<7>(0)) >> self.two.val();
            self.h_q1.next = self.h_q0.val() + 1;
            self.h_v.next = bit_cast::<16, 8>(self.head.val().get_bits::<8>(7));
            self.h_s.next = bit_cast::<16, 8>(self.head.val().get_bits::<8>(15));
            self.p_v0.next = self.h_q0.val() * self.h_v.val();
            self.p_v1.next = self.h_q1.val() * self.h_v.val();
            self.p_s0.next = self.h_q0.val() * self.h_s.val();
            self.p_s1.next = self.h_q1.val() * self.h_s.val();
            self.nd_valid[c].clock.next = self.clock.val();
            self.nd_q0[c].clock.next = self.clock.val();
            self.nd_q1[c].clock.next = self.clock.val();
            self.nd_r[c].clock.next = self.clock.val();
            self.nd_v0[c].clock.next = self.clock.val();
            self.nd_v1[c].clock.next = self.clock.val();
            self.nd_s0[c].clock.next = self.clock.val();
            self.nd_s1[c].clock.next = self.clock.val();
            self.nd_l[c].clock.next = self.clock.val();
            self.nd_valid[c].d.next = self.head.val().get_bit(31);
            self.nd_q0[c].d.next = self.h_q0.val().get_bits::<5>(0);
            self.nd_q1[c].d.next = self.h_q1.val().get_bits::<5>(0);
            self.nd_r[c].d.next = self.head.val().get_bits::<2>(0);
            self.nd_l[c].d.next = self.head.val().get_bits::<8>(23);
            self.nd_v0[c].d.next = self.p_v0.val().get_bits::<8>(0);
            if self.p_v0.val() > self.sat.val() {
                self.nd_v0[c].d.next = self.sat.val().get_bits::<8>(0);
            }
            self.nd_v1[c].d.next = self.p_v1.val().get_bits::<8>(0);
            if self.p_v1.val() > self.sat.val() {
                self.nd_v1[c].d.next = self.sat.val().get_bits::<8>(0);
            }
            self.nd_s0[c].d.next = self.p_s0.val().get_bits::<8>(0);
            if self.p_s0.val() > self.sat.val() {
                self.nd_s0[c].d.next = self.sat.val().get_bits::<8>(0);
            }
            self.nd_s1[c].d.next = self.p_s1.val().get_bits::<8>(0);
            if self.p_s1.val() > self.sat.val() {
                self.nd_s1[c].d.next = self.sat.val().get_bits::<8>(0);
            }
            if self.reset.val() {
                self.nd_valid[c].d.next = false;
            }
        }
        // Stage 2 (block 3): every head × module × unit on the cached runs, registered.
        self.fitv.next = 0.into();
        self.fitev.next = 0.into();
        for m in 0..16 {
            self.module_word.next = self
                .modules
                .val()
                .get_bits::<95>(self.module_off[m].val().index());
            self.ptr.next = self.module_word.val().get_bits::<2>(92);
            for c in 0..4 {
                self.ok.next = self.nd_valid[c].q.val()
                    & (self.module_word.val().get_bits::<8>(64) >= self.nd_l[c].q.val());
                for u in 0..4 {
                    self.rel.next = self.ucon[u].val() - self.ptr.val();
                    self.big.next = self.rel.val() < self.nd_r[c].q.val();
                    self.share_w.next = self.nd_q0[c].q.val();
                    self.share_v.next = self.nd_v0[c].q.val();
                    self.share_s.next = self.nd_s0[c].q.val();
                    if self.big.val() {
                        self.share_w.next = self.nd_q1[c].q.val();
                        self.share_v.next = self.nd_v1[c].q.val();
                        self.share_s.next = self.nd_s1[c].q.val();
                    }
                    self.ok.next = self.ok.val()
                        & (self
                            .module_word
                            .val()
                            .get_bits::<5>(self.woff[u].val().index())
                            >= self.share_w.val())
                        & (self
                            .module_word
                            .val()
                            .get_bits::<8>(self.voff[u].val().index())
                            >= self.share_v.val())
                        & (self
                            .module_word
                            .val()
                            .get_bits::<8>(self.soff[u].val().index())
                            >= self.share_s.val());
                }
                self.fitv.next = self.fitv.val().replace_bit(c * 16 + m, self.ok.val());
                self.fitev.next = self.fitev.val().replace_bit(
                    c * 16 + m,
                    self.ok.val() & self.module_word.val().get_bit(94),
                );
            }
        }
        self.out_fit.d.next = self.fitv.val();
        self.out_fit_eligible.d.next = self.fitev.val();
        if self.reset.val() {
            self.out_fit.d.next = 0.into();
            self.out_fit_eligible.d.next = 0.into();
        }
        self.fit.next = self.out_fit.q.val();
        self.fit_eligible.next = self.out_fit_eligible.q.val();
    }
}

/// The exported Verilog of the matcher (module `top`).
pub fn matcher_verilog() -> String {
    crate::top_verilog(Matcher::default())
}
