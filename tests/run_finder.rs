//! Run finder family (SPEC Unit 2): RustHDL and exported Verilog against the golden model.

use golden_model::run_finder::*;
use hdl::run_finder::*;
use testbench::lockstep::run_lockstep;
use testbench::rtl::{HdlDut, RtlSim};

/// Every map and every need (0..=N+1) through a combinational block.
fn exhaustive<D>(dut: D, cfg: FinderConfig)
where
    D: HdlDut<In = FinderIn, Out = FinderOut>,
{
    let n = cfg.n;
    let mut rtl = RtlSim::new(dut);
    let mut model = FinderModel::new(cfg.clone());
    let inputs: Vec<FinderIn> = (0..1u128 << n)
        .flat_map(|bits| (0..=n + 1).map(move |need| FinderIn { reset: false, bits, need }))
        .collect();
    run_lockstep(&mut model, &mut rtl, &inputs, |_, _, _| Ok(())).unwrap_or_else(|e| panic!("{cfg:?}\n{e}"));
}

#[test]
fn tree_exhaustive_n8() {
    exhaustive(RunTree::<8, 16, 4, 3>::default(), FinderConfig::new(8, Variant::Tree));
}
