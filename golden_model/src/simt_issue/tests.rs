//! Golden tests of the unit model, the compiler pass (expected programs written by hand from
//! the claims), the interpreter and the IPDOM baseline.

use super::compiler::{basic_blocks, find_locks, transform, Block, Mode, PassError};
use super::interp::{run_scheme, Machine, Outcome};
use super::ipdom::{immediate_post_dominators, run_ipdom};
use super::isa::{assemble, normalize, Instr};
use super::programs::{plain_programs, LockLayout};
use super::*;

fn idle() -> SimtIn {
    SimtIn::default()
}
fn init(pc: u32, mask: u64) -> SimtIn {
    SimtIn {
        init_valid: true,
        init_pc: pc,
        init_mask: mask,
        ..idle()
    }
}
fn start(sync: bool) -> SimtIn {
    SimtIn {
        start_valid: true,
        start_sync: sync,
        ..idle()
    }
}
fn end(cond: u64, exit: u64, taken: u32, fall: u32) -> SimtIn {
    SimtIn {
        end_valid: true,
        end_cond: cond,
        end_exit: exit,
        end_taken: taken,
        end_fall: fall,
        ..idle()
    }
}

/// Drive `inputs`, return the outputs of the cycle after each (the decision).
fn decide(u: &mut SimtIssue, inputs: &[SimtIn]) -> Vec<SimtOut> {
    inputs
        .iter()
        .map(|i| {
            u.step(i);
            u.step(&idle())
        })
        .collect()
}

/// Worked example (the module doc of `hdl::simt_issue`): 4 threads, a branch that splits
/// them, an exit, a sync block that lets the threads behind catch up.
#[test]
fn worked_example() {
    let mut u = SimtIssue::new(SimtConfig {
        threads: 4,
        pc_bits: 8,
    });
    let o = decide(
        &mut u,
        &[
            init(10, 0b1111),
            start(false),
            end(0b0101, 0, 20, 30), // threads 0, 2 → 20; 1, 3 → 30
            start(false),
            end(0, 0b0001, 25, 25), // thread 0 exits at 20, thread 2 goes on to 25
            start(true),            // sync block at 30: thread 2 (at 25) is behind
            start(false),
            end(0, 0, 30, 30),
            start(true),
        ],
    );
    assert_eq!(
        (o[0].warp_pc, o[0].live, o[0].rep, o[0].done),
        (10, 0b1111, 0, false)
    );
    assert_eq!(o[1].active, 0b1111);
    // rep 0 leads: warp PC 20, rep → 1
    assert_eq!((o[2].warp_pc, o[2].rep, o[2].active), (20, 1, 0));
    assert_eq!(o[3].active, 0b0101);
    // thread 0 exits; rep 1 is live: it leads (30), rep → 2
    assert_eq!((o[4].warp_pc, o[4].rep, o[4].live), (30, 2, 0b1110));
    // sync at 30: thread 2 is behind (25 < 30): redirect to it
    assert_eq!(
        (o[5].redirect, o[5].active, o[5].rep, o[5].warp_pc),
        (true, 0b0100, 2, 25)
    );
    assert_eq!(o[6].active, 0b0100);
    // thread 2 leads: 30, rep → 3
    assert_eq!((o[7].warp_pc, o[7].rep), (30, 3));
    // nobody behind now: all three run the sync block
    assert_eq!((o[8].redirect, o[8].active), (false, 0b1110));
}

#[test]
fn errors_change_nothing() {
    let mut u = SimtIssue::new(SimtConfig::board());
    let before = u.clone();
    let o = decide(&mut u, &[start(false)]);
    assert_eq!((o[0].error, o[0].error_code), (true, error::BAD_SEQ));
    let mut again = before.clone();
    again.step(&idle());
    decide(&mut u, &[init(5, 0xff)]);
    let snapshot = u.clone();
    for bad in [
        init(7, 1),
        end(0, 0xff, 0, 0),
        SimtIn {
            init_valid: true,
            start_valid: true,
            ..idle()
        },
    ] {
        u.step(&bad);
        let o = u.step(&idle());
        assert!(o.error, "{bad:?}");
        assert_eq!(o.live, 0xff);
        assert_eq!(u.next_pcs(), snapshot.next_pcs());
        assert!(!u.in_block());
    }
    let o = decide(&mut u, &[init(7, 1)]);
    assert_eq!(o[0].error_code, error::BUSY);
}

#[test]
fn exit_of_rep_hands_the_warp_to_the_next_live_thread() {
    let mut u = SimtIssue::new(SimtConfig {
        threads: 3,
        pc_bits: 3,
    });
    let o = decide(
        &mut u,
        &[
            init(1, 0b111),
            start(false),
            end(0b010, 0, 5, 2), // rep 0 → 2 leads; rep → 1; thread 1 → 5
            start(false),        // at 2: threads 0 and 2
            end(0, 0b001, 6, 6), // thread 0 exits, 2 → 6; rep 1 live → leads (5); rep → 2
        ],
    );
    assert_eq!((o[2].warp_pc, o[2].rep), (2, 1));
    assert_eq!(o[3].active, 0b101);
    assert_eq!((o[4].warp_pc, o[4].rep, o[4].live), (5, 2, 0b110));
    // only thread 1 is at 5: it runs and exits
    let o = decide(&mut u, &[start(false), end(0, 0b010, 0, 0)]);
    assert_eq!(o[0].active, 0b010);
    // rep 2 is live: it leads (PC 6) and, alone, stays rep
    assert_eq!((o[1].warp_pc, o[1].rep, o[1].live), (6, 2, 0b100));
    let o = decide(&mut u, &[start(false), end(0, 0b100, 0, 0)]);
    assert!(o[1].done && o[1].live == 0);
}

// ------------------------------------------------------------------ compiler pass

const SPIN: &str = "
    tid  r1
    li   r7, 0
    and  r1, r1, r7
    addi r5, r1, 32
    addi r1, r1, 16
    li   r3, 1
spin:
    cas  r2, r1, r0, r3
    bne  r2, r0, spin
    ld   r4, r5, 0
    addi r4, r4, 1
    st   r4, r5, 0
    st   r0, r1, 0
    exit
";

#[test]
fn basic_blocks_of_the_spin_lock() {
    let p = assemble(SPIN).unwrap();
    assert_eq!(
        basic_blocks(&p),
        vec![
            Block {
                start: 0,
                end: 6,
                sync: false
            },
            Block {
                start: 6,
                end: 8,
                sync: false
            },
            Block {
                start: 8,
                end: 13,
                sync: false
            },
        ]
    );
    let locks = find_locks(&p, &basic_blocks(&p));
    assert_eq!(locks.len(), 1);
    assert_eq!(
        (locks[0].block, locks[0].cas_at, locks[0].loop_head),
        (1, 6, 6)
    );
}

/// Claims 2–8 by hand: every block gets the second prologue (no block needs sync), the
/// epilogue replaces each jump (`ws.bne` / `ws.goto` / `ws.exit`, then `ws.end`).
#[test]
fn pass_inserts_prologues_and_epilogues_into_the_spin_lock() {
    let t = transform(&assemble(SPIN).unwrap(), Mode::Auto).unwrap();
    assert!(t.applied);
    let want = "
bb0:
    ws.start bb0
    tid r1
    li r7, 0
    and r1, r1, r7
    addi r5, r1, 32
    addi r1, r1, 16
    li r3, 1
    ws.goto spin
    ws.end
spin:
    ws.start spin
    cas r2, r1, r0, r3
    ws.bne r2, r0, spin, bb2
    ws.end
bb2:
    ws.start bb2
    ld r4, r5, 0
    addi r4, r4, 1
    st r4, r5, 0
    st r0, r1, 0
    ws.exit
    ws.end
";
    assert_eq!(t.program.to_text(), normalize(want));
    assert_eq!(t.block_starts, vec![0, 9, 13]);
}

/// Claim 7: the block with the `vote` gets the first prologue; test-and-test-and-set is a
/// lock pattern too (the `cas` block branches back to the test block).
#[test]
fn pass_marks_the_vote_block_sync_and_finds_the_ttas_lock() {
    let src = "
    tid  r1
spin:
    ld   r2, r1, 16
    bne  r2, r0, spin
    cas  r2, r1, r0, r3
    bne  r2, r0, spin
    st   r0, r1, 16
    br   join
join:
    vote r6, r3
    exit
";
    let t = transform(&assemble(src).unwrap(), Mode::Auto).unwrap();
    assert_eq!(t.locks.len(), 1);
    assert_eq!(t.locks[0].loop_head, 1);
    let want = "
bb0:
    ws.start bb0
    tid r1
    ws.goto spin
    ws.end
spin:
    ws.start spin
    ld r2, r1, 16
    ws.bne r2, r0, spin, bb2
    ws.end
bb2:
    ws.start bb2
    cas r2, r1, r0, r3
    ws.bne r2, r0, spin, bb3
    ws.end
bb3:
    ws.start bb3
    st r0, r1, 16
    ws.goto join
    ws.end
join:
    ws.start.sync join
    vote r6, r3
    ws.exit
    ws.end
";
    assert_eq!(t.program.to_text(), normalize(want));
}

/// Claim 10: without the lock pattern (here a forward try-lock and a plain loop) `Auto`
/// leaves the program alone; `Force` transforms it.
#[test]
fn pass_leaves_lock_free_programs_alone_in_auto_mode() {
    let src = "
    tid  r1
    cas  r2, r1, r0, r3
    bne  r2, r0, skip
    st   r0, r1, 0
skip:
    addi r1, r1, -1
    blt  r0, r1, skip
    exit
";
    let p = assemble(src).unwrap();
    let t = transform(&p, Mode::Auto).unwrap();
    assert!(!t.applied && t.locks.is_empty());
    assert_eq!(t.program, p);
    let f = transform(&p, Mode::Force).unwrap();
    assert!(f.applied);
    assert_eq!(f.program.code[0], Instr::WsStart(0));
    assert_eq!(
        transform(&f.program, Mode::Force),
        Err(PassError::AlreadyTransformed(0))
    );
    let off_the_end = assemble("    tid r1\n    beq r1, r0, x\nx:\n    li r2, 1\n").unwrap();
    assert_eq!(
        transform(&off_the_end, Mode::Force),
        Err(PassError::FallsOffTheEnd)
    );
}

#[test]
fn assembler_round_trips_and_reports_errors() {
    for l in LockLayout::all() {
        let p = l.program();
        assert_eq!(assemble(&p.to_text()).unwrap(), p, "{}", l.name());
    }
    let e = assemble("    add r1, r2\n").unwrap_err();
    assert_eq!(e.line, 1);
    assert!(assemble("    br nowhere\n").is_err());
    assert!(assemble("    li r9, 1\n").is_err());
}

#[test]
fn post_dominators_of_if_else_and_spin() {
    let p = plain_programs()
        .into_iter()
        .find(|p| p.name == "if_else")
        .unwrap()
        .program();
    // blocks: [0..4) → {even, 4}, [4..6) → join, even [6..7), join [7..10)
    assert_eq!(
        immediate_post_dominators(&p),
        vec![Some(7), Some(7), Some(7), None]
    );
    let s = assemble(SPIN).unwrap();
    assert_eq!(immediate_post_dominators(&s), vec![Some(6), Some(8), None]);
}

// ------------------------------------------------------------------ demonstration

fn scheme(p: &super::isa::Program, threads: usize) -> (interp::Run, Machine) {
    let t = transform(p, Mode::Force).unwrap();
    let mut m = Machine::new(threads);
    let mut u = SimtIssue::new(SimtConfig {
        threads,
        pc_bits: 8,
    });
    let r = run_scheme(&t.program, &mut m, &mut u, 1_000_000, false);
    (r, m)
}

/// The per-thread spin lock finishes under the scheme with every counter right, for 8 and 32
/// threads and every layout; the IPDOM baseline is stopped by its livelock detector (a
/// repeated machine state).
#[test]
fn spin_lock_finishes_under_the_scheme_and_livelocks_under_ipdom() {
    for threads in [8, 32] {
        for l in LockLayout::all() {
            let p = l.program();
            let (r, m) = scheme(&p, threads);
            assert!(r.finished(), "{} T={threads}: {:?}", l.name(), r.outcome);
            for (a, v) in l.expected(threads) {
                assert_eq!(m.mem[a], v, "{} T={threads} mem[{a}]", l.name());
            }
            let total: i64 = (0..l.locks).map(|k| m.mem[32 + k]).sum();
            assert_eq!(total, threads as i64);
            let mut bm = Machine::new(threads);
            let b = run_ipdom(&p, &mut bm, 200_000);
            assert!(
                matches!(b.outcome, Outcome::Livelock { proven: true, .. }),
                "{} T={threads}: IPDOM {:?}",
                l.name(),
                b.outcome
            );
            // each lock's winner waits at the reconvergence point before its critical section
            // (no counter moved) while the losers spin on the lock it holds
            for k in 0..l.locks {
                assert_eq!(
                    (bm.mem[32 + k], bm.mem[16 + k]),
                    (0, 1),
                    "{} lock {k}",
                    l.name()
                );
            }
        }
    }
}

/// With one thread per lock there is no contention: IPDOM finishes too (the detector does
/// not fire on a program that ends).
#[test]
fn ipdom_finishes_without_contention() {
    let l = LockLayout {
        locks: 4,
        ttas: false,
        vote_after: false,
    };
    let mut m = Machine::new(4);
    let r = run_ipdom(&l.program(), &mut m, 100_000);
    assert!(r.finished(), "{:?}", r.outcome);
    for (a, v) in l.expected(4) {
        assert_eq!(m.mem[a], v);
    }
}

/// Lock-free programs give the same results under both, for several warp sizes.
#[test]
fn plain_programs_agree_with_their_expected_results() {
    for p in plain_programs() {
        for threads in [1, 3, 8, 32] {
            let (r, m) = scheme(&p.program(), threads);
            assert!(r.finished(), "{} T={threads}: {:?}", p.name, r.outcome);
            let mut bm = Machine::new(threads);
            let b = run_ipdom(&p.program(), &mut bm, 100_000);
            assert!(b.finished(), "{} T={threads}: {:?}", p.name, b.outcome);
            for t in 0..threads {
                let want = (p.expected)(t, threads);
                assert_eq!(m.mem[64 + t], want, "scheme {} T={threads} t={t}", p.name);
                assert_eq!(bm.mem[64 + t], want, "ipdom {} T={threads} t={t}", p.name);
            }
        }
    }
}

/// Without the first prologue the vote would run split (claims 7–8 are what make it see the
/// whole warp): force the vote block to the second prologue and the count drops.
#[test]
fn without_the_sync_prologue_the_vote_runs_split() {
    let p = plain_programs()
        .into_iter()
        .find(|p| p.name == "vote_after_branch")
        .unwrap()
        .program();
    let mut t = transform(&p, Mode::Force).unwrap();
    for i in t.program.code.iter_mut() {
        if let Instr::WsStartSync(b) = *i {
            *i = Instr::WsStart(b);
        }
    }
    let mut m = Machine::new(8);
    let mut u = SimtIssue::new(SimtConfig::board());
    let r = run_scheme(&t.program, &mut m, &mut u, 100_000, false);
    assert!(r.finished());
    assert!((0..8).any(|t| m.mem[64 + t] < 8), "{:?}", &m.mem[64..72]);
}
