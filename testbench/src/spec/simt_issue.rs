//! Spec checker of the SIMT issue unit (SPEC Unit 5), written from SPEC alone.
//!
//! It sees only port values. Its own state is what the contract makes observable or implies:
//! the TLR of every thread (set by the inputs of accepted inits and block ends), whether a block
//! is open (protocol state), and per live thread the block ends since it last led the warp. The
//! state *before* an event is taken from the outputs seen in the cycle of the event (they are
//! registers), and the decision must show in the next cycle ("decisions take one cycle").
//!
//! The checker judges from power-up: registers carry their reset values as init values (SPEC
//! §0), so the state before cycle 0 is the idle state, with or without a reset in the trace.
//!
//! Rules (the `rule` names of the violations):
//! - `power-up`: cycle 0 shows the idle state (no live thread, `done`, every register 0).
//! - `reset`: the cycle after a reset shows no live thread, `done`, every register 0, no strobe.
//! - `error-legal`: `BUSY` exactly for an init while a thread is live; `BAD_SEQ` exactly for a
//!   start with no live thread or inside an open block, an end with no open block, or two
//!   strobes in one cycle; no error otherwise.
//! - `error-changes-nothing`: an erroring event leaves warp PC, active, live and rep as they were.
//! - `init`: live = mask, warp PC = pc, rep = lowest live thread, active = 0.
//! - `active-ordinary`: a start without a redirect opens the block with active = live threads
//!   whose TLR equals the warp PC; warp PC, live and rep unchanged.
//! - `sync-redirect`: a sync start redirects exactly when a live thread's TLR is below the warp
//!   PC; then active = those threads, rep = the first of them at or after rep (cyclic), warp PC =
//!   its TLR, live unchanged.
//! - `end`: live loses exactly the active threads with their exit bit; active reads 0; if a
//!   thread is live: warp PC = TLR of the leader (first live thread at or after rep), rep = the
//!   next live thread after the leader (cyclic); with no live thread warp PC and rep stay.
//! - `no-starvation`: between sync redirects (and inits) every live thread leads the warp
//!   within T block ends. Judged from the trace alone, not from the leader `end` expects: a
//!   thread leads at an accepted block end when its TLR equals the warp PC shown after it; a
//!   live thread that has not led at T consecutive accepted block ends breaks the rule. On a
//!   trace that keeps `end` it cannot fire (use-then-advance visits every live thread within
//!   T ends); it is a rule of its own so that a relaxed or reordering unit is still judged by
//!   it (its negative test mutes `end` with [`SimtSpec::without`]).
//! - `no-revive`: live never gains a thread except by an accepted init.
//! - `done`: `done` ⇔ live = 0.
//! - `idle`: a cycle without a strobe changes nothing and strobes nothing.

use crate::spec::{Muted, SpecChecker, Violation};
use golden_model::simt_issue::{error, SimtConfig, SimtIn, SimtOut};

pub struct SimtSpec {
    cfg: SimtConfig,
    prev: Option<(SimtIn, SimtOut)>,
    tlr: Vec<u32>,
    open: bool,
    /// Per thread: accepted block ends since it last led (its TLR became the warp PC).
    since_led: Vec<usize>,
    /// Rules not reported (the checker still follows the trace).
    muted: Muted,
}

impl SimtSpec {
    pub fn new(cfg: SimtConfig) -> Self {
        Self {
            cfg,
            prev: None,
            tlr: vec![0; cfg.threads],
            open: false,
            since_led: vec![0; cfg.threads],
            muted: Muted::default(),
        }
    }

    /// The same checker with `rules` muted: a muted rule's violation is not reported and the
    /// checker goes on with the state the trace shows.
    pub fn without(mut self, rules: &[&'static str]) -> Self {
        self.muted.extend(rules);
        self
    }

    fn fail(&self, c: usize, rule: &'static str, d: String) -> Result<(), Violation> {
        self.muted.fail(c, rule, d)
    }

    fn idle_out() -> SimtOut {
        SimtOut {
            done: true,
            ..SimtOut::default()
        }
    }

    fn cyclic_first(&self, mask: u64, from: usize) -> Option<usize> {
        let n = self.cfg.threads;
        (0..n).map(|k| (from + k) % n).find(|&t| mask >> t & 1 == 1)
    }

    /// Judge the decision `o` of the event `x` taken in the state shown by `p`.
    fn judge(&mut self, c: usize, x: &SimtIn, p: &SimtOut, o: &SimtOut) -> Result<(), Violation> {
        let all = self.cfg.all();
        if x.reset {
            self.open = false;
            self.tlr.iter_mut().for_each(|t| *t = 0);
            self.since_led.iter_mut().for_each(|t| *t = 0);
            if *o != Self::idle_out() {
                self.fail(c, "reset", format!("after reset {o:?}"))?;
            }
            return Ok(());
        }
        if o.done != (o.live == 0) {
            self.fail(
                c,
                "done",
                format!("done {} with live {:#b}", o.done, o.live),
            )?;
        }
        let strobes = [x.init_valid, x.start_valid, x.end_valid]
            .iter()
            .filter(|&&s| s)
            .count();
        let want_err = if strobes > 1 {
            error::BAD_SEQ
        } else if x.init_valid && p.live != 0 {
            error::BUSY
        } else if (x.start_valid && (p.live == 0 || self.open)) || (x.end_valid && !self.open) {
            error::BAD_SEQ
        } else {
            0
        };
        if (o.error, o.error_code) != (want_err != 0, want_err) {
            self.fail(
                c,
                "error-legal",
                format!(
                    "want code {want_err}, saw error {} code {} for {x:?}",
                    o.error, o.error_code
                ),
            )?;
        }
        let same = |o: &SimtOut| (o.warp_pc, o.active, o.live, o.rep);
        if want_err != 0 || strobes == 0 {
            let rule = if want_err != 0 {
                "error-changes-nothing"
            } else {
                "idle"
            };
            if same(o) != same(p) || o.redirect {
                self.fail(c, rule, format!("before {p:?}, after {o:?}"))?;
            }
            return Ok(());
        }
        if o.live & !p.live != 0 && !x.init_valid {
            self.fail(
                c,
                "no-revive",
                format!("live {:#b} → {:#b}", p.live, o.live),
            )?;
        }
        if x.init_valid {
            let mask = x.init_mask & all;
            let pc = x.init_pc & self.cfg.pc_mask();
            let rep = self.cyclic_first(mask, 0).unwrap_or(0) as u32;
            self.tlr.iter_mut().for_each(|t| *t = pc);
            self.since_led.iter_mut().for_each(|t| *t = 0);
            self.open = false;
            if (o.live, o.warp_pc, o.rep, o.active, o.redirect) != (mask, pc, rep, 0, false) {
                self.fail(c, "init", format!("init {pc}/{mask:#b} gave {o:?}"))?;
            }
            return Ok(());
        }
        let lanes = |m: u64| (0..self.cfg.threads).filter(move |t| m >> t & 1 == 1);
        if x.start_valid {
            let b = p.warp_pc;
            let behind = lanes(p.live)
                .filter(|&t| self.tlr[t] < b)
                .fold(0, |m, t| m | 1 << t);
            let at = lanes(p.live)
                .filter(|&t| self.tlr[t] == b)
                .fold(0, |m, t| m | 1 << t);
            if x.start_sync && behind != 0 {
                let r = self.cyclic_first(behind, p.rep as usize).expect("behind");
                let want = (self.tlr[r], behind, p.live, r as u32);
                // a redirect may reorder: the starvation window starts again
                self.since_led.iter_mut().for_each(|t| *t = 0);
                if !o.redirect || same(o) != want {
                    self.fail(
                        c,
                        "sync-redirect",
                        format!("behind {behind:#b} from rep {}: want (pc, active, live, rep) {want:?}, saw {o:?}", p.rep),
                    )?;
                }
                return Ok(());
            }
            let want = (p.warp_pc, at, p.live, p.rep);
            self.open = true;
            if o.redirect || same(o) != want {
                self.fail(
                    c,
                    if x.start_sync {
                        "sync-redirect"
                    } else {
                        "active-ordinary"
                    },
                    format!("start at {b}: want (pc, active, live, rep) {want:?}, saw {o:?}"),
                )?;
            }
            return Ok(());
        }
        // block end
        let act = p.active;
        let live = p.live & !(act & x.end_exit);
        for t in lanes(act & !x.end_exit) {
            self.tlr[t] = if x.end_cond >> t & 1 == 1 {
                x.end_taken
            } else {
                x.end_fall
            } & self.cfg.pc_mask();
        }
        self.open = false;
        // no-starvation, from the trace alone: who led is whose TLR the shown warp PC is
        for t in 0..self.cfg.threads {
            self.since_led[t] = if o.live >> t & 1 == 0 || self.tlr[t] == o.warp_pc {
                0
            } else {
                self.since_led[t] + 1
            };
        }
        if let Some(t) = lanes(o.live).find(|&t| self.since_led[t] >= self.cfg.threads) {
            self.fail(
                c,
                "no-starvation",
                format!(
                    "live thread {t} (TLR {}) has not led the warp for {} block ends (warp PC {})",
                    self.tlr[t], self.since_led[t], o.warp_pc
                ),
            )?;
        }
        let want = match self.cyclic_first(live, p.rep as usize) {
            Some(lead) => {
                let next = self
                    .cyclic_first(live, (lead + 1) % self.cfg.threads)
                    .expect("leader live");
                (self.tlr[lead], 0, live, next as u32)
            }
            None => (p.warp_pc, 0, 0, p.rep),
        };
        if o.redirect || same(o) != want {
            self.fail(
                c,
                "end",
                format!("end of active {act:#b} (exit {:#b}): want (pc, active, live, rep) {want:?}, saw {o:?}", x.end_exit),
            )?;
        }
        Ok(())
    }
}

impl SpecChecker for SimtSpec {
    type In = SimtIn;
    type Out = SimtOut;

    fn check(&mut self, cycle: usize, i: &SimtIn, o: &SimtOut) -> Result<(), Violation> {
        let r = match self.prev.take() {
            Some((x, p)) => self.judge(cycle, &x, &p, o),
            // power-up: the registers' init values are their reset values
            None if *o != Self::idle_out() => {
                self.fail(cycle, "power-up", format!("first cycle shows {o:?}"))
            }
            None => Ok(()),
        };
        self.prev = Some((i.clone(), o.clone()));
        r
    }
}

impl crate::unit::CheckedUnit for crate::simt_issue::SimtIssueBoard {
    fn spec_checker() -> Box<dyn SpecChecker<In = SimtIn, Out = SimtOut>> {
        Box::new(SimtSpec::new(SimtConfig::board()))
    }
}
