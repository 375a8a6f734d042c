//! Helpers shared by the command-line tests.
#![allow(dead_code)]

use std::ffi::OsStr;
use std::io::{Read, Write};
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The binary with `args`, not yet started: for a run that wants its
/// stdin or stdout set, or to be spawned and watched.
pub fn linesift_command(args: &[impl AsRef<OsStr>]) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_linesift"));
    command.args(args);
    command
}

/// Runs the binary with `args`, stdin empty, to its end; its exit status,
/// stdout and stderr.
pub fn linesift(args: &[impl AsRef<OsStr>]) -> Output {
    linesift_command(args)
        .stdin(Stdio::null())
        .output()
        .expect("run linesift")
}

/// Runs the binary with stdout on a pipe, reads `keep` bytes of it, closes
/// the pipe and returns the exit code and stderr. Panics if the process
/// does not end within a minute.
pub fn linesift_reading_a_little(args: &[&str], keep: usize) -> (Option<i32>, String) {
    let mut child = linesift_command(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut head = vec![0u8; keep];
    stdout.read_exact(&mut head).unwrap();
    drop(stdout);
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            panic!("linesift did not end after its output pipe closed");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Writes `chunk` again and again to `input` until `total` bytes are
/// written or the reader closes it (a command that stopped reading at its
/// limit); returns what was written.
pub fn write_until_closed(input: &mut impl Write, chunk: &[u8], total: u64) -> u64 {
    let mut written = 0u64;
    while written < total {
        match input.write_all(chunk) {
            Ok(()) => written += chunk.len() as u64,
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => break,
            Err(e) => panic!("{e}"),
        }
    }
    written
}

/// Runs the binary with `args`, stdout to /dev/null, and writes `chunk`
/// to its stdin again and again until `total` bytes are written or it
/// stops reading; returns what was written, the exit code and stderr.
pub fn linesift_fed_until_closed(
    args: &[&str],
    chunk: &[u8],
    total: u64,
) -> (u64, Option<i32>, String) {
    let mut child = linesift_command(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let written = write_until_closed(&mut stdin, chunk, total);
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    (
        written,
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A FIFO at `path` (any file there first removed).
pub fn make_fifo(path: &Path) {
    let _ = std::fs::remove_file(path);
    let made = Command::new("mkfifo").arg(path).status().unwrap();
    assert!(made.success(), "mkfifo {}", path.display());
}

/// Panics with the command's stderr unless it succeeded.
pub fn assert_success(out: &Output) {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Runs the binary with `args`, stdout to /dev/null and stderr to a pipe
/// whose reader is already closed (`linesift ... 2>&1 | head -c 1` after
/// `head` has gone); returns the exit code, which must be the command's
/// own, not the 101 of a panic on a failed write to stderr.
pub fn linesift_with_closed_stderr(args: &[&OsStr]) -> Option<i32> {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    let status = linesift_command(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(writer)
        .status()
        .unwrap();
    status.code()
}
