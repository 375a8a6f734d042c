//! The broker end of `scripts/fault-injection.sh`.
//!
//! - `setup URL PREFIX LIMIT`: declares the worker topology and a durable
//!   quorum queue `PREFIX.sink` bound to the results exchange (`#`), so that
//!   every result survives broker restarts until the check reads it.
//! - `poison URL PREFIX LIMIT FROM COUNT`: publishes malformed task messages
//!   `poison-NNNNN` raw to the task queue, with confirms: bad protobuf, bad
//!   JSON, a wrong content type, an empty body, a task without a source, a
//!   task without an id, JSON of the wrong shape.
//! - `collect URL PREFIX MANIFEST POISON DIR`: the downstream consumer, run
//!   through all faults: appends every message of the sink and the
//!   dead-letter queue to DIR/records.tsv *before* acking it (reconnecting
//!   after broker trouble) and keeps DIR/progress (`accounted<TAB>total`).
//! - `depth URL PREFIX`: ready messages of the task queue.
//! - `batches LIST OUT`: the tasks `linesift enqueue --kind warc-records`
//!   makes of LIST with its default `--batch` (the same `Batcher`),
//!   appended to OUT as `line<TAB>task id`: the check plans a record's
//!   documents under its batch's task (OUT is DIR/batches.tsv, beside the
//!   manifest).
//! - `check URL PREFIX MANIFEST POISON DIR`: with the collector stopped,
//!   moves what is left in the sink and the dead-letter queue to the record
//!   file, then accounts for every task of the manifest (written by
//!   `scripts/fault_origin.py plan`) and every malformed message. Writes
//!   `key<TAB>value` figures to DIR/figures.tsv, prints them and any
//!   problem, and exits 1 when a task is lost, a malformed message is not
//!   dead-lettered with its reason, or a task ended other than planned.

use futures_util::StreamExt;
use lapin::message::Delivery;
use lapin::options::{
    BasicAckOptions, BasicConsumeOptions, BasicPublishOptions, BasicQosOptions,
    ConfirmSelectOptions, QueueDeclareOptions,
};
use lapin::types::{AMQPValue, FieldTable, LongString};
use lapin::{BasicProperties, Channel, Confirmation, Connection, ConnectionProperties};
use linesift::proto::{self, DocumentMessage, Failure, Task, task};
use linesift::worker::enqueue::{Batcher, DEFAULT_BATCH, LineKind, parse_tasks, task_of_line};
use linesift::worker::{Names, topology};
use prost::Message;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::io::Write as _;
use std::time::Duration;

type Error = Box<dyn std::error::Error>;

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Error> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let words: Vec<&str> = args.iter().map(String::as_str).collect();
    match words.as_slice() {
        ["setup", url, prefix, limit] => setup(url, prefix, limit.parse()?).await,
        ["poison", url, prefix, limit, from, count] => {
            poison(url, prefix, limit.parse()?, from.parse()?, count.parse()?).await
        }
        ["collect", url, prefix, manifest, poison, dir] => {
            collect(url, prefix, manifest, poison.parse()?, dir).await
        }
        ["depth", url, prefix] => depth(url, prefix).await,
        ["batches", list, out] => batches(list, out),
        ["check", url, prefix, manifest, poison, dir] => {
            let ok = check(url, prefix, manifest, poison.parse()?, dir).await?;
            if !ok {
                std::process::exit(1);
            }
            Ok(())
        }
        _ => Err("usage: fault_harness setup URL PREFIX LIMIT | \
                  poison URL PREFIX LIMIT FROM COUNT | \
                  collect URL PREFIX MANIFEST POISON DIR | depth URL PREFIX | \
                  batches LIST OUT | \
                  check URL PREFIX MANIFEST POISON DIR"
            .into()),
    }
}

fn sink_name(prefix: &str) -> String {
    format!("{prefix}.sink")
}

async fn setup(url: &str, prefix: &str, limit: u32) -> Result<(), Error> {
    let names = Names::with_prefix(prefix);
    let conn = Connection::connect(url, ConnectionProperties::default()).await?;
    let ch = conn.create_channel().await?;
    topology::declare(&conn, &names, limit).await?;
    // Quorum: the results must outlive SIGKILLs of the broker, and a
    // quorum queue confirms only what is on disk.
    let mut args = FieldTable::default();
    args.insert(
        "x-queue-type".into(),
        AMQPValue::LongString(LongString::from("quorum")),
    );
    let sink = sink_name(prefix);
    ch.queue_declare(sink.as_str().into(), QueueDeclareOptions::durable(), args)
        .await?;
    topology::bind_to_results(&ch, &names, &sink).await?;
    let _ = conn.close(200, "setup done".into()).await;
    Ok(())
}

/// Malformed message number `i`: body and content type. Every variant must
/// be refused by `proto::decode_task`.
fn malformed(i: usize) -> (Vec<u8>, Option<&'static str>) {
    let url = format!("http://127.0.0.1/poison/{i}");
    match i % 7 {
        // A length-delimited field whose length runs past the end.
        0 => (
            vec![0x0a, 0xff, 0xff, 0x03, b'x', (i % 251) as u8],
            Some(proto::CONTENT_TYPE_PROTOBUF),
        ),
        1 => (
            format!("{{\"id\": \"poison-{i}\", \"url\": ").into_bytes(),
            Some(proto::CONTENT_TYPE_JSON),
        ),
        2 => (url.into_bytes(), Some("text/plain")),
        // Decodes as a default task: no id, no source.
        3 => (Vec::new(), None),
        4 => (
            format!("{{\"id\": \"poison-{i}\"}}").into_bytes(),
            Some(proto::CONTENT_TYPE_JSON),
        ),
        5 => (
            Task {
                id: String::new(),
                source: Some(task::Source::Url(url)),
                ..Task::default()
            }
            .encode_to_vec(),
            Some(proto::CONTENT_TYPE_PROTOBUF),
        ),
        _ => (
            br#"{"id": 7, "url": ["not", "a", "string"]}"#.to_vec(),
            Some(proto::CONTENT_TYPE_JSON),
        ),
    }
}

fn poison_id(i: usize) -> String {
    format!("poison-{i:05}")
}

async fn poison(
    url: &str,
    prefix: &str,
    limit: u32,
    from: usize,
    count: usize,
) -> Result<(), Error> {
    let names = Names::with_prefix(prefix);
    let conn = Connection::connect(url, ConnectionProperties::default()).await?;
    let ch = conn.create_channel().await?;
    topology::declare(&conn, &names, limit).await?;
    ch.confirm_select(ConfirmSelectOptions::default()).await?;
    let mut pending = Vec::new();
    for i in from..from + count {
        let (body, content_type) = malformed(i);
        assert!(
            proto::decode_task(&body, content_type).is_err(),
            "poison variant {} decodes",
            i % 7
        );
        let mut props = BasicProperties::default()
            .with_message_id(poison_id(i).into())
            .with_delivery_mode(2);
        if let Some(ct) = content_type {
            props = props.with_content_type(ct.into());
        }
        let confirm = ch
            .basic_publish(
                "".into(),
                names.tasks.as_str().into(),
                BasicPublishOptions {
                    mandatory: true,
                    ..BasicPublishOptions::default()
                },
                &body,
                props,
            )
            .await?;
        pending.push(confirm);
    }
    for confirm in pending {
        match confirm.await? {
            Confirmation::Ack(None) => {}
            other => return Err(format!("poison publish not confirmed: {other:?}").into()),
        }
    }
    let _ = conn.close(200, "poisoned".into()).await;
    println!("{count}");
    Ok(())
}

/// What should become of a task (the manifest's third column).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Expect {
    /// `document`: all its documents.
    Document,
    /// `outcome` (404, 500): a fatal `Failure` event, not dead-lettered.
    Outcome,
    /// `dead` (a page that always stalls: retries used up): a dead letter.
    Dead,
}

/// One task of the manifest and what should become of it.
struct Planned {
    kind: String,
    expect: Expect,
    /// Document ids the task must yield (when a document is expected).
    documents: Vec<String>,
}

/// Appends to `out` the task of each line of the record list `list`, as
/// `linesift enqueue` batches them by default.
fn batches(list: &str, out: &str) -> Result<(), Error> {
    let text = std::fs::read_to_string(list)?;
    let lines: Vec<&str> = text.lines().collect();
    let mut batcher = Batcher::new(DEFAULT_BATCH);
    let mut ready = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if let Some(task) = task_of_line(line.as_bytes(), LineKind::WarcRecords, i + 1)? {
            ready.extend(batcher.add(task, i + 1));
        }
    }
    ready.extend(batcher.flush());
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(out)?;
    for r in ready {
        for line in &lines[r.lines.0 - 1..r.lines.1] {
            let line = line.trim();
            if !line.is_empty() && !line.starts_with('#') {
                writeln!(file, "{line}\t{}", r.task.id)?;
            }
        }
    }
    Ok(())
}

/// The batch task of each record line, from `batches.tsv` beside the
/// manifest (none: every record its own task).
fn read_batches(manifest: &str) -> Result<BTreeMap<String, String>, Error> {
    let path = std::path::Path::new(manifest).with_file_name("batches.tsv");
    let Ok(text) = std::fs::read_to_string(&path) else {
        return Ok(BTreeMap::new());
    };
    Ok(text
        .lines()
        .filter_map(|l| l.split_once('\t'))
        .map(|(line, id)| (line.to_string(), id.to_string()))
        .collect())
}

fn read_manifest(path: &str) -> Result<BTreeMap<String, Planned>, Error> {
    let text = std::fs::read_to_string(path)?;
    let batched = read_batches(path)?;
    let mut planned: BTreeMap<String, Planned> = BTreeMap::new();
    for (n, row) in text.lines().enumerate() {
        let cols: Vec<&str> = row.split('\t').collect();
        let [kind, line, expect, keys] = cols.as_slice() else {
            return Err(format!("{path}:{}: expected 4 columns", n + 1).into());
        };
        let line_kind = match *kind {
            "urls" => LineKind::Urls,
            "warc-records" => LineKind::WarcRecords,
            "warc-files" => LineKind::WarcFiles,
            other => return Err(format!("{path}:{}: kind {other}", n + 1).into()),
        };
        // The same function `linesift enqueue` uses: the same task ids.
        let tasks = parse_tasks(line, line_kind)?;
        let [task] = tasks.as_slice() else {
            return Err(format!("{path}:{}: not one task", n + 1).into());
        };
        let expect = match *expect {
            "document" => Expect::Document,
            "outcome" => Expect::Outcome,
            "dead" => Expect::Dead,
            other => return Err(format!("{path}:{}: expected {other}", n + 1).into()),
        };
        // A record sent in a batch: its documents are the batch task's.
        let batch = (line_kind == LineKind::WarcRecords)
            .then(|| batched.get(line.trim()))
            .flatten();
        if let Some(batch) = batch {
            let documents = keys
                .split(',')
                .map(|k| linesift::sink::message::document_id(batch, k));
            let entry = planned.entry(batch.clone()).or_insert_with(|| Planned {
                kind: kind.to_string(),
                expect,
                documents: Vec::new(),
            });
            entry.documents.extend(documents);
            continue;
        }
        let documents = keys
            .split(',')
            .map(|k| linesift::sink::message::document_id(&task.id, k))
            .collect();
        let before = planned.insert(
            task.id.clone(),
            Planned {
                kind: kind.to_string(),
                expect,
                documents,
            },
        );
        if before.is_some() {
            return Err(format!("{path}:{}: duplicate task id {}", n + 1, task.id).into());
        }
    }
    Ok(planned)
}

/// What the sink and the dead-letter queue held, rebuilt from the record
/// file.
#[derive(Default)]
struct Seen {
    document_messages: u64,
    /// Document id -> (task id, digest) of the first copy.
    documents: BTreeMap<String, (String, String)>,
    tasks_with_documents: BTreeSet<String>,
    conflicting_duplicates: u64,
    failure_events: u64,
    fatal_failures: u64,
    /// Task id -> kind of the first fatal event of a task that was not
    /// dead-lettered: an outcome, whose only record the event is.
    outcomes: BTreeMap<String, String>,
    undecodable_results: u64,
    dead_messages: u64,
    /// Task id or poison id -> (reason, kind) of the first dead letter.
    dead: BTreeMap<String, (String, String)>,
    /// Dead-lettered by the broker itself (the queue's delivery limit,
    /// reached through redeliveries after faults): id -> x-death reason.
    dead_by_broker: BTreeMap<String, String>,
    dead_unknown: u64,
}

impl Seen {
    /// Adds one line of the record file (see [`record_line`]).
    fn add(&mut self, line: &str) {
        let cols: Vec<&str> = line.split('\t').collect();
        match cols.as_slice() {
            ["doc", doc_id, task_id, digest] => {
                self.document_messages += 1;
                self.tasks_with_documents.insert(task_id.to_string());
                let this = (task_id.to_string(), digest.to_string());
                match self.documents.get(*doc_id) {
                    Some(first) if *first != this => self.conflicting_duplicates += 1,
                    Some(_) => {}
                    None => {
                        self.documents.insert(doc_id.to_string(), this);
                    }
                }
            }
            ["fail", task_id, fatal, kind, dead_lettered] => {
                self.failure_events += 1;
                if *fatal == "1" {
                    self.fatal_failures += 1;
                    if *dead_lettered == "0" {
                        self.outcomes
                            .entry(task_id.to_string())
                            .or_insert_with(|| kind.to_string());
                    }
                }
            }
            ["dead", id, reason, kind, death] => {
                self.dead_messages += 1;
                if id.is_empty() {
                    self.dead_unknown += 1;
                } else if reason.is_empty() {
                    self.dead_by_broker
                        .entry(id.to_string())
                        .or_insert_with(|| death.to_string());
                } else {
                    self.dead
                        .entry(id.to_string())
                        .or_insert_with(|| (reason.to_string(), kind.to_string()));
                }
            }
            _ => self.undecodable_results += 1,
        }
    }

    /// Planned tasks and malformed messages accounted for so far.
    fn accounted(&self, planned: &BTreeMap<String, Planned>, poison: usize) -> usize {
        let tasks = planned
            .keys()
            .filter(|id| {
                self.tasks_with_documents.contains(*id)
                    || self.outcomes.contains_key(*id)
                    || self.dead.contains_key(*id)
                    || self.dead_by_broker.contains_key(*id)
            })
            .count();
        let malformed = (0..poison)
            .map(poison_id)
            .filter(|id| self.dead.contains_key(id) || self.dead_by_broker.contains_key(id))
            .count();
        tasks + malformed
    }
}

fn header(props: &BasicProperties, key: &str) -> Option<String> {
    match props.headers().as_ref()?.inner().get(key)? {
        AMQPValue::LongString(s) => Some(String::from_utf8_lossy(s.as_bytes()).into_owned()),
        AMQPValue::ShortString(s) => Some(s.as_str().to_string()),
        _ => None,
    }
}

/// `reason` of the first `x-death` entry the broker adds when it
/// dead-letters a message itself.
fn x_death_reason(props: &BasicProperties) -> Option<String> {
    let AMQPValue::FieldArray(deaths) = props.headers().as_ref()?.inner().get("x-death")? else {
        return None;
    };
    let AMQPValue::FieldTable(first) = deaths.as_slice().first()? else {
        return None;
    };
    match first.inner().get("reason")? {
        AMQPValue::LongString(s) => Some(String::from_utf8_lossy(s.as_bytes()).into_owned()),
        AMQPValue::ShortString(s) => Some(s.as_str().to_string()),
        _ => None,
    }
}

/// Tabs and newlines would break the record file.
fn flat(s: &str) -> String {
    s.replace(['\t', '\n', '\r'], " ")
}

/// One message as a line of the record file: `doc ID TASK DIGEST`,
/// `fail TASK FATAL KIND DEAD-LETTERED`, `dead ID REASON KIND
/// X-DEATH-REASON` (tab separated; an empty REASON means the broker
/// dead-lettered it), or `undecodable`.
fn record_line(dead_letter: bool, d: &Delivery) -> String {
    let ct = d.properties.content_type().as_ref().map(|c| c.to_string());
    if dead_letter {
        let id = match proto::decode_task(&d.data, ct.as_deref()) {
            Ok(task) => task.id,
            Err(_) => d
                .properties
                .message_id()
                .as_ref()
                .map(|m| m.to_string())
                .unwrap_or_default(),
        };
        let reason = header(&d.properties, topology::HEADER_REASON).unwrap_or_default();
        let kind = header(&d.properties, topology::HEADER_KIND).unwrap_or_default();
        let death = x_death_reason(&d.properties).unwrap_or_default();
        return format!(
            "dead\t{}\t{}\t{}\t{}",
            flat(&id),
            flat(&reason),
            flat(&kind),
            flat(&death)
        );
    }
    if d.routing_key.as_str() == topology::ROUTING_DOCUMENT {
        match proto::decode::<DocumentMessage>(&d.data, ct.as_deref()) {
            Ok(doc) => format!(
                "doc\t{}\t{}\t{}",
                flat(&doc.document_id),
                flat(&doc.task_id),
                flat(&doc.digest)
            ),
            Err(_) => "undecodable".into(),
        }
    } else {
        match proto::decode::<Failure>(&d.data, ct.as_deref()) {
            Ok(f) => format!(
                "fail\t{}\t{}\t{}\t{}",
                flat(&f.task_id),
                u8::from(f.fatal),
                flat(&f.kind),
                u8::from(f.dead_lettered)
            ),
            Err(_) => "undecodable".into(),
        }
    }
}

/// The record file and the running tally, shared by the collector's
/// sessions and the final drain.
struct Recorder {
    file: std::fs::File,
    seen: Seen,
}

impl Recorder {
    fn open(dir: &str) -> Result<Self, Error> {
        let path = std::path::Path::new(dir).join("records.tsv");
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)?;
        Ok(Recorder {
            file,
            seen: Seen::default(),
        })
    }

    /// Writes the line before the message is acked: a message is either
    /// on file or still in its queue.
    async fn take(&mut self, dead_letter: bool, d: Delivery) -> Result<(), Error> {
        let line = record_line(dead_letter, &d);
        self.file.write_all(format!("{line}\n").as_bytes())?;
        self.seen.add(&line);
        d.ack(BasicAckOptions::default()).await?;
        Ok(())
    }
}

async fn consume(ch: &Channel, queue: &str) -> Result<lapin::Consumer, Error> {
    Ok(ch
        .basic_consume(
            queue.into(),
            "".into(),
            BasicConsumeOptions::default(),
            FieldTable::default(),
        )
        .await?)
}

/// Runs until killed: records every result and dead letter as it comes,
/// across broker restarts, and keeps DIR/progress (`accounted<TAB>total`)
/// current for the script.
async fn collect(
    url: &str,
    prefix: &str,
    manifest: &str,
    poison_count: usize,
    dir: &str,
) -> Result<(), Error> {
    let planned = read_manifest(manifest)?;
    let total = planned.len() + poison_count;
    let mut recorder = Recorder::open(dir)?;
    let names = Names::with_prefix(prefix);
    let progress = std::path::Path::new(dir).join("progress");
    let progress_tmp = std::path::Path::new(dir).join("progress.tmp");
    loop {
        let session = async {
            let conn = Connection::connect(url, ConnectionProperties::default()).await?;
            let ch = conn.create_channel().await?;
            ch.basic_qos(500, BasicQosOptions::default()).await?;
            let mut sink = consume(&ch, &sink_name(prefix)).await?;
            let mut dead = consume(&ch, &names.dead_letter_queue).await?;
            let mut tick = tokio::time::interval(Duration::from_millis(500));
            loop {
                tokio::select! {
                    d = sink.next() => match d {
                        Some(d) => recorder.take(false, d?).await?,
                        None => return Err::<(), Error>("sink consumer ended".into()),
                    },
                    d = dead.next() => match d {
                        Some(d) => recorder.take(true, d?).await?,
                        None => return Err("dead-letter consumer ended".into()),
                    },
                    _ = tick.tick() => {
                        let done = recorder.seen.accounted(&planned, poison_count);
                        std::fs::write(&progress_tmp, format!("{done}\t{total}\n"))?;
                        std::fs::rename(&progress_tmp, &progress)?;
                    }
                }
            }
        };
        if let Err(e) = session.await {
            eprintln!("fault_harness collect: {e}; reconnecting");
        }
        tokio::time::sleep(Duration::from_millis(500)).await;
    }
}

/// Ready messages of a queue.
async fn ready(ch: &Channel, queue: &str) -> Result<u32, Error> {
    Ok(topology::ready_count(ch, queue).await?)
}

async fn depth(url: &str, prefix: &str) -> Result<(), Error> {
    let names = Names::with_prefix(prefix);
    let conn = Connection::connect(url, ConnectionProperties::default()).await?;
    let ch = conn.create_channel().await?;
    println!("{}", ready(&ch, &names.tasks).await?);
    let _ = conn.close(200, "depth".into()).await;
    Ok(())
}

/// Moves what is still in `queue` to the record file, until it is empty
/// and quiet.
async fn drain(
    ch: &Channel,
    queue: &str,
    dead_letter: bool,
    recorder: &mut Recorder,
) -> Result<(), Error> {
    let mut consumer = consume(ch, queue).await?;
    loop {
        match tokio::time::timeout(Duration::from_secs(2), consumer.next()).await {
            Ok(Some(d)) => recorder.take(dead_letter, d?).await?,
            Ok(None) => return Err(format!("consumer of {queue} ended").into()),
            Err(_) if ready(ch, queue).await? == 0 => return Ok(()),
            Err(_) => {}
        }
    }
}

/// Drains the sink and the dead-letter queue into the record file (the
/// collector must be stopped), then accounts for every task.
async fn check(
    url: &str,
    prefix: &str,
    manifest: &str,
    poison_count: usize,
    dir: &str,
) -> Result<bool, Error> {
    let planned = read_manifest(manifest)?;
    let names = Names::with_prefix(prefix);
    let mut recorder = Recorder::open(dir)?;
    let conn = Connection::connect(url, ConnectionProperties::default()).await?;
    let ch = conn.create_channel().await?;
    ch.basic_qos(500, BasicQosOptions::default()).await?;
    drain(&ch, &sink_name(prefix), false, &mut recorder).await?;
    drain(&ch, &names.dead_letter_queue, true, &mut recorder).await?;
    let left = ready(&ch, &names.tasks).await?;
    let _ = conn.close(200, "checked".into()).await;
    drop(recorder);
    let mut seen = Seen::default();
    let records = std::fs::read_to_string(std::path::Path::new(dir).join("records.tsv"))?;
    for line in records.lines() {
        seen.add(line);
    }
    let out = std::path::Path::new(dir).join("figures.tsv");
    report(&planned, poison_count, &seen, u64::from(left), &out)
}

/// Accounts for every task; writes the figures; true when nothing is lost
/// or unexplained.
///
/// A task is accounted for when the sink holds a document of it or an
/// outcome's event (fatal, not dead-lettered), or the dead-letter queue
/// holds it. Planned ends: good pages and WARC tasks give all their
/// documents; 404/500 pages are outcomes (a fatal event, no dead letter of
/// their own kind); always-stalling pages are dead-lettered (retries used
/// up); malformed messages are dead-lettered *with* the worker's reason.
/// 404/500 and always-stalling pages may also be dead-lettered by the
/// broker's delivery limit (no worker reason): redeliveries after
/// connection loss count towards it, and that is reported, not failed; so
/// is a 404/500 page dead-lettered as a fault (a timeout under an origin
/// stall, an event never confirmed), but not as `http_status`.
fn report(
    planned: &BTreeMap<String, Planned>,
    poison_count: usize,
    seen: &Seen,
    left_in_queue: u64,
    out: &std::path::Path,
) -> Result<bool, Error> {
    let mut problems = Vec::new();
    let (mut lost, mut missing_documents, mut unexpected) = (0u64, 0u64, 0u64);
    let (mut documented, mut dead_planned, mut expected_documents) = (0u64, 0u64, 0u64);
    let mut outcome_planned = 0u64;
    let mut outcome_kinds: BTreeMap<String, u64> = BTreeMap::new();
    let mut by_kind: BTreeMap<&str, u64> = BTreeMap::new();
    let mut dead_kinds: BTreeMap<String, u64> = BTreeMap::new();
    for (id, plan) in planned {
        *by_kind.entry(plan.kind.as_str()).or_default() += 1;
        let has_doc = seen.tasks_with_documents.contains(id);
        let dead = seen.dead.get(id);
        let by_broker = seen.dead_by_broker.get(id);
        let outcome = seen.outcomes.get(id);
        if let Some(kind) = outcome {
            *outcome_kinds.entry(kind.clone()).or_default() += 1;
        }
        if let Some((_, kind)) = dead {
            *dead_kinds.entry(kind.clone()).or_default() += 1;
        } else if let Some(why) = by_broker {
            *dead_kinds.entry(format!("broker: {why}")).or_default() += 1;
        }
        if !has_doc && outcome.is_none() && dead.is_none() && by_broker.is_none() {
            lost += 1;
            problems.push(format!("LOST task {id} ({})", plan.kind));
            continue;
        }
        if plan.expect == Expect::Document {
            expected_documents += plan.documents.len() as u64;
            if has_doc {
                documented += 1;
            }
            let missing = plan
                .documents
                .iter()
                .filter(|d| !seen.documents.contains_key(*d))
                .count() as u64;
            if dead.is_some() || by_broker.is_some() {
                unexpected += 1;
                let why = dead.map_or_else(
                    || format!("by the broker ({})", by_broker.map_or("?", |s| s.as_str())),
                    |(reason, _)| reason.clone(),
                );
                problems.push(format!("UNEXPECTED dead letter for task {id}: {why}"));
            } else if let Some(kind) = outcome {
                unexpected += 1;
                problems.push(format!("UNEXPECTED outcome {kind} for task {id}"));
            } else if missing > 0 {
                missing_documents += missing;
                problems.push(format!("MISSING {missing} document(s) of task {id}"));
            }
        } else {
            if has_doc {
                unexpected += 1;
                problems.push(format!("UNEXPECTED document for task {id} planned to fail"));
            }
            if plan.expect == Expect::Outcome {
                outcome_planned += 1;
                // Dead-lettered as what it is (its 404 or 500): outcomes
                // were dead-lettered. A dead letter for retries used up
                // (timeouts under an origin stall) or an unconfirmed event
                // (`publish`) is a fault, as planned for such a task.
                if let Some((reason, kind)) = dead.filter(|(_, kind)| kind == "http_status") {
                    unexpected += 1;
                    problems.push(format!(
                        "UNEXPECTED dead letter ({kind}) for task {id}, an outcome: {reason}"
                    ));
                }
            } else {
                dead_planned += 1;
                if let Some(kind) = outcome {
                    unexpected += 1;
                    problems.push(format!(
                        "UNEXPECTED outcome {kind} for task {id} planned to be dead-lettered"
                    ));
                }
            }
        }
    }
    let mut poison_dead = 0u64;
    for i in 0..poison_count {
        let id = poison_id(i);
        if let Some((_, kind)) = seen.dead.get(&id) {
            poison_dead += 1;
            *dead_kinds.entry(format!("{kind} (malformed)")).or_default() += 1;
        } else if seen.dead_by_broker.contains_key(&id) {
            problems.push(format!(
                "malformed message {id} dead-lettered without a reason"
            ));
        } else {
            lost += 1;
            problems.push(format!(
                "LOST malformed message {id}: not in the dead-letter queue"
            ));
        }
    }
    if seen.dead_unknown > 0 || seen.undecodable_results > 0 || seen.conflicting_duplicates > 0 {
        problems.push(format!(
            "{} unidentifiable dead letter(s), {} undecodable result(s), \
             {} duplicate id(s) with a different document",
            seen.dead_unknown, seen.undecodable_results, seen.conflicting_duplicates
        ));
    }
    let unknown_documents = seen
        .documents
        .values()
        .filter(|(task, _)| !planned.contains_key(task))
        .count();
    if unknown_documents > 0 {
        problems.push(format!("{unknown_documents} document(s) of unknown tasks"));
    }

    let distinct = seen.documents.len() as u64;
    let dead_ids: BTreeSet<&String> = seen.dead.keys().chain(seen.dead_by_broker.keys()).collect();
    let dead_distinct = dead_ids.len() as u64;
    let mut figures = String::new();
    let mut put = |k: &str, v: u64| {
        let _ = writeln!(figures, "{k}\t{v}");
    };
    put("tasks", (planned.len() + poison_count) as u64);
    for (kind, n) in &by_kind {
        put(&format!("tasks.{kind}"), *n);
    }
    put("tasks.poison", poison_count as u64);
    put("tasks.planned_to_fail", dead_planned + outcome_planned);
    put("tasks.planned_outcome", outcome_planned);
    put("tasks.planned_dead", dead_planned);
    put("tasks.with_document", documented);
    put("documents.expected", expected_documents);
    put("documents.distinct", distinct);
    put("documents.messages", seen.document_messages);
    put("documents.duplicates", seen.document_messages - distinct);
    put("failure_events", seen.failure_events);
    put("failure_events.fatal", seen.fatal_failures);
    put("outcomes.distinct", seen.outcomes.len() as u64);
    for (kind, n) in &outcome_kinds {
        put(&format!("outcome.kind.{kind}"), *n);
    }
    put("dead.messages", seen.dead_messages);
    put("dead.distinct", dead_distinct);
    put(
        "dead.duplicates",
        seen.dead_messages - dead_distinct - seen.dead_unknown,
    );
    put("dead.poison_with_reason", poison_dead);
    put("dead.by_broker", seen.dead_by_broker.len() as u64);
    for (kind, n) in &dead_kinds {
        put(&format!("dead.kind.{kind}"), *n);
    }
    put("missing_documents", missing_documents);
    put("unexpected", unexpected);
    // Redeliveries still queued when the workers stopped: at-least-once
    // duplicates of accounted tasks (a loss would show in `lost`).
    put("left_in_task_queue", left_in_queue);
    put("lost", lost);
    std::fs::write(out, &figures)?;
    print!("{figures}");
    for (id, why) in &seen.dead_by_broker {
        eprintln!(
            "fault_harness: note: {id} dead-lettered by the broker ({why}), no worker reason"
        );
    }
    for p in problems.iter().take(30) {
        eprintln!("fault_harness: {p}");
    }
    if problems.len() > 30 {
        eprintln!("fault_harness: ... {} problems in all", problems.len());
    }
    Ok(problems.is_empty())
}
