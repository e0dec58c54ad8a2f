//! The compiler pass of claims 2–10: basic blocks, the lock pattern, the prologues and the
//! epilogue.
//!
//! 1. **Basic blocks.** Leaders are instruction 0, every branch target and every instruction
//!    after a branch, jump or exit; a block runs from its leader to the next leader.
//! 2. **Lock pattern (claim 10).** A block that holds an atomic `cas rd, …` and ends in a
//!    conditional branch on `rd` back to itself or an earlier block is a spin on a lock (the
//!    classic `while (atomicCAS(&l, 0, 1) != 0);`, also after a test load: test-and-test-and-set).
//!    Only a program with such a site needs the scheme; [`Mode::Auto`] leaves the others alone,
//!    [`Mode::Force`] transforms every program (to measure what the scheme costs).
//! 3. **Prologues (claims 2, 3, 6, 7, 8).** A block that holds an instruction that needs
//!    intra-warp synchronization (`vote`) starts with the first prologue `ws.start.sync B`
//!    (threads with TLR < B catch up first: management sequence, claim 8); every other block
//!    with the second prologue `ws.start B` (active = threads with TLR == B, claim 6).
//! 4. **Epilogue (claims 4, 5).** After the block's own instructions and in place of its jump:
//!    the condition and TLR update (`ws.bne ra, rb, taken, fall`, or `ws.goto T` for a jump or a
//!    fall into the next block, or `ws.exit`), then `ws.end` (warp PC = the representative's
//!    TLR, next representative, jump to the warp PC).
//!
//! Block labels keep the program's own names; a block without one is called `bb<k>` (k = its
//! index in block order). The transformed block order is the source order, so "TLR < B" means
//! "behind B in program order".

use super::isa::{Instr, Program};

/// Whether to transform programs without a lock pattern.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Claim 10: only programs with the lock pattern get the TLR scheme.
    Auto,
    /// Every program (to measure the scheme's cost where it is not needed).
    Force,
}

/// One basic block of the source program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    /// Source instruction range `start..end`.
    pub start: usize,
    pub end: usize,
    /// Holds an instruction that needs intra-warp synchronization (gets the first prologue).
    pub sync: bool,
}

/// A spin on a lock found by the pattern detector.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LockSite {
    /// Index of the spinning block.
    pub block: usize,
    /// Source index of its `cas`.
    pub cas_at: usize,
    /// Source index of the block the back edge goes to.
    pub loop_head: usize,
}

/// The pass's result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Transformed {
    pub program: Program,
    pub blocks: Vec<Block>,
    pub locks: Vec<LockSite>,
    /// Whether the program was transformed (false: `program` is the source, unchanged).
    pub applied: bool,
    /// Start of every block in the transformed program (its `ws.start`), by block index.
    pub block_starts: Vec<usize>,
}

/// Error of the pass.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PassError {
    /// The last block runs off the end of the program.
    FallsOffTheEnd,
    /// The program uses the scheme's own instructions already.
    AlreadyTransformed(usize),
}

/// Basic blocks of a source program, in program order.
pub fn basic_blocks(p: &Program) -> Vec<Block> {
    let n = p.code.len();
    let mut leader = vec![false; n + 1];
    if n > 0 {
        leader[0] = true;
    }
    for (k, i) in p.code.iter().enumerate() {
        if let Instr::Branch(_, _, _, t) | Instr::Jump(t) = *i {
            leader[t] = true;
        }
        if i.is_terminator() {
            leader[k + 1] = true;
        }
    }
    let starts: Vec<usize> = (0..n).filter(|&k| leader[k]).collect();
    starts
        .iter()
        .enumerate()
        .map(|(b, &s)| {
            let end = starts.get(b + 1).copied().unwrap_or(n);
            Block {
                start: s,
                end,
                sync: p.code[s..end].iter().any(Instr::needs_sync),
            }
        })
        .collect()
}

/// Claim 10: spin-lock sites (a `cas` whose result decides a branch back to the block or before).
pub fn find_locks(p: &Program, blocks: &[Block]) -> Vec<LockSite> {
    let block_of = |at: usize| blocks.iter().position(|b| (b.start..b.end).contains(&at));
    let mut out = vec![];
    for (bi, b) in blocks.iter().enumerate() {
        let last = b.end - 1;
        let Instr::Branch(_, ra, rb, target) = p.code[last] else {
            continue;
        };
        if target > b.start {
            continue; // a forward branch: a try-lock, not a spin
        }
        // the last write of a register the branch reads is a cas
        let cas = (b.start..last).rev().find_map(|k| match p.code[k] {
            Instr::Cas(rd, ..) if rd != 0 && (rd == ra || rd == rb) => Some(Some(k)),
            Instr::Li(rd, _)
            | Instr::Tid(rd)
            | Instr::Alu(_, rd, ..)
            | Instr::Addi(rd, ..)
            | Instr::Ld(rd, ..)
            | Instr::Vote(rd, _)
                if rd != 0 && (rd == ra || rd == rb) =>
            {
                Some(None)
            }
            _ => None,
        });
        if let Some(Some(cas_at)) = cas {
            out.push(LockSite {
                block: bi,
                cas_at,
                loop_head: block_of(target).map_or(target, |h| blocks[h].start),
            });
        }
    }
    out
}

/// Run the pass.
pub fn transform(p: &Program, mode: Mode) -> Result<Transformed, PassError> {
    if let Some(k) = p.code.iter().position(|i| {
        matches!(
            i,
            Instr::WsStart(_)
                | Instr::WsStartSync(_)
                | Instr::WsBranch(..)
                | Instr::WsGoto(_)
                | Instr::WsExit
                | Instr::WsEnd
        )
    }) {
        return Err(PassError::AlreadyTransformed(k));
    }
    let blocks = basic_blocks(p);
    let locks = find_locks(p, &blocks);
    if mode == Mode::Auto && locks.is_empty() {
        return Ok(Transformed {
            program: p.clone(),
            block_starts: blocks.iter().map(|b| b.start).collect(),
            blocks,
            locks,
            applied: false,
        });
    }
    if let Some(b) = blocks.last() {
        // the last block must leave by a jump or an exit (no fall-through past the end)
        if !matches!(p.code[b.end - 1], Instr::Jump(_) | Instr::Exit) {
            return Err(PassError::FallsOffTheEnd);
        }
    }
    // new start of every block: prologue + body (without its terminator) + epilogue (2)
    let mut block_starts = vec![];
    let mut at = 0;
    for b in &blocks {
        block_starts.push(at);
        let term = usize::from(p.code[b.end - 1].is_terminator());
        at += 1 + (b.end - b.start - term) + 2;
    }
    let new_of = |src: usize| {
        let bi = blocks
            .iter()
            .position(|b| b.start == src)
            .expect("a branch target is a leader");
        block_starts[bi]
    };
    let mut code = vec![];
    let mut labels = std::collections::BTreeMap::new();
    for (bi, b) in blocks.iter().enumerate() {
        let me = block_starts[bi];
        labels.insert(
            me,
            p.labels
                .get(&b.start)
                .cloned()
                .unwrap_or_else(|| format!("bb{bi}")),
        );
        code.push(if b.sync {
            Instr::WsStartSync(me)
        } else {
            Instr::WsStart(me)
        });
        let last = p.code[b.end - 1];
        let body_end = if last.is_terminator() {
            b.end - 1
        } else {
            b.end
        };
        code.extend_from_slice(&p.code[b.start..body_end]);
        let fall = || block_starts[bi + 1];
        code.push(match last {
            Instr::Branch(c, ra, rb, t) => Instr::WsBranch(c, ra, rb, new_of(t), fall()),
            Instr::Jump(t) => Instr::WsGoto(new_of(t)),
            Instr::Exit => Instr::WsExit,
            _ => Instr::WsGoto(fall()),
        });
        code.push(Instr::WsEnd);
    }
    Ok(Transformed {
        program: Program { code, labels },
        blocks,
        locks,
        applied: true,
        block_starts,
    })
}
