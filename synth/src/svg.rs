//! The pieces every `eval-*` plot draws the same way: the document with its white background
//! and title, panel titles, axes, horizontal grid lines with their labels, legend swatches.
//! Each writer appends one line of SVG; numbers are written with one decimal.

use std::fmt::Write;

/// Start a document `width` × `height` (default font size `font_size`) with a white
/// background and the plot's title (font size 14) at (`title_x`, 20).
pub fn open(width: f64, height: f64, font_size: u32, title_x: f64, title: &str) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" font-size="{font_size}">"#
    );
    let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        s,
        r#"<text x="{title_x}" y="20" font-size="14">{title}</text>"#
    );
    s
}

/// A panel's title (font size 12) with its baseline at `y`.
pub fn panel_title(s: &mut String, x: f64, y: f64, title: &str) {
    let _ = writeln!(s, r#"<text x="{x}" y="{y}" font-size="12">{title}</text>"#);
}

/// A panel's axes: the x axis along `bot` from `x0` over `width`, the y axis from `top` to `bot`.
pub fn axes(s: &mut String, x0: f64, top: f64, bot: f64, width: f64) {
    let _ = writeln!(
        s,
        r#"<line x1="{x0:.1}" y1="{bot:.1}" x2="{:.1}" y2="{bot:.1}" stroke="black"/><line x1="{x0:.1}" y1="{top:.1}" x2="{x0:.1}" y2="{bot:.1}" stroke="black"/>"#,
        x0 + width
    );
}

/// A light horizontal grid line at `y` across a panel, labelled left of its y axis.
pub fn grid_line(s: &mut String, x0: f64, y: f64, width: f64, label: &str) {
    let _ = writeln!(
        s,
        r##"<line x1="{x0:.1}" y1="{y:.1}" x2="{:.1}" y2="{y:.1}" stroke="#ddd"/><text x="{:.1}" y="{:.1}" text-anchor="end">{label}</text>"##,
        x0 + width,
        x0 - 4.0,
        y + 4.0
    );
}

/// A legend entry: a 12 × 12 colour swatch at (`x`, `y`) and its label.
pub fn swatch(s: &mut String, x: f64, y: f64, color: &str, label: &str) {
    let _ = writeln!(
        s,
        r#"<rect x="{x:.1}" y="{y:.1}" width="12" height="12" fill="{color}"/><text x="{:.1}" y="{:.1}">{label}</text>"#,
        x + 18.0,
        y + 10.0
    );
}

/// End the document.
pub fn close(mut s: String) -> String {
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_document_with_every_piece() {
        let mut s = super::open(200.0, 100.0, 11, 10.0, "t");
        super::panel_title(&mut s, 10.0, 30.0, "p");
        super::axes(&mut s, 20.0, 40.0, 90.0, 150.0);
        super::grid_line(&mut s, 20.0, 65.0, 150.0, "1e2");
        super::swatch(&mut s, 20.0, 95.0, "red", "a");
        let s = super::close(s);
        assert!(s.starts_with("<svg xmlns") && s.ends_with("</svg>\n"));
        assert!(s.contains(r#"<text x="10" y="20" font-size="14">t</text>"#));
        assert!(s.contains(r#"x2="170.0" y2="90.0" stroke="black""#));
        assert!(s.contains(r#"text-anchor="end">1e2</text>"#));
        assert!(s.contains(r#"fill="red"/><text x="38.0" y="105.0">a</text>"#));
        assert_eq!(s.lines().count(), 8);
    }
}
