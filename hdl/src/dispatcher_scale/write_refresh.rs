//! [`MapRefresh`]: the map RAM ([`super::MapRam`]) with the run registers refreshed from its
//! write stream (design block 6, build step 2, "WriteRefresh"; `docs/dispatcher_scale.md`).
//!
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `clock`, `reset`, `alloc_*`, `free_*`, `rd_module`, `rd_*` | | | exactly [`super::MapRam`]'s ports and contract |
//! | `runs_vgpr0`..`runs_vgpr3`, `runs_sgpr0`..`runs_sgpr3`, `runs_lds` | out | 16 · KV | per map, the 16 modules' longest free runs: module m in bits KV·m .. KV·m + KV − 1 (KV = clog2(V + 1): 8 at full widths, so 128 bits per port) |
//! | `eligible` | out | 16 | bit m: module m's runs are the runs of its current maps |
//!
//! **Contract** (per module m, that of the run cache `super::RunCache` with K = D + 1 and no
//! schedule: `testbench::dispatcher_scale::RunCacheContract::with_k` judges it module by
//! module). A write request on m in cycle w (port A, port F, or both merged; accepted, i.e.
//! not in a reset cycle) changes m's maps from M(w + 1) on (MapRam's contract); `eligible[m]`
//! is low in w + 1 .. w + K and high from w + K + 1 if no later request or reset on m, and
//! whenever `eligible[m]` is high every one of m's nine runs is the longest free run of its map
//! in the current M(t). Every run shown is the run of a value its map held since the last
//! reset. `reset` in cycle w: every run reads its map's width (all free, what the reset leaves)
//! from w + 1, nothing in flight lands after it, every module ineligible for K cycles.
//! **K = D + 1 = 7** at full widths (D = 6: word register + the 4-stage trees + stage F's
//! result register), 5 at V = 16.
//!
//! **Structure.** The RMW results MapRam writes at the end of cycle w + 1 (for the requests of
//! w: `MapRamCore`'s `wr_*` outputs) enter two sets of seven [`WordFinder`]s (one set per
//! write port, one finder per word group: VGPR u0..u3, SGPR u0 ‖ u1, SGPR u2 ‖ u3, LDS) — the
//! datapath of `super::RunCachePipe` without its slot pick and 7:1 mux — with a (valid, module)
//! tag per port travelling beside them; stage F's nine runs per port are registered with the
//! written module decoded one-hot (stage G, session 10), and land from those flip-flops in the
//! module's run registers (16 × 9 × KV flip-flops). Both ports never write one
//! module in the same cycle (MapRam merges them), and the two sets have the same depth, so the
//! runs of successive writes of a module land in write order. A countdown per module (3 bits)
//! is loaded with K by an accepted request on the module (or by `reset`); `eligible[m]` =
//! countdown 0.
//!
//! **Cost** (full widths 128 / 64 / 48, ECP5-85F speed 6, inside the flow's harness; `synth
//! report --target ecp5-85f --full --only dispatcher_scale_map_refresh --seeds 1,2,3 --speeds
//! 6`, session 10): 19 108 LUT4 + 2 724 CCU2C + 1 224 `TRELLIS_DPR16X4`, **35 142 LUT4 sites**
//! (42 %; MapRam's 12 048 included), 11 643 flip-flops (3 631 of them the harness's);
//! **102.4 MHz median** (103.2, 102.4, 93.8; seed 3 by hand on the flow's netlist), K = 7.
//! History (session 9's unregistered stage F: 92.9 MHz median, K = 6) and the critical paths:
//! `docs/dispatcher_scale.md`.

use super::map_ram::MapRamCore;
use super::run_cache_pipe::WordFinder;
use super::{konst, locals};
use rust_hdl::prelude::*;

/// The map RAM with its run registers refreshed from the write stream. `V`, `S`, `S2` = 2·S,
/// `L` as in [`super::MapRam`]; `H`, `KV`, `KH`, `SH`, `DC`, `DT` as in [`super::RunCachePipe`];
/// `R` = 16·KV (one `runs_*` port). See the module doc.
#[derive(LogicBlock)]
pub struct MapRefresh<
    const V: usize,
    const S: usize,
    const S2: usize,
    const L: usize,
    const H: usize,
    const KV: usize,
    const KH: usize,
    const SH: usize,
    const DC: usize,
    const DT: usize,
    const R: usize,
> {
    /// The one clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: every map free, every run its map's width, every module ineligible
    /// for K cycles.
    pub reset: Signal<In, Bit>,
    /// Port A (see `MapRam`).
    pub alloc_en: Signal<In, Bit>,
    pub alloc_module: Signal<In, Bits<4>>,
    pub alloc_vgpr0: Signal<In, Bits<V>>,
    pub alloc_vgpr1: Signal<In, Bits<V>>,
    pub alloc_vgpr2: Signal<In, Bits<V>>,
    pub alloc_vgpr3: Signal<In, Bits<V>>,
    pub alloc_sgpr0: Signal<In, Bits<S>>,
    pub alloc_sgpr1: Signal<In, Bits<S>>,
    pub alloc_sgpr2: Signal<In, Bits<S>>,
    pub alloc_sgpr3: Signal<In, Bits<S>>,
    pub alloc_lds: Signal<In, Bits<L>>,
    /// Port F (see `MapRam`).
    pub free_en: Signal<In, Bit>,
    pub free_module: Signal<In, Bits<4>>,
    pub free_vgpr0: Signal<In, Bits<V>>,
    pub free_vgpr1: Signal<In, Bits<V>>,
    pub free_vgpr2: Signal<In, Bits<V>>,
    pub free_vgpr3: Signal<In, Bits<V>>,
    pub free_sgpr0: Signal<In, Bits<S>>,
    pub free_sgpr1: Signal<In, Bits<S>>,
    pub free_sgpr2: Signal<In, Bits<S>>,
    pub free_sgpr3: Signal<In, Bits<S>>,
    pub free_lds: Signal<In, Bits<L>>,
    /// Port Ra (see `MapRam`: registered read).
    pub rd_module: Signal<In, Bits<4>>,
    pub rd_vgpr0: Signal<Out, Bits<V>>,
    pub rd_vgpr1: Signal<Out, Bits<V>>,
    pub rd_vgpr2: Signal<Out, Bits<V>>,
    pub rd_vgpr3: Signal<Out, Bits<V>>,
    pub rd_sgpr0: Signal<Out, Bits<S>>,
    pub rd_sgpr1: Signal<Out, Bits<S>>,
    pub rd_sgpr2: Signal<Out, Bits<S>>,
    pub rd_sgpr3: Signal<Out, Bits<S>>,
    pub rd_lds: Signal<Out, Bits<L>>,
    /// Per map: the 16 modules' runs (module m in bits KV·m ..).
    pub runs_vgpr0: Signal<Out, Bits<R>>,
    pub runs_vgpr1: Signal<Out, Bits<R>>,
    pub runs_vgpr2: Signal<Out, Bits<R>>,
    pub runs_vgpr3: Signal<Out, Bits<R>>,
    pub runs_sgpr0: Signal<Out, Bits<R>>,
    pub runs_sgpr1: Signal<Out, Bits<R>>,
    pub runs_sgpr2: Signal<Out, Bits<R>>,
    pub runs_sgpr3: Signal<Out, Bits<R>>,
    pub runs_lds: Signal<Out, Bits<R>>,
    /// Bit m: module m's runs are exact (no request on it for K cycles).
    pub eligible: Signal<Out, Bits<16>>,
    /// The maps.
    pub map: MapRamCore<V, S, S2, L>,
    /// Finder sets of ports A and F (groups 0..7).
    pub fa: [WordFinder<V, H, KV, KH, SH, DC, DT>; 7],
    pub ff: [WordFinder<V, H, KV, KH, SH, DC, DT>; 7],
    /// (valid, module) tags of the two ports' words, stage by stage (`DC + 3`).
    tag_a: Vec<DFF<Bits<5>>>,
    tag_f: Vec<DFF<Bits<5>>>,
    /// Stage G (session 10): stage F's nine runs per port, registered (`9 p + j`, p = 0 port A,
    /// 1 port F), and the landing module one-hot (decoded from stage F's tag; 0 = nothing).
    res: Vec<DFF<Bits<KV>>>,
    hot_a: DFF<Bits<16>>,
    hot_f: DFF<Bits<16>>,
    hot_a_n: Signal<Local, Bits<16>>,
    hot_f_n: Signal<Local, Bits<16>>,
    /// Run registers: module m, map j at `9 m + j`.
    runs: Vec<DFF<Bits<KV>>>,
    /// Per module: cycles until its runs are exact.
    stale: Vec<DFF<Bits<3>>>,
    /// Stage F's tags.
    land_a: Signal<Local, Bits<5>>,
    land_f: Signal<Local, Bits<5>>,
    /// Packing chains of the `runs_*` ports: map j, after module m at `17 j + m + 1`.
    pk: Vec<Signal<Local, Bits<R>>>,
    el: Vec<Signal<Local, Bits<16>>>,
    /// Tag constants: valid + module m; shift KV·m; the maps' widths; K.
    mtag: Vec<Constant<Bits<5>>>,
    mnum: Vec<Constant<Bits<4>>>,
    vbit: Constant<Bits<5>>,
    msh: Vec<Constant<Bits<8>>>,
    mbit: Vec<Constant<Bits<16>>>,
    width: Vec<Constant<Bits<KV>>>,
    kconst: Constant<Bits<3>>,
    one3: Constant<Bits<3>>,
    sshift: Constant<Bits<8>>,
    hshift: Constant<Bits<8>>,
}

impl<
        const V: usize,
        const S: usize,
        const S2: usize,
        const L: usize,
        const H: usize,
        const KV: usize,
        const KH: usize,
        const SH: usize,
        const DC: usize,
        const DT: usize,
        const R: usize,
    > MapRefresh<V, S, S2, L, H, KV, KH, SH, DC, DT, R>
{
    /// Refresh latency K = D + 1 = DC + 5 (7 at full widths, 5 at V = 16): D = word register
    /// + trees + stage F + the landing register (stage G).
    pub const K: usize = DC + 5;
}

impl<
        const V: usize,
        const S: usize,
        const S2: usize,
        const L: usize,
        const H: usize,
        const KV: usize,
        const KH: usize,
        const SH: usize,
        const DC: usize,
        const DT: usize,
        const R: usize,
    > Default for MapRefresh<V, S, S2, L, H, KV, KH, SH, DC, DT, R>
{
    fn default() -> Self {
        assert_eq!(R, 16 * KV, "MapRefresh: R must be 16 * KV");
        assert!(S <= H && L <= V, "MapRefresh: S ≤ V/2 and L ≤ V");
        assert!(Self::K < 8, "MapRefresh: K must fit the 3-bit countdown");
        let widths = [V, V, V, V, S, S, S, S, L];
        Self {
            clock: Default::default(),
            reset: Default::default(),
            alloc_en: Default::default(),
            alloc_module: Default::default(),
            alloc_vgpr0: Default::default(),
            alloc_vgpr1: Default::default(),
            alloc_vgpr2: Default::default(),
            alloc_vgpr3: Default::default(),
            alloc_sgpr0: Default::default(),
            alloc_sgpr1: Default::default(),
            alloc_sgpr2: Default::default(),
            alloc_sgpr3: Default::default(),
            alloc_lds: Default::default(),
            free_en: Default::default(),
            free_module: Default::default(),
            free_vgpr0: Default::default(),
            free_vgpr1: Default::default(),
            free_vgpr2: Default::default(),
            free_vgpr3: Default::default(),
            free_sgpr0: Default::default(),
            free_sgpr1: Default::default(),
            free_sgpr2: Default::default(),
            free_sgpr3: Default::default(),
            free_lds: Default::default(),
            rd_module: Default::default(),
            rd_vgpr0: Default::default(),
            rd_vgpr1: Default::default(),
            rd_vgpr2: Default::default(),
            rd_vgpr3: Default::default(),
            rd_sgpr0: Default::default(),
            rd_sgpr1: Default::default(),
            rd_sgpr2: Default::default(),
            rd_sgpr3: Default::default(),
            rd_lds: Default::default(),
            runs_vgpr0: Default::default(),
            runs_vgpr1: Default::default(),
            runs_vgpr2: Default::default(),
            runs_vgpr3: Default::default(),
            runs_sgpr0: Default::default(),
            runs_sgpr1: Default::default(),
            runs_sgpr2: Default::default(),
            runs_sgpr3: Default::default(),
            runs_lds: Default::default(),
            eligible: Default::default(),
            map: Default::default(),
            fa: Default::default(),
            ff: Default::default(),
            tag_a: locals(DC + 3),
            tag_f: locals(DC + 3),
            res: locals(18),
            hot_a: Default::default(),
            hot_f: Default::default(),
            hot_a_n: Default::default(),
            hot_f_n: Default::default(),
            runs: locals(16 * 9),
            stale: locals(16),
            land_a: Default::default(),
            land_f: Default::default(),
            pk: locals(9 * 17),
            el: locals(17),
            mtag: (0..16).map(|m| konst(16 | m)).collect(),
            mnum: (0..16).map(konst).collect(),
            vbit: konst(16),
            msh: (0..16).map(|m| konst((KV * m) as u64)).collect(),
            mbit: (0..16).map(|m| konst(1 << m)).collect(),
            width: widths.iter().map(|&w| konst(w as u64)).collect(),
            kconst: konst(Self::K as u64),
            one3: konst(1),
            sshift: konst(S as u64),
            hshift: konst(H as u64),
        }
    }
}

impl<
        const V: usize,
        const S: usize,
        const S2: usize,
        const L: usize,
        const H: usize,
        const KV: usize,
        const KH: usize,
        const SH: usize,
        const DC: usize,
        const DT: usize,
        const R: usize,
    > Logic for MapRefresh<V, S, S2, L, H, KV, KH, SH, DC, DT, R>
{
    #[hdl_gen]
    fn update(&mut self) {
        // the map RAM
        self.map.clock.next = self.clock.val();
        self.map.reset.next = self.reset.val();
        self.map.alloc_en.next = self.alloc_en.val();
        self.map.alloc_module.next = self.alloc_module.val();
        self.map.alloc_vgpr0.next = self.alloc_vgpr0.val();
        self.map.alloc_vgpr1.next = self.alloc_vgpr1.val();
        self.map.alloc_vgpr2.next = self.alloc_vgpr2.val();
        self.map.alloc_vgpr3.next = self.alloc_vgpr3.val();
        self.map.alloc_sgpr0.next = self.alloc_sgpr0.val();
        self.map.alloc_sgpr1.next = self.alloc_sgpr1.val();
        self.map.alloc_sgpr2.next = self.alloc_sgpr2.val();
        self.map.alloc_sgpr3.next = self.alloc_sgpr3.val();
        self.map.alloc_lds.next = self.alloc_lds.val();
        self.map.free_en.next = self.free_en.val();
        self.map.free_module.next = self.free_module.val();
        self.map.free_vgpr0.next = self.free_vgpr0.val();
        self.map.free_vgpr1.next = self.free_vgpr1.val();
        self.map.free_vgpr2.next = self.free_vgpr2.val();
        self.map.free_vgpr3.next = self.free_vgpr3.val();
        self.map.free_sgpr0.next = self.free_sgpr0.val();
        self.map.free_sgpr1.next = self.free_sgpr1.val();
        self.map.free_sgpr2.next = self.free_sgpr2.val();
        self.map.free_sgpr3.next = self.free_sgpr3.val();
        self.map.free_lds.next = self.free_lds.val();
        self.map.rd_module.next = self.rd_module.val();
        self.rd_vgpr0.next = self.map.rd_vgpr0.val();
        self.rd_vgpr1.next = self.map.rd_vgpr1.val();
        self.rd_vgpr2.next = self.map.rd_vgpr2.val();
        self.rd_vgpr3.next = self.map.rd_vgpr3.val();
        self.rd_sgpr0.next = self.map.rd_sgpr0.val();
        self.rd_sgpr1.next = self.map.rd_sgpr1.val();
        self.rd_sgpr2.next = self.map.rd_sgpr2.val();
        self.rd_sgpr3.next = self.map.rd_sgpr3.val();
        self.rd_lds.next = self.map.rd_lds.val();
        // the words written at the end of this cycle into the finders (SGPR unit 2p + 1 moves
        // from bit S of its pair word to the high half)
        for g in 0..7 {
            self.fa[g].clock.next = self.clock.val();
            self.fa[g].reset.next = self.reset.val();
            self.ff[g].clock.next = self.clock.val();
            self.ff[g].reset.next = self.reset.val();
        }
        self.fa[0].word_in.next = self.map.wr_a_v0.val();
        self.fa[1].word_in.next = self.map.wr_a_v1.val();
        self.fa[2].word_in.next = self.map.wr_a_v2.val();
        self.fa[3].word_in.next = self.map.wr_a_v3.val();
        self.fa[4].word_in.next = bit_cast::<V, S>(self.map.wr_a_s0.val().get_bits::<S>(0))
            | (bit_cast::<V, S>(
                self.map
                    .wr_a_s0
                    .val()
                    .get_bits::<S>(self.sshift.val().index()),
            ) << self.hshift.val());
        self.fa[5].word_in.next = bit_cast::<V, S>(self.map.wr_a_s1.val().get_bits::<S>(0))
            | (bit_cast::<V, S>(
                self.map
                    .wr_a_s1
                    .val()
                    .get_bits::<S>(self.sshift.val().index()),
            ) << self.hshift.val());
        self.fa[6].word_in.next = bit_cast::<V, L>(self.map.wr_a_l.val());
        self.ff[0].word_in.next = self.map.wr_f_v0.val();
        self.ff[1].word_in.next = self.map.wr_f_v1.val();
        self.ff[2].word_in.next = self.map.wr_f_v2.val();
        self.ff[3].word_in.next = self.map.wr_f_v3.val();
        self.ff[4].word_in.next = bit_cast::<V, S>(self.map.wr_f_s0.val().get_bits::<S>(0))
            | (bit_cast::<V, S>(
                self.map
                    .wr_f_s0
                    .val()
                    .get_bits::<S>(self.sshift.val().index()),
            ) << self.hshift.val());
        self.ff[5].word_in.next = bit_cast::<V, S>(self.map.wr_f_s1.val().get_bits::<S>(0))
            | (bit_cast::<V, S>(
                self.map
                    .wr_f_s1
                    .val()
                    .get_bits::<S>(self.sshift.val().index()),
            ) << self.hshift.val());
        self.ff[6].word_in.next = bit_cast::<V, L>(self.map.wr_f_l.val());
        // the tags travel beside the words; a reset empties them
        for s in 0..(DC + 3) {
            self.tag_a[s].clock.next = self.clock.val();
            self.tag_f[s].clock.next = self.clock.val();
        }
        self.tag_a[0].d.next = bit_cast::<5, 4>(self.map.wr_a_module.val());
        if self.map.wr_a_en.val() {
            self.tag_a[0].d.next = bit_cast::<5, 4>(self.map.wr_a_module.val()) | self.vbit.val();
        }
        self.tag_f[0].d.next = bit_cast::<5, 4>(self.map.wr_f_module.val());
        if self.map.wr_f_en.val() {
            self.tag_f[0].d.next = bit_cast::<5, 4>(self.map.wr_f_module.val()) | self.vbit.val();
        }
        for s in 0..(DC + 2) {
            self.tag_a[s + 1].d.next = self.tag_a[s].q.val();
            self.tag_f[s + 1].d.next = self.tag_f[s].q.val();
        }
        for zz in (DC + 2)..(DC + 3) {
            self.land_a.next = self.tag_a[zz].q.val();
            self.land_f.next = self.tag_f[zz].q.val();
        }
        // stage F: the nine runs per port and the landing module (one-hot) are registered
        // (stage G), so the landing below starts at flip-flops
        self.hot_a.clock.next = self.clock.val();
        self.hot_f.clock.next = self.clock.val();
        for p in 0..18 {
            self.res[p].clock.next = self.clock.val();
        }
        self.res[0].d.next = self.fa[0].run_full.val();
        self.res[1].d.next = self.fa[1].run_full.val();
        self.res[2].d.next = self.fa[2].run_full.val();
        self.res[3].d.next = self.fa[3].run_full.val();
        self.res[4].d.next = self.fa[4].run_lo.val();
        self.res[5].d.next = self.fa[4].run_hi.val();
        self.res[6].d.next = self.fa[5].run_lo.val();
        self.res[7].d.next = self.fa[5].run_hi.val();
        self.res[8].d.next = self.fa[6].run_full.val();
        self.res[9].d.next = self.ff[0].run_full.val();
        self.res[10].d.next = self.ff[1].run_full.val();
        self.res[11].d.next = self.ff[2].run_full.val();
        self.res[12].d.next = self.ff[3].run_full.val();
        self.res[13].d.next = self.ff[4].run_lo.val();
        self.res[14].d.next = self.ff[4].run_hi.val();
        self.res[15].d.next = self.ff[5].run_lo.val();
        self.res[16].d.next = self.ff[5].run_hi.val();
        self.res[17].d.next = self.ff[6].run_full.val();
        self.hot_a_n.next = 0.into();
        self.hot_f_n.next = 0.into();
        for m in 0..16 {
            if self.land_a.val() == self.mtag[m].val() {
                self.hot_a_n.next = self.hot_a_n.val() | self.mbit[m].val();
            }
            if self.land_f.val() == self.mtag[m].val() {
                self.hot_f_n.next = self.hot_f_n.val() | self.mbit[m].val();
            }
        }
        self.hot_a.d.next = self.hot_a_n.val();
        self.hot_f.d.next = self.hot_f_n.val();
        // stage G: the registered runs land in their module's registers
        for m in 0..16 {
            for j in 0..9 {
                self.runs[9 * m + j].clock.next = self.clock.val();
                self.runs[9 * m + j].d.next = self.runs[9 * m + j].q.val();
                if self.hot_a.q.val().get_bit(m) {
                    self.runs[9 * m + j].d.next = self.res[j].q.val();
                }
                if self.hot_f.q.val().get_bit(m) {
                    self.runs[9 * m + j].d.next = self.res[9 + j].q.val();
                }
            }
            // countdown: loaded by an accepted request on the module
            self.stale[m].clock.next = self.clock.val();
            self.stale[m].d.next = self.stale[m].q.val();
            if self.stale[m].q.val().any() {
                self.stale[m].d.next = self.stale[m].q.val() - self.one3.val();
            }
            if (self.map.req_a.val() & (self.alloc_module.val() == self.mnum[m].val()))
                | (self.map.req_f.val() & (self.free_module.val() == self.mnum[m].val()))
            {
                self.stale[m].d.next = self.kconst.val();
            }
            if self.reset.val() {
                self.stale[m].d.next = self.kconst.val();
                for j in 0..9 {
                    self.runs[9 * m + j].d.next = self.width[j].val();
                }
            }
        }
        if self.reset.val() {
            self.hot_a.d.next = 0.into();
            self.hot_f.d.next = 0.into();
            for s in 0..(DC + 3) {
                self.tag_a[s].d.next = 0.into();
                self.tag_f[s].d.next = 0.into();
            }
        }
        // outputs: the runs packed per map, eligible = countdown 0
        // (written out: `bit_cast` of a loop-indexed signal does not compile in `hdl_gen`)
        self.pk[0].next = 0.into();
        self.pk[1].next =
            self.pk[0].val() | (bit_cast::<R, KV>(self.runs[0].q.val()) << self.msh[0].val());
        self.pk[2].next =
            self.pk[1].val() | (bit_cast::<R, KV>(self.runs[9].q.val()) << self.msh[1].val());
        self.pk[3].next =
            self.pk[2].val() | (bit_cast::<R, KV>(self.runs[18].q.val()) << self.msh[2].val());
        self.pk[4].next =
            self.pk[3].val() | (bit_cast::<R, KV>(self.runs[27].q.val()) << self.msh[3].val());
        self.pk[5].next =
            self.pk[4].val() | (bit_cast::<R, KV>(self.runs[36].q.val()) << self.msh[4].val());
        self.pk[6].next =
            self.pk[5].val() | (bit_cast::<R, KV>(self.runs[45].q.val()) << self.msh[5].val());
        self.pk[7].next =
            self.pk[6].val() | (bit_cast::<R, KV>(self.runs[54].q.val()) << self.msh[6].val());
        self.pk[8].next =
            self.pk[7].val() | (bit_cast::<R, KV>(self.runs[63].q.val()) << self.msh[7].val());
        self.pk[9].next =
            self.pk[8].val() | (bit_cast::<R, KV>(self.runs[72].q.val()) << self.msh[8].val());
        self.pk[10].next =
            self.pk[9].val() | (bit_cast::<R, KV>(self.runs[81].q.val()) << self.msh[9].val());
        self.pk[11].next =
            self.pk[10].val() | (bit_cast::<R, KV>(self.runs[90].q.val()) << self.msh[10].val());
        self.pk[12].next =
            self.pk[11].val() | (bit_cast::<R, KV>(self.runs[99].q.val()) << self.msh[11].val());
        self.pk[13].next =
            self.pk[12].val() | (bit_cast::<R, KV>(self.runs[108].q.val()) << self.msh[12].val());
        self.pk[14].next =
            self.pk[13].val() | (bit_cast::<R, KV>(self.runs[117].q.val()) << self.msh[13].val());
        self.pk[15].next =
            self.pk[14].val() | (bit_cast::<R, KV>(self.runs[126].q.val()) << self.msh[14].val());
        self.pk[16].next =
            self.pk[15].val() | (bit_cast::<R, KV>(self.runs[135].q.val()) << self.msh[15].val());
        self.pk[17].next = 0.into();
        self.pk[18].next =
            self.pk[17].val() | (bit_cast::<R, KV>(self.runs[1].q.val()) << self.msh[0].val());
        self.pk[19].next =
            self.pk[18].val() | (bit_cast::<R, KV>(self.runs[10].q.val()) << self.msh[1].val());
        self.pk[20].next =
            self.pk[19].val() | (bit_cast::<R, KV>(self.runs[19].q.val()) << self.msh[2].val());
        self.pk[21].next =
            self.pk[20].val() | (bit_cast::<R, KV>(self.runs[28].q.val()) << self.msh[3].val());
        self.pk[22].next =
            self.pk[21].val() | (bit_cast::<R, KV>(self.runs[37].q.val()) << self.msh[4].val());
        self.pk[23].next =
            self.pk[22].val() | (bit_cast::<R, KV>(self.runs[46].q.val()) << self.msh[5].val());
        self.pk[24].next =
            self.pk[23].val() | (bit_cast::<R, KV>(self.runs[55].q.val()) << self.msh[6].val());
        self.pk[25].next =
            self.pk[24].val() | (bit_cast::<R, KV>(self.runs[64].q.val()) << self.msh[7].val());
        self.pk[26].next =
            self.pk[25].val() | (bit_cast::<R, KV>(self.runs[73].q.val()) << self.msh[8].val());
        self.pk[27].next =
            self.pk[26].val() | (bit_cast::<R, KV>(self.runs[82].q.val()) << self.msh[9].val());
        self.pk[28].next =
            self.pk[27].val() | (bit_cast::<R, KV>(self.runs[91].q.val()) << self.msh[10].val());
        self.pk[29].next =
            self.pk[28].val() | (bit_cast::<R, KV>(self.runs[100].q.val()) << self.msh[11].val());
        self.pk[30].next =
            self.pk[29].val() | (bit_cast::<R, KV>(self.runs[109].q.val()) << self.msh[12].val());
        self.pk[31].next =
            self.pk[30].val() | (bit_cast::<R, KV>(self.runs[118].q.val()) << self.msh[13].val());
        self.pk[32].next =
            self.pk[31].val() | (bit_cast::<R, KV>(self.runs[127].q.val()) << self.msh[14].val());
        self.pk[33].next =
            self.pk[32].val() | (bit_cast::<R, KV>(self.runs[136].q.val()) << self.msh[15].val());
        self.pk[34].next = 0.into();
        self.pk[35].next =
            self.pk[34].val() | (bit_cast::<R, KV>(self.runs[2].q.val()) << self.msh[0].val());
        self.pk[36].next =
            self.pk[35].val() | (bit_cast::<R, KV>(self.runs[11].q.val()) << self.msh[1].val());
        self.pk[37].next =
            self.pk[36].val() | (bit_cast::<R, KV>(self.runs[20].q.val()) << self.msh[2].val());
        self.pk[38].next =
            self.pk[37].val() | (bit_cast::<R, KV>(self.runs[29].q.val()) << self.msh[3].val());
        self.pk[39].next =
            self.pk[38].val() | (bit_cast::<R, KV>(self.runs[38].q.val()) << self.msh[4].val());
        self.pk[40].next =
            self.pk[39].val() | (bit_cast::<R, KV>(self.runs[47].q.val()) << self.msh[5].val());
        self.pk[41].next =
            self.pk[40].val() | (bit_cast::<R, KV>(self.runs[56].q.val()) << self.msh[6].val());
        self.pk[42].next =
            self.pk[41].val() | (bit_cast::<R, KV>(self.runs[65].q.val()) << self.msh[7].val());
        self.pk[43].next =
            self.pk[42].val() | (bit_cast::<R, KV>(self.runs[74].q.val()) << self.msh[8].val());
        self.pk[44].next =
            self.pk[43].val() | (bit_cast::<R, KV>(self.runs[83].q.val()) << self.msh[9].val());
        self.pk[45].next =
            self.pk[44].val() | (bit_cast::<R, KV>(self.runs[92].q.val()) << self.msh[10].val());
        self.pk[46].next =
            self.pk[45].val() | (bit_cast::<R, KV>(self.runs[101].q.val()) << self.msh[11].val());
        self.pk[47].next =
            self.pk[46].val() | (bit_cast::<R, KV>(self.runs[110].q.val()) << self.msh[12].val());
        self.pk[48].next =
            self.pk[47].val() | (bit_cast::<R, KV>(self.runs[119].q.val()) << self.msh[13].val());
        self.pk[49].next =
            self.pk[48].val() | (bit_cast::<R, KV>(self.runs[128].q.val()) << self.msh[14].val());
        self.pk[50].next =
            self.pk[49].val() | (bit_cast::<R, KV>(self.runs[137].q.val()) << self.msh[15].val());
        self.pk[51].next = 0.into();
        self.pk[52].next =
            self.pk[51].val() | (bit_cast::<R, KV>(self.runs[3].q.val()) << self.msh[0].val());
        self.pk[53].next =
            self.pk[52].val() | (bit_cast::<R, KV>(self.runs[12].q.val()) << self.msh[1].val());
        self.pk[54].next =
            self.pk[53].val() | (bit_cast::<R, KV>(self.runs[21].q.val()) << self.msh[2].val());
        self.pk[55].next =
            self.pk[54].val() | (bit_cast::<R, KV>(self.runs[30].q.val()) << self.msh[3].val());
        self.pk[56].next =
            self.pk[55].val() | (bit_cast::<R, KV>(self.runs[39].q.val()) << self.msh[4].val());
        self.pk[57].next =
            self.pk[56].val() | (bit_cast::<R, KV>(self.runs[48].q.val()) << self.msh[5].val());
        self.pk[58].next =
            self.pk[57].val() | (bit_cast::<R, KV>(self.runs[57].q.val()) << self.msh[6].val());
        self.pk[59].next =
            self.pk[58].val() | (bit_cast::<R, KV>(self.runs[66].q.val()) << self.msh[7].val());
        self.pk[60].next =
            self.pk[59].val() | (bit_cast::<R, KV>(self.runs[75].q.val()) << self.msh[8].val());
        self.pk[61].next =
            self.pk[60].val() | (bit_cast::<R, KV>(self.runs[84].q.val()) << self.msh[9].val());
        self.pk[62].next =
            self.pk[61].val() | (bit_cast::<R, KV>(self.runs[93].q.val()) << self.msh[10].val());
        self.pk[63].next =
            self.pk[62].val() | (bit_cast::<R, KV>(self.runs[102].q.val()) << self.msh[11].val());
        self.pk[64].next =
            self.pk[63].val() | (bit_cast::<R, KV>(self.runs[111].q.val()) << self.msh[12].val());
        self.pk[65].next =
            self.pk[64].val() | (bit_cast::<R, KV>(self.runs[120].q.val()) << self.msh[13].val());
        self.pk[66].next =
            self.pk[65].val() | (bit_cast::<R, KV>(self.runs[129].q.val()) << self.msh[14].val());
        self.pk[67].next =
            self.pk[66].val() | (bit_cast::<R, KV>(self.runs[138].q.val()) << self.msh[15].val());
        self.pk[68].next = 0.into();
        self.pk[69].next =
            self.pk[68].val() | (bit_cast::<R, KV>(self.runs[4].q.val()) << self.msh[0].val());
        self.pk[70].next =
            self.pk[69].val() | (bit_cast::<R, KV>(self.runs[13].q.val()) << self.msh[1].val());
        self.pk[71].next =
            self.pk[70].val() | (bit_cast::<R, KV>(self.runs[22].q.val()) << self.msh[2].val());
        self.pk[72].next =
            self.pk[71].val() | (bit_cast::<R, KV>(self.runs[31].q.val()) << self.msh[3].val());
        self.pk[73].next =
            self.pk[72].val() | (bit_cast::<R, KV>(self.runs[40].q.val()) << self.msh[4].val());
        self.pk[74].next =
            self.pk[73].val() | (bit_cast::<R, KV>(self.runs[49].q.val()) << self.msh[5].val());
        self.pk[75].next =
            self.pk[74].val() | (bit_cast::<R, KV>(self.runs[58].q.val()) << self.msh[6].val());
        self.pk[76].next =
            self.pk[75].val() | (bit_cast::<R, KV>(self.runs[67].q.val()) << self.msh[7].val());
        self.pk[77].next =
            self.pk[76].val() | (bit_cast::<R, KV>(self.runs[76].q.val()) << self.msh[8].val());
        self.pk[78].next =
            self.pk[77].val() | (bit_cast::<R, KV>(self.runs[85].q.val()) << self.msh[9].val());
        self.pk[79].next =
            self.pk[78].val() | (bit_cast::<R, KV>(self.runs[94].q.val()) << self.msh[10].val());
        self.pk[80].next =
            self.pk[79].val() | (bit_cast::<R, KV>(self.runs[103].q.val()) << self.msh[11].val());
        self.pk[81].next =
            self.pk[80].val() | (bit_cast::<R, KV>(self.runs[112].q.val()) << self.msh[12].val());
        self.pk[82].next =
            self.pk[81].val() | (bit_cast::<R, KV>(self.runs[121].q.val()) << self.msh[13].val());
        self.pk[83].next =
            self.pk[82].val() | (bit_cast::<R, KV>(self.runs[130].q.val()) << self.msh[14].val());
        self.pk[84].next =
            self.pk[83].val() | (bit_cast::<R, KV>(self.runs[139].q.val()) << self.msh[15].val());
        self.pk[85].next = 0.into();
        self.pk[86].next =
            self.pk[85].val() | (bit_cast::<R, KV>(self.runs[5].q.val()) << self.msh[0].val());
        self.pk[87].next =
            self.pk[86].val() | (bit_cast::<R, KV>(self.runs[14].q.val()) << self.msh[1].val());
        self.pk[88].next =
            self.pk[87].val() | (bit_cast::<R, KV>(self.runs[23].q.val()) << self.msh[2].val());
        self.pk[89].next =
            self.pk[88].val() | (bit_cast::<R, KV>(self.runs[32].q.val()) << self.msh[3].val());
        self.pk[90].next =
            self.pk[89].val() | (bit_cast::<R, KV>(self.runs[41].q.val()) << self.msh[4].val());
        self.pk[91].next =
            self.pk[90].val() | (bit_cast::<R, KV>(self.runs[50].q.val()) << self.msh[5].val());
        self.pk[92].next =
            self.pk[91].val() | (bit_cast::<R, KV>(self.runs[59].q.val()) << self.msh[6].val());
        self.pk[93].next =
            self.pk[92].val() | (bit_cast::<R, KV>(self.runs[68].q.val()) << self.msh[7].val());
        self.pk[94].next =
            self.pk[93].val() | (bit_cast::<R, KV>(self.runs[77].q.val()) << self.msh[8].val());
        self.pk[95].next =
            self.pk[94].val() | (bit_cast::<R, KV>(self.runs[86].q.val()) << self.msh[9].val());
        self.pk[96].next =
            self.pk[95].val() | (bit_cast::<R, KV>(self.runs[95].q.val()) << self.msh[10].val());
        self.pk[97].next =
            self.pk[96].val() | (bit_cast::<R, KV>(self.runs[104].q.val()) << self.msh[11].val());
        self.pk[98].next =
            self.pk[97].val() | (bit_cast::<R, KV>(self.runs[113].q.val()) << self.msh[12].val());
        self.pk[99].next =
            self.pk[98].val() | (bit_cast::<R, KV>(self.runs[122].q.val()) << self.msh[13].val());
        self.pk[100].next =
            self.pk[99].val() | (bit_cast::<R, KV>(self.runs[131].q.val()) << self.msh[14].val());
        self.pk[101].next =
            self.pk[100].val() | (bit_cast::<R, KV>(self.runs[140].q.val()) << self.msh[15].val());
        self.pk[102].next = 0.into();
        self.pk[103].next =
            self.pk[102].val() | (bit_cast::<R, KV>(self.runs[6].q.val()) << self.msh[0].val());
        self.pk[104].next =
            self.pk[103].val() | (bit_cast::<R, KV>(self.runs[15].q.val()) << self.msh[1].val());
        self.pk[105].next =
            self.pk[104].val() | (bit_cast::<R, KV>(self.runs[24].q.val()) << self.msh[2].val());
        self.pk[106].next =
            self.pk[105].val() | (bit_cast::<R, KV>(self.runs[33].q.val()) << self.msh[3].val());
        self.pk[107].next =
            self.pk[106].val() | (bit_cast::<R, KV>(self.runs[42].q.val()) << self.msh[4].val());
        self.pk[108].next =
            self.pk[107].val() | (bit_cast::<R, KV>(self.runs[51].q.val()) << self.msh[5].val());
        self.pk[109].next =
            self.pk[108].val() | (bit_cast::<R, KV>(self.runs[60].q.val()) << self.msh[6].val());
        self.pk[110].next =
            self.pk[109].val() | (bit_cast::<R, KV>(self.runs[69].q.val()) << self.msh[7].val());
        self.pk[111].next =
            self.pk[110].val() | (bit_cast::<R, KV>(self.runs[78].q.val()) << self.msh[8].val());
        self.pk[112].next =
            self.pk[111].val() | (bit_cast::<R, KV>(self.runs[87].q.val()) << self.msh[9].val());
        self.pk[113].next =
            self.pk[112].val() | (bit_cast::<R, KV>(self.runs[96].q.val()) << self.msh[10].val());
        self.pk[114].next =
            self.pk[113].val() | (bit_cast::<R, KV>(self.runs[105].q.val()) << self.msh[11].val());
        self.pk[115].next =
            self.pk[114].val() | (bit_cast::<R, KV>(self.runs[114].q.val()) << self.msh[12].val());
        self.pk[116].next =
            self.pk[115].val() | (bit_cast::<R, KV>(self.runs[123].q.val()) << self.msh[13].val());
        self.pk[117].next =
            self.pk[116].val() | (bit_cast::<R, KV>(self.runs[132].q.val()) << self.msh[14].val());
        self.pk[118].next =
            self.pk[117].val() | (bit_cast::<R, KV>(self.runs[141].q.val()) << self.msh[15].val());
        self.pk[119].next = 0.into();
        self.pk[120].next =
            self.pk[119].val() | (bit_cast::<R, KV>(self.runs[7].q.val()) << self.msh[0].val());
        self.pk[121].next =
            self.pk[120].val() | (bit_cast::<R, KV>(self.runs[16].q.val()) << self.msh[1].val());
        self.pk[122].next =
            self.pk[121].val() | (bit_cast::<R, KV>(self.runs[25].q.val()) << self.msh[2].val());
        self.pk[123].next =
            self.pk[122].val() | (bit_cast::<R, KV>(self.runs[34].q.val()) << self.msh[3].val());
        self.pk[124].next =
            self.pk[123].val() | (bit_cast::<R, KV>(self.runs[43].q.val()) << self.msh[4].val());
        self.pk[125].next =
            self.pk[124].val() | (bit_cast::<R, KV>(self.runs[52].q.val()) << self.msh[5].val());
        self.pk[126].next =
            self.pk[125].val() | (bit_cast::<R, KV>(self.runs[61].q.val()) << self.msh[6].val());
        self.pk[127].next =
            self.pk[126].val() | (bit_cast::<R, KV>(self.runs[70].q.val()) << self.msh[7].val());
        self.pk[128].next =
            self.pk[127].val() | (bit_cast::<R, KV>(self.runs[79].q.val()) << self.msh[8].val());
        self.pk[129].next =
            self.pk[128].val() | (bit_cast::<R, KV>(self.runs[88].q.val()) << self.msh[9].val());
        self.pk[130].next =
            self.pk[129].val() | (bit_cast::<R, KV>(self.runs[97].q.val()) << self.msh[10].val());
        self.pk[131].next =
            self.pk[130].val() | (bit_cast::<R, KV>(self.runs[106].q.val()) << self.msh[11].val());
        self.pk[132].next =
            self.pk[131].val() | (bit_cast::<R, KV>(self.runs[115].q.val()) << self.msh[12].val());
        self.pk[133].next =
            self.pk[132].val() | (bit_cast::<R, KV>(self.runs[124].q.val()) << self.msh[13].val());
        self.pk[134].next =
            self.pk[133].val() | (bit_cast::<R, KV>(self.runs[133].q.val()) << self.msh[14].val());
        self.pk[135].next =
            self.pk[134].val() | (bit_cast::<R, KV>(self.runs[142].q.val()) << self.msh[15].val());
        self.pk[136].next = 0.into();
        self.pk[137].next =
            self.pk[136].val() | (bit_cast::<R, KV>(self.runs[8].q.val()) << self.msh[0].val());
        self.pk[138].next =
            self.pk[137].val() | (bit_cast::<R, KV>(self.runs[17].q.val()) << self.msh[1].val());
        self.pk[139].next =
            self.pk[138].val() | (bit_cast::<R, KV>(self.runs[26].q.val()) << self.msh[2].val());
        self.pk[140].next =
            self.pk[139].val() | (bit_cast::<R, KV>(self.runs[35].q.val()) << self.msh[3].val());
        self.pk[141].next =
            self.pk[140].val() | (bit_cast::<R, KV>(self.runs[44].q.val()) << self.msh[4].val());
        self.pk[142].next =
            self.pk[141].val() | (bit_cast::<R, KV>(self.runs[53].q.val()) << self.msh[5].val());
        self.pk[143].next =
            self.pk[142].val() | (bit_cast::<R, KV>(self.runs[62].q.val()) << self.msh[6].val());
        self.pk[144].next =
            self.pk[143].val() | (bit_cast::<R, KV>(self.runs[71].q.val()) << self.msh[7].val());
        self.pk[145].next =
            self.pk[144].val() | (bit_cast::<R, KV>(self.runs[80].q.val()) << self.msh[8].val());
        self.pk[146].next =
            self.pk[145].val() | (bit_cast::<R, KV>(self.runs[89].q.val()) << self.msh[9].val());
        self.pk[147].next =
            self.pk[146].val() | (bit_cast::<R, KV>(self.runs[98].q.val()) << self.msh[10].val());
        self.pk[148].next =
            self.pk[147].val() | (bit_cast::<R, KV>(self.runs[107].q.val()) << self.msh[11].val());
        self.pk[149].next =
            self.pk[148].val() | (bit_cast::<R, KV>(self.runs[116].q.val()) << self.msh[12].val());
        self.pk[150].next =
            self.pk[149].val() | (bit_cast::<R, KV>(self.runs[125].q.val()) << self.msh[13].val());
        self.pk[151].next =
            self.pk[150].val() | (bit_cast::<R, KV>(self.runs[134].q.val()) << self.msh[14].val());
        self.pk[152].next =
            self.pk[151].val() | (bit_cast::<R, KV>(self.runs[143].q.val()) << self.msh[15].val());
        self.el[0].next = 0.into();
        for m in 0..16 {
            self.el[m + 1].next = self.el[m].val();
            if !self.stale[m].q.val().any() {
                self.el[m + 1].next = self.el[m].val() | self.mbit[m].val();
            }
        }
        self.eligible.next = self.el[16].val();
        self.runs_vgpr0.next = self.pk[16].val();
        self.runs_vgpr1.next = self.pk[17 + 16].val();
        self.runs_vgpr2.next = self.pk[2 * 17 + 16].val();
        self.runs_vgpr3.next = self.pk[3 * 17 + 16].val();
        self.runs_sgpr0.next = self.pk[4 * 17 + 16].val();
        self.runs_sgpr1.next = self.pk[5 * 17 + 16].val();
        self.runs_sgpr2.next = self.pk[6 * 17 + 16].val();
        self.runs_sgpr3.next = self.pk[7 * 17 + 16].val();
        self.runs_lds.next = self.pk[8 * 17 + 16].val();
    }
}

/// Small maps (16 / 6 / 12): K = 5.
pub type MapRefreshSmall = MapRefresh<16, 6, 12, 12, 8, 5, 4, 3, 0, 1, 80>;
/// The board dispatcher's maps (16 / 8 / 16): K = 5.
pub type MapRefreshBoard = MapRefresh<16, 8, 16, 16, 8, 5, 4, 3, 0, 1, 80>;
/// `DispatcherConfig::full()`'s maps (128 / 64 / 48): K = 7.
pub type MapRefreshFull = MapRefresh<128, 64, 128, 48, 64, 8, 7, 6, 2, 0, 128>;

/// The exported Verilog of a map RAM with write refresh (module `top`).
pub fn map_refresh_verilog<B: Block + Default>() -> String {
    crate::top_verilog(B::default())
}
