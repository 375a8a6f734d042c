//! Errors of reading a WARC file's compression (`container`): the file's
//! bytes, as gzip members, zstd or LZ4 frames, or plain. It knows no record: the
//! WARC reader carries them in its own errors (`warc::WarcError::Container`,
//! by `From`), and decides what to print or count.

use thiserror::Error;

#[derive(Debug, Error)]
pub enum ContainerError {
    /// Reading the underlying file failed.
    #[error("I/O error near offset {offset}: {source}")]
    Io {
        offset: u64,
        #[source]
        source: std::io::Error,
    },
    /// The file ends inside a compressed member (or, as the WARC reader
    /// tells it, inside a record).
    #[error("file is truncated at offset {offset}: {what}")]
    Truncated { offset: u64, what: String },
    /// A gzip member or zstd or LZ4 frame could not be decompressed;
    /// reading resumes at the next member.
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
    /// A compression or archive format that is not read here (bzip2, xz,
    /// zip, 7z, RAR, legacy LZ4), named.
    #[error("{0}")]
    Unsupported(&'static str),
    /// Bytes before the next member that open no member, or between
    /// records that are no record.
    #[error("{len} bytes of garbage before the next record")]
    Garbage { len: u64 },
    /// A gzip member or zstd or LZ4 frame decompresses to more than
    /// `max_member` bytes: a bomb, or a whole-file stream larger than the
    /// operator allowed. The member is lost with its records, given up
    /// without decompressing the rest of it; reading resumes at the next
    /// member (a zstd or LZ4 frame's end is in its block headers; after a
    /// gzip member, the next member header is looked for, as after a
    /// corrupt member).
    #[error(
        "{format} member at offset {offset} decompresses to more than the limit of {limit} bytes (max_member)"
    )]
    MemberTooLarge {
        format: &'static str,
        offset: u64,
        limit: u64,
    },
}

impl ContainerError {
    /// Whether reading can carry on with the next member after this error
    /// (the member itself is lost).
    pub fn is_member_level(&self) -> bool {
        self.lost_member().is_some()
    }

    /// The file offset of the member a member-level error lost.
    pub fn lost_member(&self) -> Option<u64> {
        match self {
            ContainerError::Corrupt { offset, .. }
            | ContainerError::MemberTooLarge { offset, .. } => Some(*offset),
            _ => None,
        }
    }
}
