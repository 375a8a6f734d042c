//! The queue worker at scale and under faults, against the real RabbitMQ on
//! 127.0.0.1:5672 (guest/guest): `linesift enqueue` and `linesift worker`
//! run as processes, a test consumer bound to the results exchange collects
//! what they publish. Faults: SIGKILL of a worker, `rabbitmqctl
//! close_all_connections`, pages answering 503.
//!
//! Every test has its own randomly named queues and exchanges, deleted on
//! drop (also after a failed assertion); worker processes are killed on
//! drop; every wait has a deadline. The tests take a lock so that one
//! test's broker fault does not hit another test of this file.

mod amqp_support;
mod fetch_support;

use amqp_support::{AMQP, assert_counters_add_up, string_header, warc_of};
use fetch_support::{Request, Server, Step, article, html, response};
use futures_util::StreamExt;
use lapin::options::{
    BasicAckOptions, BasicConsumeOptions, BasicGetOptions, QueueDeclareOptions, QueueDeleteOptions,
};
use lapin::types::FieldTable;
use lapin::{Connection, ConnectionProperties};
use linesift::proto::{self, DocumentMessage, Failure};
use linesift::worker::enqueue::{Batcher, DEFAULT_BATCH, LineKind, Ready, parse_tasks};
use linesift::worker::{Names, topology};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::process::{Child, Command};
use tokio::time::Instant;

const BIN: &str = env!("CARGO_BIN_EXE_linesift");

/// One test at a time: `close_all_connections` hits every connection.
static SERIAL: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

fn unique(name: &str) -> String {
    amqp_support::unique("lsfault", name)
}

/// Runs a test body with a hard time limit.
async fn bounded<F: std::future::Future<Output = ()>>(limit: Duration, body: F) {
    let _serial = SERIAL.lock().await;
    if tokio::time::timeout(limit, body).await.is_err() {
        panic!("test did not finish within {limit:?}");
    }
}

// ---------------------------------------------------------------------------
// Broker objects: the worker topology plus a durable sink queue bound to the
// results exchange, deleted on drop.

struct Broker {
    prefix: String,
    names: Names,
    sink: String,
    delivery_limit: u32,
    dir: PathBuf,
}

impl Broker {
    async fn new(name: &str, delivery_limit: u32) -> Broker {
        let prefix = unique(name);
        let names = Names::with_prefix(&prefix);
        let sink = format!("{prefix}.sink");
        let dir = std::env::temp_dir().join(&prefix);
        std::fs::create_dir_all(&dir).expect("temp dir");
        let broker = Broker {
            prefix,
            names,
            sink,
            delivery_limit,
            dir,
        };
        let conn = connect().await;
        let ch = conn.create_channel().await.expect("channel");
        topology::declare(&conn, &broker.names, delivery_limit)
            .await
            .expect("declare topology");
        // Durable and not exclusive: it must outlive the test's own
        // connection when the broker drops every connection.
        ch.queue_declare(
            broker.sink.as_str().into(),
            QueueDeclareOptions::durable(),
            FieldTable::default(),
        )
        .await
        .expect("sink queue");
        topology::bind_to_results(&ch, &broker.names, &broker.sink)
            .await
            .expect("bind sink");
        let _ = conn.close(200, "setup done".into()).await;
        broker
    }

    fn file(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    /// `linesift enqueue` on a list, as a process.
    async fn enqueue(&self, kind: &str, lines: &str) {
        let list = self.file(&format!("{kind}.list"));
        std::fs::write(&list, lines).expect("write list");
        let mut cmd = Command::new(BIN);
        cmd.arg("enqueue")
            .arg(&list)
            .args(["--kind", kind])
            .args(["--delivery-limit", &self.delivery_limit.to_string()])
            .env("AMQP_URL", AMQP)
            .env("LINESIFT_PREFIX", &self.prefix)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .kill_on_drop(true);
        let out = tokio::time::timeout(Duration::from_secs(30), cmd.output())
            .await
            .expect("enqueue within 30 s")
            .expect("run linesift enqueue");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "linesift enqueue failed: {stderr}");
        let count = enqueued(kind, lines).len();
        assert!(
            stderr.contains(&format!("{count} task(s) confirmed")),
            "{stderr}"
        );
    }

    /// A `linesift worker` process on this broker's queues.
    fn worker(&self, tag: &str, extra: &[&str]) -> Worker {
        self.worker_draining(tag, "5", extra)
    }

    /// [`Broker::worker`] with its own drain deadline, in seconds.
    fn worker_draining(&self, tag: &str, drain_deadline: &str, extra: &[&str]) -> Worker {
        let log = self.file(&format!("worker-{tag}.log"));
        let stderr = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&log)
            .expect("worker log");
        let child = Command::new(BIN)
            .arg("worker")
            .args(["--allow-private", "--no-robots", "--http", "off"])
            .args(["--delivery-limit", &self.delivery_limit.to_string()])
            .args(["--host-interval", "0", "--retry-delay", "0.1"])
            .args([
                "--reconnect-delay",
                "0.3",
                "--drain-deadline",
                drain_deadline,
            ])
            .args(["--fetch-timeout", "10"])
            // The test's sink is bound to the results exchange already.
            .arg("--no-bind-results")
            .args(extra)
            .env("AMQP_URL", AMQP)
            .env("LINESIFT_PREFIX", &self.prefix)
            .stdout(Stdio::null())
            .stderr(stderr)
            .kill_on_drop(true)
            .spawn()
            .expect("spawn linesift worker");
        Worker { child, log }
    }

    /// Messages waiting in a queue of this test.
    async fn depth(&self, queue: &str) -> u32 {
        let conn = connect().await;
        let ch = conn.create_channel().await.expect("channel");
        let n = topology::ready_count(&ch, queue)
            .await
            .expect("passive declare");
        let _ = conn.close(200, "done".into()).await;
        n
    }
}

impl Drop for Broker {
    fn drop(&mut self) {
        let (names, sink) = (self.names.clone(), self.sink.clone());
        // Drop cannot await, and may run during a panic: a thread with its
        // own runtime, bounded.
        let cleanup = std::thread::spawn(move || {
            let Ok(rt) = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
            else {
                return;
            };
            rt.block_on(async move {
                let work = async {
                    let conn = Connection::connect(AMQP, ConnectionProperties::default()).await?;
                    let ch = conn.create_channel().await?;
                    ch.queue_delete(sink.as_str().into(), QueueDeleteOptions::default())
                        .await?;
                    topology::delete(&ch, &names).await?;
                    let _ = conn.close(200, "cleanup".into()).await;
                    Ok::<_, lapin::Error>(())
                };
                if let Ok(Err(e)) = tokio::time::timeout(Duration::from_secs(10), work).await {
                    eprintln!("cleanup of {}: {e}", names.tasks);
                }
            });
        });
        let _ = cleanup.join();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

async fn connect() -> Connection {
    Connection::connect(AMQP, ConnectionProperties::default())
        .await
        .expect("RabbitMQ on 127.0.0.1:5672 (start it with rabbitmq-server -detached)")
}

struct Worker {
    child: Child,
    log: PathBuf,
}

impl Worker {
    /// SIGKILL, and reap.
    async fn kill(&mut self) {
        self.child.start_kill().expect("SIGKILL");
        tokio::time::timeout(Duration::from_secs(10), self.child.wait())
            .await
            .expect("killed worker exits")
            .expect("wait");
    }

    fn assert_running(&mut self) {
        let status = self.child.try_wait().expect("try_wait");
        assert!(
            status.is_none(),
            "worker exited ({status:?}); log: {}",
            log_tail(&self.log)
        );
    }

    /// SIGTERM and wait for the drain (the clean end of every test); the
    /// counters it logs as it stops must add up. Returns them.
    async fn stop(mut self) -> std::collections::BTreeMap<String, i64> {
        if let Some(pid) = self.child.id() {
            let _ = std::process::Command::new("kill")
                .args(["-TERM", &pid.to_string()])
                .status();
        }
        let status = tokio::time::timeout(Duration::from_secs(15), self.child.wait())
            .await
            .expect("worker drains within 15 s")
            .expect("wait");
        assert!(
            status.success(),
            "worker exit {status:?}: {}",
            log_tail(&self.log)
        );
        assert_counters_add_up(&std::fs::read_to_string(&self.log).unwrap_or_default())
    }
}

fn log_tail(path: &Path) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(15)..].join("\n")
}

// ---------------------------------------------------------------------------
// The test consumer: reads the sink queue, acks after recording, and
// reconnects when the broker drops it (redeliveries are duplicates with the
// same ids, which the checks allow).

#[derive(Default)]
struct Collected {
    docs: Vec<DocumentMessage>,
    failures: Vec<Failure>,
    distinct: BTreeSet<String>,
    sessions: usize,
}

struct Collector {
    seen: Arc<Mutex<Collected>>,
    task: tokio::task::JoinHandle<()>,
}

impl Collector {
    fn start(queue: &str) -> Collector {
        let seen = Arc::new(Mutex::new(Collected::default()));
        let (queue, shared) = (queue.to_string(), seen.clone());
        let task = tokio::spawn(async move {
            loop {
                if let Err(e) = collect_session(&queue, &shared).await {
                    eprintln!("collector: {e}; reconnecting");
                }
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
        });
        Collector { seen, task }
    }

    fn distinct(&self) -> usize {
        self.seen.lock().expect("collected").distinct.len()
    }

    /// Waits until `done` holds, panicking with `what` after `limit`.
    async fn wait(&self, limit: Duration, what: &str, done: impl Fn(&Collected) -> bool) {
        let deadline = Instant::now() + limit;
        loop {
            {
                let seen = self.seen.lock().expect("collected");
                if done(&seen) {
                    return;
                }
                assert!(
                    Instant::now() < deadline,
                    "{what}: after {limit:?} only {} distinct documents ({} messages), {} failures",
                    seen.distinct.len(),
                    seen.docs.len(),
                    seen.failures.len()
                );
            }
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
    }

    fn snapshot(&self) -> (Vec<DocumentMessage>, Vec<Failure>, usize) {
        let seen = self.seen.lock().expect("collected");
        (seen.docs.clone(), seen.failures.clone(), seen.sessions)
    }
}

impl Drop for Collector {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// How long a collector's session may go without a delivery before it
/// starts over (see `collect_session`).
const COLLECTOR_IDLE: Duration = Duration::from_secs(3);

async fn collect_session(queue: &str, seen: &Mutex<Collected>) -> Result<(), lapin::Error> {
    let conn = Connection::connect(AMQP, ConnectionProperties::default()).await?;
    let ch = conn.create_channel().await?;
    let mut consumer = ch
        .basic_consume(
            queue.into(),
            "".into(),
            BasicConsumeOptions::default(),
            FieldTable::default(),
        )
        .await?;
    seen.lock().expect("collected").sessions += 1;
    loop {
        // A consumer whose connection the broker closed may never yield
        // again (lapin's stream can miss the close: amqp-rs/lapin#222,
        // #283). So a session idle this long ends, closing its connection
        // (any delivery not yet acked goes back to the queue), and the
        // loop in `Collector::start` opens a new one; the test's limits
        // are 15 s and more.
        let d = match tokio::time::timeout(COLLECTOR_IDLE, consumer.next()).await {
            Ok(Some(delivery)) => delivery?,
            Ok(None) => break,
            Err(_) => {
                let closing = conn.close(200, "collector idle".into());
                let _ = tokio::time::timeout(Duration::from_secs(2), closing).await;
                return Ok(());
            }
        };
        let ct = d.properties.content_type().as_ref().map(|c| c.to_string());
        {
            let mut seen = seen.lock().expect("collected");
            if d.routing_key.as_str() == topology::ROUTING_DOCUMENT {
                let doc =
                    proto::decode::<DocumentMessage>(&d.data, ct.as_deref()).expect("document");
                seen.distinct.insert(doc.document_id.clone());
                seen.docs.push(doc);
            } else {
                let failure = proto::decode::<Failure>(&d.data, ct.as_deref()).expect("failure");
                seen.failures.push(failure);
            }
        }
        d.ack(BasicAckOptions::default()).await?;
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// Workloads.

/// Task lists for `linesift enqueue` and the documents they must yield:
/// document id → task id.
struct Workload {
    urls: String,
    records: String,
    expected: BTreeMap<String, String>,
}

/// `n_urls` pages of `server` and `n_records` records of a WARC written to
/// `warc`, one task each.
fn workload(server: &Server, warc: &Path, n_urls: usize, n_records: usize) -> Workload {
    let urls: String = (0..n_urls)
        .map(|i| server.url(&format!("/page/{i}")) + "\n")
        .collect();
    let (bytes, placed) = warc_of((0..n_records).map(|i| {
        (
            format!("http://archive.example/{i}"),
            article(&format!("Archived story {i}"), 5),
        )
    }));
    std::fs::write(warc, bytes).expect("write warc");
    let records: String = placed
        .iter()
        .map(|(offset, length, _)| format!("{} {offset} {length}\n", warc.display()))
        .collect();
    let record_ids: Vec<String> = placed.into_iter().map(|(_, _, id)| id).collect();

    let mut expected = BTreeMap::new();
    let url_tasks = parse_tasks(&urls, LineKind::Urls).expect("url list");
    for (t, line) in url_tasks.iter().zip(urls.lines()) {
        expected.insert(
            linesift::sink::message::document_id(&t.id, line),
            t.id.clone(),
        );
    }
    // Batched as `linesift enqueue` batches them: a record's document is
    // its batch task's.
    for Ready { task, lines } in enqueued("warc-records", &records) {
        for record_id in &record_ids[lines.0 - 1..lines.1] {
            expected.insert(
                linesift::sink::message::document_id(&task.id, record_id),
                task.id.clone(),
            );
        }
    }
    assert_eq!(expected.len(), n_urls + n_records, "task ids collide");
    Workload {
        urls,
        records,
        expected,
    }
}

/// The tasks `linesift enqueue --kind KIND` makes of `lines` (record lines
/// batched by its default `--batch`), with the lines each stands for.
fn enqueued(kind: &str, lines: &str) -> Vec<Ready> {
    let (line_kind, batch) = match kind {
        "urls" => (LineKind::Urls, 1),
        "warc-records" => (LineKind::WarcRecords, DEFAULT_BATCH),
        other => panic!("kind {other}"),
    };
    let mut batcher = Batcher::new(batch);
    let mut ready = Vec::new();
    for (i, task) in parse_tasks(lines, line_kind)
        .expect("list")
        .into_iter()
        .enumerate()
    {
        ready.extend(batcher.add(task, i + 1));
    }
    ready.extend(batcher.flush());
    ready
}

/// Every task yielded exactly its documents: the distinct ids are exactly
/// the expected ones, each under its own task, and repeated ids (from
/// redeliveries) repeat the same document. Returns the duplicate count.
fn check_documents(docs: &[DocumentMessage], expected: &BTreeMap<String, String>) -> usize {
    let mut by_id: BTreeMap<&str, &DocumentMessage> = BTreeMap::new();
    let mut duplicates = 0;
    for d in docs {
        let task = expected
            .get(&d.document_id)
            .unwrap_or_else(|| panic!("unexpected document {} ({})", d.document_id, d.url));
        assert_eq!(&d.task_id, task, "document {} under a wrong task", d.url);
        assert!(!d.text.is_empty(), "empty text for {}", d.url);
        if let Some(first) = by_id.insert(&d.document_id, d) {
            duplicates += 1;
            assert_eq!(
                (&first.task_id, &first.url, &first.digest),
                (&d.task_id, &d.url, &d.digest),
                "a duplicate id with a different document"
            );
        }
    }
    let missing: Vec<&String> = expected
        .keys()
        .filter(|k| !by_id.contains_key(k.as_str()))
        .collect();
    assert!(
        missing.is_empty(),
        "{} of {} documents missing",
        missing.len(),
        expected.len()
    );
    duplicates
}

fn article_server(pause: Duration) -> impl Fn(&Request) -> Vec<Step> + Send + Sync + 'static {
    move |r: &Request| {
        let mut steps = Vec::new();
        if !pause.is_zero() {
            steps.push(Step::Sleep(pause));
        }
        steps.extend(html(article(&format!("Story at {}", r.path), 4).as_bytes()));
        steps
    }
}

// ---------------------------------------------------------------------------

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn thousand_tasks_through_enqueue_and_two_worker_processes() {
    bounded(Duration::from_secs(60), async {
        let server = Server::start(article_server(Duration::ZERO)).await;
        let broker = Broker::new("e2e", 3).await;
        let load = workload(&server, &broker.file("e2e.warc"), 700, 300);
        let collector = Collector::start(&broker.sink);
        let started = std::time::Instant::now();
        broker.enqueue("urls", &load.urls).await;
        broker.enqueue("warc-records", &load.records).await;
        let flags = ["--concurrency", "16", "--prefetch", "32"];
        let workers = [broker.worker("a", &flags), broker.worker("b", &flags)];
        let n = load.expected.len();
        collector
            .wait(Duration::from_secs(40), "1,000 tasks", |c| {
                c.distinct.len() >= n
            })
            .await;
        let elapsed = started.elapsed();
        for w in workers {
            w.stop().await;
        }
        let (docs, failures, _) = collector.snapshot();
        let duplicates = check_documents(&docs, &load.expected);
        assert!(failures.is_empty(), "{failures:?}");
        assert_eq!(broker.depth(&broker.names.tasks).await, 0);
        assert_eq!(broker.depth(&broker.names.dead_letter_queue).await, 0);
        eprintln!(
            "{n} tasks in {elapsed:?}: {} documents, {duplicates} duplicates, {} page hits",
            docs.len(),
            server.requests().len()
        );
        drop(collector);
    })
    .await;
}

/// Enqueues a slowed-down mixed workload, runs two workers, applies `fault`
/// once a fifth of the documents is in, and checks that nothing is lost.
/// `settled` must hold for both workers' logs (within 10 s) before they
/// are stopped.
async fn survive(
    name: &str,
    fault: impl AsyncFnOnce(&Broker, &mut [Worker; 2]),
    settled: impl Fn(&str) -> bool,
) {
    // 30 ms per page and 4 tasks per worker: a run of about a second and a
    // half, so the fault lands mid-run.
    let server = Server::start(article_server(Duration::from_millis(30))).await;
    let broker = Broker::new(name, 5).await;
    let load = workload(&server, &broker.file("faults.warc"), 200, 100);
    let n = load.expected.len();
    let collector = Collector::start(&broker.sink);
    broker.enqueue("urls", &load.urls).await;
    broker.enqueue("warc-records", &load.records).await;
    let flags = ["--concurrency", "4", "--prefetch", "4"];
    let mut workers = [broker.worker("a", &flags), broker.worker("b", &flags)];
    collector
        .wait(Duration::from_secs(15), "first fifth", |c| {
            c.distinct.len() >= n / 5
        })
        .await;
    let before = collector.distinct();
    assert!(before < n, "the run was over before the fault");
    fault(&broker, &mut workers).await;
    collector
        .wait(Duration::from_secs(20), "after the fault", |c| {
            c.distinct.len() >= n
        })
        .await;
    for w in &mut workers {
        w.assert_running();
    }
    let deadline = Instant::now() + Duration::from_secs(10);
    for w in &workers {
        loop {
            let log = std::fs::read_to_string(&w.log).unwrap_or_default();
            if settled(&log) {
                break;
            }
            assert!(Instant::now() < deadline, "worker log: {log}");
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }
    // Whatever the fault did to them, the workers still running account
    // for every delivery they received (`stop` checks the equation).
    let [a, b] = workers;
    let received = a.stop().await["received"] + b.stop().await["received"];
    assert!(received >= n as i64 / 2, "{received} deliveries received");
    let (docs, failures, sessions) = collector.snapshot();
    let duplicates = check_documents(&docs, &load.expected);
    assert!(failures.is_empty(), "{failures:?}");
    assert_eq!(broker.depth(&broker.names.tasks).await, 0);
    assert_eq!(broker.depth(&broker.names.dead_letter_queue).await, 0);
    eprintln!(
        "{name}: fault after {before}/{n} documents; {} messages, {duplicates} duplicates, \
         {sessions} collector session(s)",
        docs.len()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn sigkilled_worker_restarted_loses_nothing() {
    bounded(Duration::from_secs(45), async {
        survive(
            "kill",
            async |broker: &Broker, workers: &mut [Worker; 2]| {
                workers[0].kill().await;
                workers[0] = broker.worker("a2", &["--concurrency", "4", "--prefetch", "4"]);
            },
            |log| log.contains("consuming from"),
        )
        .await;
    })
    .await;
}

/// The worker lost its connection and consumes again since.
fn reconnected(log: &str) -> bool {
    match (log.find("connection lost"), log.rfind("consuming from")) {
        (Some(lost), Some(consuming)) => consuming > lost,
        _ => false,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn dropped_broker_connections_are_survived() {
    bounded(Duration::from_secs(45), async {
        let fault = async |_: &Broker, _: &mut [Worker; 2]| {
            let mut cmd = Command::new("rabbitmqctl");
            cmd.args(["close_all_connections", "test"])
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .kill_on_drop(true);
            let out = tokio::time::timeout(Duration::from_secs(30), cmd.output())
                .await
                .expect("rabbitmqctl within 30 s")
                .expect("run rabbitmqctl");
            assert!(
                out.status.success(),
                "rabbitmqctl: {}",
                String::from_utf8_lossy(&out.stderr)
            );
        };
        survive("close", fault, reconnected).await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn transient_failures_are_retried_then_dead_lettered() {
    bounded(Duration::from_secs(30), async {
        let limit = 4;
        let server = Server::start(move |r: &Request| -> Vec<Step> {
            let unavailable = || {
                response(
                    "503 Service Unavailable",
                    &[("Content-Type", "text/plain")],
                    b"try later",
                )
            };
            match r.path.as_str() {
                "/down" => unavailable(),
                _ => html(article("Back again", 5).as_bytes()),
            }
        })
        .await;
        // The flaky page: 503 twice, then fine. The server's handler has no
        // state, so a second server counts.
        let flaky_hits = Arc::new(AtomicUsize::new(0));
        let hits = flaky_hits.clone();
        let flaky = Server::start(move |_: &Request| -> Vec<Step> {
            if hits.fetch_add(1, Ordering::SeqCst) < 2 {
                response(
                    "503 Service Unavailable",
                    &[("Content-Type", "text/plain")],
                    b"try later",
                )
            } else {
                html(article("Back again", 5).as_bytes())
            }
        })
        .await;
        let broker = Broker::new("retry", limit).await;
        let collector = Collector::start(&broker.sink);
        let (down_url, flaky_url) = (server.url("/down"), flaky.url("/flaky"));
        let list = format!("{down_url}\n{flaky_url}\n");
        let tasks = parse_tasks(&list, LineKind::Urls).expect("list");
        let (down_task, flaky_task) = (tasks[0].id.clone(), tasks[1].id.clone());
        broker.enqueue("urls", &list).await;
        // No retries inside a delivery: every attempt is a queue delivery.
        let worker = broker.worker("a", &["--fetch-retries", "0", "--concurrency", "2"]);

        collector
            .wait(
                Duration::from_secs(30),
                "flaky document and fatal failure",
                |c| !c.distinct.is_empty() && !c.failures.is_empty(),
            )
            .await;
        let (docs, failures, _) = collector.snapshot();
        assert_eq!(docs[0].task_id, flaky_task);
        assert_eq!(
            docs[0].document_id,
            linesift::sink::message::document_id(&flaky_task, &flaky_url)
        );
        assert_eq!(flaky_hits.load(Ordering::SeqCst), 3, "503, 503, 200");
        let failure = &failures[0];
        assert_eq!(failure.task_id, down_task);
        assert!(failure.fatal, "{failure:?}");
        assert_eq!(failure.kind, "http_status", "{failure:?}");
        assert_eq!(
            server.hits("/down"),
            limit as usize,
            "one fetch per delivery, up to the delivery limit"
        );

        // The dead letter: the original task with our reason.
        let conn = connect().await;
        let ch = conn.create_channel().await.expect("channel");
        let deadline = Instant::now() + Duration::from_secs(10);
        let dead = loop {
            let got = ch
                .basic_get(
                    broker.names.dead_letter_queue.as_str().into(),
                    BasicGetOptions { no_ack: true },
                )
                .await
                .expect("basic.get");
            if let Some(m) = got {
                break m;
            }
            assert!(Instant::now() < deadline, "no dead letter");
            tokio::time::sleep(Duration::from_millis(100)).await;
        };
        let header = |k: &str| {
            string_header(&dead.delivery.properties, k)
                .unwrap_or_else(|| panic!("header {k}: {:?}", dead.delivery.properties.headers()))
        };
        let (kind, reason) = (
            header(topology::HEADER_KIND),
            header(topology::HEADER_REASON),
        );
        assert_eq!(kind, "http_status");
        assert!(
            reason.contains(&format!("gave up after {limit} attempts")) && reason.contains("503"),
            "{reason}"
        );
        let ct = dead
            .delivery
            .properties
            .content_type()
            .as_ref()
            .map(|c| c.to_string());
        let task = proto::decode_task(&dead.delivery.data, ct.as_deref()).expect("dead task");
        assert_eq!(task.id, down_task);
        let _ = conn.close(200, "done".into()).await;

        let log = std::fs::read_to_string(&worker.log).unwrap_or_default();
        assert!(log.contains("requeued"), "{log}");
        worker.stop().await;
        assert_eq!(broker.depth(&broker.names.tasks).await, 0);
        assert_eq!(server.hits("/down"), limit as usize, "no attempt after");
        drop(collector);
    })
    .await;
}

/// A drain deadline that passes with tasks still running leaves them
/// unsettled, counted as abandoned: the stopped worker's counters add up,
/// and a second worker does those tasks, nothing lost.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn tasks_cut_off_by_the_drain_deadline_are_counted_as_abandoned() {
    bounded(Duration::from_secs(45), async {
        let server = Server::start(article_server(Duration::from_secs(3))).await;
        let broker = Broker::new("drain", 5).await;
        let load = workload(&server, &broker.file("drain.warc"), 8, 0);
        let collector = Collector::start(&broker.sink);
        broker.enqueue("urls", &load.urls).await;
        let flags = ["--concurrency", "4", "--prefetch", "4"];
        let first = broker.worker_draining("first", "0.5", &flags);
        let deadline = Instant::now() + Duration::from_secs(15);
        while server.requests().len() < 4 {
            assert!(Instant::now() < deadline, "the worker took no task");
            tokio::time::sleep(Duration::from_millis(25)).await;
        }
        let cut = first.stop().await;
        assert!(cut["abandoned"] >= 4, "{cut:?}");
        let second = broker.worker("second", &flags);
        let n = load.expected.len();
        collector
            .wait(Duration::from_secs(25), "every document", |c| {
                c.distinct.len() >= n
            })
            .await;
        second.stop().await;
        let (docs, failures, _) = collector.snapshot();
        check_documents(&docs, &load.expected);
        assert!(failures.is_empty(), "{failures:?}");
        assert_eq!(broker.depth(&broker.names.tasks).await, 0);
        drop(collector);
    })
    .await;
}
