//! The evaluation manifest: a TSV with a header naming at least `dataset`,
//! `id`, `html` and `gold_text` (optionally `gold_headline`), paths relative
//! to the manifest's folder unless absolute — the format of
//! `shared/corpus/manifest.tsv`, read as `score.py` reads it. Reading only;
//! no scoring here.

use super::error::ReportError;
use std::path::{Path, PathBuf};

/// One page of the manifest.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    pub dataset: String,
    pub id: String,
    pub html: PathBuf,
    pub gold_text: PathBuf,
    /// `None` when the column is absent or empty (or names a folder).
    pub gold_headline: Option<PathBuf>,
}

impl Entry {
    /// `dataset/id`, the page's name in reports.
    pub fn key(&self) -> String {
        format!("{}/{}", self.dataset, self.id)
    }
}

/// Reads a manifest file.
pub fn read(path: &Path) -> Result<Vec<Entry>, ReportError> {
    let text = std::fs::read_to_string(path).map_err(ReportError::io(path))?;
    let base = path
        .canonicalize()
        .ok()
        .and_then(|p| p.parent().map(Path::to_path_buf))
        .unwrap_or_default();
    parse(&text, &base).map_err(|message| ReportError::Manifest {
        path: path.to_path_buf(),
        message,
    })
}

/// Parses manifest text; relative paths are joined to `base`.
pub fn parse(text: &str, base: &Path) -> Result<Vec<Entry>, String> {
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap_or("").split('\t').collect();
    let col = |name: &str| header.iter().position(|h| h.trim_end_matches('\r') == name);
    let need = |name: &str| col(name).ok_or_else(|| format!("header has no {name:?} column"));
    let (ds, id, html, gold) = (
        need("dataset")?,
        need("id")?,
        need("html")?,
        need("gold_text")?,
    );
    let head = col("gold_headline");
    let mut out = Vec::new();
    for (n, line) in lines.enumerate() {
        let line = line.trim_end_matches('\r');
        if line.trim().is_empty() {
            continue;
        }
        let f: Vec<&str> = line.split('\t').collect();
        let get = |i: usize| f.get(i).copied().unwrap_or("");
        if get(html).is_empty() || get(gold).is_empty() {
            return Err(format!("line {}: no html or gold_text path", n + 2));
        }
        let headline = head.map(get).filter(|h| !h.is_empty() && !h.ends_with('/'));
        out.push(Entry {
            dataset: get(ds).to_string(),
            id: get(id).to_string(),
            html: base.join(get(html)),
            gold_text: base.join(get(gold)),
            gold_headline: headline.map(|h| base.join(h)),
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_corpus_format() {
        let text = "dataset\tid\thtml\tgold_text\tgold_headline\n\
                    a\t1\ta/1.html\ta/1.txt\t\n\
                    b\t2\t/abs/2.html\tb/2.txt\tb/2.head\n\n";
        let e = parse(text, Path::new("/m")).unwrap();
        assert_eq!(e.len(), 2);
        assert_eq!(e[0].html, Path::new("/m/a/1.html"));
        assert_eq!(e[0].gold_headline, None);
        assert_eq!(e[1].html, Path::new("/abs/2.html"));
        assert_eq!(
            e[1].gold_headline.as_deref(),
            Some(Path::new("/m/b/2.head"))
        );
        assert_eq!(e[1].key(), "b/2");
        assert!(parse("dataset\tid\thtml\n", Path::new("/")).is_err());
    }
}
