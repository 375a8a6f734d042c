//! How the worker settles deliveries and stops when the broker misbehaves,
//! against the real RabbitMQ on 127.0.0.1:5672 (guest/guest): confirms
//! that must not be mixed up between kinds of message, a publisher channel
//! closed under a live connection, a broker that stops answering during a
//! drain or a connect. Each test uses its own randomly suffixed objects;
//! the unresponsive broker is a TCP proxy frozen by the test, so the shared
//! broker is never put into an alarm.

mod amqp_support;

use amqp_support::{AMQP, string_header};

use lapin::options::{QueueBindOptions, QueueDeclareOptions};
use lapin::types::FieldTable;
use lapin::{BasicProperties, Connection, ConnectionProperties};
use linesift::proto::Encoding;
use linesift::worker::publish::{PublishError, Publisher};
use linesift::worker::{Names, topology};

/// A connection to the test broker, a channel on it, and `names`'
/// topology declared (delivery limit 3).
async fn declared(names: &Names) -> (Connection, lapin::Channel) {
    let conn = Connection::connect(AMQP, ConnectionProperties::default())
        .await
        .expect("RabbitMQ on 127.0.0.1:5672");
    let ch = conn.create_channel().await.expect("channel");
    topology::declare(&conn, names, 3).await.expect("declare");
    (conn, ch)
}

fn unique(name: &str) -> String {
    amqp_support::unique("lsreview", name)
}

/// A downstream that binds only `document` (docs/worker.md: a queue bound
/// for `document` and one for `failure`), and a worker publishing
/// documents and failure events. lapin hands a `basic.return` to
/// whichever pending confirm of the channel completes next (and completes
/// a `multiple` ack's confirms in HashMap order): on one shared channel a
/// failure event's return landed on a document's confirm within a few
/// hundred messages, and the task was retried though every document had
/// arrived. On their own channels, documents `mandatory` and events not,
/// every confirm says what happened to its own message.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn documents_and_failure_events_keep_their_own_confirms() {
    let names = Names::with_prefix(&unique("ret"));
    let (conn, ch) = declared(&names).await;
    let sink = format!("{}.sink", names.tasks);
    ch.queue_declare(
        sink.as_str().into(),
        QueueDeclareOptions {
            durable: true,
            auto_delete: true,
            ..QueueDeclareOptions::default()
        },
        FieldTable::default(),
    )
    .await
    .expect("sink");
    ch.queue_bind(
        sink.as_str().into(),
        names.results.as_str().into(),
        "document".into(),
        QueueBindOptions::default(),
        FieldTable::default(),
    )
    .await
    .expect("bind document only");
    let documents = Publisher::open(&conn, Encoding::Protobuf)
        .await
        .expect("publisher");
    let events = Publisher::open_unrouted_ok(&conn, Encoding::Protobuf)
        .await
        .expect("publisher");
    let body = vec![b'x'; 2048];
    let mut outcomes = Vec::new();
    for _round in 0..10 {
        let mut pending = Vec::new();
        for i in 0..200 {
            let (publisher, key) = if i % 3 == 2 {
                (&events, "failure")
            } else {
                (&documents, "document")
            };
            let p = publisher
                .raw(&names.results, key, &body, BasicProperties::default())
                .await
                .expect("publish");
            pending.push((key, p));
        }
        for (key, p) in pending {
            if let Err(e) = p.confirmed().await {
                outcomes.push(format!("{key}: {e}"));
            }
        }
    }
    let _ = ch
        .queue_delete(sink.as_str().into(), Default::default())
        .await;
    topology::delete(&ch, &names).await.expect("delete");
    let _ = conn.close(200, "done".into()).await;
    assert!(
        outcomes.is_empty(),
        "{} of 2000 confirms failed, first: {:?}",
        outcomes.len(),
        outcomes.first()
    );
}

/// The loss direction of the same lapin behaviour: no queue is bound to
/// the results exchange at all (downstream's queue was deleted: the case
/// `PublishError::Unroutable` exists for) while the worker dead-letters
/// other tasks. On one shared channel a document's return landed on a dead
/// letter's confirm and the document's own confirm said "ack": the task
/// was acked though the broker had dropped its document. On their own
/// channels every document is reported unroutable and every dead letter
/// confirmed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unroutable_document_is_never_reported_confirmed() {
    let names = Names::with_prefix(&unique("lost"));
    let (conn, ch) = declared(&names).await;
    let documents = Publisher::open(&conn, Encoding::Protobuf)
        .await
        .expect("publisher");
    let dead_letters = Publisher::open(&conn, Encoding::Protobuf)
        .await
        .expect("publisher");
    let (mut confirmed, mut unroutable, mut dead_confirmed) = (0usize, 0usize, 0usize);
    let body = vec![b'x'; 2048];
    for _round in 0..10 {
        let mut pending = Vec::new();
        for i in 0..200 {
            let (publisher, exchange, key) = if i % 2 == 0 {
                (&documents, names.results.as_str(), "document")
            } else {
                (&dead_letters, names.dead_letter_exchange.as_str(), "task")
            };
            let p = publisher
                .raw(exchange, key, &body, BasicProperties::default())
                .await
                .expect("publish");
            pending.push((key, p));
        }
        for (key, p) in pending {
            match (key, p.confirmed().await) {
                ("document", Ok(())) => confirmed += 1,
                ("document", Err(PublishError::Unroutable { .. })) => unroutable += 1,
                ("task", Ok(())) => dead_confirmed += 1,
                (k, Err(e)) => panic!("{k}: {e}"),
                (k, Ok(())) => panic!("{k}: unexpected"),
            }
        }
    }
    let _ = ch
        .queue_purge(names.dead_letter_queue.as_str().into(), Default::default())
        .await;
    topology::delete(&ch, &names).await.expect("delete");
    let _ = conn.close(200, "done".into()).await;
    assert_eq!(
        confirmed, 0,
        "documents no queue was bound for were reported confirmed"
    );
    assert_eq!((unroutable, dead_confirmed), (1000, 1000));
}

/// A channel-level error on a publisher's channel (here: a publish to an
/// exchange an operator deleted, 404) closes that channel for good while
/// the connection and the consumer stay open. The watchdog sees it and the
/// session starts over; before, every later task failed to publish and
/// was requeued until the broker's own delivery limit dead-lettered it,
/// without `x-linesift-kind`/`x-linesift-reason`.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_closed_publisher_channel_is_opened_again() {
    use lapin::options::{BasicGetOptions, BasicPublishOptions, ExchangeDeleteOptions};
    use linesift::worker::Shutdown;
    use std::time::Duration;

    let names = Names::with_prefix(&unique("pubch"));
    let (conn, ch) = declared(&names).await;
    let shutdown = Shutdown::new();
    let worker = spawn(worker_config(&names, AMQP.into()), &shutdown);
    let poison = |body: &'static [u8]| {
        let ch = ch.clone();
        let queue = names.tasks.clone();
        async move {
            ch.basic_publish(
                "".into(),
                queue.as_str().into(),
                BasicPublishOptions::default(),
                body,
                BasicProperties::default().with_content_type("application/x-protobuf".into()),
            )
            .await
            .expect("publish")
            .await
            .expect("confirm");
        }
    };
    // Dead letters: (body, x-linesift-kind).
    // Dead letters until one with body `want` arrives (or 8 s pass).
    let dead = |want: &'static [u8]| {
        let ch = ch.clone();
        let queue = names.dead_letter_queue.clone();
        async move {
            let mut out: Vec<(Vec<u8>, String)> = Vec::new();
            let deadline = tokio::time::Instant::now() + Duration::from_secs(8);
            while !out.iter().any(|(b, _)| b == want) && tokio::time::Instant::now() < deadline {
                match ch
                    .basic_get(queue.as_str().into(), BasicGetOptions { no_ack: true })
                    .await
                    .expect("get")
                {
                    Some(m) => {
                        let kind = string_header(&m.delivery.properties, "x-linesift-kind")
                            .unwrap_or_default();
                        out.push((m.delivery.data.clone(), kind));
                    }
                    None => tokio::time::sleep(Duration::from_millis(100)).await,
                }
            }
            out
        }
    };

    // Sanity: the worker dead-letters a poison task with its reason.
    poison(b"\x08\xff\xff first").await;
    let first = dead(b"\x08\xff\xff first").await;
    assert_eq!(first.len(), 1, "worker did not dead-letter");
    assert_eq!(first[0].1, "invalid_message");

    // An operator deletes the results exchange: the Failure event the
    // worker publishes with the next dead letter gets its channel closed.
    ch.exchange_delete(
        names.results.as_str().into(),
        ExchangeDeleteOptions::default(),
    )
    .await
    .expect("delete results exchange");
    poison(b"\x08\xff\xff second").await;
    let second = dead(b"\x08\xff\xff second").await;
    // The worker notices the closed channel, connects again and declares
    // the topology again (the results exchange with it); the next poison
    // task is dead-lettered by the worker, with its reason.
    poison(b"\x08\xff\xff third").await;
    let after = dead(b"\x08\xff\xff third").await;
    shutdown.trigger();
    let _ = tokio::time::timeout(Duration::from_secs(10), worker).await;
    topology::delete(&ch, &names).await.expect("delete");
    let _ = conn.close(200, "done".into()).await;
    let copies = |body: &[u8]| -> Vec<String> {
        second
            .iter()
            .chain(&after)
            .filter(|(b, _)| b.as_slice() == body)
            .map(|(_, kind)| kind.clone())
            .collect()
    };
    // One copy with our reason: the dead letter was confirmed, the event's
    // failure only logged (a requeue would have put the broker's own copy,
    // without our reason, beside ours).
    assert_eq!(copies(b"\x08\xff\xff second"), ["invalid_message"]);
    assert_eq!(
        copies(b"\x08\xff\xff third"),
        ["invalid_message"],
        "after its publisher channel closed, the worker could not dead-letter"
    );
}

/// A TCP proxy to the broker that can be frozen: while frozen it forwards
/// nothing either way but keeps the sockets open (a network partition, or
/// a broker that stopped reading: connection.blocked during an alarm).
mod frozen_proxy {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::Duration;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::net::{TcpListener, TcpStream};

    pub struct Proxy {
        pub port: u16,
        pub frozen: Arc<AtomicBool>,
    }

    impl Proxy {
        pub async fn start() -> Proxy {
            let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
            let port = listener.local_addr().expect("addr").port();
            let frozen = Arc::new(AtomicBool::new(false));
            let f = frozen.clone();
            tokio::spawn(async move {
                while let Ok((client, _)) = listener.accept().await {
                    let Ok(server) = TcpStream::connect("127.0.0.1:5672").await else {
                        continue;
                    };
                    let (cr, cw) = client.into_split();
                    let (sr, sw) = server.into_split();
                    tokio::spawn(pipe(cr, sw, f.clone()));
                    tokio::spawn(pipe(sr, cw, f.clone()));
                }
            });
            Proxy { port, frozen }
        }

        pub fn url(&self) -> String {
            format!("amqp://guest:guest@127.0.0.1:{}/%2f", self.port)
        }

        pub fn freeze(&self) {
            self.frozen.store(true, Ordering::SeqCst);
        }
    }

    async fn pipe(
        mut from: tokio::net::tcp::OwnedReadHalf,
        mut to: tokio::net::tcp::OwnedWriteHalf,
        frozen: Arc<AtomicBool>,
    ) {
        let mut buf = vec![0u8; 64 * 1024];
        loop {
            while frozen.load(Ordering::SeqCst) {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            let n = match from.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(n) => n,
            };
            while frozen.load(Ordering::SeqCst) {
                tokio::time::sleep(Duration::from_millis(50)).await;
            }
            if to.write_all(&buf[..n]).await.is_err() {
                return;
            }
        }
    }
}

/// The support module's small worker, with a drain deadline of 3 s.
fn worker_config(names: &Names, url: String) -> linesift::worker::WorkerConfig {
    amqp_support::worker_config(names, url, std::time::Duration::from_secs(3))
}

fn spawn(
    config: linesift::worker::WorkerConfig,
    shutdown: &linesift::worker::Shutdown,
) -> tokio::task::JoinHandle<()> {
    let shutdown = shutdown.clone();
    tokio::spawn(async move {
        let fetch = linesift::fetch::FetchOptions::default();
        let extractor = linesift::Extractor::new(linesift::Options::default());
        linesift::worker::run(config, extractor, fetch, shutdown)
            .await
            .expect("worker");
    })
}

/// SIGTERM while the broker does not answer (partition; or a disk alarm,
/// when the broker stops reading a publishing connection and lapin stops
/// writing to a blocked one): the consumer's cancel and the connection's
/// close are bounded too, so the worker stops within the drain deadline
/// (3 s here) and the close's few seconds. Unbounded, lapin gives up only
/// after ~120 s (twice the 60 s heartbeat), and during an alarm never.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutdown_during_a_partition_keeps_the_drain_deadline() {
    use std::time::Duration;
    let names = Names::with_prefix(&unique("drain"));
    let proxy = frozen_proxy::Proxy::start().await;
    let shutdown = linesift::worker::Shutdown::new();
    let worker = spawn(worker_config(&names, proxy.url()), &shutdown);
    // Let it connect, declare and start consuming.
    tokio::time::sleep(Duration::from_secs(2)).await;
    proxy.freeze();
    shutdown.trigger();
    let stopped = tokio::time::timeout(Duration::from_secs(10), worker).await;
    let conn = Connection::connect(AMQP, ConnectionProperties::default())
        .await
        .expect("broker");
    let ch = conn.create_channel().await.expect("channel");
    topology::delete(&ch, &names).await.expect("delete");
    let _ = conn.close(200, "done".into()).await;
    assert!(
        stopped.is_ok(),
        "worker still draining 10 s after shutdown (drain deadline 3 s)"
    );
}

/// SIGTERM while (re)connecting to a broker that accepted the TCP
/// connection but does not answer: lapin has no handshake timeout, so the
/// session's set-up is raced against the shutdown signal.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutdown_during_a_hung_connect_is_seen() {
    use std::time::Duration;
    let names = Names::with_prefix(&unique("connect"));
    let proxy = frozen_proxy::Proxy::start().await;
    proxy.freeze();
    let shutdown = linesift::worker::Shutdown::new();
    let worker = spawn(worker_config(&names, proxy.url()), &shutdown);
    tokio::time::sleep(Duration::from_secs(1)).await;
    shutdown.trigger();
    let stopped = tokio::time::timeout(Duration::from_secs(8), worker).await;
    assert!(
        stopped.is_ok(),
        "worker still connecting 8 s after shutdown"
    );
}
