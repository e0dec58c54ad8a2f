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

use golden_model::dispatcher::tagged::{Tag, TaggedOut, BE, BE_CHANNEL, RT};
use golden_model::dispatcher::{DispError, Wg};
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

/// The corner family (`testbench::dispatcher_tagged::corner_run`, the registry's
/// `corner_trace`: `synth mutate` runs 12 traces after its random ones) at mutate's trace seeds
/// of seeds 1..=3 (1000 · S + 500 + k, k < 2, 8000 cycles): the spec checker passes the model,
/// the export under Verilator equals the model every cycle, and the traces do what they are
/// for — decisions taken with exactly two kernel slots free followed at once by a record on the
/// other module (the slot table's "two slots free" lookahead decides whether the second may
/// come), with most slots as the higher free one, decisions with both heads queued, and
/// sparse segments opened by a reset.
#[test]
fn corner_family_passes_the_checker_and_decides_from_two_free_slots() {
    use testbench::dispatcher_tagged::{corner_run, DispatcherTaggedBoard};
    let verilator = testbench::verilator::tool_available("verilator");
    let (mut back_to_back, mut contended, mut resets) = (0usize, 0usize, 0usize);
    let mut second_free = [0usize; 8];
    for s in 1..=3u64 {
        for k in 0..2 {
            let seed = 1000 * s + 500 + k;
            let (ins, outs) = corner_run(seed, 8000);
            let mut chk = TaggedChecker::new(TaggedConfig::board());
            judge(&mut chk, &ins, &outs).unwrap_or_else(|v| panic!("corner {seed}: {v}"));
            if verilator {
                let got = testbench::verilator::replay(
                    &DispatcherTaggedBoard::verilog(),
                    &TaggedPorts,
                    &ins,
                )
                .expect("Verilator replay");
                if let Some(c) = (0..outs.len()).find(|&c| got[c] != outs[c]) {
                    panic!("corner {seed}: the export differs from the model in cycle {c}");
                }
            }
            resets += ins.iter().filter(|i| i.base.reset).count();
            // per cycle before its step: the free slots, and whether both channels queue a WG
            let mut m = TaggedDispatcher::new(TaggedConfig::board());
            let (mut free, mut both) = (vec![], vec![]);
            for i in &ins {
                let busy: Vec<usize> = m.in_flight().into_iter().map(|x| x.0).collect();
                free.push((0..8).filter(|s| !busy.contains(s)).collect::<Vec<usize>>());
                both.push(!m.queued_tags(0).is_empty() && !m.queued_tags(BE_CHANNEL).is_empty());
                m.step(i);
            }
            for c in 2..outs.len() - 1 {
                let (d, e) = (&outs[c].base, &outs[c + 1].base);
                if !d.disp_valid {
                    continue;
                }
                // the record of cycle c is the decision of cycle c - 1, on the state before it
                contended += usize::from(both[c - 1]);
                let f = &free[c - 1];
                if f.len() == 2 && e.disp_valid && e.disp_module != d.disp_module {
                    back_to_back += 1;
                    second_free[f[1]] += 1;
                }
            }
        }
    }
    let counts = format!(
        "{back_to_back} back-to-back decisions from two free slots (by the higher free slot: \
         {second_free:?}), {contended} decisions with both heads queued, {resets} resets"
    );
    println!("{counts}");
    assert!(
        back_to_back >= 100
            && second_free[1..].iter().filter(|&&n| n > 0).count() >= 6
            && contended >= 1000
            && resets >= 30,
        "{counts}"
    );
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

/// No push in cycles a..b: a WG the corruption keeps queued is then not judged by SPEC Unit 3's
/// `push-ready` (a full channel taken for one with room) before the new rule names it.
fn no_push(ins: &[TaggedIn], a: usize, b: usize) -> bool {
    ins[a..b].iter().all(|i| !i.base.push_valid)
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
fn spec_rejects_a_completion_echo_without_a_completion_cpl_echo() {
    let (ins, mut outs) = base_run();
    let k = (2..outs.len())
        .find(|&k| !outs[k].cpl_valid && !ins[k - 1].base.done_valid && !ins[k - 1].base.reset)
        .unwrap();
    outs[k].cpl_valid = true;
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

/// Try the corruption at each candidate cycle in turn (at most 60): the first one whose first
/// violation is `rule` passes; SPEC Unit 3's rules may name a corruption first (a lost record
/// of a head that fitted is `work-conserving` when no other record came in its window, a WG
/// kept queued is `push-ready` when a push meets the full channel), so such candidates are
/// skipped.
fn assert_rule_at_some(
    ins: &[TaggedIn],
    outs: &[TaggedOut],
    rule: &str,
    cands: impl Iterator<Item = usize>,
    corrupt: impl Fn(&mut Vec<TaggedOut>, usize),
) {
    let mut seen = vec![];
    for k in cands.take(60) {
        let mut bad = outs.to_vec();
        corrupt(&mut bad, k);
        let v = first_violation(ins, &bad)
            .unwrap_or_else(|| panic!("{rule}: mutation at {k} not caught"));
        if v.rule == rule {
            eprintln!("{rule}: {v}");
            return;
        }
        seen.push(format!("{k}: {v}"));
    }
    panic!("{rule}: never named first: {seen:#?}");
}

#[test]
fn spec_rejects_a_lost_wg_dropped() {
    let (ins, outs) = base_run();
    // an RT record followed by another RT record before its slot completes
    let cands = (1..outs.len()).filter(|&k| {
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
            && no_push(&ins, k, n + 1)
    });
    assert_rule_at_some(&ins, &outs, "dropped", cands, |outs, k| {
        outs[k].base = golden_model::dispatcher::DispOut {
            push_ready: outs[k].base.push_ready,
            error: outs[k].base.error,
            error_code: outs[k].base.error_code,
            ..Default::default()
        };
        outs[k].disp_class = 0;
        outs[k].disp_kslot = 0;
        outs[k].disp_last = false;
    });
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
    let (ins, outs) = base_run();
    // the last report of a run, with no new command or reset soon after
    let cands = (1..outs.len() - 20).filter(|&k| {
        outs[k].wdr_valid && !outs[k + 1].wdr_valid && window_quiet(&ins, k - 1, k + 12)
    });
    assert_rule_at_some(&ins, &outs, "withdraw-all", cands, |outs, k| {
        outs[k].wdr_valid = false;
        outs[k].wdr_kslot = 0;
    });
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
    // completion after `cu_reset_done`): the free traces drive it; this stream never (its
    // bad-input completion names an idle slot since session 7)
    assert_eq!(
        collide, 0,
        "{collide} walk visits met a completion of the same BE slot"
    );
    assert!(wd_runs > 20 && wd_split > 0);
}

// ------------------------------ SPEC Unit 3 (placement, records, errors) on tagged traces

/// The checker passes the model on the 12 traces of `synth mutate` at seeds 3 and 6 (trace
/// seeds 1000·S + 0..12, 8000 cycles each: withdraws, flushes, reclaim walks, splits).
#[test]
fn spec_checker_passes_the_model_on_the_mutate_traces() {
    for seed in (0..12).map(|k| 3000 + k).chain((0..12).map(|k| 6000 + k)) {
        let (ins, outs) = random_run(seed, 8000);
        judge(&mut TaggedChecker::new(TaggedConfig::board()), &ins, &outs)
            .unwrap_or_else(|v| panic!("trace seed {seed}: {v}"));
    }
}

/// A directed tagged board trace from reset: `(cycle, input)` pairs, idle elsewhere.
fn tscenario(len: usize, events: &[(usize, TaggedIn)]) -> Vec<TaggedIn> {
    let mut t = vec![TaggedIn::default(); len];
    t[0].base.reset = true;
    for (c, i) in events {
        t[*c] = i.clone();
    }
    t
}

fn tmodel(trace: &[TaggedIn]) -> Vec<TaggedOut> {
    let mut m = TaggedDispatcher::new(TaggedConfig::board());
    trace.iter().map(|i| m.step(i)).collect()
}

/// A dependent WG.
fn twg(id: u32, prio: usize, waves: usize, vgpr: usize, sgpr: usize, lds: usize) -> Wg {
    Wg::dependent(id, prio, waves, vgpr, sgpr, lds)
}

/// A push of `w` tagged RT (channel 0) or BE (channel 1) with kernel slot `kslot`.
fn rt(w: &Wg, kslot: u32) -> TaggedIn {
    TaggedIn::push(0, w, Tag { class: RT, kslot })
}
fn be(w: &Wg, kslot: u32) -> TaggedIn {
    TaggedIn::push(BE_CHANNEL, w, Tag { class: BE, kslot })
}

fn trecs(outs: &[TaggedOut]) -> Vec<usize> {
    (0..outs.len())
        .filter(|&c| outs[c].base.disp_valid)
        .collect()
}

/// The model's outputs pass; the corrupted ones are rejected by `rule` at `cycle`.
fn assert_tagged_rejected(
    trace: &[TaggedIn],
    corrupt: impl Fn(&mut Vec<TaggedOut>),
    rule: &str,
    cycle: usize,
) {
    let outs = tmodel(trace);
    judge(&mut TaggedChecker::new(TaggedConfig::board()), trace, &outs)
        .unwrap_or_else(|v| panic!("the model's own trace: {v}"));
    let mut bad = outs.clone();
    corrupt(&mut bad);
    let v = first_violation(trace, &bad)
        .unwrap_or_else(|| panic!("{rule}: the corruption must be rejected"));
    assert_eq!((v.rule, v.cycle), (rule, cycle), "{v}");
    eprintln!("{rule}: {v}");
}

/// One BE WG (1 wave, VGPR 1, SGPR 1, LDS 1) pushed into the BE channel in cycle 1: its record
/// is visible in cycle 5.
fn one_be() -> Vec<TaggedIn> {
    let t = tscenario(12, &[(1, be(&twg(7, 0, 1, 1, 1, 1), 2))]);
    assert_eq!(trecs(&tmodel(&t)), vec![5]);
    t
}

/// A record cleared: nothing else records.
fn no_record(o: &TaggedOut) -> TaggedOut {
    TaggedOut {
        base: DispOut {
            push_ready: o.base.push_ready,
            ..DispOut::default()
        },
        room: o.room,
        ..TaggedOut::default()
    }
}

#[test]
fn spec_tagged_rejects_a_missing_be_record_work_conserving() {
    assert_tagged_rejected(&one_be(), |o| o[5] = no_record(&o[5]), "work-conserving", 5);
}

#[test]
fn spec_tagged_rejects_a_be_record_too_early_record_head() {
    assert_tagged_rejected(
        &one_be(),
        |o| {
            o[2] = TaggedOut {
                base: DispOut {
                    push_ready: o[2].base.push_ready,
                    ..o[5].base.clone()
                },
                room: o[2].room,
                ..o[5].clone()
            };
            o[5] = no_record(&o[5]);
        },
        "record-head",
        2,
    );
}

#[test]
fn spec_tagged_rejects_a_sub_wg_of_a_dependent_be_wg_split() {
    let t = tscenario(12, &[(1, be(&twg(7, 0, 2, 1, 1, 1), 2))]);
    assert_tagged_rejected(
        &t,
        |o| {
            o[5].base.disp_sub = true;
            o[5].base.disp_waves = 1;
            o[5].disp_last = false;
        },
        "split",
        5,
    );
}

#[test]
fn spec_tagged_rejects_a_wrong_wave_split_wave_split() {
    assert_tagged_rejected(
        &one_be(),
        |o| o[5].base.disp_waves = 1 << 3,
        "wave-split",
        5,
    );
}

#[test]
fn spec_tagged_rejects_a_slot_that_is_not_the_lowest_free_slot() {
    assert_tagged_rejected(&one_be(), |o| o[5].base.disp_slot = 3, "slot", 5);
}

#[test]
fn spec_tagged_rejects_a_module_out_of_range_record_unfit() {
    assert_tagged_rejected(&one_be(), |o| o[5].base.disp_module = 2, "record-unfit", 5);
}

#[test]
fn spec_tagged_rejects_a_region_above_the_first_fit_first_fit() {
    assert_tagged_rejected(&one_be(), |o| o[5].base.disp_vgpr_base = 1, "first-fit", 5);
}

#[test]
fn spec_tagged_rejects_a_module_the_policy_forbids_module_policy() {
    let t = tscenario(12, &[(1, be(&twg(7, 0, 1, 0, 0, 0), 2))]);
    assert_tagged_rejected(&t, |o| o[5].base.disp_module = 1, "module-policy", 5);
}

#[test]
fn spec_tagged_rejects_a_refused_push_with_room_push_ready() {
    assert_tagged_rejected(
        &one_be(),
        |o| {
            o[1].base.push_ready = false;
            o[1].room &= !(1 << BE_CHANNEL);
        },
        "push-ready",
        1,
    );
}

#[test]
fn spec_tagged_rejects_a_wrong_error_code_error_code() {
    let t = tscenario(8, &[(1, be(&twg(7, 0, 0, 1, 1, 1), 2))]);
    assert_tagged_rejected(
        &t,
        |o| o[2].base.error_code = DispError::NeverFits as u8,
        "error-code",
        2,
    );
}

#[test]
fn spec_tagged_rejects_record_fields_without_a_record_idle_outputs() {
    assert_tagged_rejected(
        &one_be(),
        |o| o[3].base.disp_lds_base = 1,
        "idle-outputs",
        3,
    );
}

#[test]
fn spec_tagged_rejects_an_error_in_the_cycle_after_reset_reset_idle() {
    assert_tagged_rejected(
        &one_be(),
        |o| {
            o[1].base.error = true;
            o[1].base.error_code = 3;
        },
        "reset-idle",
        1,
    );
}

/// Two BE WGs of one kernel (2 waves × 4 VGPR, then 1 wave × 4 VGPR) in the BE channel: the
/// model puts the second on module 1.
#[test]
fn spec_tagged_rejects_a_block_allocated_twice_region_free() {
    let t = tscenario(
        16,
        &[
            (1, be(&twg(1, 0, 2, 4, 0, 0), 3)),
            (2, be(&twg(2, 0, 1, 4, 0, 0), 3)),
        ],
    );
    let outs = tmodel(&t);
    let r = trecs(&outs);
    assert_eq!(
        (outs[r[0]].base.disp_module, outs[r[1]].base.disp_module),
        (0, 1)
    );
    assert_tagged_rejected(&t, |o| o[r[1]].base.disp_module = 0, "region-free", r[1]);
}

#[test]
fn spec_tagged_rejects_a_be_slot_in_flight_slot() {
    let t = tscenario(
        16,
        &[
            (1, be(&twg(1, 0, 2, 4, 0, 0), 3)),
            (2, be(&twg(2, 0, 1, 4, 0, 0), 3)),
        ],
    );
    let r = trecs(&tmodel(&t));
    assert_tagged_rejected(
        &t,
        |o| o[r[1]].base.disp_slot = o[r[0]].base.disp_slot,
        "slot",
        r[1],
    );
}

/// Both modules full (an RT WG and a BE WG take all LDS), RT WG 3 (priority 1) waits in
/// channel 0 and BE WG 4 (priority 0) in the BE channel; the RT WG completes in cycle 12.
fn rt_be_blocked(extra: &[(usize, TaggedIn)]) -> Vec<TaggedIn> {
    let mut ev = vec![
        (1, rt(&twg(1, 0, 1, 0, 0, 16), 0)),
        (2, be(&twg(2, 0, 1, 0, 0, 16), 5)),
        (4, rt(&twg(3, 1, 1, 0, 0, 1), 1)),
        (5, be(&twg(4, 0, 1, 0, 0, 1), 6)),
        (12, TaggedIn::from(DispIn::done(0))),
    ];
    ev.extend(extra.iter().cloned());
    tscenario(30, &ev)
}

#[test]
fn spec_tagged_rejects_an_rt_pick_over_a_better_be_head_pick_priority() {
    let t = rt_be_blocked(&[]);
    let outs = tmodel(&t);
    let r = trecs(&outs);
    assert_eq!(
        r.iter().map(|&c| outs[c].base.disp_id).collect::<Vec<_>>(),
        vec![1, 2, 4, 3]
    );
    // RT WG 3 first, with BE WG 4's placement (the same shape)
    assert_tagged_rejected(
        &t,
        |o| {
            o[r[2]].base.disp_id = 3;
            o[r[2]].disp_class = RT;
            o[r[2]].disp_kslot = 1;
        },
        "pick-priority",
        r[2],
    );
}

/// While a CU reset is open the BE head is held: the RT WG behind it is picked, which plain
/// SPEC Unit 3 would call a priority inversion. The checker accepts it; a BE record in the
/// same place is `reclaim-hold`.
#[test]
fn spec_tagged_accepts_an_rt_pick_while_the_be_head_is_held() {
    let t = rt_be_blocked(&[
        (
            10,
            TaggedIn {
                cu_reset: true,
                ..TaggedIn::default()
            },
        ),
        (
            20,
            TaggedIn {
                cu_reset_done: true,
                ..TaggedIn::default()
            },
        ),
    ]);
    let outs = tmodel(&t);
    let r = trecs(&outs);
    // WG 4 was flushed: WG 3 is recorded after WG 1's completion
    assert_eq!(
        r.iter().map(|&c| outs[c].base.disp_id).collect::<Vec<_>>(),
        vec![1, 2, 3]
    );
    judge(&mut TaggedChecker::new(TaggedConfig::board()), &t, &outs).unwrap();
}

/// A BE WG in slot 0 killed by a CU reset: the walk frees its slot, and a completion of that
/// slot afterwards is `IDLE_SLOT` (SPEC Unit 3's table follows the walk).
#[test]
fn spec_tagged_rejects_an_accepted_completion_of_a_reclaimed_slot_error_code() {
    let t = tscenario(
        30,
        &[
            (1, be(&twg(7, 0, 1, 1, 1, 1), 2)),
            (
                8,
                TaggedIn {
                    cu_reset: true,
                    ..TaggedIn::default()
                },
            ),
            (
                10,
                TaggedIn {
                    cu_reset_done: true,
                    ..TaggedIn::default()
                },
            ),
            (22, TaggedIn::from(DispIn::done(0))),
        ],
    );
    let outs = tmodel(&t);
    assert_eq!(trecs(&outs), vec![5]);
    assert_eq!(outs[23].base.error_code, DispError::IdleSlot as u8);
    assert_tagged_rejected(
        &t,
        |o| {
            o[23].base.error = false;
            o[23].base.error_code = 0;
        },
        "error-code",
        23,
    );
}

/// A record into slot 0 while the walk has not yet freed the BE WG there: `slot`.
#[test]
fn spec_tagged_rejects_a_record_into_a_slot_before_the_walk_frees_it_slot() {
    let t = tscenario(
        30,
        &[
            (1, be(&twg(7, 0, 1, 1, 1, 1), 2)),
            (
                8,
                TaggedIn {
                    cu_reset: true,
                    ..TaggedIn::default()
                },
            ),
            (9, rt(&twg(8, 0, 1, 1, 1, 1), 1)),
            (
                12,
                TaggedIn {
                    cu_reset_done: true,
                    ..TaggedIn::default()
                },
            ),
        ],
    );
    let outs = tmodel(&t);
    let r = trecs(&outs);
    assert_eq!(r.len(), 2);
    assert!(
        r[1] <= 13,
        "the RT record {} comes before the walk visits slot 0",
        r[1]
    );
    assert_eq!(outs[r[1]].base.disp_slot, 1);
    assert_tagged_rejected(&t, |o| o[r[1]].base.disp_slot = 0, "slot", r[1]);
}

/// A tie of an RT head and a BE head (priority 0), both waiting until WG 1 completes in
/// `done`: the winner replaced by the loser (ids and tags swapped, same placement) is
/// `tie-lfsr` for the first completion cycle in 12..40 whose LFSR decides it.
#[test]
fn spec_tagged_rejects_an_rt_be_tie_against_the_lfsr_tie_lfsr() {
    let mut hit = None;
    for done in 12..40 {
        let t = tscenario(
            done + 16,
            &[
                (1, rt(&twg(1, 0, 1, 0, 0, 16), 0)),
                (2, be(&twg(2, 0, 1, 0, 0, 16), 5)),
                (4, rt(&twg(3, 0, 1, 0, 0, 1), 1)),
                (5, be(&twg(4, 0, 1, 0, 0, 1), 6)),
                (done, TaggedIn::from(DispIn::done(0))),
            ],
        );
        let outs = tmodel(&t);
        judge(&mut TaggedChecker::new(TaggedConfig::board()), &t, &outs)
            .unwrap_or_else(|v| panic!("done {done}, the model's trace: {v}"));
        let r = trecs(&outs);
        assert_eq!(r.len(), 4, "done {done}");
        let mut bad = outs.clone();
        let (a, b) = (outs[r[2]].clone(), outs[r[3]].clone());
        for (x, y) in [(r[2], &b), (r[3], &a)] {
            bad[x].base.disp_id = y.base.disp_id;
            bad[x].disp_class = y.disp_class;
            bad[x].disp_kslot = y.disp_kslot;
        }
        if let Some(v) = first_violation(&t, &bad) {
            assert!(v.rule == "tie-lfsr" && v.cycle == r[2], "done {done}: {v}");
            hit = Some(done);
            break;
        }
    }
    assert!(
        hit.is_some(),
        "no completion cycle in 12..40 made the swap a tie-lfsr violation"
    );
}

/// Emb. 3's counter holds while a head is held (the contract's step 1: a hold reads as a head
/// replaced at the last edge). RT WG 3 (8 independent waves, 12 VGPR blocks per unit) fits
/// nowhere from cycle 5 on (WGs 1 and 2 took 6 VGPR blocks per unit and the whole LDS of each
/// module); a BE WG pushed after a `cu_reset` in cycle 6 is held until the walk after the
/// confirmation in cycle 60 ends, so the model splits WG 3 only SPLIT_THRESHOLD (20) counted
/// cycles after that. The same first sub-WG record in cycle 40, with only the few cycles before
/// the hold counted, is `split` (a count that ran on through the held cycles would reach 20).
#[test]
fn spec_tagged_rejects_a_split_counted_through_held_cycles_split() {
    let wide = |id| twg(id, 0, 2, 6, 0, 16);
    let mut w3 = twg(3, 0, 8, 3, 0, 0);
    w3.indep = true;
    let t = tscenario(
        120,
        &[
            (
                1,
                TaggedIn::from(DispIn::cfg(
                    golden_model::dispatcher::reg::SPLIT_THRESHOLD,
                    20,
                )),
            ),
            (2, rt(&wide(1), 0)),
            (3, rt(&wide(2), 0)),
            (4, rt(&w3, 1)),
            (
                6,
                TaggedIn {
                    cu_reset: true,
                    ..TaggedIn::default()
                },
            ),
            (7, be(&twg(4, 0, 1, 1, 0, 1), 2)),
            (
                60,
                TaggedIn {
                    cu_reset_done: true,
                    ..TaggedIn::default()
                },
            ),
        ],
    );
    let outs = tmodel(&t);
    let r = trecs(&outs);
    // WG 1, WG 2, then WG 3's one-wave sub-WGs after the walk
    assert!(r.len() >= 3, "records {r:?}");
    assert!(outs[r[2]].base.disp_sub && outs[r[2]].base.disp_id == 3);
    assert!(r[1] < 40 && r[2] > 70, "records {r:?}");
    let first_sub = r[2];
    assert_tagged_rejected(
        &t,
        |o| {
            let moved = TaggedOut {
                base: DispOut {
                    push_ready: o[40].base.push_ready,
                    ..o[first_sub].base.clone()
                },
                room: o[40].room,
                ..o[first_sub].clone()
            };
            o[40] = moved;
            o[first_sub] = no_record(&o[first_sub]);
        },
        "split",
        40,
    );
}
