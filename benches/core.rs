//! Throughput of the whole extraction core (bytes → `Document`), in MB/s,
//! for the default algorithm and for DANAg.
//!
//! Inputs: `tests/fixtures/article.html` (hand-written, see
//! tests/fixtures/README.md) and pages generated here: a long article with
//! inline links, and a link-dense page. No corpus page is used.
//!
//! `cargo bench --bench core`

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use linesift::extract::Algorithm;
use linesift::{Extractor, Hints, Options};
use std::hint::black_box;

/// A long article: navigation, 200 paragraphs with inline links and
/// multi-byte text, a script, comments and a footer.
fn long_article() -> Vec<u8> {
    let mut p = String::from(
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>A long article</title>\
         <script>var x = 1; function f(a) { return a < 2; }</script></head><body>\n<nav>",
    );
    for i in 0..40 {
        p += &format!("<a href=\"/section/{i}\" class=\"nav-link nav-item\">Section {i}</a> ");
    }
    p += "</nav>\n<div class=\"article-body\"><h1>A long article about rain</h1>\n";
    for i in 0..200 {
        p += &format!(
            "<p>Paragraph {i}: the rain in Spain stays mainly in the plain, said the \
             <a href=\"https://example.com/office/{i}\">weather office</a> on Monday. \
             Über die Straße, дождь идёт, 雨が降る. <b>Forecasters</b> expect more showers.</p>\n"
        );
        if i % 20 == 0 {
            p += "<!-- ad slot --><div class=\"ad\"><script>load('ad');</script></div>\n";
        }
    }
    p += "</div><footer><a href=\"/about\">About</a> <a href=\"/contact\">Contact</a></footer></body></html>\n";
    p.into_bytes()
}

/// A portal-like page: mostly link lists in tables and lists.
fn link_dense() -> Vec<u8> {
    let mut p = String::from("<html><head><title>Portal</title></head><body><table>");
    for row in 0..150 {
        p += "<tr>";
        for col in 0..4 {
            p += &format!(
                "<td class=\"cell c{col}\"><a href=\"/r/{row}/{col}?utm_source=portal\">Link {row}.{col}</a></td>"
            );
        }
        p += "</tr>\n";
    }
    p += "</table><ul>";
    for i in 0..200 {
        p += &format!("<li><a href=\"/more/{i}\">More item number {i}</a></li>\n");
    }
    p += "</ul></body></html>";
    p.into_bytes()
}

fn bench(c: &mut Criterion) {
    let article = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/article.html"
    ))
    .expect("tests/fixtures/article.html");
    let pages = [
        ("article", article),
        ("long-article", long_article()),
        ("link-dense", link_dense()),
    ];
    let mut group = c.benchmark_group("core");
    for algorithm in [Algorithm::Linesift, Algorithm::Danag] {
        let ex = Extractor::new(Options::for_algorithm(algorithm));
        for (name, page) in &pages {
            group.throughput(Throughput::Bytes(page.len() as u64));
            group.bench_with_input(
                BenchmarkId::new(algorithm.to_string(), name),
                page,
                |b, page| {
                    b.iter(|| {
                        ex.extract(black_box(page), &Hints::default())
                            .expect("extracts")
                    })
                },
            );
        }
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
