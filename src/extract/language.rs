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

use std::collections::HashMap;
use std::fmt;
use std::hash::{BuildHasherDefault, Hasher};
use whatlang::Lang;

/// A text longer than this many trigrams goes to whatlang (the language
/// sample is 500 bytes, at most ~1000 trigrams even if every char
/// lowercases to two).
const MAX_TRIGRAMS: usize = 1024;
// Counts and ranks of trigrams are kept as u16.
const _: () = assert!(MAX_TRIGRAMS < u16::MAX as usize);

/// Room for the largest alphabet table (checked at compile time).
const ALPHABET_MAX: usize = 256;
const _: () = assert!(
    data::LATIN_ALPHABET.len() <= ALPHABET_MAX && data::CYRILLIC_ALPHABET.len() <= ALPHABET_MAX
);

/// whatlang's `MAX_TRIGRAM_DISTANCE`: the distance of a profile trigram the
/// text lacks, and how many of the text's top trigrams the distance counts
/// at most twice over (`TEXT_TRIGRAMS_SIZE`).
const MAX_TRIGRAM_DISTANCE: u32 = 300;
const TEXT_TRIGRAMS_SIZE: usize = 600;
const MAX_TOTAL_DISTANCE: u32 = MAX_TRIGRAM_DISTANCE * MAX_TRIGRAM_DISTANCE;

/// whatlang's `RELIABLE_CONFIDENCE_THRESHOLD`.
const RELIABLE_CONFIDENCE: f64 = 0.9;

/// Finds the language of a text as whatlang does. Immutable once built;
/// share one (the extractor holds it in an `Arc`).
pub struct Detector {
    /// One index per script (`SCRIPTS` order), each small enough to stay
    /// in cache: packed trigram (see [`pack`]) → its postings,
    /// `postings[start..end]`.
    index: [HashMap<u64, (u32, u32), BuildHasherDefault<TrigramHasher>>; SCRIPTS.len()],
    /// (language as an index into the script's `data::LANGS` range, rank in
    /// its profile).
    postings: Vec<(u8, u16)>,
}

impl fmt::Debug for Detector {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Detector")
            .field(
                "trigrams",
                &self.index.iter().map(HashMap::len).sum::<usize>(),
            )
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
fn is_stop(ch: char) -> bool {
    matches!(ch, '\u{0000}'..='\u{0040}' | '\u{005B}'..='\u{0060}' | '\u{007B}'..='\u{007E}')
}

/// A trigram as one integer whose order is whatlang's `Trigram` order
/// (lexicographic by code point): chars fit in 21 bits.
fn pack(a: char, b: char, c: char) -> u64 {
    (u64::from(a) << 42) | (u64::from(b) << 21) | u64::from(c)
}

impl Detector {
    /// Builds the inverted index of whatlang's profiles (15,300 trigrams;
    /// well under a millisecond).
    pub fn new() -> Self {
        let mut postings = Vec::with_capacity(data::LANGS.len() * data::PROFILE_LEN);
        let index = SCRIPTS.map(|script| {
            let langs = script.langs();
            let mut all: Vec<(u64, u8, u16)> = Vec::with_capacity(langs.len() * data::PROFILE_LEN);
            for (lang, profile) in data::PROFILES[langs].iter().enumerate() {
                let mut chars = profile.chars();
                let mut rank = 0u16;
                while let (Some(a), Some(b), Some(c)) = (chars.next(), chars.next(), chars.next()) {
                    all.push((pack(a, b, c), lang as u8, rank));
                    rank += 1;
                }
            }
            all.sort_unstable();
            let mut index = HashMap::with_capacity_and_hasher(all.len(), Default::default());
            let mut i = 0;
            while i < all.len() {
                let key = all[i].0;
                let start = postings.len() as u32;
                while i < all.len() && all[i].0 == key {
                    postings.push((all[i].1, all[i].2));
                    i += 1;
                }
                index.insert(key, (start, postings.len() as u32));
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
        // 1. Script (whatlang's `raw_detect_script`), on the text as given.
        // whatlang counts each char for the first script that has it and
        // picks the script with most chars, breaking ties in an order that
        // depends on the text; a script with more chars than all non-stop
        // chars outside it wins whatever that order.
        let mut counts = [0usize; SCRIPTS.len()];
        let mut letters = 0usize;
        for ch in text.chars() {
            // ASCII letters are Latin, the first script: the common case
            // skips the checks below.
            if ch.is_ascii_alphabetic() {
                letters += 1;
                counts[0] += 1;
                continue;
            }
            if is_stop(ch) {
                continue;
            }
            // In two scripts (see `Script::has`), or lowercased by context
            // (`str::to_lowercase` turns a final 'Σ' into 'ς').
            if matches!(ch, '\u{1D2B}' | '\u{1D78}' | 'Σ') {
                return Verdict::Unsure;
            }
            letters += 1;
            if let Some(i) = SCRIPTS.iter().position(|s| s.has(ch)) {
                counts[i] += 1;
            }
        }
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
        let script = SCRIPTS[best];

        // 2. One pass over the lowercased text (whatlang lowercases with
        // `str::to_lowercase`, which is `char::to_lowercase` per char but
        // for 'Σ', excluded above): the alphabet histogram and the trigrams.
        let alphabet = script.alphabet();
        let mut pass = Pass {
            alphabet,
            hist: [0; ALPHABET_MAX],
            letters: 0,
            trigrams: [0; MAX_TRIGRAMS],
            n: 0,
            c1: ' ',
            c2: None,
        };
        for ch in text.chars() {
            if ch.is_ascii() {
                pass.push(ch.to_ascii_lowercase());
            } else {
                for lower in ch.to_lowercase() {
                    pass.push(lower);
                }
            }
        }
        pass.push(' ');
        if pass.n > MAX_TRIGRAMS {
            return Verdict::Unsure;
        }
        let Pass {
            hist,
            letters: alphabet_count,
            mut trigrams,
            n,
            ..
        } = pass;

        // 3. The text's trigrams by count, then by trigram, both descending
        // (whatlang's `trigram_occurances_to_positions`): rank = position.
        // Sort, count runs, then place the runs by count (a counting sort,
        // visiting runs from the greatest trigram down).
        let trigrams = &mut trigrams[..n];
        trigrams.sort_unstable();
        // Runs of equal trigrams, folded in place: `trigrams[..unique]`
        // are the distinct ones (ascending), `counts` how often each came.
        // (Small arrays: every page zeroes them.)
        let mut counts = [0u16; MAX_TRIGRAMS];
        let mut unique = 0usize;
        for i in 0..trigrams.len() {
            let t = trigrams[i];
            if unique > 0 && trigrams[unique - 1] == t {
                counts[unique - 1] += 1;
            } else {
                trigrams[unique] = t;
                counts[unique] = 1;
                unique += 1;
            }
        }
        let counts = &counts[..unique];
        // `starts[c]`: where runs of count c start in the ranking (counts
        // are at most `n <= MAX_TRIGRAMS`).
        let mut starts = [0u16; MAX_TRIGRAMS + 2];
        for &count in counts {
            starts[usize::from(count)] += 1;
        }
        let mut at = 0u16;
        for slot in starts.iter_mut().rev() {
            let here = *slot;
            *slot = at;
            at += here;
        }
        // The distinct trigrams in rank order, as indices into `trigrams`.
        let mut ranked = [0u16; MAX_TRIGRAMS];
        for (i, &count) in counts.iter().enumerate().rev() {
            let slot = &mut starts[usize::from(count)];
            ranked[usize::from(*slot)] = i as u16;
            *slot += 1;
        }
        let ranked = &ranked[..unique.min(TEXT_TRIGRAMS_SIZE)];
        let text_count = ranked.len() as u32;
        if text_count == 0 || alphabet_count == 0 {
            // Cannot happen with a letter in the text; whatlang would divide
            // by zero, so leave it the case.
            return Verdict::Unsure;
        }

        // 4. Distances (whatlang's `calculate_distance`): every profile
        // trigram the text lacks costs MAX_TRIGRAM_DISTANCE, one it has
        // costs the difference of ranks. Start from "lacks all 300" and
        // correct for the trigrams the text has.
        let langs = script.langs();
        let index = &self.index[best];
        // The lookups first, in a loop of their own: the index is cold
        // after a page's scan, and a loop doing nothing else lets the CPU
        // overlap the misses (a third of this function's time was one).
        let mut found = [(0u32, 0u32, 0u16); TEXT_TRIGRAMS_SIZE];
        let mut hits = 0;
        for (position, &t) in ranked.iter().enumerate() {
            if let Some(&(start, end)) = index.get(&trigrams[usize::from(t)]) {
                found[hits] = (start, end, position as u16);
                hits += 1;
            }
        }
        // i32 is plenty: a language gains or loses under 600 per profile
        // trigram, of which it has 300, from 90,000. Its index is below 64
        // (checked at compile time), which the mask tells the compiler, so
        // this loop, the detector's busiest, has no bounds check.
        let mut distance = [MAX_TOTAL_DISTANCE as i32; 64];
        for &(start, end, position) in &found[..hits] {
            let position = i32::from(position);
            for &(lang, rank) in self
                .postings
                .get(start as usize..end as usize)
                .unwrap_or(&[])
            {
                distance[usize::from(lang & 63)] +=
                    (position - i32::from(rank)).abs() - MAX_TRIGRAM_DISTANCE as i32;
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
        // Chars of each language's alphabet in the text.
        let mut inside = [0u32; 64];
        if let Some(table) = alphabet {
            for (&(_, mask), &h) in table.iter().zip(hist.iter()) {
                if h == 0 {
                    continue;
                }
                let mut bits = mask;
                while bits != 0 {
                    inside[bits.trailing_zeros() as usize] += h;
                    bits &= bits - 1;
                }
            }
        }
        let max_distance = text_count * MAX_TRIGRAM_DISTANCE;
        let mut first: Option<(usize, f64)> = None;
        let mut second: Option<f64> = None;
        for (i, d) in distance[..langs.len()].iter().enumerate() {
            let d = (d - correction).clamp(0, MAX_TOTAL_DISTANCE as i32) as u32;
            // `d <= max_distance` always (each matched trigram is closer
            // than MAX_TRIGRAM_DISTANCE); saturate rather than trust it.
            let t = f64::from(max_distance.saturating_sub(d)) / f64::from(max_distance);
            let a = match alphabet {
                Some(_) => {
                    // whatlang adds 2 per char in the language's alphabet and
                    // takes off one per char: 2 × in − all, at least 0.
                    f64::from((2 * inside[i]).saturating_sub(alphabet_total))
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

/// The pass over the lowercased text: whatlang's alphabet histogram
/// (`generic_alphabet_calculate_scores`) and trigrams (`count`) at once.
struct Pass {
    alphabet: Option<&'static [(char, u64)]>,
    /// Count per entry of the alphabet table.
    hist: [u32; ALPHABET_MAX],
    /// Non-stop chars.
    letters: u32,
    trigrams: [u64; MAX_TRIGRAMS],
    /// Trigrams seen; more than `MAX_TRIGRAMS` means the buffer overflowed.
    n: usize,
    c1: char,
    /// `None` before the first char.
    c2: Option<char>,
}

impl Pass {
    /// One lowercased char (and a final space after the text: whatlang
    /// chains one, and it is a stop char, so it is not counted).
    #[inline]
    fn push(&mut self, ch: char) {
        let c3 = if is_stop(ch) {
            ' '
        } else {
            self.letters += 1;
            if let Some(table) = self.alphabet {
                // The tables start with 'a'..='z' when they have them.
                let ascii = (ch as usize).wrapping_sub('a' as usize);
                let i = match table.get(ascii) {
                    Some(&(c, _)) if c == ch => Ok(ascii),
                    _ => table.binary_search_by_key(&ch, |&(c, _)| c),
                };
                if let Some(h) = i.ok().and_then(|i| self.hist.get_mut(i)) {
                    *h += 1;
                }
            }
            ch
        };
        // whatlang's `count`: the text as trigram chars (stop chars as
        // spaces) and one more space, starting from a space; a trigram is
        // kept unless its middle is a space next to another space.
        let Some(b) = self.c2 else {
            self.c2 = Some(c3);
            return;
        };
        if !(b == ' ' && (self.c1 == ' ' || c3 == ' ')) {
            if let Some(slot) = self.trigrams.get_mut(self.n) {
                *slot = pack(self.c1, b, c3);
            }
            self.n += 1;
        }
        self.c1 = b;
        self.c2 = Some(c3);
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

/// Hashes the packed trigrams of the index: one multiply, folded so both
/// the high bits (hashbrown's tags) and the low bits (its buckets) mix.
#[derive(Default)]
struct TrigramHasher(u64);

impl Hasher for TrigramHasher {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u64(&mut self, x: u64) {
        let m = u128::from(x ^ self.0) * 0x9E37_79B9_7F4A_7C15;
        self.0 = (m as u64) ^ ((m >> 64) as u64);
    }

    fn finish(&self) -> u64 {
        self.0
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
        for script in SCRIPTS {
            assert_eq!(data::LANGS[script.langs()].len(), script.langs().len());
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
