//! linesift: line-based main-content extraction for crawl pipelines.
//!
//! The [`extract`] module is the pure core (bytes in, [`Document`] out).
//! The rest of the crate wraps it along the data's path: sources
//! ([`fetch`], [`warc`], [`remote`]) → codecs ([`codec`]) → core → sinks ([`sink`]),
//! and the queue worker ([`worker`], messages in [`proto`]).

pub mod codec;
pub mod dedup;
pub mod extract;
pub mod fetch;
pub mod proto;
pub mod remote;
pub mod report;
pub mod sink;
pub mod warc;
pub mod worker;

pub use extract::{Document, ExtractError, Extractor, Hints, Options};
