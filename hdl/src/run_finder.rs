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
//! - [`RunTree`] (**tree**, beyond the patent, exact): a binary segment tree over the map. Every
//!   node keeps `seg_all` (segment all free), `pre_end` (end of its free prefix) and `suf_start`
//!   (start of its free suffix) as *positions*, so combining two children is a 2:1 mux, never an
//!   add. A run is measured once, where it crosses the middle of the smallest node containing it:
//!   `cross = pre_end(R) − suf_start(L)`; `best = max(best(L), best(R), cross)`. First fit keeps
//!   one position per node: `fit = found(L) ? fit(L) : cross ≥ need ? suf_start(L) : fit(R)`.
//!   Depth log2 N. N must be a power of two (pad a map with used blocks otherwise).
//! - [`RunTreePipe`]: the same tree with every level registered: **latency = log2(N) + 1**
//!   (input register + one tree level per stage), II = 1.
//! - [`ShiftAnd`] (**exact**, emb. 4 steps d1–d4): `SA_0 = bits`, `SA_i = SA_{i−1} & (bits >> i)`
//!   (the logical shift fills the vacated top bits with "used"); `SAR_i = |SA_i` is a thermometer
//!   code and `max_run = i' + 1` for the highest `SAR_{i'} = 1` (d432–d433). First fit selects
//!   `SA_{need−1}` (bit *s* set ⇔ blocks *s..s+need* free) and takes its lowest set bit
//!   (`x & −x`). Area grows as N².
//! - [`Grouped`] (emb. 5): AND-reduce groups of g = N/Z blocks (g a power of two), run
//!   [`ShiftAnd`] on the Z group bits, scale by g. Conservative; starts are group aligned;
//!   `need` is rounded up to whole groups. About (N/g)² area.
//! - [`Sampled`] (emb. 6): windows of the sampled lengths only (`golden_model::run_finder::
//!   sample_lengths`: 1..8 dense, then steps doubling), each built from the previous one by
//!   `W_t = W_{t−1} & (W_{t−1} >> d_t)` (valid because every step `d_t` ≤ the previous length).
//!   Conservative: `max_run` rounds down to a sampled length, `need` rounds up to one.
//! - `*Reg` wrappers: the combinational form between an input and an output register (the
//!   patent's registered form); **latency 2**, II = 1. This is also how combinational forms are
//!   timed in the synth table.
//! - [`time_shared`] (emb. 7): one E-bit shift-AND finder with boundary masks serving several
//!   bitmaps over a cycle schedule (patent example: 128 in cycle 0; 64 ‖ 48 in cycle 1).
//!
//! ## Worked example (N = 8)
//! `bits = 0111_0110` (blocks 1–2 and 4–6 free), `need = 3` → `max_run = 3`, `fit_found = 1`,
//! `fit_start = 4`. In the tree, the run 4–6 is measured at the node covering blocks 4–7 (it
//! crosses the middle between 5 and 6: `suf_start(4–5) = 4`, `pre_end(6–7) = 7`, `cross = 3`), the
//! run 1–2 at the node covering 0–3 (`cross = 3 − 1 = 2`); the root picks `fit = 4` because the
//! low half (0–3) has no window of 3 and the crossing run at the root (blocks 3..4) is empty.
//! Grouped, g = 4: group 0 = `0110`, group 1 = `0111`, neither all free → `max_run = 0`,
//! `fit_found = 0` (conservative). Sampled (lengths 1..8 are all sampled at N = 8): exact.
//!
//! ## Cost (iCE40 HX8K; `synth finder-table` measures the full table)
//! Tree: O(N log N) LUTs (one subtract and two compares per node). ShiftAnd: O(N²) (the patent's
//! 64-bit form is ~2400 LCs at ~31 MHz; 128 bits do not fit the HX8K). Grouped: (N/g)².

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
    assert!((1..=128).contains(&n), "run_finder: N = {n} must be in 1..=128");
    assert_eq!(k, clog2(n + 1), "run_finder: K must be clog2(N + 1) for N = {n}");
    assert_eq!(s, clog2(n), "run_finder: S must be clog2(N) for N = {n}");
}

// -------------------------------------------------------------------------------------------
// Tree (exact, log depth)
// -------------------------------------------------------------------------------------------

/// Exact log-depth segment-tree finder (combinational).
///
/// Node layout (children always before parents, so the generated `always` block reads nothing
/// before writing it): leaves are nodes 0..N (leaf j = block j); internal node N + j has children
/// 2j and 2j + 1; the root is node 2N − 2. `M` = 2N (array length). Derived, do **not** choose.
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
    /// Per leaf j: positions j and j + 1. Derived.
    leaf_lo: Vec<Constant<Bits<K>>>,
    leaf_hi: Vec<Constant<Bits<K>>>,
    /// Constant 1 (K bits).
    one: Constant<Bits<K>>,
    /// Per node: segment all free.
    seg_all: Vec<Signal<Local, Bit>>,
    /// Per node: position just after its free prefix.
    pre_end: Vec<Signal<Local, Bits<K>>>,
    /// Per node: position where its free suffix starts.
    suf_start: Vec<Signal<Local, Bits<K>>>,
    /// Per node: length of the free run crossing its middle.
    cross: Vec<Signal<Local, Bits<K>>>,
    /// Per node: max of the children's best runs.
    kid_best: Vec<Signal<Local, Bits<K>>>,
    /// Per node: longest free run inside the segment.
    best: Vec<Signal<Local, Bits<K>>>,
    /// Per node: a window of `need` free blocks lies inside the segment.
    found: Vec<Signal<Local, Bit>>,
    /// Per node: lowest such window start.
    fit: Vec<Signal<Local, Bits<K>>>,
}

fn locals<T: Default>(n: usize) -> Vec<T> {
    (0..n).map(|_| T::default()).collect()
}

impl<const N: usize, const M: usize, const K: usize, const S: usize> Default for RunTree<N, M, K, S> {
    fn default() -> Self {
        assert_widths(N, K, S);
        assert!(N.is_power_of_two() && N >= 2, "RunTree: N = {N} must be a power of two ≥ 2");
        assert_eq!(M, 2 * N, "RunTree: M must be 2N");
        RunTree {
            bits: Default::default(),
            need: Default::default(),
            max_run: Default::default(),
            fit_found: Default::default(),
            fit_start: Default::default(),
            leaf_lo: const_vec(0..N as u64),
            leaf_hi: const_vec(1..N as u64 + 1),
            one: Constant::new(1u64.to_bits()),
            seg_all: locals(M - 1),
            pre_end: locals(M - 1),
            suf_start: locals(M - 1),
            cross: locals(M - 1),
            kid_best: locals(M - 1),
            best: locals(M - 1),
            found: locals(M - 1),
            fit: locals(M - 1),
        }
    }
}

impl<const N: usize, const M: usize, const K: usize, const S: usize> Logic for RunTree<N, M, K, S> {
    #[hdl_gen]
    fn update(&mut self) {
        // Leaves: one block each.
        for j in 0..N {
            self.seg_all[j].next = self.bits.val().get_bit(j);
            self.pre_end[j].next = self.leaf_lo[j].val();
            self.suf_start[j].next = self.leaf_hi[j].val();
            self.cross[j].next = 0.into();
            self.kid_best[j].next = 0.into();
            self.best[j].next = 0.into();
            self.found[j].next = false;
            self.fit[j].next = self.leaf_lo[j].val();
            if self.bits.val().get_bit(j) {
                self.pre_end[j].next = self.leaf_hi[j].val();
                self.suf_start[j].next = self.leaf_lo[j].val();
                self.best[j].next = self.one.val();
                self.found[j].next = self.need.val() <= self.one.val();
            }
        }
        // Internal node nn + j combines children 2j (low half) and 2j + 1 (high half).
        // (`nn` is a one-value loop so that the node offset N is known to the Verilog generator.)
        for nn in N..(N + 1) {
            for j in 0..(N - 1) {
                self.seg_all[nn + j].next = self.seg_all[2 * j].val() & self.seg_all[2 * j + 1].val();
                self.pre_end[nn + j].next = self.pre_end[2 * j].val();
                if self.seg_all[2 * j].val() {
                    self.pre_end[nn + j].next = self.pre_end[2 * j + 1].val();
                }
                self.suf_start[nn + j].next = self.suf_start[2 * j + 1].val();
                if self.seg_all[2 * j + 1].val() {
                    self.suf_start[nn + j].next = self.suf_start[2 * j].val();
                }
                // The run crossing the middle, measured once here.
                self.cross[nn + j].next = self.pre_end[2 * j + 1].val() - self.suf_start[2 * j].val();
                self.kid_best[nn + j].next = self.best[2 * j].val();
                if self.best[2 * j + 1].val() > self.best[2 * j].val() {
                    self.kid_best[nn + j].next = self.best[2 * j + 1].val();
                }
                self.best[nn + j].next = self.kid_best[nn + j].val();
                if self.cross[nn + j].val() > self.kid_best[nn + j].val() {
                    self.best[nn + j].next = self.cross[nn + j].val();
                }
                // First fit: low child, else the crossing run, else the high child.
                self.found[nn + j].next = true;
                self.fit[nn + j].next = self.fit[2 * j + 1].val();
                if self.found[2 * j].val() {
                    self.fit[nn + j].next = self.fit[2 * j].val();
                } else if self.cross[nn + j].val() >= self.need.val() {
                    self.fit[nn + j].next = self.suf_start[2 * j].val();
                } else {
                    self.found[nn + j].next = self.found[2 * j + 1].val();
                }
            }
            // Root = node 2N − 2.
            self.max_run.next = self.best[2 * nn - 2].val();
            self.fit_found.next = self.found[2 * nn - 2].val();
            self.fit_start.next = self.fit[2 * nn - 2].val().get_bits::<S>(0);
            if !self.found[2 * nn - 2].val() {
                self.fit_start.next = 0.into();
            }
        }
        if self.need.val() == 0 {
            self.fit_found.next = true;
            self.fit_start.next = 0.into();
        }
    }
}
