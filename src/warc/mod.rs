//! WARC in, records out: reading WARC 1.0/1.1 (and 0.18 quirks) and ARC v1 files,
//! uncompressed, gzip or zstd, as a stack of small stream layers. It
//! decompresses nothing itself (`codec` does) and writes nothing (`sink`
//! does).
//!
//! The layers, one module each, from the bytes up: the file's compression
//! (`codec::container`: detection, gzip members and zstd frames with their
//! file offsets) → `stream` (buffered view with positions) → `record`
//! (framing, resynchronisation) → `http` (status, headers, types, codings)
//! → `reader` ([`Item`]s) → `page` (payload to the core); `date` reads
//! records' dates and writes them for `sink::writer`.
//! Nothing here holds a whole file in memory: payloads are buffered only
//! for records the core will see, up to a limit.

pub mod arc;
pub(crate) mod date;
pub mod driver;
pub mod error;
pub mod http;
pub mod page;
pub mod reader;
pub mod record;
pub mod stream;

pub use crate::codec::container::Compression;
pub use crate::codec::error::ContainerError;
pub use error::WarcError;
pub use page::{Page, PageError, Repairs};
pub use reader::{Item, ReaderOptions, SkipReason, WarcReader};
pub use stream::RecordPos;

use crate::codec::container;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

/// Reads the one record at `offset` of a WARC file, as a CDX index points
/// at it (`offset` of the gzip member or zstd frame, `length` its
/// compressed size if known). Works for per-record compression and plain
/// files; a record inside a whole-file gzip stream cannot be reached this
/// way. An offset where no member, frame or record begins (or whose member
/// does not begin with a record) fails at once with
/// [`WarcError::NoRecordAt`]: nothing after it is read to look for one.
/// A remote `path` (`https://`, `s3://`) is read by range (see
/// [`crate::remote`]).
pub fn read_record_at(
    path: &Path,
    offset: u64,
    length: Option<u64>,
    options: ReaderOptions,
) -> Result<Item, WarcError> {
    if let Some(remote) = crate::remote::Remote::parse(path) {
        let remote = remote.map_err(|e| WarcError::Remote(e.message))?;
        return remote.read_record(offset, length, options);
    }
    read_record_from(open_file(path)?, offset, length, options)
}

/// Opens a local WARC file; a directory is refused here, as a file that
/// cannot be opened, rather than failing as the first read's I/O error.
pub fn open_file(path: &Path) -> Result<std::fs::File, WarcError> {
    let file = std::fs::File::open(path).map_err(WarcError::Open)?;
    match file.metadata() {
        Ok(m) if m.is_dir() => Err(WarcError::Open(std::io::ErrorKind::IsADirectory.into())),
        _ => Ok(file),
    }
}

/// [`read_record_at`] over any seekable source. For a `.warc.zst` file
/// whose first frame is a dictionary, the dictionary is read from the
/// file's start first.
pub fn read_record_from<R: Read + Seek + Send>(
    mut source: R,
    offset: u64,
    length: Option<u64>,
    options: ReaderOptions,
) -> Result<Item, WarcError> {
    // Known when the source can tell it (a file; a remote one once its
    // first range has come).
    let size = source.seek(SeekFrom::End(0)).ok();
    let window = Window::short_of(offset, length, size);
    check_record_start(&mut source, offset, length).map_err(|e| Window::blame(window, e))?;
    let dict = zstd_dictionary_frame(&mut source, offset)?;
    seek(&mut source, offset)?;
    let limited = source.take(length.unwrap_or(u64::MAX));
    let base = offset.saturating_sub(dict.len() as u64);
    let chained = std::io::Cursor::new(dict).chain(limited);
    let blame = |e| Window::blame(window, e);
    let mut reader = WarcReader::record_at(chained, base, options).map_err(blame)?;
    match reader.next() {
        // The one record asked for is in a member that cannot be read: an
        // error, not a bad record among others.
        Some(Ok(Item::Bad { error, .. })) if error.is_member_level() => Err(error),
        // A bad record or a page flagged cut, then the cut where a length
        // that ends inside the file ends: the length cut the record short,
        // and is told instead of what the cut made of it.
        Some(Ok(item)) if window.is_some() && cut_short(&item) => match reader.next() {
            Some(Err(e)) if window.is_some_and(|w| w.cuts(&e)) => Err(blame(e)),
            _ => Ok(item),
        },
        Some(item) => item.map_err(blame),
        None => Err(WarcError::NotWarc(format!("no record at offset {offset}"))),
    }
}

/// Whether `item` may be a record cut short: a bad record, or a page
/// whose body ends where the bytes do.
fn cut_short(item: &Item) -> bool {
    match item {
        Item::Bad { .. } => true,
        Item::Page(page) => page.repairs.cut,
        Item::Skipped { .. } => false,
    }
}

/// The `length` bytes at `offset` a record is read from, when the file
/// goes on past them: a cut where they end is the length's fault, not the
/// file's.
#[derive(Debug, Clone, Copy)]
struct Window {
    offset: u64,
    length: u64,
}

impl Window {
    /// The window, if a `length` is given and the file (`size` bytes,
    /// when known) goes on past its end.
    fn short_of(offset: u64, length: Option<u64>, size: Option<u64>) -> Option<Window> {
        let length = length?;
        let end = offset.checked_add(length)?;
        size.filter(|&s| s > end).map(|_| Window { offset, length })
    }

    /// Whether `e` is the file read as cut where the window ends.
    fn cuts(self, e: &WarcError) -> bool {
        matches!(
            e.container(),
            Some(ContainerError::Truncated { offset, .. }) if *offset == self.offset + self.length
        )
    }

    /// `e`, or [`WarcError::PastLength`] when it is the window's cut.
    fn blame(window: Option<Window>, e: WarcError) -> WarcError {
        match window {
            Some(w) if w.cuts(&e) => WarcError::PastLength {
                offset: w.offset,
                length: w.length,
            },
            _ => e,
        }
    }
}

/// Fails with [`WarcError::NoRecordAt`] unless a gzip member, zstd or LZ4
/// frame or `WARC/` record begins at `offset` (within `length`, if given).
fn check_record_start<R: Read + Seek>(
    source: &mut R,
    offset: u64,
    length: Option<u64>,
) -> Result<(), WarcError> {
    seek(source, offset)?;
    // Enough for an ARC record's header line, read only when the first
    // bytes start no member or WARC record.
    let mut head = [0u8; 4096];
    let mut limited = source.take(length.unwrap_or(u64::MAX));
    let mut got = 0;
    for want in [16, head.len()] {
        while got < want {
            match limited.read(&mut head[got..want]) {
                Ok(0) => break,
                Ok(n) => got += n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(source) => return Err(WarcError::io(offset, source)),
            }
        }
        if container::is_record_start(&head[..got]) {
            return Ok(());
        }
    }
    // The first bytes of a member, frame or `WARC/` record, and then the
    // end: the record there is cut, not missing.
    let ends = got < head.len();
    let bytes = &head[..got];
    if ends && container::is_cut_record_start(bytes) {
        let what = format!("the record at offset {offset} is cut in its first bytes");
        return Err(WarcError::truncated(offset + got as u64, what));
    }
    // A whole ARC header line, or the start of one where the bytes end
    // (the reader tells the cut).
    match arc::begins_with_header(bytes) || (ends && arc::begins_with_cut_header(bytes)) {
        true => Ok(()),
        false => Err(WarcError::NoRecordAt {
            offset,
            what: "not the start of a gzip member, zstd or lz4 frame or WARC or ARC record",
        }),
    }
}

fn seek<R: Seek>(source: &mut R, offset: u64) -> Result<(), WarcError> {
    source
        .seek(SeekFrom::Start(offset))
        .map(drop)
        .map_err(|source| WarcError::io(offset, source))
}

/// The dictionary frame at the start of a zstd file, when `offset` points
/// at a zstd frame and the file has one; empty otherwise.
fn zstd_dictionary_frame<R: Read + Seek>(
    source: &mut R,
    offset: u64,
) -> Result<Vec<u8>, WarcError> {
    let io = |source| WarcError::io(offset, source);
    let mut magic = [0u8; 4];
    seek(source, offset)?;
    if source.read_exact(&mut magic).is_err() || magic != container::ZSTD_MAGIC || offset == 0 {
        return Ok(Vec::new());
    }
    seek(source, 0)?;
    let mut head = [0u8; 8];
    source.read_exact(&mut head).map_err(io)?;
    if head[..4] != 0x184D_2A5Du32.to_le_bytes() {
        return Ok(Vec::new());
    }
    let size = u64::from(u32::from_le_bytes([head[4], head[5], head[6], head[7]]));
    if size + 8 > offset {
        return Ok(Vec::new());
    }
    // Refused before it is read, as the zstd layer refuses it when reading
    // the file from its start: a size field of up to 4 GiB is no reason to
    // read (and hold) that much for one record.
    if size > container::zstd::MAX_DICTIONARY {
        return Err(WarcError::Container(ContainerError::BadDictionary {
            offset: 0,
            message: format!("{size} bytes is too large"),
        }));
    }
    let mut frame = head.to_vec();
    source.take(size).read_to_end(&mut frame).map_err(io)?;
    Ok(frame)
}
