//! One registry trait over every unit's board config, for the tools that treat all units alike:
//! the injected-fault score (`synth mutate`), the board bridge and its four-way lockstep
//! (golden model, RustHDL, Verilator, simulated board), and recorded scenario files.
//!
//! Each unit implements [`BoardUnit`] next to its adapter in `testbench/src/<unit>.rs` and
//! [`CheckedUnit`] next to its spec checker in `testbench/src/spec/<unit>.rs`; a tool that takes
//! a `--unit NAME` matches it against [`BoardUnit::NAME`].

use crate::spec::SpecChecker;
use crate::verilator::TracePorts;
use golden_model::{CycleModel, ResetInput};
use std::fmt::Debug;

/// A unit's per-cycle output invariant check (SPEC's "check every cycle" list), on any trace.
pub type Invariants<I, O> = Box<dyn FnMut(usize, &I, &O) -> Result<(), String>>;

/// Everything the cross-unit tools need about one unit's board config.
pub trait BoardUnit {
    /// SPEC's unit name (`lock_unit`, `dispatcher`, `run_finder_tree_128`, `preempt_ctrl`, ...):
    /// exported file names and CLI `--unit` values derive from it.
    const NAME: &'static str;
    type In: Clone + Debug + Default + ResetInput + 'static;
    type Out: Clone + Debug + PartialEq + 'static;
    type Ports: TracePorts<In = Self::In, Out = Self::Out>;

    /// The exported top's port table, in frame order (the manifest and the bridge use it).
    fn ports() -> Self::Ports;
    /// The board-config Verilog, module `top` (the export contract).
    fn verilog() -> String;
    /// The golden cycle model, board config, freshly built (idle).
    fn model() -> Box<dyn CycleModel<In = Self::In, Out = Self::Out>>;
    /// The RustHDL simulation of the board config, freshly built.
    fn rtl() -> Box<dyn CycleModel<In = Self::In, Out = Self::Out>>;
    /// The port-level invariants checked every cycle.
    fn invariants() -> Invariants<Self::In, Self::Out>;
    /// The unit's standard random stimulus (idle cycles, backpressure, bad inputs), deterministic
    /// in `seed`, starting with a reset cycle, exactly `cycles` long.
    fn random_trace(seed: u64, cycles: usize) -> Vec<Self::In>;
}

/// The proptest runner behind every unit's [`BoardUnit::random_trace`]: ChaCha seeded with
/// `seed` (little-endian in the first 8 of 32 seed bytes), so a seed names one trace.
pub fn seeded_runner(seed: u64) -> proptest::test_runner::TestRunner {
    use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
    let mut seed_bytes = [0u8; 32];
    seed_bytes[..8].copy_from_slice(&seed.to_le_bytes());
    let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &seed_bytes);
    TestRunner::new_with_rng(Config::default(), rng)
}

/// A unit that also has its spec checker (SPEC §0); every unit gets one.
pub trait CheckedUnit: BoardUnit {
    /// The spec checker (SPEC alone, no pipeline state), freshly built.
    fn spec_checker() -> Box<dyn SpecChecker<In = Self::In, Out = Self::Out>>;
}

#[cfg(test)]
mod tests {
    use super::BoardUnit;
    use crate::dispatcher::DispatcherBoard;
    use crate::lock_unit::LockUnitBoard;

    /// The random traces are deterministic in the seed, start with a reset and have the length
    /// asked for; different seeds give different stimulus.
    fn deterministic<U: BoardUnit>() {
        let a = U::random_trace(7, 300);
        let b = U::random_trace(7, 300);
        let c = U::random_trace(8, 300);
        assert_eq!(a.len(), 300);
        assert_eq!(format!("{a:?}"), format!("{b:?}"), "{}: same seed", U::NAME);
        assert_ne!(
            format!("{a:?}"),
            format!("{c:?}"),
            "{}: other seed",
            U::NAME
        );
        assert_eq!(
            format!("{:?}", a[0]),
            format!("{:?}", <U::In as golden_model::ResetInput>::reset_input()),
            "{}: starts with reset",
            U::NAME
        );
    }

    /// The RustHDL simulation and the golden model agree on a seeded trace through the registry.
    fn rtl_matches_model<U: BoardUnit>() {
        let t = U::random_trace(1, 400);
        let (mut m, mut r, mut inv) = (U::model(), U::rtl(), U::invariants());
        for (c, i) in t.iter().enumerate() {
            let (want, got) = (m.step(i), r.step(i));
            assert_eq!(got, want, "{} cycle {c}", U::NAME);
            inv(c, i, &got).unwrap_or_else(|e| panic!("{} cycle {c}: {e}", U::NAME));
        }
    }

    #[test]
    fn lock_unit_registry() {
        deterministic::<LockUnitBoard>();
        rtl_matches_model::<LockUnitBoard>();
    }

    #[test]
    fn run_finder_registry() {
        deterministic::<crate::run_finder::TreePipe128Board>();
        rtl_matches_model::<crate::run_finder::TreePipe128Board>();
    }

    #[test]
    fn preempt_ctrl_registry() {
        use crate::unit::CheckedUnit;
        type U = crate::preempt_ctrl::PreemptCtrlBoard;
        deterministic::<U>();
        rtl_matches_model::<U>();
        let t = U::random_trace(3, 2000);
        let mut m = U::model();
        let outs: Vec<_> = t.iter().map(|i| m.step(i)).collect();
        crate::spec::judge(&mut *U::spec_checker(), &t, &outs).unwrap();
    }

    #[test]
    fn dispatcher_registry() {
        deterministic::<DispatcherBoard>();
        rtl_matches_model::<DispatcherBoard>();
    }
}
