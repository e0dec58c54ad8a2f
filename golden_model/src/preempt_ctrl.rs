//! Kernel preemption controller (SPEC Unit 4, seed 002): the executable specification.
//!
//! The patent's runtime method (S1–S4) as a command-processor block in front of the GPU for one
//! best-effort task. Ports: see the module doc of `hdl::preempt_ctrl`; this file decides the
//! behaviour, cycle by cycle, with a launch queue ([`VecDeque`]) and an in-flight table (a
//! [`Vec`] in submission order, each entry in one [`KState`]).
//!
//! ## Every output is a function of the state (a Moore machine)
//! `launch_ready`, `submit_valid`/`submit_id`, `preempted` and `inflight` are read from the state
//! at the start of the cycle (in the RTL: combinational from registers, never from this cycle's
//! inputs); `ack_*`, `cu_reset`, `preempt_done` and `error`/`error_code` are registers written
//! by the previous edge. [`PreemptCtrl::outputs`] returns them without clocking (a GPU model
//! reacts to this cycle's `submit_valid` and `ack` with it).
//!
//! ## One cycle t (S = the state at the start of the cycle; every check reads S)
//! 1. **Config**: `cfg_we` with `cfg_max_inflight` in 1..=8 sets `max_inflight` from cycle t+1;
//!    0 or 9..15 → `BAD_CFG`. Lowering it below the current count only stops submission.
//! 2. **Start(id)** (S1.2's entry check): legal iff `id` is the oldest SUBMITTED entry of S.
//!    The answer `ack {id, skip}` is seen in cycle t+1 (exactly one cycle later):
//!    skip iff the flag is set in S or a legal preempt arrives in cycle t (→ SKIPPED), else go
//!    (→ RUNNING). Otherwise `BAD_EVENT`, no ack.
//! 3. **Done(id)**: legal iff `id` is RUNNING in S: the entry leaves the table (its one
//!    completion). Otherwise `BAD_EVENT`.
//! 4. **Killed**: legal iff a CU reset is outstanding in S (pulsed, not yet confirmed): every
//!    SUBMITTED or RUNNING entry (after steps 2–3) becomes KILLED. Otherwise `BAD_STATE`.
//! 5. **Submit** (S2.3): when `submit_valid` (from S: not preempted, queue not empty,
//!    SUBMITTED + RUNNING < `max_inflight`) and `submit_ready`, the queue head enters the table
//!    as SUBMITTED. A submission in the cycle of a preempt strobe is made (its valid was shown).
//! 6. **Preempt** (S3.1/S3.2): legal iff the flag is clear in S: set it. Else `BAD_STATE`.
//!    **Resume** (S4): legal iff the flag is set and `preempt_done` has strobed since
//!    (`done_sent`) in S: clear the flag; every table entry (all SKIPPED or KILLED then) goes back
//!    to the head of the queue in its original order. Else `BAD_STATE`.
//! 7. **Launch** (S2.2): accepted when `launch_valid` and `launch_ready` (queued + table < D,
//!    from S). An id already queued or in the table in S is refused with `DUP_ID`; otherwise it
//!    joins the queue's tail.
//! 8. **CU reset decision** (S3.3), in the cycle after a legal preempt (t = p+1): if the table of
//!    S (= after cycle p's events) holds SUBMITTED or RUNNING entries and all of them are
//!    idempotent, `cu_reset` strobes in cycle p+2 and the reset is outstanding from then until
//!    `killed`. Latency preempt → `cu_reset`: **2 cycles** (SPEC: ≤ 4, goal 2).
//! 9. **Preempt done**: when S has the flag set, no SUBMITTED or RUNNING entry, no CU reset
//!    outstanding, and `preempt_done` has not strobed since the preempt, it strobes in cycle
//!    t+1 (2 cycles after the event that resolved the last entry; 2 cycles after the preempt
//!    when nothing was in flight). Waiting for `killed` also when every reset
//!    entry happened to finish first keeps a late `killed` from hitting resubmitted kernels.
//!
//! Errors: each offending event is ignored (no state change), the others of the cycle apply;
//! `error` strobes in t+1 with the smallest code raised in cycle t (1 `DUP_ID`, 2 `BAD_EVENT`,
//! 3 `BAD_STATE`, 4 `BAD_CFG`).
//!
//! Reset: queue and table empty, flag clear, `max_inflight` 8, every strobe low.

use crate::CycleModel;
use std::collections::VecDeque;

pub mod eval;
pub mod gpu;

/// Error codes (`error_code` port).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[repr(u8)]
pub enum PreemptError {
    /// Launch of an id that is already queued or in the table.
    DupId = 1,
    /// Start of an id that is not the oldest SUBMITTED; done of an id that is not RUNNING.
    BadEvent = 2,
    /// Preempt while preempted; resume before preempt done or while not preempted; killed with
    /// no CU reset outstanding.
    BadState = 3,
    /// `max_inflight` 0 or above 8.
    BadCfg = 4,
}

/// The state of a kernel in the in-flight table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KState {
    /// Sent to the GPU, not started.
    Submitted,
    /// Started and told to go.
    Running,
    /// Started while preempted and told to skip.
    Skipped,
    /// Removed by a CU reset.
    Killed,
}

/// One launched kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kernel {
    pub id: u32,
    pub idem: bool,
}

/// Construction-time parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PreemptConfig {
    /// Launch queue depth D: queued + table entries never exceed it (≥ 1).
    pub queue_depth: usize,
    /// Kernel id width (1..=16).
    pub id_bits: usize,
    /// In-flight table entries (the patent's bound 8; the RTL keeps min(8, D)).
    pub table: usize,
}

impl PreemptConfig {
    /// Board: D = 16, 8-bit ids, 8 entries.
    pub const fn board() -> Self {
        Self {
            queue_depth: 16,
            id_bits: 8,
            table: 8,
        }
    }
    /// Full: D = 64, 16-bit ids, 8 entries.
    pub const fn full() -> Self {
        Self {
            queue_depth: 64,
            id_bits: 16,
            table: 8,
        }
    }
    /// Degenerate: D = 1, 2-bit ids.
    pub const fn degenerate() -> Self {
        Self {
            queue_depth: 1,
            id_bits: 2,
            table: 8,
        }
    }
    /// Small non-power-of-two: D = 5, 3-bit ids (ids collide often).
    pub const fn small() -> Self {
        Self {
            queue_depth: 5,
            id_bits: 3,
            table: 8,
        }
    }
    /// Panics with a message when the config is unusable.
    pub fn validate(&self) {
        assert!(
            self.queue_depth >= 1,
            "preempt_ctrl: queue depth must be ≥ 1"
        );
        assert!(
            (1..=16).contains(&self.id_bits),
            "preempt_ctrl: id bits must be 1..=16"
        );
        assert_eq!(self.table, 8, "preempt_ctrl: the table has 8 entries");
    }
}

/// Inputs of one cycle.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PreemptIn {
    pub reset: bool,
    pub launch_valid: bool,
    pub launch_id: u32,
    pub launch_idem: bool,
    pub submit_ready: bool,
    pub start_valid: bool,
    pub start_id: u32,
    pub done_valid: bool,
    pub done_id: u32,
    pub killed: bool,
    pub preempt: bool,
    pub resume: bool,
    pub cfg_we: bool,
    pub cfg_max_inflight: u32,
}

crate::reset_by_field!(PreemptIn);

/// Outputs seen during one cycle.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PreemptOut {
    pub launch_ready: bool,
    pub submit_valid: bool,
    /// The queue head's id while `submit_valid`, else 0.
    pub submit_id: u32,
    pub ack_valid: bool,
    /// 0 when `ack_valid` is low.
    pub ack_id: u32,
    pub ack_skip: bool,
    pub cu_reset: bool,
    pub preempt_done: bool,
    pub preempted: bool,
    /// SUBMITTED + RUNNING entries.
    pub inflight: u32,
    pub error: bool,
    pub error_code: u32,
}

/// Event counters (coverage).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PreemptStats {
    pub launches: u64,
    pub submits: u64,
    pub starts_go: u64,
    pub starts_skip: u64,
    pub dones: u64,
    pub kills: u64,
    /// Entries killed from SUBMITTED / from RUNNING.
    pub killed_submitted: u64,
    pub killed_running: u64,
    pub preempts: u64,
    pub resumes: u64,
    pub resubmitted: u64,
    pub cu_resets: u64,
    pub preempt_dones: u64,
    pub cfg_writes: u64,
    /// Errors by code (index = code).
    pub errors: [u64; 5],
    /// Cycles with `launch_ready` low / submission held by `max_inflight`.
    pub full_cycles: u64,
    pub bound_cycles: u64,
}

/// The controller.
#[derive(Clone, Debug)]
pub struct PreemptCtrl {
    cfg: PreemptConfig,
    queue: VecDeque<Kernel>,
    table: Vec<(Kernel, KState)>,
    max_inflight: u32,
    preempted: bool,
    /// A legal preempt came in the previous cycle: decide the CU reset in this one.
    deciding: bool,
    /// `cu_reset` has strobed (or strobes now) and `killed` has not come yet.
    reset_outstanding: bool,
    /// `preempt_done` has strobed since the last preempt.
    done_sent: bool,
    // registered outputs
    ack: Option<(u32, bool)>,
    cu_reset: bool,
    preempt_done: bool,
    error: Option<PreemptError>,
    stats: PreemptStats,
}

impl PreemptCtrl {
    pub fn new(cfg: PreemptConfig) -> Self {
        cfg.validate();
        Self {
            cfg,
            queue: VecDeque::new(),
            table: Vec::new(),
            max_inflight: 8,
            preempted: false,
            deciding: false,
            reset_outstanding: false,
            done_sent: false,
            ack: None,
            cu_reset: false,
            preempt_done: false,
            error: None,
            stats: PreemptStats::default(),
        }
    }

    pub fn config(&self) -> PreemptConfig {
        self.cfg
    }
    pub fn stats(&self) -> &PreemptStats {
        &self.stats
    }
    /// Queued kernels, head first.
    pub fn queue(&self) -> impl Iterator<Item = &Kernel> {
        self.queue.iter()
    }
    /// The in-flight table in submission order.
    pub fn table(&self) -> &[(Kernel, KState)] {
        &self.table
    }

    /// SUBMITTED + RUNNING entries.
    fn active(&self) -> usize {
        self.table
            .iter()
            .filter(|(_, s)| matches!(s, KState::Submitted | KState::Running))
            .count()
    }

    fn can_submit(&self) -> bool {
        !self.preempted && !self.queue.is_empty() && self.active() < self.max_inflight as usize
    }

    /// The outputs of the current cycle (a function of the state only).
    pub fn outputs(&self) -> PreemptOut {
        let submit_valid = self.can_submit();
        PreemptOut {
            launch_ready: self.queue.len() + self.table.len() < self.cfg.queue_depth,
            submit_valid,
            submit_id: if submit_valid { self.queue[0].id } else { 0 },
            ack_valid: self.ack.is_some(),
            ack_id: self.ack.map_or(0, |a| a.0),
            ack_skip: self.ack.is_some_and(|a| a.1),
            cu_reset: self.cu_reset,
            preempt_done: self.preempt_done,
            preempted: self.preempted,
            inflight: self.active() as u32,
            error: self.error.is_some(),
            error_code: self.error.map_or(0, |e| e as u32),
        }
    }

    fn check_invariants(&self) {
        debug_assert!(
            self.queue.len() + self.table.len() <= self.cfg.queue_depth,
            "queued + table exceed the queue depth"
        );
        debug_assert!(self.table.len() <= self.cfg.table, "table overflow");
        debug_assert!(
            self.preempted
                || self
                    .table
                    .iter()
                    .all(|(_, s)| matches!(s, KState::Submitted | KState::Running)),
            "SKIPPED/KILLED entries while not preempted"
        );
        debug_assert!(
            !self.reset_outstanding || self.preempted,
            "CU reset outstanding while not preempted"
        );
        debug_assert!(
            {
                let mut ids: Vec<u32> = self
                    .queue
                    .iter()
                    .chain(self.table.iter().map(|(k, _)| k))
                    .map(|k| k.id)
                    .collect();
                ids.sort_unstable();
                ids.windows(2).all(|w| w[0] != w[1])
            },
            "an id is held twice"
        );
        debug_assert!(
            {
                // SUBMITTED entries are the youngest of the SUBMITTED/RUNNING ones (in-order start)
                let mut seen_submitted = false;
                self.table.iter().all(|(_, s)| match s {
                    KState::Submitted => {
                        seen_submitted = true;
                        true
                    }
                    KState::Running => !seen_submitted,
                    _ => true,
                })
            },
            "a RUNNING entry is younger than a SUBMITTED one"
        );
    }

    fn holds(&self, id: u32) -> bool {
        self.queue.iter().any(|k| k.id == id) || self.table.iter().any(|(k, _)| k.id == id)
    }
}

impl CycleModel for PreemptCtrl {
    type In = PreemptIn;
    type Out = PreemptOut;

    fn reset(&mut self) {
        let stats = std::mem::take(&mut self.stats);
        *self = Self::new(self.cfg);
        self.stats = stats;
    }

    fn step(&mut self, i: &PreemptIn) -> PreemptOut {
        let out = self.outputs();
        if i.reset {
            self.reset();
            return out;
        }
        debug_assert!(
            i.launch_id < 1 << self.cfg.id_bits
                && i.start_id < 1 << self.cfg.id_bits
                && i.done_id < 1 << self.cfg.id_bits,
            "id wider than the port"
        );
        let s = &mut self.stats;
        s.full_cycles += !out.launch_ready as u64;
        s.bound_cycles += (!self.preempted && !self.queue.is_empty() && !out.submit_valid) as u64;
        let mut errors: Vec<PreemptError> = vec![];

        // decisions that read S before anything changes
        let preempt_ok = i.preempt && !self.preempted;
        let resume_ok = i.resume && self.preempted && self.done_sent;
        let killed_ok = i.killed && self.reset_outstanding;
        let dup = i.launch_valid && out.launch_ready && self.holds(i.launch_id);
        let oldest_submitted = self.table.iter().position(|(_, s)| *s == KState::Submitted);
        let start_ok =
            i.start_valid && oldest_submitted.is_some_and(|p| self.table[p].0.id == i.start_id);
        let done_at = self
            .table
            .iter()
            .position(|(k, s)| *s == KState::Running && k.id == i.done_id);
        let done_ok = i.done_valid && done_at.is_some();
        // S3.3: the CU reset decision, from S (the state right after the preempt's cycle)
        let reset_now = self.deciding
            && self.active() > 0
            && self
                .table
                .iter()
                .filter(|(_, s)| matches!(s, KState::Submitted | KState::Running))
                .all(|(k, _)| k.idem);
        let done_now =
            self.preempted && !self.done_sent && !self.reset_outstanding && self.active() == 0;

        // 1. config
        let mut next_max = self.max_inflight;
        if i.cfg_we {
            if (1..=8).contains(&i.cfg_max_inflight) {
                next_max = i.cfg_max_inflight;
                self.stats.cfg_writes += 1;
            } else {
                errors.push(PreemptError::BadCfg);
            }
        }
        // 2. start: the oldest SUBMITTED entry reached the CUs; answer next cycle
        self.ack = None;
        if i.start_valid {
            if start_ok {
                let p = oldest_submitted.unwrap();
                let skip = self.preempted || preempt_ok;
                self.table[p].1 = if skip {
                    KState::Skipped
                } else {
                    KState::Running
                };
                self.ack = Some((i.start_id, skip));
                if skip {
                    self.stats.starts_skip += 1;
                } else {
                    self.stats.starts_go += 1;
                }
            } else {
                errors.push(PreemptError::BadEvent);
            }
        }
        // 3. done: a RUNNING kernel completed (its one completion)
        if i.done_valid {
            if let (true, Some(p)) = (done_ok, done_at) {
                self.table.remove(p);
                self.stats.dones += 1;
            } else {
                errors.push(PreemptError::BadEvent);
            }
        }
        // 4. killed: the CU reset is confirmed (S3.3)
        if i.killed {
            if killed_ok {
                for e in self.table.iter_mut() {
                    match e.1 {
                        KState::Submitted => self.stats.killed_submitted += 1,
                        KState::Running => self.stats.killed_running += 1,
                        _ => continue,
                    }
                    e.1 = KState::Killed;
                }
                self.reset_outstanding = false;
                self.stats.kills += 1;
            } else {
                errors.push(PreemptError::BadState);
            }
        }
        // 5. submit (S2.3): the queue head goes to the GPU runtime
        if out.submit_valid && i.submit_ready {
            let k = self
                .queue
                .pop_front()
                .expect("submit_valid with an empty queue");
            self.table.push((k, KState::Submitted));
            self.stats.submits += 1;
        }
        // 6. preempt (S3.1/S3.2) / resume (S4)
        if i.preempt {
            if preempt_ok {
                self.preempted = true;
                self.done_sent = false;
                self.stats.preempts += 1;
            } else {
                errors.push(PreemptError::BadState);
            }
        }
        if i.resume {
            if resume_ok {
                self.preempted = false;
                // S4.2: skipped and killed kernels go back to the queue's head, in order
                for (k, st) in self.table.drain(..).rev() {
                    debug_assert!(matches!(st, KState::Skipped | KState::Killed));
                    self.queue.push_front(k);
                    self.stats.resubmitted += 1;
                }
                self.stats.resumes += 1;
            } else {
                errors.push(PreemptError::BadState);
            }
        }
        // 7. launch (S2.2)
        if i.launch_valid && out.launch_ready {
            if dup {
                errors.push(PreemptError::DupId);
            } else {
                self.queue.push_back(Kernel {
                    id: i.launch_id,
                    idem: i.launch_idem,
                });
                self.stats.launches += 1;
            }
        }
        // 8./9. the reset decision and the preempt-done strobe (registered)
        self.cu_reset = reset_now;
        if reset_now {
            self.reset_outstanding = true;
            self.stats.cu_resets += 1;
        }
        self.deciding = preempt_ok;
        self.preempt_done = done_now;
        if done_now {
            self.done_sent = true;
            self.stats.preempt_dones += 1;
        }
        self.max_inflight = next_max;
        self.error = errors.iter().min().copied();
        if let Some(e) = self.error {
            self.stats.errors[e as usize] += 1;
        }
        self.check_invariants();
        out
    }
}

#[cfg(test)]
mod tests;
