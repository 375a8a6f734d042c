//! The WARC reader through its zstd layer: the input is WARC text (after
//! two control bytes), compressed one zstd frame per record, then
//! optionally damaged (truncated, a byte flipped, garbage inserted).
#![no_main]

use libfuzzer_sys::fuzz_target;
use linesift_fuzz::{damage, read_all, record_pieces, zstd_frames};

fuzz_target!(|data: &[u8]| {
    if data.len() < 3 {
        return;
    }
    let (how, at, text) = (data[0], u16::from_le_bytes([data[1], data[2]]), &data[3..]);
    let mut bytes = zstd_frames(&record_pieces(text));
    damage(&mut bytes, how, at);
    read_all(&bytes);
});
