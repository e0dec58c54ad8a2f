//! The hand-off picks of the lock unit (step 7): for every lock, its best waiter — no other
//! waiter of the lock beats it — with ties broken round robin from the lock's pointer.
//! Combinational, a pure function of its inputs; the parent registers the picks
//! (`handoff_pick`) and uses them in the next cycle (step 4).
//!
//! One block for all locks, with the per-lock logic in a `for l` loop: a block per lock would
//! need the parent to drive an array port of an array of blocks (`picker[l].beats[b]`), which
//! RustHDL's Verilog generator exports with the inner index left as a bare name.
//!
//! ## Two forms of "beaten", one function (session 11, issue #22)
//! A waiter is a candidate when no other waiter **of its lock** beats it. Two ways to compute
//! that, chosen by the parameter `F` = `full_forms(W)` ([`HandoffPicker::PER_WARP`]; session
//! 12: the per-warp form's signals are arrays of length F, F·W and F·L, so the per-lock form
//! declares none of them and the board's Verilog is byte for byte that of sessions 7–11); the
//! picks are the same function of the inputs (a warp waits for at most one lock):
//! - **per lock** (W < 16, the board's W = 8: the netlist of sessions 7–10): for every lock, the
//!   OR of the priority rows of its waiters — L · W² AND terms, and every row of the priority
//!   matrix read by all L locks. At W = 32, L = 16 that is 16 384 terms (≈ 11 000 LUT4s) and
//!   16 copies of every one of the 1 024 matrix bits spread over the die: the structure that
//!   kept the full lock unit from routing on the ECP5-85F (`docs/ecp5.md`, session 11);
//! - **per warp** (W ≥ 16): every waiting warp b beats warp w when `beats[b]` bit w is set and
//!   b waits for the same lock as w — the lock IDs compared encoded (`wait_id`, LB bits), so
//!   W² terms of a few inputs each, and every matrix bit read once. Each lock then masks the
//!   one `beaten` vector with its waiters.
//!
//! The round-robin choice among the candidates stays per lock in both forms.

use rust_hdl::prelude::*;

/// Best waiter of every lock. `W` warps, `L` locks, `WB` = clog2(W) warp-ID bits, `LB` =
/// clog2(L) lock-ID bits; `F` = 1 for the per-warp form of "beaten" (W ≥ 16), else 0, with
/// `WF` = F · W and `LF` = F · L: the per-warp form's signals are arrays of those lengths, so
/// that the per-lock form (the board) declares none of them (its Verilog is byte for byte the
/// one of sessions 7–11).
#[derive(LogicBlock)]
pub struct HandoffPicker<
    const W: usize,
    const L: usize,
    const WB: usize,
    const LB: usize,
    const F: usize,
    const WF: usize,
    const LF: usize,
> {
    /// The lock warp w waits for, one-hot (zero when not waiting).
    pub wait_lock: [Signal<In, Bits<L>>; W],
    /// The priority matrix: `beats[a]` bit b set when CPR a < CPR b.
    pub beats: [Signal<In, Bits<W>>; W],
    /// Per lock, where the round-robin search among tied waiters starts (`rr_next`).
    pub rr_start: [Signal<In, Bits<WB>>; L],
    /// Per lock, the picked waiter, one-hot; zero when nobody waits.
    pub pick: [Signal<Out, Bits<W>>; L],
    /// Per lock (scratch): the warps waiting for it.
    waiters: Signal<Local, Bits<W>>,
    /// Per lock (scratch): waiters beaten by some other waiter of the lock.
    beaten: Signal<Local, Bits<W>>,
    /// Per lock (scratch): waiters no other waiter beats (the candidates; equal CPRs).
    tied: Signal<Local, Bits<W>>,
    /// Per lock (scratch): the candidates at or after `rr_start`; all of them when none is there.
    tied_from_rr: Signal<Local, Bits<W>>,
    /// Per lock (scratch): the pick being scanned (the first candidate of `tied_from_rr`).
    best: Signal<Local, Bits<W>>,
    /// Per lock (scratch): the scan has set the pick's bit.
    pick_found: Signal<Local, Bit>,
    // ---- the per-warp form: arrays of length 0 in the per-lock form (no declarations) ----
    /// Per-warp form: the lock warp w waits for, encoded (0 when it waits for none).
    wait_id: [Signal<Local, Bits<LB>>; WF],
    /// Per-warp form: warp w waits for some lock (`wait_lock[w]` not zero).
    waiting: [Signal<Local, Bits<W>>; F],
    /// Per-warp form: warps beaten by a waiter of the lock they wait for.
    warp_beaten: [Signal<Local, Bits<W>>; F],
    /// Lock l's ID, for the encoder of `wait_id`.
    lock_id: [Constant<Bits<LB>>; LF],
}

impl<
        const W: usize,
        const L: usize,
        const WB: usize,
        const LB: usize,
        const F: usize,
        const WF: usize,
        const LF: usize,
    > HandoffPicker<W, L, WB, LB, F, WF, LF>
{
    /// The per-warp form of "beaten" (`F` = 1, chosen for W ≥ 16); the per-lock form else.
    pub const PER_WARP: bool = F == 1;
    /// Loop bound of the per-lock form's scan over the priority rows: W, or 0 in the per-warp
    /// form (a loop of no iterations exports no Verilog).
    const ROWS_PER_LOCK: usize = if Self::PER_WARP { 0 } else { W };
    /// 1 in the per-lock form, else 0.
    const LOCK_FORM_ONCE: usize = 1 - F;

    /// Build the picker; panics when the form's parameters disagree.
    pub fn new() -> Self {
        assert!(F <= 1, "handoff_picker: F must be 0 or 1");
        assert_eq!(WF, F * W, "handoff_picker: WF must be F * W");
        assert_eq!(LF, F * L, "handoff_picker: LF must be F * L");
        Self::default()
    }
}

impl<
        const W: usize,
        const L: usize,
        const WB: usize,
        const LB: usize,
        const F: usize,
        const WF: usize,
        const LF: usize,
    > Default for HandoffPicker<W, L, WB, LB, F, WF, LF>
{
    fn default() -> Self {
        Self {
            wait_lock: std::array::from_fn(|_| Default::default()),
            beats: std::array::from_fn(|_| Default::default()),
            rr_start: std::array::from_fn(|_| Default::default()),
            pick: std::array::from_fn(|_| Default::default()),
            waiters: Default::default(),
            beaten: Default::default(),
            wait_id: std::array::from_fn(|_| Default::default()),
            waiting: std::array::from_fn(|_| Default::default()),
            warp_beaten: std::array::from_fn(|_| Default::default()),
            lock_id: std::array::from_fn(|l| Constant::new((l as u64).into())),
            tied: Default::default(),
            tied_from_rr: Default::default(),
            best: Default::default(),
            pick_found: Default::default(),
        }
    }
}

impl<
        const W: usize,
        const L: usize,
        const WB: usize,
        const LB: usize,
        const F: usize,
        const WF: usize,
        const LF: usize,
    > Logic for HandoffPicker<W, L, WB, LB, F, WF, LF>
{
    #[hdl_gen]
    fn update(&mut self) {
        // per-warp form (no Verilog in the per-lock form: its loops have no iterations): each
        // warp's lock, encoded, and whether a waiter of the same lock beats it
        for f in 0..F {
            self.waiting[f].next = 0.into();
            self.warp_beaten[f].next = 0.into();
            for w in 0..WF {
                self.wait_id[w].next = 0.into();
                for l in 0..LF {
                    if self.wait_lock[w].val().get_bit(l) {
                        self.wait_id[w].next = self.wait_id[w].val() | self.lock_id[l].val();
                    }
                }
                if self.wait_lock[w].val().any() {
                    self.waiting[f].next = self.waiting[f].val().replace_bit(w, true);
                }
            }
            for w in 0..WF {
                for b in 0..WF {
                    if self.waiting[f].val().get_bit(b)
                        & self.beats[b].val().get_bit(w)
                        & (self.wait_id[b].val() == self.wait_id[w].val())
                    {
                        self.warp_beaten[f].next = self.warp_beaten[f].val().replace_bit(w, true);
                    }
                }
            }
        }
        for l in 0..L {
            self.waiters.next = 0.into();
            for w in 0..W {
                if self.wait_lock[w].val().get_bit(l) {
                    self.waiters.next = self.waiters.val().replace_bit(w, true);
                }
            }
            // per-lock form (no iterations in the per-warp form, where `warp_beaten` holds it)
            for _once in 0..Self::LOCK_FORM_ONCE {
                self.beaten.next = 0.into();
            }
            for f in 0..F {
                self.beaten.next = self.warp_beaten[f].val();
            }
            for b in 0..Self::ROWS_PER_LOCK {
                if self.waiters.val().get_bit(b) {
                    self.beaten.next = self.beaten.val() | self.beats[b].val();
                }
            }
            self.tied.next = self.waiters.val() & !self.beaten.val();
            // round robin: the first tied waiter at or after rr_start, else the first one
            self.tied_from_rr.next = 0.into();
            for w in 0..W {
                if self.tied.val().get_bit(w) & (self.rr_start[l].val().index() <= w) {
                    self.tied_from_rr.next = self.tied_from_rr.val().replace_bit(w, true);
                }
            }
            if !self.tied_from_rr.val().any() {
                self.tied_from_rr.next = self.tied.val();
            }
            self.best.next = 0.into();
            self.pick_found.next = false;
            for w in 0..W {
                if self.tied_from_rr.val().get_bit(w) & !self.pick_found.val() {
                    self.best.next = self.best.val().replace_bit(w, true);
                    self.pick_found.next = true;
                }
            }
            self.pick[l].next = self.best.val();
        }
    }
}
