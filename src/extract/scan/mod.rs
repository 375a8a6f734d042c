//! The line scanner: one pass over decoded UTF-8, fed in chunks of any size,
//! no DOM.
//!
//! For every logical line it counts content characters (text outside markup)
//! and code characters (markup), plus the finer counts the seed variants and
//! the boilerplate signals need (anchor text and markup, bytes ≥ 128, text
//! inside boilerplate elements). Script, style and comments count as
//! nothing.
//!
//! **Line normalisation.** Physical newlines are ignored (they are
//! whitespace), and a new logical line starts before every opening
//! block-level tag (`<p>`, `<div>`, `<li>`, `<h1>` ...) and, once a line is
//! longer than the wrap limit, before the next tag of any kind. So a minified
//! page and the same page pretty-printed give the same lines, and `<p>text</p>`
//! stays one line. Every line therefore starts at a `<` in the data state,
//! which is the tokenizer state the text stage restarts from.
//!
//! Whitespace runs count as one character wherever they occur, so indentation
//! does not change the counts either.
//!
//! The scanner also keeps a small open-element stack (block containers and
//! anchors only, depth-capped) to know which lines sit inside boilerplate
//! elements and to record container elements with their line spans for
//! region growth, and it captures `<title>`, `og:title` and `<html lang>`.
//! What is done with all that is decided elsewhere (regions, headline).
//!
//! The per-byte loop never allocates: tag and attribute names go into fixed
//! buffers, interesting attribute values into one reused buffer (the
//! class/id memo allocates its slots once per page, on the first value).
//!
//! **Layout.** The scanner is two halves. `tokenizer` reads what the bytes
//! are and reports them as events (text and markup counts, start and end
//! tags, the attributes asked for, the ends of raw text), knowing nothing
//! of what they mean. `Page`, the other half, takes those events (the
//! `tokenizer::Events` it implements, in `policy`): `policy` says what an
//! element and its attributes mean, `stack` keeps the open elements and the
//! line counts, and `capture` the title and metadata. The tokenizer learns
//! from the page only what HTML leaves to the tree builder: which elements
//! hold raw text, whose attributes are worth handing over, and where to
//! stop. It is generic over its events, so each event is inlined where it
//! happens. This file holds the public types, [`Scanner`]'s API (the text,
//! one of each half, and the driver that hands the one to the other) and
//! `Page`'s state.

mod capture;
mod policy;
mod stack;
mod tokenizer;

use super::signals::{self, Signal};
use super::tags::Tag;
use policy::Capture;
use stack::Open;
use std::borrow::Cow;
use tokenizer::Tokenizer;

pub(crate) use tokenizer::closes_raw;
/// Read outside the scanner only by the text stage's tests.
#[cfg(test)]
pub(crate) use tokenizer::ends_tag_name;

/// Counts for one logical line. Character counts use collapsed whitespace.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Line {
    /// Byte range of the line in the decoded source.
    pub start: u32,
    pub end: u32,
    /// Content characters: text outside markup.
    pub text: u32,
    /// Code characters: markup (tags and their attributes).
    pub code: u32,
    /// Code characters of tags without their attributes (`<name>` and
    /// `</name>`): markup cost that does not grow with class lists.
    pub bare: u32,
    /// The part of `bare` that comes from inline formatting tags (span,
    /// em, code, ...), which wrap text rather than replace it.
    pub inline_bare: u32,
    /// Text characters inside `<a>` elements.
    pub anchor_text: u32,
    /// Markup characters of `<a ...>` and `</a>` tags.
    pub anchor_markup: u32,
    /// Anchors opened on this line.
    pub anchors: u32,
    /// Σ max(LT − 7, 0) over anchors opened on this line (Filter 3).
    pub anchor_norm: u32,
    /// Bytes ≥ 128 and < 128 outside script/style/comments (R2L, DANA).
    pub high: u32,
    pub low: u32,
    /// Text characters inside boilerplate elements.
    pub boiler_text: u32,
    /// The part of `boiler_text` that no element marked as furniture (by
    /// its name or a furniture word) holds: only layout words mark it.
    pub layout_text: u32,
    /// The part of `boiler_text` inside an element that a comment word
    /// marks ([`Signal::Comment`]): the reader comments, which keep their
    /// mark where the selection forgives the others.
    pub comment_text: u32,
    /// The part of `layout_text` inside an element that a word naming a
    /// block shown on demand marks ([`Signal::Overlay`]: modal, popup,
    /// dropdown, hidden): never in the article's flow, where the rest of
    /// `layout_text` (widget, more, teaser) may be.
    pub overlay_text: u32,
    /// Heading level (1-6) when the line opens with a heading, else 0.
    pub heading: u8,
    /// The heading the line opens with names reader comments by a class
    /// or id word ([`Signal::Comment`]: `<h3 class="comments-title">`,
    /// `<h2 id="comments">`): the thread's own label, wherever the thread
    /// itself is left unmarked.
    pub comment_heading: bool,
    /// Innermost container element open at the line's start, if any.
    pub container: u32,
}

impl Line {
    /// The line's markup in `src`, the page it was scanned from (empty
    /// when the bounds do not fall on `src`'s characters).
    pub fn source<'s>(&self, src: &'s str) -> &'s str {
        src.get(self.start as usize..self.end as usize)
            .unwrap_or("")
    }
}

/// No container: the line is outside any tracked block element.
pub const NO_ELEMENT: u32 = u32::MAX;

/// A container element (div, section, td, nav, ...) with the lines it spans.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Element {
    pub tag: Tag,
    pub parent: u32,
    pub first_line: u32,
    /// Last line the element touches (updated when it closes; elements never
    /// closed end at the last line).
    pub last_line: u32,
    /// Text characters inside the element.
    pub text: u32,
    pub signal: Signal,
    /// Counted as boilerplate (by name or class/id) for its lines.
    pub boiler: bool,
    /// `<main>` or `<article>`: the page says this is its content.
    pub landmark_main: bool,
    /// `<article>` (or `role="articleBody"`), not `<main>`: one piece of
    /// content rather than the page's whole content area.
    pub article: bool,
    /// A boilerplate element whose role is a dialog (`role="dialog"`):
    /// text shown only when a script opens it. A shop's policies kept in
    /// modals may outweigh all its other text, but they say nothing about
    /// whether its class names mislead. (Hidden elements are not counted
    /// so: some pages hide their whole body until their scripts run.)
    pub dialog: bool,
    /// The few element names the selection looks for.
    pub kind: Kind,
}

/// The element names the selection looks for (one byte, not a flag each:
/// elements are many, and their size shows in the selection's time).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Kind {
    #[default]
    Other,
    /// A `<form>`: a sign-up box, a search or contact form, or a wrapper
    /// of the whole page (ASP.NET), told apart by its text in the
    /// selection (see `select::drop_small_forms`).
    Form,
    /// A `<table>`.
    Table,
    /// A `<noscript>`: what a browser shows only with scripts off.
    NoScript,
}

impl Kind {
    /// The kind of a recorded element by its tag and lowercased name.
    #[inline(always)]
    pub(super) fn of(tag: Tag, name: &[u8]) -> Kind {
        match (tag, name) {
            (Tag::Container, b"form") => Kind::Form,
            (Tag::Container, b"table") => Kind::Table,
            (Tag::Landmark, b"noscript") => Kind::NoScript,
            _ => Kind::Other,
        }
    }
}

/// What the scanner learned about a page besides its lines.
#[derive(Debug, Clone, Default)]
pub struct PageInfo {
    pub title: String,
    pub og_title: String,
    pub lang: String,
    /// Where the page's metadata lies (`<meta>`, `<link>`, JSON-LD).
    pub meta: super::meta::Marks,
    /// Where its `<base>` lies, and its anchors when `ScanLimits::links` asks.
    pub links: super::links::Marks,
}

/// Scanner limits (memory per page is bounded by these and the page size).
#[derive(Debug, Clone, Copy)]
pub struct ScanLimits {
    /// A line longer than this (in characters) breaks before the next tag.
    pub wrap: u32,
    /// Open-element stack depth; deeper elements are counted, not tracked.
    pub max_depth: usize,
    /// Container elements recorded; later ones are not tracked.
    pub max_elements: usize,
    /// Lines after which scanning stops: one line more than this is the
    /// caller's sign that the page has too many (`ExtractError::TooManyLines`),
    /// found as soon as it is true rather than after a page of empty `<p>`s
    /// was counted whole at some 24 times its size.
    pub max_lines: usize,
    /// Mark `<a>` start tags and where their text ends, for the page's
    /// links (`PageInfo::links`). `<base>` is marked either way.
    pub links: bool,
}

impl Default for ScanLimits {
    fn default() -> Self {
        ScanLimits {
            wrap: 600,
            max_depth: 256,
            max_elements: 200_000,
            max_lines: usize::MAX,
            links: false,
        }
    }
}

const NAME_CAP: usize = 16;

/// Open elements made room for up front (see `Scanner::reserve`): pages
/// nest a few dozen deep, and a stack grown from empty was reallocated
/// and copied four or five times a page.
const STACK_ROOM: usize = 64;

const VALUE_CAP: usize = 512;

const TITLE_CAP: usize = 2048;

/// The streaming line scanner. Feed it decoded text with [`Scanner::push`],
/// then call [`Scanner::finish`]; or hand it a whole page of text it may
/// borrow with [`Scanner::borrowed`].
#[derive(Debug)]
pub struct Scanner<'a> {
    /// The text so far: owned when it arrives in pieces, borrowed when the
    /// caller's bytes already are the page's text (UTF-8, or ASCII in an
    /// ASCII-compatible encoding), which spares a copy of the page.
    src: Cow<'a, str>,
    /// What the bytes are.
    tokens: Tokenizer,
    /// What they mean.
    page: Page,
}

/// The half of the scanner that gives the tokenizer's events their
/// meaning: the element policy, the open-element stack, the line counts
/// and the captures (see the module's layout).
#[derive(Debug)]
struct Page {
    limits: ScanLimits,
    lines: Vec<Line>,
    cur: Line,
    elements: Vec<Element>,
    stack: Vec<Open>,
    overflow: usize,
    /// Where the tokenizer stops (`Events::end`): the text's end, or 0
    /// once a line too many was closed.
    scan_end: usize,
    boiler_depth: u32,
    furniture_depth: u32,
    /// The boilerplate and furniture depths at the innermost open
    /// `<main>` (or `role="main"`, or an id naming the main content: see
    /// `is_main_id`): text is inside boilerplate only where the depth is
    /// above its base. The page's main element is no
    /// furniture whatever its wrappers are called (a Bootstrap
    /// `row-offcanvas`, a `menu-side-transition` around the whole page);
    /// furniture inside it still counts.
    boiler_base: u32,
    furniture_base: u32,
    /// Open elements marked as reader comments, and their depth at the
    /// innermost main element (as `boiler_base`).
    comment_depth: u32,
    comment_base: u32,
    /// Open elements marked as shown on demand ([`Signal::Overlay`]), and
    /// their depth at the innermost main element (as `boiler_base`).
    overlay_depth: u32,
    overlay_base: u32,
    opaque_depth: u32,
    /// Elements on the stack only because a `hidden` one holds them (see
    /// `Tag::stacks_when_hidden`).
    hidden_inline: u32,
    container: u32,
    /// The tag being read (`Other` once an end tag's name is read: end
    /// tags carry no attributes worth reading).
    tag: Tag,
    capture: Capture,
    value: Vec<u8>,
    tag_signal: Signal,
    meta_is_title: bool,
    meta_content: Vec<u8>,
    // Anchor being read.
    in_anchor: bool,
    anchor_line: usize,
    anchor_text: u32,
    /// The raw element being skipped is a JSON-LD script: its text is
    /// marked for metadata when it ends.
    raw_ld_json: bool,
    title_done: bool,
    content_depth: u32,
    /// The tag being read is `<main>`, `<article>`, `role="main"` or
    /// `itemprop="articleBody"`.
    tag_main: bool,
    /// The tag being read is `<main>`, `role="main"` or has an id naming the
    /// main content: the page's own main element (see `boiler_base`).
    tag_page_main: bool,
    /// The tag being read has a `style` that hides it (`display: none`,
    /// `visibility: hidden`) or the `hidden` attribute: its text is not on
    /// the page a reader sees.
    tag_hidden: bool,
    /// The tag being read is a panel a reader opens in place
    /// (`role="tabpanel"` or `"region"`, `aria-labelledby`, a hidden
    /// element right after a heading: tabs, accordions, FAQ answers) or
    /// a segment a script moves into place (`is_streamed_segment`): hidden
    /// or not, its text is the page's.
    tag_panel: bool,
    /// The tag's role is a dialog.
    tag_dialog: bool,
    /// Where the tag's `class` value lies in the source (start, length),
    /// when read whole: looked at only if the tag is hidden (see
    /// `names_a_panel`). A value read byte by byte is looked at in
    /// `end_value` and sets `tag_panel` itself.
    tag_class: (usize, usize),
    /// A heading (`</h1>` … `</h6>`) has just ended, with nothing after it
    /// yet but whitespace, comments and tags that neither end nor go on
    /// the stack: an element opening here is the heading's next sibling.
    /// Hidden, it is the panel that heading opens (an accordion's question
    /// and its folded answer, a section title and its collapsed text; see
    /// `push_open`).
    after_heading: bool,
    info: PageInfo,
    /// Signals of recent class/id values.
    memo: signals::Memo,
}

/// The scanner's result: the decoded source, its lines and elements.
#[derive(Debug, Clone, Default)]
pub struct Scan<'a> {
    pub src: Cow<'a, str>,
    pub lines: Vec<Line>,
    pub elements: Vec<Element>,
    pub info: PageInfo,
}

impl Page {
    fn new(limits: ScanLimits) -> Self {
        Page {
            limits,
            lines: Vec::new(),
            cur: Line {
                container: NO_ELEMENT,
                ..Line::default()
            },
            elements: Vec::new(),
            stack: Vec::new(),
            overflow: 0,
            scan_end: 0,
            boiler_depth: 0,
            boiler_base: 0,
            furniture_base: 0,
            furniture_depth: 0,
            comment_depth: 0,
            comment_base: 0,
            overlay_depth: 0,
            overlay_base: 0,
            opaque_depth: 0,
            hidden_inline: 0,
            container: NO_ELEMENT,
            tag: Tag::Other,
            capture: Capture::None,
            value: Vec::with_capacity(VALUE_CAP),
            tag_signal: Signal::Neutral,
            meta_is_title: false,
            meta_content: Vec::new(),
            in_anchor: false,
            anchor_line: 0,
            anchor_text: 0,
            raw_ld_json: false,
            title_done: false,
            content_depth: 0,
            tag_main: false,
            tag_page_main: false,
            tag_hidden: false,
            tag_panel: false,
            tag_dialog: false,
            tag_class: (0, 0),
            after_heading: false,
            info: PageInfo::default(),
            memo: signals::Memo::default(),
        }
    }

    fn reserve_lines(&mut self, bytes: usize) {
        let lines = (bytes / 96).min(1 << 16);
        self.lines
            .reserve(lines.min(self.limits.max_lines.saturating_add(1)));
        self.elements.reserve((bytes / 128).min(1 << 14));
        self.stack.reserve(STACK_ROOM);
    }
}

impl<'a> Scanner<'a> {
    pub fn new(limits: ScanLimits) -> Self {
        Scanner {
            src: Cow::Borrowed(""),
            tokens: Tokenizer::new(),
            page: Page::new(limits),
        }
    }

    /// Bytes of decoded text seen so far.
    pub fn len(&self) -> usize {
        self.src.len()
    }

    /// Logical lines closed so far.
    pub fn line_count(&self) -> usize {
        self.page.lines.len()
    }

    /// Is the scanner still empty?
    pub fn is_empty(&self) -> bool {
        self.src.is_empty()
    }

    /// Makes room for a page of `bytes` bytes decoding to at most `text`
    /// bytes, when its size is known up front: the decoded text then
    /// grows with no copy, nor do the lines, elements and open elements of
    /// almost all pages (on the corpus, a line per 212 bytes at the median
    /// and per 160 for a quarter of the pages: room for one per 96 bytes,
    /// an element per 128 and 64 open elements. Room for a line per 128
    /// bytes and an element per 512, with the stack grown from empty,
    /// left about six reallocations and copies a page: 1.4 M instructions
    /// on every 15th page. The guesses are capped at 64 Ki lines (about
    /// 4.5 MiB), or one past `max_lines`, and 16 Ki elements, so that a
    /// huge page of few lines does not hold much room it never uses).
    pub fn reserve(&mut self, text: usize, bytes: usize) {
        self.src.to_mut().reserve(text);
        self.page.reserve_lines(bytes);
    }

    /// Appends decoded text and scans it.
    pub fn push(&mut self, text: &str) {
        self.push_with(|src| src.push_str(text));
    }

    /// Lets `append` add the next piece of the page to the end of the
    /// buffer (a decoder writing in place, with no copy in between), then
    /// counts it. `append` must only append (crate-private, so that the
    /// only callers are the core's own decoders).
    pub(crate) fn push_with(&mut self, append: impl FnOnce(&mut String)) {
        append(self.src.to_mut());
        self.scan_to_end();
    }

    /// Counts what has arrived and is not counted yet.
    fn scan_to_end(&mut self) {
        // The loop's bound is a field, not `src.len()` (a `Cow`, so a
        // branch a step) and not a line count test a step: `close_line`
        // sets it to 0 on the first line past `max_lines`.
        let page = &mut self.page;
        page.scan_end = match page.lines.len() > page.limits.max_lines {
            true => 0,
            false => self.src.len(),
        };
        self.tokens.run(&self.src, page);
    }

    /// Scans a whole page of text in place, with no copy: what `new`, a
    /// `push` of `text` and nothing more would do. Its lines are counted;
    /// call [`Scanner::finish`] for the rest.
    pub fn borrowed(limits: ScanLimits, text: &'a str) -> Self {
        let mut scanner = Scanner::new(limits);
        scanner.src = Cow::Borrowed(text);
        scanner.page.reserve_lines(text.len());
        scanner.scan_to_end();
        scanner
    }

    /// Ends the page: closes the last line and any open elements.
    pub fn finish(mut self) -> Scan<'a> {
        if self.tokens.end_of_text(&self.src, &mut self.page) {
            self.scan_to_end();
        }
        let mut page = self.page;
        while !page.stack.is_empty() {
            page.pop();
        }
        let end = self.src.len();
        page.close_line(end);
        Scan {
            src: self.src,
            lines: page.lines,
            elements: page.elements,
            info: page.info,
        }
    }
}

#[cfg(test)]
mod tests;
