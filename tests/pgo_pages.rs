//! The training input of the profile-guided build (scripts/pgo_pages.py,
//! run by scripts/build-pgo.sh): the pages must be ones the core keeps
//! content and finds headlines on, and the WARC must be one `linesift warc`
//! and warcio read in full, or the profile trains on error paths.

mod warc_support;

use linesift::{Extractor, Hints, Options};
use std::process::Command;
use warc_support::*;

const PAGES: usize = 12;

/// Generates the pages once per test into a fresh directory.
fn generate(name: &str) -> std::path::PathBuf {
    let dir = scratch(name);
    let status = Command::new("python3")
        .arg(root().join("scripts/pgo_pages.py"))
        .arg(&dir)
        .arg(PAGES.to_string())
        .status()
        .unwrap();
    assert!(status.success(), "pgo_pages.py failed");
    dir
}

#[test]
fn generated_pages_have_content_and_headlines() {
    let dir = generate("pages");
    let listing = std::fs::read_to_string(dir.join("pages.txt")).unwrap();
    let paths: Vec<&str> = listing.lines().collect();
    assert_eq!(paths.len(), PAGES);
    let extractor = Extractor::new(Options::default());
    let mut encodings = std::collections::BTreeSet::new();
    for path in paths {
        let bytes = std::fs::read(path).unwrap();
        let doc = extractor.extract(&bytes, &Hints::default()).unwrap();
        assert!(
            doc.text.len() > 200,
            "{path}: {} bytes of text",
            doc.text.len()
        );
        assert!(doc.headline.is_some(), "{path}: no headline");
        encodings.insert(doc.encoding);
    }
    assert!(encodings.contains("UTF-8"), "{encodings:?}");
}

#[test]
fn generated_warc_is_read_whole_by_linesift_and_warcio() {
    let dir = generate("warc");
    let warc = dir.join("pages.warc.gz");
    let out = dir.join("out.jsonl");
    let (code, _, stderr) =
        linesift(&["warc", warc.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(code, 0, "{stderr}");
    let records = std::fs::read_to_string(&out).unwrap();
    assert_eq!(records.lines().count(), PAGES, "{stderr}");
    assert!(stderr.contains("0 errors"), "{stderr}");
    // Counted by warcio itself: the payloads are not all UTF-8, so
    // `read_back` (which decodes them) does not fit.
    let count = "import sys\nfrom warcio.archiveiterator import ArchiveIterator\n\
        print(sum(1 for r in ArchiveIterator(open(sys.argv[1], 'rb')) if r.rec_type == 'response'))";
    let out = Command::new(python())
        .args(["-c", count])
        .arg(&warc)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        PAGES.to_string()
    );
}
