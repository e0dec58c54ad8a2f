//! Max-contiguous-run finder family (SPEC Unit 2, seed 003 embodiments 4–7): the executable spec.
//!
//! A free map is an `N`-bit word (`N ≤ 128`, held in a `u128`): bit *i* describes block *i*,
//! **1 = free**, 0 = used (SPEC §0). Every variant answers the same two questions:
//!
//! - `max_run`: the length of the longest run of free blocks;
//! - for a request of `need` blocks: `fit_found` and `fit_start`, the **lowest** index `s` such that
//!   blocks `s .. s + need` are all free (the allocation address of step a43). This `s` is always
//!   the start of a maximal free run.
//!
//! Decisions the patent and SPEC leave open (mirrored in `hdl::run_finder`):
//! - `need = 0` always fits, at `fit_start = 0` (an empty allocation needs no blocks).
//! - `need > N` never fits. When nothing fits, `fit_start` reads 0.
//! - **Exact** and **tree** answer exactly ([`max_run`], [`first_fit`]).
//! - **Grouped** (emb. 5, group size `g`, `g | N`): block groups of `g` are AND-reduced, the exact
//!   finder runs on the `N/g` group bits, `max_run` is scaled by `g`, `need` is rounded up to
//!   `ceil(need/g)` groups and `fit_start` is the first fitting group times `g` (group aligned).
//! - **Sampled** (emb. 6): only the run lengths in a sample set `L` (ascending, contains 1 and `N`)
//!   are evaluated. `max_run` = the largest sampled length ≤ the true max run (0 if none);
//!   `need` is rounded up to the smallest sampled length `l ≥ need`, and `fit_start` is the first
//!   start of a free window of `l` blocks.
//! - Both approximate forms are conservative: never more than exact, and every `fit_start` they
//!   give is free for `need` blocks.
//! - **Time-shared** (emb. 7): see [`TimeShared`].
//! - **Pipelined** forms: the same function, delayed by a documented latency `L` with II = 1.
//!   Their pipeline registers reset to zero, so the first `L` outputs after reset read all-zero
//!   (`max_run = 0`, `fit_found = false`, `fit_start = 0`).

use crate::{count_bits, index_bits, CycleModel, ResetInput};
use std::collections::VecDeque;

/// Reference: longest run of 1s in the low `n` bits of `bits` (a plain loop).
pub fn max_run(bits: u128, n: usize) -> usize {
    assert!(n <= 128, "free maps are at most 128 blocks");
    let (mut best, mut cur) = (0, 0);
    for i in 0..n {
        if (bits >> i) & 1 == 1 {
            cur += 1;
            best = best.max(cur);
        } else {
            cur = 0;
        }
    }
    best
}

/// Reference: lowest start of `need` consecutive free blocks in the low `n` bits (a plain loop).
/// `need = 0` fits at 0.
pub fn first_fit(bits: u128, n: usize, need: usize) -> Option<usize> {
    assert!(n <= 128, "free maps are at most 128 blocks");
    if need == 0 {
        return Some(0);
    }
    let mut cur = 0;
    for i in 0..n {
        if (bits >> i) & 1 == 1 {
            cur += 1;
            if cur == need {
                return Some(i + 1 - need);
            }
        } else {
            cur = 0;
        }
    }
    None
}

/// Mask of the low `n` bits.
pub fn low_mask(n: usize) -> u128 {
    if n >= 128 {
        u128::MAX
    } else {
        (1u128 << n) - 1
    }
}

/// Which member of the family.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Variant {
    /// Emb. 4: shift-AND triangle, thermometer read-out. Exact.
    Exact,
    /// Emb. 5: AND-reduced groups of `g` blocks. Conservative, group-aligned starts.
    Grouped {
        /// Group size (divides N).
        g: usize,
    },
    /// Emb. 6: only the listed run lengths are evaluated. Conservative.
    Sampled {
        /// Ascending sampled run lengths, starting at 1 and ending at N.
        lengths: Vec<usize>,
    },
    /// Beyond the patent: log-depth segment tree. Exact.
    Tree,
}

impl Variant {
    /// Short name used in file names and tables (`exact`, `grouped`, `sampled`, `tree`).
    pub fn name(&self) -> &'static str {
        match self {
            Variant::Exact => "exact",
            Variant::Grouped { .. } => "grouped",
            Variant::Sampled { .. } => "sampled",
            Variant::Tree => "tree",
        }
    }
}

/// The default sample set of emb. 6 for an `n`-block map: dense steps of 1 below 8, then the step
/// doubles every time the length doubles (8, 10, 12, 14, 16, 20, …, 64, 80, 96, 112, 128), and `n`
/// itself. Steps are powers of two and never shrink (\[0169\]).
pub fn sample_lengths(n: usize) -> Vec<usize> {
    assert!(n >= 1);
    let mut out = Vec::new();
    let mut l = 1;
    while l <= n {
        out.push(l);
        let log = usize::BITS - 1 - l.leading_zeros();
        let step = if log >= 2 { 1 << (log - 2) } else { 1 };
        l += step;
    }
    if *out.last().unwrap() != n {
        out.push(n);
    }
    out
}

fn is_prime(x: usize) -> bool {
    x >= 2
        && (2..x)
            .take_while(|d| d * d <= x)
            .all(|d| !x.is_multiple_of(d))
}

/// [`sample_lengths`] without prime lengths, as \[0174\]–\[0175\] suggest (1 and `n` are kept so that
/// every request up to `n` still has a sampled length to round up to).
pub fn sample_lengths_no_primes(n: usize) -> Vec<usize> {
    sample_lengths(n)
        .into_iter()
        .filter(|&l| l == 1 || l == n || !is_prime(l))
        .collect()
}

/// Construction-time parameters of one finder.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FinderConfig {
    /// Blocks in the free map (1 ..= 128).
    pub n: usize,
    /// Which variant.
    pub variant: Variant,
    /// Pipeline latency in cycles (0 = combinational).
    pub latency: usize,
}

impl FinderConfig {
    /// A combinational finder.
    pub fn new(n: usize, variant: Variant) -> Self {
        let cfg = Self {
            n,
            variant,
            latency: 0,
        };
        cfg.validate();
        cfg
    }
    /// The same finder behind `latency` pipeline stages.
    pub fn pipelined(mut self, latency: usize) -> Self {
        self.latency = latency;
        self
    }
    /// Width of `need` and `max_run`: `clog2(N + 1)`. Derived.
    pub fn count_width(&self) -> usize {
        count_bits(self.n)
    }
    /// Width of `fit_start`: `clog2(N)`. Derived.
    pub fn index_width(&self) -> usize {
        index_bits(self.n)
    }
    /// Panics with a clear message on a bad configuration.
    pub fn validate(&self) {
        assert!(
            (1..=128).contains(&self.n),
            "run_finder: n = {} must be in 1..=128",
            self.n
        );
        match &self.variant {
            Variant::Grouped { g } => {
                assert!(
                    *g >= 1 && self.n.is_multiple_of(*g),
                    "run_finder: group size {g} must divide n = {}",
                    self.n
                )
            }
            Variant::Sampled { lengths } => {
                assert!(
                    lengths.first() == Some(&1),
                    "run_finder: sampled lengths must start at 1"
                );
                assert!(
                    lengths.last() == Some(&self.n),
                    "run_finder: sampled lengths must end at n"
                );
                assert!(
                    lengths.windows(2).all(|w| w[0] < w[1]),
                    "run_finder: sampled lengths must ascend"
                );
            }
            _ => {}
        }
    }
}

/// Inputs of one cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FinderIn {
    /// Synchronous reset (pipelined forms only; combinational forms ignore it).
    pub reset: bool,
    /// Free map, 1 = free, bit i = block i. Bits at and above N are ignored.
    pub bits: u128,
    /// Requested blocks (`clog2(N+1)` bits wide in hardware).
    pub need: usize,
}

crate::reset_by_field!(FinderIn);

/// Outputs of one cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FinderOut {
    /// Longest free run (as the variant sees it).
    pub max_run: usize,
    /// A run of at least `need` free blocks exists (as the variant sees it).
    pub fit_found: bool,
    /// Lowest start of such a run; 0 when none.
    pub fit_start: usize,
}

impl FinderOut {
    fn from_fit(max_run: usize, fit: Option<usize>) -> Self {
        FinderOut {
            max_run,
            fit_found: fit.is_some(),
            fit_start: fit.unwrap_or(0),
        }
    }
}

/// The exact answer ([`max_run`] and [`first_fit`]).
pub fn exact(bits: u128, n: usize, need: usize) -> FinderOut {
    let bits = bits & low_mask(n);
    FinderOut::from_fit(max_run(bits, n), first_fit(bits, n, need))
}

/// AND-reduce each group of `g` blocks into one group bit (emb. 5 step e2).
pub fn group_bits(bits: u128, n: usize, g: usize) -> u128 {
    let gm = low_mask(g);
    (0..n / g)
        .filter(|j| (bits >> (j * g)) & gm == gm)
        .fold(0, |acc, j| acc | 1 << j)
}

/// Grouped finder (emb. 5): exact finder over the AND-reduced groups, scaled by `g`.
pub fn grouped(bits: u128, n: usize, g: usize, need: usize) -> FinderOut {
    let z = n / g;
    let gb = group_bits(bits & low_mask(n), n, g);
    let groups_needed = need.div_ceil(g);
    let fit = if groups_needed > z {
        None
    } else {
        first_fit(gb, z, groups_needed).map(|s| s * g)
    };
    FinderOut::from_fit(max_run(gb, z) * g, fit)
}

/// Sampled finder (emb. 6) over the sampled run `lengths`.
pub fn sampled(bits: u128, n: usize, lengths: &[usize], need: usize) -> FinderOut {
    let bits = bits & low_mask(n);
    let true_max = max_run(bits, n);
    let max = lengths
        .iter()
        .copied()
        .filter(|&l| l <= true_max)
        .max()
        .unwrap_or(0);
    let fit = if need == 0 {
        Some(0)
    } else {
        lengths
            .iter()
            .copied()
            .find(|&l| l >= need)
            .and_then(|l| first_fit(bits, n, l))
    };
    FinderOut::from_fit(max, fit)
}

/// One combinational evaluation of the configured variant.
pub fn evaluate(cfg: &FinderConfig, bits: u128, need: usize) -> FinderOut {
    match &cfg.variant {
        Variant::Exact | Variant::Tree => exact(bits, cfg.n, need),
        Variant::Grouped { g } => grouped(bits, cfg.n, *g, need),
        Variant::Sampled { lengths } => sampled(bits, cfg.n, lengths, need),
    }
}

/// Cycle model of one finder: combinational (`latency = 0`) or pipelined with II = 1.
#[derive(Clone, Debug)]
pub struct FinderModel {
    /// Configuration.
    pub cfg: FinderConfig,
    pipe: VecDeque<FinderOut>,
}

impl FinderModel {
    /// A finder in its reset state.
    pub fn new(cfg: FinderConfig) -> Self {
        cfg.validate();
        let pipe = VecDeque::from(vec![FinderOut::default(); cfg.latency]);
        FinderModel { cfg, pipe }
    }
}

impl CycleModel for FinderModel {
    type In = FinderIn;
    type Out = FinderOut;
    fn reset(&mut self) {
        self.pipe.iter_mut().for_each(|o| *o = FinderOut::default());
    }
    fn step(&mut self, input: &FinderIn) -> FinderOut {
        let now = evaluate(&self.cfg, input.bits, input.need);
        if self.cfg.latency == 0 {
            return now;
        }
        let out = self.pipe.pop_front().unwrap();
        self.pipe.push_back(if input.reset {
            FinderOut::default()
        } else {
            now
        });
        if input.reset {
            self.reset();
        }
        out
    }
}

// ---------------------------------------------------------------------------------------------
// Time-shared finder (emb. 7)
// ---------------------------------------------------------------------------------------------

/// One time-shared finder of `e` bits serving several bitmaps over a cycle schedule (emb. 7).
///
/// `schedule[c]` lists the resources evaluated in schedule cycle `c` as `(resource, width)`,
/// packed side by side from bit 0 of the shared `e`-bit word (the patent's example:
/// `[[(0, 128)], [(1, 64), (2, 48)]]` with `e = 128`). Inside one cycle, runs never cross a
/// boundary between two resources: the shifted copies `D_e` mark the top `e` bits of every slot as
/// used (patent step g32), which is what the boundary masks `m(i)` of \[0214\] do. Unused bits of the
/// shared word (above the last slot) read as used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimeShared {
    /// Width E of the shared finder.
    pub e: usize,
    /// Per schedule cycle, the `(resource, width)` slots side by side from bit 0.
    pub schedule: Vec<Vec<(usize, usize)>>,
}

/// Per-cycle input of the time-shared finder: every resource's current free map.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TimeSharedIn {
    /// Synchronous reset: back to schedule cycle 0, all results 0.
    pub reset: bool,
    /// Free map of each resource (index = resource id).
    pub maps: Vec<u128>,
}

impl ResetInput for TimeSharedIn {
    fn reset_input() -> Self {
        TimeSharedIn {
            reset: true,
            maps: Vec::new(),
        }
    }
}

/// Per-cycle output: the latest `max_run` of every resource and which schedule cycle runs now.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TimeSharedOut {
    /// Schedule cycle evaluated during this cycle.
    pub slot_cycle: usize,
    /// Registered result per resource (updated at the end of the cycle that evaluated it).
    pub max_run: Vec<usize>,
}

impl TimeShared {
    /// The patent's example (\[0212\]–\[0214\]): E = 128; cycle 0 evaluates resource 0 (128 blocks),
    /// cycle 1 evaluates resources 1 (64 blocks, bits 0..64) and 2 (48 blocks, bits 64..112).
    pub fn patent_example() -> Self {
        TimeShared {
            e: 128,
            schedule: vec![vec![(0, 128)], vec![(1, 64), (2, 48)]],
        }
    }
    /// Number of resources named in the schedule.
    pub fn resources(&self) -> usize {
        self.schedule
            .iter()
            .flatten()
            .map(|&(r, _)| r + 1)
            .max()
            .unwrap_or(0)
    }
    /// Panics with a clear message on a bad schedule.
    pub fn validate(&self) {
        assert!(
            (1..=128).contains(&self.e),
            "time_shared: e = {} must be in 1..=128",
            self.e
        );
        assert!(!self.schedule.is_empty(), "time_shared: empty schedule");
        for (c, slots) in self.schedule.iter().enumerate() {
            let used: usize = slots.iter().map(|&(_, w)| w).sum();
            assert!(
                used <= self.e,
                "time_shared: cycle {c} packs {used} bits into an {}-bit finder",
                self.e
            );
            assert!(
                slots.iter().all(|&(_, w)| w >= 1),
                "time_shared: zero-width slot in cycle {c}"
            );
        }
    }
    /// Pack the resources of schedule cycle `c` into the shared word (step g2).
    pub fn pack(&self, c: usize, maps: &[u128]) -> u128 {
        let mut word = 0u128;
        let mut at = 0;
        for &(r, w) in &self.schedule[c] {
            word |= (maps.get(r).copied().unwrap_or(0) & low_mask(w)) << at;
            at += w;
        }
        word
    }
    /// The boundary mask `m` applied to the copy shifted by `s` (step g32): every bit that would
    /// receive a bit from another slot (or from outside the word) is forced to "used".
    pub fn boundary_mask(&self, c: usize, s: usize) -> u128 {
        let mut m = 0u128;
        let mut at = 0;
        for &(_, w) in &self.schedule[c] {
            if s < w {
                m |= low_mask(w - s) << at;
            }
            at += w;
        }
        m
    }
    /// The shared finder in cycle `c`, written as the patent's steps g32–g34: shift the packed word
    /// right by `s` with the boundary mask, AND-accumulate, OR-reduce per slot, read out the
    /// highest `s` with a 1. Returns `(resource, max_run)` per slot.
    pub fn evaluate_cycle(&self, c: usize, maps: &[u128]) -> Vec<(usize, usize)> {
        let d0 = self.pack(c, maps);
        let mut acc = d0;
        let mut result: Vec<(usize, usize)> =
            self.schedule[c].iter().map(|&(r, _)| (r, 0)).collect();
        for s in 0..self.e {
            if s > 0 {
                acc &= (d0 >> s) & self.boundary_mask(c, s);
            }
            let mut at = 0;
            for (k, &(_, w)) in self.schedule[c].iter().enumerate() {
                if (acc >> at) & low_mask(w) != 0 {
                    result[k].1 = s + 1;
                }
                at += w;
            }
        }
        result
    }
}

/// Cycle model of the time-shared finder: a schedule counter walks the cycles; in each cycle the
/// slots of that cycle are evaluated and their results registered (visible the next cycle).
#[derive(Clone, Debug)]
pub struct TimeSharedModel {
    /// The schedule.
    pub ts: TimeShared,
    cycle: usize,
    results: Vec<usize>,
}

impl TimeSharedModel {
    /// A time-shared finder in its reset state (schedule cycle 0, results 0).
    pub fn new(ts: TimeShared) -> Self {
        ts.validate();
        let results = vec![0; ts.resources()];
        TimeSharedModel {
            ts,
            cycle: 0,
            results,
        }
    }
}

impl CycleModel for TimeSharedModel {
    type In = TimeSharedIn;
    type Out = TimeSharedOut;
    fn reset(&mut self) {
        self.cycle = 0;
        self.results.iter_mut().for_each(|r| *r = 0);
    }
    fn step(&mut self, input: &TimeSharedIn) -> TimeSharedOut {
        let out = TimeSharedOut {
            slot_cycle: self.cycle,
            max_run: self.results.clone(),
        };
        if input.reset {
            self.reset();
            return out;
        }
        for (r, m) in self.ts.evaluate_cycle(self.cycle, &input.maps) {
            self.results[r] = m;
        }
        self.cycle = (self.cycle + 1) % self.ts.schedule.len();
        out
    }
}

// ---------------------------------------------------------------------------------------------
// Monte Carlo for the patent's grouped-finder analysis ([0151]–[0154])
// ---------------------------------------------------------------------------------------------

/// Tiny deterministic xorshift generator (no dependency).
#[derive(Clone, Debug)]
pub struct XorShift(pub u64);

impl XorShift {
    /// Next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
    /// 128 random bits, each 1 with probability 1/2.
    pub fn next_u128(&mut self) -> u128 {
        (self.next_u64() as u128) << 64 | self.next_u64() as u128
    }
}

/// Estimated probabilities of the patent's example, from `trials` random 128-block maps per
/// unit (each block free with probability 1/2), using the grouped golden model (g = 4) for a
/// request of 4 blocks:
/// - `p_unit`: one unit finds no free aligned group (\[0153\]: (15/16)^32 = 0.127);
/// - `p_module`: a module of 4 units has at least one unit without one (\[0153\]: 0.418);
/// - `p_all16`: all 16 modules fail, `p_module^16` (\[0154\]: ~9e-7; far too rare to sample
///   directly, so it is computed from the estimated `p_module`, as the patent does).
pub fn grouped_miss_probabilities(trials: usize, seed: u64) -> (f64, f64, f64) {
    let mut rng = XorShift(seed | 1);
    let unit_fails = |rng: &mut XorShift| !grouped(rng.next_u128(), 128, 4, 4).fit_found;
    let mut unit_miss = 0usize;
    let mut module_miss = 0usize;
    for _ in 0..trials {
        let fails: Vec<bool> = (0..4).map(|_| unit_fails(&mut rng)).collect();
        unit_miss += fails[0] as usize;
        module_miss += fails.iter().any(|&f| f) as usize;
    }
    let p_unit = unit_miss as f64 / trials as f64;
    let p_module = module_miss as f64 / trials as f64;
    (p_unit, p_module, p_module.powi(16))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reference_examples() {
        // 0b0111_0110: runs of 2 (blocks 1–2) and 3 (blocks 4–6).
        assert_eq!(max_run(0b0111_0110, 8), 3);
        assert_eq!(first_fit(0b0111_0110, 8, 2), Some(1));
        assert_eq!(first_fit(0b0111_0110, 8, 3), Some(4));
        assert_eq!(first_fit(0b0111_0110, 8, 4), None);
        assert_eq!(first_fit(0, 8, 0), Some(0));
        assert_eq!(max_run(u128::MAX, 128), 128);
        assert_eq!(first_fit(u128::MAX, 128, 128), Some(0));
    }

    #[test]
    fn sample_sets() {
        assert_eq!(
            sample_lengths(128),
            vec![
                1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16, 20, 24, 28, 32, 40, 48, 56, 64, 80, 96,
                112, 128
            ]
        );
        assert_eq!(
            sample_lengths(32),
            vec![1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 14, 16, 20, 24, 28, 32]
        );
        assert_eq!(sample_lengths(10), vec![1, 2, 3, 4, 5, 6, 7, 8, 10]);
        assert_eq!(sample_lengths(9), vec![1, 2, 3, 4, 5, 6, 7, 8, 9]);
        assert_eq!(
            sample_lengths_no_primes(16),
            vec![1, 4, 6, 8, 10, 12, 14, 16]
        );
    }

    /// Every variant against the reference for every map and every need, N ≤ 12 (the full
    /// N ≤ 16 sweep is in the root package's integration tests).
    #[test]
    fn variants_are_exact_or_conservative_small() {
        for n in 1..=12usize {
            let mut variants = vec![
                Variant::Exact,
                Variant::Tree,
                Variant::Sampled {
                    lengths: sample_lengths(n),
                },
            ];
            for g in [2, 3, 4] {
                if n % g == 0 {
                    variants.push(Variant::Grouped { g });
                }
            }
            for v in variants {
                let cfg = FinderConfig::new(n, v);
                for bits in 0..(1u128 << n) {
                    for need in 0..=n + 1 {
                        check_against_reference(&cfg, bits, need);
                    }
                }
            }
        }
    }

    /// Shared check: exact variants equal the reference; approximate ones are conservative.
    pub(crate) fn check_against_reference(cfg: &FinderConfig, bits: u128, need: usize) {
        let got = evaluate(cfg, bits, need);
        let want = exact(bits, cfg.n, need);
        match cfg.variant {
            Variant::Exact | Variant::Tree => {
                assert_eq!(got, want, "{cfg:?} bits={bits:b} need={need}")
            }
            _ => {
                assert!(
                    got.max_run <= want.max_run,
                    "{cfg:?} bits={bits:b}: max_run too large"
                );
                if got.fit_found {
                    assert!(
                        need == 0
                            || (bits >> got.fit_start) & low_mask(need) == low_mask(need)
                                && got.fit_start + need <= cfg.n,
                        "{cfg:?} bits={bits:b} need={need}: fit_start {} not free",
                        got.fit_start
                    );
                } else {
                    assert_eq!(got.fit_start, 0);
                }
            }
        }
    }

    /// \[0151\]–\[0154\]: 0.127 / 0.418 / ~9e-7, by Monte Carlo on the grouped model.
    #[test]
    fn grouped_miss_probabilities_match_patent() {
        let (p_unit, p_module, p_all) = grouped_miss_probabilities(40_000, 0x5eed);
        assert!((p_unit - 0.127).abs() < 0.01, "p_unit = {p_unit}");
        assert!((p_module - 0.418).abs() < 0.015, "p_module = {p_module}");
        assert!(p_all > 2e-7 && p_all < 3e-6, "p_all16 = {p_all:e}");
    }

    #[test]
    fn grouped_is_group_aligned() {
        // Blocks 1..=4 free: a run of 4, but no aligned group of 4.
        let bits = 0b1_1110;
        assert_eq!(
            exact(bits, 8, 4),
            FinderOut {
                max_run: 4,
                fit_found: true,
                fit_start: 1
            }
        );
        assert_eq!(
            grouped(bits, 8, 4, 4),
            FinderOut {
                max_run: 0,
                fit_found: false,
                fit_start: 0
            }
        );
        assert_eq!(
            grouped(0xF0, 8, 4, 3),
            FinderOut {
                max_run: 4,
                fit_found: true,
                fit_start: 4
            }
        );
    }

    #[test]
    fn pipelined_model_delays_by_latency() {
        let mut m = FinderModel::new(FinderConfig::new(8, Variant::Exact).pipelined(2));
        let a = FinderIn {
            reset: false,
            bits: 0xFF,
            need: 3,
        };
        assert_eq!(m.step(&a), FinderOut::default());
        assert_eq!(m.step(&FinderIn::default()), FinderOut::default());
        assert_eq!(
            m.step(&FinderIn::default()),
            FinderOut {
                max_run: 8,
                fit_found: true,
                fit_start: 0
            }
        );
    }

    #[test]
    fn time_shared_patent_example() {
        let ts = TimeShared::patent_example();
        // Resource 0: run of 100 at 20; resource 1: all 64 free; resource 2: 48 free.
        let maps = vec![low_mask(100) << 20, u128::MAX, u128::MAX];
        assert_eq!(ts.evaluate_cycle(0, &maps), vec![(0, 100)]);
        // The 64- and 48-block runs sit side by side but must not merge.
        assert_eq!(ts.evaluate_cycle(1, &maps), vec![(1, 64), (2, 48)]);
        assert_eq!(ts.boundary_mask(1, 0), low_mask(112));
        assert_eq!(ts.boundary_mask(1, 1), low_mask(63) | low_mask(47) << 64);
        let mut m = TimeSharedModel::new(ts);
        let i = TimeSharedIn { reset: false, maps };
        assert_eq!(m.step(&i).max_run, vec![0, 0, 0]);
        assert_eq!(
            m.step(&i),
            TimeSharedOut {
                slot_cycle: 1,
                max_run: vec![100, 0, 0]
            }
        );
        assert_eq!(
            m.step(&i),
            TimeSharedOut {
                slot_cycle: 0,
                max_run: vec![100, 64, 48]
            }
        );
    }

    #[test]
    fn time_shared_equals_reference_per_resource() {
        let ts = TimeShared::patent_example();
        let mut rng = XorShift(7);
        for _ in 0..300 {
            // Long runs: OR of two random words, sometimes all free.
            let maps: Vec<u128> = (0..3)
                .map(|_| rng.next_u128() | rng.next_u128() | rng.next_u128())
                .collect();
            for c in 0..2 {
                for (r, m) in ts.evaluate_cycle(c, &maps) {
                    let w = ts.schedule[c].iter().find(|s| s.0 == r).unwrap().1;
                    assert_eq!(m, max_run(maps[r] & low_mask(w), w), "resource {r}");
                }
            }
        }
    }
}
