//! ARC files, and WARC files that warcio and FastWARC read past a fault:
//! a Content-Length a few bytes off, a file cut inside its only gzip
//! member (or zstd frame), a malformed WARC-Date. The ARC files are
//! written here by the format's description and read back by warcio; the
//! WARC files are written by warcio and then damaged. Every record the
//! libraries read is read by linesift too, and each repair is flagged on
//! its document (`warc_repaired`) and counted in the summary.

mod warc_support;

use linesift::warc::{Item, Page, ReaderOptions, WarcReader};
use serde_json::Value;
use std::collections::BTreeSet;
use std::io::Cursor;
use std::path::Path;
use warc_support::*;

fn warc_to(inputs: &[&Path], out: &Path, args: &[&str]) -> (i32, String) {
    let mut all = vec!["warc"];
    all.extend(inputs.iter().map(|p| p.to_str().unwrap()));
    all.extend(["-o", out.to_str().unwrap()]);
    all.extend(args);
    let (code, _, stderr) = linesift(&all);
    (code, stderr)
}

fn jsonl(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

/// The pages the library API reads from `bytes`, until the first error.
fn pages(bytes: &[u8]) -> Vec<Page> {
    WarcReader::new(Cursor::new(bytes.to_vec()), ReaderOptions::default())
        .unwrap()
        .map_while(Result::ok)
        .filter_map(|item| match item {
            Item::Page(page) => Some(page),
            _ => None,
        })
        .collect()
}

/// The targets of the `response` records a library read.
fn responses(records: &[Value]) -> BTreeSet<String> {
    records
        .iter()
        .filter(|r| r["type"] == "response")
        .filter_map(|r| r["target"].as_str().map(str::to_string))
        .collect()
}

/// The documents' targets and what each was repaired by.
fn repaired(lines: &[Value]) -> Vec<(String, Vec<String>)> {
    lines
        .iter()
        .map(|l| {
            let names = l["warc_repaired"]
                .as_array()
                .map(|a| a.iter().map(|n| n.as_str().unwrap().to_string()).collect())
                .unwrap_or_default();
            (l["warc_target_uri"].as_str().unwrap().to_string(), names)
        })
        .collect()
}

/// An HTTP response of a page, as an ARC record's body holds it.
fn http_page(i: usize) -> Vec<u8> {
    let body = page_html(i);
    format!(
        "HTTP/1.0 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

/// One ARC v1 record: its header line `URL IP DATE MIME LENGTH`, LENGTH
/// bytes, and the line end that ends it.
fn arc_record(url: &str, date: &str, mime: &str, body: &[u8]) -> Vec<u8> {
    let line = format!("{url} 192.0.2.7 {date} {mime} {}\n", body.len());
    [line.as_bytes(), body, b"\n"].concat()
}

/// An ARC v1 file's records, as the format's description lays one out:
/// the `filedesc://` record, whose body is the version block (`1 0
/// originator`, then the field names), then three pages, a DNS lookup
/// (no HTTP response) and an image, one of the pages at a URL with a
/// space in it (ARC header lines are split at their last four spaces).
fn arc_records() -> Vec<Vec<u8>> {
    let version = b"1 0 Example Archive\nURL IP-address Archive-date Content-type Archive-length\n";
    let mut image = b"HTTP/1.0 200 OK\r\nContent-Type: image/png\r\n\r\n".to_vec();
    image.extend([0x89, b'P', b'N', b'G', 0, 1, 2, 3]);
    vec![
        arc_record(
            "filedesc://crawl-1.arc",
            "20080101000000",
            "text/plain",
            version,
        ),
        arc_record(
            "http://a.example/",
            "20080101000001",
            "text/html",
            &http_page(0),
        ),
        arc_record(
            "dns:a.example",
            "20080101000002",
            "text/dns",
            b"20080101000002\na.example. 3600 IN A 192.0.2.7\n",
        ),
        arc_record(
            "http://b.example/a page.html",
            "20080101000003",
            "text/html",
            &http_page(1),
        ),
        arc_record(
            "http://b.example/logo.png",
            "20080101000004",
            "image/png",
            &image,
        ),
        arc_record(
            "http://c.example/",
            "20080101120005",
            "text/html",
            &http_page(2),
        ),
    ]
}

/// ARC files, plain and a gzip member per record (`.arc.gz`): warcio reads
/// them, and every page warcio reads is a document of linesift's, with
/// the date warcio gives it; the `filedesc://` record, the DNS record and
/// the image are read and skipped. Each record is read alone by its
/// offset too, as the whole file gives it.
#[test]
fn arc_files_are_read_as_warcio_reads_them() {
    let records = arc_records();
    let plain = records.concat();
    let gz = gzip_members(&records);
    for (name, bytes) in [("crawl.arc", &plain), ("crawl.arc.gz", &gz)] {
        let path = scratch(name);
        std::fs::write(&path, bytes).unwrap();
        let (read, error) = library_records(&path, "warcio");
        assert_eq!(error, None, "{name}");
        assert_eq!(read.len(), records.len(), "{name}: {read:?}");
        assert_eq!(read[0]["type"], "warcinfo", "{name}");
        let out = scratch(&format!("{name}.jsonl"));
        let (code, stderr) = warc_to(&[&path], &out, &[]);
        assert_eq!(code, 0, "{name}: {stderr}");
        assert!(
            stderr.contains("6 records read, 3 HTML, 3 extracted, 3 skipped, 0 errors"),
            "{name}: {stderr}"
        );
        assert!(
            stderr.contains("not-html 1") && stderr.contains("not-http 1"),
            "{name}: {stderr}"
        );
        assert!(stderr.contains("type:warcinfo 1"), "{name}: {stderr}");
        let lines = jsonl(&out);
        let pages: Vec<&Value> = read
            .iter()
            .filter(|r| {
                let payload = r["payload_hex"].as_str().unwrap();
                r["type"] == "response" && payload.starts_with(&hex(b"<!DOCTYPE html>"))
            })
            .collect();
        assert_eq!(pages.len(), 3, "{name}");
        assert_eq!(lines.len(), pages.len(), "{name}");
        for (line, page) in lines.iter().zip(&pages) {
            assert_eq!(line["warc_target_uri"], page["target"], "{name}");
            assert_eq!(line["warc_date"], page["date"], "{name}");
            let id = line["warc_record_id"].as_str().unwrap();
            assert!(id.starts_with("<urn:uuid:"), "{name}: {id}");
            assert!(line.get("warc_repaired").is_none(), "{name}: {line}");
        }
        assert_eq!(
            lines[1]["warc_target_uri"],
            "http://b.example/a%20page.html"
        );
        assert_eq!(lines[2]["warc_date"], "2008-01-01T12:00:05Z");
        assert!(lines[0]["text"].as_str().unwrap().contains("rivers"));

        // Each page by its offset: the same document, the same id.
        let starts: Vec<u64> = match name.ends_with(".gz") {
            true => member_starts(&records),
            false => record_starts(&records),
        };
        for (line, at) in lines.iter().zip([starts[1], starts[3], starts[5]]) {
            let one = scratch(&format!("{name}-{at}.jsonl"));
            let (code, stderr) = warc_to(&[&path], &one, &["--offset", &at.to_string()]);
            assert_eq!(code, 0, "{name} at {at}: {stderr}");
            let alone = jsonl(&one);
            assert_eq!(alone.len(), 1, "{name} at {at}");
            assert_eq!(alone[0]["warc_record_id"], line["warc_record_id"]);
            assert_eq!(alone[0]["text"], line["text"]);
            assert_eq!(alone[0]["warc_offset"], at);
        }
    }
    // One gzip member for the whole file: warcio refuses it, linesift
    // reads it as the plain file.
    let whole = scratch("whole.arc.gz");
    std::fs::write(&whole, gzip_members(&[plain])).unwrap();
    let out = scratch("whole.arc.gz.jsonl");
    let (code, stderr) = warc_to(&[&whole], &out, &[]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("6 records read, 3 HTML, 3 extracted"),
        "{stderr}"
    );
    assert_eq!(jsonl(&out).len(), 3);
}

fn record_starts(records: &[Vec<u8>]) -> Vec<u64> {
    records
        .iter()
        .scan(0u64, |at, r| {
            let start = *at;
            *at += r.len() as u64;
            Some(start)
        })
        .collect()
}

fn member_starts(records: &[Vec<u8>]) -> Vec<u64> {
    let members: Vec<Vec<u8>> = records
        .iter()
        .map(|r| gzip_members(std::slice::from_ref(r)))
        .collect();
    record_starts(&members)
}

/// An ARC record's length 2 bytes short, or 1 long (the record's line
/// end taken in), plain and a gzip member per record: what warcio reads of
/// the file, linesift reads, and every page besides; the mended page's
/// payload is whole and as written, and it alone is flagged.
#[test]
fn an_arc_length_a_few_bytes_off_is_mended_and_flagged() {
    let whole = pages(&arc_records().concat());
    assert!(whole.len() >= 3);
    for (name, delta) in [("short", -2i64), ("long", 1)] {
        let mut records = arc_records();
        let body = http_page(0);
        let length = body.len() as i64 + delta;
        let line = format!("http://a.example/ 192.0.2.7 20080101000001 text/html {length}\n");
        records[1] = [line.as_bytes(), &body, b"\n"].concat();
        for (kind, bytes) in [
            ("arc", records.concat()),
            ("arc.gz", gzip_members(&records)),
        ] {
            let label = format!("length-{name}.{kind}");
            let path = scratch(&label);
            std::fs::write(&path, &bytes).unwrap();
            let (read, _) = library_records(&path, "warcio");
            let by_warcio = responses(&read);
            // warcio stops at the plain file's record that is long by one.
            let least = if label == "length-long.arc" { 1 } else { 2 };
            assert!(by_warcio.len() >= least, "{label}: warcio read {read:?}");
            let out = scratch(&format!("{label}.jsonl"));
            let (code, stderr) = warc_to(&[&path], &out, &[]);
            assert_eq!(code, 0, "{label}: {stderr}");
            let docs = repaired(&jsonl(&out));
            assert_eq!(docs.len(), 3, "{label}: {stderr}");
            // The image and the DNS record are no documents.
            let read_pages: BTreeSet<String> = by_warcio
                .into_iter()
                .filter(|t| !t.ends_with(".png") && !t.starts_with("dns:"))
                .collect();
            let targets: BTreeSet<String> = docs.iter().map(|d| d.0.clone()).collect();
            assert!(
                read_pages.is_subset(&targets),
                "{label}: {read_pages:?} {targets:?}"
            );
            for (target, names) in &docs {
                let want: Vec<String> = match target.as_str() {
                    "http://a.example/" => vec!["content_length".into()],
                    _ => vec![],
                };
                assert_eq!(names, &want, "{label}: {target}");
            }
            assert!(
                stderr.contains(", 0 errors, 1 repairs"),
                "{label}: {stderr}"
            );
            let mended = pages(&bytes);
            assert_eq!(mended.len(), whole.len(), "{label}");
            for (i, (page, want)) in mended.iter().zip(&whole).enumerate() {
                assert_eq!(page.body, want.body, "{label}: page {i}");
            }
            assert_eq!(
                mended[0].repairs.length,
                i8::try_from(-delta).ok(),
                "{label}"
            );
        }
    }
}

/// `http_page(1)` with a long HTTP head, its lines ended by `eol` (ARC
/// writers used both `\r\n` and `\n`): forty headers of hex that compress
/// poorly, so that a gzip member cut part way ends inside them.
fn padded_http_page(eol: &str) -> Vec<u8> {
    let mut seed = 0x2545_f491_u64;
    let mut head = format!("HTTP/1.0 200 OK{eol}Content-Type: text/html; charset=utf-8{eol}");
    for i in 0..40 {
        let pad: String = (0..32)
            .map(|_| {
                seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                format!("{:02x}", (seed >> 56) as u8)
            })
            .collect();
        head.push_str(&format!("X-Pad-{i}: {pad}{eol}"));
    }
    let body = page_html(1);
    head.push_str(&format!("Content-Length: {}{eol}{eol}{body}", body.len()));
    head.into_bytes()
}

/// An ARC file cut inside a record's HTTP head, plain (its head's lines
/// ended by `\r\n` or by `\n`) or a gzip member per record, is told as the
/// truncated file it is, as a WARC file is: read by `--offset` (with or
/// without a `--length` reaching the cut) it fails in one line naming the
/// file and the cut, not as a bad HTTP response or a record not HTTP;
/// read whole, the cut is told once, after the page before it.
#[test]
fn an_arc_file_cut_inside_the_http_head_is_told_as_truncated() {
    let out = scratch("arc-cut-head.jsonl");
    for (name, eol, gzip) in [
        ("arc-cut-head.arc", "\r\n", false),
        ("arc-cut-head-lf.arc", "\n", false),
        ("arc-cut-head.arc.gz", "\r\n", true),
    ] {
        let records = a_page_then_a_padded_one(eol);
        let (bytes, offset) = file_of(&records, gzip);
        let record = &bytes[offset as usize..];
        let keep = match gzip {
            true => record.len() / 2,
            false => find(record, b"X-Pad-20").unwrap(),
        };
        // What the cut leaves of the record ends inside its HTTP head.
        let decoded = match gzip {
            true => inflate_cut(&record[..keep]),
            false => record[..keep].to_vec(),
        };
        let http = find(&decoded, b"HTTP/1.0 200").expect("the cut is past the ARC header line");
        let blank = format!("{eol}{eol}");
        assert!(
            find(&decoded[http..], blank.as_bytes()).is_none(),
            "{name}: cut past the head"
        );
        the_cut_is_told(name, &bytes, offset, keep, &out, &["HTTP", "not-http"], &[]);
    }
}

/// What a cut gzip member decodes to, as far as the bytes go.
fn inflate_cut(member: &[u8]) -> Vec<u8> {
    let mut decoder = flate2::read::GzDecoder::new(member);
    let (mut all, mut buf) = (Vec::new(), [0u8; 4096]);
    while let Ok(n @ 1..) = std::io::Read::read(&mut decoder, &mut buf) {
        all.extend_from_slice(&buf[..n]);
    }
    all
}

/// The ARC file's `filedesc` record, a page, and a page with a long HTTP
/// head (`padded_http_page`, its lines ended by `eol`).
fn a_page_then_a_padded_one(eol: &str) -> Vec<Vec<u8>> {
    let mut records = arc_records();
    records.truncate(2);
    records.push(arc_record(
        "http://padded.example/",
        "20080101000002",
        "text/html",
        &padded_http_page(eol),
    ));
    records
}

/// `records` as a plain ARC file or a gzip member each, and where the
/// third starts.
fn file_of(records: &[Vec<u8>], gzip: bool) -> (Vec<u8>, u64) {
    match gzip {
        true => (gzip_members(records), member_starts(records)[2]),
        false => (records.concat(), record_starts(records)[2]),
    }
}

/// Writes `bytes` cut `keep` bytes into the record at `offset` as the file
/// `name`, and checks the cut is told. Read from the offset, with and
/// without a `--length` reaching the cut: exit 1, the truncation first,
/// each of `offset_says`. Read whole: exit 0, the truncation first, one
/// truncated file counted, and the page before the cut alone written. No
/// message holds any of `never`.
fn the_cut_is_told(
    name: &str,
    bytes: &[u8],
    offset: u64,
    keep: usize,
    out: &Path,
    never: &[&str],
    offset_says: &[&str],
) {
    let file = scratch(name);
    let end = offset as usize + keep;
    std::fs::write(&file, &bytes[..end]).unwrap();
    let said = format!(
        "linesift: {}: file is truncated at offset {end}",
        file.display()
    );
    let at = offset.to_string();
    let keep = keep.to_string();
    for length in [None, Some(keep.as_str())] {
        let mut args = vec!["--offset", &at];
        args.extend(length.map(|l| ["--length", l]).into_iter().flatten());
        let (code, stderr) = warc_to(&[&file], out, &args);
        assert_eq!(code, 1, "{name} {length:?}: {stderr}");
        assert!(stderr.starts_with(&said), "{name} {length:?}: {stderr}");
        for word in never {
            assert!(!stderr.contains(word), "{name} {length:?}: {stderr}");
        }
        for words in offset_says {
            assert!(stderr.contains(words), "{name} {length:?}: {stderr}");
        }
    }
    let (code, stderr) = warc_to(&[&file], out, &[]);
    assert_eq!(code, 0, "{name}: {stderr}");
    assert!(stderr.starts_with(&said), "{name}: {stderr}");
    assert!(
        stderr.contains(" 1 errors, 1 truncated files"),
        "{name}: {stderr}"
    );
    for word in never {
        assert!(!stderr.contains(word), "{name}: {stderr}");
    }
    let lines = jsonl(out);
    assert_eq!(lines.len(), 1, "{name}: {stderr}");
    assert_eq!(lines[0]["warc_target_uri"], "http://a.example/", "{name}");
}

/// An ARC file that ends inside a record's header line (no line end
/// before the file's end), plain or a gzip member per record, is told as
/// the truncated file it is, as a WARC file cut inside its header is:
/// read by `--offset` (with or without a `--length` reaching the cut) it
/// fails in one line naming the file and the cut, not as no record there
/// (in the whole file, such a `--length` is too short); read whole, the
/// cut is told once, after the page before it, and no bad record. The
/// same line ended by a line end is no header line, and is still told as
/// a bad record header.
#[test]
fn an_arc_file_cut_inside_a_header_line_is_told_as_truncated() {
    let out = scratch("arc-cut-line.jsonl");
    let records = a_page_then_a_padded_one("\r\n");
    let line_len = find(&records[2], b"\n").unwrap();
    for (name, gzip) in [("arc-cut-line.arc", false), ("arc-cut-line.arc.gz", true)] {
        let (bytes, offset) = file_of(&records, gzip);
        let record = &bytes[offset as usize..];
        // Plain: cut inside the URL. Gzip: the longest cut of the member
        // that decodes to part of the header line and no more.
        let keep = match gzip {
            true => (1..record.len())
                .rev()
                .find(|&k| {
                    let decoded = inflate_cut(&record[..k]);
                    !decoded.is_empty() && decoded.len() < line_len
                })
                .expect("a cut inside the header line"),
            false => "http://padded".len(),
        };
        let plain_says: &[&str] = match gzip {
            true => &[],
            false => &["the file ends inside a record header"],
        };
        let never = ["no record starts", "bad record header"];
        the_cut_is_told(name, &bytes, offset, keep, &out, &never, plain_says);
        // In the whole file, a --length that ends there is too short.
        let whole = scratch(&format!("whole-{name}"));
        std::fs::write(&whole, &bytes).unwrap();
        let (at, length) = (offset.to_string(), keep.to_string());
        let args = ["--offset", &at, "--length", &length];
        let (code, stderr) = warc_to(&[&whole], &out, &args);
        assert_eq!(code, 1, "{name}: {stderr}");
        let past = format!("the record at offset {offset} goes on past its given length of {keep}");
        assert!(stderr.contains(&past), "{name}: {stderr}");
    }
    // Ended by a line end, a header line cut before its length is a bad
    // one, and the file is whole.
    let start = record_starts(&records)[2] as usize;
    let line = &records[2][..line_len];
    let cut = &line[..line.iter().rposition(|&b| b == b' ').unwrap()];
    let bytes = [&records.concat()[..start], cut, b"\n"].concat();
    let file = scratch("arc-bad-line.arc");
    std::fs::write(&file, &bytes).unwrap();
    let (code, stderr) = warc_to(&[&file], &out, &[]);
    assert_eq!(code, 0, "{stderr}");
    let cut = String::from_utf8_lossy(cut);
    assert!(
        stderr.contains(&format!(
            "record at offset {start}: bad record header: not an ARC header line: {cut:?}"
        )),
        "{stderr}"
    );
    assert!(!stderr.contains("truncated"), "{stderr}");
    assert_eq!(jsonl(&out).len(), 1, "{stderr}");
    let (code, stderr) = warc_to(&[&file], &out, &["--offset", &start.to_string()]);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains(&format!("no record starts at offset {start}")),
        "{stderr}"
    );
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// Three pages written by warcio; the second record's Content-Length
/// changed by `delta` (and the third's by `third`, if given).
fn off_by(delta: i64, third: Option<i64>) -> (Vec<Vec<u8>>, Vec<Written>) {
    let (path, written) = make_warc("lengths.warc", &simple_spec(3), false);
    let plain = std::fs::read(path).unwrap();
    let mut records = split_records(&plain, &written);
    for (i, d) in [(1, Some(delta)), (2, third)] {
        let Some(d) = d else { continue };
        let line = content_length_line(&records[i]);
        let n: i64 = line["Content-Length:".len()..].trim().parse().unwrap();
        records[i] = replace_first(&records[i], &line, &format!("Content-Length: {}", n + d));
    }
    (records, written)
}

/// A Content-Length 2 bytes short or 2 bytes long, plain and in gzip
/// members: warcio and FastWARC read the record (and those after it, as
/// far as they read on); linesift reads every one of them, the mended
/// record's payload whole and as written, and flags it.
#[test]
fn a_content_length_a_few_bytes_off_is_mended_and_flagged() {
    let whole = pages(&off_by(0, None).0.concat());
    assert_eq!(whole.len(), 3);
    for (name, delta, third) in [
        ("short", -2, None),
        ("long", 2, None),
        ("short-and-long", -2, Some(2)),
        ("short-by-9", -9, None),
    ] {
        let (records, written) = off_by(delta, third);
        for (kind, bytes) in [
            ("warc", records.concat()),
            ("warc.gz", gzip_members(&records)),
        ] {
            let label = format!("{name}.{kind}");
            let path = scratch(&label);
            std::fs::write(&path, &bytes).unwrap();
            let mut read_by_libraries = BTreeSet::new();
            for library in ["warcio", "fastwarc"] {
                let (read, _) = library_records(&path, library);
                let targets = responses(&read);
                assert!(targets.len() >= 2, "{label}: {library} read {read:?}");
                read_by_libraries.extend(targets);
            }
            let out = scratch(&format!("{label}.jsonl"));
            let (code, stderr) = warc_to(&[&path], &out, &[]);
            assert_eq!(code, 0, "{label}: {stderr}");
            let docs = repaired(&jsonl(&out));
            let targets: BTreeSet<String> = docs.iter().map(|d| d.0.clone()).collect();
            assert!(
                read_by_libraries.is_subset(&targets),
                "{label}: {read_by_libraries:?} {targets:?}"
            );
            assert_eq!(docs.len(), 3, "{label}: {stderr}");
            let mended = |i: usize| i == 1 || (i == 2 && third.is_some());
            for (i, (_, names)) in docs.iter().enumerate() {
                let want: Vec<String> = match mended(i) {
                    true => vec!["content_length".into()],
                    false => vec![],
                };
                assert_eq!(names, &want, "{label}: record {i}");
            }
            let n = 1 + usize::from(third.is_some());
            assert!(
                stderr.contains(&format!(", 0 errors, {n} repairs")),
                "{label}: {stderr}"
            );
            assert!(
                stderr.contains(&format!("content_length {n}")),
                "{label}: {stderr}"
            );
            let offset = written[1].offset;
            if kind == "warc" {
                let by = delta.abs();
                let way = if delta < 0 { "short" } else { "long" };
                let said =
                    format!("record at offset {offset}: Content-Length is {by} bytes too {way}");
                assert!(stderr.contains(&said), "{label}: {stderr}");
            }
            // The payloads, mended, are the payloads as written.
            let read = pages(&bytes);
            assert_eq!(read.len(), 3, "{label}");
            for (i, (page, want)) in read.iter().zip(&whole).enumerate() {
                assert_eq!(page.body, want.body, "{label}: record {i}");
                assert_eq!(page.repairs.length.is_some(), mended(i), "{label}: {i}");
            }
            assert_eq!(read[1].repairs.length, i8::try_from(-delta).ok(), "{label}");
        }
    }
}

/// Entries of [`long_page`].
const ENTRIES: usize = 3000;

/// A page long enough that a gzip member or zstd frame of it cut in the
/// middle has given much of its text before the cut (zstd gives a block,
/// up to 128 KiB, only when it has all of it).
fn long_page() -> String {
    let para = |n: usize| {
        format!(
            "<p>Entry {n}: the survey of lake {} recorded {} herons, {} grebes and a water level of {} centimetres.</p>",
            n * 7 % 101,
            n * 13 % 97,
            n * 17 % 89,
            n * 31 % 1009
        )
    };
    let body: String = (0..ENTRIES).map(para).collect();
    format!(
        "<!DOCTYPE html><html><head><title>Lake survey</title></head><body><article><h1>Lake survey</h1>{body}</article></body></html>"
    )
}

/// A file cut inside its only gzip member (a one-record `.warc.gz`, and a
/// whole-file gzip of three records), or inside its last zstd frame:
/// warcio and FastWARC give the partial record, and so does linesift,
/// flagged `cut` (and `warc_truncated: cut`), with the records before it.
/// The file is still reported truncated.
#[test]
fn a_member_cut_short_keeps_the_partial_record_flagged() {
    let page = long_page();
    let spec = Value::Array(vec![response(
        "http://lake.example/",
        "200 OK",
        &[("Content-Type", "text/html; charset=utf-8")],
        page.as_bytes(),
    )]);
    let (one, _) = make_warc("one.warc.gz", &spec, true);
    let one = std::fs::read(one).unwrap();
    let (plain, written) = make_warc("three.warc", &simple_spec(3), false);
    let plain = std::fs::read(plain).unwrap();
    let mut three = plain.clone();
    let (lake, _) = make_warc("lake.warc", &spec, false);
    three.extend(std::fs::read(lake).unwrap());
    let whole_gzip = {
        use std::io::Write;
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        gz.write_all(&three).unwrap();
        gz.finish().unwrap()
    };
    let mut records = split_records(&plain, &written);
    records.push(three[plain.len()..].to_vec());
    let frames: Vec<u8> = records
        .iter()
        .flat_map(|r| zstd::bulk::compress(r, 3).unwrap())
        .collect();
    for (name, bytes, before) in [
        ("one-cut.warc.gz", &one, 0),
        ("three-cut.warc.gz", &whole_gzip, 3),
        ("four-cut.warc.zst", &frames, 3),
    ] {
        let cut = bytes.len() - bytes.len() / 4;
        let path = scratch(name);
        std::fs::write(&path, &bytes[..cut]).unwrap();
        let libraries: &[&str] = match name.ends_with(".zst") {
            true => &[],
            false => &["warcio", "fastwarc"],
        };
        let mut read_by_libraries = BTreeSet::new();
        for library in libraries {
            let (read, _) = library_records(&path, library);
            let targets = responses(&read);
            // (warcio gives up on a whole-file gzip after its first record.)
            if before == 0 {
                assert!(
                    targets.contains("http://lake.example/"),
                    "{name}: {library}"
                );
            }
            read_by_libraries.extend(targets);
        }
        let out = scratch(&format!("{name}.jsonl"));
        let (code, stderr) = warc_to(&[&path], &out, &[]);
        assert_eq!(code, 0, "{name}: {stderr}");
        assert!(stderr.contains("file is truncated"), "{name}: {stderr}");
        assert!(stderr.contains("1 truncated files"), "{name}: {stderr}");
        assert!(
            stderr.contains("the file ends inside this record"),
            "{name}: {stderr}"
        );
        let lines = jsonl(&out);
        assert_eq!(lines.len(), before + 1, "{name}: {stderr}");
        let targets: BTreeSet<String> = repaired(&lines).into_iter().map(|d| d.0).collect();
        assert!(
            read_by_libraries.is_subset(&targets),
            "{name}: {read_by_libraries:?}"
        );
        let last = &lines[before];
        assert_eq!(last["warc_target_uri"], "http://lake.example/", "{name}");
        assert_eq!(last["warc_truncated"], "cut", "{name}");
        assert_eq!(last["warc_repaired"], serde_json::json!(["cut"]), "{name}");
        let text = last["text"].as_str().unwrap();
        assert!(text.contains("Entry 1:"), "{name}: {text:.200}");
        assert!(!text.contains(&format!("Entry {}:", ENTRIES - 1)), "{name}");
        for line in &lines[..before] {
            assert!(line.get("warc_repaired").is_none(), "{name}: {line}");
        }
    }
}

/// ClueWeb09's WARC-Dates carry the day of the year for the day of the
/// month (`2008-10-294T05:21:46-0700`): warcio and FastWARC read the
/// records, and linesift dates them by the day they name, flagged `date`
/// and counted, and says so once a file. A date that cannot be mended is
/// no date (null), counted as before, and not flagged.
#[test]
fn a_malformed_warc_date_falls_back_and_is_flagged() {
    let dated = |i: usize, date: &str| {
        let mut record = html_response(i);
        record["date"] = Value::from(date);
        record
    };
    let spec = Value::Array(vec![
        dated(0, "2008-10-294T05:21:46-0700"),
        dated(1, "2009-03-65T08:43:19-0800"),
        dated(2, "2009-13-45T08:43:19-0800"),
        dated(3, "2009-03-06T16:43:19Z"),
    ]);
    let (path, _) = make_warc("clueweb.warc.gz", &spec, true);
    for library in ["warcio", "fastwarc"] {
        let (read, error) = library_records(&path, library);
        assert_eq!(error, None, "{library}");
        assert_eq!(responses(&read).len(), 4, "{library}: {read:?}");
    }
    let out = scratch("clueweb.jsonl");
    let (code, stderr) = warc_to(&[&path], &out, &[]);
    assert_eq!(code, 0, "{stderr}");
    let lines = jsonl(&out);
    assert_eq!(lines.len(), 4, "{stderr}");
    let dates: Vec<Option<&str>> = lines.iter().map(|l| l["warc_date"].as_str()).collect();
    assert_eq!(
        dates,
        [
            Some("2008-10-20T12:21:46Z"),
            Some("2009-03-06T16:43:19Z"),
            None,
            Some("2009-03-06T16:43:19Z")
        ]
    );
    let flags: Vec<Vec<String>> = repaired(&lines).into_iter().map(|d| d.1).collect();
    assert_eq!(
        flags,
        [
            vec!["date".to_string()],
            vec!["date".into()],
            vec![],
            vec![]
        ]
    );
    assert!(
        stderr.contains(", 1 WARC-Dates not read, 2 repairs"),
        "{stderr}"
    );
    assert!(stderr.contains("repaired: date 2"), "{stderr}");
    assert_eq!(
        stderr
            .matches("has the day of the year for the day of the month")
            .count(),
        1,
        "{stderr}"
    );
}

/// Each repair's message (a Content-Length mended, a record cut by the
/// file's end, a WARC-Date read by the fallback) is one line whose words
/// are one space apart.
#[test]
fn repair_messages_are_one_line_with_single_spaces() {
    let (records, _) = off_by(-2, None);
    let length = scratch("spaces-length.warc");
    std::fs::write(&length, records.concat()).unwrap();
    let (one, _) = make_warc("spaces-one.warc.gz", &simple_spec(1), true);
    let bytes = std::fs::read(one).unwrap();
    let cut = scratch("spaces-cut.warc.gz");
    std::fs::write(&cut, &bytes[..bytes.len() - bytes.len() / 4]).unwrap();
    let mut record = html_response(0);
    record["date"] = Value::from("2008-10-294T05:21:46-0700");
    let (date, _) = make_warc("spaces-date.warc.gz", &Value::Array(vec![record]), true);
    for (path, said) in [
        (
            &length,
            "the record is read to where the next one starts (flagged content_length)",
        ),
        (&cut, "what came before the cut is kept (flagged cut)"),
        (
            &date,
            "read as the day it names (flagged date); further ones in this file are only counted",
        ),
    ] {
        let (code, stderr) = warc_to(&[path], &scratch("spaces.jsonl"), &[]);
        assert_eq!(code, 0, "{stderr}");
        let repair: Vec<&str> = stderr.lines().filter(|l| l.contains("(flagged")).collect();
        assert_eq!(repair.len(), 1, "{stderr}");
        assert!(repair[0].contains(said), "{stderr}");
        assert!(!repair[0].contains("  "), "{stderr}");
    }
}

/// Items of `bytes` read whole by the library API, until the first error.
fn items(bytes: &[u8]) -> Vec<Item> {
    WarcReader::new(Cursor::new(bytes.to_vec()), ReaderOptions::default())
        .unwrap()
        .map_while(Result::ok)
        .collect()
}

/// A short junk line after a plain ARC file's last record (its length
/// right, its line end there) is a bad record of its own, as trailing
/// junk in a WARC file is garbage of its own: the record before it is
/// not mended with it, and its page is as written and unflagged.
#[test]
fn a_junk_line_at_a_plain_arc_files_end_leaves_the_last_record_whole() {
    let whole = pages(&arc_records().concat());
    for junk in [&b"junk\n"[..], b"x\r\n", b"--\n\n"] {
        let end = arc_records().concat().len() as u64;
        let bytes = [&arc_records().concat()[..], junk].concat();
        let read = items(&bytes);
        let got: Vec<&Page> = read
            .iter()
            .filter_map(|item| match item {
                Item::Page(page) => Some(page),
                _ => None,
            })
            .collect();
        assert_eq!(got.len(), whole.len(), "{junk:?}");
        for (page, want) in got.iter().zip(&whole) {
            let tail = &page.body[page.body.len().saturating_sub(16)..];
            let tail = String::from_utf8_lossy(tail);
            assert!(page.body == want.body, "{junk:?}: the body ends {tail:?}");
            assert_eq!(page.repairs.length, None, "{junk:?}");
        }
        let bad: Vec<(u64, String)> = read
            .iter()
            .filter_map(|item| match item {
                Item::Bad { pos, error } => Some((pos.offset, error.to_string())),
                _ => None,
            })
            .collect();
        assert_eq!(bad.len(), 1, "{junk:?}: {bad:?}");
        assert_eq!(bad[0].0, end, "{junk:?}: {bad:?}");
        assert!(bad[0].1.contains("not an ARC header line"), "{bad:?}");
    }
}

/// What the library API reads of `bytes`, one line an item: a page's
/// target and length repair, a bad record's offset and error, and the
/// error that ends the file.
fn read_lines(bytes: &[u8]) -> Vec<String> {
    WarcReader::new(Cursor::new(bytes.to_vec()), ReaderOptions::default())
        .unwrap()
        .filter_map(|item| match item {
            Ok(Item::Page(p)) => Some(format!("page {:?} {:?}", p.target_uri, p.repairs.length)),
            Ok(Item::Bad { pos, error }) => Some(format!("bad {} {error}", pos.offset)),
            Ok(_) => None,
            Err(e) => Some(format!("end {e}")),
        })
        .collect()
}

/// A plain file that ends inside the header of the record after one whose
/// length is 2 bytes short (WARC: inside `WARC/` itself or the fields
/// after it; ARC: inside the header line) is told as truncated there, as
/// such a cut after a record of the right length is: the record before
/// it is mended and kept, not lost as a bad record.
#[test]
fn a_header_cut_after_a_length_a_few_bytes_short_is_told_as_truncated() {
    let (records, _) = off_by(-2, None);
    let warc_start: usize = records[..2].iter().map(Vec::len).sum();
    let mut arc = arc_records();
    arc.truncate(3);
    let body = http_page(0);
    let length = body.len() - 2;
    let line = format!("http://a.example/ 192.0.2.7 20080101000001 text/html {length}\n");
    arc[1] = [line.as_bytes(), &body, b"\n"].concat();
    let arc_start: usize = arc[..2].iter().map(Vec::len).sum();
    let files = [
        (records.concat(), warc_start, "http://site1.example/page"),
        (arc.concat(), arc_start, "http://a.example/"),
    ];
    for (all, start, mended) in &files {
        for keep in [1, 3, 4, 5, 9, 20] {
            let end = start + keep;
            let read = read_lines(&all[..end]);
            let label = String::from_utf8_lossy(&all[*start..end]);
            let page = format!("page Some({mended:?}) Some(2)");
            assert!(read.contains(&page), "{label:?}: {read:#?}");
            let said = format!(
                "end file is truncated at offset {end}: the file ends inside a record header"
            );
            assert_eq!(read.last(), Some(&said), "{label:?}: {read:#?}");
            assert!(
                !read.iter().any(|l| l.starts_with("bad")),
                "{label:?}: {read:#?}"
            );
        }
    }
}
