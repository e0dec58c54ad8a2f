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
//!   leaves are groups of 4 blocks whose need-independent fields come from 16-entry truth
//!   tables (one LUT4 per bit). Every node keeps `all` (segment all free), `plen`/`slen` (free
//!   prefix/suffix length), `best`, `found` (a window of `need` blocks lies inside) and **one
//!   position field** `pos` = `found ? first fit : start of the free suffix`, relative to the
//!   segment (true lengths in K bits; the unused high bits are constant, so synthesis trims
//!   every adder and compare). A run is measured once, where it crosses the middle of the
//!   smallest node containing it: `cross = slen(L) + plen(R)`;
//!   `best = max(best(L), best(R), cross)`. First fit is a 2:1 mux per node:
//!   `pos = sel ? pos(L) : len(L) + pos(R)` with `sel = found(L) | cross ≥ need |
//!   (!found(R) & all(R))`: L's own fit, else the crossing run (which starts where L's free
//!   suffix starts, i.e. at `pos(L)` when L has no fit), else R; with no fit anywhere the last
//!   term carries the suffix start up (it lies in L only if R is all free).
//!   `found = found(L) | cross ≥ need | found(R)`. For N ≥ 16 the root's `best` is one flat max
//!   over its 4 grandchildren's `best`, its 2 children's and its own `cross` (all 21 pairs
//!   compared side by side, one-hot select): one select level less on the longest path of the
//!   one-cycle form. N is a power of two ≥ 8 (pad a map with used blocks otherwise).
//! - [`RunTreePipe`]: the same tree with every internal level registered: **latency =
//!   log2(N) − 2** (2 at N = 16, 3 at 32, 5 at 128), II = 1. The leaf tables and the first
//!   internal level work on the inputs directly, so drive `bits`/`need` from registers (a
//!   dispatcher's free maps are state registers). A `valid` bit travels with each request and
//!   masks the outputs after `reset`, so the data registers need no reset. Per node it stores
//!   only `plen`, the low bits of `slen` and `best` (their top bit is `plen`'s, i.e. `all`),
//!   `found` and `pos`, and every register input is an AND/OR of its candidates (so no field
//!   bit becomes a synchronous set/reset flip-flop that would need a logic cell of its own).
//!   [`RunTreePipe::with_root_register`]`(false)` leaves the root level unregistered (outputs
//!   combinational from the level below, the mirror image of the leaves working on the inputs):
//!   **latency log2(N) − 3** (4 at N = 128), 17 flip-flops fewer; drive its outputs into
//!   registers.
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
//! `best = 3`, window of 3 at relative 0, so `pos = 0`; L has no window, so `pos` = start of its
//! free suffix = 4, i.e. empty). The root: `cross = slen(L) + plen(R) = 0 + 3 = 3 ≥ 3` and L has
//! no fit, so `sel = 1` and `fit_start = pos(L) = 4` (the suffix of L is empty, so the crossing
//! run starts at the middle, block 4); `best = max(2, 3, 3) = 3`. Grouped, g = 4: neither group is all free →
//! `max_run = 0`, `fit_found = 0` (conservative). Sampled (every length 1..8 is sampled at
//! N = 8): exact.
//!
//! ## Cost (iCE40 HX8K CB132)
//! Board form, [`RunTreePipe`] at N = 128 with the root unregistered (latency 4), the unit
//! `run_finder_tree_pipe_128`: in the `synth report` harness (every port from a scan register,
//! every output registered; `cargo run --release -p synth -- report --only
//! run_finder_tree_pipe_128 --seeds 1,2,3`, the README row) **2517 LCs, 88.8 MHz median** of
//! seeds 1–3 (84.8, 91.1, 88.8); in the finder table's lighter serial-in shift-register harness
//! 1920 LCs, 102.3 MHz (seed 1). Every variant and size: the table `docs/run_finder_table.md`,
//! written by `cargo run --release -p synth -- finder-table --out docs/run_finder_table.md`
//! (the only copy; design notes and what was tried: `docs/run_finder.md`).

use rust_hdl::prelude::*;

pub mod time_shared;
mod tree_pipe;

pub use tree_pipe::RunTreePipe;

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

/// One table per value w = 0..=4: bit v set iff `f(v) == w`.
fn leaf_tables(f: impl Fn(usize) -> usize) -> Vec<Constant<Bits<16>>> {
    (0..5).map(|w| table16(|v| f(v) == w)).collect()
}
/// Leaf first-fit tables: `t[4k + p]` has bit v set iff the lowest window of k free blocks in
/// group value v starts at offset p (k = 1..=3; k = 0 and k = 4 always start at 0).
fn fit_tables() -> Vec<Constant<Bits<16>>> {
    (0..16)
        .map(|i| table16(|v| (1..4).contains(&(i / 4)) && leaf_fit(v, i / 4) == Some(i % 4)))
        .collect()
}

/// Exact log-depth segment-tree finder (combinational).
///
/// Node layout (children always before parents, so the generated `always` block never reads a
/// value before writing it): the leaves are G = N/4 groups of 4 blocks (nodes 0..G, group g =
/// blocks 4g..4g+4), whose need-independent fields come from 16-entry truth tables (one LUT4
/// per bit); internal node G + j has children 2j and 2j + 1; the root is node 2G − 2. `M` = 2N
/// (derived, kept for the type's shape). Lengths are true lengths held in K bits (the unused
/// high bits are constant 0, so synthesis trims every adder and comparator). Per node: `all`
/// (segment all free), `plen`/`slen` (free prefix/suffix), `best`, `found` and **one position
/// field** `pos` = `found ? first fit : start of the free suffix`, relative to the segment. A
/// run is measured once, where it crosses the middle of the smallest node containing it
/// (`cross = slen(L) + plen(R)`), and first fit is one 2:1 mux per node:
/// `pos = sel ? pos(L) : half + pos(R)` with
/// `sel = found(L) | cross ≥ need | (!found(R) & all(R))` (the last term carries the suffix
/// start up when nothing fits). N is a power of two ≥ 8.
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
    /// `need` mod 4 (selects the leaf window tables).
    need_lo: Signal<Local, Bits<2>>,
    /// Per leaf group: its 4 blocks, and the offset of its lowest window of `need` blocks.
    grp: Vec<Signal<Local, Bits<4>>>,
    leaf_fit: Vec<Signal<Local, Bits<K>>>,
    /// Per leaf group: start of its free suffix (4 − slen).
    leaf_suf: Vec<Signal<Local, Bits<K>>>,
    /// Constants 0..=5 (K bits) and 0..=3 (2 bits), group offsets 4g. Derived.
    wconst: Vec<Constant<Bits<K>>>,
    kconst: Vec<Constant<Bits<2>>>,
    goff: Vec<Constant<Bits<8>>>,
    /// Leaf truth tables over the 16 group values (bit v of `t_plen[w]` is set iff group value v
    /// has a free prefix of w blocks; likewise suffix, best, suffix start; `t_fit`: see
    /// [`fit_tables`]). Derived.
    t_plen: Vec<Constant<Bits<16>>>,
    t_slen: Vec<Constant<Bits<16>>>,
    t_best: Vec<Constant<Bits<16>>>,
    t_sufrel: Vec<Constant<Bits<16>>>,
    t_fit: Vec<Constant<Bits<16>>>,
    /// Per internal node j: its children's length 2^(l−1). Derived.
    half: Vec<Constant<Bits<K>>>,
    /// Per node: segment all free.
    all: Vec<Signal<Local, Bit>>,
    /// Per node: free prefix length.
    plen: Vec<Signal<Local, Bits<K>>>,
    /// Per node: free suffix length.
    slen: Vec<Signal<Local, Bits<K>>>,
    /// Per node: longest free run inside the segment.
    best: Vec<Signal<Local, Bits<K>>>,
    /// Per node: a window of `need` free blocks lies inside the segment.
    found: Vec<Signal<Local, Bit>>,
    /// Per node: lowest such window start if `found`, else start of the free suffix (relative).
    pos: Vec<Signal<Local, Bits<K>>>,
    /// Per internal node: the crossing run, `cross ≥ need`, the position select, and the two
    /// selects of the max (cross beats both children; right beats left).
    cross: Vec<Signal<Local, Bits<K>>>,
    ge: Vec<Signal<Local, Bit>>,
    sel: Vec<Signal<Local, Bit>>,
    x_wins: Vec<Signal<Local, Bit>>,
    r_wins: Vec<Signal<Local, Bit>>,
    /// `x_wins` and `r_wins` replicated to K bits.
    m_x: Vec<Signal<Local, Bits<K>>>,
    m_r: Vec<Signal<Local, Bits<K>>>,
    /// All ones (K bits). Derived.
    ones: Constant<Bits<K>>,
    /// `found` at the root replicated, and the root position masked with it.
    m_fit: Signal<Local, Bits<K>>,
    fit_pos: Signal<Local, Bits<K>>,
    /// Flat max at the root (N ≥ 16): its 7 candidates, `beats[7a + b]` (a ≥ b, or a > b if b
    /// comes first; true for a = b), the one-hot winner and its replicated mask.
    cand: Vec<Signal<Local, Bits<K>>>,
    beats: Vec<Signal<Local, Bit>>,
    wins: Vec<Signal<Local, Bit>>,
    m_wins: Vec<Signal<Local, Bits<K>>>,
    /// `tie_wins[7a + b]`: a wins a tie against b (a ≤ b). Derived.
    tie_wins: Vec<Constant<Bit>>,
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
            need_lo: Default::default(),
            grp: locals(N / 4),
            leaf_fit: locals(N / 4),
            leaf_suf: locals(N / 4),
            wconst: const_vec(0..6),
            kconst: const_vec(0..4),
            goff: const_vec((0..N as u64 / 4).map(|g| 4 * g)),
            t_plen: leaf_tables(|v| leaf_fields(v).0),
            t_slen: leaf_tables(|v| leaf_fields(v).1),
            t_best: leaf_tables(|v| leaf_fields(v).2),
            t_sufrel: leaf_tables(|v| leaf_fields(v).3),
            t_fit: fit_tables(),
            half: const_vec(levels.iter().map(|&l| 1u64 << (l - 1))),
            all: locals(N / 2 - 1),
            plen: locals(N / 2 - 1),
            slen: locals(N / 2 - 1),
            best: locals(N / 2 - 1),
            found: locals(N / 2 - 1),
            pos: locals(N / 2 - 1),
            cross: locals(N / 4 - 1),
            ge: locals(N / 4 - 1),
            sel: locals(N / 4 - 1),
            x_wins: locals(N / 4 - 1),
            r_wins: locals(N / 4 - 1),
            m_x: locals(N / 4 - 1),
            m_r: locals(N / 4 - 1),
            ones: Constant::new(((1u64 << K) - 1).to_bits()),
            m_fit: Default::default(),
            fit_pos: Default::default(),
            // (N = 8 has no flat max: its root's children are leaves)
            cand: locals(if N >= 16 { 7 } else { 0 }),
            beats: locals(if N >= 16 { 49 } else { 0 }),
            wins: locals(if N >= 16 { 7 } else { 0 }),
            m_wins: locals(if N >= 16 { 7 } else { 0 }),
            tie_wins: (0..if N >= 16 { 49 } else { 0 })
                .map(|i| Constant::new(i / 7 <= i % 7))
                .collect(),
        }
    }
}

impl<const N: usize, const M: usize, const K: usize, const S: usize> Logic for RunTree<N, M, K, S> {
    #[hdl_gen]
    fn update(&mut self) {
        self.need_lo.next = self.need.val().get_bits::<2>(0);
        // Leaves: groups of 4 blocks (tree levels 1 and 2 folded into truth tables).
        for g in 0..(N / 4) {
            self.grp[g].next = self.bits.val().get_bits::<4>(self.goff[g].val().index());
            self.all[g].next = self.grp[g].val().all();
            self.plen[g].next = 0.into();
            self.slen[g].next = 0.into();
            self.best[g].next = 0.into();
            self.leaf_suf[g].next = 0.into();
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
                    self.leaf_suf[g].next = self.wconst[w].val();
                }
            }
            // Lowest window of `need` blocks: a 16-entry table per need mod 4 (needs 0 and 4
            // start at 0; larger needs never fit a group, `found` says so).
            self.leaf_fit[g].next = 0.into();
            for k in 1..4 {
                for p in 1..4 {
                    if (self.need_lo.val() == self.kconst[k].val())
                        & self.t_fit[4 * k + p]
                            .val()
                            .get_bit(self.grp[g].val().index())
                    {
                        self.leaf_fit[g].next = self.wconst[p].val();
                    }
                }
            }
            self.found[g].next = self.best[g].val() >= self.need.val();
            self.pos[g].next = self.leaf_suf[g].val();
            if self.found[g].val() {
                self.pos[g].next = self.leaf_fit[g].val();
            }
        }
        // Internal nodes (`nn` is a one-value loop so that the offset G is known to the Verilog
        // generator, which evaluates index expressions from loop variables only).
        for nn in (N / 4)..(N / 4 + 1) {
            for j in 0..(N / 4 - 1) {
                // Node nn + j: children 2j (low half L) and 2j + 1 (high half R).
                self.all[nn + j].next = self.all[2 * j].val() & self.all[2 * j + 1].val();
                self.plen[nn + j].next = self.plen[2 * j].val();
                if self.all[2 * j].val() {
                    self.plen[nn + j].next = self.plen[2 * j + 1].val() + self.half[j].val();
                }
                self.slen[nn + j].next = self.slen[2 * j + 1].val();
                if self.all[2 * j + 1].val() {
                    self.slen[nn + j].next = self.slen[2 * j].val() + self.half[j].val();
                }
                // The run crossing the middle, measured once here.
                self.cross[j].next = self.slen[2 * j].val() + self.plen[2 * j + 1].val();
                // best = max(best(L), best(R), cross): three compares side by side, one select.
                self.x_wins[j].next = (self.cross[j].val() > self.best[2 * j].val())
                    & (self.cross[j].val() > self.best[2 * j + 1].val());
                self.r_wins[j].next = self.best[2 * j + 1].val() > self.best[2 * j].val();
                // (as AND/OR of the candidates: a multiplexer with a constant leg would turn the
                // root's top bit into a synchronous-reset flip-flop in the register it feeds)
                self.m_x[j].next = 0.into();
                if self.x_wins[j].val() {
                    self.m_x[j].next = self.ones.val();
                }
                self.m_r[j].next = 0.into();
                if self.r_wins[j].val() {
                    self.m_r[j].next = self.ones.val();
                }
                self.best[nn + j].next = (self.m_x[j].val() & self.cross[j].val())
                    | (!self.m_x[j].val()
                        & ((self.m_r[j].val() & self.best[2 * j + 1].val())
                            | (!self.m_r[j].val() & self.best[2 * j].val())));
                // First fit: low half, else the crossing run (it starts where L's free suffix
                // does), else the high half; with no fit, `pos` carries the suffix start.
                self.ge[j].next = self.cross[j].val() >= self.need.val();
                self.found[nn + j].next =
                    self.found[2 * j].val() | self.ge[j].val() | self.found[2 * j + 1].val();
                self.sel[j].next = self.found[2 * j].val()
                    | self.ge[j].val()
                    | (!self.found[2 * j + 1].val() & self.all[2 * j + 1].val());
                self.pos[nn + j].next = self.pos[2 * j + 1].val() + self.half[j].val();
                if self.sel[j].val() {
                    self.pos[nn + j].next = self.pos[2 * j].val();
                }
            }
            // N ≥ 16: the root's longest run as one flat max over its grandchildren's bests and
            // its children's and its own crossing runs (7 candidates, all pairs compared side
            // by side): one select level on the longest path instead of two.
            for _flat in 0..(1 - 8 / N) {
                self.cand[0].next = self.best[2 * nn - 8].val();
                self.cand[1].next = self.best[2 * nn - 7].val();
                self.cand[2].next = self.cross[nn - 4].val();
                self.cand[3].next = self.best[2 * nn - 6].val();
                self.cand[4].next = self.best[2 * nn - 5].val();
                self.cand[5].next = self.cross[nn - 3].val();
                self.cand[6].next = self.cross[nn - 2].val();
                for a in 0..7 {
                    for b in 0..7 {
                        // candidate a beats b (ties go to the lower index)
                        self.beats[7 * a + b].next = self.cand[a].val() > self.cand[b].val();
                        if self.tie_wins[7 * a + b].val() {
                            self.beats[7 * a + b].next = self.cand[a].val() >= self.cand[b].val();
                        }
                    }
                    self.wins[a].next = self.beats[7 * a].val()
                        & self.beats[7 * a + 1].val()
                        & self.beats[7 * a + 2].val()
                        & self.beats[7 * a + 3].val()
                        & self.beats[7 * a + 4].val()
                        & self.beats[7 * a + 5].val()
                        & self.beats[7 * a + 6].val();
                    self.m_wins[a].next = 0.into();
                    if self.wins[a].val() {
                        self.m_wins[a].next = self.ones.val();
                    }
                }
                self.best[2 * nn - 2].next = (self.m_wins[0].val() & self.cand[0].val())
                    | (self.m_wins[1].val() & self.cand[1].val())
                    | (self.m_wins[2].val() & self.cand[2].val())
                    | (self.m_wins[3].val() & self.cand[3].val())
                    | (self.m_wins[4].val() & self.cand[4].val())
                    | (self.m_wins[5].val() & self.cand[5].val())
                    | (self.m_wins[6].val() & self.cand[6].val());
            }
            // Root = node 2G − 2.
            self.max_run.next = self.best[2 * nn - 2].val();
            self.fit_found.next = self.found[2 * nn - 2].val();
            // (AND with `found` replicated rather than a multiplexer with a constant leg, so that
            // a register fed by this output stays a plain flip-flop)
            self.m_fit.next = 0.into();
            if self.found[2 * nn - 2].val() {
                self.m_fit.next = self.ones.val();
            }
            self.fit_pos.next = self.pos[2 * nn - 2].val() & self.m_fit.val();
            self.fit_start.next = self.fit_pos.val().get_bits::<S>(0);
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
