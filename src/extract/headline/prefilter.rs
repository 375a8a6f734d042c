//! Which headline candidate lines can be left unrendered.
//!
//! `Auto`'s first choice must share a term with the title or og:title
//! ([`super::best_match`]). Rendering a line and scoring its terms cost
//! more than looking at its bytes (without this test the core runs 2 %
//! more instructions on the corpus), so lines whose raw HTML cannot hold
//! any of those terms are skipped before rendering; the fallbacks, which
//! look at every line, still get them all.
//!
//! The test only ever errs towards "may share": the raw line's text is
//! what is left between its markup, skipped as the renderer skips it
//! ([`text::text_after_markup`]), with the character references the
//! renderer reads itself decoded as it decodes them ([`text::reference`]),
//! the quote characters terms lose left out, and lowercased per char as
//! terms are; the renderer only adds breaks and collapses spaces, so every
//! term of the rendered text is a piece of it that starts where a word
//! starts or markup ends, and ends where a word ends or markup starts.
//! Where that reasoning does not hold, the line may share: markup or
//! references the renderer leaves to html5gum, markup still open at the
//! end, a NUL, and `Σ` (whose lowercase depends on its place in the word).
//! Only whole words count, not pieces of longer ones ("us" in
//! "business"): on the corpus sample (every 15th page) 1,050 lines are
//! rendered for the first choice where substrings kept 1,141.
//!
//! References inside tags (`href="?a=1&amp;b=2"`) render nothing and are
//! not looked at: on the corpus, three in ten of the candidate lines that
//! were rendered only for an `&` had it in a tag, and most of the rest
//! `&nbsp;` or `&amp;` in the text.

use super::terms::{ASCII_TERM_BYTES, QUOTE};
use crate::extract::tags::Tag;
use crate::extract::text;

/// The terms to look for, set end to end in groups of at most 64 bytes
/// and searched together, built once per page.
///
/// A line is read once whatever the number of terms: a Shift-And state
/// per group (bit `i` set where the text just read ends with the first
/// `i + 1` bytes of a term) steps once a byte. With one `memmem` search
/// per term over a lowercased copy of the line's text the test cost 4,300
/// instructions a line on the corpus sample (every 15th page); read so,
/// 1,900 (1,000 of them the markup's).
#[derive(Debug)]
pub struct Query {
    groups: Vec<Group>,
    /// A term longer than a group, an empty one, or more terms than
    /// [`MAX_GROUPS`] hold: every line may share one.
    every_line: bool,
}

/// The most groups a line is read with at once: 256 bytes of terms, a
/// title of some forty words.
const MAX_GROUPS: usize = 4;

#[derive(Debug)]
struct Group {
    /// Bit `i` of `masks[b]`: byte `i` of the group's terms is `b`. An ASCII
    /// letter's bits are set for both cases, so text is not lowercased
    /// byte by byte: a term holds no capital (terms are lowercased, and
    /// no character lowercases to one).
    masks: Box<[u64; 256]>,
    /// The bits of the terms' first bytes, and of their last.
    starts: u64,
    ends: u64,
}

impl Query {
    pub fn new<'t>(terms: impl IntoIterator<Item = &'t str>) -> Self {
        let mut query = Query {
            groups: Vec::new(),
            every_line: false,
        };
        let mut used = 64;
        for term in terms {
            let term = term.as_bytes();
            if term.is_empty() || term.len() > 64 {
                query.every_line = true;
                continue;
            }
            if used + term.len() > 64 {
                query.groups.push(Group {
                    masks: Box::new([0; 256]),
                    starts: 0,
                    ends: 0,
                });
                used = 0;
            }
            let Some(group) = query.groups.last_mut() else {
                continue;
            };
            for (i, &b) in term.iter().enumerate() {
                let bit = 1 << (used + i);
                group.masks[usize::from(b)] |= bit;
                group.masks[usize::from(b.to_ascii_uppercase())] |= bit;
            }
            group.starts |= 1 << used;
            group.ends |= 1 << (used + term.len() - 1);
            used += term.len();
        }
        query.every_line |= query.groups.len() > MAX_GROUPS;
        query
    }
}

/// Could the rendered text of `raw` (one logical line) contain one of the
/// query's terms?
pub fn may_share_a_term(raw: &str, query: &Query) -> bool {
    fn read<const N: usize>(raw: &str, groups: &[Group]) -> bool {
        let Ok(groups) = <&[Group; N]>::try_from(groups) else {
            return true;
        };
        let mut reader = Reader {
            groups,
            states: [0; N],
            word_start: true,
        };
        reader.line(raw).is_none()
    }
    if query.every_line {
        return true;
    }
    match query.groups.len() {
        0 => false,
        1 => read::<1>(raw, &query.groups),
        2 => read::<2>(raw, &query.groups),
        3 => read::<3>(raw, &query.groups),
        _ => read::<MAX_GROUPS>(raw, &query.groups),
    }
}

/// What a byte is to a reader of a line's text.
#[derive(Clone, Copy, PartialEq)]
enum Class {
    /// An ASCII letter or digit: part of a word.
    Word,
    /// `'`: part of a word, left out of terms.
    Quote,
    /// Any other ASCII character: between words.
    Space,
    /// `<`, `&` or NUL: markup, a reference, or doubt.
    Special,
    /// Not ASCII.
    High,
}

const CLASSES: [Class; 256] = {
    let mut classes = [Class::High; 256];
    let mut b = 0;
    while b < 128 {
        let c = b as u8;
        classes[b] = if c.is_ascii_alphanumeric() {
            Class::Word
        } else if c == b'\'' {
            Class::Quote
        } else if matches!(c, b'<' | b'&' | 0) {
            Class::Special
        } else {
            Class::Space
        };
        b += 1;
    }
    classes
};

/// Reads a line's text as terms are read from the rendered one, and finds
/// the query's terms in it: each one where a word starts and where one
/// ends, or where markup may split a word (a `<br>` does, a `<b>` does
/// not). `None` is "may share": a term found, or doubt.
struct Reader<'q, const N: usize> {
    groups: &'q [Group; N],
    states: [u64; N],
    /// The next word character starts a word, or may (after markup).
    word_start: bool,
}

impl<const N: usize> Reader<'_, N> {
    /// Reads `raw`: its text between markup, the markup skipped as the
    /// renderer skips it. Text kept from inside a tag (`title="a > b"`) or
    /// a comment would join the text on either side, and a word that spans
    /// the markup would be lost.
    fn line(&mut self, raw: &str) -> Option<()> {
        let bytes = raw.as_bytes();
        let mut pos = 0;
        loop {
            pos = self.ascii_words(bytes, pos)?;
            let Some(&b) = bytes.get(pos) else {
                return self.word_end();
            };
            if CLASSES[usize::from(b)] == Class::Special {
                pos = self.special(raw, pos)?;
            } else {
                // Not ASCII: `pos` is on a char boundary, as every step
                // before moved past whole chars.
                let c = raw.get(pos..)?.chars().next()?;
                self.char(c)?;
                pos += c.len_utf8();
            }
        }
    }

    /// Reads ASCII letters, digits, quotes and spaces from `pos` on, the
    /// bulk of the text, with the states in locals (kept in registers: in
    /// the reader they went through memory at every byte: the reading
    /// took a third more instructions); where reading stopped.
    fn ascii_words(&mut self, bytes: &[u8], mut pos: usize) -> Option<usize> {
        let (mut states, mut word_start) = (self.states, self.word_start);
        while let Some(&b) = bytes.get(pos) {
            match CLASSES[usize::from(b)] {
                Class::Word => {
                    for (state, group) in states.iter_mut().zip(self.groups) {
                        let starts = if word_start { group.starts } else { 0 };
                        *state = (((*state << 1) & !group.starts) | starts)
                            & group.masks[usize::from(b)];
                    }
                    word_start = false;
                }
                Class::Quote => {}
                Class::Space => {
                    let ended = states
                        .iter()
                        .zip(self.groups)
                        .any(|(state, group)| state & group.ends != 0);
                    if ended {
                        return None;
                    }
                    states = [0; N];
                    word_start = true;
                }
                Class::Special | Class::High => break,
            }
            pos += 1;
        }
        (self.states, self.word_start) = (states, word_start);
        Some(pos)
    }

    /// At a `<`, `&` or NUL at `pos`: where reading goes on.
    fn special(&mut self, raw: &str, pos: usize) -> Option<usize> {
        let bytes = raw.as_bytes();
        match bytes[pos] {
            b'<' => match text::text_after_markup(bytes, pos)? {
                // A `<` that is text.
                next if next == pos => {
                    self.word_end()?;
                    Some(pos + 1)
                }
                // An element whose content the renderer leaves out but the
                // tokenizer reads as markup (`<button>`, `<svg>`): skipped
                // here only to its tag's end, its text would join the words
                // around it ("Big<button>x</button>News" renders as
                // "BigNews"). Doubt.
                _ if opens_hidden_content(bytes, pos) => None,
                // A word may end at markup, and another start.
                next => {
                    self.ends()?;
                    self.word_start = true;
                    Some(next)
                }
            },
            b'&' => {
                // A reference the renderer reads itself, decoded as it
                // decodes it; one left to html5gum is doubt.
                let (len, c) = text::reference(&bytes[pos + 1..])?;
                self.char(c)?;
                let next = pos + 1 + len;
                raw.is_char_boundary(next).then_some(next)
            }
            // A NUL the tokenizer reports otherwise.
            _ => None,
        }
    }

    /// Reads one character as terms read it: a quote left out, a letter
    /// or digit lowercased; `None` at a `Σ`, whose lowercase depends on
    /// its place in the word.
    fn char(&mut self, c: char) -> Option<()> {
        if c.is_ascii() {
            return match CLASSES[c as usize] {
                Class::Word => {
                    self.step(c as u8, self.word_start);
                    self.word_start = false;
                    Some(())
                }
                Class::Quote => Some(()),
                _ => self.word_end(),
            };
        }
        if super::terms::is_quote(c) {
            return Some(());
        }
        if c == 'Σ' {
            return None;
        }
        if !c.is_alphanumeric() {
            return self.word_end();
        }
        let mut utf8 = [0u8; 4];
        let mut first = self.word_start;
        for lower in c.to_lowercase() {
            for &b in lower.encode_utf8(&mut utf8).as_bytes() {
                self.step(b, first);
                first = false;
            }
        }
        self.word_start = false;
        Some(())
    }

    /// One byte of a word; a term may start at it where it is a word's
    /// first.
    fn step(&mut self, b: u8, start: bool) {
        for (state, group) in self.states.iter_mut().zip(self.groups) {
            let starts = if start { group.starts } else { 0 };
            *state = (((*state << 1) & !group.starts) | starts) & group.masks[usize::from(b)];
        }
    }

    /// Between words: a term ending at the last word's end is found.
    fn word_end(&mut self) -> Option<()> {
        self.ends()?;
        self.states = [0; N];
        self.word_start = true;
        Some(())
    }

    /// `None` where a term ends with the last byte read.
    fn ends(&self) -> Option<()> {
        let found = self
            .states
            .iter()
            .zip(self.groups)
            .any(|(state, group)| state & group.ends != 0);
        (!found).then_some(())
    }
}

/// Is the markup at `lt` the start tag of an element whose content the
/// renderer leaves out and the tokenizer reads as markup ([`Tag::Opaque`]:
/// `svg`, `button`, `select` and the like; raw text such as a script's
/// is skipped whole by [`text::text_after_markup`])?
fn opens_hidden_content(bytes: &[u8], lt: usize) -> bool {
    let name = bytes.get(lt + 1..).unwrap_or_default();
    // The name lowercased as it is read, by one look-up a byte, and read
    // no further than the longest name a tag kind has: a pass to find the
    // name's end, a second to lowercase it and a third for its key cost
    // 80 instructions a tag (1.1 M on every 15th page).
    let mut lower = [0u8; 16];
    let mut len = 0;
    for &b in name.iter().take(lower.len() + 1) {
        // A letter or digit, lowercase; anything else ends the name.
        let l = ASCII_TERM_BYTES[usize::from(b)];
        let Some(slot) = lower.get_mut(len).filter(|_| l > QUOTE) else {
            break;
        };
        *slot = l;
        len += 1;
    }
    if len == 0 || name.get(len).is_some_and(u8::is_ascii_alphanumeric) {
        // No name, or one longer than any tag's.
        return false;
    }
    let [word @ .., _, _, _, _, _, _, _, _] = lower;
    let tag = Tag::classify_word(u64::from_le_bytes(word), &lower[..len]);
    tag == Tag::Opaque
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract::headline::{StopWords, terms};
    use crate::extract::text;

    /// The terms the renderer's text of `raw` really has.
    fn rendered_terms(raw: &str) -> Vec<String> {
        let text = text::render_fragment(raw);
        let mut out = Vec::new();
        terms::each_term(&text, &StopWords::default(), &mut String::new(), |t| {
            out.push(t.to_string())
        });
        out
    }

    const LINES: &[&str] = &[
        "<h1 class=\"title\">Storm <b>hits</b> Maine</h1>",
        "<p>Hel<i>lo</i> wor<span class=x>ld</span></p>",
        "<li><a href=\"/a?b=c>d\">Don't</a> miss it</li>",
        "<div title=\"a > b\">O’Neill's İstanbul ÉTATS</div>",
        "<p>a<!-- x > y --> b<br>c</p>",
        "<td>x</td><td>y</td>",
        // Hidden content inside a word: "BigNews" is rendered.
        "<h1>Big<button>x</button>News</h1>",
        "<script>if (a<b) { c = '>'; }</script>Text after",
        "<p>plain words only</p>",
        "<a title=\"<b>Bold</b>\">Storm</a> x<y z</p> after",
        "<pre>Code\n  block</pre><textarea>t</textarea><svg><text>s</text></svg>Tail",
    ];

    fn query(terms: &[&str]) -> Query {
        Query::new(terms.iter().copied())
    }

    /// Every term of the rendered text is found in the raw line: a line
    /// is never skipped when it shares one.
    #[test]
    fn a_line_sharing_a_rendered_term_is_kept() {
        for raw in LINES {
            let terms = rendered_terms(raw);
            assert!(!terms.is_empty(), "{raw:?}");
            for t in terms {
                assert!(
                    may_share_a_term(raw, &query(&[&t])),
                    "{raw:?} renders {t:?}"
                );
            }
        }
    }

    #[test]
    fn lines_without_the_terms_are_skipped_and_doubtful_ones_kept() {
        let storm = query(&["storm", "maine"]);
        assert!(!may_share_a_term(
            "<p><a href=\"/storm\">Home</a> News</p>",
            &storm
        ));
        assert!(!may_share_a_term("<p>x</p>", &query(&[])));
        // Terms set end to end in one group do not run into each other:
        // "abcd" holds neither "ab" nor "cd" as a word.
        assert!(!may_share_a_term("<p>abcd</p>", &query(&["ab", "cd"])));
        assert!(may_share_a_term("<p>ab cd</p>", &query(&["ab", "cd"])));
        // References read where they render: in a tag they render
        // nothing, in text they decode (to a letter, or to a space that
        // splits no term).
        for skipped in [
            "<p><a href=\"/s?q=storm&amp;x=maine\">Home</a></p>",
            "<p>News&nbsp;&amp;&#160;Weather &mdash; today & tomorrow</p>",
            "<p>St&#111;ry</p>",
            "<p>a < b</p>",
            "<p><a title=\"Storm > Maine\">Home</a></p>",
            "<p>x<!-- Storm > Maine -->y</p>",
            "<p>x<script>Storm</script>y</p>",
        ] {
            assert!(!may_share_a_term(skipped, &storm), "{skipped:?}");
        }
        assert!(may_share_a_term("<p>St&#111;rm</p>", &storm));
        assert!(may_share_a_term("<p>M&#x61;ine</p>", &storm));
        assert!(may_share_a_term("<p>a <3 storm</p>", &storm));
        // A word split by a tag or a comment holding a `>`, or by left-out
        // raw text, is one word.
        assert!(may_share_a_term(
            "<p>Sto<a title=\"x > y\">rm</a></p>",
            &storm
        ));
        assert!(may_share_a_term("<p>Sto<!-- > -->rm</p>", &storm));
        assert!(may_share_a_term("<p>Sto<style>p>a{}</style>rm</p>", &storm));
        // References and markup the renderer leaves to html5gum, a NUL,
        // raw text it reads, an open tag, a capital sigma (also as a
        // reference).
        for doubtful in [
            "<p>St&ouml;rm</p>",
            "<p>x &amp y</p>",
            "<p>&#128;</p>",
            "<p>x\0y</p>",
            "<p>x<noframe>y</noframe></p>",
            "<p>x<script><!-- y</script>",
            "<p>x</p><a href=",
            "<p>Σ</p>",
            "<p>&#931;</p>",
        ] {
            assert!(may_share_a_term(doubtful, &storm), "{doubtful:?}");
        }
        // Terms hidden in markup only do not count as text, but text split
        // by inline tags does.
        assert!(!may_share_a_term("<img alt=\"Storm\">", &storm));
        assert!(may_share_a_term("<p>Sto<b>rm</b></p>", &storm));
    }

    #[test]
    fn only_whole_words_are_terms_but_markup_may_end_one() {
        let storm = query(&["storm", "maine"]);
        for skipped in [
            "<p>Stormy Mainers</p>",
            "<p>Brainstorm in Romaine</p>",
            "<p>x&#83;torm</p>",
            "<p>STORM’S</p>",
        ] {
            assert!(!may_share_a_term(skipped, &storm), "{skipped:?}");
        }
        for kept in [
            "<p>Storm<br>y</p>",
            "<p>Brain<br>storm</p>",
            "<p>STORM’</p>",
            "<p>'Maine'</p>",
            "<p>Maine</p>",
            "Storm",
        ] {
            assert!(may_share_a_term(kept, &storm), "{kept:?}");
        }
        assert!(!may_share_a_term("<p>business</p>", &query(&["us"])));
        assert!(may_share_a_term("<p>Let us</p>", &query(&["us"])));
    }

    /// Terms past the first group's 64 bytes are found as well; one too
    /// long for a group, or too many, keep every line.
    #[test]
    fn terms_in_later_groups_are_found_and_overlong_ones_keep_every_line() {
        let filler = ["a".repeat(40), "b".repeat(40), "c".repeat(40)];
        let mut terms: Vec<&str> = filler.iter().map(String::as_str).collect();
        terms.push("maine");
        let q = query(&terms);
        assert_eq!(q.groups.len(), 3);
        assert!(may_share_a_term("<p>Maine</p>", &q));
        assert!(!may_share_a_term("<p>Vermont</p>", &q));
        let long = "x".repeat(65);
        assert!(may_share_a_term(
            "<p>Vermont</p>",
            &query(&["maine", &long])
        ));
        let many: Vec<String> = (0..10).map(|i| format!("{i}{}", "y".repeat(40))).collect();
        let many: Vec<&str> = many.iter().map(String::as_str).collect();
        assert!(may_share_a_term("<p>Vermont</p>", &query(&many)));
    }

    /// [`opens_hidden_content`] as it was: the name found, lowercased,
    /// then classified.
    fn old_opens_hidden_content(bytes: &[u8], lt: usize) -> bool {
        let name = bytes.get(lt + 1..).unwrap_or_default();
        let len = name
            .iter()
            .position(|b| !b.is_ascii_alphanumeric())
            .unwrap_or(name.len());
        let mut lower = [0u8; 16];
        let Some(slot) = lower.get_mut(..len).filter(|_| len > 0) else {
            return false;
        };
        for (l, b) in slot.iter_mut().zip(name) {
            *l = b.to_ascii_lowercase();
        }
        Tag::classify(slot) == Tag::Opaque
    }

    proptest::proptest! {
        /// Hidden content is found where the old reading found it.
        #[test]
        fn hidden_content_opens_where_it_did(
            tail in proptest::collection::vec(proptest::sample::select(vec![
                "svg", "SVG", "Button", "button", "butto", "buttons", "select", "template",
                "templates", "canvas", "video", "audio", "map", "math", "object", "a", "div",
                "x", "0", "9", "/", "-", ">", " ", "\0", "é", "sectionsectionsec", "0123456789abcdef",
            ]), 0..4)
        ) {
            let raw = format!("<{}", tail.concat());
            proptest::prop_assert_eq!(
                opens_hidden_content(raw.as_bytes(), 0),
                old_opens_hidden_content(raw.as_bytes(), 0),
                "{:?}", raw
            );
        }
    }

    #[test]
    fn hidden_content_opens_at_opaque_tags_only() {
        for (raw, opens) in [
            ("<svg>", true),
            ("<BUTTON type=x>", true),
            ("<template>", true),
            ("<templates>", false),
            ("<div>", false),
            ("</svg>", false),
            ("<", false),
            ("<0123456789abcdefg>", false),
        ] {
            assert_eq!(opens_hidden_content(raw.as_bytes(), 0), opens, "{raw:?}");
        }
    }

    /// A line of words, character references (read here or left to
    /// html5gum), tags with `&` and `>` in their attributes, stray `<`
    /// and comments.
    fn line() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        let fixed = proptest::sample::select(vec![
            " ",
            "'",
            "’",
            "É",
            "İ",
            "Σ",
            "\r\n",
            "\0",
            "&amp;",
            "&nbsp;",
            "&shy;",
            "&apos;",
            "&rsquo;",
            "&amp",
            "&ouml;",
            "&#931;",
            "&#128;",
            "&",
            "<b>",
            "</b>",
            "<br>",
            "<",
            " < ",
            "<p class=\"a&amp;b\">",
            "<a href=\"/x?a=1&b>2\">",
            "<a title=\"x > y\" b=c>",
            "<i x=a\"b>",
            "<img alt='x &#65; y'>",
            "<!-- c > d -->",
            "<!-->",
            "<!--->",
            "<!-- e --!>",
            "<script>",
            "</script>",
            "<noframe>",
            "</noframe>",
            "<xmp>",
            "</xmp>",
        ])
        .prop_map(str::to_string);
        let piece = prop_oneof![
            3 => fixed,
            1 => "[A-Za-z0-9]{1,6}",
            1 => "&#[0-9]{1,4};",
            1 => "&#x[0-9a-fA-F]{1,4};",
        ];
        proptest::collection::vec(piece, 1..14).prop_map(|p| p.concat())
    }

    proptest::proptest! {
        /// No line is skipped that renders a term of the query, on random
        /// lines.
        #[test]
        fn a_random_line_sharing_a_rendered_term_is_kept(raw in line()) {
            // Each term alone, and in a second group after a long one.
            let filler = "q".repeat(60);
            for t in rendered_terms(&raw) {
                proptest::prop_assert!(
                    may_share_a_term(&raw, &query(&[&t])),
                    "{:?} renders {:?}", raw, t
                );
                proptest::prop_assert!(
                    may_share_a_term(&raw, &query(&[&filler, &t])),
                    "{:?} renders {:?}", raw, t
                );
            }
        }
    }
}
