//! `linesift enqueue`: publish tasks from a list (URLs, WARC files, or
//! `path offset length` WARC records; `-` reads stdin; gzip told by its
//! bytes) to the task queue, with publisher confirms, streaming the list.
//! Prints how many were confirmed; bad lines are reported by number and skipped, and counted
//! at the end however the run ends (exit 1); a run the broker stops (a
//! refusal, a dropped connection) says how far it got and how to resume
//! (`--skip`, exit 2); so does one stopped by Ctrl-C (which says at once
//! that it waits), once the tasks it published are confirmed or 10 s have
//! passed, and then dies by SIGINT as it would uncaught (a shell reports
//! 130 and a loop running it stops; exit 0 if the list had been read to
//! its end and all of it was confirmed after all). A second Ctrl-C during
//! that wait ends the run at once (by SIGINT too), saying how far the
//! list is known to have got.

use super::worker::QueueArgs;
use anyhow::Context;
use clap::builder::TypedValueParser;
use linesift::worker::cdx::{IndexOptions, IndexParser};
use linesift::worker::enqueue::{self, EnqueueError, LineKind, LineParser, Progress, Stopped};
use std::cell::Cell;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use tokio::io::{AsyncRead, BufReader};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The list: one task per line (`-` for stdin).
    // A path: a file name need not be UTF-8.
    list: PathBuf,
    /// What the lines are.
    #[arg(long, value_enum, default_value = "urls")]
    kind: Kind,
    /// Records of one WARC file a task (`--kind warc-records`):
    /// consecutive lines naming the same file go in one task, up to N (1:
    /// a task a record). Documents are still published one message each.
    #[arg(long, value_name = "N", default_value_t = enqueue::DEFAULT_BATCH,
          value_parser = clap::value_parser!(u16).range(1..).map(usize::from))]
    batch: usize,
    /// Pass over the first N lines (to resume a run that stopped: its
    /// message says N).
    #[arg(long, value_name = "N", default_value_t = 0)]
    skip: usize,
    #[command(flatten)]
    index: super::index::IndexArgs,
    #[command(flatten)]
    queue: QueueArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Kind {
    /// http(s) URLs to fetch.
    Urls,
    /// WARC file paths (every HTML record becomes a document).
    WarcFiles,
    /// `path offset [length]` lines (one WARC record each).
    WarcRecords,
    /// Common Crawl's index: CDXJ or JSON lines, or a CSV/TSV export of
    /// the columnar index with its header (one WARC record each; see
    /// --warc-prefix, --status, --mime).
    Cdx,
}

/// Bad lines reported one by one; past this many only counted.
const REPORTED: usize = 20;

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let options = args.index.options();
    if args.kind != Kind::Cdx && options != IndexOptions::default() {
        anyhow::bail!("--warc-prefix, --status and --mime read an index: they need --kind cdx");
    }
    let mut index = IndexParser::new(options);
    let kind: &mut dyn LineParser = match args.kind {
        Kind::Urls => &mut LineKind::Urls,
        Kind::WarcFiles => &mut LineKind::WarcFiles,
        Kind::WarcRecords => &mut LineKind::WarcRecords,
        Kind::Cdx => &mut index,
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    let names = args.queue.names();
    let amqp_url = args.queue.amqp_url()?;
    let list = args.list.as_path();
    // The list as messages name it.
    let shown = super::printable_path(list);
    let shown = shown.as_str();
    // Counted as they are reported, not as their windows are confirmed:
    // a run a refusal or Ctrl-C stops counts those of its last window too.
    let reported = Cell::new(0);
    let bad = |e: enqueue::LineError| {
        reported.set(reported.get() + 1);
        if reported.get() <= REPORTED {
            say!("linesift enqueue: {shown}: {e} (skipped)");
        }
    };
    // A gzip list (Common Crawl's `cdx-NNNNN.gz`) is told by its bytes.
    let gzip = super::list::is_gzip(list).with_context(|| format!("reading {shown}"))?;
    // Read as the tasks go out, a window at a time: a list of any length
    // in little memory.
    let outcome = runtime.block_on(async {
        let input: Box<dyn AsyncRead + Unpin> = if gzip {
            Box::new(super::list::gunzipped(list).with_context(|| format!("reading {shown}"))?)
        } else if list == Path::new("-") {
            Box::new(tokio::io::stdin())
        } else {
            Box::new(
                tokio::fs::File::open(list)
                    .await
                    .with_context(|| format!("reading {shown}"))?,
            )
        };
        let queue = enqueue::Queue {
            amqp_url: &amqp_url,
            names: &names,
            delivery_limit: args.queue.delivery_limit,
            encoding: args.queue.encoding(),
            batch: args.batch,
        };
        // Ctrl-C stops the run where it can resume; a second one ends it
        // at once. If the handler cannot be installed, only the default
        // (death) is lost.
        let (count, presses) = tokio::sync::watch::channel(0u32);
        let pressed = |n: u32| {
            let mut presses = presses.clone();
            async move {
                if presses.wait_for(|seen| *seen >= n).await.is_err() {
                    std::future::pending::<()>().await;
                }
            }
        };
        // How far the list is known to have got, for a second Ctrl-C.
        let known = Cell::new(Progress {
            lines: args.skip,
            ..Progress::default()
        });
        // Said at once: the wait for the confirms may take all its 10 s.
        // (Worded for every moment a press may come: while connecting,
        // no task is published yet and the run stops at once.)
        let interrupted = async {
            pressed(1).await;
            say!(
                "linesift enqueue: {shown}: interrupted: stopping after the confirms of the tasks \
                 already published ({} s at most); Ctrl-C again stops at once",
                enqueue::INTERRUPTED_CONFIRM_WAIT.as_secs()
            );
        };
        let run = enqueue::enqueue_lines(
            &queue,
            BufReader::with_capacity(1 << 16, input),
            kind,
            args.skip,
            bad,
            interrupted,
            |progress| known.set(progress),
        );
        tokio::select! {
            outcome = run => anyhow::Ok(outcome),
            () = pressed(2) => {
                let stopped = Stopped {
                    progress: known.get(),
                    source: EnqueueError::InterruptedAgain,
                };
                die_interrupted(shown, reported.get(), stopped);
            }
            never = count_presses(count) => match never {},
        }
    });
    // Not waiting for stdin's reader thread, blocked in a read that an
    // interrupted run abandoned (it would hold the process until the
    // writer closed the pipe).
    runtime.shutdown_background();
    let progress = match outcome? {
        Ok(progress) => progress,
        Err(stopped)
            if matches!(
                stopped.source,
                EnqueueError::Interrupted | EnqueueError::InterruptedAgain
            ) =>
        {
            die_interrupted(shown, reported.get(), stopped)
        }
        // Refused, or the connection dropped: main prints it.
        Err(stopped) => {
            say_skipped(shown, reported.get());
            return Err(anyhow::Error::new(stopped).context(shown.to_string()));
        }
    };
    say!(
        "linesift enqueue: {} task(s) confirmed on {}",
        progress.confirmed,
        names.tasks
    );
    say_skipped(shown, reported.get());
    // Nothing sent and nothing wrong: an empty list, or a --skip past its
    // end. Said, as `run` says it, lest it pass for a job enqueued.
    if progress.confirmed == 0 && reported.get() == 0 {
        match args.skip {
            0 => say!("linesift enqueue: warning: {shown} holds no task"),
            n => say!("linesift enqueue: warning: {shown} holds no task past --skip {n}"),
        }
    }
    if index.filtered > 0 {
        say!(
            "linesift enqueue: {shown}: {} index entries passed over (not of --status/--mime)",
            index.filtered
        );
    }
    Ok(match reported.get() {
        0 => ExitCode::SUCCESS,
        _ => ExitCode::from(1),
    })
}

/// How many bad lines of `list` (as messages name it) were reported, if
/// any.
fn say_skipped(list: &str, bad: usize) {
    if bad > 0 {
        say!("linesift enqueue: {list}: {bad} bad line(s) skipped");
    }
}

/// Ends a run stopped by Ctrl-C (`list` as messages name it): the bad
/// lines it reported, the line a dropped connection prints (with its
/// cause), then death by SIGINT.
fn die_interrupted(list: &str, bad: usize, stopped: Stopped) -> ! {
    say_skipped(list, bad);
    let stopped = anyhow::Error::new(stopped).context(list.to_string());
    say!("linesift: {}", super::error_chain(&stopped));
    super::interrupt::die_by_interrupt();
}

/// Counts Ctrl-C presses on `count`; never returns (pending for good if
/// the handler cannot be installed).
async fn count_presses(count: tokio::sync::watch::Sender<u32>) -> std::convert::Infallible {
    // Started with SIGINT ignored (`nohup`, a background job of a script):
    // it stays ignored, as `linesift warc` leaves it.
    if super::interrupt::sigint_ignored() {
        return std::future::pending().await;
    }
    // One stream for the whole run, so a press is counted whenever it
    // comes. A `ctrl_c()` made anew after each press completes only on a
    // press after its first poll: one that tokio delivered in between
    // would be lost (not fatal: the handler stays). Made in the same poll
    // as the last one completed, on the one thread whose runtime delivers
    // signals, none could be; but that is how tokio works, not a promise.
    #[cfg(unix)]
    let presses = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::interrupt());
    #[cfg(not(unix))]
    let presses = tokio::signal::windows::ctrl_c();
    let Ok(mut presses) = presses else {
        return std::future::pending().await;
    };
    while presses.recv().await.is_some() {
        count.send_modify(|n| *n += 1);
    }
    // The stream ended (it does not, while the process lives): no more
    // presses to count, and none made up.
    std::future::pending().await
}
