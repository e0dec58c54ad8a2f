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
//! - `dispatcher_allocation_bounded`: SPEC Unit 3's allocation invariants on the board
//!   dispatcher, bounded from reset (reset in step 1, every input free after, reset included).
//!   A shadow of the in-flight table (flip-flops written exactly as the table's block RAM, and
//!   its read-out register) is appended to `top`; asserted in every step: every used map
//!   (`vgpr_used`, `sgpr_used`, `lds_used`) equals the union of the live allocations (busy slots
//!   plus the entry being freed), live allocations of one module are pairwise disjoint in every
//!   map, each unit's wave-slot counter `slots_used` equals the sum of the live allocations'
//!   waves and is ≤ 4, and every committed region (the record's) is free in the maps, inside
//!   the map, on a slot neither busy nor being freed. The RTL keeps no VGPR / SGPR / LDS free
//!   counters (the policy scorer takes a popcount of the maps); `slots_used` is the one counter.
//!   `FORMAL_DISPATCH_DEPTH` sets the depth.
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

/// The exported board dispatcher with a shadow of its in-flight table (flip-flops, written
/// exactly as the block RAM is) and the allocation invariants as `assert`s in its body.
fn dispatcher_with_asserts(extra: &str) -> String {
    let v = hdl::dispatcher::verilog();
    let slots = 8;
    let mut a = vec![
        "    // ---- formal: shadow of the in-flight table (generated for the formal check)"
            .to_string(),
        format!(
            "    reg [70:0] {};",
            (0..slots)
                .map(|s| format!("f_tab{s}"))
                .collect::<Vec<_>>()
                .join(", ")
        ),
        "    reg [70:0] f_rd; // what the table RAM reads out (the completed slot's entry)".into(),
        "    reg [2:0] f_fslot; // the slot completed at the last edge".into(),
        "    always @(posedge clock) begin".into(),
    ];
    for s in 0..slots {
        a.push(format!(
            "        if (inflight_table$write_enable && inflight_table$write_address == {s}) f_tab{s} <= inflight_table$write_data;"
        ));
    }
    a.push("        case (done_slot)".into());
    for s in 0..slots {
        a.push(format!("            {s}: f_rd <= f_tab{s};"));
    }
    a.push("        endcase".into());
    a.push("        f_fslot <= done_slot;".into());
    a.push("    end".into());
    // entries: the 8 slots (live while busy) and the entry being freed (live while
    // free_from_table: its blocks are still in the maps)
    let mut ents: Vec<(String, String)> = (0..slots)
        .map(|s| (format!("slot_busy$q[{s}]"), format!("f_tab{s}")))
        .collect();
    ents.push(("free_from_table$q".into(), "f_rd".into()));
    let fields = [
        ("vgpr", 0usize, 16usize),
        ("vgpr", 16, 16),
        ("sgpr", 32, 8),
        ("sgpr", 40, 8),
        ("lds", 48, 16),
    ];
    a.push("    reg [15:0] f_vgpr0, f_vgpr1, f_vgpr2, f_vgpr3, f_lds0, f_lds1;".into());
    a.push("    reg [7:0] f_sgpr0, f_sgpr1, f_sgpr2, f_sgpr3;".into());
    a.push("    reg [4:0] f_waves0, f_waves1, f_waves2, f_waves3;".into());
    a.push("    always @* begin".into());
    for k in 0..4 {
        a.push(format!(
            "        f_vgpr{k} = 0; f_sgpr{k} = 0; f_waves{k} = 0;"
        ));
    }
    a.push("        f_lds0 = 0; f_lds1 = 0;".into());
    // union of the live entries' masks and sum of their waves, per (module, unit)
    for (live, e) in &ents {
        for m in 0..2 {
            let mut body = vec![];
            for u in 0..2 {
                let k = m * 2 + u;
                body.push(format!(
                    "f_vgpr{k} = f_vgpr{k} | {e}[{}:{}];",
                    16 * u + 15,
                    16 * u
                ));
                body.push(format!(
                    "f_sgpr{k} = f_sgpr{k} | {e}[{}:{}];",
                    32 + 8 * u + 7,
                    32 + 8 * u
                ));
                body.push(format!(
                    "f_waves{k} = f_waves{k} + {e}[{}:{}];",
                    64 + 3 * u + 2,
                    64 + 3 * u
                ));
            }
            body.push(format!("f_lds{m} = f_lds{m} | {e}[63:48];"));
            a.push(format!(
                "        if ({live} && {e}[70] == {m}) begin {} end",
                body.join(" ")
            ));
        }
    }
    a.push(
        "        // (b) the used maps are exactly the union of the live allocations; the".into(),
    );
    a.push(
        "        // wave-slot counters equal the sum of the live allocations' waves (<= 4)".into(),
    );
    for k in 0..4 {
        a.push(format!("        assert (vgpr_used${k}$q == f_vgpr{k});"));
        a.push(format!("        assert (sgpr_used${k}$q == f_sgpr{k});"));
        a.push(format!(
            "        assert ({{2'b0, slots_used${k}$q}} == f_waves{k});"
        ));
        a.push(format!("        assert (f_waves{k} <= 4);"));
    }
    a.push("        assert (lds_used$0$q == f_lds0); assert (lds_used$1$q == f_lds1);".into());
    a.push("        // (a) no block in two live allocations (pairwise disjoint per module)".into());
    for i in 0..ents.len() {
        for j in i + 1..ents.len() {
            let ((li, ei), (lj, ej)) = (&ents[i], &ents[j]);
            let disj = fields
                .iter()
                .map(|(_, lo, w)| {
                    format!("(({ei}[{h}:{lo}] & {ej}[{h}:{lo}]) == 0)", h = lo + w - 1)
                })
                .collect::<Vec<_>>()
                .join(" && ");
            a.push(format!(
                "        assert (!({li} && {lj} && {ei}[70] == {ej}[70]) || ({disj}));"
            ));
        }
    }
    a.push(
        "        // the slot being freed is not busy again; the committed slot is neither".into(),
    );
    a.push("        assert (!free_from_table$q || !slot_busy$q[f_fslot]);".into());
    a.push("        if (pend_valid$q) begin".into());
    a.push("            assert (!slot_busy$q[pend_slot$q]);".into());
    a.push("            assert (!(free_from_table$q && f_fslot == pend_slot$q));".into());
    // (a) every committed region (= the record's) is free in the maps and inside them
    for m in 0..2 {
        a.push(format!("            if (pend_module$q == {m}) begin"));
        for u in 0..2 {
            let k = m * 2 + u;
            a.push(format!(
                "                assert ((commit_vgpr_region${u} & vgpr_used${k}$q) == 0);"
            ));
            a.push(format!(
                "                assert ((commit_sgpr_region${u} & sgpr_used${k}$q) == 0);"
            ));
            a.push(format!(
                "                assert ({{2'b0, slots_used${k}$q}} + pend_waves${u}$q <= 4);"
            ));
        }
        a.push(format!(
            "                assert ((commit_lds_region & lds_used${m}$q) == 0);"
        ));
        a.push("            end".into());
    }
    for u in 0..2 {
        a.push(format!("            assert (({{16'b0, pend_need_vgpr${u}$q}} << commit_vgpr_base${u}) == {{16'b0, commit_vgpr_region${u}}});"));
        a.push(format!("            assert (({{8'b0, pend_need_sgpr${u}$q}} << commit_sgpr_base${u}) == {{8'b0, commit_sgpr_region${u}}});"));
    }
    a.push("            assert (({16'b0, pend_need_lds$q} << commit_lds_base) == {16'b0, commit_lds_region});".into());
    a.push("        end".into());
    a.push(extra.to_string());
    a.push("    end".into());
    let at = v.find("endmodule // top\n").expect("end of top");
    format!("{}{}\n{}", &v[..at], a.join("\n"), &v[at..])
}

#[test]
fn dispatcher_allocation_bounded() {
    if !tool_available("yosys") {
        return;
    }
    let depth: usize = std::env::var("FORMAL_DISPATCH_DEPTH")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(7);
    let dir = work_dir("dispatcher_bmc");
    let script = |steps: usize| {
        format!(
            "read_verilog -formal disp.v; prep -top top; flatten; memory_map; opt -fast; \
             sat -seq {steps} -set-at 1 reset 1 -set-init-zero -set-def-inputs \
             -prove-asserts -prove-skip 1 -verify"
        )
    };
    std::fs::write(dir.join("disp.v"), dispatcher_with_asserts("")).unwrap();
    let (ok, log, secs) = yosys(&dir, &script(depth));
    assert!(
        ok,
        "a dispatcher allocation invariant fails within {depth} cycles of reset:\n{log}"
    );
    eprintln!(
        "formal: dispatcher allocation invariants hold in every state reachable within {depth} cycles of reset ({secs:.1} s)"
    );
    std::fs::write(
        dir.join("disp.v"),
        dispatcher_with_asserts("        assert (!out_valid$q); // false: no dispatch ever"),
    )
    .unwrap();
    let (ok, _, secs) = yosys(&dir, &script(7));
    assert!(
        !ok,
        "'no dispatch ever' was proven: the bounded check is vacuous"
    );
    eprintln!("formal: the false claim 'no dispatch ever' fails as it must ({secs:.1} s)");
}
