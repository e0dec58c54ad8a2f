//! Patent-scale dispatcher sub-blocks (design: `docs/dispatcher_scale.md`): port tables,
//! stimulus, and contract checkers written from the design alone (not from the cycle models).
//!
//! ## Run cache (design block 1)
//! [`RunCachePorts`] is the exported top's port table; [`run_cache_trace`] the stimulus (maps
//! change only when `change` announces it; idle stretches, changes every cycle, bursts, resets
//! mid-trace, announced writes of an unchanged value); [`RunCacheContract`] judges any trace by
//! the contract of `hdl::dispatcher_scale::RunCache`:
//! - `eligible-exact`: `eligible` high ⇒ every cached run is the longest free run of its map as
//!   the inputs show it in that cycle;
//! - `eligible-timing`: `eligible` is high exactly when the last `change` or `reset` was at
//!   least K + 1 cycles before (the new maps visible for K cycles: SPEC "Patent scale" with the
//!   golden dispatcher's rule `changed + K <= now`), so all runs are exact by change + K;
//! - `run-held`: every cached run is the run of a value its map held in an earlier cycle since
//!   the last reset (or 0, the reset value, until `eligible` has been high since the reset);
//! - `announced`: (stimulus) a map changes only after a cycle whose `change` (or `reset`) names it.
//!
//! A reset cycle starts afresh: its maps need no announcement and its outputs (the state before
//! the reset) are not judged.

use crate::port_table;
use crate::spec::{SpecChecker, Violation};

pub mod allocator;
pub mod full;
pub use allocator::{allocator_trace, AllocatorContract, AllocatorPorts};
use golden_model::dispatcher_scale::{RunCacheConfig, RunCacheIn, RunCacheOut, RUN_CACHE_K};
use golden_model::run_finder::{low_mask, max_run};
use hdl::dispatcher_scale::{RunCache, RunCachePipe};

port_table! {
    /// Port map of an exported run cache (`hdl::dispatcher_scale::RunCache`).
    pub struct RunCachePorts(RunCacheConfig) as c: RunCacheIn => RunCacheOut;
    dut [const V: usize, const S: usize, const L: usize, const H: usize, const KV: usize,
        const KH: usize, const SH: usize] RunCache<V, S, L, H, KV, KH, SH>;
    dut [const V: usize, const S: usize, const L: usize, const H: usize, const KV: usize,
        const KH: usize, const SH: usize, const DC: usize, const DT: usize]
        RunCachePipe<V, S, L, H, KV, KH, SH, DC, DT>;
    ports {
        in reset: 1,
        in vgpr0: c.vgpr,
        in vgpr1: c.vgpr,
        in vgpr2: c.vgpr,
        in vgpr3: c.vgpr,
        in sgpr0: c.sgpr,
        in sgpr1: c.sgpr,
        in sgpr2: c.sgpr,
        in sgpr3: c.sgpr,
        in lds: c.lds,
        in change: 9,
        out run_vgpr0: c.run_bits(),
        out run_vgpr1: c.run_bits(),
        out run_vgpr2: c.run_bits(),
        out run_vgpr3: c.run_bits(),
        out run_sgpr0: c.run_bits(),
        out run_sgpr1: c.run_bits(),
        out run_sgpr2: c.run_bits(),
        out run_sgpr3: c.run_bits(),
        out run_lds: c.run_bits(),
        out eligible: 1,
    }
}

/// A small deterministic generator (splitmix64) for the stimulus.
#[derive(Clone, Debug)]
pub struct Mix(u64);

impl Mix {
    pub fn new(seed: u64) -> Self {
        Mix(seed)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }
    fn wide(&mut self) -> u128 {
        (self.next_u64() as u128) << 64 | self.next_u64() as u128
    }
}

/// A random free map of `w` blocks with a varied run structure: sparse, dense, all free, all
/// used, one run, a few runs.
pub fn random_map(r: &mut Mix, w: usize) -> u128 {
    let m = low_mask(w);
    let one_run = |r: &mut Mix| {
        let a = r.below(w as u64) as usize;
        let len = r.below((w - a) as u64 + 1) as usize;
        (low_mask(len)) << a
    };
    m & match r.below(8) {
        0 => r.wide() & r.wide(),
        1 => r.wide() | r.wide(),
        2 => u128::MAX,
        3 => 0,
        4 => one_run(r),
        5 => one_run(r) | one_run(r) | one_run(r),
        6 => !(one_run(r) | one_run(r)),
        _ => r.wide(),
    }
}

/// Stimulus styles of [`run_cache_trace`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// Mostly idle: a change now and then.
    Idle,
    /// A change (of 1..=9 maps) in every cycle.
    EveryCycle,
    /// Bursts of changes separated by idle gaps around K.
    Bursts,
    /// Everything, with resets mid-trace and announced writes of unchanged values.
    Mixed,
}

/// The run-cache stimulus: `cycles` cycles starting with a reset; maps change only at the end
/// of a cycle whose `change` (or `reset`) names them.
pub fn run_cache_trace(
    cfg: RunCacheConfig,
    style: Style,
    seed: u64,
    cycles: usize,
) -> Vec<RunCacheIn> {
    let mut r = Mix::new(seed);
    let mut cur = RunCacheIn::default();
    for j in 0..9 {
        cur.set_map(j, random_map(&mut r, cfg.map_width(j)));
    }
    let mut out = Vec::with_capacity(cycles);
    let (mut burst, mut gap) = (0u64, 0u64);
    for t in 0..cycles {
        let mut i = cur.clone();
        i.reset = t == 0 || (style == Style::Mixed && r.below(200) == 0);
        let changing = match style {
            Style::Idle => r.below(12) == 0,
            Style::EveryCycle => true,
            Style::Bursts | Style::Mixed => {
                if burst > 0 {
                    burst -= 1;
                    true
                } else if gap > 0 {
                    gap -= 1;
                    false
                } else {
                    burst = r.below(10);
                    gap = r.below(2 * RUN_CACHE_K as u64 + 4);
                    style == Style::Mixed && r.below(3) == 0
                }
            }
        };
        if changing {
            i.change = match r.below(4) {
                0 => 1 << r.below(9),
                1 => 0x1ff,
                _ => (r.below(0x1ff) + 1) as u16,
            };
        }
        // the values written at the end of this cycle (a reset may write any map)
        let written = if i.reset { 0x1ff } else { i.change };
        for j in 0..9 {
            let keep = style == Style::Mixed && r.below(4) == 0;
            if written >> j & 1 == 1 && !keep {
                cur.set_map(j, random_map(&mut r, cfg.map_width(j)));
            }
        }
        out.push(i);
    }
    out
}

/// The run cache's contract, judged from the ports alone (see the module doc), for a refresh
/// latency K given by the design (7 for the one-cycle cache, 12 for the pipelined one at full
/// widths).
pub struct RunCacheContract {
    cfg: RunCacheConfig,
    k: usize,
    /// Cycle of the last reset, of the last `change`/`reset`.
    reset_at: Option<usize>,
    last_write: Option<usize>,
    prev: Option<RunCacheIn>,
    /// Per map: the runs of the values it held since the last reset.
    held: Vec<Vec<usize>>,
    /// `eligible` was high since the last reset (so every run has been refreshed since).
    refreshed: bool,
    /// A reset leaves every map free and the runs may show that at once (the write refresh:
    /// its reset sets every run to its map's width); else a reset's runs are 0.
    reset_frees: bool,
}

impl RunCacheContract {
    /// The contract of the one-cycle cache: K = [`RUN_CACHE_K`].
    pub fn new(cfg: RunCacheConfig) -> Self {
        Self::with_k(cfg, RUN_CACHE_K)
    }
    /// The contract with refresh latency `k`.
    pub fn with_k(cfg: RunCacheConfig, k: usize) -> Self {
        cfg.validate();
        Self {
            cfg,
            k,
            reset_at: None,
            last_write: None,
            prev: None,
            held: vec![vec![]; 9],
            refreshed: false,
            reset_frees: false,
        }
    }
    /// The contract of a cache whose reset frees every map and sets every run to its map's
    /// width (`hdl::dispatcher_scale::MapRefresh`): after a reset the width is a run the map
    /// held.
    pub fn reset_frees(mut self) -> Self {
        self.reset_frees = true;
        self
    }
    fn run_of(&self, i: &RunCacheIn, j: usize) -> usize {
        let w = self.cfg.map_width(j);
        max_run(i.map(j) & low_mask(w), w)
    }
}

impl SpecChecker for RunCacheContract {
    type In = RunCacheIn;
    type Out = RunCacheOut;

    fn check(&mut self, t: usize, i: &RunCacheIn, o: &RunCacheOut) -> Result<(), Violation> {
        let k = self.k;
        // (a reset cycle starts afresh: its maps need no announcement)
        if let Some(p) = self.prev.as_ref().filter(|_| !i.reset) {
            let written = if p.reset { 0x1ff } else { p.change };
            for j in 0..9 {
                let m = low_mask(self.cfg.map_width(j));
                if written >> j & 1 == 0 && (p.map(j) ^ i.map(j)) & m != 0 {
                    return Err(Violation::new(
                        t,
                        "announced",
                        format!("map {j} changed without `change` in cycle {}", t - 1),
                    ));
                }
            }
        }
        // (nor are its outputs judged against its possibly new maps)
        if let Some(r) = self.reset_at.filter(|_| !i.reset) {
            self.refreshed |= o.eligible;
            let w = self.last_write.expect("a reset is a write");
            let cur: Vec<usize> = (0..9).map(|j| self.run_of(i, j)).collect();
            let want = t > w + k;
            if o.eligible != want {
                return Err(Violation::new(
                    t,
                    "eligible-timing",
                    format!(
                        "eligible = {} with the last change/reset in cycle {w} (K = {k})",
                        o.eligible
                    ),
                ));
            }
            if o.eligible {
                if let Some(j) = (0..9).find(|&j| o.run(j) != cur[j]) {
                    return Err(Violation::new(
                        t,
                        "eligible-exact",
                        format!(
                            "eligible but map {j}'s cached run {} != {}",
                            o.run(j),
                            cur[j]
                        ),
                    ));
                }
            }
            for j in 0..9 {
                let ok = self.held[j].contains(&o.run(j)) || (o.run(j) == 0 && !self.refreshed);
                if !ok {
                    return Err(Violation::new(
                        t,
                        "run-held",
                        format!(
                            "map {j}'s cached run {} is no run the map held since the reset in cycle {r}",
                            o.run(j)
                        ),
                    ));
                }
            }
        }
        // this cycle's inputs become history for the next
        if i.reset {
            self.reset_at = Some(t);
            self.held = if self.reset_frees {
                (0..9).map(|j| vec![self.cfg.map_width(j)]).collect()
            } else {
                vec![vec![]; 9]
            };
            self.refreshed = false;
        } else if self.reset_at.is_some() {
            for j in 0..9 {
                let v = self.run_of(i, j);
                if !self.held[j].contains(&v) {
                    self.held[j].push(v);
                }
            }
        }
        if i.reset || i.change & 0x1ff != 0 {
            self.last_write = Some(t);
        }
        self.prev = Some(i.clone());
        Ok(())
    }
}

// -------------------------------------------------------------------------------------------
// Head needs + head × module matcher (design blocks 2 and 3)
// -------------------------------------------------------------------------------------------

use golden_model::dispatcher::{DispatcherConfig, Resources, Wg};
use golden_model::dispatcher_scale::{MatchHead, MatchModule, MatcherIn, MatcherOut, MATCH_HEADS};
use hdl::dispatcher_scale::{Matcher, HEAD_BITS, MODULE_BITS};
use rust_hdl::prelude::{Bits, Clock, In, Signal};

/// `heads` port value of the matcher.
pub fn pack_heads(h: &[MatchHead; MATCH_HEADS]) -> u128 {
    let mut v = 0u128;
    for (c, h) in h.iter().enumerate() {
        let w = (h.waves as u128 & 0x7f)
            | (h.vgpr as u128 & 0xff) << 7
            | (h.sgpr as u128 & 0xff) << 15
            | (h.lds as u128 & 0xff) << 23
            | u128::from(h.valid) << 31;
        v |= w << (HEAD_BITS * c);
    }
    v
}

/// The 95 bits of one module in the matcher's `modules` port.
pub fn pack_module(m: &MatchModule) -> u128 {
    let mut w = 0u128;
    for u in 0..4 {
        w |= (m.run_vgpr[u] as u128 & 0xff) << (8 * u);
        w |= (m.run_sgpr[u] as u128 & 0xff) << (32 + 8 * u);
        w |= (m.slots[u] as u128 & 0x1f) << (72 + 5 * u);
    }
    w | (m.run_lds as u128 & 0xff) << 64 | (m.ptr as u128 & 3) << 92 | u128::from(m.eligible) << 94
}

impl crate::rtl::HdlDut for Matcher {
    type In = MatcherIn;
    type Out = MatcherOut;
    fn drive(&mut self, i: &MatcherIn) {
        self.reset.next = i.reset;
        self.heads.next = crate::ports::PortSignal::from_port(pack_heads(&i.heads));
        let mut b = Bits::<1520>::default();
        for (m, md) in i.modules.iter().enumerate() {
            let w = pack_module(md);
            for k in 0..MODULE_BITS {
                if w >> k & 1 == 1 {
                    b = b.replace_bit(MODULE_BITS * m + k, true);
                }
            }
        }
        self.modules.next = b;
    }
    fn sample(&self) -> MatcherOut {
        MatcherOut {
            fit: crate::ports::PortSignal::to_port(self.fit.val()) as u64,
            fit_eligible: crate::ports::PortSignal::to_port(self.fit_eligible.val()) as u64,
        }
    }
    fn clock_signal(&mut self) -> Option<&mut Signal<In, Clock>> {
        Some(&mut self.clock)
    }
}

/// A random in-range module (runs ≤ 128 / 64 / 48, slots ≤ 16), often nearly empty or full.
pub fn random_module(r: &mut Mix) -> MatchModule {
    let mode = r.below(4);
    let run = |r: &mut Mix, w: u64| match mode {
        0 => w,
        1 => r.below(w / 4 + 1),
        _ => r.below(w + 1),
    } as usize;
    let mut m = MatchModule::default();
    for u in 0..4 {
        m.run_vgpr[u] = run(r, 128);
        m.run_sgpr[u] = run(r, 64);
        m.slots[u] = run(r, 16);
    }
    m.run_lds = run(r, 48);
    m.ptr = r.below(4) as usize;
    m.eligible = r.below(3) != 0;
    m
}

/// A random head: a WG of 0..=64 waves with needs around what fits.
pub fn random_head(r: &mut Mix) -> MatchHead {
    let waves = match r.below(4) {
        0 => r.below(5),
        1 => r.below(65),
        _ => r.below(17),
    } as usize;
    MatchHead {
        valid: r.below(6) != 0,
        waves,
        vgpr: match r.below(5) {
            0 => r.below(256),
            _ => r.below(40),
        } as usize,
        sgpr: r.below(24) as usize,
        lds: match r.below(4) {
            0 => r.below(256),
            _ => r.below(49),
        } as usize,
    }
}

/// Matcher stimulus: a reset, then heads and modules that change at random (each head or
/// module keeps its value with probability `hold` %), resets now and then.
pub fn matcher_trace(seed: u64, cycles: usize, hold: u64) -> Vec<MatcherIn> {
    let mut r = Mix::new(seed);
    let mut cur = MatcherIn::default();
    let mut out = vec![];
    for t in 0..cycles {
        for h in cur.heads.iter_mut() {
            if t == 0 || r.below(100) >= hold {
                *h = random_head(&mut r);
            }
        }
        for m in cur.modules.iter_mut() {
            if t == 0 || r.below(100) >= hold {
                *m = random_module(&mut r);
            }
        }
        cur.reset = t == 0 || r.below(300) == 0;
        out.push(cur.clone());
    }
    out
}

/// The matcher's contract from SPEC step 3 alone: bit 16c + m of `fit` at cycle t is set iff
/// head c of cycle t − 2 was valid and its WG fits module m of cycle t − 1 by the golden
/// dispatcher's own rule (`Resources::fits`, full config) on maps whose longest free runs are
/// the cached runs (one free run at block 0 per map); `fit_eligible` = `fit` ∧ m eligible.
/// No reset in cycles t − 2, t − 1, else both read 0.
#[derive(Default)]
pub struct MatcherContract {
    hist: Vec<MatcherIn>,
}

impl MatcherContract {
    /// The golden dispatcher's fit of `h` on `m` (maps rebuilt from the runs).
    pub fn spec_fits(h: &MatchHead, m: &MatchModule) -> bool {
        let mut res = Resources::new(DispatcherConfig::full());
        let mask = |n: usize| golden_model::run_finder::low_mask(n);
        res.vgpr[0] = m.run_vgpr.iter().map(|&n| mask(n)).collect();
        res.sgpr[0] = m.run_sgpr.iter().map(|&n| mask(n)).collect();
        res.slots_free[0] = m.slots.to_vec();
        res.lds[0] = mask(m.run_lds);
        res.ptr[0] = m.ptr;
        let wg = Wg::dependent(0, 0, h.waves, h.vgpr, h.sgpr, h.lds);
        res.fits(0, &wg)
    }
}

impl SpecChecker for MatcherContract {
    type In = MatcherIn;
    type Out = MatcherOut;

    fn check(&mut self, t: usize, i: &MatcherIn, o: &MatcherOut) -> Result<(), Violation> {
        self.hist.push(i.clone());
        if t < 2 || !self.hist[..t].iter().any(|x| x.reset) {
            return Ok(());
        }
        let (h2, h1) = (&self.hist[t - 2], &self.hist[t - 1]);
        let mut want = MatcherOut::default();
        if !h2.reset && !h1.reset {
            for (c, h) in h2.heads.iter().enumerate() {
                for (m, md) in h1.modules.iter().enumerate() {
                    if h.valid && Self::spec_fits(h, md) {
                        want.fit |= 1 << (16 * c + m);
                        if md.eligible {
                            want.fit_eligible |= 1 << (16 * c + m);
                        }
                    }
                }
            }
        }
        if o.fit != want.fit {
            let b = (o.fit ^ want.fit).trailing_zeros();
            return Err(Violation::new(
                t,
                "fit",
                format!(
                    "head {} × module {}: fit = {} but SPEC step 3 says {}",
                    b / 16,
                    b % 16,
                    o.fit >> b & 1,
                    want.fit >> b & 1
                ),
            ));
        }
        if o.fit_eligible != want.fit_eligible {
            let b = (o.fit_eligible ^ want.fit_eligible).trailing_zeros();
            return Err(Violation::new(
                t,
                "fit-eligible",
                format!("head {} × module {}: fit_eligible wrong", b / 16, b % 16),
            ));
        }
        Ok(())
    }
}

// -------------------------------------------------------------------------------------------
// Map RAM (design block 6, build step 1)
// -------------------------------------------------------------------------------------------
//
// ## Map RAM
// [`MapRamPorts`] is the exported top's port table; [`map_ram_trace`] the stimulus (legal
// allocations and releases as a dispatcher makes them, both ports on one module often, reads of
// the modules being written in the same and the next cycle, resets mid-trace);
// [`MapRamContract`] judges any trace by the contract of `hdl::dispatcher_scale::MapRam`
// (written from the block 6 note, not from `MapRamModel`): it keeps a ledger of the 16 × 9
// maps and applies each cycle's allocation, then its release, in that order (the note: the
// regions are disjoint, so the order does not matter and a merged write is the same):
// - `read-current`: `rd_*` in cycle t + 1 = the ledger's maps of `rd_module`(t) at the start of
//   cycle t (every write requested before t seen, none of t's: the registered read of session
//   9), for a module written since the reset;
// - `reset-free`: the same for a module not written since the last reset: every map all free;
// - `alloc-free`: (stimulus) an allocation takes only blocks that are free;
// - `release-used`: (stimulus) a release frees only blocks that are taken.
// Before the first reset nothing is judged; a reset cycle's writes are not applied.

use golden_model::dispatcher_scale::{MapRamIn, MapRamOut, MAP_RAM_MODULES};
use hdl::dispatcher_scale::MapRam;

port_table! {
    /// Port map of an exported map RAM (`hdl::dispatcher_scale::MapRam`).
    pub struct MapRamPorts(RunCacheConfig) as c: MapRamIn => MapRamOut;
    dut [const V: usize, const S: usize, const S2: usize, const L: usize] MapRam<V, S, S2, L>;
    ports {
        in reset: 1,
        in alloc_en: 1,
        in alloc_module: 4,
        in alloc_vgpr0: c.vgpr,
        in alloc_vgpr1: c.vgpr,
        in alloc_vgpr2: c.vgpr,
        in alloc_vgpr3: c.vgpr,
        in alloc_sgpr0: c.sgpr,
        in alloc_sgpr1: c.sgpr,
        in alloc_sgpr2: c.sgpr,
        in alloc_sgpr3: c.sgpr,
        in alloc_lds: c.lds,
        in free_en: 1,
        in free_module: 4,
        in free_vgpr0: c.vgpr,
        in free_vgpr1: c.vgpr,
        in free_vgpr2: c.vgpr,
        in free_vgpr3: c.vgpr,
        in free_sgpr0: c.sgpr,
        in free_sgpr1: c.sgpr,
        in free_sgpr2: c.sgpr,
        in free_sgpr3: c.sgpr,
        in free_lds: c.lds,
        in rd_module: 4,
        out rd_vgpr0: c.vgpr,
        out rd_vgpr1: c.vgpr,
        out rd_vgpr2: c.vgpr,
        out rd_vgpr3: c.vgpr,
        out rd_sgpr0: c.sgpr,
        out rd_sgpr1: c.sgpr,
        out rd_sgpr2: c.sgpr,
        out rd_sgpr3: c.sgpr,
        out rd_lds: c.lds,
    }
}

/// A random subset of `of`: one run, a few runs, sparse, everything or nothing.
fn subset(r: &mut Mix, of: u128, w: usize) -> u128 {
    of & match r.below(6) {
        0 => 0,
        1 => u128::MAX,
        _ => random_map(r, w),
    }
}

/// The map-RAM stimulus: `cycles` cycles starting with a reset; every allocation takes free
/// blocks and every release taken ones (as the dispatcher's allocator and in-flight table do).
/// `style`: `Idle` writes now and then, `EveryCycle` both ports every cycle, `Bursts` bursts of
/// writes on few modules, `Mixed` everything with resets mid-trace. Ports A and F name the same
/// module in about a third of the cycles where both write; `rd_module` is often a module
/// written in this or the previous cycle.
pub fn map_ram_trace(cfg: RunCacheConfig, style: Style, seed: u64, cycles: usize) -> Vec<MapRamIn> {
    let mut r = Mix::new(seed);
    let width: [usize; 9] = std::array::from_fn(|j| cfg.map_width(j));
    let full: [u128; 9] = std::array::from_fn(|j| low_mask(width[j]));
    let mut maps = [full; MAP_RAM_MODULES];
    let mut out = Vec::with_capacity(cycles);
    let mut last = (0u8, 0u8);
    for t in 0..cycles {
        let mut i = MapRamIn {
            reset: t == 0 || (style == Style::Mixed && r.below(300) == 0),
            ..Default::default()
        };
        // few modules in bursts (conflicts), all 16 otherwise
        let span = if style == Style::Bursts { 3 } else { 16 };
        let p = match style {
            Style::Idle => 8,
            Style::EveryCycle => 100,
            _ => 60,
        };
        i.alloc_en = r.below(100) < p;
        i.free_en = r.below(100) < p;
        i.alloc_module = r.below(span) as u8;
        i.free_module = if r.below(3) == 0 {
            i.alloc_module
        } else {
            r.below(span) as u8
        };
        let (a, f) = (i.alloc_module as usize, i.free_module as usize);
        for j in 0..9 {
            if i.alloc_en {
                i.set_alloc(j, subset(&mut r, maps[a][j], width[j]));
            } else if r.below(2) == 0 {
                // an idle port's masks are don't-cares
                i.set_alloc(j, r.next_u64() as u128 & full[j]);
            }
            if i.free_en {
                i.set_free(j, subset(&mut r, !maps[f][j] & full[j], width[j]));
            } else if r.below(2) == 0 {
                i.set_free(j, r.next_u64() as u128 & full[j]);
            }
        }
        i.rd_module = match r.below(4) {
            0 => i.alloc_module,
            1 => i.free_module,
            2 => last.0,
            _ => r.below(16) as u8,
        };
        if i.reset {
            maps = [full; MAP_RAM_MODULES];
        } else {
            if i.alloc_en {
                for (j, m) in maps[a].iter_mut().enumerate() {
                    *m &= !i.alloc(j);
                }
            }
            if i.free_en {
                for (j, m) in maps[f].iter_mut().enumerate() {
                    *m |= i.free(j);
                }
            }
        }
        last = (i.alloc_module, i.free_module);
        out.push(i);
    }
    out
}

/// The map RAM's contract, judged from the ports alone (see above).
pub struct MapRamContract {
    cfg: RunCacheConfig,
    /// The maps of every module (after the first reset).
    ledger: Option<[[u128; 9]; MAP_RAM_MODULES]>,
    /// Modules written since the last reset.
    written: u32,
    /// The read requested in the previous cycle: (module, its maps then, written since reset).
    pending: Option<(usize, [u128; 9], bool)>,
}

impl MapRamContract {
    pub fn new(cfg: RunCacheConfig) -> Self {
        cfg.validate();
        Self {
            cfg,
            ledger: None,
            written: 0,
            pending: None,
        }
    }
}

impl SpecChecker for MapRamContract {
    type In = MapRamIn;
    type Out = MapRamOut;

    fn check(&mut self, t: usize, i: &MapRamIn, o: &MapRamOut) -> Result<(), Violation> {
        let w: [u128; 9] = std::array::from_fn(|j| low_mask(self.cfg.map_width(j)));
        if let Some((m, maps, written)) = self.pending.take() {
            let got = o.maps();
            if let Some(j) = (0..9).find(|&j| got[j] & w[j] != maps[j]) {
                let rule = if written {
                    "read-current"
                } else {
                    "reset-free"
                };
                return Err(Violation::new(
                    t,
                    rule,
                    format!(
                        "module {m} (read in cycle {}) map {j} reads {:#x}, its maps held {:#x}",
                        t - 1,
                        got[j],
                        maps[j]
                    ),
                ));
            }
        }
        if let Some(ledger) = self.ledger.as_mut() {
            let m = i.rd_module as usize % MAP_RAM_MODULES;
            self.pending = Some((m, ledger[m], self.written >> m & 1 == 1));
            if !i.reset {
                let a = i.alloc_module as usize % MAP_RAM_MODULES;
                let f = i.free_module as usize % MAP_RAM_MODULES;
                for j in 0..9 {
                    if i.alloc_en && i.alloc(j) & w[j] & !ledger[a][j] != 0 {
                        return Err(Violation::new(
                            t,
                            "alloc-free",
                            format!("allocation of taken blocks in module {a} map {j}"),
                        ));
                    }
                    if i.free_en && i.free(j) & ledger[f][j] != 0 {
                        return Err(Violation::new(
                            t,
                            "release-used",
                            format!("release of free blocks in module {f} map {j}"),
                        ));
                    }
                }
                for j in 0..9 {
                    if i.alloc_en {
                        ledger[a][j] &= !i.alloc(j);
                    }
                    if i.free_en {
                        ledger[f][j] |= i.free(j) & w[j];
                    }
                }
                if i.alloc_en {
                    self.written |= 1 << a;
                }
                if i.free_en {
                    self.written |= 1 << f;
                }
            }
        }
        if i.reset {
            self.ledger = Some([w; MAP_RAM_MODULES]);
            self.written = 0;
        }
        Ok(())
    }
}

// -------------------------------------------------------------------------------------------
// Map RAM + write refresh (design block 6, build step 2)
// -------------------------------------------------------------------------------------------
//
// ## Write refresh
// [`MapRefreshPorts`] is the exported top's port table (MapRam's ports, the runs packed per map
// — module m in bits KV·m .. — and `eligible`); the stimulus is [`map_ram_trace`];
// [`MapRefreshContract`] judges a trace with the map RAM's contract ([`MapRamContract`], on the
// `rd_*` outputs) and, module by module, with the run cache's ([`RunCacheContract`] with the
// write refresh's K and [`RunCacheContract::reset_frees`]) through an adapter: module m's
// `RunCacheIn` in cycle t is its maps M(t) from a ledger of the requests (the maps at the start
// of t), `change` = all nine maps when an accepted request (not in a reset cycle; port F not
// when merged into A — it is then port A's) names m in t, `reset` = the trace's; its
// `RunCacheOut` is m's nine runs and `eligible` bit m. The run cache's rules apply with the
// module named: `eligible-timing`, `eligible-exact`, `run-held`, `announced`.

use golden_model::dispatcher_scale::MapRefreshOut;
use hdl::dispatcher_scale::MapRefresh;

port_table! {
    /// Port map of an exported map RAM with write refresh (`hdl::dispatcher_scale::MapRefresh`).
    pub struct MapRefreshPorts(RunCacheConfig) as c: MapRamIn => MapRefreshOut;
    dut [const V: usize, const S: usize, const S2: usize, const L: usize, const H: usize,
        const KV: usize, const KH: usize, const SH: usize, const DC: usize, const DT: usize,
        const R: usize] MapRefresh<V, S, S2, L, H, KV, KH, SH, DC, DT, R>;
    ports {
        in reset: 1,
        in alloc_en: 1,
        in alloc_module: 4,
        in alloc_vgpr0: c.vgpr,
        in alloc_vgpr1: c.vgpr,
        in alloc_vgpr2: c.vgpr,
        in alloc_vgpr3: c.vgpr,
        in alloc_sgpr0: c.sgpr,
        in alloc_sgpr1: c.sgpr,
        in alloc_sgpr2: c.sgpr,
        in alloc_sgpr3: c.sgpr,
        in alloc_lds: c.lds,
        in free_en: 1,
        in free_module: 4,
        in free_vgpr0: c.vgpr,
        in free_vgpr1: c.vgpr,
        in free_vgpr2: c.vgpr,
        in free_vgpr3: c.vgpr,
        in free_sgpr0: c.sgpr,
        in free_sgpr1: c.sgpr,
        in free_sgpr2: c.sgpr,
        in free_sgpr3: c.sgpr,
        in free_lds: c.lds,
        in rd_module: 4,
        out rd_vgpr0: c.vgpr,
        out rd_vgpr1: c.vgpr,
        out rd_vgpr2: c.vgpr,
        out rd_vgpr3: c.vgpr,
        out rd_sgpr0: c.sgpr,
        out rd_sgpr1: c.sgpr,
        out rd_sgpr2: c.sgpr,
        out rd_sgpr3: c.sgpr,
        out rd_lds: c.lds,
        out runs_vgpr0: 16 * c.run_bits(),
        out runs_vgpr1: 16 * c.run_bits(),
        out runs_vgpr2: 16 * c.run_bits(),
        out runs_vgpr3: 16 * c.run_bits(),
        out runs_sgpr0: 16 * c.run_bits(),
        out runs_sgpr1: 16 * c.run_bits(),
        out runs_sgpr2: 16 * c.run_bits(),
        out runs_sgpr3: 16 * c.run_bits(),
        out runs_lds: 16 * c.run_bits(),
        out eligible: 16,
    }
}

/// The write refresh's contract (see above): the map RAM's on `rd_*`, the run cache's with
/// refresh latency `k` per module.
pub struct MapRefreshContract {
    cfg: RunCacheConfig,
    ram: MapRamContract,
    modules: Vec<RunCacheContract>,
    /// M(t): every module's maps at the start of the cycle.
    ledger: [[u128; 9]; MAP_RAM_MODULES],
}

impl MapRefreshContract {
    pub fn new(cfg: RunCacheConfig, k: usize) -> Self {
        let w: [u128; 9] = std::array::from_fn(|j| low_mask(cfg.map_width(j)));
        Self {
            cfg,
            ram: MapRamContract::new(cfg),
            modules: (0..MAP_RAM_MODULES)
                .map(|_| RunCacheContract::with_k(cfg, k).reset_frees())
                .collect(),
            ledger: [w; MAP_RAM_MODULES],
        }
    }
    /// Module m's view of cycle t: its `RunCacheIn` (before this cycle's requests are applied)
    /// and `RunCacheOut`.
    fn module_view(&self, m: usize, i: &MapRamIn, o: &MapRefreshOut) -> (RunCacheIn, RunCacheOut) {
        let a = i.alloc_module as usize % MAP_RAM_MODULES;
        let f = i.free_module as usize % MAP_RAM_MODULES;
        let named = (i.alloc_en && a == m) || (i.free_en && f == m);
        let mut rin = RunCacheIn {
            reset: i.reset,
            change: if named && !i.reset { 0x1ff } else { 0 },
            ..Default::default()
        };
        for j in 0..9 {
            rin.set_map(j, self.ledger[m][j]);
        }
        let kv = self.cfg.run_bits();
        let r = |j: usize| o.run(m, j, kv) as u8;
        let rout = RunCacheOut {
            run_vgpr0: r(0),
            run_vgpr1: r(1),
            run_vgpr2: r(2),
            run_vgpr3: r(3),
            run_sgpr0: r(4),
            run_sgpr1: r(5),
            run_sgpr2: r(6),
            run_sgpr3: r(7),
            run_lds: r(8),
            eligible: o.eligible >> m & 1 == 1,
        };
        (rin, rout)
    }
}

impl SpecChecker for MapRefreshContract {
    type In = MapRamIn;
    type Out = MapRefreshOut;

    fn check(&mut self, t: usize, i: &MapRamIn, o: &MapRefreshOut) -> Result<(), Violation> {
        self.ram.check(t, i, &o.map())?;
        for m in 0..MAP_RAM_MODULES {
            let (rin, rout) = self.module_view(m, i, o);
            self.modules[m].check(t, &rin, &rout).map_err(|v| {
                Violation::new(v.cycle, v.rule, format!("module {m}: {}", v.detail))
            })?;
        }
        // the requests of this cycle: M(t + 1)
        let w: [u128; 9] = std::array::from_fn(|j| low_mask(self.cfg.map_width(j)));
        if i.reset {
            self.ledger = [w; MAP_RAM_MODULES];
        } else {
            let a = i.alloc_module as usize % MAP_RAM_MODULES;
            let f = i.free_module as usize % MAP_RAM_MODULES;
            for (j, wj) in w.iter().enumerate() {
                if i.alloc_en {
                    self.ledger[a][j] &= !i.alloc(j);
                }
                if i.free_en {
                    self.ledger[f][j] |= i.free(j) & wj;
                }
            }
        }
        Ok(())
    }
}
