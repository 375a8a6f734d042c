//! The open-element stack and the line counts; not how tags are read nor what they mean.

use super::policy::names_a_panel;
use super::tokenizer::{Name, Run, Short};
use super::{Element, Kind, Line, NO_ELEMENT, Page};
use crate::extract::signals::Signal;
use crate::extract::tags::{self, Tag};

#[derive(Debug, Clone, Copy)]
pub(super) struct Open {
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
    /// `Page::boiler_base`) outside this element, restored when it
    /// closes.
    bases: (u32, u32, u32, u32),
}

impl Page {
    /// Attributes text characters to the current line and element.
    pub(super) fn add_text(&mut self, n: u32) {
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
    #[inline(always)]
    pub(super) fn add_code_run(&mut self, run: Run) {
        self.add_code_run_in(run, self.in_anchor_tag());
    }

    /// [`Self::add_code_run`] where the caller knows whether the tag is
    /// an anchor's start tag (`in_anchor`): a start tag's name or an end
    /// tag's, without the load of the tag and its test.
    #[inline(always)]
    pub(super) fn add_code_run_in(&mut self, run: Run, in_anchor: bool) {
        self.cur.code += run.chars;
        self.cur.high += run.high;
        self.cur.low += run.bytes - run.high;
        if in_anchor {
            self.cur.anchor_markup += run.chars;
        }
    }

    /// Is the tag being read an anchor's start tag? (`end_tag` sets
    /// `tag` to `Other`, so an `A` is never an end tag's.)
    fn in_anchor_tag(&self) -> bool {
        self.tag == Tag::A
    }

    /// An `<a>` starting at `at` opens an anchor.
    pub(super) fn open_anchor(&mut self, at: usize) {
        if self.in_anchor {
            self.close_anchor(at);
        }
        self.in_anchor = true;
        self.anchor_line = self.lines.len();
        self.anchor_text = 0;
        self.cur.anchors += 1;
    }

    /// The tag at `at` ends the open anchor, if any.
    pub(super) fn close_anchor(&mut self, at: usize) {
        if !self.in_anchor {
            return;
        }
        self.in_anchor = false;
        if self.limits.links {
            self.info.links.close(at);
        }
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

    /// Opens the element the start tag just closed begins: `name` is its
    /// name, and `src` the text its `class` value lies in.
    pub(super) fn push_open(&mut self, src: &str, tag: Tag, tag_name: &Name) {
        let name = tag_name.short();
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
            self.tag_panel = after_heading || names_a_panel(self.class_value(src));
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
        let element = self.record_element(tag, boiler, tag_name);
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

    #[inline(always)]
    fn record_element(&mut self, tag: Tag, boiler: bool, name: &Name) -> u32 {
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
            kind: Kind::of(tag, name.get()),
        });
        (self.elements.len() - 1) as u32
    }

    /// Closes the innermost open element with this name, and everything
    /// above it (as browsers do for mis-nested blocks); a stray end tag with
    /// no open element of its name is ignored.
    pub(super) fn pop_to(&mut self, tag: Tag, name: &Name) {
        if self.overflow > 0 {
            self.overflow -= 1;
            return;
        }
        let name = name.short();
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

    pub(super) fn pop(&mut self) {
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
    // Inlined: its caller on the hot path, `start_tag` in the
    // tokenizer's `text_run` loop, saved and reloaded the registers it holds
    // around the call (−1.55 M instructions on every 15th page).
    #[inline(always)]
    pub(super) fn close_line(&mut self, at: usize) {
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
