//! One-cycle stepping of RustHDL blocks.
//!
//! A cycle is: drive the inputs with the clock low and let the logic settle; sample the outputs
//! (what the golden model returns from `step`); raise the clock and settle (registers update).
//! This skips RustHDL's event-driven `Simulation` and its thread hand-offs, which makes it several
//! times faster while evaluating exactly the same `update()` kernels.

use golden_model::{CycleModel, ResetInput};
use rust_hdl::core::vcd_probe::{write_vcd_change, write_vcd_header, VCDProbe};
use rust_hdl::prelude::*;
use std::fs::File;
use std::io::BufWriter;
use std::path::Path;

/// A RustHDL block that can be driven with a unit's per-cycle input type.
pub trait HdlDut: Block {
    type In;
    type Out;
    /// Set every input port from `i` (`.next = ...`).
    fn drive(&mut self, i: &Self::In);
    /// Read every output port.
    fn sample(&self) -> Self::Out;
    /// The clock input, or `None` for a purely combinational block.
    fn clock_signal(&mut self) -> Option<&mut Signal<In, Clock>>;
}

/// A block whose input ports can be read back: for a sub-block inside a composed top, the
/// values its parent drives (see [`RtlSim::step_with`]).
pub trait HdlInputs: HdlDut {
    /// Read every input port (the value settled in this cycle).
    fn sample_inputs(&self) -> Self::In;
}

/// A RustHDL block behind the [`CycleModel`] trait.
pub struct RtlSim<D: HdlDut> {
    dut: D,
    vcd: Option<VCDProbe<BufWriter<File>>>,
    cycle: u64,
}

const MAX_SETTLE_ITERATIONS: usize = 200;

impl<D: HdlDut> RtlSim<D> {
    /// Connect the block; panics if RustHDL's connection checks fail.
    pub fn new(mut dut: D) -> Self {
        dut.connect_all();
        check_all(&dut).expect("RustHDL check_all failed");
        let mut s = Self {
            dut,
            vcd: None,
            cycle: 0,
        };
        if let Some(c) = s.dut.clock_signal() {
            c.next = Clock { clk: false };
        }
        s.settle();
        s
    }

    /// Record every following cycle into a VCD file.
    pub fn record_vcd(&mut self, path: &Path) -> std::io::Result<()> {
        let f = BufWriter::new(File::create(path)?);
        self.vcd = Some(write_vcd_header(f, &self.dut));
        Ok(())
    }

    pub fn dut(&self) -> &D {
        &self.dut
    }

    /// One cycle like [`CycleModel::step`], and `look` applied to the block at the moment the
    /// outputs are sampled (inputs driven and settled, before the clock edge): what a probe
    /// of internal signals — a sub-block's ports — shows in this cycle.
    pub fn step_with<R>(&mut self, i: &D::In, look: impl FnOnce(&D) -> R) -> (D::Out, R) {
        self.dut.drive(i);
        if let Some(c) = self.dut.clock_signal() {
            c.next = Clock { clk: false };
        }
        self.settle();
        let out = self.dut.sample();
        let seen = look(&self.dut);
        self.dump(self.cycle * 10);
        if let Some(c) = self.dut.clock_signal() {
            c.next = Clock { clk: true };
            self.settle();
            self.dump(self.cycle * 10 + 5);
        }
        self.cycle += 1;
        (out, seen)
    }

    fn settle(&mut self) {
        for _ in 0..MAX_SETTLE_ITERATIONS {
            self.dut.update_all();
            if !self.dut.has_changed() {
                return;
            }
        }
        panic!(
            "RTL did not settle within {MAX_SETTLE_ITERATIONS} delta cycles (combinational loop?)"
        );
    }

    fn dump(&mut self, t: u64) {
        if let Some(mut v) = self.vcd.take() {
            v.timestamp(t).expect("vcd write");
            self.vcd = Some(write_vcd_change(v, &self.dut));
        }
    }
}

impl<D> CycleModel for RtlSim<D>
where
    D: HdlDut,
    D::In: Clone + std::fmt::Debug + Default + ResetInput,
    D::Out: Clone + std::fmt::Debug + PartialEq,
{
    type In = D::In;
    type Out = D::Out;

    fn reset(&mut self) {
        self.step(&D::In::reset_input());
    }

    fn step(&mut self, i: &D::In) -> D::Out {
        self.step_with(i, |_| ()).0
    }
}
