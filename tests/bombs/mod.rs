//! Compression bombs and other large encoded bodies for the limit tests,
//! written through the encoder in 1 MiB pieces so that even a gigabyte of
//! output never exists in memory at once.

use std::io::Write;

/// `len` bytes of HTML encoded with `coding`, streamed through the encoder
/// (`deflate` is zlib-wrapped, `deflate-raw` the same without the wrapper).
pub fn encoded(coding: &str, len: u64) -> Vec<u8> {
    let head = b"<html><body><p>";
    let fill = |w: &mut dyn Write| {
        w.write_all(head).unwrap();
        let chunk = vec![b'a'; 1 << 20];
        let mut left = len - head.len() as u64;
        while left > 0 {
            let n = left.min(chunk.len() as u64) as usize;
            w.write_all(&chunk[..n]).unwrap();
            left -= n as u64;
        }
    };
    match coding {
        "gzip" => {
            let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
            fill(&mut e);
            e.finish().unwrap()
        }
        "deflate" => {
            let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
            fill(&mut e);
            e.finish().unwrap()
        }
        "deflate-raw" => {
            let mut e = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::fast());
            fill(&mut e);
            e.finish().unwrap()
        }
        "zstd" => {
            let mut e = zstd::Encoder::new(Vec::new(), 1).unwrap();
            fill(&mut e);
            e.finish().unwrap()
        }
        "br" => {
            let mut out = Vec::new();
            {
                let mut e = brotli::CompressorWriter::new(&mut out, 64 << 10, 1, 22);
                fill(&mut e);
            }
            out
        }
        other => panic!("{other}"),
    }
}
