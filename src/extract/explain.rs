//! Why a page came out as it did: the per-line counts, the smoothed diff,
//! every region and the chosen ones, for pictures and debugging.
//!
//! [`explain`] runs the normal extraction (so the [`Document`] is exactly the
//! one [`Extractor::extract`] gives), then scans the page once more with the
//! same encoding and line limits to expose what the selection saw. It is
//! pure like the rest of the core and does no rendering: SVG and HTML live
//! in `crate::report`.
//!
//! The per-line T1/T2, the diff and all regions come from
//! [`select::select`] itself (its `counts`, `diff` and `all`), so the
//! picture cannot drift from the policy; the chosen regions and the headline
//! line are the document's.

use super::charset::{Choice, EncodingSource, StreamDecoder};
use super::regions::Region;
use super::scan::{ScanLimits, Scanner};
use super::{Document, ExtractError, Extractor, Hints, select};
use encoding_rs::Encoding;

/// One logical line as the selection saw it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineCounts {
    /// Byte range of the line in [`Explanation::source`].
    pub start: u32,
    pub end: u32,
    /// Content (T1) and code (T2) characters under the chosen policy.
    pub t1: i64,
    pub t2: i64,
    /// Heading level (1-6) when the line opens with a heading, else 0.
    pub heading: u8,
}

/// Everything a picture of one extraction needs.
#[derive(Debug, Clone)]
pub struct Explanation {
    /// The decoded source the lines index into.
    pub source: String,
    pub lines: Vec<LineCounts>,
    /// Smoothed diff per line, as the selection computed it.
    pub diff: Vec<i64>,
    /// All regions of positive diff, in order.
    pub regions: Vec<Region>,
    /// The chosen regions (the document's).
    pub chosen: Vec<Region>,
    /// The line the headline came from, when it came from the body.
    pub headline_line: Option<u32>,
    /// The extraction result.
    pub document: Document,
}

impl Explanation {
    /// The source text of line `i` (empty when out of range).
    pub fn line_source(&self, i: usize) -> &str {
        self.lines
            .get(i)
            .and_then(|l| self.source.get(l.start as usize..l.end as usize))
            .unwrap_or("")
    }

    /// Is line `i` inside a chosen region?
    pub fn is_chosen(&self, i: usize) -> bool {
        in_any(&self.chosen, i)
    }

    /// Is line `i` inside any region (chosen or not)?
    pub fn in_region(&self, i: usize) -> bool {
        in_any(&self.regions, i)
    }
}

fn in_any(regions: &[Region], i: usize) -> bool {
    regions
        .iter()
        .any(|r| (r.first as usize..=r.last as usize).contains(&i))
}

/// Extracts the page and explains the selection.
pub fn explain(
    extractor: &Extractor,
    bytes: &[u8],
    hints: &Hints,
) -> Result<Explanation, ExtractError> {
    let document = extractor.extract(bytes, hints)?;
    let options = extractor.options();
    let scan = rescan(bytes, &document, options.wrap);
    let sel = select::select(&scan.lines, &scan.elements, options);
    let lines = scan
        .lines
        .iter()
        .zip(&sel.counts)
        .map(|(l, &(t1, t2))| LineCounts {
            start: l.start,
            end: l.end,
            t1,
            t2,
            heading: l.heading,
        })
        .collect();
    Ok(Explanation {
        source: scan.src.into_owned(),
        lines,
        diff: sel.diff,
        regions: sel.all,
        chosen: document.regions.clone(),
        headline_line: document.headline_line,
        document,
    })
}

/// Decodes the page with the encoding the extraction chose and scans it.
fn rescan(bytes: &[u8], document: &Document, wrap: u32) -> super::scan::Scan<'static> {
    let encoding = Encoding::for_label(document.encoding.as_bytes()).unwrap_or(encoding_rs::UTF_8);
    let bom_len = match Encoding::for_bom(bytes) {
        Some((_, len)) if document.encoding_source == "bom" => len,
        _ => 0,
    };
    let choice = Choice {
        encoding,
        source: EncodingSource::Detected,
        bom_len,
    };
    let mut decoder = StreamDecoder::new(choice);
    let mut scanner = Scanner::new(ScanLimits {
        wrap,
        ..ScanLimits::default()
    });
    scanner.push(decoder.decode(&bytes[bom_len..], false));
    scanner.push(decoder.decode(b"", true));
    scanner.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::regions;
    use crate::extract::{Algorithm, Options};

    const PAGE: &str = "<html><head><title>Rain falls</title></head><body>\
        <div class=nav><a href=/a>Home</a> <a href=/b>News</a></div>\
        <h1>Rain falls on the plain</h1>\
        <p>The rain in Spain stays mainly in the plain, said the report today.</p>\
        <p>More words follow here so the region has plenty of content text.</p>\
        <div class=footer><a href=/c>Contact</a></div></body></html>";

    #[test]
    fn explanation_matches_the_extraction() {
        for algorithm in Algorithm::ALL {
            let ex = Extractor::new(Options::for_algorithm(algorithm));
            let e = explain(&ex, PAGE.as_bytes(), &Hints::default()).unwrap();
            let t: Vec<(i64, i64)> = e.lines.iter().map(|l| (l.t1, l.t2)).collect();
            assert_eq!(regions::smooth(&t), e.diff, "{algorithm}");
            assert_eq!(e.regions, regions::regions(&t, &e.diff), "{algorithm}");
            assert_eq!(e.lines.len(), e.diff.len());
            assert_eq!(e.lines.len() as u32, e.document.lines_total);
            for c in &e.chosen {
                assert!(e.regions.contains(c), "{algorithm}: chosen ⊆ all");
            }
        }
        let e = explain(
            &Extractor::new(Options::default()),
            PAGE.as_bytes(),
            &Hints::default(),
        )
        .unwrap();
        let chosen: Vec<usize> = (0..e.lines.len()).filter(|&i| e.is_chosen(i)).collect();
        assert!(
            chosen
                .iter()
                .any(|&i| e.line_source(i).contains("rain in Spain"))
        );
        assert!(!chosen.iter().any(|&i| e.line_source(i).contains("Contact")));
    }
}
