//! What the tests against the local RabbitMQ (127.0.0.1:5672, guest/guest;
//! `.ci/run` starts it) share: its URL, names no other test or earlier
//! run uses, so tests running at once never meet each other's queues, and
//! a way to read a worker's HTTP endpoints (/metrics, /readyz).

#![allow(dead_code)]

use std::sync::atomic::{AtomicUsize, Ordering};

pub const AMQP: &str = "amqp://guest:guest@127.0.0.1:5672/%2f";

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
