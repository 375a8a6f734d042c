//! ARC v1 record headers (the Internet Archive's format before WARC, of
//! the 2008–2012 crawls), read as warcio reads them and turned into the
//! WARC head the rest of the reader knows: an ARC record is a `response`
//! record, the file's `filedesc://` record (with its version block) a
//! `warcinfo` one. The framing around them (blank lines, gzip members,
//! bodies) is `record`'s; this file only reads a header line.
//!
//! A header line is `URL IP-address Archive-date Content-type
//! Archive-length`, the length counting the bytes after the line's end.
//! As warcio does, the line is split at its last four spaces, so a URL with
//! a space in it stays whole (its spaces written `%20`, as warcio writes
//! them). The date (`YYYYMMDDhhmmss`, UTC) becomes a
//! `WARC-Date`; ARC records have no id, so each gets a `WARC-Record-ID`
//! made from its header line and its place in the file (a UUID-shaped
//! BLAKE3 digest): the same record read again, whole or by its offset,
//! gets the same id.

use super::error::WarcError;
use super::record::Head;
use super::stream::RecordPos;

/// The version every ARC head carries in place of a WARC version.
pub const VERSION: &str = "ARC/1.0";

/// The five fields of an ARC v1 header line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ArcHeader<'a> {
    pub url: &'a str,
    pub ip: &'a str,
    pub date: &'a str,
    pub content_type: &'a str,
    pub length: u64,
}

/// Reads an ARC v1 header line (without its line end): five fields, the
/// URL first and possibly holding spaces, the length last and a number.
/// The date must be digits (8 at least), as ARC writers write it; anything
/// looser is no header line (resynchronising after a bad record skips to
/// a line that is one).
pub fn parse_header_line(line: &[u8]) -> Result<ArcHeader<'_>, WarcError> {
    let bad = || {
        let shown = String::from_utf8_lossy(&line[..line.len().min(80)]).into_owned();
        WarcError::BadHeader(format!("not an ARC header line: {shown:?}"))
    };
    let text = std::str::from_utf8(line).map_err(|_| bad())?.trim_end();
    let mut parts = text.rsplitn(5, ' ');
    let (Some(length), Some(content_type), Some(date), Some(ip), Some(url)) = (
        parts.next(),
        parts.next(),
        parts.next(),
        parts.next(),
        parts.next(),
    ) else {
        return Err(bad());
    };
    let url = url.trim();
    let length = length.parse::<u64>().map_err(|_| bad())?;
    let date_ok = date.len() >= 8 && date.bytes().all(|b| b.is_ascii_digit());
    if url.is_empty() || url.contains(['\r', '\n']) || !date_ok || length > i64::MAX as u64 {
        return Err(bad());
    }
    Ok(ArcHeader {
        url,
        ip,
        date,
        content_type,
        length,
    })
}

/// Whether `bytes` begin with a whole ARC header line (line ends before
/// it allowed): where an index points into an ARC file.
pub fn begins_with_header(bytes: &[u8]) -> bool {
    let rest = after_line_ends(bytes);
    memchr::memchr(b'\n', rest).is_some_and(|end| parse_header_line(&rest[..end]).is_ok())
}

/// Whether `bytes`, all there is of a member or file (its end cuts them),
/// begin with a header line that end cut short: line ends allowed before
/// it, then a line with no line end that [may begin](may_begin_header) a
/// header line. Where an index points into an ARC file cut there.
pub fn begins_with_cut_header(bytes: &[u8]) -> bool {
    let rest = after_line_ends(bytes);
    memchr::memchr(b'\n', rest).is_none() && may_begin_header(rest)
}

/// `bytes` from their first byte that is no line end.
fn after_line_ends(bytes: &[u8]) -> &[u8] {
    let blank = bytes
        .iter()
        .take_while(|b| matches!(b, b'\r' | b'\n'))
        .count();
    &bytes[blank..]
}

/// Whether `partial`, a line the end of its file cut before its line end,
/// may be the start of a header line: it is one already, or it begins as
/// a URL does, with a scheme (or the start of one: `http://padded`,
/// `dns:a.ex`, `htt`). Other bytes (NUL padding, the rest of a page) are
/// no header line, cut or not.
pub fn may_begin_header(partial: &[u8]) -> bool {
    if parse_header_line(partial).is_ok() {
        return true;
    }
    let scheme = match memchr::memchr(b':', partial) {
        Some(end) => &partial[..end],
        None => partial,
    };
    scheme.len() <= MAX_SCHEME
        && scheme.first().is_some_and(u8::is_ascii_alphabetic)
        && scheme
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'))
}

/// The longest URL scheme a cut header line is taken to begin with.
const MAX_SCHEME: usize = 32;

/// The WARC head of the ARC record at `pos` whose header line is `line`
/// (`header` read from it): `warcinfo` for the `filedesc://` record,
/// `response` for the others, with the fields warcio's ARC-to-WARC reading
/// gives (`WARC-Target-URI` or, for `filedesc://`, `WARC-Filename`;
/// `WARC-IP-Address`, `WARC-Date`, `Content-Length`) and a made
/// `WARC-Record-ID`. The ARC content type is not kept (warcio replaces
/// it too): the HTTP head inside the body says what the payload is, as
/// for a WARC response.
pub fn head(header: &ArcHeader, line: &[u8], pos: RecordPos) -> Head {
    let (kind, uri_field, uri) = match header.url.strip_prefix("filedesc://") {
        Some(name) => ("warcinfo", "WARC-Filename", name),
        None => ("response", "WARC-Target-URI", header.url),
    };
    // A space is no part of a URI: warcio writes it `%20` too.
    let uri = uri.replace(' ', "%20");
    let fields = vec![
        ("WARC-Type".to_string(), kind.to_string()),
        ("WARC-Record-ID".to_string(), record_id(line, pos)),
        (uri_field.to_string(), uri),
        ("WARC-IP-Address".to_string(), header.ip.to_string()),
        ("WARC-Date".to_string(), warc_date(header.date)),
        ("Content-Length".to_string(), header.length.to_string()),
    ];
    Head {
        pos,
        version: VERSION.to_string(),
        fields,
    }
}

/// An ARC date as a WARC-Date: its first 14 digits as
/// `YYYY-MM-DDThh:mm:ssZ` (ARC dates are UTC; digits past 14 are dropped,
/// as warcio drops them). A shorter date is kept as it is, digits only: it
/// names no instant to the second, and is counted as a WARC-Date not read.
fn warc_date(date: &str) -> String {
    let d = date.as_bytes();
    if d.len() < 14 {
        return date.to_string();
    }
    let part = |from: usize, to: usize| &date[from..to];
    format!(
        "{}-{}-{}T{}:{}:{}Z",
        part(0, 4),
        part(4, 6),
        part(6, 8),
        part(8, 10),
        part(10, 12),
        part(12, 14)
    )
}

/// A record id for an ARC record, which has none: a UUID-shaped BLAKE3
/// digest of its header line and its position, as `<urn:uuid:...>`.
fn record_id(line: &[u8], pos: RecordPos) -> String {
    let mut hasher = blake3::Hasher::new();
    hasher.update(b"arc-record\0");
    hasher.update(&pos.offset.to_le_bytes());
    hasher.update(&pos.inner.to_le_bytes());
    hasher.update(line);
    let hex = hasher.finalize().to_hex();
    let h = hex.as_str();
    format!(
        "<urn:uuid:{}-{}-{}-{}-{}>",
        &h[0..8],
        &h[8..12],
        &h[12..16],
        &h[16..20],
        &h[20..32]
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The five fields, a URL with a space in it kept whole (split at the
    /// last four spaces, as warcio does), and lines that are no header.
    #[test]
    fn header_lines_are_split_at_their_last_four_spaces() {
        let h =
            parse_header_line(b"http://a.example/ 192.0.2.1 20080101000001 text/html 56").unwrap();
        assert_eq!(
            h,
            ArcHeader {
                url: "http://a.example/",
                ip: "192.0.2.1",
                date: "20080101000001",
                content_type: "text/html",
                length: 56,
            }
        );
        let spaced =
            parse_header_line(b"http://a.example/a b.html 192.0.2.1 20080101000001 text/html 7\r")
                .unwrap();
        assert_eq!(
            (spaced.url, spaced.length),
            ("http://a.example/a b.html", 7)
        );
        for bad in [
            &b""[..],
            b"WARC/1.0",
            b"http://a.example/ 192.0.2.1 20080101000001 text/html",
            b"http://a.example/ 192.0.2.1 20080101000001 text/html x56",
            b"http://a.example/ 192.0.2.1 2008-01-01 text/html 56",
            b"http://a.example/ 192.0.2.1 2008 text/html 56",
            b" 192.0.2.1 20080101000001 text/html 56",
            b"<p>some text of a page that is not a header</p>",
        ] {
            assert!(parse_header_line(bad).is_err(), "{bad:?}");
        }
    }

    /// The head a record gets: a response (or warcinfo for `filedesc://`),
    /// its date as a WARC-Date, and an id that depends on its line and
    /// place only.
    #[test]
    fn heads_are_warc_responses_with_a_stable_made_id() {
        let line = b"http://a.example/ 192.0.2.1 20080101000001 text/html 56";
        let header = parse_header_line(line).unwrap();
        let pos = RecordPos {
            offset: 120,
            inner: 0,
        };
        let head = head(&header, line, pos);
        assert_eq!(head.record_type(), "response");
        assert_eq!(head.get("WARC-Target-URI"), Some("http://a.example/"));
        assert_eq!(head.get("WARC-Date"), Some("2008-01-01T00:00:01Z"));
        assert_eq!(head.content_length(), Some(56));
        let id = head.record_id().unwrap().to_string();
        assert!(id.starts_with("<urn:uuid:") && id.len() == 47, "{id}");
        assert_eq!(super::head(&header, line, pos).record_id(), Some(&id[..]));
        let elsewhere = RecordPos { offset: 121, ..pos };
        assert_ne!(
            super::head(&header, line, elsewhere).record_id(),
            Some(&id[..])
        );
        let desc = b"filedesc://x.arc 0.0.0.0 20080101000000 text/plain 68";
        let header = parse_header_line(desc).unwrap();
        let head = super::head(&header, desc, RecordPos::default());
        assert_eq!(head.record_type(), "warcinfo");
        assert_eq!(head.get("WARC-Filename"), Some("x.arc"));
        assert_eq!(warc_date("200801011200"), "200801011200");
        assert_eq!(warc_date("2008010112000099"), "2008-01-01T12:00:00Z");
    }

    #[test]
    fn a_header_line_is_told_where_an_index_points() {
        assert!(begins_with_header(
            b"\nhttp://a.example/ 192.0.2.1 20080101000001 text/html 56\nHTTP/1.0"
        ));
        assert!(!begins_with_header(
            b"http://a.example/ 192.0.2.1 20080101000001 text/html 56"
        ));
        assert!(!begins_with_header(b"WARC/1.0\r\n"));
    }

    /// A line cut before its line end may begin a header line when it
    /// begins as a URL does; a whole line, or other bytes, does not.
    #[test]
    fn a_header_line_cut_short_is_told_from_other_bytes() {
        for cut in [
            &b"http://padded"[..],
            b"\r\nhttp://a.example/ 192.0.2.1 2008",
            b"htt",
            b"dns:a.example 192.0.2.1 20080101000001 text/dns 5",
            b"filedesc://x.arc 0.0.0.0 20080101000000 text/plain 68\r",
        ] {
            assert!(begins_with_cut_header(cut), "{cut:?}");
        }
        for other in [
            &b""[..],
            b"\r\n",
            b"http://padded\n",
            b"\0\0\0\0",
            b"<p>the rest of a page</p>",
            b" http://a.example/",
            b"1http://a.example/",
            &[b'a'; 40][..],
        ] {
            assert!(!begins_with_cut_header(other), "{other:?}");
        }
    }
}
