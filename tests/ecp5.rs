//! ECP5 smoke test (SPEC §0, second target): a small unit through the ECP5 flow of
//! `synth report --target ecp5-85f` — unique-name export, measurement harness, yosys
//! `synth_ecp5`, nextpnr-ecp5 for the LFE5U-85F (CABGA381, speed 6) — in seconds. The tools come
//! from `bash synth/ecp5-venv.sh`; without them the test prints a loud SKIP, and fails under
//! `REQUIRE_EDA=1`. The long runs (every board and full config, seeds 1–3, speeds 6 and 8) are
//! the command, not tests.

use hdl::lock_unit::OddLockUnit;

#[test]
fn small_lock_unit_places_and_routes_on_the_85f() {
    let Some(tools) = synth::ecp5::tools_or_skip() else {
        return;
    };
    let work = std::env::temp_dir().join(format!("gpu_sched_ecp5_smoke_{}", std::process::id()));
    let v = hdl::lock_unit::verilog(OddLockUnit::default());
    let r = synth::ecp5::synthesize(
        &tools,
        "lock_unit_odd",
        &v,
        &work,
        100.0,
        &synth::ecp5::Seeds::all(&[1]),
        &[6],
    )
    .expect("the ECP5 flow on the W=3 L=1 lock unit");
    eprintln!(
        "lock_unit_odd on the 85F: {} LUT4, {} TRELLIS_COMB, {} FF, {:.1} MHz; yosys {:.1} s, nextpnr {:.1} s",
        r.lut4s, r.comb.used, r.ffs.used, r.fmax_mhz, r.yosys_s, r.grades[0].pnr_s_by_seed[0].1
    );
    // the 85F's LUT4 sites, and a design of its size: logic plus one flip-flop per harness bit
    assert_eq!(r.comb.total, 83640, "LFE5U-85F");
    assert!(r.lut4s > 20 && r.comb.used >= r.lut4s, "{r:?}");
    assert!(r.ffs.used >= r.harness_ffs && r.harness_ffs > 10, "{r:?}");
    assert_eq!(r.fmax_mhz_by_seed.len(), 1);
    assert_eq!(r.fmax_mhz, r.fmax_mhz_by_seed[0].1);
    assert!(r.fmax_mhz > 20.0 && r.fmax_mhz < 1000.0, "{r:?}");
    assert_eq!(r.meets_100mhz, r.fmax_mhz >= 100.0);
    // the harness instantiated the unit by its own name, with the `top` alias left out
    let unit = std::fs::read_to_string(work.join("lock_unit_odd/unit.v")).unwrap();
    assert!(unit.contains("module lock_unit_odd("));
    let harness = std::fs::read_to_string(work.join("lock_unit_odd/harness.v")).unwrap();
    assert!(harness.contains("  lock_unit_odd dut(\n"));
    let _ = std::fs::remove_dir_all(&work);
}
