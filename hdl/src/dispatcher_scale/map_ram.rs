//! [`MapRam`]: the full dispatcher's free maps stored **map-major** in 16-entry LUT RAM with
//! two read-modify-write ports and an asynchronous read port (design block 6, build step 1;
//! `docs/dispatcher_scale.md`, "Block 6").
//!
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `clock`, `reset` | in | 1 | one clock; synchronous reset: every map of every module free |
//! | `alloc_en` | in | 1 | port A: commit an allocation on module `alloc_module` at the end of this cycle |
//! | `alloc_module` | in | 4 | the module (entry) port A writes |
//! | `alloc_vgpr0`..`alloc_vgpr3`, `alloc_sgpr0`..`alloc_sgpr3`, `alloc_lds` | in | V, S, L | blocks allocated (1 = taken now) |
//! | `free_en` | in | 1 | port F: release blocks of module `free_module` at the end of this cycle |
//! | `free_module` | in | 4 | the module port F writes |
//! | `free_vgpr0`..`free_vgpr3`, `free_sgpr0`..`free_sgpr3`, `free_lds` | in | V, S, L | blocks released (1 = free now) |
//! | `rd_module` | in | 4 | port Ra: the module whose nine maps are read |
//! | `rd_vgpr0`..`rd_vgpr3`, `rd_sgpr0`..`rd_sgpr3`, `rd_lds` | out | V, S, L | module `rd_module`'s maps (1 = free), **asynchronous** |
//!
//! **Contract.** Sixteen modules (entries), each with nine free maps: VGPR of units 0..3 (V
//! blocks), SGPR of units 0..3 (S), LDS (L); 1 = free.
//! - `rd_*` show the maps of module `rd_module` as they are at the start of the cycle (all
//!   writes of earlier cycles, none of this cycle's): a combinational read, no latency.
//! - Port A with `alloc_en` in cycle w: module `alloc_module`'s maps become `cur & ~alloc` at the
//!   end of w (`cur` = the maps at the start of w), visible from w + 1.
//! - Port F with `free_en` in cycle w: module `free_module`'s maps become `cur | freed`.
//! - **Both ports on one module** in the same cycle: merged into port A, `cur & ~alloc | freed`
//!   (port F idles). The caller guarantees that an allocation takes only free blocks and a
//!   release frees only taken blocks, so the two regions are disjoint and the merged write is
//!   the same as either order of the two writes. Both ports on different modules: both written.
//! - `reset` in cycle w: every map of every module reads all free from w + 1; writes of cycle w
//!   are dropped (reset wins). Before the first reset the maps read all free too (power-up:
//!   every `held` flip-flop 0).
//!
//! **Structure** (the note's live value table, 2W3R from 1W1R RAMs): seven word groups — VGPR
//! u0..u3 (V bits), SGPR u0 ‖ u1 and SGPR u2 ‖ u3 (2S bits: unit 2p in the low half), LDS (L
//! bits) — each a [`MapGroup`] of six [`LutRam16`]s (write port A or F × read port Ra, RA, RF:
//! RA and RF are the read halves of the two read-modify-writes, addressed by `alloc_module` /
//! `free_module`). Per module two flip-flops: `lvt` (port F wrote it last) and `held` (written
//! since the last reset; 0 reads all free without touching the RAM). Every write rewrites all
//! seven groups of its module, so one `lvt` bit per module serves every group. Each read port
//! selects per bit between its A and F bank by `lvt[addr]`, or all ones when `!held[addr]`.
//!
//! [`LutRam16`] is the one block with hand-written Verilog (a RustHDL `Wrapper`, 16 × W, write
//! at the clock edge, asynchronous read: what yosys maps to `TRELLIS_DPR16X4` on the ECP5), with
//! a simulation model for RustHDL (rust-hdl's own `RAM` has a registered read).
//!
//! **Cost** (full widths 128 / 64 / 48, ECP5-85F speed 6, inside the flow's harness; `synth
//! report --target ecp5-85f --full --only dispatcher_scale_map_ram --seeds 1 --speeds 6`,
//! session 8): 1 224 `TRELLIS_DPR16X4` (7 344 LUT4 sites), 12 702 LUT4 sites in all, 32
//! flip-flops of its own; **78.1 MHz at seed 1** (seeds 2–3 not finished): the module select
//! fanned out to the 7 × 128 read-modify-write bits (12.8 ns, 10.9 of it routing). Details and
//! the next steps: `docs/dispatcher_scale.md`.

use rust_hdl::prelude::*;

/// 16 × W LUT RAM: one write port (at the clock edge, when `we`), one asynchronous read port.
/// Hand-written Verilog (`Wrapper`) that yosys maps to distributed RAM; `update` is its
/// simulation model.
#[derive(LogicBlock)]
pub struct LutRam16<const W: usize> {
    /// The one clock.
    pub clock: Signal<In, Clock>,
    /// Write `wdata` into entry `waddr` at the end of this cycle.
    pub we: Signal<In, Bit>,
    /// Write address.
    pub waddr: Signal<In, Bits<4>>,
    /// Write data.
    pub wdata: Signal<In, Bits<W>>,
    /// Read address.
    pub raddr: Signal<In, Bits<4>>,
    /// Entry `raddr` (combinational).
    pub rdata: Signal<Out, Bits<W>>,
    _mem: Vec<Bits<W>>,
}

impl<const W: usize> Default for LutRam16<W> {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            we: Default::default(),
            waddr: Default::default(),
            wdata: Default::default(),
            raddr: Default::default(),
            rdata: Default::default(),
            _mem: vec![Bits::<W>::default(); 16],
        }
    }
}

impl<const W: usize> Logic for LutRam16<W> {
    fn update(&mut self) {
        if self.clock.pos_edge() && self.we.val() {
            self._mem[self.waddr.val().index()] = self.wdata.val();
        }
        self.rdata.next = self._mem[self.raddr.val().index()];
    }

    fn connect(&mut self) {
        self.rdata.connect();
    }

    fn hdl(&self) -> Verilog {
        Verilog::Wrapper(Wrapper {
            code: format!(
                "reg [{m}:0] mem [0:15];\n\
                 always @(posedge clock) begin\n    if (we) mem[waddr] <= wdata;\nend\n\
                 assign rdata = mem[raddr];\n",
                m = W - 1
            ),
            cores: String::new(),
        })
    }
}

/// One word group of [`MapRam`]: 16 entries of W bits in six [`LutRam16`] banks (write port A /
/// F × read port Ra / RA / RF), the two read-modify-writes and the LVT's read selection (the
/// selects come from `MapRam`'s per-module flip-flops).
#[derive(LogicBlock)]
pub struct MapGroup<const W: usize> {
    /// The one clock.
    pub clock: Signal<In, Clock>,
    /// Port A writes entry `a_addr`.
    pub a_we: Signal<In, Bit>,
    pub a_addr: Signal<In, Bits<4>>,
    /// Blocks allocated by port A.
    pub a_mask: Signal<In, Bits<W>>,
    /// Port F writes entry `f_addr` (not when merged into A).
    pub f_we: Signal<In, Bit>,
    pub f_addr: Signal<In, Bits<4>>,
    /// Blocks released (by port F, or by port A when `merge`).
    pub f_mask: Signal<In, Bits<W>>,
    /// Port A also releases `f_mask` (same module on both ports).
    pub merge: Signal<In, Bit>,
    /// Read port Ra's address.
    pub r_addr: Signal<In, Bits<4>>,
    /// Per read port (Ra, RA, RF): the F bank holds the entry (`lvt`), the entry was written
    /// since reset (`held`; else it reads all ones).
    pub sel_r: Signal<In, Bit>,
    pub sel_a: Signal<In, Bit>,
    pub sel_f: Signal<In, Bit>,
    pub held_r: Signal<In, Bit>,
    pub held_a: Signal<In, Bit>,
    pub held_f: Signal<In, Bit>,
    /// Entry `r_addr` (combinational).
    pub r_data: Signal<Out, Bits<W>>,
    /// Banks 0..3: written by A, read by Ra, RA, RF; 3..6: written by F, same reads.
    pub bank: [LutRam16<W>; 6],
    cur_a: Signal<Local, Bits<W>>,
    cur_f: Signal<Local, Bits<W>>,
    new_a: Signal<Local, Bits<W>>,
    new_f: Signal<Local, Bits<W>>,
    ones: Constant<Bits<W>>,
}

impl<const W: usize> Default for MapGroup<W> {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            a_we: Default::default(),
            a_addr: Default::default(),
            a_mask: Default::default(),
            f_we: Default::default(),
            f_addr: Default::default(),
            f_mask: Default::default(),
            merge: Default::default(),
            r_addr: Default::default(),
            sel_r: Default::default(),
            sel_a: Default::default(),
            sel_f: Default::default(),
            held_r: Default::default(),
            held_a: Default::default(),
            held_f: Default::default(),
            r_data: Default::default(),
            bank: Default::default(),
            cur_a: Default::default(),
            cur_f: Default::default(),
            new_a: Default::default(),
            new_f: Default::default(),
            ones: Constant::new(!Bits::<W>::default()),
        }
    }
}

impl<const W: usize> Logic for MapGroup<W> {
    #[hdl_gen]
    fn update(&mut self) {
        for b in 0..6 {
            self.bank[b].clock.next = self.clock.val();
        }
        // read halves of the two read-modify-writes, through the LVT
        self.bank[1].raddr.next = self.a_addr.val();
        self.bank[4].raddr.next = self.a_addr.val();
        self.bank[2].raddr.next = self.f_addr.val();
        self.bank[5].raddr.next = self.f_addr.val();
        self.cur_a.next = self.bank[1].rdata.val();
        if self.sel_a.val() {
            self.cur_a.next = self.bank[4].rdata.val();
        }
        if !self.held_a.val() {
            self.cur_a.next = self.ones.val();
        }
        self.cur_f.next = self.bank[2].rdata.val();
        if self.sel_f.val() {
            self.cur_f.next = self.bank[5].rdata.val();
        }
        if !self.held_f.val() {
            self.cur_f.next = self.ones.val();
        }
        // write halves: A = cur & ~alloc (| freed when merged), F = cur | freed
        self.new_a.next = self.cur_a.val() & !self.a_mask.val();
        if self.merge.val() {
            self.new_a.next = (self.cur_a.val() & !self.a_mask.val()) | self.f_mask.val();
        }
        self.new_f.next = self.cur_f.val() | self.f_mask.val();
        for b in 0..3 {
            self.bank[b].we.next = self.a_we.val();
            self.bank[b].waddr.next = self.a_addr.val();
            self.bank[b].wdata.next = self.new_a.val();
        }
        for b in 3..6 {
            self.bank[b].we.next = self.f_we.val();
            self.bank[b].waddr.next = self.f_addr.val();
            self.bank[b].wdata.next = self.new_f.val();
        }
        // read port Ra
        self.bank[0].raddr.next = self.r_addr.val();
        self.bank[3].raddr.next = self.r_addr.val();
        self.r_data.next = self.bank[0].rdata.val();
        if self.sel_r.val() {
            self.r_data.next = self.bank[3].rdata.val();
        }
        if !self.held_r.val() {
            self.r_data.next = self.ones.val();
        }
    }
}

/// The maps of 16 modules in LUT RAM, map-major, with ports A (allocate), F (release) and Ra
/// (asynchronous read). `V` VGPR, `S` SGPR, `S2` = 2·S (the SGPR pair group), `L` LDS blocks.
/// See the module doc.
#[derive(LogicBlock)]
pub struct MapRam<const V: usize, const S: usize, const S2: usize, const L: usize> {
    /// The one clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: every map free (writes of this cycle dropped).
    pub reset: Signal<In, Bit>,
    /// Port A: commit an allocation at the end of this cycle.
    pub alloc_en: Signal<In, Bit>,
    /// Port A's module.
    pub alloc_module: Signal<In, Bits<4>>,
    /// Blocks allocated in VGPR 0 (1 = taken now).
    pub alloc_vgpr0: Signal<In, Bits<V>>,
    /// Blocks allocated in VGPR 1.
    pub alloc_vgpr1: Signal<In, Bits<V>>,
    /// Blocks allocated in VGPR 2.
    pub alloc_vgpr2: Signal<In, Bits<V>>,
    /// Blocks allocated in VGPR 3.
    pub alloc_vgpr3: Signal<In, Bits<V>>,
    /// Blocks allocated in SGPR 0.
    pub alloc_sgpr0: Signal<In, Bits<S>>,
    /// Blocks allocated in SGPR 1.
    pub alloc_sgpr1: Signal<In, Bits<S>>,
    /// Blocks allocated in SGPR 2.
    pub alloc_sgpr2: Signal<In, Bits<S>>,
    /// Blocks allocated in SGPR 3.
    pub alloc_sgpr3: Signal<In, Bits<S>>,
    /// Blocks allocated in the LDS map.
    pub alloc_lds: Signal<In, Bits<L>>,
    /// Port F: release blocks at the end of this cycle.
    pub free_en: Signal<In, Bit>,
    /// Port F's module.
    pub free_module: Signal<In, Bits<4>>,
    /// Blocks released in VGPR 0 (1 = free now).
    pub free_vgpr0: Signal<In, Bits<V>>,
    /// Blocks released in VGPR 1.
    pub free_vgpr1: Signal<In, Bits<V>>,
    /// Blocks released in VGPR 2.
    pub free_vgpr2: Signal<In, Bits<V>>,
    /// Blocks released in VGPR 3.
    pub free_vgpr3: Signal<In, Bits<V>>,
    /// Blocks released in SGPR 0.
    pub free_sgpr0: Signal<In, Bits<S>>,
    /// Blocks released in SGPR 1.
    pub free_sgpr1: Signal<In, Bits<S>>,
    /// Blocks released in SGPR 2.
    pub free_sgpr2: Signal<In, Bits<S>>,
    /// Blocks released in SGPR 3.
    pub free_sgpr3: Signal<In, Bits<S>>,
    /// Blocks released in the LDS map.
    pub free_lds: Signal<In, Bits<L>>,
    /// Port Ra: the module read.
    pub rd_module: Signal<In, Bits<4>>,
    /// Module `rd_module`'s VGPR 0 map (asynchronous).
    pub rd_vgpr0: Signal<Out, Bits<V>>,
    /// VGPR 1 map.
    pub rd_vgpr1: Signal<Out, Bits<V>>,
    /// VGPR 2 map.
    pub rd_vgpr2: Signal<Out, Bits<V>>,
    /// VGPR 3 map.
    pub rd_vgpr3: Signal<Out, Bits<V>>,
    /// SGPR 0 map.
    pub rd_sgpr0: Signal<Out, Bits<S>>,
    /// SGPR 1 map.
    pub rd_sgpr1: Signal<Out, Bits<S>>,
    /// SGPR 2 map.
    pub rd_sgpr2: Signal<Out, Bits<S>>,
    /// SGPR 3 map.
    pub rd_sgpr3: Signal<Out, Bits<S>>,
    /// LDS map.
    pub rd_lds: Signal<Out, Bits<L>>,
    /// Word groups: VGPR u0..u3.
    pub grp_v: [MapGroup<V>; 4],
    /// Word groups: SGPR u0 ‖ u1, SGPR u2 ‖ u3.
    pub grp_s: [MapGroup<S2>; 2],
    /// Word group: LDS.
    pub grp_l: MapGroup<L>,
    /// Per module: port F wrote it last.
    lvt: DFF<Bits<16>>,
    /// Per module: written since the last reset (else all free).
    held: DFF<Bits<16>>,
    oh_r: Signal<Local, Bits<16>>,
    oh_a: Signal<Local, Bits<16>>,
    oh_f: Signal<Local, Bits<16>>,
    set_a: Signal<Local, Bits<16>>,
    set_f: Signal<Local, Bits<16>>,
    merge: Signal<Local, Bit>,
    we_a: Signal<Local, Bit>,
    we_f: Signal<Local, Bit>,
    sel_r: Signal<Local, Bit>,
    sel_a: Signal<Local, Bit>,
    sel_f: Signal<Local, Bit>,
    held_r: Signal<Local, Bit>,
    held_a: Signal<Local, Bit>,
    held_f: Signal<Local, Bit>,
    one16: Constant<Bits<16>>,
    zero16: Constant<Bits<16>>,
    /// S: the position of the odd unit's SGPR map in a pair word.
    sshift: Constant<Bits<8>>,
}

impl<const V: usize, const S: usize, const S2: usize, const L: usize> Default
    for MapRam<V, S, S2, L>
{
    fn default() -> Self {
        assert!(S2 == 2 * S, "MapRam: S2 = {S2} must be 2 * S = {}", 2 * S);
        assert!(
            S <= 64 && V <= 128 && L <= 128,
            "MapRam: ports wider than 128 bits"
        );
        Self {
            clock: Default::default(),
            reset: Default::default(),
            alloc_en: Default::default(),
            alloc_module: Default::default(),
            alloc_vgpr0: Default::default(),
            alloc_vgpr1: Default::default(),
            alloc_vgpr2: Default::default(),
            alloc_vgpr3: Default::default(),
            alloc_sgpr0: Default::default(),
            alloc_sgpr1: Default::default(),
            alloc_sgpr2: Default::default(),
            alloc_sgpr3: Default::default(),
            alloc_lds: Default::default(),
            free_en: Default::default(),
            free_module: Default::default(),
            free_vgpr0: Default::default(),
            free_vgpr1: Default::default(),
            free_vgpr2: Default::default(),
            free_vgpr3: Default::default(),
            free_sgpr0: Default::default(),
            free_sgpr1: Default::default(),
            free_sgpr2: Default::default(),
            free_sgpr3: Default::default(),
            free_lds: Default::default(),
            rd_module: Default::default(),
            rd_vgpr0: Default::default(),
            rd_vgpr1: Default::default(),
            rd_vgpr2: Default::default(),
            rd_vgpr3: Default::default(),
            rd_sgpr0: Default::default(),
            rd_sgpr1: Default::default(),
            rd_sgpr2: Default::default(),
            rd_sgpr3: Default::default(),
            rd_lds: Default::default(),
            grp_v: Default::default(),
            grp_s: Default::default(),
            grp_l: Default::default(),
            lvt: Default::default(),
            held: Default::default(),
            oh_r: Default::default(),
            oh_a: Default::default(),
            oh_f: Default::default(),
            set_a: Default::default(),
            set_f: Default::default(),
            merge: Default::default(),
            we_a: Default::default(),
            we_f: Default::default(),
            sel_r: Default::default(),
            sel_a: Default::default(),
            sel_f: Default::default(),
            held_r: Default::default(),
            held_a: Default::default(),
            held_f: Default::default(),
            one16: Constant::new(1.into()),
            zero16: Constant::new(0.into()),
            sshift: Constant::new((S as u64).into()),
        }
    }
}

impl<const V: usize, const S: usize, const S2: usize, const L: usize> Logic
    for MapRam<V, S, S2, L>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, lvt, held);
        // module decode and the per-module flip-flops seen by each read port
        self.oh_r.next = self.one16.val() << self.rd_module.val();
        self.oh_a.next = self.one16.val() << self.alloc_module.val();
        self.oh_f.next = self.one16.val() << self.free_module.val();
        self.sel_r.next = (self.lvt.q.val() & self.oh_r.val()).any();
        self.sel_a.next = (self.lvt.q.val() & self.oh_a.val()).any();
        self.sel_f.next = (self.lvt.q.val() & self.oh_f.val()).any();
        self.held_r.next = (self.held.q.val() & self.oh_r.val()).any();
        self.held_a.next = (self.held.q.val() & self.oh_a.val()).any();
        self.held_f.next = (self.held.q.val() & self.oh_f.val()).any();
        // a release on the module being allocated is merged into port A
        self.merge.next = self.alloc_en.val()
            & self.free_en.val()
            & (self.alloc_module.val() == self.free_module.val());
        self.we_a.next = self.alloc_en.val() & !self.reset.val();
        self.we_f.next = self.free_en.val() & !self.merge.val() & !self.reset.val();
        self.set_a.next = self.zero16.val();
        if self.we_a.val() {
            self.set_a.next = self.oh_a.val();
        }
        self.set_f.next = self.zero16.val();
        if self.we_f.val() {
            self.set_f.next = self.oh_f.val();
        }
        self.lvt.d.next = (self.lvt.q.val() & !self.set_a.val()) | self.set_f.val();
        self.held.d.next = self.held.q.val() | self.set_a.val() | self.set_f.val();
        if self.reset.val() {
            self.held.d.next = self.zero16.val();
        }
        // the seven word groups
        for g in 0..4 {
            self.grp_v[g].clock.next = self.clock.val();
            self.grp_v[g].a_we.next = self.we_a.val();
            self.grp_v[g].a_addr.next = self.alloc_module.val();
            self.grp_v[g].f_we.next = self.we_f.val();
            self.grp_v[g].f_addr.next = self.free_module.val();
            self.grp_v[g].merge.next = self.merge.val();
            self.grp_v[g].r_addr.next = self.rd_module.val();
            self.grp_v[g].sel_r.next = self.sel_r.val();
            self.grp_v[g].sel_a.next = self.sel_a.val();
            self.grp_v[g].sel_f.next = self.sel_f.val();
            self.grp_v[g].held_r.next = self.held_r.val();
            self.grp_v[g].held_a.next = self.held_a.val();
            self.grp_v[g].held_f.next = self.held_f.val();
        }
        for g in 0..2 {
            self.grp_s[g].clock.next = self.clock.val();
            self.grp_s[g].a_we.next = self.we_a.val();
            self.grp_s[g].a_addr.next = self.alloc_module.val();
            self.grp_s[g].f_we.next = self.we_f.val();
            self.grp_s[g].f_addr.next = self.free_module.val();
            self.grp_s[g].merge.next = self.merge.val();
            self.grp_s[g].r_addr.next = self.rd_module.val();
            self.grp_s[g].sel_r.next = self.sel_r.val();
            self.grp_s[g].sel_a.next = self.sel_a.val();
            self.grp_s[g].sel_f.next = self.sel_f.val();
            self.grp_s[g].held_r.next = self.held_r.val();
            self.grp_s[g].held_a.next = self.held_a.val();
            self.grp_s[g].held_f.next = self.held_f.val();
        }
        self.grp_l.clock.next = self.clock.val();
        self.grp_l.a_we.next = self.we_a.val();
        self.grp_l.a_addr.next = self.alloc_module.val();
        self.grp_l.f_we.next = self.we_f.val();
        self.grp_l.f_addr.next = self.free_module.val();
        self.grp_l.merge.next = self.merge.val();
        self.grp_l.r_addr.next = self.rd_module.val();
        self.grp_l.sel_r.next = self.sel_r.val();
        self.grp_l.sel_a.next = self.sel_a.val();
        self.grp_l.sel_f.next = self.sel_f.val();
        self.grp_l.held_r.next = self.held_r.val();
        self.grp_l.held_a.next = self.held_a.val();
        self.grp_l.held_f.next = self.held_f.val();
        // masks into the groups (SGPR unit 2p in the low half of pair p)
        self.grp_v[0].a_mask.next = self.alloc_vgpr0.val();
        self.grp_v[1].a_mask.next = self.alloc_vgpr1.val();
        self.grp_v[2].a_mask.next = self.alloc_vgpr2.val();
        self.grp_v[3].a_mask.next = self.alloc_vgpr3.val();
        self.grp_v[0].f_mask.next = self.free_vgpr0.val();
        self.grp_v[1].f_mask.next = self.free_vgpr1.val();
        self.grp_v[2].f_mask.next = self.free_vgpr2.val();
        self.grp_v[3].f_mask.next = self.free_vgpr3.val();
        self.grp_s[0].a_mask.next = bit_cast::<S2, S>(self.alloc_sgpr0.val())
            | (bit_cast::<S2, S>(self.alloc_sgpr1.val()) << self.sshift.val());
        self.grp_s[1].a_mask.next = bit_cast::<S2, S>(self.alloc_sgpr2.val())
            | (bit_cast::<S2, S>(self.alloc_sgpr3.val()) << self.sshift.val());
        self.grp_s[0].f_mask.next = bit_cast::<S2, S>(self.free_sgpr0.val())
            | (bit_cast::<S2, S>(self.free_sgpr1.val()) << self.sshift.val());
        self.grp_s[1].f_mask.next = bit_cast::<S2, S>(self.free_sgpr2.val())
            | (bit_cast::<S2, S>(self.free_sgpr3.val()) << self.sshift.val());
        self.grp_l.a_mask.next = self.alloc_lds.val();
        self.grp_l.f_mask.next = self.free_lds.val();
        // read port Ra
        self.rd_vgpr0.next = self.grp_v[0].r_data.val();
        self.rd_vgpr1.next = self.grp_v[1].r_data.val();
        self.rd_vgpr2.next = self.grp_v[2].r_data.val();
        self.rd_vgpr3.next = self.grp_v[3].r_data.val();
        self.rd_sgpr0.next = self.grp_s[0].r_data.val().get_bits::<S>(0);
        self.rd_sgpr1.next = self.grp_s[0]
            .r_data
            .val()
            .get_bits::<S>(self.sshift.val().index());
        self.rd_sgpr2.next = self.grp_s[1].r_data.val().get_bits::<S>(0);
        self.rd_sgpr3.next = self.grp_s[1]
            .r_data
            .val()
            .get_bits::<S>(self.sshift.val().index());
        self.rd_lds.next = self.grp_l.r_data.val();
    }
}

/// Map RAM, small maps (16 / 6 / 12): padding exercised.
pub type MapRamSmall = MapRam<16, 6, 12, 12>;
/// Map RAM, the board dispatcher's maps (16 / 8 / 16).
pub type MapRamBoard = MapRam<16, 8, 16, 16>;
/// Map RAM, `DispatcherConfig::full()`'s maps (128 / 64 / 48).
pub type MapRamFull = MapRam<128, 64, 128, 48>;

/// The exported Verilog of a map RAM (module `top`).
pub fn map_ram_verilog<B: Block + Default>() -> String {
    let mut b = B::default();
    b.connect_all();
    generate_verilog(&b)
}
