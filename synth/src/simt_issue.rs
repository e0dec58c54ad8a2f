//! SIMT issue unit: Verilog export, the program table (scheme vs IPDOM baseline) and the bench.

use golden_model::simt_issue::compiler::{transform, Mode};
use golden_model::simt_issue::interp::{run_scheme, Machine, Outcome, Run};
use golden_model::simt_issue::ipdom::run_ipdom;
use golden_model::simt_issue::isa::Program;
use golden_model::simt_issue::programs::{plain_programs, LockLayout};
use golden_model::simt_issue::{SimtConfig, SimtIssue as Model};
use hdl::simt_issue::{BoardSimtIssue, FullSimtIssue};
use std::fmt::Write as _;

/// Board-config Verilog (module `top`, the issue's port contract).
pub fn board_verilog() -> String {
    hdl::simt_issue::verilog(BoardSimtIssue::default())
}

/// Full-config Verilog (32 threads, 16-bit PCs; area only).
pub fn full_verilog() -> String {
    hdl::simt_issue::verilog(FullSimtIssue::default())
}

/// Cycle bound of every run in the table (the livelock detector's bound).
pub const MAX_CYCLES: u64 = 1_000_000;

/// One program's row: both runs at one warp size.
pub struct Row {
    pub name: String,
    pub threads: usize,
    pub has_lock: bool,
    pub source_len: usize,
    pub transformed_len: usize,
    pub scheme: Run,
    pub baseline: Run,
}

fn programs() -> Vec<(String, Program)> {
    let mut v: Vec<(String, Program)> = plain_programs()
        .into_iter()
        .map(|p| (p.name.to_string(), p.program()))
        .collect();
    v.extend(
        LockLayout::all()
            .into_iter()
            .map(|l| (l.name(), l.program())),
    );
    v
}

/// Run every program under the scheme (forced, so lock-free programs pay for it too) and under
/// the IPDOM baseline, for each warp size.
pub fn rows(threads: &[usize]) -> Vec<Row> {
    let mut out = vec![];
    for &t in threads {
        for (name, p) in programs() {
            let tr = transform(&p, Mode::Force).expect("the pass accepts every table program");
            let mut m = Machine::new(t);
            let mut unit = Model::new(SimtConfig {
                threads: t,
                pc_bits: 8,
            });
            let scheme = run_scheme(&tr.program, &mut m, &mut unit, MAX_CYCLES, false);
            let baseline = run_ipdom(&p, &mut Machine::new(t), MAX_CYCLES);
            out.push(Row {
                name,
                threads: t,
                has_lock: !tr.locks.is_empty(),
                source_len: p.len(),
                transformed_len: tr.program.len(),
                scheme,
                baseline,
            });
        }
    }
    out
}

fn outcome(r: &Run) -> String {
    match &r.outcome {
        Outcome::Finished => format!("{} / {}", r.instructions, r.cycles),
        Outcome::Livelock { cycle, proven } => {
            if *proven {
                format!("livelock (state repeats, cycle {cycle})")
            } else {
                format!("no end within {cycle} cycles")
            }
        }
        Outcome::Fault(e) => format!("fault: {e}"),
    }
}

/// The Markdown table of `synth simt-table`.
pub fn table(threads: &[usize]) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        "| program | T | lock | static instrs (source → transformed) | IPDOM: instrs / cycles | scheme: instrs / cycles | block ends | redirects | cycles scheme ÷ IPDOM |"
    );
    let _ = writeln!(s, "|---|---:|:---:|---:|---:|---:|---:|---:|---:|");
    for r in rows(threads) {
        let ratio = if r.baseline.finished() && r.scheme.finished() {
            format!("{:.2}", r.scheme.cycles as f64 / r.baseline.cycles as f64)
        } else {
            "—".into()
        };
        let _ = writeln!(
            s,
            "| `{}` | {} | {} | {} → {} | {} | {} | {} | {} | {} |",
            r.name,
            r.threads,
            if r.has_lock { "yes" } else { "no" },
            r.source_len,
            r.transformed_len,
            outcome(&r.baseline),
            outcome(&r.scheme),
            r.scheme.block_ends,
            r.scheme.redirects,
            ratio
        );
    }
    s
}

/// The SIMT issue unit's part of `synth bench` after the speed table ([`crate::bench`]).
pub fn bench_extra() -> String {
    "Decision latency: every strobe's decision shows on the outputs 1 cycle later (registered; checked every cycle by lockstep and by the spec checker).\n".to_string()
}
