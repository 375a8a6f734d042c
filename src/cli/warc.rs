//! `linesift warc`: WARC (and ARC) files in, JSONL or WET out. A reader thread
//! decompresses and frames records into bounded batches; the batches are
//! extracted on `--jobs` threads; a writer thread serialises, compresses
//! and writes the documents in input order, so output compression overlaps
//! extraction. What becomes of each record is `warc::driver`'s rule, as for
//! `linesift run` and the worker: bad records, records over
//! `--max-payload` and corrupt gzip members / zstd or LZ4 frames (or ones
//! decompressing past `--max-member`) are counted as errors, logged with
//! file and offset, and reading goes on; a truncated file ends
//! with a message and keeps what came before. The exit code is 2 for fatal
//! errors (output, arguments), 1 when an input could not be read at all
//! (it could not be opened, it held no record at all, or not one record
//! of it was readable: say, every member corrupt, so a batch run notices),
//! 0 otherwise. A file output is written to a hidden temporary file and
//! renamed over OUT at the end, unless no input at all could be read (or
//! the `--offset` record could not): then OUT is left as it was, as it is
//! on a fatal error or on SIGINT, SIGTERM, SIGHUP or SIGQUIT, after
//! which the process dies by that signal (`interrupt`).

use super::interrupt::TempGuard;
use super::options::ExtractOptions;
use anyhow::{Context, bail};
use indicatif::{ProgressBar, ProgressStyle};
use linesift::sink::{JsonlWriter, Source, WetInfo, WetWriter};
use linesift::warc::driver::{Driver, Outcome};
use linesift::warc::{
    self, Compression, ContainerError, Item, ReaderOptions, WarcError, WarcReader,
};
use linesift::{Document, Extractor, Options};
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::io::{self, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::thread::JoinHandle;
use std::time::Instant;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// WARC files: plain, gzip, zstd or LZ4 (told from the bytes; junk
    /// before the first gzip member, zstd frame or record is skipped,
    /// within the first 64 KiB, and logged), or ARC v1 files (`.arc`,
    /// `.arc.gz`); `-` for stdin. Other formats (bzip2, xz, zip, 7z...) are
    /// refused, named.
    // Paths: a file name need not be UTF-8.
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// Output file, `-` for stdout. A `.gz` or `.zst` name compresses it.
    /// Written to a hidden `.OUT.tmp-PID` and renamed at the end; when no
    /// input could be read at all (exit 1), on a fatal error (2), or on
    /// SIGINT, SIGTERM, SIGHUP or SIGQUIT (the process then dies by the
    /// signal), that file is removed and OUT left as it was.
    #[arg(long, short)]
    output: PathBuf,
    /// Output format: jsonl, markdown (jsonl with each document's
    /// `markdown`), or wet (default when the name ends in .warc or .wet,
    /// before any .gz or .zst).
    #[arg(long)]
    format: Option<Format>,
    /// Output compression: auto (by name), none, gzip, zstd.
    #[arg(long, default_value = "auto")]
    compress: OutCompression,
    /// Worker threads for extraction (default: all cores).
    #[arg(long, short)]
    jobs: Option<usize>,
    /// Read the one record at this file offset (as in a CDX index). An
    /// offset where no gzip member, zstd or LZ4 frame or WARC or ARC record
    /// begins fails at once (exit 1); OUT is then left as it was.
    #[arg(long)]
    offset: Option<u64>,
    /// Compressed length of the record at --offset.
    #[arg(long, requires = "offset")]
    length: Option<u64>,
    /// Give up records whose payload is larger than this (bytes; K, M, G
    /// suffixes): each is an error (`too_large`) logged with its offset,
    /// and reading goes on.
    #[arg(long, env = "LINESIFT_MAX_PAYLOAD", value_name = "SIZE", default_value = "64M",
          value_parser = super::options::parse_size_usize)]
    max_payload: usize,
    /// Give up a gzip member or zstd or LZ4 frame that decompresses to more
    /// than this, and go on with the next (decompression bomb guard; K, M,
    /// G suffixes).
    #[arg(long, env = "LINESIFT_MAX_MEMBER", value_name = "SIZE", default_value = "16G",
          value_parser = super::options::parse_size)]
    max_member: u64,
    #[command(flatten)]
    extract: ExtractOptions,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(super) enum Format {
    Jsonl,
    /// JSON lines whose documents carry their `markdown`.
    Markdown,
    Wet,
}

impl Format {
    /// The extraction options for this format: Markdown asks for it.
    pub(super) fn options(self, mut options: Options) -> Options {
        options.markdown = self == Format::Markdown;
        options
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(super) enum OutCompression {
    Auto,
    None,
    Gzip,
    Zstd,
}

impl OutCompression {
    /// The compression asked for; `auto` by the output's name.
    pub(super) fn resolve(self, output_name: &str) -> Compression {
        match self {
            OutCompression::Auto => linesift::sink::writer::compression_for(output_name),
            OutCompression::None => Compression::None,
            OutCompression::Gzip => Compression::Gzip,
            OutCompression::Zstd => Compression::Zstd,
        }
    }
}

/// Records read from one file, or the end of a file.
enum Work {
    Item {
        file: usize,
        item: Item,
    },
    End {
        file: usize,
        error: Option<WarcError>,
    },
}

/// Records per batch and bytes per batch before it is handed on.
const BATCH_BYTES: usize = 32 * 1024 * 1024;
/// Batches in flight between reader and workers.
const QUEUE: usize = 2;
/// Documents in flight between the workers and the writer thread: enough
/// to keep both busy. A slow output holds at most this many texts, each
/// capped by `--max-text` (8 MiB by default; typical pages hold a few KiB).
const WRITE_QUEUE: usize = 64;

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    // The names in the output's `warc_file` (U+FFFD for bytes that are
    // not UTF-8), and as messages show them.
    let names: Vec<String> = args
        .inputs
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    let shown: Vec<String> = args
        .inputs
        .iter()
        .map(|p| super::printable_path(p))
        .collect();
    let output_name = args.output.to_string_lossy();
    let format = args.format.unwrap_or_else(|| default_format(&output_name));
    let compression = args.compress.resolve(&output_name);
    let extractor = Extractor::new(format.options(args.extract.options()));
    let reader = ReaderOptions {
        max_payload: args.max_payload,
        max_member: args.max_member,
    };
    let driver = Driver::new(&extractor, reader);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.jobs.unwrap_or(0))
        .build()?;
    // Argument errors before the output is created: a run that does nothing
    // must not truncate an existing file of that name.
    let one_record = match (args.offset, args.inputs.as_slice()) {
        (Some(offset), [input]) => Some((offset, input.as_path())),
        (Some(_), inputs) => bail!(
            "--offset reads one record from one file; {} given",
            inputs.len()
        ),
        (None, _) => None,
    };
    // Stdin can be read once: a second `-` would read nothing.
    if args.inputs.iter().filter(|i| *i == Path::new("-")).count() > 1 {
        bail!("stdin (`-`) can be read once: name it once");
    }
    if args.output != Path::new("-") {
        refuse_input_as_output(&args.output, &args.inputs)?;
    }
    let mut output = Output::open(&args.output, format, compression, &names)?;
    let mut summary = Summary::default();
    if let Some((offset, input)) = one_record {
        let at = RecordAt {
            input,
            offset,
            length: args.length,
        };
        random_access(&at, &shown, &driver, &mut output, &mut summary)?;
    } else {
        let batch = pool.current_num_threads().max(1) * 16;
        let progress = progress_bar(&args.inputs);
        summary.bar = Some(progress.clone());
        pipeline(&args.inputs, reader, batch, &progress, &mut |work| {
            let outcomes: Vec<Option<Outcome>> =
                pool.install(|| work.par_iter().map(|w| process(&driver, w)).collect());
            for (w, outcome) in work.into_iter().zip(outcomes) {
                summary.record(&shown, w, outcome, &mut output)?;
            }
            Ok(())
        })?;
    }
    // Not one input could be read (or not the `--offset` record): the old
    // OUT stays, as after a fatal error, rather than an empty one.
    if summary.failed_files >= args.inputs.len() as u64 {
        output.discard()?;
    } else {
        output.finish()?;
    }
    summary.print();
    Ok(if summary.failed_files > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// WET when the output name's last extension, before any `.gz` or `.zst`,
/// is `.warc` or `.wet`; JSON lines otherwise. Only the last one counts:
/// `CC-MAIN-...-00000.warc.jsonl.gz` is JSON lines about a WARC file.
pub(super) fn default_format(output: &str) -> Format {
    let output = output.to_ascii_lowercase();
    let name = output
        .strip_suffix(".gz")
        .or_else(|| output.strip_suffix(".zst"))
        .unwrap_or(&output);
    let extension = Path::new(name).extension().and_then(|e| e.to_str());
    match extension.map(str::to_ascii_lowercase).as_deref() {
        Some("warc" | "wet") => Format::Wet,
        _ => Format::Jsonl,
    }
}

/// Where `--offset`/`--length` point.
struct RecordAt<'a> {
    input: &'a Path,
    offset: u64,
    length: Option<u64>,
}

/// `--offset`/`--length`: one record, as a CDX line points at it;
/// `shown` names the input as messages show it.
fn random_access(
    at: &RecordAt,
    shown: &[String],
    driver: &Driver,
    output: &mut Output,
    summary: &mut Summary,
) -> anyhow::Result<()> {
    let offset = at.offset;
    let item = match warc::read_record_at(at.input, offset, at.length, driver.options()) {
        Ok(item) => item,
        // The file is missing or the member there is corrupt: this input
        // could not be read (exit code 1), as in a whole-file read; not a
        // fatal error (2), which is for the output and the arguments.
        Err(e) => {
            summary.errors += 1;
            summary.failed_files += 1;
            let name = &shown[0];
            match e.names_its_place() {
                true => say!("linesift: {name}: {e}"),
                false => say!("linesift: {name}: reading the record at offset {offset}: {e}"),
            }
            return Ok(());
        }
    };
    let work = Work::Item { file: 0, item };
    let outcome = process(driver, &work);
    summary.record(shown, work, outcome, output)?;
    // The end of this one-record "file": a bad record there (the offset is
    // not a record's start, as a stale CDX line gives) means not one record
    // could be read, so the input failed, as for a whole file.
    let end = Work::End {
        file: 0,
        error: None,
    };
    summary.record(shown, end, None, output)
}

/// Reads all inputs on a thread of its own and hands batches to `sink`
/// in order.
fn pipeline(
    inputs: &[PathBuf],
    options: ReaderOptions,
    batch: usize,
    progress: &ProgressBar,
    sink: &mut dyn FnMut(Vec<Work>) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let (tx, rx) = mpsc::sync_channel::<Vec<Work>>(QUEUE);
    let stopped = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let bar = progress.clone();
        let stopped = &stopped;
        scope.spawn(move || read_all(inputs, options, batch, &tx, &bar, stopped));
        // Dropping the receiver on error stops the reader at its next send;
        // the flag stops it before it opens another input.
        for work in rx {
            if let Err(e) = sink(work) {
                stopped.store(true, Ordering::Relaxed);
                return Err(e);
            }
        }
        anyhow::Ok(())
    })?;
    progress.finish_and_clear();
    Ok(())
}

fn read_all(
    inputs: &[PathBuf],
    options: ReaderOptions,
    batch: usize,
    tx: &mpsc::SyncSender<Vec<Work>>,
    bar: &ProgressBar,
    stopped: &AtomicBool,
) {
    let mut meter = Meter::new(bar.clone(), batch);
    for (file, input) in inputs.iter().enumerate() {
        if stopped.load(Ordering::Relaxed) {
            return;
        }
        let error = match open(input) {
            Ok(source) => match read_file(file, source, options, &mut meter, tx) {
                Ok(Flow::Go) => None,
                // The run has stopped on a fatal error: reading (even
                // opening) the next inputs would only delay the exit, or
                // block it for ever on a FIFO nobody writes to.
                Ok(Flow::Stop) => return,
                Err(e) => Some(e),
            },
            Err(e) => Some(e),
        };
        meter.push(Work::End { file, error }, 0);
        meter.end_file();
    }
    meter.flush(tx);
}

/// Whether reading goes on after a file.
enum Flow {
    Go,
    /// The receiving side has gone: the run ended on a fatal error.
    Stop,
}

fn open(input: &Path) -> Result<Box<dyn Read + Send>, WarcError> {
    if input == Path::new("-") {
        return Ok(Box::new(io::stdin()));
    }
    if let Some(remote) = linesift::remote::Remote::parse(input) {
        let opened = remote.map_err(|e| e.into_io()).and_then(|r| r.open_whole());
        return opened
            .map(|r| Box::new(r) as Box<dyn Read + Send>)
            .map_err(|source| WarcError::io(0, source));
    }
    Ok(Box::new(warc::open_file(input)?))
}

/// Reads one file into batches; an error ends the file, a closed channel
/// the whole run.
fn read_file(
    file: usize,
    source: Box<dyn Read + Send>,
    options: ReaderOptions,
    meter: &mut Meter,
    tx: &mpsc::SyncSender<Vec<Work>>,
) -> Result<Flow, WarcError> {
    let mut reader = WarcReader::new(source, options)?;
    while let Some(item) = reader.next() {
        let item = item?;
        let bytes = match &item {
            Item::Page(p) => p.body.len(),
            _ => 0,
        };
        meter.push(Work::Item { file, item }, bytes);
        meter.progress(reader.file_offset());
        if meter.full() && !meter.flush(tx) {
            return Ok(Flow::Stop);
        }
    }
    Ok(Flow::Go)
}

/// Collects work into batches and keeps the progress bar current.
struct Meter {
    bar: ProgressBar,
    batch: Vec<Work>,
    bytes: usize,
    limit: usize,
    done_files: u64,
    offset: u64,
    records: u64,
    started: Instant,
}

impl Meter {
    fn new(bar: ProgressBar, limit: usize) -> Self {
        Meter {
            bar,
            batch: Vec::new(),
            bytes: 0,
            limit,
            done_files: 0,
            offset: 0,
            records: 0,
            started: Instant::now(),
        }
    }

    fn push(&mut self, work: Work, bytes: usize) {
        if matches!(work, Work::Item { .. }) {
            self.records += 1;
        }
        self.batch.push(work);
        self.bytes += bytes;
    }

    fn full(&self) -> bool {
        self.batch.len() >= self.limit || self.bytes >= BATCH_BYTES
    }

    fn progress(&mut self, file_offset: u64) {
        self.offset = file_offset;
        if self.records.is_multiple_of(64) {
            self.bar.set_position(self.done_files + file_offset);
            let rate = self.records as f64 / self.started.elapsed().as_secs_f64().max(1e-3);
            self.bar
                .set_message(format!("{} records, {rate:.0} records/s", self.records));
        }
    }

    fn end_file(&mut self) {
        self.done_files += std::mem::take(&mut self.offset);
        self.bar.set_position(self.done_files);
    }

    /// Sends the batch; `false` when the receiving side has gone.
    fn flush(&mut self, tx: &mpsc::SyncSender<Vec<Work>>) -> bool {
        self.bytes = 0;
        let batch = std::mem::take(&mut self.batch);
        batch.is_empty() || tx.send(batch).is_ok()
    }
}

/// What became of a record, by the driver's rules; nothing for the end
/// of a file.
fn process(driver: &Driver, work: &Work) -> Option<Outcome> {
    match work {
        Work::Item { item, .. } => Some(driver.outcome(item)),
        Work::End { .. } => None,
    }
}

/// A document on its way to the writer thread, with what the output
/// keeps of its source record.
struct Written {
    file: usize,
    pos: warc::RecordPos,
    record_id: String,
    target_uri: Option<String>,
    date: Option<String>,
    http_date: Option<String>,
    truncated: Option<String>,
    repairs: warc::Repairs,
    document: Box<Document>,
}

enum Sink {
    // Boxed: the compressor state is large, and there is one sink per run.
    Jsonl(Box<JsonlWriter<Box<dyn Write + Send>>>),
    Wet(WetWriter<Box<dyn Write + Send>>),
}

/// The output, written on a thread of its own behind a bounded channel.
/// When writing fails the thread ends with the error; the next send (or
/// [`Output::finish`]) finds the channel closed and returns that error, so
/// a full disk stops the run with a message instead of a hang or a panic.
struct Output {
    tx: Option<mpsc::SyncSender<Written>>,
    thread: Option<JoinHandle<anyhow::Result<()>>>,
    /// The file written, when it is not the output itself: renamed to
    /// `final_path` once everything is written, removed otherwise.
    temp: Option<PathBuf>,
    final_path: PathBuf,
    /// Removes `temp` on a signal (`interrupt`) while it exists.
    guard: Option<TempGuard>,
}

/// Where a file output is written first: a hidden file beside it, renamed
/// over it at the end, so that the output's name never holds a half
/// written file (an error, a full disk, Ctrl-C) and an old output stays
/// whole until the new one is. It is removed on SIGINT, SIGTERM, SIGHUP
/// and SIGQUIT (`interrupt`), unless the process started with the signal
/// ignored; SIGKILL leaves it behind. `None` for an output that
/// is no regular file (`/dev/null`, a FIFO, `/dev/stdout`), written in
/// place.
pub(super) fn temp_for(path: &Path) -> Option<PathBuf> {
    if std::fs::metadata(path).is_ok_and(|m| !m.is_file()) {
        return None;
    }
    let name = path.file_name()?.to_string_lossy();
    Some(path.with_file_name(format!(".{name}.tmp-{}", std::process::id())))
}

/// Refuses an output that is one of the inputs: it would be emptied
/// before it is read (a rerun of `linesift warc dir/*.warc.gz -o
/// dir/out.warc.gz` globs the last output in).
pub(super) fn refuse_input_as_output(output: &Path, inputs: &[PathBuf]) -> anyhow::Result<()> {
    if let Some(input) = inputs.iter().find(|i| super::one_file(i, output)) {
        bail!(
            "the output {} is the input {}: it would be overwritten before it is read",
            super::printable_path(output),
            super::printable_path(input)
        );
    }
    Ok(())
}

impl Output {
    fn open(
        path: &Path,
        format: Format,
        compression: Compression,
        inputs: &[String],
    ) -> anyhow::Result<Self> {
        let stdout = path == Path::new("-");
        let temp = (!stdout).then(|| temp_for(path)).flatten();
        let mut guard = None;
        let raw: Box<dyn Write + Send> = if stdout {
            Box::new(io::BufWriter::new(io::stdout()))
        } else {
            let created = match temp.as_deref() {
                // Covered from the moment it exists: a signal never
                // leaves it behind.
                Some(temp) => TempGuard::create(temp).map(|(file, g)| {
                    guard = Some(g);
                    file
                }),
                None => std::fs::File::create(path),
            };
            let file =
                created.with_context(|| format!("creating {}", super::printable_path(path)))?;
            Box::new(io::BufWriter::with_capacity(1 << 20, file))
        };
        let sink = match format {
            Format::Jsonl | Format::Markdown => {
                Sink::Jsonl(Box::new(JsonlWriter::new(raw, compression)?))
            }
            Format::Wet => Sink::Wet(WetWriter::with_warcinfo(
                raw,
                compression,
                wet_info((!stdout).then_some(path), inputs),
            )),
        };
        let (tx, rx) = mpsc::sync_channel(WRITE_QUEUE);
        let inputs = inputs.to_vec();
        let shown = if stdout {
            "stdout".to_string()
        } else {
            super::printable_path(path)
        };
        let thread = std::thread::Builder::new()
            .name("warc-writer".into())
            .spawn(move || write_all(sink, &inputs, &rx, &shown))
            .context("starting the output thread")?;
        Ok(Output {
            tx: Some(tx),
            thread: Some(thread),
            temp,
            final_path: path.to_path_buf(),
            guard,
        })
    }

    fn write(&mut self, written: Written) -> anyhow::Result<()> {
        let sent = self.tx.as_ref().is_some_and(|tx| tx.send(written).is_ok());
        if sent {
            return Ok(());
        }
        // The writer has stopped: its error says why.
        self.tx = None;
        self.join()?;
        bail!("the output writer stopped")
    }

    fn finish(mut self) -> anyhow::Result<()> {
        self.tx = None;
        self.join()?;
        let Some(temp) = self.temp.take() else {
            return Ok(());
        };
        let guard = self.guard.take();
        let rename = || std::fs::rename(&temp, &self.final_path);
        let renamed = match guard {
            Some(guard) => guard.finish(rename),
            None => rename(),
        };
        renamed.with_context(|| {
            format!(
                "renaming {} to {}",
                super::printable_path(&temp),
                super::printable_path(&self.final_path)
            )
        })
    }

    /// Ends the writer and removes the temporary file: OUT is left as it
    /// was (and not made if it did not exist). An output written in place
    /// (stdout, a FIFO, `/dev/null`) keeps what was written.
    fn discard(mut self) -> anyhow::Result<()> {
        self.tx = None;
        self.join()?;
        if self.temp.is_some() {
            say!(
                "linesift: no input could be read; {} is left as it was",
                super::printable_path(&self.final_path)
            );
        }
        // `Drop` removes the temporary file.
        Ok(())
    }

    fn join(&mut self) -> anyhow::Result<()> {
        match self.thread.take().map(JoinHandle::join) {
            None => Ok(()),
            Some(Ok(result)) => result,
            Some(Err(_)) => bail!("the output writer panicked"),
        }
    }
}

impl Drop for Output {
    /// On an early return the writer still ends its compressed stream:
    /// closing the channel lets it finish, and joining waits for that.
    /// Its result is not wanted here (the caller is already failing).
    fn drop(&mut self) {
        self.tx = None;
        let _ = self.join();
        // Not finished: the half-written file goes, the old output stays.
        if let Some(temp) = self.temp.take() {
            let _ = std::fs::remove_file(temp);
        }
    }
}

/// What a WET output's warcinfo record names: the output and the inputs,
/// without their folders (where a run is started from does not change
/// the output).
pub(super) fn wet_info<S: AsRef<str>>(output: Option<&Path>, inputs: &[S]) -> WetInfo {
    let base = |p: &Path| p.file_name().map(|n| n.to_string_lossy().into_owned());
    WetInfo {
        filename: output.and_then(base),
        inputs: inputs
            .iter()
            .map(|i| base(Path::new(i.as_ref())).unwrap_or_else(|| i.as_ref().to_string()))
            .collect(),
    }
}

/// The writer thread: serialises, compresses and writes until the channel
/// closes, then ends the compressed stream and flushes.
fn write_all(
    mut sink: Sink,
    inputs: &[String],
    rx: &mpsc::Receiver<Written>,
    name: &str,
) -> anyhow::Result<()> {
    for w in rx {
        let source = Source {
            file: inputs.get(w.file).map_or("", String::as_str),
            pos: w.pos,
            record_id: &w.record_id,
            target_uri: w.target_uri.as_deref(),
            date: w.date.as_deref(),
            http_date: w.http_date.as_deref(),
            truncated: w.truncated.as_deref(),
            repairs: w.repairs,
        };
        match &mut sink {
            Sink::Jsonl(out) => out.write(&source, &w.document).map(drop),
            Sink::Wet(out) => out.write(&source, &w.document).map(drop),
        }
        .with_context(|| format!("writing output to {name}"))?;
    }
    match sink {
        Sink::Jsonl(out) => out.finish().map(drop),
        Sink::Wet(out) => out.finish().map(drop),
    }
    .with_context(|| format!("finishing output to {name}"))
}

/// Counts for the summary on stderr.
#[derive(Default)]
struct Summary {
    records: u64,
    html: u64,
    extracted: u64,
    skipped: BTreeMap<String, u64>,
    errors: u64,
    truncated_files: u64,
    /// Inputs that failed as a whole (exit code 1); each is an error too.
    failed_files: u64,
    /// Records of the current file read well (pages and skipped ones).
    file_records: u64,
    /// Errors in the current file (bad records, corrupt members, garbage).
    file_errors: u64,
    /// Extracted records whose WARC-Date was not read
    /// ([`warc::Page::unread_date`]), in all and in the current file
    /// (whose first is logged).
    unread_dates: u64,
    file_unread_dates: u64,
    /// Pages read by a repair ([`warc::Repairs`]), by its name; mended
    /// WARC-Dates of the current file (whose first is logged).
    repaired: BTreeMap<&'static str, u64>,
    file_mended_dates: u64,
    /// The progress bar that messages must not be drawn into.
    bar: Option<ProgressBar>,
}

impl Summary {
    /// Counts one outcome, logs errors (naming the input by `shown`, as
    /// messages show it) and writes documents.
    fn record(
        &mut self,
        shown: &[String],
        work: Work,
        outcome: Option<Outcome>,
        output: &mut Output,
    ) -> anyhow::Result<()> {
        match (work, outcome) {
            (Work::Item { file, item }, Some(outcome)) => {
                self.item(shown, file, item, outcome, output)
            }
            (Work::Item { .. }, None) => Ok(()),
            (Work::End { file, error }, _) => {
                let name = &shown[file];
                match error {
                    Some(e) => self.file_error(name, &e),
                    // Nothing readable at all (every member corrupt, say):
                    // a failed input, so that a batch run notices.
                    None if self.file_records == 0 && self.file_errors > 0 => {
                        self.failed_files += 1;
                        self.log(format_args!("{name}: not one record could be read"));
                    }
                    // No record and no error: an empty input (a download
                    // that failed and left a 0-byte file, say). As much a
                    // failed input as one with nothing readable: a batch
                    // run must notice, and the summary count it an error.
                    None if self.file_records == 0 => {
                        self.errors += 1;
                        self.failed_files += 1;
                        self.log(format_args!("{name}: holds no record (an empty input)"));
                    }
                    None => {}
                }
                self.file_records = 0;
                self.file_errors = 0;
                self.file_unread_dates = 0;
                self.file_mended_dates = 0;
                Ok(())
            }
        }
    }

    fn item(
        &mut self,
        inputs: &[String],
        file: usize,
        item: Item,
        outcome: Outcome,
        output: &mut Output,
    ) -> anyhow::Result<()> {
        let name = &inputs[file];
        let pos = item.pos();
        if !matches!(
            item,
            Item::Bad {
                error: WarcError::Container(ContainerError::Garbage { .. }),
                ..
            }
        ) {
            self.records += 1;
        }
        match &item {
            Item::Bad { .. } => self.file_errors += 1,
            _ => self.file_records += 1,
        }
        if let Item::Page(page) = &item {
            self.html += 1;
            if !page.repairs.is_empty() {
                self.repaired(name, page);
            }
        }
        match outcome {
            Outcome::Document(document) => {
                self.extracted += 1;
                if let Item::Page(p) = item {
                    if let Some(date) = p.unread_date() {
                        self.unread_date(name, pos, date);
                    }
                    output.write(Written {
                        file,
                        pos: p.pos,
                        record_id: p.record_id,
                        target_uri: p.target_uri,
                        date: p.date,
                        http_date: p.http_date,
                        truncated: p.truncated,
                        repairs: p.repairs,
                        document,
                    })?;
                }
            }
            Outcome::Skipped(skip) => *self.skipped.entry(skip.key()).or_default() += 1,
            Outcome::Failed(failure) => {
                self.errors += 1;
                self.log_failure(name, &item, pos, &failure.message);
            }
        }
        Ok(())
    }

    fn file_error(&mut self, name: &str, error: &WarcError) {
        self.errors += 1;
        match error {
            // A cut keeps the records before it. With none before it (the
            // file ends inside its first record, or every member was
            // corrupt) nothing of the file was read: it failed, below.
            WarcError::Container(ContainerError::Truncated { .. }) if self.file_records > 0 => {
                self.truncated_files += 1;
                self.log(format_args!(
                    "{name}: {error}; the records before it are kept"
                ));
            }
            _ if self.file_records == 0 => {
                self.failed_files += 1;
                self.log(format_args!("{name}: {error}"));
            }
            _ => self.log(format_args!(
                "{name}: {error}; the records before it are kept"
            )),
        }
    }

    /// Counts an extracted record whose WARC-Date names no instant, and
    /// logs the first of its file (a crawler that writes one form wrong
    /// writes it so in every record: one line says why, the summary how
    /// many).
    fn unread_date(&mut self, name: &str, pos: warc::RecordPos, date: &str) {
        self.unread_dates += 1;
        self.file_unread_dates += 1;
        if self.file_unread_dates == 1 {
            self.log(format_args!(
                "{name}: record at offset {}{}: WARC-Date {date:?} names no instant to \
                 the second (YYYY-MM-DDThh:mm:ssZ, or with a numeric offset), taken as \
                 none; further ones in this file are only counted",
                pos.offset,
                inner_offset(pos),
            ));
        }
    }

    /// Counts the repairs a page was read by, and logs them: a
    /// Content-Length mended, a record cut by the file's end, and the
    /// first mended WARC-Date of a file (a writer that writes it wrong
    /// writes it so in every record).
    fn repaired(&mut self, name: &str, page: &warc::Page) {
        let at = format!(
            "{name}: record at offset {}{}",
            page.pos.offset,
            inner_offset(page.pos)
        );
        for repair in page.repairs.names() {
            *self.repaired.entry(repair).or_default() += 1;
        }
        if let Some(off) = page.repairs.length {
            let way = if off > 0 { "short" } else { "long" };
            let by = off.unsigned_abs();
            self.log(format_args!(
                "{at}: Content-Length is {by} bytes too {way}; the record is read to where \
                 the next one starts (flagged content_length)"
            ));
        }
        if page.repairs.cut {
            self.log(format_args!(
                "{at}: the file ends inside this record; what came before the cut is kept \
                 (flagged cut)"
            ));
        }
        if page.repairs.date {
            self.file_mended_dates += 1;
            if self.file_mended_dates == 1 {
                self.log(format_args!(
                    "{at}: WARC-Date {:?} has the day of the year for the day of the month; \
                     read as the day it names (flagged date); further ones in this file are \
                     only counted",
                    page.date.as_deref().unwrap_or_default()
                ));
            }
        }
    }

    /// Logs a bad record (or garbage) with its file and offset.
    fn log_failure(&self, name: &str, item: &Item, pos: warc::RecordPos, message: &str) {
        let inner = inner_offset(pos);
        let offset = pos.offset;
        match item {
            // The message names the member's offset itself.
            Item::Bad { error, .. } if error.is_member_level() => self.log(format_args!(
                "{name}: {message}; reading goes on at the next member"
            )),
            Item::Bad {
                error: WarcError::Container(ContainerError::Garbage { .. }),
                ..
            } => self.log(format_args!("{name}: at offset {offset}{inner}: {message}")),
            _ => self.log(format_args!(
                "{name}: record at offset {offset}{inner}: {message}"
            )),
        }
    }

    /// A message on stderr, with the progress bar (when shown) cleared
    /// while it is printed and drawn again below it.
    fn log(&self, message: std::fmt::Arguments) {
        match &self.bar {
            Some(bar) => bar.suspend(|| say!("linesift: {message}")),
            None => say!("linesift: {message}"),
        }
    }

    fn print(&self) {
        let skipped: u64 = self.skipped.values().sum();
        let repaired: u64 = self.repaired.values().sum();
        say!(
            "linesift warc: {} records read, {} HTML, {} extracted, {} skipped, {} errors{}{}{}{}",
            self.records,
            self.html,
            self.extracted,
            skipped,
            self.errors,
            // What the exit code 1 says.
            match self.failed_files {
                0 => String::new(),
                n => format!(", {n} failed inputs"),
            },
            match self.truncated_files {
                0 => String::new(),
                n => format!(", {n} truncated files"),
            },
            match self.unread_dates {
                0 => String::new(),
                n => format!(", {n} WARC-Dates not read"),
            },
            match repaired {
                0 => String::new(),
                n => format!(", {n} repairs"),
            }
        );
        if !self.repaired.is_empty() {
            let kinds: Vec<String> = self
                .repaired
                .iter()
                .map(|(k, v)| format!("{k} {v}"))
                .collect();
            say!("  repaired: {}", kinds.join(", "));
        }
        if !self.skipped.is_empty() {
            let reasons: Vec<String> = self
                .skipped
                .iter()
                .map(|(k, v)| format!("{k} {v}"))
                .collect();
            say!("  skipped: {}", reasons.join(", "));
        }
    }
}

/// A record's place inside its member, as logs write it after the
/// member's offset (`+N`), or nothing for the member's first record.
fn inner_offset(pos: warc::RecordPos) -> String {
    match pos.inner {
        0 => String::new(),
        n => format!("+{n}"),
    }
}

fn progress_bar(inputs: &[PathBuf]) -> ProgressBar {
    if !io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let total: u64 = inputs
        .iter()
        .filter_map(|i| std::fs::metadata(i).ok())
        .map(|m| m.len())
        .sum();
    let bar = ProgressBar::new(total);
    if let Ok(style) = ProgressStyle::with_template(
        "{bar:30} {bytes}/{total_bytes} {bytes_per_sec} {msg} eta {eta}",
    ) {
        bar.set_style(style);
    }
    bar
}
