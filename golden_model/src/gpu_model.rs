//! GPU behavioural model for the GPU scheduling front-end (SPEC Unit 8): the compute modules on
//! the far side of `gpu_frontend`, plus a kernel-stream generator. Pure Rust, deterministic from
//! a seed; used by the system tests and by `synth eval-system`.
//!
//! ## The compute modules ([`Gpu`])
//! The front-end's outputs towards the compute modules are, per cycle, at most one dispatch
//! record (in-flight slot, module, kernel tag `{class, kslot}`, `last`: the WG's last sub-WG), a
//! `kernel_skip {kslot}` strobe (a BE kernel told to skip at its entry check) and the `cu_reset`
//! strobe. The model answers with the front-end's inputs from the compute modules:
//! - **Completions** `done_valid/done_slot`: a record runs for a time drawn when it arrives (a
//!   distribution per kernel, [`WgTimes`]); finished records wait in a set and **one per cycle**
//!   is reported (the dispatcher's completion port takes one slot per cycle), picked at random
//!   from the set: completion order is free, not FIFO.
//! - **Skip**: `kernel_skip {kslot}` ends every running record of that BE kernel at once (its
//!   entry check exits); a record of that kernel arriving within [`GpuParams::skip_window`]
//!   cycles afterwards (decided before the withdraw reached it) ends at once too. An ended
//!   record still completes (its resources come back through the completion port).
//! - **CU reset**: `cu_reset` kills every BE record (running or finished and not yet reported)
//!   except those whose run ends within [`GpuParams::reset_drain`] cycles of the reset (they
//!   complete normally, before the confirmation); BE records arriving while the reset is in
//!   progress are killed on arrival. RT records are never touched. After
//!   [`GpuParams::cu_reset_time`] cycles `cu_reset_done` strobes for one cycle; **no completion
//!   of a killed record is ever reported**, and none of a drained one after `cu_reset_done`.
//!   A `cu_reset` while a reset is in progress is absorbed.
//! - **Retire strobes** `retire_class`: every module that runs at least one record retires one
//!   instruction of a random class per cycle (bit `classes·m + c`), for the dispatcher's
//!   `min_power_history` policy.
//!
//! Cycle convention: [`Gpu::cycle`] reads what the front-end showed (a [`FarView`]) and returns
//! the front-end's inputs ([`FarEvents`]) for the cycle the harness applies them (the same cycle
//! when the front-end's outputs are a function of its state, else the next one). Time is the
//! harness's cycle number; 100 cycles = 1 µs at the 100 MHz board clock.
//!
//! ## The kernel stream ([`KernelSource`])
//! RT kernels arrive at random (exponential gaps, mean [`StreamParams::rt_period`]); BE kernels
//! are launched whenever fewer than [`StreamParams::be_backlog`] BE kernels are outstanding (a
//! best-effort task that always has work). Each kernel has a WG count, one WG shape and a
//! per-kernel WG run-time range; kernel ids are fresh per class (never one still outstanding).
//! With probability [`StreamParams::bad`] a launch is made bad on purpose (WG count 0, a shape
//! that fits no module, zero waves, or the id of an outstanding kernel): [`KernelSpec::bad`]
//! says which, so a harness knows which error code to expect.

use crate::dispatcher::eval::Rng;
use std::collections::{HashMap, HashSet, VecDeque};

pub mod eval;
pub mod system;

/// Cycles per µs at the 100 MHz board clock.
pub const CYCLES_PER_US: f64 = 100.0;

/// GPU parameters (cycles).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GpuParams {
    /// `cu_reset` → `cu_reset_done` (≥ 1).
    pub cu_reset_time: u64,
    /// After `kernel_skip`, records of that kernel arriving within this many cycles end at once.
    pub skip_window: u64,
    /// BE records whose run ends within this many cycles of `cu_reset` still complete (0: every
    /// BE record dies at once).
    pub reset_drain: u64,
    /// Modules and retire classes (for `retire_class`; 0 modules: no retire strobes).
    pub modules: usize,
    pub classes: usize,
}

impl Default for GpuParams {
    /// Evaluation defaults: CU reset 10 µs (1000 cycles), skip window 8 cycles, no drain, the
    /// board dispatcher's 2 modules × 4 classes.
    fn default() -> Self {
        Self {
            cu_reset_time: 1000,
            skip_window: 8,
            reset_drain: 0,
            modules: 2,
            classes: 4,
        }
    }
}

/// A dispatch record as the compute modules see it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Record {
    pub slot: u32,
    pub module: u32,
    /// 0 RT, 1 BE.
    pub class: u32,
    pub kslot: u32,
    pub last: bool,
    /// WG index within its kernel (`disp_id`).
    pub idx: u32,
    /// The kernel id, when the front-end shows it (else the run time is drawn by class).
    pub kid: Option<u32>,
}

/// What the front-end shows the compute modules in one cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FarView {
    pub rec: Option<Record>,
    /// `kernel_skip {kslot}` (BE).
    pub skip: Option<u32>,
    pub cu_reset: bool,
}

/// The compute modules' inputs to the front-end for one cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FarEvents {
    /// Completion of one in-flight slot.
    pub done: Option<u32>,
    pub cu_reset_done: bool,
    pub retire_class: u64,
}

/// Per-record run time: a function of the record (its kernel) and a random source.
pub trait WgTimes {
    fn wg_time(&mut self, rec: &Record, rng: &mut Rng) -> u64;
}

/// Run times per class (uniform in an inclusive range), per kernel id where one is bound.
#[derive(Clone, Debug)]
pub struct KernelTimes {
    pub rt: (u64, u64),
    pub be: (u64, u64),
    /// (class, kid) → range: a kernel's own distribution.
    pub per_kernel: HashMap<(u32, u32), (u64, u64)>,
}

impl KernelTimes {
    pub fn new(rt: (u64, u64), be: (u64, u64)) -> Self {
        Self {
            rt,
            be,
            per_kernel: HashMap::new(),
        }
    }
    /// Bind a kernel's own run-time range (used when the record shows its kid).
    pub fn bind(&mut self, k: &KernelSpec) {
        self.per_kernel.insert((k.class, k.kid), k.wg_cycles);
    }
}

impl WgTimes for KernelTimes {
    fn wg_time(&mut self, rec: &Record, rng: &mut Rng) -> u64 {
        let (lo, hi) = rec
            .kid
            .and_then(|k| self.per_kernel.get(&(rec.class, k)).copied())
            .unwrap_or(if rec.class == 0 { self.rt } else { self.be });
        rng.range(lo as usize, hi.max(lo) as usize).max(1) as u64
    }
}

#[derive(Clone, Copy, Debug)]
struct Run {
    rec: Record,
    start: u64,
    end: u64,
}

/// Event counters of the compute modules.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GpuStats {
    pub records: u64,
    pub completed_rt: u64,
    pub completed_be: u64,
    /// Records ended early by a skip (they still complete).
    pub skipped: u64,
    /// BE records killed by a CU reset (never completed).
    pub killed: u64,
    /// BE records that completed between a `cu_reset` and its confirmation (drain).
    pub drained: u64,
    pub resets: u64,
    /// Busy module-cycles (sum of record run times) of completed BE / RT records and of killed
    /// BE records (lost work).
    pub busy_be: u64,
    pub busy_rt: u64,
    pub lost_be: u64,
    /// Largest number of finished records waiting for the completion port.
    pub max_backlog: usize,
}

/// The compute modules.
#[derive(Clone, Debug)]
pub struct Gpu {
    pub params: GpuParams,
    rng: Rng,
    running: Vec<Run>,
    finished: Vec<Run>,
    /// BE kslot → the last cycle of its skip window.
    skip_until: HashMap<u32, u64>,
    /// The cycle of `cu_reset_done` while a reset is in progress.
    reset_until: Option<u64>,
    pub stats: GpuStats,
}

impl Gpu {
    pub fn new(params: GpuParams, seed: u64) -> Self {
        Self {
            params,
            rng: Rng::new(seed ^ 0x0067_7075_5f6d_6f64),
            running: vec![],
            finished: vec![],
            skip_until: HashMap::new(),
            reset_until: None,
            stats: GpuStats::default(),
        }
    }

    /// Forget every record (the front-end was reset).
    pub fn clear(&mut self) {
        self.running.clear();
        self.finished.clear();
        self.skip_until.clear();
        self.reset_until = None;
    }

    /// Records held (running or waiting to be reported).
    pub fn holding(&self) -> usize {
        self.running.len() + self.finished.len()
    }

    /// In-flight slots held, for checks.
    pub fn slots(&self) -> Vec<u32> {
        self.running
            .iter()
            .chain(&self.finished)
            .map(|r| r.rec.slot)
            .collect()
    }

    /// Whether a CU reset is in progress.
    pub fn resetting(&self) -> bool {
        self.reset_until.is_some()
    }

    /// Cycle `now`: see what the front-end shows, return its inputs from the compute modules.
    pub fn cycle(&mut self, now: u64, v: &FarView, times: &mut dyn WgTimes) -> FarEvents {
        let mut ev = FarEvents::default();
        // a new record starts running
        if let Some(rec) = v.rec {
            self.stats.records += 1;
            let d = times.wg_time(&rec, &mut self.rng).max(1);
            let run = Run {
                rec,
                start: now,
                end: now + d,
            };
            if rec.class == 1 && self.reset_until.is_some() {
                self.stats.killed += 1;
            } else if rec.class == 1 && self.skip_until.get(&rec.kslot).is_some_and(|&u| now <= u) {
                self.stats.skipped += 1;
                self.finished.push(Run { end: now, ..run });
            } else {
                self.running.push(run);
            }
        }
        // skip: the kernel's records end at once
        if let Some(k) = v.skip {
            self.skip_until.insert(k, now + self.params.skip_window);
            let (ended, keep): (Vec<Run>, Vec<Run>) = self
                .running
                .drain(..)
                .partition(|r| r.rec.class == 1 && r.rec.kslot == k);
            self.stats.skipped += ended.len() as u64;
            self.running = keep;
            self.finished
                .extend(ended.into_iter().map(|r| Run { end: now, ..r }));
        }
        // CU reset: every BE record dies (but those draining)
        if v.cu_reset && self.reset_until.is_none() {
            self.stats.resets += 1;
            self.reset_until = Some(now + self.params.cu_reset_time.max(1));
            let drain = now + self.params.reset_drain;
            let mut lost = 0;
            let mut killed = 0;
            self.running.retain(|r| {
                let dies = r.rec.class == 1 && r.end > drain;
                if dies {
                    lost += now - r.start;
                    killed += 1;
                }
                !dies
            });
            self.finished.retain(|r| {
                let dies = r.rec.class == 1 && self.params.reset_drain == 0;
                if dies {
                    lost += r.end - r.start;
                    killed += 1;
                }
                !dies
            });
            self.stats.lost_be += lost;
            self.stats.killed += killed;
        }
        // records whose run ended
        let mut k = 0;
        while k < self.running.len() {
            if self.running[k].end <= now {
                let r = self.running.swap_remove(k);
                self.finished.push(r);
            } else {
                k += 1;
            }
        }
        // confirmation: whatever BE record is still held dies now
        if let Some(t) = self.reset_until {
            if now >= t {
                ev.cu_reset_done = true;
                self.reset_until = None;
                let mut lost = 0;
                let mut killed = 0;
                for r in self.running.iter().chain(&self.finished) {
                    if r.rec.class == 1 {
                        lost += now.min(r.end) - r.start;
                        killed += 1;
                    }
                }
                self.running.retain(|r| r.rec.class != 1);
                self.finished.retain(|r| r.rec.class != 1);
                self.stats.lost_be += lost;
                self.stats.killed += killed;
            }
        }
        // one completion per cycle, any finished record
        self.stats.max_backlog = self.stats.max_backlog.max(self.finished.len());
        if !ev.cu_reset_done && !self.finished.is_empty() {
            let p = self.rng.range(0, self.finished.len() - 1);
            let r = self.finished.swap_remove(p);
            ev.done = Some(r.rec.slot);
            let busy = r.end - r.start;
            if r.rec.class == 1 {
                self.stats.completed_be += 1;
                self.stats.busy_be += busy;
                self.stats.drained += self.reset_until.is_some() as u64;
            } else {
                self.stats.completed_rt += 1;
                self.stats.busy_rt += busy;
            }
        }
        // retire strobes: one random class per busy module
        let p = self.params;
        if p.modules > 0 && p.classes > 0 {
            let mut busy = vec![false; p.modules];
            for r in &self.running {
                if let Some(b) = busy.get_mut(r.rec.module as usize) {
                    *b = true;
                }
            }
            for (m, _) in busy.iter().enumerate().filter(|(_, &b)| b) {
                let c = self.rng.range(0, p.classes - 1);
                let bit = p.classes * m + c;
                if bit < 64 {
                    ev.retire_class |= 1 << bit;
                }
            }
        }
        ev
    }
}

/// Why a launch is bad (the error a front-end must give it), or `None` for a good launch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BadLaunch {
    /// WG count 0.
    ZeroWgs,
    /// A WG shape with zero waves.
    ZeroWaves,
    /// A shape that fits no empty module.
    NeverFits,
    /// The id of a kernel of the same class still outstanding.
    DupId,
}

/// One kernel launch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KernelSpec {
    pub kid: u32,
    /// 0 RT, 1 BE.
    pub class: u32,
    pub idem: bool,
    pub wgs: u32,
    pub waves: u32,
    pub vgpr: u32,
    pub sgpr: u32,
    pub lds: u32,
    pub indep: bool,
    /// WG run time range (cycles, inclusive).
    pub wg_cycles: (u64, u64),
    pub bad: Option<BadLaunch>,
}

/// WG shape limits of the dispatcher config the stream is made for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShapeLimits {
    pub units: u32,
    pub wave_slots: u32,
    pub vgpr_blocks: u32,
    pub sgpr_blocks: u32,
    pub lds_blocks: u32,
}

impl ShapeLimits {
    /// The board dispatcher (2 units × 4 wave slots, 16 VGPR / 8 SGPR blocks, 16 LDS blocks).
    pub const fn board() -> Self {
        Self {
            units: 2,
            wave_slots: 4,
            vgpr_blocks: 16,
            sgpr_blocks: 8,
            lds_blocks: 16,
        }
    }
    /// Whether a WG of this shape fits an empty module.
    pub fn fits(&self, waves: u32, vgpr: u32, sgpr: u32, lds: u32) -> bool {
        let q = waves.div_ceil(self.units);
        q <= self.wave_slots
            && q * vgpr <= self.vgpr_blocks
            && q * sgpr <= self.sgpr_blocks
            && lds <= self.lds_blocks
    }
}

/// Kernel-stream parameters (cycles).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StreamParams {
    /// Mean cycles between RT arrivals (exponential gaps); 0 = no RT kernel.
    pub rt_period: u64,
    /// RT kernel WG count and WG run time (inclusive ranges).
    pub rt_wgs: (u32, u32),
    pub rt_wg_cycles: (u64, u64),
    /// BE kernels outstanding (launched, not yet done) the source keeps; 0 = no BE kernel.
    pub be_backlog: usize,
    pub be_wgs: (u32, u32),
    pub be_wg_cycles: (u64, u64),
    /// Probability that a BE kernel is idempotent (a CU reset needs all in flight idempotent).
    pub be_idem: f64,
    /// Largest waves per WG (clamped to the limits).
    pub max_waves: u32,
    /// Probability that a WG shape is independent (splittable).
    pub indep: f64,
    /// Probability that a launch is made bad on purpose.
    pub bad: f64,
    /// RT kernels launched as BE (class 1) instead: configuration (a), one FIFO channel. They
    /// keep their RT run times and are reported as RT by [`KernelSource::is_rt`].
    pub rt_as_be: bool,
}

impl Default for StreamParams {
    /// Evaluation defaults: an RT kernel every 20 000 cycles (200 µs) on average with 2–4 WGs of
    /// 500–1500 cycles (5–15 µs); BE: 4 kernels outstanding, 8–16 WGs of 2000–6000 cycles
    /// (20–60 µs), all idempotent; no bad launches.
    fn default() -> Self {
        Self {
            rt_period: 20_000,
            rt_wgs: (2, 4),
            rt_wg_cycles: (500, 1500),
            be_backlog: 4,
            be_wgs: (8, 16),
            be_wg_cycles: (2000, 6000),
            be_idem: 1.0,
            max_waves: 4,
            indep: 0.25,
            bad: 0.0,
            rt_as_be: false,
        }
    }
}

/// The kernel-stream generator: offers one launch at a time (held until accepted).
#[derive(Clone, Debug)]
pub struct KernelSource {
    pub params: StreamParams,
    pub limits: ShapeLimits,
    /// Kernel ids are `0..1 << id_bits`.
    pub id_bits: u32,
    rng: Rng,
    next_rt: u64,
    next_kid: [u32; 2],
    /// Outstanding (class, kid) of good launches accepted.
    outstanding: HashSet<(u32, u32)>,
    be_outstanding: usize,
    /// Kids (as launched, class 1) that are really RT kernels (`rt_as_be`).
    rt_in_be: HashSet<u32>,
    /// The launch offered and not yet accepted, and whether it is an RT arrival.
    offer: Option<(KernelSpec, bool)>,
    pending_rt: VecDeque<u64>,
    stopped: bool,
    pub launched: u64,
}

impl KernelSource {
    pub fn new(params: StreamParams, limits: ShapeLimits, id_bits: u32, seed: u64) -> Self {
        let mut s = Self {
            params,
            limits,
            id_bits,
            rng: Rng::new(seed ^ 0x6b65_726e_656c),
            next_rt: 0,
            next_kid: [0, 0],
            outstanding: HashSet::new(),
            be_outstanding: 0,
            rt_in_be: HashSet::new(),
            offer: None,
            pending_rt: VecDeque::new(),
            stopped: false,
            launched: 0,
        };
        s.next_rt = s.gap();
        s
    }

    /// Offer nothing from now on (a drain); the offer pending is withdrawn.
    pub fn stop(&mut self) {
        self.stopped = true;
        self.offer = None;
    }

    /// Whether [`KernelSource::stop`] was called.
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// Forget every kernel outstanding (the front-end was reset); arrivals go on.
    pub fn clear(&mut self) {
        self.outstanding.clear();
        self.be_outstanding = 0;
        self.rt_in_be.clear();
        self.offer = None;
    }

    fn gap(&mut self) -> u64 {
        if self.params.rt_period == 0 {
            return u64::MAX;
        }
        // exponential with mean rt_period
        let u = ((self.rng.next_u64() >> 11) as f64 + 1.0) / ((1u64 << 53) as f64 + 1.0);
        ((-u.ln()) * self.params.rt_period as f64).round().max(1.0) as u64
    }

    fn fresh_kid(&mut self, class: u32) -> Option<u32> {
        let n = 1u32 << self.id_bits;
        for _ in 0..n {
            let k = self.next_kid[class as usize] % n;
            self.next_kid[class as usize] = (k + 1) % n;
            if !self.outstanding.contains(&(class, k)) {
                return Some(k);
            }
        }
        None
    }

    fn shape(&mut self, spec: &mut KernelSpec) {
        let l = self.limits;
        let maxw = self.params.max_waves.clamp(1, l.units * l.wave_slots);
        loop {
            let waves = self.rng.range(1, maxw as usize) as u32;
            let q = waves.div_ceil(l.units);
            let vgpr = self.rng.range(0, (l.vgpr_blocks / q).min(8) as usize) as u32;
            let sgpr = self.rng.range(0, (l.sgpr_blocks / q).min(4) as usize) as u32;
            let lds = self.rng.range(0, (l.lds_blocks / 2) as usize) as u32;
            if l.fits(waves, vgpr, sgpr, lds) {
                spec.waves = waves;
                spec.vgpr = vgpr;
                spec.sgpr = sgpr;
                spec.lds = lds;
                spec.indep = self.rng.chance(self.params.indep);
                return;
            }
        }
    }

    /// Whether launched (class, kid) is an RT kernel for the evaluation (`rt_as_be` included).
    pub fn is_rt(&self, class: u32, kid: u32) -> bool {
        class == 0 || self.rt_in_be.contains(&kid)
    }

    /// Kernels outstanding (accepted, not done).
    pub fn outstanding(&self) -> usize {
        self.outstanding.len()
    }

    /// RT arrivals due and not yet offered.
    pub fn rt_waiting(&self) -> usize {
        self.pending_rt.len()
    }

    /// The launch offered in cycle `now` (the same until [`KernelSource::accepted`]); RT
    /// arrivals first. Returns (spec, arrival cycle of an RT kernel).
    pub fn offer(&mut self, now: u64) -> Option<(KernelSpec, Option<u64>)> {
        if self.stopped {
            return None;
        }
        while now >= self.next_rt {
            self.pending_rt.push_back(self.next_rt);
            self.next_rt = self.next_rt.saturating_add(self.gap());
        }
        if self.offer.is_none() {
            let p = self.params;
            let rt = !self.pending_rt.is_empty();
            if !rt && self.be_outstanding >= p.be_backlog {
                return None;
            }
            let class = if rt && !p.rt_as_be { 0 } else { 1 };
            let kid = self.fresh_kid(class)?;
            let mut spec = KernelSpec {
                kid,
                class,
                idem: if rt { true } else { self.rng.chance(p.be_idem) },
                wgs: 0,
                waves: 1,
                vgpr: 0,
                sgpr: 0,
                lds: 0,
                indep: false,
                wg_cycles: if rt { p.rt_wg_cycles } else { p.be_wg_cycles },
                bad: None,
            };
            let (lo, hi) = if rt { p.rt_wgs } else { p.be_wgs };
            spec.wgs = self.rng.range(lo as usize, hi as usize) as u32;
            self.shape(&mut spec);
            if self.rng.chance(p.bad) {
                let mut kinds = vec![
                    BadLaunch::ZeroWgs,
                    BadLaunch::ZeroWaves,
                    BadLaunch::NeverFits,
                ];
                if let Some(&(c, k)) = self.outstanding.iter().find(|(c, _)| *c == class) {
                    debug_assert_eq!(c, class);
                    spec.kid = k;
                    kinds = vec![BadLaunch::DupId];
                }
                let b = kinds[self.rng.range(0, kinds.len() - 1)];
                match b {
                    BadLaunch::ZeroWgs => spec.wgs = 0,
                    BadLaunch::ZeroWaves => spec.waves = 0,
                    BadLaunch::NeverFits => spec.lds = self.limits.lds_blocks + 1,
                    BadLaunch::DupId => {}
                }
                spec.bad = Some(b);
            }
            self.offer = Some((spec, rt));
        }
        let (spec, rt) = self.offer?;
        let arrival = rt.then(|| self.pending_rt.front().copied().unwrap_or(now));
        Some((spec, arrival))
    }

    /// The offered launch was taken by the front-end's launch handshake.
    pub fn accepted(&mut self) {
        let Some((spec, rt)) = self.offer.take() else {
            return;
        };
        self.launched += 1;
        if rt {
            self.pending_rt.pop_front();
        }
        if spec.bad.is_some() {
            return;
        }
        self.outstanding.insert((spec.class, spec.kid));
        if rt && spec.class == 1 {
            self.rt_in_be.insert(spec.kid);
        } else if spec.class == 1 {
            self.be_outstanding += 1;
        }
    }

    /// `kernel_done {kid, class}` seen.
    pub fn done(&mut self, class: u32, kid: u32) {
        if self.outstanding.remove(&(class, kid)) && class == 1 && !self.rt_in_be.remove(&kid) {
            self.be_outstanding -= 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(slot: u32, class: u32, kslot: u32) -> Record {
        Record {
            slot,
            class,
            kslot,
            last: true,
            ..Record::default()
        }
    }

    #[test]
    fn one_completion_per_cycle_in_any_order() {
        let mut g = Gpu::new(GpuParams::default(), 7);
        let mut t = KernelTimes::new((3, 3), (3, 3));
        let mut done = vec![];
        for now in 0..20 {
            let v = FarView {
                rec: (now < 4).then(|| rec(now as u32, 0, 0)),
                ..FarView::default()
            };
            if let Some(s) = g.cycle(now, &v, &mut t).done {
                done.push((now, s));
            }
        }
        let slots: HashSet<u32> = done.iter().map(|d| d.1).collect();
        assert_eq!(slots.len(), 4, "every record completes once: {done:?}");
        let cycles: HashSet<u64> = done.iter().map(|d| d.0).collect();
        assert_eq!(cycles.len(), 4, "one completion per cycle");
    }

    #[test]
    fn reset_kills_be_never_rt_and_confirms_after_its_time() {
        let p = GpuParams {
            cu_reset_time: 10,
            ..GpuParams::default()
        };
        let mut g = Gpu::new(p, 1);
        let mut t = KernelTimes::new((50, 50), (50, 50));
        g.cycle(
            0,
            &FarView {
                rec: Some(rec(0, 0, 0)),
                ..FarView::default()
            },
            &mut t,
        );
        g.cycle(
            1,
            &FarView {
                rec: Some(rec(1, 1, 2)),
                ..FarView::default()
            },
            &mut t,
        );
        let reset = FarView {
            cu_reset: true,
            ..FarView::default()
        };
        let e = g.cycle(2, &reset, &mut t);
        assert!(e.done.is_none() && !e.cu_reset_done);
        // a BE record arriving during the reset is killed
        g.cycle(
            3,
            &FarView {
                rec: Some(rec(2, 1, 2)),
                ..FarView::default()
            },
            &mut t,
        );
        let mut confirm = None;
        let mut done = vec![];
        for now in 4..80 {
            let e = g.cycle(now, &FarView::default(), &mut t);
            if e.cu_reset_done {
                confirm = Some(now);
            }
            done.extend(e.done);
        }
        assert_eq!(confirm, Some(12));
        assert_eq!(done, vec![0], "only the RT record completes");
        assert_eq!(g.stats.killed, 2);
    }

    #[test]
    fn skip_ends_the_kernel_at_once() {
        let mut g = Gpu::new(GpuParams::default(), 3);
        let mut t = KernelTimes::new((1000, 1000), (1000, 1000));
        g.cycle(
            0,
            &FarView {
                rec: Some(rec(0, 1, 5)),
                ..FarView::default()
            },
            &mut t,
        );
        g.cycle(
            1,
            &FarView {
                rec: Some(rec(1, 1, 4)),
                ..FarView::default()
            },
            &mut t,
        );
        let e = g.cycle(
            2,
            &FarView {
                skip: Some(5),
                ..FarView::default()
            },
            &mut t,
        );
        assert_eq!(e.done, Some(0));
        // a late record of the skipped kernel ends at once too
        let e = g.cycle(
            3,
            &FarView {
                rec: Some(rec(2, 1, 5)),
                ..FarView::default()
            },
            &mut t,
        );
        assert_eq!(e.done, Some(2));
        assert_eq!(g.holding(), 1);
    }

    #[test]
    fn stream_gives_fresh_kids_and_marks_bad_launches() {
        let p = StreamParams {
            rt_period: 50,
            bad: 0.3,
            ..StreamParams::default()
        };
        let mut s = KernelSource::new(p, ShapeLimits::board(), 8, 5);
        let mut bad = 0;
        let mut seen = HashSet::new();
        for now in 0..5000 {
            if let Some((k, _)) = s.offer(now) {
                s.accepted();
                if let Some(b) = k.bad {
                    bad += 1;
                    if b == BadLaunch::NeverFits {
                        assert!(!s.limits.fits(k.waves, k.vgpr, k.sgpr, k.lds));
                    }
                } else {
                    assert!(k.wgs > 0 && s.limits.fits(k.waves, k.vgpr, k.sgpr, k.lds));
                    assert!(
                        seen.insert((k.class, k.kid)),
                        "kid reused while outstanding"
                    );
                }
            }
            if now % 7 == 0 {
                if let Some(&(c, k)) = seen.iter().next() {
                    seen.remove(&(c, k));
                    s.done(c, k);
                }
            }
        }
        assert!(bad > 0 && s.launched > 100);
    }
}
