//! The scoring of `shared/eval/score.py`, mirrored exactly: tokenisation
//! (NFKC, lowercase, `\w+` words as Python's `re` defines them, CJK words
//! split per character), token LCS by the bit-parallel algorithm (Hyyrö
//! 2004), bag-of-words overlap, precision/recall/F1, and the headline
//! normalisation. Pure functions over strings; no I/O, no averaging.

use std::collections::HashMap;
use unicode_general_category::{GeneralCategory as G, get_general_category};
use unicode_normalization::UnicodeNormalization;

/// Python's `\w` for `str` patterns: letters (L*), numbers (N*) and `_`.
fn is_word_char(c: char) -> bool {
    c == '_'
        || matches!(
            get_general_category(c),
            G::UppercaseLetter
                | G::LowercaseLetter
                | G::TitlecaseLetter
                | G::ModifierLetter
                | G::OtherLetter
                | G::DecimalNumber
                | G::LetterNumber
                | G::OtherNumber
        )
}

/// score.py's `CJK` class: kana, CJK ideographs (ext. A and unified), Hangul.
fn is_cjk(c: char) -> bool {
    matches!(c,
        '\u{3040}'..='\u{30ff}' | '\u{3400}'..='\u{4dbf}' | '\u{4e00}'..='\u{9fff}'
        | '\u{ac00}'..='\u{d7af}')
}

/// Python's `str.isspace`: Rust's whitespace plus the four ASCII
/// information separators U+001C..U+001F.
fn is_py_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// score.py's `tokens(text)`.
pub fn tokens(text: &str) -> Vec<String> {
    let normal: String = text.nfkc().collect();
    let lower = normal.to_lowercase();
    let mut out = Vec::new();
    for word in lower
        .split(|c: char| !is_word_char(c))
        .filter(|w| !w.is_empty())
    {
        if word.chars().any(is_cjk) {
            out.extend(word.chars().map(String::from));
        } else {
            out.push(word.to_string());
        }
    }
    out
}

/// score.py's headline normalisation: `" ".join(s.split()).lower()`.
pub fn normalize_headline(s: &str) -> String {
    let joined: Vec<&str> = s.split(is_py_space).filter(|w| !w.is_empty()).collect();
    joined.join(" ").to_lowercase()
}

/// Maps two token lists to dense ids (equal tokens, equal ids).
pub fn intern<'t>(a: &'t [String], b: &'t [String]) -> (Vec<u32>, Vec<u32>) {
    let mut ids: HashMap<&'t str, u32> = HashMap::new();
    let mut id = |t: &'t String| {
        let n = ids.len() as u32;
        *ids.entry(t.as_str()).or_insert(n)
    };
    let a: Vec<u32> = a.iter().map(&mut id).collect();
    let b: Vec<u32> = b.iter().map(&mut id).collect();
    (a, b)
}

/// One more than the largest id in either sequence.
fn id_bound(a: &[u32], b: &[u32]) -> usize {
    a.iter().chain(b).max().map_or(0, |&m| m as usize + 1)
}

/// Length of the longest common subsequence of two id sequences (dense ids
/// from [`intern`] keep memory small), bit-parallel: O(|a|·|b|/64).
pub fn lcs_len(a: &[u32], b: &[u32]) -> usize {
    let (a, b) = if a.len() < b.len() { (b, a) } else { (a, b) };
    if b.is_empty() {
        return 0;
    }
    let ids = id_bound(a, b);
    let words = a.len().div_ceil(64);
    let masks = Masks::new(a, b, ids, words);
    let top = match a.len() % 64 {
        0 => u64::MAX,
        r => (1u64 << r) - 1,
    };
    let mut v = vec![u64::MAX; words];
    v[words - 1] = top;
    for &t in b {
        if let Some(m) = masks.get(t) {
            step(&mut v, m);
            v[words - 1] &= top;
        }
    }
    a.len() - v.iter().map(|w| w.count_ones() as usize).sum::<usize>()
}

/// One row of Hyyrö's recurrence: V = (V + U) | (V − U), U = V & M.
fn step(v: &mut [u64], m: &[u64]) {
    let mut carry = false;
    for (w, &mw) in v.iter_mut().zip(m) {
        let old = *w;
        let u = old & mw;
        let (s1, c1) = old.overflowing_add(u);
        let (s2, c2) = s1.overflowing_add(u64::from(carry));
        carry = c1 || c2;
        // u ⊆ old, so old − u never borrows.
        *w = s2 | (old ^ u);
    }
}

/// Match masks of `a`'s tokens that also occur in `b`.
struct Masks {
    slot: Vec<u32>,
    bits: Vec<u64>,
    words: usize,
}

impl Masks {
    fn new(a: &[u32], b: &[u32], ids: usize, words: usize) -> Self {
        let mut slot = vec![u32::MAX; ids];
        let mut in_b = vec![false; ids];
        for &t in b {
            in_b[t as usize] = true;
        }
        let mut bits = Vec::new();
        for (i, &t) in a.iter().enumerate() {
            let t = t as usize;
            if !in_b[t] {
                continue;
            }
            if slot[t] == u32::MAX {
                slot[t] = (bits.len() / words) as u32;
                bits.resize(bits.len() + words, 0);
            }
            bits[slot[t] as usize * words + i / 64] |= 1 << (i % 64);
        }
        Masks { slot, bits, words }
    }

    fn get(&self, t: u32) -> Option<&[u64]> {
        let s = *self.slot.get(t as usize)?;
        (s != u32::MAX).then(|| &self.bits[s as usize * self.words..][..self.words])
    }
}

/// Multiset overlap of two id sequences.
pub fn bow_overlap(a: &[u32], b: &[u32]) -> usize {
    let mut count = vec![0u32; id_bound(a, b)];
    for &t in a {
        count[t as usize] += 1;
    }
    let mut k = 0;
    for &t in b {
        if count[t as usize] > 0 {
            count[t as usize] -= 1;
            k += 1;
        }
    }
    k
}

/// Precision, recall and F1 from an overlap and the two lengths.
pub fn prf(k: usize, n_pred: usize, n_gold: usize) -> (f64, f64, f64) {
    let p = if n_pred > 0 {
        k as f64 / n_pred as f64
    } else {
        0.0
    };
    let r = if n_gold > 0 {
        k as f64 / n_gold as f64
    } else {
        0.0
    };
    let f = if p + r > 0.0 {
        2.0 * p * r / (p + r)
    } else {
        0.0
    };
    (p, r, f)
}

/// Token LCS F1 of two texts (used for headlines).
pub fn token_f1(pred: &str, gold: &str) -> f64 {
    let (p, g) = (tokens(pred), tokens(gold));
    let (a, b) = intern(&p, &g);
    prf(lcs_len(&a, &b), a.len(), b.len()).2
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn lcs_dp(a: &[u32], b: &[u32]) -> usize {
        let mut row = vec![0usize; b.len() + 1];
        for x in a {
            let mut diag = 0;
            for (j, y) in b.iter().enumerate() {
                let up = row[j + 1];
                row[j + 1] = if x == y { diag + 1 } else { up.max(row[j]) };
                diag = up;
            }
        }
        row[b.len()]
    }

    proptest! {
        #[test]
        fn bit_parallel_lcs_equals_dp(
            a in prop::collection::vec(0u32..6, 0..200),
            b in prop::collection::vec(0u32..6, 0..200),
        ) {
            prop_assert_eq!(lcs_len(&a, &b), lcs_dp(&a, &b));
            let bow = (0..6).map(|t| a.iter().filter(|&&x| x == t).count()
                .min(b.iter().filter(|&&x| x == t).count())).sum::<usize>();
            prop_assert_eq!(bow_overlap(&a, &b), bow);
        }
    }

    #[test]
    fn tokens_follow_score_py() {
        assert_eq!(tokens("Hello, WORLD_x 42!"), ["hello", "world_x", "42"]);
        assert_eq!(
            tokens("ab中文c 한국"),
            ["a", "b", "中", "文", "c", "한", "국"]
        );
        // NFKC folds the ligature and full-width digits before matching.
        assert_eq!(tokens("ﬁne １２"), ["fine", "12"]);
        // Combining marks are not \w in Python: they split words.
        assert_eq!(tokens("cafe\u{301}"), ["café"]);
        assert_eq!(tokens("हिन्दी"), ["ह", "न", "द"]);
    }

    #[test]
    fn headline_normalisation() {
        assert_eq!(
            normalize_headline("  A\u{a0}Big\n\tTitle\u{1f}X "),
            "a big title x"
        );
    }

    #[test]
    fn prf_of_nothing_is_zero() {
        assert_eq!(prf(0, 0, 5), (0.0, 0.0, 0.0));
        let (p, r, f) = prf(2, 4, 2);
        assert_eq!((p, r), (0.5, 1.0));
        assert!((f - 2.0 / 3.0).abs() < 1e-12);
    }
}
