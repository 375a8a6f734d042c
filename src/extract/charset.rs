//! Choosing the page's character encoding and decoding it as a stream.
//!
//! Order of evidence: a byte-order mark; the charset the caller declares (an
//! HTTP `Content-Type` header, a WARC record's header); a `<meta charset>` or
//! `http-equiv` declaration in the first bytes; a fallback the caller
//! assumes for pages that declare nothing (`--charset`); and last,
//! statistical detection (chardetng) over the sniffed prefix, told the
//! page's top-level domain when its URL is known, as browsers tell it
//! (`.lt` pages are Baltic, `.vn` Vietnamese: the bytes alone often
//! cannot say which legacy code page they are in).
//!
//! One deliberate deviation from browsers: a declared single-byte legacy
//! encoding (ISO-8859-1, windows-1252, ...) or legacy CJK one (Shift_JIS,
//! EUC-JP, GBK, gb18030, Big5, EUC-KR) loses to UTF-8 when the sniffed
//! prefix is valid UTF-8 containing multi-byte sequences. Crawls are full of
//! pages that say Latin-1 or Shift_JIS and are UTF-8 (a template's header
//! kept after the site moved to UTF-8); the reverse practically never
//! happens: legacy bytes that form only valid UTF-8 sequences over 16 KiB
//! are vanishingly rare, as CJK text puts a lead byte after a lead byte
//! within a few characters. Browsers obey the declaration because a page
//! must render as its author tested it; an extractor wants the text, and
//! the bytes say which decoding gives it.
//!
//! The decision is made once, on the first [`SNIFF_BYTES`] bytes (or all of
//! a shorter page), so it does not depend on how the input was chunked.
//! Where those bytes are all ASCII and the page declares a legacy encoding
//! or none, they cannot tell: every such encoding reads ASCII alike, and
//! only the bytes that are not ASCII show whether a page that says Latin-1
//! is UTF-8, or which legacy encoding an undeclared one is. Then the
//! [`SNIFF_BYTES`] from the first byte that is not ASCII are looked at too,
//! if it comes within the first MiB (see [`waits_for_non_ascii`]): pages
//! with 16 KiB of scripts and styles before their first accented letter
//! are common.

use encoding_rs::{CoderResult, Decoder, Encoding, UTF_8, WINDOWS_1252};
use serde::Serialize;

/// How many leading bytes are buffered before the encoding is chosen.
pub const SNIFF_BYTES: usize = 16 * 1024;

/// How far the `<meta>` prescan looks (browsers use 1024; real pages put
/// long scripts first, so we look further).
const PRESCAN_BYTES: usize = 8 * 1024;

/// Where the chosen encoding came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EncodingSource {
    Bom,
    Declared,
    Meta,
    /// The caller's fallback, for a page that declares no charset.
    Fallback,
    Detected,
    /// The declaration said a legacy encoding; the bytes are UTF-8.
    Utf8Override,
}

/// The encoding chosen for a page.
#[derive(Debug, Clone, Copy)]
pub struct Choice {
    pub encoding: &'static Encoding,
    pub source: EncodingSource,
    /// Bytes of BOM to skip.
    pub bom_len: usize,
}

/// Chooses the encoding from the sniffed prefix: `declared` is a charset
/// from outside the page that outranks its `<meta>` (an HTTP header),
/// `fallback` one assumed only when the page declares none, and `url` the
/// page's address, whose top-level domain detection weighs.
pub fn choose(
    prefix: &[u8],
    declared: Option<&str>,
    fallback: Option<&str>,
    url: Option<&str>,
) -> Choice {
    if let Some((encoding, bom_len)) = Encoding::for_bom(prefix) {
        return Choice {
            encoding,
            source: EncodingSource::Bom,
            bom_len,
        };
    }
    let labelled = label(declared)
        .map(|e| (e, EncodingSource::Declared))
        .or_else(|| prescan(prefix).map(|e| (e, EncodingSource::Meta)))
        .or_else(|| label(fallback).map(|e| (e, EncodingSource::Fallback)));
    by_bytes(labelled, prefix, url)
}

/// The choice a label (or none) and the page's bytes make: a legacy label
/// loses to valid multi-byte UTF-8, and with no label the bytes are
/// detected (weighing the top-level domain of `url`).
fn by_bytes(
    labelled: Option<(&'static Encoding, EncodingSource)>,
    bytes: &[u8],
    url: Option<&str>,
) -> Choice {
    let (encoding, source) = match labelled {
        Some((encoding, source)) => {
            let encoding = ascii_superset(encoding);
            match is_legacy(encoding) && looks_utf8(bytes) {
                true => (UTF_8, EncodingSource::Utf8Override),
                false => (encoding, source),
            }
        }
        None => (detect(bytes, url), EncodingSource::Detected),
    };
    Choice {
        encoding,
        source,
        bom_len: 0,
    }
}

/// Does a choice made on `prefix` wait for the bytes after it? Where the
/// prefix is all ASCII and the choice rests on what is not (a declared
/// legacy encoding that UTF-8 may override, or a detected one), the
/// [`SNIFF_BYTES`] from the first byte that is not ASCII decide, if it
/// comes within [`ASCII_WAIT`] (see [`non_ascii_window`]). A BOM, a
/// declared UTF-8 and the other encodings are what they say, whatever
/// follows.
pub fn waits_for_non_ascii(prefix: &[u8], choice: Choice) -> bool {
    let open = match choice.source {
        EncodingSource::Detected => true,
        EncodingSource::Declared | EncodingSource::Meta | EncodingSource::Fallback => {
            is_legacy(choice.encoding)
        }
        EncodingSource::Bom | EncodingSource::Utf8Override => false,
    };
    open && prefix.is_ascii()
}

/// How far a page is read for its first byte that is not ASCII, at most:
/// a page whose first MiB is ASCII keeps the choice its first
/// [`SNIFF_BYTES`] made, and the scanner does not wait any longer.
pub const ASCII_WAIT: usize = 1 << 20;

/// Where the bytes a waiting choice is made on end (see
/// [`waits_for_non_ascii`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Window {
    /// At `end` leading bytes: [`SNIFF_BYTES`] past `first`, the first
    /// byte that is not ASCII, or fewer at the page's end.
    Ends { first: usize, end: usize },
    /// There is no such byte in the first [`ASCII_WAIT`] bytes or in the
    /// whole page: the choice on the first [`SNIFF_BYTES`] stands.
    Ascii,
    /// Not known yet: more bytes are needed.
    More,
}

/// The [`Window`] of `bytes`, a page's first bytes (all of it when
/// `last`). `ascii` is how many leading bytes are known to be ASCII: a
/// stream that calls again with more bytes passes back what the last call
/// left there, so that each byte is looked at once.
pub fn non_ascii_window(bytes: &[u8], ascii: &mut usize, last: bool) -> Window {
    const STEP: usize = 4096;
    let searched = &bytes[..bytes.len().min(ASCII_WAIT)];
    let mut at = (*ascii).min(searched.len());
    let first = loop {
        let block = &searched[at..searched.len().min(at + STEP)];
        if block.is_empty() {
            *ascii = at;
            let done = last || at == ASCII_WAIT;
            return if done { Window::Ascii } else { Window::More };
        }
        if !block.is_ascii() {
            break at + block.iter().position(|b| !b.is_ascii()).unwrap_or(0);
        }
        at += block.len();
    };
    *ascii = first;
    let end = first + SNIFF_BYTES;
    match (last, bytes.len() >= end) {
        (_, true) => Window::Ends { first, end },
        (true, false) => Window::Ends {
            first,
            end: bytes.len(),
        },
        (false, false) => Window::More,
    }
}

/// The choice an all-ASCII head left open ([`waits_for_non_ascii`]), made
/// on `bytes[..end]`, whose first byte that is not ASCII is `first` (see
/// [`non_ascii_window`]): what [`choose`] gives on those bytes, with the
/// head's label kept rather than looked for again and the ASCII before
/// `first` not read again.
pub fn choose_past_ascii(
    choice: Choice,
    bytes: &[u8],
    first: usize,
    end: usize,
    url: Option<&str>,
) -> Choice {
    let window = &bytes[first.saturating_sub(CONTEXT).min(end)..end];
    let labelled =
        (choice.source != EncodingSource::Detected).then_some((choice.encoding, choice.source));
    by_bytes(labelled, window, url)
}

/// The encoding a charset label names (WHATWG labels), if any.
fn label(name: Option<&str>) -> Option<&'static Encoding> {
    Encoding::for_label(name?.trim().as_bytes())
}

/// A page cannot be decoded as UTF-16 once we are reading ASCII markup in it:
/// a `<meta charset=utf-16>` read as ASCII means the page is not UTF-16
/// (the HTML standard maps it to UTF-8 likewise). `x-user-defined` is
/// treated as windows-1252 for the same reason.
fn ascii_superset(encoding: &'static Encoding) -> &'static Encoding {
    if encoding == encoding_rs::UTF_16LE || encoding == encoding_rs::UTF_16BE {
        UTF_8
    } else if encoding == encoding_rs::X_USER_DEFINED || encoding == encoding_rs::REPLACEMENT {
        WINDOWS_1252
    } else {
        encoding
    }
}

/// A legacy encoding that valid multi-byte UTF-8 overrides: a single-byte
/// one, or a multi-byte CJK one (whose bytes above 0x7F pair up in ways
/// UTF-8's seldom do for long).
fn is_legacy(encoding: &'static Encoding) -> bool {
    (encoding != UTF_8 && encoding.is_single_byte())
        || [
            encoding_rs::SHIFT_JIS,
            encoding_rs::EUC_JP,
            encoding_rs::GBK,
            encoding_rs::GB18030,
            encoding_rs::BIG5,
            encoding_rs::EUC_KR,
        ]
        .contains(&encoding)
}

/// Valid UTF-8 (allowing a sequence cut at the end of the prefix) with at
/// least one multi-byte sequence.
fn looks_utf8(prefix: &[u8]) -> bool {
    let valid = match std::str::from_utf8(prefix) {
        Ok(_) => prefix.len(),
        Err(e) if e.error_len().is_none() => e.valid_up_to(),
        Err(_) => return false,
    };
    !prefix[..valid].is_ascii()
}

fn detect(prefix: &[u8], url: Option<&str>) -> &'static Encoding {
    if prefix.is_ascii() {
        return UTF_8;
    }
    if looks_utf8(prefix) {
        return UTF_8;
    }
    let mut detector = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
    detector.feed(&non_ascii_context(prefix), true);
    let tld = url.and_then(top_level_domain);
    detector.guess(
        tld.as_deref().map(str::as_bytes),
        chardetng::Utf8Detection::Allow,
    )
}

/// The rightmost label of a URL's host name, as chardetng takes it:
/// lowercase ASCII (Punycode for an internationalised one), no dot.
/// `None` for an IP address, a URL that does not parse, or a label
/// chardetng would refuse.
fn top_level_domain(url: &str) -> Option<String> {
    let url = url::Url::parse(url).ok()?;
    let url::Host::Domain(host) = url.host()? else {
        return None;
    };
    let tld = host.trim_end_matches('.').rsplit('.').next()?;
    let fits = !tld.is_empty()
        && tld
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-');
    fits.then(|| tld.to_string())
}

/// How many ASCII bytes either side of a stretch of other bytes [`detect`]
/// reads with it.
const CONTEXT: usize = 12;

/// The detector learns only from non-ASCII bytes and their neighbours; the
/// ASCII markup between them costs time and tells it nothing. Keeps each
/// stretch of text with non-ASCII bytes (no more than 12 bytes apart) with
/// 12 bytes of context either side, up to 4 KiB.
fn non_ascii_context(prefix: &[u8]) -> Vec<u8> {
    const LIMIT: usize = 4096;
    let near = |from: usize| prefix[from..].iter().take(CONTEXT).position(|&b| b >= 0x80);
    let mut out = Vec::with_capacity(LIMIT + 64);
    let mut i = 0;
    while out.len() < LIMIT {
        let Some(k) = prefix[i..].iter().position(|&b| b >= 0x80) else {
            break;
        };
        let hit = i + k;
        let start = hit.saturating_sub(CONTEXT).max(i);
        let mut end = hit + 1;
        while let Some(p) = near(end) {
            end += p + 1;
        }
        let end = (end + CONTEXT).min(prefix.len());
        out.extend_from_slice(&prefix[start..end]);
        out.push(b' ');
        i = end;
    }
    out
}

/// Finds a charset declared in a `<meta>` tag near the start of the page:
/// `<meta charset="x">` or `<meta http-equiv="Content-Type" content="...;
/// charset=x">`. A light scan over bytes, not the full prescan algorithm of
/// the HTML standard, which also walks attributes of every tag; this finds
/// the declarations real pages make.
pub fn prescan(prefix: &[u8]) -> Option<&'static Encoding> {
    // Tags that start in the first PRESCAN_BYTES, read to their `>`
    // wherever it is in the sniffed prefix: a tag cut at PRESCAN_BYTES
    // would give a label cut short, which may name another encoding
    // ("iso-8859-1" of "iso-8859-15").
    let head = &prefix[..prefix.len().min(PRESCAN_BYTES)];
    let mut at = 0;
    while let Some(i) = find_ci(&head[at..], b"<meta") {
        let start = at + i + 5;
        let Some(end) = memchr::memchr(b'>', &prefix[start..]).map(|j| start + j) else {
            // Unclosed to the prefix's end: a value that runs to the end
            // may be cut, and no later tag closes either.
            return charset_in(&prefix[start..], false);
        };
        if let Some(e) = charset_in(&prefix[start..end], true) {
            return Some(e);
        }
        at = end;
        if at >= head.len() {
            return None;
        }
    }
    None
}

/// The first place `needle` (not empty) occurs in `hay`, ignoring ASCII
/// case. memchr finds the candidates by the first byte: a window compare
/// at every byte of the 8 KiB prescan was 1 % of the core's instructions.
fn find_ci(hay: &[u8], needle: &[u8]) -> Option<usize> {
    let (&first, rest) = needle.split_first()?;
    let last_start = hay.len().checked_sub(needle.len())?;
    let (lower, upper) = (first.to_ascii_lowercase(), first.to_ascii_uppercase());
    memchr::memchr2_iter(lower, upper, &hay[..=last_start])
        .find(|&i| hay[i + 1..i + needle.len()].eq_ignore_ascii_case(rest))
}

/// The value of the first `charset=` in a meta tag's attributes that
/// names an encoding (`name="charset-note" charset=koi8-r` is KOI8-R).
/// `closed`: the attributes end at the tag's `>`; if not, a value running
/// to their end may be cut short and is not taken.
fn charset_in(attrs: &[u8], closed: bool) -> Option<&'static Encoding> {
    let mut at = 0;
    while let Some(i) = find_ci(&attrs[at..], b"charset") {
        at += i + 7;
        if let Some(e) = charset_value(&attrs[at..], closed) {
            return Some(e);
        }
    }
    None
}

/// The encoding `rest` names after a `charset`: `=`, perhaps spaces and a
/// quote, then the label.
fn charset_value(rest: &[u8], closed: bool) -> Option<&'static Encoding> {
    let mut rest = trim_start(rest);
    rest = rest.strip_prefix(b"=")?;
    rest = trim_start(rest);
    let rest = rest
        .strip_prefix(b"\"")
        .or_else(|| rest.strip_prefix(b"'"))
        .unwrap_or(rest);
    let len = rest.iter().position(|&b| {
        matches!(
            b,
            b'"' | b'\'' | b';' | b' ' | b'/' | b'>' | b'\t' | b'\n' | b'\r'
        )
    });
    let len = match len {
        Some(len) => len,
        None if closed => rest.len(),
        None => return None,
    };
    Encoding::for_label(&rest[..len])
}

fn trim_start(b: &[u8]) -> &[u8] {
    let n = b.iter().take_while(|c| c.is_ascii_whitespace()).count();
    &b[n..]
}

/// Streaming decoder to UTF-8, replacing malformed sequences with U+FFFD.
#[derive(Debug)]
pub struct StreamDecoder {
    decoder: Decoder,
    out: String,
}

impl StreamDecoder {
    pub fn new(choice: Choice) -> Self {
        StreamDecoder {
            decoder: choice.encoding.new_decoder_without_bom_handling(),
            out: String::new(),
        }
    }

    /// Decodes `bytes` (the next piece of the page) and returns the text.
    /// The returned slice is valid until the next call.
    pub fn decode(&mut self, bytes: &[u8], last: bool) -> &str {
        let mut out = std::mem::take(&mut self.out);
        out.clear();
        self.decode_into(bytes, last, &mut out);
        self.out = out;
        &self.out
    }

    /// The most text `bytes` more input bytes can decode to.
    pub fn max_text_len(&self, bytes: usize) -> usize {
        self.decoder
            .max_utf8_buffer_length(bytes)
            .unwrap_or(bytes.saturating_mul(3))
    }

    /// Decodes `bytes` and appends the text to `out`: the core decodes
    /// straight into the scanner's buffer, saving a copy of every page.
    pub fn decode_into(&mut self, bytes: &[u8], last: bool, out: &mut String) {
        out.reserve(self.max_text_len(bytes.len()));
        let mut input = bytes;
        loop {
            let (result, read, _) = self.decoder.decode_to_string(input, out, last);
            input = &input[read..];
            match result {
                CoderResult::InputEmpty => break,
                CoderResult::OutputFull => out.reserve(input.len() * 3 + 16),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// `find_ci` finds what a case-blind compare at every window finds.
        #[test]
        fn find_ci_is_the_window_scan(
            hay in proptest::collection::vec(
                prop_oneof![Just(b'<'), Just(b'm'), Just(b'M'), Just(b'e'), Just(b'T'),
                    Just(b'a'), Just(b'c'), Just(b'C'), Just(b'h'), any::<u8>()],
                0..40,
            ),
            needle in prop_oneof![Just(&b"<meta"[..]), Just(&b"charset"[..]), Just(&b"m"[..])],
        ) {
            let windows = hay.windows(needle.len()).position(|w| w.eq_ignore_ascii_case(needle));
            prop_assert_eq!(find_ci(&hay, needle), windows);
        }
    }

    #[test]
    fn bom_wins() {
        let c = choose(b"\xEF\xBB\xBF<p>hi", Some("iso-8859-1"), None, None);
        assert_eq!(c.encoding, UTF_8);
        assert_eq!(c.source, EncodingSource::Bom);
        assert_eq!(c.bom_len, 3);
    }

    #[test]
    fn declared_then_meta() {
        let page = b"<meta charset=\"windows-1251\"><p>\xcf\xf0\xe8";
        assert_eq!(
            choose(page, Some("koi8-r"), None, None).encoding,
            encoding_rs::KOI8_R
        );
        let c = choose(page, None, None, None);
        assert_eq!(
            (c.encoding, c.source),
            (encoding_rs::WINDOWS_1251, EncodingSource::Meta)
        );
        let eq = b"<META HTTP-EQUIV=Content-Type CONTENT='text/html; charset=Shift_JIS'>";
        assert_eq!(prescan(eq), Some(encoding_rs::SHIFT_JIS));
    }

    #[test]
    fn the_fallback_only_where_the_page_declares_nothing() {
        // The page's own <meta> outranks the fallback (not a header's
        // charset, which outranks the <meta>).
        let page = b"<meta charset=koi8-r><p>\xf0\xd2\xc9\xd7\xc5\xd4";
        let c = choose(page, None, Some("windows-1251"), None);
        assert_eq!(
            (c.encoding, c.source),
            (encoding_rs::KOI8_R, EncodingSource::Meta)
        );
        let c = choose(page, Some("windows-1251"), None, None);
        assert_eq!(
            (c.encoding, c.source),
            (encoding_rs::WINDOWS_1251, EncodingSource::Declared)
        );
        // Nothing declared: the fallback, not detection.
        let bare = b"<p>\xcf\xf0\xe8\xe2\xe5\xf2 \xec\xe8\xf0";
        let c = choose(bare, None, Some("koi8-r"), None);
        assert_eq!(
            (c.encoding, c.source),
            (encoding_rs::KOI8_R, EncodingSource::Fallback)
        );
        // A label no encoding has is no fallback.
        assert_eq!(
            choose(bare, None, Some("bogus"), None).source,
            EncodingSource::Detected
        );
        // UTF-8 bytes under a single-byte fallback are UTF-8, as under a
        // single-byte declaration.
        let utf8 = "<p>Grüße</p>".as_bytes();
        let c = choose(utf8, None, Some("windows-1252"), None);
        assert_eq!(
            (c.encoding, c.source),
            (UTF_8, EncodingSource::Utf8Override)
        );
    }

    #[test]
    fn meta_tags_are_read_to_their_end() {
        // A tag that starts in the prescan window and ends past it is
        // read whole: cut at the window, "iso-8859-15" read "iso-8859-1"
        // (windows-1252), and U+20AC came out as U+00A4.
        let tag = b"<meta charset=\"iso-8859-15\">";
        for inside in 1..tag.len() {
            let mut page = vec![b' '; PRESCAN_BYTES - inside];
            page.extend_from_slice(tag);
            page.extend_from_slice(b"<p>\xa4 5</p>");
            // Found when its `<meta` is in the window.
            let expected = (inside >= 5).then_some(encoding_rs::ISO_8859_15);
            assert_eq!(
                prescan(&page),
                expected,
                "{inside} bytes of the tag in the window"
            );
        }
        // A value running to the end of an unclosed tag may be cut short.
        assert_eq!(prescan(b"<meta charset=iso-8859-1"), None);
        assert_eq!(
            prescan(b"<meta charset=iso-8859-15 "),
            Some(encoding_rs::ISO_8859_15)
        );
        // The first `charset` that names an encoding, not the first word.
        let noted = b"<meta name=\"charset-note\" charset=koi8-r>";
        assert_eq!(prescan(noted), Some(encoding_rs::KOI8_R));
        let two = b"<meta content=\"text/html; charset=nonsense\" charset=koi8-r>";
        assert_eq!(prescan(two), Some(encoding_rs::KOI8_R));
    }

    #[test]
    fn an_ascii_prefix_leaves_a_legacy_or_undeclared_choice_open() {
        let waits = |prefix: &[u8]| waits_for_non_ascii(prefix, choose(prefix, None, None, None));
        assert!(waits(b"<meta charset=iso-8859-1><p>plain</p>"));
        assert!(waits(b"<meta charset=shift_jis><p>plain</p>"));
        assert!(waits(b"<p>nothing declared</p>"));
        assert!(!waits(b"<meta charset=utf-8><p>plain</p>"));
        assert!(!waits(b"<meta charset=iso-2022-jp><p>plain</p>"));
        assert!(!waits(
            "<meta charset=iso-8859-1><p>caf\u{e9}</p>".as_bytes()
        ));
        assert!(!waits(b"<meta charset=iso-8859-1><p>caf\xe9</p>"));
        let declared = choose(b"<p>plain</p>", Some("windows-1252"), None, None);
        assert!(waits_for_non_ascii(b"<p>plain</p>", declared));
    }

    #[test]
    fn the_window_past_the_ascii_is_found_a_piece_at_a_time() {
        let mut page = vec![b'a'; 10_000];
        page.push(0xc3);
        page.extend(vec![b'b'; SNIFF_BYTES]);
        let mut ascii = 0;
        assert_eq!(
            non_ascii_window(&page[..5_000], &mut ascii, false),
            Window::More
        );
        assert_eq!(ascii, 5_000);
        assert_eq!(
            non_ascii_window(&page[..12_000], &mut ascii, false),
            Window::More
        );
        assert_eq!(ascii, 10_000);
        let (first, end) = (10_000, 10_000 + SNIFF_BYTES);
        let window = non_ascii_window(&page, &mut ascii, false);
        assert_eq!(window, Window::Ends { first, end });
        let at_end = non_ascii_window(&page[..12_000], &mut 0, true);
        assert_eq!(at_end, Window::Ends { first, end: 12_000 });
        assert_eq!(
            non_ascii_window(&page[..9_000], &mut 0, true),
            Window::Ascii
        );
    }

    #[test]
    fn the_wait_for_a_byte_past_the_ascii_ends_at_a_mib() {
        let mut page = vec![b'a'; ASCII_WAIT];
        assert_eq!(non_ascii_window(&page, &mut 0, false), Window::Ascii);
        page.push(0xe9);
        assert_eq!(non_ascii_window(&page, &mut 0, false), Window::Ascii);
        page[ASCII_WAIT - 1] = 0xe9;
        assert_eq!(non_ascii_window(&page, &mut 0, false), Window::More);
        let end = non_ascii_window(&page, &mut 0, true);
        let first = ASCII_WAIT - 1;
        assert_eq!(
            end,
            Window::Ends {
                first,
                end: ASCII_WAIT + 1
            }
        );
    }

    /// The choice past an ASCII head is the one the whole window gives.
    #[test]
    fn the_choice_past_the_ascii_is_the_windows_own() {
        let tails: [(&str, &[u8]); 4] = [
            (
                "utf-8",
                "<p>Caf\u{e9} na\u{ef}ve \u{2014} Stra\u{df}e</p>".as_bytes(),
            ),
            ("latin-1", b"<p>Caf\xe9 na\xefve, Stra\xdfe</p>"),
            (
                "cp1251",
                b"<p>\xd1\xe5\xe3\xee\xe4\xed\xff \xe2 \xe3\xee\xf0\xee\xe4\xe5</p>",
            ),
            ("a stray byte", b"<p>REALTOR\xae</p>"),
        ];
        for head in ["<meta charset=iso-8859-1>", "<meta charset=gbk>", ""] {
            for (name, tail) in tails {
                let mut page = head.as_bytes().to_vec();
                page.extend(b"<p>plain</p>".repeat(SNIFF_BYTES / 10));
                page.extend(tail.repeat(40));
                let choice = choose(&page[..SNIFF_BYTES], None, None, None);
                assert!(waits_for_non_ascii(&page[..SNIFF_BYTES], choice));
                let Window::Ends { first, end } = non_ascii_window(&page, &mut 0, true) else {
                    panic!("{head} {name}: no window");
                };
                let past = choose_past_ascii(choice, &page, first, end, None);
                let whole = choose(&page[..end], None, None, None);
                assert_eq!(past.encoding, whole.encoding, "{head} {name}");
                assert_eq!(past.source, whole.source, "{head} {name}");
            }
        }
    }

    #[test]
    fn latin1_label_on_utf8_bytes_is_overridden() {
        let page = "<meta charset=iso-8859-1><p>Grüße</p>".as_bytes();
        let c = choose(page, None, None, None);
        assert_eq!(
            (c.encoding, c.source),
            (UTF_8, EncodingSource::Utf8Override)
        );
    }

    /// UTF-8 Japanese, Chinese or Korean under a legacy CJK declaration
    /// (a header or a `<meta>`) is read as UTF-8; real legacy bytes under
    /// the same declarations keep their encoding.
    #[test]
    fn a_legacy_cjk_label_on_utf8_bytes_is_overridden() {
        let text = "<p>東京の天気は晴れです。北京天气晴朗。서울 날씨는 맑습니다.</p>";
        for label in [
            "shift_jis",
            "euc-jp",
            "gb2312",
            "gbk",
            "gb18030",
            "big5",
            "euc-kr",
        ] {
            let page = format!("<meta charset=\"{label}\">{text}");
            let c = choose(page.as_bytes(), None, None, None);
            assert_eq!(
                (c.encoding, c.source),
                (UTF_8, EncodingSource::Utf8Override),
                "{label}"
            );
            let c = choose(text.as_bytes(), Some(label), None, None);
            assert_eq!(
                (c.encoding, c.source),
                (UTF_8, EncodingSource::Utf8Override),
                "{label}"
            );
        }
        for (encoding, legacy) in [
            (encoding_rs::SHIFT_JIS, "<p>東京の天気は晴れです。</p>"),
            (encoding_rs::EUC_JP, "<p>東京の天気は晴れです。</p>"),
            (encoding_rs::GBK, "<p>北京天气晴朗。</p>"),
            (encoding_rs::BIG5, "<p>台北天氣晴朗。</p>"),
            (encoding_rs::EUC_KR, "<p>서울 날씨는 맑습니다.</p>"),
        ] {
            let (bytes, _, unmappable) = encoding.encode(legacy);
            assert!(!unmappable, "{}", encoding.name());
            let c = choose(&bytes, Some(encoding.name()), None, None);
            assert_eq!((c.encoding, c.source), (encoding, EncodingSource::Declared));
        }
    }

    #[test]
    fn detects_legacy_without_label() {
        let text = "Příliš žluťoučký kůň úpěl ďábelské ódy. ".repeat(20);
        let (bytes, _, _) = encoding_rs::WINDOWS_1250.encode(&text);
        let c = choose(&bytes, None, None, None);
        assert_eq!(c.source, EncodingSource::Detected);
        assert_eq!(c.encoding, encoding_rs::WINDOWS_1250);
    }

    #[test]
    fn detection_weighs_the_top_level_domain_of_the_url() {
        // Lithuanian in windows-1257 reads as Cyrillic windows-1251 to the
        // bytes alone; a `.lt` address settles it, as it does in browsers.
        let text = "Labas rytas, ąčęėįšųūž. Ėjo žąsys į ežerą. ".repeat(20);
        let (bytes, _, _) = encoding_rs::WINDOWS_1257.encode(&text);
        let alone = choose(&bytes, None, None, None);
        assert_ne!(alone.encoding, encoding_rs::WINDOWS_1257);
        let c = choose(
            &bytes,
            None,
            None,
            Some("https://naujienos.example.lt/a?b=1"),
        );
        assert_eq!(
            (c.encoding, c.source),
            (encoding_rs::WINDOWS_1257, EncodingSource::Detected)
        );
        // A declared charset still outranks the domain.
        let c = choose(
            &bytes,
            Some("windows-1251"),
            None,
            Some("https://example.lt/"),
        );
        assert_eq!(c.encoding, encoding_rs::WINDOWS_1251);
    }

    #[test]
    fn the_top_level_domain_is_the_hosts_last_label_as_chardetng_takes_it() {
        assert_eq!(
            top_level_domain("https://www.Example.LT/x").as_deref(),
            Some("lt")
        );
        assert_eq!(
            top_level_domain("http://example.vn./").as_deref(),
            Some("vn")
        );
        assert_eq!(
            top_level_domain("http://пример.рф/").as_deref(),
            Some("xn--p1ai")
        );
        assert_eq!(
            top_level_domain("http://localhost:8080/").as_deref(),
            Some("localhost")
        );
        for none in [
            "http://192.0.2.1/",
            "http://[::1]/",
            "not a url",
            "file:///tmp/a.html",
        ] {
            assert_eq!(top_level_domain(none), None, "{none}");
        }
    }

    #[test]
    fn decodes_across_split_sequences() {
        let bytes = "añb€".as_bytes();
        let mut d = StreamDecoder::new(choose(b"", None, None, None));
        let mut s = String::new();
        for chunk in bytes.chunks(1) {
            s.push_str(d.decode(chunk, false));
        }
        s.push_str(d.decode(b"", true));
        assert_eq!(s, "añb€");
    }
}
