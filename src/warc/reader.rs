//! The record reader: turns the framed records of one WARC file into
//! [`Item`]s. Records for the core (HTML `response` and `resource`
//! records) carry their payload, bounded by `max_payload`, and say when it
//! is not whole (`WARC-Truncated`, or the first segment of a segmented
//! record); everything else, continuation segments included, is skipped
//! with a reason, streaming its body without buffering it.
//! Record-level problems become [`Item::Bad`] and reading carries on; so
//! does a corrupt gzip member or zstd frame, or one decompressing past
//! `max_member` (one [`Item::Bad`] at the member's offset, then the next
//! member). An error from the iterator ends the file (truncation, a
//! missing dictionary, an I/O error).

use super::date;
use super::error::WarcError;
use super::http::{self, Coding, HttpHead, Kind};
use super::page::{Page, Repairs};
use super::record::{Ending, Head, LengthFix, Next, Parser};
use super::stream::{RecordPos, Stream};
use crate::codec::container::{self as compression, Start};
use std::io::Read;

/// How much of a `response` body is read to find its HTTP head.
const HTTP_HEAD_LIMIT: usize = 64 * 1024;

/// The reader's limits (see README "Resource limits").
#[derive(Debug, Clone, Copy)]
pub struct ReaderOptions {
    /// Records whose payload (as stored, before Content-Encoding is undone)
    /// is larger are skipped as [`SkipReason::TooLarge`] without buffering
    /// more than this (a page lost to the limit: a `too_large` failure by
    /// [`driver`](super::driver)'s rules); reading goes on with the next
    /// record.
    pub max_payload: usize,
    /// Decompressed bytes of one gzip member, zstd or LZ4 frame. Over it the
    /// member is given up as [`ContainerError::MemberTooLarge`](crate::codec::error::ContainerError::MemberTooLarge) (an
    /// [`Item::Bad`]) and reading goes on with the next one: that is a
    /// bomb, or a whole-file-compressed WARC larger than allowed (such a
    /// file is one member, so keep this above the largest one you read).
    pub max_member: u64,
}

/// Default of [`ReaderOptions::max_payload`]: 64 MiB.
pub const DEFAULT_MAX_PAYLOAD: usize = 64 * 1024 * 1024;
/// Default of [`ReaderOptions::max_member`]: 16 GiB.
pub const DEFAULT_MAX_MEMBER: u64 = 16 * 1024 * 1024 * 1024;

impl Default for ReaderOptions {
    fn default() -> Self {
        ReaderOptions {
            max_payload: DEFAULT_MAX_PAYLOAD,
            max_member: DEFAULT_MAX_MEMBER,
        }
    }
}

/// Why a well-formed record is not given to the core.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SkipReason {
    /// `warcinfo`, `request`, `metadata`, `revisit`, ...
    RecordType(String),
    /// A `response` record without an HTTP response (e.g. `dns:`).
    NotHttp,
    /// A `response` or `resource` record that goes on with a payload
    /// begun in an earlier record (`WARC-Segment-Number` past 1): only a
    /// first segment starts a page.
    Continuation,
    /// An HTTP status other than 2xx.
    Status(u16),
    /// A media type other than HTML (or bytes that do not look like HTML).
    NotHtml(String),
    TooLarge,
    /// A Content-Encoding we cannot undo.
    Encoding(String),
}

impl SkipReason {
    /// A short key to count reasons by.
    pub fn key(&self) -> String {
        match self {
            SkipReason::RecordType(t) if t.is_empty() => "type:none".into(),
            SkipReason::RecordType(t) => format!("type:{t}"),
            SkipReason::NotHttp => "not-http".into(),
            SkipReason::Continuation => "continuation".into(),
            SkipReason::Status(s) => format!("status:{}xx", s / 100),
            SkipReason::NotHtml(_) => "not-html".into(),
            SkipReason::TooLarge => "too-large".into(),
            SkipReason::Encoding(e) => format!("content-encoding:{e}"),
        }
    }
}

/// The most of a payload's declared length reserved before its bytes
/// arrive.
const RESERVE_CAP: usize = 4 << 20;

#[derive(Debug)]
pub enum Item {
    /// A record for the core.
    Page(Page),
    Skipped {
        pos: RecordPos,
        reason: SkipReason,
    },
    /// A record (or bytes) that could not be read; reading carries on.
    Bad {
        pos: RecordPos,
        error: WarcError,
    },
}

impl Item {
    /// Where the record is.
    pub fn pos(&self) -> RecordPos {
        match self {
            Item::Page(page) => page.pos,
            Item::Skipped { pos, .. } | Item::Bad { pos, .. } => *pos,
        }
    }
}

pub struct WarcReader<'r> {
    parser: Parser<'r>,
    options: ReaderOptions,
    done: bool,
    /// The item read after a failed record, to see whether its member
    /// failed too (see [`WarcReader::one_failure`]).
    pending: Option<Result<Item, WarcError>>,
}

impl<'r> WarcReader<'r> {
    /// Reads a whole file (or stream) from its start.
    pub fn new<R: Read + Send + 'r>(inner: R, options: ReaderOptions) -> Result<Self, WarcError> {
        Self::at(inner, 0, options)
    }

    /// Reads from a stream whose first byte is at file offset `base`,
    /// as [`WarcReader::new`] reads a file: junk before the first member
    /// or record is skipped (and reported).
    pub fn at<R: Read + Send + 'r>(
        inner: R,
        base: u64,
        options: ReaderOptions,
    ) -> Result<Self, WarcError> {
        Self::open(inner, base, Start::File, options)
    }

    /// Reads the record that starts at file offset `base`, where `inner`
    /// begins (or a zstd dictionary frame put before it): a gzip member
    /// or zstd frame there must begin with the record (line ends allowed
    /// before it), or reading fails at once with [`WarcError::NoRecordAt`]:
    /// nothing past that first member is looked at to find a record.
    pub fn record_at<R: Read + Send + 'r>(
        inner: R,
        base: u64,
        options: ReaderOptions,
    ) -> Result<Self, WarcError> {
        Self::open(inner, base, Start::Record, options)
    }

    fn open<R: Read + Send + 'r>(
        inner: R,
        base: u64,
        start: Start,
        options: ReaderOptions,
    ) -> Result<Self, WarcError> {
        let layer = compression::open(inner, base, start, options.max_member, options.max_payload)?;
        let stream = Stream::new(layer);
        let parser = match start {
            Start::File => Parser::new(stream),
            Start::Record => Parser::at_record(stream),
        };
        Ok(WarcReader {
            parser,
            options,
            done: false,
            pending: None,
        })
    }

    /// Compressed bytes read so far.
    pub fn file_offset(&self) -> u64 {
        self.parser.file_offset()
    }

    pub fn compression(&self) -> compression::Compression {
        self.parser.compression()
    }

    fn read_item(&mut self) -> Result<Option<Item>, WarcError> {
        let item = match self.parser.next_head() {
            Ok(Next::End) => Ok(None),
            Ok(Next::Bad { pos, error }) => Ok(Some(Item::Bad { pos, error })),
            Ok(Next::Record(head)) => self.record(head).map(Some),
            Err(e) => Err(e),
        };
        match item {
            // The member is lost, with the record(s) in it; the file is not.
            Err(error) => match error.lost_member() {
                Some(offset) => {
                    self.parser.abandon_member();
                    let pos = RecordPos { offset, inner: 0 };
                    Ok(Some(Item::Bad { pos, error }))
                }
                None => Err(error),
            },
            other => other,
        }
    }

    fn record(&mut self, head: Head) -> Result<Item, WarcError> {
        let pos = head.pos;
        let item = self.classify(&head);
        if let Err(e) = &item
            && !e.is_record_level()
        {
            // The stream itself failed: there is no boundary to check, and
            // looking for one could read on into the next member.
            return item;
        }
        let boundary = self.parser.end_record();
        match (item, boundary) {
            (Err(e), _) | (_, Err(e)) if !e.is_record_level() => Err(e),
            (_, Err(error)) | (Err(error), _) => Ok(Item::Bad { pos, error }),
            (Ok(item), Ok(ending)) if ending == Ending::default() => Ok(item),
            (Ok(item), Ok(ending)) => Ok(mend(item, ending)),
        }
    }

    fn classify(&mut self, head: &Head) -> Result<Item, WarcError> {
        let pos = head.pos;
        if head.record_id().is_none() {
            return Err(WarcError::MissingField("WARC-Record-ID"));
        }
        let skip = |reason| Ok(Item::Skipped { pos, reason });
        match head.record_type() {
            "response" | "resource" if continues_a_payload(head) => skip(SkipReason::Continuation),
            "response" => self.response(head),
            "resource" => {
                let kind = http::kind(
                    head.get("WARC-Identified-Payload-Type"),
                    head.get("Content-Type"),
                );
                let charset = head.get("Content-Type").and_then(http::charset);
                self.page(head, kind, Vec::new(), charset, None)
            }
            other => skip(SkipReason::RecordType(other.to_string())),
        }
    }

    fn response(&mut self, head: &Head) -> Result<Item, WarcError> {
        let pos = head.pos;
        // The head is parsed where it lies in the stream's buffer; only
        // the payload after it is copied, once, into the page.
        let want = HTTP_HEAD_LIMIT
            .min(usize::try_from(self.parser.body_remaining()).unwrap_or(usize::MAX));
        let prefix = self.parser.peek_body(HTTP_HEAD_LIMIT)?;
        let short = prefix.len() < want;
        // Short: the member ends within the first bytes, perhaps within
        // `HTTP/` itself; the copy below tells.
        let http_like = prefix.starts_with(b"HTTP/") || (short && b"HTTP/".starts_with(prefix));
        if !http_like {
            let reason = SkipReason::NotHttp;
            return Ok(Item::Skipped { pos, reason });
        }
        let parsed = match prefix.starts_with(b"HTTP/") {
            true => http::parse_head(prefix)?,
            false => None,
        };
        let (http, body) = match parsed {
            Some(http) => {
                self.parser.consume_body(http.len);
                (http, Vec::new())
            }
            // The head runs on into the next member (a stream whose members
            // do not follow records): gather it in a copy.
            None if short => {
                let copy = self.read_body(HTTP_HEAD_LIMIT)?;
                let parsed = match copy.starts_with(b"HTTP/") {
                    true => http::parse_head(&copy)?,
                    false => None,
                };
                if let Some(http) = parsed {
                    let body = copy[http.len..].to_vec();
                    (http, body)
                } else if let Some(cut) = self.parser.take_cut() {
                    // The file ends inside the HTTP head: the file's end is
                    // told, not the bad or non-HTTP record it made.
                    return Err(cut);
                } else if !copy.starts_with(b"HTTP/") {
                    let reason = SkipReason::NotHttp;
                    return Ok(Item::Skipped { pos, reason });
                } else {
                    return Err(no_head_end());
                }
            }
            None => return Err(no_head_end()),
        };
        if !(200..300).contains(&http.status) {
            let reason = SkipReason::Status(http.status);
            return Ok(Item::Skipped { pos, reason });
        }
        let declared = http.get("Content-Type");
        let kind = http::kind(head.get("WARC-Identified-Payload-Type"), declared);
        let charset = declared.and_then(http::charset);
        self.page(head, kind, body, charset, Some(&http))
    }

    /// The page of a record whose payload is read from here on, after
    /// `body` (what was read of it with its HTTP head `http`, if it is a
    /// response), or why it is skipped.
    fn page(
        &mut self,
        head: &Head,
        kind: Kind,
        mut body: Vec<u8>,
        charset: Option<String>,
        http: Option<&HttpHead>,
    ) -> Result<Item, WarcError> {
        let pos = head.pos;
        if let Kind::Other(t) = kind {
            let reason = SkipReason::NotHtml(t);
            return Ok(Item::Skipped { pos, reason });
        }
        // One allocation of the declared size for most pages. The declared
        // size is not trusted beyond RESERVE_CAP (a record cut short would
        // hold the rest reserved for nothing); past it the buffer grows as
        // bytes arrive. The limit plus one byte tells "over the limit".
        let limit = self.options.max_payload;
        let until = limit.saturating_add(1);
        let declared = (body.len() as u64).saturating_add(self.parser.body_remaining());
        let size = usize::try_from(declared)
            .unwrap_or(usize::MAX)
            .min(until)
            .min(RESERVE_CAP);
        body.reserve_exact(size.saturating_sub(body.len()));
        self.read_body_into(&mut body, until)?;
        if body.len() > limit {
            let reason = SkipReason::TooLarge;
            return Ok(Item::Skipped { pos, reason });
        }
        let date = head.get("WARC-Date");
        let repairs = Repairs {
            date: date.is_some_and(date::mended),
            ..Repairs::default()
        };
        Ok(Item::Page(Page {
            pos,
            record_id: head.record_id().unwrap_or_default().to_string(),
            target_uri: head.get("WARC-Target-URI").map(clean_uri),
            date: date.map(str::to_string),
            // Parsed only for a page, and once: the writer takes it as is.
            http_date: http.and_then(first_http_date),
            warc_type: head.record_type().to_string(),
            truncated: truncation(head),
            body,
            charset,
            coding: http.map(Coding::from_head).unwrap_or_default(),
            sniff: kind == Kind::Unknown,
            repairs,
        }))
    }

    /// Reads up to `limit` more bytes of the current body.
    fn read_body(&mut self, limit: usize) -> Result<Vec<u8>, WarcError> {
        let mut out = Vec::new();
        self.read_body_into(&mut out, limit)?;
        Ok(out)
    }

    /// Appends the current body to `out` until it holds `until` bytes.
    fn read_body_into(&mut self, out: &mut Vec<u8>, until: usize) -> Result<(), WarcError> {
        while out.len() < until {
            let chunk = self.parser.body_chunk()?;
            if chunk.is_empty() {
                break;
            }
            let n = chunk.len().min(until - out.len());
            out.extend_from_slice(&chunk[..n]);
            self.parser.consume_body(n);
        }
        Ok(())
    }
}

/// A page whose record did not end as written: its payload mended to
/// where the record really ends ([`LengthFix`]), or flagged as cut, and
/// the repair flagged. Other items are read on as they are.
fn mend(item: Item, ending: Ending) -> Item {
    let Item::Page(mut page) = item else {
        return item;
    };
    if ending.cut {
        page.repairs.cut = true;
        page.truncated = Some("cut".into());
    }
    match ending.fix {
        Some(LengthFix::Short(extra)) => {
            page.body.extend_from_slice(&extra);
            // At most `record::LENGTH_WINDOW` bytes.
            page.repairs.length = Some(i8::try_from(extra.len()).unwrap_or(i8::MAX));
        }
        Some(LengthFix::Long(k)) => {
            page.body.truncate(page.body.len().saturating_sub(k));
            page.repairs.length = Some(-i8::try_from(k).unwrap_or(i8::MAX));
        }
        None => {}
    }
    Item::Page(page)
}

/// Whether the record goes on with a payload begun in an earlier one: a
/// `WARC-Segment-Number` other than 1. A number that does not read as one
/// is taken as such too: nothing says the record starts a payload.
fn continues_a_payload(head: &Head) -> bool {
    head.get("WARC-Segment-Number")
        .is_some_and(|n| n.trim().parse::<u64>() != Ok(1))
}

/// Why a page's payload is not whole, if it is not: the `WARC-Truncated`
/// reason as given (`length`, `time`, `disconnect`, `unspecified`; an
/// empty one taken as `unspecified`), or else `segment` for the first
/// segment of a segmented record, which holds only the payload's start.
fn truncation(head: &Head) -> Option<String> {
    match head.get("WARC-Truncated").map(str::trim) {
        Some("") => Some("unspecified".into()),
        Some(reason) => Some(reason.to_string()),
        None => head
            .get("WARC-Segment-Number")
            .map(|_| "segment".to_string()),
    }
}

/// A response's date as a WARC-Date: its first `Date` header that reads
/// as a date (a server or proxy may send an empty or broken one before the
/// right one).
fn first_http_date(http: &HttpHead) -> Option<String> {
    http.get_all("Date")
        .find_map(date::parse_http_date)
        .map(date::warc_date)
}

fn no_head_end() -> WarcError {
    WarcError::BadHttp("no end of the HTTP headers in the first 64 KiB".into())
}

/// WARC 1.0 writers (and the spec's own grammar) put `<>` around URIs.
fn clean_uri(uri: &str) -> String {
    let uri = uri.trim();
    uri.strip_prefix('<')
        .and_then(|u| u.strip_suffix('>'))
        .unwrap_or(uri)
        .to_string()
}

impl WarcReader<'_> {
    fn read_next(&mut self) -> Option<Result<Item, WarcError>> {
        if self.done {
            return None;
        }
        match self.read_item() {
            Ok(Some(item)) => Some(Ok(item)),
            Ok(None) => {
                self.done = true;
                None
            }
            Err(e) => {
                self.done = true;
                Some(Err(e))
            }
        }
    }

    /// A record that failed, reported once: where its member then fails at
    /// the same position, the record's error (a wrong length, a bad head)
    /// came from the member's corrupt bytes, and the member's error is the
    /// one reported. Otherwise the next item waits for the next call.
    fn one_failure(&mut self, pos: RecordPos, error: WarcError) -> Item {
        match self.read_next() {
            Some(Ok(Item::Bad {
                pos: next,
                error: member,
            })) if next == pos && member.is_member_level() => Item::Bad { pos, error: member },
            next => {
                self.pending = next;
                Item::Bad { pos, error }
            }
        }
    }
}

impl Iterator for WarcReader<'_> {
    type Item = Result<Item, WarcError>;

    fn next(&mut self) -> Option<Self::Item> {
        let item = match self.pending.take() {
            Some(item) => item,
            None => self.read_next()?,
        };
        match item {
            Ok(Item::Bad { pos, error }) if error.is_record_level() => {
                Some(Ok(self.one_failure(pos, error)))
            }
            other => Some(other),
        }
    }
}
