//! The RTL front-end's internal ports, read in RustHDL simulation: each sub-block's ports
//! (`ctrl`, `expander`, `disp` of [`hdl::gpu_frontend::GpuFrontend`]) decoded into the unit's
//! own port types, the same [`Probe`] the composed golden model gives, so the units' own spec
//! checkers judge the RTL's internal ports and the probe can be compared with the model's.

use crate::rtl::{HdlDut, HdlInputs};
use golden_model::gpu_frontend::Probe;
use hdl::gpu_frontend::GpuFrontend;

/// The three units' ports of the cycle being sampled (use with
/// [`crate::rtl::RtlSim::step_with`]).
pub fn probe(fe: &GpuFrontend) -> Probe {
    Probe {
        pc_in: fe.ctrl.sample_inputs(),
        pc_out: fe.ctrl.sample(),
        exp_in: fe.expander.sample_inputs(),
        exp_out: fe.expander.sample(),
        disp_in: fe.disp.sample_inputs(),
        disp_out: fe.disp.sample(),
    }
}
