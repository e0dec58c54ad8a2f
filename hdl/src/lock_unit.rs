//! Warp lock unit (SPEC Unit 1, seed 000): priority-aware mutexes between the warps of a block.
//!
//! The behaviour, cycle by cycle, is specified by `golden_model::lock_unit` (its module doc is the
//! normative order of events); this block implements it and is checked against it every cycle.
//!
//! ## Ports (board config; the exported module `top` has exactly these)
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `clock`, `reset` | in | 1 | one clock; synchronous active-high reset |
//! | `cpr_we`, `cpr_warp`, `cpr_prio` | in | 1, WB, PB | write warp's Competitive Priority Register (0 = highest) |
//! | `cfg_we`, `cfg_hold_limit` | in | 1, HB | write `hold_limit` (reset 64; 0 = no limit) |
//! | `acq_valid`, `acq_ready`, `acq_warp`, `acq_lock` | in/out | 1, 1, WB, LB | acquire stream; `acq_ready` = arbiter FIFO not full |
//! | `rel_valid`, `rel_warp`, `rel_lock` | in | 1, WB, LB | release by the owner |
//! | `retire` | in | W | warp w retired an instruction (hold counting, patent \[0043\]) |
//! | `grant`, `deny`, `revoke` | out | W | one-cycle strobes per warp: granted / told to wait / lost all locks |
//! | `waiting` | out | W | level: the warp waits for a hand-off |
//! | `lock_words` | out | L·(1+WB) | lock i at bits `(1+WB)·i ..`: MSB locked, low bits owner (0 when free) |
//! | `error`, `error_code` | out | 1, 3 | strobe; 1 `NOT_OWNER`, 2 `BUSY`, 3 `BAD_ID` |
//!
//! WB = clog2(W) (≥ 1), LB = clog2(L) (≥ 1), PB = priority bits, HB = hold-limit bits.
//! Every output except `acq_ready` is a register written by the same clock edge, so all outputs
//! describe the same cycle. `acq_ready` depends only on state (never on `acq_valid`).
//!
//! ## Latency (cycles from the input to the strobe; measured by `synth bench`)
//! The unit is pipelined so that every decision is a shallow function of registers (see the
//! golden model's module doc for the exact cycle semantics):
//! - acquire of a free lock nobody waits for: `grant` **1** cycle after the acquire is accepted
//!   (SPEC goal 1);
//! - an acquire that is queued (lock held, also by the requester itself, or waited for, or the
//!   cycle's arbiter decision touches that lock or warp — SPEC's order puts the arbiter before
//!   the new acquire: the live FIFO head's lock, or a requester revoked in this cycle by the
//!   hold limit or preempted by the head; SPEC 5: never granted in the cycle it is revoked — or
//!   the lock of the staged entry when its requester strictly beat the lock's holder as it was
//!   queued: SPEC 4 owes that requester the lock within `fifo_depth + 3`, and a direct grant to
//!   a warp it does not beat would make it wait for that warp's release): one
//!   cycle in the stage register, one as the FIFO head,
//!   where the arbiter decides and applies it: `grant`/`deny`/`revoke` **3** cycles after the
//!   acceptance, always — the arbiter takes one entry every cycle and never retries, so nothing
//!   waits behind another entry (SPEC bound `fifo_depth + 3`: 7 on the board);
//! - release: applied one cycle after it is driven (the lock word reads free, or shows the new
//!   owner, 2 cycles after); `NOT_OWNER`/`BAD_ID` strobe 2 cycles after;
//! - hand-off to a waiter: `grant` **2** cycles after the release is driven, 1 after it is
//!   applied (the pick comes from the previous cycle's state, so a waiter that joined in the
//!   cycle the release was driven is served a cycle later: 3 after the release is driven, 2
//!   after the lock became free — SPEC: within 2). A lock handed off in the previous cycle (its
//!   recipient released it before the grant showed) is handed off again one cycle later, from
//!   a pick made after the round-robin pointer moved: ties go round robin in every case;
//! - hold limit: the retire that reaches the limit revokes the warp the next cycle (`revoke` 2
//!   cycles after that retire); a `hold_limit` write governs retires from 2 cycles on.
//!   Consequence of that one-cycle latency (SPEC orders the hold-limit revocation before a new
//!   acquire in one cycle): an acquire by the warp accepted in the cycle of that retire is
//!   applied before the revocation and ended with the rest — granted at once and revoked the
//!   next cycle, or dropped from the queue; the `revoke` strobe answers it and the warp acquires
//!   again. An acquire accepted in the revocation's own cycle survives it (queued, answered 3
//!   cycles later).
//!
//! ## Timing (board config, iCE40 HX8K CB132, in the flow's harness)
//! **Cost: 2425 LCs; Fmax 92.5 MHz median of nextpnr seeds 1–3** (92.5, 92.6, 90.3;
//! 2026-11-27, issue #21: the kernel in sub-blocks): **the 100 MHz target is not met**
//! (accepted by SPEC's decision of 2026-11-23) — `cargo run --release -p synth -- report --only
//! lock_unit --seeds 1,2,3`. Before the split: 2442 LCs, median 91.7 (94.0, 91.7, 88.6); history
//! in `docs/lock_unit.md`.
//! What was tried
//! (flow options, pipelines, their numbers) is in `docs/lock_unit.md`.
//!
//! The critical paths left are about 6 LUT levels with 1–2 ns of routing each: the head's lock
//! selects the per-lock verdict terms (held after the release and hold-limit revocation, holder
//! beaten, unbeaten waiter) → the wait verdict → `deny`/`wait_lock`/lock words; the preempted
//! holder → the FIFO kill and hold-limit marks; the hand-off picks (best waiter, round robin).
//! The arbiter is a recurrence: its verdict depends on the lock word the previous cycle's
//! verdict wrote, so it cannot be split into stages without retries or a bound on throughput.
//!
//! ## Worked example (patent \[0044\]–\[0052\])
//! CPR0 = 0, CPR1 = 1. Cycle 0: `acq(1, lock 0)` → cycle 1: `grant = 0b10`, `lock_words[3:0] =
//! 4'b1001`. Cycle 2: `acq(0, lock 0)`: queued; cycle 3: in the stage register; cycle 4: FIFO
//! head, the arbiter compares CPR0 < CPR1 and revokes warp 1 → cycle 5: `revoke = 0b10`,
//! `grant = 0b01`, `lock_words[3:0] = 4'b1000`.
//!
//! ## Structure and cost
//! Everything the next-state logic needs is kept in a form that makes each decision a shallow
//! AND-OR of registers (4-input LUTs):
//! - lock words as one-hot owner vectors (`lock_owner[l]`, W bits, zero = free); the binary
//!   `lock_words` output is encoded from them;
//! - waiting warps as one-hot lock vectors (`wait_lock[w]`, L bits);
//! - a W×W priority matrix `beats[a]` (bit b: CPR a < CPR b) for the hand-off picks, rewritten
//!   from the next CPR values whenever a CPR is written: for W < 16 (the board) every bit from a
//!   compare of two next CPRs (W² compares); for W ≥ 16 only the written warp's row and column,
//!   from 2·W compares of the port's value against the CPR registers (the matrix always equals
//!   the CPRs' compares: both reset together), the rest held;
//! - FIFO entries with one-hot requester and lock. The arbiter pops the head every cycle and the
//!   stage register adds at most one entry per cycle, so the FIFO never holds more than the head
//!   (the golden model asserts it); its depth matters only at depth 1, where `acq_ready` falls
//!   while an entry is staged;
//! - the arbiter's inputs for the next head, made from the stage register a cycle ahead
//!   (`head_*`): the requester's priority row as of the decision cycle (its CPR and every CPR with
//!   the CPR port's write applied; its own bit set, so a re-acquire is a win), the warps that
//!   lose the head's lock in steps 1–2 (hold-limit marks, the releasing warp), whether the
//!   requester itself is marked, and the warps that may block it as waiters;
//! - the hold limit as `limit − 1`, `limit − 2`, `limit ≤ 1` and `limit ≠ 0` (`hold_limit_m1`,
//!   `hold_limit_m2`, `hold_limit_le1`, `hold_limit_on`), so that next
//!   cycle's "at limit" bit per warp is one of two parallel compares of registered counters;
//! - pipeline registers: the registered release (`rel_reg_*`), hold-limit marks (`hold_revoke`),
//!   the stage register of a queued acquire (`stage_*`), the hand-off picks (`handoff_pick`), and
//!   `queued_warps` (warps with a live request).
//!
//! Sub-blocks (issue #21; the exported `top` instantiates each as its own Verilog module, and
//! yosys flattens them before mapping):
//! - `fifo` ([`ArbiterFifo`]): the arbiter FIFO's registers and its kill / pop / append; the
//!   kernel reads only its head (`head_req`, `head_lock`, `head_live`), `not_empty` and `count`;
//! - `hold` ([`HoldCounters`]): the per-warp hold counters, the `hold_limit` forms and `at_limit`;
//!   the kernel reads only `limit_hit` (a holder's retire that reaches the limit now);
//! - `picker` ([`HandoffPicker`]): every lock's best waiter, combinational from `wait_lock`, the
//!   priority matrix and `rr_next`; the kernel registers the picks as `handoff_pick`. (One block
//!   for all locks: RustHDL exports an array port of an array of blocks, `picker[l].beats[b]`,
//!   with the inner index left as a bare name.) Its "beaten by a waiter of the same lock" is per
//!   lock for W < 16 (L·W² terms, the board's netlist) and per warp for W ≥ 16 (W² terms over
//!   encoded lock IDs): the same picks; the per-lock form at W = 32, L = 16 is what kept the
//!   full unit from routing on the ECP5-85F (`docs/ecp5.md`, session 11). The forms are
//!   chosen by the parameter `F` = [`full_forms`]`(W)`, and their signals are arrays of length
//!   F (or F·W, F·L): the board (F = 0) declares none of them, and `synth export`'s
//!   `lock_unit.v` is byte for byte that of sessions 7–11 (`docs/lock_unit.md`, session 12).
//!
//! The arbiter, the hand-off, the direct acquire and the stage register stay in the kernel: they
//! read and write the same lock words in one cycle (the recurrence below).
//!
//! Name parts: a warp vector has W bits, a lock vector L bits (one-hot or a set, as the field
//! doc says); `*_oh` = one-hot decode of a port's ID; `*_next` = the value after this cycle's
//! steps; `*_now` = this cycle's value of a strobe or level; `arb_*` = the arbiter on the FIFO
//! head (step 3); `head_*` = the arbiter's inputs precomputed for this cycle's head;
//! `next_head_*` = the same for the next cycle's head; `stage_*` = the stage register;
//! `*_per_lock` = one bit per lock, selected by the head's one-hot lock; `acq_*` = the acquire
//! port's checks; `rel_reg_*` = the registered release; `out_*` = output registers. Every scratch
//! signal's field doc says what it holds. Renames of issue 14 (old → new): `docs/lock_unit.md`.
//!
//! The arbiter computes its verdict per lock (held after steps 1–2 / holder beaten / an
//! unbeaten waiter stays) and selects it by the head's one-hot lock; the preempted holder is
//! revoked per warp (holder ∧ beaten ∧ not the requester) without waiting for the verdict. The
//! best waiter of every lock (no other waiter beats it; ties round robin from `rr_next`) is
//! picked from registers a cycle ahead. Cost: W² + W·L + L·W flip-flops of state beyond the lock
//! words (board: 64 + 32 + 32), plus the pipeline.

use rust_hdl::prelude::*;

mod arbiter_fifo;
mod configs;
mod handoff_picker;
mod hold_counters;

pub use arbiter_fifo::ArbiterFifo;
pub use configs::{
    full_forms, id_bits, verilog, BoardLockUnit, FullLockUnit, OddLockUnit, SmallLockUnit,
};
pub use handoff_picker::HandoffPicker;
pub use hold_counters::HoldCounters;

/// Lock unit RTL. Const parameters (derived ones must match; checked by [`LockUnit::new`]):
/// `W` warps, `L` locks, `WB` = clog2(W) warp-ID bits, `WB1` = WB + 1 (lock word width),
/// `LB` = clog2(L) lock-ID bits, `PB` priority bits, `D` FIFO depth, `CB` = clog2(D + 1) FIFO count
/// bits, `HB` hold-limit bits, `LW` = L · WB1 (`lock_words` width), `F` = [`full_forms`]`(W)`
/// (1 for W ≥ 16: the full config's forms of the picker and the priority matrix), `WF` = F · W,
/// `LF` = F · L (the lengths of those forms' signal arrays: 0 on the board, which therefore
/// declares none of them). The named configurations
/// ([`BoardLockUnit`], …) are written with `lock_unit_type!`, which computes the derived ones.
#[derive(LogicBlock)]
pub struct LockUnit<
    const W: usize,
    const L: usize,
    const WB: usize,
    const WB1: usize,
    const LB: usize,
    const PB: usize,
    const D: usize,
    const CB: usize,
    const HB: usize,
    const LW: usize,
    const F: usize,
    const WF: usize,
    const LF: usize,
> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high: back to the idle state of SPEC Unit 1.
    pub reset: Signal<In, Bit>,
    /// Write `cpr_prio` into the CPR of `cpr_warp` (effective next cycle).
    pub cpr_we: Signal<In, Bit>,
    /// Warp whose CPR is written.
    pub cpr_warp: Signal<In, Bits<WB>>,
    /// New priority (0 = highest). CPRs reset to all ones (lowest).
    pub cpr_prio: Signal<In, Bits<PB>>,
    /// Write `cfg_hold_limit` (effective next cycle).
    pub cfg_we: Signal<In, Bit>,
    /// Retired instructions a warp may execute while holding locks; 0 = unlimited. Reset 64.
    pub cfg_hold_limit: Signal<In, Bits<HB>>,
    /// Acquire request valid.
    pub acq_valid: Signal<In, Bit>,
    /// Acquire accepted when valid (arbiter FIFO not full). Combinational from state only.
    pub acq_ready: Signal<Out, Bit>,
    /// Requesting warp.
    pub acq_warp: Signal<In, Bits<WB>>,
    /// Requested lock.
    pub acq_lock: Signal<In, Bits<LB>>,
    /// Release valid.
    pub rel_valid: Signal<In, Bit>,
    /// Releasing warp.
    pub rel_warp: Signal<In, Bits<WB>>,
    /// Released lock.
    pub rel_lock: Signal<In, Bits<LB>>,
    /// Retire strobes, one per warp.
    pub retire: Signal<In, Bits<W>>,
    /// Strobe: the warp was granted the lock it asked for.
    pub grant: Signal<Out, Bits<W>>,
    /// Strobe: the warp must wait (it lost the arbitration; its locks were released).
    pub deny: Signal<Out, Bits<W>>,
    /// Strobe: the warp lost all its locks (preempted or hold limit).
    pub revoke: Signal<Out, Bits<W>>,
    /// Level: the warp waits for a hand-off.
    pub waiting: Signal<Out, Bits<W>>,
    /// Lock words, lock i at bits `WB1*i..`: MSB locked, low bits owner; 0 when free.
    pub lock_words: Signal<Out, Bits<LW>>,
    /// Strobe: a request of the previous cycle was refused.
    pub error: Signal<Out, Bit>,
    /// Why: 1 NOT_OWNER, 2 BUSY, 3 BAD_ID (0 when `error` is low).
    pub error_code: Signal<Out, Bits<3>>,

    // ---- state ----
    /// Competitive Priority Register per warp (reset all ones).
    cpr: [DFFWithInit<Bits<PB>>; W],
    /// `beats[a]` bit b: CPR a < CPR b (a would preempt b). All CPRs equal at reset: zero.
    beats: [DFF<Bits<W>>; W],
    /// Lock word of lock l as a one-hot owner vector; zero when free.
    lock_owner: [DFF<Bits<W>>; L],
    /// The lock warp w waits for, one-hot; zero when not waiting.
    wait_lock: [DFF<Bits<L>>; W],
    /// Per lock, where the round-robin tie search among equal-priority waiters starts.
    rr_next: [DFF<Bits<WB>>; L],
    // ---- sub-blocks ----
    /// The arbiter FIFO (shift queue of acquire entries, head = slot 0; its registers).
    fifo: ArbiterFifo<W, L, D, CB>,
    /// The hold counters and the run-time `hold_limit` (their registers).
    hold: HoldCounters<W, HB>,
    /// Every lock's best waiter (combinational; registered here as `handoff_pick`).
    picker: HandoffPicker<W, L, WB, LB, F, WF, LF>,
    /// Release registered for the next cycle: valid, one-hot warp and lock, bad ID.
    rel_reg_valid: DFF<Bit>,
    rel_reg_warp: DFF<Bits<W>>,
    rel_reg_lock: DFF<Bits<L>>,
    rel_reg_bad: DFF<Bit>,
    /// Warps marked for hold-limit revocation in the next cycle.
    hold_revoke: DFF<Bits<W>>,
    /// The entry queued in the previous cycle (joins the FIFO tail in this one): valid,
    /// requester, lock, holder.
    stage_valid: DFF<Bit>,
    stage_req: DFF<Bits<W>>,
    stage_lock: DFF<Bits<L>>,
    stage_holder: DFF<Bits<W>>,
    /// The staged requester strictly beat the lock's holder when it was queued: SPEC 4 then owes
    /// it the lock within `fifo_depth + 3`, so no direct grant takes that lock before the
    /// arbiter decides it (see step 5).
    stage_beats_holder: DFF<Bit>,
    /// The staged requester's ID and its CPR as of this cycle (the write of the previous cycle
    /// applied): the next head's priority row starts from them.
    stage_warp_id: DFF<Bits<WB>>,
    stage_cpr: DFF<Bits<PB>>,
    /// The arbiter's precomputed inputs for the entry that is the FIFO head in this cycle (made
    /// in the previous cycle from the stage register or FIFO slot 1): its requester's row of the
    /// priority matrix as of this cycle (`head_beats`, bit b: it beats warp b), and whether the
    /// release applied in this cycle names its lock, as the warps that lose that lock in steps
    /// 1-2 (`head_lock_losers`: the hold-limit marks, plus the releasing warp when the release names the
    /// head's lock), whether its requester is marked for revocation (`head_dead`: the head is
    /// dead), and the warps that neither are marked nor are beaten by the requester (`head_unbeaten_stay`).
    head_beats: DFF<Bits<W>>,
    head_lock_losers: DFF<Bits<W>>,
    head_dead: DFF<Bit>,
    head_unbeaten_stay: DFF<Bits<W>>,
    /// Warps that have a live request in the FIFO (kept incrementally so that the BUSY
    /// check is a register lookup; waiting is `wait_lock`).
    queued_warps: DFF<Bits<W>>,
    /// Hand-off pick per lock, made from the previous cycle's state (one-hot; zero = none).
    handoff_pick: [DFF<Bits<W>>; L],
    /// Per lock: handed off in the previous cycle. Its pick was made before that hand-off moved
    /// `rr_next` and is not used; the next cycle's pick is made from the moved pointer.
    handoff_last: DFF<Bits<L>>,
    /// Output strobe registers.
    out_grant: DFF<Bits<W>>,
    out_deny: DFF<Bits<W>>,
    out_revoke: DFF<Bits<W>>,
    out_error: DFF<Bit>,
    out_error_code: DFF<Bits<3>>,

    // ---- constants (derived; const generics cannot appear in exported expressions) ----
    depth: Constant<Bits<CB>>,
    prio_lowest: Constant<Bits<PB>>,
    word_width: Constant<Bits<8>>,
    top_offset: Constant<Bits<8>>,
    locked_bit: Constant<Bits<WB1>>,
    /// `(w + 1) mod W`: the round-robin successor of warp w.
    rr_succ: [Constant<Bits<WB>>; W],

    // ---- combinational working variables (Local signals read back what was just written).
    // Scratch signals marked "per lock" are rewritten in every iteration of a `for l` loop. ----
    /// The acquire port's warp and lock, one-hot (zero for an out-of-range ID: BAD_ID).
    acq_warp_oh: Signal<Local, Bits<W>>,
    acq_lock_oh: Signal<Local, Bits<L>>,
    /// The release port's warp and lock, one-hot (zero for an out-of-range ID).
    rel_warp_oh: Signal<Local, Bits<W>>,
    rel_lock_oh: Signal<Local, Bits<L>>,
    /// The CPR port's warp, one-hot (zero for an out-of-range ID).
    cpr_warp_oh: Signal<Local, Bits<W>>,
    /// Each warp's CPR after this cycle's CPR-port write.
    cpr_next: [Signal<Local, Bits<PB>>; W],
    /// Per warp a (scratch): its row of the priority matrix from `cpr_next` (`beats[a]`'s input).
    beats_row: Signal<Local, Bits<W>>,
    /// Warps that own a lock at the start of the cycle.
    holders: Signal<Local, Bits<W>>,
    /// Warps that wait for a hand-off at the start of the cycle (the `waiting` output).
    waiting_now: Signal<Local, Bits<W>>,
    /// Each lock's one-hot owner after the steps applied so far (the `lock_owner` input).
    lock_owner_next: [Signal<Local, Bits<W>>; L],
    /// Warps revoked in this cycle: hold-limit marks and the holder the arbiter preempts.
    revoked: Signal<Local, Bits<W>>,
    /// The `grant` and `deny` strobes of this cycle's decisions (registered into `out_*`).
    grant_now: Signal<Local, Bits<W>>,
    deny_now: Signal<Local, Bits<W>>,
    /// The registered release names a lock its warp owns (else `NOT_OWNER`).
    rel_hit: Signal<Local, Bit>,
    /// The release port's lock, one-hot, when `rel_valid` (zero otherwise).
    rel_in_lock: Signal<Local, Bits<L>>,
    /// Hold-limit marks for the next cycle: `hold_limit_hit` of warps not revoked now.
    hold_revoke_next: Signal<Local, Bits<W>>,
    /// Warps whose retire in this cycle, while holding, reaches the hold limit (the hold
    /// counters' `limit_hit`).
    hold_limit_hit: Signal<Local, Bits<W>>,
    // arbiter (the FIFO head)
    /// The head is decided now: valid, live, its requester not marked for revocation.
    arb_go: Signal<Local, Bit>,
    /// The holder of the head's lock after steps 1-2 (one-hot or zero).
    arb_holder: Signal<Local, Bits<W>>,
    /// The holder the head's requester preempts (beaten, not the requester itself).
    arb_preempted: Signal<Local, Bits<W>>,
    /// Per lock: held after steps 1-2.
    held_per_lock: Signal<Local, Bits<L>>,
    /// Per lock: its holder is beaten by the head's requester.
    holder_beaten_per_lock: Signal<Local, Bits<L>>,
    /// Per lock: a waiter that stays (not marked) is not beaten by the head's requester.
    unbeaten_waiter_per_lock: Signal<Local, Bits<L>>,
    /// Per lock: the head's verdict would be "wait" (selected by the head's lock: `arb_wait`).
    wait_per_lock: Signal<Local, Bits<L>>,
    /// The next cycle's head (the staged entry): requester and lock, one-hot.
    next_head_req: Signal<Local, Bits<W>>,
    next_head_lock: Signal<Local, Bits<L>>,
    /// The next head's row of the priority matrix as of the next cycle (`head_beats`' input).
    next_head_beats: Signal<Local, Bits<W>>,
    /// The CPR of the warp staged now, as of the next cycle (`stage_cpr`'s input).
    next_head_cpr: Signal<Local, Bits<PB>>,
    /// `next_head_beats` for the case that the CPR port writes the staged requester's own CPR.
    next_head_beats_own_write: Signal<Local, Bits<W>>,
    /// The head's verdict is "wait" (deny; its requester's locks are released).
    arb_wait: Signal<Local, Bit>,
    /// Warps whose locks the arbiter releases: the denied requester, or the preempted holder.
    arb_clear: Signal<Local, Bits<W>>,
    /// The lock the head's requester takes (one-hot; zero unless it wins).
    arb_take_lock: Signal<Local, Bits<L>>,
    /// The owner of the head's lock at the start of the cycle (one-hot or zero).
    head_lock_holder: Signal<Local, Bits<W>>,
    // hand-off
    /// Locks free after steps 1-2 (the hand-off candidates).
    free_after_step2: Signal<Local, Bits<L>>,
    /// Per lock (scratch): last cycle's pick if it still counts (one-hot or zero).
    handoff_grant: Signal<Local, Bits<W>>,
    /// Locks handed off in this cycle.
    handoff_now: Signal<Local, Bits<L>>,
    // acquire
    /// The acquire is accepted (`acq_valid` and room in the FIFO).
    acq_accept: Signal<Local, Bit>,
    /// Accepted with valid IDs and a warp that is not busy: it is granted or queued.
    acq_ok: Signal<Local, Bit>,
    /// The owner of the requested lock at the start of the cycle (one-hot or zero).
    acq_owner: Signal<Local, Bits<W>>,
    /// The acquiring warp's row of the priority matrix (the warps it strictly beats).
    acq_beats: Signal<Local, Bits<W>>,
    /// Per lock (scratch): some warp waits for it.
    acq_reserved: Signal<Local, Bit>,
    /// The acquiring warp is revoked in this cycle (its acquire is queued).
    acq_conflict: Signal<Local, Bit>,
    /// The acquiring warp waits or has a live request (`BUSY`).
    acq_busy: Signal<Local, Bit>,
    /// The requested lock is in `free_for_direct`.
    acq_direct: Signal<Local, Bit>,
    /// Warps that wait or have a live request (FIFO or stage register).
    busy_warps: Signal<Local, Bits<W>>,
    /// Warps whose request ends in this cycle (decided by the arbiter, or revoked).
    ended: Signal<Local, Bits<W>>,
    /// Locks this cycle's arbiter or the staged entry reserve (no direct grant of them).
    lock_conflict: Signal<Local, Bits<L>>,
    /// Locks free at the start of the cycle, nobody waiting, not in `lock_conflict`.
    free_for_direct: Signal<Local, Bits<L>>,
    /// Warps that may not be granted directly in this cycle (`revoked`).
    warp_conflict: Signal<Local, Bits<W>>,
    /// The acquiring warp when a direct grant may go to it (one-hot or zero).
    direct_grant: Signal<Local, Bits<W>>,
    /// FIFO occupancy plus the entry joining its tail (`acq_ready` compares it to the depth).
    occupancy: Signal<Local, Bits<CB>>,
    /// The acquire is queued: it goes to the stage register.
    push: Signal<Local, Bit>,
    // outputs
    /// Per lock (scratch): its lock word (MSB locked, low bits owner) and the owner's index.
    word: Signal<Local, Bits<WB1>>,
    word_owner: Signal<Local, Bits<WB>>,
    /// The lock words packed so far (one word shifted in per lock).
    words_acc: Signal<Local, Bits<LW>>,
    // ---- the priority matrix's row-and-column update (F = 1): arrays of length F, so that the
    // board (F = 0) declares none of them and its Verilog is the one of sessions 7–11 ----
    /// F = 1: the warp whose CPR the port writes now, one-hot (zero without a write).
    cpr_col: [Signal<Local, Bits<W>>; F],
    /// F = 1: warps whose CPR the written value beats (`cpr_prio < cpr[b]`).
    prio_beats: [Signal<Local, Bits<W>>; F],
    /// F = 1: warps whose CPR beats the written value (`cpr[b] < cpr_prio`).
    beats_prio: [Signal<Local, Bits<W>>; F],
}

impl<
        const W: usize,
        const L: usize,
        const WB: usize,
        const WB1: usize,
        const LB: usize,
        const PB: usize,
        const D: usize,
        const CB: usize,
        const HB: usize,
        const LW: usize,
        const F: usize,
        const WF: usize,
        const LF: usize,
    > LockUnit<W, L, WB, WB1, LB, PB, D, CB, HB, LW, F, WF, LF>
{
    /// Loop bound of the priority matrix's full recompute (F = 0, the board's form): W, else 0
    /// (a loop of no iterations exports no Verilog).
    const MATRIX_COMPARES: usize = if F == 1 { 0 } else { W };

    /// Build the block; panics with a clear message if the const parameters are inconsistent.
    pub fn new() -> Self {
        assert!((1..=32).contains(&W), "lock_unit: W must be 1..=32");
        assert!((1..=16).contains(&L), "lock_unit: L must be 1..=16");
        assert_eq!(
            WB,
            id_bits(W),
            "lock_unit: WB must be clog2(W) (at least 1)"
        );
        assert_eq!(WB1, WB + 1, "lock_unit: WB1 must be WB + 1");
        assert_eq!(
            LB,
            id_bits(L),
            "lock_unit: LB must be clog2(L) (at least 1)"
        );
        assert!((1..=8).contains(&PB), "lock_unit: PB must be 1..=8");
        assert!(
            (1..=16).contains(&D),
            "lock_unit: D (FIFO depth) must be 1..=16"
        );
        assert_eq!(CB, id_bits(D + 1), "lock_unit: CB must be clog2(D + 1)");
        assert!(
            (7..=16).contains(&HB),
            "lock_unit: HB must be 7..=16 (reset hold limit is 64)"
        );
        assert_eq!(LW, L * WB1, "lock_unit: LW must be L * (WB + 1)");
        assert_eq!(
            F,
            full_forms(W),
            "lock_unit: F must be 1 for W >= 16, else 0"
        );
        assert_eq!(WF, F * W, "lock_unit: WF must be F * W");
        assert_eq!(LF, F * L, "lock_unit: LF must be F * L");
        Self {
            clock: Default::default(),
            reset: Default::default(),
            cpr_we: Default::default(),
            cpr_warp: Default::default(),
            cpr_prio: Default::default(),
            cfg_we: Default::default(),
            cfg_hold_limit: Default::default(),
            acq_valid: Default::default(),
            acq_ready: Default::default(),
            acq_warp: Default::default(),
            acq_lock: Default::default(),
            rel_valid: Default::default(),
            rel_warp: Default::default(),
            rel_lock: Default::default(),
            retire: Default::default(),
            grant: Default::default(),
            deny: Default::default(),
            revoke: Default::default(),
            waiting: Default::default(),
            lock_words: Default::default(),
            error: Default::default(),
            error_code: Default::default(),
            cpr: std::array::from_fn(|_| DFFWithInit::new(Bits::<PB>::mask())),
            beats: std::array::from_fn(|_| Default::default()),
            lock_owner: std::array::from_fn(|_| Default::default()),
            wait_lock: std::array::from_fn(|_| Default::default()),
            rr_next: std::array::from_fn(|_| Default::default()),
            fifo: Default::default(),
            hold: Default::default(),
            picker: HandoffPicker::new(),
            rel_reg_valid: Default::default(),
            rel_reg_warp: Default::default(),
            rel_reg_lock: Default::default(),
            rel_reg_bad: Default::default(),
            hold_revoke: Default::default(),
            head_beats: Default::default(),
            head_lock_losers: Default::default(),
            head_dead: Default::default(),
            head_unbeaten_stay: Default::default(),
            queued_warps: Default::default(),
            stage_valid: Default::default(),
            stage_req: Default::default(),
            stage_lock: Default::default(),
            stage_holder: Default::default(),
            stage_beats_holder: Default::default(),
            stage_warp_id: Default::default(),
            stage_cpr: Default::default(),
            handoff_pick: std::array::from_fn(|_| Default::default()),
            handoff_last: Default::default(),
            out_grant: Default::default(),
            out_deny: Default::default(),
            out_revoke: Default::default(),
            out_error: Default::default(),
            out_error_code: Default::default(),
            depth: Constant::new((D as u64).into()),
            prio_lowest: Constant::new(Bits::<PB>::mask()),
            word_width: Constant::new((WB1 as u64).into()),
            top_offset: Constant::new(((LW - WB1) as u64).into()),
            locked_bit: Constant::new((1u64 << WB).into()),
            rr_succ: std::array::from_fn(|w| Constant::new((((w + 1) % W) as u64).into())),
            acq_warp_oh: Default::default(),
            acq_lock_oh: Default::default(),
            rel_warp_oh: Default::default(),
            rel_lock_oh: Default::default(),
            cpr_warp_oh: Default::default(),
            cpr_next: std::array::from_fn(|_| Default::default()),
            beats_row: Default::default(),
            cpr_col: std::array::from_fn(|_| Default::default()),
            prio_beats: std::array::from_fn(|_| Default::default()),
            beats_prio: std::array::from_fn(|_| Default::default()),
            holders: Default::default(),
            waiting_now: Default::default(),
            lock_owner_next: std::array::from_fn(|_| Default::default()),
            revoked: Default::default(),
            grant_now: Default::default(),
            deny_now: Default::default(),
            rel_hit: Default::default(),
            rel_in_lock: Default::default(),
            hold_revoke_next: Default::default(),
            hold_limit_hit: Default::default(),
            arb_go: Default::default(),
            arb_holder: Default::default(),
            arb_preempted: Default::default(),
            held_per_lock: Default::default(),
            holder_beaten_per_lock: Default::default(),
            unbeaten_waiter_per_lock: Default::default(),
            wait_per_lock: Default::default(),
            next_head_req: Default::default(),
            next_head_lock: Default::default(),
            next_head_beats: Default::default(),
            next_head_cpr: Default::default(),
            next_head_beats_own_write: Default::default(),
            arb_wait: Default::default(),
            arb_clear: Default::default(),
            arb_take_lock: Default::default(),
            head_lock_holder: Default::default(),
            free_after_step2: Default::default(),
            handoff_grant: Default::default(),
            handoff_now: Default::default(),
            acq_accept: Default::default(),
            acq_ok: Default::default(),
            acq_owner: Default::default(),
            acq_beats: Default::default(),
            acq_reserved: Default::default(),
            acq_conflict: Default::default(),
            acq_busy: Default::default(),
            acq_direct: Default::default(),
            busy_warps: Default::default(),
            ended: Default::default(),
            lock_conflict: Default::default(),
            free_for_direct: Default::default(),
            warp_conflict: Default::default(),
            direct_grant: Default::default(),
            occupancy: Default::default(),
            push: Default::default(),
            word: Default::default(),
            word_owner: Default::default(),
            words_acc: Default::default(),
        }
    }
}

impl<
        const W: usize,
        const L: usize,
        const WB: usize,
        const WB1: usize,
        const LB: usize,
        const PB: usize,
        const D: usize,
        const CB: usize,
        const HB: usize,
        const LW: usize,
        const F: usize,
        const WF: usize,
        const LF: usize,
    > Default for LockUnit<W, L, WB, WB1, LB, PB, D, CB, HB, LW, F, WF, LF>
{
    fn default() -> Self {
        Self::new()
    }
}

impl<
        const W: usize,
        const L: usize,
        const WB: usize,
        const WB1: usize,
        const LB: usize,
        const PB: usize,
        const D: usize,
        const CB: usize,
        const HB: usize,
        const LW: usize,
        const F: usize,
        const WF: usize,
        const LF: usize,
    > Logic for LockUnit<W, L, WB, WB1, LB, PB, D, CB, HB, LW, F, WF, LF>
{
    #[hdl_gen]
    fn update(&mut self) {
        // ---- registers hold by default ----
        dff_setup!(
            self,
            clock,
            out_grant,
            out_deny,
            out_revoke,
            out_error,
            out_error_code,
            rel_reg_valid,
            rel_reg_warp,
            rel_reg_lock,
            rel_reg_bad,
            hold_revoke,
            head_beats,
            head_lock_losers,
            head_dead,
            head_unbeaten_stay,
            queued_warps,
            handoff_last,
            stage_valid,
            stage_req,
            stage_lock,
            stage_holder,
            stage_beats_holder,
            stage_warp_id,
            stage_cpr
        );
        for w in 0..W {
            self.cpr[w].clock.next = self.clock.val();
            self.cpr[w].d.next = self.cpr[w].q.val();
            self.beats[w].clock.next = self.clock.val();
            self.beats[w].d.next = self.beats[w].q.val();
            self.wait_lock[w].clock.next = self.clock.val();
            self.wait_lock[w].d.next = self.wait_lock[w].q.val();
        }
        for l in 0..L {
            self.lock_owner[l].clock.next = self.clock.val();
            self.lock_owner[l].d.next = self.lock_owner[l].q.val();
            self.rr_next[l].clock.next = self.clock.val();
            self.rr_next[l].d.next = self.rr_next[l].q.val();
            self.handoff_pick[l].clock.next = self.clock.val();
            self.handoff_pick[l].d.next = self.handoff_pick[l].q.val();
        }
        self.fifo.clock.next = self.clock.val();
        self.fifo.reset.next = self.reset.val();
        self.hold.clock.next = self.clock.val();
        self.hold.reset.next = self.reset.val();

        // ---- decode the request IDs (an out-of-range ID decodes to zero: BAD_ID) ----
        self.acq_warp_oh.next = 0.into();
        self.rel_warp_oh.next = 0.into();
        self.cpr_warp_oh.next = 0.into();
        for w in 0..W {
            if self.acq_warp.val().index() == w {
                self.acq_warp_oh.next = self.acq_warp_oh.val().replace_bit(w, true);
            }
            if self.rel_warp.val().index() == w {
                self.rel_warp_oh.next = self.rel_warp_oh.val().replace_bit(w, true);
            }
            if self.cpr_warp.val().index() == w {
                self.cpr_warp_oh.next = self.cpr_warp_oh.val().replace_bit(w, true);
            }
        }
        self.acq_lock_oh.next = 0.into();
        self.rel_lock_oh.next = 0.into();
        for l in 0..L {
            if self.acq_lock.val().index() == l {
                self.acq_lock_oh.next = self.acq_lock_oh.val().replace_bit(l, true);
            }
            if self.rel_lock.val().index() == l {
                self.rel_lock_oh.next = self.rel_lock_oh.val().replace_bit(l, true);
            }
        }
        self.rel_in_lock.next = 0.into();
        if self.rel_valid.val() {
            self.rel_in_lock.next = self.rel_lock_oh.val();
        }

        // ---- views of the start-of-cycle state ----
        self.holders.next = 0.into();
        for l in 0..L {
            self.holders.next = self.holders.val() | self.lock_owner[l].q.val();
            self.lock_owner_next[l].next = self.lock_owner[l].q.val();
        }
        self.waiting_now.next = 0.into();
        for w in 0..W {
            if self.wait_lock[w].q.val().any() {
                self.waiting_now.next = self.waiting_now.val().replace_bit(w, true);
            }
        }
        self.grant_now.next = 0.into();
        self.deny_now.next = 0.into();

        // ---- 1. the release registered last cycle (clearing a bit nobody owns is a no-op) ----
        self.rel_hit.next = false;
        for l in 0..L {
            if self.rel_reg_lock.q.val().get_bit(l) {
                self.lock_owner_next[l].next =
                    self.lock_owner_next[l].val() & !self.rel_reg_warp.q.val();
                if (self.lock_owner[l].q.val() & self.rel_reg_warp.q.val()).any() {
                    self.rel_hit.next = true;
                }
            }
        }

        // ---- 2. hold-limit revocations marked last cycle ----
        for l in 0..L {
            self.lock_owner_next[l].next =
                self.lock_owner_next[l].val() & !self.hold_revoke.q.val();
        }
        // locks free after steps 1-2 (the hand-off candidates)
        self.free_after_step2.next = 0.into();
        for l in 0..L {
            if !self.lock_owner_next[l].val().any() {
                self.free_after_step2.next = self.free_after_step2.val().replace_bit(l, true);
            }
        }

        // ---- 3. arbiter: the FIFO head, decided against the state after steps 1-2 ----
        // a head whose requester is revoked in step 2 is dead
        self.arb_go.next =
            self.fifo.not_empty.val() & self.fifo.head_live.val() & !self.head_dead.q.val();
        // Per lock, from registers (selected by the head's one-hot lock afterwards): the lock is
        // held after steps 1-2, the holder is beaten by the requester, the holder is the
        // requester, a waiter that stays is not beaten by the requester.
        self.held_per_lock.next = 0.into();
        self.holder_beaten_per_lock.next = 0.into();
        for l in 0..L {
            if (self.lock_owner[l].q.val() & !self.head_lock_losers.q.val()).any() {
                self.held_per_lock.next = self.held_per_lock.val().replace_bit(l, true);
            }
            if (self.lock_owner[l].q.val() & self.head_beats.q.val()).any() {
                self.holder_beaten_per_lock.next =
                    self.holder_beaten_per_lock.val().replace_bit(l, true);
            }
        }
        // waiters of each lock that stay and are not beaten (`head_unbeaten_stay`)
        self.unbeaten_waiter_per_lock.next = 0.into();
        for w in 0..W {
            if self.head_unbeaten_stay.q.val().get_bit(w) {
                self.unbeaten_waiter_per_lock.next =
                    self.unbeaten_waiter_per_lock.val() | self.wait_lock[w].q.val();
            }
        }
        // the verdict per lock — wait: held by another warp that the requester does not beat,
        // or free with a waiter that the requester does not beat — then selected by the head's
        // lock (win otherwise; a preemption is the win over a beaten holder)
        self.wait_per_lock.next = (self.held_per_lock.val() & !self.holder_beaten_per_lock.val())
            | (!self.held_per_lock.val() & self.unbeaten_waiter_per_lock.val());
        // the holder of the head's lock (one-hot; the direct acquire below reads it too), after
        // steps 1-2, and the same when the requester beats it (it is revoked: per warp, without
        // waiting for the verdict)
        self.head_lock_holder.next = 0.into();
        for l in 0..L {
            if self.fifo.head_lock.val().get_bit(l) {
                self.head_lock_holder.next =
                    self.head_lock_holder.val() | self.lock_owner[l].q.val();
            }
        }
        self.arb_holder.next = self.head_lock_holder.val() & !self.head_lock_losers.q.val();
        self.arb_preempted.next = 0.into();
        if self.arb_go.val() {
            self.arb_preempted.next =
                self.arb_holder.val() & self.head_beats.q.val() & !self.fifo.head_req.val();
        }
        self.arb_wait.next =
            self.arb_go.val() & (self.wait_per_lock.val() & self.fifo.head_lock.val()).any();
        self.arb_clear.next = self.arb_preempted.val();
        self.arb_take_lock.next = 0.into();
        if self.arb_wait.val() {
            self.arb_clear.next = self.fifo.head_req.val();
        }
        if self.arb_go.val() & !self.arb_wait.val() {
            self.arb_take_lock.next = self.fifo.head_lock.val();
        }
        self.revoked.next = self.hold_revoke.q.val() | self.arb_preempted.val();
        for l in 0..L {
            self.lock_owner_next[l].next = self.lock_owner_next[l].val() & !self.arb_clear.val();
            if self.arb_take_lock.val().get_bit(l) {
                self.lock_owner_next[l].next = self.fifo.head_req.val();
            }
        }
        if self.arb_go.val() & !self.arb_wait.val() {
            self.grant_now.next = self.fifo.head_req.val();
        }
        // revocation ends a wait too (a warp told to wait after its hold-limit mark was set)
        for w in 0..W {
            if self.hold_revoke.q.val().get_bit(w) {
                self.wait_lock[w].d.next = 0.into();
            }
        }
        if self.arb_wait.val() {
            self.deny_now.next = self.fifo.head_req.val();
            for w in 0..W {
                if self.fifo.head_req.val().get_bit(w) {
                    self.wait_lock[w].d.next = self.fifo.head_lock.val();
                }
            }
        }

        // ---- 4. hand-off of locks free after steps 1-2 to last cycle's picks ----
        // the pick counts only if it still waits on that lock (mask it bit by bit), and not
        // for a lock handed off last cycle (that pick predates the round-robin move)
        self.handoff_now.next = 0.into();
        for l in 0..L {
            self.handoff_grant.next = 0.into();
            for w in 0..W {
                if self.handoff_pick[l].q.val().get_bit(w)
                    & self.wait_lock[w].q.val().get_bit(l)
                    & !self.hold_revoke.q.val().get_bit(w)
                    & !self.handoff_last.q.val().get_bit(l)
                {
                    self.handoff_grant.next = self.handoff_grant.val().replace_bit(w, true);
                }
            }
            // (not when the arbiter takes this free lock: its requester beats every waiter)
            if self.free_after_step2.val().get_bit(l)
                & !(self.arb_go.val()
                    & self.fifo.head_lock.val().get_bit(l)
                    & !self.unbeaten_waiter_per_lock.val().get_bit(l))
            {
                self.lock_owner_next[l].next =
                    self.lock_owner_next[l].val() | self.handoff_grant.val();
                self.grant_now.next = self.grant_now.val() | self.handoff_grant.val();
                if self.handoff_grant.val().any() {
                    self.handoff_now.next = self.handoff_now.val().replace_bit(l, true);
                }
                for w in 0..W {
                    if self.handoff_grant.val().get_bit(w) {
                        self.wait_lock[w].d.next = 0.into();
                        self.rr_next[l].d.next = self.rr_succ[w].val();
                    }
                }
            }
        }

        self.handoff_last.d.next = self.handoff_now.val();

        // ---- 5. new acquire, against the start-of-cycle state ----
        // per lock and per warp first (registers only), then selected by the request. Only what
        // this cycle's arbiter decides can touch a free lock nobody waits for: the lock of a live
        // head (not a dead one, not a release in flight: it changes no free lock)
        self.lock_conflict.next = 0.into();
        if self.arb_go.val() {
            self.lock_conflict.next = self.fifo.head_lock.val();
        }
        // ... and the lock of a staged entry that SPEC 4 protects (its requester strictly beat
        // the holder when queued: a direct grant to a warp it does not beat would make it wait
        // past `fifo_depth + 3`; SPEC lets the arbiter take its entry first)
        if self.stage_valid.q.val() & self.stage_beats_holder.q.val() {
            self.lock_conflict.next = self.lock_conflict.val() | self.stage_lock.q.val();
        }
        self.free_for_direct.next = 0.into();
        for l in 0..L {
            self.acq_reserved.next = false;
            for w in 0..W {
                if self.wait_lock[w].q.val().get_bit(l) {
                    self.acq_reserved.next = true;
                }
            }
            if !self.lock_owner[l].q.val().any()
                & !self.acq_reserved.val()
                & !self.lock_conflict.val().get_bit(l)
            {
                self.free_for_direct.next = self.free_for_direct.val().replace_bit(l, true);
            }
        }
        // a warp revoked in this cycle (hold limit, or the holder the arbiter preempts) is
        // never granted in it (SPEC 5): its acquire is queued
        self.warp_conflict.next = self.revoked.val();
        // occupancy: the FIFO plus the entry joining its tail
        self.occupancy.next = self.fifo.count.val();
        if self.stage_valid.q.val() {
            self.occupancy.next = self.fifo.count.val() + 1;
        }
        self.acq_ready.next = self.occupancy.val() < self.depth.val();
        self.acq_accept.next = self.acq_valid.val() & (self.occupancy.val() < self.depth.val());
        // BUSY: waits, or has a live request (FIFO: `queued_warps`; or the stage register)
        self.busy_warps.next = self.queued_warps.q.val() | self.waiting_now.val();
        if self.stage_valid.q.val() {
            self.busy_warps.next = self.busy_warps.val() | self.stage_req.q.val();
        }
        self.acq_busy.next = (self.busy_warps.val() & self.acq_warp_oh.val()).any();
        self.acq_ok.next = self.acq_accept.val()
            & self.acq_warp_oh.val().any()
            & self.acq_lock_oh.val().any()
            & !self.acq_busy.val();
        self.acq_owner.next = 0.into();
        for l in 0..L {
            if self.acq_lock_oh.val().get_bit(l) {
                self.acq_owner.next = self.lock_owner[l].q.val();
            }
        }
        self.acq_conflict.next = (self.warp_conflict.val() & self.acq_warp_oh.val()).any();
        self.acq_direct.next = (self.free_for_direct.val() & self.acq_lock_oh.val()).any();
        self.push.next = self.acq_ok.val() & (self.acq_conflict.val() | !self.acq_direct.val());
        // a free lock taken at once: written bit by bit from per-warp and per-lock terms
        self.direct_grant.next =
            self.acq_warp_oh.val() & !self.busy_warps.val() & !self.warp_conflict.val();
        if self.acq_accept.val() & self.acq_direct.val() {
            self.grant_now.next = self.grant_now.val() | self.direct_grant.val();
        }
        for l in 0..L {
            if self.acq_accept.val()
                & self.free_for_direct.val().get_bit(l)
                & self.acq_lock_oh.val().get_bit(l)
            {
                self.lock_owner_next[l].next = self.direct_grant.val();
            }
        }
        // a queued acquire waits one cycle in the stage, then joins the FIFO's tail
        self.stage_valid.d.next = self.push.val();
        self.stage_req.d.next = self.acq_warp_oh.val();
        self.stage_lock.d.next = self.acq_lock_oh.val();
        self.stage_holder.d.next = self.acq_owner.val();
        self.acq_beats.next = 0.into();
        for w in 0..W {
            if self.acq_warp_oh.val().get_bit(w) {
                self.acq_beats.next = self.acq_beats.val() | self.beats[w].q.val();
            }
        }
        self.stage_beats_holder.d.next = (self.acq_beats.val() & self.acq_owner.val()).any();

        // ---- hold-limit marks for the next cycle (not for a warp revoked in this one) ----
        // (the hold counters: a holder's retire that reaches the limit, `hold_limit_hit`)
        self.hold.holders.next = self.holders.val();
        self.hold.retire.next = self.retire.val();
        self.hold.cfg_we.next = self.cfg_we.val();
        self.hold.cfg_hold_limit.next = self.cfg_hold_limit.val();
        self.hold_limit_hit.next = self.hold.limit_hit.val();
        self.hold_revoke_next.next = self.hold_limit_hit.val() & !self.revoked.val();
        self.hold_revoke.d.next = self.hold_revoke_next.val();
        // `hold_limit_hit` is the same marks without the "not revoked in this cycle" term, for
        // the next head's precomputed inputs: a warp revoked now owns nothing, waits for nothing
        // and has no live request next cycle, so there the term changes nothing (and it is a
        // late signal)

        // ---- queued_warps: the staged entry joins; a request ends by the arbiter's verdict (granted,
        // or now waiting) or by a revocation of its warp ----
        self.ended.next = self.revoked.val();
        if self.arb_go.val() {
            self.ended.next = self.ended.val() | self.fifo.head_req.val();
        }
        self.queued_warps.d.next = self.queued_warps.q.val() & !self.ended.val();
        if self.stage_valid.q.val() {
            self.queued_warps.d.next =
                (self.queued_warps.q.val() | self.stage_req.q.val()) & !self.ended.val();
        }

        // ---- arbiter FIFO: kill entries of revoked warps, pop the head, push the staged entry ----
        self.fifo.revoked.next = self.revoked.val();
        self.fifo.push_valid.next = self.stage_valid.q.val();
        self.fifo.push_req.next = self.stage_req.q.val();
        self.fifo.push_holder.next = self.stage_holder.q.val();
        self.fifo.push_lock.next = self.stage_lock.q.val();

        // ---- 7. hand-off picks for the next cycle: best waiter of every lock in this state ----
        for w in 0..W {
            self.picker.wait_lock[w].next = self.wait_lock[w].q.val();
            self.picker.beats[w].next = self.beats[w].q.val();
        }
        for l in 0..L {
            self.picker.rr_start[l].next = self.rr_next[l].q.val();
            self.handoff_pick[l].d.next = self.picker.pick[l].val();
        }

        // ---- the release is registered; it is applied next cycle ----
        self.rel_reg_valid.d.next = self.rel_valid.val();
        self.rel_reg_warp.d.next = self.rel_warp_oh.val();
        self.rel_reg_lock.d.next = self.rel_in_lock.val();
        self.rel_reg_bad.d.next = !(self.rel_warp_oh.val().any() & self.rel_lock_oh.val().any());

        // ---- host writes (effective next cycle); the priority matrix follows the CPRs ----
        for w in 0..W {
            self.cpr_next[w].next = self.cpr[w].q.val();
            if self.cpr_we.val() & self.cpr_warp_oh.val().get_bit(w) {
                self.cpr_next[w].next = self.cpr_prio.val();
            }
            self.cpr[w].d.next = self.cpr_next[w].val();
        }
        // W < 16 (the board): every row recomputed from `cpr_next`, W² compares of two muxed CPRs
        for a in 0..Self::MATRIX_COMPARES {
            self.beats_row.next = 0.into();
            for b in 0..Self::MATRIX_COMPARES {
                if self.cpr_next[a].val() < self.cpr_next[b].val() {
                    self.beats_row.next = self.beats_row.val().replace_bit(b, true);
                }
            }
            self.beats[a].d.next = self.beats_row.val();
        }
        // W ≥ 16: only the written warp's row and column change (the matrix always equals the
        // CPRs' compares: both reset together), from 2·W compares of the port's value against
        // the registers; the written row's own bit stays clear (a CPR never beats itself)
        for f in 0..F {
            self.cpr_col[f].next = 0.into();
            if self.cpr_we.val() {
                self.cpr_col[f].next = self.cpr_warp_oh.val();
            }
            self.prio_beats[f].next = 0.into();
            self.beats_prio[f].next = 0.into();
            for b in 0..WF {
                if self.cpr_prio.val() < self.cpr[b].q.val() {
                    self.prio_beats[f].next = self.prio_beats[f].val().replace_bit(b, true);
                }
                if self.cpr[b].q.val() < self.cpr_prio.val() {
                    self.beats_prio[f].next = self.beats_prio[f].val().replace_bit(b, true);
                }
            }
            for a in 0..WF {
                self.beats_row.next = self.beats[a].q.val() & !self.cpr_col[f].val();
                if self.beats_prio[f].val().get_bit(a) {
                    self.beats_row.next = self.beats_row.val() | self.cpr_col[f].val();
                }
                if self.cpr_col[f].val().get_bit(a) {
                    self.beats_row.next = self.prio_beats[f].val() & !self.cpr_col[f].val();
                }
                self.beats[a].d.next = self.beats_row.val();
            }
        }

        // ---- the arbiter's inputs for the next head: the staged entry. (The arbiter pops one
        // entry per cycle and the stage adds at most one, so the FIFO never holds more than the
        // head: the next head is always the staged entry. The golden model checks it.) ----
        self.next_head_req.next = self.stage_req.q.val();
        self.next_head_lock.next = self.stage_lock.q.val();
        // Its row of the priority matrix next cycle: its CPR next cycle (the staged copy, or the
        // value the CPR port writes to it now) against every warp's CPR next cycle (the
        // register, or the value written to it now). Every compare is made from registers or
        // the port, and the writes only select among them afterwards. (Its own bit is set: it
        // "beats" its own lock word, so that a re-acquire of a lock it holds is a win without a
        // separate test; nothing else reads that bit.)
        self.next_head_beats.next = self.next_head_req.val();
        self.next_head_beats_own_write.next = self.next_head_req.val();
        for b in 0..W {
            if self.cpr_we.val() & self.cpr_warp_oh.val().get_bit(b) {
                // b is written now: the staged CPR against the written value
                if self.stage_cpr.q.val() < self.cpr_prio.val() {
                    self.next_head_beats.next = self.next_head_beats.val().replace_bit(b, true);
                }
            } else {
                if self.stage_cpr.q.val() < self.cpr[b].q.val() {
                    self.next_head_beats.next = self.next_head_beats.val().replace_bit(b, true);
                }
                if self.cpr_prio.val() < self.cpr[b].q.val() {
                    self.next_head_beats_own_write.next =
                        self.next_head_beats_own_write.val().replace_bit(b, true);
                }
            }
        }
        if self.cpr_we.val() & (self.cpr_warp.val() == self.stage_warp_id.q.val()) {
            self.next_head_beats.next = self.next_head_beats_own_write.val();
        }
        // the CPR of the warp staged now, as of next cycle (bit by bit as an OR of AND terms)
        self.next_head_cpr.next = 0.into();
        for a in 0..W {
            for p in 0..PB {
                if self.acq_warp_oh.val().get_bit(a) & self.cpr_next[a].val().get_bit(p) {
                    self.next_head_cpr.next = self.next_head_cpr.val().replace_bit(p, true);
                }
            }
        }
        self.stage_cpr.d.next = self.next_head_cpr.val();
        self.stage_warp_id.d.next = self.acq_warp.val();
        self.head_beats.d.next = self.next_head_beats.val();
        self.head_lock_losers.d.next = self.hold_limit_hit.val();
        if (self.rel_in_lock.val() & self.next_head_lock.val()).any() {
            self.head_lock_losers.d.next = self.hold_limit_hit.val() | self.rel_warp_oh.val();
        }
        self.head_dead.d.next = (self.next_head_req.val() & self.hold_limit_hit.val()).any();
        self.head_unbeaten_stay.d.next = !(self.hold_limit_hit.val() | self.next_head_beats.val());

        // ---- errors: release's beats acquire's beats the CPR port's ----
        self.out_error.d.next = false;
        self.out_error_code.d.next = 0.into();
        if self.cpr_we.val() & !self.cpr_warp_oh.val().any() {
            self.out_error.d.next = true;
            self.out_error_code.d.next = 3.into();
        }
        if self.acq_accept.val() & !(self.acq_warp_oh.val().any() & self.acq_lock_oh.val().any()) {
            self.out_error.d.next = true;
            self.out_error_code.d.next = 3.into();
        } else if self.acq_accept.val() & self.acq_busy.val() {
            self.out_error.d.next = true;
            self.out_error_code.d.next = 2.into();
        }
        if self.rel_reg_valid.q.val() & self.rel_reg_bad.q.val() {
            self.out_error.d.next = true;
            self.out_error_code.d.next = 3.into();
        } else if self.rel_reg_valid.q.val() & !self.rel_hit.val() {
            self.out_error.d.next = true;
            self.out_error_code.d.next = 1.into();
        }

        // ---- state and strobe registers ----
        for l in 0..L {
            self.lock_owner[l].d.next = self.lock_owner_next[l].val();
        }
        self.out_grant.d.next = self.grant_now.val();
        self.out_deny.d.next = self.deny_now.val();
        self.out_revoke.d.next = self.revoked.val();

        // ---- synchronous reset (values equal the DFF init values) ----
        if self.reset.val() {
            self.out_grant.d.next = 0.into();
            self.out_deny.d.next = 0.into();
            self.out_revoke.d.next = 0.into();
            self.out_error.d.next = false;
            self.out_error_code.d.next = 0.into();
            self.rel_reg_valid.d.next = false;
            self.rel_reg_warp.d.next = 0.into();
            self.rel_reg_lock.d.next = 0.into();
            self.rel_reg_bad.d.next = false;
            self.hold_revoke.d.next = 0.into();
            self.head_beats.d.next = 0.into();
            self.head_lock_losers.d.next = 0.into();
            self.head_dead.d.next = false;
            self.head_unbeaten_stay.d.next = 0.into();
            self.stage_valid.d.next = false;
            self.queued_warps.d.next = 0.into();
            self.handoff_last.d.next = 0.into();
            self.stage_req.d.next = 0.into();
            self.stage_lock.d.next = 0.into();
            self.stage_holder.d.next = 0.into();
            self.stage_beats_holder.d.next = false;
            self.stage_warp_id.d.next = 0.into();
            self.stage_cpr.d.next = 0.into();
            for w in 0..W {
                self.cpr[w].d.next = self.prio_lowest.val();
                self.beats[w].d.next = 0.into();
                self.wait_lock[w].d.next = 0.into();
            }
            for l in 0..L {
                self.lock_owner[l].d.next = 0.into();
                self.rr_next[l].d.next = 0.into();
                self.handoff_pick[l].d.next = 0.into();
            }
        }

        // ---- outputs ----
        self.grant.next = self.out_grant.q.val();
        self.deny.next = self.out_deny.q.val();
        self.revoke.next = self.out_revoke.q.val();
        self.error.next = self.out_error.q.val();
        self.error_code.next = self.out_error_code.q.val();
        self.waiting.next = self.waiting_now.val();
        // pack lock words: shift right by one word per lock so that lock 0 ends at the bottom
        self.words_acc.next = 0.into();
        for l in 0..L {
            self.word_owner.next = 0.into();
            for w in 0..W {
                if self.lock_owner[l].q.val().get_bit(w) {
                    self.word_owner.next = w.to_bits();
                }
            }
            self.word.next = 0.into();
            if self.lock_owner[l].q.val().any() {
                self.word.next = self.locked_bit.val() | bit_cast::<WB1, WB>(self.word_owner.val());
            }
            self.words_acc.next = (self.words_acc.val() >> self.word_width.val())
                | (bit_cast::<LW, WB1>(self.word.val()) << self.top_offset.val());
        }
        self.lock_words.next = self.words_acc.val();
    }
}
