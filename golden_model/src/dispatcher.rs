//! Workgroup dispatcher (SPEC Unit 3, seed 003 embodiments 1–3 and 8–10): the executable spec.
//!
//! Workgroups (WGs) arrive per task channel into in-order FIFOs; every cycle the heads of all
//! channels are matched against all execution modules in parallel, the best head that fits is
//! dispatched to one module with first-fit contiguous register/LDS regions, and a completion port
//! frees exactly what a WG took. See `hdl::dispatcher` for the port contract; this file decides the
//! behaviour cycle by cycle and doubles as the fast co-model of the evaluation
//! ([`eval`]).
//!
//! ## One cycle: a three-stage pipeline
//! Everything a cycle changes takes effect at the rising edge; the dispatch record and the error
//! strobe are registered (visible in the cycle after they are produced); `push_ready` is
//! combinational (`push_channel`'s FIFO is not full). A decision passes three stages:
//!
//! - **Match** (cycle t): every channel's head (as presented, step 1) against every module
//!   (steps 2–3) from the state at the start of cycle t: the wave split by the module's pointer,
//!   and per unit / LDS whether a contiguous first-fit region exists. Registered.
//! - **Decide** (cycle t+1): steps 4–5 over the match results of cycle t, with the window, marks
//!   and LFSR of cycle t+1. A channel whose head was replaced at the edge t→t+1 (a pop, or entry
//!   into split mode) is not a candidate in t+1, and neither is a module decided in cycle t or
//!   t−1 (its allocation is not yet in the maps the match stage of cycle t read). The slot is
//!   the lowest one that is neither in flight nor reserved by the decision being committed in
//!   t+1. At the edge: the head is popped (or its split count decremented), the module's pointer
//!   moves, the marks change, the slot is reserved.
//! - **Commit** (cycle t+2): the first-fit regions of the decision (lowest start in each map,
//!   the same as in cycle t's maps: they changed only by frees and by other modules) are taken
//!   at the edge, the slot enters the in-flight table, the record is registered (visible in
//!   t+3).
//!
//! Latency: a WG pushed in cycle t into an empty FIFO is a head in cycle t+1 and its record is
//! visible in cycle t+4 (head → record: 3 cycles). Throughput: a module takes at most one
//! decision every 3 cycles and a channel one every 2, so the board (2 modules) sustains 2
//! dispatches per 3 cycles from two channels, 1 per 2 from one channel; P ≥ 3 modules and R ≥ 2
//! channels sustain one per cycle (the full config). A completion in cycle t frees its slot at the edge t→t+1 and its blocks at the edge
//! t+1→t+2 (the in-flight table is a block RAM read in the cycle after the completion).
//! Policy scores come from older state: see step 5.
//!
//! 1. **Heads** (a1, \[0044\]): the head of every non-empty channel FIFO is a candidate. A head in
//!    *split mode* (step 8) presents itself as a one-wave sub-WG at the lowest priority S−1.
//! 2. **Wave split** (emb. 8, \[0226\]–\[0234\]): n waves over Q units, `q_t = n div Q` (+1 for
//!    `t < n mod Q`), rotated by the module's pointer `ptr_m`: unit u receives `q[(u − ptr_m) mod Q]`.
//!    On a dispatch to module m, `ptr_m := (ptr_m + n) mod Q`, so the next WG's extra waves start on
//!    the unit after the last one loaded (ptr_m is the patent's tail pointer + 1, reset 0).
//! 3. **Match** (a3, a31–a32): unit u fits if its free wave slots ≥ q_u and its VGPR (SGPR) map
//!    has a contiguous free run ≥ q_u·vgpr (q_u·sgpr); the module fits if all its units fit and its
//!    LDS map has a free run ≥ lds. A need of 0 always fits (at base 0). **Eligibility** (SPEC
//!    "Patent scale", refresh latency K = [`DispatcherConfig::refresh_latency`]): a module whose
//!    maps changed in the last K cycles — an allocation committed or a completion's blocks
//!    released, counted from the cycle the new maps are visible — is not eligible in the match of
//!    that cycle (its cached runs are being refreshed): the decision skips it; a fit lost only to
//!    eligibility is no failure for step 8. Board K = 0 (always eligible: the board RTL), full
//!    K = [`FULL_REFRESH_LATENCY`]. The first-fit bases of step 6 are computed for the chosen head
//!    and module only, on the maps the match read.
//! 4. **Pick the WG**: among heads that fit at least one module, the smallest *effective rank*.
//!    Time windows (emb. 2): window y ∈ 0..Y lasts `win_len[y]` cycles (a length of 0 acts as 1);
//!    in window y, priority y has rank 0 and the others keep their order (p < y → p+1, p > y → p).
//!    Ties (a41/a42, one tied channel set T at that priority p): |T| = 1 → no mark changes;
//!    otherwise, if some channel of T has no mark for p, choose among the unmarked ones and mark
//!    the winner; else choose among T, keep the winner's mark and clear the other tied channels'
//!    marks for p. The random choice is [`lfsr_pick`]: scan the candidate set upwards from channel
//!    `lfsr mod R` (wrapping), take the first. The LFSR is 16-bit Galois, right-shifting,
//!    polynomial x¹⁶+x¹⁴+x¹³+x¹¹+1 (toggle mask 0xB400), seed 0xACE1, stepped every cycle.
//! 5. **Pick the module** among those that fit the chosen WG, by the `policy` register:
//!    0 `first` (lowest index); 1 `max_weighted_free` (emb. 9: largest
//!    `a_v·Σfree VGPR + a_s·Σfree SGPR + a_w·Σfree wave slots + a_l·free LDS`, free *counts* as
//!    the patent's counters \[0256\]; computed by a serial scorer, one product per cycle, see
//!    [`WeightedFree`]: the sums compared are a snapshot assembled over 4P cycles); 2
//!    `min_power_history` (emb. 10, see below; the sums compared are those of the state
//!    [`POLICY_LAG`] = 4 cycles before the decision). Ties → lowest index. (A fourth policy,
//!    round robin, exists only in the model for the evaluation baseline; writing 3 to the
//!    policy register is an error.)
//! 6. **Allocate** (a43–a45): first-fit (lowest start) regions in each unit's VGPR/SGPR map and the
//!    module's LDS map, wave slots taken, the lowest free in-flight slot records the allocation,
//!    one dispatch record (commit stage). When no slot is free nothing is decided.
//! 7. **Complete**: `done_slot` frees exactly the recorded regions and wave slots; the in-flight
//!    slot at the edge, the blocks one edge later. A slot is in flight from the cycle its record
//!    is visible; completing it earlier (or twice) is `IDLE_SLOT`.
//! 8. **Split after repeated failure** (emb. 3): counter g (16 bits) is cleared by a decision, and
//!    counts in a cycle without a decision in which some head exists, a slot is free, and every
//!    head has fresh match results (matched in the previous cycle, not replaced since) that fit
//!    no module at all (a fit lost only to the module exclusion is no failure); otherwise it
//!    holds; when it reaches `split_threshold` (≠ 0; 0 disables) every
//!    head that is `independent`, has ≥ 2 waves and is not yet split enters split mode (it is then
//!    dispatched as `n` one-wave sub-WGs at priority S−1, `disp_sub = 1`, each with the WG's full
//!    LDS size — conservative, a wave may use all LDS its WG declared — and leaves the FIFO with its
//!    last sub-WG), and g := 0 (also when no head could be split, as in \[0099\]).
//! 9. **Never-fits** (SPEC step 9): a pushed WG is rejected (accepted by the handshake, dropped,
//!    error strobed) if it has 0 waves, or cannot fit an empty module: `ceil(n/Q)` > wave slots, or
//!    `ceil(n/Q)·vgpr` > VGPR blocks, or `ceil(n/Q)·sgpr` > SGPR blocks, or lds > LDS blocks. This
//!    applies to independent WGs too (SPEC: it would block its channel).
//!
//! **Power history** (emb. 10, tumbling-window approximation of "the last nx cycles"): per module
//! `cur_m` accumulates `Σ_c b_c·retire[m][c]` every cycle (saturating at 0xFFFF, weights applied at
//! retire time); every `nx` cycles (`nx` = 0 acts as 1) `prev_m := cur_m` and `cur_m := 0`. The
//! score is `prev_m + cur_m`, i.e. between nx and 2·nx cycles of history.
//!
//! ## Register map (`cfg_we`, `cfg_addr`, `cfg_data[15:0]`; written at the edge)
//! | addr | name | reset | meaning |
//! |---|---|---|---|
//! | 0 | `POLICY` | 0 | module choice: 0 first, 1 max_weighted_free, 2 min_power_history (3 → `BAD_CFG`) |
//! | 1 | `SPLIT_THRESHOLD` | 256 | failed cycles before independent heads are split; 0 = never |
//! | 2..=5 | `WIN_LEN[0..4]` | 512, 256, 128, 128 | time-window lengths in cycles (0 acts as 1) |
//! | 6 | `FREE_WEIGHTS` | 0x1111 | a_h, 4 bits each: \[3:0\] VGPR, \[7:4\] SGPR, \[11:8\] wave slots, \[15:12\] LDS |
//! | 7 | `POWER_WEIGHTS` | 0x1111 | b_c, 4 bits each: class c at [4c+3:4c] |
//! | 8 | `POWER_WINDOW` | 1024 | nx, cycles per power-history window (0 acts as 1) |
//! | 9..=15 | — | — | `BAD_CFG`, nothing written |
//!
//! ## Error codes (`error_code`, registered with the `error` strobe, one per cycle)
//! 1 `NEVER_FITS`, 2 `ZERO_WAVES`, 3 `BAD_ID` (channel, priority or slot index out of range),
//! 4 `IDLE_SLOT` (completion of a slot not in flight, e.g. a double completion), 5 `BAD_CFG`.
//! The erroring request changes nothing. Several in one cycle: push beats completion beats config
//! (one code is reported; each request is still judged on its own, so a valid completion next to
//! a refused push takes effect). Registered outputs without their strobe are 0: every `disp_*`
//! field while `disp_valid` is low, `error_code` while `error` is low.

pub mod eval;
pub mod tagged;

use crate::{count_bits, index_bits, CycleModel};
use std::collections::VecDeque;

/// Error codes of the dispatcher (`error_code` port).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum DispError {
    /// The WG cannot fit even on an empty module (rejected at the FIFO input).
    NeverFits = 1,
    /// A WG with zero waves.
    ZeroWaves = 2,
    /// Channel, priority or slot index out of range.
    BadId = 3,
    /// Completion of an in-flight slot that is idle (unknown or already completed).
    IdleSlot = 4,
    /// Configuration write to an unmapped address or of a reserved value.
    BadCfg = 5,
}

/// Module choice policy (SPEC step 5; register `POLICY`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    /// Lowest fitting module index (baseline).
    First,
    /// Emb. 9: largest weighted sum of free resources.
    MaxWeightedFree,
    /// Emb. 10: smallest weighted retire history.
    MinPowerHistory,
    /// Evaluation baseline only (not reachable through the register map): rotating pointer.
    RoundRobin,
}

/// Construction-time parameters of the dispatcher.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DispatcherConfig {
    /// Task channels R, one WG FIFO each (1..=8).
    pub channels: usize,
    /// Depth of each channel FIFO (1..=16).
    pub fifo_depth: usize,
    /// Execution modules P (1..=16).
    pub modules: usize,
    /// Execution units Q per module (1..=4).
    pub units: usize,
    /// VGPR blocks per unit (1..=128).
    pub vgpr_blocks: usize,
    /// SGPR blocks per unit (1..=128).
    pub sgpr_blocks: usize,
    /// Wave slots per unit (1..=16).
    pub wave_slots: usize,
    /// LDS blocks per module (1..=128).
    pub lds_blocks: usize,
    /// Priority levels S (fixed at 4: the register map has 4 windows).
    pub prios: usize,
    /// Time windows Y (= S, patent \[0071\]).
    pub windows: usize,
    /// In-flight table entries (1..=64).
    pub slots: usize,
    /// Instruction classes per module on the retire input (4).
    pub classes: usize,
    /// Refresh latency K (SPEC "Patent scale"): a module whose settled maps changed within the
    /// last K cycles is treated as not fitting (its cached runs are being refreshed). 0 = the
    /// maps are matched directly (the board RTL). See [`Dispatcher`]'s step 3.
    pub refresh_latency: usize,
}

impl DispatcherConfig {
    /// Board config (exported as `dispatcher.v`): 2 channels × FIFO 4, 2 modules × 2 units,
    /// 16 VGPR / 8 SGPR blocks and 4 wave slots per unit, 16 LDS blocks, 4 priorities, 8 slots.
    pub const fn board() -> Self {
        Self {
            channels: 2,
            fifo_depth: 4,
            modules: 2,
            units: 2,
            vgpr_blocks: 16,
            sgpr_blocks: 8,
            wave_slots: 4,
            lds_blocks: 16,
            prios: 4,
            windows: 4,
            slots: 8,
            classes: 4,
            refresh_latency: 0,
        }
    }
    /// Full (patent-scale) config: 4 channels × FIFO 8, 16 modules × 4 units, 128 VGPR / 64 SGPR
    /// blocks and 16 wave slots per unit, 48 LDS blocks, 4 priorities, 64 slots.
    pub const fn full() -> Self {
        Self {
            channels: 4,
            fifo_depth: 8,
            modules: 16,
            units: 4,
            vgpr_blocks: 128,
            sgpr_blocks: 64,
            wave_slots: 16,
            lds_blocks: 48,
            prios: 4,
            windows: 4,
            slots: 64,
            classes: 4,
            refresh_latency: FULL_REFRESH_LATENCY,
        }
    }
    /// Largest WG: Q × wave slots. Derived.
    pub const fn max_waves(&self) -> usize {
        self.units * self.wave_slots
    }
    /// Width of `push_channel`. Derived.
    pub const fn channel_bits(&self) -> usize {
        index_bits(self.channels)
    }
    /// Width of `disp_module`. Derived.
    pub const fn module_bits(&self) -> usize {
        index_bits(self.modules)
    }
    /// Width of `push_prio`. Derived.
    pub const fn prio_bits(&self) -> usize {
        index_bits(self.prios)
    }
    /// Width of `push_waves`. Derived.
    pub const fn waves_bits(&self) -> usize {
        count_bits(self.max_waves())
    }
    /// Width of one unit's wave count in `disp_waves`. Derived.
    pub const fn unit_waves_bits(&self) -> usize {
        count_bits(self.wave_slots)
    }
    /// Width of `push_vgpr`. Derived.
    pub const fn vgpr_need_bits(&self) -> usize {
        count_bits(self.vgpr_blocks)
    }
    /// Width of `push_sgpr`. Derived.
    pub const fn sgpr_need_bits(&self) -> usize {
        count_bits(self.sgpr_blocks)
    }
    /// Width of `push_lds`. Derived.
    pub const fn lds_need_bits(&self) -> usize {
        count_bits(self.lds_blocks)
    }
    /// Width of one unit's VGPR base in `disp_vgpr_base`. Derived.
    pub const fn vgpr_base_bits(&self) -> usize {
        index_bits(self.vgpr_blocks)
    }
    /// Width of one unit's SGPR base. Derived.
    pub const fn sgpr_base_bits(&self) -> usize {
        index_bits(self.sgpr_blocks)
    }
    /// Width of `disp_lds_base`. Derived.
    pub const fn lds_base_bits(&self) -> usize {
        index_bits(self.lds_blocks)
    }
    /// Width of `disp_slot` / `done_slot`. Derived.
    pub const fn slot_bits(&self) -> usize {
        index_bits(self.slots)
    }

    /// Panics with a clear message when the configuration cannot be built.
    pub fn validate(&self) {
        let c = self;
        assert!(
            (1..=8).contains(&c.channels),
            "dispatcher: channels must be 1..=8, got {}",
            c.channels
        );
        assert!(
            (1..=16).contains(&c.fifo_depth),
            "dispatcher: fifo_depth must be 1..=16"
        );
        assert!(
            (1..=16).contains(&c.modules),
            "dispatcher: modules must be 1..=16, got {}",
            c.modules
        );
        assert!(
            (1..=4).contains(&c.units),
            "dispatcher: units must be 1..=4, got {}",
            c.units
        );
        assert!(
            (1..=128).contains(&c.vgpr_blocks),
            "dispatcher: vgpr_blocks must be 1..=128"
        );
        assert!(
            (1..=128).contains(&c.sgpr_blocks),
            "dispatcher: sgpr_blocks must be 1..=128"
        );
        assert!(
            (1..=128).contains(&c.lds_blocks),
            "dispatcher: lds_blocks must be 1..=128"
        );
        assert!(
            (1..=16).contains(&c.wave_slots),
            "dispatcher: wave_slots must be 1..=16"
        );
        assert!(
            c.prios == 4 && c.windows == 4,
            "dispatcher: the register map fixes S = Y = 4"
        );
        assert!(
            (1..=64).contains(&c.slots),
            "dispatcher: slots must be 1..=64, got {}",
            c.slots
        );
        assert!(
            c.refresh_latency <= 32,
            "dispatcher: refresh_latency must be 0..=32, got {}",
            c.refresh_latency
        );
        assert!(
            c.classes == 4,
            "dispatcher: POWER_WEIGHTS holds exactly 4 instruction classes"
        );
        assert!(
            c.modules * c.classes <= 64,
            "dispatcher: retire_class must fit 64 bits"
        );
        assert!(
            c.units * c.unit_waves_bits() <= 32 && c.units * c.vgpr_base_bits() <= 64,
            "dispatcher: packed dispatch fields must fit their words"
        );
    }
}

/// Refresh latency K of the full config: the run cache that meets 100 MHz on the ECP5-85F
/// (`hdl::dispatcher_scale::RunCachePipe`, 123 MHz median): per module one 128-bit finder
/// (two pipelined 64-bit trees and the crossing term), time-shared (emb. 7) over the module's
/// nine maps in seven 128-bit slots (VGPR of units 0–3, SGPR 0 ‖ 1, SGPR 2 ‖ 3, LDS), changed
/// slots first, each result registered D = 5 cycles after its pick; after a change every cached
/// run of that module is exact by x + 7 + 5 = x + 12. Defined as
/// [`crate::dispatcher_scale::pipe_refresh_latency`]`(128)` so model and cache cannot drift
/// (design and measurements: docs/dispatcher_scale.md).
pub const FULL_REFRESH_LATENCY: usize = crate::dispatcher_scale::pipe_refresh_latency(128);

/// Register addresses (`cfg_addr`) and reset values.
pub mod reg {
    pub const POLICY: u32 = 0;
    pub const SPLIT_THRESHOLD: u32 = 1;
    pub const WIN_LEN0: u32 = 2;
    pub const FREE_WEIGHTS: u32 = 6;
    pub const POWER_WEIGHTS: u32 = 7;
    pub const POWER_WINDOW: u32 = 8;
    pub const SPLIT_THRESHOLD_RESET: u32 = 256;
    pub const WIN_LEN_RESET: [u32; 4] = [512, 256, 128, 128];
    pub const FREE_WEIGHTS_RESET: u32 = 0x1111;
    pub const POWER_WEIGHTS_RESET: u32 = 0x1111;
    pub const POWER_WINDOW_RESET: u32 = 1024;
}

/// LFSR seed (reset value).
pub const LFSR_SEED: u16 = 0xACE1;
/// Galois toggle mask of x¹⁶+x¹⁴+x¹³+x¹¹+1.
pub const LFSR_TAPS: u16 = 0xB400;

/// One step of the 16-bit Galois LFSR.
pub const fn lfsr_next(s: u16) -> u16 {
    let lsb = s & 1;
    let s = s >> 1;
    if lsb == 1 {
        s ^ LFSR_TAPS
    } else {
        s
    }
}

/// Random choice among the channels set in `cand` (R channels): the first set bit scanning
/// upwards from channel `lfsr mod R`, wrapping.
pub fn lfsr_pick(cand: u32, lfsr: u16, r: usize) -> usize {
    let start = lfsr as usize % r;
    (0..r)
        .map(|k| (start + k) % r)
        .find(|&c| cand >> c & 1 == 1)
        .expect("lfsr_pick: empty candidate set")
}

/// Lowest start of a free run of `need` blocks in `map` (1 = free), if any. Need 0 → Some(0).
pub fn first_fit(map: u128, need: usize) -> Option<usize> {
    if need == 0 {
        return Some(0);
    }
    if need > 128 {
        return None;
    }
    // bit i of `run` = blocks i..i+len all free (blocks beyond the map are 0 = used); the
    // length doubles each step
    let mut run = map;
    let mut len = 1;
    while len < need && run != 0 {
        let step = len.min(need - len);
        run &= run >> step;
        len += step;
    }
    (run != 0).then(|| run.trailing_zeros() as usize)
}

/// Longest run of free blocks in `map`.
pub fn max_run(map: u128) -> usize {
    let mut x = map;
    let mut n = 0;
    while x != 0 {
        x &= x >> 1;
        n += 1;
    }
    n
}

/// `need` ones from `base` upward.
pub fn region(base: usize, need: usize) -> u128 {
    if need == 0 {
        0
    } else if need >= 128 {
        u128::MAX << base
    } else {
        ((1u128 << need) - 1) << base
    }
}

fn full_map(n: usize) -> u128 {
    region(0, n)
}

/// A WG descriptor (the push port's fields).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wg {
    pub id: u32,
    pub prio: usize,
    pub waves: usize,
    /// VGPR blocks per wave.
    pub vgpr: usize,
    /// SGPR blocks per wave.
    pub sgpr: usize,
    /// LDS blocks for the whole WG.
    pub lds: usize,
    pub indep: bool,
}

impl Wg {
    /// A dependent WG (its waves must stay on one module).
    pub fn dependent(
        id: u32,
        prio: usize,
        waves: usize,
        vgpr: usize,
        sgpr: usize,
        lds: usize,
    ) -> Self {
        Self {
            id,
            prio,
            waves,
            vgpr,
            sgpr,
            lds,
            indep: false,
        }
    }
}

/// Where one WG went: the dispatch record, plus the regions for the in-flight table.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Placement {
    pub module: usize,
    /// Per unit: waves.
    pub waves: Vec<usize>,
    pub vgpr_base: Vec<usize>,
    pub sgpr_base: Vec<usize>,
    pub lds_base: usize,
    /// Per unit: VGPR / SGPR regions taken (1 = taken).
    pub vgpr_mask: Vec<u128>,
    pub sgpr_mask: Vec<u128>,
    pub lds_mask: u128,
}

/// The resource state of all modules: free maps, wave slots, split pointers, in-flight table.
/// Shared by the golden model and the evaluation baselines.
#[derive(Clone, Debug)]
pub struct Resources {
    cfg: DispatcherConfig,
    /// `[module][unit]` VGPR free map (1 = free).
    pub vgpr: Vec<Vec<u128>>,
    pub sgpr: Vec<Vec<u128>>,
    /// `[module][unit]` free wave slots.
    pub slots_free: Vec<Vec<usize>>,
    /// `[module]` LDS free map.
    pub lds: Vec<u128>,
    /// `[module]` split-table rotation pointer (emb. 8).
    pub ptr: Vec<usize>,
    /// In-flight table.
    pub inflight: Vec<Option<Placement>>,
    /// Placements whose slot was completed in the previous cycle: their slot is free, their
    /// blocks are released at this cycle's edge (the in-flight table is a block RAM, read in the
    /// cycle after the completion).
    pub releasing: Vec<Placement>,
}

impl Resources {
    pub fn new(cfg: DispatcherConfig) -> Self {
        let (p, q) = (cfg.modules, cfg.units);
        Self {
            cfg,
            vgpr: vec![vec![full_map(cfg.vgpr_blocks); q]; p],
            sgpr: vec![vec![full_map(cfg.sgpr_blocks); q]; p],
            slots_free: vec![vec![cfg.wave_slots; q]; p],
            lds: vec![full_map(cfg.lds_blocks); p],
            ptr: vec![0; p],
            inflight: vec![None; cfg.slots],
            releasing: vec![],
        }
    }

    /// Split of `n` waves over the units of module `m` (emb. 8, rotated by `ptr_m`).
    pub fn split(&self, m: usize, n: usize) -> Vec<usize> {
        let q = self.cfg.units;
        (0..q)
            .map(|u| {
                let t = (u + q - self.ptr[m]) % q;
                n / q + usize::from(t < n % q)
            })
            .collect()
    }

    /// The placement of `wg` on module `m` if it fits there (steps 2, 3 and 6's first fit).
    pub fn fit(&self, m: usize, wg: &Wg) -> Option<Placement> {
        let q = self.split(m, wg.waves);
        let lds_base = first_fit(self.lds[m], wg.lds)?;
        let mut pl = Placement {
            module: m,
            lds_base,
            lds_mask: region(lds_base, wg.lds),
            ..Placement::default()
        };
        for (u, &qu) in q.iter().enumerate() {
            if self.slots_free[m][u] < qu {
                return None;
            }
            let vb = first_fit(self.vgpr[m][u], qu * wg.vgpr)?;
            let sb = first_fit(self.sgpr[m][u], qu * wg.sgpr)?;
            pl.waves.push(qu);
            pl.vgpr_base.push(vb);
            pl.sgpr_base.push(sb);
            pl.vgpr_mask.push(region(vb, qu * wg.vgpr));
            pl.sgpr_mask.push(region(sb, qu * wg.sgpr));
        }
        Some(pl)
    }

    /// Whether `wg` fits module `m` (the test of [`fit`](Self::fit) without building the
    /// placement: the match stage runs it for every head × module).
    pub fn fits(&self, m: usize, wg: &Wg) -> bool {
        let q = self.cfg.units;
        first_fit(self.lds[m], wg.lds).is_some()
            && (0..q).all(|u| {
                let t = (u + q - self.ptr[m]) % q;
                let qu = wg.waves / q + usize::from(t < wg.waves % q);
                self.slots_free[m][u] >= qu
                    && first_fit(self.vgpr[m][u], qu * wg.vgpr).is_some()
                    && first_fit(self.sgpr[m][u], qu * wg.sgpr).is_some()
            })
    }

    /// The maps and pointers alone (no in-flight table): what the match stage keeps of a cycle.
    pub fn maps(&self) -> Resources {
        Resources {
            cfg: self.cfg,
            vgpr: self.vgpr.clone(),
            sgpr: self.sgpr.clone(),
            slots_free: self.slots_free.clone(),
            lds: self.lds.clone(),
            ptr: self.ptr.clone(),
            inflight: vec![],
            releasing: vec![],
        }
    }

    /// Lowest idle in-flight slot.
    pub fn free_slot(&self) -> Option<usize> {
        self.inflight.iter().position(|e| e.is_none())
    }

    /// Take the resources of `pl` into in-flight slot `slot` (step 6).
    pub fn allocate(&mut self, slot: usize, pl: Placement) {
        let m = pl.module;
        debug_assert!(
            self.inflight[slot].is_none(),
            "dispatcher: slot {slot} allocated twice"
        );
        debug_assert!(
            pl.lds_mask & !self.lds[m] == 0,
            "dispatcher: LDS block allocated twice"
        );
        self.lds[m] &= !pl.lds_mask;
        let n: usize = pl.waves.iter().sum();
        for u in 0..self.cfg.units {
            debug_assert!(
                pl.vgpr_mask[u] & !self.vgpr[m][u] == 0,
                "dispatcher: VGPR allocated twice"
            );
            debug_assert!(
                pl.sgpr_mask[u] & !self.sgpr[m][u] == 0,
                "dispatcher: SGPR allocated twice"
            );
            debug_assert!(
                self.slots_free[m][u] >= pl.waves[u],
                "dispatcher: wave slots overdrawn"
            );
            self.vgpr[m][u] &= !pl.vgpr_mask[u];
            self.sgpr[m][u] &= !pl.sgpr_mask[u];
            self.slots_free[m][u] -= pl.waves[u];
        }
        self.ptr[m] = (self.ptr[m] + n) % self.cfg.units;
        self.inflight[slot] = Some(pl);
    }

    /// [`allocate`](Self::allocate) without the pointer move (the pipelined dispatcher moves the
    /// pointer when it decides, one cycle before it commits the regions).
    pub fn allocate_regions(&mut self, slot: usize, pl: Placement) {
        let m = pl.module;
        let ptr = self.ptr[m];
        self.allocate(slot, pl);
        self.ptr[m] = ptr;
    }

    /// Free exactly what slot `slot` took (step 7). Returns false for an idle slot.
    pub fn complete(&mut self, slot: usize) -> bool {
        let Some(pl) = self.inflight.get_mut(slot).and_then(|e| e.take()) else {
            return false;
        };
        let m = pl.module;
        debug_assert!(
            pl.lds_mask & self.lds[m] == 0,
            "dispatcher: LDS freed twice"
        );
        self.lds[m] |= pl.lds_mask;
        for u in 0..self.cfg.units {
            debug_assert!(
                pl.vgpr_mask[u] & self.vgpr[m][u] == 0,
                "dispatcher: VGPR freed twice"
            );
            debug_assert!(
                pl.sgpr_mask[u] & self.sgpr[m][u] == 0,
                "dispatcher: SGPR freed twice"
            );
            self.vgpr[m][u] |= pl.vgpr_mask[u];
            self.sgpr[m][u] |= pl.sgpr_mask[u];
            self.slots_free[m][u] += pl.waves[u];
        }
        true
    }

    /// Completion in the pipelined dispatcher: the slot is free at once, the blocks stay taken
    /// until [`release`](Self::release) at the next edge. Returns false for an idle slot.
    pub fn complete_deferred(&mut self, slot: usize) -> bool {
        let Some(pl) = self.inflight.get_mut(slot).and_then(|e| e.take()) else {
            return false;
        };
        self.releasing.push(pl);
        true
    }

    /// Free the blocks of the completions of the previous cycle (see
    /// [`complete_deferred`](Self::complete_deferred)).
    pub fn release(&mut self) {
        for pl in std::mem::take(&mut self.releasing) {
            let m = pl.module;
            self.lds[m] |= pl.lds_mask;
            for u in 0..self.cfg.units {
                self.vgpr[m][u] |= pl.vgpr_mask[u];
                self.sgpr[m][u] |= pl.sgpr_mask[u];
                self.slots_free[m][u] += pl.waves[u];
            }
        }
    }

    /// Free counts of module `m`: (VGPR, SGPR, wave slots, LDS), summed over its units.
    pub fn free_counts(&self, m: usize) -> [usize; 4] {
        let pc = |x: u128| x.count_ones() as usize;
        [
            self.vgpr[m].iter().map(|&x| pc(x)).sum(),
            self.sgpr[m].iter().map(|&x| pc(x)).sum(),
            self.slots_free[m].iter().sum(),
            pc(self.lds[m]),
        ]
    }

    /// Whether `wg` fits an *empty* module (step 9).
    pub fn fits_empty(cfg: &DispatcherConfig, wg: &Wg) -> bool {
        let qmax = wg.waves.div_ceil(cfg.units);
        qmax <= cfg.wave_slots
            && qmax * wg.vgpr <= cfg.vgpr_blocks
            && qmax * wg.sgpr <= cfg.sgpr_blocks
            && wg.lds <= cfg.lds_blocks
    }

    /// Whether module `m` has enough free blocks *in total* for `wg` (ignoring contiguity): used
    /// to count fragmentation failures in the evaluation.
    pub fn fits_by_count(&self, m: usize, wg: &Wg) -> bool {
        let q = self.split(m, wg.waves);
        let pc = |x: u128| x.count_ones() as usize;
        pc(self.lds[m]) >= wg.lds
            && q.iter().enumerate().all(|(u, &qu)| {
                self.slots_free[m][u] >= qu
                    && pc(self.vgpr[m][u]) >= qu * wg.vgpr
                    && pc(self.sgpr[m][u]) >= qu * wg.sgpr
            })
    }

    /// Invariants (SPEC Unit 3): no block allocated twice, frees restore exactly (free map ⊎
    /// in-flight regions = all blocks), wave slots add up.
    pub fn check_invariants(&self) {
        let c = &self.cfg;
        for m in 0..c.modules {
            let live = || {
                self.inflight
                    .iter()
                    .flatten()
                    .chain(self.releasing.iter())
                    .filter(|pl| pl.module == m)
            };
            let mut lds = self.lds[m];
            for pl in live() {
                debug_assert!(
                    lds & pl.lds_mask == 0,
                    "dispatcher: LDS block {m} held twice"
                );
                lds |= pl.lds_mask;
            }
            debug_assert!(
                lds == full_map(c.lds_blocks),
                "dispatcher: LDS blocks of module {m} lost"
            );
            for u in 0..c.units {
                let (mut v, mut s, mut w) =
                    (self.vgpr[m][u], self.sgpr[m][u], self.slots_free[m][u]);
                for pl in live() {
                    debug_assert!(v & pl.vgpr_mask[u] == 0, "dispatcher: VGPR held twice");
                    debug_assert!(s & pl.sgpr_mask[u] == 0, "dispatcher: SGPR held twice");
                    v |= pl.vgpr_mask[u];
                    s |= pl.sgpr_mask[u];
                    w += pl.waves[u];
                }
                debug_assert!(
                    v == full_map(c.vgpr_blocks),
                    "dispatcher: VGPR blocks lost ({m},{u})"
                );
                debug_assert!(
                    s == full_map(c.sgpr_blocks),
                    "dispatcher: SGPR blocks lost ({m},{u})"
                );
                debug_assert!(w == c.wave_slots, "dispatcher: wave slots lost ({m},{u})");
            }
        }
    }
}

/// Inputs of one cycle (port names of the exported top).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DispIn {
    pub reset: bool,
    pub push_valid: bool,
    pub push_channel: u32,
    pub push_id: u32,
    pub push_prio: u32,
    pub push_waves: u32,
    pub push_vgpr: u32,
    pub push_sgpr: u32,
    pub push_lds: u32,
    pub push_indep: bool,
    pub done_valid: bool,
    pub done_slot: u32,
    pub cfg_we: bool,
    pub cfg_addr: u32,
    pub cfg_data: u32,
    /// Bit `classes·m + c`: module m retired an instruction of class c this cycle.
    pub retire_class: u64,
}

crate::reset_by_field!(DispIn);

impl DispIn {
    /// A push of `wg` into `channel`.
    pub fn push(channel: usize, wg: &Wg) -> Self {
        Self {
            push_valid: true,
            push_channel: channel as u32,
            push_id: wg.id,
            push_prio: wg.prio as u32,
            push_waves: wg.waves as u32,
            push_vgpr: wg.vgpr as u32,
            push_sgpr: wg.sgpr as u32,
            push_lds: wg.lds as u32,
            push_indep: wg.indep,
            ..Self::default()
        }
    }
    /// A completion of `slot`.
    pub fn done(slot: usize) -> Self {
        Self {
            done_valid: true,
            done_slot: slot as u32,
            ..Self::default()
        }
    }
    /// A configuration write.
    pub fn cfg(addr: u32, data: u32) -> Self {
        Self {
            cfg_we: true,
            cfg_addr: addr,
            cfg_data: data,
            ..Self::default()
        }
    }
}

/// Outputs of one cycle.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DispOut {
    /// Combinational: `push_channel`'s FIFO is not full.
    pub push_ready: bool,
    /// Registered strobe: a dispatch record.
    pub disp_valid: bool,
    pub disp_id: u32,
    pub disp_module: u32,
    pub disp_slot: u32,
    /// 1 for a split single-wave sub-WG.
    pub disp_sub: bool,
    /// Unit t's wave count at bits `unit_waves_bits·t ..`.
    pub disp_waves: u64,
    /// Unit t's VGPR base at bits `vgpr_base_bits·t ..` (0 when its need is 0).
    pub disp_vgpr_base: u64,
    pub disp_sgpr_base: u64,
    pub disp_lds_base: u32,
    pub error: bool,
    pub error_code: u8,
}

/// One decision of a cycle (what the golden model dispatched).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dispatch {
    pub channel: usize,
    pub wg: Wg,
    pub sub: bool,
    pub slot: usize,
    pub placement: Placement,
}

/// Run-time registers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Regs {
    pub policy: Policy,
    pub split_threshold: u32,
    pub win_len: [u32; 4],
    /// a_h: VGPR, SGPR, wave slots, LDS.
    pub free_weights: [u32; 4],
    /// b_c per instruction class.
    pub power_weights: [u32; 4],
    pub power_window: u32,
}

fn nibbles(x: u32) -> [u32; 4] {
    [x & 15, x >> 4 & 15, x >> 8 & 15, x >> 12 & 15]
}

impl Default for Regs {
    fn default() -> Self {
        Self {
            policy: Policy::First,
            split_threshold: reg::SPLIT_THRESHOLD_RESET,
            win_len: reg::WIN_LEN_RESET,
            free_weights: nibbles(reg::FREE_WEIGHTS_RESET),
            power_weights: nibbles(reg::POWER_WEIGHTS_RESET),
            power_window: reg::POWER_WINDOW_RESET,
        }
    }
}

/// Counters kept by the model for the evaluation (not architectural).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Cycles with non-empty heads and a free slot in which no head fit anywhere.
    pub fail_cycles: u64,
    /// Heads (per cycle) that fit nowhere although some module had enough free blocks in total.
    pub frag_failures: u64,
    /// Distinct WG ids that met such a fragmentation failure.
    pub frag_wgs: std::collections::BTreeSet<u32>,
    /// Heads put into split mode.
    pub splits: u64,
}

/// Cycle model of the workgroup dispatcher.
#[derive(Clone, Debug)]
pub struct Dispatcher {
    cfg: DispatcherConfig,
    pub regs: Regs,
    fifo: Vec<VecDeque<Wg>>,
    /// Per channel: sub-WGs left of a head in split mode (0 = not split).
    split_left: Vec<usize>,
    pub res: Resources,
    /// `[channel][prio]` "already selected" marks (a42).
    marks: Vec<Vec<bool>>,
    lfsr: u16,
    win: usize,
    win_cnt: u32,
    fail_count: u32,
    pw_cnt: u32,
    pw_cur: Vec<u32>,
    pw_prev: Vec<u32>,
    rr_next: usize,
    /// Match stage of the previous cycle, per channel (the decision of this cycle reads it).
    matched: Vec<Option<Match>>,
    /// The maps the previous cycle's match stage read (first-fit bases of the decision).
    matched_maps: Option<Resources>,
    /// Per module: eligible in the previous cycle's match (maps settled for K cycles).
    matched_eligible: Vec<bool>,
    /// Per module: the cycle (since reset) from which its settled maps last changed.
    changed: Vec<Option<u64>>,
    /// Cycles since reset.
    now: u64,
    /// Per channel: its head presentation was replaced at the last edge (pop or split entry), so
    /// `matched` describes a WG that is no longer the head.
    head_changed: Vec<bool>,
    /// Modules of the decisions of the last two cycles (not yet in the state the match results
    /// were computed from): `[previous cycle, the cycle before]`.
    last_modules: [Option<usize>; 2],
    /// The previous cycle's decision, committed (regions taken, record registered) this cycle.
    pending: Option<Dispatch>,
    /// Module scores in flight through the policy pipeline: front = computed [`POLICY_LAG`]
    /// cycles ago, used by this cycle's decision (`power` is used; see `wf` for the other).
    scores: VecDeque<Scores>,
    /// The serial `max_weighted_free` scorer.
    wf: WeightedFree,
    out: DispOut,
    pub stats: Stats,
}

/// Cycles from the state a module score is computed from to the decision that uses it.
pub const POLICY_LAG: usize = 4;

/// Serial scorer of `max_weighted_free` (emb. 9): one product a_h·free_h per cycle. Item k of
/// the period 4P is (module k div 4, resource k mod 4); its product is taken from the state and
/// weights of its cycle, accumulated two cycles later (two pipeline registers), and when item
/// 4P−1 is accumulated every module's sum is published. The decision compares the published
/// sums: a snapshot assembled over 4P cycles (8 on the board), published 4P+2 cycles after its
/// first product was taken and kept for 4P cycles, so each product is 3..=8P+1 cycles old.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WeightedFree {
    /// Next item.
    pub k: usize,
    /// Products in the pipeline: (item, product), oldest first.
    pub delay: VecDeque<(usize, i64)>,
    /// Per module: the running sum.
    pub acc: Vec<i64>,
    /// Per module: the last published sum.
    pub published: Vec<i64>,
}

impl WeightedFree {
    fn new(modules: usize) -> Self {
        Self {
            k: 0,
            delay: VecDeque::from(vec![(0, 0); 2]),
            acc: vec![0; modules],
            published: vec![0; modules],
        }
    }
}

/// Per-module scores of both state-dependent policies (smaller is better), computed from one
/// cycle's state and registers.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Scores {
    /// `max_weighted_free`: −Σ_h a_h·free_h.
    pub weighted_free: Vec<i64>,
    /// `min_power_history`: prev + cur.
    pub power: Vec<i64>,
}

/// What the match stage computed for one channel's head in one cycle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Match {
    /// The head as presented (a split head: one wave at priority S−1).
    pub wg: Wg,
    pub sub: bool,
    /// Per module: whether the head fits there (its placement is built from
    /// [`Dispatcher`]'s kept maps for the chosen module only).
    pub fits: Vec<bool>,
}

impl Dispatcher {
    pub fn new(cfg: DispatcherConfig) -> Self {
        cfg.validate();
        let mut d = Self {
            cfg,
            regs: Regs::default(),
            fifo: vec![],
            split_left: vec![],
            res: Resources::new(cfg),
            marks: vec![],
            lfsr: LFSR_SEED,
            win: 0,
            win_cnt: 0,
            fail_count: 0,
            pw_cnt: 0,
            pw_cur: vec![],
            pw_prev: vec![],
            rr_next: 0,
            matched: vec![],
            matched_maps: None,
            matched_eligible: vec![],
            changed: vec![],
            now: 0,
            head_changed: vec![],
            last_modules: [None; 2],
            pending: None,
            scores: VecDeque::new(),
            wf: WeightedFree::default(),
            out: DispOut::default(),
            stats: Stats::default(),
        };
        d.reset();
        d
    }

    pub fn config(&self) -> &DispatcherConfig {
        &self.cfg
    }

    /// Whether a decision of the previous cycle is still to be committed (regions taken,
    /// record registered this cycle).
    pub fn deciding(&self) -> bool {
        self.pending.is_some()
    }

    /// WGs queued in `channel` (including a head in split mode).
    pub fn queued(&self, channel: usize) -> usize {
        self.fifo[channel].len()
    }

    /// Whether `channel`'s FIFO can take a WG this cycle.
    pub fn can_push(&self, channel: usize) -> bool {
        self.fifo[channel].len() < self.cfg.fifo_depth
    }

    /// Current time window (emb. 2).
    pub fn window(&self) -> usize {
        self.win
    }

    /// Failure counter g (emb. 3).
    pub fn fail_count(&self) -> u32 {
        self.fail_count
    }

    /// Set the module policy directly (the evaluation uses this for the round-robin baseline).
    pub fn set_policy(&mut self, p: Policy) {
        self.regs.policy = p;
    }

    /// Fast co-model helper: push `wg` straight into `channel`'s FIFO (no port, no cycle).
    /// Returns Ok(false) when the FIFO is full, the step-9 error for a bad descriptor.
    pub fn enqueue(&mut self, channel: usize, wg: Wg) -> Result<bool, DispError> {
        self.check_push(channel, &wg)?;
        if !self.can_push(channel) {
            return Ok(false);
        }
        self.fifo[channel].push_back(wg);
        Ok(true)
    }

    /// Check a pushed descriptor (step 9).
    pub fn check_push(&self, channel: usize, wg: &Wg) -> Result<(), DispError> {
        if channel >= self.cfg.channels || wg.prio >= self.cfg.prios {
            Err(DispError::BadId)
        } else if wg.waves == 0 {
            Err(DispError::ZeroWaves)
        } else if !Resources::fits_empty(&self.cfg, wg) {
            Err(DispError::NeverFits)
        } else {
            Ok(())
        }
    }

    /// The candidate a channel's head presents (step 1, with split mode).
    fn head(&self, c: usize) -> Option<(Wg, bool)> {
        let wg = *self.fifo[c].front()?;
        if self.split_left[c] > 0 {
            Some((
                Wg {
                    prio: self.cfg.prios - 1,
                    waves: 1,
                    ..wg
                },
                true,
            ))
        } else {
            Some((wg, false))
        }
    }

    /// Effective rank of priority `p` in window `y` (emb. 2): y first, the rest in order.
    pub fn effective_rank(p: usize, y: usize) -> usize {
        use std::cmp::Ordering::*;
        match p.cmp(&y) {
            Equal => 0,
            Less => p + 1,
            Greater => p,
        }
    }

    /// Scores of every module from the current state and registers (the policy pipeline's input).
    fn compute_scores(&self) -> Scores {
        let p = self.cfg.modules;
        Scores {
            weighted_free: (0..p)
                .map(|m| {
                    let f = self.res.free_counts(m);
                    -(0..4)
                        .map(|h| (self.regs.free_weights[h] as usize * f[h]) as i64)
                        .sum::<i64>()
                })
                .collect(),
            power: (0..p)
                .map(|m| (self.pw_prev[m] + self.pw_cur[m]) as i64)
                .collect(),
        }
    }

    /// Score of module `m` under the current policy, from the scores of [`POLICY_LAG`] cycles
    /// ago: smaller is better.
    fn module_score(&self, m: usize) -> i64 {
        let s = self.scores.front().expect("policy pipeline");
        match self.regs.policy {
            Policy::First | Policy::RoundRobin => 0,
            Policy::MaxWeightedFree => -self.wf.published[m],
            Policy::MinPowerHistory => s.power[m],
        }
    }

    /// Step 5: among the modules that fit, the policy's choice.
    fn pick_module(&self, fits: &[usize]) -> usize {
        if self.regs.policy == Policy::RoundRobin {
            let p = self.cfg.modules;
            return (0..p)
                .map(|k| (self.rr_next + k) % p)
                .find(|m| fits.contains(m))
                .unwrap();
        }
        // min_by_key keeps the first (lowest index) of equal scores
        fits.iter()
            .copied()
            .min_by_key(|&m| self.module_score(m))
            .unwrap()
    }

    /// Match stage (steps 1–3 and the first fit of step 6): every head against every module,
    /// from the current state. The result is registered: the next cycle's decision reads it.
    fn match_stage(&mut self) -> Vec<Option<Match>> {
        let mut out = vec![];
        for c in 0..self.cfg.channels {
            out.push(self.head(c).map(|(wg, sub)| {
                let fits: Vec<bool> = (0..self.cfg.modules)
                    .map(|m| self.res.fits(m, &wg))
                    .collect();
                if fits.iter().all(|f| !f)
                    && (0..self.cfg.modules).any(|m| self.res.fits_by_count(m, &wg))
                {
                    self.stats.frag_failures += 1;
                    self.stats.frag_wgs.insert(wg.id);
                }
                Match { wg, sub, fits }
            }));
        }
        out
    }

    /// Steps 4–5 from the previous cycle's match results: a channel whose head was replaced at
    /// the last edge and the modules decided in the previous two cycles are not candidates (their
    /// match results are stale). Updates the tie marks (a42) of the winner's priority. The slot
    /// is filled in by the caller.
    fn decide(&mut self) -> Option<Dispatch> {
        let r = self.cfg.channels;
        // (channel, head WG, is a split sub-WG, eligible modules it fits)
        type Candidate = (usize, Wg, bool, Vec<usize>);
        let mut cand: Vec<Candidate> = vec![];
        for c in 0..r {
            if self.head_changed[c] {
                continue;
            }
            if let Some(mt) = &self.matched[c] {
                let fits: Vec<usize> = (0..self.cfg.modules)
                    .filter(|&m| {
                        mt.fits[m]
                            && self.matched_eligible[m]
                            && !self.last_modules.contains(&Some(m))
                    })
                    .collect();
                if !fits.is_empty() {
                    cand.push((c, mt.wg, mt.sub, fits));
                }
            }
        }
        let rank = |wg: &Wg| Self::effective_rank(wg.prio, self.win);
        let best = cand.iter().map(|(_, wg, _, _)| rank(wg)).min()?;
        let p = cand
            .iter()
            .find(|(_, wg, _, _)| rank(wg) == best)
            .unwrap()
            .1
            .prio;
        let tied: u32 = cand
            .iter()
            .filter(|(_, wg, _, _)| wg.prio == p)
            .fold(0, |a, (c, ..)| a | 1 << c);
        let winner = if tied.count_ones() == 1 {
            tied.trailing_zeros() as usize // a41: a single best head, marks unchanged
        } else {
            let unmarked: u32 = (0..r)
                .filter(|&c| tied >> c & 1 == 1 && !self.marks[c][p])
                .fold(0, |a, c| a | 1 << c);
            if unmarked != 0 {
                let w = lfsr_pick(unmarked, self.lfsr, r);
                self.marks[w][p] = true;
                w
            } else {
                let w = lfsr_pick(tied, self.lfsr, r);
                for c in 0..r {
                    if tied >> c & 1 == 1 && c != w {
                        self.marks[c][p] = false;
                    }
                }
                w
            }
        };
        let (c, wg, sub, fits) = cand.into_iter().find(|(c, ..)| *c == winner).unwrap();
        let m = self.pick_module(&fits);
        // step 6's first fit on the maps the match read (the chosen placement only)
        let placement = self
            .matched_maps
            .as_ref()
            .and_then(|maps| maps.fit(m, &wg))
            .expect("a matched fit has a placement");
        Some(Dispatch {
            channel: c,
            wg,
            sub,
            slot: usize::MAX,
            placement,
        })
    }

    /// Failure test of step 8 for this cycle (no dispatch): every head has fresh match results
    /// and none of them fits any module (a fit lost only to the module exclusion is no failure).
    fn fit_failure(&self, start_len: &[usize]) -> bool {
        (0..self.cfg.channels).all(|c| {
            start_len[c] == 0
                || (!self.head_changed[c]
                    && self.matched[c]
                        .as_ref()
                        .is_some_and(|mt| mt.fits.iter().all(|f| !f)))
        })
    }

    fn write_reg(&mut self, addr: u32, data: u32) -> Result<(), DispError> {
        let data = data & 0xFFFF;
        match addr {
            reg::POLICY => {
                self.regs.policy = match data {
                    0 => Policy::First,
                    1 => Policy::MaxWeightedFree,
                    2 => Policy::MinPowerHistory,
                    _ => return Err(DispError::BadCfg),
                }
            }
            reg::SPLIT_THRESHOLD => self.regs.split_threshold = data,
            2..=5 => self.regs.win_len[(addr - reg::WIN_LEN0) as usize] = data,
            reg::FREE_WEIGHTS => self.regs.free_weights = nibbles(data),
            reg::POWER_WEIGHTS => self.regs.power_weights = nibbles(data),
            reg::POWER_WINDOW => self.regs.power_window = data,
            _ => return Err(DispError::BadCfg),
        }
        Ok(())
    }

    /// One cycle of behaviour (the fast co-model entry point, no output registering). Returns
    /// (push accepted by the handshake, dispatch decided this cycle, error of this cycle).
    pub fn cycle(&mut self, i: &DispIn) -> (bool, Option<Dispatch>, Option<DispError>) {
        let start_len: Vec<usize> = self.fifo.iter().map(|f| f.len()).collect();
        // Match stage: every head × every module from the start-of-cycle state (for next cycle);
        // a module whose settled maps changed within the last K cycles is not eligible.
        let matched = self.match_stage();
        let k = self.cfg.refresh_latency as u64;
        let eligible: Vec<bool> = self
            .changed
            .iter()
            .map(|c| c.is_none_or(|c| c + k <= self.now))
            .collect();
        let maps = matched
            .iter()
            .flatten()
            .any(|mt| mt.fits.iter().any(|&f| f))
            .then(|| self.res.maps());
        let scores = self.compute_scores();
        let wf_product = {
            let (m, h) = (self.wf.k / 4, self.wf.k % 4);
            (self.regs.free_weights[h] as usize * self.res.free_counts(m)[h]) as i64
        };
        // Decision stage: steps 4–6 from the previous cycle's match results; the slot is the
        // lowest one neither in flight nor taken by the decision being committed now.
        let pend_slot = self.pending.as_ref().map(|d| d.slot);
        let slot =
            (0..self.cfg.slots).find(|&s| self.res.inflight[s].is_none() && Some(s) != pend_slot);
        let mut dispatch = if slot.is_some() { self.decide() } else { None };
        let any_head = start_len.iter().any(|&n| n > 0);
        let failed = any_head && slot.is_some() && self.fit_failure(&start_len);
        let mut changed = vec![false; self.cfg.channels];

        // 7. Completion: the slot is free at this edge, its blocks at the next one (the
        // previous cycle's completion releases its blocks now).
        for pl in &self.res.releasing {
            self.changed[pl.module] = Some(self.now + 1);
        }
        self.res.release();
        let mut done_err = None;
        if i.done_valid {
            let s = i.done_slot as usize;
            if s >= self.cfg.slots {
                done_err = Some(DispError::BadId);
            } else if !self.res.complete_deferred(s) {
                done_err = Some(DispError::IdleSlot);
            }
        }
        // Commit stage: the previous cycle's decision takes its regions and slot at this edge.
        let committed = self.pending.take();
        if let Some(d) = &committed {
            self.res.allocate_regions(d.slot, d.placement.clone());
            self.changed[d.placement.module] = Some(self.now + 1);
        }
        // 6. The decision of this cycle: slot reserved, head popped, pointer moved.
        if let Some(d) = dispatch.as_mut() {
            let s = slot.unwrap();
            d.slot = s;
            let c = d.channel;
            let m = d.placement.module;
            let n: usize = d.placement.waves.iter().sum();
            self.res.ptr[m] = (self.res.ptr[m] + n) % self.cfg.units;
            if d.sub {
                self.split_left[c] -= 1;
                if self.split_left[c] == 0 {
                    self.fifo[c].pop_front();
                    changed[c] = true;
                }
            } else {
                self.fifo[c].pop_front();
                changed[c] = true;
            }
            if self.regs.policy == Policy::RoundRobin {
                self.rr_next = (d.placement.module + 1) % self.cfg.modules;
            }
        }
        // 8. Failure counter g and split of independent heads (emb. 3).
        if dispatch.is_some() {
            self.fail_count = 0;
        } else if failed {
            self.stats.fail_cycles += 1;
            let g = (self.fail_count + 1).min(0xFFFF);
            if self.regs.split_threshold != 0 && g >= self.regs.split_threshold {
                for (c, ch) in changed.iter_mut().enumerate() {
                    if let Some(h) = self.fifo[c].front() {
                        if h.indep && h.waves >= 2 && self.split_left[c] == 0 {
                            self.split_left[c] = h.waves;
                            *ch = true;
                            self.stats.splits += 1;
                        }
                    }
                }
                self.fail_count = 0;
            } else {
                self.fail_count = g;
            }
        }
        // 9. Push, checked at the FIFO input.
        let mut push_err = None;
        let mut accepted = false;
        if i.push_valid {
            let c = i.push_channel as usize;
            if c >= self.cfg.channels || start_len[c] < self.cfg.fifo_depth {
                accepted = true;
                let wg = Wg {
                    id: i.push_id,
                    prio: i.push_prio as usize,
                    waves: i.push_waves as usize,
                    vgpr: i.push_vgpr as usize,
                    sgpr: i.push_sgpr as usize,
                    lds: i.push_lds as usize,
                    indep: i.push_indep,
                };
                match self.check_push(c, &wg) {
                    Ok(()) => self.fifo[c].push_back(wg),
                    Err(e) => push_err = Some(e),
                }
            }
        }
        // Free-running state: time window, LFSR, power history (old register values this cycle).
        self.win_cnt += 1;
        if self.win_cnt >= self.regs.win_len[self.win].max(1) {
            self.win = (self.win + 1) % self.cfg.windows;
            self.win_cnt = 0;
        }
        self.lfsr = lfsr_next(self.lfsr);
        for m in 0..self.cfg.modules {
            let bits = (i.retire_class >> (self.cfg.classes * m)) as u32;
            let add: u32 = (0..self.cfg.classes)
                .filter(|&c| bits >> c & 1 == 1)
                .map(|c| self.regs.power_weights[c])
                .sum();
            self.pw_cur[m] = (self.pw_cur[m] + add).min(0xFFFF);
        }
        self.pw_cnt += 1;
        if self.pw_cnt >= self.regs.power_window.max(1) {
            self.pw_cnt = 0;
            for m in 0..self.cfg.modules {
                self.pw_prev[m] = self.pw_cur[m];
                self.pw_cur[m] = 0;
            }
        }
        // Pipeline registers of the match stage and the policy pipeline.
        self.last_modules = [
            dispatch.as_ref().map(|d| d.placement.module),
            self.last_modules[0],
        ];
        self.pending = dispatch;
        self.matched = matched;
        self.matched_maps = maps;
        self.matched_eligible = eligible;
        self.now += 1;
        self.head_changed = changed;
        self.scores.pop_front();
        self.scores.push_back(scores);
        // serial weighted-free scorer: accumulate the product of two cycles ago, take a new one
        let p = self.cfg.modules;
        let (k_old, prod) = self.wf.delay.pop_front().expect("scorer pipeline");
        let m_old = k_old / 4;
        if k_old % 4 == 0 {
            self.wf.acc[m_old] = prod;
        } else {
            self.wf.acc[m_old] += prod;
        }
        if k_old == 4 * p - 1 {
            self.wf.published = self.wf.acc.clone();
        }
        self.wf.delay.push_back((self.wf.k, wf_product));
        self.wf.k = (self.wf.k + 1) % (4 * p);
        // Configuration write (after the free-running updates: they used the old values).
        let cfg_err = if i.cfg_we {
            self.write_reg(i.cfg_addr, i.cfg_data).err()
        } else {
            None
        };
        (accepted, committed, push_err.or(done_err).or(cfg_err))
    }

    /// The registered record of a dispatch, packed as on the ports (bases of empty regions = 0).
    pub fn record(&self, d: &Dispatch) -> DispOut {
        let c = &self.cfg;
        let pack = |v: &[usize], w: usize| {
            v.iter()
                .enumerate()
                .fold(0u64, |a, (t, &x)| a | (x as u64) << (w * t))
        };
        let pl = &d.placement;
        let vb: Vec<usize> = (0..c.units)
            .map(|u| {
                if pl.vgpr_mask[u] == 0 {
                    0
                } else {
                    pl.vgpr_base[u]
                }
            })
            .collect();
        let sb: Vec<usize> = (0..c.units)
            .map(|u| {
                if pl.sgpr_mask[u] == 0 {
                    0
                } else {
                    pl.sgpr_base[u]
                }
            })
            .collect();
        DispOut {
            disp_valid: true,
            disp_id: d.wg.id,
            disp_module: pl.module as u32,
            disp_slot: d.slot as u32,
            disp_sub: d.sub,
            disp_waves: pack(&pl.waves, c.unit_waves_bits()),
            disp_vgpr_base: pack(&vb, c.vgpr_base_bits()),
            disp_sgpr_base: pack(&sb, c.sgpr_base_bits()),
            disp_lds_base: if pl.lds_mask == 0 {
                0
            } else {
                pl.lds_base as u32
            },
            ..DispOut::default()
        }
    }
}

impl CycleModel for Dispatcher {
    type In = DispIn;
    type Out = DispOut;

    fn reset(&mut self) {
        let c = self.cfg;
        self.regs = Regs::default();
        self.fifo = vec![VecDeque::new(); c.channels];
        self.split_left = vec![0; c.channels];
        self.res = Resources::new(c);
        self.marks = vec![vec![false; c.prios]; c.channels];
        self.lfsr = LFSR_SEED;
        self.win = 0;
        self.win_cnt = 0;
        self.fail_count = 0;
        self.pw_cnt = 0;
        self.pw_cur = vec![0; c.modules];
        self.pw_prev = vec![0; c.modules];
        self.rr_next = 0;
        self.matched = vec![None; c.channels];
        self.matched_maps = None;
        self.matched_eligible = vec![true; c.modules];
        self.changed = vec![None; c.modules];
        self.now = 0;
        self.head_changed = vec![false; c.channels];
        self.last_modules = [None; 2];
        self.pending = None;
        self.wf = WeightedFree::new(c.modules);
        self.scores = (0..POLICY_LAG)
            .map(|_| Scores {
                weighted_free: vec![0; c.modules],
                power: vec![0; c.modules],
            })
            .collect();
        self.out = DispOut::default();
    }

    fn step(&mut self, i: &DispIn) -> DispOut {
        let ch = i.push_channel as usize;
        let seen = DispOut {
            push_ready: ch >= self.cfg.channels || self.fifo[ch].len() < self.cfg.fifo_depth,
            ..self.out.clone()
        };
        if i.reset {
            self.reset();
            return seen;
        }
        let (_, d, err) = self.cycle(i);
        if cfg!(debug_assertions) {
            self.res.check_invariants();
        }
        let mut out = match &d {
            Some(d) => self.record(d),
            None => DispOut::default(),
        };
        out.error = err.is_some();
        out.error_code = err.map_or(0, |e| e as u8);
        self.out = out;
        seen
    }
}

#[cfg(test)]
mod tests;
