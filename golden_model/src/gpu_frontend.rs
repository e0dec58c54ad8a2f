//! GPU scheduling front-end (SPEC Unit 8, design `docs/gpu_frontend.md`): the composed golden
//! model. It is the three unit models wired together — [`PreemptCtrl`] (Unit 4, board config:
//! D = 16, 8-bit ids, 8-entry table), [`KernelExpander`] (board config) and [`TaggedDispatcher`]
//! (board config) — plus only the glue the design page specifies: the launch stage with its
//! checks, the descriptor write after Unit 4 accepted a best-effort (BE) launch, two
//! registers between the expander and the dispatcher (push, withdraw), the preemption policy
//! and the front-end's register file. The RTL top is `hdl::gpu_frontend` (export
//! `gpu_frontend.v`), with exactly these ports and this timing.
//!
//! ## Ports (one field of [`GfIn`] / [`GfOut`] per RTL port; widths of the board config)
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `clock`, `reset` | in | 1 | one clock; synchronous active-high reset of the three units and the glue (the expander's descriptor store keeps its contents) |
//! | `launch_valid`, `launch_ready` | in, out | 1, 1 | launch stream (a kernel); `launch_ready` from registers and the units' readies (never from `launch_*`) |
//! | `launch_kid`, `launch_class`, `launch_idem` | in | 8, 1, 1 | kernel id, class (0 real-time RT, 1 best-effort BE), verified idempotent (BE) |
//! | `launch_wgs` | in | 8 | WG count, 1..=255 (0 → `ZERO_WGS`) |
//! | `launch_waves`, `launch_vgpr`, `launch_sgpr`, `launch_lds`, `launch_indep` | in | 4, 5, 4, 5, 1 | the shape of every WG of the kernel (the dispatcher's push fields) |
//! | `cfg_we`, `cfg_addr`, `cfg_data` | in | 1, 5, 16 | register write (address map below) |
//! | `preempt`, `resume` | in | 1, 1 | host commands to Unit 4, used only while `AUTO_PREEMPT` = 0 (ignored otherwise) |
//! | `done_valid`, `done_slot` | in | 1, 3 | compute modules: the record in that in-flight slot completed (the dispatcher's completion port) |
//! | `retire_class` | in | 8 | compute modules: retire strobes (the dispatcher's power history), bit 4m+c |
//! | `cu_reset_done` | in | 1 | compute modules: the CU reset is done, no completion of a BE WG in flight at it comes after this strobe |
//! | `disp_valid`, `disp_id`, `disp_module`, `disp_slot`, `disp_sub`, `disp_waves`, `disp_vgpr_base`, `disp_sgpr_base`, `disp_lds_base` | out | 1, 8, 1, 3, 1, 6, 8, 6, 4 | the dispatcher's record (registered); `disp_id` = the WG's index in its kernel |
//! | `disp_class`, `disp_kslot`, `disp_last` | out | 1, 3, 1 | the record's kernel tag {class, expander slot}; the WG's dispatch ends with this record |
//! | `cu_reset` | out | 1 | Unit 4's CU reset pulse (registered): kill every BE WG in the modules, then `cu_reset_done` |
//! | `kernel_done_valid`, `kernel_done_kid`, `kernel_done_class` | out | 1, 8, 1 | a kernel (RT or BE) completed its last WG (once per kernel; from the expander's registers) |
//! | `kernel_skip_valid`, `kernel_skip_slot` | out | 1, 3 | a BE kernel was answered skip: the modules end its dispatched WGs (tag {BE, slot}) at once (registered) |
//! | `preempted`, `reclaim_busy` | out | 1, 1 | levels: Unit 4's preempted flag; the dispatcher's reclaim walk runs |
//! | `error`, `error_code` | out | 1, 2 | the front-end's own error (registered, t+1): 1 `NEVER_FITS`, 2 `ZERO_WGS`, 3 `BAD_CFG` |
//! | `pc_error`, `pc_error_code` | out | 1, 3 | Unit 4's error port (1 `DUP_ID` of a BE kid, 2 `BAD_EVENT`, 3 `BAD_STATE`, 4 `BAD_CFG`) |
//! | `exp_error`, `exp_error_code` | out | 1, 3 | the expander's error port (1 `DUP_ID` of an RT kid, 2 `ZERO_WGS`, 3 `BAD_EVENT`, 4 `BAD_ACK`) |
//! | `disp_error`, `disp_error_code` | out | 1, 3 | the dispatcher's error port (a bad completion or register write: 3 `BAD_ID`, 4 `IDLE_SLOT`, 5 `BAD_CFG`) |
//!
//! **Errors are per unit** (four error ports, no precedence between units): each strobes one
//! cycle after its cause (a unit's internal timing as in its contract) and the offending request
//! changes nothing. Every output field is 0 while its valid is low.
//!
//! ## Register map (`cfg_we`, `cfg_addr[4:0]`, `cfg_data[15:0]`, written at the edge)
//! | addr | register | reset | meaning |
//! |---|---|---|---|
//! | 0x00..=0x0F | the dispatcher's registers | (dispatcher) | passed to the dispatcher's config port with `cfg_addr[3:0]` (its map: 0 `POLICY` .. 8 `POWER_WINDOW`; 9..15 its `BAD_CFG`) |
//! | 0x10 | `MAX_INFLIGHT` | 8 | passed to Unit 4 (`cfg_data` 1..=8; 0, 9..15 Unit 4's `BAD_CFG`; above 15 the front-end's `BAD_CFG`) |
//! | 0x11 | `AUTO_PREEMPT` | 1 | 1: the policy below drives Unit 4's `preempt`/`resume`; 0: the host inputs do (data above 1 → `BAD_CFG`) |
//! | 0x12 | `RESET_ENABLE` | 1 | 0: every BE kernel enters Unit 4 as not idempotent (skip only, never a CU reset); read when the kernel enters Unit 4 (data above 1 → `BAD_CFG`) |
//! | 0x13..=0x1F | — | — | `BAD_CFG`, nothing written |
//!
//! ## One cycle t (S = the state at the start of t)
//! 1. **Launch** (`launch_valid` ∧ `launch_ready`): `launch_wgs` = 0 → `ZERO_WGS`; a shape
//!    with 0 waves or that cannot fit an empty module (`⌈waves/2⌉ > 4`, or `⌈waves/2⌉·vgpr >
//!    16`, `⌈waves/2⌉·sgpr > 8`, `lds > 16`) → `NEVER_FITS` (both: `NEVER_FITS`, the smaller
//!    code); `error` in t+1 and nothing else changes. A good launch enters the **launch
//!    register** (one kernel) at the edge.
//! 2. **Launch register** (from S): an RT kernel is offered to the expander's RT input, a BE
//!    kernel to Unit 4's launch input (`idem` ∧ `RESET_ENABLE`) — except while the done
//!    register (step 4) holds its kid: then it waits that cycle, since Unit 4 frees that kid's
//!    entry only at its edge; it leaves when that input is ready (`launch_ready` = register
//!    empty or leaving). The RT `DUP_ID` check is the
//!    expander's, the BE one Unit 4's (their error ports); a refused kernel leaves too.
//! 3. **Descriptor**: a BE kernel handed to Unit 4 in t is written into the expander's
//!    descriptor store in t+1 unless Unit 4 refused it (`pc_error` with `DUP_ID` in t+1), and
//!    in t+1 no submission is taken (the store is read before write), so the kernel is
//!    described before Unit 4 can submit it.
//! 4. **Unit 4 → expander**: the submit stream (`submit_ready` = the expander's `sub_ready`,
//!    both held low in a cycle of step 3's write), `ack` → the expander's answer input; the
//!    expander's `start` → Unit 4; the expander's `done` of t reaches Unit 4 in t+1 through
//!    the **done register** (so Unit 4 frees a BE kernel's entry at the edge of the cycle after
//!    its `kernel_done`; the done is always legal then: the kernel is RUNNING until it, a CU
//!    reset's `killed` comes ≥ 10 cycles after the flush); Unit 4's `cu_reset` → the
//!    expander's `flush_be`, the dispatcher's `cu_reset` and the `cu_reset` output.
//! 5. **Expander → dispatcher through the push register**: the expander's push of t (RT WG →
//!    channel 0 at priority 0, BE WG → channel 1 at priority 3; id = the WG index; the tag
//!    {class, slot}) reaches the dispatcher's push port in t+1. Room: the expander sees channel
//!    c's room as `room[c]` ∧ ¬(the push register holds a WG for c), so the registered push
//!    is always accepted (its FIFO was not full in t and nothing else entered it in t); one WG
//!    per channel every 2 cycles, the dispatcher's own rate per channel. A BE WG pushed in a
//!    `cu_reset` cycle is dropped (its kernel is dead; the dispatcher flushes the one it takes in
//!    that cycle).
//! 6. **Withdraw register**: the expander's `withdraw` of t (= `kernel_skip` of t) reaches the
//!    dispatcher in t+1, so a WG of the skipped kernel that was in the push register is in the
//!    FIFO when the withdraw looks at it.
//! 7. **Dispatcher → expander** directly (registered outputs): records, completion echoes,
//!    withdraw reports; `reclaim_done` → the expander's `be_killed` and Unit 4's `killed`.
//! 8. **Policy** (registered: the strobes go to Unit 4 in t+1; only while `AUTO_PREEMPT` = 1):
//!    `preempt` in t+1 when in S an RT kernel is pending (the expander's `rt_active` or an RT
//!    kernel in the launch register), Unit 4's `inflight` > 0, Unit 4 not preempted and no
//!    `preempt` strobe in t; `resume` in t+1 when in S Unit 4 is preempted, its
//!    `preempt_done` has been seen since (a glue flag), no RT kernel is pending, the expander
//!    has no orphan (`be_orphans`: a skipped or killed kernel's WGs may still be in the modules)
//!    and no `resume` strobe in t.
//!
//! ## Registered vs combinational (the RTL's timing boundaries)
//! Every signal between two units is either a unit's registered output or combinational from
//! its registers only (Unit 4's launch/submit/inflight ports, the expander's readies,
//! `rt_active`, `be_orphans`, the dispatcher's `room`), except the expander's push port, which
//! also reads the room inputs: its inputs are the dispatcher's `room` (a compare of a FIFO
//! counter) and the push register, and it ends in the push register. So no combinational path
//! runs through the logic of two units. The expander's `done` (its done report: counter
//! compares and a round-robin pick) ends in the glue's done register instead of Unit 4's done
//! compare. The glue adds registers for: the launch (launch register), its error, the
//! descriptor (one cycle), the push, the withdraw, the done and the policy's strobes.
//!
//! Latency: an RT kernel launched in t with room everywhere: in the launch register in t+1,
//! taken by the expander at that edge, its first WG pushed in t+2, in the push register in t+3
//! (the dispatcher's push port), its first record in t+7 (the dispatcher: push → record 4 cycles).
//! A kernel's `kernel_done` comes in the cycle of the expander's report (its registers); for a
//! BE kernel Unit 4 sees `done` one cycle later (done register), so its table entry, and its
//! share of `inflight`, last one cycle longer, and a relaunch of its kid taken in the
//! `kernel_done` cycle reaches Unit 4 one cycle later (t+2 instead of t+1).

use crate::dispatcher::tagged::{TaggedConfig, TaggedDispatcher, TaggedIn, TaggedOut};
use crate::dispatcher::DispIn;
use crate::kernel_expander::{EState, Entry, ExpIn, ExpOut, ExpanderConfig, KernelExpander};
use crate::preempt_ctrl::{PreemptConfig, PreemptCtrl, PreemptError, PreemptIn, PreemptOut};
use crate::CycleModel;

/// Front-end error codes (`error_code`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[repr(u8)]
pub enum GfError {
    /// A launched shape has 0 waves or cannot fit an empty compute module.
    NeverFits = 1,
    /// A launch with WG count 0.
    ZeroWgs = 2,
    /// A register write to an unmapped address or of a value out of range.
    BadCfg = 3,
}

/// Register addresses.
pub const ADDR_MAX_INFLIGHT: u32 = 0x10;
pub const ADDR_AUTO_PREEMPT: u32 = 0x11;
pub const ADDR_RESET_ENABLE: u32 = 0x12;

/// Dispatcher priorities of the two classes.
pub const RT_PRIO: u32 = 0;
pub const BE_PRIO: u32 = 3;

/// Class values.
pub const RT: u32 = 0;
pub const BE: u32 = 1;

/// Inputs of one cycle (one field per RTL input port).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GfIn {
    pub reset: bool,
    pub launch_valid: bool,
    pub launch_kid: u32,
    pub launch_class: u32,
    pub launch_idem: bool,
    pub launch_wgs: u32,
    pub launch_waves: u32,
    pub launch_vgpr: u32,
    pub launch_sgpr: u32,
    pub launch_lds: u32,
    pub launch_indep: bool,
    pub cfg_we: bool,
    pub cfg_addr: u32,
    pub cfg_data: u32,
    pub preempt: bool,
    pub resume: bool,
    pub done_valid: bool,
    pub done_slot: u32,
    pub retire_class: u32,
    pub cu_reset_done: bool,
}

crate::reset_by_field!(GfIn);

/// A kernel descriptor (the launch port's fields).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Kernel {
    pub kid: u32,
    pub class: u32,
    pub idem: bool,
    pub wgs: u32,
    pub waves: u32,
    pub vgpr: u32,
    pub sgpr: u32,
    pub lds: u32,
    pub indep: bool,
}

impl Kernel {
    /// The expander's shape word: waves \[3:0\], VGPR \[8:4\], SGPR \[12:9\], LDS \[17:13\],
    /// independent \[18\].
    pub fn shape(&self) -> u64 {
        (self.waves as u64)
            | (self.vgpr as u64) << 4
            | (self.sgpr as u64) << 9
            | (self.lds as u64) << 13
            | (self.indep as u64) << 18
    }
    /// The launch check (step 1): `None` when the kernel is accepted.
    pub fn check(&self) -> Option<GfError> {
        let q = self.waves.div_ceil(2);
        if self.waves == 0 || q > 4 || q * self.vgpr > 16 || q * self.sgpr > 8 || self.lds > 16 {
            Some(GfError::NeverFits)
        } else if self.wgs == 0 {
            Some(GfError::ZeroWgs)
        } else {
            None
        }
    }
}

impl GfIn {
    /// A launch of `k`.
    pub fn launch(k: &Kernel) -> Self {
        Self {
            launch_valid: true,
            launch_kid: k.kid,
            launch_class: k.class,
            launch_idem: k.idem,
            launch_wgs: k.wgs,
            launch_waves: k.waves,
            launch_vgpr: k.vgpr,
            launch_sgpr: k.sgpr,
            launch_lds: k.lds,
            launch_indep: k.indep,
            ..Self::default()
        }
    }
    /// The kernel on the launch port.
    pub fn kernel(&self) -> Kernel {
        Kernel {
            kid: self.launch_kid,
            class: self.launch_class,
            idem: self.launch_idem,
            wgs: self.launch_wgs,
            waves: self.launch_waves,
            vgpr: self.launch_vgpr,
            sgpr: self.launch_sgpr,
            lds: self.launch_lds,
            indep: self.launch_indep,
        }
    }
    /// A register write.
    pub fn cfg(addr: u32, data: u32) -> Self {
        Self {
            cfg_we: true,
            cfg_addr: addr,
            cfg_data: data,
            ..Self::default()
        }
    }
}

/// Outputs seen during one cycle (one field per RTL output port).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GfOut {
    pub launch_ready: bool,
    pub disp_valid: bool,
    pub disp_id: u32,
    pub disp_module: u32,
    pub disp_slot: u32,
    pub disp_sub: bool,
    pub disp_waves: u32,
    pub disp_vgpr_base: u32,
    pub disp_sgpr_base: u32,
    pub disp_lds_base: u32,
    pub disp_class: u32,
    pub disp_kslot: u32,
    pub disp_last: bool,
    pub cu_reset: bool,
    pub kernel_done_valid: bool,
    pub kernel_done_kid: u32,
    pub kernel_done_class: u32,
    pub kernel_skip_valid: bool,
    pub kernel_skip_slot: u32,
    pub preempted: bool,
    pub reclaim_busy: bool,
    pub error: bool,
    pub error_code: u32,
    pub pc_error: bool,
    pub pc_error_code: u32,
    pub exp_error: bool,
    pub exp_error_code: u32,
    pub disp_error: bool,
    pub disp_error_code: u32,
}

/// The three units' ports in the last cycle stepped (for the units' own spec checkers).
#[derive(Clone, Debug, Default)]
pub struct Probe {
    pub pc_in: PreemptIn,
    pub pc_out: PreemptOut,
    pub exp_in: ExpIn,
    pub exp_out: ExpOut,
    pub disp_in: TaggedIn,
    pub disp_out: TaggedOut,
}

/// A WG in the push register.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Push {
    class: u32,
    slot: u32,
    idx: u32,
    shape: u64,
}

/// The composed front-end.
#[derive(Clone, Debug)]
pub struct GpuFrontend {
    pc: PreemptCtrl,
    exp: KernelExpander,
    disp: TaggedDispatcher,
    /// Launch register.
    lreg: Option<Kernel>,
    /// The BE kernel handed to Unit 4 in the previous cycle (its descriptor).
    dreg: Option<Kernel>,
    /// Push register.
    preg: Option<Push>,
    /// Withdraw register (the BE slot).
    wreg: Option<u32>,
    /// Done register: the kid of the expander's `done` of the previous cycle (to Unit 4).
    dnreg: Option<u32>,
    /// Policy strobes for this cycle, and Unit 4's `preempt_done` seen since the preempt.
    preempt_r: bool,
    resume_r: bool,
    pdone_seen: bool,
    auto_preempt: bool,
    reset_enable: bool,
    error: Option<GfError>,
    probe: Probe,
}

impl Default for GpuFrontend {
    fn default() -> Self {
        Self::new()
    }
}

impl GpuFrontend {
    /// The board composition.
    pub fn new() -> Self {
        Self {
            pc: PreemptCtrl::new(PreemptConfig::board()),
            exp: KernelExpander::new(ExpanderConfig::board()),
            disp: TaggedDispatcher::new(TaggedConfig::board()),
            lreg: None,
            dreg: None,
            preg: None,
            wreg: None,
            dnreg: None,
            preempt_r: false,
            resume_r: false,
            pdone_seen: false,
            auto_preempt: true,
            reset_enable: true,
            error: None,
            probe: Probe::default(),
        }
    }
    /// Unit 4 inside.
    pub fn preempt_ctrl(&self) -> &PreemptCtrl {
        &self.pc
    }
    /// The expander inside (its tracker names the kernel of every tag).
    pub fn expander(&self) -> &KernelExpander {
        &self.exp
    }
    /// The dispatcher inside.
    pub fn dispatcher(&self) -> &TaggedDispatcher {
        &self.disp
    }
    /// The units' ports in the last cycle.
    pub fn probe(&self) -> &Probe {
        &self.probe
    }
    /// Registers `AUTO_PREEMPT`, `RESET_ENABLE`.
    pub fn auto_preempt(&self) -> bool {
        self.auto_preempt
    }
    pub fn reset_enable(&self) -> bool {
        self.reset_enable
    }
    /// Nothing held by the glue (launch, descriptor, push, withdraw and done registers empty).
    pub fn glue_idle(&self) -> bool {
        self.lreg.is_none()
            && self.dreg.is_none()
            && self.preg.is_none()
            && self.wreg.is_none()
            && self.dnreg.is_none()
    }

    /// No WG anywhere between the launch port and a record: the glue's registers empty, Unit
    /// 4's queue empty, every expander entry that will push has pushed all its WGs, both
    /// dispatcher channels empty, no decision to commit and no block being released. From such
    /// a cycle on, as long as no kernel is launched and no WG completes, the dispatcher's maps
    /// stand still (the random stream's map probes wait for it).
    pub fn nothing_to_dispatch(&self) -> bool {
        let pushing = |e: &Option<Entry>| {
            e.is_some_and(|e| !e.dead && e.st != EState::Skipped && e.pushed < e.wgs)
        };
        let d = self.disp.inner();
        self.glue_idle()
            && self.pc.queue().next().is_none()
            && !self.exp.rt_entries().iter().any(pushing)
            && !self.exp.be_entries().iter().any(pushing)
            && (0..2).all(|c| d.queued(c) == 0)
            && !d.deciding()
            && d.res.releasing.is_empty()
    }

    fn clear_glue(&mut self) {
        self.lreg = None;
        self.dreg = None;
        self.preg = None;
        self.wreg = None;
        self.dnreg = None;
        self.preempt_r = false;
        self.resume_r = false;
        self.pdone_seen = false;
        self.auto_preempt = true;
        self.reset_enable = true;
        self.error = None;
    }
}

impl CycleModel for GpuFrontend {
    type In = GfIn;
    type Out = GfOut;

    fn reset(&mut self) {
        self.pc.reset();
        self.exp.reset();
        self.disp.reset();
        self.clear_glue();
    }

    fn step(&mut self, i: &GfIn) -> GfOut {
        let pc_o = self.pc.outputs();
        // 5./6. the dispatcher: push and withdraw registers, Unit 4's cu_reset, the far side
        let p = self.preg.unwrap_or(Push {
            class: 0,
            slot: 0,
            idx: 0,
            shape: 0,
        });
        let disp_cfg = i.cfg_we && i.cfg_addr < 0x10;
        let d_in = TaggedIn {
            base: DispIn {
                reset: i.reset,
                push_valid: self.preg.is_some(),
                push_channel: p.class,
                push_id: p.idx,
                push_prio: if self.preg.is_none() {
                    0
                } else if p.class == RT {
                    RT_PRIO
                } else {
                    BE_PRIO
                },
                push_waves: (p.shape & 0xF) as u32,
                push_vgpr: (p.shape >> 4 & 0x1F) as u32,
                push_sgpr: (p.shape >> 9 & 0xF) as u32,
                push_lds: (p.shape >> 13 & 0x1F) as u32,
                push_indep: p.shape >> 18 & 1 != 0,
                done_valid: i.done_valid,
                done_slot: i.done_slot,
                cfg_we: disp_cfg,
                cfg_addr: if disp_cfg { i.cfg_addr & 0xF } else { 0 },
                cfg_data: if disp_cfg { i.cfg_data } else { 0 },
                retire_class: i.retire_class as u64,
            },
            push_class: p.class,
            push_kslot: p.slot,
            withdraw_valid: self.wreg.is_some(),
            withdraw_kslot: self.wreg.unwrap_or(0),
            cu_reset: pc_o.cu_reset,
            cu_reset_done: i.cu_reset_done,
        };
        let d_o = self.disp.step(&d_in);
        debug_assert!(
            i.reset || self.preg.is_none() || d_o.base.push_ready,
            "gpu_frontend: the push register met a full FIFO"
        );
        // 3./4./7. the expander
        let busy = |c: u32| self.preg.is_some_and(|p| p.class == c);
        let room_rt = d_o.room & 1 != 0 && !busy(RT);
        let room_be = d_o.room & 2 != 0 && !busy(BE);
        let blk = self.dreg.is_some();
        let dup = pc_o.error && pc_o.error_code == PreemptError::DupId as u32;
        let desc = self.dreg.filter(|_| !dup);
        let l = self.lreg.unwrap_or_default();
        let l_rt = self.lreg.is_some_and(|k| k.class == RT);
        let l_be = self.lreg.is_some_and(|k| k.class == BE);
        let e_in = ExpIn {
            reset: i.reset,
            rt_valid: l_rt,
            rt_kid: if l_rt { l.kid } else { 0 },
            rt_wgs: if l_rt { l.wgs } else { 0 },
            rt_shape: if l_rt { l.shape() } else { 0 },
            desc_we: desc.is_some(),
            desc_kid: desc.map_or(0, |k| k.kid),
            desc_wgs: desc.map_or(0, |k| k.wgs),
            desc_shape: desc.map_or(0, |k| k.shape()),
            sub_valid: pc_o.submit_valid && !blk,
            sub_kid: if pc_o.submit_valid && !blk {
                pc_o.submit_id
            } else {
                0
            },
            room_rt,
            room_be,
            rec_valid: d_o.base.disp_valid,
            rec_class: d_o.disp_class,
            rec_slot: d_o.disp_kslot,
            rec_last: d_o.disp_last,
            cpl_valid: d_o.cpl_valid,
            cpl_class: d_o.cpl_class,
            cpl_slot: d_o.cpl_kslot,
            wdr_valid: d_o.wdr_valid,
            wdr_slot: d_o.wdr_kslot,
            ack_valid: pc_o.ack_valid,
            ack_kid: pc_o.ack_id,
            ack_skip: pc_o.ack_skip,
            flush_be: pc_o.cu_reset,
            be_killed: d_o.reclaim_done,
        };
        let e_o = self.exp.step(&e_in);
        // 2./4./8. Unit 4 (a BE kernel whose kid is in the done register waits a cycle)
        let launch_to_pc = l_be && self.dnreg != Some(l.kid);
        let (preempt, resume) = if self.auto_preempt {
            (self.preempt_r, self.resume_r)
        } else {
            (i.preempt, i.resume)
        };
        let pc_cfg = i.cfg_we && i.cfg_addr == ADDR_MAX_INFLIGHT && i.cfg_data < 16;
        let pc_in = PreemptIn {
            reset: i.reset,
            launch_valid: launch_to_pc,
            // the id is offered with any BE kernel in the launch register (Unit 4 reads it only
            // with `launch_valid`): the done-register compare stays off the id's path
            launch_id: if l_be { l.kid } else { 0 },
            launch_idem: launch_to_pc && l.idem && self.reset_enable,
            submit_ready: e_o.sub_ready && !blk,
            start_valid: e_o.start_valid,
            start_id: e_o.start_kid,
            done_valid: self.dnreg.is_some(),
            done_id: self.dnreg.unwrap_or(0),
            killed: d_o.reclaim_done,
            preempt,
            resume,
            cfg_we: pc_cfg,
            cfg_max_inflight: if pc_cfg { i.cfg_data } else { 0 },
        };
        let pc_o2 = self.pc.step(&pc_in);
        debug_assert_eq!(pc_o, pc_o2, "Unit 4's outputs are a function of its state");

        // the launch register's handshake and the launch port
        let leaves = match self.lreg {
            Some(k) if k.class == RT => e_o.rt_ready,
            Some(_) => launch_to_pc && pc_o.launch_ready,
            None => false,
        };
        let launch_ready = self.lreg.is_none() || leaves;
        let out = GfOut {
            launch_ready,
            disp_valid: d_o.base.disp_valid,
            disp_id: d_o.base.disp_id,
            disp_module: d_o.base.disp_module,
            disp_slot: d_o.base.disp_slot,
            disp_sub: d_o.base.disp_sub,
            disp_waves: d_o.base.disp_waves as u32,
            disp_vgpr_base: d_o.base.disp_vgpr_base as u32,
            disp_sgpr_base: d_o.base.disp_sgpr_base as u32,
            disp_lds_base: d_o.base.disp_lds_base,
            disp_class: d_o.disp_class,
            disp_kslot: d_o.disp_kslot,
            disp_last: d_o.disp_last,
            cu_reset: pc_o.cu_reset,
            kernel_done_valid: e_o.kdone_valid,
            kernel_done_kid: e_o.kdone_kid,
            kernel_done_class: e_o.kdone_class,
            kernel_skip_valid: e_o.withdraw_valid,
            kernel_skip_slot: e_o.withdraw_slot,
            preempted: pc_o.preempted,
            reclaim_busy: d_o.reclaim_busy,
            error: self.error.is_some(),
            error_code: self.error.map_or(0, |e| e as u32),
            pc_error: pc_o.error,
            pc_error_code: pc_o.error_code,
            exp_error: e_o.error,
            exp_error_code: e_o.error_code,
            disp_error: d_o.base.error,
            disp_error_code: d_o.base.error_code as u32,
        };
        self.probe = Probe {
            pc_in,
            pc_out: pc_o.clone(),
            exp_in: e_in,
            exp_out: e_o.clone(),
            disp_in: d_in,
            disp_out: d_o,
        };
        if i.reset {
            self.clear_glue();
            return out;
        }

        // ---- the glue's edge ----
        let mut errors: Vec<GfError> = vec![];
        // 8. policy, from S
        let rt_pending = e_o.rt_active || l_rt;
        let next_preempt = self.auto_preempt
            && rt_pending
            && pc_o.inflight > 0
            && !pc_o.preempted
            && !self.preempt_r;
        let next_resume = self.auto_preempt
            && pc_o.preempted
            && self.pdone_seen
            && !rt_pending
            && !e_o.be_orphans
            && !self.resume_r;
        self.pdone_seen = pc_o.preempted && !resume && (self.pdone_seen || pc_o.preempt_done);
        self.preempt_r = next_preempt;
        self.resume_r = next_resume;
        // 3. the descriptor register
        self.dreg = if launch_to_pc && pc_o.launch_ready {
            self.lreg
        } else {
            None
        };
        // 5./6. push and withdraw registers
        self.preg = if e_o.push_valid && !(pc_o.cu_reset && e_o.push_class == BE) {
            Some(Push {
                class: e_o.push_class,
                slot: e_o.push_slot,
                idx: e_o.push_idx,
                shape: e_o.push_shape,
            })
        } else {
            None
        };
        self.wreg = e_o.withdraw_valid.then_some(e_o.withdraw_slot);
        // 4. the done register
        self.dnreg = e_o.done_valid.then_some(e_o.done_kid);
        // 1./2. the launch register
        if leaves {
            self.lreg = None;
        }
        if i.launch_valid && launch_ready {
            let k = i.kernel();
            debug_assert!(
                k.kid < 256 && k.class < 2 && k.wgs < 256,
                "gpu_frontend: launch field wider than its port"
            );
            match k.check() {
                Some(e) => errors.push(e),
                None => self.lreg = Some(k),
            }
        }
        // register writes
        if i.cfg_we && i.cfg_addr >= 0x10 {
            match (i.cfg_addr, i.cfg_data) {
                (ADDR_MAX_INFLIGHT, d) if d < 16 => {}
                (ADDR_AUTO_PREEMPT, d) if d < 2 => self.auto_preempt = d == 1,
                (ADDR_RESET_ENABLE, d) if d < 2 => self.reset_enable = d == 1,
                _ => errors.push(GfError::BadCfg),
            }
        }
        self.error = errors.iter().min().copied();
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A trivial far side: every record completes `lat` cycles later (one completion per
    /// cycle, oldest first); `cu_reset_done` `reset_lat` cycles after `cu_reset`, the BE
    /// records then dropped; skipped kernels' records end at once.
    struct FarSide {
        lat: usize,
        reset_lat: usize,
        /// (due cycle, slot, class, kslot)
        running: Vec<(usize, u32, u32, u32)>,
        reset_at: Option<usize>,
    }

    impl FarSide {
        fn new(lat: usize, reset_lat: usize) -> Self {
            Self {
                lat,
                reset_lat,
                running: vec![],
                reset_at: None,
            }
        }
        /// The far side's inputs for cycle `t`, from the outputs of cycle t − 1.
        fn drive(&mut self, t: usize, i: &mut GfIn) {
            if self.reset_at.is_some_and(|r| t >= r + self.reset_lat) {
                self.reset_at = None;
                i.cu_reset_done = true;
                return;
            }
            if let Some(p) = self
                .running
                .iter()
                .position(|&(due, ..)| due <= t)
                .filter(|_| self.reset_at.is_none())
            {
                let (_, slot, ..) = self.running.remove(p);
                i.done_valid = true;
                i.done_slot = slot;
            }
        }
        fn observe(&mut self, t: usize, o: &GfOut) {
            if o.cu_reset {
                self.running.retain(|r| r.2 != BE);
                self.reset_at = Some(t);
            }
            // a BE record while the reset is open is a killed WG (the walk frees it)
            if o.disp_valid && !(o.disp_class == BE && self.reset_at.is_some()) {
                self.running
                    .push((t + self.lat, o.disp_slot, o.disp_class, o.disp_kslot));
            }
            if o.kernel_skip_valid {
                for r in self.running.iter_mut() {
                    if r.2 == BE && r.3 == o.kernel_skip_slot {
                        r.0 = t + 1;
                    }
                }
            }
        }
    }

    fn kernel(kid: u32, class: u32, wgs: u32) -> Kernel {
        Kernel {
            kid,
            class,
            idem: true,
            wgs,
            waves: 2,
            vgpr: 2,
            sgpr: 1,
            lds: 1,
            indep: false,
        }
    }

    /// Run `launches` (cycle, kernel) for `cycles` with the far side; return every
    /// `kernel_done` (cycle, kid, class) and every output.
    fn run(
        gf: &mut GpuFrontend,
        far: &mut FarSide,
        launches: &[(usize, Kernel)],
        cycles: usize,
    ) -> (Vec<(usize, u32, u32)>, Vec<GfOut>) {
        let mut pending: std::collections::VecDeque<(usize, Kernel)> =
            launches.iter().copied().collect();
        let mut done = vec![];
        let mut outs = vec![];
        for t in 0..cycles {
            let mut i = GfIn::default();
            if let Some(&(at, k)) = pending.front() {
                if at <= t {
                    i = GfIn::launch(&k);
                }
            }
            far.drive(t, &mut i);
            let o = gf.step(&i);
            if i.launch_valid && o.launch_ready {
                pending.pop_front();
            }
            far.observe(t, &o);
            assert!(
                !o.error && !o.pc_error && !o.exp_error && !o.disp_error,
                "cycle {t}: {o:?}"
            );
            if o.kernel_done_valid {
                done.push((t, o.kernel_done_kid, o.kernel_done_class));
            }
            outs.push(o);
        }
        assert!(pending.is_empty(), "launches left: {pending:?}");
        (done, outs)
    }

    #[test]
    fn a_kernel_of_each_class_runs_to_kernel_done() {
        let mut gf = GpuFrontend::new();
        let mut far = FarSide::new(4, 5);
        let (done, outs) = run(
            &mut gf,
            &mut far,
            &[(0, kernel(7, RT, 3)), (40, kernel(9, BE, 4))],
            100,
        );
        assert_eq!(done.len(), 2, "{done:?}");
        assert!(done.iter().any(|&(_, k, c)| k == 7 && c == RT));
        assert!(done.iter().any(|&(_, k, c)| k == 9 && c == BE));
        let recs = outs.iter().filter(|o| o.disp_valid).count();
        assert_eq!(recs, 7, "one record per WG (no split)");
        // the RT kernel was done before the BE one came: no preemption
        assert!(outs.iter().all(|o| !o.cu_reset && !o.preempted));
        assert!(gf.dispatcher().idle() && gf.glue_idle());
        assert_eq!(gf.preempt_ctrl().table().len(), 0);
    }

    #[test]
    fn rt_exact_latency_launch_to_first_record() {
        let mut gf = GpuFrontend::new();
        let mut far = FarSide::new(3, 5);
        let (done, outs) = run(&mut gf, &mut far, &[(0, kernel(1, RT, 1))], 30);
        let first = outs.iter().position(|o| o.disp_valid).unwrap();
        assert_eq!(first, 7, "module doc: first record in t+7");
        assert_eq!(done.len(), 1);
    }

    #[test]
    fn rt_arrival_preempts_and_resets_a_be_kernel_which_then_completes_once() {
        let mut gf = GpuFrontend::new();
        let mut far = FarSide::new(40, 6);
        let (done, outs) = run(
            &mut gf,
            &mut far,
            &[(0, kernel(3, BE, 20)), (30, kernel(4, RT, 2))],
            600,
        );
        assert!(
            outs.iter().any(|o| o.cu_reset),
            "the RT arrival reset the CUs"
        );
        assert!(outs.iter().any(|o| o.reclaim_busy));
        assert_eq!(done.len(), 2, "{done:?}");
        let rt_done = done.iter().find(|d| d.2 == RT).unwrap().0;
        let be_done = done.iter().find(|d| d.2 == BE).unwrap().0;
        assert!(rt_done < be_done, "RT first: {done:?}");
        assert!(!gf.preempt_ctrl().outputs().preempted, "resumed");
        assert!(gf.dispatcher().idle() && gf.glue_idle());
    }

    #[test]
    fn launch_checks_refuse_and_change_nothing() {
        let mut gf = GpuFrontend::new();
        let bad = Kernel {
            waves: 9,
            ..kernel(1, RT, 1)
        };
        let o = gf.step(&GfIn::launch(&bad));
        assert!(o.launch_ready);
        let o = gf.step(&GfIn::launch(&kernel(2, BE, 0)));
        assert_eq!((o.error, o.error_code), (true, GfError::NeverFits as u32));
        let o = gf.step(&GfIn::cfg(0x13, 0));
        assert_eq!((o.error, o.error_code), (true, GfError::ZeroWgs as u32));
        let o = gf.step(&GfIn::cfg(ADDR_AUTO_PREEMPT, 0));
        assert_eq!((o.error, o.error_code), (true, GfError::BadCfg as u32));
        let o = gf.step(&GfIn::default());
        assert!(!o.error);
        assert!(!gf.auto_preempt());
        assert!(gf.glue_idle());
        assert!(gf.expander().rt_entries().iter().all(Option::is_none));
        assert_eq!(gf.preempt_ctrl().queue().count(), 0);
    }

    #[test]
    fn be_duplicate_launch_keeps_the_first_descriptor() {
        let mut gf = GpuFrontend::new();
        gf.step(&GfIn::cfg(ADDR_MAX_INFLIGHT, 1));
        // a long BE kernel occupies Unit 4's one in-flight place; a second kid 5 queued
        let mut far = FarSide::new(3, 5);
        let a = kernel(5, BE, 2);
        let dup = Kernel {
            waves: 4,
            ..kernel(5, BE, 9)
        };
        let mut i = GfIn::launch(&a);
        far.drive(0, &mut i);
        gf.step(&i);
        let mut saw_dup = false;
        for t in 1..40 {
            let mut i = if t == 1 {
                GfIn::launch(&dup)
            } else {
                GfIn::default()
            };
            far.drive(t, &mut i);
            let o = gf.step(&i);
            far.observe(t, &o);
            saw_dup |= o.pc_error && o.pc_error_code == PreemptError::DupId as u32;
        }
        assert!(saw_dup);
        assert_eq!(gf.expander().descriptor(5), (2, a.shape()));
    }

    #[test]
    fn random_streams_complete_every_kernel_exactly_once() {
        for seed in 1..=4u64 {
            let mut x = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
            let mut rnd = move |n: u64| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x % n
            };
            let mut gf = GpuFrontend::new();
            let mut far = FarSide::new(6, 7);
            let mut next_kid = [0u32; 2];
            let mut launched = vec![];
            let mut done = vec![];
            let mut offer: Option<Kernel> = None;
            let mut resets = 0;
            let mut skips = 0;
            for t in 0..30_000usize {
                if offer.is_none() && t < 25_000 && rnd(100) < 4 {
                    let class = (rnd(3) != 0) as u32;
                    let kid = next_kid[class as usize];
                    next_kid[class as usize] = (kid + 1) % 256;
                    let waves = 1 + rnd(4) as u32;
                    offer = Some(Kernel {
                        kid,
                        class,
                        idem: rnd(4) != 0,
                        wgs: 1 + rnd(if class == RT { 4 } else { 12 }) as u32,
                        waves,
                        vgpr: rnd(5) as u32,
                        sgpr: rnd(3) as u32,
                        lds: rnd(5) as u32,
                        indep: rnd(2) == 0,
                    });
                }
                let mut i = offer.map_or_else(GfIn::default, |k| GfIn::launch(&k));
                far.lat = 1 + rnd(12) as usize;
                far.drive(t, &mut i);
                let o = gf.step(&i);
                if i.launch_valid && o.launch_ready {
                    launched.push((i.launch_kid, i.launch_class));
                    offer = None;
                }
                far.observe(t, &o);
                resets += o.cu_reset as u32;
                skips += o.kernel_skip_valid as u32;
                assert!(
                    !o.error && !o.pc_error && !o.exp_error && !o.disp_error,
                    "seed {seed} cycle {t}: {o:?}"
                );
                if o.kernel_done_valid {
                    done.push((o.kernel_done_kid, o.kernel_done_class));
                }
            }
            launched.sort_unstable();
            done.sort_unstable();
            assert_eq!(launched.len(), done.len(), "seed {seed}");
            assert_eq!(launched, done, "seed {seed}: every kernel done once");
            assert!(
                resets > 0 && skips > 0,
                "seed {seed}: {resets} resets, {skips} skips"
            );
            assert!(gf.dispatcher().idle() && gf.glue_idle(), "seed {seed}");
        }
    }
}
