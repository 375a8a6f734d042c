//! Extraction throughput on one thread, timing only the core: every page of
//! a list is read into memory first, then `Extractor::extract` runs over
//! them in turn. Prints pages/s and MB/s (10^6 bytes of raw HTML per
//! second), comparable with `../shared/eval/peers.py`, and the share of
//! each stage of the core (from `Document::timings`).
//!
//! `--read-each` times the calls as `../shared/eval/peers.py` times its
//! peers: each page is read from its file just before its call, so its
//! bytes are fresh in the cache as the peer's freshly decoded text is,
//! and only the calls are timed. Read all at once first, the 580 MB of
//! the corpus leave each page cold in memory by the time it is extracted.
//!
//! `--metadata` and `--blocks` switch those parts of the document on, as
//! the CLI's options of the same names do.
//!
//! usage: cargo run --release --example throughput -- LIST [--algorithm NAME] [--headline METHOD] [--rounds N] [--read-each] [--metadata] [--blocks]
//! LIST holds one page path per line.

use linesift::extract::Algorithm;
use linesift::{Extractor, Hints, Options};
use std::time::{Duration, Instant};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let mut list = None;
    let mut algorithm = Algorithm::default();
    let mut headline = None;
    let mut rounds = 1u32;
    let mut read_each = false;
    let (mut metadata, mut blocks) = (false, false);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--read-each" => read_each = true,
            "--metadata" => metadata = true,
            "--blocks" => blocks = true,
            "--algorithm" => algorithm = args.next().ok_or("--algorithm NAME")?.parse()?,
            "--headline" => headline = Some(args.next().ok_or("--headline METHOD")?.parse()?),
            "--rounds" => rounds = args.next().ok_or("--rounds N")?.parse()?,
            _ => list = Some(a),
        }
    }
    let list = list.ok_or(
        "usage: throughput LIST [--algorithm NAME] [--headline METHOD] [--rounds N] [--read-each] [--metadata] [--blocks]",
    )?;
    let paths: Vec<String> = std::fs::read_to_string(&list)?
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(String::from)
        .collect();
    // Read up front either way: a missing file fails before any timing.
    let mut pages: Vec<Vec<u8>> = paths.iter().map(std::fs::read).collect::<Result<_, _>>()?;
    let bytes: usize = pages.iter().map(Vec::len).sum();
    if read_each {
        pages.clear();
    }
    let mut options = Options::for_algorithm(algorithm);
    if let Some(method) = headline {
        options.headline = method;
    }
    options.metadata = metadata;
    options.blocks = blocks;
    options.timings = true;
    let ex = Extractor::new(options);
    let hints = Hints::default();
    let (mut failed, mut chars) = (0usize, 0usize);
    let mut stages = [0f64; 4];
    let mut timed = Duration::ZERO;
    for _ in 0..rounds {
        for (i, path) in paths.iter().enumerate() {
            let fresh;
            let page = match pages.get(i) {
                Some(preloaded) => preloaded,
                None => {
                    fresh = std::fs::read(path)?;
                    &fresh
                }
            };
            let started = Instant::now();
            let extracted = ex.extract(page, &hints);
            timed += started.elapsed();
            match extracted {
                Ok(d) => {
                    chars += d.text.len();
                    let t = d.timings.unwrap_or_default();
                    for (sum, s) in stages
                        .iter_mut()
                        .zip([t.scan, t.select, t.text, t.headline])
                    {
                        *sum += s;
                    }
                }
                Err(_) => failed += 1,
            }
        }
    }
    let seconds = timed.as_secs_f64();
    let n = paths.len() * rounds as usize;
    let how = if read_each {
        ", each read just before"
    } else {
        ""
    };
    println!(
        "linesift ({algorithm}{how}): {n} pages, {failed} failed, {seconds:.2} s, {:.1} pages/s, {:.2} MB/s ({chars} text bytes)",
        n as f64 / seconds,
        (bytes * rounds as usize) as f64 / seconds / 1e6
    );
    let staged: f64 = stages.iter().sum();
    let share = |s: f64| 100.0 * s / staged.max(f64::MIN_POSITIVE);
    println!(
        "stages: scan {:.1} %, select {:.1} %, text {:.1} %, headline+language {:.1} % (of {staged:.2} s timed inside the core)",
        share(stages[0]),
        share(stages[1]),
        share(stages[2]),
        share(stages[3])
    );
    Ok(())
}
