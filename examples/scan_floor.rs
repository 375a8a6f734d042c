//! How fast could any tag scanner be on these pages? Times, on one thread
//! and beside the real scanner, two walks that only find where tags start
//! and end (quoted values skipped) and count characters, doing none of the
//! scanner's per-tag work (no tag classes, lines, stack or attributes):
//!
//! - `memchr`: a memchr from `<` to `<` and a memchr3 for `>` or a quote;
//! - `bitmask`: the same walk over bitmasks of `<`, `>`, quotes and
//!   counted characters, computed 64 bytes at a time as simdjson does
//!   (`masks` times computing them alone).
//!
//! Figures to size a structural scanner against (docs/benchmarks.md, Where
//! the time goes), not part of the core. Only pages that are UTF-8 are timed,
//! so that the scanner gets the same bytes.
//!
//! usage: cargo run --release --example scan_floor -- LIST   (one page path a line)

use linesift::extract::scan::{ScanLimits, Scanner};
use std::time::Instant;
use wide::u8x16;

const LT: usize = 0;
const GT: usize = 1;
const DQ: usize = 2;
const SQ: usize = 3;
/// Bytes that start a character and are not whitespace.
const CHAR: usize = 4;

/// Per 64 bytes: one bit per byte for each kind above.
type Masks = [u64; 5];

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let list = std::env::args()
        .nth(1)
        .ok_or("usage: scan_floor LIST (one page path a line)")?;
    let mut pages = Vec::new();
    for path in std::fs::read_to_string(&list)?.lines().map(str::trim) {
        if path.is_empty() {
            continue;
        }
        if let Ok(text) = String::from_utf8(std::fs::read(path)?) {
            pages.push(text);
        }
    }
    let bytes: usize = pages.iter().map(String::len).sum();
    let mut masks = Vec::new();
    for round in 0..3 {
        let (scanner, _) = time(|| {
            pages
                .iter()
                .map(|p| {
                    Scanner::borrowed(ScanLimits::default(), p)
                        .finish()
                        .lines
                        .len()
                })
                .sum()
        });
        let (naive, by_memchr) = time(|| pages.iter().map(|p| memchr_walk(p.as_bytes())).sum());
        let (only_masks, _) = time(|| {
            pages
                .iter()
                .map(|p| {
                    compute_masks(p.as_bytes(), &mut masks);
                    masks.len()
                })
                .sum()
        });
        let (bitmask, by_masks) = time(|| {
            pages
                .iter()
                .map(|p| bitmask_walk(p.as_bytes(), &mut masks))
                .sum()
        });
        let mbs = |s: f64| bytes as f64 / s / 1e6;
        println!(
            "round {round}: {} UTF-8 pages, {:.0} MB: scanner {:.3} s ({:.0} MB/s), \
             memchr walk {:.3} s ({:.0} MB/s), masks {:.3} s ({:.0} MB/s), \
             bitmask walk {:.3} s ({:.0} MB/s); the walks {}",
            pages.len(),
            bytes as f64 / 1e6,
            scanner,
            mbs(scanner),
            naive,
            mbs(naive),
            only_masks,
            mbs(only_masks),
            bitmask,
            mbs(bitmask),
            if by_memchr == by_masks {
                "agree"
            } else {
                "DISAGREE"
            },
        );
    }
    Ok(())
}

/// Seconds `f` takes, and its result (kept from being optimised away).
fn time(f: impl FnOnce() -> usize) -> (f64, usize) {
    let started = Instant::now();
    let result = std::hint::black_box(f());
    (started.elapsed().as_secs_f64(), result)
}

/// Tags and characters by memchr. Returns a checksum.
fn memchr_walk(b: &[u8]) -> usize {
    let (mut tags, mut chars) = (0, 0);
    let mut pos = 0;
    while let Some(i) = memchr::memchr(b'<', &b[pos..]) {
        let at = pos + i;
        chars += b[pos..at].iter().filter(|&&c| counts(c)).count();
        tags += 1;
        pos = tag_end_by_memchr(b, at + 1);
    }
    tags + chars
}

/// The bytes `CHAR` marks: ones that start a character, not whitespace.
fn counts(c: u8) -> bool {
    c & 0xC0 != 0x80 && !matches!(c, b' ' | b'\n' | b'\t' | b'\r')
}

/// Past the `>` that ends the tag whose body starts at `from` (quoted
/// runs skipped), or the end.
fn tag_end_by_memchr(b: &[u8], mut from: usize) -> usize {
    while let Some(k) = memchr::memchr3(b'>', b'"', b'\'', &b[from..]) {
        let p = from + k;
        if b[p] == b'>' {
            return p + 1;
        }
        match memchr::memchr(b[p], &b[p + 1..]) {
            Some(e) => from = p + 1 + e + 1,
            None => break,
        }
    }
    b.len()
}

/// The masks of every 64 bytes of `b` into `out` (the last block padded
/// with zeros).
fn compute_masks(b: &[u8], out: &mut Vec<Masks>) {
    out.clear();
    for chunk in b.chunks(64) {
        let mut block = [0u8; 64];
        block[..chunk.len()].copy_from_slice(chunk);
        let mut m = [0u64; 5];
        for (k, sixteen) in block.chunks_exact(16).enumerate() {
            let mut bytes = [0u8; 16];
            bytes.copy_from_slice(sixteen);
            let v = u8x16::new(bytes);
            let eq = |c: u8| u64::from(v.simd_eq(u8x16::splat(c)).to_bitmask());
            let continuation = u64::from(
                (v & u8x16::splat(0xC0))
                    .simd_eq(u8x16::splat(0x80))
                    .to_bitmask(),
            );
            let space = eq(b' ') | eq(b'\n') | eq(b'\t') | eq(b'\r');
            let shift = 16 * k;
            m[LT] |= eq(b'<') << shift;
            m[GT] |= eq(b'>') << shift;
            m[DQ] |= eq(b'"') << shift;
            m[SQ] |= eq(b'\'') << shift;
            m[CHAR] |= (!space & !continuation & 0xffff) << shift;
        }
        // Padding is neither a character nor a tag byte.
        if chunk.len() < 64 {
            let keep = (1u64 << chunk.len()) - 1;
            m.iter_mut().for_each(|x| *x &= keep);
        }
        out.push(m);
    }
}

/// The first byte at or after `pos` of one of `kinds`.
fn next(masks: &[Masks], pos: usize, kinds: &[usize]) -> Option<usize> {
    let mut block = pos / 64;
    let any = |m: &Masks| kinds.iter().fold(0, |acc, &k| acc | m[k]);
    let mut bits = any(masks.get(block)?) & (!0u64 << (pos % 64));
    while bits == 0 {
        block += 1;
        bits = any(masks.get(block)?);
    }
    Some(block * 64 + bits.trailing_zeros() as usize)
}

/// Characters in `[from, to)` by the masks.
fn chars_between(masks: &[Masks], from: usize, to: usize) -> usize {
    (from / 64..=(to.saturating_sub(1)) / 64)
        .filter_map(|block| masks.get(block))
        .zip(from / 64..)
        .map(|(m, block)| {
            let lo = (block * 64).max(from) - block * 64;
            let hi = (block * 64 + 64).min(to) - block * 64;
            let span = if hi >= 64 { !0u64 } else { (1u64 << hi) - 1 } & (!0u64 << lo);
            (m[CHAR] & span).count_ones() as usize
        })
        .sum()
}

/// The memchr walk's tags and characters, by the masks.
fn bitmask_walk(b: &[u8], masks: &mut Vec<Masks>) -> usize {
    compute_masks(b, masks);
    let (mut tags, mut chars) = (0, 0);
    let mut pos = 0;
    while let Some(at) = next(masks, pos, &[LT]) {
        if at > pos {
            chars += chars_between(masks, pos, at);
        }
        tags += 1;
        pos = b.len();
        let mut from = at + 1;
        while let Some(p) = next(masks, from, &[GT, DQ, SQ]) {
            if b[p] == b'>' {
                pos = p + 1;
                break;
            }
            let quote = if b[p] == b'"' { DQ } else { SQ };
            match next(masks, p + 1, &[quote]) {
                Some(e) => from = e + 1,
                None => break,
            }
        }
    }
    tags + chars
}
