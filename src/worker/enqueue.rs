//! Producing tasks: parse task lines (URLs, WARC file paths, or
//! `path offset length` records) and publish them to the task queue with
//! publisher confirms. Declares the topology first so that tasks are never
//! published into a queue that does not exist yet (they would be dropped).
//! A list streamed in stops where the broker refuses a task or the
//! connection drops, or when it is interrupted, and says how far it got.

use super::publish::{self, PublishError, Publisher};
use super::topology::{self, Names};
use crate::proto::{Encoding, RecordSpan, Task, WarcFile, WarcRecord, WarcRecords, task};
use futures_util::FutureExt;
use lapin::{Connection, ConnectionProperties};
use std::future::Future;
use std::time::Duration;
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncReadExt};
use tokio::time::Instant;

/// What the lines of an input list are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineKind {
    Urls,
    WarcFiles,
    /// `path offset [length]`, whitespace separated.
    WarcRecords,
}

/// What turns a list's lines into tasks: a [`LineKind`] (each line on
/// its own), or a parser with state (an index export's header, see
/// `cdx`).
pub trait LineParser {
    /// The task on line `number`; `None` for a line that is none (blank,
    /// a comment, a header).
    fn task(&mut self, line: &[u8], number: usize) -> Result<Option<Task>, LineError>;

    /// Told of a line passed over unread (`--skip`).
    fn skipped(&mut self, _line: &[u8]) {}
}

impl LineParser for LineKind {
    fn task(&mut self, line: &[u8], number: usize) -> Result<Option<Task>, LineError> {
        task_of_line(line, *self, number)
    }
}

impl<T: LineParser + ?Sized> LineParser for &mut T {
    fn task(&mut self, line: &[u8], number: usize) -> Result<Option<Task>, LineError> {
        (**self).task(line, number)
    }

    fn skipped(&mut self, line: &[u8]) {
        (**self).skipped(line);
    }
}

/// A line that is not a task.
#[derive(Debug, thiserror::Error)]
#[error("line {line}: {reason}")]
pub struct LineError {
    pub line: usize,
    pub reason: String,
}

/// Tasks from the lines of a list; blank lines and `#` comments are
/// skipped. Task ids are BLAKE3 of the line, so enqueuing the same list
/// twice yields the same document ids (downstream dedupes them).
pub fn parse_tasks(text: &str, kind: LineKind) -> Result<Vec<Task>, LineError> {
    let mut tasks = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if let Some(task) = task_of_line(line.as_bytes(), kind, i + 1)? {
            tasks.push(task);
        }
    }
    Ok(tasks)
}

/// The task on line `number` of a list; `None` for a blank line or a `#`
/// comment.
pub fn task_of_line(line: &[u8], kind: LineKind, number: usize) -> Result<Option<Task>, LineError> {
    let error = |reason: String| LineError {
        line: number,
        reason,
    };
    let line = std::str::from_utf8(line).map_err(|e| error(format!("not UTF-8 ({e})")))?;
    // A byte-order mark opens lists saved by some editors: it is no part
    // of the first URL or path.
    let line = match number {
        1 => line.strip_prefix('\u{feff}').unwrap_or(line),
        _ => line,
    }
    .trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let source = parse_source(line, kind).map_err(error)?;
    Ok(Some(Task {
        id: blake3::hash(line.as_bytes()).to_hex()[..24].to_string(),
        source: Some(source),
        ..Task::default()
    }))
}

fn parse_source(line: &str, kind: LineKind) -> Result<task::Source, String> {
    match kind {
        // Checked here, not only by the worker: a list of file paths sent
        // without `--kind` would otherwise all be dead-lettered.
        LineKind::Urls => match url::Url::parse(line) {
            Ok(u) if matches!(u.scheme(), "http" | "https") => {
                Ok(task::Source::Url(line.to_string()))
            }
            Ok(u) => Err(format!("not an http(s) URL (scheme {})", u.scheme())),
            Err(e) => Err(format!("not a URL ({e}); is --kind right?")),
        },
        LineKind::WarcFiles => Ok(task::Source::WarcFile(WarcFile {
            path: line.to_string(),
        })),
        LineKind::WarcRecords => {
            let mut parts = line.split_whitespace();
            let path = parts.next().ok_or("missing path")?.to_string();
            let offset = parts
                .next()
                .ok_or("missing offset")?
                .parse()
                .map_err(|e| format!("bad offset: {e}"))?;
            let length = match parts.next() {
                Some(l) => l.parse().map_err(|e| format!("bad length: {e}"))?,
                None => 0,
            };
            Ok(task::Source::WarcRecord(WarcRecord {
                path,
                offset,
                length,
            }))
        }
    }
}

/// Record tasks gathered into batch tasks (`Task`'s `warc_records`):
/// consecutive record lines of the same WARC file, up to `size` records a
/// task. One message per batch rather than per record is most of what the
/// broker costs a record task. A batch of one record is a plain record
/// task (the id it has unbatched), and so is every task with `size` 1;
/// other tasks pass through. A batch's id is BLAKE3 of its records' own
/// ids (each BLAKE3 of its line), so the same list batched the same way
/// gives the same tasks, and the same document ids.
#[derive(Debug)]
pub struct Batcher {
    size: usize,
    open: Option<Batch>,
}

/// The batch being gathered.
#[derive(Debug)]
struct Batch {
    /// The first record's own task: what a batch of one is sent as.
    first: Task,
    path: String,
    spans: Vec<RecordSpan>,
    ids: blake3::Hasher,
    /// The list's line of its last record.
    last_line: usize,
    first_line: usize,
}

impl Batch {
    fn of(task: Task, record: &WarcRecord, line: usize) -> Self {
        let mut ids = blake3::Hasher::new();
        ids.update(task.id.as_bytes());
        Batch {
            path: record.path.clone(),
            spans: vec![span(record)],
            first: task,
            ids,
            last_line: line,
            first_line: line,
        }
    }

    /// The task to send, with its lines.
    fn ready(self) -> Ready {
        let lines = (self.first_line, self.last_line);
        if self.spans.len() == 1 {
            return Ready {
                task: self.first,
                lines,
            };
        }
        let task = Task {
            id: self.ids.finalize().to_hex()[..24].to_string(),
            source: Some(task::Source::WarcRecords(WarcRecords {
                path: self.path,
                records: self.spans,
            })),
            ..Task::default()
        };
        Ready { task, lines }
    }
}

/// A task ready to send, and the first and last lines of the list it
/// stands for.
#[derive(Debug)]
pub struct Ready {
    pub task: Task,
    pub lines: (usize, usize),
}

fn span(record: &WarcRecord) -> RecordSpan {
    RecordSpan {
        offset: record.offset,
        length: record.length,
    }
}

impl Batcher {
    /// Batches of up to `size` records (0 and 1: no batching).
    pub fn new(size: usize) -> Self {
        Batcher {
            size: size.max(1),
            open: None,
        }
    }

    /// Takes the task of line `number`; returns the tasks ready to send,
    /// in the list's order:
    /// the open batch when this task does not join it, and this task's
    /// batch when it is full (or this task, when it is no record task).
    pub fn add(&mut self, task: Task, number: usize) -> Vec<Ready> {
        let record = match &task.source {
            Some(task::Source::WarcRecord(r)) if self.size > 1 => r.clone(),
            _ => {
                let mut ready: Vec<_> = self.flush().into_iter().collect();
                ready.push(Ready {
                    task,
                    lines: (number, number),
                });
                return ready;
            }
        };
        let mut ready = Vec::new();
        match &mut self.open {
            Some(batch) if batch.path == record.path => {
                batch.ids.update(task.id.as_bytes());
                batch.spans.push(span(&record));
                batch.last_line = number;
            }
            _ => {
                ready.extend(self.flush());
                self.open = Some(Batch::of(task, &record, number));
            }
        }
        if self
            .open
            .as_ref()
            .is_some_and(|b| b.spans.len() >= self.size)
        {
            ready.extend(self.flush());
        }
        ready
    }

    /// The open batch, to send now (the list ended).
    pub fn flush(&mut self) -> Option<Ready> {
        self.open.take().map(Batch::ready)
    }

    /// The list's line of the open batch's first record: the lines from
    /// there on are not settled until it is sent.
    pub fn open_since(&self) -> Option<usize> {
        self.open.as_ref().map(|b| b.first_line)
    }
}

/// The default of `linesift enqueue --batch`: records of one WARC file a
/// task (see scripts/bench-worker.sh and docs/benchmarks.md).
pub const DEFAULT_BATCH: usize = 64;

/// Why tasks could not be enqueued.
#[derive(Debug, thiserror::Error)]
// The messages leave the cause out: it is the error's source, which
// `{:#}` prints after them (with `{0}` as well, each cause came twice).
pub enum EnqueueError {
    #[error("broker")]
    Amqp(#[from] lapin::Error),
    #[error(transparent)]
    Publish(#[from] PublishError),
    #[error("reading the list")]
    Read(#[from] std::io::Error),
    /// Stopped on request (Ctrl-C), after waiting for the confirms of the
    /// tasks already published.
    #[error("interrupted")]
    Interrupted,
    /// Stopped on a second request while the confirms were waited for:
    /// those still awaited may or may not have been taken.
    #[error(
        "interrupted again before the confirms still awaited came (whether the tasks \
         published after those lines were taken is unknown: resumed, they are published \
         again, with the same ids)"
    )]
    InterruptedAgain,
}

/// Tasks published and confirmed at once (a window): confirms pipelined,
/// memory bounded however long the list. A run stopped part way (a
/// dropped connection, a refusal) may have had the tasks of its last
/// window taken by the broker unconfirmed: resumed, it publishes them
/// again (the same task ids), at most this many.
pub const WINDOW: usize = 1000;

/// How long an interrupted run waits for the confirms of the tasks it has
/// published; those not confirmed by then count as not done.
pub const INTERRUPTED_CONFIRM_WAIT: Duration = Duration::from_secs(10);

/// Longest line read as a task; longer ones are skipped as bad lines
/// without being held whole (a list that is not one, say).
const MAX_LINE: usize = 64 * 1024;

/// Where tasks go and how: the broker, the topology (declared first, with
/// the workers' delivery limit), the encoding, and the records of one file
/// a task ([`Batcher`]; 1: none).
#[derive(Debug, Clone, Copy)]
pub struct Queue<'a> {
    pub amqp_url: &'a str,
    pub names: &'a Names,
    pub delivery_limit: u32,
    pub encoding: Encoding,
    pub batch: usize,
}

/// How far a list got.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Progress {
    /// Tasks the broker confirmed.
    pub confirmed: usize,
    /// Lines of the list settled: each one's task confirmed, or the line
    /// skipped (blank, comment, bad). A stopped run resumes after them.
    pub lines: usize,
}

/// A list that stopped part way, and how far it is known to have got
/// (tasks published after that may have been taken too: resumed, they are
/// published again, with the same ids).
#[derive(Debug, thiserror::Error)]
#[error("{}", stopped_at(progress))]
pub struct Stopped {
    pub progress: Progress,
    #[source]
    pub source: EnqueueError,
}

/// How far a stopped list got, and how to resume it.
fn stopped_at(progress: &Progress) -> String {
    match progress.lines {
        0 => "nothing enqueued".to_string(),
        lines => format!(
            "stopped after {} task(s) confirmed: lines 1 to {lines} are done; resume with \
             --skip {lines}",
            progress.confirmed
        ),
    }
}

/// Streams a list into the task queue: one line at a time, published in
/// confirmed windows of [`WINDOW`], so memory stays small for lists of
/// any length. Record lines go in batches of up to `queue.batch` records
/// of one file a task ([`Batcher`]). The first `skip` lines are passed over (to resume a
/// stopped run). Bad lines go to `bad` (to count as well as report)
/// and are skipped.
///
/// When `interrupt` resolves (Ctrl-C), reading stops; the tasks already
/// published are waited for, at most [`INTERRUPTED_CONFIRM_WAIT`], and
/// the run ends as [`EnqueueError::Interrupted`] with how far it got, or,
/// when the list had been read to its end and every task of it confirmed
/// after all, as `Ok`: there is nothing left to resume.
///
/// `settled` is told how far the list is known to have got each time that
/// grows, so that a caller that gives up on the run (a second Ctrl-C)
/// can say so without waiting for it.
pub async fn enqueue_lines<R: AsyncBufRead + Unpin>(
    queue: &Queue<'_>,
    mut list: R,
    mut kind: impl LineParser,
    skip: usize,
    mut bad: impl FnMut(LineError),
    interrupt: impl Future<Output = ()>,
    mut settled: impl FnMut(Progress),
) -> Result<Progress, Stopped> {
    let names = queue.names;
    let mut progress = Progress {
        lines: skip,
        ..Progress::default()
    };
    let stop = |progress: Progress| {
        move |e: EnqueueError| Stopped {
            progress,
            source: e,
        }
    };
    // Fused: once it has fired it is never polled again, but a `select!`
    // that still lists it must find it pending, not finished.
    let mut interrupt = std::pin::pin!(interrupt.fuse());
    let opened = tokio::select! {
        opened = open(queue) => opened,
        () = &mut interrupt => return Err(stop(progress)(EnqueueError::Interrupted)),
    };
    let (connection, publisher) = opened.map_err(stop(progress))?;
    let (mut line, mut number, mut ended) = (Vec::new(), 0usize, false);
    let mut batcher = Batcher::new(queue.batch);
    // Some task of the last window was not confirmed in time.
    let mut unconfirmed = false;
    // When the confirms of an interrupted run stop being waited for.
    let mut interrupted: Option<Instant> = None;
    while !ended && interrupted.is_none() {
        let mut pending = Vec::with_capacity(WINDOW);
        // The lines read whose fate is settled once `pending` is
        // confirmed: all read, less one whose publish was interrupted.
        let mut read_to = number;
        'reading: while pending.len() < WINDOW {
            let read = tokio::select! {
                read = next_line(&mut list, &mut line) => read,
                () = &mut interrupt => {
                    interrupted = Some(Instant::now() + INTERRUPTED_CONFIRM_WAIT);
                    break;
                }
            };
            let Some(read) = read.map_err(|e| stop(progress)(e.into()))? else {
                ended = true;
                break;
            };
            number += 1;
            if number <= skip {
                kind.skipped(&line);
                read_to = number;
                continue;
            }
            let task = match read {
                Line::Whole => kind.task(&line, number),
                Line::TooLong => Err(LineError {
                    line: number,
                    reason: format!("longer than {MAX_LINE} bytes"),
                }),
            };
            let ready = match task {
                Ok(Some(t)) => batcher.add(t, number),
                Ok(None) => Vec::new(),
                Err(e) => {
                    bad(e);
                    Vec::new()
                }
            };
            for Ready { task: t, lines } in ready {
                let Some(published) = publish_unless(&publisher, names, &t, &mut interrupt).await
                else {
                    interrupted = Some(Instant::now() + INTERRUPTED_CONFIRM_WAIT);
                    // Its lines, and those after, are not settled.
                    read_to = read_to.min(lines.0 - 1);
                    break 'reading;
                };
                pending.push((lines.1, published.map_err(|e| stop(progress)(e.into()))?));
            }
            read_to = number;
        }
        // The list's last batch goes out at its end.
        if ended
            && interrupted.is_none()
            && let Some(Ready { task: t, lines }) = batcher.flush()
        {
            match publish_unless(&publisher, names, &t, &mut interrupt).await {
                Some(published) => {
                    pending.push((lines.1, published.map_err(|e| stop(progress)(e.into()))?));
                }
                None => {
                    interrupted = Some(Instant::now() + INTERRUPTED_CONFIRM_WAIT);
                    read_to = read_to.min(lines.0 - 1);
                }
            }
        }
        // Lines of a batch not sent yet are not settled.
        if let Some(first) = batcher.open_since() {
            read_to = read_to.min(first - 1);
        }
        // Confirms in order: a run stopped by a refusal (a full queue)
        // is done up to the last task confirmed before the first refused;
        // an interrupted one, up to the last confirmed in time.
        let mut refused = None;
        unconfirmed = false;
        for (at, p) in pending {
            let mut confirm = std::pin::pin!(p.confirmed());
            let confirmed = loop {
                if let Some(deadline) = interrupted {
                    break tokio::time::timeout_at(deadline, &mut confirm).await.ok();
                }
                tokio::select! {
                    confirmed = &mut confirm => break Some(confirmed),
                    () = &mut interrupt => {
                        interrupted = Some(Instant::now() + INTERRUPTED_CONFIRM_WAIT);
                    }
                }
            };
            match confirmed {
                Some(Ok(())) if refused.is_none() => {
                    progress.confirmed += 1;
                    progress.lines = at;
                    settled(progress);
                }
                Some(Ok(())) => {}
                Some(Err(e)) => {
                    refused.get_or_insert(e);
                }
                None => {
                    unconfirmed = true;
                    break;
                }
            }
        }
        if let Some(e) = refused {
            return Err(stop(progress)(e.into()));
        }
        if !unconfirmed {
            progress.lines = progress.lines.max(read_to);
            settled(progress);
        }
    }
    // Bounded as the confirms were: neither a finished list nor Ctrl-C
    // may hang on a broker that does not answer (the tasks are confirmed:
    // the close only tidies up).
    let closing = connection.close(200, "enqueued".into());
    let soonest = Instant::now() + CLOSE_WAIT;
    let close_by = interrupted.map_or(soonest, |deadline| deadline.max(soonest));
    let _ = tokio::time::timeout_at(close_by, closing).await;
    if interrupted.is_none() || (ended && !unconfirmed) {
        // Read to its end and all of it confirmed, though Ctrl-C came
        // while the last confirms were waited for: done.
        return Ok(progress);
    }
    Err(stop(progress)(EnqueueError::Interrupted))
}

/// Publishes a task to the task queue, unless `interrupt` resolves first
/// (`None`).
async fn publish_unless<I: Future<Output = ()> + Unpin>(
    publisher: &Publisher,
    names: &Names,
    task: &Task,
    interrupt: &mut I,
) -> Option<Result<publish::Pending, PublishError>> {
    tokio::select! {
        published = publisher.message("", &names.tasks, task, &task.id) => Some(published),
        () = interrupt => None,
    }
}

/// How long a run waits for the broker to close the connection once its
/// tasks are confirmed (at least, for an interrupted run whose confirms
/// used up their wait).
pub const CLOSE_WAIT: Duration = Duration::from_secs(1);

/// Connects, declares the topology (with the workers' delivery limit) and
/// opens a confirming publisher.
async fn open(queue: &Queue<'_>) -> Result<(Connection, Publisher), EnqueueError> {
    let connection = Connection::connect(queue.amqp_url, ConnectionProperties::default()).await?;
    topology::declare(&connection, queue.names, queue.delivery_limit).await?;
    let publisher = Publisher::open(&connection, queue.encoding).await?;
    Ok((connection, publisher))
}

/// What [`next_line`] read.
enum Line {
    Whole,
    /// Over [`MAX_LINE`]: read to its end, kept only in part.
    TooLong,
}

/// The next line of `list` into `line` (without its newline); `None` at the
/// end of the list.
async fn next_line<R: AsyncBufRead + Unpin>(
    list: &mut R,
    line: &mut Vec<u8>,
) -> std::io::Result<Option<Line>> {
    line.clear();
    let limit = (MAX_LINE + 1) as u64;
    if (&mut *list).take(limit).read_until(b'\n', line).await? == 0 {
        return Ok(None);
    }
    if line.last() == Some(&b'\n') {
        line.pop();
        return Ok(Some(Line::Whole));
    }
    if line.len() <= MAX_LINE {
        // The last line, without a newline.
        return Ok(Some(Line::Whole));
    }
    // Past the limit: the rest of the line is read and dropped in pieces.
    let mut rest = Vec::new();
    loop {
        rest.clear();
        let n = (&mut *list)
            .take(limit)
            .read_until(b'\n', &mut rest)
            .await?;
        if n == 0 || rest.last() == Some(&b'\n') {
            return Ok(Some(Line::TooLong));
        }
    }
}

/// Publishes `tasks` to the task queue (default exchange) and waits for
/// every confirm. `delivery_limit` must match the workers' (the queue is
/// declared with it).
pub async fn enqueue(
    amqp_url: &str,
    names: &Names,
    delivery_limit: u32,
    tasks: &[Task],
    encoding: Encoding,
) -> Result<usize, EnqueueError> {
    let (connection, publisher) = open(&Queue {
        amqp_url,
        names,
        delivery_limit,
        encoding,
        batch: 1,
    })
    .await?;
    // Confirm in windows: bounded memory for huge lists, still pipelined.
    for chunk in tasks.chunks(WINDOW) {
        let mut pending = Vec::with_capacity(chunk.len());
        for t in chunk {
            pending.push(publisher.message("", &names.tasks, t, &t.id).await?);
        }
        publish::confirm_all(pending).await?;
    }
    let closing = connection.close(200, "enqueued".into());
    let _ = tokio::time::timeout(CLOSE_WAIT, closing).await;
    Ok(tasks.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_three_kinds() -> Result<(), LineError> {
        let urls = parse_tasks("# c\nhttp://a/\n\nhttp://b/\n", LineKind::Urls)?;
        assert_eq!(urls.len(), 2);
        assert_ne!(urls[0].id, urls[1].id);
        let recs = parse_tasks("a.warc.gz 10 20\nb.warc 5", LineKind::WarcRecords)?;
        assert!(matches!(
            &recs[1].source,
            Some(task::Source::WarcRecord(WarcRecord {
                offset: 5,
                length: 0,
                ..
            }))
        ));
        assert!(parse_tasks("a.warc x", LineKind::WarcRecords).is_err());
        Ok(())
    }

    fn record(path: &str, offset: u64) -> Task {
        let line = format!("{path} {offset} 10");
        task_of_line(line.as_bytes(), LineKind::WarcRecords, 1)
            .expect("a record line")
            .expect("a task")
    }

    /// Consecutive records of one file go in a batch, up to its size; a
    /// new file or a full batch sends it; a record alone is sent as its
    /// own task; other tasks pass through, after the open batch.
    #[test]
    fn the_batcher_gathers_consecutive_records_of_one_file() {
        let mut batcher = Batcher::new(3);
        let mut sent = Vec::new();
        let tasks = [
            record("a", 0),
            record("a", 10),
            record("a", 20),
            record("a", 30),
            record("b", 0),
        ];
        for (i, t) in tasks.iter().enumerate() {
            sent.extend(batcher.add(t.clone(), i + 1));
        }
        assert_eq!(batcher.open_since(), Some(5));
        let url = task_of_line(b"http://a/", LineKind::Urls, 6)
            .unwrap()
            .unwrap();
        sent.extend(batcher.add(url.clone(), 6));
        assert_eq!(batcher.open_since(), None);
        assert!(batcher.flush().is_none());
        let lines: Vec<(usize, usize)> = sent.iter().map(|r| r.lines).collect();
        assert_eq!(lines, [(1, 3), (4, 4), (5, 5), (6, 6)]);
        let Some(task::Source::WarcRecords(batch)) = &sent[0].task.source else {
            panic!("{:?}", sent[0])
        };
        assert_eq!(batch.path, "a");
        let offsets: Vec<u64> = batch.records.iter().map(|r| r.offset).collect();
        assert_eq!(offsets, [0, 10, 20]);
        // Alone: the record's own task, the id it has unbatched.
        assert_eq!(sent[1].task, tasks[3]);
        assert_eq!(sent[2].task, tasks[4]);
        assert_eq!(sent[3].task, url);
    }

    /// The same records batched the same way are the same task (the same
    /// document ids when enqueued again); other records, another id.
    #[test]
    fn a_batch_id_is_a_function_of_its_records() {
        let batch_of = |offsets: &[u64]| {
            let mut batcher = Batcher::new(8);
            for (i, o) in offsets.iter().enumerate() {
                assert!(batcher.add(record("a", *o), i + 1).is_empty());
            }
            batcher.flush().expect("a batch").task
        };
        assert_eq!(batch_of(&[0, 10]), batch_of(&[0, 10]));
        assert_ne!(batch_of(&[0, 10]).id, batch_of(&[0, 20]).id);
        assert_ne!(batch_of(&[0, 10]).id, record("a", 0).id);
        // Unbatched, every record is its own task.
        let mut single = Batcher::new(1);
        assert_eq!(single.add(record("a", 0), 1)[0].task, record("a", 0));
        assert_eq!(single.open_since(), None);
    }

    /// A list saved with a byte-order mark: its first line is the same
    /// task as without one (the same URL, the same id).
    #[test]
    fn a_byte_order_mark_opens_no_task() -> Result<(), LineError> {
        let with_bom = parse_tasks("\u{feff}http://a/\n", LineKind::Urls)?;
        let without = parse_tasks("http://a/\n", LineKind::Urls)?;
        assert_eq!(with_bom, without);
        let files = parse_tasks("\u{feff}/data/a.warc.gz\n", LineKind::WarcFiles)?;
        assert!(matches!(
            &files[0].source,
            Some(task::Source::WarcFile(WarcFile { path })) if path == "/data/a.warc.gz"
        ));
        Ok(())
    }

    /// A list's bad lines say which line and why: not UTF-8 (a Latin-1
    /// byte in a seed list), no URL (a file path sent as `--kind urls`),
    /// a scheme the worker cannot fetch.
    #[test]
    fn bad_lines_are_named() {
        let bad = |line: &[u8]| {
            task_of_line(line, LineKind::Urls, 7)
                .map(|_| ())
                .unwrap_err()
        };
        let e = bad(b"http://caf\xe9.example/");
        assert_eq!(e.line, 7);
        assert!(e.reason.contains("UTF-8"), "{e}");
        assert!(bad(b"/data/a.warc.gz").reason.contains("--kind"));
        assert!(bad(b"ftp://a.example/x").reason.contains("ftp"));
        assert!(matches!(
            task_of_line(b"  # c", LineKind::Urls, 1),
            Ok(None)
        ));
    }

    /// Lines are read one at a time and a line over the limit is read to
    /// its end without being kept whole: the lines after it are intact.
    #[tokio::test]
    async fn next_line_reads_over_long_lines_to_their_end() {
        let mut list = b"a\n".to_vec();
        list.extend(std::iter::repeat_n(b'x', 3 * MAX_LINE + 5));
        list.extend(b"\nb\nc");
        let mut reader = tokio::io::BufReader::new(list.as_slice());
        let mut line = Vec::new();
        let mut seen = Vec::new();
        while let Some(read) = next_line(&mut reader, &mut line).await.expect("read") {
            seen.push(match read {
                Line::Whole => String::from_utf8_lossy(&line).into_owned(),
                Line::TooLong => "<long>".to_string(),
            });
        }
        assert_eq!(seen, ["a", "<long>", "b", "c"]);
    }
}
