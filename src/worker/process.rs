//! One task's work, without any AMQP: fetch a URL, or read a WARC file or
//! record, run the extraction core, and hand each result ([`Output`]) to a
//! channel as soon as it exists, so a WARC file with thousands of records
//! never sits in memory as a whole. Classifies what goes wrong as
//! transient (retry the task) or permanent, and a permanent failure as an
//! outcome (the page is what it is: record it) or a fault (someone must
//! look: dead-letter it); see [`TaskError::is_outcome`].
//!
//! A task that runs longer than its deadline fails as transient (kind
//! `deadline`), so the usual policy applies: requeued, and dead-lettered
//! once the delivery limit is reached, with a reason naming the deadline.
//!
//! A URL task whose host is busy (its next request slot further out than
//! the caller would wait) fails as `Deferred` before anything is sent:
//! `consume` puts it aside in the delay queue rather than hold a slot.
//!
//! Publishing, acking and retry decisions are `consume`'s job.

use super::kinds;
use super::metrics::Metrics;
use crate::fetch::{FetchError, Fetcher};
use crate::proto::{DocumentMessage, Failure, Task, task};
use crate::remote::WarcFile;
use crate::sink::message::Origin;
use crate::warc::driver::{Driver, Outcome, Skip};
use crate::warc::{self, ContainerError, Item, PageError, ReaderOptions, WarcError, WarcReader};
use crate::{Document, Extractor};
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::mpsc;

/// One result of a task.
#[derive(Debug)]
pub enum Output {
    /// A document, with its WARC record's capture when it came from one
    /// (which the queue's message does not carry; `linesift run`'s WET
    /// output dates and names its records by it).
    Document(Box<DocumentMessage>, Option<Box<Capture>>),
    /// A record of a multi-record task that gave no document; the task
    /// itself goes on.
    Failure(Failure),
}

/// Where a document's WARC record is and what it says of its capture.
#[derive(Debug, Clone)]
pub struct Capture {
    pub pos: warc::RecordPos,
    pub record_id: String,
    pub target_uri: Option<String>,
    pub date: Option<String>,
    pub http_date: Option<String>,
    pub truncated: Option<String>,
    pub repairs: warc::Repairs,
}

impl Capture {
    fn of(page: &warc::Page) -> Box<Self> {
        Box::new(Capture {
            pos: page.pos,
            record_id: page.record_id.clone(),
            target_uri: page.target_uri.clone(),
            date: page.date.clone(),
            http_date: page.http_date.clone(),
            truncated: page.truncated.clone(),
            repairs: page.repairs,
        })
    }
}

/// Why a task as a whole failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TaskError {
    /// May work later (timeouts, 5xx, broker trouble): requeue.
    #[error("{stage}/{kind}: {reason}")]
    Transient {
        stage: &'static str,
        kind: String,
        reason: String,
    },
    /// Will never work (404, not HTML, missing file, bad record): an
    /// outcome or a fault, as [`TaskError::is_outcome`] tells.
    #[error("{stage}/{kind}: {reason}")]
    Permanent {
        stage: &'static str,
        kind: String,
        reason: String,
    },
    /// Not tried: the URL's host is busy for longer than the task may
    /// wait (`run_waiting`). Put the task aside and bring it back later.
    #[error("fetch/host_busy: {reason}")]
    Deferred { reason: String },
}

impl TaskError {
    /// A WARC read error: transient when reading the file failed (an I/O
    /// error on a network filesystem or a flaky disk may not recur, and a
    /// redelivered task publishes the same document ids), permanent
    /// otherwise (the bytes are what they are).
    fn warc_read(error: &WarcError, reason: String) -> Self {
        match error {
            WarcError::Container(ContainerError::Io { .. }) => TaskError::Transient {
                stage: "warc",
                kind: "io".into(),
                reason,
            },
            // The record's member decompresses past `max_member`: a bomb,
            // the answer about that record as a payload over `max_payload`
            // is (`skipped`), and named as a WARC file task names it.
            WarcError::Container(ContainerError::MemberTooLarge { .. }) => {
                TaskError::permanent("warc", "too_large", reason)
            }
            // A stale index line: the kind it had before the offset was
            // checked (no record was found there), which dashboards and
            // alerts on `bad_record` count.
            WarcError::NoRecordAt { .. } => TaskError::permanent("warc", "bad_record", reason),
            _ => TaskError::permanent("warc", "read", reason),
        }
    }

    fn permanent(stage: &'static str, kind: impl Into<String>, reason: impl ToString) -> Self {
        TaskError::Permanent {
            stage,
            kind: kind.into(),
            reason: reason.to_string(),
        }
    }

    /// Whether the failure is an *outcome* of the crawl rather than a
    /// *fault*. An outcome is the answer about the page itself, which
    /// asking again would not change and nobody need act on: at crawl
    /// scale 404s, pages that are not HTML and robots.txt refusals are a
    /// good share of all tasks, and the worker records them as a fatal
    /// `Failure` event and acks the task. A fault is a task someone must
    /// look at (a malformed task, a WARC file or record that cannot be
    /// read, a bug): it is dead-lettered. Only `Permanent` errors can be
    /// outcomes; a `Transient` one that used up its deliveries is a fault
    /// (`consume::retry`), and so is any stage and kind the table
    /// ([`kinds::FAILURE_KINDS`], which docs/worker.md prints) does not
    /// list as an outcome, so that a new kind is dead-lettered until
    /// someone decides otherwise.
    pub fn is_outcome(&self) -> bool {
        match self {
            TaskError::Permanent { stage, kind, .. } => kinds::is_outcome(stage, kind),
            _ => false,
        }
    }

    /// Stage, kind and reason, whichever variant.
    pub fn parts(&self) -> (&'static str, &str, &str) {
        match self {
            TaskError::Transient {
                stage,
                kind,
                reason,
            }
            | TaskError::Permanent {
                stage,
                kind,
                reason,
            } => (stage, kind, reason),
            TaskError::Deferred { reason } => ("fetch", "host_busy", reason),
        }
    }
}

/// Whether a task that failed transiently on its `attempt`th try (the
/// first is 1) is given up rather than tried again: at `limit` tries
/// (the queue's delivery limit). One given up is a fault.
pub fn gives_up(attempt: u64, limit: u32) -> bool {
    attempt >= u64::from(limit)
}

/// The reason recorded for a task given up after `attempt` tries.
pub fn gave_up(attempt: u64, reason: &str) -> String {
    format!("gave up after {attempt} attempts: {reason}")
}

/// The fatal `Failure` event of a task that failed for good: an outcome
/// (`dead_lettered` false) or a fault (true; the queue worker
/// dead-letters those). It names the task (when the input was a task at
/// all) and a URL task's page, without credentials.
pub fn task_failure(
    task: Option<&Task>,
    stage: &str,
    kind: &str,
    reason: &str,
    dead_lettered: bool,
) -> Failure {
    Failure {
        task_id: task.map(|t| t.id.clone()).unwrap_or_default(),
        stage: stage.to_string(),
        kind: kind.to_string(),
        reason: reason.to_string(),
        url: task.map(page_url).unwrap_or_default(),
        fatal: true,
        dead_lettered,
        ..Failure::default()
    }
}

/// The URL a task's `Failure` event names: a URL task's page as the
/// parser reads it, without the credentials a URL may carry (reasons and
/// logs leave them out too); empty for a WARC task.
pub fn page_url(task: &Task) -> String {
    match &task.source {
        Some(task::Source::Url(url)) => crate::fetch::error::page_without_credentials(url),
        _ => String::new(),
    }
}

/// Turns tasks into results. Cheap to share (`Arc`).
pub struct Processor {
    fetcher: Fetcher,
    extractor: Extractor,
    reader: ReaderOptions,
    metrics: Metrics,
    deadline: Option<Duration>,
}

impl Processor {
    pub fn new(
        fetcher: Fetcher,
        extractor: Extractor,
        reader: ReaderOptions,
        metrics: Metrics,
    ) -> Self {
        Processor {
            fetcher,
            extractor,
            reader,
            metrics,
            deadline: None,
        }
    }

    /// Limits each task to `deadline` of wall-clock time (`None`: none).
    pub fn with_deadline(mut self, deadline: Option<Duration>) -> Self {
        self.deadline = deadline;
        self
    }

    /// Runs `task`, sending its results to `out` as they are made. Stops
    /// early (Ok) if the receiver is gone, and fails with a transient
    /// `deadline` error when the task outlives its deadline.
    pub async fn run(
        self: &Arc<Self>,
        task: &Task,
        out: mpsc::Sender<Output>,
    ) -> Result<(), TaskError> {
        self.run_waiting(task, out, None).await
    }

    /// [`run`](Self::run), but a URL task whose host's next request slot
    /// is more than `max_host_wait` away fails at once with
    /// [`TaskError::Deferred`] (`None`: waits for the host however long).
    pub async fn run_waiting(
        self: &Arc<Self>,
        task: &Task,
        out: mpsc::Sender<Output>,
        max_host_wait: Option<Duration>,
    ) -> Result<(), TaskError> {
        let Some(limit) = self.deadline else {
            return self.run_within(task, out, None, max_host_wait).await;
        };
        // A batch of records has the deadline per record (each record is
        // held to it, see `warc_records`): the whole may take one
        // deadline per record.
        let whole = limit.saturating_mul(records_in(task));
        let deadline = Deadline {
            at: Instant::now() + whole,
            limit,
        };
        // Async work (fetches) is cancelled by dropping it; blocking WARC
        // work cannot be, so it also checks the deadline between records
        // and stops sending (see `warc_file`).
        let work = self.run_within(task, out, Some(deadline), max_host_wait);
        tokio::time::timeout(whole, work)
            .await
            .unwrap_or_else(|_| Err(deadline_error(limit)))
    }

    async fn run_within(
        self: &Arc<Self>,
        task: &Task,
        out: mpsc::Sender<Output>,
        deadline: Option<Deadline>,
        max_host_wait: Option<Duration>,
    ) -> Result<(), TaskError> {
        match &task.source {
            Some(task::Source::Url(url)) => self.url(task, url, out, max_host_wait).await,
            Some(task::Source::WarcFile(file)) => {
                let (this, id, path) = (self.clone(), task.id.clone(), file.path.clone());
                blocking(move || this.warc_file(&id, Path::new(&path), &out, deadline)).await
            }
            Some(task::Source::WarcRecord(rec)) => {
                let (this, id) = (self.clone(), task.id.clone());
                let one = crate::proto::WarcRecords {
                    path: rec.path.clone(),
                    records: vec![crate::proto::RecordSpan {
                        offset: rec.offset,
                        length: rec.length,
                    }],
                };
                blocking(move || this.warc_records(&id, &one, &out, Records::Task)).await
            }
            Some(task::Source::WarcRecords(batch)) => {
                let (this, id, batch) = (self.clone(), task.id.clone(), batch.clone());
                let limit = deadline.map(|d| d.limit);
                let records = Records::Batch { limit };
                blocking(move || this.warc_records(&id, &batch, &out, records)).await
            }
            None => Err(TaskError::permanent(
                "decode",
                "no_source",
                "task has no source",
            )),
        }
    }

    async fn url(
        &self,
        task: &Task,
        url: &str,
        out: mpsc::Sender<Output>,
        max_host_wait: Option<Duration>,
    ) -> Result<(), TaskError> {
        let started = Instant::now();
        let result = self.fetcher.fetch_within(url, max_host_wait).await;
        let fetched = match result {
            Ok(f) => f,
            // The host's turn is too far out: no request, no status.
            Err(e @ FetchError::HostBusy { .. }) => {
                return Err(TaskError::Deferred {
                    reason: e.to_string(),
                });
            }
            Err(e) => {
                self.metrics.observe("fetch", started);
                let code = match &e {
                    FetchError::Status { status, .. } => status.to_string(),
                    other => other.kind().to_string(),
                };
                self.metrics.fetch_status.with_label_values(&[&code]).inc();
                return Err(fetch_error(e));
            }
        };
        self.metrics.observe("fetch", started);
        let status = fetched.status.to_string();
        self.metrics
            .fetch_status
            .with_label_values(&[&status])
            .inc();
        self.metrics.bytes_in.inc_by(fetched.body_bytes);
        let origin = Origin {
            record_key: url.to_string(),
            url: fetched.url,
            status: u32::from(fetched.status),
            truncated: fetched.truncated,
            ..Origin::default()
        };
        let doc = DocumentMessage::from_document(&task.id, origin, fetched.document);
        // A closed receiver means the task is being abandoned anyway.
        let _ = out.send(Output::Document(Box::new(doc), None)).await;
        Ok(())
    }

    /// Every HTML record of a file, by the driver's rules: a document each,
    /// a failure event for each page lost (to its bytes or to a limit),
    /// nothing for a skipped record. A read that fails ends the task, to be
    /// tried again; a file cut short keeps what came before and ends with a
    /// `read` failure event.
    fn warc_file(
        &self,
        task_id: &str,
        path: &Path,
        out: &mpsc::Sender<Output>,
        deadline: Option<Deadline>,
    ) -> Result<(), TaskError> {
        let file = open_warc(path)?.into_read();
        let file = file.map_err(|e| open_failure(path, &e))?;
        let reader = WarcReader::new(file, self.reader).map_err(|e| {
            TaskError::permanent("warc", "format", format!("{}: {e}", path.display()))
        })?;
        let driver = Driver::new(&self.extractor, self.reader);
        // Records read (pages or skipped) and ones that could not be: a
        // file that gives no record at all is no WARC file to this task.
        let (mut records, mut errors) = (0u64, 0u64);
        for item in reader {
            if let Some(deadline) = deadline {
                deadline.check()?;
            }
            match &item {
                Ok(Item::Bad { .. }) | Err(_) => errors += 1,
                Ok(_) => records += 1,
            }
            let output = match item {
                Ok(item) => self.file_record(task_id, path, &driver, &item),
                Err(e) => Some(file_cut(task_id, path, e)?),
            };
            if let Some(output) = output
                && out.blocking_send(output).is_err()
            {
                break;
            }
        }
        no_record_failure(path, records, errors)
    }

    /// What a WARC file task sends for one record of its file.
    fn file_record(
        &self,
        task_id: &str,
        path: &Path,
        driver: &Driver,
        item: &Item,
    ) -> Option<Output> {
        let started = Instant::now();
        let outcome = driver.outcome(item);
        let Item::Page(page) = item else {
            // Not a page: skipped, or lost (a bad record, a member or a
            // payload over its limit), named by its offset.
            let Outcome::Failed(f) = outcome else {
                return None;
            };
            let offset = item.pos().offset;
            let reason = format!("{} at offset {offset}: {}", path.display(), f.message);
            let failure = record_failure(task_id, f.stage, f.kind, &reason, "", "");
            return Some(Output::Failure(failure));
        };
        let failure = match outcome {
            Outcome::Document(doc) => {
                self.observe_extract(started, &doc);
                let doc = document_message(task_id, page, *doc);
                return Some(Output::Document(Box::new(doc), Some(Capture::of(page))));
            }
            Outcome::Skipped(_) => return None,
            // A page's failure names its record and page.
            Outcome::Failed(f) => record_failure(
                task_id,
                f.stage,
                f.kind,
                &f.message,
                &page.record_id,
                page.target_uri.as_deref().unwrap_or_default(),
            ),
        };
        Some(Output::Failure(failure))
    }

    /// The records of a record task (one, [`Records::Task`]) or a batch
    /// task ([`Records::Batch`]), one after the other from the file opened
    /// once: a document each, or, when a record gives none (no HTML page, a
    /// bad record), a record task's failure, and a batch's failure event
    /// for that record (not fatal; also for a panic or a record past the
    /// deadline that holds for each), after which the batch goes on. Only
    /// what may pass fails a batch as a whole, to be tried again (an I/O
    /// error; what was published comes again with the same ids), and a
    /// file that cannot be opened.
    fn warc_records(
        &self,
        task_id: &str,
        batch: &crate::proto::WarcRecords,
        out: &mpsc::Sender<Output>,
        records: Records,
    ) -> Result<(), TaskError> {
        let path = Path::new(&batch.path);
        let mut file = open_warc(path)?;
        for span in &batch.records {
            let started = Instant::now();
            let mut read = || self.record_at(task_id, &mut file, path, span.offset, span.length);
            let read = match records {
                // A panic is the task's, as any other failure.
                Records::Task => read(),
                Records::Batch { .. } => std::panic::catch_unwind(std::panic::AssertUnwindSafe(
                    read,
                ))
                .unwrap_or_else(|panic| {
                    let reason = panic_message(panic.as_ref());
                    let error = TaskError::permanent("warc", "panic", reason);
                    Err(FailedRecord::unnamed(error))
                }),
            };
            let limit = match records {
                Records::Task => None,
                Records::Batch { limit } => limit,
            };
            let output = match read {
                Err(failed)
                    if matches!(records, Records::Task)
                        || matches!(failed.error, TaskError::Transient { .. }) =>
                {
                    return Err(failed.error);
                }
                _ if limit.is_some_and(|l| started.elapsed() > l) => {
                    let late = record_past_deadline(path, span.offset, started.elapsed(), limit);
                    Output::Failure(FailedRecord::unnamed(late).event(task_id))
                }
                Ok(output) => output,
                Err(failed) => Output::Failure(failed.event(task_id)),
            };
            if out.blocking_send(output).is_err() {
                break;
            }
        }
        Ok(())
    }

    /// The record at `offset` of the open `file`: its document, or why it
    /// gives none, as a record task's failure. A record that is no page is
    /// a `skipped` failure here: the task asked for that one record.
    fn record_at(
        &self,
        task_id: &str,
        file: &mut WarcFile,
        path: &Path,
        offset: u64,
        length: u64,
    ) -> Result<Output, FailedRecord> {
        let length = (length > 0).then_some(length);
        let started = Instant::now();
        let item = file.read_record(offset, length, self.reader);
        self.metrics.observe("warc", started);
        let item = item.map_err(|e| {
            let reason = format!("{}@{offset}: {e}", path.display());
            FailedRecord::unnamed(TaskError::warc_read(&e, reason))
        })?;
        let started = Instant::now();
        let outcome = Driver::new(&self.extractor, self.reader).outcome(&item);
        let error = match outcome {
            Outcome::Document(doc) => match &item {
                Item::Page(page) => {
                    self.observe_extract(started, &doc);
                    let message = document_message(task_id, page, *doc);
                    let capture = Some(Capture::of(page));
                    return Ok(Output::Document(Box::new(message), capture));
                }
                // The driver makes documents of pages only.
                _ => TaskError::permanent("warc", "read", "a document without its page"),
            },
            Outcome::Skipped(skip @ Skip::Record(_)) => {
                TaskError::permanent(skip.stage(), "skipped", skip.key())
            }
            Outcome::Skipped(skip @ Skip::Payload(_)) => TaskError::permanent(
                skip.stage(),
                "skipped",
                PageError::Skip(skip.reason().clone()),
            ),
            Outcome::Failed(f) => TaskError::permanent(f.stage, f.kind, f.message),
        };
        Err(match &item {
            Item::Page(page) => FailedRecord {
                error,
                record_id: page.record_id.clone(),
                url: page.target_uri.clone().unwrap_or_default(),
            },
            _ => FailedRecord::unnamed(error),
        })
    }

    /// Counts an extraction's time and input.
    fn observe_extract(&self, started: Instant, doc: &Document) {
        self.metrics.observe("extract", started);
        self.metrics.bytes_in.inc_by(doc.bytes);
    }
}

/// A page's document as the queue carries it.
fn document_message(task_id: &str, page: &warc::Page, doc: Document) -> DocumentMessage {
    let origin = Origin {
        record_key: page.record_id.clone(),
        // Without credentials, as the record's failure events name it.
        url: page
            .target_uri
            .as_deref()
            .map(crate::fetch::error::page_without_credentials)
            .unwrap_or_default(),
        warc_record_id: page.record_id.clone(),
        truncated: page.truncated.is_some(),
        repaired: page.repairs.names(),
        ..Origin::default()
    };
    DocumentMessage::from_document(task_id, origin, doc)
}

/// A WARC file task's file that held no record: empty, or not one of its
/// records readable (junk, every member corrupt). Worded as `linesift warc`
/// words it, a `warc/format` failure: the file is no WARC file.
fn no_record_failure(path: &Path, records: u64, errors: u64) -> Result<(), TaskError> {
    let what = match (records, errors) {
        (0, 0) => "holds no record (an empty input)",
        (0, _) => "not one record could be read",
        _ => return Ok(()),
    };
    let reason = format!("{}: {what}", path.display());
    Err(TaskError::permanent("warc", "format", reason))
}

/// How a file task ends when its reading stops early: a read that
/// failed fails the task, to be tried again (what was published comes
/// again with the same ids); a file cut short (truncated compression
/// and the like) keeps what came before, and the rest is a failure.
fn file_cut(task_id: &str, path: &Path, e: WarcError) -> Result<Output, TaskError> {
    if let WarcError::Container(ContainerError::Io { .. }) = e {
        let reason = format!("{}: {e}", path.display());
        return Err(TaskError::warc_read(&e, reason));
    }
    let reason = format!("{}: {e}", path.display());
    let failure = record_failure(task_id, "warc", "read", &reason, "", "");
    Ok(Output::Failure(failure))
}

/// Opens the WARC file a task names. A path that names no file the
/// worker may read (missing, not permitted, a directory, an invalid name)
/// stays so: a fault (`open`) at once, not retried. Other failures to open
/// (too many open files, a file system error) may pass: transient (`io`),
/// as an I/O error reading a file that opened is.
/// A remote location (`https://`, `s3://`) is opened alike: a missing or
/// forbidden file is a fault, a server that fails may pass.
fn open_warc(path: &Path) -> Result<WarcFile, TaskError> {
    WarcFile::open(path).map_err(|e| open_failure(path, &e))
}

fn open_failure(path: &Path, e: &std::io::Error) -> TaskError {
    let reason = format!("{}: {e}", path.display());
    match names_no_readable_file(e) {
        true => TaskError::permanent("warc", "open", reason),
        false => TaskError::Transient {
            stage: "warc",
            kind: "io".into(),
            reason,
        },
    }
}

/// Whether opening a file failed because of the path itself.
fn names_no_readable_file(e: &std::io::Error) -> bool {
    use std::io::ErrorKind::*;
    matches!(
        e.kind(),
        NotFound | PermissionDenied | IsADirectory | NotADirectory | InvalidFilename | InvalidInput
    )
}

/// How a task's WARC records answer.
#[derive(Debug, Clone, Copy)]
enum Records {
    /// A record task's one record: its failure is the task's.
    Task,
    /// A batch task's: each record's failure is an event of its own, and
    /// each record is held to `limit` (the task deadline) on its own.
    Batch { limit: Option<Duration> },
}

/// A record that gave no document: why, and which record and page it
/// was when that is known.
#[derive(Debug)]
struct FailedRecord {
    error: TaskError,
    record_id: String,
    url: String,
}

impl FailedRecord {
    fn unnamed(error: TaskError) -> Self {
        FailedRecord {
            error,
            record_id: String::new(),
            url: String::new(),
        }
    }

    /// The failure event of a batch's record (not fatal: the batch goes on).
    fn event(&self, task_id: &str) -> Failure {
        let (stage, kind, reason) = self.error.parts();
        record_failure(task_id, stage, kind, reason, &self.record_id, &self.url)
    }
}

/// How many records a task holds (its deadline holds for each).
fn records_in(task: &Task) -> u32 {
    match &task.source {
        Some(task::Source::WarcRecords(batch)) => u32::try_from(batch.records.len())
            .unwrap_or(u32::MAX)
            .max(1),
        _ => 1,
    }
}

/// A batch's record that took longer than the task deadline.
fn record_past_deadline(
    path: &Path,
    offset: u64,
    took: Duration,
    limit: Option<Duration>,
) -> TaskError {
    let limit = limit.unwrap_or_default();
    TaskError::permanent(
        "task",
        "deadline",
        format!(
            "{}@{offset}: the record took {took:.1?}, past the deadline of {limit:?} (task_deadline)",
            path.display()
        ),
    )
}

/// What a panic said, for a failure's reason.
pub fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    let said = panic
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| panic.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("(no message)");
    format!("panicked: {said}")
}

/// Runs blocking WARC work off the async threads.
async fn blocking<F>(work: F) -> Result<(), TaskError>
where
    F: FnOnce() -> Result<(), TaskError> + Send + 'static,
{
    tokio::task::spawn_blocking(work).await.unwrap_or_else(|e| {
        // A panic in the reader or the core: retrying will panic again.
        Err(TaskError::permanent("warc", "panic", e))
    })
}

/// When a task must be done, and the configured limit it came from.
#[derive(Debug, Clone, Copy)]
struct Deadline {
    at: Instant,
    limit: Duration,
}

impl Deadline {
    fn check(self) -> Result<(), TaskError> {
        if Instant::now() >= self.at {
            Err(deadline_error(self.limit))
        } else {
            Ok(())
        }
    }
}

/// The task outlived `LINESIFT_TASK_DEADLINE`: transient, like a timeout.
fn deadline_error(limit: Duration) -> TaskError {
    TaskError::Transient {
        stage: "task",
        kind: "deadline".into(),
        reason: format!("task exceeded the deadline of {limit:?} (task_deadline)"),
    }
}

fn fetch_error(e: FetchError) -> TaskError {
    let kind = e.kind().to_string();
    if e.is_transient() {
        TaskError::Transient {
            stage: "fetch",
            kind,
            reason: e.to_string(),
        }
    } else {
        TaskError::permanent("fetch", kind, e)
    }
}

/// A failure event for one record of a WARC file task; `url` is the
/// record's `WARC-Target-URI` when it is known (empty when not), without
/// credentials, as a URL task's events carry the task's.
fn record_failure(
    task_id: &str,
    stage: &str,
    kind: &str,
    reason: &str,
    record_id: &str,
    url: &str,
) -> Failure {
    Failure {
        task_id: task_id.to_string(),
        url: crate::fetch::error::page_without_credentials(url),
        stage: stage.to_string(),
        kind: kind.to_string(),
        reason: reason.to_string(),
        warc_record_id: record_id.to_string(),
        ..Failure::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::proto::RecordSpan;
    use crate::warc::SkipReason;
    use crate::warc::driver::page_error_kind;

    /// One of each `FetchError` variant, permanent where it can be.
    fn fetch_errors() -> Vec<FetchError> {
        let url = || "http://example.org/".to_string();
        let message = || "m".to_string();
        vec![
            FetchError::InvalidUrl {
                url: url(),
                reason: message(),
            },
            FetchError::Dns {
                url: url(),
                host: "example.org".into(),
                message: message(),
                temporary: false,
            },
            FetchError::Dns {
                url: url(),
                host: "example.org".into(),
                message: message(),
                temporary: true,
            },
            FetchError::RefusedAddress {
                url: url(),
                addr: std::net::Ipv4Addr::LOCALHOST.into(),
                reason: "loopback",
            },
            FetchError::Connect {
                url: url(),
                message: message(),
            },
            FetchError::Tls {
                url: url(),
                message: message(),
            },
            FetchError::Timeout {
                url: url(),
                message: message(),
            },
            FetchError::Status {
                url: url(),
                status: 404,
                retry_after: None,
            },
            FetchError::Status {
                url: url(),
                status: 500,
                retry_after: None,
            },
            FetchError::Status {
                url: url(),
                status: 503,
                retry_after: None,
            },
            FetchError::TooLarge {
                url: url(),
                limit: 1,
            },
            FetchError::Robots {
                url: url(),
                reason: "disallowed",
                temporary: false,
            },
            FetchError::Robots {
                url: url(),
                reason: "unreachable",
                temporary: true,
            },
            FetchError::NotHtml {
                url: url(),
                content_type: "image/png".into(),
            },
            FetchError::TooManyRedirects {
                url: url(),
                limit: 10,
            },
            FetchError::RedirectLoop { url: url() },
            FetchError::Http {
                url: url(),
                message: message(),
            },
            FetchError::Extract {
                url: url(),
                source: crate::ExtractError::Binary {
                    control: 1,
                    sniffed: 1,
                },
            },
            FetchError::HostBusy {
                url: url(),
                host: "example.org".into(),
                wait: Duration::from_secs(1),
            },
            FetchError::Local {
                url: url(),
                message: message(),
            },
            FetchError::Client(message()),
        ]
    }

    /// Every fetch failure, classified: an outcome is permanent and about
    /// the page; a transient failure is never an outcome (it is retried,
    /// and a fault once its deliveries are used up). The match has no
    /// catch-all, so a new variant must be placed here too.
    #[test]
    fn fetch_failures_are_outcomes_or_faults_as_documented() {
        for e in fetch_errors() {
            let expected = match &e {
                FetchError::Status { status, .. } => !matches!(status, 429 | 502 | 503 | 504),
                FetchError::Dns { temporary, .. } | FetchError::Robots { temporary, .. } => {
                    !temporary
                }
                FetchError::NotHtml { .. }
                | FetchError::RefusedAddress { .. }
                | FetchError::Tls { .. }
                | FetchError::TooLarge { .. }
                | FetchError::TooManyRedirects { .. }
                | FetchError::RedirectLoop { .. }
                | FetchError::Http { .. }
                | FetchError::Extract { .. } => true,
                FetchError::InvalidUrl { .. }
                | FetchError::Client(_)
                | FetchError::Local { .. }
                | FetchError::Connect { .. }
                | FetchError::Timeout { .. }
                | FetchError::HostBusy { .. } => false,
            };
            let described = e.to_string();
            let error = fetch_error(e);
            assert_eq!(error.is_outcome(), expected, "{described} as {error:?}");
        }
    }

    /// A record task's page that is no HTML page, or that the core
    /// refuses, is an outcome; a file that cannot be opened, a record that
    /// cannot be read, a malformed task and a panic are faults, and so is
    /// a kind nobody has classified, and a transient failure.
    #[test]
    fn warc_and_other_failures_are_classified_with_faults_by_default() {
        let permanent = |stage, kind: &str| TaskError::permanent(stage, kind, "r");
        // The kinds a record task gives a page that made no document.
        for page in [
            PageError::Skip(SkipReason::NotHttp),
            PageError::Payload(WarcError::BadPayload("x".into())),
            PageError::Extract(crate::ExtractError::Binary {
                control: 1,
                sniffed: 1,
            }),
        ] {
            let kind = page_error_kind(&page);
            assert!(permanent("extract", kind).is_outcome(), "extract/{kind}");
        }
        assert!(permanent("warc", "skipped").is_outcome());
        for (stage, kind) in [
            ("warc", "open"),
            ("warc", "format"),
            ("warc", "read"),
            ("warc", "bad_record"),
            ("warc", "panic"),
            ("decode", "no_source"),
            ("fetch", "something_new"),
            ("extract", "http_status"),
        ] {
            assert!(!permanent(stage, kind).is_outcome(), "{stage}/{kind}");
        }
        let transient = TaskError::Transient {
            stage: "fetch",
            kind: "http_status".into(),
            reason: "HTTP 503".into(),
        };
        assert!(!transient.is_outcome());
        assert!(
            !TaskError::Deferred {
                reason: "busy".into()
            }
            .is_outcome()
        );
    }

    /// An offset where no record starts (a stale index line) is reported
    /// as `bad_record`, as it was before the offset was checked, not as
    /// `read`: the same kind for the same fault on dashboards. A fault.
    #[test]
    fn an_offset_that_is_no_record_start_is_a_bad_record() {
        let stale = WarcError::NoRecordAt {
            offset: 7,
            what: "no gzip member, zstd frame or WARC/ record begins there",
        };
        let error = TaskError::warc_read(&stale, "f.warc@7: stale".into());
        assert!(
            matches!(error, TaskError::Permanent { stage: "warc", ref kind, .. } if kind == "bad_record"),
            "{error:?}"
        );
        assert!(!error.is_outcome());
    }

    /// The class the kinds table gives a task error.
    fn class_of(error: &TaskError) -> kinds::Class {
        match error {
            TaskError::Transient { .. } => kinds::Class::Transient,
            e if e.is_outcome() => kinds::Class::Outcome,
            _ => kinds::Class::Fault,
        }
    }

    fn listed(error: &TaskError) -> bool {
        let (stage, kind, _) = error.parts();
        let class = class_of(error);
        kinds::FAILURE_KINDS
            .iter()
            .any(|k| (k.stage, k.kind, k.class) == (stage, kind, class))
    }

    /// Every failure the fetcher, the WARC reader and opening a file give
    /// a task is in the kinds table (docs/worker.md's) with the class the
    /// worker treats it as; and every fetch row of the table is one some
    /// fetch failure gives.
    #[test]
    fn the_kinds_table_lists_every_failure_as_it_is_treated() {
        let mut made: Vec<TaskError> = fetch_errors()
            .into_iter()
            // Not a task's end: the task is put aside (`Deferred`).
            .filter(|e| !matches!(e, FetchError::HostBusy { .. }))
            .map(fetch_error)
            .collect();
        let reading = [
            WarcError::io(7, std::io::Error::other("EIO")),
            WarcError::truncated(7, "a record"),
            WarcError::Container(ContainerError::MemberTooLarge {
                format: "gzip",
                offset: 7,
                limit: 1,
            }),
            WarcError::NoRecordAt {
                offset: 7,
                what: "nothing",
            },
        ];
        made.extend(reading.iter().map(|e| TaskError::warc_read(e, "r".into())));
        made.push(open_warc(Path::new("/nonexistent/linesift.warc")).unwrap_err());
        for page in [
            PageError::Skip(SkipReason::NotHttp),
            PageError::Payload(WarcError::BadPayload("x".into())),
            PageError::Extract(crate::ExtractError::Binary {
                control: 1,
                sniffed: 1,
            }),
        ] {
            made.push(TaskError::permanent("extract", page_error_kind(&page), "r"));
        }
        made.push(deadline_error(Duration::from_secs(1)));
        for error in &made {
            assert!(
                listed(error),
                "{error:?} ({:?}) is not in the table",
                class_of(error)
            );
        }
        for row in kinds::FAILURE_KINDS.iter().filter(|k| k.stage == "fetch") {
            let given = made.iter().any(|e| {
                let (stage, kind, _) = e.parts();
                (stage, kind, class_of(e)) == (row.stage, row.kind, row.class)
            });
            assert!(given, "no fetch failure is {row:?}");
        }
    }

    /// A WARC file that does not exist, or a directory, is a fault at once
    /// (`open`), for a record task as for a file task: it is not retried
    /// as a transient I/O error.
    #[test]
    fn a_missing_warc_file_is_a_fault_at_once() {
        let dir = std::env::temp_dir();
        for path in [Path::new("/nonexistent/linesift/a.warc.gz"), dir.as_path()] {
            let error = open_warc(path).unwrap_err();
            assert!(
                matches!(error, TaskError::Permanent { stage: "warc", ref kind, .. } if kind == "open"),
                "{}: {error:?}",
                path.display()
            );
            assert!(!error.is_outcome());
            assert!(
                error.to_string().contains(&path.display().to_string()),
                "{error}"
            );
        }
    }

    /// A WARC file of `n` HTML responses, and each record's span.
    fn warc_of_pages(name: &str, n: usize) -> (std::path::PathBuf, Vec<RecordSpan>) {
        let (mut bytes, mut spans) = (Vec::new(), Vec::new());
        for i in 0..n {
            let body = format!(
                "<html><head><title>Story {i}</title></head><body><article><h1>Story {i}</h1>\
                 <p>{}</p></article></body></html>",
                "A sentence of the story that goes on for a while. ".repeat(20)
            );
            let http =
                format!("HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n\r\n{body}");
            let record = format!(
                "WARC/1.0\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:{i:08}>\r\n\
                 WARC-Target-URI: http://example.org/{i}\r\nWARC-Date: 2024-01-01T00:00:00Z\r\n\
                 Content-Type: application/http; msgtype=response\r\nContent-Length: {}\r\n\r\n\
                 {http}\r\n\r\n",
                http.len()
            );
            spans.push(RecordSpan {
                offset: bytes.len() as u64,
                length: record.len() as u64,
            });
            bytes.extend_from_slice(record.as_bytes());
        }
        let path =
            std::env::temp_dir().join(format!("linesift-{name}-{}.warc", std::process::id()));
        std::fs::write(&path, bytes).expect("write a WARC");
        (path, spans)
    }

    /// The outputs of a batch's records, read with a per-record `limit`.
    fn outputs_of(batch: crate::proto::WarcRecords, limit: Option<Duration>) -> Vec<Output> {
        let extractor = Extractor::new(crate::Options::default());
        let fetcher = Fetcher::new(extractor.clone(), crate::fetch::FetchOptions::default())
            .expect("a fetcher");
        let metrics = Metrics::new().expect("metrics");
        let reader = ReaderOptions {
            max_payload: 1 << 20,
            max_member: 1 << 30,
        };
        let processor = Processor::new(fetcher, extractor, reader, metrics);
        let (tx, mut rx) = mpsc::channel(16);
        processor
            .warc_records("t", &batch, &tx, Records::Batch { limit })
            .expect("the batch runs");
        drop(tx);
        std::iter::from_fn(|| rx.try_recv().ok()).collect()
    }

    /// The task deadline holds for each record of a batch on its own: a
    /// record past it is reported as that record's failure (`task`/
    /// `deadline`, not fatal), and the next record is held to its own.
    /// Without a deadline the same records give their documents.
    #[test]
    fn each_record_of_a_batch_is_held_to_the_deadline_on_its_own() {
        let (path, spans) = warc_of_pages("deadline", 3);
        let batch = crate::proto::WarcRecords {
            path: path.display().to_string(),
            records: spans,
        };
        let late = outputs_of(batch.clone(), Some(Duration::from_nanos(1)));
        assert_eq!(late.len(), 3);
        for output in &late {
            let Output::Failure(f) = output else {
                panic!("{output:?}")
            };
            assert_eq!(
                (f.stage.as_str(), f.kind.as_str(), f.fatal),
                ("task", "deadline", false)
            );
            assert!(f.reason.contains("task_deadline"), "{f:?}");
        }
        let done = outputs_of(batch, None);
        assert_eq!(done.len(), 3);
        assert!(
            done.iter().all(|o| matches!(o, Output::Document(..))),
            "{done:?}"
        );
        let _ = std::fs::remove_file(path);
    }

    /// Reading the file failing may not recur: the task goes round again.
    /// What the bytes hold does not change: that stays permanent.
    #[test]
    fn a_warc_io_error_is_transient_and_bad_bytes_permanent() {
        let io = WarcError::io(7, std::io::Error::other("EIO"));
        assert!(matches!(
            TaskError::warc_read(&io, "f.warc: io".into()),
            TaskError::Transient { stage: "warc", ref kind, .. } if kind == "io"
        ));
        let cut = WarcError::truncated(7, "a record");
        assert!(matches!(
            TaskError::warc_read(&cut, "f.warc: cut".into()),
            TaskError::Permanent { stage: "warc", ref kind, .. } if kind == "read"
        ));
        // A record whose member is a bomb is the answer about that record
        // (as a WARC file task reports it: `too_large`), not a damaged
        // archive to look at.
        let bomb = WarcError::Container(ContainerError::MemberTooLarge {
            format: "gzip",
            offset: 7,
            limit: 1 << 20,
        });
        let error = TaskError::warc_read(&bomb, "f.warc.gz: bomb".into());
        assert!(
            matches!(error, TaskError::Permanent { stage: "warc", ref kind, .. } if kind == "too_large")
        );
        assert!(error.is_outcome());
    }
}
