//! Command-line interface: argument definitions and dispatch to one module
//! per subcommand.

mod enqueue;
mod eval;
mod explain;
mod extract;
mod interrupt;
mod options;
mod progress;
mod run;
mod warc;
mod worker;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Line-based main-content extraction for crawl pipelines.
#[derive(Debug, Parser)]
#[command(name = "linesift", version = env!("LINESIFT_VERSION"), about)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Extract main content and headline from HTML files or stdin.
    Extract(extract::Args),
    /// Extract main content from WARC files into JSONL or WET.
    Warc(warc::Args),
    /// Score extraction against a manifest's gold text (as score.py does).
    Eval(eval::Args),
    /// Chart one page's line counts, diff and regions (SVG or HTML).
    Explain(explain::Args),
    /// Consume tasks from RabbitMQ and publish documents downstream.
    Worker(worker::Args),
    /// Publish tasks (URLs, WARC files or records) to the task queue.
    Enqueue(enqueue::Args),
    /// Run tasks (URLs, WARC files or records) in one process, no broker:
    /// documents and failures to files, resumable.
    Run(run::Args),
}

/// Runs the chosen subcommand; the exit code says whether any input failed.
pub fn run(cli: Cli) -> anyhow::Result<ExitCode> {
    match cli.command {
        Command::Extract(args) => extract::run(args),
        Command::Eval(args) => eval::run(args),
        Command::Explain(args) => explain::run(args),
        Command::Warc(args) => warc::run(args),
        Command::Worker(args) => worker::run(args),
        Command::Enqueue(args) => enqueue::run(args),
        Command::Run(args) => run::run(args),
    }
}
