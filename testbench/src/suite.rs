//! The checks every unit shares, written once over the registry ([`crate::for_each_unit!`]):
//! `tests/units.rs` instantiates each for every unit, so adding a unit is its four faces (RTL,
//! golden model, spec checker, port table) plus one registry line.
//!
//! | check | what it asserts |
//! |---|---|
//! | [`export_passes_yosys_checks`] | the board-config export has no latch, no undriven or implicit net |
//! | [`export_has_the_port_table`] | the exported `module top` has `clock` (if clocked) and exactly the port table's ports, in frame order, at the table's widths ([`assert_port_table`], also for blocks outside the registry) |
//! | [`verilator_lint_is_clean`] | `verilator --lint-only -Wall` reports nothing (waivers in [`crate::verilator::lint`]) |
//! | [`registry_entry`] | seeded traces are deterministic and start with a reset; RustHDL equals the model, the invariants and the spec checker hold on 2000 cycles |
//! | [`verilator_replay`] | the export under Verilator equals the model every cycle and passes the spec checker (10^6 cycles in the default run) |
//! | [`verilator_long_regression`] | the same for `LONG_REGRESSION=<cycles>` cycles (skipped when unset) |
//!
//! Checks needing an EDA tool skip loudly without it and fail under `REQUIRE_EDA=1`.

use crate::lockstep::{long_regression_cycles, replay_checked};
use crate::unit::{BoardUnit, CheckedUnit};
use crate::verilator::{self, top_ports, TracePorts};
use golden_model::ResetInput;

/// The board-config export passes rust-hdl's yosys validation.
pub fn export_passes_yosys_checks<U: BoardUnit>() {
    verilator::assert_yosys_clean(U::NAME, &[("board", U::verilog())]);
}

/// The exported top's ports are the port table's (the contract outside benches drive): `clock`
/// first when the unit is clocked, then every port in the table's header order, each with its
/// direction and width.
pub fn export_has_the_port_table<U: BoardUnit>() {
    assert_port_table(U::NAME, &U::verilog(), &U::ports());
}

/// `verilog`'s `module top` has exactly the ports of the table `p`: `clock` first when `p` is
/// clocked, then every port in the table's header order, each with its direction and width
/// (`what` names the design in the failure message). Also for blocks outside the registry.
pub fn assert_port_table<P: TracePorts>(what: &str, verilog: &str, p: &P) {
    let got: Vec<(String, String, usize)> = top_ports(verilog)
        .unwrap_or_else(|e| panic!("{what}: {e}"))
        .into_iter()
        .map(|p| (p.dir, p.name, p.width))
        .collect();
    let table: Vec<(String, String, usize)> = p
        .inputs()
        .into_iter()
        .map(|x| ("input", x))
        .chain(p.outputs().into_iter().map(|x| ("output", x)))
        .map(|(d, x)| (d.to_string(), x.name, x.width))
        .collect();
    let mut want = vec![];
    if p.has_clock() {
        want.push(("input".to_string(), "clock".to_string(), 1));
    }
    for name in p.header_order() {
        let row = table.iter().find(|r| r.1 == name);
        want.push(
            row.cloned()
                .unwrap_or_else(|| panic!("{what}: {name} not in the table")),
        );
    }
    assert_eq!(
        want.len(),
        table.len() + usize::from(p.has_clock()),
        "{what}: header order"
    );
    assert_eq!(got, want, "{what}: exported top vs port table");
    assert!(verilog.contains("module top("), "{what}: module top");
}

/// Verilator lint of the board-config export.
pub fn verilator_lint_is_clean<U: BoardUnit>() {
    verilator::assert_lint_clean(&U::verilog());
}

/// The registry entry: seeded traces are deterministic, start with a reset and have the asked
/// length; the RustHDL simulation equals the golden model every cycle, and the port invariants
/// and the spec checker accept it.
pub fn registry_entry<U: CheckedUnit>() {
    let a = U::random_trace(7, 300);
    assert_eq!(a.len(), 300, "{}: length", U::NAME);
    assert_eq!(
        format!("{a:?}"),
        format!("{:?}", U::random_trace(7, 300)),
        "{}: same seed, same trace",
        U::NAME
    );
    assert_ne!(
        format!("{a:?}"),
        format!("{:?}", U::random_trace(8, 300)),
        "{}: another seed, another trace",
        U::NAME
    );
    assert_eq!(
        format!("{:?}", a[0]),
        format!("{:?}", U::In::reset_input()),
        "{}: starts with a reset",
        U::NAME
    );
    let t = U::random_trace(1, 2000);
    let (mut m, mut r, mut inv, mut spec) =
        (U::model(), U::rtl(), U::invariants(), U::spec_checker());
    for (c, i) in t.iter().enumerate() {
        let (want, got) = (m.step(i), r.step(i));
        assert_eq!(got, want, "{} cycle {c}: RustHDL vs model", U::NAME);
        inv(c, i, &got).unwrap_or_else(|e| panic!("{} cycle {c}: {e}", U::NAME));
        spec.check(c, i, &got)
            .unwrap_or_else(|v| panic!("{}: {v}", U::NAME));
    }
    spec.finish(t.len())
        .unwrap_or_else(|v| panic!("{}: {v}", U::NAME));
}

/// Cycles of the default run's Verilator replay of every unit (`tests/units.rs`,
/// `verilator_replay_1m_cycles`: [`verilator_replay`] with seed 2026); `synth mutate` sizes the
/// front end's trace budget by it.
pub const DEFAULT_REPLAY_CYCLES: usize = 1_000_000;

/// `cycles` cycles of [`BoardUnit::random_trace`] (`seed`) on the export under Verilator:
/// equal to the golden model every cycle and accepted by the spec checker.
pub fn verilator_replay<U: CheckedUnit>(seed: u64, cycles: usize) {
    if !verilator::tool_available("verilator") {
        return;
    }
    let trace = U::random_trace(seed, cycles);
    replay_checked(
        U::NAME,
        &U::verilog(),
        &U::ports(),
        &trace,
        &mut *U::model(),
        &mut *U::spec_checker(),
    );
}

/// The long regression: `LONG_REGRESSION=<cycles>` (or `default` for a value that doesn't
/// parse) cycles of seed 77 under Verilator; skipped when the variable is unset.
pub fn verilator_long_regression<U: CheckedUnit>(default: usize) {
    let Some(cycles) = long_regression_cycles(default) else {
        return;
    };
    verilator_replay::<U>(77, cycles);
}
