//! Spec checker of the tagged dispatcher's extensions (SPEC Unit 8 "CU reset reclaims" and the
//! design `docs/gpu_frontend.md`: kernel tags, withdraw, BE channel flush, reclaim engine),
//! written from SPEC and the design's contract, not from the model. It judges the new rules
//! (below) and, on the same tagged trace, every rule of SPEC Unit 3 through an inner
//! [`super::dispatcher::DispatcherChecker`] (placement, records, slots, errors, handshakes,
//! work conservation: its rule names, see its module doc), fed what the new rules decide:
//! - **queues**: every cycle, each channel's queue is handed over as this checker keeps it
//!   (WGs withdrawn or flushed are gone; a WG recorded after a withdraw or flush took it —
//!   decided before — is put at its channel's front for that record and leaves after it);
//! - **holds** (the contract's step 1): the BE channel's head obliges nothing (no
//!   `pick-priority` / `work-conserving` duty, no emb. 3 failure counted) in a cycle where it
//!   is class 1 and a CU reset is open (`cu_reset` or `cu_reset_done` in the cycle, a reset not
//!   confirmed, the walk running), in a `cu_reset` cycle and the one after it, and in the cycle
//!   of a withdraw pop and the one after it; a duty whose window meets a held cycle is excused;
//! - **the walk's frees**: the walk started by `cu_reset_done` in t0 frees slot j's BE WG as a
//!   completion in cycle t0+1+j would (slot from the next cycle, blocks within F), after that
//!   cycle's external completion; so a record into that slot before, or a completion of it
//!   after (`IDLE_SLOT`), is judged by Unit 3's rules;
//! - a class-1 push outside the BE channel is shown to it as a push with an out-of-range
//!   priority (`BAD_ID`, queues nothing).
//!
//! Within a cycle the new rules are judged first, so a violation both see is named by the new
//! rule.
//!
//! ## What it keeps (built from the ports)
//! - per channel the queue of accepted WGs `{id, tag, shape}` with their fate: queued,
//!   withdrawn (by a report, attributed to the front-most queued WG of the report's tag) or
//!   flushed (a class-1 WG of the BE channel at a `cu_reset`); a gone WG stays H cycles, so that
//!   a record of a WG decided before the withdraw / flush is still recognised;
//! - the in-flight table (slot → tag and regions) from the records and completions;
//! - the reclaim windows opened by `cu_reset_done`.
//!
//! ## Rules ([`Violation::rule`])
//! - `tag-push`: a class-1 push outside the BE channel (channel 1) is refused with `BAD_ID`
//!   and queues nothing.
//! - `tag-echo`: a record names the front WG of a channel (by id) and carries its tag;
//!   `disp_last` is 1 exactly for a whole WG and for the last (n-th) sub-WG of a split WG of n
//!   waves; without `disp_valid` the new record fields are 0, without `wdr_valid` / `cpl_valid`
//!   theirs too.
//! - `dropped` (nothing accepted dropped): a record never overtakes a WG of its channel that
//!   is still queued (not recorded, withdrawn or flushed); [`TaggedChecker::queued_wgs`] lets a
//!   drain test ask that every accepted WG ended.
//! - `withdraw-match` (withdraw pops only matching heads): a withdraw report needs a command
//!   for its kslot active in the previous cycle (the command's cycle, or a report of the same
//!   kslot, without a `cu_reset` in between), and a queued class-1 WG of that kslot at the
//!   front of the BE channel (WGs ahead of it must be recorded within H cycles); a WG is never
//!   both withdrawn and recorded.
//! - `withdraw-all`: the run of the commanded kernel's WGs at the front of the BE channel when
//!   the command comes ends (withdrawn, or recorded when decided before the command) within
//!   run length + H cycles; none of them is recorded H or more cycles after the command. A new
//!   command (or a `cu_reset`) replaces the active one: the rest of its run stays queued.
//! - `flush`: a WG flushed at a `cu_reset` in cycle f is recorded only before f + H (decided
//!   before the reset) and never withdrawn.
//! - `reclaim-rt` (no RT WG reclaimed): a record never names the slot of an RT WG in flight nor
//!   overlaps its regions; a completion of an RT WG in flight is accepted (echoed).
//! - `reclaim-bound` (every BE WG freed within table size + 2 cycles of `cu_reset_done` in t0):
//!   `reclaim_done` strobes in t0+1 ..= t0+S+2 (and only then); after it, a completion of a BE
//!   WG in flight before t0 is refused (not echoed): its slot was freed.
//! - `reclaim-hold` (no record of a killed WG after the walk): no class-1 record is visible
//!   from H cycles after a `cu_reset` / `cu_reset_done` to one cycle after the walk ends.
//! - `cpl-echo`: a completion of a slot in flight is echoed in the next cycle with its WG's tag;
//!   of a slot not in flight, never; no echo without a completion in the previous cycle.
//! - `room`: `room[push_channel]` equals `push_ready` for a channel in range.
//!
//! H is the dispatcher's head → record bound ([`super::dispatcher::Timing`]), S the table size.

use crate::spec::dispatcher::{DispatcherChecker, Timing, Wg};
use crate::spec::{SpecChecker, Violation};
use golden_model::dispatcher::tagged::{TaggedConfig, TaggedIn, TaggedOut, BE, BE_CHANNEL};
use golden_model::dispatcher::DispatcherConfig;
use std::collections::VecDeque;

const BAD_ID: u8 = 3;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fate {
    Queued,
    /// Withdrawn (by the report of that cycle).
    Withdrawn(usize),
    /// Flushed by the `cu_reset` of that cycle.
    Flushed(usize),
}

#[derive(Clone, Debug)]
struct Entry {
    /// Push order (unique since the last reset).
    seq: u64,
    id: u32,
    class: u32,
    kslot: u32,
    prio: usize,
    indep: bool,
    waves: usize,
    vgpr: usize,
    sgpr: usize,
    lds: usize,
    /// Sub-WG records seen.
    subs: usize,
    fate: Fate,
    /// Must be recorded by this cycle (a WG ahead of a withdrawn one).
    record_by: Option<usize>,
}

#[derive(Clone, Debug)]
struct Live {
    class: u32,
    kslot: u32,
    module: usize,
    /// Per unit (VGPR, SGPR) regions, LDS region (1 = taken).
    vgpr: Vec<u128>,
    sgpr: Vec<u128>,
    lds: u128,
    /// The record's cycle.
    since: usize,
}

/// A withdraw command's run: ids that must end by `by`, none recorded from `late`.
#[derive(Clone, Debug)]
struct Run {
    /// The commanded kernel slot: WG ids are indices within a kernel, so a run is (kslot, ids).
    kslot: u32,
    ids: Vec<u32>,
    by: usize,
    late: usize,
}

/// The tagged dispatcher's checker (see the module doc).
pub struct TaggedChecker {
    cfg: TaggedConfig,
    h: usize,
    queue: Vec<VecDeque<Entry>>,
    live: Vec<Option<Live>>,
    /// Expected outcome of the previous cycle's requests: push refused by the tag rule,
    /// completion echo (tag) or refusal of a reclaimed BE slot.
    prev_tag_refused: bool,
    prev_cpl: Option<(u32, u32)>,
    prev_cpl_slot: Option<usize>,
    prev_cpl_free: Option<usize>,
    prev_cpl_rt_reclaim: bool,
    /// A completion of a slot in range was requested in the previous cycle.
    prev_done: bool,
    /// The withdraw kslot active for this cycle's report (from the previous cycle).
    wd_expect: Option<u32>,
    runs: Vec<Run>,
    /// Reclaim: the walk's window (t0, end of walk t0 + S), BE slots to free and the cycle
    /// from which they must be free.
    walk: Option<(usize, usize)>,
    reclaim_done_by: Option<usize>,
    reclaimed: Vec<(usize, usize)>,
    /// A `cu_reset` not yet confirmed, and the hold window: no BE record from .0 to .1.
    armed: bool,
    hold: Option<(usize, Option<usize>)>,
    walks_seen: usize,
    /// SPEC Unit 3's checker, fed the queues as this checker's rules leave them, the holds, and
    /// the reclaim walk's frees (see the module doc).
    base: DispatcherChecker,
    /// Per table slot: the class of the WG in flight there (from the records and completions).
    slot_class: Vec<Option<u32>>,
    /// The queue entry this cycle's record named: (channel, entry as it was before the record).
    matched: Option<(usize, Entry)>,
    /// Channels (bit c) whose front-most recordable WG with the record's id carries its tag:
    /// where the Unit 3 checker may find the record (ids repeat across kernels).
    record_mask: u64,
    seq: u64,
}

impl TaggedChecker {
    pub fn new(cfg: TaggedConfig) -> Self {
        let c = cfg.disp;
        Self {
            cfg,
            h: Timing::of(&c).head_to_record,
            queue: vec![VecDeque::new(); c.channels],
            live: vec![None; c.slots],
            prev_tag_refused: false,
            prev_cpl: None,
            prev_cpl_slot: None,
            prev_cpl_free: None,
            prev_cpl_rt_reclaim: false,
            prev_done: false,
            wd_expect: None,
            runs: vec![],
            walk: None,
            reclaim_done_by: None,
            reclaimed: vec![],
            armed: false,
            hold: None,
            walks_seen: 0,
            base: DispatcherChecker::new(c),
            slot_class: vec![None; c.slots],
            matched: None,
            record_mask: u64::MAX,
            seq: 0,
        }
    }

    /// Accepted WGs not yet ended (recorded whole, withdrawn or flushed).
    pub fn queued_wgs(&self) -> usize {
        self.queue
            .iter()
            .flatten()
            .filter(|e| e.fate == Fate::Queued)
            .count()
    }

    /// Reclaim walks judged so far.
    pub fn walks(&self) -> usize {
        self.walks_seen
    }

    fn dc(&self) -> &DispatcherConfig {
        &self.cfg.disp
    }

    /// The push's step-9 legality (SPEC Unit 3) and the tag rule.
    fn push_legal(&self, i: &TaggedIn) -> (bool, bool) {
        let c = self.dc();
        let b = &i.base;
        let ch = b.push_channel as usize;
        let tag_bad = ch < c.channels && i.push_class & 1 == BE && ch != BE_CHANNEL;
        let q = (b.push_waves as usize).div_ceil(c.units);
        let ok = ch < c.channels
            && (b.push_prio as usize) < c.prios
            && b.push_waves > 0
            && q <= c.wave_slots
            && q * b.push_vgpr as usize <= c.vgpr_blocks
            && q * b.push_sgpr as usize <= c.sgpr_blocks
            && b.push_lds as usize <= c.lds_blocks;
        (ok && !tag_bad, tag_bad)
    }

    fn reset(&mut self) {
        *self = Self {
            walks_seen: self.walks_seen,
            ..Self::new(self.cfg)
        };
    }

    fn judge_record(&mut self, k: usize, o: &TaggedOut) -> Result<(), Violation> {
        let b = &o.base;
        let (id, class, kslot) = (b.disp_id, o.disp_class, o.disp_kslot);
        let h = self.h;
        // the first entry with that id in each channel that may still be recorded
        let recordable = |e: &Entry| match e.fate {
            Fate::Queued => true,
            Fate::Withdrawn(w) => k < w + h,
            Fate::Flushed(f) => k < f + h,
        };
        // per channel its front-most recordable WG with that id; the first one carrying the
        // record's tag (else the first one, for the diagnosis)
        let firsts: Vec<(usize, usize)> = self
            .queue
            .iter()
            .enumerate()
            .filter_map(|(c, q)| {
                q.iter()
                    .position(|e| e.id == id && recordable(e))
                    .map(|p| (c, p))
            })
            .collect();
        let tagged = |&(c, p): &(usize, usize)| {
            let e: &Entry = &self.queue[c][p];
            e.class == class && e.kslot == kslot
        };
        let exact = firsts
            .iter()
            .filter(|x| tagged(x))
            .fold(0u64, |m, &(c, _)| m | 1 << c);
        if exact != 0 {
            self.record_mask = exact;
        }
        let found = firsts
            .iter()
            .copied()
            .find(|x| tagged(x))
            .or(firsts.first().copied());
        let Some((c, p)) = found else {
            let gone = self
                .queue
                .iter()
                .flatten()
                .find(|e| e.id == id && e.fate != Fate::Queued);
            if let Some(e) = gone {
                let (rule, what) = match e.fate {
                    Fate::Flushed(f) => ("flush", format!("flushed in cycle {f}")),
                    Fate::Withdrawn(w) => {
                        ("withdraw-match", format!("withdrawn (report in cycle {w})"))
                    }
                    Fate::Queued => unreachable!(),
                };
                return Err(Violation::new(
                    k,
                    rule,
                    format!("record of WG {id}, {what}: too late to be a decision made before"),
                ));
            }
            return Err(Violation::new(
                k,
                "tag-echo",
                format!(
                    "record of WG {id} {{class {class}, kslot {kslot}}}: no queued WG has that id"
                ),
            ));
        };
        let e = self.queue[c][p].clone();
        self.matched = Some((c, e.clone()));
        if (e.class, e.kslot) != (class, kslot) {
            return Err(Violation::new(
                k,
                "tag-echo",
                format!(
                    "record of WG {id} carries {{class {class}, kslot {kslot}}}, it was pushed with {{class {}, kslot {}}}",
                    e.class, e.kslot
                ),
            ));
        }
        if let Fate::Flushed(f) = e.fate {
            debug_assert!(k < f + h);
        }
        if let Fate::Withdrawn(w) = e.fate {
            // the report named the wrong one of identical tags: move it to the front-most
            // queued WG of that tag
            let q = &mut self.queue[c];
            match q
                .iter()
                .position(|x| x.fate == Fate::Queued && x.class == BE && x.kslot == e.kslot)
            {
                Some(x) => q[x].fate = Fate::Withdrawn(w),
                None => {
                    return Err(Violation::new(
                        k,
                        "withdraw-match",
                        format!("WG {id} recorded and withdrawn (kslot {})", e.kslot),
                    ))
                }
            }
            self.queue[c][p].fate = Fate::Queued;
        }
        if let Some(x) = self.queue[c]
            .iter()
            .take(p)
            .find(|x| x.fate == Fate::Queued && x.record_by.is_none())
        {
            // a WG the active withdraw should have taken
            let rule = if c == BE_CHANNEL
                && self
                    .runs
                    .iter()
                    .any(|r| r.kslot == x.kslot && r.ids.contains(&x.id))
            {
                "withdraw-all"
            } else {
                "dropped"
            };
            return Err(Violation::new(
                k,
                rule,
                format!(
                    "record of WG {id} in channel {c} while WG {} ahead of it is neither recorded, withdrawn nor flushed",
                    x.id
                ),
            ));
        }
        if e.class == BE {
            if let Some((from, to)) = self.hold {
                if k >= from && to.is_none_or(|t| k <= t + 1) {
                    return Err(Violation::new(
                        k,
                        "reclaim-hold",
                        format!(
                            "record of BE WG {id} while a CU reset is open (from cycle {from})"
                        ),
                    ));
                }
            }
        }
        for run in &self.runs {
            if k >= run.late
                && c == BE_CHANNEL
                && e.class == BE
                && e.kslot == run.kslot
                && run.ids.contains(&id)
                && e.fate == Fate::Queued
            {
                return Err(Violation::new(
                    k,
                    "withdraw-all",
                    format!("WG {id} of a withdrawn kernel recorded after the withdraw"),
                ));
            }
        }
        // last
        let q = &mut self.queue[c][p];
        let last = if b.disp_sub {
            q.subs += 1;
            q.subs == q.waves
        } else {
            q.subs == 0
        };
        if o.disp_last != last || (!b.disp_sub && q.subs != 0) {
            return Err(Violation::new(
                k,
                "tag-echo",
                format!(
                    "record of WG {id} (sub {}, {} of {} waves): disp_last {} should be {last}",
                    b.disp_sub, q.subs, q.waves, o.disp_last
                ),
            ));
        }
        let (vgpr, sgpr, lds, waves) = (q.vgpr, q.sgpr, q.lds, q.waves);
        if last {
            self.queue[c].remove(p);
        }
        // in-flight table and regions
        let c = self.dc();
        let (qn, s) = (c.units, b.disp_slot as usize);
        let field = |x: u64, w: usize, t: usize| ((x >> (w * t)) & ((1 << w) - 1)) as usize;
        let wb = golden_model::count_bits(c.wave_slots);
        let vbits = golden_model::index_bits(c.vgpr_blocks);
        let sbits = golden_model::index_bits(c.sgpr_blocks);
        let ones = |base: usize, n: usize| {
            if n == 0 {
                0
            } else {
                (u128::MAX >> (128 - n.min(128))) << base.min(127)
            }
        };
        let _ = waves;
        let mut l = Live {
            class,
            kslot,
            module: b.disp_module as usize,
            vgpr: vec![],
            sgpr: vec![],
            lds: ones(b.disp_lds_base as usize, lds),
            since: k,
        };
        for t in 0..qn {
            let n = field(b.disp_waves, wb, t);
            l.vgpr
                .push(ones(field(b.disp_vgpr_base, vbits, t), n * vgpr));
            l.sgpr
                .push(ones(field(b.disp_sgpr_base, sbits, t), n * sgpr));
        }
        if s >= c.slots {
            return Err(Violation::new(
                k,
                "tag-echo",
                format!("record slot {s} out of range"),
            ));
        }
        for (x, other) in self.live.iter().enumerate() {
            let Some(other) = other else { continue };
            let overlap = x == s
                || (other.module == l.module
                    && (other.lds & l.lds != 0
                        || (0..qn).any(|t| {
                            other.vgpr[t] & l.vgpr[t] != 0 || other.sgpr[t] & l.sgpr[t] != 0
                        })));
            if overlap && other.class != BE {
                return Err(Violation::new(
                    k,
                    "reclaim-rt",
                    format!(
                        "record of WG {id} (slot {s}, module {}) takes the slot or blocks of the RT WG in slot {x} (recorded in cycle {})",
                        l.module, other.since
                    ),
                ));
            }
        }
        // a reclaimed slot named again was freed: the new WG's completion is judged as usual
        self.reclaimed.retain(|r| r.0 != s);
        self.live[s] = Some(l);
        Ok(())
    }

    /// Attribute a withdraw report of kslot `s` in cycle `k`.
    fn judge_withdraw(&mut self, k: usize, s: u32) -> Result<(), Violation> {
        if self.wd_expect != Some(s) {
            return Err(Violation::new(
                k,
                "withdraw-match",
                format!(
                    "withdraw report of kslot {s} without an active command for it (active: {:?})",
                    self.wd_expect
                ),
            ));
        }
        let h = self.h;
        let q = &mut self.queue[BE_CHANNEL];
        let Some(p) = q
            .iter()
            .position(|e| e.fate == Fate::Queued && e.record_by.is_none())
        else {
            return Err(Violation::new(
                k,
                "withdraw-match",
                format!("withdraw report of kslot {s}: no queued WG in the BE channel"),
            ));
        };
        // WGs ahead of the withdrawn one were decided before it: they are recorded within H
        let x = (p..q.len())
            .find(|&x| q[x].fate == Fate::Queued && q[x].class == BE && q[x].kslot == s);
        let Some(x) = x else {
            return Err(Violation::new(
                k,
                "withdraw-match",
                format!(
                    "withdraw report of kslot {s}: no queued WG of that kernel in the BE channel"
                ),
            ));
        };
        for e in q.range_mut(p..x) {
            if e.fate == Fate::Queued {
                e.record_by = Some(k + h);
            }
        }
        q[x].fate = Fate::Withdrawn(k);
        Ok(())
    }

    fn judge_outputs(&mut self, k: usize, i: &TaggedIn, o: &TaggedOut) -> Result<(), Violation> {
        let b = &o.base;
        if !b.disp_valid && (o.disp_class != 0 || o.disp_kslot != 0 || o.disp_last)
            || !o.wdr_valid && o.wdr_kslot != 0
            || !o.cpl_valid && (o.cpl_class != 0 || o.cpl_kslot != 0)
        {
            return Err(Violation::new(
                k,
                "tag-echo",
                "a new field is not 0 without its strobe",
            ));
        }
        let ch = i.base.push_channel as usize;
        if ch < self.dc().channels && (o.room >> ch & 1 == 1) != b.push_ready {
            return Err(Violation::new(
                k,
                "room",
                format!(
                    "room bit {ch} = {}, push_ready = {}",
                    o.room >> ch & 1,
                    b.push_ready
                ),
            ));
        }
        if self.prev_tag_refused && !(b.error && b.error_code == BAD_ID) {
            return Err(Violation::new(
                k,
                "tag-push",
                format!(
                    "a class-1 push outside the BE channel: error {} code {}, want BAD_ID",
                    b.error, b.error_code
                ),
            ));
        }
        // completion echo of the previous cycle's completion
        let got = o.cpl_valid.then_some((o.cpl_class, o.cpl_kslot));
        if let Some(s) = self.prev_cpl_free {
            if got.is_some() {
                return Err(Violation::new(
                    k,
                    "reclaim-bound",
                    format!(
                        "completion of BE slot {s} accepted after the reclaim: it was not freed"
                    ),
                ));
            }
        } else if !self.prev_done {
            if let Some((c, s)) = got {
                return Err(Violation::new(
                    k,
                    "cpl-echo",
                    format!("completion echo {{class {c}, kslot {s}}} without a completion in the previous cycle"),
                ));
            }
        } else if let Some(s) = self.prev_cpl_slot {
            if got != self.prev_cpl {
                let rule = if self.prev_cpl_rt_reclaim && got.is_none() {
                    "reclaim-rt"
                } else {
                    "cpl-echo"
                };
                return Err(Violation::new(
                    k,
                    rule,
                    format!(
                        "completion of slot {s}: echo {got:?}, want {:?}",
                        self.prev_cpl
                    ),
                ));
            }
        }
        if b.disp_valid {
            self.judge_record(k, o)?;
        }
        if o.wdr_valid {
            self.judge_withdraw(k, o.wdr_kslot)?;
        }
        // reclaim_done
        if o.reclaim_done {
            if self.reclaim_done_by.is_none() {
                return Err(Violation::new(
                    k,
                    "reclaim-bound",
                    "reclaim_done without a walk",
                ));
            }
            self.reclaim_done_by = None;
        }
        if let Some(by) = self.reclaim_done_by {
            if k >= by {
                return Err(Violation::new(
                    k,
                    "reclaim-bound",
                    format!("no reclaim_done by cycle {by} (table size + 2 after cu_reset_done)"),
                ));
            }
        }
        // deadlines
        let h = self.h;
        for q in &self.queue {
            if let Some(e) = q
                .iter()
                .find(|e| e.fate == Fate::Queued && e.record_by.is_some_and(|r| k > r))
            {
                return Err(Violation::new(
                    k,
                    "withdraw-match",
                    format!("WG {} ahead of a withdrawn WG was not recorded: the withdraw popped a WG that was not the head", e.id),
                ));
            }
        }
        for run in &self.runs {
            if k > run.by {
                if let Some(e) = self.queue[BE_CHANNEL].iter().find(|e| {
                    e.fate == Fate::Queued
                        && e.class == BE
                        && e.kslot == run.kslot
                        && run.ids.contains(&e.id)
                }) {
                    return Err(Violation::new(
                        k,
                        "withdraw-all",
                        format!(
                            "WG {} of the withdrawn kernel (kslot {}) still queued",
                            e.id, e.kslot
                        ),
                    ));
                }
            }
        }
        self.runs.retain(|r| k <= r.by);
        // gone WGs are kept a while longer to name a late record's rule
        let keep = 4 * h + self.cfg.disp.slots;
        for q in &mut self.queue {
            q.retain(|e| match e.fate {
                Fate::Queued => true,
                Fate::Withdrawn(w) => k < w + keep,
                Fate::Flushed(f) => k < f + keep,
            });
        }
        Ok(())
    }

    fn apply_inputs(&mut self, k: usize, i: &TaggedIn, o: &TaggedOut) {
        let c = *self.dc();
        let b = &i.base;
        let kmask = (1u32 << self.cfg.kslot_bits) - 1;
        // completion
        self.prev_cpl = None;
        self.prev_cpl_slot = None;
        self.prev_cpl_free = None;
        self.prev_cpl_rt_reclaim = false;
        let s = b.done_slot as usize;
        self.prev_done = b.done_valid && s < c.slots;
        if b.done_valid && s < c.slots {
            if let Some(&(_, from)) = self.reclaimed.iter().find(|r| r.0 == s) {
                if k >= from {
                    self.prev_cpl_free = Some(s);
                    self.reclaimed.retain(|r| r.0 != s);
                }
            } else {
                self.prev_cpl_slot = Some(s);
                if let Some(l) = self.live[s].take() {
                    self.prev_cpl = Some((l.class, l.kslot));
                    self.prev_cpl_rt_reclaim = self.walks_seen > 0;
                }
            }
        }
        // withdraw command snapshot (state before this cycle's push)
        let h = self.h;
        if i.withdraw_valid && !i.cu_reset {
            // a new command replaces the active one (its run's rest stays queued)
            self.runs.clear();
            let s = i.withdraw_kslot & kmask;
            let q = &self.queue[BE_CHANNEL];
            let front = q
                .iter()
                .filter(|e| e.fate == Fate::Queued)
                .collect::<Vec<_>>();
            let ids: Vec<u32> = front
                .iter()
                .take_while(|e| e.class == BE && e.kslot == s)
                .map(|e| e.id)
                .collect();
            if !ids.is_empty() {
                self.runs.push(Run {
                    kslot: s,
                    by: k + ids.len() + h,
                    late: k + h,
                    ids,
                });
            }
        }
        self.wd_expect = if i.cu_reset {
            None
        } else if i.withdraw_valid {
            Some(i.withdraw_kslot & kmask)
        } else if o.wdr_valid {
            Some(o.wdr_kslot)
        } else {
            None
        };
        // push
        let ch = b.push_channel as usize;
        let handshake = b.push_valid && o.base.push_ready;
        let (legal, tag_bad) = self.push_legal(i);
        self.prev_tag_refused = handshake && tag_bad;
        if handshake && legal {
            self.seq += 1;
            self.queue[ch].push_back(Entry {
                seq: self.seq,
                id: b.push_id,
                class: i.push_class & 1,
                kslot: i.push_kslot & kmask,
                prio: b.push_prio as usize,
                indep: b.push_indep,
                waves: b.push_waves as usize,
                vgpr: b.push_vgpr as usize,
                sgpr: b.push_sgpr as usize,
                lds: b.push_lds as usize,
                subs: 0,
                fate: Fate::Queued,
                record_by: None,
            });
        }
        // flush
        if i.cu_reset {
            for e in self.queue[BE_CHANNEL].iter_mut() {
                if e.class == BE && e.fate == Fate::Queued {
                    e.fate = Fate::Flushed(k);
                }
            }
            self.runs.clear();
        }
        // reclaim
        let walking = self.walk.is_some_and(|(_, end)| k <= end);
        if i.cu_reset_done && !walking {
            let end = k + c.slots;
            self.walk = Some((k, end));
            self.walks_seen += 1;
            self.reclaim_done_by = Some(k + c.slots + 3);
            for (s, l) in self.live.iter_mut().enumerate() {
                if l.as_ref().is_some_and(|l| l.class == BE) {
                    *l = None;
                    self.reclaimed.push((s, k + c.slots + 2));
                }
            }
        } else if walking {
            // BE WGs recorded since the walk began are freed by it too
            let end = self.walk.unwrap().1;
            for (s, l) in self.live.iter_mut().enumerate() {
                if l.as_ref().is_some_and(|l| l.class == BE) {
                    *l = None;
                    self.reclaimed.push((s, end + 2));
                }
            }
        }
        if (i.cu_reset || i.cu_reset_done)
            && self
                .hold
                .is_none_or(|(_, to)| to.is_some_and(|t| k > t + 1))
        {
            self.hold = Some((k + h, None));
        }
        if i.cu_reset_done {
            self.armed = false;
        } else if i.cu_reset {
            self.armed = true;
        }
        if let Some((from, None)) = self.hold {
            if !self.armed {
                if let Some((_, end)) = self.walk {
                    self.hold = Some((from, Some(end)));
                }
            }
        }
    }
}

impl TaggedChecker {
    /// SPEC Unit 3 on the tagged trace: hand the queues (as withdraw and flush left them, the
    /// WG of this cycle's record at its channel's front), the holds and the walk's frees to
    /// [`DispatcherChecker`], then let it judge the cycle's old ports.
    fn sync_base(&mut self, k: usize, i: &TaggedIn, o: &TaggedOut) -> Result<(), Violation> {
        let c = *self.dc();
        let wg = |e: &Entry| Wg {
            key: e.seq,
            id: e.id,
            prio: e.prio,
            waves: e.waves,
            vgpr: e.vgpr,
            sgpr: e.sgpr,
            lds: e.lds,
            indep: e.indep,
        };
        for ch in 0..c.channels {
            let queued: Vec<&Entry> = self.queue[ch]
                .iter()
                .filter(|e| e.fate == Fate::Queued)
                .collect();
            let mut v: Vec<Wg> = vec![];
            let mut gone = false;
            if let Some((mc, e)) = &self.matched {
                if *mc == ch && !queued.iter().any(|q| q.seq == e.seq) {
                    // recorded after a withdraw or flush took it (decided before): at the front
                    // for its record, gone after it
                    v.push(wg(e));
                    gone = true;
                }
            }
            v.extend(queued.iter().map(|e| wg(e)));
            self.base.set_queue(ch, v, gone);
        }
        // holds (the model's step 1): a class-1 BE head while a CU reset is open, any BE head
        // in a `cu_reset` cycle and the cycle after it, a head popped by a withdraw and the
        // cycle after that pop
        let walking = self.walk.is_some_and(|(t0, end)| k > t0 && k <= end);
        let reset_open = i.cu_reset || i.cu_reset_done || self.armed || walking;
        let head_be = self.queue[BE_CHANNEL]
            .iter()
            .find(|e| e.fate == Fate::Queued)
            .is_some_and(|e| e.class == BE);
        if reset_open && head_be || i.cu_reset {
            self.base.hold(k, BE_CHANNEL);
        }
        if i.cu_reset {
            self.base.hold(k + 1, BE_CHANNEL);
        }
        if o.wdr_valid && k > 0 {
            self.base.hold(k - 1, BE_CHANNEL);
            self.base.hold(k, BE_CHANNEL);
        }
        // the push of a class-1 WG outside the BE channel is BAD_ID: shown to the Unit 3
        // checker as a push with an out-of-range priority (BAD_ID there, queues nothing)
        let mut bi = i.base.clone();
        if self.push_legal(i).1 {
            bi.push_prio = c.prios as u32;
        }
        if o.base.disp_valid {
            // the record's WG by its tag, not by its id alone
            self.base.record_from(self.record_mask);
        }
        self.base.check(k, &bi, &o.base)?;
        if i.base.reset {
            return Ok(());
        }
        // table slots by class; the walk frees a BE WG's slot as a completion in the cycle it
        // visits the slot (t0+1+j for slot j), after this cycle's completion
        if o.base.disp_valid && (o.base.disp_slot as usize) < c.slots {
            self.slot_class[o.base.disp_slot as usize] = Some(o.disp_class);
        }
        if i.base.done_valid && (i.base.done_slot as usize) < c.slots {
            self.slot_class[i.base.done_slot as usize] = None;
        }
        if let Some((t0, end)) = self.walk {
            if k > t0 && k <= end {
                let j = k - t0 - 1;
                if j < c.slots && self.slot_class[j] == Some(BE) {
                    self.base.reclaim(k, j);
                    self.slot_class[j] = None;
                }
            }
        }
        Ok(())
    }
}

impl SpecChecker for TaggedChecker {
    type In = TaggedIn;
    type Out = TaggedOut;

    fn check(&mut self, k: usize, i: &TaggedIn, o: &TaggedOut) -> Result<(), Violation> {
        self.matched = None;
        self.record_mask = u64::MAX;
        if i.base.reset {
            // the reset cycle's record is judged by SPEC Unit 3 only (its WG found here, the
            // new rules' verdict dropped with the state)
            if o.base.disp_valid {
                let _ = self.judge_record(k, o);
            }
            self.sync_base(k, i, o)?;
            self.reset();
            return Ok(());
        }
        self.judge_outputs(k, i, o)?;
        self.sync_base(k, i, o)?;
        self.apply_inputs(k, i, o);
        Ok(())
    }

    fn finish(&mut self, cycles: usize) -> Result<(), Violation> {
        self.base.finish(cycles)?;
        if let Some(by) = self.reclaim_done_by {
            if cycles > by {
                return Err(Violation::new(cycles, "reclaim-bound", "no reclaim_done"));
            }
        }
        Ok(())
    }
}

impl crate::unit::CheckedUnit for crate::dispatcher_tagged::DispatcherTaggedBoard {
    fn spec_checker() -> Box<dyn SpecChecker<In = TaggedIn, Out = TaggedOut>> {
        Box::new(TaggedChecker::new(TaggedConfig::board()))
    }
}
