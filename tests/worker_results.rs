//! A worker started with its defaults has its results taken: it declares
//! a documents queue and a failures queue and binds them to the results
//! exchange, and `linesift results` prints what a queue holds as JSON
//! lines. With `--no-bind-results` it declares neither, and says so when a
//! result comes back unroutable. Against the real RabbitMQ on
//! 127.0.0.1:5672 (`.ci/run` starts it) and a page server on loopback;
//! every test's broker objects carry names of their own.

mod amqp_support;
mod fetch_support;

use amqp_support::AMQP;
use fetch_support::{Request, Server, Step, article, html, not_found};
use lapin::options::{
    BasicPublishOptions, QueueBindOptions, QueueDeclareOptions, QueueDeleteOptions,
};
use lapin::types::FieldTable;
use lapin::{BasicProperties, Channel, Connection, ConnectionProperties};
use linesift::proto::{self, Encoding, Failure, PageLinks};
use linesift::worker::{Names, topology};
use serde_json::Value as Json;
use std::path::PathBuf;
use std::process::Stdio;
use std::time::Duration;
use tokio::process::{Child, Command};

const BIN: &str = env!("CARGO_BIN_EXE_linesift");

/// The story every test's worker fetches.
const TITLE: &str = "Harbour bridge reopens";

fn unique(name: &str) -> String {
    amqp_support::unique("lsresults", name)
}

/// `/story` is an article, `/gone` (and `/robots.txt`) a 404.
async fn server() -> Server {
    Server::start(|r: &Request| -> Vec<Step> {
        match r.path.as_str() {
            "/story" => html(article(TITLE, 6).as_bytes()),
            _ => not_found(),
        }
    })
    .await
}

async fn connect() -> (Connection, Channel) {
    let conn = Connection::connect(AMQP, ConnectionProperties::default())
        .await
        .expect("RabbitMQ on 127.0.0.1:5672 (start it with rabbitmq-server -detached)");
    let ch = conn.create_channel().await.expect("channel");
    (conn, ch)
}

/// Deletes what the worker and the test declared under `names`.
async fn teardown(names: &Names) {
    let (conn, ch) = connect().await;
    topology::delete(&ch, names).await.expect("delete topology");
    let _ = conn.close(200, "done".into()).await;
}

/// Whether `queue` exists (a passive declare, on a channel of its own:
/// a missing queue closes it).
async fn exists(conn: &Connection, queue: &str) -> bool {
    let ch = conn.create_channel().await.expect("channel");
    let passive = QueueDeclareOptions {
        passive: true,
        ..QueueDeclareOptions::default()
    };
    ch.queue_declare(queue.into(), passive, FieldTable::default())
        .await
        .is_ok()
}

/// Waits (30 s at most) until the worker has declared `queue`: it does so
/// once connected, and `linesift results` on a queue not yet declared
/// says there is none.
async fn declared(queue: &str) {
    let (conn, _ch) = connect().await;
    for _ in 0..300 {
        if exists(&conn, queue).await {
            let _ = conn.close(200, "done".into()).await;
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the worker did not declare {queue} within 30 s");
}

/// A `linesift worker` process, its stderr in a file.
struct Worker {
    child: Child,
    log: PathBuf,
}

impl Worker {
    /// The worker's defaults but for `--prefix` (the test's own names),
    /// loopback pages allowed, no HTTP port, and `extra`.
    fn start(prefix: &str, extra: &[&str]) -> Worker {
        let log = std::env::temp_dir().join(format!("{prefix}.worker.log"));
        let stderr = std::fs::File::create(&log).expect("worker log");
        let child = Command::new(BIN)
            .arg("worker")
            .args(["--prefix", prefix, "--allow-private", "--http", "off"])
            .args(extra)
            .env("AMQP_URL", AMQP)
            .stdout(Stdio::null())
            .stderr(stderr)
            .kill_on_drop(true)
            .spawn()
            .expect("spawn linesift worker");
        Worker { child, log }
    }

    /// Stops the worker; its log.
    async fn stop(mut self) -> String {
        let _ = self.child.kill().await;
        let log = std::fs::read_to_string(&self.log).unwrap_or_default();
        let _ = std::fs::remove_file(&self.log);
        log
    }
}

/// `linesift enqueue` of `urls` onto `prefix`'s task queue.
async fn enqueue(prefix: &str, urls: &[String]) {
    let list = std::env::temp_dir().join(format!("{prefix}.list"));
    std::fs::write(&list, urls.join("\n")).expect("write list");
    let out = tokio::time::timeout(
        Duration::from_secs(30),
        Command::new(BIN)
            .arg("enqueue")
            .arg(&list)
            .env("AMQP_URL", AMQP)
            .env("LINESIFT_PREFIX", prefix)
            .output(),
    )
    .await
    .expect("enqueue within 30 s")
    .expect("run linesift enqueue");
    let _ = std::fs::remove_file(&list);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "linesift enqueue: {stderr}");
}

/// `linesift results ARGS`: exit code, stdout, stderr.
async fn results(args: &[&str]) -> (Option<i32>, String, String) {
    let out = tokio::time::timeout(
        Duration::from_secs(90),
        Command::new(BIN)
            .arg("results")
            .args(args)
            .env("AMQP_URL", AMQP)
            .output(),
    )
    .await
    .expect("linesift results within 90 s")
    .expect("run linesift results");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Each line of `text` as JSON.
fn json_lines(text: &str) -> Vec<Json> {
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// The whole way with the defaults: `linesift enqueue` one URL, a worker
/// with no results flags fetches it, and `linesift results` on the
/// documents queue the worker declared prints its document, with the
/// page's text, as one JSON line, and acks it (a second run finds none).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_worker_started_with_default_flags_publishes_a_document_that_results_prints() {
    let server = server().await;
    let prefix = unique("default");
    let names = Names::with_prefix(&prefix);
    let worker = Worker::start(&prefix, &[]);
    declared(&names.documents).await;
    enqueue(&prefix, &[server.url("/story")]).await;

    let (code, stdout, stderr) =
        results(&["--queue", &names.documents, "--max", "1", "--wait", "60"]).await;
    let again = results(&["--queue", &names.documents, "--wait", "0"]).await;
    let log = worker.stop().await;
    teardown(&names).await;

    assert_eq!(code, Some(0), "{stderr}\n{log}");
    let lines = json_lines(&stdout);
    assert_eq!(lines.len(), 1, "{stdout}\n{log}");
    let doc = &lines[0];
    assert_eq!(doc["type"], "document", "{doc}");
    assert_eq!(doc["url"], server.url("/story"), "{doc}");
    assert_eq!(doc["status"], 200, "{doc}");
    let text = doc["text"].as_str().expect("text");
    assert!(
        text.contains(&format!("Paragraph 5 of the story about {TITLE}.")),
        "{text}"
    );
    assert!(!text.contains("Privacy"), "{text}");
    assert!(stderr.contains("1 document(s), 0 failure(s)"), "{stderr}");
    assert_eq!(again.0, Some(0), "{}", again.2);
    assert_eq!(again.1, "", "the document was not acked");
    assert!(log.contains("results queues declared and bound"), "{log}");
}

/// A task that fails (a 404: an outcome) is recorded as a failure event in
/// the failures queue named by `--failures-queue`, and `linesift results`
/// prints it with its kind, reason, task and page. The names given by
/// flag replace the prefix's: no `PREFIX.documents` is made.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_task_reaches_the_failures_queue_and_results_prints_it() {
    let server = server().await;
    let prefix = unique("failure");
    let mut names = Names::with_prefix(&prefix);
    let defaults = names.clone();
    names.documents = format!("{prefix}.flag-documents");
    names.failures = format!("{prefix}.flag-failures");
    let flags = [
        "--documents-queue",
        names.documents.as_str(),
        "--failures-queue",
        names.failures.as_str(),
    ];
    let worker = Worker::start(&prefix, &flags);
    declared(&names.failures).await;
    enqueue(&prefix, &[server.url("/gone")]).await;

    let (code, stdout, stderr) =
        results(&["--queue", &names.failures, "--max", "1", "--wait", "60"]).await;
    let log = worker.stop().await;
    let (conn, _ch) = connect().await;
    let made = [
        exists(&conn, &names.documents).await,
        exists(&conn, &defaults.documents).await,
        exists(&conn, &defaults.failures).await,
    ];
    let _ = conn.close(200, "done".into()).await;
    teardown(&names).await;
    teardown(&defaults).await;

    assert_eq!(code, Some(0), "{stderr}\n{log}");
    let lines = json_lines(&stdout);
    assert_eq!(lines.len(), 1, "{stdout}\n{log}");
    let failure = &lines[0];
    assert_eq!(failure["type"], "failure", "{failure}");
    assert_eq!(failure["stage"], "fetch", "{failure}");
    assert_eq!(failure["kind"], "http_status", "{failure}");
    assert!(
        failure["reason"]
            .as_str()
            .is_some_and(|r| r.contains("404")),
        "{failure}"
    );
    assert!(
        failure["task_id"].as_str().is_some_and(|t| !t.is_empty()),
        "{failure}"
    );
    assert_eq!(failure["url"], server.url("/gone"), "{failure}");
    assert_eq!(failure["fatal"], true, "{failure}");
    assert!(stderr.contains("0 document(s), 1 failure(s)"), "{stderr}");
    assert_eq!(
        made,
        [true, false, false],
        "queues made (flag, prefix's two)"
    );
}

/// `--no-bind-results`: the worker declares no results queue, and says so
/// at start. Nothing is bound, so the document comes back unroutable on
/// every attempt until the task is dead-lettered: that is warned about in
/// one line, once, naming the exchange, routing key, the broker's reply
/// and the task; never as lapin's dump of the returned message.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_no_bind_results_nothing_is_declared_and_an_unroutable_result_is_warned_once() {
    let server = server().await;
    let prefix = unique("nobind");
    let names = Names::with_prefix(&prefix);
    let worker = Worker::start(
        &prefix,
        &[
            "--no-bind-results",
            "--retry-delay",
            "0.1",
            "--host-interval",
            "0",
        ],
    );
    enqueue(&prefix, &[server.url("/story")]).await;
    // The dead letter, once the delivery limit is used up.
    let (code, stdout, stderr) = results(&[
        "--queue",
        &names.dead_letter_queue,
        "--max",
        "1",
        "--wait",
        "60",
    ])
    .await;
    let log = worker.stop().await;
    let (conn, _ch) = connect().await;
    let made = [
        exists(&conn, &names.documents).await,
        exists(&conn, &names.failures).await,
    ];
    let _ = conn.close(200, "done".into()).await;
    teardown(&names).await;

    assert_eq!(code, Some(0), "{stderr}\n{log}");
    let dead = json_lines(&stdout);
    assert_eq!(dead.len(), 1, "{stdout}\n{log}");
    assert_eq!(dead[0]["type"], "dead_letter", "{}", dead[0]);
    assert_eq!(dead[0]["failure_kind"], "publish", "{}", dead[0]);
    let task_id = dead[0]["task"]["id"].as_str().expect("task id");
    assert_eq!(made, [false, false], "results queues declared");

    assert!(log.contains("not declaring results queues"), "{log}");
    let warned: Vec<&str> = log
        .lines()
        .filter(|l| l.contains("nothing is bound for this routing key"))
        .collect();
    assert_eq!(warned.len(), 1, "{log}");
    for part in [
        format!("exchange={}", names.results),
        "routing_key=document".to_string(),
        "reply_code=312".to_string(),
        "reply_text=NO_ROUTE".to_string(),
        format!("task_id=\"{task_id}\""),
    ] {
        assert!(warned[0].contains(&part), "{part} not in {}", warned[0]);
    }
    let retried = log.matches("task failed; requeued").count();
    assert!(
        retried >= 2,
        "the task was retried {retried} time(s):\n{log}"
    );
    assert!(!log.contains("BasicReturnMessage"), "{log}");
    assert!(!log.contains("delivery: Delivery"), "{log}");
}

/// A documents queue someone made as a classic queue is not what the
/// worker declares (a quorum queue): the broker refuses the declaration,
/// and the worker says so in one line naming the queue and the argument,
/// then binds the queue as it is and works on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_results_queue_that_exists_with_other_arguments_is_bound_as_it_is() {
    let server = server().await;
    let prefix = unique("classic");
    let names = Names::with_prefix(&prefix);
    let (conn, ch) = connect().await;
    ch.queue_declare(
        names.documents.as_str().into(),
        QueueDeclareOptions::durable(),
        FieldTable::default(),
    )
    .await
    .expect("a classic documents queue");
    let _ = conn.close(200, "declared".into()).await;
    let worker = Worker::start(&prefix, &[]);
    declared(&names.documents).await;
    enqueue(&prefix, &[server.url("/story")]).await;

    let (code, stdout, stderr) =
        results(&["--queue", &names.documents, "--max", "1", "--wait", "60"]).await;
    let log = worker.stop().await;
    teardown(&names).await;

    assert_eq!(code, Some(0), "{stderr}\n{log}");
    assert_eq!(json_lines(&stdout)[0]["type"], "document", "{stdout}");
    let warned: Vec<&str> = log
        .lines()
        .filter(|l| l.contains("exists with other arguments"))
        .collect();
    assert_eq!(warned.len(), 1, "{log}");
    assert!(warned[0].contains(&names.documents), "{}", warned[0]);
    assert!(warned[0].contains("x-queue-type"), "{}", warned[0]);
}

/// `linesift results` on a queue that does not exist stops with one line
/// naming it (exit 2). On a queue that holds a message that is no result
/// besides a failure event, it writes the event, appending to `-o`'s file,
/// names the other on stderr and leaves it in the queue (exit 1).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn results_names_a_missing_queue_and_leaves_a_message_that_is_no_result() {
    let prefix = unique("cli");
    let names = Names::with_prefix(&prefix);
    let (code, _, stderr) = results(&["--queue", &names.documents, "--wait", "0"]).await;
    assert_eq!(code, Some(2), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains(&format!("no queue named \"{}\"", names.documents)),
        "{stderr}"
    );

    let (conn, ch) = connect().await;
    topology::declare(&conn, &names, 3).await.expect("declare");
    ch.queue_declare(
        names.documents.as_str().into(),
        QueueDeclareOptions::durable(),
        FieldTable::default(),
    )
    .await
    .expect("queue");
    ch.queue_bind(
        names.documents.as_str().into(),
        names.results.as_str().into(),
        "#".into(),
        QueueBindOptions::default(),
        FieldTable::default(),
    )
    .await
    .expect("bind");
    let failure = Failure {
        task_id: "t-cli".into(),
        stage: "warc".into(),
        kind: "open".into(),
        reason: "no such file".into(),
        fatal: true,
        ..Failure::default()
    };
    let (event, content_type) = proto::encode(&failure, Encoding::Protobuf);
    for (key, body, content_type, id) in [
        ("document", &b"{not json"[..], "application/json", "junk-1"),
        ("failure", &event[..], content_type, "event-1"),
    ] {
        ch.basic_publish(
            names.results.as_str().into(),
            key.into(),
            BasicPublishOptions::default(),
            body,
            BasicProperties::default()
                .with_content_type(content_type.into())
                .with_message_id(id.into()),
        )
        .await
        .expect("publish")
        .await
        .expect("confirm");
    }
    let out = std::env::temp_dir().join(format!("{prefix}.jsonl"));
    std::fs::write(&out, "{\"type\":\"earlier\"}\n").expect("earlier line");
    let out_arg = out.to_string_lossy().into_owned();
    let (code, stdout, stderr) =
        results(&["--queue", &names.documents, "-o", &out_arg, "--wait", "0"]).await;
    let written = std::fs::read_to_string(&out).unwrap_or_default();
    let _ = std::fs::remove_file(&out);
    let left = topology::ready_count(&ch, &names.documents).await;
    teardown(&names).await;
    let _ = conn.close(200, "done".into()).await;

    assert_eq!(code, Some(1), "{stderr}");
    assert_eq!(stdout, "");
    let lines = json_lines(&written);
    assert_eq!(lines.len(), 2, "{written}");
    assert_eq!(lines[0]["type"], "earlier");
    assert_eq!(lines[1]["type"], "failure");
    assert_eq!(lines[1]["task_id"], "t-cli");
    assert_eq!(lines[1]["kind"], "open");
    assert!(
        stderr.contains("message id \"junk-1\" is no result") && stderr.contains("invalid JSON"),
        "{stderr}"
    );
    assert!(
        stderr.contains("1 message(s) left in the queue"),
        "{stderr}"
    );
    assert_eq!(left.ok(), Some(1), "the message that is no result");
}

/// The links messages a worker publishes for a crawl frontier are read as
/// `links` lines under the routing key `--links-routing-key` names (here
/// the queue's own, as the default exchange routes); without the flag the
/// same message is no result and stays in the queue.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn links_messages_are_read_under_the_links_routing_key() {
    let queue = unique("links");
    let (conn, ch) = connect().await;
    ch.queue_declare(
        queue.as_str().into(),
        QueueDeclareOptions::default(),
        FieldTable::default(),
    )
    .await
    .expect("declare");
    let links = PageLinks {
        document_id: "d1".into(),
        task_id: "t1".into(),
        url: "http://127.0.0.1/p".into(),
        canonical: None,
        links: vec![proto::Link {
            url: "http://127.0.0.1/q".into(),
            text: "next".into(),
            in_content: true,
            ..proto::Link::default()
        }],
    };
    let (body, content_type) = proto::encode(&links, Encoding::Protobuf);
    amqp_support::publish_raw(&ch, &queue, &body, content_type).await;

    let unread = results(&["--queue", &queue, "--max", "1", "--wait", "0"]).await;
    let read = results(&[
        "--queue",
        &queue,
        "--links-routing-key",
        &queue,
        "--max",
        "1",
        "--wait",
        "10",
    ])
    .await;
    ch.queue_delete(queue.as_str().into(), QueueDeleteOptions::default())
        .await
        .expect("delete");
    let _ = conn.close(200, "done".into()).await;

    let (code, stdout, stderr) = unread;
    assert_eq!(code, Some(1), "{stderr}");
    assert_eq!(stdout, "");
    assert!(stderr.contains("--links-routing-key"), "{stderr}");
    let (code, stdout, stderr) = read;
    assert_eq!(code, Some(0), "{stderr}");
    let lines = json_lines(&stdout);
    assert_eq!(lines.len(), 1, "{stdout}");
    assert_eq!(lines[0]["type"], "links", "{}", lines[0]);
    assert_eq!(lines[0]["document_id"], "d1", "{}", lines[0]);
    assert_eq!(
        lines[0]["links"][0]["url"], "http://127.0.0.1/q",
        "{}",
        lines[0]
    );
    assert!(stderr.contains("1 links message(s)"), "{stderr}");
}
