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
use super::walk::{Layout, Step};
use super::{Compression, Decode, Input, MemberStart, truncated};
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
    /// Reading the file failed (the decoder's error is then no corrupt
    /// frame's).
    failed: bool,
}

impl<R: Read> Read for Tap<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let n = self
            .input
            .read(out)
            .inspect_err(|e| self.failed = e.kind() != io::ErrorKind::Interrupted)?;
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
    /// The block layout (the flag byte's block independence bit, and the
    /// block descriptor byte) of the frame the decoder last started.
    layout: Option<(u8, u8)>,
}

impl<R: Read + Send> Frames<R> {
    pub fn new(input: Input<R>) -> Self {
        Frames {
            frame_offset: input.pos(),
            decoder: Some(FrameDecoder::new(Tap {
                input,
                walk: Walk::default(),
                failed: false,
            })),
            in_frame: false,
            resync: false,
            layout: None,
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

    /// Starts decoding the frame at the input's position, whose first
    /// six bytes are `head`.
    fn start_frame(&mut self, offset: u64, head: [u8; 6]) -> MemberStart {
        // lz4_flex sizes its buffers for a frame's block layout and keeps
        // them for the next frame; one of another layout (a larger block
        // size before, or linked blocks) trips its debug assertions, so
        // it gets a fresh decoder.
        let layout = (head[4] & 0x20, head[5]);
        if self
            .layout
            .replace(layout)
            .is_some_and(|last| last != layout)
        {
            self.fresh_decoder();
        }
        if let Some(tap) = self.tap() {
            tap.walk = Walk::default();
            // A frame cut short runs the decoder on into the frames after
            // it: keep its bytes to come back to them (see `give_up`).
            tap.input.keep(frame_magic_in);
        }
        self.in_frame = true;
        self.frame_offset = offset;
        MemberStart::at(offset)
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
            tap.input.back_past(start);
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
        let failed = match failed {
            Some(e) if tap.failed => return Err(super::io_error(pos, e)),
            failed => failed,
        };
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
        let (offset, head) = loop {
            let head = input.peek(4)?;
            if head.is_empty() {
                return match garbage {
                    0 => Ok(None),
                    len => Err(ContainerError::Garbage { len }),
                };
            }
            if head == MAGIC {
                let mut frame_head = [0; 6];
                let got = input.peek(6)?;
                frame_head[..got.len()].copy_from_slice(got);
                break (input.pos(), frame_head);
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
            ..self.start_frame(offset, head)
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

/// An LZ4 frame's structure, followed by a [`Walk`] so that the rest of a
/// frame can be passed over without decoding it and its end told from a
/// cut: the header's size is in its flag byte, each block's in its 4-byte
/// header, and a block header of 0 ends the frame.
type Walk = super::walk::Walk<Frame>;

#[derive(Debug, Default)]
struct Frame {
    /// Each block is followed by a 4-byte checksum.
    block_checksum: bool,
    /// The frame ends with a 4-byte checksum.
    content_checksum: bool,
    /// The largest block the frame's descriptor allows.
    max_block: u64,
}

impl Layout for Frame {
    /// The magic number, the flag byte and the block descriptor byte.
    const FRAME_HEAD: usize = 6;
    const BLOCK_HEAD: usize = 4;

    /// After the flag and block descriptor bytes: the content size and
    /// dictionary id fields the flags announce, and the header checksum.
    /// A version other than 01, a reserved flag bit or block size is no
    /// frame.
    fn frame_head(&mut self, head: &[u8]) -> Step {
        let (flg, bd) = (head[4], head[5]);
        let max_block = match (bd >> 4) & 7 {
            4 => 64 << 10,
            5 => 256 << 10,
            6 => 1 << 20,
            7 => 4 << 20,
            _ => return Step::Lost,
        };
        if head[..4] != MAGIC || flg >> 6 != 1 || flg & 0x02 != 0 {
            return Step::Lost;
        }
        self.max_block = max_block;
        self.block_checksum = flg & 0x10 != 0;
        self.content_checksum = flg & 0x04 != 0;
        let content_size = if flg & 0x08 != 0 { 8 } else { 0 };
        let dictionary = if flg & 0x01 != 0 { 4 } else { 0 };
        Step::Block(content_size + dictionary + 1)
    }

    /// A block header: its size in the low 31 bits (the top bit says it
    /// is stored uncompressed), then its checksum if the frame has them;
    /// 0 is the end mark, followed by the content checksum if there is
    /// one. A block over the frame's block size is no block.
    fn block_head(&mut self, head: &[u8]) -> Step {
        let h = u32::from_le_bytes([head[0], head[1], head[2], head[3]]);
        let size = u64::from(h & 0x7fff_ffff);
        if size > self.max_block {
            Step::Lost
        } else if h == 0 {
            Step::End(4 * u64::from(self.content_checksum))
        } else {
            Step::Block(size + 4 * u64::from(self.block_checksum))
        }
    }
}

/// Where the first frame magic starts in `bytes`, if anywhere.
fn frame_magic_in(bytes: &[u8]) -> Option<usize> {
    memchr::memmem::find(bytes, &MAGIC)
}

fn corrupt(offset: u64, message: String) -> ContainerError {
    ContainerError::Corrupt {
        format: "lz4",
        offset,
        message,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::container::tests::read_member;
    use crate::codec::container::{Start, noise, open};
    use lz4_flex::frame::{BlockMode, BlockSize, FrameEncoder, FrameInfo};

    /// One frame of `data` as `info` says.
    fn frame_with(data: &[u8], info: FrameInfo) -> Vec<u8> {
        let mut enc = FrameEncoder::with_frame_info(info, Vec::new());
        io::Write::write_all(&mut enc, data).unwrap();
        enc.finish().unwrap()
    }

    fn frame(data: &[u8]) -> Vec<u8> {
        frame_with(data, FrameInfo::new().block_size(BlockSize::Max64KB))
    }

    /// The frame options writers set: checksums, a content size, linked
    /// blocks, each block size.
    fn infos(len: usize) -> Vec<FrameInfo> {
        let base = || FrameInfo::new().block_size(BlockSize::Max64KB);
        vec![
            base(),
            base().block_checksums(true).content_checksum(true),
            base().content_size(Some(len as u64)),
            base().block_mode(BlockMode::Linked).content_checksum(true),
            FrameInfo::new().block_size(BlockSize::Max256KB),
            FrameInfo::new().block_size(BlockSize::Max4MB),
        ]
    }

    fn datas() -> Vec<Vec<u8>> {
        vec![
            Vec::new(),
            b"x".to_vec(),
            b"some text that compresses well. ".repeat(20_000),
            noise(300_000, 0x9e37_79b9_7f4a_7c15),
        ]
    }

    /// Each member of `file` read from its start: its offset, the garbage
    /// before it, and its bytes or error.
    fn members(file: &[u8], max_member: u64) -> Vec<(u64, u64, Result<Vec<u8>, ContainerError>)> {
        let mut layer = open(file, 0, Start::File, max_member, 10 << 20).unwrap();
        let mut out = Vec::new();
        loop {
            match layer.next_member() {
                Ok(Some(start)) => {
                    let read = read_member(&mut *layer);
                    out.push((start.offset, start.garbage, read));
                }
                Ok(None) => return out,
                Err(e) => {
                    out.push((layer.file_offset(), 0, Err(e)));
                    return out;
                }
            }
        }
    }

    /// The walk finds each frame's end from its headers alone, whatever
    /// its blocks and header fields and however its bytes arrive; what
    /// follows the frame is not taken.
    #[test]
    fn the_walk_ends_where_the_frame_ends() {
        for (i, data) in datas().iter().enumerate() {
            for info in infos(data.len()) {
                let frame = frame_with(data, info);
                let file = [&frame[..], &MAGIC].concat();
                for piece in [1, 2, 3, 5, 7000, file.len()] {
                    let mut walk = Walk::default();
                    let used: usize = file.chunks(piece).map(|c| walk.follow(c)).sum();
                    assert!(walk.done() && !walk.lost(), "data {i}, piece {piece}");
                    assert_eq!(used, frame.len(), "data {i}, piece {piece}");
                }
            }
        }
    }

    /// A block over the frame's block size, or a version other than 01,
    /// is no frame: the walk says it is lost.
    #[test]
    fn the_walk_is_lost_on_a_block_over_the_frames_size_or_a_wrong_version() {
        let good = frame(b"hello");
        let mut big = good.clone();
        // The first block header follows the 7-byte frame header.
        big[7..11].copy_from_slice(&((64u32 << 10) + 1).to_le_bytes());
        let mut version = good.clone();
        version[4] ^= 0xc0;
        for bad in [big, version] {
            let mut walk = Walk::default();
            walk.follow(&bad);
            assert!(walk.lost() && !walk.done());
        }
    }

    /// Frames are members at their own offsets, whatever their options;
    /// skippable frames between them are passed over, not counted as
    /// garbage, and bytes that open no frame are.
    #[test]
    fn each_frame_is_a_member_at_its_offset() {
        let datas = datas();
        for option in 0..infos(0).len() {
            let mut file = Vec::new();
            let mut expected = Vec::new();
            for data in &datas {
                expected.push((file.len() as u64, data.clone()));
                file.extend(frame_with(data, infos(data.len()).swap_remove(option)));
            }
            // A skippable frame, then junk, then one more frame.
            file.extend(0x184D_2A53u32.to_le_bytes());
            file.extend(3u32.to_le_bytes());
            file.extend(b"abc");
            file.extend(b"junk");
            let last = frame(b"the last one");
            let at = file.len() as u64;
            file.extend(&last);
            let read = members(&file, 1 << 30);
            assert_eq!(read.len(), datas.len() + 1);
            for ((offset, garbage, got), (want_at, want)) in read.iter().zip(&expected) {
                assert_eq!((*offset, *garbage), (*want_at, 0));
                assert_eq!(got.as_ref().unwrap(), want);
            }
            let (offset, garbage, got) = &read[datas.len()];
            assert_eq!((*offset, *garbage), (at, 4));
            assert_eq!(got.as_ref().unwrap(), b"the last one");
        }
    }

    /// A frame whose data is damaged is lost alone: reported as corrupt at
    /// its start, and the frames after it are read.
    #[test]
    fn a_damaged_frame_is_lost_alone() {
        let text = b"some text that compresses well. ".repeat(100);
        let (a, b, c) = (frame(&text), frame(&text), frame(b"after"));
        let mut damaged = b.clone();
        // The compressed block's first token and bytes: a match offset
        // past the start of the output.
        damaged[11..20].fill(0xff);
        let file = [&a[..], &damaged, &c].concat();
        let read = members(&file, 1 << 30);
        assert_eq!(read.len(), 3, "{read:?}");
        assert_eq!(read[0].2.as_ref().unwrap(), &text);
        let at = a.len() as u64;
        assert!(
            matches!(&read[1], (o, 0, Err(ContainerError::Corrupt { format: "lz4", offset, .. })) if *o == at && *offset == at),
            "{:?}",
            read[1]
        );
        assert_eq!(read[2].0, (a.len() + b.len()) as u64);
        assert_eq!(read[2].2.as_ref().unwrap(), b"after");
    }

    /// A file cut inside a frame, at a block boundary or inside a block,
    /// keeps the blocks decoded before the cut and says the file is
    /// truncated; a frame cut short and followed by another is lost alone.
    #[test]
    fn a_cut_frame_keeps_its_decoded_blocks() {
        let data = noise(200_000, 7);
        let whole = frame(&data);
        // Stored blocks of 64 KiB: header 7, then 4 + 65536 a block.
        let boundary = 7 + 2 * (4 + (64 << 10));
        for (cut, kept) in [(boundary, 2 * (64 << 10)), (boundary + 100, 2 * (64 << 10))] {
            let read = members(&whole[..cut], 1 << 30);
            assert_eq!(read.len(), 1, "{read:?}");
            assert!(
                matches!(&read[0].2, Err(ContainerError::Truncated { offset, .. }) if *offset == cut as u64),
                "{:?}",
                read[0].2
            );
            let mut layer = open(&whole[..cut], 0, Start::File, 1 << 30, 10 << 20).unwrap();
            layer.next_member().unwrap();
            let mut got = Vec::new();
            let mut chunk = [0u8; 7000];
            while let Ok(n @ 1..) = layer.read(&mut chunk) {
                got.extend_from_slice(&chunk[..n]);
            }
            assert_eq!(got, data[..kept]);
        }
        let next = frame(b"next");
        let file = [&whole[..boundary + 100], &next].concat();
        let read = members(&file, 1 << 30);
        assert!(
            matches!(read[0].2, Err(ContainerError::Corrupt { .. })),
            "{read:?}"
        );
        let last = read.last().unwrap();
        assert_eq!(last.0, (boundary + 100) as u64);
        assert_eq!(last.2.as_ref().unwrap(), b"next");
    }

    /// A frame over `max_member` is given up there and passed over by its
    /// block sizes; the next frame is read.
    #[test]
    fn a_frame_over_max_member_is_given_up_and_the_next_read() {
        let big = frame(&vec![b'a'; 1 << 20]);
        let small = frame(b"small");
        let file = [&big[..], &small].concat();
        let read = members(&file, 100_000);
        assert_eq!(read.len(), 2, "{read:?}");
        assert!(
            matches!(
                read[0].2,
                Err(ContainerError::MemberTooLarge {
                    format: "lz4",
                    offset: 0,
                    limit: 100_000
                })
            ),
            "{:?}",
            read[0].2
        );
        assert_eq!((read[1].0, read[1].1), (big.len() as u64, 0));
        assert_eq!(read[1].2.as_ref().unwrap(), b"small");
    }

    /// A stored block of no bytes, which the decoder reports as nothing
    /// read, does not end the frame.
    #[test]
    fn an_empty_block_does_not_end_the_frame() {
        let whole = frame(b"hello");
        // Header (7 bytes), then an empty stored block, then the rest.
        let file = [&whole[..7], &0x8000_0000u32.to_le_bytes(), &whole[7..]].concat();
        let read = members(&[&file[..], &frame(b"then")].concat(), 1 << 30);
        assert_eq!(read.len(), 2, "{read:?}");
        assert_eq!(read[0].2.as_ref().unwrap(), b"hello");
        assert_eq!(read[1].2.as_ref().unwrap(), b"then");
    }

    /// Damaged and cut files of frames of every layout never panic (nor
    /// trip lz4_flex's debug assertions) and never loop.
    #[test]
    fn damaged_frames_of_mixed_layouts_never_panic() {
        let data = b"some text that compresses well. ".repeat(5_000);
        let file: Vec<u8> = infos(data.len())
            .into_iter()
            .flat_map(|info| frame_with(&data, info))
            .collect();
        for round in 0..300 {
            // Four damaged bytes and a cut, from the round's noise.
            let random = noise(40, round);
            let at = |i: usize| {
                let b: [u8; 8] = random[8 * i..8 * i + 8].try_into().unwrap();
                u64::from_le_bytes(b) as usize % file.len()
            };
            let mut bytes = file.clone();
            for i in 0..4 {
                bytes[at(i)] = random[i];
            }
            let cut = at(4);
            let read = members(&bytes[..cut], 1 << 30);
            assert!(read.len() <= 2 * infos(0).len(), "{}", read.len());
        }
    }

    /// A file that cannot be read on part way is an I/O error, not a
    /// corrupt frame.
    #[test]
    fn a_read_failing_inside_a_frame_is_an_io_error() {
        struct FailsAfter(Vec<u8>, usize);
        impl Read for FailsAfter {
            fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
                if self.1 >= self.0.len() {
                    return Err(io::Error::other("disk on fire"));
                }
                let n = out.len().min(self.0.len() - self.1);
                out[..n].copy_from_slice(&self.0[self.1..self.1 + n]);
                self.1 += n;
                Ok(n)
            }
        }
        let whole = frame(&noise(200_000, 3));
        let cut = whole[..100_000].to_vec();
        let mut layer = open(FailsAfter(cut, 0), 0, Start::File, 1 << 30, 10 << 20).unwrap();
        layer.next_member().unwrap();
        let error = read_member(&mut *layer).unwrap_err();
        assert!(
            matches!(&error, ContainerError::Io { source, .. } if source.to_string() == "disk on fire"),
            "{error:?}"
        );
    }
}
