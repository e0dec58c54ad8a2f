//! The checks every unit shares ([`testbench::suite`]), instantiated once per registered unit
//! ([`testbench::for_each_unit!`]): `cargo test --test units <unit>` runs one unit's.
//!
//! Per unit: `export_passes_yosys_checks`, `export_has_the_port_table`,
//! `verilator_lint_is_clean`, `registry_entry`, `verilator_replay_1m_cycles` (10^6 cycles of
//! the unit's standard random trace, seed 2026, against the golden model and the spec checker)
//! and `verilator_long_regression` (`LONG_REGRESSION=<cycles>`, default 10^7). A unit's own
//! `tests/<unit>.rs` keeps what is its alone: other configs, stimulus coverage, negative tests of
//! its checker rules, evaluations.

macro_rules! unit_suite {
    ($m:ident, $u:ty) => {
        mod $m {
            use testbench::suite;
            type U = $u;

            testbench::test_cases! {
                export_passes_yosys_checks: suite::export_passes_yosys_checks::<U>();
                export_has_the_port_table: suite::export_has_the_port_table::<U>();
                verilator_lint_is_clean: suite::verilator_lint_is_clean::<U>();
                registry_entry: suite::registry_entry::<U>();
                verilator_replay_1m_cycles: suite::verilator_replay::<U>(2026, suite::DEFAULT_REPLAY_CYCLES);
                verilator_long_regression: suite::verilator_long_regression::<U>(10_000_000);
            }
        }
    };
}

testbench::for_each_unit!(unit_suite);

/// The registry lists each unit once, under the name its export and `--unit` use.
#[test]
fn registry_names_are_unique() {
    let names = testbench::unit::names();
    let mut sorted = names.clone();
    sorted.sort();
    sorted.dedup();
    assert_eq!(sorted.len(), names.len(), "{names:?}");
    assert!(names.contains(&"lock_unit") && names.contains(&"kernel_expander"));
}
