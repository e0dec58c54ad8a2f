//! The board flow (SPEC Unit 7, issue #11): per-unit bitstreams for the Alchitry Cu, the pin
//! file, the unit registry with each unit's clock, scenario replay on a board or the simulated
//! board, and `iceprog`.
//!
//! `synth build --unit NAME --out DIR` writes `DIR/NAME/board_top.v`, `DIR/NAME/NAME.pcf`,
//! nextpnr's log (`nextpnr.log`) and report (`report.json`), and `DIR/NAME/NAME.bin`: yosys
//! `synth_ice40` → nextpnr-ice40 `--hx8k --package cb132 --pcf` at the unit's clock with the
//! default placer ([`crate::flow::nextpnr_ice40_board_options`]: the SIMT unit's report option
//! `--placer sa` stalls on its board top; `NEXTPNR_ICE40_OPTS` replaces them for an A/B run) (without
//! `--timing-allow-fail`: nextpnr fails when timing is not met, and so does the command) →
//! icepack. Every tool's exit code is checked.

pub mod serial;

use crate::flow::{last_fmax, last_lc_use, require, run_limited};
use anyhow::{anyhow, bail, Context, Result};
use hdl::board_top::{board_top_verilog, BoardConfig, BoardPort};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;
use testbench::unit::BoardUnit;

/// Something done with one unit, generic over its [`BoardUnit`] type (the registry below
/// calls it with the unit named on the command line).
pub trait UnitVisitor {
    type Out;
    /// `clock_mhz`: the unit's board clock, below its measured Fmax; `bridge`: the bridge
    /// variant its bitstream carries.
    fn visit<U: BoardUnit>(self, clock_mhz: f64, bridge: Bridge) -> Self::Out;
}

/// The bridge variant of a unit's bitstream (`hdl::board_top`, "Lean bridge").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bridge {
    /// Lockstep and free-running (`RUN` from block-RAM stimulus / capture buffers), `STATUS`
    /// with counters.
    Full,
    /// Lockstep only: no buffers, no `STATUS`; `LOAD`, `RUN`, `READ_CAP`, `STATUS` are NAKed
    /// `UNSUPPORTED`. For a unit that does not fit with the full bridge.
    Lean,
}

impl Bridge {
    pub fn is_lean(self) -> bool {
        self == Bridge::Lean
    }
}

/// The bridge variant of the unit named `name` in [`UNITS`] (`None` for an unknown name); a
/// unit with a ULX3S bitstream only ([`ulx3s_only`]) has the full bridge.
pub fn bridge_of(name: &str) -> Option<Bridge> {
    if ulx3s_only(name) {
        return Some(Bridge::Full);
    }
    UNITS.iter().find(|(n, _, _)| *n == name).map(|u| u.2)
}

/// A registered unit with a ULX3S bitstream ([`crate::ulx3s::UNITS`]) and none on the Alchitry
/// Cu: the units of [`ECP5_ONLY`], which cannot fit the HX8K, and those not (yet) given a Cu
/// clock in [`UNITS`] (`kernel_expander`, `dispatcher_tagged`).
pub fn ulx3s_only(name: &str) -> bool {
    name != "bridge_only"
        && !UNITS.iter().any(|u| u.0 == name)
        && crate::ulx3s::clock_of(name).is_some()
}

/// Units that cannot fit the HX8K (the export's list). They and the other [`ulx3s_only`] units:
/// [`visit_unit`] finds them with the full bridge and their ULX3S clock
/// ([`crate::ulx3s::UNITS`]), for `synth build --board ulx3s-85f`, `record-scenario` and
/// `board --sim`; `synth build --board alchitry-cu` refuses them.
pub const ECP5_ONLY: &[&str] = crate::export::NOT_ON_ICE40;

/// The units that have a bitstream, with their board clocks (MHz) and bridge variants. Issue
/// #20: each clock as close to the unit's own median Fmax (`synth report --seeds 1,2,3`,
/// README `units-ice40`) as the unit *with* the bridge and its clock-enable gating met at
/// nextpnr seed 1 (`synth build --unit NAME --clock C`; the bridge alone meets 100 MHz, see
/// [`BRIDGE_ONLY_MHZ`], so the margin is the unit's own logic behind the enable gating).
/// Measured in docs/board_top.md ("Session 2"); the dispatcher does not fit the HX8K with the
/// full bridge (7853 of 7680 LCs), so it carries the lean bridge. **Adding a unit is one line
/// here** (and its `BoardUnit` impl).
pub const UNITS: &[(&str, f64, Bridge)] = &[
    ("lock_unit", 84.0, Bridge::Full),
    ("dispatcher", 54.2, Bridge::Lean),
    ("run_finder_tree_pipe_128", 80.0, Bridge::Full),
    ("preempt_ctrl", PREEMPT_MHZ, Bridge::Full),
    ("simt_issue", SIMT_MHZ, Bridge::Full),
    ("schedule_gen", SCHEDULE_MHZ, Bridge::Full),
];

/// Board clocks (MHz) of the preemption controller, the SIMT issue unit and the schedule
/// generator (requested; the PLL's output is in the README's bitstream table): timing met at
/// nextpnr seeds 1, 2, 3 (`synth build --unit NAME --seeds 1,2,3`, docs/board_top.md "Session
/// 6" to "Session 9"), each within 10 % of the unit's own median Fmax: the preemption
/// controller at 94.444 (the lowest PLL step ≥ 90 % of its 104.4) and the SIMT unit at 91.071
/// (≥ 90 % of 101.0) since session 9's bridge builds every reply in a state of its own
/// (`S_REPLY`); the schedule generator at 92.5 (PLL 92.500; session 8: `take_best` as one
/// carry chain).
pub const PREEMPT_MHZ: f64 = 94.444;
pub const SIMT_MHZ: f64 = 91.071;
pub const SCHEDULE_MHZ: f64 = 92.5;

/// Call `v` with the unit named `name`; `None` for an unknown name.
pub fn visit_unit<V: UnitVisitor>(name: &str, v: V) -> Option<V::Out> {
    /// The board visitor behind the registry's ([`testbench::unit::visit`]).
    struct OnBoard<V>(Option<V>, f64, Bridge);
    impl<V: UnitVisitor> testbench::unit::UnitVisitor for OnBoard<V> {
        type Out = V::Out;
        fn visit<U: testbench::unit::CheckedUnit>(&mut self) -> V::Out {
            let v = self.0.take().expect("visited once");
            v.visit::<U>(self.1, self.2)
        }
    }
    let (clock, bridge) = match UNITS.iter().find(|(n, _, _)| *n == name) {
        Some(&(_, clock, bridge)) => (clock, bridge),
        None if ulx3s_only(name) => (crate::ulx3s::clock_of(name)?, Bridge::Full),
        None => return None,
    };
    testbench::unit::visit(name, &mut OnBoard(Some(v), clock, bridge))
}

/// The unit names, for error messages.
pub fn unit_names() -> String {
    UNITS
        .iter()
        .map(|(n, _, _)| *n)
        .collect::<Vec<_>>()
        .join(", ")
}

/// The bitstream configuration of unit `U` at `clock_mhz`.
pub struct ConfigOf;
impl UnitVisitor for ConfigOf {
    type Out = BoardConfig;
    fn visit<U: BoardUnit>(self, clock_mhz: f64, bridge: Bridge) -> BoardConfig {
        let mut cfg = testbench::board_top::board_config::<U>(Some(clock_mhz));
        cfg.lean = bridge.is_lean();
        cfg
    }
}

/// The clock of the bridge-alone build (`bridge_only`, part of `synth build --all`): a
/// measurement of the full bridge's own cost, not a bitstream anyone runs. Timing met at
/// 100 MHz at nextpnr seeds 1, 2, 3 (`synth build --unit bridge_only --seeds 1,2,3`, the bridge
/// of docs/board_top.md "Session 9": Fmax 126.01, 118.48, 121.46 MHz, median 121.46; 986 LCs,
/// 2 BRAMs), so no unit's bitstream clock is set by the bridge.
pub const BRIDGE_ONLY_MHZ: f64 = 100.0;

/// The bridge alone: a board top around a one-flip-flop unit, to measure the bridge's own cost.
pub fn bridge_only_config(clock_mhz: f64) -> BoardConfig {
    let unit = "module top(clock,reset,d,q);\n    input wire clock;\n    input wire reset;\n    input wire d;\n    output reg q;\n    initial begin\n       q = 1'b0;\n    end\n    always @(posedge clock) begin\n       q <= d & ~reset;\n    end\nendmodule // top\n";
    BoardConfig::board(
        "bridge_only",
        vec![BoardPort::new("reset", 1), BoardPort::new("d", 1)],
        vec![BoardPort::new("q", 1)],
        unit.into(),
        clock_mhz,
    )
}

/// The pin file: clock and LEDs from `rust-hdl-bsp-alchitry-cu` (`pins::clock`, `pins::leds`);
/// reset button P8 and the FTDI UART (FPGA tx P14, rx M9) from LiteX-Boards'
/// `alchitry_cu.py` (see `hdl::board_top`).
pub fn pcf() -> String {
    use rust_hdl::core::prelude::*;
    use rust_hdl_bsp_alchitry_cu::pins;
    let loc = |cs: Vec<PinConstraint>| -> Vec<(usize, String)> {
        cs.into_iter()
            .filter_map(|c| match c.constraint {
                Constraint::Location(l) => Some((c.index, l)),
                _ => None,
            })
            .collect()
    };
    let clock = loc(pins::clock().constraints());
    let mut leds = loc(pins::leds().constraints());
    leds.sort();
    let mut s = String::from("# Alchitry Cu (iCE40 HX8K CB132) — generated by synth::board::pcf\n");
    s.push_str(&format!(
        "set_io clk_100 {}    # 100 MHz oscillator (rust-hdl-bsp-alchitry-cu)\n",
        clock[0].1
    ));
    s.push_str(
        "set_io -pullup yes rst_n P8    # reset button, active low (LiteX-Boards alchitry_cu.py)\n",
    );
    s.push_str("set_io usb_tx P14    # FPGA tx -> FT2232H (LiteX-Boards alchitry_cu.py)\n");
    s.push_str("set_io usb_rx M9    # FPGA rx <- FT2232H (LiteX-Boards alchitry_cu.py)\n");
    for (i, l) in leds {
        s.push_str(&format!("set_io led[{i}] {l}\n"));
    }
    s
}

/// One bitstream build (one synthesis, placed and routed at one or more nextpnr seeds).
#[derive(Clone, Debug, Serialize)]
pub struct BuildResult {
    pub unit: String,
    /// The PLL's clock (MHz) the bitstream runs at and nextpnr was asked for.
    pub clock_mhz: f64,
    /// nextpnr's maximum frequency of that clock after routing, at the first seed (the seed
    /// whose placement is the bitstream).
    pub fmax_mhz: f64,
    /// Fmax at every seed placed, in the order asked for (all met the clock).
    pub fmax_mhz_by_seed: Vec<(u64, f64)>,
    /// The worst slack over the seeds.
    pub slack_ns: f64,
    /// Logic cells of the whole board top (unit + bridge + UART + reset + LEDs).
    pub lcs: u32,
    pub lcs_total: u32,
    pub brams: u32,
    pub bin: PathBuf,
}

fn bram_use(log: &str) -> Option<u32> {
    let line = log.lines().rfind(|l| l.contains("ICESTORM_RAM:"))?;
    line.split("ICESTORM_RAM:")
        .nth(1)?
        .split('/')
        .next()?
        .trim()
        .parse()
        .ok()
}

/// Build `DIR/<unit>/<unit>.bin` from `cfg` (a bitstream config, with PLL) at one nextpnr seed.
pub fn build(cfg: &BoardConfig, out: &Path, seed: u64) -> Result<BuildResult> {
    build_seeds(cfg, out, &[seed])
}

/// Synthesize once, then place and route at every seed of `seeds` (each must meet the clock;
/// the logs are `nextpnr_s<seed>.log`); the bitstream `DIR/<unit>/<unit>.bin` is the first
/// seed's placement (its log is also `nextpnr.log`, its report `report.json`).
pub fn build_seeds(cfg: &BoardConfig, out: &Path, seeds: &[u64]) -> Result<BuildResult> {
    let pll = cfg
        .pll
        .ok_or_else(|| anyhow!("a bitstream needs the PLL config"))?;
    if seeds.is_empty() {
        bail!("no nextpnr seed given");
    }
    for t in ["yosys", "nextpnr-ice40", "icepack"] {
        require(t)?;
    }
    let dir = out.join(&cfg.unit);
    std::fs::create_dir_all(&dir)?;
    let verilog = board_top_verilog(cfg).map_err(|e| anyhow!(e))?;
    std::fs::write(dir.join("board_top.v"), &verilog)?;
    let pcf_name = format!("{}.pcf", cfg.unit);
    std::fs::write(dir.join(&pcf_name), pcf())?;
    run_limited(
        Command::new("yosys").current_dir(&dir).args([
            "-q",
            "-l",
            "yosys.log",
            "-p",
            "read_verilog board_top.v; synth_ice40 -top board_top -json board_top.json",
        ]),
        "yosys",
        &dir.join("yosys.out"),
        Duration::from_secs(3600),
    )?;
    let freq = format!("{:.3}", pll.f_out_mhz);
    let mut by_seed = vec![];
    let mut failed = vec![];
    let mut first_log = String::new();
    for (k, &seed) in seeds.iter().enumerate() {
        let asc = format!("{}_s{seed}.asc", cfg.unit);
        let log_name = format!("nextpnr_s{seed}.log");
        let report = format!("report_s{seed}.json");
        let nextpnr = run_limited(
            Command::new("nextpnr-ice40")
                .current_dir(&dir)
                .args([
                    "--hx8k",
                    "--package",
                    "cb132",
                    "--pcf",
                    &pcf_name,
                    "--json",
                    "board_top.json",
                    "--asc",
                    &asc,
                    "--freq",
                    &freq,
                    "--seed",
                    &seed.to_string(),
                    "--report",
                    &report,
                ])
                .args(crate::flow::nextpnr_ice40_board_options()),
            "nextpnr-ice40",
            &dir.join(&log_name),
            crate::flow::pnr_timeout(),
        );
        let log = std::fs::read_to_string(dir.join(&log_name)).unwrap_or_default();
        let fmax = last_fmax(&log);
        if let Some((lcs, total)) = last_lc_use(&log).filter(|(l, t)| l > t) {
            bail!(
                "{}: does not fit the HX8K: {lcs} of {total} logic cells (nextpnr stops before placement)",
                cfg.unit
            );
        }
        match (nextpnr, fmax) {
            (Ok(_), Some(f)) if f >= pll.f_out_mhz => by_seed.push((seed, f)),
            (r, f) => failed.push(format!(
                "seed {seed}: Fmax {} at {freq} MHz{}",
                f.map_or("none".to_string(), |f| format!("{f:.2} MHz")),
                r.err().map_or(String::new(), |e| format!(" ({e})"))
            )),
        }
        if k == 0 {
            std::fs::copy(dir.join(&log_name), dir.join("nextpnr.log"))?;
            if dir.join(&report).exists() {
                std::fs::copy(dir.join(&report), dir.join("report.json"))?;
            }
            first_log = log;
        }
    }
    if !failed.is_empty() {
        bail!(
            "{}: timing not met at every seed (met: {}): {}",
            cfg.unit,
            by_seed
                .iter()
                .map(|(s, f)| format!("seed {s} {f:.2} MHz"))
                .collect::<Vec<_>>()
                .join(", "),
            failed.join("; ")
        );
    }
    let (lcs, lcs_total) =
        last_lc_use(&first_log).ok_or_else(|| anyhow!("no LC count in the log"))?;
    let asc = format!("{}_s{}.asc", cfg.unit, seeds[0]);
    let bin = dir.join(format!("{}.bin", cfg.unit));
    run_limited(
        Command::new("icepack")
            .current_dir(&dir)
            .args([asc.as_str(), bin.file_name().unwrap().to_str().unwrap()]),
        "icepack",
        &dir.join("icepack.log"),
        Duration::from_secs(300),
    )?;
    let worst = by_seed.iter().map(|s| s.1).fold(f64::INFINITY, f64::min);
    Ok(BuildResult {
        unit: cfg.unit.clone(),
        clock_mhz: pll.f_out_mhz,
        fmax_mhz: by_seed[0].1,
        fmax_mhz_by_seed: by_seed,
        slack_ns: 1000.0 / pll.f_out_mhz - 1000.0 / worst,
        lcs,
        lcs_total,
        brams: bram_use(&first_log).unwrap_or(0),
        bin,
    })
}

/// The report table (Markdown).
pub fn table(rows: &[BuildResult]) -> String {
    let mut s = format!("{README_HEADER}\n");
    for r in rows {
        s.push_str(&readme_row(r));
        s.push('\n');
    }
    s
}

/// Header of the README block `bitstreams-ice40` (`synth build --readme`). A build at several
/// seeds (`--seeds 1,2,3`) lists the Fmax of each, in the order of the seed column, and the
/// worst slack.
pub const README_HEADER: &str = "| unit | bridge | clock (MHz) | Fmax (MHz) | nextpnr seed | slack (ns) | LCs incl. bridge (of 7680) | BRAMs (of 32) |\n|---|---|---:|---:|---:|---:|---:|---:|";

/// One row of the README block `bitstreams-ice40`.
pub fn readme_row(r: &BuildResult) -> String {
    let bridge = UNITS
        .iter()
        .find(|(n, _, _)| *n == r.unit)
        .map_or(
            "full",
            |(_, _, b)| if b.is_lean() { "lean" } else { "full" },
        );
    let fmax = r
        .fmax_mhz_by_seed
        .iter()
        .map(|(_, f)| format!("{f:.2}"))
        .collect::<Vec<_>>()
        .join(" / ");
    let seeds = r
        .fmax_mhz_by_seed
        .iter()
        .map(|(s, _)| s.to_string())
        .collect::<Vec<_>>()
        .join(", ");
    format!(
        "| `{}` | {} | {:.2} | {} | {} | {:.2} | {} | {} |",
        r.unit, bridge, r.clock_mhz, fmax, seeds, r.slack_ns, r.lcs, r.brams
    )
}

/// `iceprog` the unit's bitstream.
pub fn program(bin: &Path) -> Result<()> {
    require("iceprog")?;
    if !bin.exists() {
        bail!("{} does not exist: run `synth build` first", bin.display());
    }
    let st = Command::new("iceprog")
        .arg(bin)
        .status()
        .context("running iceprog")?;
    if !st.success() {
        bail!("iceprog failed ({st}): is the board plugged in (USB), and may you use it (udev rule for the FTDI 0403:6010)?");
    }
    Ok(())
}

/// A board run: inputs of every cycle in, outputs of every cycle out.
type Runner<'a> = dyn FnMut(&[Vec<u128>]) -> Result<Vec<Vec<u128>>> + 'a;

/// Replay a scenario file on a board (serial port or simulated) in lockstep (one STEP per
/// cycle) or free-running (stimulus buffer); prints the comparison, returns the mismatches.
pub struct ReplayScenario {
    pub file: PathBuf,
    pub port: Option<String>,
    pub free_run: bool,
    /// The unit with the full bridge whatever its Cu variant (the ULX3S, `synth::ulx3s`).
    pub full_bridge: bool,
}

impl UnitVisitor for ReplayScenario {
    type Out = Result<usize>;
    fn visit<U: BoardUnit>(self, _clock: f64, bridge: Bridge) -> Result<usize> {
        use testbench::board_top::{Board, Scenario, SimBoard};
        let lean = bridge.is_lean() && !self.full_bridge;
        if lean && self.free_run {
            bail!(
                "{} carries the lean bridge (no stimulus buffer): free-running is not available, replay in lockstep",
                U::NAME
            );
        }
        use testbench::verilator::TracePorts;
        let text = std::fs::read_to_string(&self.file)
            .with_context(|| format!("reading {}", self.file.display()))?;
        let sc = Scenario::parse(&text)?;
        sc.check_unit::<U>()?;
        let p = U::ports();
        let run = |b: &mut Runner| -> Result<usize> {
            let ins: Vec<Vec<u128>> = sc.cycles.iter().map(|c| c.0.clone()).collect();
            let got = b(&ins)?;
            let mut bad = 0;
            for (c, (o, (_, want))) in got.iter().zip(&sc.cycles).enumerate() {
                if o != want {
                    if bad < 10 {
                        println!("cycle {c}: board {o:x?}, recorded {want:x?}");
                    }
                    bad += 1;
                }
            }
            Ok(bad)
        };
        let mode = if self.free_run {
            "free-running"
        } else {
            "lockstep"
        };
        let go = |board: &mut Runner, what: String| -> Result<usize> {
            let bad = run(board)?;
            println!(
                "{}: scenario {} ({} cycles, {mode}) on {what}: {} cycles differ from the recorded golden-model outputs",
                U::NAME,
                self.file.display(),
                sc.cycles.len(),
                bad
            );
            Ok(bad)
        };
        fn drive<L: testbench::board_top::Link>(
            b: &mut Board<L>,
            free: bool,
            ins: &[Vec<u128>],
        ) -> Result<Vec<Vec<u128>>> {
            if !b.lean {
                let st = b.status()?;
                println!("board status before: {st:?}");
            }
            b.reset()?;
            if free {
                b.run_trace(ins)
            } else {
                ins.iter().map(|i| b.step(i)).collect()
            }
        }
        let check_id = |id: u32| -> Result<()> {
            let want = testbench::board_top::board_config::<U>(None).unit_id();
            if id != want {
                bail!("the board carries another unit or port table (unit id {id:#010x}, {} has {want:#010x}): program the unit's bitstream", U::NAME);
            }
            Ok(())
        };
        match &self.port {
            Some(path) => {
                let link = serial::SerialLink::open(path, serial::BAUD)?;
                let what = testbench::board_top::Link::describe(&link);
                let mut b = Board::new(link, &p.inputs(), &p.outputs(), 8);
                b.lean = lean;
                if lean {
                    println!("lean bridge: no STATUS, the unit id is not checked");
                } else {
                    check_id(b.status()?.unit_id)?;
                }
                go(&mut |ins| drive(&mut b, self.free_run, ins), what)
            }
            None => {
                let mut cfg = testbench::board_top::board_config::<U>(None);
                cfg.lean = lean;
                let link = SimBoard::start(&cfg)?;
                let what = testbench::board_top::Link::describe(&link);
                let mut b = Board::new(link, &p.inputs(), &p.outputs(), cfg.stim_aw);
                b.lean = lean;
                if !lean {
                    check_id(b.status()?.unit_id)?;
                }
                go(&mut |ins| drive(&mut b, self.free_run, ins), what)
            }
        }
    }
}

/// Record a scenario file: the unit's seeded random trace (idle cycles, bad inputs) and the
/// golden model's outputs.
pub struct RecordScenario {
    pub seed: u64,
    pub cycles: usize,
    pub out: PathBuf,
}

impl UnitVisitor for RecordScenario {
    type Out = Result<()>;
    fn visit<U: BoardUnit>(self, _clock: f64, _bridge: Bridge) -> Result<()> {
        let trace = U::random_trace(self.seed, self.cycles);
        let sc = testbench::board_top::Scenario::record::<U>(&trace)?;
        if let Some(d) = self.out.parent() {
            std::fs::create_dir_all(d)?;
        }
        std::fs::write(&self.out, sc.to_text())?;
        println!(
            "wrote {} ({} cycles of {})",
            self.out.display(),
            self.cycles,
            U::NAME
        );
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The PLL search agrees with `icepll` for every unit clock.
    #[test]
    fn pll_matches_icepll() {
        if !testbench::eda::tool_available("icepll") {
            return;
        }
        for (_, mhz, _) in UNITS {
            let out = Command::new("icepll")
                .args(["-i", "100", "-o", &mhz.to_string()])
                .output()
                .unwrap();
            let text = String::from_utf8_lossy(&out.stdout).to_string();
            let field = |k: &str| -> u32 {
                let l = text.lines().find(|l| l.starts_with(k)).unwrap();
                l.split_whitespace().nth(1).unwrap().parse().unwrap()
            };
            let p = hdl::board_top::PllSettings::search(100.0, *mhz);
            assert_eq!(
                (p.divr, p.divf, p.divq, p.filter_range()),
                (
                    field("DIVR:"),
                    field("DIVF:"),
                    field("DIVQ:"),
                    field("FILTER_RANGE:")
                ),
                "{mhz} MHz"
            );
        }
    }

    /// The pin file carries the board's pins (bsp clock and LEDs, LiteX-Boards UART/reset).
    #[test]
    fn pcf_has_every_pin() {
        let p = pcf();
        for pin in [
            "P7", "P8", "P14", "M9", "J11", "K11", "K12", "K14", "L12", "L14", "M12", "N14",
        ] {
            assert!(p.contains(&format!(" {pin}")), "{pin} missing:\n{p}");
        }
        assert!(p.contains("set_io led[7] N14"));
    }

    /// Every generated board top (bitstream config, with the PLL) passes yosys' checks.
    #[test]
    fn board_tops_pass_yosys_checks() {
        if !testbench::eda::tool_available("yosys") {
            return;
        }
        let mut cfg = bridge_only_config(80.0);
        cfg.pll = None; // yosys has no SB_PLL40_CORE model outside synth_ice40
        let v = board_top_verilog(&cfg).unwrap();
        let dir = std::env::temp_dir().join(format!("board_top_check_{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("b.v"), &v).unwrap();
        let out = Command::new("yosys")
            .current_dir(&dir)
            .args([
                "-q",
                "-p",
                "read_verilog b.v; hierarchy -top board_top; proc; flatten; check -assert; opt; check -assert",
            ])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "yosys check failed:\n{}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// The bitstreams: every registered unit builds and meets timing (slow: P&R per unit).
    #[test]
    #[ignore]
    fn bitstreams_build_and_meet_timing() {
        let out = std::env::temp_dir().join("board_bitstreams");
        let mut rows = vec![];
        for (name, _, _) in UNITS {
            let cfg = visit_unit(name, ConfigOf).unwrap();
            rows.push(build(&cfg, &out, 1).unwrap());
        }
        println!("{}", table(&rows));
    }
}
