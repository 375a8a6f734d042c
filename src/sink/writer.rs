//! Output: JSONL (one object per extracted record, the whole stream
//! optionally gzip- or zstd-compressed) and WET-style WARC files of
//! `conversion` records, each record compressed on its own (gzip members or
//! zstd frames) so CDX offsets work on them. It does not decide what to
//! write: the caller passes records in the order it wants them.

use crate::Document;
use crate::codec::container::Compression;
use crate::warc::date;
use crate::warc::{RecordPos, Repairs};
use flate2::write::GzEncoder;
use serde::Serialize;
use std::io::{self, Write};

/// Compression chosen by an output name: `.gz`, `.zst`, or none.
pub fn compression_for(name: &str) -> Compression {
    // Extensions in any case: `OUT.WARC.GZ` is gzip too.
    let name = name.to_ascii_lowercase();
    if name.ends_with(".gz") {
        Compression::Gzip
    } else if name.ends_with(".zst") {
        Compression::Zstd
    } else {
        Compression::None
    }
}

/// LZ4 is read (`.warc.lz4` input), not written: [`compression_for`]
/// never picks it, and a writer asked for it fails with this.
fn lz4_output() -> io::Error {
    io::Error::new(io::ErrorKind::Unsupported, "LZ4 output is not written")
}

/// Where an extracted record came from.
#[derive(Debug, Clone, Copy)]
pub struct Source<'a> {
    pub file: &'a str,
    pub pos: RecordPos,
    pub record_id: &'a str,
    pub target_uri: Option<&'a str>,
    /// The source record's `WARC-Date` as it stands; both outputs write
    /// it in one form (`Source::warc_date`).
    pub date: Option<&'a str>,
    /// The source's HTTP date as a WARC-Date ([`super::Page::http_date`]),
    /// if it is a response that has one: a WET record's date when `date`
    /// is missing or not usable.
    pub http_date: Option<&'a str>,
    /// Why the record's payload is not whole ([`super::Page::truncated`]).
    pub truncated: Option<&'a str>,
    /// What the reader mended to read the record ([`crate::warc::Page::repairs`]).
    pub repairs: Repairs,
}

impl Source<'_> {
    /// The source record's `WARC-Date` in UTC as `YYYY-MM-DDThh:mm:ssZ`
    /// ([`date::record_warc_date`]: a fraction of seconds dropped, an
    /// offset applied, a leap second taken as `:59`), so that the dates of
    /// the output compare and sort as text; `None` when it has none, or
    /// one that names no instant to the second (blank, malformed, or one
    /// of WARC 1.1's coarser forms, `2024-05`).
    fn warc_date(&self) -> Option<String> {
        self.date.and_then(date::record_warc_date)
    }
}

/// One JSONL line: the source record's fields and the document.
#[derive(Serialize)]
struct JsonlLine<'a> {
    warc_record_id: &'a str,
    warc_target_uri: Option<&'a str>,
    /// [`Source::warc_date`]: `null` when the record has no WARC-Date
    /// that reads as one, as when it has none. Not the raw value, which
    /// would sort among the dates as what it is not, nor the HTTP `Date`
    /// (a WET record's fallback), which is the server's clock.
    warc_date: Option<String>,
    warc_file: &'a str,
    /// File offset of the record (of its gzip member or zstd frame).
    warc_offset: u64,
    /// Decompressed bytes to skip after `warc_offset` (multi-record members).
    #[serde(skip_serializing_if = "is_zero")]
    warc_offset_inner: u64,
    /// Why the record's payload is not whole (`WARC-Truncated`'s reason,
    /// or `segment`); absent when it is whole.
    #[serde(skip_serializing_if = "Option::is_none")]
    warc_truncated: Option<&'a str>,
    /// What the reader mended to read the record (`content_length`,
    /// `cut`, `date`: [`Repairs::names`]); absent when nothing.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    warc_repaired: Vec<&'static str>,
    #[serde(flatten)]
    document: &'a Document,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

enum Sink<W: Write> {
    Plain(W),
    Gzip(GzEncoder<W>),
    Zstd(::zstd::stream::write::Encoder<'static, W>),
}

/// JSONL output, compressed as a whole.
pub struct JsonlWriter<W: Write> {
    sink: Sink<W>,
}

impl<W: Write> JsonlWriter<W> {
    pub fn new(out: W, compression: Compression) -> io::Result<Self> {
        let sink = match compression {
            Compression::None => Sink::Plain(out),
            Compression::Gzip => Sink::Gzip(GzEncoder::new(out, flate2::Compression::default())),
            Compression::Zstd => Sink::Zstd(::zstd::stream::write::Encoder::new(out, 3)?),
            Compression::Lz4 => return Err(lz4_output()),
        };
        Ok(JsonlWriter { sink })
    }

    pub fn write(&mut self, source: &Source, document: &Document) -> io::Result<()> {
        let line = JsonlLine {
            warc_record_id: source.record_id,
            warc_target_uri: source.target_uri,
            warc_date: source.warc_date(),
            warc_file: source.file,
            warc_offset: source.pos.offset,
            warc_offset_inner: source.pos.inner,
            warc_truncated: source.truncated,
            warc_repaired: source.repairs.names(),
            document,
        };
        self.write_value(&line)
    }

    /// Writes any value as one JSON line (`linesift run` writes the
    /// worker's document and failure messages so).
    pub fn write_value<T: Serialize>(&mut self, value: &T) -> io::Result<()> {
        let mut bytes = serde_json::to_vec(value)?;
        bytes.push(b'\n');
        match &mut self.sink {
            Sink::Plain(w) => w.write_all(&bytes),
            Sink::Gzip(w) => w.write_all(&bytes),
            Sink::Zstd(w) => w.write_all(&bytes),
        }
    }

    /// Ends the compressed stream and flushes.
    pub fn finish(self) -> io::Result<W> {
        let mut out = match self.sink {
            Sink::Plain(w) => w,
            Sink::Gzip(w) => w.finish()?,
            Sink::Zstd(w) => w.finish()?,
        };
        out.flush()?;
        Ok(out)
    }
}

/// WET output: one `conversion` record per extracted page, after a
/// leading `warcinfo` record when the writer is made with one
/// ([`WetWriter::with_warcinfo`]).
pub struct WetWriter<W: Write> {
    out: W,
    compression: Compression,
    /// The warcinfo record still to be written: it is dated by the first
    /// conversion record, so it waits for it (or for `finish`).
    info: Option<WetInfo>,
}

/// What a WET file's leading `warcinfo` record says of the file.
#[derive(Debug, Clone, Default)]
pub struct WetInfo {
    /// The output's name (`WARC-Filename`), without its folders; `None`
    /// for an output with no name (stdout).
    pub filename: Option<String>,
    /// The input files' names, without their folders, for `description`.
    pub inputs: Vec<String>,
}

impl<W: Write> WetWriter<W> {
    /// A writer of conversion records only (a part of a WET file).
    pub fn new(out: W, compression: Compression) -> Self {
        WetWriter {
            out,
            compression,
            info: None,
        }
    }

    /// A writer of a whole WET file: a `warcinfo` record, then the
    /// conversion records.
    pub fn with_warcinfo(out: W, compression: Compression, info: WetInfo) -> Self {
        WetWriter {
            out,
            compression,
            info: Some(info),
        }
    }

    /// Writes the record for `document`; returns its new WARC-Record-ID.
    pub fn write(&mut self, source: &Source, document: &Document) -> io::Result<String> {
        let date = wet_date(source);
        if let Some(info) = self.info.take() {
            self.emit(&warcinfo_record(&info, &date))?;
        }
        let id = wet_record_id(source);
        let record = conversion_record(source, &date, &id, document);
        self.emit(&record)?;
        Ok(id)
    }

    /// Writes one record, compressed on its own.
    fn emit(&mut self, record: &[u8]) -> io::Result<()> {
        match self.compression {
            Compression::None => self.out.write_all(record),
            Compression::Gzip => {
                let mut gz = GzEncoder::new(&mut self.out, flate2::Compression::default());
                gz.write_all(record)?;
                gz.finish().map(drop)
            }
            Compression::Zstd => self.out.write_all(&::zstd::bulk::compress(record, 3)?),
            Compression::Lz4 => Err(lz4_output()),
        }
    }

    /// Writes the warcinfo record if no conversion record did (an output
    /// with no documents is still a WET file), and flushes.
    pub fn finish(mut self) -> io::Result<W> {
        if let Some(info) = self.info.take() {
            self.emit(&warcinfo_record(&info, UNKNOWN_DATE))?;
        }
        self.out.flush()?;
        Ok(self.out)
    }
}

/// A WET file's `warcinfo` record on its own, compressed as
/// [`WetWriter`] compresses it, dated `date` (the file's first conversion
/// record's, [`wet_date`]): for a file whose records are encoded apart
/// (`linesift run`'s tasks).
pub fn warcinfo_bytes(info: &WetInfo, date: &str, compression: Compression) -> io::Result<Vec<u8>> {
    let mut writer = WetWriter::new(Vec::new(), compression);
    writer.emit(&warcinfo_record(info, date))?;
    writer.finish()
}

/// The `warcinfo` record, as Common Crawl's WET files begin with one, with
/// their fields: `Software-Info` (what wrote the file), `Extracted-Date`
/// and `description` (from what). Dated by the file's first conversion
/// record ([`UNKNOWN_DATE`] without one), `Extracted-Date` too (as in
/// Common Crawl's files, where it is the `WARC-Date` as an HTTP date), and
/// named by the output's name and inputs, so that the output stays a
/// function of the input, byte for byte: never the time of the run.
fn warcinfo_record(info: &WetInfo, date: &str) -> Vec<u8> {
    let extracted = date::warc_date_time(date).unwrap_or(std::time::SystemTime::UNIX_EPOCH);
    let body = format!(
        "Software-Info: linesift/{}\r\n\
         Extracted-Date: {}\r\n\
         description: Wet file: plain text extracted from {}\r\n",
        env!("CARGO_PKG_VERSION"),
        httpdate::fmt_http_date(extracted),
        one_line(&info.inputs.join(", "))
    );
    let mut hasher = blake3::Hasher::new();
    hasher.update(b"linesift-warcinfo\0");
    hasher.update(info.filename.as_deref().unwrap_or("").as_bytes());
    hasher.update(b"\0");
    hasher.update(date.as_bytes());
    hasher.update(b"\0");
    hasher.update(body.as_bytes());
    let id = uuid_v8(hasher.finalize().as_bytes());
    let mut head = String::from("WARC/1.0\r\nWARC-Type: warcinfo\r\n");
    head.push_str(&format!("WARC-Date: {}\r\n", one_line(date)));
    if let Some(name) = &info.filename {
        head.push_str(&format!("WARC-Filename: {}\r\n", one_line(name)));
    }
    head.push_str(&format!("WARC-Record-ID: {id}\r\n"));
    head.push_str("Content-Type: application/warc-fields\r\n");
    head.push_str(&format!("Content-Length: {}\r\n\r\n", body.len()));
    let mut record = head.into_bytes();
    record.extend_from_slice(body.as_bytes());
    record.extend_from_slice(b"\r\n\r\n");
    record
}

/// Headline, a blank line, then the text (as WET files put the title first).
pub fn wet_payload(document: &Document) -> String {
    match document.headline.as_deref().filter(|h| !h.is_empty()) {
        Some(h) => format!("{h}\n\n{}", document.text),
        None => document.text.clone(),
    }
}

/// A conversion record with the headers Common Crawl's WET records
/// carry: `WARC-Refers-To` (the source record's id, when it has one),
/// `WARC-Block-Digest` (SHA-1 of the text, base32, as Common Crawl
/// writes it) and `WARC-Identified-Content-Language` (the document's
/// ISO 639-3 code, as Common Crawl writes it, when it was told).
fn conversion_record(source: &Source, date: &str, id: &str, document: &Document) -> Vec<u8> {
    let payload = wet_payload(document);
    let mut head = String::from("WARC/1.0\r\nWARC-Type: conversion\r\n");
    if let Some(uri) = source.target_uri {
        head.push_str(&format!("WARC-Target-URI: {}\r\n", one_line(uri)));
    }
    head.push_str(&format!("WARC-Date: {}\r\n", one_line(date)));
    head.push_str(&format!("WARC-Record-ID: {id}\r\n"));
    if !source.record_id.is_empty() {
        head.push_str(&format!(
            "WARC-Refers-To: {}\r\n",
            one_line(source.record_id)
        ));
    }
    head.push_str(&format!(
        "WARC-Block-Digest: {}\r\n",
        block_digest(payload.as_bytes())
    ));
    if let Some(language) = document.language.as_deref().filter(|l| !l.is_empty()) {
        head.push_str(&format!(
            "WARC-Identified-Content-Language: {}\r\n",
            one_line(language)
        ));
    }
    head.push_str("Content-Type: text/plain\r\n");
    head.push_str(&format!("Content-Length: {}\r\n\r\n", payload.len()));
    let mut record = head.into_bytes();
    record.extend_from_slice(payload.as_bytes());
    record.extend_from_slice(b"\r\n\r\n");
    record
}

/// `sha1:` and the block's SHA-1 in base32, as WARC writers give it.
fn block_digest(block: &[u8]) -> String {
    use sha1::Digest;
    let hash = sha1::Sha1::digest(block);
    format!("sha1:{}", data_encoding::BASE32.encode(&hash))
}

/// Header values must not break the header block.
fn one_line(value: &str) -> String {
    value.replace(['\r', '\n'], " ")
}

/// A deterministic UUID (version 8) from the source file's name, record
/// and position: the same input gives the same output file, and records
/// of two files that share record ids and offsets (a copy under another
/// name, WARCs written by one tool from one seed) get ids of their own, as
/// WARC-Record-IDs must be unique. The name without its folders, so that
/// where a run is started from does not change the ids.
pub fn wet_record_id(source: &Source) -> String {
    let name = std::path::Path::new(source.file)
        .file_name()
        .map_or(source.file.into(), |n| n.to_string_lossy());
    let mut hasher = blake3::Hasher::new();
    hasher.update(b"linesift-wet\0");
    hasher.update(name.as_bytes());
    hasher.update(b"\0");
    hasher.update(source.record_id.as_bytes());
    hasher.update(&source.pos.offset.to_le_bytes());
    hasher.update(&source.pos.inner.to_le_bytes());
    uuid_v8(hasher.finalize().as_bytes())
}

/// A `urn:uuid` of version 8 from the first 16 bytes of a hash.
fn uuid_v8(hash: &[u8; 32]) -> String {
    let mut b = [0u8; 16];
    b.copy_from_slice(&hash[..16]);
    b[6] = (b[6] & 0x0f) | 0x80;
    b[8] = (b[8] & 0x3f) | 0x80;
    let hex: String = b.iter().map(|x| format!("{x:02x}")).collect();
    format!(
        "<urn:uuid:{}-{}-{}-{}-{}>",
        &hex[..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..]
    )
}

/// What a conversion record dates to when the source record says nothing
/// of when it was made: the Unix epoch, plainly no capture time.
pub const UNKNOWN_DATE: &str = "1970-01-01T00:00:00Z";

/// The conversion record's WARC-Date, which WARC requires: the source
/// record's own, as WET files keep it (a conversion is dated by the capture
/// it converts, and Common Crawl's WETs do so), written as WARC 1.0 (the
/// record's version) has it ([`Source::warc_date`]: a fraction of
/// seconds dropped, an offset applied, a leap second taken as `:59`). A
/// source without one (or with a blank, malformed or coarser one) is
/// dated by its HTTP `Date` ([`Source::http_date`]), the server's time of
/// the response, usually close to the capture (a cache keeps the origin's
/// `Date`); and with neither, [`UNKNOWN_DATE`]. Not the time of the run,
/// nor one taken once per run: the output must be a function of the
/// input, byte for byte, as its record ids are ([`wet_record_id`]), so
/// that a rerun, a diff or a content-addressed store sees the same file.
/// Nor a warcinfo record's date: the record's conversion would then
/// depend on what the file holds before it, and one read at its CDX
/// offset would differ from the same record read with its file.
pub fn wet_date(source: &Source) -> String {
    // A malformed one (`yesterday`) says nothing sure of the capture, and
    // a reader of the output may fail on it: the HTTP date is better, and
    // than a coarser one (`2024-05`) padded with digits it does not have.
    source
        .warc_date()
        .unwrap_or_else(|| source.http_date.unwrap_or(UNKNOWN_DATE).to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(file: &str, record_id: &str, offset: u64) -> String {
        wet_record_id(&Source {
            file,
            pos: RecordPos { offset, inner: 0 },
            record_id,
            target_uri: None,
            date: None,
            http_date: None,
            truncated: None,
            repairs: Repairs::default(),
        })
    }

    /// Ids are the same for the same record of the same file, wherever the
    /// file is named from, and differ for a record of another file at the
    /// same offset with the same source id.
    #[test]
    fn wet_ids_are_stable_and_differ_between_files() {
        let a = id("crawl/a.warc.gz", "<urn:uuid:1>", 100);
        assert_eq!(a, id("/data/crawl/a.warc.gz", "<urn:uuid:1>", 100));
        assert_ne!(a, id("crawl/b.warc.gz", "<urn:uuid:1>", 100));
        assert_ne!(a, id("crawl/a.warc.gz", "<urn:uuid:2>", 100));
        assert_ne!(a, id("crawl/a.warc.gz", "<urn:uuid:1>", 101));
        assert!(a.starts_with("<urn:uuid:") && a.ends_with('>'), "{a}");
        assert_eq!(&a[24..25], "8", "version 8: {a}");
    }

    /// The source every date test writes: one record, with its dates.
    fn dated_source<'a>(date: Option<&'a str>, http_date: Option<&'a str>) -> Source<'a> {
        Source {
            file: "in.warc",
            pos: RecordPos {
                offset: 0,
                inner: 0,
            },
            record_id: "<urn:uuid:1>",
            target_uri: Some("http://a.example/"),
            date,
            http_date,
            truncated: None,
            repairs: Repairs::default(),
        }
    }

    fn wet_bytes(date: Option<&str>, http_date: Option<&str>) -> Vec<u8> {
        let source = dated_source(date, http_date);
        let document = Document {
            text: "Some text.".into(),
            ..Document::default()
        };
        let mut out = WetWriter::new(Vec::new(), Compression::Gzip);
        out.write(&source, &document).unwrap();
        let gz = out.finish().unwrap();
        let mut record = String::new();
        std::io::Read::read_to_string(&mut flate2::read::GzDecoder::new(&gz[..]), &mut record)
            .unwrap();
        record.into_bytes()
    }

    /// The JSONL line of a source dated `date`, with an HTTP date.
    fn jsonl_line(date: Option<&str>) -> serde_json::Value {
        let source = dated_source(date, Some("1994-11-15T08:12:31Z"));
        let mut out = JsonlWriter::new(Vec::new(), Compression::None).unwrap();
        out.write(&source, &Document::default()).unwrap();
        serde_json::from_slice(&out.finish().unwrap()).unwrap()
    }

    /// A JSONL line's `warc_date` is the record's WARC-Date in one form,
    /// UTC to the second with `Z`, whatever form it came in; `null` when
    /// the record has none or one that names no instant (not the raw
    /// value, nor the HTTP date a WET record falls back to).
    #[test]
    fn jsonl_warc_dates_are_written_in_one_form() {
        for (date, want) in [
            (Some("2024-05-06T07:08:09Z"), Some("2024-05-06T07:08:09Z")),
            (
                Some("2024-05-01T12:00:00+02:00"),
                Some("2024-05-01T10:00:00Z"),
            ),
            (
                Some("2024-05-01T00:30:00-0500"),
                Some("2024-05-01T05:30:00Z"),
            ),
            (Some("2016-12-31T23:59:60Z"), Some("2016-12-31T23:59:59Z")),
            (
                Some(" 2024-05-06T07:08:09.5Z "),
                Some("2024-05-06T07:08:09Z"),
            ),
            (Some("yesterday"), None),
            (Some("2024-05"), None),
            (Some("2024-05-06T07:08:60Z"), None),
            (Some(""), None),
            (None, None),
        ] {
            let line = jsonl_line(date);
            assert_eq!(
                line.get("warc_date").map(|d| d.as_str()),
                Some(want),
                "{date:?}"
            );
        }
    }

    fn warc_date_of(record: &[u8]) -> String {
        let text = String::from_utf8_lossy(record);
        let line = text.lines().find(|l| l.starts_with("WARC-Date: "));
        line.map(|l| l["WARC-Date: ".len()..].to_string())
            .unwrap_or_default()
    }

    /// A source record without a WARC-Date gives the same conversion
    /// record on every run, dated by its HTTP `Date` or else the epoch;
    /// one with a WARC-Date keeps it as WARC 1.0 has it, in UTC.
    #[test]
    fn a_dateless_source_gives_the_same_wet_record_every_time() {
        // As the reader gives it: the HTTP `Date` read as a WARC-Date.
        let http = Some("1994-11-15T08:12:31Z");
        for (date, http_date, want) in [
            (Some("2024-05-06T07:08:09Z"), http, "2024-05-06T07:08:09Z"),
            (None, http, "1994-11-15T08:12:31Z"),
            (Some(" "), http, "1994-11-15T08:12:31Z"),
            (Some("2024"), http, "1994-11-15T08:12:31Z"),
            (Some("2024-05-06T07:08Z"), http, "1994-11-15T08:12:31Z"),
            (
                Some("2024-05-06T07:08:09.123456Z"),
                http,
                "2024-05-06T07:08:09Z",
            ),
            (Some(" 2024-05-06T07:08:09Z "), http, "2024-05-06T07:08:09Z"),
            (Some("2024-05-06T07:08:09.1234567890Z"), None, UNKNOWN_DATE),
            (Some("yesterday"), http, "1994-11-15T08:12:31Z"),
            (Some("2024-05-06 07:08:09"), http, "1994-11-15T08:12:31Z"),
            (Some("2024-02-30T00:00:00Z"), None, UNKNOWN_DATE),
            (
                Some("2024-05-06T01:08:09-06:00"),
                http,
                "2024-05-06T07:08:09Z",
            ),
            (Some("2016-12-31T23:59:60Z"), http, "2016-12-31T23:59:59Z"),
            (Some("2024-05-06T07:08:60Z"), http, "1994-11-15T08:12:31Z"),
            (None, None, UNKNOWN_DATE),
        ] {
            let first = wet_bytes(date, http_date);
            assert_eq!(warc_date_of(&first), want, "{date:?} {http_date:?}");
            assert_eq!(first, wet_bytes(date, http_date));
        }
    }
}
