//! Directed tests of the dispatcher model, one or more per embodiment.
use super::*;

fn wg(id: u32, prio: usize, waves: usize, vgpr: usize, sgpr: usize, lds: usize) -> Wg {
    Wg::dependent(id, prio, waves, vgpr, sgpr, lds)
}

fn board() -> Dispatcher {
    Dispatcher::new(DispatcherConfig::board())
}

/// Run idle cycles until a dispatch record appears (at most `n` cycles); return it.
fn next_record(d: &mut Dispatcher, n: usize) -> Option<DispOut> {
    (0..n)
        .map(|_| d.step(&DispIn::default()))
        .find(|o| o.disp_valid)
}

fn unit_field(x: u64, w: usize, t: usize) -> u64 {
    x >> (w * t) & ((1 << w) - 1)
}

#[test]
fn lfsr_is_maximal_length() {
    let mut s = LFSR_SEED;
    let mut n = 0u32;
    loop {
        s = lfsr_next(s);
        n += 1;
        if s == LFSR_SEED {
            break;
        }
    }
    assert_eq!(n, 65535);
}

#[test]
fn first_fit_and_max_run() {
    // the seed's style of example: free map 0b1111_0011_1000 -> runs 3 (at 3) and 4 (at 8)
    let m = 0b1111_0011_1000u128;
    assert_eq!(max_run(m), 4);
    assert_eq!(first_fit(m, 2), Some(3));
    assert_eq!(first_fit(m, 4), Some(8));
    assert_eq!(first_fit(m, 5), None);
    assert_eq!(first_fit(m, 0), Some(0));
    assert_eq!(first_fit(u128::MAX, 128), Some(0));
}

/// Latency contract: a WG pushed in cycle 0 into an empty FIFO is the head in cycle 1 (match
/// stage), decided in cycle 2, committed in cycle 3 and its dispatch record is visible in cycle 4
/// (head → record: 3 cycles).
#[test]
fn push_to_record_latency_is_four_cycles() {
    let mut d = board();
    let o0 = d.step(&DispIn::push(0, &wg(7, 0, 4, 2, 1, 3)));
    assert!(o0.push_ready && !o0.disp_valid);
    for _ in 0..3 {
        assert!(!d.step(&DispIn::default()).disp_valid);
    }
    let o = d.step(&DispIn::default());
    assert!(o.disp_valid);
    assert_eq!(
        (o.disp_id, o.disp_module, o.disp_slot, o.disp_sub),
        (7, 0, 0, false)
    );
    // 4 waves over 2 units: 2 + 2; each unit's VGPR region 2*2 = 4 blocks at base 0
    assert_eq!(o.disp_waves, 2 | 2 << 3);
    assert_eq!(o.disp_vgpr_base, 0);
    assert_eq!(o.disp_lds_base, 0);
}

/// Sustained throughput while WGs fit, from two channels: a module whose allocation is still in
/// flight (decided in one of the last two cycles) is not a candidate, so the two board modules
/// take two dispatches every three cycles.
#[test]
fn two_dispatches_per_three_cycles_sustained() {
    let mut d = board();
    let mut recs = vec![];
    for k in 0..8u32 {
        let o = d.step(&DispIn::push((k % 2) as usize, &wg(k, 1, 1, 1, 1, 1)));
        assert!(o.push_ready);
        recs.push(o.disp_valid);
    }
    for _ in 0..8 {
        recs.push(d.step(&DispIn::default()).disp_valid);
    }
    let cycles: Vec<usize> = (0..recs.len()).filter(|&c| recs[c]).collect();
    assert_eq!(cycles, vec![4, 5, 7, 8, 10, 11, 13, 14]);
}

/// A single busy channel: its next head is matched in the cycle after the pop, so one dispatch
/// every second cycle (alternating modules).
#[test]
fn one_channel_dispatches_every_second_cycle() {
    let mut d = board();
    let mut recs = vec![];
    for k in 0..4u32 {
        recs.push(d.step(&DispIn::push(0, &wg(k, 1, 1, 1, 1, 0))).disp_valid);
    }
    for _ in 0..8 {
        recs.push(d.step(&DispIn::default()).disp_valid);
    }
    let cycles: Vec<usize> = (0..recs.len()).filter(|&c| recs[c]).collect();
    assert_eq!(cycles, vec![4, 6, 8, 10], "records every second cycle");
}

/// Emb. 1 (a1–a4): a head that fits nowhere does not block the other channel.
#[test]
fn head_that_fits_nowhere_does_not_block_other_channels() {
    let mut d = board();
    // fill both modules' LDS: two WGs with 16 LDS blocks each; then a high-priority head that
    // needs LDS (fits nowhere now), then a low-priority one on channel 1
    let ins = [
        DispIn::push(0, &wg(1, 3, 1, 0, 0, 16)),
        DispIn::push(0, &wg(2, 3, 1, 0, 0, 16)),
        DispIn::push(0, &wg(3, 0, 1, 0, 0, 1)),
        DispIn::push(1, &wg(4, 3, 2, 4, 2, 0)),
    ];
    let mut ids = vec![];
    let idle = DispIn::default();
    for i in ins.iter().chain(std::iter::repeat_n(&idle, 6)) {
        let o = d.step(i);
        if o.disp_valid {
            ids.push(o.disp_id);
        }
    }
    assert_eq!(
        ids,
        vec![1, 2, 4],
        "WG 4 passes the blocked high-priority WG 3"
    );
    // completing slot 0 frees module 0's LDS: WG 3 goes next
    d.step(&DispIn::done(0));
    let o = next_record(&mut d, 6).expect("WG 3 dispatched after the free");
    assert_eq!((o.disp_id, o.disp_module), (3, 0));
}

/// Emb. 2: priority 3 is promoted to highest inside its window (window 3).
#[test]
fn low_priority_is_served_inside_its_window() {
    // Build the contest: two heads present in the same cycle.
    let mut d = board();
    for y in 0..4 {
        d.step(&DispIn::cfg(reg::WIN_LEN0 + y, 64));
    }
    // fill the table (8 slots) with tiny WGs so that nothing else dispatches
    for k in 0..8 {
        d.step(&DispIn::push(0, &wg(100 + k, 1, 1, 0, 0, 0)));
        d.step(&DispIn::default());
    }
    d.step(&DispIn::push(0, &wg(10, 0, 1, 1, 1, 0)));
    d.step(&DispIn::push(1, &wg(11, 3, 1, 1, 1, 0)));
    // wait for window 3 while both heads are stuck on the full table
    while d.window() != 3 {
        d.step(&DispIn::default());
    }
    d.step(&DispIn::done(0)); // frees one slot: exactly one decision next cycle
    let o = next_record(&mut d, 6).unwrap();
    assert_eq!(o.disp_id, 11, "priority 3 wins inside window 3");
    // outside window 3, the same contest goes to priority 0
    d.step(&DispIn::push(1, &wg(12, 3, 1, 1, 1, 0)));
    while d.window() != 0 {
        d.step(&DispIn::default());
    }
    d.step(&DispIn::done(1));
    let o = next_record(&mut d, 6).unwrap();
    assert_eq!(o.disp_id, 10, "priority 0 wins in window 0");
}

/// a42: equal-priority heads from two channels alternate (marks), not always channel 0.
#[test]
fn ties_alternate_between_channels() {
    let mut d = board();
    for k in 0..8 {
        d.step(&DispIn::push(0, &wg(100 + k, 1, 1, 0, 0, 0)));
        d.step(&DispIn::default());
    }
    for k in 0..3 {
        d.step(&DispIn::push(0, &wg(k, 2, 1, 0, 0, 0)));
        d.step(&DispIn::push(1, &wg(10 + k, 2, 1, 0, 0, 0)));
    }
    let mut chans = vec![];
    for s in 0..6 {
        d.step(&DispIn::done(s));
        let o = next_record(&mut d, 6).unwrap();
        chans.push(o.disp_id >= 10);
    }
    let first3 = &chans[..2];
    assert_ne!(
        first3[0], first3[1],
        "the second tie goes to the other (unmarked) channel: {chans:?}"
    );
    assert_eq!(chans.iter().filter(|&&c| c).count(), 3);
}

/// Emb. 3: after `split_threshold` failed cycles an independent head is split into one-wave
/// sub-WGs at the lowest priority.
#[test]
fn split_after_threshold() {
    let mut d = board();
    d.step(&DispIn::cfg(reg::SPLIT_THRESHOLD, 10));
    // occupy 3 of 4 wave slots on every unit
    for k in 0..4 {
        d.step(&DispIn::push(0, &wg(k, 0, 3, 0, 0, 0)));
        d.step(&DispIn::default());
    }
    for _ in 0..4 {
        d.step(&DispIn::default());
    }
    // 4 waves, independent: needs 2 slots per unit, only 1 free → fails
    let big = Wg {
        indep: true,
        ..wg(50, 0, 4, 1, 1, 0)
    };
    d.step(&DispIn::push(1, &big));
    let mut recs = vec![];
    for _ in 0..40 {
        let o = d.step(&DispIn::default());
        if o.disp_valid {
            recs.push(o);
        }
    }
    assert_eq!(recs.len(), 4, "4 one-wave sub-WGs");
    for o in &recs {
        assert_eq!((o.disp_id, o.disp_sub), (50, true));
        let w: u64 = (0..2).map(|t| unit_field(o.disp_waves, 3, t)).sum();
        assert_eq!(w, 1);
    }
    assert_eq!(d.queued(1), 0);
    assert_eq!(d.stats.splits, 1);
}

/// Emb. 3: a dependent WG is never split.
#[test]
fn dependent_head_is_not_split() {
    let mut d = board();
    d.step(&DispIn::cfg(reg::SPLIT_THRESHOLD, 4));
    for k in 0..4 {
        d.step(&DispIn::push(0, &wg(k, 0, 3, 0, 0, 0)));
        d.step(&DispIn::default());
    }
    for _ in 0..4 {
        d.step(&DispIn::default());
    }
    d.step(&DispIn::push(1, &wg(50, 0, 4, 1, 1, 0)));
    assert!(next_record(&mut d, 40).is_none());
    assert_eq!(d.queued(1), 1);
}

/// Emb. 8: the tail pointer rotates the split table so that one-wave WGs spread over the units.
#[test]
fn pointer_rotation_spreads_waves() {
    let mut d = board();
    let mut per_unit = [0u64; 2];
    for k in 0..4 {
        d.step(&DispIn::push(0, &wg(k, 0, 1, 1, 0, 0)));
        d.step(&DispIn::default());
        let o = next_record(&mut d, 6).unwrap();
        assert_eq!(o.disp_module, 0);
        for (t, n) in per_unit.iter_mut().enumerate() {
            *n += unit_field(o.disp_waves, 3, t);
        }
    }
    assert_eq!(per_unit, [2, 2], "without rotation unit 0 would get all 4");
    // 3 waves: 2+1 then 1+2
    let mut d = board();
    // (the second WG comes after the first one's record: the same module again)
    d.step(&DispIn::push(0, &wg(1, 0, 3, 0, 0, 0)));
    let a = next_record(&mut d, 6).unwrap();
    d.step(&DispIn::push(0, &wg(2, 0, 3, 0, 0, 0)));
    let b = next_record(&mut d, 6).unwrap();
    assert_eq!((a.disp_module, b.disp_module), (0, 0));
    assert_eq!(a.disp_waves, 2 | 1 << 3);
    assert_eq!(b.disp_waves, 1 | 2 << 3);
}

/// Emb. 9: `max_weighted_free` picks the module with more free resources.
#[test]
fn max_weighted_free_prefers_emptier_module() {
    let mut d = board();
    d.step(&DispIn::push(0, &wg(1, 0, 2, 4, 0, 0)));
    next_record(&mut d, 6).unwrap(); // module 0 (first)
    d.step(&DispIn::cfg(reg::POLICY, 1));
    // the serial scorer publishes a snapshot every 8 cycles, 3..10 cycles old
    for _ in 0..12 {
        d.step(&DispIn::default());
    }
    d.step(&DispIn::push(0, &wg(2, 0, 2, 4, 0, 0)));
    let o = next_record(&mut d, 6).unwrap();
    assert_eq!(o.disp_module, 1);
    // with policy first it would have been module 0
    let mut d = board();
    d.step(&DispIn::push(0, &wg(1, 0, 2, 4, 0, 0)));
    next_record(&mut d, 6).unwrap();
    d.step(&DispIn::push(0, &wg(2, 0, 2, 4, 0, 0)));
    assert_eq!(next_record(&mut d, 6).unwrap().disp_module, 0);
}

/// Emb. 10: `min_power_history` avoids the module that retired more (weighted) instructions.
#[test]
fn min_power_history_avoids_busy_module() {
    let mut d = board();
    d.step(&DispIn::cfg(reg::POLICY, 2));
    for _ in 0..20 {
        d.step(&DispIn {
            retire_class: 0b0011,
            ..DispIn::default()
        }); // module 0, classes 0, 1
    }
    for _ in 0..10 {
        d.step(&DispIn {
            retire_class: 0b1000_0000,
            ..DispIn::default()
        }); // module 1, class 3
    }
    d.step(&DispIn::push(0, &wg(1, 0, 1, 1, 1, 1)));
    assert_eq!(next_record(&mut d, 6).unwrap().disp_module, 1);
    // weight class 3 heavily: module 1 history 10*15 > module 0's 40
    d.step(&DispIn::cfg(reg::POWER_WEIGHTS, 0xF111));
    for _ in 0..10 {
        d.step(&DispIn {
            retire_class: 0b1000_0000,
            ..DispIn::default()
        });
    }
    d.step(&DispIn::push(0, &wg(2, 0, 1, 1, 1, 1)));
    assert_eq!(next_record(&mut d, 6).unwrap().disp_module, 0);
}

/// Step 7: a completion frees exactly what the WG took; a double completion is an error with no
/// state change.
#[test]
fn completion_frees_exactly_and_double_completion_errs() {
    let mut d = board();
    d.step(&DispIn::push(0, &wg(1, 0, 3, 5, 3, 7)));
    let o = next_record(&mut d, 6).unwrap();
    let before = d.res.clone();
    d.step(&DispIn::done(o.disp_slot as usize));
    let e = d.step(&DispIn::done(o.disp_slot as usize));
    assert!(!e.error);
    assert!(d.res.inflight.iter().all(|e| e.is_none()));
    assert_eq!(d.res.lds[0], 0xFFFF);
    assert_ne!(before.lds[0], 0xFFFF);
    let snapshot = d.res.clone();
    let o = d.step(&DispIn::default());
    assert!(o.error);
    assert_eq!(o.error_code, DispError::IdleSlot as u8);
    assert_eq!(d.res.vgpr, snapshot.vgpr);
}

/// Step 9: never-fits and zero-wave descriptors are rejected at the input with an error code.
#[test]
fn never_fits_and_zero_waves_are_rejected() {
    let mut d = board();
    d.step(&DispIn::push(0, &wg(1, 0, 0, 1, 1, 1)));
    let o = d.step(&DispIn::push(0, &wg(2, 0, 8, 5, 1, 1))); // 4 waves/unit × 5 > 16
    assert_eq!((o.error, o.error_code), (true, DispError::ZeroWaves as u8));
    let o = d.step(&DispIn::push(1, &wg(3, 0, 1, 0, 0, 17)));
    assert_eq!((o.error, o.error_code), (true, DispError::NeverFits as u8));
    let o = d.step(&DispIn::push(1, &wg(4, 0, 9, 0, 0, 0)));
    assert_eq!((o.error, o.error_code), (true, DispError::NeverFits as u8));
    let o = d.step(&DispIn::default());
    assert_eq!((o.error, o.error_code), (true, DispError::NeverFits as u8));
    assert_eq!(d.queued(0) + d.queued(1), 0);
    // the largest WG that fits an empty module is accepted: 8 waves × 4 VGPR, 2 SGPR, 16 LDS
    d.step(&DispIn::push(0, &wg(5, 0, 8, 4, 2, 16)));
    let o = next_record(&mut d, 6).unwrap();
    assert_eq!(o.disp_id, 5);
}

#[test]
fn bad_config_writes_err_and_change_nothing() {
    let mut d = board();
    d.step(&DispIn::cfg(reg::POLICY, 3));
    let o = d.step(&DispIn::cfg(9, 1));
    assert_eq!((o.error, o.error_code), (true, DispError::BadCfg as u8));
    let o = d.step(&DispIn::default());
    assert_eq!((o.error, o.error_code), (true, DispError::BadCfg as u8));
    assert_eq!(d.regs, Regs::default());
}

/// Full FIFO lowers push_ready and the WG waits upstream.
#[test]
fn full_fifo_lowers_push_ready() {
    let mut d = board();
    // the table fills after 8, then the FIFO (4)
    let mut accepted = 0;
    for k in 0..20 {
        let o = d.step(&DispIn::push(0, &wg(k, 0, 1, 0, 0, 0)));
        accepted += o.push_ready as usize;
    }
    assert_eq!(accepted, 12);
    assert!(!d.step(&DispIn::push(0, &wg(99, 0, 1, 0, 0, 0))).push_ready);
    assert!(d.step(&DispIn::push(1, &wg(99, 0, 1, 0, 0, 0))).push_ready);
}

#[test]
fn full_config_runs() {
    let mut d = Dispatcher::new(DispatcherConfig::full());
    d.step(&DispIn::push(3, &wg(1, 0, 64, 8, 4, 48)));
    let o = next_record(&mut d, 6).unwrap();
    assert_eq!(o.disp_waves, 16 | 16 << 5 | 16 << 10 | 16 << 15);
}

#[test]
#[should_panic(expected = "modules must be")]
fn bad_config_is_refused() {
    Dispatcher::new(DispatcherConfig {
        modules: 0,
        ..DispatcherConfig::board()
    });
}
