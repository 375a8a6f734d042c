//! A very large record, generated on the fly and streamed: skipped as too
//! large, with memory bounded, and the record after it still read.

mod warc_support;

use linesift::warc::{Item, ReaderOptions, WarcReader};
use std::io::{Cursor, Read};
use warc_support::*;

/// Peak resident memory of this process, in bytes.
fn peak_rss() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .map_or(0, |kb| kb * 1024)
}

fn header(id: &str, length: u64) -> String {
    format!(
        "WARC/1.1\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:{id}>\r\n\
         WARC-Target-URI: http://big.example/{id}\r\nWARC-Date: 2024-01-01T00:00:00Z\r\n\
         Content-Type: application/http; msgtype=response\r\nContent-Length: {length}\r\n\r\n"
    )
}

#[test]
fn huge_record_is_streamed_and_skipped() {
    const BODY: u64 = 768 * 1024 * 1024;
    let http = "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<html><body><p>";
    let big = Cursor::new(header("big", http.len() as u64 + BODY) + http)
        .chain(std::io::repeat(b'a').take(BODY))
        .chain(Cursor::new("\r\n\r\n"));
    let small_body = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n{}",
        page_html(1)
    );
    let small = header("small", small_body.len() as u64) + &small_body + "\r\n\r\n";
    let input = big.chain(Cursor::new(small));
    let options = ReaderOptions {
        max_payload: 4 * 1024 * 1024,
        ..ReaderOptions::default()
    };
    let before = peak_rss();
    let items: Vec<Item> = WarcReader::new(input, options)
        .unwrap()
        .map(|r| r.unwrap())
        .collect();
    assert_eq!(items.len(), 2);
    assert!(matches!(&items[0], Item::Skipped { reason, .. } if reason.key() == "too-large"));
    assert!(matches!(&items[1], Item::Page(p) if p.record_id == "<urn:uuid:small>"));
    let grown = peak_rss().saturating_sub(before);
    assert!(
        grown < 64 * 1024 * 1024,
        "peak memory grew by {grown} bytes"
    );
}
