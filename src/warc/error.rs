//! Errors of the WARC layers. A failure of the file's compression or of
//! reading its bytes (I/O, truncation, a corrupt member, garbage between
//! members or records, a member past `max_member`) is a
//! [`ContainerError`], told as it is there; the variants here are the WARC
//! layers' own (headers, records, payloads, indexes, remote locations).
//! Record-level errors (`BadHeader` and friends) let the reader carry on
//! with the next record; member-level ones
//! ([`ContainerError::is_member_level`]) with the next member; the others
//! end the file. It does not decide what to print or how to count: the
//! caller does.

use crate::codec::error::ContainerError;
use thiserror::Error;

#[derive(Debug, Error)]
pub enum WarcError {
    /// The file could not be opened (missing, not permitted, a
    /// directory): told as the system tells it, the caller names the file.
    #[error(transparent)]
    Open(std::io::Error),
    /// The file's bytes or their compression failed: an I/O error, a file
    /// that ends inside a compressed member or a record, a corrupt or
    /// too-large member, a dictionary missing or bad, or garbage before the
    /// next member or record. Told as the container tells it. A format that
    /// is not read comes as `NotWarc`, not as this.
    #[error(transparent)]
    Container(ContainerError),
    /// The input is neither a WARC file nor a compressed one.
    #[error("not a WARC file: {0}")]
    NotWarc(String),
    /// Where an index points (`--offset`, a worker's record task), no
    /// record starts: no gzip member, zstd or LZ4 frame or `WARC/` line, or a
    /// member that does not begin with a record (a stale or wrong index
    /// line). Nothing after it is read to look for one.
    #[error("no record starts at offset {offset}: {what}")]
    NoRecordAt { offset: u64, what: &'static str },
    /// The record at `offset` goes on past the `length` an index gave it,
    /// in a file that does not end there: the length is too short (a
    /// wrong index line), not the file.
    #[error(
        "the record at offset {offset} goes on past its given length of {length} bytes; \
         the file does not end there"
    )]
    PastLength { offset: u64, length: u64 },
    /// A remote WARC location cannot be read, and another try would not
    /// change that (missing, forbidden, a 200 to a range request, changed
    /// while read). A failure that may pass (a wrong Content-Range among
    /// them) is an I/O error ([`WarcError::io`]), tried again first.
    #[error("{0}")]
    Remote(String),
    /// A record header that cannot be parsed.
    #[error("bad record header: {0}")]
    BadHeader(String),
    /// A mandatory WARC field is missing.
    #[error("record has no {0} field")]
    MissingField(&'static str),
    /// The declared Content-Length does not fit the record.
    #[error("Content-Length {declared} is wrong: {detail}")]
    LengthMismatch { declared: u64, detail: &'static str },
    /// The HTTP response inside a `response` record cannot be parsed.
    #[error("bad HTTP response: {0}")]
    BadHttp(String),
    /// A payload's Content-Encoding decodes to more than the core's page
    /// limit (`Options::max_bytes`).
    #[error("{coding}-encoded payload decodes to more than the limit of {limit} bytes (max_bytes)")]
    PayloadTooLarge { coding: String, limit: usize },
    /// The payload's transfer or content coding cannot be undone.
    #[error("cannot decode the payload: {0}")]
    BadPayload(String),
}

impl WarcError {
    /// Reading the file (or a remote location) failed near `offset`.
    pub fn io(offset: u64, source: std::io::Error) -> Self {
        WarcError::Container(ContainerError::Io { offset, source })
    }

    /// The file ends at `offset`, inside `what` (a member or a record).
    pub fn truncated(offset: u64, what: impl Into<String>) -> Self {
        WarcError::Container(ContainerError::Truncated {
            offset,
            what: what.into(),
        })
    }

    /// `len` bytes between records that are not a record.
    pub fn garbage(len: u64) -> Self {
        WarcError::Container(ContainerError::Garbage { len })
    }

    /// Whether the message says where in the file it happened (an
    /// offset), or needs no place (a file that did not open): a report
    /// adds no offset of its own to it.
    pub fn names_its_place(&self) -> bool {
        match self {
            WarcError::Open(_) | WarcError::NoRecordAt { .. } | WarcError::PastLength { .. } => {
                true
            }
            WarcError::Container(e) => match e {
                ContainerError::Io { .. }
                | ContainerError::Truncated { .. }
                | ContainerError::Corrupt { .. }
                | ContainerError::MissingDictionary { .. }
                | ContainerError::BadDictionary { .. }
                | ContainerError::MemberTooLarge { .. } => true,
                ContainerError::Unsupported(_) | ContainerError::Garbage { .. } => false,
            },
            _ => false,
        }
    }

    /// The container error this is, if it is one.
    pub fn container(&self) -> Option<&ContainerError> {
        match self {
            WarcError::Container(e) => Some(e),
            _ => None,
        }
    }

    /// Whether the reader can carry on after this error.
    pub fn is_record_level(&self) -> bool {
        matches!(
            self,
            WarcError::Container(ContainerError::Garbage { .. })
                | WarcError::BadHeader(_)
                | WarcError::MissingField(_)
                | WarcError::LengthMismatch { .. }
                | WarcError::BadHttp(_)
                | WarcError::BadPayload(_)
                | WarcError::PayloadTooLarge { .. }
        )
    }

    /// Whether the reader can carry on with the next compressed member
    /// after this error (the member itself is lost): see
    /// [`ContainerError::is_member_level`].
    pub fn is_member_level(&self) -> bool {
        self.container()
            .is_some_and(ContainerError::is_member_level)
    }

    /// The file offset of the member a member-level error lost.
    pub fn lost_member(&self) -> Option<u64> {
        self.container().and_then(ContainerError::lost_member)
    }
}

/// A container error as the WARC layers tell it: as it is, or `NotWarc`
/// for a format that is not read.
impl From<ContainerError> for WarcError {
    fn from(e: ContainerError) -> Self {
        match e {
            ContainerError::Unsupported(what) => WarcError::NotWarc(what.to_string()),
            e => WarcError::Container(e),
        }
    }
}
