//! One task of `linesift run`, start to end: the worker's [`Processor`]
//! runs it; a transient failure is tried again after `retry_delay`, up to
//! the queue's delivery limit (then a fault, as the worker dead-letters
//! it), with what the failed try made thrown away; an outcome or a fault
//! becomes the worker's fatal `Failure` event. Writes nothing itself.

use super::output::{Encoding, Finished, TaskDocuments};
use linesift::proto::{Failure, Task};
use linesift::worker::Processor;
use linesift::worker::process::{Output, TaskError, gave_up, gives_up, task_failure};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::mpsc;

/// How often and how soon a task is tried again.
#[derive(Debug, Clone, Copy)]
pub struct Retry {
    pub limit: u32,
    pub delay: Duration,
}

/// What one try made.
struct Tried {
    documents: TaskDocuments,
    /// Records of the task that gave no document (a WARC file's bad
    /// record); the task goes on.
    failures: Vec<Failure>,
    /// Encoding a document failed (it cannot, short of a bug).
    broken: Option<std::io::Error>,
}

/// Runs `task` to its end; `say` tells of a try that failed and is
/// retried.
pub async fn run(
    processor: Arc<Processor>,
    task: Task,
    encoding: Encoding,
    retry: Retry,
    say: impl Fn(String),
) -> Finished {
    let mut attempt = 1u64;
    loop {
        let (tx, rx) = mpsc::channel(32);
        let (result, mut tried) =
            tokio::join!(processor.run(&task, tx), collect(&task, rx, encoding));
        let result = match tried.broken.take() {
            Some(e) => Err(TaskError::Permanent {
                stage: "run",
                kind: "encode".into(),
                reason: format!("encoding a document: {e}"),
            }),
            None => result,
        };
        match result {
            Ok(()) => return finished(&task, tried, None),
            // Deferred cannot come (no bound on the host wait) but is
            // retried as the untried task it is.
            Err(error @ (TaskError::Transient { .. } | TaskError::Deferred { .. })) => {
                let (stage, kind, reason) = error.parts();
                if gives_up(attempt, retry.limit) {
                    let why = gave_up(attempt, reason);
                    let failure = task_failure(Some(&task), stage, kind, &why, true);
                    return finished(&task, empty(encoding), Some(failure));
                }
                say(format!("try {attempt} failed ({error}); trying again"));
                tokio::time::sleep(retry.delay).await;
                attempt += 1;
            }
            // As the worker: what was made before stands, and the task's
            // failure is recorded (an outcome) or would be dead-lettered
            // (a fault).
            Err(error @ TaskError::Permanent { .. }) => {
                let (stage, kind, reason) = error.parts();
                let fault = !error.is_outcome();
                let failure = task_failure(Some(&task), stage, kind, reason, fault);
                return finished(&task, tried, Some(failure));
            }
        }
    }
}

/// The results a try sent, encoded as they come.
async fn collect(task: &Task, mut rx: mpsc::Receiver<Output>, encoding: Encoding) -> Tried {
    let mut tried = empty(encoding);
    while let Some(output) = rx.recv().await {
        match output {
            Output::Document(doc, capture) => {
                if tried.broken.is_none()
                    && let Err(e) = tried.documents.push(task, &doc, capture.as_deref())
                {
                    tried.broken = Some(e);
                }
            }
            Output::Failure(failure) => tried.failures.push(failure),
        }
    }
    tried
}

fn empty(encoding: Encoding) -> Tried {
    Tried {
        documents: TaskDocuments::new(encoding),
        failures: Vec::new(),
        broken: None,
    }
}

fn finished(task: &Task, tried: Tried, failure: Option<Failure>) -> Finished {
    let count = tried.documents.count;
    let first_date = tried.documents.first_date.clone();
    let repairs = tried.documents.repairs.clone();
    let (documents, document_count, failure) = match tried.documents.finish() {
        Ok(bytes) => (bytes, count, failure),
        // The documents are lost: the task failed, if it had not already.
        Err(e) => {
            let reason = format!("encoding the documents: {e}");
            let lost = || task_failure(Some(task), "run", "encode", &reason, true);
            (Vec::new(), 0, Some(failure.unwrap_or_else(lost)))
        }
    };
    let failed = failure.is_some();
    let mut failures = tried.failures;
    failures.extend(failure);
    Finished {
        id: task.id.clone(),
        documents,
        document_count,
        repairs,
        first_date,
        failures,
        failed,
    }
}
