//! Inputs the fuzz targets in `fuzz/` crashed on, kept so the fixes stay
//! fixed. Each test feeds the bytes and asserts the sane outcome.

use linesift::extract::Algorithm;
use linesift::{Document, ExtractError, Extractor, Hints, Options};

type Outcome = Result<Document, ExtractError>;

fn streamed(ex: &Extractor, page: &[u8], chunk: usize) -> Outcome {
    let mut p = ex.stream(Hints::default());
    for piece in page.chunks(chunk) {
        p.feed(piece)?;
    }
    p.finish()
}

/// A `<title>` that never closes, with a multi-byte character across the
/// 2048-byte title window: the window's end was used as a string index and
/// panicked (fuzz target `extract_whole`). The title now ends before that
/// character.
#[test]
fn unclosed_title_with_a_character_across_the_window() {
    let title = "a".repeat(2047);
    let small = format!(
        "<html><head><title>{title}{}</head><body><p>Body text.</p>",
        "é".repeat(20)
    );
    // Above the 16 KiB charset sniff window, so the scanner sees it in pieces.
    let large = format!("<!-- {} -->{small}", "x".repeat(17_000));
    for page in [small, large] {
        for algorithm in Algorithm::ALL {
            let ex = Extractor::new(Options::for_algorithm(algorithm));
            let whole = ex.extract(page.as_bytes(), &Hints::default());
            let doc = whole.clone().expect("the page is text");
            assert_eq!(doc.title.as_deref(), Some(title.as_str()), "{algorithm}");
            for chunk in [1, 7, 4096] {
                let streamed = streamed(&ex, page.as_bytes(), chunk);
                assert_eq!(whole.clone(), streamed, "{algorithm}, chunks of {chunk}");
            }
        }
    }
}

/// The page the fuzzer found it with (windows-1252 mojibake of a Cyrillic
/// page from the tests, an unclosed title).
#[test]
fn unclosed_title_fuzz_input() {
    let page = std::fs::read("tests/fixtures/fuzz/title-window-splits-char.html").unwrap();
    for algorithm in Algorithm::ALL {
        let ex = Extractor::new(Options::for_algorithm(algorithm));
        let whole = ex.extract(&page, &Hints::default());
        let title = whole.as_ref().map(|d| d.title.clone().unwrap_or_default());
        assert!(
            title
                .as_ref()
                .is_ok_and(|t| !t.is_empty() && t.len() <= 2048),
            "{algorithm}: {title:?}"
        );
        for chunk in [1, 13] {
            assert_eq!(
                whole,
                streamed(&ex, &page, chunk),
                "{algorithm}, chunks of {chunk}"
            );
        }
    }
}
