//! A small raw-HTTP/1.1 server on 127.0.0.1 for the fetcher's tests and
//! benchmark: keep-alive, and replies written as scripted steps (bytes,
//! pauses, close) so tests can stall mid-body or chunk badly.

#![allow(dead_code)]

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

/// One request as the server saw it.
#[derive(Debug, Clone)]
pub struct Request {
    pub method: String,
    pub path: String,
    pub headers: Vec<(String, String)>,
}

impl Request {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// What the server writes, in order.
#[derive(Debug, Clone)]
pub enum Step {
    Send(Vec<u8>),
    Sleep(Duration),
    /// Close the connection after this reply.
    Close,
}

pub type Handler = dyn Fn(&Request) -> Vec<Step> + Send + Sync;

pub struct Server {
    pub addr: SocketAddr,
    log: Arc<Mutex<Vec<Request>>>,
    task: tokio::task::JoinHandle<()>,
}

impl Server {
    /// Starts a server on 127.0.0.1 with an ephemeral port.
    pub async fn start(handler: impl Fn(&Request) -> Vec<Step> + Send + Sync + 'static) -> Server {
        let listener = TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind 127.0.0.1");
        let addr = listener.local_addr().expect("local addr");
        let log = Arc::new(Mutex::new(Vec::new()));
        let handler: Arc<Handler> = Arc::new(handler);
        let log2 = Arc::clone(&log);
        let task = tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                tokio::spawn(serve(stream, Arc::clone(&handler), Arc::clone(&log2)));
            }
        });
        Server { addr, log, task }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{}", self.addr, path)
    }

    /// Paths requested so far, in order.
    pub fn paths(&self) -> Vec<String> {
        self.requests().into_iter().map(|r| r.path).collect()
    }

    pub fn requests(&self) -> Vec<Request> {
        self.log.lock().expect("log").clone()
    }

    /// How often `path` was requested.
    pub fn hits(&self, path: &str) -> usize {
        self.paths().iter().filter(|p| *p == path).count()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.task.abort();
    }
}

async fn serve(mut stream: TcpStream, handler: Arc<Handler>, log: Arc<Mutex<Vec<Request>>>) {
    let mut buf = Vec::new();
    loop {
        let Some(request) = read_request(&mut stream, &mut buf).await else {
            return;
        };
        let steps = handler(&request);
        log.lock().expect("log").push(request);
        for step in steps {
            match step {
                Step::Send(bytes) => {
                    if stream.write_all(&bytes).await.is_err() {
                        return;
                    }
                    let _ = stream.flush().await;
                }
                Step::Sleep(d) => tokio::time::sleep(d).await,
                Step::Close => return,
            }
        }
    }
}

async fn read_request(stream: &mut TcpStream, buf: &mut Vec<u8>) -> Option<Request> {
    loop {
        if let Some(end) = buf.windows(4).position(|w| w == b"\r\n\r\n") {
            let head = String::from_utf8_lossy(&buf[..end]).into_owned();
            buf.drain(..end + 4);
            return parse_head(&head);
        }
        let mut chunk = [0u8; 4096];
        let n = stream.read(&mut chunk).await.ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&chunk[..n]);
    }
}

fn parse_head(head: &str) -> Option<Request> {
    let mut lines = head.split("\r\n");
    let mut first = lines.next()?.split_whitespace();
    let method = first.next()?.to_string();
    let path = first.next()?.to_string();
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_string(), v.trim().to_string()))
        .collect();
    Some(Request {
        method,
        path,
        headers,
    })
}

/// A complete response with Content-Length.
pub fn response(status: &str, headers: &[(&str, &str)], body: &[u8]) -> Vec<Step> {
    let mut head = format!("HTTP/1.1 {status}\r\nContent-Length: {}\r\n", body.len());
    for (n, v) in headers {
        head.push_str(&format!("{n}: {v}\r\n"));
    }
    head.push_str("\r\n");
    let mut bytes = head.into_bytes();
    bytes.extend_from_slice(body);
    vec![Step::Send(bytes)]
}

/// 200 with an HTML body.
pub fn html(body: &[u8]) -> Vec<Step> {
    response(
        "200 OK",
        &[("Content-Type", "text/html; charset=utf-8")],
        body,
    )
}

/// A redirect.
pub fn redirect(location: &str) -> Vec<Step> {
    response("302 Found", &[("Location", location)], b"")
}

/// 404 Not Found.
pub fn not_found() -> Vec<Step> {
    response(
        "404 Not Found",
        &[("Content-Type", "text/plain")],
        b"not found",
    )
}

/// A chunked response, `pause` before each chunk after the first.
pub fn chunked(headers: &[(&str, &str)], body: &[u8], chunk: usize, pause: Duration) -> Vec<Step> {
    let mut head = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n".to_string();
    for (n, v) in headers {
        head.push_str(&format!("{n}: {v}\r\n"));
    }
    head.push_str("\r\n");
    let mut steps = vec![Step::Send(head.into_bytes())];
    for (i, part) in body.chunks(chunk.max(1)).enumerate() {
        if i > 0 && !pause.is_zero() {
            steps.push(Step::Sleep(pause));
        }
        let mut bytes = format!("{:x}\r\n", part.len()).into_bytes();
        bytes.extend_from_slice(part);
        bytes.extend_from_slice(b"\r\n");
        steps.push(Step::Send(bytes));
    }
    steps.push(Step::Send(b"0\r\n\r\n".to_vec()));
    steps
}

/// A realistic article page of roughly `paragraphs` × 300 bytes.
pub fn article(title: &str, paragraphs: usize) -> String {
    let mut page = format!(
        "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>{title} - Example News</title>\n\
         <style>body {{ font-family: sans-serif; }}</style></head>\n<body>\n\
         <nav><ul><li><a href=\"/\">Home</a></li><li><a href=\"/world\">World</a></li>\
         <li><a href=\"/sport\">Sport</a></li><li><a href=\"/about\">About us</a></li></ul></nav>\n\
         <div class=\"article\"><h1>{title}</h1>\n"
    );
    for i in 0..paragraphs {
        page.push_str(&format!(
            "<p>Paragraph {i} of the story about {title}. The council met on Tuesday to discuss \
             the plans, and residents who attended said they were broadly in favour of the \
             proposal, though several raised concerns about traffic and noise during the \
             construction period, which is expected to last for eighteen months.</p>\n"
        ));
    }
    page.push_str(
        "</div>\n<footer><a href=\"/privacy\">Privacy</a> | <a href=\"/terms\">Terms</a> | \
         <a href=\"/contact\">Contact</a></footer>\n</body></html>\n",
    );
    page
}
