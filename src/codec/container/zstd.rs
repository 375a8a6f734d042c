//! The zstd layer for `.warc.zst` files as the IIPC spec defines them: one
//! zstd frame per record, optionally preceded by a skippable frame (magic
//! 0x184D2A5D) holding the dictionary, raw or itself zstd-compressed. Other
//! skippable frames are ignored; garbage up to the next frame magic is
//! skipped. Frames are decoded one at a time so their file offsets are
//! known. A frame that fails to decode is reported once
//! ([`ContainerError::Corrupt`]) and reading resumes at the next frame magic
//! after its start (its bytes are kept for that, as the gzip layer keeps a
//! member's). A frame given up part way (over the reader's `max_member`)
//! is skipped to its end without decoding: its block headers, followed as
//! the decoder reads (`Walk`), say where that is. It does not parse
//! records.

use super::gzip::skip_to_magic;
use super::walk::{Layout, Step};
use super::{Compression, Decode, Input, MemberStart, ZSTD_MAGIC, truncated};
use crate::codec::error::ContainerError;
use ::zstd::stream::raw::{DParameter, Decoder, InBuffer, Operation, OutBuffer};
use std::io::{BufRead, Read};

pub(crate) const DICTIONARY_MAGIC: u32 = 0x184D_2A5D;
/// Larger dictionaries than this are refused (memory bound).
pub(crate) const MAX_DICTIONARY: u64 = 64 * 1024 * 1024;

/// The largest window (log2 of its bytes) a frame may ask the decoder to
/// keep, from the payload limit: a record's frame has no use for a window
/// past its own size, and zstd's default allowance (2^27, 128 MiB a
/// decoder) let a small `--long` frame take that much memory in each task
/// whatever the limits said. At least 2^23, the window of zstd's own
/// levels up to 19 (what Common Crawl's files are made with), and never
/// more than zstd's default; a frame that asks for more fails as corrupt,
/// alone.
pub(crate) fn window_log_max(max_payload: usize) -> u32 {
    let need = u64::try_from(max_payload)
        .unwrap_or(u64::MAX)
        .saturating_add(1 << 20);
    // ceil(log2(need)); `need` is at least 2^20.
    let log = u64::BITS - (need - 1).leading_zeros();
    log.clamp(23, ZSTD_DEFAULT_WINDOW_LOG)
}

/// zstd's own limit on the window a decoder accepts unless told more.
const ZSTD_DEFAULT_WINDOW_LOG: u32 = 27;

pub use crate::codec::zstd_magic::is_skippable;
use crate::codec::zstd_magic::{SKIPPABLE_FIRST, SKIPPABLE_LAST, magic};

pub struct Frames<R> {
    input: Input<R>,
    decoder: Option<Decoder<'static>>,
    /// [`window_log_max`], set on every decoder made.
    window_log: u32,
    dict_id: Option<u32>,
    in_frame: bool,
    frame_offset: u64,
    /// The current frame's structure, as far as the decoder has read it.
    walk: Walk,
    /// The last frame was corrupt: the bytes up to the next frame are its
    /// remains, not garbage to report.
    resync: bool,
}

impl<R: Read + Send> Frames<R> {
    pub fn new(input: Input<R>, window_log: u32) -> Self {
        Frames {
            frame_offset: input.pos(),
            input,
            decoder: None,
            window_log,
            dict_id: None,
            in_frame: false,
            walk: Walk::default(),
            resync: false,
        }
    }

    /// `decoder` refusing windows over `window_log`.
    fn bounded(&self, mut decoder: Decoder<'static>) -> std::io::Result<Decoder<'static>> {
        decoder.set_parameter(DParameter::WindowLogMax(self.window_log))?;
        Ok(decoder)
    }

    /// Reads a skippable frame; loads it when it is the dictionary.
    fn skippable(&mut self, magic: u32) -> Result<(), ContainerError> {
        let offset = self.input.pos();
        let head = self.input.peek(8)?;
        let size = match head.get(4..8).and_then(|b| b.try_into().ok()) {
            Some(b) => u64::from(u32::from_le_bytes(b)),
            None => return Err(truncated(offset, "skippable frame header")),
        };
        self.input.consume(8);
        if magic != DICTIONARY_MAGIC {
            return self.skip(size, offset);
        }
        if size > MAX_DICTIONARY {
            return Err(bad_dict(offset, format!("{size} bytes is too large")));
        }
        let mut dict = Vec::with_capacity(size as usize);
        (&mut self.input)
            .take(size)
            .read_to_end(&mut dict)
            .map_err(|e| bad_dict(offset, e.to_string()))?;
        if (dict.len() as u64) < size {
            return Err(truncated(offset, "dictionary frame"));
        }
        self.load_dictionary(dict, offset)
    }

    fn skip(&mut self, size: u64, offset: u64) -> Result<(), ContainerError> {
        let copied = std::io::copy(&mut (&mut self.input).take(size), &mut std::io::sink())
            .map_err(|e| super::io_error(offset, e))?;
        if copied < size {
            return Err(truncated(offset, "skippable frame"));
        }
        Ok(())
    }

    fn load_dictionary(&mut self, dict: Vec<u8>, offset: u64) -> Result<(), ContainerError> {
        let dict = if dict.starts_with(&ZSTD_MAGIC) {
            let mut raw = Vec::new();
            ::zstd::stream::read::Decoder::new(&dict[..])
                .and_then(|mut d| {
                    d.window_log_max(window_log_max(MAX_DICTIONARY as usize))
                        .map(|()| d)
                })
                .and_then(|d| d.take(MAX_DICTIONARY).read_to_end(&mut raw))
                .map_err(|e| bad_dict(offset, format!("compressed dictionary: {e}")))?;
            raw
        } else {
            dict
        };
        let decoder = Decoder::with_dictionary(&dict)
            .and_then(|d| self.bounded(d))
            .map_err(|e| bad_dict(offset, e.to_string()))?;
        self.dict_id = ::zstd::zstd_safe::get_dict_id_from_dict(&dict).map(|id| id.get());
        self.decoder = Some(decoder);
        Ok(())
    }

    /// Checks the frame's dictionary against ours and starts decoding it.
    fn start_frame(&mut self) -> Result<MemberStart, ContainerError> {
        let offset = self.input.pos();
        self.frame_offset = offset;
        let header = self.input.peek(18)?;
        let needs = ::zstd::zstd_safe::get_dict_id_from_frame(header).map(|id| id.get());
        match (needs, self.dict_id) {
            (Some(id), None) if self.decoder.is_none() => {
                return Err(ContainerError::MissingDictionary { offset, id });
            }
            (Some(id), Some(have)) if id != have => {
                let message = format!("frame needs dictionary {id}, the file has {have}");
                return Err(self.abandon(corrupt(offset, message)));
            }
            _ => {}
        }
        let decoder = match self.decoder.take() {
            Some(mut d) => {
                if let Err(e) = d.reinit() {
                    return Err(self.abandon(corrupt(offset, e.to_string())));
                }
                d
            }
            None => match Decoder::new().and_then(|d| self.bounded(d)) {
                Ok(d) => d,
                Err(e) => return Err(self.abandon(corrupt(offset, e.to_string()))),
            },
        };
        self.decoder = Some(decoder);
        self.in_frame = true;
        self.frame_offset = offset;
        self.walk = Walk::default();
        // A frame cut short runs the decoder on into the frames after it:
        // keep its bytes to come back to them (see `abandon`).
        self.input.keep(frame_magic_in);
        Ok(MemberStart::at(offset))
    }

    /// Gives up the current frame after `error`: back at the first byte
    /// still kept of it (the decoder may have read on into the next frames
    /// before it failed), but at least one byte past its start, so the
    /// next scan cannot find the same frame again.
    fn abandon(&mut self, error: ContainerError) -> ContainerError {
        self.give_up();
        error
    }

    fn give_up(&mut self) {
        self.input.back_past(self.frame_offset);
        self.in_frame = false;
        self.resync = true;
    }

    /// Whether the next bytes start a frame or a skippable frame, or the
    /// file ends here.
    fn at_a_frame(&mut self) -> Result<bool, ContainerError> {
        let next = self.input.peek(4)?;
        Ok(next.is_empty() || next == ZSTD_MAGIC || is_skippable(next))
    }

    /// Reads on to the current frame's end as its block headers tell,
    /// without decoding; `false` if they make no sense or the file ends
    /// first.
    fn walk_to_end(&mut self) -> Result<bool, ContainerError> {
        while !self.walk.done() {
            if self.walk.lost() {
                return Ok(false);
            }
            let buf = self.input.filled()?;
            if buf.is_empty() {
                return Ok(false);
            }
            let n = self.walk.follow(buf);
            self.input.consume(n);
        }
        Ok(true)
    }

    fn drain(&mut self) -> Result<(), ContainerError> {
        let mut sink = [0u8; 16 * 1024];
        while self.in_frame {
            self.read(&mut sink)?;
        }
        Ok(())
    }
}

impl<R: Read + Send> Decode for Frames<R> {
    fn next_member(&mut self) -> Result<Option<MemberStart>, ContainerError> {
        self.drain()?;
        if std::mem::take(&mut self.resync) {
            // What follows a corrupt frame belongs to it: not counted.
            skip_to_magic(&mut self.input, &ZSTD_MAGIC)?;
        }
        let mut garbage = 0;
        let mut garbage_from = None;
        loop {
            let head = self.input.peek(4)?;
            if head.is_empty() {
                return match garbage {
                    0 => Ok(None),
                    len => Err(ContainerError::Garbage { len }),
                };
            }
            if head.starts_with(&ZSTD_MAGIC) {
                let mut start = self.start_frame()?;
                start.garbage = garbage;
                start.garbage_from = garbage_from.unwrap_or(start.offset);
                return Ok(Some(start));
            }
            match magic(head) {
                Some(m) if (SKIPPABLE_FIRST..=SKIPPABLE_LAST).contains(&m) => self.skippable(m)?,
                _ => {
                    garbage_from.get_or_insert(self.input.pos());
                    self.input.consume(1);
                    garbage += 1 + skip_to_magic(&mut self.input, &ZSTD_MAGIC)?;
                }
            }
        }
    }

    fn read(&mut self, out: &mut [u8]) -> Result<usize, ContainerError> {
        let offset = self.frame_offset;
        let (true, Some(decoder)) = (self.in_frame, self.decoder.as_mut()) else {
            return Ok(0);
        };
        loop {
            let pos = self.input.pos();
            let buf = self.input.filled()?;
            if buf.is_empty() {
                // The frame may be cut short and followed by others that
                // the decoder took for the rest of its block (a raw block
                // holds any bytes): then only this frame is lost.
                if self.input.may_start_after(offset) {
                    let message = "cut short, then another frame".to_string();
                    return Err(self.abandon(corrupt(offset, message)));
                }
                self.in_frame = false;
                self.input.unkeep();
                let what = format!("zstd frame starting at offset {offset} is incomplete");
                return Err(ContainerError::Truncated { offset: pos, what });
            }
            let mut inb = InBuffer::around(buf);
            let mut outb = OutBuffer::around(&mut *out);
            let hint = decoder.run(&mut inb, &mut outb);
            let (used, written) = (inb.pos(), outb.pos());
            self.walk.follow(&buf[..used]);
            self.input.consume(used);
            let hint = match hint {
                Ok(hint) => hint,
                Err(e) => return Err(self.abandon(corrupt(offset, e.to_string()))),
            };
            if hint == 0 {
                self.in_frame = false;
                self.input.unkeep();
            }
            if written > 0 || !self.in_frame {
                return Ok(written);
            }
        }
    }

    /// Skips to the frame's end as its blocks tell. Should they make no
    /// sense (a frame also corrupt further on, or cut short), the next
    /// frame is looked for as after a corrupt one.
    fn skip_member(&mut self) -> Result<(), ContainerError> {
        if !self.in_frame {
            return Ok(());
        }
        // The walk trusts the sizes it reads: where it ends must be where
        // a frame (or a skippable frame, or the file's end) begins, or the
        // frame was damaged too and the sizes lie; then the frames it
        // passed over are found again by their magic, as after a corrupt
        // frame.
        if self.walk_to_end()? && self.at_a_frame()? {
            self.in_frame = false;
            self.input.unkeep();
        } else {
            self.give_up();
        }
        Ok(())
    }

    fn file_offset(&self) -> u64 {
        self.input.pos()
    }

    fn compression(&self) -> Compression {
        Compression::Zstd
    }
}

/// A zstd frame's structure (RFC 8878, 3.1.1), followed by a [`Walk`] so
/// that the rest of a frame can be passed over without decoding it: the
/// header's size is in its descriptor byte, and each block's in its
/// three-byte header.
type Walk = super::walk::Walk<Frame>;

#[derive(Debug, Default)]
struct Frame {
    /// The frame ends with a 4-byte checksum.
    checksum: bool,
}

impl Layout for Frame {
    /// The magic number and the frame header descriptor.
    const FRAME_HEAD: usize = 5;
    const BLOCK_HEAD: usize = 3;

    /// After the descriptor: window descriptor, dictionary id and content
    /// size fields, as the descriptor sizes them.
    fn frame_head(&mut self, head: &[u8]) -> Step {
        let fhd = head[4];
        if head[..4] != ZSTD_MAGIC || fhd & 0x08 != 0 {
            return Step::Lost;
        }
        let single = fhd & 0x20 != 0;
        let window = u64::from(!single);
        let dict = [0, 1, 2, 4][usize::from(fhd & 3)];
        let size = [u64::from(single), 2, 4, 8][usize::from(fhd >> 6)];
        self.checksum = fhd & 0x04 != 0;
        Step::Block(window + dict + size)
    }

    /// A block header: raw and compressed blocks hold their size in bytes,
    /// an RLE block one byte; the checksum follows the last block. No
    /// block is over 128 KiB (RFC 8878, Block_Maximum_Size): a larger size
    /// is a damaged header, and the walk is lost. A reserved block type
    /// is no frame either.
    fn block_head(&mut self, head: &[u8]) -> Step {
        let h = u32::from_le_bytes([head[0], head[1], head[2], 0]);
        let size = u64::from(h >> 3);
        let data = match (h >> 1) & 3 {
            _ if size > 128 << 10 => return Step::Lost,
            0 | 2 => size,
            1 => 1,
            _ => return Step::Lost,
        };
        match h & 1 {
            1 => Step::End(data + 4 * u64::from(self.checksum)),
            _ => Step::Block(data),
        }
    }
}

/// Where the first frame magic starts in `bytes`, if anywhere.
fn frame_magic_in(bytes: &[u8]) -> Option<usize> {
    memchr::memmem::find(bytes, &ZSTD_MAGIC)
}

fn corrupt(offset: u64, message: String) -> ContainerError {
    ContainerError::Corrupt {
        format: "zstd",
        offset,
        message,
    }
}

fn bad_dict(offset: u64, message: String) -> ContainerError {
    ContainerError::BadDictionary { offset, message }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::container::noise;

    /// The window follows the payload limit, between zstd's level-19
    /// window and its default limit: never more than zstd allowed before.
    #[test]
    fn the_window_follows_the_payload_limit_within_zstds_own_bounds() {
        assert_eq!(window_log_max(0), 23);
        assert_eq!(window_log_max(1 << 20), 23);
        assert_eq!(window_log_max(16 << 20), 25);
        assert_eq!(window_log_max(64 << 20), 27);
        assert_eq!(window_log_max(1 << 30), 27);
        assert_eq!(window_log_max(usize::MAX), 27);
    }

    /// One frame of `data`, with a checksum and a declared content size or
    /// not, and with a dictionary (its id in the header) or not.
    fn frame(data: &[u8], checksum: bool, size: bool, dict: Option<&[u8]>) -> Vec<u8> {
        let mut enc = match dict {
            Some(d) => ::zstd::stream::write::Encoder::with_dictionary(Vec::new(), 3, d),
            None => ::zstd::stream::write::Encoder::new(Vec::new(), 3),
        }
        .unwrap();
        enc.include_checksum(checksum).unwrap();
        enc.include_contentsize(size).unwrap();
        if size {
            enc.set_pledged_src_size(Some(data.len() as u64)).unwrap();
        }
        std::io::Write::write_all(&mut enc, data).unwrap();
        enc.finish().unwrap()
    }

    /// The walk finds each frame's end from its headers alone, whatever
    /// its blocks (compressed, raw, RLE, several), its header fields
    /// (checksum, content size, dictionary id, single segment) and however
    /// its bytes arrive; what follows the frame is not taken.
    #[test]
    fn the_walk_ends_where_the_frame_ends() {
        let samples: Vec<Vec<u8>> = (0..100)
            .map(|i| {
                format!("<p>sample {i} of a page</p>")
                    .repeat(20)
                    .into_bytes()
            })
            .collect();
        let dict = ::zstd::dict::from_samples(&samples, 2048).unwrap();
        let mut text = b"<html><body>".to_vec();
        text.extend(b"some text that compresses well. ".repeat(20_000));
        let datas = [
            Vec::new(),
            b"x".to_vec(),
            text,
            noise(300_000, 0x9e37_79b9_7f4a_7c15),
            vec![0; 1 << 20],
        ];
        for (i, data) in datas.iter().enumerate() {
            for (checksum, size, dict) in [
                (false, false, None),
                (true, true, None),
                (true, false, Some(&dict[..])),
                (false, true, Some(&dict[..])),
            ] {
                let frame = frame(data, checksum, size, dict);
                let mut file = frame.clone();
                file.extend(ZSTD_MAGIC);
                for piece in [1, 2, 3, 5, 7000, file.len()] {
                    let mut walk = Walk::default();
                    let used: usize = file.chunks(piece).map(|c| walk.follow(c)).sum();
                    let what = format!("data {i}, {checksum} {size}, piece {piece}");
                    assert!(walk.done() && !walk.lost(), "{what}");
                    assert_eq!(used, frame.len(), "{what}");
                }
            }
        }
    }

    /// A reserved block type is no frame: the walk says it is lost.
    #[test]
    fn the_walk_is_lost_on_a_reserved_block_type() {
        let mut file = frame(b"hello", false, true, None);
        let block = file.len() - 3 - 5;
        file[block] |= 0b110;
        let mut walk = Walk::default();
        walk.follow(&file);
        assert!(walk.lost() && !walk.done());
    }

    /// A block over zstd's 128 KiB maximum is a damaged header, not a
    /// size to pass over: the walk is lost rather than jumping ahead.
    #[test]
    fn the_walk_is_lost_on_a_block_over_the_maximum() {
        let mut file = frame(b"hello", false, true, None);
        let block = file.len() - 3 - 5;
        // A raw last block of 128 KiB + 1 (size in the top 21 bits).
        let h = (((128u32 << 10) + 1) << 3) | 1;
        file[block..block + 3].copy_from_slice(&h.to_le_bytes()[..3]);
        let mut walk = Walk::default();
        walk.follow(&file);
        assert!(walk.lost() && !walk.done());
        // At the maximum it is a size like any other.
        let h = ((128u32 << 10) << 3) | 1;
        file[block..block + 3].copy_from_slice(&h.to_le_bytes()[..3]);
        let mut walk = Walk::default();
        walk.follow(&file);
        assert!(!walk.lost());
    }
}
