//! The worker's task deadline at the unit level (the processing function,
//! no broker): a task over its deadline fails as transient with kind
//! `deadline` and a reason naming `task_deadline`, which the consumer's
//! policy retries and dead-letters at the delivery limit like any
//! transient failure; a task within its deadline passes; and blocking WARC
//! work stops publishing once the deadline has passed. Also a WARC file's
//! gzip member over `max_member`: a `too_large` failure event, and the
//! records after it are published; a payload over `max_payload`: a
//! `too_large` failure, in a file task and a record task alike; and a record
//! marked `WARC-Truncated`:
//! its document is published with `truncated` set; and a record that
//! fails extraction: a failure event naming its page.

mod cli_support;

mod fetch_support;

use fetch_support::{Request, Server, Step, html, response};
use linesift::fetch::{FetchOptions, Fetcher, Guard, RetryPolicy};
use linesift::proto::{Task, WarcFile, task};
use linesift::warc::ReaderOptions;
use linesift::worker::process::{Output, TaskError};
use linesift::worker::{Metrics, Processor};
use linesift::{Extractor, Options};
use std::io::Write;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::mpsc;

fn processor(deadline: Duration) -> Arc<Processor> {
    processor_reading(deadline, ReaderOptions::default())
}

fn processor_reading(deadline: Duration, reader: ReaderOptions) -> Arc<Processor> {
    let fetch = FetchOptions {
        guard: Guard {
            allow_loopback: true,
            allow_private: false,
            allow_metadata: false,
        },
        robots: false,
        host_interval: Duration::ZERO,
        // Far above the deadline: only the deadline can end a stalled fetch.
        connect_timeout: Duration::from_secs(60),
        read_timeout: Duration::from_secs(60),
        total_timeout: Duration::from_secs(60),
        retry: RetryPolicy {
            retries: 0,
            ..RetryPolicy::default()
        },
        ..FetchOptions::default()
    };
    let extractor = Extractor::new(Options::default());
    let fetcher = Fetcher::new(extractor.clone(), fetch).unwrap();
    let metrics = Metrics::new().unwrap();
    Arc::new(Processor::new(fetcher, extractor, reader, metrics).with_deadline(Some(deadline)))
}

fn url_task(url: String) -> Task {
    Task {
        id: "deadline-test".into(),
        source: Some(task::Source::Url(url)),
        ..Task::default()
    }
}

const PAGE: &str = "<html><head><title>Deadline</title></head><body><article><p>A page \
    served in time, with enough prose to be selected as the main content.</p></article>\
    </body></html>";

/// `/slow` sends its head and half the body, then stalls for a minute.
async fn server() -> Server {
    Server::start(|r: &Request| match r.path.as_str() {
        "/slow" => {
            let mut steps = vec![Step::Send(
                format!(
                    "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: {}\r\n\r\n{}",
                    PAGE.len(),
                    &PAGE[..PAGE.len() / 2]
                )
                .into_bytes(),
            )];
            steps.push(Step::Sleep(Duration::from_secs(60)));
            steps
        }
        "/fast" => html(PAGE.as_bytes()),
        _ => response("404 Not Found", &[], b""),
    })
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stalled_fetch_fails_at_the_deadline_as_transient() {
    let server = server().await;
    let p = processor(Duration::from_millis(500));
    let (tx, mut rx) = mpsc::channel(8);
    let started = Instant::now();
    let result = p.run(&url_task(server.url("/slow")), tx).await;
    let took = started.elapsed();
    match &result {
        Err(
            e @ TaskError::Transient {
                stage,
                kind,
                reason,
            },
        ) => {
            assert_eq!((*stage, kind.as_str()), ("task", "deadline"));
            assert!(
                reason.contains("500ms") && reason.contains("task_deadline"),
                "{e}"
            );
        }
        other => panic!("{other:?}"),
    }
    assert!(took >= Duration::from_millis(500), "{took:?}");
    assert!(took < Duration::from_secs(5), "{took:?}");
    assert!(rx.recv().await.is_none(), "nothing published");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn task_within_the_deadline_passes() {
    let server = server().await;
    let p = processor(Duration::from_secs(10));
    let (tx, mut rx) = mpsc::channel(8);
    p.run(&url_task(server.url("/fast")), tx).await.unwrap();
    match rx.recv().await {
        Some(Output::Document(doc, _)) => assert!(doc.text.contains("served in time")),
        other => panic!("{other:?}"),
    }
}

fn record(i: usize) -> Vec<u8> {
    padded_record(i, 0)
}

/// A WARC file arriving through a FIFO: two records, a stall past the
/// deadline, then more records. The task fails at the deadline and the
/// records after the stall are never published.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn warc_file_work_stops_publishing_after_the_deadline() {
    let dir = std::env::temp_dir().join(format!("linesift-limits-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let fifo = dir.join("slow.warc");
    cli_support::make_fifo(&fifo);
    let path = fifo.clone();
    let writer = std::thread::spawn(move || {
        let mut f = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
        f.write_all(&[record(0), record(1)].concat()).unwrap();
        f.flush().unwrap();
        std::thread::sleep(Duration::from_millis(1500));
        for i in 2..10 {
            // The reader may have gone already: a broken pipe is fine.
            if f.write_all(&record(i)).is_err() {
                break;
            }
        }
    });

    let p = processor(Duration::from_millis(500));
    let (tx, mut rx) = mpsc::channel(32);
    let task = Task {
        id: "deadline-warc".into(),
        source: Some(task::Source::WarcFile(WarcFile {
            path: fifo.to_string_lossy().into_owned(),
        })),
        ..Task::default()
    };
    let started = Instant::now();
    let result = p.run(&task, tx).await;
    assert!(
        matches!(&result, Err(TaskError::Transient { kind, .. }) if kind == "deadline"),
        "{result:?}"
    );
    assert!(started.elapsed() < Duration::from_millis(1400));
    // The blocking reader ends at its next deadline check; the channel
    // then closes with only the records read before the deadline.
    let mut documents = 0;
    while let Some(out) = rx.recv().await {
        assert!(matches!(out, Output::Document(..)), "{out:?}");
        documents += 1;
    }
    assert!(documents <= 2, "{documents} documents published");
    writer.join().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}

/// A WARC file task runs on `file`; its outputs.
async fn run_warc_file(name: &str, file: &[u8], reader: ReaderOptions) -> Vec<Output> {
    let dir = std::env::temp_dir().join(format!("linesift-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, file).unwrap();
    let p = processor_reading(Duration::from_secs(60), reader);
    let (tx, mut rx) = mpsc::channel(32);
    let task = Task {
        id: format!("task-{name}"),
        source: Some(task::Source::WarcFile(WarcFile {
            path: path.to_string_lossy().into_owned(),
        })),
        ..Task::default()
    };
    p.run(&task, tx).await.unwrap();
    let mut outputs = Vec::new();
    while let Some(out) = rx.recv().await {
        outputs.push(out);
    }
    let _ = std::fs::remove_dir_all(&dir);
    outputs
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    gz.write_all(bytes).unwrap();
    gz.finish().unwrap()
}

/// A WARC file task whose second gzip member decompresses past
/// `max_member`: the member is a failure event of kind `too_large` naming
/// the limit and its offset, as a payload over `max_payload` is, and the
/// record after it is still published; the task succeeds.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_warc_member_over_max_member_is_a_too_large_failure_and_reading_goes_on() {
    let bomb = {
        let mut rec = record(1);
        let zeros = 4usize << 20;
        let body = format!("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n{PAGE}");
        let from = format!("Content-Length: {}", body.len());
        let to = format!("Content-Length: {}", body.len() + zeros);
        let at = rec.len() - 4;
        rec.splice(at..at, std::iter::repeat_n(b' ', zeros));
        let rec = String::from_utf8(rec).unwrap().replacen(&from, &to, 1);
        gzip(rec.as_bytes())
    };
    let first = gzip(&record(0));
    let bomb_at = first.len();
    let file = [first, bomb, gzip(&record(2))].concat();
    let reader = ReaderOptions {
        max_member: 1 << 20,
        ..ReaderOptions::default()
    };
    let got: Vec<String> = run_warc_file("bomb.warc.gz", &file, reader)
        .await
        .into_iter()
        .map(|out| match out {
            Output::Document(d, _) => d.warc_record_id,
            Output::Failure(f) => {
                let at = format!("offset {bomb_at}");
                assert!(f.reason.contains("(max_member)"), "{}", f.reason);
                assert!(f.reason.contains(&at), "{}", f.reason);
                format!("failure:{}", f.kind)
            }
        })
        .collect();
    assert_eq!(got, ["<urn:uuid:r0>", "failure:too_large", "<urn:uuid:r2>"]);
}

/// A record with `WARC-Truncated` gives a document marked `truncated`, as
/// a fetched body cut at `max_body` does; a whole one is not marked.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_warc_truncated_record_is_published_as_truncated() {
    let cut = String::from_utf8(record(1)).unwrap().replacen(
        "WARC-Type: response\r\n",
        "WARC-Type: response\r\nWARC-Truncated: length\r\n",
        1,
    );
    let file = [record(0), cut.into_bytes()].concat();
    let got: Vec<(String, bool)> = run_warc_file("cut.warc", &file, ReaderOptions::default())
        .await
        .into_iter()
        .map(|out| match out {
            Output::Document(d, _) => (d.warc_record_id, d.truncated),
            Output::Failure(f) => panic!("{f:?}"),
        })
        .collect();
    let want = [("<urn:uuid:r0>", false), ("<urn:uuid:r1>", true)];
    assert_eq!(got, want.map(|(id, t)| (id.to_string(), t)));
}

/// A record of a WARC file task that fails extraction (a binary payload
/// served as HTML) is a failure event that names the record and its page
/// (`WARC-Target-URI`, without the credentials written into it), as a URL
/// task's events name theirs; the records around it are published.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_warc_record_that_fails_extraction_is_an_event_naming_its_page() {
    let body = [
        &b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n"[..],
        &[0u8; 256],
    ]
    .concat();
    let head = format!(
        "WARC/1.1\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:r1>\r\n\
         WARC-Target-URI: http://user:secret@deadline.example/binary\r\n\
         WARC-Date: 2024-01-01T00:00:00Z\r\n\
         Content-Type: application/http; msgtype=response\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    let binary = [head.as_bytes(), &body, b"\r\n\r\n"].concat();
    let file = [record(0), binary, record(2)].concat();
    let got: Vec<String> = run_warc_file("binary.warc", &file, ReaderOptions::default())
        .await
        .into_iter()
        .map(|out| match out {
            Output::Document(d, _) => d.warc_record_id,
            Output::Failure(f) => {
                assert_eq!(f.url, "http://deadline.example/binary", "{f:?}");
                assert_eq!(f.warc_record_id, "<urn:uuid:r1>", "{f:?}");
                format!("failure:{}/{}", f.stage, f.kind)
            }
        })
        .collect();
    assert_eq!(
        got,
        ["<urn:uuid:r0>", "failure:extract/extract", "<urn:uuid:r2>"]
    );
}

/// `record(i)` with `extra` spaces more of payload.
fn padded_record(i: usize, extra: usize) -> Vec<u8> {
    let body = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n{PAGE}{}",
        " ".repeat(extra)
    );
    format!(
        "WARC/1.1\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:r{i}>\r\n\
         WARC-Target-URI: http://deadline.example/{i}\r\nWARC-Date: 2024-01-01T00:00:00Z\r\n\
         Content-Type: application/http; msgtype=response\r\nContent-Length: {}\r\n\r\n{body}\r\n\r\n",
        body.len()
    )
    .into_bytes()
}

/// A payload over `max_payload` is a page lost to the limit, by the one
/// rule `linesift warc` and `linesift run` follow too: in a file task a
/// `warc`/`too_large` failure event naming the limit and the record's
/// offset, the records around it published; in a record task the task's
/// end as a `too_large` outcome (not a `skipped` one).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_warc_payload_over_max_payload_is_a_too_large_failure_in_file_and_record_tasks() {
    let (first, large) = (record(0), padded_record(1, 8192));
    let file = [first.clone(), large.clone(), record(2)].concat();
    let reader = ReaderOptions {
        max_payload: 4096,
        ..ReaderOptions::default()
    };
    let got: Vec<String> = run_warc_file("over-payload.warc", &file, reader)
        .await
        .into_iter()
        .map(|out| match out {
            Output::Document(d, _) => d.warc_record_id,
            Output::Failure(f) => {
                let at = format!("offset {}:", first.len());
                assert!(f.reason.contains("4096 bytes (max_payload)"), "{f:?}");
                assert!(f.reason.contains(&at), "{f:?}");
                assert!(!f.fatal, "{f:?}");
                format!("failure:{}/{}", f.stage, f.kind)
            }
        })
        .collect();
    assert_eq!(
        got,
        ["<urn:uuid:r0>", "failure:warc/too_large", "<urn:uuid:r2>"]
    );

    let dir = std::env::temp_dir().join(format!("linesift-over-record-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("over.warc");
    std::fs::write(&path, &file).unwrap();
    let task = Task {
        id: "over-record".into(),
        source: Some(task::Source::WarcRecord(linesift::proto::WarcRecord {
            path: path.to_string_lossy().into_owned(),
            offset: first.len() as u64,
            length: large.len() as u64,
        })),
        ..Task::default()
    };
    let (tx, _rx) = mpsc::channel(4);
    let error = processor_reading(Duration::from_secs(60), reader)
        .run(&task, tx)
        .await
        .expect_err("no document");
    let (stage, kind, reason) = error.parts();
    assert_eq!((stage, kind), ("warc", "too_large"), "{error:?}");
    assert!(reason.contains("(max_payload)"), "{reason}");
    assert!(error.is_outcome(), "{error:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
