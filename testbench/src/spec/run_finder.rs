//! Spec checkers of the run finders (SPEC Unit 2), written from `SPEC.md` alone.
//!
//! The answer is computed here from the runs of the free map, listed with `trailing_zeros` /
//! `trailing_ones` (not the golden model's bit loop, not the RTL's shift-AND triangle or tree).
//! Rules of [`FinderSpecChecker`] (names as in [`Violation::rule`]):
//! - `fit-start`: when `fit_found` is low, `fit_start` reads 0 (every variant);
//! - `exact-max-run` / `exact-fit` (exact, tree): `max_run` is the longest run of 1s;
//!   `fit_found` says a run of at least `need` exists and `fit_start` is the lowest start of
//!   one (`need = 0` fits at 0);
//! - `grouped-max-run` / `grouped-fit` (emb. 5, group size g): the exact finder on the
//!   AND-reduced map of the N/g groups (a group is free when all its g blocks are), scaled by
//!   g: `max_run` = g × the longest run of free groups; a request of `need` blocks asks for
//!   ceil(need / g) groups and `fit_start` = g × the lowest start of a run of that many free
//!   groups (`need = 0` fits at 0). Conservative and group aligned by construction;
//! - `sampled-max-run` / `sampled-fit` (emb. 6, sampled lengths S): `max_run` is a sampled
//!   length, the largest one not above the longest free run (0 when none); a request of `need`
//!   blocks asks for the smallest sampled length ≥ `need` and `fit_start` is the lowest start of
//!   a free window of that length (no fit when no sampled length is ≥ `need`; `need = 0` fits
//!   at 0);
//! - `reset` (pipelined forms): the outputs read all 0 while the pipeline holds no input since a
//!   reset; otherwise the outputs of cycle t answer the inputs of cycle t − L (L the latency).
//!
//! A finder that always answers "0, no fit" breaks `*-max-run` on any map with a free block.
//!
//! [`TimeSharedSpecChecker`] judges the time-shared finder (emb. 7): `ts-width`, `ts-schedule`,
//! `ts-result` (every resource's result is the exact longest free run of its own map, masked to
//! its width, as of the last schedule cycle that evaluated it: runs never cross a slot
//! boundary), and [`check_boundary_masks`] (`ts-mask`) judges a boundary-mask function
//! against the schedule's slots.

use crate::spec::{SpecChecker, Violation};
use golden_model::run_finder::{FinderIn, FinderOut, TimeShared, TimeSharedIn, TimeSharedOut};
use std::collections::VecDeque;

/// What a finder promises.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Promise {
    /// Exact and tree: the exact answer.
    Exact,
    /// Grouped by `g` blocks (emb. 5): the exact answer on the AND-reduced group map, scaled.
    Grouped { g: usize },
    /// Sampled run lengths (emb. 6), ascending.
    Sampled { lengths: Vec<usize> },
}

/// The free runs of an `n`-bit map as (start, length), lowest first.
pub fn free_runs(bits: u128, n: usize) -> Vec<(usize, usize)> {
    let mut x = if n >= 128 {
        bits
    } else {
        bits & ((1u128 << n) - 1)
    };
    let mut at = 0usize;
    let mut runs = vec![];
    while x != 0 {
        let skip = x.trailing_zeros() as usize;
        x = x.checked_shr(skip as u32).unwrap_or(0);
        at += skip;
        let len = x.trailing_ones() as usize;
        runs.push((at, len));
        x = x.checked_shr(len as u32).unwrap_or(0);
        at += len;
    }
    runs
}

/// Longest run and lowest start of a run of at least `need` (`need = 0` fits at 0).
fn longest_and_fit(runs: &[(usize, usize)], need: usize) -> (usize, Option<usize>) {
    let longest = runs.iter().map(|r| r.1).max().unwrap_or(0);
    let fit = if need == 0 {
        Some(0)
    } else {
        runs.iter().find(|r| r.1 >= need).map(|r| r.0)
    };
    (longest, fit)
}

/// The AND-reduced map of the `n / g` groups of `g` blocks: group j is free when blocks
/// `j·g .. (j+1)·g` all are.
pub fn group_map(bits: u128, n: usize, g: usize) -> u128 {
    let runs = free_runs(bits, n);
    (0..n / g)
        .filter(|&j| {
            runs.iter()
                .any(|&(a, l)| a <= j * g && (j + 1) * g <= a + l)
        })
        .fold(0u128, |m, j| m | 1u128 << j)
}

/// Spec checker of one finder with latency `latency` over an `n`-block map.
pub struct FinderSpecChecker {
    n: usize,
    promise: Promise,
    /// Inputs still inside the pipeline (`None`: a bubble after reset), oldest first.
    pipe: VecDeque<Option<(u128, usize)>>,
    latency: usize,
}

impl FinderSpecChecker {
    pub fn new(n: usize, promise: Promise, latency: usize) -> Self {
        assert!((1..=128).contains(&n), "finder checker: n = {n}");
        match &promise {
            Promise::Grouped { g } => assert!(
                *g >= 1 && n.is_multiple_of(*g),
                "finder checker: group size {g} must divide n = {n}"
            ),
            Promise::Sampled { lengths } => assert!(
                !lengths.is_empty() && lengths.windows(2).all(|w| w[0] < w[1]),
                "finder checker: sampled lengths must be ascending: {lengths:?}"
            ),
            Promise::Exact => {}
        }
        Self {
            n,
            promise,
            pipe: VecDeque::from(vec![None; latency]),
            latency,
        }
    }

    /// Judge one answer to (bits, need): the broken rule and what was seen.
    pub fn judge(
        &self,
        bits: u128,
        need: usize,
        o: &FinderOut,
    ) -> Result<(), (&'static str, String)> {
        let n = self.n;
        if !o.fit_found && o.fit_start != 0 {
            return Err((
                "fit-start",
                format!("no fit, but fit_start = {}", o.fit_start),
            ));
        }
        let got = o.fit_found.then_some(o.fit_start);
        let (rules, max_want, fit_want, what) = match &self.promise {
            Promise::Exact => {
                let (longest, fit) = longest_and_fit(&free_runs(bits, n), need);
                (
                    ("exact-max-run", "exact-fit"),
                    longest,
                    fit,
                    "the longest free run".to_string(),
                )
            }
            Promise::Grouped { g } => {
                let z = n / g;
                let groups = need.div_ceil(*g);
                let (longest, fit) = longest_and_fit(&free_runs(group_map(bits, n, *g), z), groups);
                let fit = if groups > z { None } else { fit };
                (
                    ("grouped-max-run", "grouped-fit"),
                    longest * g,
                    fit.map(|s| s * g),
                    format!("{g} × the longest run of free {g}-block groups"),
                )
            }
            Promise::Sampled { lengths } => {
                let runs = free_runs(bits, n);
                let longest = runs.iter().map(|r| r.1).max().unwrap_or(0);
                let max = lengths.iter().copied().filter(|&l| l <= longest).max();
                let fit = if need == 0 {
                    Some(0)
                } else {
                    lengths
                        .iter()
                        .copied()
                        .find(|&l| l >= need)
                        .and_then(|l| longest_and_fit(&runs, l).1)
                };
                (
                    ("sampled-max-run", "sampled-fit"),
                    max.unwrap_or(0),
                    fit,
                    format!("the largest sampled length not above the longest free run {longest}"),
                )
            }
        };
        if o.max_run != max_want {
            return Err((
                rules.0,
                format!("max_run {} but {what} is {max_want}", o.max_run),
            ));
        }
        if got != fit_want {
            return Err((
                rules.1,
                format!(
                    "need {need}: fit {got:?}, the lowest fit the variant promises is {fit_want:?}"
                ),
            ));
        }
        Ok(())
    }
}

impl SpecChecker for FinderSpecChecker {
    type In = FinderIn;
    type Out = FinderOut;

    fn check(&mut self, cycle: usize, i: &FinderIn, o: &FinderOut) -> Result<(), Violation> {
        let asked = if self.latency == 0 {
            Some((i.bits, i.need))
        } else {
            self.pipe.pop_front().unwrap()
        };
        match asked {
            Some((bits, need)) => self.judge(bits, need, o).map_err(|(rule, e)| {
                Violation::new(
                    cycle,
                    rule,
                    format!(
                        "bits {bits:#x}, need {need} (asked at cycle {}): {e}",
                        cycle - self.latency
                    ),
                )
            })?,
            None => {
                if *o != FinderOut::default() {
                    return Err(Violation::new(
                        cycle,
                        "reset",
                        format!("{o:?} while the pipeline holds no input since the reset"),
                    ));
                }
            }
        }
        if self.latency > 0 {
            if i.reset {
                self.pipe.iter_mut().for_each(|x| *x = None);
                self.pipe.push_back(None);
            } else {
                self.pipe.push_back(Some((i.bits, i.need)));
            }
        }
        Ok(())
    }
}

/// Spec checker of the time-shared finder (emb. 7) over a schedule of slots.
///
/// Power-up is the reset state (SPEC §0: registers start at their reset values): schedule
/// cycle 0, every result 0. Rules:
/// - `ts-width`: one result per resource named in the schedule;
/// - `ts-schedule`: `slot_cycle` walks the schedule cycles 0, 1, …, C − 1, 0, … one per cycle,
///   and reads 0 the cycle after a reset;
/// - `ts-result`: the result of resource r is the longest free run of r's own map (its low
///   `width` bits) as of the last cycle that evaluated r's slot, registered at the end of that
///   cycle (0 before the first evaluation or after a reset). A run never crosses a slot
///   boundary: two all-free maps side by side read as their widths, not their sum.
pub struct TimeSharedSpecChecker {
    schedule: Vec<Vec<(usize, usize)>>,
    /// The slot cycle the outputs must show now.
    slot: usize,
    /// The results the outputs must show now.
    want: Vec<usize>,
}

impl TimeSharedSpecChecker {
    pub fn new(ts: &TimeShared) -> Self {
        assert!(
            !ts.schedule.is_empty(),
            "time-shared checker: empty schedule"
        );
        let used: Vec<usize> = ts
            .schedule
            .iter()
            .map(|c| c.iter().map(|s| s.1).sum())
            .collect();
        assert!(
            used.iter().all(|&u| u <= ts.e),
            "time-shared checker: a cycle packs more than e = {} bits: {used:?}",
            ts.e
        );
        let resources = ts
            .schedule
            .iter()
            .flatten()
            .map(|&(r, _)| r + 1)
            .max()
            .unwrap_or(0);
        Self {
            schedule: ts.schedule.clone(),
            slot: 0,
            want: vec![0; resources],
        }
    }
}

impl SpecChecker for TimeSharedSpecChecker {
    type In = TimeSharedIn;
    type Out = TimeSharedOut;

    fn check(
        &mut self,
        cycle: usize,
        i: &TimeSharedIn,
        o: &TimeSharedOut,
    ) -> Result<(), Violation> {
        if o.max_run.len() != self.want.len() {
            return Err(Violation::new(
                cycle,
                "ts-width",
                format!(
                    "{} results for {} resources",
                    o.max_run.len(),
                    self.want.len()
                ),
            ));
        }
        if o.slot_cycle != self.slot {
            return Err(Violation::new(
                cycle,
                "ts-schedule",
                format!(
                    "slot_cycle {}, the schedule is at cycle {}",
                    o.slot_cycle, self.slot
                ),
            ));
        }
        if let Some(r) = (0..self.want.len()).find(|&r| o.max_run[r] != self.want[r]) {
            return Err(Violation::new(
                cycle,
                "ts-result",
                format!(
                    "resource {r} reads {}, its longest free run as last evaluated is {}",
                    o.max_run[r], self.want[r]
                ),
            ));
        }
        if i.reset {
            self.slot = 0;
            self.want.iter_mut().for_each(|w| *w = 0);
            return Ok(());
        }
        for &(r, width) in &self.schedule[self.slot] {
            let map = i.maps.get(r).copied().unwrap_or(0);
            self.want[r] = free_runs(map, width).iter().map(|x| x.1).max().unwrap_or(0);
        }
        self.slot = (self.slot + 1) % self.schedule.len();
        Ok(())
    }
}

/// `ts-mask`: judge a boundary-mask function `mask(c, s)` (the mask ANDed onto the packed word
/// shifted right by `s` in schedule cycle `c`, patent step g32 / \[0214\]) against the slots:
/// bit i may be 1 only when blocks i and i + s lie in the same slot, and must be 1 then (a
/// mask that cuts a run inside a slot makes the finder under-report). Reported at `cycle` = c.
pub fn check_boundary_masks(
    ts: &TimeShared,
    mask: impl Fn(usize, usize) -> u128,
) -> Result<(), Violation> {
    for (c, slots) in ts.schedule.iter().enumerate() {
        for s in 1..ts.e {
            let mut want = 0u128;
            let mut at = 0;
            for &(_, w) in slots {
                for i in at..at + w {
                    if i + s < at + w {
                        want |= 1u128 << i;
                    }
                }
                at += w;
            }
            let got = mask(c, s);
            if got != want {
                let i = (got ^ want).trailing_zeros();
                return Err(Violation::new(
                    c,
                    "ts-mask",
                    format!(
                        "shift {s}: mask bit {i} is {}, blocks {i} and {} {} one slot",
                        (got >> i) & 1,
                        i as usize + s,
                        if (want >> i) & 1 == 1 {
                            "lie in"
                        } else {
                            "do not lie in"
                        }
                    ),
                ));
            }
        }
    }
    Ok(())
}

/// The 128-block pipelined tree finder (exact, latency 5) with its spec checker.
impl crate::unit::CheckedUnit for crate::run_finder::TreePipe128Board {
    fn spec_checker() -> Box<dyn SpecChecker<In = FinderIn, Out = FinderOut>> {
        Box::new(FinderSpecChecker::new(
            Self::N,
            Promise::Exact,
            Self::LATENCY,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::unit::{BoardUnit, CheckedUnit};

    /// Through the registry: the model's answers on a seeded trace satisfy the checker, and a
    /// wrong answer (one fit start moved) or a wrong latency (one cycle early) is caught.
    #[test]
    fn tree_pipe_128_checker_through_the_registry() {
        use crate::run_finder::TreePipe128Board as U;
        let t = U::random_trace(5, 3000);
        let mut m = U::model();
        let o: Vec<FinderOut> = t.iter().map(|i| m.step(i)).collect();
        crate::spec::judge(U::spec_checker().as_mut(), &t, &o).unwrap();
        let k = (10..o.len())
            .find(|&k| o[k].fit_found && o[k].fit_start > 0)
            .unwrap();
        let mut bad = o.clone();
        bad[k].fit_start -= 1;
        assert!(crate::spec::judge(U::spec_checker().as_mut(), &t, &bad).is_err());
        let mut early = o[1..].to_vec();
        early.push(FinderOut::default());
        assert!(crate::spec::judge(U::spec_checker().as_mut(), &t, &early).is_err());
    }

    #[test]
    fn free_runs_of_small_maps() {
        assert_eq!(free_runs(0b0111_0110, 8), vec![(1, 2), (4, 3)]);
        assert_eq!(free_runs(u128::MAX, 128), vec![(0, 128)]);
        assert_eq!(free_runs(0, 128), vec![]);
        assert_eq!(free_runs(0xff, 4), vec![(0, 4)]);
        assert_eq!(free_runs(1u128 << 127, 128), vec![(127, 1)]);
    }
}
