//! Tagged dispatcher (SPEC Unit 8's dispatcher extensions, `golden_model::dispatcher::tagged`):
//! compatibility with the untagged model when every new input is 0, and the tagged spec
//! checker (`testbench::spec::dispatcher_tagged`) on random tagged traces of the model.

use golden_model::dispatcher::tagged::{TaggedConfig, TaggedDispatcher, TaggedIn};
use golden_model::dispatcher::{DispIn, Dispatcher, DispatcherConfig};
use golden_model::CycleModel;
use testbench::dispatcher::{trace_strategy_for, DispatcherBoard};
use testbench::lockstep::run_cases;
use testbench::unit::BoardUnit;

/// Step both models; the tagged one with every new input at 0 must give the untagged one's
/// outputs, cycle for cycle.
fn lockstep_untagged(cfg: DispatcherConfig, trace: &[DispIn]) -> Result<usize, String> {
    let mut old = Dispatcher::new(cfg);
    let mut new = TaggedDispatcher::new(TaggedConfig::with(cfg));
    let mut records = 0;
    for (k, i) in trace.iter().enumerate() {
        let a = old.step(i);
        let b = new.step(&TaggedIn::from(i.clone()));
        if a != b.base {
            return Err(format!(
                "cycle {k}: input {i:?}\nuntagged {a:?}\ntagged   {:?}",
                b.base
            ));
        }
        if b.wdr_valid || b.reclaim_done || b.reclaim_busy || b.disp_class != 0 {
            return Err(format!(
                "cycle {k}: a new output without a new input: {b:?}"
            ));
        }
        records += usize::from(a.disp_valid);
    }
    Ok(records)
}

/// The standard board random traces (`DispatcherBoard::random_trace`: the proptest mixes and
/// the flavours, bound to the model's live slots), 4 seeds × 20 000 cycles.
#[test]
fn tagged_model_is_the_untagged_model_on_the_standard_random_traces() {
    let mut total = 0;
    for seed in 1..=4 {
        let trace = DispatcherBoard::random_trace(seed, 20_000);
        let n = lockstep_untagged(DispatcherConfig::board(), &trace)
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        assert!(n > 2_000, "seed {seed}: the trace dispatches ({n} records)");
        total += n;
    }
    eprintln!("tagged = untagged on 4 x 20000 board cycles, {total} records");
}

/// The random mixes on other configs (channels out of range, bad priorities, bad slots).
#[test]
fn tagged_model_is_the_untagged_model_on_swept_configs() {
    let b = DispatcherConfig::board();
    let odd = DispatcherConfig {
        channels: 3,
        fifo_depth: 3,
        modules: 3,
        units: 3,
        vgpr_blocks: 13,
        sgpr_blocks: 5,
        wave_slots: 3,
        lds_blocks: 7,
        slots: 5,
        ..b
    };
    for cfg in [b, odd, DispatcherConfig::full()] {
        run_cases(32, &trace_strategy_for(cfg, 600, true), |t| {
            lockstep_untagged(cfg, t).map(|_| ())
        });
    }
}
