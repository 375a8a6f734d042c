//! Charset choice and streaming decode, with and without a declared
//! charset. The first byte picks the declared label (or none, or a label
//! read from the input) and, in its top bits, a fallback label; decoding in
//! chunks must equal decoding at once.
#![no_main]

use libfuzzer_sys::fuzz_target;
use linesift::extract::charset::{SNIFF_BYTES, StreamDecoder, choose, prescan};
use linesift::warc::http;
use linesift_fuzz::chunk_lengths;

const LABELS: [&str; 14] = [
    "utf-8",
    "iso-8859-1",
    "windows-1252",
    "windows-1251",
    "koi8-r",
    "shift_jis",
    "euc-jp",
    "gb18030",
    "big5",
    "euc-kr",
    "utf-16le",
    "utf-16be",
    "x-user-defined",
    " bogus ",
];

fuzz_target!(|data: &[u8]| {
    let Some((&control, rest)) = data.split_first() else {
        return;
    };
    let (declared, bytes): (Option<String>, &[u8]) = match control % 16 {
        0 => (None, rest),
        15 => {
            // A Content-Type value from the input: first line, then the page.
            let eol = rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
            let value = String::from_utf8_lossy(&rest[..eol]).into_owned();
            let page = rest.get(eol + 1..).unwrap_or_default();
            (http::charset(&value), page)
        }
        k => (Some(LABELS[k as usize - 1].to_string()), rest),
    };
    let prefix = &bytes[..bytes.len().min(SNIFF_BYTES)];
    let _ = prescan(prefix);
    // The fallback from the control byte's top bits (none for 0).
    let fallback = LABELS
        .get(usize::from(control >> 4).wrapping_sub(1))
        .copied();
    let choice = choose(prefix, declared.as_deref(), fallback, None);
    assert!(choice.bom_len <= prefix.len());
    let body = &bytes[choice.bom_len..];

    let mut at_once = String::from(StreamDecoder::new(choice).decode(body, false));
    let mut decoder = StreamDecoder::new(choice);
    let mut chunked = String::new();
    let mut at = 0;
    for n in chunk_lengths(body.len(), u32::from(control) << 8 | 0x5a, 5) {
        chunked.push_str(decoder.decode(&body[at..at + n], false));
        at += n;
    }
    chunked.push_str(decoder.decode(b"", true));
    let mut whole = StreamDecoder::new(choice);
    at_once.clear();
    at_once.push_str(whole.decode(body, true));
    assert_eq!(at_once, chunked, "chunked decoding differs");
});
