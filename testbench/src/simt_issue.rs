//! SIMT issue unit (SPEC Unit 5) verification: RTL adapter, port map for Verilator replay,
//! stimulus (random programs' block sequences driven like a front end would, random cond/exit
//! masks, protocol violations, idle gaps), port-level invariants, the exhaustive state-space
//! check for tiny shapes, and the board unit for the cross-unit tools.

use crate::lockstep::Verdict;
use crate::rtl::HdlDut;
use golden_model::simt_issue::{SimtConfig, SimtIn, SimtIssue as Model, SimtOut};
use golden_model::{CycleModel, ResetInput};
use proptest::prelude::*;
use rust_hdl::prelude::*;

crate::port_table! {
    /// Port map of the exported top (the issue's port order).
    pub struct SimtPorts(SimtConfig) as c: SimtIn => SimtOut;
    dut [const T: usize, const P: usize, const RB: usize] hdl::simt_issue::SimtIssue<T, P, RB>;
    ports {
        in reset: 1,
        in init_valid: 1,
        in init_pc: c.pc_bits,
        in init_mask: c.threads,
        in start_valid: 1,
        in start_sync: 1,
        in end_valid: 1,
        in end_cond: c.threads,
        in end_exit: c.threads,
        in end_taken: c.pc_bits,
        in end_fall: c.pc_bits,
        out warp_pc: c.pc_bits,
        out active: c.threads,
        out live: c.threads,
        out rep: c.rep_bits(),
        out redirect: 1,
        out done: 1,
        out error: 1,
        out error_code: 2,
    }
}

/// Port-level invariants of SPEC Unit 5, checked on every cycle of any trace.
pub fn check_invariants(cfg: &SimtConfig, o: &SimtOut) -> Result<(), String> {
    if o.live & !cfg.all() != 0 || o.active & !cfg.all() != 0 {
        return Err(format!(
            "mask beyond T: live {:#b} active {:#b}",
            o.live, o.active
        ));
    }
    if o.active & !o.live != 0 {
        return Err(format!(
            "active {:#b} not within live {:#b}",
            o.active, o.live
        ));
    }
    if o.rep as usize >= cfg.threads {
        return Err(format!("rep {} out of range", o.rep));
    }
    if o.live != 0 && o.live >> o.rep & 1 == 0 {
        return Err(format!("rep {} is not live ({:#b})", o.rep, o.live));
    }
    if o.done != (o.live == 0) {
        return Err(format!("done {} with live {:#b}", o.done, o.live));
    }
    if o.error != (o.error_code != 0) || o.error_code > 2 {
        return Err(format!("error {} with code {}", o.error, o.error_code));
    }
    if o.redirect && (o.error || o.active == 0) {
        return Err("redirect with an error or no active thread".into());
    }
    if o.warp_pc > cfg.pc_mask() {
        return Err(format!("warp PC {} wider than the PC", o.warp_pc));
    }
    Ok(())
}

/// A random program as the unit sees it: block start PCs (distinct, ascending), each with its
/// sync flag and its two successors (indices into the blocks).
#[derive(Clone, Debug)]
pub struct BlockProgram {
    pub pcs: Vec<u32>,
    pub sync: Vec<bool>,
    pub succ: Vec<(usize, usize)>,
}

impl BlockProgram {
    fn block_at(&self, pc: u32) -> Option<usize> {
        self.pcs.iter().position(|&p| p == pc)
    }
}

/// What the front end does at its next event (the builder turns it into legal or illegal
/// strobes by looking at the model's state).
#[derive(Clone, Debug)]
pub struct Choice {
    /// Idle cycles before the event.
    pub gap: u8,
    pub cond: u64,
    pub exit: u64,
    /// Block used by an init; also a wild target for a broken program.
    pub block: usize,
    /// 0..100: below `bad` pct this event is a protocol violation of kind `kind`.
    pub roll: u8,
    pub kind: u8,
    /// An init mask.
    pub mask: u64,
}

/// Stimulus knobs.
#[derive(Clone, Copy, Debug)]
pub struct Mix {
    /// Percent of events that break the protocol.
    pub bad: u8,
    /// Exit density: an active thread exits with probability 1 / 2^exit_shift (0: half).
    pub exit_shift: u32,
    /// Maximum idle gap.
    pub max_gap: u8,
    /// Share of the program's blocks with the sync flag, in 256ths.
    pub sync: u8,
    /// Init masks of varied shapes (the top threads only in half of the inits, else sparse or
    /// uniform) instead of uniform:
    /// a warp of high threads only makes the representative wrap around (rep = T-1 exits, or
    /// every thread behind a sync block sits below rep) at most block ends.
    pub shaped_masks: bool,
}

pub fn mixes() -> Vec<Mix> {
    vec![
        Mix {
            bad: 3,
            exit_shift: 3,
            max_gap: 2,
            sync: 176,
            shaped_masks: false,
        },
        Mix {
            bad: 15,
            exit_shift: 1,
            max_gap: 3,
            sync: 176,
            shaped_masks: false,
        },
        Mix {
            bad: 1,
            exit_shift: 5,
            max_gap: 0,
            sync: 176,
            shaped_masks: false,
        },
        Mix {
            bad: 2,
            exit_shift: 4,
            max_gap: 1,
            sync: 230,
            shaped_masks: true,
        },
        Mix {
            bad: 5,
            exit_shift: 3,
            max_gap: 0,
            sync: 50,
            shaped_masks: true,
        },
    ]
}

/// A random program whose blocks carry the sync flag with probability `sync` / 256. Half the
/// programs spread their blocks over the whole PC range; the other half pack them into a window
/// of 2^k PCs (k = 1..=pc_bits, at a random base), so PCs that share their high bits meet in
/// the unit's PC compares (a TLR against a branch target, taken against fall-through): every
/// compare is decided at every bit position, the lowest ones included, not only at the top bits
/// where two PCs spread over the range usually differ. A third family places the blocks at a base
/// PC and its one-bit neighbours (`base ^ 1 << b`), so that a TLR and a branch target often differ
/// in exactly one bit, at any position: every stage of the prefix compares (less and equal, taken
/// and fall-through, every thread) then decides a result that no other bit settles.
pub fn program_strategy(cfg: SimtConfig, sync: u8) -> impl Strategy<Value = BlockProgram> {
    let pcs = 1usize << cfg.pc_bits;
    let max_blocks = pcs.min(10);
    let spread = proptest::collection::btree_set(0..pcs as u32, 1..=max_blocks).boxed();
    let packed = (1..=cfg.pc_bits, any::<u32>())
        .prop_flat_map(move |(k, base)| {
            let width = 1u32 << k;
            let base = base % (pcs as u32 - width + 1);
            proptest::collection::btree_set(0..width, 1..=max_blocks.min(width as usize))
                .prop_map(move |set| set.into_iter().map(|p| base + p).collect())
        })
        .boxed();
    let bits = cfg.pc_bits;
    let neighbours = (
        any::<u32>(),
        proptest::sample::subsequence(
            (0..bits).collect::<Vec<usize>>(),
            1..=bits.min(max_blocks - 1),
        ),
    )
        .prop_map(move |(base, flips)| {
            let base = base % pcs as u32;
            std::iter::once(base)
                .chain(flips.into_iter().map(|b| base ^ (1u32 << b)))
                .collect::<std::collections::BTreeSet<u32>>()
        })
        .boxed();
    prop_oneof![spread, packed, neighbours].prop_flat_map(
        move |set: std::collections::BTreeSet<u32>| {
            let pcs: Vec<u32> = set.into_iter().collect();
            let n = pcs.len();
            (
                Just(pcs),
                proptest::collection::vec(any::<u8>().prop_map(move |x| x < sync), n),
                proptest::collection::vec((0..n, 0..n), n),
            )
                .prop_map(|(pcs, sync, succ)| BlockProgram { pcs, sync, succ })
        },
    )
}

pub fn choice_strategy(cfg: SimtConfig, mix: Mix) -> impl Strategy<Value = Choice> {
    let all = cfg.all();
    let t = cfg.threads as u64;
    (
        0..=mix.max_gap,
        any::<u64>(),
        proptest::collection::vec(any::<u64>(), 6),
        0usize..16,
        0u8..100,
        0u8..6,
        any::<u64>(),
    )
        .prop_map(move |(gap, cond, ex, block, roll, kind, mask)| {
            let exit = if mix.exit_shift == 0 {
                ex[0]
            } else {
                ex.iter()
                    .take(mix.exit_shift as usize)
                    .fold(!0u64, |a, &b| a & b)
            };
            let shaped = match (mask >> 40) % 4 {
                // threads k..T-1 only
                0 | 1 => all & !((1u64 << ((mask >> 48) % t)) - 1),
                // sparse: about one thread in four
                2 => mask & (mask >> 13) & all,
                _ => mask & all,
            };
            Choice {
                gap,
                cond: cond & all,
                exit: exit & all,
                block,
                roll,
                kind,
                mask: if mask % 17 == 0 {
                    0
                } else if mix.shaped_masks {
                    shaped
                } else {
                    mask & all
                },
            }
        })
}

/// Turn a program and the front end's choices into an input trace (reset first), driving the
/// golden model along to know the warp PC, whether a block is open and whether the warp is
/// done: legal events follow the protocol, `bad` percent break it on purpose (and a quarter of
/// the first events after the reset).
pub fn build_trace(
    cfg: SimtConfig,
    prog: &BlockProgram,
    mix: Mix,
    choices: &[Choice],
) -> Vec<SimtIn> {
    let mut model = Model::new(cfg);
    let mut trace = vec![SimtIn::reset_input()];
    model.step(&trace[0]);
    for (k, ch) in choices.iter().enumerate() {
        for g in 0..ch.gap {
            // idle cycles; every other one carries junk on the data ports (no valid is high)
            let idle = if (ch.roll as usize + g as usize).is_multiple_of(2) {
                SimtIn::default()
            } else {
                SimtIn {
                    init_pc: ch.cond as u32 & cfg.pc_mask(),
                    init_mask: ch.mask,
                    start_sync: ch.kind % 2 == 1,
                    end_cond: ch.exit,
                    end_exit: ch.cond,
                    end_taken: ch.block as u32 & cfg.pc_mask(),
                    end_fall: (ch.cond >> 8) as u32 & cfg.pc_mask(),
                    ..SimtIn::default()
                }
            };
            model.step(&idle);
            trace.push(idle);
        }
        let n = prog.pcs.len();
        let init = SimtIn {
            init_valid: true,
            init_pc: prog.pcs[ch.block % n],
            init_mask: ch.mask,
            ..SimtIn::default()
        };
        let start = SimtIn {
            start_valid: true,
            start_sync: prog.block_at(model.warp_pc()).is_some_and(|b| prog.sync[b]),
            ..SimtIn::default()
        };
        let (t, f) = prog
            .block_at(model.warp_pc())
            .map_or((ch.block % n, 0), |b| prog.succ[b]);
        let end = SimtIn {
            end_valid: true,
            end_cond: ch.cond,
            end_exit: ch.exit,
            end_taken: prog.pcs[t % n],
            end_fall: prog.pcs[f % n],
            ..SimtIn::default()
        };
        // the first event after the reset breaks the protocol in a quarter of the pieces
        // (besides the mix's share): what a unit does with its reset state, not only with
        // the state an init leaves
        let i = if ch.roll < mix.bad || (k == 0 && ch.roll >= 75) {
            match ch.kind {
                0 => init,                      // BUSY unless done
                1 if model.in_block() => start, // start inside a block
                1 => end,                       // end with no block open
                2 => SimtIn {
                    init_valid: true,
                    start_valid: true,
                    ..start
                },
                3 => SimtIn {
                    end_valid: true,
                    end_exit: ch.exit,
                    ..start
                },
                4 => SimtIn {
                    start_valid: true,
                    ..end
                },
                _ => SimtIn {
                    start_sync: !start.start_sync, // a wrong sync flag is legal, just unusual
                    ..start
                },
            }
        } else if model.live() == 0 {
            init
        } else if model.in_block() {
            end
        } else {
            start
        };
        model.step(&i);
        trace.push(i);
    }
    trace
}

/// A whole random trace: one program, one mix, up to `max_events` front-end events.
pub fn trace_strategy(cfg: SimtConfig, max_events: usize) -> impl Strategy<Value = Vec<SimtIn>> {
    let ms = mixes();
    (0..ms.len())
        .prop_flat_map(move |m| {
            let mix = ms[m];
            (program_strategy(cfg, mix.sync), Just(mix))
        })
        .prop_flat_map(move |(prog, mix)| {
            proptest::collection::vec(choice_strategy(cfg, mix), 1..max_events)
                .prop_map(move |choices| build_trace(cfg, &prog, mix, &choices))
        })
}

/// A deterministic random trace of exactly `cycles` cycles (reset first).
pub fn seeded_trace(cfg: SimtConfig, seed: u64, cycles: usize) -> Vec<SimtIn> {
    use proptest::strategy::ValueTree;
    let mut runner = crate::unit::seeded_runner(seed);
    let strat = trace_strategy(cfg, 800);
    let mut trace = vec![SimtIn::reset_input()];
    while trace.len() < cycles {
        // each piece starts with its own reset: the pieces are independent programs
        trace.extend(strat.new_tree(&mut runner).expect("strategy").current());
    }
    trace.truncate(cycles);
    trace
}

/// Lockstep of the golden model and `dut` on `trace`, with the invariants on the DUT outputs.
pub fn lockstep<D>(cfg: SimtConfig, dut: &mut D, trace: &[SimtIn]) -> Verdict
where
    D: CycleModel<In = SimtIn, Out = SimtOut>,
{
    let mut model = Model::new(cfg);
    crate::lockstep::run_lockstep(&mut model, dut, trace, |_, _, o| check_invariants(&cfg, o))
}

/// A RustHDL stepper that can be cloned (for the exhaustive search: one clone per branch of
/// the state graph). Same cycle as [`crate::rtl::RtlSim`]: inputs with the clock low, settle,
/// sample, clock high, settle.
#[derive(Clone)]
pub struct CloneSim<D: HdlDut + Clone> {
    dut: D,
}

impl<D: HdlDut<In = SimtIn, Out = SimtOut> + Clone> CloneSim<D> {
    pub fn new(mut dut: D) -> Self {
        dut.connect_all();
        check_all(&dut).expect("RustHDL check_all failed");
        let mut s = Self { dut };
        if let Some(c) = s.dut.clock_signal() {
            c.next = Clock { clk: false };
        }
        s.settle();
        s
    }
    fn settle(&mut self) {
        for _ in 0..200 {
            self.dut.update_all();
            if !self.dut.has_changed() {
                return;
            }
        }
        panic!("RTL did not settle");
    }
    /// The registered outputs after the last edge (what the next cycle shows).
    pub fn outputs_next(&self) -> SimtOut {
        self.dut.sample()
    }
}

impl<D: HdlDut<In = SimtIn, Out = SimtOut> + Clone> CycleModel for CloneSim<D> {
    type In = SimtIn;
    type Out = SimtOut;
    fn reset(&mut self) {
        self.step(&SimtIn::reset_input());
    }
    fn step(&mut self, i: &SimtIn) -> SimtOut {
        self.dut.drive(i);
        if let Some(c) = self.dut.clock_signal() {
            c.next = Clock { clk: false };
        }
        self.settle();
        let o = self.dut.sample();
        if let Some(c) = self.dut.clock_signal() {
            c.next = Clock { clk: true };
        }
        self.settle();
        o
    }
}

/// Every input of one cycle for a tiny shape: idle, reset, every init (PC × mask), both starts, every end with `end_pcs` as taken and fall PCs and
/// every cond × exit mask, and the double strobes.
pub fn all_inputs(cfg: SimtConfig, end_pcs: &[u32]) -> Vec<SimtIn> {
    let masks: Vec<u64> = (0..=cfg.all()).collect();
    let mut inputs = vec![SimtIn::default(), SimtIn::reset_input()];
    for pc in 0..=cfg.pc_mask() {
        for &m in &masks {
            inputs.push(SimtIn {
                init_valid: true,
                init_pc: pc,
                init_mask: m,
                ..SimtIn::default()
            });
        }
    }
    for sync in [false, true] {
        inputs.push(SimtIn {
            start_valid: true,
            start_sync: sync,
            ..SimtIn::default()
        });
    }
    for &c in &masks {
        for &e in &masks {
            for &t in end_pcs {
                for &f in end_pcs {
                    inputs.push(SimtIn {
                        end_valid: true,
                        end_cond: c,
                        end_exit: e,
                        end_taken: t,
                        end_fall: f,
                        ..SimtIn::default()
                    });
                }
            }
        }
    }
    for (iv, sv, ev) in [
        (true, true, false),
        (true, false, true),
        (false, true, true),
        (true, true, true),
    ] {
        inputs.push(SimtIn {
            init_valid: iv,
            start_valid: sv,
            end_valid: ev,
            ..SimtIn::default()
        });
    }
    inputs
}

/// Exhaustive check for tiny shapes: a breadth-first search over every golden-model state
/// reachable from reset with `inputs`; every (state, input) pair is stepped on the model and on
/// a clone of the RTL that reached the state (along the first path the search found), and the
/// outputs of that cycle and the registered decision shown the next cycle must be equal. The
/// spec checker judges every step too. Returns (states, pairs).
pub fn exhaustive<D>(cfg: SimtConfig, dut: D, inputs: &[SimtIn]) -> Result<(usize, usize), String>
where
    D: HdlDut<In = SimtIn, Out = SimtOut> + Clone,
{
    use std::collections::{HashSet, VecDeque};
    let reset = SimtIn::reset_input();
    let mut m0 = Model::new(cfg);
    let mut r0 = CloneSim::new(dut);
    m0.step(&reset);
    r0.step(&reset);
    // (model, rtl, path id); paths as parent pointers for the report
    let mut paths: Vec<(usize, SimtIn)> = vec![(usize::MAX, reset)];
    let path_of = |paths: &Vec<(usize, SimtIn)>, mut id: usize| {
        let mut p = vec![];
        while id != usize::MAX {
            p.push(paths[id].1.clone());
            id = paths[id].0;
        }
        p.reverse();
        p
    };
    let mut seen: HashSet<Model> = HashSet::from([m0.clone()]);
    let mut queue = VecDeque::from([(m0, r0, 0usize)]);
    let mut pairs = 0;
    while let Some((m, r, id)) = queue.pop_front() {
        for i in inputs {
            let (mut m2, mut r2) = (m.clone(), r.clone());
            let (a, b) = (r2.step(i), m2.step(i));
            let (an, bn) = (r2.outputs_next(), m2.outputs_next());
            pairs += 1;
            if a != b || an != bn {
                let mut p = path_of(&paths, id);
                p.push(i.clone());
                p.push(SimtIn::default());
                let lines: Vec<String> = p
                    .iter()
                    .enumerate()
                    .map(|(c, i)| format!("{c:>4} | {i:?}"))
                    .collect();
                return Err(format!(
                    "exhaustive: RTL differs after the path\n{}\n  this cycle rtl {a:?} model {b:?}\n  next cycle rtl {an:?} model {bn:?}",
                    lines.join("\n")
                ));
            }
            check_invariants(&cfg, &an).map_err(|e| format!("exhaustive: invariant {e}"))?;
            if seen.insert(m2.clone()) {
                paths.push((id, i.clone()));
                queue.push_back((m2, r2, paths.len() - 1));
            }
        }
    }
    Ok((seen.len(), pairs))
}

crate::board_unit! {
    /// The issue unit's board config (8 threads, 8-bit PCs) for the cross-unit tools.
    pub struct SimtIssueBoard: "simt_issue",
        "board: 8 threads, 8-bit PCs";
    ports: SimtPorts = SimtPorts(SimtConfig::board());
    verilog: hdl::simt_issue::verilog(hdl::simt_issue::BoardSimtIssue::default());
    model: Model::new(SimtConfig::board());
    rtl: hdl::simt_issue::BoardSimtIssue::default();
    fn invariants() -> crate::unit::Invariants<SimtIn, SimtOut> {
        let cfg = SimtConfig::board();
        Box::new(move |_, _, o| check_invariants(&cfg, o))
    }
    fn random_trace(seed: u64, cycles: usize) -> Vec<SimtIn> {
        seeded_trace(SimtConfig::board(), seed, cycles)
    }
}
