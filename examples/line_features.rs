//! Dumps, for every chosen line of every page, the scanner's counts and
//! the line's rendered text as JSON lines: the input of
//! `scripts/train_line_filter.py`, which validates a learned line filter
//! leaving one development set out.
//!
//! usage: cargo run --release --example line_features -- LIST > lines.jsonl
//! LIST names one HTML file a line.

use linesift::extract::charset::{Choice, EncodingSource, StreamDecoder};
use linesift::extract::scan::{Kind, NO_ELEMENT, ScanLimits, Scanner};
use linesift::extract::text::{self, Anchors};
use linesift::extract::{Extractor, Hints, Options, select};
use std::io::{BufRead, BufWriter, Write};

fn main() -> anyhow::Result<()> {
    let list = std::env::args()
        .nth(1)
        .ok_or_else(|| anyhow::anyhow!("usage: line_features LIST"))?;
    let extractor = Extractor::new(Options::default());
    let mut out = BufWriter::new(std::io::stdout().lock());
    for path in std::io::BufReader::new(std::fs::File::open(&list)?).lines() {
        let path = path?;
        let Ok(bytes) = std::fs::read(&path) else {
            continue;
        };
        let Ok(doc) = extractor.extract(&bytes, &Hints::default()) else {
            continue;
        };
        let encoding =
            encoding_rs::Encoding::for_label(doc.encoding.as_bytes()).unwrap_or(encoding_rs::UTF_8);
        let bom_len = match encoding_rs::Encoding::for_bom(&bytes) {
            Some((_, len)) if doc.encoding_source == "bom" => len,
            _ => 0,
        };
        let mut decoder = StreamDecoder::new(Choice {
            encoding,
            source: EncodingSource::Detected,
            bom_len,
        });
        let mut scanner = Scanner::new(ScanLimits::default());
        scanner.push(decoder.decode(&bytes[bom_len..], false));
        scanner.push(decoder.decode(b"", true));
        let scan = scanner.finish();
        let sel = select::select(&scan.lines, &scan.elements, extractor.options());
        let Some(seed) = sel.seed else {
            continue;
        };
        // The seed's lines' common container.
        let parent = |e: u32| {
            scan.elements
                .get(e as usize)
                .map_or(NO_ELEMENT, |x| x.parent)
        };
        let chain = |mut e: u32| {
            let mut v = Vec::new();
            while e != NO_ELEMENT && v.len() < 1024 {
                v.push(e);
                e = parent(e);
            }
            v
        };
        let mut lca: Option<Vec<u32>> = None;
        for i in seed.first..=seed.last {
            let c = scan
                .lines
                .get(i as usize)
                .map_or(NO_ELEMENT, |l| l.container);
            let up = chain(c);
            lca = Some(match lca {
                None => up,
                Some(old) => old.into_iter().filter(|e| up.contains(e)).collect(),
            });
        }
        let seed_box = lca.and_then(|v| v.first().copied()).unwrap_or(NO_ELEMENT);
        let total: u64 = doc
            .regions
            .iter()
            .flat_map(|r| r.first..=r.last)
            .filter_map(|i| scan.lines.get(i as usize))
            .map(|l| u64::from(l.text))
            .sum();
        let mut before = 0u64;
        let chosen: Vec<u32> = doc.regions.iter().flat_map(|r| r.first..=r.last).collect();
        let (Some(&first), Some(&last)) = (chosen.first(), chosen.last()) else {
            continue;
        };
        for (k, &i) in chosen.iter().enumerate() {
            let Some(l) = scan.lines.get(i as usize) else {
                continue;
            };
            if l.text == 0 {
                continue;
            }
            let in_seed_box = seed_box != NO_ELEMENT && chain(l.container).contains(&seed_box);
            let mut t = String::new();
            text::render(
                &scan.src,
                &[(l.start as usize, l.end as usize)],
                Anchors::Keep,
                &mut t,
            );
            let e = (l.container != NO_ELEMENT)
                .then(|| scan.elements.get(l.container as usize))
                .flatten();
            let record = serde_json::json!({
                "path": path,
                "line": i,
                "k": k,
                "n": chosen.len(),
                "first": first,
                "last": last,
                "headline_line": doc.headline_line,
                "text_len": l.text,
                "code": l.code,
                "bare": l.bare,
                "inline_bare": l.inline_bare,
                "anchor_text": l.anchor_text,
                "anchors": l.anchors,
                "boiler": l.boiler_text,
                "layout": l.layout_text,
                "comment": l.comment_text,
                "overlay": l.overlay_text,
                "heading": l.heading,
                "el_text": e.map_or(0, |e| e.text),
                "el_boiler": e.is_some_and(|e| e.boiler),
                "el_article": e.is_some_and(|e| e.article),
                "el_form": e.is_some_and(|e| e.kind == Kind::Form),
                "el_tag": e.map(|e| format!("{:?}", e.tag)),
                "rendered": t,
                "seed_first": seed.first,
                "seed_last": seed.last,
                "in_seed_box": in_seed_box,
                "before": before,
                "total": total,
            });
            before += u64::from(l.text);
            serde_json::to_writer(&mut out, &record)?;
            out.write_all(b"\n")?;
        }
    }
    Ok(())
}
