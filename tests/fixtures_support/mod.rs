//! Reading and checking the hand-made fixture pages under
//! `tests/fixtures`: each `NAME.html` beside a `NAME.expect` that names its
//! headline, text the extracted text must hold and text it must not. Shared
//! by the test files that feed those pages; what each page is, is said in
//! `tests/fixtures/README.md`.

use linesift::{Document, Extractor, Hints, Options};
use std::path::{Path, PathBuf};

/// A folder of fixture pages, `tests/fixtures/<name>`.
pub fn pages_dir(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

/// What a page's text must and must not hold.
#[derive(Debug, Default)]
struct Expect {
    headline: Option<String>,
    has: Vec<String>,
    /// Text the page's text holds exactly this many times.
    times: Vec<(usize, String)>,
    lacks: Vec<String>,
}

/// Reads `NAME.expect`: `headline: …`, `has: …`, `has N times: …` and
/// `lacks: …` lines; blank lines and `#` comments skipped.
fn expectations(dir: &Path, name: &str) -> Expect {
    let path = dir.join(format!("{name}.expect"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut expect = Expect::default();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, value) = line.split_once(": ").unwrap_or_default();
        let value = value.to_string();
        match (key, count(key)) {
            ("headline", _) => expect.headline = Some(value),
            ("has", _) => expect.has.push(value),
            ("lacks", _) => expect.lacks.push(value),
            (_, Some(n)) => expect.times.push((n, value)),
            _ => panic!("{}:{}: not an expectation: {line}", path.display(), n + 1),
        }
    }
    assert!(
        (!expect.has.is_empty() || !expect.times.is_empty()) && !expect.lacks.is_empty(),
        "{}: a page needs text it must hold and text it must not",
        path.display()
    );
    expect
}

/// The N of a `has N times` key.
fn count(key: &str) -> Option<usize> {
    key.strip_prefix("has ")?
        .strip_suffix(" times")?
        .parse()
        .ok()
}

fn extract(dir: &Path, name: &str) -> Document {
    let path = dir.join(format!("{name}.html"));
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Extractor::new(Options::default())
        .extract(&bytes, &Hints::default())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Extracts `NAME.html` in `dir` and checks it against `NAME.expect`,
/// naming every expectation it misses at once.
pub fn check(dir: &Path, name: &str) {
    let expect = expectations(dir, name);
    let doc = extract(dir, name);
    let mut missed = Vec::new();
    if let Some(h) = &expect.headline
        && doc.headline.as_deref() != Some(h.as_str())
    {
        missed.push(format!("headline {h:?}, got {:?}", doc.headline));
    }
    for t in &expect.has {
        if !doc.text.contains(t.as_str()) {
            missed.push(format!("text lacks {t:?}"));
        }
    }
    for (n, t) in &expect.times {
        let found = doc.text.matches(t.as_str()).count();
        if found != *n {
            missed.push(format!("text holds {t:?} {found} times, not {n}"));
        }
    }
    for t in &expect.lacks {
        if doc.text.contains(t.as_str()) {
            missed.push(format!("text holds {t:?}"));
        }
    }
    assert!(
        missed.is_empty(),
        "{name}: {}\n--- text ---\n{}",
        missed.join("; "),
        doc.text
    );
}

/// Asserts that the pages in `dir` are exactly `tested`, each with its
/// `.html` and its `.expect`: a page added without expectations or a
/// test, or expectations left without their page, would test nothing.
pub fn assert_every_page_tested(dir: &Path, tested: &[&str]) {
    let mut found: Vec<String> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "html" || x == "expect"))
        .map(|p| p.file_stem().unwrap().to_string_lossy().into_owned())
        .collect();
    found.sort();
    found.dedup();
    let mut tested: Vec<String> = tested.iter().map(|s| s.to_string()).collect();
    tested.sort();
    assert_eq!(found, tested);
    for name in &tested {
        for ext in ["html", "expect"] {
            let file = format!("{name}.{ext}");
            assert!(dir.join(&file).exists(), "{}: no {file}", dir.display());
        }
    }
}

/// One `#[test]` per page of a fixture folder, each checking its page
/// against its expectations, and one more asserting that the folder holds
/// exactly these pages. Attributes written before a test (a doc comment,
/// `#[ignore = "…"]`) go onto it:
///
/// ```ignore
/// fixture_tests! {
///     "pages";
///     a_recipe_keeps_every_step: "recipe",
/// }
/// ```
macro_rules! fixture_tests {
    ($dir:literal; $($(#[$attr:meta])* $test:ident: $page:literal,)+) => {
        $(
            #[test]
            $(#[$attr])*
            fn $test() {
                $crate::fixtures_support::check(&$crate::fixtures_support::pages_dir($dir), $page);
            }
        )+

        /// A page added without expectations or a test, or expectations
        /// left without their page, would test nothing.
        #[test]
        fn every_fixture_page_has_expectations_and_a_test() {
            $crate::fixtures_support::assert_every_page_tested(
                &$crate::fixtures_support::pages_dir($dir),
                &[$($page),+],
            );
        }
    };
}
pub(crate) use fixture_tests;
