//! GPU scheduling front-end (SPEC Unit 8, design `docs/gpu_frontend.md`): the RTL top
//! `gpu_frontend` composing the board configs of [`crate::preempt_ctrl`] (Unit 4: D = 16, 8-bit
//! ids, 8-entry table), [`crate::kernel_expander`] and [`crate::dispatcher_tagged`] as
//! sub-blocks, plus the glue of the design page.
//!
//! The behaviour, cycle by cycle, is the composed golden model `golden_model::gpu_frontend`
//! (the unit models wired together; its module doc is normative: the port table, the register
//! map, the one-cycle order of the glue, the registered-vs-combinational boundaries); this block
//! is checked against it every cycle (RustHDL and Verilator, `testbench::gpu_frontend`).
//!
//! ## Ports (the exported module has exactly these, in this order; widths of the board config)
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `clock`, `reset` | in | 1 | one clock; synchronous active-high reset |
//! | `launch_valid`, `launch_ready` | in, out | 1, 1 | launch stream of kernels |
//! | `launch_kid`, `launch_class`, `launch_idem`, `launch_wgs` | in | 8, 1, 1, 8 | kernel id, class (0 RT, 1 BE), idempotent, WG count (1..=255) |
//! | `launch_waves`, `launch_vgpr`, `launch_sgpr`, `launch_lds`, `launch_indep` | in | 4, 5, 4, 5, 1 | the WG shape |
//! | `cfg_we`, `cfg_addr`, `cfg_data` | in | 1, 5, 16 | registers: 0x00–0x0F the dispatcher's, 0x10 `MAX_INFLIGHT`, 0x11 `AUTO_PREEMPT` (reset 1), 0x12 `RESET_ENABLE` (reset 1) |
//! | `preempt`, `resume` | in | 1, 1 | host commands to Unit 4 while `AUTO_PREEMPT` = 0 |
//! | `done_valid`, `done_slot`, `retire_class`, `cu_reset_done` | in | 1, 3, 8, 1 | from the compute modules: a record completed, retire strobes, the CU reset is done |
//! | `disp_valid`, `disp_id`, `disp_module`, `disp_slot`, `disp_sub`, `disp_waves`, `disp_vgpr_base`, `disp_sgpr_base`, `disp_lds_base`, `disp_class`, `disp_kslot`, `disp_last` | out | 1, 8, 1, 3, 1, 6, 8, 6, 4, 1, 3, 1 | dispatch record with its kernel tag (registered) |
//! | `cu_reset` | out | 1 | CU reset pulse (Unit 4, registered) |
//! | `kernel_done_valid`, `kernel_done_kid`, `kernel_done_class` | out | 1, 8, 1 | a kernel completed |
//! | `kernel_skip_valid`, `kernel_skip_slot` | out | 1, 3 | a BE kernel was skipped: end its WGs (tag {BE, slot}) |
//! | `preempted`, `reclaim_busy` | out | 1, 1 | levels |
//! | `error`, `error_code` | out | 1, 2 | the front-end's error: 1 `NEVER_FITS`, 2 `ZERO_WGS`, 3 `BAD_CFG` |
//! | `pc_error`, `pc_error_code`, `exp_error`, `exp_error_code`, `disp_error`, `disp_error_code` | out | 1, 3 each | the units' error ports |
//!
//! ## Structure
//! Sub-blocks `ctrl` (Unit 4), `expander`, `disp`; glue registers: the launch register (one
//! kernel, 46 bits), the descriptor register (a BE kernel handed to Unit 4, written into the
//! expander's store one cycle later unless Unit 4 answered `DUP_ID`; the submission is held
//! in that cycle), the push register (expander → dispatcher, one WG), the withdraw register,
//! the done register (the expander's `done` → Unit 4 one cycle later; a BE kernel in the launch
//! register whose kid it holds is not offered to Unit 4 in that cycle), the policy's
//! `preempt`/`resume` strobes and its `preempt_done` flag, `AUTO_PREEMPT`,
//! `RESET_ENABLE` and the error register. The launch check (`NEVER_FITS`: 0 waves, or
//! `q = ⌈waves/2⌉` with q > 4, q·vgpr > 16, q·sgpr > 8 or lds > 16, as per-q compares; `ZERO_WGS`)
//! runs on the launch port into the error register. Every signal between two sub-blocks is a
//! registered output or combinational from the source's registers, except the expander's push
//! port (which reads `room` from the dispatcher's FIFO counters) — and that one ends in the
//! push register; the expander's `done` report (deep: counter compares, round-robin pick) ends
//! in the done register, not in Unit 4's done compare.
//!
//! ## Cost (ECP5-85F speed 6, in the `synth` flow's harness; command
//! `ECP5_VENV=/work/main/.venv-ecp5 PNR_TIMEOUT=2400 ./target/release/synth report --target
//! ecp5-85f --only gpu_frontend --seeds 1,2,3 --speeds 6 --readme README.md`, 2026-11-27,
//! session 14, yowasp tools, the README row)
//! **9339 LUT4**, 404 `CCU2C` (10 821 LUT4 sites, 13 % of the 85F), **3306 FFs** (incl. the
//! harness's), **2 EBR** (the expander's descriptor store). **Fmax 81.7 MHz median (seeds 1,
//! 2, 3: 82.3, 81.7, 81.0) — the 100 MHz goal is missed.** Critical path (median seed): the
//! preemption controller's `room` register → the record-strobe selects (`d_v`) → `room` (10
//! cells, 3.12 ns logic + 9.12 ns routing); front's run of the same family (77.9 MHz, with a
//! `preempt_ctrl` change since reverted): the BE head's kslot compared with a new withdraw →
//! the dispatcher's hold → the channel pick → channel 0's pop → its head registers; Unit 4's
//! answer id → the expander's answer compare → the skip pop of `be_ord`. History (64.0 → 73.8
//! → 73.7 → 80.9 → 80.3 → 81.7 MHz): `docs/gpu_frontend.md`, *Timing* sections.

use crate::dispatcher_tagged::DispatcherTagged;
use crate::kernel_expander::BoardKernelExpander;
use crate::preempt_ctrl::BoardPreemptCtrl;
use rust_hdl::prelude::*;

/// The composed board front-end.
#[derive(LogicBlock)]
pub struct GpuFrontend {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset, active high (every unit and the glue).
    pub reset: Signal<In, Bit>,
    /// A kernel is offered.
    pub launch_valid: Signal<In, Bit>,
    /// The launch register is empty or leaving (from registers and the units' readies).
    pub launch_ready: Signal<Out, Bit>,
    /// Kernel id.
    pub launch_kid: Signal<In, Bits<8>>,
    /// Class: 0 RT, 1 BE.
    pub launch_class: Signal<In, Bit>,
    /// Verified idempotent (BE).
    pub launch_idem: Signal<In, Bit>,
    /// WG count (0 is `ZERO_WGS`).
    pub launch_wgs: Signal<In, Bits<8>>,
    /// Waves per WG.
    pub launch_waves: Signal<In, Bits<4>>,
    /// VGPR blocks per wave.
    pub launch_vgpr: Signal<In, Bits<5>>,
    /// SGPR blocks per wave.
    pub launch_sgpr: Signal<In, Bits<4>>,
    /// LDS blocks per WG.
    pub launch_lds: Signal<In, Bits<5>>,
    /// Independent waves.
    pub launch_indep: Signal<In, Bit>,
    /// Register write strobe.
    pub cfg_we: Signal<In, Bit>,
    /// Register address.
    pub cfg_addr: Signal<In, Bits<5>>,
    /// Register data.
    pub cfg_data: Signal<In, Bits<16>>,
    /// Host preempt (while `AUTO_PREEMPT` = 0).
    pub preempt: Signal<In, Bit>,
    /// Host resume (while `AUTO_PREEMPT` = 0).
    pub resume: Signal<In, Bit>,
    /// A record completed.
    pub done_valid: Signal<In, Bit>,
    /// Its in-flight slot.
    pub done_slot: Signal<In, Bits<3>>,
    /// Retire strobes.
    pub retire_class: Signal<In, Bits<8>>,
    /// The CU reset is done.
    pub cu_reset_done: Signal<In, Bit>,
    /// Record strobe.
    pub disp_valid: Signal<Out, Bit>,
    /// Record: WG index.
    pub disp_id: Signal<Out, Bits<8>>,
    /// Record: module.
    pub disp_module: Signal<Out, Bit>,
    /// Record: in-flight slot.
    pub disp_slot: Signal<Out, Bits<3>>,
    /// Record: split sub-WG.
    pub disp_sub: Signal<Out, Bit>,
    /// Record: waves per unit.
    pub disp_waves: Signal<Out, Bits<6>>,
    /// Record: VGPR bases.
    pub disp_vgpr_base: Signal<Out, Bits<8>>,
    /// Record: SGPR bases.
    pub disp_sgpr_base: Signal<Out, Bits<6>>,
    /// Record: LDS base.
    pub disp_lds_base: Signal<Out, Bits<4>>,
    /// Record: tag class.
    pub disp_class: Signal<Out, Bit>,
    /// Record: tag slot.
    pub disp_kslot: Signal<Out, Bits<3>>,
    /// Record: the WG's dispatch ends here.
    pub disp_last: Signal<Out, Bit>,
    /// CU reset pulse.
    pub cu_reset: Signal<Out, Bit>,
    /// A kernel completed.
    pub kernel_done_valid: Signal<Out, Bit>,
    /// Its kid.
    pub kernel_done_kid: Signal<Out, Bits<8>>,
    /// Its class.
    pub kernel_done_class: Signal<Out, Bit>,
    /// A BE kernel was skipped.
    pub kernel_skip_valid: Signal<Out, Bit>,
    /// Its tag slot.
    pub kernel_skip_slot: Signal<Out, Bits<3>>,
    /// Unit 4's preempted flag.
    pub preempted: Signal<Out, Bit>,
    /// The reclaim walk runs.
    pub reclaim_busy: Signal<Out, Bit>,
    /// Front-end error strobe.
    pub error: Signal<Out, Bit>,
    /// 1 NEVER_FITS, 2 ZERO_WGS, 3 BAD_CFG.
    pub error_code: Signal<Out, Bits<2>>,
    /// Unit 4's error.
    pub pc_error: Signal<Out, Bit>,
    /// Unit 4's error code.
    pub pc_error_code: Signal<Out, Bits<3>>,
    /// The expander's error.
    pub exp_error: Signal<Out, Bit>,
    /// The expander's error code.
    pub exp_error_code: Signal<Out, Bits<3>>,
    /// The dispatcher's error.
    pub disp_error: Signal<Out, Bit>,
    /// The dispatcher's error code.
    pub disp_error_code: Signal<Out, Bits<3>>,

    // ---- units (public for probes in simulation: their ports are the units' contracts) ----
    /// Unit 4, the preemption controller.
    pub ctrl: BoardPreemptCtrl,
    /// The kernel expander.
    pub expander: BoardKernelExpander,
    /// The tagged dispatcher.
    pub disp: DispatcherTagged,

    // ---- glue registers ----
    /// Launch register: a kernel taken from the launch port waits here (RT → expander, BE → Unit
    /// 4).
    l_v: DFF<Bit>,
    /// Launch register: kernel id.
    l_kid: DFF<Bits<8>>,
    /// Launch register: class (0 RT, 1 BE).
    l_class: DFF<Bit>,
    /// Launch register: the kernel is idempotent.
    l_idem: DFF<Bit>,
    /// Launch register: WG count.
    l_wgs: DFF<Bits<8>>,
    /// Launch register: WG shape packed as the expander carries it (waves, VGPR, SGPR, LDS,
    /// independent bit 18).
    l_shape: DFF<Bits<19>>,
    /// Descriptor register: a BE kernel Unit 4 accepted; its descriptor is written into the
    /// expander's store next.
    d_v: DFF<Bit>,
    /// Descriptor register: kernel id.
    d_kid: DFF<Bits<8>>,
    /// Descriptor register: WG count.
    d_wgs: DFF<Bits<8>>,
    /// Descriptor register: WG shape.
    d_shape: DFF<Bits<19>>,
    /// Push register (expander → dispatcher): a WG is pushed.
    p_v: DFF<Bit>,
    /// Push register: class (the dispatcher channel: 0 RT, 1 BE).
    p_class: DFF<Bit>,
    /// Push register: the kernel's tracker slot (the dispatcher's `push_kslot`).
    p_slot: DFF<Bits<3>>,
    /// Push register: the WG index (the dispatcher's `push_id`).
    p_idx: DFF<Bits<8>>,
    /// Push register: the WG shape.
    p_shape: DFF<Bits<19>>,
    /// Withdraw register (expander → dispatcher): withdraw a skipped kernel's queued WGs.
    w_v: DFF<Bit>,
    /// Withdraw register: its BE slot.
    w_slot: DFF<Bits<3>>,
    /// Done register (expander → Unit 4): a BE kernel finished; Unit 4 sees it one cycle later.
    dn_v: DFF<Bit>,
    /// Done register: its kid.
    dn_kid: DFF<Bits<8>>,
    /// The policy's `preempt` strobe (registered; used while `auto_r` is set).
    pre_r: DFF<Bit>,
    /// The policy's `resume` strobe (registered).
    res_r: DFF<Bit>,
    /// `preempt_done` has been seen since the last preempt (the policy's resume condition).
    pdone: DFF<Bit>,
    /// Register 0x11, AUTO_PREEMPT: the policy drives Unit 4's preempt/resume (1, reset value) or
    /// the host ports do (0).
    auto_r: DFFWithInit<Bit>,
    /// Register 0x12, RESET_ENABLE: idempotent flags pass to Unit 4 (1, reset value) or are cleared
    /// (0).
    rsten_r: DFFWithInit<Bit>,
    /// The front-end's own error strobe (registered).
    err_q: DFF<Bit>,
    /// Its code: 1 NEVER_FITS, 2 ZERO_WGS, 3 BAD_CFG.
    err_code_q: DFF<Bits<2>>,

    // ---- constants ----
    /// Register address 0x10 (Unit 4's `max_inflight`).
    a_max: Constant<Bits<5>>,
    /// Register address 0x11 (AUTO_PREEMPT).
    a_auto: Constant<Bits<5>>,
    /// Register address 0x12 (RESET_ENABLE).
    a_rsten: Constant<Bits<5>>,
    /// Bit 18 of the packed shape: the WG is independent.
    bit18: Constant<Bits<19>>,

    // ---- combinational ----
    /// The kernel in the launch register is taken this cycle (by the expander if RT, Unit 4 if BE).
    leaves: Signal<Local, Bit>,
    /// The launch register is free after this cycle: `launch_ready`.
    ready: Signal<Local, Bit>,
    /// The launch register holds an RT kernel.
    l_rt: Signal<Local, Bit>,
    /// The launch register holds a BE kernel.
    l_be: Signal<Local, Bit>,
    /// It is offered to Unit 4 (a BE kernel whose kid is not in the done register this cycle).
    l_pc: Signal<Local, Bit>,
    /// A descriptor write is pending: Unit 4's submissions wait one cycle (the store is written
    /// first).
    blk: Signal<Local, Bit>,
    /// The pending descriptor is written (Unit 4 did not refuse the launch as `DUP_ID`).
    desc_ok: Signal<Local, Bit>,
    /// The `preempt` Unit 4 sees (the policy's or the host's, by AUTO_PREEMPT).
    host_pre: Signal<Local, Bit>,
    /// The `resume` Unit 4 sees.
    host_res: Signal<Local, Bit>,
    /// RT work is pending: an RT kernel in the expander or in the launch register.
    rt_pending: Signal<Local, Bit>,
    /// The expander's push is kept (a BE WG pushed in a `cu_reset` cycle is dropped).
    keep_push: Signal<Local, Bit>,
    /// The launch port hands a kernel over this cycle (`launch_valid` and `launch_ready`).
    take: Signal<Local, Bit>,
    /// ⌈waves / 2⌉: the waves per unit of the launched WG (for the NEVER_FITS check).
    q: Signal<Local, Bits<4>>,
    /// The launched WG never fits (NEVER_FITS): too many waves, or VGPR / SGPR / LDS above a unit's
    /// or module's size.
    nf: Signal<Local, Bit>,
    /// The launched kernel has 0 WGs (ZERO_WGS).
    zw: Signal<Local, Bit>,
    /// A register write goes to the dispatcher (addresses 0x00–0x0f).
    disp_cfg: Signal<Local, Bit>,
    /// A legal write of Unit 4's `max_inflight` (address 0x10, data below 16).
    pc_cfg: Signal<Local, Bit>,
    /// The written data is 0 or 1 (legal for AUTO_PREEMPT and RESET_ENABLE).
    data_lt2: Signal<Local, Bit>,
    /// An illegal register write (BAD_CFG).
    cfg_bad: Signal<Local, Bit>,
}

impl GpuFrontend {
    /// Build the board front-end.
    pub fn new() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            launch_valid: Default::default(),
            launch_ready: Default::default(),
            launch_kid: Default::default(),
            launch_class: Default::default(),
            launch_idem: Default::default(),
            launch_wgs: Default::default(),
            launch_waves: Default::default(),
            launch_vgpr: Default::default(),
            launch_sgpr: Default::default(),
            launch_lds: Default::default(),
            launch_indep: Default::default(),
            cfg_we: Default::default(),
            cfg_addr: Default::default(),
            cfg_data: Default::default(),
            preempt: Default::default(),
            resume: Default::default(),
            done_valid: Default::default(),
            done_slot: Default::default(),
            retire_class: Default::default(),
            cu_reset_done: Default::default(),
            disp_valid: Default::default(),
            disp_id: Default::default(),
            disp_module: Default::default(),
            disp_slot: Default::default(),
            disp_sub: Default::default(),
            disp_waves: Default::default(),
            disp_vgpr_base: Default::default(),
            disp_sgpr_base: Default::default(),
            disp_lds_base: Default::default(),
            disp_class: Default::default(),
            disp_kslot: Default::default(),
            disp_last: Default::default(),
            cu_reset: Default::default(),
            kernel_done_valid: Default::default(),
            kernel_done_kid: Default::default(),
            kernel_done_class: Default::default(),
            kernel_skip_valid: Default::default(),
            kernel_skip_slot: Default::default(),
            preempted: Default::default(),
            reclaim_busy: Default::default(),
            error: Default::default(),
            error_code: Default::default(),
            pc_error: Default::default(),
            pc_error_code: Default::default(),
            exp_error: Default::default(),
            exp_error_code: Default::default(),
            disp_error: Default::default(),
            disp_error_code: Default::default(),
            ctrl: BoardPreemptCtrl::new(),
            expander: BoardKernelExpander::new(),
            disp: DispatcherTagged::new(),
            l_v: Default::default(),
            l_kid: Default::default(),
            l_class: Default::default(),
            l_idem: Default::default(),
            l_wgs: Default::default(),
            l_shape: Default::default(),
            d_v: Default::default(),
            d_kid: Default::default(),
            d_wgs: Default::default(),
            d_shape: Default::default(),
            p_v: Default::default(),
            p_class: Default::default(),
            p_slot: Default::default(),
            p_idx: Default::default(),
            p_shape: Default::default(),
            w_v: Default::default(),
            w_slot: Default::default(),
            dn_v: Default::default(),
            dn_kid: Default::default(),
            pre_r: Default::default(),
            res_r: Default::default(),
            pdone: Default::default(),
            auto_r: DFFWithInit::new(true),
            rsten_r: DFFWithInit::new(true),
            err_q: Default::default(),
            err_code_q: Default::default(),
            a_max: Constant::new(0x10u64.into()),
            a_auto: Constant::new(0x11u64.into()),
            a_rsten: Constant::new(0x12u64.into()),
            bit18: Constant::new((1u64 << 18).into()),
            leaves: Default::default(),
            ready: Default::default(),
            l_rt: Default::default(),
            l_be: Default::default(),
            l_pc: Default::default(),
            blk: Default::default(),
            desc_ok: Default::default(),
            host_pre: Default::default(),
            host_res: Default::default(),
            rt_pending: Default::default(),
            keep_push: Default::default(),
            take: Default::default(),
            q: Default::default(),
            nf: Default::default(),
            zw: Default::default(),
            disp_cfg: Default::default(),
            pc_cfg: Default::default(),
            data_lt2: Default::default(),
            cfg_bad: Default::default(),
        }
    }
}

impl Default for GpuFrontend {
    fn default() -> Self {
        Self::new()
    }
}

impl Logic for GpuFrontend {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, l_v, l_kid, l_class, l_idem, l_wgs, l_shape, d_v, d_kid, d_wgs, d_shape,
            p_v, p_class, p_slot, p_idx, p_shape, w_v, w_slot, dn_v, dn_kid, pre_r, res_r, pdone,
            auto_r, rsten_r, err_q, err_code_q
        );
        clock!(self, clock, ctrl, expander, disp);
        self.ctrl.reset.next = self.reset.val();
        self.expander.reset.next = self.reset.val();
        self.disp.reset.next = self.reset.val();

        // ---- decodes of the glue state ----
        self.l_rt.next = self.l_v.q.val() & !self.l_class.q.val();
        self.l_be.next = self.l_v.q.val() & self.l_class.q.val();
        // a BE kernel whose kid is in the done register waits a cycle (Unit 4 frees it then)
        self.l_pc.next =
            self.l_be.val() & !(self.dn_v.q.val() & (self.dn_kid.q.val() == self.l_kid.q.val()));
        self.blk.next = self.d_v.q.val();
        self.desc_ok.next =
            self.d_v.q.val() & !(self.ctrl.error.val() & (self.ctrl.error_code.val() == 1u64));
        self.disp_cfg.next = self.cfg_we.val() & !self.cfg_addr.val().get_bit(4);
        self.pc_cfg.next = self.cfg_we.val()
            & (self.cfg_addr.val() == self.a_max.val())
            & (self.cfg_data.val().get_bits::<12>(4) == 0u64);
        self.data_lt2.next = self.cfg_data.val().get_bits::<15>(1) == 0u64;

        // ---- the dispatcher: push and withdraw registers, Unit 4's cu_reset, the far side ----
        self.disp.push_valid.next = self.p_v.q.val();
        self.disp.push_channel.next = self.p_class.q.val();
        self.disp.push_id.next = self.p_idx.q.val();
        self.disp.push_prio.next = 0.into();
        if self.p_v.q.val() & self.p_class.q.val() {
            self.disp.push_prio.next = 3.into();
        }
        self.disp.push_waves.next = self.p_shape.q.val().get_bits::<4>(0);
        self.disp.push_vgpr.next = self.p_shape.q.val().get_bits::<5>(4);
        self.disp.push_sgpr.next = self.p_shape.q.val().get_bits::<4>(9);
        self.disp.push_lds.next = self.p_shape.q.val().get_bits::<5>(13);
        self.disp.push_indep.next = self.p_shape.q.val().get_bit(18);
        self.disp.push_class.next = self.p_class.q.val();
        self.disp.push_kslot.next = self.p_slot.q.val();
        self.disp.withdraw_valid.next = self.w_v.q.val();
        self.disp.withdraw_kslot.next = self.w_slot.q.val();
        self.disp.cu_reset.next = self.ctrl.cu_reset.val();
        self.disp.cu_reset_done.next = self.cu_reset_done.val();
        self.disp.done_valid.next = self.done_valid.val();
        self.disp.done_slot.next = self.done_slot.val();
        self.disp.retire_class.next = self.retire_class.val();
        self.disp.cfg_we.next = self.disp_cfg.val();
        self.disp.cfg_addr.next = 0.into();
        self.disp.cfg_data.next = 0.into();
        if self.disp_cfg.val() {
            self.disp.cfg_addr.next = self.cfg_addr.val().get_bits::<4>(0);
            self.disp.cfg_data.next = self.cfg_data.val();
        }

        // ---- the expander ----
        self.expander.rt_valid.next = self.l_rt.val();
        self.expander.rt_kid.next = 0.into();
        self.expander.rt_wgs.next = 0.into();
        self.expander.rt_shape.next = 0.into();
        if self.l_rt.val() {
            self.expander.rt_kid.next = self.l_kid.q.val();
            self.expander.rt_wgs.next = self.l_wgs.q.val();
            self.expander.rt_shape.next = self.l_shape.q.val();
        }
        self.expander.desc_we.next = self.desc_ok.val();
        self.expander.desc_kid.next = 0.into();
        self.expander.desc_wgs.next = 0.into();
        self.expander.desc_shape.next = 0.into();
        if self.desc_ok.val() {
            self.expander.desc_kid.next = self.d_kid.q.val();
            self.expander.desc_wgs.next = self.d_wgs.q.val();
            self.expander.desc_shape.next = self.d_shape.q.val();
        }
        self.expander.sub_valid.next = self.ctrl.submit_valid.val() & !self.blk.val();
        self.expander.sub_kid.next = 0.into();
        if self.ctrl.submit_valid.val() & !self.blk.val() {
            self.expander.sub_kid.next = self.ctrl.submit_id.val();
        }
        self.expander.room_rt.next =
            self.disp.room.val().get_bit(0) & !(self.p_v.q.val() & !self.p_class.q.val());
        self.expander.room_be.next =
            self.disp.room.val().get_bit(1) & !(self.p_v.q.val() & self.p_class.q.val());
        self.expander.rec_valid.next = self.disp.disp_valid.val();
        self.expander.rec_class.next = self.disp.disp_class.val();
        self.expander.rec_slot.next = self.disp.disp_kslot.val();
        self.expander.rec_last.next = self.disp.disp_last.val();
        self.expander.cpl_valid.next = self.disp.cpl_valid.val();
        self.expander.cpl_class.next = self.disp.cpl_class.val();
        self.expander.cpl_slot.next = self.disp.cpl_kslot.val();
        self.expander.wdr_valid.next = self.disp.wdr_valid.val();
        self.expander.wdr_slot.next = self.disp.wdr_kslot.val();
        self.expander.ack_valid.next = self.ctrl.ack_valid.val();
        self.expander.ack_kid.next = self.ctrl.ack_id.val();
        self.expander.ack_skip.next = self.ctrl.ack_skip.val();
        self.expander.flush_be.next = self.ctrl.cu_reset.val();
        self.expander.be_killed.next = self.disp.reclaim_done.val();

        // ---- Unit 4 ----
        self.host_pre.next = self.preempt.val();
        self.host_res.next = self.resume.val();
        if self.auto_r.q.val() {
            self.host_pre.next = self.pre_r.q.val();
            self.host_res.next = self.res_r.q.val();
        }
        self.ctrl.launch_valid.next = self.l_pc.val();
        // the id goes with any BE kernel in the launch register (Unit 4 reads it only with
        // `launch_valid`): the done-register compare (`l_pc`) stays off the path into Unit 4's
        // duplicate compares
        self.ctrl.launch_id.next = 0.into();
        if self.l_be.val() {
            self.ctrl.launch_id.next = self.l_kid.q.val();
        }
        self.ctrl.launch_idem.next = self.l_pc.val() & self.l_idem.q.val() & self.rsten_r.q.val();
        self.ctrl.submit_ready.next = self.expander.sub_ready.val() & !self.blk.val();
        self.ctrl.start_valid.next = self.expander.start_valid.val();
        self.ctrl.start_id.next = self.expander.start_kid.val();
        self.ctrl.done_valid.next = self.dn_v.q.val();
        self.ctrl.done_id.next = self.dn_kid.q.val();
        self.ctrl.killed.next = self.disp.reclaim_done.val();
        self.ctrl.preempt.next = self.host_pre.val();
        self.ctrl.resume.next = self.host_res.val();
        self.ctrl.cfg_we.next = self.pc_cfg.val();
        self.ctrl.cfg_max_inflight.next = 0.into();
        if self.pc_cfg.val() {
            self.ctrl.cfg_max_inflight.next = self.cfg_data.val().get_bits::<4>(0);
        }

        // ---- the launch port ----
        self.leaves.next = self.l_rt.val() & self.expander.rt_ready.val()
            | self.l_pc.val() & self.ctrl.launch_ready.val();
        self.ready.next = !self.l_v.q.val() | self.leaves.val();
        self.launch_ready.next = self.ready.val();
        self.take.next = self.launch_valid.val() & self.ready.val();
        // q = ceil(waves / 2); NEVER_FITS per q (4 units of slots, 16 VGPR, 8 SGPR, 16 LDS blocks)
        self.q.next = bit_cast::<4, 3>(self.launch_waves.val().get_bits::<3>(1))
            + bit_cast::<4, 1>(self.launch_waves.val().get_bits::<1>(0));
        self.nf.next = (self.launch_waves.val() == 0u64)
            | (self.q.val() > 4u64)
            | (self.launch_lds.val() > 16u64);
        if self.q.val() == 1u64 {
            self.nf.next =
                self.nf.val() | (self.launch_vgpr.val() > 16u64) | (self.launch_sgpr.val() > 8u64);
        }
        if self.q.val() == 2u64 {
            self.nf.next =
                self.nf.val() | (self.launch_vgpr.val() > 8u64) | (self.launch_sgpr.val() > 4u64);
        }
        if self.q.val() == 3u64 {
            self.nf.next =
                self.nf.val() | (self.launch_vgpr.val() > 5u64) | (self.launch_sgpr.val() > 2u64);
        }
        if self.q.val() == 4u64 {
            self.nf.next =
                self.nf.val() | (self.launch_vgpr.val() > 4u64) | (self.launch_sgpr.val() > 2u64);
        }
        self.zw.next = self.launch_wgs.val() == 0u64;

        // ---- outputs ----
        self.disp_valid.next = self.disp.disp_valid.val();
        self.disp_id.next = self.disp.disp_id.val();
        self.disp_module.next = self.disp.disp_module.val();
        self.disp_slot.next = self.disp.disp_slot.val();
        self.disp_sub.next = self.disp.disp_sub.val();
        self.disp_waves.next = self.disp.disp_waves.val();
        self.disp_vgpr_base.next = self.disp.disp_vgpr_base.val();
        self.disp_sgpr_base.next = self.disp.disp_sgpr_base.val();
        self.disp_lds_base.next = self.disp.disp_lds_base.val();
        self.disp_class.next = self.disp.disp_class.val();
        self.disp_kslot.next = self.disp.disp_kslot.val();
        self.disp_last.next = self.disp.disp_last.val();
        self.cu_reset.next = self.ctrl.cu_reset.val();
        self.kernel_done_valid.next = self.expander.kdone_valid.val();
        self.kernel_done_kid.next = self.expander.kdone_kid.val();
        self.kernel_done_class.next = self.expander.kdone_class.val();
        self.kernel_skip_valid.next = self.expander.withdraw_valid.val();
        self.kernel_skip_slot.next = self.expander.withdraw_slot.val();
        self.preempted.next = self.ctrl.preempted.val();
        self.reclaim_busy.next = self.disp.reclaim_busy.val();
        self.error.next = self.err_q.q.val();
        self.error_code.next = self.err_code_q.q.val();
        self.pc_error.next = self.ctrl.error.val();
        self.pc_error_code.next = self.ctrl.error_code.val();
        self.exp_error.next = self.expander.error.val();
        self.exp_error_code.next = self.expander.error_code.val();
        self.disp_error.next = self.disp.error.val();
        self.disp_error_code.next = self.disp.error_code.val();

        // ---- the glue's edge ----
        // policy (from the state of the cycle)
        self.rt_pending.next = self.expander.rt_active.val() | self.l_rt.val();
        self.pre_r.d.next = self.auto_r.q.val()
            & self.rt_pending.val()
            & self.ctrl.inflight.val().any()
            & !self.ctrl.preempted.val()
            & !self.pre_r.q.val();
        self.res_r.d.next = self.auto_r.q.val()
            & self.ctrl.preempted.val()
            & self.pdone.q.val()
            & !self.rt_pending.val()
            & !self.expander.be_orphans.val()
            & !self.res_r.q.val();
        self.pdone.d.next = self.ctrl.preempted.val()
            & !self.host_res.val()
            & (self.pdone.q.val() | self.ctrl.preempt_done.val());
        // descriptor register
        self.d_v.d.next = self.l_pc.val() & self.ctrl.launch_ready.val();
        if self.l_pc.val() & self.ctrl.launch_ready.val() {
            self.d_kid.d.next = self.l_kid.q.val();
            self.d_wgs.d.next = self.l_wgs.q.val();
            self.d_shape.d.next = self.l_shape.q.val();
        }
        // push register (a BE WG of a cu_reset cycle is dropped)
        self.keep_push.next = self.expander.push_valid.val()
            & !(self.ctrl.cu_reset.val() & self.expander.push_class.val());
        self.p_v.d.next = self.keep_push.val();
        self.p_class.d.next = false;
        self.p_slot.d.next = 0.into();
        self.p_idx.d.next = 0.into();
        self.p_shape.d.next = 0.into();
        if self.keep_push.val() {
            self.p_class.d.next = self.expander.push_class.val();
            self.p_slot.d.next = self.expander.push_slot.val();
            self.p_idx.d.next = self.expander.push_idx.val();
            self.p_shape.d.next = self.expander.push_shape.val();
        }
        // withdraw register
        self.w_v.d.next = self.expander.withdraw_valid.val();
        self.w_slot.d.next = self.expander.withdraw_slot.val();
        // done register (expander -> Unit 4, one cycle)
        self.dn_v.d.next = self.expander.done_valid.val();
        self.dn_kid.d.next = self.expander.done_kid.val();
        // launch register
        if self.leaves.val() {
            self.l_v.d.next = false;
        }
        if self.take.val() & !self.nf.val() & !self.zw.val() {
            self.l_v.d.next = true;
            self.l_kid.d.next = self.launch_kid.val();
            self.l_class.d.next = self.launch_class.val();
            self.l_idem.d.next = self.launch_idem.val();
            self.l_wgs.d.next = self.launch_wgs.val();
            self.l_shape.d.next = bit_cast::<19, 4>(self.launch_waves.val())
                | (bit_cast::<19, 5>(self.launch_vgpr.val()) << 4)
                | (bit_cast::<19, 4>(self.launch_sgpr.val()) << 9)
                | (bit_cast::<19, 5>(self.launch_lds.val()) << 13);
            if self.launch_indep.val() {
                self.l_shape.d.next = bit_cast::<19, 4>(self.launch_waves.val())
                    | (bit_cast::<19, 5>(self.launch_vgpr.val()) << 4)
                    | (bit_cast::<19, 4>(self.launch_sgpr.val()) << 9)
                    | (bit_cast::<19, 5>(self.launch_lds.val()) << 13)
                    | self.bit18.val();
            }
        }
        // registers 0x11, 0x12 and the error register
        self.cfg_bad.next = self.cfg_we.val()
            & self.cfg_addr.val().get_bit(4)
            & !self.pc_cfg.val()
            & !(((self.cfg_addr.val() == self.a_auto.val())
                | (self.cfg_addr.val() == self.a_rsten.val()))
                & self.data_lt2.val());
        if self.cfg_we.val() & (self.cfg_addr.val() == self.a_auto.val()) & self.data_lt2.val() {
            self.auto_r.d.next = self.cfg_data.val().get_bit(0);
        }
        if self.cfg_we.val() & (self.cfg_addr.val() == self.a_rsten.val()) & self.data_lt2.val() {
            self.rsten_r.d.next = self.cfg_data.val().get_bit(0);
        }
        self.err_q.d.next = self.take.val() & (self.nf.val() | self.zw.val()) | self.cfg_bad.val();
        self.err_code_q.d.next = 0.into();
        if self.cfg_bad.val() {
            self.err_code_q.d.next = 3.into();
        }
        if self.take.val() & self.zw.val() {
            self.err_code_q.d.next = 2.into();
        }
        if self.take.val() & self.nf.val() {
            self.err_code_q.d.next = 1.into();
        }

        // ---- synchronous reset of the glue ----
        if self.reset.val() {
            self.l_v.d.next = false;
            self.d_v.d.next = false;
            self.p_v.d.next = false;
            self.p_class.d.next = false;
            self.p_slot.d.next = 0.into();
            self.p_idx.d.next = 0.into();
            self.p_shape.d.next = 0.into();
            self.w_v.d.next = false;
            self.w_slot.d.next = 0.into();
            self.dn_v.d.next = false;
            self.dn_kid.d.next = 0.into();
            self.pre_r.d.next = false;
            self.res_r.d.next = false;
            self.pdone.d.next = false;
            self.auto_r.d.next = true;
            self.rsten_r.d.next = true;
            self.err_q.d.next = false;
            self.err_code_q.d.next = 0.into();
        }
    }
}

/// The board front-end as Verilog (module `top`; `synth export` names it `gpu_frontend`).
pub fn verilog() -> String {
    crate::top_verilog(GpuFrontend::new())
}
