//! The queue worker against the real RabbitMQ on 127.0.0.1:5672
//! (guest/guest; `.ci/run` starts it). Every test uses its own randomly
//! suffixed queues and exchanges and deletes them at the end (and one a
//! policy on its own delay queue, set and cleared with `rabbitmqctl`).

mod amqp_support;
mod fetch_support;

use amqp_support::proxy::Proxy;
use amqp_support::{
    AMQP, collect, connect_with_sink, free_port, get, publish_raw, string_header, warc_of,
    worker_config,
};
use fetch_support::{Request, Server, Step, article, html, not_found, response};
use lapin::options::{
    BasicAckOptions, BasicGetOptions, BasicPublishOptions, ConfirmSelectOptions,
    QueueDeclareOptions, QueueDeleteOptions,
};
use lapin::types::{AMQPValue, FieldTable};
use lapin::{BasicProperties, Channel, Connection, ConnectionProperties};
use linesift::fetch::{FetchOptions, Fetcher, Guard, RetryPolicy};
use linesift::proto::{
    self, DocumentMessage, Encoding, Failure, RecordSpan, Task, WarcFile, WarcRecord, WarcRecords,
    task,
};
use linesift::warc::ReaderOptions;
use linesift::worker::http::Health;
use linesift::worker::publish::count_header;
use linesift::worker::tally::Totals;
use linesift::worker::topology::{HEADER_ATTEMPTS, HEADER_DEFERRALS};
use linesift::worker::{
    self, Metrics, Names, Processor, Shutdown, WorkerConfig, consume, topology,
};
use linesift::{Extractor, Options};
use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

fn unique(name: &str) -> String {
    amqp_support::unique("lstest", name)
}

/// The support module's small worker on the test broker, with a drain
/// deadline of 10 s.
fn config(names: &Names) -> WorkerConfig {
    worker_config(names, AMQP.into(), Duration::from_secs(10))
}

fn fetch_options() -> FetchOptions {
    FetchOptions {
        guard: Guard {
            allow_loopback: true,
            allow_private: false,
            allow_metadata: false,
        },
        robots: false,
        total_timeout: Duration::from_secs(5),
        ..FetchOptions::default()
    }
}

/// A connection, the topology, and a result queue bound to everything.
async fn setup(names: &Names) -> (Connection, Channel, String) {
    connect_with_sink(names, "#").await
}

async fn teardown(conn: Connection, ch: &Channel, names: &Names) {
    topology::delete(ch, names).await.expect("delete topology");
    let _ = conn.close(200, "done".into()).await;
}

/// Dead-lettered messages: (body, x-linesift-kind, x-linesift-reason).
async fn dead_letters(ch: &Channel, queue: &str, n: usize) -> Vec<(Vec<u8>, String, String)> {
    let mut out = Vec::new();
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    while out.len() < n && tokio::time::Instant::now() < deadline {
        match ch
            .basic_get(queue.into(), BasicGetOptions::default())
            .await
            .expect("get")
        {
            Some(m) => {
                let header = |k: &str| string_header(&m.delivery.properties, k).unwrap_or_default();
                out.push((
                    m.delivery.data.clone(),
                    header(topology::HEADER_KIND),
                    header(topology::HEADER_REASON),
                ));
                m.delivery
                    .ack(BasicAckOptions::default())
                    .await
                    .expect("ack");
            }
            None => tokio::time::sleep(Duration::from_millis(100)).await,
        }
    }
    out
}

/// A plain WARC of `n` HTML responses; returns its path and each record's
/// (offset, length, record id). Record 1's `WARC-Target-URI` carries
/// credentials (`user:secret@`), which its document must not.
fn write_warc(name: &str, n: usize) -> (PathBuf, Vec<(u64, u64, String)>) {
    let path = std::env::temp_dir().join(format!("{}.warc", unique(name)));
    let (bytes, records) = warc_of((0..n).map(|i| {
        (
            format!(
                "http://{}example.org/{i}",
                if i == 1 { "user:secret@" } else { "" }
            ),
            article(&format!("Archived story {i}"), 6),
        )
    }));
    std::fs::write(&path, bytes).expect("write warc");
    (path, records)
}

fn task(id: &str, source: task::Source) -> Task {
    Task {
        id: id.into(),
        source: Some(source),
        ..Task::default()
    }
}

fn spawn_worker(names: &Names, shutdown: &Shutdown) -> tokio::task::JoinHandle<()> {
    spawn_worker_with(config(names), shutdown)
}

fn spawn_worker_with(config: WorkerConfig, shutdown: &Shutdown) -> tokio::task::JoinHandle<()> {
    spawn_worker_fetching(config, fetch_options(), shutdown)
}

fn spawn_worker_fetching(
    config: WorkerConfig,
    fetch: FetchOptions,
    shutdown: &Shutdown,
) -> tokio::task::JoinHandle<()> {
    let shutdown = shutdown.clone();
    tokio::spawn(async move {
        worker::run(config, Extractor::new(Options::default()), fetch, shutdown)
            .await
            .expect("worker");
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_workers_publish_every_result_and_dead_letter_poison() {
    let server = Server::start(|r: &Request| -> Vec<Step> {
        match r.path.as_str() {
            "/gone" => not_found(),
            p => html(article(&format!("Story at {p}"), 8).as_bytes()),
        }
    })
    .await;
    let names = Names::with_prefix(&unique("e2e"));
    let (conn, ch, sink) = setup(&names).await;
    let (warc, records) = write_warc("e2e", 3);
    let warc_path = warc.display().to_string();
    let mut tasks: Vec<Task> = (0..4)
        .map(|i| {
            task(
                &format!("url-{i}"),
                task::Source::Url(server.url(&format!("/page/{i}"))),
            )
        })
        .collect();
    tasks.push(task(
        "file",
        task::Source::WarcFile(WarcFile {
            path: warc_path.clone(),
        }),
    ));
    let (offset, length, record_id) = records[1].clone();
    tasks.push(task(
        "record",
        task::Source::WarcRecord(WarcRecord {
            path: warc_path,
            offset,
            length,
        }),
    ));
    // A 404: an outcome, a fatal failure event and no dead letter.
    tasks.push(task("gone", task::Source::Url(server.url("/gone"))));
    let sent = worker::enqueue::enqueue(AMQP, &names, 3, &tasks, Encoding::Json)
        .await
        .expect("enqueue");
    assert_eq!(sent, tasks.len());
    publish_raw(
        &ch,
        &names.tasks,
        b"\x08\xff\xff garbage",
        "application/x-protobuf",
    )
    .await;

    let shutdown = Shutdown::new();
    let workers = [
        spawn_worker(&names, &shutdown),
        spawn_worker(&names, &shutdown),
    ];
    // 4 URL documents, 3 from the file, 1 record, + 2 fatal failure events
    // (the 404's outcome, the garbage's dead letter).
    let (docs, failures) = collect(&ch, &sink, 10).await;
    let dead = dead_letters(&ch, &names.dead_letter_queue, 1).await;
    shutdown.trigger();
    for w in workers {
        tokio::time::timeout(Duration::from_secs(15), w)
            .await
            .expect("drained in time")
            .expect("worker task");
    }

    let mut by_task: BTreeMap<&str, Vec<&DocumentMessage>> = BTreeMap::new();
    for d in &docs {
        by_task.entry(d.task_id.as_str()).or_default().push(d);
        assert!(!d.text.is_empty(), "{d:?}");
    }
    for i in 0..4 {
        let got = &by_task[format!("url-{i}").as_str()];
        assert_eq!(got.len(), 1);
        assert!(got[0].text.contains(&format!("Story at /page/{i}")) || got[0].headline.is_some());
    }
    let file_ids: BTreeSet<&str> = by_task["file"]
        .iter()
        .map(|d| d.warc_record_id.as_str())
        .collect();
    assert_eq!(file_ids, records.iter().map(|r| r.2.as_str()).collect());
    assert_eq!(by_task["record"].len(), 1);
    assert_eq!(by_task["record"][0].warc_record_id, record_id);
    assert_eq!(by_task["record"][0].url, "http://example.org/1");
    assert!(docs.iter().all(|d| !d.url.contains("secret")), "{docs:?}");
    assert_eq!(
        by_task["record"][0].document_id,
        linesift::sink::message::document_id("record", &record_id)
    );
    let ids: BTreeSet<&str> = docs.iter().map(|d| d.document_id.as_str()).collect();
    assert_eq!(
        ids.len(),
        docs.len(),
        "duplicate document ids in a clean run"
    );

    assert!(failures.iter().all(|f| f.fatal), "{failures:?}");
    let gone: Vec<&Failure> = failures.iter().filter(|f| f.task_id == "gone").collect();
    assert_eq!(gone.len(), 1, "{failures:?}");
    assert_eq!(gone[0].kind, "http_status");
    assert!(!gone[0].dead_lettered, "{failures:?}");
    let kinds: Vec<&str> = dead.iter().map(|d| d.1.as_str()).collect();
    assert_eq!(kinds, ["invalid_message"], "{dead:?}");
    assert!(dead.iter().any(|d| d.0 == b"\x08\xff\xff garbage"));
    assert!(dead.iter().all(|d| !d.2.is_empty()));
    let more = topology::ready_count(&ch, &names.dead_letter_queue)
        .await
        .expect("dead-letter queue");
    assert_eq!(more, 0, "more dead letters than the malformed message");
    teardown(conn, &ch, &names).await;
    let _ = std::fs::remove_file(warc);
}

/// A server whose pages each take `delay` before they start to arrive,
/// so tasks are in flight for a while.
async fn slow_server(delay: Duration, story: &'static str) -> Server {
    Server::start(move |r: &Request| -> Vec<Step> {
        let mut steps = vec![Step::Sleep(delay)];
        steps.extend(html(article(&format!("{story} {}", r.path), 5).as_bytes()));
        steps
    })
    .await
}

/// `n` URL tasks, `{id}-{i}` for `server`'s `{path}/{i}`.
fn url_tasks(server: &Server, id: &str, path: &str, n: usize) -> Vec<Task> {
    (0..n)
        .map(|i| {
            task(
                &format!("{id}-{i}"),
                task::Source::Url(server.url(&format!("{path}/{i}"))),
            )
        })
        .collect()
}

/// Waits until `server` has had `n` requests (20 s at most).
async fn requested(server: &Server, n: usize) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    while server.requests().len() < n {
        assert!(
            tokio::time::Instant::now() < deadline,
            "worker never fetched"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn sigterm_drains_in_flight_tasks_and_exits_zero() {
    // Pages that take a while, so tasks are in flight when SIGTERM comes.
    let server = slow_server(Duration::from_millis(700), "Slow story").await;
    let names = Names::with_prefix(&unique("term"));
    let (conn, ch, sink) = setup(&names).await;
    let n = 6;
    let tasks = url_tasks(&server, "slow", "/s", n);
    worker::enqueue::enqueue(AMQP, &names, 3, &tasks, Encoding::Protobuf)
        .await
        .expect("enqueue");
    let mut child = tokio::process::Command::new(env!("CARGO_BIN_EXE_linesift"))
        .args([
            "worker",
            "--allow-private",
            "--no-robots",
            "--http",
            "off",
            "--concurrency",
            "2",
            "--prefetch",
            "2",
            "--delivery-limit",
            "3",
        ])
        .env("AMQP_URL", AMQP)
        .env("LINESIFT_PREFIX", names.tasks.trim_end_matches(".tasks"))
        .spawn()
        .expect("spawn worker");
    // Wait until the first page is being fetched, then ask it to stop.
    requested(&server, 1).await;
    signal(&child, "TERM");
    let status = tokio::time::timeout(Duration::from_secs(15), child.wait())
        .await
        .expect("exit within the drain deadline")
        .expect("wait");
    assert_eq!(status.code(), Some(0));

    // Every task is either done (its document published) or back in the
    // queue, ready: none lost, none stuck unacked.
    let fetched = server.requests().len();
    let (docs, _) = collect(&ch, &sink, fetched.min(n)).await;
    let queued = topology::ready_count(&ch, &names.tasks)
        .await
        .expect("passive declare") as usize;
    assert!(!docs.is_empty());
    assert_eq!(
        docs.len() + queued,
        n,
        "{} documents, {queued} queued",
        docs.len()
    );
    teardown(conn, &ch, &names).await;
}

/// The broker cancels the consumer (an operator deletes the task queue)
/// while tasks are in flight on a live channel: the session ends, but the
/// tasks already being worked on are drained, so their documents are
/// still published, rather than aborted half done. Then the worker opens
/// a new session (declaring the queue again) and stops cleanly.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_cancelled_consumer_drains_its_tasks_in_flight() {
    let server = slow_server(Duration::from_millis(1500), "Cancelled story").await;
    let names = Names::with_prefix(&unique("cancel"));
    let (conn, ch, sink) = setup(&names).await;
    let tasks = url_tasks(&server, "cancel", "/c", 2);
    worker::enqueue::enqueue(AMQP, &names, 3, &tasks, Encoding::Protobuf)
        .await
        .expect("enqueue");
    let shutdown = Shutdown::new();
    // Free slots left (concurrency 4, two tasks): the consumer's end is
    // seen at once, while both tasks are still fetching (1.5 s each).
    let worker = spawn_worker_with(
        WorkerConfig {
            concurrency: 4,
            ..config(&names)
        },
        &shutdown,
    );
    requested(&server, 2).await;
    ch.queue_delete(names.tasks.as_str().into(), QueueDeleteOptions::default())
        .await
        .expect("delete the task queue");
    // Both tasks in flight finish and publish.
    let (docs, failures) = collect(&ch, &sink, 2).await;
    assert!(failures.is_empty(), "{failures:?}");
    let mut done: Vec<&str> = docs.iter().map(|d| d.task_id.as_str()).collect();
    done.sort();
    assert_eq!(done, ["cancel-0", "cancel-1"], "{docs:?}");
    stop(&shutdown, worker).await;
    teardown(conn, &ch, &names).await;
}

/// A fresh task queue is declared with at-least-once dead-lettering: the
/// old arguments alone are now refused as inequivalent. A queue made with
/// only the old arguments (an older linesift, or by hand) is used as it
/// is rather than stopping the workers.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_task_queue_dead_letters_at_least_once_and_older_queues_still_work() {
    let conn = Connection::connect(AMQP, ConnectionProperties::default())
        .await
        .expect("RabbitMQ on 127.0.0.1:5672 (start it with rabbitmq-server -detached)");
    let old_arguments = |names: &Names| {
        let mut args = FieldTable::default();
        args.insert(
            "x-queue-type".into(),
            AMQPValue::LongString("quorum".into()),
        );
        args.insert("x-delivery-limit".into(), AMQPValue::LongLongInt(3));
        args.insert(
            "x-dead-letter-exchange".into(),
            AMQPValue::LongString(names.dead_letter_exchange.as_str().into()),
        );
        args
    };

    let fresh = Names::with_prefix(&unique("fresh"));
    let declared = topology::declare(&conn, &fresh, 3).await.expect("declare");
    assert_eq!(declared, topology::DeadLettering::AtLeastOnce);
    // Again, as at every reconnect.
    let again = topology::declare(&conn, &fresh, 3)
        .await
        .expect("redeclare");
    assert_eq!(again, topology::DeadLettering::AtLeastOnce);
    let ch = conn.create_channel().await.expect("channel");
    let refused = ch
        .queue_declare(
            fresh.tasks.as_str().into(),
            QueueDeclareOptions::durable(),
            old_arguments(&fresh),
        )
        .await;
    assert!(refused.is_err(), "declared without the strategy");

    let older = Names::with_prefix(&unique("older"));
    let ch = conn.create_channel().await.expect("channel");
    ch.queue_declare(
        older.tasks.as_str().into(),
        QueueDeclareOptions::durable(),
        old_arguments(&older),
    )
    .await
    .expect("a queue as older versions made it");
    let declared = topology::declare(&conn, &older, 3).await.expect("declare");
    assert_eq!(declared, topology::DeadLettering::AsFound);
    // A different delivery limit is still refused, found queue or not.
    assert!(topology::declare(&conn, &older, 4).await.is_err());

    let ch = conn.create_channel().await.expect("channel");
    for names in [&fresh, &older] {
        topology::delete(&ch, names).await.expect("teardown");
    }
    conn.close(200, "done".into()).await.ok();
}

/// `linesift enqueue` on `list` (written to a file) with `extra` arguments:
/// its exit code and stderr.
async fn enqueue_cli(names: &Names, list: &[u8], extra: &[&str]) -> (Option<i32>, String) {
    let path = std::env::temp_dir().join(format!("{}.list", names.tasks));
    std::fs::write(&path, list).expect("write list");
    let out = tokio::time::timeout(
        Duration::from_secs(30),
        tokio::process::Command::new(env!("CARGO_BIN_EXE_linesift"))
            .arg("enqueue")
            .arg(&path)
            .args(["--delivery-limit", "3"])
            .args(extra)
            .env("AMQP_URL", AMQP)
            .env("LINESIFT_PREFIX", names.tasks.trim_end_matches(".tasks"))
            .output(),
    )
    .await
    .expect("enqueue within 30 s")
    .expect("run linesift enqueue");
    let _ = std::fs::remove_file(&path);
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `linesift enqueue -` on `names` through `amqp_url`, its stdin and
/// stderr piped, run by `sh` after `setup` (e.g. `trap '' INT`; empty for
/// none). `exec` keeps the shell's pid, so signals sent to the child
/// reach enqueue.
fn enqueue_from_stdin(names: &Names, amqp_url: &str, setup: &str) -> tokio::process::Child {
    tokio::process::Command::new("sh")
        .arg("-c")
        .arg(format!("{setup}\nexec \"$0\" enqueue - --delivery-limit 3"))
        .arg(env!("CARGO_BIN_EXE_linesift"))
        .env("AMQP_URL", amqp_url)
        .env("LINESIFT_PREFIX", names.tasks.trim_end_matches(".tasks"))
        .stdin(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("spawn enqueue")
}

/// Sends `child` the signal `name` (`INT`, as Ctrl-C does; `TERM`).
fn signal(child: &tokio::process::Child, name: &str) {
    let pid = child.id().expect("pid").to_string();
    let sent = std::process::Command::new("kill")
        .args([&format!("-{name}"), &pid])
        .status()
        .expect("kill");
    assert!(sent.success());
}

/// Waits (20 s at most) until `queue` holds at least `n` ready messages.
async fn wait_for_ready(ch: &Channel, queue: &str, n: u32, what: &str) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(20);
    while topology::ready_count(ch, queue).await.unwrap_or(0) < n {
        assert!(tokio::time::Instant::now() < deadline, "{what}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// A crawl list with a Latin-1 byte in one line and a file path in
/// another: those lines are reported by number and skipped, the others
/// enqueued, and the exit code says some were skipped.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn enqueue_skips_bad_lines_by_number() {
    let names = Names::with_prefix(&unique("badlines"));
    let (conn, ch, _sink) = setup(&names).await;
    let list = b"http://a.example/1\nhttp://caf\xe9.example/\n/data/x.warc.gz\n# note\n\nhttp://a.example/2\n";
    let (code, stderr) = enqueue_cli(&names, list, &[]).await;
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("line 2: not UTF-8"), "{stderr}");
    assert!(stderr.contains("line 3: not a URL"), "{stderr}");
    assert!(stderr.contains("2 task(s) confirmed"), "{stderr}");
    assert!(stderr.contains("2 bad line(s) skipped"), "{stderr}");
    let queued = topology::ready_count(&ch, &names.tasks)
        .await
        .expect("passive declare");
    assert_eq!(queued, 2);
    teardown(conn, &ch, &names).await;
}

/// The broker refuses part of a list (the task queue deleted while the
/// list streams in from stdin; a full queue is refused alike): enqueue
/// stops, says how many tasks were confirmed and which `--skip` resumes
/// after them, and the resumed run enqueues exactly the rest. The count
/// of bad lines skipped takes in those of the refused window too (line
/// 1002 here): every one reported.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_list_stops_enqueue_where_it_can_resume() {
    use tokio::io::AsyncWriteExt;
    let names = Names::with_prefix(&unique("resume"));
    let (conn, ch, _sink) = setup(&names).await;
    let url = |i| format!("http://a.example/{i}\n");
    let list: String = std::iter::once("not a URL\n".to_string())
        .chain((0..1000).map(url))
        .chain(std::iter::once("/data/x.warc.gz\n".to_string()))
        .chain((1000..1005).map(url))
        .collect();
    let (first, rest) = list.split_at(list.match_indices('\n').nth(1000).unwrap().0 + 1);
    let mut child = enqueue_from_stdin(&names, AMQP, "");
    let mut stdin = child.stdin.take().expect("stdin");
    // A whole window (1,000 tasks, on 1,001 lines) goes out and is
    // confirmed at once.
    stdin.write_all(first.as_bytes()).await.expect("write");
    wait_for_ready(&ch, &names.tasks, 1000, "first window never arrived").await;
    ch.queue_delete(names.tasks.as_str().into(), QueueDeleteOptions::default())
        .await
        .expect("delete the task queue");
    stdin.write_all(rest.as_bytes()).await.expect("write");
    drop(stdin);
    let out = tokio::time::timeout(Duration::from_secs(30), child.wait_with_output())
        .await
        .expect("enqueue ends")
        .expect("wait");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains(
            "stopped after 1000 task(s) confirmed: lines 1 to 1001 are done; resume with --skip 1001"
        ),
        "{stderr}"
    );
    assert!(stderr.contains("line 1002: not a URL"), "{stderr}");
    assert!(stderr.contains("2 bad line(s) skipped"), "{stderr}");
    let (code, stderr) = enqueue_cli(&names, list.as_bytes(), &["--skip", "1001"]).await;
    assert_eq!(code, Some(1), "{stderr}");
    assert!(stderr.contains("5 task(s) confirmed"), "{stderr}");
    assert!(stderr.contains("1 bad line(s) skipped"), "{stderr}");
    let queued = topology::ready_count(&ch, &names.tasks)
        .await
        .expect("passive declare");
    assert_eq!(queued, 5);
    teardown(conn, &ch, &names).await;
}

/// Ctrl-C while a list streams in from stdin (the pipe still open): enqueue
/// stops reading, waits for the confirms of the tasks it published, prints
/// the `--skip` that resumes after them as a dropped connection does, and
/// exits 130 (without waiting for the rest of the list); the resumed run
/// enqueues exactly the rest.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ctrl_c_stops_enqueue_where_it_can_resume() {
    use tokio::io::AsyncWriteExt;
    let names = Names::with_prefix(&unique("interrupt"));
    let (conn, ch, _sink) = setup(&names).await;
    let list: String = (0..15).map(|i| format!("http://a.example/{i}\n")).collect();
    let (first, _) = list.split_at(list.match_indices('\n').nth(9).unwrap().0 + 1);
    let mut child = enqueue_from_stdin(&names, AMQP, "");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(first.as_bytes()).await.expect("write");
    stdin.flush().await.expect("flush");
    // Less than a window: published, their confirms not yet waited for.
    wait_for_ready(&ch, &names.tasks, 10, "the first lines never arrived").await;
    signal(&child, "INT");
    let out = tokio::time::timeout(Duration::from_secs(20), child.wait_with_output())
        .await
        .expect("enqueue ends on Ctrl-C with its stdin still open")
        .expect("wait");
    drop(stdin);
    let stderr = String::from_utf8_lossy(&out.stderr);
    // Killed by SIGINT, as an uncaught Ctrl-C kills (a shell loop stops).
    assert_eq!(
        std::os::unix::process::ExitStatusExt::signal(&out.status),
        Some(2),
        "{stderr}"
    );
    assert!(
        stderr.contains(
            "stopped after 10 task(s) confirmed: lines 1 to 10 are done; resume with --skip 10: interrupted"
        ),
        "{stderr}"
    );
    let (code, stderr) = enqueue_cli(&names, list.as_bytes(), &["--skip", "10"]).await;
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stderr.contains("5 task(s) confirmed"), "{stderr}");
    let queued = topology::ready_count(&ch, &names.tasks)
        .await
        .expect("passive declare");
    assert_eq!(queued, 15);
    teardown(conn, &ch, &names).await;
}

/// A second Ctrl-C while the confirms of an interrupted run are waited
/// for (none comes: the proxy holds the publishes back) ends the run at
/// once, killed by SIGINT, saying how far the list is known to have got,
/// instead of after the 10 s wait. The second press is sent only once the
/// first has been taken (its line printed): two sent together may arrive
/// as one signal.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_ctrl_c_ends_enqueue_at_once() {
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt};
    let names = Names::with_prefix(&unique("interrupt-again"));
    let (conn, ch, _sink) = setup(&names).await;
    let proxy = Proxy::start(&names.tasks).await;
    let mut child = enqueue_from_stdin(&names, &proxy.url(), "");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut stderr = tokio::io::BufReader::new(child.stderr.take().expect("stderr")).lines();
    stdin
        .write_all(b"http://a.example/1\n")
        .await
        .expect("write");
    stdin.flush().await.expect("flush");
    // Its publish held back, the stdin still open: no confirm will come.
    proxy.held().await;
    signal(&child, "INT");
    let mut said = String::new();
    let taken = tokio::time::timeout(Duration::from_secs(20), async {
        while let Some(line) = stderr.next_line().await.expect("stderr") {
            said += &line;
            said.push('\n');
            if line.contains("Ctrl-C again stops at once") {
                return true;
            }
        }
        false
    });
    assert!(taken.await.expect("the first Ctrl-C is taken"), "{said}");
    signal(&child, "INT");
    // Well within the 10 s that the confirms are waited for.
    let status = tokio::time::timeout(Duration::from_secs(8), child.wait())
        .await
        .expect("enqueue ends at once on a second Ctrl-C")
        .expect("wait");
    while let Some(line) = stderr.next_line().await.expect("stderr") {
        said += &line;
        said.push('\n');
    }
    drop(stdin);
    assert_eq!(
        std::os::unix::process::ExitStatusExt::signal(&status),
        Some(2),
        "{said}"
    );
    assert!(
        said.contains("nothing enqueued: interrupted again before the confirms still awaited came"),
        "{said}"
    );
    drop(proxy);
    teardown(conn, &ch, &names).await;
}

/// A list that signals when it has been read to its end.
struct SignallingList {
    rest: &'static [u8],
    read_out: Arc<tokio::sync::Notify>,
}

impl tokio::io::AsyncRead for SignallingList {
    fn poll_read(
        mut self: std::pin::Pin<&mut Self>,
        _: &mut std::task::Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        let n = self.rest.len().min(buf.remaining());
        buf.put_slice(&self.rest[..n]);
        self.rest = &self.rest[n..];
        if n == 0 {
            self.read_out.notify_one();
        }
        std::task::Poll::Ready(Ok(()))
    }
}

/// Ctrl-C while the last window of a list read to its end is confirmed:
/// once every confirm has come there is nothing to resume, and the run
/// ends as a finished one (no "resume with --skip" for a done list).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn enqueue_interrupted_while_its_finished_list_is_confirmed_ends_as_done() {
    let names = Names::with_prefix(&unique("interrupt-done"));
    let (conn, ch, _sink) = setup(&names).await;
    let list: String = (0..50).map(|i| format!("http://a.example/{i}\n")).collect();
    let read_out = Arc::new(tokio::sync::Notify::new());
    let reader = SignallingList {
        rest: Box::leak(list.into_bytes().into_boxed_slice()),
        read_out: Arc::clone(&read_out),
    };
    let queue = worker::enqueue::Queue {
        amqp_url: AMQP,
        names: &names,
        delivery_limit: 3,
        encoding: Encoding::Protobuf,
        batch: worker::enqueue::DEFAULT_BATCH,
    };
    // Ctrl-C as soon as the list is read out: while the confirms of its
    // last (and only) window are waited for.
    let interrupt = async move { read_out.notified().await };
    let mut settled = Vec::new();
    let progress = worker::enqueue::enqueue_lines(
        &queue,
        tokio::io::BufReader::new(reader),
        worker::enqueue::LineKind::Urls,
        0,
        |e| panic!("no bad line: {e}"),
        interrupt,
        |p| settled.push(p),
    )
    .await
    .expect("a finished list is done, interrupted or not");
    assert_eq!((progress.confirmed, progress.lines), (50, 50));
    assert_eq!(settled.last(), Some(&progress));
    let queued = topology::ready_count(&ch, &names.tasks)
        .await
        .expect("passive declare");
    assert_eq!(queued, 50);
    teardown(conn, &ch, &names).await;
}

/// `enqueue` started with SIGINT ignored (`nohup`, a script's background
/// job) leaves it ignored: a SIGINT neither stops nor kills it, and the
/// list, finished after it, is enqueued whole.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn enqueue_started_with_sigint_ignored_keeps_it_ignored() {
    use tokio::io::AsyncWriteExt;
    let names = Names::with_prefix(&unique("ignored"));
    let (conn, ch, _sink) = setup(&names).await;
    let mut child = enqueue_from_stdin(&names, AMQP, "trap '' INT");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin
        .write_all(b"http://a.example/1\nhttp://a.example/2\n")
        .await
        .expect("write");
    stdin.flush().await.expect("flush");
    // Connected and publishing: its first tasks are in the queue.
    wait_for_ready(&ch, &names.tasks, 2, "never published").await;
    signal(&child, "INT");
    tokio::time::sleep(Duration::from_millis(300)).await;
    stdin
        .write_all(b"http://a.example/3\n")
        .await
        .expect("still reading after SIGINT");
    drop(stdin);
    let out = tokio::time::timeout(Duration::from_secs(20), child.wait_with_output())
        .await
        .expect("ends with its list")
        .expect("wait");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    assert!(stderr.contains("3 task(s) confirmed"), "{stderr}");
    teardown(conn, &ch, &names).await;
}

/// Tasks for a host whose next request slot is further out than
/// `max_host_wait` are put aside in the delay queue at once rather than
/// wait asleep in a task slot, come back after `defer_delay`, and once put
/// aside `max_deferrals` times wait for their turn: every task is done,
/// none dead-lettered, each of the two late ones deferred exactly twice
/// (the worker's metric), and the host's interval kept throughout.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn tasks_for_a_busy_host_wait_in_the_delay_queue_not_in_a_slot() {
    let times = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&times);
    let server = Server::start(move |r: &Request| -> Vec<Step> {
        seen.lock().unwrap().push(Instant::now());
        html(article(&format!("Busy host story {}", r.path), 5).as_bytes())
    })
    .await;
    let names = Names::with_prefix(&unique("defer"));
    let (conn, ch, sink) = setup(&names).await;
    let tasks = url_tasks(&server, "busy", "/b", 3);
    worker::enqueue::enqueue(AMQP, &names, 3, &tasks, Encoding::Protobuf)
        .await
        .expect("enqueue");
    // Slots 3 s apart: the second task's is 3 s out, the third's 6 s, both
    // beyond the 300 ms the worker may wait. Each is put aside at once and
    // again when it is back 500 ms later; back a second time, it has used
    // its two deferrals and waits for its slot (seconds before it, so a
    // slow broker cannot make a third deferral unneeded).
    let interval = Duration::from_secs(3);
    let metrics_port = free_port();
    let shutdown = Shutdown::new();
    let worker = spawn_deferring_worker(
        &names,
        interval,
        Duration::from_millis(300),
        metrics_port,
        &shutdown,
    );
    // The worker declared the delay queue before its first fetch; the other
    // two tasks are in it (or on their way back) while the first is done,
    // rather than in the worker's two slots.
    requested(&server, 1).await;
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let waiting = topology::ready_count(&ch, &names.delay)
            .await
            .expect("the delay queue exists");
        if waiting > 0 {
            break;
        }
        assert!(Instant::now() < deadline, "no task was put aside");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let (docs, failures) = collect(&ch, &sink, 3).await;
    assert!(failures.is_empty(), "{failures:?}");
    let ids: BTreeSet<_> = docs.iter().map(|d| d.task_id.clone()).collect();
    assert_eq!(ids.len(), 3, "{ids:?}");
    let times = times.lock().unwrap().clone();
    assert_eq!(times.len(), 3, "one request per task");
    for pair in times.windows(2) {
        // Arrival at the server, not the slot: the first request also sets
        // up the connection, so allow some slack (a breach would be a
        // whole interval short).
        let gap = pair[1] - pair[0];
        assert!(gap >= interval - Duration::from_millis(300), "{gap:?}");
    }
    let metrics = tokio::task::spawn_blocking(move || get(metrics_port, "/metrics"))
        .await
        .expect("metrics read");
    assert!(
        metrics
            .lines()
            .any(|l| l.trim() == "linesift_tasks_deferred_total 4"),
        "{metrics}"
    );
    assert_eq!(
        topology::ready_count(&ch, &names.dead_letter_queue)
            .await
            .expect("dead-letter queue"),
        0
    );
    stop(&shutdown, worker).await;
    teardown(conn, &ch, &names).await;
}

/// A task the delay queue cannot take (an operator deleted the queue under
/// a running worker) is not lost and not charged an attempt: the worker
/// runs it at once, waiting for its host, and declares the queue again, so
/// that the next task for the busy host is put aside as before.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_task_the_delay_queue_refuses_waits_for_its_host_instead() {
    let server = slow_server(Duration::ZERO, "Refused delay").await;
    let names = Names::with_prefix(&unique("nodelay"));
    let (conn, ch, sink) = setup(&names).await;
    let interval = Duration::from_millis(1500);
    let metrics_port = free_port();
    let shutdown = Shutdown::new();
    let worker = spawn_deferring_worker(
        &names,
        interval,
        Duration::from_millis(200),
        metrics_port,
        &shutdown,
    );
    // Ready once it has declared everything, the delay queue included.
    let deadline = Instant::now() + Duration::from_secs(10);
    while !tokio::task::spawn_blocking(move || get(metrics_port, "/readyz"))
        .await
        .expect("readyz")
        .starts_with("HTTP/1.1 200")
    {
        assert!(Instant::now() < deadline, "the worker never got ready");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    ch.queue_delete(names.delay.as_str().into(), QueueDeleteOptions::default())
        .await
        .expect("delete the delay queue");
    done(&names, &ch, &sink, &url_tasks(&server, "refused", "/r", 2)).await;
    // A task is acked just after its document is confirmed: wait for both.
    let metrics = metrics_when(metrics_port, "linesift_tasks_acked_total 2").await;
    for line in [
        "linesift_tasks_deferred_total 0",
        "linesift_tasks_retried_total 0",
        "linesift_tasks_acked_total 2",
    ] {
        assert!(has_line(&metrics, line), "{line}: {metrics}");
    }
    // The second task's deferral was tried, refused, and the queue is back.
    topology::ready_count(&ch, &names.delay)
        .await
        .expect("the delay queue declared again");
    // The host is still busy for the next task, which is put aside now.
    done(&names, &ch, &sink, &url_tasks(&server, "again", "/a", 1)).await;
    let metrics = metrics_when(metrics_port, "linesift_tasks_acked_total 3").await;
    assert!(
        !has_line(&metrics, "linesift_tasks_deferred_total 0"),
        "not put aside: {metrics}"
    );
    stop(&shutdown, worker).await;
    teardown(conn, &ch, &names).await;
}

/// A deferral the broker refuses (nack: the delay queue is full, under a
/// max-length policy with the `reject-publish` it is declared with) is not
/// taken for one: the task is not acked as put aside, where it would be
/// lost, but run at once, waiting for its host in its slot, as when the
/// delay queue is missing; nothing is added to the delay queue.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_deferral_the_delay_queue_refuses_is_not_acked_as_one() {
    let times = Arc::new(Mutex::new(Vec::new()));
    let seen = Arc::clone(&times);
    let server = Server::start(move |r: &Request| -> Vec<Step> {
        seen.lock().unwrap().push(Instant::now());
        html(article(&format!("Full delay {}", r.path), 5).as_bytes())
    })
    .await;
    let names = Names::with_prefix(&unique("fulldelay"));
    let (conn, ch, sink) = setup(&names).await;
    // Long enough that nothing in the delay queue expires during the test.
    let defer_delay = Duration::from_secs(60);
    topology::declare_delay(&conn, &names, defer_delay)
        .await
        .expect("declare the delay queue");
    let _policy = QueuePolicy::set(&names.delay, r#"{"max-length":0}"#).await;
    let filled = fill_until_refused(&conn, &names.delay).await;
    // Slots 3 s apart: the second task's is far beyond the 200 ms it may
    // wait, so it is put aside, and the delay queue refuses it.
    let interval = Duration::from_secs(3);
    let shutdown = Shutdown::new();
    let config = WorkerConfig {
        max_host_wait: Some(Duration::from_millis(200)),
        defer_delay,
        ..config(&names)
    };
    let fetch = FetchOptions {
        host_interval: interval,
        ..fetch_options()
    };
    let (worker, metrics) = spawn_metered_worker(config, fetch, &shutdown);
    done(&names, &ch, &sink, &url_tasks(&server, "full", "/f", 2)).await;
    stop(&shutdown, worker).await;
    assert_eq!(
        counts(&metrics),
        [
            ("received", 2),
            ("acked", 2),
            ("deferred", 0),
            ("retried", 0),
            ("abandoned", 0)
        ]
    );
    let delayed = topology::ready_count(&ch, &names.delay)
        .await
        .expect("delay queue");
    assert_eq!(
        delayed, filled,
        "the refused deferral is in the delay queue"
    );
    // The refused task waited for its host's slot instead.
    let times = times.lock().unwrap().clone();
    assert_eq!(times.len(), 2, "one request per task");
    let gap = times[1] - times[0];
    assert!(gap >= interval - Duration::from_millis(300), "{gap:?}");
    teardown(conn, &ch, &names).await;
}

/// A drain that starts while a deferral's publish is unconfirmed (the
/// proxy holds it back from the broker) waits for the confirm: once the
/// broker has the task in the delay queue, the delivery is acked, so the
/// task is put aside once and not also back in the task queue.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_drain_waits_for_a_deferral_in_flight_and_acks_it_once_confirmed() {
    let mut held = deferral_in_flight("drainack", Duration::from_secs(10)).await;
    held.shutdown.trigger();
    // Let the broker see the publish only once the drain is under way.
    held.proxy.cancelled().await;
    held.proxy.release();
    held.stopped().await;
    assert_eq!(
        counts(&held.metrics),
        [
            ("received", 2),
            ("acked", 1),
            ("deferred", 1),
            ("retried", 0),
            ("abandoned", 0)
        ]
    );
    let ch = &held.ch;
    let message = ch
        .basic_get(
            held.names.delay.as_str().into(),
            BasicGetOptions { no_ack: true },
        )
        .await
        .expect("get")
        .expect("the deferred task in the delay queue");
    assert_eq!(task_of(&message.delivery).id, held.deferred.id);
    let headers = message.delivery.properties.headers().as_ref();
    assert_eq!(count_header(headers, HEADER_DEFERRALS), 1);
    assert_eq!(
        topology::ready_count(ch, &held.names.tasks)
            .await
            .expect("tasks"),
        0
    );
    held.teardown().await;
}

/// A deferral still unconfirmed when the drain deadline passes (the proxy
/// never lets the broker see it) is not acked: the worker stops with the
/// delivery unsettled, and the broker puts the task back in the task
/// queue. Not lost, and not in the delay queue either.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_deferral_unconfirmed_at_the_drain_deadline_leaves_its_task_queued() {
    let mut held = deferral_in_flight("drainlate", Duration::from_secs(2)).await;
    held.shutdown.trigger();
    held.stopped().await;
    // Its connection gone for sure, as when the worker's process ends.
    held.proxy.close();
    assert_eq!(
        counts(&held.metrics),
        [
            ("received", 2),
            ("acked", 1),
            ("deferred", 0),
            ("retried", 0),
            ("abandoned", 1)
        ]
    );
    let ch = &held.ch;
    let deadline = Instant::now() + Duration::from_secs(10);
    while topology::ready_count(ch, &held.names.tasks)
        .await
        .expect("tasks")
        == 0
    {
        assert!(Instant::now() < deadline, "the deferred task was lost");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let message = ch
        .basic_get(
            held.names.tasks.as_str().into(),
            BasicGetOptions { no_ack: true },
        )
        .await
        .expect("get")
        .expect("the task back in its queue");
    assert_eq!(task_of(&message.delivery).id, held.deferred.id);
    assert_eq!(
        topology::ready_count(ch, &held.names.delay)
            .await
            .expect("delay"),
        0
    );
    held.teardown().await;
}

/// A worker, through a proxy, whose deferral is in flight: the first of
/// two tasks for one host has been fetched and its document is in; the
/// second, its host busy for a minute, is being put aside, and the proxy
/// holds its publish to the delay queue back from the broker.
struct DeferralInFlight {
    names: Names,
    conn: Connection,
    ch: Channel,
    proxy: Proxy,
    shutdown: Shutdown,
    worker: tokio::task::JoinHandle<()>,
    metrics: Metrics,
    /// The task being put aside.
    deferred: Task,
    _server: Server,
}

async fn deferral_in_flight(name: &str, drain_deadline: Duration) -> DeferralInFlight {
    let server = slow_server(Duration::ZERO, "Held deferral").await;
    let names = Names::with_prefix(&unique(name));
    let (conn, ch, sink) = setup(&names).await;
    let proxy = Proxy::start(&names.delay).await;
    let config = WorkerConfig {
        max_host_wait: Some(Duration::from_millis(200)),
        defer_delay: Duration::from_secs(60),
        ..worker_config(&names, proxy.url(), drain_deadline)
    };
    let fetch = FetchOptions {
        host_interval: Duration::from_secs(60),
        ..fetch_options()
    };
    let shutdown = Shutdown::new();
    let (worker, metrics) = spawn_metered_worker(config, fetch, &shutdown);
    // One after the other, so that the first takes the host's slot and
    // the second is the one put aside.
    let mut tasks = url_tasks(&server, name, "/h", 2);
    let deferred = tasks.remove(1);
    done(&names, &ch, &sink, &tasks).await;
    worker::enqueue::enqueue(
        AMQP,
        &names,
        3,
        std::slice::from_ref(&deferred),
        Encoding::Protobuf,
    )
    .await
    .expect("enqueue");
    proxy.held().await;
    DeferralInFlight {
        names,
        conn,
        ch,
        proxy,
        shutdown,
        worker,
        metrics,
        deferred,
        _server: server,
    }
}

impl DeferralInFlight {
    /// Waits for the worker to stop (it was told to).
    async fn stopped(&mut self) {
        tokio::time::timeout(Duration::from_secs(15), &mut self.worker)
            .await
            .expect("stopped in time")
            .expect("worker task");
    }

    async fn teardown(self) {
        drop(self.proxy);
        teardown(self.conn, &self.ch, &self.names).await;
    }
}

/// The task a message carries.
fn task_of(delivery: &lapin::message::Delivery) -> Task {
    let content_type = delivery.properties.content_type().as_ref();
    let content_type = content_type.map(|c| c.to_string());
    proto::decode_task(&delivery.data, content_type.as_deref()).expect("a task")
}

/// The worker's task counters: received, acked, deferred, retried,
/// abandoned; they must add up (`tally::Totals::add_up`).
fn counts(metrics: &Metrics) -> [(&'static str, u64); 5] {
    let totals = Totals::of(metrics);
    assert!(totals.add_up(), "the counters do not add up: {totals:?}");
    [
        ("received", totals.received),
        ("acked", totals.acked),
        ("deferred", totals.deferred),
        ("retried", totals.retried),
        ("abandoned", totals.abandoned),
    ]
}

/// A worker run as `worker::run` runs it, but with metrics the test can
/// read after it stopped (its HTTP endpoint goes with it).
fn spawn_metered_worker(
    config: WorkerConfig,
    fetch: FetchOptions,
    shutdown: &Shutdown,
) -> (tokio::task::JoinHandle<()>, Metrics) {
    let metrics = Metrics::new().expect("metrics");
    let extractor = Extractor::new(Options::default());
    let fetcher = Fetcher::new(extractor.clone(), fetch).expect("fetcher");
    let reader = ReaderOptions {
        max_payload: config.max_payload,
        max_member: config.max_member,
    };
    let processor = Processor::new(fetcher, extractor, reader, metrics.clone());
    let health = Health::new(metrics.clone());
    let run = consume::run(
        Arc::new(config),
        Arc::new(processor),
        health,
        shutdown.clone(),
    );
    (tokio::spawn(run), metrics)
}

/// A policy of the test broker on one queue (`rabbitmqctl set_policy`,
/// above any other), cleared when dropped, also when the test fails.
struct QueuePolicy(String);

impl QueuePolicy {
    async fn set(queue: &str, definition: &str) -> QueuePolicy {
        let pattern = format!("^{}$", queue.replace('.', "\\."));
        let args = [
            "-q",
            "set_policy",
            "--apply-to",
            "queues",
            "--priority",
            "1000",
            queue,
            &pattern,
            definition,
        ];
        let out = rabbitmqctl(&args).await;
        assert!(out.status.success(), "set_policy: {out:?}");
        QueuePolicy(queue.to_string())
    }
}

impl Drop for QueuePolicy {
    fn drop(&mut self) {
        let _ = std::process::Command::new("rabbitmqctl")
            .args(["-q", "clear_policy", &self.0])
            .output();
    }
}

async fn rabbitmqctl(args: &[&str]) -> std::process::Output {
    let mut command = tokio::process::Command::new("rabbitmqctl");
    command.args(args);
    tokio::time::timeout(Duration::from_secs(30), command.output())
        .await
        .expect("rabbitmqctl within 30 s")
        .expect("rabbitmqctl (the broker's CLI) runs")
}

/// Publishes fillers to `queue` until the broker refuses one: its
/// max-length policy is in force (a policy reaches a queue a moment after
/// it is set) and the queue is over it (a quorum queue refuses only then,
/// so even a max-length of 0 takes one message). How many it took.
async fn fill_until_refused(conn: &Connection, queue: &str) -> u32 {
    let ch = conn.create_channel().await.expect("channel");
    ch.confirm_select(ConfirmSelectOptions::default())
        .await
        .expect("confirm mode");
    let deadline = Instant::now() + Duration::from_secs(20);
    let mut taken = 0;
    loop {
        let confirm = ch
            .basic_publish(
                "".into(),
                queue.into(),
                BasicPublishOptions::default(),
                b"filler",
                BasicProperties::default(),
            )
            .await
            .expect("publish")
            .await
            .expect("confirm");
        if confirm.is_nack() {
            return taken;
        }
        taken += 1;
        assert!(Instant::now() < deadline, "{queue} never refused a message");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Failed deliveries carried from before a deferral count toward the
/// delivery limit (3 here): a task that failed twice before it was put
/// aside and fails again is dead-lettered, not requeued for a fourth try.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn failures_before_a_deferral_count_toward_the_delivery_limit() {
    let server = Server::start(|_: &Request| -> Vec<Step> {
        response("503 Service Unavailable", &[], b"down")
    })
    .await;
    let counts = [(HEADER_ATTEMPTS, 2), (HEADER_DEFERRALS, 1)];
    let ((_, _, reason), metrics) = dead_letter_of(&server, "carried", &counts).await;
    assert!(reason.starts_with("gave up after 3 attempts"), "{reason}");
    assert_eq!(server.requests().len(), 1, "tried once, then given up");
    assert!(
        has_line(&metrics, "linesift_tasks_retried_total 0"),
        "{metrics}"
    );
}

/// A task back from the delay queue whose deliveries before its deferral
/// (carried in `x-linesift-attempts`) already reach the delivery limit is
/// dead-lettered without being run: deliveries that ended without a
/// verdict (a worker killed on the page) do not start over at every
/// deferral, as they would if only the broker's count were kept.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_task_past_its_delivery_limit_across_deferrals_is_not_run_again() {
    let server = slow_server(Duration::ZERO, "Never fetched").await;
    let counts = [(HEADER_ATTEMPTS, 3), (HEADER_DEFERRALS, 2)];
    let ((_, kind, reason), _) = dead_letter_of(&server, "pastlimit", &counts).await;
    assert_eq!(kind, "delivery_limit", "{reason}");
    assert!(reason.contains("after 3 deliveries"), "{reason}");
    assert!(server.requests().is_empty(), "run again");
}

/// Enqueues `tasks` and waits for a document from each.
async fn done(names: &Names, ch: &Channel, sink: &str, tasks: &[Task]) {
    worker::enqueue::enqueue(AMQP, names, 3, tasks, Encoding::Protobuf)
        .await
        .expect("enqueue");
    let (docs, failures) = collect(ch, sink, tasks.len()).await;
    assert_eq!(docs.len(), tasks.len(), "{failures:?}");
}

/// One task for `server`'s `/page`, published with the count headers a
/// deferral leaves, through a worker whose fetches are not retried: its
/// one dead letter (body, kind, reason) and the worker's metrics once they
/// count it. The queues are deleted after.
async fn dead_letter_of(
    server: &Server,
    name: &str,
    counts: &[(&str, i64)],
) -> ((Vec<u8>, String, String), String) {
    let names = Names::with_prefix(&unique(name));
    let (conn, ch, _sink) = setup(&names).await;
    let metrics_port = free_port();
    let shutdown = Shutdown::new();
    let worker = spawn_single_try_worker(&names, metrics_port, &shutdown);
    let one = task(name, task::Source::Url(server.url("/page")));
    publish_task(&ch, &names.tasks, &one, counts).await;
    let mut dead = dead_letters(&ch, &names.dead_letter_queue, 1).await;
    assert_eq!(dead.len(), 1, "not dead-lettered");
    let letter = dead.remove(0);
    let counted = format!(
        "linesift_tasks_dead_lettered_total{{reason=\"{}\"}} 1",
        letter.1
    );
    let metrics = metrics_when(metrics_port, &counted).await;
    stop(&shutdown, worker).await;
    teardown(conn, &ch, &names).await;
    (letter, metrics)
}

/// A worker whose fetches are not retried, with its metrics on `port`.
fn spawn_single_try_worker(
    names: &Names,
    port: u16,
    shutdown: &Shutdown,
) -> tokio::task::JoinHandle<()> {
    let config = WorkerConfig {
        http: Some(([127, 0, 0, 1], port).into()),
        ..config(names)
    };
    let fetch = FetchOptions {
        retry: RetryPolicy {
            retries: 0,
            ..RetryPolicy::default()
        },
        ..fetch_options()
    };
    spawn_worker_fetching(config, fetch, shutdown)
}

/// Publishes `task` to `queue` with count headers, as a worker's
/// deferral leaves them.
async fn publish_task(ch: &Channel, queue: &str, task: &Task, counts: &[(&str, i64)]) {
    let (body, content_type) = proto::encode(task, Encoding::Protobuf);
    let mut headers = FieldTable::default();
    for &(name, n) in counts {
        headers.insert(name.into(), AMQPValue::LongLongInt(n));
    }
    ch.basic_publish(
        "".into(),
        queue.into(),
        BasicPublishOptions::default(),
        &body,
        BasicProperties::default()
            .with_content_type(content_type.into())
            .with_headers(headers),
    )
    .await
    .expect("publish");
}

fn has_line(metrics: &str, line: &str) -> bool {
    metrics.lines().any(|l| l.trim() == line)
}

/// The worker's metrics once `line` is among them, or after 10 s.
async fn metrics_when(port: u16, line: &str) -> String {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let metrics = tokio::task::spawn_blocking(move || get(port, "/metrics"))
            .await
            .expect("metrics read");
        if has_line(&metrics, line) || Instant::now() > deadline {
            return metrics;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// A worker that defers: host slots `interval` apart, a task put aside
/// when its host's turn is over `max_host_wait` away, for 500 ms, at most
/// twice; its metrics and readiness on `metrics_port`.
fn spawn_deferring_worker(
    names: &Names,
    interval: Duration,
    max_host_wait: Duration,
    metrics_port: u16,
    shutdown: &Shutdown,
) -> tokio::task::JoinHandle<()> {
    let config = WorkerConfig {
        max_host_wait: Some(max_host_wait),
        defer_delay: Duration::from_millis(500),
        max_deferrals: 2,
        http: Some(([127, 0, 0, 1], metrics_port).into()),
        ..config(names)
    };
    let fetch = FetchOptions {
        host_interval: interval,
        ..fetch_options()
    };
    spawn_worker_fetching(config, fetch, shutdown)
}

/// Triggers the shutdown and waits for the worker to drain and stop.
async fn stop(shutdown: &Shutdown, worker: tokio::task::JoinHandle<()>) {
    shutdown.trigger();
    tokio::time::timeout(Duration::from_secs(15), worker)
        .await
        .expect("stopped in time")
        .expect("worker task");
}

/// A batch task's records, and one offset where no record starts (a
/// poison record) after the first two.
fn batch_with_poison(path: &str, records: &[(u64, u64, String)]) -> WarcRecords {
    let mut spans: Vec<RecordSpan> = records
        .iter()
        .map(|(offset, length, _)| RecordSpan {
            offset: *offset,
            length: *length,
        })
        .collect();
    let poison = RecordSpan {
        offset: records[2].0 + 1,
        length: 0,
    };
    spans.insert(2, poison);
    WarcRecords {
        path: path.into(),
        records: spans,
    }
}

/// A batch task publishes each record's document as a message of its own,
/// under the ids a record's document has (task id and record id); its
/// poison record is reported as a failure event, not fatal, and the rest
/// publish; the task is acked once, with its documents confirmed. The
/// same task delivered again (as a redelivery is) publishes the same ids.
/// A single-record task next to it is read as before.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_batch_task_publishes_each_document_and_reports_its_poison_record() {
    let names = Names::with_prefix(&unique("batch"));
    let (conn, ch, sink) = setup(&names).await;
    let (warc, records) = write_warc("batch", 4);
    let path = warc.display().to_string();
    let batch = task(
        "batch",
        task::Source::WarcRecords(batch_with_poison(&path, &records)),
    );
    let (offset, length, single_id) = records[3].clone();
    let single = task(
        "single",
        task::Source::WarcRecord(WarcRecord {
            path: path.clone(),
            offset,
            length,
        }),
    );
    let shutdown = Shutdown::new();
    let (worker, metrics) = spawn_metered_worker(config(&names), fetch_options(), &shutdown);
    let mut runs = Vec::new();
    for _ in 0..2 {
        worker::enqueue::enqueue(
            AMQP,
            &names,
            3,
            std::slice::from_ref(&batch),
            Encoding::Json,
        )
        .await
        .expect("enqueue");
        runs.push(collect(&ch, &sink, 5).await);
    }
    worker::enqueue::enqueue(AMQP, &names, 3, &[single], Encoding::Protobuf)
        .await
        .expect("enqueue");
    let (single_docs, _) = collect(&ch, &sink, 1).await;
    stop(&shutdown, worker).await;

    let expected: BTreeSet<String> = records
        .iter()
        .map(|(_, _, id)| linesift::sink::message::document_id("batch", id))
        .collect();
    for (docs, failures) in &runs {
        let ids: BTreeSet<String> = docs.iter().map(|d| d.document_id.clone()).collect();
        assert_eq!(ids, expected, "one message per document, the record's id");
        assert_eq!(docs.len(), 4);
        assert!(
            docs.iter()
                .all(|d| d.task_id == "batch" && !d.text.is_empty())
        );
        assert_eq!(failures.len(), 1, "{failures:?}");
        let poison = &failures[0];
        assert_eq!(
            (
                poison.task_id.as_str(),
                poison.stage.as_str(),
                poison.kind.as_str()
            ),
            ("batch", "warc", "bad_record"),
            "{poison:?}"
        );
        assert!(!poison.fatal && !poison.dead_lettered, "{poison:?}");
        assert!(poison.reason.contains(&path), "{poison:?}");
    }
    assert_eq!(
        single_docs[0].document_id,
        linesift::sink::message::document_id("single", &single_id)
    );
    assert_eq!(
        counts(&metrics),
        [
            ("received", 3),
            ("acked", 3),
            ("deferred", 0),
            ("retried", 0),
            ("abandoned", 0)
        ]
    );
    assert_eq!(metrics.documents_published.get(), 9);
    for queue in [&names.tasks, &names.dead_letter_queue] {
        assert_eq!(topology::ready_count(&ch, queue).await.expect("queue"), 0);
    }
    teardown(conn, &ch, &names).await;
    let _ = std::fs::remove_file(warc);
}

/// A batch task whose file is gone is a fault as a record task's is, at
/// once (dead-lettered `open`); one whose record cannot be read for now
/// would be tried again as a whole.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_batch_task_for_a_missing_file_is_dead_lettered_at_once() {
    let names = Names::with_prefix(&unique("batchgone"));
    let (conn, ch, _sink) = setup(&names).await;
    let gone = WarcRecords {
        path: "/nonexistent/linesift-batch.warc".into(),
        records: vec![
            RecordSpan {
                offset: 0,
                length: 0,
            };
            3
        ],
    };
    let shutdown = Shutdown::new();
    let (worker, metrics) = spawn_metered_worker(config(&names), fetch_options(), &shutdown);
    let tasks = [task("gone", task::Source::WarcRecords(gone))];
    worker::enqueue::enqueue(AMQP, &names, 3, &tasks, Encoding::Protobuf)
        .await
        .expect("enqueue");
    let dead = dead_letters(&ch, &names.dead_letter_queue, 1).await;
    stop(&shutdown, worker).await;
    assert_eq!(dead[0].1, "open", "{dead:?}");
    assert_eq!(counts(&metrics)[3], ("retried", 0));
    teardown(conn, &ch, &names).await;
}

/// `linesift enqueue --batch N` puts consecutive records of one file in a
/// task, up to N; a record alone (its file changes, or the list ends
/// after it) is a plain record task with the id it has unbatched.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn enqueue_batches_consecutive_records_of_one_file() {
    let names = Names::with_prefix(&unique("enqbatch"));
    let (conn, ch, _sink) = setup(&names).await;
    let list = "a.warc 0 10\na.warc 10 10\na.warc 20 10\nb.warc 0 5\na.warc 30 10\na.warc 40 10\n";
    let (code, stderr) = enqueue_cli(
        &names,
        list.as_bytes(),
        &["--kind", "warc-records", "--batch", "2"],
    )
    .await;
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stderr.contains("4 task(s) confirmed"), "{stderr}");
    let mut sources = Vec::new();
    while let Some(m) = ch
        .basic_get(
            names.tasks.as_str().into(),
            BasicGetOptions { no_ack: true },
        )
        .await
        .expect("get")
    {
        sources.push(task_of(&m.delivery));
    }
    let shape: Vec<(String, usize)> = sources
        .iter()
        .map(|t| match &t.source {
            Some(task::Source::WarcRecords(b)) => (b.path.clone(), b.records.len()),
            Some(task::Source::WarcRecord(r)) => (r.path.clone(), 1),
            other => panic!("{other:?}"),
        })
        .collect();
    let expected = [("a.warc", 2), ("a.warc", 1), ("b.warc", 1), ("a.warc", 2)];
    let expected: Vec<(String, usize)> =
        expected.iter().map(|(p, n)| (p.to_string(), *n)).collect();
    assert_eq!(shape, expected);
    let alone =
        worker::enqueue::parse_tasks("a.warc 20 10", worker::enqueue::LineKind::WarcRecords)
            .expect("a record line");
    assert_eq!(
        sources[1], alone[0],
        "a batch of one is the record's own task"
    );
    teardown(conn, &ch, &names).await;
}

/// A gzip index (as Common Crawl's `cdx-NNNNN.gz`: several members) is
/// told by its bytes, not its name, and read as the plain one is.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn enqueue_reads_a_gzipped_index_by_its_bytes() {
    use std::io::Write;
    let names = Names::with_prefix(&unique("cdxgz"));
    let (conn, ch, _sink) = setup(&names).await;
    let member = |text: &[u8]| {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(text).unwrap();
        e.finish().unwrap()
    };
    let first = b"example,a)/0 20240101000000 {\"url\": \"http://a/0\", \"status\": \"200\", \
        \"mime\": \"text/html\", \"filename\": \"seg/a.warc.gz\", \"offset\": \"0\", \"length\": \"10\"}\n";
    let second = b"example,a)/1 20240101000000 {\"url\": \"http://a/1\", \"status\": \"404\", \
        \"mime\": \"text/html\", \"filename\": \"seg/a.warc.gz\", \"offset\": \"10\", \"length\": \"10\"}\n\
        example,b)/ 20240101000000 {\"url\": \"http://b/\", \"status\": \"200\", \
        \"mime\": \"text/html\", \"filename\": \"seg/b.warc.gz\", \"offset\": \"50\", \"length\": \"10\"}\n";
    let list = [member(first), member(second)].concat();
    let args = [
        "--kind",
        "cdx",
        "--warc-prefix",
        "https://data.commoncrawl.org/",
        "--status",
        "200",
        "--encoding",
        "json",
    ];
    let (code, stderr) = enqueue_cli(&names, &list, &args).await;
    assert_eq!(code, Some(0), "{stderr}");
    assert!(stderr.contains("2 task(s) confirmed"), "{stderr}");
    assert!(stderr.contains("1 index entries passed over"), "{stderr}");
    let tasks = dead_letters(&ch, &names.tasks, 2).await;
    let bodies: Vec<String> = tasks
        .iter()
        .map(|(body, _, _)| String::from_utf8_lossy(body).into_owned())
        .collect();
    assert_eq!(bodies.len(), 2, "{bodies:?}");
    assert!(
        bodies[0].contains("https://data.commoncrawl.org/seg/a.warc.gz"),
        "{bodies:?}"
    );
    assert!(
        bodies[1].contains("https://data.commoncrawl.org/seg/b.warc.gz"),
        "{bodies:?}"
    );
    // Cut short, it fails in one line naming the list.
    let (code, stderr) = enqueue_cli(&names, &list[..list.len() - 8], &args).await;
    assert_ne!(code, Some(0), "{stderr}");
    assert!(stderr.contains("corrupt or cut gzip"), "{stderr}");
    teardown(conn, &ch, &names).await;
}

/// Common Crawl's index through `enqueue --kind cdx`: a CSV export's
/// header still names the columns when `--skip` passes over it, entries
/// of other statuses and types are passed over and counted, a bad row is
/// reported by its number, and each kept entry is a record task of the
/// file its name resolves to under `--warc-prefix`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn enqueue_reads_a_columnar_index_export() {
    let names = Names::with_prefix(&unique("cdx"));
    let (conn, ch, _sink) = setup(&names).await;
    let list =
        b"url,fetch_status,content_mime_type,warc_filename,warc_record_offset,warc_record_length\n\
        http://a/0,200,text/html,seg/a.warc.gz,0,10\n\
        http://a/1,200,text/html,seg/a.warc.gz,10,10\n\
        http://a/2,404,text/html,seg/a.warc.gz,20,10\n\
        http://a/3,200,application/pdf,seg/a.warc.gz,30,10\n\
        http://a/4,200,text/html,seg/a.warc.gz,x,10\n\
        \"http://a/5?b=1,2\",200,text/html; charset=utf-8,seg/b.warc.gz,50,10\n";
    let args = [
        "--kind",
        "cdx",
        "--skip",
        "2",
        "--warc-prefix",
        "https://data.commoncrawl.org/",
        "--status",
        "200",
        "--mime",
        "text/html",
        "--encoding",
        "json",
    ];
    let (code, stderr) = enqueue_cli(&names, list, &args).await;
    assert_eq!(code, Some(1), "{stderr}");
    assert!(
        stderr.contains("line 6: warc_record_offset is not a byte count"),
        "{stderr}"
    );
    assert!(stderr.contains("2 task(s) confirmed"), "{stderr}");
    assert!(stderr.contains("2 index entries passed over"), "{stderr}");
    let tasks = dead_letters(&ch, &names.tasks, 2).await;
    let bodies: Vec<String> = tasks
        .iter()
        .map(|(body, _, _)| String::from_utf8_lossy(body).into_owned())
        .collect();
    assert_eq!(bodies.len(), 2, "{bodies:?}");
    assert!(
        bodies[0].contains("https://data.commoncrawl.org/seg/a.warc.gz"),
        "{bodies:?}"
    );
    assert!(
        bodies[1].contains("https://data.commoncrawl.org/seg/b.warc.gz"),
        "{bodies:?}"
    );
    teardown(conn, &ch, &names).await;
}
