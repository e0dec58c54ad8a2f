//! Spec checker of the run finders (SPEC Unit 2), written from `SPEC.md` alone.
//!
//! The answer is computed here from the runs of the free map, listed with `trailing_zeros` /
//! `trailing_ones` (not the golden model's bit loop, not the RTL's shift-AND triangle or tree):
//! - exact variants (exact, tree): `max_run` is the longest run of 1s; `fit_found` says a run of
//!   at least `need` exists and `fit_start` is the lowest start of one (0 when none; `need = 0`
//!   fits at 0);
//! - grouped and sampled: conservative — `max_run` never exceeds the longest free run, a reported
//!   fit is really free (`need` blocks from `fit_start` inside the map), grouped starts and runs
//!   are multiples of the group size;
//! - timing: the only knowledge is the latency L: the outputs of cycle t answer the inputs of
//!   cycle t − L; after a reset the outputs read 0 until the first input after it comes out.

use crate::spec::{SpecChecker, Violation};
use golden_model::run_finder::{FinderIn, FinderOut};
use std::collections::VecDeque;

/// What a finder promises.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Promise {
    /// Exact and tree: the exact answer.
    Exact,
    /// Grouped by `g` blocks: conservative, group-aligned.
    Grouped { g: usize },
    /// Sampled run lengths: conservative.
    Sampled,
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
        Self {
            n,
            promise,
            pipe: VecDeque::from(vec![None; latency]),
            latency,
        }
    }

    /// Judge one answer to (bits, need).
    pub fn judge(&self, bits: u128, need: usize, o: &FinderOut) -> Result<(), String> {
        let n = self.n;
        let runs = free_runs(bits, n);
        let longest = runs.iter().map(|r| r.1).max().unwrap_or(0);
        let lowest_fit = if need == 0 {
            Some(0)
        } else {
            runs.iter().find(|r| r.1 >= need).map(|r| r.0)
        };
        if !o.fit_found && o.fit_start != 0 {
            return Err(format!("no fit, but fit_start = {}", o.fit_start));
        }
        match self.promise {
            Promise::Exact => {
                if o.max_run != longest {
                    return Err(format!(
                        "max_run {} but the longest free run is {longest}",
                        o.max_run
                    ));
                }
                let got = o.fit_found.then_some(o.fit_start);
                if got != lowest_fit {
                    return Err(format!(
                        "need {need}: fit {got:?}, the lowest free run that fits starts at {lowest_fit:?}"
                    ));
                }
            }
            Promise::Grouped { .. } | Promise::Sampled => {
                if o.max_run > longest {
                    return Err(format!(
                        "max_run {} exceeds the longest free run {longest} (not conservative)",
                        o.max_run
                    ));
                }
                if o.fit_found && need > 0 {
                    let (s, e) = (o.fit_start, o.fit_start + need);
                    let free = e <= n && runs.iter().any(|&(a, l)| a <= s && e <= a + l);
                    if !free {
                        return Err(format!("need {need}: reported fit at {s} is not free"));
                    }
                }
                if let Promise::Grouped { g } = self.promise {
                    if !o.max_run.is_multiple_of(g)
                        || (o.fit_found && !o.fit_start.is_multiple_of(g))
                    {
                        return Err(format!("grouped by {g}: {o:?} not group aligned"));
                    }
                }
            }
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
            Some((bits, need)) => self.judge(bits, need, o).map_err(|e| {
                Violation::new(
                    cycle,
                    "answer",
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
