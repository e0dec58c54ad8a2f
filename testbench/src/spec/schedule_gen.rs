//! Spec checker of the schedule order generator (SPEC Unit 6), written from SPEC alone.
//!
//! Its state is what SPEC makes visible to a host: the configuration registers, the candidate
//! table, the profiler's counters, and the tile being emitted as a queue of expected coordinates.
//! The expected order is computed here by a different route than the golden model's: every
//! thread gets its *rank* from the SPEC definition (position in the order as a function of
//! (x, y); Hilbert through the inverse conversion `xy2d`), and the threads are sorted by rank.
//!
//! Rules judged every cycle (rule names in the violations):
//! - `order`: every transferred coordinate is the next one of the expected order; `last` exactly
//!   on the final one; nothing outside a tile (`stray-output`);
//! - `latency`: the first coordinate valid within 2 cycles of the accepted start, and from then
//!   on `out_valid` stays high until the last transfer (one coordinate per cycle, nothing
//!   withdrawn under backpressure);
//! - `busy`: `busy` from the cycle after an accepted start to the cycle of the last transfer;
//! - `error`: the strobe and code one cycle after the input (BUSY for a config write or start
//!   while busy, BAD_CFG for a configuration that does not fit or `prof_k` > 8, NO_PROFILE for a
//!   value with no profiled workgroup waiting); a refused request changes nothing (the next
//!   tiles' orders show it);
//! - `profiler`: `wg_sel`, `prof_done`, `prof_best` as SPEC's choice rule gives them.

use crate::spec::{SpecChecker, Violation};
use golden_model::schedule_gen::{SchedIn, SchedOut};
use std::collections::VecDeque;

/// A configuration as the host writes it: (mode, log_w, log_h, p0, p1).
type Cfg = (u8, u8, u8, u8, u8);

/// Does `c` fit a grid of at most 2^max_log square (SPEC Unit 6)?
pub fn fits(c: Cfg, max_log: u8) -> bool {
    let (mode, lw, lh, p0, p1) = c;
    if mode > 4 || lw > max_log || lh > max_log {
        return false;
    }
    let n = 1u32 << (lw + lh);
    match mode {
        // g = 2^p1 threads per group, s = 2^p0 must divide G = N / g
        1 => (1u32 << p1) <= n && (n >> p1).is_multiple_of(1u32 << p0) && (1u32 << p0) <= (n >> p1),
        3 => p0 <= lw && p1 <= lh,
        _ => true,
    }
}

/// Hilbert distance of (x, y) in a side×side square: the classic `xy2d`.
pub fn xy2d(side: u32, mut x: u32, mut y: u32) -> u32 {
    let mut d = 0;
    let mut s = side / 2;
    while s > 0 {
        let rx = u32::from(x & s > 0);
        let ry = u32::from(y & s > 0);
        d += s * s * ((3 * rx) ^ ry);
        if ry == 0 {
            if rx == 1 {
                x = side - 1 - x;
                y = side - 1 - y;
            }
            std::mem::swap(&mut x, &mut y);
        }
        s /= 2;
    }
    d
}

/// Position of thread (x, y) in the order of `c` (SPEC Unit 6 definitions).
pub fn rank(c: Cfg, x: u32, y: u32) -> u32 {
    let (mode, lw, lh, p0, p1) = c;
    let (w, h) = (1u32 << lw, 1u32 << lh);
    let i = y * w + x;
    match mode {
        0 => i,
        1 => {
            let (g, s) = (1u32 << p1, 1u32 << p0);
            let groups = w * h / g;
            let (group, t) = (i / g, i % g);
            // groups visited 0, s, 2s, ..., then 1, s+1, ...
            let visit = (group % s) * (groups / s) + group / s;
            visit * g + t
        }
        2 => y * w + if y.is_multiple_of(2) { x } else { w - 1 - x },
        3 => {
            let (tw, th) = (1u32 << p0, 1u32 << p1);
            let tile = (y / th) * (w / tw) + x / tw;
            tile * tw * th + (y % th) * tw + x % tw
        }
        _ => {
            let side = w.min(h);
            let square = if w > h { x / side } else { y / side };
            square * side * side + xy2d(side, x % side, y % side)
        }
    }
}

/// The order of `c`: every thread sorted by its rank.
pub fn expected_order(c: Cfg) -> Vec<(u8, u8)> {
    let (w, h) = (1u32 << c.1, 1u32 << c.2);
    let mut v: Vec<(u32, u8, u8)> = (0..h)
        .flat_map(|y| (0..w).map(move |x| (rank(c, x, y), x as u8, y as u8)))
        .collect();
    v.sort_unstable();
    assert!(
        v.iter().enumerate().all(|(k, r)| r.0 == k as u32),
        "the ranks of {c:?} are not a permutation (checker bug)"
    );
    v.into_iter().map(|(_, x, y)| (x, y)).collect()
}

/// The tile being emitted.
struct Tile {
    expect: VecDeque<(u8, u8)>,
    accepted_at: usize,
}

/// The checker, for a unit whose largest grid is 2^max_log square.
pub struct ScheduleGenChecker {
    max_log: u8,
    regs: Cfg,
    table: [Cfg; 8],
    k: u8,
    force: Option<u8>,
    started: u8,
    reported: u8,
    best: u8,
    best_val: u16,
    last_sel: u8,
    tile: Option<Tile>,
    /// Error code due in the next cycle.
    due_error: u8,
}

impl ScheduleGenChecker {
    /// The board config: grids up to 16×16. Reset table: SPEC's default progressions as the
    /// unit's contract lists them (linear, strided 4 and 16, zigzag, tiled 2, 4, 8, Hilbert).
    pub fn board() -> Self {
        Self::new(4)
    }

    /// The full config: grids up to 64×64, the same progressions on 64×64 (strided 8 and 64).
    pub fn full() -> Self {
        Self::new(6)
    }

    /// A unit whose largest grid is 2^max_log square.
    pub fn new(max_log: u8) -> Self {
        let m = max_log;
        let mut c = Self {
            max_log: m,
            regs: (0, m, m, 0, 0),
            table: [(0, 0, 0, 0, 0); 8],
            k: 0,
            force: None,
            started: 0,
            reported: 0,
            best: 0,
            best_val: 0,
            last_sel: 8,
            tile: None,
            due_error: 0,
        };
        c.reset();
        c
    }

    fn reset(&mut self) {
        let m = self.max_log;
        self.regs = (0, m, m, 0, 0);
        self.table = [
            (0, m, m, 0, 0),
            (1, m, m, m / 2, 0),
            (1, m, m, m, 0),
            (2, m, m, 0, 0),
            (3, m, m, 1, 1),
            (3, m, m, 2, 2),
            (3, m, m, 3, 3),
            (4, m, m, 0, 0),
        ];
        self.k = 0;
        self.force = None;
        self.started = 0;
        self.reported = 0;
        self.best = 0;
        self.best_val = 0;
        self.last_sel = 8;
        self.tile = None;
        self.due_error = 0;
    }

    fn done(&self) -> bool {
        self.k > 0 && self.reported == self.k
    }
}

impl SpecChecker for ScheduleGenChecker {
    type In = SchedIn;
    type Out = SchedOut;

    fn check(&mut self, cycle: usize, i: &SchedIn, o: &SchedOut) -> Result<(), Violation> {
        let v = |rule, d: String| Err(Violation::new(cycle, rule, d));
        if i.reset {
            self.reset();
            return Ok(());
        }
        // ---- outputs of this cycle ----
        if o.error != (o.error_code != 0) || o.error_code != self.due_error {
            return v(
                "error",
                format!(
                    "expected error code {} (from the previous cycle's input), saw error={} code={}",
                    self.due_error, o.error as u8, o.error_code
                ),
            );
        }
        if o.wg_sel != self.last_sel || o.prof_done != self.done() || o.prof_best != self.best {
            return v(
                "profiler",
                format!(
                    "expected wg_sel {} done {} best {}, saw {} {} {}",
                    self.last_sel,
                    self.done(),
                    self.best,
                    o.wg_sel,
                    o.prof_done,
                    o.prof_best
                ),
            );
        }
        let busy = self.tile.is_some();
        if o.busy != busy {
            return v(
                "busy",
                format!(
                    "busy={} but a tile is {}being emitted",
                    o.busy as u8,
                    if busy { "" } else { "not " }
                ),
            );
        }
        let mut took_last = false;
        match &mut self.tile {
            None => {
                if o.out_valid || o.out_last {
                    return v(
                        "stray-output",
                        "out_valid or out_last outside a tile".into(),
                    );
                }
            }
            Some(t) => {
                if !o.out_valid {
                    if cycle >= t.accepted_at + 2 {
                        return v(
                            "latency",
                            format!(
                                "no coordinate in cycle {cycle} (start accepted in cycle {}, {} coordinates left): SPEC wants the first within 2 cycles and 1 per cycle",
                                t.accepted_at,
                                t.expect.len()
                            ),
                        );
                    }
                } else {
                    let want = *t.expect.front().expect("a live tile has coordinates left");
                    let last = t.expect.len() == 1;
                    if (o.out_x, o.out_y) != want || o.out_last != last {
                        return v(
                            "order",
                            format!(
                                "saw ({},{}) last={} but the order continues with {want:?} last={last}",
                                o.out_x, o.out_y, o.out_last as u8
                            ),
                        );
                    }
                    if i.out_ready {
                        t.expect.pop_front();
                        took_last = last;
                    }
                }
            }
        }
        if took_last {
            self.tile = None;
        }
        // ---- requests of this cycle, against the state at its start ----
        let writes = i.cfg_we || i.cand_we || i.prof_we;
        let c: Cfg = (i.cfg_mode, i.cfg_log_w, i.cfg_log_h, i.cfg_p0, i.cfg_p1);
        let mut code = 0;
        let (started0, done0, best0) = (self.started, self.done(), self.best);
        // start: SPEC's choice rule on the start-of-cycle registers
        if i.start && !busy {
            let sel = if let Some(f) = self.force {
                f
            } else if self.k > 0 && started0 < self.k {
                self.started += 1;
                started0
            } else if done0 {
                best0
            } else {
                8
            };
            let cfg = if sel == 8 {
                self.regs
            } else {
                self.table[sel as usize]
            };
            self.last_sel = sel;
            self.tile = Some(Tile {
                expect: expected_order(cfg).into(),
                accepted_at: cycle,
            });
        }
        // a value for the oldest profiled workgroup without one; the lowest wins, ties the
        // lower index (the earlier report)
        if i.perf_we {
            if self.reported < started0 {
                if self.reported == 0 || i.perf_value < self.best_val {
                    self.best = self.reported;
                    self.best_val = i.perf_value;
                }
                self.reported += 1;
            } else {
                code = 3;
            }
        }
        if busy {
            if writes || i.start {
                code = 2;
            }
        } else {
            if i.cfg_we || i.cand_we {
                if fits(c, self.max_log) {
                    if i.cfg_we {
                        self.regs = c;
                    }
                    if i.cand_we {
                        self.table[(i.cand_idx & 7) as usize] = c;
                    }
                } else {
                    code = 1;
                }
            }
            if i.prof_we {
                if i.prof_k <= 8 {
                    self.k = i.prof_k;
                    self.force = i.prof_force.then_some(i.prof_force_idx & 7);
                    self.started = 0;
                    self.reported = 0;
                    self.best = 0;
                    self.best_val = 0;
                } else {
                    code = 1;
                }
            }
        }
        self.due_error = code;
        Ok(())
    }
}

impl crate::unit::CheckedUnit for crate::schedule_gen::ScheduleGenBoard {
    fn spec_checker() -> Box<dyn SpecChecker<In = SchedIn, Out = SchedOut>> {
        Box::new(ScheduleGenChecker::board())
    }
}
