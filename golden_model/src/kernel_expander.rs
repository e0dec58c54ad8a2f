//! Kernel expander (SPEC Unit 8's expander, design `docs/gpu_frontend.md`): the executable
//! specification.
//!
//! It turns kernels into workgroup (WG) descriptors for the dispatcher, one per cycle, real-time
//! (RT) first, each tagged with its kernel's tracker entry `{class, slot}`; it keeps the
//! **tracker** (one entry per kernel in flight: R RT entries, B best-effort (BE) entries) and
//! the **descriptor store** (BE kernel shapes by kernel id, a block RAM), and it speaks Unit 4's
//! entry check: `start` on a BE kernel's first dispatch record, `ack {kid, skip}` back, `done`
//! on its last completion. Ports: see the module doc of `hdl::kernel_expander`; this file
//! decides the behaviour cycle by cycle with plain vectors and queues.
//!
//! ## Kernels and their tracker entries
//! A kernel in flight owns one entry of its class. Counters per entry: `pushed` (WGs pushed =
//! the next WG index), `queued` (WGs pushed whose dispatch has not ended: no last record and not
//! withdrawn), `live` (dispatch records not yet completed; a split WG has one record per
//! sub-WG). A BE entry is in one state: LOADING (its descriptor is being read), SUBMITTED, AWAIT
//! (started, the answer not yet seen), GO, SKIPPED; and it may be **dead** (flushed by a CU
//! reset: never pushed, started or reported again, freed by `be_killed`).
//! - A kernel is **finished** when every WG is pushed, `queued` = 0 and `live` = 0, and (BE) it
//!   is GO and not dead. Each cycle one finished entry is reported — `kernel_done {kid,
//!   class}`, and for BE also `done {kid}` — and freed: round robin over the entries in the
//!   order RT slots, then BE slots, starting after the entry reported last (reset: RT slot 0),
//!   so a finished kernel is reported within R + B cycles. Only a completion or a go answer
//!   makes a kernel finished, so at most two finish in one cycle; a backlog drains one per
//!   cycle (lowest-slot-first could starve a high slot while low slots keep finishing).
//! - A SKIPPED entry (not dead) with `queued` = 0 and `live` = 0 is freed silently (its orphan
//!   WGs are gone).
//!
//! ## Every output is a function of the state and the two room inputs
//! `rt_ready` (a free RT entry), `sub_ready` (a free BE entry), the push port, `kernel_done` /
//! `done`, `rt_active` and `be_orphans` are read from the state at the start of the cycle (in
//! the RTL: combinational from registers; the push port also from `room_rt` / `room_be`);
//! `start`, `withdraw` and `error` are registers written by the previous edge.
//! [`KernelExpander::outputs`] returns them without clocking.
//!
//! ## One cycle t (S = the state at the start of the cycle; every check reads S)
//! 1. **Record** `{class, slot, last}` (the dispatcher placed a WG or a sub-WG): legal iff the
//!    slot exists in that class, the entry is used and not LOADING, `queued` > 0 and `live` <
//!    2^LB − 1: `live` + 1, and `queued` − 1 when `last`. A BE entry in SUBMITTED and not dead
//!    goes to AWAIT and `start {kid}` strobes in t+1 (the entry check).
//! 2. **Completion** `{class, slot}`: legal iff the entry is used, not LOADING, `live` > 0:
//!    `live` − 1.
//! 3. **Withdraw report** `{slot}` (BE; the dispatcher dropped one queued WG of a skipped
//!    kernel): legal iff the entry is SKIPPED and `queued` exceeds the number of last records
//!    for it in this cycle: `queued` − 1.
//! 4. **Ack** `{kid, skip}`: legal iff an entry in AWAIT has that kid. Go → GO; skip → SKIPPED,
//!    no WG of it is pushed from t+1 on, and `withdraw {slot}` strobes in t+1.
//! 5. **Push** (the port's value from S): the oldest RT kernel with WGs left when `room_rt`,
//!    otherwise the oldest BE kernel with WGs left (not LOADING, SKIPPED or dead) when
//!    `room_be`. WG index = `pushed`; `pushed` + 1, `queued` + 1.
//! 6. **Descriptor arrives** for the entry taken by the previous cycle's submit: wg count 0
//!    (never described) → `ZERO_WGS` (in t+1) and the entry is freed; otherwise SUBMITTED and
//!    (unless dead) the youngest BE kernel to push.
//! 7. **Submit** `{kid}` (from Unit 4; taken when `sub_valid` and `sub_ready`): the lowest free BE
//!    entry becomes LOADING; the store is read at this edge (a descriptor written in this same
//!    cycle is not seen: read before write).
//! 8. **RT kernel** `{kid, wgs, shape}` (taken when `rt_valid` and `rt_ready`): kid held by an RT
//!    entry → `DUP_ID`; wgs 0 → `ZERO_WGS`; otherwise the lowest free RT entry, youngest RT
//!    kernel to push.
//! 9. **Descriptor write** `{kid, wgs, shape}` (a BE launch): wgs 0 → `ZERO_WGS`, nothing
//!    written; otherwise the store's entry of kid is replaced (reset does not clear the store).
//! 10. **Done report / free** (from S): the reported finished entry and every freeable SKIPPED
//!     entry are freed.
//! 11. **Flush** (`flush_be`, the CU reset): every BE entry used in S becomes dead; no BE kernel
//!     is pushed any more (the dispatcher empties its BE channel).
//! 12. **Killed** (`be_killed`, the dispatcher's reclaim is complete): every BE entry used in S is
//!     freed (Unit 4 resubmits them after resume); an entry taken by this cycle's submit stays.
//!
//! Errors: an offending event changes nothing; `error` strobes in t+1 with the smallest code
//! raised in cycle t (a submit's `ZERO_WGS` is raised in t+1, when its descriptor arrives):
//! 1 `DUP_ID`, 2 `ZERO_WGS`, 3 `BAD_EVENT` (record, completion or withdraw report not legal),
//! 4 `BAD_ACK` (no started kernel awaits that answer).
//!
//! Reset: every entry free, order queues empty, every strobe low; the descriptor store keeps its
//! contents.

use crate::{index_bits, CycleModel};
use std::collections::{HashMap, VecDeque};

/// Error codes (`error_code` port).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
#[repr(u8)]
pub enum ExpError {
    /// RT kernel whose kid an RT entry holds.
    DupId = 1,
    /// WG count 0: RT kernel, descriptor write, or a submitted kid never described.
    ZeroWgs = 2,
    /// Record, completion or withdraw report that no entry can take.
    BadEvent = 3,
    /// Answer with no started kernel awaiting it.
    BadAck = 4,
}

/// Kernel classes (the `class` bit of a tag).
pub const RT: u32 = 0;
pub const BE: u32 = 1;

/// Construction-time parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExpanderConfig {
    /// RT tracker entries R (= the RT kernels queued or running), ≥ 1.
    pub rt_entries: usize,
    /// BE tracker entries B (Unit 4's in-flight table: 8), ≥ 1.
    pub be_entries: usize,
    /// Kernel id bits IB (the descriptor store has 2^IB entries), 1..=16.
    pub id_bits: usize,
    /// WG count bits WB (a kernel has 1..2^WB WGs; push index width), 1..=16.
    pub wg_bits: usize,
    /// Shape bits SB (carried, not interpreted: the dispatcher's push fields), 1..=40.
    pub shape_bits: usize,
    /// Bits of a kernel's outstanding-record counter LB (records in flight < 2^LB), 1..=8.
    pub live_bits: usize,
}

impl ExpanderConfig {
    /// Board: 4 RT + 8 BE entries, 8-bit ids, 255 WGs, the board dispatcher's 19-bit shape
    /// (waves 4, VGPR 5, SGPR 4, LDS 5, independent 1), up to 15 records per kernel in flight
    /// (the dispatcher's table has 8 slots).
    pub const fn board() -> Self {
        Self {
            rt_entries: 4,
            be_entries: 8,
            id_bits: 8,
            wg_bits: 8,
            shape_bits: 19,
            live_bits: 4,
        }
    }
    /// Full: 16 RT + 8 BE entries, 12-bit ids, 1023 WGs, 29-bit shape (waves 7, VGPR 8, SGPR 7,
    /// LDS 6, independent 1), up to 127 records per kernel in flight (table of 64).
    pub const fn full() -> Self {
        Self {
            rt_entries: 16,
            be_entries: 8,
            id_bits: 12,
            wg_bits: 10,
            shape_bits: 29,
            live_bits: 7,
        }
    }
    /// One entry per class, 2-bit ids, 3 WGs, 1 record in flight per kernel.
    pub const fn one() -> Self {
        Self {
            rt_entries: 1,
            be_entries: 1,
            id_bits: 2,
            wg_bits: 2,
            shape_bits: 3,
            live_bits: 1,
        }
    }
    /// Small: 2 + 2 entries, 3-bit ids, 7 WGs.
    pub const fn small() -> Self {
        Self {
            rt_entries: 2,
            be_entries: 2,
            id_bits: 3,
            wg_bits: 3,
            shape_bits: 4,
            live_bits: 2,
        }
    }
    /// Non-power-of-two: 3 RT + 5 BE entries, 4-bit ids, 15 WGs.
    pub const fn odd() -> Self {
        Self {
            rt_entries: 3,
            be_entries: 5,
            id_bits: 4,
            wg_bits: 4,
            shape_bits: 5,
            live_bits: 3,
        }
    }
    /// Slot bits of a tag: `index_bits(max(R, B))` (derived).
    pub const fn slot_bits(&self) -> usize {
        let m = if self.rt_entries > self.be_entries {
            self.rt_entries
        } else {
            self.be_entries
        };
        index_bits(m)
    }
    /// Entries of a class.
    pub const fn entries(&self, class: u32) -> usize {
        if class == RT {
            self.rt_entries
        } else {
            self.be_entries
        }
    }
    /// Largest `live` count.
    pub const fn live_max(&self) -> u32 {
        (1 << self.live_bits) - 1
    }
    /// Panics with a message when the config is unusable.
    pub fn validate(&self) {
        assert!(
            (1..=16).contains(&self.rt_entries),
            "kernel_expander: RT entries must be 1..=16"
        );
        assert!(
            (1..=16).contains(&self.be_entries),
            "kernel_expander: BE entries must be 1..=16"
        );
        assert!(
            (1..=16).contains(&self.id_bits),
            "kernel_expander: id bits must be 1..=16"
        );
        assert!(
            (1..=16).contains(&self.wg_bits),
            "kernel_expander: WG count bits must be 1..=16"
        );
        assert!(
            (1..=40).contains(&self.shape_bits),
            "kernel_expander: shape bits must be 1..=40"
        );
        assert!(
            (1..=8).contains(&self.live_bits),
            "kernel_expander: live bits must be 1..=8"
        );
    }
}

/// Inputs of one cycle.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExpIn {
    pub reset: bool,
    /// RT kernel stream.
    pub rt_valid: bool,
    pub rt_kid: u32,
    pub rt_wgs: u32,
    pub rt_shape: u64,
    /// Descriptor store write (a BE launch).
    pub desc_we: bool,
    pub desc_kid: u32,
    pub desc_wgs: u32,
    pub desc_shape: u64,
    /// Unit 4's submit stream.
    pub sub_valid: bool,
    pub sub_kid: u32,
    /// The dispatcher's RT / BE channel can take a WG this cycle.
    pub room_rt: bool,
    pub room_be: bool,
    /// Dispatch record (tag; `last`: the WG's dispatch ends with this record).
    pub rec_valid: bool,
    pub rec_class: u32,
    pub rec_slot: u32,
    pub rec_last: bool,
    /// Completion of one record.
    pub cpl_valid: bool,
    pub cpl_class: u32,
    pub cpl_slot: u32,
    /// The dispatcher withdrew one queued WG of BE slot `wdr_slot`.
    pub wdr_valid: bool,
    pub wdr_slot: u32,
    /// Unit 4's answer.
    pub ack_valid: bool,
    pub ack_kid: u32,
    pub ack_skip: bool,
    /// CU reset issued: stop every BE kernel.
    pub flush_be: bool,
    /// The dispatcher's reclaim is complete: free every BE entry.
    pub be_killed: bool,
}

crate::reset_by_field!(ExpIn);

/// Outputs seen during one cycle (fields read 0 while their valid is low).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExpOut {
    pub rt_ready: bool,
    pub sub_ready: bool,
    pub push_valid: bool,
    pub push_class: u32,
    pub push_slot: u32,
    pub push_idx: u32,
    pub push_shape: u64,
    pub start_valid: bool,
    pub start_kid: u32,
    pub done_valid: bool,
    pub done_kid: u32,
    pub kdone_valid: bool,
    pub kdone_kid: u32,
    pub kdone_class: u32,
    pub withdraw_valid: bool,
    pub withdraw_slot: u32,
    /// Level: an RT kernel is queued or running.
    pub rt_active: bool,
    /// Level: a BE entry is SKIPPED or dead (orphan WGs may be in the compute modules).
    pub be_orphans: bool,
    pub error: bool,
    pub error_code: u32,
}

/// State of a BE entry (RT entries are always `Go`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EState {
    Loading,
    Submitted,
    Await,
    Go,
    Skipped,
}

/// One tracker entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    pub kid: u32,
    pub wgs: u32,
    pub shape: u64,
    pub pushed: u32,
    pub queued: u32,
    pub live: u32,
    pub st: EState,
    pub dead: bool,
}

impl Entry {
    /// Started (GO), not killed, every WG pushed and none queued or running: the kernel is
    /// done and waits for the done report's round robin.
    pub fn finished(&self) -> bool {
        self.st == EState::Go
            && !self.dead
            && self.pushed == self.wgs
            && self.queued == 0
            && self.live == 0
    }
    fn freeable_skip(&self) -> bool {
        self.st == EState::Skipped && !self.dead && self.queued == 0 && self.live == 0
    }
}

/// Event counters (coverage).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ExpStats {
    pub rt_kernels: u64,
    pub be_submits: u64,
    pub pushes_rt: u64,
    pub pushes_be: u64,
    pub records: u64,
    pub split_records: u64,
    pub completions: u64,
    pub withdrawn: u64,
    pub starts: u64,
    pub acks_go: u64,
    pub acks_skip: u64,
    pub done_rt: u64,
    pub done_be: u64,
    pub skip_freed: u64,
    pub flushes: u64,
    pub kills: u64,
    /// A second finished kernel waited one cycle for its report.
    pub done_waits: u64,
    /// Cycles with `rt_ready` / `sub_ready` low; a BE push held back by an RT one.
    pub rt_full: u64,
    pub be_full: u64,
    pub be_behind_rt: u64,
    /// Errors by code (index = code).
    pub errors: [u64; 5],
}

/// The expander.
#[derive(Clone, Debug)]
pub struct KernelExpander {
    cfg: ExpanderConfig,
    rt: Vec<Option<Entry>>,
    be: Vec<Option<Entry>>,
    rt_order: VecDeque<usize>,
    be_order: VecDeque<usize>,
    store: HashMap<u32, (u32, u64)>,
    /// The previous cycle's submit: (entry, descriptor read).
    loading: Option<(usize, (u32, u64))>,
    /// Round-robin start of the done report (entry index: RT slots, then BE slots).
    rr: usize,
    // registered outputs
    start: Option<u32>,
    withdraw: Option<u32>,
    error: Option<ExpError>,
    /// A submit's `ZERO_WGS`, raised when the descriptor arrives.
    stats: ExpStats,
}

impl KernelExpander {
    pub fn new(cfg: ExpanderConfig) -> Self {
        cfg.validate();
        Self {
            cfg,
            rt: vec![None; cfg.rt_entries],
            be: vec![None; cfg.be_entries],
            rt_order: VecDeque::new(),
            be_order: VecDeque::new(),
            store: HashMap::new(),
            loading: None,
            rr: 0,
            start: None,
            withdraw: None,
            error: None,
            stats: ExpStats::default(),
        }
    }

    pub fn config(&self) -> ExpanderConfig {
        self.cfg
    }
    pub fn stats(&self) -> &ExpStats {
        &self.stats
    }
    /// The RT entries by slot.
    pub fn rt_entries(&self) -> &[Option<Entry>] {
        &self.rt
    }
    /// The BE entries by slot.
    pub fn be_entries(&self) -> &[Option<Entry>] {
        &self.be
    }
    /// The entry of a tag (None when out of range or free).
    pub fn entry(&self, class: u32, slot: u32) -> Option<&Entry> {
        let v = if class == RT { &self.rt } else { &self.be };
        v.get(slot as usize).and_then(|e| e.as_ref())
    }
    /// The descriptor store's content for `kid` (wg count 0 = never described).
    pub fn descriptor(&self, kid: u32) -> (u32, u64) {
        self.store.get(&kid).copied().unwrap_or((0, 0))
    }

    /// The finished entry reported this cycle: round robin over the entries in the order RT
    /// slots, then BE slots, starting after the last one reported.
    fn finished_pick(&self) -> Option<(u32, usize)> {
        let r = self.cfg.rt_entries;
        let fin: Vec<bool> = self
            .rt
            .iter()
            .chain(&self.be)
            .map(|e| e.is_some_and(|e| e.finished()))
            .collect();
        let p = (self.rr..fin.len())
            .find(|&p| fin[p])
            .or_else(|| (0..fin.len()).find(|&p| fin[p]))?;
        Some(if p < r { (RT, p) } else { (BE, p - r) })
    }

    /// The push of this cycle: (class, slot), from the state and the room inputs.
    fn push_pick(&self, room_rt: bool, room_be: bool) -> Option<(u32, usize)> {
        match (self.rt_order.front(), self.be_order.front()) {
            (Some(&s), _) if room_rt => Some((RT, s)),
            (_, Some(&s)) if room_be => Some((BE, s)),
            _ => None,
        }
    }

    /// The outputs of the current cycle (state and the room inputs only).
    pub fn outputs(&self, room_rt: bool, room_be: bool) -> ExpOut {
        let mut o = ExpOut {
            rt_ready: self.rt.iter().any(Option::is_none),
            sub_ready: self.be.iter().any(Option::is_none),
            start_valid: self.start.is_some(),
            start_kid: self.start.unwrap_or(0),
            withdraw_valid: self.withdraw.is_some(),
            withdraw_slot: self.withdraw.unwrap_or(0),
            rt_active: self.rt.iter().any(Option::is_some),
            be_orphans: self
                .be
                .iter()
                .flatten()
                .any(|e| e.dead || e.st == EState::Skipped),
            error: self.error.is_some(),
            error_code: self.error.map_or(0, |e| e as u32),
            ..ExpOut::default()
        };
        if let Some((class, s)) = self.push_pick(room_rt, room_be) {
            let e = self
                .entry(class, s as u32)
                .expect("order queue names a used entry");
            o.push_valid = true;
            o.push_class = class;
            o.push_slot = s as u32;
            o.push_idx = e.pushed;
            o.push_shape = e.shape;
        }
        if let Some((class, s)) = self.finished_pick() {
            let e = self.entry(class, s as u32).unwrap();
            o.kdone_valid = true;
            o.kdone_kid = e.kid;
            o.kdone_class = class;
            if class == BE {
                o.done_valid = true;
                o.done_kid = e.kid;
            }
        }
        o
    }

    fn slot_mut(&mut self, class: u32, slot: u32) -> &mut Entry {
        let v = if class == RT {
            &mut self.rt
        } else {
            &mut self.be
        };
        v[slot as usize]
            .as_mut()
            .expect("legal event on a used entry")
    }

    fn check_invariants(&self) {
        for (class, v, order) in [
            (RT, &self.rt, &self.rt_order),
            (BE, &self.be, &self.be_order),
        ] {
            for (s, e) in v.iter().enumerate() {
                let Some(e) = e else { continue };
                debug_assert!(
                    e.st == EState::Loading || (e.pushed <= e.wgs && e.queued <= e.pushed),
                    "class {class} slot {s}: counters out of range {e:?}"
                );
                debug_assert!(
                    e.live <= self.cfg.live_max(),
                    "class {class} slot {s}: live above its bound"
                );
                debug_assert!(
                    class == BE || (e.st == EState::Go && !e.dead),
                    "RT entry not GO"
                );
            }
            for &s in order {
                let e = v[s].as_ref();
                debug_assert!(
                    e.is_some_and(|e| e.pushed < e.wgs && !e.dead && e.st != EState::Skipped),
                    "class {class}: order queue names slot {s} that cannot push"
                );
            }
            let mut o: Vec<usize> = order.iter().copied().collect();
            o.sort_unstable();
            o.dedup();
            debug_assert_eq!(o.len(), order.len(), "a slot twice in an order queue");
        }
        debug_assert!(
            self.rt_order.len() <= 1
                || self
                    .rt_order
                    .iter()
                    .skip(1)
                    .all(|&s| self.rt[s].is_some_and(|e| e.pushed == 0)),
            "an RT kernel behind the head has pushed WGs"
        );
    }
}

impl CycleModel for KernelExpander {
    type In = ExpIn;
    type Out = ExpOut;

    fn reset(&mut self) {
        let stats = std::mem::take(&mut self.stats);
        let store = std::mem::take(&mut self.store);
        *self = Self::new(self.cfg);
        self.stats = stats;
        self.store = store;
    }

    fn step(&mut self, i: &ExpIn) -> ExpOut {
        let out = self.outputs(i.room_rt, i.room_be);
        if i.reset {
            self.reset();
            return out;
        }
        let cfg = self.cfg;
        debug_assert!(
            [i.rt_kid, i.desc_kid, i.sub_kid, i.ack_kid]
                .iter()
                .all(|&k| k < 1 << cfg.id_bits),
            "kid wider than the port"
        );
        let st = &mut self.stats;
        st.rt_full += !out.rt_ready as u64;
        st.be_full += !out.sub_ready as u64;
        st.be_behind_rt +=
            (out.push_class == RT && out.push_valid && i.room_be && !self.be_order.is_empty())
                as u64;
        let s0 = (self.rt.clone(), self.be.clone());
        let done_pick = self.finished_pick();
        let at = |class: u32, slot: u32| -> Option<Entry> {
            let v = if class == RT { &s0.0 } else { &s0.1 };
            v.get(slot as usize).copied().flatten()
        };
        let mut errors: Vec<ExpError> = vec![];

        // 1. record
        let mut rec_last_be: Option<u32> = None;
        self.start = None;
        if i.rec_valid {
            match at(i.rec_class, i.rec_slot) {
                Some(e) if e.st != EState::Loading && e.queued > 0 && e.live < cfg.live_max() => {
                    let x = self.slot_mut(i.rec_class, i.rec_slot);
                    x.live += 1;
                    if i.rec_last {
                        x.queued -= 1;
                    }
                    if i.rec_class == BE && i.rec_last {
                        rec_last_be = Some(i.rec_slot);
                    }
                    if i.rec_class == BE && e.st == EState::Submitted && !e.dead {
                        x.st = EState::Await;
                        self.start = Some(e.kid);
                        self.stats.starts += 1;
                    }
                    self.stats.records += 1;
                    self.stats.split_records += !i.rec_last as u64;
                }
                _ => errors.push(ExpError::BadEvent),
            }
        }
        // 2. completion
        if i.cpl_valid {
            match at(i.cpl_class, i.cpl_slot) {
                Some(e) if e.st != EState::Loading && e.live > 0 => {
                    self.slot_mut(i.cpl_class, i.cpl_slot).live -= 1;
                    self.stats.completions += 1;
                }
                _ => errors.push(ExpError::BadEvent),
            }
        }
        // 3. withdraw report
        if i.wdr_valid {
            let also_last = (rec_last_be == Some(i.wdr_slot)) as u32;
            match at(BE, i.wdr_slot) {
                Some(e) if e.st == EState::Skipped && e.queued > also_last => {
                    self.slot_mut(BE, i.wdr_slot).queued -= 1;
                    self.stats.withdrawn += 1;
                }
                _ => errors.push(ExpError::BadEvent),
            }
        }
        // 5. push (before the answer: a push in the answer's cycle is made)
        if let Some((class, s)) = self.push_pick(i.room_rt, i.room_be) {
            let x = self.slot_mut(class, s as u32);
            x.pushed += 1;
            x.queued += 1;
            let last = x.pushed == x.wgs;
            if class == RT {
                self.stats.pushes_rt += 1;
                if last {
                    self.rt_order.pop_front();
                }
            } else {
                self.stats.pushes_be += 1;
                if last {
                    self.be_order.pop_front();
                }
            }
        }
        // 4. ack: the answer to a start
        self.withdraw = None;
        if i.ack_valid {
            let hit =
                s0.1.iter()
                    .position(|e| e.is_some_and(|e| e.st == EState::Await && e.kid == i.ack_kid));
            match hit {
                Some(s) => {
                    let x = self.be[s].as_mut().unwrap();
                    if i.ack_skip {
                        x.st = EState::Skipped;
                        self.withdraw = Some(s as u32);
                        if self.be_order.front() == Some(&s) {
                            self.be_order.pop_front();
                        }
                        self.stats.acks_skip += 1;
                    } else {
                        x.st = EState::Go;
                        self.stats.acks_go += 1;
                    }
                }
                None => errors.push(ExpError::BadAck),
            }
        }
        // 6. the previous submit's descriptor arrives
        if let Some((s, (wgs, shape))) = self.loading.take() {
            let x = self.be[s].as_mut().expect("a loading entry is used");
            if wgs == 0 {
                self.be[s] = None;
                errors.push(ExpError::ZeroWgs);
            } else {
                x.wgs = wgs;
                x.shape = shape;
                x.st = EState::Submitted;
                if !x.dead {
                    self.be_order.push_back(s);
                }
            }
        }
        // 10. the done report and the silent frees (from S)
        if let Some((class, s)) = done_pick {
            self.rr = s + if class == RT { 1 } else { 1 + cfg.rt_entries };
            if class == RT {
                self.rt[s] = None;
                self.stats.done_rt += 1;
            } else {
                self.be[s] = None;
                self.stats.done_be += 1;
            }
            let more =
                s0.0.iter()
                    .chain(&s0.1)
                    .flatten()
                    .filter(|e| e.finished())
                    .count();
            self.stats.done_waits += (more > 1) as u64;
        }
        for (s, e) in s0.1.iter().enumerate() {
            if e.is_some_and(|e| e.freeable_skip()) {
                self.be[s] = None;
                self.stats.skip_freed += 1;
            }
        }
        // 11. flush: every BE entry of S is dead, nothing of them is pushed again
        if i.flush_be {
            for (s, e) in s0.1.iter().enumerate() {
                if e.is_some() {
                    if let Some(x) = self.be[s].as_mut() {
                        x.dead = true;
                    }
                }
            }
            self.be_order.clear();
            self.stats.flushes += 1;
        }
        // 12. killed: every BE entry of S is freed
        if i.be_killed {
            for (s, e) in s0.1.iter().enumerate() {
                if e.is_some() {
                    self.be[s] = None;
                }
            }
            self.be_order.clear();
            self.stats.kills += 1;
        }
        // 7. submit (after the frees of S: the entry was free in S)
        if i.sub_valid && out.sub_ready {
            let s =
                s0.1.iter()
                    .position(Option::is_none)
                    .expect("sub_ready with no free entry");
            self.be[s] = Some(Entry {
                kid: i.sub_kid,
                wgs: 0,
                shape: 0,
                pushed: 0,
                queued: 0,
                live: 0,
                st: EState::Loading,
                dead: false,
            });
            // read before write: this cycle's descriptor write is not seen
            self.loading = Some((s, self.descriptor(i.sub_kid)));
            self.stats.be_submits += 1;
        }
        // 8. RT kernel
        if i.rt_valid && out.rt_ready {
            if s0.0.iter().flatten().any(|e| e.kid == i.rt_kid) {
                errors.push(ExpError::DupId);
            } else if i.rt_wgs == 0 {
                errors.push(ExpError::ZeroWgs);
            } else {
                let s = s0.0.iter().position(Option::is_none).unwrap();
                self.rt[s] = Some(Entry {
                    kid: i.rt_kid,
                    wgs: i.rt_wgs,
                    shape: i.rt_shape,
                    pushed: 0,
                    queued: 0,
                    live: 0,
                    st: EState::Go,
                    dead: false,
                });
                self.rt_order.push_back(s);
                self.stats.rt_kernels += 1;
            }
        }
        // 9. descriptor write
        if i.desc_we {
            if i.desc_wgs == 0 {
                errors.push(ExpError::ZeroWgs);
            } else {
                self.store.insert(i.desc_kid, (i.desc_wgs, i.desc_shape));
            }
        }
        self.error = errors.iter().min().copied();
        if let Some(e) = self.error {
            self.stats.errors[e as usize] += 1;
        }
        self.check_invariants();
        out
    }
}
