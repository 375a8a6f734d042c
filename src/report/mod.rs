//! Measuring and seeing extractions, outside the pure core: scoring against
//! gold text exactly as `shared/eval/score.py` does (`score`, `eval`),
//! reading evaluation manifests (`manifest`), and rendering charts and
//! self-contained HTML pages (`svg`, `explain_view`, `html`). File I/O is
//! limited to reading manifests, pages and gold files; writing reports and
//! the command line are the caller's.

pub mod error;
pub mod eval;
pub mod explain_view;
pub mod html;
pub mod manifest;
pub mod score;
pub mod svg;

pub use error::ReportError;

use std::io::{self, Read};

/// Reads a page for the extractor: at most one byte past `max_bytes`, which
/// is enough for [`crate::Extractor::extract`] to refuse a larger page as
/// `TooLarge` without all of it in memory first (a huge file, `/dev/zero`,
/// a FIFO or stdin that never ends).
pub fn read_page(reader: impl Read, max_bytes: usize) -> io::Result<Vec<u8>> {
    let limit = u64::try_from(max_bytes).unwrap_or(u64::MAX);
    let mut bytes = Vec::new();
    reader
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)?;
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::read_page;

    #[test]
    fn read_page_stops_one_byte_past_the_limit() {
        let endless = std::io::repeat(b'x');
        assert_eq!(read_page(endless, 10).unwrap().len(), 11);
        assert_eq!(read_page(&b"short"[..], 10).unwrap(), b"short");
        assert_eq!(read_page(&b"0123456789"[..], 10).unwrap().len(), 10);
    }
}
