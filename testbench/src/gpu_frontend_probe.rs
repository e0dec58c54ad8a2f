//! The RTL front-end's internal ports, read in RustHDL simulation: each sub-block's ports
//! (`ctrl`, `expander`, `disp` of [`hdl::gpu_frontend::GpuFrontend`]) decoded into the unit's
//! own port types, the same [`Probe`] the composed golden model gives, so the units' own spec
//! checkers judge the RTL's internal ports and the probe can be compared with the model's.

use crate::rtl::{HdlDut, HdlInputs};
use golden_model::dispatcher::tagged::TaggedIn;
use golden_model::dispatcher::DispIn;
use golden_model::gpu_frontend::Probe;
use hdl::dispatcher_tagged::DispatcherTagged;
use hdl::gpu_frontend::GpuFrontend;
use rust_hdl::prelude::*;

/// An input port's settled value as the golden model's field type.
fn port<T: crate::ports::PortSignal + Synth, V: crate::ports::PortValue>(s: &Signal<In, T>) -> V {
    V::from_port(T::to_port(s.val()))
}

impl HdlInputs for DispatcherTagged {
    fn sample_inputs(&self) -> TaggedIn {
        TaggedIn {
            base: DispIn {
                reset: port(&self.reset),
                push_valid: port(&self.push_valid),
                push_channel: port(&self.push_channel),
                push_id: port(&self.push_id),
                push_prio: port(&self.push_prio),
                push_waves: port(&self.push_waves),
                push_vgpr: port(&self.push_vgpr),
                push_sgpr: port(&self.push_sgpr),
                push_lds: port(&self.push_lds),
                push_indep: port(&self.push_indep),
                done_valid: port(&self.done_valid),
                done_slot: port(&self.done_slot),
                cfg_we: port(&self.cfg_we),
                cfg_addr: port(&self.cfg_addr),
                cfg_data: port(&self.cfg_data),
                retire_class: port(&self.retire_class),
            },
            push_class: port(&self.push_class),
            push_kslot: port(&self.push_kslot),
            withdraw_valid: port(&self.withdraw_valid),
            withdraw_kslot: port(&self.withdraw_kslot),
            cu_reset: port(&self.cu_reset),
            cu_reset_done: port(&self.cu_reset_done),
        }
    }
}

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
