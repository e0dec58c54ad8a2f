//! The RTL front-end's internal ports: each sub-block's ports (`ctrl`, `expander`, `disp` of
//! [`hdl::gpu_frontend::GpuFrontend`]) decoded into the unit's own port types, the same [`Probe`]
//! the composed golden model gives, so the units' own spec checkers judge the RTL's internal ports
//! and the probe can be compared with the model's.
//!
//! Two readers of the same ports:
//! - [`probe`]: the RustHDL top, at the sampling instant of [`crate::rtl::RtlSim::step_with`];
//! - [`ProbePorts`] with [`probe_verilog`]: the exported Verilog under Verilator. A wrapper
//!   module `top` instantiates the export (its top renamed `gpu_frontend_core`) and brings every
//!   sub-block port out as an extra output by a hierarchical reference (`core.ctrl$launch_valid`,
//!   the wire the export drives the sub-block's port with); the export itself is unchanged.
//!
//! [`UnitCheckers`] are the three units' own spec checkers over a [`Probe`]; [`ProbeCheck`] is
//! the probed top of any front-end export built once (with extra top inputs such as `synth
//! mutate`'s `mutant_sel`), replayed per trace with those checkers: the registry's
//! `internal_check` of `gpu_frontend`, which `synth mutate` adds to the spec checker's verdict.

use crate::dispatcher_tagged::TaggedPorts;
use crate::gpu_frontend::GfPorts;
use crate::kernel_expander::ExpanderPorts;
use crate::ports::InputDecode;
use crate::preempt_ctrl::PreemptPorts;
use crate::rtl::{HdlDut, HdlInputs};
use crate::spec::dispatcher_tagged::TaggedChecker;
use crate::spec::kernel_expander::ExpanderSpec;
use crate::spec::preempt_ctrl::PreemptSpec;
use crate::spec::{SpecChecker, Violation};
use crate::unit::{InternalCheck, InternalRun};
use crate::verilator::{self, decl_width, Port, TracePorts};
use anyhow::{bail, Result};
use golden_model::dispatcher::tagged::TaggedConfig;
use golden_model::gpu_frontend::{GfIn, GfOut, Probe};
use golden_model::kernel_expander::ExpanderConfig;
use golden_model::preempt_ctrl::PreemptConfig;
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

/// The probed Verilator top: the front-end's ports (in [`GfPorts`]' order), then every port of
/// the three sub-blocks as an output named `<prefix><port>` (prefixes `pc_in_`, `pc_out_`,
/// `exp_in_`, `exp_out_`, `disp_in_`, `disp_out_`). Outputs decode to the front-end's outputs
/// and the [`Probe`] of the same cycle.
pub struct ProbePorts {
    pc: PreemptPorts,
    exp: ExpanderPorts,
    /// Port counts in output order: the front-end's outputs, then the six groups of
    /// [`ProbePorts::groups`] (computed once: `decode` runs every cycle of a long run).
    counts: [usize; 7],
    /// Further inputs of the export's top after the front-end's (`synth mutate`'s
    /// `mutant_sel`) and the value each holds for a whole trace.
    extra: Vec<(Port, u128)>,
}

impl Default for ProbePorts {
    fn default() -> Self {
        let mut p = Self {
            pc: PreemptPorts(PreemptConfig::board()),
            exp: ExpanderPorts(ExpanderConfig::board()),
            counts: [0; 7],
            extra: vec![],
        };
        p.counts[0] = GfPorts.outputs().len();
        for (k, g) in p.groups().into_iter().enumerate() {
            p.counts[k + 1] = g.ports.len();
        }
        p
    }
}

/// One probed port group: the sub-block instance in the export, the output prefix, its ports.
struct Group {
    instance: &'static str,
    prefix: &'static str,
    ports: Vec<Port>,
}

impl ProbePorts {
    /// The probed top of an export with further inputs after the front-end's (each with the
    /// value it holds for the whole trace), passed through the wrapper by name.
    pub fn with_inputs(extra: Vec<(Port, u128)>) -> Self {
        Self {
            extra,
            ..Self::default()
        }
    }

    fn groups(&self) -> [Group; 6] {
        let g = |instance, prefix, ports| Group {
            instance,
            prefix,
            ports,
        };
        [
            g("ctrl", "pc_in_", self.pc.inputs()),
            g("ctrl", "pc_out_", self.pc.outputs()),
            g("expander", "exp_in_", self.exp.inputs()),
            g("expander", "exp_out_", self.exp.outputs()),
            g("disp", "disp_in_", TaggedPorts.inputs()),
            g("disp", "disp_out_", TaggedPorts.outputs()),
        ]
    }
}

impl TracePorts for ProbePorts {
    type In = GfIn;
    type Out = (GfOut, Probe);
    fn inputs(&self) -> Vec<Port> {
        let mut v = GfPorts.inputs();
        v.extend(self.extra.iter().map(|e| e.0.clone()));
        v
    }
    fn outputs(&self) -> Vec<Port> {
        let mut v = GfPorts.outputs();
        for g in self.groups() {
            v.extend(
                g.ports
                    .into_iter()
                    .map(|p| Port::new(format!("{}{}", g.prefix, p.name), p.width)),
            );
        }
        v
    }
    fn encode(&self, i: &GfIn) -> Vec<u128> {
        let mut v = GfPorts.encode(i);
        v.extend(self.extra.iter().map(|e| e.1));
        v
    }
    fn decode(&self, v: &[u128]) -> (GfOut, Probe) {
        let mut at = 0;
        let mut next = |k: usize| {
            let s = &v[at..at + self.counts[k]];
            at += self.counts[k];
            s
        };
        let out = GfPorts.decode(next(0));
        let probe = Probe {
            pc_in: self.pc.decode_inputs(next(1)),
            pc_out: self.pc.decode(next(2)),
            exp_in: self.exp.decode_inputs(next(3)),
            exp_out: self.exp.decode(next(4)),
            disp_in: TaggedPorts.decode_inputs(next(5)),
            disp_out: TaggedPorts.decode(next(6)),
        };
        (out, probe)
    }
}

/// Width of the wire `name` declared in `module top` of a RustHDL export (`reg  x;`,
/// `reg [7:0] x;`, `wire ...`), if declared there.
fn declared_width(top_body: &str, name: &str) -> Option<usize> {
    top_body.lines().find_map(|l| {
        let t: Vec<&str> = l.split_whitespace().collect();
        if t.len() < 2 || !(t[0] == "reg" || t[0] == "wire") || t.last()? != &format!("{name};") {
            return None;
        }
        decl_width(&t).ok()
    })
}

/// The probed top for Verilator around `export` (RustHDL's Verilog of the front-end, module
/// `top`, e.g. [`hdl::gpu_frontend::verilog`]). Fails when a probed wire is missing from the
/// export or its width differs from the unit's port table (a renamed or resized sub-block port).
pub fn probe_verilog(ports: &ProbePorts, export: &str) -> Result<String> {
    let head = "module top(";
    if !export.starts_with(head) && !export.contains(&format!("\n{head}")) {
        bail!("no `{head}` in the export");
    }
    let start = export.find(head).unwrap_or(0);
    let body = &export[start..];
    let body = &body[..body.find("endmodule").unwrap_or(body.len())];
    let core = export.replacen(head, "module gpu_frontend_core(", 1);
    let (ins, outs) = (ports.inputs(), GfPorts.outputs());
    let decl = |dir: &str, p: &Port| {
        if p.width == 1 {
            format!("    {dir} wire {};\n", p.name)
        } else {
            format!("    {dir} wire [{}:0] {};\n", p.width - 1, p.name)
        }
    };
    let mut names = vec!["clock".to_string()];
    let mut decls = String::from("    input wire clock;\n");
    let mut conns = vec![".clock(clock)".to_string()];
    for p in &ins {
        decls += &decl("input", p);
        names.push(p.name.clone());
        conns.push(format!(".{0}({0})", p.name));
    }
    for p in &outs {
        decls += &decl("output", p);
        names.push(p.name.clone());
        conns.push(format!(".{0}({0})", p.name));
    }
    let mut assigns = String::new();
    for g in ports.groups() {
        for p in g.ports {
            let wire = format!("{}${}", g.instance, p.name);
            match declared_width(body, &wire) {
                Some(w) if w == p.width => {}
                Some(w) => bail!(
                    "`{wire}` is {w} bits in the export, {} in the port table",
                    p.width
                ),
                None => bail!("no `{wire}` declared in the export's module top"),
            }
            let out = Port::new(format!("{}{}", g.prefix, p.name), p.width);
            decls += &decl("output", &out);
            names.push(out.name.clone());
            assigns += &format!("    assign {} = core.{wire};\n", out.name);
        }
    }
    Ok(format!(
        "{core}\n\n// Probe wrapper (testbench::gpu_frontend_probe): the export above, every \
         sub-block port brought out.\nmodule top({});\n{decls}\n    gpu_frontend_core core({});\n\n{assigns}endmodule\n",
        names.join(","),
        conns.join(", "),
    ))
}

/// The three sub-units' own spec checkers (SPEC alone, no model) on the front-end's internal
/// ports: the preemption controller's ([`PreemptSpec`]), the kernel expander's
/// ([`ExpanderSpec`]) and the tagged dispatcher's ([`TaggedChecker`]), each fed its unit's ports
/// of every cycle of a [`Probe`].
pub struct UnitCheckers {
    pc: PreemptSpec,
    exp: ExpanderSpec,
    disp: TaggedChecker,
}

impl Default for UnitCheckers {
    fn default() -> Self {
        Self {
            pc: PreemptSpec::new(PreemptConfig::board()),
            exp: ExpanderSpec::new(ExpanderConfig::board()),
            disp: TaggedChecker::new(TaggedConfig::board()),
        }
    }
}

impl UnitCheckers {
    /// Judge cycle `c`'s internal ports; on a broken rule, the unit (registry name) and the
    /// violation.
    pub fn check(&mut self, c: usize, p: &Probe) -> Result<(), (&'static str, Violation)> {
        self.pc
            .check(c, &p.pc_in, &p.pc_out)
            .map_err(|v| ("preempt_ctrl", v))?;
        self.exp
            .check(c, &p.exp_in, &p.exp_out)
            .map_err(|v| ("kernel_expander", v))?;
        self.disp
            .check(c, &p.disp_in, &p.disp_out)
            .map_err(|v| ("dispatcher_tagged", v))
    }

    /// End of a trace of `cycles` cycles: each checker's closed obligations.
    pub fn finish(&mut self, cycles: usize) -> Result<(), (&'static str, Violation)> {
        self.pc.finish(cycles).map_err(|v| ("preempt_ctrl", v))?;
        self.exp
            .finish(cycles)
            .map_err(|v| ("kernel_expander", v))?;
        self.disp
            .finish(cycles)
            .map_err(|v| ("dispatcher_tagged", v))
    }
}

/// An export of the front-end (module `top`, e.g. `synth mutate`'s schemata with its extra
/// input `mutant_sel`) wrapped once by [`probe_verilog`] and built once by Verilator; each
/// [`InternalCheck::replay`] runs a trace and judges the internal ports with [`UnitCheckers`]
/// (the registry's [`crate::unit::CheckedUnit::internal_check`] of `gpu_frontend`).
pub struct ProbeCheck {
    extra: Vec<Port>,
    exe: std::path::PathBuf,
}

impl ProbeCheck {
    /// Wrap and build `export`; `extra` are its top's inputs after the front-end's.
    pub fn new(export: &str, extra: &[Port]) -> Result<Self> {
        let ports = ProbePorts::with_inputs(extra.iter().map(|p| (p.clone(), 0)).collect());
        let v = probe_verilog(&ports, export)?;
        let exe = verilator::build_harness(&v, &ports.inputs(), &ports.outputs(), true)?;
        Ok(Self {
            extra: extra.to_vec(),
            exe,
        })
    }
}

impl InternalCheck for ProbeCheck {
    type In = GfIn;
    type Out = GfOut;
    fn replay(&self, extra: &[u128], inputs: &[GfIn], judge: bool) -> Result<InternalRun<GfOut>> {
        if extra.len() != self.extra.len() {
            bail!(
                "{} extra input value(s) for {} extra port(s)",
                extra.len(),
                self.extra.len()
            );
        }
        let ports = ProbePorts::with_inputs(
            self.extra
                .iter()
                .cloned()
                .zip(extra.iter().copied())
                .collect(),
        );
        let fb: usize = ports.outputs().iter().map(|p| p.width.div_ceil(8)).sum();
        let raw = verilator::run_frames(&self.exe, verilator::encode_frames(&ports, inputs), fb)?;
        let mut chk = UnitCheckers::default();
        let mut outputs = Vec::with_capacity(inputs.len());
        let mut violation = None;
        verilator::for_each_frame(&ports, &raw, |(o, p)| {
            if judge && violation.is_none() {
                violation = chk.check(outputs.len(), &p).err();
            }
            outputs.push(o);
        });
        if judge && violation.is_none() {
            violation = chk.finish(outputs.len()).err();
        }
        Ok(InternalRun { outputs, violation })
    }
}
