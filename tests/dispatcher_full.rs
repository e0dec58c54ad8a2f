//! The integrated patent-scale dispatcher (`hdl::dispatcher_scale::DispatcherFull`, design
//! `docs/dispatcher_scale.md`, "Session 11"), judged every cycle by the SPEC checker
//! (`testbench::spec::dispatcher`) with the pipeline's windows
//! (`testbench::dispatcher_scale::full::FullCfg::timing`): RustHDL at the small config, Verilator
//! at the full config (10^5 cycles by default; 4 · 10^5 with `--ignored`; the driver's seed from
//! `DISPATCHER_FULL_SEED`, default 11), exports, and the checker
//! rejecting corrupted traces of this RTL with the rule named; the `min_power_history` sub-block
//! (`hdl::dispatcher_scale::PowerHistory`) against its contract, and `POLICY` 2 traces judged.

use golden_model::dispatcher::{DispIn, DispOut};
use golden_model::CycleModel;
use hdl::dispatcher_scale::{
    dispatcher_full_verilog, DispatcherFullFull, DispatcherFullSmall, PowerHistory,
};
use rust_hdl::prelude::*;
use testbench::dispatcher_scale::full::{drive, repack, DispFullPorts, FullCfg};
use testbench::rtl::RtlSim;
use testbench::spec::judge;

fn rusthdl_small(seed: u64, mix: usize, cycles: usize) -> (Vec<DispIn>, Vec<DispOut>) {
    let mut rtl = RtlSim::new(DispatcherFullSmall::default());
    drive(FullCfg::Small.config(), seed, mix, cycles, |i| rtl.step(i))
}

/// The small config's outputs (repacked) for a fixed input trace, from a fresh RTL.
fn replay_small(ins: &[DispIn]) -> Vec<DispOut> {
    let mut rtl = RtlSim::new(DispatcherFullSmall::default());
    let cfg = FullCfg::Small.config();
    ins.iter().map(|i| repack(&cfg, &rtl.step(i))).collect()
}

#[test]
fn one_wg_is_dispatched_with_the_documented_latency() {
    let cfg = FullCfg::Small;
    let mut rtl = RtlSim::new(DispatcherFullSmall::default());
    let mut outs = vec![];
    let mut ins = vec![DispIn {
        reset: true,
        ..Default::default()
    }];
    let wg = golden_model::dispatcher::Wg {
        id: 7,
        prio: 0,
        waves: 3,
        vgpr: 2,
        sgpr: 1,
        lds: 3,
        indep: false,
    };
    // wait for every module to be eligible after the reset, then push
    for _ in 0..10 {
        ins.push(DispIn::default());
    }
    ins.push(DispIn::push(0, &wg));
    for _ in 0..20 {
        ins.push(DispIn::default());
    }
    for i in &ins {
        outs.push(repack(&cfg.config(), &rtl.step(i)));
    }
    let push_at = 11;
    let rec: Vec<usize> = (0..outs.len()).filter(|&k| outs[k].disp_valid).collect();
    assert_eq!(rec.len(), 1, "one record: {rec:?}");
    assert_eq!(
        rec[0],
        push_at + 1 + cfg.timing().head_to_record,
        "head → record"
    );
    let o = &outs[rec[0]];
    assert_eq!(
        (o.disp_id, o.disp_module, o.disp_slot, o.disp_sub),
        (7, 0, 0, false)
    );
    judge(&mut cfg.checker(), &ins, &outs).expect("spec checker");
}

/// The (mix, seed) cases of [`small_config_random_traces_pass_the_spec_checker`]: four mixes
/// (small WGs, big WGs with splits, config churn, sparse) × seeds 1 and 2. Mix 3 seed 2 found
/// the checker's eligibility window too narrow (session 11: `module-policy` at cycle 158, a
/// release settling after the state point; `docs/dispatcher_scale.md`).
const SMALL_CASES: [(usize, u64); 8] = [
    (0, 1),
    (0, 2),
    (1, 1),
    (1, 2),
    (2, 1),
    (2, 2),
    (3, 1),
    (3, 2),
];

fn small_config_cases(cases: &[(usize, u64)]) -> u64 {
    small_config_cases_with(cases, |_, _| {})
}

/// [`small_config_cases`], with `look` given each case's checker after the trace was judged.
fn small_config_cases_with(
    cases: &[(usize, u64)],
    mut look: impl FnMut(usize, &testbench::spec::dispatcher::DispatcherChecker),
) -> u64 {
    let cycles: usize = std::env::var("DISP_FULL_CYCLES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1_500);
    let mut total = 0;
    for &(mix, seed) in cases {
        let (ins, outs) = rusthdl_small(seed, mix, cycles);
        let mut chk = FullCfg::Small.checker();
        judge(&mut chk, &ins, &outs).unwrap_or_else(|v| panic!("mix {mix} seed {seed}: {v}"));
        let subs = outs.iter().filter(|o| o.disp_valid && o.disp_sub).count();
        let errs = outs.iter().filter(|o| o.error).count();
        eprintln!(
                "mix {mix} seed {seed}: {} records ({subs} split sub-WGs), {errs} errors, coverage {:?}",
                chk.records(),
                chk.coverage()
            );
        assert!(
            chk.records() > 20,
            "mix {mix} seed {seed}: only {} records",
            chk.records()
        );
        look(mix, &chk);
        total += chk.records();
    }
    total
}

/// Random closed-loop traces on RustHDL at the small config, every cycle judged by the SPEC
/// checker ([`SMALL_CASES`]).
#[test]
fn small_config_random_traces_pass_the_spec_checker() {
    let total = small_config_cases(&SMALL_CASES);
    assert!(total > 1000, "{total} records");
}

/// The full config's export, generated once per test binary (RustHDL's Verilog generation of
/// the 128/64/48-map design takes longer than simulating thousands of its cycles).
fn full_verilog() -> &'static str {
    static V: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    V.get_or_init(dispatcher_full_verilog::<DispatcherFullFull>)
}

/// `POLICY` 2 (`min_power_history`) throughout (driver mix 4: short power windows, random retire
/// strobes, weight and window writes), RustHDL at the small config, every cycle judged by the
/// SPEC checker: the records must include module choices among several surely fitting modules
/// under this policy, some of them away from `first`'s choice.
#[test]
fn min_power_history_traces_pass_the_spec_checker() {
    let mut chosen = 0;
    let mut overrides = 0;
    let total = small_config_cases_with(&[(4, 1), (4, 2)], |_, chk| {
        let cov = chk.coverage();
        chosen += cov.get("policy min_power_history").copied().unwrap_or(0);
        overrides += cov.get("policy overrides first").copied().unwrap_or(0);
        assert_eq!(cov.get("policy first"), None, "{cov:?}");
        assert_eq!(cov.get("policy max_weighted_free"), None, "{cov:?}");
    });
    assert!(total > 200, "{total} records");
    assert!(
        chosen > 100 && overrides > 50,
        "{chosen} choices, {overrides} away from first"
    );
}

/// A plain-Rust statement of [`PowerHistory`]'s contract (its module doc).
#[derive(Default)]
struct PowerRef {
    cur: [u32; 16],
    prev: [u32; 16],
    cnt: u32,
}

impl PowerRef {
    fn sums(&self) -> [u32; 16] {
        std::array::from_fn(|m| self.prev[m] + self.cur[m])
    }
    fn order(&self) -> [u16; 16] {
        let p = self.sums();
        std::array::from_fn(|i| {
            (0..16).fold(0u16, |acc, j| {
                acc | u16::from(p[i] < p[j] || (p[i] == p[j] && i <= j)) << j
            })
        })
    }
    fn step(&mut self, reset: bool, retire: u64, weights: u32, window: u32) {
        if reset {
            *self = Self::default();
            return;
        }
        for m in 0..16 {
            let add: u32 = (0..4)
                .filter(|c| retire >> (4 * m + c) & 1 == 1)
                .map(|c| (weights >> (4 * c)) & 0xF)
                .sum();
            self.cur[m] = (self.cur[m] + add).min(0xFFFF);
        }
        self.cnt += 1;
        if self.cnt >= window.max(1) {
            self.cnt = 0;
            self.prev = self.cur;
            self.cur = [0; 16];
        }
    }
}

/// The sub-block cycle for cycle against its contract: `better` in cycle t is the order of the
/// histories of t − 2. Random retire strobes (denser on some modules, which ones changing, so
/// every module leads at times and ties occur too), weights and windows changing (0 included, a window shorter than the
/// count), saturation (weights 0xF, long windows), resets.
#[test]
fn power_history_matches_its_contract() {
    let mut b = PowerHistory::default();
    b.connect_all();
    check_all(&b).expect("check_all");
    let settle = |b: &mut PowerHistory| {
        for _ in 0..50 {
            b.update_all();
            if !b.has_changed() {
                return;
            }
        }
        panic!("no settle");
    };
    let mut rng = golden_model::dispatcher::eval::Rng::new(23);
    let mut model = PowerRef::default();
    let mut orders: Vec<[u16; 16]> = vec![];
    let (mut weights, mut window) = (0x1111u32, 5u32);
    let mut saw_saturation = false;
    let (mut not_first, mut ties) = (0, 0);
    for t in 0..7_000usize {
        // cycles 2 000..4 500: weights 0xF, a window longer than the phase, no reset (saturation)
        let long = (2_000..4_500).contains(&t);
        let reset = t == 0 || (rng.range(0, 999) == 0 && !long);
        if rng.range(0, 99) == 0 {
            weights = rng.next_u64() as u32 & 0xFFFF;
        }
        if rng.range(0, 199) == 0 {
            window = [0, 1, 3, 17, 64, 2000][rng.range(0, 5)];
        }
        if long {
            (weights, window) = (0xFFFF, 5_000);
        }
        let mut retire = 0u64;
        for m in 0..16 {
            // module m retires densely with a probability that rotates every 500 cycles
            let dense = rng.range(0, 15) < (m + t / 500) % 16;
            for c in 0..4 {
                if dense || rng.range(0, 3) == 0 {
                    retire |= 1 << (4 * m + c);
                }
            }
        }
        b.reset.next = reset;
        b.retire_class.next = retire.to_bits();
        b.weights.next = (weights as u64).to_bits();
        b.window.next = (window as u64).to_bits();
        b.clock.next = Clock { clk: false };
        settle(&mut b);
        orders.push(model.order());
        if t >= 2 {
            let want = orders[t - 2];
            for (i, row) in want.iter().enumerate() {
                let got = b.better.val().get_bits::<16>(16 * i).index() as u16;
                assert_eq!(got, *row, "cycle {t}: row {i}");
            }
            not_first += usize::from(want[0] != 0xFFFF);
        }
        let p = model.sums();
        if (0..16).any(|i| (i + 1..16).any(|j| p[i] == p[j] && p[i] > 0)) {
            ties += 1;
        }
        saw_saturation |= model.cur.contains(&0xFFFF);
        b.clock.next = Clock { clk: true };
        settle(&mut b);
        model.step(reset, retire, weights, window);
    }
    assert!(saw_saturation, "saturation reached");
    assert!(
        not_first > 1000,
        "{not_first} cycles with module 0 not the best"
    );
    assert!(
        ties > 100,
        "{ties} cycles with two equal non-zero histories"
    );
}

fn verilator_full(seed: u64, mix: usize, cycles: usize) -> Option<(Vec<DispIn>, Vec<DispOut>)> {
    if !testbench::verilator::tool_available("verilator") {
        assert!(
            std::env::var("REQUIRE_EDA").is_err(),
            "verilator missing and REQUIRE_EDA set"
        );
        eprintln!("SKIPPED: verilator not installed");
        return None;
    }
    let mut sim =
        testbench::verilator::Interactive::new(full_verilog(), &DispFullPorts).expect("harness");
    Some(drive(FullCfg::Full.config(), seed, mix, cycles, |i| {
        sim.step(i)
    }))
}

/// The driver's seed of the full-config runs: `DISPATCHER_FULL_SEED` (default 11).
fn full_seed() -> u64 {
    std::env::var("DISPATCHER_FULL_SEED").map_or(11, |s| {
        s.parse()
            .unwrap_or_else(|_| panic!("DISPATCHER_FULL_SEED={s}: not a number"))
    })
}

fn full_width_run(cycles: usize) {
    let seed = full_seed();
    let mut records = 0;
    for mix in 0..4 {
        let Some((ins, outs)) = verilator_full(seed, mix, cycles) else {
            return;
        };
        let mut chk = FullCfg::Full.checker();
        judge(&mut chk, &ins, &outs)
            .unwrap_or_else(|v| panic!("full config, seed {seed}, mix {mix}: {v}"));
        eprintln!(
            "full config, seed {seed}, mix {mix}: {cycles} cycles, {} records, coverage {:?}",
            chk.records(),
            chk.coverage()
        );
        assert!(
            chk.records() > cycles as u64 / 100,
            "mix {mix}: {} records",
            chk.records()
        );
        records += chk.records();
    }
    assert!(records > 0);
}

/// The full config on Verilator (closed loop), 4 mixes × 25 000 = 10^5 cycles (the issue's
/// "≥ 10^5 full-config cycles in the default run"), every cycle judged.
#[test]
fn full_config_on_verilator_passes_the_spec_checker() {
    full_width_run(25_000);
}

/// 4 × 100 000 = 4 · 10^5 full-config cycles: `cargo test --release --test dispatcher_full --
/// --ignored` (with `DISPATCHER_FULL_SEED=n` for another stimulus).
#[test]
#[ignore]
fn full_config_on_verilator_long() {
    full_width_run(100_000);
}

/// Regression (session 14, seed 1 mix 1 of the long run: `split` at cycle 11 204): this RTL
/// splits one head per crossing of `SPLIT_THRESHOLD` (the lowest stable channel) and restarts
/// g, as SPEC step 8 says. Small config: every module's LDS taken (16 one-wave WGs of 16 LDS
/// blocks), then three independent heads of 2 waves and 9 LDS blocks (channels 0 and 1 at
/// priority 1, channel 2 at priority 0) fail with threshold 30: channels 0 and 1 are split at
/// the first two crossings, and channel 2's head, which a completion lets fit before the third,
/// is recorded whole. The checker once required every candidate split after one crossing
/// (threshold + 2H + 2 failures) and refused that record.
#[test]
fn one_split_per_crossing_passes_the_spec_checker() {
    use golden_model::dispatcher::{reg, Wg};
    let cfg = FullCfg::Small;
    let mut ins = vec![
        DispIn {
            reset: true,
            ..Default::default()
        },
        DispIn::cfg(reg::SPLIT_THRESHOLD, 30),
    ];
    ins.resize(12, DispIn::default());
    for k in 0..16u32 {
        ins.push(DispIn::push(
            k as usize % 4,
            &Wg::dependent(k, 0, 1, 0, 0, 16),
        ));
        ins.push(DispIn::default());
    }
    ins.resize(80, DispIn::default());
    let indep = |id, prio| Wg {
        indep: true,
        ..Wg::dependent(id, prio, 2, 0, 0, 9)
    };
    ins.push(DispIn::push(0, &indep(100, 1)));
    ins.push(DispIn::push(1, &indep(101, 1)));
    ins.push(DispIn::push(2, &indep(102, 0)));
    ins.resize(155, DispIn::default());
    ins.push(DispIn::done(0));
    ins.resize(240, DispIn::default());
    let outs = replay_small(&ins);
    let recs: Vec<(usize, u32, bool)> = (0..outs.len())
        .filter(|&k| outs[k].disp_valid)
        .map(|k| (k, outs[k].disp_id, outs[k].disp_sub))
        .collect();
    assert_eq!(
        recs.iter().filter(|r| r.1 < 16).count(),
        16,
        "the fill: {recs:?}"
    );
    assert!(
        recs.iter().any(|r| r.1 == 102 && !r.2),
        "channel 2's head recorded whole: {recs:?}"
    );
    assert!(
        recs.iter().all(|r| r.1 != 102 || !r.2),
        "channel 2's head never split: {recs:?}"
    );
    judge(&mut cfg.checker(), &ins, &outs).expect("one split per crossing");
}

fn rejects(ins: &[DispIn], outs: &[DispOut], rule: &str) {
    let v = judge(&mut FullCfg::Small.checker(), ins, outs)
        .expect_err(&format!("{rule}: corrupted trace accepted"));
    assert_eq!(v.rule, rule, "{v}");
}

/// The checker, set up with this pipeline's windows, still rejects corrupted traces of this
/// RTL with the rule named (and the refusal of `POLICY` 3 is judged).
#[test]
fn the_checker_rejects_corrupted_traces_of_this_rtl() {
    let (ins, outs) = rusthdl_small(5, 0, 1_200);
    judge(&mut FullCfg::Small.checker(), &ins, &outs).expect("the RTL's own trace");
    let r = (0..outs.len())
        .find(|&k| outs[k].disp_valid)
        .expect("a record");
    // a VGPR base one block higher: not the first fit (or not free)
    let mut o = outs.clone();
    o[r].disp_vgpr_base += 1;
    let v = judge(&mut FullCfg::Small.checker(), &ins, &o).expect_err("base + 1 accepted");
    assert!(["first-fit", "region-free"].contains(&v.rule), "{v}");
    // the record dropped: its WG is never recorded, a later completion of its slot is refused
    let mut o = outs.clone();
    o[r] = DispOut {
        push_ready: o[r].push_ready,
        error: o[r].error,
        error_code: o[r].error_code,
        ..Default::default()
    };
    assert!(
        judge(&mut FullCfg::Small.checker(), &ins, &o).is_err(),
        "a dropped record"
    );
    // the record one cycle late: outside the H window or out of order
    let mut o = outs.clone();
    if r + 1 < o.len() && !o[r + 1].disp_valid {
        let rec = o[r].clone();
        o[r + 1] = DispOut {
            push_ready: o[r + 1].push_ready,
            error: o[r + 1].error,
            error_code: o[r + 1].error_code,
            ..rec
        };
        o[r] = DispOut {
            push_ready: outs[r].push_ready,
            error: outs[r].error,
            error_code: outs[r].error_code,
            ..Default::default()
        };
        assert!(
            judge(&mut FullCfg::Small.checker(), &ins, &o).is_err(),
            "a late record"
        );
    }
    // POLICY = 3 is refused by this RTL; the checker expects it
    let mut i2 = ins.clone();
    i2[3] = DispIn {
        cfg_we: true,
        cfg_addr: 0,
        cfg_data: 3,
        ..DispIn::default()
    };
    let o2 = replay_small(&i2);
    assert!(
        o2[4].error && o2[4].error_code == 5,
        "POLICY 3 refused with BAD_CFG"
    );
    let mut o3 = o2.clone();
    o3[4].error = false;
    o3[4].error_code = 0;
    rejects(&i2, &o3, "error-code");
    // POLICY = 2 is accepted: no error strobe
    i2[3].cfg_data = 2;
    let o4 = replay_small(&i2);
    assert!(!o4[4].error, "POLICY 2 accepted");
}

/// Under `min_power_history` the checker judges the module choice from the retire strobes: the
/// trace of mix 4 with the strobes the checker sees changed (module m of a record whose choice
/// was among several surely fitting modules retires every class in every cycle before it) is
/// rejected by `module-policy`, the only rule the strobes enter.
#[test]
fn the_checker_rejects_a_wrong_power_history_choice() {
    let (ins, outs) = rusthdl_small(1, 4, 700);
    let mut chk = FullCfg::Small.checker();
    judge(&mut chk, &ins, &outs).expect("the RTL's own trace");
    assert!(chk.coverage().get("policy overrides first").is_some());
    let mut rejected = 0;
    for r in (0..outs.len()).filter(|&k| outs[k].disp_valid).take(40) {
        let m = outs[r].disp_module;
        let mut i2 = ins.clone();
        for i in i2.iter_mut().take(r).skip(3) {
            i.retire_class |= 0xF << (4 * m);
        }
        if let Err(v) = judge(&mut FullCfg::Small.checker(), &i2, &outs) {
            assert_eq!(v.rule, "module-policy", "{v}");
            rejected += 1;
        }
    }
    assert!(rejected >= 10, "{rejected} of 40 corrupted traces rejected");
}

#[test]
fn exports_are_clean_and_match_the_port_table() {
    let small = dispatcher_full_verilog::<DispatcherFullSmall>();
    testbench::suite::assert_port_table("dispatcher_full small", &small, &DispFullPorts);
    testbench::verilator::assert_lint_clean(&small);
    testbench::verilator::assert_yosys_clean("dispatcher_full", &[("small", small)]);
}
