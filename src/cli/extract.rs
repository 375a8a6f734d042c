//! `linesift extract`: files, stdin or http(s) URLs to text or JSON(L),
//! many inputs on all cores, input order kept. A failing input is reported
//! with its name and does not stop the others; the exit code is 1 when any
//! failed. URLs go to the fetcher on a tokio runtime that is built only when
//! there are URLs; files are extracted on the rayon pool. Each result is
//! written as soon as every input before it is: a slow input holds back
//! the output after it, never the work on the inputs after it (up to a
//! window, which bounds the results held).

use super::options::{ExtractOptions, body_limit, parse_size};
use anyhow::{Context, bail};
use linesift::fetch::error::{page_without_credentials, without_credentials};
use linesift::fetch::{FetchError, FetchOptions, Fetcher, Guard};
use linesift::sink::extract::{self, Record};
use linesift::{Document, ExtractError, Extractor, Hints};
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::ffi::{OsStr, OsString};
use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::mpsc;
use std::time::Duration;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Inputs: file paths, `-` for stdin, or http(s):// URLs to fetch.
    // OsString: a file name need not be UTF-8.
    inputs: Vec<OsString>,
    /// Read more input paths from this file, one per line (`-`: from
    /// stdin). An empty list is nothing to do, not stdin.
    #[arg(long, value_name = "FILE")]
    from: Option<PathBuf>,
    /// Output format: text (default for one input), markdown or json (one
    /// input only), jsonl (default for many).
    #[arg(long)]
    format: Option<Format>,
    /// Worker threads (default: all cores).
    #[arg(long, short)]
    jobs: Option<usize>,
    /// Charset to assume when the page declares none (no BOM, no
    /// `<meta>` charset), instead of detecting one; a WHATWG label such as
    /// windows-1251 or shift_jis.
    #[arg(long, value_parser = super::options::parse_charset)]
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
    /// Allow private, loopback and link-local addresses (the SSRF guard
    /// off, but for the cloud metadata addresses: see --allow-metadata).
    #[arg(long)]
    allow_private: bool,
    /// Allow the cloud metadata addresses (169.254.169.254, fd00:ec2::254,
    /// ...), which --allow-private leaves refused.
    #[arg(long)]
    allow_metadata: bool,
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
    Markdown,
    Json,
    Jsonl,
}

/// An input's failure of this command's own, not of the page: each has
/// the kind the worker gives the like failure.
#[derive(Debug, thiserror::Error)]
enum Internal {
    /// The extractor or a fetch panicked (a bug): this input fails, the
    /// others go on.
    #[error("internal error: the {0} panicked")]
    Panicked(&'static str),
    /// The fetcher had stopped before this URL could be handed to it.
    #[error("URL was not fetched: the fetcher had stopped")]
    NotFetched,
}

impl Internal {
    /// `panic`, as the worker's for a panic; `local`, as the fetcher's for
    /// a failure of this process rather than of the page.
    fn kind(&self) -> &'static str {
        match self {
            Internal::Panicked(_) => "panic",
            Internal::NotFetched => "local",
        }
    }
}

/// `work`'s result, or a panic in it as this input's error.
fn caught<T>(what: &'static str, work: impl FnOnce() -> anyhow::Result<T>) -> anyhow::Result<T> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(work))
        .unwrap_or_else(|_| Err(Internal::Panicked(what).into()))
}

/// A page extracted from a file or a URL.
struct Extracted {
    document: Document,
    /// The fetched body was cut at the size limit.
    truncated: bool,
    /// The file or stdin held no byte at all (a warning, not an error: an
    /// empty page has no text, but a run over many files goes on).
    empty: bool,
}

/// The fetcher and the runtime it runs on, present when inputs hold URLs.
struct Web {
    // Dropped before the runtime its connections live on.
    fetcher: Fetcher,
    runtime: tokio::runtime::Runtime,
    concurrency: usize,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let inputs = inputs(&args)?;
    if inputs.is_empty() {
        // An empty `--from` list: nothing to do (`find` found nothing).
        return Ok(ExitCode::SUCCESS);
    }
    let format = format(args.format, inputs.len())?;
    let mut options = args.extract.options();
    options.markdown = format == Format::Markdown;
    let extractor = Extractor::new(options);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.jobs.unwrap_or(0))
        .build()?;
    let web = Web::new(&args, &extractor, &inputs)?;
    let progress = super::progress::pages(inputs.len());
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    let mut failed = 0usize;
    let concurrency = web.as_ref().map_or(0, |w| w.concurrency);
    let window = (pool.current_num_threads().max(1) * 32).max(concurrency.saturating_mul(4));
    let work = Work {
        pool: &pool,
        extractor: &extractor,
        web: web.as_ref(),
        charset: args.charset.as_deref(),
    };
    work.run(&inputs, window, &progress, |i, result| {
        if result.is_err() {
            failed += 1;
        }
        let input = inputs[i].as_os_str();
        let logged = shown_name(input, without_credentials);
        progress.suspend(|| report(&super::printable(&logged), format, &result));
        let path = shown_name(input, page_without_credentials);
        // Flushed a record at a time: a reader of the stream sees each as
        // soon as it is due (a syscall a page costs next to nothing).
        write_result(&mut out, format, &path, &result)
            .and_then(|()| Ok(out.flush()?))
            .context("writing output to stdout")
    })?;
    progress.finish_and_clear();
    Ok(if failed > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// The inputs: the arguments, then the `--from` list; stdin when there
/// are neither. Stdin can be read once: as the list or as one page.
fn inputs(args: &Args) -> anyhow::Result<Vec<OsString>> {
    let stdin = OsStr::new("-");
    let mut inputs = args.inputs.clone();
    if let Some(list) = &args.from {
        let bytes = if list.as_os_str() == stdin {
            let mut bytes = Vec::new();
            io::stdin()
                .lock()
                .read_to_end(&mut bytes)
                .context("reading the input list from stdin")?;
            bytes
        } else {
            std::fs::read(list)
                .with_context(|| format!("reading {}", super::printable_path(list)))?
        };
        inputs.extend(input_list(&bytes));
    } else if inputs.is_empty() {
        inputs.push(stdin.into());
    }
    let pages_on_stdin = inputs.iter().filter(|i| *i == stdin).count();
    let list_on_stdin = args.from.as_ref().is_some_and(|l| l.as_os_str() == stdin);
    if pages_on_stdin + usize::from(list_on_stdin) > 1 {
        bail!("stdin (`-`) can be read once: name it once, as a page or as the --from list");
    }
    Ok(inputs)
}

/// The output format asked for, or the default for this many inputs.
fn format(asked: Option<Format>, inputs: usize) -> anyhow::Result<Format> {
    match asked {
        // One pretty-printed object per input, back to back, is no JSON
        // document any parser reads; texts back to back cannot be told
        // apart. JSON lines is the format for many.
        Some(f @ (Format::Json | Format::Text | Format::Markdown)) if inputs > 1 => bail!(
            "--format {} is for one input; for {inputs} inputs use --format jsonl \
             (one JSON object a line, with the input's path)",
            match f {
                Format::Json => "json",
                Format::Markdown => "markdown",
                _ => "text",
            }
        ),
        Some(f) => Ok(f),
        None if inputs == 1 => Ok(Format::Text),
        None => Ok(Format::Jsonl),
    }
}

/// An input's error, an empty input, and in text mode what was cut, on
/// stderr. Written with errors ignored: a closed stderr must not stop the
/// run (where `eprintln!` would panic).
fn report(name: &str, format: Format, result: &anyhow::Result<Extracted>) {
    let x = match result {
        Err(e) => {
            say!("linesift: {name}: {}", error_after_name(name, e));
            return;
        }
        Ok(x) => x,
    };
    if x.empty {
        say!("linesift: {name}: warning: empty input (0 bytes), no text");
    }
    // JSON says so in the record (`truncated`, `text_truncated`).
    if matches!(format, Format::Text | Format::Markdown) {
        if x.truncated {
            say!("linesift: {name}: body cut at --max-body; text of its start");
        }
        if x.document.text_truncated {
            say!("linesift: {name}: text cut at --max-text");
        }
    }
}

/// An input's error as stderr shows it after the input's name: a
/// fetcher's error about that very URL without the URL, which the name
/// gives already; any other error (one at a redirect's target among
/// them) whole.
fn error_after_name(name: &str, e: &anyhow::Error) -> String {
    match e.downcast_ref::<FetchError>() {
        Some(f) if f.url().is_some_and(|url| same_url(url, name)) => f.reason(),
        _ => super::error_chain(e),
    }
}

/// Whether two URLs name the same page, as written or as parsed
/// (`HTTP://Host/` is `http://host/`).
fn same_url(a: &str, b: &str) -> bool {
    a == b || matches!((url::Url::parse(a), url::Url::parse(b)), (Ok(a), Ok(b)) if a == b)
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

/// The input's name as it is shown: a URL through `scrub`, which takes
/// out its `user:password@` (the request still sends them); anything else
/// as it is. The JSONL `path` names the input for the programs that read
/// the output: it takes `page_without_credentials`, the URL as the parser
/// reads it (an ordinary URL with a port and an `@` after it stays
/// whole). stderr is a log: it takes `without_credentials`, which also
/// cuts a password the parser would misread as a port and a path.
fn shown_name(input: &OsStr, scrub: fn(&str) -> String) -> Cow<'_, str> {
    match as_url(input) {
        Some(url) => scrub(url).into(),
        None => input.to_string_lossy(),
    }
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

/// What the inputs are extracted with.
struct Work<'a> {
    pool: &'a rayon::ThreadPool,
    extractor: &'a Extractor,
    web: Option<&'a Web>,
    charset: Option<&'a str>,
}

impl Work<'_> {
    /// Extracts every input, files on the pool and URLs on the fetcher,
    /// and hands each result to `done` in input order. At most `window`
    /// inputs are started and not yet handed over, so memory stays bounded
    /// when one input is slow; `progress` counts each as it finishes. The
    /// first error `done` returns (a closed output pipe) ends the run: no
    /// more inputs are started, and fetches under way are dropped.
    fn run(
        &self,
        inputs: &[OsString],
        window: usize,
        progress: &indicatif::ProgressBar,
        mut done: impl FnMut(usize, anyhow::Result<Extracted>) -> anyhow::Result<()>,
    ) -> anyhow::Result<()> {
        let (tx, rx) = mpsc::channel::<(usize, anyhow::Result<Extracted>)>();
        let (url_tx, url_rx) = tokio::sync::mpsc::unbounded_channel::<(usize, &str)>();
        // Dropped when this returns, early or not: the fetcher's loop stops.
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        std::thread::scope(|threads| {
            match self.web {
                Some(web) => {
                    let tx = tx.clone();
                    threads.spawn(move || web.fetch_each(url_rx, stopped, &tx));
                }
                // No fetcher: a URL sent finds the channel closed and is
                // answered with an error below, not left waiting.
                None => drop(url_rx),
            }
            // Both moved here, so both are dropped as this closure returns,
            // before the scope waits for the fetcher's thread.
            let (url_tx, _stop) = (url_tx, stop);
            self.pool.in_place_scope(|tasks| {
                let mut order = Reorder::default();
                let mut started = 0;
                while order.next() < inputs.len() {
                    while started < inputs.len() && started - order.next() < window.max(1) {
                        let (i, input) = (started, &inputs[started]);
                        match as_url(input) {
                            Some(url) => {
                                if url_tx.send((i, url)).is_err() {
                                    let _ = tx.send((i, Err(Internal::NotFetched.into())));
                                }
                            }
                            None => {
                                let tx = tx.clone();
                                tasks.spawn(move |_| {
                                    let _ = tx.send((i, self.extract_file(input)));
                                });
                            }
                        }
                        started += 1;
                    }
                    // Every input started sends one result (`extract_file`,
                    // `fetch_each`), and `tx` lives here: this waits for it.
                    let Ok((i, result)) = rx.recv() else {
                        bail!("an extraction thread stopped without a result");
                    };
                    progress.inc(1);
                    for (i, result) in order.add(i, result) {
                        done(i, result)?;
                    }
                }
                Ok(())
            })
        })
    }

    /// One file's result, whatever happens: a panic (a bug; the core is
    /// meant to have none) is this input's error, not the run's end, and
    /// the result the loop in [`Work::run`] waits for still comes.
    fn extract_file(&self, input: &OsStr) -> anyhow::Result<Extracted> {
        caught("extractor", || {
            extract_one(self.extractor, input, self.charset)
        })
    }
}

/// Results that finish out of order, handed on in order.
struct Reorder<T> {
    next: usize,
    waiting: BTreeMap<usize, T>,
}

impl<T> Default for Reorder<T> {
    fn default() -> Self {
        Reorder {
            next: 0,
            waiting: BTreeMap::new(),
        }
    }
}

impl<T> Reorder<T> {
    /// The index of the next result to hand on.
    fn next(&self) -> usize {
        self.next
    }

    /// Result `i`; returns the results now due, in order.
    fn add(&mut self, i: usize, result: T) -> Vec<(usize, T)> {
        self.waiting.insert(i, result);
        let mut due = Vec::new();
        while let Some(result) = self.waiting.remove(&self.next) {
            due.push((self.next, result));
            self.next += 1;
        }
        due
    }
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

    /// Fetches the URLs that come on `urls`, `concurrency` at a time, and
    /// sends each result, tagged with its input's index, as it finishes.
    /// Returns when `urls` is closed and every fetch is done, or at once
    /// when `stop` ends (its sender dropped), dropping the fetches.
    fn fetch_each(
        &self,
        urls: tokio::sync::mpsc::UnboundedReceiver<(usize, &str)>,
        stop: tokio::sync::oneshot::Receiver<()>,
        results: &mpsc::Sender<(usize, anyhow::Result<Extracted>)>,
    ) {
        use futures_util::{FutureExt, StreamExt};
        let urls = futures_util::stream::unfold(urls, |mut rx| async move {
            rx.recv().await.map(|url| (url, rx))
        });
        let fetches = urls
            // A panic in one fetch (a bug) is that input's error: the
            // others go on, and the result the run waits for comes.
            .map(|(i, url)| async move {
                let fetch = std::panic::AssertUnwindSafe(self.fetcher.fetch(url));
                let result = match fetch.catch_unwind().await {
                    Ok(fetched) => fetched
                        .map(|f| Extracted {
                            document: f.document,
                            truncated: f.truncated,
                            empty: false,
                        })
                        .map_err(anyhow::Error::from),
                    Err(_) => Err(Internal::Panicked("fetch").into()),
                };
                (i, result)
            })
            .buffer_unordered(self.concurrency)
            .for_each(|(i, result)| {
                let _ = results.send((i, result));
                std::future::ready(())
            });
        self.runtime.block_on(async {
            tokio::select! {
                () = fetches => {}
                _ = stop => {}
            }
        });
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
            allow_metadata: args.allow_metadata,
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
        charset: None,
        fallback_charset: charset.map(String::from),
    };
    let (document, empty) = if input == OsStr::new("-") {
        stream_from(extractor, hints, io::stdin().lock(), "reading stdin")?
    } else {
        let file = std::fs::File::open(input).context("reading file")?;
        match file.metadata() {
            Ok(m) if m.is_file() => read_whole(extractor, &hints, file, m.len())?,
            _ => stream_from(extractor, hints, file, "reading file")?,
        }
    };
    Ok(Extracted {
        document,
        truncated: false,
        empty,
    })
}

/// Reads a regular file whole (`size` bytes, as its metadata says) and
/// extracts it in memory: a page whose bytes are its text is then scanned
/// where it lies, with no decoding copy and no buffer grown chunk by
/// chunk. Memory still follows `--max-bytes`: a file over it is refused
/// before it is read, and one that grew past it while read is refused
/// after `--max-bytes` and one more byte. Returns the document and whether
/// the file held no byte at all.
fn read_whole(
    extractor: &Extractor,
    hints: &Hints,
    file: std::fs::File,
    size: u64,
) -> anyhow::Result<(Document, bool)> {
    let limit = extractor.options().max_bytes;
    let too_large = || ExtractError::TooLarge { limit };
    if size > limit as u64 {
        return Err(too_large().into());
    }
    let mut bytes = Vec::with_capacity(size as usize + 1);
    file.take(limit as u64 + 1)
        .read_to_end(&mut bytes)
        .context("reading file")?;
    if bytes.len() > limit {
        return Err(too_large().into());
    }
    Ok((extractor.extract(&bytes, hints)?, bytes.is_empty()))
}

/// Feeds a reader to the core in chunks, so memory follows the core's
/// limits rather than the input's size: reading stops at the first chunk
/// over `--max-bytes`. Returns the document and whether the reader held
/// no byte at all.
fn stream_from(
    extractor: &Extractor,
    hints: Hints,
    mut reader: impl Read,
    what: &'static str,
) -> anyhow::Result<(Document, bool)> {
    let mut page = extractor.stream(hints);
    let mut buf = vec![0u8; 64 * 1024];
    let mut empty = true;
    loop {
        let n = match reader.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e).context(what),
        };
        empty = false;
        page.feed(&buf[..n])?;
    }
    Ok((page.finish()?, empty))
}

fn write_result(
    out: &mut impl Write,
    format: Format,
    input: &str,
    result: &anyhow::Result<Extracted>,
) -> anyhow::Result<()> {
    match (format, result) {
        (Format::Text, Ok(Extracted { document: doc, .. })) => extract::write_text(out, doc)?,
        (Format::Markdown, Ok(Extracted { document: doc, .. })) => {
            extract::write_markdown(out, doc)?
        }
        (Format::Text | Format::Markdown, Err(_)) => {}
        (Format::Json | Format::Jsonl, _) => {
            let error = result.as_ref().err();
            let record = Record {
                path: input,
                document: result.as_ref().ok().map(|e| &e.document),
                truncated: result.as_ref().is_ok_and(|e| e.truncated),
                error: error.map(super::error_chain),
                error_kind: error.and_then(error_kind),
            };
            extract::write_json(out, &record, format == Format::Json)?;
        }
    }
    Ok(())
}

/// The kind of an input's error (`dns`, `timeout`, `too_large`, `open`,
/// ...): the fetcher's, the core's, a file's or stdin's I/O error, or
/// this command's own (`panic`, `local`).
fn error_kind(e: &anyhow::Error) -> Option<&'static str> {
    e.downcast_ref::<FetchError>()
        .map(FetchError::kind)
        .or_else(|| e.downcast_ref::<ExtractError>().map(ExtractError::kind))
        .or_else(|| e.downcast_ref::<io::Error>().map(io_error_kind))
        .or_else(|| e.downcast_ref::<Internal>().map(Internal::kind))
}

/// `open` when the name is no file to read (missing, not permitted, a
/// directory), as the worker tells a WARC file that; `io` when reading
/// failed otherwise (a disk error, stdin).
fn io_error_kind(e: &io::Error) -> &'static str {
    use io::ErrorKind::*;
    match e.kind() {
        NotFound | PermissionDenied | IsADirectory | NotADirectory | InvalidFilename => "open",
        _ => "io",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_are_handed_on_in_order() {
        let mut order = Reorder::default();
        assert!(order.add(2, 'c').is_empty());
        assert!(order.add(1, 'b').is_empty());
        assert_eq!(order.next(), 0);
        assert_eq!(order.add(0, 'a'), vec![(0, 'a'), (1, 'b'), (2, 'c')]);
        assert_eq!(order.add(3, 'd'), vec![(3, 'd')]);
        assert_eq!(order.next(), 4);
    }

    /// Root reads any file, so the tests' binary runs cannot show a
    /// refused read: its kind is checked here.
    #[test]
    fn a_file_that_may_not_be_read_is_an_open_error() {
        let denied = io::Error::from(io::ErrorKind::PermissionDenied);
        assert_eq!(io_error_kind(&denied), "open");
        let failed = io::Error::from_raw_os_error(5);
        assert_eq!(io_error_kind(&failed), "io");
    }

    /// A URL the fetcher does not take fails in its place among the
    /// inputs, its JSON line of kind `local`. The fetcher stops early only
    /// after a bug, so a run of the binary cannot show it: a run with no
    /// fetcher stands in.
    #[test]
    fn a_url_the_fetcher_does_not_take_fails_as_a_local_error() {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap();
        let extractor = Extractor::new(linesift::Options::default());
        let work = Work {
            pool: &pool,
            extractor: &extractor,
            web: None,
            charset: None,
        };
        let url = "https://example.com/";
        let bar = indicatif::ProgressBar::hidden();
        let mut lines = Vec::new();
        work.run(&[url.into()], 4, &bar, |_, result| {
            write_result(&mut lines, Format::Jsonl, url, &result)
        })
        .unwrap();
        let line: serde_json::Value = serde_json::from_slice(&lines).unwrap();
        assert_eq!(
            line,
            serde_json::json!({
                "path": url,
                "error": "URL was not fetched: the fetcher had stopped",
                "error_kind": "local",
            })
        );
    }

    /// No input makes the core or the fetcher panic (a bug), so a run of
    /// the binary cannot show one: the wrapper each input runs in is
    /// checked here.
    #[test]
    fn a_panic_is_the_inputs_error_of_kind_panic() {
        let e = caught::<()>("extractor", || panic!("a bug")).unwrap_err();
        assert_eq!(e.to_string(), "internal error: the extractor panicked");
        assert_eq!(error_kind(&e), Some("panic"));
    }
}
