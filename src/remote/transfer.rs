//! Moving a remote file's bytes, whatever the scheme: a range (or the
//! whole file) with retries and backoff, resumed from the last byte
//! received after a cut connection, a timeout or a 5xx, and only from the
//! same version of the file. Knows nothing of WARC.

use super::{Backend, Failure, FailureKind, Opened, WholeFile, block_on, env_duration, runtime};
use futures_util::StreamExt;
use hyper::body::Bytes;
use std::io;
use std::time::Duration;

/// How failures are tried again.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Policy {
    /// Tries after a failure, counted since the last byte received (a
    /// transfer that makes progress between failures goes on).
    pub retries: u32,
    /// Wait before the first retry, doubled for each further one.
    pub backoff: Duration,
    /// The longest wait between tries.
    pub max_backoff: Duration,
}

impl Policy {
    /// From `LINESIFT_REMOTE_RETRIES` (default 5) and
    /// `LINESIFT_REMOTE_BACKOFF` (seconds, default 0.5).
    pub fn from_env() -> Self {
        let retries = std::env::var("LINESIFT_REMOTE_RETRIES")
            .ok()
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or(5);
        Policy {
            retries,
            backoff: env_duration("LINESIFT_REMOTE_BACKOFF", Duration::from_millis(500)),
            max_backoff: Duration::from_secs(30),
        }
    }

    /// The wait before retry `n` (1-based).
    fn wait(&self, n: u32) -> Duration {
        self.backoff
            .saturating_mul(1 << (n - 1).min(16))
            .min(self.max_backoff)
    }
}

/// Where a transfer stands.
struct Progress {
    /// The next byte wanted.
    next: u64,
    /// The byte after the last one wanted (`None`: the file's end).
    end: Option<u64>,
    /// The file's size and version, from the first response.
    total: Option<u64>,
    validator: Option<String>,
    started: bool,
}

impl Progress {
    fn done(&self) -> bool {
        let end = match (self.end, self.total) {
            (Some(e), Some(t)) => Some(e.min(t)),
            (e, t) => e.or(t),
        };
        end.is_some_and(|e| self.next >= e)
    }

    /// Takes a response: the first one's size and version are kept, and
    /// a later one must be of the same file.
    fn opened(&mut self, opened: &Opened) -> Result<(), Failure> {
        if !self.started {
            self.started = true;
            self.total = opened.total;
            self.validator = opened.validator.clone();
            return Ok(());
        }
        match (self.total, opened.total) {
            (Some(was), Some(now)) if was != now => Err(Failure::permanent(format!(
                "the file changed while it was read: {was} bytes, now {now}"
            ))),
            _ => Ok(()),
        }
    }
}

/// Runs one transfer to its end, giving each chunk to `deliver` (which
/// says whether more is wanted). A failure that may pass is tried again
/// after a backoff, from the next byte wanted, up to the policy's retries
/// since the last byte received.
async fn run(
    backend: &Backend,
    progress: &mut Progress,
    policy: Policy,
    mut sink: Sink<'_>,
) -> Result<(), Failure> {
    let mut failures = 0u32;
    loop {
        let from = progress.next;
        let failure = match attempt(backend, progress, &mut sink).await {
            Ok(()) => return Ok(()),
            Err(f) => f,
        };
        // Past the end only where the file may end: a 416 before the
        // size the first response gave is a fault, tried again.
        let failure = match failure.kind {
            FailureKind::PastEnd if progress.total.is_none_or(|t| progress.next >= t) => {
                return Ok(());
            }
            FailureKind::PastEnd => Failure::transient(failure.message),
            _ => failure,
        };
        // Bytes came before this failure: the count starts again.
        if progress.next > from {
            failures = 0;
        }
        if failure.kind != FailureKind::Transient || failures >= policy.retries {
            let tries = match failures {
                0 => String::new(),
                n => format!(" (after {} tries)", n + 1),
            };
            return Err(Failure::new(
                failure.kind,
                format!("{}{tries}", failure.message),
            ));
        }
        failures += 1;
        tokio::time::sleep(policy.wait(failures)).await;
    }
}

/// Where a transfer's bytes go.
enum Sink<'a> {
    /// A whole-file reader's channel, and who waits for the first
    /// response (taken when it comes).
    Channel {
        tx: &'a tokio::sync::mpsc::Sender<io::Result<Bytes>>,
        ready: &'a mut Option<Ready>,
    },
    /// A record's window.
    Buffer(&'a mut Vec<u8>),
}

/// Told once whether the file could be opened.
type Ready = std::sync::mpsc::SyncSender<Result<(), Failure>>;

impl Sink<'_> {
    /// A response began: the file is open.
    fn opened(&mut self) {
        if let Sink::Channel { ready, .. } = self
            && let Some(ready) = ready.take()
        {
            let _ = ready.try_send(Ok(()));
        }
    }

    /// Takes a chunk; false once nobody wants more.
    async fn deliver(&mut self, chunk: Bytes) -> bool {
        match self {
            Sink::Channel { tx, .. } => tx.send(Ok(chunk)).await.is_ok(),
            Sink::Buffer(bytes) => {
                bytes.extend_from_slice(&chunk);
                true
            }
        }
    }
}

/// One request: its body delivered until it ends, fails or is not wanted.
async fn attempt(
    backend: &Backend,
    progress: &mut Progress,
    sink: &mut Sink<'_>,
) -> Result<(), Failure> {
    if progress.done() {
        return Ok(());
    }
    let validator = progress.validator.clone();
    let opened = backend
        .get(progress.next, progress.end, validator.as_deref())
        .await?;
    progress.opened(&opened)?;
    sink.opened();
    let mut body = opened.body;
    while let Some(chunk) = body.next().await {
        let mut chunk = chunk?;
        if let Some(end) = progress.end {
            // A server may send more than asked for (a 200 to a range
            // from 0): not past the end wanted.
            let room = usize::try_from(end.saturating_sub(progress.next)).unwrap_or(usize::MAX);
            chunk.truncate(room);
        }
        if chunk.is_empty() {
            continue;
        }
        progress.next += chunk.len() as u64;
        if !sink.deliver(chunk).await {
            return Ok(());
        }
        if progress.done() {
            return Ok(());
        }
    }
    match progress.total.filter(|t| progress.next < *t) {
        Some(total) if progress.end.is_none_or(|e| progress.next < e) => Err(Failure::transient(
            format!("the body ended at byte {} of {total}", progress.next),
        )),
        _ => Ok(()),
    }
}

/// Starts streaming the whole file on the runtime; returns once the first
/// response has begun (or failed for good).
pub(super) fn open_whole(backend: Backend, policy: Policy) -> io::Result<WholeFile> {
    let (tx, rx) = tokio::sync::mpsc::channel::<io::Result<Bytes>>(super::AHEAD);
    let (ready_tx, ready_rx) = std::sync::mpsc::sync_channel::<Result<(), Failure>>(1);
    let task = runtime()?.spawn(async move {
        let mut progress = Progress::new(0, None);
        let mut ready = Some(ready_tx);
        let sink = Sink::Channel {
            tx: &tx,
            ready: &mut ready,
        };
        let result = run(&backend, &mut progress, policy, sink).await;
        match (result, ready) {
            (Ok(()), Some(ready)) => {
                let _ = ready.try_send(Ok(()));
            }
            (Ok(()), None) => {}
            // No response began: opening failed.
            (Err(failure), Some(ready)) => {
                let _ = ready.try_send(Err(failure));
            }
            (Err(failure), None) => {
                let _ = tx.send(Err(failure.into_io())).await;
            }
        }
    });
    let ready = ready_rx
        .recv()
        .unwrap_or_else(|_| Err(Failure::transient("the remote reader stopped")));
    if let Err(failure) = ready {
        task.abort();
        return Err(failure.into_io());
    }
    Ok(WholeFile {
        rx,
        current: Bytes::new(),
        done: false,
        task,
    })
}

/// Bytes `start..end` of the file (fewer at its end), and its size when
/// the server said.
pub(super) fn fetch(
    backend: &Backend,
    start: u64,
    end: u64,
    policy: Policy,
) -> Result<(Vec<u8>, Option<u64>), Failure> {
    // The runtime needs the backend for the transfer's time: a clone of
    // its handle (a shared client), not of any data.
    let backend = backend.clone();
    let done = block_on(async move {
        let mut progress = Progress::new(start, Some(end));
        let capacity = usize::try_from(end.saturating_sub(start)).unwrap_or(0);
        let mut bytes = Vec::with_capacity(capacity.min(super::MAX_WINDOW as usize));
        let result = run(&backend, &mut progress, policy, Sink::Buffer(&mut bytes)).await;
        result.map(|()| (bytes, progress.total))
    });
    done.map_err(|e| Failure::transient(e.to_string()))?
}

impl Progress {
    fn new(next: u64, end: Option<u64>) -> Self {
        Progress {
            next,
            end,
            total: None,
            validator: None,
            started: false,
        }
    }
}
