//! Library behind the `synth` CLI: Verilog export, the iCE40 flow, benches and reports.

pub mod dispatcher;
pub mod flow;
pub mod lock_unit;
pub mod run_finder;
