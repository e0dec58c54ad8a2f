//! The Radiona ULX3S 85F board (SPEC Unit 7, "ECP5 board"; issue #22): one unit per bitstream
//! behind the same generic UART bridge and host protocol as the Alchitry Cu, on an LFE5U-85F.
//!
//! ```text
//!  clk_25mhz (G2) ─ EHXPLLL ─ clock ─┬─ board_top (the Cu's core, PLL bypassed: clk_100 = clock)
//!  btn_fire1 (R1, active high) ──────┤     bridge + UART + reset synchronizer + the unit
//!  ftdi_txd (M1) → usb_rx ───────────┤     usb_tx → ftdi_rxd (L4)
//!  led[7:0] (B2 C2 C1 D2 D1 E2 E1 H3) ◄──┘  (LED 5: the EHXPLLL's LOCK)      wifi_gpio0 (L2) = 1
//! ```
//!
//! ## The core is the Cu's
//! [`top_verilog`] is a thin wrapper, module `ulx3s_top`, around the unchanged output of
//! [`hdl::board_top::board_top_verilog`] for the unit's config with `pll: None` — the same
//! generator, bridge, UART, reset synchronizer and clock-enable-gated unit that the simulated
//! board runs in Verilator (`board --sim`, `tests/board_top.rs`), differing from the simulated
//! board's text only in the bridge's `DIV` (cycles per UART bit) and `TIMEOUT` parameters (the
//! ECP5 PLL's clock at 1 000 000 baud, 10 ms). The wrapper adds the ECP5 PLL, the ULX3S pins, the
//! FIRE1 button as reset (held in reset until the PLL locks) and the PLL's lock on LED 5 (the
//! core's bypass reports "locked" always). `tests/ecp5.rs` checks the text identity — with the
//! simulated divider, five units' ULX3S cores are byte for byte the simulated Cu boards that
//! `tests/board_top.rs` runs in four-way lockstep — and runs the four-way lockstep and free-running
//! mode on the one core that differs: the dispatcher with the **full** bridge, which the HX8K
//! cannot hold (it carries the lean one on the Cu). The ECP5 has room for the full bridge for
//! every unit.
//!
//! ## Pins (LPF from [`lpf`])
//! From the board's own constraint file, `emard/ulx3s` `doc/constraints/ulx3s_v20.lpf` (ULX3S
//! v2.x and v3.0.x): `clk_25mhz` G2 (25 MHz, `FREQUENCY PORT`), `ftdi_rxd` L4 ("FPGA transmits to
//! ftdi"), `ftdi_txd` M1 ("FPGA receives from ftdi"), `led[0..7]` B2 C2 C1 D2 D1 E2 E1 H3,
//! `btn[1]` R1 (FIRE1, pull-down: active high), `wifi_gpio0` L2, all LVCMOS33. LiteX-Boards'
//! `litex_boards/platforms/radiona_ulx3s.py` (commit 4d98dd3) cross-checks clock G2, `rst` R1,
//! the same eight LEDs and `serial` tx L4 / rx M1; it places `wifi_gpio0` at L2 for board
//! revision 1.7 and at F1 for 2.0, where the board's v20 file has `wifi_en` at F1 — the board's
//! own file is followed. `wifi_gpio0` is driven high, as the ULX3S examples do, so the ESP32
//! does not hold the FPGA in reconfiguration. Not checked on a physical board here.
//!
//! ## Clock
//! [`EcpPll::search`] picks `CLKI_DIV`, `CLKFB_DIV` (feedback from CLKOP) and `CLKOP_DIV` for the
//! requested clock from 25 MHz: phase-detector frequency 3.125–400 MHz, VCO 400–800 MHz, least
//! frequency error, then the VCO nearest 600 MHz — the rules of Trellis' `ecppll`, which a test
//! compares with. nextpnr-ecp5 derives the PLL output's constraint from the LPF's 25 MHz and the
//! dividers and, run without `--timing-allow-fail`, fails when the clock is not met; `synth build
//! --board ulx3s-85f` fails with it. The per-unit clocks are [`UNITS`].
//!
//! ## Flow
//! `synth build --board ulx3s-85f --unit NAME|--all` writes `DIR/NAME/{ulx3s_top.v, NAME.lpf,
//! yosys.log, nextpnr.log, NAME.config, NAME.bit}`: yosys `synth_ecp5 -top ulx3s_top` →
//! nextpnr-ecp5 `--85k --package CABGA381 --speed 6 --lpf` → `ecppack --compress`, the tools of
//! [`crate::ecp5::tools`]. `synth program --board ulx3s-85f --unit NAME` runs
//! `openFPGALoader -b ulx3s DIR/NAME/NAME.bit` (SRAM, lost at power-off).

use crate::ecp5::{last_use, Tools, DEVICE_ARGS};
use crate::flow::run_limited;
use anyhow::{anyhow, bail, ensure, Context, Result};
use hdl::board_top::{board_top_verilog, BoardConfig};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};
use testbench::unit::BoardUnit;

/// The board's oscillator (MHz).
pub const OSC_MHZ: f64 = 25.0;
/// The board name of `synth build --board` / `synth program --board`.
pub const BOARD: &str = "ulx3s-85f";
/// The UART rate of the bridge (the Cu's, `board::serial::BAUD`).
pub const BAUD: f64 = 1_000_000.0;

/// The units with a ULX3S bitstream and their clocks (MHz), each a frequency the PLL makes
/// exactly from 25 MHz, below the Fmax nextpnr reached for the whole top (unit and full bridge)
/// at seed 1 — README block `bitstreams-ecp5`, written by `synth build --board ulx3s-85f`. On the
/// 85F the full bridge's capture-buffer read (DP16KD output, ~5.6 ns clock-to-out at speed 6) →
/// reply register is the critical path of most units, near 100 MHz (docs/ecp5.md). Every unit
/// carries the full bridge. `bridge_only` (the bridge around one flip-flop) is built by `--all`.
pub const UNITS: &[(&str, f64)] = &[
    ("lock_unit", 87.5),
    ("dispatcher", 75.0),
    ("run_finder_tree_pipe_128", 100.0),
    ("preempt_ctrl", 81.25),
    ("simt_issue", 87.5),
    ("schedule_gen", 87.5),
    ("gpu_frontend", GPU_FRONTEND_MHZ),
    ("kernel_expander", 87.5),
    ("dispatcher_tagged", 75.0),
];
/// The GPU scheduling front-end's clock (MHz): ULX3S only (`synth::board::ECP5_ONLY`, it
/// cannot fit the HX8K). Below the unit's own ECP5 Fmax (81.7 MHz median in the report's
/// harness, seeds 1–3); the bitstream (unit and full bridge) met it at seed 1: Fmax 78.14 MHz,
/// slack 0.54 ns (`synth build --board ulx3s-85f --unit gpu_frontend`, session 22; 60 MHz
/// before the timing cuts of sessions 11–18).
pub const GPU_FRONTEND_MHZ: f64 = 75.0;
/// The bridge-alone build's clock (MHz).
pub const BRIDGE_ONLY_MHZ: f64 = 100.0;

/// The ULX3S clock of unit `name` (`None`: no ULX3S bitstream).
pub fn clock_of(name: &str) -> Option<f64> {
    if name == "bridge_only" {
        return Some(BRIDGE_ONLY_MHZ);
    }
    UNITS.iter().find(|u| u.0 == name).map(|u| u.1)
}

/// EHXPLLL dividers: `f_out = f_in / clki_div * clkfb_div` (feedback from CLKOP), VCO =
/// `f_out * clkop_div`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EcpPll {
    pub f_in_mhz: f64,
    pub f_out_mhz: f64,
    pub f_vco_mhz: f64,
    pub clki_div: u32,
    pub clkfb_div: u32,
    pub clkop_div: u32,
}

impl EcpPll {
    /// The dividers for `f_out_mhz` from `f_in_mhz` (see the module doc); panics when no divider
    /// reaches within 1 % (no unit asks for such a clock).
    pub fn search(f_in_mhz: f64, f_out_mhz: f64) -> EcpPll {
        let mut best: Option<(f64, f64, EcpPll)> = None;
        for clki_div in 1..=128u32 {
            let pfd = f_in_mhz / clki_div as f64;
            if !(3.125..=400.0).contains(&pfd) {
                continue;
            }
            for clkfb_div in 1..=80u32 {
                for clkop_div in 1..=128u32 {
                    let vco = pfd * clkfb_div as f64 * clkop_div as f64;
                    if !(400.0..=800.0).contains(&vco) {
                        continue;
                    }
                    let out = vco / clkop_div as f64;
                    let err = (out - f_out_mhz).abs();
                    let far = (vco - 600.0).abs();
                    let better = match &best {
                        None => true,
                        Some((e, f, _)) => err < *e || (err == *e && far < *f),
                    };
                    if better {
                        best = Some((
                            err,
                            far,
                            EcpPll {
                                f_in_mhz,
                                f_out_mhz: out,
                                f_vco_mhz: vco,
                                clki_div,
                                clkfb_div,
                                clkop_div,
                            },
                        ));
                    }
                }
            }
        }
        let (err, _, p) = best.expect("some divider");
        assert!(
            err <= f_out_mhz * 0.01,
            "the ECP5 PLL cannot make {f_out_mhz} MHz from {f_in_mhz} MHz within 1 % (best {} MHz)",
            p.f_out_mhz
        );
        p
    }

    /// The instance text (module `EHXPLLL`, yosys' and nextpnr-ecp5's primitive).
    pub fn instance(&self, clki: &str, clkop: &str, lock: &str) -> String {
        format!(
            "    // {out:.3} MHz = {fin} MHz / {i} * {fb} (VCO {vco:.1} MHz = {out:.3} MHz * {op})\n    (* FREQUENCY_PIN_CLKI = \"{fin}\" *) (* FREQUENCY_PIN_CLKOP = \"{out:.3}\" *)\n    (* ICP_CURRENT = \"12\" *) (* LPF_RESISTOR = \"8\" *) (* MFG_ENABLE_FILTEROPAMP = \"1\" *) (* MFG_GMCREF_SEL = \"2\" *)\n    EHXPLLL #(\n        .PLLRST_ENA(\"DISABLED\"),\n        .INTFB_WAKE(\"DISABLED\"),\n        .STDBY_ENABLE(\"DISABLED\"),\n        .DPHASE_SOURCE(\"DISABLED\"),\n        .OUTDIVIDER_MUXA(\"DIVA\"),\n        .CLKI_DIV({i}),\n        .CLKFB_DIV({fb}),\n        .CLKOP_ENABLE(\"ENABLED\"),\n        .CLKOP_DIV({op}),\n        .CLKOP_CPHASE({cph}),\n        .CLKOP_FPHASE(0),\n        .FEEDBK_PATH(\"CLKOP\")\n    ) pll (\n        .RST(1'b0),\n        .STDBY(1'b0),\n        .CLKI({clki}),\n        .CLKFB({clkop}),\n        .CLKOP({clkop}),\n        .PHASESEL0(1'b0),\n        .PHASESEL1(1'b0),\n        .PHASEDIR(1'b1),\n        .PHASESTEP(1'b1),\n        .PHASELOADREG(1'b1),\n        .PLLWAKESYNC(1'b0),\n        .ENCLKOP(1'b0),\n        .LOCK({lock})\n    );\n",
            out = self.f_out_mhz,
            fin = self.f_in_mhz,
            i = self.clki_div,
            fb = self.clkfb_div,
            op = self.clkop_div,
            vco = self.f_vco_mhz,
            cph = self.clkop_div / 2,
        )
    }
}

/// The ULX3S core of a unit: `cfg` (its Cu config, any clock) with the PLL bypassed and the
/// bridge's divider and timeout for `clock_mhz`; every unit with the full bridge.
pub fn core_config(cfg: &BoardConfig, clock_mhz: f64) -> BoardConfig {
    let hz = clock_mhz * 1e6;
    BoardConfig {
        pll: None,
        baud_div: (hz / BAUD).round() as u32,
        timeout: (hz / 100.0) as u32,
        lean: false,
        ..cfg.clone()
    }
}

/// The simulated ULX3S core of unit `U` (divider 8, as the simulated Cu): what `board --sim
/// --board ulx3s-85f` and the lockstep tests run. Equal to the Cu's simulated board config
/// except that every unit has the full bridge.
pub fn sim_config<U: BoardUnit>() -> BoardConfig {
    let cfg = testbench::board_top::board_config::<U>(None);
    BoardConfig { lean: false, ..cfg }
}

/// The unit's ULX3S bitstream config: its core and the PLL (`clock` overrides [`UNITS`]).
pub fn bitstream_config(name: &str, clock: Option<f64>) -> Result<(BoardConfig, EcpPll)> {
    let mhz = clock
        .or_else(|| clock_of(name))
        .ok_or_else(|| anyhow!("`{name}` has no ULX3S bitstream (units: {})", unit_names()))?;
    let pll = EcpPll::search(OSC_MHZ, mhz);
    let cu = if name == "bridge_only" {
        crate::board::bridge_only_config(crate::board::BRIDGE_ONLY_MHZ)
    } else {
        crate::board::visit_unit(name, crate::board::ConfigOf)
            .ok_or_else(|| anyhow!("`{name}` is not in synth::board::UNITS"))?
    };
    Ok((core_config(&cu, pll.f_out_mhz), pll))
}

/// The unit names (for messages).
pub fn unit_names() -> String {
    UNITS.iter().map(|u| u.0).collect::<Vec<_>>().join(", ")
}

/// `ulx3s_top.v`: the wrapper module `ulx3s_top` (EHXPLLL, pins) followed by the core's text,
/// [`board_top_verilog`] of `core` unchanged.
pub fn top_verilog(core: &BoardConfig, pll: &EcpPll) -> Result<String> {
    ensure!(
        core.pll.is_none(),
        "the ULX3S core is the board top with its (iCE40) PLL bypassed"
    );
    let core_text = board_top_verilog(core).map_err(|e| anyhow!(e))?;
    let mut s = format!(
        "// ulx3s_top for `{}` on the Radiona ULX3S 85F — generated by synth::ulx3s; do not edit\n// the EHXPLLL and the ULX3S pins around the board top below (the Alchitry Cu's core, PLL bypassed)\n\nmodule ulx3s_top(\n    input wire clk_25mhz,\n    input wire btn_fire1,\n    input wire ftdi_txd,\n    output wire ftdi_rxd,\n    output wire [7:0] led,\n    output wire wifi_gpio0\n);\n    wire clock;\n    wire pll_lock;\n",
        core.unit
    );
    s.push_str(&pll.instance("clk_25mhz", "clock", "pll_lock"));
    s.push_str("    wire [7:0] core_led;\n    // FIRE1 (active high) or no PLL lock: reset, through the core's synchronizer\n    board_top core (\n        .clk_100(clock),\n        .rst_n(~btn_fire1 & pll_lock),\n        .usb_rx(ftdi_txd),\n        .usb_tx(ftdi_rxd),\n        .led(core_led)\n    );\n    assign led = {core_led[7:6], pll_lock, core_led[4:0]};\n    // keeps the ESP32 from reconfiguring the FPGA (ULX3S examples)\n    assign wifi_gpio0 = 1'b1;\nendmodule\n\n");
    s.push_str(&core_text);
    Ok(s)
}

/// The LPF (pins: see the module doc).
pub fn lpf() -> String {
    let mut s = String::from(
        "# Radiona ULX3S 85F (LFE5U-85F CABGA381) — generated by synth::ulx3s::lpf\n# pins from the board's emard/ulx3s doc/constraints/ulx3s_v20.lpf, cross-checked with LiteX-Boards radiona_ulx3s.py\nLOCATE COMP \"clk_25mhz\" SITE \"G2\";\nIOBUF PORT \"clk_25mhz\" PULLMODE=NONE IO_TYPE=LVCMOS33;\nFREQUENCY PORT \"clk_25mhz\" 25 MHZ;\n",
    );
    s.push_str("LOCATE COMP \"ftdi_rxd\" SITE \"L4\";  # FPGA transmits to the FT231X\nIOBUF PORT \"ftdi_rxd\" PULLMODE=UP IO_TYPE=LVCMOS33 DRIVE=4;\n");
    s.push_str("LOCATE COMP \"ftdi_txd\" SITE \"M1\";  # FPGA receives from the FT231X\nIOBUF PORT \"ftdi_txd\" PULLMODE=UP IO_TYPE=LVCMOS33;\n");
    s.push_str("LOCATE COMP \"btn_fire1\" SITE \"R1\";  # FIRE1, active high\nIOBUF PORT \"btn_fire1\" PULLMODE=DOWN IO_TYPE=LVCMOS33;\n");
    s.push_str("LOCATE COMP \"wifi_gpio0\" SITE \"L2\";\nIOBUF PORT \"wifi_gpio0\" PULLMODE=NONE IO_TYPE=LVCMOS33 DRIVE=4;\n");
    for (i, pin) in LED_PINS.iter().enumerate() {
        s.push_str(&format!(
            "LOCATE COMP \"led[{i}]\" SITE \"{pin}\";\nIOBUF PORT \"led[{i}]\" PULLMODE=NONE IO_TYPE=LVCMOS33 DRIVE=4;\n"
        ));
    }
    s
}

/// LED 0..7 (B2 first).
pub const LED_PINS: [&str; 8] = ["B2", "C2", "C1", "D2", "D1", "E2", "E1", "H3"];

/// One ULX3S bitstream build.
#[derive(Clone, Debug, serde::Serialize)]
pub struct BuildResultEcp5 {
    pub unit: String,
    /// The PLL's clock (MHz): what nextpnr had to meet.
    pub clock_mhz: f64,
    /// The dividers, `CLKI_DIV/CLKFB_DIV×CLKOP_DIV`.
    pub pll: String,
    /// nextpnr's Fmax of that clock after routing (speed 6).
    pub fmax_mhz: f64,
    pub slack_ns: f64,
    /// LUT4 sites (`TRELLIS_COMB`) of the whole top: unit, bridge, UART, reset, LEDs.
    pub comb: u32,
    pub ffs: u32,
    pub ebrs: u32,
    pub seed: u64,
    pub yosys_s: f64,
    pub pnr_s: f64,
    pub bit: PathBuf,
}

/// Every "Max frequency for clock" line of a nextpnr log: (clock name, Fmax, target MHz).
pub fn clock_fmaxes(log: &str) -> Vec<(String, f64, f64)> {
    // "Info: Max frequency for clock '$glbnet$clock': 140.25 MHz (PASS at 87.50 MHz)"
    let mut v = vec![];
    for l in log
        .lines()
        .filter(|l| l.contains("Max frequency for clock"))
    {
        let parse = || -> Option<(String, f64, f64)> {
            let name = l.split('\'').nth(1)?.to_string();
            let rest = l.split("': ").nth(1)?;
            let fmax = rest.split_whitespace().next()?.parse().ok()?;
            let target = rest
                .split(" at ")
                .nth(1)?
                .split_whitespace()
                .next()?
                .parse()
                .ok()?;
            Some((name, fmax, target))
        };
        if let Some(x) = parse() {
            v.push(x);
        }
    }
    v
}

/// Build `DIR/<unit>/<unit>.bit` (see the module doc); fails when a tool fails or nextpnr does
/// not meet the PLL's clock.
pub fn build(
    tools: &Tools,
    core: &BoardConfig,
    pll: &EcpPll,
    out: &Path,
    seed: u64,
) -> Result<BuildResultEcp5> {
    let dir = out.join(&core.unit);
    std::fs::create_dir_all(&dir)?;
    std::fs::write(dir.join("ulx3s_top.v"), top_verilog(core, pll)?)?;
    let lpf_name = format!("{}.lpf", core.unit);
    std::fs::write(dir.join(&lpf_name), lpf())?;
    let t = Instant::now();
    run_limited(
        Command::new(&tools.yosys).current_dir(&dir).args([
            "-q",
            "-l",
            "yosys.log",
            "-p",
            "read_verilog ulx3s_top.v; synth_ecp5 -top ulx3s_top -json ulx3s_top.json",
        ]),
        "yosys synth_ecp5",
        &dir.join("yosys.out"),
        Duration::from_secs(3600),
    )?;
    let yosys_s = t.elapsed().as_secs_f64();
    let config = format!("{}.config", core.unit);
    let t = Instant::now();
    let nextpnr = run_limited(
        Command::new(&tools.nextpnr)
            .current_dir(&dir)
            .args(DEVICE_ARGS)
            .args([
                "--speed",
                "6",
                "--lpf",
                &lpf_name,
                "--json",
                "ulx3s_top.json",
                "--textcfg",
                &config,
                "--seed",
                &seed.to_string(),
                "--report",
                "report.json",
            ]),
        "nextpnr-ecp5",
        &dir.join("nextpnr.log"),
        crate::flow::pnr_timeout(),
    );
    let pnr_s = t.elapsed().as_secs_f64();
    let log = std::fs::read_to_string(dir.join("nextpnr.log")).unwrap_or_default();
    // nextpnr derives the PLL clock's period and prints it rounded (93.75 MHz: "at 93.76 MHz")
    let fmax = clock_fmaxes(&log)
        .into_iter()
        .rfind(|c| (c.2 - pll.f_out_mhz).abs() < 0.002 * pll.f_out_mhz)
        .map(|c| c.1);
    if let Err(e) = nextpnr {
        bail!(
            "{}: nextpnr-ecp5 failed at {:.3} MHz (Fmax {fmax:?} MHz; timing not met?): {e:#}",
            core.unit,
            pll.f_out_mhz
        );
    }
    let fmax = fmax.ok_or_else(|| {
        anyhow!(
            "no Fmax for the PLL clock ({:.3} MHz) in {}: did nextpnr derive it from the LPF?",
            pll.f_out_mhz,
            dir.join("nextpnr.log").display()
        )
    })?;
    ensure!(
        fmax >= pll.f_out_mhz,
        "{}: timing not met: Fmax {fmax:.2} MHz < clock {:.3} MHz",
        core.unit,
        pll.f_out_mhz
    );
    let u = |c: &str| last_use(&log, c).unwrap_or_default();
    let bit = dir.join(format!("{}.bit", core.unit));
    run_limited(
        Command::new(&tools.ecppack).current_dir(&dir).args([
            "--compress",
            config.as_str(),
            bit.file_name().unwrap().to_str().unwrap(),
        ]),
        "ecppack",
        &dir.join("ecppack.log"),
        Duration::from_secs(600),
    )?;
    ensure!(bit.exists(), "ecppack wrote no {}", bit.display());
    Ok(BuildResultEcp5 {
        unit: core.unit.clone(),
        clock_mhz: pll.f_out_mhz,
        pll: format!("{}/{}×{}", pll.clki_div, pll.clkfb_div, pll.clkop_div),
        fmax_mhz: fmax,
        slack_ns: 1000.0 / pll.f_out_mhz - 1000.0 / fmax,
        comb: u("TRELLIS_COMB").used,
        ffs: u("TRELLIS_FF").used,
        ebrs: u("DP16KD").used,
        seed,
        yosys_s,
        pnr_s,
        bit,
    })
}

/// Header of the README block `bitstreams-ecp5` (`synth build --board ulx3s-85f --readme`).
pub const README_HEADER: &str = "| unit (ULX3S 85F, full bridge) | clock (MHz) | Fmax speed 6 (MHz) | nextpnr seed | slack (ns) | LUT4 sites incl. bridge (of 83640) | FF | EBR (of 208) |\n|---|---:|---:|---:|---:|---:|---:|---:|";

/// One row of the README block `bitstreams-ecp5`.
pub fn readme_row(r: &BuildResultEcp5) -> String {
    format!(
        "| `{}` | {:.2} | {:.2} | {} | {:.2} | {} | {} | {} |",
        r.unit, r.clock_mhz, r.fmax_mhz, r.seed, r.slack_ns, r.comb, r.ffs, r.ebrs
    )
}

/// The `openFPGALoader` command that loads `bit` into the ULX3S's SRAM.
pub fn program_command(bit: &Path) -> Command {
    let mut c = Command::new("openFPGALoader");
    c.args(["-b", "ulx3s"]).arg(bit);
    c
}

/// `synth program --board ulx3s-85f`: load `bit` with openFPGALoader; a clear error when the tool,
/// the file or the board is missing.
pub fn program(bit: &Path) -> Result<()> {
    if !bit.exists() {
        bail!(
            "{} does not exist: run `synth build --board {BOARD}` first",
            bit.display()
        );
    }
    let out = program_command(bit).output().with_context(|| {
        "running openFPGALoader (not installed? Debian: apt-get install openfpgaloader)".to_string()
    })?;
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    print!("{text}");
    if !out.status.success() {
        bail!(
            "openFPGALoader -b ulx3s {} failed ({}): is the ULX3S plugged in (USB, the FT231X \
             0403:6015), and may you use it (udev rule)? Its output: {}",
            bit.display(),
            out.status,
            text.lines().rfind(|l| !l.trim().is_empty()).unwrap_or("")
        );
    }
    Ok(())
}

/// Where `synth build --board ulx3s-85f` puts the bitstream of `unit` under `out`.
pub fn bit_path(out: &Path, unit: &str) -> PathBuf {
    out.join(unit).join(format!("{unit}.bit"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pll_makes_every_unit_clock_exactly() {
        for (name, mhz) in UNITS.iter().chain(&[("bridge_only", BRIDGE_ONLY_MHZ)]) {
            let p = EcpPll::search(OSC_MHZ, *mhz);
            assert!((p.f_out_mhz - mhz).abs() < 1e-9, "{name}: {p:?}");
            let pfd = OSC_MHZ / p.clki_div as f64;
            assert!((3.125..=400.0).contains(&pfd), "{p:?}");
            assert!((400.0..=800.0).contains(&p.f_vco_mhz), "{p:?}");
            assert!(
                (p.f_vco_mhz - pfd * (p.clkfb_div * p.clkop_div) as f64).abs() < 1e-9,
                "{p:?}"
            );
        }
        // 87.5 MHz: ecppll -i 25 -o 87.5 says refclk 2, feedback 7, clkout0 7, VCO 612.5
        let p = EcpPll::search(25.0, 87.5);
        assert_eq!((p.clki_div, p.clkfb_div, p.clkop_div), (2, 7, 7));
    }

    #[test]
    fn lpf_has_every_pin() {
        let l = lpf();
        for pin in ["G2", "L4", "M1", "R1", "L2"].iter().chain(LED_PINS.iter()) {
            assert!(l.contains(&format!("SITE \"{pin}\"")), "{pin}:\n{l}");
        }
        assert!(l.contains("LOCATE COMP \"led[7]\" SITE \"H3\""));
        assert!(l.contains("FREQUENCY PORT \"clk_25mhz\" 25 MHZ"));
    }

    #[test]
    fn clock_lines_parse() {
        let log = "Info: Max frequency for clock '$glbnet$clock': 140.25 MHz (PASS at 87.50 MHz)\nInfo: Max frequency for clock 'clk_25mhz$TRELLIS_IO_IN': 300.00 MHz (PASS at 25.00 MHz)\n";
        let c = clock_fmaxes(log);
        assert_eq!(
            c,
            vec![
                ("$glbnet$clock".to_string(), 140.25, 87.5),
                ("clk_25mhz$TRELLIS_IO_IN".to_string(), 300.0, 25.0)
            ]
        );
    }

    #[test]
    fn program_command_line() {
        let c = program_command(Path::new("build/ulx3s/lock_unit/lock_unit.bit"));
        assert_eq!(c.get_program(), "openFPGALoader");
        let args: Vec<_> = c.get_args().map(|a| a.to_str().unwrap()).collect();
        assert_eq!(args, ["-b", "ulx3s", "build/ulx3s/lock_unit/lock_unit.bit"]);
        let e = program(Path::new("/nonexistent/x.bit")).unwrap_err();
        assert!(format!("{e}").contains("run `synth build --board ulx3s-85f` first"));
    }

    /// No ULX3S on this machine: openFPGALoader fails (no FTDI device) and so does `program`,
    /// saying what to check. Skipped loudly without openFPGALoader (fails under REQUIRE_EDA=1);
    /// with a ULX3S plugged in, the junk file is refused by the loader instead.
    #[test]
    fn program_without_a_board_fails_clearly() {
        if !testbench::eda::tool_available("openFPGALoader") {
            return;
        }
        let f = std::env::temp_dir().join(format!("ulx3s_junk_{}.bit", std::process::id()));
        std::fs::write(&f, b"not a bitstream").unwrap();
        let e = format!("{:#}", program(&f).unwrap_err());
        let _ = std::fs::remove_file(&f);
        assert!(e.contains("openFPGALoader -b ulx3s"), "{e}");
        assert!(e.contains("is the ULX3S plugged in"), "{e}");
    }

    /// The divider search agrees with Trellis' `ecppll` (from the ECP5 venv) for every clock.
    #[test]
    fn pll_matches_ecppll() {
        let bin = crate::ecp5::venv_dir().join("bin/yowasp-ecppll");
        if !bin.exists() {
            assert!(
                std::env::var("REQUIRE_EDA").as_deref() != Ok("1"),
                "REQUIRE_EDA=1 but {} is missing (bash synth/ecp5-venv.sh)",
                bin.display()
            );
            eprintln!(
                "\n*** SKIPPED: {} missing (bash synth/ecp5-venv.sh) ***\n",
                bin.display()
            );
            return;
        }
        for (_, mhz) in UNITS.iter().chain(&[("bridge_only", BRIDGE_ONLY_MHZ)]) {
            let out = Command::new(&bin)
                .args(["-i", "25", "-o", &mhz.to_string()])
                .output()
                .unwrap();
            let text = String::from_utf8_lossy(&out.stdout).to_string();
            let field = |k: &str| -> f64 {
                let l = text
                    .lines()
                    .find(|l| l.starts_with(k))
                    .unwrap_or_else(|| panic!("{k} in {text}"));
                l.rsplit(':')
                    .next()
                    .unwrap()
                    .split_whitespace()
                    .next()
                    .unwrap()
                    .parse()
                    .unwrap()
            };
            let p = EcpPll::search(OSC_MHZ, *mhz);
            assert_eq!(
                (p.clki_div as f64, p.clkfb_div as f64, p.clkop_div as f64),
                (
                    field("Refclk divisor"),
                    field("Feedback divisor"),
                    field("clkout0 divisor")
                ),
                "{mhz} MHz:\n{text}"
            );
            assert!(
                (p.f_vco_mhz - field("VCO frequency")).abs() < 0.01,
                "{text}"
            );
        }
    }
}
