//! Extraction throughput on one thread, timing only the core: every page of
//! a list is read into memory first, then `Extractor::extract` runs over
//! them in turn. Prints pages/s and MB/s (10^6 bytes of raw HTML per
//! second), comparable with `../shared/eval/peers.py`, and the share of
//! each stage of the core (from `Document::timings`).
//!
//! usage: cargo run --release --example throughput -- LIST [--algorithm NAME] [--headline METHOD] [--rounds N]
//! LIST holds one page path per line.

use linesift::extract::Algorithm;
use linesift::{Extractor, Hints, Options};
use std::time::Instant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let mut list = None;
    let mut algorithm = Algorithm::default();
    let mut headline = None;
    let mut rounds = 1u32;
    while let Some(a) = args.next() {
        match a.as_str() {
            "--algorithm" => algorithm = args.next().ok_or("--algorithm NAME")?.parse()?,
            "--headline" => headline = Some(args.next().ok_or("--headline METHOD")?.parse()?),
            "--rounds" => rounds = args.next().ok_or("--rounds N")?.parse()?,
            _ => list = Some(a),
        }
    }
    let list =
        list.ok_or("usage: throughput LIST [--algorithm NAME] [--headline METHOD] [--rounds N]")?;
    let pages: Vec<Vec<u8>> = std::fs::read_to_string(&list)?
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .map(std::fs::read)
        .collect::<Result<_, _>>()?;
    let bytes: usize = pages.iter().map(Vec::len).sum();
    let mut options = Options::for_algorithm(algorithm);
    if let Some(method) = headline {
        options.headline = method;
    }
    let ex = Extractor::new(options);
    let hints = Hints::default();
    let (mut failed, mut chars) = (0usize, 0usize);
    let mut stages = [0f64; 4];
    let started = Instant::now();
    for _ in 0..rounds {
        for page in &pages {
            match ex.extract(page, &hints) {
                Ok(d) => {
                    chars += d.text.len();
                    let t = &d.timings;
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
    let seconds = started.elapsed().as_secs_f64();
    let n = pages.len() * rounds as usize;
    println!(
        "linesift ({algorithm}): {n} pages, {failed} failed, {seconds:.2} s, {:.1} pages/s, {:.2} MB/s ({chars} text bytes)",
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
