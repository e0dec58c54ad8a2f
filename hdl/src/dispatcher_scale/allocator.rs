//! [`Allocator`]: design block 6, build step 3 — the first fit of a WG's nine regions on the
//! chosen module's maps, and their commit into the map RAM (`docs/dispatcher_scale.md`, "Block
//! 6, step 3"). It contains [`super::MapRefresh`] (the maps in LUT RAM with their runs), drives
//! its read port Ra and its allocation port A itself, and passes port F (releases) through.
//!
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `clock`, `reset` | in | 1 | `reset`: every map free, nothing in flight, no module busy (and `MapRefresh`'s reset) |
//! | `req_en`, `req_module` | in | 1, 4 | an allocation request on module `req_module` |
//! | `need_vgpr0`..`need_vgpr3`, `need_sgpr0`..`need_sgpr3`, `need_lds` | in | KV each | blocks wanted in each of the module's nine maps (0 = none) |
//! | `free_en`, `free_module`, `free_*` | in | | port F of [`super::MapRam`] (releases), unchanged |
//! | `rd_vgpr0`..`rd_lds` | out | V / S / L | the maps the request of the previous cycle read (module `req_module`(t − 1), M(t − 1)) |
//! | `runs_*`, `eligible` | out | | [`super::MapRefresh`]'s, unchanged (K = 7 at full widths) |
//! | `rec_valid`, `rec_err`, `rec_ok`, `rec_module` | out | 1, 1, 1, 4 | the record of the request of cycle c − LA (all 0 without one) |
//! | `rec_base_vgpr0`..`rec_base_lds` | out | KV each | the nine bases (0 unless `rec_ok`) |
//! | `rec_mask_vgpr0`..`rec_mask_lds` | out | V / S / L | the nine regions [base, base + need) port A commits with the record (0 unless `rec_ok`) |
//!
//! **Contract.** A request in cycle t (not a reset cycle) gets exactly one record, in cycle
//! t + LA (**LA = log2(V) + 2**: 9 at V = 128, 6 at V = 16), records in request order:
//! - `rec_err` (refused; changes nothing) iff an accepted request named the same module in
//!   t − LA .. t − 1 (its commit is not yet in the maps the new request would read);
//! - otherwise `rec_ok` iff every one of the nine maps of module m = `req_module` **as they were
//!   at the start of cycle t** (M(t): every request before t, MapRam's contract) has a free run
//!   of at least its need; then base j = the lowest start of such a run (SPEC a43: first fit;
//!   need 0 fits at 0) and the regions [base j, base j + need j) are allocated through port A
//!   in cycle t + LA (visible from t + LA + 1; a release of the same module in that cycle is
//!   merged, MapRam's rule). Releases between t and t + LA only add free blocks, so the regions
//!   are still free when they are committed.
//!
//! **Pipeline** (request t): `rd_module` := `req_module` (MapRam's registered read shows M(t)
//! in t + 1); the needs registered; t + 1: the nine maps and needs into nine
//! [`RegionFit`]s (every map padded to V blocks with used ones: one tree width, one latency),
//! latency LR = log2(V) + 1; t + LA: record and port A request from the fits' registers.
//!
//! **Cost**: see `docs/dispatcher_scale.md` (`synth report --target ecp5-85f --full --only
//! dispatcher_scale_allocator`).

use super::write_refresh::MapRefresh;
use super::{konst, locals};
use crate::run_finder::RunTreePipe;
use rust_hdl::prelude::*;

/// First fit of one map and its region mask. The map and need presented in cycle c are
/// registered; a Unit 2 [`RunTreePipe`] (root registered, latency LT = log2(N) − 2) finds the
/// lowest start of a free run ≥ `need`; its `found` / `start` and `start + need` are
/// registered, then the region mask `[start, start + need)` (0 unless found and `keep`).
/// `found`, `base`, `mask` show the request of cycle c in cycle c + LT + 3; `found_early` shows
/// its `found` a cycle before (c + LT + 2), the cycle in which `keep` must say whether the mask
/// is wanted (the allocator's commit, decided a cycle ahead: the gate is the mask register's own
/// condition, no AND behind it).
#[derive(LogicBlock)]
pub struct RegionFit<
    const N: usize,
    const M: usize,
    const K: usize,
    const S: usize,
    const LT: usize,
> {
    /// The one clock.
    pub clock: Signal<In, Clock>,
    /// Clears the tree's pipeline.
    pub reset: Signal<In, Bit>,
    /// The map (1 = free).
    pub map: Signal<In, Bits<N>>,
    /// Blocks wanted.
    pub need: Signal<In, Bits<K>>,
    /// In cycle c + LT + 2: keep the mask of the request of cycle c (else `mask` shows 0).
    pub keep: Signal<In, Bit>,
    /// `found` of the request of cycle c, shown in cycle c + LT + 2.
    pub found_early: Signal<Out, Bit>,
    /// A free run of ≥ need blocks exists (need 0: always).
    pub found: Signal<Out, Bit>,
    /// Its lowest start (0 if none).
    pub base: Signal<Out, Bits<S>>,
    /// The region [base, base + need) (0 if none).
    pub mask: Signal<Out, Bits<N>>,
    pub tree: RunTreePipe<N, M, K, S>,
    map_r: DFF<Bits<N>>,
    need_r: DFF<Bits<K>>,
    nd: Vec<DFF<Bits<K>>>,
    found_e: DFF<Bit>,
    base_e: DFF<Bits<S>>,
    end_e: DFF<Bits<K>>,
    found_m: DFF<Bit>,
    base_m: DFF<Bits<S>>,
    mask_m: DFF<Bits<N>>,
    ndl: Vec<Signal<Local, Bits<K>>>,
    t_base: Signal<Local, Bits<N>>,
    t_end: Signal<Local, Bits<N>>,
    ones: Constant<Bits<N>>,
    top: Constant<Bits<K>>,
}

impl<const N: usize, const M: usize, const K: usize, const S: usize, const LT: usize> Default
    for RegionFit<N, M, K, S, LT>
{
    fn default() -> Self {
        assert!(
            N.is_power_of_two() && (8..=128).contains(&N),
            "RegionFit: N = {N} must be a power of two in 8..=128"
        );
        assert_eq!(1 << S, N, "RegionFit: S must be log2(N)");
        assert_eq!(K, S + 1, "RegionFit: K must be clog2(N + 1)");
        assert_eq!(LT + 2, S, "RegionFit: LT must be log2(N) − 2");
        Self {
            clock: Default::default(),
            reset: Default::default(),
            map: Default::default(),
            need: Default::default(),
            keep: Default::default(),
            found_early: Default::default(),
            found: Default::default(),
            base: Default::default(),
            mask: Default::default(),
            tree: Default::default(),
            map_r: Default::default(),
            need_r: Default::default(),
            nd: locals(LT),
            found_e: Default::default(),
            base_e: Default::default(),
            end_e: Default::default(),
            found_m: Default::default(),
            base_m: Default::default(),
            mask_m: Default::default(),
            ndl: locals(LT + 1),
            t_base: Default::default(),
            t_end: Default::default(),
            ones: Constant::new(Bits::<N>::mask()),
            top: konst(N as u64),
        }
    }
}

impl<const N: usize, const M: usize, const K: usize, const S: usize, const LT: usize> Logic
    for RegionFit<N, M, K, S, LT>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, map_r, need_r, found_e, base_e, end_e, found_m, base_m, mask_m);
        for s in 0..LT {
            self.nd[s].clock.next = self.clock.val();
        }
        self.map_r.d.next = self.map.val();
        self.need_r.d.next = self.need.val();
        self.tree.clock.next = self.clock.val();
        self.tree.reset.next = self.reset.val();
        self.tree.bits.next = self.map_r.q.val();
        self.tree.need.next = self.need_r.q.val();
        // the need travels beside the tree
        self.ndl[0].next = self.need_r.q.val();
        for s in 0..LT {
            self.nd[s].d.next = self.ndl[s].val();
            self.ndl[s + 1].next = self.nd[s].q.val();
        }
        // stage E: found, start and end registered
        self.found_e.d.next = self.tree.fit_found.val();
        self.base_e.d.next = self.tree.fit_start.val();
        for zz in LT..(LT + 1) {
            self.end_e.d.next = bit_cast::<K, S>(self.tree.fit_start.val()) + self.ndl[zz].val();
        }
        // stage M: the region mask (thermometer of the start minus thermometer of the end)
        self.t_base.next = self.ones.val() << self.base_e.q.val();
        self.t_end.next = self.ones.val() << self.end_e.q.val().get_bits::<S>(0);
        if self.end_e.q.val() == self.top.val() {
            self.t_end.next = 0.into();
        }
        self.found_m.d.next = self.found_e.q.val();
        self.base_m.d.next = self.base_e.q.val();
        self.mask_m.d.next = 0.into();
        if self.found_e.q.val() & self.keep.val() {
            self.mask_m.d.next = self.t_base.val() & !self.t_end.val();
        }
        self.found_early.next = self.found_e.q.val();
        self.found.next = self.found_m.q.val();
        self.base.next = self.base_m.q.val();
        self.mask.next = self.mask_m.q.val();
    }
}

/// The allocator with its map RAM and write refresh. `V`..`R` as in [`super::MapRefresh`];
/// `M2` = 2V, `SV` = log2(V), `LT` = log2(V) − 2 (the [`RegionFit`] trees). See the module doc.
#[derive(LogicBlock)]
pub struct Allocator<
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
    const M2: usize,
    const SV: usize,
    const LT: usize,
> {
    /// The one clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: maps free, nothing in flight, no module busy.
    pub reset: Signal<In, Bit>,
    /// An allocation request on `req_module`.
    pub req_en: Signal<In, Bit>,
    pub req_module: Signal<In, Bits<4>>,
    /// Blocks wanted per map (VGPR u0..u3, SGPR u0..u3, LDS).
    pub need_vgpr0: Signal<In, Bits<KV>>,
    pub need_vgpr1: Signal<In, Bits<KV>>,
    pub need_vgpr2: Signal<In, Bits<KV>>,
    pub need_vgpr3: Signal<In, Bits<KV>>,
    pub need_sgpr0: Signal<In, Bits<KV>>,
    pub need_sgpr1: Signal<In, Bits<KV>>,
    pub need_sgpr2: Signal<In, Bits<KV>>,
    pub need_sgpr3: Signal<In, Bits<KV>>,
    pub need_lds: Signal<In, Bits<KV>>,
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
    /// The maps the previous cycle's request read.
    pub rd_vgpr0: Signal<Out, Bits<V>>,
    pub rd_vgpr1: Signal<Out, Bits<V>>,
    pub rd_vgpr2: Signal<Out, Bits<V>>,
    pub rd_vgpr3: Signal<Out, Bits<V>>,
    pub rd_sgpr0: Signal<Out, Bits<S>>,
    pub rd_sgpr1: Signal<Out, Bits<S>>,
    pub rd_sgpr2: Signal<Out, Bits<S>>,
    pub rd_sgpr3: Signal<Out, Bits<S>>,
    pub rd_lds: Signal<Out, Bits<L>>,
    /// `MapRefresh`'s runs and eligibility.
    pub runs_vgpr0: Signal<Out, Bits<R>>,
    pub runs_vgpr1: Signal<Out, Bits<R>>,
    pub runs_vgpr2: Signal<Out, Bits<R>>,
    pub runs_vgpr3: Signal<Out, Bits<R>>,
    pub runs_sgpr0: Signal<Out, Bits<R>>,
    pub runs_sgpr1: Signal<Out, Bits<R>>,
    pub runs_sgpr2: Signal<Out, Bits<R>>,
    pub runs_sgpr3: Signal<Out, Bits<R>>,
    pub runs_lds: Signal<Out, Bits<R>>,
    pub eligible: Signal<Out, Bits<16>>,
    /// The record of the request of LA cycles ago.
    pub rec_valid: Signal<Out, Bit>,
    pub rec_err: Signal<Out, Bit>,
    pub rec_ok: Signal<Out, Bit>,
    pub rec_module: Signal<Out, Bits<4>>,
    pub rec_base_vgpr0: Signal<Out, Bits<KV>>,
    pub rec_base_vgpr1: Signal<Out, Bits<KV>>,
    pub rec_base_vgpr2: Signal<Out, Bits<KV>>,
    pub rec_base_vgpr3: Signal<Out, Bits<KV>>,
    pub rec_base_sgpr0: Signal<Out, Bits<KV>>,
    pub rec_base_sgpr1: Signal<Out, Bits<KV>>,
    pub rec_base_sgpr2: Signal<Out, Bits<KV>>,
    pub rec_base_sgpr3: Signal<Out, Bits<KV>>,
    pub rec_base_lds: Signal<Out, Bits<KV>>,
    /// The regions committed with the record (port A's masks; 0 unless `rec_ok`).
    pub rec_mask_vgpr0: Signal<Out, Bits<V>>,
    pub rec_mask_vgpr1: Signal<Out, Bits<V>>,
    pub rec_mask_vgpr2: Signal<Out, Bits<V>>,
    pub rec_mask_vgpr3: Signal<Out, Bits<V>>,
    pub rec_mask_sgpr0: Signal<Out, Bits<S>>,
    pub rec_mask_sgpr1: Signal<Out, Bits<S>>,
    pub rec_mask_sgpr2: Signal<Out, Bits<S>>,
    pub rec_mask_sgpr3: Signal<Out, Bits<S>>,
    pub rec_mask_lds: Signal<Out, Bits<L>>,
    /// The maps, their runs and eligibility.
    pub refresh: MapRefresh<V, S, S2, L, H, KV, KH, SH, DC, DT, R>,
    /// The nine first fits (maps 0..4 VGPR, 4..8 SGPR, 8 LDS), all V blocks wide.
    pub fit: [RegionFit<V, M2, KV, SV, LT>; 9],
    /// The needs of the request, registered with it (into the fits with the read maps).
    needs: Vec<DFF<Bits<KV>>>,
    /// (valid, refused, module) of the request in flight, stage by stage (LA stages).
    tag: Vec<DFF<Bits<6>>>,
    /// Per module: cycles it stays busy (an accepted request in flight).
    busy: Vec<DFF<Bits<4>>>,
    /// The request of this cycle names a busy module.
    hit: Signal<Local, Bit>,
    /// The record's tag and verdict.
    rtag: Signal<Local, Bits<6>>,
    /// The record commits (valid, not refused, all nine found): `commit_r` registered.
    commit: Signal<Local, Bit>,
    /// `commit` of the next cycle, decided a cycle ahead from the tag and the fits'
    /// `found_early`: the fits' mask registers keep their masks only then (no gate behind them).
    keep_next: Signal<Local, Bit>,
    /// `keep_next` registered: the commit of the record shown in this cycle (the tag a stage
    /// on, the fits' `found` = their `found_early` a cycle on, cleared by a reset like the tag).
    commit_r: DFF<Bit>,
    mnum: Vec<Constant<Bits<4>>>,
    la: Constant<Bits<4>>,
    one4: Constant<Bits<4>>,
    vbit: Constant<Bits<6>>,
    ebit: Constant<Bits<6>>,
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
        const M2: usize,
        const SV: usize,
        const LT: usize,
    > Allocator<V, S, S2, L, H, KV, KH, SH, DC, DT, R, M2, SV, LT>
{
    /// Request → record latency LA = LT + 4 = log2(V) + 2 (9 at V = 128, 6 at V = 16): the
    /// registered read, the fit's input register, the tree, its two output stages.
    pub const LA: usize = LT + 4;
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
        const M2: usize,
        const SV: usize,
        const LT: usize,
    > Default for Allocator<V, S, S2, L, H, KV, KH, SH, DC, DT, R, M2, SV, LT>
{
    fn default() -> Self {
        assert_eq!(M2, 2 * V, "Allocator: M2 must be 2V");
        assert_eq!(KV, SV + 1, "Allocator: KV must be log2(V) + 1");
        assert!(
            Self::LA < 16,
            "Allocator: LA must fit the 4-bit busy countdown"
        );
        Self {
            clock: Default::default(),
            reset: Default::default(),
            req_en: Default::default(),
            req_module: Default::default(),
            need_vgpr0: Default::default(),
            need_vgpr1: Default::default(),
            need_vgpr2: Default::default(),
            need_vgpr3: Default::default(),
            need_sgpr0: Default::default(),
            need_sgpr1: Default::default(),
            need_sgpr2: Default::default(),
            need_sgpr3: Default::default(),
            need_lds: Default::default(),
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
            rec_valid: Default::default(),
            rec_err: Default::default(),
            rec_ok: Default::default(),
            rec_module: Default::default(),
            rec_base_vgpr0: Default::default(),
            rec_base_vgpr1: Default::default(),
            rec_base_vgpr2: Default::default(),
            rec_base_vgpr3: Default::default(),
            rec_base_sgpr0: Default::default(),
            rec_base_sgpr1: Default::default(),
            rec_base_sgpr2: Default::default(),
            rec_base_sgpr3: Default::default(),
            rec_base_lds: Default::default(),
            rec_mask_vgpr0: Default::default(),
            rec_mask_vgpr1: Default::default(),
            rec_mask_vgpr2: Default::default(),
            rec_mask_vgpr3: Default::default(),
            rec_mask_sgpr0: Default::default(),
            rec_mask_sgpr1: Default::default(),
            rec_mask_sgpr2: Default::default(),
            rec_mask_sgpr3: Default::default(),
            rec_mask_lds: Default::default(),
            refresh: Default::default(),
            fit: Default::default(),
            needs: locals(9),
            tag: locals(LT + 4),
            busy: locals(16),
            hit: Default::default(),
            rtag: Default::default(),
            commit: Default::default(),
            keep_next: Default::default(),
            commit_r: Default::default(),
            mnum: (0..16).map(konst).collect(),
            la: konst(Self::LA as u64),
            one4: konst(1),
            vbit: konst(32),
            ebit: konst(16),
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
        const M2: usize,
        const SV: usize,
        const LT: usize,
    > Logic for Allocator<V, S, S2, L, H, KV, KH, SH, DC, DT, R, M2, SV, LT>
{
    #[hdl_gen]
    fn update(&mut self) {
        // request t: is its module busy? register the needs and the tag; read the maps
        self.hit.next = false;
        for m in 0..16 {
            self.busy[m].clock.next = self.clock.val();
            if (self.req_module.val() == self.mnum[m].val()) & self.busy[m].q.val().any() {
                self.hit.next = true;
            }
        }
        for j in 0..9 {
            self.needs[j].clock.next = self.clock.val();
        }
        self.needs[0].d.next = self.need_vgpr0.val();
        self.needs[1].d.next = self.need_vgpr1.val();
        self.needs[2].d.next = self.need_vgpr2.val();
        self.needs[3].d.next = self.need_vgpr3.val();
        self.needs[4].d.next = self.need_sgpr0.val();
        self.needs[5].d.next = self.need_sgpr1.val();
        self.needs[6].d.next = self.need_sgpr2.val();
        self.needs[7].d.next = self.need_sgpr3.val();
        self.needs[8].d.next = self.need_lds.val();
        for s in 0..(LT + 4) {
            self.tag[s].clock.next = self.clock.val();
        }
        self.tag[0].d.next = 0.into();
        if self.req_en.val() {
            self.tag[0].d.next = bit_cast::<6, 4>(self.req_module.val()) | self.vbit.val();
            if self.hit.val() {
                self.tag[0].d.next =
                    bit_cast::<6, 4>(self.req_module.val()) | self.vbit.val() | self.ebit.val();
            }
        }
        for s in 0..(LT + 3) {
            self.tag[s + 1].d.next = self.tag[s].q.val();
        }
        // busy countdowns: an accepted request loads LA
        for m in 0..16 {
            self.busy[m].d.next = self.busy[m].q.val();
            if self.busy[m].q.val().any() {
                self.busy[m].d.next = self.busy[m].q.val() - self.one4.val();
            }
            if self.req_en.val() & !self.hit.val() & (self.req_module.val() == self.mnum[m].val()) {
                self.busy[m].d.next = self.la.val();
            }
        }
        // t + 1: the read maps (padded to V blocks with used ones) and the needs into the fits
        for j in 0..9 {
            self.fit[j].clock.next = self.clock.val();
            self.fit[j].reset.next = self.reset.val();
            self.fit[j].need.next = self.needs[j].q.val();
        }
        self.fit[0].map.next = self.refresh.rd_vgpr0.val();
        self.fit[1].map.next = self.refresh.rd_vgpr1.val();
        self.fit[2].map.next = self.refresh.rd_vgpr2.val();
        self.fit[3].map.next = self.refresh.rd_vgpr3.val();
        self.fit[4].map.next = bit_cast::<V, S>(self.refresh.rd_sgpr0.val());
        self.fit[5].map.next = bit_cast::<V, S>(self.refresh.rd_sgpr1.val());
        self.fit[6].map.next = bit_cast::<V, S>(self.refresh.rd_sgpr2.val());
        self.fit[7].map.next = bit_cast::<V, S>(self.refresh.rd_sgpr3.val());
        self.fit[8].map.next = bit_cast::<V, L>(self.refresh.rd_lds.val());
        // t + LA: the record, and the regions committed through port A
        for zz in (LT + 3)..(LT + 4) {
            self.rtag.next = self.tag[zz].q.val();
        }
        self.keep_next.next = !self.reset.val();
        for j in 0..9 {
            self.keep_next.next = self.keep_next.val() & self.fit[j].found_early.val();
        }
        for zz in (LT + 2)..(LT + 3) {
            self.keep_next.next = self.keep_next.val()
                & self.tag[zz].q.val().get_bit(5)
                & !self.tag[zz].q.val().get_bit(4);
        }
        for j in 0..9 {
            self.fit[j].keep.next = self.keep_next.val();
        }
        dff_setup!(self, clock, commit_r);
        self.commit_r.d.next = self.keep_next.val();
        self.commit.next = self.commit_r.q.val();
        self.rec_valid.next = self.rtag.val().get_bit(5);
        self.rec_err.next = self.rtag.val().get_bit(4);
        self.rec_ok.next = self.commit.val();
        self.rec_module.next = self.rtag.val().get_bits::<4>(0);
        self.rec_base_vgpr0.next = 0.into();
        self.rec_base_vgpr1.next = 0.into();
        self.rec_base_vgpr2.next = 0.into();
        self.rec_base_vgpr3.next = 0.into();
        self.rec_base_sgpr0.next = 0.into();
        self.rec_base_sgpr1.next = 0.into();
        self.rec_base_sgpr2.next = 0.into();
        self.rec_base_sgpr3.next = 0.into();
        self.rec_base_lds.next = 0.into();
        if self.commit.val() {
            self.rec_base_vgpr0.next = bit_cast::<KV, SV>(self.fit[0].base.val());
            self.rec_base_vgpr1.next = bit_cast::<KV, SV>(self.fit[1].base.val());
            self.rec_base_vgpr2.next = bit_cast::<KV, SV>(self.fit[2].base.val());
            self.rec_base_vgpr3.next = bit_cast::<KV, SV>(self.fit[3].base.val());
            self.rec_base_sgpr0.next = bit_cast::<KV, SV>(self.fit[4].base.val());
            self.rec_base_sgpr1.next = bit_cast::<KV, SV>(self.fit[5].base.val());
            self.rec_base_sgpr2.next = bit_cast::<KV, SV>(self.fit[6].base.val());
            self.rec_base_sgpr3.next = bit_cast::<KV, SV>(self.fit[7].base.val());
            self.rec_base_lds.next = bit_cast::<KV, SV>(self.fit[8].base.val());
        }
        // the map RAM with its refresh: port A from the fits, port F and Ra from outside
        self.refresh.clock.next = self.clock.val();
        self.refresh.reset.next = self.reset.val();
        self.refresh.alloc_en.next = self.commit.val();
        self.refresh.alloc_module.next = self.rtag.val().get_bits::<4>(0);
        self.refresh.alloc_vgpr0.next = self.fit[0].mask.val();
        self.refresh.alloc_vgpr1.next = self.fit[1].mask.val();
        self.refresh.alloc_vgpr2.next = self.fit[2].mask.val();
        self.refresh.alloc_vgpr3.next = self.fit[3].mask.val();
        self.refresh.alloc_sgpr0.next = self.fit[4].mask.val().get_bits::<S>(0);
        self.refresh.alloc_sgpr1.next = self.fit[5].mask.val().get_bits::<S>(0);
        self.refresh.alloc_sgpr2.next = self.fit[6].mask.val().get_bits::<S>(0);
        self.refresh.alloc_sgpr3.next = self.fit[7].mask.val().get_bits::<S>(0);
        self.refresh.alloc_lds.next = self.fit[8].mask.val().get_bits::<L>(0);
        // the masks are 0 unless `commit`: the fits keep them only with `keep_next` (= the
        // next cycle's `commit`: the same tag one stage earlier, the same `found`s, no reset)
        self.rec_mask_vgpr0.next = self.fit[0].mask.val();
        self.rec_mask_vgpr1.next = self.fit[1].mask.val();
        self.rec_mask_vgpr2.next = self.fit[2].mask.val();
        self.rec_mask_vgpr3.next = self.fit[3].mask.val();
        self.rec_mask_sgpr0.next = self.fit[4].mask.val().get_bits::<S>(0);
        self.rec_mask_sgpr1.next = self.fit[5].mask.val().get_bits::<S>(0);
        self.rec_mask_sgpr2.next = self.fit[6].mask.val().get_bits::<S>(0);
        self.rec_mask_sgpr3.next = self.fit[7].mask.val().get_bits::<S>(0);
        self.rec_mask_lds.next = self.fit[8].mask.val().get_bits::<L>(0);
        self.refresh.free_en.next = self.free_en.val();
        self.refresh.free_module.next = self.free_module.val();
        self.refresh.free_vgpr0.next = self.free_vgpr0.val();
        self.refresh.free_vgpr1.next = self.free_vgpr1.val();
        self.refresh.free_vgpr2.next = self.free_vgpr2.val();
        self.refresh.free_vgpr3.next = self.free_vgpr3.val();
        self.refresh.free_sgpr0.next = self.free_sgpr0.val();
        self.refresh.free_sgpr1.next = self.free_sgpr1.val();
        self.refresh.free_sgpr2.next = self.free_sgpr2.val();
        self.refresh.free_sgpr3.next = self.free_sgpr3.val();
        self.refresh.free_lds.next = self.free_lds.val();
        self.refresh.rd_module.next = self.req_module.val();
        self.rd_vgpr0.next = self.refresh.rd_vgpr0.val();
        self.rd_vgpr1.next = self.refresh.rd_vgpr1.val();
        self.rd_vgpr2.next = self.refresh.rd_vgpr2.val();
        self.rd_vgpr3.next = self.refresh.rd_vgpr3.val();
        self.rd_sgpr0.next = self.refresh.rd_sgpr0.val();
        self.rd_sgpr1.next = self.refresh.rd_sgpr1.val();
        self.rd_sgpr2.next = self.refresh.rd_sgpr2.val();
        self.rd_sgpr3.next = self.refresh.rd_sgpr3.val();
        self.rd_lds.next = self.refresh.rd_lds.val();
        self.runs_vgpr0.next = self.refresh.runs_vgpr0.val();
        self.runs_vgpr1.next = self.refresh.runs_vgpr1.val();
        self.runs_vgpr2.next = self.refresh.runs_vgpr2.val();
        self.runs_vgpr3.next = self.refresh.runs_vgpr3.val();
        self.runs_sgpr0.next = self.refresh.runs_sgpr0.val();
        self.runs_sgpr1.next = self.refresh.runs_sgpr1.val();
        self.runs_sgpr2.next = self.refresh.runs_sgpr2.val();
        self.runs_sgpr3.next = self.refresh.runs_sgpr3.val();
        self.runs_lds.next = self.refresh.runs_lds.val();
        self.eligible.next = self.refresh.eligible.val();
        // reset: nothing in flight, no module busy
        if self.reset.val() {
            for s in 0..(LT + 4) {
                self.tag[s].d.next = 0.into();
            }
            for m in 0..16 {
                self.busy[m].d.next = 0.into();
            }
        }
    }
}

/// Small maps (16 / 6 / 12): LA = 6, K = 5.
pub type AllocatorSmall = Allocator<16, 6, 12, 12, 8, 5, 4, 3, 0, 1, 80, 32, 4, 2>;
/// The board dispatcher's maps (16 / 8 / 16): LA = 6, K = 5.
pub type AllocatorBoard = Allocator<16, 8, 16, 16, 8, 5, 4, 3, 0, 1, 80, 32, 4, 2>;
/// `DispatcherConfig::full()`'s maps (128 / 64 / 48): LA = 9, K = 7.
pub type AllocatorFull = Allocator<128, 64, 128, 48, 64, 8, 7, 6, 2, 0, 128, 256, 7, 5>;

/// The exported Verilog of an allocator (module `top`).
pub fn allocator_verilog<B: Block + Default>() -> String {
    crate::top_verilog(B::default())
}
