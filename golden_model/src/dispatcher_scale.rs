//! Sub-blocks of the patent-scale dispatcher (SPEC Unit 3 "Patent scale"; seed 003 emb. 4–7;
//! design: `docs/dispatcher_scale.md`), each a plain-Rust cycle model of its own contract.
//!
//! ## Run cache with refresher (design block 1), one per execution module
//! A module of Q = 4 units has nine free maps: VGPR of units 0..4 (`V` blocks each), SGPR of
//! units 0..4 (`S` blocks), LDS (`L` blocks). The cache keeps each map's longest free run in a
//! register and refreshes it with one time-shared `V`-bit finder (emb. 7) over seven *slots*:
//! slot u = VGPR of unit u (u < 4), slot 4 = SGPR 0 ‖ SGPR 1, slot 5 = SGPR 2 ‖ SGPR 3 (each
//! SGPR map in its own half of the word, the run not crossing the middle), slot 6 = LDS.
//!
//! Per cycle (all outputs are registers):
//! - `change` (bit u: VGPR u, 4 + u: SGPR u, 8: LDS) says that those maps take new values **at
//!   the end of this cycle** (the write strobe of whoever owns the maps); their slots become
//!   dirty and the stale countdown is loaded with K = [`RUN_CACHE_K`] = 7;
//! - the lowest dirty slot (as of the start of the cycle) is evaluated on this cycle's maps, its
//!   run(s) registered and its dirty bit cleared (unless `change` sets it again);
//! - otherwise the countdown steps down to 0; `eligible` = countdown is 0.
//!
//! So with the last `change` (or `reset`) in cycle w, the new maps are visible from x = w + 1,
//! `eligible` is low in x .. x + K − 1 and high from x + K, and by then every cached run is the
//! run of the current maps (at most seven dirty slots, one per cycle) — exactly the golden
//! dispatcher's rule `changed + K <= now` (`DispatcherConfig::refresh_latency`). `reset` acts as
//! a change of every map: runs read 0, every slot dirty, countdown K.

use crate::run_finder::{low_mask, max_run};

/// Refresh latency of the one-cycle run cache: seven slots, one per cycle (28 MHz at full
/// widths; the golden dispatcher's [`crate::dispatcher::FULL_REFRESH_LATENCY`] is the 100 MHz
/// pipelined cache's [`pipe_refresh_latency`]`(128)` = 12, see `docs/dispatcher_scale.md`).
pub const RUN_CACHE_K: usize = 7;
/// Schedule slots of the time-shared finder (4 VGPR, 2 SGPR pairs, LDS).
pub const RUN_CACHE_SLOTS: usize = 7;

/// Map widths of one module's run cache (Q = 4 units fixed).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RunCacheConfig {
    /// VGPR blocks per unit = the finder width (a power of two, 16..=128).
    pub vgpr: usize,
    /// SGPR blocks per unit (1..=vgpr/2: two share a finder word).
    pub sgpr: usize,
    /// LDS blocks of the module (1..=vgpr).
    pub lds: usize,
}

impl RunCacheConfig {
    /// Small maps with odd widths (padding exercised): 16 / 6 / 12.
    pub const fn small() -> Self {
        Self {
            vgpr: 16,
            sgpr: 6,
            lds: 12,
        }
    }
    /// The board dispatcher's map widths: 16 / 8 / 16.
    pub const fn board() -> Self {
        Self {
            vgpr: 16,
            sgpr: 8,
            lds: 16,
        }
    }
    /// `DispatcherConfig::full()`'s widths: 128 / 64 / 48.
    pub const fn full() -> Self {
        Self {
            vgpr: 128,
            sgpr: 64,
            lds: 48,
        }
    }
    /// Width of every run output: clog2(vgpr + 1).
    pub fn run_bits(&self) -> usize {
        crate::count_bits(self.vgpr)
    }
    /// Width of map `j` (0..4 VGPR, 4..8 SGPR, 8 LDS).
    pub fn map_width(&self, j: usize) -> usize {
        match j {
            0..=3 => self.vgpr,
            4..=7 => self.sgpr,
            _ => self.lds,
        }
    }
    /// Panics unless the widths are supported.
    pub fn validate(&self) {
        assert!(
            self.vgpr.is_power_of_two() && (16..=128).contains(&self.vgpr),
            "run cache: vgpr = {} must be a power of two in 16..=128",
            self.vgpr
        );
        assert!(
            (1..=self.vgpr / 2).contains(&self.sgpr),
            "run cache: sgpr = {} must be 1..=vgpr/2",
            self.sgpr
        );
        assert!(
            (1..=self.vgpr).contains(&self.lds),
            "run cache: lds = {} must be 1..=vgpr",
            self.lds
        );
    }
}

/// One cycle's inputs (the maps as they are during the cycle, 1 = free).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunCacheIn {
    pub reset: bool,
    pub vgpr0: u128,
    pub vgpr1: u128,
    pub vgpr2: u128,
    pub vgpr3: u128,
    pub sgpr0: u128,
    pub sgpr1: u128,
    pub sgpr2: u128,
    pub sgpr3: u128,
    pub lds: u128,
    /// Maps written at the end of this cycle: bit u VGPR u, 4 + u SGPR u, 8 LDS.
    pub change: u16,
}

impl RunCacheIn {
    /// Map `j` (0..4 VGPR, 4..8 SGPR, 8 LDS).
    pub fn map(&self, j: usize) -> u128 {
        [
            self.vgpr0, self.vgpr1, self.vgpr2, self.vgpr3, self.sgpr0, self.sgpr1, self.sgpr2,
            self.sgpr3, self.lds,
        ][j]
    }
    /// Set map `j`.
    pub fn set_map(&mut self, j: usize, v: u128) {
        *[
            &mut self.vgpr0,
            &mut self.vgpr1,
            &mut self.vgpr2,
            &mut self.vgpr3,
            &mut self.sgpr0,
            &mut self.sgpr1,
            &mut self.sgpr2,
            &mut self.sgpr3,
            &mut self.lds,
        ][j] = v;
    }
}

crate::reset_by_field!(RunCacheIn);

/// One cycle's outputs (all registered).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RunCacheOut {
    pub run_vgpr0: u8,
    pub run_vgpr1: u8,
    pub run_vgpr2: u8,
    pub run_vgpr3: u8,
    pub run_sgpr0: u8,
    pub run_sgpr1: u8,
    pub run_sgpr2: u8,
    pub run_sgpr3: u8,
    pub run_lds: u8,
    /// Every cached run is the run of the current maps; no change in the last K cycles.
    pub eligible: bool,
}

impl RunCacheOut {
    /// Cached run of map `j`.
    pub fn run(&self, j: usize) -> usize {
        [
            self.run_vgpr0,
            self.run_vgpr1,
            self.run_vgpr2,
            self.run_vgpr3,
            self.run_sgpr0,
            self.run_sgpr1,
            self.run_sgpr2,
            self.run_sgpr3,
            self.run_lds,
        ][j] as usize
    }
}

/// The maps (0..9) a slot (0..7) covers.
pub fn slot_maps(slot: usize) -> &'static [usize] {
    match slot {
        0 => &[0],
        1 => &[1],
        2 => &[2],
        3 => &[3],
        4 => &[4, 5],
        5 => &[6, 7],
        _ => &[8],
    }
}

/// The slot that holds map `j`.
pub fn map_slot(j: usize) -> usize {
    match j {
        0..=3 => j,
        4 | 5 => 4,
        6 | 7 => 5,
        _ => 6,
    }
}

/// Extra cycles of the pipelined cache (`hdl::dispatcher_scale::RunCachePipe`) over the
/// one-cycle one: the run(s) of a slot picked in cycle e are registered at the end of e + D
/// (visible from e + D + 1) with D = F + 1, F = max(log2(vgpr) − 3, 2) (the V/2-block pipelined
/// trees' latency, or the two-stage crossing term): 5 at vgpr 128, 3 at 16.
pub const fn pipe_delay(vgpr: usize) -> usize {
    let f = (vgpr.trailing_zeros() as usize).saturating_sub(3);
    (if f > 2 { f } else { 2 }) + 1
}

/// Refresh latency of the pipelined cache: seven slots + [`pipe_delay`] (12 at full widths).
pub const fn pipe_refresh_latency(vgpr: usize) -> usize {
    RUN_CACHE_SLOTS + pipe_delay(vgpr)
}

/// Cycle model of one module's run cache (see the module doc): the one-cycle refresher
/// ([`RunCacheModel::new`], K = 7) or the pipelined one ([`RunCacheModel::pipelined`]: the
/// run(s) of the slot picked in cycle e are written at the end of e + D, K = 7 + D; a change
/// while the slot is in flight re-dirties it, so the stale result that lands is overwritten by
/// the re-pick's; a reset drops everything in flight).
#[derive(Clone, Debug)]
pub struct RunCacheModel {
    pub cfg: RunCacheConfig,
    runs: [u8; 9],
    dirty: u8,
    stale: usize,
    /// Extra delay D (0 = the one-cycle cache) and the refresh latency K = 7 + D.
    delay: usize,
    k: usize,
    /// Picked slots and their runs in flight, oldest first (D entries).
    pipe: std::collections::VecDeque<Option<(usize, [u8; 2])>>,
}

impl RunCacheModel {
    /// The one-cycle cache (`hdl::dispatcher_scale::RunCache`): K = [`RUN_CACHE_K`].
    pub fn new(cfg: RunCacheConfig) -> Self {
        Self::with_delay(cfg, 0)
    }
    /// The pipelined cache (`hdl::dispatcher_scale::RunCachePipe`): D = [`pipe_delay`],
    /// K = [`pipe_refresh_latency`].
    pub fn pipelined(cfg: RunCacheConfig) -> Self {
        Self::with_delay(cfg, pipe_delay(cfg.vgpr))
    }
    fn with_delay(cfg: RunCacheConfig, delay: usize) -> Self {
        cfg.validate();
        Self {
            cfg,
            runs: [0; 9],
            dirty: 0,
            stale: 0,
            delay,
            k: RUN_CACHE_SLOTS + delay,
            pipe: std::iter::repeat_n(None, delay).collect(),
        }
    }
    /// The refresh latency K of this cache.
    pub fn k(&self) -> usize {
        self.k
    }
}

impl crate::CycleModel for RunCacheModel {
    type In = RunCacheIn;
    type Out = RunCacheOut;

    fn reset(&mut self) {
        self.step(&<RunCacheIn as crate::ResetInput>::reset_input());
    }

    fn step(&mut self, i: &RunCacheIn) -> RunCacheOut {
        let r = &self.runs;
        let out = RunCacheOut {
            run_vgpr0: r[0],
            run_vgpr1: r[1],
            run_vgpr2: r[2],
            run_vgpr3: r[3],
            run_sgpr0: r[4],
            run_sgpr1: r[5],
            run_sgpr2: r[6],
            run_sgpr3: r[7],
            run_lds: r[8],
            eligible: self.stale == 0,
        };
        if i.reset {
            self.runs = [0; 9];
            self.dirty = (1 << RUN_CACHE_SLOTS) - 1;
            self.stale = self.k;
            self.pipe = std::iter::repeat_n(None, self.delay).collect();
            return out;
        }
        let mut picked = None;
        if self.dirty != 0 {
            let slot = self.dirty.trailing_zeros() as usize;
            let mut r = [0u8; 2];
            for (n, &j) in slot_maps(slot).iter().enumerate() {
                let w = self.cfg.map_width(j);
                r[n] = max_run(i.map(j) & crate::run_finder::low_mask(w), w) as u8;
            }
            picked = Some((slot, r));
            self.dirty &= !(1 << slot);
        }
        self.pipe.push_back(picked);
        if let Some((slot, r)) = self.pipe.pop_front().flatten() {
            for (n, &j) in slot_maps(slot).iter().enumerate() {
                self.runs[j] = r[n];
            }
        }
        for j in 0..9 {
            if i.change >> j & 1 == 1 {
                self.dirty |= 1 << map_slot(j);
            }
        }
        self.stale = if i.change & 0x1ff != 0 {
            self.k
        } else {
            self.stale.saturating_sub(1)
        };
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::CycleModel;

    #[test]
    fn refresh_takes_k_cycles_after_a_change() {
        let mut m = RunCacheModel::new(RunCacheConfig::full());
        m.reset();
        let mut i = RunCacheIn {
            vgpr0: (1 << 100) - 1,
            sgpr0: 0xff00,
            sgpr1: u64::MAX as u128,
            lds: 0b111 << 40,
            ..Default::default()
        };
        // reset in cycle 0: ineligible in cycles 1..=7, eligible from 8 with exact runs
        for t in 1..=7 {
            assert!(!m.step(&i).eligible, "cycle {t}");
        }
        let o = m.step(&i);
        assert!(o.eligible);
        assert_eq!((o.run_vgpr0, o.run_sgpr0, o.run_sgpr1), (100, 8, 64));
        assert_eq!((o.run_lds, o.run_vgpr1), (3, 0));
        // write VGPR 1 at the end of cycle w: ineligible for K cycles from w + 1
        i.change = 1 << 1;
        assert!(m.step(&i).eligible);
        i.change = 0;
        i.vgpr1 = 0b1011;
        for _ in 0..RUN_CACHE_K {
            assert!(!m.step(&i).eligible);
        }
        let o = m.step(&i);
        assert!(o.eligible);
        assert_eq!(o.run_vgpr1, 2);
    }

    #[test]
    fn pipelined_refresh_takes_12_cycles_and_redoes_a_slot_changed_in_flight() {
        let cfg = RunCacheConfig::full();
        assert_eq!((pipe_delay(128), pipe_refresh_latency(128)), (5, 12));
        assert_eq!((pipe_delay(16), pipe_refresh_latency(16)), (3, 10));
        let mut m = RunCacheModel::pipelined(cfg);
        assert_eq!(m.k(), 12);
        m.reset();
        let mut i = RunCacheIn {
            vgpr0: (1 << 100) - 1,
            vgpr1: 0b111,
            ..Default::default()
        };
        // reset in cycle 0: ineligible in 1..=12; slot 0 picked in 1 is visible from 1 + 6
        for t in 1..=12 {
            let o = m.step(&i);
            assert!(!o.eligible, "cycle {t}");
            assert_eq!(o.run_vgpr0, if t >= 7 { 100 } else { 0 }, "cycle {t}");
        }
        let o = m.step(&i);
        assert!(o.eligible);
        assert_eq!((o.run_vgpr0, o.run_vgpr1), (100, 3));
        // VGPR 0 written in w (picked in w + 1), written again in w + 3 while in flight
        i.change = 1;
        m.step(&i);
        i.vgpr0 = 0b1;
        i.change = 0;
        m.step(&i); // w + 1: pick of slot 0 on 0b1
        m.step(&i);
        i.change = 1;
        m.step(&i); // w + 3: change while slot 0 is in flight
        i.change = 0;
        i.vgpr0 = 0b11;
        let mut seen = vec![];
        for _ in 0..12 {
            let o = m.step(&i);
            assert!(!o.eligible);
            seen.push(o.run_vgpr0);
        }
        // the in-flight result (1) landed, then the re-pick's (2)
        assert!(seen.contains(&1), "{seen:?}");
        let o = m.step(&i);
        assert!(o.eligible);
        assert_eq!(o.run_vgpr0, 2);
    }
}

// -------------------------------------------------------------------------------------------
// Head needs + head × module matcher (design blocks 2 and 3), full config
// -------------------------------------------------------------------------------------------
//
// 4 heads × 16 modules × 4 units. A head's WG (waves 0..=64, VGPR / SGPR blocks per wave,
// LDS blocks) is registered (block 2: q0 = waves div 4, r = waves mod 4 and the products), then
// matched against every module's cached runs, free wave slots and split pointer (block 3):
// unit u takes q0 + 1 waves iff (u − ptr) mod 4 < r, else q0, and fits iff its free slots,
// cached VGPR run and cached SGPR run cover its share; the module fits iff all four units fit
// and its cached LDS run ≥ lds. Outputs of cycle t: heads of t − 2 on the modules of t − 1.
// Inputs are in range: runs ≤ the map widths (128 / 64 / 48), slots ≤ 16, per-wave needs ≤ 255.

/// Heads and modules of the matcher (the full config's channels and modules).
pub const MATCH_HEADS: usize = 4;
pub const MATCH_MODULES: usize = 16;

/// A channel head as the matcher sees it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MatchHead {
    pub valid: bool,
    /// Waves of the WG (0..=64).
    pub waves: usize,
    /// VGPR blocks per wave (0..=255).
    pub vgpr: usize,
    /// SGPR blocks per wave (0..=255).
    pub sgpr: usize,
    /// LDS blocks of the WG (0..=255).
    pub lds: usize,
}

/// A module as the matcher sees it: its run cache's outputs, free wave slots, split pointer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MatchModule {
    pub run_vgpr: [usize; 4],
    pub run_sgpr: [usize; 4],
    pub run_lds: usize,
    /// Free wave slots per unit (0..=16).
    pub slots: [usize; 4],
    /// Split pointer (0..4).
    pub ptr: usize,
    pub eligible: bool,
}

/// One cycle's matcher inputs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MatcherIn {
    pub reset: bool,
    pub heads: [MatchHead; MATCH_HEADS],
    pub modules: [MatchModule; MATCH_MODULES],
}

crate::reset_by_field!(MatcherIn);

/// One cycle's matcher outputs: bit 16c + m.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MatcherOut {
    pub fit: u64,
    pub fit_eligible: u64,
}

/// Head `h` fits module `m` on its cached runs (SPEC step 3 with runs for maps).
pub fn module_fits(h: &MatchHead, m: &MatchModule) -> bool {
    let (q0, r) = (h.waves / 4, h.waves % 4);
    m.run_lds >= h.lds
        && (0..4).all(|u| {
            let share = q0 + usize::from((u + 4 - m.ptr % 4) % 4 < r);
            m.slots[u] >= share
                && m.run_vgpr[u] >= share * h.vgpr
                && m.run_sgpr[u] >= share * h.sgpr
        })
}

/// Cycle model of the matcher.
#[derive(Clone, Debug, Default)]
pub struct MatcherModel {
    needs: [MatchHead; MATCH_HEADS],
    out: MatcherOut,
}

impl crate::CycleModel for MatcherModel {
    type In = MatcherIn;
    type Out = MatcherOut;

    fn reset(&mut self) {
        self.step(&<MatcherIn as crate::ResetInput>::reset_input());
    }

    fn step(&mut self, i: &MatcherIn) -> MatcherOut {
        let out = self.out.clone();
        let mut next = MatcherOut::default();
        if !i.reset {
            for (c, h) in self.needs.iter().enumerate() {
                for (m, md) in i.modules.iter().enumerate() {
                    if h.valid && module_fits(h, md) {
                        next.fit |= 1 << (16 * c + m);
                        if md.eligible {
                            next.fit_eligible |= 1 << (16 * c + m);
                        }
                    }
                }
            }
        }
        self.out = next;
        self.needs = i.heads;
        if i.reset {
            for h in &mut self.needs {
                h.valid = false;
            }
        }
        out
    }
}

// -------------------------------------------------------------------------------------------
// Map RAM (design block 6, build step 1)
// -------------------------------------------------------------------------------------------
//
// ## Map RAM: the free maps of 16 modules with two read-modify-write ports
// The state is an array of [`MAP_RAM_MODULES`] × 9 maps (VGPR u0..u3, SGPR u0..u3, LDS; widths
// from a [`RunCacheConfig`]; 1 = free). Per cycle:
// - the output is the nine maps of the **previous** cycle's `rd_module` as they were at the
//   start of that cycle (a registered read: the writes of the read's own cycle are not seen;
//   all free in the first cycle);
// - port A (`alloc_en`): module `alloc_module`'s maps become `cur & ~alloc` at the end of the
//   cycle; port F (`free_en`): module `free_module`'s become `cur | freed`; both on one module:
//   `cur & ~alloc | freed` (merged into A);
// - `reset`: every map of every module free; the cycle's writes are dropped (its read still
//   shows the maps before the reset).
// The power-up state is the reset state.

/// Modules (entries) of the map RAM: the full config's 16.
pub const MAP_RAM_MODULES: usize = 16;

/// One cycle's inputs of the map RAM (map masks: 1 = a block of that map; ports A and F).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MapRamIn {
    pub reset: bool,
    pub alloc_en: bool,
    pub alloc_module: u8,
    pub alloc_vgpr0: u128,
    pub alloc_vgpr1: u128,
    pub alloc_vgpr2: u128,
    pub alloc_vgpr3: u128,
    pub alloc_sgpr0: u128,
    pub alloc_sgpr1: u128,
    pub alloc_sgpr2: u128,
    pub alloc_sgpr3: u128,
    pub alloc_lds: u128,
    pub free_en: bool,
    pub free_module: u8,
    pub free_vgpr0: u128,
    pub free_vgpr1: u128,
    pub free_vgpr2: u128,
    pub free_vgpr3: u128,
    pub free_sgpr0: u128,
    pub free_sgpr1: u128,
    pub free_sgpr2: u128,
    pub free_sgpr3: u128,
    pub free_lds: u128,
    pub rd_module: u8,
}

impl MapRamIn {
    /// Port A's mask of map `j` (0..4 VGPR, 4..8 SGPR, 8 LDS).
    pub fn alloc(&self, j: usize) -> u128 {
        [
            self.alloc_vgpr0,
            self.alloc_vgpr1,
            self.alloc_vgpr2,
            self.alloc_vgpr3,
            self.alloc_sgpr0,
            self.alloc_sgpr1,
            self.alloc_sgpr2,
            self.alloc_sgpr3,
            self.alloc_lds,
        ][j]
    }
    /// Port F's mask of map `j`.
    pub fn free(&self, j: usize) -> u128 {
        [
            self.free_vgpr0,
            self.free_vgpr1,
            self.free_vgpr2,
            self.free_vgpr3,
            self.free_sgpr0,
            self.free_sgpr1,
            self.free_sgpr2,
            self.free_sgpr3,
            self.free_lds,
        ][j]
    }
    /// Set port A's mask of map `j`.
    pub fn set_alloc(&mut self, j: usize, v: u128) {
        *[
            &mut self.alloc_vgpr0,
            &mut self.alloc_vgpr1,
            &mut self.alloc_vgpr2,
            &mut self.alloc_vgpr3,
            &mut self.alloc_sgpr0,
            &mut self.alloc_sgpr1,
            &mut self.alloc_sgpr2,
            &mut self.alloc_sgpr3,
            &mut self.alloc_lds,
        ][j] = v;
    }
    /// Set port F's mask of map `j`.
    pub fn set_free(&mut self, j: usize, v: u128) {
        *[
            &mut self.free_vgpr0,
            &mut self.free_vgpr1,
            &mut self.free_vgpr2,
            &mut self.free_vgpr3,
            &mut self.free_sgpr0,
            &mut self.free_sgpr1,
            &mut self.free_sgpr2,
            &mut self.free_sgpr3,
            &mut self.free_lds,
        ][j] = v;
    }
}

crate::reset_by_field!(MapRamIn);

/// One cycle's output of the map RAM: module `rd_module`'s maps (1 = free).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MapRamOut {
    pub rd_vgpr0: u128,
    pub rd_vgpr1: u128,
    pub rd_vgpr2: u128,
    pub rd_vgpr3: u128,
    pub rd_sgpr0: u128,
    pub rd_sgpr1: u128,
    pub rd_sgpr2: u128,
    pub rd_sgpr3: u128,
    pub rd_lds: u128,
}

impl MapRamOut {
    /// The nine maps in order (0..4 VGPR, 4..8 SGPR, 8 LDS).
    pub fn maps(&self) -> [u128; 9] {
        [
            self.rd_vgpr0,
            self.rd_vgpr1,
            self.rd_vgpr2,
            self.rd_vgpr3,
            self.rd_sgpr0,
            self.rd_sgpr1,
            self.rd_sgpr2,
            self.rd_sgpr3,
            self.rd_lds,
        ]
    }
    /// The output showing `m`.
    pub fn from_maps(m: &[u128; 9]) -> Self {
        Self {
            rd_vgpr0: m[0],
            rd_vgpr1: m[1],
            rd_vgpr2: m[2],
            rd_vgpr3: m[3],
            rd_sgpr0: m[4],
            rd_sgpr1: m[5],
            rd_sgpr2: m[6],
            rd_sgpr3: m[7],
            rd_lds: m[8],
        }
    }
}

/// Cycle model of the map RAM: 16 × 9 maps and the two read-modify-write ports.
#[derive(Clone, Debug)]
pub struct MapRamModel {
    pub cfg: RunCacheConfig,
    maps: [[u128; 9]; MAP_RAM_MODULES],
    /// The read requested in the previous cycle.
    read: MapRamOut,
}

impl MapRamModel {
    /// Every map free (the power-up and reset state).
    pub fn new(cfg: RunCacheConfig) -> Self {
        cfg.validate();
        let mut m = Self {
            cfg,
            maps: [[0; 9]; MAP_RAM_MODULES],
            read: MapRamOut::default(),
        };
        m.free_all();
        m.read = MapRamOut::from_maps(&m.maps[0]);
        m
    }
    fn free_all(&mut self) {
        let full: [u128; 9] = std::array::from_fn(|j| low_mask(self.cfg.map_width(j)));
        self.maps = [full; MAP_RAM_MODULES];
    }
    /// The maps of module `m` now.
    pub fn maps(&self, m: usize) -> [u128; 9] {
        self.maps[m]
    }
}

impl crate::CycleModel for MapRamModel {
    type In = MapRamIn;
    type Out = MapRamOut;

    fn reset(&mut self) {
        self.step(&<MapRamIn as crate::ResetInput>::reset_input());
    }

    fn step(&mut self, i: &MapRamIn) -> MapRamOut {
        let out = std::mem::replace(
            &mut self.read,
            MapRamOut::from_maps(&self.maps[i.rd_module as usize % MAP_RAM_MODULES]),
        );
        if i.reset {
            self.free_all();
            return out;
        }
        let a = i.alloc_module as usize % MAP_RAM_MODULES;
        let f = i.free_module as usize % MAP_RAM_MODULES;
        let merge = i.alloc_en && i.free_en && a == f;
        for j in 0..9 {
            let w = low_mask(self.cfg.map_width(j));
            if i.alloc_en {
                let freed = if merge { i.free(j) } else { 0 };
                self.maps[a][j] = (self.maps[a][j] & !i.alloc(j) | freed) & w;
            }
            if i.free_en && !merge {
                self.maps[f][j] = (self.maps[f][j] | i.free(j)) & w;
            }
        }
        out
    }
}

// -------------------------------------------------------------------------------------------
// Map RAM with the runs refreshed from its write stream (design block 6, build step 2)
// -------------------------------------------------------------------------------------------
//
// ## Write refresh: the map RAM plus 16 × 9 run registers and an eligibility countdown
// The map RAM as above; besides, per module m, its nine maps' longest free runs and `eligible`:
// - an accepted request on m in cycle w (port A, or port F unless merged; none in a reset
//   cycle) loads m's countdown with K = [`write_refresh_latency`] (7 at full widths): m is
//   ineligible in w + 1 .. w + K;
// - the runs of m's maps after that request (M(w + 1)) land at the end of w + K (visible from
//   w + K + 1): the word MapRam writes at the end of w + 1 is searched by a D-stage pipeline
//   (D = [`pipe_delay`]) and registered once more, so every request's runs land in request
//   order;
// - `reset`: every run its map's width (all free), every countdown K, nothing in flight lands.
// The power-up state: runs 0, every module eligible (judged only after the first reset).

/// Refresh latency of the write-stream refresh (`hdl::dispatcher_scale::MapRefresh`):
/// [`pipe_delay`] + 2 (the word is written one cycle after its request, and stage F's runs are
/// registered once more before they land; session 10): 7 at vgpr 128, 5 at 16.
pub const fn write_refresh_latency(vgpr: usize) -> usize {
    pipe_delay(vgpr) + 2
}

/// One cycle's outputs of the write refresh: the map RAM's read (`rd_*`), per map j every
/// module's run packed (`runs_*`: module m in bits KV·m .., KV = [`RunCacheConfig::run_bits`])
/// and `eligible` (bit m).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MapRefreshOut {
    pub rd_vgpr0: u128,
    pub rd_vgpr1: u128,
    pub rd_vgpr2: u128,
    pub rd_vgpr3: u128,
    pub rd_sgpr0: u128,
    pub rd_sgpr1: u128,
    pub rd_sgpr2: u128,
    pub rd_sgpr3: u128,
    pub rd_lds: u128,
    pub runs_vgpr0: u128,
    pub runs_vgpr1: u128,
    pub runs_vgpr2: u128,
    pub runs_vgpr3: u128,
    pub runs_sgpr0: u128,
    pub runs_sgpr1: u128,
    pub runs_sgpr2: u128,
    pub runs_sgpr3: u128,
    pub runs_lds: u128,
    pub eligible: u16,
}

impl MapRefreshOut {
    /// The map RAM's part.
    pub fn map(&self) -> MapRamOut {
        MapRamOut {
            rd_vgpr0: self.rd_vgpr0,
            rd_vgpr1: self.rd_vgpr1,
            rd_vgpr2: self.rd_vgpr2,
            rd_vgpr3: self.rd_vgpr3,
            rd_sgpr0: self.rd_sgpr0,
            rd_sgpr1: self.rd_sgpr1,
            rd_sgpr2: self.rd_sgpr2,
            rd_sgpr3: self.rd_sgpr3,
            rd_lds: self.rd_lds,
        }
    }
    /// The packed runs of map j (0..4 VGPR, 4..8 SGPR, 8 LDS).
    pub fn runs(&self, j: usize) -> u128 {
        [
            self.runs_vgpr0,
            self.runs_vgpr1,
            self.runs_vgpr2,
            self.runs_vgpr3,
            self.runs_sgpr0,
            self.runs_sgpr1,
            self.runs_sgpr2,
            self.runs_sgpr3,
            self.runs_lds,
        ][j]
    }
    /// Mutable packed runs of map j.
    pub fn runs_mut(&mut self, j: usize) -> &mut u128 {
        [
            &mut self.runs_vgpr0,
            &mut self.runs_vgpr1,
            &mut self.runs_vgpr2,
            &mut self.runs_vgpr3,
            &mut self.runs_sgpr0,
            &mut self.runs_sgpr1,
            &mut self.runs_sgpr2,
            &mut self.runs_sgpr3,
            &mut self.runs_lds,
        ]
        .into_iter()
        .nth(j)
        .expect("map index")
    }
    /// Module m's run of map j, with `kv` bits per run.
    pub fn run(&self, m: usize, j: usize, kv: usize) -> usize {
        (self.runs(j) >> (kv * m) & ((1 << kv) - 1)) as usize
    }
    /// Build from the read, the runs `runs[m][j]` and `eligible`.
    pub fn from_parts(
        map: &MapRamOut,
        runs: &[[u8; 9]; MAP_RAM_MODULES],
        kv: usize,
        eligible: u16,
    ) -> Self {
        let mut o = Self {
            rd_vgpr0: map.rd_vgpr0,
            rd_vgpr1: map.rd_vgpr1,
            rd_vgpr2: map.rd_vgpr2,
            rd_vgpr3: map.rd_vgpr3,
            rd_sgpr0: map.rd_sgpr0,
            rd_sgpr1: map.rd_sgpr1,
            rd_sgpr2: map.rd_sgpr2,
            rd_sgpr3: map.rd_sgpr3,
            rd_lds: map.rd_lds,
            eligible,
            ..Default::default()
        };
        for j in 0..9 {
            *o.runs_mut(j) = runs
                .iter()
                .enumerate()
                .fold(0, |a, (m, r)| a | (r[j] as u128) << (kv * m));
        }
        o
    }
}

/// Cycle model of the write refresh (see above).
#[derive(Clone, Debug)]
pub struct MapRefreshModel {
    pub ram: MapRamModel,
    runs: [[u8; 9]; MAP_RAM_MODULES],
    stale: [usize; MAP_RAM_MODULES],
    k: usize,
    /// Requests in flight: (the cycle at whose end they land, module, runs).
    flight: std::collections::VecDeque<(usize, usize, [u8; 9])>,
    t: usize,
}

impl MapRefreshModel {
    pub fn new(cfg: RunCacheConfig) -> Self {
        Self {
            ram: MapRamModel::new(cfg),
            runs: [[0; 9]; MAP_RAM_MODULES],
            stale: [0; MAP_RAM_MODULES],
            k: write_refresh_latency(cfg.vgpr),
            flight: Default::default(),
            t: 0,
        }
    }
    /// The refresh latency K.
    pub fn k(&self) -> usize {
        self.k
    }
    fn runs_of(&self, maps: &[u128; 9]) -> [u8; 9] {
        std::array::from_fn(|j| {
            let w = self.ram.cfg.map_width(j);
            max_run(maps[j] & low_mask(w), w) as u8
        })
    }
}

impl crate::CycleModel for MapRefreshModel {
    type In = MapRamIn;
    type Out = MapRefreshOut;

    fn reset(&mut self) {
        self.step(&<MapRamIn as crate::ResetInput>::reset_input());
    }

    fn step(&mut self, i: &MapRamIn) -> MapRefreshOut {
        let t = self.t;
        self.t += 1;
        let eligible = (0..MAP_RAM_MODULES)
            .filter(|&m| self.stale[m] == 0)
            .fold(0, |e, m| e | 1 << m);
        let read = self.ram.step(i);
        let out = MapRefreshOut::from_parts(&read, &self.runs, self.ram.cfg.run_bits(), eligible);
        if i.reset {
            let free = self.runs_of(&self.ram.maps(0));
            self.runs = [free; MAP_RAM_MODULES];
            self.stale = [self.k; MAP_RAM_MODULES];
            self.flight.clear();
            return out;
        }
        while self.flight.front().is_some_and(|f| f.0 == t) {
            let (_, m, r) = self.flight.pop_front().expect("front");
            self.runs[m] = r;
        }
        let a = i.alloc_module as usize % MAP_RAM_MODULES;
        let f = i.free_module as usize % MAP_RAM_MODULES;
        let mut req = 0u32;
        if i.alloc_en {
            req |= 1 << a;
        }
        if i.free_en && !(i.alloc_en && a == f) {
            req |= 1 << f;
        }
        for m in 0..MAP_RAM_MODULES {
            if req >> m & 1 == 1 {
                self.stale[m] = self.k;
                let r = self.runs_of(&self.ram.maps(m));
                self.flight.push_back((t + self.k, m, r));
            } else {
                self.stale[m] = self.stale[m].saturating_sub(1);
            }
        }
        out
    }
}

// -------------------------------------------------------------------------------------------
// Allocator (design block 6, build step 3): first fit of the nine regions, committed to port A
// -------------------------------------------------------------------------------------------
//
// ## Allocator: the write refresh plus a request port
// Port A of the map RAM is driven by the allocator; port F (releases) from outside. A request
// (module m, nine needs) in cycle t that is not a reset cycle:
// - is **refused** (record `err`, nothing changes) iff an accepted request named m in
//   t − LA .. t − 1 (LA = [`allocator_latency`]);
// - otherwise reads m's maps M(t) (MapRam's registered read: `rd_*` in t + 1) and gets, in
//   cycle t + LA, a record: `ok` iff every map j has a free run ≥ need j
//   ([`crate::run_finder::first_fit`]), then the nine bases (else 0) and port A's request in
//   t + LA with the regions [base, base + need) (the map RAM's and the refresh's rules apply);
// - `reset` in cycle w: nothing in flight after w, no module busy (and the map RAM's and
//   refresh's reset); the record due in w is shown (the outputs of w are the state before the
//   reset) but not committed.

/// Request → record latency of the allocator (`hdl::dispatcher_scale::Allocator`): the
/// registered read, the fit's input register, a tree of log2(vgpr) − 2 stages and its two
/// output stages: log2(vgpr) + 2 (9 at 128, 6 at 16).
pub const fn allocator_latency(vgpr: usize) -> usize {
    vgpr.trailing_zeros() as usize + 2
}

/// One cycle's inputs of the allocator.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AllocatorIn {
    pub reset: bool,
    pub req_en: bool,
    pub req_module: u8,
    pub need_vgpr0: u8,
    pub need_vgpr1: u8,
    pub need_vgpr2: u8,
    pub need_vgpr3: u8,
    pub need_sgpr0: u8,
    pub need_sgpr1: u8,
    pub need_sgpr2: u8,
    pub need_sgpr3: u8,
    pub need_lds: u8,
    pub free_en: bool,
    pub free_module: u8,
    pub free_vgpr0: u128,
    pub free_vgpr1: u128,
    pub free_vgpr2: u128,
    pub free_vgpr3: u128,
    pub free_sgpr0: u128,
    pub free_sgpr1: u128,
    pub free_sgpr2: u128,
    pub free_sgpr3: u128,
    pub free_lds: u128,
}

impl AllocatorIn {
    /// The nine needs in map order.
    pub fn needs(&self) -> [u8; 9] {
        [
            self.need_vgpr0,
            self.need_vgpr1,
            self.need_vgpr2,
            self.need_vgpr3,
            self.need_sgpr0,
            self.need_sgpr1,
            self.need_sgpr2,
            self.need_sgpr3,
            self.need_lds,
        ]
    }
    /// Set the nine needs.
    pub fn set_needs(&mut self, n: [u8; 9]) {
        [
            self.need_vgpr0,
            self.need_vgpr1,
            self.need_vgpr2,
            self.need_vgpr3,
            self.need_sgpr0,
            self.need_sgpr1,
            self.need_sgpr2,
            self.need_sgpr3,
            self.need_lds,
        ] = n;
    }
    /// The map-RAM input with this cycle's release and read (port A idle).
    pub fn map_in(&self) -> MapRamIn {
        let mut i = MapRamIn {
            reset: self.reset,
            free_en: self.free_en,
            free_module: self.free_module,
            rd_module: self.req_module,
            ..Default::default()
        };
        i.free_vgpr0 = self.free_vgpr0;
        i.free_vgpr1 = self.free_vgpr1;
        i.free_vgpr2 = self.free_vgpr2;
        i.free_vgpr3 = self.free_vgpr3;
        i.free_sgpr0 = self.free_sgpr0;
        i.free_sgpr1 = self.free_sgpr1;
        i.free_sgpr2 = self.free_sgpr2;
        i.free_sgpr3 = self.free_sgpr3;
        i.free_lds = self.free_lds;
        i
    }
}

crate::reset_by_field!(AllocatorIn);

/// One cycle's outputs of the allocator: the read, the runs and eligibility of the write
/// refresh, and the record.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct AllocatorOut {
    pub rd_vgpr0: u128,
    pub rd_vgpr1: u128,
    pub rd_vgpr2: u128,
    pub rd_vgpr3: u128,
    pub rd_sgpr0: u128,
    pub rd_sgpr1: u128,
    pub rd_sgpr2: u128,
    pub rd_sgpr3: u128,
    pub rd_lds: u128,
    pub runs_vgpr0: u128,
    pub runs_vgpr1: u128,
    pub runs_vgpr2: u128,
    pub runs_vgpr3: u128,
    pub runs_sgpr0: u128,
    pub runs_sgpr1: u128,
    pub runs_sgpr2: u128,
    pub runs_sgpr3: u128,
    pub runs_lds: u128,
    pub eligible: u16,
    pub rec_valid: bool,
    pub rec_err: bool,
    pub rec_ok: bool,
    pub rec_module: u8,
    pub rec_base_vgpr0: u8,
    pub rec_base_vgpr1: u8,
    pub rec_base_vgpr2: u8,
    pub rec_base_vgpr3: u8,
    pub rec_base_sgpr0: u8,
    pub rec_base_sgpr1: u8,
    pub rec_base_sgpr2: u8,
    pub rec_base_sgpr3: u8,
    pub rec_base_lds: u8,
    /// The nine regions committed with the record (`[base, base + need)`; 0 unless `rec_ok`).
    pub rec_mask_vgpr0: u128,
    pub rec_mask_vgpr1: u128,
    pub rec_mask_vgpr2: u128,
    pub rec_mask_vgpr3: u128,
    pub rec_mask_sgpr0: u128,
    pub rec_mask_sgpr1: u128,
    pub rec_mask_sgpr2: u128,
    pub rec_mask_sgpr3: u128,
    pub rec_mask_lds: u128,
}

/// A getter and a setter of nine per-map fields as one array in map order (VGPR u0..u3, SGPR
/// u0..u3, LDS), from one list of the fields.
macro_rules! nine_maps {
    ($(#[$gd:meta])* $get:ident, $(#[$sd:meta])* $set:ident, $t:ty, [$($f:ident),* $(,)?]) => {
        $(#[$gd])*
        pub fn $get(&self) -> [$t; 9] {
            [$(self.$f),*]
        }
        $(#[$sd])*
        pub fn $set(&mut self, v: [$t; 9]) {
            [$(self.$f),*] = v;
        }
    };
}

impl AllocatorOut {
    /// The write refresh's part.
    pub fn refresh(&self) -> MapRefreshOut {
        MapRefreshOut {
            rd_vgpr0: self.rd_vgpr0,
            rd_vgpr1: self.rd_vgpr1,
            rd_vgpr2: self.rd_vgpr2,
            rd_vgpr3: self.rd_vgpr3,
            rd_sgpr0: self.rd_sgpr0,
            rd_sgpr1: self.rd_sgpr1,
            rd_sgpr2: self.rd_sgpr2,
            rd_sgpr3: self.rd_sgpr3,
            rd_lds: self.rd_lds,
            runs_vgpr0: self.runs_vgpr0,
            runs_vgpr1: self.runs_vgpr1,
            runs_vgpr2: self.runs_vgpr2,
            runs_vgpr3: self.runs_vgpr3,
            runs_sgpr0: self.runs_sgpr0,
            runs_sgpr1: self.runs_sgpr1,
            runs_sgpr2: self.runs_sgpr2,
            runs_sgpr3: self.runs_sgpr3,
            runs_lds: self.runs_lds,
            eligible: self.eligible,
        }
    }
    nine_maps!(
        /// The nine bases in map order.
        bases,
        /// Set the nine bases.
        set_bases,
        u8,
        [
            rec_base_vgpr0,
            rec_base_vgpr1,
            rec_base_vgpr2,
            rec_base_vgpr3,
            rec_base_sgpr0,
            rec_base_sgpr1,
            rec_base_sgpr2,
            rec_base_sgpr3,
            rec_base_lds
        ]
    );
    nine_maps!(
        /// The nine regions in map order.
        masks,
        /// Set the nine regions.
        set_masks,
        u128,
        [
            rec_mask_vgpr0,
            rec_mask_vgpr1,
            rec_mask_vgpr2,
            rec_mask_vgpr3,
            rec_mask_sgpr0,
            rec_mask_sgpr1,
            rec_mask_sgpr2,
            rec_mask_sgpr3,
            rec_mask_lds
        ]
    );
    fn from_refresh(r: MapRefreshOut) -> Self {
        Self {
            rd_vgpr0: r.rd_vgpr0,
            rd_vgpr1: r.rd_vgpr1,
            rd_vgpr2: r.rd_vgpr2,
            rd_vgpr3: r.rd_vgpr3,
            rd_sgpr0: r.rd_sgpr0,
            rd_sgpr1: r.rd_sgpr1,
            rd_sgpr2: r.rd_sgpr2,
            rd_sgpr3: r.rd_sgpr3,
            rd_lds: r.rd_lds,
            runs_vgpr0: r.runs_vgpr0,
            runs_vgpr1: r.runs_vgpr1,
            runs_vgpr2: r.runs_vgpr2,
            runs_vgpr3: r.runs_vgpr3,
            runs_sgpr0: r.runs_sgpr0,
            runs_sgpr1: r.runs_sgpr1,
            runs_sgpr2: r.runs_sgpr2,
            runs_sgpr3: r.runs_sgpr3,
            runs_lds: r.runs_lds,
            eligible: r.eligible,
            ..Default::default()
        }
    }
}

/// A record in flight: the cycle it appears in, module, refused, ok, bases, region masks.
#[derive(Clone, Debug)]
struct AllocFlight {
    at: usize,
    module: usize,
    err: bool,
    ok: bool,
    bases: [u8; 9],
    masks: [u128; 9],
}

/// Cycle model of the allocator (see above).
#[derive(Clone, Debug)]
pub struct AllocatorModel {
    pub refresh: MapRefreshModel,
    la: usize,
    /// Per module: the last cycle it is busy (an accepted request in flight).
    busy_until: [Option<usize>; MAP_RAM_MODULES],
    flight: std::collections::VecDeque<AllocFlight>,
    t: usize,
}

impl AllocatorModel {
    pub fn new(cfg: RunCacheConfig) -> Self {
        Self {
            refresh: MapRefreshModel::new(cfg),
            la: allocator_latency(cfg.vgpr),
            busy_until: [None; MAP_RAM_MODULES],
            flight: Default::default(),
            t: 0,
        }
    }
    /// Request → record latency.
    pub fn latency(&self) -> usize {
        self.la
    }
}

impl crate::CycleModel for AllocatorModel {
    type In = AllocatorIn;
    type Out = AllocatorOut;

    fn reset(&mut self) {
        self.step(&<AllocatorIn as crate::ResetInput>::reset_input());
    }

    fn step(&mut self, i: &AllocatorIn) -> AllocatorOut {
        let t = self.t;
        self.t += 1;
        let cfg = self.refresh.ram.cfg;
        let mut mi = i.map_in();
        let rec = if self.flight.front().is_some_and(|f| f.at == t) {
            self.flight.pop_front()
        } else {
            None
        };
        if let Some(f) = rec.as_ref().filter(|f| f.ok && !i.reset) {
            mi.alloc_en = true;
            mi.alloc_module = f.module as u8;
            for j in 0..9 {
                mi.set_alloc(j, f.masks[j]);
            }
        }
        // the request reads the maps at the start of this cycle
        let m = i.req_module as usize % MAP_RAM_MODULES;
        let maps = self.refresh.ram.maps(m);
        let mut out = AllocatorOut::from_refresh(self.refresh.step(&mi));
        // (a reset cycle shows the record due in it, the state before the reset, but the map
        // RAM does not commit it)
        if let Some(f) = rec {
            out.rec_valid = true;
            out.rec_err = f.err;
            out.rec_ok = f.ok;
            out.rec_module = f.module as u8;
            out.set_bases(f.bases);
            out.set_masks(f.masks);
        }
        if i.reset {
            self.flight.clear();
            self.busy_until = [None; MAP_RAM_MODULES];
            return out;
        }
        if i.req_en {
            let err = self.busy_until[m].is_some_and(|u| t <= u);
            let needs = i.needs();
            let fits: Vec<Option<usize>> = (0..9)
                .map(|j| crate::run_finder::first_fit(maps[j], cfg.map_width(j), needs[j] as usize))
                .collect();
            let ok = !err && fits.iter().all(|f| f.is_some());
            let mut f = AllocFlight {
                at: t + self.la,
                module: m,
                err,
                ok,
                bases: [0; 9],
                masks: [0; 9],
            };
            if ok {
                for j in 0..9 {
                    let b = fits[j].expect("fits");
                    f.bases[j] = b as u8;
                    f.masks[j] = low_mask(needs[j] as usize) << b;
                }
            }
            if !err {
                self.busy_until[m] = Some(t + self.la);
            }
            self.flight.push_back(f);
        }
        out
    }
}
