//! linesift: line-based main-content extraction for crawl pipelines.
//!
//! The [`extract`] module is the pure core (bytes in, [`Document`] out).
//! The rest of the crate wraps it: inputs (files, WARC, HTTP), outputs and
//! the queue worker ([`worker`], messages in [`proto`]).

pub mod codec;
pub mod extract;
pub mod fetch;
pub mod proto;
pub mod report;
pub mod warc;
pub mod worker;

pub use extract::{Document, ExtractError, Extractor, Hints, Options};
