//! Thread schedule order generator (SPEC Unit 6, seed 004): orders the threads of a workgroup
//! tile and emits one (x, y) per cycle, with a profiling selector that tries candidate orders on
//! the first workgroups and keeps the best.
//!
//! The behaviour, cycle by cycle, is specified by `golden_model::schedule_gen` (its module doc
//! defines the five orders, the registers, the choice rule and the error codes); this block
//! implements it for the board config (grids up to 16×16) and is checked against it every cycle.
//!
//! ## Ports (the exported module `top` has exactly these, in this order)
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `clock`, `reset` | in | 1 | one clock; synchronous active-high reset |
//! | `cfg_we` | in | 1 | write the configuration registers from `cfg_*` (effective for starts from the next cycle) |
//! | `cfg_mode` | in | 3 | 0 linear, 1 strided, 2 zigzag, 3 tiled, 4 Hilbert (5–7: `BAD_CFG`) |
//! | `cfg_log_w`, `cfg_log_h` | in | 3, 3 | grid 2^w × 2^h, 0–4 |
//! | `cfg_p0`, `cfg_p1` | in | 3, 3 | strided: stride 2^p0, groups of 2^p1 threads; tiled: tile 2^p0 × 2^p1; ignored otherwise |
//! | `start` | in | 1 | strobe: order one workgroup tile |
//! | `out_valid`, `out_ready` | out, in | 1, 1 | coordinate stream; a transfer in every cycle with both high |
//! | `out_x`, `out_y` | out | 4, 4 | the coordinate (0 when `out_valid` is low) |
//! | `out_last` | out | 1 | the final coordinate of the tile |
//! | `busy` | out | 1 | from the cycle after an accepted start to the cycle the last coordinate is taken |
//! | `error`, `error_code` | out | 1, 2 | strobe one cycle after the bad input; 1 `BAD_CFG`, 2 `BUSY`, 3 `NO_PROFILE` |
//! | `cand_we`, `cand_idx` | in | 1, 3 | write candidate `cand_idx` of the profiler table from `cfg_*` (a full configuration, grid included) |
//! | `prof_we`, `prof_k` | in | 1, 4 | write the profiler control: K candidates profiled (0 off, 1–8; 9–15 `BAD_CFG`); restarts profiling |
//! | `prof_force`, `prof_force_idx` | in | 1, 3 | (with `prof_we`) force candidate `prof_force_idx` for every workgroup |
//! | `perf_we`, `perf_value` | in | 1, 16 | performance value (lower is better) of the oldest profiled workgroup without one |
//! | `wg_sel` | out | 4 | configuration of the last accepted start: 0–7 candidate, 8 the `cfg` registers (reset 8) |
//! | `prof_done`, `prof_best` | out | 1, 3 | all K values are in; the winning candidate (lowest value, ties the lower index) |
//!
//! Config writes (`cfg_we`, `cand_we`, `prof_we`) and `start` in a busy cycle are `BUSY`; a
//! configuration that does not fit its grid (or mode > 4, `prof_k` > 8) is `BAD_CFG`; a
//! `perf_we` with no profiled workgroup waiting for its value is `NO_PROFILE`. A refused request
//! changes nothing. With profiling off (reset) the `cfg` registers choose the order.
//!
//! ## Timing
//! `start` accepted in cycle t → first coordinate valid in cycle **t+2** (SPEC: within 2), then
//! one per cycle while `out_ready` is high; a start in the cycle after the last transfer is
//! accepted, so back-to-back tiles leave 2 idle cycles on the stream.
//!
//! A configuration write (`cfg_we`, `cand_we`) accepted in cycle t is registered and decoded
//! into its slot in cycle t+1; **a start in cycle t+1 still sees it** (the decoded word is
//! forwarded to a start whose chosen slot is being written), so to a host every write takes
//! effect for the starts of the following cycles, as before. A start in the same cycle as a
//! write takes the old configuration. `error`/`error_code` strobe in cycle t+1 for a request of
//! cycle t (the fit check runs on the ports; the code is made from three registered flags).
//!
//! ## Structure
//! - **Decoded configurations.** A configuration is stored decoded, as the wiring of the index
//!   counter to the coordinate: for each of the 8 coordinate bits, a one-hot mask of the 8-bit
//!   index k (linear, strided and tiled orders — and the square offsets of Hilbert — are bit
//!   permutations of k), plus the zigzag inversion mask, the Hilbert bits, the Hilbert index
//!   mask, the final swap of the Hilbert curve and the last index. The decoder sits on the write
//!   path, so it costs no cycle at start. Nine slots: the 8 candidates and the `cfg` registers
//!   (3 × 32 bits each, 25 of the third used).
//! - **Write pipeline** (for 100 MHz): in the write cycle the ports are pre-decoded into
//!   registers — per coordinate bit the rule that drives it (`wr_fx`, `wr_fy`), the rules'
//!   offsets "source index bit − coordinate bit" as one-hot words (`wr_o*`), the whole misc word
//!   (`wr_misc`) and the target slots (`wr_oh`); in the next cycle each mask bit is an AND-OR of
//!   those register bits (no adders or compares), written to the slots and forwarded to a
//!   start.
//! - **Start**: the profiler's choice (from registers) selects one slot into the active
//!   configuration, the index counter restarts and stage 1 is primed with index 0, whose
//!   coordinate is (0, 0) in every order — so the first coordinate needs no decode cycle.
//! - **Stage 1** (index k → register): the 8 masked OR-reductions, Hilbert levels 0–1 of
//!   `d2xy` on the masked index, `last` (k = N − 1).
//! - **Stage 2** (→ the output registers): Hilbert levels 2–3, the final swap (the unrolled
//!   `d2xy` always runs 4 levels; each unused top level, fed index bits 00, swaps x and y), the
//!   zigzag inversion and the choice Hilbert / mask bit.
//! - The pipeline stalls as a whole when `out_valid && !out_ready` (no skid buffer needed: both
//!   stages and the counter hold).
//!
//! **Names.** `wr_*`: the write pipeline's registers; `in_*`: the write side's decode of the
//! `cfg_*` ports; `dec_*`: the decode cycle; `ch_*`: the configuration a start takes; `act_*`:
//! the active configuration; `s1_*`: stage-1 registers; `acc_*`: strobes accepted this cycle;
//! `n_X`: the next value of register `X`; `h*`/`rx*`/`ry*`: Hilbert levels. Every scratch
//! signal's doc comment says what it holds.
//!
//! ## Worked example
//! `cfg_we` with mode 4 (Hilbert), log_w 2, log_h 1 (4×2 grid: two 2×2 squares), then `start`
//! in cycle 1: cycles 3–10 carry (0,0) (0,1) (1,1) (1,0) (2,0) (2,1) (3,1) (3,0), `out_last` in
//! cycle 10; `busy` is high in cycles 2–10.
//!
//! ## Cost (board config, iCE40 HX8K, `synth report --only schedule_gen --seeds 1,2,3`)
//! **2307 LCs; 102.5 MHz median of three placement seeds** (98.8, 106.0, 102.5): every seed
//! above 95 MHz, two of three above 100. The write-side pre-decode computes its offsets as one
//! adder level and one subtraction (`8 + D + log_w = (2 log_w + log_h + 8) − (p0 + p1)`),
//! no longer three chained carry chains. The profiler's `take_best` is one 18-bit carry chain
//! (`perf_value` with "no value accepted" above it, against `best_val` with "none reported
//! yet"), whose carry-out alone enables `best` / `best_val`. The critical path of seed 1
//! (10.1 ns) is `reported` → the compare's "none reported yet" bit → the choice one-hot. With
//! the board bridge (`synth build --unit schedule_gen --seeds 1,2,3`, 92.5 MHz) see
//! docs/board_top.md. What each step bought: `docs/schedule_gen.md` (history).

use rust_hdl::prelude::*;

/// Number of configuration slots: 8 candidates and the `cfg` registers (slot 8).
pub const SLOTS: usize = 9;

mod config;
mod construct;

pub use config::{decode, DEFAULT_TABLE};

/// Schedule order generator, board config (grids up to 16×16, 8 candidates).
#[derive(LogicBlock)]
pub struct ScheduleGen {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high: idle, `cfg` = linear 16×16, default table, profiling off.
    pub reset: Signal<In, Bit>,
    /// Write the `cfg` registers (BAD_CFG if the configuration does not fit; BUSY while busy).
    pub cfg_we: Signal<In, Bit>,
    /// Order: 0 linear, 1 strided, 2 zigzag, 3 tiled, 4 Hilbert.
    pub cfg_mode: Signal<In, Bits<3>>,
    /// Grid width 2^cfg_log_w (0–4).
    pub cfg_log_w: Signal<In, Bits<3>>,
    /// Grid height 2^cfg_log_h (0–4).
    pub cfg_log_h: Signal<In, Bits<3>>,
    /// Strided: log2 stride; tiled: log2 tile width.
    pub cfg_p0: Signal<In, Bits<3>>,
    /// Strided: log2 granularity; tiled: log2 tile height.
    pub cfg_p1: Signal<In, Bits<3>>,
    /// Strobe: order one workgroup tile (BUSY while busy).
    pub start: Signal<In, Bit>,
    /// A coordinate is on `out_x`/`out_y`. Register.
    pub out_valid: Signal<Out, Bit>,
    /// The consumer takes the coordinate.
    pub out_ready: Signal<In, Bit>,
    /// Thread x (0 when not valid). Register.
    pub out_x: Signal<Out, Bits<4>>,
    /// Thread y (0 when not valid). Register.
    pub out_y: Signal<Out, Bits<4>>,
    /// The final coordinate of the tile. Register.
    pub out_last: Signal<Out, Bit>,
    /// Emitting (from the cycle after an accepted start to the last transfer). Register.
    pub busy: Signal<Out, Bit>,
    /// Strobe: a request of the previous cycle was refused. From registers (an OR of three flags).
    pub error: Signal<Out, Bit>,
    /// 1 BAD_CFG, 2 BUSY, 3 NO_PROFILE (0 when `error` is low). From registers (BUSY > BAD_CFG > NO_PROFILE).
    pub error_code: Signal<Out, Bits<2>>,
    /// Write candidate `cand_idx` from the `cfg_*` ports.
    pub cand_we: Signal<In, Bit>,
    /// Candidate written by `cand_we`.
    pub cand_idx: Signal<In, Bits<3>>,
    /// Write the profiler control (restarts profiling).
    pub prof_we: Signal<In, Bit>,
    /// Candidates profiled, 0 (off) to 8.
    pub prof_k: Signal<In, Bits<4>>,
    /// Force candidate `prof_force_idx` for every workgroup.
    pub prof_force: Signal<In, Bit>,
    /// The forced candidate.
    pub prof_force_idx: Signal<In, Bits<3>>,
    /// Report a performance value (NO_PROFILE when no profiled workgroup waits for one).
    pub perf_we: Signal<In, Bit>,
    /// The value: cycles or cache misses of the workgroup (lower is better).
    pub perf_value: Signal<In, Bits<16>>,
    /// Configuration of the last accepted start: 0–7 candidate, 8 `cfg` registers. Register.
    pub wg_sel: Signal<Out, Bits<4>>,
    /// All K performance values are in (from registers).
    pub prof_done: Signal<Out, Bit>,
    /// The profiler's winner so far. Register.
    pub prof_best: Signal<Out, Bits<3>>,

    // ---- configuration slots (0–7 candidates, 8 the cfg registers), decoded ----
    /// Per slot: one-hot index-bit masks of out_x bits 0–3 (8 bits each).
    slot_x: [DFFWithInit<Bits<32>>; SLOTS],
    /// Per slot: the same for out_y.
    slot_y: [DFFWithInit<Bits<32>>; SLOTS],
    /// Per slot: zigzag mask, Hilbert bits, Hilbert index mask, swap, last index.
    slot_m: [DFFWithInit<Bits<32>>; SLOTS],
    /// Reset values of the slots.
    init_x: [Constant<Bits<32>>; SLOTS],
    init_y: [Constant<Bits<32>>; SLOTS],
    init_m: [Constant<Bits<32>>; SLOTS],
    /// The accepted configuration write of the previous cycle, pre-decoded; its slot words are
    /// made from these registers (AND-OR of register bits only) and written in this cycle.
    /// One-hot target slots (bit 8 the `cfg` registers, 0 = none).
    wr_oh: DFF<Bits<9>>,
    /// The write of the previous cycle was accepted (fits, not busy): qualifies `wr_oh`.
    wr_ok: DFF<Bit>,
    /// Per coordinate bit b, which rule drives it (bit 4r + b, rule r): x: 0 index bit b,
    /// 1 b + D (strided middle bits, D = L − p0 − p1), 2 b − p0 (strided top bits),
    /// 3 b + p1 (tiled, above the tile), 4 b + ls (Hilbert square number); y: 0 lw + b,
    /// 1 lw + b + D, 2 lw + b − p0, 3 p0 + b (tiled, inside the tile), 4 b + ls. Zero for
    /// bits outside the grid.
    wr_fx: DFF<Bits<20>>,
    wr_fy: DFF<Bits<20>>,
    /// The offsets (source index bit − coordinate bit) of those rules, one-hot with bias 8.
    wr_ox_d: DFF<Bits<16>>,
    wr_ox_np0: DFF<Bits<16>>,
    wr_ox_p1: DFF<Bits<16>>,
    wr_o_ls: DFF<Bits<16>>,
    wr_oy_lw: DFF<Bits<16>>,
    wr_oy_d: DFF<Bits<16>>,
    wr_oy_np0: DFF<Bits<16>>,
    wr_oy_p0: DFF<Bits<16>>,
    /// The misc slot word, fully decoded from the ports.
    wr_misc: DFF<Bits<32>>,
    /// The slot in use by the current tile.
    act_x: DFF<Bits<32>>,
    act_y: DFF<Bits<32>>,
    act_m: DFF<Bits<32>>,

    // ---- profiler ----
    /// K (0 = off).
    prof_kq: DFF<Bits<4>>,
    force_q: DFF<Bit>,
    force_idx_q: DFF<Bits<3>>,
    /// Workgroups started under profiling (≤ K).
    started: DFF<Bits<4>>,
    /// Values reported (≤ started).
    reported: DFF<Bits<4>>,
    /// started − reported as a thermometer (bit i: more than i values wait).
    waiting: DFF<Bits<8>>,
    best: DFF<Bits<3>>,
    best_val: DFF<Bits<16>>,
    /// Reset 8: the cfg registers.
    wg_sel_q: DFFWithInit<Bits<4>>,
    /// The slot a start in this cycle gets (reset 8), one-hot (reset bit 8), and whether it
    /// is a profiled start; made from the previous cycle's next state.
    choice_q: DFFWithInit<Bits<4>>,
    choice_oh: DFFWithInit<Bits<9>>,
    choice_prof: DFF<Bit>,
    /// K > 0 and started < K.
    active: DFF<Bit>,
    /// started + 1 = K.
    last_prof: DFF<Bit>,
    /// K > 0 and reported = K (`prof_done`).
    done: DFF<Bit>,
    /// reported + 1 = K.
    last_rep: DFF<Bit>,

    // ---- stream ----
    busy_q: DFF<Bit>,
    /// More indices to load into stage 1.
    feed: DFF<Bit>,
    /// Next index to load into stage 1.
    idx: DFF<Bits<8>>,
    s1_valid: DFF<Bit>,
    /// Stage 1 holds index 0: coordinate (0, 0).
    s1_zero: DFF<Bit>,
    s1_last: DFF<Bit>,
    /// Masked bits of x and y.
    s1_x: DFF<Bits<4>>,
    s1_y: DFF<Bits<4>>,
    /// Hilbert x, y after levels 0–1, and the index bits of levels 2–3.
    s1_hx: DFF<Bits<2>>,
    s1_hy: DFF<Bits<2>>,
    s1_hd: DFF<Bits<4>>,
    out_valid_q: DFF<Bit>,
    out_x_q: DFF<Bits<4>>,
    out_y_q: DFF<Bits<4>>,
    out_last_q: DFF<Bit>,
    /// The refusals of the previous cycle (the error code is made from them, BUSY > BAD_CFG >
    /// NO_PROFILE, so that the fit check ends in a flip-flop, not in the priority logic).
    err_busy_q: DFF<Bit>,
    err_bad_q: DFF<Bit>,
    err_noprof_q: DFF<Bit>,

    // ---- scratch ----
    /// The configuration on the `cfg_*` ports fits the board grid (mode ≤ 4, log sides ≤ 4, strided/tiled parameters within the grid); low: `BAD_CFG`.
    dec_fits: Signal<Local, Bit>,
    /// Decode cycle: x masks of the write registered last cycle (bit 8b + j: index bit j drives `out_x[b]`), written into the slots named by `wr_oh`.
    dec_x: Signal<Local, Bits<32>>,
    /// Decode cycle: the same for `out_y`.
    dec_y: Signal<Local, Bits<32>>,
    /// Decode cycle: the misc word of that write (`wr_misc`, see [`decode`]).
    dec_m: Signal<Local, Bits<32>>,
    /// The x masks a start in this cycle gets: the chosen slot (`choice_oh`), or the forwarded decode (`ch_fwd`).
    ch_x: Signal<Local, Bits<32>>,
    /// The y masks a start in this cycle gets.
    ch_y: Signal<Local, Bits<32>>,
    /// The misc word a start in this cycle gets.
    ch_m: Signal<Local, Bits<32>>,
    /// The chosen configuration is a 1×1 grid: the primed index 0 is also the last.
    ch_single: Signal<Local, Bit>,
    /// Last cycle's accepted write targets the chosen slot: the start takes the decode (`dec_*`) instead of the slot.
    ch_fwd: Signal<Local, Bit>,
    /// Write side: L = log_w + log_h (index bits of the grid).
    in_l: Signal<Local, Bits<4>>,
    /// Write side: min(log_w, log_h), the log side of the Hilbert squares.
    in_ls: Signal<Local, Bits<3>>,
    /// A configuration write (`cfg_we` / `cand_we` / `prof_we`) is accepted this cycle (not busy, fits).
    acc_wr: Signal<Local, Bit>,
    /// An accepted `perf_value` beats the best so far (or is the first): `best` / `best_val` take it.
    take_best: Signal<Local, Bit>,
    /// Left operand of `take_best`'s one compare: `perf_value`, bit 17 set when no value is
    /// accepted this cycle (then never less).
    tb_a: Signal<Local, Bits<18>>,
    /// Right operand: `best_val`, bit 16 set while no value is reported yet (then always less).
    tb_b: Signal<Local, Bits<18>>,
    /// An accepted start runs a profiled candidate: one more workgroup waits for its value.
    inc_prof: Signal<Local, Bit>,
    /// Next `waiting` (shift register of profiled workgroups without a value).
    n_wait: Signal<Local, Bits<8>>,
    /// Next `wr_oh`: one-hot of the slots the accepted write targets (bit 8: the `cfg` registers).
    n_wr_oh: Signal<Local, Bits<9>>,
    /// Write side: p0 + p1.
    in_s: Signal<Local, Bits<4>>,
    /// Write side: 8 + D for x, D = L − p0 − p1 (the strided order's offset; wraps only for a configuration that does not fit).
    in_d8: Signal<Local, Bits<5>>,
    /// log_h + 8, log_w + log_h + 8, 2 log_w + log_h + 8, p0 + p1 (5 bits).
    in_lh8: Signal<Local, Bits<5>>,
    /// Write side: log_w + log_h + 8.
    in_l8: Signal<Local, Bits<5>>,
    /// Write side: 2·log_w + log_h + 8.
    in_y8: Signal<Local, Bits<5>>,
    /// Write side: p0 + p1 on 5 bits.
    in_s5: Signal<Local, Bits<5>>,
    /// Write side: 8 + D + log_w, the strided y offset.
    in_yd8: Signal<Local, Bits<5>>,
    /// Write side: mode linear or zigzag (mask bits are index bits in order).
    in_lin: Signal<Local, Bit>,
    /// Write side: mode strided.
    in_str: Signal<Local, Bit>,
    /// Write side: mode tiled.
    in_til: Signal<Local, Bit>,
    /// Write side: mode Hilbert.
    in_hil: Signal<Local, Bit>,
    /// Next `wr_fx`: per x bit, the rule that drives it (one-hot over the rules).
    n_fx: Signal<Local, Bits<20>>,
    /// Next `wr_fy`: the same for y.
    n_fy: Signal<Local, Bits<20>>,
    /// Next `wr_misc`: the misc word (zigzag mask, Hilbert bits, Hilbert index mask, final swap, last index).
    n_misc: Signal<Local, Bits<32>>,
    /// Next `wr_ox_d`: one-hot of the x rule offset 8 + D.
    n_ox_d: Signal<Local, Bits<16>>,
    /// Next `wr_ox_np0`: one-hot of the x rule offset 8 − p0.
    n_ox_np0: Signal<Local, Bits<16>>,
    /// Next `wr_ox_p1`: one-hot of the x rule offset 8 + p1.
    n_ox_p1: Signal<Local, Bits<16>>,
    /// Next `wr_o_ls`: one-hot of the Hilbert square offset 8 + min(log_w, log_h).
    n_o_ls: Signal<Local, Bits<16>>,
    /// Next `wr_oy_lw`: one-hot of the y rule offset 8 + log_w.
    n_oy_lw: Signal<Local, Bits<16>>,
    /// Next `wr_oy_d`: one-hot of the y rule offset 8 + D + log_w.
    n_oy_d: Signal<Local, Bits<16>>,
    /// Next `wr_oy_np0`: one-hot of the y rule offset 8 + log_w − p0.
    n_oy_np0: Signal<Local, Bits<16>>,
    /// Next `wr_oy_p0`: one-hot of the y rule offset 8 + p0.
    n_oy_p0: Signal<Local, Bits<16>>,
    /// `start` is accepted this cycle (not busy).
    acc_start: Signal<Local, Bit>,
    /// `perf_we` is accepted this cycle (a profiled workgroup waits for its value).
    acc_perf: Signal<Local, Bit>,
    /// `prof_we` is accepted this cycle (not busy, `prof_k` ≤ 8).
    acc_prof: Signal<Local, Bit>,
    /// Next `started` (profiled workgroups started).
    n_started: Signal<Local, Bits<4>>,
    /// Next `reported` (profiled workgroups with a value).
    n_reported: Signal<Local, Bits<4>>,
    /// Next `best` (the winning candidate so far).
    n_best: Signal<Local, Bits<3>>,
    /// Next `best_val` (its value).
    n_best_val: Signal<Local, Bits<16>>,
    /// Next `active` (profiling still starts candidates).
    n_active: Signal<Local, Bit>,
    /// Next `last_prof` (the next profiled start is the K-th).
    n_last_prof: Signal<Local, Bit>,
    /// Next `done` (`prof_done`).
    n_done: Signal<Local, Bit>,
    /// Next `last_rep` (the next value is the K-th).
    n_last_rep: Signal<Local, Bit>,
    /// Next `force_q` (a forced candidate).
    n_force: Signal<Local, Bit>,
    /// Next `force_idx_q`.
    n_fidx: Signal<Local, Bits<3>>,
    /// Next `prof_kq` (K).
    n_k: Signal<Local, Bits<4>>,
    /// Next `choice_q`: the slot the next start takes (0–7 candidate, 8 the `cfg` registers).
    n_choice: Signal<Local, Bits<4>>,
    /// Next `choice_oh`: one-hot of `n_choice`.
    n_choice_oh: Signal<Local, Bits<9>>,
    /// The pipeline advances: the output register is empty or taken this cycle (`!out_valid || out_ready`).
    adv: Signal<Local, Bit>,
    /// Stage 1: the index masked to the bits the Hilbert curve reads.
    kd: Signal<Local, Bits<8>>,
    /// Stage 1: Hilbert level 0 x bit (from `kd[1]`).
    h0x: Signal<Local, Bit>,
    /// Stage 1: Hilbert level 0 y bit (`kd[0] ^ kd[1]`).
    h0y: Signal<Local, Bit>,
    /// Stage 1: Hilbert level 1 quadrant x bit.
    rx1: Signal<Local, Bit>,
    /// Stage 1: Hilbert level 1 quadrant y bit.
    ry1: Signal<Local, Bit>,
    /// Stage 2: Hilbert level 2 quadrant x bit.
    rx2: Signal<Local, Bit>,
    /// Stage 2: Hilbert level 2 quadrant y bit.
    ry2: Signal<Local, Bit>,
    /// Stage 2: Hilbert level 3 quadrant x bit.
    rx3: Signal<Local, Bit>,
    /// Stage 2: Hilbert level 3 quadrant y bit.
    ry3: Signal<Local, Bit>,
    /// Stage 2: x after Hilbert level 2.
    h2x: Signal<Local, Bits<4>>,
    /// Stage 2: y after Hilbert level 2.
    h2y: Signal<Local, Bits<4>>,
    /// Stage 2: x after Hilbert level 3.
    h3x: Signal<Local, Bits<4>>,
    /// Stage 2: y after Hilbert level 3.
    h3y: Signal<Local, Bits<4>>,
    /// Stage 2: the Hilbert x after the final swap.
    hx: Signal<Local, Bits<4>>,
    /// Stage 2: the Hilbert y after the final swap.
    hy: Signal<Local, Bits<4>>,
    /// Stage 2: the x to the output register (zigzag inversion, Hilbert bits chosen).
    fx: Signal<Local, Bits<4>>,
    /// Stage 2: the y to the output register.
    fy: Signal<Local, Bits<4>>,
    /// A profiled workgroup waits for its value (`perf_we` is accepted).
    report_ok: Signal<Local, Bit>,
    /// Stage 1: the x coordinate bits from the masks (OR of the index bits each mask picks).
    n1x: Signal<Local, Bits<4>>,
    /// Stage 1: the y coordinate bits from the masks.
    n1y: Signal<Local, Bits<4>>,
    /// Stage 1: x after Hilbert levels 0–1 (to `s1_hx`).
    n1hx: Signal<Local, Bits<2>>,
    /// Stage 1: y after Hilbert levels 0–1 (to `s1_hy`).
    n1hy: Signal<Local, Bits<2>>,
    /// The error code shown this cycle, from the three registered flags.
    err: Signal<Local, Bits<2>>,
}

impl Logic for ScheduleGen {
    #[hdl_gen]
    fn update(&mut self) {
        // ---- defaults: every register holds ----
        dff_setup!(
            self,
            clock,
            wr_oh,
            wr_ok,
            wr_fx,
            wr_fy,
            wr_ox_d,
            wr_ox_np0,
            wr_ox_p1,
            wr_o_ls,
            wr_oy_lw,
            wr_oy_d,
            wr_oy_np0,
            wr_oy_p0,
            wr_misc,
            act_x,
            act_y,
            act_m,
            prof_kq,
            force_q,
            force_idx_q,
            started,
            reported,
            waiting,
            best,
            best_val,
            wg_sel_q,
            choice_q,
            choice_oh,
            choice_prof,
            active,
            last_prof,
            done,
            last_rep,
            busy_q,
            feed,
            idx,
            s1_valid,
            s1_zero,
            s1_last,
            s1_x,
            s1_y,
            s1_hx,
            s1_hy,
            s1_hd,
            out_valid_q,
            out_x_q,
            out_y_q,
            out_last_q,
            err_busy_q,
            err_bad_q,
            err_noprof_q
        );
        for s in 0..SLOTS {
            self.slot_x[s].clock.next = self.clock.val();
            self.slot_x[s].d.next = self.slot_x[s].q.val();
            self.slot_y[s].clock.next = self.clock.val();
            self.slot_y[s].d.next = self.slot_y[s].q.val();
            self.slot_m[s].clock.next = self.clock.val();
            self.slot_m[s].d.next = self.slot_m[s].q.val();
        }

        // ---- outputs (registers) ----
        self.out_valid.next = self.out_valid_q.q.val();
        self.out_x.next = self.out_x_q.q.val();
        self.out_y.next = self.out_y_q.q.val();
        self.out_last.next = self.out_last_q.q.val();
        self.busy.next = self.busy_q.q.val();
        self.err.next = 0.into();
        if self.err_noprof_q.q.val() {
            self.err.next = 3.into();
        }
        if self.err_bad_q.q.val() {
            self.err.next = 1.into();
        }
        if self.err_busy_q.q.val() {
            self.err.next = 2.into();
        }
        self.error.next =
            self.err_busy_q.q.val() || self.err_bad_q.q.val() || self.err_noprof_q.q.val();
        self.error_code.next = self.err.val();
        self.wg_sel.next = self.wg_sel_q.q.val();
        self.prof_best.next = self.best.q.val();
        self.prof_done.next = self.done.q.val();

        // ---- fit check of the configuration on the cfg_* ports (cfg_we / cand_we): small
        // compares, so BAD_CFG still strobes one cycle after the write ----
        // L = log_w + log_h, ls = min(log_w, log_h) (side of the Hilbert squares)
        self.in_l.next =
            bit_cast::<4, 3>(self.cfg_log_w.val()) + bit_cast::<4, 3>(self.cfg_log_h.val());
        self.in_ls.next = self.cfg_log_h.val();
        if self.cfg_log_w.val() < self.cfg_log_h.val() {
            self.in_ls.next = self.cfg_log_w.val();
        }
        self.dec_fits.next = (self.cfg_mode.val().index() <= 4)
            && (self.cfg_log_w.val().index() <= 4)
            && (self.cfg_log_h.val().index() <= 4);
        if self.cfg_mode.val().index() == 1
            && (self.cfg_p0.val().index() + self.cfg_p1.val().index() > self.in_l.val().index())
        {
            self.dec_fits.next = false;
        }
        if self.cfg_mode.val().index() == 3
            && ((self.cfg_p0.val() > self.cfg_log_w.val())
                || (self.cfg_p1.val() > self.cfg_log_h.val()))
        {
            self.dec_fits.next = false;
        }
        // ---- pre-decode on the write side: for each coordinate bit, the rule that drives it
        // and the rules' offsets (one-hot), so that the decode cycle only ANDs register bits ----
        self.in_lin.next = self.cfg_mode.val().index() == 0 || self.cfg_mode.val().index() == 2;
        self.in_str.next = self.cfg_mode.val().index() == 1;
        self.in_til.next = self.cfg_mode.val().index() == 3;
        self.in_hil.next = self.cfg_mode.val().index() == 4;
        self.in_s.next = bit_cast::<4, 3>(self.cfg_p0.val()) + bit_cast::<4, 3>(self.cfg_p1.val());
        // 8 + D, D = L - p0 - p1 (wraps only for configurations that do not fit)
        // (one adder level, then one subtraction: lh + 8 is lh with bit 3 set, and
        // 8 + D + log_w = (2 log_w + log_h + 8) - (p0 + p1))
        self.in_lh8.next = bit_cast::<5, 3>(self.cfg_log_h.val()).replace_bit(3, true);
        self.in_l8.next = bit_cast::<5, 3>(self.cfg_log_w.val()) + self.in_lh8.val();
        self.in_y8.next = (bit_cast::<5, 3>(self.cfg_log_w.val()) << 1) + self.in_lh8.val();
        self.in_s5.next = bit_cast::<5, 3>(self.cfg_p0.val()) + bit_cast::<5, 3>(self.cfg_p1.val());
        self.in_d8.next = self.in_l8.val() - self.in_s5.val();
        self.in_yd8.next = self.in_y8.val() - self.in_s5.val();
        self.n_ox_d.next = 0.into();
        self.n_ox_np0.next = 0.into();
        self.n_ox_p1.next = 0.into();
        self.n_o_ls.next = 0.into();
        self.n_oy_lw.next = 0.into();
        self.n_oy_d.next = 0.into();
        self.n_oy_np0.next = 0.into();
        self.n_oy_p0.next = 0.into();
        // only the bits the decode reads (8 + j - b, 5..15) and each offset can reach
        for k in 5..16 {
            if self.in_d8.val().index() == k {
                self.n_ox_d.next = self.n_ox_d.val().replace_bit(k, true);
            }
            if self.in_yd8.val().index() == k {
                self.n_oy_d.next = self.n_oy_d.val().replace_bit(k, true);
            }
        }
        for k in 5..9 {
            if self.cfg_p0.val().index() + k == 8 {
                self.n_ox_np0.next = self.n_ox_np0.val().replace_bit(k, true);
            }
        }
        for k in 5..13 {
            if self.cfg_p0.val().index() + k == self.cfg_log_w.val().index() + 8 {
                self.n_oy_np0.next = self.n_oy_np0.val().replace_bit(k, true);
            }
        }
        for k in 8..16 {
            if self.cfg_p1.val().index() + 8 == k {
                self.n_ox_p1.next = self.n_ox_p1.val().replace_bit(k, true);
            }
            if self.cfg_p0.val().index() + 8 == k {
                self.n_oy_p0.next = self.n_oy_p0.val().replace_bit(k, true);
            }
        }
        for k in 8..13 {
            if self.in_ls.val().index() + 8 == k {
                self.n_o_ls.next = self.n_o_ls.val().replace_bit(k, true);
            }
            if self.cfg_log_w.val().index() + 8 == k {
                self.n_oy_lw.next = self.n_oy_lw.val().replace_bit(k, true);
            }
        }
        // the rule of each coordinate bit (strided: thread bits [t: p1][r: p0][q] come from
        // position bits [t][q][r]; tiled: [x in tile: p0][y in tile: p1][tile x][tile y])
        self.n_fx.next = 0.into();
        self.n_fy.next = 0.into();
        for b in 0..4 {
            // x bit b is thread bit b
            if b < self.cfg_log_w.val().index() {
                if self.in_lin.val()
                    || (self.in_str.val() && b < self.cfg_p1.val().index())
                    || (self.in_til.val() && b < self.cfg_p0.val().index())
                {
                    self.n_fx.next = self.n_fx.val().replace_bit(b, true);
                }
                if self.in_str.val()
                    && b >= self.cfg_p1.val().index()
                    && b < self.in_s.val().index()
                {
                    self.n_fx.next = self.n_fx.val().replace_bit(4 + b, true);
                }
                if self.in_str.val() && b >= self.in_s.val().index() {
                    self.n_fx.next = self.n_fx.val().replace_bit(8 + b, true);
                }
                if self.in_til.val() && b >= self.cfg_p0.val().index() {
                    self.n_fx.next = self.n_fx.val().replace_bit(12 + b, true);
                }
                if self.in_hil.val() && b >= self.in_ls.val().index() {
                    self.n_fx.next = self.n_fx.val().replace_bit(16 + b, true);
                }
            }
            // y bit b is thread bit lw + b
            if b < self.cfg_log_h.val().index() {
                if self.in_lin.val()
                    || (self.in_str.val()
                        && self.cfg_log_w.val().index() + b < self.cfg_p1.val().index())
                    || (self.in_til.val() && b >= self.cfg_p1.val().index())
                {
                    self.n_fy.next = self.n_fy.val().replace_bit(b, true);
                }
                if self.in_str.val()
                    && self.cfg_log_w.val().index() + b >= self.cfg_p1.val().index()
                    && self.cfg_log_w.val().index() + b < self.in_s.val().index()
                {
                    self.n_fy.next = self.n_fy.val().replace_bit(4 + b, true);
                }
                if self.in_str.val() && self.cfg_log_w.val().index() + b >= self.in_s.val().index()
                {
                    self.n_fy.next = self.n_fy.val().replace_bit(8 + b, true);
                }
                if self.in_til.val() && b < self.cfg_p1.val().index() {
                    self.n_fy.next = self.n_fy.val().replace_bit(12 + b, true);
                }
                if self.in_hil.val() && b >= self.in_ls.val().index() {
                    self.n_fy.next = self.n_fy.val().replace_bit(16 + b, true);
                }
            }
        }
        // misc word: zigzag mask [3:0], Hilbert bits [7:4], Hilbert index mask [15:8],
        // final swap [16], last index [24:17]
        self.n_misc.next = 0.into();
        for b in 0..4 {
            if self.cfg_mode.val().index() == 2 && b < self.cfg_log_w.val().index() {
                self.n_misc.next = self.n_misc.val().replace_bit(b, true);
            }
            if self.in_hil.val() && b < self.in_ls.val().index() {
                self.n_misc.next = self.n_misc.val().replace_bit(4 + b, true);
            }
        }
        for j in 0..8 {
            if self.in_hil.val() && j < 2 * self.in_ls.val().index() {
                self.n_misc.next = self.n_misc.val().replace_bit(8 + j, true);
            }
            if j < self.in_l.val().index() {
                self.n_misc.next = self.n_misc.val().replace_bit(17 + j, true);
            }
        }
        if self.in_hil.val() && self.in_ls.val().get_bit(0) {
            self.n_misc.next = self.n_misc.val().replace_bit(16, true);
        }

        // ---- decode the write registered in the previous cycle into slot words: mask bit
        // 8b + j (index bit j drives coordinate bit b) = some rule of bit b with offset j - b;
        // the slots named by wr_oh take them at the end of this cycle ----
        self.dec_x.next = 0.into();
        self.dec_y.next = 0.into();
        for b in 0..4 {
            for j in 0..8 {
                if (j == b && self.wr_fx.q.val().get_bit(b))
                    || (self.wr_fx.q.val().get_bit(4 + b)
                        && self.wr_ox_d.q.val().get_bit(8 + j - b))
                    || (self.wr_fx.q.val().get_bit(8 + b)
                        && self.wr_ox_np0.q.val().get_bit(8 + j - b))
                    || (self.wr_fx.q.val().get_bit(12 + b)
                        && self.wr_ox_p1.q.val().get_bit(8 + j - b))
                    || (self.wr_fx.q.val().get_bit(16 + b)
                        && self.wr_o_ls.q.val().get_bit(8 + j - b))
                {
                    self.dec_x.next = self.dec_x.val().replace_bit(8 * b + j, true);
                }
                if (self.wr_fy.q.val().get_bit(b) && self.wr_oy_lw.q.val().get_bit(8 + j - b))
                    || (self.wr_fy.q.val().get_bit(4 + b)
                        && self.wr_oy_d.q.val().get_bit(8 + j - b))
                    || (self.wr_fy.q.val().get_bit(8 + b)
                        && self.wr_oy_np0.q.val().get_bit(8 + j - b))
                    || (self.wr_fy.q.val().get_bit(12 + b)
                        && self.wr_oy_p0.q.val().get_bit(8 + j - b))
                    || (self.wr_fy.q.val().get_bit(16 + b)
                        && self.wr_o_ls.q.val().get_bit(8 + j - b))
                {
                    self.dec_y.next = self.dec_y.val().replace_bit(8 * b + j, true);
                }
            }
        }
        self.dec_m.next = self.wr_misc.q.val();

        // ---- the slot a start in this cycle gets: the choice is registered a cycle ahead ----
        self.ch_x.next = 0.into();
        self.ch_y.next = 0.into();
        self.ch_m.next = 0.into();
        self.ch_single.next = false;
        for s in 0..SLOTS {
            if self.choice_oh.q.val().get_bit(s) {
                self.ch_x.next = self.ch_x.val() | self.slot_x[s].q.val();
                self.ch_y.next = self.ch_y.val() | self.slot_y[s].q.val();
                self.ch_m.next = self.ch_m.val() | self.slot_m[s].q.val();
                // a 1x1 grid: the primed index 0 is also the last
                if !self.slot_m[s].q.val().get_bit(17) {
                    self.ch_single.next = true;
                }
            }
        }
        // a write of the previous cycle to the chosen slot is forwarded: a start always sees
        // every write made before it
        self.ch_fwd.next =
            self.wr_ok.q.val() && (self.choice_oh.q.val() & self.wr_oh.q.val()).any();
        if self.ch_fwd.val() {
            self.ch_x.next = self.dec_x.val();
            self.ch_y.next = self.dec_y.val();
            self.ch_m.next = self.dec_m.val();
            self.ch_single.next = !self.dec_m.val().get_bit(17);
        }
        // ---- stage 1: index -> masked bits, Hilbert levels 0-1, last ----
        self.kd.next = self.idx.q.val() & self.act_m.q.val().get_bits::<8>(8);
        self.h0x.next = self.kd.val().get_bit(1);
        self.h0y.next = self.kd.val().get_bit(0) ^ self.kd.val().get_bit(1);
        self.rx1.next = self.kd.val().get_bit(3);
        self.ry1.next = self.kd.val().get_bit(2) ^ self.kd.val().get_bit(3);

        self.n1x.next = 0.into();
        self.n1y.next = 0.into();
        for b in 0..4 {
            if (self.idx.q.val() & self.act_x.q.val().get_bits::<8>(8 * b)).any() {
                self.n1x.next = self.n1x.val().replace_bit(b, true);
            }
            if (self.idx.q.val() & self.act_y.q.val().get_bits::<8>(8 * b)).any() {
                self.n1y.next = self.n1y.val().replace_bit(b, true);
            }
        }
        // level 1 (s = 2): rotate the 1-bit quadrant of level 0, then set bit 1
        self.n1hx.next = 0.into();
        self.n1hy.next = 0.into();
        if self.ry1.val() {
            self.n1hx.next = self.n1hx.val().replace_bit(0, self.h0x.val());
            self.n1hy.next = self.n1hy.val().replace_bit(0, self.h0y.val());
        } else {
            self.n1hx.next = self
                .n1hx
                .val()
                .replace_bit(0, self.h0y.val() ^ self.rx1.val());
            self.n1hy.next = self
                .n1hy
                .val()
                .replace_bit(0, self.h0x.val() ^ self.rx1.val());
        }
        self.n1hx.next = self.n1hx.val().replace_bit(1, self.rx1.val());
        self.n1hy.next = self.n1hy.val().replace_bit(1, self.ry1.val());

        // ---- stage 2: Hilbert levels 2-3, final swap, zigzag, choice ----
        self.rx2.next = self.s1_hd.q.val().get_bit(1);
        self.ry2.next = self.s1_hd.q.val().get_bit(0) ^ self.s1_hd.q.val().get_bit(1);
        self.rx3.next = self.s1_hd.q.val().get_bit(3);
        self.ry3.next = self.s1_hd.q.val().get_bit(2) ^ self.s1_hd.q.val().get_bit(3);
        // level 2 (s = 4): rotate the 2-bit quadrant, then set bit 2
        self.h2x.next = bit_cast::<4, 2>(self.s1_hx.q.val());
        self.h2y.next = bit_cast::<4, 2>(self.s1_hy.q.val());
        if !self.ry2.val() {
            if self.rx2.val() {
                self.h2x.next = bit_cast::<4, 2>(!self.s1_hy.q.val());
                self.h2y.next = bit_cast::<4, 2>(!self.s1_hx.q.val());
            } else {
                self.h2x.next = bit_cast::<4, 2>(self.s1_hy.q.val());
                self.h2y.next = bit_cast::<4, 2>(self.s1_hx.q.val());
            }
        }
        self.h2x.next = self.h2x.val().replace_bit(2, self.rx2.val());
        self.h2y.next = self.h2y.val().replace_bit(2, self.ry2.val());
        // level 3 (s = 8)
        self.h3x.next = self.h2x.val();
        self.h3y.next = self.h2y.val();
        if !self.ry3.val() {
            if self.rx3.val() {
                self.h3x.next = !self.h2y.val();
                self.h3y.next = !self.h2x.val();
            } else {
                self.h3x.next = self.h2y.val();
                self.h3y.next = self.h2x.val();
            }
        }
        self.h3x.next = self.h3x.val().replace_bit(3, self.rx3.val());
        self.h3y.next = self.h3y.val().replace_bit(3, self.ry3.val());
        // unused top levels (fed 00) each swapped x and y: undo an odd number of swaps
        self.hx.next = self.h3x.val();
        self.hy.next = self.h3y.val();
        if self.act_m.q.val().get_bit(16) {
            self.hx.next = self.h3y.val();
            self.hy.next = self.h3x.val();
        }
        // zigzag: x bits inverted on odd rows; Hilbert bits replace the mask bits
        self.fx.next = self.s1_x.q.val();
        if self.s1_y.q.val().get_bit(0) {
            self.fx.next = self.s1_x.q.val() ^ self.act_m.q.val().get_bits::<4>(0);
        }
        self.fy.next = self.s1_y.q.val();
        for b in 0..4 {
            if self.act_m.q.val().get_bit(4 + b) {
                self.fx.next = self.fx.val().replace_bit(b, self.hx.val().get_bit(b));
                self.fy.next = self.fy.val().replace_bit(b, self.hy.val().get_bit(b));
            }
        }
        if self.s1_zero.q.val() || !self.s1_valid.q.val() {
            self.fx.next = 0.into();
            self.fy.next = 0.into();
        }

        // ---- advance the pipeline unless the output is stalled ----
        self.adv.next = !self.out_valid_q.q.val() || self.out_ready.val();
        if self.adv.val() {
            self.out_valid_q.d.next = self.s1_valid.q.val();
            self.out_x_q.d.next = self.fx.val();
            self.out_y_q.d.next = self.fy.val();
            self.out_last_q.d.next = self.s1_valid.q.val() && self.s1_last.q.val();
            self.s1_valid.d.next = self.feed.q.val();
            self.s1_zero.d.next = false;
            if self.feed.q.val() {
                self.s1_x.d.next = self.n1x.val();
                self.s1_y.d.next = self.n1y.val();
                self.s1_hx.d.next = self.n1hx.val();
                self.s1_hy.d.next = self.n1hy.val();
                self.s1_hd.d.next = self.kd.val().get_bits::<4>(4);
                self.s1_last.d.next = self.idx.q.val() == self.act_m.q.val().get_bits::<8>(17);
                self.feed.d.next = self.idx.q.val() != self.act_m.q.val().get_bits::<8>(17);
                self.idx.d.next = self.idx.q.val() + 1;
            }
        }
        if self.out_valid_q.q.val() && self.out_ready.val() && self.out_last_q.q.val() {
            self.busy_q.d.next = false;
        }

        // ---- requests (judged against the start-of-cycle state) ----
        self.acc_start.next = self.start.val() && !self.busy_q.q.val();
        self.report_ok.next = self.waiting.q.val().get_bit(0);
        self.acc_perf.next = self.perf_we.val() && self.report_ok.val();
        self.acc_prof.next =
            self.prof_we.val() && !self.busy_q.q.val() && (self.prof_k.val().index() <= 8);
        // start: load the chosen slot, prime stage 1 with index 0 = (0, 0)
        if self.acc_start.val() {
            self.act_x.d.next = self.ch_x.val();
            self.act_y.d.next = self.ch_y.val();
            self.act_m.d.next = self.ch_m.val();
            self.busy_q.d.next = true;
            self.s1_valid.d.next = true;
            self.s1_zero.d.next = true;
            self.s1_last.d.next = self.ch_single.val();
            self.feed.d.next = !self.ch_single.val();
            self.idx.d.next = 1.into();
            self.wg_sel_q.d.next = self.choice_q.q.val();
        }
        // configuration writes: the previous cycle's write lands in its slots now; this
        // cycle's fitting write is registered (raw fields, one-hot targets) for decoding
        for s in 0..SLOTS {
            if self.wr_ok.q.val() && self.wr_oh.q.val().get_bit(s) {
                self.slot_x[s].d.next = self.dec_x.val();
                self.slot_y[s].d.next = self.dec_y.val();
                self.slot_m[s].d.next = self.dec_m.val();
            }
        }
        self.wr_fx.d.next = self.n_fx.val();
        self.wr_fy.d.next = self.n_fy.val();
        self.wr_ox_d.d.next = self.n_ox_d.val();
        self.wr_ox_np0.d.next = self.n_ox_np0.val();
        self.wr_ox_p1.d.next = self.n_ox_p1.val();
        self.wr_o_ls.d.next = self.n_o_ls.val();
        self.wr_oy_lw.d.next = self.n_oy_lw.val();
        self.wr_oy_d.d.next = self.n_oy_d.val();
        self.wr_oy_np0.d.next = self.n_oy_np0.val();
        self.wr_oy_p0.d.next = self.n_oy_p0.val();
        self.wr_misc.d.next = self.n_misc.val();
        self.acc_wr.next = !self.busy_q.q.val()
            && (self.cfg_we.val() || self.cand_we.val())
            && self.dec_fits.val();
        // the target slots do not wait for the fit check: `wr_ok` qualifies them
        self.n_wr_oh.next = 0.into();
        if self.cfg_we.val() {
            self.n_wr_oh.next = self.n_wr_oh.val().replace_bit(8, true);
        }
        for s in 0..8 {
            if self.cand_we.val() && self.cand_idx.val().index() == s {
                self.n_wr_oh.next = self.n_wr_oh.val().replace_bit(s, true);
            }
        }
        self.wr_oh.d.next = self.n_wr_oh.val();
        self.wr_ok.d.next = self.acc_wr.val();
        // refusals (the code is made from these flags in the next cycle; busy wins there)
        self.err_bad_q.d.next = ((self.cfg_we.val() || self.cand_we.val()) && !self.dec_fits.val())
            || (self.prof_we.val() && (self.prof_k.val().index() > 8));
        self.err_noprof_q.d.next = self.perf_we.val() && !self.report_ok.val();

        // ---- profiler next state ([0039]-[0048]); the choice for the next cycle's start is
        // made from it, so that a start only selects a registered one-hot slot ----
        self.n_started.next = self.started.q.val();
        self.n_reported.next = self.reported.q.val();
        self.n_best.next = self.best.q.val();
        self.n_best_val.next = self.best_val.q.val();
        self.n_active.next = self.active.q.val();
        self.n_last_prof.next = self.last_prof.q.val();
        self.n_done.next = self.done.q.val();
        self.n_last_rep.next = self.last_rep.q.val();
        self.n_force.next = self.force_q.q.val();
        self.n_fidx.next = self.force_idx_q.q.val();
        self.n_k.next = self.prof_kq.q.val();
        // [0040]-[0043]: a profiled start moves to the next candidate
        if self.acc_start.val() && self.choice_prof.q.val() {
            self.n_started.next = self.started.q.val() + 1;
            self.n_last_prof.next = (self.started.q.val() + 2) == self.prof_kq.q.val();
            if self.last_prof.q.val() {
                self.n_active.next = false;
            }
        }
        // [0044]: the value of the oldest profiled workgroup without one; lowest wins, ties
        // keep the lower index (reported first)
        // one 18-bit carry chain, so that nothing but the chain's carry-out is late:
        // acc_perf && (reported == 0 || perf_value < best_val)
        self.tb_a.next = bit_cast::<18, 16>(self.perf_value.val());
        if !self.acc_perf.val() {
            self.tb_a.next = self.tb_a.val().replace_bit(17, true);
        }
        self.tb_b.next = bit_cast::<18, 16>(self.best_val.q.val());
        if !self.reported.q.val().any() {
            self.tb_b.next = self.tb_b.val().replace_bit(16, true);
        }
        self.take_best.next = self.tb_a.val() < self.tb_b.val();
        // (take_best implies acc_perf: the enable of best / best_val is the carry-out alone)
        if self.take_best.val() {
            self.n_best.next = self.reported.q.val().get_bits::<3>(0);
            self.n_best_val.next = self.perf_value.val();
        }
        if self.acc_perf.val() {
            self.n_reported.next = self.reported.q.val() + 1;
            self.n_last_rep.next = (self.reported.q.val() + 2) == self.prof_kq.q.val();
            if self.last_rep.q.val() {
                self.n_done.next = true;
            }
        }
        // profiler control: restarts profiling
        if self.acc_prof.val() {
            self.n_k.next = self.prof_k.val();
            self.n_force.next = self.prof_force.val();
            self.n_fidx.next = self.prof_force_idx.val();
            self.n_started.next = 0.into();
            self.n_reported.next = 0.into();
            self.n_best.next = 0.into();
            self.n_best_val.next = 0.into();
            self.n_active.next = self.prof_k.val().any();
            self.n_done.next = false;
            self.n_last_prof.next = self.prof_k.val().index() == 1;
            self.n_last_rep.next = self.prof_k.val().index() == 1;
        }
        self.started.d.next = self.n_started.val();
        // profiled workgroups waiting for a value (started - reported), as a thermometer so
        // that `report_ok` is a flip-flop: up on a profiled start, down on a value
        self.inc_prof.next = self.acc_start.val() && self.choice_prof.q.val();
        self.n_wait.next = self.waiting.q.val();
        if self.inc_prof.val() && !self.acc_perf.val() {
            self.n_wait.next = self.n_wait.val().replace_bit(0, true);
            for i in 1..8 {
                self.n_wait.next = self
                    .n_wait
                    .val()
                    .replace_bit(i, self.waiting.q.val().get_bit(i - 1));
            }
        }
        if self.acc_perf.val() && !self.inc_prof.val() {
            for i in 0..7 {
                self.n_wait.next = self
                    .n_wait
                    .val()
                    .replace_bit(i, self.waiting.q.val().get_bit(i + 1));
            }
            self.n_wait.next = self.n_wait.val().replace_bit(7, false);
        }
        if self.acc_prof.val() {
            self.n_wait.next = 0.into();
        }
        self.waiting.d.next = self.n_wait.val();
        self.reported.d.next = self.n_reported.val();
        self.best.d.next = self.n_best.val();
        self.best_val.d.next = self.n_best_val.val();
        self.active.d.next = self.n_active.val();
        self.last_prof.d.next = self.n_last_prof.val();
        self.done.d.next = self.n_done.val();
        self.last_rep.d.next = self.n_last_rep.val();
        self.force_q.d.next = self.n_force.val();
        self.force_idx_q.d.next = self.n_fidx.val();
        self.prof_kq.d.next = self.n_k.val();
        // the choice: forced, else the next profiled candidate, else the best, else cfg
        self.n_choice.next = 8.into();
        if self.n_force.val() {
            self.n_choice.next = bit_cast::<4, 3>(self.n_fidx.val());
        } else if self.n_active.val() {
            self.n_choice.next = self.n_started.val();
        } else if self.n_done.val() {
            self.n_choice.next = bit_cast::<4, 3>(self.n_best.val());
        }
        self.choice_q.d.next = self.n_choice.val();
        self.choice_prof.d.next = !self.n_force.val() && self.n_active.val();
        // the same choice one-hot, built so that the value compare (take_best) only steers
        // the last mux: the reported and the old best are decoded in parallel
        self.n_choice_oh.next = 0.into();
        for s in 0..8 {
            if self.n_force.val() {
                if self.n_fidx.val().index() == s {
                    self.n_choice_oh.next = self.n_choice_oh.val().replace_bit(s, true);
                }
            } else if self.n_active.val() {
                if self.n_started.val().index() == s {
                    self.n_choice_oh.next = self.n_choice_oh.val().replace_bit(s, true);
                }
            } else if self.n_done.val()
                && ((self.take_best.val() && self.reported.q.val().index() == s)
                    || (!self.take_best.val() && self.best.q.val().index() == s))
            {
                self.n_choice_oh.next = self.n_choice_oh.val().replace_bit(s, true);
            }
        }
        if !self.n_force.val() && !self.n_active.val() && !self.n_done.val() {
            self.n_choice_oh.next = self.n_choice_oh.val().replace_bit(8, true);
        }
        self.choice_oh.d.next = self.n_choice_oh.val();
        self.err_busy_q.d.next = self.busy_q.q.val()
            && (self.cfg_we.val() || self.cand_we.val() || self.prof_we.val() || self.start.val());

        // ---- synchronous reset: the init values of every register ----
        if self.reset.val() {
            for s in 0..SLOTS {
                self.slot_x[s].d.next = self.init_x[s].val();
                self.slot_y[s].d.next = self.init_y[s].val();
                self.slot_m[s].d.next = self.init_m[s].val();
            }
            self.wr_oh.d.next = 0.into();
            self.wr_ok.d.next = false;
            self.act_x.d.next = 0.into();
            self.act_y.d.next = 0.into();
            self.act_m.d.next = 0.into();
            self.prof_kq.d.next = 0.into();
            self.force_q.d.next = false;
            self.force_idx_q.d.next = 0.into();
            self.started.d.next = 0.into();
            self.reported.d.next = 0.into();
            self.waiting.d.next = 0.into();
            self.best.d.next = 0.into();
            self.best_val.d.next = 0.into();
            self.wg_sel_q.d.next = 8.into();
            self.choice_q.d.next = 8.into();
            self.choice_oh.d.next = 256.into();
            self.choice_prof.d.next = false;
            self.active.d.next = false;
            self.last_prof.d.next = false;
            self.done.d.next = false;
            self.last_rep.d.next = false;
            self.busy_q.d.next = false;
            self.feed.d.next = false;
            self.idx.d.next = 0.into();
            self.s1_valid.d.next = false;
            self.s1_zero.d.next = false;
            self.s1_last.d.next = false;
            self.s1_x.d.next = 0.into();
            self.s1_y.d.next = 0.into();
            self.s1_hx.d.next = 0.into();
            self.s1_hy.d.next = 0.into();
            self.s1_hd.d.next = 0.into();
            self.out_valid_q.d.next = false;
            self.out_x_q.d.next = 0.into();
            self.out_y_q.d.next = 0.into();
            self.out_last_q.d.next = false;
            self.err_busy_q.d.next = false;
            self.err_bad_q.d.next = false;
            self.err_noprof_q.d.next = false;
        }
    }
}

/// The board block as Verilog (module `top`, the exported `schedule_gen.v`).
pub fn verilog() -> String {
    let mut uut = ScheduleGen::new();
    uut.connect_all();
    generate_verilog(&uut)
}
