//! Run finder family (issue 3): Verilog export and the iCE40 area/timing table.
//!
//! - [`export_all`] writes the combinational forms as `run_finder_<variant>_<N>.v` (variant in
//!   exact, grouped (g = 4), sampled, tree; N in 32, 128): module `top`, ports `bits[N-1:0]`,
//!   `need[K-1:0]`, `max_run[K-1:0]`, `fit_found`, `fit_start[S-1:0]`, K = clog2(N+1),
//!   S = clog2(N). [`export_pipelined`] adds `run_finder_tree_pipe_<N>.v` (with `clock`, `reset`).
//! - [`table`] synthesizes every variant for N in 16, 32, 64, 128 with yosys `synth_ice40` and
//!   places and routes it with `nextpnr-ice40 --hx8k --package cb132 --freq 100`, and writes a
//!   Markdown table (LCs, Fmax, latency, II). It takes tens of minutes: keep it out of `cargo test`.
//!
//! ## Timing harness
//! A 128-bit map does not fit the CB132's 95 I/O pins, so every design is measured inside the same
//! harness: a serial-in shift register (N + K bits, plus `reset` for clocked designs) drives the
//! design's inputs from flip-flops, its outputs are registered, XOR-reduced and registered to one
//! pin. Fmax is therefore flip-flop to flip-flop through the design; the LC count includes the
//! harness (≈ N + K + 1 LCs of shift register that cannot share cells with logic, plus a few for the
//! XOR), reported separately in the table as the `harness` row.
//!
//! The table this command writes, `docs/run_finder_table.md`, is the only copy of the numbers;
//! the module doc of `hdl::run_finder` and the README link to it.

use anyhow::{bail, Context, Result};
use hdl::run_finder::*;
use rust_hdl::prelude::*;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

/// RustHDL export of a block (module `top`).
pub fn verilog_of<B: Block + Default>() -> String {
    let mut b = B::default();
    b.connect_all();
    generate_verilog(&b)
}

/// The four variants of the export contract.
pub const VARIANTS: [&str; 4] = ["exact", "grouped", "sampled", "tree"];

/// Combinational form of `variant` for `n` in {16, 32, 64, 128}, or `None`.
pub fn comb_verilog(variant: &str, n: usize) -> Option<String> {
    Some(match (variant, n) {
        ("exact", 16) => verilog_of::<Exact16>(),
        ("exact", 32) => verilog_of::<Exact32>(),
        ("exact", 64) => verilog_of::<Exact64>(),
        ("exact", 128) => verilog_of::<Exact128>(),
        ("grouped", 16) => verilog_of::<Grouped16>(),
        ("grouped", 32) => verilog_of::<Grouped32>(),
        ("grouped", 64) => verilog_of::<Grouped64>(),
        ("grouped", 128) => verilog_of::<Grouped128>(),
        ("sampled", 16) => verilog_of::<Sampled16>(),
        ("sampled", 32) => verilog_of::<Sampled32>(),
        ("sampled", 64) => verilog_of::<Sampled64>(),
        ("sampled", 128) => verilog_of::<Sampled128>(),
        ("tree", 16) => verilog_of::<Tree16>(),
        ("tree", 32) => verilog_of::<Tree32>(),
        ("tree", 64) => verilog_of::<Tree64>(),
        ("tree", 128) => verilog_of::<Tree128>(),
        _ => return None,
    })
}

/// Pipelined tree for `n` in {16, 32, 64, 128}: (Verilog, latency).
pub fn tree_pipe_verilog(n: usize) -> Option<(String, usize)> {
    Some(match n {
        16 => (verilog_of::<RunTreePipe<16, 32, 5, 4>>(), 2),
        32 => (verilog_of::<RunTreePipe<32, 64, 6, 5>>(), 3),
        64 => (verilog_of::<RunTreePipe<64, 128, 7, 6>>(), 4),
        128 => (verilog_of::<RunTreePipe<128, 256, 8, 7>>(), 5),
        _ => return None,
    })
}

/// Pipelined tree with the root level unregistered (outputs combinational from the level
/// below) for `n` in {16, 32, 64, 128}: (Verilog, latency log2(N) − 3).
pub fn tree_pipe_out_verilog(n: usize) -> Option<(String, usize)> {
    fn v<B: Block>(mut b: B) -> String {
        b.connect_all();
        generate_verilog(&b)
    }
    Some(match n {
        16 => (v(RunTreePipe::<16, 32, 5, 4>::with_root_register(false)), 1),
        32 => (v(RunTreePipe::<32, 64, 6, 5>::with_root_register(false)), 2),
        64 => (
            v(RunTreePipe::<64, 128, 7, 6>::with_root_register(false)),
            3,
        ),
        128 => (
            v(RunTreePipe::<128, 256, 8, 7>::with_root_register(false)),
            4,
        ),
        _ => return None,
    })
}

/// Registered form (input register → combinational form → output register, latency 2) of
/// `variant` (exact, grouped, sampled, tree) for `n` in {16, 32, 64, 128}, or `None`.
pub fn reg_verilog(variant: &str, n: usize) -> Option<String> {
    Some(match (variant, n) {
        ("exact", 16) => verilog_of::<ShiftAndReg<16, 5, 4>>(),
        ("exact", 32) => verilog_of::<ShiftAndReg<32, 6, 5>>(),
        ("exact", 64) => verilog_of::<ShiftAndReg<64, 7, 6>>(),
        ("exact", 128) => verilog_of::<ShiftAndReg<128, 8, 7>>(),
        ("grouped", 16) => verilog_of::<GroupedReg<16, 4, 4, 5, 4, 3, 2>>(),
        ("grouped", 32) => verilog_of::<GroupedReg<32, 4, 8, 6, 5, 4, 3>>(),
        ("grouped", 64) => verilog_of::<GroupedReg<64, 4, 16, 7, 6, 5, 4>>(),
        ("grouped", 128) => verilog_of::<GroupedReg<128, 4, 32, 8, 7, 6, 5>>(),
        ("sampled", 16) => verilog_of::<SampledReg<16, 12, 5, 4>>(),
        ("sampled", 32) => verilog_of::<SampledReg<32, 16, 6, 5>>(),
        ("sampled", 64) => verilog_of::<SampledReg<64, 20, 7, 6>>(),
        ("sampled", 128) => verilog_of::<SampledReg<128, 24, 8, 7>>(),
        ("tree", 16) => verilog_of::<RunTreeReg<16, 32, 5, 4>>(),
        ("tree", 32) => verilog_of::<RunTreeReg<32, 64, 6, 5>>(),
        ("tree", 64) => verilog_of::<RunTreeReg<64, 128, 7, 6>>(),
        ("tree", 128) => verilog_of::<RunTreeReg<128, 256, 8, 7>>(),
        _ => return None,
    })
}

/// Write `run_finder_<variant>_<N>.v` for every variant and N in {32, 128} into `out_dir`.
/// Returns (file stem, path) per file.
pub fn export_all(out_dir: &Path) -> Result<Vec<(String, PathBuf)>> {
    std::fs::create_dir_all(out_dir).with_context(|| format!("creating {}", out_dir.display()))?;
    let mut out = Vec::new();
    for v in VARIANTS {
        for n in [32, 128] {
            let name = format!("run_finder_{v}_{n}");
            let path = out_dir.join(format!("{name}.v"));
            std::fs::write(
                &path,
                comb_verilog(v, n).expect("variant and N are in the table"),
            )
            .with_context(|| format!("writing {}", path.display()))?;
            out.push((name, path));
        }
    }
    Ok(out)
}

/// Write `run_finder_tree_pipe_<N>.v` (N in {32, 128}; ports as the combinational ones plus
/// `clock` and `reset`; latency log2(N) − 2).
pub fn export_pipelined(out_dir: &Path) -> Result<Vec<(String, PathBuf)>> {
    std::fs::create_dir_all(out_dir)?;
    let mut out = Vec::new();
    for n in [32, 128] {
        let name = format!("run_finder_tree_pipe_{n}");
        let path = out_dir.join(format!("{name}.v"));
        std::fs::write(&path, tree_pipe_verilog(n).unwrap().0)?;
        out.push((name, path));
    }
    Ok(out)
}

/// Write `run_finder_time_shared_128.v`: the patent's time-shared finder (emb. 7; ports `clock`,
/// `reset`, `map0[127:0]`, `map1[63:0]`, `map2[47:0]`, `slot_cycle`, `max_run0[7:0]`,
/// `max_run1[6:0]`, `max_run2[5:0]`). Too large for the HX8K (one 128-bit shift-AND triangle).
pub fn export_time_shared(out_dir: &Path) -> Result<(String, PathBuf)> {
    std::fs::create_dir_all(out_dir)?;
    let name = "run_finder_time_shared_128".to_string();
    let path = out_dir.join(format!("{name}.v"));
    std::fs::write(
        &path,
        verilog_of::<hdl::run_finder::time_shared::TimeShared128>(),
    )?;
    Ok((name, path))
}

fn clog2(x: usize) -> usize {
    let mut b = 1;
    while (1usize << b) < x {
        b += 1;
    }
    b
}

/// The frame both finder harnesses share: module `top` with one serial input shifted into a
/// `w`-bit register `sh`, the lines of `body` (wires and the design instance reading `sh`), the
/// `o_bits` output bits `outputs` (a Verilog concatenation) registered and XOR-reduced to one
/// pin, then the design itself renamed `finder_dut`.
fn serial_harness(w: usize, body: &str, o_bits: usize, outputs: &str, dut: Option<&str>) -> String {
    let mut v = String::new();
    let _ = writeln!(v, "module top(input clock, input din, output reg dout);");
    let _ = writeln!(v, "  reg [{}:0] sh = 0;", w - 1);
    let _ = writeln!(
        v,
        "  always @(posedge clock) sh <= {{sh[{}:0], din}};",
        w - 2
    );
    v.push_str(body);
    let _ = writeln!(v, "  reg [{}:0] o = 0;", o_bits - 1);
    let _ = writeln!(
        v,
        "  always @(posedge clock) begin o <= {{{outputs}}}; dout <= ^o; end"
    );
    let _ = writeln!(v, "endmodule");
    if let Some(d) = dut {
        v.push_str(&d.replacen("module top(", "module finder_dut(", 1));
    }
    v
}

/// The timing harness around an exported `top` (renamed `finder_dut`); `dut = None` measures the
/// harness alone (the design's outputs replaced by its inputs' low bits).
pub fn harness(dut: Option<&str>, n: usize, clocked: bool) -> String {
    let (k, s) = (clog2(n + 1), clog2(n));
    let w = n + k + clocked as usize;
    let mut body = String::new();
    let _ = writeln!(
        body,
        "  wire [{}:0] max_run; wire fit_found; wire [{}:0] fit_start;",
        k - 1,
        s - 1
    );
    if dut.is_some() {
        let clk = if clocked {
            format!(".clock(clock), .reset(sh[{}]), ", w - 1)
        } else {
            String::new()
        };
        let _ = writeln!(
            body,
            "  finder_dut dut({clk}.bits(sh[{}:0]), .need(sh[{}:{}]), .max_run(max_run), .fit_found(fit_found), .fit_start(fit_start));",
            n - 1,
            n + k - 1,
            n
        );
    } else {
        let _ = writeln!(body, "  assign max_run = sh[{}:0]; assign fit_found = sh[{k}]; assign fit_start = sh[{}:{}];", k - 1, k + s, k + 1);
    }
    serial_harness(w, &body, k + s + 1, "max_run, fit_found, fit_start", dut)
}

/// The timing harness around the time-shared finder (`TimeShared128`, renamed `finder_dut`):
/// the three maps and `reset` from one serial-in shift register, the 22 output bits registered
/// and XOR-reduced to one pin, as [`harness`] does for the single-map finders.
pub fn harness_time_shared(dut: &str) -> String {
    let w = 128 + 64 + 48 + 1;
    let body = format!(
        "  wire slot_cycle; wire [7:0] m0; wire [6:0] m1; wire [5:0] m2;\n  finder_dut dut(.clock(clock), .reset(sh[{}]), .map0(sh[127:0]), .map1(sh[191:128]), .map2(sh[239:192]), .slot_cycle(slot_cycle), .max_run0(m0), .max_run1(m1), .max_run2(m2));\n",
        w - 1
    );
    serial_harness(w, &body, 22, "slot_cycle, m0, m1, m2", Some(dut))
}

/// One measured design.
#[derive(Clone, Debug, Default)]
pub struct SynthResult {
    /// Packed logic cells after placement (`ICESTORM_LC`), or yosys' LUT4 count if not placed.
    pub lcs: Option<usize>,
    /// Post-route Fmax in MHz.
    pub fmax_mhz: Option<f64>,
    /// Anything unusual (does not fit, tool timeout).
    pub note: String,
}

/// Synthesize and place-and-route `verilog` (a complete design with top `top`) in `dir` with
/// `synth_ice40 <flags>` (e.g. `-nocarry`). A directory that already holds the same design,
/// flags and a finished log is reused (so an interrupted table run resumes).
pub fn synthesize(verilog: &str, dir: &Path, flags: &str) -> Result<SynthResult> {
    std::fs::create_dir_all(dir)?;
    let key = format!("{flags}\n{verilog}");
    let cached = std::fs::read_to_string(dir.join("design.key"))
        .map(|k| k == key)
        .unwrap_or(false);
    if !cached {
        let _ = std::fs::remove_file(dir.join("nextpnr.log"));
        let _ = std::fs::remove_file(dir.join("design.key"));
        std::fs::write(dir.join("design.v"), verilog)?;
        let script =
            format!("read_verilog design.v; synth_ice40 {flags} -top top -json design.json; stat");
        let y = Command::new("timeout")
            .current_dir(dir)
            .args(["1800", "yosys", "-q", "-l", "yosys.log", "-p", &script])
            .output()
            .context("running yosys")?;
        if !y.status.success() {
            bail!(
                "yosys failed or timed out in {}: {}",
                dir.display(),
                String::from_utf8_lossy(&y.stderr)
            );
        }
    }
    let ylog = std::fs::read_to_string(dir.join("yosys.log")).unwrap_or_default();
    let luts = ylog
        .lines()
        .filter(|l| l.trim_start().starts_with("SB_LUT4"))
        .filter_map(|l| l.split_whitespace().nth(1)?.parse::<usize>().ok())
        .next_back();
    if luts.unwrap_or(0) > 7680 {
        std::fs::write(dir.join("design.key"), &key)?;
        return Ok(SynthResult {
            lcs: luts,
            fmax_mhz: None,
            note: format!("does not fit: {} LUT4 after yosys", luts.unwrap()),
        });
    }
    let have_log = std::fs::read_to_string(dir.join("nextpnr.log"))
        .map(|l| l.contains("Max frequency"))
        .unwrap_or(false);
    let timed_out = std::fs::read_to_string(dir.join("pnr_timeout")).ok();
    let mut status = None;
    if !(cached && (have_log || timed_out.is_some())) {
        let _ = std::fs::remove_file(dir.join("pnr_timeout"));
        let limit = std::env::var("FINDER_PNR_TIMEOUT").unwrap_or_else(|_| "1800".into());
        let p = Command::new("timeout")
            .current_dir(dir)
            .args([
                limit.as_str(),
                "nextpnr-ice40",
                "--hx8k",
                "--package",
                "cb132",
                "--freq",
                "100",
                "--timing-allow-fail",
                "--seed",
                "1",
                "--json",
                "design.json",
                "--log",
                "nextpnr.log",
            ])
            .output()
            .context("running nextpnr-ice40")?;
        status = p.status.code();
        if status == Some(124) {
            std::fs::write(dir.join("pnr_timeout"), &limit)?;
        }
    }
    let timed_out = std::fs::read_to_string(dir.join("pnr_timeout")).ok();
    let log = std::fs::read_to_string(dir.join("nextpnr.log")).unwrap_or_default();
    let lcs = crate::flow::last_lc_use(&log).map(|(used, _)| used as usize);
    let mut fmax = crate::flow::last_fmax(&log);
    let note = if let Some(secs) = &timed_out {
        let est = fmax.take().map_or(String::new(), |f| {
            format!("; placement estimate {f:.0} MHz")
        });
        format!(
            "routing did not converge within {} s (congested){est}",
            secs.trim()
        )
    } else if lcs.is_none() {
        format!("place/route failed (exit {status:?})")
    } else {
        String::new()
    };
    if fmax.is_some() || timed_out.is_some() {
        std::fs::write(dir.join("design.key"), &key)?;
    }
    Ok(SynthResult {
        lcs: lcs.or(luts),
        fmax_mhz: fmax,
        note,
    })
}

/// One row of the table: (variant, form, N, latency, Verilog of the harnessed design).
/// `variants` selects among `harness`, `tree`, `tree_pipe`, `grouped`, `sampled`, `exact`.
pub fn table_designs(
    ns: &[usize],
    variants: &[&str],
) -> Vec<(String, String, usize, usize, String)> {
    let mut rows = Vec::new();
    for &n in ns {
        for &v in variants {
            match v {
                "harness" => rows.push((
                    "harness".into(),
                    "(shift register only)".into(),
                    n,
                    0,
                    harness(None, n, false),
                )),
                "tree_reg" | "grouped_reg" | "sampled_reg" | "exact_reg" => {
                    let base = v.trim_end_matches("_reg");
                    rows.push((
                        base.into(),
                        "registered".into(),
                        n,
                        2,
                        harness(Some(&reg_verilog(base, n).unwrap()), n, true),
                    ));
                }
                "time_shared" => {
                    if n == 128 {
                        rows.push((
                            "time_shared".into(),
                            "registered".into(),
                            n,
                            1,
                            harness_time_shared(&verilog_of::<
                                hdl::run_finder::time_shared::TimeShared128,
                            >()),
                        ));
                    }
                }
                "tree_pipe_out" => {
                    let (d, lat) = tree_pipe_out_verilog(n).unwrap();
                    rows.push((
                        "tree".into(),
                        "pipelined, root unregistered".into(),
                        n,
                        lat,
                        harness(Some(&d), n, true),
                    ));
                }
                "tree_pipe" => {
                    let (d, lat) = tree_pipe_verilog(n).unwrap();
                    rows.push((
                        "tree".into(),
                        "pipelined".into(),
                        n,
                        lat,
                        harness(Some(&d), n, true),
                    ));
                }
                _ => {
                    let d = comb_verilog(v, n).unwrap();
                    rows.push((v.into(), "comb".into(), n, 0, harness(Some(&d), n, false)));
                }
            }
        }
    }
    rows
}

/// The `synth_ice40` options a table row is synthesized with. The tree's arithmetic is at most
/// l + 2 bits wide at tree level l, where LUTs beat carry chains (`-nocarry`); the one-cycle tree
/// is mapped with ABC9 (timing-driven; N = 32 before the flat root max: 74.6 vs 67.6 MHz); the
/// pipelined tree with `-dff` (another ABC script; N = 128: 1935 vs 1956 LCs in one A/B run).
pub fn yosys_flags(variant: &str, form: &str) -> &'static str {
    match (variant, form) {
        ("tree", "comb") => "-nocarry -abc9",
        ("tree", f) if f.starts_with("pipelined") => "-nocarry -dff",
        ("tree", _) => "-nocarry",
        _ => "",
    }
}

/// Every variant, in table order (`time_shared` only exists for the patent's 128 | 64 ‖ 48).
pub const TABLE_VARIANTS: [&str; 11] = [
    "tree",
    "tree_pipe",
    "tree_pipe_out",
    "tree_reg",
    "grouped",
    "grouped_reg",
    "sampled",
    "sampled_reg",
    "exact",
    "exact_reg",
    "time_shared",
];

/// Synthesize every variant for N in {16, 32, 64, 128} and write the Markdown table to `out_md`
/// (also returned). Work files go next to `out_md` in `run_finder_synth/`.
pub fn table(out_md: &Path) -> Result<String> {
    table_for(out_md, &[16, 32, 64, 128], &TABLE_VARIANTS)
}

/// [`table`] for a chosen set of N and variants (see [`table_designs`]).
pub fn table_for(out_md: &Path, ns: &[usize], variants: &[&str]) -> Result<String> {
    let work = out_md
        .parent()
        .unwrap_or(Path::new("."))
        .join("run_finder_synth");
    let mut md = String::new();
    let _ = writeln!(
        md,
        "# Run finder family on iCE40 HX8K (CB132, nextpnr --freq 100)\n"
    );
    let _ = writeln!(
        md,
        "Every design sits in the same harness (serial-in shift register → design → output register → \
         XOR → pin), so Fmax is flip-flop to flip-flop through the design and LCs include the harness \
         (see `≈ design`). Forms: `comb` answers in the cycle it is given (latency 0); `registered` is \
         the combinational form between an input and an output register (the patent's registered form, \
         latency 2); `pipelined` is the tree with one register stage per tree level above the 4-block \
         leaves (latency log2 N − 2). II = 1 everywhere except the time-shared finder, which refreshes \
         each of its maps every 2 cycles (its one row is the patent's 128 | 64 ‖ 48 instance). \
         Grouped: g = 4; sampled: lengths 1–8, then steps 2, 4, 8, 16.\n"
    );
    let _ = writeln!(
        md,
        "The best exact design is the `tree` (`hdl::run_finder::RunTree`, `RunTreePipe`): a segment \
         tree over 4-block leaves whose need-independent fields are 16-entry tables; each run is \
         measured once, where it crosses the middle of the smallest node containing it, max-run stays \
         inside the tree, and every node keeps one position field, so first fit is a 2:1 mux per node. \
         The pipelined form registers every tree level above the leaves and stores per node only \
         `plen` (whose top bit is `all`), the low bits of `slen` and `best`, `found` and the position; \
         `pipelined, root unregistered` (`RunTreePipe::with_root_register(false)`) leaves the root level \
         without registers, so its outputs are combinational from the level below (like the leaves work \
         on the inputs; the harness registers them): one stage less latency, 17 flip-flops fewer.\n"
    );
    let _ = writeln!(
        md,
        "`≈ design` subtracts the harness's serial-in shift register (N + K + 1 flip-flops, one cell each, \
         + 1 for `reset` on clocked designs) and ~5 cells of output XOR; it is an estimate. The `yosys` \
         column gives the `synth_ice40` options (see `synth::run_finder::yosys_flags`): the tree uses \
         `-nocarry` (its adders and compares are at most l + 2 bits wide at tree level l, where LUTs beat \
         carry chains: in an A/B run at N = 32, 457 vs 562 LCs and 64 vs 55 MHz), its one-cycle form \
         `-abc9` (timing-driven mapping), its pipelined form `-dff`; the others plain `synth_ice40`. \
         `exact` includes first fit (an N×N select and a priority encoder), so it is larger than the \
         patent's max-run-only anchor. Anchors (issue 3): the patent's exact form, 2403 LCs at \
         31 MHz for N = 64, does not fit at N = 128 (9340 LCs); goal: exact max-run and first fit on \
         128 blocks at II = 1, ≥ 100 MHz, ≤ 1920 LCs; a 32-block exact finder in one cycle at ≥ 75 MHz.\n"
    );
    let _ = writeln!(
        md,
        "| variant | form | N | LCs | ≈ design | Fmax (MHz) | latency | II | yosys | note |"
    );
    let _ = writeln!(md, "|---|---|---|---|---|---|---|---|---|---|");
    for (v, form, n, lat, design) in table_designs(ns, variants) {
        let tag: Vec<&str> = form
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .collect();
        let dir = work.join(format!("{v}_{}_{n}", tag.join("_")));
        eprintln!(
            "run_finder table: synthesizing {v} {form} N={n} in {}",
            dir.display()
        );
        let flags = yosys_flags(&v, &form);
        let r = synthesize(&design, &dir, flags).unwrap_or_else(|e| SynthResult {
            note: format!("{e:#}"),
            ..Default::default()
        });
        let harness_cells = if v == "time_shared" {
            128 + 64 + 48 + 1 + 5
        } else {
            n + clog2(n + 1) + 1 + (form != "comb") as usize + 5
        };
        let _ = writeln!(
            md,
            "| {v} | {form} | {n} | {} | {} | {} | {} | {} | `{}` | {} |",
            r.lcs.map_or("–".into(), |x| x.to_string()),
            r.lcs
                .filter(|_| v != "harness" && r.fmax_mhz.is_some())
                .map_or("–".into(), |x| x
                    .saturating_sub(harness_cells)
                    .to_string()),
            r.fmax_mhz.map_or("–".into(), |f| format!("{f:.1}")),
            if v == "harness" {
                "–".to_string()
            } else {
                lat.to_string()
            },
            if v == "time_shared" {
                "2 (per map)"
            } else {
                "1"
            },
            format!("synth_ice40 {flags}").trim_end(),
            r.note
        );
        std::fs::write(out_md, &md)?;
    }
    Ok(md)
}
