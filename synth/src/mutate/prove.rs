//! Formal equivalence of a surviving mutant (`synth mutate`, issue #25): a survivor that no
//! check caught is either a fault the stimulus does not reach or a change no input sequence can
//! observe. A written note (`synth/mutants/<unit>.equivalent`) judges one mutant id at one seed;
//! a proof judges whatever survivor any seed draws.
//!
//! **Miter** (Verilog appended to the mutant schemata, whose `top` reads `mutant_sel`): two
//! instances of `top`, `gold` with `mutant_sel = 0` (the export) and `gate` with `mutant_sel =
//! K` (mutant K), the same inputs, one output `bad` = any output port differs. `reset` is forced
//! high in the first step (a register `m_first`, initial 1, then 0), as every random trace of
//! the unit starts with a reset cycle; after it every input is free in every step.
//!
//! **Proof**: Debian yosys flattens the miter (the constant `mutant_sel` removes every other
//! mutant), maps memories to flip-flops and writes AIGER with the flip-flops' `initial` values
//! (= their reset values, SPEC §0; a flip-flop without one gets a free initial value per copy,
//! which can only make a proof fail, never succeed wrongly); ABC's `pdr` then proves `bad`
//! never rises in any reachable state — the two designs agree on every output, in every cycle,
//! for every input sequence that starts with a reset. A counterexample or a time limit leaves
//! the survivor non-equivalent. CPU-time limit of ABC per mutant: `MUTATE_PROVE_SECS` (default 60 s;
//! 0 turns proofs off), so that a verdict does not depend on the machine's load. Without `yosys` or `yosys-abc` on the PATH nothing is proven (a note says so).

use std::path::Path;
use std::process::Command;
use std::time::Instant;
use testbench::eda::{abc_verdict, AbcVerdict};
use testbench::verilator::Port;

/// CPU seconds yosys may take to write one miter's AIGER (the 128-block finder: ~15 s).
const YOSYS_CPU_SECS: u64 = 300;

/// What the proof said of one mutant.
#[derive(Clone, Debug, PartialEq)]
pub enum Proof {
    /// `bad` never rises: equivalent (seconds of yosys + ABC).
    Equivalent(f64),
    /// ABC found a trace on which an output differs (its step, 1 = the reset step).
    Differs(usize),
    /// No answer within the limit, or a tool failed (what happened).
    Unknown(String),
}

/// ABC's CPU-time limit per mutant in seconds (`MUTATE_PROVE_SECS`, default 60; 0 = no proofs).
pub fn time_limit() -> u64 {
    std::env::var("MUTATE_PROVE_SECS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(60)
}

/// Are yosys and yosys-abc on the PATH?
pub fn tools_present() -> bool {
    ["yosys", "yosys-abc"].iter().all(|t| {
        Command::new(t)
            .arg(if *t == "yosys" { "-V" } else { "-h" })
            .output()
            .is_ok()
    })
}

/// The miter module for mutant `sel` of a schemata design with these ports (`inputs` without
/// `mutant_sel`; `reset`, when present, is forced high in the first step).
pub fn miter(inputs: &[Port], outputs: &[Port], has_clock: bool, sel: usize) -> String {
    let range = |w: usize| {
        if w > 1 {
            format!("[{}:0] ", w - 1)
        } else {
            String::new()
        }
    };
    let mut v = String::from("\nmodule mutate_miter(");
    let mut args: Vec<String> = vec![];
    if has_clock {
        args.push("clock".into());
    }
    args.extend(inputs.iter().map(|p| format!("i_{}", p.name)));
    args.push("bad".into());
    v += &args.join(", ");
    v += ");\n";
    if has_clock {
        v += "    input wire clock;\n";
    }
    for p in inputs {
        v += &format!("    input wire {}i_{};\n", range(p.width), p.name);
    }
    v += "    output wire bad;\n";
    let has_reset = inputs.iter().any(|p| p.name == "reset");
    if has_reset {
        v += "    reg m_first = 1'b1;\n";
        v += "    always @(posedge clock) m_first <= 1'b0;\n";
    }
    for p in outputs {
        v += &format!(
            "    wire {r}g_{n};\n    wire {r}m_{n};\n",
            r = range(p.width),
            n = p.name
        );
    }
    for (inst, k, pre) in [("gold", 0usize, "g_"), ("gate", sel, "m_")] {
        let mut conns: Vec<String> = vec![];
        if has_clock {
            conns.push(".clock(clock)".into());
        }
        for p in inputs {
            if p.name == "reset" && has_reset {
                conns.push(".reset(i_reset | m_first)".into());
            } else {
                conns.push(format!(".{n}(i_{n})", n = p.name));
            }
        }
        conns.push(format!(".mutant_sel(16'd{k})"));
        for p in outputs {
            conns.push(format!(".{n}({pre}{n})", n = p.name));
        }
        v += &format!("    top {inst}({});\n", conns.join(", "));
    }
    let diffs: Vec<String> = outputs
        .iter()
        .map(|p| format!("(g_{n} != m_{n})", n = p.name))
        .collect();
    v += &format!(
        "    assign bad = {};\nendmodule\n",
        if diffs.is_empty() {
            "1'b0".to_string()
        } else {
            diffs.join(" | ")
        }
    );
    v
}

/// Prove mutant `sel` of `schemata` equivalent to the export, in `dir` (created), within
/// `secs` CPU seconds of ABC.
pub fn prove(
    dir: &Path,
    schemata: &str,
    inputs: &[Port],
    outputs: &[Port],
    has_clock: bool,
    sel: usize,
    secs: u64,
) -> Proof {
    let t0 = Instant::now();
    if let Err(e) = std::fs::create_dir_all(dir) {
        return Proof::Unknown(format!("work directory: {e}"));
    }
    let text = format!("{schemata}{}", miter(inputs, outputs, has_clock, sel));
    if let Err(e) = std::fs::write(dir.join("miter.v"), text) {
        return Proof::Unknown(format!("writing the miter: {e}"));
    }
    // per module before `flatten` (once for both copies): processes, constants, widths
    // (RustHDL writes every literal 32 bits wide); after it, `opt_merge` shares what the two
    // copies compute alike, so only the mutation's cone is left twice
    let script = "read_verilog miter.v; hierarchy -top mutate_miter; proc; opt_expr; opt_clean; \
                  wreduce; opt_clean; flatten; memory_map; opt_expr; opt_merge; opt_clean; \
                  async2sync; setundef -undriven -anyseq; techmap; opt_clean; dffunmap; aigmap; \
                  opt_clean; write_aiger -zinit miter.aig";
    // CPU-time limits (`ulimit -t`), so that a verdict does not depend on the machine's load
    let run = |cpu: u64, cmd: &str| {
        Command::new("sh")
            .current_dir(dir)
            .args(["-c", &format!("ulimit -t {cpu}; exec {cmd}")])
            .output()
    };
    match run(YOSYS_CPU_SECS, &format!("yosys -q -p '{script}'")) {
        Ok(o) if o.status.success() => {}
        Ok(o) => {
            return Proof::Unknown(format!(
                "yosys failed or reached its {YOSYS_CPU_SECS} s CPU limit (status {:?}): {}",
                o.status.code(),
                String::from_utf8_lossy(&o.stderr)
                    .lines()
                    .last()
                    .unwrap_or("")
            ))
        }
        Err(e) => return Proof::Unknown(format!("running yosys: {e}")),
    }
    let out = match run(secs, "yosys-abc -c 'read_aiger miter.aig; strash; pdr'") {
        Ok(o) => o,
        Err(e) => return Proof::Unknown(format!("running yosys-abc: {e}")),
    };
    match abc_verdict(&String::from_utf8_lossy(&out.stdout)) {
        AbcVerdict::Proven => Proof::Equivalent(t0.elapsed().as_secs_f64()),
        AbcVerdict::FailsAtStep(step) => Proof::Differs(step),
        AbcVerdict::HoldsFor(_) | AbcVerdict::Unknown => Proof::Unknown(format!(
            "no proof within {secs} s of CPU (status {:?})",
            out.status.code()
        )),
    }
}
