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
