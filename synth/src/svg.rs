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

/// One panel of a plot: the plotting area between `top` and `bot` (= `top` + `height`), from
/// `x0` over `width`. [`Panel::draw`] writes its title, axes and grid lines; the `eval-*` plots
/// then place their marks with [`Panel::y`].
pub struct Panel {
    /// Left edge (the y axis).
    pub x0: f64,
    /// Bottom of the plotting area (the x axis).
    pub bot: f64,
    /// Height of the plotting area.
    pub height: f64,
    /// Width of the plotting area.
    pub width: f64,
}

impl Panel {
    /// Draw a panel: its title with the baseline at `title_y`, the axes of the area `top` ..
    /// `top + height` × `x0` .. `x0 + width`, and one labelled grid line per tick (`fraction`
    /// of the height, label).
    pub fn draw(
        s: &mut String,
        x0: f64,
        title_y: f64,
        top: f64,
        (width, height): (f64, f64),
        title: &str,
        ticks: &[(f64, String)],
    ) -> Panel {
        let p = Panel {
            x0,
            bot: top + height,
            height,
            width,
        };
        panel_title(s, x0, title_y, title);
        axes(s, x0, top, p.bot, width);
        for (f, label) in ticks {
            grid_line(s, x0, p.y(*f), width, label);
        }
        p
    }

    /// The y coordinate of a fraction of the panel's height (clamped to 0..=1).
    pub fn y(&self, fraction: f64) -> f64 {
        self.bot - fraction.clamp(0.0, 1.0) * self.height
    }

    /// A label centred at `x` under the x axis.
    pub fn x_label(&self, s: &mut String, x: f64, label: &str) {
        let _ = writeln!(
            s,
            r#"<text x="{x:.1}" y="{:.1}" text-anchor="middle">{label}</text>"#,
            self.bot + 14.0
        );
    }

    /// A vertical bar from the x axis up to `fraction` of the height, `x` .. `x + width`, with
    /// its fill, outline and tooltip.
    pub fn bar(
        &self,
        s: &mut String,
        (x, width): (f64, f64),
        fraction: f64,
        paint: (&str, Option<&str>),
        tip: &str,
    ) {
        let h = fraction.clamp(0.0, 1.0) * self.height;
        let (fill, stroke) = paint;
        let stroke = stroke.map_or(String::new(), |c| format!(r#" stroke="{c}""#));
        let _ = writeln!(
            s,
            r#"<rect x="{x:.1}" y="{:.1}" width="{width:.1}" height="{h:.1}" fill="{fill}"{stroke}><title>{tip}</title></rect>"#,
            self.bot - h
        );
    }
}

/// The fraction of a log-scale axis from 1 to 10^`decades` at which `v` sits (values under 1
/// sit at 0).
pub fn log_fraction(v: f64, decades: f64) -> f64 {
    v.max(1.0).log10() / decades
}

/// Ticks of a log-scale axis: 1, 10, …, 10^`decades`, labelled by `label(k)`.
pub fn log_ticks(decades: u32, label: impl Fn(u32) -> String) -> Vec<(f64, String)> {
    (0..decades + 1)
        .map(|k| (k as f64 / decades as f64, label(k)))
        .collect()
}

/// A line through `points` with a dot on each, in `color`.
pub fn series(s: &mut String, points: &[(f64, f64)], color: &str) {
    let line: Vec<String> = points
        .iter()
        .map(|(x, y)| format!("{x:.1},{y:.1}"))
        .collect();
    let _ = writeln!(
        s,
        r#"<polyline points="{}" fill="none" stroke="{color}" stroke-width="2"/>"#,
        line.join(" ")
    );
    for (x, y) in points {
        let _ = writeln!(
            s,
            r#"<circle cx="{x:.1}" cy="{y:.1}" r="3" fill="{color}"/>"#
        );
    }
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
