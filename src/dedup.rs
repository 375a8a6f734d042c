//! Dropping exact and near duplicates from a stream of documents in
//! bounded memory: a document is a duplicate when an earlier kept one
//! among the last `window` has the same digest (exact) or a SimHash at
//! most `threshold` bits away (near). Near matches are found through
//! bands: the 64 bits cut into `threshold + 1` pieces, two hashes within
//! the threshold agree on at least one piece (pigeonhole), so only
//! documents sharing a piece are compared. Decides only; reading and
//! writing the stream is the caller's.

use std::collections::{HashMap, VecDeque};

/// The largest threshold taken: with more bands than this, pieces are a
/// few bits long and nearly every document shares one with every other.
pub const MAX_THRESHOLD: u32 = 15;

/// What became of a document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Kept,
    /// The same digest as a kept document.
    Exact,
    /// A SimHash this many bits from a kept document's.
    Near(u32),
}

/// A kept document, remembered while it is in the window.
#[derive(Debug, Clone, Copy)]
struct Kept {
    digest: u128,
    simhash: u64,
}

/// The deduplicator's state: the last `window` kept documents, indexed.
#[derive(Debug)]
pub struct Deduper {
    threshold: u32,
    window: usize,
    /// Band cuts: `bands[i]` is (shift, mask) of piece `i`.
    bands: Vec<(u32, u64)>,
    kept: VecDeque<(u64, Kept)>,
    /// Sequence number of the first entry of `kept`.
    digests: HashMap<u128, u32>,
    /// (band, piece) → sequence numbers of kept documents.
    pieces: HashMap<(u8, u64), Vec<u64>>,
    next: u64,
}

impl Deduper {
    /// A deduplicator remembering the last `window` kept documents
    /// (at least one), near duplicates within `threshold` bits (at most
    /// [`MAX_THRESHOLD`]).
    pub fn new(threshold: u32, window: usize) -> Self {
        let threshold = threshold.min(MAX_THRESHOLD);
        let n = threshold + 1;
        let bands = (0..n)
            .map(|i| {
                let from = 64 * i / n;
                let to = 64 * (i + 1) / n;
                let width = to - from;
                let mask = if width == 64 {
                    u64::MAX
                } else {
                    (1u64 << width) - 1
                };
                (from, mask)
            })
            .collect();
        Deduper {
            threshold,
            window: window.max(1),
            bands,
            kept: VecDeque::new(),
            digests: HashMap::new(),
            pieces: HashMap::new(),
            next: 0,
        }
    }

    /// Judges the next document (its digest and SimHash); a kept one is
    /// remembered, and the oldest forgotten once the window is full.
    pub fn check(&mut self, digest: u128, simhash: u64) -> Verdict {
        if self.digests.contains_key(&digest) {
            return Verdict::Exact;
        }
        if let Some(d) = self.nearest(simhash) {
            return Verdict::Near(d);
        }
        self.keep(Kept { digest, simhash });
        Verdict::Kept
    }

    /// The distance to the nearest kept document within the threshold.
    fn nearest(&self, simhash: u64) -> Option<u32> {
        let first = self.kept.front().map_or(self.next, |(seq, _)| *seq);
        let mut best: Option<u32> = None;
        for (band, &(shift, mask)) in self.bands.iter().enumerate() {
            let Some(seqs) = self.pieces.get(&(band as u8, simhash >> shift & mask)) else {
                continue;
            };
            for &seq in seqs {
                let Some((_, kept)) = self.kept.get((seq - first) as usize) else {
                    continue;
                };
                let d = (kept.simhash ^ simhash).count_ones();
                if d <= self.threshold && best.is_none_or(|b| d < b) {
                    best = Some(d);
                }
            }
        }
        best
    }

    fn keep(&mut self, doc: Kept) {
        let seq = self.next;
        self.next += 1;
        *self.digests.entry(doc.digest).or_default() += 1;
        for (band, &(shift, mask)) in self.bands.iter().enumerate() {
            self.pieces
                .entry((band as u8, doc.simhash >> shift & mask))
                .or_default()
                .push(seq);
        }
        self.kept.push_back((seq, doc));
        if self.kept.len() > self.window {
            self.forget_oldest();
        }
    }

    fn forget_oldest(&mut self) {
        let Some((seq, doc)) = self.kept.pop_front() else {
            return;
        };
        if let Some(n) = self.digests.get_mut(&doc.digest) {
            *n -= 1;
            if *n == 0 {
                self.digests.remove(&doc.digest);
            }
        }
        for (band, &(shift, mask)) in self.bands.iter().enumerate() {
            let key = (band as u8, doc.simhash >> shift & mask);
            if let Some(seqs) = self.pieces.get_mut(&key) {
                seqs.retain(|&s| s != seq);
                if seqs.is_empty() {
                    self.pieces.remove(&key);
                }
            }
        }
    }

    /// Kept documents remembered now (at most the window).
    pub fn remembered(&self) -> usize {
        self.kept.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_and_near_duplicates_are_found_and_far_ones_kept() {
        let mut d = Deduper::new(3, 100);
        assert_eq!(d.check(1, 0xFFFF_0000_FFFF_0000), Verdict::Kept);
        assert_eq!(d.check(1, 0x1234), Verdict::Exact);
        assert_eq!(d.check(2, 0xFFFF_0000_FFFF_0007), Verdict::Near(3));
        assert_eq!(d.check(3, 0xFFFF_0000_FFFF_000F), Verdict::Kept);
        assert_eq!(d.check(4, 0x0000_FFFF_0000_FFFF), Verdict::Kept);
    }

    #[test]
    fn every_pair_within_the_threshold_is_found_whatever_bits_differ() {
        let base = 0x0123_4567_89AB_CDEFu64;
        for a in 0..64 {
            for b in 0..64 {
                for c in [5, 17, 40, 63] {
                    let mut d = Deduper::new(3, 10);
                    d.check(1, base);
                    let other = base ^ (1 << a) ^ (1 << b) ^ (1 << c);
                    assert!(matches!(d.check(2, other), Verdict::Near(_)), "{a} {b} {c}");
                }
            }
        }
    }

    #[test]
    fn memory_is_bounded_by_the_window() {
        let mut d = Deduper::new(3, 4);
        for i in 0..100u64 {
            d.check(u128::from(i), i.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        }
        assert_eq!(d.remembered(), 4);
        assert!(d.pieces.values().map(Vec::len).sum::<usize>() <= 4 * 4);
        assert!(d.digests.len() <= 4);
        // The first document has left the window: its copy is kept.
        assert_eq!(d.check(0, 0), Verdict::Kept);
    }
}
