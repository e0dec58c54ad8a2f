//! Preemption controller (SPEC Unit 4): lockstep of the RustHDL RTL against the golden model on
//! random traces with a random GPU (board, full, degenerate and small shapes), the spec checker
//! on every trace, coverage of every state transition and error, Verilator replay of the
//! exported Verilog (≥ 10^6 cycles), yosys / Verilator lint checks and the export contract, and
//! the evaluation's qualitative outcome.

use golden_model::preempt_ctrl::{PreemptConfig, PreemptCtrl as Model, PreemptIn, PreemptOut};
use golden_model::CycleModel;
use hdl::preempt_ctrl::{
    BoardPreemptCtrl, DegeneratePreemptCtrl, FullPreemptCtrl, SmallPreemptCtrl,
};
use proptest::prelude::*;
use testbench::lockstep::{
    long_regression_cycles, replay_checked, run_cases, run_lockstep, Verdict,
};
use testbench::preempt_ctrl::{generate, invariants, PreemptPorts};
use testbench::rtl::{HdlDut, RtlSim};
use testbench::spec::preempt_ctrl::PreemptSpec;
use testbench::spec::{judge, SpecChecker};
use testbench::verilator;

/// Lockstep RTL vs model on `trace`; the port invariants and the spec checker judge the RTL's
/// outputs every cycle.
fn lockstep<U>(cfg: PreemptConfig, trace: &[PreemptIn]) -> Verdict
where
    U: HdlDut<In = PreemptIn, Out = PreemptOut> + Default,
{
    let mut model = Model::new(cfg);
    let mut rtl = RtlSim::new(U::default());
    let mut spec = PreemptSpec::new(cfg);
    run_lockstep(&mut model, &mut rtl, trace, |c, i, o| {
        invariants(i, o)?;
        spec.check(c, i, o).map_err(|v| v.to_string())
    })?;
    spec.finish(trace.len()).map_err(|v| v.to_string())
}

/// Random traces: (seed, length); a failure shrinks toward the shortest failing prefix.
fn sweep<U>(cfg: PreemptConfig, cases: u32, max_len: usize, max_inflight: Option<u32>)
where
    U: HdlDut<In = PreemptIn, Out = PreemptOut> + Default,
{
    let strat = (any::<u64>(), 50..max_len);
    run_cases(cases, &strat, |(seed, len)| {
        lockstep::<U>(cfg, &generate(cfg, *seed, *len, max_inflight))
    });
}

#[test]
fn lockstep_board() {
    sweep::<BoardPreemptCtrl>(PreemptConfig::board(), 48, 3000, None);
}

#[test]
fn lockstep_full() {
    sweep::<FullPreemptCtrl>(PreemptConfig::full(), 6, 1500, None);
}

/// Queue depth 1 and `max_inflight` 1.
#[test]
fn lockstep_degenerate_depth1_max_inflight1() {
    sweep::<DegeneratePreemptCtrl>(PreemptConfig::degenerate(), 48, 2000, Some(1));
}

#[test]
fn lockstep_small_non_power_of_two() {
    sweep::<SmallPreemptCtrl>(PreemptConfig::small(), 48, 2000, None);
}

/// The spec checker passes the golden model's own traces, all shapes (fast: no RTL).
#[test]
fn spec_checker_passes_the_model() {
    for (cfg, m) in [
        (PreemptConfig::board(), None),
        (PreemptConfig::full(), None),
        (PreemptConfig::degenerate(), Some(1)),
        (PreemptConfig::small(), None),
    ] {
        for seed in 0..6 {
            let t = generate(cfg, seed, 20_000, m);
            let mut model = Model::new(cfg);
            let outs: Vec<PreemptOut> = t.iter().map(|i| model.step(i)).collect();
            judge(&mut PreemptSpec::new(cfg), &t, &outs)
                .unwrap_or_else(|v| panic!("{cfg:?} seed {seed}: {v}"));
        }
    }
}

/// The spec checker is not vacuous: faults injected into a model trace's outputs are caught.
#[test]
fn spec_checker_catches_injected_faults() {
    let cfg = PreemptConfig::board();
    let t = generate(cfg, 11, 30_000, None);
    let mut model = Model::new(cfg);
    let outs: Vec<PreemptOut> = t.iter().map(|i| model.step(i)).collect();
    type Fault = (&'static str, fn(&PreemptOut) -> bool, fn(&mut PreemptOut));
    let faults: [Fault; 8] = [
        ("drop cu_reset", |o| o.cu_reset, |o| o.cu_reset = false),
        (
            "drop preempt_done",
            |o| o.preempt_done,
            |o| o.preempt_done = false,
        ),
        (
            "flip ack_skip",
            |o| o.ack_valid,
            |o| o.ack_skip = !o.ack_skip,
        ),
        ("wrong submit_id", |o| o.submit_valid, |o| o.submit_id ^= 1),
        (
            "submit while preempted",
            |o| o.preempted && o.inflight == 0,
            |o| o.submit_valid = true,
        ),
        (
            "drop an error",
            |o| o.error,
            |o| {
                o.error = false;
                o.error_code = 0
            },
        ),
        (
            "launch_ready stuck high",
            |o| !o.launch_ready,
            |o| o.launch_ready = true,
        ),
        (
            "spurious cu_reset",
            |o| o.preempt_done,
            |o| o.cu_reset = true,
        ),
    ];
    for (name, when, fault) in faults {
        let mut hits = 0;
        for nth in [0usize, 3, 17] {
            let Some(c) = outs
                .iter()
                .enumerate()
                .filter(|(_, o)| when(o))
                .nth(nth)
                .map(|x| x.0)
            else {
                continue;
            };
            let mut bad = outs.clone();
            fault(&mut bad[c]);
            let r = judge(&mut PreemptSpec::new(cfg), &t, &bad);
            assert!(r.is_err(), "{name} at cycle {c} not caught");
            hits += 1;
        }
        assert!(hits > 0, "{name}: the trace never offers the situation");
    }
}

/// The stimulus reaches every state transition (SUBMITTED→RUNNING/SKIPPED/KILLED,
/// RUNNING→done/KILLED, SKIPPED/KILLED→queue), every error code, CU resets, preempt done, a
/// full queue and the `max_inflight` bound, in every shape.
#[test]
fn stimulus_covers_every_transition_and_error() {
    for (cfg, m) in [
        (PreemptConfig::board(), None),
        (PreemptConfig::degenerate(), Some(1)),
        (PreemptConfig::small(), None),
        (PreemptConfig::full(), None),
    ] {
        let mut model = Model::new(cfg);
        for seed in 0..8 {
            for i in generate(cfg, seed, 8_000, m) {
                model.step(&i);
            }
        }
        let s = model.stats().clone();
        let checks = [
            ("launch", s.launches),
            ("submit", s.submits),
            ("SUBMITTED→RUNNING", s.starts_go),
            ("SUBMITTED→SKIPPED", s.starts_skip),
            ("RUNNING→done", s.dones),
            ("SUBMITTED→KILLED", s.killed_submitted),
            ("RUNNING→KILLED", s.killed_running),
            ("resubmitted", s.resubmitted),
            ("preempt", s.preempts),
            ("resume", s.resumes),
            ("cu_reset", s.cu_resets),
            ("preempt_done", s.preempt_dones),
            ("cfg write", s.cfg_writes),
            ("DUP_ID", s.errors[1]),
            ("BAD_EVENT", s.errors[2]),
            ("BAD_STATE", s.errors[3]),
            ("BAD_CFG", s.errors[4]),
            ("queue full", s.full_cycles),
        ];
        for (what, n) in checks {
            // with D = 1 a launch is accepted only when nothing is held: DUP_ID cannot happen
            if what == "DUP_ID" && cfg.queue_depth == 1 {
                assert_eq!(n, 0, "DUP_ID with queue depth 1");
                continue;
            }
            assert!(n > 0, "{cfg:?}: {what} never happens ({s:?})");
        }
        if cfg.queue_depth > 1 {
            assert!(s.bound_cycles > 0, "{cfg:?}: max_inflight never binds");
        }
    }
}

/// Directed: `cu_reset` 2 cycles after preempt, `preempt_done` 2 after `killed`, resubmission
/// 1 cycle after resume, on the RTL (the contract's exact cycles; the checker's windows are wider).
#[test]
fn rtl_contract_latencies() {
    let mut r = RtlSim::new(BoardPreemptCtrl::default());
    let idle = PreemptIn::default();
    let l = |id| PreemptIn {
        launch_valid: true,
        launch_id: id,
        launch_idem: true,
        ..PreemptIn::default()
    };
    r.step(&PreemptIn {
        reset: true,
        ..idle.clone()
    });
    r.step(&l(7));
    r.step(&l(8));
    let o = r.step(&PreemptIn {
        submit_ready: true,
        ..idle.clone()
    });
    assert!(o.submit_valid && o.submit_id == 7);
    r.step(&PreemptIn {
        start_valid: true,
        start_id: 7,
        ..idle.clone()
    });
    let o = r.step(&PreemptIn {
        preempt: true,
        ..idle.clone()
    });
    assert!(
        o.ack_valid && o.ack_id == 7 && !o.ack_skip,
        "ack 1 cycle after start"
    );
    let o1 = r.step(&idle);
    let o2 = r.step(&idle);
    assert!(
        o1.preempted && !o1.cu_reset && o2.cu_reset,
        "cu_reset at preempt + 2"
    );
    r.step(&PreemptIn {
        killed: true,
        ..idle.clone()
    });
    let o1 = r.step(&idle);
    let o2 = r.step(&idle);
    assert!(
        !o1.preempt_done && o2.preempt_done,
        "preempt_done at killed + 2"
    );
    r.step(&PreemptIn {
        resume: true,
        ..idle.clone()
    });
    let o = r.step(&idle);
    assert!(
        o.submit_valid && o.submit_id == 7,
        "resubmission at resume + 1, in order"
    );
}

fn board_verilog() -> String {
    hdl::preempt_ctrl::verilog(BoardPreemptCtrl::default())
}

#[test]
fn export_passes_yosys_checks() {
    verilator::assert_yosys_clean(
        "preempt_ctrl",
        &[
            ("board", board_verilog()),
            (
                "full",
                hdl::preempt_ctrl::verilog(FullPreemptCtrl::default()),
            ),
            (
                "degenerate",
                hdl::preempt_ctrl::verilog(DegeneratePreemptCtrl::default()),
            ),
            (
                "small",
                hdl::preempt_ctrl::verilog(SmallPreemptCtrl::default()),
            ),
        ],
    );
}

#[test]
fn export_has_the_contract_ports() {
    verilator::assert_top_ports(
        &board_verilog(),
        Some(&[
            "clock",
            "reset",
            "launch_valid",
            "launch_ready",
            "launch_id",
            "launch_idem",
            "submit_valid",
            "submit_ready",
            "submit_id",
            "start_valid",
            "start_id",
            "done_valid",
            "done_id",
            "killed",
            "ack_valid",
            "ack_id",
            "ack_skip",
            "preempt",
            "resume",
            "cu_reset",
            "preempt_done",
            "preempted",
            "cfg_we",
            "cfg_max_inflight",
            "inflight",
            "error",
            "error_code",
        ]),
        &[
            "input wire clock;",
            "input wire reset;",
            "output reg launch_ready;",
            "input wire [7:0] launch_id;",
            "input wire launch_idem;",
            "output reg submit_valid;",
            "output reg [7:0] submit_id;",
            "input wire [7:0] start_id;",
            "input wire [7:0] done_id;",
            "input wire killed;",
            "output reg ack_valid;",
            "output reg [7:0] ack_id;",
            "output reg ack_skip;",
            "output reg cu_reset;",
            "output reg preempt_done;",
            "output reg preempted;",
            "input wire [3:0] cfg_max_inflight;",
            "output reg [3:0] inflight;",
            "output reg error;",
            "output reg [2:0] error_code;",
        ],
    );
}

#[test]
fn verilator_lint_is_clean() {
    verilator::assert_lint_clean(&board_verilog());
}

/// The exported Verilog under Verilator on 1.2 M cycles of random traces (8 seeds), compared
/// with the golden model every cycle and judged by the spec checker.
#[test]
fn verilator_replay_board_1m_cycles() {
    if !verilator::tool_available("verilator") {
        return;
    }
    let cfg = PreemptConfig::board();
    let v = board_verilog();
    for seed in 0..8u64 {
        let t = generate(cfg, 1000 + seed, 150_000, None);
        replay_checked(
            &format!("preempt_ctrl seed {seed}"),
            &v,
            &PreemptPorts(cfg),
            &t,
            &mut Model::new(cfg),
            &mut PreemptSpec::new(cfg),
        );
    }
}

/// Long regression (`LONG_REGRESSION=<cycles>`).
#[test]
fn verilator_long_regression() {
    let Some(cycles) = long_regression_cycles(10_000_000) else {
        return;
    };
    if !verilator::tool_available("verilator") {
        return;
    }
    let cfg = PreemptConfig::board();
    let t = generate(cfg, 77, cycles, None);
    replay_checked(
        "preempt_ctrl long regression",
        &board_verilog(),
        &PreemptPorts(cfg),
        &t,
        &mut Model::new(cfg),
        &mut PreemptSpec::new(cfg),
    );
}

/// The evaluation's qualitative outcome (README), pinned with margins over three seeds on
/// shorter runs (2 M cycles, about 20 preemptions each): with every kernel idempotent the
/// controller's p99 preemption latency is the CU-reset time (+ a few cycles) in every class and
/// far below waiting for every in-flight kernel (a); without idempotent kernels it still never
/// exceeds (a), because queued kernels skip at their start; blocking submission (b) loses most
/// of the BE throughput with short kernels; resetting long kernels costs re-run work.
#[test]
fn evaluation_outcome_holds_over_seeds() {
    use golden_model::preempt_ctrl::eval::{run, Policy, Workload};
    for seed in [1u64, 2, 3] {
        let w = |class, share| Workload::new(class, share, 2_000_000, seed);
        for class in 0..3 {
            let reset_all = run(Policy::Controller, &w(class, 1.0));
            let none_idem = run(Policy::Controller, &w(class, 0.0));
            let wait_all = run(Policy::WaitAll, &w(class, 0.0));
            let cu = reset_all.workload.gpu.cu_reset_time;
            assert!(reset_all.latencies.len() >= 10, "seed {seed} class {class}");
            assert!(
                reset_all.latency_pct(99.0) <= cu + 10,
                "seed {seed} class {class}: p99 {} with every kernel idempotent",
                reset_all.latency_pct(99.0)
            );
            assert!(
                none_idem.latency_pct(99.0) <= wait_all.latency_pct(99.0),
                "seed {seed} class {class}: skip-only p99 {} above wait-all {}",
                none_idem.latency_pct(99.0),
                wait_all.latency_pct(99.0)
            );
            if class > 0 {
                assert!(
                    4 * reset_all.latency_pct(99.0) < wait_all.latency_pct(99.0),
                    "seed {seed} class {class}: reset p99 {} vs wait-all {}",
                    reset_all.latency_pct(99.0),
                    wait_all.latency_pct(99.0)
                );
            }
        }
        let short_ctrl = run(Policy::Controller, &w(0, 0.0));
        let short_block = run(Policy::Blocking, &w(0, 0.0));
        assert!(
            short_ctrl.throughput_pct > 2.0 * short_block.throughput_pct,
            "seed {seed}: short kernels {:.1} % vs blocking {:.1} %",
            short_ctrl.throughput_pct,
            short_block.throughput_pct
        );
        let long_reset = run(Policy::Controller, &w(2, 1.0));
        let long_skip = run(Policy::Controller, &w(2, 0.0));
        assert!(
            long_reset.lost_pct > 2.0,
            "seed {seed}: lost {:.1}",
            long_reset.lost_pct
        );
        assert!(
            long_reset.throughput_pct < long_skip.throughput_pct,
            "seed {seed}"
        );
    }
}
