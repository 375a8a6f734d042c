//! A minimal html5gum [`Emitter`] for the renderer: it reports only text
//! runs, start tag names and end tag names, and keeps nothing else.
//!
//! It reproduces exactly the event stream the renderer used to get from
//! html5gum's `CallbackEmitter` (with naive state switching and scripting
//! off): text runs are folded and flushed at the same points (before a
//! tag's name is reported, before comments and doctypes, at the end), so
//! the text is split into the same pieces. What it leaves out is what the
//! renderer never looked at: attributes, comments, doctypes, errors and
//! spans. It allocates nothing per token: text goes into a buffer the
//! caller reuses, tag names into small fixed arrays.
//!
//! It does not interpret anything: what a tag means is the renderer's
//! business.

use super::super::tags::Tag;
use html5gum::{Emitter, Error, State, naive_next_state};
use std::convert::Infallible;

/// What the renderer hears from the tokenizer.
pub(super) trait Sink {
    /// A start tag's name (ASCII-lowercased by the tokenizer), reported
    /// before its attributes are read.
    fn start_tag(&mut self, name: &[u8]);
    fn end_tag(&mut self, name: &[u8]);
    /// A run of consecutive character tokens, entities decoded, or a
    /// piece of one (`direct` cuts runs elsewhere than html5gum: where a
    /// run is cut must not matter to the sink).
    fn text(&mut self, value: &str);
    /// `text` for a value known to be all ASCII or not (`direct` learns
    /// it while looking for the run's end).
    fn text_known(&mut self, value: &str, _ascii: bool) {
        self.text(value);
    }
    /// `start_tag` for a name whose [`Tag`] is known (`direct` learns it
    /// while lowercasing the name).
    fn start_tag_known(&mut self, name: &[u8], _tag: Tag) {
        self.start_tag(name);
    }
    /// `end_tag` for a name whose [`Tag`] is known.
    fn end_tag_known(&mut self, name: &[u8], _tag: Tag) {
        self.end_tag(name);
    }
    /// Whether the sink reads the attributes of the start tag it heard
    /// last (`attribute`), asked right after that tag: no by default, and
    /// the tokenizers then read none.
    fn wants_attributes(&self) -> bool {
        false
    }
    /// An attribute of the start tag heard last: its name ASCII-lowercased
    /// and its value, each of at most [`NAME_CAP`] bytes (a longer one is
    /// not reported). html5gum decodes character references in the value
    /// and `direct` does not: a sink reads plain numbers only.
    fn attribute(&mut self, _name: &[u8], _value: &[u8]) {}
}

/// Longest tag name kept whole. Every name the renderer or the tokenizer's
/// state switching compares against is much shorter; a longer name is
/// reported by its first `NAME_CAP` bytes and never equals another.
pub(super) const NAME_CAP: usize = 24;

/// A tag name in a fixed buffer.
#[derive(Clone, Copy)]
struct Name {
    bytes: [u8; NAME_CAP],
    len: usize,
    /// More than `NAME_CAP` bytes were pushed.
    long: bool,
}

impl Name {
    const EMPTY: Name = Name {
        bytes: [0; NAME_CAP],
        len: 0,
        long: false,
    };

    fn clear(&mut self) {
        self.len = 0;
        self.long = false;
    }

    fn push(&mut self, s: &[u8]) {
        let room = NAME_CAP - self.len;
        if s.len() > room {
            self.long = true;
        }
        let n = s.len().min(room);
        self.bytes[self.len..self.len + n].copy_from_slice(&s[..n]);
        self.len += n;
    }

    fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len]
    }

    fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Equal names; a truncated name equals nothing.
    fn same(&self, other: &Name) -> bool {
        !self.long && !other.long && self.as_bytes() == other.as_bytes()
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Current {
    None,
    Start,
    End,
}

/// The emitter. `chars` is the caller's buffer for text runs (empty on
/// entry and on return).
pub(super) struct Events<'a, S: Sink> {
    sink: &'a mut S,
    chars: &'a mut Vec<u8>,
    current: Current,
    name: Name,
    last_start: Name,
    /// The sink reads the current start tag's attributes.
    wants_attributes: bool,
    /// The attribute being read (name, value), when the sink reads them.
    attribute: Option<(Name, Name)>,
}

impl<'a, S: Sink> Events<'a, S> {
    pub(super) fn new(sink: &'a mut S, chars: &'a mut Vec<u8>) -> Self {
        chars.clear();
        Events {
            sink,
            chars,
            current: Current::None,
            name: Name::EMPTY,
            last_start: Name::EMPTY,
            wants_attributes: false,
            attribute: None,
        }
    }

    fn flush_chars(&mut self) {
        if !self.chars.is_empty() {
            // Text from a `&str` split at ASCII bytes is UTF-8; simdutf8
            // checks that at memory speed, the lossy walk only when it is
            // not.
            match simdutf8::basic::from_utf8(self.chars) {
                Ok(text) => self.sink.text(text),
                Err(_) => self.sink.text(&String::from_utf8_lossy(self.chars)),
            }
            self.chars.clear();
        }
    }

    /// Reports a start tag's name once, the first time anything after the
    /// name is read (an attribute or the tag's end), as `CallbackEmitter`.
    fn flush_start_tag(&mut self) {
        self.flush_chars();
        if self.current == Current::Start && !self.name.is_empty() {
            self.sink.start_tag(self.name.as_bytes());
            self.wants_attributes = self.sink.wants_attributes();
            self.last_start = self.name;
            self.name.clear();
        }
    }

    /// Reports the attribute read so far, if the sink reads them.
    fn flush_attribute(&mut self) {
        if let Some((name, value)) = self.attribute.take()
            && !name.long
            && !value.long
        {
            self.sink.attribute(name.as_bytes(), value.as_bytes());
        }
    }
}

impl<S: Sink> Emitter for Events<'_, S> {
    type Token = Infallible;

    fn set_last_start_tag(&mut self, last_start_tag: Option<&[u8]>) {
        self.last_start.clear();
        self.last_start.push(last_start_tag.unwrap_or_default());
    }

    fn emit_eof(&mut self) {
        self.flush_chars();
    }

    fn emit_error(&mut self, _: Error) {}

    /// Parse errors are of no use here, and checking for them costs a
    /// tenth of the tokenizer's time.
    #[inline]
    fn should_emit_errors(&mut self) -> bool {
        false
    }

    fn pop_token(&mut self) -> Option<Infallible> {
        None
    }

    #[inline]
    fn emit_string(&mut self, c: &[u8]) {
        self.chars.extend_from_slice(c);
    }

    fn init_start_tag(&mut self) {
        self.name.clear();
        self.current = Current::Start;
        self.wants_attributes = false;
        self.attribute = None;
    }

    fn init_end_tag(&mut self) {
        self.name.clear();
        self.current = Current::End;
        self.wants_attributes = false;
        self.attribute = None;
    }

    fn init_comment(&mut self) {
        self.flush_chars();
    }

    /// Switches tokenizer states by tag name like a tree builder with
    /// scripting disabled: as html5gum's naive switching, except that
    /// `<noscript>` content is parsed as markup (what a crawler sees; some
    /// sites put their whole server-rendered page there).
    fn emit_current_tag(&mut self) -> Option<State> {
        self.flush_start_tag();
        self.flush_attribute();
        match self.current {
            Current::Start => {
                if self.last_start.as_bytes() == b"noscript" {
                    return None;
                }
            }
            Current::End => {
                self.last_start.clear();
                self.sink.end_tag(self.name.as_bytes());
            }
            Current::None => {}
        }
        if self.last_start.long {
            return None;
        }
        naive_next_state(self.last_start.as_bytes())
    }

    fn emit_current_comment(&mut self) {}

    fn emit_current_doctype(&mut self) {}

    fn set_self_closing(&mut self) {}

    fn set_force_quirks(&mut self) {}

    #[inline]
    fn push_tag_name(&mut self, s: &[u8]) {
        self.name.push(s);
    }

    fn push_comment(&mut self, _: &[u8]) {}

    fn push_doctype_name(&mut self, _: &[u8]) {}

    fn init_doctype(&mut self) {
        self.flush_chars();
    }

    fn init_attribute(&mut self) {
        self.flush_start_tag();
        self.flush_attribute();
        if self.wants_attributes {
            self.attribute = Some((Name::EMPTY, Name::EMPTY));
        }
    }

    fn push_attribute_name(&mut self, s: &[u8]) {
        if let Some((name, _)) = self.attribute.as_mut() {
            name.push(s);
        }
    }

    fn push_attribute_value(&mut self, s: &[u8]) {
        self.flush_start_tag();
        if let Some((_, value)) = self.attribute.as_mut() {
            value.push(s);
        }
    }

    fn set_doctype_public_identifier(&mut self, _: &[u8]) {}

    fn set_doctype_system_identifier(&mut self, _: &[u8]) {}

    fn push_doctype_public_identifier(&mut self, _: &[u8]) {}

    fn push_doctype_system_identifier(&mut self, _: &[u8]) {}

    fn current_is_appropriate_end_tag_token(&mut self) -> bool {
        self.current == Current::End
            && !self.last_start.is_empty()
            && self.last_start.same(&self.name)
    }
}

/// What the emitter reports, recorded (for this module's tests and those
/// of other steps that must not change it).
#[cfg(test)]
pub(super) mod testing {
    use super::*;

    #[derive(Debug, PartialEq, Eq)]
    pub(in crate::extract::text) enum Ev {
        Start(Vec<u8>),
        End(Vec<u8>),
        Text(Vec<u8>),
        Attribute(Vec<u8>, Vec<u8>),
    }

    /// The events heard; with `.1`, every start tag's attributes too.
    #[derive(Default)]
    pub(in crate::extract::text) struct Record(
        pub(in crate::extract::text) Vec<Ev>,
        pub(in crate::extract::text) bool,
    );

    /// `events` with adjacent text joined: how the text is cut into pieces
    /// is no concern of the renderer's.
    pub(in crate::extract::text) fn merged(events: Vec<Ev>) -> Vec<Ev> {
        let mut out: Vec<Ev> = Vec::with_capacity(events.len());
        for e in events {
            match (out.last_mut(), e) {
                (Some(Ev::Text(t)), Ev::Text(more)) => t.extend_from_slice(&more),
                (_, e) => out.push(e),
            }
        }
        out
    }

    impl Sink for Record {
        fn start_tag(&mut self, name: &[u8]) {
            self.0.push(Ev::Start(name.to_vec()));
        }
        fn end_tag(&mut self, name: &[u8]) {
            self.0.push(Ev::End(name.to_vec()));
        }
        fn text(&mut self, value: &str) {
            self.0.push(Ev::Text(value.as_bytes().to_vec()));
        }
        fn wants_attributes(&self) -> bool {
            self.1
        }
        fn attribute(&mut self, name: &[u8], value: &[u8]) {
            self.0.push(Ev::Attribute(name.to_vec(), value.to_vec()));
        }
    }

    /// The pieces random markup is made of: tags, raw-text elements,
    /// attributes, quotes, references, comments, declarations, odd bytes.
    const SOUP: &[&str] = &[
        "<",
        ">",
        "</",
        "/",
        "/>",
        "p",
        "b",
        "script",
        "SCRIPT",
        "style",
        "title",
        "noscript",
        "textarea",
        "plaintext",
        "xmp",
        "iframe",
        "noframe",
        "svg",
        "a",
        "pre",
        "word",
        " ",
        "\n",
        "\t",
        "=",
        "'",
        "\"",
        "&amp;",
        "&nbsp;",
        "&copy",
        "&#39;",
        "&#x2019;",
        "&#",
        "&",
        "#",
        "x",
        "1",
        ";",
        "\r",
        "é",
        "<!--",
        "-->",
        "--!>",
        "-",
        "!",
        "<!",
        "<?",
        "?",
        "[CDATA[",
        "]]>",
        " class=\"c\"",
        " id='i'",
        " a=b",
        "\u{0}",
        "\u{b}",
    ];

    /// Random soup of up to 40 [`SOUP`] pieces, for proptests.
    pub(in crate::extract::text) fn soup() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::strategy::Strategy;
        proptest::collection::vec(proptest::sample::select(SOUP), 0..40)
            .prop_map(|parts| parts.concat())
    }

    /// Markup that exercises the tokenizer's corners.
    pub(in crate::extract::text) const TRICKY: &[&str] = &[
        "<p>Hel<b>lo</b> w<i>or</i>ld &amp; more</p><div>next</div>x<br>y",
        "a &lt;b&gt; &#x41;&#66; &notanentity; &amp &copy2 &nbsp;x&NotEqualTilde;",
        "<![CDATA[ not text ]]>after<!-- comment <p> -->x<!DOCTYPE html>y",
        "<p>unterminated <b",
        "<p>text</p  ><a href='x' title=\"<p>\">link</a>",
        "<DIV CLASS=x>Upper</DIV><Br/>z</BR>",
        "<script>if (a < b) { x = '</p>'; }</script >after</script>",
        "<style>p{}</style><title>T &amp; t</title><textarea>a<b>c</textarea>",
        "<noscript><p>Server <b>rendered</b></p></noscript><noframe>x</noframe>y",
        "<plaintext><p>all</p> text",
        "<xmp><b>raw</b></xmp><iframe><p>x</iframe>",
        "<averyveryveryverylongtagnamethatgoesonandon>x</averyveryveryverylongtagnamethatgoesonandon>",
        "<script>x</scriptxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx>y</script>z",
        "<p a=1 b c='2'>x</p d=3>y< p>z</>w<",
        "x\u{b}y \u{a0} z é <br> ü&#0;&#xD800;\r\n\r",
        "<a\u{0}b>q</a\u{0}b><p\tclass\n=\nx>r",
    ];

    /// The events the renderer hears for `html`.
    pub(in crate::extract::text) fn ours(html: &str) -> Vec<Ev> {
        let mut rec = Record::default();
        let mut chars = Vec::new();
        for _ in html5gum::Tokenizer::new_with_emitter(html, Events::new(&mut rec, &mut chars)) {}
        rec.0
    }
}

#[cfg(test)]
mod tests {
    use super::testing::{Ev, TRICKY, ours, soup};
    use super::*;
    use html5gum::ForwardingEmitter;
    use html5gum::Span;
    use html5gum::emitters::callback::{CallbackEmitter, CallbackEvent};

    /// What the renderer used before: html5gum's `CallbackEmitter` with
    /// naive state switching, `<noscript>` parsed as markup.
    struct NoscriptMarkup<E> {
        inner: E,
        name: Vec<u8>,
        start: bool,
    }

    impl<E: Emitter> ForwardingEmitter for NoscriptMarkup<E> {
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
            self.name.extend_from_slice(s);
            self.inner.push_tag_name(s);
        }
        fn emit_current_tag(&mut self) -> Option<State> {
            let next = self.inner.emit_current_tag();
            if self.start && self.name == b"noscript" {
                None
            } else {
                next
            }
        }
    }

    fn cut(name: &[u8]) -> Vec<u8> {
        name[..name.len().min(NAME_CAP)].to_vec()
    }

    fn reference(html: &str) -> Vec<Ev> {
        let mut evs = Vec::new();
        let mut emitter = CallbackEmitter::new(|event: CallbackEvent<'_>, _: Span<()>| {
            match event {
                // Ours reports long names cut short (see `NAME_CAP`).
                CallbackEvent::OpenStartTag { name } => evs.push(Ev::Start(cut(name))),
                CallbackEvent::EndTag { name } => evs.push(Ev::End(cut(name))),
                CallbackEvent::String { value } => evs.push(Ev::Text(value.to_vec())),
                _ => {}
            }
            None::<Infallible>
        });
        emitter.naively_switch_states(true);
        let emitter = NoscriptMarkup {
            inner: emitter,
            name: Vec::new(),
            start: false,
        };
        for _ in html5gum::Tokenizer::new_with_emitter(html, emitter) {}
        evs
    }

    #[test]
    fn same_events_as_html5gums_callback_emitter() {
        for html in TRICKY {
            assert_eq!(ours(html), reference(html), "{html:?}");
        }
    }

    proptest::proptest! {
        /// Random soup of the pieces markup is made of.
        #[test]
        fn same_events_on_tag_soup(html in soup()) {
            proptest::prop_assert_eq!(ours(&html), reference(&html));
        }
    }

    #[test]
    fn long_names_are_cut_and_equal_nothing() {
        let mut a = Name::EMPTY;
        a.push(&[b'x'; 40]);
        assert_eq!(a.as_bytes().len(), NAME_CAP);
        assert!(!a.same(&a));
        let mut b = Name::EMPTY;
        b.push(b"scr");
        b.push(b"ipt");
        assert_eq!(b.as_bytes(), b"script");
        assert!(b.same(&b));
    }
}
