//! The default run's one test binary: every `tests/*.rs` file as a module.
//!
//! `cargo test` builds this binary instead of one binary per file (each file's own target is
//! declared in `Cargo.toml` with `test = false`, so `cargo test --test lock_unit ...` still
//! builds and runs that file alone, as the deep-run commands in the README do). One binary
//! compiles the generic RustHDL blocks and checkers each file instantiates once instead of once
//! per file, and its test threads run the files' tests side by side instead of one file after
//! the other; cost measured in docs/verification.md, "Cost of the default run".
//! A test name is the file's name and the test's: `lock_unit::lockstep_board`.

#[path = "../board_top.rs"]
mod board_top;
#[path = "../dispatcher.rs"]
mod dispatcher;
#[path = "../dispatcher_full.rs"]
mod dispatcher_full;
#[path = "../dispatcher_scale.rs"]
mod dispatcher_scale;
#[path = "../dispatcher_tagged.rs"]
mod dispatcher_tagged;
#[path = "../ecp5.rs"]
mod ecp5;
#[path = "../exports.rs"]
mod exports;
#[path = "../formal.rs"]
mod formal;
#[path = "../gpu_frontend_probe.rs"]
mod gpu_frontend_probe;
#[path = "../gpu_frontend_registry.rs"]
mod gpu_frontend_registry;
#[path = "../gpu_frontend_system.rs"]
mod gpu_frontend_system;
#[path = "../kernel_expander.rs"]
mod kernel_expander;
#[path = "../lock_eval.rs"]
mod lock_eval;
#[path = "../lock_unit.rs"]
mod lock_unit;
#[path = "../preempt_ctrl.rs"]
mod preempt_ctrl;
#[path = "../run_finder.rs"]
mod run_finder;
#[path = "../schedule_gen.rs"]
mod schedule_gen;
#[path = "../simt_issue.rs"]
mod simt_issue;
#[path = "../units.rs"]
mod units;

/// Every `tests/*.rs` file is a module of this binary and has its own `test = false` target in
/// `Cargo.toml`: a file left out of either would silently leave the default run, or run twice.
#[test]
fn every_test_file_is_in_the_default_run() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let main = std::fs::read_to_string(dir.join("tests/all/main.rs")).unwrap();
    let manifest = std::fs::read_to_string(dir.join("Cargo.toml")).unwrap();
    let mut files: Vec<String> = std::fs::read_dir(dir.join("tests"))
        .unwrap()
        .filter_map(|e| {
            let name = e.unwrap().file_name().into_string().unwrap();
            name.strip_suffix(".rs").map(str::to_string)
        })
        .collect();
    files.sort();
    assert!(files.len() >= 18, "tests/ holds {} files", files.len());
    for f in &files {
        assert!(
            main.contains(&format!("#[path = \"../{f}.rs\"]\nmod {f};")),
            "tests/{f}.rs is not a module of tests/all/main.rs"
        );
        assert!(
            manifest.contains(&format!(
                "[[test]]\nname = \"{f}\"\npath = \"tests/{f}.rs\"\ntest = false\n"
            )),
            "tests/{f}.rs has no `test = false` target in Cargo.toml"
        );
    }
}
