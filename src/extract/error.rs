//! Errors of the extraction core. A page either becomes a `Document` or one
//! of these; nothing in the core panics on input.

use thiserror::Error;

#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum ExtractError {
    /// The page is larger than the configured limit (`Options::max_bytes`).
    #[error("page is larger than the limit of {limit} bytes (max_bytes)")]
    TooLarge { limit: usize },
    /// The page has more logical lines than the configured limit
    /// (`Options::max_lines`).
    #[error("page has more than the limit of {limit} logical lines (max_lines)")]
    TooManyLines { limit: usize },
    /// The bytes are not text (NUL bytes and control characters dominate).
    #[error("input looks binary, not HTML ({control} control bytes in the first {sniffed})")]
    Binary { control: usize, sniffed: usize },
}

impl ExtractError {
    /// A short name for the error's kind, for logs and JSON
    /// (`error_kind`), in the fetcher's naming (`FetchError::kind`).
    pub fn kind(&self) -> &'static str {
        match self {
            ExtractError::TooLarge { .. } => "too_large",
            ExtractError::TooManyLines { .. } => "too_many_lines",
            ExtractError::Binary { .. } => "binary",
        }
    }
}
