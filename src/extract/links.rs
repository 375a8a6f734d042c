//! A page's outlinks (`Options::links`): every `<a href>` the scanner
//! marked as it passed, resolved against the page's base URL, with its
//! anchor text, its `rel` and whether it lies in the main content. Read
//! from the marks alone, never from the whole page again; with links off
//! the scanner marks nothing and this module is not called.
//!
//! Which links are kept:
//! - the base is the first `<base>` with an `href` (itself resolved against the
//!   page's URL), else the page's URL;
//! - an `<a>` with no `href`, an empty one, or one that is only a fragment
//!   (`#top`, `#`) points into the page itself: left out;
//! - only `http` and `https` links are kept: `javascript:`, `mailto:`,
//!   `tel:`, `data:`, `ftp:` and every other scheme are left out, and so
//!   is an href that is no URL at all (`http://[bad`);
//! - a fragment is cut from the URL (`/a#part` is `/a`);
//! - with no base at all (no page URL, no absolute `<base>`), a relative
//!   href is kept as written, fragment cut;
//! - every `<a>` gives its own link, in page order (no deduplication: the
//!   anchor texts differ);
//! - at most [`MAX_LINKS`] links a page, from its first [`MAX_ANCHORS`]
//!   `<a>` tags; a URL longer than [`MAX_URL`] bytes is left out, an
//!   anchor text is cut at [`MAX_TEXT`] bytes and `rel` at [`MAX_REL`].

use super::meta::tag::{self, StartTag};
use super::meta::{Marks as MetaMarks, is_url_like};
use super::tags::Tag;
use super::text::{RubyPart, ruby_part};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use url::Url;

/// `<a>` start tags the scanner marks at most on a page.
pub const MAX_ANCHORS: usize = 20_000;
/// Links kept at most on a page.
pub const MAX_LINKS: usize = 10_000;
/// A resolved URL longer than this (bytes) is left out.
pub const MAX_URL: usize = 4096;
/// Anchor text kept, at most (bytes, cut at a character boundary).
pub const MAX_TEXT: usize = 500;
/// `rel` kept, at most (bytes).
pub const MAX_REL: usize = 128;
/// The source after an `<a>` looked at for its text, at most (an anchor
/// never closed runs to the page's end).
const TEXT_SOURCE: usize = 16 * 1024;

/// `<base>` tags marked at most.
const MAX_BASES: usize = 8;

/// An anchor not closed (yet): its text runs to the page's end.
const OPEN: u32 = u32::MAX;

/// Spans the scanner marked for links: byte ranges of the decoded source.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Marks {
    /// `<a …>` start tags (`<` to one past `>`) and where the anchor's
    /// text ends (the `<` of `</a>` or of the next `<a`), [`OPEN`] until
    /// then.
    pub anchors: Vec<(u32, u32, u32)>,
    /// The first [`MAX_BASES`] `<base …>` start tags (the first with an
    /// `href` is the page's base).
    pub bases: Vec<(u32, u32)>,
}

impl Marks {
    /// Marks an `<a>` start tag (`start..end` is `<` to one past `>`).
    pub(crate) fn anchor(&mut self, start: usize, end: usize) {
        if self.anchors.len() < MAX_ANCHORS {
            self.anchors.push((start as u32, end as u32, OPEN));
        }
    }

    /// The open anchor's text ends at `at`. Only the last anchor marked can
    /// be open: a new `<a>` closes the one before.
    pub(crate) fn close(&mut self, at: usize) {
        if let Some(last) = self.anchors.last_mut()
            && last.2 == OPEN
            && last.1 as usize <= at
        {
            last.2 = at as u32;
        }
    }

    /// Marks a `<base>` start tag.
    pub(crate) fn base(&mut self, start: usize, end: usize) {
        if self.bases.len() < MAX_BASES {
            self.bases.push((start as u32, end as u32));
        }
    }
}

/// One outlink.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Link {
    /// Absolute (http or https, no fragment), or as written when the page
    /// has no base to resolve it against.
    pub url: String,
    /// The anchor's text, entities decoded and whitespace collapsed;
    /// scripts, style sheets and SVG icons in it left out.
    pub text: String,
    /// The `rel` attribute, lowercase, its words one space apart; empty
    /// when there is none.
    pub rel: String,
    /// The anchor lies on a line chosen as main content.
    pub in_content: bool,
}

/// What the links step finds on a page.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Found {
    pub links: Vec<Link>,
    /// `<link rel="canonical">`, else `og:url`, resolved against the base.
    pub canonical: Option<String>,
}

/// Reads a page's links: `src` its decoded source, `marks` and `meta` what
/// the scanner marked, `content` the byte ranges of the lines chosen as
/// main content, `url` the page's address when known.
pub fn collect(
    src: &str,
    marks: &Marks,
    meta: &MetaMarks,
    content: &[(usize, usize)],
    base: Option<&Url>,
) -> Found {
    let mut starts: Vec<(usize, usize)> = content.to_vec();
    starts.sort_unstable();
    let in_content = |at: usize| {
        let i = starts.partition_point(|&(start, _)| start <= at);
        i > 0 && at < starts[i - 1].1
    };
    let mut links = Vec::new();
    for &(start, end, text_end) in &marks.anchors {
        if links.len() >= MAX_LINKS {
            break;
        }
        let (start, end) = (start as usize, end as usize);
        let Some(tag) = src.get(start..end).and_then(StartTag::at) else {
            continue;
        };
        let Some(url) = tag.get("href").and_then(|h| resolve(h, base)) else {
            continue;
        };
        let rel = tag.get("rel").map(rel_words).unwrap_or_default();
        let text_end = match text_end {
            OPEN => src.len(),
            at => at as usize,
        };
        links.push(Link {
            url,
            text: anchor_text(src, end, text_end),
            rel,
            in_content: in_content(start),
        });
    }
    Found {
        links,
        canonical: canonical(src, meta, base),
    }
}

/// What the page's relative URLs resolve against: its first `<base href>`
/// (itself resolved against `url`), else `url`.
pub fn page_base(src: &str, marks: &Marks, url: Option<&str>) -> Option<Url> {
    let page = url.and_then(|u| Url::parse(u).ok());
    base_url(src, &marks.bases, page.as_ref()).or(page)
}

/// The page's first `<base href>`, resolved against the page's URL (with
/// no page URL, it counts only when absolute).
fn base_url(src: &str, marks: &[(u32, u32)], page: Option<&Url>) -> Option<Url> {
    let href = marks.iter().find_map(|&(start, end)| {
        StartTag::at(src.get(start as usize..end as usize)?)?.get("href")
    })?;
    let href = decode(href);
    let href = href.trim();
    let base = match page {
        Some(page) => page.join(href),
        None => Url::parse(href),
    };
    base.ok().filter(|b| !b.cannot_be_a_base())
}

/// An href as the link's URL, or `None` when it is left out (see the
/// module's doc).
fn resolve(href: &str, base: Option<&Url>) -> Option<String> {
    let href = decode(href);
    let href = href.trim();
    if href.is_empty() || href.starts_with('#') {
        return None;
    }
    let parsed = match base {
        Some(base) => base.join(href),
        None => Url::parse(href),
    };
    let url = match parsed {
        Ok(mut url) => {
            if !matches!(url.scheme(), "http" | "https") {
                return None;
            }
            url.set_fragment(None);
            String::from(url)
        }
        // No base: a relative href stays as written.
        Err(url::ParseError::RelativeUrlWithoutBase) => {
            let written = href.split('#').next().unwrap_or(href);
            if written.is_empty() {
                return None;
            }
            written.to_string()
        }
        Err(_) => return None,
    };
    (url.len() <= MAX_URL).then_some(url)
}

/// An attribute value with its character references decoded.
fn decode(value: &str) -> Cow<'_, str> {
    match value.contains('&') {
        true => html_escape::decode_html_entities(value),
        false => Cow::Borrowed(value),
    }
}

/// `rel`'s words, lowercase, one space apart, cut at [`MAX_REL`] bytes
/// (at a word's end).
fn rel_words(value: &str) -> String {
    let value = decode(value);
    let mut out = String::new();
    for word in value.split_ascii_whitespace() {
        if out.len() + word.len() + 1 > MAX_REL {
            break;
        }
        if !out.is_empty() {
            out.push(' ');
        }
        out.extend(word.chars().map(|c| c.to_ascii_lowercase()));
    }
    out
}

/// The text of an anchor whose start tag ends at `from` and whose text
/// ends at `to`: tags and comments left out (a word break where the
/// page's text has one, see [`breaks_words`]), and
/// scripts, style sheets, SVG and the other elements the page's text
/// leaves out with their content (an SVG icon's `<title>` is the text of
/// a link that has none other); entities decoded, whitespace collapsed,
/// at most [`MAX_TEXT`] bytes.
fn anchor_text(src: &str, from: usize, to: usize) -> String {
    let to = floor_boundary(src, to.min(from.saturating_add(TEXT_SOURCE)));
    let Some(source) = src.get(from..to) else {
        return String::new();
    };
    let b = source.as_bytes();
    let mut raw = String::new();
    let mut label = "";
    // Inside a ruby annotation (`<rt>`), which the page's text leaves out.
    let mut annotation = false;
    let mut at = 0;
    while at < b.len() {
        let Some(lt) = memchr::memchr(b'<', &b[at..]).map(|i| at + i) else {
            if !annotation {
                raw.push_str(&source[at..]);
            }
            break;
        };
        if !annotation {
            raw.push_str(&source[at..lt]);
        }
        let rest = &b[lt..];
        at = if rest.starts_with(b"<!--") {
            memchr::memmem::find(&rest[4..], b"-->").map_or(b.len(), |i| lt + 4 + i + 3)
        } else if rest
            .get(1)
            .is_some_and(|c| c.is_ascii_alphabetic() || *c == b'/')
        {
            let end = tag::tag_end(b, lt + 1).unwrap_or(b.len());
            let name = tag_name(&rest[1..]);
            if breaks_words(&name) {
                raw.push(' ');
            }
            annotation = ruby_annotation(&name).unwrap_or(annotation);
            let self_closed = end >= 2 && b[end - 2] == b'/';
            if Tag::classify(&name).hides_text() && name != b"button" && !self_closed {
                // A script, a style sheet, an icon's SVG: left out to its
                // end tag, as the text leaves it out (but a button's label
                // is what the link shows); an SVG's `<title>` names a
                // link that has no other text. A self-closed `<svg/>` has
                // nothing to leave out.
                let skipped = end_tag_end(b, end, &name).unwrap_or(b.len());
                if name == b"svg" && label.is_empty() {
                    label = svg_title(&source[end..skipped]);
                }
                skipped
            } else {
                end
            }
        } else {
            if !annotation {
                raw.push('<');
            }
            lt + 1
        };
    }
    match collapse(&raw) {
        text if text.is_empty() => collapse(label),
        text => text,
    }
}

/// Whether a tag (its [`tag_name`], `/name` for an end tag) starts a
/// ruby annotation (`<rt>`, `<rp>`, `<rtc>`: `Some(true)`) or ends one
/// (another ruby tag, any ruby tag's end, a block's start or end:
/// `Some(false)`), as the page's text reads them (`text::render`):
/// `<ruby>漢<rt>kan</rt></ruby>` reads "漢".
fn ruby_annotation(name: &[u8]) -> Option<bool> {
    let end = name.first() == Some(&b'/');
    let name = if end { &name[1..] } else { name };
    match ruby_part(name) {
        Some(RubyPart::Annotation) => Some(!end),
        Some(_) => Some(false),
        None if Tag::classify(name).is_block() => Some(false),
        None => None,
    }
}

/// Does a tag (its [`tag_name`], `/name` for an end tag) part the words
/// on either side, as the page's text renders it (`text::render`): a
/// block's start or end, `<br>` and a picture do; inline tags (`<b>`,
/// `<span>`, `<sup>`, …) do not, so `<b>Wiki</b>pedia` reads
/// "Wikipedia".
fn breaks_words(name: &[u8]) -> bool {
    let end = name.first() == Some(&b'/');
    let name = if end { &name[1..] } else { name };
    match Tag::classify(name) {
        Tag::Br => true,
        Tag::Void => !end && name == b"img",
        tag => tag.is_block(),
    }
}

/// Text with its character references decoded and its whitespace
/// collapsed, at most [`MAX_TEXT`] bytes.
fn collapse(raw: &str) -> String {
    let decoded = decode(raw);
    let mut text = String::with_capacity(decoded.len().min(MAX_TEXT));
    for word in decoded.split_whitespace() {
        if text.len() + word.len() + 1 > MAX_TEXT {
            if text.is_empty() {
                text.push_str(&word[..floor_boundary(word, MAX_TEXT)]);
            }
            break;
        }
        if !text.is_empty() {
            text.push(' ');
        }
        text.push_str(word);
    }
    text
}

/// The text of the first `<title>` in an SVG's source (what a screen
/// reader names an icon by), if it has one.
fn svg_title(svg: &str) -> &str {
    let b = svg.as_bytes();
    let mut at = 0;
    while let Some(lt) = memchr::memchr(b'<', &b[at..]).map(|i| at + i) {
        let rest = &b[lt + 1..];
        if rest.len() > 5
            && rest[..5].eq_ignore_ascii_case(b"title")
            && matches!(rest[5], b'>' | b' ' | b'\t' | b'\n' | b'\r' | b'/')
        {
            let Some(start) = tag::tag_end(b, lt + 1) else {
                return "";
            };
            let end = end_tag_start(b, start, b"title").unwrap_or(b.len());
            return svg.get(start..end).unwrap_or_default();
        }
        at = lt + 1;
    }
    ""
}

/// The name of the tag whose source follows its `<` (`/name` for an end
/// tag), ASCII lowercase; empty when longer than any name [`Tag`] knows.
fn tag_name(src: &[u8]) -> Vec<u8> {
    let len = src
        .iter()
        .skip(1)
        .position(|c| c.is_ascii_whitespace() || matches!(c, b'/' | b'>'))
        .map_or(src.len(), |i| i + 1);
    match len <= 16 {
        true => src[..len].to_ascii_lowercase(),
        false => Vec::new(),
    }
}

/// Where the first `</name` end tag at or after `from` starts (the name
/// in any case), if there is one.
fn end_tag_start(b: &[u8], from: usize, name: &[u8]) -> Option<usize> {
    let mut at = from;
    loop {
        let lt = at + memchr::memmem::find(b.get(at..)?, b"</")?;
        let after = lt + 2 + name.len();
        let named = b
            .get(lt + 2..after)
            .is_some_and(|n| n.eq_ignore_ascii_case(name))
            && !b.get(after).is_some_and(u8::is_ascii_alphanumeric);
        if named {
            return Some(lt);
        }
        at = lt + 2;
    }
}

/// One past the `>` of the first `</name` end tag at or after `from`.
fn end_tag_end(b: &[u8], from: usize, name: &[u8]) -> Option<usize> {
    let lt = end_tag_start(b, from, name)?;
    Some(tag::tag_end(b, lt + 2).unwrap_or(b.len()))
}

/// The page's canonical URL: the first `<link rel="canonical" href>`, else
/// the first `og:url`, resolved against `base`.
fn canonical(src: &str, meta: &MetaMarks, base: Option<&Url>) -> Option<String> {
    let tags = || {
        meta.tags
            .iter()
            .filter_map(|&(start, end)| src.get(start as usize..end as usize))
            .filter_map(StartTag::at)
    };
    let link = tags().find_map(|tag| {
        let canonical = tag.is("link")
            && tag.get("rel").is_some_and(|r| {
                r.split_ascii_whitespace()
                    .any(|w| w.eq_ignore_ascii_case("canonical"))
            });
        canonical
            .then(|| tag.get("href"))
            .flatten()
            .filter(|h| is_url_like(h))
    });
    let og = || {
        tags().find_map(|tag| {
            let og = tag.is("meta")
                && tag
                    .get("property")
                    .is_some_and(|p| p.eq_ignore_ascii_case("og:url"));
            og.then(|| tag.get("content"))
                .flatten()
                .filter(|h| is_url_like(h))
        })
    };
    let href = decode(link.or_else(og)?);
    let href = href.trim();
    if href.is_empty() {
        return None;
    }
    let mut url = match base {
        Some(base) => base.join(href).ok()?,
        None => Url::parse(href).ok()?,
    };
    url.set_fragment(None);
    let url = String::from(url);
    (url.len() <= MAX_URL).then_some(url)
}

fn floor_boundary(s: &str, i: usize) -> usize {
    let mut i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    fn base(u: &str) -> Url {
        Url::parse(u).expect("a URL")
    }

    /// Relative, absolute and protocol-relative hrefs resolve against the
    /// base; fragments are cut; a fragment alone, an empty href and other
    /// schemes are left out.
    #[test]
    fn hrefs_resolve_or_are_left_out() {
        let b = base("https://example.com/dir/page.html");
        let cases = [
            ("other.html", Some("https://example.com/dir/other.html")),
            ("../up?q=1&amp;r=2", Some("https://example.com/up?q=1&r=2")),
            ("/root#part", Some("https://example.com/root")),
            ("//cdn.example.org/x", Some("https://cdn.example.org/x")),
            ("HTTP://Example.NET/A", Some("http://example.net/A")),
            (
                "  spaced.html\n",
                Some("https://example.com/dir/spaced.html"),
            ),
            ("#top", None),
            ("#", None),
            ("", None),
            ("javascript:void(0)", None),
            ("JavaScript:go()", None),
            ("mailto:a@example.com", None),
            ("tel:+123", None),
            ("data:text/html,x", None),
            ("ftp://example.com/f", None),
            ("http://[bad", None),
        ];
        for (href, want) in cases {
            assert_eq!(resolve(href, Some(&b)).as_deref(), want, "{href:?}");
        }
        // No base: absolute links still resolve, relative ones stay as
        // written (fragment cut).
        assert_eq!(resolve("a/b.html#x", None).as_deref(), Some("a/b.html"));
        assert_eq!(
            resolve("https://e.com/a#x", None).as_deref(),
            Some("https://e.com/a")
        );
        assert_eq!(resolve("mailto:x@y", None), None);
        let long = format!("/{}", "a".repeat(MAX_URL));
        assert_eq!(resolve(&long, Some(&b)), None);
    }

    /// A ruby annotation is left out of an anchor's text as out of the
    /// page's, rather than read into the word it annotates.
    #[test]
    fn anchor_text_leaves_out_ruby_annotations_as_the_text_does() {
        let src = "<a href=/k><ruby>漢<rp>(</rp><rt>kan</rt><rp>)</rp>字<rt>ji</ruby>検索</a>";
        let from = src.find('>').unwrap_or(0) + 1;
        let to = src.rfind("</a>").unwrap_or(src.len());
        assert_eq!(anchor_text(src, from, to), "漢字検索");
        let src = "<a href=/k>a<rt>note<p>b</p></a>";
        let to = src.rfind("</a>").unwrap_or(src.len());
        assert_eq!(anchor_text(src, 11, to), "a b");
    }

    #[test]
    fn anchor_text_drops_markup_and_is_capped() {
        let src = "<a href=x>Read <b>the</b>&nbsp;<!-- c -->full\n  story &amp; more</a>";
        let from = src.find('>').map_or(0, |i| i + 1);
        let to = src.rfind("</a>").unwrap_or(src.len());
        assert_eq!(anchor_text(src, from, to), "Read the full story & more");
        let long = format!("<a>{}</a>", "wörd ".repeat(200));
        let text = anchor_text(&long, 3, long.len() - 4);
        assert!(text.len() <= MAX_TEXT && text.starts_with("wörd wörd"));
        let one = format!("<a>{}</a>", "é".repeat(400));
        assert_eq!(anchor_text(&one, 3, one.len() - 4).len(), MAX_TEXT);
    }

    #[test]
    fn rel_is_lowercase_words() {
        assert_eq!(rel_words(" NoFollow\tUGC  "), "nofollow ugc");
        assert!(rel_words(&"x ".repeat(100)).len() <= MAX_REL);
    }
}
