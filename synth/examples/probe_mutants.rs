//! Chosen mutants of a registered unit, by id (`synth mutate`'s ids, `list_sites`), run
//! through TRACES random traces of the unit (trace seeds 1000 · SEED + k, 8000 cycles each, as
//! `synth mutate --seed SEED`): whether lockstep and the spec checker catch each, and with
//! `PROBE_PROVE_SECS=N` ABC's equivalence proof of each survivor (`synth::mutate::prove`). Used
//! to ask whether a survivor is reached at all by many more traces than a scored run's.
//!
//! `cargo run --release -p synth --example probe_mutants -- UNIT SEED TRACES ID...`
use testbench::unit::{CheckedUnit, UnitVisitor};

struct V(u64, usize, Vec<String>);
impl UnitVisitor for V {
    type Out = ();
    fn visit<U: CheckedUnit>(&mut self) {
        let verilog = U::verilog();
        let ms: Vec<_> = synth::mutate::candidate_sites(U::NAME, &verilog)
            .into_iter()
            .flatten()
            .filter(|m| self.2.contains(&m.id))
            .collect();
        let o = synth::mutate::Options {
            count: ms.len(),
            seed: self.0,
            traces: Some(self.1),
            cycles: 8000,
            prove_secs: std::env::var("PROBE_PROVE_SECS")
                .ok()
                .and_then(|v| v.parse().ok())
                .unwrap_or(0),
        };
        let r = synth::mutate::run_mutants::<U>(&verilog, &ms, &o).unwrap();
        for (m, out) in &r.mutants {
            println!(
                "{} line {} {}: lockstep {} spec {} equivalent {:?} proof {:?}",
                m.id, m.line, m.what, out.lockstep, out.spec, out.equivalent, out.proof
            );
        }
    }
}

fn main() {
    let a: Vec<String> = std::env::args().collect();
    if a.len() < 5 {
        eprintln!("usage: probe_mutants UNIT SEED TRACES ID...");
        std::process::exit(2);
    }
    let mut v = V(
        a[2].parse().unwrap(),
        a[3].parse().unwrap(),
        a[4..].to_vec(),
    );
    if testbench::unit::visit(&a[1], &mut v).is_none() {
        eprintln!("unknown unit {}", a[1]);
        std::process::exit(2);
    }
}
