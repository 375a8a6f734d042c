//! Producing tasks: parse task lines (URLs, WARC file paths, or
//! `path offset length` records) and publish them to the task queue with
//! publisher confirms. Declares the topology first so that tasks are never
//! published into a queue that does not exist yet (they would be dropped).

use super::publish::{self, PublishError, Publisher};
use super::topology::{self, Names};
use crate::proto::{Encoding, Task, WarcFile, WarcRecord, task};
use lapin::{Connection, ConnectionProperties};

/// What the lines of an input list are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineKind {
    Urls,
    WarcFiles,
    /// `path offset [length]`, whitespace separated.
    WarcRecords,
}

/// A line that is not a task.
#[derive(Debug, thiserror::Error)]
#[error("line {line}: {reason}")]
pub struct LineError {
    pub line: usize,
    pub reason: String,
}

/// Tasks from the lines of a list; blank lines and `#` comments are
/// skipped. Task ids are BLAKE3 of the line, so enqueuing the same list
/// twice yields the same document ids (downstream dedupes them).
pub fn parse_tasks(text: &str, kind: LineKind) -> Result<Vec<Task>, LineError> {
    let mut tasks = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let source = parse_source(line, kind).map_err(|reason| LineError {
            line: i + 1,
            reason,
        })?;
        tasks.push(Task {
            id: blake3::hash(line.as_bytes()).to_hex()[..24].to_string(),
            source: Some(source),
            ..Task::default()
        });
    }
    Ok(tasks)
}

fn parse_source(line: &str, kind: LineKind) -> Result<task::Source, String> {
    match kind {
        LineKind::Urls => Ok(task::Source::Url(line.to_string())),
        LineKind::WarcFiles => Ok(task::Source::WarcFile(WarcFile {
            path: line.to_string(),
        })),
        LineKind::WarcRecords => {
            let mut parts = line.split_whitespace();
            let path = parts.next().ok_or("missing path")?.to_string();
            let offset = parts
                .next()
                .ok_or("missing offset")?
                .parse()
                .map_err(|e| format!("bad offset: {e}"))?;
            let length = match parts.next() {
                Some(l) => l.parse().map_err(|e| format!("bad length: {e}"))?,
                None => 0,
            };
            Ok(task::Source::WarcRecord(WarcRecord {
                path,
                offset,
                length,
            }))
        }
    }
}

/// Why tasks could not be enqueued.
#[derive(Debug, thiserror::Error)]
pub enum EnqueueError {
    #[error("broker: {0}")]
    Amqp(#[from] lapin::Error),
    #[error(transparent)]
    Publish(#[from] PublishError),
}

/// Publishes `tasks` to the task queue (default exchange) and waits for
/// every confirm. `delivery_limit` must match the workers' (the queue is
/// declared with it).
pub async fn enqueue(
    amqp_url: &str,
    names: &Names,
    delivery_limit: u32,
    tasks: &[Task],
    encoding: Encoding,
) -> Result<usize, EnqueueError> {
    let connection = Connection::connect(amqp_url, ConnectionProperties::default()).await?;
    topology::declare(&connection, names, delivery_limit).await?;
    let publisher = Publisher::open(&connection, encoding).await?;
    // Confirm in windows: bounded memory for huge lists, still pipelined.
    for chunk in tasks.chunks(1000) {
        let mut pending = Vec::with_capacity(chunk.len());
        for t in chunk {
            pending.push(publisher.message("", &names.tasks, t, &t.id).await?);
        }
        publish::confirm_all(pending).await?;
    }
    let _ = connection.close(200, "enqueued".into()).await;
    Ok(tasks.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_three_kinds() -> Result<(), LineError> {
        let urls = parse_tasks("# c\nhttp://a/\n\nhttp://b/\n", LineKind::Urls)?;
        assert_eq!(urls.len(), 2);
        assert_ne!(urls[0].id, urls[1].id);
        let recs = parse_tasks("a.warc.gz 10 20\nb.warc 5", LineKind::WarcRecords)?;
        assert!(matches!(
            &recs[1].source,
            Some(task::Source::WarcRecord(WarcRecord {
                offset: 5,
                length: 0,
                ..
            }))
        ));
        assert!(parse_tasks("a.warc x", LineKind::WarcRecords).is_err());
        Ok(())
    }
}
