//! SPEC Unit 8: "every unit's own checker also run on its internal ports" — on the RTL. The
//! RustHDL top `hdl::gpu_frontend::GpuFrontend` is stepped with a probe of its three sub-blocks'
//! ports (`testbench::gpu_frontend_probe`): every cycle the probe must equal the composed golden
//! model's (`GpuFrontend::probe`: the same ports of the unit models), and the preemption
//! controller's, the kernel expander's and the tagged dispatcher's own spec checkers judge the
//! RTL's internal ports. Streams (20 000 cycles each): the system's closed loop (kernel stream and
//! GPU far side, `golden_model::gpu_model::system`, seed 1), and the registry's random front-end trace
//! (`testbench::gpu_frontend::random_run`: bad inputs, host preempts, register writes, resets).

use golden_model::dispatcher::tagged::TaggedConfig;
use golden_model::gpu_frontend::{GfIn, GpuFrontend, Probe};
use golden_model::gpu_model::system::{SysParams, System};
use golden_model::kernel_expander::ExpanderConfig;
use golden_model::preempt_ctrl::PreemptConfig;
use golden_model::{CycleModel, ResetInput};
use testbench::gpu_frontend_probe::probe;
use testbench::rtl::RtlSim;
use testbench::spec::dispatcher_tagged::TaggedChecker;
use testbench::spec::kernel_expander::ExpanderSpec;
use testbench::spec::preempt_ctrl::PreemptSpec;
use testbench::spec::SpecChecker;

/// What the unit checkers saw on the RTL's internal ports (so a pass is not an idle trace).
#[derive(Debug, Default)]
struct Seen {
    launches: usize,
    pushes: usize,
    records: usize,
    cu_resets: usize,
    skips: usize,
}

/// Step the composed model and the RustHDL top on `ins` (a reset cycle goes first: the RTL's
/// power-up state); every cycle the top's outputs and its sub-blocks' ports must equal the
/// model's, and the unit checkers must accept the RTL's internal ports.
fn judge_internal_ports(ins: &[GfIn], what: &str) -> Seen {
    let mut model = GpuFrontend::new();
    let mut rtl = RtlSim::new(hdl::gpu_frontend::GpuFrontend::new());
    let mut pc = PreemptSpec::new(PreemptConfig::board());
    let mut exp = ExpanderSpec::new(ExpanderConfig::board());
    let mut disp = TaggedChecker::new(TaggedConfig::board());
    let mut seen = Seen::default();
    let all: Vec<GfIn> = std::iter::once(GfIn::reset_input())
        .chain(ins.iter().cloned())
        .collect();
    for (c, i) in all.iter().enumerate() {
        let want = model.step(i);
        let (got, p): (_, Probe) = rtl.step_with(i, probe);
        assert_eq!(
            got, want,
            "{what}: outputs differ from the model in cycle {c}"
        );
        let m = model.probe();
        let same = [
            ("preempt_ctrl inputs", p.pc_in == m.pc_in),
            ("preempt_ctrl outputs", p.pc_out == m.pc_out),
            ("kernel_expander inputs", p.exp_in == m.exp_in),
            ("kernel_expander outputs", p.exp_out == m.exp_out),
            ("dispatcher_tagged inputs", p.disp_in == m.disp_in),
            ("dispatcher_tagged outputs", p.disp_out == m.disp_out),
        ];
        for (ports, ok) in same {
            assert!(
                ok,
                "{what}: cycle {c}: the RTL's {ports} differ from the composed model's\nRTL {p:#?}\nmodel {m:#?}"
            );
        }
        let fail = |u: &str, v: testbench::spec::Violation| -> ! {
            panic!("{what}: {u}'s own checker on the RTL's internal ports: {v}")
        };
        pc.check(c, &p.pc_in, &p.pc_out)
            .unwrap_or_else(|v| fail("preempt_ctrl", v));
        exp.check(c, &p.exp_in, &p.exp_out)
            .unwrap_or_else(|v| fail("kernel_expander", v));
        disp.check(c, &p.disp_in, &p.disp_out)
            .unwrap_or_else(|v| fail("dispatcher_tagged", v));
        seen.launches += usize::from(p.pc_in.launch_valid && p.pc_out.launch_ready);
        seen.pushes += usize::from(p.exp_out.push_valid);
        seen.records += usize::from(p.disp_out.base.disp_valid);
        seen.cu_resets += usize::from(p.pc_out.cu_reset);
        seen.skips += usize::from(p.exp_out.withdraw_valid);
    }
    seen
}

/// Cycles per stream (RustHDL simulates the composed top at about 10^3 cycles per second).
const CYCLES: usize = 20_000;

#[test]
fn unit_checkers_accept_the_rtl_internal_ports_of_a_system_stream() {
    // seed 1 has CU resets within 20 000 cycles (seed 2 has none: skips only)
    {
        let seed = 1;
        let mut sys = System::new(SysParams::busy(seed));
        let ins: Vec<GfIn> = (0..CYCLES).map(|_| sys.step().0).collect();
        let s = judge_internal_ports(&ins, &format!("system stream, seed {seed}"));
        println!("seed {seed}: {s:?}");
        assert!(
            s.launches > 20 && s.pushes > 50 && s.records > 50 && s.cu_resets > 0 && s.skips > 0,
            "seed {seed}: too little traffic on the internal ports: {s:?}"
        );
    }
}

#[test]
fn unit_checkers_accept_the_rtl_internal_ports_of_the_registry_trace() {
    let (ins, _) = testbench::gpu_frontend::random_run(2026, CYCLES);
    let s = judge_internal_ports(&ins[1..], "registry trace, seed 2026");
    println!("{s:?}");
    assert!(
        s.launches > 20 && s.records > 50 && s.cu_resets > 0 && s.skips > 0,
        "too little traffic on the internal ports: {s:?}"
    );
}
