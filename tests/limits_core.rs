//! The core's resource limits (`max_bytes`, `max_lines`, `max_text`), each
//! with an input just over it and one just at it, and the memory bound: 1 GB
//! streamed through `PageStream::feed` with a 64 MiB page limit keeps the
//! peak resident set of the process near the limit.

mod cli_support;

use linesift::extract::charset::ASCII_WAIT;
use linesift::extract::options::{DEFAULT_MAX_BYTES, DEFAULT_MAX_LINES, DEFAULT_MAX_TEXT};
use linesift::{ExtractError, Extractor, Hints, Options};
use std::process::Command;

fn extractor(f: impl FnOnce(&mut Options)) -> Extractor {
    let mut o = Options::default();
    f(&mut o);
    Extractor::new(o)
}

fn article(paragraphs: usize) -> String {
    let mut page = String::from("<html><head><title>Limits</title></head><body><article>");
    for i in 0..paragraphs {
        page.push_str(&format!(
            "<p>Paragraph {i} of a long article about resource limits, with enough \
             words to count as prose for the line selection in every variant.</p>"
        ));
    }
    page.push_str("</article></body></html>");
    page
}

#[test]
fn defaults_are_documented_values() {
    let o = Options::default();
    assert_eq!(o.max_bytes, DEFAULT_MAX_BYTES);
    assert_eq!(o.max_bytes, 256 << 20);
    assert_eq!(o.max_lines, DEFAULT_MAX_LINES);
    assert_eq!(o.max_lines, 1_000_000);
    assert_eq!(o.max_text, DEFAULT_MAX_TEXT);
    assert_eq!(o.max_text, 8 << 20);
}

#[test]
fn bytes_at_limit_pass_one_over_fails_naming_the_limit() {
    let page = article(40);
    let at = extractor(|o| o.max_bytes = page.len());
    assert!(at.extract(page.as_bytes(), &Hints::default()).is_ok());

    let over = extractor(|o| o.max_bytes = page.len() - 1);
    let err = over
        .extract(page.as_bytes(), &Hints::default())
        .unwrap_err();
    assert_eq!(
        err,
        ExtractError::TooLarge {
            limit: page.len() - 1
        }
    );
    assert!(err.to_string().contains("max_bytes"), "{err}");
}

#[test]
fn after_the_limit_the_stream_keeps_failing_and_finish_fails() {
    let page = article(40);
    let ex = extractor(|o| o.max_bytes = 1000);
    let mut s = ex.stream(Hints::default());
    s.feed(&page.as_bytes()[..1000]).unwrap();
    let over = ExtractError::TooLarge { limit: 1000 };
    assert_eq!(s.feed(&page.as_bytes()[1000..1001]), Err(over.clone()));
    // Even an empty chunk fails now: the page is gone, not just paused.
    assert_eq!(s.feed(b""), Err(over.clone()));
    assert_eq!(s.finish(), Err(over));
}

#[test]
fn lines_at_limit_pass_one_over_fails_naming_the_limit() {
    let page = article(300);
    let lines = extractor(|_| {})
        .extract(page.as_bytes(), &Hints::default())
        .unwrap()
        .lines_total as usize;
    assert!(lines >= 300, "{lines}");

    let at = extractor(|o| o.max_lines = lines);
    assert_eq!(
        at.extract(page.as_bytes(), &Hints::default())
            .unwrap()
            .lines_total as usize,
        lines
    );

    let over = extractor(|o| o.max_lines = lines - 1);
    let err = over
        .extract(page.as_bytes(), &Hints::default())
        .unwrap_err();
    assert_eq!(err, ExtractError::TooManyLines { limit: lines - 1 });
    assert!(err.to_string().contains("max_lines"), "{err}");

    // Streaming in small chunks fails while feeding, before `finish`,
    // once the page is well past the limit: at once where it declares
    // UTF-8, past the first MiB where it is ASCII and declares nothing
    // (the encoding waits that long for a byte that is not ASCII).
    let small = extractor(|o| o.max_lines = 10);
    let declared = format!("<meta charset=\"utf-8\">{page}");
    let undeclared = article(10_000);
    assert!(
        undeclared.len() > ASCII_WAIT + (64 << 10),
        "{}",
        undeclared.len()
    );
    for (page, fails_by) in [
        (&declared, declared.len() / 2),
        (&undeclared, ASCII_WAIT + 4096),
    ] {
        let mut s = small.stream(Hints::default());
        let fed = page
            .as_bytes()
            .chunks(256)
            .map(|c| s.feed(c))
            .position(|r| r.is_err());
        assert!(fed.is_some_and(|i| i * 256 < fails_by), "{fed:?}");
    }
}

#[test]
fn text_at_limit_is_whole_one_under_is_cut_at_a_char_boundary() {
    // Multi-byte text so a byte limit can fall inside a character.
    let mut page = String::from("<html><body><article>");
    for i in 0..30 {
        page.push_str(&format!(
            "<p>Absatz {i}: Größenbeschränkungen für Seiten, Zeilen und Ausgabetext \
             sind konfigurierbar, geprüft und dokumentiert — öffentlich.</p>"
        ));
    }
    page.push_str("</article></body></html>");
    let full = extractor(|_| {})
        .extract(page.as_bytes(), &Hints::default())
        .unwrap();
    assert!(!full.text_truncated);
    let n = full.text.len();
    assert!(n > 1000, "{n}");

    let at = extractor(|o| o.max_text = n)
        .extract(page.as_bytes(), &Hints::default())
        .unwrap();
    assert!(!at.text_truncated);
    assert_eq!(at.text, full.text);

    // Find a limit that falls inside a multi-byte character.
    let inside = (1..n)
        .rev()
        .find(|&i| !full.text.is_char_boundary(i))
        .unwrap();
    let cut = extractor(|o| o.max_text = inside)
        .extract(page.as_bytes(), &Hints::default())
        .unwrap();
    assert!(cut.text_truncated);
    assert!(cut.text.len() < inside && cut.text.len() >= inside - 3);
    assert!(full.text.starts_with(&cut.text));
    assert_eq!(cut.digest, linesift::extract::document::digest(&cut.text));
    let json = serde_json::to_value(&cut).unwrap();
    assert_eq!(json["text_truncated"], true);
    // Untruncated documents do not carry the flag at all.
    assert!(serde_json::to_value(&full).unwrap()["text_truncated"].is_null());
}

// ---- 1 GB through the core, peak RSS measured in a child process ----

/// Env var that makes this test binary act as the measured child.
const CHILD: &str = "LINESIFT_LIMITS_RSS_CHILD";
const PAGE_LIMIT: usize = 64 << 20;
const STREAM_TOTAL: u64 = 1 << 30;
/// What the core may hold besides the page's decoded source: the line
/// counts (68 bytes a line: ~500-byte paragraphs give ~9 MB at 64 MiB,
/// up to twice that in a vector grown by doubling), the allocator's
/// slack and the test binary itself (~10 MB). The peak was 111 MiB with
/// 64-byte lines, 112.1 MiB since lines also count comment text.
const SLACK: u64 = 52 << 20;

/// A 1 MiB chunk of ordinary paragraphs, reused for every feed so the test
/// never holds more than one chunk of input.
fn chunk() -> Vec<u8> {
    let para = b"<p>Streaming a very large page through the core must not keep more \
of it than the configured limit; this paragraph is about five hundred bytes long \
so that the line counts stay small next to the page source, as on real pages with \
prose. Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod \
tempor incididunt ut labore et dolore magna aliqua. Ut enim ad minim veniam, quis \
nostrud exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat.</p>\n";
    let mut out = Vec::with_capacity(1 << 20);
    while out.len() + para.len() <= 1 << 20 {
        out.extend_from_slice(para);
    }
    out.resize(1 << 20, b' ');
    out
}

fn vm_hwm_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap()
}

/// The child's work: 1 GB in 1 MiB chunks; prints what happened.
fn stream_one_gigabyte() {
    let ex = extractor(|o| o.max_bytes = PAGE_LIMIT);
    let chunk = chunk();
    let mut page = ex.stream(Hints::default());
    page.feed(b"<html><head><title>Big</title></head><body>")
        .unwrap();
    let mut first_error = None;
    let mut fed = 0u64;
    while fed < STREAM_TOTAL {
        if let Err(e) = page.feed(&chunk) {
            first_error.get_or_insert((fed, e));
        }
        fed += chunk.len() as u64;
    }
    let result = page.finish();
    let (at, error) = first_error.unwrap();
    println!("RESULT fed={fed} error_at={at} error={error} finish={result:?}");
    println!("RESULT vmhwm_kib={}", vm_hwm_kib());
}

#[test]
fn one_gigabyte_stream_stays_within_the_page_limit() {
    if std::env::var_os(CHILD).is_some() {
        stream_one_gigabyte();
        return;
    }
    let out = Command::new(std::env::current_exe().unwrap())
        .args([
            "one_gigabyte_stream_stays_within_the_page_limit",
            "--exact",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CHILD, "1")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let value = |key: &str| -> String {
        stdout
            .lines()
            // libtest prints the test's name on the same line first.
            .filter_map(|l| l.split_once("RESULT ").map(|(_, rest)| rest))
            .flat_map(|l| l.split(' '))
            .find_map(|kv| kv.strip_prefix(key).and_then(|v| v.strip_prefix('=')))
            .unwrap_or_else(|| panic!("no {key} in {stdout}"))
            .to_string()
    };
    assert_eq!(value("fed"), STREAM_TOTAL.to_string());
    // The error comes at the chunk that crosses the limit, and names it.
    let at: u64 = value("error_at").parse().unwrap();
    assert!(
        at < PAGE_LIMIT as u64 && at + (1 << 20) >= PAGE_LIMIT as u64 - 64,
        "{at}"
    );
    assert!(stdout.contains("(max_bytes)"), "{stdout}");
    assert!(stdout.contains("finish=Err(TooLarge"), "{stdout}");
    let peak = value("vmhwm_kib").parse::<u64>().unwrap() * 1024;
    let bound = PAGE_LIMIT as u64 + SLACK;
    eprintln!(
        "peak RSS {} MiB, page limit {} MiB, bound {} MiB",
        peak >> 20,
        PAGE_LIMIT >> 20,
        bound >> 20
    );
    assert!(peak < bound, "peak RSS {peak} over {bound}");
    // And it did hold the page up to the limit: the measurement is real.
    assert!(peak > (PAGE_LIMIT as u64) / 2, "peak RSS {peak}");
}

/// The CLI reads stdin in chunks: fed 1 GB, it stops reading at the limit
/// and reports the limit, instead of reading everything first.
#[test]
fn cli_extract_stops_reading_stdin_at_the_limit() {
    let (written, code, stderr) = cli_support::linesift_fed_until_closed(
        &["extract", "--max-bytes", "8M", "-"],
        &chunk(),
        STREAM_TOTAL,
    );
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.contains("larger than the limit of 8388608 bytes"),
        "{stderr}"
    );
    // Pipe buffers hold a little; nowhere near the whole gigabyte.
    assert!(
        written < 64 << 20,
        "wrote {written} bytes before the pipe broke"
    );
}

/// A page cut inside a tag with thousands of quoted attributes (a crawl's
/// record cut at its size limit) is extracted, metadata and all, on a
/// thread with the 2 MiB stack of a worker's: the cut tag is dropped,
/// never handed to a tokenizer that recurses once per attribute.
#[test]
fn a_page_cut_inside_a_tag_of_thousands_of_attributes_is_extracted() {
    let mut page = article(3);
    page.truncate(page.find("</article>").unwrap_or(page.len()));
    page.push_str("<p>The last words <b ");
    for i in 0..20_000 {
        page.push_str(&format!("data-k{i}=\"v{i}\" "));
    }
    let doc = std::thread::Builder::new()
        .stack_size(2 << 20)
        .spawn(move || {
            extractor(|o| o.metadata = true)
                .extract(page.as_bytes(), &Hints::default())
                .map(|d| d.text)
        })
        .unwrap()
        .join()
        .unwrap()
        .unwrap();
    assert!(doc.contains("Paragraph 2 of a long article"), "{doc}");
    assert!(!doc.contains("data-k"), "{doc}");
}
