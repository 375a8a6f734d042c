//! Turning selected lines into clean text with a real HTML tokenizer
//! (html5gum, a WHATWG-conformant tokenizer).
//!
//! Every logical line starts at a tag boundary in the data state (see
//! `scan`), so a run of consecutive selected lines can be tokenized on its
//! own, starting from the tokenizer's initial state: that *is* the saved
//! state. Raw-text elements (script, style, ...) switch the tokenizer's
//! state by name, as a tree builder would.
//!
//! Output: entities decoded, whitespace collapsed (kept inside `<pre>`),
//! one paragraph per line; inline tags never split words, block tags and
//! `<br>` always break. Script, style, svg, select, template, button and
//! the like contribute nothing.

use super::tags::Tag;
use html5gum::emitters::callback::{CallbackEmitter, CallbackEvent};
use html5gum::{Emitter, ForwardingEmitter, Span, State, Tokenizer};
use std::convert::Infallible;

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
    let mut r = Renderer::new(out, anchors);
    for &(start, end) in ranges {
        r.run(&src[start..end]);
        r.paragraph();
    }
    r.finish();
}

/// Renders one fragment to a fresh string.
pub fn render_fragment(fragment: &str) -> String {
    let mut out = String::new();
    render(fragment, &[(0, fragment.len())], Anchors::Keep, &mut out);
    out
}

struct Renderer<'a> {
    out: &'a mut String,
    anchors: Anchors,
    pending_space: bool,
    skip: u32,
    pre: u32,
    in_anchor: bool,
    skip_name: Vec<u8>,
}

impl<'a> Renderer<'a> {
    fn new(out: &'a mut String, anchors: Anchors) -> Self {
        Renderer {
            out,
            anchors,
            pending_space: false,
            skip: 0,
            pre: 0,
            in_anchor: false,
            skip_name: Vec::new(),
        }
    }

    fn run(&mut self, html: &str) {
        // Each run starts fresh: an element left open by one region must
        // not swallow the next.
        self.skip = 0;
        self.pre = 0;
        self.in_anchor = false;
        let mut emitter = CallbackEmitter::new(|event: CallbackEvent<'_>, _: Span<()>| {
            self.event(event);
            None::<Infallible>
        });
        emitter.naively_switch_states(true);
        let emitter = ScriptingOff {
            inner: emitter,
            name: Vec::new(),
            start: false,
        };
        for _ in Tokenizer::new_with_emitter(html, emitter) {}
    }

    fn event(&mut self, event: CallbackEvent<'_>) {
        match event {
            CallbackEvent::OpenStartTag { name } => self.start_tag(name),
            CallbackEvent::EndTag { name } => self.end_tag(name),
            CallbackEvent::String { value } => self.text(value),
            _ => {}
        }
    }

    fn start_tag(&mut self, name: &[u8]) {
        let tag = Tag::classify(name);
        if self.skip > 0 {
            if name == self.skip_name.as_slice() {
                self.skip += 1;
            }
            return;
        }
        match tag {
            Tag::RawText | Tag::Opaque | Tag::Title | Tag::Textarea => {
                self.skip = 1;
                self.skip_name.clear();
                self.skip_name.extend_from_slice(name);
            }
            Tag::Br => self.newline(),
            Tag::A => self.in_anchor = true,
            Tag::Pre => {
                self.paragraph();
                self.pre += 1;
            }
            t if t.is_block() => self.paragraph(),
            Tag::Void if name == b"img" => self.pending_space = true,
            _ => {}
        }
    }

    fn end_tag(&mut self, name: &[u8]) {
        if self.skip > 0 {
            if name == self.skip_name.as_slice() {
                self.skip -= 1;
            }
            return;
        }
        match Tag::classify(name) {
            Tag::A => self.in_anchor = false,
            Tag::Pre => {
                self.pre = self.pre.saturating_sub(1);
                self.paragraph();
            }
            Tag::Br => self.newline(),
            t if t.is_block() => self.paragraph(),
            // Table cells and list items end words even when inline-styled.
            _ => {}
        }
    }

    fn text(&mut self, value: &[u8]) {
        if self.skip > 0 || (self.in_anchor && self.anchors == Anchors::Drop) {
            return;
        }
        let value = String::from_utf8_lossy(value);
        if self.pre > 0 {
            self.pre_text(&value);
            return;
        }
        // Word by word: whitespace runs become one pending space. ASCII
        // text (most of it) is split on bytes, which is much cheaper.
        if value.is_ascii() {
            self.words(value.split(|c: char| c.is_ascii_whitespace()));
        } else {
            self.words(value.split(char::is_whitespace));
        }
    }

    fn words<'w>(&mut self, words: impl Iterator<Item = &'w str>) {
        let mut words = words.peekable();
        while let Some(word) = words.next() {
            if !word.is_empty() {
                self.word(word);
            }
            if words.peek().is_some() {
                self.pending_space = true;
            }
        }
    }

    fn word(&mut self, word: &str) {
        if self.pending_space && !self.at_line_start() {
            self.out.push(' ');
        }
        self.pending_space = false;
        self.out.push_str(word);
    }

    /// Inside `<pre>`: line breaks are kept, other whitespace collapses.
    fn pre_text(&mut self, value: &str) {
        let mut lines = value.split('\n').peekable();
        while let Some(line) = lines.next() {
            for (k, word) in line.split(char::is_whitespace).enumerate() {
                if k > 0 {
                    self.pending_space = true;
                }
                if !word.is_empty() {
                    self.word(word);
                }
            }
            if lines.peek().is_some() {
                self.newline();
            }
        }
    }

    fn at_line_start(&self) -> bool {
        self.out.is_empty() || self.out.ends_with('\n')
    }

    fn newline(&mut self) {
        self.pending_space = false;
        if !self.out.is_empty() {
            self.out.push('\n');
        }
    }

    /// Starts a new paragraph unless one was just started.
    fn paragraph(&mut self) {
        self.pending_space = false;
        if !self.at_line_start() {
            self.out.push('\n');
        }
    }

    fn finish(&mut self) {
        while self.out.ends_with('\n') {
            self.out.pop();
        }
        // Collapse runs of blank lines left by consecutive <br>s.
        if self.out.contains("\n\n") {
            let joined = self
                .out
                .split('\n')
                .filter(|l| !l.trim().is_empty())
                .collect::<Vec<_>>()
                .join("\n");
            *self.out = joined;
        }
    }
}

/// Switches tokenizer states by tag name like a tree builder with
/// scripting disabled: as html5gum's naive switching, except that
/// `<noscript>` content is parsed as markup (what a crawler sees; some
/// sites put their whole server-rendered page there).
struct ScriptingOff<E> {
    inner: E,
    name: Vec<u8>,
    start: bool,
}

impl<E: Emitter> ForwardingEmitter for ScriptingOff<E> {
    type Token = E::Token;

    fn inner(&mut self) -> &mut impl Emitter<Token = Self::Token> {
        &mut self.inner
    }

    fn init_start_tag(&mut self) {
        self.name.clear();
        self.start = true;
        self.inner.init_start_tag();
    }

    fn init_end_tag(&mut self) {
        self.name.clear();
        self.start = false;
        self.inner.init_end_tag();
    }

    fn push_tag_name(&mut self, s: &[u8]) {
        if self.name.len() < 16 {
            self.name.extend_from_slice(s);
        }
        self.inner.push_tag_name(s);
    }

    /// Parse errors are of no use here, and checking for them costs a
    /// tenth of the tokenizer's time.
    fn should_emit_errors(&mut self) -> bool {
        false
    }

    fn emit_current_tag(&mut self) -> Option<State> {
        let next = self.inner.emit_current_tag();
        if self.start && self.name.eq_ignore_ascii_case(b"noscript") {
            None
        } else {
            next
        }
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
    fn r2l_keeps_non_ascii() {
        assert_eq!(non_ascii_only("abc سلام def دنیا\nxyz"), "سلام دنیا");
    }
}
