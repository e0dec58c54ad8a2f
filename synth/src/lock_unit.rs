//! Lock unit: Verilog export and the bench (simulation speeds and measured latencies).

use anyhow::Result;
use golden_model::lock_unit::{LockConfig, LockIn, LockOut, LockUnit as Model};
use golden_model::CycleModel;
use hdl::lock_unit::{BoardLockUnit, FullLockUnit};
use std::fmt::Write as _;
use std::time::Instant;
use testbench::lock_unit::{random_trace, LockPorts};
use testbench::rtl::RtlSim;

/// Board-config Verilog (module `top`, the port contract).
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

/// Run the bench and return a Markdown report.
pub fn bench(model_cycles: usize, rtl_cycles: usize, verilator_cycles: usize) -> Result<String> {
    let cfg = LockConfig::board();
    let mut s = String::new();
    writeln!(
        s,
        "## Lock unit bench (board config: W=8, L=4, prio 3 bits, FIFO 4)\n"
    )?;
    writeln!(s, "| what | cycles | speed |\n|---|---:|---:|")?;

    let trace = random_trace(cfg, model_cycles);
    let mut model = Model::new(cfg);
    let t0 = Instant::now();
    let mut model_outs = Vec::with_capacity(trace.len());
    for i in &trace {
        model_outs.push(model.step(i));
    }
    writeln!(
        s,
        "| golden model | {} | {} |",
        trace.len(),
        crate::rate(trace.len(), t0.elapsed().as_secs_f64())
    )?;

    let rtl_trace = &trace[..rtl_cycles.min(trace.len())];
    let mut rtl = RtlSim::new(BoardLockUnit::default());
    let t0 = Instant::now();
    let mut rtl_outs = Vec::with_capacity(rtl_trace.len());
    for i in rtl_trace {
        rtl_outs.push(rtl.step(i));
    }
    let rtl_secs = t0.elapsed().as_secs_f64();
    anyhow::ensure!(
        rtl_outs[..] == model_outs[..rtl_outs.len()],
        "RustHDL outputs differ from the model"
    );
    writeln!(
        s,
        "| RustHDL simulation | {} | {} |",
        rtl_trace.len(),
        crate::rate(rtl_trace.len(), rtl_secs)
    )?;

    if testbench::eda::tool_available("verilator") {
        let vtrace = random_trace(cfg, verilator_cycles);
        let v = board_verilog();
        let ports = LockPorts(cfg);
        let exe = testbench::verilator::build_harness(
            &v,
            &testbench::verilator::TracePorts::inputs(&ports),
            &testbench::verilator::TracePorts::outputs(&ports),
            true,
        )?;
        let frames = testbench::verilator::encode_frames(&ports, &vtrace);
        let out_bytes: usize = testbench::verilator::TracePorts::outputs(&ports)
            .iter()
            .map(|p| p.width.div_ceil(8))
            .sum();
        let t0 = Instant::now();
        let raw = testbench::verilator::run_frames(&exe, frames, out_bytes)?;
        let secs = t0.elapsed().as_secs_f64();
        let got = testbench::verilator::decode_frames(&ports, &raw);
        testbench::lockstep::compare_trace(&mut Model::new(cfg), &vtrace, &got)
            .map_err(anyhow::Error::msg)?;
        writeln!(
            s,
            "| Verilator (exported Verilog, incl. frame I/O) | {} | {} |",
            vtrace.len(),
            crate::rate(vtrace.len(), secs)
        )?;
    }

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
