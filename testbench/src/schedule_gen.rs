//! Schedule order generator (SPEC Unit 6) verification: RTL adapter, port map for Verilator
//! replay, stimulus strategies (valid and bad configurations, candidate and profiler writes,
//! performance values, starts, backpressure, idle cycles), per-cycle output invariants, and the
//! board-config registry entry.

use golden_model::schedule_gen::{SchedCfg, SchedConfig, SchedIn, SchedOut, ScheduleGen as Model};
use golden_model::CycleModel;
use hdl::schedule_gen::ScheduleGen;
use proptest::prelude::*;

crate::port_table! {
    /// Port map of the exported top (the port order, then the profiler's ports); the
    /// coordinates are `max_log` bits wide (board 4, full 6).
    pub struct SchedPorts(SchedConfig) as c: SchedIn => SchedOut;
    dut [
        const C: usize,
        const I: usize,
        const XW: usize,
        const MW: usize,
        const OW: usize,
        const FW: usize
    ] hdl::schedule_gen::ScheduleGenN<C, I, XW, MW, OW, FW>;
    ports {
        in reset: 1,
        in cfg_we: 1,
        in cfg_mode: 3,
        in cfg_log_w: 3,
        in cfg_log_h: 3,
        in cfg_p0: 3,
        in cfg_p1: 3,
        in start: 1,
        out out_valid: 1,
        in out_ready: 1,
        out out_x: c.max_log as usize,
        out out_y: c.max_log as usize,
        out out_last: 1,
        out busy: 1,
        out error: 1,
        out error_code: 2,
        in cand_we: 1,
        in cand_idx: 3,
        in prof_we: 1,
        in prof_k: 4,
        in prof_force: 1,
        in prof_force_idx: 3,
        in perf_we: 1,
        in perf_value: 16,
        out wg_sel: 4,
        out prof_done: 1,
        out prof_best: 3,
    }
}

/// SPEC Unit 6 invariants on one cycle's outputs (any implementation).
pub fn invariants(o: &SchedOut) -> Result<(), String> {
    if o.error != (o.error_code != 0) {
        return Err(format!("error {} with code {}", o.error, o.error_code));
    }
    if !o.out_valid && (o.out_x != 0 || o.out_y != 0 || o.out_last) {
        return Err("coordinate or last shown without out_valid".into());
    }
    if o.out_valid && !o.busy {
        return Err("out_valid while not busy".into());
    }
    if o.wg_sel > 8 || o.prof_best > 7 {
        return Err(format!(
            "wg_sel {} / prof_best {} out of range",
            o.wg_sel, o.prof_best
        ));
    }
    Ok(())
}

/// Stimulus knobs for one random trace (percent of cycles).
#[derive(Clone, Debug)]
pub struct Mix {
    pub idle: u32,
    pub start: u32,
    pub cfg: u32,
    pub cand: u32,
    pub prof: u32,
    pub perf: u32,
    /// Chance that a written configuration is drawn from random field values (mostly bad).
    pub bad: u32,
    /// `out_ready` high in this percentage of cycles.
    pub ready: u32,
    /// Largest grid log drawn for valid configurations (small grids: many tiles per trace).
    pub max_log: u8,
}

/// Stimulus mixes: back-to-back small tiles at full speed, heavy backpressure, profiler churn,
/// config errors, and large tiles.
pub fn mixes() -> Vec<Mix> {
    vec![
        Mix {
            idle: 5,
            start: 20,
            cfg: 5,
            cand: 3,
            prof: 2,
            perf: 8,
            bad: 20,
            ready: 100,
            max_log: 2,
        },
        Mix {
            idle: 10,
            start: 10,
            cfg: 4,
            cand: 2,
            prof: 1,
            perf: 5,
            bad: 20,
            ready: 35,
            max_log: 3,
        },
        Mix {
            idle: 5,
            start: 15,
            cfg: 2,
            cand: 8,
            prof: 6,
            perf: 25,
            bad: 10,
            ready: 90,
            max_log: 2,
        },
        Mix {
            idle: 30,
            start: 10,
            cfg: 15,
            cand: 10,
            prof: 5,
            perf: 5,
            bad: 50,
            ready: 70,
            max_log: 3,
        },
        Mix {
            idle: 2,
            start: 5,
            cfg: 3,
            cand: 2,
            prof: 1,
            perf: 3,
            bad: 10,
            ready: 85,
            max_log: 4,
        },
    ]
}

fn pct(p: u32) -> impl Strategy<Value = bool> {
    (0u32..100).prop_map(move |x| x < p)
}

/// A configuration: mostly a valid one with grid logs ≤ `max_log`, sometimes raw field values.
pub fn cfg_strategy(max_log: u8, bad: u32) -> impl Strategy<Value = SchedCfg> {
    (
        pct(bad),
        0u8..8,
        0u8..=max_log,
        0u8..=max_log,
        0u8..8,
        0u8..8,
        0u8..8,
    )
        .prop_map(move |(raw, mode, lw, lh, a, b, c)| {
            if raw {
                SchedCfg::new(mode, a, b, c, (lw + lh) % 8)
            } else {
                let mode = mode % 5;
                let l = lw + lh;
                let (p0, p1) = match mode {
                    1 => {
                        let p1 = a % (l + 1);
                        (b % (l - p1 + 1), p1)
                    }
                    3 => (a % (lw + 1), b % (lh + 1)),
                    _ => (a, b), // ignored
                };
                SchedCfg::new(mode, lw, lh, p0, p1)
            }
        })
}

/// One cycle of stimulus.
pub fn cycle_strategy(mix: Mix) -> impl Strategy<Value = SchedIn> {
    (
        (
            pct(mix.idle),
            pct(mix.start),
            pct(mix.cfg),
            pct(mix.cand),
            pct(mix.prof),
            pct(mix.perf),
        ),
        pct(mix.ready),
        cfg_strategy(mix.max_log, mix.bad),
        (0u8..8, 0u8..10, pct(20), 0u8..8, any::<u16>(), 0u8..4),
    )
        .prop_map(
            move |((idle, start, cfg, cand, prof, perf), ready, c, (ci, k, force, fi, v, vs))| {
                let mut i = SchedIn {
                    out_ready: ready,
                    ..SchedIn::default()
                };
                if idle {
                    return i;
                }
                i = i.with_cfg(c);
                i.start = start;
                i.cfg_we = cfg;
                i.cand_we = cand;
                i.cand_idx = ci;
                i.prof_we = prof;
                i.prof_k = k;
                i.prof_force = force;
                i.prof_force_idx = fi;
                i.perf_we = perf;
                // small values tie often (ties: the lower index wins)
                i.perf_value = if vs == 0 { v % 4 } else { v };
                i
            },
        )
}

/// The mixes for the full config (grids up to 64×64): [`mixes`] with grid logs up to 4, 5, 4,
/// 6, 6 (the 64-wide tiles take 4096 transfers; the small ones keep starts and writes frequent).
pub fn full_mixes() -> Vec<Mix> {
    mixes()
        .into_iter()
        .zip([4, 5, 4, 6, 6])
        .map(|(m, l)| Mix { max_log: l, ..m })
        .collect()
}

fn traces_of(mixes: Vec<Mix>, max_len: usize) -> impl Strategy<Value = Vec<SchedIn>> {
    (0..mixes.len()).prop_flat_map(move |m| {
        proptest::collection::vec(cycle_strategy(mixes[m].clone()), 1..max_len)
    })
}

/// A whole trace of one mix, at most `max_len` cycles.
pub fn trace_strategy(max_len: usize) -> impl Strategy<Value = Vec<SchedIn>> {
    traces_of(mixes(), max_len)
}

/// A whole trace of one of the [`full_mixes`], at most `max_len` cycles.
pub fn full_trace_strategy(max_len: usize) -> impl Strategy<Value = Vec<SchedIn>> {
    traces_of(full_mixes(), max_len)
}

/// [`full_trace_strategy`] sampled with a seeded generator: exactly `cycles` cycles, reset
/// first (the full config's Verilator replay).
pub fn full_seeded_trace(seed: u64, cycles: usize) -> Vec<SchedIn> {
    sample(full_trace_strategy(6000), seed, cycles)
}

/// [`trace_strategy`] sampled with a seeded generator: exactly `cycles` cycles, reset first.
pub fn seeded_trace(seed: u64, cycles: usize) -> Vec<SchedIn> {
    sample(trace_strategy(2000), seed, cycles)
}

fn sample(strat: impl Strategy<Value = Vec<SchedIn>>, seed: u64, cycles: usize) -> Vec<SchedIn> {
    use proptest::strategy::ValueTree;
    let mut runner = crate::unit::seeded_runner(seed);
    let mut trace = vec![<SchedIn as golden_model::ResetInput>::reset_input()];
    while trace.len() < cycles {
        trace.extend(strat.new_tree(&mut runner).expect("strategy").current());
    }
    trace.truncate(cycles);
    trace
}

/// Host-like stimulus in episodes, steered by the golden model's state (busy, profiled
/// workgroups waiting for a value) so that every feature is used the way a host uses it: valid
/// configurations of every mode, grid (1×1 to 16×16) and parameter, each followed by a start 0–2
/// cycles later (often in the very next cycle, the forwarded write) or by the next tile
/// back to back (a start in the cycle after the last transfer); profiling runs (K candidates
/// written on one grid, K = 1–8, a value after each profiled tile, ties, later tiles under the
/// best; sometimes all K values held back until the K tiles ran), forced candidates, slot
/// episodes (every decoder mask bit, through each mode's rule, written into one of the 9 slots
/// and emitted: see `Episodes::slot_episode`), random backpressure levels, requests while busy (`BUSY`), bad
/// configurations and `prof_k` (`BAD_CFG`), stray values (`NO_PROFILE`), resets, and stretches of
/// the per-cycle random mix of [`cycle_strategy`]. The mutation runs (`synth mutate`) and the
/// long Verilator replays use it (`random_trace`).
pub fn episode_trace(seed: u64, cycles: usize) -> Vec<SchedIn> {
    episode_run(seed, cycles).0
}

/// [`episode_trace`] and the slot-episode targets it visited (indices into the
/// [`decoder_terms`] list), for the coverage test.
pub fn episode_run(seed: u64, cycles: usize) -> (Vec<SchedIn>, Vec<usize>) {
    use proptest::strategy::ValueTree;
    let mut runner = crate::unit::seeded_runner(seed);
    let mixes = mixes();
    let noise: Vec<_> = mixes.iter().map(|m| cycle_strategy(m.clone())).collect();
    let mut g = Episodes {
        model: Model::new(SchedConfig::board()),
        trace: vec![],
        busy: false,
        ready: 100,
        rand: runner.new_rng(),
        base: 0,
        targets: mask_targets(),
        next_target: 0,
        visited: vec![],
    };
    // the walk starts at frac(seed·φ) of the list: traces of consecutive seeds (a mutate run's
    // 12) start spread evenly over the decoder terms, whatever the first seed
    let len = g.targets.len() as u64;
    g.next_target = (((seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32) * len) >> 32) as usize;
    g.push(<SchedIn as golden_model::ResetInput>::reset_input());
    while g.trace.len() < cycles {
        g.ready = [100, 100, 90, 60, 30][g.r(5) as usize];
        match g.r(32) {
            0..=7 => g.tile_episode(),
            8..=12 => g.profile_episode(),
            13..=14 => g.force_episode(),
            15 => g.push(<SchedIn as golden_model::ResetInput>::reset_input()),
            16 => g.bad_episode(),
            20..=31 => g.slot_episode(),
            _ => {
                let n = 5 + g.r(60) as usize;
                let strat = &noise[g.r(noise.len() as u32) as usize];
                for _ in 0..n {
                    let i = strat.new_tree(&mut runner).expect("strategy").current();
                    g.push(i);
                }
            }
        }
    }
    g.trace.truncate(cycles);
    (g.trace, g.visited)
}

/// The targets the slot episodes walk, one per (mode, mask bit) in mode order: (mask bit
/// `8 * (8 * axis + b) + j`, number of rules of that mode that drive it).
pub fn decoder_terms() -> Vec<(u8, usize)> {
    mask_targets().iter().map(|(b, r)| (*b, r.len())).collect()
}

/// State of [`episode_trace`]: the trace so far and the golden model run on it.
struct Episodes {
    model: Model,
    trace: Vec<SchedIn>,
    /// The unit is busy in the next cycle (from the model's outputs and the last input).
    busy: bool,
    /// `out_ready` percentage of this episode.
    ready: u32,
    rand: proptest::test_runner::TestRng,
    /// Base of the profiling episode's close performance values.
    base: u16,
    /// Every decoder mask bit (`8 * (8 * axis + b) + j`: coordinate bit b of x/y driven by
    /// index bit j) some board configuration sets, per mode, with those configurations
    /// grouped by the rule that drives it ([`mask_targets`]).
    targets: Vec<(u8, Vec<Vec<SchedCfg>>)>,
    /// The target of the last slot episode.
    next_target: usize,
    /// The targets visited, in order.
    visited: Vec<usize>,
}

/// Which rule of its mode maps thread bit `i` (x bits 0..lw, then y bits) to an index bit —
/// SPEC's piecewise definitions, the decoder's terms: strided (1) `i < p1`, `i < p1 + p0`, the
/// rest; permuted (3) x below `p0`, x from `p0`, y below `p1`, y from `p1`; one rule otherwise.
fn decode_rule(mode: u8, lw: u8, p0: u8, p1: u8, i: u8) -> u8 {
    match mode {
        1 if i < p1 => 0,
        1 if i < p1 + p0 => 1,
        1 => 2,
        3 if i < lw => u8::from(i >= p0),
        3 => 2 + u8::from(i - lw >= p1),
        _ => 0,
    }
}

/// The decoder mask bits (`8 * (8 * axis + b) + j`) of the board configurations, one target
/// per (mode, bit) for modes 1, 3 and 4 (the permuted orders), each with the configurations
/// that set the bit grouped by the rule of the mode that drives it ([`decode_rule`]): a slot
/// episode draws the rule first, then a configuration, so a bit that several rules can drive
/// gets each rule's decoder term as often, not mostly the rule with the most configurations.
fn mask_targets() -> Vec<(u8, Vec<Vec<SchedCfg>>)> {
    let mut t: Vec<(u8, Vec<Vec<SchedCfg>>)> = vec![];
    for mode in [1u8, 3, 4] {
        // (mask bit, rule) → configurations
        let mut m: std::collections::BTreeMap<(u8, u8), Vec<SchedCfg>> = Default::default();
        for lw in 0..5 {
            for lh in 0..5 {
                for p0 in 0..8 {
                    for p1 in 0..8 {
                        if mode == 4 && (p0, p1) != (0, 0) {
                            continue;
                        }
                        let Some((wx, wy, _)) = hdl::schedule_gen::decode(mode, lw, lh, p0, p1)
                        else {
                            continue;
                        };
                        for bit in 0..32u8 {
                            let b = bit / 8;
                            for (word, axis, i) in [(wx, 0u8, b), (wy, 64, lw + b)] {
                                if word >> bit & 1 == 1 {
                                    let rule = decode_rule(mode, lw, p0, p1, i);
                                    m.entry((axis + bit, rule))
                                        .or_default()
                                        .push(SchedCfg::new(mode, lw, lh, p0, p1));
                                }
                            }
                        }
                    }
                }
            }
        }
        for ((bit, _), c) in m {
            match t.last_mut() {
                Some((b, rules)) if *b == bit && t_mode(rules) == mode => rules.push(c),
                _ => t.push((bit, vec![c])),
            }
        }
    }
    t
}

/// The mode of a target's configurations.
fn t_mode(rules: &[Vec<SchedCfg>]) -> u8 {
    rules[0][0].mode
}

impl Episodes {
    fn r(&mut self, n: u32) -> u32 {
        self.rand.next_u32() % n
    }
    fn chance(&mut self, pct: u32) -> bool {
        self.r(100) < pct
    }
    /// Append one cycle (out_ready drawn at the episode's level) and step the model.
    fn push(&mut self, mut i: SchedIn) {
        if !i.reset {
            i.out_ready = self.chance(self.ready);
        }
        let o = self.model.step(&i);
        let done = o.out_valid && i.out_ready && o.out_last;
        self.busy = !i.reset && ((o.busy && !done) || (i.start && !o.busy));
        self.trace.push(i);
    }
    fn idle(&self) -> SchedIn {
        SchedIn::default()
    }
    /// One `prof_we` cycle with K = 0: profiling off, the `cfg` registers choose again.
    fn profiling_off(&mut self) {
        let i = SchedIn {
            prof_we: true,
            prof_k: 0,
            ..self.idle()
        };
        self.push(i);
    }
    /// One `perf_we` cycle with a value drawn by [`Self::value`].
    fn perf_value(&mut self, kind: u32) {
        let v = self.value(kind);
        let i = SchedIn {
            perf_we: true,
            perf_value: v,
            ..self.idle()
        };
        self.push(i);
    }
    /// A valid configuration: any mode, grid logs ≤ `max_log`, any fitting parameter.
    fn valid_cfg(&mut self, max_log: u8) -> SchedCfg {
        let lw = self.r(max_log as u32 + 1) as u8;
        let lh = self.r(max_log as u32 + 1) as u8;
        self.valid_cfg_on(lw, lh)
    }
    fn valid_cfg_on(&mut self, lw: u8, lh: u8) -> SchedCfg {
        // the modes with parameters (strided, tiled) twice as often: more decoder corners
        let mode = [0, 1, 1, 2, 3, 3, 4][self.r(7) as usize];
        self.valid_cfg_mode(mode, lw, lh)
    }
    /// A valid configuration of `mode` on a 2^lw × 2^lh grid, parameters uniform among the
    /// fitting ones.
    fn valid_cfg_mode(&mut self, mode: u8, lw: u8, lh: u8) -> SchedCfg {
        let l = lw + lh;
        let (p0, p1) = match mode {
            1 => {
                let p1 = self.r(l as u32 + 1) as u8;
                (self.r((l - p1) as u32 + 1) as u8, p1)
            }
            3 => (self.r(lw as u32 + 1) as u8, self.r(lh as u32 + 1) as u8),
            _ => (self.r(8) as u8, self.r(8) as u8), // ignored
        };
        SchedCfg::new(mode, lw, lh, p0, p1)
    }
    /// A configuration that does not fit (or a mode > 4).
    fn bad_cfg(&mut self) -> SchedCfg {
        loop {
            let c = SchedCfg::new(
                self.r(8) as u8,
                self.r(8) as u8,
                self.r(8) as u8,
                self.r(8) as u8,
                self.r(8) as u8,
            );
            if !c.fits(4) {
                return c;
            }
        }
    }
    /// Requests that must be refused while busy, or a stray value.
    fn while_busy(&mut self) -> SchedIn {
        let mut i = self.idle();
        let c = if self.chance(70) {
            self.valid_cfg(4)
        } else {
            self.bad_cfg()
        };
        i = i.with_cfg(c);
        match self.r(6) {
            0 => i.start = true,
            1 => i.cfg_we = true,
            2 => {
                i.cand_we = true;
                i.cand_idx = self.r(8) as u8;
            }
            3 => {
                i.prof_we = true;
                i.prof_k = self.r(16) as u8;
                i.prof_force = self.chance(30);
                i.prof_force_idx = self.r(8) as u8;
            }
            4 => {
                i.perf_we = true;
                i.perf_value = self.r(65536) as u16;
            }
            _ => {}
        }
        i
    }
    /// Run the current tile to its end, with refused requests now and then; then maybe the
    /// next start right away (back to back).
    fn drain(&mut self) {
        let noisy = self.chance(40);
        let mut guard = 0;
        while self.busy && guard < 5000 {
            guard += 1;
            let i = if noisy && self.chance(15) {
                self.while_busy()
            } else {
                self.idle()
            };
            self.push(i);
        }
    }
    fn start_after(&mut self, gap: u32) {
        for _ in 0..gap {
            let i = self.idle();
            self.push(i);
        }
        let i = SchedIn {
            start: true,
            ..self.idle()
        };
        self.push(i);
    }
    /// Write the `cfg` registers (sometimes a refused bad write around it), then 1–4 tiles.
    fn tile_episode(&mut self) {
        self.drain();
        // one episode in eight runs one tile of the whole 16×16 grid (any mode): the index
        // runs through all 8 bits, so every mode's top index bits and the Hilbert order's last
        // level (log side 4) are emitted
        let full = self.chance(12);
        let c = if full {
            self.valid_cfg_on(4, 4)
        } else {
            let max_log = [2, 3, 4, 4, 4][self.r(5) as usize];
            self.valid_cfg(max_log)
        };
        if self.chance(20) {
            let b = self.bad_cfg();
            let i = SchedIn {
                cfg_we: true,
                ..self.idle().with_cfg(b)
            };
            self.push(i);
        }
        // a start together with the write takes the old configuration
        let with_start = self.chance(10);
        let i = SchedIn {
            cfg_we: true,
            start: with_start,
            ..self.idle().with_cfg(c)
        };
        self.push(i);
        if with_start {
            self.drain();
        }
        if self.chance(20) {
            let b = self.bad_cfg();
            let i = SchedIn {
                cfg_we: true,
                cand_we: self.chance(30),
                cand_idx: self.r(8) as u8,
                ..self.idle().with_cfg(b)
            };
            self.push(i);
        }
        let tiles = if full { 1 } else { 1 + self.r(4) };
        for _ in 0..tiles {
            let gap = [0, 0, 0, 1, 2][self.r(5) as usize];
            self.start_after(gap);
            self.drain();
        }
    }
    /// Candidates on one grid, K profiled tiles with a value each, then tiles under the best.
    fn profile_episode(&mut self) {
        self.drain();
        let lw = self.r(4) as u8;
        let lh = self.r(4) as u8;
        let k = 1 + self.r(8) as u8;
        let n_cand = if self.chance(70) { k } else { 8 };
        for idx in 0..n_cand {
            let c = self.valid_cfg_on(lw, lh);
            let i = SchedIn {
                cand_we: true,
                cand_idx: idx,
                ..self.idle().with_cfg(c)
            };
            self.push(i);
        }
        if self.chance(20) {
            // a cfg write in the same cycle as a candidate write
            let (c, d) = (self.valid_cfg_on(lw, lh), self.r(8) as u8);
            let i = SchedIn {
                cand_we: true,
                cfg_we: true,
                cand_idx: d,
                ..self.idle().with_cfg(c)
            };
            self.push(i);
        }
        let i = SchedIn {
            prof_we: true,
            prof_k: k,
            ..self.idle()
        };
        self.push(i);
        let small = self.r(3);
        self.base = self.r(65536 - 256) as u16;
        // values held back until all K tiles ran: K values outstanding at once
        let hold = k >= 5 && self.chance(40);
        let mut pending = 0u32;
        for _ in 0..k + 1 + self.r(3) as u8 {
            let gap = [0, 0, 1, 3][self.r(4) as usize];
            self.start_after(gap);
            pending += 1;
            // the value comes at the end of the tile or later (during the next one)
            while self.busy {
                let mut i = self.idle();
                if !hold && pending > 0 && self.chance(10) {
                    i.perf_we = true;
                    i.perf_value = self.value(small);
                    pending -= 1;
                }
                self.push(i);
            }
            if !hold && self.chance(60) && pending > 0 {
                self.perf_value(small);
                pending -= 1;
            }
        }
        // the remaining values, and sometimes one too many (NO_PROFILE)
        for _ in 0..pending + u32::from(self.chance(30)) {
            self.perf_value(small);
        }
        for _ in 0..1 + self.r(3) {
            let gap = self.r(2);
            self.start_after(gap);
            self.drain();
        }
        if self.chance(30) {
            // profiling off again: the cfg registers
            self.profiling_off();
        }
    }
    /// One configuration slot (a candidate, or the `cfg` registers) written with a strided or
    /// tiled configuration on a large grid (16×16, 16×8, 8×16, …: the decoder mask bits of
    /// the high index bits), selected (forced, or profiling off for the `cfg` registers; the
    /// selection before or after the write, so the start sometimes gets the forwarded word),
    /// started, and run at full speed past index 2^j for a random index bit j; then reset (the
    /// rest of a 256-coordinate tile adds little) or drained.
    fn slot_episode(&mut self) {
        self.drain();
        let s = self.r(9) as u8;
        // a target mask bit (coordinate bit b of x or y driven by index bit j) and a fitting
        // configuration that sets it, uniform among those; sometimes a 1×1 grid (the slot's
        // "single" bit) or any configuration of a large grid
        let (c, j) = match self.r(8) {
            0 => (SchedCfg::new(self.r(5) as u8, 0, 0, 0, 0), 0),
            1 => {
                let (lw, lh) = (3 + self.r(2) as u8, 3 + self.r(2) as u8);
                let c = self.valid_cfg_on(lw, lh);
                (c, self.r(u32::from(lw + lh)))
            }
            _ => {
                // the targets in turn (from a random first one): each one visited
                self.next_target = (self.next_target + 1) % self.targets.len();
                let ti = self.next_target;
                self.visited.push(ti);
                let nr = self.targets[ti].1.len() as u32;
                let ri = self.r(nr) as usize;
                let m = self.targets[ti].1[ri].len() as u32;
                let ci = self.r(m) as usize;
                (
                    self.targets[ti].1[ri][ci],
                    u32::from(self.targets[ti].0 % 8),
                )
            }
        };
        let write = SchedIn {
            cfg_we: s == 8,
            cand_we: s < 8,
            cand_idx: s % 8,
            ..self.idle().with_cfg(c)
        };
        let select = SchedIn {
            prof_we: true,
            prof_k: if s < 8 { self.r(9) as u8 } else { 0 },
            prof_force: s < 8,
            prof_force_idx: s % 8,
            ..self.idle()
        };
        self.ready = 100;
        if self.chance(50) {
            self.push(write);
            self.push(select);
        } else {
            self.push(select);
            self.push(write);
        }
        let gap = [0, 0, 1][self.r(3) as usize];
        self.start_after(gap);
        // past index 2^j, often further (the other bits of the configuration)
        let j = j.max(self.r(u32::from(c.log_w + c.log_h) + 1));
        let cut = (1u32 << j) + 4 + self.r(8);
        let mut n = 0;
        while self.busy && n < cut {
            let i = self.idle();
            self.push(i);
            n += 1;
        }
        if self.busy && self.chance(85) {
            self.push(<SchedIn as golden_model::ResetInput>::reset_input());
        } else {
            self.drain();
        }
    }
    /// A performance value: tiny (ties), close to the episode's base (the low bits decide), or
    /// anything.
    fn value(&mut self, kind: u32) -> u16 {
        match kind {
            0 => self.r(4) as u16,
            1 => self.base + self.r(256) as u16,
            _ => self.r(65536) as u16,
        }
    }
    /// Force a candidate (maybe written right before the start), run tiles, then unforce.
    fn force_episode(&mut self) {
        self.drain();
        let f = self.r(8) as u8;
        let i = SchedIn {
            prof_we: true,
            prof_k: self.r(9) as u8,
            prof_force: true,
            prof_force_idx: f,
            ..self.idle()
        };
        self.push(i);
        for _ in 0..1 + self.r(3) {
            if self.chance(50) {
                let c = self.valid_cfg(4);
                let idx = if self.chance(70) { f } else { self.r(8) as u8 };
                let i = SchedIn {
                    cand_we: true,
                    cand_idx: idx,
                    ..self.idle().with_cfg(c)
                };
                self.push(i);
            }
            self.start_after(0);
            self.drain();
        }
        if self.chance(50) {
            self.profiling_off();
        }
    }
    /// Refused requests while idle: bad configurations to the cfg registers or a candidate,
    /// `prof_k` > 8, a value with none waiting; then a start shows nothing changed.
    fn bad_episode(&mut self) {
        self.drain();
        for _ in 0..1 + self.r(4) {
            let c = self.bad_cfg();
            let mut i = self.idle().with_cfg(c);
            match self.r(4) {
                0 => i.cfg_we = true,
                1 => {
                    i.cand_we = true;
                    i.cand_idx = self.r(8) as u8;
                }
                2 => {
                    i.prof_we = true;
                    // half the time the first refused value, 9 (the boundary of the check)
                    i.prof_k = if self.chance(50) {
                        9
                    } else {
                        9 + self.r(7) as u8
                    };
                    i.prof_force = self.chance(50);
                    i.prof_force_idx = self.r(8) as u8;
                }
                _ => {
                    i.perf_we = true;
                    i.perf_value = self.r(65536) as u16;
                }
            }
            self.push(i);
        }
        let gap = self.r(2);
        self.start_after(gap);
        self.drain();
    }
}

crate::board_unit! {
    /// The schedule generator's board config for the cross-unit tools.
    pub struct ScheduleGenBoard: "schedule_gen",
        "board: grids up to 16x16, 8 candidates, 16-bit performance values";
    ports: SchedPorts = SchedPorts(SchedConfig::board());
    verilog: hdl::schedule_gen::verilog();
    model: Model::new(SchedConfig::board());
    rtl: ScheduleGen::new();
    fn invariants() -> crate::unit::Invariants<SchedIn, SchedOut> {
        Box::new(|_, _, o| invariants(o))
    }
    fn random_trace(seed: u64, cycles: usize) -> Vec<SchedIn> {
        episode_trace(seed, cycles)
    }
}
