//! The extractor on a whole page; the first byte picks the algorithm
//! (every variant of `Algorithm::ALL`) and the headline method.
#![no_main]

use libfuzzer_sys::fuzz_target;
use linesift::Hints;
use linesift_fuzz::{extractor, split_control};

fuzz_target!(|data: &[u8]| {
    let Some((control, page)) = split_control(data) else {
        return;
    };
    let extractor = extractor(control);
    let hints = Hints {
        url: Some("http://fuzz.example/page".into()),
        ..Hints::default()
    };
    if let Ok(doc) = extractor.extract(page, &hints) {
        assert_eq!(doc.bytes, page.len() as u64);
        assert!(doc.lines_selected <= doc.lines_total);
    }
});
