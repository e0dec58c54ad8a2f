//! Kernel expander (SPEC Unit 8, design `docs/gpu_frontend.md`): kernels in, workgroup (WG)
//! descriptors out to the dispatcher one per cycle, real-time (RT) first, each tagged with its
//! kernel's tracker entry; Unit 4's entry check (`start` / `ack`) and `done` for best-effort
//! (BE) kernels; `kernel_done` for every kernel.
//!
//! The behaviour, cycle by cycle, is specified by `golden_model::kernel_expander` (its module
//! doc is normative: the order of one cycle's events); this block implements it and is checked
//! against it every cycle, and against the transaction-level spec checker
//! `testbench::spec::kernel_expander`.
//!
//! ## Ports (board config: R = 4 RT + B = 8 BE entries, IB = 8-bit kids, WB = 8, SB = 19,
//! LB = 4, SLB = 3; the exported module `top` has exactly these)
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `clock`, `reset` | in | 1 | one clock; synchronous active-high reset (every entry free; the descriptor store keeps its contents; every other input of the reset cycle is ignored) |
//! | `rt_valid`, `rt_ready`, `rt_kid`, `rt_wgs`, `rt_shape` | in/out/in/in/in | 1, 1, IB, WB, SB | RT kernel stream; `rt_ready` = an RT entry is free (from registers) |
//! | `desc_we`, `desc_kid`, `desc_wgs`, `desc_shape` | in | 1, IB, WB, SB | write a BE kernel's descriptor into the store (the BE launch) |
//! | `sub_valid`, `sub_ready`, `sub_kid` | in/out/in | 1, 1, IB | Unit 4's submit stream; `sub_ready` = a BE entry is free (from registers) |
//! | `room_rt`, `room_be` | in | 1 | the dispatcher's RT / BE channel FIFO can take a WG (must not depend on `push_*`) |
//! | `push_valid` | out | 1 | a WG goes to the dispatcher in this cycle (raised only with room in its channel) |
//! | `push_class`, `push_slot`, `push_idx`, `push_shape` | out | 1, SLB, WB, SB | the kernel tag {class 0 RT / 1 BE, tracker slot}, the WG index (0..wgs−1), the kernel's shape (all 0 while `push_valid` is low) |
//! | `rec_valid`, `rec_class`, `rec_slot`, `rec_last` | in | 1, 1, SLB, 1 | a dispatch record of a tagged WG; `rec_last` = the WG's dispatch ends here (1 for a whole WG, and for the last sub-WG of a split one) |
//! | `cpl_valid`, `cpl_class`, `cpl_slot` | in | 1, 1, SLB | a completion of one record |
//! | `wdr_valid`, `wdr_slot` | in | 1, SLB | the dispatcher withdrew one queued WG of a skipped BE kernel |
//! | `ack_valid`, `ack_kid`, `ack_skip` | in | 1, IB, 1 | Unit 4's answer to a `start` |
//! | `flush_be` | in | 1 | CU reset issued (Unit 4's `cu_reset`): no BE WG is pushed again, the BE entries are dead |
//! | `be_killed` | in | 1 | the dispatcher reclaimed every BE WG (in the cycle Unit 4 sees `killed`): every BE entry is freed |
//! | `start_valid`, `start_kid` | out | 1, IB | Unit 4's `start`: a BE kernel's first dispatch record, one cycle later |
//! | `done_valid`, `done_kid` | out | 1, IB | Unit 4's `done`: a BE kernel (answered go) completed its last WG |
//! | `kdone_valid`, `kdone_kid`, `kdone_class` | out | 1, IB, 1 | `kernel_done` of every kernel, RT or BE, once |
//! | `withdraw_valid`, `withdraw_slot` | out | 1, SLB | a BE kernel was answered skip: withdraw its queued WGs (and end its dispatched ones) |
//! | `rt_active` | out | 1 | level: an RT kernel is queued or running |
//! | `be_orphans` | out | 1 | level: a skipped or flushed BE kernel still holds its entry (its WGs may still be in the modules) |
//! | `error`, `error_code` | out | 1, 3 | strobe one cycle after the offending input (a submit's `ZERO_WGS`: two); 1 `DUP_ID`, 2 `ZERO_WGS`, 3 `BAD_EVENT`, 4 `BAD_ACK` |
//!
//! ## Protocol (what the far side promises; a violation of the first three is refused with an
//! error code and changes nothing)
//! - A record names a tag with a WG queued (pushed, its dispatch not ended) and fewer than
//!   2^LB − 1 records in flight; a completion a tag with a record in flight; a withdraw report a
//!   skipped BE tag with a WG queued (`BAD_EVENT` otherwise).
//! - An answer names a started, unanswered BE kernel (`BAD_ACK` otherwise); Unit 4 gives it
//!   exactly one cycle after `start`.
//! - An RT kid is not held by an RT entry (`DUP_ID`); WG counts are not 0 (`ZERO_WGS`).
//! - `be_killed` comes after `flush_be`, never between a `start` and its answer, and after it no
//!   record or completion of a killed kernel comes (the reclaim ends them all).
//! - A BE submit's kid is not held by a BE entry still owed an answer (not yet started, or
//!   started and unanswered): Unit 4 holds each id once and submits it again only after a skip
//!   answer or a kill. Not checked; so an answer's kid names at most one entry (the lowest-slot
//!   pick among several is never needed).
//!
//! ## Latency (cycle t = the input's cycle; pinned by the test `rtl_contract_latencies`)
//! - `rt_ready`, `sub_ready`, `kdone_*`, `done_*`, `rt_active`, `be_orphans` are combinational
//!   from registers; the push port from registers and `room_rt` / `room_be`. One WG per cycle.
//! - RT kernel taken in t → its first WG pushable in **t+1**. BE submit taken in t → the store
//!   is read at the edge, the kernel is pushable in **t+2**.
//! - A BE kernel's first record in t → `start` in **t+1** (Unit 4 answers in t+2).
//! - `ack` skip in t → no WG of that kernel pushed from t+1 (one in t itself is made),
//!   `withdraw` in **t+1**.
//! - The last completion of a kernel in t (or its go answer, if its WGs finished first) →
//!   `kernel_done` (and `done`) in **t+1** when no other kernel waits for its report; one report
//!   per cycle, round robin over the entries (RT slots, then BE slots, from the one after the
//!   last reported): a finished kernel is reported within R + B cycles.
//! - `flush_be` in t → no BE push from t+1. `be_killed` in t → every BE entry free in t+1.
//! - errors in t+1 (a submit whose kid was never described: `ZERO_WGS` in t+2).
//!
//! ## Structure and cost
//! Per entry: kid, WG count, shape (BE: copied from the store), `pushed`, `queued` (WGs pushed
//! whose dispatch has not ended), `live` (records in flight); flags as vectors over the entries
//! (`used`, and for BE `start`, `go`, `skip`, `dead`, and `allp` = every WG pushed). Two shift
//! queues of slot numbers (RT, BE) keep arrival / submission order of the kernels still pushing;
//! the push port reads their heads through one one-hot mux. The **descriptor store** sits inside
//! the expander: two block RAMs indexed by kid (WG count, WB × 2^IB bits; shape, SB × 2^IB),
//! written by `desc_we`, read by the submit's kid (read before write). A count of 0 means "never
//! described": the RAMs power up zero (their init values), so a submit of an undescribed kid is
//! refused with `ZERO_WGS`. A third, two-bit memory (`store_flags`, same addresses and writes) says
//! "described" (count ≠ 0) and "one WG" (count = 1): `ZERO_WGS`, the order-queue append and the
//! entry's first "next push is the last" read it, not the count's block RAM (on the ECP5 it is LUT
//! RAM with a flip-flop output, so the DP16KD's slow read port feeds only the entry's count
//! register). "The next push is the kernel's last WG" (`pushed + 1 == wgs`) is a flip-flop per
//! entry (`rt_last_q`, `be_last_q`), loaded with the entry and updated by each of its pushes
//! (`pushed + 2 == wgs`), so a push's pop of the order queue starts at flip-flops. `DUP_ID`
//! compares the RT kid with the R RT entries; an answer's kid is compared with the B BE entries.
//! The finished vectors of the done report (`fin_rt`, `fin_be`, and `sfree`) are flip-flops
//! computed a cycle ahead from the next state (flags, and "queued and live reach 0" decoded from
//! the counters' values 0, 1, 2 and the cycle's increments and decrements, no adder); the report's
//! timing is unchanged. A skip answer pops the BE order head when the head is hit and none below it
//! is (`be_below`, from the head's registers). The `queued` counters' next values are sums from the
//! flip-flops selected by the last record, the withdraw, then the push. The lowest answer hit and
//! the BE lowest finished bits are prefix ORs, not carry chains.
//!
//! ## Cost (board config; history in `docs/gpu_frontend.md`)
//! iCE40 HX8K CB132, the `synth` flow's measurement harness (`cargo run --release -p synth --
//! report --only kernel_expander --seeds 1,2,3 --readme README.md`, the README row, session 14's
//! RTL): **2746 LCs, 82.2 MHz median (77.1, 82.2, 83.1)**, 4 `ICESTORM_RAM` (nextpnr).
//! ECP5-85F speed 6 (`ECP5_VENV=… PNR_TIMEOUT=2400 ./target/release/synth report --target
//! ecp5-85f --only kernel_expander --seeds 1,2,3 --speeds 6 --readme README.md`, session 14,
//! the README row): **1961 LUT4**, 203 `CCU2C`, 2669 LUT4 sites, 1084 FF, 2 EBR; **103.8 MHz
//! median (97.5, 105.5, 103.8)**, meets 100 MHz. Critical path (median seed): a `be_queued`
//! counter → the withdraw / event checks → the error code register (9.64 ns); seed 1: an
//! answer's kid → the skip pop → `be_ord` (10.25 ns).
//! Full config (16 + 8 entries, 12-bit kids): area in `docs/gpu_frontend.md`.
//!
//! ## Worked example (pinned on the RTL and the model by `tests/kernel_expander.rs`, `rtl_contract_latencies`)
//! RT kernel {kid 5, 2 WGs} in cycle 0 → slot 0; `push` {RT, slot 0, WG 0} in cycle 1, WG 1 in
//! cycle 2. Records {RT, 0, last} in 3 and 4, completions in 5 and 6 → `kernel_done {5, RT}` in
//! 7. Descriptor {kid 9, 1 WG} written in cycle 9, submit 9 in cycle 10 → BE slot 0, pushed in 12, its
//! record in 13 → `start {9}` in 14; `ack {9, go}` in 15; completion in 16 → `done {9}` and
//! `kernel_done {9, BE}` in 17.

use rust_hdl::prelude::*;

mod construct;

/// The kernel expander. `R` RT entries, `B` BE entries, `IB` kid bits, `WB` WG count bits, `SB`
/// shape bits, `LB` live-counter bits, `SLB` slot bits (derived: clog2(max(R, B)), at least 1).
#[derive(LogicBlock)]
pub struct KernelExpander<
    const R: usize,
    const B: usize,
    const IB: usize,
    const WB: usize,
    const SB: usize,
    const LB: usize,
    const SLB: usize,
> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high: every entry free, order queues empty, strobes low.
    pub reset: Signal<In, Bit>,
    /// RT kernel valid.
    pub rt_valid: Signal<In, Bit>,
    /// An RT entry is free (from registers).
    pub rt_ready: Signal<Out, Bit>,
    /// RT kernel id.
    pub rt_kid: Signal<In, Bits<IB>>,
    /// RT kernel WG count (0 is `ZERO_WGS`).
    pub rt_wgs: Signal<In, Bits<WB>>,
    /// RT kernel WG shape (carried to the push port).
    pub rt_shape: Signal<In, Bits<SB>>,
    /// Write a BE descriptor.
    pub desc_we: Signal<In, Bit>,
    /// Kernel id of the descriptor.
    pub desc_kid: Signal<In, Bits<IB>>,
    /// WG count of the descriptor (0 is `ZERO_WGS`, nothing written).
    pub desc_wgs: Signal<In, Bits<WB>>,
    /// WG shape of the descriptor.
    pub desc_shape: Signal<In, Bits<SB>>,
    /// Unit 4 offers a submitted BE kernel.
    pub sub_valid: Signal<In, Bit>,
    /// A BE entry is free (from registers).
    pub sub_ready: Signal<Out, Bit>,
    /// Kernel id of the submission.
    pub sub_kid: Signal<In, Bits<IB>>,
    /// The dispatcher's RT channel can take a WG.
    pub room_rt: Signal<In, Bit>,
    /// The dispatcher's BE channel can take a WG.
    pub room_be: Signal<In, Bit>,
    /// A WG is pushed in this cycle.
    pub push_valid: Signal<Out, Bit>,
    /// Its class: 0 RT, 1 BE.
    pub push_class: Signal<Out, Bit>,
    /// Its kernel's tracker slot.
    pub push_slot: Signal<Out, Bits<SLB>>,
    /// Its WG index.
    pub push_idx: Signal<Out, Bits<WB>>,
    /// Its shape.
    pub push_shape: Signal<Out, Bits<SB>>,
    /// A dispatch record.
    pub rec_valid: Signal<In, Bit>,
    /// Record's class.
    pub rec_class: Signal<In, Bit>,
    /// Record's slot.
    pub rec_slot: Signal<In, Bits<SLB>>,
    /// The record ends its WG's dispatch.
    pub rec_last: Signal<In, Bit>,
    /// A completion.
    pub cpl_valid: Signal<In, Bit>,
    /// Completion's class.
    pub cpl_class: Signal<In, Bit>,
    /// Completion's slot.
    pub cpl_slot: Signal<In, Bits<SLB>>,
    /// A withdrawn WG of a skipped BE kernel.
    pub wdr_valid: Signal<In, Bit>,
    /// Its BE slot.
    pub wdr_slot: Signal<In, Bits<SLB>>,
    /// Unit 4's answer.
    pub ack_valid: Signal<In, Bit>,
    /// Kid of the answer.
    pub ack_kid: Signal<In, Bits<IB>>,
    /// The answer is skip.
    pub ack_skip: Signal<In, Bit>,
    /// CU reset issued: stop every BE kernel.
    pub flush_be: Signal<In, Bit>,
    /// BE reclaim complete: free every BE entry.
    pub be_killed: Signal<In, Bit>,
    /// Unit 4's `start` (registered).
    pub start_valid: Signal<Out, Bit>,
    /// Kid of the start (0 while `start_valid` is low).
    pub start_kid: Signal<Out, Bits<IB>>,
    /// Unit 4's `done`.
    pub done_valid: Signal<Out, Bit>,
    /// Kid of the done (0 while `done_valid` is low).
    pub done_kid: Signal<Out, Bits<IB>>,
    /// `kernel_done` of any kernel.
    pub kdone_valid: Signal<Out, Bit>,
    /// Its kid (0 while `kdone_valid` is low).
    pub kdone_kid: Signal<Out, Bits<IB>>,
    /// Its class.
    pub kdone_class: Signal<Out, Bit>,
    /// Withdraw the queued WGs of a skipped BE kernel (registered).
    pub withdraw_valid: Signal<Out, Bit>,
    /// Its BE slot (0 while `withdraw_valid` is low).
    pub withdraw_slot: Signal<Out, Bits<SLB>>,
    /// Level: an RT entry is used.
    pub rt_active: Signal<Out, Bit>,
    /// Level: a BE entry is skipped or dead.
    pub be_orphans: Signal<Out, Bit>,
    /// Error strobe.
    pub error: Signal<Out, Bit>,
    /// 1 DUP_ID, 2 ZERO_WGS, 3 BAD_EVENT, 4 BAD_ACK; 0 while `error` is low.
    pub error_code: Signal<Out, Bits<3>>,

    // ---- RT entries ----
    /// RT entries in use (one bit per entry).
    rt_used: DFF<Bits<R>>,
    /// RT entries whose every WG has been pushed ("all pushed").
    rt_allp: DFF<Bits<R>>,
    /// Per RT entry: its kernel id.
    rt_kids: [DFF<Bits<IB>>; R],
    /// Per RT entry: its WG count.
    rt_wgsv: [DFF<Bits<WB>>; R],
    /// Per RT entry: its WG shape.
    rt_shapes: [DFF<Bits<SB>>; R],
    /// Per RT entry: WGs pushed so far (the next push's WG index).
    rt_pushed: [DFF<Bits<WB>>; R],
    /// Per RT entry: WGs pushed and not yet fully recorded (in the dispatcher's channel).
    rt_queued: [DFF<Bits<WB>>; R],
    /// Per RT entry: WGs recorded and not yet completed (on the compute modules).
    rt_live: [DFF<Bits<LB>>; R],
    /// RT kernels still pushing, in arrival order (a prefix of valid entries).
    rt_ov: DFF<Bits<R>>,
    /// RT order queue: the slots of the RT kernels still pushing, oldest first (valid where `rt_ov`
    /// is set).
    rt_ord: [DFF<Bits<SLB>>; R],
    // ---- BE entries ----
    /// BE entries in use.
    be_used: DFF<Bits<B>>,
    /// BE entries whose first record has gone to Unit 4 as `start` (the entry check is asked).
    be_start: DFF<Bits<B>>,
    /// BE entries whose start Unit 4 answered "go".
    be_go: DFF<Bits<B>>,
    /// BE entries whose start Unit 4 answered "skip" (their queued WGs are withdrawn).
    be_skip: DFF<Bits<B>>,
    /// BE entries stopped by a CU reset (`flush_be`) and waiting for `be_killed`.
    be_dead: DFF<Bits<B>>,
    /// BE entries whose every WG has been pushed.
    be_allp: DFF<Bits<B>>,
    /// Per BE entry: its kernel id.
    be_kids: [DFF<Bits<IB>>; B],
    /// Per BE entry: its WG count (loaded from the descriptor store a cycle after the submit).
    be_wgsv: [DFF<Bits<WB>>; B],
    /// Per BE entry: its WG shape (from the descriptor store).
    be_shapes: [DFF<Bits<SB>>; B],
    /// Per BE entry: WGs pushed so far.
    be_pushed: [DFF<Bits<WB>>; B],
    /// Per BE entry: WGs pushed and not yet fully recorded or withdrawn.
    be_queued: [DFF<Bits<WB>>; B],
    /// Per BE entry: WGs recorded and not yet completed.
    be_live: [DFF<Bits<LB>>; B],
    /// BE order queue valid bits (a prefix: entries 0.. of `be_ord` hold slots).
    be_ov: DFF<Bits<B>>,
    /// BE order queue: the slots of the BE kernels still pushing, oldest first.
    be_ord: [DFF<Bits<SLB>>; B],
    // ---- descriptor store and the pending read ----
    /// WG count per kid (0 = never described).
    store_wgs: RAM<Bits<WB>, IB>,
    /// Shape per kid.
    store_shape: RAM<Bits<SB>, IB>,
    /// Two flags per kid, the same read and write as `store_wgs`: bit 0 "described" (its WG
    /// count is not 0), bit 1 "one WG" (its count is 1). `ld_zero` and the entry's first
    /// `be_last_q` come from this small memory (LUT RAM and a flip-flop on the ECP5) instead
    /// of the block RAM's read port.
    store_flags: RAM<Bits<2>, IB>,
    /// A submit was taken in the previous cycle: its descriptor is on the RAM outputs.
    ld_v: DFF<Bit>,
    /// The BE entry (one-hot) the pending descriptor read is for.
    ld_oh: DFF<Bits<B>>,
    /// The same entry's slot number.
    ld_slot: DFF<Bits<SLB>>,
    /// Finished entries, registered ahead (the `fin_rt`, `fin_be`, `sfree` of this cycle,
    /// computed in the previous one from its next-state flags and counters): the done report's
    /// round robin starts at flip-flops, not at the counters' zero tests.
    fin_rt_q: DFF<Bits<R>>,
    /// Per RT entry, registered ahead: the next push is its last WG (`pushed + 1 == wgs`),
    /// kept from the entry's load (`wgs == 1`) and each push (`pushed + 2 == wgs`), so the
    /// push's pop of the order queue starts at flip-flops, not at an adder and a compare.
    rt_last_q: DFF<Bits<R>>,
    /// The same per BE entry (loaded from `store_flags` bit 1 with the count).
    be_last_q: DFF<Bits<B>>,
    fin_be_q: DFF<Bits<B>>,
    sfree_q: DFF<Bits<B>>,
    /// Round robin of the done report: RT / BE entries left out of its first pass.
    rr_rt_lo: DFF<Bits<R>>,
    rr_be_lo: DFF<Bits<B>>,
    // ---- output registers ----
    /// Output register of `start_valid`.
    start_q: DFF<Bit>,
    /// Output register of `start_kid`.
    start_kid_q: DFF<Bits<IB>>,
    /// Output register of `withdraw_valid`.
    wd_q: DFF<Bit>,
    /// Output register of `withdraw_slot`.
    wd_slot_q: DFF<Bits<SLB>>,
    /// Output register of `error`.
    error_q: DFF<Bit>,
    /// Output register of `error_code`.
    code_q: DFF<Bits<3>>,

    // ---- constants ----
    /// `idx[i]` = i as a slot number.
    idx: [Constant<Bits<SLB>>; 16],
    /// 1 in R bits.
    one_r: Constant<Bits<R>>,
    /// All R bits set.
    ones_r: Constant<Bits<R>>,
    /// 1 in B bits.
    one_b: Constant<Bits<B>>,
    /// 1 in WB bits.
    one_w: Constant<Bits<WB>>,
    /// 2 in WB bits.
    two_w: Constant<Bits<WB>>,
    /// The largest live-WG count an entry can hold (a record beyond it is `BAD_EVENT`).
    live_max: Constant<Bits<LB>>,
    /// Error code 1, `DUP_ID`.
    c1: Constant<Bits<3>>,
    /// Error code 2, `ZERO_WGS`.
    c2: Constant<Bits<3>>,
    /// Error code 3, `BAD_EVENT`.
    c3: Constant<Bits<3>>,
    /// Error code 4, `BAD_ACK`.
    c4: Constant<Bits<3>>,

    // ---- combinational working signals ----
    /// RT entries free now.
    rt_free: Signal<Local, Bits<R>>,
    /// The lowest free RT entry (one-hot), where a new RT kernel goes.
    rt_alloc: Signal<Local, Bits<R>>,
    /// Its slot number.
    rt_alloc_slot: Signal<Local, Bits<SLB>>,
    /// BE entries free now.
    be_free: Signal<Local, Bits<B>>,
    /// The lowest free BE entry (one-hot), where a submitted BE kernel goes.
    be_alloc: Signal<Local, Bits<B>>,
    /// Its slot number.
    be_alloc_slot: Signal<Local, Bits<SLB>>,
    /// The RT entry at the head of the RT order queue (one-hot; 0 when the queue is empty).
    rt_hsel: Signal<Local, Bits<R>>,
    /// The BE entry at the head of the BE order queue (one-hot).
    be_hsel: Signal<Local, Bits<B>>,
    /// This cycle pushes a WG of the RT head (its channel has room).
    push_rt: Signal<Local, Bit>,
    /// This cycle pushes a WG of the BE head (no RT push, BE channel has room).
    push_be: Signal<Local, Bit>,
    /// The pushed WG's index (the head entry's `pushed` count).
    p_pushed: Signal<Local, Bits<WB>>,
    /// The pushed WG's shape.
    p_shape: Signal<Local, Bits<SB>>,
    /// The pushed WG is its kernel's last.
    p_last: Signal<Local, Bit>,
    /// Next `rt_last_q`, `be_last_q`.
    n_rt_last: Signal<Local, Bits<R>>,
    n_be_last: Signal<Local, Bits<B>>,
    /// RT entries finished: all pushed, nothing queued, nothing live.
    fin_rt: Signal<Local, Bits<R>>,
    /// BE entries finished after a "go": all pushed, nothing queued or live, not dead.
    fin_be: Signal<Local, Bits<B>>,
    /// The finished RT entry reported this cycle (one-hot; RT before BE, round robin).
    pick_rt: Signal<Local, Bits<R>>,
    /// The finished BE entry reported this cycle.
    pick_be: Signal<Local, Bits<B>>,
    /// Finished RT entries after the last reported one (the round robin's first pass).
    m_rt: Signal<Local, Bits<R>>,
    /// Finished BE entries after the last reported one.
    m_be: Signal<Local, Bits<B>>,
    /// Lowest bit of `m_rt`.
    lb_m_rt: Signal<Local, Bits<R>>,
    /// Lowest bit of `m_be`.
    lb_m_be: Signal<Local, Bits<B>>,
    /// Lowest bit of `fin_rt` (the round robin's wrap-around pass).
    lb_f_rt: Signal<Local, Bits<R>>,
    /// Lowest bit of `fin_be`.
    lb_f_be: Signal<Local, Bits<B>>,
    /// Prefix ORs of the BE `lb_*` scans (bit 0 `m_be`, bit 1 `fin_be`).
    lb_seen: Signal<Local, Bits<2>>,
    /// BE entries of skipped kernels with nothing queued or live: freed silently this cycle.
    sfree: Signal<Local, Bits<B>>,
    /// The RT entry a legal record names (one-hot; 0 if the record is illegal or absent).
    rec_rt: Signal<Local, Bits<R>>,
    /// The BE entry a legal record names.
    rec_be: Signal<Local, Bits<B>>,
    /// The RT entry a legal completion names.
    cpl_rt: Signal<Local, Bits<R>>,
    /// The BE entry a legal completion names.
    cpl_be: Signal<Local, Bits<B>>,
    /// The BE entry a legal withdraw report names.
    wdr_be: Signal<Local, Bits<B>>,
    /// The BE entry whose first record this is (asks Unit 4's entry check: `start`).
    rec_start: Signal<Local, Bits<B>>,
    /// BE entries that Unit 4's answer can name (started, unanswered, same kid).
    ack_hit: Signal<Local, Bits<B>>,
    /// The lowest of them (one-hot).
    ack_oh: Signal<Local, Bits<B>>,
    /// Some entry below the one looked at is hit (the prefix OR that forms `ack_oh`).
    ack_seen: Signal<Local, Bit>,
    /// Its slot number.
    ack_slot: Signal<Local, Bits<SLB>>,
    /// The BE order head's entries below it (bit i < the head's index; all ones without a head).
    be_below: Signal<Local, Bits<B>>,
    /// The answer names an entry (else `BAD_ACK`).
    ack_ok: Signal<Local, Bit>,
    /// An RT entry in use holds the offered RT kid.
    dup: Signal<Local, Bit>,
    /// An RT kernel is offered and an RT entry is free.
    rt_take: Signal<Local, Bit>,
    /// It is accepted: not a duplicate, WG count not 0.
    rt_ok: Signal<Local, Bit>,
    /// A BE submission is taken into the lowest free BE entry (its descriptor is read).
    sub_take: Signal<Local, Bit>,
    /// The descriptor read for the previous cycle's submission has WG count 0 (`ZERO_WGS`: the
    /// entry is freed).
    ld_zero: Signal<Local, Bit>,
    /// That descriptor is good and its entry alive: append the entry to the BE order queue.
    ld_app: Signal<Local, Bit>,
    /// The RT order queue's head leaves (its last WG pushed).
    pop_rt: Signal<Local, Bit>,
    /// The BE order queue's head leaves (its last WG pushed, or its kernel answered skip).
    pop_be: Signal<Local, Bit>,
    /// `rt_ov` after the pop, before the append.
    rt_ov_p: Signal<Local, Bits<R>>,
    /// The first free place of the RT order queue after the pop (one-hot), where an append goes.
    rt_tail: Signal<Local, Bits<R>>,
    /// `be_ov` after the pop, before the append.
    be_ov_p: Signal<Local, Bits<B>>,
    /// The first free place of the BE order queue after the pop (one-hot).
    be_tail: Signal<Local, Bits<B>>,
    /// Per RT entry: `queued` after this cycle's push and last record.
    rt_nq: [Signal<Local, Bits<WB>>; R],
    /// Per BE entry: `queued` after this cycle's push, last record and withdraw.
    be_nq: [Signal<Local, Bits<WB>>; B],
    /// Per RT entry: `queued` + 1 and − 1 (from the register: the late push selects last).
    rt_qp1: [Signal<Local, Bits<WB>>; R],
    rt_qm1: [Signal<Local, Bits<WB>>; R],
    /// Per BE entry: `queued` + 1, − 1 and − 2 (from the register: the late push selects last).
    be_qp1: [Signal<Local, Bits<WB>>; B],
    be_qm1: [Signal<Local, Bits<WB>>; B],
    be_qm2: [Signal<Local, Bits<WB>>; B],
    /// Per RT entry: `live` after this cycle's record and completion.
    rt_nl: [Signal<Local, Bits<LB>>; R],
    /// Per BE entry: `live` after this cycle's record and completion.
    be_nl: [Signal<Local, Bits<LB>>; B],
    /// Per RT entry: `rt_nq` and `rt_nl` are 0, decoded from the registers and this cycle's
    /// increments and decrements (no adder before the test).
    rt_nz: Signal<Local, Bits<R>>,
    /// Per BE entry: `be_nq` and `be_nl` are 0 (the same way).
    be_nz: Signal<Local, Bits<B>>,
    /// Next `fin_rt_q`, `fin_be_q`, `sfree_q`.
    n_fin_rt: Signal<Local, Bits<R>>,
    n_fin_be: Signal<Local, Bits<B>>,
    n_sfree: Signal<Local, Bits<B>>,
    /// Error class this cycle: `DUP_ID`.
    e_dup: Signal<Local, Bit>,
    /// Error class this cycle: `ZERO_WGS`.
    e_zero: Signal<Local, Bit>,
    /// Error class this cycle: `BAD_EVENT` (a record, completion or withdraw naming no entry that
    /// can take it).
    e_event: Signal<Local, Bit>,
    /// Error class this cycle: `BAD_ACK`.
    e_ack: Signal<Local, Bit>,
    /// Next `rt_used`.
    n_rt_used: Signal<Local, Bits<R>>,
    /// Next `rt_allp`.
    n_rt_allp: Signal<Local, Bits<R>>,
    /// Next `be_used`.
    n_used: Signal<Local, Bits<B>>,
    /// Next `be_start`.
    n_start: Signal<Local, Bits<B>>,
    /// Next `be_go`.
    n_go: Signal<Local, Bits<B>>,
    /// Next `be_skip`.
    n_skip: Signal<Local, Bits<B>>,
    /// Next `be_dead`.
    n_dead: Signal<Local, Bits<B>>,
    /// Next `be_allp`.
    n_allp: Signal<Local, Bits<B>>,
}

impl<
        const R: usize,
        const B: usize,
        const IB: usize,
        const WB: usize,
        const SB: usize,
        const LB: usize,
        const SLB: usize,
    > Logic for KernelExpander<R, B, IB, WB, SB, LB, SLB>
{
    #[hdl_gen]
    fn update(&mut self) {
        // ---- registers hold by default ----
        dff_setup!(
            self,
            clock,
            rt_used,
            rt_allp,
            rt_ov,
            be_used,
            be_start,
            be_go,
            be_skip,
            be_dead,
            be_allp,
            be_ov,
            rr_rt_lo,
            rr_be_lo,
            rt_last_q,
            be_last_q,
            fin_rt_q,
            fin_be_q,
            sfree_q,
            ld_v,
            ld_oh,
            ld_slot,
            start_q,
            start_kid_q,
            wd_q,
            wd_slot_q,
            error_q,
            code_q
        );
        for i in 0..R {
            self.rt_kids[i].clock.next = self.clock.val();
            self.rt_kids[i].d.next = self.rt_kids[i].q.val();
            self.rt_wgsv[i].clock.next = self.clock.val();
            self.rt_wgsv[i].d.next = self.rt_wgsv[i].q.val();
            self.rt_shapes[i].clock.next = self.clock.val();
            self.rt_shapes[i].d.next = self.rt_shapes[i].q.val();
            self.rt_pushed[i].clock.next = self.clock.val();
            self.rt_pushed[i].d.next = self.rt_pushed[i].q.val();
            self.rt_queued[i].clock.next = self.clock.val();
            self.rt_queued[i].d.next = self.rt_queued[i].q.val();
            self.rt_live[i].clock.next = self.clock.val();
            self.rt_live[i].d.next = self.rt_live[i].q.val();
            self.rt_ord[i].clock.next = self.clock.val();
            self.rt_ord[i].d.next = self.rt_ord[i].q.val();
        }
        for i in 0..B {
            self.be_kids[i].clock.next = self.clock.val();
            self.be_kids[i].d.next = self.be_kids[i].q.val();
            self.be_wgsv[i].clock.next = self.clock.val();
            self.be_wgsv[i].d.next = self.be_wgsv[i].q.val();
            self.be_shapes[i].clock.next = self.clock.val();
            self.be_shapes[i].d.next = self.be_shapes[i].q.val();
            self.be_pushed[i].clock.next = self.clock.val();
            self.be_pushed[i].d.next = self.be_pushed[i].q.val();
            self.be_queued[i].clock.next = self.clock.val();
            self.be_queued[i].d.next = self.be_queued[i].q.val();
            self.be_live[i].clock.next = self.clock.val();
            self.be_live[i].d.next = self.be_live[i].q.val();
            self.be_ord[i].clock.next = self.clock.val();
            self.be_ord[i].d.next = self.be_ord[i].q.val();
        }
        // ---- the descriptor store: read by the submit's kid, written by a BE launch ----
        self.store_wgs.read_clock.next = self.clock.val();
        self.store_wgs.write_clock.next = self.clock.val();
        self.store_shape.read_clock.next = self.clock.val();
        self.store_shape.write_clock.next = self.clock.val();
        self.store_flags.read_clock.next = self.clock.val();
        self.store_flags.write_clock.next = self.clock.val();
        self.store_flags.read_address.next = self.sub_kid.val();
        self.store_flags.write_address.next = self.desc_kid.val();
        self.store_flags.write_data.next = 1.into();
        if self.desc_wgs.val() == self.one_w.val() {
            self.store_flags.write_data.next = 3.into();
        }
        self.store_flags.write_enable.next =
            self.desc_we.val() & self.desc_wgs.val().any() & !self.reset.val();
        self.store_wgs.read_address.next = self.sub_kid.val();
        self.store_shape.read_address.next = self.sub_kid.val();
        self.store_wgs.write_address.next = self.desc_kid.val();
        self.store_shape.write_address.next = self.desc_kid.val();
        self.store_wgs.write_data.next = self.desc_wgs.val();
        self.store_shape.write_data.next = self.desc_shape.val();
        self.store_wgs.write_enable.next =
            self.desc_we.val() & self.desc_wgs.val().any() & !self.reset.val();
        self.store_shape.write_enable.next =
            self.desc_we.val() & self.desc_wgs.val().any() & !self.reset.val();

        // ---- free entries: the lowest free slot of each class ----
        self.rt_free.next = !self.rt_used.q.val();
        self.rt_alloc.next = self.rt_free.val() & (!self.rt_free.val() + self.one_r.val());
        self.rt_alloc_slot.next = 0.into();
        for i in 0..R {
            if self.rt_alloc.val().get_bit(i) {
                self.rt_alloc_slot.next = self.rt_alloc_slot.val() | self.idx[i].val();
            }
        }
        self.be_free.next = !self.be_used.q.val();
        self.be_alloc.next = self.be_free.val() & (!self.be_free.val() + self.one_b.val());
        self.be_alloc_slot.next = 0.into();
        for i in 0..B {
            if self.be_alloc.val().get_bit(i) {
                self.be_alloc_slot.next = self.be_alloc_slot.val() | self.idx[i].val();
            }
        }
        self.rt_ready.next = self.rt_free.val().any();
        self.sub_ready.next = self.be_free.val().any();
        self.rt_active.next = self.rt_used.q.val().any();
        self.be_orphans.next =
            (self.be_used.q.val() & (self.be_skip.q.val() | self.be_dead.q.val())).any();

        // ---- push: the RT order head if its channel has room, else the BE head ----
        self.rt_hsel.next = 0.into();
        for i in 0..R {
            if self.rt_ov.q.val().get_bit(0) & (self.rt_ord[0].q.val() == self.idx[i].val()) {
                self.rt_hsel.next = self.rt_hsel.val().replace_bit(i, true);
            }
        }
        self.be_hsel.next = 0.into();
        for i in 0..B {
            if self.be_ov.q.val().get_bit(0) & (self.be_ord[0].q.val() == self.idx[i].val()) {
                self.be_hsel.next = self.be_hsel.val().replace_bit(i, true);
            }
        }
        self.push_rt.next = self.rt_ov.q.val().get_bit(0) & self.room_rt.val();
        self.push_be.next =
            !self.push_rt.val() & self.be_ov.q.val().get_bit(0) & self.room_be.val();
        self.p_pushed.next = 0.into();
        self.p_shape.next = 0.into();
        for i in 0..R {
            if self.push_rt.val() & self.rt_hsel.val().get_bit(i) {
                self.p_pushed.next = self.rt_pushed[i].q.val();
                self.p_shape.next = self.rt_shapes[i].q.val();
            }
        }
        for i in 0..B {
            if self.push_be.val() & self.be_hsel.val().get_bit(i) {
                self.p_pushed.next = self.be_pushed[i].q.val();
                self.p_shape.next = self.be_shapes[i].q.val();
            }
        }
        // "the next push is the kernel's last WG", per entry from registers, then selected
        self.p_last.next = (self.push_rt.val()
            & (self.rt_hsel.val() & self.rt_last_q.q.val()).any())
            | (self.push_be.val() & (self.be_hsel.val() & self.be_last_q.q.val()).any());
        self.push_valid.next = self.push_rt.val() | self.push_be.val();
        self.push_class.next = self.push_be.val();
        self.push_slot.next = 0.into();
        if self.push_rt.val() {
            self.push_slot.next = self.rt_ord[0].q.val();
        }
        if self.push_be.val() {
            self.push_slot.next = self.be_ord[0].q.val();
        }
        self.push_idx.next = self.p_pushed.val();
        self.push_shape.next = self.p_shape.val();

        // ---- finished kernels: one report per cycle, RT slots first ----
        self.fin_rt.next = self.fin_rt_q.q.val();
        self.fin_be.next = self.fin_be_q.q.val();
        self.sfree.next = self.sfree_q.q.val();
        // round robin: RT slots then BE slots, starting after the entry reported last
        self.m_rt.next = self.fin_rt.val() & !self.rr_rt_lo.q.val();
        self.m_be.next = self.fin_be.val() & !self.rr_be_lo.q.val();
        self.lb_m_rt.next = self.m_rt.val() & (!self.m_rt.val() + self.one_r.val());
        self.lb_f_rt.next = self.fin_rt.val() & (!self.fin_rt.val() + self.one_r.val());
        self.lb_m_be.next = 0.into();
        self.lb_f_be.next = 0.into();
        self.lb_seen.next = 0.into();
        for i in 0..B {
            if self.m_be.val().get_bit(i) & !self.lb_seen.val().get_bit(0) {
                self.lb_m_be.next = self.lb_m_be.val().replace_bit(i, true);
            }
            if self.fin_be.val().get_bit(i) & !self.lb_seen.val().get_bit(1) {
                self.lb_f_be.next = self.lb_f_be.val().replace_bit(i, true);
            }
            if self.m_be.val().get_bit(i) {
                self.lb_seen.next = self.lb_seen.val() | 1;
            }
            if self.fin_be.val().get_bit(i) {
                self.lb_seen.next = self.lb_seen.val() | 2;
            }
        }
        self.pick_rt.next = 0.into();
        self.pick_be.next = 0.into();
        if self.m_rt.val().any() {
            self.pick_rt.next = self.lb_m_rt.val();
        } else if self.m_be.val().any() {
            self.pick_be.next = self.lb_m_be.val();
        } else if self.fin_rt.val().any() {
            self.pick_rt.next = self.lb_f_rt.val();
        } else {
            self.pick_be.next = self.lb_f_be.val();
        }
        if self.pick_rt.val().any() {
            self.rr_rt_lo.d.next = self.pick_rt.val() | (self.pick_rt.val() - self.one_r.val());
            self.rr_be_lo.d.next = 0.into();
        }
        if self.pick_be.val().any() {
            self.rr_rt_lo.d.next = self.ones_r.val();
            self.rr_be_lo.d.next = self.pick_be.val() | (self.pick_be.val() - self.one_b.val());
        }
        self.kdone_valid.next = self.pick_rt.val().any() | self.pick_be.val().any();
        self.kdone_class.next = self.pick_be.val().any();
        self.kdone_kid.next = 0.into();
        self.done_kid.next = 0.into();
        for i in 0..R {
            if self.pick_rt.val().get_bit(i) {
                self.kdone_kid.next = self.rt_kids[i].q.val();
            }
        }
        for i in 0..B {
            if self.pick_be.val().get_bit(i) {
                self.kdone_kid.next = self.be_kids[i].q.val();
                self.done_kid.next = self.be_kids[i].q.val();
            }
        }
        self.done_valid.next = self.pick_be.val().any();

        // ---- registered outputs ----
        self.start_valid.next = self.start_q.q.val();
        self.start_kid.next = self.start_kid_q.q.val();
        self.withdraw_valid.next = self.wd_q.q.val();
        self.withdraw_slot.next = self.wd_slot_q.q.val();
        self.error.next = self.error_q.q.val();
        self.error_code.next = self.code_q.q.val();

        // ---- 1.–3. records, completions, withdraw reports: legality against the state ----
        self.rec_rt.next = 0.into();
        self.cpl_rt.next = 0.into();
        for i in 0..R {
            if self.rec_valid.val()
                & !self.rec_class.val()
                & (self.rec_slot.val() == self.idx[i].val())
                & self.rt_used.q.val().get_bit(i)
                & self.rt_queued[i].q.val().any()
                & (self.rt_live[i].q.val() != self.live_max.val())
            {
                self.rec_rt.next = self.rec_rt.val().replace_bit(i, true);
            }
            if self.cpl_valid.val()
                & !self.cpl_class.val()
                & (self.cpl_slot.val() == self.idx[i].val())
                & self.rt_used.q.val().get_bit(i)
                & self.rt_live[i].q.val().any()
            {
                self.cpl_rt.next = self.cpl_rt.val().replace_bit(i, true);
            }
        }
        self.rec_be.next = 0.into();
        self.cpl_be.next = 0.into();
        self.wdr_be.next = 0.into();
        self.rec_start.next = 0.into();
        for i in 0..B {
            if self.rec_valid.val()
                & self.rec_class.val()
                & (self.rec_slot.val() == self.idx[i].val())
                & self.be_used.q.val().get_bit(i)
                & self.be_queued[i].q.val().any()
                & (self.be_live[i].q.val() != self.live_max.val())
            {
                self.rec_be.next = self.rec_be.val().replace_bit(i, true);
                // the entry check: a BE kernel's first record
                if !self.be_start.q.val().get_bit(i) & !self.be_dead.q.val().get_bit(i) {
                    self.rec_start.next = self.rec_start.val().replace_bit(i, true);
                }
            }
            if self.cpl_valid.val()
                & self.cpl_class.val()
                & (self.cpl_slot.val() == self.idx[i].val())
                & self.be_used.q.val().get_bit(i)
                & self.be_live[i].q.val().any()
            {
                self.cpl_be.next = self.cpl_be.val().replace_bit(i, true);
            }
            // a last record of the same slot in this cycle takes one queued WG first
            if self.wdr_valid.val()
                & (self.wdr_slot.val() == self.idx[i].val())
                & self.be_used.q.val().get_bit(i)
                & self.be_skip.q.val().get_bit(i)
                & self.be_queued[i].q.val().any()
                & !(self.rec_be.val().get_bit(i)
                    & self.rec_last.val()
                    & (self.be_queued[i].q.val() == self.one_w.val()))
            {
                self.wdr_be.next = self.wdr_be.val().replace_bit(i, true);
            }
        }
        self.start_q.d.next = self.rec_start.val().any();
        self.start_kid_q.d.next = 0.into();
        for i in 0..B {
            if self.rec_start.val().get_bit(i) {
                self.start_kid_q.d.next = self.be_kids[i].q.val();
            }
        }

        // ---- 4. the answer: the started, unanswered entry with that kid ----
        self.ack_hit.next = 0.into();
        for i in 0..B {
            if self.ack_valid.val()
                & self.be_used.q.val().get_bit(i)
                & self.be_start.q.val().get_bit(i)
                & !self.be_go.q.val().get_bit(i)
                & !self.be_skip.q.val().get_bit(i)
                & (self.be_kids[i].q.val() == self.ack_kid.val())
            {
                self.ack_hit.next = self.ack_hit.val().replace_bit(i, true);
            }
        }
        // the lowest hit by a prefix OR (`x & (!x + 1)` was a carry chain after the compares)
        self.ack_oh.next = 0.into();
        self.ack_seen.next = false;
        for i in 0..B {
            if self.ack_hit.val().get_bit(i) & !self.ack_seen.val() {
                self.ack_oh.next = self.ack_oh.val().replace_bit(i, true);
            }
            self.ack_seen.next = self.ack_seen.val() | self.ack_hit.val().get_bit(i);
        }
        self.ack_ok.next = self.ack_hit.val().any();
        self.ack_slot.next = 0.into();
        for i in 0..B {
            if self.ack_oh.val().get_bit(i) {
                self.ack_slot.next = self.ack_slot.val() | self.idx[i].val();
            }
        }
        self.wd_q.d.next = self.ack_ok.val() & self.ack_skip.val();
        self.wd_slot_q.d.next = 0.into();
        if self.ack_ok.val() & self.ack_skip.val() {
            self.wd_slot_q.d.next = self.ack_slot.val();
        }

        // ---- 6. the previous submit's descriptor; 7. submit; 8. RT kernel ----
        self.ld_zero.next = self.ld_v.q.val() & !self.store_flags.read_data.val().get_bit(0);
        self.ld_app.next = self.ld_v.q.val()
            & !self.ld_zero.val()
            & !(self.be_dead.q.val() & self.ld_oh.q.val()).any();
        self.sub_take.next = self.sub_valid.val() & self.be_free.val().any();
        self.ld_v.d.next = self.sub_take.val();
        self.ld_oh.d.next = 0.into();
        self.ld_slot.d.next = self.be_alloc_slot.val();
        if self.sub_take.val() {
            self.ld_oh.d.next = self.be_alloc.val();
        }
        self.dup.next = false;
        for i in 0..R {
            if self.rt_used.q.val().get_bit(i) & (self.rt_kids[i].q.val() == self.rt_kid.val()) {
                self.dup.next = true;
            }
        }
        self.rt_take.next = self.rt_valid.val() & self.rt_free.val().any();
        self.rt_ok.next = self.rt_take.val() & !self.dup.val() & self.rt_wgs.val().any();

        // ---- order queues: pop the head (last WG pushed, or answered skip), append ----
        self.pop_rt.next = self.push_rt.val() & self.p_last.val();
        // a skip answer pops the head when the head is its lowest hit: the head is hit and no
        // entry below it is (`be_below` from the order head's registers)
        self.be_below.next = self.be_hsel.val() - self.one_b.val();
        self.pop_be.next = (self.push_be.val() & self.p_last.val())
            | (self.ack_skip.val()
                & (self.ack_hit.val() & self.be_hsel.val()).any()
                & !(self.ack_hit.val() & self.be_below.val()).any());
        self.rt_ov_p.next = self.rt_ov.q.val();
        if self.pop_rt.val() {
            self.rt_ov_p.next = self.rt_ov.q.val() >> 1;
            for i in 0..(R - 1) {
                self.rt_ord[i].d.next = self.rt_ord[i + 1].q.val();
            }
        }
        self.rt_tail.next = !self.rt_ov_p.val() & ((self.rt_ov_p.val() << 1) | self.one_r.val());
        self.rt_ov.d.next = self.rt_ov_p.val();
        if self.rt_ok.val() {
            self.rt_ov.d.next = self.rt_ov_p.val() | self.rt_tail.val();
            for i in 0..R {
                if self.rt_tail.val().get_bit(i) {
                    self.rt_ord[i].d.next = self.rt_alloc_slot.val();
                }
            }
        }
        self.be_ov_p.next = self.be_ov.q.val();
        if self.pop_be.val() {
            self.be_ov_p.next = self.be_ov.q.val() >> 1;
            for i in 0..(B - 1) {
                self.be_ord[i].d.next = self.be_ord[i + 1].q.val();
            }
        }
        self.be_tail.next = !self.be_ov_p.val() & ((self.be_ov_p.val() << 1) | self.one_b.val());
        self.be_ov.d.next = self.be_ov_p.val();
        if self.ld_app.val() {
            self.be_ov.d.next = self.be_ov_p.val() | self.be_tail.val();
            for i in 0..B {
                if self.be_tail.val().get_bit(i) {
                    self.be_ord[i].d.next = self.ld_slot.q.val();
                }
            }
        }
        if self.flush_be.val() | self.be_killed.val() {
            self.be_ov.d.next = 0.into();
        }

        // ---- RT entries: counters, allocation, frees ----
        self.n_rt_last.next = self.rt_last_q.q.val();
        for i in 0..R {
            if self.push_rt.val() & self.rt_hsel.val().get_bit(i) {
                self.rt_pushed[i].d.next = self.rt_pushed[i].q.val() + self.one_w.val();
                self.n_rt_last.next = self.n_rt_last.val().replace_bit(
                    i,
                    (self.rt_pushed[i].q.val() + self.two_w.val()) == self.rt_wgsv[i].q.val(),
                );
            }
            self.rt_nl[i].next = self.rt_live[i].q.val();
            if self.rec_rt.val().get_bit(i) & !self.cpl_rt.val().get_bit(i) {
                self.rt_nl[i].next = self.rt_live[i].q.val() + 1;
            }
            if !self.rec_rt.val().get_bit(i) & self.cpl_rt.val().get_bit(i) {
                self.rt_nl[i].next = self.rt_live[i].q.val() - 1;
            }
            self.rt_live[i].d.next = self.rt_nl[i].val();
            // (the sums from the register, selected by the record, then by the push: no
            // carry chain after the push decision)
            self.rt_qp1[i].next = self.rt_queued[i].q.val() + self.one_w.val();
            self.rt_qm1[i].next = self.rt_queued[i].q.val() - self.one_w.val();
            self.rt_nq[i].next = self.rt_queued[i].q.val();
            if self.rec_rt.val().get_bit(i) & self.rec_last.val() {
                self.rt_nq[i].next = self.rt_qm1[i].val();
            }
            if self.push_rt.val() & self.rt_hsel.val().get_bit(i) {
                self.rt_nq[i].next = self.rt_qp1[i].val();
                if self.rec_rt.val().get_bit(i) & self.rec_last.val() {
                    self.rt_nq[i].next = self.rt_queued[i].q.val();
                }
            }
            self.rt_queued[i].d.next = self.rt_nq[i].val();
            if self.rt_ok.val() & self.rt_alloc.val().get_bit(i) {
                self.rt_kids[i].d.next = self.rt_kid.val();
                self.rt_wgsv[i].d.next = self.rt_wgs.val();
                self.n_rt_last.next = self
                    .n_rt_last
                    .val()
                    .replace_bit(i, self.rt_wgs.val() == self.one_w.val());
                self.rt_shapes[i].d.next = self.rt_shape.val();
                self.rt_pushed[i].d.next = 0.into();
                self.rt_queued[i].d.next = 0.into();
                self.rt_live[i].d.next = 0.into();
            }
        }
        self.rt_last_q.d.next = self.n_rt_last.val();
        self.n_rt_used.next = self.rt_used.q.val() & !self.pick_rt.val();
        self.n_rt_allp.next = self.rt_allp.q.val();
        if self.pop_rt.val() {
            self.n_rt_allp.next = self.rt_allp.q.val() | self.rt_hsel.val();
        }
        if self.rt_ok.val() {
            self.n_rt_used.next = self.n_rt_used.val() | self.rt_alloc.val();
            self.n_rt_allp.next = self.n_rt_allp.val() & !self.rt_alloc.val();
        }
        self.rt_used.d.next = self.n_rt_used.val();
        self.rt_allp.d.next = self.n_rt_allp.val();

        // ---- BE entries: counters, flags, allocation, frees ----
        self.n_be_last.next = self.be_last_q.q.val();
        for i in 0..B {
            if self.push_be.val() & self.be_hsel.val().get_bit(i) {
                self.be_pushed[i].d.next = self.be_pushed[i].q.val() + self.one_w.val();
                self.n_be_last.next = self.n_be_last.val().replace_bit(
                    i,
                    (self.be_pushed[i].q.val() + self.two_w.val()) == self.be_wgsv[i].q.val(),
                );
            }
            self.be_nl[i].next = self.be_live[i].q.val();
            if self.rec_be.val().get_bit(i) & !self.cpl_be.val().get_bit(i) {
                self.be_nl[i].next = self.be_live[i].q.val() + 1;
            }
            if !self.rec_be.val().get_bit(i) & self.cpl_be.val().get_bit(i) {
                self.be_nl[i].next = self.be_live[i].q.val() - 1;
            }
            self.be_live[i].d.next = self.be_nl[i].val();
            // (the sums from the register, selected by the last record and the withdraw,
            // then by the push: no carry chain after the push decision)
            self.be_qp1[i].next = self.be_queued[i].q.val() + self.one_w.val();
            self.be_qm1[i].next = self.be_queued[i].q.val() - self.one_w.val();
            self.be_qm2[i].next = self.be_queued[i].q.val() - self.two_w.val();
            self.be_nq[i].next = self.be_queued[i].q.val();
            if (self.rec_be.val().get_bit(i) & self.rec_last.val()) | self.wdr_be.val().get_bit(i) {
                self.be_nq[i].next = self.be_qm1[i].val();
            }
            if self.rec_be.val().get_bit(i) & self.rec_last.val() & self.wdr_be.val().get_bit(i) {
                self.be_nq[i].next = self.be_qm2[i].val();
            }
            if self.push_be.val() & self.be_hsel.val().get_bit(i) {
                self.be_nq[i].next = self.be_qp1[i].val();
                if (self.rec_be.val().get_bit(i) & self.rec_last.val())
                    | self.wdr_be.val().get_bit(i)
                {
                    self.be_nq[i].next = self.be_queued[i].q.val();
                }
                if self.rec_be.val().get_bit(i) & self.rec_last.val() & self.wdr_be.val().get_bit(i)
                {
                    self.be_nq[i].next = self.be_qm1[i].val();
                }
            }
            self.be_queued[i].d.next = self.be_nq[i].val();
            if self.ld_v.q.val() & self.ld_oh.q.val().get_bit(i) {
                self.be_wgsv[i].d.next = self.store_wgs.read_data.val();
                self.n_be_last.next = self
                    .n_be_last
                    .val()
                    .replace_bit(i, self.store_flags.read_data.val().get_bit(1));
                self.be_shapes[i].d.next = self.store_shape.read_data.val();
            }
            if self.sub_take.val() & self.be_alloc.val().get_bit(i) {
                self.be_kids[i].d.next = self.sub_kid.val();
                self.be_pushed[i].d.next = 0.into();
                self.be_queued[i].d.next = 0.into();
                self.be_live[i].d.next = 0.into();
            }
        }
        self.be_last_q.d.next = self.n_be_last.val();
        self.n_used.next = self.be_used.q.val() & !self.pick_be.val() & !self.sfree.val();
        if self.ld_zero.val() {
            self.n_used.next = self.n_used.val() & !self.ld_oh.q.val();
        }
        if self.be_killed.val() {
            self.n_used.next = 0.into();
        }
        self.n_start.next = self.be_start.q.val() | self.rec_start.val();
        self.n_go.next = self.be_go.q.val();
        self.n_skip.next = self.be_skip.q.val();
        if self.ack_ok.val() & !self.ack_skip.val() {
            self.n_go.next = self.be_go.q.val() | self.ack_oh.val();
        }
        if self.ack_ok.val() & self.ack_skip.val() {
            self.n_skip.next = self.be_skip.q.val() | self.ack_oh.val();
        }
        self.n_dead.next = self.be_dead.q.val();
        if self.flush_be.val() {
            self.n_dead.next = self.be_dead.q.val() | self.be_used.q.val();
        }
        self.n_allp.next = self.be_allp.q.val();
        if self.push_be.val() & self.p_last.val() {
            self.n_allp.next = self.be_allp.q.val() | self.be_hsel.val();
        }
        if self.sub_take.val() {
            // a fresh entry: every flag clear until its descriptor arrives
            self.n_used.next = self.n_used.val() | self.be_alloc.val();
            self.n_start.next = self.n_start.val() & !self.be_alloc.val();
            self.n_go.next = self.n_go.val() & !self.be_alloc.val();
            self.n_skip.next = self.n_skip.val() & !self.be_alloc.val();
            self.n_dead.next = self.n_dead.val() & !self.be_alloc.val();
            self.n_allp.next = self.n_allp.val() & !self.be_alloc.val();
        }
        self.be_used.d.next = self.n_used.val();
        self.be_start.d.next = self.n_start.val();
        self.be_go.d.next = self.n_go.val();
        self.be_skip.d.next = self.n_skip.val();
        self.be_dead.d.next = self.n_dead.val();
        self.be_allp.d.next = self.n_allp.val();

        // ---- the next cycle's finished entries, from this cycle's next state (an entry
        // allocated now has `allp` clear, so its counters' reset values need not be read) ----
        // "queued and live both 0 after this cycle": the count is 0, 1 or 2 now and this
        // cycle's changes (one push up; a last record and a withdraw down; a record up or a
        // completion down for `live`) bring it to 0 (a decrement never meets 0: the event
        // checks above)
        self.rt_nz.next = 0.into();
        for i in 0..R {
            if (((!self.rt_queued[i].q.val().any())
                & !(self.push_rt.val() & self.rt_hsel.val().get_bit(i))
                & !(self.rec_rt.val().get_bit(i) & self.rec_last.val()))
                | ((self.rt_queued[i].q.val() == self.one_w.val())
                    & !(self.push_rt.val() & self.rt_hsel.val().get_bit(i))
                    & self.rec_rt.val().get_bit(i)
                    & self.rec_last.val()))
                & (((!self.rt_live[i].q.val().any())
                    & !(self.rec_rt.val().get_bit(i) & !self.cpl_rt.val().get_bit(i)))
                    | ((self.rt_live[i].q.val() == 1)
                        & !self.rec_rt.val().get_bit(i)
                        & self.cpl_rt.val().get_bit(i)))
            {
                self.rt_nz.next = self.rt_nz.val().replace_bit(i, true);
            }
        }
        self.be_nz.next = 0.into();
        for i in 0..B {
            if (((!self.be_queued[i].q.val().any())
                & !(self.push_be.val() & self.be_hsel.val().get_bit(i))
                & !(self.rec_be.val().get_bit(i) & self.rec_last.val())
                & !self.wdr_be.val().get_bit(i))
                | ((self.be_queued[i].q.val() == self.one_w.val())
                    & !(self.push_be.val() & self.be_hsel.val().get_bit(i))
                    & ((self.rec_be.val().get_bit(i) & self.rec_last.val())
                        ^ self.wdr_be.val().get_bit(i)))
                | ((self.be_queued[i].q.val() == self.one_w.val())
                    & (self.push_be.val() & self.be_hsel.val().get_bit(i))
                    & (self.rec_be.val().get_bit(i) & self.rec_last.val())
                    & self.wdr_be.val().get_bit(i))
                | ((self.be_queued[i].q.val() == 2)
                    & !(self.push_be.val() & self.be_hsel.val().get_bit(i))
                    & (self.rec_be.val().get_bit(i) & self.rec_last.val())
                    & self.wdr_be.val().get_bit(i)))
                & (((!self.be_live[i].q.val().any())
                    & !(self.rec_be.val().get_bit(i) & !self.cpl_be.val().get_bit(i)))
                    | ((self.be_live[i].q.val() == 1)
                        & !self.rec_be.val().get_bit(i)
                        & self.cpl_be.val().get_bit(i)))
            {
                self.be_nz.next = self.be_nz.val().replace_bit(i, true);
            }
        }
        self.n_fin_rt.next = self.n_rt_used.val() & self.n_rt_allp.val() & self.rt_nz.val();
        self.n_fin_be.next = self.n_used.val()
            & !self.n_dead.val()
            & self.be_nz.val()
            & self.n_go.val()
            & self.n_allp.val();
        // a skipped kernel's orphans are gone: its entry is freed silently
        self.n_sfree.next =
            self.n_used.val() & !self.n_dead.val() & self.be_nz.val() & self.n_skip.val();
        self.fin_rt_q.d.next = self.n_fin_rt.val();
        self.fin_be_q.d.next = self.n_fin_be.val();
        self.sfree_q.d.next = self.n_sfree.val();

        // ---- errors: the smallest code of the cycle ----
        self.e_dup.next = self.rt_take.val() & self.dup.val();
        self.e_zero.next = (self.rt_take.val() & !self.dup.val() & !self.rt_wgs.val().any())
            | (self.desc_we.val() & !self.desc_wgs.val().any())
            | self.ld_zero.val();
        self.e_event.next = (self.rec_valid.val()
            & !(self.rec_rt.val().any() | self.rec_be.val().any()))
            | (self.cpl_valid.val() & !(self.cpl_rt.val().any() | self.cpl_be.val().any()))
            | (self.wdr_valid.val() & !self.wdr_be.val().any());
        self.e_ack.next = self.ack_valid.val() & !self.ack_ok.val();
        self.error_q.d.next =
            self.e_dup.val() | self.e_zero.val() | self.e_event.val() | self.e_ack.val();
        self.code_q.d.next = 0.into();
        if self.e_ack.val() {
            self.code_q.d.next = self.c4.val();
        }
        if self.e_event.val() {
            self.code_q.d.next = self.c3.val();
        }
        if self.e_zero.val() {
            self.code_q.d.next = self.c2.val();
        }
        if self.e_dup.val() {
            self.code_q.d.next = self.c1.val();
        }

        // ---- synchronous reset: the idle state (every init value) ----
        if self.reset.val() {
            self.rt_used.d.next = 0.into();
            self.rt_allp.d.next = 0.into();
            self.rt_ov.d.next = 0.into();
            self.be_used.d.next = 0.into();
            self.be_start.d.next = 0.into();
            self.be_go.d.next = 0.into();
            self.be_skip.d.next = 0.into();
            self.be_dead.d.next = 0.into();
            self.be_allp.d.next = 0.into();
            self.be_ov.d.next = 0.into();
            self.rr_rt_lo.d.next = 0.into();
            self.rr_be_lo.d.next = 0.into();
            self.fin_rt_q.d.next = 0.into();
            self.fin_be_q.d.next = 0.into();
            self.sfree_q.d.next = 0.into();
            self.ld_v.d.next = false;
            self.ld_oh.d.next = 0.into();
            self.start_q.d.next = false;
            self.start_kid_q.d.next = 0.into();
            self.wd_q.d.next = false;
            self.wd_slot_q.d.next = 0.into();
            self.error_q.d.next = false;
            self.code_q.d.next = 0.into();
        }
    }
}

/// Board config: 4 RT + 8 BE entries, 8-bit kids, 8-bit WG counts, 19-bit shapes (the export
/// contract).
pub type BoardKernelExpander = KernelExpander<4, 8, 8, 8, 19, 4, 3>;
/// Full config: 16 RT + 8 BE entries, 12-bit kids, 10-bit WG counts, 29-bit shapes.
pub type FullKernelExpander = KernelExpander<16, 8, 12, 10, 29, 7, 4>;
/// One entry per class.
pub type OneKernelExpander = KernelExpander<1, 1, 2, 2, 3, 1, 1>;
/// Small: 2 + 2 entries.
pub type SmallKernelExpander = KernelExpander<2, 2, 3, 3, 4, 2, 1>;
/// Non-power-of-two: 3 RT + 5 BE entries.
pub type OddKernelExpander = KernelExpander<3, 5, 4, 4, 5, 3, 3>;

/// Verilog of a block as module `top` (connected first).
pub use crate::top_verilog as verilog;
