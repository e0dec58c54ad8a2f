//! Max-contiguous-run finder family (SPEC Unit 2; seed 003, embodiments 4–7).
//!
//! Behaviour is specified by `golden_model::run_finder`; this file is the RTL.
//!
//! ## One interface for every variant
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `bits` | in | N | free map, bit *i* = block *i*, **1 = free** |
//! | `need` | in | K = clog2(N+1) | blocks requested |
//! | `max_run` | out | K | longest free run (as the variant sees it) |
//! | `fit_found` | out | 1 | a free run of ≥ `need` blocks exists |
//! | `fit_start` | out | S = clog2(N) | lowest start of such a run (step a43's allocation address), 0 if none |
//!
//! `need = 0` always fits at 0; `need > N` never fits. Pipelined forms add `clock` and an
//! active-high synchronous `reset` (clears the pipeline: outputs read 0 for `latency` cycles).
//!
//! ## Variants (combinational unless noted; all II = 1)
//! - [`RunTree`] (**tree**, beyond the patent, exact): a binary segment tree over the map. The
//!   leaves are groups of 4 blocks whose fields come from 16-entry truth tables (one LUT4 per
//!   bit). Every node keeps `seg_all` (segment all free), `plen`/`slen` (free prefix/suffix
//!   length) and `best`, all as true lengths masked to their level's width (l + 1 bits at level
//!   l, so synthesis trims every adder and compare), plus `sufrel` (where the free suffix starts)
//!   and `found`/`fitrel` for first fit, both relative to the segment start. Combining two
//!   children is a mux (`plen = all(L) ? len(L) | plen(R) : plen(L)`, no adder). A run is
//!   measured once, where it crosses the middle of the smallest node containing it:
//!   `cross = slen(L) + plen(R)`; `best = max(best(L), best(R), cross)` from three compares side
//!   by side. First fit keeps one position per node:
//!   `fit = found(L) ? fit(L) : cross ≥ need ? sufrel(L) : len(L) | fit(R)`, where `need` is
//!   clipped per level to `min(need, 2^l + 1)` so the compare is only l + 2 bits wide.
//!   N is a power of two ≥ 8 (pad a map with used blocks otherwise).
//! - [`RunTreePipe`]: the same tree with every internal level registered: **latency =
//!   log2(N) − 2** (2 at N = 16, 3 at 32, 5 at 128), II = 1. The leaf tables and the first
//!   internal level work on the inputs directly, so drive `bits`/`need` from registers (a
//!   dispatcher's free maps are state registers). A `valid` bit travels with each request and
//!   gates the outputs after `reset`, so the data registers need no reset.
//! - [`ShiftAnd`] (**exact**, emb. 4 steps d1–d4): `SA_0 = bits`, `SA_i = SA_{i−1} & (bits >> i)`
//!   (the logical shift fills the vacated top bits with "used"); `SAR_i = |SA_i` is a thermometer
//!   code and `max_run = i' + 1` for the highest `SAR_{i'} = 1` (d432–d433). First fit selects
//!   `SA_{need−1}` (bit *s* set ⇔ blocks *s..s+need* free) and takes its lowest set bit
//!   (`x & −x`). Area grows as N².
//! - [`Grouped`] (emb. 5): AND-reduce groups of g = N/Z blocks (g a power of two), run
//!   [`ShiftAnd`] on the Z group bits, scale by g. Conservative; starts are group aligned;
//!   `need` is rounded up to whole groups. About (N/g)² area.
//! - [`Sampled`] (emb. 6): windows of the sampled lengths only ([`sample_lengths`]: 1..8 dense,
//!   then steps doubling), each built from the previous one by
//!   `W_t = W_{t−1} & (W_{t−1} >> d_t)` (valid because every step `d_t` ≤ the previous length).
//!   Conservative: `max_run` rounds down to a sampled length, `need` rounds up to one.
//! - `*Reg` wrappers ([`RunTreeReg`], [`ShiftAndReg`], [`GroupedReg`], [`SampledReg`]): the
//!   combinational form between an input and an output register (the patent's registered
//!   form); **latency 2**, II = 1; `reset` clears both registers (`need` is stored inverted so a
//!   cleared register means "never fits").
//! - [`time_shared::TimeShared128`] (emb. 7): one 128-bit shift-AND finder with boundary masks
//!   serving three bitmaps over a two-cycle schedule (the patent's 128 | 64 ‖ 48 example).
//!
//! ## Worked example (N = 8)
//! `bits = 0111_0110` (blocks 1–2 and 4–6 free), `need = 3` → `max_run = 3`, `fit_found = 1`,
//! `fit_start = 4`. In the tree the two leaf groups are `0110` (blocks 0–3: `plen = 0`,
//! `slen = 0`, `best = 2`, no window of 3) and `0111` (blocks 4–7: `plen = 3`, `slen = 0`,
//! `best = 3`, window of 3 at relative 0). The root: `cross = slen(L) + plen(R) = 0 + 3 = 3 ≥ 3`
//! and L has no fit, so `fit = sufrel(L) = 4` (the suffix of L is empty, so it "starts" at the
//! middle, block 4); `best = max(2, 3, 3) = 3`. Grouped, g = 4: neither group is all free →
//! `max_run = 0`, `fit_found = 0` (conservative). Sampled (every length 1..8 is sampled at
//! N = 8): exact.
//!
//! ## Cost (iCE40 HX8K, `synth finder-table`, inside a shift-register timing harness)
//! LCs include the harness's serial-in shift register (≈ N + K + 7 cells); full table in
//! `synth::run_finder`.
//!
//! | design | N = 32 | N = 64 | N = 128 |
//! |---|---|---|---|
//! | tree, comb | 446 LCs, 66.7 MHz | 1001 LCs, 46.6 MHz | 2055 LCs, 38.7 MHz |
//! | tree, pipelined (latency 3 / 4 / 5) | 579 LCs, 113.2 MHz | 1257 LCs, 106.8 MHz | 2526 LCs, 87.0 MHz |
//! | exact (shift-AND + first fit), comb | 1222 LCs, 40.4 MHz | 4661 LCs, does not route | 18460 LUT4: does not fit |
//! | grouped (g = 4), comb | 157 LCs, 83.3 MHz | 451 LCs, 57.4 MHz | 1368 LCs, 36.7 MHz |
//! | sampled, comb | 1000 LCs, 28.0 MHz | 2515 LCs, 20.2 MHz | 6306 LCs, 12.2 MHz |
//!
//! The tree is synthesized with `synth_ice40 -nocarry` (its arithmetic is at most l + 2 bits
//! wide). ShiftAnd is O(N²) (the patent's max-run-only 64-bit form is ~2400 LCs at ~31 MHz; 128
//! bits do not fit the HX8K); grouped is (N/g)²; sampled ≈ T·N ANDs for T sampled lengths.

use rust_hdl::prelude::*;

pub mod time_shared;

fn const_vec<const W: usize>(values: impl Iterator<Item = u64>) -> Vec<Constant<Bits<W>>> {
    values.map(|v| Constant::new(v.to_bits())).collect()
}

fn clog2(x: usize) -> usize {
    let mut b = 1;
    while (1usize << b) < x {
        b += 1;
    }
    b
}

fn assert_widths(n: usize, k: usize, s: usize) {
    assert!(
        (1..=128).contains(&n),
        "run_finder: N = {n} must be in 1..=128"
    );
    assert_eq!(
        k,
        clog2(n + 1),
        "run_finder: K must be clog2(N + 1) for N = {n}"
    );
    assert_eq!(s, clog2(n), "run_finder: S must be clog2(N) for N = {n}");
}

// -------------------------------------------------------------------------------------------
// Tree (exact, log depth)
// -------------------------------------------------------------------------------------------

fn locals<T: Default>(n: usize) -> Vec<T> {
    (0..n).map(|_| T::default()).collect()
}

/// Tree level of every internal node j = 0..G−1 (node G + j, whose children are nodes 2j and
/// 2j + 1) over G leaf groups of 4 blocks (level 2: a group is 2² blocks long).
fn internal_levels(n: usize) -> Vec<u32> {
    let mut lv = vec![2u32; 2 * n - 1];
    for j in 0..n - 1 {
        lv[n + j] = lv[2 * j].max(lv[2 * j + 1]) + 1;
    }
    lv[n..].to_vec()
}

fn check_tree(n: usize, m: usize, k: usize, s: usize) {
    assert_widths(n, k, s);
    assert!(
        n.is_power_of_two() && n >= 8,
        "run_finder tree: N = {n} must be a power of two ≥ 8"
    );
    assert_eq!(m, 2 * n, "run_finder tree: M must be 2N");
}

/// (free prefix, free suffix, longest run, suffix start) of a 4-block group `v` (bit i = block i).
fn leaf_fields(v: usize) -> (usize, usize, usize, usize) {
    let free = |i: usize| (v >> i) & 1 == 1;
    let plen = (0..4).take_while(|&i| free(i)).count();
    let slen = (0..4).rev().take_while(|&i| free(i)).count();
    let best = (0..4)
        .map(|s| (s..4).take_while(|&i| free(i)).count())
        .max()
        .unwrap();
    (plen, slen, best, 4 - slen)
}

/// Lowest offset of a window for request class `c` (need = c for c ≤ 4, more for c = 5).
fn leaf_fit(v: usize, c: usize) -> Option<usize> {
    match c {
        0 => Some(0),
        1..=4 => (0..=4 - c).find(|&p| (p..p + c).all(|i| (v >> i) & 1 == 1)),
        _ => None,
    }
}

/// A 16-entry truth table: bit v set iff `f(v)`.
fn table16(f: impl Fn(usize) -> bool) -> Constant<Bits<16>> {
    Constant::new(((0..16).filter(|&v| f(v)).fold(0u64, |a, v| a | 1 << v)).to_bits())
}

/// A 128-entry table over (request class c = 0..8, group value v): bit 16c + v set iff `f(c, v)`.
fn table128(f: impl Fn(usize, usize) -> bool) -> Constant<Bits<128>> {
    let mut b = Bits::<128>::default();
    for i in 0..128 {
        if f(i / 16, i % 16) {
            b = b.replace_bit(i, true);
        }
    }
    Constant::new(b)
}

/// One table per value w = 0..=4: bit v set iff `f(v) == w`.
fn leaf_tables(f: impl Fn(usize) -> usize) -> Vec<Constant<Bits<16>>> {
    (0..5).map(|w| table16(|v| f(v) == w)).collect()
}

/// Exact log-depth segment-tree finder (combinational).
///
/// Node layout (children always before parents, so the generated `always` block never reads a
/// value before writing it): the leaves are G = N/4 groups of 4 blocks (nodes 0..G, group g =
/// blocks 4g..4g+4), whose fields come from 16-entry truth tables (one LUT4 per bit instead of
/// three tree nodes); internal node G + j has children 2j and 2j + 1; the root is node 2G − 2.
/// `M` = 2N (derived, kept for the type's shape). Lengths are true lengths held in K bits but
/// masked to their level's width (l + 1 bits at level l), so synthesis trims every adder and
/// comparator to the width it needs. N is a power of two ≥ 8.
#[derive(LogicBlock)]
pub struct RunTree<const N: usize, const M: usize, const K: usize, const S: usize> {
    /// Free map, N bits, 1 = free.
    pub bits: Signal<In, Bits<N>>,
    /// Blocks requested, K = clog2(N+1) bits.
    pub need: Signal<In, Bits<K>>,
    /// Longest free run.
    pub max_run: Signal<Out, Bits<K>>,
    /// A run of at least `need` free blocks exists.
    pub fit_found: Signal<Out, Bit>,
    /// Lowest start of such a run (0 if none), S = clog2(N) bits.
    pub fit_start: Signal<Out, Bits<S>>,
    /// Request class for the 4-block leaves: min(need, 5) (5 = more than a group holds).
    need_cls: Signal<Local, Bits<3>>,
    /// Per leaf group: its 4 blocks, and (class, blocks) as a table index.
    grp: Vec<Signal<Local, Bits<4>>>,
    gidx: Vec<Signal<Local, Bits<7>>>,
    /// `bits` zero-extended (so a 7-bit slice at 4g never leaves the word) and the class in the
    /// table index's top bits.
    bits_pad: Signal<Local, Bits<M>>,
    cls_hi: Signal<Local, Bits<7>>,
    /// Constants 0..=4 and 0..=5 (K bits), group offsets 4g. Derived.
    wconst: Vec<Constant<Bits<K>>>,
    goff: Vec<Constant<Bits<8>>>,
    /// Leaf truth tables over the 16 group values: bit v of `t_plen[w]` is set iff group value
    /// v has a free prefix of w blocks (likewise suffix, best, suffix start); `t_found[c]`,
    /// `t_fit[4c + p]`: a request of class c fits, at offset p. Derived.
    t_plen: Vec<Constant<Bits<16>>>,
    t_slen: Vec<Constant<Bits<16>>>,
    t_best: Vec<Constant<Bits<16>>>,
    t_sufrel: Vec<Constant<Bits<16>>>,
    t_found: Constant<Bits<128>>,
    t_fit0: Constant<Bits<128>>,
    t_fit1: Constant<Bits<128>>,
    four: Constant<Bits<7>>,
    low4: Constant<Bits<7>>,
    /// Per internal node j (level l): 2^(l−1), 2^l, 2^l + 1, 2^(l+1) − 1. Derived.
    half: Vec<Constant<Bits<K>>>,
    full: Vec<Constant<Bits<K>>>,
    fullp1: Vec<Constant<Bits<K>>>,
    lmask: Vec<Constant<Bits<K>>>,
    /// Per node: segment all free.
    seg_all: Vec<Signal<Local, Bit>>,
    /// Per node: free prefix length (true length, ≤ segment length).
    plen: Vec<Signal<Local, Bits<K>>>,
    /// Per node: free suffix length.
    slen: Vec<Signal<Local, Bits<K>>>,
    /// Per node: start of the free suffix, relative to the segment start (= length − slen).
    sufrel: Vec<Signal<Local, Bits<K>>>,
    /// Per node: longest free run inside the segment.
    best: Vec<Signal<Local, Bits<K>>>,
    /// Per node: a window of `need` free blocks lies inside the segment.
    found: Vec<Signal<Local, Bit>>,
    /// Per node: lowest such window start, relative to the segment start.
    fitrel: Vec<Signal<Local, Bits<K>>>,
    /// Per internal node: the crossing run, clipped `need`, and the three compares of the max.
    cross: Vec<Signal<Local, Bits<K>>>,
    needc: Vec<Signal<Local, Bits<K>>>,
    r_gt_l: Vec<Signal<Local, Bit>>,
    x_gt_l: Vec<Signal<Local, Bit>>,
    x_gt_r: Vec<Signal<Local, Bit>>,
}

impl<const N: usize, const M: usize, const K: usize, const S: usize> Default
    for RunTree<N, M, K, S>
{
    fn default() -> Self {
        check_tree(N, M, K, S);
        let levels = internal_levels(N / 4);
        RunTree {
            bits: Default::default(),
            need: Default::default(),
            max_run: Default::default(),
            fit_found: Default::default(),
            fit_start: Default::default(),
            need_cls: Default::default(),
            grp: locals(N / 4),
            gidx: locals(N / 4),
            bits_pad: Default::default(),
            cls_hi: Default::default(),
            wconst: const_vec(0..6),
            goff: const_vec((0..N as u64 / 4).map(|g| 4 * g)),
            t_plen: leaf_tables(|v| leaf_fields(v).0),
            t_slen: leaf_tables(|v| leaf_fields(v).1),
            t_best: leaf_tables(|v| leaf_fields(v).2),
            t_sufrel: leaf_tables(|v| leaf_fields(v).3),
            t_found: table128(|c, v| leaf_fit(v, c).is_some()),
            t_fit0: table128(|c, v| leaf_fit(v, c).unwrap_or(0) & 1 == 1),
            t_fit1: table128(|c, v| leaf_fit(v, c).unwrap_or(0) & 2 == 2),
            four: Constant::new(4u64.to_bits()),
            low4: Constant::new(15u64.to_bits()),
            half: const_vec(levels.iter().map(|&l| 1u64 << (l - 1))),
            full: const_vec(levels.iter().map(|&l| 1u64 << l)),
            fullp1: const_vec(levels.iter().map(|&l| (1u64 << l) + 1)),
            lmask: const_vec(levels.iter().map(|&l| (1u64 << (l + 1)) - 1)),
            seg_all: locals(N / 2 - 1),
            plen: locals(N / 2 - 1),
            slen: locals(N / 2 - 1),
            sufrel: locals(N / 2 - 1),
            best: locals(N / 2 - 1),
            found: locals(N / 2 - 1),
            fitrel: locals(N / 2 - 1),
            cross: locals(N / 4 - 1),
            needc: locals(N / 4 - 1),
            r_gt_l: locals(N / 4 - 1),
            x_gt_l: locals(N / 4 - 1),
            x_gt_r: locals(N / 4 - 1),
        }
    }
}

impl<const N: usize, const M: usize, const K: usize, const S: usize> Logic for RunTree<N, M, K, S> {
    #[hdl_gen]
    fn update(&mut self) {
        self.need_cls.next = self.need.val().get_bits::<3>(0);
        if self.need.val() > self.wconst[4].val() {
            self.need_cls.next = 5.into();
        }
        self.cls_hi.next = bit_cast::<7, 3>(self.need_cls.val()) << self.four.val();
        self.bits_pad.next = bit_cast::<M, N>(self.bits.val());
        // Leaves: groups of 4 blocks (tree levels 1 and 2 folded into truth tables, one LUT4 per
        // output bit); `grp` selects one table bit per field.
        for g in 0..(N / 4) {
            self.grp[g].next = self.bits.val().get_bits::<4>(self.goff[g].val().index());
            self.seg_all[g].next = self.grp[g].val().all();
            self.plen[g].next = 0.into();
            self.slen[g].next = 0.into();
            self.best[g].next = 0.into();
            self.sufrel[g].next = 0.into();
            for w in 0..5 {
                if self.t_plen[w].val().get_bit(self.grp[g].val().index()) {
                    self.plen[g].next = self.wconst[w].val();
                }
                if self.t_slen[w].val().get_bit(self.grp[g].val().index()) {
                    self.slen[g].next = self.wconst[w].val();
                }
                if self.t_best[w].val().get_bit(self.grp[g].val().index()) {
                    self.best[g].next = self.wconst[w].val();
                }
                if self.t_sufrel[w].val().get_bit(self.grp[g].val().index()) {
                    self.sufrel[g].next = self.wconst[w].val();
                }
            }
            // First fit inside the group: a table over (request class, group value), one
            // 7-input function per output bit.
            self.gidx[g].next = (self
                .bits_pad
                .val()
                .get_bits::<7>(self.goff[g].val().index())
                & self.low4.val())
                | self.cls_hi.val();
            self.found[g].next = self.t_found.val().get_bit(self.gidx[g].val().index());
            self.fitrel[g].next = 0.into();
            if self.t_fit0.val().get_bit(self.gidx[g].val().index()) {
                self.fitrel[g].next = self.wconst[1].val();
            }
            if self.t_fit1.val().get_bit(self.gidx[g].val().index()) {
                self.fitrel[g].next = self.wconst[2].val();
                if self.t_fit0.val().get_bit(self.gidx[g].val().index()) {
                    self.fitrel[g].next = self.wconst[3].val();
                }
            }
        }
        // Internal nodes (`nn` is a one-value loop so that the offset G is known to the Verilog
        // generator, which evaluates index expressions from loop variables only).
        for nn in (N / 4)..(N / 4 + 1) {
            for j in 0..(N / 4 - 1) {
                // Node nn + j: children 2j (low half L) and 2j + 1 (high half R).
                self.seg_all[nn + j].next =
                    self.seg_all[2 * j].val() & self.seg_all[2 * j + 1].val();
                // Prefix: L's, or all of L plus R's prefix (h + x is h | x because x < h).
                self.plen[nn + j].next = self.plen[2 * j].val();
                if self.seg_all[2 * j].val() {
                    self.plen[nn + j].next = self.plen[2 * j + 1].val() | self.half[j].val();
                    if self.seg_all[2 * j + 1].val() {
                        self.plen[nn + j].next = self.full[j].val();
                    }
                }
                self.slen[nn + j].next = self.slen[2 * j + 1].val();
                if self.seg_all[2 * j + 1].val() {
                    self.slen[nn + j].next = self.slen[2 * j].val() | self.half[j].val();
                    if self.seg_all[2 * j].val() {
                        self.slen[nn + j].next = self.full[j].val();
                    }
                }
                self.sufrel[nn + j].next = self.sufrel[2 * j + 1].val() | self.half[j].val();
                if (self.sufrel[2 * j + 1].val() & self.half[j].val()).any() {
                    self.sufrel[nn + j].next = self.full[j].val();
                }
                if self.seg_all[2 * j + 1].val() {
                    self.sufrel[nn + j].next = self.sufrel[2 * j].val();
                }
                // The run crossing the middle, measured once here.
                self.cross[j].next =
                    (self.slen[2 * j].val() + self.plen[2 * j + 1].val()) & self.lmask[j].val();
                // best = max(best(L), best(R), cross): three compares side by side, one select.
                self.r_gt_l[j].next = self.best[2 * j + 1].val() > self.best[2 * j].val();
                self.x_gt_l[j].next = self.cross[j].val() > self.best[2 * j].val();
                self.x_gt_r[j].next = self.cross[j].val() > self.best[2 * j + 1].val();
                self.best[nn + j].next = self.best[2 * j].val();
                if self.r_gt_l[j].val() {
                    self.best[nn + j].next = self.best[2 * j + 1].val();
                }
                if self.x_gt_l[j].val() & self.x_gt_r[j].val() {
                    self.best[nn + j].next = self.cross[j].val();
                }
                // `need` clipped to this level's width (full + 1 means "never"), so that the
                // compare is only as wide as the lengths.
                self.needc[j].next = self.need.val() & self.lmask[j].val();
                if self.need.val() > self.full[j].val() {
                    self.needc[j].next = self.fullp1[j].val();
                }
                // First fit: low half, else the crossing run, else the high half.
                self.found[nn + j].next = true;
                self.fitrel[nn + j].next = self.fitrel[2 * j + 1].val() | self.half[j].val();
                if self.found[2 * j].val() {
                    self.fitrel[nn + j].next = self.fitrel[2 * j].val();
                } else if self.cross[j].val() >= self.needc[j].val() {
                    self.fitrel[nn + j].next = self.sufrel[2 * j].val();
                } else {
                    self.found[nn + j].next = self.found[2 * j + 1].val();
                }
            }
            // Root = node 2G − 2.
            self.max_run.next = self.best[2 * nn - 2].val();
            self.fit_found.next = self.found[2 * nn - 2].val();
            self.fit_start.next = self.fitrel[2 * nn - 2].val().get_bits::<S>(0);
            if !self.found[2 * nn - 2].val() {
                self.fit_start.next = 0.into();
            }
        }
    }
}

/// The tree of [`RunTree`] with every internal level registered: latency log2(N) − 2 (one stage
/// per tree level above the 4-block leaf groups: 5 at N = 128), II = 1.
///
/// The leaf groups' truth tables and the first internal level work on the inputs directly (drive
/// them from registers: the free maps of a dispatcher are state registers); every internal level
/// registers its fields and the `need` they were computed with, so every stage works on its own
/// request. The root's registers
/// drive the outputs through one AND (`fit_start` reads 0 when nothing fits). The data registers
/// have no reset (so they pack freely with the LUTs that feed them); a `valid` bit travels with
/// every request instead, is cleared by `reset` (and at power-up), and forces the outputs to 0
/// while the pipeline refills: after `reset` the outputs read 0 for `latency` cycles. The
/// per-node copies of `need` and `valid` are identical within a level; synthesis merges them into
/// one per stage.
#[derive(LogicBlock)]
pub struct RunTreePipe<const N: usize, const M: usize, const K: usize, const S: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high: clears the pipeline.
    pub reset: Signal<In, Bit>,
    /// Free map, N bits, 1 = free.
    pub bits: Signal<In, Bits<N>>,
    /// Blocks requested, K = clog2(N+1) bits.
    pub need: Signal<In, Bits<K>>,
    /// Longest free run of the map presented `latency` cycles ago.
    pub max_run: Signal<Out, Bits<K>>,
    /// A run of at least `need` free blocks exists.
    pub fit_found: Signal<Out, Bit>,
    /// Lowest start of such a run (0 if none), S = clog2(N) bits.
    pub fit_start: Signal<Out, Bits<S>>,
    /// Per node: the request in this node's fields is valid (not a reset leftover).
    valid_at: Vec<Signal<Local, Bit>>,
    /// Level register of `valid` per internal node.
    r_valid: Vec<DFF<Bit>>,
    need_cls: Signal<Local, Bits<3>>,
    grp: Vec<Signal<Local, Bits<4>>>,
    gidx: Vec<Signal<Local, Bits<7>>>,
    /// `bits` zero-extended (so a 7-bit slice at 4g never leaves the word) and the class in the
    /// table index's top bits.
    bits_pad: Signal<Local, Bits<M>>,
    cls_hi: Signal<Local, Bits<7>>,
    /// Constants 0..=4 and 0..=5 (K bits), group offsets 4g. Derived.
    wconst: Vec<Constant<Bits<K>>>,
    goff: Vec<Constant<Bits<8>>>,
    /// Leaf truth tables over the 16 group values: bit v of `t_plen[w]` is set iff group value
    /// v has a free prefix of w blocks (likewise suffix, best, suffix start); `t_found[c]`,
    /// `t_fit[4c + p]`: a request of class c fits, at offset p. Derived.
    t_plen: Vec<Constant<Bits<16>>>,
    t_slen: Vec<Constant<Bits<16>>>,
    t_best: Vec<Constant<Bits<16>>>,
    t_sufrel: Vec<Constant<Bits<16>>>,
    t_found: Constant<Bits<128>>,
    t_fit0: Constant<Bits<128>>,
    t_fit1: Constant<Bits<128>>,
    four: Constant<Bits<7>>,
    low4: Constant<Bits<7>>,
    /// Per internal node j (level l): 2^(l−1), 2^l, 2^l + 1, 2^(l+1) − 1. Derived.
    half: Vec<Constant<Bits<K>>>,
    full: Vec<Constant<Bits<K>>>,
    fullp1: Vec<Constant<Bits<K>>>,
    lmask: Vec<Constant<Bits<K>>>,
    /// Per node (leaves: from the input registers; internal: register outputs): segment all free.
    seg_all: Vec<Signal<Local, Bit>>,
    /// Per node (leaves: from the input registers; internal: register outputs): free prefix length (true length, ≤ segment length).
    plen: Vec<Signal<Local, Bits<K>>>,
    /// Per node (leaves: from the input registers; internal: register outputs): free suffix length.
    slen: Vec<Signal<Local, Bits<K>>>,
    /// Per node (leaves: from the input registers; internal: register outputs): start of the free suffix, relative to the segment start (= length − slen).
    sufrel: Vec<Signal<Local, Bits<K>>>,
    /// Per node (leaves: from the input registers; internal: register outputs): longest free run inside the segment.
    best: Vec<Signal<Local, Bits<K>>>,
    /// Per node (leaves: from the input registers; internal: register outputs): a window of `need` free blocks lies inside the segment.
    found: Vec<Signal<Local, Bit>>,
    /// Per node (leaves: from the input registers; internal: register outputs): lowest such window start, relative to the segment start.
    fitrel: Vec<Signal<Local, Bits<K>>>,
    /// Per node: the request this node's fields belong to.
    need_at: Vec<Signal<Local, Bits<K>>>,
    /// Per internal node: the crossing run, clipped `need`, and the three compares of the max.
    cross: Vec<Signal<Local, Bits<K>>>,
    needc: Vec<Signal<Local, Bits<K>>>,
    r_gt_l: Vec<Signal<Local, Bit>>,
    x_gt_l: Vec<Signal<Local, Bit>>,
    x_gt_r: Vec<Signal<Local, Bit>>,
    /// Level register of `seg_all` per internal node.
    r_seg_all: Vec<DFF<Bit>>,
    /// Level register of `plen` per internal node.
    r_plen: Vec<DFF<Bits<K>>>,
    /// Level register of `slen` per internal node.
    r_slen: Vec<DFF<Bits<K>>>,
    /// Level register of `sufrel` per internal node.
    r_sufrel: Vec<DFF<Bits<K>>>,
    /// Level register of `best` per internal node.
    r_best: Vec<DFF<Bits<K>>>,
    /// Level register of `found` per internal node.
    r_found: Vec<DFF<Bit>>,
    /// Level register of `fitrel` per internal node.
    r_fitrel: Vec<DFF<Bits<K>>>,
    /// Level register of `!need` per internal node.
    r_need_n: Vec<DFF<Bits<K>>>,
    /// Per node: `need` already clipped for its parent's level (registered one stage ahead, so
    /// the parent compares without clipping first), and its level register.
    needc_at: Vec<Signal<Local, Bits<K>>>,
    r_needc: Vec<DFF<Bits<K>>>,
    /// Per internal node: the clipping constants of its parent's level (2^l', 2^l' + 1,
    /// 2^(l'+1) − 1), and of level 3 for the leaf groups. Derived.
    par_full: Vec<Constant<Bits<K>>>,
    par_fullp1: Vec<Constant<Bits<K>>>,
    par_lmask: Vec<Constant<Bits<K>>>,
    l3_full: Constant<Bits<K>>,
    l3_fullp1: Constant<Bits<K>>,
    l3_lmask: Constant<Bits<K>>,
}

impl<const N: usize, const M: usize, const K: usize, const S: usize> Default
    for RunTreePipe<N, M, K, S>
{
    fn default() -> Self {
        check_tree(N, M, K, S);
        let levels = internal_levels(N / 4);
        RunTreePipe {
            clock: Default::default(),
            reset: Default::default(),
            bits: Default::default(),
            need: Default::default(),
            max_run: Default::default(),
            fit_found: Default::default(),
            fit_start: Default::default(),
            valid_at: locals(N / 2 - 1),
            r_valid: locals(N / 4 - 1),
            need_cls: Default::default(),
            grp: locals(N / 4),
            gidx: locals(N / 4),
            bits_pad: Default::default(),
            cls_hi: Default::default(),
            wconst: const_vec(0..6),
            goff: const_vec((0..N as u64 / 4).map(|g| 4 * g)),
            t_plen: leaf_tables(|v| leaf_fields(v).0),
            t_slen: leaf_tables(|v| leaf_fields(v).1),
            t_best: leaf_tables(|v| leaf_fields(v).2),
            t_sufrel: leaf_tables(|v| leaf_fields(v).3),
            t_found: table128(|c, v| leaf_fit(v, c).is_some()),
            t_fit0: table128(|c, v| leaf_fit(v, c).unwrap_or(0) & 1 == 1),
            t_fit1: table128(|c, v| leaf_fit(v, c).unwrap_or(0) & 2 == 2),
            four: Constant::new(4u64.to_bits()),
            low4: Constant::new(15u64.to_bits()),
            half: const_vec(levels.iter().map(|&l| 1u64 << (l - 1))),
            full: const_vec(levels.iter().map(|&l| 1u64 << l)),
            fullp1: const_vec(levels.iter().map(|&l| (1u64 << l) + 1)),
            lmask: const_vec(levels.iter().map(|&l| (1u64 << (l + 1)) - 1)),
            seg_all: locals(N / 2 - 1),
            plen: locals(N / 2 - 1),
            slen: locals(N / 2 - 1),
            sufrel: locals(N / 2 - 1),
            best: locals(N / 2 - 1),
            found: locals(N / 2 - 1),
            fitrel: locals(N / 2 - 1),
            cross: locals(N / 4 - 1),
            needc: locals(N / 4 - 1),
            r_gt_l: locals(N / 4 - 1),
            x_gt_l: locals(N / 4 - 1),
            x_gt_r: locals(N / 4 - 1),
            need_at: locals(N / 2 - 1),
            r_seg_all: locals(N / 4 - 1),
            r_plen: locals(N / 4 - 1),
            r_slen: locals(N / 4 - 1),
            r_sufrel: locals(N / 4 - 1),
            r_best: locals(N / 4 - 1),
            r_found: locals(N / 4 - 1),
            r_fitrel: locals(N / 4 - 1),
            r_need_n: locals(N / 4 - 1),
            needc_at: locals(N / 2 - 1),
            r_needc: locals(N / 4 - 1),
            // (the root has no parent: its values are masked to K bits and never used)
            par_full: const_vec(
                levels
                    .iter()
                    .map(|&l| (1u64 << (l + 1)) & ((1u64 << K) - 1)),
            ),
            par_fullp1: const_vec(
                levels
                    .iter()
                    .map(|&l| ((1u64 << (l + 1)) + 1) & ((1u64 << K) - 1)),
            ),
            par_lmask: const_vec(
                levels
                    .iter()
                    .map(|&l| ((1u64 << (l + 2)) - 1) & ((1u64 << K) - 1)),
            ),
            l3_full: Constant::new(8u64.to_bits()),
            l3_fullp1: Constant::new(9u64.to_bits()),
            l3_lmask: Constant::new(15u64.to_bits()),
        }
    }
}

impl<const N: usize, const M: usize, const K: usize, const S: usize> Logic
    for RunTreePipe<N, M, K, S>
{
    #[hdl_gen]
    fn update(&mut self) {
        // Stage 0: input registers.
        // The leaf groups' truth tables work straight on the inputs (the free maps of a
        // dispatcher are state registers already); the first register stage is tree level 3.
        self.need_cls.next = self.need.val().get_bits::<3>(0);
        if self.need.val() > self.wconst[4].val() {
            self.need_cls.next = 5.into();
        }
        self.cls_hi.next = bit_cast::<7, 3>(self.need_cls.val()) << self.four.val();
        self.bits_pad.next = bit_cast::<M, N>(self.bits.val());
        // Leaves: groups of 4 blocks (tree levels 1 and 2 folded into truth tables, one LUT4 per
        // output bit); `grp` selects one table bit per field.
        for g in 0..(N / 4) {
            self.grp[g].next = self.bits.val().get_bits::<4>(self.goff[g].val().index());
            self.seg_all[g].next = self.grp[g].val().all();
            self.plen[g].next = 0.into();
            self.slen[g].next = 0.into();
            self.best[g].next = 0.into();
            self.sufrel[g].next = 0.into();
            for w in 0..5 {
                if self.t_plen[w].val().get_bit(self.grp[g].val().index()) {
                    self.plen[g].next = self.wconst[w].val();
                }
                if self.t_slen[w].val().get_bit(self.grp[g].val().index()) {
                    self.slen[g].next = self.wconst[w].val();
                }
                if self.t_best[w].val().get_bit(self.grp[g].val().index()) {
                    self.best[g].next = self.wconst[w].val();
                }
                if self.t_sufrel[w].val().get_bit(self.grp[g].val().index()) {
                    self.sufrel[g].next = self.wconst[w].val();
                }
            }
            // First fit inside the group: a table over (request class, group value), one
            // 7-input function per output bit.
            self.gidx[g].next = (self
                .bits_pad
                .val()
                .get_bits::<7>(self.goff[g].val().index())
                & self.low4.val())
                | self.cls_hi.val();
            self.found[g].next = self.t_found.val().get_bit(self.gidx[g].val().index());
            self.fitrel[g].next = 0.into();
            if self.t_fit0.val().get_bit(self.gidx[g].val().index()) {
                self.fitrel[g].next = self.wconst[1].val();
            }
            if self.t_fit1.val().get_bit(self.gidx[g].val().index()) {
                self.fitrel[g].next = self.wconst[2].val();
                if self.t_fit0.val().get_bit(self.gidx[g].val().index()) {
                    self.fitrel[g].next = self.wconst[3].val();
                }
            }
        }
        for g in 0..(N / 4) {
            self.need_at[g].next = self.need.val();
            self.valid_at[g].next = true;
            self.needc_at[g].next = self.need.val() & self.l3_lmask.val();
            if self.need.val() > self.l3_full.val() {
                self.needc_at[g].next = self.l3_fullp1.val();
            }
        }
        for nn in (N / 4)..(N / 4 + 1) {
            for j in 0..(N / 4 - 1) {
                self.r_seg_all[j].clock.next = self.clock.val();
                self.r_plen[j].clock.next = self.clock.val();
                self.r_slen[j].clock.next = self.clock.val();
                self.r_sufrel[j].clock.next = self.clock.val();
                self.r_best[j].clock.next = self.clock.val();
                self.r_found[j].clock.next = self.clock.val();
                self.r_fitrel[j].clock.next = self.clock.val();
                self.r_need_n[j].clock.next = self.clock.val();
                self.r_need_n[j].d.next = !self.need_at[2 * j].val();
                self.r_valid[j].clock.next = self.clock.val();
                self.r_needc[j].clock.next = self.clock.val();
                self.r_needc[j].d.next = self.need_at[2 * j].val() & self.par_lmask[j].val();
                if self.need_at[2 * j].val() > self.par_full[j].val() {
                    self.r_needc[j].d.next = self.par_fullp1[j].val();
                }
                self.r_valid[j].d.next = self.valid_at[2 * j].val() & !self.reset.val();
                // Node nn + j: children 2j (low half L) and 2j + 1 (high half R).
                self.r_seg_all[j].d.next =
                    self.seg_all[2 * j].val() & self.seg_all[2 * j + 1].val();
                // Prefix: L's, or all of L plus R's prefix (h + x is h | x because x < h).
                self.r_plen[j].d.next = self.plen[2 * j].val();
                if self.seg_all[2 * j].val() {
                    self.r_plen[j].d.next = self.plen[2 * j + 1].val() | self.half[j].val();
                    if self.seg_all[2 * j + 1].val() {
                        self.r_plen[j].d.next = self.full[j].val();
                    }
                }
                self.r_slen[j].d.next = self.slen[2 * j + 1].val();
                if self.seg_all[2 * j + 1].val() {
                    self.r_slen[j].d.next = self.slen[2 * j].val() | self.half[j].val();
                    if self.seg_all[2 * j].val() {
                        self.r_slen[j].d.next = self.full[j].val();
                    }
                }
                self.r_sufrel[j].d.next = self.sufrel[2 * j + 1].val() | self.half[j].val();
                if (self.sufrel[2 * j + 1].val() & self.half[j].val()).any() {
                    self.r_sufrel[j].d.next = self.full[j].val();
                }
                if self.seg_all[2 * j + 1].val() {
                    self.r_sufrel[j].d.next = self.sufrel[2 * j].val();
                }
                // The run crossing the middle, measured once here.
                self.cross[j].next =
                    (self.slen[2 * j].val() + self.plen[2 * j + 1].val()) & self.lmask[j].val();
                // best = max(best(L), best(R), cross): three compares side by side, one select.
                self.r_gt_l[j].next = self.best[2 * j + 1].val() > self.best[2 * j].val();
                self.x_gt_l[j].next = self.cross[j].val() > self.best[2 * j].val();
                self.x_gt_r[j].next = self.cross[j].val() > self.best[2 * j + 1].val();
                self.r_best[j].d.next = self.best[2 * j].val();
                if self.r_gt_l[j].val() {
                    self.r_best[j].d.next = self.best[2 * j + 1].val();
                }
                if self.x_gt_l[j].val() & self.x_gt_r[j].val() {
                    self.r_best[j].d.next = self.cross[j].val();
                }
                // `need` clipped to this level's width (full + 1 means "never"), so that the
                // compare is only as wide as the lengths.
                self.needc[j].next = self.needc_at[2 * j].val();
                // First fit: low half, else the crossing run, else the high half.
                self.r_found[j].d.next = true;
                self.r_fitrel[j].d.next = self.fitrel[2 * j + 1].val() | self.half[j].val();
                if self.found[2 * j].val() {
                    self.r_fitrel[j].d.next = self.fitrel[2 * j].val();
                } else if self.cross[j].val() >= self.needc[j].val() {
                    self.r_fitrel[j].d.next = self.sufrel[2 * j].val();
                } else {
                    self.r_found[j].d.next = self.found[2 * j + 1].val();
                }
                self.seg_all[nn + j].next = self.r_seg_all[j].q.val();
                self.plen[nn + j].next = self.r_plen[j].q.val();
                self.slen[nn + j].next = self.r_slen[j].q.val();
                self.sufrel[nn + j].next = self.r_sufrel[j].q.val();
                self.best[nn + j].next = self.r_best[j].q.val();
                self.found[nn + j].next = self.r_found[j].q.val();
                self.fitrel[nn + j].next = self.r_fitrel[j].q.val();
                self.need_at[nn + j].next = !self.r_need_n[j].q.val();
                self.valid_at[nn + j].next = self.r_valid[j].q.val();
                self.needc_at[nn + j].next = self.r_needc[j].q.val();
            }
            // Root = node 2G − 2.
            self.max_run.next = self.best[2 * nn - 2].val();
            self.fit_found.next = self.found[2 * nn - 2].val();
            self.fit_start.next = self.fitrel[2 * nn - 2].val().get_bits::<S>(0);
            if !self.found[2 * nn - 2].val() {
                self.fit_start.next = 0.into();
            }
            if !self.valid_at[2 * nn - 2].val() {
                self.max_run.next = 0.into();
                self.fit_found.next = false;
                self.fit_start.next = 0.into();
            }
        }
    }
}

// -------------------------------------------------------------------------------------------
// Shift-AND triangle (exact, emb. 4)
// -------------------------------------------------------------------------------------------

/// The patent's exact finder (emb. 4, steps d1–d4), combinational.
#[derive(LogicBlock)]
pub struct ShiftAnd<const N: usize, const K: usize, const S: usize> {
    /// Free map, N bits, 1 = free.
    pub bits: Signal<In, Bits<N>>,
    /// Blocks requested, K = clog2(N+1) bits.
    pub need: Signal<In, Bits<K>>,
    /// Longest free run.
    pub max_run: Signal<Out, Bits<K>>,
    /// A run of at least `need` free blocks exists.
    pub fit_found: Signal<Out, Bit>,
    /// Lowest start of such a run (0 if none).
    pub fit_start: Signal<Out, Bits<S>>,
    /// SA_i = S0 & S1 & … & S_i (d2–d3): bit s set ⇔ blocks s..=s+i free.
    sa: Vec<Signal<Local, Bits<N>>>,
    /// Shift amounts i. Derived.
    shamt: Vec<Constant<Bits<8>>>,
    /// Run length i + 1 read out for SAR_i. Derived.
    len: Vec<Constant<Bits<K>>>,
    /// Block index j. Derived.
    idx: Vec<Constant<Bits<S>>>,
    /// SA_{need−1}.
    sel: Signal<Local, Bits<N>>,
    /// Lowest set bit of `sel` (one-hot).
    low: Signal<Local, Bits<N>>,
}

impl<const N: usize, const K: usize, const S: usize> Default for ShiftAnd<N, K, S> {
    fn default() -> Self {
        assert_widths(N, K, S);
        ShiftAnd {
            bits: Default::default(),
            need: Default::default(),
            max_run: Default::default(),
            fit_found: Default::default(),
            fit_start: Default::default(),
            sa: locals(N),
            shamt: const_vec(0..N as u64),
            len: const_vec(1..N as u64 + 1),
            idx: const_vec(0..N as u64),
            sel: Default::default(),
            low: Default::default(),
        }
    }
}

impl<const N: usize, const K: usize, const S: usize> Logic for ShiftAnd<N, K, S> {
    #[hdl_gen]
    fn update(&mut self) {
        // d2–d3: shifted copies (vacated bits read "used") AND-accumulated.
        self.sa[0].next = self.bits.val();
        for i in 1..N {
            self.sa[i].next = self.sa[i - 1].val() & (self.bits.val() >> self.shamt[i].val());
        }
        // d4 / d432–d433: thermometer read-out, the highest SAR_i = 1 gives i + 1.
        self.max_run.next = 0.into();
        for i in 0..N {
            if self.sa[i].val().any() {
                self.max_run.next = self.len[i].val();
            }
        }
        // a43: first fit = lowest set bit of SA_{need−1}.
        self.sel.next = 0.into();
        for i in 0..N {
            if self.need.val() == self.len[i].val() {
                self.sel.next = self.sa[i].val();
            }
        }
        self.low.next = self.sel.val() & (!self.sel.val() + 1);
        self.fit_found.next = self.sel.val().any();
        self.fit_start.next = 0.into();
        for j in 0..N {
            if self.low.val().get_bit(j) {
                self.fit_start.next = self.idx[j].val();
            }
        }
        if self.need.val() == 0 {
            self.fit_found.next = true;
            self.fit_start.next = 0.into();
        }
    }
}

// -------------------------------------------------------------------------------------------
// Grouped (emb. 5)
// -------------------------------------------------------------------------------------------

/// Grouped finder (emb. 5): groups of G = N / Z blocks AND-reduced, [`ShiftAnd`] over the Z group
/// bits, results scaled by G. `KZ`, `SZ` are the inner finder's widths (derived).
#[derive(LogicBlock)]
pub struct Grouped<
    const N: usize,
    const G: usize,
    const Z: usize,
    const K: usize,
    const S: usize,
    const KZ: usize,
    const SZ: usize,
> {
    /// Free map, N bits, 1 = free.
    pub bits: Signal<In, Bits<N>>,
    /// Blocks requested (rounded up to whole groups inside).
    pub need: Signal<In, Bits<K>>,
    /// Longest run of whole free groups, times G.
    pub max_run: Signal<Out, Bits<K>>,
    /// Enough whole free groups for `need` blocks exist.
    pub fit_found: Signal<Out, Bit>,
    /// Start of the first such group run (a multiple of G; 0 if none).
    pub fit_start: Signal<Out, Bits<S>>,
    /// The exact finder over the group bits (e2–e33).
    pub core: ShiftAnd<Z, KZ, SZ>,
    gshift: Vec<Constant<Bits<8>>>,
    glog: Constant<Bits<8>>,
    gmask: Constant<Bits<K>>,
    n_max: Constant<Bits<K>>,
    /// Group bits 0..j packed (a chain of ORs that synthesis flattens).
    gacc: Vec<Signal<Local, Bits<Z>>>,
    /// 1 << j. Derived.
    gone: Vec<Constant<Bits<Z>>>,
    gbits: Signal<Local, Bits<Z>>,
    need_groups: Signal<Local, Bits<K>>,
}

impl<
        const N: usize,
        const G: usize,
        const Z: usize,
        const K: usize,
        const S: usize,
        const KZ: usize,
        const SZ: usize,
    > Default for Grouped<N, G, Z, K, S, KZ, SZ>
{
    fn default() -> Self {
        assert_widths(N, K, S);
        assert!(
            G.is_power_of_two(),
            "Grouped: group size G = {G} must be a power of two"
        );
        assert_eq!(G * Z, N, "Grouped: G * Z must equal N");
        assert_widths(Z, KZ, SZ);
        Grouped {
            bits: Default::default(),
            need: Default::default(),
            max_run: Default::default(),
            fit_found: Default::default(),
            fit_start: Default::default(),
            core: Default::default(),
            gshift: const_vec((0..Z as u64).map(|j| j * G as u64)),
            glog: Constant::new((G.trailing_zeros() as u64).to_bits()),
            gmask: Constant::new((G as u64 - 1).to_bits()),
            n_max: Constant::new((N as u64).to_bits()),
            gacc: locals(Z + 1),
            gone: const_vec((0..Z).map(|j| 1u64 << j)),
            gbits: Default::default(),
            need_groups: Default::default(),
        }
    }
}

impl<
        const N: usize,
        const G: usize,
        const Z: usize,
        const K: usize,
        const S: usize,
        const KZ: usize,
        const SZ: usize,
    > Logic for Grouped<N, G, Z, K, S, KZ, SZ>
{
    #[hdl_gen]
    fn update(&mut self) {
        // e2: AND-reduce each group of G blocks into one group bit.
        self.gacc[0].next = 0.into();
        for j in 0..Z {
            self.gacc[j + 1].next = self.gacc[j].val();
            if self
                .bits
                .val()
                .get_bits::<G>(self.gshift[j].val().index())
                .all()
            {
                self.gacc[j + 1].next = self.gacc[j].val() | self.gone[j].val();
            }
        }
        for zz in Z..(Z + 1) {
            self.gbits.next = self.gacc[zz].val();
        }
        // Round `need` up to whole groups.
        self.need_groups.next = self.need.val() >> self.glog.val();
        if (self.need.val() & self.gmask.val()).any() {
            self.need_groups.next = (self.need.val() >> self.glog.val()) + 1;
        }
        self.core.bits.next = self.gbits.val();
        self.core.need.next = self.need_groups.val().get_bits::<KZ>(0);
        // e3331–e3332: x = j' · (N / Z).
        self.max_run.next = bit_cast::<K, KZ>(self.core.max_run.val()) << self.glog.val();
        self.fit_start.next = bit_cast::<S, SZ>(self.core.fit_start.val()) << self.glog.val();
        self.fit_found.next = self.core.fit_found.val();
        if self.need.val() > self.n_max.val() {
            self.fit_found.next = false;
            self.fit_start.next = 0.into();
        }
    }
}

// -------------------------------------------------------------------------------------------
// Sampled (emb. 6)
// -------------------------------------------------------------------------------------------

/// The default sample set (same rule as `golden_model::run_finder::sample_lengths`): 1..8
/// dense, then the step doubles whenever the length doubles (8, 10, …, 16, 20, …, 128), plus N.
pub fn sample_lengths(n: usize) -> Vec<usize> {
    let mut out = Vec::new();
    let mut l = 1;
    while l <= n {
        out.push(l);
        let log = usize::BITS - 1 - l.leading_zeros();
        l += if log >= 2 { 1 << (log - 2) } else { 1 };
    }
    if *out.last().unwrap() != n {
        out.push(n);
    }
    out
}

/// Sampled finder (emb. 6) with T sampled run lengths (T = `sample_lengths(N).len()`: 8 for
/// N = 8, 12 for 16, 16 for 32, 20 for 64, 24 for 128).
#[derive(LogicBlock)]
pub struct Sampled<const N: usize, const T: usize, const K: usize, const S: usize> {
    /// Free map, N bits, 1 = free.
    pub bits: Signal<In, Bits<N>>,
    /// Blocks requested (rounded up to a sampled length inside).
    pub need: Signal<In, Bits<K>>,
    /// Largest sampled length ≤ the longest free run.
    pub max_run: Signal<Out, Bits<K>>,
    /// A free window of the rounded-up length exists.
    pub fit_found: Signal<Out, Bit>,
    /// Its lowest start (0 if none).
    pub fit_start: Signal<Out, Bits<S>>,
    /// W_t: bit s set ⇔ blocks s .. s + len_t free (f2–f3, sampled).
    win: Vec<Signal<Local, Bits<N>>>,
    /// len_t − len_{t−1}. Derived.
    step: Vec<Constant<Bits<8>>>,
    /// len_t and len_{t−1} (0 for t = 0). Derived.
    slen: Vec<Constant<Bits<K>>>,
    sprev: Vec<Constant<Bits<K>>>,
    idx: Vec<Constant<Bits<S>>>,
    sel: Signal<Local, Bits<N>>,
    low: Signal<Local, Bits<N>>,
}

impl<const N: usize, const T: usize, const K: usize, const S: usize> Default
    for Sampled<N, T, K, S>
{
    fn default() -> Self {
        assert_widths(N, K, S);
        let lens = sample_lengths(N);
        assert_eq!(
            T,
            lens.len(),
            "Sampled: T must be sample_lengths(N).len() = {}",
            lens.len()
        );
        for t in 1..T {
            assert!(
                lens[t] - lens[t - 1] <= lens[t - 1],
                "Sampled: step at {} exceeds the previous length",
                lens[t]
            );
        }
        Sampled {
            bits: Default::default(),
            need: Default::default(),
            max_run: Default::default(),
            fit_found: Default::default(),
            fit_start: Default::default(),
            win: locals(T),
            step: const_vec((0..T).map(|t| {
                if t == 0 {
                    0
                } else {
                    (lens[t] - lens[t - 1]) as u64
                }
            })),
            slen: const_vec(lens.iter().map(|&l| l as u64)),
            sprev: const_vec((0..T).map(|t| if t == 0 { 0 } else { lens[t - 1] as u64 })),
            idx: const_vec(0..N as u64),
            sel: Default::default(),
            low: Default::default(),
        }
    }
}

impl<const N: usize, const T: usize, const K: usize, const S: usize> Logic for Sampled<N, T, K, S> {
    #[hdl_gen]
    fn update(&mut self) {
        // f3: W_t = W_{t−1} & (W_{t−1} >> d_t) extends the window from len_{t−1} to len_t.
        self.win[0].next = self.bits.val();
        for t in 1..T {
            self.win[t].next =
                self.win[t - 1].val() & (self.win[t - 1].val() >> self.step[t].val());
        }
        // f432–f433: the largest sampled length with a free window.
        self.max_run.next = 0.into();
        for t in 0..T {
            if self.win[t].val().any() {
                self.max_run.next = self.slen[t].val();
            }
        }
        // First fit on the smallest sampled length ≥ need.
        self.sel.next = 0.into();
        for t in 0..T {
            if (self.need.val() > self.sprev[t].val()) && (self.need.val() <= self.slen[t].val()) {
                self.sel.next = self.win[t].val();
            }
        }
        self.low.next = self.sel.val() & (!self.sel.val() + 1);
        self.fit_found.next = self.sel.val().any();
        self.fit_start.next = 0.into();
        for j in 0..N {
            if self.low.val().get_bit(j) {
                self.fit_start.next = self.idx[j].val();
            }
        }
        if self.need.val() == 0 {
            self.fit_found.next = true;
            self.fit_start.next = 0.into();
        }
    }
}

// -------------------------------------------------------------------------------------------
// Registered forms (latency 2, II = 1)
// -------------------------------------------------------------------------------------------

macro_rules! registered {
    ($(#[$doc:meta])* $name:ident, $core:ident < $($p:ident),* >, $n:ident, $k:ident, $s:ident) => {
        $(#[$doc])*
        ///
        /// Input register → combinational core → output register: latency 2, II = 1. `reset`
        /// clears both registers (outputs read 0 for two cycles).
        #[derive(LogicBlock, Default)]
        pub struct $name<$(const $p: usize),*> {
            /// Clock.
            pub clock: Signal<In, Clock>,
            /// Synchronous reset, active high.
            pub reset: Signal<In, Bit>,
            /// Free map, 1 = free.
            pub bits: Signal<In, Bits<$n>>,
            /// Blocks requested.
            pub need: Signal<In, Bits<$k>>,
            /// `max_run` of the request presented two cycles ago.
            pub max_run: Signal<Out, Bits<$k>>,
            /// `fit_found` of the request presented two cycles ago.
            pub fit_found: Signal<Out, Bit>,
            /// `fit_start` of the request presented two cycles ago.
            pub fit_start: Signal<Out, Bits<$s>>,
            /// The combinational finder.
            pub core: $core<$($p),*>,
            in_bits: DFF<Bits<$n>>,
            in_need: DFF<Bits<$k>>,
            out_max: DFF<Bits<$k>>,
            out_found: DFF<Bit>,
            out_start: DFF<Bits<$s>>,
        }

        impl<$(const $p: usize),*> Logic for $name<$($p),*> {
            #[hdl_gen]
            fn update(&mut self) {
                dff_setup!(self, clock, in_bits, in_need, out_max, out_found, out_start);
                self.in_bits.d.next = self.bits.val();
                // Stored inverted: a cleared register means "need = all ones" (never fits).
                self.in_need.d.next = !self.need.val();
                self.core.bits.next = self.in_bits.q.val();
                self.core.need.next = !self.in_need.q.val();
                self.out_max.d.next = self.core.max_run.val();
                self.out_found.d.next = self.core.fit_found.val();
                self.out_start.d.next = self.core.fit_start.val();
                if self.reset.val() {
                    self.in_bits.d.next = 0.into();
                    self.in_need.d.next = 0.into();
                    self.out_max.d.next = 0.into();
                    self.out_found.d.next = false;
                    self.out_start.d.next = 0.into();
                }
                self.max_run.next = self.out_max.q.val();
                self.fit_found.next = self.out_found.q.val();
                self.fit_start.next = self.out_start.q.val();
            }
        }
    };
}

registered!(
    /// [`RunTree`] between registers.
    RunTreeReg, RunTree<N, M, K, S>, N, K, S
);
registered!(
    /// [`ShiftAnd`] between registers (the patent's registered exact form).
    ShiftAndReg, ShiftAnd<N, K, S>, N, K, S
);
registered!(
    /// [`Grouped`] between registers.
    GroupedReg, Grouped<N, G, Z, K, S, KZ, SZ>, N, K, S
);
registered!(
    /// [`Sampled`] between registers.
    SampledReg, Sampled<N, T, K, S>, N, K, S
);

// -------------------------------------------------------------------------------------------
// Named configurations (the widths spelled out once)
// -------------------------------------------------------------------------------------------

/// Tree, N = 16.
pub type Tree16 = RunTree<16, 32, 5, 4>;
/// Tree, N = 32.
pub type Tree32 = RunTree<32, 64, 6, 5>;
/// Tree, N = 64.
pub type Tree64 = RunTree<64, 128, 7, 6>;
/// Tree, N = 128.
pub type Tree128 = RunTree<128, 256, 8, 7>;
/// Exact shift-AND, N = 16.
pub type Exact16 = ShiftAnd<16, 5, 4>;
/// Exact shift-AND, N = 32.
pub type Exact32 = ShiftAnd<32, 6, 5>;
/// Exact shift-AND, N = 64.
pub type Exact64 = ShiftAnd<64, 7, 6>;
/// Exact shift-AND, N = 128 (does not fit the HX8K).
pub type Exact128 = ShiftAnd<128, 8, 7>;
/// Grouped, g = 4, N = 16.
pub type Grouped16 = Grouped<16, 4, 4, 5, 4, 3, 2>;
/// Grouped, g = 4, N = 32.
pub type Grouped32 = Grouped<32, 4, 8, 6, 5, 4, 3>;
/// Grouped, g = 4, N = 64.
pub type Grouped64 = Grouped<64, 4, 16, 7, 6, 5, 4>;
/// Grouped, g = 4, N = 128 (the patent's example, \[0151\]).
pub type Grouped128 = Grouped<128, 4, 32, 8, 7, 6, 5>;
/// Sampled, default lengths, N = 16.
pub type Sampled16 = Sampled<16, 12, 5, 4>;
/// Sampled, default lengths, N = 32.
pub type Sampled32 = Sampled<32, 16, 6, 5>;
/// Sampled, default lengths, N = 64.
pub type Sampled64 = Sampled<64, 20, 7, 6>;
/// Sampled, default lengths, N = 128.
pub type Sampled128 = Sampled<128, 24, 8, 7>;
