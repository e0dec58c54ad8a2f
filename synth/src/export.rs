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

use crate::flow::{self, PortDecl};

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
    ports: Vec<PortDecl>,
}

/// Every unit's board config as RustHDL exports it (module `top`): (unit, Verilog, config,
/// in the iCE40 report). The five units, then the run-finder forms (every variant at N = 32 and
/// 128, combinational).
pub fn units() -> Vec<(String, String, String, bool)> {
    let mut v = vec![
        (
            "lock_unit".to_string(),
            crate::lock_unit::board_verilog(),
            "board: W=8 L=4 prio_bits=3 fifo_depth=4 hold_bits=16".to_string(),
            true,
        ),
        (
            "dispatcher".into(),
            crate::dispatcher::board_verilog(),
            "board: 2 channels (FIFO 4), 2 modules x 2 units, 16 VGPR / 8 SGPR blocks and 4 wave slots per unit, 16 LDS blocks per module, 4 priorities, 8 in-flight slots".into(),
            true,
        ),
        (
            "preempt_ctrl".into(),
            crate::preempt_ctrl::board_verilog(),
            "board: launch queue depth 16, 8-bit kernel ids, 8-entry in-flight table".into(),
            true,
        ),
        (
            "simt_issue".into(),
            crate::simt_issue::board_verilog(),
            "board: 8 threads, 8-bit PCs".into(),
            true,
        ),
        (
            "schedule_gen".into(),
            crate::schedule_gen::board_verilog(),
            "board: grids up to 16x16, 8 candidates, 16-bit performance values".into(),
            true,
        ),
    ];
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
            ports: flow::module_ports(&verilog, &unit)?,
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
