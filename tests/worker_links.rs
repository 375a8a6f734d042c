//! The worker's links messages against the real RabbitMQ on
//! 127.0.0.1:5672 (guest/guest; `.ci/run` starts it): with a links routing
//! key, each document's outlinks arrive as one `PageLinks` message under
//! that key, in the queue the worker binds for it, and the document itself
//! carries them only when asked to.

mod amqp_support;

use amqp_support::{AMQP, warc_of, worker_config};
use lapin::options::{BasicAckOptions, BasicGetOptions, QueueDeclareOptions, QueueDeleteOptions};
use lapin::types::{AMQPValue, FieldTable, LongString};
use lapin::{Channel, Connection, ConnectionProperties};
use linesift::proto::{self, DocumentMessage, Encoding, PageLinks, Task, WarcRecord, task};
use linesift::worker::config::LinksRoute;
use linesift::worker::{self, Names, Shutdown, WorkerConfig, topology};
use linesift::{Extractor, Options};
use std::time::Duration;

const ARTICLE: &str = include_str!("fixtures/links/article.html");
const PAGE_URL: &str = "https://coast.example/2024/tides.html";

/// The next message of `queue`, acked, with its routing key; waits up to
/// 30 s.
async fn next(ch: &Channel, queue: &str) -> (String, Vec<u8>, Option<String>) {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    loop {
        let got = ch
            .basic_get(queue.into(), BasicGetOptions::default())
            .await
            .expect("get");
        if let Some(m) = got {
            m.delivery
                .ack(BasicAckOptions::default())
                .await
                .expect("ack");
            let ct = m.delivery.properties.content_type().as_ref();
            let ct = ct.map(|c| c.to_string());
            return (m.delivery.routing_key.to_string(), m.delivery.data, ct);
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "nothing in {queue} after 30 s"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Runs one worker with `config` and `options` over a record task of the
/// links fixture; returns the document and the links message.
async fn links_of_one_record(
    suite: &str,
    options: Options,
    links_in_documents: bool,
    encoding: Encoding,
) -> (DocumentMessage, PageLinks) {
    let names = Names::with_prefix(&amqp_support::unique("lslinks", suite));
    let conn = Connection::connect(AMQP, ConnectionProperties::default())
        .await
        .expect("RabbitMQ on 127.0.0.1:5672");
    let ch = conn.create_channel().await.expect("channel");
    topology::declare(&conn, &names, 3).await.expect("declare");
    let path = std::env::temp_dir().join(format!("{}.warc", names.tasks));
    let (bytes, records) = warc_of([(PAGE_URL.to_string(), ARTICLE.to_string())]);
    std::fs::write(&path, bytes).expect("write warc");
    let route = LinksRoute {
        routing_key: "frontier".into(),
        queue: format!("{}.links", names.tasks),
    };
    let config = WorkerConfig {
        // The worker declares and binds documents, failures and links.
        bind_results: true,
        links: Some(route.clone()),
        links_in_documents,
        encoding,
        ..worker_config(&names, AMQP.into(), Duration::from_secs(10))
    };
    // The queues are read before the worker has declared them: made
    // here as the worker makes them, and bound by the worker alone.
    for queue in [&route.queue, &names.documents] {
        let mut args = FieldTable::default();
        args.insert(
            "x-queue-type".into(),
            AMQPValue::LongString(LongString::from("quorum")),
        );
        ch.queue_declare(queue.as_str().into(), QueueDeclareOptions::durable(), args)
            .await
            .expect("declare");
    }
    let (offset, length, _) = records[0].clone();
    let tasks = [Task {
        id: "links-1".into(),
        source: Some(task::Source::WarcRecord(WarcRecord {
            path: path.display().to_string(),
            offset,
            length,
        })),
        ..Task::default()
    }];
    worker::enqueue::enqueue(AMQP, &names, 3, &tasks, Encoding::Protobuf)
        .await
        .expect("enqueue");
    let shutdown = Shutdown::new();
    let running = {
        let shutdown = shutdown.clone();
        tokio::spawn(async move {
            let fetch = linesift::fetch::FetchOptions::default();
            worker::run(config, Extractor::new(options), fetch, shutdown)
                .await
                .expect("worker");
        })
    };
    let (key, body, ct) = next(&ch, &route.queue).await;
    assert_eq!(key, "frontier");
    let links: PageLinks = proto::decode(&body, ct.as_deref()).expect("a links message");
    let (key, body, ct) = next(&ch, &names.documents).await;
    assert_eq!(key, "document");
    let doc: DocumentMessage = proto::decode(&body, ct.as_deref()).expect("a document");
    shutdown.trigger();
    tokio::time::timeout(Duration::from_secs(15), running)
        .await
        .expect("drained in time")
        .expect("worker task");
    ch.queue_delete(route.queue.as_str().into(), QueueDeleteOptions::default())
        .await
        .expect("delete links queue");
    topology::delete(&ch, &names)
        .await
        .expect("delete topology");
    let _ = conn.close(200, "done".into()).await;
    let _ = std::fs::remove_file(&path);
    (doc, links)
}

/// With extraction options that ask for no links, the worker still reads
/// them for its links message; the document goes without.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_links_message_arrives_under_its_routing_key() {
    let (doc, links) =
        links_of_one_record("apart", Options::default(), false, Encoding::Protobuf).await;
    assert_eq!(links.document_id, doc.document_id);
    assert_eq!(links.task_id, "links-1");
    assert_eq!(links.url, PAGE_URL);
    assert_eq!(
        links.canonical.as_deref(),
        Some("https://coast.example/notes/tides.html?print=0")
    );
    let got: Vec<(&str, bool)> = links
        .links
        .iter()
        .map(|l| (l.url.as_str(), l.in_content))
        .collect();
    assert_eq!(
        got,
        [
            ("https://coast.example/", false),
            ("https://coast.example/notes/archive/", false),
            ("https://survey.example.org/bay-2024", true),
            ("https://coast.example/notes/crossing.html", true),
            ("https://archive.example.net/tides/1998", true),
            ("https://coast.example/errata.html", true),
            ("https://coast.example/feed.xml", true),
            ("https://coast.example/privacy", false),
        ]
    );
    assert_eq!(links.links[2].rel, "external nofollow");
    assert_eq!(links.links[2].text, "2024 survey of the bay");
    assert!(doc.links.is_empty(), "{:?}", doc.links);
    assert!(doc.text.contains("crossing times"));
}

/// With `--links` too, the document carries the same links (JSON
/// encoding here).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn documents_carry_the_links_too_when_asked() {
    let options = Options {
        links: true,
        ..Options::default()
    };
    let (doc, links) = links_of_one_record("both", options, true, Encoding::Json).await;
    assert_eq!(links.links.len(), 8);
    assert_eq!(doc.links, links.links);
}
