//! Tagged workgroup dispatcher (SPEC Unit 8's dispatcher extensions, design
//! `docs/gpu_frontend.md`): the executable spec of the GPU front-end's dispatcher, board config
//! first. It is [`Dispatcher`] (SPEC Unit 3, every rule and timing of `super`'s module doc) plus
//! a **kernel tag** per WG, a **withdraw** command, the **BE channel flush** at a CU reset and
//! the **reclaim engine** after the CU reset is confirmed.
//!
//! **Compatibility**: with every new input at 0 (`push_class`, `push_kslot`, `withdraw_valid`,
//! `withdraw_kslot`, `cu_reset`, `cu_reset_done`) the old outputs ([`TaggedOut::base`]) are
//! exactly [`Dispatcher`]'s, cycle for cycle (tested in lockstep on the standard random traces,
//! `tests/dispatcher_tagged.rs`). The standalone `dispatcher` export is unchanged; the
//! extensions are a separate model (and, when built, a separate export `dispatcher_tagged`).
//!
//! ## New ports (beside every port of `dispatcher`; KB = [`TaggedConfig::kslot_bits`], board 3)
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `push_class` | in | 1 | tag class of the pushed WG: 0 real-time (RT), 1 best-effort (BE) |
//! | `push_kslot` | in | KB | tag kernel slot (the expander's tracker entry of its class) |
//! | `withdraw_valid`, `withdraw_kslot` | in | 1, KB | withdraw the BE kernel in that slot (a strobe) |
//! | `cu_reset` | in | 1 | Unit 4's CU reset (strobe): flush the BE channel |
//! | `cu_reset_done` | in | 1 | the compute modules confirm: every BE WG is dead (strobe) |
//! | `room` | out | R | bit c: channel c's FIFO is not full (from the state at the start of the cycle) |
//! | `disp_class`, `disp_kslot`, `disp_last` | out | 1, KB, 1 | with `disp_valid`: the record's tag; `disp_last` = the WG's dispatch ends with this record (a whole WG, or the last sub-WG of a split one) |
//! | `wdr_valid`, `wdr_kslot` | out | 1, KB | registered: one WG of that BE kernel slot was withdrawn at the last edge |
//! | `cpl_valid`, `cpl_class`, `cpl_kslot` | out | 1, 1, KB | registered: the completion accepted in the previous cycle, with its WG's tag |
//! | `reclaim_busy` | out | 1 | the reclaim walk is running (from the state at the start of the cycle) |
//! | `reclaim_done` | out | 1 | registered strobe: the walk ended at the last edge (every BE WG's slot is free, its blocks at the next edge) |
//!
//! Every registered output is 0 without its strobe. `push_ready` keeps its meaning
//! (`room[push_channel]`, 1 for a channel out of range).
//!
//! ## Tags
//! A pushed WG carries `{class, kslot}` through its FIFO entry and its in-flight slot; its
//! records (one per sub-WG of a split WG) and its completion echo it. The BE channel is channel
//! [`BE_CHANNEL`] (1): a class-1 push into any other channel is refused with `BAD_ID` (3) —
//! a BE WG elsewhere could be neither withdrawn nor flushed. A class-0 WG may sit in any
//! channel (that is how the old `dispatcher` is used: every WG class 0).
//!
//! ## One cycle t (S = the state at the start of t); additions to `super`'s cycle
//! 1. **Hold**: the BE channel's head is no candidate of t's decision when it is class 1 and
//!    either a CU reset is open (`cu_reset` or `cu_reset_done` in t, a `cu_reset` not yet
//!    confirmed, or the walk running in S) or the withdraw below pops it; and in the cycle of a
//!    `cu_reset` the head is held whatever its class (so no decision pops the BE channel while
//!    the flush compacts it: the RTL's flush then needs no second form for a popped head). A
//!    held head counts as "replaced" for emb. 3 (no failure is counted in t: g holds).
//! 2. **Withdraw**: the command of t is `withdraw_kslot` when `withdraw_valid`, else the command
//!    still active from t−1. If the BE channel's head in S is class 1 with that kslot (and no
//!    `cu_reset` in t), it is popped at the edge without a record (a head in split mode goes
//!    with its sub-WGs not yet decided; those already decided keep their records, none with
//!    `disp_last`); `wdr_valid`/`wdr_kslot` in t+1; the command stays active for t+1. Otherwise
//!    the command ends; a new command replaces an active one. So one command pops the run of
//!    that kernel's WGs at the head, one per cycle;
//!    a WG decided before (popped at an earlier edge) still gets its record.
//! 3. **Flush** (`cu_reset` in t): at the edge every class-1 WG of the BE channel is removed —
//!    those queued in S and a class-1 push accepted in t — without a record or report; class-0
//!    WGs stay in order; an active withdraw command ends. The BE channel's head counts as
//!    replaced in t+1 (no candidate of t+1's decision, no failure counted), also when a class-0
//!    head stayed: the RTL refreshes its decode of FIFO entry 1 in t+1 (no decoder of the
//!    compacted entry 1 in the flush cycle). The last record of a BE WG decided
//!    before the hold is visible in t+1 at the latest.
//! 4. **Reclaim** (`cu_reset_done` in t0, no walk running in S): the walk visits in-flight slot k
//!    in cycle t0+1+k (k = 0..slots) and, when it holds a class-1 WG, frees it through a second
//!    free port exactly as a completion would (slot at the edge of t0+1+k, blocks at the next
//!    one); an external completion in the same cycle goes first (the walk then finds an idle
//!    slot). `reclaim_busy` is high in t0+1 ..= t0+slots, `reclaim_done` strobes in
//!    t0+slots+1. **Bound**: every BE WG's slot and blocks are free in the state of cycle
//!    t0 + slots + 2 (board: 10 cycles). RT WGs are never touched; their completions work during
//!    the walk as always. A `cu_reset_done` while the walk runs is absorbed (the walk frees
//!    every BE WG: none is decided during it, step 1). With the hold, no BE WG decided after a
//!    `cu_reset`/`cu_reset_done` is recorded, so no record of a killed WG comes after the walk.
//!    A completion of a reclaimed slot afterwards is `IDLE_SLOT` as usual.
//! 5. **Completion echo**: an accepted completion (no error) in t gives `cpl_valid` with the
//!    slot's tag in t+1.
//!
//! Protocol (the front-end's duty, not checked): every `cu_reset` is followed by a
//! `cu_reset_done` (until then the BE channel is held); after `cu_reset_done` no completion of
//! a BE WG in flight at the reset comes (SPEC Unit 8).
//!
//! Errors: `super`'s codes and precedence; the only addition is `BAD_ID` for a class-1 push
//! outside the BE channel (a push error: it beats completion and config). The new commands
//! have no error: a withdraw whose kernel is not at the head pops nothing, a `cu_reset_done`
//! during a walk is absorbed.

use super::{DispError, DispIn, DispOut, Dispatcher, DispatcherConfig, Wg};
use crate::CycleModel;
use std::collections::VecDeque;

/// The BE channel (channel 0 carries RT work in the front-end).
pub const BE_CHANNEL: usize = 1;

/// Tag classes.
pub const RT: u32 = 0;
pub const BE: u32 = 1;

/// A WG's kernel tag.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tag {
    /// 0 RT, 1 BE.
    pub class: u32,
    /// The kernel's tracker slot in its class.
    pub kslot: u32,
}

impl Tag {
    pub fn is_be(&self) -> bool {
        self.class == BE
    }
}

/// Construction-time parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TaggedConfig {
    pub disp: DispatcherConfig,
    /// KB: width of a tag's kernel slot (1..=8).
    pub kslot_bits: usize,
}

impl TaggedConfig {
    /// Board: the board dispatcher, 3-bit kernel slots (the expander's 4 RT / 8 BE entries).
    pub const fn board() -> Self {
        Self {
            disp: DispatcherConfig::board(),
            kslot_bits: 3,
        }
    }
    /// Any dispatcher config with board-width tags.
    pub const fn with(disp: DispatcherConfig) -> Self {
        Self {
            disp,
            kslot_bits: 3,
        }
    }
    /// Reclaim bound in cycles from `cu_reset_done`: table size + 2.
    pub const fn reclaim_bound(&self) -> usize {
        self.disp.slots + 2
    }
    pub fn validate(&self) {
        self.disp.validate();
        assert!(
            self.disp.channels >= 2,
            "dispatcher_tagged: needs a BE channel (channel 1): channels >= 2"
        );
        assert!(
            (1..=8).contains(&self.kslot_bits),
            "dispatcher_tagged: kslot_bits must be 1..=8"
        );
    }
}

/// Inputs of one cycle: the old ports and the new ones.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TaggedIn {
    pub base: DispIn,
    pub push_class: u32,
    pub push_kslot: u32,
    pub withdraw_valid: bool,
    pub withdraw_kslot: u32,
    pub cu_reset: bool,
    pub cu_reset_done: bool,
}

impl From<DispIn> for TaggedIn {
    /// The old inputs with every new input at 0.
    fn from(base: DispIn) -> Self {
        Self {
            base,
            ..Self::default()
        }
    }
}

impl crate::ResetInput for TaggedIn {
    fn reset_input() -> Self {
        <DispIn as crate::ResetInput>::reset_input().into()
    }
}

impl TaggedIn {
    /// A push of `wg` with its tag.
    pub fn push(channel: usize, wg: &Wg, tag: Tag) -> Self {
        Self {
            base: DispIn::push(channel, wg),
            push_class: tag.class,
            push_kslot: tag.kslot,
            ..Self::default()
        }
    }
    /// A withdraw command for BE kernel slot `kslot`.
    pub fn withdraw(kslot: u32) -> Self {
        Self {
            withdraw_valid: true,
            withdraw_kslot: kslot,
            ..Self::default()
        }
    }
}

/// Outputs of one cycle: the old ones and the new ones.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TaggedOut {
    pub base: DispOut,
    pub room: u32,
    pub disp_class: u32,
    pub disp_kslot: u32,
    pub disp_last: bool,
    pub wdr_valid: bool,
    pub wdr_kslot: u32,
    pub cpl_valid: bool,
    pub cpl_class: u32,
    pub cpl_kslot: u32,
    pub reclaim_busy: bool,
    pub reclaim_done: bool,
}

/// Cycle model of the tagged dispatcher: [`Dispatcher`] with tags kept beside its FIFOs and
/// in-flight table (this module is a child of `dispatcher`, so it drives the inner model's
/// pipeline state directly where the extensions act on it: the hold, the pops, the second free
/// port).
#[derive(Clone, Debug)]
pub struct TaggedDispatcher {
    cfg: TaggedConfig,
    inner: Dispatcher,
    /// Per channel: the tags of the FIFO entries, in FIFO order (mirrors the inner FIFOs).
    tags: Vec<VecDeque<Tag>>,
    /// Per in-flight slot: its WG's tag.
    slot_tag: Vec<Option<Tag>>,
    /// The tag and `last` of the inner model's decision being committed next cycle.
    pending: Option<(Tag, bool)>,
    /// The withdraw command still active.
    wd_active: Option<u32>,
    /// A `cu_reset` seen and not yet confirmed.
    armed: bool,
    /// The reclaim walk: the slot it visits this cycle.
    walk: Option<usize>,
    out: TaggedOut,
}

impl TaggedDispatcher {
    pub fn new(cfg: TaggedConfig) -> Self {
        cfg.validate();
        let mut d = Self {
            cfg,
            inner: Dispatcher::new(cfg.disp),
            tags: vec![],
            slot_tag: vec![],
            pending: None,
            wd_active: None,
            armed: false,
            walk: None,
            out: TaggedOut::default(),
        };
        d.reset();
        d
    }

    pub fn config(&self) -> &TaggedConfig {
        &self.cfg
    }

    /// The untagged dispatcher inside (its resources, registers, statistics).
    pub fn inner(&self) -> &Dispatcher {
        &self.inner
    }

    /// Tags of the WGs queued in `channel`, head first.
    pub fn queued_tags(&self, channel: usize) -> Vec<Tag> {
        self.tags[channel].iter().copied().collect()
    }

    /// In-flight slots and their tags.
    pub fn in_flight(&self) -> Vec<(usize, Tag)> {
        self.slot_tag
            .iter()
            .enumerate()
            .filter_map(|(s, t)| t.map(|t| (s, t)))
            .collect()
    }

    /// Whether every map, wave slot and table slot is free and nothing is pending.
    pub fn idle(&self) -> bool {
        let res = &self.inner.res;
        self.inner.pending.is_none()
            && res.releasing.is_empty()
            && res.inflight.iter().all(|e| e.is_none())
            && (0..self.cfg.disp.modules).all(|m| {
                let f = res.free_counts(m);
                let c = &self.cfg.disp;
                f == [
                    c.units * c.vgpr_blocks,
                    c.units * c.sgpr_blocks,
                    c.units * c.wave_slots,
                    c.lds_blocks,
                ]
            })
    }

    fn kslot_mask(&self) -> u32 {
        (1 << self.cfg.kslot_bits) - 1
    }

    fn be_head(&self) -> Option<Tag> {
        self.tags[BE_CHANNEL].front().copied()
    }
}

impl CycleModel for TaggedDispatcher {
    type In = TaggedIn;
    type Out = TaggedOut;

    fn reset(&mut self) {
        let c = self.cfg.disp;
        self.inner.reset();
        self.tags = vec![VecDeque::new(); c.channels];
        self.slot_tag = vec![None; c.slots];
        self.pending = None;
        self.wd_active = None;
        self.armed = false;
        self.walk = None;
        self.out = TaggedOut::default();
    }

    fn step(&mut self, i: &TaggedIn) -> TaggedOut {
        let c = self.cfg.disp;
        let ch = i.base.push_channel as usize;
        let room = (0..c.channels)
            .filter(|&k| self.inner.can_push(k))
            .fold(0u32, |a, k| a | 1 << k);
        let seen = TaggedOut {
            base: DispOut {
                push_ready: ch >= c.channels || self.inner.can_push(ch),
                ..self.out.base.clone()
            },
            room,
            reclaim_busy: self.walk.is_some(),
            ..self.out.clone()
        };
        if i.base.reset {
            self.reset();
            return seen;
        }
        let kmask = self.kslot_mask();
        let push_tag = Tag {
            class: i.push_class & 1,
            kslot: i.push_kslot & kmask,
        };
        // 1–2. Hold and withdraw, judged on the state at the start of the cycle.
        let reset_open = i.cu_reset || i.cu_reset_done || self.armed || self.walk.is_some();
        let cmd = if i.withdraw_valid {
            Some(i.withdraw_kslot & kmask)
        } else {
            self.wd_active
        };
        let head = self.be_head();
        let wd_pop = !i.cu_reset
            && cmd.is_some_and(|s| {
                head == Some(Tag {
                    class: BE,
                    kslot: s,
                })
            });
        if head.is_some_and(|t| t.is_be()) && (reset_open || wd_pop) || head.is_some() && i.cu_reset
        {
            self.inner.head_changed[BE_CHANNEL] = true;
        }
        // Push: the tag check (a class-1 WG outside the BE channel) is a push error.
        let handshake = i.base.push_valid && (ch >= c.channels || self.inner.can_push(ch));
        let tag_refused = handshake && ch < c.channels && push_tag.is_be() && ch != BE_CHANNEL;
        let mut base = i.base.clone();
        if tag_refused {
            base.push_valid = false;
        }
        let wg = Wg {
            id: i.base.push_id,
            prio: i.base.push_prio as usize,
            waves: i.base.push_waves as usize,
            vgpr: i.base.push_vgpr as usize,
            sgpr: i.base.push_sgpr as usize,
            lds: i.base.push_lds as usize,
            indep: i.base.push_indep,
        };
        let pushed = handshake && !tag_refused && self.inner.check_push(ch, &wg).is_ok();
        // Completion (judged as the inner model will: slot in flight at the start).
        let s = i.base.done_slot as usize;
        let done_ok = i.base.done_valid && s < c.slots && self.inner.res.inflight[s].is_some();

        let (_, committed, err) = self.inner.cycle(&base);
        let err = if tag_refused {
            Some(DispError::BadId)
        } else {
            err
        };

        // Completion echo and slot tags.
        let mut out = TaggedOut::default();
        if done_ok {
            let t = self.slot_tag[s]
                .take()
                .expect("an in-flight slot has a tag");
            out.cpl_valid = true;
            out.cpl_class = t.class;
            out.cpl_kslot = t.kslot;
        }
        if let Some(d) = &committed {
            let (t, last) = self.pending.take().expect("a committed decision has a tag");
            self.slot_tag[d.slot] = Some(t);
            out.base = self.inner.record(d);
            out.disp_class = t.class;
            out.disp_kslot = t.kslot;
            out.disp_last = last;
        }
        // This cycle's decision (popped at this edge unless a split head has sub-WGs left).
        if let Some(d) = &self.inner.pending {
            let k = d.channel;
            let t = *self.tags[k].front().expect("a decided head has a tag");
            let popped = !d.sub || self.inner.split_left[k] == 0;
            if popped {
                self.tags[k].pop_front();
            }
            self.pending = Some((t, popped));
        }
        if pushed {
            self.tags[ch].push_back(push_tag);
        }
        // 2. Withdraw pop (the held head is still the front).
        let mut replaced = false;
        if wd_pop {
            let t = self.tags[BE_CHANNEL].pop_front().expect("withdrawn head");
            self.inner.fifo[BE_CHANNEL].pop_front();
            replaced = true;
            out.wdr_valid = true;
            out.wdr_kslot = t.kslot;
            self.wd_active = Some(t.kslot);
        } else {
            self.wd_active = None;
        }
        // 3. Flush of the BE channel's class-1 WGs.
        if i.cu_reset {
            let front_was_be = self.be_head().is_some_and(|t| t.is_be());
            let fifo = std::mem::take(&mut self.inner.fifo[BE_CHANNEL]);
            let tags = std::mem::take(&mut self.tags[BE_CHANNEL]);
            for (wg, t) in fifo.into_iter().zip(tags) {
                if !t.is_be() {
                    self.inner.fifo[BE_CHANNEL].push_back(wg);
                    self.tags[BE_CHANNEL].push_back(t);
                }
            }
            replaced |= front_was_be;
            self.wd_active = None;
        }
        if replaced {
            self.inner.split_left[BE_CHANNEL] = 0;
            self.inner.head_changed[BE_CHANNEL] = true;
        }
        if i.cu_reset {
            // the BE channel's head counts as replaced in t+1 even when it stayed (class 0)
            self.inner.head_changed[BE_CHANNEL] = true;
        }
        // 4. Reclaim walk: a second free port, after this cycle's completion.
        if let Some(k) = self.walk {
            if self.slot_tag[k].is_some_and(|t| t.is_be()) {
                let freed = self.inner.res.complete_deferred(k);
                debug_assert!(freed, "a tagged slot is in flight");
                self.slot_tag[k] = None;
            }
            if k + 1 == c.slots {
                self.walk = None;
                out.reclaim_done = true;
            } else {
                self.walk = Some(k + 1);
            }
        } else if i.cu_reset_done {
            self.walk = Some(0);
        }
        if i.cu_reset_done {
            self.armed = false;
        } else if i.cu_reset {
            self.armed = true;
        }
        debug_assert!(
            (0..c.channels).all(|k| self.tags[k].len() == self.inner.fifo[k].len()),
            "dispatcher_tagged: tag queues follow the FIFOs"
        );
        debug_assert!(
            (0..c.slots)
                .all(|k| self.slot_tag[k].is_some() == self.inner.res.inflight[k].is_some()),
            "dispatcher_tagged: slot tags follow the in-flight table"
        );
        if cfg!(debug_assertions) {
            self.inner.res.check_invariants();
        }
        out.base.error = err.is_some();
        out.base.error_code = err.map_or(0, |e| e as u8);
        self.out = out;
        seen
    }
}

#[cfg(test)]
mod tests;
