//! [`RunTreePipe`]: the tree of [`RunTree`] with every internal level registered (moved out of
//! `run_finder.rs` unchanged; the family's contract and cost: the parent module's doc).

use rust_hdl::prelude::*;

#[cfg(doc)]
use super::RunTree;
use super::{check_tree, const_vec, fit_tables, internal_levels, leaf_fields, leaf_tables, locals};

/// The tree of [`RunTree`] with every internal level registered: latency log2(N) − 2 (one stage
/// per tree level above the 4-block leaf groups: 5 at N = 128), II = 1.
///
/// The leaf groups' tables and the first internal level work on the inputs directly (drive them
/// from registers: the free maps of a dispatcher are state registers); every internal level
/// registers its fields, the `need` they were computed with and a `valid` bit, so every stage
/// works on its own request. Area notes (iCE40: a logic cell is a LUT4 plus a flip-flop, and a
/// flip-flop only shares the cell if the LUT feeding it has no other user):
/// - per node only `plen` (whose top bit is `all`), the low bits of `slen` and `best` (their top
///   bit is `all` too), `found` and the one position field `pos` are stored;
/// - every register input is written as AND/OR of its two candidates (no multiplexer with a
///   constant leg), so synthesis never turns a field bit into a synchronous set/reset flip-flop
///   fed straight from the previous stage (which would cost a cell of its own);
/// - the data registers have no reset; a `valid` bit travels with every request instead, is
///   cleared by `reset` (and at power-up), and masks the outputs while the pipeline refills:
///   after `reset` the outputs read 0 for `latency` cycles. The per-node copies of `need` and
///   `valid` are identical within a level; synthesis merges them into one per stage.
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
    need_lo: Signal<Local, Bits<2>>,
    grp: Vec<Signal<Local, Bits<4>>>,
    leaf_fit: Vec<Signal<Local, Bits<K>>>,
    /// Per leaf group: start of its free suffix (4 − slen).
    leaf_suf: Vec<Signal<Local, Bits<K>>>,
    /// Constants 0..=5 (K bits) and 0..=3 (2 bits), all ones, group offsets 4g. Derived.
    wconst: Vec<Constant<Bits<K>>>,
    kconst: Vec<Constant<Bits<2>>>,
    ones: Constant<Bits<K>>,
    goff: Vec<Constant<Bits<8>>>,
    /// Leaf truth tables (as in [`RunTree`]). Derived.
    t_plen: Vec<Constant<Bits<16>>>,
    t_slen: Vec<Constant<Bits<16>>>,
    t_best: Vec<Constant<Bits<16>>>,
    t_sufrel: Vec<Constant<Bits<16>>>,
    t_fit: Vec<Constant<Bits<16>>>,
    /// Per internal node j (level l): 2^(l−1), 2^l, 2^l − 1 (low-bit mask), 2^(l+1) − 1. Derived.
    half: Vec<Constant<Bits<K>>>,
    full: Vec<Constant<Bits<K>>>,
    lowm: Vec<Constant<Bits<K>>>,
    lmask: Vec<Constant<Bits<K>>>,
    /// Per internal node: not the root. Derived.
    not_root: Vec<Constant<Bit>>,
    /// Per node (leaves: from the inputs; internal: from its registers): the fields of
    /// [`RunTree`], the request they belong to, and whether it is valid.
    all: Vec<Signal<Local, Bit>>,
    plen: Vec<Signal<Local, Bits<K>>>,
    slen: Vec<Signal<Local, Bits<K>>>,
    best: Vec<Signal<Local, Bits<K>>>,
    found: Vec<Signal<Local, Bit>>,
    pos: Vec<Signal<Local, Bits<K>>>,
    need_at: Vec<Signal<Local, Bits<K>>>,
    valid_at: Vec<Signal<Local, Bit>>,
    /// Per internal node: crossing run, `cross ≥ need`, selects, and each select replicated to
    /// K bits (the AND/OR multiplexers of the register inputs).
    cross: Vec<Signal<Local, Bits<K>>>,
    ge: Vec<Signal<Local, Bit>>,
    sel: Vec<Signal<Local, Bit>>,
    x_wins: Vec<Signal<Local, Bit>>,
    r_wins: Vec<Signal<Local, Bit>>,
    m_all_l: Vec<Signal<Local, Bits<K>>>,
    m_all_r: Vec<Signal<Local, Bits<K>>>,
    m_sel: Vec<Signal<Local, Bits<K>>>,
    m_x: Vec<Signal<Local, Bits<K>>>,
    /// Per internal node: max(best(L), best(R)).
    m_best: Vec<Signal<Local, Bits<K>>>,
    /// Output masks: `valid` replicated, `valid & found` replicated.
    m_valid: Signal<Local, Bits<K>>,
    m_fit: Signal<Local, Bits<K>>,
    fit_pos: Signal<Local, Bits<K>>,
    /// The root level is registered (default; latency log2(N) − 2) or not (latency
    /// log2(N) − 3, outputs combinational from the level below: see
    /// [`RunTreePipe::with_root_register`]).
    root_reg: Constant<Bit>,
    /// Level registers per internal node: `plen` (full), `slen` and `best` (low l bits; the top
    /// bit is `all`), `found`, `pos`, the request's `need` and `valid`.
    r_plen: Vec<DFF<Bits<K>>>,
    r_slen: Vec<DFF<Bits<K>>>,
    r_best: Vec<DFF<Bits<K>>>,
    r_found: Vec<DFF<Bit>>,
    r_pos: Vec<DFF<Bits<K>>>,
    r_need: Vec<DFF<Bits<K>>>,
    r_valid: Vec<DFF<Bit>>,
}

impl<const N: usize, const M: usize, const K: usize, const S: usize> Default
    for RunTreePipe<N, M, K, S>
{
    fn default() -> Self {
        check_tree(N, M, K, S);
        let levels = internal_levels(N / 4);
        let kmask = (1u64 << K) - 1;
        RunTreePipe {
            clock: Default::default(),
            reset: Default::default(),
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
            ones: Constant::new(kmask.to_bits()),
            goff: const_vec((0..N as u64 / 4).map(|g| 4 * g)),
            t_plen: leaf_tables(|v| leaf_fields(v).0),
            t_slen: leaf_tables(|v| leaf_fields(v).1),
            t_best: leaf_tables(|v| leaf_fields(v).2),
            t_sufrel: leaf_tables(|v| leaf_fields(v).3),
            t_fit: fit_tables(),
            half: const_vec(levels.iter().map(|&l| 1u64 << (l - 1))),
            full: const_vec(levels.iter().map(|&l| 1u64 << l)),
            lowm: const_vec(levels.iter().map(|&l| (1u64 << l) - 1)),
            lmask: const_vec(levels.iter().map(|&l| ((1u64 << (l + 1)) - 1) & kmask)),
            not_root: (0..N / 4 - 1)
                .map(|j| Constant::new(j + 2 != N / 4))
                .collect(),
            all: locals(N / 2 - 1),
            plen: locals(N / 2 - 1),
            slen: locals(N / 2 - 1),
            best: locals(N / 2 - 1),
            found: locals(N / 2 - 1),
            pos: locals(N / 2 - 1),
            need_at: locals(N / 2 - 1),
            valid_at: locals(N / 2 - 1),
            cross: locals(N / 4 - 1),
            ge: locals(N / 4 - 1),
            sel: locals(N / 4 - 1),
            x_wins: locals(N / 4 - 1),
            r_wins: locals(N / 4 - 1),
            m_all_l: locals(N / 4 - 1),
            m_all_r: locals(N / 4 - 1),
            m_sel: locals(N / 4 - 1),
            m_x: locals(N / 4 - 1),
            m_best: locals(N / 4 - 1),
            m_valid: Default::default(),
            m_fit: Default::default(),
            fit_pos: Default::default(),
            root_reg: Constant::new(true),
            r_plen: locals(N / 4 - 1),
            r_slen: locals(N / 4 - 1),
            r_best: locals(N / 4 - 1),
            r_found: locals(N / 4 - 1),
            r_pos: locals(N / 4 - 1),
            r_need: locals(N / 4 - 1),
            r_valid: locals(N / 4 - 1),
        }
    }
}

impl<const N: usize, const M: usize, const K: usize, const S: usize> RunTreePipe<N, M, K, S> {
    /// `registered = false` leaves the root level unregistered: the outputs are combinational
    /// from the level below (like the leaves work on the inputs), **latency log2(N) − 3** (4 at
    /// N = 128), one register stage and its flip-flops fewer. Drive the outputs into registers
    /// (or little logic): the root level is one tree level of logic, like every stage.
    pub fn with_root_register(registered: bool) -> Self {
        Self {
            root_reg: Constant::new(registered),
            ..Default::default()
        }
    }
}

impl<const N: usize, const M: usize, const K: usize, const S: usize> Logic
    for RunTreePipe<N, M, K, S>
{
    #[hdl_gen]
    fn update(&mut self) {
        // Leaves: as in RunTree, on the inputs directly.
        self.need_lo.next = self.need.val().get_bits::<2>(0);
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
            self.need_at[g].next = self.need.val();
            self.valid_at[g].next = true;
        }
        for nn in (N / 4)..(N / 4 + 1) {
            for j in 0..(N / 4 - 1) {
                self.r_plen[j].clock.next = self.clock.val();
                self.r_slen[j].clock.next = self.clock.val();
                self.r_best[j].clock.next = self.clock.val();
                self.r_found[j].clock.next = self.clock.val();
                self.r_pos[j].clock.next = self.clock.val();
                self.r_need[j].clock.next = self.clock.val();
                self.r_valid[j].clock.next = self.clock.val();
                // Node nn + j (children 2j = L, 2j + 1 = R), computed from the children's
                // stage and registered.
                self.r_need[j].d.next = self.need_at[2 * j].val();
                self.r_valid[j].d.next = self.valid_at[2 * j].val() & !self.reset.val();
                self.m_all_l[j].next = 0.into();
                if self.all[2 * j].val() {
                    self.m_all_l[j].next = self.ones.val();
                }
                self.m_all_r[j].next = 0.into();
                if self.all[2 * j + 1].val() {
                    self.m_all_r[j].next = self.ones.val();
                }
                self.r_plen[j].d.next = ((self.m_all_l[j].val()
                    & (self.plen[2 * j + 1].val() + self.half[j].val()))
                    | (!self.m_all_l[j].val() & self.plen[2 * j].val()))
                    & self.lmask[j].val();
                self.r_slen[j].d.next = ((self.m_all_r[j].val()
                    & (self.slen[2 * j].val() + self.half[j].val()))
                    | (!self.m_all_r[j].val() & self.slen[2 * j + 1].val()))
                    & self.lowm[j].val();
                // The run crossing the middle, measured once here.
                self.cross[j].next = self.slen[2 * j].val() + self.plen[2 * j + 1].val();
                // best = max(max(best(L), best(R)), cross): two compares in a row (smaller than
                // three side by side; each stage has the time).
                self.r_wins[j].next = self.best[2 * j + 1].val() > self.best[2 * j].val();
                self.m_best[j].next = self.best[2 * j].val();
                if self.r_wins[j].val() {
                    self.m_best[j].next = self.best[2 * j + 1].val();
                }
                self.x_wins[j].next = self.cross[j].val() > self.m_best[j].val();
                if !self.not_root[j].val() & !self.root_reg.val() {
                    // (an unregistered root compares side by side: it drives the outputs)
                    self.x_wins[j].next = (self.cross[j].val() > self.best[2 * j].val())
                        & (self.cross[j].val() > self.best[2 * j + 1].val());
                }
                self.m_x[j].next = 0.into();
                if self.x_wins[j].val() {
                    self.m_x[j].next = self.ones.val();
                }
                self.r_best[j].d.next = ((self.m_x[j].val() & self.cross[j].val())
                    | (!self.m_x[j].val() & self.m_best[j].val()))
                    & self.lowm[j].val();
                // First fit (see RunTree).
                // (`need` split at this level's width: high bits all 0, low bits compared)
                self.ge[j].next = !(self.need_at[2 * j].val() & !self.lmask[j].val()).any()
                    & (self.cross[j].val() >= (self.need_at[2 * j].val() & self.lmask[j].val()));
                self.r_found[j].d.next =
                    self.found[2 * j].val() | self.ge[j].val() | self.found[2 * j + 1].val();
                // (an unregistered root never needs the suffix start: `fit_start` reads 0
                // without a fit)
                self.sel[j].next = self.found[2 * j].val()
                    | self.ge[j].val()
                    | (!self.found[2 * j + 1].val()
                        & self.all[2 * j + 1].val()
                        & (self.not_root[j].val() | self.root_reg.val()));
                self.m_sel[j].next = 0.into();
                if self.sel[j].val() {
                    self.m_sel[j].next = self.ones.val();
                }
                self.r_pos[j].d.next = ((self.m_sel[j].val() & self.pos[2 * j].val())
                    | (!self.m_sel[j].val() & (self.pos[2 * j + 1].val() + self.half[j].val())))
                    & self.lmask[j].val();
                // The node's fields for its parent's stage.
                self.all[nn + j].next = (self.r_plen[j].q.val() & self.full[j].val()).any();
                self.plen[nn + j].next = self.r_plen[j].q.val();
                // slen = best = 2^l iff all free: the top bit is plen's (the low bits are 0).
                self.slen[nn + j].next =
                    self.r_slen[j].q.val() | (self.r_plen[j].q.val() & self.full[j].val());
                self.best[nn + j].next =
                    self.r_best[j].q.val() | (self.r_plen[j].q.val() & self.full[j].val());
                self.found[nn + j].next = self.r_found[j].q.val();
                self.pos[nn + j].next = self.r_pos[j].q.val();
                self.need_at[nn + j].next = self.r_need[j].q.val();
                self.valid_at[nn + j].next = self.r_valid[j].q.val();
            }
            // Without a root register the root's fields come straight from its register inputs:
            // the outputs are combinational from the level below (latency one less).
            if !self.root_reg.val() {
                self.best[2 * nn - 2].next = self.r_best[nn - 2].d.val()
                    | (self.r_plen[nn - 2].d.val() & self.full[nn - 2].val());
                self.found[2 * nn - 2].next = self.r_found[nn - 2].d.val();
                self.pos[2 * nn - 2].next = self.r_pos[nn - 2].d.val();
                self.valid_at[2 * nn - 2].next = self.valid_at[2 * nn - 4].val();
            }
            // Root = node 2G − 2; outputs masked by `valid` (and `fit_start` by `found`).
            self.m_valid.next = 0.into();
            if self.valid_at[2 * nn - 2].val() {
                self.m_valid.next = self.ones.val();
            }
            self.m_fit.next = 0.into();
            if self.valid_at[2 * nn - 2].val() & self.found[2 * nn - 2].val() {
                self.m_fit.next = self.ones.val();
            }
            self.max_run.next = self.best[2 * nn - 2].val() & self.m_valid.val();
            self.fit_found.next = self.found[2 * nn - 2].val() & self.valid_at[2 * nn - 2].val();
            self.fit_pos.next = self.pos[2 * nn - 2].val() & self.m_fit.val();
            self.fit_start.next = self.fit_pos.val().get_bits::<S>(0);
        }
    }
}
