//! A buffered view of the decompressed bytes, member by member, that knows
//! where each byte came from: the file offset of its member and the
//! position inside it. It never crosses a member boundary on its own; the
//! record layer decides when to move on. It knows nothing about records.

use super::error::WarcError;
use crate::codec::container::{Compression, Decode};
use crate::codec::error::ContainerError;

const BUFFER: usize = 64 * 1024;

/// Where a record starts: the file offset to seek to (a member start for
/// compressed files, the record itself for plain ones) and how many
/// decompressed bytes to skip from there (0 unless several records share
/// one member, as in a whole-file gzip stream).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct RecordPos {
    pub offset: u64,
    pub inner: u64,
}

pub struct Stream<'r> {
    layer: Box<dyn Decode + 'r>,
    buf: Vec<u8>,
    start: usize,
    end: usize,
    member_offset: u64,
    pos_in_member: u64,
    /// The current member has been read to its end.
    member_done: bool,
    /// There is no current member (before the first, after the last).
    no_member: bool,
    garbage: u64,
    /// Where the garbage not asked about yet starts, when the layer said.
    garbage_from: Option<u64>,
    /// The file ends inside the current member (the layer said
    /// `Truncated`): what decoded before the cut is served, then the
    /// member ends, and [`Stream::next_member`] fails with this.
    cut: Option<WarcError>,
}

impl<'r> Stream<'r> {
    pub fn new(layer: Box<dyn Decode + 'r>) -> Self {
        Stream {
            layer,
            buf: vec![0; BUFFER],
            start: 0,
            end: 0,
            member_offset: 0,
            pos_in_member: 0,
            member_done: true,
            no_member: true,
            garbage: 0,
            garbage_from: None,
            cut: None,
        }
    }

    pub fn compression(&self) -> Compression {
        self.layer.compression()
    }

    /// Compressed bytes consumed so far.
    pub fn file_offset(&self) -> u64 {
        self.layer.file_offset()
    }

    /// Where the next unconsumed byte is, as a record position.
    pub fn position(&self) -> RecordPos {
        if self.compression() == Compression::None {
            RecordPos {
                offset: self.member_offset + self.pos_in_member,
                inner: 0,
            }
        } else {
            RecordPos {
                offset: self.member_offset,
                inner: self.pos_in_member,
            }
        }
    }

    /// Bytes of garbage the layer skipped between members since last
    /// asked, and where they start if the layer said (it does not for
    /// garbage at the file's end, which ends where the file does).
    pub fn take_garbage(&mut self) -> (u64, Option<u64>) {
        (std::mem::take(&mut self.garbage), self.garbage_from.take())
    }

    /// Whether the layer skipped garbage before the current member (or
    /// the file's end) that nobody has asked about yet.
    pub fn garbage_pending(&self) -> bool {
        self.garbage > 0
    }

    /// Whether there is a current member (false after the last).
    pub fn in_member(&self) -> bool {
        !self.no_member
    }

    /// Buffered bytes of the current member; empty at its end.
    pub fn fill(&mut self) -> Result<&[u8], WarcError> {
        if self.start == self.end && !self.member_done {
            self.start = 0;
            self.end = 0;
            self.end = self.read_layer(0)?;
            self.member_done = self.end == 0;
        }
        Ok(&self.buf[self.start..self.end])
    }

    /// At least `n` bytes of the current member (at most the buffer size),
    /// fewer only at the member's end.
    pub fn fill_at_least(&mut self, n: usize) -> Result<&[u8], WarcError> {
        let n = n.min(BUFFER);
        if self.end - self.start < n {
            self.buf.copy_within(self.start..self.end, 0);
            self.end -= self.start;
            self.start = 0;
            while self.end < n && !self.member_done {
                let got = self.read_layer(self.end)?;
                self.end += got;
                self.member_done = got == 0;
            }
        }
        Ok(&self.buf[self.start..self.end])
    }

    /// Decompressed bytes into the buffer from `from` on; a cut (the file
    /// ends inside the member) reads as the member's end, and is kept for
    /// [`Stream::next_member`] to tell.
    fn read_layer(&mut self, from: usize) -> Result<usize, WarcError> {
        match self.layer.read(&mut self.buf[from..]) {
            Ok(n) => Ok(n),
            Err(e @ ContainerError::Truncated { .. }) => {
                self.cut = Some(e.into());
                Ok(0)
            }
            Err(e) => Err(e.into()),
        }
    }

    /// Whether the file ends inside the current member: its bytes end
    /// where the cut is.
    pub fn is_cut(&self) -> bool {
        self.cut.is_some()
    }

    /// Says the file ends here, inside the current member or record
    /// (`error` tells where): the member ends, and [`Stream::next_member`]
    /// fails with `error`.
    pub fn cut_here(&mut self, error: WarcError) {
        self.start = self.end;
        self.member_done = true;
        self.cut = Some(error);
    }

    /// The cut, taken to be told now rather than by
    /// [`Stream::next_member`].
    pub fn take_cut(&mut self) -> Option<WarcError> {
        self.cut.take()
    }

    /// The bytes buffered of the current member, without reading more.
    pub fn buffered(&self) -> &[u8] {
        &self.buf[self.start..self.end]
    }

    pub fn consume(&mut self, n: usize) {
        let n = n.min(self.end - self.start);
        self.start += n;
        self.pos_in_member += n as u64;
    }

    /// Whether the current member has no more bytes.
    pub fn at_member_end(&mut self) -> Result<bool, WarcError> {
        Ok(self.fill()?.is_empty())
    }

    /// Moves to the next member (discarding what is left of this one);
    /// `false` at the end of the file.
    pub fn next_member(&mut self) -> Result<bool, WarcError> {
        if let Some(cut) = self.cut.take() {
            return Err(cut);
        }
        self.start = 0;
        self.end = 0;
        let next = self.layer.next_member();
        self.no_member = true;
        self.member_done = true;
        let start = match next {
            Ok(Some(start)) => start,
            Ok(None) => return Ok(false),
            // Trailing garbage after the last member.
            Err(ContainerError::Garbage { len }) => {
                self.garbage += len;
                return Ok(false);
            }
            Err(e) => return Err(e.into()),
        };
        if start.garbage > 0 {
            self.garbage += start.garbage;
            self.garbage_from.get_or_insert(start.garbage_from);
        }
        self.member_offset = start.offset;
        self.pos_in_member = 0;
        self.member_done = false;
        self.no_member = false;
        Ok(true)
    }

    /// Drops what is buffered of the current member after the layer
    /// failed on it; the next [`Stream::next_member`] goes on from there.
    pub fn abandon_member(&mut self) {
        self.start = 0;
        self.end = 0;
        self.member_done = true;
    }

    /// Whether nothing of the current member has been consumed yet.
    pub fn at_member_start(&self) -> bool {
        !self.no_member && self.pos_in_member == 0
    }
}
