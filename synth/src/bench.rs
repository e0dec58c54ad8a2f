//! `synth bench`: for every registered unit ([`testbench::for_each_unit!`]) the simulation
//! speeds of the golden model, the RustHDL simulation and the exported Verilog under Verilator
//! on the unit's standard random trace (RustHDL and Verilator checked equal to the model), then
//! what the unit measures beyond speed (latencies, throughput) where it has a `bench_extra`.

use anyhow::Result;
use std::fmt::Write as _;
use std::time::Instant;
use testbench::unit::{CheckedUnit, UnitVisitor};
use testbench::verilator::{self as v, TracePorts};

/// The speed table of unit `U`: the golden model on `model_cycles` cycles of
/// `U::random_trace(1, ..)`, RustHDL on the first `rtl_cycles` of them, Verilator on
/// `verilator_cycles` of seed 2. Returns the Markdown table with the model's trace and outputs
/// (for the unit's own latency measurements).
#[allow(clippy::type_complexity)]
pub fn speeds<U: CheckedUnit>(
    model_cycles: usize,
    rtl_cycles: usize,
    verilator_cycles: usize,
) -> Result<(String, Vec<U::In>, Vec<U::Out>)> {
    let mut s = String::new();
    writeln!(s, "| what | cycles | speed |\n|---|---:|---:|")?;
    let trace = U::random_trace(1, model_cycles.max(rtl_cycles));
    let mut model = U::model();
    let t0 = Instant::now();
    let outs: Vec<U::Out> = trace.iter().map(|i| model.step(i)).collect();
    writeln!(
        s,
        "| golden model | {} | {} |",
        trace.len(),
        crate::rate(trace.len(), t0.elapsed().as_secs_f64())
    )?;
    let rtl_trace = &trace[..rtl_cycles.min(trace.len())];
    let mut rtl = U::rtl();
    let t0 = Instant::now();
    let rtl_outs: Vec<U::Out> = rtl_trace.iter().map(|i| rtl.step(i)).collect();
    let secs = t0.elapsed().as_secs_f64();
    anyhow::ensure!(
        rtl_outs[..] == outs[..rtl_outs.len()],
        "{}: RustHDL outputs differ from the model",
        U::NAME
    );
    writeln!(
        s,
        "| RustHDL simulation | {} | {} |",
        rtl_trace.len(),
        crate::rate(rtl_trace.len(), secs)
    )?;
    if testbench::eda::tool_available("verilator") {
        let vtrace = U::random_trace(2, verilator_cycles);
        let ports = U::ports();
        let exe = v::build_harness(
            &U::verilog(),
            &ports.inputs(),
            &ports.outputs(),
            ports.has_clock(),
        )?;
        let frames = v::encode_frames(&ports, &vtrace);
        let ob: usize = ports.outputs().iter().map(|p| p.width.div_ceil(8)).sum();
        let t0 = Instant::now();
        let raw = v::run_frames(&exe, frames, ob)?;
        let secs = t0.elapsed().as_secs_f64();
        let got = v::decode_frames(&ports, &raw);
        testbench::lockstep::compare_trace(&mut *U::model(), &vtrace, &got)
            .map_err(anyhow::Error::msg)?;
        writeln!(
            s,
            "| Verilator (exported Verilog, incl. frame I/O) | {} | {} |",
            vtrace.len(),
            crate::rate(vtrace.len(), secs)
        )?;
    }
    Ok((s, trace, outs))
}

/// The cycle counts of one `synth bench` run.
#[derive(Clone, Copy, Debug)]
pub struct Cycles {
    pub model: usize,
    pub rtl: usize,
    pub verilator: usize,
}

struct Bench(Cycles);

impl UnitVisitor for Bench {
    type Out = Result<String>;
    fn visit<U: CheckedUnit>(&mut self) -> Result<String> {
        let c = self.0;
        // the dispatcher's RTL simulation is the slowest (wide maps): a fifth of the cycles
        let rtl = if U::NAME == "dispatcher" {
            c.rtl / 5
        } else {
            c.rtl
        };
        let (table, _, _) = speeds::<U>(c.model, rtl, c.verilator)?;
        let mut s = format!("## {} bench ({})\n\n{table}", U::NAME, U::CONFIG);
        let extra = match U::NAME {
            "lock_unit" => Some(crate::lock_unit::bench_extra(c.model)?),
            "dispatcher" => Some(crate::dispatcher::bench_extra(c.model / 2, rtl)?),
            "preempt_ctrl" => Some(crate::preempt_ctrl::bench_extra(c.model)?),
            "simt_issue" => Some(crate::simt_issue::bench_extra()),
            "schedule_gen" => Some(crate::schedule_gen::bench_extra()?),
            _ => None,
        };
        if let Some(e) = extra {
            s.push('\n');
            s.push_str(&e);
        }
        Ok(s)
    }
}

/// `synth bench` for every registered unit, or the units whose name contains `only`.
pub fn run(c: Cycles, only: Option<&str>) -> Result<String> {
    let mut out = String::new();
    for name in testbench::unit::names() {
        if !crate::only_selects(only, name) {
            continue;
        }
        let s = testbench::unit::visit(name, &mut Bench(c)).expect("registered")?;
        writeln!(out, "{s}")?;
    }
    Ok(out)
}
