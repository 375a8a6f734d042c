//! The selected HTML without what the renderer never reads, dropped before
//! the tokenizer sees it: the attributes of start tags, and the text of
//! the elements whose content the renderer leaves out (script, style,
//! title, textarea, ...).
//!
//! The renderer hears only tag names and text (`events`), yet html5gum
//! reads every attribute through its attribute states: on the corpus,
//! attribute values are nearly a third of all bytes. Here a tag
//! `<name attributes...>` becomes `<name>`, found with the tokenizer's own
//! rules for where a tag ends (quotes hide `>` only in attribute values),
//! so the tokenizer reports the same start tag. The raw text of such an
//! element (up to its end tag, as the tokenizer finds it) goes when the
//! renderer skips it, and stays otherwise (`<noframe>`; `<noscript>`
//! content is markup, as `events` switches states). Everything else is
//! copied as it is: text, end tags, comments, doctypes. Where this cannot
//! tell what the tokenizer would do (a tag or comment cut off by the end
//! of the input, a script holding `<!--`), the rest is copied unchanged.
//!
//! It does not interpret tags or touch text: the renderer's output is the
//! same with or without it (`tests`: proptests against rendering the
//! original).

// The scanner reads tags and raw-text end tags by the tokenizer's rules
// (its whitespace is the tokenizer's in tags, which reads `\r` as `\n`).
use super::super::scan::{closes_raw, ends_tag_name};
use super::super::tags::Tag;
use super::super::text_count::{find, is_space};

/// Appends `html` to `out` without the attributes of its start tags and
/// the raw text the renderer skips.
pub(super) fn drop_unread(html: &str, out: &mut String) {
    let bytes = html.as_bytes();
    let mut copied = 0;
    let mut at = 0;
    while let Some(i) = find(b'<', &bytes[at..]) {
        let lt = at + i;
        match markup(bytes, lt) {
            None => break,
            Some(Step::Skip(end)) => at = end,
            Some(Step::Tag { name_end, end, raw }) => {
                // `<` and `>` are ASCII: every cut is at a char boundary.
                out.push_str(html.get(copied..name_end).unwrap_or(""));
                out.push('>');
                copied = end;
                at = match raw {
                    Raw::No => end,
                    Raw::Until(name) => match raw_end(bytes, end, name) {
                        Some(close) => {
                            if unread(name) {
                                copied = close;
                            }
                            close
                        }
                        None => break,
                    },
                    Raw::Rest => break,
                };
            }
        }
    }
    out.push_str(html.get(copied..).unwrap_or(""));
}

/// What to do with the markup at `lt` (a `<`); `None` when the tokenizer
/// might still be inside it at the end of the input.
enum Step {
    /// A start tag: its name ends at `name_end`, the tag at `end`, and its
    /// content may be raw text.
    Tag {
        name_end: usize,
        end: usize,
        raw: Raw,
    },
    /// Copied as it is, up to `end`.
    Skip(usize),
}

/// What follows a start tag, as `events` switches the tokenizer's state.
enum Raw {
    /// Markup.
    No,
    /// Text up to `</name` (`name` lowercase).
    Until(&'static [u8]),
    /// Text to the end (`<plaintext>`).
    Rest,
}

fn markup(bytes: &[u8], lt: usize) -> Option<Step> {
    let next = bytes.get(lt + 1).copied();
    match next {
        Some(b) if b.is_ascii_alphabetic() => {
            let name_end = name_end(bytes, lt + 1)?;
            let end = tag_end(bytes, name_end)?;
            let raw = raw_text(&bytes[lt + 1..name_end]);
            Some(Step::Tag { name_end, end, raw })
        }
        Some(b'/') => match bytes.get(lt + 2) {
            Some(b) if b.is_ascii_alphabetic() => {
                Some(Step::Skip(tag_end(bytes, name_end(bytes, lt + 2)?)?))
            }
            Some(_) => Some(Step::Skip(after(b'>', bytes, lt + 2)?)),
            None => None,
        },
        Some(b'!') if bytes[lt..].starts_with(b"<!--") => Some(Step::Skip(comment_end(bytes, lt)?)),
        Some(b'!' | b'?') => Some(Step::Skip(after(b'>', bytes, lt + 2)?)),
        // A `<` that starts nothing is text.
        Some(_) => Some(Step::Skip(lt + 1)),
        None => None,
    }
}

/// Where a tag name starting at `from` ends: whitespace, `/` or `>`.
fn name_end(bytes: &[u8], from: usize) -> Option<usize> {
    Some(from + bytes[from..].iter().position(|&b| ends_tag_name(b))?)
}

/// Just past the first `c` at or after `from`.
fn after(c: u8, bytes: &[u8], from: usize) -> Option<usize> {
    Some(from + find(c, bytes.get(from..)?)? + 1)
}

/// Just past the `>` that ends a tag whose name ended at `at`, by the
/// tokenizer's attribute states (before/after attribute name, attribute
/// name, before attribute value, the three value states, self-closing).
fn tag_end(bytes: &[u8], mut at: usize) -> Option<usize> {
    let len = bytes.len();
    loop {
        // Before an attribute name (a `/` not followed by `>` goes back
        // here too).
        while at < len && (is_space(bytes[at]) || bytes[at] == b'/') {
            at += 1;
        }
        match bytes.get(at)? {
            b'>' => return Some(at + 1),
            // A name's first byte may be anything else, even `=`.
            _ => at += 1,
        }
        while at < len && !(is_space(bytes[at]) || matches!(bytes[at], b'/' | b'>' | b'=')) {
            at += 1;
        }
        while at < len && is_space(bytes[at]) {
            at += 1;
        }
        if *bytes.get(at)? != b'=' {
            // `/`, `>` or the next attribute's name: the loop's start.
            continue;
        }
        at += 1;
        while at < len && is_space(bytes[at]) {
            at += 1;
        }
        match *bytes.get(at)? {
            quote @ (b'"' | b'\'') => at = after(quote, bytes, at + 1)?,
            b'>' => return Some(at + 1),
            _ => {
                while at < len && !(is_space(bytes[at]) || bytes[at] == b'>') {
                    at += 1;
                }
            }
        }
    }
}

/// How the tokenizer reads what follows a start tag named `name` (html5gum's
/// `naive_next_state`, with `<noscript>` content as markup, as in `events`).
fn raw_text(name: &[u8]) -> Raw {
    const NAMES: [&[u8]; 9] = [
        b"textarea",
        b"title",
        b"script",
        b"style",
        b"iframe",
        b"xmp",
        b"noembed",
        b"noframe",
        b"plaintext",
    ];
    match NAMES.iter().find(|n| n.eq_ignore_ascii_case(name)) {
        Some(&b"plaintext") => Raw::Rest,
        Some(n) => Raw::Until(n),
        None => Raw::No,
    }
}

/// Is the text of raw-text element `name` (lowercase) text the renderer
/// leaves out? (`noframe`, raw text to the tokenizer, is not one of them.)
fn unread(name: &[u8]) -> bool {
    Tag::classify(name).hides_text()
}

/// Where the raw text that starts at `from` ends: at the `<` of its end
/// tag `</name` followed by whitespace, `/` or `>`. `None` when there is
/// none, or when a script's text holds `<!--` before it (the tokenizer's
/// escaped script states, which this does not follow).
fn raw_end(bytes: &[u8], from: usize, name: &[u8]) -> Option<usize> {
    let mut at = from;
    loop {
        let lt = at + find(b'<', bytes.get(at..)?)?;
        if name == b"script" && bytes[lt..].starts_with(b"<!--") {
            return None;
        }
        if closes_raw(&bytes[lt..], name)? {
            return Some(lt);
        }
        at = lt + 1;
    }
}

/// Just past the end of the comment opened at `lt` (`<!--`): the first
/// `>` after `--` (counting the opening's own dashes, so `<!-->` and
/// `<!--->` end at once) or after `--!` (not the opening's).
fn comment_end(bytes: &[u8], lt: usize) -> Option<usize> {
    let mut at = lt + 2;
    loop {
        let gt = at + find(b'>', bytes.get(at..)?)?;
        let ends = |tail: &[u8], first: usize| {
            gt >= first + tail.len() && bytes[gt - tail.len()..gt] == *tail
        };
        if ends(b"--", lt + 2) || ends(b"--!", lt + 4) {
            return Some(gt + 1);
        }
        at = gt + 1;
    }
}

#[cfg(test)]
mod tests {
    use super::super::events::testing::{Ev, TRICKY, ours, soup};
    use super::super::{render_fragment, render_original};
    use super::*;

    fn compacted(html: &str) -> String {
        let mut out = String::new();
        drop_unread(html, &mut out);
        out
    }

    /// Tags whose attributes go, and markup that must stay as it is.
    #[test]
    fn drops_attributes_and_skipped_raw_text_only() {
        let cases = [
            ("<p class=\"a\" id='b'>x</p>", "<p>x</p>"),
            ("<img src=x.png alt=\"a > b\"/>y", "<img>y"),
            ("<a href=\"x\"title='y'data-z>t</a>", "<a>t</a>"),
            ("<div\n  class=\"c\"\n>", "<div>"),
            // The tokenizer's attribute rules: a quote only opens a value
            // after `=`; a name may start with `=`.
            ("<b x\"y>z\"", "<b>z\""),
            ("<b x=\"y>\">z", "<b>z"),
            ("<b =x>z", "<b>z"),
            // End tags, comments, doctypes and lone `<` stay.
            ("</p class=x>", "</p class=x>"),
            ("<!-- <p class=x> -->", "<!-- <p class=x> -->"),
            ("<!--><p class=x>", "<!--><p>"),
            ("<!---><p class=x>", "<!---><p>"),
            ("<!-- a --!><p class=x>", "<!-- a --!><p>"),
            ("<!--!><p class=x>--><b c=d>", "<!--!><p class=x>--><b>"),
            ("<!DOCTYPE html><p a=b>", "<!DOCTYPE html><p>"),
            ("a < b <3 <p x=y>", "a < b <3 <p>"),
            // Raw text is text up to its end tag; what the renderer
            // leaves out goes.
            ("<title a=b><p c=d></title ><p e=f>", "<title></title ><p>"),
            ("<script>'<b c=d>'</script><i j=k>", "<script></script><i>"),
            (
                "<noframe a=b><p c=d></noframe>",
                "<noframe><p c=d></noframe>",
            ),
            // What cannot be followed is copied to the end.
            ("<p a=b><script><!--<i x=y>", "<p><script><!--<i x=y>"),
            ("<p a=\"unterminated><i x=y>", "<p a=\"unterminated><i x=y>"),
            ("<plaintext x=y><p a=b>", "<plaintext><p a=b>"),
        ];
        for (html, want) in cases {
            assert_eq!(compacted(html), want, "{html:?}");
        }
    }

    #[test]
    fn renders_the_same_on_tricky_markup() {
        for html in TRICKY {
            assert_eq!(render_fragment(html), render_original(html), "{html:?}");
        }
    }

    proptest::proptest! {
        /// Random soup of markup pieces renders the same as the original.
        #[test]
        fn renders_the_same_on_tag_soup(html in soup()) {
            proptest::prop_assert_eq!(render_fragment(&html), render_original(&html), "{:?}", html);
        }
    }

    /// The tokenizer hears the same tags and the same text outside the
    /// elements whose text goes.
    #[test]
    fn the_tokenizer_hears_the_same_tags() {
        let html = "<p class=a>x<script src=b>var y;</script><b>z</b></p>";
        let tags = |events: Vec<Ev>| -> Vec<Ev> {
            events
                .into_iter()
                .filter(|e| !matches!(e, Ev::Text(t) if t == b"var y;"))
                .collect()
        };
        assert_eq!(ours(&compacted(html)), tags(ours(html)));
    }
}
