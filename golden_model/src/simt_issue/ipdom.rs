//! The baseline: a classic IPDOM reconvergence stack (one PC per warp, divergent paths pushed
//! with the branch's immediate post-dominator as their reconvergence PC), running the *source*
//! program.
//!
//! At a divergent branch the stack top is turned into the reconvergence entry (its PC becomes the
//! branch block's immediate post-dominator) and the two paths are pushed, the taken path first,
//! so the fall-through path runs first; a path that starts at the reconvergence PC is not pushed
//! (its threads already wait there). An entry whose PC reaches its reconvergence PC, or whose
//! mask is empty, is popped. `exit` removes the threads from every entry.
//!
//! A per-thread spin lock livelocks here: the lock winner leaves the loop, reaches the
//! reconvergence point (the loop exit) and waits for the losers, who spin on a lock the winner
//! will only release after the reconvergence point. The run is bounded: it stops as a *proven*
//! livelock when the whole machine state (stack, registers, memory) repeats at a backward jump
//! (a deterministic machine then loops forever), or at the cycle bound.
//!
//! Timing as in [`super::interp`]: a cycle per instruction plus a bubble for every taken branch,
//! jump, divergence and stack pop.

use super::compiler::basic_blocks;
use super::interp::{Machine, Outcome, Run};
use super::isa::{Instr, Program};
use std::collections::HashSet;

/// One stack entry: the threads `mask` run at `pc` until they reach `rpc`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Entry {
    pub pc: usize,
    /// Reconvergence PC (`None`: the paths only end by exiting).
    pub rpc: Option<usize>,
    pub mask: u64,
}

/// Immediate post-dominator of every instruction index's block, as a source instruction index
/// (`None` when only the virtual exit post-dominates it). Indexed by block.
pub fn immediate_post_dominators(p: &Program) -> Vec<Option<usize>> {
    let blocks = basic_blocks(p);
    let n = blocks.len();
    let block_of = |at: usize| blocks.iter().position(|b| b.start == at);
    let succ: Vec<Vec<usize>> = blocks
        .iter()
        .map(|b| {
            let last = b.end - 1;
            p.code[last]
                .successors(last)
                .into_iter()
                .filter(|&s| s < p.code.len())
                .map(|s| block_of(s).expect("successor is a leader"))
                .collect()
        })
        .collect();
    // post-dominator sets (index n = virtual exit), iterated to the fixed point
    let full: Vec<bool> = vec![true; n + 1];
    let mut pdom: Vec<Vec<bool>> = vec![full; n];
    let exit_only: Vec<bool> = (0..=n).map(|k| k == n).collect();
    loop {
        let mut changed = false;
        for b in (0..n).rev() {
            let mut meet: Vec<bool> = vec![true; n + 1];
            let succs: Vec<&Vec<bool>> = if succ[b].is_empty() {
                vec![&exit_only]
            } else {
                succ[b].iter().map(|&s| &pdom[s]).collect()
            };
            for s in succs {
                for k in 0..=n {
                    meet[k] &= s[k];
                }
            }
            meet[b] = true;
            if meet != pdom[b] {
                pdom[b] = meet;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    (0..n)
        .map(|b| {
            // the strict post-dominator that every other strict post-dominator post-dominates
            let strict: Vec<usize> = (0..n).filter(|&k| k != b && pdom[b][k]).collect();
            strict
                .iter()
                .copied()
                .find(|&c| strict.iter().all(|&o| o == c || pdom[c][o]))
                .map(|c| blocks[c].start)
        })
        .collect()
}

/// Run the source program on the IPDOM stack with every thread of `m` live.
pub fn run_ipdom(p: &Program, m: &mut Machine, max_cycles: u64) -> Run {
    let blocks = basic_blocks(p);
    let ipdom = immediate_post_dominators(p);
    let rpc_of = |at: usize| {
        let b = blocks
            .iter()
            .position(|b| (b.start..b.end).contains(&at))
            .expect("in a block");
        ipdom[b]
    };
    let mut run = Run::start();
    let mut stack = vec![Entry {
        pc: 0,
        rpc: None,
        mask: m.all(),
    }];
    let mut seen: HashSet<(Vec<Entry>, Machine)> = HashSet::new();
    loop {
        // pop finished and reconverged entries (a decision: one bubble each)
        while let Some(top) = stack.last() {
            if top.mask == 0 || Some(top.pc) == top.rpc {
                stack.pop();
                run.cycles += 1;
            } else {
                break;
            }
        }
        let Some(top) = stack.last().cloned() else {
            return run;
        };
        if run.cycles >= max_cycles {
            run.outcome = Outcome::Livelock {
                cycle: run.cycles,
                proven: false,
            };
            return run;
        }
        let Some(&ins) = p.code.get(top.pc) else {
            run.outcome = Outcome::Fault(format!("PC {} outside the program", top.pc));
            return run;
        };
        run.instructions += 1;
        run.cycles += 1;
        let k = stack.len() - 1;
        let mut jumped_back = false;
        match ins {
            Instr::Branch(c, ra, rb, t) => {
                let taken = m.cond_mask(c, ra, rb, top.mask);
                let fall = top.mask & !taken;
                if fall == 0 {
                    stack[k].pc = t;
                    run.cycles += 1;
                    jumped_back = t <= top.pc;
                } else if taken == 0 {
                    stack[k].pc = top.pc + 1;
                } else {
                    let rpc = rpc_of(top.pc);
                    let e = stack.pop().expect("top");
                    if let Some(r) = rpc {
                        stack.push(Entry {
                            pc: r,
                            rpc: e.rpc,
                            mask: e.mask,
                        });
                    }
                    if Some(t) != rpc {
                        stack.push(Entry {
                            pc: t,
                            rpc,
                            mask: taken,
                        });
                    }
                    if Some(top.pc + 1) != rpc {
                        stack.push(Entry {
                            pc: top.pc + 1,
                            rpc,
                            mask: fall,
                        });
                    }
                    run.cycles += 1;
                    jumped_back = t <= top.pc;
                }
            }
            Instr::Jump(t) => {
                stack[k].pc = t;
                run.cycles += 1;
                jumped_back = t <= top.pc;
            }
            Instr::Exit => {
                for e in stack.iter_mut() {
                    e.mask &= !top.mask;
                }
            }
            Instr::WsStart(_)
            | Instr::WsStartSync(_)
            | Instr::WsBranch(..)
            | Instr::WsGoto(_)
            | Instr::WsExit
            | Instr::WsEnd => {
                run.outcome = Outcome::Fault(format!("{ins:?}: the baseline runs source programs"));
                return run;
            }
            _ => {
                m.exec(&ins, top.mask);
                stack[k].pc = top.pc + 1;
            }
        }
        if jumped_back && !seen.insert((stack.clone(), m.clone())) {
            run.outcome = Outcome::Livelock {
                cycle: run.cycles,
                proven: true,
            };
            return run;
        }
    }
}
