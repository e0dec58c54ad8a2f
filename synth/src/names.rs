//! Unique Verilog names (SPEC §0): the one place where an export gets its unit's name.
//!
//! RustHDL names every exported top `top` and its submodules `top$<path>`, so two units cannot
//! sit in one design. [`unique`] renames the top to the unit (`module lock_unit(`) and every
//! submodule to `<unit>$<path>`, and appends a thin alias `module top` with the same ports in the
//! same order (pure wiring, no logic, same cycle timing) inside
//!
//! ```verilog
//! `ifndef GPU_SCHED_NO_TOP
//! module top(...);  lock_unit unit(...);  endmodule
//! `endif
//! ```
//!
//! `build/<unit>.v` therefore still offers `module top` to the outside benches that drive it (a
//! contract), and a design holding several exports defines `GPU_SCHED_NO_TOP` once (yosys
//! `read_verilog -DGPU_SCHED_NO_TOP`, Verilator `-DGPU_SCHED_NO_TOP`; the FuseSoC core files set
//! it) and instantiates the units by name. `synth export` calls [`unique`] for every file it
//! writes and nothing else renames; the in-process RustHDL exports that the tests and the board
//! flow use (`hdl::<unit>::verilog()`) keep `module top`.
//!
//! The rename is structural, not textual: only module headers, instance lines and `endmodule //`
//! comments change, so a signal that happens to be called `top` or `top$q` is left alone. Text in
//! a form the transform does not know (a header split over lines, a submodule not named
//! `top$…`, a submodule never instantiated) is refused with an error.

use anyhow::{bail, ensure, Result};

/// The define that leaves out the `top` alias of every export.
pub const NO_TOP_DEFINE: &str = "GPU_SCHED_NO_TOP";

/// Is `name` usable as a unit (module-name) prefix: a Verilog identifier of lower-case letters,
/// digits and `_`, starting with a letter, not `top`?
pub fn valid_unit_name(name: &str) -> bool {
    name != "top"
        && name.starts_with(|c: char| c.is_ascii_lowercase())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// Module names defined in `verilog` (one per `module NAME(` line at column 0), in order.
pub fn module_names(verilog: &str) -> Vec<String> {
    verilog
        .lines()
        .filter_map(|l| l.strip_prefix("module "))
        .map(|rest| rest.split('(').next().unwrap_or("").trim().to_string())
        .collect()
}

/// Rename a RustHDL export (top `top`, submodules `top$…`) to `unit` / `unit$…` and append the
/// `top` alias (see the module doc).
pub fn unique(unit: &str, verilog: &str) -> Result<String> {
    ensure!(
        valid_unit_name(unit),
        "`{unit}` is not a unit name (lower-case letters, digits, `_`; not `top`)"
    );
    let modules = module_names(verilog);
    ensure!(
        modules.iter().filter(|m| *m == "top").count() == 1,
        "the exported text must define exactly one module `top` (found: {modules:?})"
    );
    if let Some(m) = modules
        .iter()
        .find(|m| *m != "top" && !m.starts_with("top$"))
    {
        bail!("submodule `{m}` is not named `top$…`: it would not get the unit's prefix");
    }
    let rename = |name: &str| -> Option<String> {
        match name.strip_prefix("top") {
            Some("") => Some(unit.to_string()),
            Some(rest) if rest.starts_with('$') => Some(format!("{unit}{rest}")),
            _ => None,
        }
    };
    let mut out = String::with_capacity(verilog.len() + 4096);
    let mut instantiated = std::collections::BTreeSet::new();
    let mut header = None;
    for line in verilog.lines() {
        if let Some(rest) = line.strip_prefix("module ") {
            let (name, ports) = rest
                .split_once('(')
                .ok_or_else(|| anyhow::anyhow!("module header without ports: {line}"))?;
            ensure!(
                ports.trim_end().ends_with(");"),
                "module header not on one line: {line}"
            );
            let name = name.trim();
            if name == "top" {
                header = Some(ports.trim_end().trim_end_matches(");").to_string());
            }
            out.push_str(&format!(
                "module {}({ports}\n",
                rename(name).expect("checked above")
            ));
            continue;
        }
        let t = line.trim();
        if t.ends_with('(') && !t.starts_with("always") {
            let mut words = t.split_whitespace();
            if let (Some(m), Some(inst), None) = (words.next(), words.next(), words.next()) {
                if modules.iter().any(|x| x == m) {
                    let indent = &line[..line.len() - line.trim_start().len()];
                    out.push_str(&format!(
                        "{indent}{} {inst}\n",
                        rename(m).expect("a module")
                    ));
                    instantiated.insert(m.to_string());
                    continue;
                }
            }
        }
        if let Some(m) = t.strip_prefix("endmodule // ") {
            if let Some(n) = rename(m) {
                out.push_str(&format!("endmodule // {n}\n"));
                continue;
            }
        }
        out.push_str(line);
        out.push('\n');
    }
    if let Some(m) = modules
        .iter()
        .find(|m| *m != "top" && !instantiated.contains(*m))
    {
        bail!("submodule `{m}` is never instantiated in a form the rename knows");
    }
    let header = header.expect("one module top");
    out.push_str(&alias(unit, &header, verilog)?);
    Ok(out)
}

/// The `top` alias: `header` is the port list of the original `module top(`; the declarations
/// are taken from the original text (first occurrence after the header).
fn alias(unit: &str, header: &str, verilog: &str) -> Result<String> {
    let names: Vec<&str> = header
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect();
    let ports = crate::flow::module_ports(verilog, "top")?;
    ensure!(
        ports.len() == names.len(),
        "module top: {} ports in the header, {} declared",
        names.len(),
        ports.len()
    );
    let mut s = format!(
        "\n`ifndef {NO_TOP_DEFINE}\n// The export's contract name: a thin alias of `{unit}` (same ports, no logic). Define\n// {NO_TOP_DEFINE} to leave it out when several exports share one design.\nmodule top({});\n",
        names.join(",")
    );
    for n in &names {
        let p = ports
            .iter()
            .find(|p| p.name == *n)
            .ok_or_else(|| anyhow::anyhow!("port `{n}` of module top is not declared"))?;
        let range = if p.width > 1 {
            format!(" [{}:0]", p.width - 1)
        } else {
            String::new()
        };
        s += &format!("    {} wire{range} {};\n", p.dir, p.name);
    }
    let conns: Vec<String> = names.iter().map(|n| format!("        .{n}({n})")).collect();
    s += &format!(
        "    {unit} unit(\n{}\n    );\nendmodule // top\n`endif\n",
        conns.join(",\n")
    );
    Ok(s)
}

/// FuseSoC CAPI2 core file for one export `<unit>.v` (core `gpu-sched-rtl:units:<unit>`):
/// toplevel the unit-named module, `GPU_SCHED_NO_TOP` defined (a Verilog define parameter, on
/// by default), a `lint` target for Verilator with the project's lint waivers (RustHDL writes
/// every literal 32 bits wide; see `testbench::verilator::lint`).
pub fn capi2_core(unit: &str, file: &str, description: &str) -> String {
    let description = description.replace('"', "'");
    format!(
        "CAPI=2:\n\
         # Written by `synth export` (gpu-sched-rtl); do not edit.\n\
         name: gpu-sched-rtl:units:{unit}:{version}\n\
         description: \"{description}\"\n\
         \n\
         filesets:\n\
         \x20 rtl:\n\
         \x20   files:\n\
         \x20     - {file}\n\
         \x20   file_type: verilogSource\n\
         \n\
         parameters:\n\
         \x20 {NO_TOP_DEFINE}:\n\
         \x20   datatype: bool\n\
         \x20   paramtype: vlogdefine\n\
         \x20   default: true\n\
         \x20   description: leave out the `top` alias so that several units share one design\n\
         \n\
         targets:\n\
         \x20 default:\n\
         \x20   filesets: [rtl]\n\
         \x20   parameters: [{NO_TOP_DEFINE}]\n\
         \x20   toplevel: {unit}\n\
         \x20 lint:\n\
         \x20   default_tool: verilator\n\
         \x20   filesets: [rtl]\n\
         \x20   parameters: [{NO_TOP_DEFINE}]\n\
         \x20   toplevel: {unit}\n\
         \x20   tools:\n\
         \x20     verilator:\n\
         \x20       mode: lint-only\n\
         \x20       verilator_options: [-Wall, -Wno-WIDTH, -Wno-UNUSED, -Wno-DECLFILENAME]\n",
        version = env!("CARGO_PKG_VERSION"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const SAMPLE: &str = "\n\nmodule top(clock,a,q);\n    \n    // Module arguments\n    input wire clock;\n    input wire [2:0] a;\n    output reg q;\n    \n    // a signal that happens to be called top$q\n    reg top$q;\n    top$r r(\n        .d(a[0]),\n        .q(q),\n        .clock(clock)\n    );\nendmodule // top\n\n\nmodule top$r(d,q,clock);\n    input wire d;\n    output reg q;\n    input wire clock;\n    always @(posedge clock) begin\n       q <= d;\n    end\nendmodule // top$r\n";

    #[test]
    fn renames_modules_and_instances_not_signals() {
        let v = unique("unit_a", SAMPLE).unwrap();
        assert_eq!(
            module_names(&v),
            ["unit_a", "unit_a$r", "top"],
            "unit, prefixed submodule, alias"
        );
        assert!(v.contains("    unit_a$r r(\n"));
        assert!(v.contains("endmodule // unit_a$r\n"));
        assert!(v.contains("    reg top$q;\n"), "signals keep their names");
        // the alias: same header, declarations, one instance, inside the define guard
        let alias = &v[v.find("`ifndef GPU_SCHED_NO_TOP").unwrap()..];
        assert!(alias.contains("module top(clock,a,q);\n    input wire clock;\n    input wire [2:0] a;\n    output wire q;\n    unit_a unit(\n        .clock(clock),\n        .a(a),\n        .q(q)\n    );\nendmodule // top\n`endif\n"));
        assert_eq!(
            crate::flow::module_ports(&v, "top").unwrap(),
            crate::flow::module_ports(SAMPLE, "top").unwrap()
        );
        assert_eq!(
            crate::flow::module_ports(&v, "unit_a").unwrap(),
            crate::flow::module_ports(SAMPLE, "top").unwrap()
        );
    }

    #[test]
    fn refuses_text_it_does_not_know() {
        assert!(unique("top", SAMPLE).is_err(), "unit named top");
        assert!(unique("Lock", SAMPLE).is_err(), "not lower case");
        assert!(unique("u", &SAMPLE.replace("top$r", "other")).is_err());
        assert!(unique("u", &SAMPLE.replace("    top$r r(", "    top$r r (")).is_err());
        assert!(unique(
            "u",
            &SAMPLE.replace("module top(clock,a,q);", "module top(clock,\na,q);")
        )
        .is_err());
        assert!(unique("u", "module m(a);\nendmodule\n").is_err());
    }

    #[test]
    fn core_file_names_the_unit() {
        let c = capi2_core("lock_unit", "lock_unit.v", "a \"lock\"");
        assert!(c.starts_with("CAPI=2:\n"));
        assert!(c.contains("name: gpu-sched-rtl:units:lock_unit:"));
        assert!(c.contains("      - lock_unit.v\n"));
        assert!(c.contains("    toplevel: lock_unit\n"));
        assert!(c.contains("description: \"a 'lock'\""));
    }
}
