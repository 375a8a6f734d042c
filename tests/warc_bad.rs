//! Bad input: truncated gzip and zstd, garbage between records and
//! members and before the first gzip member or zstd or LZ4 frame, wrong
//! Content-Length, a missing WARC-Record-ID, a zstd file without its
//! dictionary, corrupt gzip members and zstd frames, members
//! and frames decompressing past `max_member` (bombs). Each is counted as
//! an error, reading carries on where it can, and nothing panics.

mod warc_support;

use linesift::codec::container::DETECT_WINDOW;
use linesift::warc::{ContainerError, Item, ReaderOptions, WarcError, WarcReader};
use std::io::Cursor;
use std::path::Path;
use warc_support::*;

/// Items until the first fatal error, and that error.
fn read(bytes: Vec<u8>) -> (Vec<Item>, Option<WarcError>) {
    read_with(bytes, ReaderOptions::default())
}

fn read_with(bytes: Vec<u8>, options: ReaderOptions) -> (Vec<Item>, Option<WarcError>) {
    let reader = WarcReader::new(Cursor::new(bytes), options).unwrap();
    let mut items = Vec::new();
    for r in reader {
        match r {
            Ok(item) => items.push(item),
            Err(e) => return (items, Some(e)),
        }
    }
    (items, None)
}

fn ids(items: &[Item]) -> Vec<String> {
    items
        .iter()
        .filter_map(|i| match i {
            Item::Page(p) => Some(p.record_id.clone()),
            _ => None,
        })
        .collect()
}

fn errors(items: &[Item]) -> Vec<String> {
    items
        .iter()
        .filter_map(|i| match i {
            Item::Bad { error, .. } => Some(error.to_string()),
            _ => None,
        })
        .collect()
}

fn six() -> (Vec<u8>, Vec<Written>) {
    let (path, written) = make_warc("six.warc", &simple_spec(6), false);
    (std::fs::read(path).unwrap(), written)
}

fn all_ids(written: &[Written]) -> Vec<String> {
    written.iter().map(|w| w.id.clone()).collect()
}

#[test]
fn truncated_gzip_keeps_the_records_before() {
    let (path, written) = make_warc("trunc.warc.gz", &simple_spec(6), true);
    let bytes = std::fs::read(path).unwrap();
    let cut = written[3].offset + written[3].length / 2;
    let (items, error) = read(bytes[..cut as usize].to_vec());
    assert_eq!(ids(&items), all_ids(&written[..3]));
    let error = error.expect("a truncation error");
    assert!(
        matches!(
            error,
            WarcError::Container(ContainerError::Truncated { .. })
        ),
        "{error}"
    );
    assert!(
        error
            .to_string()
            .contains(&format!("offset {}", written[3].offset)),
        "{error}"
    );
}

#[test]
fn truncated_zstd_keeps_the_records_before() {
    let (plain, written) = six();
    let (zst, offsets) = zstd_warc(&plain, &written, None, false);
    let cut = (offsets[4] + offsets[5]) / 2;
    let (items, error) = read(zst[..cut as usize].to_vec());
    assert_eq!(ids(&items), all_ids(&written[..4]));
    assert!(
        matches!(
            error,
            Some(WarcError::Container(ContainerError::Truncated { .. }))
        ),
        "{error:?}"
    );
}

#[test]
fn truncated_plain_file_inside_a_record() {
    let (plain, written) = six();
    let cut = written[5].offset + 200;
    let (items, error) = read(plain[..cut as usize].to_vec());
    assert_eq!(ids(&items), all_ids(&written[..5]));
    assert!(
        matches!(
            error,
            Some(WarcError::Container(ContainerError::Truncated { .. }))
        ),
        "{error:?}"
    );
}

#[test]
fn garbage_between_records_is_skipped_and_counted() {
    let (plain, written) = six();
    let mut records = split_records(&plain, &written);
    records[2].splice(
        0..0,
        b"this is not a record\r\nnor is this\r\n".iter().copied(),
    );
    records[4].splice(
        0..0,
        [0u8, 1, 2, 3, 0xff, 0xfe, b'\n', b'x'].iter().copied(),
    );
    let (items, error) = read(records.concat());
    assert!(error.is_none(), "{error:?}");
    assert_eq!(ids(&items), all_ids(&written));
    let errors = errors(&items);
    assert_eq!(errors.len(), 2, "{errors:?}");
    assert!(errors.iter().all(|e| e.contains("garbage")), "{errors:?}");
}

#[test]
fn garbage_between_gzip_members_is_skipped_and_counted() {
    let (plain, written) = six();
    let records = split_records(&plain, &written);
    let mut bytes = gzip_members(&records[..3]);
    bytes.extend_from_slice(b"junk between members");
    bytes.extend(gzip_members(&records[3..]));
    bytes.extend_from_slice(b"trailing");
    let (items, error) = read(bytes);
    assert!(error.is_none(), "{error:?}");
    assert_eq!(ids(&items), all_ids(&written));
    assert_eq!(
        errors(&items),
        vec![
            "20 bytes of garbage before the next record".to_string(),
            "8 bytes of garbage before the next record".to_string()
        ]
    );
}

/// A gzip or zstd file with bytes before its first member (a stray HTTP
/// header saved with it, junk holding a gzip magic that starts no member,
/// 40 KiB of binary junk) is read whole: the compression is told from the
/// first member found in the first 64 KiB, the junk is reported once, at
/// offset 0, as garbage, and each record keeps its own offset. Before,
/// the format was told from the first bytes alone: plain, so every record
/// was lost as garbage. (Junk that itself begins with a gzip magic is a
/// corrupt first member, as before.)
#[test]
fn junk_before_the_first_member_is_skipped_and_reported_once() {
    let (plain, written) = six();
    let records = split_records(&plain, &written);
    let (gz, gz_offsets) = gzip_file(&records);
    let dict = train_dictionary();
    let (zst, zst_offsets) = zstd_warc(&plain, &written, Some(&dict), true);
    let (bare, bare_offsets) = zstd_warc(&plain, &written, None, false);
    let junks: [Vec<u8>; 3] = [
        b"HTTP/1.1 200 OK\r\nContent-Type: application/warc\r\n\r\n".to_vec(),
        b"junk \x1f\x8b\x08\x00 not a member".to_vec(),
        noise(40 << 10, 7),
    ];
    for (format, file, offsets) in [
        ("gzip", &gz, &gz_offsets),
        ("zstd with a dictionary", &zst, &zst_offsets),
        ("zstd", &bare, &bare_offsets),
    ] {
        for junk in &junks {
            let what = format!("{format} after {} bytes of junk", junk.len());
            let (items, error) = read([&junk[..], file].concat());
            assert!(error.is_none(), "{what}: {error:?}");
            assert_eq!(ids(&items), all_ids(&written), "{what}");
            let garbage = format!("{} bytes of garbage before the next record", junk.len());
            assert_eq!(errors(&items), vec![garbage], "{what}");
            assert!(
                matches!(&items[0], Item::Bad { pos, .. } if pos.offset == 0),
                "{what}: {:?}",
                items[0]
            );
            let pages: Vec<u64> = items
                .iter()
                .filter_map(|i| match i {
                    Item::Page(p) => Some(p.pos.offset),
                    _ => None,
                })
                .collect();
            let shifted: Vec<u64> = offsets.iter().map(|o| o + junk.len() as u64).collect();
            assert_eq!(pages, shifted, "{what}");
        }
    }
    // The command line logs it once, with the file and offset, and reads
    // every page.
    let path = scratch("junk-first.warc.gz");
    std::fs::write(&path, [&junks[0][..], &gz].concat()).unwrap();
    let out = scratch("junk-first.jsonl");
    let (code, _, stderr) =
        linesift(&["warc", path.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(code, 0, "{stderr}");
    let want = format!(
        "{}: at offset 0: {} bytes of garbage",
        path.display(),
        junks[0].len()
    );
    assert_eq!(stderr.matches("garbage").count(), 1, "{stderr}");
    assert!(stderr.contains(&want), "{stderr}");
    let lines = std::fs::read_to_string(&out).unwrap();
    assert_eq!(lines.lines().count(), written.len());
}

/// An LZ4 WARC as FastWARC writes it (a frame a record) with bytes before
/// its first frame is read whole as a gzip or zstd file is: the junk is
/// reported once, at offset 0, as garbage, and each record keeps the
/// offset FastWARC gives it, shifted by the junk.
#[test]
fn junk_before_the_first_lz4_frame_is_skipped_and_reported_once() {
    let (path, written) = make_warc("six-lz4.warc", &simple_spec(6), false);
    let (lz4, frames) = fastwarc_lz4(&path, "six.warc.lz4");
    let lz4 = std::fs::read(lz4).unwrap();
    assert!(lz4.starts_with(&[0x04, 0x22, 0x4d, 0x18]));
    let junks: [Vec<u8>; 3] = [
        b"HTTP/1.1 200 OK\r\nContent-Type: application/warc\r\n\r\n".to_vec(),
        // A frame magic that starts no frame.
        b"junk \x04\x22\x4d\x18\x64\x40\x00 not a frame".to_vec(),
        noise(40 << 10, 11),
    ];
    for junk in &junks {
        let what = format!("LZ4 after {} bytes of junk", junk.len());
        let (items, error) = read([&junk[..], &lz4].concat());
        assert!(error.is_none(), "{what}: {error:?}");
        assert_eq!(ids(&items), all_ids(&written), "{what}");
        let garbage = format!("{} bytes of garbage before the next record", junk.len());
        assert_eq!(errors(&items), vec![garbage], "{what}");
        assert!(
            matches!(&items[0], Item::Bad { pos, .. } if pos.offset == 0),
            "{what}: {:?}",
            items[0]
        );
        let pages: Vec<u64> = items
            .iter()
            .filter_map(|i| match i {
                Item::Page(p) => Some(p.pos.offset),
                _ => None,
            })
            .collect();
        let shifted: Vec<u64> = frames.iter().map(|(_, o)| o + junk.len() as u64).collect();
        assert_eq!(pages, shifted, "{what}");
    }
    let path = scratch("junk-first.warc.lz4");
    std::fs::write(&path, [&junks[0][..], &lz4].concat()).unwrap();
    let out = scratch("junk-first-lz4.jsonl");
    let (code, _, stderr) =
        linesift(&["warc", path.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(code, 0, "{stderr}");
    let want = format!(
        "{}: at offset 0: {} bytes of garbage",
        path.display(),
        junks[0].len()
    );
    assert_eq!(stderr.matches("garbage").count(), 1, "{stderr}");
    assert!(stderr.contains(&want), "{stderr}");
    let lines = std::fs::read_to_string(&out).unwrap();
    assert_eq!(lines.lines().count(), written.len());
}

/// A plain file with junk before its first record is read as before: the
/// junk reported once as garbage at offset 0, even when it holds bytes
/// that look like a gzip member or zstd frame further on (a record's
/// payload may be gzip data: the first `WARC/` comes first).
#[test]
fn junk_before_a_plain_files_first_record_is_reported_once() {
    let (plain, written) = six();
    let junk = b"junk before the file\r\n";
    let (items, error) = read([&junk[..], &plain].concat());
    assert!(error.is_none(), "{error:?}");
    assert_eq!(ids(&items), all_ids(&written));
    let garbage = format!("{} bytes of garbage before the next record", junk.len());
    assert_eq!(errors(&items), vec![garbage]);
    // A gzip member inside the first record's payload, after junk.
    let member = gzip_members(&[b"<html>inside</html>".to_vec()]);
    let record = raw_record(
        "resource",
        "gz",
        &[("Content-Type", "application/gzip")],
        &member,
    );
    let (items, error) = read([&junk[..], &record, &plain].concat());
    assert!(error.is_none(), "{error:?}");
    assert_eq!(ids(&items), all_ids(&written));
    assert_eq!(errors(&items).len(), 1, "{:?}", errors(&items));
}

/// A plain file that begins part way through a record (`tail -c +N` of
/// a crawl) whose payload is gzip-encoded (`Content-Encoding: gzip`, a
/// real gzip member) is read as plain: every record after the cut one is
/// read and the cut one reported once as garbage. The member decompresses
/// to HTML, not to a record, so it is not taken for the first member of a
/// gzip file (which made every later record garbage).
#[test]
fn a_plain_file_cut_inside_a_record_with_a_gzip_payload_reads_the_records_after_it() {
    let html = page_html(0);
    let body = gzip_members(&[html.into_bytes()]);
    let mut spec = vec![response(
        "http://gzip.example/",
        "200 OK",
        &[("Content-Type", "text/html"), ("Content-Encoding", "gzip")],
        &body,
    )];
    spec.extend((1..=5).map(html_response));
    let (path, written) = make_warc("cut-gzip-payload.warc", &serde_json::json!(spec), false);
    let plain = std::fs::read(path).unwrap();
    let later = all_ids(&written[1..]);
    for cut in [1, 100, (written[1].offset as usize) - body.len() - 10] {
        let (items, error) = read(plain[cut..].to_vec());
        assert!(error.is_none(), "cut at {cut}: {error:?}");
        assert_eq!(ids(&items), later, "cut at {cut}");
        let garbage = format!(
            "{} bytes of garbage before the next record",
            written[1].offset as usize - cut
        );
        assert_eq!(errors(&items), vec![garbage], "cut at {cut}");
    }
}

/// A gzip file whose members name an OS past RFC 1952's list (zlib
/// writes 19 on macOS, 16 on BeOS, 18 on OS/400) is found after junk as
/// any other: the OS byte says nothing about whether a member starts.
#[test]
fn junk_before_gzip_members_of_any_os_is_skipped() {
    let (plain, written) = six();
    let records = split_records(&plain, &written);
    for os in [16, 18, 19] {
        let mut gz = Vec::new();
        for record in &records {
            let mut member = gzip_members(std::slice::from_ref(record));
            member[9] = os;
            gz.extend(member);
        }
        let junk = b"HTTP/1.1 200 OK\r\n\r\n";
        let (items, error) = read([&junk[..], &gz].concat());
        assert!(error.is_none(), "OS {os}: {error:?}");
        assert_eq!(ids(&items), all_ids(&written), "OS {os}");
        let garbage = format!("{} bytes of garbage before the next record", junk.len());
        assert_eq!(errors(&items), vec![garbage], "OS {os}");
    }
}

/// The page ids and error messages read from `bytes`, which must give no
/// fatal error.
fn read_all_ok(bytes: Vec<u8>, what: &str) -> (Vec<String>, Vec<String>) {
    let (items, error) = read(bytes);
    assert!(error.is_none(), "{what}: {error:?}");
    (ids(&items), errors(&items))
}

/// A page of text that compresses poorly (letters and spaces at random,
/// seeded): 100 KiB of it is one zstd block of some 58 KiB.
fn big_poorly_compressible_page(len: usize, seed: u64) -> Vec<u8> {
    let text: Vec<u8> = noise(len, seed)
        .iter()
        .map(|&b| match b % 32 {
            26.. => b' ',
            n => b'a' + n,
        })
        .collect();
    [
        &b"<!DOCTYPE html><html><head><title>Big</title></head><body><p>"[..],
        &text,
        b"</p></body></html>",
    ]
    .concat()
}

/// `tail -c +N` of a `.warc.zst` with one frame per record, whose first
/// whole frame holds a 100 KiB page: the frame starts some 60 KiB in and
/// its first block (zstd gives nothing before it has all of it) runs past
/// the first 64 KiB where a start is looked for. Checked against those
/// 64 KiB alone, the frame was taken for no record's start, and the whole
/// file read as plain: every record lost as garbage. It is checked
/// against the bytes after the window too, and every record read.
#[test]
fn a_zstd_frame_whose_first_block_runs_past_the_detect_window_is_found() {
    let mut spec = simple_spec(4);
    spec[0] = response(
        "http://big.example/",
        "200 OK",
        &[("Content-Type", "text/html; charset=utf-8")],
        &big_poorly_compressible_page(100 << 10, 11),
    );
    let (path, written) = make_warc("big-first.warc", &spec, false);
    let plain = std::fs::read(path).unwrap();
    let (zst, offsets) = zstd_warc(&plain, &written, None, false);
    // The first frame is one large block: from 60 KiB in, it ends well
    // past the window.
    assert!(offsets[1] > 40 << 10, "first frame {} bytes", offsets[1]);
    for junk_len in [60 << 10, DETECT_WINDOW - 5] {
        // The end of a cut frame: bytes that decode to nothing.
        let junk = noise(junk_len, 5);
        let what = format!("zstd after {junk_len} bytes of junk");
        let (ids, errors) = read_all_ok([&junk[..], &zst].concat(), &what);
        assert_eq!(ids, all_ids(&written), "{what}");
        let garbage = format!("{junk_len} bytes of garbage before the next record");
        assert_eq!(errors, vec![garbage], "{what}");
    }
}

/// A gzip member that starts a few bytes before the end of the first
/// 64 KiB (its header, or its first bytes of deflate data, past it) is
/// found and every record read; one that starts at the window's end is
/// not looked for (the file is read as plain).
#[test]
fn a_gzip_member_starting_near_the_detect_window_end_is_found() {
    let (plain, written) = six();
    let gz = gzip_members(&split_records(&plain, &written));
    for back in [1, 6, 10, 40, 300] {
        let junk_len = DETECT_WINDOW - back;
        let junk = noise(junk_len, 9);
        let what = format!("gzip after {junk_len} bytes of junk");
        let (ids, errors) = read_all_ok([&junk[..], &gz].concat(), &what);
        assert_eq!(ids, all_ids(&written), "{what}");
        let garbage = format!("{junk_len} bytes of garbage before the next record");
        assert_eq!(errors, vec![garbage], "{what}");
    }
    let junk = noise(DETECT_WINDOW, 9);
    let (ids, _) = read_all_ok([&junk[..], &gz].concat(), "at the window's end");
    assert!(ids.is_empty(), "{ids:?}");
}

/// Junk of gzip headers that set `FNAME` and never end it (`1f 8b 08 08`
/// and six more bytes, over and over, after a line that begins no member)
/// passes the header's first checks thousands of times: each such
/// candidate had its name read a byte at a time to the end of the bytes
/// looked at (some 2 * 10^8 reads for one file, seconds). A header must
/// now end within 1 KiB, found with one scan, and the real member after
/// the junk is found at once.
#[test]
fn junk_of_gzip_headers_with_unended_names_is_passed_over() {
    let (plain, written) = six();
    let gz = gzip_members(&split_records(&plain, &written));
    let header = [0x1f, 0x8b, 0x08, 0x08, 0x01, 0x01, 0x01, 0x01, 0x02, 0x03];
    let mut junk = b"HTTP/1.1 200 OK\r\n\r\n".to_vec();
    junk.extend(header.iter().copied().cycle().take(65_000 - junk.len()));
    let (ids, errors) = read_all_ok([&junk[..], &gz].concat(), "FNAME junk");
    assert_eq!(ids, all_ids(&written));
    assert_eq!(
        errors,
        vec!["65000 bytes of garbage before the next record".to_string()]
    );
}

/// The same junk at the file's very start, where it is taken for gzip
/// (the file begins with a gzip magic): the first header is one corrupt
/// member, and once resyncing, a header whose fields do not end within
/// 1 KiB is no member start, so only the last hundred or so (whose name
/// ends in the real member's first bytes) are corrupt members. Before,
/// each of the 6,500 headers was a corrupt member of its own, its name
/// read by the decoder to the end of the bytes it held (23 s in a debug
/// build).
#[test]
fn a_file_starting_with_gzip_headers_with_unended_names_resyncs_past_them() {
    let (plain, written) = six();
    let gz = gzip_members(&split_records(&plain, &written));
    let header = [0x1f, 0x8b, 0x08, 0x08, 0x01, 0x01, 0x01, 0x01, 0x02, 0x03];
    let junk: Vec<u8> = header.iter().copied().cycle().take(65_000).collect();
    let (ids, errors) = read_all_ok([&junk[..], &gz].concat(), "FNAME junk first");
    assert_eq!(ids, all_ids(&written));
    let headers_in_reach = 1 + 1024 / header.len();
    assert!(errors.len() <= 1 + headers_in_reach, "{}", errors.len());
    assert!(
        errors.iter().all(|e| e.contains("corrupt gzip")),
        "{errors:?}"
    );
}

/// A source that gives at most four bytes a read, as a pipe or socket may.
struct Trickle(Cursor<Vec<u8>>);

impl std::io::Read for Trickle {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        let n = out.len().min(4);
        self.0.read(&mut out[..n])
    }
}

/// The garbage scan looks at a few bytes at a time when the source gives
/// few: a `WARC/` split across two looks must still be found.
#[test]
fn garbage_before_a_record_read_a_few_bytes_at_a_time() {
    let (plain, written) = six();
    let records = split_records(&plain, &written);
    for len in 1..=9 {
        let junk = &b"junk!junk"[..len];
        let bytes = [junk, &records[0], &records[1], junk, &records[2..].concat()].concat();
        let reader = WarcReader::new(Trickle(Cursor::new(bytes)), ReaderOptions::default());
        let items: Vec<Item> = reader.unwrap().map(Result::unwrap).collect();
        assert_eq!(ids(&items), all_ids(&written), "{len} bytes of garbage");
        let want = format!("{len} bytes of garbage before the next record");
        assert_eq!(errors(&items), vec![want.clone(), want], "{len} bytes");
    }
}

/// Changes record 2's Content-Length by `delta`.
fn wrong_length(records: &[Vec<u8>], delta: i64) -> Vec<Vec<u8>> {
    let mut records = records.to_vec();
    let line = content_length_line(&records[2]);
    let n: i64 = line["Content-Length:".len()..].trim().parse().unwrap();
    records[2] = replace_first(
        &records[2],
        &line,
        &format!("Content-Length: {}", n + delta),
    );
    records
}

#[test]
fn wrong_content_length_plain() {
    let (plain, written) = six();
    let records = split_records(&plain, &written);
    let (items, error) = read(wrong_length(&records, -40).concat());
    assert!(error.is_none(), "{error:?}");
    let mut want = all_ids(&written);
    want.remove(2);
    assert_eq!(ids(&items), want);
    assert_eq!(errors(&items).len(), 1);
    assert!(errors(&items)[0].contains("Content-Length"));
    // Too long: the record eats the next one's header; both are lost.
    let (items, error) = read(wrong_length(&records, 40).concat());
    assert!(error.is_none(), "{error:?}");
    want.remove(2);
    assert_eq!(ids(&items), want);
    assert_eq!(errors(&items).len(), 1, "{:?}", errors(&items));
}

#[test]
fn wrong_content_length_gzip_per_record() {
    let (plain, written) = six();
    let records = split_records(&plain, &written);
    let mut want = all_ids(&written);
    want.remove(2);
    for delta in [-40, 40] {
        let (items, error) = read(gzip_members(&wrong_length(&records, delta)));
        assert!(error.is_none(), "{error:?}");
        assert_eq!(ids(&items), want, "delta {delta}");
        let errors = errors(&items);
        assert_eq!(errors.len(), 1, "{errors:?}");
        assert!(errors[0].contains("Content-Length"), "{errors:?}");
    }
}

/// A record whose Content-Length is too small, with a WARC header quoted
/// further on in its body (a page showing one, a stored `.warc`), in a
/// file of one gzip member per record: the resync that skips the bad
/// record finds the quoted header inside its member, and what that header
/// declares (99,999,999 bytes) must not carry the reader past the member
/// and over every record after it. Both are bad records; the rest is read.
#[test]
fn a_warc_header_quoted_in_a_bad_record_does_not_swallow_the_records_after_it() {
    let (plain, written) = six();
    let mut records = wrong_length(&split_records(&plain, &written), -40);
    let quoted = b"\nWARC/1.0\r\nWARC-Type: resource\r\nContent-Length: 99999999\r\n\r\n<p>";
    let end = records[2].len() - 4;
    records[2].splice(end..end, quoted.iter().copied());
    let (items, error) = read(gzip_members(&records));
    assert!(error.is_none(), "{error:?}");
    let mut want = all_ids(&written);
    want.remove(2);
    assert_eq!(ids(&items), want);
    assert_eq!(errors(&items).len(), 2, "{:?}", errors(&items));
}

#[test]
fn missing_record_id_is_a_bad_record() {
    let (plain, written) = six();
    let mut records = split_records(&plain, &written);
    let line = format!("WARC-Record-ID: {}\r\n", written[1].id);
    records[1] = replace_first(&records[1], &line, "");
    let (items, error) = read(gzip_members(&records));
    assert!(error.is_none(), "{error:?}");
    let mut want = all_ids(&written);
    want.remove(1);
    assert_eq!(ids(&items), want);
    assert_eq!(
        errors(&items),
        vec!["record has no WARC-Record-ID field".to_string()]
    );
}

#[test]
fn zstd_without_its_dictionary_fails_clearly() {
    let (plain, written) = six();
    let dict = train_dictionary();
    let (zst, offsets) = zstd_warc(&plain, &written, Some(&dict), false);
    let stripped = zst[offsets[0] as usize..].to_vec();
    let (items, error) = read(stripped);
    assert!(items.is_empty());
    let error = error.expect("an error");
    assert!(
        matches!(
            error,
            WarcError::Container(ContainerError::MissingDictionary { offset: 0, .. })
        ),
        "{error}"
    );
    assert!(error.to_string().contains("dictionary"));
}

#[test]
fn not_a_warc_and_empty_input() {
    let (items, error) = read(Vec::new());
    assert!(items.is_empty() && error.is_none());
    let reader = WarcReader::new(
        Cursor::new(b"BZh91AY&SY".to_vec()),
        ReaderOptions::default(),
    );
    assert!(matches!(reader, Err(WarcError::NotWarc(_))));
    // Text that is no WARC at all: one garbage error, no records.
    let (items, error) = read(b"hello\nworld\n".to_vec());
    assert!(error.is_none());
    assert_eq!(errors(&items).len(), 1);
}

#[test]
fn random_bytes_never_panic() {
    let (plain, written) = six();
    let gz = gzip_members(&split_records(&plain, &written));
    let dict = train_dictionary();
    let (zst, _) = zstd_warc(&plain, &written, Some(&dict), true);
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    for round in 0..300 {
        let mut bytes = [&plain, &gz, &zst][round % 3].clone();
        for _ in 0..4 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let at = (seed as usize) % bytes.len();
            bytes[at] = (seed >> 32) as u8;
        }
        let cut = (seed >> 16) as usize % bytes.len();
        let _ = read(bytes[..cut].to_vec());
    }
}

/// Overwrites `len` bytes at `at` with 0xff: a damaged stretch of disk.
fn damage(bytes: &mut [u8], at: u64, len: usize) {
    let at = at as usize;
    bytes[at..at + len].fill(0xff);
}

fn corrupt_errors(items: &[Item]) -> Vec<u64> {
    items
        .iter()
        .filter_map(|i| match i {
            Item::Bad {
                pos,
                error: WarcError::Container(ContainerError::Corrupt { offset, .. }),
            } => {
                assert_eq!(pos.offset, *offset);
                Some(*offset)
            }
            _ => None,
        })
        .collect()
}

/// Per-record gzip members and where each starts.
fn gzip_file(records: &[Vec<u8>]) -> (Vec<u8>, Vec<u64>) {
    let mut bytes = Vec::new();
    let mut offsets = Vec::new();
    for r in records {
        offsets.push(bytes.len() as u64);
        bytes.extend(gzip_members(std::slice::from_ref(r)));
    }
    (bytes, offsets)
}

#[test]
fn corrupt_gzip_member_in_the_middle_is_skipped() {
    let (plain, written) = six();
    let (mut gz, offsets) = gzip_file(&split_records(&plain, &written));
    damage(&mut gz, offsets[2] + 40, 64);
    let (items, error) = read(gz);
    assert!(error.is_none(), "{error:?}");
    let mut want = all_ids(&written);
    want.remove(2);
    assert_eq!(ids(&items), want);
    assert_eq!(corrupt_errors(&items), vec![offsets[2]]);
    assert_eq!(errors(&items).len(), 1, "{:?}", errors(&items));
}

#[test]
fn corrupt_zstd_frame_in_the_middle_is_skipped() {
    let (plain, written) = six();
    for dict in [None, Some(train_dictionary())] {
        let (mut zst, offsets) = zstd_warc(&plain, &written, dict.as_deref(), false);
        damage(&mut zst, offsets[3] + 6, 48);
        let (items, error) = read(zst);
        assert!(error.is_none(), "{error:?}");
        let mut want = all_ids(&written);
        want.remove(3);
        assert_eq!(ids(&items), want);
        assert_eq!(corrupt_errors(&items), vec![offsets[3]]);
        assert_eq!(errors(&items).len(), 1, "{:?}", errors(&items));
    }
}

/// The records read and the offsets of the members that failed.
fn read_and_failed(bytes: Vec<u8>) -> (Vec<String>, Vec<u64>) {
    let (items, error) = read(bytes);
    assert!(error.is_none(), "{error:?}");
    let failed = items
        .iter()
        .filter_map(|i| match i {
            Item::Bad { pos, .. } => Some(pos.offset),
            _ => None,
        })
        .collect();
    (ids(&items), failed)
}

/// A member cut short makes the decoder read on into the members after it
/// before it fails; they are still read (the resync goes back to the
/// bytes it kept of the failed member). Wherever the cut falls, the
/// failure is reported once, at the member's offset.
#[test]
fn a_gzip_member_cut_short_does_not_take_the_next_records_with_it() {
    let (plain, written) = six();
    let (gz, offsets) = gzip_file(&split_records(&plain, &written));
    every_cut_loses_one_member(&gz, &offsets, 2, &all_ids(&written));
}

#[test]
fn a_zstd_frame_cut_short_does_not_take_the_next_records_with_it() {
    let (plain, written) = six();
    for dict in [None, Some(train_dictionary())] {
        let (zst, offsets) = zstd_warc(&plain, &written, dict.as_deref(), false);
        every_cut_loses_one_member(&zst, &offsets, 3, &all_ids(&written));
    }
}

/// Cuts member `i` of `file` after each of its bytes in turn: the records
/// of the other members are all read, and the cut member is reported as
/// failed once. Its own record may survive a cut that takes only the
/// member's checksum.
fn every_cut_loses_one_member(file: &[u8], offsets: &[u64], i: usize, ids: &[String]) {
    let (start, end) = (offsets[i] as usize, offsets[i + 1] as usize);
    let mut want = ids.to_vec();
    let lost = want.remove(i);
    for keep in 1..end - start {
        let (mut read, failed) = read_and_failed([&file[..start + keep], &file[end..]].concat());
        read.retain(|id| *id != lost);
        assert_eq!(read, want, "member {i} cut after {keep} bytes");
        assert_eq!(
            failed,
            vec![offsets[i]],
            "member {i} cut after {keep} bytes"
        );
    }
}

/// Bytes that do not compress (xorshift, seeded): an image's payload.
fn noise(len: usize, seed: u64) -> Vec<u8> {
    let mut x = seed | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect()
}

/// Six records, the third a 300 KB image of noise: gzip and zstd store
/// such a payload raw (deflate stored blocks, zstd raw blocks), so when
/// its member is cut short the decoder takes the members appended after
/// the cut for the rest of a block and reaches the file's end without
/// any error of its own. The records after the cut must not be lost
/// with it, whichever the cut.
#[test]
fn a_member_of_raw_blocks_cut_short_does_not_end_the_file() {
    let mut spec = simple_spec(6);
    spec[2] = response(
        "http://site2.example/photo.png",
        "200 OK",
        &[("Content-Type", "image/png")],
        &noise(300_000, 2),
    );
    let (path, written) = make_warc("noise.warc", &spec, false);
    let plain = std::fs::read(path).unwrap();
    let mut want = all_ids(&written);
    want.remove(2);
    let (gz, gz_offsets) = gzip_file(&split_records(&plain, &written));
    let (zst, zst_offsets) = zstd_warc(&plain, &written, None, false);
    for (name, file, offsets) in [("zstd", zst, zst_offsets), ("gzip", gz, gz_offsets)] {
        let (start, end) = (offsets[2], offsets[3]);
        for keep in [(end - start) / 2, (end - start) / 3, 100_001, 250_000] {
            let cut = [&file[..(start + keep) as usize], &file[end as usize..]].concat();
            let (items, error) = read(cut);
            assert!(error.is_none(), "{name}, cut after {keep}: {error:?}");
            assert_eq!(ids(&items), want, "{name}, cut after {keep}");
            let failed: Vec<u64> = items
                .iter()
                .filter_map(|i| match i {
                    Item::Bad { pos, .. } => Some(pos.offset),
                    _ => None,
                })
                .collect();
            assert_eq!(failed, vec![start], "{name}, cut after {keep}");
        }
    }
}

#[test]
fn several_corrupt_members_each_counted_once() {
    let (plain, written) = six();
    let (mut gz, offsets) = gzip_file(&split_records(&plain, &written));
    // Two in a row, and the first member: reading still finds the others.
    for i in [0, 2, 3] {
        damage(&mut gz, offsets[i] + 30, 80);
    }
    let (items, error) = read(gz);
    assert!(error.is_none(), "{error:?}");
    let want: Vec<String> = [1, 4, 5].iter().map(|&i| written[i].id.clone()).collect();
    assert_eq!(ids(&items), want);
    assert_eq!(
        corrupt_errors(&items),
        vec![offsets[0], offsets[2], offsets[3]]
    );
}

#[test]
fn corrupt_members_in_the_cli_are_logged_and_an_unreadable_file_fails() {
    let (plain, written) = six();
    let records = split_records(&plain, &written);
    let (mut gz, offsets) = gzip_file(&records);
    damage(&mut gz, offsets[1] + 40, 64);
    let some = scratch("some-corrupt.warc.gz");
    std::fs::write(&some, &gz).unwrap();
    for &o in &offsets {
        damage(&mut gz, o + 40, 64);
    }
    let all = scratch("all-corrupt.warc.gz");
    std::fs::write(&all, &gz).unwrap();
    let out = scratch("corrupt.jsonl");
    let out = out.to_str().unwrap();
    // One member lost: logged with file and offset, the rest extracted, 0.
    let (code, _, stderr) = linesift(&["warc", some.to_str().unwrap(), "-o", out]);
    assert_eq!(code, 0, "{stderr}");
    let want = format!(
        "{}: corrupt gzip data in the member starting at offset {}",
        some.display(),
        offsets[1]
    );
    assert!(stderr.contains(&want), "{stderr}");
    assert!(stderr.contains("next member"), "{stderr}");
    assert_eq!(std::fs::read_to_string(out).unwrap().lines().count(), 5);
    // Every member corrupt: nothing was read, so the input failed (exit 1),
    // while the good file next to it is still extracted.
    let (code, _, stderr) = linesift(&[
        "warc",
        all.to_str().unwrap(),
        some.to_str().unwrap(),
        "-o",
        out,
    ]);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains(&format!("{}: not one record could be read", all.display())),
        "{stderr}"
    );
    assert_eq!(stderr.matches("corrupt gzip data").count(), 7, "{stderr}");
    assert_eq!(std::fs::read_to_string(out).unwrap().lines().count(), 5);
    assert!(!stderr.contains("panicked"), "{stderr}");

    // Every member corrupt and the last one cut short: still nothing read,
    // still a failed input (not merely a truncated one).
    let cut = scratch("all-corrupt-cut.warc.gz");
    std::fs::write(&cut, &gz[..gz.len() - 10]).unwrap();
    let (code, _, stderr) = linesift(&["warc", cut.to_str().unwrap(), "-o", out]);
    assert_eq!(code, 1, "{stderr}");

    // Random access to the corrupt member is an error for that one read,
    // not a bad record among others; the good member next to it reads.
    let ra = |offset: u64| {
        linesift(&[
            "warc",
            some.to_str().unwrap(),
            "-o",
            out,
            "--offset",
            &offset.to_string(),
        ])
    };
    // Exit code 1 (this input could not be read), not 2 (fatal); the
    // member's offset is named once.
    let (code, _, stderr) = ra(offsets[1]);
    assert_eq!(code, 1, "{stderr}");
    let said = format!(
        "{}: corrupt gzip data in the member starting at offset {}",
        some.display(),
        offsets[1]
    );
    assert!(stderr.contains(&said), "{stderr}");
    assert!(!stderr.contains("reading the record at offset"), "{stderr}");
    let (code, _, stderr) = ra(offsets[2]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(std::fs::read_to_string(out).unwrap().lines().count(), 1);
}

/// A file cut inside its first record's header: not one record of it was
/// read, so the input failed (exit code 1), as docs/cli.md says, and with
/// no input read at all the output is not written (an old OUT stays, none
/// is made); a file cut later keeps what came before and exits 0.
#[test]
fn a_file_cut_inside_its_first_record_fails() {
    let (plain, written) = six();
    let records = split_records(&plain, &written);
    let (gz, _) = gzip_file(&records);
    let out = scratch("cut-first.jsonl");
    let out = out.to_str().unwrap();
    let mut cut_files = Vec::new();
    for (name, bytes, cut) in [
        ("cut-first.warc", &plain, 60),
        ("cut-first.warc.gz", &gz, 40),
    ] {
        let path = scratch(name);
        std::fs::write(&path, &bytes[..cut as usize]).unwrap();
        let (code, _, stderr) = linesift(&["warc", path.to_str().unwrap(), "-o", out]);
        assert_eq!(code, 1, "{name}: {stderr}");
        assert!(stderr.contains("truncated"), "{name}: {stderr}");
        assert!(!Path::new(out).exists(), "{name}: an output was made");
        cut_files.push(path);
    }
    // Both at once: no input read, the old output left as it was.
    std::fs::write(out, "earlier results\n").unwrap();
    let (a, b) = (
        cut_files[0].to_str().unwrap(),
        cut_files[1].to_str().unwrap(),
    );
    let (code, _, stderr) = linesift(&["warc", a, b, "-o", out]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("no input could be read"), "{stderr}");
    assert_eq!(std::fs::read_to_string(out).unwrap(), "earlier results\n");
    assert_no_temporary_output(Path::new(out));
    // Cut inside the second record's payload: the first is kept, and the
    // second as far as the cut, flagged; exit 0.
    let path = scratch("cut-second.warc");
    let cut = written[1].offset + written[1].length / 2;
    std::fs::write(&path, &plain[..cut as usize]).unwrap();
    let (code, _, stderr) = linesift(&["warc", path.to_str().unwrap(), "-o", out]);
    assert_eq!(code, 0, "{stderr}");
    let lines: Vec<serde_json::Value> = std::fs::read_to_string(out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 2, "{stderr}");
    assert!(lines[0].get("warc_repaired").is_none());
    assert_eq!(lines[1]["warc_repaired"], serde_json::json!(["cut"]));
    assert_eq!(lines[1]["warc_truncated"], "cut");
}

/// An empty input (a 0-byte file, as a failed download leaves, plain or
/// named as gzip) holds no record: it failed (exit code 1, named in the
/// log), while the file beside it is still extracted.
#[test]
fn an_empty_input_fails() {
    let (plain, _) = six();
    let good = scratch("beside-empty.warc");
    std::fs::write(&good, &plain).unwrap();
    let out = scratch("empty.jsonl");
    let out = out.to_str().unwrap();
    for name in ["empty.warc", "empty.warc.gz"] {
        let empty = scratch(name);
        std::fs::write(&empty, b"").unwrap();
        let (code, _, stderr) = linesift(&[
            "warc",
            empty.to_str().unwrap(),
            good.to_str().unwrap(),
            "-o",
            out,
        ]);
        assert_eq!(code, 1, "{name}: {stderr}");
        let want = format!("{}: holds no record (an empty input)", empty.display());
        assert!(stderr.contains(&want), "{name}: {stderr}");
        assert!(!stderr.contains(&good.display().to_string()), "{stderr}");
        assert_eq!(std::fs::read_to_string(out).unwrap().lines().count(), 6);
    }
}

/// `--offset` reads one record: when that record cannot be read (the file
/// is missing, the member is corrupt, or the offset is not a record's
/// start), the input failed, exit code 1, as for the whole-file reads; 2
/// stays for fatal errors. An offset that is no record's start is named
/// with the file, and the output of such a run is not written: an old
/// OUT stays as it was, and no temporary file is left.
#[test]
fn offset_reads_that_find_no_record_fail_with_exit_code_1() {
    let (plain, written) = six();
    let path = scratch("ra-plain.warc");
    std::fs::write(&path, &plain).unwrap();
    let out = scratch("ra-bad.jsonl");
    std::fs::write(&out, "earlier results\n").unwrap();
    let out = out.to_str().unwrap();
    let ra = |file: &str, offset: u64| {
        linesift(&["warc", file, "-o", out, "--offset", &offset.to_string()])
    };
    let (code, _, stderr) = ra("/nonexistent/ra.warc", 0);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("/nonexistent/ra.warc"), "{stderr}");
    assert_eq!(std::fs::read_to_string(out).unwrap(), "earlier results\n");
    // An offset inside a record, as a stale CDX line gives.
    let inside = written[2].offset + 7;
    let (code, _, stderr) = ra(path.to_str().unwrap(), inside);
    assert_eq!(code, 1, "{stderr}");
    let want = format!("{}: no record starts at offset {inside}", path.display());
    assert!(stderr.contains(&want), "{stderr}");
    assert_eq!(std::fs::read_to_string(out).unwrap(), "earlier results\n");
    assert_no_temporary_output(Path::new(out));
    // The right offset still reads.
    let (code, _, stderr) = ra(path.to_str().unwrap(), written[2].offset);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(std::fs::read_to_string(out).unwrap().lines().count(), 1);
}

/// No `.OUT.tmp-PID` of `out` is left beside it.
fn assert_no_temporary_output(out: &Path) {
    let name = out.file_name().unwrap().to_string_lossy().into_owned();
    let prefix = format!(".{name}.tmp-");
    let left: Vec<_> = std::fs::read_dir(out.parent().unwrap())
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().starts_with(&prefix))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

/// A seekable file that counts the bytes read from it.
struct Counted {
    file: Cursor<Vec<u8>>,
    read: u64,
}

impl std::io::Read for Counted {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        let n = self.file.read(out)?;
        self.read += n as u64;
        Ok(n)
    }
}

impl std::io::Seek for Counted {
    fn seek(&mut self, to: std::io::SeekFrom) -> std::io::Result<u64> {
        self.file.seek(to)
    }
}

/// An offset where no gzip member, zstd frame or record starts fails at
/// once with `NoRecordAt`, reading a few bytes, instead of reading the rest
/// of a large file as garbage; so does a gzip member or zstd frame that
/// does not begin with a record (a payload's member, say), which is read
/// no further than its input buffer.
#[test]
fn an_offset_that_is_no_record_start_fails_without_reading_on() {
    use linesift::warc::read_record_from;
    let (plain, written) = six();
    let mut records = split_records(&plain, &written);
    // Large enough that reading on would show: some MiB of records after.
    let filler = records[5].clone();
    records.extend(std::iter::repeat_n(filler, 6000));
    let plain_big = records.concat();
    // A member that holds no record, second.
    records.insert(1, noise(1000, 3));
    let (gz, offsets) = gzip_file(&records);
    assert!(gz.len() > 3 << 20, "{}", gz.len());
    let (zst, zoffsets) = zstd_warc(&plain, &written, None, false);
    let cases: [(&str, &[u8], u64); 5] = [
        ("inside a gzip member", &gz, offsets[3] + 7),
        ("a gzip member that is no record", &gz, offsets[1]),
        ("inside a plain record", &plain_big, written[1].offset + 3),
        ("inside a zstd frame", &zst, zoffsets[1] + 5),
        ("past the end", &gz, gz.len() as u64 + 10),
    ];
    for (what, bytes, offset) in cases {
        let mut file = Counted {
            file: Cursor::new(bytes.to_vec()),
            read: 0,
        };
        let result = read_record_from(&mut file, offset, None, ReaderOptions::default());
        match result {
            Err(e @ WarcError::NoRecordAt { .. }) => {
                assert!(
                    e.to_string().contains(&format!("offset {offset}")),
                    "{what}: {e}"
                );
            }
            other => panic!("{what}: {other:?}"),
        }
        assert!(
            file.read <= (1 << 20) + 1024,
            "{what}: {} bytes read",
            file.read
        );
    }
}

/// A resource record of `len` zero bytes (a decompression bomb),
/// compressed as it is made into one gzip member or zstd frame (with a
/// checksum): nothing of it is held whole.
fn bomb(len: u64, format: &str) -> Vec<u8> {
    let head = format!(
        "WARC/1.1\r\nWARC-Type: resource\r\nWARC-Record-ID: <urn:uuid:bomb>\r\n\
         WARC-Target-URI: http://bomb.example/\r\nContent-Type: text/html\r\n\
         Content-Length: {len}\r\n\r\n"
    );
    let write = |w: &mut dyn std::io::Write| {
        let zeros = vec![0u8; 1 << 20];
        w.write_all(head.as_bytes()).unwrap();
        let mut left = len;
        while left > 0 {
            let n = left.min(zeros.len() as u64) as usize;
            w.write_all(&zeros[..n]).unwrap();
            left -= n as u64;
        }
        w.write_all(b"\r\n\r\n").unwrap();
    };
    match format {
        "zstd" => {
            let mut enc = zstd::Encoder::new(Vec::new(), 1).unwrap();
            enc.include_checksum(true).unwrap();
            write(&mut enc);
            enc.finish().unwrap()
        }
        _ => {
            let level = flate2::Compression::default();
            let mut enc = flate2::write::GzEncoder::new(Vec::new(), level);
            write(&mut enc);
            enc.finish().unwrap()
        }
    }
}

/// Members (frames) in `format`, one a part, each compressed unless it is
/// `bomb` (compressed already); and where each starts.
fn with_bombs(parts: &[&[u8]], bomb: &[u8], format: &str) -> (Vec<u8>, Vec<u64>) {
    let mut file = Vec::new();
    let mut offsets = Vec::new();
    for &part in parts {
        offsets.push(file.len() as u64);
        match (part == bomb, format) {
            (true, _) => file.extend_from_slice(part),
            (false, "zstd") => file.extend(zstd::bulk::compress(part, 3).unwrap()),
            (false, _) => file.extend(gzip_members(&[part.to_vec()])),
        }
    }
    (file, offsets)
}

/// The offsets of the members given up as over `max_member`, checking
/// that each is reported at its own offset.
fn bombs_reported(items: &[Item]) -> Vec<u64> {
    items
        .iter()
        .filter_map(|i| match i {
            Item::Bad {
                pos,
                error: WarcError::Container(ContainerError::MemberTooLarge { offset, .. }),
            } => {
                assert_eq!(pos.offset, *offset);
                Some(*offset)
            }
            _ => None,
        })
        .collect()
}

/// A member or frame decompressing past `max_member` is reported at its
/// offset and given up, and reading goes on with the next one: the first
/// member, two in a row, one between records. Bombs the gzip layer
/// inflates in one call (600 KiB) and ones it streams (8 MiB); zstd frames
/// passed over by their block headers, exactly (nothing after them is
/// taken for garbage).
#[test]
fn members_over_max_member_are_reported_and_the_records_after_them_read() {
    let (plain, written) = six();
    let records = split_records(&plain, &written);
    for format in ["gzip", "zstd"] {
        for (len, max_member) in [(600 << 10, 64 << 10), (8 << 20, 1 << 20)] {
            let what = format!("{format}, {len} bytes over {max_member}");
            let bomb = bomb(len, format);
            let r: Vec<&[u8]> = records.iter().map(Vec::as_slice).collect();
            let parts = [&bomb, r[0], r[1], r[2], &bomb, &bomb, r[3], r[4], r[5]];
            let (file, offsets) = with_bombs(&parts, &bomb, format);
            let options = ReaderOptions {
                max_member,
                ..ReaderOptions::default()
            };
            let (items, error) = read_with(file, options);
            assert!(error.is_none(), "{what}: {error:?}");
            assert_eq!(ids(&items), all_ids(&written), "{what}");
            assert_eq!(
                bombs_reported(&items),
                vec![offsets[0], offsets[4], offsets[5]],
                "{what}"
            );
            assert_eq!(errors(&items).len(), 3, "{what}: {:?}", errors(&items));
            assert!(errors(&items)[0].contains("(max_member)"), "{what}");
        }
    }
}

/// A frame over `max_member` holding a stored `.warc.zst` (incompressible
/// bytes go into zstd's raw blocks as they are) is passed over to its own
/// end by its block headers: the frame inside it is not taken for the
/// next one, as a search for the next frame magic would take it.
#[test]
fn a_zstd_frame_over_max_member_is_passed_over_to_its_own_end() {
    let (plain, written) = six();
    let records = split_records(&plain, &written);
    let planted = replace_first(&records[0], &written[0].id, "<urn:uuid:planted>");
    let planted = zstd::bulk::compress(&planted, 3).unwrap();
    let mut payload = noise(150_000, 3);
    payload.extend_from_slice(&planted);
    payload.extend(noise(150_000, 4));
    let big = format!(
        "WARC/1.1\r\nWARC-Type: resource\r\nWARC-Record-ID: <urn:uuid:big>\r\n\
         WARC-Target-URI: http://big.example/w.warc.zst\r\nContent-Type: application/zstd\r\n\
         Content-Length: {}\r\n\r\n",
        payload.len()
    );
    let big = zstd::bulk::compress(&[big.as_bytes(), &payload, b"\r\n\r\n"].concat(), 3).unwrap();
    assert!(
        big.windows(planted.len()).any(|w| w == planted),
        "the stored frame is in the big one as it is"
    );
    let r: Vec<&[u8]> = records.iter().map(Vec::as_slice).collect();
    let parts = [r[0], r[1], &big, r[2], r[3], r[4], r[5]];
    let (file, offsets) = with_bombs(&parts, &big, "zstd");
    let options = ReaderOptions {
        max_member: 64 << 10,
        ..ReaderOptions::default()
    };
    let (items, error) = read_with(file, options);
    assert!(error.is_none(), "{error:?}");
    assert_eq!(ids(&items), all_ids(&written));
    assert_eq!(bombs_reported(&items), vec![offsets[2]]);
    assert_eq!(errors(&items).len(), 1, "{:?}", errors(&items));
}

/// A whole-file gzip stream is one member: over `max_member` it is given
/// up where it went over, keeping the records read before, and the file
/// ends there (no other member follows) without a fatal error.
#[test]
fn a_whole_file_gzip_over_max_member_keeps_the_records_before() {
    let (plain, written) = six();
    let bomb_len: u64 = 8 << 20;
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    use std::io::Write;
    gz.write_all(&plain).unwrap();
    gz.write_all(
        format!(
            "WARC/1.1\r\nWARC-Type: resource\r\nWARC-Record-ID: <urn:uuid:bomb>\r\n\
             Content-Type: text/html\r\nContent-Length: {bomb_len}\r\n\r\n"
        )
        .as_bytes(),
    )
    .unwrap();
    for _ in 0..bomb_len >> 20 {
        gz.write_all(&[0u8; 1 << 20]).unwrap();
    }
    gz.write_all(b"\r\n\r\n").unwrap();
    gz.write_all(&plain).unwrap();
    let options = ReaderOptions {
        max_member: 1 << 20,
        ..ReaderOptions::default()
    };
    let (items, error) = read_with(gz.finish().unwrap(), options);
    assert!(error.is_none(), "{error:?}");
    assert_eq!(ids(&items), all_ids(&written));
    assert_eq!(bombs_reported(&items), vec![0]);
    assert_eq!(errors(&items).len(), 1, "{:?}", errors(&items));
}

/// `linesift warc --max-member`: the bomb is logged with the file and its
/// offset, the records after it are extracted, exit code 0; read by
/// `--offset`, the bomb is an error for that one read (exit code 1).
#[test]
fn a_member_over_max_member_in_the_cli_is_logged_and_skipped() {
    let (plain, written) = six();
    let records = split_records(&plain, &written);
    let bomb = bomb(4 << 20, "gzip");
    let r: Vec<&[u8]> = records.iter().map(Vec::as_slice).collect();
    let parts = [r[0], r[1], &bomb, r[2], r[3], r[4], r[5]];
    let (file, offsets) = with_bombs(&parts, &bomb, "gzip");
    let path = scratch("bomb.warc.gz");
    std::fs::write(&path, &file).unwrap();
    let out = scratch("bomb.jsonl");
    let (path, out) = (path.to_str().unwrap(), out.to_str().unwrap());
    let (code, _, stderr) = linesift(&["warc", path, "-o", out, "--max-member", "1M"]);
    assert_eq!(code, 0, "{stderr}");
    let want = format!(
        "{path}: gzip member at offset {} decompresses to more than the limit of 1048576 bytes \
         (max_member); reading goes on at the next member",
        offsets[2]
    );
    assert!(stderr.contains(&want), "{stderr}");
    let lines = std::fs::read_to_string(out).unwrap();
    assert_eq!(lines.lines().count(), 6, "{stderr}");
    let offset = offsets[2].to_string();
    let args = [
        "warc",
        path,
        "-o",
        out,
        "--max-member",
        "1M",
        "--offset",
        &offset,
    ];
    let (code, _, stderr) = linesift(&args);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("(max_member)"), "{stderr}");
}

/// `--offset` at a gzip member or zstd frame that the file's end cuts in
/// its first bytes (inside its magic, its header, or before its record's
/// `WARC/` is whole) fails in one line naming the file, the cut and the
/// record's offset, not as no record there.
#[test]
fn an_offset_into_a_member_cut_in_its_first_bytes_is_told_as_truncated() {
    let (plain, written) = six();
    let records = split_records(&plain, &written);
    let (gz, gz_offsets) = gzip_file(&records);
    let (zst, zst_offsets) = zstd_warc(&plain, &written, None, false);
    let out = scratch("cut-first-bytes.jsonl");
    for (kind, bytes, offsets) in [("gz", &gz, &gz_offsets), ("zst", &zst, &zst_offsets)] {
        let at = offsets[3];
        for keep in [1u64, 2, 3, 5, 12, 20] {
            let path = scratch(&format!("cut-first-{keep}.warc.{kind}"));
            std::fs::write(&path, &bytes[..(at + keep) as usize]).unwrap();
            let (code, _, stderr) = linesift(&[
                "warc",
                path.to_str().unwrap(),
                "-o",
                out.to_str().unwrap(),
                "--offset",
                &at.to_string(),
            ]);
            let label = format!("{kind} cut {keep} bytes in");
            assert_eq!(code, 1, "{label}: {stderr}");
            let said = format!(
                "{}: file is truncated at offset {}: ",
                path.display(),
                at + keep
            );
            let line = stderr.lines().find(|l| l.contains(&said));
            let line = line.unwrap_or_else(|| panic!("{label}: {stderr}"));
            assert!(line.contains(&format!("offset {at} ")), "{label}: {stderr}");
            assert!(!stderr.contains("no record starts"), "{label}: {stderr}");
        }
    }
}
