//! `Content-Encoding: deflate`, inflated as it streams in. RFC 9110 means
//! zlib-wrapped deflate (RFC 1950), which is all reqwest (tower-http)
//! would decode; servers such as old IIS and some CDNs send raw deflate
//! (RFC 1951), and browsers take both. Which one a body is, its first two
//! bytes tell, as browsers tell it: a zlib header (method 8, and the
//! header's check that `CMF * 256 + FLG` is a multiple of 31), or else
//! raw deflate. A raw stream cannot pass for zlib by accident: its first
//! byte would have to be a stored block with padding bits set, which no
//! encoder writes.
//!
//! `Deflate` is one step of that for `coding`'s
//! [`Decoder`](super::coding::Decoder), which feeds it and bounds its
//! output.

use super::coding::{End, Stepped};
use flate2::{Decompress, FlushDecompress, Status};

/// Inflates one body, zlib-wrapped or raw.
#[derive(Default)]
pub(super) struct Deflate {
    /// Made once the first two bytes say which kind of stream this is.
    decompress: Option<Decompress>,
}

impl Deflate {
    /// Inflates from `input` into `out`'s spare capacity. Uses nothing
    /// until two bytes are there to tell the kind of stream.
    pub(super) fn step(&mut self, input: &[u8], out: &mut Vec<u8>) -> Result<Stepped, String> {
        let decompress = match &mut self.decompress {
            Some(d) => d,
            None => match input.get(..2) {
                Some(&[cmf, flg]) => self
                    .decompress
                    .insert(Decompress::new(is_zlib_header(cmf, flg))),
                _ => {
                    return Ok(Stepped {
                        used: 0,
                        end: End::No,
                    });
                }
            },
        };
        let before = decompress.total_in();
        let status = decompress
            .decompress_vec(input, out, FlushDecompress::None)
            .map_err(|e| e.to_string())?;
        // At most `input.len()`, so it fits.
        let used = usize::try_from(decompress.total_in() - before).unwrap_or(input.len());
        let end = match status {
            Status::StreamEnd => End::Stream,
            _ => End::No,
        };
        Ok(Stepped { used, end })
    }
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
    use crate::codec::coding::tests::{page, zlib};
    use crate::codec::coding::{Coding, DecodeError, Decoder, PIECE};
    use hyper::body::Bytes;
    use std::io::Write;

    fn raw(bytes: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(bytes).unwrap();
        e.finish().unwrap()
    }

    /// Feeds `body` in chunks of `size`, pulling everything: the output,
    /// or the first error.
    fn inflate(body: &[u8], size: usize) -> Result<Vec<u8>, DecodeError> {
        let mut inflater = Decoder::new(Coding::Deflate)?;
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
        let mut inflater = Decoder::new(Coding::Deflate).unwrap();
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
            Err(DecodeError::Corrupt { .. })
        ));
        let mut bad_checksum = zlib(&page);
        let last = bad_checksum.len() - 1;
        bad_checksum[last] ^= 1;
        assert!(matches!(
            inflate(&bad_checksum, 512),
            Err(DecodeError::Corrupt { .. })
        ));
        for body in [zlib(&page), raw(&page)] {
            let half = &body[..body.len() / 2];
            assert_eq!(
                inflate(half, 512),
                Err(DecodeError::Truncated { coding: "deflate" })
            );
        }
        assert_eq!(
            inflate(&[0x78], 1),
            Err(DecodeError::Truncated { coding: "deflate" })
        );
        assert_eq!(inflate(&[], 1), Ok(Vec::new()));
        let mut trailing = raw(&page);
        trailing.extend_from_slice(b"garbage after the end");
        assert_eq!(inflate(&trailing, 512).as_deref(), Ok(&page[..]));
    }
}
