//! Near-duplicate fingerprints of a text: a 64-bit SimHash of its word
//! shingles (Charikar), and MinHash signatures on request. Words are
//! hashed with a small multiply-and-shift hash of their bytes, eight at a
//! time, fixed here so that fingerprints stay comparable across versions
//! and machines. Reads the text only; deciding what is a duplicate is
//! `dedup`'s.

/// Words per shingle: a changed word changes this many features.
const SHINGLE: usize = 3;
const K: u64 = 0x9E37_79B9_7F4A_7C15;

/// The hash of one word's bytes.
#[inline]
fn word_hash(word: &[u8]) -> u64 {
    let mut h = (word.len() as u64).wrapping_mul(K);
    let mut chunks = word.chunks_exact(8);
    for c in &mut chunks {
        let v = u64::from_le_bytes(c.try_into().unwrap_or([0; 8]));
        h = (h ^ v).wrapping_mul(K).rotate_left(29);
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        let mut last = [0u8; 8];
        last[..rest.len()].copy_from_slice(rest);
        h = (h ^ u64::from_le_bytes(last))
            .wrapping_mul(K)
            .rotate_left(29);
    }
    h
}

/// Murmur3's 64-bit finaliser: every input bit moves every output bit.
#[inline]
fn mix(mut h: u64) -> u64 {
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^ (h >> 33)
}

/// The text's features: one hash for each run of [`SHINGLE`] words (a
/// word: a run of letters and digits; ASCII case folded), or one for the
/// whole text when it has fewer words.
fn features(text: &str, mut each: impl FnMut(u64)) {
    let mut window = [0u64; SHINGLE];
    let mut words = 0usize;
    let mut word = Vec::with_capacity(32);
    let mut push = |word: &mut Vec<u8>, words: &mut usize, each: &mut dyn FnMut(u64)| {
        if word.is_empty() {
            return;
        }
        window[*words % SHINGLE] = word_hash(word);
        word.clear();
        *words += 1;
        if *words >= SHINGLE {
            let at = *words % SHINGLE;
            // The shingle's words in order, oldest first.
            let (a, b, c) = (
                window[at],
                window[(at + 1) % SHINGLE],
                window[(at + 2) % SHINGLE],
            );
            each(mix(a ^ b.rotate_left(21) ^ c.rotate_left(42)));
        }
    };
    for &b in text.as_bytes() {
        if b.is_ascii_alphanumeric() || b >= 0x80 {
            word.push(b.to_ascii_lowercase());
        } else {
            push(&mut word, &mut words, &mut each);
        }
    }
    push(&mut word, &mut words, &mut each);
    if (1..SHINGLE).contains(&words) {
        each(mix(window[..words]
            .iter()
            .fold(0, |h, w| h.rotate_left(21) ^ w)));
    }
}

/// `BITS[b]`: the eight bits of `b`, one a byte (bit `i` in byte `i`).
static BITS: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        let mut i = 0;
        while i < 8 {
            t[b] |= (((b >> i) & 1) as u64) << (8 * i);
            i += 1;
        }
        b += 1;
    }
    t
};

/// The 64-bit SimHash of a text: bit `i` is set when most of its
/// features have bit `i` set. 0 for a text without words. Texts that
/// differ in a few words differ in few bits; unrelated texts in about 32.
pub fn simhash(text: &str) -> u64 {
    // Bit counts eight to a word, a byte each, added from a table: a
    // feature costs eight lookups and adds, not 64 branches. The bytes
    // are emptied into the totals before they can overflow.
    let mut packed = [0u64; 8];
    let mut totals = [0u32; 64];
    let mut pending = 0u32;
    let mut n = 0u32;
    let flush = |packed: &mut [u64; 8], totals: &mut [u32; 64]| {
        for (k, p) in packed.iter_mut().enumerate() {
            for (i, byte) in p.to_le_bytes().iter().enumerate() {
                totals[8 * k + i] += u32::from(*byte);
            }
            *p = 0;
        }
    };
    features(text, |h| {
        for (k, p) in packed.iter_mut().enumerate() {
            *p += BITS[((h >> (8 * k)) & 0xff) as usize];
        }
        n += 1;
        pending += 1;
        if pending == 255 {
            flush(&mut packed, &mut totals);
            pending = 0;
        }
    });
    flush(&mut packed, &mut totals);
    totals
        .iter()
        .enumerate()
        .filter(|&(_, &t)| 2 * t > n)
        .fold(0, |h, (i, _)| h | 1 << i)
}

/// `n` MinHash values of the text's features: value `i` is the least of
/// the features each hashed with seed `i`. Two texts' share of equal
/// values estimates the Jaccard similarity of their shingle sets.
pub fn minhash(text: &str, n: usize) -> Vec<u32> {
    let mut mins = vec![u64::MAX; n];
    let seeds: Vec<u64> = (0..n as u64)
        .map(|i| mix(i.wrapping_add(1).wrapping_mul(K)))
        .collect();
    features(text, |h| {
        for (m, s) in mins.iter_mut().zip(&seeds) {
            *m = (*m).min(mix(h ^ s));
        }
    });
    mins.into_iter().map(|m| (m >> 32) as u32).collect()
}

/// Bits in which two SimHashes differ.
pub fn distance(a: u64, b: u64) -> u32 {
    (a ^ b).count_ones()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(seed: u64, n: usize) -> String {
        (0..n)
            .map(|i| format!("w{}", mix(seed * 1000 + i as u64) % 5000))
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn simhash_counts_agree_with_a_plain_tally() {
        let text = words(1, 700);
        let mut tally = [0i64; 64];
        features(&text, |h| {
            for (i, t) in tally.iter_mut().enumerate() {
                *t += if h >> i & 1 == 1 { 1 } else { -1 };
            }
        });
        let plain = tally
            .iter()
            .enumerate()
            .filter(|&(_, &t)| t > 0)
            .fold(0u64, |h, (i, _)| h | 1 << i);
        assert_eq!(simhash(&text), plain);
    }

    #[test]
    fn a_changed_word_moves_few_bits_and_another_text_many() {
        let a = words(1, 400);
        let b = a.replacen("w", "changed w", 1);
        let c = words(2, 400);
        assert!(distance(simhash(&a), simhash(&b)) <= 3);
        assert!(distance(simhash(&a), simhash(&c)) >= 16);
    }

    #[test]
    fn case_and_punctuation_do_not_change_the_fingerprint() {
        assert_eq!(simhash("The cat, the hat."), simhash("the CAT the hat"));
        assert_eq!(simhash(""), 0);
        assert_ne!(simhash("one"), simhash("two"));
    }

    #[test]
    fn minhash_agreement_follows_the_overlap() {
        let a = words(1, 300);
        let same = minhash(&a, 64);
        assert_eq!(same, minhash(&a, 64));
        let other = minhash(&words(2, 300), 64);
        let equal = same.iter().zip(&other).filter(|(x, y)| x == y).count();
        assert!(equal < 8, "{equal}");
    }
}
