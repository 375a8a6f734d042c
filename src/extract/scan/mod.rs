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

use super::blocks::Block;
use super::signals::{self, Signal};
use super::tags::{self, Tag};
use super::text_count::{self, RunState, is_space};
use std::borrow::Cow;
use wide::u8x16;

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
    /// A `<form>`: a sign-up box, a search or contact form, or a wrapper
    /// of the whole page (ASP.NET), told apart by its text in the
    /// selection (see `select::drop_small_forms`).
    pub form: bool,
}

/// What the scanner learned about a page besides its lines.
#[derive(Debug, Clone, Default)]
pub struct PageInfo {
    pub title: String,
    pub og_title: String,
    pub lang: String,
    /// Where the page's metadata lies (`<meta>`, `<link>`, JSON-LD).
    pub meta: super::meta::Marks,
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
}

impl Default for ScanLimits {
    fn default() -> Self {
        ScanLimits {
            wrap: 600,
            max_depth: 256,
            max_elements: 200_000,
            max_lines: usize::MAX,
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

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Text,
    TagOpen,
    TagName,
    EndTagOpen,
    EndTagName,
    /// Inside a start or end tag, between attributes.
    InTag,
    AttrName,
    AfterAttrName,
    BeforeValue,
    ValueQuoted(u8),
    ValueUnquoted,
    /// After `<!`, counting dashes towards a comment.
    Decl(u8),
    /// In a comment; the number is how many `-` were just seen.
    Comment(u8),
    /// `<?...>`, `<!DOCTYPE ...>`, `<![CDATA[...]]>`: skipped to `>`.
    Bogus,
    /// Raw text (script, style, title, textarea): looking for `</name`;
    /// the number is how many bytes of `</name` matched so far.
    Raw(u8),
}

impl State {
    /// States consumed a run at a time by [`Scanner::step`].
    fn is_run(self) -> bool {
        matches!(
            self,
            State::Text
                | State::InTag
                | State::Comment(_)
                | State::Raw(0)
                | State::ValueQuoted(_)
                | State::ValueUnquoted
                | State::TagName
                | State::EndTagName
                | State::AttrName
        )
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum RawMode {
    Skip,
    Title,
    Textarea,
}

#[derive(Debug, Clone, Copy)]
struct Open {
    tag: Tag,
    name: Short,
    element: u32,
    boiler: bool,
    furniture: bool,
    comment: bool,
    overlay: bool,
    opaque: bool,
    content: bool,
    /// The boilerplate, furniture, comment and overlay bases (see
    /// `Scanner::boiler_base`) outside this element, restored when it
    /// closes.
    bases: (u32, u32, u32, u32),
}

/// An ARIA role that names page furniture: the landmarks `<nav>`,
/// `<header>`, `<footer>` and `<aside>` stand for, and dialogs (cookie and
/// consent notices, sign-up overlays: long prose that otherwise wins the
/// seed on pages with little text of their own).
fn is_furniture_role(value: &[u8]) -> bool {
    const ROLES: &[&[u8]] = &[
        b"navigation",
        b"contentinfo",
        b"complementary",
        b"dialog",
        b"alertdialog",
        b"banner",
    ];
    ROLES.iter().any(|r| value.eq_ignore_ascii_case(r))
}

/// A dialog role: text shown only when a script opens it (see
/// `Element::dialog`).
fn is_dialog_role(value: &[u8]) -> bool {
    value.eq_ignore_ascii_case(b"dialog") || value.eq_ignore_ascii_case(b"alertdialog")
}

/// Does a `style` attribute value hide its element: `display: none` or
/// `visibility: hidden` (ASCII case and whitespace around the colon
/// ignored)? Pages keep text there that no reader sees until a script
/// shows it: a second copy of the content for another screen size,
/// an email's preview text, menus, sign-up forms.
fn hides_element(style: &[u8]) -> bool {
    // Each declaration's colon, found by memchr: most styles are a few
    // declarations, and the bytes between are not looked at. Nor is a
    // declaration whose value starts with neither `n` nor `h` (`none`,
    // `hidden`): most do not, and spans' styles are read too.
    memchr::memchr_iter(b':', style).any(|colon| {
        let value = style[colon + 1..].trim_ascii_start();
        if !matches!(value.first().map(|b| b | 0x20), Some(b'n' | b'h')) {
            return false;
        }
        let name = style[..colon].trim_ascii_end();
        let value = &value[..memchr::memchr(b';', value).unwrap_or(value.len())];
        let value = value.trim_ascii_end();
        let value = value
            .strip_suffix(b"!important")
            .map_or(value, <[u8]>::trim_ascii_end);
        let ends = |word: &[u8]| {
            name.len() >= word.len()
                && name[name.len() - word.len()..].eq_ignore_ascii_case(word)
                && name[..name.len() - word.len()]
                    .last()
                    .is_none_or(|&b| b == b';' || b.is_ascii_whitespace())
        };
        (ends(b"display") && value.eq_ignore_ascii_case(b"none"))
            || (ends(b"visibility") && value.eq_ignore_ascii_case(b"hidden"))
    })
}

/// Does a `hidden` attribute with this value hide its element? All do but
/// `until-found` (text a reader's search in the page reveals). One test
/// for the byte-wise states and the in-place read of unstacked tags.
fn hidden_hides(value: &[u8]) -> bool {
    !value.eq_ignore_ascii_case(b"until-found")
}

/// Does a class value name a panel a reader opens in place: an
/// accordion's or a tab's pane, a FAQ answer, an expander's or a
/// toggle's content (`faq__answer`, `tab-pane`, `a-expander-content`)?
/// Name parts as `signals` splits them (at anything not a letter or a
/// digit, and lower→upper case changes), ASCII case ignored. Only read
/// for hidden elements: collapsed panels are content, hidden the way
/// menus and pop-ups are but opened where they stand.
fn names_a_panel(class: &[u8]) -> bool {
    const WORDS: &[&[u8]] = &[
        b"accordion",
        b"collapse",
        b"collapsible",
        b"expander",
        b"expandable",
        b"toggle",
        b"faq",
        b"answer",
        b"tab",
        b"pane",
    ];
    let mut start = 0;
    for i in 0..=class.len() {
        let end = match (class.get(i), i.checked_sub(1).and_then(|j| class.get(j))) {
            (None, _) => true,
            (Some(b), _) if !b.is_ascii_alphanumeric() => true,
            (Some(b), Some(p)) => b.is_ascii_uppercase() && p.is_ascii_lowercase(),
            (Some(_), None) => false,
        };
        if !end {
            continue;
        }
        let part = &class[start..i];
        if WORDS.iter().any(|w| part.eq_ignore_ascii_case(w)) {
            return true;
        }
        start = if class.get(i).is_some_and(u8::is_ascii_alphanumeric) {
            i
        } else {
            i + 1
        };
    }
    false
}

/// Is an `id` React's name for a streamed segment (`S:0`, `S:12`)? A
/// page rendered on the server in parts sends each late part as
/// `<div hidden id="S:n">` at the end of the body, and a script moves it
/// into its place: hidden markup, but the page's content (often most of
/// it).
fn is_streamed_segment(id: &[u8]) -> bool {
    id.strip_prefix(b"S:")
        .is_some_and(|n| !n.is_empty() && n.iter().all(u8::is_ascii_digit))
}

/// An `id` that names the page's main element, as `<main>` does: the
/// page's own name for its content area (`<section id="main">` inside a
/// wrapper marked as a side menu). Whole values only: `main-side` or
/// `content-sidebar` name something else.
#[inline]
fn is_main_id(value: &[u8]) -> bool {
    [
        &b"main"[..],
        b"content",
        b"main-content",
        b"maincontent",
        b"main_content",
    ]
    .iter()
    .any(|w| value.eq_ignore_ascii_case(w))
}

/// What a class or id value (`capture` says which) tells of its element:
/// its signal, and whether it names the page's main element. One reading
/// for both the whole-attribute path and the byte states; a function of
/// the fields it needs, so that either can pass a value it borrows from
/// the scanner. Ids are classified every time: they are unique on a page
/// (`post-123`, `comment-456`; 97 % of them missed the memo on the
/// corpus), so remembering them cost a hash and a copy each and pushed
/// classes out of the memo's slots.
#[inline]
fn read_class_or_id(memo: &mut signals::Memo, capture: Capture, value: &[u8]) -> (Signal, bool) {
    if capture == Capture::Id {
        (signals::classify(value), is_main_id(value))
    } else {
        (memo.classify(value), false)
    }
}

/// Fixed-size lowercase name buffer.
#[derive(Debug, Clone, Copy, Default)]
struct Name {
    /// The name's first `NAME_CAP` bytes, then room for a whole block
    /// stored at any length below `NAME_CAP` (see [`Name::append`]).
    buf: [u8; NAME_CAP + 16],
    len: usize,
}

/// A name as the open-element stack keeps it: its bytes, zero past its
/// end, and its length; a name longer than `NAME_CAP` is the empty name
/// (as [`Name::get`] has it). Two names are the same exactly when these
/// are equal: a block compare where [`Name`]s needed masks built from
/// their lengths each time (`pop_to` compares one to each stack entry
/// it passes), and a stack entry of 44 bytes where one holding a whole
/// `Name` took 72.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Short {
    bytes: [u8; NAME_CAP],
    len: u8,
}

impl Short {
    fn get(&self) -> &[u8] {
        &self.bytes[..usize::from(self.len).min(NAME_CAP)]
    }
    /// The name's [`tags::name_key`]: its first word is the name
    /// zero-padded, so the bytes past its length need no mask
    /// ([`tags::word_key`]'s).
    fn key(&self) -> u64 {
        let len = usize::from(self.len);
        if len == 0 || len > tags::KEY_NAME_MAX {
            return 0;
        }
        let [b0, b1, b2, b3, b4, b5, b6, b7, ..] = self.bytes;
        u64::from_le_bytes([b0, b1, b2, b3, b4, b5, b6, b7]) | (len as u64) << 56
    }
}

/// `class` as the low five bytes of a word (see `quoted_attr`).
const CLASS_WORD: u64 = u64::from_le_bytes(*b"class\0\0\0");
const CLASS_MASK: u64 = (1 << 40) - 1;

/// `PREFIX[n]`: the first `n` bytes of a block set, the rest clear (a load
/// where SSE2 has no cheap way to build the mask from `n`).
static PREFIX: [[u8; 16]; 17] = {
    let mut masks = [[0u8; 16]; 17];
    let mut n = 0;
    while n <= 16 {
        let mut i = 0;
        while i < n {
            masks[n][i] = 0xFF;
            i += 1;
        }
        n += 1;
    }
    masks
};

impl Name {
    fn clear(&mut self) {
        self.len = 0;
    }
    /// The name is `bytes` (as `clear` and a `push` of each).
    #[cfg(test)]
    fn set(&mut self, bytes: &[u8]) {
        self.set_at(bytes, 0, bytes.len());
    }
    /// The name is `src[start..start + len]` (as `clear` and a `push` of
    /// each): one block from `start`, lowercased at once, with no loop
    /// over the name's bytes (see [`Name::append`]).
    #[inline]
    fn set_at(&mut self, src: &[u8], start: usize, len: usize) {
        self.len = 0;
        self.append(lowercase(Block::at(src, start).v), len);
    }
    fn push(&mut self, b: u8) {
        if self.len < NAME_CAP {
            self.buf[self.len] = b.to_ascii_lowercase();
        }
        self.len += 1;
    }
    /// Appends the first `n` bytes of `block`, already lowercase (as a
    /// `push` of each): the whole block is stored, and what lies past the
    /// name's end is masked off wherever the buffer is read.
    #[inline]
    fn append(&mut self, block: u8x16, n: usize) {
        if let Some(room) = self.buf.get_mut(self.len..self.len + 16) {
            room.copy_from_slice(&block.to_array());
        }
        self.len += n;
    }
    /// The name as the stack keeps it. The bytes past `len` are whatever
    /// earlier names left: masked off.
    #[inline]
    fn short(&self) -> Short {
        match self.len {
            len @ 0..=NAME_CAP => {
                let bytes = self.buf.first_chunk::<16>().copied().unwrap_or_default();
                let keep = u8x16::new(PREFIX[len]);
                Short {
                    bytes: (u8x16::new(bytes) & keep).to_array(),
                    len: len as u8,
                }
            }
            _ => Short::default(),
        }
    }
    /// The name's [`tags::name_key`] (0 for a name without one), from the
    /// buffer as it stands.
    #[inline]
    fn key(&self) -> u64 {
        if self.len == 0 || self.len > tags::KEY_NAME_MAX {
            return 0;
        }
        let [b0, b1, b2, b3, b4, b5, b6, b7, ..] = self.buf;
        tags::word_key(
            u64::from_le_bytes([b0, b1, b2, b3, b4, b5, b6, b7]),
            self.len,
        )
    }
    /// What the name is.
    #[inline]
    fn tag(&self) -> Tag {
        match self.key() {
            0 => Tag::long(self.get()),
            key => Tag::by_key(key),
        }
    }
    fn get(&self) -> &[u8] {
        if self.len > NAME_CAP {
            b""
        } else {
            &self.buf[..self.len]
        }
    }
}

/// Which attribute value of the current tag is being captured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Capture {
    None,
    ClassId,
    /// An `id`: classified as a class is, and an id such as `main` or
    /// `content` names the page's main element (see `is_main_id`).
    Id,
    MetaKey,
    MetaContent,
    Lang,
    Role,
    /// A `style`: whether it hides the element (see `hides_element`).
    Style,
    /// A `hidden` with a value: the element is hidden unless the value is
    /// `until-found` (text a reader's search in the page reveals).
    Hidden,
    /// An `aria-labelledby`: the element is a region its heading labels,
    /// as accordion panels are.
    Labelled,
}

/// The streaming line scanner. Feed it decoded text with [`Scanner::push`],
/// then call [`Scanner::finish`]; or hand it a whole page of text it may
/// borrow with [`Scanner::borrowed`].
#[derive(Debug)]
pub struct Scanner<'a> {
    limits: ScanLimits,
    /// The text so far: owned when it arrives in pieces, borrowed when the
    /// caller's bytes already are the page's text (UTF-8, or ASCII in an
    /// ASCII-compatible encoding), which spares a copy of the page.
    src: Cow<'a, str>,
    pos: usize,
    state: State,
    lines: Vec<Line>,
    cur: Line,
    elements: Vec<Element>,
    stack: Vec<Open>,
    overflow: usize,
    /// Where `scan_to_end` stops: the text's end, or 0 once a line too
    /// many was closed.
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
    prev_space: bool,
    /// The current text run's state.
    run: RunState,
    // The tag being read.
    tag_start: usize,
    tag: Tag,
    tag_name: Name,
    attr_name: Name,
    capture: Capture,
    value: Vec<u8>,
    tag_signal: Signal,
    meta_is_title: bool,
    meta_content: Vec<u8>,
    // Anchor being read.
    in_anchor: bool,
    anchor_line: usize,
    anchor_text: u32,
    // Raw text element being skipped.
    raw_mode: RawMode,
    raw_name: Name,
    raw_start: usize,
    /// The raw element being skipped is a JSON-LD script: its text is
    /// marked for metadata when it ends.
    raw_ld_json: bool,
    title_done: bool,
    is_end_tag: bool,
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

impl<'a> Scanner<'a> {
    pub fn new(limits: ScanLimits) -> Self {
        Scanner {
            limits,
            src: Cow::Borrowed(""),
            pos: 0,
            state: State::Text,
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
            prev_space: false,
            run: RunState::default(),
            tag_start: 0,
            tag: Tag::Other,
            tag_name: Name::default(),
            attr_name: Name::default(),
            capture: Capture::None,
            value: Vec::with_capacity(VALUE_CAP),
            tag_signal: Signal::Neutral,
            meta_is_title: false,
            meta_content: Vec::new(),
            in_anchor: false,
            anchor_line: 0,
            anchor_text: 0,
            raw_mode: RawMode::Skip,
            raw_name: Name::default(),
            raw_start: 0,
            raw_ld_json: false,
            title_done: false,
            is_end_tag: false,
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

    /// Bytes of decoded text seen so far.
    pub fn len(&self) -> usize {
        self.src.len()
    }

    /// Logical lines closed so far.
    pub fn line_count(&self) -> usize {
        self.lines.len()
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
        self.reserve_lines(bytes);
    }

    fn reserve_lines(&mut self, bytes: usize) {
        let lines = (bytes / 96).min(1 << 16);
        self.lines
            .reserve(lines.min(self.limits.max_lines.saturating_add(1)));
        self.elements.reserve((bytes / 128).min(1 << 14));
        self.stack.reserve(STACK_ROOM);
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
        self.scan_end = match self.lines.len() > self.limits.max_lines {
            true => 0,
            false => self.src.len(),
        };
        while self.pos < self.scan_end {
            self.step();
        }
    }

    /// Scans a whole page of text in place, with no copy: what `new`, a
    /// `push` of `text` and nothing more would do. Its lines are counted;
    /// call [`Scanner::finish`] for the rest.
    pub fn borrowed(limits: ScanLimits, text: &'a str) -> Self {
        let mut scanner = Scanner::new(limits);
        scanner.src = Cow::Borrowed(text);
        scanner.reserve_lines(text.len());
        scanner.scan_to_end();
        scanner
    }

    /// Ends the page: closes the last line and any open elements.
    pub fn finish(mut self) -> Scan<'a> {
        if matches!(self.state, State::Raw(_)) && self.raw_mode == RawMode::Title {
            self.abandon_title();
            self.scan_to_end();
        }
        while !self.stack.is_empty() {
            self.pop();
        }
        let end = self.src.len();
        self.close_line(end);
        Scan {
            src: self.src,
            lines: self.lines,
            elements: self.elements,
            info: self.info,
        }
    }

    /// Advances over at least one byte.
    ///
    /// The states where most bytes are spent (text, comments, raw text,
    /// the space between attributes and whole quoted attributes, attribute
    /// values, tag and attribute names) are consumed a run at a time; the rest go byte by byte in one loop here, which stays in this
    /// function until a run state is reached (a call per byte was a fifth of
    /// the scanner's time).
    fn step(&mut self) {
        match self.state {
            State::Text => self.text_run(),
            State::Comment(dashes) => self.comment_run(dashes),
            State::Raw(0) => self.raw_run(),
            State::ValueQuoted(q) => self.value_run(q),
            State::ValueUnquoted => self.unquoted_run(),
            State::InTag => self.attrs_run(),
            State::TagName => self.tag_name_resume::<false>(),
            State::EndTagName => self.tag_name_resume::<true>(),
            State::AttrName => self.attr_name_run(),
            _ => self.byte_run(),
        }
    }

    /// Bytes of the small states, one at a time, until a run state.
    fn byte_run(&mut self) {
        loop {
            let b = self.src.as_bytes()[self.pos];
            self.byte(b);
            self.pos += 1;
            if self.pos >= self.src.len() || self.state.is_run() {
                return;
            }
        }
    }

    /// Between attributes: whitespace (up to sixteen bytes at a time) and
    /// whole `name="value"` attributes are taken at once, and so are `>`
    /// and `/`; anything else (unquoted values, spaces around `=`, an
    /// attribute cut off by the end of the buffer) goes to the byte-wise
    /// states, which count exactly the same.
    fn attrs_run(&mut self) {
        loop {
            let (spaces, attr) = next_attribute(self.src.as_bytes(), self.pos);
            if spaces > 0 {
                self.code_space();
                self.pos += spaces;
            }
            let Some(attr) = attr else {
                match self.src.as_bytes().get(self.pos) {
                    // The tag's end, the common case, without `byte_run`'s
                    // dispatch (`in_tag` is what `byte` calls here).
                    Some(b'>') => {
                        self.in_tag(b'>');
                        self.pos += 1;
                    }
                    // The `/` of a self-closing tag (`<br/>`, `<img … />`):
                    // what `in_tag` does with it, and on to the `>`, with no
                    // return to `step` in between.
                    Some(b'/') => {
                        self.add_code_byte(b'/');
                        self.pos += 1;
                        continue;
                    }
                    Some(_) => self.byte_run(),
                    None => {}
                }
                return;
            };
            self.quoted_attr(attr);
        }
    }

    /// One complete `name="value"` attribute at `pos`: what `in_tag`,
    /// `attr_name_run`, `attr_name_byte`, `before_value`, `value_run` and
    /// `value_quoted` would do byte by byte.
    fn quoted_attr(&mut self, attr: QuotedAttr) {
        let start = self.pos;
        // As in `attr_name_run`: only a name longer than its first byte
        // ends a whitespace run.
        if attr.name > 1 {
            self.prev_space = false;
        }
        let run = if attr.ascii {
            Run::ascii(attr.len)
        } else {
            Run::of(self.src.as_bytes(), start, start + attr.len)
        };
        self.add_code_run(run);
        self.pos = start + attr.len;
        // Most tags (span, a, img, ...) have no attribute `begin_capture`
        // would keep: their names are not even copied.
        if !self.reads_attributes() {
            // `hidden="…"` or `style="…"` on a span, a pre or an unknown
            // element: the attributes read there, in place (see
            // `Tag::stacks_when_hidden`).
            if matches!(attr.name, 5 | 6)
                && matches!(self.src.as_bytes()[start] | 0x20, b's' | b'h')
                && self.tag.stacks_when_hidden()
            {
                self.unstacked_hiding(start, attr.name, attr.len);
            }
            return;
        }
        // `class` as most pages write it, the commonest name read here,
        // told from its first eight bytes (`class="` and one more: the
        // attribute is at least that long) with no copy of the name for
        // `begin_capture` to read back and match byte by byte. Any other
        // spelling goes the general way, which gives the same.
        let class = attr.name == 5
            && self
                .src
                .as_bytes()
                .get(start..)
                .and_then(<[u8]>::first_chunk::<8>)
                .is_some_and(|w| u64::from_le_bytes(*w) & CLASS_MASK == CLASS_WORD);
        if class && self.reads_class_and_id() {
            // What `begin_capture` does for a class on such a tag.
            self.value.clear();
            self.capture = Capture::ClassId;
        } else {
            self.attr_name.set_at(self.src.as_bytes(), start, attr.name);
            self.begin_capture();
        }
        let value = &self.src.as_bytes()[start + attr.name + 2..start + attr.len - 1];
        let value = &value[..value.len().min(VALUE_CAP)];
        if matches!(self.capture, Capture::ClassId | Capture::Id) {
            // The commonest capture, classified where it lies (`end_value`
            // would copy it first).
            let read = read_class_or_id(&mut self.memo, self.capture, value);
            if self.capture == Capture::ClassId {
                // A second `class` on the tag: the first one's panel words
                // still count, as `end_value` counts every class it reads.
                if self.tag_class.1 > 0 {
                    self.tag_panel |= names_a_panel(self.class_value());
                }
                self.tag_class = (start + attr.name + 2, value.len());
            } else {
                self.tag_panel |= is_streamed_segment(value);
            }
            self.class_or_id(read);
            self.capture = Capture::None;
            return;
        }
        if self.capture == Capture::Style {
            // Read where it lies too: inline styles can be long.
            self.tag_hidden |= hides_element(value);
            self.capture = Capture::None;
            return;
        }
        if self.capture != Capture::None {
            self.value.extend_from_slice(value);
        }
        self.end_value();
    }

    /// A tag name up to its end (space, `/` or `>`), then that byte and the
    /// attributes. One copy for start tags and one for end tags (`END`),
    /// which the callers already tell apart: the tests below on what
    /// follows the name then each have a branch of their own, and an end
    /// tag's (almost always `>`) is predicted well, where one branch for
    /// both was mispredicted whenever start and end tags alternated.
    // Inlined into `text_run`'s loop, where almost every tag is read: as
    // a call, each tag saved and restored six registers and spilled more
    // (−13.3 M instructions on every 15th page). `step` reaches it only
    // for a tag a chunk's end cut (after `<` or `</`, or inside the
    // name), through `tag_name_resume`, which keeps the copies to these
    // two.
    #[inline(always)]
    fn tag_name_run<const END: bool>(&mut self) {
        // The tag is ASCII up to here when this run starts at the name's
        // first byte (right after `<` or `</`; a letter): then the name's
        // high bits, noted block by block, say whether all of it is, and
        // an ASCII tag's counts need no second look at its bytes.
        let whole = self.pos == self.tag_start + if END { 2 } else { 1 };
        let mut high = 0;
        // The name's first block, lowercase (see `run_tag`).
        let mut first = None;
        // Sixteen bytes at a time: names vary in length, and a byte loop's
        // exit was the scanner's most mispredicted branch.
        loop {
            let block = Block::at(self.src.as_bytes(), self.pos);
            let ends = text_count::spaces(block.v) | block.eq(b'/') | block.eq(b'>');
            // The padding past the buffer's end stops the name too.
            let stop = ends | !block.present;
            let n = stop.trailing_zeros() as usize;
            // The name's bytes and the one that ends it (`stop`'s bits up
            // to its lowest), rather than a mask shifted by `n`: the byte
            // that ends a name is ASCII (a space, `/`, `>`, or the zero
            // padding), and bit 16 lies past the block's bits.
            high |= block.v.to_bitmask() & (stop ^ stop.wrapping_sub(1));
            let lower = lowercase(block.v);
            first.get_or_insert(lower);
            self.tag_name.append(lower, n);
            self.pos += n;
            if n < 16 {
                break;
            }
        }
        let ascii = whole && high == 0;
        // The byte that ends the name, as `byte` would take it, and on
        // into the attributes: a tag goes through without `step`'s
        // dispatch between its parts.
        let Some(&b) = self.src.as_bytes().get(self.pos) else {
            return;
        };
        // The loop stopped at the name's end: `b` ends it.
        let tag = match (whole, first) {
            (true, Some(first)) => self.run_tag(first),
            _ => self.tag_name.tag(),
        };
        if END {
            self.end_tag_named(ascii, tag);
        } else {
            self.start_tag_named(ascii, tag);
        }
        self.state = State::InTag;
        self.in_tag(b);
        self.pos += 1;
        if self.state == State::InTag {
            self.attrs_run();
        }
    }

    /// [`Self::tag_name_run`] from `step`: a tag cut by a chunk's end
    /// (after `<` or `</`, or inside the name).
    #[inline(never)]
    fn tag_name_resume<const END: bool>(&mut self) {
        self.tag_name_run::<END>();
    }

    /// An attribute name up to `=`, space, `/` or `>`: all code.
    fn attr_name_run(&mut self) {
        let bytes = &self.src.as_bytes()[self.pos..];
        let n = attr_name_end(bytes, 0).unwrap_or(bytes.len());
        for &b in &bytes[..n] {
            self.attr_name.push(b);
        }
        if n > 0 {
            self.prev_space = false;
            self.add_code_run(Run::of(self.src.as_bytes(), self.pos, self.pos + n));
        }
        self.pos += n;
        if self.pos < self.src.len() {
            self.byte_run();
        }
    }

    /// Text: counts characters up to the next `<`, then the tag there, and
    /// on into the text after it while the tag leaves the state at text
    /// (as `scan_to_end` would go, without `step`'s dispatch: a tag and
    /// the text after it are one turn of this loop rather than one of
    /// `scan_to_end`'s each).
    fn text_run(&mut self) {
        loop {
            let bytes = &self.src.as_bytes()[self.pos..];
            let len = bytes.len();
            // A whitespace run counts as one character, and only between two
            // non-space characters of the same text run: whitespace between
            // tags is formatting, not content. The run's state outlives a
            // chunk boundary, so chunking cannot change the counts.
            let (n, c) = text_count::count_to(b'<', bytes, &mut self.run);
            self.add_text(c.text);
            self.cur.high += c.high;
            self.cur.low += c.low;
            self.pos += n;
            if n == len {
                return;
            }
            self.run = RunState::default();
            self.tag_start = self.pos;
            self.pos += 1;
            self.state = State::TagOpen;
            // Straight on into the tag (as `step` would go, without its
            // dispatch): its first byte, then its name.
            if let Some(&b) = self.src.as_bytes().get(self.pos) {
                self.tag_open(b);
                self.pos += 1;
                match self.state {
                    State::TagName => self.tag_name_run::<false>(),
                    State::EndTagOpen => self.end_tag_start(),
                    _ => {}
                }
            }
            // `scan_to_end`'s test, and its dispatch for text.
            if self.state != State::Text || self.pos >= self.scan_end {
                return;
            }
        }
    }

    /// After `</`: the name's first byte, then the name (as `step` would
    /// go, without its dispatch).
    fn end_tag_start(&mut self) {
        if let Some(&b) = self.src.as_bytes().get(self.pos) {
            self.end_tag_open(b);
            self.pos += 1;
            if self.state == State::EndTagName {
                self.tag_name_run::<true>();
            }
        }
    }

    /// Attributes text characters to the current line and element.
    fn add_text(&mut self, n: u32) {
        if n == 0 {
            return;
        }
        self.after_heading = false;
        if self.opaque_depth > 0 {
            self.cur.code += n;
            return;
        }
        self.cur.text += n;
        if self.in_anchor {
            self.cur.anchor_text += n;
            self.anchor_text += n;
        }
        if self.boiler_depth > self.boiler_base {
            self.cur.boiler_text += n;
            if self.furniture_depth == self.furniture_base {
                self.cur.layout_text += n;
                if self.overlay_depth > self.overlay_base {
                    self.cur.overlay_text += n;
                }
            }
            if self.comment_depth > self.comment_base {
                self.cur.comment_text += n;
            }
        }
        if let Some(e) = self.elements.get_mut(self.container as usize) {
            e.text += n;
        }
    }

    /// Adds code characters (one per byte that starts a character).
    fn add_code_byte(&mut self, b: u8) {
        if b & 0xC0 != 0x80 {
            self.cur.code += 1;
            if self.in_anchor_tag() {
                self.cur.anchor_markup += 1;
            }
        }
        if b >= 0x80 {
            self.cur.high += 1;
        } else {
            self.cur.low += 1;
        }
    }

    /// [`Self::add_code_byte`] for a run of bytes at once.
    fn add_code_run(&mut self, run: Run) {
        self.add_code_run_in(run, self.in_anchor_tag());
    }

    /// [`Self::add_code_run`] where the caller knows whether the tag is
    /// an anchor's start tag (`in_anchor`): a start tag's name (where
    /// `is_end_tag` is false) or an end tag's (true), without the load of
    /// `is_end_tag` and its test.
    #[inline(always)]
    fn add_code_run_in(&mut self, run: Run, in_anchor: bool) {
        self.cur.code += run.chars;
        self.cur.high += run.high;
        self.cur.low += run.bytes - run.high;
        if in_anchor {
            self.cur.anchor_markup += run.chars;
        }
    }

    fn in_anchor_tag(&self) -> bool {
        self.tag == Tag::A && !self.is_end_tag
    }

    /// Inside a quoted attribute value: everything up to the closing quote
    /// is code, counted in one go (values are most of modern markup).
    fn value_run(&mut self, quote: u8) {
        let bytes = &self.src.as_bytes()[self.pos..];
        let n = text_count::find(quote, bytes).unwrap_or(bytes.len());
        let run = &bytes[..n];
        if self.capture != Capture::None {
            let room = VALUE_CAP.saturating_sub(self.value.len()).min(n);
            self.value.extend_from_slice(&run[..room]);
        }
        self.add_code_run(Run::of(self.src.as_bytes(), self.pos, self.pos + n));
        self.pos += n;
        if self.pos < self.src.len() {
            let b = self.src.as_bytes()[self.pos];
            self.value_quoted(b, quote);
            self.pos += 1;
        }
    }

    /// An unquoted attribute value (`width=100`, common in older markup)
    /// up to its end, space or `>`: code, kept as `value_unquoted` keeps it
    /// byte by byte; then that end, and on into the attributes.
    fn unquoted_run(&mut self) {
        let bytes = &self.src.as_bytes()[self.pos..];
        let n = unquoted_value_end(bytes).unwrap_or(bytes.len());
        if self.capture != Capture::None {
            let room = VALUE_CAP.saturating_sub(self.value.len()).min(n);
            self.value.extend_from_slice(&bytes[..room]);
        }
        if n > 0 {
            self.prev_space = false;
            self.add_code_run(Run::of(self.src.as_bytes(), self.pos, self.pos + n));
        }
        self.pos += n;
        let Some(&b) = self.src.as_bytes().get(self.pos) else {
            return;
        };
        self.value_unquoted(b);
        self.pos += 1;
        if self.state == State::InTag {
            self.attrs_run();
        }
    }

    fn comment_run(&mut self, dashes: u8) {
        let bytes = &self.src.as_bytes()[self.pos..];
        match comment_end(bytes, dashes) {
            Ok(end) => {
                self.pos += end;
                self.state = State::Text;
            }
            Err(dashes) => {
                self.pos += bytes.len();
                self.state = State::Comment(dashes);
            }
        }
    }

    /// Raw text being skipped (or counted, for textarea): jump to the next `<`.
    fn raw_run(&mut self) {
        if self.raw_mode == RawMode::Skip {
            self.skip_raw();
            return;
        }
        // A title must close within TITLE_CAP bytes. The window does not
        // depend on chunking, so neither does the outcome.
        let mut end = self.src.len();
        if self.raw_mode == RawMode::Title {
            let window = self.raw_start + TITLE_CAP;
            if self.pos >= window {
                self.abandon_title();
                return;
            }
            end = end.min(window);
        }
        let bytes = &self.src.as_bytes()[self.pos..end];
        let len = bytes.len();
        let n = memchr::memchr(b'<', bytes).unwrap_or(len);
        let chars = if self.raw_mode == RawMode::Textarea {
            bytes[..n].iter().filter(|&&b| b & 0xC0 != 0x80).count() as u32
        } else {
            0
        };
        self.add_text(chars);
        self.pos += n;
        if n < len {
            self.tag_start = self.pos;
            self.pos += 1;
            self.state = State::Raw(1);
        }
    }

    /// Script and style, which count as nothing: every `<` is tried as
    /// `</name` plus a terminator in place, and the search goes on after a
    /// miss, so a script full of `<` never leaves this loop. Only a `<`
    /// too close to the end of the buffer to decide is left to the byte
    /// states (`raw_byte`), which read exactly the same.
    fn skip_raw(&mut self) {
        let name = self.raw_name.get();
        let len = self.src.len();
        loop {
            let bytes = &self.src.as_bytes()[self.pos..];
            let Some(i) = memchr::memchr(b'<', bytes) else {
                self.pos = len;
                return;
            };
            let at = self.pos + i;
            self.tag_start = at;
            let Some(closes) = closes_raw(&self.src.as_bytes()[at..], name) else {
                self.pos = at + 1;
                self.state = State::Raw(1);
                return;
            };
            if closes {
                let term = self.src.as_bytes()[at + name.len() + 2];
                self.pos = at + name.len() + 3;
                self.leave_raw(term);
                return;
            }
            self.pos = at + 1;
        }
    }

    fn byte(&mut self, b: u8) {
        match self.state {
            // Handled by the run functions in `step`.
            State::Text | State::Comment(_) => {}
            State::TagOpen => self.tag_open(b),
            State::TagName => self.tag_name_byte(b, false),
            State::EndTagOpen => self.end_tag_open(b),
            State::EndTagName => self.end_tag_name_byte(b, false),
            State::InTag => self.in_tag(b),
            State::AttrName => self.attr_name_byte(b),
            State::AfterAttrName => self.after_attr_name(b),
            State::BeforeValue => self.before_value(b),
            State::ValueQuoted(q) => self.value_quoted(b, q),
            State::ValueUnquoted => self.value_unquoted(b),
            State::Decl(n) => self.decl(b, n),
            State::Bogus => {
                if b == b'>' {
                    self.state = State::Text;
                }
            }
            State::Raw(n) => self.raw_byte(b, n),
        }
    }

    // Inlined into both callers, the run functions and `byte` (every
    // tag passes through these): -1 % instructions, +1 % time.
    //
    // A name's first byte is left where it is, for `tag_name_run` to
    // read with the rest (as `end_tag_open` leaves it): the buffer's
    // first sixteen bytes are then one store, where a store of the first
    // byte and one of the block beside it made the wide loads of the name
    // that followed (`pop_to`'s `Name::short`, `push_open`'s copy,
    // `Name::key`) wait for both stores (perf: `pop_to` 1.2 % → 0.9 % of
    // the samples in one run, though its load of the name still holds
    // some; −4.5 M instructions on every 15th page, the solid part).
    #[inline(always)]
    fn tag_open(&mut self, b: u8) {
        if b.is_ascii_alphabetic() {
            self.tag_name.clear();
            self.is_end_tag = false;
            self.state = State::TagName;
            self.pos -= 1;
        } else if b == b'/' {
            self.state = State::EndTagOpen;
        } else if b == b'!' {
            self.state = State::Decl(0);
        } else if b == b'?' {
            self.state = State::Bogus;
        } else {
            // A lone '<' is text; re-read this byte as text.
            self.prev_space = false;
            self.add_text(1);
            self.cur.low += 1;
            self.state = State::Text;
            self.pos -= 1;
        }
    }

    /// `ascii`: the tag so far is known to be ASCII (see `tag_name_run`).
    #[inline(always)]
    fn tag_name_byte(&mut self, b: u8, ascii: bool) {
        if ends_tag_name(b) {
            self.start_tag_named(ascii, self.tag_name.tag());
            self.state = State::InTag;
            self.in_tag(b);
        } else {
            self.tag_name.push(b);
        }
    }

    /// The name of a start tag is known: break the line if it is a block,
    /// and count the tag so far as code.
    // Inlined into `tag_name_run` (and `byte`), as `end_tag_named` is:
    // the call and a second save of the registers were 2.0 M instructions
    // on p15 (2.9 M for end tags). Not so `push_open` (inlined, 4.7 M
    // more) nor `begin_capture` (1.5 M more).
    #[inline(always)]
    fn start_tag_named(&mut self, ascii: bool, tag: Tag) {
        self.tag = tag;
        let long = self.cur.text + self.cur.code > self.limits.wrap;
        if self.tag.breaks_line() || long {
            self.close_line(self.tag_start);
        }
        if let Some(level) = self.tag.heading_level()
            && self.cur.start as usize == self.tag_start
        {
            self.cur.heading = level;
        }
        if self.tag == Tag::A {
            self.open_anchor();
        }
        let cost = self.tag_name.len.min(NAME_CAP) as u32 + 2;
        self.cur.bare += cost;
        if self.tag == Tag::Other {
            self.cur.inline_bare += cost;
        }
        self.tag_signal = Signal::Neutral;
        // `<main>` and `<article>` are set in `push_open`, the one place
        // their names count: most tags never get there.
        self.tag_main = false;
        self.tag_page_main = false;
        self.tag_hidden = false;
        self.tag_panel = false;
        self.tag_dialog = false;
        self.tag_class = (0, 0);
        self.meta_is_title = false;
        self.meta_content.clear();
        // A start tag: `tag_open` set `is_end_tag` to false.
        debug_assert!(!self.is_end_tag);
        self.add_code_run_in(self.tag_run(ascii), self.tag == Tag::A);
    }

    /// What `self.tag_name.tag()` says once `tag_name_run` has read a
    /// whole name from its first byte: `first` is the name's first block,
    /// lowercase. A name short enough for a key is keyed from `first`
    /// where it is, in a register: read back from the buffer, the key
    /// waited on the store (perf: 12 to 18 % of `tag_name_run`'s samples
    /// on the key).
    #[inline(always)]
    fn run_tag(&self, first: u8x16) -> Tag {
        let len = self.tag_name.len;
        if len > tags::KEY_NAME_MAX {
            return self.tag_name.tag();
        }
        // The block's low eight bytes.
        let bytes = u128::from_le_bytes(first.to_array()) as u64;
        Tag::by_key(tags::word_key(bytes, len))
    }

    /// The counts of the tag so far (`<` or `</` and the name), read
    /// again only when it is not known to be ASCII.
    #[inline(always)]
    fn tag_run(&self, ascii: bool) -> Run {
        match ascii {
            true => Run::ascii(self.pos - self.tag_start),
            false => Run::of(self.src.as_bytes(), self.tag_start, self.pos),
        }
    }

    /// A name's first byte is left for `tag_name_run` (see `tag_open`).
    fn end_tag_open(&mut self, b: u8) {
        if b.is_ascii_alphabetic() {
            self.tag_name.clear();
            self.is_end_tag = true;
            self.state = State::EndTagName;
            self.pos -= 1;
        } else if b == b'>' {
            self.state = State::Text;
        } else {
            self.state = State::Bogus;
        }
    }

    #[inline(always)]
    fn end_tag_name_byte(&mut self, b: u8, ascii: bool) {
        if ends_tag_name(b) {
            self.end_tag_named(ascii, self.tag_name.tag());
            self.state = State::InTag;
            self.in_tag(b);
        } else {
            self.tag_name.push(b);
        }
    }

    /// The name of an end tag is known: count it, and close the anchor or
    /// the elements it ends. Inlined, as `start_tag_named` is.
    #[inline(always)]
    fn end_tag_named(&mut self, ascii: bool, tag: Tag) {
        let cost = self.tag_name.len.min(NAME_CAP) as u32 + 3;
        self.cur.bare += cost;
        if tag == Tag::Other {
            self.cur.inline_bare += cost;
        }
        // An end tag: never an anchor's start tag.
        debug_assert!(self.is_end_tag);
        self.add_code_run_in(self.tag_run(ascii), false);
        if tag == Tag::A {
            if self.in_anchor {
                self.cur.anchor_markup += 4;
            }
            self.close_anchor();
        } else if tag.is_tracked() || (self.hidden_inline > 0 && tag.stacks_when_hidden()) {
            self.pop_to(tag);
        }
        // Any other end tag between a heading and a hidden element means
        // the element is not the heading's own (`</h6></div><div hidden>`:
        // an error message under a form's title).
        self.after_heading = tag.is_heading();
        // End tags carry no attributes worth reading.
        self.tag = Tag::Other;
    }

    #[inline(always)]
    fn in_tag(&mut self, b: u8) {
        match b {
            b'>' => self.tag_closed(),
            b'/' => self.add_code_byte(b),
            _ if is_space(b) => self.code_space(),
            _ => {
                self.attr_name.clear();
                self.attr_name.push(b);
                self.add_code_byte(b);
                self.state = State::AttrName;
            }
        }
    }

    fn code_space(&mut self) {
        if !self.prev_space {
            self.cur.code += 1;
            self.cur.low += 1;
            if self.in_anchor_tag() {
                self.cur.anchor_markup += 1;
            }
        }
        self.prev_space = true;
    }

    fn attr_name_byte(&mut self, b: u8) {
        match b {
            b'=' => {
                self.add_code_byte(b);
                self.begin_capture();
                self.state = State::BeforeValue;
            }
            b'>' => {
                self.name_without_value();
                self.tag_closed();
            }
            b'/' => {
                self.name_without_value();
                self.add_code_byte(b);
                self.state = State::InTag;
            }
            _ if is_space(b) => {
                // A value may still follow (`hidden = "…"`): the name is
                // taken as ending here, whatever follows.
                self.name_without_value();
                self.code_space();
                self.state = State::AfterAttrName;
            }
            _ => {
                self.prev_space = false;
                self.attr_name.push(b);
                self.add_code_byte(b);
            }
        }
    }

    /// An attribute name ended without `=` right after it: the boolean
    /// `hidden` (the HTML way to hide an element) is the one read.
    fn name_without_value(&mut self) {
        if (self.tag.is_stacked() || self.tag.stacks_when_hidden())
            && self.attr_name.get() == b"hidden"
        {
            self.tag_hidden = true;
        }
    }

    fn after_attr_name(&mut self, b: u8) {
        match b {
            b'=' => {
                self.add_code_byte(b);
                self.begin_capture();
                self.state = State::BeforeValue;
            }
            _ if is_space(b) => self.code_space(),
            _ => {
                self.state = State::InTag;
                self.in_tag(b);
            }
        }
    }

    fn before_value(&mut self, b: u8) {
        match b {
            b'"' | b'\'' => {
                self.add_code_byte(b);
                self.state = State::ValueQuoted(b);
            }
            b'>' => self.tag_closed(),
            _ if is_space(b) => self.code_space(),
            _ => {
                self.state = State::ValueUnquoted;
                self.value_unquoted(b);
            }
        }
    }

    fn value_quoted(&mut self, b: u8, quote: u8) {
        self.add_code_byte(b);
        if b == quote {
            self.end_value();
            self.state = State::InTag;
        } else {
            self.capture_byte(b);
        }
    }

    fn value_unquoted(&mut self, b: u8) {
        if is_space(b) {
            self.end_value();
            self.code_space();
            self.state = State::InTag;
        } else if b == b'>' {
            self.end_value();
            self.tag_closed();
        } else {
            self.prev_space = false;
            self.add_code_byte(b);
            self.capture_byte(b);
        }
    }

    /// `hidden="…"` or `style="…"` read where it lies on a tag that is not
    /// stacked unless hidden (see `Tag::stacks_when_hidden`); apart, as
    /// most attributes of spans are not these.
    #[inline(never)]
    fn unstacked_hiding(&mut self, start: usize, name: usize, len: usize) {
        let bytes = self.src.as_bytes();
        let value = &bytes[start + name + 2..start + len - 1];
        // As the byte states keep it: a value cut at the cap, so a page
        // fed in pieces (the attribute split between them) reads the same.
        let value = &value[..value.len().min(VALUE_CAP)];
        let name = &bytes[start..start + name];
        self.tag_hidden |= if name.len() == 6 {
            name.eq_ignore_ascii_case(b"hidden") && hidden_hides(value)
        } else {
            name.eq_ignore_ascii_case(b"style") && hides_element(value)
        };
    }

    /// Decides whether the value of the attribute just named is kept.
    ///
    /// class, id, role and itemprop only matter on elements that go on the
    /// stack (`push_open`): on every other tag (span, a, img, p, ...) they
    /// are not read at all, which spares most of the class lists.
    fn begin_capture(&mut self) {
        debug_assert!(
            self.reads_attributes()
                || self.tag.stacks_when_hidden()
                || self.capture_for_name() == Capture::None
        );
        self.value.clear();
        self.capture = self.capture_for_name();
    }

    /// Can the tag being read keep an attribute's value at all (the tags
    /// `capture_for_name` names: stacked ones, `<html>` among them,
    /// `<meta>`, and headings for their class and id)?
    fn reads_attributes(&self) -> bool {
        self.tag.is_stacked() || self.tag == Tag::Meta || self.tag.is_heading()
    }

    /// Does the tag being read keep its class and id (stacked tags and
    /// headings)?
    fn reads_class_and_id(&self) -> bool {
        self.tag.is_stacked() || self.tag.is_heading()
    }

    fn capture_for_name(&self) -> Capture {
        let stacked = self.tag.is_stacked();
        let class_and_id = self.reads_class_and_id();
        match (self.tag, self.attr_name.get()) {
            (_, b"class") if class_and_id => Capture::ClassId,
            (_, b"id") if class_and_id => Capture::Id,
            (Tag::Meta, b"property" | b"name") => Capture::MetaKey,
            (Tag::Meta, b"content") => Capture::MetaContent,
            (Tag::Html, b"lang") => Capture::Lang,
            (_, b"role" | b"itemprop") if stacked => Capture::Role,
            (_, b"style") if stacked || self.tag.stacks_when_hidden() => Capture::Style,
            (_, b"hidden") if stacked || self.tag.stacks_when_hidden() => Capture::Hidden,
            (_, b"aria-labelledby") if stacked => Capture::Labelled,
            _ => Capture::None,
        }
    }

    fn capture_byte(&mut self, b: u8) {
        if self.capture != Capture::None && self.value.len() < VALUE_CAP {
            self.value.push(b);
        }
    }

    /// What a class or id value says, added to the tag's signal: the
    /// greater wins (see [`Signal`]'s order).
    fn class_signal(&mut self, signal: Signal) {
        self.tag_signal = self.tag_signal.max(signal);
    }

    /// What a class or id value says ([`read_class_or_id`]), taken into the
    /// tag being read.
    fn class_or_id(&mut self, (signal, main): (Signal, bool)) {
        self.class_signal(signal);
        self.tag_page_main |= main;
    }

    fn end_value(&mut self) {
        match self.capture {
            Capture::None => {}
            Capture::ClassId | Capture::Id => {
                let read = read_class_or_id(&mut self.memo, self.capture, &self.value);
                self.class_or_id(read);
                if self.capture == Capture::ClassId {
                    self.tag_panel |= names_a_panel(&self.value);
                } else {
                    self.tag_panel |= is_streamed_segment(&self.value);
                }
            }
            Capture::MetaKey => {
                let v = &self.value;
                self.meta_is_title |=
                    v.eq_ignore_ascii_case(b"og:title") || v.eq_ignore_ascii_case(b"twitter:title");
            }
            Capture::MetaContent => {
                self.meta_content.clear();
                self.meta_content.extend_from_slice(&self.value);
            }
            Capture::Role => {
                let main = self.value.eq_ignore_ascii_case(b"main");
                if main || self.value.eq_ignore_ascii_case(b"articleBody") {
                    self.tag_main = true;
                }
                self.tag_page_main |= main;
                self.tag_panel |= self.value.eq_ignore_ascii_case(b"tabpanel")
                    || self.value.eq_ignore_ascii_case(b"region");
                if is_furniture_role(&self.value) {
                    self.class_signal(Signal::Boilerplate);
                    self.tag_dialog |= is_dialog_role(&self.value);
                }
            }
            Capture::Style => self.tag_hidden |= hides_element(&self.value),
            Capture::Hidden => self.tag_hidden |= hidden_hides(&self.value),
            Capture::Labelled => self.tag_panel = true,
            Capture::Lang => {
                if self.info.lang.is_empty() {
                    self.info.lang = String::from_utf8_lossy(&self.value).into_owned();
                }
            }
        }
        self.capture = Capture::None;
    }

    /// `>` of a tag: code, then act on the tag.
    #[inline(always)]
    fn tag_closed(&mut self) {
        if self.capture != Capture::None {
            self.end_value();
        }
        self.add_code_byte(b'>');
        self.prev_space = false;
        self.state = State::Text;
        if self.is_end_tag {
            return;
        }
        match self.tag {
            Tag::RawText => {
                self.raw_ld_json = self.is_ld_json();
                self.enter_raw(RawMode::Skip)
            }
            Tag::Title if !self.title_done && self.opaque_depth == 0 => {
                self.enter_raw(RawMode::Title)
            }
            Tag::Title => self.enter_raw(RawMode::Skip),
            Tag::Textarea => self.enter_raw(RawMode::Textarea),
            Tag::Meta => self.meta_closed(),
            // A heading's class and id are read for the comment word alone
            // (it opens no element of its own).
            Tag::H1 | Tag::H2 | Tag::H3 | Tag::H4 | Tag::H5 | Tag::H6 => {
                self.cur.comment_heading |=
                    self.cur.heading > 0 && self.tag_signal == Signal::Comment
            }
            t if t.is_stacked() => self.push_open(t),
            Tag::Void if self.tag_name.get() == b"link" => self.mark_tag(),
            t if t.stacks_when_hidden() && (self.tag_hidden || self.hidden_inline > 0) => {
                let depth = self.stack.len();
                self.push_open(t);
                self.hidden_inline += u32::from(self.stack.len() > depth);
            }
            Tag::Other if self.tag_name.len == 4 && self.tag_name.get() == b"time" => {
                self.mark_tag()
            }
            _ => {}
        }
    }

    /// Marks the tag just closed (`<meta>`, `<link>`, `<time>`) for
    /// metadata.
    fn mark_tag(&mut self) {
        let end = (self.pos + 1).min(self.src.len());
        self.info.meta.tag(self.tag_start, end);
    }

    /// Is the tag just closed a `<script>` of JSON-LD? Its own source
    /// is searched, a few dozen bytes.
    fn is_ld_json(&self) -> bool {
        self.tag_name.get() == b"script"
            && self
                .src
                .as_bytes()
                .get(self.tag_start..self.pos)
                .is_some_and(|tag| memchr::memmem::find(tag, b"ld+json").is_some())
    }

    fn meta_closed(&mut self) {
        self.mark_tag();
        if self.meta_is_title && self.info.og_title.is_empty() {
            self.info.og_title = String::from_utf8_lossy(&self.meta_content).into_owned();
        }
    }

    fn enter_raw(&mut self, mode: RawMode) {
        self.raw_mode = mode;
        self.raw_name = self.tag_name;
        self.raw_start = self.pos + 1;
        self.state = State::Raw(0);
    }

    /// Raw text, byte by byte: matching `</name`.
    fn raw_byte(&mut self, b: u8, matched: u8) {
        let name = self.raw_name.get();
        let m = matched as usize;
        let ok = match m {
            0 => b == b'<',
            1 => b == b'/',
            _ if m - 2 < name.len() => b.to_ascii_lowercase() == name[m - 2],
            _ => ends_tag_name(b),
        };
        if ok && m >= 2 + name.len() {
            self.leave_raw(b);
        } else if ok {
            self.state = State::Raw(matched + 1);
        } else {
            self.raw_text_bytes(matched, b);
        }
    }

    /// Bytes that turned out not to end the raw element.
    fn raw_text_bytes(&mut self, matched: u8, b: u8) {
        if self.raw_mode == RawMode::Textarea {
            self.add_text(u32::from(matched) + 1);
        }
        if b == b'<' {
            self.tag_start = self.pos;
            self.state = State::Raw(1);
        } else {
            self.state = State::Raw(0);
        }
    }

    /// A `<title>` with no `</title>` in sight (truncated or broken pages)
    /// would swallow the page: the title ends at its first line break or
    /// `<` instead, and scanning resumes there as ordinary markup.
    fn abandon_title(&mut self) {
        // Only the title window is searched, so the result does not depend
        // on how much of the page has arrived.
        // The window ends on a character boundary: TITLE_CAP bytes may
        // fall inside a multi-byte character.
        let window = floor_char_boundary(&self.src[self.raw_start..], TITLE_CAP);
        let raw = &self.src.as_bytes()[self.raw_start..self.raw_start + window];
        let end = raw.iter().position(|&b| b == b'<' || b == b'\n');
        let end = end.unwrap_or(raw.len());
        let title = &self.src[self.raw_start..self.raw_start + end];
        self.info.title = title.to_string();
        self.title_done = true;
        self.pos = self.raw_start + end;
        self.state = State::Text;
    }

    fn leave_raw(&mut self, b: u8) {
        if self.raw_ld_json {
            self.raw_ld_json = false;
            self.info.meta.script(self.raw_start, self.tag_start);
        }
        if self.raw_mode == RawMode::Title {
            self.title_done = true;
            let raw = &self.src[self.raw_start..self.tag_start];
            let end = floor_char_boundary(raw, TITLE_CAP);
            self.info.title = raw[..end].to_string();
        }
        self.state = if b == b'>' { State::Text } else { State::Bogus };
    }

    fn decl(&mut self, b: u8, dashes: u8) {
        match (b, dashes) {
            (b'-', 0) => self.state = State::Decl(1),
            (b'-', _) => self.state = State::Comment(0),
            (b'>', _) => self.state = State::Text,
            _ => self.state = State::Bogus,
        }
    }

    fn open_anchor(&mut self) {
        if self.in_anchor {
            self.close_anchor();
        }
        self.in_anchor = true;
        self.anchor_line = self.lines.len();
        self.anchor_text = 0;
        self.cur.anchors += 1;
    }

    fn close_anchor(&mut self) {
        if !self.in_anchor {
            return;
        }
        self.in_anchor = false;
        let norm = self.anchor_text.saturating_sub(7);
        match self.lines.get_mut(self.anchor_line) {
            Some(line) => line.anchor_norm += norm,
            None => self.cur.anchor_norm += norm,
        }
    }

    /// End tags HTML lets authors omit: a new `<li>` closes the open one, a
    /// new cell closes the open cell, a new row the open row.
    fn close_implied(&mut self, name: &[u8]) {
        // Patterns, not a list of names: `contains` would call memcmp for
        // each.
        let closes: fn(&[u8]) -> bool = match name {
            b"li" => |open| matches!(open, b"li"),
            b"td" | b"th" => |open| matches!(open, b"td" | b"th"),
            b"tr" => |open| matches!(open, b"td" | b"th" | b"tr"),
            b"dd" => |open| matches!(open, b"dd"),
            b"tbody" | b"thead" | b"tfoot" => {
                |open| matches!(open, b"td" | b"th" | b"tr" | b"tbody" | b"thead" | b"tfoot")
            }
            _ => return,
        };
        while let Some(top) = self.stack.last() {
            if !closes(top.name.get()) {
                break;
            }
            self.pop();
        }
    }

    /// The tag's `class` value where it lies, when read whole (see
    /// `tag_class`); empty otherwise.
    fn class_value(&self) -> &[u8] {
        let (start, len) = self.tag_class;
        self.src
            .as_bytes()
            .get(start..start + len)
            .unwrap_or_default()
    }

    fn push_open(&mut self, tag: Tag) {
        let name = self.tag_name.short();
        if tag == Tag::Container {
            const ARTICLE: u64 = tags::name_key(b"article");
            const MAIN: u64 = tags::name_key(b"main");
            let key = name.key();
            self.tag_main |= key == ARTICLE || key == MAIN;
            self.tag_page_main |= key == MAIN;
        }
        self.close_implied(name.get());
        // A heading's reach ends at the first element opened after it.
        let after_heading = std::mem::take(&mut self.after_heading);
        if self.tag_hidden && !self.tag_panel {
            // Right after a heading, a hidden element is that heading's
            // panel whatever its class says: accordions built of hashed
            // class names (`<h3><button aria-expanded="false">Weight</button>
            // </h3><div hidden class="css-1k075w5">`) or of words no list
            // could hold (`<h3>Question?</h3><div class="content"
            // style="display: none">`). Menus and pop-ups rarely sit under
            // a heading of their own, and those in a footer or a sidebar
            // stay marked by it.
            self.tag_panel = after_heading || names_a_panel(self.class_value());
        }
        if self.tag_main {
            self.tag_signal = Signal::Content;
        }
        let boiler = match (tag, self.tag_signal) {
            // A page hidden whole until its scripts run is still the page.
            (Tag::Html | Tag::Body, _) if self.tag_hidden => false,
            // Hidden text is furniture whatever the element is called.
            _ if self.tag_hidden && !self.tag_panel => true,
            // Page-wide classes (`<html class="sidebar-visible">`) say
            // nothing about content.
            (Tag::Html | Tag::Body, _) => false,
            (_, Signal::Content) => false,
            (Tag::Landmark, _)
            | (_, Signal::Boilerplate | Signal::Comment | Signal::Layout | Signal::Overlay) => true,
            (Tag::Header, _) => self.content_depth == 0,
            _ => false,
        };
        if self.stack.len() >= self.limits.max_depth {
            self.overflow += 1;
            return;
        }
        let content = self.tag_signal == Signal::Content;
        let opaque = tag == Tag::Opaque;
        let element = self.record_element(tag, boiler);
        // Boilerplate by its name or a furniture word, not by layout words
        // alone (see `Line::layout_text`).
        let furniture = boiler
            && (tag == Tag::Landmark
                || (self.tag_hidden && !self.tag_panel)
                || !matches!(self.tag_signal, Signal::Layout | Signal::Overlay));
        let comment = boiler && self.tag_signal == Signal::Comment;
        let overlay = boiler && self.tag_signal == Signal::Overlay;
        // The bases are read before the depths beside them are written:
        // read after, as one 16-byte load over those stores, they waited
        // for the stores to complete (perf: a third of `push_open`'s
        // samples).
        let bases = (
            self.boiler_base,
            self.furniture_base,
            self.comment_base,
            self.overlay_base,
        );
        self.boiler_depth += u32::from(boiler);
        self.furniture_depth += u32::from(furniture);
        self.comment_depth += u32::from(comment);
        self.overlay_depth += u32::from(overlay);
        self.opaque_depth += u32::from(opaque);
        self.content_depth += u32::from(content);
        if self.tag_page_main {
            self.boiler_base = self.boiler_depth;
            self.furniture_base = self.furniture_depth;
            self.comment_base = self.comment_depth;
            self.overlay_base = self.overlay_depth;
        }
        self.stack.push(Open {
            tag,
            name,
            element,
            boiler,
            furniture,
            comment,
            overlay,
            opaque,
            content,
            bases,
        });
        if element != NO_ELEMENT {
            self.container = element;
        }
    }

    fn record_element(&mut self, tag: Tag, boiler: bool) -> u32 {
        let wanted = matches!(
            tag,
            Tag::Container | Tag::Landmark | Tag::Header | Tag::Body
        );
        if !wanted || self.elements.len() >= self.limits.max_elements {
            return NO_ELEMENT;
        }
        let line = self.lines.len() as u32;
        self.elements.push(Element {
            tag,
            parent: self.container,
            first_line: line,
            last_line: line,
            text: 0,
            signal: self.tag_signal,
            boiler,
            landmark_main: self.tag_main,
            article: self.tag_main && !self.tag_page_main,
            dialog: boiler && self.tag_dialog,
            form: tag == Tag::Container && self.tag_name.get() == b"form",
        });
        (self.elements.len() - 1) as u32
    }

    /// Closes the innermost open element with this name, and everything
    /// above it (as browsers do for mis-nested blocks); a stray end tag with
    /// no open element of its name is ignored.
    fn pop_to(&mut self, tag: Tag) {
        if self.overflow > 0 {
            self.overflow -= 1;
            return;
        }
        let name = self.tag_name.short();
        let found = self
            .stack
            .iter()
            .rev()
            .position(|o| o.tag == tag && o.name == name);
        if let Some(k) = found {
            for _ in 0..=k {
                self.pop();
            }
        }
    }

    fn pop(&mut self) {
        if let Some(open) = self.stack.pop() {
            self.boiler_depth -= u32::from(open.boiler);
            self.furniture_depth -= u32::from(open.furniture);
            self.comment_depth -= u32::from(open.comment);
            self.overlay_depth -= u32::from(open.overlay);
            self.opaque_depth -= u32::from(open.opaque);
            self.hidden_inline -= u32::from(open.tag.stacks_when_hidden());
            self.content_depth -= u32::from(open.content);
            (
                self.boiler_base,
                self.furniture_base,
                self.comment_base,
                self.overlay_base,
            ) = open.bases;
            self.close_element(open.element);
        }
    }

    /// Ends a recorded element at the current line and hands its text up to
    /// its parent, so every element's `text` covers its whole subtree.
    fn close_element(&mut self, element: u32) {
        let line = self.lines.len() as u32;
        if let Some(e) = self.elements.get_mut(element as usize) {
            e.last_line = line;
            let (parent, text) = (e.parent, e.text);
            if let Some(p) = self.elements.get_mut(parent as usize) {
                p.text += text;
            }
            self.container = parent;
        }
    }

    /// `lines.push(cur)` when the vector is full: apart, as it is rare
    /// (`reserve_lines` makes room for most pages' lines up front).
    #[cold]
    #[inline(never)]
    fn push_line_growing(&mut self, end: u32) {
        self.lines.push(Line { end, ..self.cur });
    }

    /// Ends the current line at byte `at` and starts the next one there.
    // Inlined: its caller on the hot path, `start_tag_named` in
    // `text_run`'s loop, saved and reloaded the registers it holds
    // around the call (−1.55 M instructions on every 15th page).
    #[inline(always)]
    fn close_line(&mut self, at: usize) {
        let end = at as u32;
        if end > self.cur.start || self.cur.text + self.cur.code > 0 {
            // With room known, `push` has no call to grow the vector, and
            // the line is stored straight from `cur` rather than first
            // copied aside in case that call changes it. Its end is set
            // in the copy: stored into `cur` first, the copy's wide loads
            // waited for that store to complete (perf: a tenth of
            // `tag_name_run`'s samples).
            if self.lines.len() < self.lines.capacity() {
                self.lines.push(Line { end, ..self.cur });
            } else {
                self.push_line_growing(end);
            }
            if self.lines.len() > self.limits.max_lines {
                self.scan_end = 0;
            }
        }
        self.cur = Line {
            start: at as u32,
            end: at as u32,
            container: self.container,
            ..Line::default()
        };
    }
}

/// Character counts of a run of bytes (one character per byte that starts
/// one, as in [`Scanner::add_code_byte`]).
#[derive(Debug, Clone, Copy)]
struct Run {
    bytes: u32,
    chars: u32,
    /// Bytes ≥ 128.
    high: u32,
}

impl Run {
    /// The counts of `len` ASCII bytes.
    #[inline]
    fn ascii(len: usize) -> Run {
        Run {
            bytes: len as u32,
            chars: len as u32,
            high: 0,
        }
    }

    /// The counts of `src[start..end]`. A run of up to sixteen bytes (most
    /// tag names and attributes) is one block read from `src` (past `end`
    /// where it is there, masked off): no byte loop and no branch per byte.
    /// Longer ASCII runs (most values) take `is_ascii`'s word loop.
    #[inline(always)]
    fn of(src: &[u8], start: usize, end: usize) -> Run {
        let bytes = end.saturating_sub(start) as u32;
        if bytes <= 16 {
            let block = Block::at(src, start);
            let keep = (1u32 << bytes) - 1;
            let top = block.v.to_bitmask() & keep;
            let (high, continuation) = if top == 0 {
                (0, 0)
            } else {
                let continuation = block.continuations() & keep;
                (text_count::marked(top), text_count::marked(continuation))
            };
            return Run {
                bytes,
                chars: bytes - continuation,
                high,
            };
        }
        let run = src.get(start..end).unwrap_or_default();
        if run.is_ascii() {
            return Run {
                bytes,
                chars: bytes,
                high: 0,
            };
        }
        let (continuation, high) = mixed_counts(run);
        Run {
            bytes,
            chars: bytes - continuation,
            high,
        }
    }
}

/// The continuation bytes and the high bytes of a run that is not all
/// ASCII (long values with accented text, JSON in `data-` attributes),
/// sixteen bytes at a time: the byte loop LLVM made of it took four bytes
/// a step with a dozen instructions each, inlined into the attribute
/// loop; out of line, as such runs are few.
#[inline(never)]
fn mixed_counts(run: &[u8]) -> (u32, u32) {
    let (mut continuation, mut high) = (0u32, 0u32);
    let mut chunks = run.chunks_exact(16);
    for chunk in &mut chunks {
        let v = u8x16::new(chunk.try_into().unwrap_or_default());
        continuation += text_count::marked(super::blocks::continuations(v));
        high += text_count::marked(v.to_bitmask());
    }
    for &b in chunks.remainder() {
        continuation += u32::from(b & 0xC0 == 0x80);
        high += u32::from(b >= 0x80);
    }
    (continuation, high)
}

/// `v` with its ASCII capitals lowercased, as `u8::to_ascii_lowercase`
/// does byte by byte.
#[inline]
fn lowercase(v: u8x16) -> u8x16 {
    let offset = v - u8x16::splat(b'A');
    let upper = offset.min(u8x16::splat(25)).simd_eq(offset);
    v | (upper & u8x16::splat(0x20))
}

/// Does `b` end a tag name (and so a raw element's `</name`)?
pub(crate) fn ends_tag_name(b: u8) -> bool {
    is_space(b) || b == b'/' || b == b'>'
}

/// Does `bytes`, from a `<`, end the raw text of element `name` (lowercase):
/// `</name`, any case, then whitespace, `/` or `>`, as the tokenizer ends
/// script, style, title and the like? `None` when `bytes` is too short to
/// tell.
pub(crate) fn closes_raw(bytes: &[u8], name: &[u8]) -> Option<bool> {
    let candidate = bytes.get(..name.len() + 3)?;
    Some(
        candidate[1] == b'/'
            && candidate[2..2 + name.len()].eq_ignore_ascii_case(name)
            && ends_tag_name(candidate[name.len() + 2]),
    )
}

/// A complete `name="value"` (or `name='value'`) attribute.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct QuotedAttr {
    /// Bytes of the name.
    name: usize,
    /// Bytes of the whole attribute, closing quote included.
    len: usize,
    /// All of them ASCII (one character each, none high).
    ascii: bool,
}

/// The whitespace at `at` (its length) and the whole quoted attribute
/// after it, if there is one: what `leading_spaces` (now the tests'
/// reference) and [`quoted_attribute`] find, read from one block where
/// the spaces, the name, `=` and the opening quote fit in it (most
/// attributes: ` class="`), and the closing quote too where the value is
/// short (` id="x"`): the block is loaded and tested once rather than
/// once by each search. Sixteen spaces or more fill the block: then it says
/// sixteen and no attribute, and the caller reads on from there (the
/// rest of the run goes through `code_space` again, which counts a run
/// once however often it is called).
#[inline(always)]
fn next_attribute(bytes: &[u8], at: usize) -> (usize, Option<QuotedAttr>) {
    let block = Block::at_whole_first(bytes, at);
    let space = text_count::spaces(block.v);
    // Bits 16 and up of the complement are set: at most 16.
    let spaces = (!space).trailing_zeros() as usize;
    if spaces == 16 {
        return (spaces, None);
    }
    // The name's first byte is anything but space, `/` and `>` (padding
    // passes this test: a name that runs into it is left to
    // `quoted_attribute` below); the name ends at space, `=`, `/` or `>`
    // after it.
    let equals = block.eq(b'=');
    let ends = (space | equals | block.eq(b'/') | block.eq(b'>')) & block.present;
    let first = 1u32 << spaces;
    if ends & !equals & first != 0 {
        return (spaces, None);
    }
    let after = ends & !(first | (first - 1));
    if after == 0 {
        // The name goes past the block (or the buffer ends in it).
        return (spaces, quoted_attribute(&bytes[at + spaces..]));
    }
    // The name's end, then the quote after it, both bits of the block.
    let end = after & after.wrapping_neg();
    let name = end.trailing_zeros() as usize - spaces;
    if equals & end == 0 {
        return (spaces, None);
    }
    let (double, single) = (block.eq(b'"'), block.eq(b'\''));
    let open = end << 1;
    let (quote, quotes) = if double & open != 0 {
        (b'"', double)
    } else if single & open != 0 {
        (b'\'', single)
    } else if open < 1 << 16 {
        // Another byte, or none (the padding is no quote).
        return (spaces, None);
    } else {
        // `=` ends the block: the rest is read from the bytes.
        return (spaces, quoted_attribute(&bytes[at + spaces..]));
    };
    let high = block.v.to_bitmask();
    // The closing quote in this block, if the value ends here.
    let close = quotes & block.present & !(open | (open - 1));
    if close != 0 {
        let close = close & close.wrapping_neg();
        return (
            spaces,
            Some(QuotedAttr {
                name,
                len: close.trailing_zeros() as usize + 1 - spaces,
                ascii: high & (close - 1) & !(first - 1) == 0,
            }),
        );
    }
    if !block.full() {
        return (spaces, None);
    }
    // The value goes on past the block.
    let Some((value, value_ascii)) = text_count::find_noting_ascii(quote, &bytes[at + 16..]) else {
        return (spaces, None);
    };
    (
        spaces,
        Some(QuotedAttr {
            name,
            len: 16 + value + 1 - spaces,
            ascii: value_ascii && high & !(first - 1) == 0,
        }),
    )
}

/// Is `bytes` a whole quoted attribute, as the byte-wise states would read
/// it from `InTag`? The name's first byte is anything but space, `/` and
/// `>` (even `=`, as in `in_tag`); the rest runs to space, `=`, `/` or `>`.
fn quoted_attribute(bytes: &[u8]) -> Option<QuotedAttr> {
    let first = *bytes.first()?;
    if is_space(first) || first == b'/' || first == b'>' {
        return None;
    }
    let name = attr_name_end(bytes, 1)?;
    if bytes[name] != b'=' {
        return None;
    }
    let quote = *bytes.get(name + 1)?;
    if quote != b'"' && quote != b'\'' {
        return None;
    }
    let (value, value_ascii) = text_count::find_noting_ascii(quote, &bytes[name + 2..])?;
    Some(QuotedAttr {
        name,
        len: name + 2 + value + 1,
        ascii: value_ascii && name_is_ascii(bytes, name),
    })
}

/// Are the first `len` bytes of `bytes` (an attribute's name) ASCII? Most
/// names fit one block.
#[inline]
fn name_is_ascii(bytes: &[u8], len: usize) -> bool {
    if len <= 16 {
        Block::at(bytes, 0).v.to_bitmask() & ((1u32 << len) - 1) == 0
    } else {
        bytes.get(..len).is_some_and(<[u8]>::is_ascii)
    }
}

/// The first byte at or after `from` that ends an attribute name (space,
/// `=`, `/` or `>`), if any. Sixteen bytes at a time: names vary in
/// length, and a byte loop's exit was the scanner's most mispredicted
/// branch. Every space is at most 0x20; the other bytes that low (controls)
/// are ruled out one by one.
fn attr_name_end(bytes: &[u8], from: usize) -> Option<usize> {
    space_or(bytes, from, |block| {
        block.eq(b'=') | block.eq(b'/') | block.eq(b'>')
    })
}

/// How many whitespace bytes start `bytes[from..]`, sixteen at a time:
/// the reference `next_attribute`'s spaces are tested against (the scan
/// itself reads them in `next_attribute`'s one block).
#[cfg(test)]
fn leading_spaces(bytes: &[u8], from: usize) -> usize {
    let mut at = from;
    loop {
        // Bits 16 and up of the complement are set, and the zeros padding
        // a block past the end are no spaces: `n` is at most 16.
        let n = (!text_count::spaces(Block::at(bytes, at).v)).trailing_zeros() as usize;
        at += n;
        if n < 16 {
            return at - from;
        }
    }
}

/// Where an unquoted attribute value ends: the first space or `>`, if any.
fn unquoted_value_end(bytes: &[u8]) -> Option<usize> {
    space_or(bytes, 0, |block| block.eq(b'>'))
}

/// The first byte at or after `from` that is a space or one of the bytes
/// `stops` marks in a block.
#[inline(always)]
fn space_or(bytes: &[u8], from: usize, stops: impl Fn(Block) -> u32) -> Option<usize> {
    let mut at = from;
    loop {
        let block = Block::at(bytes, at);
        let mut maybe = (block.at_most(0x20) | stops(block)) & block.present;
        while maybe != 0 {
            let i = at + maybe.trailing_zeros() as usize;
            if bytes[i] > 0x20 || is_space(bytes[i]) {
                return Some(i);
            }
            maybe &= maybe - 1;
        }
        if !block.full() {
            return None;
        }
        at += 16;
    }
}

/// Where a comment ends in `bytes`: `Ok` with the index just past its
/// `-->` (or `--!>`), else `Err` with the dashes to carry into the next
/// chunk. `dashes` is what the previous chunk left: the count of `-` just
/// before, kept over `!` once it reached two.
///
/// Comments can be long (commented-out markup, conditional comments), so
/// this jumps from `>` to `>` and looks back, rather than stepping each
/// byte through the dash counter.
fn comment_end(bytes: &[u8], dashes: u8) -> Result<usize, u8> {
    let mut from = 0;
    while let Some(i) = memchr::memchr(b'>', &bytes[from..]) {
        let at = from + i;
        if trailing_dashes(&bytes[..at], dashes) >= 2 {
            return Ok(at + 1);
        }
        from = at + 1;
    }
    Err(trailing_dashes(bytes, dashes))
}

/// The dash count after `seen`, starting from `carried`. Only the tail
/// of `-` and `!` after the last other byte matters (any other byte resets
/// the count), so this replays just that tail; the tails replayed for one
/// comment do not overlap, so the whole comment costs one pass.
fn trailing_dashes(seen: &[u8], carried: u8) -> u8 {
    let tail = seen
        .iter()
        .rposition(|&b| b != b'-' && b != b'!')
        .map_or(0, |i| i + 1);
    let mut dashes = if tail == 0 { carried } else { 0 };
    for &b in &seen[tail..] {
        if b == b'-' {
            dashes = dashes.saturating_add(1);
        } else if dashes < 2 {
            // A `!` keeps the count only after two dashes.
            dashes = 0;
        }
    }
    dashes
}

/// The largest index ≤ `i` that is a char boundary of `s`.
fn floor_char_boundary(s: &str, i: usize) -> usize {
    let mut i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The comment end as the byte-at-a-time state machine finds it.
    fn comment_end_by_bytes(bytes: &[u8], mut dashes: u8) -> Result<usize, u8> {
        for (i, &b) in bytes.iter().enumerate() {
            match b {
                b'-' => dashes = dashes.saturating_add(1),
                b'>' if dashes >= 2 => return Ok(i + 1),
                b'!' if dashes >= 2 => {}
                _ => dashes = 0,
            }
        }
        Err(dashes)
    }

    /// Every concatenation of up to `max` of `pieces` (repeats allowed).
    fn every_string(pieces: &[&str], max: u32) -> impl Iterator<Item = String> {
        let n = pieces.len();
        (0..=max).flat_map(move |len| {
            (0..n.pow(len)).map(move |code| {
                let mut c = code;
                (0..len)
                    .map(|_| {
                        let piece = pieces[c % n];
                        c /= n;
                        piece
                    })
                    .collect()
            })
        })
    }

    /// The line of `lines` whose source in `html` holds `needle`.
    fn line_holding<'l>(lines: &'l [Line], html: &str, needle: &str) -> &'l Line {
        lines
            .iter()
            .find(|l| html[l.start as usize..l.end as usize].contains(needle))
            .unwrap_or_else(|| panic!("no line holds {needle:?}"))
    }

    /// `html` reads the same whole and byte by byte, and `view` of the
    /// line holding each needle is what `expected` pairs it with.
    fn assert_lines<T: PartialEq + std::fmt::Debug>(
        html: &str,
        view: impl Fn(&Line) -> T,
        expected: &[(&str, T)],
    ) {
        let [(lines, _, _), bytewise] = whole_and_bytewise(html);
        assert_eq!(lines, bytewise.0);
        for (needle, want) in expected {
            assert_eq!(&view(line_holding(&lines, html, needle)), want, "{needle}");
        }
    }

    /// What the scanner makes of `html` fed whole and fed a character at a
    /// time (then a quoted attribute is never complete in the buffer, so
    /// only the byte-wise tag states run).
    fn whole_and_bytewise(html: &str) -> [(Vec<Line>, Vec<Element>, [String; 3]); 2] {
        let run = |chunks: &mut dyn Iterator<Item = &str>| {
            let mut s = Scanner::new(ScanLimits::default());
            for c in chunks {
                s.push(c);
            }
            let scan = s.finish();
            let info = [scan.info.title, scan.info.og_title, scan.info.lang];
            (scan.lines, scan.elements, info)
        };
        let bytewise = (0..html.len())
            .filter(|&i| html.is_char_boundary(i))
            .map(|i| {
                &html[i..html[i..]
                    .char_indices()
                    .nth(1)
                    .map_or(html.len(), |(j, _)| i + j)]
            });
        [
            run(&mut std::iter::once(html)),
            run(&mut bytewise.collect::<Vec<_>>().into_iter()),
        ]
    }

    /// The page's main element shelters its text from the boilerplate
    /// around it (a `menu-side-transition` wrapping the whole page),
    /// not from furniture inside it (a share bar), and only while open:
    /// after it, the wrapper's mark applies again. `<article>` is no
    /// shelter: teaser cards in a "related" sidebar are articles too.
    #[test]
    fn the_main_element_shelters_its_text_from_outer_boilerplate() {
        let html = "<div class=\"menu-side-transition\"><nav>Menu words</nav>\
                    <main class=\"col\"><h1>The headline</h1><p>Article words</p>\
                    <div class=\"share\"><p>Share this</p></div><div class=\"widget\"><p>Widget words\
                    </p></div><p>More words</p></main>\
                    <p>Wrapper tail</p><div role=\"main\"><p>Role main words</p></div>\
                    <aside class=\"related\"><article><p>Teaser words</p></article></aside></div>";
        let [(lines, _, _), bytewise] = whole_and_bytewise(html);
        assert_eq!(lines, bytewise.0);
        let boiler = |needle: &str| {
            let l = line_holding(&lines, html, needle);
            (l.boiler_text > 0, l.layout_text > 0)
        };
        for (needle, marked) in [
            ("Menu words", true),
            ("The headline", false),
            ("Article words", false),
            ("Share this", true),
            ("More words", false),
            ("Wrapper tail", true),
            ("Role main words", false),
            ("Teaser words", true),
        ] {
            assert_eq!(boiler(needle).0, marked, "{needle}");
        }
        // Inside the main element, furniture still is furniture, and a
        // layout word marks layout only, as at the top of a page: the
        // wrapper's furniture mark does not reach in.
        assert_eq!(boiler("Share this"), (true, false));
        assert_eq!(boiler("Widget words"), (true, true));
        assert_eq!(boiler("Menu words"), (true, false));
    }

    /// Text inside an element a comment word marks counts as comment
    /// text, by a quoted class (the whole-attribute path) or an unquoted
    /// id (byte by byte), furniture nested in the thread included; a main
    /// element inside shelters its text as from any boilerplate, and
    /// other furniture is no comment.
    #[test]
    fn text_in_comment_elements_counts_as_comment_text() {
        let html = "<div class=\"comments-area\"><p>Reader one says</p>\
                    <div class=\"nav\"><p>Older comments</p></div>\
                    <main><p>Main inside</p></main></div><p>After words</p>\
                    <div id=disqus_thread><p>Disqus words</p></div>\
                    <div class=\"widget\"><p>Widget words</p></div>\
                    <footer><p>Footer words</p></footer>";
        let counts = |l: &Line| (l.boiler_text > 0, l.comment_text);
        assert_lines(
            html,
            counts,
            &[
                ("Reader one says", (true, 15)),
                ("Older comments", (true, 14)),
                ("Main inside", (false, 0)),
                ("After words", (false, 0)),
                ("Disqus words", (true, 12)),
                ("Widget words", (true, 0)),
                ("Footer words", (true, 0)),
            ],
        );
    }

    /// An element whose id names it the page's main content (`main`,
    /// `content`, `main-content`, quoted or not) shelters its text as
    /// `<main>` does; a class of those words does not, nor an id that
    /// only starts with one (`main-side`, a menu).
    #[test]
    fn an_id_naming_the_main_content_shelters_its_text() {
        let html = "<div id=\"wrap\" class=\"menu-side-transition\">\
                    <nav id=\"main-side\"><p>Side menu words</p></nav>\
                    <section id=\"main\"><h1>Listing heading</h1><p>Intro words</p>\
                    <div class=\"footer\"><p>Inner footer</p></div></section>\
                    <div id=content><p>Unquoted id words</p></div>\
                    <div ID=\"Main-Content\"><p>Hyphenated id words</p></div>\
                    <div class=\"main\"><p>Class main words</p></div>\
                    <p>Wrapper tail</p></div>";
        let boiler = |l: &Line| l.boiler_text > 0;
        assert_lines(
            html,
            boiler,
            &[
                ("Side menu words", true),
                ("Listing heading", false),
                ("Intro words", false),
                ("Inner footer", true),
                ("Unquoted id words", false),
                ("Hyphenated id words", false),
                ("Class main words", true),
                ("Wrapper tail", true),
            ],
        );
    }

    /// Text inside an element whose `style` hides it (`display: none`,
    /// `visibility: hidden`, any case and spacing, `!important` or not)
    /// counts as furniture, nested elements included; a shown element, a
    /// hiding word elsewhere in the style, the page's `<body>` hidden until
    /// its scripts run, and hidden tab or accordion panels (`role` tabpanel
    /// or region, or a class naming a panel: `faq__answer`, `tab-pane`,
    /// `toggleContent`, before or after the style) are not marked for it;
    /// a class merely starting like one (`tablet-menu`) is no panel.
    #[test]
    fn hidden_elements_mark_their_text() {
        let html = "<body style=\"display:none\"><div style=\"display: none\"><p>Hidden words</p>\
                    <div class=\"x\"><p>Nested hidden words</p></div></div>\
                    <div class=\"copy\" STYLE=\"color:red; Display : NONE !important\">\
                    <p>Important hidden words</p></div>\
                    <section style=\"visibility:hidden\"><p>Invisible words</p></section>\
                    <div style=\"display:block\"><p>Shown words</p></div>\
                    <div style=\"content: \'display:none\'; border:none\"><p>Border words</p></div>\
                    <div role=\"tabpanel\" style=\"display:none\"><p>Tab panel words</p></div>\
                    <div style=\"display:none\" role=\"region\"><p>Accordion words</p></div>\
                    <div class=\"faq__answer\" style=\"display:none\"><p>Answer words</p></div>\
                    <div style=\"display:none\" class=\"tab-pane fade\"><p>Pane words</p></div>\
                    <div class=\"toggleContent\" style=\"display:none\"><p>Toggle words</p></div>\
                    <div class=\"tablet-menu\" style=\"display:none\"><p>Menu words</p></div>\
                    <div class=\"tab-pane\" class=\"x\" style=\"display:none\"><p>Twice words</p></div>\
                    <p>Plain words</p></body>";
        // Hidden text is furniture, not a layout mark the selection may
        // forgive with the page builders' wrappers: (marked, layout only).
        let marks = |l: &Line| (l.boiler_text > 0, l.layout_text > 0);
        assert_lines(
            html,
            marks,
            &[
                ("Hidden words", (true, false)),
                ("Nested hidden words", (true, false)),
                ("Important hidden words", (true, false)),
                ("Invisible words", (true, false)),
                ("Shown words", (false, false)),
                ("Border words", (false, false)),
                ("Tab panel words", (false, false)),
                ("Accordion words", (false, false)),
                ("Answer words", (false, false)),
                ("Pane words", (false, false)),
                ("Toggle words", (false, false)),
                ("Menu words", (true, false)),
                ("Twice words", (false, false)),
                ("Plain words", (false, false)),
            ],
        );
    }

    /// The `hidden` attribute hides its element as `display: none` does,
    /// valueless (before `>`, `/`, a space or another attribute) or with
    /// a value, any case; `hidden="until-found"` (revealed by a search in
    /// the page), a name that only starts with it, `aria-hidden`, a hidden
    /// `<body>`, a segment of a page streamed in parts (`id="S:12"`) and
    /// an accordion's panel (labelled by its heading: `aria-labelledby`)
    /// do not. Read the same whole and byte by byte.
    #[test]
    fn the_hidden_attribute_marks_its_text() {
        let html = "<body hidden><div hidden><p>Bare words</p></div>\
                    <div HIDDEN class=\"x\"><p>Upper words</p></div>\
                    <section id=\"s\" hidden/><p>Slash words</p></section>\
                    <div hidden=\"hidden\"><p>Valued words</p></div>\
                    <div hidden=''><p>Empty words</p></div>\
                    <div hidden=\"until-found\"><p>Found words</p></div>\
                    <div hiddenx><p>Longer words</p></div>\
                    <div aria-hidden=\"true\"><p>Aria words</p></div>\
                    <div role=\"tabpanel\" hidden><p>Panel words</p></div>\
                    <div hidden id=\"S:12\"><p>Streamed words</p></div>\
                    <div hidden id=\"S:x\"><p>Not streamed words</p></div>\
                    <div hidden aria-labelledby=\"q1\"><p>Labelled words</p></div>\
                    <p>Plain words</p></body>";
        let boiler = |l: &Line| l.boiler_text > 0;
        assert_lines(
            html,
            boiler,
            &[
                ("Bare words", true),
                ("Upper words", true),
                ("Slash words", true),
                ("Valued words", true),
                ("Empty words", true),
                ("Found words", false),
                ("Longer words", false),
                ("Aria words", false),
                ("Panel words", false),
                ("Streamed words", false),
                ("Not streamed words", true),
                ("Labelled words", false),
                ("Plain words", false),
            ],
        );
    }

    /// The `hidden` attribute or a hiding style hides a `<pre>`, a
    /// `<span>` or an unknown element too, none of which the scanner
    /// otherwise stacks (a raw Markdown copy of the article, a widget's
    /// settings as JSON, a gallery's captions), up to its own end tag,
    /// past nested elements of its name; not a paragraph, whose end tag
    /// is often implied. Read the same whole and byte by byte.
    #[test]
    fn the_hidden_attribute_hides_unstacked_elements() {
        let html = "<body><pre class=\"raw\" hidden># Raw words</pre>\
                    <p>Open words</p>\
                    <div><span class=\"v\" hidden=\"\">{\"json\": \"words\"}</span></div>\
                    <div><span hidden>In <span>nested</span> after words</span></div>\
                    <div><x-widget hidden=hidden><b>Custom words</b></x-widget></div>\
                    <div><span style=\"display: none\">Styled words</span></div>\
                    <div><span hidden=\"until-found\">Found words</span></div>\
                    <div><span>Shown</span> words</div>\
                    <p hidden>Paragraph words</p>\
                    <p>Plain words</p></body>";
        // Marked, and wholly.
        let hidden = |l: &Line| (l.boiler_text > 0, l.boiler_text == l.text);
        assert_lines(
            html,
            hidden,
            &[
                ("Raw words", (true, true)),
                ("Open words", (false, false)),
                ("json", (true, true)),
                ("after words", (true, true)),
                ("Custom words", (true, true)),
                ("Styled words", (true, true)),
                ("Found words", (false, false)),
                ("Shown", (false, false)),
                ("Paragraph words", (false, false)),
                ("Plain words", (false, false)),
            ],
        );
    }

    /// A hidden element right after a heading is the panel the heading
    /// opens (an accordion of hashed class names, a FAQ whose answers are
    /// classed `content`), with whitespace, a comment and a void tag
    /// between; not when any end tag, text or an element comes between
    /// (a form's error message under its title, a panel's hidden second
    /// sibling, a hidden element inside a wrapper), nor once the heading
    /// is further back. Read the same whole and byte by byte.
    #[test]
    fn a_hidden_element_after_a_heading_is_its_panel() {
        let html = "<body><h3><button aria-expanded=\"false\">Weight</button></h3>\
                    <div aria-hidden=\"true\" hidden class=\"css-1k075w5\"><p>Weight words</p></div>\
                    <h3>Question?</h3>\n  <!-- answer --> <br>\
                    <div class=\"content\" style=\"display: none;\"><p>Answer words</p></div>\
                    <div hidden><p>Second sibling words</p></div>\
                    <div class=\"form\"><h6>Your zip code</h6></div>\
                    <div style=\"display:none\"><p>Invalid zip words</p></div>\
                    <h2>Intro</h2><p>Lead words</p><div hidden><p>After text words</p></div>\
                    <h2>Head</h2><div class=\"wrap\"><div hidden><p>Wrapped words</p></div></div>\
                    <p>Plain words</p></body>";
        let boiler = |l: &Line| l.boiler_text > 0;
        assert_lines(
            html,
            boiler,
            &[
                ("Weight words", false),
                ("Answer words", false),
                ("Second sibling words", true),
                ("Invalid zip words", true),
                ("Lead words", false),
                ("After text words", true),
                ("Wrapped words", true),
                ("Plain words", false),
            ],
        );
    }

    /// An ARIA role naming furniture (a dialog such as a cookie notice,
    /// navigation, the site's banner or footer, a complementary box) marks
    /// its element as its class would; other roles, and the same word in
    /// another attribute, do not.
    #[test]
    fn furniture_roles_mark_their_elements() {
        let html = "<div role=\"dialog\" aria-label=\"Consent\"><p>We use cookies words</p></div>\
                    <div role=alertdialog><p>Unquoted alert words</p></div>\
                    <div ROLE=\"Navigation\"><p>Nav role words</p></div>\
                    <div role=\"contentinfo\"><p>Footer role words</p></div>\
                    <div role=\"complementary\"><p>Aside role words</p></div>\
                    <div role=\"banner\"><p>Banner role words</p></div>\
                    <div role=\"article\"><p>Article role words</p></div>\
                    <div title=\"dialog\"><p>Titled words</p></div>\
                    <p>Plain words</p>";
        let boiler = |l: &Line| l.boiler_text > 0;
        assert_lines(
            html,
            boiler,
            &[
                ("We use cookies words", true),
                ("Unquoted alert words", true),
                ("Nav role words", true),
                ("Footer role words", true),
                ("Aside role words", true),
                ("Banner role words", true),
                ("Article role words", false),
                ("Titled words", false),
                ("Plain words", false),
            ],
        );
        // Only the dialogs are dialogs, whichever way the role is written.
        let html = "<div role=\"dialog\"><div><p>Modal policy words</p></div></div>\
                    <div role=alertdialog><p>Unquoted alert words</p></div>\
                    <div role=\"navigation\"><p>Nav role words</p></div>\
                    <div style=\"display:none\"><p>Hidden words</p></div>\
                    <div class=\"dialog\"><p>Classed words</p></div>";
        for (_, elements, _) in whole_and_bytewise(html) {
            let dialogs: Vec<(bool, u32)> = elements
                .iter()
                .filter(|e| e.tag == Tag::Container)
                .map(|e| (e.dialog, e.text))
                .collect();
            let texts = [18, 18, 20, 14, 12, 13];
            let want = [true, false, true, false, false, false];
            assert_eq!(dialogs, want.into_iter().zip(texts).collect::<Vec<_>>());
        }
    }

    /// `attrs_run` takes whole quoted attributes at once; every attribute
    /// shape up to five bytes, on a stacked element, an anchor and a meta
    /// (the tags whose attributes are read) and on a span (whose `style`
    /// and `hidden` are read where they lie), counts as the byte states do.
    #[test]
    fn quoted_attributes_at_once_count_as_the_byte_states() {
        let alphabet = ["a", "C", "=", "\"", "'", " ", "\t", "/", ">", "é"];
        let tags = [
            ("<div ", ">nav text</div>"),
            ("<a href=\"/x\" ", ">link</a>"),
            ("<meta property=\"og:title\" ", "><p>x"),
            ("<html ", "><p>body"),
            // A span's attributes are read in place, not copied: its
            // `style` and `hidden` too (`unstacked_hiding`).
            (
                "<p><span ",
                " style=\"display: none\" hidden=\"\">hid</span>",
            ),
        ];
        // After the generated attributes, ones whose values are read: class
        // and id (boilerplate by class), and content (og:title on meta).
        let read = " class=\"footer\" id='x' content=\"T\"";
        for attrs in every_string(&alphabet, 4) {
            if attrs.is_empty() {
                // The values are really read, whole: the div is
                // boilerplate by its class, the meta gives the title.
                let [(_, elements, _), _] = whole_and_bytewise(&format!("<div {read}>x</div>"));
                assert!(elements[0].boiler);
                let [(_, _, info), _] =
                    whole_and_bytewise(&format!("<meta property=\"og:title\" {read}><p>x"));
                assert_eq!(info[1], "T");
                // And the span's hiding attributes are: its text is marked.
                let html = format!("<p><span {read} style=\"display: none\">hid</span><p>open");
                let [(lines, _, _), _] = whole_and_bytewise(&html);
                let hid = line_holding(&lines, &html, "hid");
                assert!(hid.boiler_text == hid.text && hid.text > 0, "{hid:?}");
            }
            for (open, rest) in tags {
                let html = format!("{open}{attrs}{read}{rest}");
                let [whole, bytewise] = whole_and_bytewise(&html);
                assert_eq!(whole, bytewise, "{html:?}");
            }
        }
    }

    /// A `class` read whole, through `quoted_attr`'s test of its first
    /// word or the general way (other spellings, `<meta>`), reads as the
    /// byte states read it, and only a name that is `class` counts.
    #[test]
    fn class_names_read_whole_as_the_byte_states() {
        for (name, counts) in [
            ("class", true),
            ("CLASS", true),
            ("Class", true),
            ("clasS", true),
            ("clas", false),
            ("classx", false),
            ("klass", false),
            ("data-class", false),
        ] {
            for open in ["div", "section", "h2", "meta", "span", "p"] {
                for value in ["footer", "x", ""] {
                    let html = format!("<{open} {name}=\"{value}\">text</{open}><p>after");
                    let [whole, bytewise] = whole_and_bytewise(&html);
                    assert_eq!(whole, bytewise, "{html:?}");
                }
            }
            let html = format!("<div {name}=\"footer\">text</div>");
            let [(_, elements, _), _] = whole_and_bytewise(&html);
            assert_eq!(elements[0].boiler, counts, "{html:?}");
        }
        // Read as a class, not as an id: a class `main` names no main
        // element, so the nav's text stays boilerplate.
        let html = "<nav><div class=\"main\">text</div></nav>";
        let [(lines, _, _), _] = whole_and_bytewise(html);
        let text = line_holding(&lines, html, "text");
        assert!(text.boiler_text == text.text && text.text > 0, "{text:?}");
    }

    /// Attributes longer than a block (names and values of 14 to 120
    /// bytes, a non-ASCII char at either end of either, or in the middle)
    /// count as the byte states count them: their counts are taken with
    /// the value's search.
    #[test]
    fn long_attributes_count_as_the_byte_states() {
        for pad in [14, 15, 16, 17, 31, 33, 40] {
            let long = "x".repeat(pad);
            for attr in [
                format!("data-{long}=\"{long}\u{e9}\""),
                format!("data-{long}=\"\u{e9}{long}\""),
                format!("data-x=\"{long}\u{e9}{long}{long}\""),
                format!("data-{long}\u{e9}=\"{long}\""),
                format!("\u{e9}{long}=\"v\""),
                format!("title='{long}'"),
            ] {
                let html = format!("<div {attr} class=\"nav\">x</div><a {attr}>y</a>");
                let [whole, bytewise] = whole_and_bytewise(&html);
                assert_eq!(whole, bytewise, "{html:?}");
            }
        }
    }

    /// Scanning stops at the first line over the limit: a page of empty
    /// blocks is refused having counted one line too many, not all of them.
    #[test]
    fn scanning_stops_one_line_past_the_limit() {
        let page = "<p>".repeat(100_000);
        let limits = ScanLimits {
            max_lines: 100,
            ..ScanLimits::default()
        };
        let scan = Scanner::borrowed(limits, &page).finish();
        assert!(
            (101..110).contains(&scan.lines.len()),
            "{}",
            scan.lines.len()
        );
        let mut fed = Scanner::new(limits);
        for _ in 0..1000 {
            fed.push(&page[..300]);
        }
        assert!(
            (101..110).contains(&fed.line_count()),
            "{}",
            fed.line_count()
        );
    }

    /// A span's `style` longer than the value cap, `display:none` past it:
    /// read in place whole, it hid the span; cut at the cap by the byte
    /// states (the attribute split between two chunks), it did not. Both
    /// read the first `VALUE_CAP` bytes now.
    #[test]
    fn a_long_style_on_a_span_reads_the_same_whole_and_bytewise() {
        let style = "color:red;".repeat(VALUE_CAP / 10 + 1);
        let html = format!("<p><span style=\"{style}display:none\">hid</span><p>open");
        let [whole, bytewise] = whole_and_bytewise(&html);
        assert_eq!(whole, bytewise);
        let short = "<p><span style=\"color:red;display:none\">hid</span><p>open";
        let [(lines, _, _), bytewise] = whole_and_bytewise(short);
        assert_eq!(lines, bytewise.0);
        let hid = line_holding(&lines, short, "hid");
        assert!(hid.boiler_text == hid.text && hid.text > 0, "{hid:?}");
    }

    #[test]
    fn class_lists_and_values_cut_by_the_buffer_count_the_same() {
        let html = "<div class=\"site-footer\" data-x='1' lang=\"de\" role=\"main\" \
                    id=\"x\"><span class=\"nav\">a</span><div class = \"nav\" x=y>b</div>\
                    <section data-y=\"2\" class=\"share-bar\">c</section>\
                    <html lang=\"fr\"><meta name=\"og:title\" content=\"T \u{e9}\">";
        let [whole, bytewise] = whole_and_bytewise(html);
        assert_eq!(whole, bytewise);
        // The first div's footer class is outweighed by role="main"; the
        // nav span is not read at all; the second div has its class read
        // by the byte states (spaces around `=`), the section its class by
        // the whole-attribute path: both boilerplate.
        let boiler: Vec<bool> = whole.1.iter().map(|e| e.boiler).collect();
        assert_eq!(boiler, [false, true, true]);
        assert_eq!(whole.2[1], "T \u{e9}");
    }

    /// `skip_raw` tries each `<` of a script in place; fed a byte at a
    /// time, every `<` is left to the byte states instead. Every string of
    /// up to five pieces that can start, break or finish `</xmp`, between
    /// `<xmp>` and text that must count once the element is closed.
    #[test]
    fn raw_text_skipped_at_once_ends_where_the_byte_states_end_it() {
        let pieces = [
            "<", "</", "</xmp", "</XmP", "</xm", "x", " ", ">", "/", "\u{e9}",
        ];
        let mut closed = 0;
        for body in every_string(&pieces, 5) {
            let html = format!("<p>a<xmp>{body}</p><p>text</p>");
            let [whole, bytewise] = whole_and_bytewise(&html);
            assert_eq!(whole, bytewise, "{html:?}");
            closed += usize::from(whole.0.iter().any(|l| l.text > 1));
        }
        // Both outcomes occur: the element closed early (the text after it
        // counts) and not at all (it runs to the end of the page).
        assert!(closed > 1000, "{closed}");
    }

    #[test]
    fn comment_end_agrees_with_the_byte_machine() {
        // Every string of up to 7 bytes over the bytes that matter, from
        // every carried dash count that can differ.
        let alphabet = b"-!>x";
        for len in 0..=7u32 {
            for code in 0..4usize.pow(len) {
                let mut s = Vec::new();
                let mut c = code;
                for _ in 0..len {
                    s.push(alphabet[c % 4]);
                    c /= 4;
                }
                for carried in [0, 1, 2, 3, 254, 255] {
                    assert_eq!(
                        comment_end(&s, carried),
                        comment_end_by_bytes(&s, carried),
                        "{:?} carrying {carried}",
                        String::from_utf8_lossy(&s)
                    );
                }
            }
        }
    }

    /// A name read whole by `tag_name_run` is keyed from its block in a
    /// register (`run_tag`), one cut by a chunk's end from the buffer
    /// (`Name::tag`): every known name, in upper case, one byte shorter
    /// and longer, with a non-ASCII or NUL byte, and at the key's length
    /// limit, scans the same either way, and the line breaks show that
    /// a block name is known as one.
    #[test]
    fn names_read_whole_are_known_as_names_read_bytewise() {
        let mut names: Vec<String> = NAMES_SEEN.iter().map(|n| n.to_string()).collect();
        for name in NAMES_SEEN {
            names.push(name.to_ascii_uppercase());
            names.push(name[..name.len() - 1].to_string());
            names.push(format!("{name}x"));
        }
        names.extend(["d\u{ed}v", "x\0", "abcdefg", "abcdefgh", "mainx"].map(String::from));
        // Bytes ≥ 128 at a block's end, across it and past it, and a name
        // that fills a block: its counts as read byte by byte.
        names.extend(
            [
                "abcdefghijklmn\u{ed}",
                "abcdefghijklmno\u{ed}",
                "abcdefghijklmnop\u{ed}q",
                "abcdefghijklmnop",
            ]
            .map(String::from),
        );
        for name in &names {
            for open in [format!("<{name}>"), format!("<{name} class=\"nav\">")] {
                let html = format!("x{open}text</{name}>tail<br>z");
                let [whole, bytewise] = whole_and_bytewise(&html);
                assert_eq!(whole, bytewise, "{html:?}");
                let breaks = Tag::classify(name.to_ascii_lowercase().as_bytes()).breaks_line();
                assert_eq!(whole.0.len() > 1, breaks, "{html:?}");
            }
        }
    }

    /// Names for `names_read_whole_are_known_as_names_read_bytewise`.
    const NAMES_SEEN: &[&str] = &[
        "a",
        "br",
        "div",
        "section",
        "article",
        "main",
        "blockquote",
        "h1",
        "h6",
        "nav",
        "footer",
        "header",
        "span",
        "p",
        "li",
        "td",
        "tr",
        "table",
        "pre",
        "title",
        "meta",
        "script",
        "textarea",
        "template",
        "figcaption",
        "svg",
        "img",
    ];

    /// `next_attribute` finds what `leading_spaces` and then
    /// `quoted_attribute` find (but for sixteen spaces or more, which it
    /// leaves to the caller): every shape of up to five pieces, at the
    /// buffer's start and after a byte, cut at each length; then names
    /// and values of every length up to past two blocks, with a high
    /// byte at each place, so that names, `=`, quotes and values fall on
    /// both sides of its one block and of the buffer's end.
    #[test]
    fn next_attribute_agrees_with_the_two_searches() {
        let pieces = [
            "a", "=", "\"", "'", " ", "\t", "/", ">", "\u{e9}", "v\u{b}", "xxxxxxx",
        ];
        let check = |bytes: &[u8], at: usize| {
            let spaces = leading_spaces(bytes, at);
            let want = match spaces {
                16.. => (16, None),
                _ => (spaces, quoted_attribute(&bytes[at + spaces..])),
            };
            assert_eq!(
                next_attribute(bytes, at),
                want,
                "{:?} at {at}",
                bytes.escape_ascii().to_string()
            );
        };
        for attr in every_string(&pieces, 5) {
            // The block starts at `at`: other offsets shift nothing.
            for at in [0, 1] {
                let s = format!("{}{attr}", "<".repeat(at));
                for end in at..=s.len() {
                    check(&s.as_bytes()[..end], at);
                }
            }
        }
        // Spaces up to and past a block, then an attribute.
        for spaces in 0..40 {
            let s = format!("<{}href=\"x\" ", " ".repeat(spaces));
            check(s.as_bytes(), 1);
        }
        // Names and values short and long, closing in the first block,
        // at its end or past it; all ASCII, or one byte high anywhere.
        for name in 1..20 {
            for value in 0..40 {
                for spaces in [0, 1, 3] {
                    let len = spaces + name + 3 + value;
                    for high in std::iter::once(None).chain((0..len).map(Some)) {
                        let mut s = " ".repeat(spaces) + &"n".repeat(name) + "=\"";
                        s += &"v".repeat(value);
                        s += "\" x";
                        let mut bytes = s.into_bytes();
                        match high {
                            // A high byte in the name or the value (not
                            // in place of a space, `=` or a quote).
                            Some(i) if bytes[i].is_ascii_alphabetic() => bytes[i] = 0xE9,
                            Some(_) => continue,
                            None => {}
                        }
                        check(&bytes, 0);
                    }
                }
            }
        }
    }

    /// The blockwise search ends a name where a byte loop would, across
    /// block boundaries, past control bytes and at the slice's end.
    #[test]
    fn attr_name_end_agrees_with_a_byte_loop() {
        let by_bytes = |bytes: &[u8], from: usize| {
            bytes[from..]
                .iter()
                .position(|&b| is_space(b) || matches!(b, b'=' | b'/' | b'>'))
                .map(|i| from + i)
        };
        let names = ["", "a", "data-x\u{1}\u{b}y", "é", "n\u{0}"];
        let ends = [
            "", "=", " ", "\t", "\r", "\u{c}", "/", ">", "\u{b}", "\u{1f}",
        ];
        for name in names {
            for pad in [0, 14, 15, 16, 31, 40] {
                for end in ends {
                    let s = format!("x{}{name}{end}\"v\"", "n".repeat(pad));
                    let bytes = s.as_bytes();
                    assert_eq!(attr_name_end(bytes, 1), by_bytes(bytes, 1), "{s:?}");
                    let cut = &bytes[..bytes.len() - 3];
                    assert_eq!(attr_name_end(cut, 1), by_bytes(cut, 1), "{s:?} cut");
                }
            }
        }
    }

    /// Spaces before an attribute are counted as a byte loop counts them,
    /// in runs across block boundaries and up to the end.
    #[test]
    fn leading_spaces_agree_with_a_byte_loop() {
        let ws = [" ", "\t", "\n", "\r", "\u{c}"];
        for len in [0, 1, 2, 15, 16, 17, 33] {
            for after in ["", "a", "\u{b}", "\u{0}", ">"] {
                let run: String = (0..len).map(|i| ws[i % ws.len()]).collect();
                let s = format!("x{run}{after}");
                let by_bytes = s.bytes().skip(1).take_while(|&b| is_space(b)).count();
                assert_eq!(leading_spaces(s.as_bytes(), 1), by_bytes, "{s:?}");
            }
        }
        assert_eq!(leading_spaces(b"  ", 2), 0);
    }

    /// An unquoted value ends at the first space or `>` a byte loop finds,
    /// not at other control bytes, across block boundaries and at the end.
    #[test]
    fn unquoted_value_end_agrees_with_a_byte_loop() {
        let by_bytes = |bytes: &[u8]| bytes.iter().position(|&b| is_space(b) || b == b'>');
        let values = ["", "1", "a/b=c\u{1}\u{b}d", "é\"'", "n\u{0}"];
        let ends = [
            "", " ", "\t", "\n", "\r", "\u{c}", ">", "\u{b}", "\u{1f}", "=",
        ];
        for value in values {
            for pad in [0, 15, 16, 17, 31, 40] {
                for end in ends {
                    let s = format!("{}{value}{end}x>", "v".repeat(pad));
                    let bytes = s.as_bytes();
                    assert_eq!(unquoted_value_end(bytes), by_bytes(bytes), "{s:?}");
                    let cut = &bytes[..bytes.len() - 2];
                    assert_eq!(unquoted_value_end(cut), by_bytes(cut), "{s:?} cut");
                }
            }
        }
    }

    /// Unquoted values are code like quoted ones, less the quotes; they are
    /// read (a footer class makes the div boilerplate) and end at `>` or a
    /// space, however the page is cut.
    #[test]
    fn unquoted_values_count_and_read_as_quoted_ones() {
        let counts = |html: &str| {
            let [whole, bytewise] = whole_and_bytewise(html);
            assert_eq!(whole, bytewise, "{html:?}");
            let (lines, elements, _) = whole;
            let code: u32 = lines.iter().map(|l| l.code).sum();
            let text: u32 = lines.iter().map(|l| l.text).sum();
            (code, text, elements.iter().any(|e| e.boiler))
        };
        let long = "x".repeat(40);
        for (unquoted, quoted) in [
            ("<td width=100>x</td>", "<td width=\"100\">x</td>"),
            (
                "<div class=site-footer id=f\u{e9}>x</div>",
                "<div class=\"site-footer\" id=\"f\u{e9}\">x</div>",
            ),
            (
                &format!("<a href={long}/ title=t>x</a>"),
                &format!("<a href=\"{long}/\" title=\"t\">x</a>"),
            ),
            ("<p al=1  bc=2\t>x</p>", "<p al=\"1\"  bc=\"2\"\t>x</p>"),
        ] {
            let (code, text, boiler) = counts(unquoted);
            let quotes = quoted.matches('"').count() as u32;
            assert_eq!(
                (code + quotes, text, boiler),
                counts(quoted),
                "{unquoted:?}"
            );
        }
        assert_eq!(counts("<td width=100>x</td>"), (19, 1, false));
        assert!(counts("<div class=site-footer>x</div>").2);
    }

    #[test]
    fn comment_end_finds_the_real_close() {
        assert_eq!(comment_end(b" a > b -> c --!> d", 0), Ok(16));
        assert_eq!(comment_end(b"x-->", 0), Ok(4));
        assert_eq!(comment_end(b">", 2), Ok(1));
        assert_eq!(comment_end(b"x--", 0), Err(2));
    }

    /// Names' `short` forms are equal exactly when `get() == get()`,
    /// whatever the names held before
    /// (a long name, then a short one set or pushed over it, or set from
    /// within a longer source).
    #[test]
    fn names_compare_as_their_bytes() {
        let names = [
            "",
            "a",
            "A",
            "li",
            "div",
            "DIV",
            "section",
            "article",
            "h1",
            "mainx",
            "colgroup",
            "abcdefghijklmnop",
        ];
        let long = "abcdefghijklmnopq";
        let mut all: Vec<Name> = Vec::new();
        for earlier in ["", long, "blockquote"] {
            for n in names.iter().chain([&long]) {
                let mut set = Name::default();
                set.set(earlier.as_bytes());
                set.set(n.as_bytes());
                let mut pushed = Name::default();
                pushed.set(earlier.as_bytes());
                pushed.clear();
                n.bytes().for_each(|b| pushed.push(b));
                // Set from within a longer source, as an attribute's name
                // is: the block read runs on past the name's end.
                let mut within = Name::default();
                let source = format!("{earlier}{n}=\"V\" Z");
                within.set_at(source.as_bytes(), earlier.len(), n.len());
                assert_eq!(within.get(), pushed.get(), "{earlier:?} then {n:?}");
                all.extend([set, pushed, within]);
            }
        }
        for a in &all {
            for b in &all {
                assert_eq!(
                    a.short() == b.short(),
                    a.get() == b.get(),
                    "{:?} {:?}",
                    a,
                    b
                );
            }
            // The key read off the buffer (whatever an earlier, longer
            // name left past `len`) is the one `tags` builds from bytes,
            // and the tag is the one `Tag::classify` gives.
            let want = (Tag::classify(a.get()), tags::name_key(a.get()));
            assert_eq!((a.tag(), a.key()), want, "{a:?}");
            assert_eq!(a.short().get(), a.get(), "{a:?}");
            assert_eq!(a.short().key(), a.key(), "{a:?}");
        }
    }

    /// Tag names are read in any case: a page and the same page with its
    /// tag names in capitals scan alike (names shorter than a block, one
    /// that fills a block, one longer than a block), whole and a byte at a
    /// time. Mutation-checked: storing the name's block without lowercasing
    /// it fails this test.
    #[test]
    fn tag_names_are_read_in_any_case() {
        let lower = "<html lang=en><head><title>T</title></head><body>\
            <nav class=menu><a href=/>Home</a></nav><article><h1>Title</h1>\
            <p>Some text <b>bold</b> and more</p><blockquote>quoted words</blockquote>\
            <custom-elements-x>x</custom-elements-x><script>var a = '<p>';</script>\
            <p>after</p></article><footer>foot</footer></body></html>";
        let mut upper = String::new();
        let mut in_name = false;
        for c in lower.chars() {
            in_name = if c == '<' || (in_name && c == '/') {
                true
            } else {
                in_name && (c.is_ascii_alphanumeric() || c == '-')
            };
            upper.push(if in_name { c.to_ascii_uppercase() } else { c });
        }
        assert!(upper.contains("<BLOCKQUOTE>") && upper.contains("</CUSTOM-ELEMENTS-X>"));
        let want = whole_and_bytewise(lower);
        assert!(want[0].0.iter().any(|l| l.heading == 1));
        assert_eq!(whole_and_bytewise(&upper), want);
    }

    /// The block lowercasing is `to_ascii_lowercase` for every byte value,
    /// in every lane.
    #[test]
    fn blocks_lowercase_as_bytes_do() {
        for first in (0..=255u8).step_by(16) {
            let bytes: [u8; 16] = std::array::from_fn(|i| first + i as u8);
            let want = bytes.map(|b| b.to_ascii_lowercase());
            assert_eq!(lowercase(u8x16::new(bytes)).to_array(), want);
        }
    }

    /// `Run::of` counts a range by blocks read from the whole buffer; the
    /// byte rule (a char per byte that is no continuation byte, a high
    /// byte per byte ≥ 128) must come out for every range of a buffer
    /// mixing one- to four-byte chars, at every offset and length across
    /// block boundaries, up to the buffer's end (where the block is
    /// padded). Mutation-checked: leaving out the `keep` mask fails it.
    #[test]
    fn runs_count_as_the_byte_rule() {
        let text = "a<é>\"x\u{1F600}=b€ \u{7FF}'cd\u{10000}ef/ghij\u{FFFD}klmnop\u{80}q".repeat(3);
        let src = text.as_bytes();
        for start in 0..=src.len() {
            for end in start..=src.len() {
                let run = &src[start..end];
                let got = Run::of(src, start, end);
                let want = (
                    run.len() as u32,
                    run.iter().filter(|&&b| b & 0xC0 != 0x80).count() as u32,
                    run.iter().filter(|&&b| b >= 0x80).count() as u32,
                );
                assert_eq!((got.bytes, got.chars, got.high), want, "{start}..{end}");
            }
        }
    }
}
