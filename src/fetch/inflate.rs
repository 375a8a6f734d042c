//! `Content-Encoding: deflate`, inflated as it streams in. RFC 9110 means
//! zlib-wrapped deflate (RFC 1950), which is all reqwest (tower-http)
//! decodes; servers such as old IIS and some CDNs send raw deflate
//! (RFC 1951), and browsers take both. Which one a body is, its first two
//! bytes tell, as browsers tell it: a zlib header (method 8, and the
//! header's check that `CMF * 256 + FLG` is a multiple of 31), or else
//! raw deflate. A raw stream cannot pass for zlib by accident: its first
//! byte would have to be a stored block with padding bits set, which no
//! encoder writes.
//!
//! Output comes in pieces of at most [`PIECE`] bytes, however much one
//! input chunk inflates to, so a bomb costs no more than the caller's
//! limit plus one piece: the caller stops pulling at its limit.

use flate2::{Decompress, FlushDecompress, Status};
use hyper::body::Bytes;

/// The most one [`Inflater::pull`] returns (deflate inflates up to about
/// 1,000 times, so one 64 KiB chunk of a bomb could otherwise make 64 MiB).
pub const PIECE: usize = 64 * 1024;

/// Why a deflate body could not be inflated.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InflateError {
    /// Not a deflate stream, or a damaged one (bad block, bad checksum).
    #[error("deflate decompression error: {0}")]
    Corrupt(String),
    /// The body ended inside the stream.
    #[error("deflate stream cut short: unexpected end of file")]
    Truncated,
}

/// Inflates one body, zlib-wrapped or raw, fed chunk by chunk.
#[derive(Default)]
pub struct Inflater {
    /// Made once the first two bytes say which kind of stream this is.
    decompress: Option<Decompress>,
    /// The current input chunk and how far into it inflating got.
    input: Bytes,
    pos: usize,
    /// The last pull filled its piece: zlib may hold more output without
    /// needing more input.
    full: bool,
    /// The stream's end was reached (anything after it is ignored).
    ended: bool,
}

impl Inflater {
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds the body's next chunk. Call when [`pull`](Self::pull) gave
    /// `None`; input it had not used yet (a first byte, before the kind of
    /// stream is known) is kept in front.
    pub fn push(&mut self, chunk: Bytes) {
        let rest = self.input.slice(self.pos.min(self.input.len())..);
        self.input = if rest.is_empty() {
            chunk
        } else {
            Bytes::from([rest.as_ref(), chunk.as_ref()].concat())
        };
        self.pos = 0;
    }

    /// The next piece of output, at most [`PIECE`] bytes; `None` when it
    /// needs more input or the stream has ended ([`ended`](Self::ended)).
    pub fn pull(&mut self) -> Result<Option<Bytes>, InflateError> {
        loop {
            let waiting = self.pos >= self.input.len() && !self.full;
            if self.ended || waiting || !self.sniffed() {
                return Ok(None);
            }
            let Some(decompress) = self.decompress.as_mut() else {
                return Ok(None);
            };
            let rest = self.input.get(self.pos..).unwrap_or_default();
            let (out, status, used) = inflate_piece(decompress, rest)?;
            self.pos += used;
            self.full = out.len() == out.capacity();
            self.ended = status == Status::StreamEnd;
            if !out.is_empty() {
                return Ok(Some(Bytes::from(out)));
            }
            if used == 0 {
                return Ok(None);
            }
        }
    }

    /// Whether the stream's end was reached.
    pub fn ended(&self) -> bool {
        self.ended
    }

    /// Checks the body's end: Ok when the stream ended, or when the body
    /// was empty (a server that declares a coding for no content).
    pub fn finish(&self) -> Result<(), InflateError> {
        let nothing = self.decompress.is_none() && self.input.is_empty();
        if self.ended || nothing {
            Ok(())
        } else {
            Err(InflateError::Truncated)
        }
    }

    /// Makes the decompressor once the first two bytes are here; whether
    /// there is one.
    fn sniffed(&mut self) -> bool {
        if self.decompress.is_none()
            && let Some(&[cmf, flg]) = self.input.get(self.pos..self.pos + 2)
        {
            self.decompress = Some(Decompress::new(is_zlib_header(cmf, flg)));
        }
        self.decompress.is_some()
    }
}

/// Inflates from `input` into one piece of at most [`PIECE`] bytes: the
/// piece, the status, and the input bytes used.
fn inflate_piece(
    decompress: &mut Decompress,
    input: &[u8],
) -> Result<(Vec<u8>, Status, usize), InflateError> {
    let mut out = Vec::with_capacity(PIECE);
    let before = decompress.total_in();
    let status = decompress
        .decompress_vec(input, &mut out, FlushDecompress::None)
        .map_err(|e| InflateError::Corrupt(e.to_string()))?;
    // At most `input.len()`, so it fits.
    let used = usize::try_from(decompress.total_in() - before).unwrap_or(input.len());
    Ok((out, status, used))
}

/// Whether two bytes are a zlib header (RFC 1950 §2.2): compression
/// method 8 (deflate), a window of at most 32 KiB, and `CMF * 256 + FLG` a
/// multiple of 31.
pub fn is_zlib_header(cmf: u8, flg: u8) -> bool {
    cmf & 0x0f == 8 && cmf >> 4 <= 7 && (u16::from(cmf) * 256 + u16::from(flg)) % 31 == 0
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn page() -> Vec<u8> {
        let mut page = b"<html><body>".to_vec();
        for i in 0..2000 {
            page.extend_from_slice(format!("<p>Paragraph {i} of the story.</p>\n").as_bytes());
        }
        page
    }

    fn zlib(bytes: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(bytes).unwrap();
        e.finish().unwrap()
    }

    fn raw(bytes: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(bytes).unwrap();
        e.finish().unwrap()
    }

    /// Feeds `body` in chunks of `size`, pulling everything: the output,
    /// or the first error.
    fn inflate(body: &[u8], size: usize) -> Result<Vec<u8>, InflateError> {
        let mut inflater = Inflater::new();
        let mut out = Vec::new();
        for chunk in body.chunks(size) {
            inflater.push(Bytes::copy_from_slice(chunk));
            while let Some(piece) = inflater.pull()? {
                assert!(piece.len() <= PIECE);
                out.extend_from_slice(&piece);
            }
        }
        inflater.finish()?;
        Ok(out)
    }

    /// Both kinds inflate to the page, however the body is cut into
    /// chunks (a one-byte first chunk leaves the kind unknown at first).
    #[test]
    fn zlib_and_raw_deflate_inflate_in_any_chunking() {
        let page = page();
        for body in [zlib(&page), raw(&page)] {
            for size in [1, 2, 3, 7, 1000, body.len()] {
                assert_eq!(inflate(&body, size).as_deref(), Ok(&page[..]), "{size}");
            }
        }
    }

    #[test]
    fn zlib_headers_are_told_from_raw_streams() {
        // Every compression level's zlib header, and no raw stream's start.
        for level in 0..=9 {
            let mut e =
                flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::new(level));
            e.write_all(b"x").unwrap();
            let z = e.finish().unwrap();
            assert!(is_zlib_header(z[0], z[1]), "level {level}");
            let r = raw(b"x");
            assert!(!is_zlib_header(r[0], r.get(1).copied().unwrap_or(0)));
        }
        assert!(!is_zlib_header(0x78, 0x9d), "check bits wrong");
        assert!(!is_zlib_header(0x88, 0x98), "window over 32 KiB");
    }

    /// A bomb comes out a piece at a time: the caller can stop at its limit.
    #[test]
    fn a_bomb_inflates_one_piece_per_pull() {
        let bomb = zlib(&vec![b'a'; 8 << 20]);
        assert!(bomb.len() < 32 * 1024, "{}", bomb.len());
        let mut inflater = Inflater::new();
        inflater.push(Bytes::from(bomb));
        let first = inflater.pull().unwrap().unwrap();
        assert_eq!(first.len(), PIECE);
        assert_eq!(inflater.pull().unwrap().map(|p| p.len()), Some(PIECE));
    }

    #[test]
    fn damaged_cut_short_empty_and_trailing_bodies() {
        let page = page();
        let mut damaged = zlib(&page);
        for b in &mut damaged[4..40] {
            *b ^= 0x55;
        }
        assert!(matches!(
            inflate(&damaged, 512),
            Err(InflateError::Corrupt(_))
        ));
        let mut bad_checksum = zlib(&page);
        let last = bad_checksum.len() - 1;
        bad_checksum[last] ^= 1;
        assert!(matches!(
            inflate(&bad_checksum, 512),
            Err(InflateError::Corrupt(_))
        ));
        for body in [zlib(&page), raw(&page)] {
            let half = &body[..body.len() / 2];
            assert_eq!(inflate(half, 512), Err(InflateError::Truncated));
        }
        assert_eq!(inflate(&[0x78], 1), Err(InflateError::Truncated));
        assert_eq!(inflate(&[], 1), Ok(Vec::new()));
        let mut trailing = raw(&page);
        trailing.extend_from_slice(b"garbage after the end");
        assert_eq!(inflate(&trailing, 512).as_deref(), Ok(&page[..]));
    }
}
