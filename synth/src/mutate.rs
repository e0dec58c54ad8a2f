//! Injected-fault score (`synth mutate --unit NAME [--count N] [--seed S]`, SPEC §0): how many
//! faults injected into a unit's exported Verilog each check catches.
//!
//! **Faults** (sites in the bodies of module `top` and of every sub-module holding logic —
//! not the flip-flop and RAM primitives, told apart by their body's shape ([`holds_logic`]) —
//! picked at random with the seed, at most one per source line): an operator swapped (`&`↔`|`,
//! `^`→`&`, `==`↔`!=`, `<`↔`>=`, `>`↔`<=`, `+`↔`-`), an `if` condition inverted, a constant's
//! low bit flipped (sized literals and the compared numbers of `==`/`!=`), a one-bit value
//! inverted (the bit written by a `replace_bit`), a register bit stuck at 0 or 1 (the `d` input
//! of a flip-flop instance).
//!
//! **Mutant schemata**: every mutant goes into ONE Verilog file behind an extra 16-bit input
//! `mutant_sel` (a site reads `((mutant_sel == K) ? mutated : original)`), built ONCE by
//! Verilator; mutant K runs by driving `mutant_sel = K` (0 = the original design, which must pass
//! every check). One C++ compile instead of N.
//!
//! **Checks**, each on the unit's standard random traces ([`BoardUnit::random_trace`]; trace k
//! of seed S is the trace of seed 1000·S + k, 8000 cycles; as many traces as the unit's budget,
//! [`unit_budget`]: one per 500 candidate faults, at least 12 — the front end at least the
//! default run's 10^6 cycles, 125 traces —, unless `--traces` says), then the unit's corner
//! family if it has one ([`BoardUnit::corner_trace`]: `CORNER_TRACES` traces of seeds
//! 1000·S + 500 + k aimed at classes of rare events, the same family at every seed; the front
//! end's 24 traces of many-wave WGs, 12 of RT pairs, 12 done races and 12 split resets; 12
//! each for the board dispatcher (quiet policy segments) and the tagged dispatcher (slot-bound
//! and reset-opened segments)), each
//! alone: lockstep against the golden cycle model (any output differs in any cycle), the spec
//! checker ([`CheckedUnit::spec_checker`]), the port invariants ([`BoardUnit::invariants`]).
//! For a unit composed of units (`gpu_frontend`, SPEC Unit 8: "every unit's own checker also
//! run on its internal ports") the spec checker's verdict also includes the sub-units' own
//! checkers on their ports inside the mutated export ([`CheckedUnit::internal_check`]: the
//! schemata wrapped once so that every sub-block port is an output too, as
//! `tests/gpu_frontend_probe.rs` does; still checkers written from SPEC alone, no model): a
//! mutant counts as caught by the spec checker when the system checker or any of them finds a
//! broken rule. The report then adds a line `spec checker S = the unit's own checker A + the
//! sub-units' checkers on their internal ports B, K caught by those alone:` listing those K
//! with the first broken rule (`unit:rule`); lockstep still compares the top's outputs only.
//! Survivors (caught by none) are listed; those judged equivalent after a look are recorded with
//! a reason in `synth/mutants/<unit>.equivalent` (`<id> <reason>` per line) and leave the
//! non-equivalent count. Every other survivor gets a formal equivalence proof ([`prove`]: a
//! miter of the export and the mutant, yosys and ABC `pdr`, `--prove-secs` of ABC CPU each,
//! default 60): proven, it is equivalent ("proven: …", at any seed, with no note); a
//! counterexample or the time limit leaves it non-equivalent, and the list says which.
//!
//! `--count 0` prints the candidate sites per module (no simulation).
//!
//! New units: one line in [`run_unit`].

use anyhow::{bail, Context, Result};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;
use testbench::spec::judge;
use testbench::suite::DEFAULT_REPLAY_CYCLES;
use testbench::unit::CheckedUnit;
use testbench::verilator::{self, Port, TracePorts};

pub mod prove;
mod sites;
#[cfg(test)]
use sites::fnv;
pub use sites::{
    candidate_sites, holds_logic, modules, site_counts, sites_by_module, ModuleSites, VModule,
};
use sites::{counts_of, faults_budget};

/// Options of one `mutate` run.
#[derive(Clone, Debug)]
pub struct Options {
    /// Mutants to inject.
    pub count: usize,
    /// Seed of the site choice.
    pub seed: u64,
    /// Random traces per mutant (`None`: the unit's budget, [`unit_budget`]) and their
    /// length in cycles.
    pub traces: Option<usize>,
    pub cycles: usize,
    /// ABC's CPU seconds per survivor for its equivalence proof ([`prove`]; 0: no proofs).
    pub prove_secs: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            count: 200,
            seed: 1,
            traces: None,
            cycles: 8000,
            prove_secs: prove::time_limit(),
        }
    }
}

/// Least traces per mutant ([`budget_traces`]): a unit of up to 6000 candidate faults gets
/// these 12 × 8000 cycles (at 74d036f every unit but `dispatcher_tagged`, 6017 faults → 13
/// traces, and `gpu_frontend`, 9073 faults → 19).
pub const MIN_TRACES: usize = 12;

/// Candidate faults per trace of the budget ([`budget_traces`]).
pub const FAULTS_PER_TRACE: usize = 500;

/// The trace budget of a unit whose export has `faults` candidate faults (the sum over its
/// modules holding logic, as `candidate sites:` prints): one trace per [`FAULTS_PER_TRACE`]
/// faults, at least [`MIN_TRACES`]. The same formula for every unit: the small units keep 12
/// traces, a composition gets the budget its size asks for (the front end, with the sites of
/// its three units and its glue), since its one stream has to reach the corners of every unit
/// inside it, each through the others. More traces only add traces (trace k is the same at
/// any budget, and a trace's prefix does not depend on its length), so a larger budget never
/// loses a fault that a smaller one catches.
///
/// **The front end** ([`DEFAULT_RUN_UNITS`]) gets at least the traces of the default run
/// instead ([`unit_budget`]: [`DEFAULT_REPLAY_CYCLES`] / 8000 = 125 traces): the default `cargo
/// test` replays 10^6 cycles of the unit's standard random stream on its export against the
/// golden model and the spec checker (`tests/units.rs`, `verilator_replay_1m_cycles`, seed
/// 2026: the same `random_run` the mutants see), so a fault that 10^6 cycles of that stream
/// meet is one the default run is built to catch. The front end's survivors at ten seeds
/// (sessions 18 and 19: lockstep 91.6 %, at or above 95 % at one seed) were reachable faults
/// its 19 traces (152 000 cycles, 15 % of the default run) met too rarely — the need
/// decoders' four-pair rows (60 traces caught 6 of 7), end-of-map tests at single starts,
/// Unit 4's duplicate compare of one queue slot, the expander's done order — not missing
/// checks. The number is the default run's length, not one picked for a seed. The other units
/// keep the size formula for now (the same reason holds for each: applying it to them only
/// adds traces, at their run time's cost); the front end's run takes 6 to 7 times longer: 584
/// and 729 s at seeds 4 and 5 against 97..121 s for 19 traces (docs/verification.md, session
/// 20, gf20).
pub fn budget_traces(faults: usize) -> usize {
    MIN_TRACES.max(faults.div_ceil(FAULTS_PER_TRACE))
}

/// Units whose trace budget covers [`DEFAULT_REPLAY_CYCLES`] ([`budget_traces`]: why the front
/// end).
pub const DEFAULT_RUN_UNITS: &[&str] = &["gpu_frontend"];

/// The trace budget of unit `unit` with `faults` candidate faults and traces of `cycles`
/// cycles: [`budget_traces`], and for a unit of [`DEFAULT_RUN_UNITS`] at least the traces that
/// make up [`DEFAULT_REPLAY_CYCLES`].
pub fn unit_budget(unit: &str, faults: usize, cycles: usize) -> usize {
    let b = budget_traces(faults);
    if DEFAULT_RUN_UNITS.contains(&unit) {
        b.max(DEFAULT_REPLAY_CYCLES.div_ceil(cycles.max(1)))
    } else {
        b
    }
}

/// Run the injected-fault score on the registered unit `name` ([`testbench::for_each_unit!`]).
pub fn run_unit(name: &str, o: &Options) -> Result<Report> {
    struct Run<'a>(&'a Options);
    impl testbench::unit::UnitVisitor for Run<'_> {
        type Out = Result<Report>;
        fn visit<U: CheckedUnit>(&mut self) -> Result<Report> {
            run::<U>(self.0)
        }
    }
    testbench::unit::visit(name, &mut Run(o)).unwrap_or_else(|| {
        bail!(
            "mutate: unknown unit `{name}` (known: {})",
            testbench::unit::names().join(", ")
        )
    })
}

/// One fault.
#[derive(Clone, Debug)]
pub struct Mutant {
    /// Stable id (hash of the unit, the original line and the mutation), for the equivalence file.
    pub id: String,
    /// The module whose body holds the line (`top` or a sub-module).
    pub module: String,
    /// Fault class.
    pub kind: &'static str,
    /// Verilog line (1-based) and the change.
    pub line: usize,
    pub what: String,
    line_text: String,
    /// Byte span of the region in the line, and its replacement.
    span: (usize, usize),
    replacement: String,
}

impl Mutant {
    /// `line N` (in `top`) or `line N in MODULE`.
    pub fn place(&self) -> String {
        if self.module == "top" {
            format!("line {}", self.line)
        } else {
            format!("line {} in {}", self.line, self.module)
        }
    }
}

/// What each check caught of one mutant.
#[derive(Clone, Debug, Default)]
pub struct Outcome {
    pub lockstep: bool,
    /// The spec checker: the unit's own ([`CheckedUnit::spec_checker`]) or, for a composed unit,
    /// a sub-unit's own checker on its internal ports ([`CheckedUnit::internal_check`]).
    pub spec: bool,
    /// The unit's own spec checker alone.
    pub spec_top: bool,
    /// The first rule a sub-unit's own checker found broken on its internal ports: `unit:rule`.
    pub spec_internal: Option<String>,
    pub invariants: bool,
    /// The simulation itself failed (counted as caught by every check).
    pub sim_error: Option<String>,
    /// Judged equivalent: the reason (a note in the committed file, or a proof, [`prove`]).
    pub equivalent: Option<String>,
    /// A survivor's proof that did not close (a counterexample's length or a time limit).
    pub proof: Option<String>,
}

impl Outcome {
    /// Some check caught the mutant (else it survived).
    pub fn caught(&self) -> bool {
        self.lockstep || self.spec || self.invariants
    }
}

/// The whole score.
pub struct Report {
    pub unit: &'static str,
    pub mutants: Vec<(Mutant, Outcome)>,
    pub cycles_per_mutant: usize,
    pub secs: f64,
    /// Candidate sites per module ([`site_counts`]: name, holds logic, lines, faults); empty
    /// when the report came from [`run_mutants`] alone.
    pub sites: Vec<(String, bool, usize, usize)>,
    /// The unit is composed: its sub-units' checkers ran on their internal ports.
    pub internal: bool,
}

impl Report {
    /// (mutants, non-equivalent, lockstep, spec checker, invariants).
    pub fn counts(&self) -> (usize, usize, usize, usize, usize) {
        let ne: Vec<&Outcome> = self
            .mutants
            .iter()
            .map(|m| &m.1)
            .filter(|o| o.equivalent.is_none())
            .collect();
        (
            self.mutants.len(),
            ne.len(),
            ne.iter().filter(|o| o.lockstep).count(),
            ne.iter().filter(|o| o.spec).count(),
            ne.iter().filter(|o| o.invariants).count(),
        )
    }

    /// The printed report; its last line is the summary line of the issue.
    pub fn text(&self) -> String {
        let mut s = String::new();
        let (n, m, l, sp, i) = self.counts();
        let pct = |a: usize, b: usize| {
            if b == 0 {
                "-".to_string()
            } else {
                format!("{:.1} %", 100.0 * a as f64 / b as f64)
            }
        };
        let _ = writeln!(
            s,
            "unit {}: {n} mutants, {} cycles each, {:.1} s",
            self.unit, self.cycles_per_mutant, self.secs
        );
        if !self.sites.is_empty() {
            let logic: Vec<_> = self.sites.iter().filter(|m| m.1).collect();
            let prims: Vec<_> = self.sites.iter().filter(|m| !m.1).collect();
            let _ = writeln!(
                s,
                "candidate sites: {} lines, {} faults in {} module(s) holding logic ({}); {} primitive module(s) skipped{}",
                logic.iter().map(|m| m.2).sum::<usize>(),
                logic.iter().map(|m| m.3).sum::<usize>(),
                logic.len(),
                logic
                    .iter()
                    .map(|m| format!("{}: {} lines, {} faults", m.0, m.2, m.3))
                    .collect::<Vec<_>>()
                    .join("; "),
                prims.len(),
                prims
                    .first()
                    .map_or(String::new(), |m| format!(" (e.g. {})", m.0))
            );
        }
        let mut by_kind: BTreeMap<&str, [usize; 5]> = BTreeMap::new();
        for (mu, o) in &self.mutants {
            let e = by_kind.entry(mu.kind).or_default();
            e[0] += 1;
            if o.equivalent.is_none() {
                e[1] += 1;
                e[2] += o.lockstep as usize;
                e[3] += o.spec as usize;
                e[4] += o.invariants as usize;
            }
        }
        let _ = writeln!(
            s,
            "| fault class | mutants | non-equivalent | lockstep | spec checker | invariants |"
        );
        let _ = writeln!(s, "|---|---:|---:|---:|---:|---:|");
        for (k, e) in &by_kind {
            let _ = writeln!(
                s,
                "| {k} | {} | {} | {} | {} | {} |",
                e[0], e[1], e[2], e[3], e[4]
            );
        }
        let _ = writeln!(
            s,
            "| **all** | {n} | {m} | {l} ({}) | {sp} ({}) | {i} ({}) |",
            pct(l, m),
            pct(sp, m),
            pct(i, m)
        );
        let _ = writeln!(
            s,
            "lockstep catches {} of non-equivalent faults (goal >= 95 %); the spec checker alone {} of what lockstep catches (goal >= 95 %, issue #25)",
            pct(l, m),
            pct(
                self.mutants
                    .iter()
                    .filter(|(_, o)| o.equivalent.is_none() && o.lockstep && o.spec)
                    .count(),
                l
            )
        );
        let missed: Vec<_> = self
            .mutants
            .iter()
            .filter(|(_, o)| o.equivalent.is_none() && o.lockstep && !o.spec)
            .collect();
        if !missed.is_empty() {
            let _ = writeln!(s, "caught by lockstep, missed by the spec checker:");
            for (mu, _) in missed {
                let _ = writeln!(s, "  {} {} {}: {}", mu.id, mu.place(), mu.kind, mu.what);
            }
        }
        let survivors: Vec<_> = self.mutants.iter().filter(|(_, o)| !o.caught()).collect();
        if self.internal {
            let ne = || self.mutants.iter().filter(|(_, o)| o.equivalent.is_none());
            let top = ne().filter(|(_, o)| o.spec_top).count();
            let int = ne().filter(|(_, o)| o.spec_internal.is_some()).count();
            let only: Vec<_> = ne()
                .filter(|(_, o)| !o.spec_top && o.spec_internal.is_some())
                .collect();
            let _ = writeln!(
                s,
                "spec checker {sp} = the unit's own checker {top} + the sub-units' checkers on their internal ports {int}, {} caught by those alone:",
                only.len()
            );
            for (mu, o) in only {
                let _ = writeln!(
                    s,
                    "  {} {} {}: {}  [{}]",
                    mu.id,
                    mu.place(),
                    mu.kind,
                    mu.what,
                    o.spec_internal.as_deref().unwrap_or("")
                );
            }
        }
        if !survivors.is_empty() {
            let _ = writeln!(s, "survivors (caught by no check):");
            for (mu, o) in survivors {
                let _ = writeln!(
                    s,
                    "  {} {} {}: {}{}",
                    mu.id,
                    mu.place(),
                    mu.kind,
                    mu.what,
                    match (&o.equivalent, &o.proof) {
                        (Some(why), _) => format!("  [equivalent: {why}]"),
                        (None, Some(proof)) => format!("  [{proof}]"),
                        (None, None) => String::new(),
                    }
                );
            }
        }
        let _ = write!(
            s,
            "mutants {n}, non-equivalent {m}, lockstep {l}, spec checker {sp}, invariants {i}"
        );
        s
    }
}

/// Pick `count` mutants at distinct lines (deterministic in `seed`), ids unique.
pub fn pick(sites: &[Vec<Mutant>], count: usize, seed: u64) -> Vec<Mutant> {
    let mut rng = golden_model::SplitMix64(seed ^ 0x6d75_7461_6e74);
    let mut lines: Vec<usize> = (0..sites.len()).collect();
    // Fisher-Yates, then take one mutant per line
    for k in (1..lines.len()).rev() {
        let j = rng.below(k + 1);
        lines.swap(k, j);
    }
    let mut chosen: Vec<Mutant> = lines
        .into_iter()
        .take(count)
        .map(|k| sites[k][rng.below(sites[k].len())].clone())
        .collect();
    chosen.sort_by_key(|m| m.line);
    chosen
}

/// The schemata Verilog: every mutant behind `mutant_sel == K` (K = 1..), one file. `top` gets
/// the input `mutant_sel`; a sub-module holding a mutant gets it too, and so does every module on
/// the way down to it (each instance of such a module is connected `.mutant_sel(mutant_sel)`).
pub fn schemata(verilog: &str, mutants: &[Mutant]) -> String {
    let mut lines: Vec<String> = verilog.lines().map(str::to_string).collect();
    for (k, m) in mutants.iter().enumerate() {
        let l = &mut lines[m.line - 1];
        assert_eq!(*l, m.line_text, "one mutant per line");
        let (a, b) = m.span;
        let orig = &l[a..b];
        *l = format!(
            "{}((mutant_sel == 16'd{}) ? ({}) : ({})){}",
            &l[..a],
            k + 1,
            m.replacement,
            orig,
            &l[b..]
        );
    }
    let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
    let mods = modules(&refs);
    // instances: (line of `TYPE NAME(`, index of the parent module, index of the instantiated one)
    let mut instances = vec![];
    for (p, m) in mods.iter().enumerate() {
        for (k, l) in refs.iter().enumerate().take(m.end).skip(m.header + 1) {
            let t = l.trim();
            let Some(head) = t.strip_suffix('(') else {
                continue;
            };
            if let Some((ty, _)) = head.split_once(' ') {
                if let Some(c) = mods.iter().position(|x| x.name == ty) {
                    instances.push((k, p, c));
                }
            }
        }
    }
    // modules that need `mutant_sel`: top, those holding a mutant, and their parents (fixpoint)
    let mut need: Vec<bool> = mods
        .iter()
        .map(|m| m.name == "top" || mutants.iter().any(|x| x.module == m.name))
        .collect();
    loop {
        let mut changed = false;
        for &(_, p, c) in &instances {
            if need[c] && !need[p] {
                need[p] = true;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    assert!(
        mods.iter().any(|m| m.name == "top"),
        "module top in the export"
    );
    let mut after: BTreeMap<usize, String> = BTreeMap::new();
    for (m, _) in mods.iter().zip(&need).filter(|(_, n)| **n) {
        let h = m.header;
        lines[h] = if lines[h].contains("()") {
            lines[h].replacen("()", "(mutant_sel)", 1)
        } else {
            lines[h].replacen('(', "(mutant_sel,", 1)
        };
        after.insert(h, "    input wire [15:0] mutant_sel;".to_string());
    }
    for &(k, _, c) in &instances {
        if need[c] {
            after.insert(k, "        .mutant_sel(mutant_sel),".to_string());
        }
    }
    let mut s = String::new();
    for (k, l) in lines.iter().enumerate() {
        s.push_str(l);
        s.push('\n');
        if let Some(x) = after.get(&k) {
            s.push_str(x);
            s.push('\n');
        }
    }
    s
}

/// A unit's port map plus `mutant_sel`.
struct SelPorts<'a, P> {
    inner: &'a P,
    sel: u32,
}

impl<P: TracePorts> TracePorts for SelPorts<'_, P> {
    type In = P::In;
    type Out = P::Out;
    fn inputs(&self) -> Vec<Port> {
        let mut v = self.inner.inputs();
        v.push(Port::new("mutant_sel", 16));
        v
    }
    fn outputs(&self) -> Vec<Port> {
        self.inner.outputs()
    }
    fn encode(&self, i: &P::In) -> Vec<u128> {
        let mut v = self.inner.encode(i);
        v.push(self.sel as u128);
        v
    }
    fn decode(&self, v: &[u128]) -> P::Out {
        self.inner.decode(v)
    }
    fn has_clock(&self) -> bool {
        self.inner.has_clock()
    }
}

/// The committed equivalence notes of a unit: id → reason.
pub fn equivalence_notes(unit: &str) -> BTreeMap<String, String> {
    let path = notes_path(unit);
    let Ok(text) = std::fs::read_to_string(&path) else {
        return BTreeMap::new();
    };
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter_map(|l| l.split_once(' '))
        .map(|(id, why)| (id.to_string(), why.trim().to_string()))
        .collect()
}

fn notes_path(unit: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("mutants")
        .join(format!("{unit}.equivalent"))
}

/// Judge the outputs of one trace with each check alone; `internal` is what the sub-units'
/// checkers found on their internal ports in this trace (a composed unit).
fn judge_trace<U: CheckedUnit>(
    inputs: &[U::In],
    want: &[U::Out],
    got: &[U::Out],
    internal: Option<String>,
    o: &mut Outcome,
) {
    // `MUTATE_DEBUG=1`: the first differing cycle and the spec checker's verdict, per trace
    // that decides them (for reading a survivor with `examples/probe_mutants.rs`)
    let debug = std::env::var("MUTATE_DEBUG").as_deref() == Ok("1");
    if !o.lockstep && (got.len() != want.len() || got.iter().zip(want).any(|(g, w)| g != w)) {
        o.lockstep = true;
        if debug {
            if let Some(c) = (0..got.len().min(want.len())).find(|&c| got[c] != want[c]) {
                eprintln!(
                    "lockstep: cycle {c}\n  model {:?}\n  rtl   {:?}\n  in    {:?}",
                    want[c], got[c], inputs[c]
                );
            }
        }
    }
    if !o.spec_top {
        let mut c = U::spec_checker();
        let verdict = judge(c.as_mut(), inputs, got);
        if debug {
            if let Err(v) = &verdict {
                eprintln!("spec: {v}");
            }
        }
        o.spec_top = got.len() != inputs.len() || verdict.is_err();
    }
    if o.spec_internal.is_none() {
        o.spec_internal = internal;
    }
    o.spec = o.spec_top || o.spec_internal.is_some();
    if !o.invariants {
        let mut inv = U::invariants();
        o.invariants = inputs
            .iter()
            .zip(got)
            .enumerate()
            .any(|(c, (i, g))| inv(c, i, g).is_err());
    }
}

/// Score `o.count` mutants of unit `U`. `count` 0 only counts the candidate sites (no
/// simulation).
pub fn run<U: CheckedUnit>(o: &Options) -> Result<Report> {
    let verilog = U::verilog();
    let by_module = sites_by_module(U::NAME, &verilog);
    let counts = counts_of(&by_module);
    let traces = o
        .traces
        .unwrap_or_else(|| faults_budget(U::NAME, &counts, o.cycles));
    let o = Options {
        traces: Some(traces),
        ..o.clone()
    };
    if o.count == 0 {
        return Ok(Report {
            unit: U::NAME,
            mutants: vec![],
            cycles_per_mutant: (traces + U::CORNER_TRACES) * o.cycles,
            secs: 0.0,
            sites: counts,
            internal: false,
        });
    }
    if !verilator::tool_available("verilator") {
        bail!("mutate needs verilator");
    }
    let sites: Vec<Vec<Mutant>> = by_module.into_iter().flat_map(|m| m.sites).collect();
    let mutants = pick(&sites, o.count.min(65535), o.seed);
    let mut r = run_mutants::<U>(&verilog, &mutants, &o)?;
    r.sites = counts;
    Ok(r)
}

/// Score the given mutants of `verilog` (the unit's export) with the traces of `o`.
pub fn run_mutants<U: CheckedUnit>(
    verilog: &str,
    mutants: &[Mutant],
    o: &Options,
) -> Result<Report> {
    let t0 = std::time::Instant::now();
    let v = schemata(verilog, mutants);
    let ports = U::ports();
    let notes = equivalence_notes(U::NAME);
    let n_traces = o
        .traces
        .unwrap_or_else(|| faults_budget(U::NAME, &site_counts(U::NAME, verilog), o.cycles));
    // traces and the model's answers, once
    let base = o.seed.wrapping_mul(1000);
    let traces: Vec<Vec<U::In>> = (0..n_traces)
        .map(|k| U::random_trace(base + k as u64, o.cycles))
        .chain((0..U::CORNER_TRACES).map(|k| U::corner_trace(base + 500 + k as u64, k, o.cycles)))
        .collect();
    let n_traces = traces.len();
    let wants: Vec<Vec<U::Out>> = traces
        .iter()
        .map(|t| {
            let mut m = U::model();
            t.iter().map(|i| m.step(i)).collect()
        })
        .collect();
    // a composed unit: the schemata wrapped once so that its sub-units' ports come out too
    let internal = match U::internal_check(&v, &[Port::new("mutant_sel", 16)]) {
        Some(r) => Some(r.context("preparing the internal-port check")?),
        None => None,
    };
    let mut report = Report {
        unit: U::NAME,
        mutants: vec![],
        cycles_per_mutant: n_traces * o.cycles,
        secs: 0.0,
        sites: vec![],
        internal: internal.is_some(),
    };
    // the original (mutant_sel = 0) must pass every check
    for sel in 0..=mutants.len() {
        let p = SelPorts {
            inner: &ports,
            sel: sel as u32,
        };
        let mut out = Outcome::default();
        for (t, want) in traces.iter().zip(&wants) {
            let run = match &internal {
                Some(ic) => ic
                    .replay(&[sel as u128], t, out.spec_internal.is_none())
                    .map(|r| {
                        let why = r.violation.map(|(u, v)| format!("{u}:{}", v.rule));
                        (r.outputs, why)
                    }),
                None => verilator::replay(&v, &p, t).map(|g| (g, None)),
            };
            match run {
                Ok((got, why)) => judge_trace::<U>(t, want, &got, why, &mut out),
                Err(e) if sel == 0 => return Err(e).context("the unmutated schemata design"),
                Err(e) => {
                    out = Outcome {
                        lockstep: true,
                        spec: true,
                        spec_top: true,
                        spec_internal: Some("simulation failed".into()),
                        invariants: true,
                        sim_error: Some(format!("{e:#}")),
                        equivalent: None,
                        proof: None,
                    };
                }
            }
            // a composed unit runs on until both halves of the spec verdict are known (the
            // report tells what the internal ports add)
            let spec_known = out.spec_top && (internal.is_none() || out.spec_internal.is_some());
            if out.lockstep && spec_known && out.invariants {
                break;
            }
        }
        if sel == 0 {
            if out.caught() {
                bail!(
                    "{}: the unmutated design fails a check (lockstep {}, spec {}{}, invariants {})",
                    U::NAME,
                    out.lockstep,
                    out.spec,
                    out.spec_internal
                        .as_ref()
                        .map_or(String::new(), |w| format!(" (internal ports: {w})")),
                    out.invariants
                );
            }
            continue;
        }
        let m = mutants[sel - 1].clone();
        if !out.caught() {
            out.equivalent = notes.get(&m.id).cloned();
        }
        report.mutants.push((m, out));
    }
    prove_survivors(U::NAME, &v, &ports, o.prove_secs, &mut report);
    report.secs = t0.elapsed().as_secs_f64();
    Ok(report)
}

/// Try to prove every survivor without a note equivalent to the export ([`prove`]); a proof
/// makes it equivalent, anything else is recorded in its outcome's `proof`.
fn prove_survivors<P: TracePorts>(
    unit: &str,
    schemata: &str,
    ports: &P,
    secs: u64,
    report: &mut Report,
) {
    let open: Vec<usize> = (0..report.mutants.len())
        .filter(|&k| {
            let o = &report.mutants[k].1;
            !o.caught() && o.equivalent.is_none()
        })
        .collect();
    if secs == 0 || open.is_empty() {
        return;
    }
    if !prove::tools_present() {
        eprintln!("mutate: yosys / yosys-abc not on the PATH: survivors not proven");
        return;
    }
    let (ins, outs) = (ports.inputs(), ports.outputs());
    let root = testbench::verilator::target_dir()
        .join("mutate-prove")
        .join(unit);
    for k in open {
        let sel = k + 1;
        let dir = root.join(&report.mutants[k].0.id);
        let o = &mut report.mutants[k].1;
        match prove::prove(&dir, schemata, &ins, &outs, ports.has_clock(), sel, secs) {
            prove::Proof::Equivalent(t) => {
                o.equivalent = Some(format!(
                    "proven: no input sequence after a reset tells it from the export \
                     (yosys miter, ABC pdr, {t:.1} s)"
                ))
            }
            prove::Proof::Differs(step) => {
                o.proof = Some(format!(
                    "reachable: an output differs in step {step} (ABC pdr)"
                ))
            }
            prove::Proof::Unknown(why) => o.proof = Some(why),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use testbench::lock_unit::LockUnitBoard;
    use testbench::unit::BoardUnit;

    /// The trace budget: 12 up to 6000 candidate faults, then one trace per 500 (rounded up),
    /// never smaller for a larger design; the front end's export gets more than a unit alone.
    #[test]
    fn trace_budget_grows_with_the_design() {
        assert_eq!(budget_traces(0), MIN_TRACES);
        assert_eq!(budget_traces(768), 12);
        assert_eq!(budget_traces(6000), 12);
        assert_eq!(budget_traces(6001), 13);
        assert_eq!(budget_traces(9073), 19);
        assert!((0..20_000).all(|f| budget_traces(f) <= budget_traces(f + 1)));
        let counts = site_counts(
            "gpu_frontend",
            &testbench::gpu_frontend::GpuFrontendBoard::verilog(),
        );
        let faults: usize = counts.iter().filter(|m| m.1).map(|m| m.3).sum();
        assert!(
            faults > 6000 && budget_traces(faults) > MIN_TRACES,
            "{faults} faults"
        );
        // the front end's budget is the default run's 10^6 cycles: 125 traces of 8000 cycles
        assert_eq!(faults_budget("gpu_frontend", &counts, 8000), 125);
        assert_eq!(unit_budget("gpu_frontend", 9073, 8000), 125);
        assert_eq!(unit_budget("dispatcher_tagged", 6017, 8000), 13);
        assert_eq!(unit_budget("lock_unit", 768, 8000), 12);
    }

    /// One schemata build of the lock unit with 9 random faults and a `grant` register bit
    /// stuck at 1: the unmutated design passes every check (`run_mutants` fails otherwise), the
    /// stuck bit is caught by lockstep, the spec checker and the invariants, and the report ends
    /// with the summary line.
    #[test]
    fn mutate_machinery_catches_a_broken_lock_unit() {
        if !verilator::tool_available("verilator") {
            return;
        }
        let v = LockUnitBoard::verilog();
        let sites = candidate_sites(LockUnitBoard::NAME, &v);
        let stuck = sites
            .iter()
            .flatten()
            .find(|m| m.what.starts_with("out_grant$d[") && m.what.ends_with("stuck at 1"))
            .expect("a stuck bit of the grant register")
            .clone();
        let mut mutants = pick(&sites, 9, 7);
        mutants.retain(|m| m.line != stuck.line);
        mutants.push(stuck.clone());
        mutants.sort_by_key(|m| m.line);
        let r = run_mutants::<LockUnitBoard>(
            &v,
            &mutants,
            &Options {
                count: mutants.len(),
                seed: 3,
                traces: Some(2),
                cycles: 3000,
                // the survivors' proof has its own test (`sub_module_tests`)
                prove_secs: 0,
            },
        )
        .unwrap();
        let (_, o) = r.mutants.iter().find(|(m, _)| m.id == stuck.id).unwrap();
        assert!(o.lockstep && o.spec && o.invariants, "{o:?}");
        let text = r.text();
        let last = text.lines().last().unwrap();
        let n = mutants.len();
        assert!(
            last.starts_with(&format!("mutants {n}, non-equivalent ")),
            "{last}"
        );
        eprintln!("{text}");
    }
}

#[cfg(test)]
mod sub_module_tests;

#[cfg(test)]
mod gpu_frontend_tests;
