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

use super::error::WarcError;
use super::stream::{RecordPos, Stream};
use crate::codec::container::{self, Compression};

const MAX_LINE: usize = 64 * 1024;
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
                // An `.arc.gz` file: its first member is ARC's file
                // header, not a record to count as garbage.
                return Err(WarcError::NotWarc(container::ARC_FILE.into()));
            }
            if !member {
                return Ok(Next::End);
            }
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
                    error: WarcError::Garbage { len: garbage },
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
            Compression::None => "not the start of a gzip member, zstd or lz4 frame or WARC record",
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
        match buf[blank..].starts_with(b"WARC/") {
            true => Ok(()),
            false => Err(no_record),
        }
    }

    /// Skips blank bytes and garbage up to the next `WARC/`; returns the
    /// garbage's size and position.
    fn scan_to_record(&mut self) -> Result<(u64, RecordPos), WarcError> {
        let mut garbage = 0u64;
        let mut at = None;
        // Skipped while a record was read (see `continue_member`).
        if self.stream.garbage_pending() {
            let more = self.stream.in_member();
            self.count_skipped(more, &mut garbage, &mut at);
        }
        loop {
            let pos = self.stream.position();
            let buf = self.stream.fill_at_least(8)?;
            if buf.is_empty() {
                let more = self.stream.next_member()?;
                self.count_skipped(more, &mut garbage, &mut at);
                if !more {
                    break;
                }
                continue;
            }
            let blank = buf
                .iter()
                .take_while(|b| matches!(b, b'\r' | b'\n' | b' ' | b'\t'))
                .count();
            if blank > 0 {
                // After garbage, white space up to the record is part of
                // it, as when both are found in one look.
                if at.is_some() {
                    garbage += blank as u64;
                }
                self.stream.consume(blank);
                continue;
            }
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
        if self.compression() == Compression::None || !self.stream.next_member()? {
            return Ok(false);
        }
        if self.stream.garbage_pending() {
            return Ok(false);
        }
        Ok(!self.stream.fill_at_least(5)?.starts_with(b"WARC/"))
    }

    /// Reads one line, without its line end; it may go on in the next
    /// member (see `continue_member`).
    fn read_line(&mut self) -> Result<Option<Vec<u8>>, WarcError> {
        let mut line = Vec::new();
        loop {
            let buf = self.stream.fill()?;
            if buf.is_empty() {
                if self.continue_member()? {
                    continue;
                }
                return Ok(None);
            }
            if let Some(i) = memchr::memchr(b'\n', buf) {
                line.extend_from_slice(&buf[..i]);
                self.stream.consume(i + 1);
                if line.last() == Some(&b'\r') {
                    line.pop();
                }
                return Ok(Some(line));
            }
            line.extend_from_slice(buf);
            let n = buf.len();
            self.stream.consume(n);
            if line.len() > MAX_LINE {
                return Err(WarcError::BadHeader(
                    "header line longer than 64 KiB".into(),
                ));
            }
        }
    }

    fn parse_head(&mut self) -> Result<Next, WarcError> {
        let carried = self.carried.take();
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
        Ok(Next::Record(Head { pos, ..head }))
    }

    /// Reads the header fields; `carried` is the start of its first line
    /// read from the member before.
    fn read_fields(&mut self, carried: Vec<u8>) -> Result<Head, WarcError> {
        let offset = self.file_offset();
        let plain = self.compression() == Compression::None;
        let truncated = || match plain {
            true => WarcError::Truncated {
                offset,
                what: "the file ends inside a record header".into(),
            },
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
            self.cross_member(body.aligned, body.declared)?;
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
        if plain || !self.stream.next_member()? {
            self.body = None;
            return Err(WarcError::Truncated {
                offset: self.file_offset(),
                what: format!("the last record declares {declared} bytes but the file ends first"),
            });
        }
        Ok(())
    }

    pub fn consume_body(&mut self, n: usize) {
        if let Some(body) = &mut self.body {
            let n = (n as u64).min(body.remaining);
            body.remaining -= n;
            self.stream.consume(n as usize);
        }
    }

    /// Skips what is left of the body and checks that a record boundary
    /// (blank lines, then another record, a member end or the file end)
    /// follows.
    pub fn end_record(&mut self) -> Result<(), WarcError> {
        loop {
            let n = self.body_chunk()?.len();
            if n == 0 {
                break;
            }
            self.consume_body(n);
        }
        let Some(body) = self.body.take() else {
            return Ok(());
        };
        if self.boundary_follows()? {
            return Ok(());
        }
        self.resyncing = true;
        Err(WarcError::LengthMismatch {
            declared: body.declared,
            detail: "no record boundary follows the declared length",
        })
    }

    /// After a body: a blank line (CRLF CRLF, or LF LF in old files), or
    /// directly the next record, the member's end or the file's end.
    /// Anything after a proper blank line is the next scan's business.
    fn boundary_follows(&mut self) -> Result<bool, WarcError> {
        let buf = self.stream.fill_at_least(9)?;
        let blank = buf
            .iter()
            .take_while(|b| matches!(b, b'\r' | b'\n'))
            .count();
        let newlines = buf[..blank].iter().filter(|b| **b == b'\n').count();
        let rest = &buf[blank..];
        let ok = newlines >= 2 || rest.is_empty() || rest.starts_with(b"WARC/");
        if ok {
            self.stream.consume(blank);
        }
        Ok(ok)
    }
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
