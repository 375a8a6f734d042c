//! Turning selected lines into clean text with tokenizer events: tag
//! names and text, as html5gum (a WHATWG-conformant tokenizer) reports
//! them.
//!
//! Every logical line starts at a tag boundary in the data state (see
//! `scan`), so a run of consecutive selected lines can be tokenized on its
//! own, starting from the tokenizer's initial state: that *is* the saved
//! state. Raw-text elements (script, style, ...) switch the tokenizer's
//! state by name, as a tree builder would.
//!
//! Output: entities decoded, whitespace collapsed (kept inside `<pre>`),
//! one paragraph per line; inline tags never split words, block tags and
//! `<br>` always break. Whitespace at a tag before a full stop or comma,
//! or between two kanji, is the source's layout and no space. Script, style, svg, select, template, button and
//! the like contribute nothing, and neither do ruby annotations (`<rt>`,
//! `<rp>`, `<rtc>`): 漢字<rt>かんじ</rt> reads 漢字, the base text alone.
//! Nor do `nav`, `aside`, `footer` and `figcaption` that open inside the
//! rendered lines: captions and fact boxes are not the article's prose.
//!
//! `direct` tokenizes the common markup itself and leaves the rest to
//! html5gum (`events`): the same events, a fraction of the time.
//! `repeats` finds the paragraphs a page's text says twice, `credits` the
//! pictures' credits; `nfc` puts the text in Unicode NFC.

pub mod credits;
mod direct;
pub(crate) use direct::{reference, text_after_markup};
mod events;
pub mod nfc;
pub mod repeats;
pub(crate) mod structure;
mod words;

use super::tags::Tag;
use events::Sink;
use structure::Structure;

/// How anchors are rendered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Anchors {
    Keep,
    /// Filter 1: hyperlinks are removed together with their text.
    Drop,
}

/// Renders the given byte ranges of `src` (each a run of whole lines) to
/// text, appending to `out`. Paragraphs are separated by `\n`.
pub fn render(src: &str, ranges: &[(usize, usize)], anchors: Anchors, out: &mut String) {
    render_into(src, ranges, anchors, out, &mut Scratch::default());
}

/// A buffer a render reuses: the text runs html5gum reports.
#[derive(Debug, Default)]
struct Scratch {
    chars: Vec<u8>,
}

/// [`render`], telling `builder` the structure of what it writes (see
/// [`structure`]): the same text, from the same events. Before each run
/// the builder alone hears the tags just above it (see
/// [`structure::context_before`]): a run starting at a list's first item
/// is still in the list.
pub(crate) fn render_structured(
    src: &str,
    ranges: &[(usize, usize)],
    anchors: Anchors,
    out: &mut String,
    builder: &mut structure::Builder,
) {
    let mut chars = Vec::new();
    let mut r = Renderer::with_structure(out, anchors, builder);
    let mut previous_end = 0;
    for &(start, end) in ranges {
        r.reset();
        if previous_end > 0 && structure::context_is_whole(previous_end, start) {
            r.structure.resume();
        }
        let context = structure::context_before(src, previous_end, start);
        tokens(
            context,
            &mut structure::Tags::new(&mut *r.structure),
            &mut chars,
        );
        r.tokens(src.get(start..end).unwrap_or(""), &mut chars);
        r.paragraph();
        previous_end = end;
    }
    r.finish();
}

/// Reports the events of `html` to `sink`: directly as far as `direct`
/// follows the markup, and from there by html5gum.
fn tokens<S: Sink>(html: &str, sink: &mut S, chars: &mut Vec<u8>) {
    let stop = direct::run(html, sink, chars);
    if let Some(rest) = html.get(stop..).filter(|rest| !rest.is_empty()) {
        direct::tokenize(rest, sink, chars);
    }
}

fn render_into(
    src: &str,
    ranges: &[(usize, usize)],
    anchors: Anchors,
    out: &mut String,
    scratch: &mut Scratch,
) {
    let mut r = Renderer::new(out, anchors);
    for &(start, end) in ranges {
        r.run(src.get(start..end).unwrap_or(""), &mut scratch.chars);
        r.paragraph();
    }
    r.finish();
}

/// `text` without the byte ranges `lines` (whole lines, in order, not
/// overlapping): the paragraphs that `repeats` and `credits` find.
pub fn cut_lines(text: &mut String, lines: &[std::ops::Range<usize>]) {
    let mut kept = String::with_capacity(text.len());
    let mut from = 0;
    for r in lines {
        kept.push_str(&text[from..r.start]);
        from = r.end;
    }
    kept.push_str(&text[from..]);
    // A dropped last paragraph leaves the break before it.
    if !text.ends_with('\n') {
        while kept.ends_with('\n') {
            kept.pop();
        }
    }
    *text = kept;
}

/// [`render_fragment`] with html5gum tokenizing the whole fragment: what
/// `direct` must not change.
#[cfg(test)]
fn render_original(fragment: &str) -> String {
    let mut out = String::new();
    let mut r = Renderer::new(&mut out, Anchors::Keep);
    r.reset();
    direct::tokenize(fragment, &mut r, &mut Vec::new());
    r.paragraph();
    r.finish();
    out
}

/// Renders one fragment to a fresh string.
pub fn render_fragment(fragment: &str) -> String {
    let mut out = String::new();
    render(fragment, &[(0, fragment.len())], Anchors::Keep, &mut out);
    out
}

/// Many small fragments (headline candidates) rendered one after another
/// into one buffer, so that a page's candidates cost a few allocations in
/// all rather than a few each.
#[derive(Debug, Default)]
pub struct Fragments {
    text: String,
    spans: Vec<(usize, usize)>,
    scratch: Scratch,
}

impl Fragments {
    /// Renders `fragment` as [`render_fragment`] would and returns its index.
    pub fn push(&mut self, fragment: &str) -> usize {
        let start = self.text.len();
        render_into(
            fragment,
            &[(0, fragment.len())],
            Anchors::Keep,
            &mut self.text,
            &mut self.scratch,
        );
        self.spans.push((start, self.text.len()));
        self.spans.len() - 1
    }

    /// The text of fragment `i` (empty for an unknown index).
    pub fn get(&self, i: usize) -> &str {
        self.spans
            .get(i)
            .and_then(|&(start, end)| self.text.get(start..end))
            .unwrap_or("")
    }
}

/// Renders into `out` after whatever it already holds (`base`): the
/// paragraph logic looks only at the part it wrote. `structure` hears
/// what it keeps (nothing listens by default).
struct Renderer<'a, B: Structure = ()> {
    structure: B,
    out: &'a mut String,
    base: usize,
    anchors: Anchors,
    pending_space: bool,
    /// A tag came since the last word: a pending space is then whitespace
    /// at a tag (see [`formatting_space`]).
    tag_since_word: bool,
    /// Whitespace came between the last word and the first tag after it,
    /// and that tag is an end tag (see [`ends_an_element`]).
    space_before_tag: bool,
    /// Whitespace came after the latest tag.
    space_after_tag: bool,
    skip: u32,
    pre: u32,
    in_anchor: bool,
    /// Inside a ruby annotation, whose text is left out. Not a `skip`:
    /// its end tag is often left out (the next `<rt>` or `</ruby>` ends
    /// it), so any of those ends it, and so does a block.
    annotation: bool,
    skip_name: Vec<u8>,
    /// Containers opened inside the skipped element when that element is
    /// an aside to the flow (see [`aside_to_the_flow`]), whose end tag
    /// pages leave out more often than a script's: the end tag of a
    /// container it did not open closes it, as a browser would.
    aside_within: Option<u32>,
    /// The start tag just heard went to `structure`, which reads its
    /// attributes.
    attributes: bool,
}

impl<B: Structure> Sink for Renderer<'_, B> {
    fn start_tag(&mut self, name: &[u8]) {
        self.start_tag(name, Tag::classify(name));
    }

    fn end_tag(&mut self, name: &[u8]) {
        self.end_tag(name, Tag::classify(name));
    }

    fn start_tag_known(&mut self, name: &[u8], tag: Tag) {
        self.start_tag(name, tag);
    }

    fn end_tag_known(&mut self, name: &[u8], tag: Tag) {
        self.end_tag(name, tag);
    }

    fn text(&mut self, value: &str) {
        self.text(value, None);
    }

    fn text_known(&mut self, value: &str, ascii: bool) {
        self.text(value, Some(ascii));
    }

    fn wants_attributes(&self) -> bool {
        B::ON && self.attributes
    }

    fn attribute(&mut self, name: &[u8], value: &[u8]) {
        self.structure.attribute(name, value);
    }
}

impl<'a> Renderer<'a> {
    fn new(out: &'a mut String, anchors: Anchors) -> Self {
        Renderer::with_structure(out, anchors, ())
    }
}

impl<'a, B: Structure> Renderer<'a, B> {
    fn with_structure(out: &'a mut String, anchors: Anchors, structure: B) -> Self {
        Renderer {
            structure,
            base: out.len(),
            out,
            anchors,
            pending_space: false,
            tag_since_word: false,
            space_before_tag: false,
            space_after_tag: false,
            skip: 0,
            pre: 0,
            in_anchor: false,
            annotation: false,
            skip_name: Vec::new(),
            aside_within: None,
            attributes: false,
        }
    }

    fn run(&mut self, html: &str, chars: &mut Vec<u8>) {
        self.reset();
        self.tokens(html, chars);
    }

    /// Tokenizes `html` in the state the renderer is in.
    fn tokens(&mut self, html: &str, chars: &mut Vec<u8>) {
        tokens(html, self, chars);
    }

    /// Each run starts fresh: an element left open by one region must not
    /// swallow the next.
    fn reset(&mut self) {
        self.skip = 0;
        self.pre = 0;
        self.in_anchor = false;
        self.annotation = false;
        self.aside_within = None;
        self.structure.reset();
    }

    fn start_tag(&mut self, name: &[u8], tag: Tag) {
        self.at_tag(false);
        if B::ON {
            self.attributes = false;
        }
        if self.skip > 0 {
            if name == self.skip_name.as_slice() {
                self.skip += 1;
            } else if let Some(within) = self.aside_within.as_mut().filter(|_| contains(tag)) {
                *within += 1;
            }
            return;
        }
        match tag {
            t if t.hides_text() || aside_to_the_flow(name, t) => {
                self.skip = 1;
                self.skip_name.clear();
                self.skip_name.extend_from_slice(name);
                self.aside_within = (!t.hides_text()).then_some(0);
            }
            Tag::Br => {
                self.newline();
                self.structure.line_break();
            }
            Tag::A => self.in_anchor = true,
            Tag::Pre => {
                self.annotation = false;
                self.paragraph();
                self.pre += 1;
                self.structure.open(name, tag);
            }
            t if t.is_block() => {
                self.annotation = false;
                self.paragraph();
                self.structure.open(name, t);
                self.attributes = B::ON && self.structure.wants_attributes();
            }
            Tag::Void if name == b"img" => self.space(),
            Tag::Other => match ruby_part(name) {
                Some(RubyPart::Annotation) => self.annotation = true,
                Some(RubyPart::Base | RubyPart::Ruby) => self.annotation = false,
                None => {}
            },
            _ => {}
        }
    }

    fn end_tag(&mut self, name: &[u8], tag: Tag) {
        self.at_tag(true);
        if self.skip > 0 {
            if name == self.skip_name.as_slice() {
                self.skip -= 1;
                return;
            }
            match self.aside_within.as_mut() {
                Some(0) if contains(tag) => self.skip = 0,
                Some(within) if contains(tag) => {
                    *within -= 1;
                    return;
                }
                _ => return,
            }
        }
        match tag {
            Tag::A => self.in_anchor = false,
            Tag::Pre => {
                self.pre = self.pre.saturating_sub(1);
                self.paragraph();
                self.structure.close(name, tag);
            }
            Tag::Br => {
                self.newline();
                self.structure.line_break();
            }
            t if t.is_block() => {
                self.annotation = false;
                self.paragraph();
                self.structure.close(name, t);
            }
            Tag::Other if ruby_part(name).is_some() => self.annotation = false,
            // Table cells and list items end words even when inline-styled.
            _ => {}
        }
    }

    /// A tag: the whitespace pending since the last word, if any, came
    /// before it, and ends the element when the tag is an end tag.
    fn at_tag(&mut self, end: bool) {
        if !self.tag_since_word {
            self.space_before_tag = self.pending_space && end;
        }
        self.space_after_tag = false;
        self.tag_since_word = true;
    }

    /// Whitespace in the text: after a tag, when one came since the word.
    fn space(&mut self) {
        self.pending_space = true;
        self.space_after_tag |= self.tag_since_word;
    }

    /// A text run, and whether it is all ASCII when that is known.
    fn text(&mut self, value: &str, ascii: Option<bool>) {
        if self.skip > 0 || self.annotation || (self.in_anchor && self.anchors == Anchors::Drop) {
            return;
        }
        if self.pre > 0 {
            self.pre_text(value);
            return;
        }
        self.phrases(value, ascii);
    }

    /// Phrase by phrase: whitespace runs become one pending space.
    fn phrases(&mut self, value: &str, ascii: Option<bool>) {
        let ascii = ascii.unwrap_or_else(|| value.is_ascii());
        let trailing = words::each_phrase(value, ascii, |space, word| {
            if space {
                self.space();
            }
            self.word(word);
        });
        if trailing {
            self.space();
        }
    }

    fn word(&mut self, word: &str) {
        if B::ON && self.at_line_start() {
            self.structure.line(self.out.len());
        }
        if self.pending_space && !self.at_line_start() && !self.space_is_formatting(word) {
            self.out.push(' ');
        }
        self.pending_space = false;
        self.tag_since_word = false;
        self.out.push_str(word);
    }

    /// Inside `<pre>`: line breaks are kept, other whitespace collapses,
    /// each line as text outside is (`words` collapses as splitting on
    /// `char::is_whitespace` did here, a block at a time rather than a
    /// char at a time).
    #[inline(never)]
    fn pre_text(&mut self, value: &str) {
        if B::ON {
            self.structure.code_text(value);
        }
        let mut lines = memchr::memchr_iter(b'\n', value.as_bytes());
        let mut from = 0;
        loop {
            let Some(end) = lines.next() else {
                self.phrases(value.get(from..).unwrap_or(""), None);
                return;
            };
            // `\n` is ASCII: a char boundary.
            self.phrases(value.get(from..end).unwrap_or(""), None);
            self.newline();
            from = end + 1;
        }
    }

    /// Whether the pending space before `word` is only the markup's
    /// formatting: whitespace at a tag ([`formatting_space`]), or
    /// whitespace that ends an element with none after the tags
    /// ([`ends_an_element`]).
    fn space_is_formatting(&self, word: &str) -> bool {
        let before = &self.out[self.base..];
        self.tag_since_word
            && (formatting_space(before, word)
                || (self.space_before_tag
                    && !self.space_after_tag
                    && ends_an_element(before, word)))
    }

    fn at_line_start(&self) -> bool {
        self.out.len() == self.base || self.out.ends_with('\n')
    }

    /// A line break (`<br>`, a line of `<pre>`): as a paragraph's, none
    /// at the start of a line, where it would make an empty line.
    fn newline(&mut self) {
        self.paragraph();
    }

    /// Starts a new paragraph unless one was just started.
    fn paragraph(&mut self) {
        self.pending_space = false;
        if !self.at_line_start() {
            self.out.push('\n');
        }
    }

    /// Takes off the break after the last line. No line is empty or all
    /// whitespace, so none need dropping: a break is written only after a
    /// line's text, and every phrase holds a character that is not
    /// whitespace (`words`, by `char::is_whitespace`, as `trim` reads it).
    /// Filtering the lines here when a break had been left out was a
    /// split, a join and two copies of the whole text that changed
    /// nothing.
    fn finish(&mut self) {
        while self.out.len() > self.base && self.out.ends_with('\n') {
            self.out.pop();
        }
    }
}

/// Is whitespace at a tag between `before` and `word` only the markup's
/// formatting? Between two East Asian wide characters it is (CSS Text
/// removes a line break there: those scripts put no space between
/// words). Before a full stop, a comma or a closing bracket or quote
/// (`word\n</a>.`), and after an opening one, it is too: no writer means
/// a space there, and the text would change with how the page's source is
/// laid out. Not before `!?:;` or around guillemets, which French spaces,
/// nor before an ellipsis, which writers space as often as not.
fn formatting_space(before: &str, word: &str) -> bool {
    let (Some(last), Some(first)) = (before.chars().next_back(), word.chars().next()) else {
        return false;
    };
    let ellipsis = word.starts_with("..");
    (east_asian_wide(last) && east_asian_wide(first))
        || (matches!(first, '.' | ',' | ')' | ']' | '”') && !ellipsis)
        || matches!(last, '(' | '[' | '„' | '¿' | '¡')
}

/// Is whitespace that ends an element's text (`word\n</b>: more`), with
/// none after the tags, only the markup's formatting before `phrase`?
/// Before a word of `!?:;` alone it is, and before a hyphen that goes on
/// with the word (`KI\n</abbr>-Systeme`). French spaces `!?:;`, but on
/// the far side of the tag (`<b>Prix</b> : 10 €`), which this leaves
/// alone; so does whitespace before a start tag (`the\n<code>?</code>
/// operator`, `the\n<code>-a</code> flag`).
fn ends_an_element(before: &str, phrase: &str) -> bool {
    // A phrase's words are joined by single spaces.
    let word = phrase.split(' ').next().unwrap_or(phrase);
    let alphabetic = |c: Option<char>| c.is_some_and(char::is_alphabetic);
    let mut ahead = word.chars();
    let (first, second, third) = (ahead.next(), ahead.next(), ahead.next());
    let punctuation = |c: char| matches!(c, '!' | '?' | ':' | ';');
    (first.is_some() && word.chars().all(punctuation))
        || (first == Some('-')
            && alphabetic(before.chars().next_back())
            && alphabetic(second)
            && alphabetic(third))
}

/// Han, kana and the CJK symbols and full-width forms: the wide scripts
/// written without spaces. Hangul is left out: Korean spaces its words.
fn east_asian_wide(c: char) -> bool {
    matches!(c,
        '\u{3000}'..='\u{30FF}' | '\u{3400}'..='\u{4DBF}' | '\u{4E00}'..='\u{9FFF}'
        | '\u{F900}'..='\u{FAFF}' | '\u{FF00}'..='\u{FF60}' | '\u{FFE0}'..='\u{FFEF}')
}

/// The parts of a ruby the renderer tells apart: annotations (`rt`,
/// `rp`, `rtc`) are left out; the base (`rb`) and the ruby itself end an
/// annotation left open.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RubyPart {
    Annotation,
    Base,
    Ruby,
}

/// Is this an element HTML sets beside the main flow: `nav`, `aside`,
/// `footer` or `figcaption`? Selection counts their text as markup; one
/// that opens inside the chosen lines (a caption, a fact box, an
/// article's footer of tags) is left out of the text too. A chosen run
/// that lies wholly inside one never sees its start tag and is kept.
/// `noscript` is a landmark as well, but holds the page's own text for
/// readers without scripts.
fn aside_to_the_flow(name: &[u8], tag: Tag) -> bool {
    tag == Tag::Landmark && name != b"noscript"
}

/// Can this element hold an aside to the flow, so that its end tag
/// closes one left open?
fn contains(tag: Tag) -> bool {
    matches!(
        tag,
        Tag::Container | Tag::Landmark | Tag::Header | Tag::Body | Tag::Html
    )
}

/// What a tag name (an inline one, lowercased) is to a ruby, if anything.
pub(crate) fn ruby_part(name: &[u8]) -> Option<RubyPart> {
    match name {
        b"rt" | b"rp" | b"rtc" => Some(RubyPart::Annotation),
        b"rb" => Some(RubyPart::Base),
        b"ruby" => Some(RubyPart::Ruby),
        _ => None,
    }
}

/// Keeps only the non-ASCII characters (R2L's output), collapsing the rest
/// to single spaces.
pub fn non_ascii_only(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut space = false;
    for c in text.chars() {
        if c == '\n' {
            out.push('\n');
            space = false;
        } else if c.is_ascii() || c.is_whitespace() {
            space = true;
        } else {
            if space && !out.is_empty() && !out.ends_with('\n') {
                out.push(' ');
            }
            space = false;
            out.push(c);
        }
    }
    out.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cut_lines_leave_no_break_where_the_last_line_went() {
        let mut text = "one\ntwo\nthree".to_string();
        cut_lines(&mut text, &[4..8, 8..13]);
        assert_eq!(text, "one");
        let mut text = "one\ntwo\nthree\n".to_string();
        cut_lines(&mut text, &[0..4, 8..14]);
        assert_eq!(text, "two\n");
    }

    #[test]
    fn inline_tags_do_not_split_words_blocks_do() {
        let t = render_fragment("<p>Hel<b>lo</b> w<i>or</i>ld &amp; more</p><div>next</div>x<br>y");
        assert_eq!(t, "Hello world & more\nnext\nx\ny");
    }

    #[test]
    fn scripts_and_styles_vanish() {
        let t = render_fragment("<p>a<script>var x = '<p>no</p>';</script>b<style>p{}</style></p>");
        assert_eq!(t, "ab");
    }

    #[test]
    fn noscript_content_is_markup() {
        let t = render_fragment("<noscript><p>Server <b>rendered</b></p></noscript><p>x</p>");
        assert_eq!(t, "Server rendered\nx");
    }

    /// Consecutive `<br>`s leave no empty line; whitespace alone (U+000B
    /// and U+00A0 too) makes no line.
    #[test]
    fn empty_lines_collapse_and_whitespace_makes_no_line() {
        let cases = [
            ("a<br><br>b", "a\nb"),
            ("a<br><br><br>", "a"),
            ("<p>a</p><br><br><p>b</p>", "a\nb"),
            ("\u{0B}<br>x<br><br>y", "x\ny"),
            ("\u{0B}<br>x<br>\u{0B}&nbsp;<br>y", "x\ny"),
            ("<pre>a\n\n\nb</pre>", "a\nb"),
        ];
        for (html, text) in cases {
            assert_eq!(render_fragment(html), text, "{html:?}");
        }
    }

    proptest::proptest! {
        /// No line is empty or all whitespace, which `finish` relies on.
        #[test]
        fn no_line_is_blank(html in events::testing::soup()) {
            let text = render_fragment(&html);
            proptest::prop_assert!(
                text.is_empty() || text.split('\n').all(|l| !l.trim().is_empty()),
                "{:?} -> {:?}", html, text
            );
        }
    }

    fn renders_as(cases: &[(&str, &str)]) {
        for (html, text) in cases {
            assert_eq!(render_fragment(html), *text, "{html}");
        }
    }

    #[test]
    fn a_line_break_at_a_tag_is_no_space_before_a_full_stop_or_between_kanji() {
        let cases = [
            (
                "<p>nach <a>§ 315 BGB\n</a>. Dazu</p>",
                "nach § 315 BGB. Dazu",
            ),
            ("<p>Speech\n</i>, by Sapir</p>", "Speech, by Sapir"),
            (
                "<p>(\n<a>see here</a>\n) and „\n<b>so</b>“</p>",
                "(see here) and „so“",
            ),
            ("<p>子\n<ruby>供<rt>ども</rt></ruby>\nへの</p>", "子供への"),
            ("<p>Hello\n<b>world</b>\n.</p>", "Hello world."),
        ];
        renders_as(&cases);
    }

    #[test]
    fn spaces_inside_text_and_before_french_or_ellipsis_punctuation_stay() {
        let cases = [
            ("<p>in 1959\n, W.R. said</p>", "in 1959 , W.R. said"),
            ("<p>Vive <em>Raoult</em> !</p>", "Vive Raoult !"),
            ("<p>« <i>mot</i> »</p>", "« mot »"),
            (
                "<p>For example: <b>...its flaws</b></p>",
                "For example: ...its flaws",
            ),
            ("<p>한국\n<b>어</b></p>", "한국 어"),
        ];
        renders_as(&cases);
    }

    #[test]
    fn a_line_break_ending_an_element_is_no_space_before_a_colon_or_a_hyphen_going_on() {
        let cases = [
            (
                "<p><b><em>By Aaron Humes\n</em>\n</b>: The Americas</p>",
                "By Aaron Humes: The Americas",
            ),
            ("<p><b>Wow\n</b>!</p>", "Wow!"),
            ("<p>von <abbr>KI\n</abbr>-Systemen</p>", "von KI-Systemen"),
        ];
        renders_as(&cases);
    }

    #[test]
    fn whitespace_after_a_tag_before_a_start_tag_or_around_a_dash_stays_a_space() {
        let cases = [
            ("<p><strong>Prix</strong> : 10 €</p>", "Prix : 10 €"),
            ("<p><b>Prix</b>\n<i>:</i> 10 €</p>", "Prix : 10 €"),
            ("<p>Prix \n<b> :</b> 10</p>", "Prix : 10"),
            ("<p>Paris\n<b>-</b>\nBerlin</p>", "Paris - Berlin"),
            ("<p>- <a>one</a></p>", "- one"),
            ("<p>word\n<img src=x>-like</p>", "word -like"),
            (
                "<p><i>angle\n</i>-q and <b>job.\n</b>:) or <i>x\n</i>!=</p>",
                "angle -q and job. :) or x !=",
            ),
            (
                "<p>the\n<code>?</code> operator, the\n<code>-all</code> flag</p>",
                "the ? operator, the -all flag",
            ),
            (
                "<p>near Radon-\n<a>Situation</a></p>",
                "near Radon- Situation",
            ),
        ];
        renders_as(&cases);
    }

    /// Ruby text renders its base alone: the annotation (`<rt>`, with or
    /// without its end tag, in an `<rtc>`) and the fallback parentheses
    /// (`<rp>`) are left out, and text after the ruby is kept.
    #[test]
    fn ruby_annotations_are_left_out_of_the_text() {
        let cases = [
            ("<p>漢字<rt>かんじ</rt>を読む</p>", "漢字を読む"),
            (
                "<p><ruby>漢<rp>(</rp><rt>かん</rt><rp>)</rp>字<rp>(</rp><rt>じ</rt><rp>)</rp></ruby>です</p>",
                "漢字です",
            ),
            ("<p><ruby>東<rt>とう<rt>きょう</ruby>へ</p>", "東へ"),
            (
                "<p><ruby><rb>明</rb><rb>日</rb><rtc><rt>あ</rt><rt>す</rt></rtc></ruby>晴れ</p>",
                "明日晴れ",
            ),
            (
                "<p><ruby>北<RT>ほく</RT></ruby> and on</p><div>next</div>",
                "北 and on\nnext",
            ),
            // An annotation left open ends at the next block.
            ("<p>a<rt>note</p><p>b</p>", "a\nb"),
        ];
        for (html, text) in cases {
            assert_eq!(render_fragment(html), text, "{html:?}");
        }
    }

    /// A caption, a fact box, a navigation bar or an article's footer
    /// inside the rendered lines is left out, nested ones too; one left
    /// open ends with the container around it, and a run that starts
    /// inside one is kept.
    #[test]
    fn asides_to_the_flow_are_left_out_of_the_text() {
        let cases = [
            (
                "<p>Before.</p><figure><img src=a.jpg><figcaption>A caption. Photo: X</figcaption></figure><p>After.</p>",
                "Before.\nAfter.",
            ),
            (
                "<p>One <aside>fact <aside>box</aside> more</aside>two</p>",
                "One two",
            ),
            (
                "<div><p>Text</p><footer><div>Tags: a, b</div></footer></div><p>Next</p>",
                "Text\nNext",
            ),
            ("<nav><a href=/>Home</a></nav><p>Body</p>", "Body"),
            ("<figure><figcaption>Left open</figure><p>Kept</p>", "Kept"),
            ("<div><aside><div>box</div></div><p>Kept</p>", "Kept"),
            (
                "<noscript><p>Enable scripts</p></noscript>",
                "Enable scripts",
            ),
            (
                "only the caption's text</figcaption><p>and on</p>",
                "only the caption's text\nand on",
            ),
        ];
        for (html, text) in cases {
            assert_eq!(render_fragment(html), text, "{html:?}");
        }
    }

    #[test]
    fn pre_keeps_line_breaks() {
        let t = render_fragment("<pre>fn main() {\n    x\n}</pre><p>  after   text </p>");
        assert_eq!(t, "fn main() {\nx\n}\nafter text");
    }

    #[test]
    fn filter_one_drops_anchor_text() {
        let mut out = String::new();
        let html = "<p>see <a href=x>this link</a> now</p>";
        render(html, &[(0, html.len())], Anchors::Drop, &mut out);
        assert_eq!(out, "see now");
    }

    #[test]
    fn fragments_render_each_as_render_fragment() {
        let parts = [
            "<p>a<br><br><br>b</p>",
            "",
            "<h1>Title &amp; more</h1>",
            "<br><br>x<br>",
            "<pre>a\n\nb</pre>",
        ];
        let mut f = Fragments::default();
        let ids: Vec<usize> = parts.iter().map(|p| f.push(p)).collect();
        for (id, p) in ids.into_iter().zip(parts) {
            assert_eq!(f.get(id), render_fragment(p), "{p:?}");
        }
        assert_eq!(f.get(99), "");
    }

    #[test]
    fn r2l_keeps_non_ascii() {
        assert_eq!(non_ascii_only("abc سلام def دنیا\nxyz"), "سلام دنیا");
    }
}
