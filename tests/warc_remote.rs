//! Remote WARCs over HTTP, end to end against a real server on loopback
//! (tests/remote_support): a whole file streamed and a record read by
//! one ranged request give what the local file gives, with faults
//! injected — a connection cut mid-body (resumed from the byte it
//! reached), 503s, a stalled origin (a read timeout, then a resume), a
//! wrong `Content-Range` (asked again) — and a `Content-Range` that stays
//! wrong or a missing file is a clear error. Also
//! the worker's processor on remote record batches and missing files.

mod remote_support;
mod warc_support;

use remote_support::{Fault, Origin, documents};
use serde_json::Value;
use std::process::Command;
use std::time::Duration;
use warc_support::*;

/// Forty pages, gzip per record, written by warcio.
fn archive(name: &str) -> (std::path::PathBuf, Vec<Written>) {
    make_warc(name, &simple_spec(40), true)
}

/// `linesift ARGS...` with short timeouts and backoff for remote reads.
fn linesift_remote(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_linesift"))
        .args(args)
        .env("LINESIFT_REMOTE_TIMEOUT", "1")
        .env("LINESIFT_REMOTE_BACKOFF", "0.05")
        .env("LINESIFT_REMOTE_RETRIES", "3")
        .env("NO_PROXY", "127.0.0.1")
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Asserts two runs gave the same documents, naming the first that
/// differs (not printing them all).
fn same(remote: &[Value], local: &[Value]) {
    let first = remote.iter().zip(local).position(|(r, l)| r != l);
    assert!(
        first.is_none() && remote.len() == local.len(),
        "{} documents read remotely, {} locally; first difference at {first:?}",
        remote.len(),
        local.len()
    );
}

/// `linesift warc INPUT -o OUT ARGS...`: exit code, stderr, documents.
fn warc(input: &str, name: &str, args: &[&str]) -> (i32, String, Vec<Value>) {
    let out = scratch(name).with_extension("jsonl");
    let mut all = vec!["warc", input, "-o", out.to_str().unwrap()];
    all.extend(args);
    let (code, stderr) = linesift_remote(&all);
    let docs = match out.exists() {
        true => documents(&out),
        false => Vec::new(),
    };
    (code, stderr, docs)
}

/// The file served, and what reading it locally gives.
fn served(name: &str) -> (Origin, String, Vec<Value>, Vec<Written>, u64) {
    let (path, written) = archive(name);
    let bytes = std::fs::read(&path).unwrap();
    let size = bytes.len() as u64;
    let (code, stderr, local) = warc(path.to_str().unwrap(), &format!("{name}-local"), &[]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(local.len(), 40);
    let origin = Origin::serve(bytes);
    let url = format!("{}crawl/{name}.warc.gz", origin.base);
    (origin, url, local, written, size)
}

#[test]
fn a_whole_file_over_http_gives_what_the_local_file_gives() {
    let (origin, url, local, _, _) = served("whole");
    let (code, stderr, remote) = warc(&url, "whole-remote", &[]);
    assert_eq!(code, 0, "{stderr}");
    same(&remote, &local);
    assert_eq!(origin.requests(), vec!["-"]);
}

#[test]
fn a_connection_cut_mid_body_resumes_from_the_byte_it_reached() {
    let (origin, url, local, _, size) = served("cut");
    let cut = size as usize / 3;
    origin.script(&[Fault::CutAfter(cut), Fault::CutAfter(1000)]);
    let (code, stderr, remote) = warc(&url, "cut-remote", &[]);
    assert_eq!(code, 0, "{stderr}");
    same(&remote, &local);
    let requests = origin.requests();
    assert_eq!(requests[0], "-");
    assert_eq!(requests[1], format!("bytes={cut}-"));
    assert_eq!(requests[2], format!("bytes={}-", cut + 1000));
    assert_eq!(requests.len(), 3, "{requests:?}");
}

#[test]
fn a_503_is_tried_again_after_a_backoff() {
    let (origin, url, local, _, _) = served("busy");
    origin.script(&[Fault::Status(503), Fault::Status(503)]);
    let (code, stderr, remote) = warc(&url, "busy-remote", &[]);
    assert_eq!(code, 0, "{stderr}");
    same(&remote, &local);
    assert_eq!(origin.requests(), vec!["-", "-", "-"]);
}

#[test]
fn a_stalled_origin_times_out_and_the_read_resumes() {
    let (origin, url, local, _, _) = served("slow");
    origin.script(&[Fault::StallAfter(5000, Duration::from_secs(4))]);
    let (code, stderr, remote) = warc(&url, "slow-remote", &[]);
    assert_eq!(code, 0, "{stderr}");
    same(&remote, &local);
    assert_eq!(
        origin.requests(),
        vec!["-".to_string(), "bytes=5000-".into()]
    );
}

#[test]
fn a_wrong_content_range_on_resume_is_tried_again() {
    let (origin, url, local, _, _) = served("wrong");
    origin.script(&[Fault::CutAfter(4000), Fault::WrongRange]);
    let (code, stderr, remote) = warc(&url, "wrong-remote", &[]);
    assert_eq!(code, 0, "{stderr}");
    same(&remote, &local);
    // The wrong answer's body is not taken: the same range is asked for
    // again.
    assert_eq!(
        origin.requests(),
        vec!["-".to_string(), "bytes=4000-".into(), "bytes=4000-".into()]
    );
}

#[test]
fn a_content_range_that_stays_wrong_fails_the_input_in_one_line() {
    let (origin, url, local, _, _) = served("wrong-always");
    origin.script(&[
        Fault::CutAfter(4000),
        Fault::WrongRange,
        Fault::WrongRange,
        Fault::WrongRange,
    ]);
    let (code, stderr, remote) = warc(&url, "wrong-always-remote", &[]);
    assert_ne!(code, 0, "{stderr}");
    let lines: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains("Content-Range"))
        .collect();
    assert_eq!(lines.len(), 1, "{stderr}");
    let line = lines[0];
    assert!(
        line.contains(&url)
            && line.contains("Content-Range \"bytes 0-")
            && line.contains("does not answer Range bytes=4000-")
            && line.contains("starts at byte 0, not 4000")
            && line.contains("after 4 tries"),
        "{stderr}"
    );
    // What came before the cut is kept, and nothing after it.
    assert!(remote.len() < local.len(), "{} documents", remote.len());
    same(&remote, &local[..remote.len()]);
    // The cut, then the wrong answers: four tries since the last byte.
    assert_eq!(origin.requests().len(), 4);
}

#[test]
fn a_wrong_content_range_within_a_record_is_tried_again() {
    let (origin, url, local, written, _) = served("record-wrong");
    let w = &written[5];
    origin.script(&[Fault::WrongRange, Fault::CutAfter(100), Fault::WrongRange]);
    let (offset, length) = (w.offset.to_string(), w.length.to_string());
    let (code, stderr, remote) = warc(
        &url,
        "record-wrong-remote",
        &["--offset", &offset, "--length", &length],
    );
    assert_eq!(code, 0, "{stderr}");
    same(&remote, &local[5..6]);
    let last = w.offset + w.length - 1;
    assert_eq!(
        origin.requests(),
        vec![
            format!("bytes={}-{last}", w.offset),
            format!("bytes={}-{last}", w.offset),
            format!("bytes={}-{last}", w.offset + 100),
            format!("bytes={}-{last}", w.offset + 100),
        ]
    );
}

#[test]
fn retries_that_run_out_name_the_url_and_the_tries() {
    let (origin, url, _, _, _) = served("down");
    origin.script(&[Fault::Status(503); 4]);
    let (code, stderr, remote) = warc(&url, "down-remote", &[]);
    assert_ne!(code, 0);
    assert!(remote.is_empty());
    assert!(
        stderr.contains(&url) && stderr.contains("HTTP 503") && stderr.contains("after 4 tries"),
        "{stderr}"
    );
}

#[test]
fn a_missing_file_is_named_with_its_status() {
    let (origin, url, _, _, _) = served("missing");
    origin.script(&[Fault::Status(404)]);
    let (code, stderr, _) = warc(&url, "missing-remote", &[]);
    assert_ne!(code, 0);
    assert!(stderr.contains(&url) && stderr.contains("404"), "{stderr}");
    // Not tried again.
    assert_eq!(origin.requests().len(), 1);
}

#[test]
fn a_record_by_offset_and_length_is_one_range_request() {
    let (origin, url, local, written, _) = served("record");
    let w = &written[17];
    let (offset, length) = (w.offset.to_string(), w.length.to_string());
    let (code, stderr, remote) = warc(
        &url,
        "record-remote",
        &["--offset", &offset, "--length", &length],
    );
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(remote.len(), 1);
    same(&remote, &local[17..18]);
    assert_eq!(
        origin.requests(),
        vec![format!("bytes={}-{}", w.offset, w.offset + w.length - 1)]
    );
}

#[test]
fn a_record_read_cut_off_resumes_within_its_range() {
    let (origin, url, local, written, _) = served("record-cut");
    let w = &written[5];
    origin.script(&[Fault::CutAfter(100), Fault::Status(502)]);
    let (offset, length) = (w.offset.to_string(), w.length.to_string());
    let (code, stderr, remote) = warc(
        &url,
        "record-cut-remote",
        &["--offset", &offset, "--length", &length],
    );
    assert_eq!(code, 0, "{stderr}");
    same(&remote, &local[5..6]);
    let last = w.offset + w.length - 1;
    assert_eq!(
        origin.requests(),
        vec![
            format!("bytes={}-{last}", w.offset),
            format!("bytes={}-{last}", w.offset + 100),
            format!("bytes={}-{last}", w.offset + 100),
        ]
    );
}

#[test]
fn a_record_without_a_length_is_read_to_the_end_of_the_file() {
    let (origin, url, local, written, size) = served("record-open");
    let w = &written[39];
    let (code, stderr, remote) = warc(
        &url,
        "record-open-remote",
        &["--offset", &w.offset.to_string()],
    );
    assert_eq!(code, 0, "{stderr}");
    same(&remote, &local[39..40]);
    assert_eq!(
        origin.requests()[0],
        format!("bytes={}-{}", w.offset, w.offset + (1 << 20) - 1)
    );
    assert!(w.offset + w.length == size);
}

/// An index of `written`'s records as CDXJ lines naming `file`, with a
/// redirect, a PDF and a bad line among them.
fn cdx_index(file: &str, written: &[Written]) -> String {
    let mut lines: Vec<String> = written
        .iter()
        .enumerate()
        .map(|(i, w)| {
            format!(
                "example,site{i})/page 20240101000000 {{\"url\": \"http://site{i}.example/page\", \
                 \"mime\": \"text/html\", \"status\": \"200\", \"offset\": \"{}\", \
                 \"length\": \"{}\", \"filename\": \"{file}\"}}",
                w.offset, w.length
            )
        })
        .collect();
    let w = &written[0];
    let other = |status: &str, mime: &str| {
        format!(
            "example,other)/ 20240101000000 {{\"url\": \"http://other.example/\", \"mime\": \
             \"{mime}\", \"status\": \"{status}\", \"offset\": \"{}\", \"length\": \"{}\", \
             \"filename\": \"{file}\"}}",
            w.offset + 1,
            w.length
        )
    };
    lines.insert(3, other("301", "text/html"));
    lines.insert(7, other("200", "application/pdf"));
    lines.insert(11, format!("example,bad)/ 20240101000000 {{\"filename\": \"{file}\", \"offset\": \"12x\", \"length\": \"5\"}}"));
    lines.join("\n") + "\n"
}

/// `linesift run INDEX -o OUT ARGS...`: exit code, stderr, and each
/// document by its WARC record id (without the ids that name the task).
fn run_index(
    name: &str,
    index: &str,
    args: &[&str],
) -> (i32, String, std::collections::BTreeMap<String, Value>) {
    let list = scratch(name).with_extension("cdxj");
    std::fs::write(&list, index).unwrap();
    let out = scratch(name).with_extension("jsonl");
    let mut all = vec!["run", list.to_str().unwrap(), "-o", out.to_str().unwrap()];
    all.extend(args);
    let (code, stderr) = linesift_remote(&all);
    let docs = std::fs::read_to_string(&out)
        .unwrap_or_default()
        .lines()
        .map(|l| {
            let mut v: Value = serde_json::from_str(l).unwrap();
            let fields = v.as_object_mut().unwrap();
            for id in ["task_id", "document_id"] {
                fields.remove(id);
            }
            (fields["warc_record_id"].as_str().unwrap().to_string(), v)
        })
        .collect();
    (code, stderr, docs)
}

#[test]
fn an_index_read_over_http_with_faults_gives_what_the_local_file_gives() {
    let (path, written) = archive("index");
    let file = path.file_name().unwrap().to_str().unwrap();
    let dir = format!("{}/", path.parent().unwrap().display());
    let index = cdx_index(file, &written);
    let filters = ["--status", "200", "--mime", "text/html", "--jobs", "2"];
    let mut local_args = vec!["--warc-prefix", dir.as_str()];
    local_args.extend(filters);
    let (code, stderr, local) = run_index("index-local", &index, &local_args);
    // The bad line fails the run, on its own.
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(local.len(), 40, "{stderr}");
    assert!(
        stderr.contains(".cdxj:12: \"offset\" is not a byte count"),
        "{stderr}"
    );
    assert!(stderr.contains("2 index entries passed over"), "{stderr}");

    let origin = Origin::serve(std::fs::read(&path).unwrap());
    origin.script(&[
        Fault::Status(503),
        Fault::CutAfter(100),
        Fault::StallAfter(10, Duration::from_secs(3)),
        Fault::Status(500),
    ]);
    let prefix = format!("{}crawl", origin.base);
    let mut remote_args = vec!["--warc-prefix", prefix.as_str()];
    remote_args.extend(filters);
    let (code, stderr, remote) = run_index("index-remote", &index, &remote_args);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        remote == local,
        "{} documents over HTTP, {} locally",
        remote.len(),
        local.len()
    );
    // Read ahead: the listed records follow each other in the file, and
    // fewer requests than records are made, faults and all (a window's
    // request that fails leaves the record that made it to its own range,
    // and the others to a window of their own).
    let requests = origin.requests();
    assert!(requests.len() < 30, "{requests:?}");
    assert!(
        requests.iter().all(|r| r.starts_with("bytes=")),
        "{requests:?}"
    );
}

/// An index whose entries follow each other in the file (every other
/// record listed, as an index of the responses alone skips the requests)
/// is read by one request from the first entry to the end of the last:
/// the documents are those of a request a record.
#[test]
fn records_listed_one_after_the_other_are_read_by_one_request() {
    let (path, written) = archive("ahead");
    let file = path.file_name().unwrap().to_str().unwrap();
    let dir = format!("{}/", path.parent().unwrap().display());
    let listed: Vec<Written> = written.iter().step_by(2).cloned().collect();
    let index = cdx_index(file, &listed);
    let filters = ["--status", "200", "--mime", "text/html", "--jobs", "2"];
    let mut local_args = vec!["--warc-prefix", dir.as_str()];
    local_args.extend(filters);
    let (_, stderr, local) = run_index("ahead-local", &index, &local_args);
    assert_eq!(local.len(), listed.len(), "{stderr}");
    let origin = Origin::serve(std::fs::read(&path).unwrap());
    let prefix = format!("{}crawl", origin.base);
    let mut remote_args = vec!["--warc-prefix", prefix.as_str()];
    remote_args.extend(filters);
    let (_, stderr, remote) = run_index("ahead-remote", &index, &remote_args);
    assert!(remote == local, "{stderr}");
    let (first, last) = (&listed[0], &listed[listed.len() - 1]);
    let whole = format!("bytes={}-{}", first.offset, last.offset + last.length - 1);
    assert_eq!(origin.requests(), [whole]);
}

/// A gzip index file (several members, as Common Crawl's
/// `cdx-NNNNN.gz`) is read by `run` as it is, told by its bytes under a
/// name that says nothing of gzip: its documents are the plain index's.
#[test]
fn a_gzipped_index_is_read_as_the_plain_one() {
    use std::io::Write;
    let (path, written) = archive("index-gz");
    let file = path.file_name().unwrap().to_str().unwrap();
    let dir = format!("{}/", path.parent().unwrap().display());
    let index = cdx_index(file, &written);
    let args = [
        "--warc-prefix",
        dir.as_str(),
        "--status",
        "200",
        "--jobs",
        "2",
    ];
    let (code, stderr, plain) = run_index("index-gz-plain", &index, &args);
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(plain.len(), 40, "{stderr}");
    let (head, tail) = index.split_at(index.len() / 2);
    let split = head.rfind('\n').unwrap() + 1;
    let (head, tail) = (&index[..split], [&head[split..], tail].concat());
    let mut gz = Vec::new();
    for part in [head, tail.as_str()] {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(part.as_bytes()).unwrap();
        gz.extend(e.finish().unwrap());
    }
    let list = scratch("index-gz").with_extension("txt");
    std::fs::write(&list, &gz).unwrap();
    let out = scratch("index-gz-read").with_extension("jsonl");
    let mut all = vec!["run", list.to_str().unwrap(), "-o", out.to_str().unwrap()];
    all.extend(args);
    let (code, stderr) = linesift_remote(&all);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains(".txt:12: \"offset\" is not a byte count"),
        "{stderr}"
    );
    let read: std::collections::BTreeMap<String, Value> = std::fs::read_to_string(&out)
        .unwrap()
        .lines()
        .map(|l| {
            let mut v: Value = serde_json::from_str(l).unwrap();
            let fields = v.as_object_mut().unwrap();
            for id in ["task_id", "document_id"] {
                fields.remove(id);
            }
            (fields["warc_record_id"].as_str().unwrap().to_string(), v)
        })
        .collect();
    assert_eq!(read.len(), 40, "{stderr}");
    assert!(read == plain, "the gzip index's documents differ");
    // Cut short, the list is an error naming it.
    std::fs::write(&list, &gz[..gz.len() - 8]).unwrap();
    let (code, stderr) = linesift_remote(&all);
    assert_ne!(code, 0, "{stderr}");
    assert!(
        stderr.contains(list.to_str().unwrap()) && stderr.contains("corrupt or cut gzip"),
        "{stderr}"
    );
}

#[test]
fn a_run_list_names_a_remote_warc_file_by_its_url() {
    let (origin, url, local, _, size) = served("run-file");
    origin.script(&[Fault::CutAfter(size as usize / 2)]);
    // A URL ending in .warc.gz is a WARC file, not a page to fetch.
    let (code, stderr, remote) = run_index("run-file", &format!("{url}\n"), &[]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(remote.len(), local.len());
    let texts: Vec<&Value> = remote.values().map(|d| &d["text"]).collect();
    let local_texts: Vec<&Value> = local.iter().map(|d| &d["text"]).collect();
    assert!(texts.iter().all(|t| local_texts.contains(t)));
    assert_eq!(
        origin.requests(),
        vec!["-".to_string(), format!("bytes={}-", size / 2)]
    );
}

/// The worker's processor (no broker), as `linesift worker` runs tasks.
fn processor() -> std::sync::Arc<linesift::worker::Processor> {
    use linesift::fetch::{FetchOptions, Fetcher};
    use linesift::{Extractor, Options};
    let extractor = Extractor::new(Options::default());
    let fetcher = Fetcher::new(extractor.clone(), FetchOptions::default()).unwrap();
    let metrics = linesift::worker::Metrics::new().unwrap();
    let reader = linesift::warc::ReaderOptions::default();
    std::sync::Arc::new(linesift::worker::Processor::new(
        fetcher, extractor, reader, metrics,
    ))
}

/// Runs `source` as a worker task: its result and what it published
/// (documents' texts, and failure events' kinds).
async fn work(
    source: linesift::proto::task::Source,
) -> (
    Result<(), linesift::worker::process::TaskError>,
    Vec<String>,
    Vec<String>,
) {
    use linesift::worker::process::Output;
    let task = linesift::proto::Task {
        id: "remote".into(),
        source: Some(source),
        ..Default::default()
    };
    let (tx, mut rx) = tokio::sync::mpsc::channel(64);
    let result = processor().run(&task, tx).await;
    let (mut docs, mut failures) = (Vec::new(), Vec::new());
    while let Some(output) = rx.recv().await {
        match output {
            Output::Document(doc, _) => docs.push(doc.text.clone()),
            Output::Failure(f) => failures.push(f.kind.clone()),
        }
    }
    (result, docs, failures)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_worker_batch_task_reads_each_record_by_one_range_request() {
    use linesift::proto::{RecordSpan, WarcRecords, task::Source};
    let (origin, url, local, written, _) = served("batch");
    // The first record's request fails three times (two connections cut
    // before any byte, a 503): it is tried again, and the batch goes on.
    origin.script(&[Fault::CutAfter(0), Fault::CutAfter(0), Fault::Status(503)]);
    let picked = [2usize, 9, 10, 31];
    let batch = WarcRecords {
        path: url.clone(),
        records: picked
            .iter()
            .map(|&i| RecordSpan {
                offset: written[i].offset,
                length: written[i].length,
            })
            .collect(),
    };
    let (result, docs, failures) = work(Source::WarcRecords(batch)).await;
    assert!(result.is_ok(), "{result:?}");
    assert!(failures.is_empty(), "{failures:?}");
    let expected: Vec<String> = picked
        .iter()
        .map(|&i| local[i]["text"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(docs, expected);
    let ranges = origin.requests();
    let first = format!(
        "bytes={}-{}",
        written[2].offset,
        written[2].offset + written[2].length - 1
    );
    assert_eq!(
        ranges[..4],
        [first.clone(), first.clone(), first.clone(), first]
    );
    assert_eq!(ranges.len(), 4 + 3, "{ranges:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_worker_task_on_a_missing_remote_file_fails_for_good() {
    use linesift::proto::{WarcFile, WarcRecord, task::Source};
    use linesift::worker::process::TaskError;
    let (origin, url, _, _, _) = served("worker-missing");
    origin.script(&[Fault::Status(404), Fault::Status(404)]);
    let (result, docs, _) = work(Source::WarcFile(WarcFile { path: url.clone() })).await;
    assert!(docs.is_empty());
    match result {
        Err(TaskError::Permanent { kind, reason, .. }) => {
            assert_eq!(kind, "open");
            assert!(reason.contains(&url) && reason.contains("404"), "{reason}");
        }
        other => panic!("{other:?}"),
    }
    let record = WarcRecord {
        path: url,
        offset: 0,
        length: 100,
    };
    let (result, _, _) = work(Source::WarcRecord(record)).await;
    assert!(
        matches!(&result, Err(TaskError::Permanent { .. })),
        "{result:?}"
    );
    assert_eq!(origin.requests().len(), 2);
}

#[test]
fn a_zstd_record_whose_dictionary_opens_the_file_takes_one_more_range() {
    let (plain_path, written) = make_warc("zstd-dict", &simple_spec(12), false);
    let plain = std::fs::read(&plain_path).unwrap();
    let dict = train_dictionary();
    let (zst, offsets) = zstd_warc(&plain, &written, Some(&dict), true);
    let local_path = scratch("zstd-dict").with_extension("warc.zst");
    std::fs::write(&local_path, &zst).unwrap();
    let origin = Origin::serve(zst.clone());
    let url = format!("{}zstd-dict.warc.zst", origin.base);
    let (offset, end) = (offsets[9], offsets[10]);
    let (off, len) = (offset.to_string(), (end - offset).to_string());
    let args = ["--offset", off.as_str(), "--length", len.as_str()];
    let local = local_path.to_str().unwrap();
    let (code, stderr, expected) = warc(local, "zstd-dict-local", &args);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(expected.len(), 1);
    let (code, stderr, remote) = warc(&url, "zstd-dict-remote", &args);
    assert_eq!(code, 0, "{stderr}");
    same(&remote, &expected);
    // The record's range, then the file's start up to the record (1 MiB at
    // most) for the dictionary frame.
    assert_eq!(
        origin.requests(),
        vec![
            format!("bytes={offset}-{}", end - 1),
            format!("bytes=0-{}", offset - 1)
        ]
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_batch_of_zstd_records_reads_the_dictionary_frame_once() {
    use linesift::proto::{RecordSpan, WarcRecords, task::Source};
    let (plain_path, written) = make_warc("zstd-batch", &simple_spec(12), false);
    let plain = std::fs::read(&plain_path).unwrap();
    let dict = train_dictionary();
    let (zst, offsets) = zstd_warc(&plain, &written, Some(&dict), true);
    let origin = Origin::serve(zst.clone());
    let picked = [3usize, 4, 8];
    let span = |i: usize| (offsets[i], offsets[i + 1]);
    let batch = WarcRecords {
        path: format!("{}zstd-batch.warc.zst", origin.base),
        records: picked
            .iter()
            .map(|&i| RecordSpan {
                offset: span(i).0,
                length: span(i).1 - span(i).0,
            })
            .collect(),
    };
    let (result, docs, failures) = work(Source::WarcRecords(batch)).await;
    assert!(
        result.is_ok() && failures.is_empty(),
        "{result:?} {failures:?}"
    );
    assert_eq!(docs.len(), 3);
    for (doc, i) in docs.iter().zip(picked) {
        assert!(doc.contains(&format!("number {i}")), "{doc}");
    }
    let range = |i: usize| format!("bytes={}-{}", span(i).0, span(i).1 - 1);
    // Read once, up to the first record read, and kept for the others.
    let dictionary = format!("bytes=0-{}", span(3).0 - 1);
    assert_eq!(
        origin.requests(),
        vec![range(3), dictionary, range(4), range(8)]
    );
}
