//! `linesift run` end to end: the shipped sample's WARC gives the
//! documents `linesift warc` gives; a mixed list's documents and failures
//! cover every task once, with the worker's kinds; a run killed with
//! SIGKILL and run again neither loses nor repeats a task; a finished job
//! run again does nothing; a record over `--max-payload` is a `too_large`
//! failure in a file task and a record task alike.

mod cli_support;
mod fetch_support;

use cli_support::{linesift, linesift_command};
use fetch_support::{Server, Step, article, html, not_found};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn sample() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("deploy/sample")
}

/// A fresh folder for one test.
fn folder(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("linesift-run-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// The JSON lines of a file, each checked to be whole (no torn line).
fn json_lines(path: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        text.is_empty() || text.ends_with('\n'),
        "{} ends inside a line",
        path.display()
    );
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l:?}: {e}")))
        .collect()
}

fn field<'a>(value: &'a Value, name: &str) -> &'a str {
    value[name].as_str().unwrap_or_default()
}

/// The shipped list of records, its paths (`/data/sample`, where compose
/// mounts `deploy/sample`) made this checkout's.
fn sample_record_list(dir: &Path) -> PathBuf {
    let shipped = std::fs::read_to_string(sample().join("warc-records.txt")).expect("list");
    let list = dir.join("records.txt");
    let here = sample().display().to_string();
    std::fs::write(&list, shipped.replace("/data/sample", &here)).expect("write list");
    list
}

#[test]
fn the_sample_warc_gives_one_document_per_response_as_linesift_warc_does() {
    let dir = folder("sample");
    let warc = sample().join("sample.warc.gz");
    let files = dir.join("files.txt");
    std::fs::write(&files, format!("{}\n", warc.display())).expect("write list");
    let records = sample_record_list(&dir);
    let out = dir.join("out.jsonl");
    let run = linesift(&[
        "run",
        files.to_str().unwrap(),
        records.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let reference = dir.join("warc.jsonl");
    let warc_run = linesift(&[
        "warc",
        warc.to_str().unwrap(),
        "-o",
        reference.to_str().unwrap(),
    ]);
    assert_eq!(warc_run.status.code(), Some(0), "{}", stderr(&warc_run));
    let expected: BTreeMap<String, String> = json_lines(&reference)
        .iter()
        .map(|d| (field(d, "warc_record_id").into(), field(d, "text").into()))
        .collect();
    assert_eq!(expected.len(), 4, "the sample's four HTML responses");
    let documents = json_lines(&out);
    let by_task = |task_line: &str| -> BTreeMap<String, String> {
        let id = task_id(task_line);
        documents
            .iter()
            .filter(|d| field(d, "task_id") == id)
            .map(|d| (field(d, "warc_record_id").into(), field(d, "text").into()))
            .collect()
    };
    assert_eq!(by_task(&warc.display().to_string()), expected);
    // The shipped record line points at one of those responses.
    let record_line = std::fs::read_to_string(&records).expect("list");
    let record = by_task(record_line.trim());
    assert_eq!(record.len(), 1, "{record:?}");
    for (id, text) in &record {
        assert_eq!(expected.get(id), Some(text));
    }
    assert_eq!(documents.len(), 5);
    assert!(json_lines(&dir.join("out.jsonl.failures.jsonl")).is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn wet_output_of_a_warc_file_is_byte_for_byte_what_linesift_warc_writes() {
    let dir = folder("wet");
    let warc = sample().join("sample.warc.gz");
    let list = dir.join("files.txt");
    std::fs::write(&list, format!("{}\n", warc.display())).expect("write list");
    let (run_out, warc_out) = (dir.join("run.warc.gz"), dir.join("warc.warc.gz"));
    let run = linesift(&[
        "run",
        list.to_str().unwrap(),
        "-o",
        run_out.to_str().unwrap(),
    ]);
    assert_eq!(run.status.code(), Some(0), "{}", stderr(&run));
    let reference = linesift(&[
        "warc",
        warc.to_str().unwrap(),
        "-o",
        warc_out.to_str().unwrap(),
    ]);
    assert_eq!(reference.status.code(), Some(0), "{}", stderr(&reference));
    let written = std::fs::read(&run_out).expect("run's output");
    assert!(written.len() > 100, "{} bytes", written.len());
    let reference = std::fs::read(&warc_out).expect("warc's output");
    // Each begins with a warcinfo record naming the output and its inputs
    // (the task list for `run`, the WARC for `warc`), dated alike.
    let (run_info, run_records) = first_gzip_member(&written);
    let (warc_info, warc_records) = first_gzip_member(&reference);
    assert!(run_info.starts_with("WARC/1.0\r\nWARC-Type: warcinfo\r\n"));
    assert!(
        run_info.contains("WARC-Filename: run.warc.gz\r\n"),
        "{run_info}"
    );
    assert!(
        run_info.contains("extracted from files.txt\r\n"),
        "{run_info}"
    );
    assert!(
        warc_info.contains("extracted from sample.warc.gz\r\n"),
        "{warc_info}"
    );
    let date = |info: &str| {
        info.lines()
            .find(|l| l.starts_with("WARC-Date:"))
            .map(str::to_owned)
    };
    assert_eq!(date(&run_info), date(&warc_info));
    assert!(run_records == warc_records);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A gzip file's first member, decoded, and the bytes after it.
fn first_gzip_member(bytes: &[u8]) -> (String, &[u8]) {
    let mut rest = bytes;
    let mut text = String::new();
    let mut member = flate2::bufread::GzDecoder::new(&mut rest);
    std::io::Read::read_to_string(&mut member, &mut text).expect("a gzip member");
    drop(member);
    (text, rest)
}

/// A task's id as `linesift run` and `linesift enqueue` give it: BLAKE3
/// of the line.
fn task_id(line: &str) -> String {
    blake3::hash(line.trim().as_bytes()).to_hex()[..24].to_string()
}

/// A loopback server: `/page/N` an article, `/slow/N` one after a pause,
/// anything else 404.
async fn site(pause: Duration) -> Server {
    Server::start(move |request| {
        if request.path.starts_with("/page/") {
            html(article(&request.path, 6).as_bytes())
        } else if request.path.starts_with("/slow/") {
            let mut steps = vec![Step::Sleep(pause)];
            steps.extend(html(article(&request.path, 6).as_bytes()));
            steps
        } else {
            not_found()
        }
    })
    .await
}

/// What a job's documents and failures say of each task: its document
/// count (ids all distinct) and its failure kinds.
struct Covered {
    documents: BTreeMap<String, usize>,
    failures: BTreeMap<String, Vec<String>>,
}

fn covered(out: &Path) -> Covered {
    let documents = json_lines(out);
    let ids: BTreeSet<&str> = documents.iter().map(|d| field(d, "document_id")).collect();
    assert_eq!(ids.len(), documents.len(), "a document written twice");
    let mut by_task = BTreeMap::new();
    for d in &documents {
        *by_task.entry(field(d, "task_id").to_string()).or_insert(0) += 1;
    }
    let mut failures = BTreeMap::<String, Vec<String>>::new();
    let mut failures_path = out.as_os_str().to_owned();
    failures_path.push(".failures.jsonl");
    for f in json_lines(Path::new(&failures_path)) {
        failures
            .entry(field(&f, "task_id").to_string())
            .or_default()
            .push(format!("{}/{}", field(&f, "stage"), field(&f, "kind")));
    }
    Covered {
        documents: by_task,
        failures,
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_mixed_list_covers_every_task_once_with_the_workers_failure_kinds() {
    let server = site(Duration::ZERO).await;
    let dir = folder("mixed");
    let warc = sample().join("sample.warc.gz");
    let record = std::fs::read_to_string(sample_record_list(&dir)).expect("list");
    let missing = dir.join("missing.warc.gz");
    let lines = [
        warc.display().to_string(),
        record.trim().to_string(),
        "ftp://example.org/file".to_string(),
        missing.display().to_string(),
        format!("{} 0 100", missing.display()),
        server.url("/page/1"),
        server.url("/gone"),
    ];
    let list = dir.join("tasks.txt");
    std::fs::write(&list, lines.join("\n") + "\n\n# done\n").expect("write list");
    let out = dir.join("out.jsonl");
    let run = tokio::task::spawn_blocking({
        let (list, out) = (list.clone(), out.clone());
        move || {
            linesift(&[
                "run",
                list.to_str().unwrap(),
                "-o",
                out.to_str().unwrap(),
                "--allow-private",
                "--no-robots",
                "--retry-delay",
                "0.01",
            ])
        }
    })
    .await
    .expect("join");
    let said = stderr(&run);
    assert_eq!(run.status.code(), Some(1), "some tasks failed: {said}");
    assert!(said.contains("tasks.txt:3: not an http(s) URL"), "{said}");
    let covered = covered(&out);
    let expect_documents = |line: &str, n: usize| {
        assert_eq!(covered.documents.get(&task_id(line)), Some(&n), "{line}");
        assert!(!covered.failures.contains_key(&task_id(line)), "{line}");
    };
    let expect_failure = |line: &str, kind: &str| {
        assert_eq!(
            covered.failures.get(&task_id(line)),
            Some(&vec![kind.to_string()]),
            "{line}"
        );
        assert!(!covered.documents.contains_key(&task_id(line)), "{line}");
    };
    expect_documents(&lines[0], 4);
    expect_documents(&lines[1], 1);
    let bad = format!("line-{}", &blake3::hash(lines[2].as_bytes()).to_hex()[..24]);
    assert_eq!(
        covered.failures.get(&bad),
        Some(&vec!["decode/invalid_message".to_string()])
    );
    expect_failure(&lines[3], "warc/open");
    // A record of a missing file is a fault at once, as the file is: a
    // path that names no file stays so, and nothing is tried again.
    expect_failure(&lines[4], "warc/open");
    assert!(!said.contains("trying again"), "{said}");
    expect_documents(&lines[5], 1);
    expect_failure(&lines[6], "fetch/http_status");
    assert_eq!(
        covered.documents.len() + covered.failures.len(),
        lines.len()
    );
    let failures = json_lines(&dir.join("out.jsonl.failures.jsonl"));
    let gone = failures
        .iter()
        .find(|f| field(f, "kind") == "http_status")
        .expect("the 404");
    assert_eq!(gone["dead_lettered"], false, "a 404 is an outcome");
    assert_eq!(field(gone, "url"), server.url("/gone"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_killed_with_sigkill_resumes_without_losing_or_repeating_a_task() {
    let server = site(Duration::from_millis(60)).await;
    let dir = folder("killed");
    let mut urls: Vec<String> = (0..150)
        .map(|i| server.url(&format!("/slow/{i}")))
        .collect();
    urls.extend((0..30).map(|i| server.url(&format!("/gone/{i}"))));
    let list = dir.join("urls.txt");
    std::fs::write(&list, urls.join("\n")).expect("write list");
    let out = dir.join("out.jsonl");
    let args: Vec<String> = [
        "run",
        list.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--allow-private",
        "--no-robots",
        "--host-interval",
        "0",
        "--jobs",
        "4",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let killed = tokio::task::spawn_blocking({
        let (args, out) = (args.clone(), out.clone());
        move || kill_mid_run(&args, &out)
    })
    .await
    .expect("join");
    let first = covered(&out);
    let first_tasks = first.documents.len() + first.failures.len();
    assert!(
        first_tasks > 0 && first_tasks < urls.len(),
        "killed mid-run: {first_tasks} of {} tasks done ({killed})",
        urls.len()
    );
    let again = tokio::task::spawn_blocking(move || {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        linesift(&args)
    })
    .await
    .expect("join");
    let said = stderr(&again);
    assert_eq!(again.status.code(), Some(1), "the 404s failed: {said}");
    assert!(said.contains("done before"), "{said}");
    let done = covered(&out);
    for url in &urls {
        let id = task_id(url);
        let (documents, failures) = (done.documents.get(&id), done.failures.get(&id));
        if url.contains("/gone/") {
            assert_eq!(documents, None, "{url}");
            assert_eq!(failures, Some(&vec!["fetch/http_status".into()]), "{url}");
        } else {
            assert_eq!(documents, Some(&1), "{url}");
            assert_eq!(failures, None, "{url}");
        }
    }
    assert_eq!(done.documents.len() + done.failures.len(), urls.len());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Starts `linesift` and kills it with SIGKILL once its output holds a
/// few documents; says how far it got.
fn kill_mid_run(args: &[String], out: &Path) -> String {
    let mut child = linesift_command(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start linesift");
    let started = Instant::now();
    loop {
        let written = std::fs::read(out).map_or(0, |b| b.iter().filter(|&&c| c == b'\n').count());
        if written >= 10 {
            break;
        }
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no documents written within a minute"
        );
        assert!(child.try_wait().expect("wait").is_none(), "ended too soon");
        std::thread::sleep(Duration::from_millis(5));
    }
    child.kill().expect("SIGKILL");
    let status = child.wait().expect("wait");
    format!("{status}")
}

#[test]
fn a_finished_job_run_again_does_nothing_and_says_so() {
    let dir = folder("again");
    let list = dir.join("files.txt");
    let warc = sample().join("sample.warc.gz");
    std::fs::write(&list, format!("{}\nno-such.warc\n", warc.display())).expect("write");
    let out = dir.join("out.jsonl");
    let args = ["run", list.to_str().unwrap(), "-o", out.to_str().unwrap()];
    let first = linesift(&args);
    assert_eq!(first.status.code(), Some(1), "{}", stderr(&first));
    let failures = dir.join("out.jsonl.failures.jsonl");
    let before = (
        std::fs::read(&out).unwrap(),
        std::fs::read(&failures).unwrap(),
    );
    assert_eq!(json_lines(&out).len(), 4);
    let second = linesift(&args);
    let said = stderr(&second);
    assert!(
        said.contains("all 2 task(s) were done before") && said.contains("nothing to do"),
        "{said}"
    );
    // The job's failure still counts.
    assert_eq!(second.status.code(), Some(1), "{said}");
    let after = (
        std::fs::read(&out).unwrap(),
        std::fs::read(&failures).unwrap(),
    );
    assert_eq!(before, after, "the outputs were written again");
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ctrl_c_finishes_the_tasks_in_flight_and_says_how_to_resume() {
    let said = stopped_then_resumed("interrupted", 60, libc::SIGINT).await;
    assert!(said.contains("interrupted: finishing the"), "{said}");
}

/// SIGTERM (`kill`, a supervisor stopping the job) stops a run as Ctrl-C
/// does, finishing the tasks in flight, but the run then dies by SIGTERM
/// (a shell's 143), not SIGINT, and its messages name SIGTERM, not
/// Ctrl-C; the same command run again finishes the job.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_finishes_the_tasks_in_flight_and_the_run_dies_by_sigterm() {
    let said = stopped_then_resumed("terminated", 40, libc::SIGTERM).await;
    assert!(said.contains("stopped by SIGTERM: finishing the"), "{said}");
    assert!(!said.contains("Ctrl-C"), "{said}");
}

/// Runs a job of `tasks` slow pages, sends `signal` once a few are done,
/// and checks the run died by it having done some tasks and not all, and
/// said how to resume; then runs the same command again and checks every
/// task is done once. The first run's stderr.
async fn stopped_then_resumed(name: &str, tasks: usize, signal: libc::c_int) -> String {
    let server = site(Duration::from_millis(100)).await;
    let dir = folder(name);
    let urls: Vec<String> = (0..tasks)
        .map(|i| server.url(&format!("/slow/{i}")))
        .collect();
    let list = dir.join("urls.txt");
    std::fs::write(&list, urls.join("\n")).expect("write list");
    let out = dir.join("out.jsonl");
    let args: Vec<String> = [
        "run",
        list.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--allow-private",
        "--no-robots",
        "--host-interval",
        "0",
        "--jobs",
        "3",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let stopped = tokio::task::spawn_blocking({
        let (args, out) = (args.clone(), out.clone());
        move || signal_mid_run(&args, &out, signal)
    })
    .await
    .expect("join");
    let said = stderr(&stopped);
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(stopped.status.signal(), Some(signal), "{said}");
    assert!(
        said.contains("run the same command again to resume"),
        "{said}"
    );
    let first = covered(&out).documents.len();
    assert!(
        first > 0 && first < urls.len(),
        "{first} tasks done: {said}"
    );
    let again = tokio::task::spawn_blocking(move || {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        linesift(&args)
    })
    .await
    .expect("join");
    assert_eq!(again.status.code(), Some(0), "{}", stderr(&again));
    let done = covered(&out);
    assert_eq!(done.documents.len(), urls.len());
    assert!(done.documents.values().all(|&n| n == 1));
    let _ = std::fs::remove_dir_all(&dir);
    said
}

/// A run started with SIGTERM ignored (`trap '' TERM`, as a supervisor
/// may start it) leaves it so: a SIGTERM neither stops it nor kills it,
/// and the job finishes.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_sigterm_ignored_at_start_stays_ignored() {
    let server = site(Duration::from_millis(100)).await;
    let dir = folder("term-ignored");
    let urls: Vec<String> = (0..20).map(|i| server.url(&format!("/slow/{i}"))).collect();
    let list = dir.join("urls.txt");
    std::fs::write(&list, urls.join("\n")).expect("write list");
    let out = dir.join("out.jsonl");
    let script = format!(
        "trap '' TERM; exec {} run {} -o {} --allow-private --no-robots --host-interval 0 --jobs 2",
        env!("CARGO_BIN_EXE_linesift"),
        list.display(),
        out.display()
    );
    let mut sh = Command::new("sh");
    sh.args(["-c", &script]);
    let done = tokio::task::spawn_blocking({
        let out = out.clone();
        move || signal_started_mid_run(sh, &out, libc::SIGTERM)
    })
    .await
    .expect("join");
    let said = stderr(&done);
    assert_eq!(done.status.code(), Some(0), "{said}");
    assert!(!said.contains("SIGTERM"), "{said}");
    let documents = covered(&out).documents;
    assert_eq!(documents.len(), urls.len(), "{said}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Starts `linesift`, sends it `signal` once its output holds a few
/// documents, and waits for it to end.
fn signal_mid_run(args: &[String], out: &Path, signal: libc::c_int) -> Output {
    signal_started_mid_run(linesift_command(args), out, signal)
}

/// Starts `command`, sends it `signal` once `out` holds a few documents,
/// and waits for it to end.
fn signal_started_mid_run(mut command: Command, out: &Path, signal: libc::c_int) -> Output {
    let child = command
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start linesift");
    let started = Instant::now();
    while std::fs::read(out).map_or(0, |b| b.iter().filter(|&&c| c == b'\n').count()) < 3 {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no documents written within a minute"
        );
        std::thread::sleep(Duration::from_millis(5));
    }
    let pid = i32::try_from(child.id()).expect("pid");
    // SAFETY: kill(2) with a pid of our own child and a signal number.
    assert_eq!(unsafe { libc::kill(pid, signal) }, 0);
    child.wait_with_output().expect("wait")
}

#[test]
fn to_stdout_documents_are_written_and_each_failure_is_told_on_stderr() {
    let dir = folder("stdout");
    let list = dir.join("files.txt");
    let warc = sample().join("sample.warc.gz");
    std::fs::write(&list, format!("{}\nhttp//typo\n", warc.display())).expect("write");
    let out = linesift(&["run", list.to_str().unwrap()]);
    let said = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{said}");
    let documents: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    assert_eq!(documents.len(), 4);
    assert!(said.contains("warc/open: http//typo"), "{said}");
    assert_eq!(said.matches("http//typo").count(), 1, "told once: {said}");
    assert!(
        said.contains("2 task(s) run: 1 ok, 1 failed; 4 document(s)"),
        "{said}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A `response` record of `page`, as a WARC writer frames one.
fn warc_response(id: &str, page: &str) -> Vec<u8> {
    let http = format!("HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n\r\n{page}");
    format!(
        "WARC/1.1\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:{id}>\r\n\
         WARC-Target-URI: http://run.example/{id}\r\nWARC-Date: 2024-01-01T00:00:00Z\r\n\
         Content-Type: application/http; msgtype=response\r\nContent-Length: {}\r\n\r\n\
         {http}\r\n\r\n",
        http.len()
    )
    .into_bytes()
}

/// A record over `--max-payload` is a page lost to the limit, by the one
/// rule `linesift warc` and the worker follow too: a WARC file task gives
/// the records around it and a `warc/too_large` failure for it (the task
/// itself is done), and a record task naming it ends as that failure, an
/// outcome (not `warc/skipped`).
#[test]
fn a_record_over_max_payload_is_a_too_large_failure_in_file_and_record_tasks() {
    let dir = folder("over-payload");
    let first = warc_response("r0", &article("First", 4));
    let large = warc_response("r1", &article("Large", 60));
    let file = [
        first.clone(),
        large.clone(),
        warc_response("r2", &article("Last", 4)),
    ];
    let warc = dir.join("over.warc");
    std::fs::write(&warc, file.concat()).expect("write the WARC");
    let lines = [
        warc.display().to_string(),
        format!("{} {} {}", warc.display(), first.len(), large.len()),
    ];
    let list = dir.join("tasks.txt");
    std::fs::write(&list, lines.join("\n") + "\n").expect("write list");
    let out = dir.join("out.jsonl");
    let run = linesift(&[
        "run",
        list.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--max-payload",
        "8K",
    ]);
    let said = stderr(&run);
    assert_eq!(run.status.code(), Some(1), "the record task failed: {said}");
    let covered = covered(&out);
    let (file_task, record_task) = (task_id(&lines[0]), task_id(&lines[1]));
    assert_eq!(covered.documents.get(&file_task), Some(&2), "{said}");
    assert_eq!(covered.documents.get(&record_task), None, "{said}");
    for task in [&file_task, &record_task] {
        assert_eq!(
            covered.failures.get(task),
            Some(&vec!["warc/too_large".to_string()]),
            "{said}"
        );
    }
    let failures = json_lines(&dir.join("out.jsonl.failures.jsonl"));
    assert_eq!(failures.len(), 2);
    for failure in &failures {
        assert!(
            field(failure, "reason").contains("8192 bytes (max_payload)"),
            "{failure}"
        );
        assert_eq!(failure["dead_lettered"], false, "an outcome: {failure}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A record whose Content-Length is 2 bytes short is mended as `linesift
/// warc` mends it, in a file task and a record task alike: its document
/// carries `warc_repaired`, the others none, and the summary counts the
/// repairs.
#[test]
fn a_mended_record_is_flagged_in_file_and_record_tasks() {
    let dir = folder("mended");
    let good = warc_response("r0", &article("First", 4));
    let text = String::from_utf8(warc_response("r1", &article("Short", 4))).unwrap();
    let at = text.find("Content-Length: ").unwrap() + "Content-Length: ".len();
    let end = at + text[at..].find('\r').unwrap();
    let declared: usize = text[at..end].parse().unwrap();
    let short = format!("{}{}{}", &text[..at], declared - 2, &text[end..]);
    let warc = dir.join("mended.warc");
    std::fs::write(&warc, [good.clone(), short.clone().into_bytes()].concat()).unwrap();
    let lines = [
        warc.display().to_string(),
        format!("{} {} {}", warc.display(), good.len(), short.len()),
    ];
    let list = dir.join("tasks.txt");
    std::fs::write(&list, lines.join("\n") + "\n").unwrap();
    let out = dir.join("out.jsonl");
    let run = linesift(&["run", list.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    let said = stderr(&run);
    assert_eq!(run.status.code(), Some(0), "{said}");
    assert!(said.contains("repaired: content_length 2"), "{said}");
    let docs = json_lines(&out);
    assert_eq!(docs.len(), 3, "{said}");
    for doc in &docs {
        let flagged = doc.get("warc_repaired").cloned();
        match field(doc, "url") {
            "http://run.example/r1" => {
                assert_eq!(flagged, Some(serde_json::json!(["content_length"])));
                assert!(field(doc, "text").contains("Short"), "{doc}");
            }
            _ => assert_eq!(flagged, None, "{doc}"),
        }
    }
}

/// Control characters in a task list's name or in a WARC path it lists
/// are escaped on stderr (`\n`, `\u{1b}`), as `extract` and `warc` show
/// names: each message stays one line and sends the terminal nothing. The
/// failures file keeps the path as it is, JSON escaping it.
#[test]
fn control_characters_in_names_are_escaped_on_stderr() {
    let dir = folder("control");
    let missing = dir.join("missing\u{1b}[31m.txt");
    let run = linesift(&["run", missing.to_str().unwrap()]);
    let said = stderr(&run);
    assert_eq!(run.status.code(), Some(2), "{said}");
    assert!(said.contains("missing\\u{1b}[31m.txt"), "{said}");
    assert!(!said.contains('\u{1b}'), "{said:?}");
    let list = dir.join("list\nof\u{1b}[31mtasks.txt");
    let warc = dir.join("no\u{1b}[2Jsuch.warc");
    std::fs::write(&list, format!("ftp://example.org/\n{}\n", warc.display())).unwrap();
    let run = linesift(&["run", list.to_str().unwrap()]);
    let said = stderr(&run);
    assert_eq!(run.status.code(), Some(1), "{said}");
    assert!(!said.contains('\u{1b}'), "{said:?}");
    let lines: Vec<&str> = said.lines().collect();
    assert_eq!(lines.len(), 3, "a line a failure and the summary: {said}");
    assert!(
        lines[0].contains("list\\nof\\u{1b}[31mtasks.txt:1"),
        "{said}"
    );
    assert!(lines[1].contains("no\\u{1b}[2Jsuch.warc"), "{said}");
    let out = dir.join("out.jsonl");
    let run = linesift(&["run", list.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(run.status.code(), Some(1), "{}", stderr(&run));
    let failures = json_lines(&dir.join("out.jsonl.failures.jsonl"));
    assert!(
        field(&failures[1], "reason").contains("no\u{1b}[2Jsuch.warc"),
        "{failures:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A failures file that is one of the task lists, the output under
/// another spelling, or the output's journal is refused before anything
/// is written (exit 2): it used to be cut to nothing and filled with
/// failures, the list lost, or the journal broken.
#[test]
fn a_failures_file_that_is_a_list_the_output_or_the_journal_is_refused() {
    let dir = folder("failures-clash");
    let list = dir.join("tasks.txt");
    let listed = "ftp://example.org/\n";
    std::fs::write(&list, listed).unwrap();
    let out = dir.join("out.jsonl");
    let journal = dir.join("out.jsonl.journal");
    let spelt_again = dir.join(".").join("out.jsonl");
    for failures in [&list, &spelt_again, &journal] {
        let run = linesift(&[
            "run",
            list.to_str().unwrap(),
            "-o",
            out.to_str().unwrap(),
            "--failures",
            failures.to_str().unwrap(),
        ]);
        let said = stderr(&run);
        assert_eq!(run.status.code(), Some(2), "{failures:?}: {said}");
        assert_eq!(said.lines().count(), 1, "{said}");
        assert!(said.contains("--failures"), "{said}");
        assert_eq!(std::fs::read_to_string(&list).unwrap(), listed);
    }
    // The journal refused above was the one a first run made.
    let first = linesift(&["run", list.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(first.status.code(), Some(1), "{}", stderr(&first));
    let again = linesift(&[
        "run",
        list.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--failures",
        journal.to_str().unwrap(),
    ]);
    assert_eq!(again.status.code(), Some(2), "{}", stderr(&again));
    let resumed = linesift(&["run", list.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    let said = stderr(&resumed);
    assert!(
        said.contains("nothing to do"),
        "the journal is whole: {said}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A run that fails before running a task (here, a failures file it
/// cannot open) exits 2 and leaves no file behind: it used to leave an
/// empty output and its journal. An output and journal there before, a
/// job to resume, are kept as they were, and the job still resumes.
#[test]
fn a_run_that_fails_before_it_starts_leaves_no_file_behind() {
    let dir = folder("early-failure");
    let list = dir.join("tasks.txt");
    std::fs::write(&list, "ftp://x\n").unwrap();
    let out = dir.join("out.jsonl");
    let unopenable = dir.join("missing").join("failures.jsonl");
    let args = [
        "run",
        list.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--failures",
        unopenable.to_str().unwrap(),
    ];
    let run = linesift(&args);
    let said = stderr(&run);
    assert_eq!(run.status.code(), Some(2), "{said}");
    assert!(said.contains("failures.jsonl"), "{said}");
    let left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, ["tasks.txt"], "{said}");
    // A job done before: its files stay, and it resumes.
    let first = linesift(&["run", list.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    assert_eq!(first.status.code(), Some(1), "{}", stderr(&first));
    // The journal's bytes change as redb opens it; the resume below
    // reads what it holds.
    let files = [out.clone(), dir.join("out.jsonl.failures.jsonl")];
    let before: Vec<Vec<u8>> = files.iter().map(|f| std::fs::read(f).unwrap()).collect();
    assert!(!before[1].is_empty(), "the ftp line's failure");
    let run = linesift(&args);
    assert_eq!(run.status.code(), Some(2), "{}", stderr(&run));
    let after: Vec<Vec<u8>> = files.iter().map(|f| std::fs::read(f).unwrap()).collect();
    assert!(before == after, "the job's files were changed");
    assert!(dir.join("out.jsonl.journal").exists());
    let again = linesift(&["run", list.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    let said = stderr(&again);
    assert!(said.contains("nothing to do"), "{said}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// An output in a folder that is not there is refused (exit 2) with one
/// line naming the output as given, not its journal beside it (which the
/// error used to name, a file the user never spoke of).
#[test]
fn an_output_that_cannot_be_opened_is_named_in_the_error_not_its_journal() {
    let dir = folder("unopenable-output");
    let list = dir.join("tasks.txt");
    std::fs::write(&list, "ftp://x\n").unwrap();
    let out = dir.join("missing").join("x.jsonl");
    let run = linesift(&["run", list.to_str().unwrap(), "-o", out.to_str().unwrap()]);
    let said = stderr(&run);
    assert_eq!(run.status.code(), Some(2), "{said}");
    assert_eq!(said.lines().count(), 1, "{said}");
    assert!(
        said.contains(&format!("opening {}: ", out.display())),
        "{said}"
    );
    assert!(!said.contains("journal"), "{said}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Stdin can be read once: `-` named twice as a task list is refused
/// (exit 2), as `extract` and `warc` refuse it, not read as empty the
/// second time.
#[test]
fn stdin_named_twice_as_a_task_list_is_refused() {
    let run = linesift(&["run", "-", "-"]);
    let said = stderr(&run);
    assert_eq!(run.status.code(), Some(2), "{said}");
    assert_eq!(said.lines().count(), 1, "{said}");
    assert!(said.contains("stdin"), "{said}");
}

/// Failures sent to `/dev/null` are dropped, with a file output or
/// stdout: it is written as it goes, not cut back or synced as a file
/// (which it refused, ending every such run with exit 2).
#[test]
fn failures_sent_to_dev_null_are_dropped() {
    let dir = folder("failures-null");
    let list = dir.join("files.txt");
    let warc = sample().join("sample.warc.gz");
    std::fs::write(&list, format!("{}\nno-such.warc\n", warc.display())).unwrap();
    let out = dir.join("out.jsonl");
    let list = list.to_str().unwrap();
    for output in [out.to_str().unwrap(), "-"] {
        let run = linesift(&["run", list, "-o", output, "--failures", "/dev/null"]);
        let said = stderr(&run);
        assert_eq!(run.status.code(), Some(1), "{output}: {said}");
        assert!(said.contains("1 failed; 4 document(s)"), "{said}");
    }
    assert_eq!(json_lines(&out).len(), 4);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A WARC file task whose file holds no record, empty or junk, is a
/// failed task (`warc/format`, worded as `linesift warc` words it), exit 1,
/// not "1 ok"; a file with a good record before its junk is still done.
#[test]
fn a_warc_file_that_holds_no_record_is_a_failed_task() {
    let dir = folder("no-record");
    let empty = dir.join("empty.warc");
    let junk = dir.join("junk.warc");
    let good_then_junk = dir.join("good-then-junk.warc");
    std::fs::write(&empty, b"").unwrap();
    std::fs::write(&junk, b"junk\n").unwrap();
    let mut bytes = warc_response("g0", &article("Good", 4));
    bytes.extend_from_slice(b"junk\n");
    std::fs::write(&good_then_junk, bytes).unwrap();
    let cases = [
        (&empty, "holds no record (an empty input)"),
        (&junk, "not one record could be read"),
    ];
    for (warc, why) in cases {
        let list = dir.join("files.txt");
        std::fs::write(&list, format!("{}\n", warc.display())).unwrap();
        let run = linesift(&["run", list.to_str().unwrap()]);
        let said = stderr(&run);
        assert_eq!(run.status.code(), Some(1), "{said}");
        let told = format!("warc/format: {}: {why}", warc.display());
        assert!(said.contains(&told), "{said}");
        assert!(said.contains("1 task(s) run: 0 ok, 1 failed"), "{said}");
    }
    let list = dir.join("files.txt");
    std::fs::write(&list, format!("{}\n", good_then_junk.display())).unwrap();
    let run = linesift(&["run", list.to_str().unwrap()]);
    let said = stderr(&run);
    assert!(said.contains("1 task(s) run: 1 ok, 0 failed"), "{said}");
    assert!(!said.contains("warc/format"), "{said}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `-j 0` and `--delivery-limit 0` would run nothing (or never try a
/// task): refused at parse time, exit 2, the option named on the first
/// line, rather than taken as 1.
#[test]
fn zero_jobs_or_a_zero_delivery_limit_is_refused() {
    for (flag, named) in [("-j", "--jobs"), ("--delivery-limit", "--delivery-limit")] {
        let run = linesift(&["run", flag, "0", "-"]);
        let said = stderr(&run);
        assert_eq!(run.status.code(), Some(2), "{flag}: {said}");
        let first = said.lines().next().unwrap_or_default();
        assert!(first.contains("invalid value '0'"), "{said}");
        assert!(first.contains(named), "{said}");
    }
}
