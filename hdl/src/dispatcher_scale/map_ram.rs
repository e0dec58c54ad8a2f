//! [`MapRam`]: the full dispatcher's free maps stored **map-major** in 16-entry LUT RAM with
//! two read-modify-write ports and a read port (design block 6, build step 1;
//! `docs/dispatcher_scale.md`, "Block 6").
//!
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `clock`, `reset` | in | 1 | one clock; synchronous reset: every map of every module free |
//! | `alloc_en` | in | 1 | port A: an allocation on module `alloc_module`, requested in this cycle |
//! | `alloc_module` | in | 4 | the module (entry) port A writes |
//! | `alloc_vgpr0`..`alloc_vgpr3`, `alloc_sgpr0`..`alloc_sgpr3`, `alloc_lds` | in | V, S, L | blocks allocated (1 = taken now) |
//! | `free_en` | in | 1 | port F: a release on module `free_module`, requested in this cycle |
//! | `free_module` | in | 4 | the module port F writes |
//! | `free_vgpr0`..`free_vgpr3`, `free_sgpr0`..`free_sgpr3`, `free_lds` | in | V, S, L | blocks released (1 = free now) |
//! | `rd_module` | in | 4 | port Ra: the module whose nine maps are read (data in the next cycle) |
//! | `rd_vgpr0`..`rd_vgpr3`, `rd_sgpr0`..`rd_sgpr3`, `rd_lds` | out | V, S, L | the maps of the previous cycle's `rd_module` (1 = free), **registered read** |
//!
//! **Contract.** Sixteen modules (entries), each with nine free maps: VGPR of units 0..3 (V
//! blocks), SGPR of units 0..3 (S), LDS (L); 1 = free. Let M(t) be the maps at the start of
//! cycle t: every request of the cycles before t applied in order, none of cycle t's.
//! - `rd_*` in cycle t + 1 show module `rd_module`(t)'s maps M(t): a read with **one cycle of
//!   latency** that sees every write requested before the read and none requested with it
//!   (session 8 had the same value in cycle t, asynchronously).
//! - Port A with `alloc_en` in cycle w: module `alloc_module`'s maps become `cur & ~alloc` in
//!   M(w + 1) (`cur` = its maps in M(w)).
//! - Port F with `free_en` in cycle w: module `free_module`'s maps become `cur | freed`.
//! - **Both ports on one module** in the same cycle: merged into port A, `cur & ~alloc | freed`
//!   (port F idles). The caller guarantees that an allocation takes only free blocks and a
//!   release frees only taken blocks, so the two regions are disjoint and the merged write is
//!   the same as either order of the two writes. Both ports on different modules: both written.
//! - `reset` in cycle w: every map of every module is free in M(w + 1); the requests of cycle w
//!   are dropped (reset wins); the read requested in w still shows M(w). Before the first reset
//!   the maps read all free too (power-up: every `held` flip-flop 0).
//!
//! **Structure** (the note's live value table, 2W3R from 1W1R RAMs). Seven word groups — VGPR
//! u0..u3 (V bits), SGPR u0 ‖ u1 and SGPR u2 ‖ u3 (2S bits: unit 2p in the low half), LDS (L
//! bits) — each a [`MapGroup`] of six [`LutRam16`]s (write port A or F × read port Ra, RA, RF:
//! RA and RF are the read halves of the two read-modify-writes). Per module two flip-flops:
//! `lvt` (port F wrote it last) and `held` (written since the last reset; 0 reads all free
//! without touching the RAM); every write rewrites all seven groups of its module, so one `lvt`
//! bit per module serves every group. **Every request is registered and executed one cycle
//! later** (session 9; session 8 did the read-modify-write in the request cycle): in cycle w
//! the top decodes, for each of the three addresses, which bank holds the entry after the
//! writes landing at the end of w (`lvt` / `held` as they will be, two bits per port), and
//! each group registers the addresses, masks and these verdicts in flip-flops of its own
//! ([`KeepDff`], seven copies placed by their groups); in cycle w + 1 each group reads its
//! banks at the registered addresses, selects by the registered verdicts and writes the
//! read-modify-write results at the end of w + 1. The RMW of a request reads the writes of
//! every earlier request (landed at the end of w), so no forwarding is needed; the read port
//! returns the banks at the start of w + 1 = M(w). So no decode of an input address precedes
//! the 7 × W-bit selects (session 8's critical path: one select per port fanned out from the
//! 16:1 decode to every group, 12.8 ns).
//!
//! [`LutRam16`] is the one block with hand-written Verilog (a RustHDL `Wrapper`, 16 × W, write
//! at the clock edge, asynchronous read: what yosys maps to `TRELLIS_DPR16X4` on the ECP5), with
//! a simulation model for RustHDL (rust-hdl's own `RAM` has a registered read); [`KeepDff`] is
//! rust-hdl's `DFF` with yosys' `keep` on its process.
//!
//! **Cost** (full widths 128 / 64 / 48, ECP5-85F speed 6, inside the flow's harness; `synth
//! report --target ecp5-85f --full --only dispatcher_scale_map_ram --seeds 1,2,3 --speeds 6`,
//! session 9): 1 224 `TRELLIS_DPR16X4`, 4 703 LUT4, **12 048 LUT4 sites** (14 %); **105.8 MHz**
//! median (seeds 105.8, 119.3, 105.4; session 8's one-cycle form: 78.1 MHz at seed 1). Own
//! flip-flops ~1 820 in a design (2 × 816 registered mask bits, 7 × 21 per-group copies, 42
//! central); the harness shows 168 because the mask and address registers merge with its
//! input scan chain. Critical path: the 16:1 decode of a port's verdict into a far group's
//! flip-flop (9.45 ns at seed 1). Details: `docs/dispatcher_scale.md`.

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

/// A flip-flop that synthesis keeps apart from its twins: `rust_hdl`'s `DFF` with yosys'
/// `(* keep *)` on its process, so `opt_merge` does not fold the per-group copies of one
/// select or address into a single flip-flop (which would route one net across all seven
/// groups again). Same ports and behaviour as `DFF` (`dff_setup!` works on it).
#[derive(Clone, Debug, LogicBlock)]
pub struct KeepDff<T: Synth> {
    /// Data in.
    pub d: Signal<In, T>,
    /// Data out (`d` of the previous cycle).
    pub q: Signal<Out, T>,
    /// The one clock.
    pub clock: Signal<In, Clock>,
}

impl<T: Synth> Default for KeepDff<T> {
    fn default() -> Self {
        Self {
            d: Signal::default(),
            q: Signal::default(),
            clock: Signal::default(),
        }
    }
}

impl<T: Synth> Logic for KeepDff<T> {
    fn update(&mut self) {
        if self.clock.pos_edge() {
            self.q.next = self.d.val()
        }
    }
    fn connect(&mut self) {
        self.q.connect();
    }
    fn hdl(&self) -> Verilog {
        Verilog::Custom(format!(
            "initial begin\n   q = {:x};\nend\n\n(* keep *) always @(posedge clock) begin\n   q <= d;\nend\n",
            T::default().verilog()
        ))
    }
    fn timing(&self) -> Vec<TimingInfo> {
        vec![TimingInfo {
            name: "dff".into(),
            clock: "clock".into(),
            inputs: vec!["d".into()],
            outputs: vec!["q".into()],
        }]
    }
}

/// One word group of [`MapRam`]: 16 entries of W bits in six [`LutRam16`] banks (write port A /
/// F × read port Ra / RA / RF). Its inputs are the **requests** of cycle w (addresses, masks,
/// and for each read port the LVT's verdict for the entry it reads: `*_use_a` = bank A holds
/// it, `*_use_f` = bank F holds it, neither = not written since reset, all free); the group
/// registers them in its own flip-flops ([`KeepDff`]: one copy per group, placed by the
/// group) and in cycle w + 1 does the two read-modify-writes (written at the end of w + 1) and
/// the read of port Ra (`r_data`, the entry as the banks hold it at the start of w + 1).
#[derive(LogicBlock)]
pub struct MapGroup<const W: usize> {
    /// The one clock.
    pub clock: Signal<In, Clock>,
    /// Port A writes entry `a_addr` (request; written at the end of the next cycle).
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
    /// Per read port (Ra, RA, RF), for the entry it reads next cycle: bank A holds it, bank F
    /// holds it (neither: all free).
    pub r_use_a: Signal<In, Bit>,
    pub r_use_f: Signal<In, Bit>,
    pub a_use_a: Signal<In, Bit>,
    pub a_use_f: Signal<In, Bit>,
    pub f_use_a: Signal<In, Bit>,
    pub f_use_f: Signal<In, Bit>,
    /// Entry `r_addr` of the previous cycle, as the banks hold it at the start of this cycle.
    pub r_data: Signal<Out, Bits<W>>,
    /// The words ports A and F write at the end of this cycle (the RMW results).
    pub wr_a: Signal<Out, Bits<W>>,
    pub wr_f: Signal<Out, Bits<W>>,
    /// Banks 0..3: written by A, read by Ra, RA, RF; 3..6: written by F, same reads.
    pub bank: [LutRam16<W>; 6],
    /// Registered requests (one copy per group).
    a_we_r: KeepDff<Bit>,
    a_addr_r: KeepDff<Bits<4>>,
    f_we_r: KeepDff<Bit>,
    f_addr_r: KeepDff<Bits<4>>,
    merge_r: KeepDff<Bit>,
    r_addr_r: KeepDff<Bits<4>>,
    ur_a: KeepDff<Bit>,
    ur_f: KeepDff<Bit>,
    ua_a: KeepDff<Bit>,
    ua_f: KeepDff<Bit>,
    uf_a: KeepDff<Bit>,
    uf_f: KeepDff<Bit>,
    a_mask_r: DFF<Bits<W>>,
    f_mask_r: DFF<Bits<W>>,
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
            r_use_a: Default::default(),
            r_use_f: Default::default(),
            a_use_a: Default::default(),
            a_use_f: Default::default(),
            f_use_a: Default::default(),
            f_use_f: Default::default(),
            r_data: Default::default(),
            wr_a: Default::default(),
            wr_f: Default::default(),
            bank: Default::default(),
            a_we_r: Default::default(),
            a_addr_r: Default::default(),
            f_we_r: Default::default(),
            f_addr_r: Default::default(),
            merge_r: Default::default(),
            r_addr_r: Default::default(),
            ur_a: Default::default(),
            ur_f: Default::default(),
            ua_a: Default::default(),
            ua_f: Default::default(),
            uf_a: Default::default(),
            uf_f: Default::default(),
            a_mask_r: Default::default(),
            f_mask_r: Default::default(),
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
        dff_setup!(
            self, clock, a_we_r, a_addr_r, f_we_r, f_addr_r, merge_r, r_addr_r, ur_a, ur_f, ua_a,
            ua_f, uf_a, uf_f, a_mask_r, f_mask_r
        );
        for b in 0..6 {
            self.bank[b].clock.next = self.clock.val();
        }
        // cycle w: register the requests
        self.a_we_r.d.next = self.a_we.val();
        self.a_addr_r.d.next = self.a_addr.val();
        self.f_we_r.d.next = self.f_we.val();
        self.f_addr_r.d.next = self.f_addr.val();
        self.merge_r.d.next = self.merge.val();
        self.r_addr_r.d.next = self.r_addr.val();
        self.a_mask_r.d.next = self.a_mask.val();
        self.f_mask_r.d.next = self.f_mask.val();
        self.ur_a.d.next = self.r_use_a.val();
        self.ur_f.d.next = self.r_use_f.val();
        self.ua_a.d.next = self.a_use_a.val();
        self.ua_f.d.next = self.a_use_f.val();
        self.uf_a.d.next = self.f_use_a.val();
        self.uf_f.d.next = self.f_use_f.val();
        // cycle w + 1: read halves of the two read-modify-writes, through the registered LVT
        self.bank[1].raddr.next = self.a_addr_r.q.val();
        self.bank[4].raddr.next = self.a_addr_r.q.val();
        self.bank[2].raddr.next = self.f_addr_r.q.val();
        self.bank[5].raddr.next = self.f_addr_r.q.val();
        self.cur_a.next = self.ones.val();
        if self.ua_a.q.val() {
            self.cur_a.next = self.bank[1].rdata.val();
        }
        if self.ua_f.q.val() {
            self.cur_a.next = self.bank[4].rdata.val();
        }
        self.cur_f.next = self.ones.val();
        if self.uf_a.q.val() {
            self.cur_f.next = self.bank[2].rdata.val();
        }
        if self.uf_f.q.val() {
            self.cur_f.next = self.bank[5].rdata.val();
        }
        // write halves: A = cur & ~alloc (| freed when merged), F = cur | freed
        self.new_a.next = self.cur_a.val() & !self.a_mask_r.q.val();
        if self.merge_r.q.val() {
            self.new_a.next = (self.cur_a.val() & !self.a_mask_r.q.val()) | self.f_mask_r.q.val();
        }
        self.new_f.next = self.cur_f.val() | self.f_mask_r.q.val();
        for b in 0..3 {
            self.bank[b].we.next = self.a_we_r.q.val();
            self.bank[b].waddr.next = self.a_addr_r.q.val();
            self.bank[b].wdata.next = self.new_a.val();
        }
        for b in 3..6 {
            self.bank[b].we.next = self.f_we_r.q.val();
            self.bank[b].waddr.next = self.f_addr_r.q.val();
            self.bank[b].wdata.next = self.new_f.val();
        }
        self.wr_a.next = self.new_a.val();
        self.wr_f.next = self.new_f.val();
        // read port Ra
        self.bank[0].raddr.next = self.r_addr_r.q.val();
        self.bank[3].raddr.next = self.r_addr_r.q.val();
        self.r_data.next = self.ones.val();
        if self.ur_a.q.val() {
            self.r_data.next = self.bank[0].rdata.val();
        }
        if self.ur_f.q.val() {
            self.r_data.next = self.bank[3].rdata.val();
        }
    }
}

/// The logic of [`MapRam`] with the write stream as outputs as well (what [`super::MapRefresh`]
/// searches): the requests accepted this cycle (`req_a`, `req_f`: after the merge and the
/// reset) and the words the groups write at the end of this cycle (`wr_*`: the previous
/// cycle's requests, with their modules). Read [`MapRam`]'s doc for the rest. `V` VGPR, `S` SGPR, `S2` = 2·S (the SGPR pair group), `L` LDS blocks.
/// See the module doc.
#[derive(LogicBlock)]
pub struct MapRamCore<const V: usize, const S: usize, const S2: usize, const L: usize> {
    /// The one clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: every map free (writes of this cycle dropped).
    pub reset: Signal<In, Bit>,
    /// Port A: an allocation requested in this cycle.
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
    /// Port F: a release requested in this cycle.
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
    /// Port Ra: the module read (data in the next cycle).
    pub rd_module: Signal<In, Bits<4>>,
    /// The previous cycle's `rd_module`'s VGPR 0 map (registered read).
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
    /// This cycle's requests, accepted (port A; port F unless merged; neither on reset).
    pub req_a: Signal<Out, Bit>,
    pub req_f: Signal<Out, Bit>,
    /// The writes at the end of this cycle (the previous cycle's requests): enable, module,
    /// and the words of groups 0..7 (VGPR u0..u3, SGPR pairs 0 and 1, LDS).
    pub wr_a_en: Signal<Out, Bit>,
    pub wr_a_module: Signal<Out, Bits<4>>,
    pub wr_a_v0: Signal<Out, Bits<V>>,
    pub wr_a_v1: Signal<Out, Bits<V>>,
    pub wr_a_v2: Signal<Out, Bits<V>>,
    pub wr_a_v3: Signal<Out, Bits<V>>,
    pub wr_a_s0: Signal<Out, Bits<S2>>,
    pub wr_a_s1: Signal<Out, Bits<S2>>,
    pub wr_a_l: Signal<Out, Bits<L>>,
    pub wr_f_en: Signal<Out, Bit>,
    pub wr_f_module: Signal<Out, Bits<4>>,
    pub wr_f_v0: Signal<Out, Bits<V>>,
    pub wr_f_v1: Signal<Out, Bits<V>>,
    pub wr_f_v2: Signal<Out, Bits<V>>,
    pub wr_f_v3: Signal<Out, Bits<V>>,
    pub wr_f_s0: Signal<Out, Bits<S2>>,
    pub wr_f_s1: Signal<Out, Bits<S2>>,
    pub wr_f_l: Signal<Out, Bits<L>>,
    /// Word groups: VGPR u0..u3.
    pub grp_v: [MapGroup<V>; 4],
    /// Word groups: SGPR u0 ‖ u1, SGPR u2 ‖ u3.
    pub grp_s: [MapGroup<S2>; 2],
    /// Word group: LDS.
    pub grp_l: MapGroup<L>,
    /// Per module: port F wrote it last (as the banks hold it: writes landed).
    lvt: DFF<Bits<16>>,
    /// Per module: written since the last reset (else all free).
    held: DFF<Bits<16>>,
    /// The requests of the previous cycle, written at the end of this one.
    pa_we: DFF<Bit>,
    pa_addr: DFF<Bits<4>>,
    pf_we: DFF<Bit>,
    pf_addr: DFF<Bits<4>>,
    /// `lvt` / `held` after this cycle's writes land (before this cycle's reset).
    lvt_n: Signal<Local, Bits<16>>,
    held_n: Signal<Local, Bits<16>>,
    oh_r: Signal<Local, Bits<16>>,
    oh_a: Signal<Local, Bits<16>>,
    oh_f: Signal<Local, Bits<16>>,
    set_a: Signal<Local, Bits<16>>,
    set_f: Signal<Local, Bits<16>>,
    merge: Signal<Local, Bit>,
    we_a: Signal<Local, Bit>,
    we_f: Signal<Local, Bit>,
    r_use_a: Signal<Local, Bit>,
    r_use_f: Signal<Local, Bit>,
    a_use_a: Signal<Local, Bit>,
    a_use_f: Signal<Local, Bit>,
    f_use_a: Signal<Local, Bit>,
    f_use_f: Signal<Local, Bit>,
    one16: Constant<Bits<16>>,
    zero16: Constant<Bits<16>>,
    /// S: the position of the odd unit's SGPR map in a pair word.
    sshift: Constant<Bits<8>>,
}

impl<const V: usize, const S: usize, const S2: usize, const L: usize> Default
    for MapRamCore<V, S, S2, L>
{
    fn default() -> Self {
        assert!(
            S2 == 2 * S,
            "MapRamCore: S2 = {S2} must be 2 * S = {}",
            2 * S
        );
        assert!(
            S <= 64 && V <= 128 && L <= 128,
            "MapRamCore: ports wider than 128 bits"
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
            req_a: Default::default(),
            req_f: Default::default(),
            wr_a_en: Default::default(),
            wr_a_module: Default::default(),
            wr_a_v0: Default::default(),
            wr_a_v1: Default::default(),
            wr_a_v2: Default::default(),
            wr_a_v3: Default::default(),
            wr_a_s0: Default::default(),
            wr_a_s1: Default::default(),
            wr_a_l: Default::default(),
            wr_f_en: Default::default(),
            wr_f_module: Default::default(),
            wr_f_v0: Default::default(),
            wr_f_v1: Default::default(),
            wr_f_v2: Default::default(),
            wr_f_v3: Default::default(),
            wr_f_s0: Default::default(),
            wr_f_s1: Default::default(),
            wr_f_l: Default::default(),
            grp_v: Default::default(),
            grp_s: Default::default(),
            grp_l: Default::default(),
            lvt: Default::default(),
            held: Default::default(),
            pa_we: Default::default(),
            pa_addr: Default::default(),
            pf_we: Default::default(),
            pf_addr: Default::default(),
            lvt_n: Default::default(),
            held_n: Default::default(),
            oh_r: Default::default(),
            oh_a: Default::default(),
            oh_f: Default::default(),
            set_a: Default::default(),
            set_f: Default::default(),
            merge: Default::default(),
            we_a: Default::default(),
            we_f: Default::default(),
            r_use_a: Default::default(),
            r_use_f: Default::default(),
            a_use_a: Default::default(),
            a_use_f: Default::default(),
            f_use_a: Default::default(),
            f_use_f: Default::default(),
            one16: Constant::new(1.into()),
            zero16: Constant::new(0.into()),
            sshift: Constant::new((S as u64).into()),
        }
    }
}

impl<const V: usize, const S: usize, const S2: usize, const L: usize> Logic
    for MapRamCore<V, S, S2, L>
{
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, lvt, held, pa_we, pa_addr, pf_we, pf_addr);
        // the previous cycle's requests land at the end of this one: the LVT after them
        self.set_a.next = self.zero16.val();
        if self.pa_we.q.val() {
            self.set_a.next = self.one16.val() << self.pa_addr.q.val();
        }
        self.set_f.next = self.zero16.val();
        if self.pf_we.q.val() {
            self.set_f.next = self.one16.val() << self.pf_addr.q.val();
        }
        self.lvt_n.next = (self.lvt.q.val() & !self.set_a.val()) | self.set_f.val();
        self.held_n.next = self.held.q.val() | self.set_a.val() | self.set_f.val();
        self.lvt.d.next = self.lvt_n.val();
        self.held.d.next = self.held_n.val();
        if self.reset.val() {
            self.held.d.next = self.zero16.val();
        }
        // this cycle's requests (a release on the module being allocated is merged into A)
        self.merge.next = self.alloc_en.val()
            & self.free_en.val()
            & (self.alloc_module.val() == self.free_module.val());
        self.we_a.next = self.alloc_en.val() & !self.reset.val();
        self.we_f.next = self.free_en.val() & !self.merge.val() & !self.reset.val();
        self.pa_we.d.next = self.we_a.val();
        self.pa_addr.d.next = self.alloc_module.val();
        self.pf_we.d.next = self.we_f.val();
        self.pf_addr.d.next = self.free_module.val();
        // which bank holds each requested entry next cycle (neither: not written, all free)
        self.oh_r.next = self.one16.val() << self.rd_module.val();
        self.oh_a.next = self.one16.val() << self.alloc_module.val();
        self.oh_f.next = self.one16.val() << self.free_module.val();
        self.r_use_a.next = (self.held_n.val() & !self.lvt_n.val() & self.oh_r.val()).any();
        self.r_use_f.next = (self.held_n.val() & self.lvt_n.val() & self.oh_r.val()).any();
        self.a_use_a.next = (self.held_n.val() & !self.lvt_n.val() & self.oh_a.val()).any();
        self.a_use_f.next = (self.held_n.val() & self.lvt_n.val() & self.oh_a.val()).any();
        self.f_use_a.next = (self.held_n.val() & !self.lvt_n.val() & self.oh_f.val()).any();
        self.f_use_f.next = (self.held_n.val() & self.lvt_n.val() & self.oh_f.val()).any();
        // the seven word groups
        for g in 0..4 {
            self.grp_v[g].clock.next = self.clock.val();
            self.grp_v[g].a_we.next = self.we_a.val();
            self.grp_v[g].a_addr.next = self.alloc_module.val();
            self.grp_v[g].f_we.next = self.we_f.val();
            self.grp_v[g].f_addr.next = self.free_module.val();
            self.grp_v[g].merge.next = self.merge.val();
            self.grp_v[g].r_addr.next = self.rd_module.val();
            self.grp_v[g].r_use_a.next = self.r_use_a.val();
            self.grp_v[g].r_use_f.next = self.r_use_f.val();
            self.grp_v[g].a_use_a.next = self.a_use_a.val();
            self.grp_v[g].a_use_f.next = self.a_use_f.val();
            self.grp_v[g].f_use_a.next = self.f_use_a.val();
            self.grp_v[g].f_use_f.next = self.f_use_f.val();
        }
        for g in 0..2 {
            self.grp_s[g].clock.next = self.clock.val();
            self.grp_s[g].a_we.next = self.we_a.val();
            self.grp_s[g].a_addr.next = self.alloc_module.val();
            self.grp_s[g].f_we.next = self.we_f.val();
            self.grp_s[g].f_addr.next = self.free_module.val();
            self.grp_s[g].merge.next = self.merge.val();
            self.grp_s[g].r_addr.next = self.rd_module.val();
            self.grp_s[g].r_use_a.next = self.r_use_a.val();
            self.grp_s[g].r_use_f.next = self.r_use_f.val();
            self.grp_s[g].a_use_a.next = self.a_use_a.val();
            self.grp_s[g].a_use_f.next = self.a_use_f.val();
            self.grp_s[g].f_use_a.next = self.f_use_a.val();
            self.grp_s[g].f_use_f.next = self.f_use_f.val();
        }
        self.grp_l.clock.next = self.clock.val();
        self.grp_l.a_we.next = self.we_a.val();
        self.grp_l.a_addr.next = self.alloc_module.val();
        self.grp_l.f_we.next = self.we_f.val();
        self.grp_l.f_addr.next = self.free_module.val();
        self.grp_l.merge.next = self.merge.val();
        self.grp_l.r_addr.next = self.rd_module.val();
        self.grp_l.r_use_a.next = self.r_use_a.val();
        self.grp_l.r_use_f.next = self.r_use_f.val();
        self.grp_l.a_use_a.next = self.a_use_a.val();
        self.grp_l.a_use_f.next = self.a_use_f.val();
        self.grp_l.f_use_a.next = self.f_use_a.val();
        self.grp_l.f_use_f.next = self.f_use_f.val();
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
        // the write stream
        self.req_a.next = self.we_a.val();
        self.req_f.next = self.we_f.val();
        self.wr_a_en.next = self.pa_we.q.val();
        self.wr_a_module.next = self.pa_addr.q.val();
        self.wr_f_en.next = self.pf_we.q.val();
        self.wr_f_module.next = self.pf_addr.q.val();
        self.wr_a_v0.next = self.grp_v[0].wr_a.val();
        self.wr_a_v1.next = self.grp_v[1].wr_a.val();
        self.wr_a_v2.next = self.grp_v[2].wr_a.val();
        self.wr_a_v3.next = self.grp_v[3].wr_a.val();
        self.wr_a_s0.next = self.grp_s[0].wr_a.val();
        self.wr_a_s1.next = self.grp_s[1].wr_a.val();
        self.wr_a_l.next = self.grp_l.wr_a.val();
        self.wr_f_v0.next = self.grp_v[0].wr_f.val();
        self.wr_f_v1.next = self.grp_v[1].wr_f.val();
        self.wr_f_v2.next = self.grp_v[2].wr_f.val();
        self.wr_f_v3.next = self.grp_v[3].wr_f.val();
        self.wr_f_s0.next = self.grp_s[0].wr_f.val();
        self.wr_f_s1.next = self.grp_s[1].wr_f.val();
        self.wr_f_l.next = self.grp_l.wr_f.val();
    }
}

/// The maps of 16 modules in LUT RAM, map-major, with ports A (allocate), F (release) and Ra
/// (registered read). `V` VGPR, `S` SGPR, `S2` = 2·S (the SGPR pair group), `L` LDS blocks.
/// See the module doc; the logic is [`MapRamCore`]'s.
#[derive(LogicBlock)]
pub struct MapRam<const V: usize, const S: usize, const S2: usize, const L: usize> {
    /// The one clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: every map free (writes of this cycle dropped).
    pub reset: Signal<In, Bit>,
    /// Port A: an allocation requested in this cycle.
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
    /// Port F: a release requested in this cycle.
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
    /// Port Ra: the module read (data in the next cycle).
    pub rd_module: Signal<In, Bits<4>>,
    /// The previous cycle's `rd_module`'s VGPR 0 map (registered read).
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
    /// The logic.
    pub core: MapRamCore<V, S, S2, L>,
}

impl<const V: usize, const S: usize, const S2: usize, const L: usize> Default
    for MapRam<V, S, S2, L>
{
    fn default() -> Self {
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
            core: Default::default(),
        }
    }
}

impl<const V: usize, const S: usize, const S2: usize, const L: usize> Logic
    for MapRam<V, S, S2, L>
{
    #[hdl_gen]
    fn update(&mut self) {
        self.core.clock.next = self.clock.val();
        self.core.reset.next = self.reset.val();
        self.core.alloc_en.next = self.alloc_en.val();
        self.core.alloc_module.next = self.alloc_module.val();
        self.core.alloc_vgpr0.next = self.alloc_vgpr0.val();
        self.core.alloc_vgpr1.next = self.alloc_vgpr1.val();
        self.core.alloc_vgpr2.next = self.alloc_vgpr2.val();
        self.core.alloc_vgpr3.next = self.alloc_vgpr3.val();
        self.core.alloc_sgpr0.next = self.alloc_sgpr0.val();
        self.core.alloc_sgpr1.next = self.alloc_sgpr1.val();
        self.core.alloc_sgpr2.next = self.alloc_sgpr2.val();
        self.core.alloc_sgpr3.next = self.alloc_sgpr3.val();
        self.core.alloc_lds.next = self.alloc_lds.val();
        self.core.free_en.next = self.free_en.val();
        self.core.free_module.next = self.free_module.val();
        self.core.free_vgpr0.next = self.free_vgpr0.val();
        self.core.free_vgpr1.next = self.free_vgpr1.val();
        self.core.free_vgpr2.next = self.free_vgpr2.val();
        self.core.free_vgpr3.next = self.free_vgpr3.val();
        self.core.free_sgpr0.next = self.free_sgpr0.val();
        self.core.free_sgpr1.next = self.free_sgpr1.val();
        self.core.free_sgpr2.next = self.free_sgpr2.val();
        self.core.free_sgpr3.next = self.free_sgpr3.val();
        self.core.free_lds.next = self.free_lds.val();
        self.core.rd_module.next = self.rd_module.val();
        self.rd_vgpr0.next = self.core.rd_vgpr0.val();
        self.rd_vgpr1.next = self.core.rd_vgpr1.val();
        self.rd_vgpr2.next = self.core.rd_vgpr2.val();
        self.rd_vgpr3.next = self.core.rd_vgpr3.val();
        self.rd_sgpr0.next = self.core.rd_sgpr0.val();
        self.rd_sgpr1.next = self.core.rd_sgpr1.val();
        self.rd_sgpr2.next = self.core.rd_sgpr2.val();
        self.rd_sgpr3.next = self.core.rd_sgpr3.val();
        self.rd_lds.next = self.core.rd_lds.val();
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
    crate::top_verilog(B::default())
}
