//! The language step alone: the extracted texts' 500-byte samples of a page
//! list, run through `language::Detector` and through `whatlang::detect`.
//! Checks both give the same answer on every sample and prints the time per
//! sample of each, how many samples the detector answered without whatlang,
//! and what building a detector costs.
//!
//! usage: cargo run --release --example lang_bench -- LIST [--rounds N]
//! LIST holds one page path per line.

use linesift::extract::language::Detector;
use linesift::{Extractor, Hints, Options};
use std::hint::black_box;
use std::time::Instant;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let mut list = None;
    let mut rounds = 5u32;
    while let Some(a) = args.next() {
        match a.as_str() {
            "--rounds" => rounds = args.next().ok_or("--rounds N")?.parse()?,
            _ => list = Some(a),
        }
    }
    let list = list.ok_or("usage: lang_bench LIST [--rounds N]")?;
    let ex = Extractor::new(Options::default());
    let mut samples = Vec::new();
    for path in std::fs::read_to_string(&list)?.lines().map(str::trim) {
        if path.is_empty() {
            continue;
        }
        if let Ok(doc) = ex.extract(&std::fs::read(path)?, &Hints::default()) {
            let mut end = doc.text.len().min(500);
            while !doc.text.is_char_boundary(end) {
                end -= 1;
            }
            samples.push(doc.text[..end].to_string());
        }
    }

    let started = Instant::now();
    let detector = black_box(Detector::new());
    let build = started.elapsed().as_secs_f64();

    let reliable = |s: &str| {
        whatlang::detect(s)
            .filter(|i| i.is_reliable())
            .map(|i| i.lang())
    };
    let differ = samples
        .iter()
        .filter(|s| detector.detect(s) != reliable(s))
        .count();
    let mirrored = samples.iter().filter(|s| detector.is_mirrored(s)).count();

    let time = |f: &dyn Fn(&str) -> Option<whatlang::Lang>| {
        let started = Instant::now();
        for _ in 0..rounds {
            for s in &samples {
                black_box(f(black_box(s)));
            }
        }
        started.elapsed().as_secs_f64() / (rounds as f64 * samples.len() as f64)
    };
    if std::env::var_os("LANG_BENCH_PROFILE").is_some() {
        // Only the detector, long enough to profile.
        let per = time(&|s| detector.detect(s));
        println!("detector {:.2} us per sample", per * 1e6);
        return Ok(());
    }
    let (mut ours, mut theirs) = (f64::MAX, f64::MAX);
    for _ in 0..3 {
        ours = ours.min(time(&|s| detector.detect(s)));
        theirs = theirs.min(time(&reliable));
    }
    println!(
        "{} samples, {differ} differ, {mirrored} mirrored; detector {:.2} us, whatlang {:.2} us per sample ({:.1}x); Detector::new {:.2} ms",
        samples.len(),
        ours * 1e6,
        theirs * 1e6,
        theirs / ours,
        build * 1e3
    );
    Ok(())
}
