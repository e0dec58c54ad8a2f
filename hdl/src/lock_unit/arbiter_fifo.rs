//! The lock unit's arbiter FIFO: a shift queue of acquire entries (one-hot requester, holder and
//! lock, a live bit), head = slot 0. Every cycle it kills the entries of revoked warps, pops the
//! head (the arbiter decides one entry per cycle and never retries) and appends the staged entry
//! at the tail. Its registers are read by the parent only through the head and count outputs.
//!
//! Facts the golden model asserts: the pop of every cycle and at most one append per cycle keep
//! the FIFO at no more than the head, so its depth matters only at depth 1 (`acq_ready`).

use rust_hdl::prelude::*;

/// Arbiter FIFO of depth `D`: `W` warps, `L` locks, `CB` = clog2(D + 1) count bits.
#[derive(LogicBlock)]
pub struct ArbiterFifo<const W: usize, const L: usize, const D: usize, const CB: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: empty.
    pub reset: Signal<In, Bit>,
    /// Warps revoked in this cycle: their entries are killed (kept in place, not live).
    pub revoked: Signal<In, Bits<W>>,
    /// The staged entry joins the tail (live unless its requester is revoked now).
    pub push_valid: Signal<In, Bit>,
    /// The staged entry: requester, holder when queued, lock (one-hot each).
    pub push_req: Signal<In, Bits<W>>,
    pub push_holder: Signal<In, Bits<W>>,
    pub push_lock: Signal<In, Bits<L>>,
    /// The FIFO is not empty (kept as its own flip-flop; the head is popped every cycle).
    pub not_empty: Signal<Out, Bit>,
    /// The head entry (slot 0): its requester, its lock, whether it is live.
    pub head_req: Signal<Out, Bits<W>>,
    pub head_lock: Signal<Out, Bits<L>>,
    pub head_live: Signal<Out, Bit>,
    /// Occupancy (live and dead entries).
    pub count: Signal<Out, Bits<CB>>,

    /// Slot k's requester, one-hot.
    fifo_req: [DFF<Bits<W>>; D],
    /// Slot k's holder when queued, one-hot (the patent's ID pair; the arbiter re-reads the lock
    /// word, so synthesis trims this field).
    fifo_holder: [DFF<Bits<W>>; D],
    /// Slot k's lock, one-hot.
    fifo_lock: [DFF<Bits<L>>; D],
    /// Slot k holds a live entry (cleared when its requester is revoked).
    fifo_live: DFF<Bits<D>>,
    /// Occupancy register.
    fifo_count: DFF<Bits<CB>>,
    /// Not-empty register (`fifo_count ≠ 0`).
    head_valid: DFF<Bit>,
    /// The live bits after this cycle's kills and pop, with the append's bit.
    live: Signal<Local, Bits<D>>,
    /// The slot the staged entry is appended at (`fifo_count`, less one after a pop).
    append_pos: Signal<Local, Bits<CB>>,
}

impl<const W: usize, const L: usize, const D: usize, const CB: usize> Default
    for ArbiterFifo<W, L, D, CB>
{
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            revoked: Default::default(),
            push_valid: Default::default(),
            push_req: Default::default(),
            push_holder: Default::default(),
            push_lock: Default::default(),
            not_empty: Default::default(),
            head_req: Default::default(),
            head_lock: Default::default(),
            head_live: Default::default(),
            count: Default::default(),
            fifo_req: std::array::from_fn(|_| Default::default()),
            fifo_holder: std::array::from_fn(|_| Default::default()),
            fifo_lock: std::array::from_fn(|_| Default::default()),
            fifo_live: Default::default(),
            fifo_count: Default::default(),
            head_valid: Default::default(),
            live: Default::default(),
            append_pos: Default::default(),
        }
    }
}

impl<const W: usize, const L: usize, const D: usize, const CB: usize> Logic
    for ArbiterFifo<W, L, D, CB>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, fifo_live, fifo_count, head_valid);
        for k in 0..D {
            self.fifo_req[k].clock.next = self.clock.val();
            self.fifo_req[k].d.next = self.fifo_req[k].q.val();
            self.fifo_holder[k].clock.next = self.clock.val();
            self.fifo_holder[k].d.next = self.fifo_holder[k].q.val();
            self.fifo_lock[k].clock.next = self.clock.val();
            self.fifo_lock[k].d.next = self.fifo_lock[k].q.val();
        }
        // kill entries of revoked warps, pop the head, push
        self.live.next = self.fifo_live.q.val();
        for k in 0..D {
            if (self.fifo_req[k].q.val() & self.revoked.val()).any() {
                self.live.next = self.live.val().replace_bit(k, false);
            }
        }
        self.append_pos.next = self.fifo_count.q.val();
        if self.head_valid.q.val() {
            self.live.next = self.live.val() >> 1;
            self.append_pos.next = self.fifo_count.q.val() - 1;
            for k in 0..(D - 1) {
                self.fifo_req[k].d.next = self.fifo_req[k + 1].q.val();
                self.fifo_holder[k].d.next = self.fifo_holder[k + 1].q.val();
                self.fifo_lock[k].d.next = self.fifo_lock[k + 1].q.val();
            }
        }
        // the staged entry joins the tail (its payload is written whatever the valid bit says)
        for k in 0..D {
            if self.append_pos.val().index() == k {
                self.fifo_req[k].d.next = self.push_req.val();
                self.fifo_holder[k].d.next = self.push_holder.val();
                self.fifo_lock[k].d.next = self.push_lock.val();
                if self.push_valid.val() & !(self.push_req.val() & self.revoked.val()).any() {
                    self.live.next = self.live.val().replace_bit(k, true);
                }
            }
        }
        self.fifo_live.d.next = self.live.val();
        // not empty next cycle: the head is popped, so slot 1 or the staged entry
        self.head_valid.d.next = self.push_valid.val() | (self.fifo_count.q.val() >> 1).any();
        self.fifo_count.d.next = self.append_pos.val();
        if self.push_valid.val() {
            self.fifo_count.d.next = self.append_pos.val() + 1;
        }
        if self.reset.val() {
            self.fifo_live.d.next = 0.into();
            self.fifo_count.d.next = 0.into();
            self.head_valid.d.next = false;
            for k in 0..D {
                self.fifo_req[k].d.next = 0.into();
                self.fifo_holder[k].d.next = 0.into();
                self.fifo_lock[k].d.next = 0.into();
            }
        }
        self.not_empty.next = self.head_valid.q.val();
        self.head_req.next = self.fifo_req[0].q.val();
        self.head_lock.next = self.fifo_lock[0].q.val();
        self.head_live.next = self.fifo_live.q.val().get_bit(0);
        self.count.next = self.fifo_count.q.val();
    }
}
