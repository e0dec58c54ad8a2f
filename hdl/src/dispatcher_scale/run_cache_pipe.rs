//! [`RunCachePipe`]: the run cache of design block 1 with a **pipelined** refresher (the
//! 100 MHz form; `docs/dispatcher_scale.md`).
//!
//! Ports: exactly those of [`super::RunCache`] (same names, widths and meaning).
//!
//! **Contract** (that of [`super::RunCache`] with a larger K). The seven slots and their words
//! are those of `RunCache`; `change` marks the slots of the written maps dirty and loads the
//! stale countdown with K; each cycle the lowest dirty slot is *picked*: its dirty bit is
//! cleared (unless `change` sets it again in the same cycle) and its word, as the maps show it
//! in that cycle, is registered and searched by a pipeline; the run(s) of the slot picked in
//! cycle e are registered at the end of cycle e + D (visible from e + D + 1). A change arriving
//! while a slot is in flight re-dirties it (the dirty bit is set by `change` whatever the
//! pipeline holds), so the in-flight result (of older maps) lands and is overwritten by the
//! re-pick's, which enters the pipeline later and lands later. With the last `change` in cycle
//! w the new maps are visible from x = w + 1; the at most seven dirty slots are picked in
//! x .. x + 6 and land by x + 6 + D, so **K = 7 + D**; `eligible` = countdown 0 is low in
//! x .. x + K − 1 and high from x + K, and then every cached run is exact. `reset` clears the
//! in-flight tags (nothing picked before it lands after it), reads every run 0, marks every
//! slot dirty and loads K.
//!
//! **Pipeline** (stage s = cycle e + 1 + s for the slot picked in cycle e):
//! - cycle e: pick (lowest dirty; its one-hot is a register of its own, computed from the
//!   dirty bits' next value, so no carry chain precedes the 128-bit mux) → 7:1 word mux → word
//!   register, slot tag register;
//! - stages 0 .. F: the sub-block [`WordFinder`] (the same datapath serves the write-stream
//!   refresh, `super::MapRefresh`, 14 times):
//! - stages 0 .. LT − 1: two Unit 2 [`RunTreePipe`]s of H = V/2 blocks, unchanged (root level
//!   registered, latency LT = log2(H) − 2: 4 at H = 64), on the low and the high half;
//! - beside them, the crossing term `slen(lo) + plen(hi)` in two stages: stage 0 registers the
//!   one-hot of the high half's lowest used block (`!x & (x + 1)`) and of the low half's highest
//!   (a prefix-OR), stage 1 encodes both and registers their sum;
//! - stage F = max(LT, 2): `max(best(lo), best(hi), cross)` (or the two halves for an SGPR
//!   pair slot) into the cached run registers; the earlier of the two paths waits in `DC`
//!   (cross) or `DT` (tree outputs) delay registers, F = LT + DT = 2 + DC.
//!
//! So **D = F + 1** and **K = 8 + F**: full widths (H = 64, LT = 4): D = 5, **K = 12**; V = 16
//! (H = 8, LT = 1, padded to F = 2): D = 3, K = 10. [`RunCachePipe::refresh_latency`] gives K.
//!
//! **Cost** (full widths, ECP5-85F, inside the flow's harness): see `docs/dispatcher_scale.md`
//! (`synth report --target ecp5-85f --full --only dispatcher_scale_cache_pipe`).

use super::{konst, locals};
use crate::run_finder::RunTreePipe;
use rust_hdl::prelude::*;

/// Per-module run cache with a pipelined refresher. `V`, `S`, `L`, `H`, `KV`, `KH`, `SH` as in
/// [`super::RunCache`]; `DC` / `DT`: delay registers on the crossing / tree path (one of them
/// 0, `SH − 2 + DT = 2 + DC`). See the module doc.
#[derive(LogicBlock)]
pub struct RunCachePipe<
    const V: usize,
    const S: usize,
    const L: usize,
    const H: usize,
    const KV: usize,
    const KH: usize,
    const SH: usize,
    const DC: usize,
    const DT: usize,
> {
    /// The one clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: runs 0, every slot dirty, countdown K, nothing in flight.
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
    /// The datapath: the picked slot's word registered, its runs F + 1 cycles later.
    pub finder: WordFinder<V, H, KV, KH, SH, DC, DT>,
    dirty: DFF<Bits<7>>,
    /// The lowest set bit of `dirty`, kept in a register of its own (computed from `dirty`'s
    /// next value), so the pick's one-hot drives the word mux straight from a flip-flop.
    pick_r: DFF<Bits<7>>,
    stale: DFF<Bits<4>>,
    runs: [DFF<Bits<KV>>; 9],
    /// Slot tags (one-hot) travelling with the word: `tag[s]` is stage s's slot.
    tag: Vec<DFF<Bits<7>>>,
    sc_a: Signal<Local, Bits<7>>,
    sc_b: Signal<Local, Bits<7>>,
    sc_c: Signal<Local, Bits<7>>,
    slot_change: Signal<Local, Bits<7>>,
    /// One-hot: the lowest dirty slot, picked this cycle (= `pick_r`).
    pick: Signal<Local, Bits<7>>,
    /// `dirty`'s next value.
    dirty_next: Signal<Local, Bits<7>>,
    /// The word of the picked slot (the word register's input).
    wmux: Signal<Local, Bits<V>>,
    /// Stage F: its slot and the word's runs (whole, low half, high half).
    wtag: Signal<Local, Bits<7>>,
    full: Signal<Local, Bits<KV>>,
    b_lo: Signal<Local, Bits<KV>>,
    b_hi: Signal<Local, Bits<KV>>,
    low4: Constant<Bits<7>>,
    bit4: Constant<Bits<7>>,
    bit5: Constant<Bits<7>>,
    bit6: Constant<Bits<7>>,
    all7: Constant<Bits<7>>,
    one7: Constant<Bits<7>>,
    kconst: Constant<Bits<4>>,
    one4: Constant<Bits<4>>,
    hshift: Constant<Bits<8>>,
}

impl<
        const V: usize,
        const S: usize,
        const L: usize,
        const H: usize,
        const KV: usize,
        const KH: usize,
        const SH: usize,
        const DC: usize,
        const DT: usize,
    > RunCachePipe<V, S, L, H, KV, KH, SH, DC, DT>
{
    /// Cycles from a pick to the first cycle its run is visible: D = F + 1 (F = 2 + DC).
    pub const DELAY: usize = DC + 3;
    /// Refresh latency K = 7 slots + D (12 at full widths, 10 at V = 16).
    pub const K: usize = 7 + DC + 3;

    /// The refresh latency K of this cache (see the module doc).
    pub fn refresh_latency() -> usize {
        Self::K
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
        const DC: usize,
        const DT: usize,
    > Default for RunCachePipe<V, S, L, H, KV, KH, SH, DC, DT>
{
    fn default() -> Self {
        assert!(
            V.is_power_of_two() && (16..=128).contains(&V),
            "RunCachePipe: V = {V} must be a power of two in 16..=128"
        );
        assert_eq!(H * 2, V, "RunCachePipe: H must be V/2");
        assert!(
            (1..=H).contains(&S),
            "RunCachePipe: S = {S} must be 1..=V/2"
        );
        assert!((1..=V).contains(&L), "RunCachePipe: L = {L} must be 1..=V");
        assert_eq!(1 << SH, H, "RunCachePipe: SH must be log2(H)");
        assert_eq!(KH, SH + 1, "RunCachePipe: KH must be clog2(H+1)");
        assert_eq!(KV, SH + 2, "RunCachePipe: KV must be clog2(V+1)");
        assert!(
            SH - 2 + DT == 2 + DC && (DC == 0 || DT == 0),
            "RunCachePipe: DC = {DC}, DT = {DT} must pad the shorter path to max(log2(H) − 2, 2)"
        );
        assert!(Self::K < 16, "RunCachePipe: K must fit the 4-bit countdown");
        RunCachePipe {
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
            finder: Default::default(),
            dirty: Default::default(),
            pick_r: Default::default(),
            stale: Default::default(),
            runs: Default::default(),
            tag: locals(DC + 3),
            sc_a: Default::default(),
            sc_b: Default::default(),
            sc_c: Default::default(),
            slot_change: Default::default(),
            pick: Default::default(),
            dirty_next: Default::default(),
            wmux: Default::default(),
            wtag: Default::default(),
            full: Default::default(),
            b_lo: Default::default(),
            b_hi: Default::default(),
            low4: konst(0xf),
            bit4: konst(1 << 4),
            bit5: konst(1 << 5),
            bit6: konst(1 << 6),
            all7: konst(0x7f),
            one7: konst(1),
            kconst: konst(Self::K as u64),
            one4: konst(1),
            hshift: konst(H as u64),
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
        const DC: usize,
        const DT: usize,
    > Logic for RunCachePipe<V, S, L, H, KV, KH, SH, DC, DT>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, dirty, pick_r, stale);
        for j in 0..9 {
            self.runs[j].clock.next = self.clock.val();
            self.runs[j].d.next = self.runs[j].q.val();
        }
        for s in 0..(DC + 3) {
            self.tag[s].clock.next = self.clock.val();
        }
        self.finder.clock.next = self.clock.val();
        self.finder.reset.next = self.reset.val();
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
        // Cycle e: the lowest dirty slot and its word (SGPR pairs in the two halves), registered.
        self.pick.next = self.pick_r.q.val();
        self.wmux.next = 0.into();
        if self.pick.val().get_bit(0) {
            self.wmux.next = self.vgpr0.val();
        }
        if self.pick.val().get_bit(1) {
            self.wmux.next = self.vgpr1.val();
        }
        if self.pick.val().get_bit(2) {
            self.wmux.next = self.vgpr2.val();
        }
        if self.pick.val().get_bit(3) {
            self.wmux.next = self.vgpr3.val();
        }
        if self.pick.val().get_bit(4) {
            self.wmux.next = bit_cast::<V, S>(self.sgpr0.val())
                | (bit_cast::<V, S>(self.sgpr1.val()) << self.hshift.val());
        }
        if self.pick.val().get_bit(5) {
            self.wmux.next = bit_cast::<V, S>(self.sgpr2.val())
                | (bit_cast::<V, S>(self.sgpr3.val()) << self.hshift.val());
        }
        if self.pick.val().get_bit(6) {
            self.wmux.next = bit_cast::<V, L>(self.lds.val());
        }
        self.finder.word_in.next = self.wmux.val();
        // Slot tags: stage s + 1 gets stage s's; `reset` empties the pipeline.
        self.tag[0].d.next = self.pick.val();
        for s in 0..(DC + 2) {
            self.tag[s + 1].d.next = self.tag[s].q.val();
        }
        for zz in (DC + 2)..(DC + 3) {
            self.wtag.next = self.tag[zz].q.val();
        }
        // Stage F: the word's runs (the finder's outputs) land in the slot's run register(s).
        self.full.next = self.finder.run_full.val();
        self.b_lo.next = self.finder.run_lo.val();
        self.b_hi.next = self.finder.run_hi.val();
        // Register the landing slot's run(s); the SGPR pair takes the halves (no crossing).
        for j in 0..4 {
            if self.wtag.val().get_bit(j) {
                self.runs[j].d.next = self.full.val();
            }
        }
        if self.wtag.val().get_bit(4) {
            self.runs[4].d.next = self.b_lo.val();
            self.runs[5].d.next = self.b_hi.val();
        }
        if self.wtag.val().get_bit(5) {
            self.runs[6].d.next = self.b_lo.val();
            self.runs[7].d.next = self.b_hi.val();
        }
        if self.wtag.val().get_bit(6) {
            self.runs[8].d.next = self.full.val();
        }
        // Dirty bits: picked slots clear, written slots set (also while in flight).
        self.dirty_next.next = (self.dirty.q.val() & !self.pick.val()) | self.slot_change.val();
        self.dirty.d.next = self.dirty_next.val();
        self.pick_r.d.next = self.dirty_next.val() & (!self.dirty_next.val() + self.one7.val());
        self.stale.d.next = self.stale.q.val();
        if self.stale.q.val().any() {
            self.stale.d.next = self.stale.q.val() - self.one4.val();
        }
        if self.change.val().any() {
            self.stale.d.next = self.kconst.val();
        }
        if self.reset.val() {
            self.dirty.d.next = self.all7.val();
            self.pick_r.d.next = self.one7.val();
            self.stale.d.next = self.kconst.val();
            for j in 0..9 {
                self.runs[j].d.next = 0.into();
            }
            for s in 0..(DC + 3) {
                self.tag[s].d.next = 0.into();
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

/// V = 16 / SGPR 6 / LDS 12 (odd widths): LT = 1, padded to F = 2; K = 10.
pub type RunCachePipeSmall = RunCachePipe<16, 6, 12, 8, 5, 4, 3, 0, 1>;
/// The board widths 16 / 8 / 16: K = 10.
pub type RunCachePipeBoard = RunCachePipe<16, 8, 16, 8, 5, 4, 3, 0, 1>;
/// `DispatcherConfig::full()`'s widths 128 / 64 / 48: LT = 4, D = 5, K = 12.
pub type RunCachePipeFull = RunCachePipe<128, 64, 48, 64, 8, 7, 6, 2, 0>;

/// One refresh datapath: the word presented in cycle c is registered; its longest free run
/// (`run_full`) and the runs of its two halves (`run_lo`, `run_hi`: the SGPR pair's two maps)
/// are on the outputs in cycle c + 1 + F, F = 2 + DC (combinational from stage F's registers).
/// Two Unit 2 [`RunTreePipe`]s of H = V/2 blocks on the halves (latency log2(H) − 2) and the
/// two-stage crossing term `slen(lo) + plen(hi)` (the stages: this module's doc); `DC` / `DT`
/// pad the shorter path. [`RunCachePipe`] runs one on its picked slot, `super::MapRefresh` one
/// per word group and write port.
#[derive(LogicBlock)]
pub struct WordFinder<
    const V: usize,
    const H: usize,
    const KV: usize,
    const KH: usize,
    const SH: usize,
    const DC: usize,
    const DT: usize,
> {
    /// The one clock.
    pub clock: Signal<In, Clock>,
    /// Clears the trees' pipelines.
    pub reset: Signal<In, Bit>,
    /// The word (1 = free), registered at the end of this cycle.
    pub word_in: Signal<In, Bits<V>>,
    /// Longest free run of the word presented F + 1 cycles ago.
    pub run_full: Signal<Out, Bits<KV>>,
    /// Longest free run of its low half.
    pub run_lo: Signal<Out, Bits<KV>>,
    /// Longest free run of its high half.
    pub run_hi: Signal<Out, Bits<KV>>,
    /// Unit 2 pipelined tree finders over the low and the high half of the registered word.
    pub tree_lo: RunTreePipe<H, V, KH, SH>,
    pub tree_hi: RunTreePipe<H, V, KH, SH>,
    word: DFF<Bits<V>>,
    z_hi: DFF<Bits<H>>,
    oh_lo: DFF<Bits<H>>,
    hi_all: DFF<Bit>,
    lo_all: DFF<Bit>,
    xrun: DFF<Bits<KV>>,
    cdel: Vec<DFF<Bits<KV>>>,
    tdel_lo: Vec<DFF<Bits<KV>>>,
    tdel_hi: Vec<DFF<Bits<KV>>>,
    cdl: Vec<Signal<Local, Bits<KV>>>,
    tdl_lo: Vec<Signal<Local, Bits<KV>>>,
    tdl_hi: Vec<Signal<Local, Bits<KV>>>,
    lo: Signal<Local, Bits<H>>,
    hi: Signal<Local, Bits<H>>,
    pre: Vec<Signal<Local, Bits<H>>>,
    p_acc: Vec<Signal<Local, Bits<KH>>>,
    plen_hi: Signal<Local, Bits<KH>>,
    q_acc: Vec<Signal<Local, Bits<KH>>>,
    slen_lo: Signal<Local, Bits<KH>>,
    cross_f: Signal<Local, Bits<KV>>,
    b_lo: Signal<Local, Bits<KV>>,
    b_hi: Signal<Local, Bits<KV>>,
    x_wins: Signal<Local, Bit>,
    hshift: Constant<Bits<8>>,
    one8: Constant<Bits<8>>,
    one_h: Constant<Bits<H>>,
    h_full: Constant<Bits<KH>>,
    hm1: Constant<Bits<KH>>,
    emask: Vec<Constant<Bits<H>>>,
    pow: Vec<Constant<Bits<KH>>>,
    dsh: Vec<Constant<Bits<8>>>,
}

impl<
        const V: usize,
        const H: usize,
        const KV: usize,
        const KH: usize,
        const SH: usize,
        const DC: usize,
        const DT: usize,
    > Default for WordFinder<V, H, KV, KH, SH, DC, DT>
{
    fn default() -> Self {
        assert!(
            V.is_power_of_two() && (16..=128).contains(&V),
            "WordFinder: V = {V} must be a power of two in 16..=128"
        );
        assert_eq!(H * 2, V, "WordFinder: H must be V/2");
        assert_eq!(1 << SH, H, "WordFinder: SH must be log2(H)");
        assert_eq!(KH, SH + 1, "WordFinder: KH must be clog2(H+1)");
        assert_eq!(KV, SH + 2, "WordFinder: KV must be clog2(V+1)");
        assert!(
            SH - 2 + DT == 2 + DC && (DC == 0 || DT == 0),
            "WordFinder: DC = {DC}, DT = {DT} must pad the shorter path to max(log2(H) − 2, 2)"
        );
        Self {
            clock: Default::default(),
            reset: Default::default(),
            word_in: Default::default(),
            run_full: Default::default(),
            run_lo: Default::default(),
            run_hi: Default::default(),
            tree_lo: Default::default(),
            tree_hi: Default::default(),
            word: Default::default(),
            z_hi: Default::default(),
            oh_lo: Default::default(),
            hi_all: Default::default(),
            lo_all: Default::default(),
            xrun: Default::default(),
            cdel: locals(DC),
            tdel_lo: locals(DT),
            tdel_hi: locals(DT),
            cdl: locals(DC + 1),
            tdl_lo: locals(DT + 1),
            tdl_hi: locals(DT + 1),
            lo: Default::default(),
            hi: Default::default(),
            pre: locals(SH + 1),
            p_acc: locals(SH + 1),
            plen_hi: Default::default(),
            q_acc: locals(SH + 1),
            slen_lo: Default::default(),
            cross_f: Default::default(),
            b_lo: Default::default(),
            b_hi: Default::default(),
            x_wins: Default::default(),
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
        const H: usize,
        const KV: usize,
        const KH: usize,
        const SH: usize,
        const DC: usize,
        const DT: usize,
    > Logic for WordFinder<V, H, KV, KH, SH, DC, DT>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, word, z_hi, oh_lo, hi_all, lo_all, xrun);
        for s in 0..DC {
            self.cdel[s].clock.next = self.clock.val();
        }
        for s in 0..DT {
            self.tdel_lo[s].clock.next = self.clock.val();
            self.tdel_hi[s].clock.next = self.clock.val();
        }
        self.word.d.next = self.word_in.val();
        // Stage 0: the registered word into the two pipelined trees.
        self.lo.next = self.word.q.val().get_bits::<H>(0);
        self.hi.next = self.word.q.val().get_bits::<H>(self.hshift.val().index());
        self.tree_lo.clock.next = self.clock.val();
        self.tree_lo.reset.next = self.reset.val();
        self.tree_lo.bits.next = self.lo.val();
        self.tree_lo.need.next = 0.into();
        self.tree_hi.clock.next = self.clock.val();
        self.tree_hi.reset.next = self.reset.val();
        self.tree_hi.bits.next = self.hi.val();
        self.tree_hi.need.next = 0.into();
        // Stage 0 of the crossing term: hi's lowest used block and lo's highest, one-hot.
        self.z_hi.d.next = !self.hi.val() & (self.hi.val() + self.one_h.val());
        self.hi_all.d.next = self.hi.val().all();
        self.pre[0].next = !self.lo.val();
        for j in 0..SH {
            self.pre[j + 1].next = self.pre[j].val() | (self.pre[j].val() >> self.dsh[j].val());
        }
        for zz in SH..(SH + 1) {
            self.oh_lo.d.next = self.pre[zz].val() & !(self.pre[zz].val() >> self.one8.val());
        }
        self.lo_all.d.next = self.lo.val().all();
        // Stage 1: encode both; free prefix of hi (H if all free) + free suffix of lo.
        self.p_acc[0].next = 0.into();
        self.q_acc[0].next = 0.into();
        for b in 0..SH {
            self.p_acc[b + 1].next = self.p_acc[b].val();
            if (self.z_hi.q.val() & self.emask[b].val()).any() {
                self.p_acc[b + 1].next = self.p_acc[b].val() | self.pow[b].val();
            }
            self.q_acc[b + 1].next = self.q_acc[b].val();
            if (self.oh_lo.q.val() & self.emask[b].val()).any() {
                self.q_acc[b + 1].next = self.q_acc[b].val() | self.pow[b].val();
            }
        }
        for zz in SH..(SH + 1) {
            self.plen_hi.next = self.p_acc[zz].val();
            self.slen_lo.next = self.hm1.val() - self.q_acc[zz].val();
        }
        if self.hi_all.q.val() {
            self.plen_hi.next = self.h_full.val();
        }
        if self.lo_all.q.val() {
            self.slen_lo.next = self.h_full.val();
        }
        self.xrun.d.next =
            bit_cast::<KV, KH>(self.slen_lo.val()) + bit_cast::<KV, KH>(self.plen_hi.val());
        // Delay lines to stage F.
        self.cdl[0].next = self.xrun.q.val();
        for s in 0..DC {
            self.cdel[s].d.next = self.cdl[s].val();
            self.cdl[s + 1].next = self.cdel[s].q.val();
        }
        self.tdl_lo[0].next = bit_cast::<KV, KH>(self.tree_lo.max_run.val());
        self.tdl_hi[0].next = bit_cast::<KV, KH>(self.tree_hi.max_run.val());
        for s in 0..DT {
            self.tdel_lo[s].d.next = self.tdl_lo[s].val();
            self.tdl_lo[s + 1].next = self.tdel_lo[s].q.val();
            self.tdel_hi[s].d.next = self.tdl_hi[s].val();
            self.tdl_hi[s + 1].next = self.tdel_hi[s].q.val();
        }
        for zz in DC..(DC + 1) {
            self.cross_f.next = self.cdl[zz].val();
        }
        for zz in DT..(DT + 1) {
            self.b_lo.next = self.tdl_lo[zz].val();
            self.b_hi.next = self.tdl_hi[zz].val();
        }
        // Stage F: whole-word run = max(best(lo), best(hi), crossing run).
        self.x_wins.next =
            (self.cross_f.val() > self.b_lo.val()) & (self.cross_f.val() > self.b_hi.val());
        self.run_full.next = self.b_lo.val();
        if self.b_hi.val() > self.b_lo.val() {
            self.run_full.next = self.b_hi.val();
        }
        if self.x_wins.val() {
            self.run_full.next = self.cross_f.val();
        }
        self.run_lo.next = self.b_lo.val();
        self.run_hi.next = self.b_hi.val();
    }
}
