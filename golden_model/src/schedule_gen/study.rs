//! The six-benchmark study of seed 004 (\[0037\]): which thread order gives the fewest cache
//! misses for which access pattern, and whether the profiling selector finds it.
//!
//! Plain software, no timing: a set-associative LRU cache ([`Cache`]), the patent's six
//! benchmark access patterns ([`Bench`]) written as per-thread address lists, and a kernel runner
//! ([`run_kernel`]) that executes the workgroups of an n×n thread grid one after another, each
//! workgroup tile in the order the schedule configuration gives, in warps of consecutive threads
//! of that order (a warp issues its k-th access for all its threads before its (k+1)-th: the
//! SIMT lockstep), through one shared cache.
//!
//! The patent names the six benchmarks (integral image by row and by column, 11×11 convolution,
//! matrix multiply, matrix copy by row and by column) but the text we have is cut off before it
//! defines them; the access patterns below are ours (see each variant's doc).

use super::{Choice, Profiler, SchedCfg};

/// A set-associative cache with LRU replacement, counting hits and misses.
#[derive(Clone, Debug)]
pub struct Cache {
    sets: Vec<Vec<u64>>,
    ways: usize,
    line_bits: u32,
    pub hits: u64,
    pub misses: u64,
}

/// Cache geometry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CacheParams {
    pub sets: usize,
    pub ways: usize,
    /// Line size in bytes (a power of two).
    pub line: usize,
}

impl CacheParams {
    pub fn bytes(&self) -> usize {
        self.sets * self.ways * self.line
    }
    pub fn name(&self) -> String {
        format!(
            "{} KB ({} sets × {} ways × {} B)",
            self.bytes() as f64 / 1024.0,
            self.sets,
            self.ways,
            self.line
        )
    }
}

impl Cache {
    pub fn new(p: CacheParams) -> Self {
        assert!(p.sets >= 1 && p.ways >= 1, "a cache needs a set and a way");
        assert!(
            p.line.is_power_of_two(),
            "line size {} is not a power of two",
            p.line
        );
        Self {
            sets: vec![Vec::with_capacity(p.ways); p.sets],
            ways: p.ways,
            line_bits: p.line.trailing_zeros(),
            hits: 0,
            misses: 0,
        }
    }

    /// One access; true on a hit. The set is the line number modulo the set count; within a
    /// set the ways are kept most recently used first.
    pub fn access(&mut self, addr: u64) -> bool {
        let line = addr >> self.line_bits;
        let n = self.sets.len() as u64;
        let set = &mut self.sets[(line % n) as usize];
        let tag = line / n;
        if let Some(pos) = set.iter().position(|&t| t == tag) {
            set[..=pos].rotate_right(1);
            self.hits += 1;
            true
        } else {
            if set.len() == self.ways {
                set.pop();
            }
            set.insert(0, tag);
            self.misses += 1;
            debug_assert!(set.len() <= self.ways);
            false
        }
    }
}

/// The patent's six benchmarks. Arrays are n×n of 4-byte elements, row-major; thread (x, y) of
/// the global n×n thread grid computes one output element.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bench {
    /// Integral image, row pass: `out[y][x] = out[y][x-1] + in[y][x]`.
    IntegralRow,
    /// Integral image, column pass, thread x walking down a column of memory:
    /// `out[x][y] = out[x][y-1] + in[x][y]` (thread (x, y) owns element row x, column y).
    IntegralCol,
    /// 11×11 convolution: `out[y][x] = Σ in[y+dy][x+dx]`, dy, dx ∈ −5..=5, clamped at the
    /// borders (the 121 weights are constants).
    Conv11,
    /// Matrix multiply: `C[y][x] = Σ_k A[y][k] · B[k][x]`.
    MatMul,
    /// Matrix copy by row: `out[y][x] = in[y][x]`.
    CopyRow,
    /// Matrix copy by column: `out[x][y] = in[x][y]` (thread x walks down a column of memory).
    CopyCol,
}

impl Bench {
    pub const ALL: [Bench; 6] = [
        Bench::IntegralRow,
        Bench::IntegralCol,
        Bench::Conv11,
        Bench::MatMul,
        Bench::CopyRow,
        Bench::CopyCol,
    ];

    pub fn name(&self) -> &'static str {
        match self {
            Bench::IntegralRow => "integral image (row)",
            Bench::IntegralCol => "integral image (column)",
            Bench::Conv11 => "11x11 convolution",
            Bench::MatMul => "matrix multiply",
            Bench::CopyRow => "matrix copy (row)",
            Bench::CopyCol => "matrix copy (column)",
        }
    }

    /// The addresses thread (x, y) touches, in program order.
    pub fn accesses(&self, n: u64, x: u64, y: u64, out: &mut Vec<u64>) {
        out.clear();
        let arr = |k: u64, row: u64, col: u64| k * n * n * 4 + (row * n + col) * 4;
        let (a, b, c) = (0, 1, 2);
        match self {
            Bench::IntegralRow => {
                out.push(arr(a, y, x));
                if x > 0 {
                    out.push(arr(b, y, x - 1));
                }
                out.push(arr(b, y, x));
            }
            Bench::IntegralCol => {
                out.push(arr(a, x, y));
                if y > 0 {
                    out.push(arr(b, x, y - 1));
                }
                out.push(arr(b, x, y));
            }
            Bench::Conv11 => {
                for dy in -5i64..=5 {
                    for dx in -5i64..=5 {
                        let r = (y as i64 + dy).clamp(0, n as i64 - 1) as u64;
                        let col = (x as i64 + dx).clamp(0, n as i64 - 1) as u64;
                        out.push(arr(a, r, col));
                    }
                }
                out.push(arr(b, y, x));
            }
            Bench::MatMul => {
                for k in 0..n {
                    out.push(arr(a, y, k));
                    out.push(arr(b, k, x));
                }
                out.push(arr(c, y, x));
            }
            Bench::CopyRow => {
                out.push(arr(a, y, x));
                out.push(arr(b, y, x));
            }
            Bench::CopyCol => {
                out.push(arr(a, x, y));
                out.push(arr(b, x, y));
            }
        }
    }
}

/// One kernel: an n×n thread grid cut into workgroup tiles (the grid of the configurations),
/// run in row-major workgroup order through one cache.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Kernel {
    pub bench: Bench,
    /// Grid side (threads and matrix elements), a multiple of the tile sides.
    pub n: u64,
    /// Threads per warp.
    pub warp: usize,
    pub cache: CacheParams,
}

/// Run `k`: workgroup `w` is ordered by `pick(w, misses of workgroup w − 1)` (every pick of
/// the same tile size); return the cache misses of every workgroup.
pub fn run_kernel(k: &Kernel, mut pick: impl FnMut(usize, Option<u64>) -> SchedCfg) -> Vec<u64> {
    let mut cache = Cache::new(k.cache);
    let mut per_wg: Vec<u64> = vec![];
    let mut lists: Vec<Vec<u64>> = vec![vec![]; k.warp];
    let mut cached: Option<(SchedCfg, Vec<(u32, u32)>)> = None;
    let mut w = 0;
    loop {
        let c = pick(w, per_wg.last().copied());
        let (tw, th) = (c.width() as u64, c.height() as u64);
        assert!(
            k.n.is_multiple_of(tw) && k.n.is_multiple_of(th),
            "grid {} is not cut by {c:?}",
            k.n
        );
        let (wx, wy) = (k.n / tw, k.n / th);
        if w as u64 >= wx * wy {
            return per_wg;
        }
        if cached.as_ref().is_none_or(|(cc, _)| *cc != c) {
            cached = Some((c, c.order()));
        }
        let order = &cached.as_ref().expect("cached").1;
        let (ox, oy) = ((w as u64 % wx) * tw, (w as u64 / wx) * th);
        let before = cache.misses;
        for warp in order.chunks(k.warp) {
            for (t, &(x, y)) in warp.iter().enumerate() {
                k.bench
                    .accesses(k.n, ox + x as u64, oy + y as u64, &mut lists[t]);
            }
            let steps = lists[..warp.len()].iter().map(Vec::len).max().unwrap_or(0);
            for s in 0..steps {
                for l in &lists[..warp.len()] {
                    if let Some(&a) = l.get(s) {
                        cache.access(a);
                    }
                }
            }
        }
        per_wg.push(cache.misses - before);
        w += 1;
    }
}

/// Run `k` with one order for every workgroup; total misses.
pub fn run_fixed(k: &Kernel, c: SchedCfg) -> u64 {
    run_kernel(k, |_, _| c).iter().sum()
}

/// The profiled run: the first K workgroups under candidates 0 … K−1, each workgroup's misses
/// reported to the [`Profiler`] (saturated to the 16-bit `perf_value` port) as soon as it
/// finishes, the rest under the profiler's choice. Returns (misses per workgroup, the pick).
pub fn run_profiled(k: &Kernel, table: &[SchedCfg; 8], kk: u8) -> (Vec<u64>, u8) {
    let mut prof = Profiler::new(4);
    prof.table = *table;
    prof.control(kk, None);
    let mut last_profiled = false;
    let per_wg = run_kernel(k, |_, prev| {
        if let (true, Some(m)) = (last_profiled, prev) {
            assert!(prof.report(m.min(u16::MAX as u64) as u32));
        }
        let choice = prof.start();
        last_profiled = matches!(choice, Choice::Profiling(_));
        match choice {
            Choice::Registers => table[0],
            other => table[other.sel() as usize],
        }
    });
    assert!(prof.done(), "fewer workgroups than candidates");
    (per_wg, prof.best)
}

/// One benchmark's row of the study.
#[derive(Clone, Debug)]
pub struct BenchResult {
    pub bench: Bench,
    /// Total misses per swept order (same index as [`Study::orders`]).
    pub misses: Vec<u64>,
    /// Index (into `orders`) of the fewest misses over every swept order.
    pub oracle_all: usize,
    /// Candidate index (0–7) of the fewest misses among the profiler's candidates.
    pub oracle_cand: u8,
    /// The profiler's pick and the misses of the profiled run (profiling included).
    pub pick: u8,
    pub profiled_misses: u64,
}

/// The whole study: every benchmark × every swept order, plus the profiled run.
#[derive(Clone, Debug)]
pub struct Study {
    pub n: u64,
    pub warp: usize,
    pub cache: CacheParams,
    pub orders: Vec<SchedCfg>,
    pub candidates: [SchedCfg; 8],
    pub k: u8,
    pub rows: Vec<BenchResult>,
}

/// The orders swept on a 2^lg square tile: the candidate table first, then more parameters.
pub fn swept_orders(lg: u8) -> Vec<SchedCfg> {
    let mut v: Vec<SchedCfg> = super::default_table(lg).to_vec();
    for extra in [
        SchedCfg::strided(lg, lg, 1, 0),
        SchedCfg::strided(lg, lg, 3.min(2 * lg), 0),
        SchedCfg::strided(lg, lg, 2.min(lg), lg),
        SchedCfg::tiled(lg, lg, lg, 1.min(lg)),
        SchedCfg::tiled(lg, lg, 1.min(lg), lg),
        SchedCfg::tiled(lg, lg, 3.min(lg), 1.min(lg)),
    ] {
        if !v.contains(&extra) && extra.fits(lg) {
            v.push(extra);
        }
    }
    v
}

/// Run the study: tiles 2^lg square, an n×n grid, warps of `warp`, one cache, K candidates.
pub fn study(n: u64, lg: u8, warp: usize, cache: CacheParams, k: u8) -> Study {
    let orders = swept_orders(lg);
    let candidates = super::default_table(lg);
    let rows = Bench::ALL
        .iter()
        .map(|&bench| {
            let kern = Kernel {
                bench,
                n,
                warp,
                cache,
            };
            let misses: Vec<u64> = orders.iter().map(|&c| run_fixed(&kern, c)).collect();
            let oracle_all = (0..misses.len())
                .min_by_key(|&i| misses[i])
                .expect("orders");
            let oracle_cand = (0..k as usize).min_by_key(|&i| misses[i]).expect("k > 0") as u8;
            let (per_wg, pick) = run_profiled(&kern, &candidates, k);
            BenchResult {
                bench,
                misses,
                oracle_all,
                oracle_cand,
                pick,
                profiled_misses: per_wg.iter().sum(),
            }
        })
        .collect();
    Study {
        n,
        warp,
        cache,
        orders,
        candidates,
        k,
        rows,
    }
}

impl BenchResult {
    /// The pick is the oracle's order among the candidates (or as good: equal misses).
    pub fn pick_is_oracle(&self) -> bool {
        self.misses[self.pick as usize] == self.misses[self.oracle_cand as usize]
    }
    /// Profiling overhead: misses of the profiled run over the oracle candidate's run, in %.
    pub fn overhead_pct(&self) -> f64 {
        let o = self.misses[self.oracle_cand as usize] as f64;
        100.0 * (self.profiled_misses as f64 - o) / o.max(1.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lru_evicts_the_least_recently_used_way() {
        let mut c = Cache::new(CacheParams {
            sets: 1,
            ways: 2,
            line: 16,
        });
        assert!(!c.access(0));
        assert!(!c.access(16));
        assert!(c.access(4), "same line as 0");
        assert!(!c.access(32), "evicts line 1 (16), the LRU");
        assert!(c.access(0));
        assert!(!c.access(16));
        assert_eq!((c.hits, c.misses), (2, 4));
    }

    #[test]
    fn sets_are_line_number_modulo_sets() {
        let mut c = Cache::new(CacheParams {
            sets: 2,
            ways: 1,
            line: 8,
        });
        assert!(!c.access(0)); // set 0
        assert!(!c.access(8)); // set 1
        assert!(c.access(0));
        assert!(!c.access(16)); // set 0, evicts 0
        assert!(!c.access(0));
    }
}
