//! System spec checker of the GPU scheduling front-end (SPEC Unit 8, ports in the module doc of
//! `golden_model::gpu_frontend`), written from SPEC Unit 8 and the port table alone.
//!
//! It judges any trace of the `gpu_frontend` ports (composed model, RustHDL, Verilator, board)
//! together with the inputs the compute modules drove. Its own state is what the ports imply:
//! the kernels accepted and not yet done (by class and kid, with their WG count), the records in
//! flight (by dispatcher slot: tag, WG index, attempt), per kernel tag the WGs of its current
//! attempt, the open obligations (an error, the end of a reclaim). It never reads a unit's
//! register and never asks which tracker slot holds which kernel: a kernel's WGs are found by
//! their tag `{class, kslot}` and their index.
//!
//! Which tag (exact as far as the ports allow): `kernel_done` names the kernel {kid, class},
//! records and completions name the tag {class, kslot}, and no port of the top pairs a kid with
//! its kslot (the expander picks the slot inside; a BE kernel reaches it through Unit 4's
//! submissions, whose timing is not on the ports either). So at `kernel_done` the candidates
//! are the tags of its class whose current attempt is complete with exactly its WG count; with
//! one candidate that attempt ends. With several the done stays pending: a later record of a
//! candidate tag either repeats a WG index its complete attempt already ended (the slot holds a
//! new kernel: that attempt was a done kernel's) or adds a new index (the tag still runs its
//! kernel: no candidate). `done-complete` fires as soon as the pending dones cannot all get
//! distinct candidate attempts (a bipartite matching), never on a guess. A skip ends its tag's
//! attempt as the skipped kernel's (its first record raised the entry check in that slot; its
//! WGs may have completed before the answer): no done may take it. A CU reset keeps a
//! complete attempt as a candidate of the dones already pending only.
//!
//! A slot may take its next kernel before the old one's `kernel_done` reaches the port (the
//! done travels through the expander's report and Unit 4): a record that repeats a WG of a
//! complete attempt closes that attempt, which a `kernel_done` of its class and WG count
//! (pending, or within [`SysConfig::done_lag`] cycles) must claim (`wg-twice` otherwise).
//! Closed attempts are candidates in the same matching as the current ones: a pair is tied
//! only when forced (one candidate; one claimant of an attempt past its window; a claimant
//! whose candidates are among every other claimant's, which loses nothing).
//!
//! Within a cycle: records first, then the completion (a slot is in flight from the cycle its
//! record is visible, SPEC Unit 3's port contract), then `kernel_done`.
//!
//! Attempts: a tag's attempt ends at `kernel_done` (the kernel left), at `kernel_skip {kslot}`
//! (BE) and at `cu_reset` (every BE tag). Records of an ended attempt may still come out for
//! [`SysConfig::orphan_window`] cycles (decided before the skip or the reset reached the
//! dispatcher: Unit 3's head → record pipeline plus the front-end's withdraw register); they are
//! the attempt's orphans, judged only for their slots. Later records start the tag's next
//! attempt.
//!
//! Which records of a skip's window are orphans (since session 7): the skipped kernel's WGs
//! entered the BE channel in index order and leave its one FIFO in that order (the withdraw
//! pops the run at the head; a WG decided before still gets its record), so an orphan
//! continues the skipped attempt: the WG after its last recorded one, or that WG again while
//! its dispatch has not ended (sub-WGs). Any other record is the tag's next kernel's: the
//! expander frees a skipped entry as soon as nothing of it is queued or live, a kernel
//! resubmitted into that slot may have its WG 0 recorded inside the window (seed 69 of the
//! registry stream: 8 cycles after the skip), and no orphan can follow it (the entry was free).
//! It starts the next attempt and ends the window; `orphan-order` if it is not WG 0. In a CU
//! reset's window (also a skip's window that a reset reaches) every record stays an orphan: a
//! killed kernel's entry is freed only by `killed` after the reclaim walk, later than the
//! window, and a killed kernel may have entered its slot after the old kernel's done with no
//! record yet, so its WG 0 repeats a WG of the attempt the reset ended (seed 64).
//!
//! Rules, each with its name:
//! - `launch-error`: a launch taken (`launch_valid` ∧ `launch_ready`) with WG count 0 gets
//!   `error` code 2 `ZERO_WGS`, a shape with 0 waves or one that fits no empty module code 1
//!   `NEVER_FITS` (both: 1), exactly one cycle later; `error-unexpected`: `error` with no such
//!   launch (or bad register write) one cycle before;
//! - `dup-error`: a launch of a kid that a kernel of the same class still holds (accepted, no
//!   `kernel_done` yet) gets `DUP_ID` (code 1) on the class's unit port (`exp_error` RT,
//!   `pc_error` BE) before the next launch is answered (by one cycle after the next launch
//!   taken: the launch register hands its kernel on before it takes the next, and both units
//!   answer in t+1)
//!   or by the end of a drained trace — unless that kernel finishes first (then the launch may
//!   be taken as a new kernel: past its deadline without `DUP_ID` it owes nothing and takes no
//!   later launch's `DUP_ID`); nothing else changes (the held kernel completes once with its
//!   own WG count);
//! - `unit-error`: no other unit error strobes, except `BAD_STATE`/`BAD_CFG` (Unit 4) within
//!   two cycles of a host `preempt`/`resume` while `AUTO_PREEMPT` = 0 (the host's strobes are
//!   ignored otherwise) or of a write to `MAX_INFLIGHT` or `AUTO_PREEMPT`, the dispatcher's
//!   `BAD_CFG` within two cycles of a write to its registers (0x00–0x0F), and `IDLE_SLOT`
//!   (dispatcher, code 4) one cycle after a completion of a slot not in flight
//!   (`bad-cpl-error`: it must come);
//! - `done-once`: `kernel_done {kid, class}` only for a kernel held (accepted, not done);
//! - `done-complete`: at `kernel_done` some tag of its class holds a complete attempt: WGs
//!   0..wgs−1 each dispatched once (its last record seen) and every record of the attempt
//!   completed — all WGs in one attempt — and the kernels reported done can each have their
//!   own such attempt ("Which tag" above);
//! - `wg-twice`: a record (not an orphan) of a WG whose dispatch already ended in its tag's
//!   current attempt;
//! - `orphan-order`: a record in a skip's orphan window that is neither the skipped attempt's
//!   next WG nor WG 0 (the first record of the tag's next kernel);
//! - `slot-busy`: a record names a slot still in flight (not completed, not reclaimed);
//!   `rt-reclaimed`: that slot holds an RT WG, or a completion of an RT WG's slot is refused —
//!   an RT WG is never reclaimed;
//! - `reclaim-bound`: after a `cu_reset_done` taken with no reclaim running, `reclaim_busy` is
//!   low again within table size + 2 cycles; every BE WG in flight at the confirmation is free
//!   from then on (its slot may be named again);
//! - `reset-idem`: a `cu_reset` needs at least one held BE kernel launched idempotent while
//!   `RESET_ENABLE` = 1 — read when the kernel enters Unit 4 (the launch register's hand-over,
//!   not on the ports: any cycle from its acceptance to the next cycle `launch_ready` is high)
//!   (with none, a CU reset would kill work that may not be re-run), or one
//!   that reported `kernel_done` at most [`SysConfig::reset_lag`] cycles before (Unit 4's
//!   registered decision sees the done later);
//! - `alloc-bound`: the waves of the records in flight on a unit of a module (the record's
//!   `disp_waves`; a slot is in flight as for `slot-busy`) never exceed its wave slots, and a
//!   whole WG's regions lie inside their maps; `alloc-overlap`: a whole WG's regions meet no
//!   other whole WG's in flight on its module. A region is `[base, base + need)`; the ports
//!   do not pair a tag with a kernel, so the need is a lower bound: waves × the least VGPR /
//!   SGPR need per wave (LDS need per WG) over the good launches of the record's class with
//!   more WGs than its index that may still have records (not done, or done at most
//!   `SHAPE_KEEP` cycles before). Two equal non-zero bases of one map always overlap (an
//!   empty region's base is 0). Sub-WG records count for the wave slots only;
//! - `preempt-cause`: Unit 4's `preempted` rises only for a cause (SPEC Unit 8's preemption
//!   policy, "an RT launch while BE work is in flight raises `preempt`", and the host's
//!   `preempt` while `AUTO_PREEMPT` = 0): within [`SysConfig::policy_lag`] cycles before it
//!   either `AUTO_PREEMPT` was 1, an RT kernel was held (accepted, no `kernel_done` yet) and a
//!   BE kernel was held, or `AUTO_PREEMPT` was 0 and the host strobed `preempt`;
//!   `resume-cause`: it falls only when, within that many cycles, `AUTO_PREEMPT` was 1 and no RT
//!   kernel was held ("when no RT kernel is queued or running, `resume`"), or `AUTO_PREEMPT` was
//!   0 and the host strobed `resume` (nothing else clears Unit 4's flag; a reset restarts the
//!   checker); `preempt-due`: `preempted` is high once, for more than that many cycles plus 2
//!   in a row (the launch register, the policy's registered strobe and Unit 4's flag make 3
//!   from a launch's acceptance, a resume under way one more), `AUTO_PREEMPT` was 1 (not
//!   written), an RT kernel was held and a WG of a BE kernel's current attempt was in flight
//!   (its kernel runs in Unit 4: a skip or a CU reset ends the attempt);
//! - `idle-fields-zero`: every output field is 0 while its valid is low;
//! - `drained` ([`SystemSpec::finish_drained`], after a quiet end of a trace): every kernel
//!   accepted completed, no record in flight, no error owed — nothing accepted was dropped and
//!   every resource came back.

use crate::spec::{SpecChecker, Violation};
use golden_model::gpu_frontend::{GfIn, GfOut};
use std::collections::{BTreeMap, HashMap, HashSet};

mod check;

/// A field of the record, `kernel_done` or `kernel_skip` stream is not 0 while its valid is low
/// (the port contract's idle rule for the three output streams; the error ports are judged
/// beside it by their callers).
pub fn stream_field_set_while_idle(o: &GfOut) -> bool {
    (!o.disp_valid
        && (o.disp_id
            | o.disp_module
            | o.disp_slot
            | o.disp_waves
            | o.disp_vgpr_base
            | o.disp_sgpr_base
            | o.disp_lds_base
            | o.disp_class
            | o.disp_kslot
            != 0
            || o.disp_sub
            || o.disp_last))
        || (!o.kernel_done_valid && (o.kernel_done_kid | o.kernel_done_class) != 0)
        || (!o.kernel_skip_valid && o.kernel_skip_slot != 0)
}

/// Register addresses of the front-end (port table).
const ADDR_MAX_INFLIGHT: u32 = 0x10;
const ADDR_AUTO_PREEMPT: u32 = 0x11;
const ADDR_RESET_ENABLE: u32 = 0x12;

/// What the checker needs to know of the composition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SysConfig {
    /// In-flight table slots of the dispatcher.
    pub slots: usize,
    /// Compute module: units, wave slots per unit, VGPR / SGPR blocks per unit, LDS blocks.
    pub units: u32,
    pub wave_slots: u32,
    pub vgpr_blocks: u32,
    pub sgpr_blocks: u32,
    pub lds_blocks: u32,
    /// BE kernel tags (`disp_kslot` values of class 1: the expander's BE tracker slots).
    pub be_kslots: u32,
    /// Cycles after a skip or a CU reset during which records of the ended attempt may appear.
    pub orphan_window: usize,
    /// Cycles a slot may take a new kernel before its old kernel's `kernel_done` shows (the done
    /// travels through the expander's report and Unit 4, a new kernel's first record through
    /// the dispatcher).
    pub done_lag: usize,
    /// Cycles after an idempotent BE kernel's `kernel_done` during which a `cu_reset` may still
    /// be for it (Unit 4 decides the registered `cu_reset` on its own view, which sees the
    /// done later than the port).
    pub reset_lag: usize,
    /// Cycles from a cause of Unit 4's `preempted` changing (a host strobe, the policy's view
    /// of the kernels held) to the change on the port (`preempt-cause`, `resume-cause`;
    /// `preempt-due` allows 2 more).
    pub policy_lag: usize,
}

impl SysConfig {
    /// The board composition (dispatcher board config: 8 slots, 2 units × 4 wave slots, 16
    /// VGPR / 8 SGPR blocks per unit, 16 LDS blocks).
    pub const fn board() -> Self {
        Self {
            slots: 8,
            units: 2,
            wave_slots: 4,
            vgpr_blocks: 16,
            sgpr_blocks: 8,
            lds_blocks: 16,
            be_kslots: 8,
            orphan_window: 8,
            reset_lag: 2,
            done_lag: 16,
            policy_lag: 4,
        }
    }
    /// SPEC Unit 8's reclaim bound: table size + 2 cycles.
    pub const fn reclaim_bound(&self) -> usize {
        self.slots + 2
    }
    fn fits_empty(&self, waves: u32, vgpr: u32, sgpr: u32, lds: u32) -> bool {
        let q = waves.div_ceil(self.units);
        waves > 0
            && q <= self.wave_slots
            && q * vgpr <= self.vgpr_blocks
            && q * sgpr <= self.sgpr_blocks
            && lds <= self.lds_blocks
    }
}

/// One WG of a tag's attempt.
#[derive(Clone, Copy, Debug, Default)]
struct WgAt {
    records: u32,
    completed: u32,
    ended: bool,
}

/// A kernel tag's current attempt.
#[derive(Clone, Debug, Default)]
struct Attempt {
    gen: u64,
    wgs: BTreeMap<u32, WgAt>,
    /// Orphans of the ended attempt may appear until this cycle (inclusive).
    orphans_until: Option<usize>,
    /// `Some(i)`: the window is a skip's (no CU reset in it) and an orphan must be WG `i` of
    /// the skipped attempt (its WGs come out in index order: the last one again while its
    /// dispatch has not ended, a sub-WG, else the next); a record of any other WG is the next
    /// attempt's and ends the window (`orphan-order`). `None`: every record in the window is
    /// an orphan (a CU reset's window, or a skipped attempt the checker saw no record of).
    expect: Option<u32>,
    /// The cycle of the attempt's latest completion.
    last_cpl: usize,
}

/// A record in flight.
#[derive(Clone, Copy, Debug)]
struct InFlight {
    class: u32,
    kslot: u32,
    idx: u32,
    /// Attempt generation of its tag (None: an orphan).
    gen: Option<u64>,
    /// What the record allocated, as far as the ports tell.
    alloc: Alloc,
}

/// A record's allocation: its module, waves per unit and bases (the record's fields), and lower
/// bounds of its needs — the least VGPR / SGPR need per wave and LDS need per WG over every
/// kernel of its class it may belong to ([`SystemSpec::need_floor`]; the ports do not pair a
/// record's tag with a kernel).
#[derive(Clone, Copy, Debug, Default)]
struct Alloc {
    module: u32,
    sub: bool,
    waves: [u32; 2],
    vbase: [u32; 2],
    sbase: [u32; 2],
    lbase: u32,
    /// Lower bounds: VGPR and SGPR blocks per wave, LDS blocks per WG.
    floor: (u32, u32, u32),
}

impl Alloc {
    /// Block ranges `[base, base + need)` of unit `u`'s VGPR and SGPR maps and of the module's
    /// LDS map, from the lower bounds (empty when a bound is 0).
    fn vgpr(&self, u: usize) -> (u32, u32) {
        (self.vbase[u], self.vbase[u] + self.waves[u] * self.floor.0)
    }
    fn sgpr(&self, u: usize) -> (u32, u32) {
        (self.sbase[u], self.sbase[u] + self.waves[u] * self.floor.1)
    }
    fn lds(&self) -> (u32, u32) {
        (self.lbase, self.lbase + self.floor.2)
    }
}

/// A good launch taken (a kernel some later record may belong to), with its shape.
#[derive(Clone, Copy, Debug)]
struct Shape {
    key: (u32, u32),
    wgs: u32,
    vgpr: u32,
    sgpr: u32,
    lds: u32,
    /// The cycle its kid's `kernel_done` came (its records are over some cycles later).
    done: Option<usize>,
}

/// Cycles a shape stays a candidate after its kernel's `kernel_done` (orphan records of a
/// skip or a reset come within a few cycles; a generous margin).
const SHAPE_KEEP: usize = 4096;

/// A kernel held (accepted, not done).
#[derive(Clone, Copy, Debug)]
struct Held {
    wgs: u32,
    /// Launched idempotent with `RESET_ENABLE` = 1 when it entered Unit 4 (maybe: see
    /// `entry_open`).
    idem: bool,
    accepted: usize,
    /// Launched idempotent and maybe not in Unit 4 yet: the glue's launch register hands the
    /// kernel on — reading `RESET_ENABLE` then, not at the acceptance — in a cycle the ports do
    /// not show, at the latest by the next cycle `launch_ready` is high. While open, a
    /// `RESET_ENABLE` of 1 makes the kernel (maybe) idempotent.
    entry_open: bool,
}

/// A `kernel_done` whose attempt the ports do not name yet: the complete attempts (by their
/// generation) of its class and WG count that it may be (each a possible home of the kernel).
#[derive(Clone, Debug)]
struct PendingDone {
    kernel: (u32, u32),
    cycle: usize,
    cands: Vec<u64>,
}

/// A complete attempt that is no longer its tag's current one and that a `kernel_done` may
/// still claim (a node of the done ↔ attempt matching beside the tags' current attempts).
#[derive(Clone, Copy, Debug)]
struct Closed {
    tag: (u32, u32),
    wgs: u32,
    /// The cycle it ended.
    at: usize,
    /// Ended by a record of a new kernel in its slot: some `kernel_done` must claim it within
    /// [`SysConfig::done_lag`] cycles. Otherwise ended by a CU reset: only a done already
    /// pending may take it (a kernel killed before its report is never reported).
    must: bool,
}

/// Whether every left item can have its own right item: `lists[i]` names the right items item
/// `i` may take (augmenting paths; a handful of entries).
fn saturates(lists: &[Vec<u64>]) -> bool {
    fn augment(
        lists: &[Vec<u64>],
        i: usize,
        seen: &mut HashSet<u64>,
        owner: &mut HashMap<u64, usize>,
    ) -> bool {
        for &t in &lists[i] {
            if !seen.insert(t) {
                continue;
            }
            let free = match owner.get(&t) {
                None => true,
                Some(&j) => augment(lists, j, seen, owner),
            };
            if free {
                owner.insert(t, i);
                return true;
            }
        }
        false
    }
    let mut owner = HashMap::new();
    (0..lists.len()).all(|i| augment(lists, i, &mut HashSet::new(), &mut owner))
}

/// A DUP_ID owed.
#[derive(Clone, Copy, Debug)]
struct DupOwed {
    class: u32,
    kid: u32,
    launched: usize,
    deadline: Option<usize>,
    /// The held kernel finished meanwhile: the launch may have been taken as new.
    ambiguous: bool,
    /// The kid's entry in `maybe` stands for this launch (its held kernel finished after it):
    /// a `DUP_ID` removes it. A launch of a kid already in `maybe` does not own it: its
    /// `DUP_ID` shows that the earlier launch was taken as a kernel, which stays.
    owns: bool,
}

/// What `preempt-cause`, `resume-cause` and `preempt-due` read: the last cycle (as far as the
/// ports tell) `AUTO_PREEMPT` was 1 and was 0, the host's last `preempt` and `resume` strobes, the last
/// cycle an RT kernel was held and the last one none was, the last cycle a BE kernel was held,
/// and the previous cycle's `preempted`.
#[derive(Clone, Copy, Debug)]
struct PolicyView {
    auto: bool,
    auto_on: Option<usize>,
    auto_off: Option<usize>,
    host_preempt: Option<usize>,
    host_resume: Option<usize>,
    rt_held: Option<usize>,
    rt_none: Option<usize>,
    be_held: Option<usize>,
    preempted: bool,
    /// `preempt-due`: the first cycle of the current run of cycles in which `AUTO_PREEMPT` was
    /// 1 (no write to it), an RT kernel was held and a WG of a BE kernel's current attempt was
    /// in flight.
    due_since: Option<usize>,
}

impl Default for PolicyView {
    /// After a reset: `AUTO_PREEMPT` = 1, not preempted, nothing seen yet.
    fn default() -> Self {
        Self {
            auto: true,
            auto_on: None,
            auto_off: None,
            host_preempt: None,
            host_resume: None,
            rt_held: None,
            rt_none: None,
            be_held: None,
            preempted: false,
            due_since: None,
        }
    }
}

/// Counters of what the checker judged (so a test can assert that the rules had work).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SysStats {
    pub launches: u64,
    pub bad_launches: u64,
    pub dups: u64,
    pub kernels_done: [u64; 2],
    pub records: u64,
    pub orphans: u64,
    /// Records that started a tag's next attempt inside the orphan window of its skip.
    pub window_starts: u64,
    pub completions: u64,
    pub skips: u64,
    pub resets: u64,
    pub reclaims: u64,
    pub reclaimed_slots: u64,
    pub bad_completions: u64,
    /// Cycles `preempted` rose and fell (judged by `preempt-cause`, `resume-cause`).
    pub preempts: u64,
    pub resumes: u64,
}

/// The system checker.
#[derive(Clone, Debug)]
pub struct SystemSpec {
    cfg: SysConfig,
    held: HashMap<(u32, u32), Held>,
    /// Kids whose duplicate launch may have been taken as a new kernel.
    maybe: HashSet<(u32, u32)>,
    attempts: HashMap<(u32, u32), Attempt>,
    next_gen: u64,
    flight: HashMap<u32, InFlight>,
    /// error code owed in a given cycle (front-end `error`).
    gf_error_due: Option<(usize, u32)>,
    /// cycles in which `error` BAD_CFG is expected (bad register write).
    cfg_error_due: Option<usize>,
    /// Unit 4 errors tolerated up to this cycle (host commands, register writes).
    pc_tolerate_until: Option<usize>,
    /// The dispatcher's `BAD_CFG` tolerated up to this cycle (a write to its registers).
    disp_tolerate_until: Option<usize>,
    dups: Vec<DupOwed>,
    /// `kernel_done`s not yet tied to a tag (see the module doc, "Which tag").
    pending: Vec<PendingDone>,
    /// The previous cycle's completion: (cycle, class of the WG in flight, None: not in flight).
    cpl_prev: Option<(usize, Option<u32>)>,
    reclaim_until: Option<usize>,
    reset_enable: bool,
    /// Complete attempts ended before a `kernel_done` was tied to them, by generation.
    closed: BTreeMap<u64, Closed>,
    /// The last `kernel_done` of an idempotent BE kernel.
    idem_done: Option<usize>,
    /// Shapes of the kernels records may belong to (`alloc-bound`, `alloc-overlap`).
    shapes: Vec<Shape>,
    /// `preempt-cause`, `resume-cause`, `preempt-due`.
    policy: PolicyView,
    pub stats: SysStats,
}

impl SystemSpec {
    pub fn new(cfg: SysConfig) -> Self {
        Self {
            cfg,
            held: HashMap::new(),
            maybe: HashSet::new(),
            attempts: HashMap::new(),
            next_gen: 1,
            flight: HashMap::new(),
            gf_error_due: None,
            cfg_error_due: None,
            pc_tolerate_until: None,
            disp_tolerate_until: None,
            dups: vec![],
            pending: vec![],
            cpl_prev: None,
            reclaim_until: None,
            reset_enable: true,
            idem_done: None,
            closed: BTreeMap::new(),
            shapes: vec![],
            policy: PolicyView::default(),
            stats: SysStats::default(),
        }
    }

    /// The board composition.
    pub fn board() -> Self {
        Self::new(SysConfig::board())
    }

    /// The least VGPR / SGPR need per wave and LDS need per WG over the kernels of `class`
    /// that a record of WG `idx` may belong to (every good launch taken since the reset with
    /// more than `idx` WGs whose kid's `kernel_done` is not older than [`SHAPE_KEEP`] cycles);
    /// 0 when none is known.
    fn need_floor(&self, class: u32, idx: u32) -> (u32, u32, u32) {
        let mut it = self
            .shapes
            .iter()
            .filter(|x| x.key.0 == class && x.wgs > idx)
            .peekable();
        if it.peek().is_none() {
            return (0, 0, 0);
        }
        it.fold((u32::MAX, u32::MAX, u32::MAX), |a, x| {
            (a.0.min(x.vgpr), a.1.min(x.sgpr), a.2.min(x.lds))
        })
    }

    /// `alloc-bound` and `alloc-overlap` for a record about to enter flight: wave slots per
    /// unit, and (whole WGs) the lower-bound ranges inside the maps and disjoint from every
    /// other whole WG in flight on the same module.
    fn check_alloc(&self, a: &Alloc) -> Result<(), (&'static str, String)> {
        let c = &self.cfg;
        for u in 0..2 {
            let used: u32 = self
                .flight
                .values()
                .filter(|f| f.alloc.module == a.module)
                .map(|f| f.alloc.waves[u])
                .sum();
            if used + a.waves[u] > c.wave_slots {
                return Err((
                    "alloc-bound",
                    format!(
                        "{} waves on unit {u} of module {} with {used} in flight ({} slots)",
                        a.waves[u], a.module, c.wave_slots
                    ),
                ));
            }
        }
        if a.sub {
            return Ok(());
        }
        let over = |r: (u32, u32), n: u32| r.1 > r.0 && r.1 > n;
        for u in 0..2 {
            if over(a.vgpr(u), c.vgpr_blocks) || over(a.sgpr(u), c.sgpr_blocks) {
                return Err(("alloc-bound", format!("allocation beyond a map: {a:?}")));
            }
        }
        if over(a.lds(), c.lds_blocks) {
            return Err(("alloc-bound", format!("LDS beyond the map: {a:?}")));
        }
        let meet = |x: (u32, u32), y: (u32, u32)| x.1 > x.0 && y.1 > y.0 && x.0 < y.1 && y.0 < x.1;
        for (s, f) in &self.flight {
            let b = &f.alloc;
            if b.sub || b.module != a.module {
                continue;
            }
            // a region's base is 0 when it is empty, so two equal non-zero bases of one map
            // are two regions holding the same block, whatever the needs
            let same = |x: u32, y: u32, wx: u32, wy: u32| x != 0 && x == y && wx > 0 && wy > 0;
            let hit = (0..2).any(|u| {
                meet(a.vgpr(u), b.vgpr(u))
                    || meet(a.sgpr(u), b.sgpr(u))
                    || same(a.vbase[u], b.vbase[u], a.waves[u], b.waves[u])
                    || same(a.sbase[u], b.sbase[u], a.waves[u], b.waves[u])
            }) || meet(a.lds(), b.lds())
                || same(a.lbase, b.lbase, 1, 1);
            if hit {
                return Err((
                    "alloc-overlap",
                    format!("record {a:?} overlaps the WG in flight in slot {s}: {b:?}"),
                ));
            }
        }
        Ok(())
    }

    /// Kernels accepted and not yet done.
    pub fn held(&self) -> usize {
        self.held.len()
    }

    /// Records in flight (not completed, not reclaimed).
    pub fn in_flight(&self) -> usize {
        self.flight.len()
    }

    fn new_attempt(&mut self, tag: (u32, u32), orphans_until: Option<usize>) {
        let gen = self.next_gen;
        self.next_gen += 1;
        self.attempts.insert(
            tag,
            Attempt {
                gen,
                wgs: BTreeMap::new(),
                orphans_until,
                expect: None,
                last_cpl: 0,
            },
        );
    }

    fn attempt(&mut self, tag: (u32, u32)) -> &mut Attempt {
        if !self.attempts.contains_key(&tag) {
            self.new_attempt(tag, None);
        }
        self.attempts.get_mut(&tag).unwrap()
    }

    /// The WG count of tag `t`'s current attempt if it is complete: WGs 0..n−1 each dispatched
    /// once (last record seen) and every record of it completed.
    fn complete_wgs(&self, t: (u32, u32)) -> Option<u32> {
        let a = self.attempts.get(&t)?;
        let ok = a.orphans_until.is_none()
            && !a.wgs.is_empty()
            && a.wgs.keys().copied().eq(0..a.wgs.len() as u32)
            && a.wgs.values().all(|w| w.ended && w.completed == w.records)
            && !self
                .flight
                .values()
                .any(|f| (f.class, f.kslot) == t && f.gen == Some(a.gen));
        ok.then_some(a.wgs.len() as u32)
    }

    /// Attempt `gen` is no pending done's candidate any more.
    fn drop_candidate(&mut self, gen: u64) {
        for d in &mut self.pending {
            d.cands.retain(|&x| x != gen);
        }
    }

    /// A pending done is tied to attempt `gen`: a closed attempt is gone; a tag's current
    /// attempt ends there (the tag's next records start a new one).
    fn bind(&mut self, gen: u64) {
        self.drop_candidate(gen);
        if self.closed.remove(&gen).is_none() {
            let tag = self
                .attempts
                .iter()
                .find(|(_, a)| a.gen == gen)
                .map(|(t, _)| *t);
            if let Some(t) = tag {
                self.new_attempt(t, None);
            }
        }
    }

    /// Whether closed attempt `n` had to be claimed by now (`all_due`: the trace ended).
    fn due(&self, n: &Closed, cycle: usize, all_due: bool) -> bool {
        n.must && (all_due || cycle > n.at + self.cfg.done_lag)
    }

    /// The done ↔ attempt matching (module doc, "Which tag"). Every pending done needs its own
    /// candidate attempt (`done-complete`), every closed attempt past its `done_lag` needs its
    /// own pending done (`wg-twice`); both at once exist when each does on its own (a bipartite
    /// graph has a matching covering a set of left and a set of right nodes when it has one for
    /// each, Mendelsohn–Dulmage). Pairs left with one way are tied; a part of the graph that
    /// nothing can change any more (only closed attempts past their window or ended by a reset)
    /// is settled and dropped. Nothing is tied on a guess.
    fn settle(&mut self, cycle: usize, all_due: bool) -> Result<(), Violation> {
        loop {
            if let Some(d) = self.pending.iter().find(|d| d.cands.is_empty()) {
                return Err(Violation::new(
                    cycle,
                    "done-complete",
                    format!(
                        "kernel_done of {:?} in cycle {}: no attempt of its class is left that \
                         held all its WGs completed in one attempt",
                        d.kernel, d.cycle
                    ),
                ));
            }
            let lists: Vec<Vec<u64>> = self.pending.iter().map(|d| d.cands.clone()).collect();
            if !saturates(&lists) {
                return Err(Violation::new(
                    cycle,
                    "done-complete",
                    format!(
                        "kernel_done of {:?}: fewer complete attempts than kernels reported \
                         done with them ({} pending)",
                        self.pending.last().map(|d| d.kernel),
                        self.pending.len()
                    ),
                ));
            }
            let due: Vec<(u64, Closed)> = self
                .closed
                .iter()
                .filter(|(_, n)| self.due(n, cycle, all_due))
                .map(|(g, n)| (*g, *n))
                .collect();
            let claims: Vec<Vec<u64>> = due
                .iter()
                .map(|(g, _)| {
                    (0..self.pending.len() as u64)
                        .filter(|&i| self.pending[i as usize].cands.contains(g))
                        .collect()
                })
                .collect();
            if !saturates(&claims) {
                let (_, n) = (0..due.len())
                    .find(|&k| claims[k].is_empty())
                    .map_or(due[0], |k| due[k]);
                return Err(Violation::new(
                    cycle,
                    "wg-twice",
                    format!(
                        "tag {:?} started its WGs again in cycle {} after a complete attempt of \
                         {} WGs, and no kernel_done of that class could claim it within {} \
                         cycles ({} such attempts, {} dones pending)",
                        n.tag,
                        n.at,
                        n.wgs,
                        self.cfg.done_lag,
                        due.len(),
                        self.pending.len()
                    ),
                ));
            }
            if let Some(i) = self.pending.iter().position(|d| d.cands.len() == 1) {
                let d = self.pending.remove(i);
                self.bind(d.cands[0]);
                continue;
            }
            if let Some(k) = (0..due.len()).find(|&k| claims[k].len() == 1) {
                self.pending.remove(claims[k][0] as usize);
                self.bind(due[k].0);
                continue;
            }
            // a closed attempt past its window goes to one of its claimants; a claimant whose
            // candidates are among every other claimant's loses nothing by taking it (any
            // matching that gives it to another claimant can swap the two, now and after any
            // later change, which only removes candidates from every list alike)
            let dominant = (0..due.len()).find_map(|k| {
                let sub = |a: usize, b: usize| {
                    let (a, b) = (&self.pending[a].cands, &self.pending[b].cands);
                    a.iter().all(|g| b.contains(g))
                };
                let c = &claims[k];
                c.iter()
                    .map(|&i| i as usize)
                    .find(|&i| c.iter().all(|&j| sub(i, j as usize)))
                    .map(|i| (i, due[k].0))
            });
            if let Some((i, g)) = dominant {
                self.pending.remove(i);
                self.bind(g);
                continue;
            }
            break;
        }
        // parts of the graph nothing can change any more: every candidate closed and either
        // past its window or ended by a reset (no later done may take it, no record ends it)
        let frozen = |s: &Self, g: &u64| {
            s.closed
                .get(g)
                .is_some_and(|n| !n.must || s.due(n, cycle, all_due))
        };
        let mut part = vec![usize::MAX; self.pending.len()];
        for i in 0..self.pending.len() {
            if part[i] != usize::MAX {
                continue;
            }
            part[i] = i;
            let mut stack = vec![i];
            while let Some(j) = stack.pop() {
                for (k, pk) in part.iter_mut().enumerate() {
                    if *pk == usize::MAX
                        && self.pending[k]
                            .cands
                            .iter()
                            .any(|g| self.pending[j].cands.contains(g))
                    {
                        *pk = i;
                        stack.push(k);
                    }
                }
            }
        }
        let thawed: HashSet<usize> = (0..self.pending.len())
            .filter(|&i| !self.pending[i].cands.iter().all(|g| frozen(self, g)))
            .map(|i| part[i])
            .collect();
        let mut gone = vec![];
        let mut keep = vec![];
        for (i, d) in std::mem::take(&mut self.pending).into_iter().enumerate() {
            if thawed.contains(&part[i]) {
                keep.push(d);
            } else {
                gone.extend(d.cands);
            }
        }
        self.pending = keep;
        for g in gone {
            self.closed.remove(&g);
        }
        // a closed attempt of a reset that no pending done lists is nobody's
        let listed: HashSet<u64> = self.pending.iter().flat_map(|d| d.cands.clone()).collect();
        self.closed.retain(|g, n| n.must || listed.contains(g));
        Ok(())
    }

    /// The part of a cycle after `kernel_done`: skip, CU reset, confirmation, host commands,
    /// the launch; and the early-ended attempts that no `kernel_done` claimed in time.
    fn after_done(&mut self, cycle: usize, i: &GfIn, o: &GfOut) -> Result<(), Violation> {
        let v = |rule: &'static str, d: String| Err(Violation::new(cycle, rule, d));
        // closed attempts past their window must have their kernel_done by now
        self.settle(cycle, false)?;
        // --- skip, CU reset, confirmation
        if o.kernel_skip_valid {
            self.stats.skips += 1;
            let u = cycle + self.cfg.orphan_window;
            // the slot's current attempt is the skipped kernel's (its first record, which raised
            // the entry check, came in this slot): no kernel_done may take it
            let t = (1, o.kernel_skip_slot);
            if let Some(g) = self.attempts.get(&t).map(|a| a.gen) {
                self.drop_candidate(g);
            }
            // which records of the window are the skipped attempt's: the WG after its last one
            // (the same WG while its dispatch has not ended); a window still open (a CU reset's,
            // or a skip with no record of its own) keeps every record an orphan
            let (expect, until) = match self.attempts.get(&t) {
                Some(a) if a.orphans_until.is_some_and(|v| cycle <= v) => {
                    (None, a.orphans_until.map_or(u, |v| v.max(u)))
                }
                Some(a) => (
                    a.wgs
                        .iter()
                        .next_back()
                        .map(|(&i, w)| if w.ended { i + 1 } else { i }),
                    u,
                ),
                None => (None, u),
            };
            self.new_attempt(t, Some(until));
            self.attempt(t).expect = expect;
            self.settle(cycle, false)?;
        }
        if o.cu_reset {
            self.stats.resets += 1;
            let any_idem = self.held.iter().any(|((c, _), h)| *c == 1 && h.idem)
                || self
                    .idem_done
                    .is_some_and(|d| cycle <= d + self.cfg.reset_lag);
            if !any_idem {
                return v(
                    "reset-idem",
                    "cu_reset with no held BE kernel launched idempotent".into(),
                );
            }
            let u = cycle + self.cfg.orphan_window;
            // every BE tag, also one not seen since the last reset (its records in the orphan
            // window are the reset's, not a new attempt's)
            let tags: Vec<(u32, u32)> = (0..self.cfg.be_kslots).map(|k| (1, k)).collect();
            // a complete attempt a pending done may be stays its candidate (a done reported
            // before the reset); no later done may take it (a killed kernel is not reported)
            for t in tags {
                let g = self.attempt(t).gen;
                if let Some(n) = self.complete_wgs(t) {
                    if self.pending.iter().any(|d| d.cands.contains(&g)) {
                        let at = cycle;
                        let must = false;
                        self.closed.insert(
                            g,
                            Closed {
                                tag: t,
                                wgs: n,
                                at,
                                must,
                            },
                        );
                    }
                }
                self.new_attempt(t, Some(u));
            }
        }
        if i.cu_reset_done && self.reclaim_until.is_none() && !o.reclaim_busy {
            self.stats.reclaims += 1;
            self.reclaim_until = Some(cycle + self.cfg.reclaim_bound());
            let be: Vec<u32> = self
                .flight
                .iter()
                .filter(|(_, f)| f.class == 1)
                .map(|(s, _)| *s)
                .collect();
            self.stats.reclaimed_slots += be.len() as u64;
            for s in be {
                self.flight.remove(&s);
            }
        }

        // --- host commands and register writes
        // the host's strobes reach Unit 4 only while `AUTO_PREEMPT` = 0 (the register's value
        // in this cycle: a write takes effect after it)
        if (i.preempt || i.resume) && !i.reset && !self.policy.auto {
            self.pc_tolerate_until = Some(cycle + 2);
        }
        if i.cfg_we {
            let (a, d) = (i.cfg_addr, i.cfg_data);
            let bad = match a {
                0x00..=0x0F => false,
                ADDR_MAX_INFLIGHT => d > 15,
                ADDR_AUTO_PREEMPT | ADDR_RESET_ENABLE => d > 1,
                _ => true,
            };
            if bad {
                self.cfg_error_due = Some(cycle + 1);
            } else if a == ADDR_RESET_ENABLE {
                self.reset_enable = d == 1;
            }
            // Unit 4's errors from its own register (`MAX_INFLIGHT`) or from the hand-over
            // between the policy and the host (`AUTO_PREEMPT`); the dispatcher's `BAD_CFG`
            // from its registers
            if a == ADDR_MAX_INFLIGHT || a == ADDR_AUTO_PREEMPT {
                self.pc_tolerate_until = Some(cycle + 2);
            }
            if a <= 0x0F {
                self.disp_tolerate_until = Some(cycle + 2);
            }
        }
        // --- kernels on their way into Unit 4: `RESET_ENABLE` is read at the hand-over
        for h in self.held.values_mut().filter(|h| h.entry_open) {
            h.idem |= self.reset_enable;
            if o.launch_ready && cycle > h.accepted {
                h.entry_open = false;
            }
        }

        // --- launch taken
        if i.launch_valid && o.launch_ready {
            self.stats.launches += 1;
            let fits =
                self.cfg
                    .fits_empty(i.launch_waves, i.launch_vgpr, i.launch_sgpr, i.launch_lds);
            let code = if !fits {
                Some(1)
            } else if i.launch_wgs == 0 {
                Some(2)
            } else {
                None
            };
            for d in self.dups.iter_mut() {
                if d.deadline.is_none() {
                    d.deadline = Some(cycle + 1);
                }
            }
            if let Some(code) = code {
                self.stats.bad_launches += 1;
                self.gf_error_due = Some((cycle + 1, code));
            } else {
                let key = (i.launch_class & 1, i.launch_kid);
                self.shapes.push(Shape {
                    key,
                    wgs: i.launch_wgs,
                    vgpr: i.launch_vgpr,
                    sgpr: i.launch_sgpr,
                    lds: i.launch_lds,
                    done: None,
                });
                let maybe = self.maybe.contains(&key);
                if self.held.contains_key(&key) || maybe {
                    self.stats.dups += 1;
                    self.dups.push(DupOwed {
                        class: key.0,
                        kid: key.1,
                        launched: cycle,
                        deadline: None,
                        ambiguous: maybe,
                        owns: false,
                    });
                } else {
                    self.held.insert(
                        key,
                        Held {
                            wgs: i.launch_wgs,
                            idem: i.launch_idem && self.reset_enable,
                            accepted: cycle,
                            entry_open: i.launch_idem,
                        },
                    );
                }
            }
        }
        self.policy_seen(cycle, i, o);
        Ok(())
    }

    /// `preempt-cause`, `resume-cause` and `preempt-due` for cycle `cycle`'s `preempted`,
    /// against the causes seen up to the cycle before.
    fn judge_policy(&self, cycle: usize, o: &GfOut) -> Result<(), Violation> {
        let p = &self.policy;
        let recent = |x: Option<usize>| x.is_some_and(|c| c + self.cfg.policy_lag >= cycle);
        let lag = self.cfg.policy_lag;
        if o.preempted != p.preempted {
            // the host's strobe under AUTO_PREEMPT = 0, or the policy's cause under 1
            let (rule, host, policy, what) = if o.preempted {
                (
                    "preempt-cause",
                    p.host_preempt,
                    recent(p.rt_held) && recent(p.be_held),
                    "rose with no cause (no RT kernel held beside a BE kernel under \
                     AUTO_PREEMPT = 1, no host preempt under AUTO_PREEMPT = 0)",
                )
            } else {
                (
                    "resume-cause",
                    p.host_resume,
                    recent(p.rt_none),
                    "fell with no cause (an RT kernel held throughout under AUTO_PREEMPT = 1, \
                     no host resume under AUTO_PREEMPT = 0)",
                )
            };
            let caused = (recent(host) && recent(p.auto_off)) || (recent(p.auto_on) && policy);
            if !caused {
                return Err(Violation::new(
                    cycle,
                    rule,
                    format!("preempted {what} in the {lag} cycles before: {p:?}"),
                ));
            }
        }
        if let Some(since) = p.due_since.filter(|&c| c + lag + 2 < cycle) {
            if !o.preempted {
                return Err(Violation::new(
                    cycle,
                    "preempt-due",
                    format!(
                        "not preempted although since cycle {since} an RT kernel has been held \
                         and a BE kernel's WG in flight under AUTO_PREEMPT = 1"
                    ),
                ));
            }
        }
        Ok(())
    }

    /// What cycle `cycle` shows of the policy's causes (after its launch and `kernel_done`).
    fn policy_seen(&mut self, cycle: usize, i: &GfIn, o: &GfOut) {
        let rt = self.held.keys().any(|k| k.0 == 0);
        let be = self.held.keys().any(|k| k.0 == 1);
        // a BE WG of its tag's current attempt in flight: its kernel runs in Unit 4 (a skip and
        // a CU reset end the attempt, and Unit 4 no longer counts a skipped or killed kernel)
        let be_running = self.flight.values().any(|f| {
            f.class == 1
                && f.gen.is_some()
                && self.attempts.get(&(1, f.kslot)).map(|a| a.gen) == f.gen
        });
        let auto_write = i.cfg_we && i.cfg_addr == ADDR_AUTO_PREEMPT;
        let p = &mut self.policy;
        p.due_since = if p.auto && !auto_write && rt && be_running {
            p.due_since.or(Some(cycle))
        } else {
            None
        };
        // a write takes effect at the edge: the old value holds in this cycle, the new one after
        if p.auto {
            p.auto_on = Some(cycle);
        } else {
            p.auto_off = Some(cycle);
        }
        if auto_write && i.cfg_data < 2 {
            p.auto = i.cfg_data == 1;
        }
        if i.preempt {
            p.host_preempt = Some(cycle);
        }
        if i.resume {
            p.host_resume = Some(cycle);
        }
        if rt {
            p.rt_held = Some(cycle);
        } else {
            p.rt_none = Some(cycle);
        }
        if be {
            p.be_held = Some(cycle);
        }
        if o.preempted != p.preempted {
            if o.preempted {
                self.stats.preempts += 1;
            } else {
                self.stats.resumes += 1;
            }
        }
        p.preempted = o.preempted;
    }

    /// End of a quiet trace: every accepted kernel done, nothing in flight, nothing owed.
    pub fn finish_drained(&mut self, cycle: usize) -> Result<(), Violation> {
        if let Some(((c, k), h)) = self.held.iter().next() {
            return Err(Violation::new(
                cycle,
                "drained",
                format!(
                    "kernel {k} of class {c} accepted in cycle {} never completed ({} kernels held)",
                    h.accepted,
                    self.held.len()
                ),
            ));
        }
        if let Some((s, f)) = self.flight.iter().next() {
            return Err(Violation::new(
                cycle,
                "drained",
                format!("slot {s} still in flight ({f:?})"),
            ));
        }
        // no kernel_done comes any more: every closed attempt must have its own
        self.settle(cycle, true)?;
        if let Some(d) = self.dups.iter().find(|d| !d.ambiguous) {
            return Err(Violation::new(
                cycle,
                "dup-error",
                format!(
                    "launch of held kid {} (class {}) in cycle {} got no DUP_ID",
                    d.kid, d.class, d.launched
                ),
            ));
        }
        Ok(())
    }

    fn fields_zero(&self, cycle: usize, o: &GfOut) -> Result<(), Violation> {
        let bad = stream_field_set_while_idle(o)
            || (!o.error && o.error_code != 0)
            || (!o.pc_error && o.pc_error_code != 0)
            || (!o.exp_error && o.exp_error_code != 0)
            || (!o.disp_error && o.disp_error_code != 0);
        if bad {
            return Err(Violation::new(
                cycle,
                "idle-fields-zero",
                format!("a field is not 0 while its valid is low: {o:?}"),
            ));
        }
        Ok(())
    }
}
