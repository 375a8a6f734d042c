//! The deployment's topology without containers: the real broker on
//! 127.0.0.1:5672, two `linesift worker` processes, and a real Prometheus
//! (Debian's `prometheus` package) scraping both on loopback, as
//! `deploy/prometheus/prometheus.yml` does in the compose stack. The test
//! reads a worker metric back through Prometheus's query API.
//!
//! Skips with a note when the `prometheus` binary is not installed; needs
//! RabbitMQ like the other broker tests (`.ci/run` starts it).
//!
//! Also the compose demo's broker without containers: the objects of
//! `deploy/rabbitmq/definitions.json` imported into a throwaway vhost, a
//! worker with the compose file's environment, and the demo's sample WARC
//! enqueued as the compose `enqueue` service does: its documents must reach
//! the demo's documents queue and the task be acked, not dead-lettered.

mod amqp_support;

use amqp_support::definitions::DefinitionsVhost;
use amqp_support::{AMQP, free_port};
use lapin::options::{BasicAckOptions, BasicGetOptions};
use lapin::{Connection, ConnectionProperties};
use linesift::proto::{self, DocumentMessage, Encoding, Failure};
use linesift::worker::publish::Publisher;
use linesift::worker::{Names, topology};
use serde_norway::Value as Yaml;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A child process killed when the test ends, however it ends.
struct Killed(Child);

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A plain HTTP/1.0 GET on loopback; `None` while nothing answers.
fn http_get(port: u16, path: &str) -> Option<String> {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).ok()?;
    stream.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
    write!(stream, "GET {path} HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n").ok()?;
    let mut body = String::new();
    stream.read_to_string(&mut body).ok()?;
    Some(body)
}

fn worker(prefix: &str, port: u16) -> Killed {
    let child = Command::new(env!("CARGO_BIN_EXE_linesift"))
        .args(["worker", "--prefix", prefix, "--http"])
        .arg(format!("127.0.0.1:{port}"))
        .env("AMQP_URL", AMQP)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start linesift worker");
    Killed(child)
}

fn prometheus(dir: &Path, targets: &[u16], port: u16) -> Killed {
    let targets: Vec<String> = targets.iter().map(|p| format!("'127.0.0.1:{p}'")).collect();
    let config = format!(
        "global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: linesift\n    \
         static_configs:\n      - targets: [{}]\n",
        targets.join(", ")
    );
    let file = dir.join("prometheus.yml");
    std::fs::write(&file, config).expect("write prometheus.yml");
    let child = Command::new("prometheus")
        .arg(format!("--config.file={}", file.display()))
        .arg(format!(
            "--storage.tsdb.path={}",
            dir.join("data").display()
        ))
        .arg(format!("--web.listen-address=127.0.0.1:{port}"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start prometheus");
    Killed(child)
}

/// Starts a server on a port that was free a moment ago and waits until
/// it answers `path` as itself. Concurrent tests pick ports the same way,
/// so a server that lost its port to another process exits, and is
/// started again on a new port.
fn on_a_free_port(
    start: impl Fn(u16) -> Killed,
    is_ours: impl Fn(&str) -> bool,
    path: &str,
) -> (Killed, u16) {
    for _ in 0..5 {
        let port = free_port();
        let mut server = start(port);
        let deadline = Instant::now() + Duration::from_secs(30);
        while Instant::now() < deadline {
            if matches!(server.0.try_wait(), Ok(Some(_))) {
                break;
            }
            if http_get(port, path).is_some_and(|reply| is_ours(&reply)) {
                return (server, port);
            }
            std::thread::sleep(Duration::from_millis(200));
        }
    }
    panic!("no server answered {path} on any of five free ports");
}

/// Polls the query API until both workers' series are there.
fn wait_for_two_series(port: u16, query: &str) -> Result<String, String> {
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut last = String::new();
    while Instant::now() < deadline {
        if let Some(reply) = http_get(port, &format!("/api/v1/query?query={query}")) {
            let series = reply.matches("\"instance\":").count();
            if reply.contains("\"status\":\"success\"") && series == 2 {
                return Ok(reply);
            }
            last = reply;
        }
        std::thread::sleep(Duration::from_millis(500));
    }
    Err(last)
}

fn delete_topology(prefix: &str) {
    let Ok(rt) = tokio::runtime::Runtime::new() else {
        return;
    };
    rt.block_on(async {
        if let Ok(conn) = Connection::connect(AMQP, ConnectionProperties::default()).await
            && let Ok(ch) = conn.create_channel().await
        {
            let _ = topology::delete(&ch, &Names::with_prefix(prefix)).await;
        }
    });
}

#[test]
fn prometheus_scrapes_two_workers_on_loopback() {
    if Command::new("prometheus")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!("note: prometheus is not installed; skipping the scrape test");
        return;
    }
    let prefix = amqp_support::unique("lstest", "prom");
    let dir = std::env::temp_dir().join(format!("{prefix}-dir"));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let (workers, ports): (Vec<Killed>, Vec<u16>) = (0..2)
        .map(|_| {
            on_a_free_port(
                |port| worker(&prefix, port),
                |reply| reply.contains("linesift_"),
                "/metrics",
            )
        })
        .unzip();
    let (prom, prom_port) = on_a_free_port(
        |port| prometheus(&dir, &ports, port),
        |reply| reply.contains("Prometheus"),
        "/-/ready",
    );

    let result = wait_for_two_series(prom_port, "linesift_tasks_in_flight");

    drop(prom);
    drop(workers);
    delete_topology(&prefix);
    let _ = std::fs::remove_dir_all(&dir);
    let reply = result.unwrap_or_else(|last| {
        panic!("Prometheus never had both workers' linesift_tasks_in_flight; last reply: {last}")
    });
    for port in &ports {
        assert!(reply.contains(&format!("127.0.0.1:{port}")), "{reply}");
    }
}

/// The compose file's worker environment (`<<: *linesift-env` merged).
fn compose_worker_env() -> Vec<(String, String)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docker-compose.yml");
    let text = std::fs::read_to_string(path).expect("docker-compose.yml");
    let mut compose: Yaml = serde_norway::from_str(&text).expect("docker-compose.yml parses");
    compose.apply_merge().expect("merge keys");
    compose["services"]["worker"]["environment"]
        .as_mapping()
        .expect("worker environment")
        .iter()
        .map(|(k, v)| {
            let value = match v {
                Yaml::String(s) => s.clone(),
                other => serde_norway::to_string(other).unwrap().trim().to_string(),
            };
            (k.as_str().unwrap().to_string(), value)
        })
        .collect()
}

/// `linesift SUBCOMMAND` with the compose stack's worker environment, the
/// broker URL and HTTP address replaced by the test's, and no LINESIFT_*
/// setting of the test's own environment leaking in.
fn with_compose_env(subcommand: &str, amqp_url: &str, http: &str) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_linesift"));
    command.arg(subcommand);
    for (key, _) in std::env::vars() {
        if key.starts_with("LINESIFT_") || key == "AMQP_URL" {
            command.env_remove(key);
        }
    }
    for (key, value) in compose_worker_env() {
        command.env(key, value);
    }
    command.env("AMQP_URL", amqp_url).env("LINESIFT_HTTP", http);
    command
}

/// A counter's value in a worker's /metrics page (0 when absent).
fn counter(metrics: &str, name: &str) -> u64 {
    metrics
        .lines()
        .filter(|l| l.starts_with(name))
        .filter_map(|l| l.rsplit(' ').next()?.parse::<f64>().ok())
        .sum::<f64>() as u64
}

/// The compose demo as RabbitMQ loads it: a worker configured as the
/// compose file configures it runs the sample WARC task the `enqueue`
/// service sends, its documents are confirmed into `linesift.documents`
/// and the task acked, never retried or dead-lettered (with nothing bound
/// for `document`, each attempt came back unroutable and the task ended
/// in `linesift.dead`). A failure event, published `mandatory` here so
/// that an unbound one is an error, reaches `linesift.failures`.
#[test]
fn compose_demo_topology_routes_documents_and_failures() {
    let Some(broker) = DefinitionsVhost::import("demo") else {
        return;
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let sample = root.join("deploy/sample/sample.warc.gz");
    let pages = std::fs::read_dir(root.join("deploy/sample/site"))
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .unwrap()
                .path()
                .extension()
                .is_some_and(|x| x == "html")
        })
        .count() as u64;
    let list = std::env::temp_dir().join(format!("{}-warc-files.txt", broker.vhost));
    std::fs::write(&list, format!("{}\n", sample.display())).unwrap();

    let port = free_port();
    let http = format!("127.0.0.1:{port}");
    let worker = with_compose_env("worker", &broker.url, &http)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start linesift worker");
    let worker = Killed(worker);
    let enqueued = with_compose_env("enqueue", &broker.url, &http)
        .arg(&list)
        .args(["--kind", "warc-files"])
        .output()
        .expect("run linesift enqueue");
    let _ = std::fs::remove_file(&list);
    assert!(
        enqueued.status.success(),
        "linesift enqueue: {}",
        String::from_utf8_lossy(&enqueued.stderr)
    );

    // Until the task is settled one way or the other.
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut metrics = String::new();
    while Instant::now() < deadline {
        metrics = http_get(port, "/metrics").unwrap_or_default();
        let settled = counter(&metrics, "linesift_tasks_acked_total")
            + counter(&metrics, "linesift_tasks_retried_total")
            + counter(&metrics, "linesift_tasks_dead_lettered_total");
        if settled > 0 {
            break;
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    drop(worker);
    assert_eq!(
        counter(&metrics, "linesift_tasks_retried_total"),
        0,
        "the sample task was retried:\n{metrics}"
    );
    assert_eq!(
        counter(&metrics, "linesift_tasks_dead_lettered_total"),
        0,
        "the sample task was dead-lettered:\n{metrics}"
    );
    assert_eq!(
        counter(&metrics, "linesift_tasks_acked_total"),
        1,
        "the sample task was not acked in 60 s:\n{metrics}"
    );
    assert_eq!(
        counter(&metrics, "linesift_documents_published_total"),
        pages,
        "{metrics}"
    );

    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let conn = Connection::connect(&broker.url, ConnectionProperties::default())
            .await
            .expect("connect to the demo vhost");
        let ch = conn.create_channel().await.unwrap();
        assert_eq!(
            topology::ready_count(&ch, "linesift.documents")
                .await
                .unwrap() as u64,
            pages
        );
        assert_eq!(
            topology::ready_count(&ch, "linesift.dead").await.unwrap(),
            0
        );
        assert_eq!(
            topology::ready_count(&ch, "linesift.tasks").await.unwrap(),
            0
        );
        let got = ch
            .basic_get("linesift.documents".into(), BasicGetOptions::default())
            .await
            .unwrap()
            .expect("a document");
        let content_type = got.delivery.properties.content_type().clone();
        let doc: DocumentMessage = proto::decode(
            &got.delivery.data,
            content_type.as_ref().map(|c| c.as_str()),
        )
        .expect("a DocumentMessage");
        assert!(doc.url.starts_with("http://sample/"), "{doc:?}");
        got.delivery.ack(BasicAckOptions::default()).await.unwrap();

        // Failure events: the worker sends them without `mandatory` (they
        // need no receiver), so only a mandatory publish shows the binding.
        let publisher = Publisher::open(&conn, Encoding::Protobuf).await.unwrap();
        let failure = Failure {
            task_id: "demo".into(),
            stage: "fetch".into(),
            kind: "timeout".into(),
            ..Failure::default()
        };
        publisher
            .message(
                "linesift.results",
                topology::ROUTING_FAILURE,
                &failure,
                "demo",
            )
            .await
            .unwrap()
            .confirmed()
            .await
            .expect("a failure event routed to a queue");
        assert_eq!(
            topology::ready_count(&ch, "linesift.failures")
                .await
                .unwrap(),
            1
        );
        conn.close(200, "done".into()).await.ok();
    });
}
