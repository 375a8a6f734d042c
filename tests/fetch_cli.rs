//! `linesift extract` with URL inputs, alone and mixed with files, against
//! a raw HTTP server on 127.0.0.1.

mod fetch_support;

use fetch_support::{Request, Server, article, html, not_found, redirect};
use serde_json::Value;
use std::process::Command;

async fn start() -> Server {
    Server::start(|r: &Request| match r.path.as_str() {
        "/robots.txt" => not_found(),
        "/old" => redirect("/story"),
        "/gone" => redirect("/missing"),
        "/story" => html(article("Bridge reopens", 10).as_bytes()),
        _ => not_found(),
    })
    .await
}

async fn run(args: Vec<String>) -> (Vec<Value>, i32) {
    let (lines, code, _) = run_with_stderr(args).await;
    (lines, code)
}

/// `run`, and what the run wrote on stderr.
async fn run_with_stderr(args: Vec<String>) -> (Vec<Value>, i32, String) {
    let out = tokio::task::spawn_blocking(move || {
        Command::new(env!("CARGO_BIN_EXE_linesift"))
            .args(&args)
            .output()
            .expect("run linesift")
    })
    .await
    .expect("join");
    let lines = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON line"))
        .collect();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    (lines, out.status.code().unwrap_or(-1), stderr)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn urls_and_files_mixed_keep_order_and_report_errors_with_the_url() {
    let srv = start().await;
    let dir = std::env::temp_dir().join(format!("linesift-fetch-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("page.html");
    std::fs::write(&file, article("Local file", 10)).expect("write");
    let args = vec![
        "extract".into(),
        "--format".into(),
        "jsonl".into(),
        "--allow-private".into(),
        srv.url("/old"),
        file.display().to_string(),
        srv.url("/missing"),
    ];
    let (lines, code) = run(args).await;
    assert_eq!(code, 1, "one input failed");
    assert_eq!(lines.len(), 3);
    assert_eq!(lines[0]["path"], srv.url("/old"));
    assert_eq!(lines[0]["url"], srv.url("/story"));
    assert!(
        lines[0]["text"]
            .as_str()
            .unwrap_or("")
            .contains("Bridge reopens")
    );
    assert!(
        lines[1]["text"]
            .as_str()
            .unwrap_or("")
            .contains("Local file")
    );
    assert_eq!(lines[2]["path"], srv.url("/missing"));
    assert_eq!(lines[2]["error_kind"], "http_status");
    assert!(
        lines[2]["error"]
            .as_str()
            .unwrap_or("")
            .contains("/missing")
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn loopback_needs_allow_private() {
    let srv = start().await;
    let args = vec![
        "extract".into(),
        "--format".into(),
        "jsonl".into(),
        srv.url("/story"),
    ];
    let (lines, code) = run(args).await;
    assert_eq!(code, 1);
    assert_eq!(lines[0]["error_kind"], "refused_address");
    assert!(srv.paths().is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn inputs_are_shown_without_their_credentials() {
    let srv = start().await;
    let with = |path: &str| srv.url(path).replacen("http://", "http://user:s3cret@", 1);
    let args = vec![
        "extract".into(),
        "--format".into(),
        "jsonl".into(),
        "--allow-private".into(),
        with("/story"),
        with("/missing"),
        // A port and an `@` after it, no credentials: the path stays whole.
        srv.url("/missing?who=a@b.example"),
        // What a password holding a `/` would look like to the parser
        // (`user:PORT/s3cret@host`): the log cuts it, the `path` keeps the
        // page as fetched.
        srv.url("/s3cret@example.org/"),
    ];
    let (lines, code, stderr) = run_with_stderr(args).await;
    assert_eq!(code, 1, "inputs failed");
    assert_eq!(lines.len(), 4);
    assert_eq!(lines[2]["path"], srv.url("/missing?who=a@b.example"));
    assert_eq!(lines[3]["path"], srv.url("/s3cret@example.org/"));
    assert!(
        stderr.contains("linesift: http://***@example.org/"),
        "{stderr}"
    );
    assert_eq!(lines[0]["path"], srv.url("/story"));
    assert_eq!(lines[0]["url"], srv.url("/story"));
    assert_eq!(lines[1]["path"], srv.url("/missing"));
    assert_eq!(lines[1]["error_kind"], "http_status");
    // The failed input is named on stderr, without the password too.
    assert!(stderr.contains(&srv.url("/missing")), "{stderr}");
    for line in &lines[..3] {
        assert!(!line.to_string().contains("s3cret"), "{line}");
    }
    assert!(!stderr.contains("s3cret"), "{stderr}");
}

/// A URL that fails is named once on stderr: the fetcher's message
/// without the URL after it, or with the URL it failed at when a
/// redirect led elsewhere.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_url_is_named_once_on_stderr() {
    let srv = start().await;
    let args = vec![
        "extract".into(),
        "--allow-private".into(),
        srv.url("/missing"),
        srv.url("/gone"),
    ];
    let (lines, code, stderr) = run_with_stderr(args).await;
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(lines[0]["error_kind"], "http_status");
    let said: Vec<&str> = stderr.lines().collect();
    assert_eq!(
        said,
        [
            format!("linesift: {}: HTTP status 404", srv.url("/missing")),
            format!(
                "linesift: {}: HTTP status 404 from {}",
                srv.url("/gone"),
                srv.url("/missing")
            ),
        ],
        "{stderr}"
    );
}
