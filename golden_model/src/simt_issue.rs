//! SIMT representative-thread issue unit (SPEC Unit 5, seed 001): the executable specification.
//!
//! One warp of T threads shares one program counter (the *warp PC*). Each thread keeps the PC it
//! wants to run next in its thread-local register (the TLR, here `next_pc[t]`). At every block
//! end the warp follows one *representative* thread (`rep`): the warp PC becomes that thread's
//! next PC, and `rep` moves on round robin over the live threads (claims 1, 5 and 9: "use, then
//! advance"). At every block start the threads whose next PC equals the block's PC are the
//! active mask (second prologue, claim 6); a block the compiler marked `sync` first lets the
//! threads *behind* it (next PC < block PC) catch up (first prologue and its management
//! sequence, claims 7–8): the unit then strobes `redirect` and the front end continues at the
//! new warp PC. Because the warp never waits for a reconvergence point, a thread spinning on a
//! lock held by another thread of the same warp cannot starve the holder: within T block ends
//! every live thread leads the warp once.
//!
//! See the module doc of `hdl::simt_issue` for the ports; this file decides the behaviour.
//!
//! ## One cycle (all outputs registered: a decision is visible the cycle after its strobe)
//! At most one of `init_valid`, `start_valid`, `end_valid` may be high in a cycle.
//! 1. **reset** wins over everything: no live thread, `done` high, every register zero.
//! 2. **Two or more strobes** in one cycle: `BAD_SEQ`, nothing changes.
//! 3. **init** {pc, mask}: `BUSY` while a thread is live. Otherwise live = mask (bits ≥ T
//!    ignored), every next PC = pc, warp PC = pc, rep = lowest live thread (0 for an empty mask,
//!    which leaves the warp done), active = 0.
//! 4. **start** (legal only when a warp is live and no block is open): with b = warp PC,
//!    behind = live threads with next PC < b. If `start_sync` and behind ≠ 0: active = behind,
//!    rep = first thread of behind at or after rep (cyclic by index), warp PC = next PC of that
//!    thread, `redirect` strobes; no block is open (the front end starts again at the new PC).
//!    Otherwise active = live threads with next PC == b and the block is open. Out of turn:
//!    `BAD_SEQ`.
//! 5. **end** (legal only while a block is open): every active thread whose `end_exit` bit is set
//!    leaves live (exit wins over cond); every other active thread sets its next PC to
//!    `end_taken` if its `end_cond` bit is set, else `end_fall`; inactive threads ignore their
//!    bits. Then, if a thread is still live: leader = first live thread at or after rep (rep
//!    itself when it is still live, else the next live thread after it), warp PC = leader's next
//!    PC, rep = next live thread after the leader (cyclic; the leader itself when it is alone).
//!    With no live thread left the warp is done; warp PC and rep keep their values. The block
//!    closes and active = 0. Out of turn: `BAD_SEQ`.
//!
//! Outputs: `warp_pc`, `active`, `live`, `rep` are the registers; `redirect` and `error` /
//! `error_code` strobe for the one cycle after the decision; `done` = no live thread. An error
//! changes nothing but the error strobe (and `redirect` drops, as every strobe does).
//!
//! ## Decisions SPEC leaves open
//! - An init with an empty mask is accepted and leaves the warp done (nothing to run).
//! - A redirect leaves no block open: the next event must be a start (at the new warp PC).
//! - After a block end the active mask reads 0 (no block is open).
//! - Two strobes in one cycle are a protocol violation (`BAD_SEQ`), also init together with
//!   start or end.

use crate::{index_bits, CycleModel};

/// `error_code` values (0 = no error).
pub mod error {
    /// `init_valid` while a thread of the warp is live.
    pub const BUSY: u8 = 1;
    /// A start or end out of turn, or two strobes in one cycle.
    pub const BAD_SEQ: u8 = 2;
}

/// Construction-time parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SimtConfig {
    /// Threads per warp T (1..=32): width of every mask.
    pub threads: usize,
    /// Width of the warp PC and of every next-PC register (1..=16).
    pub pc_bits: usize,
}

impl SimtConfig {
    /// Board config: 8 threads, 8-bit PCs.
    pub const fn board() -> Self {
        Self {
            threads: 8,
            pc_bits: 8,
        }
    }
    /// Full (patent-scale) config: a 32-thread warp, 16-bit PCs.
    pub const fn full() -> Self {
        Self {
            threads: 32,
            pc_bits: 16,
        }
    }
    /// Width of `rep` (clog2(T), at least 1). Derived.
    pub const fn rep_bits(&self) -> usize {
        index_bits(self.threads)
    }
    /// Mask of the T thread bits.
    pub const fn all(&self) -> u64 {
        if self.threads == 64 {
            !0
        } else {
            (1u64 << self.threads) - 1
        }
    }
    /// Mask of the PC bits.
    pub const fn pc_mask(&self) -> u32 {
        ((1u64 << self.pc_bits) - 1) as u32
    }
    /// Panics with a message naming the bad parameter.
    pub fn validate(&self) {
        assert!(
            (1..=32).contains(&self.threads),
            "simt_issue: threads must be 1..=32, got {}",
            self.threads
        );
        assert!(
            (1..=16).contains(&self.pc_bits),
            "simt_issue: pc_bits must be 1..=16, got {}",
            self.pc_bits
        );
    }
}

/// Inputs driven during one cycle.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct SimtIn {
    pub reset: bool,
    pub init_valid: bool,
    pub init_pc: u32,
    pub init_mask: u64,
    pub start_valid: bool,
    pub start_sync: bool,
    pub end_valid: bool,
    pub end_cond: u64,
    pub end_exit: u64,
    pub end_taken: u32,
    pub end_fall: u32,
}

crate::reset_by_field!(SimtIn);

/// Outputs seen during one cycle (all registered).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct SimtOut {
    pub warp_pc: u32,
    pub active: u64,
    pub live: u64,
    pub rep: u32,
    pub redirect: bool,
    pub done: bool,
    pub error: bool,
    pub error_code: u8,
}

/// The issue unit of one warp.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SimtIssue {
    cfg: SimtConfig,
    /// The TLR: the next PC of every thread.
    next_pc: Vec<u32>,
    live: u64,
    active: u64,
    rep: usize,
    warp_pc: u32,
    /// A block is open (start seen, end not yet).
    in_block: bool,
    /// Outputs visible in the next cycle.
    out: SimtOut,
}

impl SimtIssue {
    pub fn new(cfg: SimtConfig) -> Self {
        cfg.validate();
        let mut s = Self {
            cfg,
            next_pc: vec![0; cfg.threads],
            live: 0,
            active: 0,
            rep: 0,
            warp_pc: 0,
            in_block: false,
            out: SimtOut::default(),
        };
        s.reset();
        s
    }

    pub fn config(&self) -> SimtConfig {
        self.cfg
    }
    /// The TLR (next PC per thread), for tests and the interpreter's traces.
    pub fn next_pcs(&self) -> &[u32] {
        &self.next_pc
    }
    pub fn in_block(&self) -> bool {
        self.in_block
    }
    /// The warp PC register (the decision of the last cycle stepped).
    pub fn warp_pc(&self) -> u32 {
        self.warp_pc
    }
    /// The live mask register.
    pub fn live(&self) -> u64 {
        self.live
    }
    /// The outputs the next cycle will show (the registered decision of the last step).
    pub fn outputs_next(&self) -> SimtOut {
        self.out.clone()
    }
    /// The representative register.
    pub fn rep(&self) -> usize {
        self.rep
    }

    fn bit(&self, t: usize) -> u64 {
        1 << t
    }

    /// First thread of `mask` at or after `from`, cyclic by index.
    pub fn first_at_or_after(threads: usize, mask: u64, from: usize) -> Option<usize> {
        (0..threads)
            .map(|k| (from + k) % threads)
            .find(|&t| mask >> t & 1 == 1)
    }

    /// Next thread of `mask` after `from` (cyclic; `from` itself when it is the only one).
    pub fn next_after(threads: usize, mask: u64, from: usize) -> Option<usize> {
        Self::first_at_or_after(threads, mask, (from + 1) % threads)
    }

    fn apply(&mut self, i: &SimtIn) -> Result<bool, u8> {
        let c = self.cfg;
        let strobes = [i.init_valid, i.start_valid, i.end_valid]
            .iter()
            .filter(|&&s| s)
            .count();
        if strobes > 1 {
            return Err(error::BAD_SEQ);
        }
        if i.init_valid {
            if self.live != 0 {
                return Err(error::BUSY);
            }
            let pc = i.init_pc & c.pc_mask();
            self.live = i.init_mask & c.all();
            self.next_pc.iter_mut().for_each(|p| *p = pc);
            self.warp_pc = pc;
            self.rep = Self::first_at_or_after(c.threads, self.live, 0).unwrap_or(0);
            self.active = 0;
            self.in_block = false;
            return Ok(false);
        }
        if i.start_valid {
            if self.live == 0 || self.in_block {
                return Err(error::BAD_SEQ);
            }
            let b = self.warp_pc;
            let (behind, at_b) = (0..c.threads).filter(|&t| self.live >> t & 1 == 1).fold(
                (0u64, 0u64),
                |(lt, eq), t| {
                    let p = self.next_pc[t];
                    (lt | u64::from(p < b) << t, eq | u64::from(p == b) << t)
                },
            );
            if i.start_sync && behind != 0 {
                // claims 7–8: the threads behind catch up first
                let r = Self::first_at_or_after(c.threads, behind, self.rep).expect("behind ≠ 0");
                self.active = behind;
                self.rep = r;
                self.warp_pc = self.next_pc[r];
                return Ok(true);
            }
            // claim 6 (and 7 without threads behind): the threads at this block run it
            debug_assert!(
                at_b != 0,
                "simt_issue: a block starts with no thread at its PC"
            );
            self.active = at_b;
            self.in_block = true;
            return Ok(false);
        }
        if i.end_valid {
            if !self.in_block {
                return Err(error::BAD_SEQ);
            }
            // claim 5: every active thread exits or takes its branch target
            for t in 0..c.threads {
                if self.active & self.bit(t) == 0 {
                    continue;
                }
                if i.end_exit & self.bit(t) != 0 {
                    self.live &= !self.bit(t);
                } else if i.end_cond & self.bit(t) != 0 {
                    self.next_pc[t] = i.end_taken & c.pc_mask();
                } else {
                    self.next_pc[t] = i.end_fall & c.pc_mask();
                }
            }
            // claims 2, 5, 9: use the representative, then advance round robin
            if let Some(leader) = Self::first_at_or_after(c.threads, self.live, self.rep) {
                self.warp_pc = self.next_pc[leader];
                self.rep = Self::next_after(c.threads, self.live, leader).expect("leader live");
            }
            self.active = 0;
            self.in_block = false;
            return Ok(false);
        }
        Ok(false)
    }

    fn check_invariants(&self) {
        let c = self.cfg;
        debug_assert_eq!(self.live & !c.all(), 0, "live beyond T");
        debug_assert_eq!(self.active & !self.live, 0, "an active thread is not live");
        debug_assert!(self.rep < c.threads, "rep out of range");
        debug_assert!(
            self.next_pc.iter().all(|&p| p <= c.pc_mask()),
            "next PC wider than the PC"
        );
        debug_assert!(
            !self.in_block || self.active != 0,
            "an open block has no active thread"
        );
    }
}

impl CycleModel for SimtIssue {
    type In = SimtIn;
    type Out = SimtOut;

    fn reset(&mut self) {
        self.next_pc.iter_mut().for_each(|p| *p = 0);
        self.live = 0;
        self.active = 0;
        self.rep = 0;
        self.warp_pc = 0;
        self.in_block = false;
        self.out = SimtOut {
            done: true,
            ..SimtOut::default()
        };
    }

    fn step(&mut self, i: &SimtIn) -> SimtOut {
        let seen = self.out.clone();
        if i.reset {
            self.reset();
            return seen;
        }
        let before_live = self.live;
        let verdict = self.apply(i);
        debug_assert!(
            self.live & !before_live == 0 || i.init_valid,
            "an exited thread came back"
        );
        self.check_invariants();
        let (redirect, error_code) = match verdict {
            Ok(r) => (r, 0),
            Err(e) => (false, e),
        };
        self.out = SimtOut {
            warp_pc: self.warp_pc,
            active: self.active,
            live: self.live,
            rep: self.rep as u32,
            redirect,
            done: self.live == 0,
            error: error_code != 0,
            error_code,
        };
        seen
    }
}

pub mod compiler;
pub mod interp;
pub mod ipdom;
pub mod isa;
pub mod programs;

#[cfg(test)]
mod tests;
