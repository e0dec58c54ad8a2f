//! Verification machinery shared by every unit.
//!
//! - [`rtl`]: steps a RustHDL block one clock cycle at a time behind the same
//!   [`golden_model::CycleModel`] trait as the golden models (optionally writing a VCD).
//! - [`lockstep`]: runs a golden model and an implementation side by side, compares every output
//!   every cycle, checks invariants, and prints a cycle table with the first difference marked.
//! - [`verilator`]: replays recorded input traces on the exported Verilog through a generated,
//!   cached Verilator C++ harness (batched binary frames over stdin/stdout).
//! - [`eda`]: tool discovery with loud skips (`REQUIRE_EDA=1` turns a missing tool into a failure).
//! - [`spec`]: the spec-checker trait (transaction-level scoreboards written from SPEC alone).
//! - [`unit`]: the [`unit::BoardUnit`] registry trait the cross-unit tools use.
//! - one module per unit with its adapter, strategies and invariants.

pub mod board_top;
pub mod dispatcher;
pub mod dispatcher_scale;
pub mod dispatcher_tagged;
pub mod eda;
pub mod gpu_frontend;
pub mod gpu_frontend_probe;
pub mod kernel_expander;
pub mod lock_unit;
pub mod lockstep;
pub mod ports;
pub mod preempt_ctrl;
pub mod rtl;
pub mod run_finder;
pub mod schedule_gen;
pub mod simt_issue;
pub mod spec;
pub mod suite;
pub mod unit;
pub mod verilator;
