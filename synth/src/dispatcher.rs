//! Workgroup dispatcher: Verilog export, the `eval-dispatch` evaluation (Markdown table + SVG
//! plot), the iCE40 report and a small bench (simulation speed, measured latency/throughput).

use anyhow::{Context, Result};
use golden_model::dispatcher::eval::{self, EvalResult, Scheduler};
use golden_model::dispatcher::{DispIn, DispOut, Dispatcher as Model, DispatcherConfig, Wg};
use golden_model::CycleModel;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Board-config Verilog (module `top`, the port contract).
pub fn board_verilog() -> String {
    hdl::dispatcher::verilog()
}

/// Write `out_dir/dispatcher.v`; returns its path.
pub fn export(out_dir: &Path) -> Result<PathBuf> {
    std::fs::create_dir_all(out_dir)?;
    let path = out_dir.join("dispatcher.v");
    std::fs::write(&path, board_verilog())
        .with_context(|| format!("writing {}", path.display()))?;
    Ok(path)
}

/// Cycles simulated per (workload, scheduler) for each config.
pub const EVAL_CYCLES_BOARD: u64 = 50_000;
pub const EVAL_CYCLES_FULL: u64 = 20_000;
/// Measured cycles per (stream, K) of the refresh-latency sweep (after a warm-up).
pub const EVAL_CYCLES_STREAM: u64 = 20_000;

/// Run the evaluation (golden model + baselines, board and full configs), write
/// `out_dir/dispatch_eval.md` and `out_dir/dispatch_eval.svg`, return the Markdown.
pub fn evaluate(out_dir: &Path) -> Result<String> {
    std::fs::create_dir_all(out_dir)?;
    let mut results = eval::evaluate(DispatcherConfig::board(), "board", EVAL_CYCLES_BOARD);
    // the board with the full config's 64 in-flight entries: what the 8-entry table costs
    results.extend(eval::evaluate(
        DispatcherConfig {
            slots: 64,
            ..DispatcherConfig::board()
        },
        "board, 64 slots",
        EVAL_CYCLES_BOARD,
    ));
    results.extend(eval::evaluate(
        DispatcherConfig::full(),
        "full",
        EVAL_CYCLES_FULL,
    ));
    let mut md = String::from("# Workgroup dispatcher evaluation (cycle-level golden model)\n\n");
    md += "Throughput = WGs fully dispatched per 1000 cycles; delay = cycles from arrival in the host \
           queue to dispatch (p50/p99, per priority); balance = max/mean of per-module wave-cycles; \
           frag-hit = % of WGs that at least once fit no module although one had enough free blocks \
           in total; head wait = mean cycles from reaching a FIFO head to dispatch. `board, 64 slots` is the \
           board with the full config's in-flight table size. Board: ";
    md += &format!(
        "{EVAL_CYCLES_BOARD} cycles per run, full: {EVAL_CYCLES_FULL}. Workloads and baselines: see \
         `golden_model::dispatcher::eval`.\n\n"
    );
    md += &eval::markdown(&results);
    md += &k_sweep_section(EVAL_CYCLES_STREAM);
    let md_path = out_dir.join("dispatch_eval.md");
    std::fs::write(&md_path, &md).with_context(|| format!("writing {}", md_path.display()))?;
    let svg_path = out_dir.join("dispatch_eval.svg");
    std::fs::write(&svg_path, svg(&results))
        .with_context(|| format!("writing {}", svg_path.display()))?;
    Ok(md)
}

/// The second table of `eval-dispatch`: the full config's dispatch rate and head → record
/// latency against the refresh latency K ([`eval::SWEEP_K`]) on saturating streams.
pub fn k_sweep_section(cycles: u64) -> String {
    let full = DispatcherConfig::full();
    let rows = eval::k_sweep(full, &eval::SWEEP_K, cycles);
    let mut md = String::from("\n## Refresh latency K at full config: saturating streams\n\n");
    md += &format!(
        "The golden model at full config (policy `first`, all registers at reset) with its refresh \
         latency K set to each of {:?} (SPEC \"Patent scale\": a module whose maps changed within K \
         cycles is not eligible; K = {} is the measured 100 MHz run cache). The host offers one WG per \
         cycle on the single push port, round robin over the fed channels (skipping a full FIFO); WGs \
         are dependent, priorities uniform 0..3, and each completes 24..40 cycles after its record \
         (one completion per cycle on the `done` port). Stream sizes (waves, VGPR / SGPR blocks per \
         wave, LDS): see `golden_model::dispatcher::eval::streams`. {} cycles measured after {} of \
         warm-up. Records per cycle count records on the ports; head → record is the cycle a WG \
         is its FIFO's head to the cycle its record is visible (the model's pipeline: 3). Eligible \
         modules: mean per cycle.\n\n",
        eval::SWEEP_K,
        golden_model::dispatcher::FULL_REFRESH_LATENCY,
        cycles,
        eval::STREAM_WARMUP
    );
    md += &eval::stream_markdown(&rows);
    md
}

/// One colour per scheduler (ColorBrewer Dark2; the baselines keep their colours).
const COLORS: [&str; 8] = [
    "#1b9e77", "#66a61e", "#7570b3", "#e7298a", "#e6ab02", "#d95f02", "#666666", "#a6761d",
];

/// Hand-written SVG: one row per config, two panels per row — throughput relative to the best
/// scheduler of each workload, and the worst priority's p99 queueing delay (log scale).
pub fn svg(results: &[EvalResult]) -> String {
    let scheds: Vec<&str> = Scheduler::all().iter().map(|s| s.name()).collect();
    let mut configs: Vec<&str> = vec![];
    let mut workloads: Vec<&str> = vec![];
    for r in results {
        if !configs.contains(&r.config) {
            configs.push(r.config);
        }
        if !workloads.contains(&r.workload) {
            workloads.push(r.workload);
        }
    }
    let (pw, ph) = (520.0, 240.0); // panel size
    let (ml, mt, gap) = (60.0, 40.0, 70.0);
    let width = ml + 2.0 * pw + gap + 20.0;
    let height = mt + configs.len() as f64 * (ph + 80.0) + 30.0 + 20.0 * scheds.len() as f64;
    let mut s = crate::svg::open(
        width,
        height,
        11,
        ml,
        "Workgroup dispatcher: patent scheduler vs baselines",
    );
    let group_w = pw / workloads.len() as f64;
    let bar_w = (group_w - 16.0) / scheds.len() as f64;
    // panel 1: 1 .. 10^5 cycles, log
    for (ci, cfg) in configs.iter().enumerate() {
        let y0 = mt + ci as f64 * (ph + 80.0);
        for panel in 0..2 {
            let x0 = ml + panel as f64 * (pw + gap);
            let title = if panel == 0 {
                format!("{cfg}: throughput relative to the best scheduler")
            } else {
                format!("{cfg}: p99 queueing delay, worst priority (cycles, log)")
            };
            let ticks: Vec<(f64, String)> = if panel == 0 {
                (0..5)
                    .map(|k| (k as f64 / 4.0, format!("{:.2}", k as f64 / 4.0)))
                    .collect()
            } else {
                crate::svg::log_ticks(5, |k| format!("1e{k}"))
            };
            let p =
                crate::svg::Panel::draw(&mut s, x0, y0 + 12.0, y0 + 20.0, (pw, ph), &title, &ticks);
            for (wi, w) in workloads.iter().enumerate() {
                let gx = x0 + wi as f64 * group_w + 8.0;
                let rows: Vec<&EvalResult> = results
                    .iter()
                    .filter(|r| r.config == *cfg && r.workload == *w)
                    .collect();
                let best = rows
                    .iter()
                    .map(|r| r.throughput)
                    .fold(0.0, f64::max)
                    .max(1e-9);
                for (si, sn) in scheds.iter().enumerate() {
                    let Some(r) = rows.iter().find(|r| r.scheduler == *sn) else {
                        continue;
                    };
                    let (f, tip) = if panel == 0 {
                        (
                            r.throughput / best,
                            format!("{:.1} WGs/1k cycles", r.throughput),
                        )
                    } else {
                        let worst = r.delay.iter().flatten().map(|d| d.1).max().unwrap_or(0);
                        (
                            crate::svg::log_fraction(worst as f64, 5.0),
                            format!("{:?}", r.delay),
                        )
                    };
                    p.bar(
                        &mut s,
                        (gx + si as f64 * bar_w, bar_w - 1.0),
                        f,
                        (COLORS[si % COLORS.len()], None),
                        &format!("{sn}: {tip}"),
                    );
                }
                p.x_label(&mut s, gx + (group_w - 16.0) / 2.0, w);
            }
        }
    }
    let ly = mt + configs.len() as f64 * (ph + 80.0);
    for (si, sn) in scheds.iter().enumerate() {
        let y = ly + si as f64 * 18.0;
        crate::svg::swatch(&mut s, ml, y, COLORS[si % COLORS.len()], sn);
    }
    crate::svg::close(s)
}

/// Synthesize the board dispatcher for the HX8K (LCs and Fmax, harness included).
pub fn report(work: &Path, target_mhz: f64) -> Result<crate::flow::SynthResult> {
    crate::flow::synthesize("dispatcher", &board_verilog(), work, target_mhz)
}

/// The dispatcher's part of `synth bench` after the speed table ([`crate::bench`]): dispatch
/// latency and throughput on a saturating stream, model and RTL (equal cycle for cycle).
pub fn bench_extra(model_cycles: usize, rtl_cycles: usize) -> Result<String> {
    let cfg = DispatcherConfig::board();
    // a saturating stream of small WGs on both channels, completing 6 cycles after dispatch
    let wg = |k: usize| Wg {
        id: k as u32 & 0xFF,
        prio: k % 4,
        waves: 1 + k % 2,
        vgpr: 1,
        sgpr: 1,
        lds: 1,
        indep: false,
    };
    let drive = |m: &mut dyn FnMut(&DispIn) -> DispOut, cycles: usize| -> (usize, Vec<usize>) {
        let mut done_at: Vec<(usize, u32)> = vec![];
        let mut pushed_at: std::collections::VecDeque<usize> = Default::default();
        let mut lat = vec![];
        let mut records = 0;
        let mut k = 0;
        for c in 0..cycles {
            let mut i = DispIn::push(k % 2, &wg(k));
            if let Some(p) = done_at.iter().position(|&(t, _)| t <= c) {
                let (_, s) = done_at.remove(p);
                i.done_valid = true;
                i.done_slot = s;
            }
            let o = m(&i);
            if o.push_ready {
                pushed_at.push_back(c);
                k += 1;
            }
            if o.disp_valid {
                records += 1;
                done_at.push((c + 6, o.disp_slot));
                if let Some(p) = pushed_at.pop_front() {
                    lat.push(c - p);
                }
            }
        }
        (records, lat)
    };
    let mut out = String::new();
    let mut model = Model::new(cfg);
    let t = Instant::now();
    let (recs, lat) = drive(&mut |i| model.step(i), model_cycles);
    let _ = writeln!(
        out,
        "golden model: {}, {recs} records in {model_cycles} cycles",
        crate::rate(model_cycles, t.elapsed().as_secs_f64())
    );
    let min_lat = lat.iter().min().copied().unwrap_or(0);
    let _ = writeln!(
        out,
        "push -> record latency (FIFO order, saturating stream): min {min_lat} cycles"
    );
    let mut rtl = testbench::rtl::RtlSim::new(hdl::dispatcher::Dispatcher::new());
    let t = Instant::now();
    let (recs_rtl, _) = drive(&mut |i| rtl.step(i), rtl_cycles);
    let _ = writeln!(
        out,
        "RustHDL RTL: {}, {recs_rtl} records in {rtl_cycles} cycles",
        crate::rate(rtl_cycles, t.elapsed().as_secs_f64())
    );
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn svg_and_table_of_a_short_run() {
        let r = eval::evaluate(DispatcherConfig::board(), "board", 2_000);
        let md = eval::markdown(&r);
        assert_eq!(md.lines().count(), 2 + 5 * Scheduler::all().len());
        let s = svg(&r);
        assert!(s.starts_with("<svg") && s.trim_end().ends_with("</svg>"));
        // every scheduler has its own colour
        assert!(Scheduler::all().len() <= COLORS.len());
        assert_eq!(
            s.matches("<rect").count(),
            1 + 2 * 5 * Scheduler::all().len() + Scheduler::all().len()
        );
    }

    #[test]
    fn export_writes_the_board_top() {
        let dir = std::env::temp_dir().join(format!("disp-export-{}", std::process::id()));
        let p = export(&dir).unwrap();
        let v = std::fs::read_to_string(&p).unwrap();
        assert!(v.contains("module top("));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
