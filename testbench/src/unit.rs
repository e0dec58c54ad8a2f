//! One registry trait over every unit's board config, for the tools that treat all units alike:
//! the injected-fault score (`synth mutate`), the board bridge and its four-way lockstep
//! (golden model, RustHDL, Verilator, simulated board), and recorded scenario files.
//!
//! Each unit implements [`BoardUnit`] next to its adapter in `testbench/src/<unit>.rs` and
//! [`CheckedUnit`] next to its spec checker in `testbench/src/spec/<unit>.rs`, and has one line in
//! [`for_each_unit!`](crate::for_each_unit) — the registry: the shared test suite
//! ([`crate::suite`], `tests/units.rs`), `synth export`, `synth bench` and the tools that take a
//! `--unit NAME` (matched against [`BoardUnit::NAME`], see [`names`]) iterate it.

use crate::spec::SpecChecker;
use crate::verilator::{Port, TracePorts};
use golden_model::{CycleModel, ResetInput};
use std::fmt::Debug;

/// A unit's per-cycle output invariant check (SPEC's "check every cycle" list), on any trace.
pub type Invariants<I, O> = Box<dyn FnMut(usize, &I, &O) -> Result<(), String>>;

/// Everything the cross-unit tools need about one unit's board config.
pub trait BoardUnit {
    /// SPEC's unit name (`lock_unit`, `dispatcher`, `run_finder_tree_128`, `preempt_ctrl`, ...):
    /// exported file names and CLI `--unit` values derive from it.
    const NAME: &'static str;
    /// The board config in one line (the manifest's `config`, `synth bench`'s heading).
    const CONFIG: &'static str;
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
    /// How many traces of the unit's corner family ([`BoardUnit::corner_trace`]) `synth mutate`
    /// runs after the random ones (trace k of seed S: seed 1000 · S + 500 + k): none unless the
    /// unit has one.
    const CORNER_TRACES: usize = 0;
    /// Trace `k` (< [`BoardUnit::CORNER_TRACES`]) of the unit's corner family: stimulus aimed at
    /// a class of rare events the random stream meets too seldom for a scored run, the same
    /// kinds at every seed (a family of traces per class, not a trace for one fault).
    /// Deterministic in `seed` and `k`, starts with a reset, exactly `cycles` long. Without a
    /// family: the random trace.
    fn corner_trace(seed: u64, k: usize, cycles: usize) -> Vec<Self::In> {
        let _ = k;
        Self::random_trace(seed, cycles)
    }
}

/// Declares a unit's board type and its [`BoardUnit`] impl from the parts that differ between
/// units: the name and config line, the port table, the Verilog export, the golden model and the
/// RustHDL block of the board config (wrapped in [`RtlSim`](crate::rtl::RtlSim)); `In`/`Out`
/// are the port table's. The remaining items (`invariants`, `random_trace`) follow as written
/// inside an impl.
#[macro_export]
macro_rules! board_unit {
    (
        $(#[$meta:meta])*
        pub struct $board:ident: $name:literal, $config:literal;
        ports: $ports:ty = $ports_value:expr;
        verilog: $verilog:expr;
        model: $model:expr;
        rtl: $rtl:expr;
        $($rest:tt)*
    ) => {
        $(#[$meta])*
        pub struct $board;

        impl $crate::unit::BoardUnit for $board {
            const NAME: &'static str = $name;
            const CONFIG: &'static str = $config;
            type In = <$ports as $crate::verilator::TracePorts>::In;
            type Out = <$ports as $crate::verilator::TracePorts>::Out;
            type Ports = $ports;

            fn ports() -> $ports {
                $ports_value
            }
            fn verilog() -> String {
                $verilog
            }
            fn model() -> $crate::unit::BoxedModel<Self> {
                Box::new($model)
            }
            fn rtl() -> $crate::unit::BoxedModel<Self> {
                Box::new($crate::rtl::RtlSim::new($rtl))
            }
            $($rest)*
        }
    };
}

/// A boxed cycle model over a unit's ports (the golden model or a simulation of the RTL).
pub type BoxedModel<U> =
    Box<dyn CycleModel<In = <U as BoardUnit>::In, Out = <U as BoardUnit>::Out>>;

/// The registry: calls `$m!(module_name, UnitType)` once per unit, in the order the tools list
/// them. Adding a unit is one line here (plus its [`BoardUnit`] and [`CheckedUnit`] impls).
#[macro_export]
macro_rules! for_each_unit {
    ($m:ident) => {
        $m!(lock_unit, $crate::lock_unit::LockUnitBoard);
        $m!(dispatcher, $crate::dispatcher::DispatcherBoard);
        $m!(
            run_finder_tree_pipe_128,
            $crate::run_finder::TreePipe128Board
        );
        $m!(preempt_ctrl, $crate::preempt_ctrl::PreemptCtrlBoard);
        $m!(simt_issue, $crate::simt_issue::SimtIssueBoard);
        $m!(schedule_gen, $crate::schedule_gen::ScheduleGenBoard);
        $m!(
            kernel_expander,
            $crate::kernel_expander::KernelExpanderBoard
        );
        $m!(
            dispatcher_tagged,
            $crate::dispatcher_tagged::DispatcherTaggedBoard
        );
        $m!(gpu_frontend, $crate::gpu_frontend::GpuFrontendBoard);
    };
}

/// A generic action over one registered unit (the runtime face of [`for_each_unit!`]).
pub trait UnitVisitor {
    type Out;
    fn visit<U: CheckedUnit>(&mut self) -> Self::Out;
}

/// Every registered unit's [`BoardUnit::NAME`], in registry order.
pub fn names() -> Vec<&'static str> {
    let mut v = vec![];
    macro_rules! push {
        ($m:ident, $u:ty) => {
            v.push(<$u as BoardUnit>::NAME);
        };
    }
    crate::for_each_unit!(push);
    v
}

/// Run `visitor` on the unit named `name`; `None` when no unit has that name.
pub fn visit<V: UnitVisitor>(name: &str, visitor: &mut V) -> Option<V::Out> {
    macro_rules! try_unit {
        ($m:ident, $u:ty) => {
            if name == <$u as BoardUnit>::NAME {
                return Some(visitor.visit::<$u>());
            }
        };
    }
    crate::for_each_unit!(try_unit);
    None
}

/// Run `visitor` on every registered unit, in registry order.
pub fn visit_all<V: UnitVisitor>(visitor: &mut V) -> Vec<V::Out> {
    let mut v = vec![];
    macro_rules! each {
        ($m:ident, $u:ty) => {
            v.push(visitor.visit::<$u>());
        };
    }
    crate::for_each_unit!(each);
    v
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

    /// For a unit composed of other units (SPEC Unit 8: "every unit's own checker also run on
    /// its internal ports"): its export `verilog` prepared for Verilator so that the sub-units'
    /// ports are judged by their own spec checkers ([`InternalCheck`]); `extra` are further
    /// inputs of `verilog`'s top (`synth mutate`'s `mutant_sel`), driven per trace. `None` for
    /// a unit without sub-units (the default).
    fn internal_check(
        verilog: &str,
        extra: &[Port],
    ) -> Option<anyhow::Result<BoxedInternalCheck<Self>>> {
        let _ = (verilog, extra);
        None
    }
}

/// A composed unit's export, prepared once (wrapped and built), replayed on traces with its
/// sub-units' own checkers on their ports inside it ([`CheckedUnit::internal_check`]).
pub trait InternalCheck {
    type In;
    type Out;
    /// Replay `inputs` with the extra inputs held at `extra` (one value per extra port): the top's
    /// outputs of every cycle, and the first rule a sub-unit's own checker finds broken on its
    /// ports (`finish` included), if any. `judge` false skips the checkers (outputs only).
    fn replay(
        &self,
        extra: &[u128],
        inputs: &[Self::In],
        judge: bool,
    ) -> anyhow::Result<InternalRun<Self::Out>>;
}

/// A boxed [`InternalCheck`] over a unit's ports.
pub type BoxedInternalCheck<U> =
    Box<dyn InternalCheck<In = <U as BoardUnit>::In, Out = <U as BoardUnit>::Out>>;

/// What [`InternalCheck::replay`] saw.
pub struct InternalRun<O> {
    /// The top's outputs, one per input cycle.
    pub outputs: Vec<O>,
    /// The first broken rule: the sub-unit (its registry name) and the violation.
    pub violation: Option<(&'static str, crate::spec::Violation)>,
}
