//! One gzip member decompressed in a single call by libdeflate, for the
//! gzip layer's fast path. libdeflate inflates about twice as fast as
//! zlib-rs (the whole-member API needs no window bookkeeping); on a
//! Common Crawl style `.warc.gz` that is a fifth of `linesift warc`'s CPU
//! time. It is not a stream: the member must be in memory and its output
//! must fit the buffer, so the gzip layer falls back to its streaming
//! decoder whenever either fails, and that decoder reports errors.
//!
//! Hand-written over `libdeflate-sys` because the safe `libdeflater` crate
//! does not expose `libdeflate_gzip_decompress_ex`, the one call that says
//! how many input bytes the member took, without which the next member
//! cannot be found.
//!
//! Where libdeflate and the streaming decoder (flate2) could differ on a
//! header, the member is missed, so that flate2 decides it, as it does for
//! a member too large for this path: libdeflate skips a header CRC
//! (`FHCRC`) unchecked, where flate2 fails a member whose CRC is wrong, and
//! libdeflate reads a name or comment of any length, where flate2 fails
//! one of 64 KiB or more. A header whose fields do not end within
//! `MAX_GZIP_HEADER` (1 KiB; writers put no name, or a short one) is
//! missed whatever its length, so no limit of flate2's needs copying here.

use super::MAX_GZIP_HEADER;
use crate::codec::gzip_header;
use libdeflate_sys::{
    libdeflate_alloc_decompressor, libdeflate_decompressor, libdeflate_free_decompressor,
    libdeflate_gzip_decompress_ex, libdeflate_result_LIBDEFLATE_INSUFFICIENT_SPACE as NO_SPACE,
    libdeflate_result_LIBDEFLATE_SUCCESS as SUCCESS,
};
use std::ptr::NonNull;

/// Why a member did not inflate in one call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Miss {
    /// The output would not fit the buffer.
    Space,
    /// Bad or incomplete data (libdeflate does not tell them apart: a
    /// member cut by the end of the input is bad data to it).
    Data,
    /// A header left to the streaming decoder (see the module doc): more
    /// input would not change that, so the caller need not wait for it.
    Header,
}

/// A libdeflate decompressor (about 32 KB of tables, reused per member).
pub struct Inflater(NonNull<libdeflate_decompressor>);

// SAFETY: the decompressor is plain heap memory owned by this value and
// used only through `&mut self`; libdeflate keeps no thread-local state.
unsafe impl Send for Inflater {}

impl Inflater {
    /// `None` when libdeflate cannot allocate its state.
    pub fn new() -> Option<Self> {
        // SAFETY: no preconditions; a null return is handled.
        NonNull::new(unsafe { libdeflate_alloc_decompressor() }).map(Inflater)
    }

    /// Decompresses the gzip member at the start of `input` (more bytes may
    /// follow it) into `out`. Returns (input bytes the member took, output
    /// bytes). CRC-32 and length are checked by libdeflate, the header
    /// CRC (if the header has one) here.
    pub fn gzip(&mut self, input: &[u8], out: &mut [u8]) -> Result<(usize, usize), Miss> {
        if !header_is_ours(input) {
            return Err(Miss::Header);
        }
        let (mut used, mut made) = (0usize, 0usize);
        // SAFETY: the pointers and lengths come from live slices that
        // libdeflate reads (`input`) and writes (`out`) only within their
        // bounds; the decompressor is ours alone for the call.
        let result = unsafe {
            libdeflate_gzip_decompress_ex(
                self.0.as_ptr(),
                input.as_ptr().cast(),
                input.len(),
                out.as_mut_ptr().cast(),
                out.len(),
                &mut used,
                &mut made,
            )
        };
        match result {
            SUCCESS => Ok((used, made)),
            NO_SPACE => Err(Miss::Space),
            _ => Err(Miss::Data),
        }
    }
}

/// Whether the gzip header `input` begins with is one this path may read
/// as flate2 would (see the module doc): its fields end within
/// `MAX_GZIP_HEADER` bytes and its CRC, if it has one, is right. A header
/// cut by the end of a shorter `input` is left to libdeflate, which misses
/// it as a cut member.
fn header_is_ours(input: &[u8]) -> bool {
    let head = &input[..input.len().min(MAX_GZIP_HEADER)];
    match gzip_header::fields_end(head) {
        Some(len) => gzip_header::crc_ok(&head[..len]),
        None => head.len() < MAX_GZIP_HEADER,
    }
}

impl Drop for Inflater {
    fn drop(&mut self) {
        // SAFETY: allocated by libdeflate_alloc_decompressor, freed once.
        unsafe { libdeflate_free_decompressor(self.0.as_ptr()) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::container::gzip::tests::{gzip, with_header_crc};

    #[test]
    fn a_member_followed_by_more_reports_its_own_length() {
        let first = gzip(b"first member");
        let mut file = first.clone();
        file.extend(gzip(b"second"));
        let mut out = [0u8; 64];
        let mut inflater = Inflater::new().unwrap();
        let (used, made) = inflater.gzip(&file, &mut out).unwrap();
        assert_eq!((used, &out[..made]), (first.len(), &b"first member"[..]));
        let (used2, made2) = inflater.gzip(&file[used..], &mut out).unwrap();
        assert_eq!((used + used2, &out[..made2]), (file.len(), &b"second"[..]));
    }

    #[test]
    fn too_small_an_output_and_cut_or_bad_input_or_header_are_misses() {
        let member = gzip(&[b'x'; 1000]);
        let mut inflater = Inflater::new().unwrap();
        let mut small = [0u8; 999];
        assert_eq!(inflater.gzip(&member, &mut small), Err(Miss::Space));
        let mut out = [0u8; 2000];
        let cut = &member[..member.len() - 1];
        assert_eq!(inflater.gzip(cut, &mut out), Err(Miss::Data));
        let mut bad = member.clone();
        let crc = bad.len() - 8;
        bad[crc] ^= 1;
        assert_eq!(inflater.gzip(&bad, &mut out), Err(Miss::Data));
        assert_eq!(inflater.gzip(&member, &mut out), Ok((member.len(), 1000)));
        // A header left to the streaming decoder, however much follows it.
        let bad_header = with_header_crc(&member, Some([0x5a, 0xa5]));
        assert_eq!(inflater.gzip(&bad_header, &mut out), Err(Miss::Header));
        let right = with_header_crc(&member, None);
        assert_eq!(inflater.gzip(&right, &mut out), Ok((right.len(), 1000)));
    }
}
