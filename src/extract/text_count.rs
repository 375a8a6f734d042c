//! Counting a run of text as the scanner counts it: characters with
//! whitespace runs collapsed to one (and only between two non-space
//! characters of the same run), plus bytes ≥ 128 and < 128 (R2L, DANA).
//!
//! Sixteen bytes at a time as a vector (`super::blocks`), each test
//! giving a bitmask with one bit per byte; the buffer's last few bytes
//! are a block padded with zeros. Prose alternates letters and spaces too
//! often for a branch per byte to predict well, and this is the scanner's
//! busiest loop (the vector blocks spared 9 % of the core's instructions
//! over eight-byte words in a `u64`). Written by hand because it is one
//! small loop no crate offers; it only counts, what the counts mean is
//! the scanner's business.
//!
//! The same blocks find where a run ends (the next `<`) without a memchr
//! call, which costs more than the search over the few bytes most runs
//! have; a value's closing quote is looked for in its first block before
//! memchr takes over.

use super::blocks::{Block, continuations};
use wide::u8x16;

/// Counts of one piece of a text run.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TextCount {
    /// Characters, each whitespace run between two others counted as one.
    pub text: u32,
    /// Bytes ≥ 128.
    pub high: u32,
    /// Bytes < 128 that count: non-space ones, one per counted whitespace run.
    pub low: u32,
}

/// What a text run carries from one piece to the next.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RunState {
    /// Whitespace seen since the last non-space byte.
    pub pending: bool,
    /// A non-space byte seen in this run.
    pub seen: bool,
}

/// The scanner's whitespace: space, tab, line feed, form feed, return.
pub const fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0c)
}

/// Counts `bytes` up to the first `stop` byte (or to the end), the next
/// piece of a text run whose state is `state` (updated for the next
/// piece), and says where it stopped: the index of that `stop` byte, or
/// `bytes.len()`.
///
/// Looking for the end of the run in the blocks being counted spares a
/// separate search: most text runs (the gaps between tags) are a few
/// bytes long, shorter than a memchr call costs.
pub fn count_to(stop: u8, bytes: &[u8], state: &mut RunState) -> (usize, TextCount) {
    let mut total = TextCount::default();
    let mut at = 0;
    while at < bytes.len() {
        // `bytes` is the rest of the page: all but its last few bytes are
        // whole blocks, loaded straight from it (`Block::at` picked
        // between the slice and an empty one first, then tested the
        // length); the padded last block is a cold call. Testing `at`
        // here rather than ending on the first block that is not full
        // was 0.1 M instructions fewer on every 15th page.
        let block = Block::at_whole_first(bytes, at);
        let hit = block.eq(stop) & block.present;
        if hit != 0 {
            // Only the bytes before the first hit count.
            count_block(block.v, (hit & hit.wrapping_neg()) - 1, state, &mut total);
            return (at + hit.trailing_zeros() as usize, total);
        }
        count_block(block.v, block.present, state, &mut total);
        at += 16;
    }
    (bytes.len(), total)
}

/// The first `c` in `bytes`, as `memchr::memchr` finds it. Half the
/// attribute values on the corpus are shorter than 16 bytes, where
/// memchr's call and setup cost more than the search: the first 16 bytes
/// are looked at here in one block, and only a longer search goes to
/// memchr.
pub fn find(c: u8, bytes: &[u8]) -> Option<usize> {
    let block = Block::at(bytes, 0);
    let hit = block.eq(c) & block.present;
    if hit != 0 {
        return Some(hit.trailing_zeros() as usize);
    }
    let rest = bytes.get(16..)?;
    memchr::memchr(c, rest).map(|i| 16 + i)
}

/// The first `c` in `bytes`, as [`find`] finds it, and whether every byte
/// before it is ASCII. One loop for what took a search and then a second
/// pass for the counts (`scan::Run`): attribute values are the bulk of
/// modern markup, and most run to a few dozen bytes, where memchr's call
/// and set-up cost more than its search saves. Past the first block, two
/// blocks a step: the loop's exit is mispredicted about once a value, and
/// a shorter loop is predicted better (cachegrind, every 15th page: with
/// this in place of memchr and `Run`'s pass, instructions −1.0 %,
/// mispredictions −7 %; one block a step −5.7 %).
#[inline]
pub fn find_noting_ascii(c: u8, bytes: &[u8]) -> Option<(usize, bool)> {
    // Half the values end in their first block: it alone first.
    let first = Block::at_whole_first(bytes, 0);
    let mut high = first.v.to_bitmask();
    let hit = first.eq(c) & first.present;
    if hit != 0 {
        return Some(first_hit(0, hit, 0, high));
    }
    if !first.full() {
        return None;
    }
    let mut at = 16;
    // Whole pairs of blocks, loaded straight from the slice: the slice is
    // the rest of the text scanned (the page's, when it comes whole), so
    // all but its last few bytes come this way, with one range check a
    // step and no padding to mask (the padded loads' tests and their
    // `memcpy`, inside the loop, were two thirds of its instructions: the
    // call also made it reload its constants every step).
    let quote = u8x16::splat(c);
    while let Some(pair) = bytes.get(at..at + 32) {
        // Both always there (the pair is 32 bytes): no branch is left.
        let (Some(a), Some(b)) = (pair.first_chunk::<16>(), pair.last_chunk::<16>()) else {
            break;
        };
        let (a, b) = (u8x16::new(*a), u8x16::new(*b));
        let top = a.to_bitmask() | b.to_bitmask() << 16;
        let hit = a.simd_eq(quote).to_bitmask() | b.simd_eq(quote).to_bitmask() << 16;
        if hit != 0 {
            return Some(first_hit(at, hit, high, top));
        }
        high |= top;
        at += 32;
    }
    find_noting_ascii_tail(c, bytes, at, high)
}

/// The end of [`find_noting_ascii`]'s search: the last bytes of the text
/// scanned (fewer than 32 from `at`), padded, with `high` the high bits
/// seen so far. Apart and cold: only a value that runs into the end of
/// the text (the page's, or a chunk's when it comes in pieces) comes
/// here, and the padded loads' `memcpy` calls kept out of the search
/// leave it small enough to inline into the scanner's attribute loop.
#[cold]
#[inline(never)]
fn find_noting_ascii_tail(c: u8, bytes: &[u8], at: usize, high: u32) -> Option<(usize, bool)> {
    let (a, b) = (Block::at(bytes, at), Block::at(bytes, at + 16));
    // The padding's zeros have no high bit.
    let top = a.v.to_bitmask() | b.v.to_bitmask() << 16;
    let hit = (a.eq(c) & a.present) | (b.eq(c) & b.present) << 16;
    if hit == 0 {
        return None;
    }
    Some(first_hit(at, hit, high, top))
}

/// Where [`find_noting_ascii`]'s first hit in the bits `hit` from `at`
/// is, and whether no high byte came before it: none in the blocks
/// before (`earlier` is 0) and none of `here`'s (the high bytes of the
/// blocks `hit` covers, a bit each) before the hit.
#[inline(always)]
fn first_hit(at: usize, hit: u32, earlier: u32, here: u32) -> (usize, bool) {
    let before = (hit & hit.wrapping_neg()) - 1;
    (
        at + hit.trailing_zeros() as usize,
        (earlier | here & before) == 0,
    )
}

/// How many bits of a 16-bit mask are set: one instruction where the
/// target has POPCNT (x86-64-v2 and up, aarch64), else by table: the
/// baseline x86-64 target has none, and `count_ones` would take a dozen
/// instructions there.
#[inline]
pub(crate) fn marked(m: u32) -> u32 {
    if cfg!(any(target_feature = "popcnt", target_arch = "aarch64")) {
        return (m & 0xffff).count_ones();
    }
    u32::from(ONES[(m & 0xff) as usize]) + u32::from(ONES[(m >> 8 & 0xff) as usize])
}

/// Set bits of every byte value.
static ONES: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        t[i] = (i as u32).count_ones() as u8;
        i += 1;
    }
    t
};

/// The bits of the whitespace bytes of `v`: spaces, and the controls
/// 0x09-0x0D but for 0x0B. Without a branch: a test for "only plain
/// spaces here" before the rarer controls was mispredicted on one block
/// in eight (a sixth of the text counter's mispredictions).
#[inline]
pub(crate) fn spaces(v: u8x16) -> u32 {
    let control = v - u8x16::splat(0x09);
    let tab_to_return = control.min(u8x16::splat(4)).simd_eq(control);
    let vertical_tab = v.simd_eq(u8x16::splat(0x0b));
    let blank = v.simd_eq(u8x16::splat(b' '));
    ((tab_to_return & !vertical_tab) | blank).to_bitmask()
}

/// Sixteen bytes by the rule (`count_byte` in the tests spells it out
/// byte by byte), with masks holding one bit per byte, bit `i` for byte
/// `i`; only the bytes `keep` marks are counted (the first ones, as a run
/// that stops inside the block, or the end of the buffer, leaves them).
#[inline(always)]
fn count_block(v: u8x16, keep: u32, state: &mut RunState, total: &mut TextCount) {
    let space = spaces(v) & keep;
    let solid = !space & keep;
    // Most runs between tags are whitespace or nothing at all.
    if solid == 0 {
        state.pending |= space != 0;
        return;
    }
    let high = v.to_bitmask() & keep;
    // A non-space byte right after whitespace (the first byte's
    // predecessor is the carried state) ends a whitespace run...
    let after_space = solid & ((space << 1) | u32::from(state.pending));
    // ... which counts unless nothing non-space came before it: possible
    // only for this block's first non-space byte, and only when the run
    // has seen none yet.
    let first = solid & solid.wrapping_neg();
    let uncounted = !state.seen && after_space & first != 0;
    let runs = marked(after_space) - u32::from(uncounted);
    if high == 0 {
        // An ASCII block: every non-space byte is a character and low.
        let solid = marked(solid) + runs;
        total.text += solid;
        total.low += solid;
    } else {
        // 10xxxxxx
        let continuation = continuations(v);
        total.text += marked(solid & !continuation) + runs;
        total.low += marked(solid & !high) + runs;
        total.high += marked(high);
    }
    let last = 31 - solid.leading_zeros();
    state.pending = space >> last != 0;
    state.seen = true;
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// One byte: the rule spelled out.
    fn count_byte(b: u8, state: &mut RunState, total: &mut TextCount) {
        if is_space(b) {
            state.pending = true;
            return;
        }
        if state.pending && state.seen {
            total.text += 1;
            total.low += 1;
        }
        state.pending = false;
        state.seen = true;
        if b < 0x80 {
            total.text += 1;
            total.low += 1;
        } else {
            total.high += 1;
            total.text += u32::from(b & 0xC0 != 0x80);
        }
    }

    /// The byte rule, up to the first `stop`.
    fn by_bytes(stop: u8, bytes: &[u8], state: &mut RunState) -> (usize, TextCount) {
        let mut total = TextCount::default();
        for (i, &b) in bytes.iter().enumerate() {
            if b == stop {
                return (i, total);
            }
            count_byte(b, state, &mut total);
        }
        (bytes.len(), total)
    }

    fn count(bytes: &[u8], state: &mut RunState) -> TextCount {
        let (n, total) = count_to(b'<', bytes, state);
        assert_eq!(n, bytes.len(), "no stop byte in {bytes:?}");
        total
    }

    /// The block test marks exactly the bytes `is_space` calls space, at
    /// every position (each byte value beside every other at each place).
    #[test]
    fn block_spaces_are_the_byte_rule() {
        for b in 0..=255u8 {
            for place in 0..16 {
                let mut block = [b'x'; 16];
                block[place] = b;
                block[(place + 7) % 16] = b.wrapping_add(place as u8);
                let want = block
                    .iter()
                    .enumerate()
                    .filter(|(_, c)| is_space(**c))
                    .fold(0u32, |m, (i, _)| m | 1 << i);
                assert_eq!(spaces(u8x16::new(block)), want, "{block:?}");
            }
        }
    }

    #[test]
    fn collapses_whitespace_between_words_only() {
        let mut state = RunState::default();
        let c = count(b"  ab \t\n cd  ", &mut state);
        // "ab cd": four letters and one collapsed run; the leading and
        // trailing whitespace count nothing (yet).
        assert_eq!(
            c,
            TextCount {
                text: 5,
                high: 0,
                low: 5
            }
        );
        assert_eq!(
            state,
            RunState {
                pending: true,
                seen: true
            }
        );
        // The run goes on: the pending whitespace counts once a word
        // follows.
        let c = count("é      x".as_bytes(), &mut state);
        assert_eq!(
            c,
            TextCount {
                text: 4,
                high: 2,
                low: 3
            }
        );
    }

    /// `find_noting_ascii` finds what memchr finds and calls the bytes
    /// before it ASCII exactly when they are: every length up to five
    /// blocks, with the quote and a high byte each anywhere (or nowhere),
    /// so that the two fall in the same block, in blocks one or more
    /// apart, and either way round.
    #[test]
    fn find_noting_ascii_agrees_with_memchr_and_is_ascii() {
        for len in 0..80 {
            for quote in (0..len).map(Some).chain([None]) {
                for high in (0..len).map(Some).chain([None]) {
                    let mut bytes = vec![b'a'; len];
                    if let Some(h) = high {
                        bytes[h] = 0xc3;
                    }
                    if let Some(q) = quote {
                        bytes[q] = b'"';
                    }
                    let want = memchr::memchr(b'"', &bytes).map(|i| (i, bytes[..i].is_ascii()));
                    assert_eq!(
                        find_noting_ascii(b'"', &bytes),
                        want,
                        "{len} {quote:?} {high:?}"
                    );
                }
            }
        }
    }

    proptest! {
        /// `find` finds what memchr finds, wherever the byte is.
        #[test]
        fn find_agrees_with_memchr(
            bytes in proptest::collection::vec(
                prop_oneof![Just(b'"'), Just(b'a'), Just(0x80), Just(0xa2), any::<u8>()],
                0..60,
            ),
            c in prop_oneof![Just(b'"'), Just(0xa2), Just(0), any::<u8>()],
        ) {
            prop_assert_eq!(find(c, &bytes), memchr::memchr(c, &bytes));
        }

        /// The blocks count as the byte rule does, whatever the bytes, the
        /// carried state and where the pieces are cut (the zeros after a
        /// short piece's end count as nothing, even when 0 is the stop).
        #[test]
        fn blocks_count_as_bytes_do(
            // Mixed bytes, or ASCII alone: whole blocks of it take
            // `count_block`'s ASCII path.
            bytes in prop_oneof![
                proptest::collection::vec(
                    prop_oneof![
                        Just(b' '), Just(b'\t'), Just(b'\n'), Just(b'\r'), Just(0x0c),
                        Just(0x0b), Just(0), Just(b'a'), Just(0x7f), Just(0x80),
                        Just(0xc3), Just(0xa9), Just(0xe2), Just(0xbf), Just(0xff),
                        Just(b'<'), any::<u8>(),
                    ],
                    0..80,
                ),
                proptest::collection::vec(
                    prop_oneof![
                        Just(b' '), Just(b'\t'), Just(b'\n'), Just(0x0b), Just(0),
                        Just(b'a'), Just(0x7f), Just(b'<'), 0u8..0x80,
                    ],
                    0..80,
                ),
            ],
            stop in prop_oneof![Just(b'<'), Just(0xa9), Just(0), any::<u8>()],
            cuts in (0usize..80, 0usize..80),
            pending in any::<bool>(),
            seen in any::<bool>(),
        ) {
            // Three pieces: the state is carried twice.
            let a = cuts.0.min(cuts.1).min(bytes.len());
            let b = cuts.0.max(cuts.1).min(bytes.len());
            let pieces = [&bytes[..a], &bytes[a..b], &bytes[b..]];
            let start = RunState { pending, seen };
            let (mut fast, mut slow) = (start, start);
            for piece in pieces {
                prop_assert_eq!(count_to(stop, piece, &mut fast), by_bytes(stop, piece, &mut slow));
                prop_assert_eq!(fast, slow);
            }
        }
    }

    /// A run with no stop byte ends at the slice's end wherever it falls:
    /// empty, inside a block (the padded last block), and on a block
    /// boundary (no padded block at all).
    #[test]
    fn runs_without_a_stop_end_at_every_length() {
        let bytes: Vec<u8> = b"ab  c\td\xc3\xa9 "
            .iter()
            .copied()
            .cycle()
            .take(50)
            .collect();
        for len in 0..=bytes.len() {
            for (pending, seen) in [(false, false), (true, false), (true, true), (false, true)] {
                let start = RunState { pending, seen };
                let (mut fast, mut slow) = (start, start);
                let piece = &bytes[..len];
                assert_eq!(
                    count_to(b'<', piece, &mut fast),
                    by_bytes(b'<', piece, &mut slow),
                    "{len}"
                );
                assert_eq!(fast, slow, "{len}");
            }
        }
    }
}
