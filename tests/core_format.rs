//! Format independence: the same page minified onto one physical line, and
//! with a newline before every `<`, gives the same logical lines, regions
//! and text as the page as written (scan/: lines break at block-level
//! tags, not at newlines; whitespace runs count once).

use linesift::extract::Algorithm;
use linesift::{Document, Extractor, Hints, Options};

/// A pretty-printed page whose line breaks all sit next to tags (so
/// removing them changes no word) and whose inline tags are separated from
/// words by spaces where a space is meant.
const PAGE: &str = r#"<!DOCTYPE html>
<html>
  <head>
    <title>Rain falls on the plain | Daily News</title>
    <script>
      var a = "</scr" + "ipt>";
    </script>
  </head>
  <body>
    <div class="nav">
      <a href="/">Home</a>
      <a href="/world">World</a>
      <a href="/sport">Sport</a>
    </div>
    <div class="article">
      <h1>Rain falls on the plain</h1>
      <p>
        The rain in Spain stays mainly in the plain, the weather office said on Monday.
      </p>
      <p>
        Farmers welcomed the rain after a <b>long</b> dry summer, and <a href="/more">reservoirs</a> are filling again.
      </p>
      <!-- an ad -->
      <p>Forecasters expect more showers through the week across the central regions.</p>
      <ul>
        <li>Madrid: 12 mm</li>
        <li>Toledo: 9 mm</li>
      </ul>
    </div>
    <div class="footer">
      <a href="/about">About</a>
      <a href="/contact">Contact</a>
    </div>
  </body>
</html>
"#;

/// One physical line, no newline left: line breaks and the indentation
/// around them are removed.
fn minified_strict(page: &str) -> String {
    page.lines().map(str::trim).collect()
}

/// One physical line: every whitespace run holding a newline becomes one
/// space (what `scripts/format-independence.sh` does to corpus pages).
fn minified(page: &str) -> String {
    let mut out = String::new();
    let mut run = String::new();
    for c in page.chars() {
        if c.is_ascii_whitespace() {
            run.push(c);
            continue;
        }
        if run.contains('\n') {
            out.push(' ');
        } else {
            out.push_str(&run);
        }
        run.clear();
        out.push(c);
    }
    out
}

/// A newline before every `<`.
fn broken(page: &str) -> String {
    page.replace('<', "\n<")
}

fn extract(options: Options, page: &str) -> Document {
    Extractor::new(options)
        .extract(page.as_bytes(), &Hints::default())
        .unwrap()
}

fn options() -> Vec<Options> {
    Algorithm::ALL
        .iter()
        .map(|&a| Options::for_algorithm(a))
        .collect()
}

#[test]
fn transformations_do_what_they_say() {
    assert!(!minified_strict(PAGE).contains('\n'));
    assert!(!minified(PAGE).contains('\n'));
    assert!(minified(PAGE).len() < PAGE.len());
    let b = broken(PAGE);
    assert_eq!(b.matches("\n<").count(), PAGE.matches('<').count());
}

#[test]
fn the_article_is_extracted() {
    // The two short list lines are left out by the default variant.
    let d = extract(Options::default(), PAGE);
    assert_eq!(
        d.text,
        "Rain falls on the plain\n\
         The rain in Spain stays mainly in the plain, the weather office said on Monday.\n\
         Farmers welcomed the rain after a long dry summer, and reservoirs are filling again.\n\
         Forecasters expect more showers through the week across the central regions."
    );
}

#[test]
fn minified_and_broken_pages_give_the_same_document() {
    for o in options() {
        let original = extract(o, PAGE);
        // R2L and DANA count bytes ≥ 128: an English page has no content
        // for them, and that, too, must not depend on the format.
        let bytes_only = matches!(o.algorithm, Algorithm::R2l | Algorithm::Dana);
        assert_eq!(original.text.is_empty(), bytes_only, "{}", o.algorithm);
        for (how, page) in [
            ("minified strictly", minified_strict(PAGE)),
            ("minified", minified(PAGE)),
            ("newline before <", broken(PAGE)),
        ] {
            let d = extract(o, &page);
            let a = o.algorithm;
            assert_eq!(d.text, original.text, "{a}, {how}");
            assert_eq!(d.headline, original.headline, "{a}, {how}");
            assert_eq!(d.title, original.title, "{a}, {how}");
            assert_eq!(d.lines_total, original.lines_total, "{a}, {how}");
            assert_eq!(d.regions, original.regions, "{a}, {how}");
            assert_eq!(d.content_chars, original.content_chars, "{a}, {how}");
        }
    }
}

/// A non-Latin page (R2L and DANA count bytes ≥ 128) in the three forms.
#[test]
fn persian_page_in_three_forms() {
    let mut page =
        String::from("<html>\n<body>\n<div class=\"menu\">\n<a href=\"/\">خانه</a>\n</div>\n");
    for _ in 0..6 {
        page += "<p>\n  باران در دشت می‌بارد و کشاورزان از آن خوشحال هستند.\n</p>\n";
    }
    page += "<div class=\"footer\">\n<a href=\"/about\">درباره ما</a>\n</div>\n</body>\n</html>\n";
    for o in options() {
        let original = extract(o, &page);
        assert!(original.text.contains("باران در دشت"), "{}", o.algorithm);
        for variant in [minified(&page), minified_strict(&page), broken(&page)] {
            let d = extract(o, &variant);
            assert_eq!(d.text, original.text, "{}", o.algorithm);
            assert_eq!(d.regions, original.regions, "{}", o.algorithm);
        }
    }
}

/// The hand-made sample article (tests/fixtures/README.md): the article,
/// nothing around it.
#[test]
fn fixture_article_is_the_article() {
    let page = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/article.html"
    ))
    .unwrap();
    let d = Extractor::new(Options::default())
        .extract(&page, &Hints::default())
        .unwrap();
    assert_eq!(
        d.headline.as_deref(),
        Some("City Council Approves New Riverside Park")
    );
    assert!(
        d.text
            .starts_with("City Council Approves New Riverside Park\n")
    );
    assert!(
        d.text
            .contains("links the park to the existing Pell River Greenway.")
    );
    assert!(d.text.ends_with("at the Millbrook Library on June 3."));
    for noise in [
        "Politics",
        "Related stories",
        "Greenway extension opens",
        "Fix the potholes",
        "Privacy policy",
        "All rights reserved",
    ] {
        assert!(!d.text.contains(noise), "{noise}");
    }
}
