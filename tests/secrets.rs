//! Credentials never reach logs, help text or metrics: the AMQP URL's
//! password is given through the environment (as deployments do) and must
//! not appear in `--help`, in what the worker and `enqueue` print while they
//! fail to log in, or in the worker's HTTP endpoints.
//!
//! The broker on 127.0.0.1:5672 refuses the wrong password; without a
//! broker the connection is refused instead, and the password must stay
//! hidden on that path too, so these tests hold either way.

mod amqp_support;

use amqp_support::{free_port, get};
use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_linesift");
const SECRET: &str = "Zq7-not-the-password-9Xw";

fn url_with_secret() -> String {
    format!("amqp://guest:{SECRET}@127.0.0.1:5672/%2f")
}

fn run(args: &[&str], stdin: &str) -> String {
    let mut child = Command::new(BIN)
        .args(args)
        .env("AMQP_URL", url_with_secret())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run linesift");
    if let Some(mut input) = child.stdin.take() {
        input.write_all(stdin.as_bytes()).expect("write stdin");
    }
    let out = child.wait_with_output().expect("wait");
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[test]
fn help_never_shows_the_password_from_the_environment() {
    for command in ["worker", "enqueue"] {
        let help = run(&[command, "--help"], "");
        assert!(help.contains("AMQP_URL"), "{command} --help: {help}");
        assert!(!help.contains(SECRET), "{command} --help leaks: {help}");
    }
}

#[test]
fn enqueue_failing_to_log_in_does_not_print_the_password() {
    let out = run(&["enqueue", "-"], "https://example.com/\n");
    assert!(
        out.contains("broker"),
        "enqueue did not reach the broker: {out}"
    );
    assert!(!out.contains(SECRET), "enqueue leaks: {out}");
}

#[test]
fn worker_retrying_a_refused_login_keeps_the_password_out_of_logs_and_metrics() {
    let port = free_port();
    let mut child = Command::new(BIN)
        .args(["worker", "--http", &format!("127.0.0.1:{port}")])
        .env("AMQP_URL", url_with_secret())
        .env("LINESIFT_PREFIX", "lssecret")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start worker");
    // Let it fail and retry at least once, then read every endpoint.
    let deadline = Instant::now() + Duration::from_secs(20);
    let mut metrics = String::new();
    while Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(500));
        metrics = get(port, "/metrics");
        if metrics.contains("linesift_") {
            break;
        }
    }
    std::thread::sleep(Duration::from_secs(3));
    let endpoints = [
        get(port, "/metrics"),
        get(port, "/healthz"),
        get(port, "/readyz"),
    ]
    .concat();
    let _ = child.kill();
    let out = child.wait_with_output().expect("wait worker");
    let logs = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        metrics.contains("linesift_"),
        "no metrics served: {metrics}"
    );
    assert!(logs.contains("***"), "the start-up line masks: {logs}");
    assert!(
        logs.contains("starting config=") && logs.contains("connection lost"),
        "expected the start-up line and a failed login to be logged: {logs}"
    );
    assert!(!logs.contains(SECRET), "worker logs leak: {logs}");
    assert!(!endpoints.contains(SECRET), "endpoints leak: {endpoints}");
}
