//! Kernel preemption controller (SPEC Unit 4, seed 002): the patent's runtime method S1–S4 as a
//! command-processor block in front of the GPU for one best-effort task.
//!
//! The behaviour, cycle by cycle, is specified by `golden_model::preempt_ctrl` (its module doc
//! is normative: the order of one cycle's events, every decision SPEC left open); this block
//! implements it and is checked against it every cycle, and against the transaction-level spec
//! checker `testbench::spec::preempt_ctrl`.
//!
//! ## Ports (board config: D = 16, 8-bit ids; the exported module `top` has exactly these)
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `clock`, `reset` | in | 1 | one clock; synchronous active-high reset |
//! | `launch_valid`, `launch_ready`, `launch_id`, `launch_idem` | in/out/in/in | 1, 1, IB, 1 | launch stream (S2.2): kernel id and "verified idempotent" (S1.1) |
//! | `submit_valid`, `submit_ready`, `submit_id` | out/in/out | 1, 1, IB | submit stream to the GPU runtime (S2.3); `submit_id` is 0 while `submit_valid` is low |
//! | `start_valid`, `start_id` | in | 1, IB | the GPU reports a kernel's entry check (S1.2) |
//! | `done_valid`, `done_id` | in | 1, IB | a RUNNING kernel finished |
//! | `killed` | in | 1 | the GPU confirms the CU reset |
//! | `ack_valid`, `ack_id`, `ack_skip` | out | 1, IB, 1 | answer to a legal start, exactly one cycle after it: skip (exit at once) or go |
//! | `preempt`, `resume` | in | 1 | one-cycle command strobes (S3, S4) |
//! | `cu_reset` | out | 1 | one-cycle pulse: reset the compute units (S3.3) |
//! | `preempt_done` | out | 1 | one-cycle strobe: nothing of the task is SUBMITTED or RUNNING any more |
//! | `preempted` | out | 1 | level: the preempted flag (S3.2) |
//! | `cfg_we`, `cfg_max_inflight` | in | 1, 4 | write `max_inflight` (1–8, reset 8; effective next cycle) |
//! | `inflight` | out | 4 | SUBMITTED + RUNNING entries |
//! | `error`, `error_code` | out | 1, 3 | strobe one cycle after the offending input; 1 `DUP_ID`, 2 `BAD_EVENT`, 3 `BAD_STATE`, 4 `BAD_CFG` |
//!
//! ## Latency (cycle t = the input's cycle; measured by `synth bench`, pinned by the test
//! `rtl_contract_latencies`, and checked as SPEC windows by the spec checker)
//! - `launch_ready`, `submit_valid`, `submit_id`, `preempted`, `inflight` are combinational
//!   from registers only (never from this cycle's inputs): `launch_ready` = the last slot of the
//!   queue array is empty. One launch and one submission per cycle.
//! - `ack` in t+1 for a start in t (exactly one cycle, the contract).
//! - `preempt` in t → `preempted` high from t+1, no `submit_valid` from t+1 (a submission in t
//!   itself is made: its valid was already shown), the CU-reset decision in t+1 on the state
//!   after t, `cu_reset` in **t+2** (SPEC: ≤ 4, goal 2).
//! - `preempt_done` **2 cycles** after the event (done, skip-start, `killed`, or the preempt
//!   itself when nothing is in flight) that left nothing SUBMITTED or RUNNING with no CU reset
//!   outstanding (SPEC: ≤ 2).
//! - `resume` in t → first resubmission offered in **t+1** (SPEC: ≤ 3).
//! - errors in t+1.
//!
//! ## Structure and cost
//! One array of D slots holds the whole task in order: the in-flight table (submission order)
//! as a prefix, the launch queue after it. A slot has an id register and three flags per slot,
//! kept as D-bit vectors: `tbl` (the slot is a table entry), `act` (SUBMITTED or RUNNING),
//! `started` (RUNNING or SKIPPED; SUBMITTED = `act ∧ ¬started`, KILLED = neither). So
//! - submit marks the first queued slot (`used ∧ ¬tbl ∧ (tbl ≪ 1 | 1)`) as a table entry;
//! - resume (S4.2) only clears `tbl`: the skipped and killed entries *are* the head of the
//!   queue already, in their original order — no copy;
//! - done removes its slot: every slot from it up takes its upper neighbour (one mux per bit).
//!   The removal is applied one cycle late: the done's compares end in a one-hot register
//!   `rm` (the slot, in the coordinates after any removal already pending), and the next
//!   cycle shifts by it while every reader takes that slot as gone (`run ∧ ¬rm` for a done,
//!   `used ∧ ¬rm` for the duplicate check, `act ∧ ¬rm` for the CU-reset decision, "full" is
//!   the last slot used and no removal pending; a launch into a full array with a removal
//!   pending goes to the last slot after the shift);
//! - launch writes the first empty slot after the removal (its id and idem flag on every
//!   `launch_valid`, into a slot nothing reads when the launch is refused; only `used` waits
//!   for the duplicate check).
//!
//! Started entries precede the SUBMITTED ones, so the oldest SUBMITTED slot is
//! `act ∧ ¬started ∧ (started ≪ 1 | 1)`; its id is also kept in a register (`old_id`, valid
//! with `has_sub`), so a start is judged by one compare against a register. Compares: launch
//! id against every slot (`DUP_ID`), start id against `old_id`, done id against every RUNNING
//! slot's; each is a flat per-slot compare, masked and OR-reduced, the strobe last. The table flags exist only for the first
//! min(8, D) slots (a constant mask; yosys removes the others): SUBMITTED + RUNNING never
//! exceeds `max_inflight` ≤ 8, and SKIPPED/KILLED entries exist only while preempted, when
//! nothing is submitted. RUNNING (`tbl ∧ act ∧ started`) is also kept as its own register
//! `run`. `submit_id` is an AND-OR of the ids by the one-hot head with `can_submit` applied
//! last; `can_submit` reads "below `max_inflight`" from the sign and zero bits of a register
//! `room` = `max_inflight − active` (updated with the counter; `max_inflight` itself is not
//! kept) and "queue not empty" from the first nine slots (the head is slot |table| ≤ 8).
//! `inflight` is a counter that takes a done one cycle late: `active`
//! counts without the done of the previous cycle, `pend` holds it, and every reader (the
//! `inflight` port, `max_inflight`, the CU-reset and done decisions) uses `active − pend`, so
//! a done's compares end in one flip-flop instead of the counter.
//!
//! ## Cost (board config, iCE40 HX8K, `synth report --only preempt_ctrl --seeds 1,2,3`)
//! **1107 LCs** (incl. the harness's 69 flip-flops); **104.4 MHz median** of placement seeds
//! 1–3 (108.2, 104.4, 100.6; before issue #20 903 LCs, 78.1), mapped with yosys
//! `synth_ice40 -abc9` (the unit's entry in `synth::flow::ice40_options`; the same netlist
//! with plain `synth_ice40`: 1020 LCs, 98.0 / 98.0 / 99.2). The critical path of seed 1
//! (9.2 ns, 5 LUT levels, 6.6 ns of it routing) runs from `pend` through the count
//! `active − pend` and the CU-reset decision into the `act` flags. The error flags are
//! registered raw and decoded after their registers; the start's compare selects the table
//! flags last. What was tried, how these numbers were measured and what is left:
//! `docs/preempt_ctrl.md`.
//!
//! ## Worked example (the golden model's `worked_example_reset_and_resubmission`)
//! Launch 10, 11, 12 (idempotent), `max_inflight` 2: 10 and 11 are submitted; start(10) →
//! ack {10, go}. Preempt in cycle p: `preempted` from p+1, `cu_reset` in p+2 (10 RUNNING and
//! 11 SUBMITTED, both idempotent). `killed` in k → both KILLED, `preempt_done` in k+2. Resume →
//! `submit_valid` with 10, then 11, then 12.

use rust_hdl::prelude::*;

/// The preemption controller. `D` launch queue depth (queued + table ≤ D), `IB` kernel id bits.
#[derive(LogicBlock)]
pub struct PreemptCtrl<const D: usize, const IB: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high: empty queue and table, flag clear, `max_inflight` 8.
    pub reset: Signal<In, Bit>,
    /// Launch valid (S2.2: the intercepted launch call).
    pub launch_valid: Signal<In, Bit>,
    /// Launch accepted when valid: queued + table < D. From registers only.
    pub launch_ready: Signal<Out, Bit>,
    /// Kernel id of the launch.
    pub launch_id: Signal<In, Bits<IB>>,
    /// The kernel was verified idempotent offline (S1.1).
    pub launch_idem: Signal<In, Bit>,
    /// The queue head is offered to the GPU runtime (not preempted, below `max_inflight`).
    pub submit_valid: Signal<Out, Bit>,
    /// The runtime takes the offered kernel.
    pub submit_ready: Signal<In, Bit>,
    /// Id of the offered kernel (0 while `submit_valid` is low).
    pub submit_id: Signal<Out, Bits<IB>>,
    /// The GPU reports a kernel's entry check (must be the oldest SUBMITTED).
    pub start_valid: Signal<In, Bit>,
    /// Id of the starting kernel.
    pub start_id: Signal<In, Bits<IB>>,
    /// A RUNNING kernel finished.
    pub done_valid: Signal<In, Bit>,
    /// Id of the finished kernel.
    pub done_id: Signal<In, Bits<IB>>,
    /// The GPU confirms the CU reset.
    pub killed: Signal<In, Bit>,
    /// Answer to the start of the previous cycle.
    pub ack_valid: Signal<Out, Bit>,
    /// Id of the answered start (0 while `ack_valid` is low).
    pub ack_id: Signal<Out, Bits<IB>>,
    /// The answer is skip (preempted); go otherwise.
    pub ack_skip: Signal<Out, Bit>,
    /// Command strobe: preempt the task (S3).
    pub preempt: Signal<In, Bit>,
    /// Command strobe: resume the task (S4).
    pub resume: Signal<In, Bit>,
    /// One-cycle pulse: reset the compute units (S3.3).
    pub cu_reset: Signal<Out, Bit>,
    /// One-cycle strobe: the preemption is complete.
    pub preempt_done: Signal<Out, Bit>,
    /// Level: the preempted flag.
    pub preempted: Signal<Out, Bit>,
    /// Write `cfg_max_inflight` into `max_inflight`.
    pub cfg_we: Signal<In, Bit>,
    /// New `max_inflight`, 1..=8 (0 and 9..15 are `BAD_CFG`).
    pub cfg_max_inflight: Signal<In, Bits<4>>,
    /// SUBMITTED + RUNNING entries.
    pub inflight: Signal<Out, Bits<4>>,
    /// Error strobe (one cycle after the offending input).
    pub error: Signal<Out, Bit>,
    /// 1 DUP_ID, 2 BAD_EVENT, 3 BAD_STATE, 4 BAD_CFG; 0 while `error` is low.
    pub error_code: Signal<Out, Bits<3>>,

    // ---- state ----
    /// Kernel id per slot (slot 0 = oldest table entry, or the queue head).
    ids: [DFF<Bits<IB>>; D],
    /// Slot holds a kernel (a prefix of the slots).
    used: DFF<Bits<D>>,
    /// Slot's kernel is idempotent.
    idem: DFF<Bits<D>>,
    /// Slot is an in-flight table entry (a prefix of `used`).
    tbl: DFF<Bits<D>>,
    /// Table entry is SUBMITTED or RUNNING.
    act: DFF<Bits<D>>,
    /// Table entry has started (RUNNING or SKIPPED).
    started: DFF<Bits<D>>,
    /// RUNNING entries (`tbl ∧ act ∧ started`, kept as its own register so that a done's
    /// compares are masked by one flip-flop per slot).
    run: DFF<Bits<D>>,
    /// The slot a done of the previous cycle removes (one-hot, 0 for none): the removal is
    /// applied one cycle late, at the end of this cycle, so a done's compares end in this
    /// plain register instead of every slot's shift. Until then the slot is read as gone.
    rm: DFF<Bits<D>>,
    /// SUBMITTED + RUNNING count, not yet less a done of the previous cycle (`pend`).
    active: DFF<Bits<4>>,
    /// A done was accepted in the previous cycle and is not yet taken off `active`: every
    /// reader of the count uses `active − pend`.
    pend: DFF<Bit>,
    /// Some table entry is SUBMITTED, and the id of the oldest one (the only legal start):
    /// kept in registers so that a start is judged by one compare against a register.
    has_sub: DFF<Bit>,
    old_id: DFF<Bits<IB>>,
    /// `max_inflight − active` (5-bit two's complement, reset 8): `below_max` is read from its
    /// sign and zero bits, so `can_submit` needs no compare (the run-time register
    /// `max_inflight` itself is not kept: nothing else reads it).
    room: DFFWithInit<Bits<5>>,
    /// The preempted flag (S3.2).
    flag: DFF<Bit>,
    /// A legal preempt came in the previous cycle: decide the CU reset now.
    deciding: DFF<Bit>,
    /// `cu_reset` pulsed, `killed` not yet seen.
    outstanding: DFF<Bit>,
    /// `preempt_done` has strobed since the last preempt.
    sent: DFF<Bit>,
    /// Output registers.
    ack_valid_q: DFF<Bit>,
    ack_id_q: DFF<Bits<IB>>,
    ack_skip_q: DFF<Bit>,
    cu_reset_q: DFF<Bit>,
    done_q: DFF<Bit>,
    /// The four error classes of the previous cycle, registered raw (`DUP_ID`, `BAD_EVENT`,
    /// `BAD_STATE`, `BAD_CFG`): `error` and `error_code` are decoded from them, so the
    /// compares of this cycle's inputs end in a flip-flop, not in the code's priority logic.
    e_dup_q: DFF<Bit>,
    e_event_q: DFF<Bit>,
    e_state_q: DFF<Bit>,
    e_cfg_q: DFF<Bit>,

    // ---- constants ----
    one: Constant<Bits<D>>,
    /// The last slot (`1 << (D - 1)`): full when it is used.
    last: Constant<Bits<D>>,
    /// `upto[i]`: slots 0..=i.
    upto: [Constant<Bits<D>>; D],
    /// The first min(8, D) slots: the only ones that can be table entries.
    table_mask: Constant<Bits<D>>,
    /// The first min(9, D) slots: the queue head (the first slot after the table) is one of them.
    head_mask: Constant<Bits<D>>,
    /// 8: the largest legal `max_inflight` (the `BAD_CFG` range check).
    eight: Constant<Bits<4>>,
    /// Every bit but bit 0 (`active` ≥ 2).
    not_one: Constant<Bits<4>>,
    /// 1 and 2 in `room`'s 5-bit width; 1, 2 and 4 in `error_code`'s 3 bits (its code bits).
    one5: Constant<Bits<5>>,
    two5: Constant<Bits<5>>,
    one3: Constant<Bits<3>>,
    two3: Constant<Bits<3>>,
    four3: Constant<Bits<3>>,

    // ---- combinational working signals ----
    /// The queue head (S2.3), one-hot: the first used slot that is not a table entry.
    head: Signal<Local, Bits<D>>,
    /// `submit_valid`: not preempted, the queue is not empty and SUBMITTED + RUNNING is below
    /// `max_inflight`.
    can_submit: Signal<Local, Bit>,
    /// The head's id (an OR of the ids masked by the one-hot head; not gated by `can_submit`).
    sid: Signal<Local, Bits<IB>>,
    /// `ids[i]` if slot i is the head, else 0.
    sid_term: [Signal<Local, Bits<IB>>; D],
    /// `room` after the cycle for the four values of `pend` − (submit − skip answer):
    /// −1, 0, +1, +2, each from the config or the old `room`, computed in parallel and
    /// selected last by the late submit / start decisions.
    r_m1: Signal<Local, Bits<5>>,
    r_0: Signal<Local, Bits<5>>,
    r_p1: Signal<Local, Bits<5>>,
    r_p2: Signal<Local, Bits<5>>,
    /// The count goes up (a submission, no skip answer) / down (a skip answer, no submission).
    cnt_up: Signal<Local, Bit>,
    cnt_dn: Signal<Local, Bit>,
    /// The slot a launch sets in `used` (before the duplicate check).
    u_slot: Signal<Local, Bits<D>>,
    /// SUBMITTED table entries (`tbl ∧ act ∧ ¬started`) and the oldest of them (one-hot: the
    /// only slot a legal start may name).
    subm: Signal<Local, Bits<D>>,
    oldest: Signal<Local, Bits<D>>,
    /// The slot after the oldest SUBMITTED one is SUBMITTED too, and its id.
    next_sub: Signal<Local, Bit>,
    next_id: Signal<Local, Bits<IB>>,
    /// `start_id` names the oldest SUBMITTED kernel; with `start_valid`: the start is legal.
    start_hit: Signal<Local, Bit>,
    start_ok: Signal<Local, Bit>,
    /// RUNNING slots (not pending removal) whose id equals `done_id`.
    done_hit: Signal<Local, Bits<D>>,
    /// Slots whose id equals `done_id` / `launch_id`; some RUNNING slot matches `done_id`.
    eq_done: Signal<Local, Bits<D>>,
    eq_launch: Signal<Local, Bits<D>>,
    done_any: Signal<Local, Bit>,
    /// `used` bits cleared and set this cycle.
    u_rm: Signal<Local, Bits<D>>,
    u_add: Signal<Local, Bits<D>>,
    /// `done_valid` names a RUNNING kernel: the done is legal.
    done_ok: Signal<Local, Bit>,
    /// A removal is pending (`rm` ≠ 0); the slot array is full once the removal is applied.
    rm_any: Signal<Local, Bit>,
    full: Signal<Local, Bit>,
    /// `launch_id` equals a kernel already held (queued or in the table): `DUP_ID`.
    dup: Signal<Local, Bit>,
    /// Legal events of this cycle: preempt while not preempted; resume while preempted and
    /// after `preempt_done` (`sent`); `killed` while a CU reset is outstanding; a config
    /// write of 1..=8.
    preempt_ok: Signal<Local, Bit>,
    resume_ok: Signal<Local, Bit>,
    killed_ok: Signal<Local, Bit>,
    cfg_ok: Signal<Local, Bit>,
    /// The head is submitted this cycle (`submit_valid ∧ submit_ready`).
    do_submit: Signal<Local, Bit>,
    /// A start accepted this cycle is answered skip (preempted, or the preempt's own cycle).
    skip: Signal<Local, Bit>,
    /// S3.3, decided the cycle after a preempt: something is in flight and all of it is
    /// idempotent → `cu_reset` next cycle.
    reset_now: Signal<Local, Bit>,
    /// Preempted, nothing SUBMITTED or RUNNING, no CU reset outstanding, `preempt_done` not yet
    /// sent → `preempt_done` next cycle.
    done_now: Signal<Local, Bit>,
    /// `tbl`, `act`, `started`, `run` after this cycle's submit, killed and resume (no start),
    /// before the pending removal's shift.
    n_tbl: Signal<Local, Bits<D>>,
    n_act: Signal<Local, Bits<D>>,
    n_started: Signal<Local, Bits<D>>,
    n_run: Signal<Local, Bits<D>>,
    /// `n_act`, `n_started`, `n_run` as they are when a start is accepted this cycle: both
    /// variants are computed in parallel and `start_ok` (the start's id compare) selects last.
    n_act_st: Signal<Local, Bits<D>>,
    n_started_st: Signal<Local, Bits<D>>,
    n_run_st: Signal<Local, Bits<D>>,
    /// Slots that take their upper neighbour this cycle (the pending removal `rm` is at or
    /// below them).
    shift: Signal<Local, Bits<D>>,
    /// The last used slot (one-hot): the one `used` loses when a removal is applied.
    n_used: Signal<Local, Bits<D>>,
    /// The first empty slot of the start-of-cycle state (one-hot): where a launch goes.
    tail: Signal<Local, Bits<D>>,
    /// Per slot: the id (and idem flag) it holds after a launch into the start-of-cycle tail
    /// (`*_here`) and after one into the tail one slot up (`*_up`, taken when the slot shifts).
    id_here: [Signal<Local, Bits<IB>>; D],
    id_up: [Signal<Local, Bits<IB>>; D],
    idem_here: Signal<Local, Bits<D>>,
    idem_up: Signal<Local, Bits<D>>,
    /// SUBMITTED + RUNNING now (`active` - `pend`), below `max_inflight`, above 0.
    act_true: Signal<Local, Bits<4>>,
    below_max: Signal<Local, Bit>,
    act_any: Signal<Local, Bit>,
    /// `active` after the cycle: `act_true` ± this cycle's submit and skip answer (0 on
    /// `killed`).
    n_active: Signal<Local, Bits<4>>,
    /// This cycle's error classes (`DUP_ID`, `BAD_EVENT`, `BAD_STATE`, `BAD_CFG`), registered
    /// into `e_*_q`.
    e_dup: Signal<Local, Bit>,
    e_event: Signal<Local, Bit>,
    e_state: Signal<Local, Bit>,
    e_cfg: Signal<Local, Bit>,
    /// `error_code` decoded from the registered classes (the smallest code wins).
    code: Signal<Local, Bits<3>>,
}

impl<const D: usize, const IB: usize> PreemptCtrl<D, IB> {
    /// Build the block; panics with a clear message on an unusable shape.
    pub fn new() -> Self {
        assert!(
            (1..=64).contains(&D),
            "preempt_ctrl: queue depth D must be 1..=64"
        );
        assert!(
            (1..=16).contains(&IB),
            "preempt_ctrl: id bits must be 1..=16"
        );
        let mask = (1u64 << D.min(8)) - 1;
        Self {
            clock: Default::default(),
            reset: Default::default(),
            launch_valid: Default::default(),
            launch_ready: Default::default(),
            launch_id: Default::default(),
            launch_idem: Default::default(),
            submit_valid: Default::default(),
            submit_ready: Default::default(),
            submit_id: Default::default(),
            start_valid: Default::default(),
            start_id: Default::default(),
            done_valid: Default::default(),
            done_id: Default::default(),
            killed: Default::default(),
            ack_valid: Default::default(),
            ack_id: Default::default(),
            ack_skip: Default::default(),
            preempt: Default::default(),
            resume: Default::default(),
            cu_reset: Default::default(),
            preempt_done: Default::default(),
            preempted: Default::default(),
            cfg_we: Default::default(),
            cfg_max_inflight: Default::default(),
            inflight: Default::default(),
            error: Default::default(),
            error_code: Default::default(),
            ids: std::array::from_fn(|_| Default::default()),
            used: Default::default(),
            idem: Default::default(),
            tbl: Default::default(),
            act: Default::default(),
            started: Default::default(),
            run: Default::default(),
            rm: Default::default(),
            active: Default::default(),
            pend: Default::default(),
            has_sub: Default::default(),
            old_id: Default::default(),
            room: DFFWithInit::new(8u64.into()),
            flag: Default::default(),
            deciding: Default::default(),
            outstanding: Default::default(),
            sent: Default::default(),
            ack_valid_q: Default::default(),
            ack_id_q: Default::default(),
            ack_skip_q: Default::default(),
            cu_reset_q: Default::default(),
            done_q: Default::default(),
            e_dup_q: Default::default(),
            e_event_q: Default::default(),
            e_state_q: Default::default(),
            e_cfg_q: Default::default(),
            one: Constant::new(1u64.into()),
            last: Constant::new((1u64 << (D - 1)).into()),
            upto: std::array::from_fn(|i| {
                Constant::new(
                    (if i == 63 {
                        !0u64
                    } else {
                        (1u64 << (i + 1)) - 1
                    })
                    .into(),
                )
            }),
            table_mask: Constant::new(mask.into()),
            head_mask: Constant::new(((1u64 << D.min(9)) - 1).into()),
            eight: Constant::new(8u64.into()),
            not_one: Constant::new(14u64.into()),
            one5: Constant::new(1u64.into()),
            two5: Constant::new(2u64.into()),
            one3: Constant::new(1u64.into()),
            two3: Constant::new(2u64.into()),
            four3: Constant::new(4u64.into()),
            head: Default::default(),
            can_submit: Default::default(),
            sid: Default::default(),
            sid_term: std::array::from_fn(|_| Default::default()),
            r_m1: Default::default(),
            r_0: Default::default(),
            r_p1: Default::default(),
            r_p2: Default::default(),
            cnt_up: Default::default(),
            cnt_dn: Default::default(),
            u_slot: Default::default(),
            subm: Default::default(),
            oldest: Default::default(),
            next_sub: Default::default(),
            next_id: Default::default(),
            start_hit: Default::default(),
            start_ok: Default::default(),
            done_hit: Default::default(),
            eq_done: Default::default(),
            eq_launch: Default::default(),
            done_any: Default::default(),
            u_rm: Default::default(),
            u_add: Default::default(),
            done_ok: Default::default(),
            rm_any: Default::default(),
            full: Default::default(),
            dup: Default::default(),
            preempt_ok: Default::default(),
            resume_ok: Default::default(),
            killed_ok: Default::default(),
            cfg_ok: Default::default(),
            do_submit: Default::default(),
            skip: Default::default(),
            reset_now: Default::default(),
            done_now: Default::default(),
            n_tbl: Default::default(),
            n_act: Default::default(),
            n_started: Default::default(),
            n_run: Default::default(),
            n_act_st: Default::default(),
            n_started_st: Default::default(),
            n_run_st: Default::default(),
            shift: Default::default(),
            n_used: Default::default(),
            tail: Default::default(),
            id_here: std::array::from_fn(|_| Default::default()),
            id_up: std::array::from_fn(|_| Default::default()),
            idem_here: Default::default(),
            idem_up: Default::default(),
            act_true: Default::default(),
            below_max: Default::default(),
            act_any: Default::default(),
            n_active: Default::default(),
            e_dup: Default::default(),
            e_event: Default::default(),
            e_state: Default::default(),
            e_cfg: Default::default(),
            code: Default::default(),
        }
    }
}

impl<const D: usize, const IB: usize> Default for PreemptCtrl<D, IB> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const D: usize, const IB: usize> Logic for PreemptCtrl<D, IB> {
    #[hdl_gen]
    fn update(&mut self) {
        // ---- registers hold by default ----
        dff_setup!(
            self,
            clock,
            used,
            idem,
            tbl,
            act,
            started,
            run,
            rm,
            active,
            pend,
            has_sub,
            old_id,
            room,
            flag,
            deciding,
            outstanding,
            sent,
            ack_valid_q,
            ack_id_q,
            ack_skip_q,
            cu_reset_q,
            done_q,
            e_dup_q,
            e_event_q,
            e_state_q,
            e_cfg_q
        );
        for i in 0..D {
            self.ids[i].clock.next = self.clock.val();
            self.ids[i].d.next = self.ids[i].q.val();
        }

        // ---- outputs from registers (a Moore machine) ----
        // S2.3: the queue head is the first used slot that is not a table entry
        self.head.next =
            self.used.q.val() & !self.tbl.q.val() & ((self.tbl.q.val() << 1) | self.one.val());
        // SUBMITTED + RUNNING = `active` less a done of the previous cycle (`pend`)
        // below `max_inflight`: `room + pend > 0` (`room` = max − active, signed)
        self.act_true.next = self.active.q.val();
        if self.pend.q.val() {
            self.act_true.next = self.active.q.val() - 1;
            self.below_max.next = !self.room.q.val().get_bit(4);
            self.act_any.next = (self.active.q.val() & self.not_one.val()).any();
        } else {
            self.below_max.next = !self.room.q.val().get_bit(4) & self.room.q.val().any();
            self.act_any.next = self.active.q.val().any();
        }
        // the queue is not empty: the head is slot |table| <= 8, so the first nine slots tell
        // (`used` and `tbl` are prefixes, `tbl` within the first eight)
        self.can_submit.next = !self.flag.q.val()
            & (self.used.q.val() & !self.tbl.q.val() & self.head_mask.val()).any()
            & self.below_max.val();
        // the head's id: flat AND-OR by the one-hot head, `can_submit` applied last
        self.sid.next = 0.into();
        for i in 0..D {
            self.sid_term[i].next = 0.into();
            if self.head.val().get_bit(i) {
                self.sid_term[i].next = self.ids[i].q.val();
            }
            self.sid.next = self.sid.val() | self.sid_term[i].val();
        }
        // full: the last slot is used and no removal is pending
        self.rm_any.next = self.rm.q.val().any();
        self.full.next = (self.used.q.val() & self.last.val()).any() & !self.rm_any.val();
        self.launch_ready.next = !self.full.val();
        self.submit_valid.next = self.can_submit.val();
        self.submit_id.next = 0.into();
        if self.can_submit.val() {
            self.submit_id.next = self.sid.val();
        }
        self.preempted.next = self.flag.q.val();
        self.inflight.next = self.act_true.val();
        self.ack_valid.next = self.ack_valid_q.q.val();
        self.ack_id.next = self.ack_id_q.q.val();
        self.ack_skip.next = self.ack_skip_q.q.val();
        self.cu_reset.next = self.cu_reset_q.q.val();
        self.preempt_done.next = self.done_q.q.val();
        // the smallest code of the previous cycle's errors wins (flat: one term per code bit)
        self.error.next = self.e_dup_q.q.val()
            | self.e_event_q.q.val()
            | self.e_state_q.q.val()
            | self.e_cfg_q.q.val();
        self.code.next = 0.into();
        if self.e_dup_q.q.val() | (!self.e_event_q.q.val() & self.e_state_q.q.val()) {
            self.code.next = self.code.val() | self.one3.val();
        }
        if !self.e_dup_q.q.val() & (self.e_event_q.q.val() | self.e_state_q.q.val()) {
            self.code.next = self.code.val() | self.two3.val();
        }
        if !self.e_dup_q.q.val()
            & !self.e_event_q.q.val()
            & !self.e_state_q.q.val()
            & self.e_cfg_q.q.val()
        {
            self.code.next = self.code.val() | self.four3.val();
        }
        self.error_code.next = self.code.val();

        // ---- legality of this cycle's events, all against the start-of-cycle state ----
        // start: the oldest SUBMITTED slot (lowest set bit of act & !started)
        self.subm.next = self.tbl.q.val() & self.act.q.val() & !self.started.q.val();
        // started entries precede the SUBMITTED ones (starts are in order; KILLED entries never
        // coexist with SUBMITTED ones), so the oldest is the one after the last started slot
        self.oldest.next = self.subm.val() & ((self.started.q.val() << 1) | self.one.val());
        // the oldest SUBMITTED id is a register (`old_id`, valid with `has_sub`)
        self.start_hit.next = self.has_sub.q.val() & (self.old_id.q.val() == self.start_id.val());
        self.next_sub.next = (self.subm.val() & (self.oldest.val() << 1)).any();
        self.next_id.next = 0.into();
        self.eq_done.next = 0.into();
        self.eq_launch.next = 0.into();
        for i in 1..D {
            if self.oldest.val().get_bit(i - 1) {
                self.next_id.next = self.next_id.val() | self.ids[i].q.val();
            }
        }
        // flat: per-slot id compares, masked by register flags, one OR each; the strobes
        // (`done_valid`, `launch_valid`) come last
        for i in 0..D {
            if self.ids[i].q.val() == self.done_id.val() {
                self.eq_done.next = self.eq_done.val().replace_bit(i, true);
            }
            if self.ids[i].q.val() == self.launch_id.val() {
                self.eq_launch.next = self.eq_launch.val().replace_bit(i, true);
            }
        }
        // the slot of a pending removal is no longer RUNNING nor used
        self.done_hit.next = self.run.q.val() & !self.rm.q.val() & self.eq_done.val();
        self.done_any.next = self.done_hit.val().any();
        self.dup.next = (self.used.q.val() & !self.rm.q.val() & self.eq_launch.val()).any();
        self.start_ok.next = self.start_valid.val() & self.start_hit.val();
        self.done_ok.next = self.done_valid.val() & self.done_any.val();
        self.preempt_ok.next = self.preempt.val() & !self.flag.q.val();
        self.resume_ok.next = self.resume.val() & self.flag.q.val() & self.sent.q.val();
        self.killed_ok.next = self.killed.val() & self.outstanding.q.val();
        self.cfg_ok.next = self.cfg_we.val()
            & self.cfg_max_inflight.val().any()
            & (self.cfg_max_inflight.val() <= self.eight.val());
        self.do_submit.next = self.can_submit.val() & self.submit_ready.val();
        // a start in the preempt's own cycle is already skipped
        self.skip.next = self.flag.q.val() | self.preempt_ok.val();
        // S3.3: reset the CUs iff something is in flight and all of it is idempotent
        self.reset_now.next = self.deciding.q.val()
            & self.act_any.val()
            & !(self.tbl.q.val() & self.act.q.val() & !self.idem.q.val() & !self.rm.q.val()).any();
        self.done_now.next = self.flag.q.val()
            & !self.sent.q.val()
            & !self.outstanding.q.val()
            & !self.act_any.val();

        // ---- table flags: start, killed, submit, resume (in place) ----
        // Two variants: without a start (`n_act`, `n_started`) and with one (`*_st`: go →
        // RUNNING, skip → SKIPPED); `start_ok` selects between them after the shift below.
        self.n_tbl.next = self.tbl.q.val();
        self.n_act.next = self.act.q.val();
        self.n_started.next = self.started.q.val();
        self.n_act_st.next = self.act.q.val();
        self.n_started_st.next = self.started.q.val() | self.oldest.val();
        if self.skip.val() {
            self.n_act_st.next = self.act.q.val() & !self.oldest.val();
        }
        if self.killed_ok.val() {
            // every SUBMITTED or RUNNING entry becomes KILLED
            self.n_started.next = self.n_started.val() & !self.n_act.val();
            self.n_act.next = 0.into();
            self.n_started_st.next = self.n_started_st.val() & !self.n_act_st.val();
            self.n_act_st.next = 0.into();
        }
        if self.do_submit.val() {
            self.n_tbl.next = self.n_tbl.val() | self.head.val();
            self.n_act.next = self.n_act.val() | self.head.val();
            self.n_act_st.next = self.n_act_st.val() | self.head.val();
        }
        if self.resume_ok.val() {
            // S4.2: the table (all SKIPPED/KILLED) is the queue's head already, in order
            self.n_tbl.next = 0.into();
            self.n_act.next = 0.into();
            self.n_started.next = 0.into();
            self.n_act_st.next = 0.into();
            self.n_started_st.next = 0.into();
        }

        // ---- the pending removal (`rm`, a done of the previous cycle): everything above the
        // slot moves down one; slot i moves iff the removed slot is at or below i ----
        self.shift.next = 0.into();
        for i in 0..D {
            if (self.rm.q.val() & self.upto[i].val()).any() {
                self.shift.next = self.shift.val().replace_bit(i, true);
            }
        }
        // this cycle's done: its slot after the shift above
        self.rm.d.next = 0.into();
        if self.done_valid.val() {
            self.rm.d.next = (self.done_hit.val() & !self.shift.val())
                | ((self.done_hit.val() >> 1) & self.shift.val());
        }
        self.tbl.d.next = ((self.n_tbl.val() & !self.shift.val())
            | ((self.n_tbl.val() >> 1) & self.shift.val()))
            & self.table_mask.val();
        self.n_run.next = self.n_tbl.val() & self.n_act.val() & self.n_started.val();
        self.n_run_st.next = self.n_tbl.val() & self.n_act_st.val() & self.n_started_st.val();
        if self.start_ok.val() {
            self.act.d.next = ((self.n_act_st.val() & !self.shift.val())
                | ((self.n_act_st.val() >> 1) & self.shift.val()))
                & self.table_mask.val();
            self.started.d.next = ((self.n_started_st.val() & !self.shift.val())
                | ((self.n_started_st.val() >> 1) & self.shift.val()))
                & self.table_mask.val();
            self.run.d.next = ((self.n_run_st.val() & !self.shift.val())
                | ((self.n_run_st.val() >> 1) & self.shift.val()))
                & self.table_mask.val();
        } else {
            self.act.d.next = ((self.n_act.val() & !self.shift.val())
                | ((self.n_act.val() >> 1) & self.shift.val()))
                & self.table_mask.val();
            self.started.d.next = ((self.n_started.val() & !self.shift.val())
                | ((self.n_started.val() >> 1) & self.shift.val()))
                & self.table_mask.val();
            self.run.d.next = ((self.n_run.val() & !self.shift.val())
                | ((self.n_run.val() >> 1) & self.shift.val()))
                & self.table_mask.val();
        }

        // ---- launch (S2.2): the first empty slot after the removal ----
        // `tail` = the first empty slot of the start-of-cycle state; a done moves it down one
        // with the rest (the shift). The id and idem flag are written into it on every
        // `launch_valid` (a refused launch writes an empty slot, which nothing reads), so only
        // `used` waits for the duplicate check.
        self.tail.next = !self.used.q.val() & ((self.used.q.val() << 1) | self.one.val());
        for i in 0..D {
            self.id_here[i].next = self.ids[i].q.val();
            self.id_up[i].next = self.ids[i].q.val();
            if self.launch_valid.val() & self.tail.val().get_bit(i) {
                self.id_here[i].next = self.launch_id.val();
            }
        }
        for i in 0..(D - 1) {
            self.id_up[i].next = self.ids[i + 1].q.val();
            if self.launch_valid.val() & self.tail.val().get_bit(i + 1) {
                self.id_up[i].next = self.launch_id.val();
            }
        }
        // a launch into a full array with a removal pending: the last slot after the shift
        for i in (D - 1)..D {
            if self.launch_valid.val() & self.used.q.val().get_bit(i) {
                self.id_up[i].next = self.launch_id.val();
            }
        }
        for i in 0..D {
            if self.shift.val().get_bit(i) {
                self.ids[i].d.next = self.id_up[i].val();
            } else {
                self.ids[i].d.next = self.id_here[i].val();
            }
        }
        self.idem_here.next = self.idem.q.val();
        self.idem_up.next = self.idem.q.val() >> 1;
        if self.launch_valid.val() {
            if self.launch_idem.val() {
                self.idem_here.next = self.idem.q.val() | self.tail.val();
                self.idem_up.next = (self.idem.q.val() >> 1)
                    | (self.tail.val() >> 1)
                    | (self.used.q.val() & self.last.val());
            } else {
                self.idem_here.next = self.idem.q.val() & !self.tail.val();
                self.idem_up.next = (self.idem.q.val() >> 1) & !(self.tail.val() >> 1);
            }
        }
        self.idem.d.next =
            (self.idem_here.val() & !self.shift.val()) | (self.idem_up.val() & self.shift.val());
        // `used` is a prefix: its last slot (`n_used` here) clears after a done, and a launch
        // sets the first empty slot after the removal (that last slot after a done); written
        // as AND / OR so that the decision is data, not a clock enable
        self.n_used.next = self.used.q.val() & !(self.used.q.val() >> 1);
        self.u_rm.next = 0.into();
        self.u_slot.next = self.tail.val();
        if self.rm_any.val() {
            self.u_rm.next = self.n_used.val();
            self.u_slot.next = self.n_used.val();
        }
        self.u_add.next = 0.into();
        if self.launch_valid.val() & !self.full.val() {
            self.u_add.next = self.u_slot.val();
        }
        // the duplicate check (the launch's compares) selects last
        if self.dup.val() {
            self.used.d.next = self.used.q.val() & !self.u_rm.val();
        } else {
            self.used.d.next = (self.used.q.val() & !self.u_rm.val()) | self.u_add.val();
        }

        // ---- counters and flags ----
        // +1 submit, -1 skip answer; a done is counted one cycle late (`pend`, subtracted
        // wherever the count is read), so the done's compares reach one flip-flop only
        self.n_active.next = self.act_true.val();
        if self.do_submit.val() & !(self.start_ok.val() & self.skip.val()) {
            self.n_active.next = self.act_true.val() + 1;
        } else if !self.do_submit.val() & self.start_ok.val() & self.skip.val() {
            self.n_active.next = self.act_true.val() - 1;
        }
        self.pend.d.next = self.done_ok.val();
        if self.killed_ok.val() {
            self.n_active.next = 0.into();
            self.pend.d.next = false;
        }
        self.active.d.next = self.n_active.val();
        // the oldest SUBMITTED: the next one after a start, the submitted head when none
        if self.start_ok.val() {
            self.has_sub.d.next = self.next_sub.val() | self.do_submit.val();
            if self.next_sub.val() {
                self.old_id.d.next = self.next_id.val();
            } else {
                self.old_id.d.next = self.sid.val();
            }
        } else {
            self.has_sub.d.next = self.has_sub.q.val() | self.do_submit.val();
            if !self.has_sub.q.val() {
                self.old_id.d.next = self.sid.val();
            }
        }
        if self.killed_ok.val() | self.resume_ok.val() {
            self.has_sub.d.next = false;
        }
        // `room` = max_inflight − active after the cycle = the new max (config) or the old
        // one, less `active`, plus `pend` − (submit − skip answer): the four candidates in
        // parallel, the late submit / start decisions select last (killed: active 0)
        if self.cfg_ok.val() {
            self.r_0.next = bit_cast::<5, 4>(self.cfg_max_inflight.val())
                - bit_cast::<5, 4>(self.active.q.val());
            self.r_m1.next = bit_cast::<5, 4>(self.cfg_max_inflight.val())
                - bit_cast::<5, 4>(self.active.q.val())
                - self.one5.val();
            self.r_p1.next = bit_cast::<5, 4>(self.cfg_max_inflight.val())
                - bit_cast::<5, 4>(self.active.q.val())
                + self.one5.val();
            self.r_p2.next = bit_cast::<5, 4>(self.cfg_max_inflight.val())
                - bit_cast::<5, 4>(self.active.q.val())
                + self.two5.val();
        } else {
            self.r_0.next = self.room.q.val();
            self.r_m1.next = self.room.q.val() - self.one5.val();
            self.r_p1.next = self.room.q.val() + self.one5.val();
            self.r_p2.next = self.room.q.val() + self.two5.val();
        }
        self.cnt_up.next = self.do_submit.val() & !(self.start_ok.val() & self.skip.val());
        self.cnt_dn.next = !self.do_submit.val() & self.start_ok.val() & self.skip.val();
        if self.killed_ok.val() {
            if self.cfg_ok.val() {
                self.room.d.next = bit_cast::<5, 4>(self.cfg_max_inflight.val());
            } else {
                self.room.d.next = self.room.q.val() + bit_cast::<5, 4>(self.active.q.val());
            }
        } else if self.pend.q.val() {
            if self.cnt_up.val() {
                self.room.d.next = self.r_0.val();
            } else if self.cnt_dn.val() {
                self.room.d.next = self.r_p2.val();
            } else {
                self.room.d.next = self.r_p1.val();
            }
        } else if self.cnt_up.val() {
            self.room.d.next = self.r_m1.val();
        } else if self.cnt_dn.val() {
            self.room.d.next = self.r_p1.val();
        } else {
            self.room.d.next = self.r_0.val();
        }
        if self.preempt_ok.val() {
            self.flag.d.next = true;
            self.sent.d.next = false;
        }
        if self.resume_ok.val() {
            self.flag.d.next = false;
        }
        self.deciding.d.next = self.preempt_ok.val();
        if self.reset_now.val() {
            self.outstanding.d.next = true;
        }
        if self.killed_ok.val() {
            self.outstanding.d.next = false;
        }
        if self.done_now.val() {
            self.sent.d.next = true;
        }

        // ---- output registers ----
        self.ack_valid_q.d.next = self.start_ok.val();
        self.ack_id_q.d.next = 0.into();
        if self.start_ok.val() {
            self.ack_id_q.d.next = self.start_id.val();
        }
        self.ack_skip_q.d.next = self.start_ok.val() & self.skip.val();
        self.cu_reset_q.d.next = self.reset_now.val();
        self.done_q.d.next = self.done_now.val();
        // the error classes of this cycle (decoded into `error_code` from their registers)
        self.e_dup.next = self.launch_valid.val() & !self.full.val() & self.dup.val();
        self.e_event.next = (self.start_valid.val() & !self.start_hit.val())
            | (self.done_valid.val() & !self.done_any.val());
        self.e_state.next = (self.preempt.val() & self.flag.q.val())
            | (self.resume.val() & !(self.flag.q.val() & self.sent.q.val()))
            | (self.killed.val() & !self.outstanding.q.val());
        self.e_cfg.next = self.cfg_we.val() & !self.cfg_ok.val();
        self.e_dup_q.d.next = self.e_dup.val();
        self.e_event_q.d.next = self.e_event.val();
        self.e_state_q.d.next = self.e_state.val();
        self.e_cfg_q.d.next = self.e_cfg.val();

        // ---- synchronous reset: the idle state (every init value) ----
        if self.reset.val() {
            self.used.d.next = 0.into();
            self.idem.d.next = 0.into();
            self.tbl.d.next = 0.into();
            self.act.d.next = 0.into();
            self.started.d.next = 0.into();
            self.run.d.next = 0.into();
            self.rm.d.next = 0.into();
            self.active.d.next = 0.into();
            self.pend.d.next = false;
            self.has_sub.d.next = false;
            self.old_id.d.next = 0.into();
            self.room.d.next = 8.into();
            self.flag.d.next = false;
            self.deciding.d.next = false;
            self.outstanding.d.next = false;
            self.sent.d.next = false;
            self.ack_valid_q.d.next = false;
            self.ack_id_q.d.next = 0.into();
            self.ack_skip_q.d.next = false;
            self.cu_reset_q.d.next = false;
            self.done_q.d.next = false;
            self.e_dup_q.d.next = false;
            self.e_event_q.d.next = false;
            self.e_state_q.d.next = false;
            self.e_cfg_q.d.next = false;
        }
    }
}

/// Board config: D = 16, 8-bit ids (the export contract).
pub type BoardPreemptCtrl = PreemptCtrl<16, 8>;
/// Full config: D = 64, 16-bit ids.
pub type FullPreemptCtrl = PreemptCtrl<64, 16>;
/// Degenerate: D = 1, 2-bit ids.
pub type DegeneratePreemptCtrl = PreemptCtrl<1, 2>;
/// Small non-power-of-two: D = 5, 3-bit ids.
pub type SmallPreemptCtrl = PreemptCtrl<5, 3>;

/// Verilog of a block as module `top` (connected first).
pub use crate::top_verilog as verilog;
