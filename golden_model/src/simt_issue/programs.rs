//! The demonstration and cost programs, with their expected results written from what each
//! program means (per-thread sequential semantics), not from a run.
//!
//! Memory layout used by all of them: locks at 16.., counters at 32.., per-thread results at
//! 64 + tid.

use super::isa::{assemble, Program};

/// How a spin-lock program lays out its locks and its spin.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LockLayout {
    /// Number of locks (a power of two ≤ 16); thread t uses lock `t mod locks` and the counter
    /// next to it.
    pub locks: usize,
    /// Test-and-test-and-set: spin on a plain load first, then try the `cas`.
    pub ttas: bool,
    /// After the critical section, a warp-wide `vote` in its own block (a sync block, claims
    /// 7–8) that must see every thread: each thread stores the count it saw at 64 + tid.
    pub vote_after: bool,
}

impl LockLayout {
    /// The layouts the demonstration runs.
    pub fn all() -> Vec<LockLayout> {
        let mut v = vec![];
        for locks in [1, 2, 4] {
            for ttas in [false, true] {
                v.push(LockLayout {
                    locks,
                    ttas,
                    vote_after: false,
                });
            }
        }
        v.push(LockLayout {
            locks: 1,
            ttas: false,
            vote_after: true,
        });
        v.push(LockLayout {
            locks: 2,
            ttas: true,
            vote_after: true,
        });
        v
    }

    pub fn name(&self) -> String {
        format!(
            "spin_lock_{}lock{}{}{}",
            self.locks,
            if self.locks > 1 { "s" } else { "" },
            if self.ttas { "_ttas" } else { "" },
            if self.vote_after { "_vote" } else { "" }
        )
    }

    /// The program text: `while (atomicCAS(&lock[t % L], 0, 1) != 0); counter[t % L]++;
    /// lock[t % L] = 0;` (optionally with a test load before the CAS, and a vote after).
    pub fn text(&self) -> String {
        assert!(
            self.locks.is_power_of_two() && self.locks <= 16,
            "locks: a power of two up to 16"
        );
        let spin = if self.ttas {
            "spin:\n    ld   r2, r1, 0\n    bne  r2, r0, spin\n    cas  r2, r1, r0, r3\n    bne  r2, r0, spin\n"
        } else {
            "spin:\n    cas  r2, r1, r0, r3\n    bne  r2, r0, spin\n"
        };
        let tail = if self.vote_after {
            "    br   join\njoin:\n    li   r6, 1\n    vote r6, r6\n    tid  r1\n    st   r6, r1, 64\n    exit\n"
        } else {
            "    exit\n"
        };
        format!(
            "    tid  r1\n    li   r7, {}\n    and  r1, r1, r7\n    addi r5, r1, 32       ; counter\n    addi r1, r1, 16       ; lock\n    li   r3, 1\n{spin}    ld   r4, r5, 0         ; critical section\n    addi r4, r4, 1\n    st   r4, r5, 0\n    st   r0, r1, 0         ; unlock\n{tail}",
            self.locks - 1
        )
    }

    pub fn program(&self) -> Program {
        assemble(&self.text()).expect("spin-lock program assembles")
    }

    /// Expected memory words (address, value) after every one of `threads` threads finished.
    pub fn expected(&self, threads: usize) -> Vec<(usize, i64)> {
        let mut v: Vec<(usize, i64)> = (0..self.locks)
            .map(|l| {
                let users = (0..threads).filter(|t| t % self.locks == l).count();
                (32 + l, users as i64)
            })
            .collect();
        v.extend((0..self.locks).map(|l| (16 + l, 0))); // every lock released
        if self.vote_after {
            v.extend((0..threads).map(|t| (64 + t, threads as i64)));
        }
        v
    }
}

/// A lock-free program and its expected per-thread result at 64 + tid.
pub struct Plain {
    pub name: &'static str,
    pub text: &'static str,
    /// Value at 64 + t for thread t of a warp of `threads` threads.
    pub expected: fn(usize, usize) -> i64,
}

/// Programs without locks: what the scheme costs where it is not needed.
pub fn plain_programs() -> Vec<Plain> {
    vec![
        Plain {
            name: "straight",
            text: "    tid  r1\n    li   r2, 3\n    mul  r3, r1, r2\n    addi r3, r3, 1\n    st   r3, r1, 64\n    exit\n",
            expected: |t, _| 3 * t as i64 + 1,
        },
        Plain {
            name: "if_else",
            text: "    tid  r1\n    li   r7, 1\n    and  r2, r1, r7\n    beq  r2, r0, even\n    li   r3, 100\n    br   join\neven:\n    li   r3, 200\njoin:\n    add  r3, r3, r1\n    st   r3, r1, 64\n    exit\n",
            expected: |t, _| if t % 2 == 0 { 200 } else { 100 } + t as i64,
        },
        Plain {
            name: "loop_tid",
            text: "    tid  r1\n    li   r2, 0\n    li   r3, 0\nloop:\n    beq  r3, r1, done\n    add  r2, r2, r3\n    addi r3, r3, 1\n    br   loop\ndone:\n    st   r2, r1, 64\n    exit\n",
            expected: |t, _| (t * t.saturating_sub(1) / 2) as i64,
        },
        Plain {
            name: "nested_if",
            text: "    tid  r1\n    li   r7, 1\n    and  r2, r1, r7\n    li   r7, 2\n    and  r4, r1, r7\n    li   r3, 0\n    beq  r2, r0, outer_else\n    addi r3, r3, 10\n    beq  r4, r0, inner_end\n    addi r3, r3, 1\ninner_end:\n    br   join\nouter_else:\n    addi r3, r3, 20\njoin:\n    st   r3, r1, 64\n    exit\n",
            expected: |t, _| {
                if t % 2 == 1 {
                    10 + i64::from(t & 2 != 0)
                } else {
                    20
                }
            },
        },
        Plain {
            name: "vote_after_branch",
            text: "    tid  r1\n    li   r7, 1\n    and  r2, r1, r7\n    li   r3, 5\n    beq  r2, r0, join\n    li   r3, 7\njoin:\n    vote r6, r3\n    st   r6, r1, 64\n    exit\n",
            // every thread has r3 ≠ 0 and the vote sees the whole converged warp
            expected: |_, threads| threads as i64,
        },
    ]
}

impl Plain {
    pub fn program(&self) -> Program {
        assemble(self.text).expect("plain program assembles")
    }
}
