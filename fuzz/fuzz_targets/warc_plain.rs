//! The WARC reader on raw bytes (compression detected from the magic, so
//! gzip and zstd inputs reach their layers too); every record is read to
//! the end and page payloads are decoded. Errors are fine, panics are not.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    linesift_fuzz::read_all(data);
});
