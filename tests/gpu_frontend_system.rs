//! GPU scheduling front-end as a system (SPEC Unit 8): the composed golden model
//! (`golden_model::gpu_frontend`), the GPU behavioural model and kernel streams
//! (`golden_model::gpu_model`), judged every cycle by the system spec checker
//! (`testbench::spec::gpu_frontend`) and by each unit's own checker on its internal ports
//! (the model's probe): random streams over several seeds, preempt storms, resets during a
//! reclaim, bad inputs, a drain that gives every resource back, a coverage count of every
//! interaction, a negative test per system rule, and the evaluation's qualitative outcome.

use golden_model::gpu_frontend::{GfIn, GfOut, Kernel};
use golden_model::gpu_model::system::{SysParams, SysStats, System};
use golden_model::CycleModel;
use testbench::gpu_frontend::gf_seeds;
use testbench::gpu_frontend_probe::UnitCheckers;
use testbench::spec::gpu_frontend::{SysConfig, SystemSpec};
use testbench::spec::{SpecChecker, Violation};

/// A recorded trace of the front-end's ports.
struct Trace {
    ins: Vec<GfIn>,
    outs: Vec<GfOut>,
    stats: SysStats,
}

/// Run `cycles` cycles (calling `poke` before each), then stop the stream and drain; every
/// cycle is judged by the system checker and the three unit checkers on the internal ports.
fn run(p: SysParams, cycles: u64, mut poke: impl FnMut(&mut System)) -> Result<Trace, Violation> {
    let mut sys = System::new(p);
    let mut spec = SystemSpec::board();
    let mut units = UnitCheckers::default();
    let (mut ins, mut outs) = (vec![], vec![]);
    let mut quiet_for = 0;
    let mut c = 0usize;
    loop {
        if c as u64 == cycles {
            sys.src.stop();
        }
        if (c as u64) < cycles {
            poke(&mut sys);
        }
        let (i, o) = sys.step();
        spec.check(c, &i, &o)?;
        units
            .check(c, sys.fe.probe())
            .map_err(|(u, v)| Violation::new(v.cycle, v.rule, format!("{u}: {}", v.detail)))?;
        ins.push(i);
        outs.push(o);
        c += 1;
        if c as u64 > cycles {
            quiet_for = if sys.quiet() { quiet_for + 1 } else { 0 };
            if quiet_for > 20 {
                break;
            }
            assert!(
                (c as u64) < cycles + 400_000,
                "the system did not drain: {} kernels outstanding, {} records held",
                sys.src.outstanding(),
                sys.gpu.holding()
            );
        }
    }
    spec.finish_drained(c)?;
    assert!(
        sys.fe.dispatcher().idle(),
        "drained: every map, wave slot and slot back"
    );
    Ok(Trace {
        ins,
        outs,
        stats: sys.stats.clone(),
    })
}

fn judge(ins: &[GfIn], outs: &[GfOut], cfg: SysConfig) -> Result<(), Violation> {
    let mut spec = SystemSpec::new(cfg);
    for (c, (i, o)) in ins.iter().zip(outs).enumerate() {
        spec.check(c, i, o)?;
    }
    spec.finish_drained(ins.len())
}

/// After a drain: a kernel of two full-size WGs (8 waves, every VGPR, SGPR and LDS block of a
/// module each) is dispatched to both modules at once and completes: every resource is back.
fn full_size_probe(sys: &mut System, spec: &mut SystemSpec, mut c: usize) {
    let k = Kernel {
        kid: 200,
        class: 0,
        idem: true,
        wgs: 2,
        waves: 8,
        vgpr: 4,
        sgpr: 2,
        lds: 16,
        indep: false,
    };
    let mut recs = vec![];
    let mut launched = false;
    let mut done = false;
    for _ in 0..200 {
        let mut i = if launched {
            GfIn::default()
        } else {
            GfIn::launch(&k)
        };
        if let Some(&(s, at)) = recs.first() {
            if c >= at + 20 && !done {
                i.done_valid = true;
                i.done_slot = s;
                recs.remove(0);
            }
        }
        let o = sys.fe.step(&i);
        spec.check(c, &i, &o).unwrap();
        launched |= o.launch_ready;
        if o.disp_valid {
            recs.push((o.disp_slot, c));
        }
        done |= o.kernel_done_valid && o.kernel_done_kid == 200;
        c += 1;
    }
    assert!(
        done,
        "the full-size kernel completed: every resource came back"
    );
}

fn busy_bad(seed: u64) -> SysParams {
    let mut p = SysParams::busy(seed);
    p.stream.bad = 0.1;
    p
}

#[test]
fn random_streams_pass_the_system_checker_and_drain() {
    for seed in gf_seeds() {
        let t = run(SysParams::busy(seed), 100_000, |_| {})
            .unwrap_or_else(|v| panic!("seed {seed}: {v}"));
        assert!(
            t.stats.kernel_done[0] > 50 && t.stats.kernel_done[1] > 20,
            "seed {seed}: {:?}",
            t.stats.kernel_done
        );
    }
    // the probe after a drain, on a fresh system that ran a stream
    let mut sys = System::new(SysParams::busy(5));
    let mut spec = SystemSpec::board();
    let mut c = 0;
    while c < 20_000 || !sys.quiet() {
        if c == 20_000 {
            sys.src.stop();
        }
        let (i, o) = sys.step();
        spec.check(c, &i, &o).unwrap();
        c += 1;
        assert!(c < 400_000);
    }
    spec.finish_drained(c).unwrap();
    full_size_probe(&mut sys, &mut spec, c);
}

#[test]
fn preempt_storms_with_auto_preempt_off() {
    for seed in 1..=3 {
        let mut p = SysParams::busy(seed);
        p.auto_preempt = false;
        p.storm = 0.01;
        let t = run(p, 60_000, |_| {}).unwrap_or_else(|v| panic!("seed {seed}: {v}"));
        assert!(
            t.stats.host_preempts > 20 && t.stats.host_resumes > 20,
            "{:?}",
            t.stats
        );
        assert!(t.stats.kernel_done[1] > 10);
    }
}

#[test]
fn resets_during_a_reclaim_walk() {
    for seed in 1..=3 {
        let mut resets = 0;
        let t = run(SysParams::busy(seed), 60_000, |sys| {
            if sys.last().reclaim_busy && resets < 5 {
                resets += 1;
                sys.reset_next();
            }
        })
        .unwrap_or_else(|v| panic!("seed {seed}: {v}"));
        assert_eq!(resets, 5, "seed {seed}: five resets during a walk");
        assert!(t.ins.iter().filter(|i| i.reset).count() == 5);
    }
}

#[test]
fn bad_launches_get_their_error_and_change_nothing() {
    for seed in 1..=3 {
        let t = run(busy_bad(seed), 60_000, |_| {}).unwrap_or_else(|v| panic!("seed {seed}: {v}"));
        let gf = t.outs.iter().filter(|o| o.error).count();
        let dup = t
            .outs
            .iter()
            .filter(|o| {
                (o.pc_error && o.pc_error_code == 1) || (o.exp_error && o.exp_error_code == 1)
            })
            .count();
        assert!(
            gf > 0 && dup > 0,
            "seed {seed}: {gf} launch errors, {dup} DUP_ID"
        );
    }
}

#[test]
fn coverage_of_every_interaction() {
    let (
        mut skips,
        mut resets,
        mut reclaimed,
        mut rt_reclaim,
        mut resub,
        mut wsplit,
        mut split,
        mut waits,
    ) = (0, 0, 0, 0, 0, 0, 0, 0);
    for seed in 1..=4 {
        let t = run(SysParams::busy(seed), 100_000, |_| {}).unwrap();
        let s = &t.stats;
        skips += s.skips;
        resets += s.cu_resets;
        reclaimed += s.reclaimed;
        rt_reclaim += s.rt_during_reclaim;
        resub += s.resubmitted;
        wsplit += s.withdraw_split;
        split += s.split_records;
        waits += s.done_waits;
    }
    println!(
        "skips {skips}, CU resets {resets}, BE WGs reclaimed {reclaimed}, RT launches during a reset/reclaim {rt_reclaim}, resubmissions {resub}, withdraws across a split {wsplit}, split records {split}, done waits {waits}"
    );
    assert!(skips > 0 && resets > 0 && reclaimed > 0 && rt_reclaim > 0 && resub > 0);
    assert!(split > 0);
}

// ---- negative tests: a corrupted trace breaks exactly the named rule at the named cycle ----

fn clean() -> Trace {
    run(SysParams::busy(1), 30_000, |_| {}).unwrap()
}

fn expect(ins: &[GfIn], outs: &[GfOut], rule: &str, cycle: Option<usize>) {
    let e = judge(ins, outs, SysConfig::board()).expect_err("the corrupted trace must fail");
    assert_eq!(e.rule, rule, "{e}");
    if let Some(c) = cycle {
        assert_eq!(e.cycle, c, "{e}");
    }
}

#[test]
fn negative_idle_fields_zero() {
    let mut t = clean();
    let c = (10..).find(|&c| !t.outs[c].disp_valid).unwrap();
    t.outs[c].disp_id = 5;
    expect(&t.ins, &t.outs, "idle-fields-zero", Some(c));
}

#[test]
fn negative_error_unexpected_and_unit_error() {
    let t = clean();
    let c = (10..)
        .find(|&c| !t.outs[c].error && !t.outs[c].exp_error)
        .unwrap();
    let mut o = t.outs.clone();
    o[c].error = true;
    o[c].error_code = 1;
    expect(&t.ins, &o, "error-unexpected", Some(c));
    let mut o = t.outs.clone();
    o[c].exp_error = true;
    o[c].exp_error_code = 3;
    expect(&t.ins, &o, "unit-error", Some(c));
}

/// `unit-error`'s excuses are per source: a Unit 4 `BAD_STATE` is not excused by a write to a
/// dispatcher register or by a host `preempt` while `AUTO_PREEMPT` = 1 (the host's strobes are
/// ignored then), a dispatcher `BAD_CFG` not by a write to `MAX_INFLIGHT` (session 22: each
/// excused every unit's error before; a glue fault that strobed Unit 4's `preempt` after a reset
/// hid behind the stream's first register write).
#[test]
fn negative_unit_error_excuses_are_per_source() {
    let t = clean();
    let quiet = |c: usize| {
        (c - 3..=c + 3).all(|k| {
            let (i, o) = (&t.ins[k], &t.outs[k]);
            !i.cfg_we && !i.preempt && !i.resume && !i.reset && !o.pc_error && !o.disp_error
        })
    };
    let c = (100..t.ins.len() - 10)
        .find(|&c| quiet(c))
        .expect("a quiet stretch");
    for (what, addr, host, pc) in [
        ("a write to a dispatcher register", Some(0u32), false, true),
        ("a host preempt under AUTO_PREEMPT = 1", None, true, true),
        ("a write to MAX_INFLIGHT", Some(0x10), false, false),
    ] {
        let mut ins = t.ins.clone();
        if let Some(a) = addr {
            ins[c].cfg_we = true;
            ins[c].cfg_addr = a;
            ins[c].cfg_data = if a == 0x10 { 4 } else { 1 };
        }
        ins[c].preempt = host;
        let mut o = t.outs.clone();
        if pc {
            o[c + 1].pc_error = true;
            o[c + 1].pc_error_code = 3;
        } else {
            o[c + 1].disp_error = true;
            o[c + 1].disp_error_code = 5;
        }
        let e = judge(&ins, &o, SysConfig::board()).expect_err(what);
        assert_eq!((e.rule, e.cycle), ("unit-error", c + 1), "{what}: {e}");
    }
}

#[test]
fn negative_launch_error_and_dup_error() {
    let t = run(busy_bad(1), 30_000, |_| {}).unwrap();
    let c = (1..t.outs.len()).find(|&c| t.outs[c].error).unwrap();
    let mut o = t.outs.clone();
    o[c].error = false;
    o[c].error_code = 0;
    expect(&t.ins, &o, "launch-error", Some(c));
    let mut hit = 0;
    for c in (1..t.outs.len()).filter(|&c| t.outs[c].exp_error || t.outs[c].pc_error) {
        let mut o = t.outs.clone();
        o[c].exp_error = false;
        o[c].exp_error_code = 0;
        o[c].pc_error = false;
        o[c].pc_error_code = 0;
        if let Err(e) = judge(&t.ins, &o, SysConfig::board()) {
            assert_eq!(e.rule, "dup-error", "{e}");
            assert!(e.cycle >= c);
            hit += 1;
        }
    }
    assert!(hit > 0, "some DUP_ID removed is caught");
}

#[test]
// the search condition reads as the cases it excludes
#[allow(clippy::nonminimal_bool)]
fn negative_bad_cpl_error() {
    let t = clean();
    let c = (10..t.ins.len() - 2)
        .find(|&c| {
            t.ins[c].done_valid
                && !t.ins[c + 1].done_valid
                && !(t.outs[c + 1].disp_valid && t.outs[c + 1].disp_slot == t.ins[c].done_slot)
                && !t.outs[c].disp_valid
        })
        .unwrap();
    let mut i = t.ins.clone();
    i[c + 1].done_valid = true;
    i[c + 1].done_slot = t.ins[c].done_slot;
    expect(&i, &t.outs, "bad-cpl-error", Some(c + 2));
}

#[test]
fn negative_done_once_and_drained() {
    let t = clean();
    let c = (10..t.outs.len() - 1)
        .find(|&c| t.outs[c].kernel_done_valid && !t.outs[c + 1].kernel_done_valid)
        .unwrap();
    let mut o = t.outs.clone();
    o[c + 1].kernel_done_valid = true;
    o[c + 1].kernel_done_kid = o[c].kernel_done_kid;
    o[c + 1].kernel_done_class = o[c].kernel_done_class;
    expect(&t.ins, &o, "done-once", Some(c + 1));
    let last = (0..t.outs.len())
        .rev()
        .find(|&c| t.outs[c].kernel_done_valid)
        .unwrap();
    let mut o = t.outs.clone();
    o[last].kernel_done_valid = false;
    o[last].kernel_done_kid = 0;
    o[last].kernel_done_class = 0;
    expect(&t.ins, &o, "drained", Some(t.ins.len()));
}

#[test]
fn negative_done_complete() {
    let t = clean();
    let mut hit = false;
    for a in (10..t.ins.len() - 3).filter(|&a| {
        let i = &t.ins[a];
        i.launch_valid && t.outs[a].launch_ready && i.launch_class == 0 && i.launch_wgs > 1
    }) {
        let c = a + 2;
        if t.outs[c].kernel_done_valid {
            continue;
        }
        let mut o = t.outs.clone();
        o[c].kernel_done_valid = true;
        o[c].kernel_done_kid = t.ins[a].launch_kid;
        o[c].kernel_done_class = 0;
        let e = judge(&t.ins, &o, SysConfig::board()).unwrap_err();
        if e.rule == "done-complete" && e.cycle == c {
            hit = true;
            break;
        }
    }
    assert!(hit, "an early kernel_done is caught as done-complete");
}

/// A copy of record `r` (a WG of `class`) injected into a later cycle.
fn inject_record(class: u32, rule: &str) {
    let t = clean();
    let mut hit = false;
    for r in (10..t.outs.len() - 400).filter(|&r| {
        let o = &t.outs[r];
        o.disp_valid && o.disp_class == class && o.disp_last
    }) {
        let slot = t.outs[r].disp_slot;
        let cpl = (r + 1..t.ins.len()).find(|&c| t.ins[c].done_valid && t.ins[c].done_slot == slot);
        let q = if rule == "wg-twice" {
            match cpl {
                Some(c) => c + 1,
                None => continue,
            }
        } else {
            r + 1
        };
        if q >= t.outs.len()
            || t.outs[q].disp_valid
            || cpl.is_some_and(|c| rule != "wg-twice" && c <= q)
        {
            continue;
        }
        let mut o = t.outs.clone();
        o[q] = GfOut {
            disp_valid: true,
            disp_id: t.outs[r].disp_id,
            disp_module: t.outs[r].disp_module,
            disp_slot: slot,
            disp_class: class,
            disp_kslot: t.outs[r].disp_kslot,
            disp_last: true,
            ..o[q].clone()
        };
        if let Err(e) = judge(&t.ins, &o, SysConfig::board()) {
            if e.rule == rule && e.cycle == q {
                hit = true;
                break;
            }
        }
    }
    assert!(hit, "an injected record is caught as {rule}");
}

/// A record next to a whole WG in flight: a copy of it (same module, bases) into a free slot
/// overlaps it (`alloc-overlap`: equal non-zero bases of one map hold the same block), and one
/// with five waves on a unit holds more than its four wave slots (`alloc-bound`); each caught in
/// the injected record's cycle.
fn inject_alloc(rule: &str) {
    let t = clean();
    let mut hit = false;
    'recs: for r in (10..t.outs.len() - 400).filter(|&r| {
        let o = &t.outs[r];
        o.disp_valid && !o.disp_sub && (o.disp_vgpr_base & 15 != 0 || rule == "alloc-bound")
    }) {
        let q = r + 1;
        if t.outs[q].disp_valid {
            continue;
        }
        for slot in 0..8 {
            let mut o = t.outs.clone();
            o[q] = GfOut {
                disp_valid: true,
                disp_slot: slot,
                disp_id: 0,
                disp_last: true,
                ..t.outs[r].clone()
            };
            if rule == "alloc-bound" {
                o[q].disp_waves = 5;
            }
            if let Err(e) = judge(&t.ins, &o, SysConfig::board()) {
                if e.rule == rule && e.cycle == q {
                    hit = true;
                    break 'recs;
                }
            }
        }
    }
    assert!(hit, "an injected record is caught as {rule}");
}

#[test]
fn negative_alloc_overlap() {
    inject_alloc("alloc-overlap");
}

#[test]
fn negative_alloc_bound() {
    inject_alloc("alloc-bound");
}

#[test]
fn negative_slot_busy() {
    inject_record(1, "slot-busy");
}

#[test]
fn negative_rt_reclaimed() {
    inject_record(0, "rt-reclaimed");
}

#[test]
fn negative_wg_twice() {
    inject_record(0, "wg-twice");
}

/// A record in a skip's orphan window that is neither the skipped attempt's next WG nor WG 0
/// of the tag's next kernel: `orphan-order` in its cycle.
#[test]
fn negative_orphan_order() {
    let t = clean();
    let mut hit = false;
    'skips: for s in (10..t.outs.len() - 20).filter(|&s| t.outs[s].kernel_skip_valid) {
        let k = t.outs[s].kernel_skip_slot;
        // the skipped attempt's last record before the skip: its next WG is `id + 1`
        let Some(r) = (0..=s).rev().find(|&r| {
            t.outs[r].disp_valid && t.outs[r].disp_class == 1 && t.outs[r].disp_kslot == k
        }) else {
            continue;
        };
        let bad = t.outs[r].disp_id + 2;
        for q in (s + 1..=s + 3).filter(|&q| !t.outs[q].disp_valid) {
            for slot in 0..8 {
                let mut o = t.outs.clone();
                o[q] = GfOut {
                    disp_valid: true,
                    disp_id: bad,
                    disp_slot: slot,
                    disp_class: 1,
                    disp_kslot: k,
                    disp_last: true,
                    ..o[q].clone()
                };
                if let Err(e) = judge(&t.ins, &o, SysConfig::board()) {
                    if e.rule == "orphan-order" && e.cycle == q {
                        hit = true;
                        break 'skips;
                    }
                }
            }
        }
    }
    assert!(
        hit,
        "a record out of order in a skip's orphan window is caught as orphan-order"
    );
}

/// `preempt-cause`: Unit 4's `preempted` raised before any kernel was taken (nothing held, so
/// neither the policy nor, under `AUTO_PREEMPT` = 1, the host had a cause).
#[test]
fn negative_preempt_cause_auto() {
    let t = clean();
    assert!(t.outs.iter().any(|o| o.preempted), "the trace preempts");
    let c = (1..t.ins.len())
        .find(|&c| !t.ins[c - 1].reset && t.ins[c].launch_valid && t.outs[c].launch_ready)
        .expect("a launch taken after the reset");
    assert!(!t.outs[c].preempted);
    let mut o = t.outs.clone();
    o[c].preempted = true;
    expect(&t.ins, &o, "preempt-cause", Some(c));
}

/// `preempt-cause` with `AUTO_PREEMPT` = 0: a rise of `preempted` whose host `preempt` strobe
/// is taken out of the trace (the kernels held are no cause while the policy is off).
#[test]
fn negative_preempt_cause_host() {
    let mut p = SysParams::busy(2);
    p.auto_preempt = false;
    p.storm = 0.01;
    let t = run(p, 20_000, |_| {}).unwrap();
    let r = (100..t.outs.len())
        .find(|&c| t.outs[c].preempted && !t.outs[c - 1].preempted)
        .expect("a host preempt");
    let lag = SysConfig::board().policy_lag;
    let mut ins = t.ins.clone();
    for i in &mut ins[r - lag..r] {
        i.preempt = false;
    }
    expect(&ins, &t.outs, "preempt-cause", Some(r));
}

/// `resume-cause`: a one-cycle drop of `preempted` right after the policy raised it for an RT
/// kernel (which is still held: its WGs take 20–120 cycles), `AUTO_PREEMPT` = 1.
#[test]
fn negative_resume_cause() {
    let t = clean();
    let r = (100..t.outs.len())
        .find(|&c| t.outs[c].preempted && !t.outs[c - 1].preempted)
        .expect("the policy preempts");
    assert!(t.outs[r + 1].preempted && t.outs[r + 2].preempted);
    let mut o = t.outs.clone();
    o[r + 2].preempted = false;
    expect(&t.ins, &o, "resume-cause", Some(r + 2));
}

/// `preempt-due`: a front end that never preempts (`preempted` held low over a trace whose
/// policy preempts for its RT kernels beside running BE kernels).
#[test]
fn negative_preempt_due() {
    let t = clean();
    let first = t
        .outs
        .iter()
        .position(|o| o.preempted)
        .expect("the trace preempts");
    let mut o = t.outs.clone();
    for x in &mut o {
        x.preempted = false;
    }
    let e = judge(&t.ins, &o, SysConfig::board()).expect_err("a front end that never preempts");
    assert_eq!(e.rule, "preempt-due", "{e}");
    let lag = SysConfig::board().policy_lag;
    assert!(
        e.cycle <= first + lag + 2,
        "caught at {} (the policy first preempted in {first}): {e}",
        e.cycle
    );
}

/// The policy rules have work in the clean traces: `preempted` rises and falls, under the
/// policy and under host storms.
#[test]
fn policy_rules_see_preempts_and_resumes() {
    for auto in [true, false] {
        let mut p = SysParams::busy(3);
        p.auto_preempt = auto;
        p.storm = if auto { 0.0 } else { 0.01 };
        let t = run(p, 30_000, |_| {}).unwrap();
        let mut spec = SystemSpec::board();
        for (c, (i, o)) in t.ins.iter().zip(&t.outs).enumerate() {
            spec.check(c, i, o).unwrap();
        }
        let s = &spec.stats;
        println!(
            "AUTO_PREEMPT {auto}: {} preempts, {} resumes",
            s.preempts, s.resumes
        );
        assert!(
            s.preempts > 3 && s.resumes > 3,
            "AUTO_PREEMPT {auto}: {s:?}"
        );
    }
}

#[test]
fn negative_reclaim_bound() {
    let t = clean();
    let c = (0..t.ins.len())
        .find(|&c| t.ins[c].cu_reset_done && !t.outs[c].reclaim_busy)
        .unwrap();
    let b = SysConfig::board().reclaim_bound();
    let mut o = t.outs.clone();
    for x in &mut o[c + 1..=c + b] {
        x.reclaim_busy = true;
    }
    expect(&t.ins, &o, "reclaim-bound", Some(c + b));
}

#[test]
fn negative_reset_idem() {
    let mut p = SysParams::busy(1);
    p.reset_enable = false;
    let t = run(p, 20_000, |_| {}).unwrap();
    assert!(
        t.outs.iter().all(|o| !o.cu_reset),
        "RESET_ENABLE = 0: no CU reset"
    );
    let c = (100..)
        .find(|&c| t.ins[c].launch_valid && t.outs[c].launch_ready)
        .unwrap()
        + 20;
    let mut o = t.outs.clone();
    o[c].cu_reset = true;
    expect(&t.ins, &o, "reset-idem", Some(c));
}

/// `RESET_ENABLE` is read when a kernel enters Unit 4, which the checker bounds by the next
/// cycle `launch_ready` is high after its acceptance (the launch register is free then): a
/// write of 1 after every held kernel has entered Unit 4 makes none of them idempotent, so a
/// `cu_reset` then still breaks `reset-idem` (while a write in the window may, seed 6 of
/// `registry_stream_passes_the_system_checker`).
#[test]
fn negative_reset_idem_after_entry() {
    let mut p = SysParams::busy(1);
    p.reset_enable = false;
    let t = run(p, 20_000, |_| {}).unwrap();
    // a quiet stretch: no launch offered in w-3 ..= w+3, the launch port free at w-1, no
    // register write
    let w = (200..t.ins.len() - 10)
        .find(|&w| {
            (w - 3..=w + 3).all(|c| !t.ins[c].launch_valid && !t.ins[c].cfg_we)
                && t.outs[w - 1].launch_ready
        })
        .unwrap();
    let mut ins = t.ins.clone();
    ins[w].cfg_we = true;
    ins[w].cfg_addr = 0x12;
    ins[w].cfg_data = 1;
    let mut o = t.outs.clone();
    o[w + 2].cu_reset = true;
    expect(&ins, &o, "reset-idem", Some(w + 2));
}

#[test]
fn reset_preemption_beats_no_preemption_on_rt_p99() {
    use golden_model::gpu_model::eval::{self, Config, DEFAULT_BE_WG, RT_PERIODS};
    for seed in 1..=3 {
        let r = |c| eval::run(c, RT_PERIODS[0], DEFAULT_BE_WG, seed, 400_000);
        let (a, b, c, d) = (r(Config::A), r(Config::B), r(Config::C), r(Config::D));
        println!(
            "seed {seed}: RT p99 a {} b {} c {} d {}; BE WGs/kcycle a {:.2} b {:.2} c {:.2} d {:.2}",
            a.rt_p99, b.rt_p99, c.rt_p99, d.rt_p99, a.be_wgs_per_kcycle, b.be_wgs_per_kcycle,
            c.be_wgs_per_kcycle, d.be_wgs_per_kcycle
        );
        assert!(a.rt_kernels > 5 && d.rt_kernels > 5);
        assert!(d.rt_p99 < b.rt_p99, "seed {seed}: (d) p99 below (b)");
        assert!(b.rt_p99 < a.rt_p99, "seed {seed}: (b) p99 below (a)");
        assert!(
            d.be_wgs_per_kcycle < b.be_wgs_per_kcycle,
            "seed {seed}: the reset costs BE work"
        );
        assert!(d.lost_per_kcycle > 0.0 && b.lost_per_kcycle == 0.0);
    }
}

/// The RTL's traces judged by SPEC Unit 8's rules: the drained system stream of seed 1 (30 000
/// cycles and the drain; all four checkers on the model) replayed on the export under Verilator
/// (the registry's cached build) and, its first 3000 cycles, on the RustHDL top: equal to the
/// composed model every cycle, and the RTL's own outputs accepted by the system checker,
/// `drained` included (Verilator). A reset cycle goes first (the RTL's power-up state).
#[test]
fn rtl_traces_pass_the_system_checker() {
    use golden_model::ResetInput;
    use testbench::gpu_frontend::{GfPorts, GpuFrontendBoard};
    use testbench::unit::BoardUnit;
    let t = run(SysParams::busy(1), 30_000, |_| {}).unwrap();
    let ins: Vec<GfIn> = std::iter::once(GfIn::reset_input())
        .chain(t.ins.iter().cloned())
        .collect();
    let same = |got: &[GfOut], what: &str| {
        if let Some(c) = (0..got.len()).find(|&c| got[c] != t.outs[c]) {
            panic!(
                "{what} differs from the composed model in cycle {c}: {:?} vs {:?}",
                got[c], t.outs[c]
            );
        }
    };
    // RustHDL, the first 3000 cycles
    let mut rtl = GpuFrontendBoard::rtl();
    let got: Vec<GfOut> = ins[..3001].iter().map(|i| rtl.step(i)).collect();
    same(&got[1..], "RustHDL");
    let mut spec = SystemSpec::board();
    for (c, (i, o)) in t.ins.iter().zip(&got[1..]).enumerate() {
        spec.check(c, i, o)
            .unwrap_or_else(|v| panic!("RustHDL: {v}"));
    }
    if !testbench::verilator::tool_available("verilator") {
        return;
    }
    let got = testbench::verilator::replay(&GpuFrontendBoard::verilog(), &GfPorts, &ins)
        .unwrap_or_else(|e| panic!("Verilator replay: {e:#}"));
    same(&got[1..], "Verilator");
    judge(&t.ins, &got[1..], SysConfig::board()).unwrap_or_else(|v| panic!("Verilator: {v}"));
    println!(
        "{} cycles on Verilator (3000 on RustHDL), equal to the composed model and accepted by the system checker, drained",
        t.ins.len()
    );
}
