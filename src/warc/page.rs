//! A record's payload on its way to the core: undoes what the HTTP layer
//! left encoded, sniffs when no type was declared, and extracts. It does no
//! I/O.

use super::http::{self, Coding, Rejection};
use super::reader::SkipReason;
use super::stream::RecordPos;
use crate::{Document, Extractor, Hints};

/// An HTML record, read and ready for the core.
#[derive(Debug, Clone)]
pub struct Page {
    pub pos: RecordPos,
    pub record_id: String,
    pub target_uri: Option<String>,
    /// The record's `WARC-Date` as written; the writers put it in one
    /// form, UTC to the second (`writer::Source::warc_date`).
    pub date: Option<String>,
    /// The HTTP response's date as a WARC-Date (`response` records only):
    /// its first `Date` header that reads as a date, as
    /// `date::parse_http_date` reads one; a server or proxy may send an
    /// empty or broken one before the right one. The WET writer dates a
    /// conversion by it when the record has no usable `WARC-Date`
    /// ([`crate::sink::Source::http_date`]).
    pub http_date: Option<String>,
    /// `response` or `resource`.
    pub warc_type: String,
    /// Why the payload is not whole, when it is not: the record's
    /// `WARC-Truncated` reason (`length`, `time`, `disconnect`,
    /// `unspecified`, ...), or `segment` for the first segment of a
    /// segmented record (`WARC-Segment-Number: 1`; the continuations are
    /// skipped). The page is extracted from what there is.
    pub truncated: Option<String>,
    /// The HTTP body as stored (possibly chunked or content-encoded).
    pub body: Vec<u8>,
    /// From the Content-Type header.
    pub charset: Option<String>,
    pub coding: Coding,
    /// No type was declared: sniff the payload.
    pub sniff: bool,
    /// What the reader mended to read the record; none for a record read
    /// as written.
    pub repairs: Repairs,
}

/// What the reader mended to read a record, as warcio and FastWARC read
/// past it too, but said: each is flagged on the record's document
/// (`warc_repaired` in JSONL) and counted in the summary.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Repairs {
    /// The Content-Length was off by this many bytes (more than zero: the
    /// record is longer than it says), and the record's end was found
    /// where the next record starts (`record::Parser::end_record`).
    pub length: Option<i8>,
    /// The file ends inside the record (a gzip member, zstd or LZ4 frame,
    /// or a plain file, cut short): the payload is what decoded before the
    /// cut, and the record is flagged `truncated: cut` too.
    pub cut: bool,
    /// The WARC-Date is malformed and was read by the fallback
    /// (`date::record_warc_date`: a day of the year written for the day
    /// of the month, as ClueWeb09's `2008-10-294T05:21:46-0700`).
    pub date: bool,
}

impl Repairs {
    pub fn is_empty(&self) -> bool {
        *self == Repairs::default()
    }

    /// The names of the repairs made, as JSONL's `warc_repaired` and the
    /// summary write them: `content_length`, `cut`, `date`.
    pub fn names(&self) -> Vec<&'static str> {
        let mut names = Vec::new();
        if self.length.is_some() {
            names.push("content_length");
        }
        if self.cut {
            names.push("cut");
        }
        if self.date {
            names.push("date");
        }
        names
    }
}

impl Page {
    /// What the core should know besides the bytes.
    pub fn hints(&self) -> Hints {
        Hints {
            url: self.target_uri.clone(),
            charset: self.charset.clone(),
            fallback_charset: None,
        }
    }

    /// The record's `WARC-Date` as written, when it has one that names no
    /// instant to the second (blank, malformed, or WARC 1.1's coarser
    /// `2024-05`): both writers take it as no date (`null` in JSONL, the
    /// HTTP `Date` in WET), and `linesift warc` says so.
    pub fn unread_date(&self) -> Option<&str> {
        let date = self.date.as_deref()?;
        super::date::record_warc_date(date)
            .is_none()
            .then_some(date)
    }

    /// The payload as the server meant it, at most `limit` bytes.
    pub fn payload(&self, limit: usize) -> Result<std::borrow::Cow<'_, [u8]>, Rejection> {
        let bytes = http::decode(&self.body, &self.coding, limit)?;
        if self.sniff && !http::looks_like_html(&bytes) {
            let reason = SkipReason::NotHtml("sniffed".into());
            return Err(Rejection::Skip(reason));
        }
        Ok(bytes)
    }

    /// Decodes and extracts the page.
    pub fn extract(&self, extractor: &Extractor) -> Result<Document, PageError> {
        let limit = extractor.options().max_bytes;
        let bytes = self.payload(limit).map_err(|r| match r {
            Rejection::Skip(reason) => PageError::Skip(reason),
            Rejection::Error(e) => PageError::Payload(e),
        })?;
        extractor
            .extract(&bytes, &self.hints())
            .map_err(PageError::Extract)
    }
}

/// Why a page gave no document.
#[derive(Debug, thiserror::Error)]
pub enum PageError {
    #[error("skipped: {}", .0.key())]
    Skip(SkipReason),
    #[error(transparent)]
    Payload(super::WarcError),
    #[error("extraction failed: {0}")]
    Extract(crate::ExtractError),
}
