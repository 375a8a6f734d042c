//! Bodies held whole, decoded whole: gzip (every member), zstd, brotli and
//! deflate (zlib-wrapped or raw) of a WARC payload, each output refused
//! above a limit, and what decoded before a fault kept. It does not decide
//! what a body that does not decode means (a layer the crawler already
//! undid, a payload cut short): that is its caller's rule.

use super::container::zstd::window_log_max;
use flate2::read::MultiGzDecoder;
use flate2::{Decompress, FlushDecompress, Status};
use std::io::{self, Read};

/// An output went past its limit: a small body that decodes to more than
/// a page may hold is likely a bomb.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TooLarge;

/// What a decoder gave, and the error that ended it (`None`: it reached
/// its end).
pub type Faulted = (Vec<u8>, Option<io::Error>);

/// Decodes every gzip member of `body`, up to `limit` bytes.
pub fn gunzip(body: &[u8], limit: usize) -> Result<Faulted, TooLarge> {
    read_to_fault(MultiGzDecoder::new(body), limit)
}

/// Decodes `body`'s zstd frames up to `limit` bytes, with no larger a
/// window than `limit` needs (`container::zstd::window_log_max`). The
/// outer error: no decoder could be made.
pub fn unzstd(body: &[u8], limit: usize) -> io::Result<Result<Faulted, TooLarge>> {
    let window = window_log_max(limit);
    let decoder = ::zstd::stream::read::Decoder::new(body)
        .and_then(|mut d| d.window_log_max(window).map(|()| d))?;
    Ok(read_to_fault(decoder, limit))
}

/// Decodes brotli `body`, up to `limit` bytes.
pub fn unbrotli(body: &[u8], limit: usize) -> Result<Faulted, TooLarge> {
    read_to_fault(brotli::Decompressor::new(body, 64 * 1024), limit)
}

/// Inflates `body` (zlib-wrapped or raw) up to `limit` bytes: what it
/// gave, and whether the stream ended properly (the read decoders of
/// `flate2` do not tell an input cut short from a complete one).
pub fn inflate_to_end(body: &[u8], zlib: bool, limit: usize) -> Result<(Vec<u8>, bool), TooLarge> {
    let mut inflater = Decompress::new(zlib);
    let mut out = Vec::new();
    let mut chunk = vec![0u8; 64 * 1024];
    loop {
        let (read, made) = (inflater.total_in(), inflater.total_out());
        let rest = body
            .get(usize::try_from(read).unwrap_or(usize::MAX)..)
            .unwrap_or(&[]);
        let status = inflater.decompress(rest, &mut chunk, FlushDecompress::None);
        let new = usize::try_from(inflater.total_out() - made).unwrap_or(0);
        out.extend_from_slice(&chunk[..new.min(chunk.len())]);
        if out.len() > limit {
            return Err(TooLarge);
        }
        match status {
            Ok(Status::StreamEnd) => return Ok((out, true)),
            Ok(_) if new > 0 || inflater.total_in() > read => continue,
            // No progress: the input ended inside the stream, or it is
            // not deflate at all.
            Ok(_) | Err(_) => return Ok((out, false)),
        }
    }
}

/// Reads a decoder to its end or its first error (keeping what came
/// before: crawls often truncate payloads), refusing an output above
/// `limit`.
fn read_to_fault(mut reader: impl Read, limit: usize) -> Result<Faulted, TooLarge> {
    let mut out = Vec::new();
    let mut chunk = vec![0u8; 64 * 1024];
    loop {
        match reader.read(&mut chunk) {
            Ok(0) => return Ok((out, None)),
            Ok(n) => out.extend_from_slice(&chunk[..n]),
            Err(e) => return Ok((out, Some(e))),
        }
        if out.len() > limit {
            return Err(TooLarge);
        }
    }
}
