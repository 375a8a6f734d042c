//! Outlinks on hand-written pages (`Options::links`): hrefs resolved
//! against `<base>` or the page's URL (relative, absolute,
//! protocol-relative), fragments cut, links into the page itself and
//! other schemes left out, `rel` read, links in the article told from
//! those in the menu and footer, the canonical URL resolved as the links
//! are, the cap on links a page, and nothing read when links are off.

use linesift::extract::links::{Link, MAX_LINKS};
use linesift::{Document, Extractor, Hints, Options};

const ARTICLE: &str = include_str!("fixtures/links/article.html");

fn extract_with(html: &str, url: Option<&str>, options: Options) -> Document {
    let hints = Hints {
        url: url.map(str::to_string),
        ..Hints::default()
    };
    Extractor::new(options)
        .extract(html.as_bytes(), &hints)
        .expect("extracts")
}

fn extract(html: &str, url: Option<&str>) -> Document {
    let options = Options {
        links: true,
        ..Options::default()
    };
    extract_with(html, url, options)
}

fn link(url: &str, text: &str, rel: &str, in_content: bool) -> Link {
    Link {
        url: url.into(),
        text: text.into(),
        rel: rel.into(),
        in_content,
    }
}

#[test]
fn links_resolve_against_the_base_and_are_told_in_content_or_not() {
    let doc = extract(ARTICLE, Some("https://coast.example/2024/tides.html"));
    assert!(doc.text.contains("crossing times"), "{}", doc.text);
    assert!(!doc.text.contains("Archive"), "{}", doc.text);
    let want = [
        link("https://coast.example/", "Home", "", false),
        link("https://coast.example/notes/archive/", "Archive", "", false),
        link(
            "https://survey.example.org/bay-2024",
            "2024 survey of the bay",
            "external nofollow",
            true,
        ),
        link(
            "https://coast.example/notes/crossing.html",
            "crossing times",
            "",
            true,
        ),
        link(
            "https://archive.example.net/tides/1998",
            "tables from 1998",
            "",
            true,
        ),
        link(
            "https://coast.example/errata.html",
            "errata page",
            "help",
            true,
        ),
        link(
            "https://coast.example/feed.xml",
            "feed of new notes",
            "alternate",
            true,
        ),
        link(
            "https://coast.example/privacy",
            "Privacy & cookies",
            "",
            false,
        ),
    ];
    assert_eq!(doc.links.as_deref(), Some(&want[..]));
    // The canonical URL is resolved against the base too.
    assert_eq!(
        doc.meta.canonical.as_deref(),
        Some("https://coast.example/notes/tides.html?print=0")
    );
}

/// Without a page URL, a relative `<base>` resolves nothing: relative
/// hrefs stay as written (fragments cut), absolute ones resolve.
#[test]
fn without_a_url_relative_links_stay_as_written() {
    let doc = extract(ARTICLE, None);
    let links = doc.links.unwrap_or_default();
    let urls: Vec<&str> = links.iter().map(|l| l.url.as_str()).collect();
    assert_eq!(
        urls,
        [
            "/",
            "archive/",
            "https://survey.example.org/bay-2024",
            "crossing.html",
            "//archive.example.net/tides/1998",
            "../errata.html",
            "https://coast.example/feed.xml",
            "/privacy",
        ]
    );
    assert_eq!(doc.meta.canonical, None);
}

/// The page's URL is the base when there is no `<base>`; an absolute
/// `<base>` counts even without one.
#[test]
fn the_page_url_or_an_absolute_base_resolves() {
    let page = |head: &str| {
        format!(
            "<html><head>{head}</head><body><p>Some text about a thing with \
             <a href=\"next.html\">a link</a> in it and more words after it.</p></body></html>"
        )
    };
    let first_url = |doc: Document| doc.links.unwrap_or_default()[0].url.clone();
    let doc = extract(&page(""), Some("http://site.example/a/b.html?x=1"));
    assert_eq!(first_url(doc), "http://site.example/a/next.html");
    let doc = extract(&page("<base href=\"https://cdn.example/c/\">"), None);
    assert_eq!(first_url(doc), "https://cdn.example/c/next.html");
    // The first <base> with an href counts.
    let doc = extract(
        &page("<base target=_blank><base href=\"/d/\"><base href=\"/e/\">"),
        Some("http://site.example/a/b.html"),
    );
    assert_eq!(first_url(doc), "http://site.example/d/next.html");
}

/// An anchor left open ends at the next `<a>` or at the page's end, and
/// its text is cut there.
#[test]
fn unclosed_anchors_end_at_the_next_one() {
    let html = "<html><body><p>Words before <a href=\"/one\">first <b>one</b> \
                <a href=\"/two\">second</a> and <a href=\"/three\">third to the end";
    let doc = extract(html, Some("https://x.example/"));
    let texts = urls_and_texts(doc);
    let want = [
        ("https://x.example/one", "first one"),
        ("https://x.example/two", "second"),
        ("https://x.example/three", "third to the end"),
    ];
    let want: Vec<(String, String)> = want
        .iter()
        .map(|(u, t)| (u.to_string(), t.to_string()))
        .collect();
    assert_eq!(texts, want);
}

/// At most `MAX_LINKS` links a page, the first ones.
#[test]
fn links_a_page_are_capped() {
    let mut html = String::from("<html><body><div>");
    for i in 0..MAX_LINKS + 500 {
        html.push_str(&format!("<a href=\"/p{i}\">p{i}</a> "));
    }
    html.push_str("</div></body></html>");
    let doc = extract(&html, Some("https://many.example/"));
    let links = doc.links.unwrap_or_default();
    assert_eq!(links.len(), MAX_LINKS);
    assert_eq!(links[0].url, "https://many.example/p0");
    assert_eq!(
        links[MAX_LINKS - 1].url,
        format!("https://many.example/p{}", MAX_LINKS - 1)
    );
}

/// Links off (the default): no `links` field, no canonical from them, and
/// the rest of the document as with links on.
#[test]
fn links_off_leave_the_document_as_it_was() {
    let url = Some("https://coast.example/2024/tides.html");
    let off = extract_with(ARTICLE, url, Options::default());
    assert_eq!(off.links, None);
    assert_eq!(off.meta.canonical, None);
    let json = serde_json::to_value(&off).expect("serializes");
    assert!(json.get("links").is_none());
    let mut on = extract(ARTICLE, url);
    assert!(on.links.take().is_some_and(|l| !l.is_empty()));
    on.meta.canonical = None;
    assert_eq!(on, off);
}

/// A page fed in chunks of any size gives the same links as a whole one.
#[test]
fn streamed_pages_give_the_same_links() {
    let options = Options {
        links: true,
        ..Options::default()
    };
    let extractor = Extractor::new(options);
    let hints = Hints {
        url: Some("https://coast.example/2024/tides.html".into()),
        ..Hints::default()
    };
    let whole = extractor
        .extract(ARTICLE.as_bytes(), &hints)
        .expect("extracts");
    for size in [1, 7, 64, 1000] {
        let mut page = extractor.stream(hints.clone());
        for chunk in ARTICLE.as_bytes().chunks(size) {
            page.feed(chunk).expect("feeds");
        }
        let doc = page.finish().expect("finishes");
        assert_eq!(doc.links, whole.links, "chunks of {size}");
    }
}

/// The canonical URL is one value whichever of metadata and links asks
/// for it: the same pick, resolved against the page's `<base>`. A title
/// put where the canonical URL belongs is no URL for either.
#[test]
fn metadata_links_or_both_give_the_same_canonical_url() {
    let url = Some("https://coast.example/2024/tides.html");
    let with = |metadata: bool, links: bool, html: &str| {
        let options = Options {
            metadata,
            links,
            ..Options::default()
        };
        extract_with(html, url, options).meta.canonical
    };
    let want = Some("https://coast.example/notes/tides.html?print=0".to_string());
    assert_eq!(with(true, false, ARTICLE), want);
    assert_eq!(with(false, true, ARTICLE), want);
    assert_eq!(with(true, true, ARTICLE), want);

    let titled = ARTICLE.replace(
        "<head>",
        r#"<head><link rel="canonical" href="Tides at the Bay | Coast">"#,
    );
    assert_ne!(titled, ARTICLE, "the fixture has a <head>");
    for (metadata, links) in [(true, false), (false, true), (true, true)] {
        assert_eq!(with(metadata, links, &titled), want, "{metadata} {links}");
    }

    // A fragment is cut, as from the links.
    let fragment = ARTICLE.replace(
        "<head>",
        r#"<head><link rel="canonical" href="/notes/tides.html?print=0#top">"#,
    );
    for (metadata, links) in [(true, false), (false, true), (true, true)] {
        assert_eq!(with(metadata, links, &fragment), want, "{metadata} {links}");
    }
}

/// What a script, a style sheet or an icon's SVG holds is no part of an
/// anchor's text (the page's text leaves it out too), but an icon's
/// `<title>` names a link that has no other text, and a button's label is
/// its text; `<br>` still breaks words.
#[test]
fn anchor_text_leaves_out_scripts_styles_and_icons() {
    let html = "<html><body><article><h1>Crossing the bay</h1>\
        <p>The ferry runs twice a day in summer, and \
        <a href=\"/next\"><svg viewBox=\"0 0 1 1\"><title>Arrow icon</title><path d=\"M0\"/></svg> \
        Next page</a>, <a href=\"/s\">Timetable<style>.x{color:red}</style></a>, \
        <a href=\"/js\"><script>document.write(\"<b>x</b>\")</script>Fares</a> and \
        <a href=\"/more\"><span>Read</span> <span>more</span></a> on the crossing.</p>\
        <p>Follow us: <a href=\"/pin\"><SVG><Title>Pinterest</Title><path/></SVG></a>, \
        <a href=\"/t\">first<br>second</a>, <a href=\"/e\"><svg/>Email</a>, <a href=\"/b\"><button>Sign in</button></a>, <a href=\"/i\"><img src=\"i.png\" alt=\"x\"></a>.</p>\
        </article></body></html>";
    let doc = extract(html, Some("https://x.example/"));
    let texts = urls_and_texts(doc);
    let want = [
        ("https://x.example/next", "Next page"),
        ("https://x.example/s", "Timetable"),
        ("https://x.example/js", "Fares"),
        ("https://x.example/more", "Read more"),
        ("https://x.example/pin", "Pinterest"),
        ("https://x.example/t", "first second"),
        ("https://x.example/e", "Email"),
        ("https://x.example/b", "Sign in"),
        ("https://x.example/i", ""),
    ];
    let want: Vec<(String, String)> = want
        .iter()
        .map(|(u, t)| (u.to_string(), t.to_string()))
        .collect();
    assert_eq!(texts, want);
}

/// Inline tags inside an anchor join the words on either side, as the
/// page's text joins them (`<b>Wiki</b>pedia` reads "Wikipedia"); block
/// tags, `<br>` and pictures still part words.
#[test]
fn inline_tags_in_an_anchor_do_not_split_its_words() {
    let html = "<html><body><article><h1>Reading list</h1>\
        <p>Sources for the crossing: <a href=\"/w\"><b>Wiki</b>pedia</a>, \
        <a href=\"/c\">Co<i>ast</i><em>al</em> <strong>Guard</strong>'s notes</a>, \
        <a href=\"/t\">H<sub>2</sub>O and m<sup>3</sup> tables</a>, \
        <a href=\"/u\"><span>tide</span><code>_table</code><small>.csv</small></a>, \
        <a href=\"/a\"><abbr>NOAA</abbr><mark>'s</mark> data</a>.</p>\
        <p>Also: <a href=\"/d\"><div>first</div><div>second</div></a>, \
        <a href=\"/br\">third<br>fourth</a>, \
        <a href=\"/p\">fifth<p>sixth</a>, \
        <a href=\"/img\">seventh<img src=\"x.png\" alt=\"\">eighth</a>.</p>\
        </article></body></html>";
    let doc = extract(html, Some("https://x.example/"));
    assert!(doc.text.contains("Wikipedia"), "{}", doc.text);
    let texts = urls_and_texts(doc);
    let want = [
        ("https://x.example/w", "Wikipedia"),
        ("https://x.example/c", "Coastal Guard's notes"),
        ("https://x.example/t", "H2O and m3 tables"),
        ("https://x.example/u", "tide_table.csv"),
        ("https://x.example/a", "NOAA's data"),
        ("https://x.example/d", "first second"),
        ("https://x.example/br", "third fourth"),
        ("https://x.example/p", "fifth sixth"),
        ("https://x.example/img", "seventh eighth"),
    ];
    let want: Vec<(String, String)> = want
        .iter()
        .map(|(u, t)| (u.to_string(), t.to_string()))
        .collect();
    assert_eq!(texts, want);
}

/// Each link's URL and text, in order.
fn urls_and_texts(doc: Document) -> Vec<(String, String)> {
    doc.links
        .unwrap_or_default()
        .into_iter()
        .map(|l| (l.url, l.text))
        .collect()
}
