//! Spec checker of the workgroup dispatcher (SPEC Unit 3, with "Patent scale"): a
//! transaction-level scoreboard written from SPEC, for any [`DispatcherConfig`] and any pipeline
//! whose latencies fall inside the windows of [`Timing`].
//!
//! ## What it keeps (SPEC state only, built from the ports)
//! - per channel the queue of accepted WGs (a head in split mode counts its sub-WGs left) and,
//!   per channel × priority, the a42 tie marks;
//! - per module the free maps (VGPR / SGPR per unit, LDS), the free wave slots and the split-table
//!   pointer, changed by the records it accepted and by the completions; the in-flight table;
//! - the run-time registers (from the config writes it saw), the time window and the LFSR (both
//!   free-running from reset), the power history (tumbling windows of the retire strobes);
//! - a short history of that state, one snapshot per cycle, and of the records (cycle, channel,
//!   module, slot): the windows below are read from it.
//!
//! It holds no pipeline register of any implementation: a record is *not* tied to a decision
//! cycle; the checker searches the window for a cycle at which the record was a legal decision.
//!
//! ## Timing (windows, [`Timing`])
//! - **H** (`head_to_record`, board 3, full 4 — SPEC's head → record bound): a record visible in
//!   cycle r was decided from the state of some cycle s in r−H ..= r−1 (the *state point*) with
//!   the time window, LFSR, marks and policy register of some cycle d in s ..= r−1 (the *decision
//!   point*). Its allocation is in the maps from cycle r on (the record shows a done allocation).
//! - **K** (`refresh`, SPEC "Patent scale", [`DispatcherConfig::refresh_latency`]): a module whose
//!   maps changed in s−K+1 ..= r−1 may be treated as not fitting at s (a reset changes every
//!   module's maps; with K > 0 a change after the state point counts too, since the decision
//!   point, up to r−1, may read eligibility later than the heads).
//! - **F** (`free_latency`, 2: the port contract's completion timing): a completion in cycle t
//!   frees its slot from t+1 and its blocks no earlier than t+1 and no later than t+F. The checker
//!   keeps two views of the maps: *optimistic* (blocks back at t+1) and *settled* (back at t+F).
//!
//! ## What it judges (rule names in [`Violation::rule`])
//! - `push-ready` (judged H−1 cycles late): `push_ready` must be high while the channel surely has
//!   room (fewer than `fifo_depth` WGs not yet recorded) and may be high only if it has room in
//!   some view (its WGs recorded within the next H−1 cycles may already have left); a channel out
//!   of range is ready.
//! - `error-code`: every request's error (the cycle after it): a push with a channel or priority
//!   out of range `BAD_ID`, zero waves `ZERO_WAVES`, a WG that cannot fit an empty module
//!   `NEVER_FITS` (step 9); a completion out of range `BAD_ID`, of a slot not in flight (a slot is
//!   in flight from the cycle its record is visible) `IDLE_SLOT`; a config write to an unmapped
//!   address or a bad policy (or one the implementation did not build:
//!   [`DispatcherChecker::policies_up_to`]) `BAD_CFG`; several: push beats completion beats config. A refused
//!   request changes nothing in the checker's state, so any change an implementation makes shows
//!   in its later records.
//! - `idle-outputs`, `reset-idle`: without `disp_valid` every record field is 0, without `error`
//!   the code is 0; the cycle after a reset shows nothing.
//! - Every record, in this order (the violation names the deepest rule that failed at every
//!   state/decision point of the window):
//!   - `record-head`: its WG is the front of a channel now (FIFO order: nothing recorded twice,
//!     nothing overtaken), as presented (a split head is a one-wave sub-WG at the lowest
//!     priority), and was queued at the state point;
//!   - `split`: a first sub-WG record needs an `independent` WG of ≥ 2 waves and a failure run
//!     that reached `SPLIT_THRESHOLD` (≠ 0) — counted leniently (`g_hi`, + H + 1 slack); a
//!     whole-WG record of a head that surely should have been split (no head fitted anywhere
//!     in the optimistic maps for k · (threshold + 2H + 2) cycles with a free slot while it was
//!     the front, k the split candidates of that run: SPEC splits *an* independent head per
//!     crossing and resets g) is refused too;
//!   - `wave-split`: the waves follow emb. 8's split table rotated by the module's pointer (the
//!     pointer moves with each record, in record order);
//!   - `region-free`: every region and wave slot is free in the optimistic maps now (no block
//!     allocated twice) and inside its map;
//!   - `slot`: the slot is not in flight now, and it is the lowest free slot at some cycle
//!     x in d ..= r−1 (slots recorded after x excluded);
//!   - `record-unfit`: the module fits the WG at the state point (optimistic maps: never treated
//!     as fitting when it does not) and no other allocation on it was recorded after the state
//!     point;
//!   - `pick-priority`: no other channel's head of strictly better *effective* rank (window of
//!     the decision point) surely fitted an eligible module at the state point (settled maps;
//!     eligible: no allocation on it recorded after s, maps unchanged within K); a head that
//!     may have entered split mode unseen (independent, ≥ 2 waves, the lenient count near
//!     `SPLIT_THRESHOLD` as it stood in any cycle of s − 2H − 2 ..= r: SPEC gives no latency
//!     from a register write to the split) may present itself as a sub-WG and obliges nothing;
//!   - `tie-mark`, `tie-lfsr`: among the tied heads (same priority, surely fitting an eligible
//!     module; if that fails, every head of that priority that fits anywhere) the a42 mark rule,
//!     and with `exact_lfsr` (default) the documented LFSR scan from `lfsr mod R` of the decision
//!     point;
//!   - `module-policy`: no eligible module that surely fits is surely better: `first` — a lower
//!     index; `max_weighted_free` — a larger Σ a_h·free_h in every view of the last 8P + 2
//!     cycles before the decision point (a score assembled serially may be that old; 0 before
//!     it exists); `min_power_history` — a smaller power history in every view of the last 6
//!     cycles; equal scores: the lower index;
//!   - `first-fit`: every region is the lowest free start (a43) on the maps (either view) of some
//!     cycle in s ..= r−1.
//! - `work-conserving` (judged H + 1 cycles late): if in cycle s some head surely fitted an
//!   eligible module (maps unchanged within K) and a slot was free, a record appears in
//!   s+1 ..= s+H (a head that fits nowhere blocks nobody; a channel whose head entered split mode
//!   in that window is excused).
//! - Nothing lost: every accepted WG stays in the checker's queue until its (last) record;
//!   [`DispatcherChecker::queued_wgs`] lets a drain test ask that all left.
//!
//! WG identity: a queued WG is one entry (its key: the push count since reset, or the
//! extension's own), never its id — ids may repeat (the front-end numbers WGs within their
//! kernel, so two channel fronts can both be WG 0). The front's failure run, its split mode and
//! "should have been split" mark belong to the entry; a record is matched to a front by id, on
//! the channels an extension names for it ([`DispatcherChecker::record_from`]: the tagged
//! checker finds the record's WG by its kernel tag), else on every channel.
//!
//! Emb. 3's counter: `g_hi` counts cycles with some head in which no head surely fitted an
//! eligible module (reset by a record; a cycle with a head an extension held counts nothing:
//! [`DispatcherChecker::hold`]); per front, the sure failures while it is the front count
//! cycles with a free slot in which no head fits any module even in the optimistic maps (held
//! while no slot is free, reset by a record or a cycle where a head fits); the run's split
//! candidates (independent fronts of ≥ 2 waves not in split mode, any channel) are counted
//! with it, one threshold crossing each. A reset cancels
//! everything in flight; `push_ready` in a reset cycle is not judged.

use crate::spec::{SpecChecker, Violation};
use golden_model::dispatcher::{DispIn, DispOut, DispatcherConfig};
use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};

const NEVER_FITS: u8 = 1;
const ZERO_WAVES: u8 = 2;
const BAD_ID: u8 = 3;
const IDLE_SLOT: u8 = 4;
const BAD_CFG: u8 = 5;

/// The windows the checker judges with (see the module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Timing {
    /// H: head → record bound; the state point of a record lies in r−H ..= r−1.
    pub head_to_record: usize,
    /// K: SPEC's refresh latency.
    pub refresh: usize,
    /// F: a completion's blocks are back within t+1 ..= t+F.
    pub free_latency: usize,
}

impl Timing {
    /// SPEC's windows for `cfg`: H = 3 for the board config (the decided measured point), 4
    /// otherwise (the patent-scale goal); K from the config; F = 2.
    pub fn of(cfg: &DispatcherConfig) -> Self {
        Self {
            head_to_record: if *cfg == DispatcherConfig::board() {
                3
            } else {
                4
            },
            refresh: cfg.refresh_latency,
            free_latency: 2,
        }
    }
}

/// A WG as the checker queued it from a push (public for the checkers of extended
/// dispatchers, which hand their queues over with [`DispatcherChecker::set_queue`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wg {
    /// Identity of the queue entry (unique per accepted push since the last reset: the
    /// checker's push count, or the extension's own): WG ids may repeat (the front-end numbers
    /// WGs within their kernel), so "the same front" means the same key, never the same id.
    pub key: u64,
    pub id: u32,
    pub prio: usize,
    pub waves: usize,
    pub vgpr: usize,
    pub sgpr: usize,
    pub lds: usize,
    pub indep: bool,
}

impl Wg {
    /// The one-wave sub-WG a head in split mode presents (lowest priority).
    fn sub(self, prios: usize) -> Self {
        Self {
            prio: prios - 1,
            waves: 1,
            ..self
        }
    }
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

impl Place {
    /// The bases as the ports carry them (0 for an empty region).
    fn port_bases(&self) -> (Vec<usize>, Vec<usize>, usize) {
        let z = |b: &[usize], n: &[usize]| -> Vec<usize> {
            b.iter()
                .zip(n)
                .map(|(&b, &n)| if n == 0 { 0 } else { b })
                .collect()
        };
        (
            z(&self.vgpr_base, &self.vgpr_need),
            z(&self.sgpr_base, &self.sgpr_need),
            if self.lds_need == 0 { 0 } else { self.lds_base },
        )
    }
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

/// Lowest start of `need` free blocks (1 = free) in `map`: bit i of `run` says blocks
/// i .. i+len are free; the length doubles each step. Need 0 → start 0.
fn lowest_free_run(map: u128, need: usize) -> Option<usize> {
    if need == 0 {
        return Some(0);
    }
    if need > 128 {
        return None;
    }
    let mut run = map;
    let mut len = 1;
    while len < need && run != 0 {
        let step = len.min(need - len);
        run &= run >> step;
        len += step;
    }
    (run != 0).then(|| run.trailing_zeros() as usize)
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

/// Free maps and wave slots of every module, `[m * Q + u]` for the per-unit ones.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Maps {
    vgpr: Vec<u128>,
    sgpr: Vec<u128>,
    waves: Vec<usize>,
    lds: Vec<u128>,
}

impl Maps {
    fn new(c: &DispatcherConfig) -> Self {
        let n = c.modules * c.units;
        Self {
            vgpr: vec![ones(0, c.vgpr_blocks); n],
            sgpr: vec![ones(0, c.sgpr_blocks); n],
            waves: vec![c.wave_slots; n],
            lds: vec![ones(0, c.lds_blocks); c.modules],
        }
    }

    /// Where `wg` goes on module `m` with pointer `ptr`, if it fits: waves by the rotated split
    /// table, the lowest free start of every region.
    fn place(&self, c: &DispatcherConfig, m: usize, ptr: usize, wg: &Wg) -> Option<Place> {
        let q = c.units;
        let mut pl = Place {
            module: m,
            waves: Vec::with_capacity(q),
            vgpr_base: Vec::with_capacity(q),
            sgpr_base: Vec::with_capacity(q),
            lds_base: lowest_free_run(self.lds[m], wg.lds)?,
            vgpr_need: Vec::with_capacity(q),
            sgpr_need: Vec::with_capacity(q),
            lds_need: wg.lds,
        };
        for (u, n) in split(q, ptr, wg.waves).into_iter().enumerate() {
            let k = m * q + u;
            if self.waves[k] < n {
                return None;
            }
            let (nv, ns) = (n * wg.vgpr, n * wg.sgpr);
            pl.vgpr_base.push(lowest_free_run(self.vgpr[k], nv)?);
            pl.sgpr_base.push(lowest_free_run(self.sgpr[k], ns)?);
            pl.waves.push(n);
            pl.vgpr_need.push(nv);
            pl.sgpr_need.push(ns);
        }
        Some(pl)
    }

    /// Whether `wg` fits module `m` (no placement built).
    fn fits(&self, c: &DispatcherConfig, m: usize, ptr: usize, wg: &Wg) -> bool {
        let q = c.units;
        lowest_free_run(self.lds[m], wg.lds).is_some()
            && split(q, ptr, wg.waves)
                .into_iter()
                .enumerate()
                .all(|(u, n)| {
                    let k = m * q + u;
                    self.waves[k] >= n
                        && lowest_free_run(self.vgpr[k], n * wg.vgpr).is_some()
                        && lowest_free_run(self.sgpr[k], n * wg.sgpr).is_some()
                })
    }

    /// Why `pl` is not free (inside its maps, blocks and wave slots free), if it is not.
    fn not_free(&self, c: &DispatcherConfig, pl: &Place) -> Option<String> {
        let m = pl.module;
        for u in 0..c.units {
            let k = m * c.units + u;
            if self.waves[k] < pl.waves[u] {
                return Some(format!(
                    "module {m} unit {u}: {} waves, {} wave slots free",
                    pl.waves[u], self.waves[k]
                ));
            }
            let (vb, vn, sb, sn) = (
                pl.vgpr_base[u],
                pl.vgpr_need[u],
                pl.sgpr_base[u],
                pl.sgpr_need[u],
            );
            if vb + vn > c.vgpr_blocks
                || ones(vb, vn) & !self.vgpr[k] != 0
                || sb + sn > c.sgpr_blocks
                || ones(sb, sn) & !self.sgpr[k] != 0
            {
                return Some(format!(
                    "module {m} unit {u}: VGPR {vb}+{vn} / SGPR {sb}+{sn} not free (block \
                     allocated twice) or outside the map"
                ));
            }
        }
        let (lb, ln) = (pl.lds_base, pl.lds_need);
        if lb + ln > c.lds_blocks || ones(lb, ln) & !self.lds[m] != 0 {
            return Some(format!(
                "module {m}: LDS {lb}+{ln} not free (block allocated twice) or outside the map"
            ));
        }
        None
    }

    fn take(&mut self, q: usize, pl: &Place) {
        let m = pl.module;
        for u in 0..q {
            let k = m * q + u;
            self.vgpr[k] &= !ones(pl.vgpr_base[u], pl.vgpr_need[u]);
            self.sgpr[k] &= !ones(pl.sgpr_base[u], pl.sgpr_need[u]);
            self.waves[k] -= pl.waves[u];
        }
        self.lds[m] &= !ones(pl.lds_base, pl.lds_need);
    }

    /// Give `pl`'s blocks back, never beyond what `limit` (the optimistic view) has free.
    fn give(&mut self, q: usize, pl: &Place, limit: Option<&Maps>) {
        let m = pl.module;
        for u in 0..q {
            let k = m * q + u;
            self.vgpr[k] |= ones(pl.vgpr_base[u], pl.vgpr_need[u]);
            self.sgpr[k] |= ones(pl.sgpr_base[u], pl.sgpr_need[u]);
            self.waves[k] += pl.waves[u];
            if let Some(l) = limit {
                self.vgpr[k] &= l.vgpr[k];
                self.sgpr[k] &= l.sgpr[k];
                self.waves[k] = self.waves[k].min(l.waves[k]);
            }
        }
        self.lds[m] |= ones(pl.lds_base, pl.lds_need);
        if let Some(l) = limit {
            self.lds[m] &= l.lds[m];
        }
    }

    /// Free counts of module `m`: VGPR, SGPR, wave slots, LDS.
    fn counts(&self, q: usize, m: usize) -> [usize; 4] {
        let r = m * q..(m + 1) * q;
        let pc = |x: &u128| x.count_ones() as usize;
        [
            self.vgpr[r.clone()].iter().map(pc).sum(),
            self.sgpr[r.clone()].iter().map(pc).sum(),
            self.waves[r].iter().sum(),
            pc(&self.lds[m]),
        ]
    }
}

/// Emb. 8's split of `n` waves over `q` units rotated by `ptr`.
fn split(q: usize, ptr: usize, n: usize) -> Vec<usize> {
    (0..q)
        .map(|u| {
            let t = (u + q - ptr) % q;
            n / q + usize::from(t < n % q)
        })
        .collect()
}

/// The state at the start of one cycle (records visible in that cycle included), as kept in the
/// history.
#[derive(Clone, Debug)]
struct Snap {
    cycle: usize,
    queue: Vec<Vec<Wg>>,
    /// Per channel: the front is in split mode.
    split_mode: Vec<bool>,
    /// Settled and optimistic maps.
    lo: Maps,
    hi: Maps,
    ptr: Vec<usize>,
    /// Bit s: slot s is not in flight.
    free_slots: u64,
    win: usize,
    lfsr: u16,
    policy: u32,
    threshold: u32,
    /// Per module: −Σ_h a_h·free_h per resource h (settled maps), and the power score.
    wf: Vec<[i64; 4]>,
    pw: Vec<i64>,
    /// Per module: the last cycle its settled maps changed.
    changed: Vec<Option<usize>>,
    /// Per channel: the front as presented, and per module whether it fits (settled /
    /// optimistic maps).
    front: Vec<Option<Wg>>,
    fit_lo: Vec<Vec<bool>>,
    fit_hi: Vec<Vec<bool>>,
    /// Per channel: its head was no candidate of this cycle's decision (held by an
    /// extension: [`DispatcherChecker::hold`]); it then obliges nothing and no failure counts.
    held: Vec<bool>,
}

/// One record the checker accepted.
#[derive(Clone, Copy, Debug)]
struct Rec {
    cycle: usize,
    channel: usize,
    module: usize,
    slot: usize,
    /// The WG left its queue (a whole WG or the last sub-WG).
    popped: bool,
    /// The first sub-WG of a split head.
    split_entry: bool,
}

/// A push whose handshake waits for judgment: (cycle, channel, ready seen, queued WGs then).
type ReadyRow = (usize, usize, bool, usize);

/// The current state (start of the cycle being checked, its record not yet applied).
#[derive(Clone, Debug)]
struct State {
    regs: Regs,
    queue: Vec<VecDeque<Wg>>,
    split_left: Vec<usize>,
    hi: Maps,
    lo: Maps,
    /// Completions whose blocks reach the settled view at the given cycle.
    settling: Vec<(usize, Place)>,
    ptr: Vec<usize>,
    inflight: Vec<Option<Place>>,
    /// a42 marks, per priority p: every state of p's marks still possible (bit c: channel c is
    /// marked for p); more than one when the windows left open which tied set an implementation
    /// saw. A record at priority p changes only p's marks, and the tied sets it may have seen do
    /// not depend on any mark, so the possible states of all the marks are exactly the product
    /// of these per-priority sets: at most 2^R states each, kept whole (session 13: one set of
    /// whole R·S-bit states, cut at 4 096, lost the true state after ~10^4 full-config cycles
    /// and so refused a legal tie; `docs/dispatcher_scale.md`).
    marks: Vec<Vec<u32>>,
    lfsr: u16,
    win: usize,
    win_cnt: u32,
    pw_cnt: u32,
    pw_cur: Vec<u32>,
    pw_prev: Vec<u32>,
    changed: Vec<Option<usize>>,
    g_hi: u32,
    /// Per channel: the key of a front that surely should have been split.
    must_split: Vec<Option<u64>>,
    /// Per channel: the front's key and the sure failures counted while it was the front.
    front_fail: Vec<(Option<u64>, u32)>,
    /// Keys of the fronts (any channel) that were split candidates (independent, ≥ 2 waves,
    /// not in split mode) in some cycle of the current run of sure failures.
    run_cands: Vec<u64>,
    /// Keys of the WGs pushed since the last reset.
    pushed: u64,
    /// Per channel: the front may have entered split mode (the lenient count reached the
    /// threshold while it was the front); cleared when it leaves.
    split_ok: Vec<bool>,
}

impl State {
    fn new(c: &DispatcherConfig) -> Self {
        Self {
            regs: Regs::default(),
            queue: vec![VecDeque::new(); c.channels],
            split_left: vec![0; c.channels],
            hi: Maps::new(c),
            lo: Maps::new(c),
            settling: vec![],
            ptr: vec![0; c.modules],
            inflight: vec![None; c.slots],
            marks: vec![vec![0]; c.prios],
            lfsr: 0xACE1,
            win: 0,
            win_cnt: 0,
            pw_cnt: 0,
            pw_cur: vec![0; c.modules],
            pw_prev: vec![0; c.modules],
            changed: vec![None; c.modules],
            g_hi: 0,
            must_split: vec![None; c.channels],
            front_fail: vec![(None, 0); c.channels],
            run_cands: vec![],
            split_ok: vec![false; c.channels],
            pushed: 0,
        }
    }

    /// Channel `c`'s front as presented (a split head: one wave at the lowest priority).
    fn front(&self, c: usize, prios: usize) -> Option<Wg> {
        let wg = *self.queue[c].front()?;
        Some(if self.split_left[c] > 0 {
            wg.sub(prios)
        } else {
            wg
        })
    }
}

/// What a record's a42 step depends on: the surely and perhaps tied channels and the LFSR's
/// start (when judged exactly).
type MarkKey = (Vec<usize>, Vec<usize>, Option<usize>);

/// One a42 step of a record over every mark state still possible ([`mark_step`]).
struct MarkStep {
    /// The states of the priority's marks possible afterwards (at most 2^R) and the tie kind
    /// common to every legal (state, tied set) pair; `None` when no state allows the pick.
    outcome: Option<(Vec<u32>, Option<&'static str>)>,
    /// The last legal set whose LFSR scan (from `start`) picked another channel, and that channel.
    lfsr_fail: Option<(Vec<usize>, usize)>,
}

/// The a42 step of picking channel `c` (`rr` channels) from each state in `marks` of the
/// priority's marks (bit x: channel x marked), over every tied set possible: `a` surely tied
/// (with `c`), any subset of `b` perhaps tied. With `start` (the LFSR judged exactly) a tie must
/// scan from `start` to `c`.
fn mark_step(
    marks: &[u32],
    rr: usize,
    c: usize,
    a: &[usize],
    b: &[usize],
    start: Option<usize>,
) -> MarkStep {
    let bit = |x: usize| 1u32 << x;
    let mut next: Vec<u32> = vec![];
    let mut seen: HashSet<u32> = HashSet::new();
    let mut kinds: Vec<Option<&'static str>> = vec![];
    let mut lfsr_fail = None;
    // the tied sets do not depend on the mark state
    let sets: Vec<Vec<usize>> = (0u32..1 << b.len())
        .map(|sub| {
            a.iter()
                .copied()
                .chain(
                    b.iter()
                        .enumerate()
                        .filter(|(j, _)| sub >> j & 1 == 1)
                        .map(|(_, &x)| x),
                )
                .collect()
        })
        .collect();
    for &state in marks {
        for t in &sets {
            let marked = |x: usize| state & bit(x) != 0;
            let unmarked: Vec<usize> = t.iter().copied().filter(|&x| !marked(x)).collect();
            let all_marked = unmarked.is_empty();
            let legal = if t.len() == 1 || all_marked {
                t.clone()
            } else {
                unmarked
            };
            if !legal.contains(&c) {
                continue;
            }
            if let Some(start) = start.filter(|_| t.len() > 1) {
                let w = (0..rr)
                    .map(|k| (start + k) % rr)
                    .find(|x| legal.contains(x))
                    .unwrap();
                if w != c {
                    lfsr_fail = Some((legal.clone(), w));
                    continue;
                }
            }
            let mut ns = state;
            if t.len() > 1 {
                if all_marked {
                    for &x in t.iter().filter(|&&x| x != c) {
                        ns &= !bit(x);
                    }
                } else {
                    ns |= bit(c);
                }
            }
            kinds.push((t.len() > 1).then_some(if all_marked {
                "tie, all marked"
            } else {
                "tie, unmarked"
            }));
            if seen.insert(ns) {
                next.push(ns);
            }
        }
    }
    if next.is_empty() {
        return MarkStep {
            outcome: None,
            lfsr_fail,
        };
    }
    let tie_kind = kinds
        .iter()
        .all(|k| *k == kinds[0])
        .then_some(kinds[0])
        .flatten();
    MarkStep {
        outcome: Some((next, tie_kind)),
        lfsr_fail,
    }
}

/// A successful judgment of one record: what it changes.
struct Verdict {
    channel: usize,
    place: Place,
    slot: usize,
    /// The states of the marks of priority `mark_prio` (the record's) still possible after
    /// this choice.
    new_marks: Vec<u32>,
    mark_prio: usize,
    split_entry: bool,
    hits: Vec<&'static str>,
}

/// The dispatcher's spec checker (see the module doc).
pub struct DispatcherChecker {
    cfg: DispatcherConfig,
    timing: Timing,
    exact_lfsr: bool,
    /// The highest `POLICY` value the implementation built (2: all three); higher ones are
    /// `BAD_CFG` ([`Self::policies_up_to`]).
    max_policy: u32,
    st: State,
    /// Snapshots of the recent cycles since the last reset, oldest first.
    snaps: VecDeque<Snap>,
    /// Records accepted in the recent cycles, oldest first.
    recs: VecDeque<Rec>,
    /// The error expected in the next row (for the requests of this one).
    want_error: Option<(usize, u8, String)>,
    ready_rows: VecDeque<ReadyRow>,
    /// The next row's registered outputs must be idle (after a reset, and at power-up).
    idle_next: bool,
    records: u64,
    seen: BTreeMap<&'static str, u64>,
    /// Holds announced for cycles whose snapshot is not yet taken: (cycle, channel).
    held_later: Vec<(usize, usize)>,
    /// Per channel: the front leaves after this cycle's record ([`Self::set_queue`]).
    gone_after_record: Vec<bool>,
    /// Channels (bit c) the next record may come from ([`Self::record_from`]; all by default).
    record_channels: u64,
}

impl DispatcherChecker {
    /// A checker for `cfg` with SPEC's windows ([`Timing::of`]) and the documented LFSR
    /// tie-break, idle as after reset.
    pub fn new(cfg: DispatcherConfig) -> Self {
        Self::with_timing(cfg, Timing::of(&cfg))
    }

    /// A checker with other windows (for an implementation with another pipeline).
    pub fn with_timing(cfg: DispatcherConfig, timing: Timing) -> Self {
        cfg.validate();
        assert!(
            timing.head_to_record >= 1 && timing.free_latency >= 1,
            "dispatcher checker: H and F are at least 1"
        );
        Self {
            cfg,
            timing,
            exact_lfsr: true,
            max_policy: 2,
            st: State::new(&cfg),
            snaps: VecDeque::new(),
            recs: VecDeque::new(),
            want_error: None,
            ready_rows: VecDeque::new(),
            idle_next: true,
            records: 0,
            seen: BTreeMap::new(),
            held_later: vec![],
            gone_after_record: vec![false; cfg.channels],
            record_channels: u64::MAX,
        }
    }

    /// Accept any tie winner the mark rule allows (not only the documented LFSR's).
    pub fn any_tie_winner(mut self) -> Self {
        self.exact_lfsr = false;
        self
    }

    /// An implementation that builds only the policies `0..=max` (SPEC allows refusing a
    /// policy that is not built, with `BAD_CFG`, if its documentation says so): a write of a
    /// higher `POLICY` must be refused.
    pub fn policies_up_to(mut self, max: u32) -> Self {
        assert!(max <= 2, "dispatcher checker: policies are 0..=2");
        self.max_policy = max;
        self
    }

    /// The windows in use.
    pub fn timing(&self) -> Timing {
        self.timing
    }

    /// Accepted WGs (a split WG once) not yet fully dispatched, as judged so far.
    pub fn queued_wgs(&self) -> usize {
        self.st.queue.iter().map(|q| q.len()).sum()
    }

    /// Records judged so far.
    pub fn records(&self) -> u64 {
        self.records
    }

    /// How often each judged mechanism occurred in the traces so far: `record`, `sub-WG record`,
    /// `split` (a head entering split mode), `tie, unmarked` / `tie, all marked` (a42 choices
    /// among ≥ 2 channels), `window promotion` (the winner's priority number is larger than
    /// another surely fitting head's), `policy first|max_weighted_free|min_power_history` (a
    /// module choice among ≥ 2 surely fitting modules under that policy), `policy overrides
    /// first` (such a choice that was not the lowest index), `region at the map end` (a region
    /// that starts above block 0 and ends at the map's last block), `backpressure` (a push
    /// refused by `push_ready`), `every slot busy` (a head surely fitted, no slot was free),
    /// `work-conserving` (a cycle whose head surely fitted and was followed by a record in the
    /// window), and one entry per error code (`NEVER_FITS`, `ZERO_WAVES`, `BAD_ID`,
    /// `IDLE_SLOT`, `BAD_CFG`).
    pub fn coverage(&self) -> &BTreeMap<&'static str, u64> {
        &self.seen
    }

    /// Hook for an extended dispatcher (the tagged one): replace channel `c`'s queue by `wgs`
    /// (front first), as the extension's own rules decided it (a withdraw or flush removed WGs
    /// without a record; a WG decided before them is put back at the front for its record). A
    /// new front leaves split mode.
    /// With `front_gone`, the front leaves after this cycle's record even when that is not its
    /// last (a split head withdrawn or flushed while its decided sub-WG records were in
    /// flight: none of them is the last).
    pub fn set_queue(&mut self, c: usize, wgs: Vec<Wg>, front_gone: bool) {
        self.gone_after_record[c] = front_gone;
        let st = &mut self.st;
        // a new front (by key: ids repeat across kernels) has no split mode, no failure run of
        // its own yet and no "should have been split" mark
        if st.queue[c].front().map(|w| w.key) != wgs.first().map(|w| w.key) {
            st.must_split[c] = None;
            st.front_fail[c] = (None, 0);
            st.split_left[c] = 0;
            st.split_ok[c] = false;
        }
        st.queue[c] = wgs.into();
    }

    /// Hook for an extended dispatcher whose records name more than the WG id (a kernel tag):
    /// this cycle's record comes from one of the channels in `mask` (bit c), as the extension's
    /// own rules found it; the next [`SpecChecker::check`] judges it on those channels only.
    /// Without it a record is matched to a front by id alone, which is ambiguous where ids
    /// repeat across kernels (two fronts WG 0 of two kernels).
    pub fn record_from(&mut self, mask: u64) {
        self.record_channels = mask;
    }

    /// Hook for an extended dispatcher: channel `c`'s head is no candidate of cycle `k`'s
    /// decision (any cycle not yet judged as a state point: at most H cycles back).
    pub fn hold(&mut self, k: usize, c: usize) {
        match self.snaps.iter_mut().find(|s| s.cycle == k) {
            Some(sn) => sn.held[c] = true,
            None => self.held_later.push((k, c)),
        }
    }

    /// Hook for an extended dispatcher: free slot `slot` as a completion in cycle `k` would
    /// (slot free from k+1, blocks within k+1 ..= k+F); call after [`SpecChecker::check`] of
    /// cycle `k`. Returns whether the slot was in flight.
    pub fn reclaim(&mut self, k: usize, slot: usize) -> bool {
        let cfg = self.cfg;
        let st = &mut self.st;
        let Some(pl) = st.inflight.get_mut(slot).and_then(|p| p.take()) else {
            return false;
        };
        st.hi.give(cfg.units, &pl, None);
        if self.timing.free_latency <= 1 {
            st.lo.give(cfg.units, &pl, Some(&st.hi));
            st.changed[pl.module] = Some(k + 1);
        } else {
            st.settling.push((k + self.timing.free_latency, pl));
        }
        true
    }

    /// Channel `c`'s head held in some cycle of a ..= b (a decision in that window may have
    /// been blocked).
    fn held_in(&self, c: usize, a: usize, b: usize) -> bool {
        (a..=b).any(|x| {
            self.snap(x)
                .map_or_else(|| self.held_later.contains(&(x, c)), |sn| sn.held[c])
        })
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

    /// The error code the requests of one cycle must produce (from the current state).
    fn expected_error(&self, i: &DispIn, o: &DispOut) -> u8 {
        let c = &self.cfg;
        let ch = i.push_channel as usize;
        let accepted = i.push_valid && (ch >= c.channels || o.push_ready);
        let push = if accepted { self.push_error(i) } else { None };
        let done = if !i.done_valid {
            None
        } else if i.done_slot as usize >= c.slots {
            Some(BAD_ID)
        } else if self.st.inflight[i.done_slot as usize].is_none() {
            Some(IDLE_SLOT)
        } else {
            None
        };
        let cfg = if !i.cfg_we {
            None
        } else if i.cfg_addr > 8 || (i.cfg_addr == 0 && i.cfg_data & 0xFFFF > self.max_policy) {
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

    /// The snapshot of cycle `k`, if kept.
    fn snap(&self, k: usize) -> Option<&Snap> {
        let first = self.snaps.front()?.cycle;
        self.snaps.get(k.checked_sub(first)?)
    }

    /// Records in cycles a+1 ..= b.
    fn recs_between(&self, a: usize, b: usize) -> impl Iterator<Item = &Rec> {
        self.recs
            .iter()
            .filter(move |r| r.cycle > a && r.cycle <= b)
    }

    /// Module `m` surely eligible at state point `s` for a record in cycle `r`: no allocation on
    /// it recorded in s+1 ..= r−1, maps unchanged in s−K+1 ..= s.
    fn eligible(&self, sn: &Snap, m: usize, r: usize) -> bool {
        let k = self.timing.refresh;
        // SPEC "Patent scale": a module whose maps changed within K cycles of the decision may
        // be treated as not fitting. The decision point lies anywhere in sn.cycle ..= r − 1 and
        // an implementation may read the heads at one point and the maps' eligibility at a
        // later one, so with K > 0 a change landing up to r − 1 (a release settling after the
        // state point) also makes m not surely eligible. K = 0 (the board): every change is
        // seen at once and a release only adds blocks, so the state point's view is kept.
        let last = if k > 0 {
            self.snap(r - 1).map_or(sn.changed[m], |x| x.changed[m])
        } else {
            sn.changed[m]
        };
        self.recs_between(sn.cycle, r - 1).all(|x| x.module != m)
            && last.is_none_or(|c| c + k <= sn.cycle)
    }

    /// Whether the lenient failure count may have reached `SPLIT_THRESHOLD` as it stood in some
    /// cycle of `a ..= b` (the snapshots kept; the current register for cycles not yet
    /// snapshotted). SPEC gives no latency from a register write to the split it decides, so a
    /// split may have been decided on any value of the window: a threshold written non-zero
    /// and back to 0 within it may still have split heads (session 14: board trace, threshold 5
    /// then 0 in two cycles, both independent heads split; `docs/verification.md`).
    fn threshold_reached(&self, a: usize, b: usize) -> bool {
        let slack = 2 * self.timing.head_to_record as u32 + 2;
        let g = self.st.g_hi.saturating_add(slack);
        let reached = |t: u32| t != 0 && g >= t;
        let last = self.snaps.back().map(|s| s.cycle);
        (a..=b).any(|k| match self.snap(k) {
            Some(sn) => reached(sn.threshold),
            None => last.is_none_or(|l| k > l) && reached(self.st.regs.threshold),
        })
    }

    /// Whether channel `x`'s front at `sn` may have entered split mode unseen (its first sub-WG
    /// record not yet out) by cycle `until` (the last cycle whose decision can matter): an
    /// independent unsplit WG of ≥ 2 waves while the failure count may be near the threshold
    /// of some cycle in `sn.cycle − 2H − 2 ..= until`. Such a head is presented ambiguously
    /// (whole or sub-WG).
    fn may_enter_split(&self, sn: &Snap, x: usize, until: usize) -> bool {
        let h = self.timing.head_to_record;
        sn.front[x].is_some_and(|w| {
            w.indep
                && w.waves >= 2
                && !sn.split_mode[x]
                && (self.st.split_ok[x]
                    || self.threshold_reached(sn.cycle.saturating_sub(2 * h + 2), until))
        })
    }

    /// Score range (lowest, highest; smaller is better) of module `x` under `policy` for a
    /// decision at cycle `d`.
    fn score_range(&self, policy: u32, x: usize, d: usize) -> (i64, i64) {
        let back = match policy {
            1 => 8 * self.cfg.modules + 2,
            2 => 6,
            _ => return (0, 0),
        };
        let first = self.snaps.front().map_or(d, |s| s.cycle);
        let mut incomplete = d < first + back;
        let lo_k = d.saturating_sub(back).max(first);
        let (mut lo, mut hi) = (i64::MAX, i64::MIN);
        if policy == 1 {
            let mut mn = [i64::MAX; 4];
            let mut mx = [i64::MIN; 4];
            for k in lo_k..=d {
                let Some(sn) = self.snap(k) else {
                    incomplete = true;
                    continue;
                };
                for h in 0..4 {
                    mn[h] = mn[h].min(sn.wf[x][h]);
                    mx[h] = mx[h].max(sn.wf[x][h]);
                }
            }
            if mn[0] != i64::MAX {
                lo = mn.iter().sum();
                hi = mx.iter().sum();
            }
        } else {
            for k in lo_k..=d {
                match self.snap(k) {
                    Some(sn) => {
                        lo = lo.min(sn.pw[x]);
                        hi = hi.max(sn.pw[x]);
                    }
                    None => incomplete = true,
                }
            }
        }
        if incomplete || lo == i64::MAX {
            lo = lo.min(0);
            hi = hi.max(0);
        }
        (lo, hi)
    }

    /// Judge the record visible in cycle `r` (`o`) against the current state and the history.
    fn judge_record(&self, r: usize, o: &DispOut) -> Result<Verdict, Violation> {
        let cfg = &self.cfg;
        let st = &self.st;
        let fronts: Vec<usize> = (0..cfg.channels)
            .filter(|&c| {
                st.queue[c]
                    .front()
                    .is_some_and(|w| w.id == o.disp_id && (o.disp_sub || st.split_left[c] == 0))
                    && self.record_channels >> c & 1 == 1
            })
            .collect();
        if fronts.is_empty() {
            return Err(Violation::new(
                r,
                "record-head",
                format!(
                    "record of WG {} (sub {}) which is no channel's front as presented; fronts {:?}",
                    o.disp_id,
                    o.disp_sub,
                    (0..cfg.channels)
                        .map(|c| st.queue[c].front().map(|w| (w.id, st.split_left[c] > 0)))
                        .collect::<Vec<_>>()
                ),
            ));
        }
        let mut worst: Option<(usize, Violation)> = None;
        for c in fronts {
            match self.judge_on_channel(r, o, c) {
                Ok(v) => return Ok(v),
                Err((depth, v)) => {
                    if worst.as_ref().is_none_or(|(d, _)| depth > *d) {
                        worst = Some((depth, v));
                    }
                }
            }
        }
        Err(worst.unwrap().1)
    }

    /// [`judge_record`](Self::judge_record) for the front of channel `c`; an error carries its
    /// depth (how far the judgment got).
    fn judge_on_channel(
        &self,
        r: usize,
        o: &DispOut,
        c: usize,
    ) -> Result<Verdict, (usize, Violation)> {
        let cfg = &self.cfg;
        let st = &self.st;
        let h = self.timing.head_to_record;
        let v = |depth: usize, rule: &'static str, d: String| (depth, Violation::new(r, rule, d));
        let whole = *st.queue[c].front().unwrap();
        let split_entry = o.disp_sub && st.split_left[c] == 0;
        let wg = if o.disp_sub {
            whole.sub(cfg.prios)
        } else {
            whole
        };
        if split_entry {
            let thr_ok = (r.saturating_sub(2 * h + 2)..=r).any(|k| {
                self.snap(k).is_some_and(|sn| {
                    sn.threshold != 0 && st.g_hi as usize + h + 1 >= sn.threshold as usize
                })
            });
            if !(whole.indep && whole.waves >= 2) || !(thr_ok || st.split_ok[c]) {
                return Err(v(
                    10,
                    "split",
                    format!(
                        "first sub-WG of WG {} (independent {}, {} waves) without a failure run \
                         reaching SPLIT_THRESHOLD (lenient count {})",
                        whole.id, whole.indep, whole.waves, st.g_hi
                    ),
                ));
            }
        }
        if !o.disp_sub && st.must_split[c] == Some(whole.key) {
            return Err(v(
                10,
                "split",
                format!(
                    "WG {} dispatched whole although no head fitted anywhere for {} cycles \
                     while it was the front (threshold {}): it should have been split",
                    whole.id, st.front_fail[c].1, st.regs.threshold
                ),
            ));
        }
        let m = o.disp_module as usize;
        if m >= cfg.modules {
            return Err(v(10, "record-unfit", format!("module {m} out of range")));
        }
        let got = self.record_place(o, &wg);
        let want_waves = split(cfg.units, st.ptr[m], wg.waves);
        if got.waves != want_waves {
            return Err(v(
                10,
                "wave-split",
                format!(
                    "{} waves on module {m} (pointer {}) split {:?}, the rotated table gives \
                     {want_waves:?}",
                    wg.waves, st.ptr[m], got.waves
                ),
            ));
        }
        if let Some(why) = st.hi.not_free(cfg, &got) {
            return Err(v(10, "region-free", why));
        }
        let slot = o.disp_slot as usize;
        if slot >= cfg.slots || st.inflight[slot].is_some() {
            return Err(v(
                10,
                "slot",
                format!("slot {slot} is out of range or in flight"),
            ));
        }
        let mut worst: Option<(usize, Violation)> = None;
        let mut ok: Option<Verdict> = None;
        // the mark states of `ok`, for the union over legal (state, decision) points
        let mut ok_marks: HashSet<u32> = HashSet::new();
        let mut mark_memo: HashMap<MarkKey, MarkStep> = HashMap::new();
        let mut fail = |depth: usize, rule: &'static str, d: String| {
            if worst.as_ref().is_none_or(|(x, _)| depth > *x) {
                worst = Some((depth, Violation::new(r, rule, d)));
            }
        };
        for s in r.saturating_sub(h)..r {
            let Some(sn) = self.snap(s) else {
                fail(0, "record-head", format!("WG {} recorded before it could have been a head (no state point after the last reset)", wg.id));
                continue;
            };
            if !sn.queue[c].iter().any(|w| w.key == whole.key) {
                fail(
                    0,
                    "record-head",
                    format!(
                        "WG {} was not queued in cycle {s} (head → record ≤ {h})",
                        wg.id
                    ),
                );
                continue;
            }
            if self.recs_between(s, r - 1).any(|x| x.module == m) {
                fail(
                    1,
                    "record-unfit",
                    format!("module {m} had another allocation recorded after cycle {s}"),
                );
                continue;
            }
            // per decision cycle s, the same in both views: which modules were eligible, and
            // which had an allocation recorded after s
            let elig: Vec<bool> = (0..cfg.modules).map(|x| self.eligible(sn, x, r)).collect();
            let busy_mod: Vec<bool> = (0..cfg.modules)
                .map(|y| self.recs_between(s, r - 1).any(|rc| rc.module == y))
                .collect();
            // one view of the maps per judgment: settled, then optimistic
            for hi_view in [false, true] {
                let (maps, fitc) = if hi_view {
                    (&sn.hi, &sn.fit_hi)
                } else {
                    (&sn.lo, &sn.fit_lo)
                };
                if !maps.fits(cfg, m, sn.ptr[m], &wg) {
                    fail(
                        1,
                        "record-unfit",
                        format!("WG {} does not fit module {m} in cycle {s}", wg.id),
                    );
                    continue;
                }
                // the other channels' heads that surely fitted an eligible module at s, and those
                // that fitted anywhere
                let mut sure: Vec<(usize, Wg)> = vec![];
                let mut maybe: Vec<(usize, Wg)> = vec![];
                // a head fits in some view: on the optimistic maps of s, or, for a module with
                // an allocation recorded after s, on the current maps (with that allocation)
                let maybe_fits = |w: &Wg| {
                    (0..cfg.modules).any(|y| {
                        if busy_mod[y] {
                            st.hi.fits(cfg, y, st.ptr[y], w)
                        } else {
                            sn.hi.fits(cfg, y, sn.ptr[y], w)
                        }
                    })
                };
                for x in (0..cfg.channels).filter(|&x| x != c) {
                    let Some(f) = sn.front[x] else { continue };
                    // records of x after s: its head at s may already be one of the WGs behind
                    let n_rec = self
                        .recs_between(s, r - 1)
                        .filter(|rc| rc.channel == x)
                        .count();
                    if n_rec == 0
                        && !self.held_in(x, s, r)
                        && !self.may_enter_split(sn, x, r)
                        && (0..cfg.modules).any(|y| elig[y] && fitc[x][y])
                    {
                        sure.push((x, f));
                    }
                    // its head at the decision: the WG behind those recorded after s (they
                    // were decided before this record's decision)
                    let n_pop = self
                        .recs_between(s, r - 1)
                        .filter(|rc| rc.channel == x && rc.popped)
                        .count();
                    if n_pop == 0 {
                        if maybe_fits(&f) {
                            maybe.push((x, f));
                        }
                        if self.may_enter_split(sn, x, r) {
                            let sub = f.sub(cfg.prios);
                            if maybe_fits(&sub) {
                                maybe.push((x, sub));
                            }
                        }
                    } else if let Some(w) = sn.queue[x].get(n_pop) {
                        if maybe_fits(w) {
                            maybe.push((x, *w));
                        }
                    }
                }
                // modules that surely fit this WG
                let sure_mods: Vec<usize> = (0..cfg.modules)
                    .filter(|&y| y != m && elig[y] && maps.fits(cfg, y, sn.ptr[y], &wg))
                    .collect();
                for d in s..r {
                    let Some(dn) = self.snap(d) else { continue };
                    let rho = rank(wg.prio, dn.win);
                    if let Some((x, f)) = sure.iter().find(|(_, f)| rank(f.prio, dn.win) < rho) {
                        fail(
                            2,
                            "pick-priority",
                            format!(
                            "picked channel {c} (prio {}, rank {rho} in window {}); channel {x}'s \
                             head WG {} (prio {}) surely fitted in cycle {s}",
                            wg.prio, dn.win, f.id, f.prio
                        ),
                        );
                        continue;
                    }
                    // a42 over every mark state still possible and every tied set that is
                    // possible: `a` surely tied, `b` perhaps tied
                    let p = wg.prio;
                    let a: Vec<usize> = std::iter::once(c)
                        .chain(sure.iter().filter(|(_, f)| f.prio == p).map(|(x, _)| *x))
                        .collect();
                    let mut b: Vec<usize> = maybe
                        .iter()
                        .filter(|(x, f)| f.prio == p && !a.contains(x))
                        .map(|(x, _)| *x)
                        .collect();
                    b.sort_unstable();
                    b.dedup();
                    // the a42 step over every possible mark state depends on d only through the
                    // LFSR's start when the LFSR is judged exactly: computed once per (tied sets,
                    // start) of this record
                    let start = self.exact_lfsr.then(|| dn.lfsr as usize % cfg.channels);
                    let step = mark_memo
                        .entry((a.clone(), b.clone(), start))
                        .or_insert_with(|| mark_step(&st.marks[p], cfg.channels, c, &a, &b, start));
                    let Some((next, tie_kind)) = step.outcome.clone() else {
                        match step.lfsr_fail.clone() {
                            Some((legal, w)) => fail(
                                4,
                                "tie-lfsr",
                                format!(
                                    "picked channel {c} among {legal:?}; the LFSR ({:#06x}) of \
                                 cycle {d} scans to {w} (tied surely {a:?}, perhaps {b:?})",
                                    dn.lfsr
                                ),
                            ),
                            None => fail(
                                3,
                                "tie-mark",
                                format!(
                                    "picked channel {c} at prio {p}: the a42 marks allow it in no \
                                 possible state (tied surely {a:?}, perhaps {b:?}; state point \
                                 {s}, decision point {d})"
                                ),
                            ),
                        }
                        continue;
                    };
                    let (lo_m, hi_m) = self.score_range(dn.policy, m, d);
                    if let Some(&x) = sure_mods.iter().find(|&&x| {
                        let (_, hi_x) = self.score_range(dn.policy, x, d);
                        hi_x < lo_m || (x < m && hi_x <= lo_m)
                    }) {
                        fail(
                            5,
                            "module-policy",
                            format!(
                            "policy {} picks module {m} (score {:?}) over module {x} (score {:?}), \
                             which surely fitted in cycle {s}",
                            dn.policy,
                            (lo_m, hi_m),
                            self.score_range(dn.policy, x, d)
                        ),
                        );
                        continue;
                    }
                    let slot_ok = (d..r).any(|x| {
                        self.snap(x).is_some_and(|xn| {
                            let mut free = xn.free_slots;
                            for rc in self.recs_between(x, r - 1) {
                                free &= !(1u64 << rc.slot);
                            }
                            free != 0 && free.trailing_zeros() as usize == slot
                        })
                    });
                    if !slot_ok {
                        fail(
                            6,
                            "slot",
                            format!(
                                "slot {slot} was never the lowest free slot in cycles {d}..{r}"
                            ),
                        );
                        continue;
                    }
                    let bases = got.port_bases();
                    let ff = (s..r).find_map(|x| {
                        let xn = self.snap(x)?;
                        [&xn.lo, &xn.hi].into_iter().find_map(|maps| {
                            maps.place(cfg, m, xn.ptr[m], &wg)
                                .filter(|pl| pl.port_bases() == bases)
                        })
                    });
                    let Some(place) = ff else {
                        let want = sn.lo.place(cfg, m, sn.ptr[m], &wg).map(|p| p.port_bases());
                        fail(
                            7,
                            "first-fit",
                            format!(
                            "bases (VGPR, SGPR, LDS) {bases:?}; the lowest free starts in cycle \
                             {s} were {want:?}"
                        ),
                        );
                        continue;
                    };
                    let mut hits = vec!["record"];
                    if o.disp_sub {
                        hits.push("sub-WG record");
                    }
                    if split_entry {
                        hits.push("split");
                    }
                    if let Some(t) = tie_kind {
                        hits.push(t);
                    }
                    if sure.iter().any(|(_, f)| f.prio < wg.prio) {
                        hits.push("window promotion");
                    }
                    if !sure_mods.is_empty() {
                        hits.push(match dn.policy {
                            0 => "policy first",
                            1 => "policy max_weighted_free",
                            _ => "policy min_power_history",
                        });
                        if sure_mods.iter().any(|&x| x < m) {
                            hits.push("policy overrides first");
                        }
                        // every score of the choice known exactly (the maps stood still for the
                        // whole window): a wrong score decides the module on its own
                        let exact = |x: usize| {
                            let (lo, hi) = self.score_range(dn.policy, x, d);
                            lo == hi
                        };
                        if dn.policy == 1 && exact(m) && sure_mods.iter().all(|&x| exact(x)) {
                            hits.push("policy max_weighted_free, exact scores");
                        }
                    }
                    let at_end = |b: &[usize], n: &[usize], len: usize| {
                        b.iter()
                            .zip(n)
                            .any(|(&b, &n)| n > 0 && b > 0 && b + n == len)
                    };
                    if at_end(&place.vgpr_base, &place.vgpr_need, cfg.vgpr_blocks)
                        || at_end(&place.sgpr_base, &place.sgpr_need, cfg.sgpr_blocks)
                        || at_end(&[place.lds_base], &[place.lds_need], cfg.lds_blocks)
                    {
                        hits.push("region at the map end");
                    }
                    // every legal (state point, decision point) pair is kept: the mark states
                    // possible afterwards are the union over them
                    match ok.as_mut() {
                        None => {
                            ok_marks = next.iter().copied().collect();
                            ok = Some(Verdict {
                                channel: c,
                                place,
                                slot,
                                new_marks: next,
                                mark_prio: p,
                                split_entry,
                                hits,
                            })
                        }
                        Some(vd) => {
                            for ns in next {
                                if ok_marks.insert(ns) {
                                    vd.new_marks.push(ns);
                                }
                            }
                            vd.hits.retain(|h| hits.contains(h));
                        }
                    }
                }
            }
        }
        if let Some(vd) = ok {
            return Ok(vd);
        }
        Err(worst.unwrap_or_else(|| {
            (
                0,
                Violation::new(r, "record-head", "no state point in the window".to_string()),
            )
        }))
    }

    /// Take a judged record into the state.
    fn apply_record(&mut self, r: usize, vd: Verdict) {
        let cfg = self.cfg;
        let st = &mut self.st;
        let c = vd.channel;
        let m = vd.place.module;
        st.marks[vd.mark_prio] = vd.new_marks;
        let n: usize = vd.place.waves.iter().sum();
        st.ptr[m] = (st.ptr[m] + n) % cfg.units;
        st.hi.take(cfg.units, &vd.place);
        st.lo.take(cfg.units, &vd.place);
        st.changed[m] = Some(r);
        st.inflight[vd.slot] = Some(vd.place);
        if vd.split_entry {
            st.split_left[c] = st.queue[c].front().unwrap().waves;
        }
        let popped = if st.split_left[c] > 0 {
            st.split_left[c] -= 1;
            st.split_left[c] == 0 || self.gone_after_record[c]
        } else {
            true
        };
        if popped {
            st.split_left[c] = 0;
        }
        if popped {
            st.queue[c].pop_front();
            st.split_ok[c] = false;
        }
        st.must_split[c] = None;
        self.recs.push_back(Rec {
            cycle: r,
            channel: c,
            module: m,
            slot: vd.slot,
            popped,
            split_entry: vd.split_entry,
        });
        self.records += 1;
        for h in vd.hits {
            self.hit(h);
        }
    }

    /// The snapshot of the current state for cycle `k`.
    fn snapshot(&self, k: usize) -> Snap {
        let cfg = &self.cfg;
        let st = &self.st;
        let front: Vec<Option<Wg>> = (0..cfg.channels).map(|c| st.front(c, cfg.prios)).collect();
        let fit = |maps: &Maps| -> Vec<Vec<bool>> {
            front
                .iter()
                .map(|f| {
                    (0..cfg.modules)
                        .map(|m| f.is_some_and(|w| maps.fits(cfg, m, st.ptr[m], &w)))
                        .collect()
                })
                .collect()
        };
        Snap {
            cycle: k,
            queue: st
                .queue
                .iter()
                .map(|q| q.iter().copied().collect())
                .collect(),
            split_mode: st.split_left.iter().map(|&n| n > 0).collect(),
            fit_lo: fit(&st.lo),
            fit_hi: fit(&st.hi),
            held: (0..cfg.channels)
                .map(|c| self.held_later.contains(&(k, c)))
                .collect(),
            front,
            lo: st.lo.clone(),
            hi: st.hi.clone(),
            ptr: st.ptr.clone(),
            free_slots: (0..cfg.slots)
                .filter(|&s| st.inflight[s].is_none())
                .fold(0u64, |a, s| a | 1 << s),
            win: st.win,
            lfsr: st.lfsr,
            policy: st.regs.policy,
            threshold: st.regs.threshold,
            wf: (0..cfg.modules)
                .map(|m| {
                    let f = st.lo.counts(cfg.units, m);
                    std::array::from_fn(|h| -(st.regs.free_w[h] as i64 * f[h] as i64))
                })
                .collect(),
            pw: (0..cfg.modules)
                .map(|m| (st.pw_prev[m] + st.pw_cur[m]) as i64)
                .collect(),
            changed: st.changed.clone(),
        }
    }

    /// Work conservation and emb. 3's counters for state point `s` (needs the records up to
    /// s + H + 1).
    fn judge_state_point(&mut self, s: usize) -> Result<(), Violation> {
        let cfg = self.cfg;
        let h = self.timing.head_to_record;
        let k_ref = self.timing.refresh;
        let Some(sn) = self.snap(s) else {
            return Ok(());
        };
        let any_head = sn.front.iter().any(|f| f.is_some());
        let slot_free = sn.free_slots != 0;
        let stable: Vec<bool> = (0..cfg.modules)
            .map(|m| sn.changed[m].is_none_or(|c| c + k_ref <= s))
            .collect();
        let entered: Vec<usize> = self
            .recs_between(s, s + h + 1)
            .filter(|r| r.split_entry)
            .map(|r| r.channel)
            .collect();
        let sure_fit: Vec<usize> = (0..cfg.channels)
            .filter(|&c| {
                !self.held_in(c, s, s + h) && (0..cfg.modules).any(|m| stable[m] && sn.fit_lo[c][m])
            })
            .collect();
        // a held head: the decision counts no failure (emb. 3's counter holds)
        let any_held = sn.held.iter().any(|&h| h);
        // a cycle in which a held head exists counts no failure (the extension's contract: the
        // hold reads as a head replaced at the last edge, and emb. 3's counter holds then)
        let held_head = (0..cfg.channels).any(|c| sn.held[c] && sn.front[c].is_some());
        let obliged: Vec<usize> = sure_fit
            .iter()
            .copied()
            .filter(|&c| !entered.contains(&c) && !self.may_enter_split(sn, c, s + h))
            .collect();
        let recorded = self.recs_between(s, s + h).next().is_some();
        let recorded_now = self.recs.iter().any(|r| r.cycle == s);
        let any_fit_hi = sn.fit_hi.iter().flatten().any(|&b| b);
        let front = sn.front.clone();
        let threshold = sn.threshold;
        let first_obliged = obliged.first().map(|&c| (c, sn.front[c].unwrap().id));
        if !sure_fit.is_empty() && !slot_free {
            self.hit("every slot busy");
        }
        if slot_free && !obliged.is_empty() {
            if !recorded {
                let (c, id) = first_obliged.unwrap();
                return Err(Violation::new(
                    s + h,
                    "work-conserving",
                    format!(
                        "no record in cycles {}..={}, but in cycle {s} channel {c}'s head WG {id} \
                         surely fitted an eligible module and a slot was free",
                        s + 1,
                        s + h
                    ),
                ));
            }
            self.hit("work-conserving");
        }
        // emb. 3 counters
        let st = &mut self.st;
        if recorded_now {
            st.g_hi = 0;
        }
        if any_head && !held_head && (!slot_free || sure_fit.is_empty()) {
            st.g_hi = st.g_hi.saturating_add(1);
        }
        let fail_lo = any_head && !any_fit_hi;
        for (c, f) in front.iter().enumerate() {
            if let Some(w) = f {
                if threshold != 0
                    && st.g_hi as usize + 2 * h + 2 >= threshold as usize
                    && st.queue[c].front().is_some_and(|q| q.key == w.key)
                {
                    st.split_ok[c] = true;
                }
            }
        }
        // the split candidates of this failure run (any channel): SPEC step 8 splits *an*
        // independent head per threshold crossing and resets g, so with k candidates the last
        // one is split only after k crossings; one head per crossing (the full RTL: the lowest
        // stable channel) and every head at once (the board) both follow SPEC
        let run_on = !recorded_now && fail_lo;
        if !run_on {
            st.run_cands.clear();
        }
        for (c, f) in front.iter().enumerate() {
            if let Some(w) = f {
                if run_on
                    && w.indep
                    && w.waves >= 2
                    && st.split_left[c] == 0
                    && st.queue[c].front().is_some_and(|q| q.key == w.key)
                    && !st.run_cands.contains(&w.key)
                {
                    st.run_cands.push(w.key);
                }
            }
        }
        let crossings = st.run_cands.len().max(1);
        // per front: the sure failures counted while it was the front (the implementation's
        // counter may have restarted at a split attempt just before it arrived)
        for (c, f) in front.iter().enumerate() {
            let Some(w) = f else {
                st.front_fail[c] = (None, 0);
                continue;
            };
            if st.front_fail[c].0 != Some(w.key) {
                st.front_fail[c] = (Some(w.key), 0);
            }
            let n = &mut st.front_fail[c].1;
            if recorded_now || !fail_lo {
                *n = 0;
            } else if slot_free && !any_held {
                *n = n.saturating_add(1);
            }
            if threshold != 0
                && *n as usize >= crossings * (threshold as usize + 2 * h + 2)
                && w.indep
                && w.waves >= 2
                && st.split_left[c] == 0
                && st.queue[c].front().is_some_and(|q| q.key == w.key)
            {
                st.must_split[c] = Some(w.key);
            }
        }
        Ok(())
    }

    /// Judge the handshake of a push row (`lenient`: only the "refused with room" direction).
    fn judge_ready(&self, row: &ReadyRow, lenient: bool) -> Result<(), Violation> {
        let &(k, ch, ready, len) = row;
        let c = &self.cfg;
        if ch >= c.channels {
            return if ready {
                Ok(())
            } else {
                Err(Violation::new(
                    k,
                    "push-ready",
                    format!("push_ready low for channel {ch} (out of range: ready, then BAD_ID)"),
                ))
            };
        }
        let h = self.timing.head_to_record;
        let left = self
            .recs_between(k, k + h - 1)
            .filter(|r| r.channel == ch && r.popped)
            .count();
        if !ready && len < c.fifo_depth {
            return Err(Violation::new(
                k,
                "push-ready",
                format!(
                    "push_ready low for channel {ch}, which holds {len} of {} WGs",
                    c.fifo_depth
                ),
            ));
        }
        if ready && !lenient && len - left.min(len) >= c.fifo_depth {
            return Err(Violation::new(
                k,
                "push-ready",
                format!(
                    "push_ready high for channel {ch}, which holds {len} WGs ({left} leaving soon) \
                     of {}",
                    c.fifo_depth
                ),
            ));
        }
        Ok(())
    }

    /// The rising edge at the end of cycle `k` with inputs `i` (outputs `o`).
    fn edge(&mut self, k: usize, i: &DispIn, o: &DispOut) {
        let cfg = self.cfg;
        let push_ok = self.push_error(i).is_none();
        let max_policy = self.max_policy;
        let st = &mut self.st;
        // blocks reaching the settled view at k + 1
        let (now, later): (Vec<_>, Vec<_>) = std::mem::take(&mut st.settling)
            .into_iter()
            .partition(|(t, _)| *t <= k + 1);
        st.settling = later;
        for (_, pl) in now {
            st.lo.give(cfg.units, &pl, Some(&st.hi));
            st.changed[pl.module] = Some(k + 1);
        }
        if i.done_valid && (i.done_slot as usize) < cfg.slots {
            if let Some(pl) = st.inflight[i.done_slot as usize].take() {
                st.hi.give(cfg.units, &pl, None);
                if self.timing.free_latency <= 1 {
                    st.lo.give(cfg.units, &pl, Some(&st.hi));
                    st.changed[pl.module] = Some(k + 1);
                } else {
                    st.settling.push((k + self.timing.free_latency, pl));
                }
            }
        }
        let ch = i.push_channel as usize;
        if i.push_valid && ch < cfg.channels && o.push_ready && push_ok {
            st.pushed += 1;
            st.queue[ch].push_back(Wg {
                key: st.pushed,
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
        if i.cfg_we {
            let x = i.cfg_data & 0xFFFF;
            match i.cfg_addr {
                0 if x <= max_policy => st.regs.policy = x,
                1 => st.regs.threshold = x,
                2..=5 => st.regs.win_len[(i.cfg_addr - 2) as usize] = x,
                6 => st.regs.free_w = nibbles(x),
                7 => st.regs.power_w = nibbles(x),
                8 => st.regs.power_window = x,
                _ => {}
            }
        }
    }

    /// Forget history older than the windows need.
    fn prune(&mut self, k: usize) {
        let h = self.timing.head_to_record;
        let keep = 8 * self.cfg.modules + 4 * h + 8;
        while self.snaps.front().is_some_and(|s| s.cycle + keep < k) {
            self.snaps.pop_front();
        }
        while self.recs.front().is_some_and(|r| r.cycle + 4 * h + 8 < k) {
            self.recs.pop_front();
        }
        self.held_later.retain(|&(x, _)| x > k);
    }

    /// Everything judged at a reset or the end of a trace: the obligations whose window closed.
    fn close(&mut self) -> Result<(), Violation> {
        for row in std::mem::take(&mut self.ready_rows) {
            self.judge_ready(&row, true)?;
        }
        Ok(())
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

    fn check(&mut self, k: usize, i: &DispIn, o: &DispOut) -> Result<(), Violation> {
        if std::mem::take(&mut self.idle_next) && (o.disp_valid || o.error) {
            return Err(Violation::new(
                k,
                "reset-idle",
                format!("record or error in the cycle after a reset: {o:?}"),
            ));
        }
        judge_idle(k, o)?;
        if let Some((k0, want, what)) = self.want_error.take() {
            if o.error != (want != 0) || o.error_code != want {
                return Err(Violation::new(
                    k,
                    "error-code",
                    format!(
                        "error {} code {} for the requests of cycle {k0} ({what}), expected code \
                         {want}",
                        o.error, o.error_code
                    ),
                ));
            }
        }
        if o.error {
            const CODES: [&str; 6] = [
                "",
                "NEVER_FITS",
                "ZERO_WAVES",
                "BAD_ID",
                "IDLE_SLOT",
                "BAD_CFG",
            ];
            self.hit(CODES[(o.error_code as usize).min(5)]);
        }
        if o.disp_valid {
            let vd = self.judge_record(k, o)?;
            self.apply_record(k, vd);
        }
        self.record_channels = u64::MAX;
        let sn = self.snapshot(k);
        self.snaps.push_back(sn);
        // deferred judgments whose windows closed
        let h = self.timing.head_to_record;
        if let Some(s) = k.checked_sub(h + 1) {
            self.judge_state_point(s)?;
        }
        while self.ready_rows.front().is_some_and(|r| r.0 + h - 1 <= k) {
            let row = self.ready_rows.pop_front().unwrap();
            self.judge_ready(&row, false)?;
        }
        if i.reset {
            self.close()?;
            let w = self.expected_error(i, o);
            // the requests of the reset cycle are not served: only their error is visible? No:
            // a reset cancels them; the registered error of the cycle after a reset is idle.
            let _ = w;
            self.st = State::new(&self.cfg);
            // a reset changes every map (all free again): with K > 0 every module may be
            // treated as not fitting for K cycles after it (nothing changes at K = 0)
            self.st.changed = vec![Some(k + 1); self.cfg.modules];
            self.snaps.clear();
            self.held_later.clear();
            self.recs.clear();
            self.idle_next = true;
            self.want_error = None;
            return Ok(());
        }
        if i.push_valid {
            let ch = i.push_channel as usize;
            let len = self.st.queue.get(ch).map_or(0, |q| q.len());
            self.ready_rows.push_back((k, ch, o.push_ready, len));
            if !o.push_ready {
                self.hit("backpressure");
            }
        }
        let want = self.expected_error(i, o);
        self.want_error = Some((
            k,
            want,
            format!(
                "push {} done {} cfg {}",
                i.push_valid, i.done_valid, i.cfg_we
            ),
        ));
        self.edge(k, i, o);
        self.prune(k);
        Ok(())
    }

    /// Obligations still in their window at the end are not judged; the handshakes are judged
    /// in the direction that needs no future record.
    fn finish(&mut self, _cycles: usize) -> Result<(), Violation> {
        self.close()
    }
}

impl crate::unit::CheckedUnit for crate::dispatcher::DispatcherBoard {
    fn spec_checker() -> Box<dyn SpecChecker<In = DispIn, Out = DispOut>> {
        Box::new(DispatcherChecker::new(DispatcherConfig::board()))
    }
}

#[cfg(test)]
mod tests {
    use super::mark_step;
    use golden_model::dispatcher::eval::Rng;

    /// The a42 step of an implementation (any legal winner of its tied set `t`).
    fn a42(state: u32, t: &[usize], c: usize) -> u32 {
        let marked = |x: usize| state >> x & 1 == 1;
        if t.len() == 1 {
            state
        } else if t.iter().all(|&x| marked(x)) {
            t.iter()
                .filter(|&&x| x != c)
                .fold(state, |s, &x| s & !(1 << x))
        } else {
            state | 1 << c
        }
    }

    /// Per-priority mark sets keep the true state through 10^5 ambiguous ties on 4 channels (the
    /// checker sees a subset `a` of the tied set surely and the rest among `b` perhaps, with
    /// channels that were not tied), never hold more than 2^R states, and refuse a pick the
    /// known state forbids.
    #[test]
    fn mark_sets_keep_the_true_state_and_stay_small() {
        let rr = 4;
        let mut rng = Rng::new(13);
        let mut truth = [0u32; 4];
        let mut sets: Vec<Vec<u32>> = vec![vec![0]; 4];
        for step in 0..100_000 {
            let p = rng.range(0, 3);
            let t: Vec<usize> = (0..rr).filter(|_| rng.chance(0.6)).collect();
            if t.is_empty() {
                continue;
            }
            let unmarked: Vec<usize> = t
                .iter()
                .copied()
                .filter(|&x| truth[p] >> x & 1 == 0)
                .collect();
            let legal = if t.len() == 1 || unmarked.is_empty() {
                t.clone()
            } else {
                unmarked
            };
            let c = legal[rng.range(0, legal.len() - 1)];
            let a: Vec<usize> = std::iter::once(c)
                .chain(t.iter().copied().filter(|&x| x != c && rng.chance(0.5)))
                .collect();
            let b: Vec<usize> = (0..rr)
                .filter(|x| !a.contains(x) && (t.contains(x) || rng.chance(0.3)))
                .collect();
            let next = a42(truth[p], &t, c);
            let step_out = mark_step(&sets[p], rr, c, &a, &b, None);
            let (states, _) = step_out
                .outcome
                .unwrap_or_else(|| panic!("step {step}: a legal pick refused"));
            assert!(
                states.contains(&next),
                "step {step}: true state {next:#06b} lost"
            );
            assert!(
                states.len() <= 1 << rr,
                "step {step}: {} states",
                states.len()
            );
            truth[p] = next;
            sets[p] = states;
        }
        // known marks: channel 0 marked, 3 not, both surely tied: picking 0 is refused
        assert!(mark_step(&[0b0001], rr, 0, &[0, 3], &[], None)
            .outcome
            .is_none());
        assert!(mark_step(&[0b0001], rr, 3, &[3, 0], &[], None)
            .outcome
            .is_some());
    }
}
