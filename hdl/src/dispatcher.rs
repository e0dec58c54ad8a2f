//! Workgroup dispatcher (SPEC Unit 3, seed 003 embodiments 1–3 and 8–10), board configuration.
//!
//! The behaviour, cycle by cycle, is specified by `golden_model::dispatcher` (its module doc is
//! normative: the nine steps, the register map, the error codes, every decision SPEC left open);
//! this block implements it for `DispatcherConfig::board()` and is checked against it every cycle.
//!
//! ## Ports (the exported module `top` has exactly these)
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `clock`, `reset` | in | 1 | one clock; synchronous active-high reset |
//! | `push_valid`, `push_ready` | in / out | 1 | WG stream into the FIFO of `push_channel`; `push_ready` = that FIFO is not full (combinational in `push_channel` and state) |
//! | `push_channel` | in | 1 | task channel 0..2 |
//! | `push_id` | in | 8 | WG id (payload, echoed in the dispatch record) |
//! | `push_prio` | in | 2 | priority, 0 highest |
//! | `push_waves` | in | 4 | waves 1..=8 |
//! | `push_vgpr`, `push_sgpr` | in | 5, 4 | VGPR (0..=16) / SGPR (0..=8) blocks per wave |
//! | `push_lds` | in | 5 | LDS blocks of the WG (0..=16) |
//! | `push_indep` | in | 1 | waves are independent (may be split, emb. 3) |
//! | `disp_valid` | out | 1 | strobe: one dispatch record |
//! | `disp_id`, `disp_module`, `disp_slot`, `disp_sub` | out | 8, 1, 3, 1 | WG id, module, in-flight slot, 1 = one-wave sub-WG of a split WG |
//! | `disp_waves` | out | 6 | waves on unit t at bits 3t+2..3t |
//! | `disp_vgpr_base` | out | 8 | VGPR base of unit t at bits 4t+3..4t (0 when the unit's need is 0) |
//! | `disp_sgpr_base` | out | 6 | SGPR base of unit t at bits 3t+2..3t (0 when the need is 0) |
//! | `disp_lds_base` | out | 4 | LDS base (0 when the WG needs no LDS) |
//! | `done_valid`, `done_slot` | in | 1, 3 | completion: free what slot `done_slot` took |
//! | `cfg_we`, `cfg_addr`, `cfg_data` | in | 1, 4, 16 | register write (map below) |
//! | `retire_class` | in | 8 | module m retired an instruction of class c at bit 4m+c (emb. 10) |
//! | `error`, `error_code` | out | 1, 3 | strobe + code of a refused request (codes below) |
//!
//! A unit's VGPR region is `waves × push_vgpr` blocks from its base (SGPR likewise); the LDS region
//! is `push_lds` blocks from `disp_lds_base`. Every output except `push_ready` is a register
//! written by the same clock edge.
//!
//! ## Register map (`cfg_addr`; a write takes effect at the edge)
//! | addr | name | reset | meaning |
//! |---|---|---|---|
//! | 0 | `POLICY` | 0 | module choice: 0 first, 1 max_weighted_free (emb. 9), 2 min_power_history (emb. 10); other values → `BAD_CFG` |
//! | 1 | `SPLIT_THRESHOLD` | 256 | failed cycles before independent heads are split (emb. 3); 0 = never |
//! | 2..=5 | `WIN_LEN[0..4]` | 512, 256, 128, 128 | time-window lengths in cycles (emb. 2; 0 acts as 1) |
//! | 6 | `FREE_WEIGHTS` | 0x1111 | 4-bit a_h: \[3:0\] VGPR, \[7:4\] SGPR, \[11:8\] wave slots, \[15:12\] LDS |
//! | 7 | `POWER_WEIGHTS` | 0x1111 | 4-bit b_c of instruction class c at [4c+3:4c] |
//! | 8 | `POWER_WINDOW` | 1024 | nx: cycles per power-history window (tumbling; 0 acts as 1) |
//! | 9..=15 | — | — | `BAD_CFG`, nothing written |
//!
//! ## Error codes (`error_code`, with the `error` strobe, the cycle after the request)
//! 1 `NEVER_FITS` (the pushed WG cannot fit an empty module; it is consumed and dropped),
//! 2 `ZERO_WAVES`, 3 `BAD_ID` (cannot occur on the board: every channel, priority and slot code is
//! valid), 4 `IDLE_SLOT` (completion of a slot that is not in flight, e.g. a double completion),
//! 5 `BAD_CFG`. The refused request changes nothing. Push beats completion beats config.
//!
//! ## Latency and throughput (a three-stage pipeline; the golden model's module doc is normative)
//! - **Match** (cycle t, into `p_*`): every channel head × module × unit from registered state
//!   only: the decoded head (`h_*`: need thermometers of the units that get ceil / floor of the
//!   waves, selected per unit by the module's split pointer `ptr`) against the used maps → ok
//!   vectors (bit i = the need fits at start block i), and the fit bit `p_fit` (head present ∧
//!   wave slots ∧ a start in every ok vector).
//! - **Decide** (cycle t+1, into `pv`/`pm`/`pslot`/…): valid = fit ∧ the channel's head was not
//!   replaced at the last edge (`hchg`) ∧ the module was not decided in the last two cycles
//!   (`mx`: those allocations are not in the maps the match read). The channel pick reads only
//!   flip-flops apart from the valid bits (registered head presentation `hp`/`hsub`/`hmore`/
//!   `hodd`, window, marks, LFSR), the policy picks the module, a registered flag (`sfull`) says
//!   whether a slot is free, the lowest slot neither busy nor pending is taken; the head is
//!   popped, the pointer moved, the chosen ok vectors and thermometers registered.
//! - **Commit** (cycle t+2): first fit of the pending decision (lowest ok start; region = the
//!   thermometer shifted there), maps / wave slots / busy bit / table RAM written at the edge,
//!   record registered.
//!
//! So a WG pushed in cycle t into an empty FIFO is a head in cycle t+1 and its record strobes in
//! cycle t+4: **head → record 3 cycles** (SPEC goal ≤ 3; the single-cycle design had 1: the
//! pipeline costs 2 cycles). A module takes one decision per 3 cycles and a channel one per 2:
//! the board sustains **2 dispatches per 3 cycles** from two channels (1 per 2 from one); with
//! P ≥ 3 modules the same pipeline sustains one per cycle. Measured (`synth bench --model-cycles
//! 200000 --rtl-cycles 10000`, saturating two-channel stream): 66664 records in 100000 model
//! cycles, 1331 in 2000 RustHDL cycles; push → record min 4 cycles. A completion in cycle t
//! frees its slot at the edge, its blocks one edge later (the table is a block RAM read with
//! `done_slot`).
//!
//! ## Cost on the iCE40 HX8K (measured 2026-11-22, `synth report --only dispatcher`: yosys
//! `synth_ice40` + nextpnr-ice40 `--hx8k --package cb132 --freq 100 --seed 1`, with the harness)
//! - **6232 / 7680 logic cells (81 %)**, 5 `SB_RAM40_4K`; routes; **62.3 MHz** (misses
//!   100 MHz). Placement spread: the same netlist with nextpnr `--seed 2` / `--seed 3`: 66.2 /
//!   66.3 MHz. The single-cycle design before the pipeline: 7251 LCs (94 %), did not route,
//!   ~17 MHz placement estimate.
//! - Critical path (15.7 ns): window register → effective rank → tie-break / channel preference →
//!   channel pick (with the registered fit bits) → pop → head-decode loads (`h_tshi`, `h_tvhi`): 9
//!   LUT levels, more than half of it routing. Within placement noise behind it (critical in other
//!   placements of the last steps, 15.3–16.1 ns): the match stage's wave-slot test (pointer → share
//!   → 3-bit add and compare → AND over the maps → `p_fit`) and its LDS ok vector → any → AND.
//! - Timing work of 2026-11-22 (same cycle behaviour; LCs / MHz at seed 1, each step measured;
//!   the spread between seeds is ±2–3 MHz, so single steps are within noise, the sum is not):
//!   start 6412 / 57.5 (seeds 2/3: 57.6 / 58.4; critical path failure counter → threshold
//!   carry chain → go → per-module head decode) → split-threshold hit registered ahead for every
//!   possible next g, split pointer resolved in the match stage (no per-module head decode
//!   registers loaded after the decision), head presentation registered 6288 / 60.0 → weighted-
//!   free scorer reads a register captured from the next-state maps (the popcount had become
//!   critical) 6497 / 61.1 → slot-free flag and module-exclusion mask registered (the slot search
//!   had become critical), fit bits per map registered 6430 / 58.4 → thermometer overflow test as
//!   one bit per start (it was an OR over the shifted-out bits), explicit channel / module pick
//!   6235 / 59.1 → threshold compares as one carry chain each (threshold − 1 kept in
//!   a register, the written value compared in parallel) 6249 / 61.0 (seeds 2/3: 64.5 / 61.9) →
//!   whole fit test back in the match stage 6254 / 65.1 (seeds 2/3: 62.5 / 62.2) → never-fits
//!   push checks as bit logic (their constant compares were carry chains on the push →
//!   FIFO-enable path) 6232 / 62.3 (seeds 2/3: 66.2 / 66.3). Tried and dropped (lower
//!   on the mean of seeds 1–3): the wave-slot test as logic of the busy count without an adder
//!   (6268 LCs, 58.9 / 60.2 / 57.8 MHz on the step before; 6263 LCs, 62.0 / 56.7 / 60.1 on the last
//!   one), the effective rank registered from the next priority and window (6254 LCs, 61.7 / 63.7 /
//!   64.0). Flow options on the final netlist (seeds 1 / 2 / 3; default 62.3 / 66.2 / 66.3): yosys
//!   `synth_ice40 -abc9` 62.9 / 60.9 / 66.6, nextpnr `--opt-timing` 66.3 / 62.9 / 60.8.
//! - Design alone (yosys `synth_ice40 -top top`): 5131 `SB_LUT4`, 1787 flip-flops, 385
//!   `SB_CARRY`, 5 `SB_RAM40_4K`.
//!   The match stage's 20 ok vectors are the largest block (~120 LUTs per 16-block map, ~35 per
//!   8-block map, measured on cut-out Verilog before the one-bit overflow test); the first-fit
//!   region costs ~110 LUTs per map, hence once (commit stage) instead of per head × module.
//! - Before (harness LCs / Fmax, each step measured): three stages with a flip-flop
//!   table 7795 (101 %, did not place) → table in block RAM 7041 (91 %, did not route in 600 s)
//!   → serial weighted-free scorer, narrower power adder 6470, 48.8 MHz → multiplier-free
//!   never-fits check 6346, 53.2 MHz → 4-bit wave-slot check (a literal had widened it to a
//!   32-bit carry chain) 6084, 57.3 MHz → fit bits in the decision stage 5822, 55.0 MHz → pop as
//!   the last select 5983, 53.5 MHz → entry 1 decoded into registers ahead of the pop 6163, 55.7
//!   MHz → fit test from registered 4-start group ORs 6427, 60.9 MHz → per-module head decode
//!   resolved by the pointer after the edge (a lockstep fix) 6412, 57.5 MHz.
//! - What 100 MHz needs: every register-to-register path at ≤ 5 LUT levels with short routes
//!   (routing is half of each path at 81 % fill). What is left are loops, not pipelines: (1)
//!   decision → pop → next head decode → the next cycle's match; cutting it delays the new head's
//!   match by a cycle (a channel then decides once per 3 cycles) unless FIFO entry 1 is matched
//!   speculatively as well (a second match stage, roughly +1500 LUTs); (2) the match stage
//!   (thermometer → ok vector → any → AND over the maps, 6–7 levels): splitting it adds a cycle of
//!   module exclusion (2 modules → 1 dispatch per 2 cycles) unless the pending allocation is
//!   forwarded into the match, which needs the first-fit regions at decision time (the first fit of
//!   all four head × module pairs in the match stage, about +1300 LUTs). The HX8K has neither next
//!   to the rest.
//! - The floor, measured (`synth alloc-floor --seeds 1,2,3`, `docs/alloc_floor.md`, micro-designs
//!   of the allocation loop alone on the chip, median of three placements): one dispatch per cycle
//!   with two modules needs every module to take a decision every second cycle, so its loop
//!   (maps → fit → choice among the heads → first-fit region → maps) must close in ≤ 2 cycles
//!   (in 1 cycle for back-to-back dispatches to one module). One module alone: the 1-cycle loop
//!   reaches 77–80 MHz, 64–68 with a choice between two heads; the 2-cycle loop 103–113 MHz
//!   without a choice and at best 89–96 MHz with a fixed-priority choice between two heads (three
//!   register cuts tried, ~2100 LCs; the ranges are two RTL forms of the same logic, flat and
//!   from shared sub-blocks, which yosys maps differently). The dispatcher's choice also spans
//!   the second module, the time-window ranks, the tie marks, the LFSR and the module policy, and
//!   two such loop cores plus the rest of the dispatcher (FIFOs, head decoders, in-flight table,
//!   scorers, registers) would fill about 95 % of the HX8K. So the three goals together (one per cycle,
//!   head → record ≤ 3, ≥ 100 MHz) are out of reach on this device with an exact first fit.
//!
//! ## Worked example
//! Reset, then `push(ch 0, id 7, prio 0, waves 3, vgpr 2, sgpr 1, lds 3)` in cycle 0. Cycle 1: the
//! head registers hold its decode (unit with ceil: 2 waves, VGPR need 4, SGPR 2; the other: 1
//! wave, 2, 1; LDS 3); module 0's pointer is 0, so unit 0 takes the 2 waves; the match finds
//! every need fitting at block 0 of both modules. Cycle 2: module 0 (first), slot 0; the pointer
//! of module 0 moves to 1. Cycle 3: the first fit gives VGPR 4 blocks at 0 (unit 0), 2 at 0 (unit
//! 1), SGPR 2 at 0 / 1 at 0, LDS 3 at 0, taken at the edge. Cycle 4: `disp_valid = 1, disp_id = 7,
//! disp_module = 0, disp_slot = 0, disp_waves = 6'b001_010`, all bases 0; a second 3-wave WG on
//! module 0 would get 1 + 2.
//!
//! ## Configurations
//! This RTL is the board configuration (`DispatcherConfig::board()`, exported as `dispatcher.v`);
//! the golden model runs every configuration and is swept over degenerate, odd (nothing a power
//! of two), board and full shapes by `tests/dispatcher.rs`. There is no full-config RTL, not even
//! for area: its structure, one ok vector per head × module × unit map, scales with
//! R·P·Q·blocks². At ~0.9 LUT per (start, need block) pair (the measured ~120 LUTs of a
//! 16-block vector), a 128-block vector is ~7300 LUTs, and the full config (4 heads × 16 modules
//! × 4 units of 128 VGPR / 64 SGPR blocks, 48 LDS blocks per module) would need ~2.4 M LUT4s,
//! some 300 HX8Ks. At that scale the structure SPEC step 3 names is the right one: one Unit 2
//! run finder per map, shared by every head (the fit test becomes a compare of the max run with
//! the need), and one first fit per decision; it is not built.
//!
//! ## Structure
//! - Channel FIFOs are shift queues (head always in entry 0, no read mux); a head in split mode
//!   (`split_left` ≠ 0) presents one wave at priority 3. The decoded head (`h_*`) is loaded at the
//!   edge from one of three decoders (entry 1 of each channel, registered ahead in `x_*`; the
//!   push port) or switched to its one-wave form, so it always equals the decode of entry 0: q ×
//!   per-wave need via shifts and one add, thermometer = !(ones << n) — no comparators. Its
//!   presentation (split mode, more than one sub-WG left, priority, odd wave count) is kept in
//!   registers next to it (`hsub`, `hmore`, `hp`, `hodd`), so the pick reads flip-flops.
//! - Resource maps are stored as *used* bitmaps (1 = used, so the all-zero power-up state is the
//!   idle state of SPEC §0), and registers whose reset value is not 0 are stored XOR their reset
//!   value, for the same reason. Ports and the golden model see free maps and true values.
//! - Match: ok\[i\] = no block of (thermometer << i) is used and the need does not run past the
//!   map (thermometer bit width − i: every need is a thermometer) — a flat AND per start block,
//!   one per head × module × unit (the dominant area: 8 VGPR + 8 SGPR + 4 LDS instances). The first fit (lowest ok start, region = thermometer shifted
//!   there) is computed once, for the chosen placement, in the commit stage. (This is Unit 2's
//!   exact question for maps of 16/8 blocks; its general finders are not needed here.)
//! - The in-flight table (masks, waves, module per slot) is one block RAM (5 `SB_RAM40_4K`), so a
//!   completion costs no 8:1 read mux of 71 flip-flop bits.
//! - `max_weighted_free` is scored serially: one free count (a popcount of the selected maps)
//!   times one 4-bit weight per cycle, accumulated per module, compared every 8 cycles.
//!   `min_power_history` compares prev + cur sums through a 4-cycle delay line.

use rust_hdl::prelude::*;

/// Board-config dispatcher (2 channels × FIFO 4, 2 modules × 2 units, 16 VGPR / 8 SGPR blocks and
/// 4 wave slots per unit, 16 LDS blocks per module, 4 priorities, 8 in-flight slots).
#[derive(LogicBlock, Default)]
pub struct Dispatcher {
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

    // ---- state: channel FIFOs (entry c*4+e, head e = 0) ----
    f_id: [DFF<Bits<8>>; 8],
    f_prio: [DFF<Bits<2>>; 8],
    f_waves: [DFF<Bits<4>>; 8],
    f_vgpr: [DFF<Bits<5>>; 8],
    f_sgpr: [DFF<Bits<4>>; 8],
    f_lds: [DFF<Bits<5>>; 8],
    f_indep: [DFF<Bit>; 8],
    /// Occupancy per channel.
    f_cnt: [DFF<Bits<3>>; 2],
    /// Sub-WGs left of a head in split mode (0 = not split).
    split_left: [DFF<Bits<4>>; 2],
    /// The head's presentation, registered alongside `split_left` and FIFO entry 0 (so the
    /// pick reads flip-flops): split mode (`split_left` ≠ 0), more than one sub-WG left
    /// (`split_left` ≥ 2), priority as presented (3 in split mode), wave count as presented is
    /// odd (moves the pointer, emb. 8). Reset 0; don't-care while the FIFO is empty.
    hsub: [DFF<Bit>; 2],
    hmore: [DFF<Bit>; 2],
    hp: [DFF<Bits<2>>; 2],
    hodd: [DFF<Bit>; 2],
    // ---- state: resources (index m*2+u), stored as used maps ----
    v_used: [DFF<Bits<16>>; 4],
    s_used: [DFF<Bits<8>>; 4],
    l_used: [DFF<Bits<16>>; 2],
    /// Busy wave slots per unit.
    w_used: [DFF<Bits<3>>; 4],
    /// Split-table rotation pointer per module (emb. 8).
    ptr: [DFF<Bit>; 2],
    // ---- state: in-flight table ----
    t_busy: DFF<Bits<8>>,
    /// What each slot took, in a block RAM: \[15:0\] / \[31:16\] VGPR mask of unit 0 / 1, \[39:32\] /
    /// \[47:40\] SGPR masks, \[63:48\] LDS mask, \[66:64\] / \[69:67\] waves of unit 0 / 1, [70] module.
    /// Written by the commit stage, read (synchronously) with the completion's slot.
    tbl: RAM<Bits<71>, 3>,
    /// The previous cycle's completion was valid: free what `tbl` read out.
    dq_ok: DFF<Bit>,
    // ---- state: registers (non-zero resets stored XOR reset) ----
    policy: DFF<Bits<2>>,
    thresh_x: DFF<Bits<16>>,
    /// `SPLIT_THRESHOLD` − 1 (mod 2^16), stored XOR 255 (derived, kept with `thresh_x`).
    thr_m1x: DFF<Bits<16>>,
    win_len_x: [DFF<Bits<16>>; 4],
    fweights_x: DFF<Bits<16>>,
    pweights_x: DFF<Bits<16>>,
    nx_x: DFF<Bits<16>>,
    // ---- state: free-running ----
    win: DFF<Bits<2>>,
    win_cnt: DFF<Bits<16>>,
    lfsr_x: DFF<Bits<16>>,
    marks0: DFF<Bits<4>>,
    marks1: DFF<Bits<4>>,
    fail_cnt: DFF<Bits<16>>,
    /// Registered ahead: threshold ≠ 0 and g + 1 ≥ threshold (the split test of this cycle).
    thr_hit: DFF<Bit>,

    pw_cnt: DFF<Bits<16>>,
    pw_cur: [DFF<Bits<16>>; 2],
    pw_prev: [DFF<Bits<16>>; 2],
    // ---- pipeline: match stage results, per (channel, module) k = c*2+m, unit u: c*4+m*2+u ----
    /// The head of channel c fits module m (bit c*2+m): it exists, has the wave slots, and
    /// every ok vector has a start.
    p_fit: DFF<Bits<4>>,
    /// Channel c had a head when it was matched.
    p_hv: DFF<Bits<2>>,
    /// ok vectors: bit i = the need fits at start block i (VGPR, SGPR per unit; LDS).
    p_okv: [DFF<Bits<16>>; 8],
    p_oks: [DFF<Bits<8>>; 8],
    p_okl: [DFF<Bits<16>>; 4],
    p_q: [DFF<Bits<3>>; 8],
    /// Channel c's head was replaced at the last edge (its match results are stale).
    hchg: DFF<Bits<2>>,
    /// Module m was decided in one of the last two cycles (bit m): not a candidate.
    mx: DFF<Bits<2>>,
    /// Every in-flight slot is busy or reserved by the pending decision (registered ahead from
    /// the slot count, the decision and the completion).
    sfull: DFF<Bit>,
    // ---- pipeline: the decision being committed (decided in the previous cycle) ----
    pv: DFF<Bit>,
    pm: DFF<Bit>,
    pslot: DFF<Bits<3>>,
    pid: DFF<Bits<8>>,
    psub: DFF<Bit>,
    /// Per unit of the chosen module: waves, ok vectors and need thermometers.
    pq: [DFF<Bits<3>>; 2],
    pokv: [DFF<Bits<16>>; 2],
    pthv: [DFF<Bits<16>>; 2],
    poks: [DFF<Bits<8>>; 2],
    pths: [DFF<Bits<8>>; 2],
    pokl: DFF<Bits<16>>,
    pthl: DFF<Bits<16>>,
    // ---- pipeline: decoded head of each channel (always equal to the decode of FIFO entry 0
    // in its current presentation; loaded from decoders of the next head at the edge) ----
    /// Waves of the units that get ceil(n/2) / floor(n/2).
    hq_hi: [DFF<Bits<3>>; 2],
    hq_lo: [DFF<Bits<3>>; 2],
    /// Need thermometers (bit k = need > k): VGPR of the hi / lo unit and of one wave.
    h_tvhi: [DFF<Bits<16>>; 2],
    h_tvlo: [DFF<Bits<16>>; 2],
    h_tv1: [DFF<Bits<16>>; 2],
    h_tshi: [DFF<Bits<8>>; 2],
    h_tslo: [DFF<Bits<8>>; 2],
    h_ts1: [DFF<Bits<8>>; 2],
    h_tl: [DFF<Bits<16>>; 2],
    /// Decode of each channel's FIFO entry 1, registered (loaded into `h_*` by a pop, so the
    /// pop selects between registers). It follows entry 1 one edge late, which is enough: a
    /// channel never pops in two consecutive cycles, and a push landing in entry 1 is decoded
    /// directly.
    x_qhi: [DFF<Bits<3>>; 2],
    x_qlo: [DFF<Bits<3>>; 2],
    x_tvhi: [DFF<Bits<16>>; 2],
    x_tvlo: [DFF<Bits<16>>; 2],
    x_tv1: [DFF<Bits<16>>; 2],
    x_tshi: [DFF<Bits<8>>; 2],
    x_tslo: [DFF<Bits<8>>; 2],
    x_ts1: [DFF<Bits<8>>; 2],
    x_tl: [DFF<Bits<16>>; 2],
    // ---- pipeline: module policy scores (4 stages) ----
    /// Free counts per (module, resource) m*4+h: VGPR, SGPR, wave slots, LDS.
    /// Serial scorer: item counter, stage-1 free count / weight / item, stage-2 product / item,
    /// running sums per module.
    wk: DFF<Bits<3>>,
    /// The used bits of item `wk`'s maps, captured at the edge before its cycle from the next
    /// state (so the popcount starts at a flip-flop); positions beyond the maps read as used.
    wxr: DFF<Bits<32>>,
    sf: DFF<Bits<6>>,
    sa: DFF<Bits<4>>,
    sk: DFF<Bits<3>>,
    sp: DFF<Bits<10>>,
    spk: DFF<Bits<3>>,
    wacc: [DFF<Bits<12>>; 2],
    /// a_h × free_h per (module, resource).
    pwf: DFF<Bit>,
    hs: [DFF<Bits<17>>; 2],
    /// Power-history preference, delayed: bit 2 is used.
    ppw: DFF<Bits<3>>,
    // ---- output registers ----
    o_valid: DFF<Bit>,
    o_id: DFF<Bits<8>>,
    o_module: DFF<Bit>,
    o_slot: DFF<Bits<3>>,
    o_sub: DFF<Bit>,
    o_waves: DFF<Bits<6>>,
    o_vbase: DFF<Bits<8>>,
    o_sbase: DFF<Bits<6>>,
    o_lbase: DFF<Bits<4>>,
    o_err: DFF<Bit>,
    o_code: DFF<Bits<3>>,

    // ---- combinational working signals ----
    thresh: Signal<Local, Bits<16>>,
    win_len: [Signal<Local, Bits<16>>; 4],
    fweights: Signal<Local, Bits<16>>,
    pweights: Signal<Local, Bits<16>>,
    nx: Signal<Local, Bits<16>>,
    lfsr: Signal<Local, Bits<16>>,
    // match stage
    h_valid: [Signal<Local, Bit>; 2],
    h_sub: [Signal<Local, Bit>; 2],
    h_prio: [Signal<Local, Bits<2>>; 2],
    h_rank: [Signal<Local, Bits<2>>; 2],
    /// Head decoders, source s: 0 / 1 = entry 1 of channel 0 / 1, 2 = the push port.
    dw: [Signal<Local, Bits<4>>; 3],
    dv: [Signal<Local, Bits<5>>; 3],
    ds: [Signal<Local, Bits<4>>; 3],
    dl: [Signal<Local, Bits<5>>; 3],
    dqhi: [Signal<Local, Bits<3>>; 3],
    dqlo: [Signal<Local, Bits<3>>; 3],
    dtvhi: [Signal<Local, Bits<16>>; 3],
    dtvlo: [Signal<Local, Bits<16>>; 3],
    dtv1: [Signal<Local, Bits<16>>; 3],
    dtshi: [Signal<Local, Bits<8>>; 3],
    dtslo: [Signal<Local, Bits<8>>; 3],
    dts1: [Signal<Local, Bits<8>>; 3],
    dtl: [Signal<Local, Bits<16>>; 3],
    tq4: Signal<Local, Bits<4>>,
    /// Next hi / lo decode of each channel's head.
    nq_hi: [Signal<Local, Bits<3>>; 2],
    nq_lo: [Signal<Local, Bits<3>>; 2],
    nt_vhi: [Signal<Local, Bits<16>>; 2],
    nt_vlo: [Signal<Local, Bits<16>>; 2],
    nt_shi: [Signal<Local, Bits<8>>; 2],
    nt_slo: [Signal<Local, Bits<8>>; 2],
    pv2: Signal<Local, Bits<5>>,
    pv3: Signal<Local, Bits<5>>,
    pv4: Signal<Local, Bits<5>>,
    ps2: Signal<Local, Bits<4>>,
    ps3: Signal<Local, Bits<4>>,
    ps4: Signal<Local, Bits<4>>,
    nhi: Signal<Local, Bits<5>>,
    nlo: Signal<Local, Bits<5>>,
    mhi: Signal<Local, Bits<4>>,
    mlo: Signal<Local, Bits<4>>,
    /// Per (channel, module, unit): waves and need thermometers (bit k = need > k).
    mq: [Signal<Local, Bits<3>>; 8],
    thv: [Signal<Local, Bits<16>>; 8],
    ths: [Signal<Local, Bits<8>>; 8],
    thl: [Signal<Local, Bits<16>>; 2],
    okv: Signal<Local, Bits<16>>,
    oks: Signal<Local, Bits<8>>,
    okb: Signal<Local, Bit>,
    /// Shift amounts (constants per loop iteration).
    sh_a: Signal<Local, Bits<5>>,
    sh_b: Signal<Local, Bits<5>>,
    /// Bit `sh_b` (0 when `sh_b` is the width): a thermometer need runs past the map from
    /// start i iff its bit (width − i) is set (every head thermometer is one: no OR over the
    /// bits shifted out).
    ov16: Signal<Local, Bits<16>>,
    ov8: Signal<Local, Bits<8>>,
    fnd: Signal<Local, Bit>,
    ufit: Signal<Local, Bit>,
    wsum: Signal<Local, Bits<4>>,
    mfit: Signal<Local, Bits<4>>,
    // decision stage
    fitd: Signal<Local, Bits<4>>,
    vld: Signal<Local, Bits<4>>,
    hf: [Signal<Local, Bit>; 2],
    any_fit: Signal<Local, Bit>,
    sel_c: Signal<Local, Bits<1>>,
    tie: Signal<Local, Bit>,
    tie_p: Signal<Local, Bits<2>>,
    mk0: Signal<Local, Bit>,
    mk1: Signal<Local, Bit>,
    /// Equal ranks, the tie-break (marks, LFSR), channel 1 preferred when both fit.
    eqr: Signal<Local, Bit>,
    tbrk: Signal<Local, Bit>,
    pre1: Signal<Local, Bit>,
    /// Module choice if channel c is chosen.
    msel: [Signal<Local, Bit>; 2],
    prefer1: Signal<Local, Bit>,
    sel_m: Signal<Local, Bits<1>>,
    selm: [Signal<Local, Bit>; 2],
    /// The pointer of module m after this edge (moved by this cycle's decision).
    nptr: [Signal<Local, Bit>; 2],
    slot_free_any: Signal<Local, Bit>,
    /// At least two slots neither busy nor pending.
    found2: Signal<Local, Bit>,
    slot_sel: Signal<Local, Bits<3>>,
    found: Signal<Local, Bit>,
    go: Signal<Local, Bit>,
    /// Modules decided in the previous cycle (from `pend`).
    ex1: Signal<Local, Bits<2>>,
    /// Table write data.
    tw: Signal<Local, Bits<71>>,
    /// Commit stage: first fit of the pending decision (masks and bases per unit; LDS).
    cv_mask: [Signal<Local, Bits<16>>; 2],
    cs_mask: [Signal<Local, Bits<8>>; 2],
    cl_mask: Signal<Local, Bits<16>>,
    cv_base: [Signal<Local, Bits<4>>; 2],
    cs_base: [Signal<Local, Bits<3>>; 2],
    cl_base: Signal<Local, Bits<4>>,
    /// The completed slot's entry.
    done_ok: Signal<Local, Bit>,
    d_mod: Signal<Local, Bit>,
    d_vmask: [Signal<Local, Bits<16>>; 2],
    d_smask: [Signal<Local, Bits<8>>; 2],
    d_lmask: Signal<Local, Bits<16>>,
    d_waves: [Signal<Local, Bits<3>>; 2],
    // next-state working copies
    n_vu: [Signal<Local, Bits<16>>; 4],
    n_su: [Signal<Local, Bits<8>>; 4],
    n_lu: [Signal<Local, Bits<16>>; 2],
    n_wu: [Signal<Local, Bits<3>>; 4],
    n_busy: Signal<Local, Bits<8>>,
    n_hchg: Signal<Local, Bits<2>>,
    pop: [Signal<Local, Bit>; 2],
    push_ok: [Signal<Local, Bit>; 2],
    /// Channel c's head enters split mode at this edge.
    spl: [Signal<Local, Bit>; 2],
    // push checks
    never: Signal<Local, Bit>,
    /// The pushed per-wave VGPR / SGPR need exceeds 16, 8, 5, 4 / 8, 4, 2 blocks.
    pnv: Signal<Local, Bits<5>>,
    pns: Signal<Local, Bits<4>>,
    gv16: Signal<Local, Bit>,
    gv8: Signal<Local, Bit>,
    gv5: Signal<Local, Bit>,
    gv4: Signal<Local, Bit>,
    gs8: Signal<Local, Bit>,
    gs4: Signal<Local, Bit>,
    gs2: Signal<Local, Bit>,
    ready: Signal<Local, Bit>,
    push_err: Signal<Local, Bits<3>>,
    done_err: Signal<Local, Bits<3>>,
    cfg_err: Signal<Local, Bits<3>>,
    // counters
    any_head: Signal<Local, Bit>,
    stale_or_fit: Signal<Local, Bit>,
    g1: Signal<Local, Bits<16>>,
    /// threshold − 1 (register, and of a value being written), the threshold is written now,
    /// and the `thr_hit` of each possible next g (0, g + 1, g) for the register (`hr*`) and the
    /// written value (`hd*`): g + 1 ≥ T ⇔ g ≥ T − 1 (T ≠ 0), so every compare is one carry
    /// chain from flip-flops or inputs.
    tm1: Signal<Local, Bits<16>>,
    tm1d: Signal<Local, Bits<16>>,
    wr_thr: Signal<Local, Bit>,
    hr0: Signal<Local, Bit>,
    hr1: Signal<Local, Bit>,
    hrh: Signal<Local, Bit>,
    hd0: Signal<Local, Bit>,
    hd1: Signal<Local, Bit>,
    hdh: Signal<Local, Bit>,
    hit0: Signal<Local, Bit>,
    hit1: Signal<Local, Bit>,

    split_go: Signal<Local, Bit>,
    wc1: Signal<Local, Bits<16>>,
    cur_len: Signal<Local, Bits<16>>,
    padd: Signal<Local, Bits<17>>,
    pcnt1: Signal<Local, Bits<16>>,
    n_cur: [Signal<Local, Bits<16>>; 2],
    // policy pipeline
    nib: [Signal<Local, Bits<6>>; 16],
    pterm: [Signal<Local, Bits<10>>; 4],
    /// Weights of the retiring classes of one module.
    wsel: [Signal<Local, Bits<6>>; 4],
    // scratch signals (bit_cast arguments cannot name loop variables)
    tb1: Signal<Local, Bit>,
    tb3a: Signal<Local, Bits<3>>,
    tb3b: Signal<Local, Bits<3>>,
    tb4a: Signal<Local, Bits<4>>,
    tb4b: Signal<Local, Bits<4>>,
    tb5: Signal<Local, Bits<5>>,
    tb6: Signal<Local, Bits<6>>,
    tb10: Signal<Local, Bits<10>>,
    tb8a: Signal<Local, Bits<8>>,
    tb8b: Signal<Local, Bits<8>>,
    /// The scorer's selected free map bits.
    wx: Signal<Local, Bits<32>>,
    /// The scorer's next item.
    wkn: Signal<Local, Bits<3>>,
    acc12: Signal<Local, Bits<12>>,
    acc12b: Signal<Local, Bits<12>>,
    tb16a: Signal<Local, Bits<16>>,
    tb16b: Signal<Local, Bits<16>>,
}

impl Dispatcher {
    /// A board-config dispatcher in its reset state (same as `Default`).
    pub fn new() -> Self {
        Self::default()
    }
}

impl Logic for Dispatcher {
    #[hdl_gen]
    fn update(&mut self) {
        // ---- registers hold by default ----
        dff_setup!(
            self, clock, t_busy, dq_ok, thr_hit, policy, thresh_x, thr_m1x, fweights_x, pweights_x,
            nx_x, win, win_cnt, lfsr_x, marks0, marks1, fail_cnt, pw_cnt, p_fit, p_hv, hchg, mx,
            sfull, pv, pm, pslot, pid, psub, pokl, pthl, wk, wxr, sf, sa, sk, sp, spk, pwf, ppw,
            o_valid, o_id, o_module, o_slot, o_sub, o_waves, o_vbase, o_sbase, o_lbase, o_err,
            o_code
        );
        for i in 0..8 {
            self.f_id[i].clock.next = self.clock.val();
            self.f_id[i].d.next = self.f_id[i].q.val();
            self.f_prio[i].clock.next = self.clock.val();
            self.f_prio[i].d.next = self.f_prio[i].q.val();
            self.f_waves[i].clock.next = self.clock.val();
            self.f_waves[i].d.next = self.f_waves[i].q.val();
            self.f_vgpr[i].clock.next = self.clock.val();
            self.f_vgpr[i].d.next = self.f_vgpr[i].q.val();
            self.f_sgpr[i].clock.next = self.clock.val();
            self.f_sgpr[i].d.next = self.f_sgpr[i].q.val();
            self.f_lds[i].clock.next = self.clock.val();
            self.f_lds[i].d.next = self.f_lds[i].q.val();
            self.f_indep[i].clock.next = self.clock.val();
            self.f_indep[i].d.next = self.f_indep[i].q.val();
            self.p_okv[i].clock.next = self.clock.val();
            self.p_okv[i].d.next = self.p_okv[i].q.val();
            self.p_oks[i].clock.next = self.clock.val();
            self.p_oks[i].d.next = self.p_oks[i].q.val();
            self.p_q[i].clock.next = self.clock.val();
            self.p_q[i].d.next = self.p_q[i].q.val();
        }
        for i in 0..4 {
            self.v_used[i].clock.next = self.clock.val();
            self.v_used[i].d.next = self.v_used[i].q.val();
            self.s_used[i].clock.next = self.clock.val();
            self.s_used[i].d.next = self.s_used[i].q.val();
            self.w_used[i].clock.next = self.clock.val();
            self.w_used[i].d.next = self.w_used[i].q.val();
            self.win_len_x[i].clock.next = self.clock.val();
            self.win_len_x[i].d.next = self.win_len_x[i].q.val();
            self.p_okl[i].clock.next = self.clock.val();
            self.p_okl[i].d.next = self.p_okl[i].q.val();
        }
        for i in 0..2 {
            self.f_cnt[i].clock.next = self.clock.val();
            self.f_cnt[i].d.next = self.f_cnt[i].q.val();
            self.split_left[i].clock.next = self.clock.val();
            self.split_left[i].d.next = self.split_left[i].q.val();
            self.hsub[i].clock.next = self.clock.val();
            self.hsub[i].d.next = self.hsub[i].q.val();
            self.hmore[i].clock.next = self.clock.val();
            self.hmore[i].d.next = self.hmore[i].q.val();
            self.hp[i].clock.next = self.clock.val();
            self.hp[i].d.next = self.hp[i].q.val();
            self.hodd[i].clock.next = self.clock.val();
            self.hodd[i].d.next = self.hodd[i].q.val();
            self.l_used[i].clock.next = self.clock.val();
            self.l_used[i].d.next = self.l_used[i].q.val();
            self.ptr[i].clock.next = self.clock.val();
            self.ptr[i].d.next = self.ptr[i].q.val();
            self.pw_cur[i].clock.next = self.clock.val();
            self.pw_cur[i].d.next = self.pw_cur[i].q.val();
            self.pw_prev[i].clock.next = self.clock.val();
            self.pw_prev[i].d.next = self.pw_prev[i].q.val();
            self.x_qhi[i].clock.next = self.clock.val();
            self.x_qhi[i].d.next = self.x_qhi[i].q.val();
            self.x_qlo[i].clock.next = self.clock.val();
            self.x_qlo[i].d.next = self.x_qlo[i].q.val();
            self.x_tvhi[i].clock.next = self.clock.val();
            self.x_tvhi[i].d.next = self.x_tvhi[i].q.val();
            self.x_tvlo[i].clock.next = self.clock.val();
            self.x_tvlo[i].d.next = self.x_tvlo[i].q.val();
            self.x_tv1[i].clock.next = self.clock.val();
            self.x_tv1[i].d.next = self.x_tv1[i].q.val();
            self.x_tshi[i].clock.next = self.clock.val();
            self.x_tshi[i].d.next = self.x_tshi[i].q.val();
            self.x_tslo[i].clock.next = self.clock.val();
            self.x_tslo[i].d.next = self.x_tslo[i].q.val();
            self.x_ts1[i].clock.next = self.clock.val();
            self.x_ts1[i].d.next = self.x_ts1[i].q.val();
            self.x_tl[i].clock.next = self.clock.val();
            self.x_tl[i].d.next = self.x_tl[i].q.val();
            self.wacc[i].clock.next = self.clock.val();
            self.wacc[i].d.next = self.wacc[i].q.val();
            self.pq[i].clock.next = self.clock.val();
            self.pq[i].d.next = self.pq[i].q.val();
            self.pokv[i].clock.next = self.clock.val();
            self.pokv[i].d.next = self.pokv[i].q.val();
            self.pthv[i].clock.next = self.clock.val();
            self.pthv[i].d.next = self.pthv[i].q.val();
            self.poks[i].clock.next = self.clock.val();
            self.poks[i].d.next = self.poks[i].q.val();
            self.pths[i].clock.next = self.clock.val();
            self.pths[i].d.next = self.pths[i].q.val();
            self.hq_hi[i].clock.next = self.clock.val();
            self.hq_hi[i].d.next = self.hq_hi[i].q.val();
            self.hq_lo[i].clock.next = self.clock.val();
            self.hq_lo[i].d.next = self.hq_lo[i].q.val();
            self.h_tvhi[i].clock.next = self.clock.val();
            self.h_tvhi[i].d.next = self.h_tvhi[i].q.val();
            self.h_tvlo[i].clock.next = self.clock.val();
            self.h_tvlo[i].d.next = self.h_tvlo[i].q.val();
            self.h_tv1[i].clock.next = self.clock.val();
            self.h_tv1[i].d.next = self.h_tv1[i].q.val();
            self.h_tshi[i].clock.next = self.clock.val();
            self.h_tshi[i].d.next = self.h_tshi[i].q.val();
            self.h_tslo[i].clock.next = self.clock.val();
            self.h_tslo[i].d.next = self.h_tslo[i].q.val();
            self.h_ts1[i].clock.next = self.clock.val();
            self.h_ts1[i].d.next = self.h_ts1[i].q.val();
            self.h_tl[i].clock.next = self.clock.val();
            self.h_tl[i].d.next = self.h_tl[i].q.val();
            self.hs[i].clock.next = self.clock.val();
            self.hs[i].d.next = self.hs[i].q.val();
        }

        // ---- outputs: registered record and error ----
        self.disp_valid.next = self.o_valid.q.val();
        self.disp_id.next = self.o_id.q.val();
        self.disp_module.next = self.o_module.q.val();
        self.disp_slot.next = self.o_slot.q.val();
        self.disp_sub.next = self.o_sub.q.val();
        self.disp_waves.next = self.o_waves.q.val();
        self.disp_vgpr_base.next = self.o_vbase.q.val();
        self.disp_sgpr_base.next = self.o_sbase.q.val();
        self.disp_lds_base.next = self.o_lbase.q.val();
        self.error.next = self.o_err.q.val();
        self.error_code.next = self.o_code.q.val();

        // ---- scratch signals: defaults (no latches) ----
        self.tb1.next = false;
        self.tb3a.next = 0.into();
        self.tb3b.next = 0.into();
        self.tb4a.next = 0.into();
        self.tb4b.next = 0.into();
        self.tb5.next = 0.into();
        self.tb6.next = 0.into();
        self.tb10.next = 0.into();
        self.tb8a.next = 0.into();
        self.tb8b.next = 0.into();
        self.acc12.next = 0.into();
        self.acc12b.next = 0.into();
        self.tb16a.next = 0.into();
        self.tb16b.next = 0.into();
        self.okv.next = 0.into();
        self.oks.next = 0.into();
        self.okb.next = false;
        self.sh_a.next = 0.into();
        self.sh_b.next = 0.into();
        self.ov16.next = 0.into();
        self.ov8.next = 0.into();
        self.fnd.next = false;
        self.ufit.next = false;
        self.wsum.next = 0.into();
        self.mfit.next = 0.into();
        for k in 0..16 {
            self.nib[k].next = 0.into();
        }

        // ---- true register values ----
        self.thresh.next = self.thresh_x.q.val() ^ 256;
        self.win_len[0].next = self.win_len_x[0].q.val() ^ 512;
        self.win_len[1].next = self.win_len_x[1].q.val() ^ 256;
        self.win_len[2].next = self.win_len_x[2].q.val() ^ 128;
        self.win_len[3].next = self.win_len_x[3].q.val() ^ 128;
        self.fweights.next = self.fweights_x.q.val() ^ 0x1111;
        self.pweights.next = self.pweights_x.q.val() ^ 0x1111;
        self.nx.next = self.nx_x.q.val() ^ 1024;
        self.lfsr.next = self.lfsr_x.q.val() ^ 0xACE1;

        // ================= MATCH STAGE (registered into p_*; read by the next cycle) ==========
        // ---- heads (a split head presents one wave at the lowest priority) ----
        for c in 0..2 {
            self.h_valid[c].next = self.f_cnt[c].q.val().any();
            self.h_sub[c].next = self.hsub[c].q.val();
            self.h_prio[c].next = self.hp[c].q.val();
            // emb. 2: effective rank in the current window
            self.h_rank[c].next = self.h_prio[c].val();
            if self.h_prio[c].val() < self.win.q.val() {
                self.h_rank[c].next = self.h_prio[c].val() + 1;
            }
            if self.h_prio[c].val() == self.win.q.val() {
                self.h_rank[c].next = 0.into();
            }
            self.thl[c].next = self.h_tl[c].q.val();
        }

        // ---- split table rotated by the pointer (emb. 8): unit ptr[m] gets ceil(n/2) (resolved
        // here from the registered pointer, so the decision's pointer move ends at `ptr`) ----
        for c in 0..2 {
            for m in 0..2 {
                for u in 0..2 {
                    self.mq[c * 4 + m * 2 + u].next = self.hq_lo[c].q.val();
                    self.thv[c * 4 + m * 2 + u].next = self.h_tvlo[c].q.val();
                    self.ths[c * 4 + m * 2 + u].next = self.h_tslo[c].q.val();
                    if self.ptr[m].q.val() == (u == 1) {
                        self.mq[c * 4 + m * 2 + u].next = self.hq_hi[c].q.val();
                        self.thv[c * 4 + m * 2 + u].next = self.h_tvhi[c].q.val();
                        self.ths[c * 4 + m * 2 + u].next = self.h_tshi[c].q.val();
                    }
                }
            }
        }

        // ---- match, every head × module × unit: ok[i] = blocks i..i+n-1 exist and are free
        // (registered; the commit stage takes the lowest ok start of the chosen one) ----
        self.tb8a.next = 0.into();
        self.tb8b.next = 0.into();
        self.tb4b.next = 0.into();
        for c in 0..2 {
            for m in 0..2 {
                self.mfit.next = self
                    .mfit
                    .val()
                    .replace_bit(c * 2 + m, self.h_valid[c].val());
                for u in 0..2 {
                    self.okv.next = 0.into();
                    for i in 0..16 {
                        self.sh_a.next = i.to_bits();
                        self.sh_b.next = (16 - i).to_bits();
                        self.ov16.next = bits::<16>(1) << self.sh_b.val();
                        self.okb.next = !((self.thv[c * 4 + m * 2 + u].val() << self.sh_a.val())
                            & self.v_used[m * 2 + u].q.val())
                        .any()
                            & !(self.thv[c * 4 + m * 2 + u].val() & self.ov16.val()).any();
                        self.okv.next = self.okv.val().replace_bit(i, self.okb.val());
                    }
                    self.p_okv[c * 4 + m * 2 + u].d.next = self.okv.val();
                    self.tb8a.next = self
                        .tb8a
                        .val()
                        .replace_bit(c * 4 + m * 2 + u, self.okv.val().any());
                    self.oks.next = 0.into();
                    for i in 0..8 {
                        self.sh_a.next = i.to_bits();
                        self.sh_b.next = (8 - i).to_bits();
                        self.ov8.next = bits::<8>(1) << self.sh_b.val();
                        self.okb.next = !((self.ths[c * 4 + m * 2 + u].val() << self.sh_a.val())
                            & self.s_used[m * 2 + u].q.val())
                        .any()
                            & !(self.ths[c * 4 + m * 2 + u].val() & self.ov8.val()).any();
                        self.oks.next = self.oks.val().replace_bit(i, self.okb.val());
                    }
                    self.p_oks[c * 4 + m * 2 + u].d.next = self.oks.val();
                    self.tb8b.next = self
                        .tb8b
                        .val()
                        .replace_bit(c * 4 + m * 2 + u, self.oks.val().any());
                    // enough wave slots (the ok vectors are tested in the decision stage)
                    self.ufit.next = true;
                    // busy + q ≤ 4 wave slots, in 4 bits (a literal would widen it to 32)
                    self.tb3a.next = self.w_used[m * 2 + u].q.val();
                    self.tb3b.next = self.mq[c * 4 + m * 2 + u].val();
                    self.wsum.next =
                        bit_cast::<4, 3>(self.tb3a.val()) + bit_cast::<4, 3>(self.tb3b.val());
                    if self.wsum.val() > 4 {
                        self.ufit.next = false;
                    }
                    if !self.ufit.val() {
                        self.mfit.next = self.mfit.val().replace_bit(c * 2 + m, false);
                    }
                    self.p_q[c * 4 + m * 2 + u].d.next = self.mq[c * 4 + m * 2 + u].val();
                }
                self.okv.next = 0.into();
                for i in 0..16 {
                    self.sh_a.next = i.to_bits();
                    self.sh_b.next = (16 - i).to_bits();
                    self.ov16.next = bits::<16>(1) << self.sh_b.val();
                    self.okb.next =
                        !((self.thl[c].val() << self.sh_a.val()) & self.l_used[m].q.val()).any()
                            & !(self.thl[c].val() & self.ov16.val()).any();
                    self.okv.next = self.okv.val().replace_bit(i, self.okb.val());
                }
                self.p_okl[c * 2 + m].d.next = self.okv.val();
                self.tb4b.next = self.tb4b.val().replace_bit(c * 2 + m, self.okv.val().any());
            }
        }
        for k in 0..4 {
            if !(self.tb8a.val().get_bit(k * 2)
                & self.tb8a.val().get_bit(k * 2 + 1)
                & self.tb8b.val().get_bit(k * 2)
                & self.tb8b.val().get_bit(k * 2 + 1)
                & self.tb4b.val().get_bit(k))
            {
                self.mfit.next = self.mfit.val().replace_bit(k, false);
            }
        }
        self.p_fit.d.next = self.mfit.val();
        self.tb4a.next = 0.into();
        if self.h_valid[0].val() {
            self.tb4a.next = 1.into();
        }
        if self.h_valid[1].val() {
            self.tb4a.next = self.tb4a.val() | 2;
        }
        self.p_hv.d.next = self.tb4a.val().get_bits::<2>(0);

        // ================= DECISION STAGE (from the registered match results) ================
        // a candidate (c, m) is valid unless c's head was replaced at the last edge or m was
        // decided in one of the last two cycles (not yet in the maps the match stage read)
        self.ex1.next = 0.into();
        if self.pv.q.val() {
            if self.pm.q.val() {
                self.ex1.next = 2.into();
            } else {
                self.ex1.next = 1.into();
            }
        }
        // the head fits (match stage: a head, wave slots, a start in every map)
        self.fitd.next = self.p_fit.q.val();
        self.vld.next = self.fitd.val();
        for c in 0..2 {
            for m in 0..2 {
                if self.hchg.q.val().get_bit(c) | self.mx.q.val().get_bit(m) {
                    self.vld.next = self.vld.val().replace_bit(c * 2 + m, false);
                }
            }
            self.hf[c].next = self.vld.val().get_bit(c * 2) | self.vld.val().get_bit(c * 2 + 1);
        }

        // ---- pick the WG: best effective rank; ties by marks and the LFSR (a41/a42) ----
        self.any_fit.next = self.hf[0].val() | self.hf[1].val();
        // channel 1 wins if both fit (from registers only: the fit bits select last)
        self.tie_p.next = self.h_prio[0].val();
        self.mk0.next = self.marks0.q.val().get_bit(self.h_prio[0].val().index());
        self.mk1.next = self.marks1.q.val().get_bit(self.h_prio[0].val().index());
        self.eqr.next = self.h_rank[1].val() == self.h_rank[0].val();
        self.tbrk.next = self.mk0.val();
        if self.mk0.val() == self.mk1.val() {
            self.tbrk.next = self.lfsr.val().get_bit(0);
        }
        self.pre1.next =
            (self.h_rank[1].val() < self.h_rank[0].val()) | (self.eqr.val() & self.tbrk.val());
        self.tie.next = self.hf[0].val() & self.hf[1].val() & self.eqr.val();
        self.sel_c.next = 0.into();
        if self.hf[1].val() & (!self.hf[0].val() | self.pre1.val()) {
            self.sel_c.next = 1.into();
        }

        // ---- pick the module by the policy (scores from the policy pipeline) ----
        self.prefer1.next = false;
        if (self.policy.q.val() == 1) & self.pwf.q.val() {
            self.prefer1.next = true;
        }
        if (self.policy.q.val() == 2) & self.ppw.q.val().get_bit(2) {
            self.prefer1.next = true;
        }
        // per channel, then selected by the channel
        for c in 0..2 {
            self.msel[c].next = self.vld.val().get_bit(c * 2 + 1)
                & (!self.vld.val().get_bit(c * 2) | self.prefer1.val());
        }
        self.sel_m.next = 0.into();
        if self.msel[0].val() & !self.sel_c.val().any() {
            self.sel_m.next = 1.into();
        }
        if self.msel[1].val() & self.sel_c.val().any() {
            self.sel_m.next = 1.into();
        }

        // ---- allocate: lowest slot neither busy nor taken by the pending decision ----
        self.found.next = false;
        self.found2.next = false;
        self.slot_sel.next = 0.into();
        for s in 0..8 {
            if !self.t_busy.q.val().get_bit(s)
                & !(self.pv.q.val() & (self.pslot.q.val().index() == s))
            {
                if self.found.val() {
                    self.found2.next = true;
                } else {
                    self.slot_sel.next = s.to_bits();
                }
                self.found.next = true;
            }
        }
        // (equal to `found`, from a register: the decision does not wait for the slot search)
        self.slot_free_any.next = !self.sfull.q.val();
        self.go.next = self.any_fit.val() & self.slot_free_any.val();
        self.selm[0].next = self.go.val() & !self.sel_m.val().any();
        self.selm[1].next = self.go.val() & self.sel_m.val().any();
        // the decision is registered (pend) and committed in the next cycle
        self.pv.d.next = self.go.val();
        self.pm.d.next = self.sel_m.val().any();
        self.pslot.d.next = self.slot_sel.val();
        self.pid.d.next = self.f_id[0].q.val();
        self.psub.d.next = self.h_sub[0].val();
        if self.sel_c.val().any() {
            self.pid.d.next = self.f_id[4].q.val();
            self.psub.d.next = self.h_sub[1].val();
        }
        for c in 0..2 {
            for m in 0..2 {
                if (self.sel_c.val().index() == c) & (self.sel_m.val().index() == m) {
                    for u in 0..2 {
                        self.pq[u].d.next = self.p_q[c * 4 + m * 2 + u].q.val();
                        self.pokv[u].d.next = self.p_okv[c * 4 + m * 2 + u].q.val();
                        self.pthv[u].d.next = self.thv[c * 4 + m * 2 + u].val();
                        self.poks[u].d.next = self.p_oks[c * 4 + m * 2 + u].q.val();
                        self.pths[u].d.next = self.ths[c * 4 + m * 2 + u].val();
                    }
                    self.pokl.d.next = self.p_okl[c * 2 + m].q.val();
                    self.pthl.d.next = self.thl[c].val();
                }
            }
        }
        self.mx.d.next = self.ex1.val();
        if self.go.val() {
            // the decision takes `slot_sel`; a completion frees a busy slot
            self.mx.d.next = self.ex1.val().replace_bit(self.sel_m.val().index(), true);
            self.sfull.d.next = !self.found2.val();
        } else {
            self.sfull.d.next = !self.found.val();
        }

        // ================= COMMIT STAGE (the pending decision) ================================
        // first fit: the lowest ok start is the base, the region is the need shifted there
        for u in 0..2 {
            self.fnd.next = false;
            self.cv_base[u].next = 0.into();
            self.cv_mask[u].next = 0.into();
            for i in 0..16 {
                self.sh_a.next = i.to_bits();
                if self.pokv[u].q.val().get_bit(i) & !self.fnd.val() {
                    self.cv_base[u].next = i.to_bits();
                    self.cv_mask[u].next = self.pthv[u].q.val() << self.sh_a.val();
                    self.fnd.next = true;
                }
            }
            self.fnd.next = false;
            self.cs_base[u].next = 0.into();
            self.cs_mask[u].next = 0.into();
            for i in 0..8 {
                self.sh_a.next = i.to_bits();
                if self.poks[u].q.val().get_bit(i) & !self.fnd.val() {
                    self.cs_base[u].next = i.to_bits();
                    self.cs_mask[u].next = self.pths[u].q.val() << self.sh_a.val();
                    self.fnd.next = true;
                }
            }
        }
        self.fnd.next = false;
        self.cl_base.next = 0.into();
        self.cl_mask.next = 0.into();
        for i in 0..16 {
            self.sh_a.next = i.to_bits();
            if self.pokl.q.val().get_bit(i) & !self.fnd.val() {
                self.cl_base.next = i.to_bits();
                self.cl_mask.next = self.pthl.q.val() << self.sh_a.val();
                self.fnd.next = true;
            }
        }

        // ---- next state of the resources: completion frees, allocation takes ----
        for k in 0..4 {
            self.n_vu[k].next = self.v_used[k].q.val();
            self.n_su[k].next = self.s_used[k].q.val();
            self.n_wu[k].next = self.w_used[k].q.val();
        }
        for k in 0..2 {
            self.n_lu[k].next = self.l_used[k].q.val();
        }
        // a completion frees its slot at this edge; the table RAM reads its entry at this edge
        // and the blocks are freed at the next one (from the read data)
        self.done_ok.next =
            self.done_valid.val() & self.t_busy.q.val().get_bit(self.done_slot.val().index());
        self.tbl.read_clock.next = self.clock.val();
        self.tbl.write_clock.next = self.clock.val();
        self.tbl.read_address.next = self.done_slot.val();
        self.dq_ok.d.next = self.done_ok.val();
        if self.done_ok.val() {
            self.sfull.d.next = false;
        }
        self.d_mod.next = self.tbl.read_data.val().get_bit(70);
        self.d_lmask.next = self.tbl.read_data.val().get_bits::<16>(48);
        self.d_vmask[0].next = self.tbl.read_data.val().get_bits::<16>(0);
        self.d_vmask[1].next = self.tbl.read_data.val().get_bits::<16>(16);
        self.d_smask[0].next = self.tbl.read_data.val().get_bits::<8>(32);
        self.d_smask[1].next = self.tbl.read_data.val().get_bits::<8>(40);
        self.d_waves[0].next = self.tbl.read_data.val().get_bits::<3>(64);
        self.d_waves[1].next = self.tbl.read_data.val().get_bits::<3>(67);
        if self.dq_ok.q.val() {
            for m in 0..2 {
                if self.d_mod.val() == (m == 1) {
                    self.n_lu[m].next = self.n_lu[m].val() & !self.d_lmask.val();
                    for u in 0..2 {
                        self.n_vu[m * 2 + u].next =
                            self.n_vu[m * 2 + u].val() & !self.d_vmask[u].val();
                        self.n_su[m * 2 + u].next =
                            self.n_su[m * 2 + u].val() & !self.d_smask[u].val();
                        self.n_wu[m * 2 + u].next =
                            self.n_wu[m * 2 + u].val() - self.d_waves[u].val();
                    }
                }
            }
        }
        self.n_busy.next = self.t_busy.q.val();
        if self.done_ok.val() {
            self.n_busy.next = self
                .t_busy
                .q
                .val()
                .replace_bit(self.done_slot.val().index(), false);
        }
        // commit: the pending decision takes its regions, wave slots and in-flight slot
        for m in 0..2 {
            if self.pv.q.val() & (self.pm.q.val() == (m == 1)) {
                self.n_lu[m].next = self.n_lu[m].val() | self.cl_mask.val();
                for u in 0..2 {
                    self.n_vu[m * 2 + u].next = self.n_vu[m * 2 + u].val() | self.cv_mask[u].val();
                    self.n_su[m * 2 + u].next = self.n_su[m * 2 + u].val() | self.cs_mask[u].val();
                    self.n_wu[m * 2 + u].next = self.n_wu[m * 2 + u].val() + self.pq[u].q.val();
                }
            }
        }
        self.tbl.write_enable.next = self.pv.q.val();
        self.tbl.write_address.next = self.pslot.q.val();
        self.tw.next = bit_cast::<71, 16>(self.cv_mask[0].val())
            | (bit_cast::<71, 16>(self.cv_mask[1].val()) << 16)
            | (bit_cast::<71, 8>(self.cs_mask[0].val()) << 32)
            | (bit_cast::<71, 8>(self.cs_mask[1].val()) << 40)
            | (bit_cast::<71, 16>(self.cl_mask.val()) << 48)
            | (bit_cast::<71, 3>(self.pq[0].q.val()) << 64)
            | (bit_cast::<71, 3>(self.pq[1].q.val()) << 67);
        self.tw.next = self.tw.val().replace_bit(70, self.pm.q.val());
        self.tbl.write_data.next = self.tw.val();
        if self.pv.q.val() {
            for s in 0..8 {
                if self.pslot.q.val().index() == s {
                    self.n_busy.next = self.n_busy.val().replace_bit(s, true);
                }
            }
        }
        // decision: emb. 8, the pointer moves by n on the chosen module only
        for m in 0..2 {
            self.nptr[m].next = self.ptr[m].q.val();
            if self.selm[m].val() {
                if self.hodd[0].q.val() & !self.sel_c.val().any() {
                    self.nptr[m].next = !self.ptr[m].q.val();
                }
                if self.hodd[1].q.val() & self.sel_c.val().any() {
                    self.nptr[m].next = !self.ptr[m].q.val();
                }
            }
            self.ptr[m].d.next = self.nptr[m].val();
        }
        if self.go.val() {
            // a42 marks of the winner's priority
            if self.tie.val() {
                if !(self.mk0.val() & self.mk1.val()) {
                    if self.sel_c.val().any() {
                        self.marks1.d.next = self
                            .marks1
                            .q
                            .val()
                            .replace_bit(self.tie_p.val().index(), true);
                    } else {
                        self.marks0.d.next = self
                            .marks0
                            .q
                            .val()
                            .replace_bit(self.tie_p.val().index(), true);
                    }
                } else {
                    if self.sel_c.val().any() {
                        self.marks0.d.next = self
                            .marks0
                            .q
                            .val()
                            .replace_bit(self.tie_p.val().index(), false);
                    } else {
                        self.marks1.d.next = self
                            .marks1
                            .q
                            .val()
                            .replace_bit(self.tie_p.val().index(), false);
                    }
                }
            }
        }
        self.t_busy.d.next = self.n_busy.val();
        for k in 0..4 {
            self.v_used[k].d.next = self.n_vu[k].val();
            self.s_used[k].d.next = self.n_su[k].val();
            self.w_used[k].d.next = self.n_wu[k].val();
        }
        for k in 0..2 {
            self.l_used[k].d.next = self.n_lu[k].val();
        }

        // ---- failure counter and split (emb. 3): a failure needs fresh match results of every
        // head and no fit at all ----
        self.any_head.next = self.h_valid[0].val() | self.h_valid[1].val();
        self.stale_or_fit.next = false;
        for c in 0..2 {
            if self.h_valid[c].val()
                & (!self.p_hv.q.val().get_bit(c)
                    | self.hchg.q.val().get_bit(c)
                    | self.fitd.val().get_bit(c * 2)
                    | self.fitd.val().get_bit(c * 2 + 1))
            {
                self.stale_or_fit.next = true;
            }
        }
        self.split_go.next = false;
        self.g1.next = self.fail_cnt.q.val();
        if !self.fail_cnt.q.val().all() {
            self.g1.next = self.fail_cnt.q.val() + 1;
        }
        // `thr_hit` is computed here for each possible next g (0, g + 1, g) against the
        // threshold after the edge, and selected with the counter update (no carry chain after
        // the decision)
        self.tm1.next = self.thr_m1x.q.val() ^ 255;
        self.tm1d.next = self.cfg_data.val() - 1;
        self.hr0.next = self.thresh.val() == 1;
        self.hr1.next = self.thresh.val().any() & (self.g1.val() >= self.tm1.val());
        self.hrh.next = self.thresh.val().any() & (self.fail_cnt.q.val() >= self.tm1.val());
        self.hd0.next = self.cfg_data.val() == 1;
        self.hd1.next = self.cfg_data.val().any() & (self.g1.val() >= self.tm1d.val());
        self.hdh.next = self.cfg_data.val().any() & (self.fail_cnt.q.val() >= self.tm1d.val());
        self.wr_thr.next = self.cfg_we.val() & (self.cfg_addr.val() == 1);
        self.hit0.next = self.hr0.val();
        self.hit1.next = self.hr1.val();
        self.thr_hit.d.next = self.hrh.val();
        if self.wr_thr.val() {
            self.hit0.next = self.hd0.val();
            self.hit1.next = self.hd1.val();
            self.thr_hit.d.next = self.hdh.val();
        }
        if self.go.val() {
            self.fail_cnt.d.next = 0.into();
            self.thr_hit.d.next = self.hit0.val();
        } else {
            if self.any_head.val() & self.slot_free_any.val() & !self.stale_or_fit.val() {
                if self.thr_hit.q.val() {
                    self.split_go.next = true;
                    self.fail_cnt.d.next = 0.into();
                    self.thr_hit.d.next = self.hit0.val();
                } else {
                    self.fail_cnt.d.next = self.g1.val();
                    self.thr_hit.d.next = self.hit1.val();
                }
            }
        }

        // ---- FIFOs: pop the dispatched head, split, push (checks at the input) ----
        self.n_hchg.next = 0.into();
        for c in 0..2 {
            // a dispatch pops the head unless it is a split head with more sub-WGs left
            // (`hmore` implies `hsub`)
            self.pop[c].next =
                self.go.val() & (self.sel_c.val().index() == c) & !self.hmore[c].q.val();
            if self.go.val() & (self.sel_c.val().index() == c) & self.h_sub[c].val() {
                self.split_left[c].d.next = self.split_left[c].q.val() - 1;
                self.hmore[c].d.next = self.split_left[c].q.val() > 2;
                if !self.hmore[c].q.val() {
                    self.hsub[c].d.next = false;
                }
            }
            if self.pop[c].val() {
                self.n_hchg.next = self.n_hchg.val().replace_bit(c, true);
            }
            self.spl[c].next = self.split_go.val()
                & self.h_valid[c].val()
                & !self.h_sub[c].val()
                & self.f_indep[c * 4].q.val()
                & (self.f_waves[c * 4].q.val() >= 2);
            if self.spl[c].val() {
                self.split_left[c].d.next = self.f_waves[c * 4].q.val();
                self.hsub[c].d.next = true;
                self.hmore[c].d.next = true;
                self.n_hchg.next = self.n_hchg.val().replace_bit(c, true);
            }
        }
        self.hchg.d.next = self.n_hchg.val();
        // never-fits: ceil(n/2) waves per unit must fit an empty unit, i.e. per-wave needs up to
        // 16 / ceil(n/2) VGPR and 8 / ceil(n/2) SGPR blocks (constant thresholds per wave count:
        // no multiplier on the push path)
        // (the `>` tests against constants written as bit logic: yosys maps a `>` to a carry
        // chain, which sat on the push → FIFO-enable path)
        self.pnv.next = self.push_vgpr.val();
        self.pns.next = self.push_sgpr.val();
        self.gv16.next = self.pnv.val().get_bit(4) & self.pnv.val().get_bits::<4>(0).any();
        self.gv8.next = self.pnv.val().get_bit(4)
            | (self.pnv.val().get_bit(3) & self.pnv.val().get_bits::<3>(0).any());
        self.gv5.next = self.pnv.val().get_bit(4)
            | self.pnv.val().get_bit(3)
            | (self.pnv.val().get_bit(2) & self.pnv.val().get_bit(1));
        self.gv4.next = self.pnv.val().get_bit(4)
            | self.pnv.val().get_bit(3)
            | (self.pnv.val().get_bit(2) & self.pnv.val().get_bits::<2>(0).any());
        self.gs8.next = self.pns.val().get_bit(3) & self.pns.val().get_bits::<3>(0).any();
        self.gs4.next = self.pns.val().get_bit(3)
            | (self.pns.val().get_bit(2) & self.pns.val().get_bits::<2>(0).any());
        self.gs2.next = self.pns.val().get_bit(3)
            | self.pns.val().get_bit(2)
            | (self.pns.val().get_bit(1) & self.pns.val().get_bit(0));
        // waves > 8, LDS > 16
        self.never.next = (self.push_waves.val().get_bit(3)
            & self.push_waves.val().get_bits::<3>(0).any())
            | (self.push_lds.val().get_bit(4) & self.push_lds.val().get_bits::<4>(0).any());
        if ((self.push_waves.val() == 1) | (self.push_waves.val() == 2))
            & (self.gv16.val() | self.gs8.val())
        {
            self.never.next = true;
        }
        if ((self.push_waves.val() == 3) | (self.push_waves.val() == 4))
            & (self.gv8.val() | self.gs4.val())
        {
            self.never.next = true;
        }
        if ((self.push_waves.val() == 5) | (self.push_waves.val() == 6))
            & (self.gv5.val() | self.gs2.val())
        {
            self.never.next = true;
        }
        if ((self.push_waves.val() == 7) | (self.push_waves.val() == 8))
            & (self.gv4.val() | self.gs2.val())
        {
            self.never.next = true;
        }
        self.ready.next = true;
        for c in 0..2 {
            if (self.push_channel.val() == (c == 1)) & (self.f_cnt[c].q.val() == 4) {
                self.ready.next = false;
            }
        }
        self.push_ready.next = self.ready.val();
        self.push_err.next = 0.into();
        if self.push_valid.val() & self.ready.val() {
            if !self.push_waves.val().any() {
                self.push_err.next = 2.into();
            } else {
                if self.never.val() {
                    self.push_err.next = 1.into();
                }
            }
        }
        for c in 0..2 {
            self.push_ok[c].next = self.push_valid.val()
                & self.ready.val()
                & !self.push_err.val().any()
                & (self.push_channel.val() == (c == 1));
            // shift queue: entry e takes e+1 on a pop, the push lands behind the last entry;
            // written with the (late) pop as the last select
            for e in 0..4 {
                if self.pop[c].val() {
                    if self.push_ok[c].val() & (self.f_cnt[c].q.val().index() == e + 1) {
                        self.f_id[c * 4 + e].d.next = self.push_id.val();
                        self.f_prio[c * 4 + e].d.next = self.push_prio.val();
                        self.f_waves[c * 4 + e].d.next = self.push_waves.val();
                        self.f_vgpr[c * 4 + e].d.next = self.push_vgpr.val();
                        self.f_sgpr[c * 4 + e].d.next = self.push_sgpr.val();
                        self.f_lds[c * 4 + e].d.next = self.push_lds.val();
                        self.f_indep[c * 4 + e].d.next = self.push_indep.val();
                    } else {
                        if e < 3 {
                            self.f_id[c * 4 + e].d.next = self.f_id[c * 4 + (e + 1) % 4].q.val();
                            self.f_prio[c * 4 + e].d.next =
                                self.f_prio[c * 4 + (e + 1) % 4].q.val();
                            self.f_waves[c * 4 + e].d.next =
                                self.f_waves[c * 4 + (e + 1) % 4].q.val();
                            self.f_vgpr[c * 4 + e].d.next =
                                self.f_vgpr[c * 4 + (e + 1) % 4].q.val();
                            self.f_sgpr[c * 4 + e].d.next =
                                self.f_sgpr[c * 4 + (e + 1) % 4].q.val();
                            self.f_lds[c * 4 + e].d.next = self.f_lds[c * 4 + (e + 1) % 4].q.val();
                            self.f_indep[c * 4 + e].d.next =
                                self.f_indep[c * 4 + (e + 1) % 4].q.val();
                        }
                    }
                } else {
                    if self.push_ok[c].val() & (self.f_cnt[c].q.val().index() == e) {
                        self.f_id[c * 4 + e].d.next = self.push_id.val();
                        self.f_prio[c * 4 + e].d.next = self.push_prio.val();
                        self.f_waves[c * 4 + e].d.next = self.push_waves.val();
                        self.f_vgpr[c * 4 + e].d.next = self.push_vgpr.val();
                        self.f_sgpr[c * 4 + e].d.next = self.push_sgpr.val();
                        self.f_lds[c * 4 + e].d.next = self.push_lds.val();
                        self.f_indep[c * 4 + e].d.next = self.push_indep.val();
                    }
                }
            }
            if self.pop[c].val() {
                if !self.push_ok[c].val() {
                    self.f_cnt[c].d.next = self.f_cnt[c].q.val() - 1;
                }
            } else {
                if self.push_ok[c].val() {
                    self.f_cnt[c].d.next = self.f_cnt[c].q.val() + 1;
                }
            }
        }

        // ---- head decoders (entry 1 of each channel, the push port) and the decoded heads ----
        self.dw[0].next = self.f_waves[1].q.val();
        self.dv[0].next = self.f_vgpr[1].q.val();
        self.ds[0].next = self.f_sgpr[1].q.val();
        self.dl[0].next = self.f_lds[1].q.val();
        self.dw[1].next = self.f_waves[5].q.val();
        self.dv[1].next = self.f_vgpr[5].q.val();
        self.ds[1].next = self.f_sgpr[5].q.val();
        self.dl[1].next = self.f_lds[5].q.val();
        self.dw[2].next = self.push_waves.val();
        self.dv[2].next = self.push_vgpr.val();
        self.ds[2].next = self.push_sgpr.val();
        self.dl[2].next = self.push_lds.val();
        for s in 0..3 {
            // ceil(n/2) = (n >> 1) + n[0], floor(n/2) = n >> 1 (n ≤ 8 for accepted WGs)
            self.tq4.next = self.dw[s].val() >> 1;
            self.dqlo[s].next = self.tq4.val().get_bits::<3>(0);
            self.dqhi[s].next = self.dqlo[s].val();
            if self.dw[s].val().get_bit(0) {
                self.dqhi[s].next = self.dqlo[s].val() + 1;
            }
            // q × per-wave need (accepted descriptors: at most 16 VGPR / 8 SGPR blocks)
            self.pv2.next = self.dv[s].val() << 1;
            self.pv3.next = self.pv2.val() + self.dv[s].val();
            self.pv4.next = self.dv[s].val() << 2;
            self.ps2.next = self.ds[s].val() << 1;
            self.ps3.next = self.ps2.val() + self.ds[s].val();
            self.ps4.next = self.ds[s].val() << 2;
            self.nhi.next = 0.into();
            self.nlo.next = 0.into();
            self.mhi.next = 0.into();
            self.mlo.next = 0.into();
            if self.dqhi[s].val() == 1 {
                self.nhi.next = self.dv[s].val();
                self.mhi.next = self.ds[s].val();
            }
            if self.dqhi[s].val() == 2 {
                self.nhi.next = self.pv2.val();
                self.mhi.next = self.ps2.val();
            }
            if self.dqhi[s].val() == 3 {
                self.nhi.next = self.pv3.val();
                self.mhi.next = self.ps3.val();
            }
            if self.dqhi[s].val() == 4 {
                self.nhi.next = self.pv4.val();
                self.mhi.next = self.ps4.val();
            }
            if self.dqlo[s].val() == 1 {
                self.nlo.next = self.dv[s].val();
                self.mlo.next = self.ds[s].val();
            }
            if self.dqlo[s].val() == 2 {
                self.nlo.next = self.pv2.val();
                self.mlo.next = self.ps2.val();
            }
            if self.dqlo[s].val() == 3 {
                self.nlo.next = self.pv3.val();
                self.mlo.next = self.ps3.val();
            }
            if self.dqlo[s].val() == 4 {
                self.nlo.next = self.pv4.val();
                self.mlo.next = self.ps4.val();
            }
            // thermometer of n: !(ones << n) (n = 16 gives all ones)
            self.dtvhi[s].next = !(bits::<16>(0xFFFF) << self.nhi.val());
            self.dtvlo[s].next = !(bits::<16>(0xFFFF) << self.nlo.val());
            self.dtv1[s].next = !(bits::<16>(0xFFFF) << self.dv[s].val());
            self.dtshi[s].next = !(bits::<8>(0xFF) << self.mhi.val());
            self.dtslo[s].next = !(bits::<8>(0xFF) << self.mlo.val());
            self.dts1[s].next = !(bits::<8>(0xFF) << self.ds[s].val());
            self.dtl[s].next = !(bits::<16>(0xFFFF) << self.dl[s].val());
        }
        // decoded entry 1: from the push when it lands in entry 1, else from entry 1
        for c in 0..2 {
            self.x_qhi[c].d.next = self.dqhi[c].val();
            self.x_qlo[c].d.next = self.dqlo[c].val();
            self.x_tvhi[c].d.next = self.dtvhi[c].val();
            self.x_tvlo[c].d.next = self.dtvlo[c].val();
            self.x_tv1[c].d.next = self.dtv1[c].val();
            self.x_tshi[c].d.next = self.dtshi[c].val();
            self.x_tslo[c].d.next = self.dtslo[c].val();
            self.x_ts1[c].d.next = self.dts1[c].val();
            self.x_tl[c].d.next = self.dtl[c].val();
            if (self.f_cnt[c].q.val() == 1) & self.push_ok[c].val() {
                self.x_qhi[c].d.next = self.dqhi[2].val();
                self.x_qlo[c].d.next = self.dqlo[2].val();
                self.x_tvhi[c].d.next = self.dtvhi[2].val();
                self.x_tvlo[c].d.next = self.dtvlo[2].val();
                self.x_tv1[c].d.next = self.dtv1[2].val();
                self.x_tshi[c].d.next = self.dtshi[2].val();
                self.x_tslo[c].d.next = self.dtslo[2].val();
                self.x_ts1[c].d.next = self.dts1[2].val();
                self.x_tl[c].d.next = self.dtl[2].val();
            }
        }
        for c in 0..2 {
            // next hi / lo decode of the head, with the (late) pop as the last select: without a
            // pop hold, load the push into an empty FIFO, or enter split mode; with a pop load
            // entry 1 (or the push landing in entry 0)
            self.nq_hi[c].next = self.hq_hi[c].q.val();
            self.nq_lo[c].next = self.hq_lo[c].q.val();
            self.nt_vhi[c].next = self.h_tvhi[c].q.val();
            self.nt_vlo[c].next = self.h_tvlo[c].q.val();
            self.nt_shi[c].next = self.h_tshi[c].q.val();
            self.nt_slo[c].next = self.h_tslo[c].q.val();
            if !self.f_cnt[c].q.val().any() & self.push_ok[c].val() {
                self.nq_hi[c].next = self.dqhi[2].val();
                self.nq_lo[c].next = self.dqlo[2].val();
                self.nt_vhi[c].next = self.dtvhi[2].val();
                self.nt_vlo[c].next = self.dtvlo[2].val();
                self.nt_shi[c].next = self.dtshi[2].val();
                self.nt_slo[c].next = self.dtslo[2].val();
                self.h_tv1[c].d.next = self.dtv1[2].val();
                self.h_ts1[c].d.next = self.dts1[2].val();
                self.h_tl[c].d.next = self.dtl[2].val();
                self.hp[c].d.next = self.push_prio.val();
                self.hodd[c].d.next = self.push_waves.val().get_bit(0);
            }
            // a head entering split mode presents one wave (on the unit that gets ceil)
            if self.spl[c].val() {
                self.hp[c].d.next = 3.into();
                self.hodd[c].d.next = true;
                self.nq_hi[c].next = 1.into();
                self.nq_lo[c].next = 0.into();
                self.nt_vhi[c].next = self.h_tv1[c].q.val();
                self.nt_vlo[c].next = 0.into();
                self.nt_shi[c].next = self.h_ts1[c].q.val();
                self.nt_slo[c].next = 0.into();
            }
            if self.pop[c].val() {
                if self.f_cnt[c].q.val().get_bits::<2>(1).any() {
                    self.nq_hi[c].next = self.x_qhi[c].q.val();
                    self.nq_lo[c].next = self.x_qlo[c].q.val();
                    self.nt_vhi[c].next = self.x_tvhi[c].q.val();
                    self.nt_vlo[c].next = self.x_tvlo[c].q.val();
                    self.nt_shi[c].next = self.x_tshi[c].q.val();
                    self.nt_slo[c].next = self.x_tslo[c].q.val();
                    self.h_tv1[c].d.next = self.x_tv1[c].q.val();
                    self.h_ts1[c].d.next = self.x_ts1[c].q.val();
                    self.h_tl[c].d.next = self.x_tl[c].q.val();
                    self.hp[c].d.next = self.f_prio[c * 4 + 1].q.val();
                    self.hodd[c].d.next = self.f_waves[c * 4 + 1].q.val().get_bit(0);
                } else {
                    self.nq_hi[c].next = self.dqhi[2].val();
                    self.nq_lo[c].next = self.dqlo[2].val();
                    self.nt_vhi[c].next = self.dtvhi[2].val();
                    self.nt_vlo[c].next = self.dtvlo[2].val();
                    self.nt_shi[c].next = self.dtshi[2].val();
                    self.nt_slo[c].next = self.dtslo[2].val();
                    self.h_tv1[c].d.next = self.dtv1[2].val();
                    self.h_ts1[c].d.next = self.dts1[2].val();
                    self.h_tl[c].d.next = self.dtl[2].val();
                    self.hp[c].d.next = self.push_prio.val();
                    self.hodd[c].d.next = self.push_waves.val().get_bit(0);
                }
            }
            self.hq_hi[c].d.next = self.nq_hi[c].val();
            self.hq_lo[c].d.next = self.nq_lo[c].val();
            self.h_tvhi[c].d.next = self.nt_vhi[c].val();
            self.h_tvlo[c].d.next = self.nt_vlo[c].val();
            self.h_tshi[c].d.next = self.nt_shi[c].val();
            self.h_tslo[c].d.next = self.nt_slo[c].val();
        }

        // ---- free-running: windows (emb. 2), LFSR, power history (emb. 10) ----
        self.cur_len.next = self.win_len[0].val();
        for y in 0..4 {
            if self.win.q.val().index() == y {
                self.cur_len.next = self.win_len[y].val();
            }
        }
        self.wc1.next = self.win_cnt.q.val() + 1;
        if self.wc1.val() >= self.cur_len.val() {
            self.win.d.next = self.win.q.val() + 1;
            self.win_cnt.d.next = 0.into();
        } else {
            self.win_cnt.d.next = self.wc1.val();
        }
        if self.lfsr.val().get_bit(0) {
            self.lfsr_x.d.next = ((self.lfsr.val() >> 1) ^ 0xB400) ^ 0xACE1;
        } else {
            self.lfsr_x.d.next = (self.lfsr.val() >> 1) ^ 0xACE1;
        }
        self.pcnt1.next = self.pw_cnt.q.val() + 1;
        for m in 0..2 {
            // Σ_c b_c over the retiring classes (6 bits), then one saturating 16-bit add
            for c in 0..4 {
                self.wsel[c].next = 0.into();
                if self.retire_class.val().get_bit(m * 4 + c) {
                    self.tb4a.next = self.pweights.val().get_bits::<4>(c * 4);
                    self.wsel[c].next = bit_cast::<6, 4>(self.tb4a.val());
                }
            }
            self.tb6.next = (self.wsel[0].val() + self.wsel[1].val())
                + (self.wsel[2].val() + self.wsel[3].val());
            self.tb16a.next = self.pw_cur[m].q.val();
            self.padd.next =
                bit_cast::<17, 16>(self.tb16a.val()) + bit_cast::<17, 6>(self.tb6.val());
            self.n_cur[m].next = self.padd.val().get_bits::<16>(0);
            if self.padd.val().get_bit(16) {
                self.n_cur[m].next = 0xFFFF.into();
            }
            if self.pcnt1.val() >= self.nx.val() {
                self.pw_prev[m].d.next = self.n_cur[m].val();
                self.pw_cur[m].d.next = 0.into();
            } else {
                self.pw_cur[m].d.next = self.n_cur[m].val();
            }
        }
        if self.pcnt1.val() >= self.nx.val() {
            self.pw_cnt.d.next = 0.into();
        } else {
            self.pw_cnt.d.next = self.pcnt1.val();
        }

        // ---- policy scores ----
        // emb. 10: power history sums, compared in the next cycle, delayed to 4 cycles in all
        for m in 0..2 {
            self.tb16a.next = self.pw_prev[m].q.val();
            self.tb16b.next = self.pw_cur[m].q.val();
            self.hs[m].d.next =
                bit_cast::<17, 16>(self.tb16a.val()) + bit_cast::<17, 16>(self.tb16b.val());
        }
        self.tb1.next = self.hs[1].q.val() < self.hs[0].q.val();
        self.tb3a.next = self.ppw.q.val() << 1;
        if self.tb1.val() {
            self.tb3a.next = self.tb3a.val() | 1;
        }
        self.ppw.d.next = self.tb3a.val();
        // emb. 9: serial scorer, item wk = (module wk[2], resource wk[1:0]) per cycle:
        // free count and weight (stage 1), product (stage 2), accumulate / publish (stage 3)
        // the maps of the next item, from the state after this edge (= the state of its cycle)
        self.wkn.next = self.wk.q.val() + 1;
        self.wxr.d.next = 0xFFFF_FFFF_u64.into();
        for m in 0..2 {
            if self.wkn.val().get_bit(2) == (m == 1) {
                if self.wkn.val().get_bits::<2>(0) == 0 {
                    self.tb16a.next = self.n_vu[m * 2].val();
                    self.tb16b.next = self.n_vu[m * 2 + 1].val();
                    self.wxr.d.next = bit_cast::<32, 16>(self.tb16a.val())
                        | (bit_cast::<32, 16>(self.tb16b.val()) << 16);
                }
                if self.wkn.val().get_bits::<2>(0) == 1 {
                    self.tb8a.next = self.n_su[m * 2].val();
                    self.tb8b.next = self.n_su[m * 2 + 1].val();
                    self.wxr.d.next = bit_cast::<32, 8>(self.tb8a.val())
                        | (bit_cast::<32, 8>(self.tb8b.val()) << 8)
                        | 0xFFFF_0000_u64;
                }
                if self.wkn.val().get_bits::<2>(0) == 3 {
                    self.tb16a.next = self.n_lu[m].val();
                    self.wxr.d.next = bit_cast::<32, 16>(self.tb16a.val()) | 0xFFFF_0000_u64;
                }
            }
        }
        self.wx.next = !self.wxr.q.val();
        for n in 0..8 {
            self.tb4a.next = self.wx.val().get_bits::<4>(n * 4);
            self.tb3a.next = 0.into();
            if self.tb4a.val().get_bit(0)
                ^ self.tb4a.val().get_bit(1)
                ^ self.tb4a.val().get_bit(2)
                ^ self.tb4a.val().get_bit(3)
            {
                self.tb3a.next = 1.into();
            }
            if self.tb4a.val().all() {
                self.tb3a.next = 4.into();
            } else {
                if (self.tb4a.val() & (self.tb4a.val() - 1)).any() {
                    self.tb3a.next = self.tb3a.val() | 2;
                }
            }
            self.nib[n].next = bit_cast::<6, 3>(self.tb3a.val());
        }
        self.sf.d.next = ((self.nib[0].val() + self.nib[1].val())
            + (self.nib[2].val() + self.nib[3].val()))
            + ((self.nib[4].val() + self.nib[5].val()) + (self.nib[6].val() + self.nib[7].val()));
        if self.wk.q.val().get_bits::<2>(0) == 2 {
            self.tb3a.next = self.w_used[0].q.val();
            self.tb3b.next = self.w_used[1].q.val();
            if self.wk.q.val().get_bit(2) {
                self.tb3a.next = self.w_used[2].q.val();
                self.tb3b.next = self.w_used[3].q.val();
            }
            self.sf.d.next = bits::<6>(8)
                - bit_cast::<6, 3>(self.tb3a.val())
                - bit_cast::<6, 3>(self.tb3b.val());
        }
        self.sa.d.next = 0.into();
        for h in 0..4 {
            if self.wk.q.val().get_bits::<2>(0).index() == h {
                self.sa.d.next = self.fweights.val().get_bits::<4>(h * 4);
            }
        }
        self.sk.d.next = self.wk.q.val();
        self.wk.d.next = self.wk.q.val() + 1;
        for b in 0..4 {
            self.pterm[b].next = 0.into();
            self.sh_a.next = b.to_bits();
            if self.sa.q.val().get_bit(b) {
                self.tb6.next = self.sf.q.val();
                self.pterm[b].next = bit_cast::<10, 6>(self.tb6.val()) << self.sh_a.val();
            }
        }
        self.sp.d.next = (self.pterm[0].val() + self.pterm[1].val())
            + (self.pterm[2].val() + self.pterm[3].val());
        self.spk.d.next = self.sk.q.val();
        self.tb10.next = self.sp.q.val();
        self.acc12.next = bit_cast::<12, 10>(self.tb10.val());
        for m in 0..2 {
            if self.spk.q.val().get_bit(2) == (m == 1) {
                if self.spk.q.val().get_bits::<2>(0).any() {
                    self.acc12b.next = self.wacc[m].q.val() + self.acc12.val();
                } else {
                    self.acc12b.next = self.acc12.val();
                }
                self.wacc[m].d.next = self.acc12b.val();
            }
        }
        if self.spk.q.val() == 7 {
            self.pwf.d.next = self.acc12b.val() > self.wacc[0].q.val();
        }

        // ---- completion and config errors; config write ----
        self.done_err.next = 0.into();
        if self.done_valid.val() & !self.done_ok.val() {
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
                    self.thresh_x.d.next = self.cfg_data.val() ^ 256;
                    self.thr_m1x.d.next = self.tm1d.val() ^ 255;
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
                    self.fweights_x.d.next = self.cfg_data.val() ^ 0x1111;
                }
                if self.cfg_addr.val() == 7 {
                    self.pweights_x.d.next = self.cfg_data.val() ^ 0x1111;
                }
                if self.cfg_addr.val() == 8 {
                    self.nx_x.d.next = self.cfg_data.val() ^ 1024;
                }
            }
        }

        // ---- the registered record (of the decision committed now) and error of this cycle ----
        self.o_valid.d.next = self.pv.q.val();
        self.o_id.d.next = 0.into();
        self.o_module.d.next = false;
        self.o_slot.d.next = 0.into();
        self.o_sub.d.next = false;
        self.o_waves.d.next = 0.into();
        self.o_vbase.d.next = 0.into();
        self.o_sbase.d.next = 0.into();
        self.o_lbase.d.next = 0.into();
        if self.pv.q.val() {
            self.o_id.d.next = self.pid.q.val();
            self.o_sub.d.next = self.psub.q.val();
            self.o_module.d.next = self.pm.q.val();
            self.o_slot.d.next = self.pslot.q.val();
            self.tb3a.next = self.pq[0].q.val();
            self.tb3b.next = self.pq[1].q.val();
            self.o_waves.d.next =
                bit_cast::<6, 3>(self.tb3a.val()) | (bit_cast::<6, 3>(self.tb3b.val()) << 3);
            self.tb4a.next = self.cv_base[0].val();
            self.tb4b.next = self.cv_base[1].val();
            self.o_vbase.d.next =
                bit_cast::<8, 4>(self.tb4a.val()) | (bit_cast::<8, 4>(self.tb4b.val()) << 4);
            self.tb3a.next = self.cs_base[0].val();
            self.tb3b.next = self.cs_base[1].val();
            self.o_sbase.d.next =
                bit_cast::<6, 3>(self.tb3a.val()) | (bit_cast::<6, 3>(self.tb3b.val()) << 3);
            self.o_lbase.d.next = self.cl_base.val();
        }
        self.o_err.d.next =
            self.push_err.val().any() | self.done_err.val().any() | self.cfg_err.val().any();
        self.o_code.d.next = self.cfg_err.val();
        if self.done_err.val().any() {
            self.o_code.d.next = self.done_err.val();
        }
        if self.push_err.val().any() {
            self.o_code.d.next = self.push_err.val();
        }

        // ---- synchronous reset: the idle state (all-zero storage, see the module doc) ----
        if self.reset.val() {
            self.t_busy.d.next = 0.into();
            self.dq_ok.d.next = false;
            self.policy.d.next = 0.into();
            self.thresh_x.d.next = 0.into();
            self.thr_m1x.d.next = 0.into();
            self.fweights_x.d.next = 0.into();
            self.pweights_x.d.next = 0.into();
            self.nx_x.d.next = 0.into();
            self.win.d.next = 0.into();
            self.win_cnt.d.next = 0.into();
            self.lfsr_x.d.next = 0.into();
            self.marks0.d.next = 0.into();
            self.marks1.d.next = 0.into();
            self.fail_cnt.d.next = 0.into();
            self.thr_hit.d.next = false;
            self.pw_cnt.d.next = 0.into();
            self.p_fit.d.next = 0.into();
            self.p_hv.d.next = 0.into();
            self.hchg.d.next = 0.into();
            self.mx.d.next = 0.into();
            self.sfull.d.next = false;
            self.pv.d.next = false;
            self.wk.d.next = 0.into();
            self.wxr.d.next = 0.into();
            self.sf.d.next = 0.into();
            self.sa.d.next = 0.into();
            self.sk.d.next = 0.into();
            self.sp.d.next = 0.into();
            self.spk.d.next = 0.into();
            self.pwf.d.next = false;
            self.ppw.d.next = 0.into();
            self.o_valid.d.next = false;
            self.o_id.d.next = 0.into();
            self.o_module.d.next = false;
            self.o_slot.d.next = 0.into();
            self.o_sub.d.next = false;
            self.o_waves.d.next = 0.into();
            self.o_vbase.d.next = 0.into();
            self.o_sbase.d.next = 0.into();
            self.o_lbase.d.next = 0.into();
            self.o_err.d.next = false;
            self.o_code.d.next = 0.into();
            for i in 0..4 {
                self.v_used[i].d.next = 0.into();
                self.s_used[i].d.next = 0.into();
                self.w_used[i].d.next = 0.into();
                self.win_len_x[i].d.next = 0.into();
            }
            for i in 0..2 {
                self.f_cnt[i].d.next = 0.into();
                self.split_left[i].d.next = 0.into();
                self.hsub[i].d.next = false;
                self.hmore[i].d.next = false;
                self.hp[i].d.next = 0.into();
                self.hodd[i].d.next = false;
                self.l_used[i].d.next = 0.into();
                self.ptr[i].d.next = false;
                self.pw_cur[i].d.next = 0.into();
                self.pw_prev[i].d.next = 0.into();
                self.wacc[i].d.next = 0.into();
                self.hs[i].d.next = 0.into();
            }
        }
    }
}

/// The board dispatcher as Verilog (module `top`, the exported `dispatcher.v`).
pub fn verilog() -> String {
    let mut uut = Dispatcher::new();
    uut.connect_all();
    generate_verilog(&uut)
}
