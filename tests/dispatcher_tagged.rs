//! Tagged dispatcher (SPEC Unit 8's dispatcher extensions, `golden_model::dispatcher::tagged`):
//! compatibility with the untagged model when every new input is 0, and the tagged spec
//! checker (`testbench::spec::dispatcher_tagged`) on random tagged traces of the model.

use golden_model::dispatcher::tagged::{TaggedConfig, TaggedDispatcher, TaggedIn};
use golden_model::dispatcher::{DispIn, Dispatcher, DispatcherConfig};
use golden_model::CycleModel;
use testbench::dispatcher::{trace_strategy_for, DispatcherBoard};
use testbench::lockstep::run_cases;
use testbench::unit::BoardUnit;

/// Step both models; the tagged one with every new input at 0 must give the untagged one's
/// outputs, cycle for cycle.
fn lockstep_untagged(cfg: DispatcherConfig, trace: &[DispIn]) -> Result<usize, String> {
    let mut old = Dispatcher::new(cfg);
    let mut new = TaggedDispatcher::new(TaggedConfig::with(cfg));
    let mut records = 0;
    for (k, i) in trace.iter().enumerate() {
        let a = old.step(i);
        let b = new.step(&TaggedIn::from(i.clone()));
        if a != b.base {
            return Err(format!(
                "cycle {k}: input {i:?}\nuntagged {a:?}\ntagged   {:?}",
                b.base
            ));
        }
        if b.wdr_valid || b.reclaim_done || b.reclaim_busy || b.disp_class != 0 {
            return Err(format!(
                "cycle {k}: a new output without a new input: {b:?}"
            ));
        }
        records += usize::from(a.disp_valid);
    }
    Ok(records)
}

/// The standard board random traces (`DispatcherBoard::random_trace`: the proptest mixes and
/// the flavours, bound to the model's live slots), 4 seeds × 20 000 cycles.
#[test]
fn tagged_model_is_the_untagged_model_on_the_standard_random_traces() {
    let mut total = 0;
    for seed in 1..=4 {
        let trace = DispatcherBoard::random_trace(seed, 20_000);
        let n = lockstep_untagged(DispatcherConfig::board(), &trace)
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert!(n > 2_000, "seed {seed}: the trace dispatches ({n} records)");
        total += n;
    }
    eprintln!("tagged = untagged on 4 x 20000 board cycles, {total} records");
}

/// The random mixes on other configs (channels out of range, bad priorities, bad slots).
#[test]
fn tagged_model_is_the_untagged_model_on_swept_configs() {
    let b = DispatcherConfig::board();
    let odd = DispatcherConfig {
        channels: 3,
        fifo_depth: 3,
        modules: 3,
        units: 3,
        vgpr_blocks: 13,
        sgpr_blocks: 5,
        wave_slots: 3,
        lds_blocks: 7,
        slots: 5,
        ..b
    };
    for cfg in [b, odd, DispatcherConfig::full()] {
        run_cases(32, &trace_strategy_for(cfg, 600, true), |t| {
            lockstep_untagged(cfg, t).map(|_| ())
        });
    }
}

// ---------------------------------------------------------------------------------------------
// Random tagged traces of the model, judged by the tagged spec checker.

use golden_model::dispatcher::tagged::{TaggedOut, BE, BE_CHANNEL, RT};
use testbench::spec::dispatcher_tagged::TaggedChecker;
use testbench::spec::{judge, Violation};

fn count(outs: &[TaggedOut], f: impl Fn(&TaggedOut) -> bool) -> usize {
    outs.iter().filter(|o| f(o)).count()
}

/// Three seeds × 20 000 cycles: the checker passes the model, and every new event occurs.
#[test]
fn spec_checker_passes_the_model_on_random_tagged_traces() {
    for seed in 1..=3 {
        let (ins, outs) = random_run(seed, 20_000);
        let mut chk = TaggedChecker::new(TaggedConfig::board());
        judge(&mut chk, &ins, &outs).unwrap_or_else(|v| panic!("seed {seed}: {v}"));
        let be_recs = count(&outs, |o| o.base.disp_valid && o.disp_class == BE);
        let rt_recs = count(&outs, |o| o.base.disp_valid && o.disp_class == RT);
        let wdr = count(&outs, |o| o.wdr_valid);
        let walks = count(&outs, |o| o.reclaim_done);
        let subs = count(&outs, |o| o.base.disp_sub);
        eprintln!(
            "seed {seed}: {rt_recs} RT / {be_recs} BE records, {subs} sub-WGs, {wdr} withdrawn, {walks} walks"
        );
        assert!(rt_recs > 1000 && be_recs > 500 && wdr > 20 && walks > 20 && subs > 0);
    }
}

/// The first violation of the checker on a (mutated) trace.
fn first_violation(ins: &[TaggedIn], outs: &[TaggedOut]) -> Option<Violation> {
    let mut chk = TaggedChecker::new(TaggedConfig::board());
    judge(&mut chk, ins, outs).err()
}

fn assert_rule(ins: &[TaggedIn], outs: &[TaggedOut], rule: &str, at: usize) {
    let v =
        first_violation(ins, outs).unwrap_or_else(|| panic!("{rule}: mutation at {at} not caught"));
    assert_eq!(v.rule, rule, "mutation at {at}: {v}");
    eprintln!("{rule}: {v}");
}

fn base_run() -> (Vec<TaggedIn>, Vec<TaggedOut>) {
    let (ins, outs) = random_run(1, 6_000);
    assert!(first_violation(&ins, &outs).is_none());
    (ins, outs)
}

fn window_quiet(ins: &[TaggedIn], a: usize, b: usize) -> bool {
    ins[a..b]
        .iter()
        .all(|i| !i.cu_reset && !i.cu_reset_done && !i.withdraw_valid && !i.base.reset)
}

#[test]
fn spec_rejects_a_wrong_record_tag_tag_echo() {
    let (ins, mut outs) = base_run();
    let k = (0..outs.len())
        .find(|&k| outs[k].base.disp_valid && outs[k].disp_class == BE)
        .unwrap();
    outs[k].disp_kslot ^= 1;
    assert_rule(&ins, &outs, "tag-echo", k);
}

#[test]
fn spec_rejects_a_wrong_last_flag_tag_echo() {
    let (ins, mut outs) = base_run();
    let k = (0..outs.len())
        .find(|&k| outs[k].base.disp_sub && !outs[k].disp_last)
        .unwrap();
    outs[k].disp_last = true;
    assert_rule(&ins, &outs, "tag-echo", k);
}

#[test]
fn spec_rejects_a_wrong_completion_echo_cpl_echo() {
    let (ins, mut outs) = base_run();
    let k = (0..outs.len()).find(|&k| outs[k].cpl_valid).unwrap();
    outs[k].cpl_kslot ^= 1;
    assert_rule(&ins, &outs, "cpl-echo", k);
}

#[test]
fn spec_rejects_a_room_bit_unlike_push_ready_room() {
    let (ins, mut outs) = base_run();
    let k = (1..ins.len()).find(|&k| ins[k].base.push_valid).unwrap();
    outs[k].room ^= 1 << ins[k].base.push_channel;
    assert_rule(&ins, &outs, "room", k);
}

#[test]
fn spec_rejects_an_accepted_class_one_push_outside_the_be_channel_tag_push() {
    let (ins, mut outs) = base_run();
    let k = (1..ins.len())
        .find(|&k| {
            let i = &ins[k];
            i.base.push_valid
                && i.push_class == BE
                && i.base.push_channel == 0
                && outs[k].base.push_ready
        })
        .unwrap();
    outs[k + 1].base.error = false;
    outs[k + 1].base.error_code = 0;
    assert_rule(&ins, &outs, "tag-push", k + 1);
}

#[test]
fn spec_rejects_a_lost_wg_dropped() {
    let (ins, mut outs) = base_run();
    // an RT record followed by another RT record before its slot completes
    let k = (1..outs.len())
        .find(|&k| {
            let o = &outs[k];
            if !(o.base.disp_valid && o.disp_class == RT && !o.base.disp_sub) {
                return false;
            }
            let s = o.base.disp_slot;
            let Some(n) =
                (k + 1..outs.len()).find(|&n| outs[n].base.disp_valid && outs[n].disp_class == RT)
            else {
                return false;
            };
            (k..=n).all(|x| !(ins[x].base.done_valid && ins[x].base.done_slot == s))
                && window_quiet(&ins, k, n + 1)
        })
        .unwrap();
    outs[k].base = golden_model::dispatcher::DispOut {
        push_ready: outs[k].base.push_ready,
        error: outs[k].base.error,
        error_code: outs[k].base.error_code,
        ..Default::default()
    };
    outs[k].disp_class = 0;
    outs[k].disp_kslot = 0;
    outs[k].disp_last = false;
    assert_rule(&ins, &outs, "dropped", k);
}

#[test]
fn spec_rejects_a_withdraw_report_of_another_kernel_withdraw_match() {
    let (ins, mut outs) = base_run();
    let k = (0..outs.len()).find(|&k| outs[k].wdr_valid).unwrap();
    outs[k].wdr_kslot ^= 1;
    assert_rule(&ins, &outs, "withdraw-match", k);
}

#[test]
fn spec_rejects_a_withdraw_that_leaves_a_wg_of_the_kernel_withdraw_all() {
    let (ins, mut outs) = base_run();
    // the last report of a run, with no new command or reset soon after
    let k = (1..outs.len() - 20)
        .find(|&k| outs[k].wdr_valid && !outs[k + 1].wdr_valid && window_quiet(&ins, k - 1, k + 12))
        .unwrap();
    outs[k].wdr_valid = false;
    outs[k].wdr_kslot = 0;
    assert_rule(&ins, &outs, "withdraw-all", k);
}

#[test]
fn spec_rejects_a_record_of_a_flushed_wg_flush() {
    let (mut ins, outs) = base_run();
    // a BE record at r of a WG queued 4 cycles before; inject a cu_reset at f = r - 3
    let r = (50..outs.len() - 20)
        .find(|&r| {
            let o = &outs[r];
            o.base.disp_valid
                && o.disp_class == BE
                && !o.base.disp_sub
                && (r - 40..r - 4).any(|x| {
                    ins[x].base.push_valid
                        && ins[x].base.push_id == o.base.disp_id
                        && ins[x].push_class == BE
                })
                && window_quiet(&ins, r - 6, r + 1)
                && (r - 6..r + 1).all(|x| !outs[x].wdr_valid)
                && (r - 3..r).all(|x| !outs[x].base.disp_valid)
        })
        .unwrap();
    ins[r - 3].cu_reset = true;
    assert_rule(&ins, &outs, "flush", r);
}

#[test]
fn spec_rejects_a_be_record_while_a_reset_is_open_reclaim_hold() {
    let (mut ins, outs) = base_run();
    let r = (30..outs.len() - 20)
        .find(|&r| {
            outs[r].base.disp_valid
                && outs[r].disp_class == BE
                && window_quiet(&ins, r - 25, r + 1)
                && (r - 25..r + 1).all(|x| !outs[x].reclaim_busy && !outs[x].reclaim_done)
        })
        .unwrap();
    ins[r - 4].cu_reset_done = true;
    assert_rule(&ins, &outs, "reclaim-hold", r);
}

#[test]
fn spec_rejects_a_refused_rt_completion_after_a_walk_reclaim_rt() {
    let (ins, mut outs) = base_run();
    let first_walk = (0..outs.len()).find(|&k| outs[k].reclaim_done).unwrap();
    let k = (first_walk..outs.len())
        .find(|&k| outs[k].cpl_valid && outs[k].cpl_class == RT)
        .unwrap();
    outs[k].cpl_valid = false;
    outs[k].cpl_kslot = 0;
    assert_rule(&ins, &outs, "reclaim-rt", k);
}

#[test]
fn spec_rejects_a_record_on_an_rt_slot_reclaim_rt() {
    let (ins, mut outs) = base_run();
    // a record whose slot is changed to that of an RT WG in flight
    let mut live: Vec<Option<u32>> = vec![None; 8];
    for k in 0..outs.len() {
        if ins[k].base.reset {
            live = vec![None; 8];
            continue;
        }
        let o = &outs[k];
        if o.base.disp_valid {
            if let Some(s) = (0..8).find(|&s| live[s] == Some(RT) && s as u32 != o.base.disp_slot) {
                outs[k].base.disp_slot = s as u32;
                assert_rule(&ins, &outs, "reclaim-rt", k);
                return;
            }
            live[o.base.disp_slot as usize] = Some(o.disp_class);
        }
        if ins[k].base.done_valid {
            live[ins[k].base.done_slot as usize] = None;
        }
        if ins[k].cu_reset_done {
            for l in live.iter_mut() {
                if *l == Some(BE) {
                    *l = None;
                }
            }
        }
    }
    panic!("no record beside an RT WG in flight");
}

#[test]
fn spec_rejects_a_missing_reclaim_done_reclaim_bound() {
    let (ins, mut outs) = base_run();
    let k = (0..outs.len()).find(|&k| outs[k].reclaim_done).unwrap();
    outs[k].reclaim_done = false;
    assert_rule(&ins, &outs, "reclaim-bound", k);
}

/// Nothing accepted is dropped and every resource returns: after random tagged traces, confirm
/// any open CU reset, then complete every in-flight WG until the model is idle; the checker
/// must then hold no queued WG (each accepted WG was recorded, withdrawn or flushed).
#[test]
fn drain_after_random_tagged_traces_returns_everything() {
    for seed in 4..=6 {
        let (mut ins, mut outs) = random_run(seed, 5_000);
        let mut m = TaggedDispatcher::new(TaggedConfig::board());
        for i in &ins {
            m.step(i);
        }
        let mut step = |i: TaggedIn, ins: &mut Vec<TaggedIn>, outs: &mut Vec<TaggedOut>| {
            outs.push(m.step(&i));
            ins.push(i);
        };
        step(
            TaggedIn {
                cu_reset_done: true,
                ..TaggedIn::default()
            },
            &mut ins,
            &mut outs,
        );
        for _ in 0..12 {
            step(TaggedIn::default(), &mut ins, &mut outs);
        }
        let mut chk = TaggedChecker::new(TaggedConfig::board());
        for _ in 0..400 {
            // complete the lowest in-flight slot each cycle
            let live: Vec<usize> = m.in_flight().into_iter().map(|x| x.0).collect();
            let i = match live.first() {
                Some(&s) => TaggedIn::from(DispIn::done(s)),
                None => TaggedIn::default(),
            };
            outs.push(m.step(&i));
            ins.push(i);
        }
        judge(&mut chk, &ins, &outs).unwrap_or_else(|v| panic!("seed {seed}: {v}"));
        assert_eq!(chk.queued_wgs(), 0, "seed {seed}: accepted WGs left queued");
        assert!(
            m.idle(),
            "seed {seed}: maps, wave slots and table slots all back"
        );
        assert!(chk.walks() > 0);
    }
}

// ---------------------------------------------------------------------------------------------
// The RTL (`hdl::dispatcher_tagged`, export `dispatcher_tagged.v`) against the model.

use golden_model::dispatcher::DispOut;
use hdl::dispatcher::Dispatcher as PlainRtl;
use hdl::dispatcher_tagged::DispatcherTagged;
use testbench::dispatcher_tagged::{free_trace_strategy, invariants, random_run, TaggedPorts};
use testbench::lockstep::{compare_trace, cycle_table, failure_dir, run_lockstep, Verdict};
use testbench::rtl::RtlSim;
use testbench::spec::SpecChecker;

/// RustHDL lockstep of `trace`: every output every cycle equal to the model, the port
/// invariants, and (when `checked`) the tagged spec checker. On a failure the trace is re-run
/// with a VCD written to `target/lockstep-failures/<name>.vcd` (a shrinking run leaves the
/// minimal case's there: it is the last to fail).
fn rtl_lockstep(name: &str, trace: &[TaggedIn], checked: bool) -> Verdict {
    let run = |vcd: bool| -> Verdict {
        let mut model = TaggedDispatcher::new(TaggedConfig::board());
        let mut rtl = RtlSim::new(DispatcherTagged::new());
        let path = failure_dir().join(format!("{name}.vcd"));
        if vcd {
            rtl.record_vcd(&path).map_err(|e| e.to_string())?;
        }
        let mut spec = TaggedChecker::new(TaggedConfig::board());
        run_lockstep(&mut model, &mut rtl, trace, |c, i, o| {
            invariants(i, o)?;
            if checked {
                spec.check(c, i, o).map_err(|v| format!("spec: {v}"))?;
            }
            Ok(())
        })?;
        if checked {
            spec.finish(trace.len()).map_err(|v| format!("spec: {v}"))?;
        }
        Ok(())
    };
    run(false).map_err(|e| {
        let _ = run(true);
        format!(
            "{e}\nVCD: {}",
            failure_dir().join(format!("{name}.vcd")).display()
        )
    })
}

/// Free traces (any input on every port, protocol or not: idle stretches, full FIFOs, bad
/// pushes, completions of idle slots, withdraws of anything, CU resets and confirmations in any
/// order, resets), 64 cases of up to 400 cycles, shrunk on a failure.
#[test]
fn rtl_lockstep_free_traces() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let cycles = AtomicUsize::new(0);
    let t = std::time::Instant::now();
    run_cases(64, &free_trace_strategy(400), |tr| {
        cycles.fetch_add(tr.len(), Ordering::Relaxed);
        rtl_lockstep("dispatcher_tagged_free", tr, false)
    });
    eprintln!(
        "dispatcher_tagged RustHDL lockstep (free traces): {} cycles in {:.1} s",
        cycles.load(Ordering::Relaxed),
        t.elapsed().as_secs_f64()
    );
}

/// Front-end-like traces (`random_run`: the model in the loop, every new event), judged by the
/// tagged spec checker as well: 3 seeds × 2500 cycles.
#[test]
fn rtl_lockstep_front_end_traces_pass_the_spec_checker() {
    for seed in 11..=13 {
        let (ins, outs) = random_run(seed, 2500);
        let walks = count(&outs, |o| o.reclaim_done);
        let wdr = count(&outs, |o| o.wdr_valid);
        assert!(
            walks > 0 && wdr > 0,
            "seed {seed}: {walks} walks, {wdr} withdrawn"
        );
        rtl_lockstep(&format!("dispatcher_tagged_fe_{seed}"), &ins, true)
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
    }
}

/// With every new input at 0 the tagged RTL is the plain dispatcher RTL, output for output
/// (RustHDL, the plain dispatcher's standard random traces, 2 seeds × 2000 cycles).
#[test]
fn rtl_with_the_new_inputs_at_0_is_the_plain_dispatcher_rtl() {
    for seed in 1..=2 {
        let trace = DispatcherBoard::random_trace(seed, 2000);
        let mut plain = RtlSim::new(PlainRtl::new());
        let mut tagged = RtlSim::new(DispatcherTagged::new());
        let mut history: Vec<(DispOut, DispOut)> = vec![];
        let mut records = 0;
        for (c, i) in trace.iter().enumerate() {
            let a = plain.step(i);
            let b = tagged.step(&TaggedIn::from(i.clone()));
            records += usize::from(a.disp_valid);
            let same = a == b.base;
            history.push((b.base.clone(), a));
            if !same {
                panic!(
                    "{}",
                    cycle_table(&trace, &history, c, "tagged (rtl) vs plain (model column)")
                );
            }
        }
        assert!(records > 100, "seed {seed}: {records} records");
    }
}

/// A long free trace on the export under Verilator, equal to the model every cycle (the
/// registry suite runs 10^6 cycles of the front-end-like stream with the spec checker).
#[test]
fn verilator_free_trace_200k_cycles() {
    use proptest::strategy::{Strategy, ValueTree};
    if !testbench::verilator::tool_available("verilator") {
        return;
    }
    let mut runner = testbench::unit::seeded_runner(5);
    let mut trace = vec![];
    while trace.len() < 200_000 {
        let t = free_trace_strategy(2000)
            .new_tree(&mut runner)
            .expect("a trace")
            .current();
        trace.extend(t);
    }
    let got =
        testbench::verilator::replay(&hdl::dispatcher_tagged::verilog(), &TaggedPorts, &trace)
            .expect("Verilator replay");
    let mut model = TaggedDispatcher::new(TaggedConfig::board());
    compare_trace(&mut model, &trace, &got).unwrap_or_else(|e| panic!("{e}"));
    let walks = count(&got, |o| o.reclaim_done);
    let wdr = count(&got, |o| o.wdr_valid);
    let flushes = trace.iter().filter(|i| i.cu_reset).count();
    eprintln!(
        "free trace: {} cycles, {walks} walks, {wdr} withdrawn, {flushes} flushes",
        trace.len()
    );
    assert!(walks > 100 && wdr > 100 && flushes > 100);
}

/// The interactions the RTL runs exercise: on the first 200 000 cycles of the registry's trace
/// (`random_run(2026, ..)`, a prefix of the 10^6-cycle Verilator run of `tests/units.rs`), count
/// from the model's state before each cycle: flushes that compact (a class-0 WG behind a class-1
/// one in the BE channel), flushes with a push in the same cycle, walks that free BE WGs, a walk
/// visit meeting a completion of the same BE slot, RT completions during a walk, withdraw runs
/// (pops in consecutive cycles), withdraws of a split head's remaining sub-WGs.
#[test]
fn coverage_of_the_registry_trace() {
    let (ins, outs) = random_run(2026, 200_000);
    let mut m = TaggedDispatcher::new(TaggedConfig::board());
    let (mut compact, mut flush_push, mut walk_frees, mut collide, mut rt_cpl_walk) =
        (0, 0, 0, 0, 0);
    let (mut wd_runs, mut wd_split) = (0, 0);
    let mut walk_t0: Option<usize> = None;
    // BE kslots with a sub-WG recorded and no last record yet
    let mut split_open = [false; 8];
    for (k, i) in ins.iter().enumerate() {
        let q = m.queued_tags(BE_CHANNEL);
        let live = m.in_flight();
        if i.cu_reset && !i.base.reset {
            let first_be = q.iter().position(|t| t.class == BE);
            if first_be.is_some_and(|p| q[p..].iter().any(|t| t.class == RT)) {
                compact += 1;
            }
            if i.base.push_valid && i.base.push_channel == BE_CHANNEL as u32 {
                flush_push += 1;
            }
        }
        if let Some(t0) = walk_t0 {
            let s = k - t0 - 1;
            if i.base.done_valid
                && i.base.done_slot as usize == s
                && live.iter().any(|&(x, t)| x == s && t.class == BE)
            {
                collide += 1;
            }
        }
        let o = m.step(i);
        assert_eq!(o, outs[k]);
        if i.base.reset {
            walk_t0 = None;
            split_open = [false; 8];
            continue;
        }
        if o.reclaim_done {
            walk_t0 = None;
        }
        if i.cu_reset_done && !o.reclaim_busy && walk_t0.is_none() {
            walk_t0 = Some(k);
            if live.iter().any(|(_, t)| t.class == BE) {
                walk_frees += 1;
            }
        }
        if o.cpl_valid && o.cpl_class == RT && o.reclaim_busy {
            rt_cpl_walk += 1;
        }
        if o.wdr_valid && k > 0 && outs[k - 1].wdr_valid {
            wd_runs += 1;
        }
        if i.cu_reset {
            split_open = [false; 8];
        }
        if o.base.disp_valid && o.disp_class == BE {
            split_open[o.disp_kslot as usize] = o.base.disp_sub && !o.disp_last;
        }
        // (a split head stays at the front until its last sub-WG: a report while its kernel has
        // a split open withdrew that head's remaining sub-WGs)
        if o.wdr_valid && split_open[o.wdr_kslot as usize] {
            wd_split += 1;
            split_open[o.wdr_kslot as usize] = false;
        }
    }
    eprintln!(
        "flushes compacting {compact}, with a push {flush_push}; walks freeing BE WGs {walk_frees}; walk visit = completion {collide}; RT completions in a walk {rt_cpl_walk}; withdraw runs {wd_runs}; withdrawn split heads {wd_split}"
    );
    assert!(compact > 20 && flush_push > 20 && walk_frees > 100 && rt_cpl_walk > 100);
    // a walk visit meeting a completion of the same BE slot is outside the protocol (no BE
    // completion after `cu_reset_done`): the free traces drive it, this stream does not
    assert_eq!(collide, 0);
    assert!(wd_runs > 20 && wd_split > 0);
}
