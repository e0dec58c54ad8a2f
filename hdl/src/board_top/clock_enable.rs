//! The clock enable of a unit on the board: a checked text transform of the unit's exported
//! Verilog.
//!
//! RustHDL's `DFF`s have no enable and the units are written without one, so lockstep mode
//! (SPEC Unit 7: the unit's clock enable is high for exactly one cycle per `step`) gates the
//! exported text instead of the RTL: every module gets one more input, `board_ce`, passed down
//! to every instance, and every `always @(posedge <clk>) begin` becomes
//! `always @(posedge <clk>) if (board_ce) begin`. With `board_ce` low no register, no block-RAM
//! read register and no block-RAM write changes: exactly a stopped clock, without gating the
//! clock net (iCE40 flip-flops and block RAMs have enable inputs, so the gate costs no logic on
//! plain registers). The transform refuses any text it does not fully understand (a `negedge`,
//! an `always @(posedge` in another form, a module header or an instance split differently),
//! and the four-way lockstep through the simulated board checks the result cycle for cycle.

/// Gate every clocked process of an exported RustHDL design (top module `top`) with the new
/// input `board_ce` and rename the top to `new_top` (submodules `top$x` become `new_top$x`).
/// Returns the text and the number of gated processes.
pub fn gate_clock_enable(verilog: &str, new_top: &str) -> Result<(String, usize), String> {
    let modules: Vec<&str> = verilog
        .lines()
        .filter_map(|l| l.strip_prefix("module "))
        .map(|rest| rest.split('(').next().unwrap_or("").trim())
        .collect();
    if modules.iter().filter(|m| **m == "top").count() != 1 {
        return Err("the exported text must define exactly one module `top`".into());
    }
    let rename = |name: &str| -> String {
        match name.strip_prefix("top") {
            Some("") => new_top.to_string(),
            Some(rest) if rest.starts_with('$') => format!("{new_top}{rest}"),
            _ => name.to_string(),
        }
    };
    let mut out = String::with_capacity(verilog.len() + verilog.len() / 8);
    let (mut headers, mut instances, mut gated) = (0usize, 0usize, 0usize);
    for line in verilog.lines() {
        let t = line.trim();
        if let Some(rest) = line.strip_prefix("module ") {
            let (name, ports) = rest
                .split_once('(')
                .ok_or_else(|| format!("module header without ports: {line}"))?;
            let ports = ports
                .strip_suffix(");")
                .ok_or_else(|| format!("module header not on one line: {line}"))?;
            let sep = if ports.trim().is_empty() { "" } else { "," };
            out.push_str(&format!(
                "module {}({ports}{sep}board_ce);\n    input wire board_ce;\n",
                rename(name.trim())
            ));
            headers += 1;
            continue;
        }
        if t.ends_with('(') && !t.starts_with("always") {
            let mut words = t.split_whitespace();
            if let (Some(m), Some(inst), None) = (words.next(), words.next(), words.next()) {
                if modules.contains(&m) {
                    let indent = &line[..line.len() - line.trim_start().len()];
                    out.push_str(&format!("{indent}{} {inst}\n", rename(m)));
                    out.push_str(&format!("{indent}    .board_ce(board_ce),\n"));
                    instances += 1;
                    continue;
                }
            }
        }
        if t.contains("negedge") {
            return Err(format!("negedge process not supported: {line}"));
        }
        if t.contains("posedge") {
            let clk = t
                .strip_prefix("always @(posedge ")
                .and_then(|r| r.strip_suffix(") begin"))
                .filter(|c| {
                    c.chars()
                        .all(|ch| ch.is_alphanumeric() || ch == '_' || ch == '$')
                })
                .ok_or_else(|| format!("clocked process in an unexpected form: {line}"))?;
            let indent = &line[..line.len() - line.trim_start().len()];
            out.push_str(&format!(
                "{indent}always @(posedge {clk}) if (board_ce) begin\n"
            ));
            gated += 1;
            continue;
        }
        if let Some(rest) = t.strip_prefix("endmodule // ") {
            out.push_str(&format!("endmodule // {}\n", rename(rest)));
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    if headers != modules.len() {
        return Err("module header count mismatch".into());
    }
    if instances < modules.len() - 1 {
        return Err(format!(
            "{} submodules but only {instances} instances found: the instance form changed",
            modules.len() - 1
        ));
    }
    if gated == 0 {
        return Err("no clocked process found".into());
    }
    Ok((out, gated))
}

#[cfg(test)]
mod tests {
    use super::gate_clock_enable;

    const SAMPLE: &str = "module top(clock,a,q);\n    input wire clock;\n    input wire a;\n    output wire q;\n    top$r r(\n        .d(a),\n        .q(q),\n        .clock(clock)\n    );\nendmodule // top\n\nmodule top$r(d,q,clock);\n    input wire d;\n    output reg q;\n    input wire clock;\n    always @(posedge clock) begin\n       q <= d;\n    end\nendmodule // top$r\n";

    /// Every module gets the port, every instance the connection, every process the gate.
    #[test]
    fn gates_every_process_and_threads_the_enable() {
        let (v, n) = gate_clock_enable(SAMPLE, "unit_top").unwrap();
        assert_eq!(n, 1);
        assert!(v.contains("module unit_top(clock,a,q,board_ce);"));
        assert!(v.contains("module unit_top$r(d,q,clock,board_ce);"));
        assert_eq!(v.matches("input wire board_ce;").count(), 2);
        assert!(v.contains("    unit_top$r r(\n        .board_ce(board_ce),"));
        assert!(v.contains("always @(posedge clock) if (board_ce) begin"));
        assert!(!v.contains("    top$r r("), "instance renamed");
    }

    /// Forms the transform does not understand are refused, never passed through ungated.
    #[test]
    fn refuses_unknown_clocking() {
        let neg = SAMPLE.replace("posedge clock", "negedge clock");
        assert!(gate_clock_enable(&neg, "u").is_err());
        let odd = SAMPLE.replace(
            "always @(posedge clock) begin",
            "always @(posedge clock or posedge a) begin",
        );
        assert!(gate_clock_enable(&odd, "u").is_err());
        let split = SAMPLE.replace("module top$r(d,q,clock);", "module top$r(d,q,\nclock);");
        assert!(gate_clock_enable(&split, "u").is_err());
    }
}
