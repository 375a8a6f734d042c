//! `linesift enqueue`: publish tasks from a list (URLs, WARC files, or
//! `path offset length` WARC records; `-` reads stdin) to the task queue,
//! with publisher confirms, streaming the list. Prints how many were
//! confirmed; bad lines are reported by number and skipped (exit 1); a run
//! the broker stops says how far it got and how to resume (`--skip`).

use super::worker::QueueArgs;
use anyhow::Context;
use linesift::worker::enqueue::{self, LineKind};
use std::process::ExitCode;
use tokio::io::{AsyncRead, BufReader};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The list: one task per line (`-` for stdin).
    list: String,
    /// What the lines are.
    #[arg(long, value_enum, default_value = "urls")]
    kind: Kind,
    /// Pass over the first N lines (to resume a run that stopped: its
    /// message says N).
    #[arg(long, value_name = "N", default_value_t = 0)]
    skip: usize,
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
}

/// Bad lines reported one by one; past this many only counted.
const REPORTED: usize = 20;

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let kind = match args.kind {
        Kind::Urls => LineKind::Urls,
        Kind::WarcFiles => LineKind::WarcFiles,
        Kind::WarcRecords => LineKind::WarcRecords,
    };
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    let names = args.queue.names();
    let amqp_url = args.queue.amqp_url()?;
    let list = args.list.as_str();
    let mut reported = 0;
    let bad = |e: enqueue::LineError| {
        reported += 1;
        if reported <= REPORTED {
            eprintln!("linesift enqueue: {list}: {e} (skipped)");
        }
    };
    // Read as the tasks go out, a window at a time: a list of any length
    // in little memory.
    let progress = runtime.block_on(async {
        let input: Box<dyn AsyncRead + Unpin> = if list == "-" {
            Box::new(tokio::io::stdin())
        } else {
            Box::new(
                tokio::fs::File::open(list)
                    .await
                    .with_context(|| format!("reading {list}"))?,
            )
        };
        let queue = enqueue::Queue {
            amqp_url: &amqp_url,
            names: &names,
            delivery_limit: args.queue.delivery_limit,
            encoding: args.queue.encoding(),
        };
        enqueue::enqueue_lines(
            &queue,
            BufReader::with_capacity(1 << 16, input),
            kind,
            args.skip,
            bad,
        )
        .await
        .with_context(|| list.to_string())
    })?;
    eprintln!(
        "linesift enqueue: {} task(s) confirmed on {}",
        progress.confirmed, names.tasks
    );
    if progress.skipped > 0 {
        eprintln!(
            "linesift enqueue: {list}: {} bad line(s) skipped",
            progress.skipped
        );
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}
