//! Preemption controller: Verilog export, the `eval-preempt` evaluation (Markdown table + SVG
//! plot) and the bench (simulation speeds, measured contract latencies).

use anyhow::{Context, Result};
use golden_model::preempt_ctrl::eval::{self, Policy, Row, CLASSES, CYCLES_PER_US, IDEM_SHARES};
use golden_model::preempt_ctrl::{PreemptConfig, PreemptCtrl as Model, PreemptIn, PreemptOut};
use golden_model::CycleModel;
use hdl::preempt_ctrl::{BoardPreemptCtrl, FullPreemptCtrl};
use std::fmt::Write as _;
use std::path::Path;
use testbench::preempt_ctrl::generate;

/// Board-config Verilog (module `top`, the issue's port contract).
pub fn board_verilog() -> String {
    hdl::preempt_ctrl::verilog(BoardPreemptCtrl::default())
}

/// Full-config Verilog (area only).
pub fn full_verilog() -> String {
    hdl::preempt_ctrl::verilog(FullPreemptCtrl::default())
}

/// Cycles per evaluation run and the seed.
pub const EVAL_CYCLES: u64 = eval::DEFAULT_CYCLES;
pub const EVAL_SEED: u64 = 1;

/// Run the evaluation, write `out_dir/preempt_eval.md` and `out_dir/preempt_eval.svg`, return
/// the Markdown.
pub fn evaluate(out_dir: &Path) -> Result<String> {
    std::fs::create_dir_all(out_dir)?;
    let rows = eval::evaluate(EVAL_CYCLES, EVAL_SEED);
    let g = golden_model::preempt_ctrl::gpu::GpuParams::default();
    let us = |c: u64| c as f64 / CYCLES_PER_US;
    let mut md =
        String::from("# Kernel preemption controller evaluation (cycle-level golden model)\n\n");
    md += &format!(
        "One best-effort task launches kernels without end (durations log-uniform per class); a \
         real-time task arrives every {} cycles on average ({:.0} µs, uniform ½–1½×), preempts, \
         holds the GPU {} cycles ({:.0} µs) after preempt done, resumes. GPU: submit latency {} \
         cycles ({:.0} µs), CU reset {} cycles ({:.0} µs), one kernel running at a time (in-order \
         stream). {} cycles ({:.0} ms at 100 MHz) per run, seed {}. Latency = preempt → preempt \
         done. BE throughput = GPU cycles of completed BE kernels / all cycles; cost = its drop \
         against the controller without RT arrivals; lost = GPU cycles of killed kernels. \
         Policies: `controller` = this unit (8 in flight, skip at start, CU reset when all in \
         flight are idempotent); `wait-all (a)` = 8 in flight, no instrumentation, waits for \
         every submitted kernel; `blocking (b)` = one kernel in flight, next submitted after \
         the previous completes (\\[0008\\]), waits for it. See \
         `golden_model::preempt_ctrl::eval`.\n\n",
        eval::DEFAULT_RT_PERIOD,
        us(eval::DEFAULT_RT_PERIOD),
        eval::DEFAULT_RT_HOLD,
        us(eval::DEFAULT_RT_HOLD),
        g.submit_latency,
        us(g.submit_latency),
        g.cu_reset_time,
        us(g.cu_reset_time),
        EVAL_CYCLES,
        EVAL_CYCLES as f64 / 1e5,
        EVAL_SEED
    );
    md += &eval::markdown(&rows);
    let md_path = out_dir.join("preempt_eval.md");
    std::fs::write(&md_path, &md).with_context(|| format!("writing {}", md_path.display()))?;
    let svg_path = out_dir.join("preempt_eval.svg");
    std::fs::write(&svg_path, svg(&rows))
        .with_context(|| format!("writing {}", svg_path.display()))?;
    Ok(md)
}

const COLORS: [&str; 3] = ["#1b9e77", "#d95f02", "#7570b3"];

/// Hand-written SVG, two panels: p99 preemption latency (µs, log scale) and BE throughput (%)
/// against the idempotent share; one colour per duration class; the controller solid, wait-all
/// dashed, blocking dotted (the baselines do not depend on the share).
pub fn svg(rows: &[Row]) -> String {
    let (pw, ph, ml, mt, gap) = (420.0, 260.0, 60.0, 40.0, 80.0);
    let width = ml + 2.0 * pw + gap + 30.0;
    let height = mt + ph + 60.0 + 20.0 * (CLASSES.len() + 3) as f64;
    let mut s = crate::svg::open(
        width,
        height,
        11,
        ml,
        "Kernel preemption: controller vs wait-all (a) and blocking submission (b)",
    );
    for panel in 0..2 {
        let x0 = ml + panel as f64 * (pw + gap);
        let title = if panel == 0 {
            "p99 preemption latency (µs, log) vs idempotent share"
        } else {
            "BE throughput (% of GPU cycles) vs idempotent share"
        };
        // panel 0: 1 µs .. 10^4 µs, log; panel 1: 0 .. 100 %
        let fraction = |v: f64| -> f64 {
            if panel == 0 {
                crate::svg::log_fraction(v, 4.0)
            } else {
                v / 100.0
            }
        };
        let ticks: Vec<(f64, String)> = if panel == 0 {
            crate::svg::log_ticks(4, |k| format!("{}", 10u64.pow(k)))
        } else {
            (0..6)
                .map(|k| (fraction(k as f64 * 20.0), format!("{}", k * 20)))
                .collect()
        };
        let p = crate::svg::Panel::draw(&mut s, x0, mt, mt + 10.0, (pw, ph), title, &ticks);
        let xv = |share: f64| x0 + 20.0 + share * (pw - 40.0);
        for share in IDEM_SHARES {
            p.x_label(&mut s, xv(share), &format!("{:.0} %", share * 100.0));
        }
        for (ci, (class, _, _)) in CLASSES.iter().enumerate() {
            let color = COLORS[ci];
            let val = |r: &Row| {
                if panel == 0 {
                    r.result.latency_pct(99.0) as f64 / CYCLES_PER_US
                } else {
                    r.result.throughput_pct
                }
            };
            let ctrl: Vec<(f64, f64)> = rows
                .iter()
                .filter(|r| {
                    r.result.workload.class == *class && r.result.policy == Policy::Controller
                })
                .map(|r| (xv(r.result.workload.idem_share), p.y(fraction(val(r)))))
                .collect();
            crate::svg::series(&mut s, &ctrl, color);
            for (policy, dash) in [(Policy::WaitAll, "6,4"), (Policy::Blocking, "2,3")] {
                if let Some(r) = rows
                    .iter()
                    .find(|r| r.result.workload.class == *class && r.result.policy == policy)
                {
                    let y = p.y(fraction(val(r)));
                    let _ = writeln!(
                        s,
                        r#"<line x1="{:.1}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="{color}" stroke-dasharray="{dash}" stroke-width="1.5"/>"#,
                        xv(0.0),
                        xv(1.0)
                    );
                }
            }
        }
    }
    let ly = mt + ph + 40.0;
    for (ci, (class, _, _)) in CLASSES.iter().enumerate() {
        let y = ly + ci as f64 * 18.0;
        crate::svg::swatch(&mut s, ml, y, COLORS[ci], class);
    }
    for (k, (name, dash)) in [
        ("controller", "none"),
        ("wait-all (a)", "6,4"),
        ("blocking, 1 in flight (b)", "2,3"),
    ]
    .iter()
    .enumerate()
    {
        let y = ly + (CLASSES.len() + k) as f64 * 18.0 + 6.0;
        let _ = writeln!(
            s,
            r#"<line x1="{ml}" y1="{y}" x2="{}" y2="{y}" stroke="black" stroke-dasharray="{dash}" stroke-width="1.5"/><text x="{}" y="{}">{name}</text>"#,
            ml + 30.0,
            ml + 36.0,
            y + 4.0
        );
    }
    crate::svg::close(s)
}

/// Contract latencies measured on an output trace of the board config.
#[derive(Debug, Default)]
pub struct Latencies {
    /// preempt → `cu_reset` (cycles), worst and count.
    pub worst_reset: Option<u64>,
    pub resets: u64,
    /// The event that left nothing in flight → `preempt_done` (worst): measured from the last
    /// `done`, skip-answered start or `killed` before the strobe, or from the preempt itself.
    pub worst_done: Option<u64>,
    /// resume → first `submit_valid` (cycles) when the queue was not empty.
    pub worst_resubmit: Option<u64>,
    /// Launches and submissions in one cycle each, max per cycle (1 by the ports).
    pub launches: u64,
    pub submits: u64,
}

/// Measure the contract latencies on a trace and its outputs (of the board config). Which
/// inputs were legal (a done of a RUNNING kernel, a confirmed CU reset, a preempt, a resume) and
/// whether the queue held a kernel at a resume is read from a golden model stepped alongside;
/// the cycles come from `outs` (the implementation's outputs).
pub fn latencies(trace: &[PreemptIn], outs: &[PreemptOut]) -> Latencies {
    let mut l = Latencies::default();
    let mut m = Model::new(PreemptConfig::board());
    let (mut preempt_at, mut last_event, mut resume_at) =
        (None::<usize>, None::<usize>, None::<usize>);
    for (c, (i, o)) in trace.iter().zip(outs).enumerate() {
        let before = m.stats().clone();
        m.step(i);
        let after = m.stats();
        if i.reset {
            (preempt_at, last_event, resume_at) = (None, None, None);
            continue;
        }
        if o.cu_reset {
            if let Some(p) = preempt_at {
                let d = (c - p) as u64;
                l.worst_reset = Some(l.worst_reset.unwrap_or(0).max(d));
                l.resets += 1;
            }
        }
        if o.preempt_done {
            if let Some(e) = last_event.take() {
                let d = (c - e) as u64;
                l.worst_done = Some(l.worst_done.unwrap_or(0).max(d));
            }
        }
        if o.submit_valid {
            if let Some(r) = resume_at.take() {
                let d = (c - r) as u64;
                l.worst_resubmit = Some(l.worst_resubmit.unwrap_or(0).max(d));
            }
        }
        if o.ack_valid && o.ack_skip && o.preempted {
            last_event = Some(c - 1);
        }
        if o.preempted && (after.dones > before.dones || after.kills > before.kills) {
            last_event = Some(c);
        }
        if after.preempts > before.preempts {
            preempt_at = Some(c);
            last_event = Some(c);
        }
        if after.resumes > before.resumes && m.queue().next().is_some() {
            resume_at = Some(c);
        }
        l.launches += (i.launch_valid && o.launch_ready) as u64;
        l.submits += (o.submit_valid && i.submit_ready) as u64;
    }
    l
}

/// The preemption controller's part of `synth bench` after the speed table ([`crate::bench`]):
/// the worst latencies on `model_cycles` cycles of the random stimulus (seed 5).
pub fn bench_extra(model_cycles: usize) -> Result<String> {
    let cfg = PreemptConfig::board();
    let mut s = String::new();
    let trace = generate(cfg, 5, model_cycles, None);
    let mut model = Model::new(cfg);
    let outs: Vec<PreemptOut> = trace.iter().map(|i| model.step(i)).collect();
    let l = latencies(&trace, &outs);
    let f = |x: Option<u64>| x.map_or("-".into(), |v| v.to_string());
    writeln!(
        s,
        "\n| latency (worst on the random trace) | cycles | goal |\n|---|---:|---:|"
    )?;
    writeln!(
        s,
        "| preempt → `cu_reset` ({} resets) | {} | ≤ 4 (goal 2) |",
        l.resets,
        f(l.worst_reset)
    )?;
    writeln!(
        s,
        "| last resolving event (done, skip answer's start, `killed`, or the preempt) → `preempt_done` | {} | ≤ 2 |",
        f(l.worst_done)
    )?;
    writeln!(
        s,
        "| resume → first resubmission offered | {} | ≤ 3 |",
        f(l.worst_resubmit)
    )?;
    writeln!(
        s,
        "\n{} launches and {} submissions in {} cycles; model events: {:?}",
        l.launches,
        l.submits,
        trace.len(),
        model.stats()
    )?;
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn svg_and_table_of_a_short_run() {
        let rows = eval::evaluate(300_000, 2);
        let s = svg(&rows);
        assert!(s.starts_with("<svg") && s.trim_end().ends_with("</svg>"));
        assert_eq!(s.matches("<polyline").count(), 6);
        let md = eval::markdown(&rows);
        assert_eq!(md.lines().count(), 2 + rows.len());
    }

    /// The bench's latency measurement sees the contract's cycles on a random trace.
    #[test]
    fn measured_latencies_meet_the_goals() {
        let cfg = PreemptConfig::board();
        // the bench's trace
        let t = generate(cfg, 5, 1_000_000, None);
        let mut m = Model::new(cfg);
        let outs: Vec<PreemptOut> = t.iter().map(|i| m.step(i)).collect();
        let l = latencies(&t, &outs);
        assert_eq!(l.worst_reset, Some(2));
        assert!(l.resets > 10);
        assert!(l.worst_done.is_some_and(|d| d <= 2), "{l:?}");
        assert!(l.worst_resubmit.is_some_and(|d| d <= 3), "{l:?}");
    }
}
