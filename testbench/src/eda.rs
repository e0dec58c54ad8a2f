//! EDA tool discovery. Tests that need a tool call [`tool_available`]: a missing tool prints a
//! loud SKIP line, unless `REQUIRE_EDA=1`, which turns the absence into a panic (CI sets it).

use std::path::Path;
use std::process::{Command, Stdio};

/// The Debian packages that provide the EDA tools this project uses.
pub const DEBIAN_PACKAGES: &str = "yosys nextpnr-ice40 fpga-icestorm verilator iverilog";

/// Is `tool` on the PATH? Panics when it is missing and `REQUIRE_EDA=1`.
pub fn tool_available(tool: &str) -> bool {
    let found = Command::new(tool)
        .arg(if tool == "iverilog" {
            "-V"
        } else {
            "--version"
        })
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok();
    if !found {
        let msg = format!(
            "`{tool}` not found on PATH (install the Debian packages: apt-get install {DEBIAN_PACKAGES})"
        );
        if std::env::var("REQUIRE_EDA").as_deref() == Ok("1") {
            panic!("REQUIRE_EDA=1 but {msg}");
        }
        eprintln!("\n*** SKIPPED: {msg} ***\n");
    }
    found
}

/// Run `tool` with `args` in `dir`: (it exited with success, its stdout followed by its stderr).
/// Panics when the tool cannot be started.
pub fn run_in(dir: impl AsRef<Path>, tool: &str, args: &[&str]) -> (bool, String) {
    let out = Command::new(tool)
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("running {tool}: {e}"));
    let log = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), log)
}

/// What ABC (`yosys-abc`) said of an AIGER model's properties (its outputs must stay 0).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum AbcVerdict {
    /// `pdr`: every property holds in every reachable state (an inductive invariant was found
    /// and checked).
    Proven,
    /// `bmc3 -F N`: no property fails in the first N steps (step 1 = the reset step).
    HoldsFor(usize),
    /// A property fails in step N (a counterexample of N steps, step 1 = the reset step).
    FailsAtStep(usize),
    /// Anything else (a time limit reached, an ABC error): the log says.
    Unknown,
}

/// Read ABC's log: `Property proved.` (pdr), `… was asserted in frame F` (ABC counts frames
/// from 0, the reset step: step F + 1), `No output asserted in N frames.` (bmc3).
pub fn abc_verdict(log: &str) -> AbcVerdict {
    let number_after = |key: &str| -> Option<usize> {
        let rest = &log[log.find(key)? + key.len()..];
        rest.split(|c: char| !c.is_ascii_digit())
            .find(|w| !w.is_empty())?
            .parse()
            .ok()
    };
    if log.contains("Property proved.") {
        AbcVerdict::Proven
    } else if let Some(f) = number_after("was asserted in frame ") {
        AbcVerdict::FailsAtStep(f + 1)
    } else if let Some(n) = number_after("No output asserted in ") {
        AbcVerdict::HoldsFor(n)
    } else {
        AbcVerdict::Unknown
    }
}
