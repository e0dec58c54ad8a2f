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

/// `synth bench --unit dispatcher --config full|board`: the saturating stream of
/// `testbench::dispatcher_scale::full::run_stream` ("small" WGs that fit on every module) on the
/// exported RTL under Verilator (closed loop: completions name the recorded slots), every cycle
/// judged by the SPEC checker. The first line is the contract: `dispatcher CONFIG: R records in
/// C cycles (X per cycle), head-to-record max H cycles` (four channels; the board config: its
/// two); a second line gives one channel.
pub fn bench_stream(config: &str, cycles: u64) -> anyhow::Result<String> {
    use golden_model::dispatcher::DispatcherConfig;
    use hdl::dispatcher_scale::{dispatcher_full_verilog, DispatcherFullFull};
    use testbench::dispatcher_scale::full::{run_stream, DispFullPorts, FullCfg};
    use testbench::spec::dispatcher::DispatcherChecker;
    use testbench::verilator::Interactive;
    let mut out = String::new();
    for channels in [0usize, 1] {
        let (fig, ins, outs, mut chk) = match config {
            "full" => {
                let cfg = FullCfg::Full.config();
                let v = dispatcher_full_verilog::<DispatcherFullFull>();
                let mut sim = Interactive::new(&v, &DispFullPorts)?;
                let ch = if channels == 0 { cfg.channels } else { 1 };
                let (f, i, o) = run_stream(&cfg, ch, cycles, 1, |x| sim.step(x));
                (f, i, o, FullCfg::Full.checker())
            }
            "board" => {
                let cfg = DispatcherConfig::board();
                let v = hdl::dispatcher::verilog();
                let ports = testbench::dispatcher::DispPorts;
                let mut sim = Interactive::new(&v, &ports)?;
                let ch = if channels == 0 { cfg.channels } else { 1 };
                let (f, i, o) = run_stream(&cfg, ch, cycles, 1, |x| sim.step(x));
                (f, i, o, DispatcherChecker::new(cfg))
            }
            _ => anyhow::bail!("bench --unit dispatcher --config: full or board, not {config}"),
        };
        testbench::spec::judge(&mut chk, &ins, &outs)
            .map_err(|v| anyhow::anyhow!("spec checker on the bench stream: {v}"))?;
        let head = if channels == 0 {
            format!("dispatcher {config}")
        } else {
            format!("  one channel, dispatcher {config}")
        };
        out += &format!(
            "{head}: {} records in {} cycles ({:.3} per cycle), head-to-record max {} cycles \
             (mean {:.2}; push-to-record min {}; spec checker passed)\n",
            fig.records,
            fig.cycles,
            fig.per_cycle(),
            fig.lat_max,
            fig.lat_mean,
            fig.push_to_record_min
        );
    }
    Ok(out)
}
