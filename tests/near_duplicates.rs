//! Near-duplicate fingerprints on hand-written pages: one article on a
//! site template, again with a changed footer and with a changed date,
//! is found as a near duplicate; two different articles on the same
//! template are not. Then `linesift dedup` over their JSONL drops the
//! exact and near copies and keeps the rest.

use linesift::dedup::{Deduper, Verdict};
use linesift::extract::fingerprint::distance;
use linesift::{Document, Extractor, Hints, Options};
use std::io::Write;
use std::process::{Command, Stdio};

const PIER: &[&str] = &[
    "The harbour board of Lindmere voted on Tuesday to rebuild the old stone pier, which \
     storms damaged twice in the last three winters, and to open it to fishing boats again \
     by the spring.",
    "Residents had asked for the work since the second storm, when the pier's northern arm \
     broke away and the ferry had to berth at the new quay on the far side of the bay.",
    "The board said the rebuilt pier would keep its old line but stand a metre higher, so \
     that waves at high tide no longer break over its deck, and that its lamps would be \
     restored.",
    "Work starts in March; the ferry keeps its present berth until the pier reopens, and \
     the fish market moves to the square for the summer.",
];

const ORCHARD: &[&str] = &[
    "A community orchard opened in the east of the town on Saturday, on land the council \
     bought from a closed nursery two years ago, with forty apple and pear trees planted by \
     volunteers.",
    "The trees are old local varieties collected from gardens around the valley; several \
     had no name and were given the names of the streets where they were found.",
    "Anyone may pick the fruit once it is ripe, the volunteers said, as long as they leave \
     enough on each tree for the next visitor and for the birds.",
    "A pruning class is held on the first Sunday of each month, and the cider press in the \
     barn will be lent out in the autumn.",
];

/// The site's template around an article.
fn page(title: &str, paragraphs: &[&str], date: &str, footer: &str) -> String {
    let body: String = paragraphs.iter().map(|p| format!("<p>{p}</p>")).collect();
    format!(
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>{title} | Lindmere \
         Gazette</title></head><body><header><a href=\"/\">Lindmere Gazette</a><nav><ul>\
         <li><a href=\"/news\">News</a></li><li><a href=\"/sport\">Sport</a></li>\
         <li><a href=\"/weather\">Weather</a></li></ul></nav></header><main><article>\
         <h1>{title}</h1><p class=\"date\">Published {date}</p>{body}</article></main>\
         <aside><h2>Most read</h2><ul><li><a href=\"/a\">Bridge closed for repairs</a></li>\
         <li><a href=\"/b\">Library extends its opening hours</a></li></ul></aside>\
         <footer><p>{footer}</p><p><a href=\"/privacy\">Privacy</a></p></footer></body></html>"
    )
}

fn extract(html: &str) -> Document {
    Extractor::new(Options {
        metadata: true,
        simhash: true,
        ..Options::default()
    })
    .extract(html.as_bytes(), &Hints::default())
    .expect("extracts")
}

fn simhash(doc: &Document) -> u64 {
    u64::from_str_radix(&doc.simhash, 16).expect("hex")
}

fn digest(doc: &Document) -> u128 {
    u128::from_str_radix(&doc.digest, 16).expect("hex")
}

fn pages() -> [Document; 4] {
    let title = "Harbour board votes to rebuild the old pier";
    [
        page(
            title,
            PIER,
            "3 March 2024",
            "© 2024 Lindmere Gazette. All rights reserved.",
        ),
        page(
            title,
            PIER,
            "3 March 2024",
            "© 2025 Lindmere Gazette Ltd. Contact the newsroom.",
        ),
        page(
            title,
            PIER,
            "4 March 2024",
            "© 2024 Lindmere Gazette. All rights reserved.",
        ),
        page(
            "Community orchard opens in the east of town",
            ORCHARD,
            "3 March 2024",
            "© 2024 Lindmere Gazette. All rights reserved.",
        ),
    ]
    .map(|html| extract(&html))
}

#[test]
fn a_changed_footer_or_date_is_a_near_duplicate_and_another_article_is_not() {
    let [original, footer, date, other] = pages();
    assert!(original.text.contains("stone pier"), "{}", original.text);
    assert!(other.text.contains("orchard"), "{}", other.text);
    let mut dedup = Deduper::new(6, 100);
    assert_eq!(
        dedup.check(digest(&original), simhash(&original)),
        Verdict::Kept
    );
    for copy in [&footer, &date] {
        let verdict = dedup.check(digest(copy), simhash(copy));
        assert!(
            matches!(verdict, Verdict::Near(_) | Verdict::Exact),
            "{verdict:?}, {} bits apart",
            distance(simhash(&original), simhash(copy))
        );
    }
    assert!(distance(simhash(&original), simhash(&other)) > 10);
    assert_eq!(dedup.check(digest(&other), simhash(&other)), Verdict::Kept);
}

#[test]
fn dedup_drops_the_copies_from_a_jsonl_stream_and_passes_other_lines() {
    let [original, footer, date, other] = pages();
    let mut input = Vec::new();
    for (name, doc) in [
        ("a", &original),
        ("b", &footer),
        ("c", &date),
        ("d", &other),
        ("e", &original),
    ] {
        let mut line = serde_json::to_value(doc).expect("serializes");
        line["path"] = name.into();
        writeln!(input, "{line}").expect("writes");
    }
    writeln!(input, r#"{{"path":"f","error":"not found"}}"#).expect("writes");
    let mut child = Command::new(env!("CARGO_BIN_EXE_linesift"))
        .args(["dedup"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(&input)
        .expect("feeds");
    let out = child.wait_with_output().expect("ends");
    assert!(out.status.success());
    let kept: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).expect("JSON")["path"].to_string())
        .collect();
    assert_eq!(kept, [r#""a""#, r#""d""#, r#""f""#]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("6 lines, 2 kept, 2 exact and 1 near duplicates"),
        "{stderr}"
    );
}
