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
    let fmax = r.fmax_mhz.expect("a small unit routes at seed 1");
    eprintln!(
        "lock_unit_odd on the 85F: {} LUT4, {} TRELLIS_COMB, {} FF, {:.1} MHz; yosys {:.1} s, nextpnr {:.1} s",
        r.lut4s, r.comb.used, r.ffs.used, fmax, r.yosys_s, r.grades[0].pnr_s_by_seed[0].1
    );
    // the 85F's LUT4 sites, and a design of its size: logic plus one flip-flop per harness bit
    assert_eq!(r.comb.total, 83640, "LFE5U-85F");
    assert!(r.lut4s > 20 && r.comb.used >= r.lut4s, "{r:?}");
    assert!(r.ffs.used >= r.harness_ffs && r.harness_ffs > 10, "{r:?}");
    assert_eq!(r.fmax_mhz_by_seed.len(), 1);
    assert!(r.unrouted_by_seed.is_empty(), "{r:?}");
    assert_eq!(fmax, r.fmax_mhz_by_seed[0].1);
    assert!(fmax > 20.0 && fmax < 1000.0, "{r:?}");
    assert_eq!(r.meets_100mhz, fmax >= 100.0);
    // every unit but the full lock unit keeps nextpnr's default placer and router
    if std::env::var_os("ECP5_PLACER").is_none() && std::env::var_os("ECP5_ROUTER").is_none() {
        assert_eq!((r.placer.as_str(), r.router.as_str()), ("heap", "router1"));
    }
    // the harness instantiated the unit by its own name, with the `top` alias left out
    let unit = std::fs::read_to_string(work.join("lock_unit_odd/unit.v")).unwrap();
    assert!(unit.contains("module lock_unit_odd("));
    let harness = std::fs::read_to_string(work.join("lock_unit_odd/harness.v")).unwrap();
    assert!(harness.contains("  lock_unit_odd dut(\n"));
    let _ = std::fs::remove_dir_all(&work);
}

// ---------------------------------------------------------------------------------------------
// ULX3S 85F board (SPEC Unit 7, `synth::ulx3s`)

use hdl::board_top::{board_top_verilog, BoardConfig};
use synth::board::{Bridge, UnitVisitor};
use testbench::board_top::{
    board_config, four_way, free_run_matches_model, Board, Scenario, SimBoard,
};
use testbench::unit::BoardUnit;
use testbench::verilator::TracePorts;

/// The simulated ULX3S core of a unit (by name).
struct SimCore;
impl UnitVisitor for SimCore {
    type Out = (BoardConfig, BoardConfig);
    fn visit<U: BoardUnit>(self, _clock: f64, _bridge: Bridge) -> Self::Out {
        (synth::ulx3s::sim_config::<U>(), board_config::<U>(None))
    }
}

/// The ULX3S bitstream's top is the wrapper plus the unchanged board top of the core; the core
/// differs from the simulated board's config only in the bridge's divider and timeout (and the
/// full bridge for the dispatcher), so with the simulated divider the text is the one the
/// simulated board (tests/board_top.rs, `board --sim`) runs — byte for byte.
#[test]
fn ulx3s_top_is_the_simulated_board_core_in_a_wrapper() {
    for (name, mhz) in synth::ulx3s::UNITS {
        let (core, pll) = synth::ulx3s::bitstream_config(name, None).unwrap();
        assert!((pll.f_out_mhz - mhz).abs() < 1e-9);
        assert!(!core.lean, "{name}: the ULX3S carries the full bridge");
        assert_eq!(core.baud_div, mhz.round() as u32, "1 Mbaud at {mhz} MHz");
        let top = synth::ulx3s::top_verilog(&core, &pll).unwrap();
        let core_text = board_top_verilog(&core).unwrap();
        let (wrapper, rest) = top.split_at(top.len() - core_text.len());
        assert_eq!(
            rest, core_text,
            "{name}: the core follows the wrapper unchanged"
        );
        assert!(wrapper.contains("module ulx3s_top(") && wrapper.contains("EHXPLLL #("));
        assert!(wrapper.contains(&format!(".CLKI_DIV({})", pll.clki_div)));
        assert!(!wrapper.contains("SB_PLL40"), "no iCE40 primitive");
        let (sim, cu_sim) = synth::board::visit_unit(name, SimCore).unwrap();
        let as_sim = BoardConfig {
            baud_div: sim.baud_div,
            timeout: sim.timeout,
            ..core.clone()
        };
        assert_eq!(
            board_top_verilog(&as_sim).unwrap(),
            board_top_verilog(&sim).unwrap(),
            "{name}: the bitstream's core with the simulated divider is the simulated ULX3S core"
        );
        let cu_lean = synth::board::bridge_of(name).unwrap().is_lean();
        let cu_as_full = BoardConfig {
            lean: false,
            ..cu_sim.clone()
        };
        assert_eq!(
            board_top_verilog(&cu_as_full).unwrap(),
            board_top_verilog(&sim).unwrap(),
            "{name}: the simulated ULX3S core is the simulated Cu's (full bridge)"
        );
        eprintln!(
            "{name}: ULX3S core = simulated Cu board top{} (DIV {}, TIMEOUT {} on the board)",
            if cu_lean {
                " with the full bridge instead of the Cu's lean one"
            } else {
                ", byte for byte"
            },
            core.baud_div,
            core.timeout
        );
    }
}

/// yosys alone: the ULX3S top of the bridge alone (wrapper, EHXPLLL, core) synthesizes with
/// `synth_ecp5`, passes `check -assert` and keeps the PLL and the pins.
#[test]
fn ulx3s_top_synthesizes_for_the_ecp5() {
    let Some(tools) = synth::ecp5::tools_or_skip() else {
        return;
    };
    let (core, pll) = synth::ulx3s::bitstream_config("bridge_only", None).unwrap();
    let dir = std::env::temp_dir().join(format!("gpu_sched_ulx3s_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("t.v"),
        synth::ulx3s::top_verilog(&core, &pll).unwrap(),
    )
    .unwrap();
    let out = std::process::Command::new(&tools.yosys)
        .current_dir(&dir)
        .args([
            "-q",
            "-p",
            "read_verilog t.v; synth_ecp5 -top ulx3s_top; check -assert; tee -o stat.txt stat",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "yosys synth_ecp5 of the ULX3S top failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let stat = std::fs::read_to_string(dir.join("stat.txt")).unwrap();
    assert!(
        stat.contains("EHXPLLL"),
        "the PLL survives synthesis:\n{stat}"
    );
    assert!(
        stat.contains("DP16KD") || stat.contains("TRELLIS_DPR16X4"),
        "the full bridge's stimulus and capture buffers (EBR or LUT RAM):\n{stat}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Four-way lockstep and free-running on the simulated ULX3S core of the dispatcher: the one
/// unit whose ULX3S core differs from the Cu's (full bridge instead of lean). The other units'
/// ULX3S cores are byte-identical to the simulated Cu boards of `tests/board_top.rs` (test above).
#[test]
fn ulx3s_core_four_way_lockstep_dispatcher_full_bridge() {
    use testbench::dispatcher::DispatcherBoard as U;
    if !testbench::eda::tool_available("verilator") {
        return;
    }
    let cycles = 1000;
    let trace = U::random_trace(21, cycles);
    let sc = Scenario::record::<U>(&trace).unwrap();
    let cfg = synth::ulx3s::sim_config::<U>();
    assert!(!cfg.lean);
    let p = U::ports();
    let mut b = Board::new(
        SimBoard::start(&cfg).unwrap(),
        &p.inputs(),
        &p.outputs(),
        cfg.stim_aw,
    );
    four_way::<U, _>(&trace, &sc, &mut b).unwrap_or_else(|e| panic!("{e}"));
    b.reset().unwrap();
    assert_eq!(
        free_run_matches_model::<U, _>(&trace, &mut b).unwrap_or_else(|e| panic!("{e}")),
        cycles
    );
    let st = b.status().unwrap();
    assert_eq!(st.cycles as usize, 1 + 2 * cycles);
    assert_eq!(st.naks, 0);
    assert_eq!(st.unit_id, cfg.unit_id());
    assert_eq!(b.link.tx_framing_errors, 0);
}
