//! `linesift dedup`: copies a JSONL stream of documents (what `extract`,
//! `warc`, `run` and `results` write) and leaves out exact and near
//! duplicates of documents kept before them ([`linesift::dedup`]); a
//! document without a SimHash (made without `--simhash`) is judged by its
//! digest alone. Lines are read as bytes: a line that carries no digest
//! (failures, errors, documents without text), one whose fingerprint is
//! not hex, and one that is not UTF-8 or not JSON pass unchanged, each
//! counted.
//! Memory is bounded by `--window`. A file output is written to a hidden
//! temporary file beside it and renamed over it at the end, as `warc`
//! writes, so a failed run leaves OUT as it was.

use super::interrupt::TempGuard;
use super::warc::{refuse_input_as_output, temp_for};
use anyhow::Context;
use linesift::dedup::{Deduper, MAX_THRESHOLD, Verdict};
use serde::Deserialize;
use std::borrow::Cow;
use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// JSONL input; `-` or none for stdin.
    input: Option<PathBuf>,
    /// Write the kept lines here; `-` or none for stdout. A file is
    /// written to a hidden `.OUT.tmp-PID` and renamed over OUT at the end
    /// (on an error OUT is left as it was); OUT may not be the input.
    #[arg(short, long, value_name = "OUT")]
    output: Option<PathBuf>,
    /// Near duplicates: SimHashes at most this many bits apart (0: only
    /// equal SimHashes; at most 15).
    #[arg(long, value_name = "BITS", default_value_t = 6,
          value_parser = clap::value_parser!(u32).range(0..=i64::from(MAX_THRESHOLD)))]
    threshold: u32,
    /// Compare each document with the last N kept ones (at least 1;
    /// memory grows with N: about 140 bytes each at the default threshold).
    #[arg(long, value_name = "N", default_value = "1000000")]
    window: NonZeroUsize,
}

/// Unreadable lines named on stderr one by one; the rest are counted.
const NAMED: u64 = 5;

/// The fields of a line dedup reads; the rest is skipped unread.
#[derive(Debug, Deserialize)]
struct Fingerprint<'a> {
    #[serde(borrow, default)]
    digest: Option<Cow<'a, str>>,
    #[serde(borrow, default)]
    simhash: Option<Cow<'a, str>>,
}

/// What a line holds, as dedup sees it.
#[derive(Debug, PartialEq, Eq)]
enum Line {
    /// Only white space: left out, not counted.
    Blank,
    /// Not UTF-8 or not JSON: why, as a warning says it.
    Unreadable(&'static str),
    /// No `digest` (a failure, an error), or the digest of an empty text.
    Without,
    /// A `digest` or `simhash` that is not hex (either case).
    Malformed,
    /// The digest's first 128 bits and the SimHash, when there is one (a
    /// document made without `--simhash` has none).
    Fingerprint(u128, Option<u64>),
}

impl Fingerprint<'_> {
    fn read(&self) -> Line {
        let digest = self.digest.as_deref().map(|d| Some((d, parse_digest(d)?)));
        let simhash = self.simhash.as_deref().map(parse_simhash);
        match (digest, simhash) {
            (Some(None), _) | (_, Some(None)) => Line::Malformed,
            (Some(Some((text, digest))), simhash) => {
                if text.eq_ignore_ascii_case(empty_digest()) {
                    Line::Without
                } else {
                    Line::Fingerprint(digest, simhash.flatten())
                }
            }
            (None, _) => Line::Without,
        }
    }
}

fn parse_digest(digest: &str) -> Option<u128> {
    let head = digest.get(..32)?;
    all_hex(head).then(|| u128::from_str_radix(head, 16).ok())?
}

fn parse_simhash(simhash: &str) -> Option<u64> {
    all_hex(simhash).then(|| u64::from_str_radix(simhash, 16).ok())?
}

/// Hex digits only: `from_str_radix` would also take a leading `+`.
fn all_hex(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_hexdigit())
}

fn empty_digest() -> &'static str {
    static EMPTY: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    EMPTY.get_or_init(|| linesift::extract::document::digest(""))
}

/// Reads one line (without its line break).
fn read_line(line: &[u8]) -> Line {
    let Ok(text) = simdutf8::basic::from_utf8(line) else {
        return Line::Unreadable("is not UTF-8");
    };
    if text.trim().is_empty() {
        return Line::Blank;
    }
    match serde_json::from_str::<Fingerprint>(text) {
        Ok(fingerprint) => fingerprint.read(),
        Err(_) => misfit(text),
    }
}

/// A line that is not an object with string fields `digest` and
/// `simhash`: unreadable when it is not JSON at all, malformed when its
/// `digest` or `simhash` is something else than a string, and otherwise
/// (an array, a number) without a fingerprint. Parsed a second time, but
/// only on this rare path.
fn misfit(text: &str) -> Line {
    match serde_json::from_str::<serde_json::Value>(text) {
        Err(_) => Line::Unreadable("is not JSON"),
        Ok(serde_json::Value::Object(fields))
            if fields.contains_key("digest") || fields.contains_key("simhash") =>
        {
            Line::Malformed
        }
        Ok(_) => Line::Without,
    }
}

/// What became of the lines, for the summary.
#[derive(Debug, Default, PartialEq, Eq)]
struct Counts {
    lines: u64,
    kept: u64,
    exact: u64,
    near: u64,
    without: u64,
    malformed: u64,
    unreadable: u64,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let input_file = args.input.as_ref().filter(|p| !is_std(p));
    let output_file = args.output.as_deref().filter(|p| !is_std(p));
    if let (Some(input), Some(output)) = (input_file, output_file) {
        refuse_input_as_output(output, std::slice::from_ref(input))?;
    }
    let input: Box<dyn BufRead> = match input_file {
        None => Box::new(BufReader::new(std::io::stdin().lock())),
        Some(p) => Box::new(BufReader::new(
            File::open(p).with_context(|| format!("opening {}", p.display()))?,
        )),
    };
    let mut output = Output::create(output_file)?;
    let mut dedup = Deduper::new(args.threshold, args.window.get());
    let counts = copy(input, &mut output.writer, &mut dedup)?;
    output.finish()?;
    if counts.unreadable > NAMED {
        say!(
            "linesift: dedup: {} more lines not UTF-8 or not JSON passed unchanged",
            counts.unreadable - NAMED
        );
    }
    say!(
        "dedup: {} lines, {} kept, {} exact and {} near duplicates left out; passed unchanged: \
         {} without a fingerprint, {} with a malformed one, {} unreadable",
        counts.lines,
        counts.kept,
        counts.exact,
        counts.near,
        counts.without,
        counts.malformed,
        counts.unreadable
    );
    Ok(ExitCode::SUCCESS)
}

/// `-` names stdin or stdout.
fn is_std(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// Where the kept lines go: stdout, or a file written through a hidden
/// temporary one beside it (as `warc` writes; none for an output that
/// is no regular file, such as `/dev/null`, written in place).
struct Output {
    // Dropped first: the temporary file is closed before it is removed.
    writer: BufWriter<Box<dyn Write>>,
    temp: Option<Temp>,
    path: PathBuf,
}

impl Output {
    fn create(path: Option<&Path>) -> anyhow::Result<Self> {
        let Some(path) = path else {
            return Ok(Output {
                writer: BufWriter::new(Box::new(std::io::stdout().lock())),
                temp: None,
                path: PathBuf::from("-"),
            });
        };
        let creating = || format!("creating {}", path.display());
        let (file, temp) = match temp_for(path) {
            Some(temp) => {
                let (file, guard) = TempGuard::create(&temp).with_context(creating)?;
                let temp = Temp {
                    path: temp,
                    guard: Some(guard),
                    renamed: false,
                };
                (file, Some(temp))
            }
            None => (File::create(path).with_context(creating)?, None),
        };
        Ok(Output {
            writer: BufWriter::new(Box::new(file)),
            temp,
            path: path.to_path_buf(),
        })
    }

    /// Writes out what is buffered and renames the temporary file over
    /// OUT.
    fn finish(self) -> anyhow::Result<()> {
        let Output {
            mut writer,
            temp,
            path,
        } = self;
        writer.flush().context("writing the output")?;
        drop(writer);
        match temp {
            Some(temp) => temp.rename_to(&path),
            None => Ok(()),
        }
    }
}

/// The hidden temporary output: removed when dropped unless it was
/// renamed over OUT, and on a signal while it exists (`interrupt`).
struct Temp {
    path: PathBuf,
    guard: Option<TempGuard>,
    renamed: bool,
}

impl Temp {
    fn rename_to(mut self, out: &Path) -> anyhow::Result<()> {
        let rename = || std::fs::rename(&self.path, out);
        let renamed = match self.guard.take() {
            Some(guard) => guard.finish(rename),
            None => rename(),
        };
        renamed
            .with_context(|| format!("renaming {} to {}", self.path.display(), out.display()))?;
        self.renamed = true;
        Ok(())
    }
}

impl Drop for Temp {
    fn drop(&mut self) {
        if !self.renamed {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

fn copy(
    mut input: impl BufRead,
    output: &mut impl Write,
    dedup: &mut Deduper,
) -> anyhow::Result<Counts> {
    let mut counts = Counts::default();
    let mut buf = Vec::new();
    let mut number = 0u64;
    loop {
        number += 1;
        buf.clear();
        let read = input
            .read_until(b'\n', &mut buf)
            .with_context(|| format!("reading line {number} of the input"))?;
        if read == 0 {
            return Ok(counts);
        }
        let line = without_line_break(&buf);
        let keep = match read_line(line) {
            Line::Blank => continue,
            Line::Unreadable(why) => {
                counts.unreadable += 1;
                if counts.unreadable <= NAMED {
                    say!("linesift: dedup: line {number} {why}; passed unchanged");
                }
                true
            }
            Line::Without => {
                counts.without += 1;
                true
            }
            Line::Malformed => {
                counts.malformed += 1;
                true
            }
            Line::Fingerprint(digest, simhash) => judge(dedup, digest, simhash, &mut counts),
        };
        counts.lines += 1;
        if keep {
            output
                .write_all(line)
                .and_then(|()| output.write_all(b"\n"))
                .context("writing the output")?;
        }
    }
}

/// Whether a document is kept, counted.
fn judge(dedup: &mut Deduper, digest: u128, simhash: Option<u64>, counts: &mut Counts) -> bool {
    let verdict = match simhash {
        Some(simhash) => dedup.check(digest, simhash),
        None => dedup.check_exact(digest),
    };
    match verdict {
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
    }
}

/// A line without its `\n` or `\r\n`, as `BufRead::lines` cuts it.
fn without_line_break(line: &[u8]) -> &[u8] {
    match line.strip_suffix(b"\n") {
        Some(line) => line.strip_suffix(b"\r").unwrap_or(line),
        None => line,
    }
}
