//! Pictures of one extraction from an [`Explanation`]: the chart (content
//! characters per line above the axis, code below, as in thesis 000 figures
//! 4.3/4.4; the smoothed diff beneath; every region shaded, the chosen ones
//! green; the headline line marked) as SVG, and a self-contained HTML page
//! with that chart, the normalised source lines coloured by selection, the
//! headline and the extracted text. Rendering only: no extraction, no files.

use super::svg::{self, colour, esc};
use crate::extract::explain::Explanation;
use std::fmt::Write as _;

const LEFT: f64 = 64.0;
const RIGHT: f64 = 16.0;
const COUNTS_TOP: f64 = 34.0;
const COUNTS_H: f64 = 240.0;
const DIFF_TOP: f64 = COUNTS_TOP + COUNTS_H + 24.0;
const DIFF_H: f64 = 150.0;
/// Room above the chart for its heading, when it has one.
const HEADING_H: f64 = 22.0;
/// Longest source line shown in the HTML page, in characters.
const SHOWN_CHARS: usize = 400;

/// Horizontal layout: line `i` sits at `x(i)`, bars are `bar` wide.
struct Scale {
    n: usize,
    plot_w: f64,
}

impl Scale {
    fn x(&self, i: f64) -> f64 {
        LEFT + self.plot_w * i / self.n.max(1) as f64
    }
    fn bar(&self) -> f64 {
        (self.plot_w / self.n.max(1) as f64 * 0.8).max(0.6)
    }
}

/// The chart as a standalone SVG document. With `links`, each region links
/// to `#L<first line>` (for the HTML page). With a `heading` (the page and
/// the options it was extracted with), the chart carries it as its
/// `<title>` and as a line of text above the legend, so that a chart file
/// on its own says what it shows.
pub fn chart(e: &Explanation, width: f64, links: bool, heading: Option<&str>) -> String {
    let sc = Scale {
        n: e.lines.len(),
        plot_w: width - LEFT - RIGHT,
    };
    let shift = if heading.is_some() { HEADING_H } else { 0.0 };
    let height = DIFF_TOP + DIFF_H + 34.0 + shift;
    let label = heading.unwrap_or("line counts, smoothed diff and regions");
    let mut s = svg::open(width, height, label);
    if let Some(heading) = heading {
        let _ = writeln!(s, "<title>{}</title>", esc(heading));
        let _ = writeln!(
            s,
            "<text x=\"{LEFT:.2}\" y=\"16\" font-size=\"13\" font-weight=\"bold\">{}</text>",
            esc(heading)
        );
        let _ = writeln!(s, "<g transform=\"translate(0 {shift})\">");
    }
    svg::legend(
        &mut s,
        LEFT,
        14.0,
        &[
            ("content chars T1", colour::CONTENT),
            ("code chars T2", colour::CODE),
            ("smoothed diff", colour::DIFF),
            ("chosen region", colour::CHOSEN),
            ("other region", colour::REGION),
            ("headline", colour::HEADLINE),
        ],
    );
    region_bands(&mut s, e, &sc, links);
    counts_panel(&mut s, e, &sc);
    diff_panel(&mut s, e, &sc);
    headline_marker(&mut s, e, &sc);
    x_axis(&mut s, &sc, DIFF_TOP + DIFF_H);
    if heading.is_some() {
        s.push_str("</g>\n");
    }
    s.push_str("</svg>\n");
    s
}

fn region_bands(s: &mut String, e: &Explanation, sc: &Scale, links: bool) {
    for r in &e.regions {
        let chosen = e.chosen.contains(r);
        let fill = if chosen {
            colour::CHOSEN
        } else {
            colour::REGION
        };
        let (x0, x1) = (sc.x(f64::from(r.first)), sc.x(f64::from(r.last) + 1.0));
        if links {
            let _ = write!(s, "<a href=\"#L{}\">", r.first);
        }
        let _ = write!(
            s,
            "<title>lines {}–{}, content {}{}</title>",
            r.first,
            r.last,
            r.content,
            if chosen { ", chosen" } else { "" }
        );
        svg::rect(
            s,
            x0,
            COUNTS_TOP,
            (x1 - x0).max(1.0),
            DIFF_TOP + DIFF_H - COUNTS_TOP,
            fill,
        );
        if links {
            s.push_str("</a>\n");
        }
    }
}

/// T1 up, T2 down from the panel's middle, on one symmetric scale.
fn counts_panel(s: &mut String, e: &Explanation, sc: &Scale) {
    let max = e
        .lines
        .iter()
        .map(|l| l.t1.max(l.t2))
        .max()
        .unwrap_or(0)
        .max(1) as f64;
    let zero = COUNTS_TOP + COUNTS_H / 2.0;
    let half = COUNTS_H / 2.0;
    let mut up = String::new();
    let mut down = String::new();
    for (i, l) in e.lines.iter().enumerate() {
        let x = sc.x(i as f64 + 0.5);
        if l.t1 > 0 {
            let _ = write!(
                up,
                "M{x:.2} {zero:.2}V{:.2}",
                zero - half * l.t1 as f64 / max
            );
        }
        if l.t2 > 0 {
            let _ = write!(
                down,
                "M{x:.2} {zero:.2}V{:.2}",
                zero + half * l.t2 as f64 / max
            );
        }
    }
    bars_path(s, &up, colour::CONTENT, sc.bar());
    bars_path(s, &down, colour::CODE, sc.bar());
    svg::line(s, (LEFT, zero), (LEFT + sc.plot_w, zero), "stroke=\"#000\"");
    svg::text(
        s,
        LEFT - 6.0,
        COUNTS_TOP + 10.0,
        "end",
        &format!("{max:.0}"),
    );
    svg::text(s, LEFT - 6.0, zero + 4.0, "end", "0");
    svg::text(
        s,
        LEFT - 6.0,
        COUNTS_TOP + COUNTS_H,
        "end",
        &format!("{max:.0}"),
    );
    vertical_label(s, 14.0, zero - half / 2.0, "T1 content");
    vertical_label(s, 14.0, zero + half / 2.0, "T2 code");
}

fn bars_path(s: &mut String, d: &str, stroke: &str, width: f64) {
    if !d.is_empty() {
        let _ = writeln!(
            s,
            "<path d=\"{d}\" stroke=\"{stroke}\" stroke-width=\"{width:.2}\" \
             shape-rendering=\"crispEdges\" fill=\"none\"/>"
        );
    }
}

fn vertical_label(s: &mut String, x: f64, y: f64, label: &str) {
    let _ = writeln!(
        s,
        "<text transform=\"translate({x:.1} {y:.1}) rotate(-90)\" text-anchor=\"middle\">{}</text>",
        esc(label)
    );
}

/// The smoothed diff as a line, on its own symmetric scale.
fn diff_panel(s: &mut String, e: &Explanation, sc: &Scale) {
    let max = e.diff.iter().map(|d| d.abs()).max().unwrap_or(0).max(1) as f64;
    let zero = DIFF_TOP + DIFF_H / 2.0;
    let y = |d: i64| zero - (DIFF_H / 2.0) * d as f64 / max;
    let mut d = String::new();
    for (i, &v) in e.diff.iter().enumerate() {
        let cmd = if i == 0 { 'M' } else { 'L' };
        let _ = write!(d, "{cmd}{:.2} {:.2}", sc.x(i as f64 + 0.5), y(v));
    }
    svg::line(s, (LEFT, zero), (LEFT + sc.plot_w, zero), "stroke=\"#000\"");
    if !d.is_empty() {
        let _ = writeln!(
            s,
            "<path d=\"{d}\" stroke=\"{}\" stroke-width=\"1.2\" fill=\"none\"/>",
            colour::DIFF
        );
    }
    svg::text(s, LEFT - 6.0, DIFF_TOP + 10.0, "end", &format!("{max:.0}"));
    svg::text(s, LEFT - 6.0, zero + 4.0, "end", "0");
    svg::text(
        s,
        LEFT - 6.0,
        DIFF_TOP + DIFF_H,
        "end",
        &format!("-{max:.0}"),
    );
    vertical_label(s, 14.0, zero, "diff");
}

fn headline_marker(s: &mut String, e: &Explanation, sc: &Scale) {
    let Some(h) = e.headline_line else { return };
    let x = sc.x(f64::from(h) + 0.5);
    let style = format!(
        "stroke=\"{}\" stroke-width=\"2\" stroke-dasharray=\"5 3\"",
        colour::HEADLINE
    );
    svg::line(s, (x, COUNTS_TOP - 4.0), (x, DIFF_TOP + DIFF_H), &style);
    svg::text(s, x + 3.0, COUNTS_TOP + 8.0, "start", "headline");
}

fn x_axis(s: &mut String, sc: &Scale, y: f64) {
    let step = svg::tick_step(sc.n.max(1) as f64, 10.0).max(1.0) as usize;
    for v in (0..=sc.n).step_by(step) {
        svg::text(s, sc.x(v as f64), y + 14.0, "middle", &v.to_string());
    }
    svg::text(
        s,
        LEFT + sc.plot_w / 2.0,
        y + 30.0,
        "middle",
        "logical line",
    );
}

/// The self-contained HTML page for one extraction.
pub fn page(e: &Explanation, title: &str, options: &str) -> String {
    let doc = &e.document;
    let mut h = String::new();
    let _ = write!(
        h,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <title>explain: {}</title><style>{STYLE}</style></head><body>\n\
         <h1>explain: {}</h1>\n<p class=meta>{} · {} lines, {} selected in {} of {} regions · \
         encoding {} ({})</p>\n",
        esc(title),
        esc(title),
        esc(options),
        doc.lines_total,
        doc.lines_selected,
        e.chosen.len(),
        e.regions.len(),
        esc(&doc.encoding),
        esc(&doc.encoding_source),
    );
    h.push_str("<div class=chart>");
    // The page's own heading names the page: the chart needs none.
    h.push_str(&chart(e, 1140.0, true, None));
    h.push_str("</div>\n<div class=cols><div class=lines>\n<h2>Lines</h2>\n");
    source_lines(&mut h, e);
    h.push_str("</div><div class=out>\n<h2>Headline</h2>\n");
    let headline = doc.headline.as_deref().unwrap_or("(none)");
    let _ = writeln!(h, "<p class=headline>{}</p>", esc(headline));
    let _ = writeln!(h, "<h2>Extracted text</h2>\n<pre>{}</pre>", esc(&doc.text));
    h.push_str("</div></div>\n</body></html>\n");
    h
}

/// One row per logical line: number, T1, T2, diff, escaped source.
fn source_lines(h: &mut String, e: &Explanation) {
    h.push_str("<table><tr><th>line</th><th>T1</th><th>T2</th><th>diff</th><th>source</th></tr>\n");
    for (i, l) in e.lines.iter().enumerate() {
        let class = if e.headline_line == Some(i as u32) {
            "h"
        } else if e.is_chosen(i) {
            "c"
        } else if e.in_region(i) {
            "r"
        } else {
            "n"
        };
        let src = e.line_source(i);
        let mut shown: String = src.chars().take(SHOWN_CHARS).collect();
        if shown.len() < src.len() {
            shown.push('…');
        }
        let diff = e.diff.get(i).copied().unwrap_or(0);
        let _ = writeln!(
            h,
            "<tr class={class} id=L{i}><td>{i}</td><td>{}</td><td>{}</td><td>{diff}</td><td><code>{}</code></td></tr>",
            l.t1,
            l.t2,
            esc(&shown)
        );
    }
    h.push_str("</table>\n");
}

const STYLE: &str = "body{font:14px/1.4 sans-serif;margin:16px;color:#222}\
h1{font-size:18px;margin:0 0 4px}h2{font-size:15px;margin:12px 0 6px}\
.meta{color:#555;margin:0 0 8px}.chart svg{max-width:100%;height:auto}\
.cols{display:flex;gap:16px;align-items:flex-start}.lines{flex:3;min-width:0}\
.out{flex:2;min-width:0;position:sticky;top:0}\
table{border-collapse:collapse;width:100%;font-size:12px}\
td,th{padding:1px 4px;text-align:right;vertical-align:top;border-bottom:1px solid #eee}\
td:last-child,th:last-child{text-align:left;word-break:break-all}\
tr.c{background:#c7e9c0}tr.r{background:#e3e3e3}tr.n{color:#888}\
tr.h{background:#c7e9c0;outline:2px solid #7b3294}\
pre{white-space:pre-wrap;background:#f6f6f6;padding:8px;font-size:12px}\
.headline{font-weight:bold;font-size:16px}";
