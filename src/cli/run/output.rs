//! What `linesift run` writes: each task's documents, encoded on its own
//! (JSONL lines of the worker's document messages, or WET records, by the
//! writers `linesift warc` uses; compressed as gzip members or zstd
//! frames of their own, so that the file is whole at every task's end),
//! and the failures as JSONL of the worker's `Failure` events. Appends a
//! batch of finished tasks, syncs, then commits them to the journal; on
//! start, cuts the files back to the journal's lengths, dropping what a
//! killed run wrote after its last commit. Runs no task.

use super::journal::{Journal, Resumed};
use crate::cli::printable_path;
use crate::cli::warc::Format;
use anyhow::{Context, bail};
use linesift::Document;
use linesift::proto::{DocumentMessage, Failure, Task, task};
use linesift::sink::{JsonlWriter, Source, WetInfo, WetWriter, writer};
use linesift::warc::{Compression, RecordPos};
use linesift::worker::process::Capture;
use std::collections::BTreeMap;
use std::fs::{File, OpenOptions};
use std::io::{self, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

/// How documents and failures are encoded.
#[derive(Debug, Clone, Copy)]
pub struct Encoding {
    pub format: Format,
    pub compression: Compression,
    pub failures: Compression,
}

impl Encoding {
    /// The settings a resumed run must keep, as the journal records them.
    pub fn describe(&self) -> String {
        format!(
            "{:?} {:?}, failures {:?}",
            self.format, self.compression, self.failures
        )
        .to_ascii_lowercase()
    }
}

/// One task's documents, encoded as they come.
pub struct TaskDocuments {
    encoding: Encoding,
    sink: Option<DocumentSink>,
    pub count: u64,
    /// Documents whose WARC record the reader mended, by repair
    /// (`warc_repaired`).
    pub repairs: BTreeMap<String, u64>,
    /// The WARC-Date of the task's first WET record: a fresh file's
    /// warcinfo record is dated by it, as `linesift warc` dates it.
    pub first_date: Option<String>,
}

enum DocumentSink {
    Jsonl(Box<JsonlWriter<Vec<u8>>>),
    Wet(WetWriter<Vec<u8>>),
}

impl TaskDocuments {
    pub fn new(encoding: Encoding) -> Self {
        TaskDocuments {
            encoding,
            sink: None,
            count: 0,
            repairs: BTreeMap::new(),
            first_date: None,
        }
    }

    /// Encodes one document of `task` (from the WARC record `capture`).
    pub fn push(
        &mut self,
        task: &Task,
        doc: &DocumentMessage,
        capture: Option<&Capture>,
    ) -> io::Result<()> {
        let (format, compression) = (self.encoding.format, self.encoding.compression);
        let sink = match &mut self.sink {
            Some(sink) => sink,
            none => none.insert(match format {
                Format::Jsonl | Format::Markdown => {
                    DocumentSink::Jsonl(Box::new(JsonlWriter::new(Vec::new(), compression)?))
                }
                Format::Wet => DocumentSink::Wet(WetWriter::new(Vec::new(), compression)),
            }),
        };
        match sink {
            DocumentSink::Jsonl(out) => out.write_value(doc)?,
            DocumentSink::Wet(out) => {
                let first = &mut self.first_date;
                wet_record(task, doc, capture, |source, document| {
                    first.get_or_insert_with(|| writer::wet_date(source));
                    out.write(source, document)
                })?;
            }
        }
        self.count += 1;
        for repair in &doc.warc_repaired {
            *self.repairs.entry(repair.clone()).or_default() += 1;
        }
        Ok(())
    }

    /// The encoded bytes, a whole compressed member or frame (none for a
    /// task without documents).
    pub fn finish(self) -> io::Result<Vec<u8>> {
        match self.sink {
            None => Ok(Vec::new()),
            Some(DocumentSink::Jsonl(out)) => out.finish(),
            Some(DocumentSink::Wet(out)) => out.finish(),
        }
    }
}

/// Writes a document as a WET conversion record: dated and named by its
/// WARC record's capture, as `linesift warc` writes it; a fetched page's
/// has none, and is dated as such (`writer::UNKNOWN_DATE`), so that the
/// output is a function of the input.
fn wet_record<T>(
    task: &Task,
    doc: &DocumentMessage,
    capture: Option<&Capture>,
    write: impl FnOnce(&Source, &Document) -> io::Result<T>,
) -> io::Result<T> {
    let file = match &task.source {
        Some(task::Source::WarcFile(f)) => f.path.as_str(),
        Some(task::Source::WarcRecord(r)) => r.path.as_str(),
        Some(task::Source::WarcRecords(b)) => b.path.as_str(),
        _ => "",
    };
    let url = (!doc.url.is_empty()).then_some(doc.url.as_str());
    let source = match capture {
        Some(c) => Source {
            file,
            pos: c.pos,
            record_id: &c.record_id,
            target_uri: c.target_uri.as_deref(),
            date: c.date.as_deref(),
            http_date: c.http_date.as_deref(),
            truncated: c.truncated.as_deref(),
            repairs: c.repairs,
        },
        None => Source {
            file,
            pos: RecordPos {
                offset: 0,
                inner: 0,
            },
            record_id: &doc.url,
            target_uri: url,
            date: None,
            http_date: None,
            truncated: doc.truncated.then_some("length"),
            repairs: linesift::warc::Repairs::default(),
        },
    };
    let document = Document {
        headline: doc.headline.clone(),
        text: doc.text.clone(),
        language: doc.language.clone(),
        ..Document::default()
    };
    write(&source, &document)
}

/// A task's results, ready to be appended.
pub struct Finished {
    pub id: String,
    pub documents: Vec<u8>,
    pub document_count: u64,
    /// [`TaskDocuments::repairs`].
    pub repairs: BTreeMap<String, u64>,
    /// [`TaskDocuments::first_date`].
    pub first_date: Option<String>,
    pub failures: Vec<Failure>,
    /// The task as a whole failed (its last failure says how).
    pub failed: bool,
}

/// Where documents or failures go.
enum Target {
    File {
        file: File,
        path: PathBuf,
        len: u64,
    },
    /// Stdout, or a file that is no regular file (a FIFO, `/dev/null`):
    /// written as it goes, with no journal.
    Stream(Box<dyn Write + Send>, String),
    /// Failures with no file (output to stdout): a line each on stderr.
    Stderr,
}

impl Target {
    fn append(&mut self, bytes: &[u8]) -> io::Result<()> {
        match self {
            Target::File { file, len, .. } => {
                file.write_all(bytes)?;
                *len += bytes.len() as u64;
                Ok(())
            }
            Target::Stream(out, _) => out.write_all(bytes),
            Target::Stderr => Ok(()),
        }
    }

    fn sync(&mut self) -> io::Result<()> {
        match self {
            Target::File { file, .. } => file.sync_data(),
            Target::Stream(out, _) => out.flush(),
            Target::Stderr => Ok(()),
        }
    }

    fn len(&self) -> u64 {
        match self {
            Target::File { len, .. } => *len,
            _ => 0,
        }
    }

    fn name(&self) -> String {
        match self {
            Target::File { path, .. } => printable_path(path),
            Target::Stream(_, name) => name.clone(),
            Target::Stderr => "stderr".into(),
        }
    }
}

/// The outputs and, for file outputs, the journal.
pub struct Outputs {
    documents: Target,
    failures: Target,
    failures_compression: Compression,
    journal: Option<Journal>,
    /// The warcinfo record a WET output still needs at its start (none
    /// for JSONL, or a resumed file that has it).
    wet_info: Option<WetInfo>,
    documents_compression: Compression,
}

/// The documents and failures files of a file output, opened and cut
/// back to the journal's lengths.
pub struct Files {
    documents: Target,
    failures: Target,
}

impl Files {
    /// Cuts back the documents file, opened before the journal, and opens
    /// the failures file, each to its committed length (`resumed` from the
    /// journal at `journal`); a file made here is noted in `made`, to be
    /// removed if the run fails before it starts.
    pub fn open(
        (documents, path): (File, &Path),
        failures: &Path,
        resumed: &Resumed,
        journal: &Path,
        made: &mut Made,
    ) -> anyhow::Result<Self> {
        let documents = cut_back(documents, path, resumed.documents_len, journal)?;
        let failures = match is_special(failures) {
            true => stream_file(failures)?,
            false => resume_file(failures, resumed.failures_len, journal, made)?,
        };
        Ok(Files {
            documents,
            failures,
        })
    }
}

impl Outputs {
    /// Files resumed from `journal`, which holds their lengths.
    pub fn files(
        files: Files,
        encoding: Encoding,
        journal: Journal,
        resumed: &Resumed,
        wet_info: Option<WetInfo>,
    ) -> Self {
        Outputs {
            wet_info: wet_info.filter(|_| resumed.documents_len == 0),
            documents_compression: encoding.compression,
            documents: files.documents,
            failures: files.failures,
            failures_compression: encoding.failures,
            journal: Some(journal),
        }
    }

    /// Documents to `documents` (`None`: stdout) as they come, with no
    /// journal; failures to `failures` (made anew) or stderr.
    pub fn streams(
        documents: Option<&Path>,
        failures: Option<&Path>,
        encoding: Encoding,
        wet_info: Option<WetInfo>,
    ) -> anyhow::Result<Self> {
        let documents = match documents {
            Some(path) => stream_file(path)?,
            None => Target::Stream(Box::new(io::stdout()), "stdout".into()),
        };
        let failures = match failures {
            Some(path) if is_special(path) => stream_file(path)?,
            Some(path) => Target::File {
                file: File::create(path)
                    .with_context(|| format!("creating {}", printable_path(path)))?,
                path: path.to_path_buf(),
                len: 0,
            },
            None => Target::Stderr,
        };
        Ok(Outputs {
            wet_info,
            documents_compression: encoding.compression,
            documents,
            failures,
            failures_compression: encoding.failures,
            journal: None,
        })
    }

    /// Whether each failure is told on stderr (there is no failures file).
    pub fn failures_on_stderr(&self) -> bool {
        matches!(self.failures, Target::Stderr)
    }

    /// Appends finished tasks' results, syncs the files, and commits the
    /// tasks to the journal: after a kill, the journal never names a task
    /// whose results are not whole in the files.
    pub fn commit(&mut self, batch: &[Finished], say: &dyn Fn(&str)) -> anyhow::Result<()> {
        for finished in batch {
            if let Some(date) = &finished.first_date
                && let Some(info) = self.wet_info.take()
            {
                let record = writer::warcinfo_bytes(&info, date, self.documents_compression)?;
                self.documents
                    .append(&record)
                    .with_context(|| format!("writing {}", self.documents.name()))?;
            }
            self.documents
                .append(&finished.documents)
                .with_context(|| format!("writing {}", self.documents.name()))?;
            self.write_failures(&finished.failures, say)
                .with_context(|| format!("writing {}", self.failures.name()))?;
        }
        self.documents
            .sync()
            .with_context(|| format!("writing {}", self.documents.name()))?;
        self.failures
            .sync()
            .with_context(|| format!("writing {}", self.failures.name()))?;
        if let Some(journal) = &self.journal {
            let tasks: Vec<(String, bool)> =
                batch.iter().map(|f| (f.id.clone(), f.failed)).collect();
            journal.commit(&tasks, self.documents.len(), self.failures.len())?;
        }
        Ok(())
    }

    fn write_failures(&mut self, failures: &[Failure], say: &dyn Fn(&str)) -> io::Result<()> {
        if failures.is_empty() {
            return Ok(());
        }
        if let Target::Stderr = self.failures {
            for f in failures {
                say(&format!(
                    "task {}: {}/{}: {}",
                    f.task_id, f.stage, f.kind, f.reason
                ));
            }
            return Ok(());
        }
        let mut out = JsonlWriter::new(Vec::new(), self.failures_compression)?;
        for failure in failures {
            out.write_value(failure)?;
        }
        self.failures.append(&out.finish()?)
    }
}

/// Whether `path` is there and no regular file (a FIFO, `/dev/null`),
/// which is written as it goes: it can be neither cut back nor synced.
fn is_special(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|m| !m.is_file())
}

/// A file that is no regular file, written as it goes.
fn stream_file(path: &Path) -> anyhow::Result<Target> {
    let file = OpenOptions::new()
        .write(true)
        .open(path)
        .with_context(|| format!("opening {}", printable_path(path)))?;
    Ok(Target::Stream(Box::new(file), printable_path(path)))
}

/// Opens `path` for reading and writing, making it when it is not there
/// (never cutting it); whether this call made it. Made with `create_new`,
/// so that when two runs race to make one file, only one counts it made.
pub fn open_or_make(path: &Path) -> io::Result<(File, bool)> {
    let mut options = OpenOptions::new();
    options.read(true).write(true);
    match options.clone().create_new(true).open(path) {
        Ok(file) => Ok((file, true)),
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Ok((options.open(path)?, false)),
        Err(e) => Err(e),
    }
}

/// The files a run made (they were not there before it), removed when it
/// is dropped unless kept: a run that fails before it starts (a failures
/// file it cannot open, a journal of other settings) leaves nothing
/// behind, and a file there before (a job being resumed) is never
/// removed. Dropped while the journal is still held, so that no other
/// run can have taken up the files it removes.
#[derive(Default)]
pub struct Made(Vec<PathBuf>);

impl Made {
    /// Notes a file this run made, to be removed if it fails.
    pub fn push(&mut self, path: &Path) {
        self.0.push(path.to_path_buf());
    }

    /// The run starts: its files stay, whatever happens next.
    pub fn keep(mut self) {
        self.0.clear();
    }
}

impl Drop for Made {
    fn drop(&mut self) {
        for path in self.0.iter().rev() {
            let _ = std::fs::remove_file(path);
        }
    }
}

/// Opens `path` for appending after its first `committed` bytes, the rest
/// (written after the last commit of a killed run) cut off; made when it
/// is not there, and noted in `made`. A file shorter than that was changed
/// by someone else: resuming would lose results, so it is refused.
fn resume_file(
    path: &Path,
    committed: u64,
    journal: &Path,
    made: &mut Made,
) -> anyhow::Result<Target> {
    let (file, new) =
        open_or_make(path).with_context(|| format!("opening {}", printable_path(path)))?;
    if new {
        made.push(path);
    }
    cut_back(file, path, committed, journal)
}

/// `file` (at `path`) for appending after its first `committed` bytes,
/// the rest cut off, or refused when it is shorter (see [`resume_file`]).
fn cut_back(mut file: File, path: &Path, committed: u64, journal: &Path) -> anyhow::Result<Target> {
    let shown = printable_path(path);
    let len = file.metadata()?.len();
    if len < committed {
        bail!(
            "{shown} holds {len} bytes, fewer than the {committed} the journal {} records: \
             it was changed since; remove the journal to start the job again",
            printable_path(journal)
        );
    }
    file.set_len(committed)
        .with_context(|| format!("cutting {shown} back to its last commit"))?;
    file.seek(SeekFrom::End(0))?;
    Ok(Target::File {
        file,
        path: path.to_path_buf(),
        len: committed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a killed run wrote after its last commit is cut off; a file
    /// shorter than the journal says was changed by someone else, and
    /// resuming it would lose results: refused.
    #[test]
    fn a_file_is_cut_back_to_its_last_commit_and_a_shorter_one_refused() {
        let dir = std::env::temp_dir().join(format!("linesift-run-output-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join("out.jsonl");
        std::fs::write(&path, b"{\"a\":1}\n{\"b\":2}\n{\"c\":").expect("write");
        let journal = dir.join("out.jsonl.journal");
        let mut made = Made::default();
        let mut target = resume_file(&path, 16, &journal, &mut made).expect("resumed");
        target.append(b"{\"d\":4}\n").expect("append");
        assert_eq!(target.len(), 24);
        drop(target);
        let text = std::fs::read_to_string(&path).expect("read");
        assert_eq!(text, "{\"a\":1}\n{\"b\":2}\n{\"d\":4}\n");
        let refused = resume_file(&path, 100, &journal, &mut made)
            .err()
            .expect("refused");
        assert!(
            refused.to_string().contains("fewer than the 100"),
            "{refused}"
        );
        drop(made);
        assert!(path.exists(), "a file there before is never removed");
        let _ = std::fs::remove_dir_all(&dir);
    }

    /// A file a run made is removed when it fails before it starts, and
    /// stays once it starts.
    #[test]
    fn a_file_made_is_removed_unless_kept() {
        let dir = std::env::temp_dir().join(format!("linesift-run-made-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let (removed, kept) = (dir.join("removed.jsonl"), dir.join("kept.jsonl"));
        for (path, keep) in [(&removed, false), (&kept, true)] {
            let _ = std::fs::remove_file(path);
            let mut made = Made::default();
            resume_file(path, 0, &dir.join("journal"), &mut made).expect("made");
            assert!(path.exists());
            match keep {
                true => made.keep(),
                false => drop(made),
            }
        }
        assert!(!removed.exists() && kept.exists());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
