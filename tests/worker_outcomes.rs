//! Outcomes and faults against the real RabbitMQ on 127.0.0.1:5672
//! (guest/guest; `.ci/run` starts it). A task that failed for good because
//! of what its page is (here an HTTP 404) is an outcome: a confirmed fatal
//! `Failure` event and an ack, nothing in the dead-letter queue. With
//! `dead_letter_outcomes` it is dead-lettered as before. A fault (a
//! malformed task) is dead-lettered either way. An outcome whose event no
//! queue takes is not acked: the event is its only record. Every test uses
//! its own randomly suffixed queues and exchanges and deletes them.

mod amqp_support;
mod fetch_support;

use amqp_support::{
    AMQP, collect, connect_with_sink, free_port, get, string_header, worker_config,
};
use fetch_support::{Request, Server, Step, article, html, not_found};
use lapin::options::{BasicGetOptions, BasicPublishOptions};
use lapin::{BasicProperties, Channel, Connection};
use linesift::fetch::{FetchOptions, Guard};
use linesift::proto::{self, Encoding, Failure, Task, WarcFile, WarcRecord, task};
use linesift::worker::{self, Names, Shutdown, WorkerConfig, topology};
use linesift::{Extractor, Options};
use std::time::{Duration, Instant};

/// A malformed task message: not protobuf.
const GARBAGE: &[u8] = b"\x08\xff\xff garbage";

fn unique(name: &str) -> String {
    amqp_support::unique("lsoutcome", name)
}

/// A page that is gone (`/gone`: 404) and one that is there.
async fn server() -> Server {
    Server::start(|r: &Request| -> Vec<Step> {
        match r.path.as_str() {
            "/gone" => not_found(),
            p => html(article(&format!("Story at {p}"), 6).as_bytes()),
        }
    })
    .await
}

/// Which routing keys of the results exchange the test's sink queue takes.
#[derive(Clone, Copy)]
enum Sink {
    /// `#`: documents and failure events.
    Everything,
    /// `document` only: failure events have no queue.
    DocumentsOnly,
}

/// The topology (delivery limit 3, as the worker's), a sink queue bound to
/// the results exchange, and a worker with its metrics on a free port.
struct Run {
    conn: Connection,
    ch: Channel,
    names: Names,
    sink: String,
    port: u16,
    shutdown: Shutdown,
    worker: tokio::task::JoinHandle<()>,
}

impl Run {
    async fn start(name: &str, sink: Sink, dead_letter_outcomes: bool) -> Run {
        let names = Names::with_prefix(&unique(name));
        let key = match sink {
            Sink::Everything => "#",
            Sink::DocumentsOnly => topology::ROUTING_DOCUMENT,
        };
        let (conn, ch, queue) = connect_with_sink(&names, key).await;
        let port = free_port();
        let config = WorkerConfig {
            http: Some(([127, 0, 0, 1], port).into()),
            dead_letter_outcomes,
            ..worker_config(&names, AMQP.into(), Duration::from_secs(10))
        };
        let fetch = FetchOptions {
            guard: Guard {
                allow_loopback: true,
                allow_private: false,
                allow_metadata: false,
            },
            robots: false,
            total_timeout: Duration::from_secs(5),
            ..FetchOptions::default()
        };
        let shutdown = Shutdown::new();
        let stopping = shutdown.clone();
        let worker = tokio::spawn(async move {
            worker::run(config, Extractor::new(Options::default()), fetch, stopping)
                .await
                .expect("worker");
        });
        Run {
            conn,
            ch,
            names,
            sink: queue,
            port,
            shutdown,
            worker,
        }
    }

    /// Publishes a URL task for `url` as `linesift enqueue` would.
    async fn url_task(&self, id: &str, url: String) -> Vec<u8> {
        self.task(id, task::Source::Url(url)).await
    }

    /// Publishes a task with `source` as `linesift enqueue` would.
    async fn task(&self, id: &str, source: task::Source) -> Vec<u8> {
        let task = Task {
            id: id.into(),
            source: Some(source),
            ..Task::default()
        };
        let (body, content_type) = proto::encode(&task, Encoding::Protobuf);
        self.publish(&body, content_type).await;
        body
    }

    async fn publish(&self, body: &[u8], content_type: &str) {
        self.ch
            .basic_publish(
                "".into(),
                self.names.tasks.as_str().into(),
                BasicPublishOptions::default(),
                body,
                BasicProperties::default().with_content_type(content_type.into()),
            )
            .await
            .expect("publish")
            .await
            .expect("confirm");
    }

    /// The first `n` failure events in the sink (30 s at most); these
    /// tests' tasks make no documents.
    async fn failures(&self, n: usize) -> Vec<Failure> {
        let (docs, failures) = collect(&self.ch, &self.sink, n).await;
        assert!(docs.is_empty(), "{} documents", docs.len());
        failures
    }

    /// The worker's metrics once every line of `lines` is among them, or
    /// after 10 s.
    async fn metrics_when(&self, lines: &[&str]) -> String {
        let deadline = Instant::now() + Duration::from_secs(10);
        let port = self.port;
        loop {
            let metrics = tokio::task::spawn_blocking(move || get(port, "/metrics"))
                .await
                .expect("metrics read");
            if lines.iter().all(|l| has_line(&metrics, l)) || Instant::now() > deadline {
                return metrics;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    /// Stops the worker (its unacked deliveries go back to the task queue),
    /// then reads what the dead-letter queue holds, (body, kind, reason),
    /// and how many tasks are left in the task queue; deletes everything.
    async fn finish(self) -> (Vec<(Vec<u8>, String, String)>, u32) {
        self.shutdown.trigger();
        tokio::time::timeout(Duration::from_secs(15), self.worker)
            .await
            .expect("stopped in time")
            .expect("worker task");
        let mut dead = Vec::new();
        while let Some(m) = self
            .ch
            .basic_get(
                self.names.dead_letter_queue.as_str().into(),
                BasicGetOptions { no_ack: true },
            )
            .await
            .expect("get")
        {
            let header = |k: &str| string_header(&m.delivery.properties, k).unwrap_or_default();
            dead.push((
                m.delivery.data.clone(),
                header(topology::HEADER_KIND),
                header(topology::HEADER_REASON),
            ));
        }
        let left = topology::ready_count(&self.ch, &self.names.tasks)
            .await
            .expect("task queue");
        topology::delete(&self.ch, &self.names)
            .await
            .expect("delete topology");
        let _ = self.conn.close(200, "done".into()).await;
        (dead, left)
    }
}

fn has_line(metrics: &str, line: &str) -> bool {
    metrics.lines().any(|l| l.trim() == line)
}

/// A 404 is an outcome: one fatal `Failure` event, not dead-lettered, and
/// the task acked (not back in the task queue once the worker stopped),
/// counted as an outcome. The malformed message beside it is a fault:
/// dead-lettered with its reason, its event saying so.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_404_is_a_confirmed_failure_event_and_an_ack_and_a_fault_is_dead_lettered() {
    let server = server().await;
    let run = Run::start("default", Sink::Everything, false).await;
    // With credentials in the URL: the event names the page without them.
    let with_secret = server.url("/gone").replacen("://", "://user:secret@", 1);
    run.url_task("gone", with_secret).await;
    run.publish(GARBAGE, "application/x-protobuf").await;

    let mut failures = run.failures(2).await;
    failures.sort_by(|a, b| b.task_id.cmp(&a.task_id));
    let (gone, garbage) = (&failures[0], &failures[1]);
    assert_eq!(gone.task_id, "gone", "{failures:?}");
    assert_eq!(
        (gone.stage.as_str(), gone.kind.as_str()),
        ("fetch", "http_status")
    );
    assert!(gone.reason.contains("404"), "{gone:?}");
    assert!(gone.fatal && !gone.dead_lettered, "{gone:?}");
    // The outcome's only record says which page it is about.
    assert_eq!(gone.url, server.url("/gone"), "{gone:?}");
    assert!(!format!("{gone:?}").contains("secret"), "{gone:?}");
    assert_eq!(garbage.kind, "invalid_message", "{garbage:?}");
    assert!(garbage.fatal && garbage.dead_lettered, "{garbage:?}");

    let metrics = run
        .metrics_when(&[
            "linesift_task_outcomes_total{reason=\"http_status\"} 1",
            "linesift_tasks_dead_lettered_total{reason=\"invalid_message\"} 1",
        ])
        .await;
    let (dead, left) = run.finish().await;
    assert!(
        has_line(
            &metrics,
            "linesift_task_outcomes_total{reason=\"http_status\"} 1"
        ),
        "{metrics}"
    );
    assert!(
        !metrics.contains("linesift_tasks_dead_lettered_total{reason=\"http_status\"}"),
        "{metrics}"
    );
    assert!(
        has_line(&metrics, "linesift_tasks_acked_total 0"),
        "{metrics}"
    );
    assert_eq!(dead.len(), 1, "{dead:?}");
    assert_eq!(dead[0].0, GARBAGE);
    assert_eq!(dead[0].1, "invalid_message");
    assert_eq!(left, 0, "the outcome's task was not acked");
    assert_eq!(server.hits("/gone"), 1);
}

/// With `dead_letter_outcomes` a 404 is dead-lettered as it was before
/// outcomes were told apart: its reason on the dead letter, its event
/// saying it is there, counted as a dead letter.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn with_dead_letter_outcomes_a_404_is_dead_lettered_as_before() {
    let server = server().await;
    let run = Run::start("legacy", Sink::Everything, true).await;
    let body = run.url_task("gone", server.url("/gone")).await;

    let failures = run.failures(1).await;
    let gone = &failures[0];
    assert_eq!(
        (gone.task_id.as_str(), gone.kind.as_str()),
        ("gone", "http_status")
    );
    assert!(gone.fatal && gone.dead_lettered, "{gone:?}");
    let counted = "linesift_tasks_dead_lettered_total{reason=\"http_status\"} 1";
    let metrics = run.metrics_when(&[counted]).await;
    let (dead, left) = run.finish().await;
    assert!(has_line(&metrics, counted), "{metrics}");
    assert!(
        !metrics.contains("linesift_task_outcomes_total{"),
        "{metrics}"
    );
    assert_eq!(dead.len(), 1, "{dead:?}");
    assert_eq!(dead[0].0, body);
    assert_eq!(dead[0].1, "http_status");
    assert!(dead[0].2.contains("404"), "{dead:?}");
    assert_eq!(left, 0);
}

/// No queue takes failure events (downstream bound only `document`): an
/// outcome's event comes back unroutable, so the task is not acked: it is
/// retried as one whose documents could not be published, fetched again
/// on each of its 3 deliveries, and dead-lettered at the limit (kind
/// `publish`, the reason naming the outcome). Never acked with its only
/// record dropped, as a publish on the events' channel (not `mandatory`)
/// would have done.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn an_outcome_whose_event_no_queue_takes_is_not_acked() {
    let server = server().await;
    let run = Run::start("unrouted", Sink::DocumentsOnly, false).await;
    let body = run.url_task("gone", server.url("/gone")).await;

    let counted = "linesift_tasks_dead_lettered_total{reason=\"publish\"} 1";
    let metrics = run.metrics_when(&[counted]).await;
    let (dead, left) = run.finish().await;
    assert!(has_line(&metrics, counted), "{metrics}");
    assert!(
        has_line(&metrics, "linesift_tasks_retried_total 2"),
        "{metrics}"
    );
    assert!(
        !metrics.contains("linesift_task_outcomes_total{"),
        "{metrics}"
    );
    assert_eq!(server.hits("/gone"), 3, "one fetch per delivery");
    assert_eq!(dead.len(), 1, "{dead:?}");
    assert_eq!(dead[0].0, body);
    assert_eq!(dead[0].1, "publish");
    let reason = &dead[0].2;
    assert!(
        reason.contains("gave up after 3 attempts")
            && reason.contains("unroutable")
            && reason.contains("fetch/http_status"),
        "{reason}"
    );
    assert_eq!(left, 0);
}

/// A dead-lettered task's event names its page as an outcome's does,
/// without the URL's credentials, however the password is spelled (an
/// `@` in it, which the URL parser writes `%40`): downstream need not
/// read the dead letter's body to know which page failed. A WARC task's
/// event and a message that is no task name none.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_dead_lettered_task_s_event_names_its_page_without_credentials() {
    let server = server().await;
    let run = Run::start("dead-url", Sink::Everything, true).await;
    let with_secret = server.url("/gone").replacen("://", "://user:secret@", 1);
    run.url_task("gone", with_secret).await;
    let with_at = server.url("/gone").replacen("://", "://user:p@ss@", 1);
    run.url_task("gone-at", with_at).await;
    let missing = WarcFile {
        path: "/nonexistent/linesift-test.warc.gz".into(),
    };
    run.task("warc", task::Source::WarcFile(missing)).await;
    run.publish(GARBAGE, "application/x-protobuf").await;

    let mut failures = run.failures(4).await;
    failures.sort_by(|a, b| b.task_id.cmp(&a.task_id));
    assert!(
        failures.iter().all(|f| f.fatal && f.dead_lettered),
        "{failures:?}"
    );
    let (warc, gone_at, gone, garbage) = (&failures[0], &failures[1], &failures[2], &failures[3]);
    for (page, id) in [(gone, "gone"), (gone_at, "gone-at")] {
        assert_eq!(
            (page.task_id.as_str(), page.kind.as_str()),
            (id, "http_status"),
            "{failures:?}"
        );
        assert_eq!(page.url, server.url("/gone"), "{page:?}");
    }
    let shown = format!("{failures:?}");
    for secret in ["secret", "user:", "p@ss", "p%40ss", "ss@"] {
        assert!(!shown.contains(secret), "{secret}: {shown}");
    }
    assert_eq!(warc.task_id, "warc", "{failures:?}");
    assert_eq!(warc.url, "", "{warc:?}");
    assert_eq!(
        (
            garbage.task_id.as_str(),
            garbage.kind.as_str(),
            garbage.url.as_str()
        ),
        ("", "invalid_message", ""),
        "{garbage:?}"
    );
    let (dead, left) = run.finish().await;
    assert_eq!(dead.len(), 4, "{dead:?}");
    for (_, _, reason) in &dead {
        for secret in ["secret", "p@ss", "p%40ss"] {
            assert!(!reason.contains(secret), "{secret}: {reason}");
        }
    }
    assert_eq!(left, 0);
}

/// A record task whose WARC file does not exist is a fault at once: it is
/// dead-lettered with kind `open` on its first delivery, naming the file,
/// not retried as a transient I/O error until its deliveries run out.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_record_task_for_a_missing_file_is_dead_lettered_at_once() {
    let run = Run::start("missing", Sink::Everything, false).await;
    let path = "/nonexistent/linesift-missing.warc.gz";
    let record = WarcRecord {
        path: path.into(),
        offset: 0,
        length: 0,
    };
    run.task("missing", task::Source::WarcRecord(record)).await;
    let counted = "linesift_tasks_dead_lettered_total{reason=\"open\"} 1";
    let metrics = run.metrics_when(&[counted]).await;
    assert!(has_line(&metrics, counted), "{metrics}");
    assert!(
        has_line(&metrics, "linesift_tasks_retried_total 0"),
        "{metrics}"
    );
    assert!(
        has_line(&metrics, "linesift_tasks_received_total 1"),
        "{metrics}"
    );
    let failures = run.failures(1).await;
    assert_eq!(
        (failures[0].stage.as_str(), failures[0].kind.as_str()),
        ("warc", "open")
    );
    let (dead, left) = run.finish().await;
    assert_eq!(dead.len(), 1, "{dead:?}");
    assert_eq!(dead[0].1, "open");
    assert!(
        dead[0].2.contains(path) && !dead[0].2.contains("gave up"),
        "{}",
        dead[0].2
    );
    assert_eq!(left, 0);
}

/// A WARC file task whose file holds no record (an empty file) is no WARC
/// file: a `warc/format` fault, dead-lettered on its first delivery with
/// a reason naming the file, its event saying so; never acked as a task
/// done with nothing in it, as it was before `linesift run` and the worker
/// told an empty file apart.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_warc_file_task_whose_file_holds_no_record_is_dead_lettered() {
    let run = Run::start("no-record", Sink::Everything, false).await;
    let empty = std::env::temp_dir().join(format!("{}.warc", unique("empty")));
    std::fs::write(&empty, b"").expect("write the empty file");
    let path = empty.display().to_string();
    let file = WarcFile { path: path.clone() };
    let body = run.task("empty", task::Source::WarcFile(file)).await;

    let counted = "linesift_tasks_dead_lettered_total{reason=\"format\"} 1";
    let metrics = run.metrics_when(&[counted]).await;
    assert!(has_line(&metrics, counted), "{metrics}");
    for line in [
        "linesift_tasks_acked_total 0",
        "linesift_tasks_retried_total 0",
        "linesift_tasks_received_total 1",
    ] {
        assert!(has_line(&metrics, line), "{line}: {metrics}");
    }
    assert!(
        !metrics.contains("linesift_task_outcomes_total{"),
        "{metrics}"
    );
    let failures = run.failures(1).await;
    let failure = &failures[0];
    assert_eq!(
        (
            failure.task_id.as_str(),
            failure.stage.as_str(),
            failure.kind.as_str()
        ),
        ("empty", "warc", "format"),
        "{failure:?}"
    );
    assert!(failure.fatal && failure.dead_lettered, "{failure:?}");
    assert!(failure.reason.contains("holds no record"), "{failure:?}");
    let (dead, left) = run.finish().await;
    let _ = std::fs::remove_file(&empty);
    assert_eq!(dead.len(), 1, "{dead:?}");
    assert_eq!(dead[0].0, body);
    assert_eq!(dead[0].1, "format");
    assert!(
        dead[0].2.contains(&path) && dead[0].2.contains("holds no record"),
        "{}",
        dead[0].2
    );
    assert_eq!(left, 0);
}
