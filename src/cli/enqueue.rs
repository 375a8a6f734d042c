//! `linesift enqueue`: publish tasks from a list (URLs, WARC files, or
//! `path offset length` WARC records; `-` reads stdin) to the task queue,
//! with publisher confirms. Prints how many were confirmed.

use super::worker::QueueArgs;
use anyhow::Context;
use linesift::worker::enqueue::{self, LineKind};
use std::io::Read;
use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The list: one task per line (`-` for stdin).
    list: String,
    /// What the lines are.
    #[arg(long, value_enum, default_value = "urls")]
    kind: Kind,
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

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let text = if args.list == "-" {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .context("reading stdin")?;
        text
    } else {
        std::fs::read_to_string(&args.list).with_context(|| format!("reading {}", args.list))?
    };
    let kind = match args.kind {
        Kind::Urls => LineKind::Urls,
        Kind::WarcFiles => LineKind::WarcFiles,
        Kind::WarcRecords => LineKind::WarcRecords,
    };
    let tasks = enqueue::parse_tasks(&text, kind).with_context(|| args.list.clone())?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    let names = args.queue.names();
    let sent = runtime.block_on(enqueue::enqueue(
        &args.queue.amqp_url,
        &names,
        args.queue.delivery_limit,
        &tasks,
        args.queue.encoding(),
    ))?;
    eprintln!(
        "linesift enqueue: {sent} task(s) confirmed on {}",
        names.tasks
    );
    Ok(ExitCode::SUCCESS)
}
