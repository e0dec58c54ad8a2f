//! `synth mutate` on the composed front-end (`gpu_frontend`): the spec verdict includes the
//! sub-units' own checkers on their ports inside the mutated export (SPEC Unit 8).

use super::*;
use golden_model::gpu_frontend::GpuFrontend;
use golden_model::CycleModel;
use testbench::gpu_frontend::GpuFrontendBoard;
use testbench::gpu_frontend_probe::{probe_verilog, ProbePorts};
use testbench::unit::BoardUnit;

/// The candidate fault with id `id` of the front-end's export.
fn site(v: &str, id: &str) -> Mutant {
    candidate_sites(GpuFrontendBoard::NAME, v)
        .into_iter()
        .flatten()
        .find(|m| m.id == id)
        .unwrap_or_else(|| panic!("no candidate fault {id} in the gpu_frontend export"))
}

/// `7021f26df92644fd` (seed 3's draw): bit 4 of the register `match_ok_sgpr$2` (the SGPR fit of
/// the embedded tagged dispatcher's candidate module 2) stuck at 0, so that module is refused
/// WGs it fits and the WG goes to a later module. Any placement inside the maps is legal at the
/// front-end's ports, so the system checker accepts every trace (the records do not name their
/// kernel's need); on the dispatcher's own ports its checker sees the head's shape and finds
/// the first fit skipped. Since session 11's registry stream (map-pressure segments) the
/// system checker catches it too at the top, so the test pins what the internal ports add: the
/// unit's rule named (`dispatcher_tagged:first-fit`) and counted in the report's breakdown. The
/// unmutated schemata passes every check (`run_mutants` fails otherwise). Its seed-3 traces (12 × 8000 cycles); one Verilator build of the probed
/// schemata (a few minutes).
#[test]
fn internal_ports_catch_a_dispatcher_fault_the_system_checker_misses() {
    if !verilator::tool_available("verilator") {
        return;
    }
    let v = GpuFrontendBoard::verilog();
    let m = site(&v, "7021f26df92644fd");
    assert!(
        m.what.starts_with("match_ok_sgpr$2$d[4] stuck at 0"),
        "{}",
        m.what
    );
    let r = run_mutants::<GpuFrontendBoard>(
        &v,
        std::slice::from_ref(&m),
        &Options {
            count: 1,
            seed: 3,
            traces: Some(12),
            cycles: 8000,
            prove_secs: 0,
        },
    )
    .unwrap();
    assert!(r.internal);
    let o = &r.mutants[0].1;
    assert!(o.lockstep, "{o:?}");
    assert_eq!(
        o.spec_internal.as_deref(),
        Some("dispatcher_tagged:first-fit"),
        "{o:?}"
    );
    assert!(o.spec, "{o:?}");
    let text = r.text();
    let last = text.lines().last().unwrap();
    assert!(
        text.contains(&format!(
            "spec checker 1 = the unit's own checker {} + the sub-units' checkers on their internal ports 1, {} caught by those alone",
            u8::from(o.spec_top),
            u8::from(!o.spec_top)
        ))
            && last.starts_with("mutants 1, non-equivalent 1, lockstep 1, spec checker 1, invariants "),
        "{text}"
    );
}

/// A look at one mutant (not a check; `MUTANT=<id> TRACE=<seed> cargo test --release -p synth
/// replay_one_front_end_mutant -- --ignored --nocapture`): the mutant alone in the probed
/// schemata, replayed on the registry trace `TRACE` (8000 cycles); prints the first cycles in
/// which an output or a sub-unit's port differs from the composed model's.
#[test]
#[ignore]
fn replay_one_front_end_mutant() {
    let id = std::env::var("MUTANT").expect("MUTANT=<id>");
    let seed: u64 = std::env::var("TRACE").map_or(3000, |t| t.parse().unwrap());
    let cycles: usize = std::env::var("CYCLES").map_or(8000, |t| t.parse().unwrap());
    let v = GpuFrontendBoard::verilog();
    let m = site(&v, &id);
    eprintln!("{} {} {}: {}", m.id, m.place(), m.kind, m.what);
    let s = schemata(&v, &[m]);
    let ports = ProbePorts::with_inputs(vec![(Port::new("mutant_sel", 16), 1)]);
    let w = probe_verilog(&ports, &s).unwrap();
    let trace = GpuFrontendBoard::random_trace(seed, cycles);
    let got = verilator::replay(&w, &ports, &trace).unwrap();
    let mut model = GpuFrontend::new();
    let mut shown = 0;
    for (c, (i, (o, p))) in trace.iter().zip(&got).enumerate() {
        let want = model.step(i);
        let mp = model.probe();
        let diffs: Vec<&str> = [
            ("outputs", *o == want),
            ("preempt_ctrl in", p.pc_in == mp.pc_in),
            ("preempt_ctrl out", p.pc_out == mp.pc_out),
            ("expander in", p.exp_in == mp.exp_in),
            ("expander out", p.exp_out == mp.exp_out),
            ("dispatcher in", p.disp_in == mp.disp_in),
            ("dispatcher out", p.disp_out == mp.disp_out),
        ]
        .into_iter()
        .filter(|x| !x.1)
        .map(|x| x.0)
        .collect();
        if !diffs.is_empty() && shown < 3 {
            shown += 1;
            eprintln!("cycle {c}: {diffs:?}\ninputs {i:?}\nRTL {p:#?}\nmodel {mp:#?}");
        }
    }
    eprintln!("{shown} differing cycle(s) shown");
}
