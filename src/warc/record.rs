//! WARC record framing over the decompressed stream: finds the next
//! `WARC/<version>` line (skipping blank lines and, when resynchronising,
//! garbage), parses the header fields, hands out the body in chunks bounded
//! by Content-Length and checks that a record boundary follows it. Tolerant
//! of WARC 0.18 habits (LF-only lines, missing or extra blank lines between
//! records). Where compressed members do not follow records (BGZF-style
//! fixed-size members), a header, a body or even `WARC/` goes on in the
//! next member. It does not interpret fields beyond framing.
//!
//! Why not the `warc` crate: it parses from a plain `BufRead` with no notion
//! of the file offset of compressed members (needed for CDX-style offsets),
//! rejects pre-1.0 quirks, and cannot resynchronise after garbage or a
//! wrong Content-Length; the framing is small enough to own.

use super::arc;
use super::error::WarcError;
use super::stream::{RecordPos, Stream};
use crate::codec::container::Compression;

const MAX_LINE: usize = 64 * 1024;
/// How much of a record an index points at is looked at for a whole ARC
/// header line.
const ARC_LINE_PEEK: usize = 4 * 1024;
const MAX_HEADER: usize = 1024 * 1024;

/// A record's header block and where it starts.
#[derive(Debug, Clone)]
pub struct Head {
    pub pos: RecordPos,
    /// `1.0`, `1.1`, `0.18`, ...
    pub version: String,
    pub fields: Vec<(String, String)>,
}

impl Head {
    /// The first field of this name (case-insensitive).
    pub fn get(&self, name: &str) -> Option<&str> {
        values_named(&self.fields, name).next()
    }

    pub fn record_type(&self) -> &str {
        self.get("WARC-Type").unwrap_or("")
    }

    pub fn record_id(&self) -> Option<&str> {
        self.get("WARC-Record-ID")
    }

    pub fn content_length(&self) -> Option<u64> {
        self.get("Content-Length")?.trim().parse().ok()
    }
}

/// The values of the `fields` named `name` (case-insensitive), in order:
/// the lookup of a WARC head's fields and of an HTTP head's headers, which
/// are both kept as (name, value) pairs in the order they came.
pub(crate) fn values_named<'a>(
    fields: &'a [(String, String)],
    name: &str,
) -> impl Iterator<Item = &'a str> {
    fields
        .iter()
        .filter(move |(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_str())
}

/// How a record's body ended, when it did not end as written.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Ending {
    /// The file ends inside the body (a gzip member, zstd or LZ4 frame,
    /// or a plain file, cut short): the body is what came before the cut.
    pub cut: bool,
    /// The Content-Length was a few bytes off, and the record's end was
    /// found where the next record starts.
    pub fix: Option<LengthFix>,
}

/// How a record's body is mended when its Content-Length is a few bytes
/// off (see [`Parser::end_record`]).
#[derive(Debug, PartialEq, Eq)]
pub enum LengthFix {
    /// The length is short: these bytes after it, up to the record
    /// separator, belong to the body.
    Short(Vec<u8>),
    /// The length is long by this many bytes (1 to 3), the start of the
    /// record separator that the body took in.
    Long(usize),
}

/// How far past a record's declared end its separator and the next record
/// are looked for when they are not there ([`LengthFix::Short`]).
pub const LENGTH_WINDOW: usize = 16;

/// The separator WARC writes after a record's block.
const SEPARATOR: &[u8] = b"\r\n\r\n";

/// What the parser found next.
#[derive(Debug)]
pub enum Next {
    Record(Head),
    /// Something that is not a record; the parser resynchronises after it.
    Bad {
        pos: RecordPos,
        error: WarcError,
    },
    End,
}

struct Body {
    declared: u64,
    remaining: u64,
    /// The record started its own compressed member, or was found inside
    /// one by a resync after a bad record: either way it ends within its
    /// member (or members that go on with it), and a body that runs past
    /// that is the record's error, not the file's end.
    aligned: bool,
}

pub struct Parser<'r> {
    stream: Stream<'r>,
    started: bool,
    body: Option<Body>,
    /// After an error: skip to the next record without reporting garbage.
    resyncing: bool,
    /// The record being parsed was found by such a skip. In a compressed
    /// file it may be a header quoted in the bad record's own body (a page
    /// showing WARC headers, a stored `.warc`): what it declares must not
    /// carry the reader past the member, over the records after it.
    resynced: bool,
    /// The start of a `WARC/` line found at the end of one member and
    /// continued in the next (members that do not follow records), with
    /// where it starts; the next header begins with it.
    carried: Option<(RecordPos, Vec<u8>)>,
    /// The first member must begin with a record (see
    /// [`Parser::at_record`]): nothing is scanned for.
    exact: bool,
    /// The file is an ARC file (it began with a `filedesc://` record, or
    /// the record an index points at has an ARC header line): records are
    /// framed by ARC header lines ([`arc`]), not `WARC/` heads.
    arc: bool,
    /// The last (up to) three bytes of the current body consumed, for
    /// telling a Content-Length that is long by a few bytes (the body took
    /// in the start of the separator).
    tail: [u8; 3],
    /// The file ends inside the current body ([`Ending::cut`]).
    body_cut: bool,
    /// The current record goes on across a member's end (members that do
    /// not follow records, as BGZF's): a member's end is no record's end.
    spanned: bool,
}

impl<'r> Parser<'r> {
    pub fn new(stream: Stream<'r>) -> Self {
        Parser {
            stream,
            started: false,
            body: None,
            resyncing: false,
            resynced: false,
            carried: None,
            exact: false,
            arc: false,
            tail: [0; 3],
            body_cut: false,
            spanned: false,
        }
    }

    /// A parser for the one record an index points at: the first member
    /// (or a plain file at that offset) must begin with `WARC/`, after
    /// line ends at most, or [`Parser::next_head`] fails with
    /// [`WarcError::NoRecordAt`] without scanning on for a record.
    pub fn at_record(stream: Stream<'r>) -> Self {
        Parser {
            exact: true,
            ..Parser::new(stream)
        }
    }

    pub fn file_offset(&self) -> u64 {
        self.stream.file_offset()
    }

    pub fn compression(&self) -> Compression {
        self.stream.compression()
    }

    /// Gives up the record and member being read after a member-level
    /// error; the next [`Parser::next_head`] scans on from the next member
    /// without reporting what it skips.
    pub fn abandon_member(&mut self) {
        self.body = None;
        self.body_cut = false;
        self.carried = None;
        self.resyncing = true;
        self.stream.abandon_member();
    }

    /// Finds and parses the next record header.
    pub fn next_head(&mut self) -> Result<Next, WarcError> {
        if self.body.is_some()
            && let Err(e) = self.end_record()
            && !e.is_record_level()
        {
            return Err(e);
        }
        if !self.started {
            self.started = true;
            let member = self.stream.next_member()?;
            if self.exact {
                self.check_record_start(member)?;
            } else if member && self.stream.fill_at_least(11)?.starts_with(b"filedesc://") {
                // An ARC file, plain or `.arc.gz` (its first member holds
                // the file's header record).
                self.arc = true;
            }
            if !member {
                return Ok(Next::End);
            }
        }
        if self.arc {
            return self.next_arc_head();
        }
        // A record whose start was carried over a member end was found by
        // the last scan, which reported the garbage before it.
        self.resynced = false;
        if self.carried.is_none() {
            let (garbage, at) = self.scan_to_record()?;
            let resyncing = std::mem::take(&mut self.resyncing);
            self.resynced = resyncing;
            if garbage > 0 && !resyncing {
                return Ok(Next::Bad {
                    pos: at,
                    error: WarcError::garbage(garbage),
                });
            }
            if self.carried.is_none() && self.stream.fill()?.is_empty() {
                return Ok(Next::End);
            }
        }
        self.parse_head()
    }

    /// For [`Parser::at_record`]: whether the first member (`member`:
    /// there is one) begins with a record, line ends allowed before it.
    fn check_record_start(&mut self, member: bool) -> Result<(), WarcError> {
        let offset = self.stream.position().offset;
        let what = match self.compression() {
            Compression::Gzip => "the gzip member there does not begin with a WARC record",
            Compression::Zstd => "the zstd frame there does not begin with a WARC record",
            Compression::Lz4 => "the lz4 frame there does not begin with a WARC record",
            Compression::None => {
                "not the start of a gzip member, zstd or lz4 frame or WARC or ARC record"
            }
        };
        let no_record = WarcError::NoRecordAt { offset, what };
        if !member || self.stream.garbage_pending() {
            return Err(no_record);
        }
        let buf = self.stream.fill_at_least(16)?;
        let blank = buf
            .iter()
            .take_while(|b| matches!(b, b'\r' | b'\n'))
            .count();
        if buf[blank..].starts_with(b"WARC/") {
            return Ok(());
        }
        // The file's end cuts the member before it gives a whole `WARC/`
        // (in its first bytes): the cut is told, not a record missing.
        let cut_start = b"WARC/".starts_with(&buf[blank..]);
        if cut_start
            && self.stream.is_cut()
            && let Some(cut) = self.stream.take_cut()
        {
            return Err(cut);
        }
        // A record of an ARC file: its whole header line is there, or the
        // start of it, cut by the file's end (told when it is read).
        let plain = self.compression() == Compression::None;
        let ends = self.stream.fill_at_least(ARC_LINE_PEEK)?.len() < ARC_LINE_PEEK;
        let file_ends = ends && (plain || self.stream.is_cut());
        let buf = self.stream.buffered();
        if arc::begins_with_header(buf) || (file_ends && arc::begins_with_cut_header(buf)) {
            self.arc = true;
            return Ok(());
        }
        Err(no_record)
    }

    /// The next record of an ARC file: blank lines (and member ends) are
    /// skipped, then a header line is read. A line that is none is a bad
    /// record, and the lines after it are skipped, unreported, up to the
    /// next header line; garbage the layer skipped between members is
    /// reported as in a WARC file.
    fn next_arc_head(&mut self) -> Result<Next, WarcError> {
        let (mut garbage, mut at) = self.garbage_skipped_in_record();
        // Blank lines between records are no garbage, even after some.
        while self.skip_to_text(1, false, &mut garbage, &mut at)? {
            if garbage > 0 && !self.resyncing {
                let pos = at.unwrap_or_else(|| self.stream.position());
                let error = WarcError::garbage(garbage);
                return Ok(Next::Bad { pos, error });
            }
            let pos = self.stream.position();
            let aligned = self.stream.at_member_start() && self.compression() != Compression::None;
            let (line, ended) = self.read_member_line()?;
            if !ended && let Some(cut) = self.cut_in_header_line(&line) {
                return Err(cut);
            }
            match arc::parse_header_line(&line) {
                Ok(header) => {
                    self.resyncing = false;
                    let head = arc::head(&header, &line, pos);
                    return self.start_body(head, pos, aligned);
                }
                Err(_) if self.resyncing => {}
                Err(error) => {
                    self.resyncing = true;
                    return Ok(Next::Bad { pos, error });
                }
            }
        }
        if garbage > 0 && !std::mem::take(&mut self.resyncing) {
            let pos = at.unwrap_or_else(|| self.stream.position());
            return Ok(Next::Bad {
                pos,
                error: WarcError::garbage(garbage),
            });
        }
        Ok(Next::End)
    }

    /// One line of the current member, without its line end, and whether
    /// its line end was there; at the member's end, what is left of it (an
    /// ARC header line never goes on in the next member).
    fn read_member_line(&mut self) -> Result<(Vec<u8>, bool), WarcError> {
        let mut line = Vec::new();
        let ended = self.take_line(&mut line, "ARC header line longer than 64 KiB")?;
        Ok((line, ended))
    }

    /// The file's end, when it cut the ARC header line `line` (its member
    /// ended before its line end), to be told in place of the bad record
    /// the rest of it makes, as a cut inside a WARC header is: the cut of
    /// a compressed member, or the end of a plain file where `line` may
    /// begin a header line ([`arc::may_begin_header`]). A line a whole
    /// member holds without a line end is a bad record, as are other
    /// bytes at a plain file's end.
    fn cut_in_header_line(&mut self, line: &[u8]) -> Option<WarcError> {
        if self.stream.is_cut() {
            return self.stream.take_cut();
        }
        let plain = self.compression() == Compression::None;
        (plain && arc::may_begin_header(line)).then(|| {
            WarcError::truncated(self.file_offset(), "the file ends inside a record header")
        })
    }

    /// Adds to `line` the rest of a line of the current member: `true`
    /// when its line end was read (and dropped), `false` when the member
    /// ended first. A line past [`MAX_LINE`] is a bad header (`too_long`).
    fn take_line(&mut self, line: &mut Vec<u8>, too_long: &str) -> Result<bool, WarcError> {
        loop {
            let buf = self.stream.fill()?;
            if buf.is_empty() {
                return Ok(false);
            }
            if let Some(i) = memchr::memchr(b'\n', buf) {
                line.extend_from_slice(&buf[..i]);
                self.stream.consume(i + 1);
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                return Ok(true);
            }
            line.extend_from_slice(buf);
            let n = buf.len();
            self.stream.consume(n);
            if line.len() > MAX_LINE {
                return Err(WarcError::BadHeader(too_long.into()));
            }
        }
    }

    /// Skips blank bytes and garbage up to the next `WARC/`; returns the
    /// garbage's size and position.
    fn scan_to_record(&mut self) -> Result<(u64, RecordPos), WarcError> {
        let (mut garbage, mut at) = self.garbage_skipped_in_record();
        // After garbage, white space up to the record is part of it, as
        // when both are found in one look.
        while self.skip_to_text(8, true, &mut garbage, &mut at)? {
            let pos = self.stream.position();
            let buf = self.stream.fill_at_least(8)?;
            if buf.starts_with(b"WARC/") {
                break;
            }
            // Fewer than eight bytes: the member ends here. They may start
            // a `WARC/` that the next member goes on with.
            if buf.len() < 8
                && b"WARC/".starts_with(buf)
                && self.carry(pos, &mut garbage, &mut at)?
            {
                break;
            }
            let buf = self.stream.fill_at_least(8)?;
            if buf.is_empty() {
                continue;
            }
            // Garbage: skip to the next `WARC/`, wherever it is. Its last
            // four bytes may begin one (`WARC` and the `/` not read yet),
            // unless the member ends here (fewer than eight bytes).
            let n = match memchr::memmem::find(buf, b"WARC/") {
                Some(i) => i,
                None if buf.len() >= 8 => buf.len() - 4,
                // All but a last few bytes that may begin a `WARC/` the
                // next member goes on with (see `carry`).
                None => buf.len() - warc_start_at_end(buf),
            };
            at.get_or_insert(pos);
            garbage += n as u64;
            self.stream.consume(n);
        }
        Ok((garbage, at.unwrap_or_else(|| self.stream.position())))
    }

    /// The garbage the layer skipped while a record was read (see
    /// `continue_member`), and where it began.
    fn garbage_skipped_in_record(&mut self) -> (u64, Option<RecordPos>) {
        let (mut garbage, mut at) = (0, None);
        if self.stream.garbage_pending() {
            let more = self.stream.in_member();
            self.count_skipped(more, &mut garbage, &mut at);
        }
        (garbage, at)
    }

    /// The loop both framings read heads with: skips white space and
    /// member ends (counting the garbage the layer skipped between
    /// members, and the white space after garbage when `blank_is_garbage`)
    /// until a byte that is not white space, with `want` bytes of its
    /// member looked at; `false` at the file's end.
    fn skip_to_text(
        &mut self,
        want: usize,
        blank_is_garbage: bool,
        garbage: &mut u64,
        at: &mut Option<RecordPos>,
    ) -> Result<bool, WarcError> {
        loop {
            let buf = self.stream.fill_at_least(want)?;
            if buf.is_empty() {
                let more = self.stream.next_member()?;
                self.count_skipped(more, garbage, at);
                if !more {
                    return Ok(false);
                }
                continue;
            }
            let blank = buf
                .iter()
                .take_while(|b| matches!(b, b'\r' | b'\n' | b' ' | b'\t'))
                .count();
            if blank == 0 {
                return Ok(true);
            }
            if blank_is_garbage && at.is_some() {
                *garbage += blank as u64;
            }
            self.stream.consume(blank);
        }
    }

    /// Counts the garbage the layer skipped before the member just moved
    /// to (`more`) or the file's end.
    fn count_skipped(&mut self, more: bool, garbage: &mut u64, at: &mut Option<RecordPos>) {
        let (skipped, from) = self.stream.take_garbage();
        if skipped > 0 {
            let end = match more {
                true => self.stream.position().offset,
                false => self.stream.file_offset(),
            };
            let offset = from.unwrap_or_else(|| end.saturating_sub(skipped));
            at.get_or_insert(RecordPos { offset, inner: 0 });
            *garbage += skipped;
        }
    }

    /// The member ends in the start of `WARC/` (at `pos`): when the next
    /// members, with no garbage between, go on with the rest of it, a
    /// record starts there and its first bytes are carried to the header
    /// (`true`). Otherwise those bytes are garbage, and the scan goes on
    /// in the member moved to.
    fn carry(
        &mut self,
        pos: RecordPos,
        garbage: &mut u64,
        at: &mut Option<RecordPos>,
    ) -> Result<bool, WarcError> {
        let mut carried = Vec::new();
        loop {
            let buf = self.stream.fill_at_least(8)?;
            let joined = [&carried[..], buf].concat();
            let starts = joined.starts_with(b"WARC/");
            if starts || !b"WARC/".starts_with(&joined) || buf.len() >= 8 {
                if starts && !carried.is_empty() {
                    self.carried = Some((pos, carried));
                    return Ok(true);
                }
                if !carried.is_empty() {
                    at.get_or_insert(pos);
                    *garbage += carried.len() as u64;
                }
                return Ok(starts);
            }
            // Still a proper start of `WARC/` and the member ends (or is
            // empty): on to the next, unless garbage lies between.
            let n = buf.len();
            carried.extend_from_slice(buf);
            self.stream.consume(n);
            let more = self.stream.next_member()?;
            // A plain file that ends in the start of `WARC/` (after no
            // garbage) is cut inside a record's header, as one that ends
            // after it is.
            if !more && self.compression() == Compression::None && at.is_none() {
                let detail = "the file ends inside a record header";
                return Err(WarcError::truncated(self.file_offset(), detail));
            }
            if self.stream.garbage_pending() || !more {
                at.get_or_insert(pos);
                *garbage += carried.len() as u64;
                self.count_skipped(more, garbage, at);
                return Ok(false);
            }
        }
    }

    /// At the end of a member in the middle of a record: moves to the next
    /// member when it goes on with the record, as in a stream whose members
    /// do not follow the records (BGZF's 64 KiB members): no garbage
    /// before it and no `WARC/` at its start. `false` at the file's end or
    /// when the next member is not read from (any garbage before it is
    /// left to the next scan).
    fn continue_member(&mut self) -> Result<bool, WarcError> {
        // ARC files are written a member per record (or one member).
        if self.arc || self.compression() == Compression::None || !self.stream.next_member()? {
            return Ok(false);
        }
        if self.stream.garbage_pending() {
            return Ok(false);
        }
        let goes_on = !self.stream.fill_at_least(5)?.starts_with(b"WARC/");
        self.spanned |= goes_on;
        Ok(goes_on)
    }

    /// Reads one line, without its line end; it may go on in the next
    /// member (see `continue_member`).
    fn read_line(&mut self) -> Result<Option<Vec<u8>>, WarcError> {
        let mut line = Vec::new();
        loop {
            if self.take_line(&mut line, "header line longer than 64 KiB")? {
                return Ok(Some(line));
            }
            if !self.continue_member()? {
                return Ok(None);
            }
        }
    }

    fn parse_head(&mut self) -> Result<Next, WarcError> {
        let carried = self.carried.take();
        self.spanned = carried.is_some();
        let pos = carried.as_ref().map_or(self.stream.position(), |c| c.0);
        let aligned = carried.is_none()
            && (self.stream.at_member_start() || self.resynced)
            && self.compression() != Compression::None;
        let carried = carried.map(|c| c.1).unwrap_or_default();
        match self.read_fields(carried) {
            Ok(head) => self.start_body(head, pos, aligned),
            Err(error) if error.is_record_level() => {
                self.resyncing = true;
                Ok(Next::Bad { pos, error })
            }
            Err(e) => Err(e),
        }
    }

    fn start_body(&mut self, head: Head, pos: RecordPos, aligned: bool) -> Result<Next, WarcError> {
        let Some(declared) = head.content_length() else {
            self.resyncing = true;
            let error = match head.get("Content-Length") {
                None => WarcError::MissingField("Content-Length"),
                Some(v) => WarcError::BadHeader(format!("bad Content-Length {v:?}")),
            };
            return Ok(Next::Bad { pos, error });
        };
        self.body = Some(Body {
            declared,
            remaining: declared,
            aligned,
        });
        self.tail = [0; 3];
        self.body_cut = false;
        Ok(Next::Record(Head { pos, ..head }))
    }

    /// Reads the header fields; `carried` is the start of its first line
    /// read from the member before.
    fn read_fields(&mut self, carried: Vec<u8>) -> Result<Head, WarcError> {
        let offset = self.file_offset();
        let plain = self.compression() == Compression::None;
        let truncated = || match plain {
            true => WarcError::truncated(offset, "the file ends inside a record header"),
            false => WarcError::BadHeader("header runs past the end of its member".into()),
        };
        let first = [carried, self.read_line()?.ok_or_else(truncated)?].concat();
        let version = String::from_utf8_lossy(first.get(5..).unwrap_or_default())
            .trim()
            .to_string();
        if version.is_empty() || !version.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
            return Err(WarcError::BadHeader(format!(
                "bad version line {version:?}"
            )));
        }
        let mut fields: Vec<(String, String)> = Vec::new();
        let mut size = first.len();
        loop {
            let line = self.read_line()?.ok_or_else(truncated)?;
            if line.is_empty() {
                break;
            }
            size += line.len();
            if size > MAX_HEADER {
                return Err(WarcError::BadHeader(
                    "header block larger than 1 MiB".into(),
                ));
            }
            add_field(&mut fields, &line)?;
        }
        Ok(Head {
            pos: RecordPos::default(),
            version,
            fields,
        })
    }

    /// Bytes of the current record's body not consumed yet.
    pub fn body_remaining(&self) -> u64 {
        self.body.as_ref().map_or(0, |b| b.remaining)
    }

    /// Up to `n` bytes (at most the stream's buffer) of the current body,
    /// straight from the stream's buffer and without consuming them; fewer
    /// only at the body's end or where it runs on into the next member.
    pub fn peek_body(&mut self, n: usize) -> Result<&[u8], WarcError> {
        let remaining = self.body_remaining();
        if remaining == 0 {
            return Ok(&[]);
        }
        // A loop: the next member may be empty.
        while self.stream.at_member_end()?
            && let Some(body) = &self.body
        {
            let (aligned, declared) = (body.aligned, body.declared);
            if self.stream.is_cut() {
                self.cut_body();
                return Ok(&[]);
            }
            self.cross_member(aligned, declared)?;
        }
        let want = n.min(usize::try_from(remaining).unwrap_or(usize::MAX));
        let buf = self.stream.fill_at_least(want)?;
        Ok(&buf[..buf.len().min(want)])
    }

    /// The next bytes of the current record's body; empty at its end.
    pub fn body_chunk(&mut self) -> Result<&[u8], WarcError> {
        let Some(body) = &self.body else {
            return Ok(&[]);
        };
        if body.remaining == 0 {
            return Ok(&[]);
        }
        let (aligned, declared) = (body.aligned, body.declared);
        // A loop: the next member may be empty.
        while self.stream.at_member_end()? {
            if self.stream.is_cut() {
                self.cut_body();
                return Ok(&[]);
            }
            self.cross_member(aligned, declared)?;
        }
        let remaining = self.body.as_ref().map_or(0, |b| b.remaining);
        let buf = self.stream.fill()?;
        let n = buf
            .len()
            .min(usize::try_from(remaining).unwrap_or(usize::MAX));
        Ok(&buf[..n])
    }

    /// The body continues past a member's end: fine inside a multi-record
    /// member stream, an error for a record that had its own member
    /// unless the next member goes on with it (see `continue_member`: a
    /// record of a stream whose members do not follow records may start
    /// at a member's start by chance).
    fn cross_member(&mut self, aligned: bool, declared: u64) -> Result<(), WarcError> {
        let plain = self.compression() == Compression::None;
        if aligned && !plain {
            if self.continue_member()? {
                return Ok(());
            }
            self.body = None;
            self.resyncing = true;
            let detail = "the body runs past the end of its compressed member";
            return Err(WarcError::LengthMismatch { declared, detail });
        }
        if plain {
            // A plain file cut inside the record: its body ends here, and
            // the file's end is told after it.
            let cut = WarcError::truncated(
                self.file_offset(),
                format!("the last record declares {declared} bytes but the file ends first"),
            );
            self.stream.cut_here(cut);
            self.cut_body();
            return Ok(());
        }
        self.spanned = true;
        if !self.stream.next_member()? {
            self.body = None;
            return Err(WarcError::truncated(
                self.file_offset(),
                format!("the last record declares {declared} bytes but the file ends first"),
            ));
        }
        Ok(())
    }

    /// The file's end, when it cut the current body short: taken, to be
    /// told in place of what the cut made of the record.
    pub fn take_cut(&mut self) -> Option<WarcError> {
        match self.body_cut {
            true => self.stream.take_cut(),
            false => None,
        }
    }

    /// The file ends inside the current body: what was read of it is all
    /// of it ([`Ending::cut`]).
    fn cut_body(&mut self) {
        if let Some(body) = &mut self.body {
            body.remaining = 0;
            self.body_cut = true;
        }
    }

    pub fn consume_body(&mut self, n: usize) {
        if let Some(body) = &mut self.body {
            let n = (n as u64).min(body.remaining) as usize;
            body.remaining -= n as u64;
            let consumed = self.stream.buffered();
            keep_tail(&mut self.tail, &consumed[..n.min(consumed.len())]);
            self.stream.consume(n);
        }
    }

    /// Skips what is left of the body and checks that a record boundary
    /// (blank lines, then another record, a member end or the file end)
    /// follows. A WARC record whose Content-Length is a few bytes off is
    /// mended ([`Ending::fix`]) when its separator and the next record (or
    /// the member's or file's end) are found within [`LENGTH_WINDOW`]
    /// bytes past the declared end, or when the body took in the first 1
    /// to 3 bytes of the separator `CRLF CRLF`.
    pub fn end_record(&mut self) -> Result<Ending, WarcError> {
        loop {
            let n = self.body_chunk()?.len();
            if n == 0 {
                break;
            }
            self.consume_body(n);
        }
        let cut = std::mem::take(&mut self.body_cut);
        let Some(body) = self.body.take() else {
            return Ok(Ending::default());
        };
        if cut {
            return Ok(Ending { cut, fix: None });
        }
        match self.boundary_follows(body.aligned)? {
            Some(fix) => Ok(Ending { cut, fix }),
            None => {
                self.resyncing = true;
                Err(WarcError::LengthMismatch {
                    declared: body.declared,
                    detail: "no record boundary follows the declared length",
                })
            }
        }
    }

    /// After a body: a blank line (CRLF CRLF, or LF LF in old files), or
    /// directly the next record, the member's end or the file's end
    /// (`Some`, with the mending of a Content-Length a few bytes off, if
    /// it is); `None` if no record boundary is near. Anything after a
    /// proper blank line is the next scan's business. The end of the
    /// member ends the record, for mending, only if the file is plain or
    /// the record began its member (`aligned`) and stayed in it: where
    /// members do not follow records (BGZF), a member may end anywhere.
    fn boundary_follows(&mut self, aligned: bool) -> Result<Option<Option<LengthFix>>, WarcError> {
        let plain = self.compression() == Compression::None;
        let ends = (aligned && !self.spanned) || plain;
        let cut = plain || self.stream.is_cut();
        let buf = self.stream.fill_at_least(9)?;
        let blank = buf
            .iter()
            .take_while(|b| matches!(b, b'\r' | b'\n'))
            .count();
        let newlines = buf[..blank].iter().filter(|b| **b == b'\n').count();
        let rest = &buf[blank..];
        if self.arc {
            return self.arc_boundary(ends);
        }
        if newlines >= 2 || rest.is_empty() || rest.starts_with(b"WARC/") {
            let next = (rest.is_empty() && ends)
                || rest.starts_with(b"WARC/")
                || (cut && cut_warc_start(rest, buf.len() < 9));
            let fix = match next {
                false => None,
                true => long_by(&self.tail, &buf[..blank]).map(LengthFix::Long),
            };
            self.stream.consume(blank);
            return Ok(Some(fix));
        }
        // The window, the separator, a few more line ends and `WARC/`.
        let want = LENGTH_WINDOW + 32;
        let buf = self.stream.fill_at_least(want)?;
        let at_end = buf.len() < want && ends;
        match short_by(buf, at_end, at_end && cut) {
            Some(k) => {
                let extra = buf[..k].to_vec();
                self.stream.consume(k);
                Ok(Some(Some(LengthFix::Short(extra))))
            }
            None => Ok(None),
        }
    }
}

impl Parser<'_> {
    /// [`Parser::boundary_follows`] for an ARC record, which one line end
    /// ends. Mended as a WARC record's length: long by one when the body
    /// took in its line end (it ends in LF, and the next header line or
    /// the member's or file's end follows directly); short by 1 to
    /// [`LENGTH_WINDOW`] bytes when a line end followed by the next header
    /// line (or the end) is found that far on, and not right after the
    /// body. Line ends followed by anything else end the record unmended,
    /// as ever: the next scan reads what follows.
    fn arc_boundary(&mut self, ends: bool) -> Result<Option<Option<LengthFix>>, WarcError> {
        let want = LENGTH_WINDOW + ARC_LINE_PEEK;
        let plain = self.compression() == Compression::None;
        let cut = plain || self.stream.is_cut();
        let buf = self.stream.fill_at_least(want)?;
        let at_end = buf.len() < want && ends;
        let blank = buf
            .iter()
            .take_while(|b| matches!(b, b'\r' | b'\n'))
            .count();
        let rest = &buf[blank..];
        // The next record: a header line, or the start of one that the
        // file's end cuts (its cut is told when it is read).
        let next = |rest: &[u8]| {
            arc::begins_with_header(rest)
                || rest.starts_with(b"WARC/")
                || (rest.is_empty() && at_end)
                || (at_end && cut && arc::begins_with_cut_header(rest))
        };
        // Where line ends follow the body at once, a plain file's end is
        // no end to mend the record to: the bytes before it are a junk
        // line of their own (a bad record), not the body's last bytes.
        let mend_to = |rest: &[u8]| match rest.is_empty() && plain && blank > 0 {
            true => false,
            false => next(rest),
        };
        if blank == 0 && self.tail[2] == b'\n' && next(rest) {
            return Ok(Some(Some(LengthFix::Long(1))));
        }
        let unmended = blank > 0 || rest.is_empty() || rest.starts_with(b"WARC/");
        if unmended && next(rest) {
            self.stream.consume(blank);
            return Ok(Some(None));
        }
        // Where one line end, then the next record, follows; else where
        // line ends do (a body that ends in a line end, short by less
        // than it, is not told from one short by all of it).
        let line_end = |k: usize| match &buf[k..] {
            b if b.starts_with(b"\n") => Some(&b[1..]),
            b if b.starts_with(b"\r\n") => Some(&b[2..]),
            _ => None,
        };
        let window = 1..=LENGTH_WINDOW.min(buf.len());
        let exact = window.clone().find(|&k| {
            line_end(k)
                .is_some_and(|r| !r.starts_with(b"\r") && !r.starts_with(b"\n") && mend_to(r))
        });
        let short = exact.or_else(|| {
            window.clone().find(|&k| {
                line_end(k).is_some_and(|r| {
                    let blank = r.iter().take_while(|b| matches!(b, b'\r' | b'\n')).count();
                    mend_to(&r[blank..])
                })
            })
        });
        if let Some(k) = short {
            let extra = buf[..k].to_vec();
            self.stream.consume(k);
            return Ok(Some(Some(LengthFix::Short(extra))));
        }
        if unmended {
            self.stream.consume(blank);
            return Ok(Some(None));
        }
        Ok(None)
    }
}

/// Keeps the last three bytes of a body consumed so far in `tail`, with
/// `bytes` just consumed.
fn keep_tail(tail: &mut [u8; 3], bytes: &[u8]) {
    let n = bytes.len().min(3);
    tail.copy_within(n.., 0);
    tail[3 - n..].copy_from_slice(&bytes[bytes.len() - n..]);
}

/// How many bytes (1 to 3) of the separator `CRLF CRLF` a body ending in
/// `tail` took in, when the line ends after it (`blank`, fewer than four
/// bytes) are the rest of it: a Content-Length long by that many. Four or
/// more (a body ending in `CRLF CRLF` followed directly by the next
/// record) is not told from a writer that leaves the separator out.
fn long_by(tail: &[u8; 3], blank: &[u8]) -> Option<usize> {
    if blank.len() >= SEPARATOR.len() || !SEPARATOR.ends_with(blank) {
        return None;
    }
    let k = SEPARATOR.len() - blank.len();
    (k <= 3 && tail.ends_with(&SEPARATOR[..k])).then_some(k)
}

/// Where, 1 to [`LENGTH_WINDOW`] bytes into `buf` (the bytes after a
/// body's declared end), the separator (`CRLF CRLF`, or `LF LF` in old
/// files) starts that is followed, after any more line ends, by the next
/// record or by the end of the member or file (`at_end`: `buf` holds all
/// of it): a Content-Length short by that many bytes. Where the file's
/// end cuts `buf` (`file_ends`), the start of a `WARC/` it cut is the
/// next record too: its cut is told when it is read.
fn short_by(buf: &[u8], at_end: bool, file_ends: bool) -> Option<usize> {
    (1..=LENGTH_WINDOW.min(buf.len())).find(|&k| {
        let sep = match &buf[k..] {
            b if b.starts_with(SEPARATOR) => SEPARATOR.len(),
            b if b.starts_with(b"\n\n") => 2,
            _ => return false,
        };
        let after = &buf[k + sep..];
        let blank = after
            .iter()
            .take_while(|b| matches!(b, b'\r' | b'\n'))
            .count();
        let rest = &after[blank..];
        rest.starts_with(b"WARC/") || (rest.is_empty() && at_end) || cut_warc_start(rest, file_ends)
    })
}

/// Whether `rest`, the last bytes of a file whose end cuts them
/// (`file_ends`), are the start of a `WARC/` line cut short.
fn cut_warc_start(rest: &[u8], file_ends: bool) -> bool {
    file_ends && !rest.is_empty() && b"WARC/".starts_with(rest)
}

/// How many of the last bytes of `buf` (at most four) begin `WARC/`.
fn warc_start_at_end(buf: &[u8]) -> usize {
    (1..=buf.len().min(4))
        .rev()
        .find(|&k| b"WARC/".starts_with(&buf[buf.len() - k..]))
        .unwrap_or(0)
}

/// Adds one header line; continuation lines extend the previous field.
fn add_field(fields: &mut Vec<(String, String)>, line: &[u8]) -> Result<(), WarcError> {
    let text = String::from_utf8_lossy(line);
    if line.first().is_some_and(|b| *b == b' ' || *b == b'\t')
        && let Some((_, value)) = fields.last_mut()
    {
        value.push(' ');
        value.push_str(text.trim());
        return Ok(());
    }
    let Some((name, value)) = text.split_once(':') else {
        return Err(WarcError::BadHeader(format!(
            "header line without a colon: {:?}",
            text.chars().take(80).collect::<String>()
        )));
    };
    fields.push((name.trim().to_string(), value.trim().to_string()));
    Ok(())
}
