//! Term vectors for the headline finders: lower-cased words without stop
//! words and without `'` / `’`, counted per distinct term.
//!
//! A [`TermVector`] keeps its terms in one reusable string buffer, sorted,
//! with their counts, so a page's candidates are turned into vectors
//! without allocating per word or per candidate, and cosine is a merge of
//! two sorted lists. Counts are integers, so every sum in [`cosine`] is
//! exact whatever the order: it equals the old map-based float sums bit
//! for bit.
//!
//! Weighting (TF-IDF) is not done here; see the TitleFinder code.

use foldhash::fast::FixedState;
use std::collections::HashSet;

/// Stop words, hashed with foldhash: they are looked up once per word,
/// and SipHash's protection against chosen keys buys nothing for a fixed
/// list.
pub type StopWords = HashSet<&'static str, FixedState>;

/// Calls `f` with each term of `text`, lower-cased, stop words left out.
/// `word` is scratch space.
///
/// Words are the runs of alphanumeric characters and `'` / `’`; the
/// quotes are then removed. Lower-casing is `str::to_lowercase`'s (which
/// treats a final `Σ` specially, hence the slow path for it).
pub fn each_term(text: &str, stop: &StopWords, word: &mut String, mut f: impl FnMut(&str)) {
    if text.is_ascii() {
        each_ascii_term(text, stop, word, f);
        return;
    }
    for piece in text.split(|c: char| !(c.is_alphanumeric() || is_quote(c))) {
        if piece.is_empty() {
            continue;
        }
        word.clear();
        if piece.is_ascii() {
            word.extend(
                piece
                    .bytes()
                    .filter(|&b| b != b'\'')
                    .map(|b| char::from(b.to_ascii_lowercase())),
            );
        } else if piece.contains('Σ') {
            let stripped: String = piece.chars().filter(|&c| !is_quote(c)).collect();
            word.push_str(&stripped.to_lowercase());
        } else {
            for c in piece.chars().filter(|&c| !is_quote(c)) {
                word.extend(c.to_lowercase());
            }
        }
        if !word.is_empty() && !stop.contains(word.as_str()) {
            f(word);
        }
    }
}

/// [`each_term`] for ASCII text (most of it), byte by byte: for ASCII,
/// alphanumeric and lower case mean the same as for `char`, and `’`
/// cannot occur.
fn each_ascii_term(text: &str, stop: &StopWords, word: &mut String, mut f: impl FnMut(&str)) {
    let is_word = |b: u8| b.is_ascii_alphanumeric() || b == b'\'';
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let start = i;
        // Quotes noted on the way, not searched for in each word after
        // (a `memchr` call a word: 2 % of the candidates' scoring).
        let mut quote = false;
        while i < bytes.len() && is_word(bytes[i]) {
            quote |= bytes[i] == b'\'';
            i += 1;
        }
        // ASCII: every index is a char boundary.
        let piece = text.get(start..i).unwrap_or("");
        i += 1;
        if piece.is_empty() {
            continue;
        }
        word.clear();
        if quote {
            word.extend(piece.chars().filter(|&c| c != '\''));
        } else {
            word.push_str(piece);
        }
        word.make_ascii_lowercase();
        if !word.is_empty() && !stop.contains(word.as_str()) {
            f(word);
        }
    }
}

/// The quote characters words keep while split and lose as terms.
pub fn is_quote(c: char) -> bool {
    matches!(c, '\'' | '’')
}

/// Distinct terms with their counts, sorted by term.
#[derive(Debug, Default, Clone)]
pub struct TermVector {
    /// The terms' text, one after another.
    text: String,
    terms: Vec<Term>,
    /// The sum of the counts' squares.
    norm_squared: u64,
    word: String,
}

/// A term of a [`TermVector`]: its span of the text, and its count.
#[derive(Debug, Clone, Copy)]
struct Term {
    /// The term's first eight bytes, big-endian, zero-padded: terms in the
    /// order of their keys, then of their text, are in the order of their
    /// text (a key is that of the first eight bytes, and a shorter term is
    /// padded below any byte). Sorting and merging compare integers then,
    /// and reach the text only for terms that share eight bytes: with
    /// string comparisons only, scoring the candidates (`Matcher::consider`)
    /// took a quarter more instructions.
    key: u64,
    start: u32,
    end: u32,
    count: u32,
}

impl TermVector {
    /// A vector of `text`'s terms.
    pub fn of(text: &str, stop: &StopWords) -> Self {
        let mut v = TermVector::default();
        v.set(text, stop);
        v
    }

    /// Replaces the contents with `text`'s terms, reusing the buffers.
    pub fn set(&mut self, text: &str, stop: &StopWords) {
        self.text.clear();
        self.terms.clear();
        // Room for every term at once (lowercasing hardly ever lengthens
        // text; a word and what ends it take two bytes at least): a fresh
        // vector grew its buffers step by step, and the matcher's set-up
        // took 8 % more instructions.
        self.text.reserve(text.len());
        self.terms.reserve(text.len() / 2 + 1);
        if text.is_ascii() {
            self.push_ascii_terms(text, stop);
        } else {
            self.word.reserve(text.len());
            let (buf, terms) = (&mut self.text, &mut self.terms);
            each_term(text, stop, &mut self.word, |w| {
                let start = buf.len() as u32;
                buf.push_str(w);
                terms.push(Term {
                    key: key(w.as_bytes()),
                    start,
                    end: buf.len() as u32,
                    count: 1,
                });
            });
        }
        let text = self.text.as_bytes();
        let order = |a: &Term, b: &Term| compare(text, a, text, b);
        self.terms.sort_unstable_by(order);
        self.terms.dedup_by(|next, kept| {
            let same = order(next, kept).is_eq();
            if same {
                kept.count += 1;
            }
            same
        });
        self.norm_squared = self
            .terms
            .iter()
            .map(|t| u64::from(t.count) * u64::from(t.count))
            .sum();
    }

    /// [`each_term`]'s terms of ASCII `text`, appended: each word read
    /// into the text as it goes (lowercased, quotes left out, by one table
    /// look-up a byte) and taken back where it is a stop word, not copied
    /// from a scratch word. Through `each_term` and a scratch word,
    /// building the vectors took 2.4 M instructions more on every 15th
    /// page.
    fn push_ascii_terms(&mut self, text: &str, stop: &StopWords) {
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let start = self.text.len();
            while let Some(&b) = bytes.get(i) {
                match ASCII_TERM_BYTES[usize::from(b)] {
                    NOT_A_WORD => break,
                    QUOTE => {}
                    lower => self.text.push(char::from(lower)),
                }
                i += 1;
            }
            // Past the byte that ended the word (or the end).
            i += 1;
            let word = self.text.get(start..).unwrap_or("");
            if word.is_empty() {
                continue;
            }
            if stop.contains(word) {
                self.text.truncate(start);
                continue;
            }
            self.terms.push(Term {
                key: key(word.as_bytes()),
                start: start as u32,
                end: self.text.len() as u32,
                count: 1,
            });
        }
    }

    pub fn is_empty(&self) -> bool {
        self.terms.is_empty()
    }

    /// Terms and counts in term order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, u32)> {
        self.terms.iter().map(|t| (self.term(t), t.count))
    }

    fn term(&self, t: &Term) -> &str {
        self.text
            .get(t.start as usize..t.end as usize)
            .unwrap_or("")
    }
}

/// What an ASCII byte is to a term ([`each_term`]): a letter or digit is
/// its lowercase; a quote is part of the word but left out of it; any
/// other byte ends a word. The prefilter reads tag names by it too (a
/// name's bytes are those above `QUOTE`).
pub(super) const ASCII_TERM_BYTES: [u8; 256] = {
    let mut table = [NOT_A_WORD; 256];
    let mut b = 0;
    while b < 128 {
        let c = b as u8;
        if c.is_ascii_alphanumeric() {
            table[b] = c.to_ascii_lowercase();
        } else if c == b'\'' {
            table[b] = QUOTE;
        }
        b += 1;
    }
    table
};
const NOT_A_WORD: u8 = 0;
pub(super) const QUOTE: u8 = 1;

/// The first eight bytes of `term`, big-endian, zero-padded.
fn key(term: &[u8]) -> u64 {
    let mut bytes = [0; 8];
    let n = term.len().min(8);
    bytes[..n].copy_from_slice(&term[..n]);
    u64::from_be_bytes(bytes)
}

/// The order of two terms' text, of vectors with texts `x` and `y`.
fn compare(x: &[u8], a: &Term, y: &[u8], b: &Term) -> std::cmp::Ordering {
    a.key.cmp(&b.key).then_with(|| span(x, a).cmp(span(y, b)))
}

fn span<'t>(text: &'t [u8], t: &Term) -> &'t [u8] {
    text.get(t.start as usize..t.end as usize).unwrap_or(&[])
}

/// Cosine similarity of two count vectors (0 when either is empty).
pub fn cosine(a: &TermVector, b: &TermVector) -> f64 {
    let (na, nb) = (a.norm_squared, b.norm_squared);
    if na == 0 || nb == 0 {
        return 0.0;
    }
    let (x, y) = (a.text.as_bytes(), b.text.as_bytes());
    let mut dot = 0u64;
    let (mut i, mut j) = (0, 0);
    while let (Some(s), Some(t)) = (a.terms.get(i), b.terms.get(j)) {
        match compare(x, s, y, t) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                dot += u64::from(s.count) * u64::from(t.count);
                i += 1;
                j += 1;
            }
        }
    }
    // Integers below 2^53 are exact in f64, so this is the float
    // computation's value, summed in any order.
    dot as f64 / ((na as f64).sqrt() * (nb as f64).sqrt())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stop() -> StopWords {
        ["the", "a", "of", "in", "σας"].into_iter().collect()
    }

    /// The terms as computed before: one String per step.
    fn old_terms(text: &str, stop: &StopWords) -> Vec<String> {
        text.split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '’'))
            .map(|w| {
                w.chars()
                    .filter(|c| !matches!(c, '\'' | '’'))
                    .collect::<String>()
                    .to_lowercase()
            })
            .filter(|w| !w.is_empty() && !stop.contains(w.as_str()))
            .collect()
    }

    /// The cosine as computed before, over float maps: the one the other
    /// TitleFinder methods still use.
    fn old_cosine(a: &[String], b: &[String]) -> f64 {
        super::super::cosine(&super::super::tf(a), &super::super::tf(b))
    }

    const TEXTS: &[&str] = &[
        "Storm hits the coast of Maine",
        "BBC News - Storm hits coast of Maine. Storm, storm!",
        "It's the O’Neill's DON'T don’t '' ’",
        "ΟΔΥΣΣΕΥΣ ΣΑΣ σας Σ İstanbul ǅemal STRASSE Straße",
        "3.5 percent of 100 U.S. états-unis ÉTATS",
        "",
        "the of a",
        "'Don't' x's '' The_Storm-hits,A1b2 \t\n ''a' THE",
        "'",
        "end with a quote'",
    ];

    #[test]
    fn terms_are_the_old_terms() {
        let s = stop();
        let mut word = String::new();
        for t in TEXTS {
            let mut ours = Vec::new();
            each_term(t, &s, &mut word, |w| ours.push(w.to_string()));
            assert_eq!(ours, old_terms(t, &s), "{t:?}");
        }
    }

    proptest::proptest! {
        /// ASCII text takes the byte path; it must find the old terms.
        #[test]
        fn ascii_terms_are_the_old_terms(t in "[ -~\t\n]{0,60}") {
            let s = stop();
            let mut ours = Vec::new();
            each_term(&t, &s, &mut String::new(), |w| ours.push(w.to_string()));
            proptest::prop_assert_eq!(ours, old_terms(&t, &s));
        }
    }

    proptest::proptest! {
        /// Vectors hold the old terms, counted, in the strings' order,
        /// also for terms that share their first eight bytes.
        #[test]
        fn vectors_are_the_counted_old_terms_in_order(
            words in proptest::collection::vec(proptest::sample::select(vec![
                "international", "internationally", "internat", "internaz", "intern",
                "a", "ab", "b", "é", "éa", "ǅemal", "σας", "zzzzzzzzz", "zzzzzzzz", "0", "09",
            ]), 0..16)
        ) {
            let s = stop();
            let text = words.join(" ");
            let mut old = std::collections::BTreeMap::<String, u32>::new();
            for t in old_terms(&text, &s) {
                *old.entry(t).or_default() += 1;
            }
            let ours: Vec<(String, u32)> = TermVector::of(&text, &s)
                .iter()
                .map(|(t, n)| (t.to_string(), n))
                .collect();
            proptest::prop_assert_eq!(ours, old.into_iter().collect::<Vec<_>>());
        }
    }

    proptest::proptest! {
        /// ASCII text is read into the vector byte by byte; its terms
        /// must be the old terms, counted, in order.
        #[test]
        fn ascii_vectors_are_the_counted_old_terms_in_order(
            t in "([ -~\t\n]|the |a |'|internationa[lz]){0,24}"
        ) {
            let s = stop();
            let mut old = std::collections::BTreeMap::<String, u32>::new();
            for w in old_terms(&t, &s) {
                *old.entry(w).or_default() += 1;
            }
            let old: Vec<(String, u32)> = old.into_iter().collect();
            let ours: Vec<(String, u32)> = TermVector::of(&t, &s)
                .iter()
                .map(|(w, n)| (w.to_string(), n))
                .collect();
            proptest::prop_assert_eq!(&ours, &old);
            // The same, reusing a vector that held other terms.
            let mut v = TermVector::of("Zebra's THE x1 é", &s);
            v.set(&t, &s);
            let reused: Vec<(String, u32)> = v.iter().map(|(w, n)| (w.to_string(), n)).collect();
            proptest::prop_assert_eq!(reused, old);
        }
    }

    #[test]
    fn vectors_count_distinct_terms_in_order() {
        let v = TermVector::of("b a B c a a", &StopWords::default());
        let got: Vec<(&str, u32)> = v.iter().collect();
        assert_eq!(got, [("a", 3), ("b", 2), ("c", 1)]);
    }

    #[test]
    fn cosine_is_the_old_cosine_bit_for_bit() {
        let s = stop();
        let mut v = TermVector::default();
        for a in TEXTS {
            let q = TermVector::of(a, &s);
            for b in TEXTS {
                v.set(b, &s);
                let old = old_cosine(&old_terms(a, &s), &old_terms(b, &s));
                let new = cosine(&q, &v);
                // Zero's sign aside (it never decides anything).
                assert!(new.to_bits() == old.to_bits() || (new == 0.0 && old == 0.0));
                assert_eq!(new, old, "{a:?} vs {b:?}");
            }
        }
    }
}
