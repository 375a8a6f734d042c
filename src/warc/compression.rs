//! Compression detection and the common interface of the decompression
//! layers: a file is a sequence of *members* (gzip members, zstd frames, or
//! the whole file when it is not compressed), each decompressed on demand.
//! It knows file offsets but nothing about WARC records.

use super::error::WarcError;
use super::{gzip, zstd};
use std::io::{self, BufRead, Read};

/// How a WARC file is compressed, told from its first bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compression {
    None,
    Gzip,
    Zstd,
}

const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];
/// Little-endian zstd frame magic 0xFD2FB528.
pub(crate) const ZSTD_MAGIC: [u8; 4] = [0x28, 0xb5, 0x2f, 0xfd];

/// Tells the compression from the first bytes of a file (or of a record
/// at a CDX offset). Unknown bytes are taken as uncompressed.
pub fn detect(prefix: &[u8]) -> Compression {
    if prefix.starts_with(&GZIP_MAGIC) {
        Compression::Gzip
    } else if prefix.starts_with(&ZSTD_MAGIC) || zstd::is_skippable(prefix) {
        Compression::Zstd
    } else {
        Compression::None
    }
}

/// Where a member starts in the file, and garbage skipped to find it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MemberStart {
    pub offset: u64,
    /// Bytes of garbage skipped before this member.
    pub garbage: u64,
}

/// One decompression layer over a file.
pub trait Decode: Send {
    /// Moves to the next member, skipping garbage between members.
    /// `Ok(None)` at the end of the file. The current member must be done.
    fn next_member(&mut self) -> Result<Option<MemberStart>, WarcError>;
    /// Decompressed bytes of the current member; `Ok(0)` at its end.
    fn read(&mut self, out: &mut [u8]) -> Result<usize, WarcError>;
    /// Gives up the current member without decompressing the rest of it:
    /// the next [`Decode::next_member`] moves to the member after it, where
    /// the member's own structure says it ends or, where it says nothing
    /// (deflate), at the next member header found, as after a corrupt
    /// member. Reads no more than the compressed bytes up to there.
    fn skip_member(&mut self) -> Result<(), WarcError>;
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
    pub fn peek(&mut self, n: usize) -> Result<&[u8], WarcError> {
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

    fn read_inner(&mut self) -> Result<usize, WarcError> {
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
    /// [`WarcError::Io`] at the file offset.
    pub fn filled(&mut self) -> Result<&[u8], WarcError> {
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
                WarcError::Io { source, .. } => source,
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

pub(crate) fn io_error(offset: u64, source: io::Error) -> WarcError {
    WarcError::Io { offset, source }
}

/// The layer for uncompressed files: one member, the whole file.
pub struct Plain<R> {
    input: Input<R>,
    started: bool,
}

impl<R: Read + Send> Decode for Plain<R> {
    fn next_member(&mut self) -> Result<Option<MemberStart>, WarcError> {
        if self.started {
            return Ok(None);
        }
        self.started = true;
        Ok(Some(MemberStart {
            offset: self.input.pos(),
            garbage: 0,
        }))
    }

    fn read(&mut self, out: &mut [u8]) -> Result<usize, WarcError> {
        let pos = self.input.pos();
        self.input.read(out).map_err(|e| io_error(pos, e))
    }

    /// The whole file is the one member: skipping it ends the file.
    fn skip_member(&mut self) -> Result<(), WarcError> {
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

/// Opens the right layer for `inner`, whose first byte is at `base`.
/// `max_member` caps the decompressed bytes of one gzip member or zstd
/// frame (see [`WarcError::MemberTooLarge`]); it and `max_payload`, the
/// reader's payload limit, bound the buffer a gzip member is inflated into
/// at once (see [`gzip::whole_max_for`]); `max_payload` also bounds the window
/// a zstd frame may ask for ([`zstd::window_log_max`]).
pub fn open<'r, R: Read + Send + 'r>(
    inner: R,
    base: u64,
    max_member: u64,
    max_payload: usize,
) -> Result<Box<dyn Decode + 'r>, WarcError> {
    let mut input = Input::new(inner, base);
    let head = input.peek(8)?.to_vec();
    Ok(match detect(&head) {
        Compression::Gzip => {
            // A member inflating past `max_member` is given up there: the
            // one-call buffer need not hold more, so such a member is
            // streamed and stopped at the cap rather than inflated whole.
            let cap = usize::try_from(max_member.saturating_add(1)).unwrap_or(usize::MAX);
            let whole_max = gzip::whole_max_for(max_payload).min(cap);
            let members = gzip::Members::with_whole_max(input, whole_max);
            Capped::boxed(Box::new(members), "gzip", max_member)
        }
        Compression::Zstd => {
            let frames = zstd::Frames::new(input, zstd::window_log_max(max_payload));
            Capped::boxed(Box::new(frames), "zstd", max_member)
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
/// went over ([`Decode::skip_member`]) with [`WarcError::MemberTooLarge`],
/// and reading goes on with the next member, as after a corrupt one;
/// nothing of it is decompressed past the cap. The wrapper drains a member
/// itself before moving on, so bytes of records nobody reads count too.
struct Capped<'r> {
    inner: Box<dyn Decode + 'r>,
    format: &'static str,
    limit: u64,
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
    ) -> Box<dyn Decode + 'r> {
        Box::new(Capped {
            inner,
            format,
            limit,
            member: None,
            out: 0,
        })
    }
}

impl Decode for Capped<'_> {
    fn next_member(&mut self) -> Result<Option<MemberStart>, WarcError> {
        let mut sink = [0u8; 16 * 1024];
        while self.member.is_some() {
            self.read(&mut sink)?;
        }
        let start = self.inner.next_member()?;
        self.member = start.map(|s| s.offset);
        self.out = 0;
        Ok(start)
    }

    fn read(&mut self, out: &mut [u8]) -> Result<usize, WarcError> {
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
            return Err(WarcError::MemberTooLarge {
                format: self.format,
                offset,
                limit: self.limit,
            });
        }
        Ok(n)
    }

    fn skip_member(&mut self) -> Result<(), WarcError> {
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
fn check_plain(head: &[u8]) -> Result<(), WarcError> {
    let what = if head.starts_with(b"BZh") {
        "bzip2 compression is not supported"
    } else if head.starts_with(&[0xfd, b'7', b'z', b'X', b'Z']) {
        "xz compression is not supported"
    } else if head.starts_with(b"PK\x03\x04") {
        "this is a zip archive"
    } else {
        return Ok(());
    };
    Err(WarcError::NotWarc(what.into()))
}
