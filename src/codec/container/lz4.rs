//! The LZ4 layer for `.warc.lz4` files as FastWARC writes them: one LZ4
//! frame (the LZ4 frame format, lz4's `doc/lz4_Frame_format.md`) per
//! record, as a `.warc.gz` file has one gzip member per record, so a
//! record's offset is its frame's start. Skippable frames are passed over;
//! bytes that open no frame are garbage up to the next frame magic. It
//! does not parse records, and reads neither the legacy format (`lz4 -l`)
//! nor frames that need a dictionary (those fail as corrupt).
//!
//! Frames are decoded by lz4_flex's frame decoder: pure Rust (no C
//! toolchain, no unsafe), block and content checksums checked, memory
//! bounded by the frame's block size (4 MiB at most). It reads its input
//! exactly as the frame's sizes say, never past a frame's end, so the
//! file offset after a frame is the next one's. A [`Walk`] follows each
//! frame's headers through the bytes the decoder takes: the decoder takes
//! a frame cut at a block boundary for a frame that ended, and the walk
//! tells the two apart; a frame given up part way (over the reader's
//! `max_member`) is passed over to its end as its block sizes say,
//! without decoding. A frame that fails is reported once
//! ([`ContainerError::Corrupt`]) and reading resumes at the next frame
//! magic after its start (its bytes are kept for that, as the gzip and
//! zstd layers keep theirs). A file cut inside a frame keeps the blocks
//! decoded before the cut and ends with [`ContainerError::Truncated`].

use super::gzip::skip_to_magic;
use super::{Compression, Decode, Input, MemberStart};
use crate::codec::error::ContainerError;
use crate::codec::zstd_magic::{SKIPPABLE_FIRST, SKIPPABLE_LAST, magic};
use lz4_flex::frame::FrameDecoder;
use std::io::{self, BufRead, Read};

/// The magic number opening an LZ4 frame, as it is written (0x184D2204,
/// little-endian).
pub(crate) const MAGIC: [u8; 4] = [0x04, 0x22, 0x4d, 0x18];

/// The magic number of the legacy format (`lz4 -l`), which is not read.
pub(crate) const LEGACY_MAGIC: [u8; 4] = [0x02, 0x21, 0x4c, 0x18];

/// The input as the decoder reads it, its frame followed on the way.
struct Tap<R> {
    input: Input<R>,
    walk: Walk,
}

impl<R: Read> Read for Tap<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let n = self.input.read(out)?;
        self.walk.follow(&out[..n]);
        Ok(n)
    }
}

pub struct Frames<R: Read> {
    /// Always there; taken only for a moment to start a fresh decoder
    /// (see [`Frames::fresh_decoder`]).
    decoder: Option<FrameDecoder<Tap<R>>>,
    in_frame: bool,
    frame_offset: u64,
    /// The last frame was corrupt: the bytes up to the next frame are its
    /// remains, not garbage to report.
    resync: bool,
}

impl<R: Read + Send> Frames<R> {
    pub fn new(input: Input<R>) -> Self {
        Frames {
            frame_offset: input.pos(),
            decoder: Some(FrameDecoder::new(Tap {
                input,
                walk: Walk::default(),
            })),
            in_frame: false,
            resync: false,
        }
    }

    fn tap(&mut self) -> Option<&mut Tap<R>> {
        self.decoder.as_mut().map(FrameDecoder::get_mut)
    }

    /// A decoder that starts at a frame header: lz4_flex's goes on with
    /// the blocks of a frame it failed or was stopped in.
    fn fresh_decoder(&mut self) {
        self.decoder = self
            .decoder
            .take()
            .map(|d| FrameDecoder::new(d.into_inner()));
    }

    /// Starts decoding the frame at the input's position.
    fn start_frame(&mut self, offset: u64) -> MemberStart {
        if let Some(tap) = self.tap() {
            tap.walk = Walk::default();
            // A frame cut short runs the decoder on into the frames after
            // it: keep its bytes to come back to them (see `give_up`).
            tap.input.keep(frame_magic_in);
        }
        self.in_frame = true;
        self.frame_offset = offset;
        MemberStart {
            offset,
            garbage: 0,
            garbage_from: offset,
        }
    }

    /// Gives up the current frame after `error`: back at the first byte
    /// still kept of it, but at least one byte past its start, so the
    /// next scan cannot find the same frame again.
    fn abandon(&mut self, error: ContainerError) -> ContainerError {
        self.give_up();
        error
    }

    fn give_up(&mut self) {
        let start = self.frame_offset;
        if let Some(tap) = self.tap() {
            tap.input.back_to_kept();
            if tap.input.pos() <= start {
                tap.input.consume(1);
            }
        }
        self.fresh_decoder();
        self.in_frame = false;
        self.resync = true;
    }

    /// The current frame ended where it should.
    fn end_frame(&mut self) {
        if let Some(tap) = self.tap() {
            tap.input.unkeep();
        }
        self.in_frame = false;
    }

    /// After the decoder said the frame ended, or failed: what that was,
    /// from the walk and whether the file has bytes left.
    fn after_stop(&mut self, failed: Option<io::Error>) -> Result<Stop, ContainerError> {
        let offset = self.frame_offset;
        let Some(tap) = self.tap() else {
            return Ok(Stop::Ended);
        };
        let pos = tap.input.pos();
        let at_end = tap.input.peek(1)?.is_empty();
        Ok(match failed {
            None if tap.walk.done() => Stop::Ended,
            // A block of no bytes: the decoder says nothing for it.
            None if !at_end && !tap.walk.lost() => Stop::Empty,
            None if at_end => Stop::Cut(pos),
            None => Stop::Corrupt("the frame's structure makes no sense".into()),
            Some(e) if at_end && e.kind() == io::ErrorKind::UnexpectedEof => {
                // Cut short and followed by others the decoder took for
                // the rest of its block: then only this frame is lost.
                if tap.input.may_start_after(offset) {
                    Stop::Corrupt("cut short, then another frame".into())
                } else {
                    Stop::Cut(pos)
                }
            }
            Some(e) => Stop::Corrupt(e.to_string()),
        })
    }

    /// Passes over the current frame's remaining bytes as its headers
    /// tell, without decoding; `false` if they make no sense or the file
    /// ends first.
    fn walk_to_end(&mut self) -> Result<bool, ContainerError> {
        let Some(tap) = self.tap() else {
            return Ok(false);
        };
        while !tap.walk.done() {
            if tap.walk.lost() {
                return Ok(false);
            }
            let buf = tap.input.filled()?;
            if buf.is_empty() {
                return Ok(false);
            }
            let n = tap.walk.follow(buf);
            tap.input.consume(n);
        }
        // The sizes it read are trusted only if a frame, a skippable
        // frame or the file's end comes next.
        let next = tap.input.peek(4)?;
        Ok(next.is_empty() || next == MAGIC || is_skippable(next))
    }

    fn drain(&mut self) -> Result<(), ContainerError> {
        let mut sink = [0u8; 16 * 1024];
        while self.in_frame {
            self.read(&mut sink)?;
        }
        Ok(())
    }

    /// Passes over a skippable frame (magic, 4-byte size, that many bytes).
    fn skippable(input: &mut Input<R>) -> Result<(), ContainerError> {
        let offset = input.pos();
        let head = input.peek(8)?;
        let Some(size) = head.get(4..8).and_then(|b| b.try_into().ok()) else {
            return Err(truncated(offset, "skippable frame header"));
        };
        let size = u64::from(u32::from_le_bytes(size));
        input.consume(8);
        let copied = io::copy(&mut input.take(size), &mut io::sink())
            .map_err(|e| super::io_error(offset, e))?;
        if copied < size {
            return Err(truncated(offset, "skippable frame"));
        }
        Ok(())
    }
}

/// What stopped the decoder.
enum Stop {
    /// The frame's end.
    Ended,
    /// A block of no bytes; the frame goes on.
    Empty,
    /// The file ends inside the frame, at this offset.
    Cut(u64),
    Corrupt(String),
}

impl<R: Read + Send> Decode for Frames<R> {
    fn next_member(&mut self) -> Result<Option<MemberStart>, ContainerError> {
        self.drain()?;
        let resync = std::mem::take(&mut self.resync);
        let Some(tap) = self.tap() else {
            return Ok(None);
        };
        let input = &mut tap.input;
        if resync {
            // What follows a corrupt frame belongs to it: not counted.
            skip_to_magic(input, &MAGIC)?;
        }
        let mut garbage = 0;
        let mut garbage_from = None;
        let offset = loop {
            let head = input.peek(4)?;
            if head.is_empty() {
                return match garbage {
                    0 => Ok(None),
                    len => Err(ContainerError::Garbage { len }),
                };
            }
            if head == MAGIC {
                break input.pos();
            }
            if is_skippable(head) {
                Self::skippable(input)?;
            } else {
                garbage_from.get_or_insert(input.pos());
                input.consume(1);
                garbage += 1 + skip_to_magic(input, &MAGIC)?;
            }
        };
        Ok(Some(MemberStart {
            garbage,
            garbage_from: garbage_from.unwrap_or(offset),
            ..self.start_frame(offset)
        }))
    }

    fn read(&mut self, out: &mut [u8]) -> Result<usize, ContainerError> {
        let offset = self.frame_offset;
        loop {
            let (true, Some(decoder)) = (self.in_frame, self.decoder.as_mut()) else {
                return Ok(0);
            };
            let failed = match decoder.read(out) {
                Ok(0) => None,
                Ok(n) => return Ok(n),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => Some(e),
            };
            match self.after_stop(failed)? {
                Stop::Ended => {
                    self.end_frame();
                    return Ok(0);
                }
                Stop::Empty => continue,
                Stop::Cut(pos) => {
                    self.end_frame();
                    self.fresh_decoder();
                    let what = format!("lz4 frame starting at offset {offset} is incomplete");
                    return Err(ContainerError::Truncated { offset: pos, what });
                }
                Stop::Corrupt(message) => return Err(self.abandon(corrupt(offset, message))),
            }
        }
    }

    /// Skips to the frame's end as its blocks tell. Should they make no
    /// sense (a frame also damaged further on, or cut short), the next
    /// frame is looked for as after a corrupt one.
    fn skip_member(&mut self) -> Result<(), ContainerError> {
        if !self.in_frame {
            return Ok(());
        }
        if self.walk_to_end()? {
            self.end_frame();
            self.fresh_decoder();
        } else {
            self.give_up();
        }
        Ok(())
    }

    fn file_offset(&self) -> u64 {
        self.decoder
            .as_ref()
            .map_or(self.frame_offset, |d| d.get_ref().input.pos())
    }

    fn compression(&self) -> Compression {
        Compression::Lz4
    }
}

/// Whether `prefix` starts with a skippable frame (LZ4 shares zstd's
/// sixteen magic numbers for them).
fn is_skippable(prefix: &[u8]) -> bool {
    magic(prefix).is_some_and(|m| (SKIPPABLE_FIRST..=SKIPPABLE_LAST).contains(&m))
}

/// Follows a frame's structure through its bytes, so that the rest of a
/// frame can be passed over without decoding it and its end told from a
/// cut: the header's size is in its flag byte, each block's in its 4-byte
/// header, and a block header of 0 ends the frame. Costs a few comparisons
/// per call, not per byte.
#[derive(Debug, Default)]
struct Walk {
    /// Bytes to pass before the next part.
    pass: u64,
    next: Part,
    /// The part's bytes gathered so far.
    head: [u8; 6],
    got: usize,
    /// Each block is followed by a 4-byte checksum.
    block_checksum: bool,
    /// The frame ends with a 4-byte checksum.
    content_checksum: bool,
    /// The largest block the frame's descriptor allows.
    max_block: u64,
}

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
enum Part {
    /// The magic number, the flag byte and the block descriptor byte.
    #[default]
    FrameHead,
    BlockHead,
    /// The end of the frame (once `pass` is 0).
    End,
    /// Bytes that are no frame: a wrong version, a reserved bit, a block
    /// over the frame's block size.
    Lost,
}

impl Walk {
    fn done(&self) -> bool {
        self.next == Part::End && self.pass == 0
    }

    fn lost(&self) -> bool {
        self.next == Part::Lost
    }

    /// Follows the frame's next `bytes`; returns how many of them are the
    /// frame's (fewer than all only where it ends or makes no sense).
    fn follow(&mut self, bytes: &[u8]) -> usize {
        let mut used = 0;
        while used < bytes.len() && !self.done() && !self.lost() {
            let rest = &bytes[used..];
            if self.pass > 0 {
                let n = usize::try_from(self.pass).map_or(rest.len(), |p| p.min(rest.len()));
                self.pass -= n as u64;
                used += n;
                continue;
            }
            let want = match self.next {
                Part::FrameHead => 6,
                _ => 4,
            };
            let n = (want - self.got).min(rest.len());
            self.head[self.got..self.got + n].copy_from_slice(&rest[..n]);
            (self.got, used) = (self.got + n, used + n);
            if self.got == want {
                self.got = 0;
                match self.next {
                    Part::FrameHead => self.frame_head(),
                    _ => self.block_head(),
                }
            }
        }
        used
    }

    /// After the flag and block descriptor bytes: the content size and
    /// dictionary id fields the flags announce, and the header checksum.
    fn frame_head(&mut self) {
        let [.., flg, bd] = self.head;
        let max_block = match (bd >> 4) & 7 {
            4 => 64 << 10,
            5 => 256 << 10,
            6 => 1 << 20,
            7 => 4 << 20,
            _ => 0,
        };
        if self.head[..4] != MAGIC || flg >> 6 != 1 || flg & 0x02 != 0 || max_block == 0 {
            self.next = Part::Lost;
            return;
        }
        self.max_block = max_block;
        self.block_checksum = flg & 0x10 != 0;
        self.content_checksum = flg & 0x04 != 0;
        let content_size = if flg & 0x08 != 0 { 8 } else { 0 };
        let dictionary = if flg & 0x01 != 0 { 4 } else { 0 };
        (self.pass, self.next) = (content_size + dictionary + 1, Part::BlockHead);
    }

    /// A block header: its size in the low 31 bits (the top bit says it
    /// is stored uncompressed), then its checksum if the frame has them;
    /// 0 is the end mark, followed by the content checksum if there is one.
    fn block_head(&mut self) {
        let [a, b, c, d, ..] = self.head;
        let size = u64::from(u32::from_le_bytes([a, b, c, d]) & 0x7fff_ffff);
        if size > self.max_block {
            self.next = Part::Lost;
        } else if u32::from_le_bytes([a, b, c, d]) == 0 {
            self.pass = 4 * u64::from(self.content_checksum);
            self.next = Part::End;
        } else {
            self.pass = size + 4 * u64::from(self.block_checksum);
        }
    }
}

/// Where the first frame magic starts in `bytes`, if anywhere.
fn frame_magic_in(bytes: &[u8]) -> Option<usize> {
    memchr::memmem::find(bytes, &MAGIC)
}

fn truncated(offset: u64, what: &str) -> ContainerError {
    ContainerError::Truncated {
        offset,
        what: format!("{what} is incomplete"),
    }
}

fn corrupt(offset: u64, message: String) -> ContainerError {
    ContainerError::Corrupt {
        format: "lz4",
        offset,
        message,
    }
}
