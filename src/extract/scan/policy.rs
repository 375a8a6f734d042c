//! The element policy: what a tag means (hidden, panel, main, furniture); not how it is read.
//!
//! Fused for speed: `end_value` also keeps the `<meta>` and `lang` values
//! for `capture` (one match on the attribute being read), and the
//! boilerplate decision for a stacked element stays in
//! `stack::push_open`, beside the depths it sets.

use super::{Scanner, VALUE_CAP};
use crate::extract::signals::{self, Signal};
use crate::extract::tags::Tag;

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
/// classes out of the memo's slots.
#[inline]
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

impl Scanner<'_> {
    /// An attribute name ended without `=` right after it: the boolean
    /// `hidden` (the HTML way to hide an element) is the one read.
    pub(super) fn name_without_value(&mut self) {
        if (self.tag.is_stacked() || self.tag.stacks_when_hidden())
            && self.attr_name.get() == b"hidden"
        {
            self.tag_hidden = true;
        }
    }

    /// `hidden="…"` or `style="…"` read where it lies on a tag that is not
    /// stacked unless hidden (see `Tag::stacks_when_hidden`); apart, as
    /// most attributes of spans are not these.
    #[inline(never)]
    pub(super) fn unstacked_hiding(&mut self, start: usize, name: usize, len: usize) {
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
    pub(super) fn begin_capture(&mut self) {
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
    pub(super) fn reads_attributes(&self) -> bool {
        self.tag.is_stacked() || self.tag == Tag::Meta || self.tag.is_heading()
    }

    /// Does the tag being read keep its class and id (stacked tags and
    /// headings)?
    pub(super) fn reads_class_and_id(&self) -> bool {
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

    pub(super) fn capture_byte(&mut self, b: u8) {
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
    pub(super) fn class_or_id(&mut self, (signal, main): (Signal, bool)) {
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

    /// The tag's `class` value where it lies, when read whole (see
    /// `tag_class`); empty otherwise.
    pub(super) fn class_value(&self) -> &[u8] {
        let (start, len) = self.tag_class;
        self.src
            .as_bytes()
            .get(start..start + len)
            .unwrap_or_default()
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
