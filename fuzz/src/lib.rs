//! Helpers shared by the fuzz targets: choosing options and chunk sizes
//! from input bytes, compressing WARC text per record, and reading a WARC
//! to its end.

use linesift::Extractor;
use linesift::extract::{Algorithm, HeadlineMethod, Options};
use linesift::warc::{Item, ReaderOptions, WarcReader};
use std::io::Write;
use std::sync::OnceLock;

/// Payloads above this are skipped by the WARC targets (keeps RSS low).
pub const MAX_PAYLOAD: usize = 1 << 20;

const HEADLINES: [HeadlineMethod; 6] = [
    HeadlineMethod::Tf,
    HeadlineMethod::TfIdf,
    HeadlineMethod::Osm,
    HeadlineMethod::Aggregate,
    HeadlineMethod::Auto,
    HeadlineMethod::Off,
];

/// Options from one control byte: algorithm (every variant of
/// `Algorithm::ALL`) and headline method.
pub fn options(control: u8) -> Options {
    let n = Algorithm::ALL.len();
    let algorithm = Algorithm::ALL[control as usize % n];
    let mut options = Options::for_algorithm(algorithm);
    options.headline = HEADLINES[(control as usize / n) % HEADLINES.len()];
    options
}

/// The extractor for a control byte, built once per option set (building
/// one loads the stop words, which would dominate a run).
pub fn extractor(control: u8) -> &'static Extractor {
    static ALL: OnceLock<Vec<Extractor>> = OnceLock::new();
    let n = Algorithm::ALL.len() * HEADLINES.len();
    let all = ALL.get_or_init(|| (0..n).map(|c| Extractor::new(options(c as u8))).collect());
    &all[control as usize % n]
}

/// Splits `data` at the first byte: the control byte and the rest.
pub fn split_control(data: &[u8]) -> Option<(u8, &[u8])> {
    data.split_first().map(|(c, rest)| (*c, rest))
}

/// Deterministic chunk lengths for `len` bytes, from a seed: small
/// pseudo-random pieces between 1 and `max`.
pub fn chunk_lengths(len: usize, seed: u32, max: usize) -> Vec<usize> {
    let mut state = seed | 1;
    let mut out = Vec::new();
    let mut left = len;
    while left > 0 {
        // xorshift32
        state ^= state << 13;
        state ^= state >> 17;
        state ^= state << 5;
        let n = (state as usize % max.max(1)) + 1;
        let n = n.min(left);
        out.push(n);
        left -= n;
    }
    out
}

/// Splits WARC text into pieces at record starts (`WARC/1.`), so each
/// record can be compressed as its own member, as real files are.
pub fn record_pieces(text: &[u8]) -> Vec<&[u8]> {
    let mut starts = vec![0];
    starts.extend(
        (1..text.len()).filter(|&i| text[i - 1] == b'\n' && text[i..].starts_with(b"WARC/1.")),
    );
    let mut pieces = Vec::new();
    for (k, &s) in starts.iter().enumerate() {
        let e = starts.get(k + 1).copied().unwrap_or(text.len());
        pieces.push(&text[s..e]);
    }
    pieces
}

/// Gzip, one member per piece.
pub fn gzip_members(pieces: &[&[u8]]) -> Vec<u8> {
    let mut out = Vec::new();
    for piece in pieces {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(piece).unwrap();
        out.extend(gz.finish().unwrap());
    }
    out
}

/// Zstd, one frame per piece.
pub fn zstd_frames(pieces: &[&[u8]]) -> Vec<u8> {
    let mut out = Vec::new();
    for piece in pieces {
        out.extend(zstd::bulk::compress(piece, 1).unwrap());
    }
    out
}

/// Applies a damage byte to compressed bytes: none, truncation, or a
/// flipped byte, so the layers see broken members too.
pub fn damage(bytes: &mut Vec<u8>, how: u8, at: u16) {
    if bytes.is_empty() {
        return;
    }
    let i = at as usize % bytes.len();
    match how % 4 {
        1 => bytes.truncate(i),
        2 => bytes[i] ^= 0x55,
        3 => bytes
            .splice(i..i, b"garbage".iter().copied())
            .for_each(drop),
        _ => {}
    }
}

/// Reads every record to the end; pages are decoded (not extracted).
/// Errors are fine; panics are not.
pub fn read_all(bytes: &[u8]) {
    let options = ReaderOptions {
        max_payload: MAX_PAYLOAD,
        // Small, so that a bomb in the input is given up quickly.
        max_member: 64 << 20,
    };
    let Ok(reader) = WarcReader::new(bytes, options) else {
        return;
    };
    // A reader that never ends shows as a libFuzzer timeout.
    for item in reader {
        match item {
            Ok(Item::Page(page)) => {
                let _ = page.hints();
                let _ = page.payload(MAX_PAYLOAD);
            }
            Ok(Item::Skipped { reason, .. }) => {
                let _ = reason.key();
            }
            Ok(Item::Bad { error, .. }) => {
                let _ = error.to_string();
            }
            Err(e) => {
                let _ = e.to_string();
            }
        }
    }
}
