//! The eval HTML report: one self-contained page (inline SVG and CSS, no
//! scripts, no external assets) with the summary table, the score bars per
//! dataset, the histogram of per-page F1 and the worst pages with links to
//! their explain pages. Rendering only: the caller writes the files.

use super::eval::{PageResult, Summary};
use super::svg::{self, esc};
use std::fmt::Write as _;

/// A worst page: its index in the results, the link to its explain page
/// (relative to the report) if one was written, and its gold text and the
/// extracted text, shown side by side, when they could be read.
pub struct Worst {
    pub index: usize,
    pub link: Option<String>,
    pub gold: Option<String>,
    pub output: Option<String>,
}

/// The most of a gold or extracted text shown in the report, in characters:
/// enough to see what was missed or added, small enough for 20 pages.
const SHOWN_CHARS: usize = 3000;

/// Renders the report.
pub fn eval_report(
    manifest: &str,
    options: &str,
    summary: &Summary,
    results: &[PageResult],
    worst: &[Worst],
) -> String {
    let mut h = String::new();
    let _ = write!(
        h,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <title>linesift eval</title><style>{STYLE}</style></head><body>\n\
         <h1>linesift eval</h1>\n<p class=meta>{} · {}</p>\n",
        esc(manifest),
        esc(options)
    );
    summary_table(&mut h, summary);
    h.push_str("<h2>Scores per dataset</h2>\n");
    h.push_str(&svg::score_bars(summary));
    h.push_str("<h2>Per-page token F1</h2>\n");
    h.push_str(&svg::f1_histogram(results));
    worst_table(&mut h, results, worst);
    worst_texts(&mut h, results, worst);
    h.push_str("</body></html>\n");
    h
}

fn summary_table(h: &mut String, summary: &Summary) {
    h.push_str(
        "<table><tr><th>dataset</th><th>pages</th><th>P</th><th>R</th><th>F1</th>\
         <th>bowF1</th><th>empty</th><th>failed</th><th>headline exact</th>\
         <th>headline F1</th></tr>\n",
    );
    let opt = |v: Option<f64>| v.map_or(String::new(), |v| format!("{v:.3}"));
    for (ds, s) in &summary.datasets {
        let _ = writeln!(
            h,
            "<tr><td>{}</td><td>{}</td><td>{:.3}</td><td>{:.3}</td><td><b>{:.3}</b></td>\
             <td>{:.3}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            esc(ds),
            s.pages,
            s.precision,
            s.recall,
            s.f1,
            s.bow_f1,
            s.empty,
            s.failed,
            opt(s.headline_exact),
            opt(s.headline_f1)
        );
    }
    if let Some(m) = &summary.mean {
        let _ = writeln!(
            h,
            "<tr class=mean><td>mean</td><td></td><td>{:.3}</td><td>{:.3}</td>\
             <td><b>{:.3}</b></td><td>{:.3}</td><td></td><td></td><td></td><td></td></tr>",
            m.precision, m.recall, m.f1, m.bow_f1
        );
    }
    h.push_str("</table>\n");
}

fn worst_table(h: &mut String, results: &[PageResult], worst: &[Worst]) {
    if worst.is_empty() {
        return;
    }
    let _ = writeln!(
        h,
        "<h2>Worst {} pages</h2>\n<table><tr><th>page</th><th>P</th><th>R</th>\
         <th>F1</th><th>tokens</th><th>gold</th><th>note</th></tr>",
        worst.len()
    );
    for w in worst {
        let Some(r) = results.get(w.index) else {
            continue;
        };
        let Some(s) = &r.score else { continue };
        let name = match &w.link {
            Some(link) => format!("<a href=\"{}\">{}</a>", esc(link), esc(&r.key())),
            None => esc(&r.key()),
        };
        let _ = writeln!(
            h,
            "<tr><td>{name}</td><td>{:.3}</td><td>{:.3}</td><td>{:.3}</td><td>{}</td>\
             <td>{}</td><td>{}</td></tr>",
            s.precision,
            s.recall,
            s.f1,
            s.pred_tokens,
            s.gold_tokens,
            esc(r.error.as_deref().unwrap_or(""))
        );
    }
    h.push_str("</table>\n");
}

/// Each worst page's gold text beside what was extracted.
fn worst_texts(h: &mut String, results: &[PageResult], worst: &[Worst]) {
    let shown: Vec<(&Worst, &PageResult)> = worst
        .iter()
        .filter(|w| w.gold.is_some() || w.output.is_some())
        .filter_map(|w| Some((w, results.get(w.index)?)))
        .collect();
    if shown.is_empty() {
        return;
    }
    h.push_str("<h2>Worst pages: gold and output</h2>\n");
    for (w, r) in shown {
        let f1 = r.f1().map_or(String::new(), |f| format!(" · F1 {f:.3}"));
        let _ = writeln!(
            h,
            "<h3>{}{f1}</h3>\n<div class=pair><div><h4>gold</h4><pre>{}</pre></div>\
             <div><h4>output</h4><pre>{}</pre></div></div>",
            esc(&r.key()),
            shown_text(w.gold.as_deref()),
            shown_text(w.output.as_deref()),
        );
    }
}

/// A text for the report: escaped, cut at [`SHOWN_CHARS`] with a note.
fn shown_text(text: Option<&str>) -> String {
    let Some(text) = text else {
        return "<i>(not read)</i>".into();
    };
    if text.trim().is_empty() {
        return "<i>(empty)</i>".into();
    }
    let total = text.chars().count();
    let mut shown = esc(&text.chars().take(SHOWN_CHARS).collect::<String>());
    if total > SHOWN_CHARS {
        let _ = write!(shown, "\n<i>… {} more characters</i>", total - SHOWN_CHARS);
    }
    shown
}

const STYLE: &str = "body{font:14px/1.4 sans-serif;margin:16px;color:#222;max-width:1100px}\
h1{font-size:20px;margin:0 0 4px}h2{font-size:16px;margin:18px 0 6px}.meta{color:#555}\
table{border-collapse:collapse;font-size:13px}\
td,th{padding:2px 8px;text-align:right;border-bottom:1px solid #eee}\
td:first-child,th:first-child{text-align:left}tr.mean{border-top:2px solid #999}\
h3{font-size:14px;margin:14px 0 4px}h4{font-size:13px;margin:0 0 2px;color:#555}\
.pair{display:flex;gap:12px}.pair>div{flex:1;min-width:0}\
.pair pre{white-space:pre-wrap;background:#f6f6f6;padding:6px;font-size:12px;\
max-height:24em;overflow:auto;margin:0}";
