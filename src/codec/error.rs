//! Errors of reading a WARC file's compression (`container`): the file's
//! bytes, as gzip members, zstd or LZ4 frames, or plain. It knows no record: the
//! WARC reader turns these into its own errors (`warc::WarcError`, by
//! `From`), and decides what to print or count.

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
    /// The file ends inside a compressed member.
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
    /// Bytes before the next member that open no member.
    #[error("{len} bytes of garbage before the next record")]
    Garbage { len: u64 },
    /// A gzip member or zstd or LZ4 frame decompresses to more than
    /// `max_member` bytes: a bomb, given up without decompressing the rest of it;
    /// reading resumes at the next member.
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
        matches!(
            self,
            ContainerError::Corrupt { .. } | ContainerError::MemberTooLarge { .. }
        )
    }
}
