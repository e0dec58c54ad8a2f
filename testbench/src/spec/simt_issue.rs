//! Spec checker of the SIMT issue unit (SPEC Unit 5), written from SPEC alone.
//!
//! It sees only port values. Its own state is what the contract makes observable or implies:
//! the TLR of every thread (set by the inputs of accepted inits and block ends), whether a block
//! is open (protocol state), and per live thread the block ends since it last led the warp. The
//! state *before* an event is taken from the outputs seen in the cycle of the event (they are
//! registers), and the decision must show in the next cycle ("decisions take one cycle").
//!
//! Rules (the `rule` names of the violations):
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
//! - `no-starvation`: between sync redirects every live thread leads the warp within T block
//!   ends.
//! - `no-revive`: live never gains a thread except by an accepted init.
//! - `done`: `done` ⇔ live = 0.
//! - `idle`: a cycle without a strobe changes nothing and strobes nothing.

use crate::spec::{SpecChecker, Violation};
use golden_model::simt_issue::{error, SimtConfig, SimtIn, SimtOut};

pub struct SimtSpec {
    cfg: SimtConfig,
    /// A reset has been seen (before it nothing is known).
    known: bool,
    prev: Option<(SimtIn, SimtOut)>,
    tlr: Vec<u32>,
    open: bool,
    since_led: Vec<usize>,
}

impl SimtSpec {
    pub fn new(cfg: SimtConfig) -> Self {
        Self {
            cfg,
            known: false,
            prev: None,
            tlr: vec![0; cfg.threads],
            open: false,
            since_led: vec![0; cfg.threads],
        }
    }

    fn cyclic_first(&self, mask: u64, from: usize) -> Option<usize> {
        let n = self.cfg.threads;
        (0..n).map(|k| (from + k) % n).find(|&t| mask >> t & 1 == 1)
    }

    /// Judge the decision `o` of the event `x` taken in the state shown by `p`.
    fn judge(&mut self, c: usize, x: &SimtIn, p: &SimtOut, o: &SimtOut) -> Result<(), Violation> {
        let v = |rule, d: String| Err(Violation::new(c, rule, d));
        let all = self.cfg.all();
        if x.reset {
            let want = SimtOut {
                done: true,
                ..SimtOut::default()
            };
            self.known = true;
            self.open = false;
            self.tlr.iter_mut().for_each(|t| *t = 0);
            self.since_led.iter_mut().for_each(|t| *t = 0);
            if *o != want {
                return v("reset", format!("after reset {o:?}"));
            }
            return Ok(());
        }
        if !self.known {
            return Ok(());
        }
        if o.done != (o.live == 0) {
            return v("done", format!("done {} with live {:#b}", o.done, o.live));
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
            return v(
                "error-legal",
                format!(
                    "want code {want_err}, saw error {} code {} for {x:?}",
                    o.error, o.error_code
                ),
            );
        }
        let same = |o: &SimtOut| (o.warp_pc, o.active, o.live, o.rep);
        if want_err != 0 || strobes == 0 {
            let rule = if want_err != 0 {
                "error-changes-nothing"
            } else {
                "idle"
            };
            if same(o) != same(p) || o.redirect {
                return v(rule, format!("before {p:?}, after {o:?}"));
            }
            return Ok(());
        }
        if o.live & !p.live != 0 && !x.init_valid {
            return v("no-revive", format!("live {:#b} → {:#b}", p.live, o.live));
        }
        if x.init_valid {
            let mask = x.init_mask & all;
            let pc = x.init_pc & self.cfg.pc_mask();
            let rep = self.cyclic_first(mask, 0).unwrap_or(0) as u32;
            if (o.live, o.warp_pc, o.rep, o.active, o.redirect) != (mask, pc, rep, 0, false) {
                return v("init", format!("init {pc}/{mask:#b} gave {o:?}"));
            }
            self.tlr.iter_mut().for_each(|t| *t = pc);
            self.since_led.iter_mut().for_each(|t| *t = 0);
            self.open = false;
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
                if !o.redirect || same(o) != want {
                    return v(
                        "sync-redirect",
                        format!("behind {behind:#b} from rep {}: want (pc, active, live, rep) {want:?}, saw {o:?}", p.rep),
                    );
                }
                // a redirect may reorder: the starvation window starts again
                self.since_led.iter_mut().for_each(|t| *t = 0);
                return Ok(());
            }
            let want = (p.warp_pc, at, p.live, p.rep);
            if o.redirect || same(o) != want {
                return v(
                    if x.start_sync {
                        "sync-redirect"
                    } else {
                        "active-ordinary"
                    },
                    format!("start at {b}: want (pc, active, live, rep) {want:?}, saw {o:?}"),
                );
            }
            self.open = true;
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
        let want = match self.cyclic_first(live, p.rep as usize) {
            Some(lead) => {
                let next = self
                    .cyclic_first(live, (lead + 1) % self.cfg.threads)
                    .expect("leader live");
                for t in 0..self.cfg.threads {
                    self.since_led[t] = if t == lead { 0 } else { self.since_led[t] + 1 };
                }
                (self.tlr[lead], 0, live, next as u32)
            }
            None => (p.warp_pc, 0, 0, p.rep),
        };
        if o.redirect || same(o) != want {
            return v(
                "end",
                format!("end of active {act:#b} (exit {:#b}): want (pc, active, live, rep) {want:?}, saw {o:?}", x.end_exit),
            );
        }
        if let Some(t) = lanes(live).find(|&t| self.since_led[t] > self.cfg.threads) {
            return v(
                "no-starvation",
                format!(
                    "thread {t} has not led for {} block ends",
                    self.since_led[t]
                ),
            );
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
