//! Read-only WARC throughput on one thread: decompression, record framing
//! and the HTTP split of `linesift warc`, without the core. It shows what
//! the WARC path costs on top of extraction (the same files through
//! `linesift warc --jobs 1` give the total). Prints records/s and MB/s of
//! the file (compressed) and of the payloads handed to the core.
//!
//! usage: cargo run --release --example warc_read -- FILE... [--rounds N]
//! Each file is read `--rounds` times (default 3); the best round counts,
//! as the machine is shared and noisy.

use linesift::warc::{Item, ReaderOptions, WarcReader};
use std::time::{Duration, Instant};

struct Round {
    records: u64,
    pages: u64,
    payload: u64,
    errors: u64,
    elapsed: Duration,
}

fn read_once(path: &str) -> Result<Round, Box<dyn std::error::Error>> {
    let start = Instant::now();
    let file = std::fs::File::open(path)?;
    let reader = WarcReader::new(file, ReaderOptions::default())?;
    let mut round = Round {
        records: 0,
        pages: 0,
        payload: 0,
        errors: 0,
        elapsed: Duration::ZERO,
    };
    for item in reader {
        round.records += 1;
        match item {
            Ok(Item::Page(page)) => {
                round.pages += 1;
                round.payload += page.body.len() as u64;
            }
            Ok(Item::Skipped { .. }) => {}
            Ok(Item::Bad { .. }) | Err(_) => round.errors += 1,
        }
    }
    round.elapsed = start.elapsed();
    Ok(round)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let mut files = Vec::new();
    let mut rounds = 3u32;
    while let Some(a) = args.next() {
        match a.as_str() {
            "--rounds" => rounds = args.next().ok_or("--rounds N")?.parse()?,
            _ => files.push(a),
        }
    }
    if files.is_empty() {
        return Err("usage: warc_read FILE... [--rounds N]".into());
    }
    println!(
        "{:40} {:>7} {:>7} {:>6} {:>8} {:>10} {:>9} {:>11}",
        "file", "records", "pages", "errors", "s", "records/s", "MB/s file", "MB/s payload"
    );
    for path in &files {
        let size = std::fs::metadata(path)?.len() as f64;
        let mut best: Option<Round> = None;
        for _ in 0..rounds.max(1) {
            let round = read_once(path)?;
            if best.as_ref().is_none_or(|b| round.elapsed < b.elapsed) {
                best = Some(round);
            }
        }
        let Some(r) = best else { continue };
        let s = r.elapsed.as_secs_f64().max(1e-9);
        let name = std::path::Path::new(path)
            .file_name()
            .map_or_else(|| path.clone(), |n| n.to_string_lossy().into_owned());
        println!(
            "{name:40} {:>7} {:>7} {:>6} {s:>8.3} {:>10.0} {:>9.1} {:>11.1}",
            r.records,
            r.pages,
            r.errors,
            r.records as f64 / s,
            size / 1e6 / s,
            r.payload as f64 / 1e6 / s,
        );
    }
    Ok(())
}
