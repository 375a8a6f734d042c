//! Errors of the WARC layers. Record-level errors (`BadRecord` and friends)
//! let the reader carry on with the next record; member-level ones (a
//! corrupt gzip member or zstd frame, or one decompressing past
//! `max_member`) with the next member; the others end the file.
//! It does not decide what to print or how to count: the caller does.

use crate::codec::error::ContainerError;
use thiserror::Error;

#[derive(Debug, Error)]
pub enum WarcError {
    /// Reading the underlying file failed.
    #[error("I/O error near offset {offset}: {source}")]
    Io {
        offset: u64,
        #[source]
        source: std::io::Error,
    },
    /// The file ends inside a compressed member or a record.
    #[error("file is truncated at offset {offset}: {what}")]
    Truncated { offset: u64, what: String },
    /// A gzip member or zstd frame could not be decompressed. The reader
    /// reports it and resumes at the next member header.
    #[error("corrupt {format} data in the member starting at offset {offset}: {message}")]
    Corrupt {
        format: &'static str,
        offset: u64,
        message: String,
    },
    /// A zstd frame needs a dictionary the file does not carry.
    #[error(
        "zstd frame at offset {offset} needs dictionary {id}, but the file has no dictionary frame (IIPC .warc.zst files start with a skippable frame 0x184D2A5D holding it)"
    )]
    MissingDictionary { offset: u64, id: u32 },
    /// The dictionary frame of a `.warc.zst` file is unusable.
    #[error("bad zstd dictionary frame at offset {offset}: {message}")]
    BadDictionary { offset: u64, message: String },
    /// The input is neither a WARC file nor a compressed one.
    #[error("not a WARC file: {0}")]
    NotWarc(String),
    /// Where an index points (`--offset`, a worker's record task), no
    /// record starts: no gzip member, zstd or LZ4 frame or `WARC/` line, or a
    /// member that does not begin with a record (a stale or wrong index
    /// line). Nothing after it is read to look for one.
    #[error("no record starts at offset {offset}: {what}")]
    NoRecordAt { offset: u64, what: &'static str },
    /// A remote WARC location cannot be read, and another try would not
    /// change that (missing, forbidden, a wrong Content-Range, changed
    /// while read). A failure that may pass is an `Io` error.
    #[error("{0}")]
    Remote(String),
    /// Bytes between records that are not a record.
    #[error("{len} bytes of garbage before the next record")]
    Garbage { len: u64 },
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
    /// A gzip member or zstd frame decompresses to more than
    /// `ReaderOptions::max_member` bytes: a decompression bomb, or a
    /// whole-file stream larger than the operator allowed. The member is
    /// lost with its records, without decompressing the rest of it; the
    /// reader reports it and resumes at the next member (a zstd frame's
    /// end is in its block headers; after a gzip member, the next member
    /// header is looked for, as after a corrupt member).
    #[error(
        "{format} member at offset {offset} decompresses to more than the limit of {limit} bytes (max_member)"
    )]
    MemberTooLarge {
        format: &'static str,
        offset: u64,
        limit: u64,
    },
    /// A payload's Content-Encoding decodes to more than the core's page
    /// limit (`Options::max_bytes`).
    #[error("{coding}-encoded payload decodes to more than the limit of {limit} bytes (max_bytes)")]
    PayloadTooLarge { coding: String, limit: usize },
    /// The payload's transfer or content coding cannot be undone.
    #[error("cannot decode the payload: {0}")]
    BadPayload(String),
}

impl WarcError {
    /// Whether the reader can carry on after this error.
    pub fn is_record_level(&self) -> bool {
        matches!(
            self,
            WarcError::Garbage { .. }
                | WarcError::BadHeader(_)
                | WarcError::MissingField(_)
                | WarcError::LengthMismatch { .. }
                | WarcError::BadHttp(_)
                | WarcError::BadPayload(_)
                | WarcError::PayloadTooLarge { .. }
        )
    }

    /// Whether the reader can carry on with the next compressed member
    /// after this error (the member itself is lost).
    pub fn is_member_level(&self) -> bool {
        self.lost_member().is_some()
    }

    /// The file offset of the member a member-level error lost.
    pub fn lost_member(&self) -> Option<u64> {
        match self {
            WarcError::Corrupt { offset, .. } | WarcError::MemberTooLarge { offset, .. } => {
                Some(*offset)
            }
            _ => None,
        }
    }
}

/// A container error as the WARC layers tell it: the same variant, or
/// `NotWarc` for a format that is not read.
impl From<ContainerError> for WarcError {
    fn from(e: ContainerError) -> Self {
        match e {
            ContainerError::Io { offset, source } => WarcError::Io { offset, source },
            ContainerError::Truncated { offset, what } => WarcError::Truncated { offset, what },
            ContainerError::Corrupt {
                format,
                offset,
                message,
            } => WarcError::Corrupt {
                format,
                offset,
                message,
            },
            ContainerError::MissingDictionary { offset, id } => {
                WarcError::MissingDictionary { offset, id }
            }
            ContainerError::BadDictionary { offset, message } => {
                WarcError::BadDictionary { offset, message }
            }
            ContainerError::Unsupported(what) => WarcError::NotWarc(what.to_string()),
            ContainerError::Garbage { len } => WarcError::Garbage { len },
            ContainerError::MemberTooLarge {
                format,
                offset,
                limit,
            } => WarcError::MemberTooLarge {
                format,
                offset,
                limit,
            },
        }
    }
}
