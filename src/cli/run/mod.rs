//! `linesift run`: the worker's pipeline in one process, without a
//! broker. Task lists in (URLs, WARC files, `path offset length` records,
//! told apart per line); each task run by the worker's own `Processor`
//! on `--jobs` at once, transient failures tried again up to the delivery
//! limit; documents out as JSONL or WET, failures as JSONL of the
//! worker's `Failure` events (`dead_lettered` marks a fault, which the
//! worker would dead-letter).
//!
//! A file output is resumable: a journal beside it (`OUT.journal`)
//! records each finished task once its results are written and synced,
//! so a run killed (even by SIGKILL) and started again with the same
//! lists skips the tasks done, cuts the files back to the last commit and
//! writes no document twice and loses none. Output to stdout cannot be
//! resumed. Ctrl-C (or SIGTERM) stops taking tasks and finishes those in
//! flight; a second one abandons them (they are run again on resume).
//!
//! Exit code: 0 when no task of the job failed, 1 when some did (an
//! outcome or a fault, including bad lines), 2 on a fatal error; a run
//! stopped by a signal dies by it (by the second, when a second abandoned
//! the tasks in flight), as the other commands do.

mod journal;
mod output;
mod tasks;
mod work;

use super::interrupt;
use super::warc::{Format, OutCompression, default_format, refuse_input_as_output};
use super::worker::{TaskArgs, seconds};
use super::{one_file, printable, printable_path};
use anyhow::{Context, bail};
use indicatif::ProgressBar;
use journal::Journal;
use linesift::Extractor;
use linesift::fetch::Fetcher;
use linesift::proto::Task;
use linesift::sink::writer::compression_for;
use linesift::worker::config::DEFAULT_DELIVERY_LIMIT;
use linesift::worker::process::task_failure;
use linesift::worker::{Metrics, Processor};
use output::{Encoding, Finished, Outputs};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;
use tasks::Planned;
use tokio::task::JoinSet;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// Task lists, `-` for stdin (none: stdin). A line is a URL (http or
    /// https), a WARC record (`path offset length`, the path local,
    /// https:// or s3://) or a WARC file (a path, an s3:// location or a
    /// URL ending in .warc, .warc.gz or .warc.zst); blank lines and `#`
    /// comments are skipped, and a line listed twice is one task. A list
    /// may be Common Crawl's index instead (see --warc-prefix).
    lists: Vec<PathBuf>,
    /// Documents file (`-`: stdout, the default). A file output keeps a
    /// journal beside it (OUT.journal): the same command run again
    /// resumes the job where it stopped, and does nothing once it is done.
    #[arg(long, short)]
    output: Option<PathBuf>,
    /// Failures file, JSON lines (default: OUT.failures.jsonl beside a
    /// file output; with stdout, a line each on stderr).
    #[arg(long)]
    failures: Option<PathBuf>,
    /// Document format: jsonl (the worker's document messages), markdown
    /// (jsonl with each document's `markdown`), or wet (default when OUT
    /// ends in .warc or .wet, before any .gz or .zst).
    #[arg(long)]
    format: Option<Format>,
    /// Compression: auto (by name: .gz, .zst), none, gzip, zstd. Each
    /// task's documents are a gzip member or zstd frame of their own.
    #[arg(long, default_value = "auto")]
    compress: OutCompression,
    /// Tasks run at once (default: the number of cores; at least 1).
    #[arg(long, short, value_parser = super::options::at_least_one())]
    jobs: Option<usize>,
    /// Tries of a task that keeps failing transiently (timeouts, 5xx, I/O
    /// errors) before it is a fault, as the worker's delivery limit (at
    /// least 1).
    #[arg(long, env = "LINESIFT_DELIVERY_LIMIT", default_value_t = DEFAULT_DELIVERY_LIMIT,
          value_parser = clap::value_parser!(u32).range(1..))]
    delivery_limit: u32,
    /// Seconds between tries of a task.
    #[arg(long, env = "LINESIFT_RETRY_DELAY", default_value_t = 1.0)]
    retry_delay: f64,
    /// A list that is Common Crawl's index (its first line a CDXJ or JSON
    /// entry, or a CSV/TSV header naming warc_filename) gives a record
    /// task a kept entry.
    #[command(flatten)]
    index: super::index::IndexArgs,
    #[command(flatten)]
    task: TaskArgs,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let lists = match args.lists.as_slice() {
        [] => vec![PathBuf::from("-")],
        lists => lists.to_vec(),
    };
    if lists.iter().filter(|l| *l == Path::new("-")).count() > 1 {
        bail!("stdin (`-`) can be read once: name it once");
    }
    let output = args.output.clone().filter(|o| o != Path::new("-"));
    if let Some(out) = &output {
        refuse_input_as_output(out, &lists)?;
    }
    if let Some(failures) = failures_path(&args, output.as_deref()) {
        refuse_failures_clash(&failures, output.as_deref(), &lists)?;
    }
    let encoding = encoding(&args, output.as_deref());
    let plan = tasks::read(&lists, &args.index.options())?;
    let retry = work::Retry {
        limit: args.delivery_limit,
        delay: seconds(args.retry_delay, "retry-delay")?,
    };
    let jobs = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    let job = Job {
        processor: runtime.block_on(processor(&args.task, encoding.format))?,
        encoding,
        retry,
        jobs,
    };
    // Opened last: past this, nothing fails before the tasks run, and a
    // failure on the way leaves no file the run made.
    let (outputs, resumed, journal) = open_outputs(&args, output.as_deref(), encoding)?;
    let mut summary = Summary::new(&plan, &resumed);
    let todo: Vec<Planned> = plan
        .tasks
        .into_iter()
        .filter(|p| !resumed.contains_key(&p.id))
        .collect();
    if let Some(code) = summary.nothing_to_do(todo.len(), journal.as_deref()) {
        return Ok(code);
    }
    plan_remote_reads(&todo);
    let stopped = runtime.block_on(job.run(todo, outputs, &mut summary))?;
    runtime.shutdown_background();
    summary.print();
    if let Some(stop) = stopped {
        say_interrupted(stop, &summary, journal.as_deref());
        match stop.by {
            Signal::Interrupt => interrupt::die_by_interrupt(),
            Signal::Terminate => interrupt::die_by_termination(),
        }
    }
    Ok(summary.exit_code())
}

/// Tells the remote reader the records to come, in order: those of one
/// remote file listed one after the other are read by one request (see
/// `linesift::remote::plan_reads`).
fn plan_remote_reads(todo: &[Planned]) {
    use linesift::proto::task::Source;
    let spans: Vec<linesift::remote::Span> = todo
        .iter()
        .filter_map(|p| match p.task.as_ref().ok()?.source.as_ref()? {
            Source::WarcRecord(r) if linesift::remote::is_remote(&r.path) => {
                Some(linesift::remote::Span {
                    location: r.path.clone(),
                    offset: r.offset,
                    length: r.length,
                })
            }
            _ => None,
        })
        .collect();
    if !spans.is_empty() {
        linesift::remote::plan_reads(&spans);
    }
}

/// How documents and failures are encoded, by the flags and names.
fn encoding(args: &Args, output: Option<&Path>) -> Encoding {
    let name = output.map(|o| o.to_string_lossy().into_owned());
    let name = name.as_deref().unwrap_or("");
    let failures = failures_path(args, output);
    Encoding {
        format: args.format.unwrap_or_else(|| default_format(name)),
        compression: args.compress.resolve(name),
        failures: failures.map_or(linesift::warc::Compression::None, |f| {
            compression_for(&f.to_string_lossy())
        }),
    }
}

fn failures_path(args: &Args, output: Option<&Path>) -> Option<PathBuf> {
    args.failures.clone().or_else(|| {
        output.map(|out| {
            let mut name = out.as_os_str().to_owned();
            name.push(".failures.jsonl");
            PathBuf::from(name)
        })
    })
}

/// Refuses a failures file that is a task list (it would be cut to
/// nothing), the output (both would be written to one file) or the
/// output's journal (which it would break), however each is spelt.
fn refuse_failures_clash(
    failures: &Path,
    output: Option<&Path>,
    lists: &[PathBuf],
) -> anyhow::Result<()> {
    let shown = printable_path(failures);
    if let Some(list) = lists.iter().find(|l| one_file(failures, l)) {
        bail!(
            "--failures {shown} is the task list {}: it would be overwritten",
            printable_path(list)
        );
    }
    let Some(out) = output else {
        return Ok(());
    };
    if one_file(failures, out) {
        bail!("--failures {shown} is the output");
    }
    if one_file(failures, &journal_path(out)) {
        bail!("--failures {shown} is the output's journal");
    }
    Ok(())
}

/// The journal beside a file output.
fn journal_path(out: &Path) -> PathBuf {
    let mut name = out.as_os_str().to_owned();
    name.push(".journal");
    PathBuf::from(name)
}

/// The outputs, the tasks done before (a file output's journal) and the
/// journal's path. On an error, the files made here are removed again;
/// those there before are kept as they were.
fn open_outputs(
    args: &Args,
    output: Option<&Path>,
    encoding: Encoding,
) -> anyhow::Result<(Outputs, BTreeMap<String, bool>, Option<PathBuf>)> {
    let failures = failures_path(args, output);
    // Named by the output and the task lists, as `linesift warc` names it
    // by its inputs.
    let lists: Vec<String> = args.lists.iter().map(|l| l.display().to_string()).collect();
    let wet_info = matches!(encoding.format, Format::Wet)
        .then(|| crate::cli::warc::wet_info(output.filter(|o| *o != Path::new("-")), &lists));
    let Some(out) = output else {
        let outputs = Outputs::streams(None, failures.as_deref(), encoding, wet_info)?;
        return Ok((outputs, BTreeMap::new(), None));
    };
    if std::fs::metadata(out).is_ok_and(|m| !m.is_file()) {
        say!(
            "linesift run: {} is no regular file: written as it goes, with no journal \
             (the run cannot be resumed)",
            printable_path(out)
        );
        // Failures beside it only when asked for (not `/dev/null.failures.jsonl`).
        let outputs = Outputs::streams(Some(out), args.failures.as_deref(), encoding, wet_info)?;
        return Ok((outputs, BTreeMap::new(), None));
    }
    let journal_path = journal_path(out);
    let failures = failures.unwrap_or_default();
    // A resumed run cuts its files back: they must be the same files.
    let settings = format!(
        "{}, failures to {}",
        encoding.describe(),
        failures.display()
    );
    // The output first: one that cannot be opened (its folder missing,
    // say) is named as given, not by its journal. It is cut back once the
    // journal says to what.
    let (documents, documents_made) =
        output::open_or_make(out).with_context(|| format!("opening {}", printable_path(out)))?;
    let (journal, resumed) = match Journal::open(&journal_path, &settings) {
        Ok(opened) => opened,
        Err(e) => {
            // Unless another run holds the journal: it may be writing to
            // the output, made here or not.
            if documents_made && !e.is::<journal::InUse>() {
                let _ = std::fs::remove_file(out);
            }
            return Err(e);
        }
    };
    // Dropped before the journal on an error, so that the files made are
    // removed (the journal last) while this run still holds the journal
    // and no other run can have taken them up.
    let mut made = output::Made::default();
    if journal.made() {
        made.push(&journal_path);
    }
    if documents_made {
        made.push(out);
    }
    let files = output::Files::open(
        (documents, out),
        &failures,
        &resumed,
        &journal_path,
        &mut made,
    )?;
    made.keep();
    let outputs = Outputs::files(files, encoding, journal, &resumed, wet_info);
    let done = resumed.done.into_iter().collect();
    Ok((outputs, done, Some(journal_path)))
}

/// The worker's processor, from the same flags.
async fn processor(task: &TaskArgs, format: Format) -> anyhow::Result<Arc<Processor>> {
    let extractor = Extractor::new(format.options(task.extract.options()));
    let fetcher = Fetcher::new(extractor.clone(), task.fetch_options()?)?;
    let metrics = Metrics::new()?;
    let processor = Processor::new(fetcher, extractor, task.reader(), metrics);
    Ok(Arc::new(processor.with_deadline(task.task_deadline()?)))
}

/// What runs the tasks.
struct Job {
    processor: Arc<Processor>,
    encoding: Encoding,
    retry: work::Retry,
    jobs: usize,
}

/// A signal that stops a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Signal {
    /// SIGINT (Ctrl-C).
    Interrupt,
    /// SIGTERM (`kill`, a supervisor stopping the job).
    Terminate,
}

/// How a run was stopped early.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Stop {
    /// A second signal abandoned the tasks in flight (else they were
    /// finished).
    abandoned: bool,
    /// The last signal, which the process dies by.
    by: Signal,
}

impl Job {
    /// Runs `todo`, `jobs` at once, committing what finishes; `Some` when
    /// stopped by a signal.
    async fn run(
        self,
        todo: Vec<Planned>,
        mut outputs: Outputs,
        summary: &mut Summary,
    ) -> anyhow::Result<Option<Stop>> {
        let bar = super::progress::counted(todo.len(), "tasks");
        summary.bar = bar.clone();
        let (presses, mut pressed) = tokio::sync::watch::channel((0u32, Signal::Interrupt));
        tokio::spawn(count_presses(presses));
        let mut queue = todo.into_iter();
        let mut in_flight = JoinSet::new();
        let mut places = BTreeMap::new();
        let mut ready = Vec::new();
        let mut stop = None;
        loop {
            while stop.is_none() && in_flight.len() < self.jobs {
                let Some(planned) = queue.next() else { break };
                match planned.task {
                    Ok(task) => {
                        let handle = in_flight.spawn(self.task(task, &planned.place, &bar));
                        places.insert(handle.id(), (planned.id, planned.place));
                    }
                    Err(reason) => {
                        // Told once: with no failures file, as its failure.
                        if !outputs.failures_on_stderr() {
                            summary.say(&format!("{}: {reason}", planned.place));
                        }
                        ready.push(bad_line(&planned.id, &planned.place, &reason));
                    }
                }
            }
            if !ready.is_empty() {
                outputs.commit(&ready, &|m| summary.say(m))?;
                summary.count(&ready);
                ready.clear();
            }
            if in_flight.is_empty() && (stop.is_some() || queue.len() == 0) {
                break;
            }
            tokio::select! {
                joined = in_flight.join_next_with_id() => {
                    ready.extend(joined.map(|j| joined_task(j, &mut places)));
                    while let Some(j) = in_flight.try_join_next_with_id() {
                        ready.push(joined_task(j, &mut places));
                    }
                }
                _ = pressed.changed() => match *pressed.borrow_and_update() {
                    (0, _) => {}
                    (1, by) => {
                        stop = Some(Stop { abandoned: false, by });
                        let (stopped, again) = match by {
                            Signal::Interrupt => ("interrupted", "Ctrl-C again"),
                            Signal::Terminate => ("stopped by SIGTERM", "a second SIGTERM"),
                        };
                        summary.say(&format!(
                            "{stopped}: finishing the {} task(s) in flight; {again} \
                             abandons them",
                            in_flight.len()
                        ));
                    }
                    (_, by) => {
                        stop = Some(Stop { abandoned: true, by });
                        in_flight.abort_all();
                        while in_flight.join_next().await.is_some() {}
                        break;
                    }
                },
            }
        }
        bar.finish_and_clear();
        Ok(stop)
    }

    /// One task, to its end.
    fn task(
        &self,
        task: Task,
        place: &str,
        bar: &ProgressBar,
    ) -> impl Future<Output = Finished> + Send + 'static {
        let (processor, encoding, retry) = (self.processor.clone(), self.encoding, self.retry);
        let (bar, place) = (bar.clone(), place.to_string());
        work::run(processor, task, encoding, retry, move |message| {
            let line = format!("{place}: {message}");
            bar.suspend(|| say!("linesift run: {}", printable(&line)));
        })
    }
}

/// A joined task's results; a task that panicked is a fault, as the
/// worker dead-letters it.
fn joined_task(
    joined: Result<(tokio::task::Id, Finished), tokio::task::JoinError>,
    places: &mut BTreeMap<tokio::task::Id, (String, String)>,
) -> Finished {
    match joined {
        Ok((id, finished)) => {
            places.remove(&id);
            finished
        }
        Err(e) => {
            let (id, place) = places.remove(&e.id()).unwrap_or_default();
            let reason = format!("{place}: {e}");
            failed(id, "process", "panic", &reason)
        }
    }
}

/// A line that is no task: a fault of the list, recorded once.
fn bad_line(id: &str, place: &str, reason: &str) -> Finished {
    failed(
        id.to_string(),
        "decode",
        "invalid_message",
        &format!("{place}: {reason}"),
    )
}

/// A task that failed for good, with nothing else to show.
fn failed(id: String, stage: &str, kind: &str, reason: &str) -> Finished {
    let failure = linesift::proto::Failure {
        task_id: id.clone(),
        ..task_failure(None, stage, kind, reason, true)
    };
    Finished {
        id,
        documents: Vec::new(),
        document_count: 0,
        repairs: BTreeMap::new(),
        first_date: None,
        failures: vec![failure],
        failed: true,
    }
}

/// Counts SIGINT (Ctrl-C) and SIGTERM on `count`, with the last of them;
/// never returns, so the count's receiver never sees it closed. SIGINT
/// or SIGTERM ignored when the process started (`nohup`, a script's
/// background job, `trap '' TERM`) stays ignored.
async fn count_presses(count: tokio::sync::watch::Sender<(u32, Signal)>) {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let mut int = match interrupt::sigint_ignored() {
            true => None,
            false => signal(SignalKind::interrupt()).ok(),
        };
        let mut term = match interrupt::sigterm_ignored() {
            true => None,
            false => signal(SignalKind::terminate()).ok(),
        };
        loop {
            let by = tokio::select! {
                Some(()) = next_signal(&mut int) => Signal::Interrupt,
                Some(()) = next_signal(&mut term) => Signal::Terminate,
                else => break,
            };
            count.send_modify(|(n, last)| (*n, *last) = (*n + 1, by));
        }
    }
    #[cfg(not(unix))]
    while tokio::signal::ctrl_c().await.is_ok() {
        count.send_modify(|(n, last)| (*n, *last) = (*n + 1, Signal::Interrupt));
    }
    std::future::pending::<()>().await;
}

/// The next of a signal's deliveries (never, when it is not watched).
#[cfg(unix)]
async fn next_signal(signal: &mut Option<tokio::signal::unix::Signal>) -> Option<()> {
    match signal {
        Some(signal) => signal.recv().await,
        None => std::future::pending().await,
    }
}

/// What a run did, for the line at the end and the exit code.
struct Summary {
    bar: ProgressBar,
    planned: usize,
    todo: usize,
    duplicates: usize,
    before: usize,
    before_failed: usize,
    ok: u64,
    failed: u64,
    documents: u64,
    kinds: BTreeMap<String, u64>,
    /// Documents read by a repair of their WARC record, by repair.
    repairs: BTreeMap<String, u64>,
}

impl Summary {
    fn new(plan: &tasks::Plan, done: &BTreeMap<String, bool>) -> Self {
        let before: Vec<bool> = plan
            .tasks
            .iter()
            .filter_map(|p| done.get(&p.id).copied())
            .collect();
        Summary {
            bar: ProgressBar::hidden(),
            planned: plan.tasks.len(),
            todo: plan.tasks.len() - before.len(),
            duplicates: plan.duplicates,
            before: before.len(),
            before_failed: before.iter().filter(|f| **f).count(),
            ok: 0,
            failed: 0,
            documents: 0,
            kinds: BTreeMap::new(),
            repairs: BTreeMap::new(),
        }
    }

    /// Says so and gives the exit code when there is nothing to run.
    fn nothing_to_do(&self, todo: usize, journal: Option<&Path>) -> Option<ExitCode> {
        if todo > 0 {
            return None;
        }
        if self.planned == 0 {
            say!("linesift run: warning: the task lists hold no task");
            return Some(ExitCode::SUCCESS);
        }
        let journal = journal.map_or(String::new(), |j| {
            format!(" (journal {})", printable_path(j))
        });
        say!(
            "linesift run: all {} task(s) were done before{journal}, {} of them failed; \
             nothing to do",
            self.planned,
            self.before_failed
        );
        Some(self.exit_code())
    }

    /// A message on stderr, under the progress bar when it is shown; the
    /// names in it (lists, WARC paths) with control characters escaped.
    fn say(&self, message: &str) {
        self.bar
            .suspend(|| say!("linesift run: {}", printable(message)));
    }

    fn count(&mut self, batch: &[Finished]) {
        for finished in batch {
            match finished.failed {
                true => self.failed += 1,
                false => self.ok += 1,
            }
            self.documents += finished.document_count;
            for (repair, n) in &finished.repairs {
                *self.repairs.entry(repair.clone()).or_default() += n;
            }
            for failure in &finished.failures {
                *self.kinds.entry(failure.kind.clone()).or_default() += 1;
            }
        }
        self.bar.inc(batch.len() as u64);
    }

    fn print(&self) {
        let mut line = format!(
            "linesift run: {} task(s) run: {} ok, {} failed; {} document(s)",
            self.ok + self.failed,
            self.ok,
            self.failed,
            self.documents
        );
        if !self.kinds.is_empty() {
            let kinds: Vec<String> = self.kinds.iter().map(|(k, n)| format!("{k} {n}")).collect();
            line.push_str(&format!("; failures: {}", kinds.join(", ")));
        }
        if !self.repairs.is_empty() {
            let kinds: Vec<String> = self
                .repairs
                .iter()
                .map(|(k, n)| format!("{k} {n}"))
                .collect();
            line.push_str(&format!("; repaired: {}", kinds.join(", ")));
        }
        if self.before > 0 {
            line.push_str(&format!(
                "; {} done before ({} failed)",
                self.before, self.before_failed
            ));
        }
        if self.duplicates > 0 {
            line.push_str(&format!("; {} duplicate line(s) skipped", self.duplicates));
        }
        say!("{line}");
    }

    fn left(&self) -> u64 {
        self.todo as u64 - self.ok - self.failed
    }

    fn exit_code(&self) -> ExitCode {
        match self.failed as usize + self.before_failed {
            0 => ExitCode::SUCCESS,
            _ => ExitCode::from(1),
        }
    }
}

/// How an interrupted run left the job, and how to go on.
fn say_interrupted(stop: Stop, summary: &Summary, journal: Option<&Path>) {
    let stopped = match stop.by {
        Signal::Interrupt => "interrupted",
        Signal::Terminate => "stopped by SIGTERM",
    };
    let how = match stop.abandoned {
        false => "the tasks in flight were finished",
        true => "the tasks in flight were abandoned",
    };
    let next = match journal {
        Some(j) => format!(
            "run the same command again to resume (journal {})",
            printable_path(j)
        ),
        None => "output to stdout cannot be resumed: run again with -o FILE".to_string(),
    };
    say!(
        "linesift run: {stopped} ({how}); {} task(s) left: {next}",
        summary.left()
    );
}
