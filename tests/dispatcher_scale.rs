//! Patent-scale dispatcher sub-blocks (`hdl::dispatcher_scale`, design
//! `docs/dispatcher_scale.md`): each block in lockstep with its cycle model
//! (`golden_model::dispatcher_scale`) and judged by its contract checker
//! (`testbench::dispatcher_scale`, written from the design alone), at small, board and full
//! widths; the full width also on Verilator; exports through yosys and Verilator lint; the
//! checkers shown to reject corrupted traces with the rule named.
//!
//! Deeper runs: `PROPTEST_CASES=<n>`.

use golden_model::dispatcher_scale::*;
use golden_model::CycleModel;
use hdl::dispatcher_scale::*;
use proptest::prelude::*;
use testbench::dispatcher_scale::*;
use testbench::lockstep::{proptest_cases, replay_checked, run_cases, run_lockstep};
use testbench::rtl::{HdlDut, RtlSim};
use testbench::spec::{judge, SpecChecker};
use testbench::suite::assert_port_table;
use testbench::verilator::{assert_lint_clean, assert_yosys_clean, tool_available};

const STYLES: [Style; 4] = [Style::Idle, Style::EveryCycle, Style::Bursts, Style::Mixed];

fn style() -> impl Strategy<Value = Style> {
    prop::sample::select(STYLES.to_vec())
}

fn model_outputs(cfg: RunCacheConfig, trace: &[RunCacheIn]) -> Vec<RunCacheOut> {
    let mut m = RunCacheModel::new(cfg);
    trace.iter().map(|i| m.step(i)).collect()
}

/// RustHDL lockstep against the model, every cycle also judged by the contract checker.
fn lockstep<D>(dut: D, cfg: RunCacheConfig, trace: &[RunCacheIn]) -> Result<(), String>
where
    D: HdlDut<In = RunCacheIn, Out = RunCacheOut>,
{
    let mut model = RunCacheModel::new(cfg);
    let mut rtl = RtlSim::new(dut);
    let mut contract = RunCacheContract::new(cfg);
    run_lockstep(&mut model, &mut rtl, trace, |c, i, o| {
        contract.check(c, i, o).map_err(|v| v.to_string())
    })
}

#[test]
fn run_cache_model_meets_its_contract() {
    for cfg in [
        RunCacheConfig::small(),
        RunCacheConfig::board(),
        RunCacheConfig::full(),
    ] {
        for (n, s) in STYLES.iter().enumerate() {
            for seed in 0..8u64 {
                let trace = run_cache_trace(cfg, *s, seed * 31 + n as u64, 2_000);
                let out = model_outputs(cfg, &trace);
                judge(&mut RunCacheContract::new(cfg), &trace, &out)
                    .unwrap_or_else(|v| panic!("{cfg:?} {s:?} seed {seed}: {v}"));
                // the stimulus reaches both states of `eligible`
                if *s != Style::EveryCycle {
                    assert!(out.iter().any(|o| o.eligible), "{s:?}: never eligible");
                }
                assert!(out.iter().any(|o| !o.eligible));
            }
        }
    }
}

#[test]
fn run_cache_rtl_lockstep_small_and_board() {
    run_cases(
        proptest_cases(64),
        &(style(), any::<u64>(), 50usize..1500),
        |(s, seed, n)| {
            let small = RunCacheConfig::small();
            let trace = run_cache_trace(small, *s, *seed, *n);
            lockstep(RunCacheSmall::default(), small, &trace)?;
            let board = RunCacheConfig::board();
            let trace = run_cache_trace(board, *s, *seed, *n);
            lockstep(RunCacheBoard::default(), board, &trace)
        },
    );
}

#[test]
fn run_cache_rtl_lockstep_full_width() {
    // RustHDL simulates 128-bit maps slowly: a few short traces here, the long run on Verilator.
    let cfg = RunCacheConfig::full();
    for (n, s) in STYLES.iter().enumerate() {
        let trace = run_cache_trace(cfg, *s, 1000 + n as u64, 1000);
        lockstep(RunCacheFull::default(), cfg, &trace).unwrap_or_else(|e| panic!("{s:?}: {e}"));
    }
}

#[test]
fn run_cache_full_width_on_verilator() {
    if !tool_available("verilator") {
        return;
    }
    let cfg = RunCacheConfig::full();
    let v = run_cache_verilog::<RunCacheFull>();
    let mut trace = vec![];
    for (n, s) in STYLES.iter().enumerate() {
        trace.extend(run_cache_trace(cfg, *s, 77 + n as u64, 25_000));
    }
    replay_checked(
        "run cache (full widths)",
        &v,
        &RunCachePorts(cfg),
        &trace,
        &mut RunCacheModel::new(cfg),
        &mut RunCacheContract::new(cfg),
    );
}

/// A run-cache export (`unit` names the yosys work files): its top has exactly the port table's
/// ports, Verilator lint reports nothing (UNOPTFLAT, which every RustHDL block with a
/// combinational child reports, is waived by `testbench::verilator::lint`: the parent's one
/// `always` block drives the child's inputs and reads its outputs, a false loop at block
/// granularity; yosys sees no loop) and yosys finds no latch or undriven net.
fn assert_run_cache_export_clean(unit: &str, name: &str, cfg: RunCacheConfig, v: String) {
    assert_port_table(&format!("{unit} {name}"), &v, &RunCachePorts(cfg));
    assert_lint_clean(&v);
    assert_yosys_clean(unit, &[(name, v)]);
}

#[test]
fn run_cache_exports_are_clean_and_match_the_port_table() {
    for (name, cfg, v) in [
        (
            "full",
            RunCacheConfig::full(),
            run_cache_verilog::<RunCacheFull>(),
        ),
        (
            "board",
            RunCacheConfig::board(),
            run_cache_verilog::<RunCacheBoard>(),
        ),
    ] {
        assert_run_cache_export_clean("dispatcher_scale_run_cache", name, cfg, v);
    }
}

/// Corrupt one output of a correct trace; the checker must reject it with `rule`.
fn rejects(
    cfg: RunCacheConfig,
    trace: &[RunCacheIn],
    rule: &str,
    corrupt: impl Fn(&[RunCacheIn], &mut Vec<RunCacheOut>) -> bool,
) {
    let mut out = model_outputs(cfg, trace);
    assert!(corrupt(trace, &mut out), "{rule}: nothing to corrupt");
    let v = judge(&mut RunCacheContract::new(cfg), trace, &out)
        .expect_err(&format!("{rule}: corrupted trace accepted"));
    assert_eq!(v.rule, rule, "{v}");
}

#[test]
fn run_cache_contract_rejects_corrupted_traces() {
    let cfg = RunCacheConfig::board();
    let trace = run_cache_trace(cfg, Style::Bursts, 5, 600);
    // eligible one cycle too early (the first cycle it rises)
    rejects(cfg, &trace, "eligible-timing", |_, out| {
        let t = (1..out.len()).find(|&t| out[t].eligible && !out[t - 1].eligible);
        t.map(|t| out[t - 1].eligible = true).is_some()
    });
    // eligible one cycle late
    rejects(cfg, &trace, "eligible-timing", |_, out| {
        let t = (1..out.len()).find(|&t| out[t].eligible && !out[t - 1].eligible);
        t.map(|t| out[t].eligible = false).is_some()
    });
    // a stale run while eligible
    rejects(cfg, &trace, "eligible-exact", |_, out| {
        // (cycle 0 is before the first reset: nothing is promised there)
        let t = (1..out.len()).find(|&t| out[t].eligible);
        t.map(|t| out[t].run_sgpr1 ^= 1).is_some()
    });
    // a run no map value had (while ineligible, the exactness rule does not apply)
    rejects(cfg, &trace, "run-held", |_, out| {
        let t = (20..out.len()).find(|&t| !out[t].eligible);
        t.map(|t| out[t].run_vgpr2 = 17).is_some()
    });
    // stimulus: a map that changes without being announced
    let mut bad = trace.clone();
    let t = (30..bad.len()).find(|&t| bad[t - 1].change == 0 && !bad[t - 1].reset);
    let t = t.expect("an idle cycle");
    for i in bad.iter_mut().skip(t) {
        i.lds ^= 1;
    }
    rejects(cfg, &bad, "announced", |_, _| true);
}

// ---------------------------------------------------------------------------------------------
// Run cache with the pipelined refresher (block 1, 100 MHz form): K = 7 + D
// ---------------------------------------------------------------------------------------------

fn pipe_outputs(cfg: RunCacheConfig, trace: &[RunCacheIn]) -> Vec<RunCacheOut> {
    let mut m = RunCacheModel::pipelined(cfg);
    trace.iter().map(|i| m.step(i)).collect()
}

/// The pipelined cache's contract: the one-cycle cache's with K = 7 + D.
fn pipe_contract(cfg: RunCacheConfig) -> RunCacheContract {
    RunCacheContract::with_k(cfg, pipe_refresh_latency(cfg.vgpr))
}

/// RustHDL lockstep of a pipelined cache against the model, judged by the contract every cycle.
fn lockstep_pipe<D>(dut: D, cfg: RunCacheConfig, trace: &[RunCacheIn]) -> Result<(), String>
where
    D: HdlDut<In = RunCacheIn, Out = RunCacheOut>,
{
    let mut model = RunCacheModel::pipelined(cfg);
    let mut rtl = RtlSim::new(dut);
    let mut contract = pipe_contract(cfg);
    run_lockstep(&mut model, &mut rtl, trace, |c, i, o| {
        contract.check(c, i, o).map_err(|v| v.to_string())
    })
}

#[test]
fn run_cache_pipe_latency_is_the_models() {
    // K of the RTL (its countdown constant) = K of the model = 7 slots + D
    assert_eq!(RunCachePipeFull::refresh_latency(), 12);
    assert_eq!(
        pipe_refresh_latency(128),
        RunCachePipeFull::refresh_latency()
    );
    assert_eq!(pipe_delay(128), RunCachePipeFull::DELAY);
    assert_eq!(
        pipe_refresh_latency(16),
        RunCachePipeSmall::refresh_latency()
    );
    assert_eq!(
        pipe_refresh_latency(16),
        RunCachePipeBoard::refresh_latency()
    );
    assert_eq!(RunCacheModel::pipelined(RunCacheConfig::full()).k(), 12);
}

#[test]
fn run_cache_pipe_model_meets_its_contract() {
    let mut in_flight_changes = 0usize;
    for cfg in [
        RunCacheConfig::small(),
        RunCacheConfig::board(),
        RunCacheConfig::full(),
    ] {
        let d = pipe_delay(cfg.vgpr);
        for (n, s) in STYLES.iter().enumerate() {
            for seed in 0..8u64 {
                let trace = run_cache_trace(cfg, *s, seed * 31 + n as u64, 2_000);
                let out = pipe_outputs(cfg, &trace);
                judge(&mut pipe_contract(cfg), &trace, &out)
                    .unwrap_or_else(|v| panic!("{cfg:?} {s:?} seed {seed}: {v}"));
                if *s != Style::EveryCycle {
                    assert!(out.iter().any(|o| o.eligible), "{s:?}: never eligible");
                }
                assert!(out.iter().any(|o| !o.eligible));
                // the stimulus writes maps whose slot is in flight: a change within D cycles
                // after an earlier change of the same map with a quiet cycle between (the
                // earlier change's pick can be under way)
                for t in 2..trace.len() {
                    let c = trace[t].change;
                    if c != 0 && !trace[t].reset && trace[t - 1].change & c == 0 {
                        let back = (2..=d.min(t)).any(|b| trace[t - b].change & c != 0);
                        in_flight_changes += usize::from(back);
                    }
                }
            }
        }
    }
    assert!(in_flight_changes > 1_000, "{in_flight_changes}");
}

#[test]
fn run_cache_pipe_is_judged_with_its_own_k() {
    // the pipelined cache does not meet K = 7: the checker's K is what it judges
    let cfg = RunCacheConfig::full();
    let trace = run_cache_trace(cfg, Style::Bursts, 3, 800);
    let out = pipe_outputs(cfg, &trace);
    let v = judge(&mut RunCacheContract::new(cfg), &trace, &out).expect_err("K = 7 accepted");
    assert_eq!(v.rule, "eligible-timing", "{v}");
}

#[test]
fn run_cache_pipe_rtl_lockstep_small_and_board() {
    run_cases(
        proptest_cases(32),
        &(style(), any::<u64>(), 50usize..1500),
        |(s, seed, n)| {
            let small = RunCacheConfig::small();
            let trace = run_cache_trace(small, *s, *seed, *n);
            lockstep_pipe(RunCachePipeSmall::default(), small, &trace)?;
            let board = RunCacheConfig::board();
            let trace = run_cache_trace(board, *s, *seed, *n);
            lockstep_pipe(RunCachePipeBoard::default(), board, &trace)
        },
    );
}

#[test]
fn run_cache_pipe_rtl_lockstep_full_width() {
    // RustHDL simulates 128-bit maps slowly: a few short traces here, the long run on Verilator.
    let cfg = RunCacheConfig::full();
    for (n, s) in STYLES.iter().enumerate() {
        let trace = run_cache_trace(cfg, *s, 2000 + n as u64, 1000);
        lockstep_pipe(RunCachePipeFull::default(), cfg, &trace)
            .unwrap_or_else(|e| panic!("{s:?}: {e}"));
    }
}

#[test]
fn run_cache_pipe_full_width_on_verilator() {
    if !tool_available("verilator") {
        assert!(
            std::env::var("REQUIRE_EDA").is_err(),
            "verilator missing and REQUIRE_EDA set"
        );
        eprintln!("SKIPPED run_cache_pipe_full_width_on_verilator: verilator not installed");
        return;
    }
    let cfg = RunCacheConfig::full();
    let v = run_cache_verilog::<RunCachePipeFull>();
    let mut trace = vec![];
    for (n, s) in STYLES.iter().enumerate() {
        trace.extend(run_cache_trace(cfg, *s, 177 + n as u64, 25_000));
    }
    replay_checked(
        "pipelined run cache (full widths)",
        &v,
        &RunCachePorts(cfg),
        &trace,
        &mut RunCacheModel::pipelined(cfg),
        &mut pipe_contract(cfg),
    );
}

#[test]
fn run_cache_pipe_exports_are_clean_and_match_the_port_table() {
    for (name, cfg, v) in [
        (
            "full",
            RunCacheConfig::full(),
            run_cache_verilog::<RunCachePipeFull>(),
        ),
        (
            "board",
            RunCacheConfig::board(),
            run_cache_verilog::<RunCachePipeBoard>(),
        ),
    ] {
        assert_run_cache_export_clean("dispatcher_scale_cache_pipe", name, cfg, v);
    }
}

/// Corrupt one output of the pipelined model's trace; the K = 12 checker must name `rule`.
fn pipe_rejects(
    cfg: RunCacheConfig,
    trace: &[RunCacheIn],
    rule: &str,
    corrupt: impl Fn(&mut Vec<RunCacheOut>) -> bool,
) {
    let mut out = pipe_outputs(cfg, trace);
    assert!(corrupt(&mut out), "{rule}: nothing to corrupt");
    let v = judge(&mut pipe_contract(cfg), trace, &out)
        .expect_err(&format!("{rule}: corrupted trace accepted"));
    assert_eq!(v.rule, rule, "{v}");
}

#[test]
fn run_cache_pipe_contract_rejects_corrupted_traces() {
    let cfg = RunCacheConfig::full();
    let trace = run_cache_trace(cfg, Style::Bursts, 5, 800);
    let rises = |out: &Vec<RunCacheOut>| {
        (1..out.len()).find(|&t| out[t].eligible && !out[t - 1].eligible && t > 20)
    };
    // eligible one cycle early / late (K = 12)
    pipe_rejects(cfg, &trace, "eligible-timing", |out| {
        rises(out).map(|t| out[t - 1].eligible = true).is_some()
    });
    pipe_rejects(cfg, &trace, "eligible-timing", |out| {
        rises(out).map(|t| out[t].eligible = false).is_some()
    });
    // a slot changed while in flight and not re-dirtied: the in-flight (stale) run stays
    // cached into the eligible window — a value the map did hold, so only exactness catches it
    pipe_rejects(cfg, &trace, "eligible-exact", |out| {
        let hit = (21..out.len()).find_map(|t| {
            if !out[t].eligible || out[t - 1].eligible {
                return None;
            }
            (0..9).find_map(|j| {
                let stale = (t.saturating_sub(12)..t)
                    .map(|u| out[u].run(j))
                    .find(|&r| r != out[t].run(j) && r != 0)?;
                Some((t, j, stale))
            })
        });
        hit.map(|(t, j, stale)| {
            let mut o = out[t].clone();
            let mut runs: Vec<u8> = (0..9).map(|k| o.run(k) as u8).collect();
            runs[j] = stale as u8;
            o.run_vgpr0 = runs[0];
            o.run_vgpr1 = runs[1];
            o.run_vgpr2 = runs[2];
            o.run_vgpr3 = runs[3];
            o.run_sgpr0 = runs[4];
            o.run_sgpr1 = runs[5];
            o.run_sgpr2 = runs[6];
            o.run_sgpr3 = runs[7];
            o.run_lds = runs[8];
            out[t] = o;
        })
        .is_some()
    });
    // a run no map value had
    pipe_rejects(cfg, &trace, "run-held", |out| {
        let t = (20..out.len()).find(|&t| !out[t].eligible);
        t.map(|t| out[t].run_vgpr2 = 129).is_some()
    });
}

// ---------------------------------------------------------------------------------------------
// Head needs + head × module matcher (blocks 2 and 3), full config
// ---------------------------------------------------------------------------------------------

#[test]
fn matcher_model_meets_its_contract() {
    for seed in 0..20u64 {
        let trace = matcher_trace(seed, 1_000, [0, 50, 90, 98][seed as usize % 4]);
        let mut m = MatcherModel::default();
        let out: Vec<MatcherOut> = trace.iter().map(|i| m.step(i)).collect();
        judge(&mut MatcherContract::default(), &trace, &out)
            .unwrap_or_else(|v| panic!("seed {seed}: {v}"));
        // both answers occur, and eligibility matters
        assert!(out.iter().any(|o| o.fit != 0) && out.iter().any(|o| o.fit != u64::MAX));
        assert!(out.iter().any(|o| o.fit != o.fit_eligible));
    }
}

#[test]
fn matcher_rtl_lockstep() {
    // RustHDL simulates the 1520-bit module port slowly: a few hundred cycles per case.
    run_cases(
        proptest_cases(6),
        &(
            any::<u64>(),
            prop::sample::select(vec![0u64, 50, 90]),
            20usize..200,
        ),
        |(seed, hold, n)| {
            let trace = matcher_trace(*seed, *n, *hold);
            let mut model = MatcherModel::default();
            let mut rtl = RtlSim::new(Matcher::default());
            let mut contract = MatcherContract::default();
            run_lockstep(&mut model, &mut rtl, &trace, |c, i, o| {
                contract.check(c, i, o).map_err(|v| v.to_string())
            })
        },
    );
}

#[test]
fn matcher_export_is_clean() {
    let v = matcher_verilog();
    let ports = testbench::verilator::top_ports(&v).expect("ports of top");
    let got: Vec<(&str, usize)> = ports.iter().map(|p| (p.name.as_str(), p.width)).collect();
    assert_eq!(
        got,
        [
            ("clock", 1),
            ("reset", 1),
            ("heads", 128),
            ("modules", 1520),
            ("fit", 64),
            ("fit_eligible", 64)
        ]
    );
    assert_lint_clean(&v);
    assert_yosys_clean("dispatcher_scale_matcher", &[("full", v)]);
}

#[test]
fn matcher_contract_rejects_corrupted_traces() {
    let trace = matcher_trace(9, 300, 50);
    let mut m = MatcherModel::default();
    let good: Vec<MatcherOut> = trace.iter().map(|i| m.step(i)).collect();
    // a fit reported that SPEC step 3 refuses, and one it allows that is missed
    for want_set in [true, false] {
        let mut out = good.clone();
        let t = (5..out.len())
            .find(|&t| out[t].fit != if want_set { u64::MAX } else { 0 })
            .expect("a cycle to corrupt");
        let b = if want_set {
            (!out[t].fit).trailing_zeros()
        } else {
            out[t].fit.trailing_zeros()
        };
        out[t].fit ^= 1 << b;
        let v = judge(&mut MatcherContract::default(), &trace, &out).expect_err("accepted");
        assert_eq!(v.rule, "fit", "{v}");
    }
    // eligibility ignored
    let mut out = good.clone();
    let t = (5..out.len())
        .find(|&t| out[t].fit != out[t].fit_eligible)
        .expect("an ineligible fit");
    out[t].fit_eligible = out[t].fit;
    let v = judge(&mut MatcherContract::default(), &trace, &out).expect_err("accepted");
    assert_eq!(v.rule, "fit-eligible", "{v}");
}

// ---------------------------------------------------------------------------------------------
// Map RAM (block 6, build step 1): 16 × 9 maps in LUT RAM, ports A, F, Ra
// ---------------------------------------------------------------------------------------------

fn map_ram_outputs(cfg: RunCacheConfig, trace: &[MapRamIn]) -> Vec<MapRamOut> {
    let mut m = MapRamModel::new(cfg);
    trace.iter().map(|i| m.step(i)).collect()
}

/// RustHDL lockstep of a map RAM against the model, every cycle judged by the contract checker.
fn lockstep_map_ram<D>(dut: D, cfg: RunCacheConfig, trace: &[MapRamIn]) -> Result<(), String>
where
    D: HdlDut<In = MapRamIn, Out = MapRamOut>,
{
    let mut model = MapRamModel::new(cfg);
    let mut rtl = RtlSim::new(dut);
    let mut contract = MapRamContract::new(cfg);
    run_lockstep(&mut model, &mut rtl, trace, |c, i, o| {
        contract.check(c, i, o).map_err(|v| v.to_string())
    })
}

/// Cycles of a trace where both ports write one module with both masks non-empty (the merge),
/// and where port Ra reads the module port A writes in that cycle with a change pending.
fn map_ram_coverage(trace: &[MapRamIn]) -> (usize, usize) {
    let merges = trace
        .iter()
        .filter(|i| {
            !i.reset
                && i.alloc_en
                && i.free_en
                && i.alloc_module == i.free_module
                && (0..9).any(|j| i.alloc(j) != 0)
                && (0..9).any(|j| i.free(j) != 0)
        })
        .count();
    let read_written = trace
        .iter()
        .filter(|i| !i.reset && i.alloc_en && i.rd_module == i.alloc_module)
        .filter(|i| (0..9).any(|j| i.alloc(j) != 0))
        .count();
    (merges, read_written)
}

#[test]
fn map_ram_model_meets_its_contract() {
    for cfg in [
        RunCacheConfig::small(),
        RunCacheConfig::board(),
        RunCacheConfig::full(),
    ] {
        for (n, s) in STYLES.iter().enumerate() {
            let (mut merges, mut read_written) = (0, 0);
            for seed in 0..8u64 {
                let trace = map_ram_trace(cfg, *s, seed * 37 + n as u64, 2_000);
                let out = map_ram_outputs(cfg, &trace);
                judge(&mut MapRamContract::new(cfg), &trace, &out)
                    .unwrap_or_else(|v| panic!("{cfg:?} {s:?} seed {seed}: {v}"));
                let c = map_ram_coverage(&trace);
                merges += c.0;
                read_written += c.1;
                // the maps are used: some read shows taken blocks
                let full = MapRamModel::new(cfg).maps(0);
                assert!(out.iter().any(|o| o.maps() != full));
            }
            assert!(merges >= 10, "{s:?}: {merges} merged writes");
            assert!(
                read_written >= 10,
                "{s:?}: {read_written} reads of a module written"
            );
        }
    }
}

#[test]
fn map_ram_rtl_lockstep_small_and_board() {
    run_cases(
        proptest_cases(16),
        &(style(), any::<u64>(), 50usize..400),
        |(s, seed, n)| {
            let small = RunCacheConfig::small();
            let trace = map_ram_trace(small, *s, *seed, *n);
            lockstep_map_ram(MapRamSmall::default(), small, &trace)?;
            let board = RunCacheConfig::board();
            let trace = map_ram_trace(board, *s, *seed, *n);
            lockstep_map_ram(MapRamBoard::default(), board, &trace)
        },
    );
}

#[test]
fn map_ram_rtl_lockstep_full_width() {
    // 42 LUT RAMs and 128-bit ports simulate fast enough in `RtlSim` (4 000 cycles in well
    // under a second); the long run is on Verilator.
    let cfg = RunCacheConfig::full();
    for (n, s) in STYLES.iter().enumerate() {
        let trace = map_ram_trace(cfg, *s, 3000 + n as u64, 1000);
        lockstep_map_ram(MapRamFull::default(), cfg, &trace)
            .unwrap_or_else(|e| panic!("{s:?}: {e}"));
    }
}

#[test]
fn map_ram_full_width_on_verilator() {
    if !tool_available("verilator") {
        assert!(
            std::env::var("REQUIRE_EDA").is_err(),
            "verilator missing and REQUIRE_EDA set"
        );
        eprintln!("SKIPPED map_ram_full_width_on_verilator: verilator not installed");
        return;
    }
    let cfg = RunCacheConfig::full();
    let v = map_ram_verilog::<MapRamFull>();
    let mut trace = vec![];
    for (n, s) in STYLES.iter().enumerate() {
        trace.extend(map_ram_trace(cfg, *s, 377 + n as u64, 25_000));
    }
    replay_checked(
        "map RAM (full widths)",
        &v,
        &MapRamPorts(cfg),
        &trace,
        &mut MapRamModel::new(cfg),
        &mut MapRamContract::new(cfg),
    );
}

#[test]
fn map_ram_exports_are_clean_and_match_the_port_table() {
    for (name, cfg, v) in [
        (
            "full",
            RunCacheConfig::full(),
            map_ram_verilog::<MapRamFull>(),
        ),
        (
            "board",
            RunCacheConfig::board(),
            map_ram_verilog::<MapRamBoard>(),
        ),
    ] {
        assert_port_table(
            &format!("dispatcher_scale_map_ram {name}"),
            &v,
            &MapRamPorts(cfg),
        );
        assert_lint_clean(&v);
        assert_yosys_clean("dispatcher_scale_map_ram", &[(name, v)]);
    }
}

/// Judge the model's outputs for `trace` after `corrupt`; the checker must name `rule`.
fn map_ram_rejects(cfg: RunCacheConfig, trace: &[MapRamIn], out: Vec<MapRamOut>, rule: &str) {
    let v = judge(&mut MapRamContract::new(cfg), trace, &out)
        .expect_err(&format!("{rule}: corrupted trace accepted"));
    assert_eq!(v.rule, rule, "{v}");
}

#[test]
fn map_ram_contract_rejects_corrupted_traces() {
    let cfg = RunCacheConfig::board();
    let trace = map_ram_trace(cfg, Style::Bursts, 11, 600);
    let good = map_ram_outputs(cfg, &trace);
    let ones = MapRamModel::new(cfg).maps(0);
    // a bit flipped in a module written since the reset
    let mut out = good.clone();
    let t = (2..out.len())
        .find(|&t| out[t].maps() != ones)
        .expect("a written module read");
    out[t].rd_vgpr2 ^= 1;
    map_ram_rejects(cfg, &trace, out, "read-current");
    // a module not written since the reset reads something taken (the read of cycle 1,
    // returned in cycle 2)
    let mut out = good.clone();
    out[2].rd_lds ^= 4;
    map_ram_rejects(cfg, &trace, out, "reset-free");
    // write-through: a read shows the allocation requested in its own cycle already
    let t = (1..trace.len() - 1)
        .find(|&t| {
            let i = &trace[t];
            !i.reset
                && i.alloc_en
                && i.rd_module == i.alloc_module
                && (0..9).any(|j| i.alloc(j) & good[t + 1].maps()[j] != 0)
        })
        .expect("a read of the module being allocated");
    let mut m = MapRamModel::new(cfg);
    for i in &trace[..=t] {
        m.step(i);
    }
    let mut out = good.clone();
    out[t + 1] = MapRamOut::from_maps(&m.maps(trace[t].alloc_module as usize));
    map_ram_rejects(cfg, &trace, out, "read-current");
    // a merged release dropped (an RTL that lets port A win and port F idle)
    let dropped: Vec<MapRamIn> = trace
        .iter()
        .map(|i| {
            let mut i = i.clone();
            if i.alloc_en && i.free_en && i.alloc_module == i.free_module {
                for j in 0..9 {
                    i.set_free(j, 0);
                }
            }
            i
        })
        .collect();
    assert_ne!(dropped, trace);
    map_ram_rejects(cfg, &trace, map_ram_outputs(cfg, &dropped), "read-current");
    // stimulus: an allocation of a taken block, a release of a free one (found by stepping
    // the model to the first cycle where the port's module has such a block)
    let mut m = MapRamModel::new(cfg);
    let mut alloc_bad = None;
    let mut free_bad = None;
    for (t, i) in trace.iter().enumerate() {
        if t > 0 && !i.reset {
            let a = m.maps(i.alloc_module as usize);
            if let Some(j) = (0..9).find(|&j| a[j] != ones[j]) {
                alloc_bad = alloc_bad.or(Some((t, j, ones[j] & !a[j])));
            }
            let f = m.maps(i.free_module as usize);
            if let Some(j) = (0..9).find(|&j| f[j] != 0) {
                free_bad = free_bad.or(Some((t, j, f[j])));
            }
        }
        m.step(i);
    }
    let (t, j, taken) = alloc_bad.expect("a module with taken blocks");
    let mut bad = trace.clone();
    bad[t].alloc_en = true;
    bad[t].set_alloc(j, taken);
    map_ram_rejects(cfg, &bad, map_ram_outputs(cfg, &bad), "alloc-free");
    let (t, j, free) = free_bad.expect("a module with free blocks");
    let mut bad = trace.clone();
    bad[t].free_en = true;
    bad[t].set_free(j, free);
    map_ram_rejects(cfg, &bad, map_ram_outputs(cfg, &bad), "release-used");
}

// ---------------------------------------------------------------------------------------------
// Map RAM + write refresh (block 6, build step 2): runs refreshed from the write stream, K = 7
// ---------------------------------------------------------------------------------------------

fn map_refresh_outputs(cfg: RunCacheConfig, trace: &[MapRamIn]) -> Vec<MapRefreshOut> {
    let mut m = MapRefreshModel::new(cfg);
    trace.iter().map(|i| m.step(i)).collect()
}

fn refresh_contract(cfg: RunCacheConfig) -> MapRefreshContract {
    MapRefreshContract::new(cfg, write_refresh_latency(cfg.vgpr))
}

/// RustHDL lockstep of a write refresh against the model, every cycle judged by the contract.
fn lockstep_map_refresh<D>(dut: D, cfg: RunCacheConfig, trace: &[MapRamIn]) -> Result<(), String>
where
    D: HdlDut<In = MapRamIn, Out = MapRefreshOut>,
{
    let mut model = MapRefreshModel::new(cfg);
    let mut rtl = RtlSim::new(dut);
    let mut contract = refresh_contract(cfg);
    run_lockstep(&mut model, &mut rtl, trace, |c, i, o| {
        contract.check(c, i, o).map_err(|v| v.to_string())
    })
}

#[test]
fn map_refresh_latency_is_the_models() {
    assert_eq!(write_refresh_latency(128), 7);
    assert_eq!(write_refresh_latency(16), 5);
    assert_eq!(MapRefreshFull::K, 7);
    assert_eq!(MapRefreshBoard::K, 5);
    assert_eq!(MapRefreshSmall::K, 5);
    assert_eq!(MapRefreshModel::new(RunCacheConfig::full()).k(), 7);
}

#[test]
fn map_refresh_model_meets_its_contract() {
    for cfg in [
        RunCacheConfig::small(),
        RunCacheConfig::board(),
        RunCacheConfig::full(),
    ] {
        let kv = cfg.run_bits();
        for (n, s) in STYLES.iter().enumerate() {
            let (mut rises, mut exact_changes) = (0, 0);
            for seed in 0..4u64 {
                let trace = map_ram_trace(cfg, *s, seed * 41 + n as u64, 2_000);
                let out = map_refresh_outputs(cfg, &trace);
                judge(&mut refresh_contract(cfg), &trace, &out)
                    .unwrap_or_else(|v| panic!("{cfg:?} {s:?} seed {seed}: {v}"));
                // eligibility comes back after writes, with runs that moved
                for t in 1..out.len() {
                    let up = out[t].eligible & !out[t - 1].eligible;
                    rises += up.count_ones();
                    for m in (0..16).filter(|m| up >> m & 1 == 1) {
                        if (0..9).any(|j| out[t].run(m, j, kv) != out[t - 1].run(m, j, kv)) {
                            exact_changes += 1;
                        }
                    }
                }
            }
            assert!(
                rises >= 20,
                "{cfg:?} {s:?}: {rises} modules became eligible"
            );
            assert!(
                exact_changes >= 10,
                "{cfg:?} {s:?}: {exact_changes} runs changed as a module became eligible"
            );
        }
    }
}

#[test]
fn map_refresh_rtl_lockstep_small_and_board() {
    run_cases(
        proptest_cases(8),
        &(style(), any::<u64>(), 50usize..300),
        |(s, seed, n)| {
            let small = RunCacheConfig::small();
            let trace = map_ram_trace(small, *s, *seed, *n);
            lockstep_map_refresh(MapRefreshSmall::default(), small, &trace)?;
            let board = RunCacheConfig::board();
            let trace = map_ram_trace(board, *s, *seed, *n);
            lockstep_map_refresh(MapRefreshBoard::default(), board, &trace)
        },
    );
}

#[test]
fn map_refresh_rtl_lockstep_full_width() {
    // 14 finders and 42 LUT RAMs at 128 bits: ~6 ms per cycle in `RtlSim`; the long run
    // (10^5 cycles) is on Verilator (`--ignored`, below).
    let cfg = RunCacheConfig::full();
    for (n, s) in STYLES.iter().enumerate() {
        let trace = map_ram_trace(cfg, *s, 4000 + n as u64, 400);
        lockstep_map_refresh(MapRefreshFull::default(), cfg, &trace)
            .unwrap_or_else(|e| panic!("{s:?}: {e}"));
    }
}

/// 10^5 cycles at full width on Verilator, and the full export's lint and yosys check (~15 min
/// at load ≈ 7, most of it Verilator's build): `cargo test --release --test dispatcher_scale
/// map_refresh_full -- --ignored`.
#[test]
#[ignore]
fn map_refresh_full_width_on_verilator() {
    if !tool_available("verilator") {
        assert!(
            std::env::var("REQUIRE_EDA").is_err(),
            "verilator missing and REQUIRE_EDA set"
        );
        eprintln!("SKIPPED map_refresh_full_width_on_verilator: verilator not installed");
        return;
    }
    let cfg = RunCacheConfig::full();
    let v = map_refresh_verilog::<MapRefreshFull>();
    assert_lint_clean(&v);
    assert_yosys_clean("dispatcher_scale_map_refresh", &[("full", v.clone())]);
    let mut trace = vec![];
    for (n, s) in STYLES.iter().enumerate() {
        trace.extend(map_ram_trace(cfg, *s, 577 + n as u64, 25_000));
    }
    replay_checked(
        "map RAM + write refresh (full widths)",
        &v,
        &MapRefreshPorts(cfg),
        &trace,
        &mut MapRefreshModel::new(cfg),
        &mut refresh_contract(cfg),
    );
}

#[test]
fn map_refresh_exports_are_clean_and_match_the_port_table() {
    // the full export's lint and yosys check take ~90 s: they run with the Verilator replay
    let full = RunCacheConfig::full();
    assert_port_table(
        "dispatcher_scale_map_refresh full",
        &map_refresh_verilog::<MapRefreshFull>(),
        &MapRefreshPorts(full),
    );
    let board = RunCacheConfig::board();
    let v = map_refresh_verilog::<MapRefreshBoard>();
    assert_port_table(
        "dispatcher_scale_map_refresh board",
        &v,
        &MapRefreshPorts(board),
    );
    assert_lint_clean(&v);
    assert_yosys_clean("dispatcher_scale_map_refresh", &[("board", v)]);
}

fn refresh_rejects(cfg: RunCacheConfig, trace: &[MapRamIn], out: &[MapRefreshOut], rule: &str) {
    let v = judge(&mut refresh_contract(cfg), trace, out)
        .expect_err(&format!("{rule}: corrupted trace accepted"));
    assert_eq!(v.rule, rule, "{v}");
}

#[test]
fn map_refresh_contract_rejects_corrupted_traces() {
    let cfg = RunCacheConfig::board();
    let kv = cfg.run_bits();
    let trace = map_ram_trace(cfg, Style::Bursts, 23, 800);
    let good = map_refresh_outputs(cfg, &trace);
    judge(&mut refresh_contract(cfg), &trace, &good).expect("the model's trace");
    // a module eligible one cycle early (the cycle before it rises)
    let (t, m) = (2..good.len())
        .find_map(|t| {
            let up = good[t].eligible & !good[t - 1].eligible;
            (up != 0).then(|| (t - 1, up.trailing_zeros()))
        })
        .expect("a module becoming eligible");
    let mut out = good.clone();
    out[t].eligible |= 1 << m;
    refresh_rejects(cfg, &trace, &out, "eligible-timing");
    // one cycle late
    let mut out = good.clone();
    out[t + 1].eligible &= !(1 << m);
    refresh_rejects(cfg, &trace, &out, "eligible-timing");
    // an eligible module whose run is not its map's (a landing dropped), with a value the map
    // did hold: only exactness catches it
    let (t, m, j, old) = (2..good.len())
        .find_map(|t| {
            let up = good[t].eligible & !good[t - 1].eligible;
            (0..16).filter(|m| up >> m & 1 == 1).find_map(|m| {
                (0..9)
                    .find(|&j| good[t].run(m, j, kv) != good[t - 1].run(m, j, kv))
                    .map(|j| (t, m, j, good[t - 1].run(m, j, kv)))
            })
        })
        .expect("a run that changed as its module became eligible");
    let mut out = good.clone();
    let field = out[t].runs_mut(j);
    *field = *field & !(((1u128 << kv) - 1) << (kv * m)) | (old as u128) << (kv * m);
    refresh_rejects(cfg, &trace, &out, "eligible-exact");
    // an ineligible module showing a run its map never held (above the map's width)
    let (t, m) = (2..good.len())
        .find_map(|t| {
            (!good[t].eligible != 0 && !trace[t].reset && !trace[t - 1].reset)
                .then(|| (t, (!good[t].eligible).trailing_zeros() as usize))
        })
        .expect("an ineligible module");
    let mut out = good.clone();
    let field = out[t].runs_mut(8);
    *field |= ((1u128 << kv) - 1) << (kv * m);
    refresh_rejects(cfg, &trace, &out, "run-held");
    // the map RAM's read is judged too
    let mut out = good.clone();
    out[5].rd_vgpr1 ^= 1;
    let v = judge(&mut refresh_contract(cfg), &trace, &out).expect_err("accepted");
    assert!(["read-current", "reset-free"].contains(&v.rule), "{v}");
    // the rule added for the write refresh: without `reset_frees` the width after a reset is
    // no run the map held (the run cache's reset reads 0)
    let mut plain = MapRefreshContractPlain::new(cfg);
    let v = judge(&mut plain, &trace, &good).expect_err("accepted");
    assert_eq!(v.rule, "run-held", "{v}");
}

/// The run cache's contract for module 0 without `reset_frees` (the negative test above).
struct MapRefreshContractPlain {
    cfg: RunCacheConfig,
    c: RunCacheContract,
    model: MapRamModel,
}

impl MapRefreshContractPlain {
    fn new(cfg: RunCacheConfig) -> Self {
        Self {
            cfg,
            c: RunCacheContract::with_k(cfg, write_refresh_latency(cfg.vgpr)),
            model: MapRamModel::new(cfg),
        }
    }
}

impl SpecChecker for MapRefreshContractPlain {
    type In = MapRamIn;
    type Out = MapRefreshOut;
    fn check(
        &mut self,
        t: usize,
        i: &MapRamIn,
        o: &MapRefreshOut,
    ) -> Result<(), testbench::spec::Violation> {
        let maps = self.model.maps(0);
        self.model.step(i);
        let named = (i.alloc_en && i.alloc_module == 0) || (i.free_en && i.free_module == 0);
        let mut rin = RunCacheIn {
            reset: i.reset,
            change: if named && !i.reset { 0x1ff } else { 0 },
            ..Default::default()
        };
        for (j, &m) in maps.iter().enumerate() {
            rin.set_map(j, m);
        }
        let kv = self.cfg.run_bits();
        let r = |j: usize| o.run(0, j, kv) as u8;
        let rout = RunCacheOut {
            run_vgpr0: r(0),
            run_vgpr1: r(1),
            run_vgpr2: r(2),
            run_vgpr3: r(3),
            run_sgpr0: r(4),
            run_sgpr1: r(5),
            run_sgpr2: r(6),
            run_sgpr3: r(7),
            run_lds: r(8),
            eligible: o.eligible & 1 == 1,
        };
        self.c.check(t, &rin, &rout)
    }
}

// ---------------------------------------------------------------------------------------------
// Allocator (block 6, build step 3): first fit of the nine regions, committed to port A
// ---------------------------------------------------------------------------------------------

fn allocator_outputs(cfg: RunCacheConfig, trace: &[AllocatorIn]) -> Vec<AllocatorOut> {
    let mut m = AllocatorModel::new(cfg);
    trace.iter().map(|i| m.step(i)).collect()
}

/// RustHDL lockstep of an allocator against the model, every cycle judged by the contract.
fn lockstep_allocator<D>(dut: D, cfg: RunCacheConfig, trace: &[AllocatorIn]) -> Result<(), String>
where
    D: HdlDut<In = AllocatorIn, Out = AllocatorOut>,
{
    let mut model = AllocatorModel::new(cfg);
    let mut rtl = RtlSim::new(dut);
    let mut contract = AllocatorContract::new(cfg);
    run_lockstep(&mut model, &mut rtl, trace, |c, i, o| {
        contract.check(c, i, o).map_err(|v| v.to_string())
    })
}

#[test]
fn allocator_latency_is_the_models() {
    assert_eq!(allocator_latency(128), 9);
    assert_eq!(allocator_latency(16), 6);
    assert_eq!(AllocatorFull::LA, 9);
    assert_eq!(AllocatorBoard::LA, 6);
    assert_eq!(AllocatorSmall::LA, 6);
    assert_eq!(AllocatorModel::new(RunCacheConfig::full()).latency(), 9);
}

/// (records ok, records that did not fit, refused, commits merged with a release).
fn allocator_coverage(trace: &[AllocatorIn], out: &[AllocatorOut]) -> [usize; 4] {
    let mut c = [0; 4];
    for (i, o) in trace
        .iter()
        .zip(out)
        .filter(|(i, o)| !i.reset && o.rec_valid)
    {
        if o.rec_ok {
            c[0] += 1;
            if i.free_en && i.free_module == o.rec_module {
                c[3] += 1;
            }
        } else if o.rec_err {
            c[2] += 1;
        } else {
            c[1] += 1;
        }
    }
    c
}

#[test]
fn allocator_model_meets_its_contract() {
    for cfg in [
        RunCacheConfig::small(),
        RunCacheConfig::board(),
        RunCacheConfig::full(),
    ] {
        for (n, s) in STYLES.iter().enumerate() {
            let mut cov = [0; 4];
            for seed in 0..4u64 {
                let trace = allocator_trace(cfg, *s, seed * 43 + n as u64, 2_000);
                let out = allocator_outputs(cfg, &trace);
                judge(&mut AllocatorContract::new(cfg), &trace, &out)
                    .unwrap_or_else(|v| panic!("{cfg:?} {s:?} seed {seed}: {v}"));
                for (c, x) in cov.iter_mut().zip(allocator_coverage(&trace, &out)) {
                    *c += x;
                }
            }
            assert!(
                cov[0] >= 50,
                "{cfg:?} {s:?}: {cov:?} (ok, no fit, refused, merged)"
            );
            assert!(cov[1] >= 10, "{cfg:?} {s:?}: {cov:?}");
            assert!(cov[2] >= 5, "{cfg:?} {s:?}: {cov:?}");
            if *s != Style::Idle {
                assert!(cov[3] >= 3, "{cfg:?} {s:?}: {cov:?}");
            }
        }
    }
}

#[test]
fn allocator_rtl_lockstep_small_and_board() {
    run_cases(
        proptest_cases(8),
        &(style(), any::<u64>(), 50usize..300),
        |(s, seed, n)| {
            let small = RunCacheConfig::small();
            let trace = allocator_trace(small, *s, *seed, *n);
            lockstep_allocator(AllocatorSmall::default(), small, &trace)?;
            let board = RunCacheConfig::board();
            let trace = allocator_trace(board, *s, *seed, *n);
            lockstep_allocator(AllocatorBoard::default(), board, &trace)
        },
    );
}

#[test]
fn allocator_rtl_lockstep_full_width() {
    // MapRefresh's 14 finders and nine 128-bit first-fit trees in `RtlSim`: short traces; the
    // long runs are the model against the contract above.
    let cfg = RunCacheConfig::full();
    for (n, s) in STYLES.iter().enumerate() {
        let trace = allocator_trace(cfg, *s, 5000 + n as u64, 250);
        lockstep_allocator(AllocatorFull::default(), cfg, &trace)
            .unwrap_or_else(|e| panic!("{s:?}: {e}"));
    }
}

#[test]
fn allocator_board_on_verilator() {
    if !tool_available("verilator") {
        assert!(
            std::env::var("REQUIRE_EDA").is_err(),
            "verilator missing and REQUIRE_EDA set"
        );
        eprintln!("SKIPPED allocator_board_on_verilator: verilator not installed");
        return;
    }
    let cfg = RunCacheConfig::board();
    let v = allocator_verilog::<AllocatorBoard>();
    let mut trace = vec![];
    for (n, s) in STYLES.iter().enumerate() {
        trace.extend(allocator_trace(cfg, *s, 677 + n as u64, 25_000));
    }
    replay_checked(
        "allocator (board widths)",
        &v,
        &AllocatorPorts(cfg),
        &trace,
        &mut AllocatorModel::new(cfg),
        &mut AllocatorContract::new(cfg),
    );
}

#[test]
fn allocator_exports_are_clean_and_match_the_port_table() {
    let full = RunCacheConfig::full();
    assert_port_table(
        "dispatcher_scale_allocator full",
        &allocator_verilog::<AllocatorFull>(),
        &AllocatorPorts(full),
    );
    let board = RunCacheConfig::board();
    let v = allocator_verilog::<AllocatorBoard>();
    assert_port_table(
        "dispatcher_scale_allocator board",
        &v,
        &AllocatorPorts(board),
    );
    assert_lint_clean(&v);
    assert_yosys_clean("dispatcher_scale_allocator", &[("board", v)]);
}

fn allocator_rejects(cfg: RunCacheConfig, trace: &[AllocatorIn], out: &[AllocatorOut], rule: &str) {
    let v = judge(&mut AllocatorContract::new(cfg), trace, out)
        .expect_err(&format!("{rule}: corrupted trace accepted"));
    assert_eq!(v.rule, rule, "{v}");
}

#[test]
fn allocator_contract_rejects_corrupted_traces() {
    let cfg = RunCacheConfig::board();
    let trace = allocator_trace(cfg, Style::Mixed, 31, 1_500);
    let good = allocator_outputs(cfg, &trace);
    judge(&mut AllocatorContract::new(cfg), &trace, &good).expect("the model's trace");
    let ok_at = |from: usize| {
        (from..good.len())
            .find(|&t| !trace[t].reset && good[t].rec_ok && good[t].bases().iter().any(|&b| b > 0))
            .expect("a record with a base above 0")
    };
    // a base one block higher: a fit, but not the first
    let t = ok_at(10);
    let mut out = good.clone();
    let j = (0..9).find(|&j| out[t].bases()[j] > 0).expect("base");
    let mut b = out[t].bases();
    b[j] -= 1;
    out[t].set_bases(b);
    allocator_rejects(cfg, &trace, &out, "first-fit");
    // a record that fits reported as not fitting (bases 0)
    let mut out = good.clone();
    out[t].rec_ok = false;
    out[t].set_bases([0; 9]);
    allocator_rejects(cfg, &trace, &out, "first-fit");
    // a region one block longer than the need, and one shown without a record
    let mut out = good.clone();
    let j = (0..9).find(|&j| out[t].masks()[j] != 0).expect("a region");
    let mut m = out[t].masks();
    m[j] |= m[j] << 1;
    out[t].set_masks(m);
    allocator_rejects(cfg, &trace, &out, "record-mask");
    let idle = (t..good.len())
        .find(|&t| !trace[t].reset && !good[t].rec_valid)
        .expect("a cycle without a record");
    let mut out = good.clone();
    out[idle].rec_mask_lds = 1;
    allocator_rejects(cfg, &trace, &out, "record-mask");
    // a refused request reported as accepted, an accepted one as refused
    let r = (1..good.len())
        .find(|&t| !trace[t].reset && good[t].rec_err)
        .expect("a refused request");
    let mut out = good.clone();
    out[r].rec_err = false;
    allocator_rejects(cfg, &trace, &out, "refused");
    let mut out = good.clone();
    out[t].rec_err = true;
    allocator_rejects(cfg, &trace, &out, "refused");
    // the wrong module, a record dropped, a record one cycle late
    let mut out = good.clone();
    out[t].rec_module ^= 1;
    allocator_rejects(cfg, &trace, &out, "record-module");
    let mut out = good.clone();
    out[t].rec_valid = false;
    allocator_rejects(cfg, &trace, &out, "record-timing");
    let late = (10..good.len() - 1)
        .find(|&t| {
            !trace[t].reset && !trace[t + 1].reset && good[t].rec_valid && !good[t + 1].rec_valid
        })
        .expect("a record followed by none");
    let mut out = good.clone();
    out[late + 1] = out[late].clone();
    out[late + 1].rec_valid = true;
    out[late].rec_valid = false;
    allocator_rejects(cfg, &trace, &out, "record-timing");
    // a bit of a read flipped: the write refresh's read rule (through the contract's stream)
    let mut out = good.clone();
    out[t + 2].rd_vgpr0 ^= 1;
    let v = judge(&mut AllocatorContract::new(cfg), &trace, &out).expect_err("accepted");
    assert!(["read-current", "reset-free"].contains(&v.rule), "{v}");
    // stimulus: a release (in the cycle after the request) of a block the allocator is about
    // to commit is a release of a free block
    let la = allocator_latency(cfg.vgpr);
    let (c, j) = (la + 1..trace.len())
        .filter(|&c| !trace[c].reset && good[c].rec_ok)
        .find_map(|c| {
            let req = &trace[c - la];
            (0..9).find(|&j| req.needs()[j] > 0).map(|j| (c, j))
        })
        .expect("a committed record with a need");
    let req = c - la;
    let mut bad = trace.clone();
    let mut fi = MapRamIn::default();
    fi.set_free(j, 1u128 << good[c].bases()[j]);
    let b = &mut bad[req + 1];
    b.free_en = true;
    b.free_module = good[c].rec_module;
    b.free_vgpr0 = fi.free_vgpr0;
    b.free_vgpr1 = fi.free_vgpr1;
    b.free_vgpr2 = fi.free_vgpr2;
    b.free_vgpr3 = fi.free_vgpr3;
    b.free_sgpr0 = fi.free_sgpr0;
    b.free_sgpr1 = fi.free_sgpr1;
    b.free_sgpr2 = fi.free_sgpr2;
    b.free_sgpr3 = fi.free_sgpr3;
    b.free_lds = fi.free_lds;
    let v = judge(
        &mut AllocatorContract::new(cfg),
        &bad,
        &allocator_outputs(cfg, &bad),
    )
    .expect_err("accepted");
    assert_eq!(v.rule, "release-used", "{v}");
}
