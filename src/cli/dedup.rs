//! `linesift dedup`: copies a JSONL stream of documents (what `extract`,
//! `warc`, `run` and `results` write) and leaves out exact and near
//! duplicates of documents kept before them ([`linesift::dedup`]). Lines
//! that carry no fingerprint (failures, errors, documents without text)
//! pass unchanged. Memory is bounded by `--window`.

use anyhow::Context;
use linesift::dedup::{Deduper, MAX_THRESHOLD, Verdict};
use serde::Deserialize;
use std::borrow::Cow;
use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// JSONL input; `-` or none for stdin.
    input: Option<PathBuf>,
    /// Write the kept lines here; `-` or none for stdout.
    #[arg(short, long, value_name = "OUT")]
    output: Option<PathBuf>,
    /// Near duplicates: SimHashes at most this many bits apart (0: only
    /// equal SimHashes; at most 15).
    #[arg(long, value_name = "BITS", default_value_t = 6,
          value_parser = clap::value_parser!(u32).range(0..=i64::from(MAX_THRESHOLD)))]
    threshold: u32,
    /// Compare each document with the last N kept ones (memory grows
    /// with N: about 150 bytes each).
    #[arg(long, value_name = "N", default_value_t = 1_000_000)]
    window: usize,
}

/// The fields of a line dedup reads; the rest is skipped unread.
#[derive(Debug, Deserialize)]
struct Fingerprint<'a> {
    #[serde(borrow, default)]
    digest: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    simhash: Option<Cow<'a, str>>,
}

impl Fingerprint<'_> {
    /// The digest's first 128 bits and the SimHash, when both are there
    /// and the text is not empty.
    fn read(&self) -> Option<(u128, u64)> {
        let digest = self.digest.as_deref()?;
        if digest == empty_digest() {
            return None;
        }
        let digest = u128::from_str_radix(digest.get(..32)?, 16).ok()?;
        let simhash = u64::from_str_radix(self.simhash.as_deref()?, 16).ok()?;
        Some((digest, simhash))
    }
}

fn empty_digest() -> &'static str {
    static EMPTY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    EMPTY.get_or_init(|| linesift::extract::document::digest(""))
}

#[derive(Debug, Default)]
struct Counts {
    lines: u64,
    kept: u64,
    exact: u64,
    near: u64,
    passed: u64,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let input: Box<dyn BufRead> = match args.input.as_deref() {
        None => Box::new(BufReader::new(std::io::stdin().lock())),
        Some(p) if p.as_os_str() == "-" => Box::new(BufReader::new(std::io::stdin().lock())),
        Some(p) => Box::new(BufReader::new(
            File::open(p).with_context(|| format!("opening {}", p.display()))?,
        )),
    };
    let output: Box<dyn Write> = match args.output.as_deref() {
        None => Box::new(std::io::stdout().lock()),
        Some(p) if p.as_os_str() == "-" => Box::new(std::io::stdout().lock()),
        Some(p) => Box::new(File::create(p).with_context(|| format!("creating {}", p.display()))?),
    };
    let mut output = BufWriter::new(output);
    let mut dedup = Deduper::new(args.threshold, args.window);
    let counts = copy(input, &mut output, &mut dedup)?;
    output.flush().context("writing the output")?;
    say!(
        "dedup: {} lines, {} kept, {} exact and {} near duplicates left out, {} without a fingerprint passed",
        counts.lines,
        counts.kept,
        counts.exact,
        counts.near,
        counts.passed
    );
    Ok(ExitCode::SUCCESS)
}

fn copy(
    input: impl BufRead,
    output: &mut impl Write,
    dedup: &mut Deduper,
) -> anyhow::Result<Counts> {
    let mut counts = Counts::default();
    for line in input.lines() {
        let line = line.context("reading the input")?;
        if line.trim().is_empty() {
            continue;
        }
        counts.lines += 1;
        let fingerprint = serde_json::from_str::<Fingerprint>(&line)
            .ok()
            .and_then(|f| f.read());
        let keep = match fingerprint {
            None => {
                counts.passed += 1;
                true
            }
            Some((digest, simhash)) => match dedup.check(digest, simhash) {
                Verdict::Kept => {
                    counts.kept += 1;
                    true
                }
                Verdict::Exact => {
                    counts.exact += 1;
                    false
                }
                Verdict::Near(_) => {
                    counts.near += 1;
                    false
                }
            },
        };
        if keep {
            writeln!(output, "{line}").context("writing the output")?;
        }
    }
    Ok(counts)
}
