//! `synth mutate` on a toy two-module design in RustHDL's export shape (moved out of `mutate.rs`
//! unchanged).

use super::*;

/// A two-module design in RustHDL's export shape: `top` (logic) instantiates the logic
/// block `top$sub`, a flip-flop template `top$r` and a register with an initial value
/// `top$w` (wrapper around the template `top$w$dff`), plus a RAM template `top$mem`.
const TOY: &str = "
module top(clock,a,b,y);
    
    // Module arguments
    input wire  clock;
    input wire  [3:0] a;
    input wire  [3:0] b;
    output reg  [3:0] y;
    
    // Stub signals
    reg  [3:0] sub$x;
    wire  [3:0] sub$z;
    reg  [3:0] r$d;
    wire  [3:0] r$q;
    reg  r$clock;
    reg  [3:0] w$d;
    wire  [3:0] w$q;
    reg  w$clock;
    
    // Sub module instances
    top$sub sub(
        .x(sub$x),
        .z(sub$z)
    );
    top$r r(
        .d(r$d),
        .q(r$q),
        .clock(r$clock)
    );
    top$w w(
        .d(w$d),
        .q(w$q),
        .clock(w$clock)
    );
    
    // Update code
    always @(*) begin
        r$clock = clock;
        w$clock = clock;
        sub$x = a & b;
        r$d = sub$z;
        w$d = a;
        y = r$q ^ w$q;
    end
    
endmodule // top


module top$sub(x,z);
    
    // Module arguments
    input wire  [3:0] x;
    output reg  [3:0] z;
    
    // Stub signals
    reg  [3:0] r$q;
    reg  [3:0] w$q;
    reg  [3:0] y;
    
    // Update code
    always @(*) begin
        r$q = x;
        w$q = 4'h1;
        y = r$q ^ w$q;
        z = x;
        if (x == 4'h5) begin
            z = y | 4'h8;
        end
    end
    
endmodule // top$sub


module top$r(d,q,clock);
    
    // Module arguments
    input wire  [3:0] d;
    output reg  [3:0] q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 4'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // top$r


module top$w(d,q,clock);
    
    // Module arguments
    input wire  [3:0] d;
    output reg  [3:0] q;
    input wire  clock;
    
    // Constant declarations
    localparam  init = 4'h9;
    
    // Stub signals
    reg  [3:0] dff$d;
    wire  [3:0] dff$q;
    reg  dff$clock;
    
    // Sub module instances
    top$w$dff dff(
        .d(dff$d),
        .q(dff$q),
        .clock(dff$clock)
    );
    
    // Update code
    always @(*) begin
        dff$clock = clock;
        q = dff$q ^ init;
        dff$d = d ^ init;
    end
    
endmodule // top$w


module top$w$dff(d,q,clock);
    
    // Module arguments
    input wire  [3:0] d;
    output reg  [3:0] q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 4'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // top$w$dff


module top$mem(read_address,read_clock,read_data,write_address,write_clock,write_data,write_enable);
    
    // Module arguments
    input wire  [1:0] read_address;
    input wire  read_clock;
    output reg  [3:0] read_data;
    input wire  [1:0] write_address;
    input wire  write_clock;
    input wire  [3:0] write_data;
    input wire  write_enable;
    
    // Update code (custom)
    reg[3:0] mem[3:0];
    
    initial begin
    mem[2'h0] = 4'b0;
    end
    
    always @(posedge read_clock) begin
       read_data <= mem[read_address];
    end
    
    always @(posedge write_clock) begin
       if (write_enable) begin
          mem[write_address] <= write_data;
       end
    end
          
endmodule // top$mem
";

/// Sites come from `top` and `top$sub`, none from the primitives `top$r` (flip-flop
/// template), `top$w` (register wrapper with an initial value), `top$w$dff`, `top$mem`
/// (RAM template); `top`'s ids are those of `top` alone (the scheme of the recorded ids);
/// the line `y = r$q ^ w$q;`, present in both modules, is a different site in each.
#[test]
fn sites_come_from_every_module_holding_logic_not_from_primitives() {
    let lines: Vec<&str> = TOY.lines().collect();
    let logic: Vec<(String, bool)> = modules(&lines)
        .into_iter()
        .map(|m| (m.name, holds_logic(&lines[m.header + 1..m.end])))
        .collect();
    let want = [
        ("top", true),
        ("top$sub", true),
        ("top$r", false),
        ("top$w", false),
        ("top$w$dff", false),
        ("top$mem", false),
    ];
    assert_eq!(
        logic,
        want.map(|(n, l)| (n.to_string(), l)).to_vec(),
        "modules and whether each holds logic"
    );
    let sites: Vec<Mutant> = candidate_sites("toy", TOY).into_iter().flatten().collect();
    let of = |m: &str| sites.iter().filter(|x| x.module == m).count();
    assert!(of("top") > 0 && of("top$sub") > 0, "{sites:#?}");
    for prim in ["top$r", "top$w", "top$w$dff", "top$mem"] {
        assert_eq!(of(prim), 0, "no site in the primitive {prim}");
    }
    // the sub-module's `if` and its constant are sites
    assert!(sites
        .iter()
        .any(|x| x.module == "top$sub" && x.what == "if (x == 4'h5) inverted"));
    // top's ids do not depend on the other modules
    let alone = &TOY[..TOY.find("endmodule // top\n").unwrap() + 17];
    let top_ids: Vec<&str> = sites
        .iter()
        .filter(|x| x.module == "top")
        .map(|x| x.id.as_str())
        .collect();
    let alone_ids: Vec<String> = candidate_sites("toy", alone)
        .into_iter()
        .flatten()
        .map(|x| x.id)
        .collect();
    assert_eq!(top_ids, alone_ids);
    // ... and are the hash of `unit|kind|line#n|span|replacement`
    let swap = sites
        .iter()
        .find(|x| x.module == "top" && x.line_text.trim() == "sub$x = a & b;")
        .unwrap();
    assert_eq!(
        swap.id,
        format!(
            "{:016x}",
            fnv(&format!(
                "toy|operator swap|sub$x = a & b;#1|{}|{}|{}",
                swap.span.0, swap.span.1, swap.replacement
            ))
        )
    );
    // the same line in two modules: two sites, two ids
    let twin: Vec<&Mutant> = sites
        .iter()
        .filter(|x| x.line_text.trim() == "y = r$q ^ w$q;")
        .collect();
    assert_eq!(twin.len(), 2, "{twin:#?}");
    assert_ne!(twin[0].id, twin[1].id);
    let counts = site_counts("toy", TOY);
    assert_eq!(counts.len(), 6);
    assert_eq!((counts[1].1, counts[1].3), (true, of("top$sub")));
    assert!(counts[2..].iter().all(|c| !c.1 && c.2 == 0));
}

/// The toy's ports for a Verilator replay.
struct ToyPorts;
impl TracePorts for ToyPorts {
    type In = (u8, u8);
    type Out = u8;
    fn inputs(&self) -> Vec<Port> {
        vec![Port::new("a", 4), Port::new("b", 4)]
    }
    fn outputs(&self) -> Vec<Port> {
        vec![Port::new("y", 4)]
    }
    fn encode(&self, i: &(u8, u8)) -> Vec<u128> {
        vec![i.0 as u128, i.1 as u128]
    }
    fn decode(&self, v: &[u128]) -> u8 {
        v[0] as u8
    }
}

/// The schemata wires `mutant_sel` into `top$sub` (the module holding the mutant) and its
/// instance, not into the primitives; under Verilator, `mutant_sel = 0` is the original and
/// the sub-module's inverted condition changes the output.
#[test]
fn schemata_reaches_a_mutant_in_a_sub_module() {
    let sites = candidate_sites("toy", TOY);
    let m = sites
        .iter()
        .flatten()
        .find(|x| x.module == "top$sub" && x.kind == "inverted condition")
        .unwrap()
        .clone();
    let v = schemata(TOY, std::slice::from_ref(&m));
    assert!(v.contains("module top(mutant_sel,clock,a,b,y);\n    input wire [15:0] mutant_sel;"));
    assert!(v.contains("module top$sub(mutant_sel,x,z);\n    input wire [15:0] mutant_sel;"));
    assert!(v.contains("    top$sub sub(\n        .mutant_sel(mutant_sel),\n"));
    assert!(v.contains("module top$r(d,q,clock);") && v.contains("module top$w(d,q,clock);"));
    assert!(v.contains("    top$r r(\n        .d(r$d),"));
    if !verilator::tool_available("verilator") {
        eprintln!("SKIPPED: verilator missing (the schemata text was checked)");
        assert!(std::env::var("REQUIRE_EDA").is_err(), "REQUIRE_EDA=1");
        return;
    }
    let trace: Vec<(u8, u8)> = (0..256u32)
        .map(|k| ((k / 16) as u8, (k % 16) as u8))
        .collect();
    let run = |sel| {
        verilator::replay(
            &v,
            &SelPorts {
                inner: &ToyPorts,
                sel,
            },
            &trace,
        )
        .unwrap()
    };
    let (orig, mutated) = (run(0), run(1));
    // the toy by hand: y = r ^ w of the registers r = sub(a & b) (x, or (x ^ 1) | 8 when
    // x = 5), initially 0, and w = a, initially 9
    let mut want = vec![];
    let (mut r, mut w) = (0u8, 9u8);
    for &(a, b) in &trace {
        want.push(r ^ w);
        let x = a & b;
        r = if x == 5 { (x ^ 1) | 8 } else { x };
        w = a;
    }
    assert_eq!(orig, want, "mutant_sel = 0 is the original");
    assert_ne!(orig, mutated, "the sub-module's mutant changes the output");
}

/// A design in RustHDL's export shape for the survivors' proof: `r` keeps `a & 7`, so its bit 3
/// is 0 in every reachable state and `r$q == 4'h8` never holds.
const TOY_PROOF: &str = "
module top(clock,reset,a,y);
    
    // Module arguments
    input wire  clock;
    input wire  reset;
    input wire  [3:0] a;
    output reg  [3:0] y;
    
    // Stub signals
    reg  [3:0] r$d;
    wire  [3:0] r$q;
    reg  r$clock;
    
    // Sub module instances
    top$r r(
        .d(r$d),
        .q(r$q),
        .clock(r$clock)
    );
    
    // Update code
    always @(*) begin
        r$clock = clock;
        r$d = a & 4'h7;
        if (reset) begin
            r$d = 4'h0;
        end
        y = r$q;
        if (r$q == 4'h8) begin
            y = 4'h0;
        end
    end
    
endmodule // top


module top$r(d,q,clock);
    
    // Module arguments
    input wire  [3:0] d;
    output reg  [3:0] q;
    input wire  clock;
    
    // Update code (custom)
    initial begin
       q = 4'h0;
    end
    
    always @(posedge clock) begin
       q <= d;
    end
          
endmodule // top$r
";

/// The survivors' proof ([`prove`]): `r$q == 4'h8` → `4'h9` changes nothing (bit 3 of `r` is 0
/// in every reachable state: an invariant PDR must find, not a dead wire), so it is proven
/// equivalent; `a & 4'h7` → `a | 4'h7` reaches `y` a cycle later, so ABC finds the trace (step
/// 2 or later: step 1 is the forced reset). Needs yosys and yosys-abc.
#[test]
fn survivors_proof_tells_an_unreachable_fault_from_a_live_one() {
    if !testbench::verilator::tool_available("yosys")
        || !testbench::verilator::tool_available("yosys-abc")
    {
        return;
    }
    let sites: Vec<Mutant> = candidate_sites("toy", TOY_PROOF)
        .into_iter()
        .flatten()
        .collect();
    let pick = |line: &str, kind: &str| {
        sites
            .iter()
            .find(|m| m.line_text.trim() == line && m.kind == kind)
            .unwrap_or_else(|| panic!("a {kind} on `{line}`: {sites:#?}"))
            .clone()
    };
    let unreachable = pick("if (r$q == 4'h8) begin", "constant flip");
    let live = pick("r$d = a & 4'h7;", "operator swap");
    let v = schemata(TOY_PROOF, &[unreachable, live]);
    let ins = [Port::new("reset", 1), Port::new("a", 4)];
    let outs = [Port::new("y", 4)];
    let dir = std::env::temp_dir().join(format!("mutate-prove-toy-{}", std::process::id()));
    let p1 = prove::prove(&dir.join("unreachable"), &v, &ins, &outs, true, 1, 60);
    assert!(
        matches!(p1, prove::Proof::Equivalent(_)),
        "unreachable fault: {p1:?}"
    );
    let p2 = prove::prove(&dir.join("live"), &v, &ins, &outs, true, 2, 60);
    assert!(
        matches!(p2, prove::Proof::Differs(s) if s >= 2),
        "live fault: {p2:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
