//! `linesift extract`: files, stdin or http(s) URLs to text or JSON(L),
//! many inputs on all cores, input order kept. A failing input is reported
//! with its name and does not stop the others; the exit code is 1 when any
//! failed. URLs go to the fetcher on a tokio runtime that is built only when
//! there are URLs; files are extracted on the rayon pool.

use super::options::{ExtractOptions, body_limit, parse_size};
use anyhow::{Context, bail};
use linesift::fetch::{FetchError, FetchOptions, Fetcher, Guard};
use linesift::{Document, Extractor, Hints};
use rayon::prelude::*;
use serde::Serialize;
use std::ffi::{OsStr, OsString};
use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Inputs: file paths, `-` for stdin, or http(s):// URLs to fetch.
    // OsString: a file name need not be UTF-8.
    inputs: Vec<OsString>,
    /// Read more input paths from this file, one per line.
    #[arg(long, value_name = "FILE")]
    from: Option<PathBuf>,
    /// Output format: text (default for one input), json (one input only),
    /// jsonl (default for many).
    #[arg(long)]
    format: Option<Format>,
    /// Worker threads (default: all cores).
    #[arg(long, short)]
    jobs: Option<usize>,
    /// Charset to assume when the page declares none (like an HTTP header).
    #[arg(long)]
    charset: Option<String>,
    #[command(flatten)]
    extract: ExtractOptions,
    #[command(flatten)]
    fetch: FetchArgs,
}

/// How URL inputs are fetched.
#[derive(Debug, clap::Args)]
struct FetchArgs {
    /// User-Agent for requests; its product token (the first word, or the
    /// name after `compatible;` in a browser-style one) is matched in
    /// robots.txt.
    #[arg(long, value_name = "UA")]
    user_agent: Option<String>,
    /// Total time limit per request in seconds (connect and read limits are
    /// at most this too).
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0)]
    timeout: f64,
    /// Largest decoded body (bytes; K, M, G suffixes); larger ones are cut.
    #[arg(long, value_name = "SIZE", default_value = "16M", value_parser = parse_size)]
    max_body: u64,
    /// Refuse bodies over --max-body instead of extracting their start.
    #[arg(long)]
    refuse_oversize: bool,
    /// Allow private, loopback and link-local addresses (SSRF guard off).
    #[arg(long)]
    allow_private: bool,
    /// Do not fetch or obey robots.txt.
    #[arg(long)]
    no_robots: bool,
    /// URLs fetched at once.
    #[arg(long, value_name = "N", default_value_t = 16)]
    concurrency: usize,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    Text,
    Json,
    Jsonl,
}

/// One line of JSONL output: the input's name and its document or error.
#[derive(Serialize)]
struct Record<'a> {
    path: &'a str,
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    document: Option<&'a Document>,
    /// The body was cut at --max-body.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    truncated: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
    /// The fetch error's kind (`dns`, `timeout`, `robots`, ...).
    #[serde(skip_serializing_if = "Option::is_none")]
    error_kind: Option<&'static str>,
}

/// A page extracted from a file or a URL.
struct Extracted {
    document: Document,
    /// The fetched body was cut at the size limit.
    truncated: bool,
}

/// The fetcher and the runtime it runs on, present when inputs hold URLs.
struct Web {
    // Dropped before the runtime its connections live on.
    fetcher: Fetcher,
    runtime: tokio::runtime::Runtime,
    concurrency: usize,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let mut inputs = args.inputs.clone();
    if let Some(list) = &args.from {
        let bytes = std::fs::read(list).with_context(|| format!("reading {}", list.display()))?;
        inputs.extend(input_list(&bytes));
    }
    if inputs.is_empty() {
        inputs.push("-".into());
    }
    // One pretty-printed object per input, back to back, is no JSON
    // document any parser reads: JSON lines is the format for many.
    if args.format == Some(Format::Json) && inputs.len() > 1 {
        bail!(
            "--format json writes one JSON document, for one input; for {} inputs use \
             --format jsonl (one JSON object a line)",
            inputs.len()
        );
    }
    let format = args.format.unwrap_or(if inputs.len() == 1 {
        Format::Text
    } else {
        Format::Jsonl
    });
    let extractor = Extractor::new(args.extract.options());
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.jobs.unwrap_or(0))
        .build()?;
    let web = Web::new(&args, &extractor, &inputs)?;
    let progress = super::progress::pages(inputs.len());
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let mut failed = 0usize;
    let concurrency = web.as_ref().map_or(0, |w| w.concurrency);
    let batch = (pool.current_num_threads().max(1) * 32).max(concurrency * 4);
    for chunk in inputs.chunks(batch) {
        let results = extract_batch(
            &pool,
            &extractor,
            web.as_ref(),
            chunk,
            args.charset.as_deref(),
        );
        for (input, result) in chunk.iter().zip(results) {
            progress.inc(1);
            let name = input.to_string_lossy();
            if let Err(e) = &result {
                failed += 1;
                progress.suspend(|| eprintln!("linesift: {name}: {e:#}"));
            }
            write_result(&mut out, format, &name, &result)?;
        }
    }
    out.flush()?;
    progress.finish_and_clear();
    Ok(if failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// The input names of a `--from` list: one a line, blank lines skipped.
/// Read as bytes, so that a name that is not UTF-8 stays the file's name
/// (on Unix; elsewhere such a name cannot be opened anyway).
fn input_list(bytes: &[u8]) -> Vec<OsString> {
    bytes
        .split(|&b| b == b'\n')
        .map(<[u8]>::trim_ascii)
        .filter(|l| !l.is_empty())
        .map(os_string)
        .collect()
}

#[cfg(unix)]
fn os_string(bytes: &[u8]) -> OsString {
    use std::os::unix::ffi::OsStrExt;
    OsStr::from_bytes(bytes).to_os_string()
}

#[cfg(not(unix))]
fn os_string(bytes: &[u8]) -> OsString {
    String::from_utf8_lossy(bytes).into_owned().into()
}

/// The input as a URL for the fetcher, if it is one.
fn as_url(input: &OsStr) -> Option<&str> {
    input
        .to_str()
        .filter(|i| i.starts_with("http://") || i.starts_with("https://"))
}

/// Whether an input is a URL for the fetcher.
fn is_url(input: &OsStr) -> bool {
    as_url(input).is_some()
}

/// Extracts one batch: files on the rayon pool, then URLs on the fetcher;
/// results in input order.
fn extract_batch(
    pool: &rayon::ThreadPool,
    extractor: &Extractor,
    web: Option<&Web>,
    chunk: &[OsString],
    charset: Option<&str>,
) -> Vec<anyhow::Result<Extracted>> {
    let files: Vec<Option<anyhow::Result<Extracted>>> = pool.install(|| {
        chunk
            .par_iter()
            .map(|input| (!is_url(input)).then(|| extract_one(extractor, input, charset)))
            .collect()
    });
    let urls: Vec<&str> = chunk.iter().filter_map(|i| as_url(i)).collect();
    let mut fetched = match web {
        Some(web) if !urls.is_empty() => web.fetch_all(&urls),
        _ => Vec::new(),
    }
    .into_iter();
    files
        .into_iter()
        .map(|file| {
            file.unwrap_or_else(|| {
                fetched
                    .next()
                    .unwrap_or_else(|| Err(anyhow::anyhow!("URL was not fetched")))
            })
        })
        .collect()
}

impl Web {
    /// The fetcher and its runtime, or `None` when no input is a URL.
    fn new(args: &Args, extractor: &Extractor, inputs: &[OsString]) -> anyhow::Result<Option<Web>> {
        if !inputs.iter().any(|i| is_url(i)) {
            return Ok(None);
        }
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
            .context("starting the async runtime")?;
        let options = fetch_options(&args.fetch, args.charset.as_deref())?;
        let fetcher = Fetcher::new(extractor.clone(), options)?;
        Ok(Some(Web {
            runtime,
            fetcher,
            concurrency: args.fetch.concurrency.max(1),
        }))
    }

    /// Fetches URLs, `concurrency` at a time, results in order.
    fn fetch_all(&self, urls: &[&str]) -> Vec<anyhow::Result<Extracted>> {
        use futures_util::StreamExt;
        let fetches = futures_util::stream::iter(urls.iter().map(|url| self.fetcher.fetch(url)))
            .buffered(self.concurrency)
            .map(|result| {
                result
                    .map(|f| Extracted {
                        document: f.document,
                        truncated: f.truncated,
                    })
                    .map_err(anyhow::Error::from)
            })
            .collect::<Vec<_>>();
        self.runtime.block_on(fetches)
    }
}

fn fetch_options(args: &FetchArgs, charset: Option<&str>) -> anyhow::Result<FetchOptions> {
    let total = Duration::try_from_secs_f64(args.timeout).context("--timeout")?;
    let defaults = FetchOptions::default();
    Ok(FetchOptions {
        user_agent: args
            .user_agent
            .clone()
            .unwrap_or(defaults.user_agent.clone()),
        connect_timeout: defaults.connect_timeout.min(total),
        read_timeout: defaults.read_timeout.min(total),
        total_timeout: total,
        body: body_limit(args.max_body, args.refuse_oversize),
        guard: Guard {
            allow_private: args.allow_private,
            allow_loopback: args.allow_private,
        },
        robots: !args.no_robots,
        default_charset: charset.map(String::from),
        ..defaults
    })
}

fn extract_one(
    extractor: &Extractor,
    input: &OsStr,
    charset: Option<&str>,
) -> anyhow::Result<Extracted> {
    let hints = Hints {
        url: None,
        charset: charset.map(String::from),
    };
    let document = if input == OsStr::new("-") {
        stream_from(extractor, hints, io::stdin().lock(), "reading stdin")?
    } else {
        let file = std::fs::File::open(input).context("reading file")?;
        stream_from(extractor, hints, file, "reading file")?
    };
    Ok(Extracted {
        document,
        truncated: false,
    })
}

/// Feeds a reader to the core in chunks, so memory follows the core's
/// limits rather than the input's size: reading stops at the first chunk
/// over `--max-bytes`.
fn stream_from(
    extractor: &Extractor,
    hints: Hints,
    mut reader: impl Read,
    what: &'static str,
) -> anyhow::Result<Document> {
    let mut page = extractor.stream(hints);
    let mut buf = vec![0u8; 64 * 1024];
    loop {
        let n = match reader.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e).context(what),
        };
        page.feed(&buf[..n])?;
    }
    Ok(page.finish()?)
}

fn write_result(
    out: &mut impl Write,
    format: Format,
    input: &str,
    result: &anyhow::Result<Extracted>,
) -> anyhow::Result<()> {
    match (format, result) {
        (Format::Text, Ok(Extracted { document: doc, .. })) => {
            if let Some(h) = &doc.headline {
                writeln!(out, "{h}\n")?;
            }
            writeln!(out, "{}", doc.text)?;
        }
        (Format::Text, Err(_)) => {}
        (Format::Json | Format::Jsonl, _) => {
            let error = result.as_ref().err();
            let record = Record {
                path: input,
                document: result.as_ref().ok().map(|e| &e.document),
                truncated: result.as_ref().is_ok_and(|e| e.truncated),
                error: error.map(|e| format!("{e:#}")),
                error_kind: error
                    .and_then(|e| e.downcast_ref::<FetchError>())
                    .map(FetchError::kind),
            };
            if format == Format::Json {
                serde_json::to_writer_pretty(&mut *out, &record)?;
            } else {
                serde_json::to_writer(&mut *out, &record)?;
            }
            writeln!(out)?;
        }
    }
    Ok(())
}
