//! Replay of recorded input traces on exported Verilog under Verilator.
//!
//! For each exported file a small C++ harness is generated from the unit's port list
//! ([`TracePorts`]), built once with `verilator --cc --exe --build`, and cached by a content hash
//! of the Verilog and the harness under `target/verilator-cache/`. The harness reads fixed-size
//! binary input frames (each port little-endian in `ceil(width/8)` bytes, in port order) in
//! batches from stdin; per frame it drives the inputs with the clock low, evaluates, writes an
//! output frame (the outputs seen before the edge — the golden model's convention), then raises
//! the clock. The Debian package ships Verilator 5.006, too old for the `marlin` crate (≥ 5.025).

pub use crate::eda::tool_available;
use anyhow::{anyhow, bail, Context, Result};
use std::fmt::Write as _;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// One port of the exported top module (the clock is handled by the harness).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Port {
    pub name: String,
    pub width: usize,
}

impl Port {
    pub fn new(name: impl Into<String>, width: usize) -> Self {
        assert!((1..=128).contains(&width), "port width 1..=128 supported");
        Self {
            name: name.into(),
            width,
        }
    }
    fn bytes(&self) -> usize {
        self.width.div_ceil(8)
    }
}

/// Maps a unit's per-cycle input/output types onto the ports of its exported top module.
pub trait TracePorts {
    type In;
    type Out;
    /// Input ports in frame order, without `clock` (include `reset` if the top has one).
    fn inputs(&self) -> Vec<Port>;
    /// Output ports in frame order.
    fn outputs(&self) -> Vec<Port>;
    /// One value per input port.
    fn encode(&self, i: &Self::In) -> Vec<u128>;
    /// Build the output type from one value per output port.
    fn decode(&self, v: &[u128]) -> Self::Out;
    /// Whether the top has a `clock` input (false for combinational blocks).
    fn has_clock(&self) -> bool {
        true
    }
    /// The exported top's port names after `clock`, in its header order (the contract's order;
    /// a handshake's output may sit between inputs). Default: the inputs, then the outputs.
    fn header_order(&self) -> Vec<String> {
        self.inputs()
            .into_iter()
            .chain(self.outputs())
            .map(|p| p.name)
            .collect()
    }
}

/// A port of an exported top module.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PortDecl {
    pub name: String,
    /// "input" or "output".
    pub dir: String,
    pub width: usize,
}

/// The width of one declaration line's tokens (`input wire [7:0] x;`, `reg  y;`): the `[hi:0]`
/// range's hi + 1, or 1 without a range.
pub fn decl_width(tokens: &[&str]) -> Result<usize> {
    match tokens.iter().find(|x| x.starts_with('[')) {
        Some(r) => {
            let hi: usize = r
                .trim_start_matches('[')
                .split(':')
                .next()
                .unwrap_or_default()
                .parse()?;
            Ok(hi + 1)
        }
        None => Ok(1),
    }
}

/// Parse the port declarations of `module top` from RustHDL's Verilog.
pub fn top_ports(verilog: &str) -> Result<Vec<PortDecl>> {
    module_ports(verilog, "top")
}

/// Parse the port declarations of `module <module>` (header at the start of a line, one
/// declaration per line, as RustHDL and `synth::names` write them).
pub fn module_ports(verilog: &str, module: &str) -> Result<Vec<PortDecl>> {
    let head = format!("module {module}(");
    let start = if verilog.starts_with(&head) {
        0
    } else {
        verilog
            .find(&format!("\n{head}"))
            .map(|i| i + 1)
            .ok_or_else(|| anyhow!("no `{head}` in the Verilog"))?
    };
    let body = &verilog[start..];
    let end = body.find("endmodule").unwrap_or(body.len());
    let mut ports = vec![];
    for line in body[..end].lines() {
        let t: Vec<&str> = line.split_whitespace().collect();
        if t.len() < 3
            || !(t[0] == "input" || t[0] == "output")
            || !t.last().unwrap().ends_with(';')
        {
            continue;
        }
        let name = t.last().unwrap().trim_end_matches(';').to_string();
        let width = decl_width(&t)?;
        ports.push(PortDecl {
            name,
            dir: t[0].to_string(),
            width,
        });
    }
    if ports.is_empty() {
        bail!("module {module} has no ports");
    }
    Ok(ports)
}

pub(crate) fn fnv1a(parts: &[&str]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for p in parts {
        for b in p.bytes().chain(std::iter::once(0xff)) {
            h ^= b as u64;
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    h
}

/// Cache entries being built by a thread of this process, and the signal that one finished.
static BUILDING: std::sync::Mutex<Vec<PathBuf>> = std::sync::Mutex::new(Vec::new());
static BUILT: std::sync::Condvar = std::sync::Condvar::new();

/// The right to build the cache entry `dir`, held by one thread of this process at a time
/// (released on drop). The threads of one test binary often want the same simulator at the
/// same moment (a unit's replay and its long run; the simulated board of two board tests):
/// the second waits for the first build and reuses it instead of compiling the same C++ again
/// on the same two cores. Other processes still build privately (`private_build_dir`).
struct BuildClaim(PathBuf);

/// Wait until no other thread of this process builds `dir`, then claim it. The caller checks
/// the cache again after the claim: the build it waited for may have produced the binary.
fn claim_build(dir: &Path) -> BuildClaim {
    let mut building = BUILDING.lock().unwrap_or_else(|e| e.into_inner());
    while building.iter().any(|d| d == dir) {
        building = BUILT.wait(building).unwrap_or_else(|e| e.into_inner());
    }
    building.push(dir.to_path_buf());
    BuildClaim(dir.to_path_buf())
}

impl Drop for BuildClaim {
    fn drop(&mut self) {
        let mut building = BUILDING.lock().unwrap_or_else(|e| e.into_inner());
        building.retain(|d| d != &self.0);
        BUILT.notify_all();
    }
}

/// A build directory next to `dir` that no other build uses at the same time, for a build that
/// is renamed to `dir` when done: concurrent tests may build the same design, and the threads
/// of one test binary share the process id, so they are counted apart.
fn private_build_dir(dir: &Path) -> PathBuf {
    static BUILDS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = BUILDS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    dir.with_extension(format!("tmp{}-{n}", std::process::id()))
}

/// The cache entry `dir`, made once: when `dir/product` exists it is reused; otherwise `build`
/// fills a private directory (`private_build_dir`, left in place when the build fails, for
/// reading) that is renamed to `dir` when done, so only whole entries appear; one thread of this
/// process builds an entry at a time (`claim_build`). Returns `dir/product`; `what` names the
/// entry in errors.
pub(crate) fn cached_build(
    dir: &Path,
    product: &str,
    what: &str,
    build: impl FnOnce(&Path) -> Result<()>,
) -> Result<PathBuf> {
    let out = dir.join(product);
    if out.exists() {
        return Ok(out);
    }
    let _claim = claim_build(dir);
    if out.exists() {
        return Ok(out);
    }
    let tmp = private_build_dir(dir);
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp)?;
    build(&tmp)?;
    match std::fs::rename(&tmp, dir) {
        Ok(()) => {}
        Err(_) if out.exists() => {
            let _ = std::fs::remove_dir_all(&tmp);
        }
        Err(e) => return Err(e).with_context(|| format!("caching {what}")),
    }
    Ok(out)
}

fn cxx_type(width: usize) -> &'static str {
    match width {
        0..=8 => "CData",
        9..=16 => "SData",
        17..=32 => "IData",
        33..=64 => "QData",
        _ => "WData",
    }
}

/// Verilator arguments besides the top module, `-Mdir` and the file names (part of the cache
/// key, with [`MAKE_VARS`]).
const VERILATOR_ARGS: &[&str] = &[
    "-O3",
    "-Wno-fatal",
    "-Wno-lint",
    "-Wno-style",
    "--x-assign",
    "fast",
    "--x-initial",
    "fast",
];

/// Make variables of the C++ build. `-O1` rather than `-O3`: the large models build in about
/// three quarters of the CPU time and run as fast (the measurements: docs/verification.md, "Cost
/// of the default run", session 21).
const MAKE_VARS: &[&str] = &["OPT_FAST=-O1", "OPT_SLOW=-O1"];

/// Verilator's runtime library objects: the same for every model (no tracing, no coverage, the
/// default `OPT_GLOBAL`), so they are compiled once per cache ([`runtime_objects`]) and copied
/// into each build instead of being compiled again by every build's makefile.
const RUNTIME_OBJECTS: &[&str] = &["verilated.o", "verilated_threads.o"];

/// The directory holding [`RUNTIME_OBJECTS`], compiled once for this Verilator (its version is
/// part of the key) from a one-wire design's makefile. About a third of a small model's build
/// time is these two files (measured on the dispatcher export: verilate 6 s, runtime 36 s, the
/// model and link 53 s, at a load of ~9), and the default test run builds ~45 models.
fn runtime_objects() -> Result<PathBuf> {
    // one `verilator --version` and one cache lookup per process, not per model build
    static RUNTIME: std::sync::OnceLock<std::result::Result<PathBuf, String>> =
        std::sync::OnceLock::new();
    RUNTIME
        .get_or_init(|| build_runtime_objects().map_err(|e| format!("{e:#}")))
        .clone()
        .map_err(|e| anyhow::anyhow!(e))
}

fn build_runtime_objects() -> Result<PathBuf> {
    let version = Command::new("verilator")
        .arg("--version")
        .output()
        .context("running verilator --version")?;
    let version = String::from_utf8_lossy(&version.stdout).into_owned();
    let dir = cache_root().join(format!("runtime-{:016x}", fnv1a(&[&version])));
    // the entry appears whole (renamed when done): its last object stands for all of them
    let last = format!("obj/{}", RUNTIME_OBJECTS[RUNTIME_OBJECTS.len() - 1]);
    let last = cached_build(&dir, &last, "Verilator's runtime objects", |tmp| {
        std::fs::write(
            tmp.join("top.v"),
            "module top(input wire clock, output wire q);\n  assign q = clock;\nendmodule\n",
        )?;
        run_checked(
            Command::new("verilator")
                .current_dir(tmp)
                .args(["--cc", "--top-module", "top", "-Mdir", "obj"])
                .args(VERILATOR_ARGS)
                .arg("top.v"),
            "verilating the runtime's one-wire design",
        )?;
        run_checked(
            Command::new("make")
                .current_dir(tmp.join("obj"))
                .args(["-f", "Vtop.mk"])
                .args(RUNTIME_OBJECTS),
            "compiling Verilator's runtime objects",
        )
    })?;
    Ok(last.parent().expect("obj/").to_path_buf())
}

/// Run a command; its output is the error when it fails.
fn run_checked(cmd: &mut Command, what: &str) -> Result<()> {
    let out = cmd.output().with_context(|| what.to_string())?;
    if !out.status.success() {
        bail!(
            "{what} failed:\n{}\n{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    Ok(())
}

/// Verilate `files` in `dir` (top module `top`, objects in `dir/obj`), copy the shared runtime
/// objects in, and make the executable `obj/V<top>` with `make_vars`.
pub(crate) fn verilate_and_make(
    dir: &Path,
    top: &str,
    verilator_args: &[&str],
    make_vars: &[&str],
    files: &[&str],
) -> Result<()> {
    run_checked(
        Command::new("verilator")
            .current_dir(dir)
            .args(["--cc", "--exe", "--top-module", top, "-Mdir", "obj"])
            .args(verilator_args)
            .args(files),
        &format!("verilating {top} in {}", dir.display()),
    )?;
    let runtime = runtime_objects()?;
    let obj = dir.join("obj");
    for o in RUNTIME_OBJECTS {
        // a fresh copy is newer than the runtime's sources: make takes it as built
        std::fs::copy(runtime.join(o), obj.join(o)).context("copying a runtime object")?;
    }
    run_checked(
        Command::new("make")
            .current_dir(&obj)
            .args(["-f", &format!("V{top}.mk"), "-j", "2"])
            .args(make_vars)
            .arg(format!("V{top}")),
        &format!("compiling the verilated {top} in {}", dir.display()),
    )
}

/// Generate the C++ harness for a port list.
pub fn harness_source(inputs: &[Port], outputs: &[Port], has_clock: bool) -> String {
    let in_bytes: usize = inputs.iter().map(Port::bytes).sum();
    let out_bytes: usize = outputs.iter().map(Port::bytes).sum();
    let mut s = String::new();
    let _ = writeln!(
        s,
        "// generated by testbench::verilator — do not edit\n#include \"Vtop.h\"\n#include \"verilated.h\"\n#include <cstdio>\n#include <cstdint>\n#include <vector>\n\
static inline uint64_t get(const uint8_t* p, int n) {{ uint64_t v = 0; for (int i = n - 1; i >= 0; i--) v = (v << 8) | p[i]; return v; }}\n\
static inline void put(uint8_t* p, int n, uint64_t v) {{ for (int i = 0; i < n; i++) {{ p[i] = v & 0xff; v >>= 8; }} }}\n\
int main(int argc, char** argv) {{\n  Verilated::commandArgs(argc, argv);\n  Vtop* top = new Vtop;\n  const size_t IN = {in_bytes}, OUT = {out_bytes}, BATCH = 8192;\n  std::vector<uint8_t> inb(IN * BATCH), outb(OUT * BATCH);"
    );
    if has_clock {
        s.push_str("  top->clock = 0;\n");
    }
    s.push_str("  top->eval();\n  for (;;) {\n    size_t n = fread(inb.data(), IN, BATCH, stdin);\n    if (n == 0) break;\n    for (size_t k = 0; k < n; k++) {\n      const uint8_t* p = &inb[k * IN];\n      uint8_t* q = &outb[k * OUT];\n");
    let mut off = 0;
    for p in inputs {
        if cxx_type(p.width) == "WData" {
            for w in 0..p.width.div_ceil(32) {
                let n = (p.bytes() - 4 * w).min(4);
                let _ = writeln!(
                    s,
                    "      top->{}[{w}] = (IData)get(p + {}, {n});",
                    p.name,
                    off + 4 * w
                );
            }
        } else {
            let _ = writeln!(
                s,
                "      top->{} = ({})get(p + {off}, {});",
                p.name,
                cxx_type(p.width),
                p.bytes()
            );
        }
        off += p.bytes();
    }
    if has_clock {
        s.push_str("      top->clock = 0;\n");
    }
    s.push_str("      top->eval();\n");
    let mut off = 0;
    for p in outputs {
        if cxx_type(p.width) == "WData" {
            for w in 0..p.width.div_ceil(32) {
                let n = (p.bytes() - 4 * w).min(4);
                let _ = writeln!(
                    s,
                    "      put(q + {}, {n}, top->{}[{w}]);",
                    off + 4 * w,
                    p.name
                );
            }
        } else {
            let _ = writeln!(s, "      put(q + {off}, {}, top->{});", p.bytes(), p.name);
        }
        off += p.bytes();
    }
    if has_clock {
        s.push_str("      top->clock = 1;\n      top->eval();\n");
    }
    s.push_str("    }\n    fwrite(outb.data(), OUT, n, stdout);\n  }\n  fflush(stdout);\n  top->final();\n  delete top;\n  return 0;\n}\n");
    s
}

pub(crate) fn cache_root() -> PathBuf {
    target_dir().join("verilator-cache")
}

/// The workspace's cargo target directory (`CARGO_TARGET_DIR` when set, else `target/`): the
/// home of every generated work directory (Verilator builds, lint runs, mutation proofs).
pub fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target"))
}

/// Build (or reuse) the Verilated simulator of `verilog` for the given ports; returns the binary.
pub fn build_harness(
    verilog: &str,
    inputs: &[Port],
    outputs: &[Port],
    has_clock: bool,
) -> Result<PathBuf> {
    build_with_harness(verilog, &harness_source(inputs, outputs, has_clock))
}

/// Build (or reuse, cached by the content of both and the flags) `verilog` with the C++
/// `harness` as its main; returns the binary.
fn build_with_harness(verilog: &str, harness: &str) -> Result<PathBuf> {
    let flags = [VERILATOR_ARGS, MAKE_VARS].concat().join(" ");
    let dir = cache_root().join(format!("{:016x}", fnv1a(&[verilog, harness, &flags])));
    cached_build(&dir, "obj/Vtop", "the verilator build", |tmp| {
        std::fs::write(tmp.join("top.v"), verilog)?;
        std::fs::write(tmp.join("harness.cpp"), harness)?;
        verilate_and_make(
            tmp,
            "top",
            VERILATOR_ARGS,
            MAKE_VARS,
            &["top.v", "harness.cpp"],
        )
    })
}

/// Run raw frames through a built harness.
pub fn run_frames(exe: &Path, frames: Vec<u8>, out_frame_bytes: usize) -> Result<Vec<u8>> {
    let mut child = Command::new(exe)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .with_context(|| format!("starting {}", exe.display()))?;
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || stdin.write_all(&frames));
    let mut out = Vec::new();
    child.stdout.take().expect("stdout").read_to_end(&mut out)?;
    writer
        .join()
        .expect("writer thread")
        .context("writing frames")?;
    let status = child.wait()?;
    if !status.success() {
        bail!("verilated simulator exited with {status}");
    }
    if out_frame_bytes > 0 && out.len() % out_frame_bytes != 0 {
        bail!("partial output frame");
    }
    Ok(out)
}

/// Encode inputs as frames.
pub fn encode_frames<P: TracePorts>(ports: &P, inputs: &[P::In]) -> Vec<u8> {
    let ins = ports.inputs();
    let mut frames = Vec::with_capacity(inputs.len() * ins.iter().map(Port::bytes).sum::<usize>());
    for i in inputs {
        let vals = ports.encode(i);
        assert_eq!(
            vals.len(),
            ins.len(),
            "encode must return one value per input port"
        );
        for (p, v) in ins.iter().zip(vals) {
            frames.extend_from_slice(&v.to_le_bytes()[..p.bytes()]);
        }
    }
    frames
}

/// Decode output frames.
pub fn decode_frames<P: TracePorts>(ports: &P, raw: &[u8]) -> Vec<P::Out> {
    let mut v = vec![];
    for_each_frame(ports, raw, |o| v.push(o));
    v
}

/// Decode output frames one at a time, in order, into `f` (for long runs whose outputs are
/// judged as they come instead of kept).
pub fn for_each_frame<P: TracePorts>(ports: &P, raw: &[u8], mut f: impl FnMut(P::Out)) {
    let outs = ports.outputs();
    let fb: usize = outs.iter().map(Port::bytes).sum();
    for frame in raw.chunks(fb.max(1)) {
        let mut off = 0;
        let vals: Vec<u128> = outs
            .iter()
            .map(|p| {
                let mut b = [0u8; 16];
                b[..p.bytes()].copy_from_slice(&frame[off..off + p.bytes()]);
                off += p.bytes();
                u128::from_le_bytes(b)
            })
            .collect();
        f(ports.decode(&vals));
    }
}

/// Replay `inputs` on `verilog` under Verilator and return the outputs of every cycle.
pub fn replay<P: TracePorts>(verilog: &str, ports: &P, inputs: &[P::In]) -> Result<Vec<P::Out>> {
    let (ins, outs) = (ports.inputs(), ports.outputs());
    let exe = build_harness(verilog, &ins, &outs, ports.has_clock())?;
    let raw = run_frames(
        &exe,
        encode_frames(ports, inputs),
        outs.iter().map(Port::bytes).sum(),
    )?;
    Ok(decode_frames(ports, &raw))
}

/// `verilator --lint-only -Wall` on an exported file; returns the warnings (empty = clean).
/// WIDTH is waived: RustHDL writes every literal as a 32-bit constant (`x = 32'h0`);
/// UNUSED is waived for bits a unit keeps for visibility (such as the FIFO's holder field).
/// UNOPTFLAT is waived: a RustHDL top with sub-blocks (`gpu_frontend`) drives every sub-block
/// input from one `always` block, which Verilator orders as one vertex, so a valid/ready pair
/// between two sub-blocks looks circular at block level; a real loop is a bit-level one, which
/// yosys `flatten; check -assert` refuses (the gpu_frontend export passes it).
pub fn lint(verilog: &str) -> Result<String> {
    let dir = cache_root().join(format!("lint-{:016x}", fnv1a(&[verilog])));
    std::fs::create_dir_all(&dir)?;
    std::fs::write(dir.join("top.v"), verilog)?;
    let out = Command::new("verilator")
        .current_dir(&dir)
        .args([
            "--lint-only",
            "-Wall",
            "-Wno-DECLFILENAME",
            "-Wno-UNUSED",
            "-Wno-WIDTH",
            "-Wno-UNOPTFLAT",
            "--top-module",
            "top",
            "top.v",
        ])
        .output()
        .context("running verilator --lint-only")?;
    Ok(String::from_utf8_lossy(&out.stderr).into_owned())
}

/// Test helper for an export's port contract: the module is `top`, its port list is exactly
/// `ports` in this order (when given), and every declaration in `decls` (as exported, e.g.
/// `"input wire [2:0] cpr_warp;"`) appears in it.
pub fn assert_top_ports(verilog: &str, ports: Option<&[&str]>, decls: &[&str]) {
    let v = verilog.split_whitespace().collect::<Vec<_>>().join(" ");
    let head = v.split(");").next().unwrap_or("");
    assert!(
        head.trim_start().starts_with("module top("),
        "top module must be `top`"
    );
    if let Some(want) = ports {
        let got: Vec<&str> = head
            .split('(')
            .nth(1)
            .unwrap_or("")
            .split(',')
            .map(str::trim)
            .collect();
        assert_eq!(got, want, "port list of the exported top");
    }
    for decl in decls {
        assert!(v.contains(decl), "missing `{decl}` in the exported top");
    }
}

/// Test helper: each `(name, verilog)` export passes rust-hdl's `yosys_validate` (no latches,
/// no implicit or undriven nets; work files under `<unit>_<name>`). Skips loudly when yosys is
/// missing (fails with `REQUIRE_EDA=1`).
pub fn assert_yosys_clean(unit: &str, exports: &[(&str, String)]) {
    if !tool_available("yosys") {
        return;
    }
    for (name, v) in exports {
        rust_hdl::prelude::yosys_validate(&format!("{unit}_{name}"), v)
            .unwrap_or_else(|e| panic!("{unit} {name}: {e:?}"));
    }
}

/// Test helper: `verilator --lint-only -Wall` (waivers in [`lint`]) must report nothing.
/// Skips loudly when Verilator is missing (fails with `REQUIRE_EDA=1`).
pub fn assert_lint_clean(verilog: &str) {
    if !tool_available("verilator") {
        return;
    }
    let w = lint(verilog).expect("running verilator --lint-only");
    assert!(!w.contains('%'), "verilator lint findings:\n{w}");
}

/// The harness of [`build_harness`] answering one frame at a time (batch 1, output flushed per
/// frame), for closed-loop stimulus ([`Interactive`]).
pub fn build_interactive_harness(
    verilog: &str,
    inputs: &[Port],
    outputs: &[Port],
    has_clock: bool,
) -> Result<PathBuf> {
    let batch = harness_source(inputs, outputs, has_clock);
    let (batch_size, write) = ("BATCH = 8192", "fwrite(outb.data(), OUT, n, stdout);");
    assert!(
        batch.contains(batch_size) && batch.contains(write),
        "harness_source changed: update build_interactive_harness's edits"
    );
    let harness = batch.replace(batch_size, "BATCH = 1").replace(
        write,
        "fwrite(outb.data(), OUT, n, stdout); fflush(stdout);",
    );
    build_with_harness(verilog, &harness)
}

/// A Verilated top stepped one cycle at a time, so that a driver can choose each cycle's
/// inputs from the outputs so far (completions of the slots a dispatcher gave out).
pub struct Interactive<'a, P: TracePorts> {
    ports: &'a P,
    child: std::process::Child,
    stdin: std::process::ChildStdin,
    stdout: std::process::ChildStdout,
    out_bytes: usize,
    buf: Vec<u8>,
}

impl<'a, P: TracePorts> Interactive<'a, P> {
    /// Build (or reuse) the harness and start it.
    pub fn new(verilog: &str, ports: &'a P) -> Result<Self> {
        let (ins, outs) = (ports.inputs(), ports.outputs());
        let exe = build_interactive_harness(verilog, &ins, &outs, ports.has_clock())?;
        let mut child = Command::new(&exe)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .with_context(|| format!("starting {}", exe.display()))?;
        let stdin = child.stdin.take().expect("stdin");
        let stdout = child.stdout.take().expect("stdout");
        let out_bytes = outs.iter().map(Port::bytes).sum();
        Ok(Self {
            ports,
            child,
            stdin,
            stdout,
            out_bytes,
            buf: vec![0; out_bytes],
        })
    }

    /// One clock cycle: drive `i`, return the outputs sampled before the edge.
    pub fn step(&mut self, i: &P::In) -> P::Out {
        let frame = encode_frames(self.ports, std::slice::from_ref(i));
        self.stdin.write_all(&frame).expect("writing a frame");
        self.stdin.flush().expect("flushing a frame");
        self.stdout
            .read_exact(&mut self.buf)
            .expect("reading an output frame");
        assert_eq!(self.buf.len(), self.out_bytes);
        decode_frames(self.ports, &self.buf)
            .pop()
            .expect("one output frame")
    }
}

impl<P: TracePorts> Drop for Interactive<'_, P> {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::assert_top_ports;

    const TOP: &str = "module top(clock,reset,\n  x);\n  input wire clock;\n  input wire reset;\n  output reg [2:0] x;\nendmodule\n";

    #[test]
    fn top_ports_pass_on_the_contract() {
        assert_top_ports(
            TOP,
            Some(&["clock", "reset", "x"]),
            &["output reg [2:0] x;"],
        );
    }

    #[test]
    #[should_panic(expected = "port list")]
    fn top_ports_catch_a_reordered_port_list() {
        assert_top_ports(TOP, Some(&["reset", "clock", "x"]), &[]);
    }

    #[test]
    #[should_panic(expected = "missing")]
    fn top_ports_catch_a_wrong_width() {
        assert_top_ports(TOP, None, &["output reg [3:0] x;"]);
    }
}
