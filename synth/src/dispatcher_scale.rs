//! Patent-scale dispatcher sub-blocks (`hdl::dispatcher_scale`, design
//! `docs/dispatcher_scale.md`) at full widths, for the measurement flows: each is placed and
//! routed as its own unit by `synth report --target ecp5-85f --full --only NAME` (ECP5-85F) and
//! by `synth report --full --only NAME` (iCE40 HX8K, when it fits); the exported Verilog gets
//! unique module names there ([`crate::names`]).

use hdl::dispatcher_scale::{
    allocator_verilog, map_ram_verilog, map_refresh_verilog, matcher_verilog, run_cache_verilog,
    AllocatorFull, MapRamFull, MapRefreshFull, RunCacheFull, RunCachePipeFull,
};
use testbench::dispatcher_scale::full::{run_stream, StreamFigures};

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

/// The contract line of `synth bench --unit dispatcher --config CONFIG` (outside scripts read
/// it): `dispatcher CONFIG: R records in C cycles (X per cycle), head-to-record max H cycles`.
pub fn bench_line(config: &str, f: &StreamFigures) -> String {
    format!("dispatcher {config}: {} cycles", figures(f))
}

/// "R records in C cycles (X per cycle), head-to-record max H": the part of a stream's figures
/// that the contract line and the details share.
fn figures(f: &StreamFigures) -> String {
    format!(
        "{} records in {} cycles ({:.3} per cycle), head-to-record max {}",
        f.records,
        f.cycles,
        f.per_cycle(),
        f.lat_max
    )
}

/// What `synth bench --unit dispatcher --config CONFIG` measured: the stream on every channel of
/// the config (the contract line, [`bench_line`]) and on one channel.
#[derive(Clone, Debug)]
pub struct StreamBench {
    pub config: String,
    pub all: StreamFigures,
    pub one: StreamFigures,
}

impl StreamBench {
    /// The one line on stdout ([`bench_line`] of the all-channel stream).
    pub fn line(&self) -> String {
        bench_line(&self.config, &self.all)
    }
    /// The details (stderr): both streams with the mean head → record, the smallest push →
    /// record (an idle channel: push + 1 + the pipeline's own head → record) and the checker.
    pub fn details(&self) -> String {
        let row = |what: &str, f: &StreamFigures| {
            format!(
                "  {what}: {} mean {:.2} cycles, push-to-record min {} cycles; spec checker \
                 passed\n",
                figures(f),
                f.lat_mean,
                f.push_to_record_min
            )
        };
        row("all channels", &self.all) + &row("one channel", &self.one)
    }
}

/// `synth bench --unit dispatcher --config full|board`: the saturating stream of
/// `testbench::dispatcher_scale::full::run_stream` ("small" WGs that fit on every module, offered
/// one per cycle round robin over the channels) on the exported RTL under Verilator
/// (`testbench::verilator::Interactive`, closed loop: completions name the recorded slots), once
/// on every channel of the config and once on channel 0 alone, every cycle judged by the SPEC
/// checker. Head → record is measured per WG from the trace: from the cycle the WG became its
/// channel's head in the SPEC view (the cycle after its push into an empty channel, or after the
/// record of the WG before it) to its record.
pub fn bench_stream(config: &str, cycles: u64) -> anyhow::Result<StreamBench> {
    use golden_model::dispatcher::DispatcherConfig;
    use hdl::dispatcher_scale::{dispatcher_full_verilog, DispatcherFullFull};
    use testbench::dispatcher_scale::full::{DispFullPorts, FullCfg};
    use testbench::spec::dispatcher::DispatcherChecker;
    use testbench::verilator::Interactive;
    // the export once (RustHDL's generation of the full config takes longer than its stream)
    let v = match config {
        "full" => dispatcher_full_verilog::<DispatcherFullFull>(),
        "board" => hdl::dispatcher::verilog(),
        _ => anyhow::bail!("bench --unit dispatcher --config: full or board, not {config}"),
    };
    let mut figs = vec![];
    for channels in [0usize, 1] {
        let (fig, ins, outs, mut chk) = match config {
            "full" => {
                let cfg = FullCfg::Full.config();
                let mut sim = Interactive::new(&v, &DispFullPorts)?;
                let ch = if channels == 0 { cfg.channels } else { 1 };
                let (f, i, o) = run_stream(&cfg, ch, cycles, 1, |x| sim.step(x));
                (f, i, o, FullCfg::Full.checker())
            }
            "board" => {
                let cfg = DispatcherConfig::board();
                let ports = testbench::dispatcher::DispPorts;
                let mut sim = Interactive::new(&v, &ports)?;
                let ch = if channels == 0 { cfg.channels } else { 1 };
                let (f, i, o) = run_stream(&cfg, ch, cycles, 1, |x| sim.step(x));
                (f, i, o, DispatcherChecker::new(cfg))
            }
            _ => unreachable!("the config was matched above"),
        };
        testbench::spec::judge(&mut chk, &ins, &outs)
            .map_err(|v| anyhow::anyhow!("spec checker on the bench stream: {v}"))?;
        figs.push(fig);
    }
    let one = figs.pop().expect("one channel");
    let all = figs.pop().expect("all channels");
    Ok(StreamBench {
        config: config.to_string(),
        all,
        one,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The bench line is a contract: its exact form, and that a script can read R, C, X and H
    /// back from it.
    #[test]
    fn bench_line_has_the_contract_form() {
        let f = StreamFigures {
            cycles: 20_000,
            records: 17_803,
            lat_mean: 5.25,
            lat_max: 13,
            push_to_record_min: 14,
        };
        let line = bench_line("full", &f);
        assert_eq!(
            line,
            "dispatcher full: 17803 records in 20000 cycles (0.890 per cycle), \
             head-to-record max 13 cycles"
        );
        assert!(!line.contains('\n'));
        let rest = line.strip_prefix("dispatcher full: ").expect("prefix");
        let w: Vec<&str> = rest.split(' ').collect();
        assert_eq!(w.len(), 12, "{line}");
        assert_eq!(
            (w[1], w[2], w[4], w[6], w[7], w[8], w[9], w[11]),
            (
                "records",
                "in",
                "cycles",
                "per",
                "cycle),",
                "head-to-record",
                "max",
                "cycles"
            )
        );
        assert_eq!(w[0].parse::<u64>().unwrap(), 17_803);
        assert_eq!(w[3].parse::<u64>().unwrap(), 20_000);
        assert_eq!(w[5].trim_start_matches('(').parse::<f64>().unwrap(), 0.89);
        assert_eq!(w[10].parse::<u64>().unwrap(), 13);
        let b = StreamBench {
            config: "board".into(),
            all: f.clone(),
            one: f,
        };
        assert!(b.line().starts_with("dispatcher board: 17803 records"));
        assert_eq!(b.details().lines().count(), 2);
    }
}
