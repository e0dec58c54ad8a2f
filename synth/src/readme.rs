//! One home for measured numbers: commands that measure (`synth report`, `synth build`, …) write
//! their table into a marked block of a Markdown file (the README by default), so a number is
//! never typed by hand.
//!
//! A block is the text between a line `<!-- synth:NAME -->` and a line `<!-- /synth:NAME -->`;
//! [`write_block`] replaces what is between them (the marker lines stay) and fails if the file
//! lacks the markers, so a table cannot silently go nowhere.

use anyhow::{bail, Context, Result};
use std::path::Path;

/// The opening and closing marker lines of block `name`.
pub fn markers(name: &str) -> (String, String) {
    (
        format!("<!-- synth:{name} -->"),
        format!("<!-- /synth:{name} -->"),
    )
}

/// The line indices of block `name`'s opening and closing markers in `lines`. Errors if either
/// marker is missing, repeated, or out of order.
fn locate(lines: &[&str], name: &str) -> Result<(usize, usize)> {
    let (open, close) = markers(name);
    let find = |m: &str| -> Result<usize> {
        let hits: Vec<usize> = (0..lines.len()).filter(|&i| lines[i].trim() == m).collect();
        match hits.as_slice() {
            [i] => Ok(*i),
            [] => bail!("marker line `{m}` not found"),
            _ => bail!("marker line `{m}` appears {} times", hits.len()),
        }
    };
    let (a, b) = (find(&open)?, find(&close)?);
    if b < a {
        bail!("`{close}` comes before `{open}`");
    }
    Ok((a, b))
}

/// `text` with the body of block `name` replaced by `body` (a trailing newline is added if
/// missing). Errors if either marker is missing, repeated, or out of order.
pub fn replace_block(text: &str, name: &str, body: &str) -> Result<String> {
    let lines: Vec<&str> = text.lines().collect();
    let (a, b) = locate(&lines, name)?;
    let mut out = String::with_capacity(text.len() + body.len());
    for l in &lines[..=a] {
        out.push_str(l);
        out.push('\n');
    }
    out.push_str(body);
    if !body.is_empty() && !body.ends_with('\n') {
        out.push('\n');
    }
    for l in &lines[b..] {
        out.push_str(l);
        out.push('\n');
    }
    Ok(out)
}

/// Replace block `name` of the Markdown file at `path` with `body`.
pub fn write_block(path: &Path, name: &str, body: &str) -> Result<()> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let new = replace_block(&text, name, body)
        .with_context(|| format!("block `{name}` of {}", path.display()))?;
    std::fs::write(path, new).with_context(|| format!("writing {}", path.display()))
}

/// The body of block `name` in `text` (between the marker lines), if the block exists once.
pub fn block_body(text: &str, name: &str) -> Option<String> {
    let lines: Vec<&str> = text.lines().collect();
    let (a, b) = locate(&lines, name).ok()?;
    Some(lines[a + 1..b].iter().map(|l| format!("{l}\n")).collect())
}

/// The key of a Markdown table row: its first cell, trimmed (None for non-rows and separators).
fn row_key(line: &str) -> Option<String> {
    let t = line.trim();
    if !t.starts_with('|') || t.starts_with("|---") || t.starts_with("| ---") {
        return None;
    }
    t.split('|').nth(1).map(|c| c.trim().to_string())
}

/// Update a table kept in block `name` row by row: `header` is the table's header and separator
/// lines; each of `rows` replaces the existing row with the same first cell, or is appended. Rows
/// of units not measured this time stay as they were (so `synth report --only X` refreshes only
/// X's row). Text after the table in the block (a note line) is kept.
pub fn upsert_rows(path: &Path, name: &str, header: &str, rows: &[String]) -> Result<()> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let old = block_body(&text, name).unwrap_or_default();
    let header_keys: Vec<String> = header.lines().filter_map(row_key).collect();
    let mut kept: Vec<String> = vec![];
    let mut trailer: Vec<String> = vec![];
    for l in old.lines() {
        match row_key(l) {
            Some(k) if !header_keys.contains(&k) => kept.push(l.to_string()),
            Some(_) => {}
            None if l.trim().starts_with('|') => {}
            None if !l.trim().is_empty() => trailer.push(l.to_string()),
            None => {}
        }
    }
    for r in rows {
        let k = row_key(r);
        match kept.iter().position(|l| row_key(l) == k) {
            Some(i) => kept[i] = r.clone(),
            None => kept.push(r.clone()),
        }
    }
    let mut body = String::from(header.trim_end());
    body.push('\n');
    for l in &kept {
        body.push_str(l);
        body.push('\n');
    }
    if !trailer.is_empty() {
        body.push('\n');
        body.push_str(&trailer.join("\n"));
        body.push('\n');
    }
    write_block(path, name, &body)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replaces_only_the_body() {
        let t = "a\n<!-- synth:t -->\nold\nold2\n<!-- /synth:t -->\nz\n";
        let r = replace_block(t, "t", "| x |\n| 1 |").unwrap();
        assert_eq!(
            r,
            "a\n<!-- synth:t -->\n| x |\n| 1 |\n<!-- /synth:t -->\nz\n"
        );
        // idempotent
        assert_eq!(replace_block(&r, "t", "| x |\n| 1 |").unwrap(), r);
    }

    #[test]
    fn upsert_replaces_rows_by_first_cell_and_keeps_the_rest() {
        let dir = std::env::temp_dir().join(format!("readme_upsert_{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("R.md");
        let hdr = "| unit | n |\n|---|---:|";
        std::fs::write(&p, "x\n<!-- synth:t -->\n| unit | n |\n|---|---:|\n| a | 1 |\n| b | 2 |\n\nnote\n<!-- /synth:t -->\n").unwrap();
        upsert_rows(&p, "t", hdr, &["| b | 5 |".into(), "| c | 7 |".into()]).unwrap();
        let t = std::fs::read_to_string(&p).unwrap();
        assert_eq!(t, "x\n<!-- synth:t -->\n| unit | n |\n|---|---:|\n| a | 1 |\n| b | 5 |\n| c | 7 |\n\nnote\n<!-- /synth:t -->\n");
        std::fs::remove_dir_all(&dir).ok();
    }

    #[test]
    fn missing_or_repeated_markers_fail() {
        assert!(replace_block("no markers\n", "t", "x").is_err());
        let twice = "<!-- synth:t -->\n<!-- synth:t -->\n<!-- /synth:t -->\n";
        assert!(replace_block(twice, "t", "x").is_err());
        let reversed = "<!-- /synth:t -->\n<!-- synth:t -->\n";
        assert!(replace_block(reversed, "t", "x").is_err());
        // another block's markers do not count
        assert!(replace_block("<!-- synth:u -->\n<!-- /synth:u -->\n", "t", "x").is_err());
    }
}

/// A module doc is the unit's contract and today's cost: the cost it quotes must be the one the
/// README's measured tables hold (both written from `synth report`), or one of them has drifted.
#[cfg(test)]
mod module_docs_quote_the_readme {
    use super::block_body;

    /// The module doc (`//!` lines) of the RTL file that holds `unit`.
    fn module_doc(root: &std::path::Path, unit: &str) -> String {
        let file = if unit.starts_with("run_finder_") {
            "run_finder"
        } else {
            unit
        };
        let path = root.join("hdl/src").join(format!("{file}.rs"));
        std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
            .lines()
            .filter_map(|l| l.strip_prefix("//!"))
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// The cells of the rows of a Markdown table block (header and separator skipped).
    fn rows(readme: &str, block: &str) -> Vec<Vec<String>> {
        let body = block_body(readme, block).unwrap_or_else(|| panic!("README block `{block}`"));
        body.lines()
            .filter(|l| l.starts_with('|') && !l.starts_with("|---"))
            .skip(1)
            .map(|l| l.split('|').map(|c| c.trim().to_string()).collect())
            .collect()
    }

    #[test]
    fn every_ice40_row_is_quoted_by_its_module_doc() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
        let table = rows(&readme, "units-ice40");
        assert!(table.len() >= 7, "units-ice40 has {} rows", table.len());
        let mut drift = vec![];
        for cells in &table {
            // | `unit` | LCs | median | by seed | meets |
            let unit = cells[1].trim_matches('`');
            let doc = module_doc(&root, unit);
            for (what, value) in [("LCs", &cells[2]), ("median Fmax", &cells[3])] {
                if !doc.contains(value.as_str()) {
                    drift.push(format!(
                        "{unit}: README {what} {value} not in its module doc"
                    ));
                }
            }
        }
        assert!(drift.is_empty(), "{}", drift.join("\n"));
    }

    #[test]
    fn gpu_frontend_ecp5_row_is_quoted_by_its_module_doc() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
        let row = rows(&readme, "ecp5")
            .into_iter()
            .find(|c| c[1] == "gpu_frontend")
            .expect("an ecp5 row for gpu_frontend");
        // | unit | LUT4 | carry | sites | FF | EBR | DSP | speed 6: median (seeds) | …
        let doc = module_doc(&root, "gpu_frontend");
        let median = row[8].split(' ').next().unwrap();
        for value in [&row[2], &row[5], &median.to_string()] {
            assert!(
                doc.contains(value.as_str()),
                "gpu_frontend: README ecp5 value {value} not in its module doc"
            );
        }
    }
}

/// Issue #21's reading limits, kept: the README is read in five minutes (at most 150 lines), and
/// no Rust source outside the dispatcher family (paths naming `dispatcher`, which the issue
/// leaves to the dispatcher's rebuild) is over 1200 lines.
#[cfg(test)]
mod reading_limits {
    use std::path::{Path, PathBuf};

    fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                rust_files(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }

    #[test]
    fn readme_is_at_most_150_lines() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let n = std::fs::read_to_string(root.join("README.md"))
            .unwrap()
            .lines()
            .count();
        assert!(n <= 150, "README.md has {n} lines (issue #21: at most 150)");
    }

    #[test]
    fn no_source_file_over_1200_lines_outside_the_dispatcher() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let mut files = vec![];
        for d in ["hdl", "golden_model", "testbench", "synth", "tests"] {
            rust_files(&root.join(d), &mut files);
        }
        assert!(files.len() > 50, "{} Rust files found", files.len());
        let long: Vec<String> = files
            .iter()
            .filter(|p| !p.to_string_lossy().contains("dispatcher"))
            .filter_map(|p| {
                let n = std::fs::read_to_string(p).unwrap().lines().count();
                (n > 1200).then(|| format!("{}: {n} lines", p.display()))
            })
            .collect();
        assert!(
            long.is_empty(),
            "issue #21: over 1200 lines:\n{}",
            long.join("\n")
        );
    }
}
