//! Content codings, decoded as the body streams in: which codings a
//! `Content-Encoding` header names, a [`Decoder`] for each of gzip,
//! deflate (see `deflate`: zlib-wrapped or raw), br and zstd; a body with
//! more than one is decoded by a [`Stack`](super::stack::Stack) of them.
//!
//! The fetcher decodes every coding itself rather than leave gzip, br and
//! zstd to reqwest: its decoder (tower-http's) takes only the exact
//! lower-case token, so a server's `GZIP`, `Gzip` or `x-gzip` (codings are
//! case-insensitive, RFC 9110 §8.4.1, and `x-gzip` is gzip, §8.4.1.3)
//! reached the core still compressed and failed as binary. Here a header
//! is read as browsers read it: any case, `x-gzip` as `gzip`, `identity`
//! entries ignored. Stacked codings (`gzip, br`: up to
//! [`MAX_CODINGS`](super::stack::MAX_CODINGS))
//! are decoded one after another, the last listed first (RFC 9110 §8.4
//! lists them in the order they were applied), as browsers decode them:
//! they used to reach the core still compressed. Unknown codings are left
//! as they came, as browsers leave them.
//!
//! Output comes in pieces of at most [`PIECE`] bytes, however much one
//! input chunk decodes to, so a bomb costs no more than the caller's limit
//! plus one piece: the caller stops pulling at its limit. Inside a stack,
//! what one decoder gives the next is bounded too (see
//! [`STACK_SLACK`](super::stack::STACK_SLACK)).

use super::deflate::Deflate;
use super::stack::MAX_CODINGS;
use super::{gzip_header, zstd_magic};
use brotli::{BrotliDecompressStream, BrotliResult, BrotliState, HeapAlloc, HuffmanCode};
use brotli_decompressor::{BrotliDecoderErrorCode, BrotliDecoderTakeOutput};
use flate2::{Decompress, FlushDecompress, Status};
use hyper::body::Bytes;
use reqwest::header::{CONTENT_ENCODING, HeaderMap};
use zstd::stream::raw::{DParameter, InBuffer, Operation, OutBuffer};
use zstd_magic::MAGIC as ZSTD_MAGIC;

/// The most one [`Decoder::pull`] returns (deflate inflates up to about
/// 1,000 times, brotli and zstd more, so one 64 KiB chunk of a bomb could
/// otherwise make 64 MiB or more).
pub const PIECE: usize = 64 * 1024;

/// A piece shorter than this is copied into an allocation of its own
/// size rather than keep its 64 KiB buffer (see `Decoder::piece`): at
/// most half of a piece's allocation then goes unused.
const SMALL_PIECE: usize = PIECE / 2;

/// A content coding the fetcher decodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Coding {
    Gzip,
    Deflate,
    Brotli,
    Zstd,
}

impl Coding {
    /// The codings the `Content-Encoding` headers name, in the order
    /// they were applied (the order listed, RFC 9110 §8.4: a body is
    /// decoded from the last one back): any case, `x-gzip` for `gzip`,
    /// `identity` entries and empty ones skipped; empty for no coding.
    /// `None` when one of them is not decoded here (`compress`, or the
    /// bogus `none`, `UTF-8`, `identity;q=1` servers send), or a header is
    /// not text: no browser decodes such a body either, and it is passed
    /// on as it came. It may well be plain, or coded ([`looks_coded`]
    /// tells); a caller that cannot use it so (robots.txt) tells it by
    /// this.
    pub fn applied(headers: &HeaderMap) -> Option<Vec<Coding>> {
        let values: Option<Vec<&str>> = headers
            .get_all(CONTENT_ENCODING)
            .iter()
            .map(|value| value.to_str().ok())
            .collect();
        Coding::listed(values?)
    }

    /// [`applied`](Self::applied) of header values already read as text
    /// (a WARC record's `Content-Encoding` lines).
    pub fn listed<'a>(values: impl IntoIterator<Item = &'a str>) -> Option<Vec<Coding>> {
        let mut codings = Vec::new();
        for value in values {
            for token in value.split(',').map(str::trim) {
                if token.is_empty() || token.eq_ignore_ascii_case("identity") {
                    continue;
                }
                codings.push(Coding::named(token)?);
            }
        }
        Some(codings)
    }

    fn named(token: &str) -> Option<Coding> {
        let is = |name: &str| token.eq_ignore_ascii_case(name);
        if is("gzip") || is("x-gzip") {
            Some(Coding::Gzip)
        } else if is("deflate") {
            Some(Coding::Deflate)
        } else if is("br") {
            Some(Coding::Brotli)
        } else if is("zstd") {
            Some(Coding::Zstd)
        } else {
            None
        }
    }

    /// The coding's name, for messages.
    pub fn name(self) -> &'static str {
        match self {
            Coding::Gzip => "gzip",
            Coding::Deflate => "deflate",
            Coding::Brotli => "br",
            Coding::Zstd => "zstd",
        }
    }
}

/// How many first bytes [`looks_coded`] looks at.
const SNIFFED: usize = 512;

/// Whether a body whose coding is not known here looks coded rather than
/// text: it opens with the magic number of gzip (`1f 8b`), compress
/// (`1f 9d`) or zstd, or a zlib header without a preset dictionary, or
/// control bytes text does not hold (below 0x20 but tab, line feed, form
/// feed and carriage return; a DOS end-of-file mark, 0x1A, ending the
/// body is text) are at least one in fifty of its first [`SNIFFED`]
/// bytes, as in compressed bytes (brotli's, which have no magic number,
/// among them: about one byte in eight is one). A stray control byte or
/// two in a text file leaves it text.
pub fn looks_coded(body: &[u8]) -> bool {
    let zlib = match body {
        [cmf, flg, ..] => super::deflate::is_zlib_header(*cmf, *flg) && flg & 0x20 == 0,
        _ => false,
    };
    let magic = body.starts_with(&gzip_header::MAGIC)
        || body.starts_with(&[0x1f, 0x9d])
        || body.starts_with(&ZSTD_MAGIC);
    let text = body.strip_suffix(&[0x1a]).unwrap_or(body);
    let sniffed = &text[..text.len().min(SNIFFED)];
    let control = sniffed
        .iter()
        .filter(|&&b| b < 0x20 && !matches!(b, b'\t' | b'\n' | 0x0c | b'\r'))
        .count();
    magic || zlib || (control > 0 && control * 50 >= sniffed.len())
}

/// Why a body could not be decoded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// Not a stream of the coding, or a damaged one (bad block, bad
    /// checksum).
    #[error("{coding} decompression error: {message}")]
    Corrupt {
        coding: &'static str,
        message: String,
    },
    /// The body ended inside the stream.
    #[error("{coding} stream cut short: unexpected end of file")]
    Truncated { coding: &'static str },
    /// The decoder could not be set up here (zstd's context could not be
    /// allocated): a fault of this process, not of the page.
    #[error("cannot set up the {coding} decoder: {message}")]
    Local {
        coding: &'static str,
        message: String,
    },
    /// More codings stacked than [`MAX_CODINGS`]: no server compresses a
    /// page three times, and each one costs a decoder's memory.
    #[error("{count} content codings stacked, more than the {MAX_CODINGS} decoded")]
    TooManyCodings { count: usize },
}

/// What one step of a decompressor did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Stepped {
    /// Input bytes used.
    pub used: usize,
    pub end: End,
}

/// Whether a step reached a stream's end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum End {
    /// Inside a stream (or not yet in one).
    No,
    /// At the end of a gzip member or zstd frame: the body may end here,
    /// or go on with another.
    Member,
    /// At the end of the stream: anything after it is ignored.
    Stream,
}

/// One body's decompressor, of its coding.
enum Codec {
    Deflate(Deflate),
    Gzip(Gzip),
    Brotli(Box<Brotli>),
    Zstd(Box<Zstd>),
}

impl Codec {
    /// Decodes from `input` into `out`'s spare capacity.
    fn step(&mut self, input: &[u8], out: &mut Vec<u8>) -> Result<Stepped, String> {
        match self {
            Codec::Deflate(d) => d.step(input, out),
            Codec::Gzip(g) => g.step(input, out),
            Codec::Brotli(b) => b.step(input, out),
            Codec::Zstd(z) => z.step(input, out),
        }
    }

    /// After a failed step: output decoded before the fault that the
    /// decompressor still holds, into `out`'s spare capacity; whether
    /// it filled `out` (more may be held). Only brotli holds any: it
    /// writes out of its window when the window wraps, when input runs
    /// short and at the stream's end, so how much it had written when it
    /// failed hung on where the chunks ended. zlib writes its output as it
    /// goes, and zstd is given one block per call (see [`Zstd::step`]).
    fn drain(&mut self, out: &mut Vec<u8>) -> bool {
        match self {
            Codec::Brotli(b) => b.drain(out),
            Codec::Deflate(_) | Codec::Gzip(_) | Codec::Zstd(_) => false,
        }
    }

    /// Whether the body may end here even with input held back or a
    /// member begun: a gzip member or zstd frame has ended, and what
    /// follows it is no whole header yet (the start of a magic number, a
    /// header cut short). What came whole is the body, as browsers take it.
    /// A whole header with its data cut short is a member (frame) cut
    /// short: the body was cut, not padded; so is any frame begun after
    /// a skippable zstd frame.
    fn may_end(&self) -> bool {
        match self {
            Codec::Gzip(g) => g.may_end(),
            Codec::Zstd(z) => z.may_end(),
            Codec::Deflate(_) | Codec::Brotli(_) => false,
        }
    }
}

/// Decodes one body, fed chunk by chunk.
pub struct Decoder {
    coding: Coding,
    codec: Codec,
    /// The current input chunk and how far into it decoding got.
    input: Bytes,
    pos: usize,
    /// The last pull filled its piece: the decompressor may hold more
    /// output without needing more input.
    full: bool,
    /// At a stream's (a member's, a frame's) end, or before any input was
    /// used: the body may end here.
    complete: bool,
    /// The stream's end was reached (anything after it is ignored).
    ended: bool,
    /// The fault a step met, given by every pull from the one after the
    /// output decoded before it (see [`pull`](Self::pull)).
    fault: Option<DecodeError>,
    /// After the fault, the decompressor may still hold output decoded
    /// before it ([`Codec::drain`]): pulls give that first.
    draining: bool,
    /// The buffer of the last pull, kept when its output was copied out.
    spare: Vec<u8>,
}

impl Decoder {
    pub fn new(coding: Coding) -> Result<Self, DecodeError> {
        let codec = match coding {
            Coding::Deflate => Codec::Deflate(Deflate::default()),
            Coding::Gzip => Codec::Gzip(Gzip::default()),
            Coding::Brotli => Codec::Brotli(Box::default()),
            Coding::Zstd => Codec::Zstd(Box::new(Zstd::new().map_err(|e| DecodeError::Local {
                coding: coding.name(),
                message: e.to_string(),
            })?)),
        };
        Ok(Decoder {
            coding,
            codec,
            input: Bytes::new(),
            pos: 0,
            full: false,
            complete: true,
            ended: false,
            fault: None,
            draining: false,
            spare: Vec::new(),
        })
    }

    pub fn coding(&self) -> Coding {
        self.coding
    }

    /// Adds the body's next chunk. Call when [`pull`](Self::pull) gave
    /// `None`; input it had not used yet (a first byte, before the kind of
    /// stream is known) is kept in front.
    pub fn push(&mut self, chunk: Bytes) {
        let rest = self.input.slice(self.pos.min(self.input.len())..);
        self.input = if rest.is_empty() {
            chunk
        } else {
            Bytes::from([rest.as_ref(), chunk.as_ref()].concat())
        };
        self.pos = 0;
    }

    /// The next piece of output, at most [`PIECE`] bytes; `None` when it
    /// needs more input or the stream has ended ([`ended`](Self::ended)).
    /// Decodes into one piece until it is full or the input is used up,
    /// member after member: a body of many tiny gzip members or zstd
    /// frames comes out in full pieces, not one tiny piece each.
    ///
    /// A fault (a damaged member after a good one, a bad block) met with
    /// output in hand comes from the next pull, and from every one after
    /// it: what decoded before it goes out first, in as many pieces as it
    /// takes. Whether it did must not hang on where the body's chunks or
    /// the pieces happened to end (a fault in a later chunk came after the
    /// output anyway), so a caller that stops at a limit reached before
    /// the fault keeps the body up to its limit however the bytes came.
    pub fn pull(&mut self) -> Result<Option<Bytes>, DecodeError> {
        // Any output ahead of a fault has come out (and no buffer is
        // reserved only to say so).
        if let Some(fault) = &self.fault
            && !self.draining
        {
            return Err(fault.clone());
        }
        let mut out = std::mem::take(&mut self.spare);
        out.clear();
        out.reserve_exact(PIECE);
        if self.fault.is_none() {
            self.fill(&mut out);
        }
        if self.draining {
            self.draining = self.codec.drain(&mut out);
        }
        match (self.piece(out), &self.fault) {
            (Some(piece), _) => Ok(Some(piece)),
            (None, Some(fault)) => Err(fault.clone()),
            (None, None) => Ok(None),
        }
    }

    /// Decodes into `out` until it is full, the input is used up or a
    /// step fails (the fault is kept for the pulls after this one).
    fn fill(&mut self, out: &mut Vec<u8>) {
        while !self.ended
            && out.len() < out.capacity()
            && (self.pos < self.input.len() || self.full)
        {
            match self.step(out) {
                Ok(true) => {}
                Ok(false) => break,
                Err(e) => {
                    self.fault = Some(e);
                    self.draining = true;
                    break;
                }
            }
        }
    }

    /// One step of the decompressor into `out`'s spare capacity: whether
    /// it moved (used input or put out bytes); when not, it needs more
    /// input.
    fn step(&mut self, out: &mut Vec<u8>) -> Result<bool, DecodeError> {
        let rest = self.input.get(self.pos..).unwrap_or_default();
        let before = out.len();
        let stepped = self
            .codec
            .step(rest, out)
            .map_err(|message| DecodeError::Corrupt {
                coding: self.coding.name(),
                message,
            })?;
        self.pos += stepped.used.min(rest.len());
        self.full = out.len() == out.capacity();
        let moved = stepped.used > 0 || out.len() > before;
        if moved {
            self.complete = false;
        }
        match stepped.end {
            End::No => {}
            End::Member => self.complete = true,
            End::Stream => {
                self.complete = true;
                self.ended = true;
            }
        }
        Ok(moved)
    }

    /// `out` as a piece, `None` when empty. Output under [`SMALL_PIECE`]
    /// (the end of an input chunk) is copied out, and the buffer kept for
    /// the next pull: a piece of a few bytes does not hold a whole
    /// [`PIECE`]'s allocation.
    fn piece(&mut self, out: Vec<u8>) -> Option<Bytes> {
        if out.is_empty() {
            self.spare = out;
            return None;
        }
        if out.len() < SMALL_PIECE {
            let piece = Bytes::copy_from_slice(&out);
            self.spare = out;
            return Some(piece);
        }
        Some(Bytes::from(out))
    }

    /// Whether the stream's end was reached.
    pub fn ended(&self) -> bool {
        self.ended
    }

    /// Checks the body's end: Ok when it ended at a stream's end, when
    /// the body was empty (a server that declares a coding for no
    /// content), or after a whole gzip member or zstd frame followed by
    /// bytes that started no other one (a lone `0x1f`, a header cut
    /// short). A further member (frame) whose header came whole but whose
    /// data was cut is cut short, as the first one would be, and so is a
    /// frame begun after a skippable zstd frame. A fault met by a pull
    /// is that fault, whatever came after.
    pub fn finish(&self) -> Result<(), DecodeError> {
        if let Some(fault) = &self.fault {
            return Err(fault.clone());
        }
        if self.whole() || self.codec.may_end() {
            Ok(())
        } else {
            Err(DecodeError::Truncated {
                coding: self.coding.name(),
            })
        }
    }

    /// Whether, its input at its end, nothing of the stream can be
    /// missing: it reached its end, or the input ended right at a member's
    /// (frame's) end or before any. Not so when it ended past a whole
    /// member with the start of another held back ([`finish`](Self::finish)
    /// takes that body, but the network may have cut it there).
    pub(super) fn whole(&self) -> bool {
        let unused = self.pos < self.input.len();
        self.ended || (self.complete && !unused && !self.full)
    }
}

/// gzip (RFC 1952), one member after another as browsers take them;
/// bytes after a member that open no other one are ignored, and so is a
/// further member whose header is bad (after a magic number, say) or is
/// cut short inside its header: the stream ends with the members before
/// it. A further member cut short after its whole header is cut short
/// (the body was cut, not padded), and one whose whole, valid header is
/// followed by data that does not inflate is damaged, as the first would
/// be: junk does not come with a gzip header.
#[derive(Default)]
struct Gzip {
    /// The member being decoded; `None` before the first and between
    /// members.
    member: Option<Decompress>,
    /// Whether a member ended already.
    after_member: bool,
    /// How far the member after the first has got through its header.
    head: gzip_header::Tracker,
}

impl Gzip {
    fn step(&mut self, input: &[u8], out: &mut Vec<u8>) -> Result<Stepped, String> {
        let decompress = match &mut self.member {
            Some(d) => d,
            None if self.after_member => {
                // Another member, or trailing bytes (zeros some servers
                // pad with, a script's stray newline) that are ignored, as
                // browsers ignore them. The magic number tells.
                match input {
                    [] | [0x1f] => {
                        return Ok(Stepped {
                            used: 0,
                            end: End::No,
                        });
                    }
                    _ if input.starts_with(&gzip_header::MAGIC) => {
                        self.head = gzip_header::Tracker::default();
                        self.member.insert(Decompress::new_gzip(15))
                    }
                    _ => {
                        return Ok(Stepped {
                            used: input.len(),
                            end: End::Stream,
                        });
                    }
                }
            }
            // The first member: whatever it starts with, zlib judges the
            // header.
            None => self.member.insert(Decompress::new_gzip(15)),
        };
        let before = decompress.total_in();
        let status = match decompress.decompress_vec(input, out, FlushDecompress::None) {
            Ok(status) => status,
            // A further member that fails before it decodes anything is
            // junk, unless its header was whole and valid: the failure is
            // then in its data (the input it was given, not only what it
            // used before failing, is looked at for the header).
            Err(_)
                if self.after_member
                    && decompress.total_out() == 0
                    && !self.head.clone().fed(input).valid() =>
            {
                self.member = None;
                return Ok(Stepped {
                    used: input.len(),
                    end: End::Stream,
                });
            }
            Err(e) => return Err(e.to_string()),
        };
        let used = usize::try_from(decompress.total_in() - before).unwrap_or(input.len());
        if self.after_member {
            self.head.feed(input.get(..used).unwrap_or(input));
        }
        if status == Status::StreamEnd {
            self.member = None;
            self.after_member = true;
            return Ok(Stepped {
                used,
                end: End::Member,
            });
        }
        Ok(Stepped { used, end: End::No })
    }

    /// After a member, until the next one's header is whole: a header
    /// cut short may be trailing junk, but a whole one followed by too
    /// little data is a member cut short.
    fn may_end(&self) -> bool {
        self.after_member && (self.member.is_none() || !self.head.whole())
    }
}

/// brotli (RFC 7932).
struct Brotli {
    state: BrotliState<HeapAlloc<u8>, HeapAlloc<u32>, HeapAlloc<HuffmanCode>>,
    /// What a step decodes into, then copied to the piece: brotli writes
    /// into an initialized slice, and this one is zeroed once (a piece's
    /// size), where zeroing the piece's room at every step cost up to
    /// 64 KiB of writes a step, a step for every chunk of a body that
    /// came a few bytes at a time.
    scratch: Vec<u8>,
}

impl Default for Brotli {
    fn default() -> Self {
        let mut state = BrotliState::new(
            HeapAlloc::new(0),
            HeapAlloc::new(0),
            HeapAlloc::new(HuffmanCode::default()),
        );
        // RFC 7932 windows only (16 MiB at most), as `br` in HTTP and
        // browsers have them: the crate's default also takes the
        // large-window extension, whose streams may ask for 1 GiB each.
        state.large_window = false;
        Brotli {
            state,
            scratch: Vec::new(),
        }
    }
}

impl Brotli {
    fn step(&mut self, input: &[u8], out: &mut Vec<u8>) -> Result<Stepped, String> {
        let room = out.capacity() - out.len();
        if self.scratch.len() < room {
            self.scratch.resize(room, 0);
        }
        let (mut available_in, mut input_offset) = (input.len(), 0);
        let (mut available_out, mut output_offset, mut total_out) = (room, 0, 0);
        let result = BrotliDecompressStream(
            &mut available_in,
            &mut input_offset,
            input,
            &mut available_out,
            &mut output_offset,
            &mut self.scratch,
            &mut total_out,
            &mut self.state,
        );
        out.extend_from_slice(self.scratch.get(..output_offset).unwrap_or_default());
        let end = match result {
            BrotliResult::ResultFailure => return Err(brotli_failure(self.state.error_code)),
            BrotliResult::ResultSuccess => End::Stream,
            BrotliResult::NeedsMoreInput | BrotliResult::NeedsMoreOutput => End::No,
        };
        Ok(Stepped {
            used: input_offset,
            end,
        })
    }

    /// After a failure: what the decoder had decoded into its window but
    /// not yet written out, into `out`'s spare capacity (see
    /// [`Codec::drain`]); whether it filled `out`. The decoder takes no
    /// output once it has failed, so the failure is set aside while it is
    /// taken; and a command that ran past its meta-block's stated length
    /// (so the failure) is taken too, as the decoder wrote it: it may be
    /// met at the end of a chunk, or at the meta-block's end, and the
    /// output before it must not hang on which.
    fn drain(&mut self, out: &mut Vec<u8>) -> bool {
        let failure = std::mem::replace(
            &mut self.state.error_code,
            BrotliDecoderErrorCode::BROTLI_DECODER_SUCCESS,
        );
        let remaining = self.state.meta_block_remaining_len;
        self.state.meta_block_remaining_len = remaining.max(0);
        let filled = loop {
            let room = out.capacity() - out.len();
            if room == 0 {
                break true;
            }
            // A size of 0 would ask for up to 16 MiB.
            let mut size = room;
            let taken = BrotliDecoderTakeOutput(&mut self.state, &mut size);
            if taken.is_empty() {
                break false;
            }
            out.extend_from_slice(taken);
        };
        self.state.meta_block_remaining_len = remaining;
        self.state.error_code = failure;
        filled
    }
}

/// A brotli failure's message. A command that runs past its meta-block's
/// stated length is found where the decoder next writes out (`_1`: at the
/// end of a chunk, or where its window wraps) or at the meta-block's end
/// (`_2`): one message for both, so that it does not hang on where the
/// chunks ended.
fn brotli_failure(code: BrotliDecoderErrorCode) -> String {
    use BrotliDecoderErrorCode::{
        BROTLI_DECODER_ERROR_FORMAT_BLOCK_LENGTH_1, BROTLI_DECODER_ERROR_FORMAT_BLOCK_LENGTH_2,
    };
    match code {
        BROTLI_DECODER_ERROR_FORMAT_BLOCK_LENGTH_1 | BROTLI_DECODER_ERROR_FORMAT_BLOCK_LENGTH_2 => {
            "invalid brotli stream (a command runs past its meta-block's end)".to_string()
        }
        code => format!("invalid brotli stream ({code:?})"),
    }
}

/// The largest window (log2 of its bytes) a zstd frame may ask for: 8 MiB,
/// the most the `zstd` content coding uses (RFC 9659) and browsers take.
/// zstd's own default (128 MiB) would let a small frame take that much
/// memory in every task fetching one.
const ZSTD_WINDOW_LOG_MAX: u32 = 23;

/// Whether `bytes` open a zstd frame or a skippable frame (magic
/// 0x184D2A50 to 0x184D2A5F), or may when more comes (fewer than four).
fn opens_zstd_frame(bytes: &[u8]) -> bool {
    let n = bytes.len().min(4);
    let skippable = |b: &[u8]| match b {
        [] => true,
        [first, rest @ ..] => first & 0xf0 == 0x50 && [0x2a, 0x4d, 0x18].starts_with(rest),
    };
    ZSTD_MAGIC.starts_with(&bytes[..n]) || skippable(&bytes[..n])
}

/// zstd (RFC 8878), one frame after another (skippable frames skipped);
/// bytes after a frame that open no other one (a stray newline, zero
/// padding) are ignored, as gzip's are, and so is a further frame whose
/// header zstd refuses or that is cut short inside its header. A further
/// frame whose whole header zstd took and that fails before it decodes
/// anything is damaged; one cut short after its whole header is cut
/// short, and so is any frame cut short after a skippable one: an
/// encoder writes a skippable frame (pzstd's, a seekable archive's) in
/// front of more frames, not at the end of a body, so what follows one
/// is not padding.
struct Zstd {
    decoder: zstd::stream::raw::Decoder<'static>,
    /// Whether a frame ended already.
    after_frame: bool,
    /// Whether the last frame that ended was a skippable one.
    skipped: bool,
    /// Between frames: the next bytes are a frame's first.
    between: bool,
    /// Output of the frame being decoded.
    frame_out: usize,
    /// Input the frame being decoded has used, and its first bytes (as
    /// many as tell its header's length).
    frame_in: usize,
    head: [u8; 5],
    /// How much input zstd asked for when it last returned (its hint),
    /// what the next call is given (see [`feed`](Self::feed)).
    asked: usize,
    /// The last call filled its output: zstd may hold decoded output it
    /// has not given out yet.
    held: bool,
}

/// A zstd block header's length (`ZSTD_blockHeaderSize`).
const ZSTD_BLOCK_HEADER: usize = 3;

/// What zstd asks for before a frame: the shortest frame header
/// (`ZSTD_FRAMEHEADERSIZE_MIN`, 6 bytes) and the first block's header, as
/// its hint counts them.
const ZSTD_FRAME_ASK: usize = 6 + ZSTD_BLOCK_HEADER;

/// The length of the frame header (RFC 8878 §3.1.1.1) that `head`, a
/// frame's first five bytes, opens: the magic number, the descriptor, the
/// window descriptor unless the frame is single-segment, the dictionary
/// ID and the content size, as the descriptor has them; eight bytes for a
/// skippable frame (its magic number and size).
fn zstd_header_len(head: &[u8; 5]) -> usize {
    if head[..4] != ZSTD_MAGIC {
        return 8;
    }
    let descriptor = head[4];
    let single_segment = descriptor & 0x20 != 0;
    let dictionary = [0, 1, 2, 4][usize::from(descriptor & 0x03)];
    let content_size = match descriptor >> 6 {
        0 => usize::from(single_segment),
        1 => 2,
        2 => 4,
        _ => 8,
    };
    5 + usize::from(!single_segment) + dictionary + content_size
}

impl Zstd {
    fn new() -> std::io::Result<Self> {
        let mut decoder = zstd::stream::raw::Decoder::new()?;
        decoder.set_parameter(DParameter::WindowLogMax(ZSTD_WINDOW_LOG_MAX))?;
        Ok(Zstd {
            decoder,
            after_frame: false,
            skipped: false,
            between: true,
            frame_out: 0,
            frame_in: 0,
            head: [0; 5],
            asked: ZSTD_FRAME_ASK,
            held: false,
        })
    }

    /// One call of zstd, that decodes at most one block. A call that
    /// fails reports none of the output it made (`ZSTD_decompressStream`
    /// sets its positions only on success), so a call that decoded good
    /// blocks and then met a bad one would take their output with it, as
    /// much as the chunk it was given held: output before the fault would
    /// hang on where the chunks ended. So a call is given only the input
    /// zstd asked for (see [`feed`](Self::feed)), and output it decoded
    /// but had no room for is taken by a call with no input before any
    /// more is decoded.
    fn step(&mut self, input: &[u8], out: &mut Vec<u8>) -> Result<Stepped, String> {
        if self.after_frame && self.between {
            if input.len() < ZSTD_MAGIC.len() && opens_zstd_frame(input) {
                // Perhaps a magic number: wait for the rest.
                return Ok(Stepped {
                    used: 0,
                    end: End::No,
                });
            }
            if !opens_zstd_frame(input) {
                return Ok(Stepped {
                    used: input.len(),
                    end: End::Stream,
                });
            }
        }
        if self.held {
            let before = out.len();
            let flushed = self.run(&[], out)?;
            if out.len() > before || flushed.end != End::No {
                return Ok(flushed);
            }
        }
        let fed = input.get(..self.feed()).unwrap_or(input);
        self.run(fed, out)
    }

    /// How much input the next call takes: what zstd asked for, less the
    /// next block's header its hint counts in with a block (zstd reads it
    /// ahead in the same call, and a damaged one would fail the call that
    /// decoded the block before it) or with the frame header. Less is
    /// never too little: a hint of 3 or under is exact, and a hint over 3
    /// that counts no header (the frame's last block, its checksum, a
    /// skippable frame's data) is taken in two calls. A further frame's
    /// header is given to zstd alone, so that zstd has judged it (magic
    /// number, descriptor, window, dictionary) before any of the frame's
    /// data comes: past a header it took, a failure is damage, not junk.
    fn feed(&self) -> usize {
        let asked = match self.asked {
            asked if asked > ZSTD_BLOCK_HEADER => asked - ZSTD_BLOCK_HEADER,
            asked => asked,
        };
        match self.header_left() {
            Some(left) if self.after_frame => asked.min(left),
            _ => asked,
        }
    }

    /// One call of zstd on `input`, into `out`'s spare capacity.
    fn run(&mut self, input: &[u8], out: &mut Vec<u8>) -> Result<Stepped, String> {
        let start = out.len();
        let mut src = InBuffer::around(input);
        // After what the piece holds already.
        let mut dst = OutBuffer::around_pos(out, start);
        let hint = match self.decoder.run(&mut src, &mut dst) {
            Ok(hint) => hint,
            Err(_) if self.after_frame && self.frame_out == 0 && self.header_left().is_some() => {
                return Ok(Stepped {
                    used: input.len(),
                    end: End::Stream,
                });
            }
            Err(e) => return Err(e.to_string()),
        };
        let (used, produced) = (src.pos, dst.pos() - start);
        self.held = dst.pos() == dst.capacity();
        self.asked = hint;
        for (at, b) in input.iter().take(used).enumerate() {
            match self.head.get_mut(self.frame_in + at) {
                Some(slot) => *slot = *b,
                None => break,
            }
        }
        self.frame_in = self.frame_in.saturating_add(used);
        self.frame_out += produced;
        if used > 0 || produced > 0 {
            self.between = false;
        }
        // zstd tells a frame decoded and flushed whole by asking for nothing.
        if hint == 0 {
            self.after_frame = true;
            self.skipped = self.frame_in >= 4 && zstd_magic::is_skippable(&self.head);
            self.between = true;
            self.frame_out = 0;
            self.frame_in = 0;
            self.asked = ZSTD_FRAME_ASK;
            self.held = false;
            return Ok(Stepped {
                used,
                end: End::Member,
            });
        }
        Ok(Stepped { used, end: End::No })
    }

    /// How many bytes of the frame's header zstd has still to take
    /// (as many as tell its length, until its first five have come), or
    /// `None` once it has taken the whole header.
    fn header_left(&self) -> Option<usize> {
        let known = if self.frame_in >= self.head.len() {
            zstd_header_len(&self.head)
        } else {
            self.head.len()
        };
        known.checked_sub(self.frame_in).filter(|&left| left > 0)
    }

    /// After a frame, until the next one's header is whole (bytes held
    /// as a possible magic number count as a header cut short): a whole
    /// header followed by too little data is a frame cut short. Not after
    /// a skippable frame: a frame begun after one is cut short.
    fn may_end(&self) -> bool {
        self.after_frame && !self.skipped && self.header_left().is_some()
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::codec::gzip_header::FHCRC;
    use crate::codec::stack::{Framing, Pulled, STACK_SLACK, Stack};
    use reqwest::header::HeaderValue;
    use std::io::Write;

    /// A page that compresses well, for the codings' tests (inflate's too).
    pub(crate) fn page() -> Vec<u8> {
        let mut page = b"<html><body>".to_vec();
        for i in 0..2000 {
            page.extend_from_slice(format!("<p>Paragraph {i} of the story.</p>\n").as_bytes());
        }
        page
    }

    /// `len` bytes of text that varies (words and numbers a xorshift
    /// draws), so that it compresses about as a page does and a zstd frame
    /// of a megabyte of it has many blocks.
    pub(super) fn varied_text(len: usize) -> Vec<u8> {
        const WORDS: [&str; 16] = [
            "the", "crawl", "pipeline", "worker", "streams", "pages", "and", "counts", "lines",
            "of", "text", "zstd", "brotli", "frames", "blocks", "window",
        ];
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut text = Vec::with_capacity(len + 16);
        while text.len() < len {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            text.extend_from_slice(WORDS[(seed % 16) as usize].as_bytes());
            text.push(if seed.is_multiple_of(11) { b'\n' } else { b' ' });
            if seed.is_multiple_of(7) {
                text.extend_from_slice((seed % 100_000).to_string().as_bytes());
            }
        }
        text.truncate(len);
        text
    }

    /// `bytes` as one gzip member (for the fetch module's tests).
    pub(crate) fn gzip(bytes: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(bytes).unwrap();
        e.finish().unwrap()
    }

    /// `bytes` as a zlib-wrapped deflate stream.
    pub(crate) fn zlib(bytes: &[u8]) -> Vec<u8> {
        let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(bytes).unwrap();
        e.finish().unwrap()
    }

    /// A skippable zstd frame holding `size` zero bytes (RFC 8878 §3.1.2:
    /// magic 0x184D2A50, its size, its bytes).
    pub(crate) fn skippable(size: u32) -> Vec<u8> {
        let mut frame = vec![0x50, 0x2a, 0x4d, 0x18];
        frame.extend(size.to_le_bytes());
        frame.resize(frame.len() + size as usize, 0);
        frame
    }

    fn brotli(bytes: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        {
            let mut e = brotli::CompressorWriter::new(&mut out, 4096, 5, 22);
            e.write_all(bytes).unwrap();
        }
        out
    }

    /// `bytes` as one zstd frame.
    pub(crate) fn zstd(bytes: &[u8]) -> Vec<u8> {
        zstd::encode_all(bytes, 3).unwrap()
    }

    /// A zstd frame with its content checksum, so that any damage to the
    /// content is found (`encode_all` writes none).
    fn zstd_checked(bytes: &[u8]) -> Vec<u8> {
        let mut e = zstd::stream::write::Encoder::new(Vec::new(), 3).unwrap();
        e.include_checksum(true).unwrap();
        e.write_all(bytes).unwrap();
        e.finish().unwrap()
    }

    /// As [`zstd_checked`], with the encoder flushed every `block` bytes:
    /// blocks that decode to no more than that, several to a piece.
    fn zstd_in_blocks(bytes: &[u8], block: usize) -> Vec<u8> {
        let mut e = zstd::stream::write::Encoder::new(Vec::new(), 3).unwrap();
        e.include_checksum(true).unwrap();
        for part in bytes.chunks(block) {
            e.write_all(part).unwrap();
            e.flush().unwrap();
        }
        e.finish().unwrap()
    }

    /// Feeds `body` in chunks of `size`, pulling everything: the output,
    /// or the first error.
    pub(crate) fn decode(coding: Coding, body: &[u8], size: usize) -> Result<Vec<u8>, DecodeError> {
        let mut decoder = Decoder::new(coding)?;
        let mut out = Vec::new();
        for chunk in body.chunks(size) {
            decoder.push(Bytes::copy_from_slice(chunk));
            while let Some(piece) = decoder.pull()? {
                assert!(piece.len() <= PIECE);
                out.extend_from_slice(&piece);
            }
        }
        decoder.finish()?;
        Ok(out)
    }

    /// As [`decode`], through a [`Stack`] of `codings` (listed in the
    /// order applied) of a body with a known length: the output, or the
    /// first error.
    fn decode_stack(codings: &[Coding], body: &[u8], size: usize) -> Result<Vec<u8>, DecodeError> {
        let (out, end) = run_stack(codings, Framing::Delimited, body.chunks(size));
        end.map(|()| out)
    }

    /// Feeds `chunks` to a [`Stack`] of `codings`, pulling everything:
    /// what came out, and how the body ended (Ok, or the first error).
    fn run_stack<'a>(
        codings: &[Coding],
        framing: Framing,
        chunks: impl IntoIterator<Item = &'a [u8]>,
    ) -> (Vec<u8>, Result<(), DecodeError>) {
        let mut out = Vec::new();
        let mut chunks = chunks.into_iter();
        let mut stack = match Stack::new(codings, framing) {
            Ok(Some(stack)) => stack,
            Ok(None) => return (chunks.flatten().copied().collect(), Ok(())),
            Err(e) => return (out, Err(e)),
        };
        let end = loop {
            match stack.pull() {
                Ok(Pulled::Piece(piece)) => {
                    assert!(piece.len() <= PIECE);
                    out.extend_from_slice(&piece);
                }
                Ok(Pulled::Busy) => {}
                Ok(Pulled::End) => break Ok(()),
                Ok(Pulled::Input) => match chunks.next() {
                    Some(chunk) => stack.push(Bytes::copy_from_slice(chunk)),
                    None => break stack.finish(),
                },
                Err(e) => break Err(e),
            }
        };
        (out, end)
    }

    fn headers(values: &[&'static str]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for v in values {
            h.append(CONTENT_ENCODING, HeaderValue::from_static(v));
        }
        h
    }

    #[test]
    fn codings_are_read_in_any_case_and_x_gzip_is_gzip() {
        use Coding::{Brotli, Deflate, Gzip, Zstd};
        let applied = |values: &[&'static str]| Coding::applied(&headers(values));
        for gzip in ["gzip", "GZIP", "Gzip", "x-gzip", "X-GZip", " gzip "] {
            assert_eq!(applied(&[gzip]), Some(vec![Gzip]), "{gzip}");
        }
        assert_eq!(applied(&["BR"]), Some(vec![Brotli]));
        assert_eq!(applied(&["Zstd"]), Some(vec![Zstd]));
        assert_eq!(applied(&["DEFLATE"]), Some(vec![Deflate]));
        assert_eq!(applied(&["identity, gzip"]), Some(vec![Gzip]));
        assert_eq!(applied(&["identity", "Gzip"]), Some(vec![Gzip]));
        // Stacked, in the order applied, over one header or several.
        assert_eq!(applied(&["gzip, br"]), Some(vec![Gzip, Brotli]));
        assert_eq!(applied(&["gzip", "GZIP"]), Some(vec![Gzip, Gzip]));
        assert_eq!(
            applied(&["Zstd, identity", "deflate,x-gzip"]),
            Some(vec![Zstd, Deflate, Gzip])
        );
        for none in [&["identity"][..], &[], &[" , identity"]] {
            assert_eq!(applied(none), Some(vec![]), "{none:?}");
        }
        for unknown in [
            &["compress"][..],
            &["identity, x-unknown"],
            &["none"],
            &["UTF-8"],
            &["identity;q=1"],
            &["gzip, none"],
        ] {
            assert_eq!(applied(unknown), None, "{unknown:?}");
        }
    }

    /// A body in a coding not known here is taken for coded when it opens
    /// with a magic number or a zlib header, or holds control bytes; plain
    /// text (a robots.txt, any line ending, Latin-1 or UTF-8) is not.
    #[test]
    fn coded_bodies_are_told_from_text() {
        let page = page();
        let zlib = zlib(&page);
        let small = b"User-agent: *\nDisallow: /\n";
        for coded in [
            gzip(&page),
            gzip(small),
            zstd(&page),
            zstd(small),
            brotli(&page),
            brotli(small),
            zlib,
            vec![0x1f, 0x9d, 0x90],
            b"User-agent: *\0".to_vec(),
        ] {
            assert!(looks_coded(&coded), "{:x?}", &coded[..coded.len().min(16)]);
        }
        for text in [
            &b"User-agent: *\r\nDisallow: /private\r\n"[..],
            b"# caf\xe9\n\x0cUser-agent: *\n\tDisallow: /\n",
            "# café\nUser-agent: *\n".as_bytes(),
            // A DOS end-of-file mark; a stray escape in a longer file.
            b"User-agent: *\nDisallow: /private\n\x1a",
            &[b"# \x1b[1m robots \n".as_slice(), &[b'#'; 100]].concat(),
            // Text whose first two bytes pass the zlib check but for the
            // window size (CINFO) or preset dictionary bits.
            "老 User-agent: *\n".as_bytes(),
            b"x User-agent: *\n",
            b"",
            b"x",
        ] {
            assert!(!looks_coded(text), "{text:x?}");
        }
    }

    /// Every coding decodes to the page however the body is cut into
    /// chunks, pieces never over [`PIECE`].
    #[test]
    fn every_coding_decodes_in_any_chunking() {
        let page = page();
        for (coding, body) in [
            (Coding::Gzip, gzip(&page)),
            (Coding::Brotli, brotli(&page)),
            (Coding::Zstd, zstd(&page)),
        ] {
            for size in [1, 2, 3, 7, 1000, body.len()] {
                assert_eq!(
                    decode(coding, &body, size).as_deref(),
                    Ok(&page[..]),
                    "{coding:?} {size}"
                );
            }
        }
    }

    /// gzip members and zstd frames one after another are one body;
    /// bytes after the last gzip member that open none are ignored.
    #[test]
    fn gzip_members_and_zstd_frames_follow_one_another() {
        let (a, b) = (b"<p>first</p>".as_slice(), b"<p>second</p>".as_slice());
        let both = [a, b].concat();
        for size in [1, 5, 1000] {
            let members = [gzip(a), gzip(b)].concat();
            assert_eq!(
                decode(Coding::Gzip, &members, size).as_deref(),
                Ok(&both[..])
            );
            let frames = [zstd(a), zstd(b)].concat();
            assert_eq!(
                decode(Coding::Zstd, &frames, size).as_deref(),
                Ok(&both[..])
            );
            for trailing in [&[0u8; 10][..], b"\n"] {
                let padded = [gzip(a), trailing.to_vec()].concat();
                assert_eq!(decode(Coding::Gzip, &padded, size).as_deref(), Ok(a));
            }
        }
    }

    /// Stacked codings decode the last listed first (RFC 9110 §8.4 lists
    /// them in the order applied), however the body is cut into chunks,
    /// pieces never over [`PIECE`]; in the other order they do not. One
    /// coding in a stack of one decodes as its own decoder does.
    #[test]
    fn stacked_codings_decode_the_last_applied_first_in_any_chunking() {
        use Coding::{Brotli, Deflate, Gzip, Zstd};
        let page = page();
        for (codings, body) in [
            (&[Gzip][..], gzip(&page)),
            (&[Gzip, Gzip], gzip(&gzip(&page))),
            (&[Gzip, Brotli], brotli(&gzip(&page))),
            (&[Brotli, Zstd], zstd(&brotli(&page))),
            (&[Deflate, Zstd], zstd(&zlib(&page))),
            // The inner stream's trailing bytes are ignored, as they are
            // when it comes alone.
            (&[Gzip, Zstd], zstd(&[gzip(&page), b"\n".to_vec()].concat())),
        ] {
            for size in [1, 7, 1000, body.len()] {
                assert_eq!(
                    decode_stack(codings, &body, size).as_deref(),
                    Ok(&page[..]),
                    "{codings:?} {size}"
                );
            }
            assert_eq!(decode_stack(codings, &[], 1), Ok(Vec::new()), "{codings:?}");
        }
        assert!(matches!(
            decode_stack(&[Brotli, Gzip], &brotli(&gzip(&page)), 1000),
            Err(DecodeError::Corrupt { coding: "gzip", .. })
        ));
        assert_eq!(
            decode_stack(&[], b"<p>x</p>", 1).as_deref(),
            Ok(&b"<p>x</p>"[..])
        );
    }

    /// A stacked body cut short, or damaged, inside or outside, fails as
    /// a body in one coding does, named for the coding whose stream it
    /// is, but for an inner stream cut short inside a whole outer one:
    /// that was cut before it was compressed, and is damaged (fetching it
    /// again gives the same). Inside an outer stream the network may have
    /// cut (a whole frame, then the start of another), it is cut short.
    /// More than [`MAX_CODINGS`] codings are refused.
    #[test]
    fn stacked_codings_cut_short_damaged_or_too_many() {
        use Coding::{Brotli, Gzip, Zstd};
        let page = page();
        let inner = gzip(&page);
        let whole = zstd_checked(&inner);
        let inner_cut = zstd(&inner[..inner.len() / 2]);
        let mut inner_damaged = inner.clone();
        for b in &mut inner_damaged[12..40] {
            *b ^= 0x55;
        }
        let inner_damaged = zstd(&inner_damaged);
        let mut outer_damaged = whole.clone();
        for b in &mut outer_damaged[12..40] {
            *b ^= 0x55;
        }
        for size in [1, 7, 1000] {
            let stacked = |body: &[u8]| decode_stack(&[Gzip, Zstd], body, size);
            assert_eq!(stacked(&whole).as_deref(), Ok(&page[..]));
            assert!(matches!(
                stacked(&inner_cut),
                Err(DecodeError::Corrupt { coding: "gzip", .. })
            ));
            assert!(matches!(
                decode_stack(&[Gzip, Brotli], &brotli(&inner[..inner.len() / 2]), size),
                Err(DecodeError::Corrupt { coding: "gzip", .. })
            ));
            let then_cut = [&inner_cut[..], &ZSTD_MAGIC[..3]].concat();
            assert_eq!(
                stacked(&then_cut),
                Err(DecodeError::Truncated { coding: "gzip" })
            );
            assert_eq!(
                stacked(&whole[..whole.len() / 2]),
                Err(DecodeError::Truncated { coding: "zstd" })
            );
            assert!(matches!(
                stacked(&inner_damaged),
                Err(DecodeError::Corrupt { coding: "gzip", .. })
            ));
            assert!(matches!(
                stacked(&outer_damaged),
                Err(DecodeError::Corrupt { coding: "zstd", .. })
            ));
        }
        assert!(Stack::new(&[Gzip; MAX_CODINGS], Framing::Delimited).is_ok_and(|s| s.is_some()));
        assert!(matches!(
            Stack::new(&[Gzip; MAX_CODINGS + 1], Framing::Delimited),
            Err(DecodeError::TooManyCodings { count: 3 })
        ));
    }

    /// A stacked bomb comes out a piece at a time, as a bomb in one
    /// coding does, a few moves between layers apart.
    #[test]
    fn a_stacked_bomb_decodes_one_piece_per_few_pulls() {
        let bomb = gzip(&brotli(&vec![b'a'; 64 << 20]));
        assert!(bomb.len() < 8 * 1024, "{}", bomb.len());
        let mut stack = Stack::new(&[Coding::Brotli, Coding::Gzip], Framing::Delimited)
            .unwrap()
            .unwrap();
        assert_eq!(stack.pull(), Ok(Pulled::Input));
        stack.push(Bytes::from(bomb));
        for _ in 0..100 {
            let mut busy = 0;
            let piece = loop {
                match stack.pull() {
                    Ok(Pulled::Busy) if busy < 4 => busy += 1,
                    other => break other,
                }
            };
            assert!(
                matches!(&piece, Ok(Pulled::Piece(p)) if p.len() <= PIECE),
                "{piece:?} after {busy} moves"
            );
        }
    }

    /// An inner stream that takes far more than comes out (a skippable
    /// zstd frame of zeros, which the outer gzip makes small) fails once
    /// it has taken [`STACK_SLACK`] bytes more than the stack put out,
    /// rather than make work the caller's limit on output never bounds.
    #[test]
    fn an_inner_stream_that_puts_out_nothing_is_bounded() {
        let size = u32::try_from(STACK_SLACK + (1 << 20)).unwrap();
        let body = [gzip(&skippable(size)), gzip(&zstd(b"<p>x</p>"))].concat();
        assert!(matches!(
            decode_stack(&[Coding::Zstd, Coding::Gzip], &body, 1 << 16),
            Err(DecodeError::Corrupt { coding: "zstd", .. })
        ));
        // A small one passes.
        let small = [skippable(2), zstd(b"<p>x</p>")].concat();
        assert_eq!(
            decode_stack(&[Coding::Zstd, Coding::Gzip], &gzip(&small), 3).as_deref(),
            Ok(&b"<p>x</p>"[..])
        );
    }

    /// A body of many tiny gzip members or zstd frames comes out in
    /// pieces as full as its chunks allow, not a piece each; a piece of a
    /// few bytes holds an allocation of about its size, not [`PIECE`].
    #[test]
    fn tiny_members_and_frames_come_out_in_few_pieces() {
        let tiny = b"<p>x</p>";
        let count = 20_000;
        let decoded = tiny.repeat(count);
        for (coding, body) in [
            (Coding::Gzip, gzip(tiny).repeat(count)),
            (Coding::Zstd, zstd(tiny).repeat(count)),
        ] {
            for size in [1000, 64 * 1024, body.len()] {
                let mut decoder = Decoder::new(coding).unwrap();
                let (mut out, mut pieces) = (Vec::new(), 0);
                for chunk in body.chunks(size) {
                    decoder.push(Bytes::copy_from_slice(chunk));
                    while let Some(piece) = decoder.pull().unwrap() {
                        assert!(piece.len() <= PIECE);
                        out.extend_from_slice(&piece);
                        pieces += 1;
                    }
                }
                decoder.finish().unwrap();
                assert!(out == decoded, "{coding:?} {size}");
                let most = body.len().div_ceil(size) + decoded.len().div_ceil(PIECE);
                assert!(pieces <= most, "{coding:?} {size}: {pieces} pieces");
            }
            let mut decoder = Decoder::new(coding).unwrap();
            decoder.push(Bytes::from(body[..body.len() / count].to_vec()));
            let piece = decoder.pull().unwrap().unwrap();
            assert_eq!(&piece[..], tiny);
            let held = piece.try_into_mut().map(|p| p.capacity()).ok();
            assert!(held.is_some_and(|c| c < 1024), "{coding:?}: {held:?}");
        }
    }

    /// A bomb comes out a piece at a time: the caller can stop at its limit.
    #[test]
    fn a_bomb_decodes_one_piece_per_pull() {
        let big = vec![b'a'; 8 << 20];
        for (coding, bomb) in [
            (Coding::Gzip, gzip(&big)),
            (Coding::Brotli, brotli(&big)),
            (Coding::Zstd, zstd(&big)),
        ] {
            assert!(bomb.len() < 64 * 1024, "{coding:?} {}", bomb.len());
            let mut decoder = Decoder::new(coding).unwrap();
            decoder.push(Bytes::from(bomb));
            for _ in 0..3 {
                let piece = decoder.pull().unwrap().map(|p| p.len());
                assert!(piece.is_some_and(|n| n <= PIECE), "{coding:?} {piece:?}");
            }
        }
    }

    /// A whole gzip member followed by what starts no member (a lone
    /// `0x1f`, a magic number with a bad or cut-short header) is the
    /// body: neither cut short (a transient error, retried to the
    /// delivery limit) nor damaged (a permanent one), as the module's
    /// rule for trailing bytes has it and as browsers read it.
    #[test]
    fn a_whole_gzip_member_ends_the_body_whatever_half_member_follows() {
        let page = page();
        let second = gzip(b"<p>second</p>");
        for trailing in [
            &[0x1f][..],
            &[0x1f, 0x8b],
            &[0x1f, 0x8b, 0x00],
            &[0x1f, 0x8b, 0x00, 0x00, 0x00, 0x00],
            &second[..5],
        ] {
            let body = [gzip(&page), trailing.to_vec()].concat();
            for size in [1, 2, 7, 1000, body.len()] {
                assert_eq!(
                    decode(Coding::Gzip, &body, size).as_deref(),
                    Ok(&page[..]),
                    "{trailing:x?} {size}"
                );
            }
        }
    }

    /// A pre-RFC frame (zstd v0.7, magic `27 b5 2f fd`; this one, made by
    /// hand, holds a raw block of "hello" and decodes so with zstd's
    /// `legacy` feature) is refused: the feature is off (Cargo.toml).
    #[test]
    fn a_legacy_zstd_frame_is_refused() {
        let mut frame = vec![0x27, 0xb5, 0x2f, 0xfd, 0x00, 0x00, 0x40, 0x00, 0x05];
        frame.extend_from_slice(b"hello");
        frame.extend_from_slice(&[0xc0, 0, 0]);
        for size in [1, 4, frame.len()] {
            let error = decode(Coding::Zstd, &frame, size).unwrap_err();
            assert!(
                matches!(error, DecodeError::Corrupt { .. }),
                "{size}: {error:?}"
            );
        }
    }

    /// zstd reads trailing bytes as gzip does: a stray newline, zero
    /// padding, the start of a magic number or a frame that fails before
    /// it decodes anything end the body after the whole frame before
    /// them; a skippable frame after it is skipped.
    #[test]
    fn a_whole_zstd_frame_ends_the_body_whatever_follows_without_a_frame() {
        let page = page();
        let mut bad_header = ZSTD_MAGIC.to_vec();
        bad_header.extend([0xff; 8]);
        let skippable = [0x50, 0x2a, 0x4d, 0x18, 2, 0, 0, 0, b'x', b'y'];
        for trailing in [
            &b"\n"[..],
            &[0u8; 10],
            &[0x28],
            &ZSTD_MAGIC[..3],
            &bad_header,
            &skippable,
        ] {
            let body = [zstd(&page), trailing.to_vec()].concat();
            for size in [1, 2, 7, 1000, body.len()] {
                assert_eq!(
                    decode(Coding::Zstd, &body, size).as_deref(),
                    Ok(&page[..]),
                    "{trailing:x?} {size}"
                );
            }
        }
        // Before any frame, zstd judges the bytes: no frame is no body.
        assert!(matches!(
            decode(Coding::Zstd, b"\n<html>", 4),
            Err(DecodeError::Corrupt { .. })
        ));
    }

    /// `data` gzipped with an extra field, a name and a comment in its
    /// header, and that header's length.
    fn gzip_with_fields(data: &[u8]) -> (Vec<u8>, usize) {
        let mut e = flate2::GzBuilder::new()
            .extra(vec![7; 300])
            .filename("page.html")
            .comment("a comment")
            .write(Vec::new(), flate2::Compression::default());
        e.write_all(data).unwrap();
        let header = 10 + 2 + 300 + "page.html".len() + 1 + "a comment".len() + 1;
        (e.finish().unwrap(), header)
    }

    /// A deflate block of the reserved type (`BTYPE` 11), the last: no
    /// inflater takes it.
    const BAD_BLOCK: [u8; 4] = [0x07, 0, 0, 0];

    /// `member`, a gzip member whose header is `header` bytes long, with
    /// its first deflate block made [`BAD_BLOCK`]: a whole, valid header
    /// and data that does not inflate.
    pub(crate) fn with_bad_block(member: &[u8], header: usize) -> Vec<u8> {
        [&member[..header], &BAD_BLOCK[..], &member[header + 1..]].concat()
    }

    /// `bytes` as one zstd frame whose first block is of the reserved type
    /// (RFC 8878 §3.1.1.2.2): a whole header zstd takes, and data it does
    /// not.
    fn zstd_with_bad_block(bytes: &[u8]) -> Vec<u8> {
        let mut frame = zstd(bytes);
        let header = zstd_header_len(&[frame[0], frame[1], frame[2], frame[3], frame[4]]);
        frame[header] |= 3 << 1;
        frame
    }

    /// A further gzip member whose header came whole but whose data was
    /// cut (a close-delimited response cut by the network) is cut short,
    /// not the end of the body: only a header cut short may be trailing
    /// junk. The header's optional fields (extra, name, comment) are part
    /// of it.
    #[test]
    fn a_further_gzip_member_cut_after_its_whole_header_is_cut_short() {
        let page = page();
        let first = gzip(&page);
        let plain = gzip(&page);
        let (fields, fields_header) = gzip_with_fields(&page);
        for (second, header) in [(plain, 10), (fields, fields_header)] {
            for cut in [
                1,
                4,
                header - 1,
                header,
                header + 1,
                header + 100,
                second.len() - 1,
            ] {
                let body = [&first[..], &second[..cut]].concat();
                let expected = if cut < header {
                    Ok(true)
                } else {
                    Err(DecodeError::Truncated { coding: "gzip" })
                };
                for size in [1, 7, 1000, body.len()] {
                    assert_eq!(
                        decode(Coding::Gzip, &body, size).map(|out| out == page),
                        expected,
                        "header {header}, cut {cut}, size {size}"
                    );
                }
            }
        }
    }

    /// A further gzip member whose whole, valid header is followed by
    /// data that does not inflate (a reserved block type, before it has
    /// decoded anything) is damaged, as the first member would be: junk
    /// does not come with a gzip header. One whose header is bad (not
    /// deflate, a reserved flag, a wrong header CRC) is junk, and ends
    /// the body after the member before it.
    #[test]
    fn a_further_gzip_member_with_a_whole_header_and_bad_data_is_damaged() {
        let page = page();
        let first = gzip(&page);
        // A header with the extra field, a name and a comment; one with a
        // header CRC is put together below.
        let (fields, fields_header) = gzip_with_fields(&page);
        // A member of `header`, deflated `data` and the trailer of
        // `content` (its CRC-32 and length).
        let member = |header: &[u8], data: &[u8], content: &[u8]| {
            let mut crc = flate2::Crc::new();
            crc.update(content);
            let size = u32::try_from(content.len()).unwrap().to_le_bytes();
            [header, data, &crc.sum().to_le_bytes(), &size].concat()
        };
        let mut crc_header = vec![0x1f, 0x8b, 8, FHCRC, 0, 0, 0, 0, 0, 0xff];
        let mut crc = flate2::Crc::new();
        crc.update(&crc_header);
        let crc16 = (crc.sum() as u16).to_le_bytes();
        crc_header.extend(crc16);
        let mut bad_crc_header = crc_header.clone();
        bad_crc_header[10] ^= 1;
        let plain = gzip(b"<p>second</p>");
        let damaged = [
            with_bad_block(&plain, 10),
            with_bad_block(&fields, fields_header),
            member(&crc_header, &BAD_BLOCK, b""),
        ];
        let mut bad_method = with_bad_block(&plain, 10);
        bad_method[2] = 7;
        let mut reserved_flag = with_bad_block(&plain, 10);
        reserved_flag[3] = 0x20;
        let junk = [
            bad_method,
            reserved_flag,
            member(&bad_crc_header, &BAD_BLOCK, b""),
        ];
        for (second, expected_damaged) in damaged
            .iter()
            .map(|m| (m, true))
            .chain(junk.iter().map(|m| (m, false)))
        {
            let body = [&first[..], &second[..]].concat();
            for size in [1, 7, 1000, body.len()] {
                let got = decode(Coding::Gzip, &body, size);
                if expected_damaged {
                    assert!(
                        matches!(got, Err(DecodeError::Corrupt { coding: "gzip", .. })),
                        "{:x?} {size}: {:?}",
                        &second[..12],
                        got.map(|o| o.len())
                    );
                } else {
                    assert!(
                        got.as_ref().is_ok_and(|out| *out == page),
                        "{:x?} {size}: {:?}",
                        &second[..12],
                        got.map(|o| o.len())
                    );
                }
            }
        }
        // A valid header CRC and good data: a second member as any other.
        let mut e = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::default());
        e.write_all(b"<p>second</p>").unwrap();
        let good = member(&crc_header, &e.finish().unwrap(), b"<p>second</p>");
        let body = [&first[..], &good[..]].concat();
        let both = [&page[..], b"<p>second</p>"].concat();
        for size in [1, 7, 1000] {
            let got = decode(Coding::Gzip, &body, size);
            assert!(
                got.as_ref().is_ok_and(|out| *out == both),
                "{size}: {:?}",
                got.map(|o| o.len())
            );
        }
    }

    /// zstd as gzip: a further frame cut after its whole header (inside
    /// its first block, before it has decoded anything) is cut short; one
    /// cut inside its header ends the body after the frame before it.
    #[test]
    fn a_further_zstd_frame_cut_after_its_whole_header_is_cut_short() {
        let page = page();
        let first = zstd_checked(&page);
        let small = zstd(b"<p>second</p>");
        // Frames with and without a content size (`bulk` pledges it), a
        // window descriptor or not (single-segment), as RFC 8878 lays them
        // out: magic, descriptor, window, content size.
        let sized_small = zstd::bulk::compress(b"<p>second</p>", 3).unwrap();
        let sized = zstd::bulk::compress(&page, 3).unwrap();
        let head = |f: &[u8]| [f[0], f[1], f[2], f[3], f[4]];
        assert_eq!((small[4], zstd_header_len(&head(&small))), (0x00, 6));
        assert_eq!(
            (sized_small[4], zstd_header_len(&head(&sized_small))),
            (0x20, 6)
        );
        assert_eq!((sized[4], zstd_header_len(&head(&sized))), (0xa0, 9));
        for second in [zstd(&page), zstd_checked(&page), small, sized_small, sized] {
            let header = zstd_header_len(&head(&second));
            for cut in [
                1,
                4,
                5,
                header - 1,
                header,
                header + 1,
                second.len() / 2,
                second.len() - 1,
            ] {
                if cut >= second.len() {
                    continue;
                }
                let body = [&first[..], &second[..cut]].concat();
                let expected = if cut < header {
                    Ok(true)
                } else {
                    Err(DecodeError::Truncated { coding: "zstd" })
                };
                for size in [1, 7, 1000, body.len()] {
                    assert_eq!(
                        decode(Coding::Zstd, &body, size).map(|out| out == page),
                        expected,
                        "header {header}, cut {cut}, size {size}"
                    );
                }
            }
        }
    }

    /// zstd as gzip: a further frame whose whole header zstd takes and
    /// whose first block is bad (a reserved block type) is damaged, not
    /// junk; one whose header zstd refuses (a reserved descriptor bit, a
    /// window over 8 MiB) is junk, and ends the body after the frame
    /// before it.
    #[test]
    fn a_further_zstd_frame_with_a_whole_header_and_bad_data_is_damaged() {
        let page = page();
        let first = zstd(&page);
        // Magic, a descriptor with no content size, a window descriptor,
        // and one last block of the type given holding `x`.
        let frame = |window: u8, block: u8| {
            [
                &ZSTD_MAGIC[..],
                &[0x00, window, 1 | block << 1 | 1 << 3, 0, 0, b'x'],
            ]
            .concat()
        };
        let (raw, reserved) = (0, 3);
        let (small_window, wide_window) = ((20 - 10) << 3, (24 - 10) << 3);
        let mut bad_descriptor = frame(small_window, reserved);
        bad_descriptor[4] |= 0x08;
        let made = zstd_with_bad_block(b"<p>second</p>");
        let with_x = [&page[..], b"x"].concat();
        for (second, expected) in [
            (frame(small_window, raw), Ok(with_x.clone())),
            (frame(small_window, reserved), Err("damaged")),
            (made, Err("damaged")),
            (frame(wide_window, raw), Ok(page.clone())),
            (frame(wide_window, reserved), Ok(page.clone())),
            (bad_descriptor, Ok(page.clone())),
        ] {
            let body = [&first[..], &second[..]].concat();
            for size in [1, 7, 1000, body.len()] {
                let got = match decode(Coding::Zstd, &body, size) {
                    Ok(out) => Ok(out),
                    Err(DecodeError::Corrupt { coding: "zstd", .. }) => Err("damaged"),
                    Err(_) => Err("other"),
                };
                assert!(
                    got == expected,
                    "{second:x?} {size}: {:?}",
                    got.map(|o| o.len())
                );
            }
        }
    }

    /// `body` cut at `cuts`, in order.
    fn split<'a>(body: &'a [u8], cuts: &[usize]) -> Vec<&'a [u8]> {
        let mut from = 0;
        let mut chunks: Vec<&[u8]> = cuts
            .iter()
            .map(|&at| {
                let chunk = &body[from..at];
                from = at;
                chunk
            })
            .collect();
        chunks.push(&body[from..]);
        chunks
    }

    /// Where to cut `body` in two: everywhere, or for a long body at
    /// about 1,500 points spread over it (each cut decodes it all again).
    fn cut_points(body: &[u8]) -> impl Iterator<Item = usize> {
        (0..=body.len()).step_by((body.len() / 1500).max(1))
    }

    /// Once the inner stream of a stack has ended, the rest of the outer
    /// one is not read: a damaged further member or frame after it leaves
    /// the page whole, however the body is split (it used to fail the page
    /// when it came in the same pull as the outer stream's last output).
    #[test]
    fn an_outer_fault_after_the_inner_stream_s_end_leaves_the_page_whole() {
        use Coding::{Brotli, Deflate, Gzip, Zstd};
        let page = page();
        let second = b"<p>second</p>".as_slice();
        let cases = [
            (
                [Brotli, Gzip],
                [gzip(&brotli(&page)), with_bad_block(&gzip(second), 10)].concat(),
            ),
            (
                [Deflate, Zstd],
                [zstd(&zlib(&page)), zstd_with_bad_block(second)].concat(),
            ),
        ];
        for (codings, body) in cases {
            for size in [1, 100, 7000, body.len()] {
                let (out, end) = run_stack(&codings, Framing::Delimited, body.chunks(size));
                assert!(
                    out == page && end.is_ok(),
                    "{codings:?} in chunks of {size}: {} bytes, {end:?}",
                    out.len()
                );
            }
        }
    }

    /// A decoder whose pull met a fault finishes with that fault, not as
    /// a body that ended well or was cut.
    #[test]
    fn a_decoder_finishes_with_the_fault_a_pull_met() {
        let body = [
            gzip(&page()[..5000]),
            with_bad_block(&gzip(b"<p>x</p>"), 10),
        ]
        .concat();
        let mut decoder = Decoder::new(Coding::Gzip).unwrap();
        decoder.push(Bytes::from(body));
        assert!(matches!(decoder.pull(), Ok(Some(piece)) if piece.len() == 5000));
        assert!(matches!(decoder.finish(), Err(DecodeError::Corrupt { .. })));
        assert!(matches!(decoder.pull(), Err(DecodeError::Corrupt { .. })));
    }

    /// A fault met after output (a damaged gzip member or zstd frame after
    /// a good one, a member whose CRC is wrong, inside a stack or outside)
    /// comes after all the output before it, however the body is split
    /// into chunks: cut in two at every point, in three at many, or whole.
    /// It used to take with it the output decoded in the pull that met it,
    /// so what came out hung on where the chunks and pieces ended.
    #[test]
    fn output_before_a_fault_comes_out_however_the_body_is_split() {
        use Coding::{Gzip, Zstd};
        let page = page();
        let small = &page[..10_000];
        let second = b"<p>second</p>".as_slice();
        let bad_member = with_bad_block(&gzip(second), 10);
        let mut bad_crc = gzip(second);
        let at = bad_crc.len() - 8;
        bad_crc[at] ^= 1;
        let cases = [
            (
                &[Gzip][..],
                [gzip(small), bad_member.clone()].concat(),
                small.to_vec(),
                "gzip",
            ),
            (
                &[Gzip],
                [gzip(small), bad_crc].concat(),
                [small, second].concat(),
                "gzip",
            ),
            (
                &[Zstd],
                [zstd(small), zstd_with_bad_block(second)].concat(),
                small.to_vec(),
                "zstd",
            ),
            // More than a piece before the fault: it comes with the last.
            (
                &[Gzip],
                [gzip(&page), bad_member.clone()].concat(),
                page.clone(),
                "gzip",
            ),
            // The fault in the inner stream, and in the outer one.
            (
                &[Gzip, Gzip],
                gzip(&[gzip(small), bad_member].concat()),
                small.to_vec(),
                "gzip",
            ),
            (
                &[Gzip, Zstd],
                [zstd(&gzip(small)), zstd_with_bad_block(second)].concat(),
                small.to_vec(),
                "zstd",
            ),
        ];
        // A small xorshift: the same three-way cuts on every run.
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut random = |below: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            usize::try_from(seed % below as u64).unwrap()
        };
        for (codings, body, out, coding) in cases {
            let whole = run_stack(codings, Framing::Delimited, [&body[..]]);
            assert!(
                whole.0 == out
                    && matches!(&whole.1, Err(DecodeError::Corrupt { coding: c, .. }) if *c == coding),
                "{codings:?}: {} bytes out of {}, {:?}",
                whole.0.len(),
                out.len(),
                whole.1
            );
            let twos = cut_points(&body).map(|at| vec![at]);
            let threes = (0..300).map(|_| {
                let (a, b) = (random(body.len() + 1), random(body.len() + 1));
                vec![a.min(b), a.max(b)]
            });
            for cuts in twos.chain(threes) {
                let got = run_stack(codings, Framing::Delimited, split(&body, &cuts));
                assert!(
                    got == whole,
                    "{codings:?} cut at {cuts:?}: {} bytes out of {}, {:?}",
                    got.0.len(),
                    out.len(),
                    got.1
                );
            }
        }
    }

    /// The splits damage inside one zstd frame or brotli stream is tried
    /// in, besides whole.
    const SPLITS: [usize; 4] = [1, 7, 64, 4096];

    /// `body` through a stack of `codings`, whole and split into chunks of
    /// each of [`SPLITS`]: what the whole body gave, once every split is
    /// checked to give the same (`alike`) or, when `alike` says not, the
    /// same end and a prefix of the whole body's output.
    fn split_alike(
        codings: &[Coding],
        body: &[u8],
        alike: impl Fn(&Result<(), DecodeError>) -> bool,
    ) -> (Vec<u8>, Result<(), DecodeError>) {
        let whole = run_stack(codings, Framing::Delimited, [body]);
        for size in SPLITS {
            let got = run_stack(codings, Framing::Delimited, body.chunks(size));
            let same = if alike(&whole.1) {
                got == whole
            } else {
                got.1 == whole.1 && whole.0.starts_with(&got.0)
            };
            assert!(
                same,
                "{codings:?} in chunks of {size}: {} bytes, {:?}; whole: {} bytes, {:?}",
                got.0.len(),
                got.1,
                whole.0.len(),
                whole.1
            );
        }
        whole
    }

    /// Where each block of `frame`, one zstd frame with no dictionary,
    /// starts (its 3-byte header: last-block bit, type, size).
    fn zstd_blocks(frame: &[u8]) -> Vec<usize> {
        let mut at = zstd_header_len(&[frame[0], frame[1], frame[2], frame[3], frame[4]]);
        let mut starts = Vec::new();
        loop {
            starts.push(at);
            let header = u32::from_le_bytes([frame[at], frame[at + 1], frame[at + 2], 0]);
            // An RLE block (type 1) holds one byte, whatever its size.
            let data = if (header >> 1) & 3 == 1 {
                1
            } else {
                header >> 3
            };
            at += 3 + data as usize;
            if header & 1 == 1 {
                return starts;
            }
        }
    }

    /// Damage inside one zstd frame (a block of the reserved type, a byte
    /// changed in a block's data, the frame cut inside a block or just
    /// after a block's header) gives the same output and the same fault
    /// however the body is split: the blocks before the damage, and
    /// nothing of them lost. zstd reports nothing of a call that fails, so
    /// a call that decoded good blocks and then met the bad one took them
    /// along, as much as its chunk held; so did one that read the bad
    /// block's header ahead after a good block. Blocks of 128 KiB (more
    /// than a piece) and of 10 kB (several to a piece).
    #[test]
    fn damage_inside_a_zstd_frame_gives_the_same_output_in_any_chunking() {
        let page = varied_text(1 << 20);
        for frame in [zstd_checked(&page), zstd_in_blocks(&page, 10_000)] {
            let blocks = zstd_blocks(&frame);
            assert!(blocks.len() >= 8, "{} blocks", blocks.len());
            let (block, next) = (blocks[blocks.len() / 2], blocks[blocks.len() / 2 + 1]);
            // What the blocks before the middle one decode to.
            let (before, _) = run_stack(&[Coding::Zstd], Framing::Delimited, [&frame[..block]]);
            assert!(!before.is_empty() && page.starts_with(&before));
            let mut bad_type = frame.clone();
            bad_type[block] |= 3 << 1;
            let mut bad_byte = frame.clone();
            bad_byte[(block + next) / 2] ^= 0x5a;
            for (body, corrupt, exact) in [
                (bad_type, true, true),
                (bad_byte, true, false),
                (frame[..(block + next) / 2].to_vec(), false, true),
                (frame[..block + 3].to_vec(), false, true),
            ] {
                let (out, end) = split_alike(&[Coding::Zstd], &body, |_| true);
                let kind = match end {
                    Err(DecodeError::Corrupt { .. }) => corrupt,
                    Err(DecodeError::Truncated { .. }) => !corrupt,
                    _ => false,
                };
                // A changed byte may decode to garbage the checksum finds.
                let kept = if exact {
                    out == before
                } else {
                    out.starts_with(&before)
                };
                assert!(kind && kept, "{} of {}, {end:?}", out.len(), before.len());
            }
        }
    }

    /// Whether `end` is brotli's failure for a command that runs past its
    /// meta-block's stated length.
    fn past_meta_block(end: &Result<(), DecodeError>) -> bool {
        matches!(end, Err(DecodeError::Corrupt { message, .. }) if message.contains("meta-block"))
    }

    /// Damage inside one brotli stream (a byte changed at points through
    /// its first quarter, where damage is most often found before the
    /// meta-block ends; the stream cut in the middle; alone or in gzip)
    /// gives the same output and the same fault however the body is
    /// split: all the stream decoded before the fault. brotli writes out of
    /// its window only when the window wraps, when input runs short and at
    /// the stream's end, and what it held when it failed was lost. But a
    /// command that runs past its meta-block's stated length (where the
    /// garbage after damage often ends) is found where input runs short,
    /// or at the meta-block's end: what came of its literals hangs on the
    /// chunks, and the rest is the same.
    #[test]
    fn damage_inside_a_brotli_stream_gives_the_same_output_in_any_chunking() {
        let page = varied_text(1 << 18);
        let stream = brotli(&page);
        let mut exact = 0;
        for k in 1..16 {
            let at = stream.len() * k / 64;
            // What decodes before the damage.
            let (clean, _) = run_stack(&[Coding::Brotli], Framing::Delimited, [&stream[..at]]);
            assert!(!clean.is_empty() && page.starts_with(&clean), "at {at}");
            let mut damaged = stream.clone();
            damaged[at] ^= 0x5a;
            let (out, end) = split_alike(&[Coding::Brotli], &damaged, |end| !past_meta_block(end));
            assert!(
                out.starts_with(&clean),
                "at {at}: {} of {}",
                out.len(),
                clean.len()
            );
            if matches!(end, Err(DecodeError::Corrupt { .. })) && !past_meta_block(&end) {
                exact += 1;
                let (out, _) =
                    split_alike(&[Coding::Brotli, Coding::Gzip], &gzip(&damaged), |_| true);
                assert!(
                    out.starts_with(&clean),
                    "at {at} in gzip: {} bytes",
                    out.len()
                );
            }
        }
        assert!(exact >= 2, "{exact} faults inside the stream");
        let (out, end) = split_alike(&[Coding::Brotli], &stream[..stream.len() / 2], |_| true);
        assert!(!out.is_empty() && page.starts_with(&out), "{end:?}");
        assert_eq!(end, Err(DecodeError::Truncated { coding: "br" }));
    }

    /// An inner stream cut short inside an outer gzip member or zstd frame
    /// that ends the body is cut short (`Truncated`, tried again) when the
    /// body ends at the connection's close: the network may have cut the
    /// body right after that member, before the one that held the rest.
    /// With a known length the outer stream is whole, and the inner one
    /// was cut before it was compressed (`Corrupt`); so it is when the
    /// outer stream ended of itself (a brotli stream's end, bytes after a
    /// member that open no other one) whatever the framing.
    #[test]
    fn an_inner_stream_cut_at_a_close_delimited_body_s_end_is_cut_short() {
        use Coding::{Brotli, Gzip, Zstd};
        use Framing::{Close, Delimited};
        let page = page();
        let half = |body: Vec<u8>| body[..body.len() / 2].to_vec();
        let cut_br = half(brotli(&page));
        let cut_gzip = half(gzip(&page));
        // What the body's end was, with a close and with a known length.
        let what = |end: Result<(), DecodeError>| match end {
            Err(DecodeError::Truncated { coding }) => format!("cut {coding}"),
            Err(DecodeError::Corrupt { coding, .. }) => format!("damaged {coding}"),
            other => format!("{other:?}"),
        };
        for (codings, body, close, delimited) in [
            (&[Brotli, Gzip][..], gzip(&cut_br), "cut br", "damaged br"),
            (&[Gzip, Zstd], zstd(&cut_gzip), "cut gzip", "damaged gzip"),
            (
                &[Gzip, Zstd],
                [zstd(&cut_gzip[..100]), zstd(&cut_gzip[100..])].concat(),
                "cut gzip",
                "damaged gzip",
            ),
            (
                &[Gzip, Brotli],
                brotli(&cut_gzip),
                "damaged gzip",
                "damaged gzip",
            ),
            (
                &[Brotli, Gzip],
                [gzip(&cut_br), b"\n".to_vec()].concat(),
                "damaged br",
                "damaged br",
            ),
        ] {
            for size in [1, 7, 1000, body.len()] {
                for (framing, expected) in [(Close, close), (Delimited, delimited)] {
                    let (_, end) = run_stack(codings, framing, body.chunks(size));
                    assert_eq!(what(end), expected, "{codings:?} {framing:?} {size}");
                }
            }
        }
        // Whole, it decodes as it does with a known length.
        for (codings, body) in [
            (&[Brotli, Gzip][..], gzip(&brotli(&page))),
            (&[Gzip, Zstd], zstd(&gzip(&page))),
        ] {
            let (out, end) = run_stack(codings, Close, body.chunks(1000));
            assert!(end.is_ok() && out == page, "{codings:?}: {end:?}");
        }
    }

    /// After a skippable frame (pzstd writes one before each frame), a
    /// frame cut short anywhere, inside its header too, is cut short: an
    /// encoder writes a skippable frame in front of more frames, so what
    /// follows one is not padding. A skippable frame at the end is whole.
    #[test]
    fn a_frame_cut_short_after_a_skippable_frame_is_cut_short() {
        let page = page();
        let skippable = [0x5e, 0x2a, 0x4d, 0x18, 4, 0, 0, 0, 1, 2, 3, 4];
        let second = zstd(b"<p>second</p>");
        let header = zstd_header_len(&[second[0], second[1], second[2], second[3], second[4]]);
        for (before, out) in [
            (skippable.to_vec(), Vec::new()),
            ([&zstd(&page)[..], &skippable].concat(), page.clone()),
        ] {
            for size in [1, 7, 1000] {
                assert_eq!(decode(Coding::Zstd, &before, size), Ok(out.clone()));
                for cut in [1, 3, 4, 5, header - 1, header, header + 1] {
                    let body = [&before[..], &second[..cut]].concat();
                    assert_eq!(
                        decode(Coding::Zstd, &body, size),
                        Err(DecodeError::Truncated { coding: "zstd" }),
                        "{} before, cut {cut}, size {size}",
                        before.len()
                    );
                }
                // Whole, the frame after it decodes.
                let body = [&before[..], &second[..]].concat();
                let whole = [&out[..], b"<p>second</p>"].concat();
                assert_eq!(decode(Coding::Zstd, &body, size), Ok(whole));
            }
        }
    }

    /// Damage each coding is sure to notice: gzip's CRC-32 and zstd's
    /// content checksum catch any change to the content; brotli has no
    /// checksum, so its stream header is made one no decoder takes (the
    /// reserved window size `1000100`), and so is zstd's magic number.
    #[test]
    fn damaged_cut_short_and_empty_bodies() {
        let page = page();
        let mut brotli_bad_header = brotli(&page);
        brotli_bad_header[0] = (brotli_bad_header[0] & 0x80) | 0x11;
        let mut zstd_bad_magic = zstd(&page);
        zstd_bad_magic[0] ^= 0xff;
        for (coding, damaged) in [
            (Coding::Brotli, brotli_bad_header),
            (Coding::Zstd, zstd_bad_magic),
        ] {
            assert!(
                matches!(
                    decode(coding, &damaged, 512),
                    Err(DecodeError::Corrupt { .. })
                ),
                "{coding:?}"
            );
        }
        for (coding, body) in [
            (Coding::Gzip, gzip(&page)),
            (Coding::Brotli, brotli(&page)),
            (Coding::Zstd, zstd_checked(&page)),
        ] {
            if coding != Coding::Brotli {
                let mut damaged = body.clone();
                for b in &mut damaged[12..40] {
                    *b ^= 0x55;
                }
                assert!(
                    matches!(
                        decode(coding, &damaged, 512),
                        Err(DecodeError::Corrupt { .. })
                    ),
                    "{coding:?}"
                );
            }
            let half = &body[..body.len() / 2];
            assert_eq!(
                decode(coding, half, 512),
                Err(DecodeError::Truncated {
                    coding: coding.name()
                }),
                "{coding:?}"
            );
            assert_eq!(decode(coding, &[], 1), Ok(Vec::new()), "{coding:?}");
        }
        // A frame asking for a window past 8 MiB (RFC 9659) is refused.
        let mut wide = zstd::stream::write::Encoder::new(Vec::new(), 3).unwrap();
        wide.set_parameter(zstd::stream::raw::CParameter::WindowLog(24))
            .unwrap();
        wide.set_pledged_src_size(None).unwrap();
        wide.write_all(&vec![b'a'; 20 << 20]).unwrap();
        let wide = wide.finish().unwrap();
        assert!(matches!(
            decode(Coding::Zstd, &wide, 4096),
            Err(DecodeError::Corrupt { .. })
        ));
        let mut bad_crc = gzip(&page);
        let at = bad_crc.len() - 8;
        bad_crc[at] ^= 1;
        assert!(matches!(
            decode(Coding::Gzip, &bad_crc, 512),
            Err(DecodeError::Corrupt { .. })
        ));
        assert_eq!(
            decode(Coding::Gzip, &[0x1f], 1),
            Err(DecodeError::Truncated { coding: "gzip" })
        );
    }
}
