//! Dropping exact and near duplicates from a stream of documents in
//! bounded memory: a document is a duplicate when an earlier kept one
//! among the last `window` has the same digest (exact) or a SimHash at
//! most `threshold` bits away (near). A document without a SimHash is
//! judged by its digest alone. Decides only; reading and writing the
//! stream is the caller's.
//!
//! Near matches are found by multi-index hashing (Norouzi, Punjani and
//! Fleet, "Fast search in Hamming space with multi-index hashing", 2012),
//! the pigeonhole of Manku et al. (2007) with a radius: cut into `m`
//! blocks, two SimHashes at most `threshold` bits apart differ in at most
//! `threshold / m` bits in one block at least. Each block has a table of
//! buckets keyed by the block's value, holding the SimHashes of the kept
//! documents, so a document is compared only with the buckets of the
//! values within `threshold / m` bits of its own blocks'.
//!
//! `m` is chosen for the threshold and the window by the expected work
//! on random SimHashes: each bucket looked in is a cache miss or two,
//! each SimHash in it a cheap comparison. Small blocks mean few buckets
//! to look in but crowded ones (`threshold + 1` blocks, the plain
//! pigeonhole, puts 1/512 of the window in each bucket at 6 bits: work
//! grows with the window); large blocks, sparse buckets but many of
//! them. A table has at most `window / 4` buckets (rounded up to a power
//! of two): a bucket then holds several block values, told apart by the
//! comparison.
//!
//! At the default window (a million) and threshold (6 bits) that is four
//! blocks of 16 bits, each looked in at its value and the 16 values one
//! bit away: 68 buckets of about 15 SimHashes each, where 7 blocks of 9
//! bits would compare some 13,000.
//!
//! Memory: the kept documents, their digests, `m` bucket entries each
//! (4 at the default), and the tables' empty buckets.

use std::collections::{HashSet, VecDeque};

/// The largest threshold taken.
pub const MAX_THRESHOLD: u32 = 15;

/// What looking in a bucket costs, in comparisons of one SimHash: a
/// cache miss or two against a scan of memory that is read in order.
const PROBE_COST: f64 = 100.0;

/// Cuts with more buckets than this to look in per document are not
/// considered (one block of 64 bits past a threshold of 2, say), so the
/// masks to try stay few.
const MAX_PROBES: f64 = 1e5;

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
    /// None for a document judged by its digest alone.
    simhash: Option<u64>,
}

/// One block of the SimHash and its table.
#[derive(Debug)]
struct Block {
    /// The block's lowest bit.
    shift: u32,
    /// The block's bits that choose its bucket: all of them, or as many
    /// low ones as the table has buckets for.
    mask: u64,
    /// Where the table starts in `Deduper::buckets`.
    start: usize,
    /// What to XOR a SimHash's bucket with for the buckets to look in:
    /// the masks of at most `threshold / m` of the `mask` bits.
    flips: Vec<u64>,
}

/// The deduplicator's state: the last `window` kept documents, indexed.
#[derive(Debug)]
pub struct Deduper {
    threshold: u32,
    window: usize,
    blocks: Vec<Block>,
    /// Buckets looked in per document.
    probes: usize,
    /// The kept documents in the window, oldest first.
    kept: VecDeque<Kept>,
    /// Their digests (all different: a repeated one is an exact duplicate).
    digests: HashSet<u128>,
    /// The blocks' tables one after the other: a bucket holds the
    /// SimHashes of the kept documents whose block falls in it, oldest
    /// first, so the oldest kept document, when it is forgotten, is first
    /// in each of its buckets.
    buckets: Box<[VecDeque<u64>]>,
}

impl Deduper {
    /// A deduplicator remembering the last `window` kept documents
    /// (at least one), near duplicates within `threshold` bits (at most
    /// [`MAX_THRESHOLD`]).
    pub fn new(threshold: u32, window: usize) -> Self {
        let threshold = threshold.min(MAX_THRESHOLD);
        let window = window.max(1);
        Self::with_blocks(threshold, window, blocks_for(threshold, window))
    }

    /// A deduplicator cutting SimHashes into `m` blocks.
    fn with_blocks(threshold: u32, window: usize, m: u32) -> Self {
        let mut start = 0;
        let blocks: Vec<Block> = (0..m)
            .map(|i| {
                let block = Block::new(m, i, threshold / m, window, start);
                start += block.len();
                block
            })
            .collect();
        Deduper {
            threshold,
            window,
            probes: blocks.iter().map(|b| b.flips.len()).sum(),
            blocks,
            kept: VecDeque::new(),
            digests: HashSet::new(),
            buckets: (0..start).map(|_| VecDeque::new()).collect(),
        }
    }

    /// Judges the next document (its digest and SimHash); a kept one is
    /// remembered, and the oldest forgotten once the window is full.
    pub fn check(&mut self, digest: u128, simhash: u64) -> Verdict {
        if self.digests.contains(&digest) {
            return Verdict::Exact;
        }
        if let Some(d) = self.nearest(simhash) {
            return Verdict::Near(d);
        }
        self.keep(Kept {
            digest,
            simhash: Some(simhash),
        });
        Verdict::Kept
    }

    /// Judges the next document by its digest alone (one without a
    /// SimHash): an exact duplicate or kept. A kept one is remembered as
    /// [`check`](Self::check) remembers one, and later documents with a
    /// SimHash are judged against its digest only.
    pub fn check_exact(&mut self, digest: u128) -> Verdict {
        if self.digests.contains(&digest) {
            return Verdict::Exact;
        }
        self.keep(Kept {
            digest,
            simhash: None,
        });
        Verdict::Kept
    }

    /// The distance to the nearest kept document within the threshold.
    fn nearest(&self, simhash: u64) -> Option<u32> {
        // Where the buckets' SimHashes are is read for all buckets before
        // any SimHash is: the reads do not wait on one another, so their
        // cache misses overlap (three times as fast at the default window).
        let mut found = Vec::with_capacity(self.probes);
        found.extend(
            self.buckets_near(simhash)
                .filter(|bucket| !bucket.is_empty())
                .map(VecDeque::as_slices),
        );
        found
            .iter()
            .flat_map(|&(older, newer)| older.iter().chain(newer))
            .map(|&other| (other ^ simhash).count_ones())
            .filter(|&d| d <= self.threshold)
            .min()
    }

    /// The buckets to look in: those near each of `simhash`'s blocks. Every
    /// kept SimHash within the threshold is in one of them.
    fn buckets_near(&self, simhash: u64) -> impl Iterator<Item = &VecDeque<u64>> + '_ {
        self.blocks.iter().flat_map(move |block| {
            let bucket = block.bucket(simhash);
            block
                .flips
                .iter()
                .map(move |&flip| &self.buckets[block.slot(bucket ^ flip)])
        })
    }

    fn keep(&mut self, doc: Kept) {
        self.digests.insert(doc.digest);
        if let Some(simhash) = doc.simhash {
            for block in &self.blocks {
                self.buckets[block.slot(block.bucket(simhash))].push_back(simhash);
            }
        }
        self.kept.push_back(doc);
        if self.kept.len() > self.window {
            self.forget_oldest();
        }
    }

    /// Forgets the oldest kept document: its digest, and the first entry
    /// of each of its buckets.
    fn forget_oldest(&mut self) {
        let Some(doc) = self.kept.pop_front() else {
            return;
        };
        self.digests.remove(&doc.digest);
        let Some(simhash) = doc.simhash else {
            return;
        };
        for block in &self.blocks {
            let bucket = &mut self.buckets[block.slot(block.bucket(simhash))];
            let first = bucket.pop_front();
            debug_assert_eq!(first, Some(simhash));
            shrink(bucket);
        }
    }

    /// Kept documents remembered now (at most the window).
    pub fn remembered(&self) -> usize {
        self.kept.len()
    }
}

impl Block {
    /// Block `i` of `m`, within `radius` bits, its table starting at
    /// `start`.
    fn new(m: u32, i: u32, radius: u32, window: usize, start: usize) -> Self {
        let (shift, width) = cut(m, i);
        let width = width.min(table_bits(window));
        Block {
            shift,
            mask: low_bits(width),
            start,
            flips: flips(width, radius),
        }
    }

    /// Buckets in the table.
    fn len(&self) -> usize {
        // At most 2^table_bits, a usize.
        self.mask as usize + 1
    }

    /// The bucket a SimHash's block falls in.
    fn bucket(&self, simhash: u64) -> u64 {
        simhash >> self.shift & self.mask
    }

    /// Where a bucket is in `Deduper::buckets`.
    fn slot(&self, bucket: u64) -> usize {
        self.start + bucket as usize
    }
}

/// How many blocks to cut SimHashes into for a threshold and a window:
/// the least expected work per document.
fn blocks_for(threshold: u32, window: usize) -> u32 {
    (1..=threshold + 1)
        .filter_map(|m| Some((m, cost(m, threshold, window)?)))
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .map_or(threshold + 1, |(m, _)| m)
}

/// The expected work of one check with `m` blocks and a full window of
/// random SimHashes: the buckets looked in, `PROBE_COST` each, and the
/// SimHashes in them. `None` past `MAX_PROBES` masks to try.
fn cost(m: u32, threshold: u32, window: usize) -> Option<f64> {
    let mut probes = 0.0;
    let mut work = 0.0;
    for i in 0..m {
        let width = cut(m, i).1.min(table_bits(window));
        let ball = ball(width, threshold / m);
        probes += ball;
        work += ball * (PROBE_COST + window as f64 / 2f64.powi(width as i32));
    }
    (probes <= MAX_PROBES).then_some(work)
}

/// How many values are within `radius` bits of one of `width` bits.
fn ball(width: u32, radius: u32) -> f64 {
    (0..=radius.min(width)).map(|r| binomial(width, r)).sum()
}

fn binomial(n: u32, k: u32) -> f64 {
    (0..k).fold(1.0, |acc, i| acc * f64::from(n - i) / f64::from(i + 1))
}

/// Block `i` of `m`: its lowest bit and its width (the 64 bits shared
/// as evenly as they go).
fn cut(m: u32, i: u32) -> (u32, u32) {
    let from = 64 * i / m;
    (from, 64 * (i + 1) / m - from)
}

/// A mask of the `width` low bits (0 to 64).
fn low_bits(width: u32) -> u64 {
    u64::MAX.checked_shr(64 - width).unwrap_or(0)
}

/// The bits that choose a bucket, at most: tables have a quarter of the
/// window's buckets, rounded up to a power of two.
fn table_bits(window: usize) -> u32 {
    (window / 4).next_power_of_two().trailing_zeros()
}

/// The masks of at most `radius` bits within `width`, each once: every
/// mask of `n` bits is one of `n - 1` bits and a bit above its highest.
fn flips(width: u32, radius: u32) -> Vec<u64> {
    let mut all = vec![0u64];
    let mut last = vec![0u64];
    for _ in 0..radius {
        last = last
            .iter()
            .flat_map(|&f| (64 - f.leading_zeros()..width).map(move |b| f | 1 << b))
            .collect();
        all.extend(&last);
    }
    all
}

/// Gives back a bucket's room once it is three quarters empty, so that the
/// buckets' room stays within a few times what the window holds, whatever
/// values come and go.
fn shrink(bucket: &mut VecDeque<u64>) {
    if bucket.len() * 4 <= bucket.capacity() {
        bucket.shrink_to(bucket.len() * 2);
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
    fn documents_without_a_simhash_are_judged_by_their_digest_alone() {
        let mut d = Deduper::new(3, 2);
        assert_eq!(d.check_exact(1), Verdict::Kept);
        assert_eq!(d.check_exact(1), Verdict::Exact);
        assert_eq!(d.check(1, 0xFF), Verdict::Exact);
        assert_eq!(d.check(2, 0xFF), Verdict::Kept);
        assert_eq!(d.check_exact(2), Verdict::Exact);
        // The digest-only document takes a place in the window like any
        // other: the third kept forgets the first.
        assert_eq!(d.check_exact(3), Verdict::Kept);
        assert_eq!(d.remembered(), 2);
        assert_eq!(d.check_exact(1), Verdict::Kept);
        assert_eq!(d.check(4, 0xFE), Verdict::Kept, "2's SimHash was forgotten");
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
        let entries = 4 * d.blocks.len();
        assert_eq!(d.buckets.iter().map(VecDeque::len).sum::<usize>(), entries);
        assert!(d.buckets.iter().map(VecDeque::capacity).sum::<usize>() <= 4 * entries);
        assert!(d.digests.len() <= 4);
        // The first document has left the window: its copy is kept.
        assert_eq!(d.check(0, 0), Verdict::Kept);
    }

    /// A small random generator (SplitMix64): the tests need no crate
    /// and give the same stream on every run.
    struct Random(u64);

    impl Random {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = self.0;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        }

        fn below(&mut self, n: u64) -> u64 {
            self.next() % n
        }
    }

    /// What the index must decide: the last `window` kept documents
    /// scanned one by one.
    struct Scan {
        threshold: u32,
        window: usize,
        kept: VecDeque<(u128, u64)>,
    }

    impl Scan {
        fn check(&mut self, digest: u128, simhash: u64) -> Verdict {
            if self.kept.iter().any(|&(d, _)| d == digest) {
                return Verdict::Exact;
            }
            let nearest = self
                .kept
                .iter()
                .map(|&(_, s)| (s ^ simhash).count_ones())
                .filter(|&d| d <= self.threshold)
                .min();
            if let Some(d) = nearest {
                return Verdict::Near(d);
            }
            self.kept.push_back((digest, simhash));
            if self.kept.len() > self.window {
                self.kept.pop_front();
            }
            Verdict::Kept
        }
    }

    /// Documents that are often near or exact copies of recent ones:
    /// a SimHash a few bits (up to the threshold and past it) from an
    /// earlier one, or fresh; now and then an earlier digest.
    fn stream(random: &mut Random, threshold: u32, n: usize) -> Vec<(u128, u64)> {
        let mut docs: Vec<(u128, u64)> = Vec::with_capacity(n);
        for i in 0..n {
            let earlier = (!docs.is_empty()).then(|| {
                let back = random.below(60.min(docs.len() as u64)) as usize;
                docs[docs.len() - 1 - back]
            });
            let digest = match earlier {
                Some((d, _)) if random.below(10) == 0 => d,
                _ => i as u128,
            };
            let simhash = match earlier {
                Some((_, s)) if random.below(2) == 0 => {
                    let flips = random.below(u64::from(threshold) + 3);
                    (0..flips).fold(s, |s, _| s ^ (1 << random.below(64)))
                }
                _ => random.next(),
            };
            docs.push((digest, simhash));
        }
        docs
    }

    /// Checks a stream with `index` and with a scan, which must agree.
    fn agree(index: &mut Deduper, random: &mut Random, docs: usize) {
        let (threshold, window) = (index.threshold, index.window);
        let mut scan = Scan {
            threshold,
            window,
            kept: VecDeque::new(),
        };
        let mut near = 0;
        for (i, (digest, simhash)) in stream(random, threshold, docs).into_iter().enumerate() {
            let verdict = index.check(digest, simhash);
            let expected = scan.check(digest, simhash);
            let layout = index.blocks.len();
            assert_eq!(
                verdict, expected,
                "window {window}, threshold {threshold}, {layout} blocks, doc {i}"
            );
            near += usize::from(matches!(verdict, Verdict::Near(_)));
        }
        // The stream tried what it should: near duplicates.
        assert!(near > docs / 10, "threshold {threshold}: {near} near");
    }

    #[test]
    fn the_index_decides_as_a_scan_of_the_whole_window_does() {
        let mut random = Random(7);
        for threshold in [0, 1, 2, 3, 4, 6, 7, 8, 11, 12, 15] {
            // Every cut, in small tables, with a full window forgetting
            // its oldest.
            for window in [40, 300] {
                for m in 1..=threshold + 1 {
                    let mut index = Deduper::with_blocks(threshold, window, m);
                    agree(&mut index, &mut random, 2000);
                    assert_eq!(index.remembered(), window);
                }
            }
            // The cut chosen for the default window, in full tables.
            agree(&mut Deduper::new(threshold, 1_000_000), &mut random, 2000);
        }
    }

    /// How many remembered SimHashes a check of a random one compares,
    /// on average, with `n` random documents remembered in a window of
    /// a million.
    fn compared(threshold: u32, n: usize) -> f64 {
        let mut random = Random(11);
        let mut d = Deduper::new(threshold, 1_000_000);
        for i in 0..n {
            d.check(i as u128, random.next());
        }
        let probes = 200;
        let total: usize = (0..probes)
            .map(|_| {
                d.buckets_near(random.next())
                    .map(VecDeque::len)
                    .sum::<usize>()
            })
            .sum();
        total as f64 / f64::from(probes)
    }

    #[test]
    fn a_check_compares_a_small_share_of_what_is_remembered() {
        // Random SimHashes, rarely within the threshold of one another:
        // bands of `64 / (threshold + 1)` bits would compare 1.3% of them
        // at 6 bits, 20% at 10.
        let n = 20_000;
        let at_default = compared(6, n);
        assert!(at_default < n as f64 / 100.0, "{at_default}");
        let at_ten = compared(10, n);
        assert!(at_ten < n as f64 / 10.0, "{at_ten}");
    }
}
