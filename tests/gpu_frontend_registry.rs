//! GPU scheduling front-end: the registry's stream (`testbench::gpu_frontend::random_run`,
//! what `synth mutate`, `bench` and the 10^6-cycle Verilator replay of `tests/units.rs` drive)
//! judged by the port checker (`FrontendChecker`: the system checker and the three unit
//! checkers on the composed model's internal ports), the skip-window seeds and their directed
//! trace, and the reading aids (`--ignored`) that measured the stream's reach. The system's
//! own streams and the negative tests are in `tests/gpu_frontend_system.rs`.

use golden_model::gpu_frontend::{GfIn, GfOut, Kernel};
use golden_model::CycleModel;
use testbench::gpu_frontend::gf_seeds;
use testbench::gpu_frontend_probe::UnitCheckers;
use testbench::spec::SpecChecker;

/// The registry's stream (`testbench::gpu_frontend::random_run`: host commands, bad
/// completions, resets, register writes, with the composed model in the loop) judged by the
/// system checker and the port checker over 10^6 cycles at the seeds that stopped on the
/// checker's greedy done ↔ attempt binding (session 5) and seed 6 (`RESET_ENABLE` written while
/// an idempotent BE kernel waited in the launch register), or `GF_SEEDS=a..=b` × 200 000 cycles.
#[test]
fn registry_stream_passes_the_system_checker() {
    use testbench::gpu_frontend::{random_run, FrontendChecker};
    let runs: Vec<(u64, usize)> = match std::env::var("GF_SEEDS") {
        Ok(_) => gf_seeds().map(|s| (s, 200_000)).collect(),
        Err(_) => [1, 3, 5, 6, 77, 2026].map(|s| (s, 1_000_000)).to_vec(),
    };
    for (seed, cycles) in runs {
        let (ins, outs) = random_run(seed, cycles);
        let mut chk = FrontendChecker::new();
        for (c, (i, o)) in ins.iter().zip(&outs).enumerate() {
            chk.check(c, i, o).unwrap_or_else(|v| {
                dump_window(&ins, c);
                panic!("seed {seed}: {v}")
            });
        }
        // both classes had work: more than one kernel per 1000 cycles each (1000 at 10^6
        // cycles; seed 123 × 200 000 cycles completes 935 RT kernels)
        let least = cycles as u64 / 1000;
        assert!(
            chk.sys.stats.kernels_done[0] > least && chk.sys.stats.kernels_done[1] > least,
            "seed {seed}: {:?}",
            chk.sys.stats
        );
    }
}

/// The registry's stream at the seeds that stopped on `done-complete` because a resubmitted
/// kernel's first record fell inside the orphan window of the skip that had just freed its
/// kslot (69: kid 108 skipped in kslot 0 at 5200, kid 107 resubmitted into it, its WG 0
/// recorded at 5208; 84 and 144 stopped likewise and pass since the window rule, not read one
/// by one) and 64 (where a first version of the rule, which also ended CU reset windows, took
/// a killed kernel's WG 0 for a new attempt and stopped on `wg-twice`): 200 000 cycles each.
/// The session-7 far-side fixes of `random_run` changed these traces after their first bad
/// completion or reset, so the count of window starts is printed, and only required > 0.
/// Session 9's stimulus (wide shapes, BE storms, more resets and register writes) changed
/// every trace: of seeds 1..=240 × 200 000 cycles only seed 104 has a window start now (one),
/// so it joins the list (the other four are kept as further traces the checker must accept).
/// Session 11's stimulus (`MAX_INFLIGHT` restored to 8 by half of its writes and by every BE
/// storm, WG counts up to 255, map-pressure segments) changed every trace again: of seeds
/// 1..=400 seeds 12, 152 and 387 have one each (`search_skip_window_seeds`), so they join the
/// list. Session 12's stream (2048-cycle segments, a module-choice profile per segment,
/// many-wave segments) changed every trace once more: none of the eight has a window start now,
/// and of seeds 1..=400 only seed 72 has one, so it joins the list. Every stream change moves
/// them (a session-17 stream, not merged, left none of the nine with one): the window start is
/// now made on purpose by `directed_skip_window_starts` (every run, whatever the stream), and
/// this test keeps the nine seeds as registry traces the checker must accept, printing their
/// window starts (no longer required > 0).
#[test]
fn registry_stream_skip_window_seeds() {
    use testbench::gpu_frontend::{random_run, FrontendChecker};
    for seed in [12, 64, 69, 72, 84, 104, 144, 152, 387] {
        let (ins, outs) = random_run(seed, 200_000);
        let mut chk = FrontendChecker::new();
        for (c, (i, o)) in ins.iter().zip(&outs).enumerate() {
            chk.check(c, i, o).unwrap_or_else(|v| {
                dump_window(&ins, c);
                panic!("seed {seed}: {v}")
            });
        }
        println!(
            "seed {seed}: {} records started a next attempt inside a skip's window",
            chk.sys.stats.window_starts
        );
    }
}

/// `GF_DUMP=N`: print the N cycles of a registry trace up to a failing cycle, one line per
/// cycle with the events of the ports and of the units' internal ports (the composed model
/// replayed on the trace's inputs) — a reading aid, off by default.
fn dump_window(ins: &[GfIn], fail: usize) {
    let Some(n) = std::env::var("GF_DUMP")
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
    else {
        return;
    };
    let mut m = golden_model::gpu_frontend::GpuFrontend::new();
    for (c, i) in ins.iter().enumerate().take(fail + 1) {
        let o = m.step(i);
        if c + n < fail {
            continue;
        }
        let p = m.probe();
        let mut e: Vec<String> = vec![];
        if i.launch_valid && o.launch_ready {
            e.push(format!(
                "LAUNCH c{} kid{} wgs{} idem{}",
                i.launch_class, i.launch_kid, i.launch_wgs, i.launch_idem as u8
            ));
        }
        if o.disp_valid {
            e.push(format!(
                "REC s{} tag({},{}) wg{}{}{}",
                o.disp_slot,
                o.disp_class,
                o.disp_kslot,
                o.disp_id,
                if o.disp_sub { " sub" } else { "" },
                if o.disp_last { " last" } else { "" }
            ));
        }
        if i.done_valid {
            e.push(format!("CPL s{}", i.done_slot));
        }
        if o.kernel_done_valid {
            e.push(format!(
                "KDONE c{} kid{}",
                o.kernel_done_class, o.kernel_done_kid
            ));
        }
        if o.kernel_skip_valid {
            e.push(format!("SKIP k{}", o.kernel_skip_slot));
        }
        if o.cu_reset {
            e.push("CU_RESET".into());
        }
        if i.cu_reset_done {
            e.push("CU_RESET_DONE".into());
        }
        if p.pc_out.submit_valid && p.pc_in.submit_ready {
            e.push(format!("submit kid{}", p.pc_out.submit_id));
        }
        if p.pc_in.start_valid {
            e.push(format!("start kid{}", p.pc_in.start_id));
        }
        if p.pc_out.ack_valid {
            e.push(format!(
                "ack kid{} {}",
                p.pc_out.ack_id,
                if p.pc_out.ack_skip { "skip" } else { "go" }
            ));
        }
        if p.pc_in.done_valid {
            e.push(format!("pc_done kid{}", p.pc_in.done_id));
        }
        if p.pc_in.preempt {
            e.push("preempt".into());
        }
        if p.pc_in.resume {
            e.push("resume".into());
        }
        if p.pc_in.killed {
            e.push("killed".into());
        }
        if p.exp_out.push_valid {
            e.push(format!(
                "push ({},{}) wg{}",
                p.exp_out.push_class, p.exp_out.push_slot, p.exp_out.push_idx
            ));
        }
        if p.exp_in.wdr_valid {
            e.push(format!("wdr k{}", p.exp_in.wdr_slot));
        }
        if o.error || o.pc_error || o.exp_error || o.disp_error {
            e.push(format!(
                "ERR {}/{}/{}/{}",
                o.error_code, o.pc_error_code, o.exp_error_code, o.disp_error_code
            ));
        }
        println!(
            "{c:>7} {}{} {}",
            if o.preempted { "P" } else { "." },
            if o.reclaim_busy { "R" } else { "." },
            e.join(" | ")
        );
    }
}

/// A reading aid (not a check; `cargo test --release --test gpu_frontend_registry
/// measure_split_records -- --ignored --nocapture`): in `synth mutate`'s traces of seeds 3, 4, 5
/// (registry traces S·1000 + 0..12, 8000 cycles), the split sub-WG records per class, and how
/// many RT ones had a BE record within 6 cycles (both channels live: the tie of an RT head in
/// split mode, priority 3, with the BE channel's priority 3).
#[test]
#[ignore]
fn measure_split_records() {
    use testbench::gpu_frontend::random_run;
    for base in [3000u64, 4000, 5000] {
        let (mut rt_sub, mut be_sub, mut near) = (0, 0, 0);
        for k in 0..12 {
            let (_, outs) = random_run(base + k, 8000);
            for (c, o) in outs.iter().enumerate() {
                if o.disp_valid && o.disp_sub && o.disp_class == 0 {
                    rt_sub += 1;
                    let lo = c.saturating_sub(6);
                    if outs[lo..(c + 6).min(outs.len())]
                        .iter()
                        .any(|x| x.disp_valid && x.disp_class == 1)
                    {
                        near += 1;
                    }
                }
                if o.disp_valid && o.disp_sub && o.disp_class == 1 {
                    be_sub += 1;
                }
            }
        }
        println!(
            "traces {base}..: RT sub records {rt_sub} ({near} within 6 cycles of a BE record), BE sub records {be_sub}"
        );
    }
}

/// A reading aid (not a check; `cargo test --release --test gpu_frontend_registry
/// measure_unit4_deep_dones -- --ignored --nocapture`): in `synth mutate`'s traces (registry
/// traces S·1000 + 0..12, 8000 cycles), the cycles in which Unit 4 takes a `done` while its
/// table holds eight entries with the eighth (the youngest, position 7) RUNNING, and the
/// largest table seen.
#[test]
#[ignore]
fn measure_unit4_deep_dones() {
    use golden_model::gpu_frontend::GpuFrontend;
    use golden_model::preempt_ctrl::KState;
    use testbench::gpu_frontend::random_run;
    let bases: Vec<u64> = std::env::var("BASES")
        .map(|s| s.split(',').map(|x| x.parse().unwrap()).collect())
        .unwrap_or(vec![3000, 4000, 5000, 11000]);
    for base in bases {
        let (mut deep, mut full_run, mut max_len) = (0, 0, 0);
        let mut per = vec![];
        for k in 0..12 {
            let (ins, _) = random_run(base + k, 8000);
            let mut m = GpuFrontend::new();
            let mut d = 0;
            for i in &ins {
                let t = m.preempt_ctrl().table().to_vec();
                m.step(i);
                let pin = &m.probe().pc_in;
                max_len = max_len.max(t.len());
                if t.len() == 8 && t[7].1 == KState::Running {
                    full_run += 1;
                    if pin.done_valid && !pin.reset {
                        d += 1;
                    }
                }
            }
            deep += d;
            per.push(d);
        }
        println!(
            "traces {base}..: done with position 7 RUNNING {deep} (per trace {per:?}), cycles with position 7 RUNNING {full_run}, largest table {max_len}"
        );
    }
}

/// A reading aid (not a check; `SEEDS=1..240 cargo test --release --test gpu_frontend_registry
/// search_skip_window_seeds -- --ignored --nocapture`): the registry stream's seeds (× 200 000
/// cycles) with a record that starts a next attempt inside a skip's window, for the list of
/// `registry_stream_skip_window_seeds` after a change of the stream.
#[test]
#[ignore]
fn search_skip_window_seeds() {
    use testbench::gpu_frontend::{random_run, FrontendChecker};
    let range = std::env::var("SEEDS").unwrap_or("1..240".into());
    let (a, b) = range.split_once("..").expect("SEEDS=a..b");
    let (a, b): (u64, u64) = (a.parse().unwrap(), b.parse().unwrap());
    for seed in a..=b {
        let (ins, outs) = random_run(seed, 200_000);
        let mut chk = FrontendChecker::new();
        for (c, (i, o)) in ins.iter().zip(&outs).enumerate() {
            chk.check(c, i, o)
                .unwrap_or_else(|v| panic!("seed {seed}: {v}"));
        }
        if chk.sys.stats.window_starts > 0 {
            println!("seed {seed}: {} window starts", chk.sys.stats.window_starts);
        }
    }
}

/// A directed trace for the skip window (independent of the registry's random stream): the host
/// runs Unit 4 by hand (`AUTO_PREEMPT` = 0, `MAX_INFLIGHT` = `inflight`) and keeps BE kernels
/// of `wgs` small WGs (not idempotent: skips only, never a CU reset) on the launch port; in
/// round `r` it strobes `preempt` `lead + r % spread` cycles after a launch was taken, so the
/// strobe meets each cycle of a kernel's way from submission to its entry check, and `resume`
/// in the first cycle Unit 4's registered `preempt_done` shows (the earliest legal resume: the
/// cycle of the last skip). The far side completes a record `run` cycles after the cycle that
/// follows it (`run` = 0: in that next cycle, the earliest) and a skipped kernel's records at
/// once. With one WG per kernel and `run` = 0 the skipped expander entry is free by the cycle
/// after the skip, Unit 4 resubmits the skipped kernel (the head of its queue) into it at
/// once, and its WG 0 is recorded 7 cycles after that: inside the skip's orphan window
/// ([`SysConfig::orphan_window`] = 8). Returns the inputs and the composed model's outputs.
fn skip_window_trace(
    rounds: usize,
    lead: usize,
    spread: usize,
    wgs: u32,
    run: usize,
    inflight: u32,
) -> (Vec<GfIn>, Vec<GfOut>) {
    use golden_model::gpu_frontend::{GpuFrontend, ADDR_AUTO_PREEMPT, ADDR_MAX_INFLIGHT, BE};
    use golden_model::ResetInput;
    let mut m = GpuFrontend::new();
    let mut ins = vec![
        GfIn::reset_input(),
        GfIn::cfg(ADDR_AUTO_PREEMPT, 0),
        GfIn::cfg(ADDR_MAX_INFLIGHT, inflight),
    ];
    let mut outs: Vec<GfOut> = ins.iter().map(|i| m.step(i)).collect();
    // (due cycle, slot, kslot) of the records in the modules
    let mut running: Vec<(usize, u32, u32)> = vec![];
    let mut kid = 0u32;
    let mut preempt_at = None;
    let mut round = 0usize;
    let mut done_seen = false;
    while round < rounds || m.preempt_ctrl().outputs().preempted {
        let t = ins.len();
        assert!(t < 100 * rounds + 10_000, "the directed trace stalled");
        let prev = outs[t - 1].clone();
        if prev.disp_valid {
            running.push((t + run, prev.disp_slot, prev.disp_kslot));
        }
        if prev.kernel_skip_valid {
            for x in running.iter_mut().filter(|x| x.2 == prev.kernel_skip_slot) {
                x.0 = t;
            }
        }
        let mut i = if round < rounds {
            GfIn::launch(&Kernel {
                kid,
                class: BE,
                idem: false,
                wgs,
                waves: 1,
                vgpr: 1,
                sgpr: 1,
                lds: 1,
                indep: false,
            })
        } else {
            GfIn::default()
        };
        let po = m.preempt_ctrl().outputs();
        done_seen |= po.preempt_done;
        if po.preempted && done_seen {
            i.resume = true;
            done_seen = false;
        } else if !po.preempted && preempt_at.is_some_and(|p| t >= p) {
            i.preempt = true;
            preempt_at = None;
            round += 1;
        }
        if let Some(p) = running.iter().position(|x| x.0 <= t) {
            i.done_valid = true;
            i.done_slot = running.swap_remove(p).1;
        }
        let o = m.step(&i);
        if i.launch_valid && o.launch_ready {
            kid = (kid + 1) & 0xFF;
            if preempt_at.is_none() && !o.preempted {
                preempt_at = Some(t + lead + round % spread);
            }
        }
        ins.push(i);
        outs.push(o);
    }
    // drain: the far side completes what is left
    for _ in 0..400 {
        let t = ins.len();
        let prev = outs[t - 1].clone();
        if prev.disp_valid {
            running.push((t + run, prev.disp_slot, prev.disp_kslot));
        }
        let mut i = GfIn::default();
        if let Some(p) = running.iter().position(|x| x.0 <= t) {
            i.done_valid = true;
            i.done_slot = running.swap_remove(p).1;
        }
        outs.push(m.step(&i));
        ins.push(i);
    }
    (ins, outs)
}

/// The skip window, directed: a resubmitted kernel's first record inside the orphan window of
/// the skip that freed its expander slot starts the slot's next attempt (SPEC Unit 8's system
/// checker, "Which records of a skip's window are orphans"), on traces that make it happen
/// whatever the registry stream does ([`skip_window_trace`]: `MAX_INFLIGHT` 1, 2 and 8, one
/// WG per kernel, completions in the cycle after the record; 200 preempt rounds each). Every
/// cycle is judged by the system checker, the port checker and each unit's own checker on its
/// internal ports (the model's probe), the trace is drained at the end, and each trace must
/// have a window start (session 17: 147 of 147 skips at `MAX_INFLIGHT` 1, 48 of 278 at 2,
/// 113 of 842 at 8). A slower far side (completion one cycle later) or two WGs per kernel
/// start no next attempt inside the window: the entry is freed too late.
#[test]
fn directed_skip_window_starts() {
    use golden_model::gpu_frontend::GpuFrontend;
    use testbench::gpu_frontend::FrontendChecker;
    for inflight in [1, 2, 8] {
        let (ins, outs) = skip_window_trace(200, 0, 12, 1, 0, inflight);
        let mut chk = FrontendChecker::new();
        let mut m = GpuFrontend::new();
        let mut units = UnitCheckers::default();
        for (c, (i, o)) in ins.iter().zip(&outs).enumerate() {
            chk.check(c, i, o).unwrap_or_else(|v| panic!("{v}"));
            m.step(i);
            units
                .check(c, m.probe())
                .unwrap_or_else(|(u, v)| panic!("{u}: {v}"));
        }
        chk.sys
            .finish_drained(ins.len())
            .unwrap_or_else(|v| panic!("{v}"));
        let s = &chk.sys.stats;
        println!(
            "MAX_INFLIGHT {inflight}: {} cycles, {} skips, {} window starts, kernels done {:?}",
            ins.len(),
            s.skips,
            s.window_starts,
            s.kernels_done
        );
        assert!(
            s.window_starts > 0,
            "MAX_INFLIGHT {inflight}: a next attempt started inside a skip's window ({} skips)",
            s.skips
        );
    }
}

/// A reading aid (not a check; `cargo test --release --test gpu_frontend_registry
/// measure_expander_queued_max -- --ignored --nocapture`): the largest `queued` (WGs pushed, not
/// yet fully recorded) of each RT / BE entry of the expander inside, over `synth mutate`'s
/// traces of seed 41 and more (registry traces 41 000 + 0..60, 8000 cycles). Session 17: 5 at
/// every entry (the dispatcher's FIFO of 4 and the push register), so a counter's bit 3 was
/// never set.
#[test]
#[ignore]
fn measure_expander_queued_max() {
    use golden_model::gpu_frontend::GpuFrontend;
    use testbench::gpu_frontend::random_run;
    let mut mx = [[0u32; 8]; 2];
    for seed in 0..60u64 {
        let (ins, _) = random_run(41000 + seed, 8000);
        let mut m = GpuFrontend::new();
        for i in &ins {
            m.step(i);
            for c in 0..2u32 {
                for s in 0..8u32 {
                    if let Some(e) = m.expander().entry(c, s) {
                        mx[c as usize][s as usize] = mx[c as usize][s as usize].max(e.queued);
                    }
                }
            }
        }
    }
    println!("max queued RT {:?} BE {:?}", mx[0], mx[1]);
}

/// The corner family (`testbench::gpu_frontend::corner_family`, the front end's
/// `BoardUnit::corner_trace`: `synth mutate` runs 24 traces of `corner_run`, 12 of
/// `rt_pair_run`, 12 of `done_race_run` and 12 of `split_reset_run` after its random traces) is
/// judged like the random stream: at `synth mutate`'s trace seeds (1000 · S + 500 + k, 8000
/// cycles; three traces of each of the first two kinds at seeds 1..=4, three done races and two
/// split resets at seeds 1 and 2) the port
/// checker accepts the model's outputs, the export under Verilator equals the model every
/// cycle, and the traces do what the family is for — most accepted launches of the first two
/// kinds are WGs of three or four wave pairs, with both classes, and many records; in the done
/// races two finished kernels wait for the expander's done report in many cycles (the model
/// rerun on the inputs), which the random stream never makes (`measure_done_backlog`); the
/// split resets split WGs with the threshold never written (its reset value, 256).
#[test]
fn corner_family_passes_the_port_checker_and_meets_the_pair_rows() {
    use testbench::gpu_frontend::{
        corner_family, FrontendChecker, GfPorts, GpuFrontendBoard, CORNER_DONE_RACE_FROM,
        CORNER_PAIR_TRACES, CORNER_SPLIT_RESET_FROM,
    };
    use testbench::unit::BoardUnit;
    let verilator = testbench::verilator::tool_available("verilator");
    let (mut pairs, mut other, mut records, mut classes) = (0, 0, 0, [0; 2]);
    let (mut backlog, mut splits, mut threshold_writes) = (0, 0, 0);
    let races = CORNER_DONE_RACE_FROM..CORNER_DONE_RACE_FROM + 3;
    let split_resets = CORNER_SPLIT_RESET_FROM..CORNER_SPLIT_RESET_FROM + 2;
    for s in 1..=4u64 {
        let kinds = (0..3).chain(CORNER_PAIR_TRACES..CORNER_PAIR_TRACES + 3);
        let late = races.clone().chain(split_resets.clone()).filter(|_| s <= 2);
        for k in kinds.chain(late) {
            let seed = 1000 * s + 500 + k as u64;
            let (ins, outs) = corner_family(seed, k, 8000);
            if verilator {
                let got =
                    testbench::verilator::replay(&GpuFrontendBoard::verilog(), &GfPorts, &ins)
                        .unwrap_or_else(|e| panic!("Verilator replay: {e:#}"));
                if let Some(c) = (0..outs.len()).find(|&c| got[c] != outs[c]) {
                    panic!("corner trace {seed}: the export differs from the model in cycle {c}");
                }
            }
            assert_eq!(ins.len(), 8000);
            assert!(ins[0].reset, "a trace starts with a reset");
            let mut chk = FrontendChecker::new();
            for (c, (i, o)) in ins.iter().zip(&outs).enumerate() {
                chk.check(c, i, o)
                    .unwrap_or_else(|v| panic!("corner trace {seed}: {v}"));
                if split_resets.contains(&k) {
                    splits += o.disp_sub as usize;
                    threshold_writes += (i.cfg_we && i.cfg_addr == 1) as usize;
                }
                if races.contains(&k) || split_resets.contains(&k) {
                    continue;
                }
                // accepted in this cycle: the launch's fields while `launch_ready` is up
                if i.launch_valid && o.launch_ready && i.launch_wgs > 0 && i.launch_waves <= 8 {
                    if i.launch_waves >= 5 {
                        pairs += 1;
                        classes[i.launch_class.min(1) as usize] += 1;
                    } else {
                        other += 1;
                    }
                }
                records += o.disp_valid as usize;
            }
            if races.contains(&k) {
                backlog += done_backlog(&ins).0;
            }
        }
    }
    println!("done races: {backlog} cycles with two or more finished expander entries in 6 traces");
    assert!(backlog > 100, "{backlog} cycles with a done backlog");
    println!(
        "split resets: {splits} split records, {threshold_writes} threshold writes in 4 traces"
    );
    assert!(splits > 0 && threshold_writes == 0);
    println!("corner family: {pairs} launches of 3-4 wave pairs (RT {}, BE {}), {other} others, {records} records", classes[0], classes[1]);
    assert!(
        pairs > 10 * other.max(1),
        "pair launches {pairs}, others {other}"
    );
    assert!(classes[0] > 20 && classes[1] > 20, "{classes:?}");
    assert!(records > 1000, "{records} records in 24 traces");
}

/// The composed model run on `ins`: the cycles in which the expander holds two or more
/// finished entries (waiting for the done report's round robin), and the most it holds at once.
fn done_backlog(ins: &[GfIn]) -> (usize, usize) {
    let mut m = golden_model::gpu_frontend::GpuFrontend::new();
    let (mut two, mut most) = (0, 0);
    for i in ins {
        m.step(i);
        let x = m.expander();
        let n = x
            .rt_entries()
            .iter()
            .chain(x.be_entries())
            .filter(|e| e.is_some_and(|e| e.finished()))
            .count();
        two += (n >= 2) as usize;
        most = most.max(n);
    }
    (two, most)
}

/// A reading aid (not a check; `cargo test --release --test all measure_done_backlog --
/// --ignored --nocapture`): in `synth mutate`'s random traces and its corner family (seed 53's
/// trace seeds, 8000 cycles), the cycles in which the expander holds two or more finished
/// entries waiting for the done report's round robin. Session 23: none in the random and
/// pair traces (at most one), also in storms of one-WG kernels whose records ran 1..=3 cycles
/// (the far side never completed a record in the cycle it showed). Two kernels finish in one
/// cycle only when a BE kernel's go answer (two cycles after its first record) finds its WGs
/// done while another kernel's last completion comes, so its record must complete in the
/// cycle it shows — legal (the dispatcher's slot is in flight from then) and what the done
/// races do (session 24: 1285 cycles in 12 traces, at most two).
#[test]
#[ignore]
fn measure_done_backlog() {
    use testbench::gpu_frontend::{corner_run, done_race_run, random_run};
    type Gen = fn(u64, usize) -> (Vec<GfIn>, Vec<GfOut>);
    let gens: [(&str, Gen, u64); 3] = [
        ("random", random_run, 53_000),
        ("corner", corner_run, 53_500),
        ("done race", done_race_run, 53_536),
    ];
    for (name, g, base) in gens {
        let (mut two, mut most) = (0, 0);
        for k in 0..12 {
            let (t, m) = done_backlog(&g(base + k, 8000).0);
            two += t;
            most = most.max(m);
        }
        println!("{name}: {two} cycles with >= 2 finished entries in 12 traces, at most {most}");
    }
}
