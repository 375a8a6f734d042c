//! The HTTP layer of `response` records: status line and headers, the
//! choice of HTML by media type (or sniffing when none is given), the
//! charset parameter, and undoing chunked transfer coding and the
//! Content-Encoding that is still applied. Common Crawl stores decoded
//! payloads and renames the headers to `X-Crawler-*`, which are therefore
//! ignored; a declared coding whose magic bytes are absent is taken as
//! already undone. Stacked codings (`gzip, br`, or one per header line)
//! are listed as the fetcher lists them (`codec::coding::Coding::listed`:
//! any case, `identity` ignored) and undone as it undoes them, the last
//! listed first, up to [`MAX_CODINGS`], each layer by the same rules as a
//! single coding and its output bounded by the same limit. The stack is
//! walked by `codec::stack::undo_whole` (the fetcher's mechanism and
//! bounds) and each layer decoded by `codec::whole`; what is WARC's own
//! here is the rule for a layer the crawler already undid ([`undo`]). It
//! does not extract anything.

use super::error::WarcError;
use super::reader::SkipReason;
use super::record::values_named;
use crate::codec::coding::Coding as ContentCoding;
use crate::codec::container::{Compression, detect};
use crate::codec::deflate::is_zlib_header;
use crate::codec::stack::{self, MAX_CODINGS, Undone};
use crate::codec::whole::{self, Faulted, TooLarge};
use std::borrow::Cow;

/// Status line and headers of an HTTP response.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HttpHead {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    /// Bytes of status line and headers, including the blank line.
    pub len: usize,
}

impl HttpHead {
    pub fn get(&self, name: &str) -> Option<&str> {
        self.get_all(name).next()
    }

    /// Every header of this name (case-insensitive), in order.
    pub fn get_all<'a>(&'a self, name: &str) -> impl Iterator<Item = &'a str> {
        values_named(&self.headers, name)
    }
}

/// Parses the head of an HTTP response; `Ok(None)` when `buf` does not
/// hold the whole head yet.
pub fn parse_head(buf: &[u8]) -> Result<Option<HttpHead>, WarcError> {
    let Some(len) = head_end(buf) else {
        return Ok(None);
    };
    let text = String::from_utf8_lossy(&buf[..len]);
    let mut lines = text.lines();
    let status_line = lines.next().unwrap_or_default();
    let status = status_line
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse::<u16>().ok())
        .filter(|_| status_line.starts_with("HTTP/"))
        .ok_or_else(|| WarcError::BadHttp(format!("bad status line {status_line:?}")))?;
    let mut headers: Vec<(String, String)> = Vec::new();
    for line in lines {
        if line.starts_with([' ', '\t']) {
            if let Some((_, v)) = headers.last_mut() {
                v.push(' ');
                v.push_str(line.trim());
            }
        } else if let Some((n, v)) = line.split_once(':') {
            headers.push((n.trim().to_string(), v.trim().to_string()));
        }
    }
    Ok(Some(HttpHead {
        status,
        headers,
        len,
    }))
}

/// End of the head: after the first blank line (CRLF or bare LF).
fn head_end(buf: &[u8]) -> Option<usize> {
    let crlf = memchr::memmem::find(buf, b"\r\n\r\n").map(|i| i + 4);
    let lf = memchr::memmem::find(buf, b"\n\n").map(|i| i + 2);
    match (crlf, lf) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// The media type of a Content-Type value, lowercased, without parameters.
pub fn media_type(content_type: &str) -> String {
    let mt = content_type.split(';').next().unwrap_or_default();
    mt.trim().to_ascii_lowercase()
}

/// The `charset` parameter of a Content-Type value.
pub fn charset(content_type: &str) -> Option<String> {
    content_type.split(';').skip(1).find_map(|p| {
        let (k, v) = p.split_once('=')?;
        let v = v.trim().trim_matches(['"', '\'']).trim();
        (k.trim().eq_ignore_ascii_case("charset") && !v.is_empty()).then(|| v.to_string())
    })
}

/// What the declared types say about a payload.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kind {
    Html,
    /// No useful type: sniff the bytes.
    Unknown,
    Other(String),
}

const HTML_TYPES: &[&str] = &[
    "text/html",
    "application/xhtml+xml",
    "application/vnd.wap.xhtml+xml",
];
const GENERIC_TYPES: &[&str] = &[
    "",
    "application/octet-stream",
    "binary/octet-stream",
    "application/unknown",
    "unknown/unknown",
    "application/x-unknown-content-type",
    "*/*",
];

/// Chooses by the identified payload type first (sniffed by the crawler),
/// then the declared Content-Type; generic types count as none.
pub fn kind(identified: Option<&str>, declared: Option<&str>) -> Kind {
    for t in [identified, declared].into_iter().flatten() {
        let mt = media_type(t);
        if HTML_TYPES.contains(&mt.as_str()) {
            return Kind::Html;
        }
        if !GENERIC_TYPES.contains(&mt.as_str()) {
            return Kind::Other(mt);
        }
    }
    Kind::Unknown
}

/// Whether bytes of unknown type look like HTML.
pub fn looks_like_html(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(2048)];
    let head = head.strip_prefix(b"\xef\xbb\xbf").unwrap_or(head);
    let start = head.iter().position(|b| !b.is_ascii_whitespace());
    if start.is_none_or(|i| head[i] != b'<') {
        return false;
    }
    let lower = head.to_ascii_lowercase();
    [
        "<!doctype html",
        "<html",
        "<head",
        "<body",
        "<title",
        "<meta",
        "<div",
        "<p>",
    ]
    .iter()
    .any(|tag| memchr::memmem::find(&lower, tag.as_bytes()).is_some())
}

/// Why a payload cannot be handed to the core.
#[derive(Debug)]
pub enum Rejection {
    Skip(SkipReason),
    Error(WarcError),
}

/// How a payload is still encoded.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Coding {
    pub chunked: bool,
    /// The `Content-Encoding` header lines' values, lowercased, joined
    /// with `, ` as one list (RFC 9110 §5.3: the same list); `None` when
    /// there is none or it is empty (`identity` stays: it names no layer
    /// to undo).
    pub content_encoding: Option<String>,
}

impl Coding {
    pub fn from_head(head: &HttpHead) -> Self {
        let chunked = head
            .get("Transfer-Encoding")
            .is_some_and(|v| v.to_ascii_lowercase().contains("chunked"));
        let listed: Vec<&str> = head
            .get_all("Content-Encoding")
            .map(str::trim)
            .filter(|v| !v.is_empty())
            .collect();
        let content_encoding =
            Some(listed.join(", ").to_ascii_lowercase()).filter(|v| !v.is_empty());
        Coding {
            chunked,
            content_encoding,
        }
    }
}

/// Undoes chunking and content coding, refusing outputs above `limit`.
/// Stacked codings are undone the last listed first, each layer as a
/// single coding is ([`undo`]): a layer declared but not applied is taken
/// as undone by the crawler, and each layer's output is refused above
/// `limit` (so the payload takes at most two outputs of `limit` bytes
/// while it is decoded). A coding not decoded here (`compress`, the bogus
/// `none` or `utf-8` servers send) and more than [`MAX_CODINGS`] stacked
/// (the fetcher refuses those too; no server sends them) are alike: no
/// browser decodes such a body either, so a body that reads as HTML is
/// taken as it is, and any other skipped, naming the list.
pub fn decode<'a>(
    body: &'a [u8],
    coding: &Coding,
    limit: usize,
) -> Result<Cow<'a, [u8]>, Rejection> {
    let body: Cow<[u8]> = match coding.chunked {
        true => dechunk(body).map_or(Cow::Borrowed(body), Cow::Owned),
        false => Cow::Borrowed(body),
    };
    let Some(encoding) = coding.content_encoding.as_deref() else {
        return Ok(body);
    };
    // As the fetcher lists them (`identity` skipped); `None` when one is
    // not decoded here.
    match ContentCoding::listed([encoding]) {
        Some(codings) if codings.len() <= MAX_CODINGS => stack::undo_whole(
            body,
            &codings,
            |body, layer, under| undo(body, layer, under, limit),
            |ran| Rejection::Error(WarcError::BadPayload(ran.to_string())),
        ),
        _ if looks_like_html(&body) => Ok(body),
        _ => Err(Rejection::Skip(SkipReason::Encoding(encoding.to_string()))),
    }
}

/// Undoes one content coding of `body`, refusing an output above `limit`.
/// A gzip or zstd body without its magic bytes, a brotli one that does
/// not decode at all and a deflate one that does not decode but reads as
/// HTML ([`inflate`]) were already decoded by the crawler and are taken as
/// they are. In a stack this holds layer by layer; a brotli or deflate
/// layer over another coding (`under`, undone next) is also taken as
/// undone when it does not decode to its end and the body reads as that
/// coding's stream ([`reads_as`]: `gzip, deflate` stored as gzip only):
/// what lies under it is no HTML, and brotli decodes a few bytes of many
/// a deflate stream before it fails.
fn undo(
    body: Cow<'_, [u8]>,
    coding: ContentCoding,
    under: Option<ContentCoding>,
    limit: usize,
) -> Result<Undone<'_>, Rejection> {
    let name = coding.name();
    let out = match coding {
        ContentCoding::Gzip if starts_with_magic(&body, coding) => {
            read_bounded(whole::gunzip(&body, limit), limit, name)
        }
        ContentCoding::Deflate => {
            let undone = |body: &[u8]| {
                looks_like_html(body)
                    || under.is_some_and(|c| match c {
                        // The body has just failed to inflate to its end
                        // (as raw deflate unless it opens with a zlib
                        // header): only that header can make it read as
                        // deflate, and `reads_as` would inflate it again
                        // to find the same.
                        ContentCoding::Deflate => opens_zlib(body),
                        // Told by magic bytes, without inflating.
                        _ => matches!(reads_as(body, c, limit), Ok(Reads::Yes)),
                    })
            };
            return inflate(body, limit, undone).map(Undone::from);
        }
        ContentCoding::Zstd if starts_with_magic(&body, coding) => {
            let decoded = whole::unzstd(&body, limit)
                .map_err(|e| Rejection::Error(WarcError::BadPayload(e.to_string())))?;
            read_bounded(decoded, limit, name)
        }
        ContentCoding::Brotli => return unbrotli(body, under, limit),
        // Declared but not applied: already decoded by the crawler.
        ContentCoding::Gzip | ContentCoding::Zstd => return Ok(body.into()),
    };
    out.map(Undone::from)
}

/// Undoes brotli. Brotli has no magic number: a body that does not decode
/// at all was already decoded by the crawler, as a gzip one without its
/// magic bytes was; so was one over another coding (`under`) that decodes
/// a few bytes and then fails, when it reads as that coding's stream
/// ([`reads_as`]). If telling took inflating it whole as deflate, that
/// output goes on with it ([`Undone::next`]); if the inflating passed
/// `limit`, the deflate layer's error is given now (the deflate layer
/// would meet it again).
fn unbrotli(
    body: Cow<'_, [u8]>,
    under: Option<ContentCoding>,
    limit: usize,
) -> Result<Undone<'_>, Rejection> {
    let (out, fault) = whole::unbrotli(&body, limit)
        .map_err(|TooLarge| too_large(ContentCoding::Brotli.name(), limit))?;
    let reads = match (fault, under) {
        (None, _) => Reads::No,
        (Some(_), _) if out.is_empty() => Reads::Yes,
        (Some(_), Some(under)) => reads_as(&body, under, limit)?,
        (Some(_), None) => Reads::No,
    };
    Ok(match reads {
        Reads::No => out.into(),
        Reads::Yes => body.into(),
        Reads::Inflated(next) => Undone {
            body,
            next: Some(next),
        },
    })
}

/// Whether `body` starts with `coding`'s magic bytes, as a WARC file's
/// compression is told ([`detect`]: gzip's, and zstd's or a skippable
/// frame's; brotli and deflate have none).
fn starts_with_magic(body: &[u8], coding: ContentCoding) -> bool {
    matches!(
        (coding, detect(body)),
        (ContentCoding::Gzip, Compression::Gzip) | (ContentCoding::Zstd, Compression::Zstd)
    )
}

/// Whether a body reads as the stream of the coding under a layer that
/// did not decode ([`reads_as`]).
#[derive(Debug)]
enum Reads {
    No,
    Yes,
    /// Yes, as raw deflate that inflated to its end: its output, which is
    /// what the deflate layer gives.
    Inflated(Vec<u8>),
}

/// Whether `body` reads as a stream of `coding`, for a layer above it
/// that did not decode: gzip and zstd by their magic bytes, deflate by a
/// zlib header or raw data that inflates to its end (with the output, so
/// that it is inflated once); brotli, which has no magic number, never.
/// Raw data that inflates past `limit` is a bomb: the deflate layer's
/// error ([`inflate_to_end`]'s), which it would meet too.
fn reads_as(body: &[u8], coding: ContentCoding, limit: usize) -> Result<Reads, Rejection> {
    let reads = |yes| if yes { Reads::Yes } else { Reads::No };
    Ok(match coding {
        ContentCoding::Gzip | ContentCoding::Zstd => reads(starts_with_magic(body, coding)),
        ContentCoding::Deflate if opens_zlib(body) => Reads::Yes,
        ContentCoding::Deflate => match inflate_to_end(body, false, limit)? {
            (out, true) => Reads::Inflated(out),
            (_, false) => Reads::No,
        },
        ContentCoding::Brotli => Reads::No,
    })
}

/// Undoes `deflate`: zlib as RFC 9110 means it, or raw deflate as some
/// servers send it, told apart by the body's first two bytes as the
/// fetcher tells them (`codec::deflate::is_zlib_header`: a zlib header's
/// check, not only its usual first byte 0x78, which a raw stream may
/// start with too). Deflate has no magic number to tell an already decoded
/// body by, as gzip and zstd have: when the stream does not decode to its
/// end, a body that `undone` says the crawler stored decoded (HTML, or the
/// stream of the coding under it in a stack) is taken as is; otherwise
/// what decoded before the end is kept (a payload cut short), as for the
/// other codings.
fn inflate(
    body: Cow<'_, [u8]>,
    limit: usize,
    undone: impl Fn(&[u8]) -> bool,
) -> Result<Cow<'_, [u8]>, Rejection> {
    if body.is_empty() {
        return Ok(body);
    }
    let zlib = opens_zlib(&body);
    let (out, complete) = inflate_to_end(&body, zlib, limit)?;
    if complete {
        return Ok(Cow::Owned(out));
    }
    if undone(&body) {
        return Ok(body);
    }
    match out.is_empty() {
        false => Ok(Cow::Owned(out)),
        true => Err(Rejection::Error(WarcError::BadPayload(
            "corrupt deflate stream".into(),
        ))),
    }
}

/// Whether `body` opens with a zlib header, by its check as the fetcher
/// tells one (`codec::deflate::is_zlib_header`).
fn opens_zlib(body: &[u8]) -> bool {
    matches!(body, [cmf, flg, ..] if is_zlib_header(*cmf, *flg))
}

/// [`whole::inflate_to_end`], its output refused above `limit` as a
/// deflate layer's.
fn inflate_to_end(body: &[u8], zlib: bool, limit: usize) -> Result<(Vec<u8>, bool), Rejection> {
    #[cfg(test)]
    tests::INFLATIONS.with(|n| n.set(n.get() + 1));
    whole::inflate_to_end(body, zlib, limit).map_err(|TooLarge| too_large("deflate", limit))
}

/// A decoder's output (to its end or first error, keeping what came
/// before: crawls often truncate payloads), refused above `limit`. Over
/// the limit is an error, not a skip: a small body that decodes to more
/// than a page may hold is likely a bomb, and the operator should see it
/// counted as a failure.
fn read_bounded(
    decoded: Result<Faulted, TooLarge>,
    limit: usize,
    coding: &str,
) -> Result<Vec<u8>, Rejection> {
    match decoded.map_err(|TooLarge| too_large(coding, limit))? {
        (out, Some(e)) if out.is_empty() => {
            Err(Rejection::Error(WarcError::BadPayload(e.to_string())))
        }
        (out, _) => Ok(out),
    }
}

/// The error of an output of `coding` above `limit`.
fn too_large(coding: &str, limit: usize) -> Rejection {
    Rejection::Error(WarcError::PayloadTooLarge {
        coding: coding.to_string(),
        limit,
    })
}

/// Undoes chunked transfer coding; `None` when `body` is not chunked.
/// A truncated last chunk keeps what is there; so does a size line cut
/// short or damaged after good chunks (the body was chunked: handing on
/// the raw chunked bytes would put the size lines into the text).
pub fn dechunk(body: &[u8]) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(body.len());
    let mut rest = body;
    let mut chunks = 0usize;
    loop {
        let Some((size, line_len)) = chunk_size_line(rest) else {
            return (chunks > 0).then_some(out);
        };
        chunks += 1;
        rest = &rest[line_len..];
        if size == 0 {
            return Some(out);
        }
        let take = size.min(rest.len());
        out.extend_from_slice(&rest[..take]);
        rest = &rest[take..];
        rest = rest
            .strip_prefix(b"\r\n")
            .or_else(|| rest.strip_prefix(b"\n"))
            .unwrap_or(rest);
        if rest.is_empty() {
            return Some(out);
        }
    }
}

/// The size of the chunk whose size line starts `rest`, and the line's
/// length with its end.
fn chunk_size_line(rest: &[u8]) -> Option<(usize, usize)> {
    let eol = memchr::memchr(b'\n', rest)?;
    let line = std::str::from_utf8(&rest[..eol]).ok()?;
    let size_text = line.split(';').next().unwrap_or_default().trim();
    let size = usize::from_str_radix(size_text, 16).ok()?;
    Some((size, eol + 1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::stack::STACK_SLACK;
    use std::cell::Cell;

    thread_local! {
        /// How many times [`inflate_to_end`] ran on this thread: the tests
        /// that a deflate layer is inflated once count them.
        pub(super) static INFLATIONS: Cell<usize> = const { Cell::new(0) };
    }

    #[test]
    fn dechunk_keeps_the_chunks_before_a_bad_or_cut_size_line() {
        assert_eq!(
            dechunk(b"5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n"),
            Some(b"hello world".to_vec())
        );
        // Cut inside the next size line, or a damaged one: the chunks
        // before it, not the raw chunked body.
        assert_eq!(dechunk(b"5\r\nhello\r\n3"), Some(b"hello".to_vec()));
        assert_eq!(dechunk(b"5\r\nhello\r\nzz\r\nabc"), Some(b"hello".to_vec()));
        // Cut inside a chunk: what there is of it.
        assert_eq!(
            dechunk(b"5\r\nhello\r\n6\r\n wo"),
            Some(b"hello wo".to_vec())
        );
        // Not chunked at all.
        assert_eq!(dechunk(b"<html><body>hello"), None);
        assert_eq!(dechunk(b"hello\r\n"), None);
    }

    fn deflate() -> Coding {
        Coding {
            chunked: false,
            content_encoding: Some("deflate".into()),
        }
    }

    /// A stored deflate block holding `data`, its header byte `first`
    /// (bit 0 the last-block flag, bits 1-2 the stored type 00, the rest
    /// padding that decoders skip).
    fn stored(first: u8, data: &[u8]) -> Vec<u8> {
        let len = u16::try_from(data.len()).unwrap();
        let mut out = vec![first];
        out.extend_from_slice(&len.to_le_bytes());
        out.extend_from_slice(&(!len).to_le_bytes());
        out.extend_from_slice(data);
        out
    }

    /// A raw deflate body whose first byte is 0x78 (a stored block with
    /// padding bits set), as the fetcher tells it: raw, since the two
    /// bytes fail the zlib header's check. Cut short, what came before the
    /// cut is kept, as for a zlib or gzip payload cut short; trying it as
    /// zlib first (its usual first byte) lost it all.
    #[test]
    fn a_raw_deflate_body_starting_with_0x78_is_inflated_as_raw() {
        let (a, b) = (page_text(0), page_text(1));
        let body = [stored(0x78, &a), stored(0x01, &b)].concat();
        assert_eq!(body[0], 0x78);
        assert!(!is_zlib_header(body[0], body[1]));
        let whole = decode(&body, &deflate(), 1 << 20).unwrap();
        assert_eq!(&whole[..], &[&a[..], &b[..]].concat()[..]);
        let cut = &body[..body.len() - b.len() / 2];
        let kept = decode(cut, &deflate(), 1 << 20).unwrap();
        assert!(kept.starts_with(&a) && kept.len() > a.len(), "{kept:?}");
    }

    /// A zlib stream with a small window (its first byte not 0x78) is
    /// zlib by its header's check: inflated as raw it was rejected.
    #[test]
    fn a_zlib_body_with_a_small_window_is_inflated_as_zlib() {
        use std::io::Write;
        let text = page_text(2);
        let mut enc = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
        enc.write_all(&text).unwrap();
        let mut body = enc.finish().unwrap();
        // A 1 KiB window (CINFO 2) is enough for a text under 1 KiB; FLG
        // made to pass the check again.
        assert!(text.len() < 1024);
        body[0] = 0x28;
        body[1] = (0..=u8::MAX)
            .find(|&flg| flg & 0x20 == 0 && is_zlib_header(0x28, flg))
            .unwrap();
        let got = decode(&body, &deflate(), 1 << 20).unwrap();
        assert_eq!(&got[..], &text[..]);
    }

    /// A short text that does not read as HTML.
    fn page_text(i: u8) -> Vec<u8> {
        format!("part {i}: {}", "some words of text, ".repeat(20)).into_bytes()
    }

    /// A Content-Encoding no browser knows is passed through when the body
    /// reads as HTML (servers do send `none` or `utf-8`), and still skips
    /// a body that does not.
    #[test]
    fn an_unknown_coding_passes_html_through_and_skips_the_rest() {
        let coding = |name: &str| Coding {
            chunked: false,
            content_encoding: Some(name.into()),
        };
        let page = b"\n<!DOCTYPE html><html><body><p>Plain page</p></body></html>";
        for name in ["none", "utf-8", "binary"] {
            let got = decode(page, &coding(name), 1 << 20).unwrap_or_else(|_| panic!("{name}"));
            assert_eq!(&got[..], &page[..], "{name}");
        }
        let skipped = decode(b"\x00\x01 not a page", &coding("compress"), 1 << 20);
        assert!(
            matches!(skipped, Err(Rejection::Skip(SkipReason::Encoding(ref e))) if e == "compress"),
            "{skipped:?}"
        );
    }

    fn coded(list: &str) -> Coding {
        Coding {
            chunked: false,
            content_encoding: Some(list.into()),
        }
    }

    /// `body` encoded with `coding` (a name as `ContentCoding::name`
    /// gives it).
    fn encode(coding: &str, body: &[u8]) -> Vec<u8> {
        use std::io::Write;
        match coding {
            "gzip" => {
                let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
                e.write_all(body).unwrap();
                e.finish().unwrap()
            }
            "deflate" => {
                let mut e =
                    flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
                e.write_all(body).unwrap();
                e.finish().unwrap()
            }
            "br" => {
                let mut out = Vec::new();
                let mut e = brotli::CompressorWriter::new(&mut out, 4096, 5, 22);
                e.write_all(body).unwrap();
                drop(e);
                out
            }
            "zstd" => ::zstd::encode_all(body, 3).unwrap(),
            other => panic!("{other}"),
        }
    }

    /// `body` encoded with each of `codings` in turn, the first listed
    /// applied first (as a `Content-Encoding` list reads).
    fn stacked(codings: &[&str], body: &[u8]) -> Vec<u8> {
        codings
            .iter()
            .fold(body.to_vec(), |body, coding| encode(coding, &body))
    }

    fn html_page() -> Vec<u8> {
        let text = String::from_utf8(page_text(7)).unwrap();
        format!("<!DOCTYPE html><html><body><p>{text}</p></body></html>").into_bytes()
    }

    /// Two stacked codings, in either order and of every pair, are undone
    /// the last listed first, as the fetcher undoes them; `identity`
    /// entries and the case of the names do not count.
    #[test]
    fn stacked_codings_are_undone_the_last_listed_first() {
        let page = html_page();
        let names = ["gzip", "deflate", "br", "zstd"];
        for first in names {
            for second in names {
                let body = stacked(&[first, second], &page);
                for list in [
                    format!("{first}, {second}"),
                    format!("identity, {first},{second}, identity"),
                ] {
                    let got = decode(&body, &coded(&list), 1 << 20)
                        .unwrap_or_else(|e| panic!("{list}: {e:?}"));
                    assert_eq!(&got[..], &page[..], "{list}");
                }
            }
        }
        let body = stacked(&["gzip", "br"], &page);
        let got = decode(&body, &coded("x-gzip, br"), 1 << 20).unwrap();
        assert_eq!(&got[..], &page[..]);
    }

    /// Two `Content-Encoding` header lines are one list, as in the
    /// fetcher: the second line's coding was applied last.
    #[test]
    fn two_content_encoding_lines_are_one_stack() {
        let page = html_page();
        let head = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\
            Content-Encoding: gzip\r\nContent-Encoding: ZSTD\r\n\r\n";
        let head = parse_head(head).unwrap().unwrap();
        let coding = Coding::from_head(&head);
        assert_eq!(coding.content_encoding.as_deref(), Some("gzip, zstd"));
        let body = stacked(&["gzip", "zstd"], &page);
        let got = decode(&body, &coding, 1 << 20).unwrap();
        assert_eq!(&got[..], &page[..]);
    }

    /// Each layer of a stack that the crawler already undid (its magic
    /// bytes absent, or for br and deflate a body that does not decode) is
    /// taken as undone, as a single coding is: a body declared `gzip, br`
    /// but stored only gzip-compressed, or plain, is still the page. A
    /// deflate layer over gzip or zstd is taken as undone by the magic
    /// bytes of the coding under it (`gzip, deflate` stored as gzip).
    #[test]
    fn a_layer_of_a_stack_already_undone_is_taken_as_undone() {
        let page = html_page();
        for (list, applied) in [
            ("gzip, br", &["gzip"][..]),
            ("gzip, br", &[]),
            ("br, gzip", &["br"]),
            ("br, gzip", &[]),
            ("gzip, zstd", &["gzip"]),
            ("zstd, gzip", &["zstd"]),
            ("gzip, deflate", &[]),
            ("gzip, deflate", &["gzip"]),
            ("zstd, deflate", &["zstd"]),
            ("deflate, gzip", &["deflate"]),
        ] {
            let body = stacked(applied, &page);
            let got = decode(&body, &coded(list), 1 << 20)
                .unwrap_or_else(|e| panic!("{list} {applied:?}: {e:?}"));
            assert_eq!(&got[..], &page[..], "{list} {applied:?}");
        }
    }

    /// A zstd payload that opens with a skippable frame (pzstd writes one
    /// before each frame) is zstd still applied, not a body the crawler
    /// undid.
    #[test]
    fn a_zstd_payload_opening_with_a_skippable_frame_is_decoded() {
        let page = html_page();
        let skippable = [
            &0x184D_2A50u32.to_le_bytes()[..],
            &4u32.to_le_bytes(),
            b"pzst",
        ]
        .concat();
        let body = [skippable, encode("zstd", &page)].concat();
        let got = decode(&body, &coded("zstd"), 1 << 20).unwrap();
        assert_eq!(&got[..], &page[..]);
    }

    /// 300 pages of seeded random words and their raw deflate streams,
    /// which start in many ways, as real pages' do (brotli gives bytes
    /// before it fails for four of them: pages 8, 25, 97 and 203).
    fn random_word_pages() -> impl Iterator<Item = (Vec<u8>, Vec<u8>)> {
        use std::io::Write;
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        (0..300).map(move |_| {
            let mut page = b"<html><body><p>".to_vec();
            for _ in 0..200 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                page.extend(
                    x.to_le_bytes()
                        .iter()
                        .take(1 + (x >> 61) as usize)
                        .map(|b| b'a' + b % 26),
                );
                page.push(b' ');
            }
            let mut e =
                flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::default());
            e.write_all(&page).unwrap();
            let body = e.finish().unwrap();
            (page, body)
        })
    }

    /// A brotli layer the crawler undid over raw deflate: brotli decodes a
    /// few bytes of many a deflate stream before it fails, and those bytes
    /// are no payload; the body reads as deflate, so the layer is undone.
    /// (Before, such a page failed, or came out as a few bytes of garbage.)
    #[test]
    fn a_brotli_layer_undone_over_raw_deflate_gives_the_page() {
        for (i, (page, body)) in random_word_pages().enumerate() {
            let got = decode(&body, &coded("deflate, br"), 1 << 20)
                .unwrap_or_else(|e| panic!("page {i}: {e:?}"));
            assert_eq!(&got[..], &page[..], "page {i}");
        }
    }

    /// Whether brotli decodes some bytes of `body` and then fails: a body
    /// that `deflate, br` tells from a brotli stream by inflating it.
    fn brotli_fails_late(body: &[u8]) -> bool {
        matches!(whole::unbrotli(body, 1 << 20), Ok((out, Some(_))) if !out.is_empty())
    }

    /// `decode`'s result and how many times it inflated.
    fn counting_inflations<'a>(
        body: &'a [u8],
        list: &str,
        limit: usize,
    ) -> (Result<Cow<'a, [u8]>, Rejection>, usize) {
        INFLATIONS.with(|n| n.set(0));
        let got = decode(body, &coded(list), limit);
        (got, INFLATIONS.with(Cell::get))
    }

    /// Under a brotli layer the crawler undid, a raw deflate body that
    /// brotli decodes a few bytes of is inflated once, not once to tell
    /// that it is deflate and again to undo the deflate layer, with the
    /// same page, and the same error when it inflates past the limit (the
    /// limit just at the page passes).
    #[test]
    fn a_deflate_layer_under_an_undone_brotli_layer_is_inflated_once() {
        let late: Vec<_> = random_word_pages()
            .filter(|(_, body)| brotli_fails_late(body))
            .collect();
        assert!(!late.is_empty());
        for (page, body) in &late {
            let (got, inflations) = counting_inflations(body, "deflate, br", 1 << 20);
            assert_eq!(&got.unwrap()[..], &page[..]);
            assert_eq!(inflations, 1);
            let (got, inflations) = counting_inflations(body, "deflate, br", page.len());
            assert_eq!(&got.unwrap()[..], &page[..]);
            assert_eq!(inflations, 1);
            let limit = page.len() - 1;
            let (got, inflations) = counting_inflations(body, "deflate, br", limit);
            assert!(
                matches!(
                    &got,
                    Err(Rejection::Error(WarcError::PayloadTooLarge { coding, limit: l }))
                        if coding == "deflate" && *l == limit
                ),
                "{got:?}"
            );
            assert_eq!(inflations, 1);
        }
    }

    /// A raw deflate body cut short under `deflate, deflate` fails to
    /// inflate to its end as the outer layer; whether it reads as the
    /// deflate stream under it is told by its (missing) zlib header, not by
    /// inflating it a second time to fail the same. What came before the
    /// cut is kept, as before, and the inner layer takes it as HTML.
    #[test]
    fn a_deflate_layer_that_fails_over_deflate_is_not_inflated_again() {
        let (page, body) = random_word_pages().next().unwrap();
        let cut = &body[..body.len() / 2];
        assert!(!opens_zlib(cut));
        let (got, inflations) = counting_inflations(cut, "deflate, deflate", 1 << 20);
        let got = got.unwrap();
        assert!(!got.is_empty() && page.starts_with(&got), "{got:?}");
        // The outer layer's inflation and the inner one's, of the HTML.
        assert_eq!(inflations, 2);
    }

    /// An inner layer that takes far more than it gives (a skippable zstd
    /// frame compressed again: a few KiB of record for 33 MiB of decoding)
    /// is damaged, as the fetcher finds it (`STACK_SLACK`), not a page that
    /// decoded to nothing; one a little over its output is a page.
    #[test]
    fn an_inner_layer_taking_far_more_than_it_gives_is_damaged() {
        let skippable = |size: usize| {
            let len = u32::try_from(size).unwrap().to_le_bytes();
            [&0x184D_2A50u32.to_le_bytes()[..], &len, &vec![0; size]].concat()
        };
        let page = html_page();
        let limit = 64 << 20;
        let large = usize::try_from(STACK_SLACK).unwrap() + (1 << 20);
        let inner = [skippable(large), encode("zstd", &page)].concat();
        let body = encode("zstd", &inner);
        assert!(body.len() < 64 << 10);
        let got = decode(&body, &coded("zstd, zstd"), limit);
        let error = match &got {
            Err(Rejection::Error(WarcError::BadPayload(m))) => m.as_str(),
            Ok(out) => panic!("{} bytes came out", out.len()),
            Err(e) => panic!("{e:?}"),
        };
        assert!(error.contains("inner zstd"), "{error}");
        let inner = [skippable(1 << 20), encode("zstd", &page)].concat();
        let body = encode("zstd", &inner);
        let got = decode(&body, &coded("zstd, zstd"), limit).unwrap();
        assert_eq!(&got[..], &page[..]);
    }

    /// Each layer's output is bounded by the limit: an inner layer that
    /// decodes past it, and an outer one that does (whatever its output
    /// would have decoded to), are refused naming their coding.
    #[test]
    fn each_layer_of_a_stack_is_bounded_by_the_limit() {
        const LIMIT: usize = 64 << 10;
        let mut big = b"<html><body><p>".to_vec();
        big.resize(LIMIT + 1, b'a');
        let too_large = |got: Result<Cow<[u8]>, Rejection>, coding: &str| {
            assert!(
                matches!(
                    &got,
                    Err(Rejection::Error(WarcError::PayloadTooLarge { coding: c, limit }))
                        if c == coding && *limit == LIMIT
                ),
                "{got:?}"
            );
        };
        // The inner layer (gzip, undone last) is the bomb.
        let body = stacked(&["gzip", "zstd"], &big);
        assert!(body.len() < LIMIT / 10);
        too_large(decode(&body, &coded("gzip, zstd"), LIMIT), "gzip");
        // The outer layer (gzip, undone first) decodes past the limit.
        let body = encode("gzip", &big);
        too_large(decode(&body, &coded("br, gzip"), LIMIT), "gzip");
        // Just at the limit, both layers pass.
        let body = stacked(&["gzip", "zstd"], &big[..LIMIT]);
        let got = decode(&body, &coded("gzip, zstd"), LIMIT).unwrap();
        assert_eq!(got.len(), LIMIT);
    }

    /// More than `MAX_CODINGS` stacked are not decoded, as a coding not
    /// decoded here is not: a body that reads as HTML is taken as it is,
    /// any other skipped naming the whole list.
    #[test]
    fn more_codings_than_max_codings_are_treated_as_an_unknown_coding() {
        let page = html_page();
        let codings = ["gzip", "br", "zstd"];
        let list = codings.join(", ");
        for n in 1..=MAX_CODINGS {
            let body = stacked(&codings[..n], &page);
            let got = decode(&body, &coded(&codings[..n].join(", ")), 1 << 20).unwrap();
            assert_eq!(&got[..], &page[..], "{n}");
        }
        let body = stacked(&codings, &page);
        let skipped = decode(&body, &coded(&list), 1 << 20);
        assert!(
            matches!(&skipped, Err(Rejection::Skip(SkipReason::Encoding(e))) if *e == list),
            "{skipped:?}"
        );
        let got = decode(&page, &coded(&list), 1 << 20).unwrap();
        assert_eq!(&got[..], &page[..]);
    }
}
