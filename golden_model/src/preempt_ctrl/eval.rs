//! Evaluation of the preemption controller against two baselines (the `eval-preempt` command).
//!
//! One best-effort (BE) task launches kernels without end (durations log-uniform in a class
//! range, each idempotent with probability `idem_share`); a real-time (RT) task arrives every
//! `rt_period` cycles on average (uniform in ½–1½ × the mean), preempts the BE task, holds the
//! GPU for `rt_hold` cycles once preemption is done, and resumes it. The GPU is
//! [`super::gpu::Gpu`] (submit latency, in-order serial stream, CU-reset time). Policies:
//! - **controller**: the golden model [`super::PreemptCtrl`] (8 in flight, skip at start while
//!   preempted, CU reset when everything in flight is idempotent, resubmission at resume);
//! - **wait-all** (baseline a): the same 8 kernels in flight, no instrumentation: on preempt the
//!   host stops submitting and waits until every submitted kernel has run to completion;
//! - **blocking** (baseline b, patent \[0008\]): one kernel in flight, the next submitted only when
//!   the previous completed; on preempt it waits for that kernel.
//!
//! Metrics: preemption latency (preempt → preempt done, the RT task's wait) p50/p99 in cycles
//! and µs at 100 MHz; BE throughput = GPU cycles of BE kernels that completed, as % of all
//! cycles; its cost = the drop against the same workload on the controller without any
//! preemption; lost work = GPU cycles of kernels killed by a CU reset (re-run later).

use super::gpu::{Gpu, GpuParams};
use super::{PreemptConfig, PreemptCtrl, PreemptIn};
use crate::dispatcher::eval::Rng;
use crate::CycleModel;

/// Cycles per µs at the board's 100 MHz clock.
pub const CYCLES_PER_US: f64 = 100.0;

/// Policy under evaluation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Policy {
    Controller,
    WaitAll,
    Blocking,
}

impl Policy {
    pub fn name(self) -> &'static str {
        match self {
            Policy::Controller => "controller",
            Policy::WaitAll => "wait-all (a)",
            Policy::Blocking => "blocking, 1 in flight (b)",
        }
    }
}

/// One workload.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Workload {
    /// Name of the kernel-duration class.
    pub class: &'static str,
    /// Kernel durations, cycles (log-uniform in `min..=max`).
    pub dur_min: u64,
    pub dur_max: u64,
    /// Share of idempotent kernels, 0.0–1.0.
    pub idem_share: f64,
    /// Mean cycles between RT arrivals (0 = no preemption at all).
    pub rt_period: u64,
    /// Cycles the RT task holds the GPU after preempt done.
    pub rt_hold: u64,
    pub gpu: GpuParams,
    pub cycles: u64,
    pub seed: u64,
}

/// Documented defaults: 1 ms between RT arrivals, RT holds 200 µs, 10 M cycles (100 ms).
pub const DEFAULT_RT_PERIOD: u64 = 100_000;
pub const DEFAULT_RT_HOLD: u64 = 20_000;
pub const DEFAULT_CYCLES: u64 = 10_000_000;

/// The three duration classes: short 0.5–5 µs, medium 5–50 µs, long 50–500 µs.
pub const CLASSES: [(&str, u64, u64); 3] = [
    ("short 0.5-5 us", 50, 500),
    ("medium 5-50 us", 500, 5_000),
    ("long 50-500 us", 5_000, 50_000),
];

impl Workload {
    pub fn new(class: usize, idem_share: f64, cycles: u64, seed: u64) -> Self {
        let (name, lo, hi) = CLASSES[class];
        Self {
            class: name,
            dur_min: lo,
            dur_max: hi,
            idem_share,
            rt_period: DEFAULT_RT_PERIOD,
            rt_hold: DEFAULT_RT_HOLD,
            gpu: GpuParams::default(),
            cycles,
            seed,
        }
    }
}

/// Result of one run.
#[derive(Clone, Debug, PartialEq)]
pub struct EvalResult {
    pub policy: Policy,
    pub workload: Workload,
    /// Preemption latencies (cycles), sorted.
    pub latencies: Vec<u64>,
    /// BE kernel cycles that completed, % of all cycles.
    pub throughput_pct: f64,
    /// Killed kernel cycles, % of all cycles.
    pub lost_pct: f64,
    pub completed: u64,
    pub cu_resets: u64,
}

impl EvalResult {
    /// Percentile (nearest rank) of the preemption latency in cycles; 0 without samples.
    pub fn latency_pct(&self, p: f64) -> u64 {
        if self.latencies.is_empty() {
            return 0;
        }
        let k = ((p / 100.0 * self.latencies.len() as f64).ceil() as usize).max(1);
        self.latencies[k.min(self.latencies.len()) - 1]
    }
}

/// The BE task's kernels: the k-th launch gets the k-th (duration, idempotent) of the seed.
struct Task {
    rng: Rng,
    next_id: u32,
    id_mask: u32,
    dur: Vec<u64>,
    idem: Vec<bool>,
    w: Workload,
}

impl Task {
    fn new(w: &Workload, id_bits: usize) -> Self {
        Self {
            rng: Rng::new(w.seed ^ 0xBE),
            next_id: 0,
            id_mask: (1 << id_bits) - 1,
            dur: vec![0; 1 << id_bits],
            idem: vec![false; 1 << id_bits],
            w: *w,
        }
    }
    /// The next kernel: (id, idempotent); its duration is recorded under its id.
    fn next(&mut self) -> (u32, bool) {
        let id = self.next_id;
        self.next_id = (self.next_id + 1) & self.id_mask;
        let (lo, hi) = (self.w.dur_min as f64, self.w.dur_max as f64);
        let u = (self.rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
        self.dur[id as usize] = (lo * (hi / lo).powf(u)).round() as u64;
        self.idem[id as usize] = self.rng.chance(self.w.idem_share);
        (id, self.idem[id as usize])
    }
}

/// The RT task's arrivals and hold.
enum Rt {
    Idle { next_at: u64 },
    Waiting { since: u64 },
    Holding { until: u64 },
}

struct RtTask {
    rng: Rng,
    state: Rt,
    period: u64,
    hold: u64,
    latencies: Vec<u64>,
}

impl RtTask {
    fn new(w: &Workload) -> Self {
        let mut rng = Rng::new(w.seed ^ 0x7E);
        let next_at = Self::gap(&mut rng, w.rt_period);
        Self {
            rng,
            state: Rt::Idle { next_at },
            period: w.rt_period,
            hold: w.rt_hold,
            latencies: vec![],
        }
    }
    fn gap(rng: &mut Rng, period: u64) -> u64 {
        if period == 0 {
            return u64::MAX;
        }
        rng.range((period / 2) as usize, (period * 3 / 2) as usize) as u64
    }
    /// Cycle `now`: returns (preempt, resume) strobes; `done` = preemption finished this cycle.
    fn cycle(&mut self, now: u64, done: bool) -> (bool, bool) {
        match self.state {
            Rt::Idle { next_at } if now >= next_at => {
                self.state = Rt::Waiting { since: now };
                (true, false)
            }
            Rt::Waiting { since } if done => {
                self.latencies.push(now - since);
                self.state = Rt::Holding {
                    until: now + self.hold,
                };
                (false, false)
            }
            Rt::Holding { until } if now >= until => {
                self.state = Rt::Idle {
                    next_at: now + Self::gap(&mut self.rng, self.period),
                };
                (false, true)
            }
            _ => (false, false),
        }
    }
}

/// Run one policy on one workload.
pub fn run(policy: Policy, w: &Workload) -> EvalResult {
    let cfg = PreemptConfig::board();
    let mut task = Task::new(w, cfg.id_bits);
    let mut rt = RtTask::new(w);
    let mut gpu = Gpu::new(w.gpu);
    let mut cu_resets = 0;
    match policy {
        Policy::Controller => {
            let mut ctrl = PreemptCtrl::new(cfg);
            let mut pending = task.next();
            let mut inp = PreemptIn::default();
            for now in 0..w.cycles {
                let o = ctrl.outputs();
                let dur = &task.dur;
                let ev = gpu.cycle(now, &o, &mut |id| dur[id as usize], false);
                let (preempt, resume) = rt.cycle(now, o.preempt_done);
                inp.launch_valid = true;
                inp.launch_id = pending.0;
                inp.launch_idem = pending.1;
                inp.submit_ready = true;
                inp.start_valid = ev.start.is_some();
                inp.start_id = ev.start.unwrap_or(0);
                inp.done_valid = ev.done.is_some();
                inp.done_id = ev.done.unwrap_or(0);
                inp.killed = ev.killed;
                inp.preempt = preempt;
                inp.resume = resume;
                if o.submit_valid {
                    gpu.submitted(now, o.submit_id);
                }
                cu_resets += o.cu_reset as u64;
                let o2 = ctrl.step(&inp);
                debug_assert!(!o2.error, "evaluation drove a bad event: {inp:?}");
                if o.launch_ready {
                    pending = task.next();
                }
            }
        }
        Policy::WaitAll | Policy::Blocking => {
            let limit = if policy == Policy::WaitAll { 8 } else { 1 };
            let (mut in_flight, mut preempted) = (0usize, false);
            let mut done_pending = false;
            let none = super::PreemptOut::default();
            for now in 0..w.cycles {
                let dur = &task.dur;
                let ev = gpu.cycle(now, &none, &mut |id| dur[id as usize], true);
                if ev.done.is_some() {
                    in_flight -= 1;
                }
                // preemption is done when nothing submitted is left (seen the next cycle, as
                // the controller's registered strobe would be)
                let (preempt, resume) = rt.cycle(now, done_pending);
                done_pending = false;
                if preempt {
                    preempted = true;
                }
                if resume {
                    preempted = false;
                }
                if preempted && in_flight == 0 && matches!(rt.state, Rt::Waiting { .. }) {
                    done_pending = true;
                }
                if !preempted && in_flight < limit {
                    let (id, _) = task.next();
                    gpu.submitted(now, id);
                    in_flight += 1;
                }
            }
        }
    }
    let mut latencies = rt.latencies;
    latencies.sort_unstable();
    EvalResult {
        policy,
        workload: *w,
        latencies,
        throughput_pct: 100.0 * gpu.useful as f64 / w.cycles as f64,
        lost_pct: 100.0 * gpu.lost as f64 / w.cycles as f64,
        completed: gpu.completed,
        cu_resets,
    }
}

/// One row of the evaluation table: a policy on a workload, with the no-preemption reference.
#[derive(Clone, Debug)]
pub struct Row {
    pub result: EvalResult,
    /// BE throughput of the controller on the same workload without RT arrivals, %.
    pub reference_pct: f64,
}

impl Row {
    /// Throughput cost in percentage points against the no-preemption reference.
    pub fn cost_pts(&self) -> f64 {
        self.reference_pct - self.result.throughput_pct
    }
}

/// Idempotent shares swept for the controller.
pub const IDEM_SHARES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// The whole evaluation: for every duration class, the controller at every idempotent share
/// and both baselines (which neither skip nor reset, so the share does not matter to them).
pub fn evaluate(cycles: u64, seed: u64) -> Vec<Row> {
    let mut rows = vec![];
    for class in 0..CLASSES.len() {
        let reference = {
            let mut w = Workload::new(class, 0.0, cycles, seed);
            w.rt_period = 0;
            run(Policy::Controller, &w).throughput_pct
        };
        for &share in &IDEM_SHARES {
            let w = Workload::new(class, share, cycles, seed);
            rows.push(Row {
                result: run(Policy::Controller, &w),
                reference_pct: reference,
            });
        }
        for p in [Policy::WaitAll, Policy::Blocking] {
            let w = Workload::new(class, 0.0, cycles, seed);
            rows.push(Row {
                result: run(p, &w),
                reference_pct: reference,
            });
        }
    }
    rows
}

/// The Markdown table of [`evaluate`]'s rows.
pub fn markdown(rows: &[Row]) -> String {
    let us = |c: u64| c as f64 / CYCLES_PER_US;
    let mut s = String::from(
        "| kernels | policy | idempotent | preemptions | latency p50 cycles (µs) | latency p99 cycles (µs) | BE throughput % | cost vs no preemption (pts) | lost % | CU resets |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n",
    );
    for r in rows {
        let e = &r.result;
        let share = if e.policy == Policy::Controller {
            format!("{:.0} %", 100.0 * e.workload.idem_share)
        } else {
            "any".into()
        };
        s += &format!(
            "| {} | {} | {} | {} | {} ({:.1}) | {} ({:.1}) | {:.1} | {:.1} | {:.1} | {} |\n",
            e.workload.class,
            e.policy.name(),
            share,
            e.latencies.len(),
            e.latency_pct(50.0),
            us(e.latency_pct(50.0)),
            e.latency_pct(99.0),
            us(e.latency_pct(99.0)),
            e.throughput_pct,
            r.cost_pts(),
            e.lost_pct,
            e.cu_resets
        );
    }
    s
}
