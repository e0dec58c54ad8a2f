//! Directed tests of the golden model: the worked example of the contract, every error, and a
//! smoke run of the evaluation.

use super::*;

fn idle() -> PreemptIn {
    PreemptIn::default()
}
fn launch(id: u32, idem: bool) -> PreemptIn {
    PreemptIn {
        launch_valid: true,
        launch_id: id,
        launch_idem: idem,
        ..idle()
    }
}

/// Run `inputs` and return the outputs of every cycle.
fn run(m: &mut PreemptCtrl, inputs: &[PreemptIn]) -> Vec<PreemptOut> {
    inputs.iter().map(|i| m.step(i)).collect()
}

/// The module doc's worked example: three idempotent kernels, two submitted and one started;
/// preempt → `cu_reset` 2 cycles later → `killed` → `preempt_done` 2 cycles after it → resume
/// → the two killed kernels are resubmitted first, in order, then the queued one.
#[test]
fn worked_example_reset_and_resubmission() {
    let mut m = PreemptCtrl::new(PreemptConfig::board());
    let o = run(
        &mut m,
        &[
            launch(10, true),
            launch(11, true),
            launch(12, true),
            PreemptIn {
                cfg_we: true,
                cfg_max_inflight: 2,
                ..idle()
            },
        ],
    );
    assert!(o.iter().all(|o| o.launch_ready && !o.error));
    // cycle 4: head 10 offered; take it, then 11
    let o = m.step(&PreemptIn {
        submit_ready: true,
        ..idle()
    });
    assert!(o.submit_valid && o.submit_id == 10);
    let o = m.step(&PreemptIn {
        submit_ready: true,
        start_valid: true,
        start_id: 10,
        ..idle()
    });
    assert!(o.submit_valid && o.submit_id == 11 && o.inflight == 1);
    let o = m.step(&idle());
    assert!(o.ack_valid && o.ack_id == 10 && !o.ack_skip);
    assert!(!o.submit_valid, "max_inflight 2 reached");
    assert_eq!(o.inflight, 2);
    // preempt: everything in flight is idempotent
    let p = m.step(&PreemptIn {
        preempt: true,
        ..idle()
    });
    assert!(!p.preempted);
    let o1 = m.step(&idle());
    assert!(o1.preempted && !o1.cu_reset);
    let o2 = m.step(&idle());
    assert!(o2.cu_reset, "cu_reset 2 cycles after preempt");
    let o3 = m.step(&PreemptIn {
        killed: true,
        ..idle()
    });
    assert!(!o3.cu_reset && !o3.preempt_done);
    let o4 = m.step(&idle());
    assert!(!o4.preempt_done && o4.inflight == 0);
    let o5 = m.step(&idle());
    assert!(o5.preempt_done, "preempt_done 2 cycles after killed");
    let o6 = m.step(&PreemptIn {
        resume: true,
        ..idle()
    });
    assert!(!o6.preempt_done && !o6.error);
    let o7 = m.step(&PreemptIn {
        submit_ready: true,
        ..idle()
    });
    assert!(!o7.preempted && o7.submit_valid && o7.submit_id == 10);
    let o8 = m.step(&PreemptIn {
        submit_ready: true,
        ..idle()
    });
    assert!(o8.submit_valid && o8.submit_id == 11);
    assert_eq!(m.stats().resubmitted, 2);
    assert_eq!(m.queue().next().unwrap().id, 12);
}

/// A non-idempotent kernel in flight: no reset; the running one finishes, the submitted one
/// is skipped at its start; `preempt_done` 2 cycles after the last of them. A start in the
/// preempt's own cycle is skipped.
#[test]
fn no_reset_with_a_non_idempotent_kernel() {
    let mut m = PreemptCtrl::new(PreemptConfig::board());
    let sr = PreemptIn {
        submit_ready: true,
        ..idle()
    };
    run(
        &mut m,
        &[
            launch(1, false),
            launch(2, true),
            launch(3, true),
            sr.clone(),
            sr.clone(),
            sr,
        ],
    );
    m.step(&PreemptIn {
        start_valid: true,
        start_id: 1,
        ..idle()
    });
    assert!(!m.step(&idle()).ack_skip);
    m.step(&PreemptIn {
        start_valid: true,
        start_id: 2,
        preempt: true,
        ..idle()
    });
    let o = m.step(&idle());
    assert!(o.ack_valid && o.ack_id == 2 && o.ack_skip);
    let o = run(&mut m, &[idle(), idle(), idle()]);
    assert!(o.iter().all(|o| !o.cu_reset && !o.preempt_done));
    m.step(&PreemptIn {
        done_valid: true,
        done_id: 1,
        ..idle()
    });
    m.step(&PreemptIn {
        start_valid: true,
        start_id: 3,
        ..idle()
    });
    let o = m.step(&idle());
    assert!(o.ack_skip && o.inflight == 0 && !o.preempt_done);
    assert!(m.step(&idle()).preempt_done);
    assert_eq!(m.stats().cu_resets, 0);
}

/// Every error code, each leaving the state as it was (the table and queue are compared).
#[test]
fn every_error_changes_nothing() {
    let mut m = PreemptCtrl::new(PreemptConfig::board());
    run(&mut m, &[launch(5, false), launch(6, false)]);
    let snapshot = |m: &PreemptCtrl| (m.queue().cloned().collect::<Vec<_>>(), m.table().to_vec());
    let before = snapshot(&m);
    for (bad, code) in [
        (launch(5, true), 1),
        (
            PreemptIn {
                start_valid: true,
                start_id: 6,
                ..idle()
            },
            2,
        ),
        (
            PreemptIn {
                done_valid: true,
                done_id: 5,
                ..idle()
            },
            2,
        ),
        (
            PreemptIn {
                resume: true,
                ..idle()
            },
            3,
        ),
        (
            PreemptIn {
                killed: true,
                ..idle()
            },
            3,
        ),
        (
            PreemptIn {
                cfg_we: true,
                cfg_max_inflight: 0,
                ..idle()
            },
            4,
        ),
        (
            PreemptIn {
                cfg_we: true,
                cfg_max_inflight: 9,
                ..idle()
            },
            4,
        ),
    ] {
        m.step(&bad);
        let o = m.step(&idle());
        assert!(o.error && o.error_code == code, "{bad:?} → {o:?}");
        assert_eq!(snapshot(&m), before, "{bad:?} changed the state");
    }
    // preempt while preempted
    m.step(&PreemptIn {
        preempt: true,
        ..idle()
    });
    m.step(&PreemptIn {
        preempt: true,
        ..idle()
    });
    assert_eq!(m.step(&idle()).error_code, 3);
}

/// The evaluation runs and its three policies behave as described (short run).
#[test]
fn evaluation_smoke() {
    let w = eval::Workload::new(1, 1.0, 400_000, 3);
    let c = eval::run(eval::Policy::Controller, &w);
    let a = eval::run(eval::Policy::WaitAll, &w);
    let b = eval::run(eval::Policy::Blocking, &w);
    assert!(c.latencies.len() >= 2 && a.latencies.len() >= 2 && b.latencies.len() >= 2);
    assert!(c.cu_resets > 0);
    assert!(c.latency_pct(50.0) < a.latency_pct(50.0));
    assert!(b.throughput_pct < a.throughput_pct);
}
