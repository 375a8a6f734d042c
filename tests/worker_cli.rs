//! The worker's switches as deployments set them: boolean environment
//! variables take the usual spellings (`1`, `yes`, `on`, `true` and their
//! opposites), as docs/worker.md says, and a typo is still refused
//! at start-up rather than read as either.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_linesift");

/// A worker with these environment variables, its broker a closed port (it
/// parses its settings, logs them, then fails to connect and retries).
fn worker(env: &[(&str, &str)]) -> Child {
    let mut command = Command::new(BIN);
    command
        .args(["worker", "--http", "off"])
        .env("AMQP_URL", "amqp://guest:guest@127.0.0.1:1/%2f")
        .env("LINESIFT_PREFIX", "lscli")
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    for (key, value) in env {
        command.env(key, value);
    }
    command.spawn().expect("start worker")
}

/// The first stderr line containing `needle`, or everything read when the
/// stream ended or 20 s passed without it.
fn stderr_line(child: &mut Child, needle: &'static str) -> Result<String, String> {
    let stderr = child.stderr.take().expect("stderr");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut seen = String::new();
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            if line.contains(needle) {
                let _ = tx.send(Ok(line));
                return;
            }
            seen.push_str(&line);
            seen.push('\n');
        }
        let _ = tx.send(Err(seen));
    });
    rx.recv_timeout(Duration::from_secs(20))
        .unwrap_or_else(|_| Err("no line within 20 s".into()))
}

#[test]
fn boolean_variables_take_the_usual_spellings() {
    for (on, off) in [("1", "0"), ("yes", "no"), ("on", "off"), ("true", "false")] {
        for (outcomes, shown) in [(on, "true"), (off, "false")] {
            let mut child = worker(&[
                ("LINESIFT_ALLOW_PRIVATE", on),
                ("LINESIFT_NO_ROBOTS", on),
                ("LINESIFT_REFUSE_OVERSIZE", off),
                ("LINESIFT_DEAD_LETTER_OUTCOMES", outcomes),
            ]);
            let started = stderr_line(&mut child, "starting config=amqp=");
            let _ = child.kill();
            let _ = child.wait();
            let line = started.unwrap_or_else(|e| panic!("{on}/{off}: {e}"));
            let setting = format!(" dead_letter_outcomes={shown}");
            assert!(line.contains(&setting), "{outcomes}: {line}");
        }
    }
}

/// Outcomes (404s, pages that are not HTML, ...) are not dead-lettered
/// unless asked for, and the start-up line says which.
#[test]
fn outcomes_are_not_dead_lettered_by_default() {
    let mut child = worker(&[]);
    let started = stderr_line(&mut child, "starting config=amqp=");
    let _ = child.kill();
    let _ = child.wait();
    let line = started.expect("start-up line");
    assert!(line.contains(" dead_letter_outcomes=false"), "{line}");
    let help = std::process::Command::new(BIN)
        .args(["worker", "--help"])
        .output()
        .expect("help");
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(
        help.contains("--dead-letter-outcomes") && help.contains("LINESIFT_DEAD_LETTER_OUTCOMES"),
        "{help}"
    );
}

#[test]
fn a_misspelt_boolean_is_refused_at_start_up() {
    let mut child = worker(&[("LINESIFT_ALLOW_PRIVATE", "maybe")]);
    let refused = stderr_line(&mut child, "invalid value");
    let status = child.wait().expect("wait");
    assert!(refused.is_ok(), "{refused:?}");
    assert_eq!(status.code(), Some(2));
}

/// Deferral settings the delay queue could not hold, or a host wait the
/// task deadline would cut short, are refused at start-up with the flag's
/// name; with deferring off (`LINESIFT_MAX_HOST_WAIT=0`) the delay is not
/// looked at, and the defaults start.
#[test]
fn deferral_settings_are_checked_at_start_up() {
    for (env, flag) in [
        (vec![("LINESIFT_DEFER_DELAY", "0")], "--defer-delay"),
        (vec![("LINESIFT_DEFER_DELAY", "5000000")], "--defer-delay"),
        (
            vec![
                ("LINESIFT_MAX_HOST_WAIT", "700"),
                ("LINESIFT_TASK_DEADLINE", "600"),
            ],
            "--max-host-wait",
        ),
    ] {
        let mut child = worker(&env);
        let refused = stderr_line(&mut child, flag);
        if refused.is_err() {
            // Started after all: it would retry the closed port for ever.
            let _ = child.kill();
        }
        let status = child.wait().expect("wait");
        assert!(refused.is_ok(), "{env:?}: {refused:?}");
        assert_ne!(status.code(), Some(0), "{env:?}");
    }
    for env in [
        vec![
            ("LINESIFT_MAX_HOST_WAIT", "0"),
            ("LINESIFT_DEFER_DELAY", "0"),
        ],
        vec![],
    ] {
        let mut child = worker(&env);
        let started = stderr_line(&mut child, "starting config=amqp=");
        let _ = child.kill();
        let _ = child.wait();
        assert!(started.is_ok(), "{env:?}: {started:?}");
    }
}

/// `LINESIFT_LOG_FORMAT=json`: every stderr line is a JSON object with a
/// timestamp, a level, a message and the event's fields (here the
/// start-up line's settings and the connection failure's error); an
/// unknown format or level is refused by name.
#[test]
fn the_log_can_be_json_lines() {
    let mut child = worker(&[
        ("LINESIFT_LOG_FORMAT", "json"),
        ("LINESIFT_LOG_LEVEL", "warn"),
    ]);
    let lost = stderr_line(&mut child, "connection lost");
    let _ = child.kill();
    let _ = child.wait();
    let line = lost.expect("a connection failure logged");
    let event: serde_json::Value = serde_json::from_str(&line).expect("a JSON line");
    assert_eq!(event["level"], "WARN", "{line}");
    assert_eq!(event["message"], "connection lost; reconnecting", "{line}");
    assert!(
        event["error"]
            .as_str()
            .is_some_and(|e| e.contains("refused")),
        "{line}"
    );
    assert!(
        event["timestamp"]
            .as_str()
            .is_some_and(|t| t.starts_with("20")),
        "{line}"
    );
    // At level warn, the start-up line (info) is left out: the first line
    // is the failure.
    let mut quiet = worker(&[
        ("LINESIFT_LOG_FORMAT", "json"),
        ("LINESIFT_LOG_LEVEL", "warn"),
    ]);
    let first = stderr_line(&mut quiet, "{");
    let _ = quiet.kill();
    let _ = quiet.wait();
    assert!(!first.expect("a line").contains("starting"));

    for (key, value) in [
        ("LINESIFT_LOG_FORMAT", "xml"),
        ("LINESIFT_LOG_LEVEL", "loud"),
    ] {
        let mut child = worker(&[(key, value)]);
        let refused = stderr_line(&mut child, "invalid value");
        let _ = child.wait();
        assert!(refused.expect("refused").contains(value));
    }
}

/// An AMQP URL that does not parse (`amqp://` left off) is refused at
/// start, by name and without being shown: lapin's own error quoted it
/// whole, password and all, on every reconnect. `enqueue` likewise.
#[test]
fn an_amqp_url_that_does_not_parse_is_refused_unshown() {
    for command in [
        &["worker", "--http", "off"][..],
        &["enqueue", "/dev/null"][..],
    ] {
        let out = Command::new(BIN)
            .args(command)
            .env("AMQP_URL", "guest:S3cretPw@127.0.0.1")
            .output()
            .expect("run");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{command:?}: {stderr}");
        assert!(stderr.contains("no amqp:// or amqps:// URL"), "{stderr}");
        assert!(!stderr.contains("S3cretPw"), "{stderr}");
    }
}

/// Control characters in the list's name are escaped in `enqueue`'s
/// messages (`\u{1b}`), as in `extract` and `warc`: a list that does not
/// open, and one the broker cannot take (a closed port).
#[test]
fn enqueue_names_its_list_with_control_characters_escaped() {
    let dir = std::env::temp_dir().join(format!("linesift-enqueue-control-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let list = dir.join("urls\u{1b}[31m.txt");
    let enqueue = |list: &std::path::Path| {
        Command::new(BIN)
            .arg("enqueue")
            .arg(list)
            .env("AMQP_URL", "amqp://guest:guest@127.0.0.1:1/%2f")
            .env("LINESIFT_PREFIX", "lscli")
            .output()
            .expect("run")
    };
    let missing = enqueue(&list);
    let stderr = String::from_utf8_lossy(&missing.stderr);
    assert_eq!(missing.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("urls\\u{1b}[31m.txt: No such file"),
        "{stderr}"
    );
    std::fs::write(&list, "https://example.org/\n").expect("write");
    let refused = enqueue(&list);
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert_eq!(refused.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("urls\\u{1b}[31m.txt: nothing enqueued"),
        "{stderr}"
    );
    for stderr in [&missing.stderr, &refused.stderr] {
        assert!(!stderr.contains(&0x1b), "{stderr:?}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A list whose name is not UTF-8 (Latin-1 `é`) is read like any other,
/// and named with U+FFFD: file names need not be UTF-8. It was refused
/// by the argument parser ("invalid UTF-8 was detected").
#[cfg(unix)]
#[test]
fn enqueue_reads_a_list_named_in_latin1() {
    use std::os::unix::ffi::OsStrExt;
    let dir = std::env::temp_dir().join(format!("linesift-enqueue-latin1-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let list = dir.join(std::ffi::OsStr::from_bytes(b"caf\xe9.txt"));
    std::fs::write(&list, "https://example.org/\n").expect("write");
    let out = Command::new(BIN)
        .arg("enqueue")
        .arg(&list)
        .env("AMQP_URL", "amqp://guest:guest@127.0.0.1:1/%2f")
        .env("LINESIFT_PREFIX", "lscli")
        .output()
        .expect("run");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("caf\u{fffd}.txt: nothing enqueued"),
        "the list was read and the broker tried: {stderr}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--concurrency 0`, `--prefetch 0` and `--delivery-limit 0` (as flags or
/// their variables) would process or take nothing: refused at parse time,
/// exit 2, the option named, rather than taken as 1.
#[test]
fn zero_concurrency_prefetch_or_delivery_limit_is_refused() {
    for option in ["--concurrency", "--prefetch", "--delivery-limit"] {
        let variable = format!("LINESIFT_{}", option[2..].replace('-', "_").to_uppercase());
        let flag = Command::new(BIN)
            .args(["worker", "--http", "off", option, "0"])
            .output()
            .expect("run worker");
        let by_variable = Command::new(BIN)
            .args(["worker", "--http", "off"])
            .env(&variable, "0")
            .output()
            .expect("run worker");
        for out in [flag, by_variable] {
            let said = String::from_utf8_lossy(&out.stderr);
            assert_eq!(out.status.code(), Some(2), "{option}: {said}");
            let first = said.lines().next().unwrap_or_default();
            assert!(first.contains("invalid value '0'"), "{said}");
            assert!(first.contains(option), "{said}");
        }
    }
}

/// A list that holds no task (empty, or `--skip` past its end) is said to,
/// as `run` says it, not just "0 task(s) confirmed"; the exit code stays
/// 0, as `run`'s does. Needs the broker at 127.0.0.1:5672.
#[test]
fn enqueue_warns_of_a_list_that_holds_no_task() {
    let dir = std::env::temp_dir().join(format!("linesift-enqueue-empty-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let empty = dir.join("empty.txt");
    let short = dir.join("short.txt");
    std::fs::write(&empty, "").expect("write");
    std::fs::write(&short, "https://example.org/a\n").expect("write");
    // A fixed prefix, as the other tests here use, so that runs do not pile
    // up queues on the broker; nothing is published to them.
    let prefix = "lscli-empty";
    let enqueue = |list: &std::path::Path, skip: &str| {
        Command::new(BIN)
            .arg("enqueue")
            .arg(list)
            .args(["--skip", skip])
            .env("AMQP_URL", "amqp://guest:guest@127.0.0.1:5672/%2f")
            .env("LINESIFT_PREFIX", prefix)
            .output()
            .expect("run")
    };
    let cases = [
        (&empty, "0", "empty.txt holds no task"),
        (&short, "5", "short.txt holds no task past --skip 5"),
    ];
    for (list, skip, warning) in cases {
        let out = enqueue(list, skip);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(0), "{stderr}");
        assert!(stderr.contains("0 task(s) confirmed"), "{stderr}");
        assert!(
            stderr.contains(&format!("warning: {}", dir.join(warning).display())),
            "{stderr}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
