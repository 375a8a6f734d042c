//! The deployment's topology without containers: the real broker on
//! 127.0.0.1:5672, two `linesift worker` processes, and a real Prometheus
//! (Debian's `prometheus` package) scraping both on loopback, as
//! `deploy/prometheus/prometheus.yml` does in the compose stack. The test
//! reads a worker metric back through Prometheus's query API.
//!
//! Skips with a note when the `prometheus` binary is not installed; needs
//! RabbitMQ like the other broker tests (`.ci/run` starts it).

mod amqp_support;

use amqp_support::{AMQP, free_port};
use lapin::{Connection, ConnectionProperties};
use linesift::worker::{Names, topology};
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
    let ports = [free_port(), free_port()];
    let workers: Vec<Killed> = ports.iter().map(|&p| worker(&prefix, p)).collect();
    let prom_port = free_port();
    let prom = prometheus(&dir, &ports, prom_port);

    let result = wait_for_two_series(prom_port, "linesift_tasks_in_flight");

    drop(prom);
    drop(workers);
    delete_topology(&prefix);
    let _ = std::fs::remove_dir_all(&dir);
    let reply = result.unwrap_or_else(|last| {
        panic!("Prometheus never had both workers' linesift_tasks_in_flight; last reply: {last}")
    });
    for port in ports {
        assert!(reply.contains(&format!("127.0.0.1:{port}")), "{reply}");
    }
}
