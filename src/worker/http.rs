//! A tiny HTTP/1.1 server for `/metrics` (Prometheus text), `/healthz`
//! (the process is alive) and `/readyz` (connected to the broker and
//! consuming). Plain tokio: one request per connection, GET only, request
//! heads up to 8 KiB; it is an operations endpoint, not a web server.

use super::metrics::Metrics;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// What the endpoints report on; shared with the consumer loop.
#[derive(Debug)]
pub struct Health {
    pub metrics: Metrics,
    /// Set while a consumer is active on a live connection.
    pub ready: AtomicBool,
}

impl Health {
    pub fn new(metrics: Metrics) -> Arc<Self> {
        Arc::new(Health {
            metrics,
            ready: AtomicBool::new(false),
        })
    }

    pub fn set_ready(&self, ready: bool) {
        self.ready.store(ready, Ordering::SeqCst);
    }

    pub fn is_ready(&self) -> bool {
        self.ready.load(Ordering::SeqCst)
    }
}

/// Serves until the task is dropped or aborted. Binding errors are
/// returned before serving starts.
pub async fn bind(addr: std::net::SocketAddr) -> std::io::Result<TcpListener> {
    TcpListener::bind(addr).await
}

/// Accepts connections forever; each is answered on its own task.
pub async fn serve(listener: TcpListener, health: Arc<Health>) {
    loop {
        let Ok((stream, _)) = listener.accept().await else {
            // Out of file descriptors and the like: back off, keep serving.
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        };
        let health = health.clone();
        tokio::spawn(async move {
            // A slow or silent client must not hold a task forever.
            let _ = tokio::time::timeout(Duration::from_secs(10), answer(stream, &health)).await;
        });
    }
}

async fn answer(mut stream: TcpStream, health: &Health) -> std::io::Result<()> {
    let mut head = Vec::with_capacity(1024);
    let mut buf = [0u8; 1024];
    while !head.windows(4).any(|w| w == b"\r\n\r\n") && head.len() < 8192 {
        let n = stream.read(&mut buf).await?;
        if n == 0 {
            break;
        }
        head.extend_from_slice(&buf[..n]);
    }
    let (status, content_type, body) = route(&head, health);
    let response = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(response.as_bytes()).await?;
    stream.shutdown().await
}

/// Status line, content type and body for a request head.
fn route(head: &[u8], health: &Health) -> (&'static str, &'static str, String) {
    let line = head.split(|&b| b == b'\n').next().unwrap_or_default();
    let line = String::from_utf8_lossy(line);
    let mut parts = line.split_whitespace();
    let (method, path) = (parts.next(), parts.next().unwrap_or("/"));
    let path = path.split('?').next().unwrap_or(path);
    const TEXT: &str = "text/plain; charset=utf-8";
    if method != Some("GET") {
        return ("405 Method Not Allowed", TEXT, "GET only\n".into());
    }
    match path {
        "/metrics" => (
            "200 OK",
            "text/plain; version=0.0.4; charset=utf-8",
            health.metrics.render(),
        ),
        "/healthz" => ("200 OK", TEXT, "ok\n".into()),
        "/readyz" if health.is_ready() => ("200 OK", TEXT, "ready\n".into()),
        "/readyz" => ("503 Service Unavailable", TEXT, "not ready\n".into()),
        _ => ("404 Not Found", TEXT, "not found\n".into()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes() -> Result<(), prometheus::Error> {
        let health = Health::new(Metrics::new()?);
        assert_eq!(route(b"GET /healthz HTTP/1.1\r\n", &health).0, "200 OK");
        assert!(
            route(b"GET /readyz HTTP/1.1\r\n", &health)
                .0
                .starts_with("503")
        );
        health.set_ready(true);
        assert_eq!(route(b"GET /readyz HTTP/1.1\r\n", &health).0, "200 OK");
        let (_, _, body) = route(b"GET /metrics HTTP/1.1\r\n", &health);
        assert!(body.contains("linesift_tasks_in_flight"));
        assert!(
            route(b"GET /nope HTTP/1.1\r\n", &health)
                .0
                .starts_with("404")
        );
        assert!(
            route(b"POST /metrics HTTP/1.1\r\n", &health)
                .0
                .starts_with("405")
        );
        Ok(())
    }
}
