//! Spec checker of the kernel expander (SPEC Unit 8, contract in `hdl::kernel_expander`),
//! written from the contract alone.
//!
//! Its own state is the kernels as the contract names them: the RT kernels taken, in arrival
//! order, the BE kernels submitted, in submission order, each with its WG count and shape (a BE
//! kernel's read from the checker's own copy of the descriptor store at its submit), its tag
//! once the push port has shown it, and the counts the ports imply (WGs pushed, WGs queued in
//! the dispatcher, records in flight), plus the open obligations (a `start`, a `withdraw`, an
//! error, a `kernel_done`). It never sees a pipeline register. Rules, each with its name:
//! - `rt-ready-iff-free` / `sub-ready-iff-free`: `rt_ready` ⇔ fewer than R RT kernels held,
//!   `sub_ready` ⇔ fewer than B BE kernels held (a kernel is held from its acceptance to the end
//!   of its `kernel_done` cycle; a skipped one until the end of the first cycle that starts with
//!   nothing of it queued or in flight; a flushed one until `be_killed`; a submit of an
//!   undescribed kid for two cycles);
//! - `push-rt-first`, `push-work-conserving`, `push-order`: each cycle the push port shows the
//!   next WG (index = WGs pushed so far, the kernel's shape) of the oldest RT kernel with WGs
//!   left when `room_rt`, else of the oldest BE kernel with WGs left (its descriptor read: from
//!   two cycles after its submit; not skipped, not flushed) when `room_be`, else nothing;
//!   `push-tag`: a kernel's first push shows a free slot of its class, its later pushes the same;
//! - `start-on-first-record`: a legal record of a submitted, unstarted, unflushed BE kernel is
//!   followed by `start {kid}` exactly one cycle later; no other start;
//! - `withdraw-after-skip`: an answer skip is followed by `withdraw {slot}` one cycle later; no
//!   other withdraw; no WG of a skipped or flushed kernel is pushed from the next cycle on
//!   (`push-order`);
//! - `done-legal`, `done-within-bound`: `kernel_done {kid, class}` only for a finished kernel
//!   (every WG pushed, none queued, no record in flight; a BE kernel answered go and not
//!   flushed), once, and at most R + B cycles after it finished (unless a flush makes it dead
//!   first: it is then run again); `done {kid}` with it for BE; `done-round-robin`: a report
//!   names, of the kernels finished at the cycle's start, the first entry in the order RT slots,
//!   then BE slots, cyclically from the one after the entry reported last (after a reset: from
//!   RT slot 0), as the contract's round robin says;
//! - `levels`: `rt_active` ⇔ an RT kernel is held; `be_orphans` ⇔ a held BE kernel is skipped
//!   or flushed;
//! - `idle-fields-zero`: fields read 0 while their valid is low;
//! - `error-codes`: one cycle after an illegal event (a submit's undescribed kid: two), `error`
//!   with the smallest code of the cycle (1 `DUP_ID`, 2 `ZERO_WGS`, 3 `BAD_EVENT`, 4
//!   `BAD_ACK`), never otherwise; the illegal event changes nothing.

use crate::spec::{SpecChecker, Violation};
use golden_model::kernel_expander::{ExpIn, ExpOut, ExpanderConfig, BE, RT};
use std::collections::HashMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum St {
    /// Submitted in the given cycle, its descriptor is being read.
    Loading(usize),
    Submitted,
    Await,
    Go,
    Skipped,
}

#[derive(Clone, Debug)]
struct K {
    kid: u32,
    wgs: u32,
    shape: u64,
    pushed: u32,
    queued: u32,
    live: u32,
    slot: Option<u32>,
    st: St,
    dead: bool,
    /// The cycle at whose end it was finished.
    finished_at: Option<usize>,
}

impl K {
    fn new(kid: u32, wgs: u32, shape: u64, st: St) -> Self {
        Self {
            kid,
            wgs,
            shape,
            pushed: 0,
            queued: 0,
            live: 0,
            slot: None,
            st,
            dead: false,
            finished_at: None,
        }
    }
    fn finished(&self) -> bool {
        self.st == St::Go
            && !self.dead
            && self.pushed == self.wgs
            && self.queued == 0
            && self.live == 0
    }
    fn pushable(&self) -> bool {
        !matches!(self.st, St::Loading(_) | St::Skipped) && !self.dead && self.pushed < self.wgs
    }
}

/// The checker.
pub struct ExpanderSpec {
    cfg: ExpanderConfig,
    rt: Vec<K>,
    be: Vec<K>,
    store: HashMap<u32, (u32, u64)>,
    start_due: Option<u32>,
    withdraw_due: Option<u32>,
    error_due: u32,
    /// Kernels reported done (coverage for tests).
    pub reported: u64,
    /// The done report's round-robin start: the entry after the one reported last (entries:
    /// RT slots 0..R, then BE slots R..R + B).
    rr: usize,
}

impl ExpanderSpec {
    pub fn new(cfg: ExpanderConfig) -> Self {
        Self {
            cfg,
            rt: vec![],
            be: vec![],
            store: HashMap::new(),
            start_due: None,
            withdraw_due: None,
            error_due: 0,
            reported: 0,
            rr: 0,
        }
    }

    fn list(&mut self, class: u32) -> &mut Vec<K> {
        if class == RT {
            &mut self.rt
        } else {
            &mut self.be
        }
    }

    /// The held kernel showing tag (class, slot).
    fn by_tag(&self, class: u32, slot: u32) -> Option<usize> {
        let v = if class == RT { &self.rt } else { &self.be };
        v.iter().position(|k| k.slot == Some(slot))
    }
}

impl SpecChecker for ExpanderSpec {
    type In = ExpIn;
    type Out = ExpOut;

    fn check(&mut self, c: usize, i: &ExpIn, o: &ExpOut) -> Result<(), Violation> {
        let v = |rule: &'static str, d: String| Err(Violation::new(c, rule, d));
        let cfg = self.cfg;
        // ---- obligations from the previous cycle ----
        let want_start = self.start_due.take();
        if o.start_valid != want_start.is_some()
            || (o.start_valid && Some(o.start_kid) != want_start)
        {
            return v(
                "start-on-first-record",
                format!(
                    "want start {want_start:?}, got {} {}",
                    o.start_valid, o.start_kid
                ),
            );
        }
        let want_wd = self.withdraw_due.take();
        if o.withdraw_valid != want_wd.is_some()
            || (o.withdraw_valid && Some(o.withdraw_slot) != want_wd)
        {
            return v(
                "withdraw-after-skip",
                format!(
                    "want withdraw {want_wd:?}, got {} {}",
                    o.withdraw_valid, o.withdraw_slot
                ),
            );
        }
        let want = std::mem::take(&mut self.error_due);
        if o.error != (want != 0) || o.error_code != want {
            return v(
                "error-codes",
                format!(
                    "want code {want}, got error {} code {}",
                    o.error, o.error_code
                ),
            );
        }
        if (!o.start_valid && o.start_kid != 0)
            || (!o.withdraw_valid && o.withdraw_slot != 0)
            || (!o.done_valid && o.done_kid != 0)
            || (!o.kdone_valid && (o.kdone_kid != 0 || o.kdone_class != 0))
            || (!o.push_valid
                && (o.push_class != 0 || o.push_slot != 0 || o.push_idx != 0 || o.push_shape != 0))
        {
            return v("idle-fields-zero", format!("{o:?}"));
        }
        // ---- levels ----
        if o.rt_ready != (self.rt.len() < cfg.rt_entries) {
            return v(
                "rt-ready-iff-free",
                format!("{} RT kernels held", self.rt.len()),
            );
        }
        if o.sub_ready != (self.be.len() < cfg.be_entries) {
            return v(
                "sub-ready-iff-free",
                format!("{} BE kernels held", self.be.len()),
            );
        }
        let orphans = self.be.iter().any(|k| k.dead || k.st == St::Skipped);
        if o.rt_active == self.rt.is_empty() || o.be_orphans != orphans {
            return v(
                "levels",
                format!("rt held {}, orphans {orphans}: {o:?}", self.rt.len()),
            );
        }
        // ---- kernel_done ----
        let mut report: Option<(u32, usize)> = None;
        if o.kdone_valid {
            let class = o.kdone_class;
            let v2 = if class == RT { &self.rt } else { &self.be };
            match v2.iter().position(|k| k.kid == o.kdone_kid && k.finished()) {
                Some(p) => {
                    // the round robin: the first finished entry from `rr` on, cyclically
                    let (r, n) = (cfg.rt_entries, cfg.rt_entries + cfg.be_entries);
                    let entry = |class: u32, k: &K| {
                        k.slot.map(|s| s as usize + if class == RT { 0 } else { r })
                    };
                    let fin = self.rt.iter().map(|k| (RT, k));
                    let first = fin
                        .chain(self.be.iter().map(|k| (BE, k)))
                        .filter(|(_, k)| k.finished())
                        .filter_map(|(c, k)| entry(c, k))
                        .min_by_key(|&e| (e + n - self.rr) % n);
                    let got = entry(class, &v2[p]);
                    if got != first {
                        return v(
                            "done-round-robin",
                            format!(
                                "kernel_done {} (entry {got:?}); the round robin from entry {} picks entry {first:?}",
                                o.kdone_kid, self.rr
                            ),
                        );
                    }
                    self.rr = got.map_or(0, |e| (e + 1) % n);
                    report = Some((class, p))
                }
                None => {
                    return v(
                        "done-legal",
                        format!(
                            "kernel_done {} class {class}: no such finished kernel",
                            o.kdone_kid
                        ),
                    )
                }
            }
            if (class == BE) != o.done_valid || (o.done_valid && o.done_kid != o.kdone_kid) {
                return v(
                    "done-legal",
                    format!("done and kernel_done disagree: {o:?}"),
                );
            }
        } else if o.done_valid {
            return v("done-legal", "done without kernel_done".into());
        }
        for k in self.rt.iter().chain(&self.be) {
            if k.finished()
                && k.finished_at
                    .is_some_and(|f| c > f + cfg.rt_entries + cfg.be_entries)
            {
                return v(
                    "done-within-bound",
                    format!(
                        "kernel {} finished in cycle {:?}, not reported",
                        k.kid, k.finished_at
                    ),
                );
            }
        }
        // ---- push ----
        // the push counts after this cycle's events are judged (they read the cycle's start)
        let mut push_on: Option<(u32, usize)> = None;
        let rt_head = self.rt.iter().position(|k| k.pushed < k.wgs);
        let be_head = self.be.iter().position(|k| k.pushable());
        let expect = match (rt_head, be_head) {
            (Some(p), _) if i.room_rt => Some((RT, p)),
            (_, Some(p)) if i.room_be => Some((BE, p)),
            _ => None,
        };
        match (expect, o.push_valid) {
            (None, false) => {}
            (Some((class, _)), false) => {
                let rule = if class == RT {
                    "push-rt-first"
                } else {
                    "push-work-conserving"
                };
                return v(rule, format!("class {class} could push, nothing pushed"));
            }
            (None, true) => {
                return v("push-order", format!("nothing to push, pushed {o:?}"));
            }
            (Some((class, p)), true) => {
                if o.push_class != class {
                    let rule = if class == RT {
                        "push-rt-first"
                    } else {
                        "push-order"
                    };
                    return v(rule, format!("want class {class}, pushed {o:?}"));
                }
                let others: Vec<u32> = {
                    let l = if class == RT { &self.rt } else { &self.be };
                    l.iter()
                        .enumerate()
                        .filter(|(q, _)| *q != p)
                        .filter_map(|(_, k)| k.slot)
                        .collect()
                };
                let k = &mut self.list(class)[p];
                if o.push_idx != k.pushed || o.push_shape != k.shape {
                    return v(
                        "push-order",
                        format!(
                            "kernel {} WG {} shape {:#x}, pushed {o:?}",
                            k.kid, k.pushed, k.shape
                        ),
                    );
                }
                match k.slot {
                    Some(s) if s != o.push_slot => {
                        return v("push-tag", format!("kernel {} has slot {s}: {o:?}", k.kid))
                    }
                    None if o.push_slot as usize >= cfg.entries(class)
                        || others.contains(&o.push_slot) =>
                    {
                        return v("push-tag", format!("slot {} not free: {o:?}", o.push_slot))
                    }
                    _ => k.slot = Some(o.push_slot),
                }
                push_on = Some((class, p));
            }
        }
        if i.reset {
            let store = std::mem::take(&mut self.store);
            *self = Self {
                reported: self.reported,
                store,
                ..Self::new(cfg)
            };
            return Ok(());
        }

        // ---- this cycle's inputs, against the state at its start ----
        let s_rt = self.rt.len();
        let s_be = self.be.len();
        // skipped kernels with nothing queued or in flight at the cycle's start are freed
        let sfree: Vec<usize> = (0..s_be)
            .filter(|&p| {
                let k = &self.be[p];
                k.st == St::Skipped && !k.dead && k.queued == 0 && k.live == 0
            })
            .collect();
        let mut errs: Vec<u32> = vec![];
        // a kernel started by this cycle's record cannot be answered in the same cycle
        let mut started_now: Option<usize> = None;
        if i.rec_valid {
            match self.by_tag(i.rec_class, i.rec_slot) {
                Some(p) => {
                    let k = &mut self.list(i.rec_class)[p];
                    if k.queued > 0 && k.live < cfg.live_max() {
                        k.live += 1;
                        if i.rec_last {
                            k.queued -= 1;
                        }
                        if i.rec_class == BE && k.st == St::Submitted && !k.dead {
                            k.st = St::Await;
                            self.start_due = Some(k.kid);
                            started_now = Some(p);
                        }
                    } else {
                        errs.push(3);
                    }
                }
                None => errs.push(3),
            }
        }
        if i.cpl_valid {
            match self.by_tag(i.cpl_class, i.cpl_slot) {
                Some(p) if self.list(i.cpl_class)[p].live > 0 => {
                    self.list(i.cpl_class)[p].live -= 1
                }
                _ => errs.push(3),
            }
        }
        if i.wdr_valid {
            match self.by_tag(BE, i.wdr_slot) {
                Some(p)
                    // `queued` already counts this cycle's last record down
                    if self.be[p].st == St::Skipped && self.be[p].queued > 0 =>
                {
                    self.be[p].queued -= 1
                }
                _ => errs.push(3),
            }
        }
        if i.ack_valid {
            match self.be.iter().enumerate().position(|(p, k)| {
                k.st == St::Await && k.kid == i.ack_kid && started_now != Some(p)
            }) {
                Some(p) => {
                    if i.ack_skip {
                        self.be[p].st = St::Skipped;
                        self.withdraw_due = self.be[p].slot;
                    } else {
                        self.be[p].st = St::Go;
                    }
                }
                None => errs.push(4),
            }
        }
        if let Some((class, p)) = push_on {
            let k = &mut self.list(class)[p];
            k.pushed += 1;
            k.queued += 1;
        }
        // descriptors of last cycle's submits arrive
        let mut gone: Vec<(u32, usize)> = vec![];
        for (p, k) in self.be.iter_mut().enumerate().take(s_be) {
            if k.st == St::Loading(c.wrapping_sub(1)) {
                if k.wgs == 0 {
                    errs.push(2);
                    gone.push((BE, p));
                } else {
                    k.st = St::Submitted;
                }
            }
        }
        // frees: the report, skipped kernels with nothing left (as at the cycle's start)
        if let Some(r) = report {
            gone.push(r);
            self.reported += 1;
        }
        for p in sfree {
            gone.push((BE, p));
        }
        if i.flush_be {
            for k in self.be.iter_mut().take(s_be) {
                k.dead = true;
            }
        }
        if i.be_killed {
            for p in 0..s_be {
                gone.push((BE, p));
            }
        }
        // new kernels
        if i.sub_valid && o.sub_ready {
            let (wgs, shape) = self.store.get(&i.sub_kid).copied().unwrap_or((0, 0));
            self.be.push(K::new(i.sub_kid, wgs, shape, St::Loading(c)));
        }
        if i.rt_valid && o.rt_ready {
            if self.rt.iter().take(s_rt).any(|k| k.kid == i.rt_kid) {
                errs.push(1);
            } else if i.rt_wgs == 0 {
                errs.push(2);
            } else {
                self.rt.push(K::new(i.rt_kid, i.rt_wgs, i.rt_shape, St::Go));
            }
        }
        if i.desc_we {
            if i.desc_wgs == 0 {
                errs.push(2);
            } else {
                self.store.insert(i.desc_kid, (i.desc_wgs, i.desc_shape));
            }
        }
        gone.sort_unstable();
        gone.dedup();
        for &(class, p) in gone.iter().rev() {
            self.list(class).remove(p);
        }
        self.error_due = errs.into_iter().min().unwrap_or(0);
        for k in self.rt.iter_mut().chain(self.be.iter_mut()) {
            if k.finished() && k.finished_at.is_none() {
                k.finished_at = Some(c);
            }
        }
        Ok(())
    }

    fn finish(&mut self, cycles: usize) -> Result<(), Violation> {
        let bound = self.cfg.rt_entries + self.cfg.be_entries;
        for k in self.rt.iter().chain(&self.be) {
            if let (true, Some(f)) = (k.finished(), k.finished_at) {
                if f + bound + 1 < cycles {
                    return Err(Violation::new(
                        f + bound + 1,
                        "done-within-bound",
                        format!("kernel {} never reported", k.kid),
                    ));
                }
            }
        }
        Ok(())
    }
}

/// The expander's board config with its spec checker.
impl crate::unit::CheckedUnit for crate::kernel_expander::KernelExpanderBoard {
    fn spec_checker() -> Box<dyn SpecChecker<In = ExpIn, Out = ExpOut>> {
        Box::new(ExpanderSpec::new(ExpanderConfig::board()))
    }
}
