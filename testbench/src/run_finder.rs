//! Run finder family (SPEC Unit 2): RustHDL adapters, Verilator port maps, proptest strategies.
//!
//! Every variant shares one port list (`bits`, `need` → `max_run`, `fit_found`, `fit_start`) and
//! the golden model's [`FinderIn`]/[`FinderOut`], so one lockstep runner and one Verilator port map
//! serve all of them. Registered/pipelined forms add `clock` and `reset`.

use crate::rtl::HdlDut;
use crate::verilator::{Port, TracePorts};
use golden_model::run_finder::{FinderIn, FinderOut};
use golden_model::{count_bits, index_bits};
use hdl::run_finder::*;
use proptest::prelude::*;
use rust_hdl::prelude::*;

/// The low `N` bits of `x` as `Bits<N>`.
pub fn to_bits<const N: usize>(x: u128) -> Bits<N> {
    if N <= 64 {
        Bits::<N>::from(x as u64)
    } else {
        let mut b = Bits::<N>::default();
        for i in 0..N {
            if (x >> i) & 1 == 1 {
                b = b.replace_bit(i, true);
            }
        }
        b
    }
}

/// `Bits<N>` (N ≤ 64) as an integer.
pub fn from_bits<const N: usize>(b: Bits<N>) -> usize {
    u64::from(b) as usize
}

/// Implements [`HdlDut`] for a finder block with the shared port names (`comb`), or with
/// `clock` and `reset` as well (`clocked`).
macro_rules! finder_dut {
    (@common $n:ident, $k:ident) => {
        type In = FinderIn;
        type Out = FinderOut;
        fn sample(&self) -> FinderOut {
            FinderOut {
                max_run: from_bits(self.max_run.val()),
                fit_found: self.fit_found.val(),
                fit_start: from_bits(self.fit_start.val()),
            }
        }
    };
    (comb $ty:ident < $($p:ident),* >, $n:ident, $k:ident) => {
        impl<$(const $p: usize),*> HdlDut for $ty<$($p),*> {
            finder_dut!(@common $n, $k);
            fn drive(&mut self, i: &FinderIn) {
                self.bits.next = to_bits::<$n>(i.bits);
                self.need.next = to_bits::<$k>(i.need as u128);
            }
            fn clock_signal(&mut self) -> Option<&mut Signal<In, Clock>> {
                None
            }
        }
    };
    (clocked $ty:ident < $($p:ident),* >, $n:ident, $k:ident) => {
        impl<$(const $p: usize),*> HdlDut for $ty<$($p),*> {
            finder_dut!(@common $n, $k);
            fn drive(&mut self, i: &FinderIn) {
                self.reset.next = i.reset;
                self.bits.next = to_bits::<$n>(i.bits);
                self.need.next = to_bits::<$k>(i.need as u128);
            }
            fn clock_signal(&mut self) -> Option<&mut Signal<In, Clock>> {
                Some(&mut self.clock)
            }
        }
    };
}

finder_dut!(comb RunTree<N, M, K, S>, N, K);

/// Verilator port map of an exported finder `top` (N-bit map; `clocked` adds `reset`).
#[derive(Clone, Copy, Debug)]
pub struct FinderPorts {
    /// Blocks in the map.
    pub n: usize,
    /// Registered/pipelined top (has `clock` and `reset`).
    pub clocked: bool,
}

impl TracePorts for FinderPorts {
    type In = FinderIn;
    type Out = FinderOut;
    fn inputs(&self) -> Vec<Port> {
        let mut v = Vec::new();
        if self.clocked {
            v.push(Port::new("reset", 1));
        }
        v.push(Port::new("bits", self.n));
        v.push(Port::new("need", count_bits(self.n)));
        v
    }
    fn outputs(&self) -> Vec<Port> {
        vec![
            Port::new("max_run", count_bits(self.n)),
            Port::new("fit_found", 1),
            Port::new("fit_start", index_bits(self.n)),
        ]
    }
    fn encode(&self, i: &FinderIn) -> Vec<u128> {
        let mask = if self.n == 128 {
            u128::MAX
        } else {
            (1u128 << self.n) - 1
        };
        let mut v = Vec::new();
        if self.clocked {
            v.push(i.reset as u128);
        }
        v.push(i.bits & mask);
        v.push(i.need as u128);
        v
    }
    fn decode(&self, v: &[u128]) -> FinderOut {
        FinderOut {
            max_run: v[0] as usize,
            fit_found: v[1] != 0,
            fit_start: v[2] as usize,
        }
    }
    fn has_clock(&self) -> bool {
        self.clocked
    }
}

/// Skewed free maps for an `n`-block map: uniform, long runs (OR of several words), sparse
/// (AND of two words), all free, all used, single holes, one free run at a random place, runs
/// of log-uniform length, the low blocks taken, one 4-block leaf singled out, a free run across
/// a tree-node boundary.
pub fn free_map(n: usize) -> impl Strategy<Value = u128> {
    let mask = if n == 128 {
        u128::MAX
    } else {
        (1u128 << n) - 1
    };
    let nn = n as u32;
    prop_oneof![
        3 => any::<u128>(),
        3 => (any::<u128>(), any::<u128>(), any::<u128>()).prop_map(|(a, b, c)| a | b | c),
        2 => (any::<u128>(), any::<u128>()).prop_map(|(a, b)| a & b),
        1 => Just(u128::MAX),
        1 => Just(0u128),
        2 => (0..nn).prop_map(|h| !(1u128 << h)),
        2 => (0..nn, 1..=nn).prop_map(|(s, l)| {
            let run = if l >= 128 { u128::MAX } else { (1u128 << l) - 1 };
            run << s
        }),
        2 => (0..nn, 0..nn).prop_map(|(a, b)| !(1u128 << a) & !(1u128 << b)),
        6 => run_segments(),
        // blocks below a random start taken, so the lowest fit (and the leaf or node that
        // reports it) lies anywhere in the map, not mostly in its low blocks
        4 => (prop_oneof![any::<u128>(), run_segments()], 0..nn, any::<bool>())
            .prop_map(|(b, s, leaf)| {
                // half the time from a 4-block leaf's first block
                let s = if leaf { s & !3 } else { s };
                b & !((1u128 << s) - 1)
            }),
        // one 4-block leaf singled out: every block below it in runs of at most 0..3
        // blocks, the leaf one of its 16 patterns, the rest random or used; with a small
        // `need` the lowest fit lies in that leaf (or starts in it), at every offset
        6 => (0..nn.div_ceil(4), 0u32..16, 0usize..4, prop_oneof![any::<u128>(), run_segments(), Just(0u128)])
            .prop_map(move |(leaf, pattern, below, rest)| {
                let at = 4 * leaf;
                let low = (1u128 << at) - 1;
                let below = [0u128, u128::MAX / 3, u128::MAX / 5, u128::MAX / 15 * 7][below];
                (below & low) | ((pattern as u128) << at) | (rest & !low & !(0xf << at))
            }),
        // a free run across a node boundary (a multiple of 4..64 blocks): its left part is the
        // left node's suffix, its right part the right node's prefix; around it used blocks,
        // or random ones above it
        4 => (2u32..7, 0..nn, 0u32..7, any::<u32>(), 0u32..7, any::<u32>(), prop_oneof![Just(0u128), any::<u128>()])
            .prop_map(move |(k, b, ex, x, ey, y, above)| {
                let ones = |n: u32| if n >= 128 { u128::MAX } else { (1u128 << n) - 1 };
                let run = |lo: u32, hi: u32| ones(hi) & !ones(lo);
                if nn < 2 {
                    return above;
                }
                // the boundary: a multiple of 2^k strictly inside the map
                let step = (1u32 << k).min(nn / 2);
                let b = (b / step * step).clamp(step, nn - 1);
                let x = (1 + x % (1u32 << ex)).min(b);
                let y = (1 + y % (1u32 << ey)).min(nn - b);
                run(b - x, b + y) | (above & !run(0, (b + y + 1).min(nn)))
            }),
    ]
    .prop_map(move |b| b & mask)
}

/// A map cut into alternating free and used runs whose lengths are spread log-uniformly over
/// 1..=128, so runs of every length start at every position (prefix, suffix and inner runs of
/// every tree node, not only the short runs of a uniform map).
fn run_segments() -> impl Strategy<Value = u128> {
    (
        any::<bool>(),
        proptest::collection::vec((0u32..8, any::<u32>()), 1..48),
    )
        .prop_map(|(mut free, segs)| {
            let mut bits = 0u128;
            let mut pos = 0u32;
            for (e, r) in segs {
                if pos >= 128 {
                    break;
                }
                let len = (1 + r % (1u32 << e)).min(128 - pos);
                if free {
                    let run = if len >= 128 {
                        u128::MAX
                    } else {
                        (1u128 << len) - 1
                    };
                    bits |= run << pos;
                }
                pos += len;
                free = !free;
            }
            bits
        })
}

/// One cycle's input for an `n`-block finder: a skewed map and a `need` (small, any up to `n`,
/// or anything the port can carry), reset low.
pub fn finder_input(n: usize) -> impl Strategy<Value = FinderIn> {
    let kmax = (1usize << count_bits(n)) - 1;
    (
        free_map(n),
        prop_oneof![3 => 0..=n.min(8), 3 => 0..=n, 1 => 0..=kmax],
        0u8..10,
        any::<usize>(),
    )
        .prop_map(move |(bits, need, pick, r)| {
            // half the time a `need` near the map's longest run, so the fit / no-fit edge and
            // the lowest fitting start are exercised at every run length
            let best = golden_model::run_finder::max_run(bits, n);
            let need = match pick {
                0 => best,
                1 => best + 1,
                2 => r % (best + 1),
                // a small need (the 4-block leaves' own fit tables), also 0 and 4 (their
                // default offset 0)
                3 => 1 + r % 4,
                4 | 5 => r % 5,
                _ => need,
            };
            FinderIn {
                reset: false,
                bits,
                need: need.min(kmax),
            }
        })
}

/// A trace of up to `len` cycles with an occasional reset (for registered and pipelined forms).
pub fn finder_trace(n: usize, len: usize) -> impl Strategy<Value = Vec<FinderIn>> {
    proptest::collection::vec((finder_input(n), 0..20u8), 1..=len).prop_map(|v| {
        v.into_iter()
            .map(|(mut i, r)| {
                i.reset = r == 0;
                i
            })
            .collect()
    })
}

finder_dut!(comb ShiftAnd<N, K, S>, N, K);
finder_dut!(comb Grouped<N, G, Z, K, S, KZ, SZ>, N, K);
finder_dut!(comb Sampled<N, T, K, S>, N, K);
finder_dut!(clocked RunTreePipe<N, M, K, S>, N, K);
finder_dut!(clocked RunTreeReg<N, M, K, S>, N, K);
finder_dut!(clocked ShiftAndReg<N, K, S>, N, K);
finder_dut!(clocked GroupedReg<N, G, Z, K, S, KZ, SZ>, N, K);
finder_dut!(clocked SampledReg<N, T, K, S>, N, K);

// ---------------------------------------------------------------------------------------------
// Time-shared finder (emb. 7, the patent's 128 | 64 ‖ 48 example)
// ---------------------------------------------------------------------------------------------

use golden_model::run_finder::{TimeSharedIn, TimeSharedOut};
use hdl::run_finder::time_shared::TimeShared128;

impl HdlDut for TimeShared128 {
    type In = TimeSharedIn;
    type Out = TimeSharedOut;
    fn drive(&mut self, i: &TimeSharedIn) {
        let m = |r: usize| i.maps.get(r).copied().unwrap_or(0);
        self.reset.next = i.reset;
        self.map0.next = to_bits::<128>(m(0));
        self.map1.next = to_bits::<64>(m(1));
        self.map2.next = to_bits::<48>(m(2));
    }
    fn sample(&self) -> TimeSharedOut {
        TimeSharedOut {
            slot_cycle: self.slot_cycle.val() as usize,
            max_run: vec![
                from_bits(self.max_run0.val()),
                from_bits(self.max_run1.val()),
                from_bits(self.max_run2.val()),
            ],
        }
    }
    fn clock_signal(&mut self) -> Option<&mut Signal<In, Clock>> {
        Some(&mut self.clock)
    }
}

/// Verilator port map of the exported [`TimeShared128`].
#[derive(Clone, Copy, Debug, Default)]
pub struct TimeSharedPorts;

impl TracePorts for TimeSharedPorts {
    type In = TimeSharedIn;
    type Out = TimeSharedOut;
    fn inputs(&self) -> Vec<Port> {
        vec![
            Port::new("reset", 1),
            Port::new("map0", 128),
            Port::new("map1", 64),
            Port::new("map2", 48),
        ]
    }
    fn outputs(&self) -> Vec<Port> {
        vec![
            Port::new("slot_cycle", 1),
            Port::new("max_run0", 8),
            Port::new("max_run1", 7),
            Port::new("max_run2", 6),
        ]
    }
    fn encode(&self, i: &TimeSharedIn) -> Vec<u128> {
        let m = |r: usize| i.maps.get(r).copied().unwrap_or(0);
        vec![
            i.reset as u128,
            m(0),
            m(1) & ((1 << 64) - 1),
            m(2) & ((1 << 48) - 1),
        ]
    }
    fn decode(&self, v: &[u128]) -> TimeSharedOut {
        TimeSharedOut {
            slot_cycle: v[0] as usize,
            max_run: vec![v[1] as usize, v[2] as usize, v[3] as usize],
        }
    }
}

/// Traces for the time-shared finder: three skewed maps per cycle, occasional resets.
pub fn time_shared_trace(len: usize) -> impl Strategy<Value = Vec<TimeSharedIn>> {
    proptest::collection::vec(
        (free_map(128), free_map(64), free_map(48), 0..16u8),
        1..=len,
    )
    .prop_map(|v| {
        v.into_iter()
            .map(|(a, b, c, r)| TimeSharedIn {
                reset: r == 0,
                maps: vec![a, b, c],
            })
            .collect()
    })
}

impl TreePipe128Board {
    /// Blocks in the map.
    pub const N: usize = 128;
    /// Cycles from `bits`/`need` in to the answer out.
    pub const LATENCY: usize = 5;
    fn config() -> golden_model::run_finder::FinderConfig {
        use golden_model::run_finder::{FinderConfig, Variant};
        FinderConfig::new(Self::N, Variant::Tree).pipelined(Self::LATENCY)
    }
}

crate::board_unit! {
    /// The 128-block pipelined tree finder (every level registered, latency 5; exported as
    /// `run_finder_tree_pipe_128.v`) as the finder's board config for the cross-unit tools.
    pub struct TreePipe128Board: "run_finder_tree_pipe_128",
        "board: 128-block map, tree finder with every level registered (latency 5)";
    ports: FinderPorts = FinderPorts {
        n: Self::N,
        clocked: true,
    };
    verilog: {
        let mut b = RunTreePipe::<128, 256, 8, 7>::default();
        b.connect_all();
        generate_verilog(&b)
    };
    model: golden_model::run_finder::FinderModel::new(Self::config());
    rtl: RunTreePipe::<128, 256, 8, 7>::default();
    /// Output ranges: `max_run` ≤ N, `fit_start` < N, and a fit starts inside the map.
    fn invariants() -> crate::unit::Invariants<FinderIn, FinderOut> {
        Box::new(|_, _, o| {
            if o.max_run > Self::N || o.fit_start >= Self::N {
                return Err(format!("output out of range: {o:?}"));
            }
            Ok(())
        })
    }
    fn random_trace(seed: u64, cycles: usize) -> Vec<FinderIn> {
        use proptest::strategy::ValueTree;
        let mut runner = crate::unit::seeded_runner(seed);
        // inputs without the trace strategy's frequent resets (one in 20 cycles): a reset
        // only every few hundred cycles, so the pipeline runs full most of the time
        let input = finder_input(Self::N);
        let mut trace = vec![<FinderIn as golden_model::ResetInput>::reset_input()];
        let mut k = 0u64;
        while trace.len() < cycles {
            let mut i = input.new_tree(&mut runner).expect("strategy").current();
            k = k
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            i.reset = (k >> 33).is_multiple_of(400);
            trace.push(i);
        }
        trace.truncate(cycles);
        trace
    }
}
