//! The hand-off picks of the lock unit (step 7): for every lock, its best waiter — no other
//! waiter of the lock beats it — with ties broken round robin from the lock's pointer.
//! Combinational, a pure function of its inputs; the parent registers the picks
//! (`handoff_pick`) and uses them in the next cycle (step 4).
//!
//! One block for all locks, with the per-lock logic in a `for l` loop: a block per lock would
//! need the parent to drive an array port of an array of blocks (`picker[l].beats[b]`), which
//! RustHDL's Verilog generator exports with the inner index left as a bare name.

use rust_hdl::prelude::*;

/// Best waiter of every lock. `W` warps, `L` locks, `WB` = clog2(W) warp-ID bits.
#[derive(LogicBlock)]
pub struct HandoffPicker<const W: usize, const L: usize, const WB: usize> {
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
}

impl<const W: usize, const L: usize, const WB: usize> Default for HandoffPicker<W, L, WB> {
    fn default() -> Self {
        Self {
            wait_lock: std::array::from_fn(|_| Default::default()),
            beats: std::array::from_fn(|_| Default::default()),
            rr_start: std::array::from_fn(|_| Default::default()),
            pick: std::array::from_fn(|_| Default::default()),
            waiters: Default::default(),
            beaten: Default::default(),
            tied: Default::default(),
            tied_from_rr: Default::default(),
            best: Default::default(),
            pick_found: Default::default(),
        }
    }
}

impl<const W: usize, const L: usize, const WB: usize> Logic for HandoffPicker<W, L, WB> {
    #[hdl_gen]
    fn update(&mut self) {
        for l in 0..L {
            self.waiters.next = 0.into();
            for w in 0..W {
                if self.wait_lock[w].val().get_bit(l) {
                    self.waiters.next = self.waiters.val().replace_bit(w, true);
                }
            }
            self.beaten.next = 0.into();
            for b in 0..W {
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
