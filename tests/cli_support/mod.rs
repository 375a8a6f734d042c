//! Helpers shared by the command-line tests.

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Runs the binary with stdout on a pipe, reads `keep` bytes of it, closes
/// the pipe and returns the exit code and stderr. Panics if the process
/// does not end within a minute.
pub fn linesift_reading_a_little(args: &[&str], keep: usize) -> (Option<i32>, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_linesift"))
        .args(args)
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
