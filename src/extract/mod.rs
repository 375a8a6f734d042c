//! The extraction core: bytes in, [`Document`] out. Pure and synchronous:
//! no I/O, no async, no global state. Everything about files, HTTP, queues
//! and threads lives outside and calls this.
//!
//! The data's way through, one module each:
//! `charset` (choose and decode) → `scan` (count per logical line) →
//! `select` / `regions` (choose lines) → `text` (parse only those lines) →
//! `headline` → [`Document`].
//!
//! Feed a page at once with [`Extractor::extract`], or in chunks of any size
//! with [`Extractor::stream`]: both give the same document.

pub(crate) mod blocks;
pub mod charset;
mod copies;
pub mod document;
pub mod error;
pub mod explain;
pub mod fingerprint;
pub mod headline;
pub mod language;
pub mod links;
pub mod meta;
pub mod options;
pub mod regions;
pub mod scan;
pub mod select;
pub mod signals;
pub mod structure;
pub mod tags;
pub mod text;
pub(crate) mod text_count;

pub use document::{Document, Timings};
pub use error::ExtractError;
pub use options::{Algorithm, HeadlineMethod, LinkFilter, Options};
pub use structure::Block;

use charset::{Choice, StreamDecoder, Window};
use headline::StopWords;
use scan::{Scan, ScanLimits, Scanner};
use std::sync::Arc;
use std::time::Instant;

/// Lines above the headline and into the content where bylines and
/// dates are looked for (see `Extractor::metadata`).
const META_BEFORE: usize = 30;
const META_AFTER: usize = 60;
/// Lines from the content's last line down where a date below the
/// article is looked for, when the page dates nothing else.
const META_TAIL: usize = 80;

/// What the caller knows about a page besides its bytes.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Hints {
    pub url: Option<String>,
    /// Charset declared outside the page (HTTP `Content-Type`): it
    /// outranks the page's own `<meta>`.
    pub charset: Option<String>,
    /// Charset to assume when the page declares none (no BOM, no
    /// `charset`, no `<meta>`), instead of detecting one.
    pub fallback_charset: Option<String>,
}

/// A configured extractor. Cheap to share between threads (`&Extractor`).
#[derive(Debug, Clone)]
pub struct Extractor {
    options: Options,
    stop: StopWords,
    /// Built once per extractor (an index of whatlang's profiles) and
    /// shared by its clones.
    language: Arc<language::Detector>,
}

/// Languages whose stop words TitleFinder removes (union: titles and
/// headlines are short, and the union is harmless across languages).
const STOP_LANGUAGES: &[&str] = &["en", "de", "fr", "es", "it", "nl", "pt"];

impl Extractor {
    /// An extractor with these options (`max_bytes` taken as at most
    /// [`options::MAX_PAGE_BYTES`]).
    pub fn new(mut options: Options) -> Self {
        options.max_bytes = options.max_bytes.min(options::MAX_PAGE_BYTES);
        // Room for every word up front: collected from a flat map, the set
        // grew by rehashing a dozen times (half its building).
        let lists = || STOP_LANGUAGES.iter().filter_map(|l| stop_words::lookup(l));
        let mut stop = StopWords::with_capacity_and_hasher(
            lists().map(<[&str]>::len).sum(),
            Default::default(),
        );
        stop.extend(lists().flat_map(|words| words.iter().copied()));
        Extractor {
            options,
            stop,
            language: Arc::new(language::Detector::new()),
        }
    }

    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Extracts a whole page held in memory.
    ///
    /// The encoding is chosen once, on the same prefix the streaming path
    /// would sniff. A page whose bytes already are its text (UTF-8, or all
    /// ASCII in an encoding that maps ASCII to itself) is then scanned
    /// where it lies, with no decoding copy: decoding it would give the
    /// same text, so the document is the same. Any other page is decoded
    /// as it would be streamed, with that choice.
    pub fn extract(&self, bytes: &[u8], hints: &Hints) -> Result<Document, ExtractError> {
        let started = Instant::now();
        let limit = self.options.max_bytes;
        if bytes.len() > limit {
            return Err(ExtractError::TooLarge { limit });
        }
        let (choice, _) = Sniff::default().decide_whole(bytes, hints)?;
        let Some(text) = text_in_place(&bytes[choice.bom_len..], choice) else {
            let mut page = self.stream(hints.clone());
            page.size_hint = bytes.len();
            page.chosen = Some(choice);
            page.feed(bytes)?;
            return page.finish();
        };
        let scan = Scanner::borrowed(self.scan_limits(), text).finish();
        let limit = self.options.max_lines;
        if scan.lines.len() > limit {
            return Err(ExtractError::TooManyLines { limit });
        }
        let scan_seconds = started.elapsed().as_secs_f64();
        let mut doc = self.build(&scan, hints, choice);
        doc.bytes = bytes.len() as u64;
        if let Some(t) = &mut doc.timings {
            t.scan = scan_seconds;
        }
        Ok(doc)
    }

    /// Starts a page that arrives in chunks.
    pub fn stream(&self, hints: Hints) -> PageStream<'_> {
        PageStream {
            extractor: self,
            hints,
            sniff: Vec::new(),
            sniffed: Sniff::default(),
            decoder: None,
            scanner: Scanner::new(self.scan_limits()),
            chosen: None,
            bytes: 0,
            size_hint: 0,
            scan_seconds: 0.0,
            failed: None,
        }
    }

    fn scan_limits(&self) -> ScanLimits {
        ScanLimits {
            wrap: self.options.wrap,
            max_lines: self.options.max_lines,
            links: self.options.links,
            ..ScanLimits::default()
        }
    }
}

/// One page being fed to the core.
#[derive(Debug)]
pub struct PageStream<'e> {
    extractor: &'e Extractor,
    hints: Hints,
    /// The first bytes, kept aside until they settle the encoding.
    sniff: Vec<u8>,
    sniffed: Sniff,
    decoder: Option<(Choice, StreamDecoder)>,
    scanner: Scanner<'static>,
    /// The encoding, when `Extractor::extract` has chosen it already (on
    /// the same bytes `Sniff::decide` would look at).
    chosen: Option<Choice>,
    bytes: u64,
    /// The page's whole size when known up front (`Extractor::extract`):
    /// the buffers are then sized once, when the encoding is chosen.
    size_hint: usize,
    scan_seconds: f64,
    /// Set when a limit was hit: the buffers are gone and every later call
    /// returns this error.
    failed: Option<ExtractError>,
}

impl PageStream<'_> {
    /// Feeds the next chunk of the page (any size, including empty).
    ///
    /// Over a limit (`max_bytes`, `max_lines`) this returns the limit's
    /// error, frees what the page held and keeps failing cheaply: a caller
    /// that goes on feeding (or calls `finish`) gets the same error and no
    /// more memory is used.
    pub fn feed(&mut self, chunk: &[u8]) -> Result<(), ExtractError> {
        if let Some(e) = &self.failed {
            return Err(e.clone());
        }
        let started = Instant::now();
        self.bytes += chunk.len() as u64;
        let limit = self.extractor.options.max_bytes;
        if self.bytes > limit as u64 {
            return Err(self.fail(ExtractError::TooLarge { limit }));
        }
        // Any error (a binary page) fails the stream for good: fed on, it
        // would sniff the bytes after the refused ones as a new page.
        if let Err(e) = self.push(chunk) {
            return Err(self.fail(e));
        }
        let limit = self.extractor.options.max_lines;
        if self.scanner.line_count() > limit {
            return Err(self.fail(ExtractError::TooManyLines { limit }));
        }
        self.scan_seconds += started.elapsed().as_secs_f64();
        Ok(())
    }

    /// Drops the page's buffers and remembers why.
    fn fail(&mut self, error: ExtractError) -> ExtractError {
        self.scanner = Scanner::new(self.extractor.scan_limits());
        self.sniff = Vec::new();
        self.sniffed = Sniff::default();
        self.decoder = None;
        self.failed = Some(error.clone());
        error
    }

    fn push(&mut self, chunk: &[u8]) -> Result<(), ExtractError> {
        if let Some((_, decoder)) = &mut self.decoder {
            self.scanner
                .push_with(|src| decoder.decode_into(chunk, false, src));
            return Ok(());
        }
        if let Some(choice) = self.chosen.take() {
            self.decoder = Some(self.start_decoding(chunk, choice, &[]));
            return Ok(());
        }
        if self.sniff.is_empty() {
            // A chunk that settles the encoding alone is read where it lies.
            match self.sniffed.decide(chunk, false, &self.hints)? {
                Some((choice, n)) => {
                    self.decoder = Some(self.start_decoding(&chunk[..n], choice, &chunk[n..]));
                }
                None => self.sniff.extend_from_slice(chunk),
            }
            return Ok(());
        }
        self.sniff.extend_from_slice(chunk);
        if let Some((choice, n)) = self.sniffed.decide(&self.sniff, false, &self.hints)? {
            let sniff = std::mem::take(&mut self.sniff);
            self.decoder = Some(self.start_decoding(&sniff[..n], choice, &sniff[n..]));
        }
        Ok(())
    }

    /// Starts decoding with `choice`: `prefix`, the bytes it was made on
    /// (with the BOM it found), then `rest`.
    fn start_decoding(
        &mut self,
        prefix: &[u8],
        choice: Choice,
        rest: &[u8],
    ) -> (Choice, StreamDecoder) {
        let mut decoder = StreamDecoder::new(choice);
        if self.size_hint > 0 {
            self.scanner
                .reserve(decoder.max_text_len(self.size_hint), self.size_hint);
        }
        let body = prefix.get(choice.bom_len..).unwrap_or_default();
        self.scanner.push_with(|src| {
            decoder.decode_into(body, false, src);
            decoder.decode_into(rest, false, src);
        });
        (choice, decoder)
    }

    /// Ends the page and runs selection, text and headline.
    pub fn finish(mut self) -> Result<Document, ExtractError> {
        if let Some(e) = self.failed {
            return Err(e);
        }
        let started = Instant::now();
        let (choice, mut decoder) = match self.decoder.take() {
            Some(started) => started,
            None => {
                let sniff = std::mem::take(&mut self.sniff);
                let (choice, n) = match self.chosen.take() {
                    Some(choice) => (choice, sniff.len()),
                    None => self.sniffed.decide_whole(&sniff, &self.hints)?,
                };
                self.start_decoding(&sniff[..n], choice, &sniff[n..])
            }
        };
        self.scanner
            .push_with(|src| decoder.decode_into(b"", true, src));
        let scan = self.scanner.finish();
        let limit = self.extractor.options.max_lines;
        if scan.lines.len() > limit {
            return Err(ExtractError::TooManyLines { limit });
        }
        self.scan_seconds += started.elapsed().as_secs_f64();
        let ex = self.extractor;
        let mut doc = ex.build(&scan, &self.hints, choice);
        doc.bytes = self.bytes;
        if let Some(t) = &mut doc.timings {
            t.scan = self.scan_seconds;
        }
        Ok(doc)
    }
}

/// Where a page's first bytes stand in choosing its encoding, between the
/// calls of a stream that brings them in pieces.
#[derive(Debug, Default)]
struct Sniff {
    /// The choice on the first [`charset::SNIFF_BYTES`], when it waits for
    /// the bytes that are not ASCII (see [`charset::waits_for_non_ascii`]).
    waiting: Option<Choice>,
    /// How many leading bytes are known to be ASCII.
    ascii: usize,
}

impl Sniff {
    /// The encoding, once the page's first `bytes` say enough (`last`: they
    /// are all of it), and how many of them it was chosen on. The first
    /// [`charset::SNIFF_BYTES`] decide, or, where they leave it to the
    /// bytes that are not ASCII, the [`charset::SNIFF_BYTES`] from the first
    /// of those (if it comes within [`charset::ASCII_WAIT`]); ASCII reads
    /// alike in any encoding that can be chosen then. `None` while more
    /// bytes are needed.
    fn decide(
        &mut self,
        bytes: &[u8],
        last: bool,
        hints: &Hints,
    ) -> Result<Option<(Choice, usize)>, ExtractError> {
        let choice = match self.waiting {
            Some(choice) => choice,
            None => {
                let head = &bytes[..bytes.len().min(charset::SNIFF_BYTES)];
                if head.len() < charset::SNIFF_BYTES && !last {
                    return Ok(None);
                }
                let choice = choose_encoding(head, hints)?;
                if !charset::waits_for_non_ascii(head, choice) {
                    return Ok(Some((choice, head.len())));
                }
                self.waiting = Some(choice);
                choice
            }
        };
        match charset::non_ascii_window(bytes, &mut self.ascii, last) {
            Window::Ends { first, end } => Ok(Some((
                charset::choose_past_ascii(choice, bytes, first, end, hints.url.as_deref()),
                end,
            ))),
            Window::Ascii => Ok(Some((choice, self.ascii))),
            Window::More => Ok(None),
        }
    }

    /// [`Sniff::decide`] on a whole page (which always decides).
    fn decide_whole(
        &mut self,
        bytes: &[u8],
        hints: &Hints,
    ) -> Result<(Choice, usize), ExtractError> {
        match self.decide(bytes, true, hints)? {
            Some(decided) => Ok(decided),
            None => Ok((choose_encoding(bytes, hints)?, bytes.len())),
        }
    }
}

/// Refuses binary input, then chooses the encoding from the sniffed prefix.
fn choose_encoding(prefix: &[u8], hints: &Hints) -> Result<Choice, ExtractError> {
    if encoding_rs::Encoding::for_bom(prefix).is_none() {
        check_not_binary(prefix)?;
    }
    Ok(charset::choose(
        prefix,
        hints.charset.as_deref(),
        hints.fallback_charset.as_deref(),
        hints.url.as_deref(),
    ))
}

/// `body` as the text decoding it with `choice` would give, when that is
/// the bytes themselves: UTF-8, or ASCII in an ASCII-compatible encoding.
fn text_in_place(body: &[u8], choice: Choice) -> Option<&str> {
    if choice.encoding == encoding_rs::UTF_8 {
        return simdutf8::basic::from_utf8(body).ok();
    }
    if !choice.encoding.is_ascii_compatible() || !body.is_ascii() {
        return None;
    }
    std::str::from_utf8(body).ok()
}

/// Refuses input whose first bytes are mostly NUL and control bytes.
fn check_not_binary(prefix: &[u8]) -> Result<(), ExtractError> {
    let sniffed = prefix.len().min(1024);
    let control = control_bytes(&prefix[..sniffed]);
    if sniffed >= 16 && control * 10 > sniffed {
        return Err(ExtractError::Binary { control, sniffed });
    }
    Ok(())
}

/// How many bytes of `head` are NUL or control bytes other than the
/// whitespace and ESC that text holds. Sixteen at a time: every page is
/// checked, and a filter over its first 1,024 bytes one by one cost 0.4 %
/// of the core's instructions.
fn control_bytes(head: &[u8]) -> usize {
    let mut control = 0;
    for at in (0..head.len()).step_by(16) {
        let block = blocks::Block::at(head, at);
        let low = block.at_most(0x1f) & block.present;
        if low == 0 {
            continue;
        }
        let text =
            block.eq(b'\t') | block.eq(b'\n') | block.eq(b'\r') | block.eq(0x0c) | block.eq(0x1b);
        control += text_count::marked(low & !text) as usize;
    }
    control
}

impl Extractor {
    /// Selection, text, headline and the document's fields.
    fn build(&self, scan: &Scan, hints: &Hints, choice: Choice) -> Document {
        let o = &self.options;
        let t0 = Instant::now();
        let mut sel = select::select(&scan.lines, &scan.elements, o);
        let t1 = Instant::now();
        // The headline sits before the seed region (the article's core);
        // the first chosen region may start much earlier on landing pages.
        let (found, anchor) = self.headline(scan, &sel);
        if let (Algorithm::Linesift, Some(line)) = (o.algorithm, anchor) {
            select::extend_to_headline(&mut sel, &scan.lines, line);
        }
        if o.algorithm == Algorithm::Linesift {
            select::cut_at_noise_heading(&mut sel, &scan.lines, &scan.src);
            select::cut_trailing_teasers(&mut sel, &scan.lines, &scan.elements, &scan.src);
            select::drop_small_forms(&mut sel, &scan.lines, &scan.elements);
            select::drop_marked_lines(&mut sel, &scan.lines, &scan.src);
            select::end_with_the_body(&mut sel, &scan.lines, &scan.elements, anchor);
            select::drop_trailing_headings(&mut sel, &scan.lines);
            select::drop_far_scraps(&mut sel, &scan.lines);
            select::keep_headings_between(&mut sel, &scan.lines, &scan.src);
            if let Some(line) = anchor {
                let titled = || {
                    found
                        .as_ref()
                        .is_some_and(|h| headline::line_reads_as(scan, line, &h.text))
                };
                select::start_at_the_headline(&mut sel, &scan.lines, &scan.elements, line, titled);
            }
        }
        let t2 = Instant::now();
        let anchors = if o.algorithm == Algorithm::Danag || o.filter != LinkFilter::Drop {
            text::Anchors::Keep
        } else {
            text::Anchors::Drop
        };
        // Room for the text up front (it is about half the selected HTML)
        // rather than growing it by copies.
        let selected: usize = sel.ranges.iter().map(|(start, end)| end - start).sum();
        let mut text = String::with_capacity((selected / 2).min(o.max_text));
        let mut blocks = Vec::new();
        if o.blocks || o.markdown {
            blocks = self.text_and_blocks(scan, &sel, anchors, &mut text);
        } else {
            text::render(&scan.src, &sel.ranges, anchors, &mut text);
            if o.algorithm == Algorithm::R2l {
                text = text::non_ascii_only(&text);
            }
            let dropped =
                dropped_paragraphs(o, &text, copies::Copies::new(scan, &sel.regions, anchors));
            if !dropped.is_empty() {
                text::cut_lines(&mut text, &dropped);
            }
        }
        text::nfc::to_nfc(&mut text);
        let text_truncated = text.len() > o.max_text;
        if text_truncated {
            text.truncate(floor_boundary(&text, o.max_text));
            text.shrink_to_fit();
        }
        let t25 = Instant::now();
        let base = (o.metadata || o.links)
            .then(|| links::page_base(&scan.src, &scan.info.links, hints.url.as_deref()))
            .flatten();
        let mut metadata = match o.metadata {
            true => self.metadata(scan, &sel, anchor, hints, base.as_ref()),
            false => meta::Metadata::default(),
        };
        let links = o.links.then(|| {
            let found = links::collect(
                &scan.src,
                &scan.info.links,
                &scan.info.meta,
                &sel.ranges,
                base.as_ref(),
            );
            // Without metadata, the links give the canonical URL.
            if !o.metadata {
                metadata.canonical = found.canonical;
            }
            found.links
        });
        let t26 = Instant::now();
        let mut title = headline::clean(&scan.info.title);
        text::nfc::to_nfc(&mut title);
        let language = self.language.language(&text, &scan.info.lang);
        let t3 = Instant::now();
        // One pass over the lines, cold again by now, for both sums.
        let (mut content_chars, mut code_chars) = (0u64, 0u64);
        for l in &scan.lines {
            content_chars += u64::from(l.text);
            code_chars += u64::from(l.code);
        }
        Document {
            url: hints.url.clone(),
            headline: found
                .as_ref()
                .map(|h| {
                    let mut text = h.text.clone();
                    text::nfc::to_nfc(&mut text);
                    text
                })
                .filter(|h| !h.is_empty()),
            headline_line: found.and_then(|h| h.line),
            title: Some(title).filter(|t| !t.is_empty()),
            digest: document::digest(&text),
            simhash: match o.simhash {
                true => format!("{:016x}", fingerprint::simhash(&text)),
                false => String::new(),
            },
            minhash: match o.minhash {
                0 => Vec::new(),
                n => fingerprint::minhash(&text, usize::from(n)),
            },
            links,
            markdown: match o.markdown {
                true => Some(structure::markdown(&blocks)),
                false => None,
            },
            blocks: match o.blocks {
                true => blocks,
                false => Vec::new(),
            },
            text,
            text_truncated,
            encoding: choice.encoding.name().to_string(),
            encoding_source: Document::source_name(choice.source),
            language,
            bytes: 0,
            lines_total: scan.lines.len() as u32,
            lines_selected: sel.lines,
            content_chars,
            code_chars,
            regions: sel.regions,
            algorithm: o.algorithm.to_string(),
            timings: o.timings.then(|| Timings {
                scan: 0.0,
                select: (t1 - t0).as_secs_f64(),
                text: (t25 - t2).as_secs_f64(),
                headline: ((t2 - t1) + (t3 - t26)).as_secs_f64(),
                meta: (t26 - t25).as_secs_f64(),
            }),
            meta: metadata,
        }
    }
}

/// The paragraphs of the rendered text that `linesift` drops, as byte
/// ranges of its lines in order: picture credits, and the repeats of the
/// page's content unless `keep_repeats` (not those whose copies sit in one
/// element, as `copies` tells).
fn dropped_paragraphs(
    o: &Options,
    text: &str,
    mut copies: copies::Copies<'_>,
) -> Vec<std::ops::Range<usize>> {
    if o.algorithm != Algorithm::Linesift {
        return Vec::new();
    }
    let mut dropped = text::credits::credit_lines(text);
    if !o.keep_repeats {
        let repeats = text::repeats::repeated_paragraphs(text, |p| copies.in_one_element(p));
        if !repeats.is_empty() {
            dropped.extend(repeats);
            dropped.sort_unstable_by_key(|r| r.start);
            dropped.dedup();
        }
    }
    dropped
}

impl Extractor {
    /// The text as `build` renders it and its blocks, from one pass over
    /// the selected lines: the same paragraphs dropped (by their lines), the
    /// same R2L filter, each block's text in NFC, and no block past
    /// `max_text` bytes of text.
    fn text_and_blocks(
        &self,
        scan: &Scan,
        sel: &select::Selection,
        anchors: text::Anchors,
        out: &mut String,
    ) -> Vec<Block> {
        let o = &self.options;
        let mut builder = text::structure::Builder::default();
        text::render_structured(&scan.src, &sel.ranges, anchors, out, &mut builder);
        let dropped = dropped_paragraphs(o, out, copies::Copies::new(scan, &sel.regions, anchors));
        let mut blocks = builder.blocks(out, &dropped);
        if !dropped.is_empty() {
            text::cut_lines(out, &dropped);
        }
        if o.algorithm == Algorithm::R2l {
            *out = text::non_ascii_only(out);
        }
        let mut size = 0;
        blocks.retain_mut(|block| {
            let quote = matches!(block, Block::Quote { .. });
            for t in block.texts_mut() {
                if o.algorithm == Algorithm::R2l {
                    *t = match quote {
                        // Its paragraphs stay apart by an empty line,
                        // which the filter would drop.
                        true => t
                            .split("\n\n")
                            .map(text::non_ascii_only)
                            .filter(|p| !p.is_empty())
                            .collect::<Vec<_>>()
                            .join("\n\n"),
                        false => text::non_ascii_only(t),
                    };
                }
                text::nfc::to_nfc(t);
                size += t.len();
            }
            size <= o.max_text && !block.texts_mut().iter().all(|t| t.is_empty())
        });
        blocks
    }
}

fn floor_boundary(s: &str, i: usize) -> usize {
    let mut i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

impl Extractor {
    /// The page's metadata, its byline and dates looked for from
    /// [`META_BEFORE`] lines above the headline (or the content's start,
    /// whichever is first) to [`META_AFTER`] lines into the content.
    fn metadata(
        &self,
        scan: &Scan,
        sel: &select::Selection,
        anchor: Option<u32>,
        hints: &Hints,
        base: Option<&url::Url>,
    ) -> meta::Metadata {
        let first = sel.regions.first().map(|r| r.first);
        let top = match (anchor, first) {
            (Some(a), Some(f)) => a.min(f),
            (a, f) => a.or(f).unwrap_or(0),
        };
        let content = first.unwrap_or(top).max(top) as usize;
        let from = (top as usize).saturating_sub(META_BEFORE);
        let span = |from: usize, to: usize| {
            let to = to.min(scan.lines.len().saturating_sub(1));
            match (scan.lines.get(from), scan.lines.get(to)) {
                (Some(a), Some(b)) => (a.start as usize, b.end as usize),
                _ => (0, 0),
            }
        };
        let last = sel.regions.last().map_or(content, |r| r.last as usize);
        let windows = meta::Windows {
            head: span(from, content + META_AFTER),
            tail: span(last, last + META_TAIL),
        };
        meta::collect(
            &scan.src,
            &scan.info.meta,
            windows,
            hints.url.as_deref(),
            base,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// The block-wise count is the byte-by-byte definition, at every
        /// length (the last block is padded) and for every byte value.
        #[test]
        fn control_bytes_are_counted_as_one_by_one(
            head in proptest::collection::vec(prop_oneof![0u8..0x21, any::<u8>()], 0..80),
        ) {
            let one_by_one = head
                .iter()
                .filter(|&&b| b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | 0x0c | 0x1b))
                .count();
            prop_assert_eq!(control_bytes(&head), one_by_one);
        }
    }

    /// A stream refused as binary stays refused: fed on, it used to sniff
    /// the bytes after the refused ones as a page of their own and give a
    /// Document of the tail.
    #[test]
    fn a_binary_stream_stays_refused() {
        let ex = Extractor::new(Options::default());
        let mut page = ex.stream(Hints::default());
        let binary = matches!(page.feed(&[1u8; 16384]), Err(ExtractError::Binary { .. }));
        assert!(binary);
        assert!(
            page.feed(b"<p>hello world, a page after the refused bytes</p>")
                .is_err()
        );
        assert!(page.finish().is_err());
    }

    /// A page limit past what 32-bit offsets of the decoded text hold is
    /// taken as the largest that fits.
    #[test]
    fn the_page_limit_is_capped_where_offsets_fit() {
        let ex = Extractor::new(Options {
            max_bytes: usize::MAX,
            ..Options::default()
        });
        assert_eq!(ex.options().max_bytes, options::MAX_PAGE_BYTES);
        assert!(options::MAX_PAGE_BYTES * 3 <= u32::MAX as usize);
    }

    /// A menu of `n` linked items, as WordPress writes one.
    fn menu(n: usize, path: &str, label: &str) -> String {
        (1..=n)
            .map(|i| {
                format!(
                    "<li class=\"menu-item menu-item-type-taxonomy menu-item-object-category\">\
                     <a href=\"{path}/{i}\">{label} {i}</a></li>\n"
                )
            })
            .collect()
    }

    /// A shop page: og:title and the title name the product, the only
    /// heading is a call to action above a gallery, a short intro sits
    /// under it and the description far below, past a long list of links.
    fn shop_page(og: &str) -> String {
        let links = menu(60, "/c", "Aisle");
        let gallery = "<div class=\"gallery-slide js-zoom\"><img src=\"/media/shots/harbor-1.jpg\" \
                       alt=\"\" loading=\"lazy\" width=\"640\" height=\"360\"></div>\n";
        let para = "<p>The harbor lights flicker over the water as the ferry comes in, \
                    and every keeper on the coast has a story about the night the \
                    lamps went dark and the boats found their way home anyway.</p>\n";
        format!(
            "<html><head><title>Harbor Lights on Steam</title>\n\
             <meta property=\"og:title\" content=\"{og}\"></head><body>\n\
             <h2>Buy Harbor Lights</h2>\n{}\
             <p>A quiet puzzle game about lighthouses, tides and the people who keep them, \
             set on a coast where every light has a keeper and every keeper a logbook.</p>\n\
             <ul>\n{links}</ul>\n{}</body></html>",
            gallery.repeat(3),
            para.repeat(8)
        )
    }

    fn extract(html: &str, headline: HeadlineMethod) -> Document {
        let options = Options {
            headline,
            ..Options::default()
        };
        Extractor::new(options)
            .extract(html.as_bytes(), &Hints::default())
            .expect("extracts")
    }

    /// A story carried twice (a variant hidden by script, which the scanner
    /// cannot see) is extracted once; `keep_repeats` keeps both copies,
    /// and short lines that repeat ("Reply") stay either way.
    #[test]
    fn a_story_carried_twice_is_extracted_once() {
        let story = "<p>The keepers met on the pier at dawn and agreed, after a long and \
                     patient debate, to light the old lamp again this winter.</p>\n\
                     <p>Reply</p>\n\
                     <p>The council will pay for the oil, and the school will keep the \
                     logbook that every keeper since 1870 has written in.</p>\n<p>Reply</p>\n";
        let html = format!(
            "<html><head><title>Keepers vote</title></head><body>\n\
             <div class=\"copy variant-a\">\n{story}</div>\n\
             <div class=\"copy variant-b\">\n{story}</div>\n</body></html>"
        );
        let count = |doc: &Document, needle: &str| doc.text.matches(needle).count();
        let doc = extract(&html, HeadlineMethod::Auto);
        assert_eq!(count(&doc, "light the old lamp"), 1, "{}", doc.text);
        assert_eq!(count(&doc, "every keeper since 1870"), 1, "{}", doc.text);
        assert_eq!(count(&doc, "Reply"), 4, "{}", doc.text);
        let keep = Extractor::new(Options {
            keep_repeats: true,
            ..Options::default()
        })
        .extract(html.as_bytes(), &Hints::default())
        .expect("extracts");
        assert_eq!(count(&keep, "light the old lamp"), 2, "{}", keep.text);
    }

    /// A story printed twice in one element (one column holding both
    /// copies, as the page shows them) is extracted twice: only a copy in
    /// an element of its own is taken for a variant.
    #[test]
    fn a_story_printed_twice_in_one_element_is_extracted_twice() {
        let story = "<p>The keepers met on the pier at dawn and agreed, after a long and \
                     patient debate, to light the old lamp again this winter.</p>\n\
                     <p>The council will pay for the oil, and the school will keep the \
                     logbook that every keeper since 1870 has written in.</p>\n";
        let html = format!(
            "<html><head><title>Keepers vote</title></head><body>\n\
             <div class=\"story\">\n{story}{story}</div>\n</body></html>"
        );
        let doc = extract(&html, HeadlineMethod::Auto);
        assert_eq!(
            doc.text.matches("light the old lamp").count(),
            2,
            "{}",
            doc.text
        );
        assert_eq!(
            doc.text.matches("every keeper since 1870").count(),
            2,
            "{}",
            doc.text
        );
    }

    /// A story of twenty paragraphs, more than a page is asked about one
    /// at a time, is kept twice printed twice in one element, and once
    /// carried in two variants.
    #[test]
    fn a_long_story_twice_is_kept_twice_in_one_element_and_once_in_two() {
        let story: String = (1..=20)
            .map(|i| {
                format!(
                    "<p>Paragraph {i} of the keepers' story, long enough to count as a \
                     paragraph that the repeat filter weighs.</p>\n"
                )
            })
            .collect();
        let page = |body: String| {
            format!("<html><head><title>Keepers</title></head><body>\n{body}</body></html>")
        };
        let one = page(format!("<div class=\"story\">\n{story}{story}</div>\n"));
        let two = page(format!(
            "<div class=\"a\">\n{story}</div>\n<div class=\"b\">\n{story}</div>\n"
        ));
        let count = |html: &str| {
            let doc = extract(html, HeadlineMethod::Auto);
            (1..=20)
                .map(|i| doc.text.matches(&format!("Paragraph {i} of")).count())
                .collect::<Vec<_>>()
        };
        assert_eq!(count(&one), vec![2; 20]);
        assert_eq!(count(&two), vec![1; 20]);
    }

    /// A recipe page repeating one step word for word keeps every step:
    /// the repeat sits among other steps, near its first time.
    #[test]
    fn a_step_a_recipe_repeats_is_extracted_each_time() {
        let stir = "Stir the sauce gently over a low heat until it coats the back of a spoon.";
        let html = format!(
            "<html><head><title>Harbor chowder</title></head><body>\n\
             <nav><a href=\"/\">Home</a> <a href=\"/recipes\">Recipes</a></nav>\n\
             <article><h1>Harbor chowder</h1>\n<ol>\n\
             <li><p>Melt the butter in a wide pan and add the onions with a pinch of salt.</p></li>\n\
             <li><p>{stir}</p></li>\n\
             <li><p>Pour in the stock a ladle at a time, letting each one simmer away first.</p></li>\n\
             <li><p>{stir}</p></li>\n\
             <li><p>Add the fish and the clams, cover, and cook for six minutes without stirring.</p></li>\n\
             <li><p>Serve at once in warm bowls, with bread on the side and lemon to squeeze.</p></li>\n\
             </ol></article>\n</body></html>"
        );
        let doc = extract(&html, HeadlineMethod::Auto);
        assert_eq!(doc.text.matches(stir).count(), 2, "{}", doc.text);
        assert!(doc.text.contains("Serve at once"), "{}", doc.text);
    }

    /// A page that says Shift_JIS but is UTF-8 reads as UTF-8, its ruby
    /// annotations (readings set above the words) stay out of the text,
    /// and a decomposed accent comes out composed (NFC).
    #[test]
    fn a_japanese_page_mislabelled_shift_jis_reads_as_its_text() {
        let para = "<p>東京の<ruby>港<rp>(</rp><rt>みなと</rt><rp>)</rp></ruby>では、\
                    灯台守が毎晩<ruby>灯<rt>あか</rt></ruby>りをともし、船の安全を守っています。\
                    Cafe\u{301}の店主もその光を見ています。</p>\n";
        let html = format!(
            "<html><head><meta charset=\"shift_jis\"><title>港の灯台</title></head><body>\n\
             <article><h1>港の灯台</h1>\n{para}</article></body></html>"
        );
        let doc = extract(&html, HeadlineMethod::Auto);
        assert_eq!(doc.encoding, "UTF-8");
        assert!(
            doc.text.contains("東京の港では、灯台守が毎晩灯りをともし"),
            "{}",
            doc.text
        );
        assert!(
            !doc.text.contains("みなと") && !doc.text.contains('('),
            "{}",
            doc.text
        );
        assert!(doc.text.contains("Café"), "{}", doc.text);
        assert!(!doc.text.contains('\u{301}'), "{}", doc.text);
    }

    /// The headline keeps the page's apostrophe (’), though the title
    /// it is matched against sets an ASCII one.
    #[test]
    fn the_headline_keeps_the_pages_typographic_apostrophe() {
        let html = "<html><head><title>The keeper's last light | Harbor Times</title></head>\
                    <body>\n<article><h1>The keeper\u{2019}s last light</h1>\n\
                    <p>The keepers met on the pier at dawn and agreed, after a long and patient \
                    debate, to light the old lamp again this winter, as their fathers did.</p>\n\
                    <p>The council will pay for the oil, and the school will keep the logbook \
                    that every keeper since 1870 has written in.</p>\n</article></body></html>";
        let doc = extract(html, HeadlineMethod::Auto);
        assert_eq!(
            doc.headline.as_deref(),
            Some("The keeper\u{2019}s last light")
        );
    }

    /// Customers' reviews below a product's description (a shop's review
    /// widget, `product-reviews`, each review a `product-review`) are left
    /// out like comments: without the `reviews` mark their text, longer
    /// than the description, would be taken with it.
    #[test]
    fn customers_reviews_below_a_product_are_left_out() {
        let description = "<p>The Harbor lamp is a brass storm lantern with a glass chimney, \
                           a wick that burns for twelve hours and a handle that folds flat, \
                           made by hand in the same workshop since 1870.</p>\n";
        let review = |i: usize| {
            format!(
                "<article class=\"product-review\"><div class=\"product-review__byline\">by \
                 Reader {i} on May {i}, 2024</div>\n<section class=\"product-review__body\">\
                 <p>I bought this lantern for our cabin and it has been lovely on every \
                 evening so far, bright enough to read by and easy to refill.</p>\n</section>\
                 </article>\n"
            )
        };
        let reviews: String = (1..=6).map(review).collect();
        let html = format!(
            "<html><head><title>Harbor lamp</title></head><body>\n<ul>\n{}</ul>\n\
             <h1>Harbor lamp</h1>\n<div class=\"product-description\">\n{}</div>\n\
             <section class=\"product-reviews\"><h2>Reviews</h2>\n\
             <div class=\"product-reviews__list\">\n{reviews}</div></section>\n</body></html>",
            menu(12, "/shop", "Shop"),
            description.repeat(3)
        );
        let doc = extract(&html, HeadlineMethod::Auto);
        assert!(doc.text.contains("brass storm lantern"), "{}", doc.text);
        assert!(!doc.text.contains("lantern for our cabin"), "{}", doc.text);
    }

    /// A newsletter form just under the story joins it by the gap; its
    /// text goes, the story's stays. A form wrapping the whole story (as
    /// ASP.NET pages have it) is no small form, and a short notice inside
    /// a form that holds the seed is the page's content.
    #[test]
    fn small_forms_near_the_story_are_dropped() {
        let story = "<p>The keepers met on the pier at dawn and agreed, after a long and \
                     patient debate, to light the old lamp again this winter.</p>\n";
        let form = "<form action=\"/subscribe\" method=\"post\">\n\
                    <p>Get the harbor letter every Friday, with the tides, the ferry \
                    times and the keepers' news, straight to your inbox.</p>\n\
                    <p><label for=\"mail\">Your email address</label> \
                    <input id=\"mail\" name=\"mail\"></p>\n</form>\n";
        let page = |body: String| {
            format!(
                "<html><head><title>Keepers vote</title></head><body>\n<ul>\n{}</ul>\n\
                 {body}<ul>\n{}</ul>\n</body></html>",
                menu(12, "/s", "Desk"),
                menu(12, "/t", "Tag")
            )
        };
        let doc = extract(
            &page(format!(
                "<div class=\"story\">\n{}</div>\n{form}",
                story.repeat(8)
            )),
            HeadlineMethod::Auto,
        );
        assert!(doc.text.contains("light the old lamp"), "{}", doc.text);
        assert!(!doc.text.contains("harbor letter"), "{}", doc.text);
        assert!(!doc.text.contains("email address"), "{}", doc.text);
        // The whole story in one form: well over the small form's text.
        let doc = extract(
            &page(format!(
                "<form id=\"aspnetForm\">\n{}</form>\n",
                story.repeat(12)
            )),
            HeadlineMethod::Auto,
        );
        assert!(doc.text.contains("light the old lamp"), "{}", doc.text);
        // A short story inside a form: the seed is in it.
        let doc = extract(
            &page(format!(
                "<form id=\"aspnetForm\">\n{}</form>\n",
                story.repeat(2)
            )),
            HeadlineMethod::Auto,
        );
        assert!(doc.text.contains("light the old lamp"), "{}", doc.text);
    }

    /// Text a `style` hides (a sign-up form shown by a script, an
    /// email's preview text) does not win the seed over a shorter story
    /// the reader sees; without the style the hidden text would be chosen.
    #[test]
    fn hidden_text_does_not_outweigh_the_visible_story() {
        let offer = "<p>Join our list today and be the very first to hear about every new \
                     issue, every event on the pier and every special offer from the shop, \
                     delivered to your inbox each and every week of the year for free.</p>\n";
        let story = "<p>The keepers met on the pier at dawn and agreed, after a long and \
                     patient debate, to light the old lamp again this winter.</p>\n";
        let page = |style: &str| {
            format!(
                "<html><head><title>Keepers vote</title></head><body>\n\
                 <div class=\"box\"{style}>\n{}</div>\n<ul>\n{}</ul>\n\
                 <div class=\"story\">\n{}</div>\n</body></html>",
                offer.repeat(4),
                menu(12, "/s", "Desk"),
                story.repeat(2)
            )
        };
        let doc = extract(&page(" style=\"display:none\""), HeadlineMethod::Auto);
        assert!(doc.text.contains("light the old lamp"), "{}", doc.text);
        assert!(!doc.text.contains("Join our list"), "{}", doc.text);
        // The same page with the form shown: its text is the longest block.
        let doc = extract(&page(""), HeadlineMethod::Auto);
        assert!(doc.text.contains("Join our list"), "{}", doc.text);
    }

    /// The story paragraph of the news-page builders below.
    const STORY_PARAGRAPH: &str = "<p>The keepers met on the pier at dawn and agreed, after a \
        long and windy argument, that the old lamps would burn again from the first night of \
        spring until the ferries stop running in the autumn.</p>\n";

    /// A news page titled with the site's name: its one `<h1>` is far
    /// above the story, past a menu, and a byline sits just before it
    /// (above the share buttons).
    fn story_page(og: &str) -> String {
        let menu = menu(40, "/s", "Desk");
        let share = "<div class=\"share-tools js-share-bar\" data-share-url=\"/s/keepers-vote\" \
                     data-share-count=\"0\"><span class=\"icon icon-share\"></span></div>\n";
        let para = STORY_PARAGRAPH;
        format!(
            "<html><head><title>Harbor Times</title>{og}</head><body>\n\
             <h1>Keepers vote to light the lamps again</h1>\n<ul>\n{menu}</ul>\n\
             <p>By Ann Reed, coast reporter</p>\n{}{}</body></html>",
            share.repeat(2),
            para.repeat(8)
        )
    }

    #[test]
    fn a_lone_h1_is_the_headline_where_the_block_found_hardly_agrees() {
        let doc = extract(&story_page(""), HeadlineMethod::Auto);
        assert_eq!(
            doc.headline.as_deref(),
            Some("Keepers vote to light the lamps again")
        );
        // Its line is the <h1>'s, at the top (the byline's is past the menu).
        assert!(doc.headline_line.is_some_and(|l| l < 10), "{doc:?}");
        // A block agreeing with the title stays.
        let agreeing = story_page("").replace("By Ann Reed", "Harbor Times staff report");
        let doc = extract(&agreeing, HeadlineMethod::Auto);
        assert_eq!(
            doc.headline.as_deref(),
            Some("Harbor Times staff report, coast reporter")
        );
        // A second <h1> and the page has no one heading to go by; the
        // byline is no headline either: the title is.
        let two = story_page("").replace("<ul>", "<h1>Desks</h1>\n<ul>");
        let doc = extract(&two, HeadlineMethod::Auto);
        assert_eq!(doc.headline.as_deref(), Some("Harbor Times"));
        // og:title naming the page comes first.
        let og = "<meta property=\"og:title\" content=\"Spring on the pier\">";
        let doc = extract(&story_page(og), HeadlineMethod::Auto);
        assert_eq!(doc.headline.as_deref(), Some("Spring on the pier"));
    }

    /// A page with `head` in its `<head>`, one `<h2>` holding `heading`,
    /// then two paragraphs of text.
    fn headed_page(head: &str, heading: &str) -> String {
        let para = STORY_PARAGRAPH;
        format!(
            "<html><head>{head}</head><body>\n<h2>{heading}</h2>\n\
             {para}{para}</body></html>"
        )
    }

    /// A shop page titled with the shop's name, og:title naming the page,
    /// and the one heading near the content a sign-up box's (its
    /// label, then a line of teaser). The headline is judged by its first
    /// line, the one it would keep: "Subscribe" is a label, not a
    /// headline, and og:title's name of the page wins.
    #[test]
    fn a_heading_is_judged_by_the_line_it_would_keep() {
        let html = headed_page(
            "<title>Outdoor Shop</title><meta property=\"og:title\" \
             content=\"Insulated Down Jackets for Women | Outdoor Shop\">",
            "Subscribe<br>Trade-in offers, repair tips, events and more.",
        );
        let doc = extract(&html, HeadlineMethod::Auto);
        assert_eq!(
            doc.headline.as_deref(),
            Some("Insulated Down Jackets for Women")
        );
    }

    /// A shop page its scripts would name: no `<title>`, an og:title, and
    /// a menu heading just before the product's text. og:title, the one
    /// name the page has, is the headline, without the shop's name.
    #[test]
    fn without_a_title_og_title_names_the_page() {
        let html = headed_page(
            "<meta property=\"og:title\" \
             content=\"Keeper EVO80 Wireless Mechanical Keyboard - Lamp Shop 7\">",
            "Browse by Category",
        );
        let doc = extract(&html, HeadlineMethod::Auto);
        assert_eq!(
            doc.headline.as_deref(),
            Some("Keeper EVO80 Wireless Mechanical Keyboard")
        );
    }

    /// A 2000s news page titled with its paper's name: the logo, a link
    /// home, repeats the title; the story's headline, in bold and no
    /// heading, agrees with nothing. The logo is not the headline.
    #[test]
    fn a_linked_logo_is_no_headline_under_a_site_title() {
        let para = STORY_PARAGRAPH;
        let menu = menu(12, "/s", "Desk");
        let html = format!(
            "<html><head><title>The Harbor Sun</title></head><body>\n\
             <div class=\"logo\"><a href=\"/\">Harbor Sun</a></div>\n<ul>\n{menu}</ul>\n\
             <p><b>Keepers vote to light the lamps again</b></p>\n{para}{para}{para}</body></html>"
        );
        let doc = extract(&html, HeadlineMethod::Auto);
        assert_eq!(
            doc.headline.as_deref(),
            Some("Keepers vote to light the lamps again")
        );
    }

    /// A 2000s news page titled with the site's name only: no heading,
    /// the story's headline in bold on the content's first line.
    fn site_titled_page(title: &str, og: &str) -> String {
        let menu = menu(40, "/s", "Desk");
        let para = STORY_PARAGRAPH;
        format!(
            "<html><head><title>{title}</title>{og}</head><body>\n<ul>\n{menu}</ul>\n\
             <p><b>Keepers vote to light the lamps again</b><br>\n{}</body></html>",
            para.repeat(8)
        )
    }

    #[test]
    fn the_contents_first_line_is_the_headline_under_a_site_name_title() {
        let doc = extract(&site_titled_page("Harbor Times", ""), HeadlineMethod::Auto);
        assert_eq!(
            doc.headline.as_deref(),
            Some("Keepers vote to light the lamps again")
        );
        // A page without a title too.
        let doc = extract(&site_titled_page("", ""), HeadlineMethod::Auto);
        assert_eq!(
            doc.headline.as_deref(),
            Some("Keepers vote to light the lamps again")
        );
        // A longer title names the page itself.
        let doc = extract(
            &site_titled_page("Lamps lit again on the harbor | Harbor Times", ""),
            HeadlineMethod::Auto,
        );
        assert_eq!(
            doc.headline.as_deref(),
            Some("Lamps lit again on the harbor")
        );
        // And so does og:title.
        let og = "<meta property=\"og:title\" content=\"Spring on the pier\">";
        let doc = extract(&site_titled_page("Harbor Times", og), HeadlineMethod::Auto);
        assert_eq!(doc.headline.as_deref(), Some("Spring on the pier"));
    }

    /// A section's link and the story's headline in one block on the
    /// content's first line: the headline is the line after the label.
    #[test]
    fn a_section_link_before_the_headline_in_its_block_is_left_out() {
        let para = STORY_PARAGRAPH.repeat(8);
        assert_eq!(
            menu_page_headline(
                "Harbor Times",
                &format!(
                    "<p><a href=\"/coast\">Coast</a><br><b>Keepers vote to light the lamps \
                     again</b><br>\n{para}"
                )
            )
            .as_deref(),
            Some("Keepers vote to light the lamps again")
        );
    }

    /// The headline of a page under `title` whose body is a menu of 40
    /// links, then `body`.
    fn menu_page_headline(title: &str, body: &str) -> Option<String> {
        let menu = menu(40, "/s", "Desk");
        let html = format!(
            "<html><head><title>{title}</title></head><body>\n<ul>\n{menu}</ul>\n\
             {body}</body></html>"
        );
        extract(&html, HeadlineMethod::Auto).headline
    }

    /// Under a title naming the site and a section, a linked heading a
    /// few lines into the content repeating the section heads a box
    /// beside the story, not the story.
    #[test]
    fn a_linked_section_heading_past_the_start_is_no_headline_under_a_site_title() {
        let para = STORY_PARAGRAPH;
        assert_eq!(
            menu_page_headline(
                "Harbor Times | Coast",
                &format!(
                    "<h1>Keepers vote to light the lamps again</h1>\n{para}{para}{para}\
                     <h3><a href=\"/coast\">Coast</a></h3>\n{para}{para}{para}{para}"
                )
            )
            .as_deref(),
            Some("Keepers vote to light the lamps again")
        );
    }

    /// A story under a title naming the site, with the site's name again
    /// in a footer heading well past the story's start.
    fn footer_named_page(footer: &str) -> String {
        let menu = menu(40, "/s", "Desk");
        let para = STORY_PARAGRAPH;
        format!(
            "<html><head><title>Harbor Times</title></head><body>\n<ul>\n{menu}</ul>\n\
             <h1>Keepers vote to light the lamps again</h1>\n{}{footer}\n\
             <p>News from the coast since 1901.</p>\n</body></html>",
            para.repeat(20)
        )
    }

    #[test]
    fn a_heading_at_the_content_start_outranks_a_footer_heading_repeating_the_title() {
        let doc = extract(
            &footer_named_page("<h5>About Harbor Times</h5>"),
            HeadlineMethod::Auto,
        );
        assert_eq!(
            doc.headline.as_deref(),
            Some("Keepers vote to light the lamps again")
        );
        // Its line is the <h1>'s, at the content start (the footer's is past it).
        assert!(doc.headline_line.is_some_and(|l| l < 50), "{doc:?}");
        // A footer <h1> is not outranked and stays.
        let doc = extract(
            &footer_named_page("<h1>About Harbor Times</h1>"),
            HeadlineMethod::Auto,
        );
        assert_eq!(doc.headline.as_deref(), Some("About Harbor Times"));
        // A linked one under this title naming only the site is the
        // site's link, no teaser naming the page: never the headline.
        let doc = extract(
            &footer_named_page("<h5><a href=\"/about\">About Harbor Times</a></h5>"),
            HeadlineMethod::Auto,
        );
        assert_eq!(
            doc.headline.as_deref(),
            Some("Keepers vote to light the lamps again")
        );
    }

    /// A story under a site-name title, with the site's name as a label
    /// above the menu and the story's own heading after it.
    fn labelled_page(label: &str) -> String {
        let menu = menu(40, "/s", "Desk");
        let para = STORY_PARAGRAPH;
        format!(
            "<html><head><title>Harbor Times</title></head><body>\n{label}\n<ul>\n{menu}</ul>\n\
             <h3>Keepers vote to light the lamps again</h3>\n{}</body></html>",
            para.repeat(8)
        )
    }

    #[test]
    fn a_label_repeating_the_title_gives_way_to_the_heading_below_it() {
        let doc = extract(
            &labelled_page("<h2>Harbor Times</h2>"),
            HeadlineMethod::Auto,
        );
        assert_eq!(
            doc.headline.as_deref(),
            Some("Keepers vote to light the lamps again")
        );
        let doc = extract(&labelled_page("<p>Harbor Times</p>"), HeadlineMethod::Auto);
        assert_eq!(
            doc.headline.as_deref(),
            Some("Keepers vote to light the lamps again")
        );
        // An <h1> is the page's own choice, however short.
        let doc = extract(
            &labelled_page("<h1>Harbor Times</h1>"),
            HeadlineMethod::Auto,
        );
        assert_eq!(doc.headline.as_deref(), Some("Harbor Times"));
    }

    /// A label repeating the section the title ends with ("Coast Wire"
    /// under "harbortimes.com - Coast Wire") gives way to the headline-
    /// shaped line opening the content, even as an `<h1>`.
    #[test]
    fn a_label_repeating_the_title_section_gives_way_to_the_content_start() {
        let menu = menu(40, "/s", "Desk");
        let para = STORY_PARAGRAPH.repeat(8);
        // As on such pages, the headline shares its logical line with the
        // story's first paragraph (a `<br>` between them).
        let html = format!(
            "<html><head><title>harbortimes.com - Coast Wire</title></head><body>\n\
             <h1>Coast Wire</h1>\n<ul>\n{menu}</ul>\n\
             <div><b>Keepers vote to light the lamps again</b><br>{para}</div></body></html>"
        );
        let doc = extract(&html, HeadlineMethod::Auto);
        assert_eq!(
            doc.headline.as_deref(),
            Some("Keepers vote to light the lamps again")
        );
    }

    /// An old news page under the site's title: the headline and its
    /// standfirst open the content, share links set them apart from the
    /// story, and a photo's caption sits just before it (`shares` links
    /// on each side of the caption, or none where `caption` is false).
    fn captioned_story(title: &str, shares: usize, caption: bool) -> String {
        let share = menu(shares, "/share", "Share on network");
        let menu = menu(40, "/s", "Desk");
        let caption = if caption {
            format!(
                "<p>The lamp room on the pier, seen from the water at dusk.</p>\n<ul>\n{share}</ul>\n"
            )
        } else {
            String::new()
        };
        format!(
            "<html><head>{title}</head><body>\n<ul>\n{menu}</ul>\n\
             <p>Keepers vote to light the lamps again</p>\n\
             <p>Posted at dawn on the pier, where the keepers of the harbor meet each spring \
             to settle what the lamps will do.</p>\n<ul>\n{share}</ul>\n{caption}{}</body></html>",
            STORY_PARAGRAPH.repeat(8)
        )
    }

    /// A caption found for the headline (the short block nearest before
    /// the story, agreeing with nothing in a title that names the site)
    /// gives way to the headline-shaped line above it at the start of the
    /// extracted text; so does nothing found on a page without a title.
    #[test]
    fn a_block_hardly_agreeing_with_the_title_gives_way_to_the_headline_above_it() {
        let title = "<title>Harbor Times - Article</title>";
        let doc = extract(&captioned_story(title, 8, true), HeadlineMethod::Auto);
        assert_eq!(
            doc.headline.as_deref(),
            Some("Keepers vote to light the lamps again")
        );
        let doc = extract(&captioned_story("", 16, false), HeadlineMethod::Auto);
        assert_eq!(
            doc.headline.as_deref(),
            Some("Keepers vote to light the lamps again")
        );
        // A block agreeing with the title stays.
        let agreeing = captioned_story(title, 8, true).replace("The lamp room", "The Harbor Times");
        let doc = extract(&agreeing, HeadlineMethod::Auto);
        assert_eq!(
            doc.headline.as_deref(),
            Some("The Harbor Times on the pier, seen from the water at dusk.")
        );
    }

    /// A title in parts that no block agrees with names the site and its
    /// section: the headline-shaped line opening the content names the
    /// story, not the title's longest part. A title of one part may be
    /// the page's own name, and stays.
    #[test]
    fn a_title_in_parts_no_block_agrees_with_gives_way_to_the_content_start() {
        let parts = "<title>Harbor Times : Coast</title>";
        let doc = extract(&captioned_story(parts, 16, false), HeadlineMethod::Auto);
        assert_eq!(
            doc.headline.as_deref(),
            Some("Keepers vote to light the lamps again")
        );
        let one = "<title>Harbor Times</title>";
        let doc = extract(&captioned_story(one, 16, false), HeadlineMethod::Auto);
        assert_eq!(doc.headline.as_deref(), Some("Harbor Times"));
    }

    /// A page whose `<h1>` is `heading`, under the title `title`.
    fn broken_heading_page(title: &str, heading: &str) -> String {
        format!(
            "<html><head><title>{title}</title></head><body>\n<h1>{heading}</h1>\n{}</body></html>",
            STORY_PARAGRAPH.repeat(8)
        )
    }

    #[test]
    fn a_heading_set_on_two_lines_is_one_headline_where_the_title_has_both() {
        let title = "Harbor Lights Restoration | Keeper Co";
        let doc = extract(
            &broken_heading_page(title, "Harbor Lights<br><span>Restoration</span>"),
            HeadlineMethod::Auto,
        );
        assert_eq!(doc.headline.as_deref(), Some("Harbor Lights Restoration"));
        // A byline after the break is no part of it.
        let doc = extract(
            &broken_heading_page(title, "Harbor Lights Restoration<br>By Ann Reed"),
            HeadlineMethod::Auto,
        );
        assert_eq!(doc.headline.as_deref(), Some("Harbor Lights Restoration"));
    }

    #[test]
    fn og_title_is_the_headline_and_the_block_found_still_bounds_the_content() {
        let doc = extract(&shop_page("Harbor Lights on Steam"), HeadlineMethod::Auto);
        assert_eq!(doc.headline.as_deref(), Some("Harbor Lights on Steam"));
        assert_eq!(doc.headline_line, None);
        // The call to action the title agreed with still marks where the
        // content begins: the intro under it is content.
        assert!(doc.text.contains("A quiet puzzle game"), "{}", doc.text);
        // og:title with the site name set apart is not taken whole.
        let doc = extract(&shop_page("Harbor Lights | Steam"), HeadlineMethod::Auto);
        assert_eq!(doc.headline.as_deref(), Some("Buy Harbor Lights"));
        assert!(doc.headline_line.is_some());
        // The thesis's methods keep to the page's blocks.
        let doc = extract(&shop_page("Harbor Lights on Steam"), HeadlineMethod::Tf);
        assert_eq!(doc.headline.as_deref(), Some("Buy Harbor Lights"));
    }

    /// A story whose paragraphs are split by a figure and by a marked
    /// share box (`extras` sits between them).
    fn story_with(extras: &str) -> String {
        let first = "The council voted on Tuesday to extend the harbour wall by forty \
                     metres, a project that engineers say will protect the old town. "
            .repeat(2);
        let second = "Work begins in spring, and the harbour master expects the fleet \
                      to keep its moorings through the whole building season. "
            .repeat(2);
        format!(
            "<html><head><title>Harbour wall extended</title></head><body><article>\
             <h1>Harbour wall extended</h1>\n<p>{first}</p>\n{extras}\n<p>{second}</p>\n\
             </article></body></html>"
        )
    }

    #[test]
    fn a_caption_between_the_paragraphs_is_left_out() {
        let figure = "<figure><img src=\"wall.jpg\" alt=\"\"><figcaption>The old wall \
                      at low tide, seen from the lighthouse. Photo: Ann Smith</figcaption></figure>";
        let doc = extract(&story_with(figure), HeadlineMethod::Auto);
        assert!(doc.text.contains("forty metres"), "{}", doc.text);
        assert!(doc.text.contains("whole building season"), "{}", doc.text);
        assert!(!doc.text.contains("low tide"), "{}", doc.text);
        assert!(!doc.text.contains("Ann Smith"), "{}", doc.text);
    }

    #[test]
    fn a_marked_share_box_between_the_paragraphs_is_left_out() {
        let share = "<div class=\"share-box\">Share this story with your friends \
                     on every social network</div>";
        let doc = extract(&story_with(share), HeadlineMethod::Auto);
        assert!(doc.text.contains("forty metres"), "{}", doc.text);
        assert!(doc.text.contains("whole building season"), "{}", doc.text);
        assert!(!doc.text.contains("Share this story"), "{}", doc.text);
    }

    #[test]
    fn a_german_related_section_after_the_story_is_cut() {
        let teasers: String = (1..=4)
            .map(|i| {
                format!(
                    "<p><a href=\"/n{i}\">Neue Brücke über den Fluss Nummer {i} eröffnet</a> \
                              Die Stadt feiert die Eröffnung mit einem Fest am Ufer.</p>\n"
                )
            })
            .collect();
        let related = format!("<h3>Das könnte Sie auch interessieren</h3>\n{teasers}");
        let doc = extract(
            &story_with("").replace("</article>", &format!("{related}</article>")),
            HeadlineMethod::Auto,
        );
        assert!(doc.text.contains("whole building season"), "{}", doc.text);
        assert!(!doc.text.contains("auch interessieren"), "{}", doc.text);
        assert!(!doc.text.contains("Neue Brücke"), "{}", doc.text);
    }

    #[test]
    fn escaped_ad_markup_in_noscript_is_no_text() {
        let escaped = "&lt;img src=&quot;https://ads.example.com/pixel?id=12345&amp;c=top&quot; \
                       width=&quot;1&quot; height=&quot;1&quot;&gt;&lt;a href=&quot;https://ads.\
                       example.com/click?id=12345&quot;&gt;&lt;img src=&quot;https://ads.example.\
                       com/banner.jpg&quot;&gt;&lt;/a&gt;";
        let noscript = format!("<div><noscript>{escaped}</noscript></div>");
        let page = story_with("")
            .replace("<article>", &format!("{noscript}\n<article>"))
            .replace("</article>", &format!("</article>\n{noscript}"));
        let doc = extract(&page, HeadlineMethod::Auto);
        assert!(doc.text.contains("forty metres"), "{}", doc.text);
        assert!(!doc.text.contains("ads.example.com"), "{}", doc.text);
        assert!(!doc.text.contains("<img"), "{}", doc.text);
    }

    #[test]
    fn a_promotion_of_another_story_set_in_the_text_is_left_out() {
        let promo = "<p><strong>Lea también:</strong> <a href=\"/otra\">El puerto cierra \
                     por el temporal de invierno</a></p>";
        let doc = extract(&story_with(promo), HeadlineMethod::Auto);
        assert!(doc.text.contains("forty metres"), "{}", doc.text);
        assert!(doc.text.contains("whole building season"), "{}", doc.text);
        assert!(!doc.text.contains("Lea también"), "{}", doc.text);
        // A sentence with a colon and a link is the article's.
        let own = "<p>The plan: <a href=\"/plan\">read the council's full plan</a> \
                   before the vote on Tuesday, says the mayor.</p>";
        let doc = extract(&story_with(own), HeadlineMethod::Auto);
        assert!(doc.text.contains("The plan:"), "{}", doc.text);
    }
}
