//! `synth`: the project's main job.
//!
//! ```text
//! cargo run --release -p synth -- export --out build        # Verilog of every unit + manifest.json
//! cargo run --release -p synth -- report --json build/report.json   # export + yosys/nextpnr table
//! cargo run --release -p synth -- bench                      # simulation speeds and latencies
//! cargo run --release -p synth -- eval-dispatch --out build  # dispatcher policy evaluation
//! cargo run --release -p synth -- eval-lock --out build      # lock unit vs FIFO lock and spin
//! cargo run --release -p synth -- eval-preempt --out build   # preemption controller evaluation
//! cargo run --release -p synth -- eval-system --out build    # GPU front-end system evaluation
//! cargo run --release -p synth -- finder-table --out docs/run_finder_table.md
//! cargo run --release -p synth -- simt-table                 # SIMT scheme vs IPDOM per program
//! cargo run --release -p synth -- eval-schedule --out build   # schedule-order cache study
//! cargo run --release -p synth -- mutate --unit lock_unit --count 200   # injected-fault score
//! ```

use anyhow::Result;
use clap::{Parser, Subcommand};
use std::path::{Path, PathBuf};
use synth::flow::{self, SynthResult};

#[derive(Parser)]
#[command(
    name = "synth",
    about = "gpu-sched-rtl: Verilog export, iCE40 HX8K reports, benches"
)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Write the board-config Verilog of every unit as DIR/<unit>.v plus DIR/manifest.json.
    Export {
        #[arg(long, default_value = "build")]
        out: PathBuf,
    },
    /// Export, then synthesize every unit for the iCE40 HX8K (CB132) and print LCs and Fmax.
    Report {
        /// Also write the table as a JSON array to this file.
        #[arg(long)]
        json: Option<PathBuf>,
        /// Where the Verilog and the tool logs go.
        #[arg(long, default_value = "build")]
        out: PathBuf,
        /// Target clock for nextpnr (the Alchitry Cu clock is 100 MHz).
        #[arg(long, default_value_t = 100.0)]
        freq: f64,
        /// Only units whose name contains this string.
        #[arg(long)]
        only: Option<String>,
        /// Also synthesize the full (patent-scale) configs for area only (yosys alone; slow:
        /// the full lock unit takes about 9 minutes).
        #[arg(long)]
        full: bool,
        /// nextpnr placement seeds, comma separated: one place and route per seed; the Fmax
        /// reported is their median, every seed's is listed (e.g. `--seeds 1,2,3,4,5`).
        #[arg(long, value_delimiter = ',', default_value = "1")]
        seeds: Vec<u64>,
        /// `ice40-hx8k` (the Alchitry Cu) or `ecp5-85f` (LFE5U-85F CABGA381, the ULX3S part;
        /// tools from `bash synth/ecp5-venv.sh`; `--full` then places and routes every full
        /// config; the rows go to the README block `ecp5`).
        #[arg(long, default_value = "ice40-hx8k", value_parser = ["ice40-hx8k", "ecp5-85f"])]
        target: String,
        /// ECP5 speed grades, comma separated: 6 (the ULX3S part) first.
        #[arg(long, value_delimiter = ',', default_value = "6,8")]
        speeds: Vec<u8>,
        /// ECP5: seeds for the speed grades after 6 (default: `--seeds`), e.g. `1` to sample
        /// speed 8 once where three seeds of speed 6 are the goal's median.
        #[arg(long, value_delimiter = ',')]
        seeds_other_speeds: Option<Vec<u64>>,
        /// The Markdown file whose measured-table block gets the rows, one per unit measured
        /// (iCE40: block `units-ice40`; ECP5: block `ecp5`; "-": none).
        #[arg(long, default_value = "README.md")]
        readme: PathBuf,
    },
    /// Run the dispatcher evaluation (golden model vs baselines): DIR/dispatch_eval.{md,svg}.
    EvalDispatch {
        #[arg(long, default_value = "build")]
        out: PathBuf,
    },
    /// Run the lock unit evaluation (golden model vs FIFO lock, spin, no preemption):
    /// DIR/lock_eval.{md,svg}.
    EvalLock {
        #[arg(long, default_value = "build")]
        out: PathBuf,
    },
    /// Run the preemption controller evaluation (golden model + GPU model vs baselines):
    /// DIR/preempt_eval.{md,svg}.
    EvalPreempt {
        #[arg(long, default_value = "build")]
        out: PathBuf,
    },
    /// Run the GPU front-end system evaluation (composed golden model + GPU model, SPEC Unit 8
    /// configurations (a)-(d)): DIR/system_eval.{md,svg}.
    EvalSystem {
        #[arg(long, default_value = "build")]
        out: PathBuf,
    },
    /// Area/timing table of every run-finder variant and size (many P&R runs: long).
    FinderTable {
        #[arg(long, default_value = "docs/run_finder_table.md")]
        out: PathBuf,
    },
    /// SIMT issue unit: instructions and cycles per program under the representative-thread
    /// scheme and under the IPDOM baseline (Markdown table; also written to --out if given).
    SimtTable {
        /// Warp sizes, comma separated.
        #[arg(long, value_delimiter = ',', default_value = "8,32")]
        threads: Vec<usize>,
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Schedule-order study (golden model): cache misses per benchmark × order × cache, the
    /// oracle and the profiler's pick; writes DIR/schedule_eval.{md,svg}.
    EvalSchedule {
        #[arg(long, default_value = "build")]
        out: PathBuf,
    },
    /// Simulation speeds (golden model, RustHDL, Verilator) and measured latencies.
    Bench {
        /// Cycles for the golden model run.
        #[arg(long, default_value_t = 2_000_000)]
        model_cycles: usize,
        /// Cycles for the RustHDL simulation run.
        #[arg(long, default_value_t = 100_000)]
        rtl_cycles: usize,
        /// Cycles for the Verilator run.
        #[arg(long, default_value_t = 5_000_000)]
        verilator_cycles: usize,
        /// Only units whose name contains this string.
        #[arg(long)]
        only: Option<String>,
        /// With `--config`: the dispatcher's saturating-stream bench (`dispatcher`).
        #[arg(long)]
        unit: Option<String>,
        /// `full` (the integrated patent-scale RTL) or `board`: prints one line on stdout,
        /// `dispatcher CONFIG: R records in C cycles (X per cycle), head-to-record max H cycles`
        /// (the stream on every channel; stderr: it and the one-channel stream in detail).
        #[arg(long)]
        config: Option<String>,
        /// Measured cycles of that stream (after 1000 of warm-up).
        #[arg(long, default_value_t = 20_000)]
        stream_cycles: u64,
    },
    /// Bitstream for the Alchitry Cu: DIR/NAME/{board_top.v, NAME.pcf, nextpnr.log, report.json,
    /// NAME.bin}; fails when a tool fails, the design does not fit or timing is not met at the unit's clock.
    Build {
        /// `alchitry-cu` (iCE40 HX8K, default) or `ulx3s-85f` (ECP5-85F: DIR/NAME/{ulx3s_top.v,
        /// NAME.lpf, nextpnr.log, NAME.bit}, block `bitstreams-ecp5`; default DIR build/ulx3s).
        #[arg(long, default_value = "alchitry-cu")]
        board: String,
        /// The unit: one of `synth::board::UNITS` (`lock_unit`, `dispatcher`,
        /// `run_finder_tree_pipe_128`, `preempt_ctrl`, `simt_issue`, `schedule_gen`; the ULX3S
        /// also the units of `synth::ulx3s::UNITS`), built at its board clock; `bridge_only`: the
        /// bridge around a one-flip-flop unit, for its own cost.
        #[arg(long, required_unless_present = "all")]
        unit: Option<String>,
        /// Every unit that has a board clock, each at its clock (`synth::board::UNITS`, e.g.
        /// `PREEMPT_MHZ`, `SIMT_MHZ`), and the bridge alone.
        #[arg(long)]
        all: bool,
        #[arg(long)]
        out: Option<PathBuf>,
        /// nextpnr placement seed.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Several nextpnr seeds (comma list, e.g. 1,2,3; overrides --seed; Alchitry Cu only):
        /// one synthesis, placed and routed at each seed, every seed must meet the clock, the
        /// bitstream is the first seed's.
        #[arg(long, value_delimiter = ',')]
        seeds: Vec<u64>,
        /// Override the unit's board clock (MHz).
        #[arg(long)]
        clock: Option<f64>,
        /// The Markdown file whose block `bitstreams-ice40` (`bitstreams-ecp5` with
        /// `--board ulx3s-85f`) gets one row per design built (rows keyed by unit; "-": none).
        #[arg(long, default_value = "-")]
        readme: PathBuf,
    },
    /// Run a recorded scenario on the board (`--port`) or the simulated board (`--sim`) and
    /// print the comparison with the recorded golden-model outputs.
    Board {
        #[arg(long)]
        unit: String,
        /// `alchitry-cu` (default) or `ulx3s-85f` (the same core and protocol; every unit with
        /// the full bridge).
        #[arg(long, default_value = "alchitry-cu")]
        board: String,
        /// Serial port of the board (the FT2232H's UART channel, e.g. /dev/ttyUSB1).
        #[arg(long, conflicts_with = "sim")]
        port: Option<String>,
        /// The simulated board (Verilator) instead of a real one.
        #[arg(long)]
        sim: bool,
        #[command(subcommand)]
        action: BoardAction,
    },
    /// Record a scenario file: the unit's seeded random trace and the golden model's outputs.
    RecordScenario {
        #[arg(long)]
        unit: String,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long, default_value_t = 2000)]
        cycles: usize,
        #[arg(long)]
        out: PathBuf,
    },
    /// Program the unit's bitstream from `build`: DIR/NAME/NAME.bin with iceprog (Alchitry Cu), or
    /// DIR/NAME/NAME.bit with `openFPGALoader -b ulx3s` (`--board ulx3s-85f`, DIR build/ulx3s).
    Program {
        #[arg(long)]
        unit: String,
        #[arg(long, default_value = "alchitry-cu")]
        board: String,
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Injected-fault score: faults in the exported Verilog (one Verilator build, mutant
    /// schemata), each run through the unit's random traces; what lockstep, the spec checker and
    /// the port invariants catch.
    Mutate {
        /// Unit (`lock_unit`, `run_finder_tree_pipe_128`, ...).
        #[arg(long)]
        unit: String,
        /// Mutants to inject.
        #[arg(long, default_value_t = 200)]
        count: usize,
        /// Seed of the fault sites and the traces.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Random traces per mutant (default: the unit's budget, one per 500 candidate faults,
        /// at least 12; the front end at least the default run's 10^6 cycles:
        /// `synth::mutate::unit_budget`).
        #[arg(long)]
        traces: Option<usize>,
        /// Cycles per trace.
        #[arg(long, default_value_t = 8000)]
        cycles: usize,
        /// ABC's CPU seconds per survivor for its equivalence proof (0: no proofs; default
        /// `MUTATE_PROVE_SECS` or 60)
        #[arg(long)]
        prove_secs: Option<u64>,
    },
}

#[derive(Subcommand)]
enum BoardAction {
    /// Replay a scenario file.
    Scenario {
        file: PathBuf,
        /// Free-running mode (stimulus buffer, full clock) instead of one STEP per cycle.
        #[arg(long)]
        free_run: bool,
    },
}

fn export(out: &Path) -> Result<Vec<synth::export::Exported>> {
    synth::export::export(out)
}

/// Configurations synthesized for area only by `report`.
fn area_only_units() -> Vec<(String, String)> {
    vec![
        ("lock_unit_full".into(), synth::lock_unit::full_verilog()),
        ("simt_issue_full".into(), synth::simt_issue::full_verilog()),
        (
            "preempt_ctrl_full".into(),
            synth::preempt_ctrl::full_verilog(),
        ),
    ]
}

fn print_table(rows: &[SynthResult]) {
    println!("\n| unit | LCs (of 7680) | Fmax MHz | meets 100 MHz | harness FFs | Fmax per seed |");
    println!("|---|---:|---:|:---:|---:|---|");
    for r in rows {
        println!(
            "| {} | {} | {:.1} | {} | {} | {} |",
            r.unit,
            r.lcs,
            r.fmax_mhz,
            if r.meets_100mhz { "yes" } else { "no" },
            r.harness_ffs,
            r.fmax_by_seed_text()
        );
    }
}

/// Header of the README block `units-ice40` (rows keyed by unit, see `synth::readme`).
const ICE40_README_HEADER: &str = "| unit | LCs (of 7680) | Fmax median (MHz) | Fmax by seed (MHz) | meets 100 MHz |\n|---|---:|---:|---|:---:|";

/// One row of the README block `units-ice40`.
fn ice40_readme_row(r: &SynthResult) -> String {
    format!(
        "| `{}` | {} | {:.1} | {} | {} |",
        r.unit,
        r.lcs,
        r.fmax_mhz,
        r.fmax_by_seed_text(),
        if r.meets_100mhz { "yes" } else { "no" }
    )
}

/// A report row: the synthesis result, or why the flow failed for that unit.
fn row_json(unit: &str, r: &Result<SynthResult>) -> serde_json::Value {
    match r {
        Ok(r) => serde_json::to_value(r).expect("serializable"),
        Err(e) => serde_json::json!({
            "unit": unit, "lcs": null, "lcs_total": 7680, "fmax_mhz": null,
            "meets_100mhz": false, "error": format!("{e:#}"),
        }),
    }
}

fn main() -> Result<()> {
    match Cli::parse().cmd {
        Cmd::Export { out } => {
            export(&out)?;
        }
        Cmd::Report {
            json,
            out,
            freq,
            only,
            full,
            seeds,
            target,
            speeds,
            seeds_other_speeds,
            readme,
        } => {
            if target == "ecp5-85f" {
                return synth::ecp5::report(&synth::ecp5::ReportOptions {
                    out,
                    json,
                    freq,
                    only,
                    full,
                    seeds: synth::ecp5::Seeds {
                        other: seeds_other_speeds.unwrap_or_else(|| seeds.clone()),
                        first: seeds,
                    },
                    speeds,
                    readme: (readme.as_os_str() != "-").then_some(readme),
                });
            }
            let units = export(&out)?;
            let work = out.join("synth");
            let mut results = vec![];
            for u in units.iter().filter(|u| {
                u.in_report
                    && !synth::export::NOT_ON_ICE40.contains(&u.unit.as_str())
                    && synth::only_selects(only.as_deref(), &u.unit)
            }) {
                eprintln!("synthesizing {} ...", u.unit);
                let r = flow::synthesize_seeds(&u.unit, &u.verilog, &work, freq, &seeds);
                match &r {
                    Ok(r) => eprintln!("  {} LCs, {:.1} MHz", r.lcs, r.fmax_mhz),
                    Err(e) => eprintln!("  FAILED: {e:#}"),
                }
                results.push((u.unit.clone(), r));
            }
            let ok: Vec<SynthResult> = results
                .iter()
                .filter_map(|(_, r)| r.as_ref().ok().cloned())
                .collect();
            print_table(&ok);
            if readme.as_os_str() != "-" && !ok.is_empty() {
                let rows: Vec<String> = ok.iter().map(ice40_readme_row).collect();
                synth::readme::upsert_rows(&readme, "units-ice40", ICE40_README_HEADER, &rows)?;
                println!("\nwrote block `units-ice40` of {}", readme.display());
            }
            for (unit, r) in &results {
                if let Err(e) = r {
                    println!(
                        "| {unit} | FAILED: {} |",
                        format!("{e:#}").lines().next().unwrap_or("")
                    );
                }
            }
            if let Some(j) = json {
                let rows: Vec<serde_json::Value> =
                    results.iter().map(|(u, r)| row_json(u, r)).collect();
                std::fs::write(&j, serde_json::to_string_pretty(&rows)?)?;
                println!("\nwrote {}", j.display());
            }
            // full (patent-scale) configs: area only (they exceed the HX8K's pins or cells)
            let mut areas = vec![];
            for (unit, v) in area_only_units().into_iter().filter(|_| full) {
                if !synth::only_selects(only.as_deref(), &unit) {
                    continue;
                }
                eprintln!("synthesizing {unit} (area only) ...");
                areas.push(flow::area(&unit, &v, &work)?);
            }
            if !areas.is_empty() {
                println!("\n| unit (area only) | LUT4 | FF | carry |\n|---|---:|---:|---:|");
                for a in &areas {
                    println!("| {} | {} | {} | {} |", a.unit, a.luts, a.ffs, a.carries);
                }
                let p = out.join("area.json");
                std::fs::write(&p, serde_json::to_string_pretty(&areas)?)?;
                println!("\nwrote {}", p.display());
            }
            // patent-scale dispatcher sub-blocks: placed and routed when `--only` names them
            for (unit, v) in synth::dispatcher_scale::sub_blocks()
                .into_iter()
                .filter(|(u, _)| full && only.is_some() && synth::only_selects(only.as_deref(), u))
            {
                eprintln!("synthesizing {unit} ...");
                let r = flow::synthesize_seeds(&unit, &v, &work, freq, &seeds);
                match &r {
                    Ok(r) => println!(
                        "| {unit} | {} | {:.1} | {} |",
                        r.lcs,
                        r.fmax_mhz,
                        r.fmax_by_seed_text()
                    ),
                    Err(e) => eprintln!("  FAILED: {e:#}"),
                }
                results.push((unit, r));
            }
            let failed: Vec<&str> = results
                .iter()
                .filter(|(_, r)| r.is_err())
                .map(|(u, _)| u.as_str())
                .collect();
            if !failed.is_empty() {
                anyhow::bail!("the iCE40 flow failed for: {}", failed.join(", "));
            }
        }
        Cmd::EvalDispatch { out } => {
            println!("{}", synth::dispatcher::evaluate(&out)?);
            println!(
                "wrote {0}/dispatch_eval.md and {0}/dispatch_eval.svg",
                out.display()
            );
        }
        Cmd::EvalLock { out } => {
            println!("{}", synth::lock_unit::evaluate(&out)?);
            println!(
                "wrote {0}/lock_eval.md and {0}/lock_eval.svg",
                out.display()
            );
        }
        Cmd::EvalPreempt { out } => {
            println!("{}", synth::preempt_ctrl::evaluate(&out)?);
            println!(
                "wrote {0}/preempt_eval.md and {0}/preempt_eval.svg",
                out.display()
            );
        }
        Cmd::EvalSystem { out } => {
            println!("{}", synth::eval_system::evaluate(&out)?);
            println!(
                "wrote {0}/system_eval.md and {0}/system_eval.svg",
                out.display()
            );
        }
        Cmd::FinderTable { out } => {
            println!("{}", synth::run_finder::table(&out)?);
            println!("wrote {}", out.display());
        }
        Cmd::SimtTable { threads, out } => {
            let t = synth::simt_issue::table(&threads);
            println!("{t}");
            if let Some(p) = out {
                std::fs::write(&p, &t)?;
                println!("wrote {}", p.display());
            }
        }
        Cmd::EvalSchedule { out } => {
            println!("{}", synth::schedule_gen::evaluate(&out)?);
            println!(
                "wrote {0}/schedule_eval.md and {0}/schedule_eval.svg",
                out.display()
            );
        }
        Cmd::Bench {
            model_cycles,
            rtl_cycles,
            verilator_cycles,
            only,
            unit,
            config,
            stream_cycles,
        } => {
            if let Some(config) = config {
                anyhow::ensure!(
                    unit.as_deref() == Some("dispatcher"),
                    "--config needs --unit dispatcher"
                );
                // stdout: the contract line alone; stderr: both streams in detail
                let b = synth::dispatcher_scale::bench_stream(&config, stream_cycles)?;
                eprint!("{}", b.details());
                println!("{}", b.line());
                return Ok(());
            }
            let c = synth::bench::Cycles {
                model: model_cycles,
                rtl: rtl_cycles,
                verilator: verilator_cycles,
            };
            println!("{}", synth::bench::run(c, only.as_deref())?);
        }
        Cmd::Build {
            board,
            unit,
            all,
            out,
            seed,
            seeds,
            clock,
            readme,
        } => match board.as_str() {
            "alchitry-cu" => board_build(
                unit,
                all,
                &out.unwrap_or_else(|| "build/board".into()),
                &if seeds.is_empty() { vec![seed] } else { seeds },
                clock,
                &readme,
            )?,
            synth::ulx3s::BOARD => ulx3s_build(
                unit,
                all,
                &out.unwrap_or_else(|| "build/ulx3s".into()),
                seed,
                clock,
                &readme,
            )?,
            b => anyhow::bail!("unknown board `{b}` (alchitry-cu, ulx3s-85f)"),
        },
        Cmd::Board {
            unit,
            board,
            port,
            sim,
            action: BoardAction::Scenario { file, free_run },
        } => {
            if port.is_none() && !sim {
                anyhow::bail!("give --port PATH (a board) or --sim (the simulated board)");
            }
            if !["alchitry-cu", synth::ulx3s::BOARD].contains(&board.as_str()) {
                anyhow::bail!("unknown board `{board}` (alchitry-cu, ulx3s-85f)");
            }
            let bad = synth::board::visit_unit(
                &unit,
                synth::board::ReplayScenario {
                    file,
                    port,
                    free_run,
                    full_bridge: board == synth::ulx3s::BOARD,
                },
            )
            .ok_or_else(|| unknown_unit(&unit))??;
            if bad > 0 {
                anyhow::bail!("{bad} cycles differ");
            }
        }
        Cmd::RecordScenario {
            unit,
            seed,
            cycles,
            out,
        } => synth::board::visit_unit(&unit, synth::board::RecordScenario { seed, cycles, out })
            .ok_or_else(|| unknown_unit(&unit))??,
        Cmd::Program { unit, board, out } => match board.as_str() {
            "alchitry-cu" => synth::board::program(
                &out.unwrap_or_else(|| "build/board".into())
                    .join(&unit)
                    .join(format!("{unit}.bin")),
            )?,
            synth::ulx3s::BOARD => synth::ulx3s::program(&synth::ulx3s::bit_path(
                &out.unwrap_or_else(|| "build/ulx3s".into()),
                &unit,
            ))?,
            b => anyhow::bail!("unknown board `{b}` (alchitry-cu, ulx3s-85f)"),
        },
        Cmd::Mutate {
            unit,
            count,
            seed,
            traces,
            cycles,
            prove_secs,
        } => {
            let o = synth::mutate::Options {
                count,
                seed,
                traces,
                cycles,
                prove_secs: prove_secs.unwrap_or_else(synth::mutate::prove::time_limit),
            };
            println!("{}", synth::mutate::run_unit(&unit, &o)?.text());
        }
    }
    Ok(())
}

fn unknown_unit(name: &str) -> anyhow::Error {
    anyhow::anyhow!(
        "unknown unit `{name}` (board units: {})",
        synth::board::unit_names()
    )
}

/// `synth build`: one unit, or every unit and the bridge alone; prints the report table.
/// The loop `synth build` runs for either board: every name in turn, one result row each,
/// the README block upserted after each success (a long `--all` keeps what it built), the JSON
/// report rewritten after each unit, a table at the end, an error naming the failed units.
struct BuildLoop<'a> {
    out: &'a Path,
    readme: &'a Path,
    /// README block and its header.
    block: &'static str,
    header: &'static str,
    /// File name of the JSON report in `out`.
    json: &'static str,
}

impl BuildLoop<'_> {
    /// `report` gets the rows built (also when some failed) before the error is returned.
    fn run<R: serde::Serialize>(
        &self,
        names: &[String],
        mut build: impl FnMut(&str) -> Result<R>,
        summary: impl Fn(&R) -> String,
        row: impl Fn(&R) -> String,
        report: impl FnOnce(&[R]) -> Result<()>,
    ) -> Result<()> {
        let write_readme = self.readme.as_os_str() != "-";
        if write_readme {
            // fail before the place and route, not after
            synth::readme::replace_block(&std::fs::read_to_string(self.readme)?, self.block, "")?;
        }
        std::fs::create_dir_all(self.out)?;
        let mut rows = vec![];
        let mut failed = vec![];
        for name in names {
            match build(name) {
                Ok(r) => {
                    println!("{}", summary(&r));
                    if write_readme {
                        synth::readme::upsert_rows(
                            self.readme,
                            self.block,
                            self.header,
                            &[row(&r)],
                        )?;
                    }
                    rows.push(r);
                }
                Err(e) => {
                    eprintln!("{name}: {e:#}");
                    failed.push(name.clone());
                }
            }
            std::fs::write(
                self.out.join(self.json),
                serde_json::to_string_pretty(&rows)?,
            )?;
        }
        println!("\n{}", self.header);
        for r in &rows {
            println!("{}", row(r));
        }
        if write_readme && !rows.is_empty() {
            println!("wrote block `{}` of {}", self.block, self.readme.display());
        }
        report(&rows)?;
        if !failed.is_empty() {
            anyhow::bail!("failed: {}", failed.join(", "));
        }
        Ok(())
    }
}

/// `synth build` (Alchitry Cu): one unit, or every board unit and the bridge alone.
fn board_build(
    unit: Option<String>,
    all: bool,
    out: &Path,
    seeds: &[u64],
    clock: Option<f64>,
    readme: &Path,
) -> Result<()> {
    use synth::board::{bridge_only_config, build_seeds, visit_unit, ConfigOf, UNITS};
    let names: Vec<String> = if all {
        std::iter::once("bridge_only".to_string())
            .chain(UNITS.iter().map(|(n, _, _)| n.to_string()))
            .collect()
    } else {
        vec![unit.expect("--unit or --all")]
    };
    let flow = BuildLoop {
        out,
        readme,
        block: "bitstreams-ice40",
        header: synth::board::README_HEADER,
        json: "board_report.json",
    };
    flow.run(
        &names,
        |name| {
            if synth::board::ECP5_ONLY.contains(&name) {
                anyhow::bail!("`{name}` does not fit the HX8K: build it with --board ulx3s-85f");
            }
            if synth::board::ulx3s_only(name) {
                anyhow::bail!(
                    "`{name}` has no Alchitry Cu clock (synth::board::UNITS): build it with --board ulx3s-85f"
                );
            }
            let mut cfg = if name == "bridge_only" {
                bridge_only_config(clock.unwrap_or(synth::board::BRIDGE_ONLY_MHZ))
            } else {
                visit_unit(name, ConfigOf).ok_or_else(|| unknown_unit(name))?
            };
            if let Some(mhz) = clock {
                let base = hdl::board_top::BoardConfig::board(
                    &cfg.unit,
                    cfg.inputs.clone(),
                    cfg.outputs.clone(),
                    cfg.unit_verilog.clone(),
                    mhz,
                );
                cfg = hdl::board_top::BoardConfig {
                    lean: cfg.lean,
                    ..base
                };
            }
            build_seeds(&cfg, out, seeds)
        },
        |r| {
            format!(
                "{}: {:.2} MHz clock, Fmax {} MHz, {} LCs, {} BRAMs -> {}",
                r.unit,
                r.clock_mhz,
                r.fmax_mhz_by_seed
                    .iter()
                    .map(|(s, f)| format!("{f:.2} (seed {s})"))
                    .collect::<Vec<_>>()
                    .join(", "),
                r.lcs,
                r.brams,
                r.bin.display()
            )
        },
        synth::board::readme_row,
        |rows| {
            Ok(std::fs::write(
                out.join("board_report.md"),
                synth::board::table(rows),
            )?)
        },
    )
}

/// `synth build --board ulx3s-85f`: one unit, or every ULX3S unit and the bridge alone.
fn ulx3s_build(
    unit: Option<String>,
    all: bool,
    out: &Path,
    seed: u64,
    clock: Option<f64>,
    readme: &Path,
) -> Result<()> {
    use synth::ulx3s;
    let names: Vec<String> = if all {
        std::iter::once("bridge_only".to_string())
            .chain(ulx3s::UNITS.iter().map(|u| u.0.to_string()))
            .collect()
    } else {
        vec![unit.expect("--unit or --all")]
    };
    let tools = synth::ecp5::tools()?;
    let flow = BuildLoop {
        out,
        readme,
        block: "bitstreams-ecp5",
        header: ulx3s::README_HEADER,
        json: "ulx3s_report.json",
    };
    flow.run(
        &names,
        |name| {
            let (core, pll) = ulx3s::bitstream_config(name, clock)?;
            eprintln!(
                "ulx3s-85f: building {name} at {:.3} MHz (EHXPLLL {}/{}x{}) ...",
                pll.f_out_mhz, pll.clki_div, pll.clkfb_div, pll.clkop_div
            );
            ulx3s::build(&tools, &core, &pll, out, seed)
        },
        |r| {
            format!(
                "{}: {:.2} MHz clock, Fmax {:.2} MHz, {} LUT4 sites, {} FF, {} EBR (yosys {:.0} s, nextpnr {:.0} s) -> {}",
                r.unit, r.clock_mhz, r.fmax_mhz, r.comb, r.ffs, r.ebrs, r.yosys_s, r.pnr_s,
                r.bit.display()
            )
        },
        ulx3s::readme_row,
        |_| Ok(()),
    )
}
