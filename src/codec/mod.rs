//! Every content coding and container compression, streaming, with its
//! limits: bytes in, decoded bytes out. It knows no URL, record, header
//! semantics beyond the coding names, or page; what to do with a body
//! that does not decode is its callers' rule.
//!
//! - [`coding`]: HTTP `Content-Encoding` codings (gzip with its members,
//!   deflate zlib-wrapped or raw in [`deflate`], br, zstd with skippable
//!   frames), decoded as a body streams in, one [`coding::Decoder`] a
//!   layer, each piece bounded ([`coding::PIECE`]).
//! - [`stack`]: the one mechanism for stacked codings, undone the last
//!   applied first, streamed ([`stack::Stack`], the fetcher's) or held
//!   whole ([`stack::undo_whole`], a WARC payload's, each layer by a
//!   caller's rule), with the bomb caps of both ([`stack::MAX_CODINGS`],
//!   [`stack::STACK_SLACK`], [`stack::LAYER_MEMORY`]).
//! - [`container`]: a WARC file's compression (gzip members, zstd frames
//!   with dictionaries and skippable frames, LZ4 frames, or none; other
//!   formats refused by name), member by member
//!   with their file offsets; gzip's one-call fast path is libdeflate.
//! - [`whole`]: a body held whole (a WARC payload) decoded whole, by the
//!   same codings, output bounded, what came before a fault kept.
//! - [`gzip_header`] and [`zstd_magic`]: the gzip member header and the
//!   zstd magic numbers, read in one place for both.
//!
//! - [`error`]: the container's errors ([`error::ContainerError`]); the
//!   WARC reader converts them into its own at its boundary.
//!
//! The fetcher (`fetch`) and the WARC reader (`warc`) both decode here and
//! neither imports the other; nothing here imports from either.

pub mod coding;
pub mod container;
pub mod deflate;
pub mod error;
pub(crate) mod gzip_header;
pub mod stack;
pub mod whole;
pub(crate) mod zstd_magic;
