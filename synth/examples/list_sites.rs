//! Every candidate fault of an exported unit, one per line (tab-separated): id, module, line,
//! fault class, change, the line's text. The ids are those of `synth mutate` (the export's top
//! module must be named `top` and its sub-modules `top$…`, as mutate sees them: rename the
//! `synth export` file's `UNIT` / `UNIT$` first). Used to judge a whole class of equivalent
//! faults at once (docs/verification.md, "Injected faults, session 14").
//!
//! `cargo run --release -p synth --example list_sites -- UNIT FILE.v`

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 3 {
        eprintln!("usage: list_sites UNIT FILE.v");
        std::process::exit(2);
    }
    let verilog = std::fs::read_to_string(&args[2]).unwrap_or_else(|e| {
        eprintln!("{}: {e}", args[2]);
        std::process::exit(1);
    });
    let lines: Vec<&str> = verilog.lines().collect();
    for site in synth::mutate::candidate_sites(&args[1], &verilog) {
        for m in site {
            println!(
                "{}\t{}\t{}\t{}\t{}\t{}",
                m.id,
                m.module,
                m.line,
                m.kind,
                m.what,
                lines[m.line - 1].trim()
            );
        }
    }
}
