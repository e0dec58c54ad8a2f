//! The closed system: the composed front-end ([`GpuFrontend`]), the compute modules ([`Gpu`])
//! and a kernel stream ([`KernelSource`]), stepped together cycle by cycle. Used by the system
//! tests (with the system spec checker on every cycle) and by `synth eval-system`.
//!
//! Each cycle t: the compute modules see the front-end's outputs of cycle t−1 (records, skip,
//! CU reset: a one-cycle wire to the modules) and drive completions, retire strobes and
//! `cu_reset_done` into cycle t; the stream offers one launch (held until `launch_ready`);
//! register writes set `AUTO_PREEMPT` and `RESET_ENABLE` in cycles 0–1 (and after a reset);
//! while `AUTO_PREEMPT` = 0 a host may raise `preempt`/`resume` at random (a preempt storm).
//!
//! Run times are per kernel: the record's tag is looked up in the expander's tracker to name its
//! kernel (a harness convenience standing for the kernel pointer a real dispatch carries), and
//! the kernel's own WG run-time range is used.

use super::{
    FarView, Gpu, GpuParams, KernelSource, KernelTimes, Record, ShapeLimits, StreamParams,
};
use crate::dispatcher::eval::Rng;
use crate::gpu_frontend::{GfIn, GfOut, GpuFrontend, ADDR_AUTO_PREEMPT, ADDR_RESET_ENABLE};
use crate::CycleModel;
use std::collections::{HashMap, HashSet};

/// One configuration of the closed system.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SysParams {
    pub gpu: GpuParams,
    pub stream: StreamParams,
    /// `AUTO_PREEMPT` and `RESET_ENABLE`, written in cycles 0 and 1.
    pub auto_preempt: bool,
    pub reset_enable: bool,
    /// While `AUTO_PREEMPT` = 0: probability per cycle of a host `preempt` (when not preempted)
    /// or `resume` (when preempted).
    pub storm: f64,
    pub seed: u64,
}

impl Default for SysParams {
    fn default() -> Self {
        Self {
            gpu: GpuParams::default(),
            stream: StreamParams::default(),
            auto_preempt: true,
            reset_enable: true,
            storm: 0.0,
            seed: 1,
        }
    }
}

impl SysParams {
    /// Short, busy streams for tests (not the evaluation's defaults): an RT kernel every ~600
    /// cycles with 1–4 WGs of 20–120 cycles; BE: 6 kernels outstanding, 1–12 WGs of 100–400
    /// cycles, 80 % idempotent, up to 8 waves, half independent; CU reset in 60 cycles.
    pub fn busy(seed: u64) -> Self {
        SysParams {
            gpu: GpuParams {
                cu_reset_time: 60,
                ..GpuParams::default()
            },
            stream: StreamParams {
                rt_period: 600,
                rt_wgs: (1, 4),
                rt_wg_cycles: (20, 120),
                be_backlog: 6,
                be_wgs: (1, 12),
                be_wg_cycles: (100, 400),
                be_idem: 0.8,
                max_waves: 8,
                indep: 0.5,
                bad: 0.0,
                rt_as_be: false,
            },
            seed,
            ..SysParams::default()
        }
    }
}

/// Interactions seen (coverage) and results.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SysStats {
    pub cycles: u64,
    pub launches: u64,
    pub kernel_done: [u64; 2],
    pub skips: u64,
    pub cu_resets: u64,
    /// BE WGs in flight at a `cu_reset_done` (the reclaim walk frees them).
    pub reclaimed: u64,
    /// RT launches taken while a CU reset or its reclaim was in progress.
    pub rt_during_reclaim: u64,
    /// Kernels resubmitted by Unit 4 after a resume (from its counters).
    pub resubmitted: u64,
    /// A withdraw that took a WG whose split had begun (sub-WGs dispatched, not the last).
    pub withdraw_split: u64,
    /// Records of split sub-WGs.
    pub split_records: u64,
    /// A second finished kernel waited for the one-per-cycle done report.
    pub done_waits: u64,
    pub host_preempts: u64,
    pub host_resumes: u64,
    /// RT turnarounds (arrival → `kernel_done`, cycles), in completion order.
    pub rt_turnaround: Vec<u64>,
    /// WGs of BE kernels completed (in their one successful attempt).
    pub be_wgs_done: u64,
}

/// The closed system.
pub struct System {
    pub params: SysParams,
    pub fe: GpuFrontend,
    pub gpu: Gpu,
    pub src: KernelSource,
    pub times: KernelTimes,
    rng: Rng,
    now: u64,
    last: GfOut,
    /// (class, kid) → (arrival cycle of an RT kernel, WG count).
    launched: HashMap<(u32, u32), (Option<u64>, u32)>,
    split_open: HashSet<u32>,
    /// This cycle's offer: (good, RT arrival, WG count).
    offered: Option<(bool, Option<u64>, u32)>,
    /// A reset to drive in the next cycle.
    reset_next: bool,
    cfg_step: u32,
    pub stats: SysStats,
}

impl System {
    pub fn new(params: SysParams) -> Self {
        let s = params.stream;
        Self {
            params,
            fe: GpuFrontend::new(),
            gpu: Gpu::new(params.gpu, params.seed),
            src: KernelSource::new(s, ShapeLimits::board(), 8, params.seed),
            times: KernelTimes::new(s.rt_wg_cycles, s.be_wg_cycles),
            rng: Rng::new(params.seed ^ 0x686f_7374),
            now: 0,
            last: GfOut::default(),
            launched: HashMap::new(),
            split_open: HashSet::new(),
            offered: None,
            reset_next: false,
            cfg_step: 0,
            stats: SysStats::default(),
        }
    }

    pub fn now(&self) -> u64 {
        self.now
    }

    /// The front-end's outputs of the last cycle.
    pub fn last(&self) -> &GfOut {
        &self.last
    }

    /// Drive the synchronous `reset` in the next cycle (everything in flight is abandoned: the
    /// compute modules and the stream forget it; the registers are written again afterwards).
    pub fn reset_next(&mut self) {
        self.reset_next = true;
    }

    /// The front-end's outputs as the compute modules see them.
    fn view(&self) -> FarView {
        let o = &self.last;
        let rec = o.disp_valid.then(|| {
            let kid = self
                .fe
                .expander()
                .entry(o.disp_class, o.disp_kslot)
                .map(|e| e.kid);
            Record {
                slot: o.disp_slot,
                module: o.disp_module,
                class: o.disp_class,
                kslot: o.disp_kslot,
                last: o.disp_last,
                idx: o.disp_id,
                kid,
            }
        });
        FarView {
            rec,
            skip: o.kernel_skip_valid.then_some(o.kernel_skip_slot),
            cu_reset: o.cu_reset,
        }
    }

    /// The inputs of this cycle (no launch handshake yet: `launch_ready` is seen with the
    /// outputs).
    fn inputs(&mut self) -> GfIn {
        let now = self.now;
        if self.reset_next {
            self.reset_next = false;
            self.gpu.clear();
            self.src.clear();
            self.launched.clear();
            self.split_open.clear();
            self.cfg_step = 0;
            return GfIn {
                reset: true,
                ..GfIn::default()
            };
        }
        let v = self.view();
        let ev = self.gpu.cycle(now, &v, &mut self.times);
        let mut i = GfIn {
            done_valid: ev.done.is_some(),
            done_slot: ev.done.unwrap_or(0),
            cu_reset_done: ev.cu_reset_done,
            retire_class: ev.retire_class as u32,
            ..GfIn::default()
        };
        match self.cfg_step {
            0 => {
                i.cfg_we = true;
                i.cfg_addr = ADDR_AUTO_PREEMPT;
                i.cfg_data = self.params.auto_preempt as u32;
            }
            1 => {
                i.cfg_we = true;
                i.cfg_addr = ADDR_RESET_ENABLE;
                i.cfg_data = self.params.reset_enable as u32;
            }
            _ => {}
        }
        if self.cfg_step < 2 {
            self.cfg_step += 1;
            return i;
        }
        if !self.params.auto_preempt && self.src.stopped() {
            // the storm ends with the stream: resume until the flag is clear (a resume before
            // preempt done is refused with BAD_STATE and retried)
            if self.last.preempted && now.is_multiple_of(64) {
                i.resume = true;
                self.stats.host_resumes += 1;
            }
        } else if !self.params.auto_preempt
            && self.params.storm > 0.0
            && self.rng.chance(self.params.storm)
        {
            if self.last.preempted {
                i.resume = true;
                self.stats.host_resumes += 1;
            } else {
                i.preempt = true;
                self.stats.host_preempts += 1;
            }
        }
        if let Some((k, arrival)) = self.src.offer(now) {
            i.launch_valid = true;
            i.launch_kid = k.kid;
            i.launch_class = k.class;
            i.launch_idem = k.idem;
            i.launch_wgs = k.wgs;
            i.launch_waves = k.waves;
            i.launch_vgpr = k.vgpr;
            i.launch_sgpr = k.sgpr;
            i.launch_lds = k.lds;
            i.launch_indep = k.indep;
            self.offered = Some((k.bad.is_none(), arrival, k.wgs));
            if k.bad.is_none() {
                self.times.bind(&k);
            }
        }
        i
    }

    /// One cycle: returns the inputs driven and the outputs seen.
    pub fn step(&mut self) -> (GfIn, GfOut) {
        let i = self.inputs();
        let o = self.fe.step(&i);
        let now = self.now;
        let offered = self.offered.take();
        if let (true, Some((good, arrival, wgs))) = (i.launch_valid && o.launch_ready, offered) {
            if arrival.is_some() && (self.gpu.resetting() || o.reclaim_busy) {
                self.stats.rt_during_reclaim += 1;
            }
            self.src.accepted();
            self.stats.launches += 1;
            if good {
                self.launched
                    .insert((i.launch_class, i.launch_kid), (arrival, wgs));
            }
        }
        if o.kernel_done_valid {
            let key = (o.kernel_done_class, o.kernel_done_kid);
            self.stats.kernel_done[key.0 as usize & 1] += 1;
            if let Some((arrival, wgs)) = self.launched.remove(&key) {
                match arrival {
                    Some(a) => self.stats.rt_turnaround.push(now - a),
                    None => self.stats.be_wgs_done += wgs as u64,
                }
            }
            self.src.done(key.0, key.1);
        }
        if o.kernel_skip_valid {
            self.stats.skips += 1;
        }
        if o.cu_reset {
            self.stats.cu_resets += 1;
        }
        if i.cu_reset_done {
            self.stats.reclaimed += self
                .fe
                .dispatcher()
                .in_flight()
                .iter()
                .filter(|(_, t)| t.is_be())
                .count() as u64;
        }
        if o.disp_valid && o.disp_class == 1 {
            if o.disp_sub {
                self.stats.split_records += 1;
            }
            if o.disp_sub && !o.disp_last {
                self.split_open.insert(o.disp_kslot);
            } else {
                self.split_open.remove(&o.disp_kslot);
            }
        }
        let p = self.fe.probe();
        if p.disp_out.wdr_valid && self.split_open.remove(&p.disp_out.wdr_kslot) {
            self.stats.withdraw_split += 1;
        }
        self.stats.resubmitted = self.fe.preempt_ctrl().stats().resubmitted;
        self.stats.done_waits = self.fe.expander().stats().done_waits;
        self.stats.cycles += 1;
        self.last = o.clone();
        self.now += 1;
        (i, o)
    }

    /// Whether the system is quiet: nothing held by the stream, the front-end or the modules.
    pub fn quiet(&self) -> bool {
        self.src.outstanding() == 0
            && self.gpu.holding() == 0
            && !self.gpu.resetting()
            && self.fe.glue_idle()
            && self.fe.dispatcher().idle()
    }
}

/// Percentile (nearest rank) of a sample, 0 for an empty one.
pub fn percentile(v: &[u64], p: f64) -> u64 {
    if v.is_empty() {
        return 0;
    }
    let mut s = v.to_vec();
    s.sort_unstable();
    let r = ((p / 100.0) * s.len() as f64).ceil() as usize;
    s[r.clamp(1, s.len()) - 1]
}
