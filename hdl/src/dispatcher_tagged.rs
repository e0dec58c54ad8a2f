//! Tagged workgroup dispatcher (SPEC Unit 8's dispatcher extensions, design
//! `docs/gpu_frontend.md`), board configuration: the exported `dispatcher_tagged.v`.
//!
//! The behaviour, cycle by cycle, is `golden_model::dispatcher::tagged::TaggedDispatcher` (its
//! module doc is normative: ports, the one-cycle order of hold, withdraw, flush and reclaim, the
//! reclaim bound); the untagged part is [`crate::dispatcher`]'s (every rule, register and timing of
//! its module doc holds unchanged). This block is that dispatcher's logic with the extensions
//! added in a separate top (a copy of `hdl/src/dispatcher.rs`'s struct and kernel, extended), so
//! the standalone `dispatcher` export is generated exactly as before: `hdl/src/dispatcher.rs` is
//! not touched, and `tests/dispatcher_tagged.rs` checks that this block with every new input
//! at 0 gives the plain RTL's outputs cycle for cycle. A fix in the shared logic must be made in
//! both files (the price of keeping `dispatcher.v` byte-identical; RustHDL has no way to
//! generate the two tops from one kernel without changing the old one's netlist).
//!
//! **Cost** (board config, HX8K CB132, in the flow's harness): **7451 LCs, 10 BRAMs, 65.1 MHz
//! median** of nextpnr seeds 1–3 (65.1, 71.1, 62.2; session 14; session 13: 7457 LCs, 59.7
//! MHz; session 10: 7525 LCs, 53.3 MHz) — *Cost* below.
//!
//! ## Ports (the exported module `top` has exactly these, in this order)
//! Every port of `dispatcher` (same names, widths, order and meaning), then:
//!
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `push_class`, `push_kslot` | in | 1, 3 | tag of the pushed WG: class (0 RT, 1 BE), kernel slot |
//! | `withdraw_valid`, `withdraw_kslot` | in | 1, 3 | strobe: withdraw the BE kernel in that slot |
//! | `cu_reset` | in | 1 | strobe: CU reset, flush the BE channel's class-1 WGs |
//! | `cu_reset_done` | in | 1 | strobe: the compute modules confirm; start the reclaim walk |
//! | `room` | out | 2 | bit c: channel c's FIFO is not full (from the state) |
//! | `disp_class`, `disp_kslot`, `disp_last` | out | 1, 3, 1 | with `disp_valid`: the record's tag; the WG's dispatch ends with this record |
//! | `wdr_valid`, `wdr_kslot` | out | 1, 3 | registered: one WG of that BE kernel slot was withdrawn at the last edge |
//! | `cpl_valid`, `cpl_class`, `cpl_kslot` | out | 1, 1, 3 | registered: the previous cycle's accepted completion and its WG's tag |
//! | `reclaim_busy` | out | 1 | the walk runs (from the state) |
//! | `reclaim_done` | out | 1 | registered strobe: the walk ended at the last edge |
//!
//! Every registered output is 0 without its strobe. The BE channel is channel 1; a class-1 push
//! into channel 0 is refused with `BAD_ID` (3), which beats `ZERO_WAVES` and `NEVER_FITS`.
//! With every new input at 0 the old outputs are `dispatcher`'s, cycle for cycle.
//!
//! ## Timing (additions to `dispatcher`'s pipeline)
//! - **Hold**: channel 1's head is no candidate of the cycle's decision when it is class 1 and a
//!   CU reset is open (`cu_reset` or `cu_reset_done` now, `armed`, or the walk running) or the
//!   withdraw pops it, and in a `cu_reset` cycle whatever its class; it is or-ed into the
//!   "replaced at the last edge" bit the decision and the failure counter read
//!   (`head_changed_now`).
//! - **Withdraw**: the command (`withdraw_kslot`, or the one still active) pops a class-1 head
//!   of that slot at the edge, one per cycle, `wdr_*` in t+1; a head in split mode goes with its
//!   remaining sub-WGs. The next head is decoded from FIFO entry 1 directly (decoder 1), since a
//!   withdraw may pop in consecutive cycles and `entry1_*` follows one edge late.
//! - **Flush** (`cu_reset`): channel 1's entries and the push of the cycle are compacted at the
//!   edge to the class-0 ones in order (ranks of the sources that stay; entry j selects among
//!   sources j..=4); a replaced head loads decoder 1, which decodes the first source that stays
//!   in a `cu_reset` cycle. Nothing of channel 1 pops in that cycle (the hold), so the compaction
//!   has one form; the head counts as replaced in the next cycle, so `entry1_*` (not valid after
//!   the compaction) is refreshed before any pop reads it.
//! - **Reclaim walk**: `cu_reset_done` with no walk running starts it; in each of the next 8
//!   cycles it visits slot k = 0..7 and, when the slot is busy with a class-1 WG (slot tags are a
//!   flip-flop bit per slot) and not completed in the same cycle, frees the slot at the edge and
//!   its blocks at the next one, from a **copy of the in-flight table** (same writes, read by the
//!   walk's slot: the second free port). The maps take `used & ~freed_completion & ~freed_walk`.
//!   `reclaim_done` strobes in t0 + 9: every BE WG's slot and blocks free in the state of t0 + 10
//!   (**bound table size + 2 = 10 cycles**).
//!
//! ## Cost
//! Command: `cargo run --release -p synth -- report --only dispatcher_tagged --seeds 1,2,3`
//! (2026-11-26). The first form (two more head decoders for the flush: its new head and its
//! new entry 1) needed **7886 ICESTORM_LCs of 7680** with the harness: nextpnr could not place
//! it (plain `dispatcher`: 6235 LCs, so +1651). This form decodes the flush's head with decoder
//! 1 and lets `entry1_*` refresh one cycle later (the model's head counts as replaced after a
//! flush): **7473 LCs** (incl. 136 harness flip-flops; 97 % of the HX8K), **50.5 / 46.1 / 51.9
//! MHz, median 50.5** (session 10 with the power window registered ahead: 7525 LCs, 53.3 MHz; plain `dispatcher`: 6235 LCs, 61.4 MHz median: +1238 LCs, −18 %); the
//! critical path was not read. Block RAM: 10 `SB_RAM40_4K` (the plain dispatcher's 5 + the
//! walk's copy of the in-flight table).
//! Session 11's RTL (`prefer_q`, decoders, push data; `./target/release/synth report --only
//! dispatcher_tagged --seeds 1 --readme -`, seed 1 only, 2026-11-27): 7528 LCs (+3), 61.0 MHz
//! (session 10's seed 1: 51.4). Session 13's RTL (the hold from flip-flops, the match's
//! start bits registered apart; `./target/release/synth report --only dispatcher_tagged
//! --seeds 1,2,3 --readme README.md`, 2026-11-27): **7457 LCs** (−71), **59.7 MHz median
//! (60.5, 58.7, 59.7)**, the README row; seed 1's path: a new withdraw command's kslot
//! compare → the hold → `prefer` → `decide` → `pop` → a FIFO entry's enable (16.5 ns).
//!
//! Timing differences from `hdl/src/dispatcher.rs` (same behaviour at every port): the power
//! window's end (`power_count + 1 ≥ POWER_WINDOW`) is a flip-flop `power_wrap` computed a cycle
//! ahead, not a compare in front of the power counters' clears; the channel pick's preference
//! (`prefer_ch1`: ranks in the window, tie marks, LFSR) is a flip-flop `prefer_q` computed a
//! cycle ahead (read only when both heads fit, and a head whose priority changed at the last
//! edge never fits); the head decoders build the thermometer of q × need by spreading the
//! one-wave thermometer (no multiplier); an offered push's data is written without waiting for
//! its checks (only the count takes the acceptance); the chosen head's operands are muxed with
//! the channel last (session 11, `docs/gpu_frontend.md`); the hold of the BE head for the
//! pick reads flip-flops and the input strobes only — no head-valid term (an absent head is no
//! candidate) and an active withdraw's kslot match registered ahead (`wd_match_cont`: entry 1's
//! kslot, or the push landing in the emptied FIFO, against the popped head's); the VGPR and LDS
//! ok vectors' "has a start" bits are flip-flops apart from `match_fits`, and-ed in the decision
//! stage (session 13); the flush's decoder-1 select takes the first staying source among
//! entries 1..3 and the push (no ranks), and on channel 1 the flush is written in the branches
//! without a pop, so the pop is the last select of the FIFO entries, the count and the head
//! registers (no pop of channel 1 in a `cu_reset` cycle); the scorer's nibble counts are
//! boolean (session 14). ECP5-85F speed 6 (`synth report --target ecp5-85f --only
//! dispatcher_tagged --seeds 1,2,3 --speeds 6`, README block `ecp5`, 2026-11-27, session 14):
//! 6531 LUT4, 184 `CCU2C`, 2022 FF, **86.8 MHz median (87.7, 86.5, 86.8)** (session 13: 85.8,
//! session 11: 80.9, session 10: 70.7); critical paths: the push's class → the flush's keep →
//! decoder 1 → the BE head's need registers (seed 1), a new withdraw command's kslot compare
//! with the BE head → the hold → the channel pick → `pop` → the head registers (seed 2), the
//! match registers → the pick → channel 0's head registers (seed 3); see
//! `docs/gpu_frontend.md`, *Timing (session 14, front)*.

use rust_hdl::prelude::*;

/// Board-config tagged dispatcher: [`crate::dispatcher::Dispatcher`]'s logic and ports plus the
/// kernel tags, the withdraw, the BE flush and the reclaim walk (module doc).
#[derive(LogicBlock, Default)]
pub struct DispatcherTagged {
    /// The one clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous active-high reset.
    pub reset: Signal<In, Bit>,
    /// A WG is offered to `push_channel`.
    pub push_valid: Signal<In, Bit>,
    /// Combinational: the FIFO of `push_channel` is not full.
    pub push_ready: Signal<Out, Bit>,
    /// Channel of the offered WG.
    pub push_channel: Signal<In, Bit>,
    /// WG id (payload).
    pub push_id: Signal<In, Bits<8>>,
    /// WG priority (0 highest).
    pub push_prio: Signal<In, Bits<2>>,
    /// Waves of the WG (1..=8).
    pub push_waves: Signal<In, Bits<4>>,
    /// VGPR blocks per wave (0..=16).
    pub push_vgpr: Signal<In, Bits<5>>,
    /// SGPR blocks per wave (0..=8).
    pub push_sgpr: Signal<In, Bits<4>>,
    /// LDS blocks of the WG (0..=16).
    pub push_lds: Signal<In, Bits<5>>,
    /// The WG's waves are independent.
    pub push_indep: Signal<In, Bit>,
    /// Strobe: dispatch record.
    pub disp_valid: Signal<Out, Bit>,
    /// Record: WG id.
    pub disp_id: Signal<Out, Bits<8>>,
    /// Record: module.
    pub disp_module: Signal<Out, Bit>,
    /// Record: in-flight slot (name it in the completion).
    pub disp_slot: Signal<Out, Bits<3>>,
    /// Record: one-wave sub-WG of a split WG.
    pub disp_sub: Signal<Out, Bit>,
    /// Record: waves of unit t at bits 3t+2..3t.
    pub disp_waves: Signal<Out, Bits<6>>,
    /// Record: VGPR base of unit t at bits 4t+3..4t.
    pub disp_vgpr_base: Signal<Out, Bits<8>>,
    /// Record: SGPR base of unit t at bits 3t+2..3t.
    pub disp_sgpr_base: Signal<Out, Bits<6>>,
    /// Record: LDS base.
    pub disp_lds_base: Signal<Out, Bits<4>>,
    /// A completion.
    pub done_valid: Signal<In, Bit>,
    /// The completed slot.
    pub done_slot: Signal<In, Bits<3>>,
    /// Register write strobe.
    pub cfg_we: Signal<In, Bit>,
    /// Register address.
    pub cfg_addr: Signal<In, Bits<4>>,
    /// Register data.
    pub cfg_data: Signal<In, Bits<16>>,
    /// Retire strobes: module m, instruction class c at bit 4m+c.
    pub retire_class: Signal<In, Bits<8>>,
    /// Strobe: a request of the previous cycle was refused.
    pub error: Signal<Out, Bit>,
    /// Why (0 when `error` is low).
    pub error_code: Signal<Out, Bits<3>>,
    /// Tag of the pushed WG: class (0 RT, 1 BE).
    pub push_class: Signal<In, Bit>,
    /// Tag of the pushed WG: kernel slot.
    pub push_kslot: Signal<In, Bits<3>>,
    /// Strobe: withdraw the BE kernel in `withdraw_kslot`.
    pub withdraw_valid: Signal<In, Bit>,
    /// The kernel slot to withdraw.
    pub withdraw_kslot: Signal<In, Bits<3>>,
    /// Strobe: CU reset (flush the BE channel's class-1 WGs, hold them until the walk ends).
    pub cu_reset: Signal<In, Bit>,
    /// Strobe: the compute modules confirm the CU reset (start the reclaim walk).
    pub cu_reset_done: Signal<In, Bit>,
    /// Bit c: channel c's FIFO is not full (from the state).
    pub room: Signal<Out, Bits<2>>,
    /// Record: tag class.
    pub disp_class: Signal<Out, Bit>,
    /// Record: tag kernel slot.
    pub disp_kslot: Signal<Out, Bits<3>>,
    /// Record: the WG's dispatch ends with this record.
    pub disp_last: Signal<Out, Bit>,
    /// Registered strobe: one WG of BE kernel slot `wdr_kslot` was withdrawn.
    pub wdr_valid: Signal<Out, Bit>,
    /// The withdrawn WG's kernel slot.
    pub wdr_kslot: Signal<Out, Bits<3>>,
    /// Registered strobe: the previous cycle's completion was accepted.
    pub cpl_valid: Signal<Out, Bit>,
    /// The completed WG's tag class.
    pub cpl_class: Signal<Out, Bit>,
    /// The completed WG's tag kernel slot.
    pub cpl_kslot: Signal<Out, Bits<3>>,
    /// The reclaim walk is running (from the state).
    pub reclaim_busy: Signal<Out, Bit>,
    /// Registered strobe: the walk ended at the last edge.
    pub reclaim_done: Signal<Out, Bit>,

    // ---- state: channel FIFOs (entry c*4+e, head e = 0) ----
    fifo_id: [DFF<Bits<8>>; 8],
    fifo_prio: [DFF<Bits<2>>; 8],
    fifo_waves: [DFF<Bits<4>>; 8],
    fifo_vgpr: [DFF<Bits<5>>; 8],
    fifo_sgpr: [DFF<Bits<4>>; 8],
    fifo_lds: [DFF<Bits<5>>; 8],
    fifo_indep: [DFF<Bit>; 8],
    /// Tags of the FIFO entries (class, kernel slot), shifted with the entries.
    fifo_class: [DFF<Bit>; 8],
    fifo_kslot: [DFF<Bits<3>>; 8],
    /// Tags of the in-flight slots (class bit per slot; kernel slot), written at the commit.
    slot_class: DFF<Bits<8>>,
    slot_kslot: [DFF<Bits<3>>; 8],
    /// The pending decision's tag and whether it ends its WG's dispatch.
    pend_class: DFF<Bit>,
    pend_kslot: DFF<Bits<3>>,
    pend_last: DFF<Bit>,
    /// Copy of the in-flight table (same writes), read by the reclaim walk (second free port).
    walk_table: RAM<Bits<71>, 3>,
    /// The walk freed a slot at the last edge: free what `walk_table` read out.
    walk_free: DFF<Bit>,
    /// The reclaim walk runs; the slot it visits.
    walk_on: DFF<Bit>,
    walk_slot: DFF<Bits<3>>,
    /// A `cu_reset` seen and not yet confirmed.
    armed: DFF<Bit>,
    /// The withdraw command still active, and its kernel slot.
    wd_active: DFF<Bit>,
    wd_kslot: DFF<Bits<3>>,
    /// Registered ahead for the active withdraw: the BE head after the edge has the popped
    /// head's kernel slot (entry 1's, or the push landing in the emptied FIFO); read only with
    /// `wd_active` (a withdraw popped at the last edge, the only change of that head).
    wd_match_cont: DFF<Bit>,
    /// Registered tag outputs.
    out_class: DFF<Bit>,
    out_kslot: DFF<Bits<3>>,
    out_last: DFF<Bit>,
    out_wdr_valid: DFF<Bit>,
    out_wdr_kslot: DFF<Bits<3>>,
    out_cpl_valid: DFF<Bit>,
    out_cpl_class: DFF<Bit>,
    out_cpl_kslot: DFF<Bits<3>>,
    out_reclaim_done: DFF<Bit>,
    /// Occupancy per channel.
    fifo_count: [DFF<Bits<3>>; 2],
    /// Sub-WGs left of a head in split mode (0 = not split).
    split_left: [DFF<Bits<4>>; 2],
    /// The head's presentation, registered alongside `split_left` and FIFO entry 0 (so the
    /// pick reads flip-flops): split mode (`split_left` ≠ 0), more than one sub-WG left
    /// (`split_left` ≥ 2), priority as presented (3 in split mode), wave count as presented is
    /// odd (moves the pointer, emb. 8). Reset 0; don't-care while the FIFO is empty.
    head_split: [DFF<Bit>; 2],
    head_split_more: [DFF<Bit>; 2],
    head_prio: [DFF<Bits<2>>; 2],
    head_waves_odd: [DFF<Bit>; 2],
    // ---- state: resources (index m*2+u), stored as used maps ----
    vgpr_used: [DFF<Bits<16>>; 4],
    sgpr_used: [DFF<Bits<8>>; 4],
    lds_used: [DFF<Bits<16>>; 2],
    /// Busy wave slots per unit.
    slots_used: [DFF<Bits<3>>; 4],
    /// Split-table rotation pointer per module (emb. 8).
    split_ptr: [DFF<Bit>; 2],
    // ---- state: in-flight table ----
    slot_busy: DFF<Bits<8>>,
    /// What each slot took, in a block RAM: \[15:0\] / \[31:16\] VGPR mask of unit 0 / 1, \[39:32\] /
    /// \[47:40\] SGPR masks, \[63:48\] LDS mask, \[66:64\] / \[69:67\] waves of unit 0 / 1, [70] module.
    /// Written by the commit stage, read (synchronously) with the completion's slot.
    inflight_table: RAM<Bits<71>, 3>,
    /// The previous cycle's completion was valid: free what `inflight_table` read out.
    free_from_table: DFF<Bit>,
    // ---- state: registers (non-zero resets stored XOR reset) ----
    policy: DFF<Bits<2>>,
    split_threshold_x: DFF<Bits<16>>,
    /// `SPLIT_THRESHOLD` − 1 (mod 2^16), stored XOR 255 (derived, kept with `split_threshold_x`).
    split_threshold_m1_x: DFF<Bits<16>>,
    win_len_x: [DFF<Bits<16>>; 4],
    free_weights_x: DFF<Bits<16>>,
    power_weights_x: DFF<Bits<16>>,
    power_window_x: DFF<Bits<16>>,
    // ---- state: free-running ----
    window: DFF<Bits<2>>,
    window_count: DFF<Bits<16>>,
    lfsr_x: DFF<Bits<16>>,
    /// a42 tie marks per channel: bit p = the channel won a tie at priority p.
    tie_marks: [DFF<Bits<4>>; 2],
    fail_count: DFF<Bits<16>>,
    /// Registered ahead: threshold ≠ 0 and g + 1 ≥ threshold (the split test of this cycle).
    split_due: DFF<Bit>,
    /// Registered ahead: `prefer_ch1` of this cycle, computed in the previous one from that
    /// cycle's head priorities and this cycle's window, tie marks and LFSR (the tie-mark update
    /// selected last). Exact whenever both channels fit: a head whose priority changed at the
    /// last edge is no candidate now (popped, split, flushed or loaded into an empty FIFO).
    prefer_q: DFF<Bit>,

    power_count: DFF<Bits<16>>,
    /// Registered ahead: `power_count + 1 >= POWER_WINDOW` of this cycle (the window wraps at
    /// this edge), computed in the previous cycle from that cycle's next count and window, so
    /// the compare's carry chain ends in this one flip-flop instead of the power counters'
    /// clears.
    power_wrap: DFF<Bit>,
    power_cur: [DFF<Bits<16>>; 2],
    power_prev: [DFF<Bits<16>>; 2],
    // ---- pipeline: match stage results, per (channel, module) k = c*2+m, unit u: c*4+m*2+u ----
    /// The head of channel c fits module m (bit c*2+m) but for the VGPR and LDS starts: it
    /// exists, has the wave slots, and both SGPR ok vectors have a start.
    match_fits: DFF<Bits<4>>,
    /// The VGPR ok vector of unit c*4+m*2+u, the LDS ok vector of c*2+m, has a start
    /// (registered apart from `match_fits`: the decision stage ands them, so the 16-bit ok
    /// vectors' OR ends at a flip-flop).
    match_any_vgpr: DFF<Bits<8>>,
    match_any_lds: DFF<Bits<4>>,
    /// Channel c had a head when it was matched.
    match_head_valid: DFF<Bits<2>>,
    /// ok vectors: bit i = the need fits at start block i (VGPR, SGPR per unit; LDS).
    match_ok_vgpr: [DFF<Bits<16>>; 8],
    match_ok_sgpr: [DFF<Bits<8>>; 8],
    match_ok_lds: [DFF<Bits<16>>; 4],
    match_waves: [DFF<Bits<3>>; 8],
    /// Channel c's head was replaced at the last edge (its match results are stale).
    head_changed: DFF<Bits<2>>,
    /// Module m was decided in one of the last two cycles (bit m): not a candidate.
    module_busy: DFF<Bits<2>>,
    /// Every in-flight slot is busy or reserved by the pending decision (registered ahead from
    /// the slot count, the decision and the completion).
    slots_full: DFF<Bit>,
    // ---- pipeline: the decision being committed (decided in the previous cycle) ----
    pend_valid: DFF<Bit>,
    pend_module: DFF<Bit>,
    pend_slot: DFF<Bits<3>>,
    pend_id: DFF<Bits<8>>,
    pend_sub: DFF<Bit>,
    /// Per unit of the chosen module: waves, ok vectors and need thermometers.
    pend_waves: [DFF<Bits<3>>; 2],
    pend_ok_vgpr: [DFF<Bits<16>>; 2],
    pend_need_vgpr: [DFF<Bits<16>>; 2],
    pend_ok_sgpr: [DFF<Bits<8>>; 2],
    pend_need_sgpr: [DFF<Bits<8>>; 2],
    pend_ok_lds: DFF<Bits<16>>,
    pend_need_lds: DFF<Bits<16>>,
    // ---- pipeline: decoded head of each channel (always equal to the decode of FIFO entry 0
    // in its current presentation; loaded from decoders of the next head at the edge) ----
    /// Waves of the units that get ceil(n/2) / floor(n/2).
    head_waves_hi: [DFF<Bits<3>>; 2],
    head_waves_lo: [DFF<Bits<3>>; 2],
    /// Need thermometers (bit k = need > k): VGPR of the hi / lo unit and of one wave.
    head_need_vgpr_hi: [DFF<Bits<16>>; 2],
    head_need_vgpr_lo: [DFF<Bits<16>>; 2],
    head_need_vgpr_1w: [DFF<Bits<16>>; 2],
    head_need_sgpr_hi: [DFF<Bits<8>>; 2],
    head_need_sgpr_lo: [DFF<Bits<8>>; 2],
    head_need_sgpr_1w: [DFF<Bits<8>>; 2],
    head_need_lds: [DFF<Bits<16>>; 2],
    /// Decode of each channel's FIFO entry 1, registered (loaded into `head_*` by a pop, so the
    /// pop selects between registers). It follows entry 1 one edge late, which is enough: a
    /// channel never pops in two consecutive cycles, and a push landing in entry 1 is decoded
    /// directly.
    entry1_waves_hi: [DFF<Bits<3>>; 2],
    entry1_waves_lo: [DFF<Bits<3>>; 2],
    entry1_need_vgpr_hi: [DFF<Bits<16>>; 2],
    entry1_need_vgpr_lo: [DFF<Bits<16>>; 2],
    entry1_need_vgpr_1w: [DFF<Bits<16>>; 2],
    entry1_need_sgpr_hi: [DFF<Bits<8>>; 2],
    entry1_need_sgpr_lo: [DFF<Bits<8>>; 2],
    entry1_need_sgpr_1w: [DFF<Bits<8>>; 2],
    entry1_need_lds: [DFF<Bits<16>>; 2],
    // ---- pipeline: module policy scores (4 stages) ----
    /// Free counts per (module, resource) m*4+h: VGPR, SGPR, wave slots, LDS.
    /// Serial scorer: item counter, stage-1 free count / weight / item, stage-2 product / item,
    /// running sums per module.
    score_item: DFF<Bits<3>>,
    /// The used bits of item `score_item`'s maps, captured at the edge before its cycle from the next
    /// state (so the popcount starts at a flip-flop); positions beyond the maps read as used.
    score_used_bits: DFF<Bits<32>>,
    score_free: DFF<Bits<6>>,
    score_weight: DFF<Bits<4>>,
    score_free_item: DFF<Bits<3>>,
    score_product: DFF<Bits<10>>,
    score_product_item: DFF<Bits<3>>,
    score_sum: [DFF<Bits<12>>; 2],
    /// a_h × free_h per (module, resource).
    weighted_prefers_1: DFF<Bit>,
    power_hist_sum: [DFF<Bits<17>>; 2],
    /// Power-history preference, delayed: bit 2 is used.
    power_prefers_1: DFF<Bits<3>>,
    // ---- output registers ----
    out_valid: DFF<Bit>,
    out_id: DFF<Bits<8>>,
    out_module: DFF<Bit>,
    out_slot: DFF<Bits<3>>,
    out_sub: DFF<Bit>,
    out_waves: DFF<Bits<6>>,
    out_vgpr_base: DFF<Bits<8>>,
    out_sgpr_base: DFF<Bits<6>>,
    out_lds_base: DFF<Bits<4>>,
    out_error: DFF<Bit>,
    out_error_code: DFF<Bits<3>>,

    // ---- combinational working signals ----
    split_threshold: Signal<Local, Bits<16>>,
    win_len: [Signal<Local, Bits<16>>; 4],
    free_weights: Signal<Local, Bits<16>>,
    power_weights: Signal<Local, Bits<16>>,
    power_window: Signal<Local, Bits<16>>,
    lfsr: Signal<Local, Bits<16>>,
    // match stage
    head_valid: [Signal<Local, Bit>; 2],
    head_is_sub: [Signal<Local, Bit>; 2],
    head_prio_now: [Signal<Local, Bits<2>>; 2],
    head_rank: [Signal<Local, Bits<2>>; 2],
    /// Head decoders, source s: 0 / 1 = entry 1 of channel 0 / 1 (in a `cu_reset` cycle: the BE
    /// channel's head after the flush), 2 = the push port.
    dec_waves: [Signal<Local, Bits<4>>; 3],
    dec_vgpr: [Signal<Local, Bits<5>>; 3],
    dec_sgpr: [Signal<Local, Bits<4>>; 3],
    dec_lds: [Signal<Local, Bits<5>>; 3],
    dec_waves_hi: [Signal<Local, Bits<3>>; 3],
    dec_waves_lo: [Signal<Local, Bits<3>>; 3],
    dec_need_vgpr_hi: [Signal<Local, Bits<16>>; 3],
    dec_need_vgpr_lo: [Signal<Local, Bits<16>>; 3],
    dec_need_vgpr_1w: [Signal<Local, Bits<16>>; 3],
    dec_need_sgpr_hi: [Signal<Local, Bits<8>>; 3],
    dec_need_sgpr_lo: [Signal<Local, Bits<8>>; 3],
    dec_need_sgpr_1w: [Signal<Local, Bits<8>>; 3],
    dec_need_lds: [Signal<Local, Bits<16>>; 3],
    dec_half_waves: Signal<Local, Bits<4>>,
    /// Next hi / lo decode of each channel's head.
    load_waves_hi: [Signal<Local, Bits<3>>; 2],
    load_waves_lo: [Signal<Local, Bits<3>>; 2],
    load_need_vgpr_hi: [Signal<Local, Bits<16>>; 2],
    load_need_vgpr_lo: [Signal<Local, Bits<16>>; 2],
    load_need_sgpr_hi: [Signal<Local, Bits<8>>; 2],
    load_need_sgpr_lo: [Signal<Local, Bits<8>>; 2],
    /// Decoder: the wave count's q = ceil(n/2) (hi) / floor(n/2) (lo) one-hot, bit q−1.
    dec_sel_hi: Signal<Local, Bits<4>>,
    dec_sel_lo: Signal<Local, Bits<4>>,
    /// Decoder: the one-wave thermometers spread for q = 2, 3, 4 (VGPR; SGPR).
    therm_v2: Signal<Local, Bits<16>>,
    therm_v3: Signal<Local, Bits<16>>,
    therm_v4: Signal<Local, Bits<16>>,
    therm_s2: Signal<Local, Bits<8>>,
    therm_s3: Signal<Local, Bits<8>>,
    therm_s4: Signal<Local, Bits<8>>,
    /// Per (channel, module, unit): waves and need thermometers (bit k = need > k).
    cand_waves: [Signal<Local, Bits<3>>; 8],
    cand_need_vgpr: [Signal<Local, Bits<16>>; 8],
    cand_need_sgpr: [Signal<Local, Bits<8>>; 8],
    cand_need_lds: [Signal<Local, Bits<16>>; 2],
    ok_vec16: Signal<Local, Bits<16>>,
    ok_vec8: Signal<Local, Bits<8>>,
    ok_at_start: Signal<Local, Bit>,
    /// Shift amounts (constants per loop iteration).
    shift_start: Signal<Local, Bits<5>>,
    shift_end: Signal<Local, Bits<5>>,
    /// Bit `shift_end` (0 when `shift_end` is the width): a thermometer need runs past the map from
    /// start i iff its bit (width − i) is set (every head thermometer is one: no OR over the
    /// bits shifted out).
    overflow_bit16: Signal<Local, Bits<16>>,
    overflow_bit8: Signal<Local, Bits<8>>,
    fit_found: Signal<Local, Bit>,
    unit_slots_fit: Signal<Local, Bit>,
    slots_after: Signal<Local, Bits<4>>,
    head_fits: Signal<Local, Bits<4>>,
    // decision stage
    match_fits_now: Signal<Local, Bits<4>>,
    cand_valid: Signal<Local, Bits<4>>,
    channel_fits: [Signal<Local, Bit>; 2],
    any_fit: Signal<Local, Bit>,
    pick_channel: Signal<Local, Bits<1>>,
    tie_fit: Signal<Local, Bit>,
    tie_prio: Signal<Local, Bits<2>>,
    /// Channel c's tie mark at the tied priority.
    tie_mark: [Signal<Local, Bit>; 2],
    /// Equal ranks, the tie-break (marks, LFSR), channel 1 preferred when both fit.
    ranks_equal: Signal<Local, Bit>,
    tie_to_ch1: Signal<Local, Bit>,
    prefer_ch1: Signal<Local, Bit>,
    /// The window after a wrap, the heads' ranks in it, the next LFSR bit 0, and the next
    /// `prefer_ch1` for the three tie-mark outcomes of this cycle (none, channel 0 or channel 1
    /// wins a tie).
    nx_window: Signal<Local, Bits<2>>,
    nx_rank: [Signal<Local, Bits<2>>; 2],
    nx_lfsr0: Signal<Local, Bit>,
    /// Bit w: for the window staying (0) or wrapping (1).
    nx_rank_less: Signal<Local, Bits<2>>,
    nx_ranks_equal: Signal<Local, Bits<2>>,
    nx_prefer_hold: Signal<Local, Bits<2>>,
    nx_prefer_pick0: Signal<Local, Bits<2>>,
    nx_prefer_pick1: Signal<Local, Bits<2>>,
    nx_prefer: Signal<Local, Bits<2>>,
    /// The window ends at this edge.
    window_wraps: Signal<Local, Bit>,
    /// Module choice if channel c is chosen.
    module_if_channel: [Signal<Local, Bit>; 2],
    /// Channel c's head on its module choice: waves, ok vectors, needs per unit (c*2+u); LDS.
    chm_waves: [Signal<Local, Bits<3>>; 4],
    chm_ok_vgpr: [Signal<Local, Bits<16>>; 4],
    chm_need_vgpr: [Signal<Local, Bits<16>>; 4],
    chm_ok_sgpr: [Signal<Local, Bits<8>>; 4],
    chm_need_sgpr: [Signal<Local, Bits<8>>; 4],
    chm_ok_lds: [Signal<Local, Bits<16>>; 2],
    policy_prefers_1: Signal<Local, Bit>,
    pick_module: Signal<Local, Bits<1>>,
    decide_module: [Signal<Local, Bit>; 2],
    /// The pointer of module m after this edge (moved by this cycle's decision).
    split_ptr_next: [Signal<Local, Bit>; 2],
    slot_free_any: Signal<Local, Bit>,
    /// At least two slots neither busy nor pending.
    two_slots_free: Signal<Local, Bit>,
    pick_slot: Signal<Local, Bits<3>>,
    slot_found: Signal<Local, Bit>,
    decide: Signal<Local, Bit>,
    /// Modules decided in the previous cycle (from `pend_valid` / `pend_module`).
    module_decided_last: Signal<Local, Bits<2>>,
    /// Table write data.
    table_write: Signal<Local, Bits<71>>,
    /// Commit stage: first fit of the pending decision (masks and bases per unit; LDS).
    commit_vgpr_region: [Signal<Local, Bits<16>>; 2],
    commit_sgpr_region: [Signal<Local, Bits<8>>; 2],
    commit_lds_region: Signal<Local, Bits<16>>,
    commit_vgpr_base: [Signal<Local, Bits<4>>; 2],
    commit_sgpr_base: [Signal<Local, Bits<3>>; 2],
    commit_lds_base: Signal<Local, Bits<4>>,
    /// The completed slot's entry.
    done_accept: Signal<Local, Bit>,
    freed_module: Signal<Local, Bit>,
    freed_vgpr: [Signal<Local, Bits<16>>; 2],
    freed_sgpr: [Signal<Local, Bits<8>>; 2],
    freed_lds: Signal<Local, Bits<16>>,
    freed_waves: [Signal<Local, Bits<3>>; 2],
    // next-state working copies
    vgpr_used_next: [Signal<Local, Bits<16>>; 4],
    sgpr_used_next: [Signal<Local, Bits<8>>; 4],
    lds_used_next: [Signal<Local, Bits<16>>; 2],
    slots_used_next: [Signal<Local, Bits<3>>; 4],
    slot_busy_next: Signal<Local, Bits<8>>,
    head_changed_next: Signal<Local, Bits<2>>,
    pop: [Signal<Local, Bit>; 2],
    push_accept: [Signal<Local, Bit>; 2],
    /// A push is offered to channel c (its data is written behind the last entry).
    push_wr: [Signal<Local, Bit>; 2],
    /// Channel c's head enters split mode at this edge.
    enter_split: [Signal<Local, Bit>; 2],
    // push checks
    never_fits: Signal<Local, Bit>,
    /// The pushed per-wave VGPR / SGPR need exceeds 16, 8, 5, 4 / 8, 4, 2 blocks.
    push_vgpr_per_wave: Signal<Local, Bits<5>>,
    push_sgpr_per_wave: Signal<Local, Bits<4>>,
    vgpr_over16: Signal<Local, Bit>,
    vgpr_over8: Signal<Local, Bit>,
    vgpr_over5: Signal<Local, Bit>,
    vgpr_over4: Signal<Local, Bit>,
    sgpr_over8: Signal<Local, Bit>,
    sgpr_over4: Signal<Local, Bit>,
    sgpr_over2: Signal<Local, Bit>,
    push_room: Signal<Local, Bit>,
    push_err: Signal<Local, Bits<3>>,
    done_err: Signal<Local, Bits<3>>,
    cfg_err: Signal<Local, Bits<3>>,
    // counters
    any_head: Signal<Local, Bit>,
    stale_or_fit: Signal<Local, Bit>,
    fail_count_inc: Signal<Local, Bits<16>>,
    /// threshold − 1 (register, and of a value being written), the threshold is written now,
    /// and the `split_due` of each possible next g (0, g + 1, g) for the register (`due_reg_*`) and the
    /// written value (`due_wr_*`): g + 1 ≥ T ⇔ g ≥ T − 1 (T ≠ 0), so every compare is one carry
    /// chain from flip-flops or inputs.
    threshold_m1: Signal<Local, Bits<16>>,
    written_threshold_m1: Signal<Local, Bits<16>>,
    threshold_write: Signal<Local, Bit>,
    due_reg_at_0: Signal<Local, Bit>,
    due_reg_at_inc: Signal<Local, Bit>,
    due_reg_at_hold: Signal<Local, Bit>,
    due_wr_at_0: Signal<Local, Bit>,
    due_wr_at_inc: Signal<Local, Bit>,
    due_wr_at_hold: Signal<Local, Bit>,
    due_at_0: Signal<Local, Bit>,
    due_at_inc: Signal<Local, Bit>,

    split_go: Signal<Local, Bit>,
    window_count_inc: Signal<Local, Bits<16>>,
    window_len_now: Signal<Local, Bits<16>>,
    power_add: Signal<Local, Bits<17>>,
    power_count_inc: Signal<Local, Bits<16>>,
    /// `power_count + 2` (the next cycle's `power_count + 1` when the window does not wrap now).
    power_count_inc2: Signal<Local, Bits<16>>,
    /// The next cycle's `power_count + 1` and `POWER_WINDOW` (after a config write or reset).
    power_count_nx1: Signal<Local, Bits<16>>,
    power_window_nx: Signal<Local, Bits<16>>,
    power_cur_next: [Signal<Local, Bits<16>>; 2],
    // policy pipeline
    nibble_free: [Signal<Local, Bits<6>>; 16],
    product_term: [Signal<Local, Bits<10>>; 4],
    /// Weights of the retiring classes of one module.
    class_weight: [Signal<Local, Bits<6>>; 4],
    /// The scorer's selected free map bits.
    score_free_bits: Signal<Local, Bits<32>>,
    /// The scorer's next item.
    score_item_next: Signal<Local, Bits<3>>,
    // ---- copies that `bit_cast` can take: its argument cannot index with a loop variable ----
    /// Match: busy wave slots of the unit and the candidate's waves on it.
    slots_busy_now: Signal<Local, Bits<3>>,
    slots_need_now: Signal<Local, Bits<3>>,
    /// Match: ok vector has a start, per (channel, module, unit) c*4+m*2+u (VGPR, SGPR) and per
    /// (channel, module) c*2+m (LDS).
    any_ok_vgpr: Signal<Local, Bits<8>>,
    any_ok_sgpr: Signal<Local, Bits<8>>,
    any_ok_lds: Signal<Local, Bits<4>>,
    /// Match: channel c has a head (bit c).
    heads_present: Signal<Local, Bits<2>>,
    /// Power history: b_c of one retiring class, Σ b_c of one module, the module's sums.
    class_weight4: Signal<Local, Bits<4>>,
    retire_weight: Signal<Local, Bits<6>>,
    power_prev_now: Signal<Local, Bits<16>>,
    power_cur_now: Signal<Local, Bits<16>>,
    /// Power history: module 1's sum is lower (prefer it), and the delay line shifted.
    power_1_lower: Signal<Local, Bit>,
    power_pref_shift: Signal<Local, Bits<3>>,
    /// Scorer: the two units' next used maps of the item's module (VGPR; SGPR; LDS in `a`).
    score_map16_a: Signal<Local, Bits<16>>,
    score_map16_b: Signal<Local, Bits<16>>,
    score_map8_a: Signal<Local, Bits<8>>,
    score_map8_b: Signal<Local, Bits<8>>,
    /// Scorer: one nibble of the free bits and its popcount.
    score_nibble: Signal<Local, Bits<4>>,
    nibble_count: Signal<Local, Bits<3>>,
    /// Scorer: busy wave slots of the item's two units.
    score_slots_u0: Signal<Local, Bits<3>>,
    score_slots_u1: Signal<Local, Bits<3>>,
    /// Scorer: stage-2 free count, stage-3 product widened, and the module's next sum.
    score_free_now: Signal<Local, Bits<6>>,
    score_product_now: Signal<Local, Bits<10>>,
    score_product12: Signal<Local, Bits<12>>,
    score_sum_next: Signal<Local, Bits<12>>,
    /// Record: per-unit fields of the committed decision (waves, VGPR base, SGPR base).
    rec_waves_u0: Signal<Local, Bits<3>>,
    rec_waves_u1: Signal<Local, Bits<3>>,
    rec_vgpr_base_u0: Signal<Local, Bits<4>>,
    rec_vgpr_base_u1: Signal<Local, Bits<4>>,
    rec_sgpr_base_u0: Signal<Local, Bits<3>>,
    rec_sgpr_base_u1: Signal<Local, Bits<3>>,
    // ---- tags, withdraw, flush, reclaim ----
    /// Channel c's head is no candidate this cycle: replaced at the last edge, or held (bit 1).
    head_changed_now: Signal<Local, Bits<2>>,
    /// A CU reset is open (this cycle's strobes, armed, or the walk running).
    reset_open: Signal<Local, Bit>,
    /// The withdraw command of this cycle names the BE head's kernel slot (the new command's
    /// compare, or the active one's match registered ahead).
    wd_hit: Signal<Local, Bit>,
    /// The BE head is popped by the withdraw at this edge.
    wd_pop: Signal<Local, Bit>,
    /// The BE channel's head is held from this cycle's decision.
    hold_be: Signal<Local, Bit>,
    /// A class-1 push outside the BE channel (`BAD_ID`).
    push_bad_tag: Signal<Local, Bit>,
    /// The walk frees its slot at this edge.
    walk_hit: Signal<Local, Bit>,
    /// What the walk's slot took, read from `walk_table`.
    walk_freed_module: Signal<Local, Bit>,
    walk_freed_vgpr: [Signal<Local, Bits<16>>; 2],
    walk_freed_sgpr: [Signal<Local, Bits<8>>; 2],
    walk_freed_lds: Signal<Local, Bits<16>>,
    walk_freed_waves: [Signal<Local, Bits<3>>; 2],
    /// Flush: which of the BE channel's sources (entries 0..3, the push) stay (class 0), and
    /// the rank of each source among those that stay.
    flush_keep: Signal<Local, Bits<5>>,
    flush_rank: [Signal<Local, Bits<3>>; 5],
    /// Flush: the BE channel's new head's priority.
    flush_head_prio: Signal<Local, Bits<2>>,
}

impl DispatcherTagged {
    /// A board-config tagged dispatcher in its reset state (same as `Default`).
    pub fn new() -> Self {
        Self::default()
    }
}

impl Logic for DispatcherTagged {
    #[hdl_gen]
    fn update(&mut self) {
        // Sections, top to bottom: defaults (registers hold, scratch signals 0); MATCH (every
        // head × module × unit → match_*); DECISION (pick channel, module, slot → pend_*);
        // COMMIT (first fit, maps, in-flight table, pointers, tie marks); HEADS (split, FIFOs,
        // decode of the next heads → head_*); FREE-RUNNING (windows, LFSR, scorers); HOST PORTS
        // (errors, config, record → out_*); reset last. See the glossary in the module doc.
        // ---- registers hold by default ----
        dff_setup!(
            self,
            clock,
            slot_busy,
            free_from_table,
            split_due,
            prefer_q,
            policy,
            split_threshold_x,
            split_threshold_m1_x,
            free_weights_x,
            power_weights_x,
            power_window_x,
            window,
            window_count,
            lfsr_x,
            fail_count,
            power_count,
            power_wrap,
            match_fits,
            match_any_vgpr,
            match_any_lds,
            match_head_valid,
            head_changed,
            module_busy,
            slots_full,
            pend_valid,
            pend_module,
            pend_slot,
            pend_id,
            pend_sub,
            pend_ok_lds,
            pend_need_lds,
            score_item,
            score_used_bits,
            score_free,
            score_weight,
            score_free_item,
            score_product,
            score_product_item,
            weighted_prefers_1,
            power_prefers_1,
            out_valid,
            out_id,
            out_module,
            out_slot,
            out_sub,
            out_waves,
            out_vgpr_base,
            out_sgpr_base,
            out_lds_base,
            out_error,
            out_error_code,
            slot_class,
            pend_class,
            pend_kslot,
            pend_last,
            walk_free,
            walk_on,
            walk_slot,
            armed,
            wd_active,
            wd_kslot,
            wd_match_cont,
            out_class,
            out_kslot,
            out_last,
            out_wdr_valid,
            out_wdr_kslot,
            out_cpl_valid,
            out_cpl_class,
            out_cpl_kslot,
            out_reclaim_done
        );
        for i in 0..8 {
            self.fifo_id[i].clock.next = self.clock.val();
            self.fifo_id[i].d.next = self.fifo_id[i].q.val();
            self.fifo_prio[i].clock.next = self.clock.val();
            self.fifo_prio[i].d.next = self.fifo_prio[i].q.val();
            self.fifo_waves[i].clock.next = self.clock.val();
            self.fifo_waves[i].d.next = self.fifo_waves[i].q.val();
            self.fifo_vgpr[i].clock.next = self.clock.val();
            self.fifo_vgpr[i].d.next = self.fifo_vgpr[i].q.val();
            self.fifo_sgpr[i].clock.next = self.clock.val();
            self.fifo_sgpr[i].d.next = self.fifo_sgpr[i].q.val();
            self.fifo_lds[i].clock.next = self.clock.val();
            self.fifo_lds[i].d.next = self.fifo_lds[i].q.val();
            self.fifo_indep[i].clock.next = self.clock.val();
            self.fifo_indep[i].d.next = self.fifo_indep[i].q.val();
            self.fifo_class[i].clock.next = self.clock.val();
            self.fifo_class[i].d.next = self.fifo_class[i].q.val();
            self.fifo_kslot[i].clock.next = self.clock.val();
            self.fifo_kslot[i].d.next = self.fifo_kslot[i].q.val();
            self.slot_kslot[i].clock.next = self.clock.val();
            self.slot_kslot[i].d.next = self.slot_kslot[i].q.val();
            self.match_ok_vgpr[i].clock.next = self.clock.val();
            self.match_ok_vgpr[i].d.next = self.match_ok_vgpr[i].q.val();
            self.match_ok_sgpr[i].clock.next = self.clock.val();
            self.match_ok_sgpr[i].d.next = self.match_ok_sgpr[i].q.val();
            self.match_waves[i].clock.next = self.clock.val();
            self.match_waves[i].d.next = self.match_waves[i].q.val();
        }
        for i in 0..4 {
            self.vgpr_used[i].clock.next = self.clock.val();
            self.vgpr_used[i].d.next = self.vgpr_used[i].q.val();
            self.sgpr_used[i].clock.next = self.clock.val();
            self.sgpr_used[i].d.next = self.sgpr_used[i].q.val();
            self.slots_used[i].clock.next = self.clock.val();
            self.slots_used[i].d.next = self.slots_used[i].q.val();
            self.win_len_x[i].clock.next = self.clock.val();
            self.win_len_x[i].d.next = self.win_len_x[i].q.val();
            self.match_ok_lds[i].clock.next = self.clock.val();
            self.match_ok_lds[i].d.next = self.match_ok_lds[i].q.val();
        }
        for i in 0..2 {
            self.tie_marks[i].clock.next = self.clock.val();
            self.tie_marks[i].d.next = self.tie_marks[i].q.val();
            self.fifo_count[i].clock.next = self.clock.val();
            self.fifo_count[i].d.next = self.fifo_count[i].q.val();
            self.split_left[i].clock.next = self.clock.val();
            self.split_left[i].d.next = self.split_left[i].q.val();
            self.head_split[i].clock.next = self.clock.val();
            self.head_split[i].d.next = self.head_split[i].q.val();
            self.head_split_more[i].clock.next = self.clock.val();
            self.head_split_more[i].d.next = self.head_split_more[i].q.val();
            self.head_prio[i].clock.next = self.clock.val();
            self.head_prio[i].d.next = self.head_prio[i].q.val();
            self.head_waves_odd[i].clock.next = self.clock.val();
            self.head_waves_odd[i].d.next = self.head_waves_odd[i].q.val();
            self.lds_used[i].clock.next = self.clock.val();
            self.lds_used[i].d.next = self.lds_used[i].q.val();
            self.split_ptr[i].clock.next = self.clock.val();
            self.split_ptr[i].d.next = self.split_ptr[i].q.val();
            self.power_cur[i].clock.next = self.clock.val();
            self.power_cur[i].d.next = self.power_cur[i].q.val();
            self.power_prev[i].clock.next = self.clock.val();
            self.power_prev[i].d.next = self.power_prev[i].q.val();
            self.entry1_waves_hi[i].clock.next = self.clock.val();
            self.entry1_waves_hi[i].d.next = self.entry1_waves_hi[i].q.val();
            self.entry1_waves_lo[i].clock.next = self.clock.val();
            self.entry1_waves_lo[i].d.next = self.entry1_waves_lo[i].q.val();
            self.entry1_need_vgpr_hi[i].clock.next = self.clock.val();
            self.entry1_need_vgpr_hi[i].d.next = self.entry1_need_vgpr_hi[i].q.val();
            self.entry1_need_vgpr_lo[i].clock.next = self.clock.val();
            self.entry1_need_vgpr_lo[i].d.next = self.entry1_need_vgpr_lo[i].q.val();
            self.entry1_need_vgpr_1w[i].clock.next = self.clock.val();
            self.entry1_need_vgpr_1w[i].d.next = self.entry1_need_vgpr_1w[i].q.val();
            self.entry1_need_sgpr_hi[i].clock.next = self.clock.val();
            self.entry1_need_sgpr_hi[i].d.next = self.entry1_need_sgpr_hi[i].q.val();
            self.entry1_need_sgpr_lo[i].clock.next = self.clock.val();
            self.entry1_need_sgpr_lo[i].d.next = self.entry1_need_sgpr_lo[i].q.val();
            self.entry1_need_sgpr_1w[i].clock.next = self.clock.val();
            self.entry1_need_sgpr_1w[i].d.next = self.entry1_need_sgpr_1w[i].q.val();
            self.entry1_need_lds[i].clock.next = self.clock.val();
            self.entry1_need_lds[i].d.next = self.entry1_need_lds[i].q.val();
            self.score_sum[i].clock.next = self.clock.val();
            self.score_sum[i].d.next = self.score_sum[i].q.val();
            self.pend_waves[i].clock.next = self.clock.val();
            self.pend_waves[i].d.next = self.pend_waves[i].q.val();
            self.pend_ok_vgpr[i].clock.next = self.clock.val();
            self.pend_ok_vgpr[i].d.next = self.pend_ok_vgpr[i].q.val();
            self.pend_need_vgpr[i].clock.next = self.clock.val();
            self.pend_need_vgpr[i].d.next = self.pend_need_vgpr[i].q.val();
            self.pend_ok_sgpr[i].clock.next = self.clock.val();
            self.pend_ok_sgpr[i].d.next = self.pend_ok_sgpr[i].q.val();
            self.pend_need_sgpr[i].clock.next = self.clock.val();
            self.pend_need_sgpr[i].d.next = self.pend_need_sgpr[i].q.val();
            self.head_waves_hi[i].clock.next = self.clock.val();
            self.head_waves_hi[i].d.next = self.head_waves_hi[i].q.val();
            self.head_waves_lo[i].clock.next = self.clock.val();
            self.head_waves_lo[i].d.next = self.head_waves_lo[i].q.val();
            self.head_need_vgpr_hi[i].clock.next = self.clock.val();
            self.head_need_vgpr_hi[i].d.next = self.head_need_vgpr_hi[i].q.val();
            self.head_need_vgpr_lo[i].clock.next = self.clock.val();
            self.head_need_vgpr_lo[i].d.next = self.head_need_vgpr_lo[i].q.val();
            self.head_need_vgpr_1w[i].clock.next = self.clock.val();
            self.head_need_vgpr_1w[i].d.next = self.head_need_vgpr_1w[i].q.val();
            self.head_need_sgpr_hi[i].clock.next = self.clock.val();
            self.head_need_sgpr_hi[i].d.next = self.head_need_sgpr_hi[i].q.val();
            self.head_need_sgpr_lo[i].clock.next = self.clock.val();
            self.head_need_sgpr_lo[i].d.next = self.head_need_sgpr_lo[i].q.val();
            self.head_need_sgpr_1w[i].clock.next = self.clock.val();
            self.head_need_sgpr_1w[i].d.next = self.head_need_sgpr_1w[i].q.val();
            self.head_need_lds[i].clock.next = self.clock.val();
            self.head_need_lds[i].d.next = self.head_need_lds[i].q.val();
            self.power_hist_sum[i].clock.next = self.clock.val();
            self.power_hist_sum[i].d.next = self.power_hist_sum[i].q.val();
        }

        // ---- outputs: registered record and error ----
        self.disp_valid.next = self.out_valid.q.val();
        self.disp_id.next = self.out_id.q.val();
        self.disp_module.next = self.out_module.q.val();
        self.disp_slot.next = self.out_slot.q.val();
        self.disp_sub.next = self.out_sub.q.val();
        self.disp_waves.next = self.out_waves.q.val();
        self.disp_vgpr_base.next = self.out_vgpr_base.q.val();
        self.disp_sgpr_base.next = self.out_sgpr_base.q.val();
        self.disp_lds_base.next = self.out_lds_base.q.val();
        self.error.next = self.out_error.q.val();
        self.error_code.next = self.out_error_code.q.val();
        self.disp_class.next = self.out_class.q.val();
        self.disp_kslot.next = self.out_kslot.q.val();
        self.disp_last.next = self.out_last.q.val();
        self.wdr_valid.next = self.out_wdr_valid.q.val();
        self.wdr_kslot.next = self.out_wdr_kslot.q.val();
        self.cpl_valid.next = self.out_cpl_valid.q.val();
        self.cpl_class.next = self.out_cpl_class.q.val();
        self.cpl_kslot.next = self.out_cpl_kslot.q.val();
        self.reclaim_busy.next = self.walk_on.q.val();
        self.reclaim_done.next = self.out_reclaim_done.q.val();
        self.room.next = 0.into();
        for c in 0..2 {
            if self.fifo_count[c].q.val() != 4 {
                self.room.next = self.room.val().replace_bit(c, true);
            }
        }

        // ---- scratch signals: defaults (no latches) ----
        self.slots_busy_now.next = 0.into();
        self.slots_need_now.next = 0.into();
        self.any_ok_vgpr.next = 0.into();
        self.any_ok_sgpr.next = 0.into();
        self.any_ok_lds.next = 0.into();
        self.heads_present.next = 0.into();
        self.class_weight4.next = 0.into();
        self.retire_weight.next = 0.into();
        self.power_prev_now.next = 0.into();
        self.power_cur_now.next = 0.into();
        self.power_1_lower.next = false;
        self.power_pref_shift.next = 0.into();
        self.score_map16_a.next = 0.into();
        self.score_map16_b.next = 0.into();
        self.score_map8_a.next = 0.into();
        self.score_map8_b.next = 0.into();
        self.score_nibble.next = 0.into();
        self.nibble_count.next = 0.into();
        self.score_slots_u0.next = 0.into();
        self.score_slots_u1.next = 0.into();
        self.score_free_now.next = 0.into();
        self.score_product_now.next = 0.into();
        self.score_product12.next = 0.into();
        self.score_sum_next.next = 0.into();
        self.rec_waves_u0.next = 0.into();
        self.rec_waves_u1.next = 0.into();
        self.rec_vgpr_base_u0.next = 0.into();
        self.rec_vgpr_base_u1.next = 0.into();
        self.rec_sgpr_base_u0.next = 0.into();
        self.rec_sgpr_base_u1.next = 0.into();
        self.ok_vec16.next = 0.into();
        self.ok_vec8.next = 0.into();
        self.ok_at_start.next = false;
        self.shift_start.next = 0.into();
        self.shift_end.next = 0.into();
        self.overflow_bit16.next = 0.into();
        self.overflow_bit8.next = 0.into();
        self.fit_found.next = false;
        self.unit_slots_fit.next = false;
        self.slots_after.next = 0.into();
        self.head_fits.next = 0.into();
        for k in 0..16 {
            self.nibble_free[k].next = 0.into();
        }

        // ---- true register values ----
        self.split_threshold.next = self.split_threshold_x.q.val() ^ 256;
        self.win_len[0].next = self.win_len_x[0].q.val() ^ 512;
        self.win_len[1].next = self.win_len_x[1].q.val() ^ 256;
        self.win_len[2].next = self.win_len_x[2].q.val() ^ 128;
        self.win_len[3].next = self.win_len_x[3].q.val() ^ 128;
        self.free_weights.next = self.free_weights_x.q.val() ^ 0x1111;
        self.power_weights.next = self.power_weights_x.q.val() ^ 0x1111;
        self.power_window.next = self.power_window_x.q.val() ^ 1024;
        self.lfsr.next = self.lfsr_x.q.val() ^ 0xACE1;

        // ================= MATCH STAGE (registered into match_*; read by the next cycle) ==========
        // ---- heads (a split head presents one wave at the lowest priority) ----
        for c in 0..2 {
            self.head_valid[c].next = self.fifo_count[c].q.val().any();
            self.head_is_sub[c].next = self.head_split[c].q.val();
            self.head_prio_now[c].next = self.head_prio[c].q.val();
            // emb. 2: effective rank in the current window
            self.head_rank[c].next = self.head_prio_now[c].val();
            if self.head_prio_now[c].val() < self.window.q.val() {
                self.head_rank[c].next = self.head_prio_now[c].val() + 1;
            }
            if self.head_prio_now[c].val() == self.window.q.val() {
                self.head_rank[c].next = 0.into();
            }
            self.cand_need_lds[c].next = self.head_need_lds[c].q.val();
        }

        // ---- split table rotated by the pointer (emb. 8): unit ptr[m] gets ceil(n/2) (resolved
        // here from the registered pointer, so the decision's pointer move ends at `split_ptr`) ----
        for c in 0..2 {
            for m in 0..2 {
                for u in 0..2 {
                    self.cand_waves[c * 4 + m * 2 + u].next = self.head_waves_lo[c].q.val();
                    self.cand_need_vgpr[c * 4 + m * 2 + u].next = self.head_need_vgpr_lo[c].q.val();
                    self.cand_need_sgpr[c * 4 + m * 2 + u].next = self.head_need_sgpr_lo[c].q.val();
                    if self.split_ptr[m].q.val() == (u == 1) {
                        self.cand_waves[c * 4 + m * 2 + u].next = self.head_waves_hi[c].q.val();
                        self.cand_need_vgpr[c * 4 + m * 2 + u].next =
                            self.head_need_vgpr_hi[c].q.val();
                        self.cand_need_sgpr[c * 4 + m * 2 + u].next =
                            self.head_need_sgpr_hi[c].q.val();
                    }
                }
            }
        }

        // ---- match, every head × module × unit: ok[i] = blocks i..i+n-1 exist and are free
        // (registered; the commit stage takes the lowest ok start of the chosen one) ----
        for c in 0..2 {
            for m in 0..2 {
                self.head_fits.next = self
                    .head_fits
                    .val()
                    .replace_bit(c * 2 + m, self.head_valid[c].val());
                for u in 0..2 {
                    self.ok_vec16.next = 0.into();
                    for i in 0..16 {
                        self.shift_start.next = i.to_bits();
                        self.shift_end.next = (16 - i).to_bits();
                        self.overflow_bit16.next = bits::<16>(1) << self.shift_end.val();
                        self.ok_at_start.next = !((self.cand_need_vgpr[c * 4 + m * 2 + u].val()
                            << self.shift_start.val())
                            & self.vgpr_used[m * 2 + u].q.val())
                        .any()
                            & !(self.cand_need_vgpr[c * 4 + m * 2 + u].val()
                                & self.overflow_bit16.val())
                            .any();
                        self.ok_vec16.next =
                            self.ok_vec16.val().replace_bit(i, self.ok_at_start.val());
                    }
                    self.match_ok_vgpr[c * 4 + m * 2 + u].d.next = self.ok_vec16.val();
                    self.any_ok_vgpr.next = self
                        .any_ok_vgpr
                        .val()
                        .replace_bit(c * 4 + m * 2 + u, self.ok_vec16.val().any());
                    self.ok_vec8.next = 0.into();
                    for i in 0..8 {
                        self.shift_start.next = i.to_bits();
                        self.shift_end.next = (8 - i).to_bits();
                        self.overflow_bit8.next = bits::<8>(1) << self.shift_end.val();
                        self.ok_at_start.next = !((self.cand_need_sgpr[c * 4 + m * 2 + u].val()
                            << self.shift_start.val())
                            & self.sgpr_used[m * 2 + u].q.val())
                        .any()
                            & !(self.cand_need_sgpr[c * 4 + m * 2 + u].val()
                                & self.overflow_bit8.val())
                            .any();
                        self.ok_vec8.next =
                            self.ok_vec8.val().replace_bit(i, self.ok_at_start.val());
                    }
                    self.match_ok_sgpr[c * 4 + m * 2 + u].d.next = self.ok_vec8.val();
                    self.any_ok_sgpr.next = self
                        .any_ok_sgpr
                        .val()
                        .replace_bit(c * 4 + m * 2 + u, self.ok_vec8.val().any());
                    // enough wave slots (the ok vectors are tested in the decision stage)
                    self.unit_slots_fit.next = true;
                    // busy + q ≤ 4 wave slots, in 4 bits (a literal would widen it to 32)
                    self.slots_busy_now.next = self.slots_used[m * 2 + u].q.val();
                    self.slots_need_now.next = self.cand_waves[c * 4 + m * 2 + u].val();
                    self.slots_after.next = bit_cast::<4, 3>(self.slots_busy_now.val())
                        + bit_cast::<4, 3>(self.slots_need_now.val());
                    if self.slots_after.val() > 4 {
                        self.unit_slots_fit.next = false;
                    }
                    if !self.unit_slots_fit.val() {
                        self.head_fits.next = self.head_fits.val().replace_bit(c * 2 + m, false);
                    }
                    self.match_waves[c * 4 + m * 2 + u].d.next =
                        self.cand_waves[c * 4 + m * 2 + u].val();
                }
                self.ok_vec16.next = 0.into();
                for i in 0..16 {
                    self.shift_start.next = i.to_bits();
                    self.shift_end.next = (16 - i).to_bits();
                    self.overflow_bit16.next = bits::<16>(1) << self.shift_end.val();
                    self.ok_at_start.next = !((self.cand_need_lds[c].val()
                        << self.shift_start.val())
                        & self.lds_used[m].q.val())
                    .any()
                        & !(self.cand_need_lds[c].val() & self.overflow_bit16.val()).any();
                    self.ok_vec16.next = self.ok_vec16.val().replace_bit(i, self.ok_at_start.val());
                }
                self.match_ok_lds[c * 2 + m].d.next = self.ok_vec16.val();
                self.any_ok_lds.next = self
                    .any_ok_lds
                    .val()
                    .replace_bit(c * 2 + m, self.ok_vec16.val().any());
            }
        }
        for k in 0..4 {
            if !(self.any_ok_sgpr.val().get_bit(k * 2) & self.any_ok_sgpr.val().get_bit(k * 2 + 1))
            {
                self.head_fits.next = self.head_fits.val().replace_bit(k, false);
            }
        }
        self.match_fits.d.next = self.head_fits.val();
        self.match_any_vgpr.d.next = self.any_ok_vgpr.val();
        self.match_any_lds.d.next = self.any_ok_lds.val();
        for c in 0..2 {
            self.heads_present.next = self
                .heads_present
                .val()
                .replace_bit(c, self.head_valid[c].val());
        }
        self.match_head_valid.d.next = self.heads_present.val();

        // ================= TAGS: the hold of the BE head, the withdraw, the walk's visit ========
        self.reset_open.next = self.cu_reset.val()
            | self.cu_reset_done.val()
            | self.armed.q.val()
            | self.walk_on.q.val();
        // (the active command's match is `wd_match_cont`, registered ahead: no compare of the
        // BE head's kslot against `wd_kslot` on the hold's path)
        self.wd_hit.next = self.wd_active.q.val() & self.wd_match_cont.q.val();
        if self.withdraw_valid.val() {
            self.wd_hit.next = self.fifo_kslot[4].q.val() == self.withdraw_kslot.val();
        }
        self.wd_pop.next = self.wd_hit.val()
            & !self.cu_reset.val()
            & self.head_valid[1].val()
            & self.fifo_class[4].q.val();
        // the hold from flip-flops and the input strobes only: without the head-valid term (an
        // absent head is no candidate: its registered match has no head, or the head changed at
        // the last edge) and without `wd_pop` (`cu_reset` holds anyway)
        self.hold_be.next = (self.fifo_class[4].q.val()
            & (self.reset_open.val() | self.wd_hit.val()))
            | self.cu_reset.val();
        self.head_changed_now.next = self.head_changed.q.val();
        if self.hold_be.val() {
            self.head_changed_now.next = self.head_changed.q.val() | 2;
        }
        // the walk frees its slot if it holds a BE WG not completed by this cycle's completion
        self.walk_hit.next = self.walk_on.q.val()
            & self
                .slot_busy
                .q
                .val()
                .get_bit(self.walk_slot.q.val().index())
            & self
                .slot_class
                .q
                .val()
                .get_bit(self.walk_slot.q.val().index())
            & !(self.done_valid.val() & (self.done_slot.val() == self.walk_slot.q.val()));

        // ================= DECISION STAGE (from the registered match results) ================
        // a candidate (c, m) is valid unless c's head was replaced at the last edge or m was
        // decided in one of the last two cycles (not yet in the maps the match stage read)
        self.module_decided_last.next = 0.into();
        if self.pend_valid.q.val() {
            if self.pend_module.q.val() {
                self.module_decided_last.next = 2.into();
            } else {
                self.module_decided_last.next = 1.into();
            }
        }
        // the head fits (match stage: a head, wave slots, a start in every map)
        // (`match_fits` and the VGPR / LDS starts, registered apart)
        self.match_fits_now.next = self.match_fits.q.val();
        for k in 0..4 {
            if !(self.match_any_vgpr.q.val().get_bit(k * 2)
                & self.match_any_vgpr.q.val().get_bit(k * 2 + 1)
                & self.match_any_lds.q.val().get_bit(k))
            {
                self.match_fits_now.next = self.match_fits_now.val().replace_bit(k, false);
            }
        }
        self.cand_valid.next = self.match_fits_now.val();
        for c in 0..2 {
            for m in 0..2 {
                if self.head_changed_now.val().get_bit(c) | self.module_busy.q.val().get_bit(m) {
                    self.cand_valid.next = self.cand_valid.val().replace_bit(c * 2 + m, false);
                }
            }
            self.channel_fits[c].next =
                self.cand_valid.val().get_bit(c * 2) | self.cand_valid.val().get_bit(c * 2 + 1);
        }

        // ---- pick the WG: best effective rank; ties by marks and the LFSR (a41/a42) ----
        self.any_fit.next = self.channel_fits[0].val() | self.channel_fits[1].val();
        // channel 1 wins if both fit (from registers only: the fit bits select last)
        self.tie_prio.next = self.head_prio_now[0].val();
        for c in 0..2 {
            self.tie_mark[c].next = self.tie_marks[c]
                .q
                .val()
                .get_bit(self.head_prio_now[0].val().index());
        }
        self.ranks_equal.next = self.head_rank[1].val() == self.head_rank[0].val();
        self.tie_to_ch1.next = self.tie_mark[0].val();
        if self.tie_mark[0].val() == self.tie_mark[1].val() {
            self.tie_to_ch1.next = self.lfsr.val().get_bit(0);
        }
        // (`prefer_q` = `(rank1 < rank0) | (ranks_equal & tie_to_ch1)`, registered ahead: see
        // the end of FREE-RUNNING)
        self.prefer_ch1.next = self.prefer_q.q.val();
        self.tie_fit.next =
            self.channel_fits[0].val() & self.channel_fits[1].val() & self.ranks_equal.val();
        self.pick_channel.next = 0.into();
        if self.channel_fits[1].val() & (!self.channel_fits[0].val() | self.prefer_ch1.val()) {
            self.pick_channel.next = 1.into();
        }

        // ---- pick the module by the policy (scores from the policy pipeline) ----
        self.policy_prefers_1.next = false;
        if (self.policy.q.val() == 1) & self.weighted_prefers_1.q.val() {
            self.policy_prefers_1.next = true;
        }
        if (self.policy.q.val() == 2) & self.power_prefers_1.q.val().get_bit(2) {
            self.policy_prefers_1.next = true;
        }
        // per channel, then selected by the channel
        for c in 0..2 {
            self.module_if_channel[c].next = self.cand_valid.val().get_bit(c * 2 + 1)
                & (!self.cand_valid.val().get_bit(c * 2) | self.policy_prefers_1.val());
        }
        self.pick_module.next = 0.into();
        if self.module_if_channel[0].val() & !self.pick_channel.val().any() {
            self.pick_module.next = 1.into();
        }
        if self.module_if_channel[1].val() & self.pick_channel.val().any() {
            self.pick_module.next = 1.into();
        }

        // ---- allocate: lowest slot neither busy nor taken by the pending decision ----
        self.slot_found.next = false;
        self.two_slots_free.next = false;
        self.pick_slot.next = 0.into();
        for s in 0..8 {
            if !self.slot_busy.q.val().get_bit(s)
                & !(self.pend_valid.q.val() & (self.pend_slot.q.val().index() == s))
            {
                if self.slot_found.val() {
                    self.two_slots_free.next = true;
                } else {
                    self.pick_slot.next = s.to_bits();
                }
                self.slot_found.next = true;
            }
        }
        // (equal to `slot_found`, from a register: the decision does not wait for the slot search)
        self.slot_free_any.next = !self.slots_full.q.val();
        self.decide.next = self.any_fit.val() & self.slot_free_any.val();
        self.decide_module[0].next = self.decide.val() & !self.pick_module.val().any();
        self.decide_module[1].next = self.decide.val() & self.pick_module.val().any();
        // the decision is registered (pend) and committed in the next cycle
        self.pend_valid.d.next = self.decide.val();
        self.pend_module.d.next = self.pick_module.val().any();
        self.pend_slot.d.next = self.pick_slot.val();
        self.pend_id.d.next = self.fifo_id[0].q.val();
        self.pend_sub.d.next = self.head_is_sub[0].val();
        self.pend_class.d.next = self.fifo_class[0].q.val();
        self.pend_kslot.d.next = self.fifo_kslot[0].q.val();
        self.pend_last.d.next = !self.head_split_more[0].q.val();
        if self.pick_channel.val().any() {
            self.pend_id.d.next = self.fifo_id[4].q.val();
            self.pend_sub.d.next = self.head_is_sub[1].val();
            self.pend_class.d.next = self.fifo_class[4].q.val();
            self.pend_kslot.d.next = self.fifo_kslot[4].q.val();
            self.pend_last.d.next = !self.head_split_more[1].q.val();
        }
        // the chosen head's operands: per channel by its module choice, then by the channel
        // (the channel pick, the latest of the decision's signals, selects last)
        for c in 0..2 {
            for u in 0..2 {
                self.chm_waves[c * 2 + u].next = self.match_waves[c * 4 + u].q.val();
                self.chm_ok_vgpr[c * 2 + u].next = self.match_ok_vgpr[c * 4 + u].q.val();
                self.chm_need_vgpr[c * 2 + u].next = self.cand_need_vgpr[c * 4 + u].val();
                self.chm_ok_sgpr[c * 2 + u].next = self.match_ok_sgpr[c * 4 + u].q.val();
                self.chm_need_sgpr[c * 2 + u].next = self.cand_need_sgpr[c * 4 + u].val();
            }
            self.chm_ok_lds[c].next = self.match_ok_lds[c * 2].q.val();
            if self.module_if_channel[c].val() {
                for u in 0..2 {
                    self.chm_waves[c * 2 + u].next = self.match_waves[c * 4 + 2 + u].q.val();
                    self.chm_ok_vgpr[c * 2 + u].next = self.match_ok_vgpr[c * 4 + 2 + u].q.val();
                    self.chm_need_vgpr[c * 2 + u].next = self.cand_need_vgpr[c * 4 + 2 + u].val();
                    self.chm_ok_sgpr[c * 2 + u].next = self.match_ok_sgpr[c * 4 + 2 + u].q.val();
                    self.chm_need_sgpr[c * 2 + u].next = self.cand_need_sgpr[c * 4 + 2 + u].val();
                }
                self.chm_ok_lds[c].next = self.match_ok_lds[c * 2 + 1].q.val();
            }
        }
        for c in 0..2 {
            if self.pick_channel.val().index() == c {
                for u in 0..2 {
                    self.pend_waves[u].d.next = self.chm_waves[c * 2 + u].val();
                    self.pend_ok_vgpr[u].d.next = self.chm_ok_vgpr[c * 2 + u].val();
                    self.pend_need_vgpr[u].d.next = self.chm_need_vgpr[c * 2 + u].val();
                    self.pend_ok_sgpr[u].d.next = self.chm_ok_sgpr[c * 2 + u].val();
                    self.pend_need_sgpr[u].d.next = self.chm_need_sgpr[c * 2 + u].val();
                }
                self.pend_ok_lds.d.next = self.chm_ok_lds[c].val();
                self.pend_need_lds.d.next = self.cand_need_lds[c].val();
            }
        }
        self.module_busy.d.next = self.module_decided_last.val();
        if self.decide.val() {
            // the decision takes `pick_slot`; a completion frees a busy slot
            self.module_busy.d.next = self
                .module_decided_last
                .val()
                .replace_bit(self.pick_module.val().index(), true);
            self.slots_full.d.next = !self.two_slots_free.val();
        } else {
            self.slots_full.d.next = !self.slot_found.val();
        }

        // ================= COMMIT STAGE (the pending decision) ================================
        // first fit: the lowest ok start is the base, the region is the need shifted there
        for u in 0..2 {
            self.fit_found.next = false;
            self.commit_vgpr_base[u].next = 0.into();
            self.commit_vgpr_region[u].next = 0.into();
            for i in 0..16 {
                self.shift_start.next = i.to_bits();
                if self.pend_ok_vgpr[u].q.val().get_bit(i) & !self.fit_found.val() {
                    self.commit_vgpr_base[u].next = i.to_bits();
                    self.commit_vgpr_region[u].next =
                        self.pend_need_vgpr[u].q.val() << self.shift_start.val();
                    self.fit_found.next = true;
                }
            }
            self.fit_found.next = false;
            self.commit_sgpr_base[u].next = 0.into();
            self.commit_sgpr_region[u].next = 0.into();
            for i in 0..8 {
                self.shift_start.next = i.to_bits();
                if self.pend_ok_sgpr[u].q.val().get_bit(i) & !self.fit_found.val() {
                    self.commit_sgpr_base[u].next = i.to_bits();
                    self.commit_sgpr_region[u].next =
                        self.pend_need_sgpr[u].q.val() << self.shift_start.val();
                    self.fit_found.next = true;
                }
            }
        }
        self.fit_found.next = false;
        self.commit_lds_base.next = 0.into();
        self.commit_lds_region.next = 0.into();
        for i in 0..16 {
            self.shift_start.next = i.to_bits();
            if self.pend_ok_lds.q.val().get_bit(i) & !self.fit_found.val() {
                self.commit_lds_base.next = i.to_bits();
                self.commit_lds_region.next = self.pend_need_lds.q.val() << self.shift_start.val();
                self.fit_found.next = true;
            }
        }

        // ---- next state of the resources: completion frees, allocation takes ----
        for k in 0..4 {
            self.vgpr_used_next[k].next = self.vgpr_used[k].q.val();
            self.sgpr_used_next[k].next = self.sgpr_used[k].q.val();
            self.slots_used_next[k].next = self.slots_used[k].q.val();
        }
        for k in 0..2 {
            self.lds_used_next[k].next = self.lds_used[k].q.val();
        }
        // a completion frees its slot at this edge; the table RAM reads its entry at this edge
        // and the blocks are freed at the next one (from the read data)
        self.done_accept.next =
            self.done_valid.val() & self.slot_busy.q.val().get_bit(self.done_slot.val().index());
        self.inflight_table.read_clock.next = self.clock.val();
        self.inflight_table.write_clock.next = self.clock.val();
        self.inflight_table.read_address.next = self.done_slot.val();
        self.free_from_table.d.next = self.done_accept.val();
        if self.done_accept.val() {
            self.slots_full.d.next = false;
        }
        self.freed_module.next = self.inflight_table.read_data.val().get_bit(70);
        self.freed_lds.next = self.inflight_table.read_data.val().get_bits::<16>(48);
        self.freed_vgpr[0].next = self.inflight_table.read_data.val().get_bits::<16>(0);
        self.freed_vgpr[1].next = self.inflight_table.read_data.val().get_bits::<16>(16);
        self.freed_sgpr[0].next = self.inflight_table.read_data.val().get_bits::<8>(32);
        self.freed_sgpr[1].next = self.inflight_table.read_data.val().get_bits::<8>(40);
        self.freed_waves[0].next = self.inflight_table.read_data.val().get_bits::<3>(64);
        self.freed_waves[1].next = self.inflight_table.read_data.val().get_bits::<3>(67);
        if self.free_from_table.q.val() {
            for m in 0..2 {
                if self.freed_module.val() == (m == 1) {
                    self.lds_used_next[m].next =
                        self.lds_used_next[m].val() & !self.freed_lds.val();
                    for u in 0..2 {
                        self.vgpr_used_next[m * 2 + u].next =
                            self.vgpr_used_next[m * 2 + u].val() & !self.freed_vgpr[u].val();
                        self.sgpr_used_next[m * 2 + u].next =
                            self.sgpr_used_next[m * 2 + u].val() & !self.freed_sgpr[u].val();
                        self.slots_used_next[m * 2 + u].next =
                            self.slots_used_next[m * 2 + u].val() - self.freed_waves[u].val();
                    }
                }
            }
        }
        // the walk's second free port: slot at this edge, blocks at the next one
        self.walk_table.read_clock.next = self.clock.val();
        self.walk_table.write_clock.next = self.clock.val();
        self.walk_table.read_address.next = self.walk_slot.q.val();
        self.walk_free.d.next = self.walk_hit.val();
        if self.walk_hit.val() {
            self.slots_full.d.next = false;
        }
        self.walk_freed_module.next = self.walk_table.read_data.val().get_bit(70);
        self.walk_freed_lds.next = self.walk_table.read_data.val().get_bits::<16>(48);
        self.walk_freed_vgpr[0].next = self.walk_table.read_data.val().get_bits::<16>(0);
        self.walk_freed_vgpr[1].next = self.walk_table.read_data.val().get_bits::<16>(16);
        self.walk_freed_sgpr[0].next = self.walk_table.read_data.val().get_bits::<8>(32);
        self.walk_freed_sgpr[1].next = self.walk_table.read_data.val().get_bits::<8>(40);
        self.walk_freed_waves[0].next = self.walk_table.read_data.val().get_bits::<3>(64);
        self.walk_freed_waves[1].next = self.walk_table.read_data.val().get_bits::<3>(67);
        if self.walk_free.q.val() {
            for m in 0..2 {
                if self.walk_freed_module.val() == (m == 1) {
                    self.lds_used_next[m].next =
                        self.lds_used_next[m].val() & !self.walk_freed_lds.val();
                    for u in 0..2 {
                        self.vgpr_used_next[m * 2 + u].next =
                            self.vgpr_used_next[m * 2 + u].val() & !self.walk_freed_vgpr[u].val();
                        self.sgpr_used_next[m * 2 + u].next =
                            self.sgpr_used_next[m * 2 + u].val() & !self.walk_freed_sgpr[u].val();
                        self.slots_used_next[m * 2 + u].next =
                            self.slots_used_next[m * 2 + u].val() - self.walk_freed_waves[u].val();
                    }
                }
            }
        }
        self.slot_busy_next.next = self.slot_busy.q.val();
        if self.walk_hit.val() {
            self.slot_busy_next.next = self
                .slot_busy
                .q
                .val()
                .replace_bit(self.walk_slot.q.val().index(), false);
        }
        if self.done_accept.val() {
            self.slot_busy_next.next = self
                .slot_busy_next
                .val()
                .replace_bit(self.done_slot.val().index(), false);
        }
        // commit: the pending decision takes its regions, wave slots and in-flight slot
        for m in 0..2 {
            if self.pend_valid.q.val() & (self.pend_module.q.val() == (m == 1)) {
                self.lds_used_next[m].next =
                    self.lds_used_next[m].val() | self.commit_lds_region.val();
                for u in 0..2 {
                    self.vgpr_used_next[m * 2 + u].next =
                        self.vgpr_used_next[m * 2 + u].val() | self.commit_vgpr_region[u].val();
                    self.sgpr_used_next[m * 2 + u].next =
                        self.sgpr_used_next[m * 2 + u].val() | self.commit_sgpr_region[u].val();
                    self.slots_used_next[m * 2 + u].next =
                        self.slots_used_next[m * 2 + u].val() + self.pend_waves[u].q.val();
                }
            }
        }
        self.inflight_table.write_enable.next = self.pend_valid.q.val();
        self.inflight_table.write_address.next = self.pend_slot.q.val();
        self.table_write.next = bit_cast::<71, 16>(self.commit_vgpr_region[0].val())
            | (bit_cast::<71, 16>(self.commit_vgpr_region[1].val()) << 16)
            | (bit_cast::<71, 8>(self.commit_sgpr_region[0].val()) << 32)
            | (bit_cast::<71, 8>(self.commit_sgpr_region[1].val()) << 40)
            | (bit_cast::<71, 16>(self.commit_lds_region.val()) << 48)
            | (bit_cast::<71, 3>(self.pend_waves[0].q.val()) << 64)
            | (bit_cast::<71, 3>(self.pend_waves[1].q.val()) << 67);
        self.table_write.next = self
            .table_write
            .val()
            .replace_bit(70, self.pend_module.q.val());
        self.inflight_table.write_data.next = self.table_write.val();
        self.walk_table.write_enable.next = self.pend_valid.q.val();
        self.walk_table.write_address.next = self.pend_slot.q.val();
        self.walk_table.write_data.next = self.table_write.val();
        if self.pend_valid.q.val() {
            for s in 0..8 {
                if self.pend_slot.q.val().index() == s {
                    self.slot_busy_next.next = self.slot_busy_next.val().replace_bit(s, true);
                    self.slot_class.d.next = self
                        .slot_class
                        .q
                        .val()
                        .replace_bit(s, self.pend_class.q.val());
                    self.slot_kslot[s].d.next = self.pend_kslot.q.val();
                }
            }
        }
        // decision: emb. 8, the pointer moves by n on the chosen module only
        for m in 0..2 {
            self.split_ptr_next[m].next = self.split_ptr[m].q.val();
            if self.decide_module[m].val() {
                if self.head_waves_odd[0].q.val() & !self.pick_channel.val().any() {
                    self.split_ptr_next[m].next = !self.split_ptr[m].q.val();
                }
                if self.head_waves_odd[1].q.val() & self.pick_channel.val().any() {
                    self.split_ptr_next[m].next = !self.split_ptr[m].q.val();
                }
            }
            self.split_ptr[m].d.next = self.split_ptr_next[m].val();
        }
        if self.decide.val() {
            // a42: mark the winner at the tied priority; when every tied channel is already
            // marked, clear the others' marks instead
            if self.tie_fit.val() {
                for c in 0..2 {
                    if !(self.tie_mark[0].val() & self.tie_mark[1].val()) {
                        if self.pick_channel.val().index() == c {
                            self.tie_marks[c].d.next = self.tie_marks[c]
                                .q
                                .val()
                                .replace_bit(self.tie_prio.val().index(), true);
                        }
                    } else {
                        if self.pick_channel.val().index() != c {
                            self.tie_marks[c].d.next = self.tie_marks[c]
                                .q
                                .val()
                                .replace_bit(self.tie_prio.val().index(), false);
                        }
                    }
                }
            }
        }
        self.slot_busy.d.next = self.slot_busy_next.val();
        for k in 0..4 {
            self.vgpr_used[k].d.next = self.vgpr_used_next[k].val();
            self.sgpr_used[k].d.next = self.sgpr_used_next[k].val();
            self.slots_used[k].d.next = self.slots_used_next[k].val();
        }
        for k in 0..2 {
            self.lds_used[k].d.next = self.lds_used_next[k].val();
        }

        // ================= HEADS: split (emb. 3), FIFOs, the next heads' decode ================
        // ---- failure counter and split (emb. 3): a failure needs fresh match results of every
        // head and no fit at all ----
        self.any_head.next = self.head_valid[0].val() | self.head_valid[1].val();
        self.stale_or_fit.next = false;
        for c in 0..2 {
            if self.head_valid[c].val()
                & (!self.match_head_valid.q.val().get_bit(c)
                    | self.head_changed_now.val().get_bit(c)
                    | self.match_fits_now.val().get_bit(c * 2)
                    | self.match_fits_now.val().get_bit(c * 2 + 1))
            {
                self.stale_or_fit.next = true;
            }
        }
        self.split_go.next = false;
        self.fail_count_inc.next = self.fail_count.q.val();
        if !self.fail_count.q.val().all() {
            self.fail_count_inc.next = self.fail_count.q.val() + 1;
        }
        // `split_due` is computed here for each possible next g (0, g + 1, g) against the
        // threshold after the edge, and selected with the counter update (no carry chain after
        // the decision)
        self.threshold_m1.next = self.split_threshold_m1_x.q.val() ^ 255;
        self.written_threshold_m1.next = self.cfg_data.val() - 1;
        self.due_reg_at_0.next = self.split_threshold.val() == 1;
        self.due_reg_at_inc.next = self.split_threshold.val().any()
            & (self.fail_count_inc.val() >= self.threshold_m1.val());
        self.due_reg_at_hold.next =
            self.split_threshold.val().any() & (self.fail_count.q.val() >= self.threshold_m1.val());
        self.due_wr_at_0.next = self.cfg_data.val() == 1;
        self.due_wr_at_inc.next = self.cfg_data.val().any()
            & (self.fail_count_inc.val() >= self.written_threshold_m1.val());
        self.due_wr_at_hold.next = self.cfg_data.val().any()
            & (self.fail_count.q.val() >= self.written_threshold_m1.val());
        self.threshold_write.next = self.cfg_we.val() & (self.cfg_addr.val() == 1);
        self.due_at_0.next = self.due_reg_at_0.val();
        self.due_at_inc.next = self.due_reg_at_inc.val();
        self.split_due.d.next = self.due_reg_at_hold.val();
        if self.threshold_write.val() {
            self.due_at_0.next = self.due_wr_at_0.val();
            self.due_at_inc.next = self.due_wr_at_inc.val();
            self.split_due.d.next = self.due_wr_at_hold.val();
        }
        if self.decide.val() {
            self.fail_count.d.next = 0.into();
            self.split_due.d.next = self.due_at_0.val();
        } else {
            if self.any_head.val() & self.slot_free_any.val() & !self.stale_or_fit.val() {
                if self.split_due.q.val() {
                    self.split_go.next = true;
                    self.fail_count.d.next = 0.into();
                    self.split_due.d.next = self.due_at_0.val();
                } else {
                    self.fail_count.d.next = self.fail_count_inc.val();
                    self.split_due.d.next = self.due_at_inc.val();
                }
            }
        }

        // ---- FIFOs: pop the dispatched head, split, push (checks at the input) ----
        self.head_changed_next.next = 0.into();
        for c in 0..2 {
            // a dispatch pops the head unless it is a split head with more sub-WGs left
            // (`head_split_more` implies `head_split`)
            self.pop[c].next = (self.decide.val()
                & (self.pick_channel.val().index() == c)
                & !self.head_split_more[c].q.val())
                | (self.wd_pop.val() & (c == 1));
            if self.decide.val()
                & (self.pick_channel.val().index() == c)
                & self.head_is_sub[c].val()
            {
                self.split_left[c].d.next = self.split_left[c].q.val() - 1;
                self.head_split_more[c].d.next = self.split_left[c].q.val() > 2;
                if !self.head_split_more[c].q.val() {
                    self.head_split[c].d.next = false;
                }
            }
            if self.pop[c].val() {
                self.head_changed_next.next = self.head_changed_next.val().replace_bit(c, true);
            }
            self.enter_split[c].next = self.split_go.val()
                & self.head_valid[c].val()
                & !self.head_is_sub[c].val()
                & self.fifo_indep[c * 4].q.val()
                & (self.fifo_waves[c * 4].q.val() >= 2);
            if self.enter_split[c].val() {
                self.split_left[c].d.next = self.fifo_waves[c * 4].q.val();
                self.head_split[c].d.next = true;
                self.head_split_more[c].d.next = true;
                self.head_changed_next.next = self.head_changed_next.val().replace_bit(c, true);
            }
        }
        // a withdrawn head goes with its sub-WGs not yet decided
        if self.wd_pop.val() {
            self.split_left[1].d.next = 0.into();
            self.head_split[1].d.next = false;
            self.head_split_more[1].d.next = false;
        }
        self.head_changed.d.next = self.head_changed_next.val();
        // never-fits: ceil(n/2) waves per unit must fit an empty unit, i.e. per-wave needs up to
        // 16 / ceil(n/2) VGPR and 8 / ceil(n/2) SGPR blocks (constant thresholds per wave count:
        // no multiplier on the push path)
        // (the `>` tests against constants written as bit logic: yosys maps a `>` to a carry
        // chain, which sat on the push → FIFO-enable path)
        self.push_vgpr_per_wave.next = self.push_vgpr.val();
        self.push_sgpr_per_wave.next = self.push_sgpr.val();
        self.vgpr_over16.next = self.push_vgpr_per_wave.val().get_bit(4)
            & self.push_vgpr_per_wave.val().get_bits::<4>(0).any();
        self.vgpr_over8.next = self.push_vgpr_per_wave.val().get_bit(4)
            | (self.push_vgpr_per_wave.val().get_bit(3)
                & self.push_vgpr_per_wave.val().get_bits::<3>(0).any());
        self.vgpr_over5.next = self.push_vgpr_per_wave.val().get_bit(4)
            | self.push_vgpr_per_wave.val().get_bit(3)
            | (self.push_vgpr_per_wave.val().get_bit(2) & self.push_vgpr_per_wave.val().get_bit(1));
        self.vgpr_over4.next = self.push_vgpr_per_wave.val().get_bit(4)
            | self.push_vgpr_per_wave.val().get_bit(3)
            | (self.push_vgpr_per_wave.val().get_bit(2)
                & self.push_vgpr_per_wave.val().get_bits::<2>(0).any());
        self.sgpr_over8.next = self.push_sgpr_per_wave.val().get_bit(3)
            & self.push_sgpr_per_wave.val().get_bits::<3>(0).any();
        self.sgpr_over4.next = self.push_sgpr_per_wave.val().get_bit(3)
            | (self.push_sgpr_per_wave.val().get_bit(2)
                & self.push_sgpr_per_wave.val().get_bits::<2>(0).any());
        self.sgpr_over2.next = self.push_sgpr_per_wave.val().get_bit(3)
            | self.push_sgpr_per_wave.val().get_bit(2)
            | (self.push_sgpr_per_wave.val().get_bit(1) & self.push_sgpr_per_wave.val().get_bit(0));
        // waves > 8, LDS > 16
        self.never_fits.next = (self.push_waves.val().get_bit(3)
            & self.push_waves.val().get_bits::<3>(0).any())
            | (self.push_lds.val().get_bit(4) & self.push_lds.val().get_bits::<4>(0).any());
        if ((self.push_waves.val() == 1) | (self.push_waves.val() == 2))
            & (self.vgpr_over16.val() | self.sgpr_over8.val())
        {
            self.never_fits.next = true;
        }
        if ((self.push_waves.val() == 3) | (self.push_waves.val() == 4))
            & (self.vgpr_over8.val() | self.sgpr_over4.val())
        {
            self.never_fits.next = true;
        }
        if ((self.push_waves.val() == 5) | (self.push_waves.val() == 6))
            & (self.vgpr_over5.val() | self.sgpr_over2.val())
        {
            self.never_fits.next = true;
        }
        if ((self.push_waves.val() == 7) | (self.push_waves.val() == 8))
            & (self.vgpr_over4.val() | self.sgpr_over2.val())
        {
            self.never_fits.next = true;
        }
        self.push_room.next = true;
        for c in 0..2 {
            if (self.push_channel.val() == (c == 1)) & (self.fifo_count[c].q.val() == 4) {
                self.push_room.next = false;
            }
        }
        self.push_ready.next = self.push_room.val();
        self.push_err.next = 0.into();
        if self.push_valid.val() & self.push_room.val() {
            if !self.push_waves.val().any() {
                self.push_err.next = 2.into();
            } else {
                if self.never_fits.val() {
                    self.push_err.next = 1.into();
                }
            }
        }
        // a class-1 WG outside the BE channel (channel 1) is refused: it beats the other checks
        self.push_bad_tag.next = self.push_valid.val()
            & self.push_room.val()
            & self.push_class.val()
            & !self.push_channel.val();
        if self.push_bad_tag.val() {
            self.push_err.next = 3.into();
        }
        for c in 0..2 {
            self.push_accept[c].next = self.push_valid.val()
                & self.push_room.val()
                & !self.push_err.val().any()
                & (self.push_channel.val() == (c == 1));
            // the data of an offered push is written behind the last entry whether or not it
            // is accepted (`push_wr`: no error checks on the data path; a refused push lands
            // in an entry beyond the count, a don't-care), the count takes `push_accept`
            self.push_wr[c].next = self.push_valid.val() & (self.push_channel.val() == (c == 1));
        }
        // flush: the BE channel's sources that stay (class 0; entries 0..3, the push) and their
        // ranks (source k can only land in entry j <= k)
        self.flush_keep.next = 0.into();
        for k in 0..4 {
            if (self.fifo_count[1].q.val().index() > k) & !self.fifo_class[4 + k].q.val() {
                self.flush_keep.next = self.flush_keep.val().replace_bit(k, true);
            }
        }
        if self.push_wr[1].val() & !self.push_class.val() {
            self.flush_keep.next = self.flush_keep.val().replace_bit(4, true);
        }
        self.flush_rank[0].next = 0.into();
        for k in 0..4 {
            self.flush_rank[k + 1].next = self.flush_rank[k].val();
            if self.flush_keep.val().get_bit(k) {
                self.flush_rank[k + 1].next = self.flush_rank[k].val() + 1;
            }
        }
        for c in 0..2 {
            // shift queue: entry e takes e+1 on a pop, the push lands behind the last entry;
            // written with the (late) pop as the last select. The flush (`cu_reset`, channel 1)
            // sits in the branch without a pop: no pop of channel 1 comes with it (the hold), so
            // its compaction is not a select after the pop
            for e in 0..4 {
                if self.pop[c].val() {
                    if self.push_wr[c].val() & (self.fifo_count[c].q.val().index() == e + 1) {
                        self.fifo_id[c * 4 + e].d.next = self.push_id.val();
                        self.fifo_prio[c * 4 + e].d.next = self.push_prio.val();
                        self.fifo_waves[c * 4 + e].d.next = self.push_waves.val();
                        self.fifo_vgpr[c * 4 + e].d.next = self.push_vgpr.val();
                        self.fifo_sgpr[c * 4 + e].d.next = self.push_sgpr.val();
                        self.fifo_lds[c * 4 + e].d.next = self.push_lds.val();
                        self.fifo_indep[c * 4 + e].d.next = self.push_indep.val();
                        self.fifo_class[c * 4 + e].d.next = self.push_class.val();
                        self.fifo_kslot[c * 4 + e].d.next = self.push_kslot.val();
                    } else {
                        if e < 3 {
                            self.fifo_id[c * 4 + e].d.next =
                                self.fifo_id[c * 4 + (e + 1) % 4].q.val();
                            self.fifo_prio[c * 4 + e].d.next =
                                self.fifo_prio[c * 4 + (e + 1) % 4].q.val();
                            self.fifo_waves[c * 4 + e].d.next =
                                self.fifo_waves[c * 4 + (e + 1) % 4].q.val();
                            self.fifo_vgpr[c * 4 + e].d.next =
                                self.fifo_vgpr[c * 4 + (e + 1) % 4].q.val();
                            self.fifo_sgpr[c * 4 + e].d.next =
                                self.fifo_sgpr[c * 4 + (e + 1) % 4].q.val();
                            self.fifo_lds[c * 4 + e].d.next =
                                self.fifo_lds[c * 4 + (e + 1) % 4].q.val();
                            self.fifo_indep[c * 4 + e].d.next =
                                self.fifo_indep[c * 4 + (e + 1) % 4].q.val();
                            self.fifo_class[c * 4 + e].d.next =
                                self.fifo_class[c * 4 + (e + 1) % 4].q.val();
                            self.fifo_kslot[c * 4 + e].d.next =
                                self.fifo_kslot[c * 4 + (e + 1) % 4].q.val();
                        }
                    }
                } else {
                    if self.push_wr[c].val() & (self.fifo_count[c].q.val().index() == e) {
                        self.fifo_id[c * 4 + e].d.next = self.push_id.val();
                        self.fifo_prio[c * 4 + e].d.next = self.push_prio.val();
                        self.fifo_waves[c * 4 + e].d.next = self.push_waves.val();
                        self.fifo_vgpr[c * 4 + e].d.next = self.push_vgpr.val();
                        self.fifo_sgpr[c * 4 + e].d.next = self.push_sgpr.val();
                        self.fifo_lds[c * 4 + e].d.next = self.push_lds.val();
                        self.fifo_indep[c * 4 + e].d.next = self.push_indep.val();
                        self.fifo_class[c * 4 + e].d.next = self.push_class.val();
                        self.fifo_kslot[c * 4 + e].d.next = self.push_kslot.val();
                    }
                    // flush (`cu_reset`): the BE channel keeps its class-0 WGs in order; entry
                    // e takes the staying source of rank e (sources e..=3, the push)
                    if (c == 1) & self.cu_reset.val() {
                        for k in 0..4 {
                            if (k >= e)
                                & self.flush_keep.val().get_bit(k)
                                & (self.flush_rank[k].val().index() == e)
                            {
                                self.fifo_id[c * 4 + e].d.next = self.fifo_id[c * 4 + k].q.val();
                                self.fifo_prio[c * 4 + e].d.next =
                                    self.fifo_prio[c * 4 + k].q.val();
                                self.fifo_waves[c * 4 + e].d.next =
                                    self.fifo_waves[c * 4 + k].q.val();
                                self.fifo_vgpr[c * 4 + e].d.next =
                                    self.fifo_vgpr[c * 4 + k].q.val();
                                self.fifo_sgpr[c * 4 + e].d.next =
                                    self.fifo_sgpr[c * 4 + k].q.val();
                                self.fifo_lds[c * 4 + e].d.next = self.fifo_lds[c * 4 + k].q.val();
                                self.fifo_indep[c * 4 + e].d.next =
                                    self.fifo_indep[c * 4 + k].q.val();
                                self.fifo_class[c * 4 + e].d.next =
                                    self.fifo_class[c * 4 + k].q.val();
                                self.fifo_kslot[c * 4 + e].d.next =
                                    self.fifo_kslot[c * 4 + k].q.val();
                            }
                        }
                        if self.flush_keep.val().get_bit(4)
                            & (self.flush_rank[4].val().index() == e)
                        {
                            self.fifo_id[c * 4 + e].d.next = self.push_id.val();
                            self.fifo_prio[c * 4 + e].d.next = self.push_prio.val();
                            self.fifo_waves[c * 4 + e].d.next = self.push_waves.val();
                            self.fifo_vgpr[c * 4 + e].d.next = self.push_vgpr.val();
                            self.fifo_sgpr[c * 4 + e].d.next = self.push_sgpr.val();
                            self.fifo_lds[c * 4 + e].d.next = self.push_lds.val();
                            self.fifo_indep[c * 4 + e].d.next = self.push_indep.val();
                            self.fifo_class[c * 4 + e].d.next = self.push_class.val();
                            self.fifo_kslot[c * 4 + e].d.next = self.push_kslot.val();
                        }
                    }
                }
            }
            if self.pop[c].val() {
                if !self.push_accept[c].val() {
                    self.fifo_count[c].d.next = self.fifo_count[c].q.val() - 1;
                }
            } else {
                if self.push_accept[c].val() {
                    self.fifo_count[c].d.next = self.fifo_count[c].q.val() + 1;
                }
                // flush: the count from the exact acceptance (`flush_keep` bit 4 only places
                // the data)
                if (c == 1) & self.cu_reset.val() {
                    self.fifo_count[c].d.next = self.flush_rank[4].val();
                    if self.push_accept[c].val() & !self.push_class.val() {
                        self.fifo_count[c].d.next = self.flush_rank[4].val() + 1;
                    }
                }
            }
        }

        // ---- head decoders (entry 1 of each channel, the push port) and the decoded heads ----
        self.dec_waves[0].next = self.fifo_waves[1].q.val();
        self.dec_vgpr[0].next = self.fifo_vgpr[1].q.val();
        self.dec_sgpr[0].next = self.fifo_sgpr[1].q.val();
        self.dec_lds[0].next = self.fifo_lds[1].q.val();
        self.dec_waves[1].next = self.fifo_waves[5].q.val();
        self.dec_vgpr[1].next = self.fifo_vgpr[5].q.val();
        self.dec_sgpr[1].next = self.fifo_sgpr[5].q.val();
        self.dec_lds[1].next = self.fifo_lds[5].q.val();
        self.dec_waves[2].next = self.push_waves.val();
        self.dec_vgpr[2].next = self.push_vgpr.val();
        self.dec_sgpr[2].next = self.push_sgpr.val();
        self.dec_lds[2].next = self.push_lds.val();
        // decoder 1 decodes the flush's new head (the first source that stays) in a `cu_reset`
        // cycle (entry 1 of channel 1 is not needed then: nothing pops it). Its output is loaded
        // into the head only when the head itself does not stay (`flush_keep` bit 0 clear), so
        // the first source that stays is taken among entries 1..3 and the push; entry 1 is the
        // decoder's own input, kept also when no source stays (the count is then 0: an empty
        // FIFO's head registers are not read, as after a pop of the last entry). No ranks and
        // no zero default on this path (a select of four, entry 1 last).
        self.flush_head_prio.next = self.fifo_prio[5].q.val();
        if self.cu_reset.val() & !self.flush_keep.val().get_bit(1) {
            if self.flush_keep.val().get_bit(2) {
                self.dec_waves[1].next = self.fifo_waves[6].q.val();
                self.dec_vgpr[1].next = self.fifo_vgpr[6].q.val();
                self.dec_sgpr[1].next = self.fifo_sgpr[6].q.val();
                self.dec_lds[1].next = self.fifo_lds[6].q.val();
                self.flush_head_prio.next = self.fifo_prio[6].q.val();
            } else {
                if self.flush_keep.val().get_bit(3) {
                    self.dec_waves[1].next = self.fifo_waves[7].q.val();
                    self.dec_vgpr[1].next = self.fifo_vgpr[7].q.val();
                    self.dec_sgpr[1].next = self.fifo_sgpr[7].q.val();
                    self.dec_lds[1].next = self.fifo_lds[7].q.val();
                    self.flush_head_prio.next = self.fifo_prio[7].q.val();
                } else {
                    if self.flush_keep.val().get_bit(4) {
                        self.dec_waves[1].next = self.push_waves.val();
                        self.dec_vgpr[1].next = self.push_vgpr.val();
                        self.dec_sgpr[1].next = self.push_sgpr.val();
                        self.dec_lds[1].next = self.push_lds.val();
                        self.flush_head_prio.next = self.push_prio.val();
                    }
                }
            }
        }
        for s in 0..3 {
            // ceil(n/2) = (n >> 1) + n[0], floor(n/2) = n >> 1 (n ≤ 8 for accepted WGs)
            self.dec_half_waves.next = self.dec_waves[s].val() >> 1;
            self.dec_waves_lo[s].next = self.dec_half_waves.val().get_bits::<3>(0);
            self.dec_waves_hi[s].next = self.dec_waves_lo[s].val();
            if self.dec_waves[s].val().get_bit(0) {
                self.dec_waves_hi[s].next = self.dec_waves_lo[s].val() + 1;
            }
            // thermometers of q × per-wave need without a multiplier: bit j of the one-wave
            // thermometer T is (need > j), and q·need > j ⇔ need > ⌊j/q⌋, so the thermometer
            // of q·need is T with bit j taken from bit ⌊j/q⌋ (wiring), selected by q ∈ 1..=4
            // decoded from the wave count directly (hi: n ∈ {2q−1, 2q}, lo: n ∈ {2q, 2q+1}).
            // Exact for accepted descriptors (q·need ≤ 16 VGPR / 8 SGPR blocks, n ≤ 8).
            self.dec_need_vgpr_1w[s].next = !(bits::<16>(0xFFFF) << self.dec_vgpr[s].val());
            self.dec_need_sgpr_1w[s].next = !(bits::<8>(0xFF) << self.dec_sgpr[s].val());
            self.dec_sel_hi.next = 0.into();
            self.dec_sel_lo.next = 0.into();
            for q in 0..4 {
                if (self.dec_waves[s].val().index() == 2 * q + 1)
                    | (self.dec_waves[s].val().index() == 2 * q + 2)
                {
                    self.dec_sel_hi.next = self.dec_sel_hi.val().replace_bit(q, true);
                }
                if (self.dec_waves[s].val().index() == 2 * q + 2)
                    | (self.dec_waves[s].val().index() == 2 * q + 3)
                {
                    self.dec_sel_lo.next = self.dec_sel_lo.val().replace_bit(q, true);
                }
            }
            // T2, T3, T4: bit j = bit ⌊j/q⌋ of T (bit q·i + r = bit i)
            self.therm_v2.next = 0.into();
            self.therm_v3.next = 0.into();
            self.therm_v4.next = 0.into();
            self.therm_s2.next = 0.into();
            self.therm_s3.next = 0.into();
            self.therm_s4.next = 0.into();
            for i in 0..8 {
                for r in 0..2 {
                    self.therm_v2.next = self
                        .therm_v2
                        .val()
                        .replace_bit(2 * i + r, self.dec_need_vgpr_1w[s].val().get_bit(i));
                }
            }
            for i in 0..5 {
                for r in 0..3 {
                    self.therm_v3.next = self
                        .therm_v3
                        .val()
                        .replace_bit(3 * i + r, self.dec_need_vgpr_1w[s].val().get_bit(i));
                }
            }
            self.therm_v3.next = self
                .therm_v3
                .val()
                .replace_bit(15, self.dec_need_vgpr_1w[s].val().get_bit(5));
            for i in 0..4 {
                for r in 0..4 {
                    self.therm_v4.next = self
                        .therm_v4
                        .val()
                        .replace_bit(4 * i + r, self.dec_need_vgpr_1w[s].val().get_bit(i));
                }
            }
            for i in 0..4 {
                for r in 0..2 {
                    self.therm_s2.next = self
                        .therm_s2
                        .val()
                        .replace_bit(2 * i + r, self.dec_need_sgpr_1w[s].val().get_bit(i));
                }
            }
            for i in 0..2 {
                for r in 0..3 {
                    self.therm_s3.next = self
                        .therm_s3
                        .val()
                        .replace_bit(3 * i + r, self.dec_need_sgpr_1w[s].val().get_bit(i));
                }
            }
            for r in 6..8 {
                self.therm_s3.next = self
                    .therm_s3
                    .val()
                    .replace_bit(r, self.dec_need_sgpr_1w[s].val().get_bit(2));
            }
            for i in 0..2 {
                for r in 0..4 {
                    self.therm_s4.next = self
                        .therm_s4
                        .val()
                        .replace_bit(4 * i + r, self.dec_need_sgpr_1w[s].val().get_bit(i));
                }
            }
            self.dec_need_vgpr_hi[s].next = 0.into();
            self.dec_need_vgpr_lo[s].next = 0.into();
            self.dec_need_sgpr_hi[s].next = 0.into();
            self.dec_need_sgpr_lo[s].next = 0.into();
            if self.dec_sel_hi.val().get_bit(0) {
                self.dec_need_vgpr_hi[s].next = self.dec_need_vgpr_1w[s].val();
                self.dec_need_sgpr_hi[s].next = self.dec_need_sgpr_1w[s].val();
            }
            if self.dec_sel_hi.val().get_bit(1) {
                self.dec_need_vgpr_hi[s].next = self.therm_v2.val();
                self.dec_need_sgpr_hi[s].next = self.therm_s2.val();
            }
            if self.dec_sel_hi.val().get_bit(2) {
                self.dec_need_vgpr_hi[s].next = self.therm_v3.val();
                self.dec_need_sgpr_hi[s].next = self.therm_s3.val();
            }
            if self.dec_sel_hi.val().get_bit(3) {
                self.dec_need_vgpr_hi[s].next = self.therm_v4.val();
                self.dec_need_sgpr_hi[s].next = self.therm_s4.val();
            }
            if self.dec_sel_lo.val().get_bit(0) {
                self.dec_need_vgpr_lo[s].next = self.dec_need_vgpr_1w[s].val();
                self.dec_need_sgpr_lo[s].next = self.dec_need_sgpr_1w[s].val();
            }
            if self.dec_sel_lo.val().get_bit(1) {
                self.dec_need_vgpr_lo[s].next = self.therm_v2.val();
                self.dec_need_sgpr_lo[s].next = self.therm_s2.val();
            }
            if self.dec_sel_lo.val().get_bit(2) {
                self.dec_need_vgpr_lo[s].next = self.therm_v3.val();
                self.dec_need_sgpr_lo[s].next = self.therm_s3.val();
            }
            if self.dec_sel_lo.val().get_bit(3) {
                self.dec_need_vgpr_lo[s].next = self.therm_v4.val();
                self.dec_need_sgpr_lo[s].next = self.therm_s4.val();
            }
            self.dec_need_lds[s].next = !(bits::<16>(0xFFFF) << self.dec_lds[s].val());
        }
        // decoded entry 1: from the push when it lands in entry 1, else from entry 1
        for c in 0..2 {
            self.entry1_waves_hi[c].d.next = self.dec_waves_hi[c].val();
            self.entry1_waves_lo[c].d.next = self.dec_waves_lo[c].val();
            self.entry1_need_vgpr_hi[c].d.next = self.dec_need_vgpr_hi[c].val();
            self.entry1_need_vgpr_lo[c].d.next = self.dec_need_vgpr_lo[c].val();
            self.entry1_need_vgpr_1w[c].d.next = self.dec_need_vgpr_1w[c].val();
            self.entry1_need_sgpr_hi[c].d.next = self.dec_need_sgpr_hi[c].val();
            self.entry1_need_sgpr_lo[c].d.next = self.dec_need_sgpr_lo[c].val();
            self.entry1_need_sgpr_1w[c].d.next = self.dec_need_sgpr_1w[c].val();
            self.entry1_need_lds[c].d.next = self.dec_need_lds[c].val();
            if (self.fifo_count[c].q.val() == 1) & self.push_wr[c].val() {
                self.entry1_waves_hi[c].d.next = self.dec_waves_hi[2].val();
                self.entry1_waves_lo[c].d.next = self.dec_waves_lo[2].val();
                self.entry1_need_vgpr_hi[c].d.next = self.dec_need_vgpr_hi[2].val();
                self.entry1_need_vgpr_lo[c].d.next = self.dec_need_vgpr_lo[2].val();
                self.entry1_need_vgpr_1w[c].d.next = self.dec_need_vgpr_1w[2].val();
                self.entry1_need_sgpr_hi[c].d.next = self.dec_need_sgpr_hi[2].val();
                self.entry1_need_sgpr_lo[c].d.next = self.dec_need_sgpr_lo[2].val();
                self.entry1_need_sgpr_1w[c].d.next = self.dec_need_sgpr_1w[2].val();
                self.entry1_need_lds[c].d.next = self.dec_need_lds[2].val();
            }
        }
        for c in 0..2 {
            // next hi / lo decode of the head, with the (late) pop as the last select: without a
            // pop hold, load the push into an empty FIFO, or enter split mode; with a pop load
            // entry 1 (or the push landing in entry 0)
            self.load_waves_hi[c].next = self.head_waves_hi[c].q.val();
            self.load_waves_lo[c].next = self.head_waves_lo[c].q.val();
            self.load_need_vgpr_hi[c].next = self.head_need_vgpr_hi[c].q.val();
            self.load_need_vgpr_lo[c].next = self.head_need_vgpr_lo[c].q.val();
            self.load_need_sgpr_hi[c].next = self.head_need_sgpr_hi[c].q.val();
            self.load_need_sgpr_lo[c].next = self.head_need_sgpr_lo[c].q.val();
            if !self.fifo_count[c].q.val().any() & self.push_wr[c].val() {
                self.load_waves_hi[c].next = self.dec_waves_hi[2].val();
                self.load_waves_lo[c].next = self.dec_waves_lo[2].val();
                self.load_need_vgpr_hi[c].next = self.dec_need_vgpr_hi[2].val();
                self.load_need_vgpr_lo[c].next = self.dec_need_vgpr_lo[2].val();
                self.load_need_sgpr_hi[c].next = self.dec_need_sgpr_hi[2].val();
                self.load_need_sgpr_lo[c].next = self.dec_need_sgpr_lo[2].val();
                self.head_need_vgpr_1w[c].d.next = self.dec_need_vgpr_1w[2].val();
                self.head_need_sgpr_1w[c].d.next = self.dec_need_sgpr_1w[2].val();
                self.head_need_lds[c].d.next = self.dec_need_lds[2].val();
                self.head_prio[c].d.next = self.push_prio.val();
                self.head_waves_odd[c].d.next = self.push_waves.val().get_bit(0);
            }
            // a head entering split mode presents one wave (on the unit that gets ceil)
            if self.enter_split[c].val() {
                self.head_prio[c].d.next = 3.into();
                self.head_waves_odd[c].d.next = true;
                self.load_waves_hi[c].next = 1.into();
                self.load_waves_lo[c].next = 0.into();
                self.load_need_vgpr_hi[c].next = self.head_need_vgpr_1w[c].q.val();
                self.load_need_vgpr_lo[c].next = 0.into();
                self.load_need_sgpr_hi[c].next = self.head_need_sgpr_1w[c].q.val();
                self.load_need_sgpr_lo[c].next = 0.into();
            }
            // a flush replacing the BE head loads decoder 1 (no pop of channel 1 comes with it,
            // so the pop stays the last select)
            if (c == 1) & self.cu_reset.val() & !self.flush_keep.val().get_bit(0) {
                self.load_waves_hi[c].next = self.dec_waves_hi[1].val();
                self.load_waves_lo[c].next = self.dec_waves_lo[1].val();
                self.load_need_vgpr_hi[c].next = self.dec_need_vgpr_hi[1].val();
                self.load_need_vgpr_lo[c].next = self.dec_need_vgpr_lo[1].val();
                self.load_need_sgpr_hi[c].next = self.dec_need_sgpr_hi[1].val();
                self.load_need_sgpr_lo[c].next = self.dec_need_sgpr_lo[1].val();
                self.head_need_vgpr_1w[c].d.next = self.dec_need_vgpr_1w[1].val();
                self.head_need_sgpr_1w[c].d.next = self.dec_need_sgpr_1w[1].val();
                self.head_need_lds[c].d.next = self.dec_need_lds[1].val();
                self.head_prio[c].d.next = self.flush_head_prio.val();
                self.head_waves_odd[c].d.next = self.dec_waves[1].val().get_bit(0);
            }
            if self.pop[c].val() {
                if self.fifo_count[c].q.val().get_bits::<2>(1).any() {
                    self.load_waves_hi[c].next = self.entry1_waves_hi[c].q.val();
                    self.load_waves_lo[c].next = self.entry1_waves_lo[c].q.val();
                    self.load_need_vgpr_hi[c].next = self.entry1_need_vgpr_hi[c].q.val();
                    self.load_need_vgpr_lo[c].next = self.entry1_need_vgpr_lo[c].q.val();
                    self.load_need_sgpr_hi[c].next = self.entry1_need_sgpr_hi[c].q.val();
                    self.load_need_sgpr_lo[c].next = self.entry1_need_sgpr_lo[c].q.val();
                    self.head_need_vgpr_1w[c].d.next = self.entry1_need_vgpr_1w[c].q.val();
                    self.head_need_sgpr_1w[c].d.next = self.entry1_need_sgpr_1w[c].q.val();
                    self.head_need_lds[c].d.next = self.entry1_need_lds[c].q.val();
                    self.head_prio[c].d.next = self.fifo_prio[c * 4 + 1].q.val();
                    self.head_waves_odd[c].d.next = self.fifo_waves[c * 4 + 1].q.val().get_bit(0);
                } else {
                    self.load_waves_hi[c].next = self.dec_waves_hi[2].val();
                    self.load_waves_lo[c].next = self.dec_waves_lo[2].val();
                    self.load_need_vgpr_hi[c].next = self.dec_need_vgpr_hi[2].val();
                    self.load_need_vgpr_lo[c].next = self.dec_need_vgpr_lo[2].val();
                    self.load_need_sgpr_hi[c].next = self.dec_need_sgpr_hi[2].val();
                    self.load_need_sgpr_lo[c].next = self.dec_need_sgpr_lo[2].val();
                    self.head_need_vgpr_1w[c].d.next = self.dec_need_vgpr_1w[2].val();
                    self.head_need_sgpr_1w[c].d.next = self.dec_need_sgpr_1w[2].val();
                    self.head_need_lds[c].d.next = self.dec_need_lds[2].val();
                    self.head_prio[c].d.next = self.push_prio.val();
                    self.head_waves_odd[c].d.next = self.push_waves.val().get_bit(0);
                }
            }
            // a withdraw pops in consecutive cycles: its next head is decoded from entry 1
            // directly (`entry1_*` follows one edge late)
            if self.wd_pop.val() & (c == 1) & self.fifo_count[c].q.val().get_bits::<2>(1).any() {
                self.load_waves_hi[c].next = self.dec_waves_hi[1].val();
                self.load_waves_lo[c].next = self.dec_waves_lo[1].val();
                self.load_need_vgpr_hi[c].next = self.dec_need_vgpr_hi[1].val();
                self.load_need_vgpr_lo[c].next = self.dec_need_vgpr_lo[1].val();
                self.load_need_sgpr_hi[c].next = self.dec_need_sgpr_hi[1].val();
                self.load_need_sgpr_lo[c].next = self.dec_need_sgpr_lo[1].val();
                self.head_need_vgpr_1w[c].d.next = self.dec_need_vgpr_1w[1].val();
                self.head_need_sgpr_1w[c].d.next = self.dec_need_sgpr_1w[1].val();
                self.head_need_lds[c].d.next = self.dec_need_lds[1].val();
                self.head_prio[c].d.next = self.fifo_prio[5].q.val();
                self.head_waves_odd[c].d.next = self.fifo_waves[5].q.val().get_bit(0);
            }
            self.head_waves_hi[c].d.next = self.load_waves_hi[c].val();
            self.head_waves_lo[c].d.next = self.load_waves_lo[c].val();
            self.head_need_vgpr_hi[c].d.next = self.load_need_vgpr_hi[c].val();
            self.head_need_vgpr_lo[c].d.next = self.load_need_vgpr_lo[c].val();
            self.head_need_sgpr_hi[c].d.next = self.load_need_sgpr_hi[c].val();
            self.head_need_sgpr_lo[c].d.next = self.load_need_sgpr_lo[c].val();
        }

        // ---- flush (`cu_reset`; its FIFO entries, count and head load are written above, in
        // the branches without a pop): a replaced head leaves split mode ----
        if self.cu_reset.val() {
            if !self.flush_keep.val().get_bit(0) {
                self.split_left[1].d.next = 0.into();
                self.head_split[1].d.next = false;
                self.head_split_more[1].d.next = false;
            }
            // the head counts as replaced in the next cycle even when it stayed: `entry1_*`
            // (loaded from decoder 1 now) is refreshed by then, before any pop of channel 1
            self.head_changed.d.next = self.head_changed_next.val() | 2;
        }

        // ================= FREE-RUNNING: windows, LFSR, module policy scores ==================
        // ---- free-running: windows (emb. 2), LFSR, power history (emb. 10) ----
        self.window_len_now.next = self.win_len[0].val();
        for y in 0..4 {
            if self.window.q.val().index() == y {
                self.window_len_now.next = self.win_len[y].val();
            }
        }
        self.window_count_inc.next = self.window_count.q.val() + 1;
        self.window_wraps.next = self.window_count_inc.val() >= self.window_len_now.val();
        if self.window_wraps.val() {
            self.window.d.next = self.window.q.val() + 1;
            self.window_count.d.next = 0.into();
        } else {
            self.window_count.d.next = self.window_count_inc.val();
        }
        // ---- `prefer_ch1` of the next cycle, registered ahead: the heads' priorities of now
        // (a head whose priority changes at this edge is no candidate in the next cycle, so
        // the value is only read when both stayed), the next window (this one, or the next
        // when it wraps: both computed, the wrap compare selects last) and LFSR bit 0 (= bit
        // 1 now), and the tie marks at `head_prio[0]` after this edge — unchanged, or the
        // tie's winner marked and the other's mark cleared if both were marked: three
        // variants, selected by the decision ----
        self.nx_window.next = self.window.q.val() + 1;
        for c in 0..2 {
            self.nx_rank[c].next = self.head_prio_now[c].val();
            if self.head_prio_now[c].val() < self.nx_window.val() {
                self.nx_rank[c].next = self.head_prio_now[c].val() + 1;
            }
            if self.head_prio_now[c].val() == self.nx_window.val() {
                self.nx_rank[c].next = 0.into();
            }
        }
        self.nx_lfsr0.next = self.lfsr.val().get_bit(1);
        // index 0: the window stays; 1: it wraps
        self.nx_rank_less.next = 0.into();
        self.nx_ranks_equal.next = 0.into();
        if self.head_rank[1].val() < self.head_rank[0].val() {
            self.nx_rank_less.next = self.nx_rank_less.val() | 1;
        }
        if self.ranks_equal.val() {
            self.nx_ranks_equal.next = self.nx_ranks_equal.val() | 1;
        }
        if self.nx_rank[1].val() < self.nx_rank[0].val() {
            self.nx_rank_less.next = self.nx_rank_less.val() | 2;
        }
        if self.nx_rank[1].val() == self.nx_rank[0].val() {
            self.nx_ranks_equal.next = self.nx_ranks_equal.val() | 2;
        }
        self.nx_prefer_hold.next = 0.into();
        self.nx_prefer_pick0.next = 0.into();
        self.nx_prefer_pick1.next = 0.into();
        for w in 0..2 {
            // tie_to_ch1 = mark0 when the marks differ, else the LFSR bit
            self.nx_prefer_hold.next = self.nx_prefer_hold.val().replace_bit(
                w,
                self.nx_rank_less.val().get_bit(w)
                    | (self.nx_ranks_equal.val().get_bit(w)
                        & ((self.tie_mark[0].val()
                            & (self.tie_mark[0].val() != self.tie_mark[1].val()))
                            | ((self.tie_mark[0].val() == self.tie_mark[1].val())
                                & self.nx_lfsr0.val()))),
            );
            // channel 0 wins: marks (1, m1 & !m0); channel 1 wins: marks (m0 & !m1, 1)
            self.nx_prefer_pick0.next = self.nx_prefer_pick0.val().replace_bit(
                w,
                self.nx_rank_less.val().get_bit(w)
                    | (self.nx_ranks_equal.val().get_bit(w)
                        & (!(self.tie_mark[1].val() & !self.tie_mark[0].val())
                            | self.nx_lfsr0.val())),
            );
            self.nx_prefer_pick1.next = self.nx_prefer_pick1.val().replace_bit(
                w,
                self.nx_rank_less.val().get_bit(w)
                    | (self.nx_ranks_equal.val().get_bit(w)
                        & self.tie_mark[0].val()
                        & !self.tie_mark[1].val()
                        & self.nx_lfsr0.val()),
            );
        }
        self.nx_prefer.next = self.nx_prefer_hold.val();
        if self.decide.val() & self.tie_fit.val() {
            if self.pick_channel.val().any() {
                self.nx_prefer.next = self.nx_prefer_pick1.val();
            } else {
                self.nx_prefer.next = self.nx_prefer_pick0.val();
            }
        }
        self.prefer_q.d.next = self.nx_prefer.val().get_bit(0);
        if self.window_wraps.val() {
            self.prefer_q.d.next = self.nx_prefer.val().get_bit(1);
        }
        if self.lfsr.val().get_bit(0) {
            self.lfsr_x.d.next = ((self.lfsr.val() >> 1) ^ 0xB400) ^ 0xACE1;
        } else {
            self.lfsr_x.d.next = (self.lfsr.val() >> 1) ^ 0xACE1;
        }
        self.power_count_inc.next = self.power_count.q.val() + 1;
        for m in 0..2 {
            // Σ_c b_c over the retiring classes (6 bits), then one saturating 16-bit add
            for c in 0..4 {
                self.class_weight[c].next = 0.into();
                if self.retire_class.val().get_bit(m * 4 + c) {
                    self.class_weight4.next = self.power_weights.val().get_bits::<4>(c * 4);
                    self.class_weight[c].next = bit_cast::<6, 4>(self.class_weight4.val());
                }
            }
            self.retire_weight.next = (self.class_weight[0].val() + self.class_weight[1].val())
                + (self.class_weight[2].val() + self.class_weight[3].val());
            self.power_cur_now.next = self.power_cur[m].q.val();
            self.power_add.next = bit_cast::<17, 16>(self.power_cur_now.val())
                + bit_cast::<17, 6>(self.retire_weight.val());
            self.power_cur_next[m].next = self.power_add.val().get_bits::<16>(0);
            if self.power_add.val().get_bit(16) {
                self.power_cur_next[m].next = 0xFFFF.into();
            }
            if self.power_wrap.q.val() {
                self.power_prev[m].d.next = self.power_cur_next[m].val();
                self.power_cur[m].d.next = 0.into();
            } else {
                self.power_cur[m].d.next = self.power_cur_next[m].val();
            }
        }
        if self.power_wrap.q.val() {
            self.power_count.d.next = 0.into();
        } else {
            self.power_count.d.next = self.power_count_inc.val();
        }
        // the next cycle's wrap, registered ahead (its window: a config write of this cycle
        // counts, see HOST PORTS; reset: count 0, window 1024, no wrap)
        self.power_count_inc2.next = self.power_count.q.val() + 2;
        self.power_count_nx1.next = self.power_count_inc2.val();
        if self.power_wrap.q.val() {
            self.power_count_nx1.next = 1.into();
        }
        self.power_window_nx.next = self.power_window.val();

        // ---- policy scores ----
        // emb. 10: power history sums, compared in the next cycle, delayed to 4 cycles in all
        for m in 0..2 {
            self.power_prev_now.next = self.power_prev[m].q.val();
            self.power_cur_now.next = self.power_cur[m].q.val();
            self.power_hist_sum[m].d.next = bit_cast::<17, 16>(self.power_prev_now.val())
                + bit_cast::<17, 16>(self.power_cur_now.val());
        }
        self.power_1_lower.next = self.power_hist_sum[1].q.val() < self.power_hist_sum[0].q.val();
        self.power_pref_shift.next = self.power_prefers_1.q.val() << 1;
        if self.power_1_lower.val() {
            self.power_pref_shift.next = self.power_pref_shift.val() | 1;
        }
        self.power_prefers_1.d.next = self.power_pref_shift.val();
        // emb. 9: serial scorer, item `score_item` = (module bit 2, resource bits 1..0) per cycle:
        // free count and weight (stage 1), product (stage 2), accumulate / publish (stage 3)
        // the maps of the next item, from the state after this edge (= the state of its cycle)
        self.score_item_next.next = self.score_item.q.val() + 1;
        self.score_used_bits.d.next = 0xFFFF_FFFF_u64.into();
        for m in 0..2 {
            if self.score_item_next.val().get_bit(2) == (m == 1) {
                if self.score_item_next.val().get_bits::<2>(0) == 0 {
                    self.score_map16_a.next = self.vgpr_used_next[m * 2].val();
                    self.score_map16_b.next = self.vgpr_used_next[m * 2 + 1].val();
                    self.score_used_bits.d.next = bit_cast::<32, 16>(self.score_map16_a.val())
                        | (bit_cast::<32, 16>(self.score_map16_b.val()) << 16);
                }
                if self.score_item_next.val().get_bits::<2>(0) == 1 {
                    self.score_map8_a.next = self.sgpr_used_next[m * 2].val();
                    self.score_map8_b.next = self.sgpr_used_next[m * 2 + 1].val();
                    self.score_used_bits.d.next = bit_cast::<32, 8>(self.score_map8_a.val())
                        | (bit_cast::<32, 8>(self.score_map8_b.val()) << 8)
                        | 0xFFFF_0000_u64;
                }
                if self.score_item_next.val().get_bits::<2>(0) == 3 {
                    self.score_map16_a.next = self.lds_used_next[m].val();
                    self.score_used_bits.d.next =
                        bit_cast::<32, 16>(self.score_map16_a.val()) | 0xFFFF_0000_u64;
                }
            }
        }
        self.score_free_bits.next = !self.score_used_bits.q.val();
        for n in 0..8 {
            self.score_nibble.next = self.score_free_bits.val().get_bits::<4>(n * 4);
            self.nibble_count.next = 0.into();
            if self.score_nibble.val().get_bit(0)
                ^ self.score_nibble.val().get_bit(1)
                ^ self.score_nibble.val().get_bit(2)
                ^ self.score_nibble.val().get_bit(3)
            {
                self.nibble_count.next = 1.into();
            }
            if self.score_nibble.val().all() {
                self.nibble_count.next = 4.into();
            } else {
                if (self.score_nibble.val() & (self.score_nibble.val() - 1)).any() {
                    self.nibble_count.next = self.nibble_count.val() | 2;
                }
            }
            self.nibble_free[n].next = bit_cast::<6, 3>(self.nibble_count.val());
        }
        self.score_free.d.next = ((self.nibble_free[0].val() + self.nibble_free[1].val())
            + (self.nibble_free[2].val() + self.nibble_free[3].val()))
            + ((self.nibble_free[4].val() + self.nibble_free[5].val())
                + (self.nibble_free[6].val() + self.nibble_free[7].val()));
        if self.score_item.q.val().get_bits::<2>(0) == 2 {
            self.score_slots_u0.next = self.slots_used[0].q.val();
            self.score_slots_u1.next = self.slots_used[1].q.val();
            if self.score_item.q.val().get_bit(2) {
                self.score_slots_u0.next = self.slots_used[2].q.val();
                self.score_slots_u1.next = self.slots_used[3].q.val();
            }
            self.score_free.d.next = bits::<6>(8)
                - bit_cast::<6, 3>(self.score_slots_u0.val())
                - bit_cast::<6, 3>(self.score_slots_u1.val());
        }
        self.score_weight.d.next = 0.into();
        for h in 0..4 {
            if self.score_item.q.val().get_bits::<2>(0).index() == h {
                self.score_weight.d.next = self.free_weights.val().get_bits::<4>(h * 4);
            }
        }
        self.score_free_item.d.next = self.score_item.q.val();
        self.score_item.d.next = self.score_item.q.val() + 1;
        for b in 0..4 {
            self.product_term[b].next = 0.into();
            self.shift_start.next = b.to_bits();
            if self.score_weight.q.val().get_bit(b) {
                self.score_free_now.next = self.score_free.q.val();
                self.product_term[b].next =
                    bit_cast::<10, 6>(self.score_free_now.val()) << self.shift_start.val();
            }
        }
        self.score_product.d.next = (self.product_term[0].val() + self.product_term[1].val())
            + (self.product_term[2].val() + self.product_term[3].val());
        self.score_product_item.d.next = self.score_free_item.q.val();
        self.score_product_now.next = self.score_product.q.val();
        self.score_product12.next = bit_cast::<12, 10>(self.score_product_now.val());
        for m in 0..2 {
            if self.score_product_item.q.val().get_bit(2) == (m == 1) {
                if self.score_product_item.q.val().get_bits::<2>(0).any() {
                    self.score_sum_next.next =
                        self.score_sum[m].q.val() + self.score_product12.val();
                } else {
                    self.score_sum_next.next = self.score_product12.val();
                }
                self.score_sum[m].d.next = self.score_sum_next.val();
            }
        }
        if self.score_product_item.q.val() == 7 {
            self.weighted_prefers_1.d.next = self.score_sum_next.val() > self.score_sum[0].q.val();
        }

        // ================= HOST PORTS: errors, config write, the registered record ============
        // ---- completion and config errors; config write ----
        self.done_err.next = 0.into();
        if self.done_valid.val() & !self.done_accept.val() {
            self.done_err.next = 4.into();
        }
        self.cfg_err.next = 0.into();
        if self.cfg_we.val() {
            if (self.cfg_addr.val() > 8) | ((self.cfg_addr.val() == 0) & (self.cfg_data.val() > 2))
            {
                self.cfg_err.next = 5.into();
            } else {
                if self.cfg_addr.val() == 0 {
                    self.policy.d.next = self.cfg_data.val().get_bits::<2>(0);
                }
                if self.cfg_addr.val() == 1 {
                    self.split_threshold_x.d.next = self.cfg_data.val() ^ 256;
                    self.split_threshold_m1_x.d.next = self.written_threshold_m1.val() ^ 255;
                }
                if self.cfg_addr.val() == 2 {
                    self.win_len_x[0].d.next = self.cfg_data.val() ^ 512;
                }
                if self.cfg_addr.val() == 3 {
                    self.win_len_x[1].d.next = self.cfg_data.val() ^ 256;
                }
                if self.cfg_addr.val() == 4 {
                    self.win_len_x[2].d.next = self.cfg_data.val() ^ 128;
                }
                if self.cfg_addr.val() == 5 {
                    self.win_len_x[3].d.next = self.cfg_data.val() ^ 128;
                }
                if self.cfg_addr.val() == 6 {
                    self.free_weights_x.d.next = self.cfg_data.val() ^ 0x1111;
                }
                if self.cfg_addr.val() == 7 {
                    self.power_weights_x.d.next = self.cfg_data.val() ^ 0x1111;
                }
                if self.cfg_addr.val() == 8 {
                    self.power_window_x.d.next = self.cfg_data.val() ^ 1024;
                    self.power_window_nx.next = self.cfg_data.val();
                }
            }
        }

        // ---- the registered record (of the decision committed now) and error of this cycle ----
        self.out_valid.d.next = self.pend_valid.q.val();
        self.out_id.d.next = 0.into();
        self.out_module.d.next = false;
        self.out_slot.d.next = 0.into();
        self.out_sub.d.next = false;
        self.out_waves.d.next = 0.into();
        self.out_vgpr_base.d.next = 0.into();
        self.out_sgpr_base.d.next = 0.into();
        self.out_lds_base.d.next = 0.into();
        if self.pend_valid.q.val() {
            self.out_id.d.next = self.pend_id.q.val();
            self.out_sub.d.next = self.pend_sub.q.val();
            self.out_module.d.next = self.pend_module.q.val();
            self.out_slot.d.next = self.pend_slot.q.val();
            self.rec_waves_u0.next = self.pend_waves[0].q.val();
            self.rec_waves_u1.next = self.pend_waves[1].q.val();
            self.out_waves.d.next = bit_cast::<6, 3>(self.rec_waves_u0.val())
                | (bit_cast::<6, 3>(self.rec_waves_u1.val()) << 3);
            self.rec_vgpr_base_u0.next = self.commit_vgpr_base[0].val();
            self.rec_vgpr_base_u1.next = self.commit_vgpr_base[1].val();
            self.out_vgpr_base.d.next = bit_cast::<8, 4>(self.rec_vgpr_base_u0.val())
                | (bit_cast::<8, 4>(self.rec_vgpr_base_u1.val()) << 4);
            self.rec_sgpr_base_u0.next = self.commit_sgpr_base[0].val();
            self.rec_sgpr_base_u1.next = self.commit_sgpr_base[1].val();
            self.out_sgpr_base.d.next = bit_cast::<6, 3>(self.rec_sgpr_base_u0.val())
                | (bit_cast::<6, 3>(self.rec_sgpr_base_u1.val()) << 3);
            self.out_lds_base.d.next = self.commit_lds_base.val();
        }
        self.out_error.d.next =
            self.push_err.val().any() | self.done_err.val().any() | self.cfg_err.val().any();
        self.out_error_code.d.next = self.cfg_err.val();
        if self.done_err.val().any() {
            self.out_error_code.d.next = self.done_err.val();
        }
        if self.push_err.val().any() {
            self.out_error_code.d.next = self.push_err.val();
        }

        // ---- tags: the record's tag, the completion echo, the withdraw, the walk ----
        self.out_class.d.next = false;
        self.out_kslot.d.next = 0.into();
        self.out_last.d.next = false;
        if self.pend_valid.q.val() {
            self.out_class.d.next = self.pend_class.q.val();
            self.out_kslot.d.next = self.pend_kslot.q.val();
            self.out_last.d.next = self.pend_last.q.val();
        }
        self.out_cpl_valid.d.next = self.done_accept.val();
        self.out_cpl_class.d.next = false;
        self.out_cpl_kslot.d.next = 0.into();
        if self.done_accept.val() {
            self.out_cpl_class.d.next = self
                .slot_class
                .q
                .val()
                .get_bit(self.done_slot.val().index());
            for s in 0..8 {
                if self.done_slot.val().index() == s {
                    self.out_cpl_kslot.d.next = self.slot_kslot[s].q.val();
                }
            }
        }
        self.wd_active.d.next = self.wd_pop.val();
        self.out_wdr_valid.d.next = self.wd_pop.val();
        self.out_wdr_kslot.d.next = 0.into();
        if self.wd_pop.val() {
            self.wd_kslot.d.next = self.fifo_kslot[4].q.val();
            self.out_wdr_kslot.d.next = self.fifo_kslot[4].q.val();
        }
        // the head after a withdraw pop: entry 1 (two or more entries), else the push landing
        // in entry 0 (an empty FIFO after the edge is no head: `wd_pop` reads the head-valid)
        self.wd_match_cont.d.next = self.push_kslot.val() == self.fifo_kslot[4].q.val();
        if self.fifo_count[1].q.val().get_bits::<2>(1).any() {
            self.wd_match_cont.d.next = self.fifo_kslot[5].q.val() == self.fifo_kslot[4].q.val();
        }
        self.out_reclaim_done.d.next = false;
        if self.walk_on.q.val() {
            self.walk_slot.d.next = self.walk_slot.q.val() + 1;
            if self.walk_slot.q.val() == 7 {
                self.walk_on.d.next = false;
                self.out_reclaim_done.d.next = true;
            }
        } else {
            if self.cu_reset_done.val() {
                self.walk_on.d.next = true;
                self.walk_slot.d.next = 0.into();
            }
        }
        if self.cu_reset_done.val() {
            self.armed.d.next = false;
        } else {
            if self.cu_reset.val() {
                self.armed.d.next = true;
            }
        }

        self.power_wrap.d.next = self.power_count_nx1.val() >= self.power_window_nx.val();

        // ---- synchronous reset: the idle state (all-zero storage, see the module doc) ----
        if self.reset.val() {
            self.walk_free.d.next = false;
            self.walk_on.d.next = false;
            self.walk_slot.d.next = 0.into();
            self.armed.d.next = false;
            self.wd_active.d.next = false;
            self.wd_kslot.d.next = 0.into();
            self.out_class.d.next = false;
            self.out_kslot.d.next = 0.into();
            self.out_last.d.next = false;
            self.out_wdr_valid.d.next = false;
            self.out_wdr_kslot.d.next = 0.into();
            self.out_cpl_valid.d.next = false;
            self.out_cpl_class.d.next = false;
            self.out_cpl_kslot.d.next = 0.into();
            self.out_reclaim_done.d.next = false;
            self.slot_busy.d.next = 0.into();
            self.free_from_table.d.next = false;
            self.policy.d.next = 0.into();
            self.split_threshold_x.d.next = 0.into();
            self.split_threshold_m1_x.d.next = 0.into();
            self.free_weights_x.d.next = 0.into();
            self.power_weights_x.d.next = 0.into();
            self.power_window_x.d.next = 0.into();
            self.window.d.next = 0.into();
            self.window_count.d.next = 0.into();
            self.lfsr_x.d.next = 0.into();
            self.fail_count.d.next = 0.into();
            self.split_due.d.next = false;
            self.power_count.d.next = 0.into();
            self.power_wrap.d.next = false;
            self.match_fits.d.next = 0.into();
            self.match_head_valid.d.next = 0.into();
            self.head_changed.d.next = 0.into();
            self.module_busy.d.next = 0.into();
            self.slots_full.d.next = false;
            self.pend_valid.d.next = false;
            self.score_item.d.next = 0.into();
            self.score_used_bits.d.next = 0.into();
            self.score_free.d.next = 0.into();
            self.score_weight.d.next = 0.into();
            self.score_free_item.d.next = 0.into();
            self.score_product.d.next = 0.into();
            self.score_product_item.d.next = 0.into();
            self.weighted_prefers_1.d.next = false;
            self.power_prefers_1.d.next = 0.into();
            self.out_valid.d.next = false;
            self.out_id.d.next = 0.into();
            self.out_module.d.next = false;
            self.out_slot.d.next = 0.into();
            self.out_sub.d.next = false;
            self.out_waves.d.next = 0.into();
            self.out_vgpr_base.d.next = 0.into();
            self.out_sgpr_base.d.next = 0.into();
            self.out_lds_base.d.next = 0.into();
            self.out_error.d.next = false;
            self.out_error_code.d.next = 0.into();
            for i in 0..4 {
                self.vgpr_used[i].d.next = 0.into();
                self.sgpr_used[i].d.next = 0.into();
                self.slots_used[i].d.next = 0.into();
                self.win_len_x[i].d.next = 0.into();
            }
            for i in 0..2 {
                self.tie_marks[i].d.next = 0.into();
                self.fifo_count[i].d.next = 0.into();
                self.split_left[i].d.next = 0.into();
                self.head_split[i].d.next = false;
                self.head_split_more[i].d.next = false;
                self.head_prio[i].d.next = 0.into();
                self.head_waves_odd[i].d.next = false;
                self.lds_used[i].d.next = 0.into();
                self.split_ptr[i].d.next = false;
                self.power_cur[i].d.next = 0.into();
                self.power_prev[i].d.next = 0.into();
                self.score_sum[i].d.next = 0.into();
                self.power_hist_sum[i].d.next = 0.into();
            }
        }
    }
}

/// The board tagged dispatcher as Verilog (module `top`, the exported `dispatcher_tagged.v`).
pub fn verilog() -> String {
    crate::top_verilog(DispatcherTagged::new())
}
