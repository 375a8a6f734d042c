//! The journal of a `linesift run` writing to files: which tasks are done
//! (and whether each failed), and the byte lengths of the documents and
//! failures files as of the last commit, which hold exactly those tasks'
//! results. It stores; it writes no output.
//!
//! redb: an embedded, crash-safe (copy-on-write, fsync on commit)
//! key-value store in pure Rust, so the build needs no C compiler, and it
//! locks its file, so two runs cannot share one journal.

use super::output::open_or_make;
use crate::cli::{printable, printable_path};
use anyhow::{Context, bail};
use redb::{Database, DatabaseError, ReadableTable, TableDefinition};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Done tasks: id to whether the task failed (1) or not (0).
const TASKS: TableDefinition<&str, u8> = TableDefinition::new("tasks");
/// The outputs' committed lengths.
const LENGTHS: TableDefinition<&str, u64> = TableDefinition::new("lengths");
/// How the outputs are written (format and compression), which a resumed
/// run must keep.
const SETTINGS: TableDefinition<&str, &str> = TableDefinition::new("settings");

const DOCUMENTS: &str = "documents";
const FAILURES: &str = "failures";
const OUTPUT: &str = "output";

/// What a journal held when it was opened.
#[derive(Debug, Default)]
pub struct Resumed {
    /// Done tasks, and whether each failed.
    pub done: HashMap<String, bool>,
    pub documents_len: u64,
    pub failures_len: u64,
}

/// The error of a journal that another run holds: what it names is that
/// run's, not to be touched.
#[derive(Debug)]
pub struct InUse(String);

impl std::fmt::Display for InUse {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "the journal {} is in use by another linesift run",
            self.0
        )
    }
}

impl std::error::Error for InUse {}

pub struct Journal {
    db: Database,
    path: PathBuf,
    /// This run made the journal's file (it was not there).
    made: bool,
}

impl Journal {
    /// Opens the journal at `path`, or makes it for a new job writing
    /// `output` (format and compression, as a resumed run must write
    /// them too). A journal made here and not opened is removed, unless
    /// another run holds it.
    pub fn open(path: &Path, output: &str) -> anyhow::Result<(Journal, Resumed)> {
        let shown = printable_path(path);
        let (file, made) =
            open_or_make(path).with_context(|| format!("opening the journal {shown}"))?;
        drop(file);
        let unmake = || {
            if made {
                let _ = std::fs::remove_file(path);
            }
        };
        let db = match Database::create(path) {
            Ok(db) => db,
            // Made here or not, it is that run's journal now: kept.
            Err(DatabaseError::DatabaseAlreadyOpen) => bail!(InUse(shown)),
            Err(e) => {
                unmake();
                return Err(e).with_context(|| format!("opening the journal {shown}"));
            }
        };
        let journal = Journal {
            db,
            path: path.to_path_buf(),
            made,
        };
        match journal.load(output) {
            Ok(resumed) => Ok((journal, resumed)),
            Err(e) => {
                drop(journal);
                unmake();
                Err(e)
            }
        }
    }

    /// Whether this run made the journal's file.
    pub fn made(&self) -> bool {
        self.made
    }

    fn load(&self, output: &str) -> anyhow::Result<Resumed> {
        let shown = printable_path(&self.path);
        let txn = self.db.begin_write()?;
        let mut resumed = Resumed::default();
        {
            let mut settings = txn.open_table(SETTINGS)?;
            let recorded = settings.get(OUTPUT)?.map(|v| v.value().to_string());
            match recorded {
                Some(was) if was != output => bail!(
                    "the journal {shown} is of a run writing {}, not {}: \
                     give the same options, or another output",
                    printable(&was),
                    printable(output)
                ),
                Some(_) => {}
                None => {
                    settings.insert(OUTPUT, output)?;
                }
            }
            let tasks = txn.open_table(TASKS)?;
            for entry in tasks.iter()? {
                let (id, failed) = entry?;
                resumed
                    .done
                    .insert(id.value().to_string(), failed.value() != 0);
            }
            let lengths = txn.open_table(LENGTHS)?;
            let length =
                |key| -> anyhow::Result<u64> { Ok(lengths.get(key)?.map_or(0, |v| v.value())) };
            resumed.documents_len = length(DOCUMENTS)?;
            resumed.failures_len = length(FAILURES)?;
        }
        txn.commit()
            .with_context(|| format!("writing the journal {shown}"))?;
        Ok(resumed)
    }

    /// Records `tasks` (id, failed) as done, with the outputs' lengths
    /// once their results are written and synced; durable on return.
    pub fn commit(
        &self,
        tasks: &[(String, bool)],
        documents_len: u64,
        failures_len: u64,
    ) -> anyhow::Result<()> {
        let write = || -> Result<(), redb::Error> {
            let txn = self.db.begin_write()?;
            {
                let mut table = txn.open_table(TASKS)?;
                for (id, failed) in tasks {
                    table.insert(id.as_str(), u8::from(*failed))?;
                }
                let mut lengths = txn.open_table(LENGTHS)?;
                lengths.insert(DOCUMENTS, documents_len)?;
                lengths.insert(FAILURES, failures_len)?;
            }
            txn.commit()?;
            Ok(())
        };
        write().with_context(|| format!("writing the journal {}", printable_path(&self.path)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn temp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("linesift-journal-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join(name);
        let _ = std::fs::remove_file(&path);
        path
    }

    #[test]
    fn a_commit_is_there_when_the_journal_is_opened_again() {
        let path = temp("again.journal");
        {
            let (journal, resumed) = Journal::open(&path, "jsonl").expect("open");
            assert!(resumed.done.is_empty());
            journal
                .commit(&[("a".into(), false), ("b".into(), true)], 10, 20)
                .expect("commit");
        }
        let (_journal, resumed) = Journal::open(&path, "jsonl").expect("open again");
        assert_eq!(resumed.done.get("a"), Some(&false));
        assert_eq!(resumed.done.get("b"), Some(&true));
        assert_eq!((resumed.documents_len, resumed.failures_len), (10, 20));
    }

    #[test]
    fn a_journal_refuses_another_output_format_and_a_second_user() {
        let path = temp("refuses.journal");
        let (journal, _) = Journal::open(&path, "jsonl").expect("open");
        let busy = Journal::open(&path, "jsonl").err().expect("in use");
        assert!(busy.to_string().contains("in use"), "{busy}");
        drop(journal);
        let other = Journal::open(&path, "wet").err().expect("another format");
        assert!(other.to_string().contains("not wet"), "{other}");
    }
}
