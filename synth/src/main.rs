//! `synth`: the project's main job.
//!
//! ```text
//! cargo run --release -p synth -- export --out build        # Verilog of every unit + manifest.json
//! cargo run --release -p synth -- report --json build/report.json   # export + yosys/nextpnr table
//! cargo run --release -p synth -- bench                      # simulation speeds and latencies
//! cargo run --release -p synth -- eval-dispatch --out build  # dispatcher policy evaluation
//! cargo run --release -p synth -- finder-table --out docs/run_finder_table.md
//! cargo run --release -p synth -- alloc-floor --seeds 1,2,3 --out build/alloc_floor
//! cargo run --release -p synth -- mutate --unit lock_unit --count 200   # injected-fault score
//! ```

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};
use serde::Serialize;
use std::path::{Path, PathBuf};
use synth::flow::{self, PortDecl, SynthResult};

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
    },
    /// Run the dispatcher evaluation (golden model vs baselines): DIR/dispatch_eval.{md,svg}.
    EvalDispatch {
        #[arg(long, default_value = "build")]
        out: PathBuf,
    },
    /// Area/timing table of every run-finder variant and size (many P&R runs: long).
    FinderTable {
        #[arg(long, default_value = "docs/run_finder_table.md")]
        out: PathBuf,
    },
    /// Timing floor of the dispatcher's one-cycle allocation loop: micro-designs placed alone
    /// on the HX8K at 100 MHz; table in DIR/alloc_floor.md.
    AllocFloor {
        /// nextpnr placement seeds, comma separated (the median Fmax is reported).
        #[arg(long, value_delimiter = ',', default_value = "1")]
        seeds: Vec<u64>,
        #[arg(long, default_value = "build/alloc_floor")]
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
        /// Random traces per mutant.
        #[arg(long, default_value_t = 12)]
        traces: usize,
        /// Cycles per trace.
        #[arg(long, default_value_t = 8000)]
        cycles: usize,
    },
}

/// One exported unit.
struct Exported {
    unit: String,
    file: PathBuf,
    verilog: String,
    config: String,
    /// Placed and routed by `report` (the run-finder forms have their own table command).
    in_report: bool,
}

#[derive(Serialize)]
struct ManifestEntry {
    unit: String,
    file: String,
    top: &'static str,
    config: String,
    ports: Vec<PortDecl>,
}

fn export(out: &Path) -> Result<Vec<Exported>> {
    std::fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))?;
    let mut units = vec![
        Exported {
            unit: "lock_unit".into(),
            file: out.join("lock_unit.v"),
            verilog: synth::lock_unit::board_verilog(),
            config: "board: W=8 L=4 prio_bits=3 fifo_depth=4 hold_bits=16".into(),
            in_report: true,
        },
        Exported {
            unit: "dispatcher".into(),
            file: out.join("dispatcher.v"),
            verilog: synth::dispatcher::board_verilog(),
            config: "board: 2 channels (FIFO 4), 2 modules x 2 units, 16 VGPR / 8 SGPR blocks and 4 wave slots per unit, 16 LDS blocks per module, 4 priorities, 8 in-flight slots".into(),
            in_report: true,
        },
    ];
    for u in &mut units {
        std::fs::write(&u.file, &u.verilog)?;
    }
    for (name, path) in synth::run_finder::export_all(out)? {
        let verilog = std::fs::read_to_string(&path)?;
        units.push(Exported {
            config: format!("{name}: combinational run finder"),
            unit: name,
            file: path,
            verilog,
            in_report: false,
        });
    }
    let manifest: Vec<ManifestEntry> = units
        .iter()
        .map(|u| {
            Ok(ManifestEntry {
                unit: u.unit.clone(),
                file: u.file.file_name().unwrap().to_string_lossy().into_owned(),
                top: "top",
                config: u.config.clone(),
                ports: flow::top_ports(&u.verilog)?,
            })
        })
        .collect::<Result<_>>()?;
    std::fs::write(
        out.join("manifest.json"),
        serde_json::to_string_pretty(&manifest)?,
    )?;
    for u in &units {
        println!("wrote {}", u.file.display());
    }
    println!("wrote {}", out.join("manifest.json").display());
    Ok(units)
}

/// Configurations synthesized for area only by `report`.
fn area_only_units() -> Vec<(String, String)> {
    vec![("lock_unit_full".into(), synth::lock_unit::full_verilog())]
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
        } => {
            let units = export(&out)?;
            let work = out.join("synth");
            let mut results = vec![];
            for u in units
                .iter()
                .filter(|u| u.in_report && only.as_deref().is_none_or(|o| u.unit.contains(o)))
            {
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
                if only.as_deref().is_some_and(|o| !unit.contains(o)) {
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
        Cmd::FinderTable { out } => {
            println!("{}", synth::run_finder::table(&out)?);
            println!("wrote {}", out.display());
        }
        Cmd::AllocFloor { seeds, out } => {
            println!("{}", synth::alloc_floor::run(&out, &seeds, 100.0)?);
            println!("wrote {}", out.join("alloc_floor.md").display());
        }
        Cmd::Bench {
            model_cycles,
            rtl_cycles,
            verilator_cycles,
        } => {
            println!(
                "{}",
                synth::lock_unit::bench(model_cycles, rtl_cycles, verilator_cycles)?
            );
            println!(
                "{}",
                synth::dispatcher::bench(model_cycles / 2, rtl_cycles / 5)?
            );
        }
        Cmd::Mutate {
            unit,
            count,
            seed,
            traces,
            cycles,
        } => {
            let o = synth::mutate::Options {
                count,
                seed,
                traces,
                cycles,
            };
            println!("{}", synth::mutate::run_unit(&unit, &o)?.text());
        }
    }
    Ok(())
}
