//! Spec checkers (SPEC §0, "independent checking"): transaction-level scoreboards written from
//! `SPEC.md` alone.
//!
//! A cycle model must share the RTL's timing and so drifts toward copying its pipeline; a spec
//! checker knows only the contract. It keeps its own small state (queues, maps, sets built from
//! what it saw on the ports), never a pipeline register, and judges any trace of port values —
//! the golden model's, the RustHDL simulation's, the exported Verilog's under Verilator, or the
//! board's — one cycle at a time: is every output event legal, is nothing lost or duplicated, are
//! the ordering and priority rules kept, are SPEC's latency bounds met (as windows, not exact
//! cycles), does every error leave the state unchanged.
//!
//! Lockstep against the cycle model tells *where* an implementation changed; the spec checker
//! tells whether it is *right*. Each unit's checker lives in `testbench/src/spec/<unit>.rs`.

use std::fmt;

pub mod dispatcher;
pub mod dispatcher_tagged;
pub mod gpu_frontend;
pub mod kernel_expander;
pub mod lock_unit;
pub mod preempt_ctrl;
pub mod run_finder;
pub mod schedule_gen;
pub mod simt_issue;

/// One broken rule: at which cycle, which rule (a short stable name, e.g. `"grant-legal"`), and
/// what was seen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    pub cycle: usize,
    pub rule: &'static str,
    pub detail: String,
}

impl Violation {
    pub fn new(cycle: usize, rule: &'static str, detail: impl Into<String>) -> Self {
        Self {
            cycle,
            rule,
            detail: detail.into(),
        }
    }
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cycle {}: rule {} broken: {}",
            self.cycle, self.rule, self.detail
        )
    }
}

impl std::error::Error for Violation {}

/// Rules a checker does not report (it still follows the trace): for negative tests of a rule
/// that another one implies. A checker holds one and reports every violation through
/// [`Muted::fail`].
#[derive(Clone, Debug, Default)]
pub struct Muted(Vec<&'static str>);

impl Muted {
    /// Mute `rules` as well.
    pub fn extend(&mut self, rules: &[&'static str]) {
        self.0.extend_from_slice(rules);
    }

    /// `Err` with the violation unless `rule` is muted.
    pub fn fail(&self, cycle: usize, rule: &'static str, detail: String) -> Result<(), Violation> {
        if self.0.contains(&rule) {
            Ok(())
        } else {
            Err(Violation::new(cycle, rule, detail))
        }
    }
}

/// A transaction-level scoreboard for one unit, fed the port values of one trace.
///
/// Cycle convention as in [`golden_model::CycleModel::step`]: `check(cycle, i, o)` receives the
/// inputs driven during `cycle` and the outputs seen during that cycle, before the rising edge.
/// A synchronous `reset` in the inputs is part of the trace; the checker follows it.
pub trait SpecChecker {
    type In;
    type Out;
    /// Judge one cycle.
    fn check(&mut self, cycle: usize, i: &Self::In, o: &Self::Out) -> Result<(), Violation>;
    /// End of the trace after `cycles` cycles: obligations whose window has closed by then and
    /// are still open (for example an accepted request not answered within its bound) are
    /// violations; obligations whose window is still open are not.
    fn finish(&mut self, cycles: usize) -> Result<(), Violation> {
        let _ = cycles;
        Ok(())
    }
}

/// Judge a whole recorded trace (`inputs[c]` driven, `outputs[c]` seen in cycle `c`).
pub fn judge<C: SpecChecker + ?Sized>(
    checker: &mut C,
    inputs: &[C::In],
    outputs: &[C::Out],
) -> Result<(), Violation> {
    assert_eq!(
        inputs.len(),
        outputs.len(),
        "a trace needs one output row per input row"
    );
    for (c, (i, o)) in inputs.iter().zip(outputs).enumerate() {
        checker.check(c, i, o)?;
    }
    checker.finish(inputs.len())
}
