//! The gzip layer: a file of concatenated gzip members (one per record, as
//! the WARC spec recommends, or one for the whole file), decompressed member
//! by member so each member's file offset is known. Garbage between members
//! is skipped up to the next gzip magic. A member that fails to
//! decompress is reported once ([`WarcError::Corrupt`]) and reading resumes
//! at the next member header after the point of failure. It does not parse
//! records.

use super::compression::{Compression, Decode, Input, MemberStart};
use super::error::WarcError;
use flate2::bufread::GzDecoder;
use std::io::{self, BufRead, Read};

pub struct Members<R: Read> {
    /// Between members: the raw input.
    idle: Option<Input<R>>,
    /// Inside a member: the decoder owning the input.
    active: Option<GzDecoder<Input<R>>>,
    member_offset: u64,
    /// The last member was corrupt: the bytes up to the next member are
    /// its remains, not garbage to report, and only a full header counts.
    resync: bool,
}

impl<R: Read> Members<R> {
    pub fn new(input: Input<R>) -> Self {
        Members {
            member_offset: input.pos(),
            idle: Some(input),
            active: None,
            resync: false,
        }
    }

    /// Reads and discards the rest of the current member.
    fn drain(&mut self) -> Result<(), WarcError> {
        let mut sink = [0u8; 16 * 1024];
        while self.active.is_some() {
            self.read_member(&mut sink)?;
        }
        Ok(())
    }

    fn read_member(&mut self, out: &mut [u8]) -> Result<usize, WarcError> {
        let Some(decoder) = self.active.as_mut() else {
            return Ok(0);
        };
        match decoder.read(out) {
            Ok(0) if !out.is_empty() => {
                self.idle = self.active.take().map(GzDecoder::into_inner);
                Ok(0)
            }
            Ok(n) => Ok(n),
            Err(e) => {
                let error = self.member_error(e);
                self.abandon();
                Err(error)
            }
        }
    }

    /// Gives up the current member after an error: the decoder's input
    /// becomes idle again, at least one byte past the member's start so the
    /// next scan cannot find the same header again.
    fn abandon(&mut self) {
        if let Some(decoder) = self.active.take() {
            let mut input = decoder.into_inner();
            if input.pos() == self.member_offset {
                input.consume(1);
            }
            self.idle = Some(input);
            self.resync = true;
        }
    }

    fn member_error(&mut self, e: io::Error) -> WarcError {
        let offset = self.member_offset;
        let at = self.active.as_ref().map_or(offset, |d| d.get_ref().pos());
        let eof = e.kind() == io::ErrorKind::UnexpectedEof
            || self
                .active
                .as_mut()
                .is_some_and(|d| d.get_mut().fill_buf().is_ok_and(|b| b.is_empty()));
        if eof {
            WarcError::Truncated {
                offset: at,
                what: format!("gzip member starting at offset {offset} is incomplete"),
            }
        } else {
            WarcError::Corrupt {
                format: "gzip",
                offset,
                message: e.to_string(),
            }
        }
    }
}

/// Skips bytes up to the next `magic`; returns how many were skipped.
pub(crate) fn skip_to_magic<R: Read>(input: &mut Input<R>, magic: &[u8]) -> Result<u64, WarcError> {
    let mut skipped = 0u64;
    loop {
        let buf = input.peek(64 * 1024)?;
        if buf.len() < magic.len() {
            let n = buf.len();
            input.consume(n);
            return Ok(skipped + n as u64);
        }
        if buf.starts_with(magic) {
            return Ok(skipped);
        }
        let n =
            memchr::memmem::find(&buf[1..], magic).map_or(buf.len() + 1 - magic.len(), |i| i + 1);
        input.consume(n);
        skipped += n as u64;
    }
}

/// Skips to the next plausible gzip member header after a corrupt member:
/// magic `1f 8b`, method 8 (deflate) and no reserved flag bits. Compressed
/// data holds `1f 8b` every 64 KiB on average; the stricter test makes a
/// false start (which would be counted as one more corrupt member) about
/// 2^-11 as likely (method byte 2^-8, three flag bits 2^-3). Returns the bytes skipped.
fn skip_to_member_header<R: Read>(input: &mut Input<R>) -> Result<u64, WarcError> {
    let mut skipped = 0u64;
    loop {
        skipped += skip_to_magic(input, &[0x1f, 0x8b, 0x08])?;
        let head = input.peek(4)?;
        match head.get(3) {
            None => return Ok(skipped),
            Some(flags) if flags & 0xe0 == 0 => return Ok(skipped),
            Some(_) => {
                input.consume(1);
                skipped += 1;
            }
        }
    }
}

impl<R: Read + Send> Decode for Members<R> {
    fn next_member(&mut self) -> Result<Option<MemberStart>, WarcError> {
        self.drain()?;
        let Some(mut input) = self.idle.take() else {
            return Ok(None);
        };
        let garbage = match std::mem::take(&mut self.resync) {
            // What follows a corrupt member belongs to it: not counted.
            true => skip_to_member_header(&mut input).map(|_| 0)?,
            false => skip_to_magic(&mut input, &[0x1f, 0x8b])?,
        };
        if input.peek(2)?.is_empty() {
            self.idle = Some(input);
            return match garbage {
                0 => Ok(None),
                len => Err(WarcError::Garbage { len }),
            };
        }
        self.member_offset = input.pos();
        self.active = Some(GzDecoder::new(input));
        Ok(Some(MemberStart {
            offset: self.member_offset,
            garbage,
        }))
    }

    fn read(&mut self, out: &mut [u8]) -> Result<usize, WarcError> {
        self.read_member(out)
    }

    fn file_offset(&self) -> u64 {
        match (&self.idle, &self.active) {
            (Some(i), _) => i.pos(),
            (_, Some(d)) => d.get_ref().pos(),
            _ => self.member_offset,
        }
    }

    fn compression(&self) -> Compression {
        Compression::Gzip
    }
}
