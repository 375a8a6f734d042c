//! The element policy: what a tag means (hidden, panel, main, furniture); not how it is read.
//!
//! Here the page takes the tokenizer's events (`impl Events for Page`):
//! each is sent on to the line counts (`stack`), read for what it says of
//! its element, or kept (`capture`). Fused for speed: `end_value` also
//! keeps the `<meta>` and `lang` values for `capture` (one match on the
//! attribute being read), and the boilerplate decision for a stacked
//! element stays in `stack::push_open`, beside the depths it sets.

use super::tokenizer::{AttrName, Closed, Events, Name, NameKey, RawMode, Run};
use super::{NAME_CAP, Page, VALUE_CAP};
use crate::extract::signals::{self, Signal};
use crate::extract::tags::Tag;
use crate::extract::text_count::TextCount;

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
pub(super) fn hides_element(style: &[u8]) -> bool {
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
pub(super) fn names_a_panel(class: &[u8]) -> bool {
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
pub(super) fn is_streamed_segment(id: &[u8]) -> bool {
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
/// classes out of the memo's slots. Out of line, with the memo's lookup
/// inlined in it: inlined into `Events::attr` (and so into the
/// tokenizer's `attrs_run`), it left the lookup out of line and cost
/// 1 M instructions more on every 15th page.
#[inline(never)]
pub(super) fn read_class_or_id(
    memo: &mut signals::Memo,
    capture: Capture,
    value: &[u8],
) -> (Signal, bool) {
    if capture == Capture::Id {
        (signals::classify(value), is_main_id(value))
    } else {
        (memo.classify(value), false)
    }
}

/// Which attribute value of the current tag is being captured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Capture {
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

/// What a tag's name is.
#[inline(always)]
pub(super) fn tag_of(name: &Name, key: NameKey) -> Tag {
    match key {
        NameKey::Short(key) => Tag::by_key(key),
        NameKey::Long => Tag::long(name.get()),
    }
}

impl Events for Page {
    #[inline(always)]
    fn end(&self) -> usize {
        self.scan_end
    }

    #[inline(always)]
    fn text(&mut self, count: TextCount) {
        self.add_text(count.text);
        self.cur.high += count.high;
        self.cur.low += count.low;
    }

    #[inline(always)]
    fn code(&mut self, run: Run) {
        self.add_code_run(run);
    }

    /// Breaks the line if the tag is a block (or the line is long), and
    /// counts the tag so far as code.
    // Inlined into the tokenizer's `tag_name_run` (and `byte`), as
    // `end_tag` is: the call and a second save of the registers were
    // 2.0 M instructions on p15 (2.9 M for end tags). Not so `push_open`
    // (inlined, 4.7 M more) nor `begin_capture` (1.5 M more).
    #[inline(always)]
    fn start_tag(&mut self, name: &Name, key: NameKey, start: usize, run: Run) {
        self.tag = tag_of(name, key);
        let long = self.cur.text + self.cur.code > self.limits.wrap;
        if self.tag.breaks_line() || long {
            self.close_line(start);
        }
        if let Some(level) = self.tag.heading_level()
            && self.cur.start as usize == start
        {
            self.cur.heading = level;
        }
        if self.tag == Tag::A {
            self.open_anchor(start);
        }
        let cost = name.len().min(NAME_CAP) as u32 + 2;
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
        self.add_code_run_in(run, self.tag == Tag::A);
    }

    /// Counts the end tag, and closes the anchor or the elements it ends.
    #[inline(always)]
    fn end_tag(&mut self, name: &Name, key: NameKey, start: usize, run: Run) {
        let tag = tag_of(name, key);
        let cost = name.len().min(NAME_CAP) as u32 + 3;
        self.cur.bare += cost;
        if tag == Tag::Other {
            self.cur.inline_bare += cost;
        }
        // An end tag: never an anchor's start tag.
        self.add_code_run_in(run, false);
        if tag == Tag::A {
            if self.in_anchor {
                self.cur.anchor_markup += 4;
            }
            self.close_anchor(start);
        } else if tag.is_tracked() || (self.hidden_inline > 0 && tag.stacks_when_hidden()) {
            self.pop_to(tag, name);
        }
        // Any other end tag between a heading and a hidden element means
        // the element is not the heading's own (`</h6></div><div hidden>`:
        // an error message under a form's title).
        self.after_heading = tag.is_heading();
        // End tags carry no attributes worth reading.
        self.tag = Tag::Other;
    }

    /// Can the tag being read keep an attribute's value at all (the tags
    /// `capture_for_name` names: stacked ones, `<html>` among them,
    /// `<meta>`, and headings for their class and id)?
    #[inline(always)]
    fn reads_attributes(&self) -> bool {
        self.tag.is_stacked() || self.tag == Tag::Meta || self.tag.is_heading()
    }

    /// `hidden="…"` or `style="…"` on a span, a pre or an unknown element:
    /// the attributes read there, in place (see `Tag::stacks_when_hidden`).
    #[inline(always)]
    fn attr_unread(&mut self, src: &str, at: usize, name: usize, len: usize) {
        if matches!(name, 5 | 6)
            && matches!(src.as_bytes()[at] | 0x20, b's' | b'h')
            && self.tag.stacks_when_hidden()
        {
            self.unstacked_hiding(src, at, name, len);
        }
    }

    /// A whole quoted attribute: what `attr_named`, `value` and
    /// `value_end` would do with it, the commonest values read where they
    /// lie. Inlined into the tokenizer's `attrs_run`: out of line, a call
    /// an attribute costs 3 M instructions more on every 15th page than it
    /// saves.
    #[inline(always)]
    fn attr(&mut self, src: &str, name: AttrName<'_>, at: usize, len: usize) {
        match name {
            // What `begin_capture` does for a class on such a tag.
            AttrName::Class if self.reads_class_and_id() => {
                self.value.clear();
                self.capture = Capture::ClassId;
            }
            AttrName::Class => self.begin_capture(b"class"),
            AttrName::Named(name) => self.begin_capture(name.get()),
        }
        let value = &src.as_bytes()[at..at + len];
        let value = &value[..value.len().min(VALUE_CAP)];
        if matches!(self.capture, Capture::ClassId | Capture::Id) {
            // The commonest capture, classified where it lies (`end_value`
            // would copy it first).
            let read = read_class_or_id(&mut self.memo, self.capture, value);
            if self.capture == Capture::ClassId {
                // A second `class` on the tag: the first one's panel words
                // still count, as `end_value` counts every class it reads.
                if self.tag_class.1 > 0 {
                    self.tag_panel |= names_a_panel(self.class_value(src));
                }
                self.tag_class = (at, value.len());
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

    fn attr_named(&mut self, name: &Name) {
        self.begin_capture(name.get());
    }

    /// The boolean `hidden` (the HTML way to hide an element) is the one
    /// name without a value read.
    fn attr_bare(&mut self, name: &Name) {
        if (self.tag.is_stacked() || self.tag.stacks_when_hidden()) && name.get() == b"hidden" {
            self.tag_hidden = true;
        }
    }

    /// Keeps the bytes when the value is captured, up to `VALUE_CAP`.
    #[inline(always)]
    fn value(&mut self, bytes: &[u8]) {
        if self.capture != Capture::None {
            let room = VALUE_CAP.saturating_sub(self.value.len()).min(bytes.len());
            self.value.extend_from_slice(&bytes[..room]);
        }
    }

    fn value_end(&mut self) {
        self.end_value();
    }

    /// `>` of a tag: code, then act on the tag.
    #[inline(always)]
    fn tag_closed(&mut self, src: &str, tag: Closed<'_>) -> Option<RawMode> {
        let Closed {
            name,
            start,
            at,
            end_tag,
        } = tag;
        if self.capture != Capture::None {
            self.end_value();
        }
        if !end_tag && self.tag == Tag::Container {
            self.bare_cell(name, start, at);
        }
        self.add_code_run(Run::byte(b'>'));
        if end_tag {
            return None;
        }
        // Where a tag marked for metadata ends (worked out in the arms
        // that mark one: most tags are not marked).
        let end = || (at + 1).min(src.len());
        match self.tag {
            Tag::RawText => {
                self.raw_ld_json = Page::is_ld_json(src, name, start, at);
                return Some(RawMode::Skip);
            }
            Tag::Title if !self.title_done && self.opaque_depth == 0 => {
                return Some(RawMode::Bounded);
            }
            Tag::Title => return Some(RawMode::Skip),
            Tag::Textarea => return Some(RawMode::Text),
            Tag::Meta => self.meta_closed(start, end()),
            // A heading's class and id are read for the comment word alone
            // (it opens no element of its own).
            Tag::H1 | Tag::H2 | Tag::H3 | Tag::H4 | Tag::H5 | Tag::H6 => {
                self.cur.comment_heading |=
                    self.cur.heading > 0 && self.tag_signal == Signal::Comment
            }
            t if t.is_stacked() => self.push_open(src, t, name),
            Tag::Void if name.get() == b"link" => self.mark_tag(start, end()),
            Tag::Void if name.get() == b"base" => self.mark_base(start, end()),
            t if t.stacks_when_hidden() && (self.tag_hidden || self.hidden_inline > 0) => {
                let depth = self.stack.len();
                self.push_open(src, t, name);
                self.hidden_inline += u32::from(self.stack.len() > depth);
            }
            Tag::Other if name.len() == 4 && name.get() == b"time" => self.mark_tag(start, end()),
            Tag::A if self.limits.links => self.mark_anchor(start, end()),
            _ => {}
        }
        None
    }

    fn raw_end(&mut self, src: &str, mode: RawMode, start: usize, end: usize) {
        self.leave_raw(src, mode, start, end);
    }

    fn raw_abandoned(&mut self, text: &str) {
        self.abandon_title(text);
    }
}

impl Page {
    /// A table cell written bare (`<td>`, `<th>`: no attributes) wraps its
    /// text as an inline tag does, at no code cost: data tables write
    /// their cells so, often one a line, where layout tables carry widths,
    /// classes and alignment on theirs. The tag `name` runs from `start`
    /// to its `>` at `at`.
    fn bare_cell(&mut self, name: &Name, start: usize, at: usize) {
        let cost = name.len() as u32 + 2;
        let bare = at + 1 - start == cost as usize;
        if bare
            && matches!(name.get(), b"td" | b"th")
            && self.cur.bare >= self.cur.inline_bare + cost
        {
            self.cur.inline_bare += cost;
        }
    }

    /// `hidden="…"` or `style="…"` read where it lies on a tag that is not
    /// stacked unless hidden (see `Tag::stacks_when_hidden`); apart, as
    /// most attributes of spans are not these.
    #[inline(never)]
    fn unstacked_hiding(&mut self, src: &str, start: usize, name: usize, len: usize) {
        let bytes = src.as_bytes();
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

    /// Decides whether the value of the attribute just named (`name`,
    /// lowercase) is kept.
    ///
    /// class, id, role and itemprop only matter on elements that go on the
    /// stack (`push_open`): on every other tag (span, a, img, p, ...) they
    /// are not read at all (`reads_attributes`), which spares most of the
    /// class lists.
    fn begin_capture(&mut self, name: &[u8]) {
        debug_assert!(
            self.reads_attributes()
                || self.tag.stacks_when_hidden()
                || self.capture_for_name(name) == Capture::None
        );
        self.value.clear();
        self.capture = self.capture_for_name(name);
    }

    /// Does the tag being read keep its class and id (stacked tags and
    /// headings)?
    fn reads_class_and_id(&self) -> bool {
        self.tag.is_stacked() || self.tag.is_heading()
    }

    fn capture_for_name(&self, name: &[u8]) -> Capture {
        let stacked = self.tag.is_stacked();
        let class_and_id = self.reads_class_and_id();
        match (self.tag, name) {
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

    pub(super) fn end_value(&mut self) {
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

    /// The tag's `class` value where it lies in `src`, when read whole
    /// (see `tag_class`); empty otherwise.
    pub(super) fn class_value<'s>(&self, src: &'s str) -> &'s [u8] {
        let (start, len) = self.tag_class;
        src.as_bytes().get(start..start + len).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::super::Line;
    use super::super::tests::{assert_lines, line_holding, whole_and_bytewise};
    use super::*;

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
}
