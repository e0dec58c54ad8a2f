//! Schedule order generator (SPEC Unit 6) verification: RTL adapter, port map for Verilator
//! replay, stimulus strategies (valid and bad configurations, candidate and profiler writes,
//! performance values, starts, backpressure, idle cycles), per-cycle output invariants, and the
//! board-config registry entry.

use crate::rtl::HdlDut;
use crate::verilator::{Port, TracePorts};
use golden_model::schedule_gen::{SchedCfg, SchedConfig, SchedIn, SchedOut, ScheduleGen as Model};
use golden_model::CycleModel;
use hdl::schedule_gen::ScheduleGen;
use proptest::prelude::*;
use rust_hdl::prelude::*;

impl HdlDut for ScheduleGen {
    type In = SchedIn;
    type Out = SchedOut;

    fn drive(&mut self, i: &SchedIn) {
        self.reset.next = i.reset;
        self.cfg_we.next = i.cfg_we;
        self.cfg_mode.next = (i.cfg_mode as u64 & 7).into();
        self.cfg_log_w.next = (i.cfg_log_w as u64 & 7).into();
        self.cfg_log_h.next = (i.cfg_log_h as u64 & 7).into();
        self.cfg_p0.next = (i.cfg_p0 as u64 & 7).into();
        self.cfg_p1.next = (i.cfg_p1 as u64 & 7).into();
        self.start.next = i.start;
        self.out_ready.next = i.out_ready;
        self.cand_we.next = i.cand_we;
        self.cand_idx.next = (i.cand_idx as u64 & 7).into();
        self.prof_we.next = i.prof_we;
        self.prof_k.next = (i.prof_k as u64 & 15).into();
        self.prof_force.next = i.prof_force;
        self.prof_force_idx.next = (i.prof_force_idx as u64 & 7).into();
        self.perf_we.next = i.perf_we;
        self.perf_value.next = (i.perf_value as u64).into();
    }

    fn sample(&self) -> SchedOut {
        SchedOut {
            out_valid: self.out_valid.val(),
            out_x: self.out_x.val().to_u8(),
            out_y: self.out_y.val().to_u8(),
            out_last: self.out_last.val(),
            busy: self.busy.val(),
            error: self.error.val(),
            error_code: self.error_code.val().to_u8(),
            wg_sel: self.wg_sel.val().to_u8(),
            prof_done: self.prof_done.val(),
            prof_best: self.prof_best.val().to_u8(),
        }
    }

    fn clock_signal(&mut self) -> Option<&mut Signal<In, Clock>> {
        Some(&mut self.clock)
    }
}

/// Port map of the exported board top (the port order, then the profiler's ports).
pub struct SchedPorts;

impl TracePorts for SchedPorts {
    type In = SchedIn;
    type Out = SchedOut;

    fn inputs(&self) -> Vec<Port> {
        vec![
            Port::new("reset", 1),
            Port::new("cfg_we", 1),
            Port::new("cfg_mode", 3),
            Port::new("cfg_log_w", 3),
            Port::new("cfg_log_h", 3),
            Port::new("cfg_p0", 3),
            Port::new("cfg_p1", 3),
            Port::new("start", 1),
            Port::new("out_ready", 1),
            Port::new("cand_we", 1),
            Port::new("cand_idx", 3),
            Port::new("prof_we", 1),
            Port::new("prof_k", 4),
            Port::new("prof_force", 1),
            Port::new("prof_force_idx", 3),
            Port::new("perf_we", 1),
            Port::new("perf_value", 16),
        ]
    }

    fn outputs(&self) -> Vec<Port> {
        vec![
            Port::new("out_valid", 1),
            Port::new("out_x", 4),
            Port::new("out_y", 4),
            Port::new("out_last", 1),
            Port::new("busy", 1),
            Port::new("error", 1),
            Port::new("error_code", 2),
            Port::new("wg_sel", 4),
            Port::new("prof_done", 1),
            Port::new("prof_best", 3),
        ]
    }

    fn encode(&self, i: &SchedIn) -> Vec<u128> {
        let v = [
            i.reset as u128,
            i.cfg_we as u128,
            i.cfg_mode as u128,
            i.cfg_log_w as u128,
            i.cfg_log_h as u128,
            i.cfg_p0 as u128,
            i.cfg_p1 as u128,
            i.start as u128,
            i.out_ready as u128,
            i.cand_we as u128,
            i.cand_idx as u128,
            i.prof_we as u128,
            i.prof_k as u128,
            i.prof_force as u128,
            i.prof_force_idx as u128,
            i.perf_we as u128,
            i.perf_value as u128,
        ];
        // cut to the port widths (a wider value would wrap in the harness)
        v.iter()
            .zip(self.inputs())
            .map(|(x, p)| x & ((1u128 << p.width) - 1))
            .collect()
    }

    fn decode(&self, v: &[u128]) -> SchedOut {
        SchedOut {
            out_valid: v[0] != 0,
            out_x: v[1] as u8,
            out_y: v[2] as u8,
            out_last: v[3] != 0,
            busy: v[4] != 0,
            error: v[5] != 0,
            error_code: v[6] as u8,
            wg_sel: v[7] as u8,
            prof_done: v[8] != 0,
            prof_best: v[9] as u8,
        }
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

/// A whole trace of one mix, at most `max_len` cycles.
pub fn trace_strategy(max_len: usize) -> impl Strategy<Value = Vec<SchedIn>> {
    let mixes = mixes();
    (0..mixes.len()).prop_flat_map(move |m| {
        proptest::collection::vec(cycle_strategy(mixes[m].clone()), 1..max_len)
    })
}

/// [`trace_strategy`] sampled with a seeded generator: exactly `cycles` cycles, reset first.
pub fn seeded_trace(seed: u64, cycles: usize) -> Vec<SchedIn> {
    use proptest::strategy::ValueTree;
    let mut runner = crate::unit::seeded_runner(seed);
    let strat = trace_strategy(2000);
    let mut trace = vec![<SchedIn as golden_model::ResetInput>::reset_input()];
    while trace.len() < cycles {
        trace.extend(strat.new_tree(&mut runner).expect("strategy").current());
    }
    trace.truncate(cycles);
    trace
}

/// The schedule generator's board config for the cross-unit tools.
pub struct ScheduleGenBoard;

impl crate::unit::BoardUnit for ScheduleGenBoard {
    const NAME: &'static str = "schedule_gen";
    type In = SchedIn;
    type Out = SchedOut;
    type Ports = SchedPorts;

    fn ports() -> SchedPorts {
        SchedPorts
    }
    fn verilog() -> String {
        hdl::schedule_gen::verilog()
    }
    fn model() -> Box<dyn CycleModel<In = SchedIn, Out = SchedOut>> {
        Box::new(Model::new(SchedConfig::board()))
    }
    fn rtl() -> Box<dyn CycleModel<In = SchedIn, Out = SchedOut>> {
        Box::new(crate::rtl::RtlSim::new(ScheduleGen::new()))
    }
    fn invariants() -> crate::unit::Invariants<SchedIn, SchedOut> {
        Box::new(|_, _, o| invariants(o))
    }
    fn random_trace(seed: u64, cycles: usize) -> Vec<SchedIn> {
        seeded_trace(seed, cycles)
    }
}
