//! The HTTP head parser of `response` records and the payload decoding
//! behind it (chunked, gzip, deflate, zstd). The first byte picks whether
//! the body is compressed by the target before decoding, so the decoders
//! see valid streams as well as the raw input.
#![no_main]

use libfuzzer_sys::fuzz_target;
use linesift::warc::http::{self, Coding};
use std::io::Write;

const LIMIT: usize = 1 << 20;

fuzz_target!(|data: &[u8]| {
    let Some((&control, buf)) = data.split_first() else {
        return;
    };
    let _ = http::dechunk(buf);
    let _ = http::looks_like_html(buf);
    let Ok(Some(head)) = http::parse_head(buf) else {
        return;
    };
    assert!(head.len <= buf.len());
    for (_, value) in &head.headers {
        let _ = http::media_type(value);
        let _ = http::charset(value);
    }
    let _ = http::kind(head.get("X-Identified"), head.get("Content-Type"));
    let mut coding = Coding::from_head(&head);
    let raw = &buf[head.len..];
    let body = match control % 4 {
        1 => {
            coding.content_encoding = Some("gzip".into());
            let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            gz.write_all(raw).unwrap();
            gz.finish().unwrap()
        }
        2 => {
            coding.content_encoding = Some("deflate".into());
            let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
            z.write_all(raw).unwrap();
            z.finish().unwrap()
        }
        3 => {
            coding.content_encoding = Some("zstd".into());
            zstd::bulk::compress(raw, 1).unwrap()
        }
        _ => raw.to_vec(),
    };
    if control & 0x80 != 0 {
        coding.chunked = !coding.chunked;
    }
    let _ = http::decode(&body, &coding, LIMIT);
});
