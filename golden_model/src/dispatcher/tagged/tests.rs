//! Directed tests of the tagged dispatcher model: tags, withdraw, flush, reclaim and the
//! compatibility with the untagged model.
use super::*;
use crate::CycleModel;

fn board() -> TaggedDispatcher {
    TaggedDispatcher::new(TaggedConfig::board())
}

fn wg(id: u32, waves: usize) -> Wg {
    Wg::dependent(id, 0, waves, 1, 1, 1)
}

fn rt(k: u32) -> Tag {
    Tag {
        class: RT,
        kslot: k,
    }
}

fn be(k: u32) -> Tag {
    Tag {
        class: BE,
        kslot: k,
    }
}

/// Step every input; return the outputs.
fn run(d: &mut TaggedDispatcher, trace: &[TaggedIn]) -> Vec<TaggedOut> {
    trace.iter().map(|i| d.step(i)).collect()
}

fn idle(n: usize) -> Vec<TaggedIn> {
    vec![TaggedIn::default(); n]
}

/// (cycle, id, tag, last) of every record.
fn records(outs: &[TaggedOut]) -> Vec<(usize, u32, Tag, bool)> {
    outs.iter()
        .enumerate()
        .filter(|(_, o)| o.base.disp_valid)
        .map(|(k, o)| {
            (
                k,
                o.base.disp_id,
                Tag {
                    class: o.disp_class,
                    kslot: o.disp_kslot,
                },
                o.disp_last,
            )
        })
        .collect()
}

#[test]
fn records_and_completions_echo_the_tag() {
    let mut d = board();
    let mut t = vec![
        TaggedIn::push(0, &wg(1, 2), rt(3)),
        TaggedIn::push(1, &wg(2, 2), be(5)),
    ];
    t.extend(idle(8));
    let outs = run(&mut d, &t);
    let recs = records(&outs);
    assert_eq!(recs.len(), 2, "{recs:?}");
    let slot_of = |id| {
        outs.iter()
            .find(|o| o.base.disp_valid && o.base.disp_id == id)
            .unwrap()
            .base
            .disp_slot
    };
    assert!(
        recs.contains(&(recs[0].0, 1, rt(3), true)) || recs.contains(&(recs[1].0, 1, rt(3), true))
    );
    assert!(recs.iter().any(|r| r.1 == 2 && r.2 == be(5) && r.3));
    let (s1, s2) = (slot_of(1), slot_of(2));
    let o = run(
        &mut d,
        &[
            TaggedIn::from(DispIn::done(s2 as usize)),
            TaggedIn::from(DispIn::done(s1 as usize)),
            TaggedIn::default(),
        ],
    );
    assert!(!o[0].cpl_valid);
    assert!(o[1].cpl_valid && o[1].cpl_class == BE && o[1].cpl_kslot == 5);
    assert!(o[2].cpl_valid && o[2].cpl_class == RT && o[2].cpl_kslot == 3);
    run(&mut d, &idle(3));
    assert!(d.idle());
}

#[test]
fn split_wg_is_last_only_on_its_last_sub_wg() {
    let mut d = board();
    let mut t = vec![TaggedIn::from(DispIn::cfg(
        super::super::reg::SPLIT_THRESHOLD,
        2,
    ))];
    // one WG that takes every wave slot of module 0 and one of module 1, then an independent
    // 8-wave WG that cannot fit until split
    t.push(TaggedIn::push(0, &wg(1, 8), rt(0)));
    t.push(TaggedIn::push(0, &wg(2, 7), rt(0)));
    t.extend(idle(8));
    let mut big = wg(3, 8);
    big.indep = true;
    t.push(TaggedIn::push(1, &big, be(1)));
    t.extend(idle(40));
    let outs = run(&mut d, &t);
    let subs: Vec<_> = records(&outs).into_iter().filter(|r| r.1 == 3).collect();
    assert_eq!(subs.len(), 1, "one free wave slot: one sub-WG {subs:?}");
    assert!(!subs[0].3, "a sub-WG that is not the last one");
    assert_eq!(subs[0].2, be(1));
    assert_eq!(d.queued_tags(1), vec![be(1)]);
}

#[test]
fn class_one_push_outside_the_be_channel_is_bad_id_and_changes_nothing() {
    let mut d = board();
    let o = run(
        &mut d,
        &[
            TaggedIn::push(0, &wg(1, 1), be(2)),
            TaggedIn::default(),
            TaggedIn::default(),
        ],
    );
    assert!(o[1].base.error && o[1].base.error_code == DispError::BadId as u8);
    assert!(d.queued_tags(0).is_empty());
    let o = run(&mut d, &idle(6));
    assert!(records(&o).is_empty());
}

/// Fill both modules with RT work so that the BE WGs `be_ids` (with tags `be_tags`) stay
/// queued in the BE channel; return the RT WGs' slots.
fn blocked(d: &mut TaggedDispatcher, be_ids: &[u32], be_tags: &[Tag]) -> Vec<u32> {
    let mut t = vec![
        TaggedIn::push(0, &wg(1, 8), rt(0)),
        TaggedIn::push(0, &wg(2, 8), rt(1)),
    ];
    for (&id, &tag) in be_ids.iter().zip(be_tags) {
        t.push(TaggedIn::push(1, &wg(id, 1), tag));
    }
    t.extend(idle(6));
    let outs = run(d, &t);
    let recs = records(&outs);
    assert_eq!(recs.len(), 2, "both modules full of RT work: {recs:?}");
    assert_eq!(d.queued_tags(1), be_tags.to_vec());
    recs.iter().map(|r| outs[r.0].base.disp_slot).collect()
}

fn blocked_be_queue(d: &mut TaggedDispatcher) -> Vec<u32> {
    blocked(d, &[10, 11, 12, 13], &[be(2), be(2), be(2), be(3)])
}

#[test]
fn withdraw_pops_the_matching_head_run_one_per_cycle_with_reports() {
    let mut d = board();
    let rt_slots = blocked_be_queue(&mut d);
    let mut t = vec![TaggedIn::withdraw(2)];
    t.extend(idle(5));
    let o = run(&mut d, &t);
    let wdr: Vec<_> = o
        .iter()
        .enumerate()
        .filter(|(_, o)| o.wdr_valid)
        .map(|(k, o)| (k, o.wdr_kslot))
        .collect();
    assert_eq!(wdr, vec![(1, 2), (2, 2), (3, 2)]);
    assert!(records(&o).is_empty(), "withdrawn WGs have no record");
    assert_eq!(d.queued_tags(1), vec![be(3)], "kslot 3 is not withdrawn");
    // free the modules: the kslot-3 WG is dispatched
    let mut t: Vec<TaggedIn> = rt_slots
        .iter()
        .map(|&s| TaggedIn::from(DispIn::done(s as usize)))
        .collect();
    t.extend(idle(8));
    let o = run(&mut d, &t);
    let recs = records(&o);
    assert_eq!(recs.len(), 1);
    assert_eq!((recs[0].1, recs[0].2, recs[0].3), (13, be(3), true));
}

#[test]
fn withdraw_of_a_kernel_not_at_the_head_pops_nothing() {
    let mut d = board();
    blocked_be_queue(&mut d);
    let o = run(
        &mut d,
        &[
            TaggedIn::withdraw(3),
            TaggedIn::default(),
            TaggedIn::default(),
        ],
    );
    assert!(o.iter().all(|o| !o.wdr_valid && !o.base.error));
    assert_eq!(d.queued_tags(1).len(), 4);
}

#[test]
fn cu_reset_flushes_class_one_wgs_of_the_be_channel_only() {
    let mut d = board();
    // a class-0 WG in the BE channel (the old use) between class-1 ones, and a class-1 push in
    // the reset cycle
    let rt_slots = blocked(&mut d, &[10, 21, 11], &[be(2), rt(3), be(2)]);
    let mut r = TaggedIn::push(1, &wg(14, 1), be(4));
    r.cu_reset = true;
    let mut t = vec![TaggedIn::push(0, &wg(20, 1), rt(2)), r];
    t.extend(idle(3));
    let o = run(&mut d, &t);
    assert!(o.iter().all(|o| !o.base.error && !o.wdr_valid));
    assert!(
        o[1].base.push_ready,
        "the reset cycle's push is accepted (then flushed)"
    );
    assert_eq!(d.queued_tags(1), vec![rt(3)]);
    assert_eq!(d.queued_tags(0), vec![rt(2)]);
    // confirm the reset: nothing BE in flight, the walk frees nothing; then RT work runs
    let mut t = vec![TaggedIn {
        cu_reset_done: true,
        ..TaggedIn::default()
    }];
    t.extend(idle(12));
    t.extend(
        rt_slots
            .iter()
            .map(|&s| TaggedIn::from(DispIn::done(s as usize))),
    );
    t.extend(idle(8));
    let o = run(&mut d, &t);
    let ids: Vec<u32> = records(&o).iter().map(|r| r.1).collect();
    assert_eq!(ids.len(), 2);
    assert!(ids.contains(&20) && ids.contains(&21));
}

#[test]
fn reclaim_frees_every_be_wg_within_the_bound_and_never_an_rt_wg() {
    let cfg = TaggedConfig::board();
    let s = cfg.disp.slots;
    let mut d = board();
    // 4 RT and 4 BE single-wave WGs: all fit, 8 slots taken
    let mut t = vec![];
    for k in 0..4u32 {
        t.push(TaggedIn::push(0, &wg(k, 1), rt(k)));
        t.push(TaggedIn::push(1, &wg(10 + k, 1), be(k)));
    }
    t.extend(idle(10));
    let outs = run(&mut d, &t);
    assert_eq!(records(&outs).len(), 8);
    let slot_of = |id: u32| {
        outs.iter()
            .find(|o| o.base.disp_valid && o.base.disp_id == id)
            .unwrap()
            .base
            .disp_slot as usize
    };
    let (rt_slots, be_slots): (Vec<usize>, Vec<usize>) = (
        (0..4).map(slot_of).collect(),
        (10..14).map(slot_of).collect(),
    );
    // cu_reset, then the confirmation 3 cycles later (t0 = 3), an RT completion during the walk
    let mut t = vec![TaggedIn {
        cu_reset: true,
        ..TaggedIn::default()
    }];
    t.extend(idle(2));
    t.push(TaggedIn {
        cu_reset_done: true,
        ..TaggedIn::default()
    });
    t.push(TaggedIn::default());
    t.push(TaggedIn::from(DispIn::done(rt_slots[0])));
    t.extend(idle(s + 2));
    let o = run(&mut d, &t);
    let t0 = 3;
    for (k, o) in o.iter().enumerate() {
        assert_eq!(
            o.reclaim_busy,
            (t0 + 1..=t0 + s).contains(&k),
            "busy at {k}"
        );
        assert_eq!(o.reclaim_done, k == t0 + s + 1, "done at {k}");
        assert!(!o.base.error && !o.base.disp_valid);
    }
    assert!(o[t0 + 3].cpl_valid && o[t0 + 3].cpl_class == RT && o[t0 + 3].cpl_kslot == 0);
    // the state of cycle t0 + S + 2: only the three other RT WGs are in flight
    assert_eq!(t.len(), t0 + s + 5);
    let live: Vec<usize> = d.in_flight().iter().map(|x| x.0).collect();
    assert_eq!(live, {
        let mut v = rt_slots[1..].to_vec();
        v.sort();
        v
    });
    assert!(d.in_flight().iter().all(|x| !x.1.is_be()));
    // a completion of a reclaimed slot is IDLE_SLOT; the RT ones complete; all returns
    let mut t = vec![TaggedIn::from(DispIn::done(be_slots[0]))];
    t.extend(
        rt_slots[1..]
            .iter()
            .map(|&s| TaggedIn::from(DispIn::done(s))),
    );
    t.extend(idle(3));
    let o = run(&mut d, &t);
    assert_eq!(o[1].base.error_code, DispError::IdleSlot as u8);
    assert!(o[2..5].iter().all(|o| o.cpl_valid && o.cpl_class == RT));
    assert!(d.idle(), "every map, wave slot and table slot is back");
}

#[test]
fn be_work_pushed_while_a_reset_is_open_waits_for_the_walk() {
    let mut d = board();
    let mut t = vec![TaggedIn {
        cu_reset: true,
        ..TaggedIn::default()
    }];
    t.push(TaggedIn::push(1, &wg(30, 1), be(1)));
    t.push(TaggedIn::push(0, &wg(31, 1), rt(1)));
    t.extend(idle(10));
    let o = run(&mut d, &t);
    let recs = records(&o);
    assert_eq!(recs.iter().map(|r| r.1).collect::<Vec<_>>(), vec![31]);
    let mut t = vec![TaggedIn {
        cu_reset_done: true,
        ..TaggedIn::default()
    }];
    t.extend(idle(14));
    let o = run(&mut d, &t);
    let recs = records(&o);
    assert_eq!(recs.len(), 1);
    assert_eq!(recs[0].1, 30);
    // held until the walk ended (t0 + S), then head -> record 3 cycles
    assert!(recs[0].0 > 8, "recorded after the walk: {recs:?}");
}

#[test]
fn with_new_inputs_at_zero_it_is_the_untagged_model() {
    let cfg = DispatcherConfig::board();
    let mut old = Dispatcher::new(cfg);
    let mut new = TaggedDispatcher::new(TaggedConfig::board());
    let mut n = 0;
    for k in 0..3000u32 {
        // a deterministic mixed stream: pushes on both channels, completions, a config write
        let h = k.wrapping_mul(2654435761) >> 7;
        let i = match h % 7 {
            0 | 1 => DispIn::push(
                (h >> 3) as usize % 2,
                &Wg {
                    id: k & 0xFF,
                    prio: (h >> 4) as usize % 4,
                    waves: 1 + (h >> 6) as usize % 8,
                    vgpr: (h >> 9) as usize % 4,
                    sgpr: (h >> 11) as usize % 3,
                    lds: (h >> 13) as usize % 8,
                    indep: h >> 16 & 1 == 1,
                },
            ),
            2 | 3 => DispIn::done((h >> 3) as usize % 9),
            4 if k % 50 == 0 => DispIn::cfg(1, (h >> 5) % 20),
            _ => DispIn::default(),
        };
        let a = old.step(&i);
        let b = new.step(&TaggedIn::from(i));
        assert_eq!(a, b.base, "cycle {k}");
        n += usize::from(a.disp_valid);
    }
    assert!(n > 300, "the stream dispatches ({n} records)");
}
