//! Schedule order generator (SPEC Unit 6): the orders against the spec checker's independent
//! ranks, directed tests (worked example, profiler), the RTL exhaustively over every valid
//! board configuration and every raw configuration word, lockstep proptests with backpressure,
//! the spec checker on every trace and against injected faults, Verilator replay (≥ 10^6
//! cycles), yosys and lint checks of the export.

use golden_model::schedule_gen::{
    SchedCfg, SchedConfig, SchedIn, SchedOut, ScheduleGen as Model, BAD_CFG, BUSY, HILBERT,
    NO_PROFILE,
};
use golden_model::CycleModel;
use hdl::schedule_gen::{FullScheduleGen, ScheduleGen};
use testbench::lockstep::{run_cases, run_lockstep, Verdict};
use testbench::rtl::{HdlDut, RtlSim};
use testbench::schedule_gen::{
    decoder_terms, episode_run, episode_trace, full_seeded_trace, full_trace_strategy, invariants,
    seeded_trace, trace_strategy, SchedPorts,
};
use testbench::spec::judge;
use testbench::spec::schedule_gen::{expected_order, fits, ScheduleGenChecker};

fn cfg_tuple(c: SchedCfg) -> (u8, u8, u8, u8, u8) {
    (c.mode, c.log_w, c.log_h, c.p0, c.p1)
}

/// Lockstep RTL vs model on `trace`, with the invariants, then the spec checker on the RTL's
/// outputs.
fn lockstep(trace: &[SchedIn]) -> Verdict {
    lockstep_of(SchedConfig::board(), ScheduleGen::new(), trace)
}

/// [`lockstep`] for any config: `rtl` against `Model::new(cfg)` and the checker of its grid.
fn lockstep_of<D: HdlDut<In = SchedIn, Out = SchedOut>>(
    cfg: SchedConfig,
    dut: D,
    trace: &[SchedIn],
) -> Verdict {
    let mut model = Model::new(cfg);
    let mut rtl = RtlSim::new(dut);
    let mut outs = Vec::with_capacity(trace.len());
    run_lockstep(&mut model, &mut rtl, trace, |_, _, o| {
        outs.push(o.clone());
        invariants(o)
    })?;
    judge(&mut ScheduleGenChecker::new(cfg.max_log), trace, &outs).map_err(|v| {
        let from = v.cycle.saturating_sub(12);
        let rows: Vec<String> = (from..=v.cycle.min(trace.len() - 1))
            .map(|c| format!("{c:>6} | {:?} | {:?}", trace[c], outs[c]))
            .collect();
        format!("spec checker: {v}\n{}", rows.join("\n"))
    })
}

// ---------------------------------------------------------------- orders

/// The golden model's orders (written as generators) equal the spec checker's (sorted by a rank
/// written from the definitions; Hilbert by the inverse `xy2d`) for every valid configuration
/// of the board and the full config.
#[test]
fn model_orders_equal_the_checkers_ranks() {
    for cfg in [SchedConfig::board(), SchedConfig::full()] {
        let all = cfg.valid_configs();
        for c in &all {
            assert!(fits(cfg_tuple(*c), cfg.max_log), "{c:?}");
            let got: Vec<(u8, u8)> = c.order().iter().map(|&(x, y)| (x as u8, y as u8)).collect();
            assert_eq!(got, expected_order(cfg_tuple(*c)), "{c:?}");
        }
        eprintln!(
            "max_log {}: {} valid configurations",
            cfg.max_log,
            all.len()
        );
    }
    // the fit rule agrees on every raw configuration word
    for w in 0..(1u32 << 15) {
        let f = |s: u32| ((w >> s) & 7) as u8;
        let c = SchedCfg::new(f(0), f(3), f(6), f(9), f(12));
        assert_eq!(c.fits(4), fits(cfg_tuple(c), 4), "{c:?}");
    }
}

/// SPEC's examples of each order on small grids.
#[test]
fn orders_by_hand() {
    let o = |c: SchedCfg| c.order();
    // zigzag 4x2: row 1 right to left
    assert_eq!(
        o(SchedCfg::zigzag(2, 1)),
        [
            (0, 0),
            (1, 0),
            (2, 0),
            (3, 0),
            (3, 1),
            (2, 1),
            (1, 1),
            (0, 1)
        ]
    );
    // strided on 8 threads (4x2), stride 2, groups of 2: groups 0,2,1,3 — the same 8 threads
    // as the first two 2x2 tiles of a 4x4 grid
    let two_squares = [
        (0, 0),
        (1, 0),
        (0, 1),
        (1, 1),
        (2, 0),
        (3, 0),
        (2, 1),
        (3, 1),
    ];
    assert_eq!(o(SchedCfg::strided(2, 1, 1, 1)), two_squares);
    // tiled 4x2 with 2x1 tiles
    assert_eq!(
        o(SchedCfg::tiled(2, 1, 1, 0)),
        [
            (0, 0),
            (1, 0),
            (2, 0),
            (3, 0),
            (0, 1),
            (1, 1),
            (2, 1),
            (3, 1)
        ]
    );
    assert_eq!(o(SchedCfg::tiled(2, 2, 1, 1))[..8], two_squares);
    // Hilbert 4x4 (classic d2xy: the curve of each size ends at (side-1, 0), so the first
    // quadrant's orientation alternates with the size) and 4x2 (two 2x2 squares side by side)
    assert_eq!(
        o(SchedCfg::hilbert(2, 2)),
        [
            (0, 0),
            (1, 0),
            (1, 1),
            (0, 1),
            (0, 2),
            (0, 3),
            (1, 3),
            (1, 2),
            (2, 2),
            (2, 3),
            (3, 3),
            (3, 2),
            (3, 1),
            (2, 1),
            (2, 0),
            (3, 0)
        ]
    );
    assert_eq!(o(SchedCfg::hilbert(2, 1)), HILBERT_4X2);
    let h = o(SchedCfg::hilbert(4, 4));
    assert_eq!(
        (h[0], h[255]),
        ((0, 0), (15, 0)),
        "from (0,0) to (side-1,0)"
    );
    assert!(
        h.windows(2)
            .all(|p| p[0].0.abs_diff(p[1].0) + p[0].1.abs_diff(p[1].1) == 1),
        "a Hilbert curve moves one step at a time"
    );
}

// ---------------------------------------------------------------- directed

/// Hilbert order on a 4×2 grid (the module doc's worked example).
const HILBERT_4X2: [(u32, u32); 8] = [
    (0, 0),
    (0, 1),
    (1, 1),
    (1, 0),
    (2, 0),
    (2, 1),
    (3, 1),
    (3, 0),
];

/// Run `trace` on the RTL and the model in lockstep (plus invariants and the spec checker);
/// return the outputs.
fn directed(trace: &[SchedIn]) -> Vec<SchedOut> {
    lockstep(trace).unwrap_or_else(|e| panic!("{e}"));
    let mut m = Model::new(SchedConfig::board());
    trace.iter().map(|i| m.step(i)).collect()
}

fn idle() -> SchedIn {
    SchedIn {
        out_ready: true,
        ..SchedIn::default()
    }
}
fn write_cfg(c: SchedCfg) -> SchedIn {
    SchedIn {
        cfg_we: true,
        ..idle()
    }
    .with_cfg(c)
}
fn start() -> SchedIn {
    SchedIn {
        start: true,
        ..idle()
    }
}

/// The module doc's worked example: Hilbert on a 4×2 grid.
#[test]
fn worked_example_hilbert_4x2() {
    let mut t = vec![
        SchedIn::reset_input_ready(),
        write_cfg(SchedCfg::hilbert(2, 1)),
        start(),
    ];
    t.extend(std::iter::repeat_n(idle(), 12));
    // cycle numbers as in the doc: the write is cycle 0 there
    let o = directed(&t);
    let o = &o[1..];
    let coords: Vec<(u32, u32)> = o
        .iter()
        .filter(|o| o.out_valid)
        .map(|o| (o.out_x.into(), o.out_y.into()))
        .collect();
    assert_eq!(coords, HILBERT_4X2);
    assert!(
        !o[2].out_valid && o[3].out_valid,
        "first coordinate 2 cycles after the start"
    );
    assert!(o[10].out_last && !o[11].out_valid);
    assert!((2..=10).all(|c| o[c].busy) && !o[1].busy && !o[11].busy);
}

trait ResetReady {
    fn reset_input_ready() -> Self;
}
impl ResetReady for SchedIn {
    fn reset_input_ready() -> Self {
        SchedIn {
            reset: true,
            out_ready: true,
            ..SchedIn::default()
        }
    }
}

/// Errors: BUSY while emitting (also in the cycle of the last transfer; a start in the next
/// cycle is accepted), BAD_CFG leaves the old configuration, NO_PROFILE without a profiled tile.
#[test]
fn errors_change_nothing() {
    let mut t = vec![
        SchedIn::reset_input_ready(),
        write_cfg(SchedCfg::linear(1, 0)),       // 2 threads
        write_cfg(SchedCfg::tiled(1, 0, 2, 0)),  // tile wider than the grid: BAD_CFG
        write_cfg(SchedCfg::new(5, 0, 0, 0, 0)), // mode 5: BAD_CFG
        SchedIn {
            perf_we: true,
            ..idle()
        }, // NO_PROFILE
        start(),                                 // cycle 5
        idle(),
        write_cfg(SchedCfg::linear(0, 0)), // 7: busy: BUSY
        start(),                           // 8: last transfer: BUSY
        start(),                           // 9: accepted
    ];
    t.extend(std::iter::repeat_n(idle(), 6));
    let o = directed(&t);
    assert_eq!(
        (o[3].error_code, o[4].error_code, o[5].error_code),
        (BAD_CFG, BAD_CFG, NO_PROFILE)
    );
    assert_eq!((o[7].out_x, o[8].out_x, o[8].out_last), (0, 1, true));
    assert_eq!(
        (o[8].error_code, o[9].error_code, o[10].error_code),
        (BUSY, BUSY, 0)
    );
    let second: Vec<(u8, u8)> = o[10..]
        .iter()
        .filter(|o| o.out_valid)
        .map(|o| (o.out_x, o.out_y))
        .collect();
    assert_eq!(second, [(0, 0), (1, 0)], "the 2x1 linear config stayed");
}

/// Profiler ([0039]-[0048]): K = 3 candidates on the first three tiles, values 50, 20, 20 (a
/// tie: the lower index wins), then every tile under candidate 1; a forced candidate overrides.
#[test]
fn profiler_picks_the_lowest_then_force() {
    let small = SchedCfg::linear(0, 0); // 1 thread: tiles take 3 cycles
    let mut t = vec![SchedIn::reset_input_ready()];
    for k in 0..3u8 {
        t.push(
            SchedIn {
                cand_we: true,
                cand_idx: k,
                ..idle()
            }
            .with_cfg(SchedCfg { p0: 0, ..small }),
        );
    }
    // candidate 1 and 2 differ in mode only (visible on the wg_sel port)
    t.push(SchedIn {
        prof_we: true,
        prof_k: 3,
        ..idle()
    });
    let mut sels = vec![];
    for v in [50u16, 20, 20] {
        t.push(start());
        sels.push(t.len());
        t.extend([idle(), idle()]);
        t.push(SchedIn {
            perf_we: true,
            perf_value: v,
            ..idle()
        });
    }
    for _ in 0..2 {
        t.push(start());
        sels.push(t.len());
        t.extend([idle(), idle()]);
    }
    t.push(SchedIn {
        prof_we: true,
        prof_k: 3,
        prof_force: true,
        prof_force_idx: 6,
        ..idle()
    });
    t.push(start());
    sels.push(t.len());
    t.extend([idle(), idle(), idle()]);
    let o = directed(&t);
    let got: Vec<u8> = sels.iter().map(|&c| o[c].wg_sel).collect();
    assert_eq!(got, [0, 1, 2, 1, 1, 6]);
    let done_at = sels[2] + 3; // value 3 reported in the cycle before
    assert!(o[done_at].prof_done && o[done_at].prof_best == 1);
    assert!(!o[done_at - 1].prof_done);
}

/// The written configuration is registered and decoded a cycle later (the 100 MHz change); a
/// start in the cycle right after a write must still see it (forwarded), for the `cfg`
/// registers and for a candidate slot under forced profiling, and a write in the same cycle as
/// a start is for the next start.
#[test]
fn start_right_after_a_write_sees_it() {
    let coords = |o: &[SchedOut], from: usize| -> Vec<(u8, u8)> {
        o[from..]
            .iter()
            .take_while(|o| o.busy)
            .filter(|o| o.out_valid)
            .map(|o| (o.out_x, o.out_y))
            .collect()
    };
    let want = |c: SchedCfg| -> Vec<(u8, u8)> {
        c.order().iter().map(|&(x, y)| (x as u8, y as u8)).collect()
    };
    let (tiled, zig, hil) = (
        SchedCfg::tiled(2, 2, 1, 1),
        SchedCfg::zigzag(2, 1),
        SchedCfg::hilbert(1, 1),
    );
    let mut t = vec![SchedIn::reset_input_ready(), write_cfg(tiled), start()];
    let first = t.len();
    t.extend(std::iter::repeat_n(idle(), 20));
    // a write together with a start: the start takes the old (tiled) configuration
    t.push(SchedIn {
        start: true,
        ..write_cfg(zig)
    });
    let second = t.len();
    t.extend(std::iter::repeat_n(idle(), 20));
    t.push(start()); // now zigzag
    let third = t.len();
    t.extend(std::iter::repeat_n(idle(), 12));
    // candidate 3, forced, written in the cycle before the start
    t.push(SchedIn {
        prof_we: true,
        prof_k: 0,
        prof_force: true,
        prof_force_idx: 3,
        ..idle()
    });
    t.push(
        SchedIn {
            cand_we: true,
            cand_idx: 3,
            ..idle()
        }
        .with_cfg(hil),
    );
    t.push(start());
    let fourth = t.len();
    t.extend(std::iter::repeat_n(idle(), 8));
    let o = directed(&t);
    assert_eq!(
        coords(&o, first),
        want(tiled),
        "cfg write, start next cycle"
    );
    assert_eq!(coords(&o, second), want(tiled), "write with the start");
    assert_eq!(
        coords(&o, third),
        want(zig),
        "that write, for the next start"
    );
    assert_eq!(
        coords(&o, fourth),
        want(hil),
        "candidate write, start next cycle"
    );
    assert_eq!(o[fourth].wg_sel, 3);
}

// ---------------------------------------------------------------- exhaustive on the RTL

/// Every valid board configuration (5 modes × 25 grids × every fitting parameter; the modes
/// that ignore p0/p1 once with 0 and once with 7), written to the `cfg` registers and emitted
/// back to back at full speed, and again through candidate slot 5 with profiling forced to it:
/// RTL vs model every cycle, invariants, spec checker.
#[test]
fn exhaustive_every_board_config_on_the_rtl() {
    let mut all = SchedConfig::board().valid_configs();
    let ignored: Vec<SchedCfg> = all
        .iter()
        .filter(|c| !matches!(c.mode, 1 | 3))
        .map(|c| SchedCfg { p0: 7, p1: 7, ..*c })
        .collect();
    all.extend(ignored);
    let mut t = vec![SchedIn::reset_input_ready()];
    let mut threads = 0;
    for c in &all {
        t.push(write_cfg(*c));
        t.push(start());
        let n = c.threads() as usize;
        threads += n;
        t.extend(std::iter::repeat_n(idle(), n + 1));
    }
    t.push(SchedIn {
        prof_we: true,
        prof_force: true,
        prof_force_idx: 5,
        ..idle()
    });
    for c in &all {
        t.push(
            SchedIn {
                cand_we: true,
                cand_idx: 5,
                ..idle()
            }
            .with_cfg(*c),
        );
        t.push(start());
        t.extend(std::iter::repeat_n(idle(), c.threads() as usize + 1));
    }
    eprintln!(
        "{} configurations, {} coordinates, {} cycles",
        all.len(),
        2 * threads,
        t.len()
    );
    lockstep(&t).unwrap_or_else(|e| panic!("{e}"));
}

/// Every raw configuration word (8^5 values of mode, log_w, log_h, p0, p1) on the RTL: BAD_CFG
/// exactly when SPEC's fit rule fails, and a refused word leaves the configuration unchanged
/// (lockstep: every later tile's order shows it).
#[test]
fn exhaustive_fit_rule_on_every_raw_word() {
    let mut t = vec![SchedIn::reset_input_ready()];
    for w in 0..(1u32 << 15) {
        let f = |s: u32| ((w >> s) & 7) as u8;
        let c = SchedCfg::new(f(0), f(3), f(6), f(9), f(12));
        t.push(write_cfg(c));
        if w % 1024 == 0 {
            // emit a tile now and then: the registers hold the last good word
            t.push(start());
            t.extend(std::iter::repeat_n(idle(), 258));
        }
    }
    lockstep(&t).unwrap_or_else(|e| panic!("{e}"));
}

// ---------------------------------------------------------------- random lockstep

/// Random traces (every mix: back-to-back small tiles, heavy backpressure, profiler churn,
/// config errors, big tiles), RTL vs model every cycle + invariants + spec checker.
#[test]
fn lockstep_random() {
    run_cases(300, &trace_strategy(800), |t| lockstep(t));
}

/// Stimulus coverage: the random traces reach every mechanism.
/// The RustHDL block against the model (and invariants, spec checker) on the host-like episode
/// traces that `synth mutate` uses.
#[test]
fn lockstep_episodes() {
    for seed in 0..3 {
        let t = episode_trace(seed, 20_000);
        lockstep(&t).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
    }
}

/// The slot episodes walk the targets (mode, decoder mask bit; each episode draws one of the
/// rules that drive the bit): the 12 traces of each `synth mutate` run (trace seeds
/// 1000·S + 0..12, 8000 cycles each) start their walks spread over the list; over mutate seeds
/// 1–7 every target is visited. Prints the targets not visited per seed.
#[test]
fn slot_episodes_visit_every_decoder_term() {
    let terms = decoder_terms();
    let mut all = vec![0usize; terms.len()];
    for s in 1u64..=7 {
        let mut seen = vec![0usize; terms.len()];
        let mut per_trace = vec![];
        for k in 0..12 {
            let (_, v) = episode_run(s * 1000 + k, 8000);
            per_trace.push(v.len());
            for t in v {
                seen[t] += 1;
                all[t] += 1;
            }
        }
        let missed = seen.iter().filter(|&&n| n == 0).count();
        eprintln!(
            "mutate seed {s}: {} targets, visits per trace {per_trace:?}, not visited {missed}",
            terms.len()
        );
    }
    let missed: Vec<usize> = (0..terms.len()).filter(|&t| all[t] == 0).collect();
    assert!(
        missed.is_empty(),
        "targets never visited at seeds 1-7: {missed:?}"
    );
}

#[test]
fn stimulus_covers_every_event() {
    for t in [seeded_trace(3, 200_000), episode_trace(3, 100_000)] {
        covers_every_event(&t);
    }
}

fn covers_every_event(t: &[SchedIn]) {
    let mut m = Model::new(SchedConfig::board());
    for i in t {
        m.step(i);
    }
    let s = m.stats().clone();
    eprintln!("{s:?}");
    for (name, n) in [
        ("starts", s.starts),
        ("tiles done", s.workgroups_done),
        ("stall cycles", s.stalls),
        ("profiled tiles", s.profiled),
        ("tiles under the best", s.best_used),
        ("forced tiles", s.forced),
        ("reports", s.reports),
        ("back-to-back starts", s.back_to_back),
        ("BAD_CFG", s.errors[1]),
        ("BUSY", s.errors[2]),
        ("NO_PROFILE", s.errors[3]),
    ] {
        assert!(n >= 20, "{name}: only {n} in {} cycles", s.cycles);
    }
    for (mode, n) in s.starts_by_mode.iter().enumerate() {
        assert!(*n >= 20, "mode {mode} started only {n} times");
    }
    assert!(s.starts_by_mode[HILBERT as usize] >= 20);
}

// ---------------------------------------------------------------- spec checker

/// The spec checker accepts the golden model's traces ...
#[test]
fn spec_checker_accepts_the_model() {
    for seed in 0..4 {
        let mut t = seeded_trace(seed, 100_000);
        t.extend(episode_trace(seed, 100_000));
        let mut m = Model::new(SchedConfig::board());
        let outs: Vec<SchedOut> = t.iter().map(|i| m.step(i)).collect();
        judge(&mut ScheduleGenChecker::board(), &t, &outs)
            .unwrap_or_else(|v| panic!("seed {seed}: {v}"));
    }
}

/// ... and rejects each kind of wrong output (faults injected into a model trace): every rule
/// (`order`, `latency`, `error`, `busy`, `profiler`, `stray-output`) fires, named, in the cycle
/// of the corrupted output.
#[test]
fn spec_checker_catches_injected_faults() {
    let t = seeded_trace(11, 20_000);
    let mut m = Model::new(SchedConfig::board());
    let outs: Vec<SchedOut> = t.iter().map(|i| m.step(i)).collect();
    let find =
        |p: &dyn Fn(usize) -> bool| (1..t.len()).find(|&c| p(c)).expect("event in the trace");
    type Fault<'a> = (
        &'static str,
        Box<dyn Fn(usize) -> bool + 'a>,
        Box<dyn Fn(&mut SchedOut)>,
    );
    let faults: Vec<Fault<'_>> = vec![
        (
            "order",
            Box::new(|c| outs[c].out_valid && outs[c].out_x < 15),
            Box::new(|o| o.out_x += 1),
        ),
        (
            "order",
            Box::new(|c| outs[c].out_valid && outs[c].out_last),
            Box::new(|o| o.out_last = false),
        ),
        (
            "latency",
            Box::new(|c| outs[c].out_valid && t[c].out_ready && !outs[c].out_last),
            Box::new(|o| {
                *o = SchedOut {
                    out_valid: false,
                    out_x: 0,
                    out_y: 0,
                    out_last: false,
                    ..o.clone()
                }
            }),
        ),
        (
            "error",
            Box::new(|c| outs[c].error),
            Box::new(|o| o.error_code = 1 + o.error_code % 3),
        ),
        (
            "error",
            Box::new(|c| !outs[c].error),
            Box::new(|o| {
                o.error = true;
                o.error_code = 2;
            }),
        ),
        (
            "busy",
            Box::new(|c| outs[c].busy),
            Box::new(|o| o.busy = false),
        ),
        (
            "profiler",
            Box::new(|c| outs[c].wg_sel != 8),
            Box::new(|o| o.wg_sel = 8),
        ),
        (
            "stray-output",
            Box::new(|c| !outs[c].busy && c > 5),
            Box::new(|o| o.out_valid = true),
        ),
    ];
    for (rule, at, hurt) in &faults {
        let c = find(&**at);
        let mut bad = outs.clone();
        hurt(&mut bad[c]);
        let v = judge(&mut ScheduleGenChecker::board(), &t, &bad)
            .expect_err(&format!("fault `{rule}` at cycle {c} not caught"));
        assert_eq!((v.rule, v.cycle), (*rule, c), "{v}");
    }
}

// ---------------------------------------------------------------- export

// ---------------------------------------------------------------- the study

/// The study's findings that the README states (`synth eval-schedule`): with 4 KB and 8 KB
/// caches the column-walking benchmarks want the column-like order (strided, stride 16) and the
/// row ones the linear order, and the profiler picks the oracle's order (or an equally good
/// one) on at least 5 of the 6 benchmarks.
#[test]
fn study_findings() {
    use golden_model::schedule_gen::study::{study, Bench, CacheParams};
    for (sets, want_hits) in [(16, 5), (32, 6)] {
        let cache = CacheParams {
            sets,
            ways: 4,
            line: 64,
        };
        let st = study(128, 4, 32, cache, 8);
        let row = |b: Bench| st.rows.iter().find(|r| r.bench == b).expect("bench");
        for b in [Bench::IntegralCol, Bench::CopyCol] {
            assert_eq!(
                st.orders[row(b).oracle_cand as usize].style(),
                "strided s16 g1",
                "{b:?}"
            );
            assert!(
                row(b).misses[2] * 4 <= row(b).misses[0],
                "{b:?}: column order ≥ 4x fewer misses than linear"
            );
        }
        for b in [Bench::IntegralRow, Bench::CopyRow, Bench::MatMul] {
            assert_eq!(
                row(b).misses[row(b).oracle_cand as usize],
                row(b).misses[0],
                "{b:?}: linear is as good as the best candidate"
            );
        }
        let hits = st.rows.iter().filter(|r| r.pick_is_oracle()).count();
        assert_eq!(hits, want_hits, "{} KB", cache.bytes() / 1024);
    }
}

// ---------------------------------------------------------------- full config (64x64)

/// The full config (`FullScheduleGen`, grids up to 64×64, 6-bit coordinates) against the
/// model's `full()` and the spec checker: every reset candidate forced on its 64×64 tile (each
/// order's decode at every coordinate bit, 4096 transfers each, with backpressure), then random
/// traces of the full mixes (few cases: the block is wide).
#[test]
fn full_lockstep() {
    let mut t = vec![<SchedIn as golden_model::ResetInput>::reset_input()];
    for cand in 0..8u8 {
        t.push(SchedIn {
            prof_we: true,
            prof_force: true,
            prof_force_idx: cand,
            out_ready: true,
            ..SchedIn::default()
        });
        t.push(start());
        for c in 0..4900usize {
            t.push(SchedIn {
                out_ready: c % 7 != 3,
                ..SchedIn::default()
            });
        }
    }
    lockstep_of(SchedConfig::full(), FullScheduleGen::new(), &t).unwrap();
    let outs = directed_of(SchedConfig::full(), &t);
    let lasts = outs.iter().filter(|o| o.out_last).count();
    assert_eq!(lasts, 8, "eight 64x64 tiles ran to the end");
    assert!(
        outs.iter().any(|o| o.out_x == 63 && o.out_y == 63),
        "the corner (63, 63) is reached"
    );
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(6);
    run_cases(cases, &full_trace_strategy(6000), |t| {
        lockstep_of(SchedConfig::full(), FullScheduleGen::new(), t)
    });
}

fn directed_of(cfg: SchedConfig, trace: &[SchedIn]) -> Vec<SchedOut> {
    let mut m = Model::new(cfg);
    trace.iter().map(|i| m.step(i)).collect()
}

/// The full export under Verilator for 10^5 cycles of the full mixes against the model's
/// `full()` every cycle and the spec checker (a deep run: the harness build of the wide export
/// takes minutes): `cargo test --release --test schedule_gen -- --ignored`.
#[test]
#[ignore]
fn full_export_verilator_replay() {
    if !testbench::eda::tool_available("verilator") {
        return;
    }
    let cycles = std::env::var("FULL_REPLAY_CYCLES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100_000);
    let t = full_seeded_trace(1, cycles);
    let v = hdl::schedule_gen::full_verilog();
    let outs = testbench::verilator::replay(&v, &SchedPorts(SchedConfig::full()), &t)
        .expect("verilator replay");
    let want = directed_of(SchedConfig::full(), &t);
    for (c, (o, w)) in outs.iter().zip(&want).enumerate() {
        assert_eq!(o, w, "cycle {c}: Verilator vs model ({:?})", t[c]);
        invariants(o).unwrap_or_else(|e| panic!("cycle {c}: {e}"));
    }
    judge(&mut ScheduleGenChecker::full(), &t, &outs).unwrap_or_else(|v| panic!("{v}"));
    let tiles = outs.iter().filter(|o| o.out_last).count();
    let wide = outs
        .iter()
        .filter(|o| o.out_valid && (o.out_x >= 32 || o.out_y >= 32))
        .count();
    eprintln!("{cycles} cycles, {tiles} tiles, {wide} coordinates with x or y >= 32");
    assert!(tiles > 50, "tiles ran: {tiles}");
    assert!(wide > 1000, "coordinate bit 5 used: {wide}");
}

/// The full export passes the yosys checks (no latches, no undriven nets) and Verilator lint.
#[test]
#[ignore]
fn full_export_passes_yosys_and_lint() {
    let v = hdl::schedule_gen::full_verilog();
    testbench::verilator::assert_yosys_clean("schedule_gen", &[("full", v.clone())]);
    testbench::verilator::assert_lint_clean(&v);
}
