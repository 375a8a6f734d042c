//! The extractor fed in chunks: chunk sizes come from the input's first
//! bytes. The streamed result must equal the whole-page result: that is
//! the core's contract.
#![no_main]

use libfuzzer_sys::fuzz_target;
use linesift::{ExtractError, Hints};
use linesift_fuzz::{chunk_lengths, extractor};

const MAX_CHUNKS: [usize; 4] = [1, 7, 64, 4096];

fuzz_target!(|data: &[u8]| {
    if data.len() < 3 {
        return;
    }
    let (control, seed, page) = (data[0], u16::from_le_bytes([data[1], data[2]]), &data[3..]);
    let extractor = extractor(control);
    let hints = Hints {
        url: None,
        charset: (control & 0x80 != 0).then(|| "windows-1252".to_string()),
        // A fallback charset on a bit of the seed (which seeds the chunk
        // sizes too; any bit will do).
        fallback_charset: (seed & 0x2000 != 0).then(|| "koi8-r".to_string()),
    };
    let whole = extractor.extract(page, &hints);
    let max = MAX_CHUNKS[(seed as usize >> 14) & 3];
    let mut stream = extractor.stream(hints);
    let mut fed: Result<(), ExtractError> = Ok(());
    let mut at = 0;
    for n in chunk_lengths(page.len(), u32::from(seed), max) {
        fed = stream.feed(&page[at..at + n]);
        at += n;
        if fed.is_err() {
            break;
        }
    }
    let streamed = fed.and_then(|()| stream.finish());
    assert_eq!(
        whole, streamed,
        "streamed document differs from whole-page document"
    );
});
