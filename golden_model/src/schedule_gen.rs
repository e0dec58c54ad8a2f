//! Thread schedule order generator (SPEC Unit 6, seed 004): the executable specification.
//!
//! The unit orders the threads of one workgroup tile, a 2^log_w × 2^log_h grid, and emits one
//! (x, y) per cycle on a valid/ready stream with `last`. Five orders (SPEC Unit 6; seed 004
//! \[0037\], \[0047\]); threads are numbered in linear order i = y·W + x:
//! - **linear** (mode 0): i = 0, 1, 2, … (x fastest);
//! - **strided** (mode 1, stride s = 2^p0, granularity g = 2^p1, \[0047\]): the linear order cut
//!   into G = N/g groups of g threads; groups visited 0, s, 2s, …, then 1, s+1, …; threads inside
//!   a group in linear order. Fits when g ≤ N and s divides G;
//! - **zigzag** (mode 2): rows in order, odd rows right to left;
//! - **tiled** (mode 3, tile 2^p0 × 2^p1): tiles in row-major order, row-major inside a tile.
//!   Fits when the tile fits the grid;
//! - **Hilbert** (mode 4): the grid cut into squares of side min(W, H) in row-major order, each
//!   traversed by the classic `d2xy` Hilbert curve from (0, 0) to (side − 1, 0).
//!
//! Modes 0, 2 and 4 ignore p0 and p1 (any value fits). A configuration *fits* when mode ≤ 4,
//! both grid logs are ≤ the config's `max_log` (board 4: 16×16; full 6: 64×64) and the mode's
//! parameter rule above holds; otherwise it is `BAD_CFG`.
//!
//! ## Registers (host-written; every write is judged against the state at the start of the cycle)
//! - the **configuration registers** `cfg` (mode, log_w, log_h, p0, p1), written by `cfg_we`
//!   (reset: linear 16×16 on the board, the largest grid of the config);
//! - the **candidate table** of 8 full configurations (grid included), entry `cand_idx` written
//!   from the same `cfg_*` ports by `cand_we`. Reset default ([`default_table`]): the patent's
//!   geometric progressions of one control parameter per style (\[0048\]) on the largest grid:
//!   linear, strided stride 4 and 16, zigzag, tiled 2×2, 4×4, 8×8, Hilbert;
//! - the **profiler control**, written by `prof_we`: `prof_k` (0 = profiling off, 1–8 candidates
//!   profiled; > 8 is `BAD_CFG`), `prof_force` + `prof_force_idx` (force one candidate). A write
//!   restarts profiling (no workgroup profiled, no value reported, no best).
//!
//! ## Which configuration orders a workgroup (decided at `start`, from the start-of-cycle state)
//! 1. `prof_force` set → candidate `prof_force_idx`;
//! 2. profiling on (K > 0) and fewer than K workgroups profiled → candidate n, where n is the
//!    number of workgroups profiled so far (\[0040\]–\[0043\]: the first K workgroups run under
//!    candidates 0 … K−1);
//! 3. profiling on and all K performance values reported → the candidate with the lowest value
//!    (ties: lower index) (\[0044\]);
//! 4. otherwise (profiling off, or values still missing) → the `cfg` registers.
//!
//! `wg_sel` shows the choice of the last accepted start (0–7 candidate, 8 the `cfg` registers).
//!
//! ## Performance values
//! `perf_we` with `perf_value` reports the value (cycles or cache misses; lower is better) of the
//! oldest profiled workgroup without one. With none waiting it is refused: `error_code` 3
//! `NO_PROFILE`. When the K-th value arrives, `prof_done` rises and `prof_best` names the winner.
//! Allowed while emitting.
//!
//! ## Stream timing (the RTL's pipeline is invisible beyond this)
//! - `start` accepted in cycle t (not busy): the first coordinate is valid in cycle t+2 (SPEC:
//!   within 2 cycles); then one coordinate in every cycle in which `out_ready` was high in the
//!   previous valid cycle, i.e. a transfer happens in every cycle where `out_valid && out_ready`,
//!   and the next coordinate is valid in the following cycle. `out_last` marks the final one.
//! - `busy` is high from the cycle after the accepted start until the cycle in which the last
//!   coordinate is taken (inclusive). A start or a config write in a busy cycle is `BUSY`; a start
//!   in the cycle after the last transfer is accepted.
//! - A config write and a start in the same (idle) cycle: the start uses the old configuration.
//!
//! ## Errors (strobe `error` one cycle after the offending input, with `error_code`)
//! 1 `BAD_CFG` (configuration does not fit, mode > 4, `prof_k` > 8), 2 `BUSY`, 3 `NO_PROFILE`.
//! Several in one cycle: the code shown is BUSY over BAD_CFG over NO_PROFILE; every refused
//! request changes nothing, the others apply.

pub mod study;

use crate::CycleModel;
use std::collections::VecDeque;
use std::fmt;

/// Mode numbers of the `cfg_mode` port.
pub const LINEAR: u8 = 0;
pub const STRIDED: u8 = 1;
pub const ZIGZAG: u8 = 2;
pub const TILED: u8 = 3;
pub const HILBERT: u8 = 4;
/// Number of candidate table entries.
pub const CANDIDATES: usize = 8;
/// `wg_sel` value meaning "the `cfg` registers".
pub const SEL_CFG: u8 = 8;

/// Error codes on `error_code`.
pub const BAD_CFG: u8 = 1;
pub const BUSY: u8 = 2;
pub const NO_PROFILE: u8 = 3;

/// One schedule configuration: mode, grid 2^log_w × 2^log_h, parameters p0, p1.
#[derive(Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct SchedCfg {
    pub mode: u8,
    pub log_w: u8,
    pub log_h: u8,
    pub p0: u8,
    pub p1: u8,
}

impl fmt::Debug for SchedCfg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.name())
    }
}

impl SchedCfg {
    pub const fn new(mode: u8, log_w: u8, log_h: u8, p0: u8, p1: u8) -> Self {
        Self {
            mode,
            log_w,
            log_h,
            p0,
            p1,
        }
    }
    pub fn linear(log_w: u8, log_h: u8) -> Self {
        Self::new(LINEAR, log_w, log_h, 0, 0)
    }
    pub fn strided(log_w: u8, log_h: u8, log_stride: u8, log_gran: u8) -> Self {
        Self::new(STRIDED, log_w, log_h, log_stride, log_gran)
    }
    pub fn zigzag(log_w: u8, log_h: u8) -> Self {
        Self::new(ZIGZAG, log_w, log_h, 0, 0)
    }
    pub fn tiled(log_w: u8, log_h: u8, log_tw: u8, log_th: u8) -> Self {
        Self::new(TILED, log_w, log_h, log_tw, log_th)
    }
    pub fn hilbert(log_w: u8, log_h: u8) -> Self {
        Self::new(HILBERT, log_w, log_h, 0, 0)
    }

    pub fn width(&self) -> u32 {
        1 << self.log_w
    }
    pub fn height(&self) -> u32 {
        1 << self.log_h
    }
    /// Threads in the tile.
    pub fn threads(&self) -> u32 {
        1 << (self.log_w + self.log_h)
    }

    /// A short human name: `tiled 4x2 on 16x16`.
    pub fn name(&self) -> String {
        let style = match self.mode {
            LINEAR => "linear".to_string(),
            STRIDED => format!("strided s{} g{}", 1u32 << self.p0, 1u32 << self.p1),
            ZIGZAG => "zigzag".to_string(),
            TILED => format!("tiled {}x{}", 1u32 << self.p0, 1u32 << self.p1),
            HILBERT => "hilbert".to_string(),
            m => format!("mode {m}"),
        };
        format!("{style} on {}x{}", self.width(), self.height())
    }

    /// The style and its parameter without the grid: `tiled 4x2`.
    pub fn style(&self) -> String {
        self.name().split(" on ").next().unwrap_or("").to_string()
    }

    /// Does the configuration fit (SPEC Unit 6) a unit whose largest grid is 2^max_log square?
    pub fn fits(&self, max_log: u8) -> bool {
        if self.log_w > max_log || self.log_h > max_log {
            return false;
        }
        let l = self.log_w + self.log_h;
        match self.mode {
            LINEAR | ZIGZAG | HILBERT => true,
            // g = 2^p1 <= N and s = 2^p0 divides G = N / g
            STRIDED => self.p1 <= l && self.p0 <= l - self.p1,
            TILED => self.p0 <= self.log_w && self.p1 <= self.log_h,
            _ => false,
        }
    }

    /// The order, written from the definitions (module doc). Panics on a configuration that
    /// does not fit (any `max_log`).
    pub fn order(&self) -> Vec<(u32, u32)> {
        assert!(self.fits(u8::MAX), "{self:?} does not fit its grid");
        let (w, h, n) = (self.width(), self.height(), self.threads());
        let xy = move |i: u32| (i % w, i / w);
        let out: Vec<(u32, u32)> = match self.mode {
            LINEAR => (0..n).map(xy).collect(),
            STRIDED => {
                let (g, s) = (1u32 << self.p1, 1u32 << self.p0);
                let groups = n / g;
                (0..s)
                    .flat_map(|r| (0..groups / s).map(move |q| q * s + r))
                    .flat_map(|grp| (0..g).map(move |t| grp * g + t))
                    .map(xy)
                    .collect()
            }
            ZIGZAG => (0..h)
                .flat_map(|y| (0..w).map(move |x| if y % 2 == 0 { (x, y) } else { (w - 1 - x, y) }))
                .collect(),
            TILED => {
                let (tw, th) = (1u32 << self.p0, 1u32 << self.p1);
                let mut v = Vec::with_capacity(n as usize);
                for ty in 0..h / th {
                    for tx in 0..w / tw {
                        for iy in 0..th {
                            for ix in 0..tw {
                                v.push((tx * tw + ix, ty * th + iy));
                            }
                        }
                    }
                }
                v
            }
            HILBERT => {
                let side = w.min(h);
                let squares = n / (side * side);
                (0..squares)
                    .flat_map(|q| {
                        let (ox, oy) = if w > h { (q * side, 0) } else { (0, q * side) };
                        (0..side * side).map(move |d| {
                            let (x, y) = d2xy(side, d);
                            (ox + x, oy + y)
                        })
                    })
                    .collect()
            }
            _ => unreachable!(),
        };
        debug_assert_eq!(out.len(), n as usize, "{self:?}: every thread once");
        debug_assert!(
            {
                let mut seen = vec![false; n as usize];
                out.iter().all(|&(x, y)| {
                    x < w && y < h && !std::mem::replace(&mut seen[(y * w + x) as usize], true)
                })
            },
            "{self:?}: the order is a permutation of the grid"
        );
        out
    }
}

/// The classic Hilbert `d2xy` (side a power of two): distance d along the curve → (x, y), from
/// (0, 0) to (side − 1, 0).
pub fn d2xy(side: u32, d: u32) -> (u32, u32) {
    let (mut x, mut y, mut t) = (0u32, 0u32, d);
    let mut s = 1;
    while s < side {
        let rx = 1 & (t / 2);
        let ry = 1 & (t ^ rx);
        // rotate the quadrant
        if ry == 0 {
            if rx == 1 {
                x = s - 1 - x;
                y = s - 1 - y;
            }
            std::mem::swap(&mut x, &mut y);
        }
        x += s * rx;
        y += s * ry;
        t /= 4;
        s *= 2;
    }
    (x, y)
}

/// The reset contents of the candidate table for a largest grid of 2^max_log square: the
/// patent's geometric progressions of one control parameter per style (\[0048\]).
pub fn default_table(max_log: u8) -> [SchedCfg; CANDIDATES] {
    let m = max_log;
    let l = 2 * m;
    [
        SchedCfg::linear(m, m),
        SchedCfg::strided(m, m, (m / 2).min(l), 0),
        SchedCfg::strided(m, m, m.min(l), 0),
        SchedCfg::zigzag(m, m),
        SchedCfg::tiled(m, m, 1.min(m), 1.min(m)),
        SchedCfg::tiled(m, m, 2.min(m), 2.min(m)),
        SchedCfg::tiled(m, m, 3.min(m), 3.min(m)),
        SchedCfg::hilbert(m, m),
    ]
}

/// What picked the configuration of a workgroup.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    Forced(u8),
    Profiling(u8),
    Best(u8),
    Registers,
}

/// The profiling selector (seed 004 \[0039\]–\[0048\]): candidate table, K workgroups profiled
/// under candidates 0 … K−1, one performance value per workgroup, the lowest wins.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Profiler {
    pub table: [SchedCfg; CANDIDATES],
    /// Candidates profiled (0 = off).
    pub k: u8,
    pub force: Option<u8>,
    /// Workgroups started under profiling so far (≤ k).
    pub started: u8,
    /// Performance values reported so far (≤ started).
    pub reported: u8,
    /// Best candidate and its value so far.
    pub best: u8,
    pub best_val: u32,
}

impl Profiler {
    pub fn new(max_log: u8) -> Self {
        Self {
            table: default_table(max_log),
            k: 0,
            force: None,
            started: 0,
            reported: 0,
            best: 0,
            best_val: 0,
        }
    }

    /// Set the profiler control (restarts profiling). `k` must be ≤ 8.
    pub fn control(&mut self, k: u8, force: Option<u8>) {
        assert!(k as usize <= CANDIDATES && force.is_none_or(|f| (f as usize) < CANDIDATES));
        self.k = k;
        self.force = force;
        self.started = 0;
        self.reported = 0;
        self.best = 0;
        self.best_val = 0;
    }

    /// All K values are in.
    pub fn done(&self) -> bool {
        self.k > 0 && self.reported == self.k
    }

    /// Which configuration the next workgroup gets (module doc, steps 1–4).
    pub fn choice(&self) -> Choice {
        if let Some(f) = self.force {
            Choice::Forced(f)
        } else if self.k > 0 && self.started < self.k {
            Choice::Profiling(self.started)
        } else if self.done() {
            Choice::Best(self.best)
        } else {
            Choice::Registers
        }
    }

    /// A workgroup starts: return its choice and count it if it is profiled.
    pub fn start(&mut self) -> Choice {
        let c = self.choice();
        if let Choice::Profiling(_) = c {
            self.started += 1;
        }
        c
    }

    /// Report the value of the oldest profiled workgroup without one; false if none waits.
    pub fn report(&mut self, value: u32) -> bool {
        if self.reported >= self.started {
            return false;
        }
        // strictly lower wins: ties keep the lower index, which was reported first
        if self.reported == 0 || value < self.best_val {
            self.best = self.reported;
            self.best_val = value;
        }
        self.reported += 1;
        debug_assert!(self.reported <= self.started && self.started <= self.k);
        true
    }
}

impl Choice {
    /// The `wg_sel` encoding: candidate index, or 8 for the `cfg` registers.
    pub fn sel(self) -> u8 {
        match self {
            Choice::Forced(i) | Choice::Profiling(i) | Choice::Best(i) => i,
            Choice::Registers => SEL_CFG,
        }
    }
}

/// Construction-time parameters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SchedConfig {
    /// Largest grid 2^max_log × 2^max_log (board 4: 16×16; full 6: 64×64). Coordinates are
    /// `max_log` bits wide (at least 1).
    pub max_log: u8,
}

impl SchedConfig {
    pub const fn board() -> Self {
        Self { max_log: 4 }
    }
    pub const fn full() -> Self {
        Self { max_log: 6 }
    }
    /// Every configuration that fits (modes × grids × parameters; p0/p1 = 0 for the modes that
    /// ignore them).
    pub fn valid_configs(&self) -> Vec<SchedCfg> {
        let m = self.max_log;
        let mut v = vec![];
        for lw in 0..=m {
            for lh in 0..=m {
                v.push(SchedCfg::linear(lw, lh));
                v.push(SchedCfg::zigzag(lw, lh));
                v.push(SchedCfg::hilbert(lw, lh));
                for p0 in 0..8 {
                    for p1 in 0..8 {
                        for mode in [STRIDED, TILED] {
                            let c = SchedCfg::new(mode, lw, lh, p0, p1);
                            if c.fits(m) {
                                v.push(c);
                            }
                        }
                    }
                }
            }
        }
        v
    }
}

/// Inputs of one cycle (port names of the exported top). `Debug` prints the active ports only.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct SchedIn {
    pub reset: bool,
    pub cfg_we: bool,
    pub cfg_mode: u8,
    pub cfg_log_w: u8,
    pub cfg_log_h: u8,
    pub cfg_p0: u8,
    pub cfg_p1: u8,
    pub cand_we: bool,
    pub cand_idx: u8,
    pub prof_we: bool,
    pub prof_k: u8,
    pub prof_force: bool,
    pub prof_force_idx: u8,
    pub perf_we: bool,
    pub perf_value: u16,
    pub start: bool,
    pub out_ready: bool,
}

impl SchedIn {
    /// The configuration on the `cfg_*` ports.
    pub fn cfg(&self) -> SchedCfg {
        SchedCfg::new(
            self.cfg_mode,
            self.cfg_log_w,
            self.cfg_log_h,
            self.cfg_p0,
            self.cfg_p1,
        )
    }
    /// Drive `c` on the `cfg_*` ports.
    pub fn with_cfg(mut self, c: SchedCfg) -> Self {
        self.cfg_mode = c.mode;
        self.cfg_log_w = c.log_w;
        self.cfg_log_h = c.log_h;
        self.cfg_p0 = c.p0;
        self.cfg_p1 = c.p1;
        self
    }
}

crate::reset_by_field!(SchedIn);

impl fmt::Debug for SchedIn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = vec![];
        if self.reset {
            parts.push("RESET".to_string());
        }
        if self.cfg_we || self.cand_we {
            let c = self.cfg();
            parts.push(format!(
                "{}{} m{} w{} h{} p{},{}",
                if self.cfg_we { "cfg " } else { "" },
                if self.cand_we {
                    format!("cand[{}]", self.cand_idx)
                } else {
                    String::new()
                },
                c.mode,
                c.log_w,
                c.log_h,
                c.p0,
                c.p1
            ));
        }
        if self.prof_we {
            parts.push(format!(
                "prof k={} force={}:{}",
                self.prof_k, self.prof_force as u8, self.prof_force_idx
            ));
        }
        if self.perf_we {
            parts.push(format!("perf {}", self.perf_value));
        }
        if self.start {
            parts.push("start".into());
        }
        parts.push(format!("rdy={}", self.out_ready as u8));
        write!(f, "{}", parts.join(" "))
    }
}

/// Outputs of one cycle.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct SchedOut {
    pub out_valid: bool,
    pub out_x: u8,
    pub out_y: u8,
    pub out_last: bool,
    pub busy: bool,
    pub error: bool,
    pub error_code: u8,
    /// Configuration of the last accepted start: 0–7 candidate, 8 the `cfg` registers.
    pub wg_sel: u8,
    pub prof_done: bool,
    pub prof_best: u8,
}

impl fmt::Debug for SchedOut {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "v={} ({},{}){} busy={} err={}:{} sel={} done={} best={}",
            self.out_valid as u8,
            self.out_x,
            self.out_y,
            if self.out_last { " LAST" } else { "" },
            self.busy as u8,
            self.error as u8,
            self.error_code,
            self.wg_sel,
            self.prof_done as u8,
            self.prof_best
        )
    }
}

/// Event counts (stimulus coverage).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SchedStats {
    pub cycles: u64,
    pub starts: u64,
    pub starts_by_mode: [u64; 5],
    pub workgroups_done: u64,
    pub coords: u64,
    pub stalls: u64,
    pub profiled: u64,
    pub best_used: u64,
    pub forced: u64,
    pub reports: u64,
    pub back_to_back: u64,
    pub errors: [u64; 4],
}

/// The cycle model.
pub struct ScheduleGen {
    cfg: SchedConfig,
    regs: SchedCfg,
    prof: Profiler,
    /// Coordinates of the current workgroup not yet taken.
    stream: VecDeque<(u32, u32)>,
    /// Cycles until the head of `stream` shows on the port.
    lag: u8,
    wg_sel: u8,
    error: u8,
    last_taken: bool,
    stats: SchedStats,
}

impl ScheduleGen {
    pub fn new(cfg: SchedConfig) -> Self {
        assert!(
            (1..=6).contains(&cfg.max_log),
            "max_log {} out of 1..=6",
            cfg.max_log
        );
        let mut m = Self {
            cfg,
            regs: SchedCfg::default(),
            prof: Profiler::new(cfg.max_log),
            stream: VecDeque::new(),
            lag: 0,
            wg_sel: SEL_CFG,
            error: 0,
            last_taken: false,
            stats: SchedStats::default(),
        };
        m.reset();
        m
    }

    pub fn stats(&self) -> &SchedStats {
        &self.stats
    }
    pub fn profiler(&self) -> &Profiler {
        &self.prof
    }
    /// The `cfg` registers.
    pub fn registers(&self) -> SchedCfg {
        self.regs
    }

    fn outputs(&self) -> SchedOut {
        let head = (self.lag == 0).then(|| self.stream.front()).flatten();
        SchedOut {
            out_valid: head.is_some(),
            out_x: head.map_or(0, |c| c.0 as u8),
            out_y: head.map_or(0, |c| c.1 as u8),
            out_last: head.is_some() && self.stream.len() == 1,
            busy: !self.stream.is_empty(),
            error: self.error != 0,
            error_code: self.error,
            wg_sel: self.wg_sel,
            prof_done: self.prof.done(),
            prof_best: self.prof.best,
        }
    }
}

impl CycleModel for ScheduleGen {
    type In = SchedIn;
    type Out = SchedOut;

    fn reset(&mut self) {
        let m = self.cfg.max_log;
        self.regs = SchedCfg::linear(m, m);
        self.prof = Profiler::new(m);
        self.stream.clear();
        self.lag = 0;
        self.wg_sel = SEL_CFG;
        self.error = 0;
        self.last_taken = false;
    }

    fn step(&mut self, i: &SchedIn) -> SchedOut {
        self.stats.cycles += 1;
        if i.reset {
            let out = self.outputs();
            self.reset();
            return out;
        }
        let out = self.outputs();
        let busy = out.busy;
        let mut errors = [false; 4];

        // the stream: a transfer pops the head; the lag counts down
        let took_last = out.out_valid && i.out_ready && out.out_last;
        if out.out_valid && i.out_ready {
            self.stream.pop_front();
            self.stats.coords += 1;
            if took_last {
                self.stats.workgroups_done += 1;
            }
        } else if out.out_valid {
            self.stats.stalls += 1;
        }
        self.lag = self.lag.saturating_sub(1);

        let writes = i.cfg_we || i.cand_we || i.prof_we;
        if busy && (writes || i.start) {
            errors[BUSY as usize] = true;
        }
        let started0 = self.prof.started;
        let new = i.cfg();
        let fits = new.fits(self.cfg.max_log);
        // the start reads the start-of-cycle registers, so decide it first
        if i.start && !busy {
            if self.last_taken {
                self.stats.back_to_back += 1;
            }
            let choice = self.prof.start();
            let c = match choice {
                Choice::Registers => self.regs,
                other => self.prof.table[other.sel() as usize],
            };
            match choice {
                Choice::Forced(_) => self.stats.forced += 1,
                Choice::Profiling(_) => self.stats.profiled += 1,
                Choice::Best(_) => self.stats.best_used += 1,
                Choice::Registers => {}
            }
            self.stats.starts += 1;
            self.stats.starts_by_mode[c.mode as usize] += 1;
            self.wg_sel = choice.sel();
            self.stream = c.order().into();
            self.lag = 1;
        }
        if !busy && (i.cfg_we || i.cand_we) {
            if fits {
                if i.cfg_we {
                    self.regs = new;
                }
                if i.cand_we {
                    self.prof.table[(i.cand_idx & 7) as usize] = new;
                }
            } else {
                errors[BAD_CFG as usize] = true;
            }
        }
        if i.perf_we {
            // judged against the start-of-cycle count of profiled workgroups
            if self.prof.reported < started0 {
                self.prof.report(i.perf_value as u32);
                self.stats.reports += 1;
            } else {
                errors[NO_PROFILE as usize] = true;
            }
        }
        if !busy && i.prof_we {
            if i.prof_k as usize <= CANDIDATES {
                self.prof
                    .control(i.prof_k, i.prof_force.then_some(i.prof_force_idx & 7));
            } else {
                errors[BAD_CFG as usize] = true;
            }
        }
        self.error = [BUSY, BAD_CFG, NO_PROFILE]
            .into_iter()
            .find(|&e| errors[e as usize])
            .unwrap_or(0);
        if self.error != 0 {
            self.stats.errors[self.error as usize] += 1;
        }
        self.last_taken = took_last;
        debug_assert!(self.lag <= 1 && self.wg_sel <= SEL_CFG);
        debug_assert!(self.prof.reported <= self.prof.started && self.prof.started <= self.prof.k);
        out
    }
}
