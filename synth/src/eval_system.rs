//! GPU scheduling front-end (SPEC Unit 8): the `eval-system` evaluation — RT kernel turnaround
//! (p50/p99) and BE throughput of the composed golden model driven by the GPU behavioural model,
//! for SPEC's configurations (a)–(d), over RT arrival rates and BE WG lengths (Markdown + SVG).
//! See `golden_model::gpu_model::eval` for the configurations and the defaults.

use anyhow::{Context, Result};
use golden_model::gpu_model::eval::{
    self, Config, Row, BE_WG_CYCLES, CONFIGS, DEFAULT_BE_WG, DEFAULT_CYCLES, DEFAULT_RT_PERIOD,
    RT_PERIODS,
};
use golden_model::gpu_model::{GpuParams, CYCLES_PER_US};
use std::fmt::Write as _;
use std::path::Path;

/// Seeds of the default point (each listed); the sweeps use the first.
pub const SEEDS: [u64; 3] = [1, 2, 3];

fn us(c: u64) -> f64 {
    c as f64 / CYCLES_PER_US
}

/// Every row of the evaluation: the default point at [`SEEDS`], then the two sweeps at seed 1.
pub fn rows(cycles: u64) -> Vec<Row> {
    let mut v = vec![];
    for cfg in CONFIGS {
        for seed in SEEDS {
            v.push(eval::run(
                cfg,
                DEFAULT_RT_PERIOD,
                DEFAULT_BE_WG,
                seed,
                cycles,
            ));
        }
        for p in RT_PERIODS {
            if p != DEFAULT_RT_PERIOD {
                v.push(eval::run(cfg, p, DEFAULT_BE_WG, SEEDS[0], cycles));
            }
        }
        for w in BE_WG_CYCLES {
            if w != DEFAULT_BE_WG {
                v.push(eval::run(cfg, DEFAULT_RT_PERIOD, w, SEEDS[0], cycles));
            }
        }
    }
    v
}

fn row_line(r: &Row) -> String {
    format!(
        "| {} | {} ({:.0} µs) | {}–{} ({:.0}–{:.0} µs) | {} | {} | {} ({:.1} µs) | {} ({:.1} µs) | {:.2} | {} | {:.0} | {} | {} |\n",
        r.cfg.short(),
        r.rt_period,
        us(r.rt_period),
        r.be_wg.0,
        r.be_wg.1,
        us(r.be_wg.0),
        us(r.be_wg.1),
        r.seed,
        r.rt_kernels,
        r.rt_p50,
        us(r.rt_p50),
        r.rt_p99,
        us(r.rt_p99),
        r.be_wgs_per_kcycle,
        r.be_kernels,
        r.lost_per_kcycle,
        r.skips,
        r.cu_resets
    )
}

const HEADER: &str = "| cfg | RT period, cycles | BE WG, cycles | seed | RT kernels | RT p50 | RT p99 | BE WGs / 1000 cycles | BE kernels | lost BE WG-cycles / 1000 cycles | skips | CU resets |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n";

/// Median over the rows of one configuration at the default point.
fn median(rows: &[&Row], f: impl Fn(&Row) -> f64) -> f64 {
    let mut v: Vec<f64> = rows.iter().map(|r| f(r)).collect();
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

fn default_rows(rows: &[Row], cfg: Config) -> Vec<&Row> {
    rows.iter()
        .filter(|r| r.cfg == cfg && r.rt_period == DEFAULT_RT_PERIOD && r.be_wg == DEFAULT_BE_WG)
        .collect()
}

/// The Markdown report.
pub fn markdown(rows: &[Row], cycles: u64) -> String {
    let g = GpuParams::default();
    let s = eval::params(Config::D, DEFAULT_RT_PERIOD, DEFAULT_BE_WG, 1).stream;
    let mut md = String::from(
        "# GPU scheduling front-end: system evaluation (composed golden model + GPU model)\n\n",
    );
    let _ = write!(
        md,
        "The composed model `golden_model::gpu_frontend` (board configs: Unit 4 D = 16, expander \
         4 RT + 8 BE entries, dispatcher 2 modules × 2 units, 8 slots) with the GPU behavioural \
         model `golden_model::gpu_model` (one completion per cycle, random order; CU reset \
         {} cycles = {:.0} µs; skip ends a kernel's WGs at once). Stream: RT kernels arrive with \
         exponential gaps (mean = RT period), {}–{} WGs of {}–{} cycles ({:.0}–{:.0} µs); the BE \
         task keeps {} kernels outstanding, {}–{} WGs each, WG run time = BE WG column, all \
         idempotent; WGs of 1–{} waves. {} cycles ({:.0} ms at 100 MHz) per run. RT turnaround = \
         arrival → `kernel_done`; BE throughput = WGs of BE kernels completed (in their one \
         successful attempt) per 1000 cycles; lost = WG-cycles of BE WGs killed by CU resets. \
         Configurations: (a) RT kernels enter as BE kernels (one FIFO, Unit 4 and the BE channel \
         in launch order), `AUTO_PREEMPT` = 0; (b) RT on the high-priority channel, \
         `AUTO_PREEMPT` = 0; (c) `AUTO_PREEMPT` = 1, `RESET_ENABLE` = 0 (skip only); (d) \
         `AUTO_PREEMPT` = 1, `RESET_ENABLE` = 1 (CU reset). Command: `synth eval-system --out \
         DIR`.\n\n",
        g.cu_reset_time,
        us(g.cu_reset_time),
        s.rt_wgs.0,
        s.rt_wgs.1,
        s.rt_wg_cycles.0,
        s.rt_wg_cycles.1,
        us(s.rt_wg_cycles.0),
        us(s.rt_wg_cycles.1),
        s.be_backlog,
        s.be_wgs.0,
        s.be_wgs.1,
        s.max_waves,
        cycles,
        cycles as f64 / 1e5
    );
    let _ = writeln!(
        md,
        "## Default point (RT period {} cycles = {:.0} µs, BE WG {}–{} cycles), median of seeds {:?}\n",
        DEFAULT_RT_PERIOD,
        us(DEFAULT_RT_PERIOD),
        DEFAULT_BE_WG.0,
        DEFAULT_BE_WG.1,
        SEEDS
    );
    md += "| configuration | RT p50 (µs) | RT p99 (µs) | BE WGs / 1000 cycles | lost BE WG-cycles / 1000 cycles |\n|---|---|---|---|---|\n";
    for cfg in CONFIGS {
        let d = default_rows(rows, cfg);
        let _ = writeln!(
            md,
            "| {} | {:.1} | {:.1} | {:.2} | {:.0} |",
            cfg.label(),
            median(&d, |r| us(r.rt_p50)),
            median(&d, |r| us(r.rt_p99)),
            median(&d, |r| r.be_wgs_per_kcycle),
            median(&d, |r| r.lost_per_kcycle)
        );
    }
    md += "\n## Every run\n\n";
    md += HEADER;
    for r in rows {
        md += &row_line(r);
    }
    md += "\n## REEF's published claims (beside, not comparable)\n\n";
    md += "REEF (M. Han, H. Zhang, R. Chen, H. Chen, \"Microsecond-scale Preemption for \
           Concurrent GPU-accelerated DNN Inferences\", OSDI '22; code github.com/SJTU-IPADS/reef) \
           preempts best-effort DNN kernels on an AMD GPU by killing the running ones and \
           clearing the queued ones (reset-based preemption, relying on kernel idempotence), \
           and co-runs BE kernels on CUs the RT kernel leaves free (dynamic kernel padding). Its \
           summaries claim preemption in a few microseconds, about 2 % added latency for RT \
           tasks over running them alone, and up to 7.7× overall throughput (DISB benchmark). \
           Read only through secondary pages (the project README and two paper summaries); \
           the paper's own tables, its exact preemption latency and its experimental setup \
           could not be read here. REEF measures real DNN models on a real GPU; this \
           evaluation is a cycle model of a 2-module board config with synthetic kernels, so \
           only the direction of the effects can be set beside it, not the numbers.\n";
    md
}

/// Run the evaluation, write `out_dir/system_eval.md` and `out_dir/system_eval.svg`, return
/// the Markdown.
pub fn evaluate(out_dir: &Path) -> Result<String> {
    std::fs::create_dir_all(out_dir)?;
    let rows = rows(DEFAULT_CYCLES);
    let md = markdown(&rows, DEFAULT_CYCLES);
    let md_path = out_dir.join("system_eval.md");
    std::fs::write(&md_path, &md).with_context(|| format!("writing {}", md_path.display()))?;
    let svg_path = out_dir.join("system_eval.svg");
    std::fs::write(&svg_path, svg(&rows))
        .with_context(|| format!("writing {}", svg_path.display()))?;
    Ok(md)
}

const COLORS: [&str; 4] = ["#7570b3", "#d95f02", "#e7298a", "#1b9e77"];

/// Two panels over the RT period sweep (seed 1, default BE WG): RT p99 turnaround (µs, log)
/// and BE throughput (WGs / 1000 cycles); one colour per configuration.
pub fn svg(rows: &[Row]) -> String {
    let (pw, ph, ml, mt, gap) = (420.0, 260.0, 60.0, 40.0, 80.0);
    let width = ml + 2.0 * pw + gap + 30.0;
    let height = mt + ph + 60.0 + 20.0 * CONFIGS.len() as f64;
    let mut s = crate::svg::open(
        width,
        height,
        11,
        ml,
        "GPU front-end: RT p99 turnaround and BE throughput vs RT period, configurations (a)–(d)",
    );
    let sweep = |cfg: Config| -> Vec<&Row> {
        let mut v: Vec<&Row> = rows
            .iter()
            .filter(|r| r.cfg == cfg && r.be_wg == DEFAULT_BE_WG && r.seed == SEEDS[0])
            .collect();
        v.sort_by_key(|r| r.rt_period);
        v
    };
    let be_max = rows
        .iter()
        .map(|r| r.be_wgs_per_kcycle)
        .fold(0.1f64, f64::max)
        * 1.1;
    for panel in 0..2 {
        let x0 = ml + panel as f64 * (pw + gap);
        let title = if panel == 0 {
            "RT p99 turnaround (µs, log) vs mean RT period (µs)"
        } else {
            "BE WGs completed per 1000 cycles vs mean RT period (µs)"
        };
        // panel 0: 1 µs .. 10^4 µs, log
        let fraction = |v: f64| -> f64 {
            if panel == 0 {
                crate::svg::log_fraction(v, 4.0)
            } else {
                v / be_max
            }
        };
        let ticks: Vec<(f64, String)> = if panel == 0 {
            crate::svg::log_ticks(4, |k| format!("{}", 10u64.pow(k)))
        } else {
            (0..5)
                .map(|k| {
                    let v = be_max * k as f64 / 4.0;
                    (fraction(v), format!("{v:.1}"))
                })
                .collect()
        };
        let p = crate::svg::Panel::draw(&mut s, x0, mt, mt + 10.0, (pw, ph), title, &ticks);
        let n = RT_PERIODS.len();
        let xv = |k: usize| x0 + 30.0 + k as f64 * (pw - 60.0) / (n - 1).max(1) as f64;
        for (k, period) in RT_PERIODS.iter().enumerate() {
            p.x_label(&mut s, xv(k), &format!("{:.0}", us(*period)));
        }
        for (ci, cfg) in CONFIGS.iter().enumerate() {
            let pts: Vec<(f64, f64)> = sweep(*cfg)
                .iter()
                .filter_map(|r| {
                    let k = RT_PERIODS.iter().position(|&q| q == r.rt_period)?;
                    let v = if panel == 0 {
                        us(r.rt_p99)
                    } else {
                        r.be_wgs_per_kcycle
                    };
                    Some((xv(k), p.y(fraction(v))))
                })
                .collect();
            crate::svg::series(&mut s, &pts, COLORS[ci]);
        }
    }
    let ly = mt + ph + 40.0;
    for (ci, cfg) in CONFIGS.iter().enumerate() {
        crate::svg::swatch(&mut s, ml, ly + ci as f64 * 18.0, COLORS[ci], cfg.label());
    }
    crate::svg::close(s)
}
