//! Scoring a manifest's pages and summarising them per dataset, as
//! `shared/eval/score.py` does: pages with empty gold are skipped, a failed
//! or empty extraction scores 0, scores are macro-averaged over the pages of
//! a dataset and the mean row averages the datasets. Also the text outputs:
//! the table, the JSON summary (score.py's keys plus `failed`), the per-page
//! TSV and the comparison of two runs. No HTML here (see `html`).

use super::manifest::Entry;
use super::score::{bow_overlap, intern, lcs_len, normalize_headline, prf, token_f1, tokens};
use crate::{Extractor, Hints};
use rayon::prelude::*;
use serde::Serialize;
use serde_json::{Map, Value, json};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Headline scores of one page.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct HeadlineScore {
    pub exact: bool,
    pub f1: f64,
}

/// Scores of one page whose gold is not empty.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PageScore {
    pub precision: f64,
    pub recall: f64,
    pub f1: f64,
    pub bow_f1: f64,
    pub pred_tokens: usize,
    pub gold_tokens: usize,
    pub headline: Option<HeadlineScore>,
}

/// One manifest page after extraction and scoring.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PageResult {
    pub dataset: String,
    pub id: String,
    pub html: std::path::PathBuf,
    /// `None` when the page is not scored (empty or unreadable gold).
    pub score: Option<PageScore>,
    /// What went wrong: reading the page, extracting it, or reading gold.
    pub error: Option<String>,
}

impl PageResult {
    pub fn key(&self) -> String {
        format!("{}/{}", self.dataset, self.id)
    }

    pub fn f1(&self) -> Option<f64> {
        self.score.as_ref().map(|s| s.f1)
    }
}

/// What an extraction gave for one page: text and headline, or an error.
pub type Extracted = Result<(String, Option<String>), String>;

/// Extracts and scores every page on the current rayon pool, in order.
pub fn evaluate(extractor: &Extractor, entries: &[Entry]) -> Vec<PageResult> {
    entries
        .par_iter()
        .map(|e| evaluate_one(extractor, e))
        .collect()
}

/// Extracts and scores one page.
pub fn evaluate_one(extractor: &Extractor, entry: &Entry) -> PageResult {
    score_page(entry, extract(extractor, entry))
}

fn extract(extractor: &Extractor, entry: &Entry) -> Extracted {
    // Read no further than the page limit: a huge page is refused, not
    // held whole first.
    let bytes = std::fs::File::open(&entry.html)
        .and_then(|f| super::read_page(f, extractor.options().max_bytes))
        .map_err(|e| format!("reading html: {e}"))?;
    let doc = extractor
        .extract(&bytes, &Hints::default())
        .map_err(|e| e.to_string())?;
    Ok((doc.text, doc.headline))
}

/// Scores one page's extraction against its gold files.
pub fn score_page(entry: &Entry, extracted: Extracted) -> PageResult {
    let mut result = PageResult {
        dataset: entry.dataset.clone(),
        id: entry.id.clone(),
        html: entry.html.clone(),
        score: None,
        error: extracted.as_ref().err().cloned(),
    };
    let gold = match std::fs::read(&entry.gold_text) {
        Ok(bytes) => tokens(&String::from_utf8_lossy(&bytes)),
        Err(e) => {
            // A page whose html and gold are both missing names both.
            let gold = format!("reading gold: {e}");
            result.error = Some(match result.error.take() {
                Some(page) => format!("{page}; {gold}"),
                None => gold,
            });
            return result;
        }
    };
    if gold.is_empty() {
        return result;
    }
    let (text, headline) = extracted.unwrap_or_default();
    let pred = tokens(&text);
    let (a, b) = intern(&pred, &gold);
    let (precision, recall, f1) = prf(lcs_len(&a, &b), a.len(), b.len());
    let (_, _, bow_f1) = prf(bow_overlap(&a, &b), a.len(), b.len());
    result.score = Some(PageScore {
        precision,
        recall,
        f1,
        bow_f1,
        pred_tokens: a.len(),
        gold_tokens: b.len(),
        headline: score_headline(entry, headline.as_deref().unwrap_or("")),
    });
    result
}

/// Exact match and token F1 when the page has a non-empty gold headline.
fn score_headline(entry: &Entry, got: &str) -> Option<HeadlineScore> {
    let bytes = std::fs::read(entry.gold_headline.as_ref()?).ok()?;
    let gold = normalize_headline(&String::from_utf8_lossy(&bytes));
    if gold.is_empty() {
        return None;
    }
    let got = normalize_headline(got);
    Some(HeadlineScore {
        exact: got == gold,
        f1: token_f1(&got, &gold),
    })
}

/// Averages over one dataset's scored pages.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct DatasetSummary {
    pub pages: usize,
    pub precision: f64,
    pub recall: f64,
    pub f1: f64,
    pub bow_f1: f64,
    /// Scored pages whose extraction has no token (failures included).
    pub empty: usize,
    /// Always 0 here (every page is extracted); kept for score.py's shape.
    pub missing: usize,
    /// Scored pages whose extraction failed.
    pub failed: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub headline_pages: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub headline_exact: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub headline_f1: Option<f64>,
}

/// The mean over datasets of the four text scores.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct Mean {
    pub precision: f64,
    pub recall: f64,
    pub f1: f64,
    pub bow_f1: f64,
}

/// Per-dataset summaries (sorted by name) and their mean.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Summary {
    pub datasets: BTreeMap<String, DatasetSummary>,
    pub mean: Option<Mean>,
}

/// Summarises page results as score.py does.
pub fn summarize(results: &[PageResult]) -> Summary {
    let mut by_ds: BTreeMap<&str, Vec<&PageResult>> = BTreeMap::new();
    for r in results.iter().filter(|r| r.score.is_some()) {
        by_ds.entry(r.dataset.as_str()).or_default().push(r);
    }
    let datasets: BTreeMap<String, DatasetSummary> = by_ds
        .into_iter()
        .map(|(ds, pages)| (ds.to_string(), dataset_summary(&pages)))
        .collect();
    let mean = (!datasets.is_empty()).then(|| {
        let n = datasets.len() as f64;
        let avg = |f: fn(&DatasetSummary) -> f64| datasets.values().map(f).sum::<f64>() / n;
        Mean {
            precision: avg(|s| s.precision),
            recall: avg(|s| s.recall),
            f1: avg(|s| s.f1),
            bow_f1: avg(|s| s.bow_f1),
        }
    });
    Summary { datasets, mean }
}

fn dataset_summary(pages: &[&PageResult]) -> DatasetSummary {
    let scores: Vec<&PageScore> = pages.iter().filter_map(|p| p.score.as_ref()).collect();
    let n = scores.len() as f64;
    let avg = |f: fn(&PageScore) -> f64| scores.iter().map(|s| f(s)).sum::<f64>() / n;
    let heads: Vec<HeadlineScore> = scores.iter().filter_map(|s| s.headline).collect();
    let hn = heads.len() as f64;
    let has_heads = !heads.is_empty();
    DatasetSummary {
        pages: scores.len(),
        precision: avg(|s| s.precision),
        recall: avg(|s| s.recall),
        f1: avg(|s| s.f1),
        bow_f1: avg(|s| s.bow_f1),
        empty: scores.iter().filter(|s| s.pred_tokens == 0).count(),
        missing: 0,
        failed: pages.iter().filter(|p| p.error.is_some()).count(),
        headline_pages: has_heads.then_some(heads.len()),
        headline_exact: has_heads.then(|| heads.iter().filter(|h| h.exact).count() as f64 / hn),
        headline_f1: has_heads.then(|| heads.iter().map(|h| h.f1).sum::<f64>() / hn),
    }
}

impl Summary {
    /// score.py's JSON shape: one object per dataset and
    /// `_mean_over_datasets`.
    pub fn to_json(&self) -> Value {
        let mut map = Map::new();
        for (ds, s) in &self.datasets {
            map.insert(ds.clone(), json!(s));
        }
        if let Some(m) = &self.mean {
            map.insert("_mean_over_datasets".into(), json!(m));
        }
        Value::Object(map)
    }

    /// The table score.py prints, with a `fail` column.
    pub fn table(&self) -> String {
        let mut t = format!(
            "{:<20}{:>6}{:>7}{:>7}{:>7}{:>7}{:>6}{:>6}\n",
            "dataset", "pages", "P", "R", "F1", "bowF1", "empty", "fail"
        );
        for (ds, s) in &self.datasets {
            let _ = writeln!(
                t,
                "{ds:<20}{:>6}{:>7.3}{:>7.3}{:>7.3}{:>7.3}{:>6}{:>6}",
                s.pages, s.precision, s.recall, s.f1, s.bow_f1, s.empty, s.failed
            );
        }
        if let Some(m) = &self.mean {
            let _ = writeln!(
                t,
                "{:<20}{:>6}{:>7.3}{:>7.3}{:>7.3}{:>7.3}",
                "mean", "", m.precision, m.recall, m.f1, m.bow_f1
            );
        }
        for (ds, s) in &self.datasets {
            if let (Some(n), Some(e), Some(f)) = (s.headline_pages, s.headline_exact, s.headline_f1)
            {
                let _ = writeln!(
                    t,
                    "headline {ds}: {n} pages, exact match {e:.3}, token F1 {f:.3}"
                );
            }
        }
        t
    }
}

/// Per-page TSV: score.py's columns, then headline scores and the error.
pub fn per_page_tsv(results: &[PageResult]) -> String {
    let mut t = String::from(
        "dataset\tid\tprecision\trecall\tf1\tbow_f1\tpred_tokens\tgold_tokens\t\
         headline_exact\theadline_f1\terror\n",
    );
    for r in results {
        let Some(s) = &r.score else { continue };
        let (he, hf) = match s.headline {
            Some(h) => (u8::from(h.exact).to_string(), format!("{:.4}", h.f1)),
            None => (String::new(), String::new()),
        };
        let err = r.error.as_deref().unwrap_or("").replace(['\t', '\n'], " ");
        let _ = writeln!(
            t,
            "{}\t{}\t{:.4}\t{:.4}\t{:.4}\t{:.4}\t{}\t{}\t{he}\t{hf}\t{err}",
            r.dataset, r.id, s.precision, s.recall, s.f1, s.bow_f1, s.pred_tokens, s.gold_tokens
        );
    }
    t
}

/// Indices of scored pages, worst F1 first (ties in manifest order).
pub fn worst(results: &[PageResult], n: usize) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..results.len())
        .filter(|&i| results[i].score.is_some())
        .collect();
    idx.sort_by(|&a, &b| {
        let (fa, fb) = (results[a].f1(), results[b].f1());
        fa.partial_cmp(&fb).unwrap_or(std::cmp::Ordering::Equal)
    });
    idx.truncate(n);
    idx
}

/// Pages scored in both runs, by |ΔF1| descending: (index, F1 a, F1 b).
pub fn changed(a: &[PageResult], b: &[PageResult], n: usize) -> Vec<(usize, f64, f64)> {
    let mut d: Vec<(usize, f64, f64)> = a
        .iter()
        .zip(b)
        .enumerate()
        .filter_map(|(i, (x, y))| Some((i, x.f1()?, y.f1()?)))
        .filter(|(_, x, y)| x != y)
        .collect();
    d.sort_by(|p, q| {
        let (dp, dq) = ((p.2 - p.1).abs(), (q.2 - q.1).abs());
        dq.partial_cmp(&dp).unwrap_or(std::cmp::Ordering::Equal)
    });
    d.truncate(n);
    d
}

/// The comparison table: per dataset A, B and B − A of P, R, F1, bowF1,
/// then the pages that changed most.
pub fn compare_table(
    names: (&str, &str),
    (sa, sb): (&Summary, &Summary),
    (ra, rb): (&[PageResult], &[PageResult]),
    top: usize,
) -> String {
    let mut t = format!("A: {}\nB: {}\n\n", names.0, names.1);
    let _ = writeln!(
        t,
        "{:<20}{:>6}{:>8}{:>8}{:>8}{:>8}{:>8}{:>8}{:>8}",
        "dataset", "pages", "F1 A", "F1 B", "ΔF1", "ΔP", "ΔR", "ΔbowF1", "Δempty"
    );
    for (ds, a) in &sa.datasets {
        let b = sb.datasets.get(ds).cloned().unwrap_or_default();
        let _ = writeln!(
            t,
            "{ds:<20}{:>6}{:>8.3}{:>8.3}{:>+8.3}{:>+8.3}{:>+8.3}{:>+8.3}{:>+8}",
            a.pages,
            a.f1,
            b.f1,
            b.f1 - a.f1,
            b.precision - a.precision,
            b.recall - a.recall,
            b.bow_f1 - a.bow_f1,
            b.empty as i64 - a.empty as i64
        );
    }
    if let (Some(a), Some(b)) = (&sa.mean, &sb.mean) {
        let _ = writeln!(
            t,
            "{:<20}{:>6}{:>8.3}{:>8.3}{:>+8.3}{:>+8.3}{:>+8.3}{:>+8.3}",
            "mean",
            "",
            a.f1,
            b.f1,
            b.f1 - a.f1,
            b.precision - a.precision,
            b.recall - a.recall,
            b.bow_f1 - a.bow_f1
        );
    }
    let moved = changed(ra, rb, top);
    let better = ra.iter().zip(rb).filter(|(x, y)| y.f1() > x.f1()).count();
    let worse = ra.iter().zip(rb).filter(|(x, y)| y.f1() < x.f1()).count();
    let _ = writeln!(t, "\npages better in B: {better}, worse: {worse}");
    if !moved.is_empty() {
        let _ = writeln!(t, "pages that changed most (F1 A → B):");
    }
    for (i, fa, fb) in moved {
        let _ = writeln!(t, "  {:+.3}  {fa:.3} → {fb:.3}  {}", fb - fa, ra[i].key());
    }
    t
}
