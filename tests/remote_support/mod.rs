//! A file server for the remote WARC tests, on loopback: std's
//! `TcpListener` and a thread a connection (written here rather than
//! taken from a crate: the faults need byte-level control of the
//! response — a body cut after N bytes, a stall mid-body, a wrong
//! `Content-Range` — that a server framework hides). Serves one file at
//! every path, honours `Range: bytes=A-` and `A-B`, and answers each
//! request with the next scripted fault, then normally. Records each
//! request's `Range` header. Also moto's S3 server, and what the tests
//! of both compare.
#![allow(dead_code)]

use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The documents of a JSONL output of `linesift warc`, without the
/// fields that name the input (a path or a URL) and time the work.
pub fn documents(path: &std::path::Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| {
            let mut v: serde_json::Value = serde_json::from_str(l).unwrap();
            if let Some(fields) = v.as_object_mut() {
                fields.remove("warc_file");
                fields.remove("timings");
            }
            v
        })
        .collect()
}

/// What the server does with a request.
#[derive(Debug, Clone, Copy)]
pub enum Fault {
    /// Answers with this status and no body.
    Status(u16),
    /// Sends the headers of the whole answer and this many body bytes,
    /// then closes the connection.
    CutAfter(usize),
    /// Sends this many body bytes, then waits this long before the rest.
    StallAfter(usize, Duration),
    /// Answers a range request with a `Content-Range` that starts at 0.
    WrongRange,
}

#[derive(Default)]
struct State {
    faults: VecDeque<Fault>,
    /// Each request's `Range` header (`-` without one).
    requests: Vec<String>,
    /// Each request's `Authorization` and `X-Amz-Security-Token`
    /// headers (empty without one).
    signed: Vec<(String, String)>,
}

pub struct Origin {
    pub base: String,
    state: Arc<Mutex<State>>,
}

impl Origin {
    /// Serves `body` at every path of `http://127.0.0.1:PORT/`.
    pub fn serve(body: Vec<u8>) -> Origin {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let base = format!("http://{}/", listener.local_addr().unwrap());
        let state = Arc::new(Mutex::new(State::default()));
        let body = Arc::new(body);
        let shared = state.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(stream) = stream else { continue };
                let (state, body) = (shared.clone(), body.clone());
                std::thread::spawn(move || {
                    let _ = answer(stream, &state, &body);
                });
            }
        });
        Origin { base, state }
    }

    /// The next requests meet these faults, in order.
    pub fn script(&self, faults: &[Fault]) {
        self.state
            .lock()
            .unwrap()
            .faults
            .extend(faults.iter().cloned());
    }

    /// The `Range` header of each request so far (`-` for none).
    pub fn requests(&self) -> Vec<String> {
        self.state.lock().unwrap().requests.clone()
    }

    /// The `Authorization` and `X-Amz-Security-Token` headers of each
    /// request so far (empty for none).
    pub fn signed(&self) -> Vec<(String, String)> {
        self.state.lock().unwrap().signed.clone()
    }
}

fn answer(stream: TcpStream, state: &Mutex<State>, body: &[u8]) -> std::io::Result<()> {
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut range = None;
    let (mut authorization, mut token) = (String::new(), String::new());
    let mut line = String::new();
    reader.read_line(&mut line)?;
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header)? == 0 || header.trim().is_empty() {
            break;
        }
        let Some((name, value)) = header.split_once(':') else {
            continue;
        };
        let value = value.trim().to_string();
        match name.to_ascii_lowercase().as_str() {
            "range" => range = Some(value),
            "authorization" => authorization = value,
            "x-amz-security-token" => token = value,
            _ => {}
        }
    }
    let fault = {
        let mut state = state.lock().unwrap();
        state
            .requests
            .push(range.clone().unwrap_or_else(|| "-".into()));
        state.signed.push((authorization, token));
        state.faults.pop_front()
    };
    let mut out = stream;
    if let Some(Fault::Status(code)) = fault {
        let head =
            format!("HTTP/1.1 {code} Scripted\r\nContent-Length: 0\r\nConnection: close\r\n\r\n");
        return out.write_all(head.as_bytes());
    }
    let total = body.len();
    let (start, end) = match range.as_deref().and_then(parse_range) {
        Some((s, e)) => (s, e.map_or(total, |e| (e + 1).min(total))),
        None => (0, total),
    };
    if range.is_some() && start >= total {
        let head = format!(
            "HTTP/1.1 416 Range Not Satisfiable\r\nContent-Range: bytes */{total}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
        );
        return out.write_all(head.as_bytes());
    }
    let part = &body[start..end];
    let head = match (&range, &fault) {
        (Some(_), Some(Fault::WrongRange)) => format!(
            "HTTP/1.1 206 Partial Content\r\nContent-Range: bytes 0-{}/{total}\r\n",
            part.len() - 1
        ),
        (Some(_), _) => format!(
            "HTTP/1.1 206 Partial Content\r\nContent-Range: bytes {start}-{}/{total}\r\n",
            end - 1
        ),
        (None, _) => "HTTP/1.1 200 OK\r\n".to_string(),
    };
    let head = format!(
        "{head}Content-Length: {}\r\nETag: \"v1\"\r\nLast-Modified: Tue, 01 Dec 2026 10:00:00 GMT\r\n\
         Accept-Ranges: bytes\r\nConnection: close\r\n\r\n",
        part.len()
    );
    out.write_all(head.as_bytes())?;
    match fault {
        Some(Fault::CutAfter(n)) => {
            out.write_all(&part[..n.min(part.len())])?;
            out.flush()?;
            out.shutdown(std::net::Shutdown::Both)
        }
        Some(Fault::StallAfter(n, wait)) => {
            out.write_all(&part[..n.min(part.len())])?;
            out.flush()?;
            std::thread::sleep(wait);
            out.write_all(&part[n.min(part.len())..])
        }
        _ => out.write_all(part),
    }
}

/// `bytes=A-` or `bytes=A-B`.
fn parse_range(value: &str) -> Option<(usize, Option<usize>)> {
    let (a, b) = value.strip_prefix("bytes=")?.split_once('-')?;
    let end = match b.trim() {
        "" => None,
        b => Some(b.parse().ok()?),
    };
    Some((a.trim().parse().ok()?, end))
}

/// moto's S3 server on loopback (`moto_server` from the project's venv,
/// which scripts/test.sh sets up), stopped when dropped. It stands in
/// for S3: the requests, ranges, ETags and errors of its API, not its
/// authentication (moto takes any signature) or its performance.
pub struct Moto {
    pub endpoint: String,
    child: std::process::Child,
}

impl Moto {
    pub fn start() -> Moto {
        let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
        let server = root.join(".venv/bin/moto_server");
        assert!(
            server.exists(),
            "{} missing: .venv/bin/pip install 'moto[server]' (scripts/test.sh --setup-only does)",
            server.display()
        );
        // A free port: bound, read, released, then taken by moto.
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let child = std::process::Command::new(server)
            .args(["-H", "127.0.0.1", "-p", &port.to_string()])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let moto = Moto {
            endpoint: format!("http://127.0.0.1:{port}"),
            child,
        };
        for _ in 0..200 {
            if TcpStream::connect(("127.0.0.1", port)).is_ok() {
                return moto;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        panic!("moto_server did not listen on 127.0.0.1:{port} within 10 s");
    }

    /// Creates `bucket` (if need be) and puts `bytes` at `key` with the
    /// canned ACL `acl` (`private`, `public-read`), with boto3 (which moto
    /// brings).
    pub fn put(&self, bucket: &str, key: &str, acl: &str, bytes: &[u8]) {
        let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"));
        let script = "import sys, boto3\n\
            s3 = boto3.client('s3', endpoint_url=sys.argv[1], region_name='us-east-1',\n\
                aws_access_key_id='test', aws_secret_access_key='test')\n\
            try: s3.create_bucket(Bucket=sys.argv[2])\n\
            except s3.exceptions.BucketAlreadyOwnedByYou: pass\n\
            s3.put_object(Bucket=sys.argv[2], Key=sys.argv[3], ACL=sys.argv[4], Body=sys.stdin.buffer.read())\n";
        let mut child = std::process::Command::new(root.join(".venv/bin/python"))
            .args(["-c", script, &self.endpoint, bucket, key, acl])
            .stdin(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(bytes).unwrap();
        assert!(child.wait().unwrap().success(), "boto3 could not put {key}");
    }
}

impl Drop for Moto {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
