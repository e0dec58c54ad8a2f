//! Thread schedule order generator (SPEC Unit 6, seed 004): orders the threads of a workgroup
//! tile and emits one (x, y) per cycle, with a profiling selector that tries candidate orders on
//! the first workgroups and keeps the best.
//!
//! The behaviour, cycle by cycle, is specified by `golden_model::schedule_gen` (its module doc
//! defines the five orders, the registers, the choice rule and the error codes); this block
//! implements it and is checked against it every cycle. One source, two configs (the model's
//! `SchedConfig::board()` / `full()`): [`ScheduleGen`], grids up to 16×16 (C = 4 coordinate
//! bits, the exported `schedule_gen.v`), and [`FullScheduleGen`], grids up to 64×64 (C = 6:
//! `out_x`/`out_y` 6 bits wide, grid logs 0–6; every other port as below; reset table on 64×64,
//! strided stride 8 and 64).
//!
//! ## Ports (the exported module `top` has exactly these, in this order; widths of the board)
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
//!   counter to the coordinate: for each of the 2C coordinate bits, a one-hot mask of the
//!   2C-bit index k (linear, strided and tiled orders — and the square offsets of Hilbert — are bit
//!   permutations of k), plus the zigzag inversion mask, the Hilbert bits, the Hilbert index
//!   mask, the final swap of the Hilbert curve and the last index. The decoder sits on the write
//!   path, so it costs no cycle at start. Nine slots: the 8 candidates and the `cfg` registers
//!   (board: 3 × 32 bits each, 25 of the third used; full: 72 + 72 + 37 bits).
//! - **Write pipeline** (for 100 MHz): in the write cycle the ports are pre-decoded into
//!   registers — per coordinate bit the rule that drives it (`wr_fx`, `wr_fy`), the rules'
//!   offsets "source index bit − coordinate bit" as one-hot words (`wr_o*`), the whole misc word
//!   (`wr_misc`) and the target slots (`wr_oh`); in the next cycle each mask bit is an AND-OR of
//!   those register bits (no adders or compares), written to the slots and forwarded to a
//!   start.
//! - **Start**: the profiler's choice (from registers) selects one slot into the active
//!   configuration, the index counter restarts and stage 1 is primed with index 0, whose
//!   coordinate is (0, 0) in every order — so the first coordinate needs no decode cycle.
//! - **Stage 1** (index k → register): the 2C masked OR-reductions, Hilbert levels 0 … C/2 − 1
//!   of `d2xy` on the masked index, `last` (k = N − 1).
//! - **Stage 2** (→ the output registers): Hilbert levels C/2 … C − 1, the final swap (the
//!   unrolled `d2xy` always runs C levels; each unused top level, fed index bits 00, swaps x and
//!   y; C is even), the zigzag inversion and the choice Hilbert / mask bit.
//! - The layout offsets that depend on C (misc fields, rule groups, mask starts) are
//!   `Constant`s (`cx1`…`cx4`, `last_at`, `mask_at`): a const generic in a kernel expression
//!   would export as a bare name.
//! - The pipeline stalls as a whole when `out_valid && !out_ready` (no skid buffer needed: both
//!   stages and the counter hold).
//!
//! **Names.** `wr_*`: the write pipeline's registers; `in_*`: the write side's decode of the
//! `cfg_*` ports; `dec_*`: the decode cycle; `ch_*`: the configuration a start takes; `act_*`:
//! the active configuration; `s1_*`: stage-1 registers; `acc_*`: strobes accepted this cycle;
//! `n_X`: the next value of register `X`; `h*`: Hilbert levels. Every scratch
//! signal's doc comment says what it holds.
//!
//! ## Worked example
//! `cfg_we` with mode 4 (Hilbert), log_w 2, log_h 1 (4×2 grid: two 2×2 squares), then `start`
//! in cycle 1: cycles 3–10 carry (0,0) (0,1) (1,1) (1,0) (2,0) (2,1) (3,1) (3,0), `out_last` in
//! cycle 10; `busy` is high in cycles 2–10.
//!
//! ## Cost (board config, iCE40 HX8K, `synth report --only schedule_gen --seeds 1,2,3`)
//! **2312 LCs; 103.4 MHz median of three placement seeds** (103.4, 107.2, 99.9; session 10,
//! the generic `ScheduleGenN` source; 2307 / 102.5 before it): every seed above 95 MHz, two of
//! three above 100. The write-side pre-decode computes its offsets as one
//! adder level and one subtraction (`8 + D + log_w = (2 log_w + log_h + 8) − (p0 + p1)`),
//! no longer three chained carry chains. The profiler's `take_best` is one 18-bit carry chain
//! (`perf_value` with "no value accepted" above it, against `best_val` with "none reported
//! yet"), whose carry-out alone enables `best` / `best_val`. The critical path of seed 1
//! (10.1 ns) is `reported` → the compare's "none reported yet" bit → the choice one-hot. With
//! the board bridge (`synth build --unit schedule_gen --seeds 1,2,3`, 92.5 MHz) see
//! docs/board_top.md. What each step bought: `docs/schedule_gen.md` (history).
//!
//! ## Cost (full config, 64×64, ECP5-85F speed 6, `synth report --target ecp5-85f --full --only schedule_gen_full --seeds 1,2,3 --speeds 6`)
//! **4083 LUT4, 190 CCU2C, 2185 FF; 111.0 MHz median** (111.0, 115.0, 107.8); the critical
//! path is the profiler's `take_best` → choice, as at 16×16.

use rust_hdl::prelude::*;

/// Number of configuration slots: 8 candidates and the `cfg` registers (slot 8).
pub const SLOTS: usize = 9;

mod config;
mod construct;

pub use construct::{full_verilog, verilog};

pub use config::{decode, decode_for, default_table, DEFAULT_TABLE};

/// The board config: grids up to 16×16 (4-bit coordinates, 8-bit index, 32-bit slot words).
pub type ScheduleGen = ScheduleGenN<4, 8, 32, 32, 16, 20>;
/// The full config (the golden model's `SchedConfig::full()`): grids up to 64×64 (6-bit
/// coordinates, 12-bit index, 72-bit mask words, 37-bit misc words).
pub type FullScheduleGen = ScheduleGenN<6, 12, 72, 37, 20, 30>;

/// Schedule order generator for grids up to 2^C × 2^C (C coordinate bits), 8 candidates. The
/// widths below are fixed by C: `I` = 2C index bits, `XW` = C·I bits of one-hot masks per slot
/// word, `MW` ≥ 4C + 1 + I misc bits, `OW` = 8 + I one-hot offset bits (bias 8), `FW` = 5C rule
/// flags. Use the aliases [`ScheduleGen`] (board, 16×16) and [`FullScheduleGen`] (64×64).
#[derive(LogicBlock)]
pub struct ScheduleGenN<
    const C: usize,
    const I: usize,
    const XW: usize,
    const MW: usize,
    const OW: usize,
    const FW: usize,
> {
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
    pub out_x: Signal<Out, Bits<C>>,
    /// Thread y (0 when not valid). Register.
    pub out_y: Signal<Out, Bits<C>>,
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
    slot_x: [DFFWithInit<Bits<XW>>; SLOTS],
    /// Per slot: the same for out_y.
    slot_y: [DFFWithInit<Bits<XW>>; SLOTS],
    /// Per slot: zigzag mask, Hilbert bits, Hilbert index mask, swap, last index.
    slot_m: [DFFWithInit<Bits<MW>>; SLOTS],
    /// Reset values of the slots.
    init_x: [Constant<Bits<XW>>; SLOTS],
    init_y: [Constant<Bits<XW>>; SLOTS],
    init_m: [Constant<Bits<MW>>; SLOTS],
    /// C, the largest grid log (the fit check; 32 bits wide as the literal it replaces, so
    /// that the board's compare synthesizes as before).
    max_log: Constant<Bits<32>>,
    /// C, 2C, 3C, 4C: where rules 1–4 of `wr_fx`/`wr_fy` start; in the misc word, C is the
    /// Hilbert bits, 2C the Hilbert index mask, 4C the final swap.
    cx1: Constant<Bits<8>>,
    cx2: Constant<Bits<8>>,
    cx3: Constant<Bits<8>>,
    cx4: Constant<Bits<8>>,
    /// 4C + 1: the last index in the misc word.
    last_at: Constant<Bits<8>>,
    /// I·b: where the mask of coordinate bit b starts in a slot's x/y word.
    mask_at: [Constant<Bits<8>>; C],
    /// 2^l − 1: the low l bits (Hilbert level l complements only those).
    low: [Constant<Bits<C>>; C],
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
    wr_fx: DFF<Bits<FW>>,
    wr_fy: DFF<Bits<FW>>,
    /// The offsets (source index bit − coordinate bit) of those rules, one-hot with bias 8.
    wr_ox_d: DFF<Bits<OW>>,
    wr_ox_np0: DFF<Bits<OW>>,
    wr_ox_p1: DFF<Bits<OW>>,
    wr_o_ls: DFF<Bits<OW>>,
    wr_oy_lw: DFF<Bits<OW>>,
    wr_oy_d: DFF<Bits<OW>>,
    wr_oy_np0: DFF<Bits<OW>>,
    wr_oy_p0: DFF<Bits<OW>>,
    /// The misc slot word, fully decoded from the ports.
    wr_misc: DFF<Bits<MW>>,
    /// The slot in use by the current tile.
    act_x: DFF<Bits<XW>>,
    act_y: DFF<Bits<XW>>,
    act_m: DFF<Bits<MW>>,

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
    idx: DFF<Bits<I>>,
    s1_valid: DFF<Bit>,
    /// Stage 1 holds index 0: coordinate (0, 0).
    s1_zero: DFF<Bit>,
    s1_last: DFF<Bit>,
    /// Masked bits of x and y.
    s1_x: DFF<Bits<C>>,
    s1_y: DFF<Bits<C>>,
    /// Hilbert x, y after levels 0 … C/2 − 1 (bits above level C/2 − 1 zero), and the masked
    /// index whose bits 2l, 2l + 1 feed the later levels l.
    s1_hx: DFF<Bits<C>>,
    s1_hy: DFF<Bits<C>>,
    s1_hd: DFF<Bits<I>>,
    out_valid_q: DFF<Bit>,
    out_x_q: DFF<Bits<C>>,
    out_y_q: DFF<Bits<C>>,
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
    dec_x: Signal<Local, Bits<XW>>,
    /// Decode cycle: the same for `out_y`.
    dec_y: Signal<Local, Bits<XW>>,
    /// Decode cycle: the misc word of that write (`wr_misc`, see [`decode`]).
    dec_m: Signal<Local, Bits<MW>>,
    /// The x masks a start in this cycle gets: the chosen slot (`choice_oh`), or the forwarded decode (`ch_fwd`).
    ch_x: Signal<Local, Bits<XW>>,
    /// The y masks a start in this cycle gets.
    ch_y: Signal<Local, Bits<XW>>,
    /// The misc word a start in this cycle gets.
    ch_m: Signal<Local, Bits<MW>>,
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
    n_fx: Signal<Local, Bits<FW>>,
    /// Next `wr_fy`: the same for y.
    n_fy: Signal<Local, Bits<FW>>,
    /// Next `wr_misc`: the misc word (zigzag mask, Hilbert bits, Hilbert index mask, final swap, last index).
    n_misc: Signal<Local, Bits<MW>>,
    /// Next `wr_ox_d`: one-hot of the x rule offset 8 + D.
    n_ox_d: Signal<Local, Bits<OW>>,
    /// Next `wr_ox_np0`: one-hot of the x rule offset 8 − p0.
    n_ox_np0: Signal<Local, Bits<OW>>,
    /// Next `wr_ox_p1`: one-hot of the x rule offset 8 + p1.
    n_ox_p1: Signal<Local, Bits<OW>>,
    /// Next `wr_o_ls`: one-hot of the Hilbert square offset 8 + min(log_w, log_h).
    n_o_ls: Signal<Local, Bits<OW>>,
    /// Next `wr_oy_lw`: one-hot of the y rule offset 8 + log_w.
    n_oy_lw: Signal<Local, Bits<OW>>,
    /// Next `wr_oy_d`: one-hot of the y rule offset 8 + D + log_w.
    n_oy_d: Signal<Local, Bits<OW>>,
    /// Next `wr_oy_np0`: one-hot of the y rule offset 8 + log_w − p0.
    n_oy_np0: Signal<Local, Bits<OW>>,
    /// Next `wr_oy_p0`: one-hot of the y rule offset 8 + p0.
    n_oy_p0: Signal<Local, Bits<OW>>,
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
    kd: Signal<Local, Bits<I>>,
    /// Hilbert level l's quadrant x bit (index bit 2l + 1; levels < C/2 in stage 1, from `kd`,
    /// the others in stage 2, from `s1_hd`).
    hrx: [Signal<Local, Bit>; C],
    /// Hilbert level l's quadrant y bit (index bits 2l ^ 2l + 1).
    hry: [Signal<Local, Bit>; C],
    /// Hilbert x after level l (low l + 1 bits; levels < C/2 in stage 1).
    hlx: [Signal<Local, Bits<C>>; C],
    /// Hilbert y after level l.
    hly: [Signal<Local, Bits<C>>; C],
    /// Stage 2: the Hilbert x after the final swap.
    hx: Signal<Local, Bits<C>>,
    /// Stage 2: the Hilbert y after the final swap.
    hy: Signal<Local, Bits<C>>,
    /// Stage 2: the x to the output register (zigzag inversion, Hilbert bits chosen).
    fx: Signal<Local, Bits<C>>,
    /// Stage 2: the y to the output register.
    fy: Signal<Local, Bits<C>>,
    /// A profiled workgroup waits for its value (`perf_we` is accepted).
    report_ok: Signal<Local, Bit>,
    /// Stage 1: the x coordinate bits from the masks (OR of the index bits each mask picks).
    n1x: Signal<Local, Bits<C>>,
    /// Stage 1: the y coordinate bits from the masks.
    n1y: Signal<Local, Bits<C>>,
    /// The error code shown this cycle, from the three registered flags.
    err: Signal<Local, Bits<2>>,
}

impl<
        const C: usize,
        const I: usize,
        const XW: usize,
        const MW: usize,
        const OW: usize,
        const FW: usize,
    > Logic for ScheduleGenN<C, I, XW, MW, OW, FW>
{
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
            && (self.cfg_log_w.val().index() <= self.max_log.val().index())
            && (self.cfg_log_h.val().index() <= self.max_log.val().index());
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
        // only the bits the decode reads (8 + j - b, 9 - C .. 8 + I) and each offset can reach
        for k in (9 - C)..(8 + I) {
            if self.in_d8.val().index() == k {
                self.n_ox_d.next = self.n_ox_d.val().replace_bit(k, true);
            }
            if self.in_yd8.val().index() == k {
                self.n_oy_d.next = self.n_oy_d.val().replace_bit(k, true);
            }
        }
        for k in (9 - C)..9 {
            if self.cfg_p0.val().index() + k == 8 {
                self.n_ox_np0.next = self.n_ox_np0.val().replace_bit(k, true);
            }
        }
        for k in (9 - C)..(9 + C) {
            if self.cfg_p0.val().index() + k == self.cfg_log_w.val().index() + 8 {
                self.n_oy_np0.next = self.n_oy_np0.val().replace_bit(k, true);
            }
        }
        for k in 8..(8 + I).min(16) {
            if self.cfg_p1.val().index() + 8 == k {
                self.n_ox_p1.next = self.n_ox_p1.val().replace_bit(k, true);
            }
            if self.cfg_p0.val().index() + 8 == k {
                self.n_oy_p0.next = self.n_oy_p0.val().replace_bit(k, true);
            }
        }
        for k in 8..(9 + C) {
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
        for b in 0..C {
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
                    self.n_fx.next = self
                        .n_fx
                        .val()
                        .replace_bit(self.cx1.val().index() + b, true);
                }
                if self.in_str.val() && b >= self.in_s.val().index() {
                    self.n_fx.next = self
                        .n_fx
                        .val()
                        .replace_bit(self.cx2.val().index() + b, true);
                }
                if self.in_til.val() && b >= self.cfg_p0.val().index() {
                    self.n_fx.next = self
                        .n_fx
                        .val()
                        .replace_bit(self.cx3.val().index() + b, true);
                }
                if self.in_hil.val() && b >= self.in_ls.val().index() {
                    self.n_fx.next = self
                        .n_fx
                        .val()
                        .replace_bit(self.cx4.val().index() + b, true);
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
                    self.n_fy.next = self
                        .n_fy
                        .val()
                        .replace_bit(self.cx1.val().index() + b, true);
                }
                if self.in_str.val() && self.cfg_log_w.val().index() + b >= self.in_s.val().index()
                {
                    self.n_fy.next = self
                        .n_fy
                        .val()
                        .replace_bit(self.cx2.val().index() + b, true);
                }
                if self.in_til.val() && b < self.cfg_p1.val().index() {
                    self.n_fy.next = self
                        .n_fy
                        .val()
                        .replace_bit(self.cx3.val().index() + b, true);
                }
                if self.in_hil.val() && b >= self.in_ls.val().index() {
                    self.n_fy.next = self
                        .n_fy
                        .val()
                        .replace_bit(self.cx4.val().index() + b, true);
                }
            }
        }
        // misc word: zigzag mask [C-1:0], Hilbert bits [2C-1:C], Hilbert index mask
        // [4C-1:2C], final swap [4C], last index [4C+I:4C+1] (board: [3:0] [7:4] [15:8] [16]
        // [24:17])
        self.n_misc.next = 0.into();
        for b in 0..C {
            if self.cfg_mode.val().index() == 2 && b < self.cfg_log_w.val().index() {
                self.n_misc.next = self.n_misc.val().replace_bit(b, true);
            }
            if self.in_hil.val() && b < self.in_ls.val().index() {
                self.n_misc.next = self
                    .n_misc
                    .val()
                    .replace_bit(self.cx1.val().index() + b, true);
            }
        }
        for j in 0..I {
            if self.in_hil.val() && j < 2 * self.in_ls.val().index() {
                self.n_misc.next = self
                    .n_misc
                    .val()
                    .replace_bit(self.cx2.val().index() + j, true);
            }
            if j < self.in_l.val().index() {
                self.n_misc.next = self
                    .n_misc
                    .val()
                    .replace_bit(self.last_at.val().index() + j, true);
            }
        }
        if self.in_hil.val() && self.in_ls.val().get_bit(0) {
            self.n_misc.next = self.n_misc.val().replace_bit(self.cx4.val().index(), true);
        }

        // ---- decode the write registered in the previous cycle into slot words: mask bit
        // 8b + j (index bit j drives coordinate bit b) = some rule of bit b with offset j - b;
        // the slots named by wr_oh take them at the end of this cycle ----
        self.dec_x.next = 0.into();
        self.dec_y.next = 0.into();
        for b in 0..C {
            for j in 0..I {
                if (j == b && self.wr_fx.q.val().get_bit(b))
                    || (self.wr_fx.q.val().get_bit(self.cx1.val().index() + b)
                        && self.wr_ox_d.q.val().get_bit(8 + j - b))
                    || (self.wr_fx.q.val().get_bit(self.cx2.val().index() + b)
                        && self.wr_ox_np0.q.val().get_bit(8 + j - b))
                    || (self.wr_fx.q.val().get_bit(self.cx3.val().index() + b)
                        && self.wr_ox_p1.q.val().get_bit(8 + j - b))
                    || (self.wr_fx.q.val().get_bit(self.cx4.val().index() + b)
                        && self.wr_o_ls.q.val().get_bit(8 + j - b))
                {
                    self.dec_x.next = self
                        .dec_x
                        .val()
                        .replace_bit(self.mask_at[b].val().index() + j, true);
                }
                if (self.wr_fy.q.val().get_bit(b) && self.wr_oy_lw.q.val().get_bit(8 + j - b))
                    || (self.wr_fy.q.val().get_bit(self.cx1.val().index() + b)
                        && self.wr_oy_d.q.val().get_bit(8 + j - b))
                    || (self.wr_fy.q.val().get_bit(self.cx2.val().index() + b)
                        && self.wr_oy_np0.q.val().get_bit(8 + j - b))
                    || (self.wr_fy.q.val().get_bit(self.cx3.val().index() + b)
                        && self.wr_oy_p0.q.val().get_bit(8 + j - b))
                    || (self.wr_fy.q.val().get_bit(self.cx4.val().index() + b)
                        && self.wr_o_ls.q.val().get_bit(8 + j - b))
                {
                    self.dec_y.next = self
                        .dec_y
                        .val()
                        .replace_bit(self.mask_at[b].val().index() + j, true);
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
                if !self.slot_m[s].q.val().get_bit(self.last_at.val().index()) {
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
            self.ch_single.next = !self.dec_m.val().get_bit(self.last_at.val().index());
        }
        // ---- stage 1: index -> masked bits, Hilbert levels 0-1, last ----
        self.kd.next = self.idx.q.val() & self.act_m.q.val().get_bits::<I>(self.cx2.val().index());
        // Hilbert `d2xy` level l reads index bits 2l, 2l + 1: rotate the l-bit quadrant, then
        // set bit l; levels 0 .. C/2 - 1 here, the others in stage 2 from `s1_hd`
        for l in (C / 2)..C {
            self.hrx[l].next = self.s1_hd.q.val().get_bit(2 * l + 1);
            self.hry[l].next =
                self.s1_hd.q.val().get_bit(2 * l) ^ self.s1_hd.q.val().get_bit(2 * l + 1);
        }
        for l in 0..(C / 2) {
            self.hrx[l].next = self.kd.val().get_bit(2 * l + 1);
            self.hry[l].next = self.kd.val().get_bit(2 * l) ^ self.kd.val().get_bit(2 * l + 1);
        }
        // level 0 (s = 1): x = rx, y = ry
        self.hlx[0].next = 0.into();
        self.hly[0].next = 0.into();
        self.hlx[0].next = self.hlx[0].val().replace_bit(0, self.hrx[0].val());
        self.hly[0].next = self.hly[0].val().replace_bit(0, self.hry[0].val());
        for l in 1..(C / 2) {
            self.hlx[l].next = self.hlx[l - 1].val();
            self.hly[l].next = self.hly[l - 1].val();
            if !self.hry[l].val() {
                if self.hrx[l].val() {
                    self.hlx[l].next = !self.hly[l - 1].val() & self.low[l].val();
                    self.hly[l].next = !self.hlx[l - 1].val() & self.low[l].val();
                } else {
                    self.hlx[l].next = self.hly[l - 1].val();
                    self.hly[l].next = self.hlx[l - 1].val();
                }
            }
            self.hlx[l].next = self.hlx[l].val().replace_bit(l, self.hrx[l].val());
            self.hly[l].next = self.hly[l].val().replace_bit(l, self.hry[l].val());
        }

        self.n1x.next = 0.into();
        self.n1y.next = 0.into();
        for b in 0..C {
            if (self.idx.q.val()
                & self
                    .act_x
                    .q
                    .val()
                    .get_bits::<I>(self.mask_at[b].val().index()))
            .any()
            {
                self.n1x.next = self.n1x.val().replace_bit(b, true);
            }
            if (self.idx.q.val()
                & self
                    .act_y
                    .q
                    .val()
                    .get_bits::<I>(self.mask_at[b].val().index()))
            .any()
            {
                self.n1y.next = self.n1y.val().replace_bit(b, true);
            }
        }

        // ---- stage 2: Hilbert levels C/2 .. C - 1, final swap, zigzag, choice ----
        for l in (C / 2)..(C / 2 + 1) {
            self.hlx[l].next = self.s1_hx.q.val();
            self.hly[l].next = self.s1_hy.q.val();
            if !self.hry[l].val() {
                if self.hrx[l].val() {
                    self.hlx[l].next = !self.s1_hy.q.val() & self.low[l].val();
                    self.hly[l].next = !self.s1_hx.q.val() & self.low[l].val();
                } else {
                    self.hlx[l].next = self.s1_hy.q.val();
                    self.hly[l].next = self.s1_hx.q.val();
                }
            }
            self.hlx[l].next = self.hlx[l].val().replace_bit(l, self.hrx[l].val());
            self.hly[l].next = self.hly[l].val().replace_bit(l, self.hry[l].val());
        }
        for l in (C / 2 + 1)..C {
            self.hlx[l].next = self.hlx[l - 1].val();
            self.hly[l].next = self.hly[l - 1].val();
            if !self.hry[l].val() {
                if self.hrx[l].val() {
                    self.hlx[l].next = !self.hly[l - 1].val() & self.low[l].val();
                    self.hly[l].next = !self.hlx[l - 1].val() & self.low[l].val();
                } else {
                    self.hlx[l].next = self.hly[l - 1].val();
                    self.hly[l].next = self.hlx[l - 1].val();
                }
            }
            self.hlx[l].next = self.hlx[l].val().replace_bit(l, self.hrx[l].val());
            self.hly[l].next = self.hly[l].val().replace_bit(l, self.hry[l].val());
        }
        // unused top levels (fed 00) each swapped x and y: undo an odd number of swaps
        for l in (C - 1)..C {
            self.hx.next = self.hlx[l].val();
            self.hy.next = self.hly[l].val();
            if self.act_m.q.val().get_bit(self.cx4.val().index()) {
                self.hx.next = self.hly[l].val();
                self.hy.next = self.hlx[l].val();
            }
        }
        // zigzag: x bits inverted on odd rows; Hilbert bits replace the mask bits
        self.fx.next = self.s1_x.q.val();
        if self.s1_y.q.val().get_bit(0) {
            self.fx.next = self.s1_x.q.val() ^ self.act_m.q.val().get_bits::<C>(0);
        }
        self.fy.next = self.s1_y.q.val();
        for b in 0..C {
            if self.act_m.q.val().get_bit(self.cx1.val().index() + b) {
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
                for l in (C / 2 - 1)..(C / 2) {
                    self.s1_hx.d.next = self.hlx[l].val();
                    self.s1_hy.d.next = self.hly[l].val();
                }
                self.s1_hd.d.next = self.kd.val();
                self.s1_last.d.next = self.idx.q.val()
                    == self.act_m.q.val().get_bits::<I>(self.last_at.val().index());
                self.feed.d.next = self.idx.q.val()
                    != self.act_m.q.val().get_bits::<I>(self.last_at.val().index());
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
