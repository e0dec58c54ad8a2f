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
