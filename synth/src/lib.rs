//! Library behind the `synth` CLI: Verilog export, the iCE40 flow, benches and reports.

pub mod bench;
pub mod board;
pub mod dispatcher;
pub mod dispatcher_scale;
pub mod ecp5;
pub mod export;
pub mod flow;
pub mod lock_unit;
pub mod mutate;
pub mod names;
pub mod preempt_ctrl;
pub mod readme;
pub mod run_finder;
pub mod schedule_gen;
pub mod simt_issue;
pub mod svg;
pub mod ulx3s;

/// A simulation speed for the bench reports: `cycles` stepped in `secs`, in M or k cycles/s.
pub fn rate(cycles: usize, secs: f64) -> String {
    let r = cycles as f64 / secs;
    if r >= 1e6 {
        format!("{:.2} M cycles/s", r / 1e6)
    } else {
        format!("{:.1} k cycles/s", r / 1e3)
    }
}
