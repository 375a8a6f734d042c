//! Producing tasks: parse task lines (URLs, WARC file paths, or
//! `path offset length` records) and publish them to the task queue with
//! publisher confirms. Declares the topology first so that tasks are never
//! published into a queue that does not exist yet (they would be dropped).
//! A list streamed in stops where the broker refuses a task or the
//! connection drops, or when it is interrupted, and says how far it got.

use super::publish::{self, PublishError, Publisher};
use super::topology::{self, Names};
use crate::proto::{Encoding, Task, WarcFile, WarcRecord, task};
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

/// Where tasks go: the broker, the topology (declared first, with the
/// workers' delivery limit) and the encoding.
#[derive(Debug, Clone, Copy)]
pub struct Queue<'a> {
    pub amqp_url: &'a str,
    pub names: &'a Names,
    pub delivery_limit: u32,
    pub encoding: Encoding,
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
/// any length. The first `skip` lines are passed over (to resume a
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
    kind: LineKind,
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
    // Some task of the last window was not confirmed in time.
    let mut unconfirmed = false;
    // When the confirms of an interrupted run stop being waited for.
    let mut interrupted: Option<Instant> = None;
    while !ended && interrupted.is_none() {
        let mut pending = Vec::with_capacity(WINDOW);
        // The lines read whose fate is settled once `pending` is
        // confirmed: all read, less one whose publish was interrupted.
        let mut read_to = number;
        while pending.len() < WINDOW {
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
                read_to = number;
                continue;
            }
            let task = match read {
                Line::Whole => task_of_line(&line, kind, number),
                Line::TooLong => Err(LineError {
                    line: number,
                    reason: format!("longer than {MAX_LINE} bytes"),
                }),
            };
            match task {
                Ok(Some(t)) => {
                    let published = tokio::select! {
                        published = publisher.message("", &names.tasks, &t, &t.id) => published,
                        () = &mut interrupt => {
                            interrupted = Some(Instant::now() + INTERRUPTED_CONFIRM_WAIT);
                            break;
                        }
                    };
                    pending.push((number, published.map_err(|e| stop(progress)(e.into()))?));
                }
                Ok(None) => {}
                Err(e) => bad(e),
            }
            read_to = number;
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
