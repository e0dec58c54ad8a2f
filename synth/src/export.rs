//! `synth export`: every unit's board-config Verilog as `DIR/<unit>.v` (unique names, see
//! [`crate::names`]), a FuseSoC CAPI2 core file `DIR/<unit>.core` per file, and
//! `DIR/manifest.json` (ports, widths, config).
//!
//! Each file defines the unit-named module (`lock_unit`, `run_finder_tree_128`, …) with
//! submodules `<unit>$…`, and the thin alias `module top` (same ports) unless `GPU_SCHED_NO_TOP`
//! is defined. The manifest's `top` is the alias (`"top"`, the outside contract), `module` the
//! unit-named module.

use anyhow::{Context, Result};
use serde::Serialize;
use std::path::{Path, PathBuf};

use crate::flow;
use testbench::unit::{CheckedUnit, UnitVisitor};

/// One exported unit.
pub struct Exported {
    pub unit: String,
    pub file: PathBuf,
    /// The file's text: unique names plus the `top` alias.
    pub verilog: String,
    pub config: String,
    /// Placed and routed by `report` (the run-finder forms have their own table command).
    pub in_report: bool,
}

#[derive(Serialize)]
struct ManifestEntry {
    unit: String,
    file: String,
    /// The alias module with the contract's ports (left out under `GPU_SCHED_NO_TOP`).
    top: &'static str,
    /// The unit-named module (always present).
    module: String,
    /// The FuseSoC CAPI2 core file.
    core: String,
    config: String,
    ports: Vec<ManifestPort>,
}

/// A port in the manifest (`testbench::verilator::PortDecl`, serialized).
#[derive(Serialize)]
struct ManifestPort {
    name: String,
    /// "input" or "output".
    dir: String,
    width: usize,
}

/// Registered units the iCE40 report leaves out: they cannot fit the HX8K's 7680 LCs
/// (`gpu_frontend` composes `dispatcher_tagged`, 7473 LCs alone, with two more units); the
/// ECP5 report (`--target ecp5-85f`) measures them.
pub const NOT_ON_ICE40: &[&str] = &["gpu_frontend"];

/// Every unit's board config as RustHDL exports it (module `top`): (unit, Verilog, config,
/// in the iCE40 report). The registered units ([`testbench::for_each_unit!`]), then the
/// run-finder forms (every variant at N = 32 and 128, combinational).
pub fn units() -> Vec<(String, String, String, bool)> {
    struct Board;
    impl UnitVisitor for Board {
        type Out = (String, String, String, bool);
        fn visit<U: CheckedUnit>(&mut self) -> Self::Out {
            (U::NAME.into(), U::verilog(), U::CONFIG.into(), true)
        }
    }
    let mut v = testbench::unit::visit_all(&mut Board);
    for variant in crate::run_finder::VARIANTS {
        for n in [32, 128] {
            let name = format!("run_finder_{variant}_{n}");
            v.push((
                name.clone(),
                crate::run_finder::comb_verilog(variant, n).expect("variant and N in the table"),
                format!("{name}: combinational run finder"),
                false,
            ));
        }
    }
    v
}

/// Write every unit's file, core file and the manifest into `out`; prints what it wrote.
pub fn export(out: &Path) -> Result<Vec<Exported>> {
    std::fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))?;
    let mut written = vec![];
    let mut manifest = vec![];
    for (unit, raw, config, in_report) in units() {
        let verilog = crate::names::unique(&unit, &raw)
            .with_context(|| format!("unique names for {unit}"))?;
        let file_name = format!("{unit}.v");
        let file = out.join(&file_name);
        std::fs::write(&file, &verilog).with_context(|| format!("writing {}", file.display()))?;
        let core = format!("{unit}.core");
        std::fs::write(
            out.join(&core),
            crate::names::capi2_core(&unit, &file_name, &config),
        )?;
        manifest.push(ManifestEntry {
            unit: unit.clone(),
            file: file_name,
            top: "top",
            module: unit.clone(),
            core,
            config: config.clone(),
            ports: flow::module_ports(&verilog, &unit)?
                .into_iter()
                .map(|p| ManifestPort {
                    name: p.name,
                    dir: p.dir,
                    width: p.width,
                })
                .collect(),
        });
        written.push(Exported {
            unit,
            file,
            verilog,
            config,
            in_report,
        });
    }
    std::fs::write(
        out.join("manifest.json"),
        serde_json::to_string_pretty(&manifest)?,
    )?;
    for u in &written {
        println!("wrote {} (+ .core)", u.file.display());
    }
    println!("wrote {}", out.join("manifest.json").display());
    Ok(written)
}
