//! linesift: line-based main-content extraction for crawl pipelines.
//!
//! The [`extract`] module is the pure core (bytes in, [`Document`] out).
//! The rest of the crate wraps it: inputs (files, WARC, HTTP), outputs and
//! the queue worker ([`worker`], messages in [`proto`]).

pub mod extract;
pub mod fetch;
pub(crate) mod gzip_header;
pub mod proto;
pub mod report;
pub mod warc;
pub mod worker;
pub(crate) mod zstd_magic;

pub use extract::{Document, ExtractError, Extractor, Hints, Options};
