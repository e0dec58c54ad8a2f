//! Run finder family (SPEC Unit 2): RustHDL and exported Verilog against the golden model.
//!
//! - golden model: every variant against the plain-loop reference, every map and need, N ≤ 16;
//! - RustHDL simulation: exhaustive for N ≤ 16 (combinational forms), proptest lockstep with
//!   skewed maps for N = 32, 64, 128, pipelined forms cycle for cycle including their latency;
//! - exported Verilog: yosys check and Verilator replay against the golden model.
//!
//! Deeper runs: `PROPTEST_CASES=<n>`.

use golden_model::run_finder::*;
use hdl::run_finder::*;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use rust_hdl::prelude::*;
use testbench::lockstep::{compare_trace, proptest_cases, run_lockstep};
use testbench::rtl::{HdlDut, RtlSim};
use testbench::run_finder::*;
use testbench::spec::run_finder::{
    check_boundary_masks, FinderSpecChecker, Promise, TimeSharedSpecChecker,
};
use testbench::spec::{judge, SpecChecker};
use testbench::verilator::{replay, tool_available};

/// The spec checker of a finder config (what its variant promises, its latency).
fn spec_checker(c: &FinderConfig) -> FinderSpecChecker {
    let promise = match &c.variant {
        Variant::Exact | Variant::Tree => Promise::Exact,
        Variant::Grouped { g } => Promise::Grouped { g: *g },
        Variant::Sampled { lengths } => Promise::Sampled {
            lengths: lengths.clone(),
        },
    };
    FinderSpecChecker::new(c.n, promise, c.latency)
}

fn cfg(n: usize, v: Variant) -> FinderConfig {
    FinderConfig::new(n, v)
}
fn grouped(n: usize) -> FinderConfig {
    cfg(n, Variant::Grouped { g: 4 })
}
fn sampled(n: usize) -> FinderConfig {
    cfg(
        n,
        Variant::Sampled {
            lengths: golden_model::run_finder::sample_lengths(n),
        },
    )
}

// ---------------------------------------------------------------------------------------------
// Golden model vs reference, every N ≤ 16
// ---------------------------------------------------------------------------------------------

#[test]
fn golden_variants_vs_reference_exhaustive_n_le_16() {
    for n in 1..=16usize {
        let mut cfgs = vec![cfg(n, Variant::Exact), cfg(n, Variant::Tree), sampled(n)];
        for g in [2, 4, 8] {
            if n % g == 0 {
                cfgs.push(cfg(n, Variant::Grouped { g }));
            }
        }
        for c in cfgs {
            let spec = spec_checker(&c);
            for bits in 0..(1u128 << n) {
                for need in 0..=n + 1 {
                    let got = evaluate(&c, bits, need);
                    if let Err((rule, e)) = spec.judge(bits, need, &got) {
                        panic!("{c:?} bits {bits:b} need {need}: spec checker rule {rule}: {e}");
                    }
                    let (mr, ff) = (max_run(bits, n), first_fit(bits, n, need));
                    if matches!(c.variant, Variant::Exact | Variant::Tree) {
                        assert_eq!(
                            (got.max_run, got.fit_found, got.fit_start),
                            (mr, ff.is_some(), ff.unwrap_or(0))
                        );
                    } else {
                        assert!(got.max_run <= mr, "{c:?} {bits:b}");
                        if got.fit_found && need > 0 {
                            let w = ((1u128 << need) - 1) << got.fit_start;
                            assert!(
                                got.fit_start + need <= n && bits & w == w,
                                "{c:?} {bits:b} {need}"
                            );
                        }
                    }
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// RustHDL simulation
// ---------------------------------------------------------------------------------------------

/// Every map and every need (0..=N+1) through a combinational block.
fn exhaustive<D: HdlDut<In = FinderIn, Out = FinderOut>>(dut: D, cfg: FinderConfig) {
    let n = cfg.n;
    let mut rtl = RtlSim::new(dut);
    let mut model = FinderModel::new(cfg.clone());
    let inputs: Vec<FinderIn> = (0..1u128 << n)
        .flat_map(|bits| {
            (0..=(n + 1).min((1 << golden_model::count_bits(n)) - 1)).map(move |need| FinderIn {
                reset: false,
                bits,
                need,
            })
        })
        .collect();
    let mut spec = spec_checker(&cfg);
    run_lockstep(&mut model, &mut rtl, &inputs, |c, i, o| {
        spec.check(c, i, o)
            .map_err(|e| format!("spec checker: {e}"))
    })
    .unwrap_or_else(|e| panic!("{cfg:?}\n{e}"));
}

#[test]
fn tree_rtl_exhaustive() {
    exhaustive(RunTree::<8, 16, 4, 3>::default(), cfg(8, Variant::Tree));
    exhaustive(Tree16::default(), cfg(16, Variant::Tree));
}

#[test]
fn exact_rtl_exhaustive() {
    exhaustive(ShiftAnd::<1, 1, 1>::default(), cfg(1, Variant::Exact));
    exhaustive(ShiftAnd::<3, 2, 2>::default(), cfg(3, Variant::Exact));
    exhaustive(ShiftAnd::<5, 3, 3>::default(), cfg(5, Variant::Exact));
    exhaustive(ShiftAnd::<8, 4, 3>::default(), cfg(8, Variant::Exact));
    exhaustive(ShiftAnd::<12, 4, 4>::default(), cfg(12, Variant::Exact));
    exhaustive(Exact16::default(), cfg(16, Variant::Exact));
}

#[test]
fn grouped_rtl_exhaustive() {
    exhaustive(
        Grouped::<8, 2, 4, 4, 3, 3, 2>::default(),
        cfg(8, Variant::Grouped { g: 2 }),
    );
    exhaustive(Grouped::<8, 4, 2, 4, 3, 2, 1>::default(), grouped(8));
    exhaustive(Grouped::<12, 4, 3, 4, 4, 2, 2>::default(), grouped(12));
    exhaustive(Grouped16::default(), grouped(16));
}

#[test]
fn sampled_rtl_exhaustive() {
    exhaustive(Sampled::<8, 8, 4, 3>::default(), sampled(8));
    exhaustive(Sampled::<12, 10, 4, 4>::default(), sampled(12));
    exhaustive(Sampled16::default(), sampled(16));
}

/// Proptest lockstep of a block against the golden model over skewed traces.
fn lockstep_prop<D, F>(make: F, cfg: FinderConfig, cases: u32, len: usize)
where
    D: HdlDut<In = FinderIn, Out = FinderOut>,
    F: Fn() -> D,
{
    let mut runner = TestRunner::new(Config {
        cases: proptest_cases(cases),
        ..Config::default()
    });
    let n = cfg.n;
    runner
        .run(&finder_trace(n, len), |trace| {
            let mut model = FinderModel::new(cfg.clone());
            let mut rtl = RtlSim::new(make());
            let mut spec = spec_checker(&cfg);
            run_lockstep(&mut model, &mut rtl, &trace, |c, i, o| {
                spec.check(c, i, o)
                    .map_err(|e| format!("spec checker: {e}"))
            })
            .map_err(TestCaseError::fail)?;
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{cfg:?}: {e}"));
}

#[test]
fn comb_rtl_proptest_32_64() {
    lockstep_prop(Tree32::default, cfg(32, Variant::Tree), 24, 24);
    lockstep_prop(Tree64::default, cfg(64, Variant::Tree), 12, 16);
    lockstep_prop(Exact32::default, cfg(32, Variant::Exact), 24, 24);
    lockstep_prop(Exact64::default, cfg(64, Variant::Exact), 8, 16);
    lockstep_prop(Grouped32::default, grouped(32), 24, 24);
    lockstep_prop(Grouped64::default, grouped(64), 12, 16);
    lockstep_prop(Sampled32::default, sampled(32), 24, 24);
    lockstep_prop(Sampled64::default, sampled(64), 8, 16);
}

#[test]
fn comb_rtl_proptest_128() {
    lockstep_prop(Tree128::default, cfg(128, Variant::Tree), 4, 8);
    lockstep_prop(Grouped128::default, grouped(128), 4, 8);
    lockstep_prop(Sampled128::default, sampled(128), 3, 8);
    lockstep_prop(Exact128::default, cfg(128, Variant::Exact), 2, 4);
}

#[test]
fn pipelined_rtl_proptest() {
    lockstep_prop(
        RunTreePipe::<8, 16, 4, 3>::default,
        cfg(8, Variant::Tree).pipelined(1),
        64,
        40,
    );
    lockstep_prop(
        RunTreePipe::<32, 64, 6, 5>::default,
        cfg(32, Variant::Tree).pipelined(3),
        16,
        40,
    );
    // the README's headline design: more than a couple of short cases
    lockstep_prop(
        RunTreePipe::<128, 256, 8, 7>::default,
        cfg(128, Variant::Tree).pipelined(5),
        10,
        24,
    );
    // Root level unregistered: latency log2(N) − 3 (0 at N = 8: combinational).
    lockstep_prop(
        || RunTreePipe::<8, 16, 4, 3>::with_root_register(false),
        cfg(8, Variant::Tree).pipelined(0),
        32,
        40,
    );
    lockstep_prop(
        || RunTreePipe::<32, 64, 6, 5>::with_root_register(false),
        cfg(32, Variant::Tree).pipelined(2),
        16,
        40,
    );
    lockstep_prop(
        || RunTreePipe::<128, 256, 8, 7>::with_root_register(false),
        cfg(128, Variant::Tree).pipelined(4),
        2,
        16,
    );
    lockstep_prop(
        RunTreeReg::<32, 64, 6, 5>::default,
        cfg(32, Variant::Tree).pipelined(2),
        8,
        24,
    );
    lockstep_prop(
        ShiftAndReg::<32, 6, 5>::default,
        cfg(32, Variant::Exact).pipelined(2),
        8,
        24,
    );
    lockstep_prop(
        GroupedReg::<32, 4, 8, 6, 5, 4, 3>::default,
        grouped(32).pipelined(2),
        8,
        24,
    );
    lockstep_prop(
        SampledReg::<32, 16, 6, 5>::default,
        sampled(32).pipelined(2),
        8,
        24,
    );
}

/// The worked example of the module doc.
#[test]
fn worked_example() {
    let i = FinderIn {
        reset: false,
        bits: 0b0111_0110,
        need: 3,
    };
    let mut t = RtlSim::new(RunTree::<8, 16, 4, 3>::default());
    assert_eq!(
        golden_model::CycleModel::step(&mut t, &i),
        FinderOut {
            max_run: 3,
            fit_found: true,
            fit_start: 4
        }
    );
    let mut g = RtlSim::new(Grouped::<8, 4, 2, 4, 3, 2, 1>::default());
    assert_eq!(
        golden_model::CycleModel::step(&mut g, &i),
        FinderOut {
            max_run: 0,
            fit_found: false,
            fit_start: 0
        }
    );
}

// ---------------------------------------------------------------------------------------------
// Exported Verilog: yosys check and Verilator replay against the golden model
// ---------------------------------------------------------------------------------------------

fn verilog_of<B: Block + Default>() -> String {
    verilog_of_block(B::default())
}

fn verilog_of_block<B: Block>(mut b: B) -> String {
    b.connect_all();
    generate_verilog(&b)
}

/// `count` skewed inputs for an `n`-block finder (deterministic), with resets if `resets`.
fn sample_inputs(n: usize, count: usize, resets: bool) -> Vec<FinderIn> {
    use proptest::strategy::ValueTree;
    let mut runner = TestRunner::deterministic();
    let strat = finder_trace(n, 64);
    let mut out = Vec::new();
    while out.len() < count {
        let mut t = strat.new_tree(&mut runner).unwrap().current();
        if !resets {
            t.iter_mut().for_each(|i| i.reset = false);
        }
        out.extend(t);
    }
    out
}

/// The exported designs that Verilator replays: (name, Verilog, config, clocked).
fn exported() -> Vec<(&'static str, String, FinderConfig, bool)> {
    let mut v = exported_contract();
    v.extend(exported_deep());
    v
}

/// The combinational exports of the contract (`synth export`) plus the small pipelined tree.
fn exported_contract() -> Vec<(&'static str, String, FinderConfig, bool)> {
    let mut v = exported_combinational();
    v.extend(exported_clocked());
    v
}

/// The combinational exports of the contract.
fn exported_combinational() -> Vec<(&'static str, String, FinderConfig, bool)> {
    vec![
        (
            "exact_32",
            verilog_of::<Exact32>(),
            cfg(32, Variant::Exact),
            false,
        ),
        (
            "exact_128",
            verilog_of::<Exact128>(),
            cfg(128, Variant::Exact),
            false,
        ),
        ("grouped_32", verilog_of::<Grouped32>(), grouped(32), false),
        (
            "grouped_128",
            verilog_of::<Grouped128>(),
            grouped(128),
            false,
        ),
        ("sampled_32", verilog_of::<Sampled32>(), sampled(32), false),
        (
            "sampled_128",
            verilog_of::<Sampled128>(),
            sampled(128),
            false,
        ),
        (
            "tree_32",
            verilog_of::<Tree32>(),
            cfg(32, Variant::Tree),
            false,
        ),
        (
            "tree_128",
            verilog_of::<Tree128>(),
            cfg(128, Variant::Tree),
            false,
        ),
    ]
}

/// The clocked exports of the contract (the pipelined trees).
fn exported_clocked() -> Vec<(&'static str, String, FinderConfig, bool)> {
    vec![
        (
            "tree_pipe_32",
            verilog_of::<RunTreePipe<32, 64, 6, 5>>(),
            cfg(32, Variant::Tree).pipelined(3),
            true,
        ),
        (
            "tree_pipe_128",
            verilog_of::<RunTreePipe<128, 256, 8, 7>>(),
            cfg(128, Variant::Tree).pipelined(5),
            true,
        ),
        (
            "tree_pipe_out_32",
            verilog_of_block(RunTreePipe::<32, 64, 6, 5>::with_root_register(false)),
            cfg(32, Variant::Tree).pipelined(2),
            true,
        ),
    ]
}

/// Large registered/pipelined exports (Verilator builds take a minute or more).
fn exported_deep() -> Vec<(&'static str, String, FinderConfig, bool)> {
    vec![
        (
            "tree_pipe_out_128",
            verilog_of_block(RunTreePipe::<128, 256, 8, 7>::with_root_register(false)),
            cfg(128, Variant::Tree).pipelined(4),
            true,
        ),
        (
            "tree_reg_32",
            verilog_of::<RunTreeReg<32, 64, 6, 5>>(),
            cfg(32, Variant::Tree).pipelined(2),
            true,
        ),
        (
            "exact_reg_32",
            verilog_of::<ShiftAndReg<32, 6, 5>>(),
            cfg(32, Variant::Exact).pipelined(2),
            true,
        ),
        (
            "grouped_reg_128",
            verilog_of::<GroupedReg<128, 4, 32, 8, 7, 6, 5>>(),
            grouped(128).pipelined(2),
            true,
        ),
        (
            "sampled_reg_128",
            verilog_of::<SampledReg<128, 24, 8, 7>>(),
            sampled(128).pipelined(2),
            true,
        ),
    ]
}

#[test]
fn exported_verilog_passes_yosys_check() {
    let designs: Vec<(&str, String)> = exported().into_iter().map(|(n, v, _, _)| (n, v)).collect();
    for (name, v) in &designs {
        assert!(
            v.starts_with("\n\nmodule top(") || v.contains("module top("),
            "{name}: top module"
        );
    }
    testbench::verilator::assert_yosys_clean("run_finder", &designs);
}

fn replay_all(designs: Vec<(&'static str, String, FinderConfig, bool)>) {
    if !tool_available("verilator") {
        return;
    }
    let count = proptest_cases(2000) as usize;
    for (name, v, c, clocked) in designs {
        let inputs = sample_inputs(c.n, count, clocked);
        let ports = FinderPorts { n: c.n, clocked };
        let got = replay(&v, &ports, &inputs).unwrap_or_else(|e| panic!("{name}: {e:#}"));
        let mut model = FinderModel::new(c.clone());
        compare_trace(&mut model, &inputs, &got).unwrap_or_else(|e| panic!("{name}:\n{e}"));
        judge(&mut spec_checker(&c), &inputs, &got).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

/// The combinational exports (eight Verilator builds).
#[test]
fn exported_verilog_replays_under_verilator() {
    replay_all(exported_combinational());
}

/// The clocked exports: a test of their own, so that the two test threads share the builds.
#[test]
fn exported_clocked_verilog_replays_under_verilator() {
    replay_all(exported_clocked());
}

/// `cargo test --test run_finder -- --ignored`: the 128-bit pipelined and registered exports.
#[test]
#[ignore]
fn exported_verilog_replays_under_verilator_deep() {
    replay_all(exported_deep());
}

// ---------------------------------------------------------------------------------------------
// Time-shared finder (emb. 7)
// ---------------------------------------------------------------------------------------------

use hdl::run_finder::time_shared::TimeShared128;

/// The patent's example: 128 in cycle 0, 64 ‖ 48 side by side in cycle 1; the masks keep the two
/// all-free maps apart (64 and 48, not 112).
#[test]
fn time_shared_patent_example_rtl() {
    use golden_model::CycleModel;
    let mut rtl = RtlSim::new(TimeShared128::default());
    let maps = vec![((1u128 << 100) - 1) << 20, u128::MAX, u128::MAX];
    let i = TimeSharedIn { reset: false, maps };
    let mut spec = TimeSharedSpecChecker::new(&TimeShared::patent_example());
    assert_eq!(
        rtl.step(&i),
        TimeSharedOut {
            slot_cycle: 0,
            max_run: vec![0, 0, 0]
        }
    );
    assert_eq!(
        rtl.step(&i),
        TimeSharedOut {
            slot_cycle: 1,
            max_run: vec![100, 0, 0]
        }
    );
    assert_eq!(
        rtl.step(&i),
        TimeSharedOut {
            slot_cycle: 0,
            max_run: vec![100, 64, 48]
        }
    );
    // the same three cycles through the spec checker
    let mut rtl = RtlSim::new(TimeShared128::default());
    for c in 0..3 {
        let o = rtl.step(&i);
        spec.check(c, &i, &o).unwrap_or_else(|e| panic!("{e}"));
    }
}

#[test]
fn time_shared_rtl_proptest() {
    let mut runner = TestRunner::new(Config {
        cases: proptest_cases(3),
        ..Config::default()
    });
    runner
        .run(&time_shared_trace(12), |trace| {
            let mut model = TimeSharedModel::new(TimeShared::patent_example());
            let mut rtl = RtlSim::new(TimeShared128::default());
            let mut spec = TimeSharedSpecChecker::new(&TimeShared::patent_example());
            run_lockstep(&mut model, &mut rtl, &trace, |c, i, o| {
                spec.check(c, i, o)
                    .map_err(|e| format!("spec checker: {e}"))
            })
            .map_err(TestCaseError::fail)?;
            Ok(())
        })
        .unwrap();
}

#[test]
fn time_shared_verilog_replays_under_verilator() {
    if !tool_available("verilator") || !tool_available("yosys") {
        return;
    }
    let v = verilog_of::<TimeShared128>();
    yosys_validate("run_finder_time_shared", &v).unwrap_or_else(|e| panic!("{e:?}"));
    use proptest::strategy::ValueTree;
    let mut runner = TestRunner::deterministic();
    let mut inputs = Vec::new();
    while inputs.len() < proptest_cases(400) as usize {
        inputs.extend(
            time_shared_trace(32)
                .new_tree(&mut runner)
                .unwrap()
                .current(),
        );
    }
    let got = replay(&v, &TimeSharedPorts, &inputs).unwrap();
    let mut model = TimeSharedModel::new(TimeShared::patent_example());
    compare_trace(&mut model, &inputs, &got).unwrap_or_else(|e| panic!("{e}"));
    judge(
        &mut TimeSharedSpecChecker::new(&TimeShared::patent_example()),
        &inputs,
        &got,
    )
    .unwrap_or_else(|e| panic!("{e}"));
}

// ---------------------------------------------------------------------------------------------
// Negative tests: every rule of the finder checkers fires on a corrupted trace
// ---------------------------------------------------------------------------------------------

/// The model's outputs for `cfg` on a seeded random trace (no resets after the first cycle).
fn model_trace(cfg: &FinderConfig, len: usize) -> (Vec<FinderIn>, Vec<FinderOut>) {
    use golden_model::CycleModel;
    use proptest::strategy::ValueTree;
    let mut runner = TestRunner::deterministic();
    let input = finder_input(cfg.n);
    let mut t = vec![FinderIn {
        reset: true,
        bits: 0,
        need: 0,
    }];
    while t.len() < len {
        t.push(input.new_tree(&mut runner).unwrap().current());
    }
    let mut m = FinderModel::new(cfg.clone());
    let o = t.iter().map(|i| m.step(i)).collect();
    (t, o)
}

/// `judge` fails with `rule` at `cycle`.
fn fires<C: SpecChecker>(mut c: C, i: &[C::In], o: &[C::Out], rule: &str, cycle: usize) {
    match judge(&mut c, i, o) {
        Err(v) => assert_eq!(
            (v.rule, v.cycle),
            (rule, cycle),
            "expected {rule} at {cycle}, got {v}"
        ),
        Ok(()) => panic!("rule {rule} did not fire (expected at cycle {cycle})"),
    }
}

/// The finder configs of the negative tests, each pipelined by 2 (so `reset` has a bubble).
fn negative_cfgs() -> Vec<FinderConfig> {
    vec![
        cfg(32, Variant::Tree).pipelined(2),
        cfg(32, Variant::Exact).pipelined(2),
        grouped(32).pipelined(2),
        sampled(32).pipelined(2),
    ]
}

fn prefix(c: &FinderConfig) -> &'static str {
    match c.variant {
        Variant::Exact | Variant::Tree => "exact",
        Variant::Grouped { .. } => "grouped",
        Variant::Sampled { .. } => "sampled",
    }
}

/// The unmodified model traces pass; then one corrupted answer per rule fires that rule at
/// that cycle: `fit-start`, `<variant>-max-run` (one more, one less), `<variant>-fit` (a fit
/// moved, a fit hidden), `reset` (an answer in the bubble after a reset).
#[test]
fn finder_checker_rules_fire_on_corrupted_traces() {
    for c in negative_cfgs() {
        let (t, o) = model_trace(&c, 400);
        judge(&mut spec_checker(&c), &t, &o).unwrap_or_else(|e| panic!("{c:?}: {e}"));
        let p = prefix(&c);
        let max_rule: &'static str = match p {
            "exact" => "exact-max-run",
            "grouped" => "grouped-max-run",
            _ => "sampled-max-run",
        };
        let fit_rule: &'static str = match p {
            "exact" => "exact-fit",
            "grouped" => "grouped-fit",
            _ => "sampled-fit",
        };
        // fit-start: no fit, but a start
        let k = (5..o.len()).find(|&k| !o[k].fit_found).expect("a miss");
        let mut bad = o.clone();
        bad[k].fit_start = 1;
        fires(spec_checker(&c), &t, &bad, "fit-start", k);
        // max run one more, and one less (an under-reporting approximate finder)
        let k = (5..o.len())
            .find(|&k| o[k].max_run > 0)
            .expect("a free run");
        for d in [1isize, -1] {
            let mut bad = o.clone();
            bad[k].max_run = (o[k].max_run as isize + d) as usize;
            fires(spec_checker(&c), &t, &bad, max_rule, k);
        }
        // fit moved by one block, and a fit hidden
        let k = (5..o.len())
            .find(|&k| o[k].fit_found && o[k].fit_start > 0)
            .expect("a fit above block 0");
        let mut bad = o.clone();
        bad[k].fit_start -= 1;
        fires(spec_checker(&c), &t, &bad, fit_rule, k);
        let mut bad = o.clone();
        bad[k].fit_found = false;
        bad[k].fit_start = 0;
        fires(spec_checker(&c), &t, &bad, fit_rule, k);
        // reset: the answer to the reset cycle's input shows up in the bubble
        let mut bad = o.clone();
        bad[2].max_run = 1;
        fires(spec_checker(&c), &t, &bad, "reset", 2);
    }
}

/// A finder that always answers "0, no fit" fails every variant's checker at the first
/// answered cycle with a free block (`<variant>-max-run`); the exact promise of a grouped or
/// sampled finder is not met by an under-reporting one either.
#[test]
fn finder_that_never_fits_fails_every_checker() {
    for c in negative_cfgs() {
        let (t, o) = model_trace(&c, 200);
        let zero = vec![FinderOut::default(); o.len()];
        let k = (0..o.len())
            .find(|&k| o[k] != FinderOut::default())
            .expect("some answer");
        let rule = if o[k].max_run > 0 {
            format!("{}-max-run", prefix(&c))
        } else {
            format!("{}-fit", prefix(&c))
        };
        fires(spec_checker(&c), &t, &zero, &rule, k);
    }
    // the exact promise on a grouped finder's answers fails where grouping loses blocks
    let g = grouped(32);
    let (t, o) = model_trace(&g, 200);
    let k = (1..t.len())
        .find(|&k| o[k].max_run != max_run(t[k].bits, 32))
        .expect("a map where grouping under-reports");
    fires(
        FinderSpecChecker::new(32, Promise::Exact, 0),
        &t,
        &o,
        "exact-max-run",
        k,
    );
}

/// Grouped and sampled are judged exactly, not only as conservative: a grouped answer taken
/// from the exact finder (more than the AND-reduced map allows, though free) fires
/// `grouped-max-run` / `grouped-fit`; a sampled `max_run` that is not a sampled length fires
/// `sampled-max-run`.
#[test]
fn approximate_finders_are_judged_exactly() {
    let g = grouped(32);
    let (t, o) = model_trace(&g, 300);
    let exact_o: Vec<FinderOut> = t
        .iter()
        .map(|i| evaluate(&cfg(32, Variant::Exact), i.bits, i.need))
        .collect();
    let k = (1..t.len())
        .find(|&k| exact_o[k].max_run != o[k].max_run)
        .expect("a map where grouping loses blocks");
    let mut bad = o.clone();
    bad[k] = exact_o[k];
    fires(
        FinderSpecChecker::new(32, Promise::Grouped { g: 4 }, 0),
        &t,
        &bad,
        "grouped-max-run",
        k,
    );
    let s = sampled(32);
    let lengths = golden_model::run_finder::sample_lengths(32);
    let (t, o) = model_trace(&s, 400);
    let k = (1..t.len())
        .find(|&k| !lengths.contains(&max_run(t[k].bits, 32)))
        .expect("a longest run that is not a sampled length");
    let mut bad = o.clone();
    bad[k].max_run = max_run(t[k].bits, 32);
    fires(
        FinderSpecChecker::new(32, Promise::Sampled { lengths }, 0),
        &t,
        &bad,
        "sampled-max-run",
        k,
    );
}

/// The time-shared checker: the model passes; `ts-width`, `ts-schedule`, `ts-result` (a run
/// read across the 64 ‖ 48 boundary: 112) fire on corrupted outputs at the corrupted cycle; a
/// boundary-mask function that ignores the slots fires `ts-mask`, the model's own masks pass.
#[test]
fn time_shared_checker_rules_fire_on_corrupted_traces() {
    use golden_model::CycleModel;
    use proptest::strategy::ValueTree;
    let ts = TimeShared::patent_example();
    let mut runner = TestRunner::deterministic();
    let mut t = time_shared_trace(200)
        .new_tree(&mut runner)
        .unwrap()
        .current();
    // all free from cycle 10 on for a few cycles: the boundary case
    for i in t.iter_mut().skip(10).take(4) {
        *i = TimeSharedIn {
            reset: false,
            maps: vec![u128::MAX, u128::MAX, u128::MAX],
        };
    }
    t.truncate(40);
    let mut m = TimeSharedModel::new(ts.clone());
    let o: Vec<TimeSharedOut> = t.iter().map(|i| m.step(i)).collect();
    judge(&mut TimeSharedSpecChecker::new(&ts), &t, &o).unwrap_or_else(|e| panic!("{e}"));
    // the all-free resources 1 and 2 show 64 and 48 at cycle 12 or 13 (after a slot-1 cycle)
    let k = (12..14)
        .find(|&k| o[k].max_run[1] == 64)
        .expect("64 after the all-free cycles");
    assert_eq!(o[k].max_run[2], 48);
    let mut bad = o.clone();
    bad[k].max_run[1] = 112;
    fires(TimeSharedSpecChecker::new(&ts), &t, &bad, "ts-result", k);
    let mut bad = o.clone();
    bad[k].max_run.pop();
    fires(TimeSharedSpecChecker::new(&ts), &t, &bad, "ts-width", k);
    let mut bad = o.clone();
    bad[k].slot_cycle ^= 1;
    fires(TimeSharedSpecChecker::new(&ts), &t, &bad, "ts-schedule", k);
    // a finder that always answers 0 fails as soon as a result is due
    let zero: Vec<TimeSharedOut> = o
        .iter()
        .map(|x| TimeSharedOut {
            slot_cycle: x.slot_cycle,
            max_run: vec![0; 3],
        })
        .collect();
    let k = (0..o.len()).find(|&k| o[k].max_run != vec![0; 3]).unwrap();
    fires(TimeSharedSpecChecker::new(&ts), &t, &zero, "ts-result", k);
    // boundary masks
    check_boundary_masks(&ts, |c, s| ts.boundary_mask(c, s)).unwrap_or_else(|e| panic!("{e}"));
    let no_boundary = |_: usize, s: usize| if s < 128 { u128::MAX >> s } else { 0 };
    match check_boundary_masks(&ts, no_boundary) {
        Err(v) => assert_eq!((v.rule, v.cycle), ("ts-mask", 1), "{v}"),
        Ok(()) => panic!("ts-mask did not fire"),
    }
}
