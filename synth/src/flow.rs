//! The iCE40 flow: wrap an exported top in a measurement harness, synthesize with yosys
//! (`synth_ice40`), place and route with nextpnr-ice40 for the HX8K in the CB132 package, and
//! parse the utilisation and the achieved clock frequency. Every tool's exit code is checked.
//!
//! ## Why a harness
//! A unit's top has more ports than the CB132 has pins (the lock unit: 101), and combinational
//! blocks have no clock. The harness drives every input from a scan shift register fed by one
//! pin, registers every output, and XOR-reduces the output registers to one pin so that nothing
//! can be optimised away. All paths into and out of the unit are therefore register to register,
//! as they would be inside a larger design. The harness costs one flip-flop per input and output
//! bit plus an XOR tree (reported as `harness_ffs`); `lcs` includes it.

use anyhow::{anyhow, bail, ensure, Context, Result};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// Time limit for yosys runs (they do not hang; the full lock unit takes about 9 minutes).
const YOSYS_LIMIT: Duration = Duration::from_secs(3600);

/// Place-and-route time limit: `PNR_TIMEOUT` seconds, default 300.
pub fn pnr_timeout() -> Duration {
    Duration::from_secs(
        std::env::var("PNR_TIMEOUT")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(900),
    )
}

pub use testbench::verilator::{module_ports, top_ports, PortDecl};

/// Verilog of the measurement harness around `module top` (see the module doc).
pub fn harness(ports: &[PortDecl]) -> String {
    harness_of(ports, "top")
}

/// [`harness`] around `module <module>`.
pub fn harness_of(ports: &[PortDecl], module: &str) -> String {
    let ins: Vec<&PortDecl> = ports
        .iter()
        .filter(|p| p.dir == "input" && p.name != "clock")
        .collect();
    let outs: Vec<&PortDecl> = ports.iter().filter(|p| p.dir == "output").collect();
    let nin: usize = ins.iter().map(|p| p.width).sum::<usize>().max(1);
    let nout: usize = outs.iter().map(|p| p.width).sum::<usize>().max(1);
    let shift = if nin == 1 {
        "sin".to_string()
    } else {
        format!("{{scan[{}:0], sin}}", nin - 2)
    };
    let mut s = format!(
        "module harness(input clk, input sin, output sout);\n  reg [{}:0] scan = 0;\n  always @(posedge clk) scan <= {shift};\n",
        nin - 1
    );
    s += &format!(
        "  wire [{}:0] outs;\n  reg [{}:0] captured = 0;\n",
        nout - 1,
        nout - 1
    );
    s += &format!(
        "  always @(posedge clk) captured <= outs;\n  assign sout = ^captured;\n  {module} dut(\n"
    );
    let mut conns = vec![];
    if ports.iter().any(|p| p.name == "clock") {
        conns.push("    .clock(clk)".to_string());
    }
    // consecutive slices of a vector, one per port
    let mut slice = |vector: &str, ports: &[&PortDecl]| {
        let mut off = 0;
        for p in ports {
            conns.push(format!(
                "    .{}({vector}[{}:{off}])",
                p.name,
                off + p.width - 1
            ));
            off += p.width;
        }
    };
    slice("scan", &ins);
    slice("outs", &outs);
    s += &conns.join(",\n");
    s += "\n  );\nendmodule\n";
    s
}

/// Result of one synthesis + place-and-route run.
#[derive(Clone, Debug, Serialize)]
pub struct SynthResult {
    pub unit: String,
    /// Logic cells used (nextpnr `ICESTORM_LC`), harness included.
    pub lcs: u32,
    /// Logic cells of the device (HX8K: 7680).
    pub lcs_total: u32,
    /// Achieved clock frequency reported by nextpnr: with several placement seeds, the median
    /// (the lower middle value for an even count).
    pub fmax_mhz: f64,
    pub meets_100mhz: bool,
    /// Flip-flops the harness adds (one per input and output bit).
    pub harness_ffs: u32,
    /// Target frequency given to nextpnr.
    pub target_mhz: f64,
    /// Fmax of every placement seed that was run: `[seed, MHz]`.
    pub fmax_mhz_by_seed: Vec<(u64, f64)>,
}

impl SynthResult {
    /// Every seed's Fmax for a report cell: `1: 91.9, 2: 95.1`.
    pub fn fmax_by_seed_text(&self) -> String {
        let cells: Vec<String> = self
            .fmax_mhz_by_seed
            .iter()
            .map(|(s, f)| format!("{s}: {f:.1}"))
            .collect();
        cells.join(", ")
    }
}

/// Which Debian packages provide a tool.
pub fn require(tool: &str) -> Result<()> {
    let ok = Command::new(tool)
        .arg("-V")
        .output()
        .or_else(|_| Command::new(tool).arg("--version").output())
        .is_ok();
    if !ok {
        bail!(
            "`{tool}` is not installed: apt-get install {}",
            testbench::eda::DEBIAN_PACKAGES
        );
    }
    Ok(())
}

/// Run `cmd` with its output going to `log`, killing it after `limit`.
pub fn run_limited(cmd: &mut Command, what: &str, log: &Path, limit: Duration) -> Result<()> {
    let f = std::fs::File::create(log)?;
    let mut child = cmd
        .stdout(f.try_clone()?)
        .stderr(f)
        .spawn()
        .with_context(|| format!("starting {what}"))?;
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait()? {
            if status.success() {
                return Ok(());
            }
            let text = std::fs::read_to_string(log).unwrap_or_default();
            let lines: Vec<&str> = text.lines().collect();
            let tail = &lines[lines.len().saturating_sub(15)..];
            bail!(
                "{what} failed ({status}), log {}:\n{}",
                log.display(),
                tail.join("\n")
            );
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            let text = std::fs::read_to_string(log).unwrap_or_default();
            let estimate = text
                .lines()
                .rfind(|l| l.contains("Max frequency for clock"))
                .map(|l| {
                    format!(
                        " (last timing estimate: {})",
                        l.trim_start_matches("Info: ")
                    )
                })
                .unwrap_or_default();
            bail!(
                "{what} did not finish within {} s: placement or routing did not converge{estimate}; log {}",
                limit.as_secs(),
                log.display()
            );
        }
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// The last `ICESTORM_LC` utilisation line of a nextpnr log (after routing, when it got that
/// far): (LCs used, LCs total).
pub fn last_lc_use(log: &str) -> Option<(u32, u32)> {
    // "Info: 	         ICESTORM_LC:  1711/ 7680    22%"
    let line = log.lines().rfind(|l| l.contains("ICESTORM_LC:"))?;
    let nums: Vec<u32> = line
        .split("ICESTORM_LC:")
        .nth(1)?
        .split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .filter_map(|s| s.parse().ok())
        .collect();
    Some((*nums.first()?, *nums.get(1)?))
}

/// The last `Max frequency for clock` of a nextpnr log, in MHz (after routing, or the last
/// placement estimate when it was stopped earlier).
pub fn last_fmax(log: &str) -> Option<f64> {
    // "Info: Max frequency for clock 'clk$SB_IO_IN_$glb_clk': 54.32 MHz (FAIL at 100.00 MHz)"
    let line = log
        .lines()
        .rfind(|l| l.contains("Max frequency for clock"))?;
    line.split("': ")
        .nth(1)?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// Parse nextpnr's log: (LCs used, LCs total, max frequency of the clock in MHz).
pub fn parse_nextpnr(log: &str) -> Result<(u32, u32, f64)> {
    let (lcs, total) =
        last_lc_use(log).ok_or_else(|| anyhow!("no ICESTORM_LC utilisation in the nextpnr log"))?;
    let fmax =
        last_fmax(log).ok_or_else(|| anyhow!("no `Max frequency for clock` in the nextpnr log"))?;
    Ok((lcs, total, fmax))
}

/// Synthesize `verilog` (module `top`) for the HX8K CB132 at `target_mhz`; work files go to
/// `work/<unit>/`. nextpnr runs with `--timing-allow-fail` (missing the target is a result) and
/// is stopped after [`pnr_timeout`] (a design that does not route is an error). One placement,
/// `--seed 1`.
pub fn synthesize(unit: &str, verilog: &str, work: &Path, target_mhz: f64) -> Result<SynthResult> {
    synthesize_seeds(unit, verilog, work, target_mhz, &[1])
}

/// The `synth_ice40` options a unit is mapped with in its report row (`synth report`). The
/// environment variable `SYNTH_ICE40_OPTS` replaces them for an A/B run (e.g.
/// `SYNTH_ICE40_OPTS=" "` for plain `synth_ice40`). Bitstreams (`synth build`) keep plain
/// `synth_ice40`: the preemption controller's board top with `-abc9` at 95 MHz reached 85.06 /
/// 87.34 / 87.49 MHz at seeds 1–3, no better than plain (docs/board_top.md, "Session 4").
///
/// Chosen per unit by A/B runs of `synth report --only U --seeds 1,2,3` (docs/board_top.md,
/// "yosys options per unit"): `-abc9` (ABC9, the timing-driven mapper with yosys's iCE40 delay
/// model; "experimental" in yosys 0.23) for the preemption controller (98.0 → 104.4 MHz median,
/// 1020 → 1107 LCs); plain `synth_ice40` elsewhere (the SIMT issue unit fell to 93.5 MHz
/// with it, the schedule generator's board top to 82.1 from 86.8 MHz at seed 1).
pub fn ice40_options(unit: &str) -> String {
    if let Ok(o) = std::env::var("SYNTH_ICE40_OPTS") {
        return o;
    }
    match unit {
        "preempt_ctrl" => "-abc9".to_string(),
        _ => String::new(),
    }
}

/// The nextpnr-ice40 options a unit is placed with in its report row (`synth report`). The
/// environment variable `NEXTPNR_ICE40_OPTS` (space separated) replaces them for an A/B run (e.g. `NEXTPNR_ICE40_OPTS=" "` for the default
/// placer). `--placer sa` (nextpnr's simulated-annealing placer instead of the default analytic
/// `heap` placer) for the SIMT issue unit: 101.0 / 101.2 / 100.5 MHz at seeds 1–3 against
/// 95.6 / 91.5 / 97.0 with `heap`, the same netlist (docs/simt_issue.md, step 7).
pub fn nextpnr_ice40_options(unit: &str) -> Vec<String> {
    nextpnr_ice40_ab_options().unwrap_or_else(|| match unit {
        "simt_issue" => vec!["--placer".to_string(), "sa".to_string()],
        _ => vec![],
    })
}

/// `NEXTPNR_ICE40_OPTS` (space separated), when set: the options of an A/B run, replacing a
/// unit's own in the report and in the bitstream.
fn nextpnr_ice40_ab_options() -> Option<Vec<String>> {
    std::env::var("NEXTPNR_ICE40_OPTS")
        .ok()
        .map(|o| o.split_whitespace().map(str::to_string).collect())
}

/// The nextpnr-ice40 options of a bitstream (`synth build`, `synth::board::build_seeds`): the
/// default placer for every board top, `NEXTPNR_ICE40_OPTS` replacing it for an A/B run. The
/// SIMT issue unit's report option `--placer sa` is not used there: on its board top the SA
/// placer stalled after legalisation (seed 1: no progress for 23 min; YosysHQ/nextpnr#1211, an
/// open SA hang), while the default placer meets the unit's board clock at seeds 1–3.
pub fn nextpnr_ice40_board_options() -> Vec<String> {
    nextpnr_ice40_ab_options().unwrap_or_default()
}

/// The lower median of some values (NaN-free).
pub fn median(values: &[f64]) -> Option<f64> {
    let mut v = values.to_vec();
    v.sort_by(|a, b| a.partial_cmp(b).expect("no NaN"));
    v.get(v.len().checked_sub(1)? / 2).copied()
}

/// [`synthesize`], placed and routed once per nextpnr `--seed` in `seeds` (the log of the first
/// is `nextpnr.log`, the others `nextpnr_seed<N>.log`); the Fmax reported is the median. The
/// same netlist placed with another seed commonly lands ±5 % away, so one seed is a sample.
pub fn synthesize_seeds(
    unit: &str,
    verilog: &str,
    work: &Path,
    target_mhz: f64,
    seeds: &[u64],
) -> Result<SynthResult> {
    ensure!(!seeds.is_empty(), "no placement seed given");
    require("yosys")?;
    require("nextpnr-ice40")?;
    let dir: PathBuf = work.join(unit);
    std::fs::create_dir_all(&dir)?;
    let ports = top_ports(verilog)?;
    std::fs::write(dir.join("top.v"), verilog)?;
    std::fs::write(dir.join("harness.v"), harness(&ports))?;
    run_limited(
        Command::new("yosys").current_dir(&dir).args([
            "-q",
            "-p",
            &format!(
                "read_verilog top.v harness.v; synth_ice40 {} -top harness -json harness.json",
                ice40_options(unit)
            ),
        ]),
        "yosys synth_ice40",
        &dir.join("yosys.log"),
        YOSYS_LIMIT,
    )?;
    let mut lcs = (0, 0);
    let mut by_seed = vec![];
    for (k, seed) in seeds.iter().enumerate() {
        let log_name = if k == 0 {
            "nextpnr.log".to_string()
        } else {
            format!("nextpnr_seed{seed}.log")
        };
        run_limited(
            Command::new("nextpnr-ice40")
                .current_dir(&dir)
                .args([
                    "--hx8k",
                    "--package",
                    "cb132",
                    "--freq",
                    &format!("{target_mhz}"),
                    "--timing-allow-fail",
                    "--seed",
                    &seed.to_string(),
                    "--json",
                    "harness.json",
                    "--asc",
                    "harness.asc",
                ])
                .args(nextpnr_ice40_options(unit)),
            "nextpnr-ice40",
            &dir.join(&log_name),
            pnr_timeout(),
        )?;
        let log = std::fs::read_to_string(dir.join(&log_name))?;
        let (used, total, fmax) = parse_nextpnr(&log)?;
        if k == 0 {
            lcs = (used, total);
        }
        by_seed.push((*seed, fmax));
    }
    let (lcs, lcs_total) = lcs;
    let fmax_mhz = median(&by_seed.iter().map(|s| s.1).collect::<Vec<_>>()).expect("a seed");
    let harness_ffs = ports
        .iter()
        .filter(|p| p.name != "clock")
        .map(|p| p.width as u32)
        .sum();
    Ok(SynthResult {
        unit: unit.to_string(),
        lcs,
        lcs_total,
        fmax_mhz,
        meets_100mhz: fmax_mhz >= 100.0,
        harness_ffs,
        target_mhz,
        fmax_mhz_by_seed: by_seed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_nextpnr_report_lines() {
        let log = "Info: \t         ICESTORM_LC:  1711/ 7680    22%\nInfo: Max frequency for clock 'clk$SB_IO_IN_$glb_clk': 54.32 MHz (FAIL at 100.00 MHz)\n";
        assert_eq!(parse_nextpnr(log).unwrap(), (1711, 7680, 54.32));
    }

    #[test]
    fn median_is_the_lower_middle() {
        assert_eq!(median(&[]), None);
        assert_eq!(median(&[3.0]), Some(3.0));
        assert_eq!(median(&[5.0, 1.0, 3.0]), Some(3.0));
        assert_eq!(median(&[4.0, 1.0, 3.0, 2.0]), Some(2.0));
    }

    #[test]
    fn partial_nextpnr_logs() {
        // stopped during routing: a placement estimate and no final utilisation line
        let est = "Info: Max frequency for clock 'clk': 12.50 MHz (FAIL at 100.00 MHz)\n";
        assert_eq!(last_fmax(est), Some(12.5));
        assert_eq!(last_lc_use(est), None);
        assert!(parse_nextpnr(est).is_err());
        // the last of several lines counts
        let two = "Info: ICESTORM_LC: 10/ 7680 0%\nInfo: ICESTORM_LC:  20/ 7680 0%\n";
        assert_eq!(last_lc_use(two), Some((20, 7680)));
        assert_eq!(last_fmax(""), None);
    }

    #[test]
    fn harness_connects_every_port() {
        let v = "module top(clock,a,b,y);\n input wire clock;\n input wire [2:0] a;\n input wire b;\n output reg [1:0] y;\nendmodule\n";
        let p = top_ports(v).unwrap();
        assert_eq!(p.len(), 4);
        let h = harness(&p);
        assert!(
            h.contains(".a(scan[2:0])")
                && h.contains(".b(scan[3:3])")
                && h.contains(".y(outs[1:0])")
        );
        assert!(h.contains(".clock(clk)"));
    }
}

/// Area of a design synthesized by yosys alone (for configurations that exceed the HX8K or its
/// pins, such as the full configs): 4-input LUTs, flip-flops and carry cells after `synth_ice40`.
#[derive(Clone, Debug, Serialize)]
pub struct AreaResult {
    pub unit: String,
    pub luts: u32,
    pub ffs: u32,
    pub carries: u32,
}

/// Parse the cell counts of yosys' `stat` output (the last, flattened `top` report).
pub fn parse_yosys_stat(log: &str) -> AreaResult {
    let mut r = AreaResult {
        unit: String::new(),
        luts: 0,
        ffs: 0,
        carries: 0,
    };
    // only the final statistics block counts: take the text after the last "Number of cells"
    let tail = log.rsplit("Number of cells").next().unwrap_or("");
    for line in tail.lines() {
        let t: Vec<&str> = line.split_whitespace().collect();
        if t.len() != 2 {
            continue;
        }
        let n: u32 = match t[1].parse() {
            Ok(n) => n,
            Err(_) => continue,
        };
        match t[0] {
            "SB_LUT4" => r.luts += n,
            "SB_CARRY" => r.carries += n,
            c if c.starts_with("SB_DFF") => r.ffs += n,
            _ => {}
        }
    }
    r
}

/// Synthesize `verilog` (module `top`) with `synth_ice40` only and count cells.
pub fn area(unit: &str, verilog: &str, work: &Path) -> Result<AreaResult> {
    require("yosys")?;
    let dir: PathBuf = work.join(unit);
    std::fs::create_dir_all(&dir)?;
    std::fs::write(dir.join("top.v"), verilog)?;
    run_limited(
        Command::new("yosys")
            .current_dir(&dir)
            .args(["-p", "read_verilog top.v; synth_ice40 -top top; stat"]),
        "yosys synth_ice40",
        &dir.join("yosys.log"),
        YOSYS_LIMIT,
    )?;
    let mut r = parse_yosys_stat(&std::fs::read_to_string(dir.join("yosys.log"))?);
    r.unit = unit.to_string();
    Ok(r)
}
