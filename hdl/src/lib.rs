//! RustHDL RTL of every gpu-sched-rtl unit. Each unit's module doc is its contract (ports,
//! latency, handshakes, error codes, a worked example); the behaviour is specified by the golden
//! model of the same name in `golden_model`.

pub mod board_top;
pub mod dispatcher;
pub mod dispatcher_scale;
pub mod dispatcher_tagged;
pub mod gpu_frontend;
pub mod kernel_expander;
pub mod lock_unit;
pub mod preempt_ctrl;
pub mod run_finder;
pub mod schedule_gen;
pub mod simt_issue;

/// Verilog of a block as module `top`: connects it, then exports it (`generate_verilog`).
pub fn top_verilog<U: rust_hdl::prelude::Block>(mut uut: U) -> String {
    uut.connect_all();
    rust_hdl::prelude::generate_verilog(&uut)
}
