//! An interpreter that runs one warp of a transformed program on the issue unit's cycle model —
//! or on any other implementation of the unit behind [`CycleModel`] (the RustHDL RTL through the
//! testbench's `RtlSim`).
//!
//! ## Timing (one warp instruction per cycle)
//! Every instruction issues in one cycle and steps the unit once, driving the unit's strobe for
//! `ws.start`, `ws.start.sync` and `ws.end` (idle inputs otherwise). The unit's outputs are
//! registered, so the cycle after a strobe reads its decision:
//! - after `ws.start` the next instruction runs with the active mask the unit shows in its cycle
//!   (no bubble);
//! - after `ws.start.sync` and after `ws.end` the next PC is the unit's decision (`redirect` /
//!   the warp PC, `done`), so one bubble cycle reads it before the next fetch;
//! - the warp starts with the init strobe and one bubble that reads the first warp PC.
//!
//! The same accounting is used by the IPDOM baseline (`ipdom`): one cycle per instruction and a
//! bubble wherever the next PC comes from a decision (a taken branch, a divergence, a stack pop).

use super::isa::{Instr, Program};
use super::{SimtIn, SimtOut};
use crate::{CycleModel, ResetInput};

/// Memory words of the shared memory.
pub const MEM_WORDS: usize = 128;

/// Thread registers and the shared memory of one warp.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Machine {
    pub threads: usize,
    pub regs: Vec<[i64; 8]>,
    pub mem: Vec<i64>,
}

impl Machine {
    pub fn new(threads: usize) -> Self {
        assert!((1..=64).contains(&threads), "1..=64 threads");
        Self {
            threads,
            regs: vec![[0; 8]; threads],
            mem: vec![0; MEM_WORDS],
        }
    }

    pub fn all(&self) -> u64 {
        if self.threads == 64 {
            !0
        } else {
            (1 << self.threads) - 1
        }
    }

    fn addr(v: i64) -> usize {
        v.rem_euclid(MEM_WORDS as i64) as usize
    }

    fn get(&self, t: usize, r: u8) -> i64 {
        if r == 0 {
            0
        } else {
            self.regs[t][r as usize]
        }
    }

    fn set(&mut self, t: usize, r: u8, v: i64) {
        if r != 0 {
            self.regs[t][r as usize] = v;
        }
    }

    fn lanes(&self, mask: u64) -> impl Iterator<Item = usize> {
        (0..self.threads).filter(move |t| mask >> t & 1 == 1)
    }

    /// Threads of `mask` for which `ra cmp rb` holds.
    pub fn cond_mask(&self, c: super::isa::Cmp, ra: u8, rb: u8, mask: u64) -> u64 {
        self.lanes(mask)
            .filter(|&t| c.holds(self.get(t, ra), self.get(t, rb)))
            .fold(0, |m, t| m | 1 << t)
    }

    /// Run a data instruction on the lanes of `mask`, in lane order (atomics serialize so).
    pub fn exec(&mut self, ins: &Instr, mask: u64) {
        let lanes: Vec<usize> = self.lanes(mask).collect();
        if let Instr::Vote(d, s) = *ins {
            let n = lanes.iter().filter(|&&t| self.get(t, s) != 0).count() as i64;
            for &t in &lanes {
                self.set(t, d, n);
            }
            return;
        }
        for t in lanes {
            match *ins {
                Instr::Li(d, v) => self.set(t, d, v),
                Instr::Tid(d) => self.set(t, d, t as i64),
                Instr::Alu(o, d, a, b) => {
                    let v = o.apply(self.get(t, a), self.get(t, b));
                    self.set(t, d, v)
                }
                Instr::Addi(d, a, v) => {
                    let x = self.get(t, a).wrapping_add(v);
                    self.set(t, d, x)
                }
                Instr::Ld(d, a, off) => {
                    let v = self.mem[Self::addr(self.get(t, a).wrapping_add(off))];
                    self.set(t, d, v)
                }
                Instr::St(s, a, off) => {
                    let at = Self::addr(self.get(t, a).wrapping_add(off));
                    self.mem[at] = self.get(t, s);
                }
                Instr::Cas(d, a, c, n) => {
                    let at = Self::addr(self.get(t, a));
                    let old = self.mem[at];
                    if old == self.get(t, c) {
                        self.mem[at] = self.get(t, n);
                    }
                    self.set(t, d, old);
                }
                _ => panic!("exec: {ins:?} is not a data instruction"),
            }
        }
    }
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Every thread exited.
    Finished,
    /// The run was stopped as a livelock: `proven` when the whole machine state repeated (a
    /// deterministic machine then loops forever), else the cycle bound was reached.
    Livelock { cycle: u64, proven: bool },
    /// The unit raised an error or the program did something illegal.
    Fault(String),
}

/// Counters of one run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run {
    pub outcome: Outcome,
    /// Warp instructions issued (each counts once, whatever its active mask).
    pub instructions: u64,
    /// Clock cycles from the init strobe (or the first fetch of the baseline) to the end.
    pub cycles: u64,
    /// Block ends (`ws.end`) and sync redirects driven.
    pub block_ends: u64,
    pub redirects: u64,
    /// The unit's inputs and outputs, cycle by cycle, when recording was asked for.
    pub trace: Vec<(SimtIn, SimtOut)>,
}

impl Run {
    /// A run that has not started: `Finished`, every counter 0, no trace.
    pub(crate) fn start() -> Run {
        Run {
            outcome: Outcome::Finished,
            instructions: 0,
            cycles: 0,
            block_ends: 0,
            redirects: 0,
            trace: vec![],
        }
    }
}

impl Run {
    pub fn finished(&self) -> bool {
        self.outcome == Outcome::Finished
    }
}

/// Run a transformed program on `unit` (reset first) with every thread of `m` live, at most
/// `max_cycles` cycles. `record` keeps the unit trace (inputs and outputs of every cycle).
pub fn run_scheme(
    prog: &Program,
    m: &mut Machine,
    unit: &mut dyn CycleModel<In = SimtIn, Out = SimtOut>,
    max_cycles: u64,
    record: bool,
) -> Run {
    let mut run = Run::start();
    let reset = SimtIn::reset_input();
    let o = unit.step(&reset);
    if record {
        run.trace.push((reset, o));
    }
    if let Err(e) = scheme_body(prog, m, unit, max_cycles, record, &mut run) {
        run.outcome = Outcome::Fault(e);
    }
    run
}

/// One unit cycle of the interpreter; a unit error ends the run.
fn unit_step(
    unit: &mut dyn CycleModel<In = SimtIn, Out = SimtOut>,
    record: bool,
    run: &mut Run,
    i: SimtIn,
) -> Result<SimtOut, String> {
    let o = unit.step(&i);
    run.cycles += 1;
    if record {
        run.trace.push((i, o.clone()));
    }
    if o.error {
        return Err(format!(
            "unit error code {} at cycle {} (inputs of the previous cycle)",
            o.error_code, run.cycles
        ));
    }
    Ok(o)
}

fn scheme_body(
    prog: &Program,
    m: &mut Machine,
    unit: &mut dyn CycleModel<In = SimtIn, Out = SimtOut>,
    max_cycles: u64,
    record: bool,
    run: &mut Run,
) -> Result<(), String> {
    let mut step = |run: &mut Run, i: SimtIn| unit_step(unit, record, run, i);
    {
        step(
            run,
            SimtIn {
                init_valid: true,
                init_pc: 0,
                init_mask: m.all(),
                ..SimtIn::default()
            },
        )?;
        let o = step(run, SimtIn::default())?;
        let mut pc = o.warp_pc as usize;
        let mut active = 0u64;
        let mut active_pending = false;
        let mut end = SimtIn::default();
        loop {
            if run.cycles >= max_cycles {
                run.outcome = Outcome::Livelock {
                    cycle: run.cycles,
                    proven: false,
                };
                return Ok(());
            }
            let ins = *prog
                .code
                .get(pc)
                .ok_or_else(|| format!("warp PC {pc} outside the program"))?;
            let input = match ins {
                Instr::WsStart(_) | Instr::WsStartSync(_) => SimtIn {
                    start_valid: true,
                    start_sync: matches!(ins, Instr::WsStartSync(_)),
                    ..SimtIn::default()
                },
                Instr::WsEnd => std::mem::take(&mut end),
                _ => SimtIn::default(),
            };
            let o = step(run, input)?;
            run.instructions += 1;
            if active_pending {
                active = o.active;
                active_pending = false;
            }
            match ins {
                Instr::WsStart(b) => {
                    if b != pc {
                        return Err(format!("ws.start {b} at PC {pc}"));
                    }
                    active_pending = true;
                    pc += 1;
                }
                Instr::WsStartSync(b) => {
                    if b != pc {
                        return Err(format!("ws.start.sync {b} at PC {pc}"));
                    }
                    let d = step(run, SimtIn::default())?;
                    if d.redirect {
                        run.redirects += 1;
                        pc = d.warp_pc as usize;
                    } else {
                        active = d.active;
                        pc += 1;
                    }
                }
                Instr::WsBranch(c, ra, rb, t, f) => {
                    end = SimtIn {
                        end_valid: true,
                        end_cond: m.cond_mask(c, ra, rb, active),
                        end_taken: t as u32,
                        end_fall: f as u32,
                        ..SimtIn::default()
                    };
                    pc += 1;
                }
                Instr::WsGoto(t) => {
                    end = SimtIn {
                        end_valid: true,
                        end_taken: t as u32,
                        end_fall: t as u32,
                        ..SimtIn::default()
                    };
                    pc += 1;
                }
                Instr::WsExit => {
                    end = SimtIn {
                        end_valid: true,
                        end_exit: active,
                        ..SimtIn::default()
                    };
                    pc += 1;
                }
                Instr::WsEnd => {
                    run.block_ends += 1;
                    let d = step(run, SimtIn::default())?;
                    if d.done {
                        return Ok(());
                    }
                    pc = d.warp_pc as usize;
                }
                Instr::Branch(..) | Instr::Jump(_) | Instr::Exit => {
                    return Err(format!(
                        "{ins:?} at PC {pc}: the scheme runs transformed programs only"
                    ));
                }
                _ => {
                    m.exec(&ins, active);
                    pc += 1;
                }
            }
        }
    };
}
