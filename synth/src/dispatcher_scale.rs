//! Patent-scale dispatcher sub-blocks (`hdl::dispatcher_scale`, design
//! `docs/dispatcher_scale.md`) at full widths, for the measurement flows: each is placed and
//! routed as its own unit by `synth report --target ecp5-85f --full --only NAME` (ECP5-85F) and
//! by `synth report --full --only NAME` (iCE40 HX8K, when it fits); the exported Verilog gets
//! unique module names there ([`crate::names`]).

use hdl::dispatcher_scale::{
    allocator_verilog, map_ram_verilog, map_refresh_verilog, matcher_verilog, run_cache_verilog,
    AllocatorFull, MapRamFull, MapRefreshFull, RunCacheFull, RunCachePipeFull,
};

/// The unit names of every sub-block built so far ([`sub_block_verilog`] by index).
pub const SUB_BLOCKS: [&str; 6] = [
    "dispatcher_scale_run_cache",
    "dispatcher_scale_matcher",
    "dispatcher_scale_cache_pipe",
    "dispatcher_scale_map_ram",
    "dispatcher_scale_map_refresh",
    "dispatcher_scale_allocator",
];

/// RustHDL export (module `top`) of sub-block `i` of [`SUB_BLOCKS`], full widths.
pub fn sub_block_verilog(i: usize) -> String {
    match i {
        0 => run_cache_verilog::<RunCacheFull>(),
        1 => matcher_verilog(),
        2 => run_cache_verilog::<RunCachePipeFull>(),
        3 => map_ram_verilog::<MapRamFull>(),
        4 => map_refresh_verilog::<MapRefreshFull>(),
        5 => allocator_verilog::<AllocatorFull>(),
        _ => panic!("no dispatcher_scale sub-block {i}"),
    }
}

/// (unit name, RustHDL export with module `top`) of every sub-block built so far, full widths.
pub fn sub_blocks() -> Vec<(String, String)> {
    SUB_BLOCKS
        .iter()
        .enumerate()
        .map(|(i, n)| (n.to_string(), sub_block_verilog(i)))
        .collect()
}
