//! What the tests against the local RabbitMQ (127.0.0.1:5672, guest/guest;
//! `.ci/run` starts it) share: its URL, names no other test or earlier
//! run uses, so tests running at once never meet each other's queues, a
//! way to read a worker's HTTP endpoints (/metrics, /readyz), a small
//! worker's settings, reading a message's headers, and WARC files for the
//! worker's record tasks; (`proxy`) a slow path to the broker that
//! holds one queue's publishes back; and (`definitions`) the compose
//! stack's broker objects imported into a throwaway vhost.

#![allow(dead_code)]

pub mod definitions;
pub mod proxy;

use futures_util::StreamExt;
use lapin::options::{
    BasicConsumeOptions, BasicPublishOptions, QueueBindOptions, QueueDeclareOptions,
};
use lapin::types::{AMQPValue, FieldTable};
use lapin::{BasicProperties, Channel, Connection, ConnectionProperties};
use linesift::proto::{self, DocumentMessage, Encoding, Failure};
use linesift::worker::{Names, WorkerConfig, topology};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

pub const AMQP: &str = "amqp://guest:guest@127.0.0.1:5672/%2f";

/// A connection, the topology of `names` (delivery limit 3), and an
/// exclusive queue, `{tasks}.sink`, bound to the results exchange with
/// `routing_key` (`#`: everything the worker publishes there).
pub async fn connect_with_sink(names: &Names, routing_key: &str) -> (Connection, Channel, String) {
    let conn = Connection::connect(AMQP, ConnectionProperties::default())
        .await
        .expect("RabbitMQ on 127.0.0.1:5672 (start it with rabbitmq-server -detached)");
    let ch = conn.create_channel().await.expect("channel");
    topology::declare(&conn, names, 3).await.expect("declare");
    let sink = format!("{}.sink", names.tasks);
    let exclusive = QueueDeclareOptions {
        exclusive: true,
        ..QueueDeclareOptions::default()
    };
    ch.queue_declare(sink.as_str().into(), exclusive, FieldTable::default())
        .await
        .expect("sink queue");
    ch.queue_bind(
        sink.as_str().into(),
        names.results.as_str().into(),
        routing_key.into(),
        QueueBindOptions::default(),
        FieldTable::default(),
    )
    .await
    .expect("bind sink");
    (conn, ch, sink)
}

/// `{suite}-{name}-{pid}-{nanos}-{n}`: the suite's prefix says which test
/// file left an object behind, if one ever does.
pub fn unique(suite: &str, name: &str) -> String {
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    format!("{suite}-{name}-{}-{nanos}-{n}", std::process::id())
}

/// A port free a moment ago, for a worker's HTTP server.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// `GET path` on a worker's HTTP port on 127.0.0.1, the whole response;
/// empty when it does not answer.
pub fn get(port: u16, path: &str) -> String {
    use std::io::{Read, Write};
    let Ok(mut s) = std::net::TcpStream::connect(("127.0.0.1", port)) else {
        return String::new();
    };
    let _ = s.set_read_timeout(Some(std::time::Duration::from_secs(5)));
    let request = format!("GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    if s.write_all(request.as_bytes()).is_err() {
        return String::new();
    }
    let mut body = String::new();
    let _ = s.read_to_string(&mut body);
    body
}

/// A small worker's settings: prefetch 4, two tasks at once, short
/// pauses, no results queues of its own; the broker's URL and the drain
/// deadline are the test's.
pub fn worker_config(names: &Names, amqp_url: String, drain_deadline: Duration) -> WorkerConfig {
    WorkerConfig {
        amqp_url,
        names: names.clone(),
        prefetch: 4,
        concurrency: 2,
        delivery_limit: 3,
        retry_delay: Duration::from_millis(50),
        encoding: Encoding::Protobuf,
        drain_deadline,
        reconnect_delay: Duration::from_millis(300),
        http: None,
        max_payload: 1 << 20,
        max_member: 1 << 30,
        task_deadline: None,
        max_host_wait: None,
        defer_delay: Duration::from_secs(1),
        max_deferrals: 3,
        dead_letter_outcomes: false,
        // The tests bind their own sink queue to the results exchange (or
        // none, to see what the worker does with unroutable results).
        bind_results: false,
        links: None,
        links_in_documents: false,
    }
}

/// A message header's value when it is a string (the worker writes its
/// x-linesift-* headers as long strings); `None` when absent or another type.
pub fn string_header(properties: &BasicProperties, key: &str) -> Option<String> {
    match properties
        .headers()
        .as_ref()
        .and_then(|h| h.inner().get(key))
    {
        Some(AMQPValue::LongString(s)) => Some(String::from_utf8_lossy(s.as_bytes()).into_owned()),
        _ => None,
    }
}

/// One WARC `response` record: an HTTP 200 with `body` as UTF-8 HTML.
fn warc_record(uri: &str, id: &str, body: &str) -> Vec<u8> {
    let http = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let mut rec = format!(
        "WARC/1.0\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:{id}>\r\nWARC-Target-URI: {uri}\r\nWARC-Date: 2024-01-01T00:00:00Z\r\nContent-Type: application/http; msgtype=response\r\nContent-Length: {}\r\n\r\n",
        http.len()
    )
    .into_bytes();
    rec.extend_from_slice(http.as_bytes());
    rec.extend_from_slice(b"\r\n\r\n");
    rec
}

/// A plain WARC of one response record per `(uri, body)`, record ids
/// numbered from 0: its bytes and each record's (offset, length, record id),
/// what a record task names.
pub fn warc_of(
    pages: impl IntoIterator<Item = (String, String)>,
) -> (Vec<u8>, Vec<(u64, u64, String)>) {
    let (mut bytes, mut records) = (Vec::new(), Vec::new());
    for (i, (uri, body)) in pages.into_iter().enumerate() {
        let id = format!("00000000-0000-0000-0000-{i:012}");
        let rec = warc_record(&uri, &id, &body);
        records.push((
            bytes.len() as u64,
            rec.len() as u64,
            format!("<urn:uuid:{id}>"),
        ));
        bytes.extend_from_slice(&rec);
    }
    (bytes, records)
}

/// Publishes `body` straight to `queue` (no confirm awaited).
pub async fn publish_raw(ch: &Channel, queue: &str, body: &[u8], content_type: &str) {
    ch.basic_publish(
        "".into(),
        queue.into(),
        BasicPublishOptions::default(),
        body,
        BasicProperties::default().with_content_type(content_type.into()),
    )
    .await
    .expect("publish");
}

/// Collects `n` results (documents and failures) from the sink queue.
pub async fn collect(ch: &Channel, queue: &str, n: usize) -> (Vec<DocumentMessage>, Vec<Failure>) {
    let mut consumer = ch
        .basic_consume(
            queue.into(),
            "".into(),
            BasicConsumeOptions {
                no_ack: true,
                ..BasicConsumeOptions::default()
            },
            FieldTable::default(),
        )
        .await
        .expect("consume sink");
    let (mut docs, mut failures) = (Vec::new(), Vec::new());
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    while docs.len() + failures.len() < n {
        let next = tokio::time::timeout_at(deadline, consumer.next()).await;
        let Ok(Some(Ok(d))) = next else {
            panic!("only {} documents and {failures:?} after 30 s", docs.len())
        };
        let ct = d.properties.content_type().as_ref().map(|c| c.to_string());
        match d.routing_key.as_str() {
            "document" => docs
                .push(proto::decode::<DocumentMessage>(&d.data, ct.as_deref()).expect("document")),
            _ => failures.push(proto::decode::<Failure>(&d.data, ct.as_deref()).expect("failure")),
        }
    }
    (docs, failures)
}

/// The counters a `linesift worker` process logs as it stops (its last
/// line, "worker stopped; deliveries by how they ended"), by name; `None`
/// when the log has no such line (the worker was SIGKILLed, or is still
/// running). The last such line of the log counts.
pub fn totals_in_log(log: &str) -> Option<std::collections::BTreeMap<String, i64>> {
    let line = log
        .lines()
        .rev()
        .find(|l| l.contains("worker stopped; deliveries by how they ended"))?;
    let totals = line
        .split_whitespace()
        .filter_map(|field| field.split_once('='))
        .filter_map(|(k, v)| Some((k.to_string(), v.parse().ok()?)))
        .collect();
    Some(totals)
}

/// Asserts that a stopped worker's counters add up: every delivery it
/// received ended acked, as an outcome, retried, deferred, dead-lettered
/// or abandoned, and none is left in flight. Returns them.
pub fn assert_counters_add_up(log: &str) -> std::collections::BTreeMap<String, i64> {
    let totals = totals_in_log(log).unwrap_or_else(|| panic!("no counters in the log:\n{log}"));
    let get = |k: &str| {
        *totals
            .get(k)
            .unwrap_or_else(|| panic!("no {k} in {totals:?}"))
    };
    let ended: i64 = [
        "acked",
        "outcomes",
        "retried",
        "deferred",
        "dead_lettered",
        "abandoned",
    ]
    .iter()
    .map(|k| get(k))
    .sum();
    assert_eq!(get("in_flight"), 0, "{totals:?}");
    assert_eq!(
        get("received"),
        ended,
        "the counters do not add up: {totals:?}"
    );
    totals
}
