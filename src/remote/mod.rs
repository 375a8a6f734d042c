//! WARC locations beyond local paths: `http(s)://` URLs and `s3://`
//! objects, read as a whole file (a blocking `Read`, streamed in bounded
//! memory and resumed after a failure from the last byte received) or as
//! one record's byte range (one ranged request). It parses no WARC (the
//! `warc` module does) and decides nothing about tasks or output.
//!
//! Blocking over async: every WARC reader is a synchronous `Read` on a
//! thread of its own (`linesift warc`'s reader thread, the worker's
//! blocking pool), while S3 through object_store is async only. So the
//! requests of both schemes run on one small tokio runtime of this
//! module's, made on first use, and the reading thread waits on a bounded
//! channel: at most [`AHEAD`] body chunks wait for the reader, however
//! large the file. (`reqwest::blocking` would run a hidden runtime of its
//! own for HTTP alone, and S3 would still need this one.)
//!
//! Locations are the operator's (command line, task lists, index files),
//! not pages' links: the fetcher's SSRF guard (`fetch::guard`) is not
//! applied, so a WARC may be served from loopback or a private network.
//! Proxies named by the usual environment variables (`HTTPS_PROXY`,
//! `NO_PROXY`) are used.

mod ahead;
mod http;
mod profile;
mod s3;
mod transfer;

use crate::warc::{Item, ReaderOptions, WarcError};
use futures_util::Stream;
use hyper::body::Bytes;
use std::io::{self, Read, Seek, SeekFrom};
use std::path::Path;
use std::pin::Pin;
use std::sync::OnceLock;
use std::time::Duration;

pub use ahead::{Span, plan as plan_reads};
pub use transfer::Policy;

/// Body chunks a whole-file read keeps ahead of its reader.
pub const AHEAD: usize = 16;

/// The most one request of a record read asks for (and holds): a record
/// longer than this is read in several ranges.
const MAX_WINDOW: u64 = 16 << 20;

/// What a read outside the record's own range asks for at once (the
/// dictionary frame at a `.warc.zst` file's start; a record read without
/// a length).
const SMALL_WINDOW: u64 = 1 << 20;

/// A WARC file that is not a local path.
#[derive(Debug)]
pub struct Remote {
    backend: Backend,
    /// The location as named, for the read-ahead plan ([`plan_reads`]).
    location: String,
    /// The last bytes read outside a record (a `.warc.zst` file's
    /// dictionary frame), kept for the next record of the same file.
    kept: std::sync::Mutex<Window>,
}

#[derive(Debug, Clone)]
enum Backend {
    Http(http::Http),
    S3(s3::S3),
}

/// Why a location cannot be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    pub kind: FailureKind,
    pub message: String,
}

/// Whether a failure may pass on another try.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FailureKind {
    /// 5xx, 429, timeouts, cut connections, a `Content-Range` that
    /// does not answer the range asked for: tried again.
    Transient,
    /// No such file (404, NoSuchKey): not tried again.
    NotFound,
    /// Not allowed (401, 403): not tried again.
    Denied,
    /// Anything else that another try would not change (a file changed
    /// while it was read, a 200 to a range request, a bad URL).
    Permanent,
    /// The range starts at or past the file's end (HTTP 416).
    PastEnd,
}

impl Failure {
    fn new(kind: FailureKind, message: impl Into<String>) -> Self {
        Failure {
            kind,
            message: message.into(),
        }
    }

    fn transient(message: impl Into<String>) -> Self {
        Failure::new(FailureKind::Transient, message)
    }

    fn permanent(message: impl Into<String>) -> Self {
        Failure::new(FailureKind::Permanent, message)
    }

    /// As an I/O error whose kind tells a missing or forbidden file from
    /// the rest (as opening a local file would).
    pub fn into_io(self) -> io::Error {
        let kind = match self.kind {
            FailureKind::NotFound => io::ErrorKind::NotFound,
            FailureKind::Denied => io::ErrorKind::PermissionDenied,
            FailureKind::Permanent => io::ErrorKind::InvalidInput,
            FailureKind::Transient | FailureKind::PastEnd => io::ErrorKind::Other,
        };
        io::Error::new(kind, self.message)
    }

    /// As the WARC layers' error: a failure that may pass is an I/O error
    /// (tried again by the worker), the others are final.
    fn into_warc(self, offset: u64) -> WarcError {
        match self.kind {
            FailureKind::Transient => WarcError::io(offset, self.into_io()),
            _ => WarcError::Remote(self.message),
        }
    }
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.message)
    }
}

/// One response's body as it streams in.
type Body = Pin<Box<dyn Stream<Item = Result<Bytes, Failure>> + Send>>;

/// A response that began: its body from the byte asked for, the file's
/// size when the server said, and what names this version of the file
/// (a strong ETag or Last-Modified), to resume only the same one.
struct Opened {
    body: Body,
    total: Option<u64>,
    validator: Option<String>,
}

impl Backend {
    /// Bytes `start..end` (`end` open when `None`) of the file; resumes
    /// pass the validator of the first response.
    async fn get(
        &self,
        start: u64,
        end: Option<u64>,
        validator: Option<&str>,
    ) -> Result<Opened, Failure> {
        match self {
            Backend::Http(h) => h.get(start, end, validator).await,
            Backend::S3(s) => s.get(start, end, validator).await,
        }
    }
}

/// Whether `location` names a remote WARC (`http://`, `https://`, `s3://`).
pub fn is_remote(location: &str) -> bool {
    scheme_of(location).is_some()
}

fn scheme_of(location: &str) -> Option<&'static str> {
    let lower = location.get(..8).unwrap_or(location).to_ascii_lowercase();
    ["https://", "http://", "s3://"]
        .into_iter()
        .find(|s| lower.starts_with(s))
}

/// Whether `location` is a remote WARC file by its name alone: an `s3://`
/// object, or an `http(s)://` URL whose path ends in `.warc`, `.warc.gz`
/// or `.warc.zst` (and has no query). Task lists tell such lines from
/// pages to fetch with it.
pub fn names_warc(location: &str) -> bool {
    match scheme_of(location) {
        Some("s3://") => true,
        Some(_) => {
            let lower = location.to_ascii_lowercase();
            !lower.contains('?')
                && [".warc", ".warc.gz", ".warc.zst"]
                    .iter()
                    .any(|end| lower.ends_with(end))
        }
        None => false,
    }
}

impl Remote {
    /// The remote WARC `path` names, `None` for a local path, or why the
    /// location is unusable (a bad URL, an S3 client that cannot be made).
    pub fn parse(path: &Path) -> Option<Result<Remote, Failure>> {
        let location = path.to_str()?;
        let scheme = scheme_of(location)?;
        let backend = match scheme {
            "s3://" => s3::S3::new(location).map(Backend::S3),
            _ => http::Http::new(location).map(Backend::Http),
        };
        Some(backend.map(|backend| Remote {
            backend,
            location: location.to_string(),
            kept: std::sync::Mutex::default(),
        }))
    }

    /// The whole file as a blocking reader. Waits for the first response,
    /// so that a missing or forbidden file fails here (with the I/O error
    /// kind a local file would give); later failures are tried again
    /// (resuming where the body stopped) and, once retries are spent,
    /// surface as a read error.
    pub fn open_whole(self) -> io::Result<WholeFile> {
        transfer::open_whole(self.backend, Policy::from_env())
    }

    /// The one record at `offset` (as [`crate::warc::read_record_from`]
    /// reads it from a local file): one ranged request for
    /// `offset..offset+length`, another at the file's start when a
    /// `.warc.zst` record needs the dictionary frame (kept for the next
    /// record), and ranges of [`SMALL_WINDOW`] as needed when no length is
    /// given.
    pub fn read_record(
        &self,
        offset: u64,
        length: Option<u64>,
        options: ReaderOptions,
    ) -> Result<Item, WarcError> {
        let mut source = Ranged::new(self, offset, length);
        source.prefetch(offset).map_err(|e| e.into_warc(offset))?;
        crate::warc::read_record_from(source, offset, length, options)
    }

    fn fetch(&self, start: u64, end: u64) -> Result<(Bytes, Option<u64>), Failure> {
        transfer::fetch(&self.backend, start, end, Policy::from_env())
            .map(|(bytes, total)| (Bytes::from(bytes), total))
    }
}

/// A WARC file a task names: a local file, or a remote location (nothing
/// is fetched until it is read).
#[derive(Debug)]
pub enum WarcFile {
    Local(std::fs::File),
    Remote(Remote),
}

impl WarcFile {
    /// Opens `path`. A local directory fails as `IsADirectory`; a remote
    /// location that cannot be used fails as `InvalidInput`.
    pub fn open(path: &Path) -> io::Result<WarcFile> {
        if let Some(remote) = Remote::parse(path) {
            return remote
                .map(WarcFile::Remote)
                .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e.message));
        }
        let file = std::fs::File::open(path)?;
        match file.metadata()?.is_dir() {
            true => Err(io::Error::from(io::ErrorKind::IsADirectory)),
            false => Ok(WarcFile::Local(file)),
        }
    }

    /// The whole file, from its start (a remote one streamed; see
    /// [`Remote::open_whole`]).
    pub fn into_read(self) -> io::Result<Box<dyn Read + Send>> {
        Ok(match self {
            WarcFile::Local(file) => Box::new(io::BufReader::new(file)),
            WarcFile::Remote(remote) => Box::new(remote.open_whole()?),
        })
    }

    /// The one record at `offset`, as [`crate::warc::read_record_from`]
    /// reads it.
    pub fn read_record(
        &mut self,
        offset: u64,
        length: Option<u64>,
        options: ReaderOptions,
    ) -> Result<Item, WarcError> {
        match self {
            WarcFile::Local(file) => crate::warc::read_record_from(file, offset, length, options),
            WarcFile::Remote(remote) => remote.read_record(offset, length, options),
        }
    }
}

/// A whole remote file as a blocking reader; see [`Remote::open_whole`].
pub struct WholeFile {
    rx: tokio::sync::mpsc::Receiver<io::Result<Bytes>>,
    current: Bytes,
    done: bool,
    task: tokio::task::JoinHandle<()>,
}

impl Read for WholeFile {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while self.current.is_empty() {
            if self.done {
                return Ok(0);
            }
            match self.rx.blocking_recv() {
                Some(Ok(chunk)) => self.current = chunk,
                Some(Err(e)) => {
                    self.done = true;
                    return Err(e);
                }
                None => self.done = true,
            }
        }
        let n = buf.len().min(self.current.len());
        buf[..n].copy_from_slice(&self.current.split_to(n));
        Ok(n)
    }
}

impl Drop for WholeFile {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// The runtime the requests run on (two threads: requests wait on the
/// network, and the reading threads do the work).
fn runtime() -> io::Result<&'static tokio::runtime::Runtime> {
    static RUNTIME: OnceLock<tokio::runtime::Runtime> = OnceLock::new();
    if let Some(rt) = RUNTIME.get() {
        return Ok(rt);
    }
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("linesift-remote")
        .enable_all()
        .build()?;
    // Another thread may have made one meanwhile: that one is kept.
    Ok(RUNTIME.get_or_init(|| rt))
}

/// Runs `future` on the module's runtime and waits for it, from any
/// thread that is not itself running async code.
fn block_on<T: Send + 'static>(
    future: impl std::future::Future<Output = T> + Send + 'static,
) -> io::Result<T> {
    let (tx, rx) = std::sync::mpsc::sync_channel(1);
    runtime()?.spawn(async move {
        let _ = tx.send(future.await);
    });
    rx.recv()
        .map_err(|_| io::Error::other("the remote reader's runtime stopped"))
}

/// A record's bytes fetched by range, seen as a seekable file: the
/// record's own range is one window, a read elsewhere (the dictionary
/// frame at the start of a `.warc.zst` file) another.
struct Ranged<'a> {
    remote: &'a Remote,
    pos: u64,
    /// The record's range, `end` unknown without a length.
    start: u64,
    end: Option<u64>,
    record: Window,
    other: Window,
    /// The file's size, once a response said it.
    total: Option<u64>,
}

#[derive(Debug, Default)]
struct Window {
    start: u64,
    bytes: Bytes,
}

impl Window {
    fn holds(&self, pos: u64) -> Option<&[u8]> {
        let at = usize::try_from(pos.checked_sub(self.start)?).ok()?;
        self.bytes.get(at..).filter(|rest| !rest.is_empty())
    }
}

impl<'a> Ranged<'a> {
    fn new(remote: &'a Remote, start: u64, length: Option<u64>) -> Self {
        Ranged {
            remote,
            pos: start,
            start,
            end: length.map(|l| start.saturating_add(l)),
            record: Window::default(),
            other: remote
                .kept
                .lock()
                .map(|mut w| std::mem::take(&mut *w))
                .unwrap_or_default(),
            total: None,
        }
    }

    /// Fetches the window that holds `pos`; an empty one at the file's end.
    fn prefetch(&mut self, pos: u64) -> Result<(), Failure> {
        if self.total.is_some_and(|t| pos >= t) {
            return Ok(());
        }
        let in_record = pos >= self.start && self.end.is_none_or(|e| pos < e);
        let end = match (in_record, self.end) {
            (true, Some(end)) => end.min(pos.saturating_add(MAX_WINDOW)),
            // Before the record (the dictionary frame): no further than
            // the record's start.
            (false, _) if pos < self.start => self.start.min(pos.saturating_add(SMALL_WINDOW)),
            _ => pos.saturating_add(SMALL_WINDOW),
        };
        // The record's own range may come from a request made for the
        // records listed after it too (see `ahead`).
        let planned = (in_record && pos == self.start && self.end == Some(end))
            .then(|| ahead::read(self.remote, pos, end))
            .flatten();
        let (bytes, total) = match planned {
            Some(got) => got,
            None => self.remote.fetch(pos, end)?,
        };
        self.total = total.or(self.total);
        if bytes.is_empty() {
            // Past the end: no need to ask again.
            self.total = Some(self.total.map_or(pos, |t| t.min(pos)));
        }
        let window = Window { start: pos, bytes };
        match in_record {
            true => self.record = window,
            false => self.other = window,
        }
        Ok(())
    }

    fn cached(&self) -> Option<&[u8]> {
        self.record
            .holds(self.pos)
            .or_else(|| self.other.holds(self.pos))
    }
}

impl Drop for Ranged<'_> {
    /// Keeps what was read outside the record for the file's next record.
    fn drop(&mut self) {
        if let Ok(mut kept) = self.remote.kept.lock() {
            *kept = std::mem::take(&mut self.other);
        }
    }
}

impl Read for Ranged<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.cached().is_none() {
            if self.total.is_some_and(|t| self.pos >= t) {
                return Ok(0);
            }
            self.prefetch(self.pos).map_err(Failure::into_io)?;
        }
        let Some(rest) = self.cached() else {
            return Ok(0);
        };
        let n = buf.len().min(rest.len());
        buf[..n].copy_from_slice(&rest[..n]);
        self.pos += n as u64;
        Ok(n)
    }
}

impl Seek for Ranged<'_> {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        let target = match to {
            SeekFrom::Start(p) => Some(p),
            SeekFrom::Current(d) => self.pos.checked_add_signed(d),
            SeekFrom::End(d) => self.total.and_then(|t| t.checked_add_signed(d)),
        };
        self.pos = target.ok_or_else(|| {
            io::Error::new(io::ErrorKind::InvalidInput, "seek outside the remote file")
        })?;
        Ok(self.pos)
    }
}

/// How long to wait, from the environment (seconds), else `default`.
fn env_duration(name: &str, default: Duration) -> Duration {
    std::env::var(name)
        .ok()
        .and_then(|v| v.trim().parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s > 0.0)
        .map_or(default, Duration::from_secs_f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn remote_locations_are_told_from_paths_by_scheme() {
        assert!(is_remote("https://data.commoncrawl.org/a.warc.gz"));
        assert!(is_remote("HTTP://example.org/a.warc"));
        assert!(is_remote("s3://commoncrawl/crawl-data/a.warc.gz"));
        assert!(!is_remote("data/a.warc.gz"));
        assert!(!is_remote("s3:/a"));
        assert!(!is_remote("-"));
    }

    #[test]
    fn a_window_holds_only_its_own_bytes() {
        let w = Window {
            start: 10,
            bytes: Bytes::from_static(&[1, 2, 3]),
        };
        assert_eq!(w.holds(9), None);
        assert_eq!(w.holds(10), Some(&[1u8, 2, 3][..]));
        assert_eq!(w.holds(12), Some(&[3u8][..]));
        assert_eq!(w.holds(13), None);
    }
}
