//! Shared helpers of the WARC tests: small hand-written pages, WARC files
//! written by warcio (through scripts/warc_testlib.py in the project's
//! venv), per-record zstd files, and reading output back with warcio and
//! FastWARC.
#![allow(dead_code)]

use serde_json::{Value, json};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The venv's Python; `.ci/run` creates it.
pub fn python() -> PathBuf {
    let py = root().join(".venv/bin/python");
    assert!(
        py.exists(),
        "{} missing: python3 -m venv .venv && .venv/bin/pip install warcio fastwarc",
        py.display()
    );
    py
}

/// A fresh path under the tests' scratch directory.
pub fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("warc-tests");
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(format!("{}-{name}", std::process::id()))
}

/// One hand-written page with enough text to be kept by the core.
pub fn page_html(i: usize) -> String {
    let topics = [
        "rivers",
        "bridges",
        "orchards",
        "lighthouses",
        "bakeries",
        "glaciers",
    ];
    let topic = topics[i % topics.len()];
    let para = |n: usize| {
        format!(
            "<p>Paragraph {n} about {topic}: the town council met on Tuesday to discuss the {topic} \
             of the northern valley, and residents described how the {topic} had changed over the \
             last twenty years, with longer seasons and new visitors arriving every spring.</p>"
        )
    };
    let body: String = (0..4 + i % 3).map(para).collect();
    format!(
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>Notes on {topic} {i}</title></head>\
         <body><nav><a href=\"/\">Home</a> | <a href=\"/news\">News</a> | <a href=\"/about\">About</a></nav>\
         <article><h1>Notes on {topic} number {i}</h1>{body}</article>\
         <footer>Copyright 2024 Example Town. <a href=\"/privacy\">Privacy</a></footer></body></html>"
    )
}

pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A `response` record spec for warc_testlib.py.
pub fn response(uri: &str, status: &str, headers: &[(&str, &str)], body: &[u8]) -> Value {
    json!({
        "type": "response", "uri": uri, "status": status,
        "headers": headers.iter().map(|(k, v)| json!([k, v])).collect::<Vec<_>>(),
        "body_hex": hex(body),
    })
}

pub fn html_response(i: usize) -> Value {
    let uri = format!("http://site{i}.example/page");
    response(
        &uri,
        "200 OK",
        &[("Content-Type", "text/html; charset=utf-8")],
        page_html(i).as_bytes(),
    )
}

/// Where warcio put each record.
#[derive(Debug, Clone)]
pub struct Written {
    pub id: String,
    pub kind: String,
    pub offset: u64,
    pub length: u64,
}

/// Writes `spec` with warcio; returns the file and its records.
pub fn make_warc(name: &str, spec: &Value, gzip: bool) -> (PathBuf, Vec<Written>) {
    let path = scratch(name);
    let mut cmd = Command::new(python());
    cmd.arg(root().join("scripts/warc_testlib.py"))
        .arg("make")
        .arg(&path);
    if gzip {
        cmd.arg("--gzip");
    }
    let out = run_with_stdin(cmd, spec.to_string().as_bytes());
    let list: Vec<Value> = serde_json::from_slice(&out).unwrap();
    let written = list
        .iter()
        .map(|r| Written {
            id: r["id"].as_str().unwrap().to_string(),
            kind: r["type"].as_str().unwrap().to_string(),
            offset: r["offset"].as_u64().unwrap(),
            length: r["length"].as_u64().unwrap(),
        })
        .collect();
    (path, written)
}

fn run_with_stdin(mut cmd: Command, input: &[u8]) -> Vec<u8> {
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "python helper failed");
    out.stdout
}

/// Runs scripts/warc_testlib.py with `args`; its JSON answer. `what` says
/// what failed, if it does.
fn testlib(args: &[&std::ffi::OsStr], what: &str) -> Value {
    let out = Command::new(python())
        .arg(root().join("scripts/warc_testlib.py"))
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{what}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Reads a WARC/WET file back with `warcio` or `fastwarc`.
pub fn read_back(path: &Path, library: &str) -> Vec<Value> {
    let args = ["read".as_ref(), path.as_os_str(), library.as_ref()];
    let what = format!("{library} could not read {}", path.display());
    match testlib(&args, &what) {
        Value::Array(records) => records,
        other => panic!("{what}: {other}"),
    }
}

/// Every record `library` (`warcio` or `fastwarc`) reads from `path`, as
/// leniently as it reads (warcio reads ARC files too), with its type,
/// target, date and HTTP payload (`payload_hex`), and the error it gave up
/// with, if any.
pub fn library_records(path: &Path, library: &str) -> (Vec<Value>, Option<String>) {
    let args = ["records".as_ref(), path.as_os_str(), library.as_ref()];
    let what = format!("{library} could not be run on {}", path.display());
    let answer = testlib(&args, &what);
    let records = answer["records"].as_array().cloned().unwrap_or_default();
    (records, answer["error"].as_str().map(str::to_string))
}

/// Rewrites the plain WARC file `plain` with FastWARC as an LZ4 WARC, one
/// LZ4 frame a record; returns the file and each record's id and offset
/// (its frame's start) as FastWARC reads them back.
pub fn fastwarc_lz4(plain: &Path, name: &str) -> (PathBuf, Vec<(String, u64)>) {
    let path = scratch(name);
    let args = ["lz4".as_ref(), plain.as_os_str(), path.as_os_str()];
    let list = testlib(
        &args,
        &format!("FastWARC could not write {}", path.display()),
    );
    let records = list
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let id = r["id"].as_str().unwrap().to_string();
            (id, r["offset"].as_u64().unwrap())
        })
        .collect();
    (path, records)
}

/// Recompresses a plain WARC as IIPC .warc.zst: one frame per record,
/// optionally with a dictionary frame (raw or zstd-compressed) first.
/// Returns the file and each record's frame offset.
pub fn zstd_warc(
    plain: &[u8],
    records: &[Written],
    dict: Option<&[u8]>,
    compress_dict: bool,
) -> (Vec<u8>, Vec<u64>) {
    let mut out = Vec::new();
    if let Some(d) = dict {
        let payload = if compress_dict {
            zstd::bulk::compress(d, 3).unwrap()
        } else {
            d.to_vec()
        };
        out.extend_from_slice(&0x184D_2A5Du32.to_le_bytes());
        out.extend_from_slice(&(payload.len() as u32).to_le_bytes());
        out.extend_from_slice(&payload);
    }
    let mut offsets = Vec::new();
    for (i, r) in records.iter().enumerate() {
        let end = records.get(i + 1).map_or(plain.len() as u64, |n| n.offset);
        let slice = &plain[r.offset as usize..end as usize];
        offsets.push(out.len() as u64);
        let frame = match dict {
            Some(d) => zstd::bulk::Compressor::with_dictionary(3, d)
                .unwrap()
                .compress(slice)
                .unwrap(),
            None => zstd::bulk::compress(slice, 3).unwrap(),
        };
        out.extend_from_slice(&frame);
    }
    (out, offsets)
}

/// A trained zstd dictionary (it has a dictionary ID).
pub fn train_dictionary() -> Vec<u8> {
    let samples: Vec<Vec<u8>> = (0..200).map(|i| page_html(i).into_bytes()).collect();
    zstd::dict::from_samples(&samples, 4096).unwrap()
}

/// Runs the binary; returns status, stdout and stderr.
pub fn linesift(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_linesift"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Six plain HTML responses.
pub fn simple_spec(n: usize) -> Value {
    Value::Array((0..n).map(html_response).collect())
}

/// The bytes of each record of a plain WARC.
pub fn split_records(plain: &[u8], written: &[Written]) -> Vec<Vec<u8>> {
    written
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let end = written.get(i + 1).map_or(plain.len() as u64, |n| n.offset);
            plain[r.offset as usize..end as usize].to_vec()
        })
        .collect()
}

/// One gzip member per record.
pub fn gzip_members(records: &[Vec<u8>]) -> Vec<u8> {
    let mut out = Vec::new();
    for r in records {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        gz.write_all(r).unwrap();
        out.extend(gz.finish().unwrap());
    }
    out
}

/// Replaces the first occurrence of `from` in `bytes`.
pub fn replace_first(bytes: &[u8], from: &str, to: &str) -> Vec<u8> {
    let text = String::from_utf8_lossy(bytes);
    assert!(text.contains(from), "{from:?} not found");
    text.replacen(from, to, 1).into_bytes()
}

/// The record's own `Content-Length: N` header line.
pub fn content_length_line(record: &[u8]) -> String {
    let text = String::from_utf8_lossy(record);
    let line = text
        .lines()
        .find(|l| l.starts_with("Content-Length:"))
        .unwrap();
    line.to_string()
}

/// A hand-written WARC/1.1 record: its type, id `<urn:uuid:{id}>`, the
/// `extra` header fields and `block` as its content.
pub fn raw_record(kind: &str, id: &str, extra: &[(&str, &str)], block: &[u8]) -> Vec<u8> {
    let mut head = format!(
        "WARC/1.1\r\nWARC-Type: {kind}\r\nWARC-Record-ID: <urn:uuid:{id}>\r\n\
         WARC-Target-URI: http://{id}.example/\r\nWARC-Date: 2024-01-01T00:00:00Z\r\n"
    );
    for (name, value) in extra {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str(&format!("Content-Length: {}\r\n\r\n", block.len()));
    [head.as_bytes(), block, b"\r\n\r\n"].concat()
}

/// The block of a `response` record: HTTP 200, HTML, `payload`.
pub fn http_200(payload: &[u8]) -> Vec<u8> {
    let head = "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n\r\n";
    [head.as_bytes(), payload].concat()
}

/// What the reader should make of a record of [`not_whole_records`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Whole {
    /// A page, whose payload is not whole for this reason, if any.
    Page(Option<&'static str>),
    /// A record skipped with this key.
    Skipped(&'static str),
}

/// Records whose payload is not whole, between two whole pages: cut short
/// (`WARC-Truncated`), and a record segmented in three (the first segment,
/// a `continuation`, and a third segment written as a `response`), plus a
/// `resource` segment; with their ids and what the reader should make of
/// them.
pub fn not_whole_records() -> Vec<(&'static str, Vec<u8>, Whole)> {
    let page = |i: usize| page_html(i).into_bytes();
    let (cut, seg) = (page(1), page(2));
    let (first, rest) = seg.split_at(seg.len() / 2);
    let (second, third) = rest.split_at(rest.len() / 2);
    let origin = [("WARC-Segment-Origin-ID", "<urn:uuid:seg-1>")];
    let html = [("Content-Type", "text/html")];
    let segment = |n: &'static str| [("WARC-Segment-Number", n), origin[0]];
    vec![
        (
            "whole-a",
            raw_record("response", "whole-a", &[], &http_200(&page(0))),
            Whole::Page(None),
        ),
        (
            "cut-length",
            raw_record(
                "response",
                "cut-length",
                &[("WARC-Truncated", "length")],
                &http_200(&cut[..cut.len() * 3 / 5]),
            ),
            Whole::Page(Some("length")),
        ),
        (
            "cut-time",
            raw_record(
                "resource",
                "cut-time",
                &[("WARC-Truncated", "time"), html[0]],
                &cut[..cut.len() / 2],
            ),
            Whole::Page(Some("time")),
        ),
        (
            "seg-1",
            raw_record(
                "response",
                "seg-1",
                &[("WARC-Segment-Number", "1")],
                &http_200(first),
            ),
            Whole::Page(Some("segment")),
        ),
        (
            "seg-2",
            raw_record("continuation", "seg-2", &segment("2"), second),
            Whole::Skipped("type:continuation"),
        ),
        (
            "seg-3",
            raw_record("response", "seg-3", &segment("3"), &http_200(third)),
            Whole::Skipped("continuation"),
        ),
        (
            "res-seg",
            raw_record(
                "resource",
                "res-seg",
                &[("WARC-Segment-Number", "two"), html[0]],
                &page(4),
            ),
            Whole::Skipped("continuation"),
        ),
        (
            "whole-b",
            raw_record("response", "whole-b", &[], &http_200(&page(3))),
            Whole::Page(None),
        ),
    ]
}
