//! Unique Verilog names (SPEC §0): `synth export`'s files can all sit in one design.
//!
//! The files `synth::export::export` writes (every unit's board config and every run-finder form)
//! are read into one design whose top instantiates each unit by its own name, with
//! `GPU_SCHED_NO_TOP` defined; that design must pass yosys' checks and Verilator's lint. Without
//! the define every file still offers `module top` with the export contract's ports.

use std::path::PathBuf;
use std::process::Command;
use synth::flow::{module_ports, top_ports, PortDecl};
use synth::names::{module_names, NO_TOP_DEFINE};
use testbench::eda::tool_available;

/// The export of every unit, written once per test binary to a fresh directory.
fn exports() -> &'static (PathBuf, Vec<synth::export::Exported>) {
    static EXPORTS: std::sync::OnceLock<(PathBuf, Vec<synth::export::Exported>)> =
        std::sync::OnceLock::new();
    EXPORTS.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("gpu_sched_exports_{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let e = synth::export::export(&dir).expect("synth export");
        (dir, e)
    })
}

/// One design: every export with the define, and `module top` instantiating each unit with its
/// ports brought out as `<unit>__<port>`.
fn combined(units: &[synth::export::Exported]) -> String {
    let mut v = format!("`define {NO_TOP_DEFINE}\n");
    let mut ports: Vec<(String, PortDecl)> = vec![];
    let mut body = String::new();
    for u in units {
        v.push_str(&u.verilog);
        v.push('\n');
        let p = module_ports(&u.verilog, &u.unit).unwrap();
        let conns: Vec<String> = p
            .iter()
            .map(|p| format!("        .{0}({1}__{0})", p.name, u.unit))
            .collect();
        body += &format!("    {0} {0}_i(\n{1}\n    );\n", u.unit, conns.join(",\n"));
        ports.extend(p.into_iter().map(|p| (u.unit.clone(), p)));
    }
    let names: Vec<String> = ports
        .iter()
        .map(|(u, p)| format!("{u}__{}", p.name))
        .collect();
    v += &format!("module top({});\n", names.join(","));
    for (u, p) in &ports {
        let range = if p.width > 1 {
            format!(" [{}:0]", p.width - 1)
        } else {
            String::new()
        };
        v += &format!("    {} wire{range} {u}__{};\n", p.dir, p.name);
    }
    v += &body;
    v += "endmodule // top\n";
    v
}

#[test]
fn every_export_has_unit_named_modules_and_the_top_alias() {
    let (dir, units) = exports();
    // every registered unit, and the run-finder forms
    let mut expected = testbench::unit::names();
    expected.push("run_finder_tree_128");
    for s in expected {
        assert!(units.iter().any(|u| u.unit == s), "{s} is exported");
    }
    let raws = synth::export::units();
    let mut all = std::collections::BTreeSet::new();
    for u in units {
        let names = module_names(&u.verilog);
        assert_eq!(
            names.first(),
            Some(&u.unit),
            "{}: unit module first",
            u.unit
        );
        assert_eq!(
            names.last().map(String::as_str),
            Some("top"),
            "{}: alias last",
            u.unit
        );
        for m in &names[..names.len() - 1] {
            assert!(
                m == &u.unit || m.starts_with(&format!("{}$", u.unit)),
                "{}: module {m} lacks the unit prefix",
                u.unit
            );
            assert!(all.insert(m.clone()), "module {m} defined by two exports");
        }
        // the alias keeps the contract: the ports of the in-process export, in order
        assert_eq!(
            top_ports(&u.verilog).unwrap(),
            module_ports(&u.verilog, &u.unit).unwrap(),
            "{}: alias ports",
            u.unit
        );
        let raw = &raws.iter().find(|r| r.0 == u.unit).unwrap().1;
        assert_eq!(
            top_ports(raw).unwrap(),
            top_ports(&u.verilog).unwrap(),
            "{}: ports as before the rename",
            u.unit
        );
        let header = |v: &str| {
            v.lines()
                .find(|l| l.starts_with("module top("))
                .unwrap()
                .to_string()
        };
        assert_eq!(header(raw), header(&u.verilog), "{}: port order", u.unit);
        // the files on disk are the text checked here, with a core file beside each
        assert_eq!(std::fs::read_to_string(&u.file).unwrap(), u.verilog);
        let core = std::fs::read_to_string(dir.join(format!("{}.core", u.unit))).unwrap();
        assert!(core.contains(&format!("toplevel: {}\n", u.unit)));
    }
    let manifest = std::fs::read_to_string(dir.join("manifest.json")).unwrap();
    for u in units {
        assert!(
            manifest.contains(&format!(
                "\"unit\": \"{0}\",\n    \"file\": \"{0}.v\",\n    \"top\": \"top\",\n    \"module\": \"{0}\",",
                u.unit
            )),
            "{}: manifest entry",
            u.unit
        );
    }
}

#[test]
fn all_exports_in_one_design_pass_yosys_checks() {
    if !tool_available("yosys") {
        return;
    }
    let (dir, units) = exports();
    let v = combined(units);
    // One yosys run on the files themselves: `check -assert` on the elaborated design, and its
    // log scanned for what RustHDL's `yosys_validate` refuses (re-definitions, implicit wires,
    // latches, undriven wires; its read/hierarchy/proc is this run's first half, so running it
    // as well only doubled the test's time on the ~10 MB of Verilog)
    let mut script = format!("read_verilog -D{NO_TOP_DEFINE}");
    for u in units {
        script += &format!(" {}", u.file.file_name().unwrap().to_string_lossy());
    }
    let top_body = &v[v.rfind("module top(").unwrap()..];
    std::fs::write(dir.join("all_top.v"), top_body).unwrap();
    script += " all_top.v; hierarchy -check -top top; proc; opt_clean; check -assert";
    let (ok, log) = testbench::eda::run_in(dir, "yosys", &["-p", &script]);
    assert!(ok, "yosys check on all exports failed:\n{log}");
    for refused in [
        "Re-definition of",
        "implicitly declared",
        "Latch inferred for",
        "is used but has no driver",
        "is not part of the design",
    ] {
        let line = log.lines().find(|l| l.contains(refused));
        assert!(line.is_none(), "yosys on all exports: {}", line.unwrap());
    }
    // without the define the aliases collide: the guard is what makes the design legal
    let mut clash = Command::new("yosys");
    clash.current_dir(dir).args([
        "-q",
        "-p",
        "read_verilog lock_unit.v simt_issue.v; hierarchy -check -top top",
    ]);
    assert!(
        !clash.output().unwrap().status.success(),
        "two `top` aliases must not read together"
    );
    // one file alone: the alias is the top a contract bench drives
    let script = "read_verilog simt_issue.v; hierarchy -check -top top; proc; check -assert";
    let (ok, log) = testbench::eda::run_in(dir, "yosys", &["-q", "-p", script]);
    assert!(ok, "{log}");
}

#[test]
fn all_exports_in_one_design_pass_verilator_lint() {
    if !tool_available("verilator") {
        return;
    }
    let (_dir, units) = exports();
    let w = testbench::verilator::lint(&combined(units)).expect("running verilator");
    assert!(!w.contains('%'), "verilator lint findings:\n{w}");
}
