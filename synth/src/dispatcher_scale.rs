//! Patent-scale dispatcher sub-blocks (`hdl::dispatcher_scale`, design
//! `docs/dispatcher_scale.md`) at full widths, for the measurement flows: each is placed and
//! routed as its own unit by `synth report --target ecp5-85f --full --only NAME` (ECP5-85F) and
//! by `synth report --full --only NAME` (iCE40 HX8K, when it fits); the exported Verilog gets
//! unique module names there ([`crate::names`]).

use hdl::dispatcher_scale::{matcher_verilog, run_cache_verilog, RunCacheFull};

/// (unit name, RustHDL export with module `top`) of every sub-block built so far, full widths.
pub fn sub_blocks() -> Vec<(String, String)> {
    vec![
        (
            "dispatcher_scale_run_cache".into(),
            run_cache_verilog::<RunCacheFull>(),
        ),
        ("dispatcher_scale_matcher".into(), matcher_verilog()),
    ]
}
