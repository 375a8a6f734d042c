//! Compression detection and the common interface of the decompression
//! layers: a file is a sequence of *members* (gzip members, zstd or LZ4
//! frames, or the whole file when it is not compressed), each decompressed on demand.
//! A file that does not begin with a member or a record (a stray header or
//! other junk written before it) has its first one looked for in its first
//! [`DETECT_WINDOW`] bytes (and checked against the [`CHECK_AHEAD`] bytes
//! after them too); a record an index points at ([`Start::Record`])
//! must begin where it points. It knows file offsets, and of WARC records
//! only that one begins with `WARC/`.

pub mod gzip;
mod libdeflate;
pub mod lz4;
mod walk;
pub mod zstd;

use crate::codec::error::ContainerError;
use crate::codec::gzip_header;
use std::io::{self, BufRead, Read};

/// How a WARC file is compressed, told from its first bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compression {
    None,
    Gzip,
    Zstd,
    /// LZ4 frames, one a record, as FastWARC writes `.warc.lz4` files.
    Lz4,
}

/// Little-endian zstd frame magic 0xFD2FB528 (`zstd_magic`).
pub(crate) use crate::codec::zstd_magic::MAGIC as ZSTD_MAGIC;

/// Tells the compression from the first bytes of a file (or of a record
/// at a CDX offset). Unknown bytes are taken as uncompressed.
pub fn detect(prefix: &[u8]) -> Compression {
    if prefix.starts_with(&gzip_header::MAGIC) {
        Compression::Gzip
    } else if crate::codec::zstd_magic::opens_frame(prefix) {
        Compression::Zstd
    } else if prefix.starts_with(&lz4::MAGIC) {
        Compression::Lz4
    } else {
        Compression::None
    }
}

/// How far into a file its first gzip member, zstd or LZ4 frame or `WARC/` record
/// is looked for when the file does not begin with one (a candidate is
/// checked against [`CHECK_AHEAD`] bytes more: bytes the input buffer
/// holds anyway, not copied; only the decoder that checks a candidate
/// member, and the list of candidates, are allocated).
pub const DETECT_WINDOW: usize = 64 * 1024;

/// Where reading starts, which decides how the compression is told.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Start {
    /// A file (or stream) from its beginning. One that does not begin with
    /// a gzip member, zstd or LZ4 frame or record has the first one looked for in
    /// its first [`DETECT_WINDOW`] bytes ([`find_start`]); the bytes before
    /// it are reported as garbage at their offset, once, as garbage between
    /// members is. Found nowhere there, the file is read as uncompressed.
    /// (The look reads [`CHECK_AHEAD`] bytes past the window, to check a
    /// member that starts near its end; on a pipe it waits for all those
    /// bytes, 194 KiB, or the input's end.)
    File,
    /// The one record an index points at: it is told from the bytes there
    /// ([`detect`]) and nothing is looked for past them.
    Record,
}

/// How many bytes past [`DETECT_WINDOW`] [`open`] reads (and, on a
/// pipe, waits for, or for the input's end) for [`find_start`] to check
/// a candidate that starts near the window's end: a whole zstd block
/// (128 KiB at most, and its 3-byte header) after a frame header (18 bytes
/// at most), or a gzip header ([`MAX_GZIP_HEADER`]) and the start of its
/// deflate data. zstd gives nothing of a compressed block before it has
/// all of it, so a frame checked against the window alone was passed over
/// when its first block ran past the window's end, and the whole file read
/// as plain.
pub const CHECK_AHEAD: usize = 128 * 1024 + 2 * 1024;

/// The longest gzip member header (with its `FEXTRA`, `FNAME`, `FCOMMENT`
/// and `FHCRC` fields) [`find_start`] takes for a member's start. Writers
/// put a few bytes there (BGZF's 6-byte `FEXTRA`, a file name); junk with
/// the `FNAME` bit set and no NUL after it cost a scan to the end of the
/// bytes for each of thousands of such candidates.
pub const MAX_GZIP_HEADER: usize = 1024;

/// The earliest start of a gzip member, zstd frame (or skippable frame), LZ4 frame or
/// `WARC/` record in the first [`DETECT_WINDOW`] bytes of `bytes`, and
/// which it is; `None` if there is none. `bytes` are the first bytes of a
/// file, [`DETECT_WINDOW`] + [`CHECK_AHEAD`] of them when it has that
/// many: a candidate is checked against all of them, so one that starts
/// near the window's end is checked as one at its start is.
/// For junk before a file's first member, or a plain file that begins
/// part way through a record (`tail -c`): stricter than [`detect`], since
/// junk (a cut-off record's payload above all) is where such bytes turn up
/// by chance, and may be a real gzip member (a `Content-Encoding: gzip`
/// body). A gzip member, zstd or LZ4 frame is taken only if the first bytes it
/// decompresses to (from `bytes` alone, a few hundred at most) are line
/// ends and then `WARC/`: a WARC file's first member holds a record. Its
/// header is checked first (a gzip header must say deflate, set no
/// reserved flag, carry a known `XFL`, end within [`MAX_GZIP_HEADER`]
/// bytes and, if it says it has one, carry a right header CRC; a zstd
/// frame must set no reserved descriptor bit), which spares most false
/// starts the decoding. A zstd frame may ask for a window of
/// 2^`window_log` bytes at most, as the reader allows its frames
/// ([`zstd::window_log_max`]). A skippable frame is taken on its structure
/// alone: a dictionary frame must hold a zstd frame or a dictionary,
/// another must be followed by a frame. `WARC/` must be followed by a
/// digit. A start that fails its check is passed over and the next one
/// looked at, so a plain file's first record after a payload's gzip member
/// is found. A member cut by the end of `bytes` before it says that much
/// is not taken.
pub fn find_start(bytes: &[u8], window_log: u32) -> Option<(usize, Compression)> {
    let before_window = |&i: &usize| i < DETECT_WINDOW;
    let gzip = memchr::memmem::find_iter(bytes, &gzip_header::MAGIC)
        .take_while(before_window)
        .filter_map(|i| Some((i, Candidate::Gzip(gzip_header_len(bytes.get(i..)?)?))));
    let zstd = memchr::memmem::find_iter(bytes, &ZSTD_MAGIC)
        .take_while(before_window)
        .filter(|&i| bytes.get(i + 4).is_some_and(|d| d & 0x08 == 0))
        .map(|i| (i, Candidate::Zstd));
    // A skippable frame's magic is 0x184D2A5? little-endian: its last
    // three bytes are fixed.
    let skippable = memchr::memmem::find_iter(bytes, &[0x2a, 0x4d, 0x18])
        .take_while(|&i| i <= DETECT_WINDOW)
        .filter(|&i| i > 0 && bytes[i - 1] & 0xf0 == 0x50)
        .map(|i| (i - 1, Candidate::Skippable));
    let lz4 = memchr::memmem::find_iter(bytes, &lz4::MAGIC)
        .take_while(before_window)
        .map(|i| (i, Candidate::Lz4));
    let warc = memchr::memmem::find_iter(bytes, b"WARC/")
        .take_while(before_window)
        .filter(|&i| bytes.get(i + 5).is_some_and(u8::is_ascii_digit))
        .map(|i| (i, Candidate::Record));
    let mut candidates: Vec<_> = gzip
        .chain(zstd)
        .chain(skippable)
        .chain(lz4)
        .chain(warc)
        .collect();
    candidates.sort_unstable_by_key(|&(at, _)| at);
    candidates.into_iter().find_map(|(at, candidate)| {
        let rest = bytes.get(at..)?;
        let compression = match candidate {
            Candidate::Gzip(_) => Compression::Gzip,
            Candidate::Zstd | Candidate::Skippable => Compression::Zstd,
            Candidate::Lz4 => Compression::Lz4,
            Candidate::Record => Compression::None,
        };
        let taken = match candidate {
            // The header is parsed already: the decoder starts at the
            // deflate data.
            Candidate::Gzip(header) => rest.get(header..).is_some_and(|data| {
                let data = &data[..data.len().min(HEAD_IN)];
                decodes_to_a_record(flate2::bufread::DeflateDecoder::new(data))
            }),
            Candidate::Zstd => ::zstd::stream::read::Decoder::with_buffer(rest)
                .and_then(|mut d| d.window_log_max(window_log).map(|()| d))
                .is_ok_and(|d| decodes_to_a_record(d.single_frame())),
            Candidate::Skippable => plausible_skippable(rest),
            // lz4_flex checks the frame header's checksum (and a block's,
            // when the frame has them) before it gives anything.
            Candidate::Lz4 => decodes_to_a_record(lz4_flex::frame::FrameDecoder::new(rest)),
            Candidate::Record => true,
        };
        taken.then_some((at, compression))
    })
}

/// What [`find_start`] found bytes that may start.
#[derive(Debug, Clone, Copy)]
enum Candidate {
    /// A gzip member, with the length of its header.
    Gzip(usize),
    Zstd,
    Skippable,
    Lz4,
    Record,
}

/// How many decompressed bytes of a member [`find_start`] looks at, at
/// most: line ends before `WARC/` (one or two, in practice) fit.
const HEAD_OUT: usize = 256;

/// How many bytes of a gzip candidate's deflate data [`find_start`]
/// decodes, at most, for its first [`HEAD_OUT`] bytes. A writer's member
/// gives them in far fewer: a dynamic block's code tables take 300 bytes
/// at most and a symbol 6, and an empty block a writer may flush before
/// its data (zlib's sync flush) 5. Junk need not: empty blocks (stored
/// ones of 5 bytes, fixed ones of 10 bits) give nothing however many
/// follow, and the decoder runs through all of them in one call, to the
/// end of the bytes (up to [`DETECT_WINDOW`] + [`CHECK_AHEAD`]) for each
/// candidate; and headers whose name fields hold one another's let a
/// hundred candidates share one such run. Cut there, a candidate's check
/// costs a few KiB of decoding whatever its data; one that has given
/// nothing by then fails, as a member cut short does.
const HEAD_IN: usize = 4 * 1024;

/// Whether what `decoder` gives begins with line ends and `WARC/`. An
/// error (a corrupt member, or one cut short) before that is a no.
fn decodes_to_a_record(mut decoder: impl Read) -> bool {
    let mut out = [0u8; HEAD_OUT];
    let mut len = 0;
    while len < out.len() {
        match decoder.read(&mut out[len..]) {
            Ok(0) | Err(_) => return false,
            Ok(n) => len += n,
        }
        if let Some(record) = begins_a_record(&out[..len]) {
            return record;
        }
    }
    false
}

/// `Some(true)` when `head` is line ends and then `WARC/`, `Some(false)`
/// when it cannot be, `None` when it is too short to tell.
fn begins_a_record(head: &[u8]) -> Option<bool> {
    let blank = head
        .iter()
        .take_while(|b| matches!(b, b'\r' | b'\n'))
        .count();
    let rest = &head[blank..];
    let n = rest.len().min(5);
    if rest[..n] != b"WARC/"[..n] {
        return Some(false);
    }
    (n == 5).then_some(true)
}

/// The length of the gzip member header (RFC 1952, 2.3) `h` begins with,
/// if it is one that writers produce and ends within `h` and
/// [`MAX_GZIP_HEADER`] bytes: method 8 and no reserved flag bit (what
/// zlib takes), `XFL` 0, 2 or 4, its optional fields (`FEXTRA`, `FNAME`,
/// `FCOMMENT`, `FHCRC`) in that many bytes ([`gzip_header::fields_end`])
/// and, when it carries one, a right header CRC ([`gzip_header::crc_ok`]).
/// The OS byte is not looked at: writers set values past the RFC's
/// list (zlib: 16 BeOS, 18 OS/400, 19 macOS), and the decoding check is
/// what tells.
fn gzip_header_len(h: &[u8]) -> Option<usize> {
    let h = &h[..h.len().min(MAX_GZIP_HEADER)];
    let plausible = h.len() >= 10
        && h.starts_with(&gzip_header::MAGIC)
        && gzip_header::zlib_takes(h[2], h[3])
        && matches!(h[8], 0 | 2 | 4);
    if !plausible {
        return None;
    }
    let len = gzip_header::fields_end(h)?;
    // A wrong header CRC is junk's flag bit, not a writer's, and the gzip
    // layer fails such a member wherever it is (see `libdeflate`): flate2's
    // decoder fails a member whose CRC is wrong, libdeflate skips it.
    if !gzip_header::crc_ok(&h[..len]) {
        return None;
    }
    // Data must follow the header within `h`.
    (len < h.len()).then_some(len)
}

/// A skippable zstd frame as a WARC file begins with one: the dictionary
/// frame (0x184D2A5D) holding a zstd frame (a compressed dictionary) or a
/// dictionary (its magic 0xEC30A437), or another skippable frame followed
/// by a frame or skippable frame within `bytes`.
fn plausible_skippable(bytes: &[u8]) -> bool {
    let (Some(magic), Some(size)) = (le_u32(bytes, 0), le_u32(bytes, 4)) else {
        return false;
    };
    let body = bytes.get(8..).unwrap_or(&[]);
    if magic == zstd::DICTIONARY_MAGIC {
        return body.starts_with(&ZSTD_MAGIC) || body.starts_with(&RAW_DICTIONARY_MAGIC);
    }
    let next = usize::try_from(size)
        .ok()
        .and_then(|size| body.get(size..))
        .unwrap_or(&[]);
    crate::codec::zstd_magic::opens_frame(next)
}

/// A zstd dictionary's own magic, 0xEC30A437 little-endian.
const RAW_DICTIONARY_MAGIC: [u8; 4] = [0x37, 0xa4, 0x30, 0xec];

fn le_u32(bytes: &[u8], at: usize) -> Option<u32> {
    let b: [u8; 4] = bytes.get(at..at + 4)?.try_into().ok()?;
    Some(u32::from_le_bytes(b))
}

/// Whether `bytes`, where an index points, start a gzip member, a zstd
/// frame or (after line ends) a `WARC/` record. A skippable zstd frame is
/// no record's start: an index points past the dictionary.
pub fn is_record_start(bytes: &[u8]) -> bool {
    let blank = bytes
        .iter()
        .take_while(|b| matches!(b, b'\r' | b'\n'))
        .count();
    bytes.starts_with(&gzip_header::DEFLATE_START)
        || bytes.starts_with(&ZSTD_MAGIC)
        || bytes.starts_with(&lz4::MAGIC)
        || bytes[blank..].starts_with(b"WARC/")
}

/// Whether `bytes`, all there is where an index points (the file's end
/// cuts them), are the first bytes of what [`is_record_start`] looks for:
/// a gzip, zstd or LZ4 magic, or a `WARC/` after line ends, cut short.
pub(crate) fn is_cut_record_start(bytes: &[u8]) -> bool {
    let blank = bytes
        .iter()
        .take_while(|b| matches!(b, b'\r' | b'\n'))
        .count();
    let cut = |start: &[u8], bytes: &[u8]| !bytes.is_empty() && start.starts_with(bytes);
    cut(&gzip_header::DEFLATE_START, bytes)
        || cut(&ZSTD_MAGIC, bytes)
        || cut(&lz4::MAGIC, bytes)
        || cut(b"WARC/", &bytes[blank..])
}

/// Where a member starts in the file, and garbage skipped to find it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MemberStart {
    pub offset: u64,
    /// Bytes of garbage skipped before this member.
    pub garbage: u64,
    /// Where that garbage starts (the member's offset when there is
    /// none): `offset - garbage` unless something that is no garbage lies
    /// between, as a zstd dictionary frame after junk at a file's start.
    pub garbage_from: u64,
}

impl MemberStart {
    /// A member at `offset` with no garbage before it.
    pub fn at(offset: u64) -> Self {
        MemberStart {
            offset,
            garbage: 0,
            garbage_from: offset,
        }
    }
}

/// One decompression layer over a file.
pub trait Decode: Send {
    /// Moves to the next member, skipping garbage between members.
    /// `Ok(None)` at the end of the file. The current member must be done.
    fn next_member(&mut self) -> Result<Option<MemberStart>, ContainerError>;
    /// Decompressed bytes of the current member; `Ok(0)` at its end.
    fn read(&mut self, out: &mut [u8]) -> Result<usize, ContainerError>;
    /// Gives up the current member without decompressing the rest of it:
    /// the next [`Decode::next_member`] moves to the member after it, where
    /// the member's own structure says it ends or, where it says nothing
    /// (deflate), at the next member header found, as after a corrupt
    /// member. Reads no more than the compressed bytes up to there.
    fn skip_member(&mut self) -> Result<(), ContainerError>;
    /// Compressed bytes consumed so far (file offset).
    fn file_offset(&self) -> u64;
    fn compression(&self) -> Compression;
}

/// A buffered reader that knows the file offset of its next byte and can
/// look ahead a few bytes across its buffer's end. It can also keep bytes
/// already read, so that a layer can go back to them after a member that
/// failed part way ([`Input::keep`]).
#[derive(Debug)]
pub struct Input<R> {
    inner: R,
    buf: Vec<u8>,
    start: usize,
    end: usize,
    pos: u64,
    kept: Option<Kept>,
}

/// Bytes kept behind the read position: `buf[from..start]`.
#[derive(Debug, Clone, Copy)]
struct Kept {
    from: usize,
    /// Where in some kept bytes a member may start, if anywhere: when the
    /// buffer fills up, the kept bytes before that are let go.
    may_start: fn(&[u8]) -> Option<usize>,
}

/// Kept bytes let go when no member may start in them, except this many
/// at their end: a member's header may begin there and end in bytes not
/// read yet (a gzip header is told from data by its first four bytes).
const HEADER_TAIL: usize = 3;

/// Large enough that the gzip layer's one-call path (see `gzip`) holds
/// nearly every member whole: a page's member is typically 5-50 KB.
pub(crate) const INPUT_BUFFER: usize = 1 << 20;

impl<R: Read> Input<R> {
    /// Wraps `inner`, whose first byte is at file offset `base`.
    pub fn new(inner: R, base: u64) -> Self {
        Input {
            inner,
            buf: vec![0; INPUT_BUFFER],
            start: 0,
            end: 0,
            pos: base,
            kept: None,
        }
    }

    pub fn pos(&self) -> u64 {
        self.pos
    }

    /// The bytes already buffered, without reading more.
    pub fn buffered(&self) -> &[u8] {
        &self.buf[self.start..self.end]
    }

    /// Looks at the next `n` bytes (at most the buffer size) without
    /// consuming them; fewer only at the end of the input.
    pub fn peek(&mut self, n: usize) -> Result<&[u8], ContainerError> {
        let n = n.min(INPUT_BUFFER);
        if self.end - self.start < n {
            self.make_room(n - (self.end - self.start));
            while self.end - self.start < n {
                let got = self.read_inner()?;
                if got == 0 {
                    break;
                }
            }
        }
        let avail = &self.buf[self.start..self.end];
        Ok(&avail[..avail.len().min(n)])
    }

    /// From the next byte on, keeps the bytes read until [`Input::unkeep`]
    /// or [`Input::back_to_kept`], as far as the buffer holds them: when
    /// it is full, the kept bytes before the first place after the first
    /// kept byte where `may_start` finds a member may start are let go (all
    /// but the last few when it finds none), and all of them if that is
    /// still too many.
    ///
    /// The gzip and zstd layers keep a streamed member's (frame's) bytes
    /// this way: a member cut short runs the decoder on into the members
    /// after it before it fails, and going back lets the resync find them.
    pub fn keep(&mut self, may_start: fn(&[u8]) -> Option<usize>) {
        self.kept = Some(Kept {
            from: self.start,
            may_start,
        });
    }

    /// Stops keeping bytes.
    pub fn unkeep(&mut self) {
        self.kept = None;
    }

    /// Goes back to the first byte still kept, if any, and stops keeping.
    pub fn back_to_kept(&mut self) {
        if let Some(kept) = self.kept.take() {
            self.pos -= (self.start - kept.from) as u64;
            self.start = kept.from;
        }
    }

    /// Goes back to the first byte still kept, as
    /// [`Input::back_to_kept`], but to one byte past `start` at least: a
    /// scan from there cannot find the member that starts at `start`, the
    /// one that failed, again.
    pub fn back_past(&mut self, start: u64) {
        self.back_to_kept();
        if self.pos <= start {
            self.consume(1);
        }
    }

    /// Whether a member may start (as the `may_start` given to
    /// [`Input::keep`] tells) in the bytes kept and buffered after file
    /// offset `start`, the start of the member that failed. At the file's
    /// end that tells a member cut short and followed by others (its
    /// decoder ran on into them) from the file's last member cut short.
    pub fn may_start_after(&self, start: u64) -> bool {
        let Some(kept) = self.kept else {
            return false;
        };
        let first = self.pos - (self.start - kept.from) as u64;
        let skip = usize::try_from((start + 1).saturating_sub(first)).unwrap_or(usize::MAX);
        self.buf
            .get(kept.from.saturating_add(skip)..self.end)
            .and_then(kept.may_start)
            .is_some()
    }

    /// Makes room for `want` more bytes (at most the buffer size) after
    /// the buffered ones, moving what must stay to the buffer's front.
    fn make_room(&mut self, want: usize) {
        let want = want.min(self.buf.len());
        if let Some(kept) = self.kept
            && self.buf.len() - (self.end - kept.from) < want
        {
            // The first kept byte is where the member that may fail
            // starts: where the next one may start is looked for after it.
            let after_first = self.buf.get(kept.from + 1..self.start).unwrap_or(&[]);
            let from = match (kept.may_start)(after_first) {
                Some(i) => kept.from + 1 + i,
                None => self.start.saturating_sub(HEADER_TAIL).max(kept.from),
            };
            self.kept =
                (self.buf.len() - (self.end - from) >= want).then_some(Kept { from, ..kept });
        }
        if self.buf.len() - self.end < want {
            let from = self.kept.map_or(self.start, |k| k.from);
            self.buf.copy_within(from..self.end, 0);
            self.start -= from;
            self.end -= from;
            if let Some(kept) = &mut self.kept {
                kept.from = 0;
            }
        }
    }

    fn read_inner(&mut self) -> Result<usize, ContainerError> {
        loop {
            match self.inner.read(&mut self.buf[self.end..]) {
                Ok(n) => {
                    self.end += n;
                    return Ok(n);
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(io_error(self.pos, e)),
            }
        }
    }
}

impl<R: Read> Input<R> {
    /// [`BufRead::fill_buf`] with its error as the layers report one: a
    /// [`ContainerError::Io`] at the file offset.
    pub fn filled(&mut self) -> Result<&[u8], ContainerError> {
        let pos = self.pos();
        self.fill_buf().map_err(|e| io_error(pos, e))
    }
}

impl<R: Read> Read for Input<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let avail = self.fill_buf()?;
        let n = avail.len().min(out.len());
        out[..n].copy_from_slice(&avail[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl<R: Read> BufRead for Input<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.start == self.end {
            self.make_room(INPUT_BUFFER / 4);
            self.read_inner().map_err(|e| match e {
                ContainerError::Io { source, .. } => source,
                other => io::Error::other(other.to_string()),
            })?;
        }
        Ok(&self.buf[self.start..self.end])
    }

    fn consume(&mut self, amt: usize) {
        let amt = amt.min(self.end - self.start);
        self.start += amt;
        self.pos += amt as u64;
    }
}

/// A structure the file ends inside of (`what`, at `offset`): a zstd or
/// LZ4 layer's skippable frame or dictionary frame.
pub(crate) fn truncated(offset: u64, what: &str) -> ContainerError {
    ContainerError::Truncated {
        offset,
        what: format!("{what} is incomplete"),
    }
}

pub(crate) fn io_error(offset: u64, source: io::Error) -> ContainerError {
    ContainerError::Io { offset, source }
}

/// The layer for uncompressed files: one member, the whole file.
pub struct Plain<R> {
    input: Input<R>,
    started: bool,
}

impl<R: Read + Send> Decode for Plain<R> {
    fn next_member(&mut self) -> Result<Option<MemberStart>, ContainerError> {
        if self.started {
            return Ok(None);
        }
        self.started = true;
        let offset = self.input.pos();
        Ok(Some(MemberStart::at(offset)))
    }

    fn read(&mut self, out: &mut [u8]) -> Result<usize, ContainerError> {
        let pos = self.input.pos();
        self.input.read(out).map_err(|e| io_error(pos, e))
    }

    /// The whole file is the one member: skipping it ends the file.
    fn skip_member(&mut self) -> Result<(), ContainerError> {
        let mut sink = std::io::sink();
        let pos = self.input.pos();
        io::copy(&mut self.input, &mut sink).map_err(|e| io_error(pos, e))?;
        Ok(())
    }

    fn file_offset(&self) -> u64 {
        self.input.pos()
    }

    fn compression(&self) -> Compression {
        Compression::None
    }
}

/// Opens the right layer for `inner`, whose first byte is at `base`;
/// `start` says whether junk before the first member is looked past.
/// `max_member` caps the decompressed bytes of one gzip member or zstd
/// frame (see [`ContainerError::MemberTooLarge`]); it and `max_payload`, the
/// reader's payload limit, bound the buffer a gzip member is inflated into
/// at once (see [`gzip::whole_max_for`]); `max_payload` also bounds the window
/// a zstd frame may ask for ([`zstd::window_log_max`]).
pub fn open<'r, R: Read + Send + 'r>(
    inner: R,
    base: u64,
    start: Start,
    max_member: u64,
    max_payload: usize,
) -> Result<Box<dyn Decode + 'r>, ContainerError> {
    let mut input = Input::new(inner, base);
    let head = input.peek(8)?.to_vec();
    let mut compression = detect(&head);
    // Junk before the first member: skipped here and reported with that
    // member (`Capped`). Before a plain file's first record, the record
    // layer's own scan skips and reports it.
    let mut junk = (0, base);
    // An ARC file (`filedesc://`) is plain too, read by the record layer.
    let record = head.starts_with(b"WARC/") || head.starts_with(b"filedesc");
    if compression == Compression::None && start == Start::File && !record {
        check_plain(&head)?;
        if let Some((at, found @ (Compression::Gzip | Compression::Zstd | Compression::Lz4))) =
            find_start(
                input.peek(DETECT_WINDOW + CHECK_AHEAD)?,
                zstd::window_log_max(max_payload),
            )
        {
            input.consume(at);
            (junk.0, compression) = (at as u64, found);
        }
    }
    Ok(match compression {
        Compression::Gzip => {
            // A member inflating past `max_member` is given up there: the
            // one-call buffer need not hold more, so such a member is
            // streamed and stopped at the cap rather than inflated whole.
            let cap = usize::try_from(max_member.saturating_add(1)).unwrap_or(usize::MAX);
            let whole_max = gzip::whole_max_for(max_payload).min(cap);
            let members = gzip::Members::with_whole_max(input, whole_max);
            Capped::boxed(Box::new(members), "gzip", max_member, junk)
        }
        Compression::Zstd => {
            let frames = zstd::Frames::new(input, zstd::window_log_max(max_payload));
            Capped::boxed(Box::new(frames), "zstd", max_member, junk)
        }
        Compression::Lz4 => {
            let frames = lz4::Frames::new(input);
            Capped::boxed(Box::new(frames), "lz4", max_member, junk)
        }
        Compression::None => {
            check_plain(&head)?;
            Box::new(Plain {
                input,
                started: false,
            })
        }
    })
}

/// Caps the decompressed bytes of each member of a compressed layer (the
/// bomb guard, `max_member`). A member over the cap is given up where it
/// went over ([`Decode::skip_member`]) with [`ContainerError::MemberTooLarge`],
/// and reading goes on with the next member, as after a corrupt one;
/// nothing of it is decompressed past the cap. The wrapper drains a member
/// itself before moving on, so bytes of records nobody reads count too.
/// It also reports the junk [`open`] skipped before the first member, as
/// garbage before that member.
struct Capped<'r> {
    inner: Box<dyn Decode + 'r>,
    format: &'static str,
    limit: u64,
    /// Bytes skipped before the first member, not reported yet, and
    /// where they start.
    junk: (u64, u64),
    /// Offset of the current member, while inside one.
    member: Option<u64>,
    /// Decompressed bytes of the current member.
    out: u64,
}

impl<'r> Capped<'r> {
    fn boxed(
        inner: Box<dyn Decode + 'r>,
        format: &'static str,
        limit: u64,
        junk: (u64, u64),
    ) -> Box<dyn Decode + 'r> {
        Box::new(Capped {
            inner,
            format,
            limit,
            junk,
            member: None,
            out: 0,
        })
    }
}

impl Decode for Capped<'_> {
    fn next_member(&mut self) -> Result<Option<MemberStart>, ContainerError> {
        let mut sink = [0u8; 16 * 1024];
        while self.member.is_some() {
            self.read(&mut sink)?;
        }
        let (junk, from) = std::mem::take(&mut self.junk);
        let start = match self.inner.next_member() {
            Ok(Some(start)) if junk > 0 => Some(MemberStart {
                garbage: start.garbage + junk,
                garbage_from: from,
                ..start
            }),
            Ok(Some(start)) => Some(start),
            Ok(None) if junk > 0 => return Err(ContainerError::Garbage { len: junk }),
            Ok(None) => None,
            Err(ContainerError::Garbage { len }) => {
                return Err(ContainerError::Garbage { len: len + junk });
            }
            Err(e) => return Err(e),
        };
        self.member = start.map(|s| s.offset);
        self.out = 0;
        Ok(start)
    }

    fn read(&mut self, out: &mut [u8]) -> Result<usize, ContainerError> {
        let Some(offset) = self.member else {
            return Ok(0);
        };
        let n = self.inner.read(out).inspect_err(|_| self.member = None)?;
        if n == 0 {
            self.member = None;
        }
        self.out += n as u64;
        if self.out > self.limit {
            self.skip_member()?;
            return Err(ContainerError::MemberTooLarge {
                format: self.format,
                offset,
                limit: self.limit,
            });
        }
        Ok(n)
    }

    fn skip_member(&mut self) -> Result<(), ContainerError> {
        self.member = None;
        self.inner.skip_member()
    }

    fn file_offset(&self) -> u64 {
        self.inner.file_offset()
    }

    fn compression(&self) -> Compression {
        self.inner.compression()
    }
}

/// Refuses well-known non-WARC formats early with a clear message.
fn check_plain(head: &[u8]) -> Result<(), ContainerError> {
    let what = if head.starts_with(b"BZh") {
        "bzip2 compression is not supported"
    } else if head.starts_with(&[0xfd, b'7', b'z', b'X', b'Z']) {
        "xz compression is not supported"
    } else if head.starts_with(b"PK\x03\x04") {
        "this is a zip archive"
    } else if head.starts_with(b"7z\xbc\xaf\x27\x1c") {
        "this is a 7z archive"
    } else if head.starts_with(b"Rar!\x1a\x07") {
        "this is a RAR archive"
    } else if head.starts_with(&lz4::LEGACY_MAGIC) {
        "the legacy LZ4 format (lz4 -l) is not supported; LZ4 frames (lz4's default) are"
    } else {
        return Ok(());
    };
    Err(ContainerError::Unsupported(what))
}

/// Bytes that do not compress (xorshift from `seed`): gzip and zstd store
/// them as they are, for the layers' tests of long members and frames.
#[cfg(test)]
fn noise(len: usize, seed: u64) -> Vec<u8> {
    let mut x = seed | 1;
    (0..len)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::codec::gzip_header::{FCOMMENT, FEXTRA, FHCRC, FNAME};

    fn gz_member(data: &[u8], os: u8) -> Vec<u8> {
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        std::io::Write::write_all(&mut gz, data).unwrap();
        let mut member = gz.finish().unwrap();
        member[9] = os;
        member
    }

    fn zst_frame(data: &[u8]) -> Vec<u8> {
        ::zstd::encode_all(data, 3).unwrap()
    }

    fn lz4_frame(data: &[u8]) -> Vec<u8> {
        use std::io::Write;
        let mut e = lz4_flex::frame::FrameEncoder::new(Vec::new());
        e.write_all(data).unwrap();
        e.finish().unwrap()
    }

    const RECORD: &[u8] = b"WARC/1.1\r\nWARC-Type: warcinfo\r\nContent-Length: 0\r\n\r\n\r\n\r\n";

    /// The earliest start wins; bytes that begin no member, or a member
    /// that holds no record, are passed over.
    #[test]
    fn find_start_takes_the_first_start_of_a_record() {
        let gzip = gz_member(RECORD, 3);
        let junk = b"HTTP/1.1 200 OK\r\n\r\n";
        let at = |parts: &[&[u8]]| find_start(&parts.concat(), 23);
        assert_eq!(at(&[junk, &gzip]), Some((junk.len(), Compression::Gzip)));
        // Any OS byte (zlib writes 19 on macOS); line ends before the record.
        for os in [0, 3, 13, 16, 18, 19, 255] {
            let member = gz_member(RECORD, os);
            assert_eq!(at(&[junk, &member]).map(|s| s.1), Some(Compression::Gzip));
        }
        let blank = gz_member(&[b"\r\n", RECORD].concat(), 3);
        assert_eq!(at(&[junk, &blank]), Some((junk.len(), Compression::Gzip)));
        // A gzip magic with a bad method or XFL, cut short, a header with
        // nothing after it, or a real member of something else (a
        // payload's gzip body).
        let html = gz_member(b"<html>gzip-encoded body</html>", 3);
        for bad in [
            &[0x1f, 0x8b, 7][..],
            &[0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 9, 3],
            &gzip[..9],
            &gzip[..10],
            &html,
        ] {
            assert_eq!(at(&[junk, bad]), None, "{bad:?}");
            assert_eq!(at(&[bad, &gzip]).map(|s| s.1), Some(Compression::Gzip));
            // A record after it: a plain file that begins part way
            // through a record.
            let plain = at(&[junk, bad, b"\r\n\r\n", RECORD, &gzip]);
            assert_eq!(plain, Some((junk.len() + bad.len() + 4, Compression::None)));
        }
        let zstd = zst_frame(RECORD);
        assert_eq!(at(&[junk, &zstd]), Some((junk.len(), Compression::Zstd)));
        assert_eq!(at(&[junk, &[0x28, 0xb5, 0x2f, 0xfd, 0x28]]), None);
        let other = zst_frame(b"<html>zstd-encoded body</html>");
        assert_eq!(at(&[junk, &other]), None);
        assert_eq!(
            at(&[junk, &other, RECORD]).map(|s| s.1),
            Some(Compression::None)
        );
        let lz4 = lz4_frame(RECORD);
        assert_eq!(at(&[junk, &lz4]), Some((junk.len(), Compression::Lz4)));
        // A frame magic with a wrong header checksum, a frame cut in its
        // first block, a frame of something else: no LZ4 (the record's
        // first bytes, LZ4 literals, are found as a plain record).
        let mut bad_header = lz4.clone();
        bad_header[6] ^= 0xff;
        for bad in [&bad_header[..], &lz4[..lz4.len() / 2]] {
            let found = at(&[junk, bad]);
            assert!(found.is_none_or(|s| s.1 == Compression::None), "{found:?}");
        }
        let other = lz4_frame(b"<html>lz4 body</html>");
        assert_eq!(at(&[junk, &other]), None);
        assert_eq!(
            at(&[junk, &other, &lz4]).map(|s| s.1),
            Some(Compression::Lz4)
        );
        // A dictionary frame holding a compressed dictionary, a dictionary,
        // or neither.
        let dictionary = |body: &[u8]| {
            let size = u32::try_from(body.len()).unwrap().to_le_bytes();
            [&0x184D_2A5Du32.to_le_bytes()[..], &size, body].concat()
        };
        for body in [&zstd[..], &RAW_DICTIONARY_MAGIC] {
            let found = at(&[b"x", &dictionary(body), &zstd]);
            assert_eq!(found, Some((1, Compression::Zstd)));
        }
        assert_eq!(at(&[b"x", &dictionary(b"junk")]), None);
        // A record before a member (a payload's gzip data) is a plain file.
        assert_eq!(
            at(&[b"x WARC/1.1\r\n", &gzip]),
            Some((2, Compression::None))
        );
        assert_eq!(
            at(&[b"WARC/x", &gzip]).map(|s| s.1),
            Some(Compression::Gzip)
        );
    }

    /// A candidate near the window's end is checked against the bytes
    /// after it: a zstd frame whose first block runs past the window, a
    /// gzip member whose header does. One at the window's end or past it
    /// is not looked at.
    #[test]
    fn find_start_checks_a_candidate_against_the_bytes_past_the_window() {
        let mut x = 7u64;
        let text: Vec<u8> = (0..100 << 10)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                b'a' + (x % 26) as u8
            })
            .collect();
        let zstd = zst_frame(&[RECORD, &text].concat());
        assert!(zstd.len() > 40 << 10, "{}", zstd.len());
        let gzip = gz_member(RECORD, 3);
        let junk = |len: usize| vec![b'.'; len];
        for (member, compression) in [(&zstd, Compression::Zstd), (&gzip, Compression::Gzip)] {
            for at in [60 << 10, DETECT_WINDOW - 6, DETECT_WINDOW - 1] {
                let bytes = [&junk(at)[..], member].concat();
                assert_eq!(find_start(&bytes, 23), Some((at, compression)), "at {at}");
            }
            let bytes = [&junk(DETECT_WINDOW)[..], member].concat();
            assert_eq!(find_start(&bytes, 23), None);
        }
        let bytes = [&junk(DETECT_WINDOW - 1)[..], RECORD].concat();
        assert_eq!(
            find_start(&bytes, 23),
            Some((DETECT_WINDOW - 1, Compression::None))
        );
    }

    /// A gzip header's fields must end within [`MAX_GZIP_HEADER`] bytes:
    /// a name that does is read past, one that does not (or is never
    /// ended) is no member's start.
    #[test]
    fn find_start_takes_a_gzip_header_whose_fields_end_soon() {
        let plain = gz_member(RECORD, 3);
        // The header CRC, when the flags announce one, is the right one.
        let with = |flags: u8, fields: &[u8]| {
            let mut header = [&plain[..10], fields].concat();
            header[3] = flags;
            if flags & FHCRC != 0 {
                header.extend(header_crc(&header));
            }
            [&header[..], &plain[10..]].concat()
        };
        let name = |len: usize| [&vec![b'n'; len][..], &[0]].concat();
        let extra = [&[4, 0][..], b"sl\0\0"].concat();
        let all = [&extra[..], &name(20), &name(30)].concat();
        for (flags, fields) in [(0x08, name(900)), (0x04, extra), (0x1e, all)] {
            let member = with(flags, &fields);
            assert_eq!(
                find_start(&[b"x", &member[..]].concat(), 23),
                Some((1, Compression::Gzip))
            );
        }
        for fields in [name(MAX_GZIP_HEADER), vec![b'n'; 4 << 10]] {
            let member = with(0x08, &fields);
            assert_eq!(find_start(&[b"x", &member[..]].concat(), 23), None);
        }
        // Thousands of headers whose name never ends, then a member.
        let header = [0x1f, 0x8b, 0x08, 0x08, 1, 1, 1, 1, 2, 3];
        let mut junk: Vec<u8> = b"x".to_vec();
        junk.extend(header.iter().copied().cycle().take(65_000));
        let found = find_start(&[&junk[..], &plain].concat(), 23);
        assert_eq!(found, Some((junk.len(), Compression::Gzip)));
    }

    /// The `FHCRC` field of a gzip header: the low 16 bits of the CRC-32
    /// of the header before it (also used by `gzip`'s tests).
    pub(crate) fn header_crc(header: &[u8]) -> [u8; 2] {
        let mut crc = flate2::Crc::new();
        crc.update(header);
        (crc.sum() as u16).to_le_bytes()
    }

    /// What the reader's layers make of `file` from its start (as [`open`]
    /// reads a file): each member's offset, the garbage before it, and its
    /// bytes or, if it fails, its error.
    fn read_members(file: &[u8]) -> Vec<(u64, u64, Result<Vec<u8>, ContainerError>)> {
        let mut layer = open(file, 0, Start::File, 1 << 30, 10 << 20).unwrap();
        let mut members = Vec::new();
        while let Some(start) = layer.next_member().unwrap() {
            let read = read_member(&mut *layer);
            members.push((start.offset, start.garbage, read));
        }
        members
    }

    /// The rest of the current member of `layer`, read in chunks of an
    /// odd size (so reads end mid-way through buffers), or the first
    /// error (also used by `gzip`'s tests).
    pub(crate) fn read_member(layer: &mut dyn Decode) -> Result<Vec<u8>, ContainerError> {
        let (mut bytes, mut chunk) = (Vec::new(), [0u8; 7000]);
        loop {
            match layer.read(&mut chunk)? {
                0 => return Ok(bytes),
                n => bytes.extend_from_slice(&chunk[..n]),
            }
        }
    }

    /// A gzip header that says it carries a CRC (`FHCRC`) starts a member
    /// only if the CRC is right, as the reader reads such a member (and
    /// fails it at the file's start): junk with that flag bit set and any
    /// two bytes after the header is passed over, and the member after it
    /// found.
    #[test]
    fn find_start_checks_a_gzip_header_crc() {
        let plain = gz_member(RECORD, 3);
        let name = b"record.warc\0";
        // The CRC covers every field before it: an extra field (2-byte
        // length, then its bytes), a name, a comment.
        let extra = [&[4, 0][..], b"sl\0\0"].concat();
        let extra_comment = [&extra[..], b"a comment\0"].concat();
        let all = [&extra[..], name, b"a comment\0"].concat();
        for (flags, fields) in [
            (FHCRC, &[][..]),
            (FHCRC | FNAME, &name[..]),
            (FHCRC | FEXTRA | FCOMMENT, &extra_comment[..]),
            (FHCRC | FEXTRA | FNAME | FCOMMENT, &all[..]),
        ] {
            let mut header = [&plain[..10], fields].concat();
            header[3] = flags;
            let right = header_crc(&header);
            let member = |crc: [u8; 2]| [&header[..], &crc, &plain[10..]].concat();
            let good = member(right);
            let read = read_members(&good);
            assert!(
                matches!(&read[..], [(0, 0, Ok(r))] if r == RECORD),
                "{read:?}"
            );
            assert_eq!(
                find_start(&[b"x", &good[..]].concat(), 23),
                Some((1, Compression::Gzip))
            );
            let [lo, hi] = right;
            for wrong in [[lo ^ 1, hi], [lo, hi ^ 0x80], [hi, lo], [0, 0]] {
                if wrong == right {
                    continue;
                }
                let bad = member(wrong);
                let read = read_members(&bad);
                assert!(
                    matches!(
                        &read[..],
                        [(
                            0,
                            0,
                            Err(ContainerError::Corrupt {
                                format: "gzip",
                                offset: 0,
                                ..
                            })
                        )]
                    ),
                    "{read:?}"
                );
                assert_eq!(find_start(&[b"x", &bad[..]].concat(), 23), None);
                let then = [b"x", &bad[..], &plain].concat();
                let found = find_start(&then, 23);
                let at = 1 + bad.len();
                assert_eq!(found, Some((at, Compression::Gzip)));
                let read = read_members(&then);
                let at = at as u64;
                assert!(
                    matches!(&read[..], [(o, g, Ok(r))] if (*o, *g) == (at, at) && r == RECORD),
                    "{read:?}"
                );
            }
        }
    }

    /// Empty deflate blocks: a stored one (aligned, 5 bytes), and four
    /// fixed ones (10 bits each: 5 bytes, aligned again).
    const EMPTY_BLOCKS: [[u8; 5]; 2] = [[0, 0, 0, 0xff, 0xff], [0x02, 0x08, 0x20, 0x80, 0]];

    /// A gzip member of [`RECORD`] whose deflate data begins with `n`
    /// runs of `empty` blocks; flate2 reads it whole.
    fn member_after_empty_blocks(empty: &[u8], n: usize) -> Vec<u8> {
        let mut deflate =
            flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::fast());
        std::io::Write::write_all(&mut deflate, RECORD).unwrap();
        let mut crc = flate2::Crc::new();
        crc.update(RECORD);
        let member = [
            &gz_member(RECORD, 3)[..10],
            &empty.repeat(n),
            &deflate.finish().unwrap(),
            &crc.sum().to_le_bytes(),
            &(RECORD.len() as u32).to_le_bytes(),
        ]
        .concat();
        let mut out = Vec::new();
        flate2::read::GzDecoder::new(&member[..])
            .read_to_end(&mut out)
            .unwrap();
        assert_eq!(out, RECORD);
        member
    }

    /// A gzip candidate whose deflate data gives nothing for
    /// [`HEAD_IN`] bytes (a run of empty blocks) is passed over, even if
    /// a record follows the run: it is decoded that far and no farther.
    /// A few empty blocks first (a writer's flush) are read past.
    #[test]
    fn find_start_gives_up_on_a_run_of_empty_deflate_blocks() {
        for empty in EMPTY_BLOCKS {
            let few = member_after_empty_blocks(&empty, 4);
            let found = find_start(&[b"x", &few[..]].concat(), 23);
            assert_eq!(found, Some((1, Compression::Gzip)));
            let many = member_after_empty_blocks(&empty, 2_000);
            assert_eq!(find_start(&[b"x", &many[..]].concat(), 23), None);
            // A member after it is found.
            let plain = gz_member(RECORD, 3);
            let then = [b"x", &many[..], &plain].concat();
            let found = find_start(&then, 23);
            assert_eq!(found, Some((1 + many.len(), Compression::Gzip)));
        }
    }

    /// Junk made to keep the check busy: a hundred gzip headers, each
    /// named by the headers after it, so that all of them end where one
    /// run of empty deflate blocks (most of the window) begins. Behind the
    /// run are a record's deflate data, then the member's trailer, then a
    /// plain record, so a candidate decoded to the run's end would be
    /// taken: every one of them is passed over only because it is decoded
    /// [`HEAD_IN`] bytes at most, and the plain record is found.
    #[test]
    fn find_start_passes_over_headers_sharing_a_run_of_empty_blocks() {
        let header = [0x1f, 0x8b, 0x08, FNAME, 1, 1, 1, 1, 2, 3];
        for empty in EMPTY_BLOCKS {
            let mut bytes = b"x".to_vec();
            for _ in 0..100 {
                bytes.extend(header);
            }
            bytes.push(0);
            let names_end = bytes.len();
            // The run, then the record's deflate data and the trailer.
            let member = member_after_empty_blocks(&empty, 12_000);
            bytes.extend(&member[10..]);
            let record_at = bytes.len();
            bytes.extend(RECORD);
            assert!(names_end - 1 <= MAX_GZIP_HEADER);
            assert_eq!(gzip_header_len(&bytes[1..]), Some(names_end - 1));
            assert!(record_at - names_end > 10 * HEAD_IN);
            let found = find_start(&bytes, 23);
            assert_eq!(found, Some((record_at, Compression::None)));
        }
    }

    /// A zstd frame asking for a window past the reader's limit is no
    /// start, as the reader would fail it.
    #[test]
    fn find_start_bounds_a_zstd_frames_window() {
        let mut encoder = ::zstd::stream::write::Encoder::new(Vec::new(), 3).unwrap();
        encoder.window_log(25).unwrap();
        std::io::Write::write_all(&mut encoder, RECORD).unwrap();
        let frame = encoder.finish().unwrap();
        let bytes = [&b"x"[..], &frame].concat();
        // (The record's own bytes, stored as literals, may be found.)
        let found = find_start(&bytes, 23).map(|s| s.1);
        assert_ne!(found, Some(Compression::Zstd));
        assert_eq!(find_start(&bytes, 25), Some((1, Compression::Zstd)));
    }
}
