//! Lockstep comparison of a golden model with an implementation (RustHDL or Verilator).

use golden_model::CycleModel;
use std::fmt::Debug;
use std::fmt::Write as _;
use std::path::PathBuf;

/// Result of one lockstep run: `Err` carries a printable cycle table.
pub type Verdict = Result<(), String>;

/// How many cycles before the first difference the table shows.
const TABLE_CONTEXT: usize = 24;

/// Step `model` and `dut` with the same `inputs`; compare every output every cycle and call
/// `invariant(cycle, input, dut_output)` on the implementation's outputs (the golden model checks
/// its own invariants with `debug_assert!`s). Stops at the first difference or violation.
pub fn run_lockstep<I, O, M, D, F>(
    model: &mut M,
    dut: &mut D,
    inputs: &[I],
    mut invariant: F,
) -> Verdict
where
    I: Debug,
    O: Debug + PartialEq,
    M: CycleModel<In = I, Out = O>,
    D: CycleModel<In = I, Out = O>,
    F: FnMut(usize, &I, &O) -> Result<(), String>,
{
    let mut history: Vec<(O, O)> = Vec::with_capacity(inputs.len());
    for (cycle, i) in inputs.iter().enumerate() {
        let want = model.step(i);
        let got = dut.step(i);
        let same = got == want;
        let inv = invariant(cycle, i, &got);
        history.push((got, want));
        if !same || inv.is_err() {
            let why = match inv {
                Err(e) if same => format!("invariant violated at cycle {cycle}: {e}"),
                Err(e) => format!("outputs differ at cycle {cycle}; also invariant: {e}"),
                Ok(()) => format!("outputs differ at cycle {cycle}"),
            };
            return Err(cycle_table(inputs, &history, cycle, &why));
        }
    }
    Ok(())
}

/// Compare a recorded output trace (for example from Verilator) with the golden model.
pub fn compare_trace<I, O, M>(model: &mut M, inputs: &[I], got: &[O]) -> Verdict
where
    I: Debug,
    O: Debug + PartialEq + Clone,
    M: CycleModel<In = I, Out = O> + ?Sized,
{
    if got.len() != inputs.len() {
        return Err(format!(
            "trace has {} outputs for {} inputs",
            got.len(),
            inputs.len()
        ));
    }
    let mut history = Vec::with_capacity(inputs.len());
    for (cycle, (i, g)) in inputs.iter().zip(got).enumerate() {
        let want = model.step(i);
        let same = *g == want;
        history.push((g.clone(), want));
        if !same {
            return Err(cycle_table(
                inputs,
                &history,
                cycle,
                &format!("outputs differ at cycle {cycle}"),
            ));
        }
    }
    Ok(())
}

/// Render the cycles leading to `bad` as a table: inputs, implementation and model outputs;
/// the first difference is marked with `>>>`.
pub fn cycle_table<I: Debug, O: Debug + PartialEq>(
    inputs: &[I],
    history: &[(O, O)],
    bad: usize,
    why: &str,
) -> String {
    let mut s = String::new();
    let from = bad.saturating_sub(TABLE_CONTEXT);
    let _ = writeln!(
        s,
        "{why} ({} cycles in the trace, showing {from}..={bad})",
        inputs.len()
    );
    let _ = writeln!(s, "{:>6} | {:<5} | signals", "cycle", "row");
    for c in from..=bad {
        let (got, want) = &history[c];
        let mark = if c == bad { ">>>" } else { "   " };
        let _ = writeln!(s, "{mark}{c:>3} | in    | {:?}", inputs[c]);
        if got == want {
            let _ = writeln!(s, "{:>6} | out   | {:?}", "", got);
        } else {
            let _ = writeln!(s, "{:>6} | rtl   | {:?}", "", got);
            let _ = writeln!(s, "{:>6} | model | {:?}", "", want);
        }
    }
    s
}

/// Where failing runs leave their artefacts (VCD files, traces): `target/lockstep-failures/`.
pub fn failure_dir() -> PathBuf {
    let base = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target"));
    let d = base.join("lockstep-failures");
    let _ = std::fs::create_dir_all(&d);
    d
}

/// Number of proptest cases: `PROPTEST_CASES` if set, else `default`.
pub fn proptest_cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Run a property over `cases` random inputs (overridable with `PROPTEST_CASES`), shrinking a
/// failure to a minimal case. Panics with the minimal case's cycle table (not the raw input).
pub fn run_cases<S, F>(cases: u32, strategy: &S, test: F)
where
    S: proptest::strategy::Strategy,
    S::Value: Debug,
    F: Fn(&S::Value) -> Verdict,
{
    use proptest::test_runner::{Config, TestCaseError, TestError, TestRunner};
    let config = Config {
        cases: proptest_cases(cases),
        max_shrink_iters: 4096,
        failure_persistence: None,
        ..Config::default()
    };
    let mut runner = TestRunner::new(config);
    let result = runner.run(strategy, |v| test(&v).map_err(TestCaseError::fail));
    match result {
        Ok(()) => {}
        Err(TestError::Fail(reason, value)) => {
            let n = format!("{value:?}").len();
            panic!("lockstep failure (minimal case shown; its Debug is {n} chars):\n{reason}");
        }
        Err(e) => panic!("{e}"),
    }
}

/// Cycles for an opt-in long regression: `LONG_REGRESSION=<cycles>` (a bare or unparsable value
/// means `default`); `None` (with a note on stderr) when the variable is not set.
pub fn long_regression_cycles(default: usize) -> Option<usize> {
    match std::env::var("LONG_REGRESSION") {
        Ok(v) => Some(v.parse().unwrap_or(default)),
        Err(_) => {
            eprintln!("LONG_REGRESSION not set: skipping the long Verilator regression");
            None
        }
    }
}

/// The deep-run pattern of every unit: replay `trace` on the exported `verilog` under
/// Verilator, compare every output of every cycle with `model`, and judge the trace with the
/// spec `checker`. Panics with the cycle table or the violation; prints one line with the cycles
/// and the seconds of each phase (the Verilator run includes the harness build when it is not
/// cached). Returns the outputs.
pub fn replay_checked<P, M, C>(
    name: &str,
    verilog: &str,
    ports: &P,
    trace: &[P::In],
    model: &mut M,
    checker: &mut C,
) -> Vec<P::Out>
where
    P: crate::verilator::TracePorts,
    P::In: Debug,
    P::Out: Debug + PartialEq + Clone,
    M: CycleModel<In = P::In, Out = P::Out> + ?Sized,
    C: crate::spec::SpecChecker<In = P::In, Out = P::Out> + ?Sized,
{
    let t0 = std::time::Instant::now();
    let got = crate::verilator::replay(verilog, ports, trace)
        .unwrap_or_else(|e| panic!("{name}: Verilator replay: {e:#}"));
    let t1 = std::time::Instant::now();
    compare_trace(model, trace, &got).unwrap_or_else(|e| panic!("{name}: {e}"));
    let t2 = std::time::Instant::now();
    crate::spec::judge(checker, trace, &got).unwrap_or_else(|v| panic!("{name}: {v}"));
    let t3 = std::time::Instant::now();
    eprintln!(
        "{name}: {} cycles on Verilator, equal to the model and accepted by the spec checker; Verilator {:.2} s, model compare {:.2} s, spec checker {:.2} s",
        trace.len(),
        (t1 - t0).as_secs_f64(),
        (t2 - t1).as_secs_f64(),
        (t3 - t2).as_secs_f64()
    );
    got
}

/// One `#[test]` per entry `name: call;` (attributes and doc comments may precede a name): the
/// per-config sweeps of a unit's test file, one line each.
#[macro_export]
macro_rules! test_cases {
    ($($(#[$meta:meta])* $name:ident: $call:expr;)*) => {
        $(
            $(#[$meta])*
            #[test]
            fn $name() {
                $call;
            }
        )*
    };
}
