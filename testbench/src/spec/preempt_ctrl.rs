//! Spec checker of the preemption controller (SPEC Unit 4), written from SPEC alone.
//!
//! Its own state is what SPEC names: the launch queue, the in-flight table in submission order
//! with one state per entry, the preempted flag, `max_inflight`, and the open obligations
//! (an answer owed to a start, a CU reset owed to a preempt, a `preempt_done` owed once nothing
//! is in flight). It judges every cycle's ports:
//! - **launch**: `launch_ready` ⇔ queued + table < D; an accepted id already held must be refused
//!   (`DUP_ID`), others join the queue;
//! - **submit**: `submit_valid` only while not preempted, the queue non-empty and SUBMITTED +
//!   RUNNING < `max_inflight`; `submit_id` is the queue head (so resubmission keeps the original
//!   order, S4.2); when submission is possible it must be offered within 3 cycles (covers "first
//!   resubmission within 3 cycles of resume");
//! - **start / ack**: a start must name the oldest SUBMITTED entry; its answer comes exactly one
//!   cycle later with the same id, skip iff preempted (in the preempt's own cycle either answer
//!   is accepted; the table follows the answer given); nothing else is answered;
//! - **done**: only for a RUNNING entry, which leaves the table: its one completion (a kernel
//!   completed is gone, so it can never run again; one killed or skipped stays until resume);
//! - **preempt / cu_reset / killed**: if, after the preempt's cycle, the table holds SUBMITTED or
//!   RUNNING entries and all are idempotent, `cu_reset` must pulse within 4 cycles; otherwise
//!   never. `killed` is legal only after a `cu_reset` and before the next `killed`;
//! - **preempt_done**: once per preempt, only while preempted with nothing SUBMITTED or RUNNING
//!   and no CU reset owed or outstanding, at most 2 cycles after the cycle that made it so
//!   (`preempt-done-legal`, `preempt-done-within-2`); when nothing is in flight at the preempt,
//!   the preempt's own cycle is that cycle ("at once": no kernel or CU reset is waited for);
//! - **resume**: legal only while preempted after `preempt_done`; every table entry is then
//!   SKIPPED or KILLED and returns to the queue's head in order;
//! - **levels**: `preempted` is the flag, `inflight` = SUBMITTED + RUNNING;
//! - **idle fields** (the port contract of the module doc, not SPEC): `submit_id` reads 0 while
//!   `submit_valid` is low, `ack_id` and `ack_skip` read 0 while `ack_valid` is low;
//! - **errors**: one cycle after an illegal event, `error` with the smallest code of the cycle
//!   (1 `DUP_ID`, 2 `BAD_EVENT`, 3 `BAD_STATE`, 4 `BAD_CFG`), never otherwise; the illegal event
//!   changes nothing (every later check reads the unchanged state);
//! - **end of a drained trace** (with [`PreemptSpec::drained`], which the registry's checker
//!   uses: the standard random trace ends with a drain): every kernel launched since the last
//!   reset has completed exactly once — the queue and the table are empty
//!   (`every-launch-completes`; a completion removes its entry, a second `done` for it is
//!   `BAD_EVENT`, and a completed kernel offered again breaks the submit order).
//!
//! Rule names: `ack-one-cycle`, `ack-skip-iff-preempted`, `ack-only-for-a-start`,
//! `idle-fields-zero`, `error-one-cycle-smallest-code`, `preempted-level`, `inflight-count`,
//! `launch-ready-iff-room`, `no-submit-while-preempted`, `max-inflight`,
//! `submit-queue-head-in-order`, `submit-within-3`, `cu-reset-only-if-all-idempotent`,
//! `cu-reset-within-4`, `preempt-done-legal`, `preempt-done-within-2`,
//! `resume-only-skipped-or-killed` (implied by the others: only with `no-submit-while-preempted`
//! muted can a SUBMITTED entry reach a resume), `every-launch-completes`.

use crate::spec::{Muted, SpecChecker, Violation};
use golden_model::preempt_ctrl::{PreemptConfig, PreemptIn, PreemptOut};
use std::collections::VecDeque;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum St {
    Submitted,
    Running,
    Skipped,
    Killed,
}

#[derive(Clone, Copy, Debug)]
struct K {
    id: u32,
    idem: bool,
}

/// The checker.
pub struct PreemptSpec {
    depth: usize,
    queue: VecDeque<K>,
    table: Vec<(K, St)>,
    preempted: bool,
    max_inflight: u32,
    /// Answer owed in this cycle: (id, skip required: Some(b), or either: None).
    ack_due: Option<(u32, Option<bool>)>,
    /// Error code owed in this cycle (0 = none).
    error_due: u32,
    /// A legal preempt came in the previous cycle: decide whether a CU reset is owed, once the
    /// answer to a start of that cycle is known.
    deciding: bool,
    /// Cycle by which `cu_reset` must pulse.
    reset_due: Option<usize>,
    /// A `cu_reset` pulsed and `killed` has not come yet.
    reset_outstanding: bool,
    /// `preempt_done` already given for the current preempt.
    done_given: bool,
    /// The cycle at whose end preempt-done became due.
    done_since: Option<usize>,
    /// Consecutive cycles in which a submission was possible but not offered.
    stall: usize,
    /// Completions seen (coverage for tests).
    pub completions: u64,
    /// The trace ends drained (`every-launch-completes` is judged at its end).
    drained: bool,
    /// Rules not reported (the checker still follows the trace).
    muted: Muted,
}

impl PreemptSpec {
    pub fn new(cfg: PreemptConfig) -> Self {
        Self {
            depth: cfg.queue_depth,
            queue: VecDeque::new(),
            table: vec![],
            preempted: false,
            max_inflight: 8,
            ack_due: None,
            error_due: 0,
            deciding: false,
            reset_due: None,
            reset_outstanding: false,
            done_given: false,
            done_since: None,
            stall: 0,
            completions: 0,
            drained: false,
            muted: Muted::default(),
        }
    }

    /// The same checker for traces that end drained (the host stopped launching and
    /// preempting, resumed, and the GPU ran everything it was given, as the standard random
    /// stimulus does in its last cycles): at the end of the trace every kernel launched since
    /// the last reset must have completed, so the queue and the table must be empty
    /// (`every-launch-completes`).
    pub fn drained(mut self) -> Self {
        self.drained = true;
        self
    }

    /// The same checker with `rules` muted: a muted rule's violation is not reported and the
    /// checker goes on with the state the trace shows.
    pub fn without(mut self, rules: &[&'static str]) -> Self {
        self.muted.extend(rules);
        self
    }

    fn fail(&self, c: usize, rule: &'static str, d: String) -> Result<(), Violation> {
        self.muted.fail(c, rule, d)
    }

    fn active(&self) -> usize {
        self.table
            .iter()
            .filter(|(_, s)| matches!(s, St::Submitted | St::Running))
            .count()
    }
    fn holds(&self, id: u32) -> bool {
        self.queue.iter().any(|k| k.id == id) || self.table.iter().any(|(k, _)| k.id == id)
    }
    fn done_condition(&self) -> bool {
        self.preempted
            && !self.deciding
            && !self.done_given
            && self.active() == 0
            && self.reset_due.is_none()
            && !self.reset_outstanding
    }
}

impl SpecChecker for PreemptSpec {
    type In = PreemptIn;
    type Out = PreemptOut;

    fn check(&mut self, c: usize, i: &PreemptIn, o: &PreemptOut) -> Result<(), Violation> {
        // ---- obligations from the previous cycle ----
        match self.ack_due.take() {
            Some((id, skip)) => {
                if !o.ack_valid || o.ack_id != id {
                    self.fail(
                        c,
                        "ack-one-cycle",
                        format!("start of {id} not answered: {o:?}"),
                    )?;
                }
                if skip.is_some_and(|s| s != o.ack_skip) {
                    self.fail(
                        c,
                        "ack-skip-iff-preempted",
                        format!("answer {o:?}, want skip {skip:?}"),
                    )?;
                }
                // the table follows the answer (S3: skipped kernels run again after resume)
                if let Some(e) = self
                    .table
                    .iter_mut()
                    .find(|(k, s)| k.id == id && *s == St::Running)
                {
                    if o.ack_skip {
                        e.1 = St::Skipped;
                        if self.done_condition() {
                            self.done_since = Some(c - 1);
                        }
                    }
                }
            }
            None if o.ack_valid => self.fail(
                c,
                "ack-only-for-a-start",
                format!("unexpected answer {o:?}"),
            )?,
            None => {}
        }
        // port contract (module doc): the fields of a stream or answer not shown read 0
        if (!o.submit_valid && o.submit_id != 0) || (!o.ack_valid && (o.ack_id != 0 || o.ack_skip))
        {
            self.fail(
                c,
                "idle-fields-zero",
                format!("fields set while their valid is low: {o:?}"),
            )?;
        }
        // S3.3: after the preempt's cycle, everything SUBMITTED or RUNNING idempotent → reset
        if std::mem::take(&mut self.deciding) {
            let act: Vec<&(K, St)> = self
                .table
                .iter()
                .filter(|(_, s)| matches!(s, St::Submitted | St::Running))
                .collect();
            if !act.is_empty() && act.iter().all(|(k, _)| k.idem) {
                self.reset_due = Some(c + 3);
            } else if self.done_condition() {
                self.done_since = self.done_since.or(Some(c - 1));
            }
        }
        let want = std::mem::take(&mut self.error_due);
        if o.error != (want != 0) || o.error_code != want {
            self.fail(
                c,
                "error-one-cycle-smallest-code",
                format!(
                    "want code {want}, got error {} code {}",
                    o.error, o.error_code
                ),
            )?;
        }
        // ---- levels and output legality of this cycle ----
        if o.preempted != self.preempted {
            self.fail(
                c,
                "preempted-level",
                format!("flag {} shown {}", self.preempted, o.preempted),
            )?;
        }
        if o.inflight as usize != self.active() {
            self.fail(
                c,
                "inflight-count",
                format!("{} SUBMITTED+RUNNING, shown {}", self.active(), o.inflight),
            )?;
        }
        let room = self.queue.len() + self.table.len() < self.depth;
        if o.launch_ready != room {
            self.fail(
                c,
                "launch-ready-iff-room",
                format!(
                    "queued+table {} of {}",
                    self.queue.len() + self.table.len(),
                    self.depth
                ),
            )?;
        }
        let can_submit =
            !self.preempted && !self.queue.is_empty() && (self.active() as u32) < self.max_inflight;
        if o.submit_valid {
            if self.preempted {
                self.fail(c, "no-submit-while-preempted", format!("{o:?}"))?;
            }
            if (self.active() as u32) >= self.max_inflight {
                self.fail(
                    c,
                    "max-inflight",
                    format!("{} in flight, max {}", self.active(), self.max_inflight),
                )?;
            }
            match self.queue.front() {
                Some(k) if k.id == o.submit_id => {}
                h => self.fail(
                    c,
                    "submit-queue-head-in-order",
                    format!("offered {} , queue head {h:?}", o.submit_id),
                )?,
            }
        }
        self.stall = if can_submit && !o.submit_valid {
            self.stall + 1
        } else {
            0
        };
        if self.stall > 3 {
            self.fail(
                c,
                "submit-within-3",
                "submission possible but not offered for 4 cycles".into(),
            )?;
        }
        if o.cu_reset {
            if self.reset_due.take().is_none() {
                self.fail(
                    c,
                    "cu-reset-only-if-all-idempotent",
                    "cu_reset without an idempotent-only preempt".into(),
                )?;
            }
            self.reset_outstanding = true;
        } else if self.reset_due.is_some_and(|d| c >= d) {
            self.fail(
                c,
                "cu-reset-within-4",
                "cu_reset not pulsed within 4 cycles".into(),
            )?;
        }
        if o.preempt_done {
            let ok = self.preempted
                && !self.done_given
                && self.active() == 0
                && self.reset_due.is_none()
                && !self.reset_outstanding;
            if !ok {
                self.fail(
                    c,
                    "preempt-done-legal",
                    format!(
                        "flag {}, given {}, {} in flight, reset owed {:?} outstanding {}",
                        self.preempted,
                        self.done_given,
                        self.active(),
                        self.reset_due,
                        self.reset_outstanding
                    ),
                )?;
            }
            self.done_given = true;
            self.done_since = None;
        } else if self.done_since.is_some_and(|s| c > s + 2) {
            self.fail(
                c,
                "preempt-done-within-2",
                format!("due since cycle {:?}", self.done_since),
            )?;
        }
        if i.reset {
            *self = Self {
                completions: self.completions,
                drained: self.drained,
                muted: std::mem::take(&mut self.muted),
                ..Self::new(PreemptConfig {
                    queue_depth: self.depth,
                    id_bits: 16,
                    table: 8,
                })
            };
            return Ok(());
        }

        // ---- this cycle's inputs, judged against the state at its start ----
        let mut errs: Vec<u32> = vec![];
        let dup = self.holds(i.launch_id);
        let preempt_ok = i.preempt && !self.preempted;
        let resume_ok = i.resume && self.preempted && self.done_given;
        let oldest = self.table.iter().position(|(_, s)| *s == St::Submitted);
        if i.start_valid {
            match oldest {
                Some(p) if self.table[p].0.id == i.start_id => {
                    // provisionally RUNNING; a skip answer next cycle makes it SKIPPED
                    self.table[p].1 = St::Running;
                    let skip = if self.preempted {
                        Some(true)
                    } else if preempt_ok {
                        None
                    } else {
                        Some(false)
                    };
                    self.ack_due = Some((i.start_id, skip));
                }
                _ => errs.push(2),
            }
        }
        if i.done_valid {
            // a kernel started in this very cycle is not RUNNING yet
            let started_now = self.ack_due.map(|a| a.0);
            match self.table.iter().position(|(k, s)| {
                k.id == i.done_id && *s == St::Running && Some(k.id) != started_now
            }) {
                Some(p) => {
                    self.table.remove(p);
                    self.completions += 1;
                }
                None => errs.push(2),
            }
        }
        if i.killed {
            if self.reset_outstanding {
                for e in self.table.iter_mut() {
                    if matches!(e.1, St::Submitted | St::Running)
                        && Some(e.0.id) != self.ack_due.map(|a| a.0)
                    {
                        e.1 = St::Killed;
                    }
                }
                self.reset_outstanding = false;
            } else {
                errs.push(3);
            }
        }
        if o.submit_valid && i.submit_ready {
            // (checked above; with the rules muted an empty queue submits nothing)
            if let Some(k) = self.queue.pop_front() {
                self.table.push((k, St::Submitted));
            }
        }
        if i.preempt {
            if preempt_ok {
                self.preempted = true;
                self.done_given = false;
                self.deciding = true;
            } else {
                errs.push(3);
            }
        }
        if i.resume {
            if resume_ok {
                if let Some(e) = self
                    .table
                    .iter()
                    .find(|(_, s)| !matches!(s, St::Skipped | St::Killed))
                {
                    self.fail(
                        c,
                        "resume-only-skipped-or-killed",
                        format!("entry {e:?} at resume"),
                    )?;
                }
                for (k, _) in self.table.drain(..).rev() {
                    self.queue.push_front(k);
                }
                self.preempted = false;
                self.done_since = None;
            } else {
                errs.push(3);
            }
        }
        if i.cfg_we {
            if (1..=8).contains(&i.cfg_max_inflight) {
                self.max_inflight = i.cfg_max_inflight;
            } else {
                errs.push(4);
            }
        }
        if i.launch_valid && o.launch_ready {
            if dup {
                errs.push(1);
            } else {
                self.queue.push_back(K {
                    id: i.launch_id,
                    idem: i.launch_idem,
                });
            }
        }
        self.error_due = errs.into_iter().min().unwrap_or(0);
        // preempt done becomes due at the end of this cycle (a skip answer owed may still
        // remove the last entry: counted from this cycle when it comes)
        let pending_skip = self.ack_due.is_some_and(|a| a.1 != Some(false));
        if self.done_since.is_none() && self.done_condition() && !pending_skip && !self.deciding {
            self.done_since = Some(c);
        }
        Ok(())
    }

    fn finish(&mut self, cycles: usize) -> Result<(), Violation> {
        if let Some(d) = self.reset_due {
            if d < cycles {
                self.fail(d, "cu-reset-within-4", "never pulsed".into())?;
            }
        }
        if let Some(s) = self.done_since {
            if s + 2 < cycles {
                self.fail(s + 2, "preempt-done-within-2", "never strobed".into())?;
            }
        }
        if self.drained && (!self.queue.is_empty() || !self.table.is_empty()) {
            self.fail(
                cycles,
                "every-launch-completes",
                format!(
                    "the trace ended drained with kernels not completed: queued {:?}, table {:?}",
                    self.queue.iter().map(|k| k.id).collect::<Vec<_>>(),
                    self.table
                        .iter()
                        .map(|(k, s)| (k.id, *s))
                        .collect::<Vec<_>>()
                ),
            )?;
        }
        Ok(())
    }
}

/// The preemption controller's board config with its spec checker.
impl crate::unit::CheckedUnit for crate::preempt_ctrl::PreemptCtrlBoard {
    fn spec_checker() -> Box<dyn SpecChecker<In = PreemptIn, Out = PreemptOut>> {
        // the standard random trace ends drained
        Box::new(PreemptSpec::new(PreemptConfig::board()).drained())
    }
}
