//! [`DispatcherFull`]: the patent-scale dispatcher integrated (design block 6 step 4,
//! `docs/dispatcher_scale.md`, "Session 11"): channel FIFOs, head needs and the head × module
//! matcher on [`super::MapRefresh`]'s runs, channel pick, module policy, [`super::Allocator`],
//! the in-flight table and the completions. One source for two configs: [`DispatcherFullFull`]
//! (`DispatcherConfig::full()`'s maps: 128 / 64 / 48 blocks, 16 wave slots) and
//! [`DispatcherFullSmall`] (the same 4 channels × 8, 16 modules × 4 units, 64 slots, with the
//! board's 16 / 8 / 16-block maps and 4 wave slots: fast in RustHDL).
//!
//! ## Ports (the board `dispatcher`'s meaning, at the full config's widths in both configs)
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `clock`, `reset` | in | 1 | one clock; synchronous reset |
//! | `push_valid`, `push_ready` | in / out | 1 | WG into the FIFO of `push_channel`; `push_ready` (combinational) = that FIFO holds < 8 |
//! | `push_channel`, `push_id`, `push_prio` | in | 2, 8, 2 | channel 0..4, WG id (echoed), priority (0 highest) |
//! | `push_waves`, `push_vgpr`, `push_sgpr`, `push_lds`, `push_indep` | in | 7, 8, 7, 6, 1 | waves, VGPR / SGPR blocks per wave, LDS blocks, independent waves |
//! | `disp_valid` | out | 1 | strobe: one dispatch record |
//! | `disp_id`, `disp_module`, `disp_slot`, `disp_sub` | out | 8, 4, 6, 1 | WG id, module, in-flight slot, one-wave sub-WG of a split WG |
//! | `disp_waves` | out | 20 | waves on unit t at bits 5t+4..5t |
//! | `disp_vgpr_base`, `disp_sgpr_base` | out | 28, 24 | base of unit t at 7t / 6t (0 when the need is 0) |
//! | `disp_lds_base` | out | 6 | LDS base (0 when no LDS) |
//! | `done_valid`, `done_slot` | in | 1, 6 | completion: free what `done_slot` took |
//! | `cfg_we`, `cfg_addr`, `cfg_data` | in | 1, 4, 16 | register write (the board's map) |
//! | `retire_class` | in | 64 | emb. 10's retire strobes: bit 4m + c = module m retired an instruction of class c |
//! | `error`, `error_code` | out | 1, 3 | refused request (board codes), the cycle after it |
//!
//! Registers: the board's map (`POLICY` 0, `SPLIT_THRESHOLD` 1, `WIN_LEN` 2..=5, `FREE_WEIGHTS`
//! 6, `POWER_WEIGHTS` 7, `POWER_WINDOW` 8): `POLICY` 0 `first`, 1 `max_weighted_free` (emb. 9),
//! 2 `min_power_history` (emb. 10); 3 is refused with `BAD_CFG` (nothing written). Error
//! codes: 1 `NEVER_FITS`, 2 `ZERO_WAVES`, 4 `IDLE_SLOT`, 5 `BAD_CFG` (3 `BAD_ID` cannot occur:
//! every channel, priority and slot code is valid); push beats completion beats config; a
//! refused request changes nothing.
//!
//! ## Timing (SPEC "Patent scale"; the spec checker's windows)
//! A WG that is its channel's head in cycle h is matched in h + 1 (needs registered) and h + 2
//! (fit registered, on the runs of h + 1), decided in d = h + 2 (registered), requested from
//! the allocator in d + 1, recorded (`disp_*`) in **r = d + 2 + LA = h + 4 + LA** (LA =
//! log2(V) + 2: **head → record 13 cycles at full widths**, 10 in the small config; the
//! SPEC goal is ≤ 4: not met). The allocation is in the maps from r. A channel takes one
//! decision per 3 cycles (its next head is matched only once it is stable for two cycles), a
//! module one per LA + 3 cycles and then waits until `MapRefresh` has its new runs (K = 7 at
//! full widths). The spec checker judges it with H = LA + 4, K = K_refresh + 1 (the fit judges
//! the heads of h on the runs of h + 1) and F = 2 ([`DispatcherFull::timing`]).
//! A completion in t frees its slot from t + 1, its blocks (port F) and wave slots from t + 2.
//! The regions it frees are the ones the record committed, read from `mask_table` (the
//! allocator's `rec_mask_*`, written with the in-flight entry), not decoded from base and need.
//!
//! ## Policies and rules
//! - Channel pick: among stable heads that fit an eligible, not busy module, the best
//!   effective rank (emb. 2 windows, the board's counter); ties: a42 marks (prefer unmarked,
//!   then the lowest channel); no LFSR (the checker's `any_tie_winner`).
//! - Module: `first` = lowest index; `max_weighted_free` = the largest Σ a_h·free_h of
//!   per-module free counters (VGPR, SGPR, wave slots, LDS), scores and their pairwise order
//!   registered (2–3 cycles old), ties to the lower index; `min_power_history` = the smallest
//!   retire history prev_m + cur_m (tumbling windows of `POWER_WINDOW` cycles, weights
//!   `POWER_WEIGHTS`, as the golden model's "Power history"), ties to the lower index: sub-block
//!   [`PowerHistory`], whose pairwise order a decision in d reads is that of the histories of
//!   d − 2 (the checker's window for it: 6 cycles).
//! - Emb. 3: `g` counts cycles with a head, every head stable, a free slot and no head fitting
//!   an eligible module (cached runs; SPEC "Patent scale": a module whose maps changed within K
//!   is treated as not fitting, here as in the pick); at `SPLIT_THRESHOLD` (≠ 0) the lowest
//!   stable independent head of ≥ 2 waves enters split mode (one wave at priority 3,
//!   `disp_sub`).
//! - Step 9: a WG that cannot fit an empty module is refused at the push (`NEVER_FITS`).
//!
//! **Cost** (`docs/dispatcher_scale.md`, "Session 14 (lead)"): `ECP5_YOSYS=/usr/bin/yosys synth
//! report --target ecp5-85f --full --only dispatcher_full --seeds 1 --speeds 6`: yosys 50 688
//! LUT4, 11 356 CCU2C, 1 264 DPR16X4, 20 895 FF, 28 EBR, 92 MULT18X18D; nextpnr-ecp5 packs
//! **92 162 LUT4 sites of the 85F's 83 640 (110 %): it does not fit** (no Fmax). Throughput (`synth bench --unit dispatcher --config full`, release, 73 s):
//! `dispatcher full: 15542 records in 20000 cycles (0.777 per cycle), head-to-record max 50
//! cycles`; one channel alone 0.333 per cycle (stderr of the same command).

use super::allocator::Allocator;
use super::map_ram::LutRam16;
use super::power::PowerHistory;
use super::{konst, locals};
use rust_hdl::prelude::*;

/// FIFO entry layout: id [7:0], prio [9:8], waves [16:10], vgpr [24:17], sgpr [31:25],
/// lds [37:32], indep [38].
const ENTRY: usize = 39;
/// Delay-line word: slot [5:0], id [13:6], sub [14], waves of unit u at 15 + 5u, need j at
/// 40 + 8j (j: VGPR 0..4, SGPR 4..8, LDS 8).
const DLW: usize = 112;
/// In-flight table word: module [3:0], waves of unit u at 4 + 5u, map j: need at 32 + 16j
/// (bits 24 + 16j, the bases until session 13, are 0: the completion's regions come from
/// `mask_table`).
const TW: usize = 168;

/// The integrated patent-scale dispatcher. `V`..`LT` as in [`Allocator`]; `WS` wave slots
/// per unit. See the module doc.
#[derive(LogicBlock)]
pub struct DispatcherFull<
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
    const WS: usize,
    const MW: usize,
> {
    pub clock: Signal<In, Clock>,
    pub reset: Signal<In, Bit>,
    pub push_valid: Signal<In, Bit>,
    pub push_ready: Signal<Out, Bit>,
    pub push_channel: Signal<In, Bits<2>>,
    pub push_id: Signal<In, Bits<8>>,
    pub push_prio: Signal<In, Bits<2>>,
    pub push_waves: Signal<In, Bits<7>>,
    pub push_vgpr: Signal<In, Bits<8>>,
    pub push_sgpr: Signal<In, Bits<7>>,
    pub push_lds: Signal<In, Bits<6>>,
    pub push_indep: Signal<In, Bit>,
    pub disp_valid: Signal<Out, Bit>,
    pub disp_id: Signal<Out, Bits<8>>,
    pub disp_module: Signal<Out, Bits<4>>,
    pub disp_slot: Signal<Out, Bits<6>>,
    pub disp_sub: Signal<Out, Bit>,
    pub disp_waves: Signal<Out, Bits<20>>,
    pub disp_vgpr_base: Signal<Out, Bits<28>>,
    pub disp_sgpr_base: Signal<Out, Bits<24>>,
    pub disp_lds_base: Signal<Out, Bits<6>>,
    pub done_valid: Signal<In, Bit>,
    pub done_slot: Signal<In, Bits<6>>,
    pub cfg_we: Signal<In, Bit>,
    pub cfg_addr: Signal<In, Bits<4>>,
    pub cfg_data: Signal<In, Bits<16>>,
    pub retire_class: Signal<In, Bits<64>>,
    pub error: Signal<Out, Bit>,
    pub error_code: Signal<Out, Bits<3>>,
    /// The maps, their runs, the first fit and the commit.
    pub alloc: Allocator<V, S, S2, L, H, KV, KH, SH, DC, DT, R, M2, SV, LT>,
    /// `min_power_history`: the retire histories and their order.
    pub power: PowerHistory,
    /// The in-flight table (one entry per slot, written with the record).
    slot_table: RAM<Bits<TW>, 6>,
    /// The regions of each slot's record (the allocator's `rec_mask_*`: VGPR u at u·V, SGPR u
    /// at 4V + u·S, LDS at 4V + 4S; MW = 4V + 4S + L bits), written with the table entry and
    /// read by the completion straight into port F (no thermometer decode of base and need).
    mask_table: RAM<Bits<MW>, 6>,
    // --- channel FIFOs: the head in flip-flops, the entries behind it in LUT RAM
    /// Channel c's head (entry 0; meaningful while `cnt` ≥ 1).
    head: Vec<DFF<Bits<ENTRY>>>,
    /// Channel c's entries 1..cnt − 1, entry e at address `rdp` + e − 1 (mod 8).
    qram: Vec<LutRam16<ENTRY>>,
    /// Channel c's read pointer: the address of entry 1.
    rdp: Vec<DFF<Bits<3>>>,
    cnt: Vec<DFF<Bits<4>>>,
    split_left: Vec<DFF<Bits<7>>>,
    chg1: Vec<DFF<Bit>>,
    chg2: Vec<DFF<Bit>>,
    // --- head needs (stage 1) and fits (stage 2)
    nd_valid: Vec<DFF<Bit>>,
    nd_q0: Vec<DFF<Bits<5>>>,
    nd_q1: Vec<DFF<Bits<5>>>,
    nd_r: Vec<DFF<Bits<2>>>,
    nd_v0: Vec<DFF<Bits<8>>>,
    nd_v1: Vec<DFF<Bits<8>>>,
    nd_s0: Vec<DFF<Bits<8>>>,
    nd_s1: Vec<DFF<Bits<8>>>,
    nd_l: Vec<DFF<Bits<8>>>,
    fite_r: Vec<DFF<Bits<16>>>,
    // --- per module state
    wfree: Vec<DFF<Bits<5>>>,
    ptr: Vec<DFF<Bits<2>>>,
    busy: Vec<DFF<Bits<4>>>,
    vtot: Vec<DFF<Bits<10>>>,
    stot: Vec<DFF<Bits<9>>>,
    wtot: Vec<DFF<Bits<7>>>,
    ltot: Vec<DFF<Bits<7>>>,
    score: Vec<DFF<Bits<16>>>,
    better: Vec<DFF<Bits<16>>>,
    // --- slots
    taken: DFF<Bits<64>>,
    inflight: DFF<Bits<64>>,
    // --- registers, window, marks, emb. 3
    policy: DFF<Bits<2>>,
    thr: DFF<Bits<16>>,
    wlen: Vec<DFF<Bits<16>>>,
    fweights: DFF<Bits<16>>,
    pweights: DFF<Bits<16>>,
    pwindow: DFF<Bits<16>>,
    win: DFF<Bits<2>>,
    win_cnt: DFF<Bits<16>>,
    marks: DFF<Bits<16>>,
    g: DFF<Bits<16>>,
    // --- decision → request, request → record, completion
    dq_valid: DFF<Bit>,
    dq_mod: DFF<Bits<4>>,
    dq_slot: DFF<Bits<6>>,
    dq_id: DFF<Bits<8>>,
    dq_sub: DFF<Bit>,
    dq_w: DFF<Bits<7>>,
    dq_v: DFF<Bits<8>>,
    dq_s: DFF<Bits<7>>,
    dq_l: DFF<Bits<6>>,
    dl: Vec<DFF<Bits<DLW>>>,
    fr_v: DFF<Bit>,
    out_valid: DFF<Bit>,
    out_id: DFF<Bits<8>>,
    out_mod: DFF<Bits<4>>,
    out_slot: DFF<Bits<6>>,
    out_sub: DFF<Bit>,
    out_waves: DFF<Bits<20>>,
    out_vb: DFF<Bits<28>>,
    out_sb: DFF<Bits<24>>,
    out_lb: DFF<Bits<6>>,
    out_err: DFF<Bit>,
    out_code: DFF<Bits<3>>,
    // --- locals
    hv: Vec<Signal<Local, Bit>>,
    pres_w: Vec<Signal<Local, Bits<7>>>,
    pres_p: Vec<Signal<Local, Bits<2>>>,
    cand: Vec<Signal<Local, Bit>>,
    okc: Vec<Signal<Local, Bit>>,
    rank: Vec<Signal<Local, Bits<2>>>,
    fm: Vec<Signal<Local, Bits<16>>>,
    modsel: Vec<Signal<Local, Bits<16>>>,
    e0: Signal<Local, Bits<ENTRY>>,
    h_q0: Signal<Local, Bits<16>>,
    h_q1: Signal<Local, Bits<16>>,
    h_v: Signal<Local, Bits<16>>,
    h_s: Signal<Local, Bits<16>>,
    p_x: Signal<Local, Bits<32>>,
    rvu: Vec<Signal<Local, Bits<8>>>,
    rsu: Vec<Signal<Local, Bits<8>>>,
    rl: Signal<Local, Bits<8>>,
    rel: Signal<Local, Bits<2>>,
    /// Module m's wave slots / VGPR / SGPR runs of its unit at position k after the split
    /// pointer (unit (k + ptr_m) mod 4): the unit that gets share k of every head.
    rot_w: Vec<Signal<Local, Bits<5>>>,
    rot_v: Vec<Signal<Local, Bits<8>>>,
    rot_s: Vec<Signal<Local, Bits<8>>>,
    /// Head c's share for the unit at position k after a module's pointer (index 4c + k):
    /// q1 (waves) and its products iff k < waves mod 4, else q0.
    sh_w: Vec<Signal<Local, Bits<5>>>,
    sh_v: Vec<Signal<Local, Bits<8>>>,
    sh_s: Vec<Signal<Local, Bits<8>>>,
    /// A queue RAM address (scratch).
    qa3: Signal<Local, Bits<3>>,
    /// The positions that get q1: bit k set iff k < waves mod 4.
    q1pos: Signal<Local, Bits<4>>,
    ok: Signal<Local, Bit>,
    fitev: Vec<Signal<Local, Bits<16>>>,
    busy_v: Signal<Local, Bits<16>>,
    free_v: Signal<Local, Bits<64>>,
    slot_any: Signal<Local, Bit>,
    slot_lo: Signal<Local, Bits<6>>,
    best: Signal<Local, Bits<2>>,
    tmask: Signal<Local, Bits<4>>,
    mk: Signal<Local, Bits<4>>,
    unm: Signal<Local, Bits<4>>,
    pick: Signal<Local, Bits<4>>,
    wc: Signal<Local, Bits<2>>,
    pbest: Signal<Local, Bits<2>>,
    dec: Signal<Local, Bit>,
    dmod1: Signal<Local, Bits<16>>,
    dmod: Signal<Local, Bits<4>>,
    last: Signal<Local, Bit>,
    pop: Signal<Local, Bits<4>>,
    one_hot: Signal<Local, Bits<16>>,
    // push and errors
    ready: Signal<Local, Bit>,
    per_unit: Signal<Local, Bits<16>>,
    perr: Signal<Local, Bits<3>>,
    pacc: Signal<Local, Bit>,
    desc: Signal<Local, Bits<ENTRY>>,
    dacc: Signal<Local, Bit>,
    cbad: Signal<Local, Bit>,
    // request stage
    wu: Vec<Signal<Local, Bits<5>>>,
    need: Vec<Signal<Local, Bits<8>>>,
    dlin: Signal<Local, Bits<DLW>>,
    rqw: Signal<Local, Bits<16>>,
    // record stage
    dlo: Signal<Local, Bits<DLW>>,
    rv: Signal<Local, Bit>,
    twr: Signal<Local, Bits<TW>>,
    // completion
    td: Signal<Local, Bits<TW>>,
    fmask: Vec<Signal<Local, Bits<V>>>,
    /// The record's nine regions packed as in `mask_table`.
    mwr: Signal<Local, Bits<MW>>,
    /// A `mask_table` word shifted to region j (scratch).
    mrd: Signal<Local, Bits<MW>>,
    sum_v: Signal<Local, Bits<10>>,
    sum_s: Signal<Local, Bits<9>>,
    sum_w: Signal<Local, Bits<7>>,
    // split
    anyfit: Signal<Local, Bit>,
    allstable: Signal<Local, Bit>,
    anyhead: Signal<Local, Bit>,
    split_go: Signal<Local, Bit>,
    split_c: Signal<Local, Bits<4>>,
    nxt_cnt: Signal<Local, Bits<16>>,
    wl: Signal<Local, Bits<16>>,
    ptrsel: Signal<Local, Bits<2>>,
    whot: Signal<Local, Bits<4>>,
    tdm: Signal<Local, Bits<4>>,
    subsel: Signal<Local, Bit>,
    live: Signal<Local, Bit>,
    sh64: Signal<Local, Bits<64>>,
    sh16: Signal<Local, Bits<16>>,
    tv: Signal<Local, Bits<10>>,
    ts: Signal<Local, Bits<9>>,
    tw: Signal<Local, Bits<7>>,
    tl: Signal<Local, Bits<7>>,
    sc2: Signal<Local, Bits<2>>,
    sc4: Signal<Local, Bits<4>>,
    sc5: Signal<Local, Bits<5>>,
    sc7: Signal<Local, Bits<7>>,
    sc7b: Signal<Local, Bits<7>>,
    sc8: Signal<Local, Bits<8>>,
    sc8b: Signal<Local, Bits<8>>,
    sc9: Signal<Local, Bits<9>>,
    sc10: Signal<Local, Bits<10>>,
    skv: Signal<Local, Bits<KV>>,
    inf_n: Signal<Local, Bits<64>>,
    tak_n: Signal<Local, Bits<64>>,
    dlone: Constant<Bits<DLW>>,
    entry_indep: Constant<Bits<ENTRY>>,
    wsel: Signal<Local, Bits<7>>,
    // constants
    one4: Constant<Bits<4>>,
    one16: Constant<Bits<16>>,
    one64: Constant<Bits<64>>,
    p1: Constant<Bits<2>>,
    p2: Constant<Bits<2>>,
    p3: Constant<Bits<2>>,
    w1: Constant<Bits<7>>,
    wl_init: Vec<Constant<Bits<16>>>,
    k256: Constant<Bits<16>>,
    k1111: Constant<Bits<16>>,
    k1024: Constant<Bits<16>>,
    kmax: Constant<Bits<16>>,
    c8: Vec<Constant<Bits<8>>>,
    c16: Vec<Constant<Bits<16>>>,
    mnum: Vec<Constant<Bits<4>>>,
    lower: Vec<Constant<Bits<16>>>,
    runoff: Vec<Constant<Bits<16>>>,
    /// Index 4u + k: the split pointer that puts unit u at position k, (u − k) mod 4.
    ptr_of: Vec<Constant<Bits<2>>>,
    /// Offsets of the nine regions in a `mask_table` word.
    moff: Vec<Constant<Bits<16>>>,
    kv_v: Constant<Bits<16>>,
    kv_s: Constant<Bits<16>>,
    kv_l: Constant<Bits<16>>,
    kv_ws: Constant<Bits<16>>,
    ws5: Constant<Bits<5>>,
    v_all: Constant<Bits<10>>,
    s_all: Constant<Bits<9>>,
    w_all: Constant<Bits<7>>,
    l_all: Constant<Bits<7>>,
    busy_load: Constant<Bits<4>>,
    sat: Constant<Bits<32>>,
}

/// `DispatcherConfig::full()`: maps 128 / 64 / 48, 16 wave slots (LA = 9, K = 7).
pub type DispatcherFullFull =
    DispatcherFull<128, 64, 128, 48, 64, 8, 7, 6, 2, 0, 128, 256, 7, 5, 16, 816>;
/// The small config: the board's maps 16 / 8 / 16 and 4 wave slots (LA = 6, K = 5).
pub type DispatcherFullSmall =
    DispatcherFull<16, 8, 16, 16, 8, 5, 4, 3, 0, 1, 80, 32, 4, 2, 4, 112>;

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
        const WS: usize,
        const MW: usize,
    > DispatcherFull<V, S, S2, L, H, KV, KH, SH, DC, DT, R, M2, SV, LT, WS, MW>
{
    /// The allocator's request → record latency LA.
    pub const LA: usize = LT + 4;
    /// Head → record: h + 4 + LA (the spec checker's H).
    pub const HEAD_TO_RECORD: usize = LT + 8;
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
        const WS: usize,
        const MW: usize,
    > Default for DispatcherFull<V, S, S2, L, H, KV, KH, SH, DC, DT, R, M2, SV, LT, WS, MW>
{
    fn default() -> Self {
        assert!(KV <= 8, "DispatcherFull: runs must fit 8 bits");
        assert!(WS <= 16 && V <= 128 && S <= 64 && L <= 64);
        Self {
            clock: Default::default(),
            reset: Default::default(),
            push_valid: Default::default(),
            push_ready: Default::default(),
            push_channel: Default::default(),
            push_id: Default::default(),
            push_prio: Default::default(),
            push_waves: Default::default(),
            push_vgpr: Default::default(),
            push_sgpr: Default::default(),
            push_lds: Default::default(),
            push_indep: Default::default(),
            disp_valid: Default::default(),
            disp_id: Default::default(),
            disp_module: Default::default(),
            disp_slot: Default::default(),
            disp_sub: Default::default(),
            disp_waves: Default::default(),
            disp_vgpr_base: Default::default(),
            disp_sgpr_base: Default::default(),
            disp_lds_base: Default::default(),
            done_valid: Default::default(),
            done_slot: Default::default(),
            cfg_we: Default::default(),
            cfg_addr: Default::default(),
            cfg_data: Default::default(),
            retire_class: Default::default(),
            error: Default::default(),
            error_code: Default::default(),
            alloc: Default::default(),
            power: Default::default(),
            slot_table: Default::default(),
            mask_table: Default::default(),
            head: locals(4),
            qram: (0..4).map(|_| Default::default()).collect(),
            rdp: locals(4),
            cnt: locals(4),
            split_left: locals(4),
            chg1: locals(4),
            chg2: locals(4),
            nd_valid: locals(4),
            nd_q0: locals(4),
            nd_q1: locals(4),
            nd_r: locals(4),
            nd_v0: locals(4),
            nd_v1: locals(4),
            nd_s0: locals(4),
            nd_s1: locals(4),
            nd_l: locals(4),
            fite_r: locals(4),
            wfree: locals(64),
            ptr: locals(16),
            busy: locals(16),
            vtot: locals(16),
            stot: locals(16),
            wtot: locals(16),
            ltot: locals(16),
            score: locals(16),
            better: locals(16),
            taken: Default::default(),
            inflight: Default::default(),
            policy: Default::default(),
            thr: Default::default(),
            wlen: locals(4),
            fweights: Default::default(),
            pweights: Default::default(),
            pwindow: Default::default(),
            win: Default::default(),
            win_cnt: Default::default(),
            marks: Default::default(),
            g: Default::default(),
            dq_valid: Default::default(),
            dq_mod: Default::default(),
            dq_slot: Default::default(),
            dq_id: Default::default(),
            dq_sub: Default::default(),
            dq_w: Default::default(),
            dq_v: Default::default(),
            dq_s: Default::default(),
            dq_l: Default::default(),
            dl: locals(LT + 4),
            fr_v: Default::default(),
            out_valid: Default::default(),
            out_id: Default::default(),
            out_mod: Default::default(),
            out_slot: Default::default(),
            out_sub: Default::default(),
            out_waves: Default::default(),
            out_vb: Default::default(),
            out_sb: Default::default(),
            out_lb: Default::default(),
            out_err: Default::default(),
            out_code: Default::default(),
            hv: locals(4),
            pres_w: locals(4),
            pres_p: locals(4),
            cand: locals(4),
            okc: locals(4),
            rank: locals(4),
            fm: locals(4),
            modsel: locals(4),
            e0: Default::default(),
            h_q0: Default::default(),
            h_q1: Default::default(),
            h_v: Default::default(),
            h_s: Default::default(),
            p_x: Default::default(),
            rvu: locals(4),
            rsu: locals(4),
            rl: Default::default(),
            rel: Default::default(),
            rot_w: locals(4),
            rot_v: locals(4),
            rot_s: locals(4),
            sh_w: locals(16),
            sh_v: locals(16),
            sh_s: locals(16),
            q1pos: Default::default(),
            qa3: Default::default(),
            ptr_of: (0..16)
                .map(|x| konst(((x / 4 + 4 - x % 4) % 4) as u64))
                .collect(),
            ok: Default::default(),
            fitev: locals(4),
            busy_v: Default::default(),
            free_v: Default::default(),
            slot_any: Default::default(),
            slot_lo: Default::default(),
            best: Default::default(),
            tmask: Default::default(),
            mk: Default::default(),
            unm: Default::default(),
            pick: Default::default(),
            wc: Default::default(),
            pbest: Default::default(),
            dec: Default::default(),
            dmod1: Default::default(),
            dmod: Default::default(),
            last: Default::default(),
            pop: Default::default(),
            one_hot: Default::default(),
            ready: Default::default(),
            per_unit: Default::default(),
            perr: Default::default(),
            pacc: Default::default(),
            desc: Default::default(),
            dacc: Default::default(),
            cbad: Default::default(),
            wu: locals(4),
            need: locals(9),
            dlin: Default::default(),
            rqw: Default::default(),
            dlo: Default::default(),
            rv: Default::default(),
            twr: Default::default(),
            td: Default::default(),
            fmask: locals(9),
            mwr: Default::default(),
            mrd: Default::default(),
            sum_v: Default::default(),
            sum_s: Default::default(),
            sum_w: Default::default(),
            anyfit: Default::default(),
            allstable: Default::default(),
            anyhead: Default::default(),
            split_go: Default::default(),
            split_c: Default::default(),
            nxt_cnt: Default::default(),
            wl: Default::default(),
            ptrsel: Default::default(),
            whot: Default::default(),
            tdm: Default::default(),
            subsel: Default::default(),
            live: Default::default(),
            sh64: Default::default(),
            sh16: Default::default(),
            tv: Default::default(),
            ts: Default::default(),
            tw: Default::default(),
            tl: Default::default(),
            sc2: Default::default(),
            sc4: Default::default(),
            sc5: Default::default(),
            sc7: Default::default(),
            sc7b: Default::default(),
            sc8: Default::default(),
            sc8b: Default::default(),
            sc9: Default::default(),
            sc10: Default::default(),
            skv: Default::default(),
            inf_n: Default::default(),
            tak_n: Default::default(),
            dlone: konst(1),
            entry_indep: konst(1 << 38),
            wsel: Default::default(),
            one4: konst(1),
            one16: konst(1),
            one64: konst(1),
            p1: konst(1),
            p2: konst(2),
            p3: konst(3),
            w1: konst(1),
            wl_init: [512u64, 256, 128, 128].iter().map(|&x| konst(x)).collect(),
            k256: konst(256),
            k1111: konst(0x1111),
            k1024: konst(1024),
            kmax: konst(0xFFFF),
            c8: (0..9).map(|x| konst(x as u64)).collect(),
            c16: (0..176).map(|x| konst(x as u64)).collect(),
            mnum: (0..16).map(|x| konst(x as u64)).collect(),
            lower: (0..16)
                .map(|i| konst(0xFFFFu64 & !((1u64 << i) - 1)))
                .collect(),
            runoff: (0..16).map(|m| konst((KV * m) as u64)).collect(),
            moff: (0..9)
                .map(|j| konst(if j < 4 { j * V } else { 4 * V + (j - 4) * S } as u64))
                .collect(),
            kv_v: konst(V as u64),
            kv_s: konst(S as u64),
            kv_l: konst(L as u64),
            kv_ws: konst(WS as u64),
            ws5: konst(WS as u64),
            v_all: konst(4 * V as u64),
            s_all: konst(4 * S as u64),
            w_all: konst(4 * WS as u64),
            l_all: konst(L as u64),
            busy_load: konst((LT + 6) as u64),
            sat: konst(255),
        }
    }
}

// the score order writes `!(score_j >= score_m)` below the diagonal, not `score_j < score_m`: the
// negation of the pair's own comparator, which yosys's opt_merge shares (one comparator per pair)
#[allow(clippy::nonminimal_bool)]
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
        const WS: usize,
        const MW: usize,
    > Logic for DispatcherFull<V, S, S2, L, H, KV, KH, SH, DC, DT, R, M2, SV, LT, WS, MW>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, taken, inflight, policy, thr, fweights, pweights, pwindow, win, win_cnt,
            marks, g, dq_valid, dq_mod, dq_slot, dq_id, dq_sub, dq_w, dq_v, dq_s, dq_l, fr_v,
            out_valid, out_id, out_mod, out_slot, out_sub, out_waves, out_vb, out_sb, out_lb,
            out_err, out_code
        );
        for c in 0..4 {
            self.head[c].clock.next = self.clock.val();
            self.head[c].d.next = self.head[c].q.val();
            self.rdp[c].clock.next = self.clock.val();
            self.rdp[c].d.next = self.rdp[c].q.val();
            self.qram[c].clock.next = self.clock.val();
        }
        for c in 0..4 {
            self.cnt[c].clock.next = self.clock.val();
            self.cnt[c].d.next = self.cnt[c].q.val();
            self.split_left[c].clock.next = self.clock.val();
            self.split_left[c].d.next = self.split_left[c].q.val();
            self.chg1[c].clock.next = self.clock.val();
            self.chg2[c].clock.next = self.clock.val();
            self.nd_valid[c].clock.next = self.clock.val();
            self.nd_q0[c].clock.next = self.clock.val();
            self.nd_q1[c].clock.next = self.clock.val();
            self.nd_r[c].clock.next = self.clock.val();
            self.nd_v0[c].clock.next = self.clock.val();
            self.nd_v1[c].clock.next = self.clock.val();
            self.nd_s0[c].clock.next = self.clock.val();
            self.nd_s1[c].clock.next = self.clock.val();
            self.nd_l[c].clock.next = self.clock.val();
            self.fite_r[c].clock.next = self.clock.val();
            self.wlen[c].clock.next = self.clock.val();
            self.wlen[c].d.next = self.wlen[c].q.val();
        }
        for i in 0..64 {
            self.wfree[i].clock.next = self.clock.val();
        }
        for m in 0..16 {
            self.ptr[m].clock.next = self.clock.val();
            self.ptr[m].d.next = self.ptr[m].q.val();
            self.busy[m].clock.next = self.clock.val();
            self.vtot[m].clock.next = self.clock.val();
            self.stot[m].clock.next = self.clock.val();
            self.wtot[m].clock.next = self.clock.val();
            self.ltot[m].clock.next = self.clock.val();
            self.score[m].clock.next = self.clock.val();
            self.better[m].clock.next = self.clock.val();
        }
        for s in 0..(LT + 4) {
            self.dl[s].clock.next = self.clock.val();
        }
        // ---------------- heads as presented (split mode: one wave at priority 3)
        for c in 0..4 {
            self.hv[c].next = self.cnt[c].q.val().any();
            self.pres_w[c].next = self.head[c].q.val().get_bits::<7>(10);
            self.pres_p[c].next = self.head[c].q.val().get_bits::<2>(8);
            if self.split_left[c].q.val().any() {
                self.pres_w[c].next = self.w1.val();
                self.pres_p[c].next = self.p3.val();
            }
            self.cand[c].next = self.hv[c].val() & !self.chg1[c].q.val() & !self.chg2[c].q.val();
        }
        // ---------------- stage 1: head needs, registered
        for c in 0..4 {
            self.e0.next = self.head[c].q.val();
            self.sc7.next = self.pres_w[c].val();
            self.h_q0.next = bit_cast::<16, 7>(self.sc7.val()) >> self.c16[2].val();
            self.h_q1.next = self.h_q0.val() + 1;
            self.h_v.next = bit_cast::<16, 8>(self.e0.val().get_bits::<8>(17));
            self.h_s.next = bit_cast::<16, 7>(self.e0.val().get_bits::<7>(25));
            self.nd_valid[c].d.next = self.hv[c].val() & !self.reset.val();
            self.nd_q0[c].d.next = self.h_q0.val().get_bits::<5>(0);
            self.nd_q1[c].d.next = self.h_q1.val().get_bits::<5>(0);
            self.nd_r[c].d.next = self.pres_w[c].val().get_bits::<2>(0);
            self.nd_l[c].d.next = bit_cast::<8, 6>(self.e0.val().get_bits::<6>(32));
            self.p_x.next = self.h_q0.val() * self.h_v.val();
            self.nd_v0[c].d.next = self.p_x.val().get_bits::<8>(0);
            if self.p_x.val() > self.sat.val() {
                self.nd_v0[c].d.next = self.sat.val().get_bits::<8>(0);
            }
            self.p_x.next = self.h_q1.val() * self.h_v.val();
            self.nd_v1[c].d.next = self.p_x.val().get_bits::<8>(0);
            if self.p_x.val() > self.sat.val() {
                self.nd_v1[c].d.next = self.sat.val().get_bits::<8>(0);
            }
            self.p_x.next = self.h_q0.val() * self.h_s.val();
            self.nd_s0[c].d.next = self.p_x.val().get_bits::<8>(0);
            if self.p_x.val() > self.sat.val() {
                self.nd_s0[c].d.next = self.sat.val().get_bits::<8>(0);
            }
            self.p_x.next = self.h_q1.val() * self.h_s.val();
            self.nd_s1[c].d.next = self.p_x.val().get_bits::<8>(0);
            if self.p_x.val() > self.sat.val() {
                self.nd_s1[c].d.next = self.sat.val().get_bits::<8>(0);
            }
            self.fitev[c].next = 0.into();
        }
        // ---------------- stage 2: every head × module × unit on the runs, registered
        // each head's share per position after a module's split pointer (SPEC emb. 8: the
        // unit at position k < waves mod 4 gets q1), then the units of each module in pointer
        // order: one 2:1 share select per head and position, not per head × module × unit
        for c in 0..4 {
            self.q1pos.next = (self.one4.val() << self.nd_r[c].q.val()) - 1;
            for k in 0..4 {
                self.sh_w[c * 4 + k].next = self.nd_q0[c].q.val();
                self.sh_v[c * 4 + k].next = self.nd_v0[c].q.val();
                self.sh_s[c * 4 + k].next = self.nd_s0[c].q.val();
                if self.q1pos.val().get_bit(k) {
                    self.sh_w[c * 4 + k].next = self.nd_q1[c].q.val();
                    self.sh_v[c * 4 + k].next = self.nd_v1[c].q.val();
                    self.sh_s[c * 4 + k].next = self.nd_s1[c].q.val();
                }
            }
        }
        for m in 0..16 {
            self.skv.next = self
                .alloc
                .runs_vgpr0
                .val()
                .get_bits::<KV>(self.runoff[m].val().index());
            self.rvu[0].next = bit_cast::<8, KV>(self.skv.val());
            self.skv.next = self
                .alloc
                .runs_vgpr1
                .val()
                .get_bits::<KV>(self.runoff[m].val().index());
            self.rvu[1].next = bit_cast::<8, KV>(self.skv.val());
            self.skv.next = self
                .alloc
                .runs_vgpr2
                .val()
                .get_bits::<KV>(self.runoff[m].val().index());
            self.rvu[2].next = bit_cast::<8, KV>(self.skv.val());
            self.skv.next = self
                .alloc
                .runs_vgpr3
                .val()
                .get_bits::<KV>(self.runoff[m].val().index());
            self.rvu[3].next = bit_cast::<8, KV>(self.skv.val());
            self.skv.next = self
                .alloc
                .runs_sgpr0
                .val()
                .get_bits::<KV>(self.runoff[m].val().index());
            self.rsu[0].next = bit_cast::<8, KV>(self.skv.val());
            self.skv.next = self
                .alloc
                .runs_sgpr1
                .val()
                .get_bits::<KV>(self.runoff[m].val().index());
            self.rsu[1].next = bit_cast::<8, KV>(self.skv.val());
            self.skv.next = self
                .alloc
                .runs_sgpr2
                .val()
                .get_bits::<KV>(self.runoff[m].val().index());
            self.rsu[2].next = bit_cast::<8, KV>(self.skv.val());
            self.skv.next = self
                .alloc
                .runs_sgpr3
                .val()
                .get_bits::<KV>(self.runoff[m].val().index());
            self.rsu[3].next = bit_cast::<8, KV>(self.skv.val());
            self.skv.next = self
                .alloc
                .runs_lds
                .val()
                .get_bits::<KV>(self.runoff[m].val().index());
            self.rl.next = bit_cast::<8, KV>(self.skv.val());
            // the units in the order of the split pointer: position k is unit (k + ptr_m) mod 4
            for k in 0..4 {
                self.rot_w[k].next = 0.into();
                self.rot_v[k].next = 0.into();
                self.rot_s[k].next = 0.into();
                for u in 0..4 {
                    if self.ptr[m].q.val() == self.ptr_of[u * 4 + k].val() {
                        self.rot_w[k].next = self.wfree[m * 4 + u].q.val();
                        self.rot_v[k].next = self.rvu[u].val();
                        self.rot_s[k].next = self.rsu[u].val();
                    }
                }
            }
            for c in 0..4 {
                self.ok.next = self.nd_valid[c].q.val() & (self.rl.val() >= self.nd_l[c].q.val());
                for k in 0..4 {
                    self.ok.next = self.ok.val()
                        & (self.rot_w[k].val() >= self.sh_w[c * 4 + k].val())
                        & (self.rot_v[k].val() >= self.sh_v[c * 4 + k].val())
                        & (self.rot_s[k].val() >= self.sh_s[c * 4 + k].val());
                }
                self.fitev[c].next = self.fitev[c]
                    .val()
                    .replace_bit(m, self.ok.val() & self.alloc.eligible.val().get_bit(m));
            }
        }
        for c in 0..4 {
            self.fite_r[c].d.next = self.fitev[c].val();
        }
        // ---------------- the decision: slot, modules per channel, channel pick
        self.busy_v.next = 0.into();
        for m in 0..16 {
            if self.busy[m].q.val().any() {
                self.busy_v.next = self.busy_v.val().replace_bit(m, true);
            }
        }
        self.free_v.next = !self.taken.q.val();
        self.slot_any.next = self.free_v.val().any();
        self.slot_lo.next = 0.into();
        for i in 0..64 {
            if self.free_v.val().get_bit(63 - i) {
                self.slot_lo.next = self.c16[63 - i].val().get_bits::<6>(0);
            }
        }
        for c in 0..4 {
            self.fm[c].next = self.fite_r[c].q.val() & !self.busy_v.val();
            self.okc[c].next = self.cand[c].val() & self.fm[c].val().any() & self.slot_any.val();
            self.rank[c].next = self.pres_p[c].val();
            if self.pres_p[c].val() == self.win.q.val() {
                self.rank[c].next = 0.into();
            } else if self.pres_p[c].val() < self.win.q.val() {
                self.rank[c].next = self.pres_p[c].val() + 1;
            }
            // `first`: the lowest fitting module
            self.modsel[c].next = self.fm[c].val() & (!self.fm[c].val() + 1);
            // `max_weighted_free`: the module whose score beats every other fitting one
            if self.policy.q.val() == self.p1.val() {
                self.modsel[c].next = 0.into();
                for i in 0..16 {
                    if self.fm[c].val().get_bit(i)
                        & (!self.fm[c].val() | self.better[i].q.val()).all()
                    {
                        self.modsel[c].next = self.modsel[c].val().replace_bit(i, true);
                    }
                }
            }
            // `min_power_history`: the module whose history beats every other fitting one
            if self.policy.q.val() == self.p2.val() {
                self.modsel[c].next = 0.into();
                for i in 0..16 {
                    if self.fm[c].val().get_bit(i)
                        & (!self.fm[c].val() | self.power.better.val().get_bits::<16>(16 * i)).all()
                    {
                        self.modsel[c].next = self.modsel[c].val().replace_bit(i, true);
                    }
                }
            }
        }
        self.best.next = self.p3.val();
        for c in 0..4 {
            if self.okc[c].val() & (self.rank[c].val() < self.best.val()) {
                self.best.next = self.rank[c].val();
            }
        }
        self.tmask.next = 0.into();
        self.mk.next = 0.into();
        self.pbest.next = 0.into();
        for c in 0..4 {
            if self.okc[c].val() & (self.rank[c].val() == self.best.val()) {
                self.tmask.next = self.tmask.val().replace_bit(c, true);
                self.pbest.next = self.pres_p[c].val();
            }
            self.sc2.next = self.pres_p[c].val();
            self.sh16.next =
                self.marks.q.val() >> (bit_cast::<16, 2>(self.sc2.val()) << self.c16[2].val());
            if self.sh16.val().get_bit(c) {
                self.mk.next = self.mk.val().replace_bit(c, true);
            }
        }
        self.unm.next = self.tmask.val() & !self.mk.val();
        self.pick.next = self.tmask.val();
        if self.unm.val().any() {
            self.pick.next = self.unm.val();
        }
        self.wc.next = 0.into();
        for c in 0..4 {
            if self.pick.val().get_bit(3 - c) {
                self.wc.next = self.c8[3 - c].val().get_bits::<2>(0);
            }
        }
        self.whot.next = self.one4.val() << self.wc.val();
        self.dec.next = self.tmask.val().any() & !self.reset.val();
        self.dmod1.next = 0.into();
        self.last.next = false;
        self.e0.next = 0.into();
        self.subsel.next = false;
        self.wsel.next = 0.into();
        for c in 0..4 {
            if self.whot.val().get_bit(c) {
                self.dmod1.next = self.modsel[c].val();
                self.last.next = !(self.split_left[c].q.val() >> 1).any();
                self.e0.next = self.head[c].q.val();
                self.subsel.next = self.split_left[c].q.val().any();
                self.wsel.next = self.pres_w[c].val();
            }
        }
        self.dmod.next = 0.into();
        for i in 0..16 {
            if self.dmod1.val().get_bit(i) {
                self.dmod.next = self.mnum[i].val();
            }
        }
        self.pop.next = 0.into();
        if self.dec.val() & self.last.val() {
            self.pop.next = self.whot.val();
        }
        // a42 marks of the winning priority
        if self.dec.val() & (self.tmask.val() & (self.tmask.val() - 1)).any() {
            if self.unm.val().any() {
                self.marks.d.next = self.marks.q.val()
                    | (bit_cast::<16, 4>(self.whot.val())
                        << (bit_cast::<16, 2>(self.pbest.val()) << self.c16[2].val()));
            } else {
                self.marks.d.next = self.marks.q.val()
                    & !(bit_cast::<16, 4>(self.tmask.val() & !self.whot.val())
                        << (bit_cast::<16, 2>(self.pbest.val()) << self.c16[2].val()));
            }
        }
        // the decision, registered
        self.dq_valid.d.next = self.dec.val();
        if self.dec.val() {
            self.dq_mod.d.next = self.dmod.val();
            self.dq_slot.d.next = self.slot_lo.val();
            self.dq_id.d.next = self.e0.val().get_bits::<8>(0);
            self.dq_sub.d.next = self.subsel.val();
            self.dq_w.d.next = self.wsel.val();
            self.dq_v.d.next = self.e0.val().get_bits::<8>(17);
            self.dq_s.d.next = self.e0.val().get_bits::<7>(25);
            self.dq_l.d.next = self.e0.val().get_bits::<6>(32);
        }
        // busy countdowns: a decided module is excluded until its commit shows in `eligible`
        for m in 0..16 {
            self.busy[m].d.next = self.busy[m].q.val();
            if self.busy[m].q.val().any() {
                self.busy[m].d.next = self.busy[m].q.val() - 1;
            }
            if self.dec.val() & self.dmod1.val().get_bit(m) {
                self.busy[m].d.next = self.busy_load.val();
            }
        }
        // ---------------- completion (cycle t): slot freed at the edge, table read
        self.sh64.next = self.inflight.q.val() >> bit_cast::<64, 6>(self.done_slot.val());
        self.live.next = self.sh64.val().get_bit(0);
        self.dacc.next = self.done_valid.val() & self.live.val() & !self.reset.val();
        self.fr_v.d.next = self.dacc.val();
        self.slot_table.read_clock.next = self.clock.val();
        self.slot_table.write_clock.next = self.clock.val();
        self.slot_table.read_address.next = self.done_slot.val();
        self.mask_table.read_clock.next = self.clock.val();
        self.mask_table.write_clock.next = self.clock.val();
        self.mask_table.read_address.next = self.done_slot.val();
        self.tak_n.next = self.taken.q.val();
        if self.dec.val() {
            self.tak_n.next =
                self.taken.q.val() | (self.one64.val() << bit_cast::<64, 6>(self.slot_lo.val()));
        }
        // ---------------- request stage (decision + 1): per-unit waves and needs
        self.rqw.next = bit_cast::<16, 7>(self.dq_w.q.val()) >> self.c16[2].val();
        self.ptrsel.next = 0.into();
        for m in 0..16 {
            if self.dq_mod.q.val() == self.mnum[m].val() {
                self.ptrsel.next = self.ptr[m].q.val();
            }
        }
        for u in 0..4 {
            self.rel.next = self.c8[u].val().get_bits::<2>(0) - self.ptrsel.val();
            self.wu[u].next = self.rqw.val().get_bits::<5>(0);
            if self.rel.val() < self.dq_w.q.val().get_bits::<2>(0) {
                self.wu[u].next = self.rqw.val().get_bits::<5>(0) + 1;
            }
            self.sc5.next = self.wu[u].val();
            self.need[u].next = bit_cast::<8, 32>(
                bit_cast::<16, 5>(self.sc5.val()) * bit_cast::<16, 8>(self.dq_v.q.val()),
            );
            self.need[4 + u].next = bit_cast::<8, 32>(
                bit_cast::<16, 5>(self.sc5.val()) * bit_cast::<16, 7>(self.dq_s.q.val()),
            );
        }
        self.need[8].next = bit_cast::<8, 6>(self.dq_l.q.val());
        self.alloc.clock.next = self.clock.val();
        self.alloc.reset.next = self.reset.val();
        self.alloc.req_en.next = self.dq_valid.q.val();
        self.alloc.req_module.next = self.dq_mod.q.val();
        self.alloc.need_vgpr0.next = bit_cast::<KV, 8>(self.need[0].val());
        self.alloc.need_vgpr1.next = bit_cast::<KV, 8>(self.need[1].val());
        self.alloc.need_vgpr2.next = bit_cast::<KV, 8>(self.need[2].val());
        self.alloc.need_vgpr3.next = bit_cast::<KV, 8>(self.need[3].val());
        self.alloc.need_sgpr0.next = bit_cast::<KV, 8>(self.need[4].val());
        self.alloc.need_sgpr1.next = bit_cast::<KV, 8>(self.need[5].val());
        self.alloc.need_sgpr2.next = bit_cast::<KV, 8>(self.need[6].val());
        self.alloc.need_sgpr3.next = bit_cast::<KV, 8>(self.need[7].val());
        self.alloc.need_lds.next = bit_cast::<KV, 8>(self.need[8].val());
        self.dlin.next = bit_cast::<DLW, 6>(self.dq_slot.q.val())
            | (bit_cast::<DLW, 8>(self.dq_id.q.val()) << self.c16[6].val());
        if self.dq_sub.q.val() {
            self.dlin.next = self.dlin.val() | (self.dlone.val() << self.c16[14].val());
        }
        for u in 0..4 {
            self.sc5.next = self.wu[u].val();
            self.dlin.next = self.dlin.val()
                | (bit_cast::<DLW, 5>(self.sc5.val()) << self.c16[15 + 5 * u].val());
        }
        for j in 0..9 {
            self.sc8.next = self.need[j].val();
            self.dlin.next = self.dlin.val()
                | (bit_cast::<DLW, 8>(self.sc8.val()) << self.c16[40 + 8 * j].val());
        }
        self.dl[0].d.next = self.dlin.val();
        for s in 0..(LT + 3) {
            self.dl[s + 1].d.next = self.dl[s].q.val();
        }
        // ---------------- record stage (request + LA): record, table write, slot in flight
        for zz in (LT + 3)..(LT + 4) {
            self.dlo.next = self.dl[zz].q.val();
        }
        self.rv.next = self.alloc.rec_valid.val() & self.alloc.rec_ok.val();
        self.out_valid.d.next = self.rv.val();
        self.out_id.d.next = 0.into();
        self.out_mod.d.next = 0.into();
        self.out_slot.d.next = 0.into();
        self.out_sub.d.next = false;
        self.out_waves.d.next = 0.into();
        self.out_vb.d.next = 0.into();
        self.out_sb.d.next = 0.into();
        self.out_lb.d.next = 0.into();
        if self.rv.val() {
            self.out_id.d.next = self.dlo.val().get_bits::<8>(6);
            self.out_mod.d.next = self.alloc.rec_module.val();
            self.out_slot.d.next = self.dlo.val().get_bits::<6>(0);
            self.out_sub.d.next = self.dlo.val().get_bit(14);
            self.out_waves.d.next = self.dlo.val().get_bits::<20>(15);
            self.out_vb.d.next = bit_cast::<28, KV>(self.alloc.rec_base_vgpr0.val())
                | (bit_cast::<28, KV>(self.alloc.rec_base_vgpr1.val()) << self.c16[7].val())
                | (bit_cast::<28, KV>(self.alloc.rec_base_vgpr2.val()) << self.c16[14].val())
                | (bit_cast::<28, KV>(self.alloc.rec_base_vgpr3.val()) << self.c16[21].val());
            self.out_sb.d.next = bit_cast::<24, KV>(self.alloc.rec_base_sgpr0.val())
                | (bit_cast::<24, KV>(self.alloc.rec_base_sgpr1.val()) << self.c16[6].val())
                | (bit_cast::<24, KV>(self.alloc.rec_base_sgpr2.val()) << self.c16[12].val())
                | (bit_cast::<24, KV>(self.alloc.rec_base_sgpr3.val()) << self.c16[18].val());
            self.out_lb.d.next = bit_cast::<6, KV>(self.alloc.rec_base_lds.val());
        }
        self.twr.next = bit_cast::<TW, 4>(self.alloc.rec_module.val())
            | (bit_cast::<TW, 20>(self.dlo.val().get_bits::<20>(15)) << self.c16[4].val());
        for j in 0..9 {
            self.sc8.next = self.dlo.val().get_bits::<8>(40 + 8 * j);
            self.twr.next =
                self.twr.val() | (bit_cast::<TW, 8>(self.sc8.val()) << self.c16[32 + 16 * j].val());
        }
        self.slot_table.write_enable.next = self.rv.val();
        self.slot_table.write_address.next = self.dlo.val().get_bits::<6>(0);
        self.slot_table.write_data.next = self.twr.val();
        self.mwr.next = bit_cast::<MW, V>(self.alloc.rec_mask_vgpr0.val())
            | (bit_cast::<MW, V>(self.alloc.rec_mask_vgpr1.val()) << self.moff[1].val())
            | (bit_cast::<MW, V>(self.alloc.rec_mask_vgpr2.val()) << self.moff[2].val())
            | (bit_cast::<MW, V>(self.alloc.rec_mask_vgpr3.val()) << self.moff[3].val())
            | (bit_cast::<MW, S>(self.alloc.rec_mask_sgpr0.val()) << self.moff[4].val())
            | (bit_cast::<MW, S>(self.alloc.rec_mask_sgpr1.val()) << self.moff[5].val())
            | (bit_cast::<MW, S>(self.alloc.rec_mask_sgpr2.val()) << self.moff[6].val())
            | (bit_cast::<MW, S>(self.alloc.rec_mask_sgpr3.val()) << self.moff[7].val())
            | (bit_cast::<MW, L>(self.alloc.rec_mask_lds.val()) << self.moff[8].val());
        self.mask_table.write_enable.next = self.rv.val();
        self.mask_table.write_address.next = self.dlo.val().get_bits::<6>(0);
        self.mask_table.write_data.next = self.mwr.val();
        self.inf_n.next = self.inflight.q.val();
        if self.rv.val() {
            self.inf_n.next = self.inflight.q.val()
                | (self.one64.val() << bit_cast::<64, 6>(self.dlo.val().get_bits::<6>(0)));
        }
        if self.dacc.val() {
            self.inf_n.next =
                self.inf_n.val() & !(self.one64.val() << bit_cast::<64, 6>(self.done_slot.val()));
            self.tak_n.next =
                self.tak_n.val() & !(self.one64.val() << bit_cast::<64, 6>(self.done_slot.val()));
        }
        self.inflight.d.next = self.inf_n.val();
        self.taken.d.next = self.tak_n.val();
        // ---------------- completion (t + 1): the table entry → port F, wave slots, counts
        self.td.next = self.slot_table.read_data.val();
        self.tdm.next = self.td.val().get_bits::<4>(0);
        // the regions the record committed, from the mask table (read with the entry)
        for j in 0..9 {
            self.mrd.next = self.mask_table.read_data.val() >> self.moff[j].val();
            self.fmask[j].next = bit_cast::<V, MW>(self.mrd.val());
        }
        self.alloc.free_en.next = self.fr_v.q.val();
        self.alloc.free_module.next = self.tdm.val();
        self.alloc.free_vgpr0.next = self.fmask[0].val();
        self.alloc.free_vgpr1.next = self.fmask[1].val();
        self.alloc.free_vgpr2.next = self.fmask[2].val();
        self.alloc.free_vgpr3.next = self.fmask[3].val();
        self.alloc.free_sgpr0.next = self.fmask[4].val().get_bits::<S>(0);
        self.alloc.free_sgpr1.next = self.fmask[5].val().get_bits::<S>(0);
        self.alloc.free_sgpr2.next = self.fmask[6].val().get_bits::<S>(0);
        self.alloc.free_sgpr3.next = self.fmask[7].val().get_bits::<S>(0);
        self.alloc.free_lds.next = self.fmask[8].val().get_bits::<L>(0);
        self.sum_w.next = 0.into();
        self.sum_v.next = 0.into();
        self.sum_s.next = 0.into();
        for u in 0..4 {
            self.sc5.next = self.td.val().get_bits::<5>(4 + 5 * u);
            self.sc8.next = self.td.val().get_bits::<8>(32 + 16 * u);
            self.sc8b.next = self.td.val().get_bits::<8>(96 + 16 * u);
            self.sum_w.next = self.sum_w.val() + bit_cast::<7, 5>(self.sc5.val());
            self.sum_v.next = self.sum_v.val() + bit_cast::<10, 8>(self.sc8.val());
            self.sum_s.next = self.sum_s.val() + bit_cast::<9, 8>(self.sc8b.val());
        }
        // per module: wave slots, free counts, scores and their pairwise order
        for m in 0..16 {
            for u in 0..4 {
                self.sc5.next = self.wfree[m * 4 + u].q.val();
                self.nxt_cnt.next = bit_cast::<16, 5>(self.sc5.val());
                if self.dq_valid.q.val() & (self.dq_mod.q.val() == self.mnum[m].val()) {
                    self.sc5.next = self.wu[u].val();
                    self.nxt_cnt.next = self.nxt_cnt.val() - bit_cast::<16, 5>(self.sc5.val());
                }
                if self.fr_v.q.val() & (self.tdm.val() == self.mnum[m].val()) {
                    self.sc5.next = self.td.val().get_bits::<5>(4 + 5 * u);
                    self.nxt_cnt.next = self.nxt_cnt.val() + bit_cast::<16, 5>(self.sc5.val());
                }
                self.wfree[m * 4 + u].d.next = self.nxt_cnt.val().get_bits::<5>(0);
            }
            self.tv.next = self.vtot[m].q.val();
            self.ts.next = self.stot[m].q.val();
            self.tw.next = self.wtot[m].q.val();
            self.tl.next = self.ltot[m].q.val();
            if self.dq_valid.q.val() & (self.dq_mod.q.val() == self.mnum[m].val()) {
                self.tv.next = self.tv.val()
                    - bit_cast::<10, 32>(
                        bit_cast::<16, 7>(self.dq_w.q.val()) * bit_cast::<16, 8>(self.dq_v.q.val()),
                    );
                self.ts.next = self.ts.val()
                    - bit_cast::<9, 32>(
                        bit_cast::<16, 7>(self.dq_w.q.val()) * bit_cast::<16, 7>(self.dq_s.q.val()),
                    );
                self.tw.next = self.tw.val() - self.dq_w.q.val();
                self.tl.next = self.tl.val() - bit_cast::<7, 6>(self.dq_l.q.val());
                // emb. 8: the split pointer moves on the chosen module only
                self.ptr[m].d.next = self.ptr[m].q.val() + self.dq_w.q.val().get_bits::<2>(0);
            }
            // a release of the same module in the same cycle adds to the allocation's result
            if self.fr_v.q.val() & (self.tdm.val() == self.mnum[m].val()) {
                self.tv.next = self.tv.val() + self.sum_v.val();
                self.ts.next = self.ts.val() + self.sum_s.val();
                self.tw.next = self.tw.val() + self.sum_w.val();
                self.tl.next = self.tl.val() + bit_cast::<7, 8>(self.td.val().get_bits::<8>(160));
            }
            self.vtot[m].d.next = self.tv.val();
            self.stot[m].d.next = self.ts.val();
            self.wtot[m].d.next = self.tw.val();
            self.ltot[m].d.next = self.tl.val();
            self.sc10.next = self.vtot[m].q.val();
            self.sc9.next = self.stot[m].q.val();
            self.sc7.next = self.wtot[m].q.val();
            self.sc7b.next = self.ltot[m].q.val();
            self.score[m].d.next = bit_cast::<16, 32>(
                bit_cast::<16, 4>(self.fweights.q.val().get_bits::<4>(0))
                    * bit_cast::<16, 10>(self.sc10.val()),
            ) + bit_cast::<16, 32>(
                bit_cast::<16, 4>(self.fweights.q.val().get_bits::<4>(4))
                    * bit_cast::<16, 9>(self.sc9.val()),
            ) + bit_cast::<16, 32>(
                bit_cast::<16, 4>(self.fweights.q.val().get_bits::<4>(8))
                    * bit_cast::<16, 7>(self.sc7.val()),
            ) + bit_cast::<16, 32>(
                bit_cast::<16, 4>(self.fweights.q.val().get_bits::<4>(12))
                    * bit_cast::<16, 7>(self.sc7b.val()),
            );
            // m beats j: a larger score, or an equal one and m ≤ j; one comparator per pair
            // (below the diagonal the complement of the pair's, under a constant condition)
            self.one_hot.next = 0.into();
            for j in 0..16 {
                if self.lower[m].val().get_bit(j) {
                    self.one_hot.next = self
                        .one_hot
                        .val()
                        .replace_bit(j, self.score[m].q.val() >= self.score[j].q.val());
                } else {
                    self.one_hot.next = self
                        .one_hot
                        .val()
                        .replace_bit(j, !(self.score[j].q.val() >= self.score[m].q.val()));
                }
            }
            self.better[m].d.next = self.one_hot.val();
        }
        // ---------------- window (emb. 2), with the old register values
        self.wl.next = self.wlen[0].q.val();
        for y in 1..4 {
            if self.win.q.val() == self.c8[y].val().get_bits::<2>(0) {
                self.wl.next = self.wlen[y].q.val();
            }
        }
        if !self.wl.val().any() {
            self.wl.next = self.one16.val();
        }
        self.nxt_cnt.next = self.win_cnt.q.val() + 1;
        self.win_cnt.d.next = self.nxt_cnt.val();
        if self.nxt_cnt.val() >= self.wl.val() {
            self.win_cnt.d.next = 0.into();
            self.win.d.next = self.win.q.val() + 1;
        }
        // ---------------- min_power_history: histories with the old register values
        self.power.clock.next = self.clock.val();
        self.power.reset.next = self.reset.val();
        self.power.retire_class.next = self.retire_class.val();
        self.power.weights.next = self.pweights.q.val();
        self.power.window.next = self.pwindow.q.val();
        // ---------------- config writes (POLICY 3 and unmapped addresses: BAD_CFG)
        self.cbad.next = self.cfg_we.val()
            & ((self.cfg_addr.val() > self.c8[8].val().get_bits::<4>(0))
                | (!self.cfg_addr.val().any()
                    & (self.cfg_data.val() > bit_cast::<16, 2>(self.p2.val()))));
        if self.cfg_we.val() & !self.cbad.val() {
            if !self.cfg_addr.val().any() {
                self.policy.d.next = self.cfg_data.val().get_bits::<2>(0);
            }
            if self.cfg_addr.val() == self.c8[1].val().get_bits::<4>(0) {
                self.thr.d.next = self.cfg_data.val();
            }
            for y in 0..4 {
                if self.cfg_addr.val() == self.c8[2 + y].val().get_bits::<4>(0) {
                    self.wlen[y].d.next = self.cfg_data.val();
                }
            }
            if self.cfg_addr.val() == self.c8[6].val().get_bits::<4>(0) {
                self.fweights.d.next = self.cfg_data.val();
            }
            if self.cfg_addr.val() == self.c8[7].val().get_bits::<4>(0) {
                self.pweights.d.next = self.cfg_data.val();
            }
            if self.cfg_addr.val() == self.c8[8].val().get_bits::<4>(0) {
                self.pwindow.d.next = self.cfg_data.val();
            }
        }
        // ---------------- push: readiness, step 9, the FIFOs
        self.ready.next = false;
        for c in 0..4 {
            if self.push_channel.val() == self.c8[c].val().get_bits::<2>(0) {
                self.ready.next = !self.cnt[c].q.val().get_bit(3);
            }
        }
        self.per_unit.next = (bit_cast::<16, 7>(self.push_waves.val()) + 3) >> self.c16[2].val();
        self.perr.next = 0.into();
        if !self.push_waves.val().any() {
            self.perr.next = self.c8[2].val().get_bits::<3>(0);
        } else if (self.per_unit.val() > self.kv_ws.val())
            | (bit_cast::<16, 32>(self.per_unit.val() * bit_cast::<16, 8>(self.push_vgpr.val()))
                > self.kv_v.val())
            | (bit_cast::<16, 32>(self.per_unit.val() * bit_cast::<16, 7>(self.push_sgpr.val()))
                > self.kv_s.val())
            | (bit_cast::<16, 6>(self.push_lds.val()) > self.kv_l.val())
        {
            self.perr.next = self.c8[1].val().get_bits::<3>(0);
        }
        self.pacc.next =
            self.push_valid.val() & self.ready.val() & !self.perr.val().any() & !self.reset.val();
        self.desc.next = bit_cast::<ENTRY, 8>(self.push_id.val())
            | (bit_cast::<ENTRY, 2>(self.push_prio.val()) << self.c16[8].val())
            | (bit_cast::<ENTRY, 7>(self.push_waves.val()) << self.c16[10].val())
            | (bit_cast::<ENTRY, 8>(self.push_vgpr.val()) << self.c16[17].val())
            | (bit_cast::<ENTRY, 7>(self.push_sgpr.val()) << self.c16[25].val())
            | (bit_cast::<ENTRY, 6>(self.push_lds.val()) << self.c16[32].val());
        if self.push_indep.val() {
            self.desc.next = self.desc.val() | (self.entry_indep.val());
        }
        // ---------------- emb. 3: failure count and split
        self.anyhead.next = false;
        self.allstable.next = true;
        self.anyfit.next = false;
        for c in 0..4 {
            self.anyhead.next = self.anyhead.val() | self.hv[c].val();
            if self.hv[c].val() & !self.cand[c].val() {
                self.allstable.next = false;
            }
            if self.cand[c].val() & self.fite_r[c].q.val().any() {
                self.anyfit.next = true;
            }
        }
        self.split_c.next = 0.into();
        if !self.dec.val() & self.thr.q.val().any() & (self.g.q.val() >= self.thr.q.val()) {
            for c in 0..4 {
                if self.cand[3 - c].val()
                    & !self.split_left[3 - c].q.val().any()
                    & self.head[3 - c].q.val().get_bit(38)
                    & (self.pres_w[3 - c].val() > self.w1.val())
                {
                    self.split_c.next = self.one4.val() << self.c8[3 - c].val().get_bits::<2>(0);
                }
            }
        }
        self.split_go.next = self.split_c.val().any();
        if self.dec.val() | self.anyfit.val() | self.split_go.val() {
            self.g.d.next = 0.into();
        } else if self.anyhead.val()
            & self.allstable.val()
            & self.slot_any.val()
            & (self.g.q.val() != self.kmax.val())
        {
            self.g.d.next = self.g.q.val() + 1;
        }
        for c in 0..4 {
            // pop: entry 1 (the RAM at `rdp`) becomes the head; push at the new count: into
            // the head if the channel is empty after the pop, else into the RAM at
            // `rdp` + cnt − 1 (the same address with and without a pop: a push needs cnt < 8)
            self.qa3.next = self.rdp[c].q.val();
            self.qram[c].raddr.next = bit_cast::<4, 3>(self.qa3.val());
            self.qa3.next = self.rdp[c].q.val() + self.cnt[c].q.val().get_bits::<3>(0) - 1;
            self.qram[c].waddr.next = bit_cast::<4, 3>(self.qa3.val());
            self.qram[c].wdata.next = self.desc.val();
            self.qram[c].we.next = false;
            if self.pop.val().get_bit(c) {
                self.head[c].d.next = self.qram[c].rdata.val();
                self.rdp[c].d.next = self.rdp[c].q.val() + 1;
            }
            self.sc4.next = self.cnt[c].q.val();
            self.nxt_cnt.next = bit_cast::<16, 4>(self.sc4.val());
            if self.pop.val().get_bit(c) {
                self.nxt_cnt.next = self.nxt_cnt.val() - 1;
            }
            if self.pacc.val() & (self.push_channel.val() == self.c8[c].val().get_bits::<2>(0)) {
                if self.nxt_cnt.val().any() {
                    self.qram[c].we.next = true;
                } else {
                    self.head[c].d.next = self.desc.val();
                }
                self.nxt_cnt.next = self.nxt_cnt.val() + 1;
            }
            self.cnt[c].d.next = self.nxt_cnt.val().get_bits::<4>(0);
            // the head changes: a decision on the channel, a push into an empty FIFO, a split
            self.chg1[c].d.next = (self.dec.val() & self.whot.val().get_bit(c))
                | (self.pacc.val()
                    & (self.push_channel.val() == self.c8[c].val().get_bits::<2>(0))
                    & !self.cnt[c].q.val().any())
                | self.split_c.val().get_bit(c);
            self.chg2[c].d.next = self.chg1[c].q.val();
            if self.dec.val() & self.whot.val().get_bit(c) & self.split_left[c].q.val().any() {
                self.split_left[c].d.next = self.split_left[c].q.val() - 1;
            }
            if self.split_c.val().get_bit(c) {
                self.split_left[c].d.next = self.pres_w[c].val();
            }
        }
        // ---------------- errors: push beats completion beats config
        self.out_err.d.next = false;
        self.out_code.d.next = 0.into();
        if self.cbad.val() {
            self.out_err.d.next = true;
            self.out_code.d.next = self.c8[5].val().get_bits::<3>(0);
        }
        if self.done_valid.val() & !self.live.val() {
            self.out_err.d.next = true;
            self.out_code.d.next = self.c8[4].val().get_bits::<3>(0);
        }
        if self.push_valid.val() & self.ready.val() & self.perr.val().any() {
            self.out_err.d.next = true;
            self.out_code.d.next = self.perr.val();
        }
        // ---------------- reset: the documented idle state
        if self.reset.val() {
            for c in 0..4 {
                self.cnt[c].d.next = 0.into();
                self.rdp[c].d.next = 0.into();
                self.split_left[c].d.next = 0.into();
                self.chg1[c].d.next = false;
                self.chg2[c].d.next = false;
                self.wlen[c].d.next = self.wl_init[c].val();
            }
            for i in 0..64 {
                self.wfree[i].d.next = self.ws5.val();
            }
            for m in 0..16 {
                self.ptr[m].d.next = 0.into();
                self.busy[m].d.next = 0.into();
                self.vtot[m].d.next = self.v_all.val();
                self.stot[m].d.next = self.s_all.val();
                self.wtot[m].d.next = self.w_all.val();
                self.ltot[m].d.next = self.l_all.val();
            }
            self.taken.d.next = 0.into();
            self.inflight.d.next = 0.into();
            self.policy.d.next = 0.into();
            self.thr.d.next = self.k256.val();
            self.fweights.d.next = self.k1111.val();
            self.pweights.d.next = self.k1111.val();
            self.pwindow.d.next = self.k1024.val();
            self.win.d.next = 0.into();
            self.win_cnt.d.next = 0.into();
            self.marks.d.next = 0.into();
            self.g.d.next = 0.into();
            self.dq_valid.d.next = false;
            self.fr_v.d.next = false;
            self.out_valid.d.next = false;
            self.out_id.d.next = 0.into();
            self.out_mod.d.next = 0.into();
            self.out_slot.d.next = 0.into();
            self.out_sub.d.next = false;
            self.out_waves.d.next = 0.into();
            self.out_vb.d.next = 0.into();
            self.out_sb.d.next = 0.into();
            self.out_lb.d.next = 0.into();
            self.out_err.d.next = false;
            self.out_code.d.next = 0.into();
        }
        // ---------------- outputs
        self.push_ready.next = self.ready.val();
        self.disp_valid.next = self.out_valid.q.val();
        self.disp_id.next = self.out_id.q.val();
        self.disp_module.next = self.out_mod.q.val();
        self.disp_slot.next = self.out_slot.q.val();
        self.disp_sub.next = self.out_sub.q.val();
        self.disp_waves.next = self.out_waves.q.val();
        self.disp_vgpr_base.next = self.out_vb.q.val();
        self.disp_sgpr_base.next = self.out_sb.q.val();
        self.disp_lds_base.next = self.out_lb.q.val();
        self.error.next = self.out_err.q.val();
        self.error_code.next = self.out_code.q.val();
    }
}

/// The exported Verilog of an integrated dispatcher (module `top`).
pub fn dispatcher_full_verilog<B: Block + Default>() -> String {
    crate::top_verilog(B::default())
}
