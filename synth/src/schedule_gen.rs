//! Schedule order generator: Verilog export, the `eval-schedule` study (Markdown + SVG heat map)
//! and a small bench (simulation speeds, measured start → first coordinate latency).

use anyhow::{Context, Result};
use golden_model::schedule_gen::study::{self, CacheParams, Study};
use golden_model::schedule_gen::{SchedConfig, SchedIn, ScheduleGen as Model};
use golden_model::CycleModel;
use std::fmt::Write as _;
use std::path::Path;

/// Board-config Verilog (module `top`, the issue's port contract).
pub fn board_verilog() -> String {
    hdl::schedule_gen::verilog()
}

/// Full-config Verilog (grids up to 64×64, module `top`; `report --target ecp5-85f --full`).
pub fn full_verilog() -> String {
    hdl::schedule_gen::full_verilog()
}

/// The study's fixed parameters: an n×n thread grid and matrices of n×n 4-byte elements, 16×16
/// workgroup tiles (the board grid), warps of 32 threads, K = 8 candidates (the reset table).
pub const STUDY_N: u64 = 128;
pub const STUDY_TILE_LOG: u8 = 4;
pub const STUDY_WARP: usize = 32;
pub const STUDY_K: u8 = 8;

/// The cache geometries swept: 4-way, 64-byte lines, 4/8/16 KB.
pub fn study_caches() -> Vec<CacheParams> {
    [16, 32, 64]
        .into_iter()
        .map(|sets| CacheParams {
            sets,
            ways: 4,
            line: 64,
        })
        .collect()
}

/// Run the study for every cache, write `out_dir/schedule_eval.md` and
/// `out_dir/schedule_eval.svg`, return the Markdown.
pub fn evaluate(out_dir: &Path) -> Result<String> {
    std::fs::create_dir_all(out_dir)?;
    let studies: Vec<Study> = study_caches()
        .into_iter()
        .map(|c| study::study(STUDY_N, STUDY_TILE_LOG, STUDY_WARP, c, STUDY_K))
        .collect();
    let md = markdown(&studies);
    let md_path = out_dir.join("schedule_eval.md");
    std::fs::write(&md_path, &md).with_context(|| format!("writing {}", md_path.display()))?;
    let svg_path = out_dir.join("schedule_eval.svg");
    std::fs::write(&svg_path, svg(&studies))
        .with_context(|| format!("writing {}", svg_path.display()))?;
    Ok(md)
}

/// The Markdown report: per cache, misses per benchmark × order, the oracle, the pick.
pub fn markdown(studies: &[Study]) -> String {
    let mut s =
        String::from("# Thread schedule orders: six-benchmark cache study (golden model)\n\n");
    let _ = writeln!(
        s,
        "{n}×{n} threads (one output element each; matrices of {n}×{n} 4-byte elements), \
         16×16 workgroup tiles run one after another in row-major order, each in the order of \
         its configuration, warps of {w} consecutive threads of that order (a warp issues each \
         access for all its threads before the next), one set-associative LRU cache. Cells: \
         total cache misses of the kernel with that order for every workgroup. **bold** = the \
         fewest of the row. Oracle = the fewest among the profiler's {k} candidates (the reset \
         table, columns 1–{k}); pick = the profiling selector's choice after running workgroups \
         0–{km1} under candidates 0–{km1} and reading back each one's misses as its performance \
         value; overhead = misses of the profiled run (profiling included) over the oracle's run. \
         Produced by `cargo run --release -p synth -- eval-schedule --out DIR`.\n",
        n = STUDY_N,
        w = STUDY_WARP,
        k = STUDY_K,
        km1 = STUDY_K - 1
    );
    for st in studies {
        let _ = writeln!(s, "## Cache {}\n", st.cache.name());
        let _ = write!(s, "| benchmark |");
        for o in &st.orders {
            let _ = write!(s, " {} |", o.style());
        }
        let _ = writeln!(s, " oracle | pick | pick = oracle | overhead |");
        let _ = write!(s, "|---|");
        for _ in &st.orders {
            let _ = write!(s, "---:|");
        }
        let _ = writeln!(s, "---|---|:---:|---:|");
        for r in &st.rows {
            let best = *r.misses.iter().min().expect("orders");
            let _ = write!(s, "| {} |", r.bench.name());
            for &m in &r.misses {
                if m == best {
                    let _ = write!(s, " **{m}** |");
                } else {
                    let _ = write!(s, " {m} |");
                }
            }
            let _ = writeln!(
                s,
                " {} | {} | {} | {:+.1} % |",
                st.orders[r.oracle_cand as usize].style(),
                st.orders[r.pick as usize].style(),
                if r.pick_is_oracle() { "yes" } else { "no" },
                r.overhead_pct()
            );
        }
        let hits = st.rows.iter().filter(|r| r.pick_is_oracle()).count();
        let _ = writeln!(
            s,
            "\nProfiler picks the oracle's order (or one with equal misses) on **{hits} of {}** benchmarks.\n",
            st.rows.len()
        );
    }
    s
}

/// Hand-written SVG heat map: one panel per cache, rows = benchmarks, columns = orders; colour =
/// misses relative to the row's fewest (log scale: white 1×, dark red ≥ 16×); the oracle's cell
/// framed in black, the profiler's pick marked with a dot.
pub fn svg(studies: &[Study]) -> String {
    let cols = studies[0].orders.len();
    let rows = studies[0].rows.len();
    let (cw, ch) = (62.0, 22.0);
    let (ml, mt) = (170.0, 40.0);
    let panel_h = 60.0 + rows as f64 * ch;
    let width = ml + cols as f64 * cw + 20.0;
    let height = mt + studies.len() as f64 * (panel_h + 20.0) + 40.0;
    let mut s = crate::svg::open(
        width,
        height,
        10,
        10.0,
        "Cache misses per benchmark × order, relative to the row's best (white 1×, dark ≥ 16×); frame: oracle among the 8 candidates; dot: profiler's pick",
    );
    for (pi, st) in studies.iter().enumerate() {
        let y0 = mt + pi as f64 * (panel_h + 20.0);
        crate::svg::panel_title(
            &mut s,
            10.0,
            y0 + 12.0,
            &format!("cache {}", st.cache.name()),
        );
        for (ci, o) in st.orders.iter().enumerate() {
            let x = ml + ci as f64 * cw + cw / 2.0;
            let _ = writeln!(
                s,
                r#"<text x="{x}" y="{}" text-anchor="middle" font-size="9">{}</text>"#,
                y0 + 40.0,
                o.style()
            );
        }
        for (ri, r) in st.rows.iter().enumerate() {
            let y = y0 + 48.0 + ri as f64 * ch;
            let _ = writeln!(
                s,
                r#"<text x="{}" y="{}" text-anchor="end">{}</text>"#,
                ml - 6.0,
                y + ch * 0.65,
                r.bench.name()
            );
            let best = (*r.misses.iter().min().expect("orders")).max(1) as f64;
            for (ci, &m) in r.misses.iter().enumerate() {
                let x = ml + ci as f64 * cw;
                let f = ((m as f64 / best).log2() / 4.0).clamp(0.0, 1.0);
                let (g, b) = (255.0 * (1.0 - f), 255.0 * (1.0 - f) * 0.9);
                let _ = writeln!(
                    s,
                    r#"<rect x="{x}" y="{y}" width="{cw}" height="{ch}" fill="rgb(255,{g:.0},{b:.0})" stroke="{}" stroke-width="{}"/>"#,
                    if ci == r.oracle_cand as usize {
                        "black"
                    } else {
                        "#ccc"
                    },
                    if ci == r.oracle_cand as usize { 2 } else { 1 }
                );
                let _ = writeln!(
                    s,
                    r#"<text x="{}" y="{}" text-anchor="middle" fill="{}">{m}</text>"#,
                    x + cw / 2.0,
                    y + ch * 0.65,
                    if f > 0.6 { "white" } else { "black" }
                );
                if ci == r.pick as usize {
                    let _ = writeln!(
                        s,
                        r#"<circle cx="{}" cy="{}" r="3" fill="blue"/>"#,
                        x + 5.0,
                        y + 5.0
                    );
                }
            }
        }
    }
    crate::svg::close(s)
}

/// The schedule generator's part of `synth bench` after the speed table ([`crate::bench`]):
/// latency and throughput of one 16×16 Hilbert tile on the golden model.
pub fn bench_extra() -> Result<String> {
    let mut s = String::new();
    // latency and throughput: one 16x16 Hilbert tile at full speed, then a back-to-back start
    let mut m = Model::new(SchedConfig::board());
    let rdy = SchedIn {
        out_ready: true,
        ..SchedIn::default()
    };
    m.step(&SchedIn {
        reset: true,
        ..rdy.clone()
    });
    m.step(
        &SchedIn {
            cfg_we: true,
            ..rdy.clone()
        }
        .with_cfg(golden_model::schedule_gen::SchedCfg::hilbert(4, 4)),
    );
    let mut first = None;
    let mut coords = 0;
    let mut last_at = 0;
    m.step(&SchedIn {
        start: true,
        ..rdy.clone()
    });
    for c in 1..400 {
        let o = m.step(&rdy);
        if o.out_valid {
            first.get_or_insert(c);
            coords += 1;
            if o.out_last {
                last_at = c;
                break;
            }
        }
    }
    let first = first.unwrap_or(0);
    // a start in the cycle after the last transfer: accepted (no error, busy the next cycle)?
    m.step(&SchedIn {
        start: true,
        ..rdy.clone()
    });
    let after = m.step(&rdy);
    let back_to_back = if !after.error && after.busy {
        "accepted"
    } else {
        "refused"
    };
    writeln!(
        s,
        "| measured on the golden model (the RTL equals it in lockstep): a 16×16 Hilbert tile, `out_ready` high | |\n|---|---:|\n| start → first coordinate valid (cycles) | {first} |\n| coordinates / cycles from first to last | {coords} / {} |\n| start in the cycle after the last transfer | {back_to_back} |",
        last_at - first + 1
    )?;
    Ok(s)
}
