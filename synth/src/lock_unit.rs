//! Lock unit: Verilog export, the bench (simulation speeds and measured latencies) and the
//! `eval-lock` evaluation (Markdown table + SVG plot).

use anyhow::Result;
use golden_model::lock_unit::{LockConfig, LockIn, LockOut, LockUnit as Model};
use golden_model::CycleModel;
use hdl::lock_unit::{BoardLockUnit, FullLockUnit};
use std::fmt::Write as _;

/// Board-config Verilog (module `top`, the issue's port contract).
pub fn board_verilog() -> String {
    hdl::lock_unit::verilog(BoardLockUnit::default())
}

/// Full-config Verilog (area only: it has more ports than any iCE40 package has pins).
pub fn full_verilog() -> String {
    hdl::lock_unit::verilog(FullLockUnit::default())
}

/// Latencies observed on an output trace, per SPEC Unit 1 behaviour.
#[derive(Debug, Default)]
pub struct Latencies {
    /// Histogram: cycles from an accepted acquire to its grant, when it was never told to wait.
    pub grant_without_wait: std::collections::BTreeMap<u64, u64>,
    /// Worst case of the above.
    pub worst_grant_without_wait: u64,
    /// Worst case for grants that preempted a holder (another warp revoked in the same cycle).
    pub worst_preemptive_grant: u64,
    pub preemptive_grants: u64,
    /// Cycles from a release to the grant of a waiter on the same lock (hand-off).
    pub worst_hand_off: u64,
    pub hand_offs: u64,
    /// Histogram of the above (cycles from the release being driven to the waiter's `grant`).
    pub hand_off_hist: std::collections::BTreeMap<u64, u64>,
}

/// Measure latencies from inputs and the outputs seen in each cycle.
pub fn latencies(cfg: &LockConfig, trace: &[LockIn], outs: &[LockOut]) -> Latencies {
    let mut lat = Latencies::default();
    let mut pending: Vec<Option<(usize, bool)>> = vec![None; cfg.warps]; // (accepted at, was denied)
                                                                         // (cycle the release was driven, releasing warp) per lock, until the lock changes hands
    let mut released_at: Vec<Option<(usize, usize)>> = vec![None; cfg.locks];
    let owners = |o: &LockOut| testbench::lock_unit::owners(cfg, o.lock_words);
    for t in 0..trace.len().saturating_sub(1) {
        let (i, o, next) = (&trace[t], &outs[t], &outs[t + 1]);
        if i.reset {
            pending.iter_mut().for_each(|p| *p = None);
            released_at.iter_mut().for_each(|p| *p = None);
            continue;
        }
        // an acquire accepted in cycle t (and not refused: no error reported for cycle t)
        let accepted =
            i.acq_valid && o.acq_ready && (i.acq_warp as usize) < cfg.warps && !next.error;
        if accepted && pending[i.acq_warp as usize].is_none() {
            pending[i.acq_warp as usize] = Some((t, false));
        }
        // effects of cycle t are visible in next
        for (w, p) in pending.iter_mut().enumerate() {
            let bit = 1u64 << w;
            if next.grant & bit != 0 {
                if let Some((at, denied)) = p.take() {
                    if !denied {
                        let d = (t + 1 - at) as u64; // accepted in cycle `at`, strobe seen in t + 1
                        *lat.grant_without_wait.entry(d).or_default() += 1;
                        lat.worst_grant_without_wait = lat.worst_grant_without_wait.max(d);
                        if next.revoke & !bit != 0 {
                            lat.preemptive_grants += 1;
                            lat.worst_preemptive_grant = lat.worst_preemptive_grant.max(d);
                        }
                    }
                }
            }
            if next.deny & bit != 0 {
                if let Some(p) = p.as_mut() {
                    p.1 = true;
                }
            }
            if next.revoke & bit != 0 && next.grant & bit == 0 {
                *p = None;
            }
        }
        let (before, after) = (owners(o), owners(next));
        for l in 0..cfg.locks {
            if i.rel_valid && i.rel_lock as usize == l && before[l] == Some(i.rel_warp as usize) {
                released_at[l] = Some((t, i.rel_warp as usize));
            }
            // the release is applied a cycle later (the word reads free, or names the next
            // owner, from at + 2): wait until the word names someone else; if it still names the
            // releasing warp then, that warp took the lock again (a re-acquire decided by the
            // arbiter in the cycle the release was applied), which is not a hand-off
            if let Some((at, by)) = released_at[l] {
                if t + 1 >= at + 2 && after[l] == Some(by) {
                    released_at[l] = None;
                }
            }
            if let (Some((at, by)), Some(w)) = (released_at[l], after[l]) {
                if w != by {
                    if o.waiting & (1 << w) != 0 {
                        let d = (t + 1 - at) as u64;
                        lat.hand_offs += 1;
                        lat.worst_hand_off = lat.worst_hand_off.max(d);
                        *lat.hand_off_hist.entry(d).or_default() += 1;
                    }
                    released_at[l] = None;
                }
            }
            if released_at[l].is_some_and(|(at, _)| t > at + 8) {
                released_at[l] = None; // nobody took it
            }
        }
    }
    lat
}

/// The lock unit's part of `synth bench` after the speed table ([`crate::bench`]): latencies
/// measured on `model_cycles` cycles of the standard random trace.
pub fn bench_extra(model_cycles: usize) -> Result<String> {
    use testbench::unit::BoardUnit;
    let cfg = LockConfig::board();
    let mut s = String::new();
    let trace = testbench::lock_unit::LockUnitBoard::random_trace(1, model_cycles);
    let mut model = Model::new(cfg);
    let model_outs: Vec<LockOut> = trace.iter().map(|i| model.step(i)).collect();
    let lat = latencies(&cfg, &trace, &model_outs);
    writeln!(
        s,
        "\n| latency (measured on the random trace) | cycles |\n|---|---:|"
    )?;
    let free = lat.grant_without_wait.keys().next().copied().unwrap_or(0);
    writeln!(s, "| acquire of a free lock → `grant` | {free} |")?;
    writeln!(
        s,
        "| worst acquire → `grant` without waiting (incl. preemption; SPEC bound fifo_depth + 3 = {}) | {} |",
        cfg.fifo_depth + 3,
        lat.worst_grant_without_wait
    )?;
    writeln!(
        s,
        "| worst preemptive grant: acquire → `grant` in a cycle that revokes another warp ({} seen; SPEC bound {}) | {} |",
        lat.preemptive_grants,
        cfg.fifo_depth + 3,
        lat.worst_preemptive_grant
    )?;
    writeln!(
        s,
        "| worst release driven → hand-off `grant` to a waiter | {} |",
        lat.worst_hand_off
    )?;
    writeln!(
        s,
        "| worst release applied (the port is registered: 1 cycle later) → hand-off `grant` (SPEC: within 2 of the lock becoming free) | {} |",
        lat.worst_hand_off.saturating_sub(1)
    )?;
    writeln!(
        s,
        "\nGrant-without-wait latency histogram: {:?}",
        lat.grant_without_wait
    )?;
    writeln!(
        s,
        "Hand-offs observed: {} (cycles from the release driven: {:?}). Model events: {:?}",
        lat.hand_offs,
        lat.hand_off_hist,
        model.stats()
    )?;
    Ok(s)
}

/// Cycles simulated per (scenario, engine) for each config, and the workload seed.
pub const EVAL_CYCLES_BOARD: u64 = 100_000;
pub const EVAL_CYCLES_FULL: u64 = 50_000;
pub const EVAL_SEED: u64 = 1;

/// Run the evaluation (golden model vs baselines, board and full configs), write
/// `out_dir/lock_eval.md` and `out_dir/lock_eval.svg`, return the Markdown. Fails when the unit
/// misses the SPEC bound (`fifo_depth + 3` from acceptance to grant for a strictly
/// higher-priority requester) in any run.
pub fn evaluate(out_dir: &std::path::Path) -> Result<String> {
    use anyhow::Context as _;
    use golden_model::lock_unit::eval;
    std::fs::create_dir_all(out_dir)?;
    let mut results = eval::evaluate(LockConfig::board(), "board", EVAL_CYCLES_BOARD, EVAL_SEED);
    results.extend(eval::evaluate(
        LockConfig::full(),
        "full",
        EVAL_CYCLES_FULL,
        EVAL_SEED,
    ));
    let mut md = String::from("# Lock unit evaluation (cycle-level golden model)\n\n");
    md += &format!(
        "Generated by `cargo run --release -p synth -- eval-lock --out DIR`. Board config (W=8, L=4, \
         FIFO 4): {EVAL_CYCLES_BOARD} cycles per run; full config (W=32, L=16, FIFO 8): \
         {EVAL_CYCLES_FULL}; workload seed {EVAL_SEED}. Workload, engines and metrics: see \
         `golden_model::lock_unit::eval`. Three classes: 1/4 of the warps at priority 0, 3/8 at 1, \
         the rest at 2; two classes: one warp in eight at 0. Compute 40–120 cycles and sections of \
         8–24 instructions unless the scenario says otherwise (`all locks, uniform`: compute 10–30). \
         Spin baseline: round trip {} cycles, backoff {}–{} cycles.\n\n",
        eval::SPIN_ROUND_TRIP,
        eval::SPIN_BACKOFF_MIN,
        eval::SPIN_BACKOFF_MAX
    );
    md += "## Priority 0 against the baselines, and what the lowest class pays\n\n";
    md += "`× engine` = that engine's P0 p99 acquire latency divided by the unit's (above 1: the \
           unit is faster).\n\n";
    md += &eval::summary(&results);
    md += "\n## Every run\n\nAcquire latency = cycles from wanting the lock (compute done, or the \
           section cut) to seeing `grant`, port wait included. Lowest class max wait = longest \
           time from a section's first acquire wish to the grant that completed it, unfinished \
           sections counted to the end of the run (a value near the run length: starved). \
           Redone instr % = instructions retired in cut sections, in % of the instructions of \
           completed sections. SPEC bound: acquires accepted while the holder is strictly lower \
           and no warp of the requester's priority or higher is waiting for the lock; their \
           count and cycles from acceptance to `grant` (p50/p99/max) against `fifo_depth + 3` (the baselines are \
           measured on the same condition for comparison; the bound is the unit's).\n\n";
    md += &eval::markdown(&results);
    let misses: Vec<String> = results
        .iter()
        .filter(|r| r.engine == eval::Engine::Unit.name() && r.bound_misses > 0)
        .map(|r| {
            format!(
                "{} / {} / hold limit {}",
                r.config, r.scenario, r.hold_limit
            )
        })
        .collect();
    let md_path = out_dir.join("lock_eval.md");
    std::fs::write(&md_path, &md).with_context(|| format!("writing {}", md_path.display()))?;
    let svg_path = out_dir.join("lock_eval.svg");
    std::fs::write(&svg_path, svg(&results))
        .with_context(|| format!("writing {}", svg_path.display()))?;
    anyhow::ensure!(
        misses.is_empty(),
        "the lock unit missed the SPEC bound fifo_depth + 3 in: {}",
        misses.join("; ")
    );
    Ok(md)
}

/// One colour per engine (ColorBrewer Dark2, as the dispatcher plot).
const EVAL_COLORS: [&str; 4] = ["#1b9e77", "#7570b3", "#d95f02", "#666666"];

/// Hand-written SVG: one row per config, two panels per row — priority 0's p99 acquire latency
/// and the lowest class's (log scale; a class never granted is a full-height outlined bar),
/// one group of bars per scenario, one bar per engine.
pub fn svg(results: &[golden_model::lock_unit::eval::LockEvalResult]) -> String {
    use golden_model::lock_unit::eval::Engine;
    let engines: Vec<&str> = Engine::all().iter().map(|e| e.name()).collect();
    let mut configs: Vec<&str> = vec![];
    let mut groups: Vec<(&str, u32)> = vec![];
    for r in results {
        if !configs.contains(&r.config) {
            configs.push(r.config);
        }
        if !groups.contains(&(r.scenario, r.hold_limit)) {
            groups.push((r.scenario, r.hold_limit));
        }
    }
    let (pw, ph) = (520.0, 220.0);
    let (ml, mt, gap) = (60.0, 40.0, 70.0);
    let width = ml + 2.0 * pw + gap + 20.0;
    let legend = 18.0 * (engines.len() + groups.len()) as f64;
    let height = mt + configs.len() as f64 * (ph + 60.0) + 20.0 + legend;
    let mut s = crate::svg::open(
        width,
        height,
        11,
        ml,
        "Lock unit: p99 acquire latency against a FIFO lock and TAS spin",
    );
    let group_w = pw / groups.len() as f64;
    let bar_w = (group_w - 10.0) / engines.len() as f64;
    // 1 .. 10^5 cycles, log
    for (ci, cfg) in configs.iter().enumerate() {
        let y0 = mt + ci as f64 * (ph + 60.0);
        for panel in 0..2 {
            let x0 = ml + panel as f64 * (pw + gap);
            let title = if panel == 0 {
                format!("{cfg}: priority 0, p99 acquire latency (cycles, log)")
            } else {
                format!("{cfg}: lowest class, p99 acquire latency (cycles, log)")
            };
            let ticks = crate::svg::log_ticks(5, |k| format!("1e{k}"));
            let p =
                crate::svg::Panel::draw(&mut s, x0, y0 + 12.0, y0 + 20.0, (pw, ph), &title, &ticks);
            for (gi, (sc, limit)) in groups.iter().enumerate() {
                let gx = x0 + gi as f64 * group_w + 5.0;
                for (ei, en) in engines.iter().enumerate() {
                    let Some(r) = results.iter().find(|r| {
                        r.config == *cfg
                            && r.scenario == *sc
                            && r.hold_limit == *limit
                            && r.engine == *en
                    }) else {
                        continue;
                    };
                    let class = if panel == 0 { 0 } else { r.acquire.len() - 1 };
                    let p99 = r.acquire[class].map(|a| a.1);
                    let color = EVAL_COLORS[ei % EVAL_COLORS.len()];
                    // never granted: a full-height outlined bar
                    let (f, paint) = match p99 {
                        Some(v) => (
                            crate::svg::log_fraction(v as f64, 5.0),
                            (color, Some("none")),
                        ),
                        None => (1.0, ("white", Some(color))),
                    };
                    let what =
                        p99.map_or("never granted".to_string(), |v| format!("p99 {v} cycles"));
                    p.bar(
                        &mut s,
                        (gx + ei as f64 * bar_w, bar_w - 1.0),
                        f,
                        paint,
                        &format!("{en}, {sc}, hold limit {limit}: {what}"),
                    );
                }
                p.x_label(&mut s, gx + (group_w - 10.0) / 2.0, &format!("{}", gi + 1));
            }
        }
    }
    let mut ly = mt + configs.len() as f64 * (ph + 60.0);
    for (ei, en) in engines.iter().enumerate() {
        crate::svg::swatch(&mut s, ml, ly, EVAL_COLORS[ei % EVAL_COLORS.len()], en);
        ly += 18.0;
    }
    for (gi, (sc, limit)) in groups.iter().enumerate() {
        let _ = writeln!(
            s,
            r#"<text x="{ml}" y="{}">{}: {sc}, hold limit {}</text>"#,
            ly + 10.0,
            gi + 1,
            if *limit == 0 {
                "off".to_string()
            } else {
                limit.to_string()
            }
        );
        ly += 18.0;
    }
    crate::svg::close(s)
}

#[cfg(test)]
mod eval_tests {
    use super::*;
    use golden_model::lock_unit::eval;

    #[test]
    fn svg_and_tables_of_a_short_run() {
        let r = eval::evaluate(LockConfig::board(), "board", 2_000, 1);
        let n = eval::scenarios(LockConfig::board(), 2_000, 1).len();
        assert_eq!(r.len(), n * eval::Engine::all().len());
        assert_eq!(eval::markdown(&r).lines().count(), 2 + r.len());
        assert_eq!(eval::summary(&r).lines().count(), 2 + n);
        let s = svg(&r);
        assert!(s.starts_with("<svg") && s.trim_end().ends_with("</svg>"));
        // background, two panels of bars, one legend swatch per engine
        assert_eq!(
            s.matches("<rect").count(),
            1 + 2 * r.len() + eval::Engine::all().len()
        );
    }
}
