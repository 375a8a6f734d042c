//! The gzip layer: a file of concatenated gzip members (one per record, as
//! the WARC spec recommends, or one for the whole file), decompressed member
//! by member so each member's file offset is known. Garbage between members
//! is skipped up to the next gzip magic. A member that fails to
//! decompress is reported once ([`ContainerError::Corrupt`]) and reading resumes
//! at the next member header after its start: the decoder may have read
//! into the next members before it failed (a member cut short), so the
//! bytes it read are kept while the input buffer holds them, minus those
//! no member can start in (see `Input::keep`). A member given up part way
//! (over the reader's `max_member`) is left the same way: deflate data
//! tells its end only to a decoder. It does not parse records.
//!
//! A member that fits the input buffer and inflates to at most
//! `WHOLE_MAX` (64 MiB, less for a reader with a smaller payload or
//! member limit: `whole_max_for`, `compression::open`) is decompressed in
//! one call (`super::inflate`);
//! any other, and any the fast path fails on, goes through the streaming
//! decoder, which alone reports errors, so the two paths cannot disagree
//! on what is corrupt (the one-call path misses a member whose header
//! libdeflate would read and the streaming decoder might not: a wrong
//! header CRC, or fields not ending within `MAX_GZIP_HEADER`; see
//! `libdeflate`).

use super::libdeflate::{Inflater, Miss};
use super::{Compression, Decode, INPUT_BUFFER, Input, MAX_GZIP_HEADER, MemberStart};
use crate::codec::error::ContainerError;
use crate::codec::gzip_header::{self, DEFLATE_START, MAGIC, RESERVED};
use flate2::bufread::GzDecoder;
use std::io::{self, BufRead, Read};

pub struct Members<R: Read> {
    /// Between members: the raw input.
    idle: Option<Input<R>>,
    /// Inside a member: the decoder owning the input.
    active: Option<GzDecoder<Input<R>>>,
    /// Inside a member inflated in one call (the input is idle, past it).
    whole: Whole,
    /// The fast path's decompressor; `None` if it could not be allocated.
    inflater: Option<Inflater>,
    member_offset: u64,
    /// How far the one-call path's output buffer may grow (at most
    /// [`WHOLE_MAX`]).
    whole_max: usize,
    /// The last member was corrupt: the bytes up to the next member are
    /// its remains, not garbage to report, and only a full header counts.
    resync: bool,
}

/// Output of a member inflated in one call: `buf[pos..len]` is unread.
#[derive(Default)]
struct Whole {
    buf: Vec<u8>,
    len: usize,
    pos: usize,
    active: bool,
}

/// Output buffer of the one-call path: it starts at [`WHOLE_START`] and
/// grows fourfold when a member does not fit, up to [`WHOLE_MAX`]; members
/// inflating to more are streamed (typical pages are 50-500 KB).
const WHOLE_START: usize = 1 << 20;
const WHOLE_MAX: usize = 64 << 20;
/// The one-call buffer's bound for a reader refusing payloads over
/// `max_payload`: a member holds one record, its WARC and HTTP heads (a
/// mebibyte covers them) and its payload.
pub fn whole_max_for(max_payload: usize) -> usize {
    max_payload
        .saturating_add(1 << 20)
        .clamp(WHOLE_START, WHOLE_MAX)
}

/// With fewer bytes buffered than this, the buffer is topped up before a
/// one-call attempt, which would otherwise likely fail on a cut member.
const TOP_UP_BELOW: usize = INPUT_BUFFER / 4;

impl<R: Read> Members<R> {
    pub fn new(input: Input<R>) -> Self {
        Self::with_whole_max(input, WHOLE_MAX)
    }

    /// Members whose one-call output buffer grows to at most `whole_max`
    /// bytes (rounded up to a growth step; members inflating to more are
    /// streamed). A reader whose records are refused past a payload limit
    /// gains nothing from holding more (see [`whole_max_for`]), and a
    /// worker runs one reader per task at once.
    pub fn with_whole_max(input: Input<R>, whole_max: usize) -> Self {
        Members {
            member_offset: input.pos(),
            idle: Some(input),
            active: None,
            whole: Whole::default(),
            inflater: Inflater::new(),
            whole_max: whole_max.clamp(WHOLE_START, WHOLE_MAX),
            resync: false,
        }
    }

    /// Reads and discards the rest of the current member.
    fn drain(&mut self) -> Result<(), ContainerError> {
        self.whole.active = false;
        let mut sink = [0u8; 16 * 1024];
        while self.active.is_some() {
            self.read_member(&mut sink)?;
        }
        Ok(())
    }

    /// Tries to inflate the member at the start of `input` in one call;
    /// on success it is consumed from `input` and its bytes are in
    /// `self.whole`. `false` leaves `input` at the member's start.
    fn inflate_whole(&mut self, input: &mut Input<R>) -> Result<bool, ContainerError> {
        let Some(inflater) = self.inflater.as_mut() else {
            return Ok(false);
        };
        let (whole, whole_max) = (&mut self.whole, self.whole_max);
        if whole.buf.is_empty() {
            whole.buf = vec![0; WHOLE_START];
        }
        let mut topped = input.buffered().len() < TOP_UP_BELOW;
        loop {
            let window = match topped {
                true => input.peek(INPUT_BUFFER)?,
                false => input.buffered(),
            };
            match inflater.gzip(window, &mut whole.buf) {
                Ok((used, made)) => {
                    input.consume(used);
                    (whole.len, whole.pos, whole.active) = (made, 0, true);
                    return Ok(true);
                }
                Err(Miss::Space) if whole.buf.len() < whole_max => {
                    whole.buf = vec![0; (whole.buf.len() * 4).min(whole_max)];
                }
                // Perhaps cut by the buffer's end: once more with all the
                // buffer can hold.
                Err(Miss::Data) if !topped && window.len() < INPUT_BUFFER => topped = true,
                // A header left to the streaming decoder (`Miss::Header`)
                // goes there at once: on a pipe, topping up would wait
                // for input that cannot change the answer.
                Err(_) => return Ok(false),
            }
        }
    }

    fn read_whole(&mut self, out: &mut [u8]) -> usize {
        let whole = &mut self.whole;
        let n = out.len().min(whole.len - whole.pos);
        out[..n].copy_from_slice(&whole.buf[whole.pos..whole.pos + n]);
        whole.pos += n;
        if n == 0 && !out.is_empty() {
            whole.active = false;
        }
        n
    }

    fn read_member(&mut self, out: &mut [u8]) -> Result<usize, ContainerError> {
        if self.whole.active {
            return Ok(self.read_whole(out));
        }
        let Some(decoder) = self.active.as_mut() else {
            return Ok(0);
        };
        match decoder.read(out) {
            Ok(0) if !out.is_empty() => {
                self.idle = self.active.take().map(|decoder| {
                    let mut input = decoder.into_inner();
                    input.unkeep();
                    input
                });
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
    /// becomes idle again, back at the first byte it still keeps of the
    /// member (the decoder may have read on into the next members before
    /// it failed), but at least one byte past the member's start, so the
    /// next scan cannot find the same header again.
    fn abandon(&mut self) {
        if let Some(decoder) = self.active.take() {
            let mut input = decoder.into_inner();
            input.back_past(self.member_offset);
            self.idle = Some(input);
            self.resync = true;
        }
    }

    /// The error for the current member: `Truncated` (the file ends) only
    /// when the decoder failed at the file's end and no other member
    /// follows in the bytes kept of it. A member cut short and followed by
    /// others often fails only there: raw data (deflate stored blocks, as
    /// for images) takes the members after the cut for the rest of its
    /// block, without an error until the input runs out. That member is
    /// `Corrupt`, so reading resumes at the next member (see `abandon`).
    fn member_error(&mut self, e: io::Error) -> ContainerError {
        let offset = self.member_offset;
        let at = self.active.as_ref().map_or(offset, |d| d.get_ref().pos());
        let eof = e.kind() == io::ErrorKind::UnexpectedEof
            || self
                .active
                .as_mut()
                .is_some_and(|d| d.get_mut().fill_buf().is_ok_and(|b| b.is_empty()));
        let followed = self
            .active
            .as_ref()
            .is_some_and(|d| d.get_ref().may_start_after(offset));
        if eof && !followed {
            ContainerError::Truncated {
                offset: at,
                what: format!("gzip member starting at offset {offset} is incomplete"),
            }
        } else {
            let message = match eof {
                true => format!("cut short, then another member: {e}"),
                false => e.to_string(),
            };
            ContainerError::Corrupt {
                format: "gzip",
                offset,
                message,
            }
        }
    }
}

/// Skips bytes up to the next `magic`; returns how many were skipped.
pub(crate) fn skip_to_magic<R: Read>(
    input: &mut Input<R>,
    magic: &[u8],
) -> Result<u64, ContainerError> {
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

/// Where the first plausible member header (see [`skip_to_member_header`])
/// starts in `bytes`, if one does.
fn member_header_in(bytes: &[u8]) -> Option<usize> {
    memchr::memmem::find_iter(bytes, &DEFLATE_START)
        .find(|&i| bytes.get(i + 3).is_none_or(|&flags| flags & RESERVED == 0))
}

/// Skips to the next plausible gzip member header after a corrupt member:
/// magic `1f 8b`, method 8 (deflate), no reserved flag bits, and optional
/// fields (name, comment, extra) that end within [`MAX_GZIP_HEADER`]
/// bytes. Compressed data holds `1f 8b` every 64 KiB on average; the
/// stricter test makes a false start (which would be counted as one more
/// corrupt member) about 2^-11 as likely (method byte 2^-8, three flag
/// bits 2^-3). The fields' bound keeps junk made of headers whose name
/// never ends from costing a decoder's read of the rest of the file per
/// header (quadratic: 65 KB of them took 23 s); real writers put no name,
/// or a short one, in a WARC file's members. Returns the bytes skipped.
fn skip_to_member_header<R: Read>(input: &mut Input<R>) -> Result<u64, ContainerError> {
    let mut skipped = 0u64;
    loop {
        skipped += skip_to_magic(input, &DEFLATE_START)?;
        let head = input.peek(MAX_GZIP_HEADER)?;
        let plausible = match head.get(3) {
            None => return Ok(skipped),
            Some(flags) => flags & RESERVED == 0,
        };
        // A header cut by the file's end is left to the decoder (it is
        // the file's truncated last member).
        let fields_end = head.len() < MAX_GZIP_HEADER || gzip_header::fields_end(head).is_some();
        if plausible && fields_end {
            return Ok(skipped);
        }
        input.consume(1);
        skipped += 1;
    }
}

impl<R: Read + Send> Decode for Members<R> {
    fn next_member(&mut self) -> Result<Option<MemberStart>, ContainerError> {
        self.drain()?;
        let Some(mut input) = self.idle.take() else {
            return Ok(None);
        };
        let garbage = match std::mem::take(&mut self.resync) {
            // What follows a corrupt member belongs to it: not counted.
            true => skip_to_member_header(&mut input).map(|_| 0)?,
            false => skip_to_magic(&mut input, &MAGIC)?,
        };
        if input.peek(2)?.is_empty() {
            self.idle = Some(input);
            return match garbage {
                0 => Ok(None),
                len => Err(ContainerError::Garbage { len }),
            };
        }
        self.member_offset = input.pos();
        if self.inflate_whole(&mut input)? {
            self.idle = Some(input);
        } else {
            input.keep(member_header_in);
            self.active = Some(GzDecoder::new(input));
        }
        Ok(Some(MemberStart {
            offset: self.member_offset,
            garbage,
            garbage_from: self.member_offset.saturating_sub(garbage),
        }))
    }

    fn read(&mut self, out: &mut [u8]) -> Result<usize, ContainerError> {
        self.read_member(out)
    }

    /// A member inflated in one call is already behind the input. Deflate
    /// data tells its end only to a decoder, so a streamed member is
    /// abandoned as a corrupt one is, and the next member header looked
    /// for after its start.
    fn skip_member(&mut self) -> Result<(), ContainerError> {
        self.whole.active = false;
        self.abandon();
        Ok(())
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

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::codec::container::noise;
    use crate::codec::container::tests::{header_crc, read_member};
    use flate2::{Compression as Level, write::GzEncoder};
    use std::io::Write;

    /// One gzip member holding `data` (also used by `libdeflate`'s tests).
    pub(crate) fn gzip(data: &[u8]) -> Vec<u8> {
        let mut enc = GzEncoder::new(Vec::new(), Level::default());
        enc.write_all(data).unwrap();
        enc.finish().unwrap()
    }

    /// Every member in order, with its offset: (offset, bytes).
    fn read_all(file: &[u8]) -> Vec<(u64, Vec<u8>)> {
        read_all_with(Members::new(Input::new(file, 0))).0
    }

    /// Every member of `members`, and how large the one-call buffer grew.
    fn read_all_with(mut members: Members<&[u8]>) -> (Vec<(u64, Vec<u8>)>, usize) {
        let mut out = Vec::new();
        while let Some(start) = members.next_member().unwrap() {
            out.push((start.offset, read_member(&mut members).unwrap()));
        }
        (out, members.whole.buf.len())
    }

    /// A reader with a small payload limit never grows its one-call buffer
    /// past what that limit needs: a member inflating to more is streamed,
    /// and reads the same (a worker runs one reader per task at once).
    #[test]
    fn the_one_call_buffer_is_bounded_by_the_payload_limit() {
        let text = b"text ".repeat((5 << 20) / 5);
        let file = [gzip(b"small"), gzip(&text)].concat();
        let bounded = Members::with_whole_max(Input::new(&file[..], 0), whole_max_for(1 << 20));
        let (got, grown) = read_all_with(bounded);
        assert_eq!(got[1].1, text);
        assert_eq!(grown, 2 << 20, "1 MiB payloads: one step to 2 MiB, no more");
        let (got, grown) = read_all_with(Members::new(Input::new(&file[..], 0)));
        assert_eq!(got[1].1, text);
        assert_eq!(grown, 16 << 20, "unbounded: grown to hold the member");
    }

    #[test]
    fn one_call_and_streamed_members_read_the_same_in_order() {
        // Small members; members cut by the 1 MiB input buffer's end
        // (noise of ~400 KB each); one inflating past the first output
        // buffer (3 MiB of text, so the buffer grows); one larger than the
        // input buffer compressed (streamed); an empty one.
        let mut parts = vec![b"small".to_vec(), b"".to_vec()];
        parts.extend((0..5).map(|i| noise(380_000 + i * 7_919, i as u64)));
        parts.push(b"text ".repeat((3 << 20) / 5));
        parts.push(noise(1_100_000, 99));
        parts.push(b"last".to_vec());
        let mut file = Vec::new();
        let mut offsets = Vec::new();
        for part in &parts {
            offsets.push(file.len() as u64);
            file.extend(gzip(part));
        }
        let got = read_all(&file);
        let want: Vec<(u64, Vec<u8>)> = offsets.into_iter().zip(parts).collect();
        assert_eq!(got.len(), want.len());
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            assert!(
                g == w,
                "member {i}: offset {} vs {}, {} vs {} bytes",
                g.0,
                w.0,
                g.1.len(),
                w.1.len()
            );
        }
    }

    #[test]
    fn a_corrupt_member_is_reported_by_the_streaming_decoder_and_skipped() {
        let (a, b, c) = (gzip(b"first"), gzip(&noise(5000, 1)), gzip(b"third"));
        let mut file = [a.clone(), b.clone(), c].concat();
        file[a.len() + b.len() / 2] ^= 0x55;
        let mut members = Members::new(Input::new(&file[..], 0));
        let mut out = [0u8; 10_000];
        assert!(members.next_member().unwrap().is_some());
        assert_eq!(members.read(&mut out).unwrap(), 5);
        assert_eq!(members.read(&mut out).unwrap(), 0);
        assert_eq!(
            members.next_member().unwrap().map(|s| s.offset),
            Some(a.len() as u64)
        );
        let err = loop {
            match members.read(&mut out) {
                Ok(0) => panic!("the corrupt member read to its end"),
                Ok(_) => continue,
                Err(e) => break e,
            }
        };
        assert!(
            matches!(err, ContainerError::Corrupt { format: "gzip", offset, .. } if offset == a.len() as u64),
            "{err:?}"
        );
        let third = members.next_member().unwrap().expect("the member after");
        assert_eq!(third.offset, (a.len() + b.len()) as u64);
        assert_eq!(members.read(&mut out).unwrap(), 5);
        assert_eq!(&out[..5], b"third");
    }

    /// The bytes of the first member of `file`, or its error.
    fn first_member(file: &[u8]) -> Result<Vec<u8>, ContainerError> {
        first_member_of(Members::new(Input::new(file, 0)))
    }

    /// [`first_member`] read by the streaming decoder alone, as a member
    /// too large for the one-call path is.
    fn first_member_streamed(file: &[u8]) -> Result<Vec<u8>, ContainerError> {
        let mut members = Members::new(Input::new(file, 0));
        members.inflater = None;
        first_member_of(members)
    }

    fn first_member_of(mut members: Members<&[u8]>) -> Result<Vec<u8>, ContainerError> {
        assert!(members.next_member()?.is_some(), "no member");
        read_member(&mut members)
    }

    /// `member` with the header CRC flag (`FHCRC`) set and `crc`, or the
    /// right CRC, after its 10-byte header (also used by `libdeflate`'s
    /// tests).
    pub(crate) fn with_header_crc(member: &[u8], crc: Option<[u8; 2]>) -> Vec<u8> {
        let mut header = member[..10].to_vec();
        header[3] |= 0x02;
        let crc = crc.unwrap_or_else(|| header_crc(&header));
        [&header[..], &crc, &member[10..]].concat()
    }

    /// A member whose header carries a wrong CRC (`FHCRC`) fails as the
    /// streaming decoder (flate2) fails it, whether it is small enough for
    /// the one-call path (libdeflate skips that CRC unchecked) or streamed,
    /// first in the file or after another member; with the right CRC it
    /// reads either way.
    #[test]
    fn a_wrong_header_crc_fails_a_member_of_any_size() {
        let mut failures = Vec::new();
        for data in [b"small".to_vec(), noise(1_100_000, 3)] {
            let member = gzip(&data);
            assert_eq!(first_member(&with_header_crc(&member, None)).unwrap(), data);
            let bad = with_header_crc(&member, Some([0x5a, 0xa5]));
            let before = gzip(b"first");
            let after = [&before[..], &bad].concat();
            let (good, errors) = read_through_errors(&after);
            assert_eq!(good, vec![(0, b"first".to_vec())]);
            assert_eq!(errors, vec![before.len() as u64]);
            match first_member(&bad) {
                Err(ContainerError::Corrupt {
                    format: "gzip",
                    offset: 0,
                    message,
                }) => failures.push(message),
                other => panic!("{} bytes: {other:?}", data.len()),
            }
        }
        assert_eq!(failures[0], failures[1]);
    }

    /// `member` with a name (`FNAME`) of `len` bytes in its header.
    fn with_name(member: &[u8], len: usize) -> Vec<u8> {
        let mut header = member[..10].to_vec();
        header[3] |= 0x08;
        [&header[..], &vec![b'n'; len], &[0], &member[10..]].concat()
    }

    /// A member whose header's name is too long for flate2 (64 KiB or
    /// more; libdeflate reads any) fails as flate2 fails it, small or
    /// streamed; one of 2 KB, past what the one-call path takes, reads
    /// either way.
    #[test]
    fn a_long_header_name_reads_as_flate2_reads_it() {
        for (len, reads) in [(2_000, true), (70_000, false)] {
            for data in [b"small".to_vec(), noise(1_100_000, 5)] {
                let member = with_name(&gzip(&data), len);
                let mut direct = Vec::new();
                let flate2 = flate2::read::GzDecoder::new(&member[..]).read_to_end(&mut direct);
                assert_eq!(flate2.is_ok(), reads, "{len}");
                let got = [first_member(&member), first_member_streamed(&member)];
                for got in got {
                    match (&flate2, got) {
                        (Ok(_), Ok(bytes)) => assert!(bytes == data, "{len}"),
                        (Err(e), Err(ContainerError::Corrupt { message, .. })) => {
                            assert_eq!(message, e.to_string(), "{len}")
                        }
                        (want, got) => panic!("{len}, {}: {want:?} vs {got:?}", data.len()),
                    }
                }
            }
        }
    }

    /// `data`, then an error for any read after (a pipe whose writer has
    /// sent nothing more yet).
    struct ThenStuck<'a>(&'a [u8]);

    impl Read for ThenStuck<'_> {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            if self.0.is_empty() {
                return Err(io::Error::other("stuck"));
            }
            self.0.read(out)
        }
    }

    /// A member whose header the one-call path leaves to the streaming
    /// decoder (a wrong CRC, a long name) goes there without the input
    /// buffer being topped up first, as it is for a member perhaps cut by
    /// its end: on a pipe that would wait for input changing nothing.
    #[test]
    fn a_header_left_to_the_streaming_decoder_waits_for_no_more_input() {
        let data = noise(300_000, 9);
        let member = gzip(&data);
        let cases = [
            with_header_crc(&member, Some([0x5a, 0xa5])),
            with_name(&member, 2_000),
        ];
        for file in cases {
            assert!(file.len() > TOP_UP_BELOW && file.len() < INPUT_BUFFER);
            let mut members = Members::new(Input::new(ThenStuck(&file), 0));
            let start = members.next_member().map(|s| s.map(|s| s.offset));
            assert!(matches!(start, Ok(Some(0))), "{start:?}");
        }
    }

    /// Reads every member as the reader does, collecting the ones read
    /// whole (offset, bytes) and the offsets of the member-level errors;
    /// stops at the end of the file or, as the reader, at any other error.
    fn read_through_errors(file: &[u8]) -> (Vec<(u64, Vec<u8>)>, Vec<u64>) {
        let mut members = Members::new(Input::new(file, 0));
        let (mut good, mut errors) = (Vec::new(), Vec::new());
        loop {
            let start = match members.next_member() {
                Ok(Some(start)) => start,
                Ok(None) => break,
                Err(e) if e.is_member_level() => continue,
                Err(_) => break,
            };
            match read_member(&mut members) {
                Ok(bytes) => good.push((start.offset, bytes)),
                Err(e) if e.is_member_level() => errors.push(start.offset),
                Err(_) => break,
            }
        }
        (good, errors)
    }

    /// A member cut short in the middle (a partly written record, then the
    /// next ones appended) makes the decoder run on into the members after
    /// it before it fails: they are still found and read.
    #[test]
    fn the_members_after_one_cut_short_are_not_lost() {
        for (len, cut) in [(5000, 1500), (300_000, 70_000), (3 << 20, 2 << 20)] {
            let (a, b) = (gzip(b"first"), gzip(&noise(len, 7)));
            let (c, d) = (gzip(b"third"), gzip(b"fourth"));
            let file = [&a[..], &b[..cut], &c, &d].concat();
            let (good, errors) = read_through_errors(&file);
            let c_at = (a.len() + cut) as u64;
            assert_eq!(errors, vec![a.len() as u64], "len {len}");
            assert_eq!(
                good,
                vec![
                    (0, b"first".to_vec()),
                    (c_at, b"third".to_vec()),
                    (c_at + c.len() as u64, b"fourth".to_vec()),
                ],
                "len {len}"
            );
        }
    }
}
