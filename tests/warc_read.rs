//! Reading WARCs written by warcio: the same answer as the core for every
//! page, whatever the compression; skip reasons; CDX-style offsets and
//! random access.

mod warc_support;

use flate2::write::GzEncoder;
use linesift::warc::{Item, Page, ReaderOptions, WarcReader, read_record_from};
use linesift::{Extractor, Hints, Options};
use serde_json::{Value, json};
use std::collections::{BTreeMap, HashMap};
use std::io::{Cursor, Write};
use warc_support::*;

/// What the test expects for each page record: its HTML and hints.
struct Expected {
    html: Vec<u8>,
    hints: Hints,
}

fn chunked(body: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    for part in body.chunks(100) {
        out.extend_from_slice(format!("{:x}\r\n", part.len()).as_bytes());
        out.extend_from_slice(part);
        out.extend_from_slice(b"\r\n");
    }
    out.extend_from_slice(b"0\r\n\r\n");
    out
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut gz = GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(bytes).unwrap();
    gz.finish().unwrap()
}

/// A mixed WARC: pages in several guises, and records to skip.
/// Returns the spec and, by position in the spec, the expected pages.
fn mixed() -> (Value, HashMap<usize, Expected>) {
    let mut spec = Vec::new();
    let mut expected = HashMap::new();
    let utf8 = [("Content-Type", "text/html; charset=utf-8")];
    let mut page = |spec: &mut Vec<Value>, record: Value, html: Vec<u8>, charset: Option<&str>| {
        let url = record["uri"].as_str().map(String::from);
        expected.insert(
            spec.len(),
            Expected {
                html,
                hints: Hints {
                    url,
                    charset: charset.map(String::from),
                    ..Hints::default()
                },
            },
        );
        spec.push(record);
    };
    for i in 0..6 {
        page(
            &mut spec,
            html_response(i),
            page_html(i).into_bytes(),
            Some("utf-8"),
        );
    }
    spec.push(json!({"type": "request", "uri": "http://site0.example/page"}));
    spec.push(response(
        "http://x.example/missing",
        "404 Not Found",
        &utf8,
        page_html(1).as_bytes(),
    ));
    spec.push(response(
        "http://x.example/old",
        "301 Moved Permanently",
        &[("Location", "/new")],
        b"",
    ));
    spec.push(response(
        "http://x.example/a.png",
        "200 OK",
        &[("Content-Type", "image/png")],
        b"\x89PNG\r\n\x1a\n....",
    ));
    spec.push(response(
        "http://x.example/data",
        "200 OK",
        &[],
        b"{\"not\": \"html\"}",
    ));
    let html = page_html(6).into_bytes();
    page(
        &mut spec,
        response("http://x.example/untyped", "200 OK", &[], &html),
        html,
        None,
    );
    let latin = page_html(7)
        .replace("<meta charset=\"utf-8\">", "")
        .replace("town", "caf\u{e9}");
    let latin: Vec<u8> = latin.chars().map(|c| c as u32 as u8).collect();
    let ct = [("Content-Type", "text/html; charset=windows-1252")];
    page(
        &mut spec,
        response("http://x.example/latin", "200 OK", &ct, &latin),
        latin,
        Some("windows-1252"),
    );
    let html = page_html(8).into_bytes();
    let coded = [
        ("Content-Type", "text/html"),
        ("Transfer-Encoding", "chunked"),
        ("Content-Encoding", "gzip"),
    ];
    page(
        &mut spec,
        response(
            "http://x.example/coded",
            "200 OK",
            &coded,
            &chunked(&gzip(&html)),
        ),
        html,
        None,
    );
    let html = page_html(9).into_bytes();
    let cc = [
        ("Content-Type", "text/html"),
        ("X-Crawler-Transfer-Encoding", "chunked"),
        ("X-Crawler-Content-Encoding", "gzip"),
    ];
    page(
        &mut spec,
        response("http://x.example/cc", "200 OK", &cc, &html),
        html,
        None,
    );
    let html = page_html(10).into_bytes();
    let resource = json!({"type": "resource", "uri": "http://x.example/res", "content_type": "text/html", "body_hex": hex(&html)});
    page(&mut spec, resource, html, None);
    (Value::Array(spec), expected)
}

fn read_all(bytes: Vec<u8>) -> Vec<Item> {
    let reader = WarcReader::new(Cursor::new(bytes), ReaderOptions::default()).unwrap();
    reader.map(|r| r.unwrap()).collect()
}

fn skip_counts(items: &[Item]) -> BTreeMap<String, usize> {
    let mut counts = BTreeMap::new();
    for item in items {
        if let Item::Skipped { reason, .. } = item {
            *counts.entry(reason.key()).or_default() += 1;
        }
    }
    counts
}

/// Every page's text equals the core's answer for that page; the other
/// records are skipped for the right reasons; offsets are where the
/// records start.
fn check(
    items: &[Item],
    written: &[Written],
    offsets: &[u64],
    expected: &HashMap<usize, Expected>,
) {
    let extractor = Extractor::new(Options::default());
    assert_eq!(items.len(), written.len());
    let mut pages = 0;
    for (i, item) in items.iter().enumerate() {
        let pos = match item {
            Item::Page(p) => p.pos,
            Item::Skipped { pos, .. } => *pos,
            Item::Bad { error, .. } => panic!("record {i}: {error}"),
        };
        assert_eq!(pos.offset, offsets[i], "offset of record {i}");
        let Item::Page(page) = item else { continue };
        assert_eq!(page.record_id, written[i].id);
        if let Some(want) = expected.get(&i) {
            pages += 1;
            check_page(&extractor, page, want);
        }
    }
    assert_eq!(pages, expected.len());
    let skips = skip_counts(items);
    let want: BTreeMap<String, usize> = [
        ("type:request", 1),
        ("status:4xx", 1),
        ("status:3xx", 1),
        ("not-html", 1),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect();
    assert_eq!(skips, want);
}

fn check_page(extractor: &Extractor, page: &Page, want: &Expected) {
    let got = page.extract(extractor).unwrap();
    let direct = extractor.extract(&want.html, &want.hints).unwrap();
    assert!(!direct.text.is_empty(), "test page too small for the core");
    assert_eq!(got.text, direct.text, "{:?}", page.target_uri);
    assert_eq!(got.headline, direct.headline);
    assert_eq!(got.encoding, direct.encoding);
}

#[test]
fn same_answer_plain_gzip_and_whole_file_gzip() {
    let (spec, expected) = mixed();
    let (plain, written) = make_warc("mixed.warc", &spec, false);
    let offsets: Vec<u64> = written.iter().map(|w| w.offset).collect();
    let plain = std::fs::read(plain).unwrap();
    check(&read_all(plain.clone()), &written, &offsets, &expected);

    let (gz, gz_written) = make_warc("mixed.warc.gz", &spec, true);
    let gz_offsets: Vec<u64> = gz_written.iter().map(|w| w.offset).collect();
    check(
        &read_all(std::fs::read(gz).unwrap()),
        &gz_written,
        &gz_offsets,
        &expected,
    );

    // One gzip member for the whole file: offset 0, inner = plain offset.
    let items = read_all(gzip(&plain));
    check(&items, &written, &vec![0; written.len()], &expected);
    let inner: Vec<u64> = items
        .iter()
        .map(|i| match i {
            Item::Page(p) => p.pos.inner,
            Item::Skipped { pos, .. } | Item::Bad { pos, .. } => pos.inner,
        })
        .collect();
    assert_eq!(inner, offsets);
}

/// The same kind of item with the same content, whatever the offsets.
fn same_item(a: &Item, b: &Item) -> bool {
    match (a, b) {
        (Item::Page(a), Item::Page(b)) => {
            (&a.record_id, &a.body, &a.coding) == (&b.record_id, &b.body, &b.coding)
        }
        (Item::Skipped { reason: a, .. }, Item::Skipped { reason: b, .. }) => a == b,
        (Item::Bad { error: a, .. }, Item::Bad { error: b, .. }) => a.to_string() == b.to_string(),
        _ => false,
    }
}

/// One gzip member holding `data` (under 64 KiB) in a stored block.
fn stored_gzip(data: &[u8]) -> Vec<u8> {
    let len = u16::try_from(data.len()).unwrap();
    let mut out = vec![0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255, 1];
    out.extend_from_slice(&len.to_le_bytes());
    out.extend_from_slice(&(!len).to_le_bytes());
    out.extend_from_slice(data);
    let mut crc = flate2::Crc::new();
    crc.update(data);
    out.extend_from_slice(&crc.sum().to_le_bytes());
    out.extend_from_slice(&u32::from(len).to_le_bytes());
    out
}

/// A plain WARC gzipped in fixed-size independent members that do not
/// follow the records (as BGZF does, in 64 KiB members): headers, bodies
/// and even `WARC/` run across member ends. It reads as the plain file
/// does, each record at the member where it starts.
#[test]
fn gzip_members_that_do_not_follow_records_read_as_the_plain_file() {
    let (spec, _) = mixed();
    let (plain, written) = make_warc("bgzf.warc", &spec, false);
    let plain = std::fs::read(plain).unwrap();
    let want = read_all(plain.clone());
    assert_eq!(want.len(), written.len());
    // In members of `size` bytes, ending in an empty member (BGZF's end
    // of file marker); `empty` puts one after every member too.
    let members_of = |plain: &[u8], size: usize, empty: bool| {
        let mut file = Vec::new();
        let mut members = Vec::new();
        for part in plain.chunks(size) {
            members.push(file.len() as u64);
            // Tiny members stored (making thousands of them through the
            // encoder is slow).
            match size < 97 {
                true => file.extend(stored_gzip(part)),
                false => file.extend(gzip(part)),
            }
            if empty {
                file.extend(stored_gzip(b""));
            }
        }
        file.extend(stored_gzip(b""));
        (file, members)
    };
    for (size, empty) in [
        (4096, false),
        (1000, false),
        (97, true),
        (7, false),
        (3, true),
        (1, false),
    ] {
        let (file, members) = members_of(&plain, size, empty);
        let got = read_all(file);
        assert_eq!(got.len(), want.len(), "members of {size} bytes");
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            assert!(same_item(g, w), "members of {size}, record {i}: {g:?}");
            let pos = match g {
                Item::Page(p) => p.pos,
                Item::Skipped { pos, .. } | Item::Bad { pos, .. } => *pos,
            };
            let at = written[i].offset as usize;
            assert_eq!(
                (pos.offset, pos.inner),
                (members[at / size], (at % size) as u64),
                "members of {size}, record {i}"
            );
        }
    }
    // The same with zstd frames (as in zstd's seekable format).
    for size in [4096, 7] {
        let file: Vec<u8> = plain
            .chunks(size)
            .flat_map(|part| zstd::bulk::compress(part, 1).unwrap())
            .collect();
        let got = read_all(file);
        assert_eq!(got.len(), want.len(), "zstd frames of {size} bytes");
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            assert!(same_item(g, w), "zstd frames of {size}, record {i}: {g:?}");
        }
    }
    // Garbage before a record is counted once as in the plain file, and
    // the record after it is read, wherever the members end.
    let junked = [
        &plain[..written[3].offset as usize],
        b"junk!\r\n",
        &plain[written[3].offset as usize..],
    ]
    .concat();
    let want = read_all(junked.clone());
    assert_eq!(want.len(), written.len() + 1);
    for size in [4096, 97, 7, 5, 3, 2, 1] {
        let got = read_all(members_of(&junked, size, false).0);
        assert_eq!(got.len(), want.len(), "members of {size} bytes, junk");
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            assert!(same_item(g, w), "members of {size}, junk, item {i}: {g:?}");
        }
    }
}

#[test]
fn same_answer_zstd_with_and_without_dictionary() {
    let (spec, expected) = mixed();
    let (plain, written) = make_warc("mixed-z.warc", &spec, false);
    let plain = std::fs::read(plain).unwrap();
    let dict = train_dictionary();
    for (dict, compressed) in [
        (None, false),
        (Some(&dict[..]), false),
        (Some(&dict[..]), true),
    ] {
        let (zst, offsets) = zstd_warc(&plain, &written, dict, compressed);
        check(&read_all(zst), &written, &offsets, &expected);
    }
}

/// An LZ4 WARC as FastWARC writes it (one frame a record) gives the same
/// records as the plain file, at the offsets FastWARC reads them at.
#[test]
fn same_answer_lz4_written_by_fastwarc() {
    let (spec, expected) = mixed();
    let (plain, written) = make_warc("mixed-lz4.warc", &spec, false);
    let (lz4, records) = fastwarc_lz4(&plain, "mixed.warc.lz4");
    let ids: Vec<&str> = records.iter().map(|(id, _)| id.as_str()).collect();
    let want: Vec<&str> = written.iter().map(|w| w.id.as_str()).collect();
    assert_eq!(ids, want);
    let offsets: Vec<u64> = records.iter().map(|(_, offset)| *offset).collect();
    assert!(offsets.windows(2).all(|w| w[0] < w[1]), "{offsets:?}");
    let lz4 = std::fs::read(lz4).unwrap();
    assert!(lz4.starts_with(&[0x04, 0x22, 0x4d, 0x18]));
    check(&read_all(lz4), &written, &offsets, &expected);
}

#[test]
fn random_access_by_offset_and_length() {
    let (spec, _) = mixed();
    let (gz, written) = make_warc("ra.warc.gz", &spec, true);
    let gz = std::fs::read(gz).unwrap();
    let (scratch_plain, plain_written) = make_warc("ra.warc", &spec, false);
    let plain = std::fs::read(&scratch_plain).unwrap();
    let dict = train_dictionary();
    let (zst, zoffsets) = zstd_warc(&plain, &plain_written, Some(&dict), true);
    let (lz4, lz4_records) = fastwarc_lz4(&scratch_plain, "ra.warc.lz4");
    let lz4 = std::fs::read(lz4).unwrap();
    // An LZ4 record's length: to the next frame's start, or the file's end.
    let lz4_ends = lz4_records
        .iter()
        .skip(1)
        .map(|(_, o)| *o)
        .chain([lz4.len() as u64]);
    let lz4_points: Vec<_> = lz4_records
        .iter()
        .zip(lz4_ends)
        .map(|((_, start), end)| (*start, Some(end - start)))
        .collect();
    let cases = [
        (
            &gz,
            written
                .iter()
                .map(|w| (w.offset, Some(w.length)))
                .collect::<Vec<_>>(),
            &written,
        ),
        (
            &plain,
            plain_written.iter().map(|w| (w.offset, None)).collect(),
            &plain_written,
        ),
        (
            &zst,
            zoffsets.iter().map(|o| (*o, None)).collect(),
            &plain_written,
        ),
        (&lz4, lz4_points, &plain_written),
    ];
    for (bytes, points, written) in cases {
        for (i, (offset, length)) in points.into_iter().enumerate() {
            let item =
                read_record_from(Cursor::new(bytes), offset, length, ReaderOptions::default())
                    .unwrap();
            match item {
                Item::Page(p) => {
                    assert_eq!(p.record_id, written[i].id);
                    assert_eq!(p.pos.offset, offset);
                }
                Item::Skipped { pos, .. } => assert_eq!(pos.offset, offset),
                Item::Bad { error, .. } => panic!("record {i}: {error}"),
            }
        }
    }
}

#[test]
fn warc_0_18_with_lf_only_lines() {
    let html = page_html(3);
    let http = format!("HTTP/1.1 200 OK\nContent-Type: text/html\n\n{html}");
    let record = |id: &str, body: &str| {
        format!(
            "WARC/0.18\nWARC-Type: response\nWARC-Target-URI: http://old.example/\nWARC-Date: 2009-03-65T08:43:19-0800\n\
             WARC-Record-ID: <urn:uuid:{id}>\nContent-Type: application/http;msgtype=response\nContent-Length: {}\n\n{body}\n",
            body.len()
        )
    };
    let file = format!("{}{}", record("a", &http), record("b", &http));
    let items = read_all(file.into_bytes());
    assert_eq!(items.len(), 2);
    for item in &items {
        let Item::Page(p) = item else {
            panic!("{item:?}")
        };
        assert!(
            p.extract(&Extractor::new(Options::default()))
                .unwrap()
                .text
                .contains("glaciers")
                || !p.body.is_empty()
        );
    }
}

/// A record with `WARC-Truncated` is a page that says why it is not
/// whole, as is the first segment of a segmented record (`segment`);
/// continuation segments, whatever their type, are no pages: skipped and
/// counted. Plain and one gzip member per record.
#[test]
fn truncated_records_and_first_segments_say_so_and_continuations_are_skipped() {
    let records = not_whole_records();
    let bytes: Vec<Vec<u8>> = records.iter().map(|r| r.1.clone()).collect();
    let extractor = Extractor::new(Options::default());
    for (name, file) in [("plain", bytes.concat()), ("gzip", gzip_members(&bytes))] {
        let items = read_all(file);
        assert_eq!(items.len(), records.len(), "{name}");
        for (item, (id, _, want)) in items.iter().zip(&records) {
            match (item, want) {
                (Item::Page(page), Whole::Page(truncated)) => {
                    assert_eq!(page.record_id, format!("<urn:uuid:{id}>"), "{name}");
                    assert_eq!(page.truncated.as_deref(), *truncated, "{name} {id}");
                    let doc = page.extract(&extractor).unwrap();
                    assert!(!doc.text.is_empty(), "{name} {id}");
                }
                (Item::Skipped { reason, .. }, Whole::Skipped(key)) => {
                    assert_eq!(reason.key(), *key, "{name} {id}");
                }
                other => panic!("{name} {id}: {other:?}"),
            }
        }
    }
}

/// A response's HTTP date (a WET record's date when the record has no
/// WARC-Date) is the first of its `Date` headers that reads as a date,
/// as a WARC-Date: an empty or broken one before it is passed over.
#[test]
fn a_responses_http_date_is_its_first_date_header_that_reads() {
    let cases: [(&[&str], Option<&str>); 5] = [
        (
            &["Tue, 15 Nov 1994 08:12:31 GMT"],
            Some("1994-11-15T08:12:31Z"),
        ),
        (
            &["", "Tue, 15 Nov 1994 08:12:31 GMT"],
            Some("1994-11-15T08:12:31Z"),
        ),
        (
            &[
                "yesterday",
                "Wed, 5 Nov 1994 08:12:31 UTC",
                "Sun, 06 Nov 1994 08:49:37 GMT",
            ],
            Some("1994-11-05T08:12:31Z"),
        ),
        (&["", "yesterday"], None),
        (&[], None),
    ];
    for (dates, want) in cases {
        let head: String = dates.iter().map(|d| format!("Date: {d}\r\n")).collect();
        let block = [
            b"HTTP/1.1 200 OK\r\n",
            head.as_bytes(),
            b"Content-Type: text/html; charset=utf-8\r\n\r\n",
            page_html(0).as_bytes(),
        ]
        .concat();
        let items = read_all(raw_record("response", "dated", &[], &block));
        let [Item::Page(page)] = &items[..] else {
            panic!("{dates:?}: {items:?}");
        };
        assert_eq!(page.http_date.as_deref(), want, "{dates:?}");
    }
}

/// `bytes` encoded with each of `codings` in turn, the first listed
/// applied first, as a `Content-Encoding` list reads.
fn encoded_with(codings: &[&str], bytes: &[u8]) -> Vec<u8> {
    codings
        .iter()
        .fold(bytes.to_vec(), |body, coding| match *coding {
            "gzip" => gzip(&body),
            "br" => {
                let mut out = Vec::new();
                let mut e = brotli::CompressorWriter::new(&mut out, 4096, 5, 22);
                e.write_all(&body).unwrap();
                drop(e);
                out
            }
            "zstd" => zstd::encode_all(&body[..], 3).unwrap(),
            other => panic!("{other}"),
        })
}

/// Stacked Content-Encodings of a response's payload are undone as the
/// fetcher undoes them, the last listed first, whether listed in one
/// header or in one header line each; a layer the crawler already undid
/// (declared `gzip, br`, stored gzip-compressed or plain) is taken as
/// undone. The page extracts as the core extracts it from the HTML.
#[test]
fn stacked_content_encodings_of_a_payload_are_undone() {
    let cases: [(&[&str], &[&str]); 6] = [
        (&["gzip, br"], &["gzip", "br"]),
        (&["br, gzip"], &["br", "gzip"]),
        (&["gzip", "zstd"], &["gzip", "zstd"]),
        (&["identity, gzip", "BR"], &["gzip", "br"]),
        (&["gzip, br"], &["gzip"]),
        (&["gzip, br"], &[]),
    ];
    let extractor = Extractor::new(Options::default());
    for (i, (lines, applied)) in cases.into_iter().enumerate() {
        let html = page_html(i).into_bytes();
        let head: String = lines
            .iter()
            .map(|l| format!("Content-Encoding: {l}\r\n"))
            .collect();
        let block = [
            b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n",
            head.as_bytes(),
            b"\r\n",
            &encoded_with(applied, &html),
        ]
        .concat();
        let items = read_all(raw_record("response", "stacked", &[], &block));
        let [Item::Page(page)] = &items[..] else {
            panic!("{lines:?}: {items:?}");
        };
        let want = Expected {
            html,
            hints: Hints {
                url: Some("http://stacked.example/".into()),
                charset: Some("utf-8".into()),
                ..Hints::default()
            },
        };
        check_page(&extractor, page, &want);
    }
}
