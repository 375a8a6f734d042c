//! Command-line interface: argument definitions and dispatch to one module
//! per subcommand.

/// Writes a line to stderr, as `eprintln!` does, but ignores a failed
/// write: when stderr's reader has gone (`linesift warc ... 2>&1 | head`),
/// a message must not end the run, where `eprintln!` would panic (exit 101).
macro_rules! say {
    ($($arg:tt)*) => {
        $crate::cli::say(format_args!($($arg)*))
    };
}

mod dedup;
mod enqueue;
mod eval;
mod explain;
mod extract;
mod index;
mod interrupt;
mod list;
mod options;
mod progress;
mod results;
mod run;
mod warc;
mod worker;

use clap::{Parser, Subcommand};
use std::borrow::Cow;
use std::io::Write;
use std::path::Path;
use std::process::ExitCode;

/// Line-based main-content extraction for crawl pipelines.
#[derive(Debug, Parser)]
#[command(name = "linesift", version = env!("LINESIFT_VERSION"), about)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

// Parsed once per process: the size of its largest variant costs nothing.
#[allow(clippy::large_enum_variant)]
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
    /// Read documents and failures from a results queue into JSON lines.
    Results(results::Args),
    /// Run tasks (URLs, WARC files or records) in one process, no broker:
    /// documents and failures to files, resumable.
    Run(run::Args),
    /// Drop exact and near duplicates from a JSONL stream of documents.
    Dedup(dedup::Args),
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
        Command::Results(args) => results::run(args),
        Command::Run(args) => run::run(args),
        Command::Dedup(args) => dedup::run(args),
    }
}

/// One line on stderr, a failed write ignored (see [`say!`]).
pub fn say(line: std::fmt::Arguments) {
    let _ = writeln!(std::io::stderr().lock(), "{line}");
}

/// A name (a file, a URL) as a message on stderr shows it: control
/// characters escaped as Rust writes them (`\n`, `\u{1b}`), so that the
/// message stays one line and a name cannot send the terminal a
/// sequence. JSON output escapes them itself and takes names as they are.
pub fn printable(name: &str) -> Cow<'_, str> {
    if !name.chars().any(char::is_control) {
        return Cow::Borrowed(name);
    }
    let mut shown = String::with_capacity(name.len() + 8);
    for c in name.chars() {
        match c.is_control() {
            true => shown.extend(c.escape_debug()),
            false => shown.push(c),
        }
    }
    Cow::Owned(shown)
}

/// A path as [`printable`] shows it (U+FFFD for a byte that is not UTF-8).
pub fn printable_path(path: &Path) -> String {
    printable(&path.to_string_lossy()).into_owned()
}

/// Whether two paths name one regular file: the same file when both
/// exist, else the same place once the folders are resolved (`./out`,
/// `dir/../out`, a symlinked folder). Stdin (`-`) and devices
/// (`/dev/null`) are no such file.
pub fn one_file(a: &Path, b: &Path) -> bool {
    if a == Path::new("-") || b == Path::new("-") {
        return false;
    }
    #[cfg(unix)]
    if let (Ok(x), Ok(y)) = (std::fs::metadata(a), std::fs::metadata(b)) {
        use std::os::unix::fs::MetadataExt;
        return x.is_file() && (x.dev(), x.ino()) == (y.dev(), y.ino());
    }
    let resolved = |p: &Path| {
        let full = std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
        match (full.parent(), full.file_name()) {
            (Some(dir), Some(name)) => dir.canonicalize().map_or(full.clone(), |d| d.join(name)),
            _ => full,
        }
    };
    resolved(a) == resolved(b)
}

/// An error and its causes on one line, `: ` between them, as anyhow's
/// `{:#}` prints them, but a cause whose message the one before already
/// ends with is not repeated: errors that name their source in their own
/// message (`{path}: {source}`) would otherwise print an OS error twice.
pub fn error_chain(err: &anyhow::Error) -> String {
    let mut line = String::new();
    let mut last = String::new();
    for cause in err.chain() {
        let message = cause.to_string();
        if !line.is_empty() && last.ends_with(&message) {
            continue;
        }
        if !line.is_empty() {
            line.push_str(": ");
        }
        line.push_str(&message);
        last = message;
    }
    line
}

#[cfg(test)]
mod tests {
    use super::{error_chain, printable};
    use std::io;

    #[test]
    fn a_printable_name_escapes_control_characters_only() {
        assert_eq!(printable("café/a b.html"), "café/a b.html");
        assert_eq!(
            printable("a\nb\t\u{1b}[31m\u{9b}.html"),
            "a\\nb\\t\\u{1b}[31m\\u{9b}.html"
        );
    }

    #[test]
    fn an_error_chain_names_each_cause_once() {
        #[derive(Debug, thiserror::Error)]
        #[error("{path}: {source}")]
        struct Named {
            path: String,
            source: io::Error,
        }
        let os = io::Error::new(io::ErrorKind::NotFound, "No such file or directory");
        let named = Named {
            path: "m.tsv".into(),
            source: os,
        };
        let err = anyhow::Error::new(named).context("reading the manifest");
        assert_eq!(
            error_chain(&err),
            "reading the manifest: m.tsv: No such file or directory"
        );
        let plain = anyhow::anyhow!("inner").context("middle").context("outer");
        assert_eq!(error_chain(&plain), "outer: middle: inner");
    }
}

#[cfg(test)]
mod reference {
    //! docs/reference.md is rendered from the argument definitions, so the
    //! reference cannot drift from what `--help` says.

    use super::Cli;
    use clap::CommandFactory;
    use std::fmt::Write as _;
    use std::path::Path;

    /// The command reference: clap-markdown's rendering of every command,
    /// then the environment variables the options read (clap-markdown does
    /// not show them). Only names, never current values, so the file does
    /// not depend on the environment it was rendered in.
    fn reference_markdown() -> String {
        let command = Cli::command();
        let options = clap_markdown::MarkdownOptions::new()
            .title("linesift command reference".to_owned())
            .show_footer(false);
        let mut markdown = clap_markdown::help_markdown_command_custom(&command, &options);
        markdown.push_str("## Environment variables\n\n");
        markdown.push_str("Each option below may be set by its variable instead; a flag given on the command line wins.\n\n");
        markdown.push_str("| variable | command | option |\n|---|---|---|\n");
        for sub in command.get_subcommands() {
            for arg in sub.get_arguments() {
                let (Some(env), Some(long)) = (arg.get_env(), arg.get_long()) else {
                    continue;
                };
                let name = env.to_string_lossy();
                let _ = writeln!(markdown, "| `{name}` | `{}` | `--{long}` |", sub.get_name());
            }
        }
        markdown
    }

    #[test]
    fn the_command_reference_in_docs_matches_the_argument_definitions() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/reference.md");
        let rendered = reference_markdown();
        if std::env::var_os("LINESIFT_BLESS").is_some_and(|v| v == "1") {
            std::fs::write(&path, &rendered).expect("docs/reference.md is writable");
            return;
        }
        let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            on_disk == rendered,
            "docs/reference.md is out of date with the CLI's arguments; refresh it with \
             `LINESIFT_BLESS=1 cargo nextest run --bin linesift the_command_reference` and commit it"
        );
    }
}
