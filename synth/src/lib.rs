//! Library behind the `synth` CLI: Verilog export, the iCE40 flow, benches and reports.

pub mod bench;
pub mod board;
pub mod dispatcher;
pub mod dispatcher_scale;
pub mod ecp5;
pub mod eval_system;
pub mod export;
pub mod flow;
pub mod lock_unit;
pub mod mutate;
pub mod names;
pub mod preempt_ctrl;
pub mod readme;
pub mod run_finder;
pub mod schedule_gen;
pub mod simt_issue;
pub mod svg;
pub mod ulx3s;

/// A simulation speed for the bench reports: `cycles` stepped in `secs`, in M or k cycles/s.
pub fn rate(cycles: usize, secs: f64) -> String {
    let r = cycles as f64 / secs;
    if r >= 1e6 {
        format!("{:.2} M cycles/s", r / 1e6)
    } else {
        format!("{:.1} k cycles/s", r / 1e3)
    }
}

/// What `--only X` selects: the unit named exactly X when X is a registered unit's name (so
/// `--only dispatcher` is the dispatcher alone, not `dispatcher_tagged` too); otherwise every
/// name containing X (`--only run_finder_`, `--only lock_unit_full`). No filter selects all.
pub fn only_selects(only: Option<&str>, name: &str) -> bool {
    match only {
        None => true,
        Some(o) if testbench::unit::names().contains(&o) => name == o,
        Some(o) => name.contains(o),
    }
}

#[cfg(test)]
mod only_tests {
    use super::only_selects;

    #[test]
    fn only_is_exact_for_a_registered_name_and_a_substring_otherwise() {
        assert!(only_selects(None, "dispatcher_tagged"));
        assert!(only_selects(Some("dispatcher"), "dispatcher"));
        assert!(!only_selects(Some("dispatcher"), "dispatcher_tagged"));
        assert!(only_selects(Some("dispatcher_tagged"), "dispatcher_tagged"));
        assert!(only_selects(
            Some("run_finder_"),
            "run_finder_tree_pipe_128"
        ));
        assert!(!only_selects(Some("run_finder_"), "lock_unit"));
    }
}
