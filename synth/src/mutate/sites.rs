//! Fault sites of an export (`synth mutate`): the modules of a Verilog file, which of them hold
//! logic ([`holds_logic`]), and every candidate fault per source line ([`candidate_sites`]) —
//! the classes listed in the parent module's doc.

use super::{unit_budget, Mutant};
use std::collections::BTreeMap;

pub(super) fn fnv(s: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in s.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

const SWAPS: &[(&str, &str)] = &[
    (" & ", " | "),
    (" | ", " & "),
    (" ^ ", " & "),
    (" == ", " != "),
    (" != ", " == "),
    (" < ", " >= "),
    (" >= ", " < "),
    (" > ", " <= "),
    (" <= ", " > "),
    (" + ", " - "),
    (" - ", " + "),
];

/// One module of a Verilog file: its name and the line indices of its header and `endmodule`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VModule {
    pub name: String,
    pub header: usize,
    pub end: usize,
}

/// The modules of `lines`, in file order (a module header is a line `module NAME(...`).
pub fn modules(lines: &[&str]) -> Vec<VModule> {
    let mut out = vec![];
    let mut k = 0;
    while k < lines.len() {
        if let Some(name) = lines[k]
            .strip_prefix("module ")
            .and_then(|r| r.split_once('('))
            .map(|(n, _)| n.trim().to_string())
        {
            let end = lines[k..]
                .iter()
                .position(|l| l.starts_with("endmodule"))
                .map_or(lines.len(), |e| k + e);
            out.push(VModule {
                name,
                header: k,
                end,
            });
            k = end;
        }
        k += 1;
    }
    out
}

/// Whether a module body holds logic (decided by its shape, not by its name). RustHDL writes a
/// unit's logic as combinational update code, `always @(*)` blocks (and `assign`s); the
/// primitives hold none that computes anything: the flip-flop template (`initial` + `always
/// @(posedge clock) q <= d;`) and the RAM templates (`always @(posedge read_clock)`, `if
/// (write_enable) mem[..] <= ..`) have no combinational code at all, and a register wrapper with
/// an initial value (`X$dff dff(...)` plus `dff$clock = clock; q = dff$q ^ init; dff$d = d ^
/// init;`) only wires its ports through, xor-ed with one of its own localparams. So: a module
/// holds logic iff one statement of its combinational code is neither `a = b;` nor `a = b ^ p;`
/// (`p` a localparam of the module).
pub fn holds_logic(body: &[&str]) -> bool {
    let params: Vec<&str> = body
        .iter()
        .filter_map(|l| l.trim().strip_prefix("localparam"))
        .filter_map(|r| {
            let r = r.trim();
            let r = match r.strip_prefix('[') {
                Some(x) => x.split_once(']').map_or(x, |(_, n)| n),
                None => r,
            };
            r.split_once('=').map(|(n, _)| n.trim())
        })
        .collect();
    let is_name = |x: &str| {
        !x.is_empty()
            && x.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '[' | ']' | ':'))
            && !x.starts_with(|c: char| c.is_ascii_digit())
    };
    let wiring = |stmt: &str| -> bool {
        let Some((lhs, rhs)) = stmt.split_once(" = ") else {
            return false;
        };
        let rhs = rhs.trim().trim_end_matches(';').trim();
        if !is_name(lhs.trim()) {
            return false;
        }
        if is_name(rhs) {
            return true;
        }
        match rhs.split_once(" ^ ") {
            Some((a, p)) => is_name(a.trim()) && params.contains(&p.trim()),
            None => false,
        }
    };
    let mut depth = 0usize; // nesting inside an `always @(*)` block
    for l in body {
        let t = l.trim();
        if t.is_empty() || t.starts_with("//") {
            continue;
        }
        if depth == 0 {
            if t == "always @(*) begin" {
                depth = 1;
            } else if let Some(a) = t.strip_prefix("assign ") {
                if !wiring(a) {
                    return true;
                }
            }
            continue;
        }
        if t == "end" || t.starts_with("end ") {
            depth -= 1;
            continue;
        }
        if !wiring(t) {
            return true;
        }
    }
    false
}

/// Every candidate fault of the lines of the modules that hold logic ([`holds_logic`]: module
/// `top` and every sub-module but the flip-flop and RAM primitives), grouped by line.
///
/// Ids: a fault in `top` hashes `unit|kind|line#n|span|replacement` (as before sub-modules were
/// mutated, so the recorded ids of `synth/mutants/` still name the same sites); a fault in a
/// sub-module also hashes the module's name (`unit|module|kind|...`), so the same line in two
/// instances of a block is two sites. `n` counts identical lines within the module.
pub fn candidate_sites(unit: &str, verilog: &str) -> Vec<Vec<Mutant>> {
    sites_by_module(unit, verilog)
        .into_iter()
        .flat_map(|m| m.sites)
        .collect()
}

/// One module's share of [`candidate_sites`]: its name, whether it holds logic, its sites.
pub struct ModuleSites {
    pub name: String,
    pub logic: bool,
    pub sites: Vec<Vec<Mutant>>,
}

/// [`candidate_sites`] kept per module, in file order (one pass for both the sites and the
/// per-module counts of [`site_counts`]).
pub fn sites_by_module(unit: &str, verilog: &str) -> Vec<ModuleSites> {
    let lines: Vec<&str> = verilog.lines().collect();
    modules(&lines)
        .into_iter()
        .map(|m| {
            let logic = holds_logic(&lines[m.header + 1..m.end]);
            let mut sites = vec![];
            if logic {
                module_sites(unit, &lines, &m, &mut sites);
            }
            ModuleSites {
                name: m.name,
                logic,
                sites,
            }
        })
        .collect()
}

/// Per module of `verilog`: name, whether it holds logic, candidate lines and faults.
pub fn site_counts(unit: &str, verilog: &str) -> Vec<(String, bool, usize, usize)> {
    counts_of(&sites_by_module(unit, verilog))
}

/// [`unit_budget`] of the faults in the modules holding logic of a [`site_counts`] list.
pub(super) fn faults_budget(
    unit: &str,
    counts: &[(String, bool, usize, usize)],
    cycles: usize,
) -> usize {
    unit_budget(
        unit,
        counts.iter().filter(|m| m.1).map(|m| m.3).sum(),
        cycles,
    )
}

pub(super) fn counts_of(by_module: &[ModuleSites]) -> Vec<(String, bool, usize, usize)> {
    by_module
        .iter()
        .map(|m| {
            let faults = m.sites.iter().map(Vec::len).sum();
            (m.name.clone(), m.logic, m.sites.len(), faults)
        })
        .collect()
}

/// The candidate faults of one module's body, appended to `out` (one entry per line with sites).
fn module_sites(unit: &str, lines: &[&str], m: &VModule, out: &mut Vec<Vec<Mutant>>) {
    let (start, end) = (m.header, m.end);
    // hashed into the ids of sub-module faults only (top's ids predate sub-module sites)
    let scope = if m.name == "top" {
        String::new()
    } else {
        format!("{}|", m.name)
    };
    // widths of the module's declared signals (for stuck bits)
    let mut width: BTreeMap<String, usize> = BTreeMap::new();
    for l in &lines[start..end] {
        let t = l.trim();
        if let Some(rest) = t.strip_prefix("reg ").or_else(|| t.strip_prefix("wire ")) {
            let rest = rest.trim().trim_end_matches(';');
            let (w, name) = match rest.strip_prefix('[') {
                Some(r) => {
                    let (range, name) = r.split_once(']').unwrap_or(("0:0", r));
                    let hi: usize = range
                        .split(':')
                        .next()
                        .unwrap_or("0")
                        .trim()
                        .parse()
                        .unwrap_or(0);
                    (hi + 1, name.trim())
                }
                None => (1, rest),
            };
            width.insert(name.to_string(), w);
        }
    }
    // identical lines are told apart by their occurrence number (not the line number, which
    // moves with every edit elsewhere)
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    for (k, l) in lines.iter().enumerate().take(end).skip(start + 1) {
        let nth = {
            let n = seen.entry(l.trim()).or_default();
            *n += 1;
            *n
        };
        let mut here: Vec<Mutant> = vec![];
        let mut add =
            |kind: &'static str, span: (usize, usize), replacement: String, what: String| {
                let id = format!(
                    "{:016x}",
                    fnv(&format!(
                        "{unit}|{scope}{kind}|{}#{nth}|{}|{}|{replacement}",
                        l.trim(),
                        span.0,
                        span.1
                    ))
                );
                here.push(Mutant {
                    id,
                    module: m.name.clone(),
                    kind,
                    line: k + 1,
                    what,
                    line_text: l.to_string(),
                    span,
                    replacement,
                });
            };
        let t = l.trim_start();
        let ind = l.len() - t.len();
        if t.starts_with("localparam") || t.starts_with("parameter") {
            continue;
        }
        // flip-flop inputs: `.d(name$d),`
        if let Some(r) = t.strip_prefix(".d(") {
            if let Some(name) = r.strip_suffix("),").or_else(|| r.strip_suffix(')')) {
                let w = width.get(name).copied().unwrap_or(1);
                let b = (fnv(name) as usize) % w;
                let span = (ind + 3, ind + 3 + name.len());
                let mask = format!("{w}'h{:x}", 1u128 << b);
                add(
                    "register bit stuck",
                    span,
                    format!("({name} | {mask})"),
                    format!("{name}[{b}] stuck at 1"),
                );
                add(
                    "register bit stuck",
                    span,
                    format!("({name} & ~{mask})"),
                    format!("{name}[{b}] stuck at 0"),
                );
            }
            out.push(here);
            continue;
        }
        // the region that may change: an `if` condition or the right-hand side of `x = ...;`
        // (of the bit-set idiom `x = (x & ~(1 << (k)) | ((E) << (k)));` only E)
        let region = if let Some(c) = t
            .strip_prefix("if (")
            .and_then(|r| r.strip_suffix(") begin"))
        {
            Some(((ind + 4, ind + 4 + c.len()), true))
        } else if let Some((lhs, rhs)) = t.split_once(" = ") {
            let rhs = rhs.strip_suffix(';').unwrap_or(rhs);
            let base = ind + lhs.len() + 3;
            let idiom = format!("({lhs} & ~(1 << (");
            if rhs.starts_with(&idiom) {
                match (rhs.find(" | (("), rhs.rfind(") << (")) {
                    (Some(a), Some(b)) if a + 5 <= b => Some(((base + a + 5, base + b), false)),
                    _ => None,
                }
            } else if lhs.contains('$') && lhs.ends_with("$clock") {
                None
            } else {
                Some(((base, base + rhs.len()), false))
            }
        } else {
            None
        };
        let Some(((a, b), is_cond)) = region else {
            out.push(here);
            continue;
        };
        let r = &l[a..b];
        if is_cond {
            add(
                "inverted condition",
                (a, b),
                format!("!({r})"),
                format!("if ({r}) inverted"),
            );
        } else if t.contains(" & ~(1 << (") {
            add(
                "inverted condition",
                (a, b),
                format!("!({r})"),
                format!("bit {r} inverted"),
            );
        }
        for &(from, to) in SWAPS {
            for (p, _) in r.match_indices(from) {
                let m = format!("{}{}{}", &r[..p], to, &r[p + from.len()..]);
                add(
                    "operator swap",
                    (a, b),
                    m,
                    format!("`{}` -> `{}` at column {}", from.trim(), to.trim(), a + p),
                );
            }
        }
        // sized literals (flip the low bit) and numbers compared with == / !=
        let bytes = r.as_bytes();
        let mut p = 0;
        while p < bytes.len() {
            if bytes[p].is_ascii_digit()
                && (p == 0
                    || !(bytes[p - 1].is_ascii_alphanumeric()
                        || bytes[p - 1] == b'$'
                        || bytes[p - 1] == b'_'
                        || bytes[p - 1] == b'\''))
            {
                let mut q = p;
                while q < bytes.len() && bytes[q].is_ascii_digit() {
                    q += 1;
                }
                if q + 1 < bytes.len() && bytes[q] == b'\'' {
                    let radix = bytes[q + 1];
                    let mut e = q + 2;
                    while e < bytes.len() && (bytes[e].is_ascii_hexdigit() || bytes[e] == b'_') {
                        e += 1;
                    }
                    let digits = r[q + 2..e].replace('_', "");
                    let base = match radix {
                        b'h' => 16,
                        b'b' => 2,
                        b'd' => 10,
                        _ => 0,
                    };
                    if base != 0 && !digits.is_empty() && digits.len() <= 30 {
                        if let Ok(v) = u128::from_str_radix(&digits, base) {
                            let lit = format!("{}'h{:x}", &r[p..q], v ^ 1);
                            let m = format!("{}{}{}", &r[..p], lit, &r[e..]);
                            add(
                                "constant flip",
                                (a, b),
                                m,
                                format!("`{}` -> `{lit}`", &r[p..e]),
                            );
                        }
                    }
                    p = e;
                    continue;
                }
                let before = &r[..p];
                if before.ends_with("== ") || before.ends_with("!= ") {
                    if let Ok(v) = r[p..q].parse::<u64>() {
                        let m = format!("{}{}{}", &r[..p], v ^ 1, &r[q..]);
                        add(
                            "constant flip",
                            (a, b),
                            m,
                            format!("`{}` -> `{}`", &r[p..q], v ^ 1),
                        );
                    }
                }
                p = q;
                continue;
            }
            p += 1;
        }
        out.push(here);
    }
    out.retain(|v| !v.is_empty());
}
