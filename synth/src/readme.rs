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

/// `text` with the body of block `name` replaced by `body` (a trailing newline is added if
/// missing). Errors if either marker is missing, repeated, or out of order.
pub fn replace_block(text: &str, name: &str, body: &str) -> Result<String> {
    let (open, close) = markers(name);
    let lines: Vec<&str> = text.lines().collect();
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
