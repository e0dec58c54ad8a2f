//! Formal checks on the exported Verilog with yosys `sat` (Debian's yosys, no other solver).
//!
//! The RTL is not changed: the proofs read the exported board-config Verilog and add their
//! assertions in generated text — a miter module around two finders, or an `always @*` block
//! of `assert`s appended to the body of the exported `top` (its internal registers are visible
//! there under their exported names).
//!
//! - `run_finder_tree_32_equals_exact_32`: the 32-block tree finder and the plain exact
//!   (shift-AND) finder give the same `max_run`, `fit_found` and `fit_start` for every map and
//!   every `need` — a miter, proven (combinational SAT over all 2^38 inputs).
//! - `lock_unit_properties_bounded`: SPEC Unit 1's invariants — at most one owner per lock
//!   (the one-hot owner vectors), no warp both waiting and owning, never `grant` and `deny` for
//!   one warp together, FIFO occupancy ≤ depth — hold in every state reachable from reset
//!   within the depth given (bounded model check: reset in step 1, any inputs after).
//!   k-induction over these four plus 30 strengthening assertions did not close within 6
//!   steps (it fails on an unreachable state), so the proof is bounded; see
//!   `docs/verification.md`.
//!
//! Each proof also runs a broken copy that must fail (so a proof is never vacuous). Seconds are
//! printed. Yosys missing: a loud skip, a failure under `REQUIRE_EDA=1`.

use std::path::PathBuf;
use std::process::Command;
use std::time::Instant;
use testbench::verilator::tool_available;

fn work_dir(name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("target")
        .join("formal")
        .join(name);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Run a yosys script in `dir`; (proof holds, log tail, seconds).
fn yosys(dir: &PathBuf, script: &str) -> (bool, String, f64) {
    let t = Instant::now();
    let out = Command::new("yosys")
        .current_dir(dir)
        .args(["-q", "-p", script])
        .output()
        .expect("running yosys");
    let log = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let tail: String = log
        .lines()
        .rev()
        .take(20)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect::<Vec<_>>()
        .join("\n");
    (out.status.success(), tail, t.elapsed().as_secs_f64())
}

fn finder_verilog<B: rust_hdl::prelude::Block + Default>(module: &str) -> String {
    use rust_hdl::prelude::*;
    let mut b = B::default();
    b.connect_all();
    generate_verilog(&b).replacen("module top(", &format!("module {module}("), 1)
}

#[test]
fn run_finder_tree_32_equals_exact_32() {
    if !tool_available("yosys") {
        return;
    }
    let dir = work_dir("tree32_miter");
    std::fs::write(
        dir.join("tree.v"),
        finder_verilog::<hdl::run_finder::Tree32>("tree32"),
    )
    .unwrap();
    std::fs::write(
        dir.join("exact.v"),
        finder_verilog::<hdl::run_finder::Exact32>("exact32"),
    )
    .unwrap();
    let miter = |claim: &str| {
        format!(
            "module miter(input [31:0] bits, input [5:0] need);\n\
             wire [5:0] m1, m2; wire f1, f2; wire [4:0] s1, s2;\n\
             tree32 t(.bits(bits), .need(need), .max_run(m1), .fit_found(f1), .fit_start(s1));\n\
             exact32 e(.bits(bits), .need(need), .max_run(m2), .fit_found(f2), .fit_start(s2));\n\
             always @* begin\n{claim}\nend\nendmodule\n"
        )
    };
    let script = "read_verilog tree.v exact.v; read_verilog -formal miter.sv; prep -top miter; \
                  flatten; opt -fast; sat -prove-asserts -verify";
    std::fs::write(
        dir.join("miter.sv"),
        miter("assert (m1 == m2); assert (f1 == f2); assert (s1 == s2);"),
    )
    .unwrap();
    let (ok, log, secs) = yosys(&dir, script);
    assert!(ok, "tree32 != exact32:\n{log}");
    eprintln!("formal: tree32 == exact32 proven (all maps, all needs) in {secs:.1} s");
    // not vacuous: a false claim about the same netlists must fail (0xf0f0 has runs of 4)
    std::fs::write(
        dir.join("miter.sv"),
        miter("assert (bits != 32'h0000_f0f0 || m1 == 6'd3);"),
    )
    .unwrap();
    let (ok, _, secs) = yosys(&dir, script);
    assert!(!ok, "a false claim (max_run of 0xf0f0 is 3) was proven");
    eprintln!("formal: the false claim fails as it must ({secs:.1} s)");
}

/// The exported board lock unit with SPEC's invariants as `assert`s in its body.
fn lock_unit_with_asserts(extra: &str) -> String {
    use golden_model::lock_unit::LockConfig;
    let c = LockConfig::board();
    let (w, l, d) = (c.warps, c.locks, c.fifo_depth);
    let v = hdl::lock_unit::verilog(hdl::lock_unit::BoardLockUnit::default());
    let onehot0 = |x: String| format!("(({x} & ({x} - 1)) == 0)");
    // The assertions name the RTL's flip-flops; a renamed one would become an implicit,
    // undriven net (and make the check meaningless), so every name must exist in the export.
    let regs = (0..l)
        .map(|k| format!("lock_owner${k}$q"))
        .chain((0..w).map(|k| format!("wait_lock${k}$q")))
        .chain(["out_grant$q", "out_deny$q", "fifo_count$q"].map(String::from));
    for r in regs {
        assert!(
            v.contains(&format!(" {r};")) || v.contains(&format!("] {r};")),
            "the lock unit's export has no register `{r}` (renamed?): update the formal wrapper"
        );
    }
    let mut a = vec![
        "    // ---- SPEC Unit 1 invariants (generated for the formal check)".to_string(),
        format!("    reg [{}:0] f_owns, f_wait;", w - 1),
        "    always @* begin".to_string(),
        format!(
            "        f_owns = {};",
            (0..l)
                .map(|k| format!("lock_owner${k}$q"))
                .collect::<Vec<_>>()
                .join(" | ")
        ),
        format!(
            "        f_wait = {{{}}};",
            (0..w)
                .rev()
                .map(|k| format!("|wait_lock${k}$q"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    ];
    for k in 0..l {
        a.push(format!(
            "        assert {}; // lock {k}: at most one owner",
            onehot0(format!("lock_owner${k}$q"))
        ));
    }
    a.push("        assert ((f_wait & f_owns) == 0); // never waiting and owning".into());
    a.push("        assert ((out_grant$q & out_deny$q) == 0); // never grant and deny".into());
    a.push(format!(
        "        assert (fifo_count$q <= {d}); // FIFO occupancy <= depth"
    ));
    a.push(extra.to_string());
    a.push("    end".into());
    let at = v.find("endmodule // top\n").expect("end of top");
    format!("{}{}\n{}", &v[..at], a.join("\n"), &v[at..])
}

#[test]
fn lock_unit_properties_bounded() {
    if !tool_available("yosys") {
        return;
    }
    let depth: usize = std::env::var("FORMAL_DEPTH")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(6);
    let dir = work_dir("lock_unit_bmc");
    let script = |steps: usize| {
        format!(
            "read_verilog -formal lock.v; prep -top top; flatten; opt -fast; \
             sat -seq {steps} -set-at 1 reset 1 -set-init-zero -set-def-inputs \
             -prove-asserts -prove-skip 1 -verify"
        )
    };
    std::fs::write(dir.join("lock.v"), lock_unit_with_asserts("")).unwrap();
    let (ok, log, secs) = yosys(&dir, &script(depth));
    assert!(
        ok,
        "a lock-unit invariant fails within {depth} cycles of reset:\n{log}"
    );
    eprintln!(
        "formal: lock unit invariants hold in every state reachable within {depth} cycles of reset ({secs:.1} s)"
    );
    // not vacuous: "no grant ever" must fail (a free acquire is granted in cycle 3)
    std::fs::write(
        dir.join("lock.v"),
        lock_unit_with_asserts("        assert (out_grant$q == 0);"),
    )
    .unwrap();
    let (ok, _, secs) = yosys(&dir, &script(4));
    assert!(
        !ok,
        "'no grant ever' was proven: the bounded check is vacuous"
    );
    eprintln!("formal: the false claim 'no grant ever' fails as it must ({secs:.1} s)");
}
