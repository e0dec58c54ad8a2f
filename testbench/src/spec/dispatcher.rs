//! Spec checker of the workgroup dispatcher (SPEC Unit 3): a transaction-level scoreboard written
//! from SPEC and the dispatcher's port contract (module docs of `hdl::dispatcher` and
//! `golden_model::dispatcher`), for any [`DispatcherConfig`].
//!
//! ## What it keeps (its own state, built from the ports only)
//! - per channel, a queue of the WGs the push handshake accepted (a head in split mode counts
//!   its sub-WGs left), and per channel × priority the a42 tie marks;
//! - per module and unit, free maps of VGPR / SGPR blocks and free wave slots, per module a free
//!   LDS map and the split-table pointer, updated from the dispatch records it judged and from
//!   the completions; the in-flight slots with what each holds;
//! - the run-time registers (from the config writes it saw), the time window and the LFSR
//!   (free-running from reset), the power history (tumbling windows of the retire strobes) and,
//!   for `max_weighted_free`, the weighted free counts of the last 4P + 3 cycles.
//!
//! It holds no pipeline register of any implementation. It uses three timing facts of the
//! contract, as decision points: a record visible in cycle r was *decided* in cycle r − 2 from
//! the heads and resources as they stood at the start of cycle r − 3 (head → record 3 cycles);
//! a module takes at most one decision per 3 cycles and a channel's new head (pop, or entry into
//! split mode) is first decided a cycle after it appears; a completion in cycle t frees its slot
//! at the edge after t and its blocks one edge later.
//!
//! ## What it judges (rule names in [`Violation::rule`])
//! - `push-ready`: `push_ready` = the channel's queue holds fewer than `fifo_depth` WGs (a
//!   channel out of range: ready).
//! - `error-code`: every request's error (the cycle after it): a push with a channel or
//!   priority out of range `BAD_ID`, zero waves `ZERO_WAVES`, a WG that cannot fit an empty
//!   module `NEVER_FITS` (SPEC step 9); a completion out of range `BAD_ID`, of a slot not in flight
//!   `IDLE_SLOT`; a config write to an unmapped address or a bad policy `BAD_CFG`; several: push
//!   beats completion beats config; no error otherwise. A refused request changes nothing in the
//!   checker's state, so any change an implementation makes shows in its later records.
//! - `idle-outputs`: without `disp_valid` every record field is 0, without `error` the code is 0.
//! - Each record, against the situation at its decision point: `record-head` (its WG is the head
//!   of a channel, as presented: a split head is a one-wave sub-WG at the lowest priority),
//!   `record-unfit` (that head fits the module named, not excluded by a decision of the two
//!   cycles before), `slot` (the lowest slot neither in flight nor reserved by the previous
//!   decision), `pick-priority` (no other fitting head has a smaller *effective* rank in the
//!   current time window), `tie-mark` (among heads of the same rank the a42 mark rule),
//!   `tie-lfsr` (the remaining choice is the documented LFSR scan; see below), `module-policy`
//!   (among the fitting modules, `first`: the lowest index; `max_weighted_free` /
//!   `min_power_history`: the best score, see below), `wave-split` (emb. 8's split table rotated by the module's
//!   pointer), `region-free` (every region and wave slot free in the checker's maps: no block
//!   allocated twice), `first-fit` (each region the lowest free start, a43).
//! - `work-conserving`: a cycle whose decision point had a fitting head, a module not excluded
//!   and a free slot produces a record (a head that fits nowhere blocks nobody; nothing accepted
//!   waits while it fits); `record-without-fit`: no record without one.
//! - Emb. 3: the checker counts failed cycles itself (some head, a free slot, no decision, every
//!   head freshly judged and fitting no module) and at the threshold expects every independent
//!   head of ≥ 2 waves to continue as one-wave sub-WGs (checked by `record-head`).
//! - Nothing lost: every accepted WG stays in the checker's queue until its (last) record;
//!   [`DispatcherChecker::queued_wgs`] lets a drain test ask that all left.
//!
//! ## Policies, ties and resets
//! - The module policies are judged by their documented approximations, computed from the
//!   checker's own maps and inputs: `max_weighted_free` by the serial scorer's snapshot (item j
//!   of each period of 4P cycles from reset is a_h·free_h of module j div 4, resource j mod 4,
//!   from the state and weights of its cycle; a period counts from 3 cycles after its last item,
//!   0 before the first), `min_power_history` by the tumbling-window history of the state 4
//!   cycles before the decision. Equal scores: the lowest index.
//! - Ties: with `exact_lfsr` (the default: the port contract fixes the LFSR bit for bit) the
//!   winner must be the documented scan from `lfsr mod R`; without it any channel the mark rule
//!   allows is accepted (for an implementation with another random source).
//! - A reset cancels the decisions of the last cycle before it; `push_ready` in a reset cycle is
//!   not judged.

use crate::spec::{SpecChecker, Violation};
use golden_model::dispatcher::{DispIn, DispOut, DispatcherConfig};
use std::collections::{BTreeMap, VecDeque};

const NEVER_FITS: u8 = 1;
const ZERO_WAVES: u8 = 2;
const BAD_ID: u8 = 3;
const IDLE_SLOT: u8 = 4;
const BAD_CFG: u8 = 5;

/// A WG as the checker queued it from a push.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Wg {
    id: u32,
    prio: usize,
    waves: usize,
    vgpr: usize,
    sgpr: usize,
    lds: usize,
    indep: bool,
}

/// One placement: what a record names and the blocks it holds.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Place {
    module: usize,
    waves: Vec<usize>,
    vgpr_base: Vec<usize>,
    sgpr_base: Vec<usize>,
    lds_base: usize,
    vgpr_need: Vec<usize>,
    sgpr_need: Vec<usize>,
    lds_need: usize,
}

/// A decision: which channel's head went where.
#[derive(Clone, Debug)]
struct Decision {
    channel: usize,
    /// The a42 mark update: (priority, tied channels, whether one of them was unmarked).
    tie: Option<(usize, Vec<usize>, bool)>,
    sub: bool,
    slot: usize,
    place: Place,
}

/// A channel's head as it presented itself at a decision point, and where it fitted.
#[derive(Clone, Debug)]
struct HeadView {
    wg: Wg,
    sub: bool,
    /// Per module: the first-fit placement, if it fits.
    fits: Vec<Option<Place>>,
}

/// The registers of the map (cfg_addr 0..=8).
#[derive(Clone, Debug)]
struct Regs {
    policy: u32,
    threshold: u32,
    win_len: [u32; 4],
    free_w: [u32; 4],
    power_w: [u32; 4],
    power_window: u32,
}

impl Default for Regs {
    fn default() -> Self {
        Self {
            policy: 0,
            threshold: 256,
            win_len: [512, 256, 128, 128],
            free_w: [1; 4],
            power_w: [1; 4],
            power_window: 1024,
        }
    }
}

fn nibbles(x: u32) -> [u32; 4] {
    [x & 15, (x >> 4) & 15, (x >> 8) & 15, (x >> 12) & 15]
}

/// `n` ones from bit `base` up.
fn ones(base: usize, n: usize) -> u128 {
    if n == 0 {
        0
    } else if n >= 128 {
        u128::MAX << base
    } else {
        ((1u128 << n) - 1) << base
    }
}

/// Lowest start of `need` free blocks (1 = free) in a map of `len` blocks: a scan that counts the
/// current free run. Need 0 → start 0.
fn lowest_free_run(map: u128, len: usize, need: usize) -> Option<usize> {
    if need == 0 {
        return Some(0);
    }
    let mut run = 0;
    for b in 0..len {
        if map >> b & 1 == 1 {
            run += 1;
            if run == need {
                return Some(b + 1 - need);
            }
        } else {
            run = 0;
        }
    }
    None
}

/// Rank of priority `p` in time window `y` (emb. 2): `y` first, the others in their order.
fn rank(p: usize, y: usize) -> usize {
    if p == y {
        0
    } else if p < y {
        p + 1
    } else {
        p
    }
}

/// The documented LFSR: 16-bit Galois, right shift, x^16+x^14+x^13+x^11+1, seed 0xACE1.
fn lfsr_step(s: u16) -> u16 {
    if s & 1 == 1 {
        (s >> 1) ^ 0xB400
    } else {
        s >> 1
    }
}

/// Everything the checker believes at the start of one cycle.
#[derive(Clone, Debug)]
struct State {
    regs: Regs,
    queue: Vec<VecDeque<Wg>>,
    /// Per channel: sub-WGs left of a head in split mode (0 = not split).
    split_left: Vec<usize>,
    vgpr: Vec<Vec<u128>>,
    sgpr: Vec<Vec<u128>>,
    waves_free: Vec<Vec<usize>>,
    lds: Vec<u128>,
    ptr: Vec<usize>,
    inflight: Vec<Option<Place>>,
    /// Completed in the previous cycle: blocks free at this cycle's edge.
    releasing: Vec<Place>,
    marks: Vec<Vec<bool>>,
    lfsr: u16,
    win: usize,
    win_cnt: u32,
    fails: u32,
    pw_cnt: u32,
    pw_cur: Vec<u32>,
    pw_prev: Vec<u32>,
    /// The heads and their fits at the start of the previous cycle (the decision point of this
    /// cycle's decision); `None` for a channel that was empty.
    seen_heads: Vec<Option<HeadView>>,
    /// Per channel: its head changed (pop or split entry) at the last edge.
    head_new: Vec<bool>,
    /// The decisions of the previous cycle and the one before (the first is committed at this
    /// cycle's edge; their modules are excluded from this cycle's decision).
    recent: [Option<Decision>; 2],
    /// Per past cycle (newest last): per module and resource a_h·free_h; per module the power
    /// score prev + cur.
    wf_hist: VecDeque<Vec<[i64; 4]>>,
    pw_hist: VecDeque<Vec<i64>>,
    /// Cycles since reset.
    cycle: usize,
}

/// The dispatcher's spec checker (see the module doc).
pub struct DispatcherChecker {
    cfg: DispatcherConfig,
    exact_lfsr: bool,
    st: State,
    /// Rows not yet fully judged: (cycle, inputs, outputs), oldest first; the front is the cycle
    /// `st` describes the start of.
    rows: VecDeque<(usize, DispIn, DispOut)>,
    /// The next row's registered outputs must be idle (after a reset, and at power-up).
    idle_next: bool,
    /// Rows seen since the last reset (or power-up).
    since_reset: usize,
    records: u64,
    /// How often each judged mechanism occurred (see [`DispatcherChecker::coverage`]).
    seen: BTreeMap<&'static str, u64>,
}

impl State {
    fn new(c: &DispatcherConfig) -> Self {
        let (p, q) = (c.modules, c.units);
        Self {
            regs: Regs::default(),
            queue: vec![VecDeque::new(); c.channels],
            split_left: vec![0; c.channels],
            vgpr: vec![vec![ones(0, c.vgpr_blocks); q]; p],
            sgpr: vec![vec![ones(0, c.sgpr_blocks); q]; p],
            waves_free: vec![vec![c.wave_slots; q]; p],
            lds: vec![ones(0, c.lds_blocks); p],
            ptr: vec![0; p],
            inflight: vec![None; c.slots],
            releasing: vec![],
            marks: vec![vec![false; c.prios]; c.channels],
            lfsr: 0xACE1,
            win: 0,
            win_cnt: 0,
            fails: 0,
            pw_cnt: 0,
            pw_cur: vec![0; p],
            pw_prev: vec![0; p],
            seen_heads: vec![None; c.channels],
            head_new: vec![false; c.channels],
            recent: [None, None],
            wf_hist: VecDeque::new(),
            pw_hist: VecDeque::new(),
            cycle: 0,
        }
    }

    /// Channel `c`'s head as presented (a split head: one wave at the lowest priority).
    fn head(&self, c: usize, prios: usize) -> Option<(Wg, bool)> {
        let wg = *self.queue[c].front()?;
        Some(if self.split_left[c] > 0 {
            (
                Wg {
                    prio: prios - 1,
                    waves: 1,
                    ..wg
                },
                true,
            )
        } else {
            (wg, false)
        })
    }

    /// Where `wg` goes on module `m` if it fits there: waves by the rotated split table, the
    /// lowest free start of every region.
    fn place(&self, cfg: &DispatcherConfig, m: usize, wg: &Wg) -> Option<Place> {
        let q = cfg.units;
        let mut pl = Place {
            module: m,
            waves: vec![],
            vgpr_base: vec![],
            sgpr_base: vec![],
            lds_base: lowest_free_run(self.lds[m], cfg.lds_blocks, wg.lds)?,
            vgpr_need: vec![],
            sgpr_need: vec![],
            lds_need: wg.lds,
        };
        for u in 0..q {
            // unit u is entry (u - ptr) mod Q of the split table
            let t = (u + q - self.ptr[m]) % q;
            let n = wg.waves / q + usize::from(t < wg.waves % q);
            if self.waves_free[m][u] < n {
                return None;
            }
            let (nv, ns) = (n * wg.vgpr, n * wg.sgpr);
            pl.vgpr_base
                .push(lowest_free_run(self.vgpr[m][u], cfg.vgpr_blocks, nv)?);
            pl.sgpr_base
                .push(lowest_free_run(self.sgpr[m][u], cfg.sgpr_blocks, ns)?);
            pl.waves.push(n);
            pl.vgpr_need.push(nv);
            pl.sgpr_need.push(ns);
        }
        Some(pl)
    }

    /// Free counts of module `m`: VGPR, SGPR, wave slots, LDS.
    fn free_counts(&self, m: usize) -> [usize; 4] {
        let pc = |x: &u128| x.count_ones() as usize;
        [
            self.vgpr[m].iter().map(pc).sum(),
            self.sgpr[m].iter().map(pc).sum(),
            self.waves_free[m].iter().sum(),
            pc(&self.lds[m]),
        ]
    }

    fn take(&mut self, pl: &Place) {
        let m = pl.module;
        for u in 0..pl.waves.len() {
            self.vgpr[m][u] &= !ones(pl.vgpr_base[u], pl.vgpr_need[u]);
            self.sgpr[m][u] &= !ones(pl.sgpr_base[u], pl.sgpr_need[u]);
            self.waves_free[m][u] -= pl.waves[u];
        }
        self.lds[m] &= !ones(pl.lds_base, pl.lds_need);
    }

    fn give_back(&mut self, pl: &Place) {
        let m = pl.module;
        for u in 0..pl.waves.len() {
            self.vgpr[m][u] |= ones(pl.vgpr_base[u], pl.vgpr_need[u]);
            self.sgpr[m][u] |= ones(pl.sgpr_base[u], pl.sgpr_need[u]);
            self.waves_free[m][u] += pl.waves[u];
        }
        self.lds[m] |= ones(pl.lds_base, pl.lds_need);
    }
}

impl DispatcherChecker {
    /// A checker for `cfg`, idle as after reset, with the documented LFSR tie-break.
    pub fn new(cfg: DispatcherConfig) -> Self {
        cfg.validate();
        Self {
            cfg,
            exact_lfsr: true,
            st: State::new(&cfg),
            rows: VecDeque::new(),
            idle_next: true,
            since_reset: 0,
            records: 0,
            seen: BTreeMap::new(),
        }
    }

    /// Accept any tie winner the mark rule allows (not only the documented LFSR's).
    pub fn any_tie_winner(mut self) -> Self {
        self.exact_lfsr = false;
        self
    }

    /// Accepted WGs (a split WG once) not yet fully dispatched, as judged so far.
    pub fn queued_wgs(&self) -> usize {
        self.st.queue.iter().map(|q| q.len()).sum()
    }

    /// Records judged so far.
    pub fn records(&self) -> u64 {
        self.records
    }

    /// How often each mechanism the checker judged occurred in the traces so far: `record`,
    /// `sub-WG record`, `split` (a head entering split mode), `tie, unmarked` / `tie, all
    /// marked` (a42 choices among ≥ 2 channels), `window promotion` (the winner's priority
    /// number is larger than another fitting head's), `policy first|max_weighted_free|
    /// min_power_history` (a module choice among ≥ 2 fitting modules under that policy),
    /// `policy overrides first` (such a choice that was not the lowest index), `region at the
    /// map end` (a record whose region starts above block 0 and ends at the map's last block),
    /// `backpressure`
    /// (a push refused by `push_ready`), `every slot busy` (a fitting head waited for a slot), and
    /// one entry per error code (`NEVER_FITS`, `ZERO_WAVES`, `BAD_ID`, `IDLE_SLOT`, `BAD_CFG`).
    pub fn coverage(&self) -> &BTreeMap<&'static str, u64> {
        &self.seen
    }

    fn hit(&mut self, what: &'static str) {
        *self.seen.entry(what).or_default() += 1;
    }

    /// Whether a pushed descriptor is refused, and with which code (SPEC step 9).
    fn push_error(&self, i: &DispIn) -> Option<u8> {
        let c = &self.cfg;
        let waves = i.push_waves as usize;
        let per_unit = waves.div_ceil(c.units);
        if i.push_channel as usize >= c.channels || i.push_prio as usize >= c.prios {
            Some(BAD_ID)
        } else if waves == 0 {
            Some(ZERO_WAVES)
        } else if per_unit > c.wave_slots
            || per_unit * i.push_vgpr as usize > c.vgpr_blocks
            || per_unit * i.push_sgpr as usize > c.sgpr_blocks
            || i.push_lds as usize > c.lds_blocks
        {
            Some(NEVER_FITS)
        } else {
            None
        }
    }

    /// The error code the requests of one cycle must produce, judged at the start of that cycle.
    fn expected_error(&self, i: &DispIn) -> u8 {
        let c = &self.cfg;
        let st = &self.st;
        let ch = i.push_channel as usize;
        let accepted = i.push_valid && (ch >= c.channels || st.queue[ch].len() < c.fifo_depth);
        let push = if accepted { self.push_error(i) } else { None };
        let done = if !i.done_valid {
            None
        } else if i.done_slot as usize >= c.slots {
            Some(BAD_ID)
        } else if st.inflight[i.done_slot as usize].is_none() {
            Some(IDLE_SLOT)
        } else {
            None
        };
        let cfg = if !i.cfg_we {
            None
        } else if i.cfg_addr > 8 || (i.cfg_addr == 0 && i.cfg_data & 0xFFFF > 2) {
            Some(BAD_CFG)
        } else {
            None
        };
        push.or(done).or(cfg).unwrap_or(0)
    }

    fn unpack(&self, word: u64, width: usize) -> Vec<usize> {
        (0..self.cfg.units)
            .map(|t| ((word >> (width * t)) & ((1u64 << width) - 1)) as usize)
            .collect()
    }

    /// The placement a record names (needs taken from the WG it names).
    fn record_place(&self, o: &DispOut, wg: &Wg) -> Place {
        let c = &self.cfg;
        let waves = self.unpack(o.disp_waves, c.unit_waves_bits());
        Place {
            module: o.disp_module as usize,
            vgpr_base: self.unpack(o.disp_vgpr_base, c.vgpr_base_bits()),
            sgpr_base: self.unpack(o.disp_sgpr_base, c.sgpr_base_bits()),
            lds_base: o.disp_lds_base as usize,
            vgpr_need: waves.iter().map(|n| n * wg.vgpr).collect(),
            sgpr_need: waves.iter().map(|n| n * wg.sgpr).collect(),
            lds_need: wg.lds,
            waves,
        }
    }

    /// The policy's verdict on module `m` among the fitting modules `fits`.
    fn policy_allows(&self, m: usize, fits: &[usize]) -> Result<(), String> {
        let st = &self.st;
        // (lower, upper) bound of module x's score over the views the contract allows;
        // smaller is better
        let range = |x: usize| -> (i64, i64) {
            let views: Vec<i64> = match st.regs.policy {
                1 => {
                    // the documented serial scorer: item j of each period of 4P cycles (counted
                    // from reset) is a_h·free_h of module j div 4, resource j mod 4, from the
                    // state of its cycle; a period is published 3 cycles after its last item
                    // (0 before the first)
                    let p4 = 4 * self.cfg.modules;
                    let k = st.cycle;
                    let n = st.wf_hist.len();
                    if k < p4 + 2 {
                        vec![0]
                    } else {
                        // the last item of the newest published period
                        let last = (k - 3) - ((k - 3 + 1) % p4);
                        let first = last + 1 - p4;
                        let sum: i64 = (0..4)
                            .map(|h| st.wf_hist[n - (k - (first + 4 * x + h))][x][h])
                            .sum();
                        // the larger the free sum the better
                        vec![-sum]
                    }
                }
                2 => {
                    // the power history of the state 4 cycles before (0 before reset)
                    let n = st.pw_hist.len();
                    vec![if n >= 4 { st.pw_hist[n - 4][x] } else { 0 }]
                }
                _ => vec![0],
            };
            (*views.iter().min().unwrap(), *views.iter().max().unwrap())
        };
        let (lo_m, _) = range(m);
        for &x in fits.iter().filter(|&&x| x != m) {
            let (_, hi_x) = range(x);
            // x surely better: smaller in every view, or never larger and of lower index
            let beats = hi_x < lo_m || (x < m && hi_x <= lo_m);
            if beats {
                return Err(format!(
                    "policy {} picks module {m} (score {:?}) over module {x} (score {:?})",
                    st.regs.policy,
                    range(m),
                    range(x)
                ));
            }
        }
        Ok(())
    }

    /// The decision of the front cycle `k`, judged against the record of cycle k + 2
    /// (`rec`, its cycle `rc`). Returns the decision (the record's).
    fn judge_decision(
        &self,
        rc: usize,
        rec: &DispOut,
        hits: &mut Vec<&'static str>,
    ) -> Result<Option<Decision>, Violation> {
        let cfg = self.cfg;
        let st = &self.st;
        let v = |rule, d: String| Violation::new(rc, rule, d);
        // the lowest slot neither in flight nor reserved by the previous decision
        let reserved = st.recent[0].as_ref().map(|d| d.slot);
        let slot = (0..cfg.slots).find(|&s| st.inflight[s].is_none() && Some(s) != reserved);
        let busy: Vec<usize> = st.recent.iter().flatten().map(|d| d.place.module).collect();
        // candidates: fresh heads that fit a module not decided in the two cycles before
        let mut cands: Vec<(usize, &HeadView, Vec<usize>)> = vec![];
        for c in 0..cfg.channels {
            if st.head_new[c] {
                continue;
            }
            if let Some(h) = &st.seen_heads[c] {
                let ms: Vec<usize> = (0..cfg.modules)
                    .filter(|m| h.fits[*m].is_some() && !busy.contains(m))
                    .collect();
                if !ms.is_empty() {
                    cands.push((c, h, ms));
                }
            }
        }
        if slot.is_none() && !cands.is_empty() {
            hits.push("every slot busy");
        }
        if slot.is_none() || cands.is_empty() {
            if rec.disp_valid {
                let why = if slot.is_none() {
                    "every slot in flight or reserved".to_string()
                } else {
                    format!(
                        "no head fitted a free module at the decision point (modules {busy:?} busy)"
                    )
                };
                return Err(v(
                    "record-without-fit",
                    format!("record of WG {} although {why}", rec.disp_id),
                ));
            }
            return Ok(None);
        }
        let slot = slot.unwrap();
        let best = cands
            .iter()
            .map(|(_, h, _)| rank(h.wg.prio, st.win))
            .min()
            .unwrap();
        let tied: Vec<usize> = cands
            .iter()
            .filter(|(_, h, _)| rank(h.wg.prio, st.win) == best)
            .map(|(c, ..)| *c)
            .collect();
        let p = cands
            .iter()
            .find(|(c, ..)| *c == tied[0])
            .unwrap()
            .1
            .wg
            .prio;
        let unmarked: Vec<usize> = tied.iter().copied().filter(|&c| !st.marks[c][p]).collect();
        let legal: Vec<usize> = if tied.len() == 1 {
            tied.clone()
        } else if !unmarked.is_empty() {
            unmarked.clone()
        } else {
            tied.clone()
        };
        let scan = |set: &[usize]| {
            let r = cfg.channels;
            let start = st.lfsr as usize % r;
            (0..r)
                .map(|k| (start + k) % r)
                .find(|c| set.contains(c))
                .unwrap()
        };
        let lfsr_winner = scan(&legal);
        if !rec.disp_valid {
            let (c, h, ms) = cands.iter().find(|(c, ..)| *c == lfsr_winner).unwrap();
            return Err(v(
                "work-conserving",
                format!(
                    "no record, but channel {c}'s head WG {} fitted module(s) {ms:?} and slot \
                     {slot} was free at the decision point",
                    h.wg.id
                ),
            ));
        }
        // which channel's head the record names
        let named: Vec<usize> = (0..cfg.channels)
            .filter(|&c| {
                st.seen_heads[c]
                    .as_ref()
                    .is_some_and(|h| h.wg.id == rec.disp_id && h.sub == rec.disp_sub)
            })
            .collect();
        let ch = if named.contains(&lfsr_winner) {
            lfsr_winner
        } else if let Some(&c) = named.iter().find(|c| legal.contains(c)) {
            c
        } else if let Some(&c) = named.iter().find(|c| cands.iter().any(|x| x.0 == **c)) {
            c
        } else if let Some(&c) = named.first() {
            return Err(v(
                "record-unfit",
                format!(
                    "record of WG {} (channel {c}) which fitted no free module at the decision \
                     point (or had just become head)",
                    rec.disp_id
                ),
            ));
        } else {
            return Err(v(
                "record-head",
                format!(
                    "record of WG {} (sub {}) which is no channel head as presented; heads {:?}",
                    rec.disp_id,
                    rec.disp_sub,
                    st.seen_heads
                        .iter()
                        .map(|h| h.as_ref().map(|h| (h.wg.id, h.sub)))
                        .collect::<Vec<_>>()
                ),
            ));
        };
        let (_, head, ms) = cands.iter().find(|(c, ..)| *c == ch).unwrap();
        let wg = head.wg;
        if rank(wg.prio, st.win) != best {
            return Err(v(
                "pick-priority",
                format!(
                    "picked channel {ch} (prio {}, rank {} in window {}); channels {tied:?} had \
                     rank {best}",
                    wg.prio,
                    rank(wg.prio, st.win),
                    st.win
                ),
            ));
        }
        if !legal.contains(&ch) {
            return Err(v(
                "tie-mark",
                format!(
                    "picked channel {ch} among tied {tied:?} at prio {p}; the marks allow {legal:?}"
                ),
            ));
        }
        if self.exact_lfsr && ch != lfsr_winner {
            return Err(v(
                "tie-lfsr",
                format!(
                    "picked channel {ch} among {legal:?}; the LFSR ({:#06x}) scan gives {lfsr_winner}",
                    st.lfsr
                ),
            ));
        }
        let m = rec.disp_module as usize;
        if m >= cfg.modules || !ms.contains(&m) {
            return Err(v(
                "record-unfit",
                format!(
                    "WG {} dispatched to module {m}; it fitted free module(s) {ms:?} (busy {busy:?})",
                    wg.id
                ),
            ));
        }
        let got = self.record_place(rec, &wg);
        // legality against the checker's maps (the blocks in flight now)
        for u in 0..cfg.units {
            let n = got.waves[u];
            if st.waves_free[m][u] < n {
                return Err(v(
                    "region-free",
                    format!(
                        "module {m} unit {u}: {n} waves, {} slots free",
                        st.waves_free[m][u]
                    ),
                ));
            }
            let rv = ones(got.vgpr_base[u], got.vgpr_need[u]);
            let rs = ones(got.sgpr_base[u], got.sgpr_need[u]);
            if got.vgpr_base[u] + got.vgpr_need[u] > cfg.vgpr_blocks
                || rv & !st.vgpr[m][u] != 0
                || got.sgpr_base[u] + got.sgpr_need[u] > cfg.sgpr_blocks
                || rs & !st.sgpr[m][u] != 0
            {
                return Err(v(
                    "region-free",
                    format!(
                        "module {m} unit {u}: VGPR {}+{} / SGPR {}+{} not free (block allocated twice)",
                        got.vgpr_base[u], got.vgpr_need[u], got.sgpr_base[u], got.sgpr_need[u]
                    ),
                ));
            }
        }
        if got.lds_base + got.lds_need > cfg.lds_blocks
            || ones(got.lds_base, got.lds_need) & !st.lds[m] != 0
        {
            return Err(v(
                "region-free",
                format!(
                    "module {m}: LDS {}+{} not free (block allocated twice)",
                    got.lds_base, got.lds_need
                ),
            ));
        }
        if rec.disp_slot as usize != slot {
            return Err(v(
                "slot",
                format!(
                    "slot {} (lowest free: {slot}; in flight {:?}, reserved {reserved:?})",
                    rec.disp_slot,
                    (0..cfg.slots)
                        .filter(|&s| st.inflight[s].is_some())
                        .collect::<Vec<_>>()
                ),
            ));
        }
        self.policy_allows(m, ms)
            .map_err(|e| v("module-policy", e))?;
        let want = head.fits[m].clone().unwrap();
        if got.waves != want.waves {
            return Err(v(
                "wave-split",
                format!(
                    "{} waves on module {m} (pointer {}) split {:?}, the rotated table gives {:?}",
                    wg.waves, st.ptr[m], got.waves, want.waves
                ),
            ));
        }
        let zero_empty = |b: &[usize], n: &[usize]| -> Vec<usize> {
            b.iter()
                .zip(n)
                .map(|(&b, &n)| if n == 0 { 0 } else { b })
                .collect()
        };
        let want_v = zero_empty(&want.vgpr_base, &want.vgpr_need);
        let want_s = zero_empty(&want.sgpr_base, &want.sgpr_need);
        let want_l = if want.lds_need == 0 { 0 } else { want.lds_base };
        if got.vgpr_base != want_v || got.sgpr_base != want_s || got.lds_base != want_l {
            return Err(v(
                "first-fit",
                format!(
                    "bases VGPR {:?} SGPR {:?} LDS {}; lowest free starts {want_v:?} {want_s:?} \
                     {want_l}",
                    got.vgpr_base, got.sgpr_base, got.lds_base
                ),
            ));
        }
        hits.push("record");
        // a region placed above block 0 that ends at the last block of its map (the match's
        // end-of-map test decided it)
        let at_end = |b: &[usize], n: &[usize], len: usize| {
            b.iter()
                .zip(n)
                .any(|(&b, &n)| n > 0 && b > 0 && b + n == len)
        };
        if at_end(&want.vgpr_base, &want.vgpr_need, cfg.vgpr_blocks)
            || at_end(&want.sgpr_base, &want.sgpr_need, cfg.sgpr_blocks)
            || at_end(&[want.lds_base], &[want.lds_need], cfg.lds_blocks)
        {
            hits.push("region at the map end");
        }
        if head.sub {
            hits.push("sub-WG record");
        }
        if tied.len() > 1 {
            hits.push(if unmarked.is_empty() {
                "tie, all marked"
            } else {
                "tie, unmarked"
            });
        }
        if cands.iter().any(|(_, h, _)| h.wg.prio < wg.prio) {
            hits.push("window promotion");
        }
        if ms.len() > 1 {
            hits.push(match st.regs.policy {
                0 => "policy first",
                1 => "policy max_weighted_free",
                _ => "policy min_power_history",
            });
            if m != ms[0] {
                hits.push("policy overrides first");
            }
        }
        Ok(Some(Decision {
            channel: ch,
            tie: (tied.len() > 1).then(|| (p, tied.clone(), !unmarked.is_empty())),
            sub: head.sub,
            slot,
            place: want,
        }))
    }

    /// Judge the front row `k` completely (needs rows k + 1 and k + 2) and move the state to the
    /// start of cycle k + 1.
    fn advance(&mut self) -> Result<(), Violation> {
        let (k, i, o) = self.rows[0].clone();
        let (k1, _, o1) = self.rows[1].clone();
        let (k2, _, o2) = self.rows[2].clone();
        self.judge_ready(k, &i, &o)?;
        self.judge_error(k1, &i, &o1)?;
        judge_idle(k2, &o2)?;
        let mut hits = vec![];
        let d = self.judge_decision(k2, &o2, &mut hits)?;
        if d.is_some() {
            self.records += 1;
        }
        if i.push_valid && !o.push_ready {
            hits.push("backpressure");
        }
        const CODES: [&str; 6] = [
            "",
            "NEVER_FITS",
            "ZERO_WAVES",
            "BAD_ID",
            "IDLE_SLOT",
            "BAD_CFG",
        ];
        if o1.error {
            hits.push(CODES[o1.error_code as usize]);
        }
        for h in hits {
            self.hit(h);
        }
        self.edge(&i, d);
        self.rows.pop_front();
        Ok(())
    }

    fn judge_ready(&self, k: usize, i: &DispIn, o: &DispOut) -> Result<(), Violation> {
        let c = &self.cfg;
        let ch = i.push_channel as usize;
        let want = ch >= c.channels || self.st.queue[ch].len() < c.fifo_depth;
        if o.push_ready != want {
            return Err(Violation::new(
                k,
                "push-ready",
                format!(
                    "push_ready {} for channel {ch}, which holds {} of {} WGs",
                    o.push_ready,
                    self.st.queue.get(ch).map_or(0, |q| q.len()),
                    c.fifo_depth
                ),
            ));
        }
        Ok(())
    }

    fn judge_error(&self, k1: usize, i: &DispIn, o1: &DispOut) -> Result<(), Violation> {
        let want = self.expected_error(i);
        if o1.error != (want != 0) || o1.error_code != want {
            return Err(Violation::new(
                k1,
                "error-code",
                format!(
                    "error {} code {} for the requests of the cycle before (push {} done {} cfg \
                     {}), expected code {want}",
                    o1.error, o1.error_code, i.push_valid, i.done_valid, i.cfg_we
                ),
            ));
        }
        Ok(())
    }

    /// The rising edge at the end of the front cycle, with its decision `d`.
    fn edge(&mut self, i: &DispIn, d: Option<Decision>) {
        let cfg = self.cfg;
        let prios = cfg.prios;
        let start_len: Vec<usize> = self.st.queue.iter().map(|q| q.len()).collect();
        let push_ok = self.push_error(i).is_none();
        // the split test of this cycle reads the state at its start
        let any_head = self.st.queue.iter().any(|q| !q.is_empty());
        let reserved = self.st.recent[0].as_ref().map(|d| d.slot);
        let slot_free =
            (0..cfg.slots).any(|s| self.st.inflight[s].is_none() && Some(s) != reserved);
        let all_failed = (0..cfg.channels).all(|c| {
            self.st.queue[c].is_empty()
                || (!self.st.head_new[c]
                    && self.st.seen_heads[c]
                        .as_ref()
                        .is_some_and(|h| h.fits.iter().all(|f| f.is_none())))
        });
        let failed = d.is_none() && any_head && slot_free && all_failed;
        // this cycle's heads and fits: the next cycle's decision point
        let seen: Vec<Option<HeadView>> = (0..cfg.channels)
            .map(|c| {
                self.st.head(c, prios).map(|(wg, sub)| HeadView {
                    wg,
                    sub,
                    fits: (0..cfg.modules)
                        .map(|m| self.st.place(&cfg, m, &wg))
                        .collect(),
                })
            })
            .collect();
        // policy histories (the state at the start of this cycle)
        let wf: Vec<[i64; 4]> = (0..cfg.modules)
            .map(|m| {
                let f = self.st.free_counts(m);
                std::array::from_fn(|h| self.st.regs.free_w[h] as i64 * f[h] as i64)
            })
            .collect();
        let pw: Vec<i64> = (0..cfg.modules)
            .map(|m| (self.st.pw_prev[m] + self.st.pw_cur[m]) as i64)
            .collect();
        let st = &mut self.st;
        st.wf_hist.push_back(wf);
        if st.wf_hist.len() > 8 * cfg.modules + 1 {
            st.wf_hist.pop_front();
        }
        st.pw_hist.push_back(pw);
        if st.pw_hist.len() > 6 {
            st.pw_hist.pop_front();
        }
        // blocks of last cycle's completion come back; this cycle's completion frees its slot
        for pl in std::mem::take(&mut st.releasing) {
            st.give_back(&pl);
        }
        if i.done_valid && (i.done_slot as usize) < cfg.slots {
            if let Some(pl) = st.inflight[i.done_slot as usize].take() {
                st.releasing.push(pl);
            }
        }
        // the previous decision takes its blocks and slot (its record shows now)
        if let Some((slot, pl)) = st.recent[0].as_ref().map(|d| (d.slot, d.place.clone())) {
            st.take(&pl);
            st.inflight[slot] = Some(pl);
        }
        // this decision: pop (or one sub-WG fewer), pointer, marks
        let mut head_new = vec![false; cfg.channels];
        if let Some(dec) = &d {
            let c = dec.channel;
            let m = dec.place.module;
            let n: usize = dec.place.waves.iter().sum();
            st.ptr[m] = (st.ptr[m] + n) % cfg.units;
            // a42: mark the winner among unmarked tied channels; when all were marked, keep the
            // winner's mark and clear the others'
            if let Some((p, tied, had_unmarked)) = &dec.tie {
                if *had_unmarked {
                    st.marks[c][*p] = true;
                } else {
                    for &t in tied.iter().filter(|&&t| t != c) {
                        st.marks[t][*p] = false;
                    }
                }
            }
            if dec.sub {
                st.split_left[c] -= 1;
                if st.split_left[c] == 0 {
                    st.queue[c].pop_front();
                    head_new[c] = true;
                }
            } else {
                st.queue[c].pop_front();
                head_new[c] = true;
            }
        }
        // emb. 3: count the failed cycle, split at the threshold
        if d.is_some() {
            st.fails = 0;
        } else if failed {
            let g = (st.fails + 1).min(0xFFFF);
            if st.regs.threshold != 0 && g >= st.regs.threshold {
                for (c, new) in head_new.iter_mut().enumerate() {
                    if let Some(h) = st.queue[c].front() {
                        if h.indep && h.waves >= 2 && st.split_left[c] == 0 {
                            st.split_left[c] = h.waves;
                            *new = true;
                            *self.seen.entry("split").or_default() += 1;
                        }
                    }
                }
                st.fails = 0;
            } else {
                st.fails = g;
            }
        }
        // the push: accepted when the channel held fewer than fifo_depth WGs at the start of the
        // cycle (this edge's pop does not make room for it), queued unless refused
        let ch = i.push_channel as usize;
        if i.push_valid && ch < cfg.channels && start_len[ch] < cfg.fifo_depth && push_ok {
            st.queue[ch].push_back(Wg {
                id: i.push_id,
                prio: i.push_prio as usize,
                waves: i.push_waves as usize,
                vgpr: i.push_vgpr as usize,
                sgpr: i.push_sgpr as usize,
                lds: i.push_lds as usize,
                indep: i.push_indep,
            });
        }
        // free-running state with the old register values
        st.win_cnt += 1;
        if st.win_cnt >= st.regs.win_len[st.win].max(1) {
            st.win = (st.win + 1) % cfg.windows;
            st.win_cnt = 0;
        }
        st.lfsr = lfsr_step(st.lfsr);
        for m in 0..cfg.modules {
            let bits = i.retire_class >> (cfg.classes * m);
            let add: u32 = (0..cfg.classes)
                .filter(|&c| bits >> c & 1 == 1)
                .map(|c| st.regs.power_w[c])
                .sum();
            st.pw_cur[m] = (st.pw_cur[m] + add).min(0xFFFF);
        }
        st.pw_cnt += 1;
        if st.pw_cnt >= st.regs.power_window.max(1) {
            st.pw_cnt = 0;
            for m in 0..cfg.modules {
                st.pw_prev[m] = st.pw_cur[m];
                st.pw_cur[m] = 0;
            }
        }
        // the configuration write
        if i.cfg_we {
            let x = i.cfg_data & 0xFFFF;
            match i.cfg_addr {
                0 if x <= 2 => st.regs.policy = x,
                1 => st.regs.threshold = x,
                2..=5 => st.regs.win_len[(i.cfg_addr - 2) as usize] = x,
                6 => st.regs.free_w = nibbles(x),
                7 => st.regs.power_w = nibbles(x),
                8 => st.regs.power_window = x,
                _ => {}
            }
        }
        // the decision point of the next cycle
        st.seen_heads = seen;
        st.head_new = head_new;
        st.recent = [d, st.recent[0].take()];
        st.cycle += 1;
    }
}

/// Registered outputs without a record / an error carry zeros.
fn judge_idle(k: usize, o: &DispOut) -> Result<(), Violation> {
    if !o.disp_valid
        && (o.disp_id != 0
            || o.disp_module != 0
            || o.disp_slot != 0
            || o.disp_sub
            || o.disp_waves != 0
            || o.disp_vgpr_base != 0
            || o.disp_sgpr_base != 0
            || o.disp_lds_base != 0)
    {
        return Err(Violation::new(
            k,
            "idle-outputs",
            format!("record fields not 0 without disp_valid: {o:?}"),
        ));
    }
    if !o.error && o.error_code != 0 {
        return Err(Violation::new(
            k,
            "idle-outputs",
            format!("error_code {} without error", o.error_code),
        ));
    }
    Ok(())
}

impl SpecChecker for DispatcherChecker {
    type In = DispIn;
    type Out = DispOut;

    fn check(&mut self, cycle: usize, i: &DispIn, o: &DispOut) -> Result<(), Violation> {
        if std::mem::take(&mut self.idle_next) {
            // the registered outputs describe a reset cycle (or power-up): nothing happened
            if o.disp_valid || o.error {
                return Err(Violation::new(
                    cycle,
                    "reset-idle",
                    format!("record or error in the cycle after a reset: {o:?}"),
                ));
            }
            judge_idle(cycle, o)?;
        }
        self.rows.push_back((cycle, i.clone(), o.clone()));
        self.since_reset += 1;
        if self.since_reset == 2 && o.disp_valid {
            // the record of this cycle would have been decided in the reset cycle
            return Err(Violation::new(
                cycle,
                "reset-idle",
                format!("record two cycles after a reset: {o:?}"),
            ));
        }
        if self.since_reset == 2 {
            judge_idle(cycle, o)?;
        }
        if self.rows.len() == 3 {
            self.advance()?;
        }
        if i.reset {
            // the cycle before the reset: its decision is cancelled, its handshake and its
            // requests' errors (visible in the reset cycle) are judged
            if self.rows.len() == 2 {
                let (k, i0, o0) = self.rows[0].clone();
                let (k1, _, o1) = self.rows[1].clone();
                self.judge_ready(k, &i0, &o0)?;
                self.judge_error(k1, &i0, &o1)?;
            }
            self.st = State::new(&self.cfg);
            self.rows.clear();
            self.idle_next = true;
            self.since_reset = 0;
        }
        Ok(())
    }

    /// The last two cycles' decisions show after the trace (their windows are open); the
    /// handshake and the errors of the second-to-last cycle are judged.
    fn finish(&mut self, _cycles: usize) -> Result<(), Violation> {
        if self.rows.len() == 2 {
            let (k, i0, o0) = self.rows[0].clone();
            let (k1, _, o1) = self.rows[1].clone();
            self.judge_ready(k, &i0, &o0)?;
            self.judge_error(k1, &i0, &o1)?;
            judge_idle(k1, &o1)?;
        }
        Ok(())
    }
}

impl crate::unit::CheckedUnit for crate::dispatcher::DispatcherBoard {
    fn spec_checker() -> Box<dyn SpecChecker<In = DispIn, Out = DispOut>> {
        Box::new(DispatcherChecker::new(DispatcherConfig::board()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dispatcher::DispatcherBoard;
    use crate::spec::judge;
    use crate::unit::{BoardUnit, CheckedUnit};

    /// The golden model's outputs on a standard random trace pass; each kind of corrupted output
    /// is rejected at its own cycle with its own rule.
    #[test]
    fn passes_the_model_and_rejects_corrupted_outputs() {
        let t = DispatcherBoard::random_trace(3, 4000);
        let mut m = DispatcherBoard::model();
        let outs: Vec<DispOut> = t.iter().map(|i| m.step(i)).collect();
        judge(&mut *DispatcherBoard::spec_checker(), &t, &outs).unwrap();
        // cycles whose outputs are not the first after a reset
        let ok = |c: usize| c >= 2 && !t[c - 1].reset && !t[c].reset;
        let rec = (0..t.len()).filter(|&c| ok(c) && outs[c].disp_valid);
        let rec: Vec<usize> = rec.collect();
        let err: Vec<usize> = (0..t.len()).filter(|&c| ok(c) && outs[c].error).collect();
        let quiet: Vec<usize> = (0..t.len())
            .filter(|&c| ok(c) && !outs[c].disp_valid)
            .collect();
        let pushes: Vec<usize> = (0..t.len())
            .filter(|&c| ok(c) && t[c].push_valid && outs[c].push_ready)
            .collect();
        type Corrupt = Box<dyn Fn(&mut DispOut)>;
        let cases: Vec<(&str, usize, Corrupt)> = vec![
            (
                "work-conserving",
                rec[10],
                Box::new(|o| {
                    *o = DispOut {
                        push_ready: o.push_ready,
                        error: o.error,
                        error_code: o.error_code,
                        ..DispOut::default()
                    }
                }),
            ),
            ("slot", rec[20], Box::new(|o| o.disp_slot ^= 1)),
            ("record-head", rec[30], Box::new(|o| o.disp_id ^= 0x80)),
            (
                "error-code",
                err[3],
                Box::new(|o| o.error_code = o.error_code % 5 + 1),
            ),
            ("idle-outputs", quiet[50], Box::new(|o| o.disp_lds_base = 1)),
            ("push-ready", pushes[40], Box::new(|o| o.push_ready = false)),
        ];
        for (rule, c, corrupt) in cases {
            let mut bad = outs.clone();
            corrupt(&mut bad[c]);
            let v = judge(&mut *DispatcherBoard::spec_checker(), &t, &bad).expect_err(&format!(
                "{rule}: a corrupted output in cycle {c} must be rejected"
            ));
            assert_eq!((v.rule, v.cycle), (rule, c), "{v}");
        }
    }
}
