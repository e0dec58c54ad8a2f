//! System evaluation (SPEC Unit 8): RT kernel turnaround and BE throughput of the composed
//! front-end with the GPU model, for SPEC's four configurations over RT arrival rates and BE WG
//! lengths. Rendered by `synth eval-system`.
//!
//! Configurations (registers of `gpu_frontend`, stream of [`super::KernelSource`]):
//! - **(a) one FIFO, no preemption**: RT kernels are launched as BE kernels (class 1), so they
//!   queue in Unit 4 and the BE channel behind the BE kernels; `AUTO_PREEMPT` = 0.
//! - **(b) RT channel, no preemption**: RT kernels on the dispatcher's high-priority channel;
//!   `AUTO_PREEMPT` = 0 (the BE WGs already placed run to their end).
//! - **(c) + Unit 4, skip only**: `AUTO_PREEMPT` = 1, `RESET_ENABLE` = 0: a BE kernel not yet
//!   started when an RT kernel arrives is skipped at its entry check, running ones finish.
//! - **(d) + CU reset**: `AUTO_PREEMPT` = 1, `RESET_ENABLE` = 1, every BE kernel idempotent: the
//!   running BE WGs are killed and reclaimed, the kernels re-run whole after the resume.
//!
//! RT turnaround = the RT kernel's arrival (its launch offered) → its `kernel_done`. BE throughput
//! = WGs of BE kernels completed (in their one successful attempt) per 1000 cycles.

use super::system::{percentile, SysParams, System};
use super::{GpuParams, StreamParams};

/// The four configurations of SPEC Unit 8's evaluation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Config {
    A,
    B,
    C,
    D,
}

pub const CONFIGS: [Config; 4] = [Config::A, Config::B, Config::C, Config::D];

impl Config {
    pub fn label(&self) -> &'static str {
        match self {
            Config::A => "(a) one FIFO, no preemption",
            Config::B => "(b) RT channel, no preemption",
            Config::C => "(c) + Unit 4, skip only",
            Config::D => "(d) + CU reset",
        }
    }
    pub fn short(&self) -> &'static str {
        match self {
            Config::A => "a",
            Config::B => "b",
            Config::C => "c",
            Config::D => "d",
        }
    }
}

/// Defaults (cycles of the 100 MHz clock; 100 cycles = 1 µs).
pub const DEFAULT_CYCLES: u64 = 1_000_000;
/// Mean RT inter-arrival times swept (cycles): 100, 250, 1000 µs.
pub const RT_PERIODS: [u64; 3] = [10_000, 25_000, 100_000];
/// BE WG run-time ranges swept (cycles): about 5, 20, 80 µs per WG.
pub const BE_WG_CYCLES: [(u64, u64); 3] = [(300, 700), (1_000, 3_000), (4_000, 12_000)];
/// The default point: the middle of both sweeps.
pub const DEFAULT_RT_PERIOD: u64 = 25_000;
pub const DEFAULT_BE_WG: (u64, u64) = (1_000, 3_000);

/// The stream and GPU of one evaluation point.
pub fn params(cfg: Config, rt_period: u64, be_wg: (u64, u64), seed: u64) -> SysParams {
    SysParams {
        gpu: GpuParams::default(),
        stream: StreamParams {
            rt_period,
            rt_wgs: (2, 4),
            rt_wg_cycles: (300, 700),
            be_backlog: 4,
            be_wgs: (8, 16),
            be_wg_cycles: be_wg,
            be_idem: 1.0,
            max_waves: 4,
            indep: 0.25,
            bad: 0.0,
            rt_as_be: cfg == Config::A,
        },
        auto_preempt: matches!(cfg, Config::C | Config::D),
        reset_enable: cfg == Config::D,
        storm: 0.0,
        seed,
    }
}

/// One evaluation point's result.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub cfg: Config,
    pub rt_period: u64,
    pub be_wg: (u64, u64),
    pub seed: u64,
    pub cycles: u64,
    pub rt_kernels: usize,
    pub rt_p50: u64,
    pub rt_p99: u64,
    /// BE WGs of completed kernels per 1000 cycles.
    pub be_wgs_per_kcycle: f64,
    pub be_kernels: u64,
    /// BE WG-cycles killed by CU resets (lost work) per 1000 cycles.
    pub lost_per_kcycle: f64,
    pub skips: u64,
    pub cu_resets: u64,
}

/// Run one point.
pub fn run(cfg: Config, rt_period: u64, be_wg: (u64, u64), seed: u64, cycles: u64) -> Row {
    let mut sys = System::new(params(cfg, rt_period, be_wg, seed));
    for _ in 0..cycles {
        sys.step();
    }
    let s = &sys.stats;
    let k = cycles as f64 / 1000.0;
    Row {
        cfg,
        rt_period,
        be_wg,
        seed,
        cycles,
        rt_kernels: s.rt_turnaround.len(),
        rt_p50: percentile(&s.rt_turnaround, 50.0),
        rt_p99: percentile(&s.rt_turnaround, 99.0),
        be_wgs_per_kcycle: s.be_wgs_done as f64 / k,
        be_kernels: s.kernel_done[1]
            - if cfg == Config::A {
                s.rt_turnaround.len() as u64
            } else {
                0
            },
        lost_per_kcycle: sys.gpu.stats.lost_be as f64 / k,
        skips: s.skips,
        cu_resets: s.cu_resets,
    }
}
