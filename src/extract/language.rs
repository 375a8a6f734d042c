//! The document's language: whatlang 0.18's verdict, computed faster.
//!
//! [`Detector::language`] gives the language whatlang's `detect` finds when
//! whatlang calls it reliable, else the one `<html lang>` declares. It must
//! give exactly what whatlang gives, so [`Detector`] mirrors whatlang's
//! default ("combined") method step by step for the scripts whose languages
//! share a trigram profile table (Latin, Cyrillic, Arabic, Devanagari,
//! Hebrew), and hands everything else to `whatlang::detect` itself.
//!
//! Why faster: whatlang measures a text against each of the script's
//! profiles in turn (37 × 300 hash lookups for Latin). The detector keeps an
//! inverted index instead, trigram → (language, rank), so it looks up only
//! the text's own trigrams, once each; and it counts trigrams in fixed
//! buffers instead of hash maps and a lowercased copy of the text.
//!
//! What it does not do: detect languages on its own terms, tune whatlang, or
//! guess when unsure. Whenever a text is outside what the mirror covers
//! (another main script, scripts so mixed that whatlang's tie-breaking
//! between them would matter, characters whose lowercase depends on context,
//! a text too long for the buffers) it asks whatlang.
//!
//! The tables in `language/data.rs` are whatlang's own, generated from its
//! source by `scripts/gen_language_data.py`.

mod data;

use std::fmt;
use whatlang::Lang;

/// A text of this many bytes or more goes to whatlang. The language sample
/// is 500 bytes, and a text has at most as many trigrams as bytes (only 'İ'
/// lowercases to two chars, and it takes two bytes). At 512, every buffer
/// sized by it stays within 2 KiB, which zeroes in a few dozen vector
/// stores; above 2 KiB glibc's memset switches to `rep stosb`, which
/// callgrind counts a byte at a time.
const MAX_TRIGRAMS: usize = 512;
// Counts and ranks of trigrams are kept as u16, and slots are masked with
// `MAX_TRIGRAMS - 1`.
const _: () = assert!(MAX_TRIGRAMS < u16::MAX as usize && MAX_TRIGRAMS.is_power_of_two());

/// Trigram chars are counted and sorted as one-byte ids, ordered as the
/// chars are: 0 for the space (every stop char becomes one), 1..=26 for
/// 'a'..='z', 27 for DEL (the one other ASCII char that is no stop char
/// once lowercased), then the text's other chars (see [`Pass::other`]).
const ASCII_IDS: usize = 28;
/// The other chars a text may hold (a text with more goes to whatlang).
const MAX_OTHERS: usize = 256 - ASCII_IDS;

/// Each ASCII char's id, lowercased.
const ASCII_ID: [u8; 128] = {
    let mut ids = [0u8; 128];
    let mut b = 0;
    while b < 128 {
        let c = (b as u8).to_ascii_lowercase();
        ids[b] = if c.is_ascii_lowercase() {
            c - b'a' + 1
        } else if c == 0x7F {
            27
        } else {
            0
        };
        // An id of 0 is exactly a stop char.
        assert!((ids[b] == 0) == is_stop(b as u8 as char));
        b += 1;
    }
    ids
};

/// The char of each ASCII id.
const ASCII_CHAR: [char; ASCII_IDS] = {
    let mut chars = [' '; ASCII_IDS];
    let mut b = 0;
    while b < 128 {
        chars[ASCII_ID[b] as usize] = (b as u8).to_ascii_lowercase() as char;
        b += 1;
    }
    chars[0] = ' ';
    chars
};

/// whatlang's `MAX_TRIGRAM_DISTANCE`: the distance of a profile trigram the
/// text lacks, and how many of the text's top trigrams the distance counts
/// at most twice over (`TEXT_TRIGRAMS_SIZE`).
const MAX_TRIGRAM_DISTANCE: u32 = 300;
const TEXT_TRIGRAMS_SIZE: usize = 600;
const MAX_TOTAL_DISTANCE: u32 = MAX_TRIGRAM_DISTANCE * MAX_TRIGRAM_DISTANCE;
const _: () = assert!(MAX_TRIGRAMS <= TEXT_TRIGRAMS_SIZE);

/// whatlang's `RELIABLE_CONFIDENCE_THRESHOLD`.
const RELIABLE_CONFIDENCE: f64 = 0.9;

/// Finds the language of a text as whatlang does. Immutable once built;
/// share one (the extractor holds it in an `Arc`).
pub struct Detector {
    /// One index per script (`SCRIPTS` order), each small enough to stay
    /// in cache: packed trigram (see [`pack`]) → its postings,
    /// `postings[start..end]`.
    index: [Index; SCRIPTS.len()],
    /// (language as an index into the script's `data::LANGS` range, rank in
    /// its profile).
    postings: Vec<(u8, u16)>,
}

// Postings are indexed by u16.
const _: () = assert!(data::LANGS.len() * data::PROFILE_LEN <= u16::MAX as usize);

impl fmt::Debug for Detector {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Detector")
            .field("trigrams", &self.index.iter().map(|i| i.len).sum::<usize>())
            .field("postings", &self.postings.len())
            .finish()
    }
}

impl Default for Detector {
    fn default() -> Self {
        Self::new()
    }
}

/// A script whose languages the mirror scores (whatlang's
/// `MultiLangScript`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Script {
    Latin,
    Cyrillic,
    Arabic,
    Devanagari,
    Hebrew,
}

// No script may hold more than 64 languages (see `Script::langs`).
const _: () = {
    let ranges = [
        data::LATIN,
        data::CYRILLIC,
        data::ARABIC,
        data::DEVANAGARI,
        data::HEBREW,
    ];
    let mut i = 0;
    while i < ranges.len() {
        assert!(ranges[i].end - ranges[i].start <= 64);
        i += 1;
    }
};

const SCRIPTS: [Script; 5] = [
    // First: `mirror` counts ASCII letters for it without asking.
    Script::Latin,
    Script::Cyrillic,
    Script::Arabic,
    Script::Devanagari,
    Script::Hebrew,
];

impl Script {
    /// whatlang's `scripts::chars::is_*` for the script. Of all its script
    /// ranges only two chars belong to two scripts (U+1D2B and U+1D78 are
    /// Latin and Cyrillic); [`Detector::mirror`] leaves texts with them to
    /// whatlang, so here every char is in at most one script.
    fn has(self, ch: char) -> bool {
        match self {
            Script::Latin => matches!(ch,
                'a'..='z'
                | 'A'..='Z'
                | '\u{0080}'..='\u{024F}'
                | '\u{0250}'..='\u{02AF}'
                | '\u{1D00}'..='\u{1DBF}'
                | '\u{1E00}'..='\u{1EFF}'
                | '\u{2100}'..='\u{214F}'
                | '\u{2C60}'..='\u{2C7F}'
                | '\u{A720}'..='\u{A7FF}'
                | '\u{AB30}'..='\u{AB6F}'
            ),
            Script::Cyrillic => matches!(ch,
                '\u{0400}'..='\u{0484}'
                | '\u{0487}'..='\u{052F}'
                | '\u{2DE0}'..='\u{2DFF}'
                | '\u{A640}'..='\u{A69D}'
                | '\u{1D2B}'
                | '\u{1D78}'
                | '\u{A69F}'
            ),
            Script::Arabic => matches!(ch,
                '\u{0600}'..='\u{06FF}'
                | '\u{0750}'..='\u{07FF}'
                | '\u{08A0}'..='\u{08FF}'
                | '\u{FB50}'..='\u{FDFF}'
                | '\u{FE70}'..='\u{FEFF}'
                | '\u{10E60}'..='\u{10E7F}'
                | '\u{1EE00}'..='\u{1EEFF}'
            ),
            Script::Devanagari => {
                matches!(ch, '\u{0900}'..='\u{097F}' | '\u{A8E0}'..='\u{A8FF}' | '\u{1CD0}'..='\u{1CFF}')
            }
            Script::Hebrew => matches!(ch, '\u{0590}'..='\u{05FF}'),
        }
    }

    /// The script's languages: a range of `data::LANGS`. Per-script tables
    /// index languages by `u8` into `[_; 64]` arrays and `u64` bit masks.
    fn langs(self) -> std::ops::Range<usize> {
        match self {
            Script::Latin => data::LATIN,
            Script::Cyrillic => data::CYRILLIC,
            Script::Arabic => data::ARABIC,
            Script::Devanagari => data::DEVANAGARI,
            Script::Hebrew => data::HEBREW,
        }
    }

    /// The alphabet table; `None` where whatlang has none yet and scores
    /// every language 1.0 on one char (its `build_mock`).
    fn alphabet(self) -> Option<&'static [(char, u64)]> {
        match self {
            Script::Latin => Some(&data::LATIN_ALPHABET),
            Script::Cyrillic => Some(&data::CYRILLIC_ALPHABET),
            Script::Arabic | Script::Devanagari | Script::Hebrew => None,
        }
    }
}

/// What the mirror found.
enum Verdict {
    /// whatlang's answer: the language when whatlang calls it reliable.
    Known(Option<Lang>),
    /// Outside what the mirror covers: ask whatlang.
    Unsure,
}

/// whatlang's `is_stop_char`: spaces, ASCII punctuation and digits.
const fn is_stop(ch: char) -> bool {
    matches!(ch, '\u{0000}'..='\u{0040}' | '\u{005B}'..='\u{0060}' | '\u{007B}'..='\u{007E}')
}

/// A trigram as one integer whose order is whatlang's `Trigram` order
/// (lexicographic by code point): chars fit in 21 bits.
fn pack(a: char, b: char, c: char) -> u64 {
    (u64::from(a) << 42) | (u64::from(b) << 21) | u64::from(c)
}

// Spans are u16 offsets into the postings: every posting must fit.
const _: () = assert!(data::LANGS.len() * data::PROFILE_LEN <= u16::MAX as usize);

impl Detector {
    /// Builds the inverted index of whatlang's profiles (15,300 postings,
    /// a trigram's rank in a language's profile; well under a
    /// millisecond). A counting sort by trigram, in the index itself: each
    /// trigram's postings counted, given their place, then filled in
    /// language order. (A comparison sort of all the postings
    /// was two thirds of the extractor's set-up, more instructions than
    /// extracting a page.)
    pub fn new() -> Self {
        let mut postings = Vec::with_capacity(data::LANGS.len() * data::PROFILE_LEN);
        let index = SCRIPTS.map(|script| {
            let profiles = &data::PROFILES[script.langs()];
            let mut all = Vec::with_capacity(profiles.len() * data::PROFILE_LEN);
            for (lang, profile) in profiles.iter().enumerate() {
                each_trigram(profile, |key, rank| all.push((key, lang as u8, rank)));
            }
            let mut index = Index::with_capacity(all.len());
            // A trigram's count, in its span's end for now.
            for &(key, _, _) in &all {
                index.entry(key).1 += 1;
            }
            let mut at = postings.len();
            for span in index.spans.iter_mut().filter(|span| span.1 > 0) {
                let count = usize::from(span.1);
                *span = (at as u16, at as u16);
                at += count;
            }
            postings.resize(at, (0, 0));
            // Each span's end moves from its start to its end as it fills.
            // It stays below `at`: a trigram fills exactly the room its
            // count gave it above (the index test checks every span).
            for &(key, lang, rank) in &all {
                let span = index.entry(key);
                let slot = postings.get_mut(usize::from(span.1));
                debug_assert!(slot.is_some(), "a span overran its room");
                if let Some(slot) = slot {
                    *slot = (lang, rank);
                }
                span.1 += 1;
            }
            index
        });
        Detector { index, postings }
    }

    /// The text's language by whatlang when it is sure, else `<html lang>`.
    pub fn language(&self, text: &str, declared: &str) -> Option<String> {
        // whatlang's cost grows with the sample; 500 bytes of prose are plenty.
        let sample = &text[..super::floor_boundary(text, 500)];
        if let Some(lang) = self.detect(sample) {
            return Some(lang.code().to_string());
        }
        let primary = declared
            .split(['-', '_'])
            .next()
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase();
        Lang::from_code(iso639_1_to_3(&primary)?).map(|l| l.code().to_string())
    }

    /// The language `whatlang::detect(text)` finds if it calls it reliable.
    pub fn detect(&self, text: &str) -> Option<Lang> {
        match self.mirror(text) {
            Verdict::Known(lang) => lang,
            Verdict::Unsure => whatlang::detect(text)
                .filter(|i| i.is_reliable())
                .map(|i| i.lang()),
        }
    }

    /// Whether the text is answered without calling whatlang (for tests
    /// and benchmarks: the mirror must be what answers the common cases).
    #[doc(hidden)]
    pub fn is_mirrored(&self, text: &str) -> bool {
        matches!(self.mirror(text), Verdict::Known(_))
    }

    /// whatlang's `detect` with the default options, for texts whose main
    /// script is one of [`SCRIPTS`] by a clear majority.
    fn mirror(&self, text: &str) -> Verdict {
        if text.len() >= MAX_TRIGRAMS {
            return Verdict::Unsure;
        }
        // 1. One pass over the text: its script (whatlang's
        // `raw_detect_script`, on the text as given) and, lowercased
        // (whatlang's `str::to_lowercase`, which is `char::to_lowercase`
        // per char but for 'Σ', left to whatlang below), its chars and
        // trigrams. whatlang counts each char for the first script that has
        // it and picks the script with most chars, breaking ties in an
        // order that depends on the text; a script with more chars than all
        // non-stop chars outside it wins whatever that order.
        let mut keys = [0u32; MAX_TRIGRAMS];
        let mut pass = Pass {
            keys: &mut keys,
            n: 0,
            window: 0,
            seen: [0; 256],
            others: ['\0'; MAX_OTHERS],
            m: 0,
            recent: [0; 64],
        };
        let mut counts = [0u32; SCRIPTS.len()];
        // Non-ASCII chars (none is a stop char), and the 'a'..='z' they
        // lowercase to ('K' the Kelvin sign, 'İ'): ASCII letters are
        // counted from `seen` after the pass.
        let mut other_letters = 0u32;
        let mut lowered_ascii = 0u32;
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            i += pass.ascii(bytes.get(i..).unwrap_or(&[]));
            let Some(ch) = text.get(i..).and_then(|rest| rest.chars().next()) else {
                break;
            };
            i += ch.len_utf8();
            // In two scripts (see `Script::has`), or lowercased by context
            // (`str::to_lowercase` turns a final 'Σ' into 'ς').
            if matches!(ch, '\u{1D2B}' | '\u{1D78}' | 'Σ') {
                return Verdict::Unsure;
            }
            other_letters += 1;
            if let Some(i) = SCRIPTS.iter().position(|s| s.has(ch)) {
                counts[i] += 1;
            }
            for lower in ch.to_lowercase() {
                let id = if lower.is_ascii() {
                    let id = ASCII_ID[usize::from(lower as u8 & 0x7F)];
                    lowered_ascii += u32::from((1..=26).contains(&id));
                    id
                } else {
                    match pass.other(lower) {
                        Some(id) => id,
                        None => return Verdict::Unsure,
                    }
                };
                pass.push(id);
            }
        }
        // whatlang chains one more space (a stop char).
        pass.push(0);
        let Pass {
            keys,
            n,
            seen,
            others,
            m,
            ..
        } = &mut pass;
        let (n, m) = (*n, *m);
        // ASCII letters are Latin, the first script; DEL is in none.
        let ascii_letters = seen[1..=26].iter().map(|&c| u32::from(c)).sum::<u32>() - lowered_ascii;
        counts[0] += ascii_letters;
        let letters = ascii_letters + u32::from(seen[27]) + other_letters;
        if letters == 0 {
            // No script at all: whatlang finds nothing.
            return Verdict::Known(None);
        }
        let (best, &count) = counts
            .iter()
            .enumerate()
            .max_by_key(|&(_, c)| *c)
            .unwrap_or((0, &0));
        if count * 2 <= letters {
            return Verdict::Unsure;
        }
        if n > MAX_TRIGRAMS {
            // Cannot happen (see `MAX_TRIGRAMS`).
            return Verdict::Unsure;
        }
        let script = SCRIPTS[best];
        let ids = ASCII_IDS + m;

        // 2. The alphabet: whatlang's `generic_alphabet_calculate_scores`,
        // from how often each char came. `inside`: chars of each
        // language's alphabet in the text, counted as the chars in any
        // alphabet less those missing from the language's: most chars are
        // in most alphabets ('a' is in all 37 Latin ones).
        let langs = script.langs();
        let alphabet = script.alphabet();
        let mut chars = ['\0'; 256];
        chars[..ASCII_IDS].copy_from_slice(&ASCII_CHAR);
        chars[ASCII_IDS..ids].copy_from_slice(&others[..m]);
        let mut alphabet_count = 0u32;
        let all = u64::MAX >> (64 - langs.len().clamp(1, 64));
        let mut in_any = 0u32;
        let mut missing = [0u32; 64];
        for (&ch, &h) in chars[1..ids].iter().zip(&seen[1..ids]) {
            let h = u32::from(h);
            alphabet_count += h;
            let Some(table) = alphabet else { continue };
            if h == 0 {
                continue;
            }
            // The tables start with 'a'..='z' when they have them.
            let ascii = (ch as usize).wrapping_sub('a' as usize);
            let i = match table.get(ascii) {
                Some(&(c, _)) if c == ch => Ok(ascii),
                _ => table.binary_search_by_key(&ch, |&(c, _)| c),
            };
            let Some(&(_, mask)) = i.ok().and_then(|i| table.get(i)) else {
                continue;
            };
            in_any += h;
            let mut bits = !mask & all;
            while bits != 0 {
                missing[bits.trailing_zeros() as usize] += h;
                bits &= bits - 1;
            }
        }

        // 3. The text's trigrams by count, then by trigram, both descending
        // (whatlang's `trigram_occurances_to_positions`): rank = position.
        // The other chars took ids as they came; renumber them by code point
        // so that ids sort as the chars do (most pages have none or one).
        if m > 1 {
            let mut order: [u8; MAX_OTHERS] = std::array::from_fn(|j| j as u8);
            let order = &mut order[..m];
            order.sort_unstable_by_key(|&j| others[usize::from(j)]);
            let mut renumber: [u8; 256] = std::array::from_fn(|id| id as u8);
            for (rank, &j) in order.iter().enumerate() {
                renumber[ASCII_IDS + usize::from(j)] = (ASCII_IDS + rank) as u8;
                others[rank] = chars[ASCII_IDS + usize::from(j)];
            }
            chars[ASCII_IDS..ids].copy_from_slice(&others[..m]);
            for key in &mut keys[..n] {
                let [c, b, a, _] = key.to_le_bytes();
                *key = u32::from_le_bytes([
                    renumber[usize::from(c)],
                    renumber[usize::from(b)],
                    renumber[usize::from(a)],
                    0,
                ]);
            }
        }
        // Sort by a radix sort over the three ids (a comparison sort was a
        // quarter of the detector's instructions), then count runs.
        let mut sorted = [0u32; MAX_TRIGRAMS];
        radix_sort(keys, &mut sorted, n, ids);
        let sorted = &mut sorted[..n];
        // Runs of equal trigrams, folded in place: `sorted[..unique]` are
        // the distinct ones (ascending), `counts` how often each came.
        let mut counts = [0u16; MAX_TRIGRAMS];
        // (No key is `u32::MAX`: the top byte is 0. Slots are below `n`.)
        let mut unique = 0usize;
        let mut last = u32::MAX;
        let mut most = 1u16;
        for i in 0..sorted.len() {
            let t = sorted[i];
            if t == last {
                let count = &mut counts[(unique - 1) & (MAX_TRIGRAMS - 1)];
                *count += 1;
                most = most.max(*count);
            } else {
                sorted[unique & (MAX_TRIGRAMS - 1)] = t;
                counts[unique & (MAX_TRIGRAMS - 1)] = 1;
                unique += 1;
                last = t;
            }
        }
        let most = usize::from(most);
        let counts = &counts[..unique];
        // `starts[c]`: where runs of count c start in the ranking.
        // (Counts are below `MAX_TRIGRAMS`, as `n` is; the masks only spare
        // bounds checks.)
        let mut starts = [0u16; MAX_TRIGRAMS];
        for &count in counts {
            starts[usize::from(count) & (MAX_TRIGRAMS - 1)] += 1;
        }
        let mut at = 0u16;
        for slot in starts[..=most.min(MAX_TRIGRAMS - 1)].iter_mut().rev() {
            let here = *slot;
            *slot = at;
            at += here;
        }
        // Each distinct trigram's rank, visiting runs from the greatest
        // trigram down (a counting sort, stable).
        let mut ranks = [0u16; MAX_TRIGRAMS];
        for (i, &count) in counts.iter().enumerate().rev() {
            let slot = &mut starts[usize::from(count) & (MAX_TRIGRAMS - 1)];
            ranks[i & (MAX_TRIGRAMS - 1)] = *slot;
            *slot += 1;
        }
        // All distinct trigrams count: there are fewer than
        // TEXT_TRIGRAMS_SIZE (checked at compile time).
        let text_count = unique as u32;
        if text_count == 0 || alphabet_count == 0 {
            // Cannot happen with a letter in the text; whatlang would divide
            // by zero, so leave it the case.
            return Verdict::Unsure;
        }

        // 4. Distances (whatlang's `calculate_distance`): every profile
        // trigram the text lacks costs MAX_TRIGRAM_DISTANCE, one it has
        // costs the difference of ranks. Start from "lacks all 300" and
        // correct for the trigrams the text has (in any order: the sums are
        // integers).
        let index = &self.index[best];
        // The lookups first, in a loop of their own: the index is cold
        // after a page's scan, and a loop doing nothing else lets the CPU
        // overlap the misses (a third of this function's time was one).
        let mut found = [(0u16, 0u16); MAX_TRIGRAMS];
        // |position - rank| - 300 is the greater of (position - 300) - rank
        // and rank - (position + 300): the two bounds are kept per trigram
        // (from memory, the compiler cannot split them back into position
        // and constant), and each posting costs fewer instructions.
        let mut bounds = [(0i16, 0i16); MAX_TRIGRAMS];
        let mut hits = 0;
        for (&key, &rank) in sorted[..unique].iter().zip(&ranks[..unique]) {
            let [c, b, a, _] = key.to_le_bytes();
            let t = pack(
                chars[usize::from(a)],
                chars[usize::from(b)],
                chars[usize::from(c)],
            );
            if let Some(span) = index.get(t) {
                found[hits & (MAX_TRIGRAMS - 1)] = span;
                let position = rank as i16;
                bounds[hits & (MAX_TRIGRAMS - 1)] = (
                    position - MAX_TRIGRAM_DISTANCE as i16,
                    position + MAX_TRIGRAM_DISTANCE as i16,
                );
                hits += 1;
            }
        }
        // i32 is plenty: a language gains or loses under 600 per profile
        // trigram, of which it has 300, from 90,000. Its index is a u8, so
        // this loop, the detector's busiest, has no bounds check.
        let mut distance = [MAX_TOTAL_DISTANCE as i32; 256];
        for (&(start, end), &(below, above)) in found[..hits].iter().zip(&bounds[..hits]) {
            let (below, above) = (i32::from(below), i32::from(above));
            let cost = |rank: u16| {
                let rank = i32::from(rank);
                (below - rank).max(rank - above)
            };
            let span = self
                .postings
                .get(usize::from(start)..usize::from(end))
                .unwrap_or(&[]);
            // Two postings a turn: a trigram has about ten, and the loop's
            // own counting was a quarter of its instructions.
            let (pairs, rest) = span.as_chunks::<2>();
            for &[(l0, r0), (l1, r1)] in pairs {
                distance[usize::from(l0)] += cost(r0);
                distance[usize::from(l1)] += cost(r1);
            }
            for &(lang, rank) in rest {
                distance[usize::from(lang)] += cost(rank);
            }
        }
        let correction = if MAX_TRIGRAM_DISTANCE > text_count {
            ((MAX_TRIGRAM_DISTANCE - text_count) * MAX_TRIGRAM_DISTANCE) as i32
        } else {
            0
        };

        // 5. Scores: alphabet and trigram, weighted by the text's length
        // (whatlang's `combined::raw_detect`), with whatlang's float
        // operations in whatlang's order so the values are identical.
        let (alphabet_total, alphabet_weight) = match alphabet {
            Some(_) => (alphabet_count, alphabet_weight(alphabet_count as usize)),
            None => (1, alphabet_weight(1)),
        };
        let trigram_weight = 1.0 - alphabet_weight;
        let max_distance = text_count * MAX_TRIGRAM_DISTANCE;
        let mut first: Option<(usize, f64)> = None;
        let mut second: Option<f64> = None;
        for (i, d) in distance[..langs.len()].iter().enumerate() {
            let d = (d - correction).clamp(0, MAX_TOTAL_DISTANCE as i32) as u32;
            // `d <= max_distance` always: with fewer than 300 trigrams each
            // matched one is closer than MAX_TRIGRAM_DISTANCE, and with more
            // `max_distance` is at least the clamp's bound. Saturate rather
            // than trust it.
            let t = f64::from(max_distance.saturating_sub(d)) / f64::from(max_distance);
            let a = match alphabet {
                Some(_) => {
                    // whatlang adds 2 per char in the language's alphabet and
                    // takes off one per char: 2 × in − all, at least 0.
                    let inside = in_any - missing[i];
                    f64::from((2 * inside).saturating_sub(alphabet_total))
                        / f64::from(alphabet_total)
                }
                None => 1.0,
            };
            let score = a * alphabet_weight + t * trigram_weight;
            // Only the two highest values matter: a tie at the top gives
            // confidence 0 whichever language whatlang's unstable sort puts
            // first.
            match first {
                Some((_, s1)) if score <= s1 => {
                    if second.is_none_or(|s2| score > s2) {
                        second = Some(score);
                    }
                }
                _ => {
                    second = first.map(|(_, s1)| s1);
                    first = Some((i, score));
                }
            }
        }
        let Some((lang, score1)) = first else {
            return Verdict::Known(None);
        };
        let confidence = match second {
            Some(score2) => confidence(score1, score2, text_count as usize),
            None => 1.0,
        };
        let reliable = confidence > RELIABLE_CONFIDENCE;
        Verdict::Known(reliable.then(|| data::LANGS[langs.start + lang]))
    }
}

/// The pass over the lowercased text: how often each char came (for
/// whatlang's alphabet histogram) and the trigrams (whatlang's `count`).
struct Pass<'a> {
    /// The trigrams as ids, `a << 16 | b << 8 | c` (a buffer of its own: a
    /// struct holding all of them is zeroed in one memset of over 2 KiB).
    keys: &'a mut [u32; MAX_TRIGRAMS],
    /// Trigrams seen, below `MAX_TRIGRAMS` (see there).
    n: usize,
    /// The last two ids, `a << 8 | b`; the text starts after two spaces.
    window: u32,
    /// Chars pushed, per id (the space's count is not used).
    seen: [u16; 256],
    /// The chars of ids `ASCII_IDS..`, in the order they came.
    others: [char; MAX_OTHERS],
    m: usize,
    /// The id last given to a char, by the char's low six bits: a
    /// Cyrillic or Arabic text finds most of its chars here at once.
    recent: [u8; 64],
}

impl Pass<'_> {
    /// One lowercased char's id (and a final space after the text).
    fn push(&mut self, id: u8) {
        step(self.keys, &mut self.seen, &mut self.n, &mut self.window, id);
    }

    /// The ASCII chars `bytes` starts with, pushed; returns how many. (The
    /// state in locals, not fields, lets the loop keep it in registers.)
    fn ascii(&mut self, bytes: &[u8]) -> usize {
        let (mut n, mut window) = (self.n, self.window);
        let mut taken = 0;
        for &byte in bytes {
            if !byte.is_ascii() {
                break;
            }
            step(
                self.keys,
                &mut self.seen,
                &mut n,
                &mut window,
                ASCII_ID[usize::from(byte & 0x7F)],
            );
            taken += 1;
        }
        (self.n, self.window) = (n, window);
        taken
    }

    /// The id of a lowercased non-ASCII char, `None` once the text has
    /// more than `MAX_OTHERS` of them.
    fn other(&mut self, ch: char) -> Option<u8> {
        let slot = ch as usize & 63;
        let id = usize::from(self.recent[slot]);
        if id >= ASCII_IDS && self.others.get(id - ASCII_IDS) == Some(&ch) {
            return Some(id as u8);
        }
        let j = match self.others[..self.m].iter().position(|&c| c == ch) {
            Some(j) => j,
            None => {
                *self.others.get_mut(self.m)? = ch;
                self.m += 1;
                self.m - 1
            }
        };
        let id = (ASCII_IDS + j) as u8;
        self.recent[slot] = id;
        Some(id)
    }
}

/// whatlang's `count`, one char at a time: the text as trigram chars (stop
/// chars as spaces) and one more space, starting from a space; a trigram
/// is kept unless its middle is a space next to another space. The first
/// char makes no trigram: its middle and left are spaces.
#[inline(always)]
fn step(
    keys: &mut [u32; MAX_TRIGRAMS],
    seen: &mut [u16; 256],
    n: &mut usize,
    window: &mut u32,
    id: u8,
) {
    let key = (*window << 8) | u32::from(id);
    let (a, b) = (*window >> 8, *window & 0xFF);
    let kept = !(b == 0 && (a == 0 || id == 0));
    // Written whether kept or not (no branch); `n` stays below
    // `MAX_TRIGRAMS`, the mask only spares the bounds check.
    keys[*n & (MAX_TRIGRAMS - 1)] = key;
    *n += usize::from(kept);
    *window = key & 0xFFFF;
    seen[usize::from(id)] += 1;
}

/// Sorts `keys[..n]` (three one-byte ids below `ids`) into `out[..n]`,
/// least significant id first.
fn radix_sort(keys: &mut [u32; MAX_TRIGRAMS], out: &mut [u32; MAX_TRIGRAMS], n: usize, ids: usize) {
    let n = n.min(MAX_TRIGRAMS);
    let mut starts = [[0u16; 256]; 3];
    for &key in &keys[..n] {
        let [c, b, a, _] = key.to_le_bytes();
        starts[0][usize::from(c)] += 1;
        starts[1][usize::from(b)] += 1;
        starts[2][usize::from(a)] += 1;
    }
    for digit in &mut starts {
        let mut at = 0u16;
        for slot in digit[..ids.min(256)].iter_mut() {
            let here = *slot;
            *slot = at;
            at += here;
        }
    }
    // Slots are below `n <= MAX_TRIGRAMS`; the masks only spare the
    // bounds checks.
    let mask = MAX_TRIGRAMS - 1;
    let [by_c, by_b, by_a] = &mut starts;
    for &key in &keys[..n] {
        let slot = &mut by_c[usize::from(key as u8)];
        out[usize::from(*slot) & mask] = key;
        *slot += 1;
    }
    for &key in out[..n].iter() {
        let slot = &mut by_b[usize::from((key >> 8) as u8)];
        keys[usize::from(*slot) & mask] = key;
        *slot += 1;
    }
    for &key in &keys[..n] {
        let slot = &mut by_a[usize::from((key >> 16) as u8)];
        out[usize::from(*slot) & mask] = key;
        *slot += 1;
    }
}

/// whatlang's `calc_alphabet_weight`: short texts lean on the alphabet.
fn alphabet_weight(count: usize) -> f64 {
    let weight = -(count as f64 / 300.0) + 2.0 / 3.0;
    weight.clamp(1.0 / 3.0, 2.0 / 3.0)
}

/// whatlang's `calculate_confidence`, verbatim.
fn confidence(highest: f64, second: f64, count: usize) -> f64 {
    if highest == 0.0 {
        return 0.0;
    }
    if second == 0.0 {
        return highest;
    }
    let confident_rate = (3.0 / count as f64) + 0.015;
    let rate = (highest - second) / second;
    if rate > confident_rate {
        1.0
    } else {
        rate / confident_rate
    }
}

fn iso639_1_to_3(code: &str) -> Option<&'static str> {
    Some(match code {
        "en" => "eng",
        "de" => "deu",
        "fr" => "fra",
        "es" => "spa",
        "it" => "ita",
        "nl" => "nld",
        "pt" => "por",
        "ru" => "rus",
        "ar" => "ara",
        "fa" => "pes",
        "zh" => "cmn",
        "ja" => "jpn",
        "ko" => "kor",
        "pl" => "pol",
        "tr" => "tur",
        _ => return None,
    })
}

/// Calls `f` with each trigram of a profile (packed, see [`pack`]) and
/// its rank.
fn each_trigram(profile: &str, mut f: impl FnMut(u64, u16)) {
    let mut chars = profile.chars();
    let mut rank = 0u16;
    while let (Some(a), Some(b), Some(c)) = (chars.next(), chars.next(), chars.next()) {
        f(pack(a, b, c), rank);
        rank += 1;
    }
}

/// One script's index: packed trigram (see [`pack`]) → its postings,
/// `postings[start..end]`. Open addressing with linear probing, at most
/// half full, hashed by one multiply: a lookup is mostly one probe, with
/// no tag groups to match as in hashbrown.
struct Index {
    /// Packed trigrams; 0 (no trigram packs to it) is an empty slot.
    keys: Vec<u64>,
    spans: Vec<(u16, u16)>,
    /// `64 - log2(keys.len())`: the hash's top bits pick the slot.
    shift: u32,
    len: usize,
}

impl Index {
    fn with_capacity(capacity: usize) -> Self {
        let slots = (capacity * 2).next_power_of_two().max(2);
        Index {
            keys: vec![0; slots],
            spans: vec![(0, 0); slots],
            shift: 64 - slots.trailing_zeros(),
            len: 0,
        }
    }

    fn slot(&self, key: u64) -> usize {
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize
    }

    /// The span of a trigram, added as `(0, 0)` when new (up to the
    /// capacity; `key` is not 0).
    fn entry(&mut self, key: u64) -> &mut (u16, u16) {
        let mask = self.keys.len() - 1;
        let mut i = self.slot(key) & mask;
        while self.keys[i] != key {
            if self.keys[i] == 0 {
                self.keys[i] = key;
                self.len += 1;
                break;
            }
            i = (i + 1) & mask;
        }
        &mut self.spans[i]
    }

    fn get(&self, key: u64) -> Option<(u16, u16)> {
        let mask = self.keys.len() - 1;
        let mut i = self.slot(key);
        // Ends: at most half the slots are taken.
        loop {
            let k = *self.keys.get(i & mask)?;
            if k == key {
                return self.spans.get(i & mask).copied();
            }
            if k == 0 {
                return None;
            }
            i += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use std::sync::OnceLock;

    /// One detector for all tests (building one per case would dominate).
    fn detector() -> &'static Detector {
        static DETECTOR: OnceLock<Detector> = OnceLock::new();
        DETECTOR.get_or_init(Detector::new)
    }

    fn whatlang_reliable(text: &str) -> Option<Lang> {
        whatlang::detect(text)
            .filter(|i| i.is_reliable())
            .map(|i| i.lang())
    }

    /// Texts in the scripts the mirror covers, each of which it must answer
    /// itself.
    const MIRRORED: &[&str] = &[
        "The committee will meet again next week to discuss the budget for the new library.",
        "Die Kinder spielen heute Nachmittag im Garten hinter dem alten Haus.",
        "Nous avons visité le marché du village avant de rentrer à la maison.",
        "Mañana iremos a la playa si el tiempo lo permite, según dijo mi hermano.",
        "A cidade está muito tranquila durante as férias de verão.",
        "Il treno per Milano parte alle otto e mezza dalla stazione centrale.",
        "De fietsers wachtten geduldig bij het stoplicht op de hoek van de straat.",
        "Wczoraj wieczorem poszliśmy do kina na nowy film o podróżach.",
        "Bu akşam arkadaşlarımla birlikte yemeğe çıkacağız.",
        "Hôm nay trời đẹp nên chúng tôi đi dạo trong công viên.",
        "Včera jsme byli na výletě v horách a počasí bylo krásné.",
        "Вчера вечером мы долго гуляли по набережной и разговаривали о книгах.",
        "Сьогодні ми їдемо до бабусі в село, де є великий сад.",
        "Данас је леп дан и деца се играју у парку.",
        "ذهبنا إلى السوق صباحا لشراء الخضار والفواكه الطازجة.",
        "امروز هوا بسیار خوب است و ما به پارک می\u{200C}رویم.",
        "ہم کل صبح اسکول جائیں گے اور اپنے دوستوں سے ملیں گے۔",
        "आज सुबह हम बाजार गए और ताज़ी सब्ज़ियाँ खरीदीं।",
        "आम्ही उद्या सकाळी गावाला जाणार आहोत.",
        "הילדים משחקים בגן אחרי בית הספר.",
        "דער טאַטע איז געגאַנגען אין שטאָט.",
        // Short, shouting, mixed, odd.
        "a",
        "ok",
        "Hi!",
        "THE QUICK BROWN FOX JUMPS OVER THE LAZY DOG",
        "İstanbul'da KIŞ çok soğuk geçer.",
        "Die Straße heißt Schönheitstraße, sagt er.",
        "Russian word любовь means love.",
        "Привет! Текст на русском with some English.",
        "Hello 🎉 world, this is a party 🎈🎈",
        "price: 12,50 € — « très cher » ©2024\u{A0}all rights",
        "ﬁne ligatures and the \u{212A}elvin sign",
        "12345 67 a",
    ];

    /// Texts the mirror leaves to whatlang (and so must still agree).
    const FALLBACK: &[&str] = &[
        "Σήμερα ο καιρός είναι πολύ ωραίος.",
        "今日はとても良い天気ですね。",
        "我们明天早上去公园散步。",
        "오늘은 날씨가 정말 좋네요.",
        "🎉🎉🎉",
        "word слов",
        "ᴫ a",
        "abc αβγδ",
    ];

    #[test]
    fn agrees_with_whatlang_on_samples() {
        let d = detector();
        for text in MIRRORED.iter().chain(FALLBACK) {
            assert_eq!(d.detect(text), whatlang_reliable(text), "{text:?}");
        }
    }

    #[test]
    fn answers_the_covered_scripts_itself() {
        let d = detector();
        for text in MIRRORED {
            assert!(d.is_mirrored(text), "not mirrored: {text:?}");
        }
        for text in FALLBACK {
            assert!(!d.is_mirrored(text), "mirrored: {text:?}");
        }
        // And finds languages, not only "unreliable".
        assert_eq!(d.detect(MIRRORED[0]), Some(Lang::Eng));
        assert_eq!(d.detect(MIRRORED[11]), Some(Lang::Rus));
    }

    #[test]
    fn agrees_on_empty_stop_only_and_long_texts() {
        let d = detector();
        for text in ["", "   ", "12345 67", "!!! ... ???", "\n\t"] {
            assert_eq!(d.detect(text), None, "{text:?}");
            assert_eq!(whatlang_reliable(text), None, "{text:?}");
        }
        // Longer than the 500-byte sample, and than the trigram buffer
        // (left to whatlang).
        let long = MIRRORED[..11].join(" ");
        assert_eq!(d.detect(&long), whatlang_reliable(&long));
        let huge = long.repeat(6);
        assert!(!d.is_mirrored(&huge));
        assert_eq!(d.detect(&huge), whatlang_reliable(&huge));
    }

    #[test]
    fn language_falls_back_to_the_declared_one() {
        let d = detector();
        assert_eq!(d.language(MIRRORED[0], "de").as_deref(), Some("eng"));
        assert_eq!(d.language("", "en-US").as_deref(), Some("eng"));
        assert_eq!(d.language("12 34", "pt_BR").as_deref(), Some("por"));
        assert_eq!(d.language("", " FA ").as_deref(), Some("pes"));
        assert_eq!(d.language("", "xx").as_deref(), None);
        assert_eq!(d.language("", "").as_deref(), None);
        // The sample is cut at a char boundary.
        let text = "é".repeat(400);
        assert_eq!(
            d.language(&text, ""),
            whatlang_reliable(&text[..500]).map(|l| l.code().to_string())
        );
    }

    #[test]
    fn index_holds_every_profile_trigram() {
        let d = detector();
        assert_eq!(d.postings.len(), data::LANGS.len() * data::PROFILE_LEN);
        for (s, script) in SCRIPTS.into_iter().enumerate() {
            assert_eq!(data::LANGS[script.langs()].len(), script.langs().len());
            // Every trigram finds its languages' postings, in language
            // order, and the spans cover the script's postings once.
            let index = &d.index[s];
            let mut all = Vec::new();
            for (lang, profile) in data::PROFILES[script.langs()].iter().enumerate() {
                each_trigram(profile, |key, rank| all.push((key, lang as u8, rank)));
            }
            all.sort_unstable();
            let mut covered = 0;
            for (i, &(key, _, _)) in all.iter().enumerate() {
                if i > 0 && all[i - 1].0 == key {
                    continue;
                }
                let (start, end) = index.get(key).unwrap();
                let want: Vec<(u8, u16)> = all[i..]
                    .iter()
                    .take_while(|t| t.0 == key)
                    .map(|&(_, l, r)| (l, r))
                    .collect();
                assert_eq!(d.postings[usize::from(start)..usize::from(end)], want[..]);
                covered += want.len();
            }
            assert_eq!(covered, all.len());
            assert_eq!(
                index.len,
                all.iter()
                    .map(|t| t.0)
                    .collect::<std::collections::HashSet<_>>()
                    .len()
            );
        }
    }

    /// Pieces to build random texts from: words of the samples, and chars
    /// from many scripts, stop chars and awkward ones.
    fn piece() -> impl Strategy<Value = String> {
        let words: Vec<String> = MIRRORED
            .iter()
            .chain(FALLBACK)
            .flat_map(|t| t.split(' '))
            .map(str::to_string)
            .collect();
        let chars = prop::sample::select(vec![
            'a', 'e', 't', 'Z', 'é', 'ß', 'ø', 'ł', 'İ', 'ı', 'ə', '\u{307}', 'ạ', 'ж', 'Ё', 'ї',
            'ђ', 'ب', 'ی', 'ے', 'क', 'ि', 'ש', 'ײ', 'α', 'Σ', 'ς', '中', 'の', 'カ', '한', '🎉',
            '\u{200C}', '\u{A0}', '\u{1D2B}', '\u{1D78}', 'K', '1', ' ', '.', '-', '\n', '©', '—',
            '«',
        ]);
        prop_oneof![
            3 => prop::sample::select(words),
            1 => prop::collection::vec(chars, 1..12).prop_map(|v| v.into_iter().collect()),
        ]
    }

    proptest! {
        #[test]
        fn agrees_with_whatlang_on_random_texts(
            pieces in prop::collection::vec(piece(), 0..40),
            glue in prop::sample::select(vec![" ", "", "  ", ", "]),
        ) {
            let text = pieces.join(glue);
            prop_assert_eq!(detector().detect(&text), whatlang_reliable(&text), "{:?}", text);
        }
    }
}
