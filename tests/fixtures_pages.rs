//! The hand-made pages in `tests/fixtures/pages`, of the kinds users feed
//! the extractor (a news story, a blog post with comments, a forum thread,
//! a documentation page, a product page, a recipe), each checked against
//! its `.expect` file: the headline, lines the text must hold and lines it
//! must not. The expectations hold what the extractor gets right today;
//! `tests/fixtures/README.md` says what each page is.

use linesift::{Document, Extractor, Hints, Options};
use std::path::{Path, PathBuf};

fn pages_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/pages")
}

/// What a page's text must and must not hold.
#[derive(Debug, Default)]
struct Expect {
    headline: Option<String>,
    has: Vec<String>,
    lacks: Vec<String>,
}

/// Reads `NAME.expect`: `headline: …`, `has: …` and `lacks: …` lines;
/// blank lines and `#` comments skipped.
fn expectations(name: &str) -> Expect {
    let path = pages_dir().join(format!("{name}.expect"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut expect = Expect::default();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        match line.split_once(": ") {
            Some(("headline", h)) => expect.headline = Some(h.to_string()),
            Some(("has", t)) => expect.has.push(t.to_string()),
            Some(("lacks", t)) => expect.lacks.push(t.to_string()),
            _ => panic!("{}:{}: not an expectation: {line}", path.display(), n + 1),
        }
    }
    assert!(
        !expect.has.is_empty() && !expect.lacks.is_empty(),
        "{}: a page needs text it must hold and text it must not",
        path.display()
    );
    expect
}

fn extract(name: &str) -> Document {
    let path = pages_dir().join(format!("{name}.html"));
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    Extractor::new(Options::default())
        .extract(&bytes, &Hints::default())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Extracts `NAME.html` and checks it against `NAME.expect`, naming every
/// expectation it misses at once.
fn check(name: &str) {
    let expect = expectations(name);
    let doc = extract(name);
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

#[test]
fn a_news_article_keeps_its_story_without_share_buttons_or_related_links() {
    check("news-article");
}

#[test]
fn a_blog_post_keeps_its_body_without_the_comments_or_sidebar() {
    check("blog-with-comments");
}

#[test]
fn a_forum_thread_keeps_its_posts_without_the_forum_chrome() {
    check("forum-thread");
}

#[test]
fn a_documentation_page_keeps_its_prose_and_code_without_the_sidebar() {
    check("docs-page");
}

#[test]
fn a_product_page_keeps_its_description_without_the_shop_around_it() {
    check("product-page");
}

#[test]
fn a_recipe_keeps_every_step_without_the_links_around_it() {
    check("recipe");
}

/// A page added without expectations, or expectations left without their
/// page, would test nothing.
#[test]
fn every_fixture_page_has_expectations_and_a_test() {
    let tested = [
        "news-article",
        "blog-with-comments",
        "forum-thread",
        "docs-page",
        "product-page",
        "recipe",
    ];
    let mut found: Vec<String> = std::fs::read_dir(pages_dir())
        .unwrap()
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
        assert!(
            pages_dir().join(format!("{name}.html")).exists(),
            "{name}.html"
        );
        assert!(
            pages_dir().join(format!("{name}.expect")).exists(),
            "{name}.expect"
        );
    }
}
