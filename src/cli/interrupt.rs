//! Signals while `linesift warc` writes its output to a hidden temporary
//! file: on SIGINT (Ctrl-C), SIGTERM, SIGHUP (the terminal closed, an ssh
//! connection lost) or SIGQUIT (Ctrl-\) the file is removed, so no
//! `.OUT.tmp-PID` is left behind and OUT keeps the old file, and then the
//! process dies by that same signal, with the default action, as if it
//! had not caught it: its parent sees it killed by the signal (a shell
//! reports 130, 143, 129 or 131, and a shell loop stops on Ctrl-C), and
//! SIGQUIT still dumps core where core dumps are enabled.
//!
//! The signals are watched on a thread of its own (tokio's handlers, as
//! the worker's), installed before the temporary file is made, which
//! [`TempGuard::create`] does holding the lock a signal takes, so a
//! signal at any moment finds either no file or one it removes. A signal
//! the process started with ignored (`nohup` ignores SIGHUP; a
//! non-interactive shell's background job, SIGINT and SIGQUIT) stays
//! ignored: no handler is installed for it. When the handlers cannot be
//! installed, a warning says so and the run goes on: a signal then leaves
//! the temporary file behind. SIGKILL cannot be caught; it always does.

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, OnceLock, PoisonError};

/// The temporary file to remove on a signal, if any.
static PENDING: Mutex<Option<PathBuf>> = Mutex::new(None);

/// A temporary output removed on a signal until the guard is dropped
/// (after the file was renamed or removed).
pub struct TempGuard(());

impl TempGuard {
    /// Watches for the signals (once per process), then creates `temp`
    /// and covers it, both under the lock a signal takes: a signal before
    /// the file exists waits for it and removes it.
    pub fn create(temp: &Path) -> std::io::Result<(File, Self)> {
        static WATCHING: OnceLock<()> = OnceLock::new();
        WATCHING.get_or_init(|| {
            if let Err(e) = watch() {
                let _ = writeln!(
                    std::io::stderr(),
                    "linesift: warning: cannot watch for signals ({e}); \
                     a run stopped by one leaves its temporary output behind"
                );
            }
        });
        let mut pending = pending();
        let file = File::create(temp)?;
        *pending = Some(temp.to_path_buf());
        Ok((file, TempGuard(())))
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

/// Removes the pending temporary file and says so, holding the lock so
/// that no rename can start after the removal (it is held until the
/// process ends). Writing to stderr may fail (the terminal is gone on
/// SIGHUP): that is ignored, not a panic.
fn remove_pending(signal: &str) -> MutexGuard<'static, Option<PathBuf>> {
    let pending = pending();
    if let Some(temp) = pending.as_ref() {
        let _ = std::fs::remove_file(temp);
        let _ = writeln!(
            std::io::stderr(),
            "linesift: stopped by {signal}; the output was not written"
        );
    }
    pending
}

#[cfg(unix)]
const SIGNALS: [(libc::c_int, &str); 4] = [
    (libc::SIGINT, "SIGINT"),
    (libc::SIGTERM, "SIGTERM"),
    (libc::SIGHUP, "SIGHUP"),
    (libc::SIGQUIT, "SIGQUIT"),
];

/// Installs the handlers (before returning) of the signals not ignored,
/// and waits for one on a thread of its own.
#[cfg(unix)]
fn watch() -> std::io::Result<()> {
    use futures_util::future::{FutureExt, select_all};
    use tokio::signal::unix::{SignalKind, signal};
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .build()?;
    let mut watched = Vec::new();
    {
        let _context = runtime.enter();
        for (number, name) in SIGNALS {
            if !ignored(number) {
                watched.push((signal(SignalKind::from_raw(number))?, number, name));
            }
        }
    }
    if watched.is_empty() {
        return Ok(());
    }
    std::thread::Builder::new()
        .name("warc-signals".into())
        .spawn(move || {
            let waits = watched.iter_mut().map(|(stream, number, name)| {
                let (number, name) = (*number, *name);
                async move {
                    stream.recv().await;
                    (number, name)
                }
                .boxed()
            });
            let ((number, name), _, _) = runtime.block_on(select_all(waits));
            let _held = remove_pending(name);
            die_by(number)
        })?;
    Ok(())
}

/// Whether `signal` is ignored (`SIG_IGN`), as the process was started.
#[cfg(unix)]
fn ignored(signal: libc::c_int) -> bool {
    // SAFETY: sigaction(2) with a null new action changes nothing and
    // only writes the current action into `old`, a plain C struct of ours
    // for which all zero bytes are a valid value.
    let old = unsafe {
        let mut old: libc::sigaction = std::mem::zeroed();
        (libc::sigaction(signal, std::ptr::null(), &mut old) == 0).then_some(old)
    };
    old.is_some_and(|old| old.sa_sigaction == libc::SIG_IGN)
}

/// Whether the process was started with SIGINT ignored (`SIG_IGN`), so
/// that a command catching it can leave it so (false where there are no
/// signals).
pub fn sigint_ignored() -> bool {
    #[cfg(unix)]
    return ignored(libc::SIGINT);
    #[cfg(not(unix))]
    false
}

/// Whether the process was started with SIGTERM ignored, as
/// [`sigint_ignored`] tells of SIGINT.
pub fn sigterm_ignored() -> bool {
    #[cfg(unix)]
    return ignored(libc::SIGTERM);
    #[cfg(not(unix))]
    false
}

/// Ends the process as an uncaught Ctrl-C would, for a command that caught
/// SIGINT to stop cleanly (`enqueue`): killed by SIGINT (exit 130 where
/// there are no signals), so that a shell loop running it stops too.
pub fn die_by_interrupt() -> ! {
    #[cfg(unix)]
    die_by(libc::SIGINT);
    #[cfg(not(unix))]
    std::process::exit(130)
}

/// Ends the process as an uncaught SIGTERM would, for a command that
/// caught it to stop cleanly (`run`): killed by SIGTERM (exit 143 where
/// there are no signals), so that a supervisor sees it ended as asked.
pub fn die_by_termination() -> ! {
    #[cfg(unix)]
    die_by(libc::SIGTERM);
    #[cfg(not(unix))]
    std::process::exit(143)
}

/// Ends the process by `signal` with its default action, as if it had not
/// been caught, so that the parent sees it killed by the signal.
#[cfg(unix)]
fn die_by(signal: libc::c_int) -> ! {
    // SAFETY: signal(2) and raise(3) take no pointers and touch no memory
    // of ours. With the default action restored, raising the signal on
    // this thread ends the whole process (for SIGQUIT, with a core dump
    // where enabled) before raise returns.
    unsafe {
        libc::signal(signal, libc::SIG_DFL);
        libc::raise(signal);
    }
    // Not reached unless the signal is blocked here: exit as a shell
    // would report the signal.
    std::process::exit(128 + signal)
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
                let _held = remove_pending("Ctrl-C");
                std::process::exit(130);
            }
        })?;
    Ok(())
}
