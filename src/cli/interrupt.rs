//! Ctrl-C (SIGINT) and SIGTERM while `linesift warc` writes its output to
//! a hidden temporary file: the file is removed and the process exits as
//! a shell reports the signal (130, 143), so no `.OUT.tmp-PID` is left
//! behind and OUT keeps the old file. The signals are watched on a thread
//! of its own (tokio's handlers, as the worker's), from the moment
//! [`TempGuard::register`] returns: a file made after that is covered.
//! SIGKILL cannot be caught; it still leaves the temporary file.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, OnceLock, PoisonError};

/// The temporary file to remove on a signal, if any.
static PENDING: Mutex<Option<PathBuf>> = Mutex::new(None);

/// A temporary output removed on SIGINT or SIGTERM until the guard is
/// dropped (after the file was renamed or removed).
pub struct TempGuard(());

impl TempGuard {
    /// Watches for the signals (once per process) and covers `temp` from
    /// now on: call before the file is created.
    pub fn register(temp: &Path) -> std::io::Result<Self> {
        static WATCHING: OnceLock<Result<(), String>> = OnceLock::new();
        WATCHING
            .get_or_init(|| watch().map_err(|e| e.to_string()))
            .clone()
            .map_err(std::io::Error::other)?;
        *pending() = Some(temp.to_path_buf());
        Ok(TempGuard(()))
    }

    /// Runs `finish` (the rename) so that a signal cannot remove the file
    /// half way through it: a signal arriving meanwhile waits for it, and
    /// then finds nothing to remove.
    pub fn finish<T>(self, finish: impl FnOnce() -> T) -> T {
        let mut pending = pending();
        let result = finish();
        *pending = None;
        result
    }
}

impl Drop for TempGuard {
    fn drop(&mut self) {
        *pending() = None;
    }
}

fn pending() -> MutexGuard<'static, Option<PathBuf>> {
    PENDING.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Removes the pending temporary file and exits with `code`, holding the
/// lock so that no rename can start after the removal.
fn stop(code: i32, signal: &str) -> ! {
    let pending = pending();
    if let Some(temp) = pending.as_ref() {
        let _ = std::fs::remove_file(temp);
        eprintln!("linesift: stopped by {signal}; the output was not written");
    }
    std::process::exit(code)
}

/// Installs the handlers (before returning) and waits for a signal on a
/// thread of its own.
#[cfg(unix)]
fn watch() -> std::io::Result<()> {
    use tokio::signal::unix::{SignalKind, signal};
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .build()?;
    let (mut int, mut term) = {
        let _context = runtime.enter();
        (
            signal(SignalKind::interrupt())?,
            signal(SignalKind::terminate())?,
        )
    };
    std::thread::Builder::new()
        .name("warc-signals".into())
        .spawn(move || {
            let (code, name) = runtime.block_on(async {
                tokio::select! {
                    _ = int.recv() => (130, "SIGINT"),
                    _ = term.recv() => (143, "SIGTERM"),
                }
            });
            stop(code, name)
        })?;
    Ok(())
}

#[cfg(not(unix))]
fn watch() -> std::io::Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .build()?;
    std::thread::Builder::new()
        .name("warc-signals".into())
        .spawn(move || {
            if runtime.block_on(tokio::signal::ctrl_c()).is_ok() {
                stop(130, "Ctrl-C");
            }
        })?;
    Ok(())
}
