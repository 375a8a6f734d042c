//! `linesift warc` end to end: JSONL and WET output (plain, gzip, zstd)
//! read back by warcio and FastWARC with counts and IDs matching; order
//! kept across --jobs; random access; bad input and records over
//! --max-payload counted as errors, exit code 0; a
//! full output disk a clear error (exit code 2), not a hang; a closed
//! stderr no panic.

mod cli_support;
mod warc_support;

use cli_support::{linesift_command, linesift_reading_a_little};
use linesift::{Extractor, Hints, Options};
use serde_json::Value;
use std::path::{Path, PathBuf};
use warc_support::*;

/// Eight pages with a request and a 404 between them.
fn input(name: &str, gzip: bool) -> (std::path::PathBuf, Vec<Written>) {
    let mut spec: Vec<Value> = (0..8).map(html_response).collect();
    spec.insert(
        3,
        serde_json::json!({"type": "request", "uri": "http://site3.example/page"}),
    );
    spec.insert(
        5,
        response(
            "http://gone.example/",
            "404 Not Found",
            &[("Content-Type", "text/html")],
            page_html(2).as_bytes(),
        ),
    );
    make_warc(name, &Value::Array(spec), gzip)
}

/// Seconds since 1970 of a WARC-Date written `YYYY-MM-DDThh:mm:ssZ`.
fn utc_seconds(date: &str) -> u64 {
    let n = |r: std::ops::Range<usize>| date[r].parse::<i64>().unwrap();
    let (y, m, d) = (n(0..4), n(5..7), n(8..10));
    let y = if m <= 2 { y - 1 } else { y };
    let doy = (153 * (m + if m > 2 { -3 } else { 9 }) + 2) / 5 + d - 1;
    let days = y.div_euclid(400) * 146_097 + y.rem_euclid(400) * 365 + y.rem_euclid(400) / 4
        - y.rem_euclid(400) / 100
        + doy
        - 719_468;
    (days * 86_400 + n(11..13) * 3600 + n(14..16) * 60 + n(17..19)) as u64
}

fn page_ids(written: &[Written]) -> Vec<String> {
    written
        .iter()
        .enumerate()
        .filter(|(i, w)| w.kind == "response" && *i != 5)
        .map(|(_, w)| w.id.clone())
        .collect()
}

fn expected_payload(i: usize) -> String {
    let hints = Hints {
        url: Some(format!("http://site{i}.example/page")),
        charset: Some("utf-8".into()),
        ..Hints::default()
    };
    let doc = Extractor::new(Options::default())
        .extract(page_html(i).as_bytes(), &hints)
        .unwrap();
    match doc.headline {
        Some(h) => format!("{h}\n\n{}", doc.text),
        None => doc.text,
    }
}

/// `linesift warc INPUTS... -o OUT ARGS...`: the exit code and stderr.
fn warc_to(inputs: &[&Path], out: &Path, args: &[&str]) -> (i32, String) {
    let mut all = vec!["warc"];
    all.extend(inputs.iter().map(|p| p.to_str().unwrap()));
    all.extend(["-o", out.to_str().unwrap()]);
    all.extend(args);
    let (code, _, stderr) = linesift(&all);
    (code, stderr)
}

fn jsonl(path: &Path) -> Vec<Value> {
    let bytes = std::fs::read(path).unwrap();
    let bytes = if path.to_string_lossy().ends_with(".zst") {
        zstd::decode_all(&bytes[..]).unwrap()
    } else {
        bytes
    };
    String::from_utf8(bytes)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn jsonl_output_keeps_order_and_fields() {
    let (warc, written) = input("cli.warc.gz", true);
    let ids = page_ids(&written);
    let mut outputs = Vec::new();
    for (jobs, name) in [("1", "out1.jsonl"), ("2", "out2.jsonl.zst")] {
        let out = scratch(name);
        let (code, stderr) = warc_to(&[&warc], &out, &["--jobs", jobs]);
        assert_eq!(code, 0, "{stderr}");
        assert!(
            stderr.contains("10 records read, 8 HTML, 8 extracted"),
            "{stderr}"
        );
        assert!(
            stderr.contains("status:4xx 1") && stderr.contains("type:request 1"),
            "{stderr}"
        );
        let lines = jsonl(&out);
        let got: Vec<&str> = lines
            .iter()
            .map(|l| l["warc_record_id"].as_str().unwrap())
            .collect();
        assert_eq!(got, ids);
        for (i, line) in lines.iter().enumerate() {
            let w = written.iter().find(|w| w.id == ids[i]).unwrap();
            assert_eq!(line["warc_offset"].as_u64(), Some(w.offset));
            assert_eq!(
                line["warc_target_uri"].as_str(),
                Some(format!("http://site{i}.example/page").as_str())
            );
            assert!(line["warc_date"].as_str().is_some_and(|d| d.ends_with('Z')));
            assert!(!line["text"].as_str().unwrap().is_empty());
        }
        outputs.push(lines.iter().map(|l| l["text"].clone()).collect::<Vec<_>>());
    }
    assert_eq!(outputs[0], outputs[1]);
}

#[test]
fn wet_output_is_read_by_warcio_and_fastwarc() {
    let (warc, written) = input("wet-in.warc", false);
    let ids = page_ids(&written);
    for name in ["out.wet", "out.warc.wet.gz", "out.wet.zst"] {
        let out = scratch(name);
        let (code, stderr) = warc_to(&[&warc], &out, &["--format", "wet", "-j", "2"]);
        assert_eq!(code, 0, "{stderr}");
        let libraries: &[&str] = if name.ends_with(".zst") {
            &["fastwarc"]
        } else {
            &["warcio", "fastwarc"]
        };
        for library in libraries {
            let records = read_back(&out, library);
            assert_eq!(records.len(), ids.len() + 1, "{library} {name}");
            let info = &records[0];
            assert_eq!(info["type"], "warcinfo", "{library} {name}");
            let base = |p: &Path| p.file_name().unwrap().to_string_lossy().into_owned();
            assert_eq!(info["filename"].as_str(), Some(base(&out).as_str()));
            assert_eq!(info["content_type"], "application/warc-fields");
            assert_eq!(
                info["date"], records[1]["date"],
                "dated by the first record"
            );
            let fields = info["payload"].as_str().unwrap();
            let described = format!(
                "description: Wet file: plain text extracted from {}\r\n",
                base(&warc)
            );
            assert!(fields.starts_with("Software-Info: linesift/"), "{fields:?}");
            let extracted = httpdate::parse_http_date(
                fields
                    .split("\r\n")
                    .find_map(|f| f.strip_prefix("Extracted-Date: "))
                    .expect("an Extracted-Date field"),
            )
            .expect("an HTTP date");
            let seconds = extracted
                .duration_since(std::time::UNIX_EPOCH)
                .unwrap()
                .as_secs();
            let dated = utc_seconds(records[1]["date"].as_str().unwrap());
            assert_eq!(seconds, dated, "Extracted-Date is the WARC-Date");
            assert!(fields.contains(&described), "{described:?} in {fields:?}");
            let mut own_ids = std::collections::HashSet::new();
            for (i, r) in records[1..].iter().enumerate() {
                assert_eq!(r["type"], "conversion");
                assert_eq!(r["digest_ok"], true, "{library} {name}: {}", r["digest"]);
                assert_eq!(r["language"], "eng", "{library} {name}");
                assert_eq!(
                    r["refers_to"].as_str(),
                    Some(ids[i].as_str()),
                    "{library} {name}"
                );
                assert_eq!(
                    r["target"].as_str(),
                    Some(format!("http://site{i}.example/page").as_str())
                );
                assert_eq!(r["content_type"], "text/plain");
                assert_eq!(
                    r["payload"].as_str(),
                    Some(expected_payload(i).as_str()),
                    "{library} {name}"
                );
                assert!(own_ids.insert(r["id"].as_str().unwrap().to_string()));
            }
        }
    }
}

#[test]
fn offset_and_length_read_one_record() {
    let (warc, written) = input("ra-cli.warc.gz", true);
    let w = &written[4];
    let out = scratch("ra.jsonl");
    let (code, stderr) = warc_to(
        &[&warc],
        &out,
        &[
            "--offset",
            &w.offset.to_string(),
            "--length",
            &w.length.to_string(),
        ],
    );
    assert_eq!(code, 0, "{stderr}");
    let lines = jsonl(&out);
    assert_eq!(lines.len(), 1);
    assert_eq!(lines[0]["warc_record_id"].as_str(), Some(w.id.as_str()));
}

/// The JSONL lines of a run, without what names the file and the place
/// in it.
fn documents(path: &Path) -> Vec<Value> {
    let mut lines = jsonl(path);
    for line in &mut lines {
        let fields = line.as_object_mut().unwrap();
        fields.remove("warc_file");
        fields.remove("warc_offset");
    }
    lines
}

/// An LZ4 WARC written by FastWARC (one frame a record) gives the
/// documents the same records give gzipped; one record is read by the
/// offset and length of its frame; a file cut inside a frame keeps the
/// records before it and says where the cut frame starts.
#[test]
fn an_lz4_warc_written_by_fastwarc_reads_as_its_gzip_twin() {
    let (plain, written) = input("lz4-cli.warc", false);
    let (lz4, records) = fastwarc_lz4(&plain, "lz4-cli.warc.lz4");
    let gz = scratch("lz4-cli-twin.warc.gz");
    let plain_bytes = std::fs::read(&plain).unwrap();
    std::fs::write(&gz, gzip_members(&split_records(&plain_bytes, &written))).unwrap();
    let (from_lz4, from_gz) = (scratch("lz4.jsonl"), scratch("lz4-twin.jsonl"));
    let (code, stderr) = warc_to(&[&lz4], &from_lz4, &[]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("10 records read, 8 HTML, 8 extracted, 2 skipped, 0 errors"),
        "{stderr}"
    );
    assert_eq!(warc_to(&[&gz], &from_gz, &[]).0, 0);
    assert_eq!(documents(&from_lz4), documents(&from_gz));
    assert_eq!(documents(&from_lz4).len(), 8);
    let offsets: Vec<u64> = jsonl(&from_lz4)
        .iter()
        .map(|l| l["warc_offset"].as_u64().unwrap())
        .collect();
    let page_offsets: Vec<u64> = records
        .iter()
        .filter(|(id, _)| page_ids(&written).contains(id))
        .map(|(_, offset)| *offset)
        .collect();
    assert_eq!(offsets, page_offsets);

    let bytes = std::fs::read(&lz4).unwrap();
    let (start, end) = (records[4].1, records[5].1);
    let one = scratch("lz4-one.jsonl");
    let range = [
        "--offset",
        &start.to_string(),
        "--length",
        &(end - start).to_string(),
    ];
    let (code, stderr) = warc_to(&[&lz4], &one, &range);
    assert_eq!(code, 0, "{stderr}");
    let lines = jsonl(&one);
    assert_eq!(lines.len(), 1);
    assert_eq!(
        lines[0]["warc_record_id"].as_str(),
        Some(records[4].0.as_str())
    );
    assert_eq!(lines[0]["warc_offset"].as_u64(), Some(start));

    let cut_at = records[7].1;
    let cut = scratch("lz4-cut.warc.lz4");
    std::fs::write(&cut, &bytes[..(cut_at + 40) as usize]).unwrap();
    let out = scratch("lz4-cut.jsonl");
    let (code, stderr) = warc_to(&[&cut], &out, &[]);
    assert_eq!(code, 0, "{stderr}");
    let said = format!("lz4 frame starting at offset {cut_at} is incomplete");
    assert!(
        stderr.contains("file is truncated") && stderr.contains(&said),
        "{stderr}"
    );
    assert!(stderr.contains("records before it are kept"), "{stderr}");
    assert_eq!(jsonl(&out).len(), 5, "{stderr}");
}

/// A file in a compression or archive format that is not read is named
/// in one line, and nothing else is said of its records.
#[test]
fn an_unread_format_is_named_in_one_line() {
    for (name, bytes, format) in [
        (
            "x.warc.bz2",
            &b"BZh91AY&SY\x12\x34\x56\x78 compressed data"[..],
            "bzip2",
        ),
        ("x.warc.xz", b"\xfd7zXZ\x00\x00\x04 compressed data", "xz"),
        ("x.warc.7z", b"7z\xbc\xaf\x27\x1c\x00\x04 archive", "7z"),
        ("x.warc.zip", b"PK\x03\x04\x14\x00 archive", "zip"),
        (
            "x.warc.lz4",
            b"\x02\x21\x4c\x18\x10\x00\x00\x00 legacy",
            "legacy LZ4",
        ),
    ] {
        let path = scratch(name);
        std::fs::write(&path, bytes).unwrap();
        let (code, stderr) = warc_to(&[&path], &scratch("unread.jsonl"), &[]);
        assert_eq!(code, 1, "{stderr}");
        let path = path.to_str().unwrap();
        let errors: Vec<&str> = stderr.lines().filter(|l| l.contains(path)).collect();
        assert_eq!(errors.len(), 1, "{stderr}");
        assert!(errors[0].contains(format), "{stderr}");
        assert!(stderr.contains(", 1 errors"), "{stderr}");
    }
}

#[test]
fn truncated_and_bad_input_are_counted_not_fatal() {
    let (warc, written) = input("bad-in.warc.gz", true);
    let bytes = std::fs::read(&warc).unwrap();
    let truncated = scratch("truncated.warc.gz");
    let cut = written[7].offset + written[7].length / 2;
    std::fs::write(&truncated, &bytes[..cut as usize]).unwrap();
    let garbage = scratch("garbage.warc.gz");
    let mut g = bytes[..written[2].offset as usize].to_vec();
    g.extend_from_slice(b"JUNK JUNK");
    g.extend_from_slice(&bytes[written[2].offset as usize..]);
    std::fs::write(&garbage, g).unwrap();
    let out = scratch("bad.jsonl");
    let (code, stderr) = warc_to(&[&truncated, &garbage], &out, &[]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains(&format!("{}: file is truncated", truncated.display())),
        "{stderr}"
    );
    assert!(stderr.contains("records before it are kept"), "{stderr}");
    assert!(
        stderr.contains(&format!(
            "{}: at offset {}: 9 bytes of garbage",
            garbage.display(),
            written[2].offset
        )),
        "{stderr}"
    );
    assert!(stderr.contains("garbage"), "{stderr}");
    // Five pages before the cut (record 7 is the seventh page... minus the 404 and request), then all eight.
    let lines = jsonl(&out);
    assert_eq!(lines.len(), 5 + 8, "{stderr}");
    // A missing input is a failed input: exit code 1, the others still done.
    let (code, stderr) = warc_to(&[Path::new("/nonexistent.warc"), &garbage], &out, &[]);
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(jsonl(&out).len(), 8);
}

/// A record over `--max-payload` is a page lost to the limit, by the one
/// rule `linesift run` and the worker follow too: an error (not a skip),
/// logged with its offset and the limit, in a whole file and read by its
/// offset alike; the records around it are extracted, and the run exits
/// 0.
#[test]
fn a_record_over_max_payload_is_an_error_logged_with_its_offset() {
    let large = response(
        "http://large.example/page",
        "200 OK",
        &[("Content-Type", "text/html; charset=utf-8")],
        long_page(1, 40).as_bytes(),
    );
    let spec = Value::Array(vec![html_response(0), large, html_response(2)]);
    let (warc, written) = make_warc("over-payload.warc.gz", &spec, true);
    let out = scratch("over-payload.jsonl");
    let (code, stderr) = warc_to(&[&warc], &out, &["--max-payload", "4K"]);
    assert_eq!(code, 0, "{stderr}");
    let logged = format!(
        "{}: record at offset {}: payload larger than the limit of 4096 bytes (max_payload)",
        warc.display(),
        written[1].offset
    );
    assert!(stderr.contains(&logged), "{stderr}");
    assert!(
        stderr.contains("3 records read, 2 HTML, 2 extracted, 0 skipped, 1 errors"),
        "{stderr}"
    );
    assert!(!stderr.contains("too-large"), "{stderr}");
    let ids: Vec<String> = jsonl(&out)
        .iter()
        .map(|l| l["warc_record_id"].as_str().unwrap_or_default().to_string())
        .collect();
    assert_eq!(ids, [written[0].id.clone(), written[2].id.clone()]);
    // The same record read by its offset, as a CDX line points at it.
    let (at, length) = (written[1].offset.to_string(), written[1].length.to_string());
    let args = ["--max-payload", "4K", "--offset", &at, "--length", &length];
    let (code, stderr) = warc_to(&[&warc], &out, &args);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains(&logged), "{stderr}");
    assert!(
        stderr.contains("0 extracted, 0 skipped, 1 errors"),
        "{stderr}"
    );
}

/// A page with `paragraphs` paragraphs of text (about 250 bytes each).
fn long_page(i: usize, paragraphs: usize) -> String {
    let body: String = (0..paragraphs)
        .map(|n| {
            format!(
                "<p>Paragraph {n} of report {i}: the harbour committee reviewed the tide tables, \
                 the ferry timetable and the repairs to the eastern pier, and agreed to publish \
                 the figures for every month of the coming year.</p>"
            )
        })
        .collect();
    format!(
        "<!DOCTYPE html><html><head><title>Report {i}</title></head><body>\
         <article><h1>Harbour report {i}</h1>{body}</article></body></html>"
    )
}

#[test]
fn a_full_disk_is_a_clear_error_not_a_hang() {
    // Small output: the error comes when the buffered output is flushed.
    let (small, _) = input("full-small.warc.gz", true);
    // Output well past the writer's buffer: the error comes mid-run, with
    // records still being read and extracted.
    let spec: Vec<Value> = (0..12)
        .map(|i| {
            let uri = format!("http://report{i}.example/");
            let page = long_page(i, 1500);
            response(
                &uri,
                "200 OK",
                &[("Content-Type", "text/html")],
                page.as_bytes(),
            )
        })
        .collect();
    let (large, _) = make_warc("full-large.warc.gz", &Value::Array(spec), true);
    for warc in [&small, &large] {
        for format in ["jsonl", "wet"] {
            let started = std::time::Instant::now();
            let (code, stderr) = warc_to(
                &[warc],
                Path::new("/dev/full"),
                &["--format", format, "--jobs", "2"],
            );
            assert_eq!(code, 2, "{format}: {stderr}");
            assert!(stderr.contains("/dev/full"), "{stderr}");
            assert!(stderr.contains("No space left on device"), "{stderr}");
            assert!(!stderr.contains("panicked"), "{stderr}");
            assert!(started.elapsed() < std::time::Duration::from_secs(60));
        }
    }
    // Standard output on a full device: the same, naming stdout.
    let out = linesift_command(&["warc", large.to_str().unwrap(), "-o", "-"])
        .stdout(std::fs::File::create("/dev/full").unwrap())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("writing output to stdout")
            || stderr.contains("finishing output to stdout"),
        "{stderr}"
    );
    assert!(stderr.contains("No space left on device"), "{stderr}");
}

/// `linesift warc x.warc.gz -o - | head`: the closed pipe ends the run
/// quietly, with the status a SIGPIPE death gives (141), not as a fatal
/// error (2) with "Broken pipe" on stderr.
#[test]
fn a_closed_output_pipe_ends_quietly() {
    // Output far past the pipe's and the writer's buffers.
    let spec: Vec<Value> = (0..12)
        .map(|i| {
            let page = long_page(i, 600);
            response(
                &format!("http://report{i}.example/"),
                "200 OK",
                &[("Content-Type", "text/html")],
                page.as_bytes(),
            )
        })
        .collect();
    let (warc, _) = make_warc("pipe.warc.gz", &Value::Array(spec), true);
    for format in ["jsonl", "wet"] {
        let (code, stderr) = linesift_reading_a_little(
            &[
                "warc",
                warc.to_str().unwrap(),
                "-o",
                "-",
                "--format",
                format,
            ],
            100,
        );
        assert!(!stderr.contains("Broken pipe"), "{format}: {stderr}");
        assert_eq!(code, Some(141), "{format}: {stderr}");
    }
}

/// A fatal output error stops the reader too: the inputs after the failing
/// point are not read. The second input is a FIFO nobody writes to, so
/// opening it would block for ever; the run must end with exit code 2
/// without touching it.
#[test]
fn a_fatal_output_error_stops_reading_the_other_inputs() {
    use std::time::{Duration, Instant};
    // A plain WARC of 3,200 pages: its JSONL is far past the writer's
    // 1 MiB buffer, so /dev/full fails while this file is still being read.
    let (one, _) = input("stop-one.warc", false);
    let bytes = std::fs::read(&one).unwrap();
    let big = scratch("stop-big.warc");
    std::fs::write(&big, bytes.repeat(400)).unwrap();
    let fifo = scratch("stop-fifo.warc");
    cli_support::make_fifo(&fifo);
    let mut child = linesift_command(&[
        "warc",
        big.to_str().unwrap(),
        fifo.to_str().unwrap(),
        "-o",
        "/dev/full",
        "--jobs",
        "1",
    ])
    .stdout(std::process::Stdio::null())
    .stderr(std::process::Stdio::piped())
    .spawn()
    .unwrap();
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            let _ = child.wait();
            let _ = std::fs::remove_file(&fifo);
            panic!("linesift went on to open the next input after the output failed");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    let _ = std::fs::remove_file(&fifo);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("No space left on device"), "{stderr}");
}

/// The format follows the output name's last extension before any `.gz`
/// or `.zst`: `.warc` and `.wet` mean WET, anything else JSON lines, even
/// when `.warc` appears earlier in the name (as in Common Crawl's
/// `CC-MAIN-...-00000.warc.jsonl.gz`).
#[test]
fn the_output_format_follows_the_last_extension() {
    let (warc, written) = input("fmt-in.warc.gz", true);
    let ids = page_ids(&written);
    for name in ["x.warc.jsonl", "x.warc.jsonl.zst", "x.wet.json"] {
        let out = scratch(name);
        let (code, stderr) = warc_to(&[&warc], &out, &[]);
        assert_eq!(code, 0, "{stderr}");
        let lines = jsonl(&out);
        assert_eq!(lines.len(), ids.len(), "{name}");
        assert_eq!(lines[0]["warc_record_id"].as_str(), Some(ids[0].as_str()));
    }
    // Extensions in any case.
    for name in [
        "y.warc",
        "y.warc.gz",
        "y.wet.zst",
        "y.jsonl.wet",
        "Y.WET.GZ",
    ] {
        let out = scratch(name);
        let (code, stderr) = warc_to(&[&warc], &out, &[]);
        assert_eq!(code, 0, "{stderr}");
        let records = read_back(&out, "fastwarc");
        assert_eq!(records.len(), ids.len() + 1, "{name}");
        assert_eq!(records[0]["type"], "warcinfo", "{name}");
        assert_eq!(records[1]["type"], "conversion", "{name}");
    }
}

/// A WARC file whose name is not UTF-8 is read like any other; the output
/// names it with U+FFFD for the byte that is not UTF-8.
#[cfg(unix)]
#[test]
fn warc_file_names_that_are_not_utf8_are_read() {
    use std::ffi::OsStr;
    use std::os::unix::ffi::OsStrExt;
    let (warc, written) = input("latin1-src.warc.gz", true);
    let mut name = warc.file_name().unwrap().as_bytes().to_vec();
    name.extend_from_slice(b"-caf\xe9.warc.gz");
    let bad = warc.with_file_name(OsStr::from_bytes(&name));
    std::fs::copy(&warc, &bad).unwrap();
    let out = scratch("latin1.jsonl");
    let run = cli_support::linesift(&[
        "warc".as_ref(),
        bad.as_os_str(),
        warc.as_os_str(),
        "-o".as_ref(),
        out.as_os_str(),
    ]);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(0), "{stderr}");
    let lines = jsonl(&out);
    let pages = page_ids(&written).len();
    assert_eq!(lines.len(), 2 * pages, "{stderr}");
    let file = lines[0]["warc_file"].as_str().unwrap();
    assert!(file.ends_with("-caf\u{fffd}.warc.gz"), "{file}");
    assert_eq!(lines[pages]["warc_file"].as_str(), warc.to_str());
}

/// A usage error found in the arguments (`--offset` with two inputs) is
/// reported before the output file is created: an existing file is left
/// as it was.
#[test]
fn argument_errors_leave_the_output_file_alone() {
    let (warc, _) = input("args-in.warc.gz", true);
    let out = scratch("keep.jsonl");
    std::fs::write(&out, "earlier results\n").unwrap();
    let (code, stderr) = warc_to(&[&warc, &warc], &out, &["--offset", "0"]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("--offset"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "earlier results\n");
}

/// An output that is one of the inputs is refused before anything is
/// written (a rerun of `warc dir/*.warc.gz -o dir/out.warc.gz` globs the
/// last output in, which `File::create` emptied before it was read): the
/// input stays whole.
#[test]
fn an_output_that_is_an_input_is_refused() {
    let (warc, _) = input("self-in.warc.gz", true);
    let copy = scratch("self-out.warc.gz");
    std::fs::copy(&warc, &copy).unwrap();
    let before = std::fs::read(&copy).unwrap();
    let (code, stderr) = warc_to(&[&warc, &copy], &copy, &[]);
    assert_eq!(code, 2, "{stderr}");
    assert!(stderr.contains("is the input"), "{stderr}");
    assert_eq!(std::fs::read(&copy).unwrap(), before);
}

/// The output's name holds the old file or the whole new one, never a
/// part: a run stopped midway (killed while it waits for its input, a
/// FIFO nobody writes) leaves the old output as it was, and a run to its
/// end replaces it.
#[cfg(unix)]
#[test]
fn the_output_is_replaced_only_when_complete() {
    let out = scratch("atomic.jsonl");
    std::fs::write(&out, "earlier results\n").unwrap();
    let fifo = scratch("atomic-in.warc");
    cli_support::make_fifo(&fifo);
    let mut child = linesift_command(&[
        "warc".as_ref(),
        fifo.as_os_str(),
        "-o".as_ref(),
        out.as_os_str(),
    ])
    .stderr(std::process::Stdio::null())
    .spawn()
    .unwrap();
    let name = out.file_name().unwrap().to_string_lossy().into_owned();
    let temp = out.with_file_name(format!(".{name}.tmp-{}", child.id()));
    wait_until_made(&temp);
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "earlier results\n");
    let _ = std::fs::remove_file(&temp);

    let (warc, written) = input("atomic-src.warc.gz", true);
    let (code, stderr) = warc_to(&[&warc], &out, &[]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(jsonl(&out).len(), page_ids(&written).len());
    let leftovers: Vec<_> = std::fs::read_dir(out.parent().unwrap())
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with(&format!(".{name}.tmp-"))
        })
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

/// A `linesift warc - -o OUT` run started by `sh -c`, after `setup`
/// (core dumps off, signals ignored), reading stdin held open so that it
/// is surely mid-run: the child, its stdin (some of a WARC written) and
/// its temporary output, once it exists.
#[cfg(unix)]
fn a_run_in_progress(
    out: &Path,
    setup: &str,
) -> (
    std::process::Child,
    std::process::ChildStdin,
    std::path::PathBuf,
) {
    use std::io::Write;
    let (warc, _) = input("signal-in.warc", false);
    let some = std::fs::read(&warc).unwrap();
    let mut child = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("{setup}; exec \"$0\" \"$@\""))
        .arg(env!("CARGO_BIN_EXE_linesift"))
        .args(["warc", "-", "-o"])
        .arg(out)
        .stdin(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(&some).unwrap();
    stdin.flush().unwrap();
    // `exec` keeps the shell's pid, which names the temporary file.
    let name = out.file_name().unwrap().to_string_lossy().into_owned();
    let temp = out.with_file_name(format!(".{name}.tmp-{}", child.id()));
    wait_until_made(&temp);
    (child, stdin, temp)
}

#[cfg(unix)]
fn send(child: &std::process::Child, signal: libc::c_int) {
    let pid = libc::pid_t::try_from(child.id()).unwrap();
    // SAFETY: a plain kill(2) of our own child, which has not been
    // waited for, so its pid is still its own.
    assert_eq!(unsafe { libc::kill(pid, signal) }, 0);
}

/// SIGINT (Ctrl-C), SIGTERM, SIGHUP (the terminal closed) or SIGQUIT in
/// the middle of a run removes the hidden temporary output and then kills
/// the process by that same signal, as if it had not been caught (a shell
/// loop over files stops on Ctrl-C only when its child dies by SIGINT,
/// not when it exits 130): the old OUT stays as it was and nothing is
/// left beside it.
#[cfg(unix)]
#[test]
fn a_signal_removes_the_temporary_output_and_kills_the_run() {
    use std::os::unix::process::ExitStatusExt;
    for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP, libc::SIGQUIT] {
        let out = scratch(&format!("signal-{signal}.jsonl"));
        std::fs::write(&out, "earlier results\n").unwrap();
        // No core file from SIGQUIT.
        let (child, stdin, temp) = a_run_in_progress(&out, "ulimit -c 0");
        send(&child, signal);
        let done = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&done.stderr);
        assert_eq!(done.status.signal(), Some(signal), "{stderr}");
        assert!(stderr.contains("the output was not written"), "{stderr}");
        assert!(!temp.exists(), "{} left behind", temp.display());
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "earlier results\n");
        drop(stdin);
    }
}

/// A signal the run was started with ignored (`nohup` ignores SIGHUP, a
/// non-interactive shell's background job SIGINT) stays ignored: the run
/// goes on and writes OUT. SIGTERM, not ignored, still stops it cleanly.
#[cfg(unix)]
#[test]
fn a_signal_ignored_at_start_stays_ignored() {
    use std::os::unix::process::ExitStatusExt;
    let out = scratch("signal-ignored.jsonl");
    let (mut child, stdin, temp) = a_run_in_progress(&out, "trap '' INT HUP");
    send(&child, libc::SIGINT);
    send(&child, libc::SIGHUP);
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert!(
        child.try_wait().unwrap().is_none(),
        "stopped by an ignored signal"
    );
    assert!(temp.exists());
    drop(stdin);
    let done = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&done.stderr);
    assert_eq!(done.status.code(), Some(0), "{stderr}");
    assert!(!temp.exists(), "{} left behind", temp.display());
    assert!(std::fs::read_to_string(&out).unwrap().lines().count() > 0);
    // SIGTERM is not ignored there.
    let out = scratch("signal-ignored-term.jsonl");
    let (child, stdin, temp) = a_run_in_progress(&out, "trap '' INT HUP");
    send(&child, libc::SIGTERM);
    let done = child.wait_with_output().unwrap();
    assert_eq!(done.status.signal(), Some(libc::SIGTERM));
    assert!(!temp.exists(), "{} left behind", temp.display());
    assert!(!out.exists());
    drop(stdin);
}

/// JSONL lines carry `warc_truncated` (the `WARC-Truncated` reason, or
/// `segment` for a first segment) only for pages that are not whole; the
/// others have no such key, as before. Continuations are counted as
/// skipped.
#[test]
fn jsonl_says_which_pages_are_not_whole() {
    let records = not_whole_records();
    let bytes: Vec<Vec<u8>> = records.iter().map(|r| r.1.clone()).collect();
    let warc = scratch("not-whole.warc");
    std::fs::write(&warc, bytes.concat()).unwrap();
    let out = scratch("not-whole.jsonl");
    let (code, stderr) = warc_to(&[&warc], &out, &[]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("8 records read, 5 HTML, 5 extracted, 3 skipped, 0 errors"),
        "{stderr}"
    );
    assert!(
        stderr.contains("continuation 2, type:continuation 1"),
        "{stderr}"
    );
    let lines = jsonl(&out);
    let pages: Vec<_> = records
        .iter()
        .filter_map(|(id, _, want)| match want {
            Whole::Page(truncated) => Some((format!("<urn:uuid:{id}>"), *truncated)),
            Whole::Skipped(_) => None,
        })
        .collect();
    assert_eq!(lines.len(), pages.len());
    for (line, (id, truncated)) in lines.iter().zip(&pages) {
        assert_eq!(line["warc_record_id"].as_str(), Some(id.as_str()));
        match truncated {
            Some(reason) => assert_eq!(line["warc_truncated"].as_str(), Some(*reason), "{id}"),
            None => assert!(line.get("warc_truncated").is_none(), "{id}: {line}"),
        }
    }
}

/// Records without a WARC-Date give WET output that is the same, byte for
/// byte, on every run: a response's conversion is dated by its HTTP
/// `Date`, a resource's (which has none) by the epoch; warcio reads it.
#[test]
fn wet_output_of_dateless_records_is_the_same_every_run() {
    let undated =
        |record: Vec<u8>| replace_first(&record, "WARC-Date: 2024-01-01T00:00:00Z\r\n", "");
    let http = [
        "HTTP/1.1 200 OK\r\nDate: Tue, 15 Nov 1994 08:12:31 GMT\r\n",
        "Content-Type: text/html; charset=utf-8\r\n\r\n",
    ]
    .concat();
    let block = [http.as_bytes(), page_html(0).as_bytes()].concat();
    let records = [
        undated(raw_record("response", "no-date-http", &[], &block)),
        undated(raw_record(
            "resource",
            "no-date-resource",
            &[("Content-Type", "text/html")],
            page_html(1).as_bytes(),
        )),
    ];
    assert!(!String::from_utf8_lossy(&records.concat()).contains("WARC-Date"));
    let warc = scratch("no-date.warc");
    std::fs::write(&warc, records.concat()).unwrap();
    let out = scratch("no-date.wet.gz");
    let runs: Vec<Vec<u8>> = (0..2)
        .map(|_| {
            let (code, stderr) = warc_to(&[&warc], &out, &["--format", "wet"]);
            assert_eq!(code, 0, "{stderr}");
            assert!(stderr.contains("2 extracted"), "{stderr}");
            std::fs::read(&out).unwrap()
        })
        .collect();
    assert_eq!(runs[0], runs[1]);
    let records = read_back(&out, "warcio");
    let dates: Vec<_> = records.iter().map(|r| r["date"].as_str()).collect();
    // The warcinfo record is dated by the first conversion record.
    assert_eq!(
        dates,
        [
            Some("1994-11-15T08:12:31Z"),
            Some("1994-11-15T08:12:31Z"),
            Some("1970-01-01T00:00:00Z")
        ]
    );
}

/// The HTTP `Date` of [`dated_pages`], as a WARC-Date.
const HTTP_DATE: &str = "1994-11-15T08:12:31Z";

/// Pages whose WARC-Dates (written by warcio as given) carry a numeric
/// offset, a leap second, a fraction of seconds, or name no instant, with
/// an HTTP `Date` of [`HTTP_DATE`]; and each WARC-Date in UTC (the offset
/// applied, the leap second taken as `:59`), `None` for those that name
/// no instant.
fn dated_pages() -> (PathBuf, Vec<Option<&'static str>>) {
    let dates = [
        ("2024-05-01T12:00:00+02:00", Some("2024-05-01T10:00:00Z")),
        ("2024-05-01T12:00:00-05:00", Some("2024-05-01T17:00:00Z")),
        ("2024-05-01T00:30:00+0200", Some("2024-04-30T22:30:00Z")),
        ("2016-12-31T23:59:60Z", Some("2016-12-31T23:59:59Z")),
        ("2016-12-31T18:59:60-05:00", Some("2016-12-31T23:59:59Z")),
        ("2024-05-06T07:08:09.123456Z", Some("2024-05-06T07:08:09Z")),
        ("2024-05-06T07:08:09Z", Some("2024-05-06T07:08:09Z")),
        ("2024-05-06T07:08:60Z", None),
        ("2024-05-06T07:08:09+02", None),
        ("2024-05", None),
    ];
    let headers = [
        ("Content-Type", "text/html; charset=utf-8"),
        ("Date", "Tue, 15 Nov 1994 08:12:31 GMT"),
    ];
    let spec: Vec<Value> = dates
        .iter()
        .enumerate()
        .map(|(i, (date, _))| {
            let uri = format!("http://site{i}.example/page");
            let mut record = response(&uri, "200 OK", &headers, page_html(i).as_bytes());
            record["date"] = Value::from(*date);
            record
        })
        .collect();
    let (warc, _) = make_warc("dated.warc.gz", &Value::Array(spec), true);
    (warc, dates.iter().map(|(_, utc)| *utc).collect())
}

/// WET records are dated in UTC: a source WARC-Date with a numeric
/// offset, as some crawlers write one, or a leap second is written as
/// WARC 1.0 has it, and warcio reads it; one that names no instant gives
/// way to the HTTP `Date`.
#[test]
fn wet_records_are_dated_in_utc_whatever_the_offset() {
    let (warc, utc) = dated_pages();
    let out = scratch("dated.wet.gz");
    let (code, stderr) = warc_to(&[&warc], &out, &["--format", "wet"]);
    assert_eq!(code, 0, "{stderr}");
    let records = read_back(&out, "warcio");
    assert_eq!(records[0]["type"], "warcinfo");
    let dates: Vec<_> = records[1..].iter().map(|r| r["date"].as_str()).collect();
    let want: Vec<_> = utc.iter().map(|d| Some(d.unwrap_or(HTTP_DATE))).collect();
    assert_eq!(dates, want);
}

/// JSONL lines carry each record's WARC-Date in one form, UTC to the
/// second with `Z`, whatever the form it was written in, so that they sort
/// and compare as text; `null` for one that names no instant (no HTTP
/// `Date` in its place). The first such date of the file is named on
/// stderr, with its record's offset, and the summary counts them all.
#[test]
fn jsonl_warc_dates_are_utc_whatever_the_offset() {
    let (warc, utc) = dated_pages();
    let out = scratch("dated.jsonl");
    let (code, stderr) = warc_to(&[&warc], &out, &[]);
    assert_eq!(code, 0, "{stderr}");
    let lines = jsonl(&out);
    let dates: Vec<_> = lines.iter().map(|l| l.get("warc_date")).collect();
    let want: Vec<_> = utc.iter().map(|d| Some(Value::from(*d))).collect();
    assert_eq!(dates, want.iter().map(Option::as_ref).collect::<Vec<_>>());
    let unread = utc.iter().position(Option::is_none).unwrap();
    let offset = lines[unread]["warc_offset"].as_u64().unwrap();
    let named: Vec<_> = stderr
        .lines()
        .filter(|l| l.contains("WARC-Date \""))
        .collect();
    assert_eq!(named.len(), 1, "{stderr}");
    assert!(
        named[0].contains(&format!(
            "record at offset {offset}: WARC-Date \"2024-05-06T07:08:60Z\""
        )),
        "{stderr}"
    );
    let count = utc.iter().filter(|d| d.is_none()).count();
    assert!(
        stderr.contains(&format!(", {count} WARC-Dates not read")),
        "{stderr}"
    );
}

/// Waits (30 s at most) until `path` exists: a run's temporary output.
fn wait_until_made(path: &Path) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while !path.exists() {
        assert!(
            std::time::Instant::now() < deadline,
            "no {}",
            path.display()
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// `linesift warc ... 2>&1 | head -c 1`: with stderr's reader gone, the
/// summary and the messages cannot be written, but the run ends with its
/// own exit code (the output written), not a panic's 101.
#[test]
fn a_closed_stderr_leaves_the_exit_code_alone() {
    use std::ffi::OsStr;
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("deploy/sample/sample.warc.gz");
    let out = scratch("closed-stderr.jsonl");
    let (code, stderr) = warc_to(&[&sample], &out, &[]);
    assert_eq!(code, 0, "{stderr}");
    let expected = jsonl(&out).len();
    assert!(expected > 0);
    std::fs::remove_file(&out).unwrap();
    let args = [
        OsStr::new("warc"),
        sample.as_os_str(),
        OsStr::new("-o"),
        out.as_os_str(),
    ];
    assert_eq!(cli_support::linesift_with_closed_stderr(&args), Some(0));
    assert_eq!(jsonl(&out).len(), expected);
    // A missing input is still exit code 1, its message unwritable.
    let missing = [
        OsStr::new("warc"),
        OsStr::new("/nonexistent.warc"),
        sample.as_os_str(),
        OsStr::new("-o"),
        out.as_os_str(),
    ];
    assert_eq!(cli_support::linesift_with_closed_stderr(&missing), Some(1));
}

/// A WARC name holding control characters is shown escaped in every
/// message, so each stays one line and no ESC reaches the terminal; the
/// output's `warc_file` is the name as it is.
#[test]
fn control_characters_in_a_name_are_escaped_on_stderr() {
    let (warc, _) = input("control-src.warc.gz", true);
    let odd = warc.with_file_name("odd\nname\u{1b}[31m.warc.gz");
    std::fs::copy(&warc, &odd).unwrap();
    let missing = warc.with_file_name("missing\n.warc");
    let out = scratch("control\nout.jsonl");
    let (code, stderr) = warc_to(&[&missing, &odd], &out, &[]);
    assert_eq!(code, 1, "{stderr}");
    assert!(!stderr.contains('\u{1b}'), "{stderr:?}");
    for line in stderr.lines() {
        assert!(
            line.starts_with("linesift") || line.starts_with("  "),
            "{stderr:?}"
        );
    }
    assert!(stderr.contains("missing\\n.warc: "), "{stderr:?}");
    let files: Vec<Value> = jsonl(&out).iter().map(|l| l["warc_file"].clone()).collect();
    assert_eq!(files[0].as_str(), odd.to_str());
    // Nothing read at all: the message names the output it leaves alone.
    let (code, stderr) = warc_to(&[&missing], &out, &[]);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("control\\nout.jsonl is left as it was"),
        "{stderr:?}"
    );
}

/// Every input that fails (missing, empty, nothing readable, a format
/// not read) is an error in the summary, which counts the failed inputs
/// as the exit code tells of them; a run where none failed names none.
#[test]
fn the_summary_counts_the_failed_inputs_the_exit_code_tells_of() {
    let (good, _) = input("summary-good.warc.gz", true);
    let empty = scratch("summary-empty.warc");
    std::fs::write(&empty, "").unwrap();
    let junk = scratch("summary-junk.warc");
    std::fs::write(&junk, "no record here\n".repeat(300)).unwrap();
    let bzip2 = scratch("summary.warc.bz2");
    std::fs::write(&bzip2, b"BZh91AY&SY\x12\x34\x56\x78 compressed data").unwrap();
    let missing = scratch("summary-missing.warc");
    let out = scratch("summary.jsonl");
    let (code, stderr) = warc_to(&[&empty], &out, &[]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains(", 1 errors, 1 failed inputs"), "{stderr}");
    let inputs = [&good, &missing, &empty, &junk, &bzip2, &good];
    let (code, stderr) = warc_to(&inputs.map(PathBuf::as_path), &out, &[]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains(", 4 errors, 4 failed inputs"), "{stderr}");
    let (code, stderr) = warc_to(&[&good], &out, &[]);
    assert_eq!(code, 0, "{stderr}");
    assert!(!stderr.contains("failed inputs"), "{stderr}");
}

/// A record read by `--offset` names the file and the offset once each: a
/// file that does not open is named with the system's error alone, and a
/// `--length` shorter than its record (ending in its WARC header or in its
/// HTTP headers) is said to be so, not taken for a truncated file or a bad
/// record; a file that does end there is truncated.
#[test]
fn a_record_read_by_its_offset_names_its_fault_once() {
    let (warc, written) = input("once.warc.gz", true);
    let w = &written[4];
    let out = scratch("once.jsonl");
    let first_line = |stderr: &str| stderr.lines().next().unwrap_or_default().to_string();
    let missing = scratch("once-missing.warc");
    let (code, stderr) = warc_to(&[&missing], &out, &["--offset", "0"]);
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(
        first_line(&stderr),
        format!(
            "linesift: {}: No such file or directory (os error 2)",
            missing.display()
        )
    );
    let offset = w.offset.to_string();
    for short in [100, w.length / 2] {
        let short = short.to_string();
        let (code, stderr) = warc_to(&[&warc], &out, &["--offset", &offset, "--length", &short]);
        assert_eq!(code, 1, "{stderr}");
        assert_eq!(
            first_line(&stderr),
            format!(
                "linesift: {}: the record at offset {offset} goes on past its given length of \
                 {short} bytes; the file does not end there",
                warc.display()
            )
        );
    }
    let cut = scratch("once-cut.warc.gz");
    let bytes = std::fs::read(&warc).unwrap();
    std::fs::write(&cut, &bytes[..(w.offset + 100) as usize]).unwrap();
    let (code, stderr) = warc_to(&[&cut], &out, &["--offset", &offset, "--length", "100"]);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        first_line(&stderr).starts_with(&format!(
            "linesift: {}: file is truncated at offset {}",
            cut.display(),
            w.offset + 100
        )),
        "{stderr}"
    );
}

/// A `--length` that ends inside its record's body, in a file that goes
/// on, is blamed in one line naming the input, plain or gzip, and the
/// output is left alone: before, the page came out flagged `cut`, as if
/// the file ended there. A plain file that does end there keeps the page
/// as a repair.
#[test]
fn a_length_that_ends_inside_the_body_is_blamed_not_taken_for_a_cut() {
    let out = scratch("short-body.jsonl");
    for gzip in [false, true] {
        let name = match gzip {
            true => "short-body.warc.gz",
            false => "short-body.warc",
        };
        let (warc, written) = input(name, gzip);
        let w = &written[4];
        let offset = w.offset.to_string();
        let shorts = match gzip {
            true => vec![w.length - 20],
            false => vec![w.length / 2, w.length - 20],
        };
        for short in shorts {
            std::fs::write(&out, "earlier results\n").unwrap();
            let short = short.to_string();
            let (code, stderr) =
                warc_to(&[&warc], &out, &["--offset", &offset, "--length", &short]);
            assert_eq!(code, 1, "{stderr}");
            assert_eq!(
                stderr.lines().next().unwrap_or_default(),
                format!(
                    "linesift: {}: the record at offset {offset} goes on past its given length \
                     of {short} bytes; the file does not end there",
                    warc.display()
                ),
                "{stderr}"
            );
            assert!(!stderr.contains("cut"), "{stderr}");
            assert_eq!(std::fs::read_to_string(&out).unwrap(), "earlier results\n");
        }
    }
    let (warc, written) = input("short-body-end.warc", false);
    let w = &written[4];
    let end = (w.offset + w.length / 2) as usize;
    std::fs::write(&warc, &std::fs::read(&warc).unwrap()[..end]).unwrap();
    let (offset, short) = (w.offset.to_string(), (w.length / 2).to_string());
    let (code, stderr) = warc_to(&[&warc], &out, &["--offset", &offset, "--length", &short]);
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("flagged cut"), "{stderr}");
    assert_eq!(jsonl(&out)[0]["warc_repaired"], serde_json::json!(["cut"]));
}

/// A record whose HTTP head is long: forty headers of hex that compress
/// poorly, so that a gzip member cut part way ends inside them.
fn padded_head_warc(name: &str, gzip: bool) -> (PathBuf, Written) {
    let mut seed = 0x2545_f491_u64;
    let mut pad = || {
        (0..32)
            .map(|_| {
                seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                format!("{:02x}", (seed >> 56) as u8)
            })
            .collect::<String>()
    };
    let pads: Vec<(String, String)> = (0..40).map(|i| (format!("X-Pad-{i}"), pad())).collect();
    let mut headers = vec![("Content-Type", "text/html; charset=utf-8")];
    headers.extend(pads.iter().map(|(k, v)| (k.as_str(), v.as_str())));
    let spec = Value::Array(vec![
        html_response(0),
        response(
            "http://padded.example/",
            "200 OK",
            &headers,
            page_html(1).as_bytes(),
        ),
    ]);
    let (warc, mut written) = make_warc(name, &spec, gzip);
    (warc, written.remove(1))
}

/// A WARC file cut inside a record's HTTP head, read by `--offset` (with
/// or without a `--length` reaching the cut), fails as the truncated file
/// it is, in one line naming it, gzip or plain, not as a bad HTTP
/// response; read whole, the cut is told once, after the records before
/// it.
#[test]
fn a_file_cut_inside_the_http_head_is_told_as_truncated() {
    let out = scratch("cut-head.jsonl");
    for gzip in [true, false] {
        let name = match gzip {
            true => "cut-head.warc.gz",
            false => "cut-head.warc",
        };
        let (warc, w) = padded_head_warc(name, gzip);
        let bytes = std::fs::read(&warc).unwrap();
        let record = &bytes[w.offset as usize..(w.offset + w.length) as usize];
        let keep = match gzip {
            true => record.len() / 2,
            false => find(record, b"X-Pad-20").unwrap(),
        };
        let cut = &record[..keep];
        // What the cut leaves of the record ends inside its HTTP head.
        let decoded = match gzip {
            true => {
                let mut decoder = flate2::read::GzDecoder::new(cut);
                let (mut all, mut buf) = (Vec::new(), [0u8; 4096]);
                while let Ok(n @ 1..) = std::io::Read::read(&mut decoder, &mut buf) {
                    all.extend_from_slice(&buf[..n]);
                }
                all
            }
            false => cut.to_vec(),
        };
        let http = find(&decoded, b"HTTP/1.1 200").expect("the cut is past the WARC header");
        assert!(
            find(&decoded[http..], b"\r\n\r\n").is_none(),
            "cut past the head"
        );
        let file = scratch(&format!("cut-head-short-{name}"));
        let end = w.offset as usize + keep;
        std::fs::write(&file, &bytes[..end]).unwrap();
        let offset = w.offset.to_string();
        let said = format!(
            "linesift: {}: file is truncated at offset {end}",
            file.display()
        );
        for length in [None, Some(keep.to_string())] {
            let mut args = vec!["--offset", &offset];
            if let Some(length) = &length {
                args.extend(["--length", length]);
            }
            let (code, stderr) = warc_to(&[&file], &out, &args);
            assert_eq!(code, 1, "{stderr}");
            assert!(stderr.starts_with(&said), "{stderr}");
            assert!(!stderr.contains("HTTP"), "{stderr}");
        }
        let (code, stderr) = warc_to(&[&file], &out, &[]);
        assert_eq!(code, 0, "{stderr}");
        assert!(stderr.starts_with(&said), "{stderr}");
        assert!(stderr.contains(" 1 errors, 1 truncated files"), "{stderr}");
        assert_eq!(jsonl(&out).len(), 1);
    }
}

fn find(haystack: &[u8], needle: &[u8]) -> Option<usize> {
    haystack.windows(needle.len()).position(|w| w == needle)
}

/// Stdin can be read once: `-` named twice is refused up front (exit
/// code 2), as `extract` refuses it, before the output is touched; before,
/// the second `-` read nothing and failed as an empty input.
#[test]
fn stdin_named_twice_is_refused_up_front() {
    let (warc, _) = input("stdin-twice.warc", false);
    let out = scratch("stdin-twice.jsonl");
    std::fs::write(&out, "earlier results\n").unwrap();
    let run = linesift_command(&["warc", "-", "-", "-o", out.to_str().unwrap()])
        .stdin(std::fs::File::open(&warc).unwrap())
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(2), "{stderr}");
    assert_eq!(
        stderr.trim_end(),
        "linesift: stdin (`-`) can be read once: name it once"
    );
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "earlier results\n");
}
