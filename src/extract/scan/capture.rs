//! Title, metadata and link capture (`<title>`, `og:title`, `<meta>`, JSON-LD, `<a>` and `<base>` marks); not tag reading.

use super::tokenizer::{RawMode, State};
use super::{Scanner, TITLE_CAP};

/// The largest index ≤ `i` that is a char boundary of `s`.
fn floor_char_boundary(s: &str, i: usize) -> usize {
    let mut i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

impl Scanner<'_> {
    /// Marks the tag just closed (`<meta>`, `<link>`, `<time>`) for
    /// metadata.
    pub(super) fn mark_tag(&mut self) {
        let end = (self.pos + 1).min(self.src.len());
        self.info.meta.tag(self.tag_start, end);
    }

    /// Marks the `<a>` start tag just closed for the page's links (with
    /// `ScanLimits::links` only); `close_anchor` marks where its text
    /// ends.
    pub(super) fn mark_anchor(&mut self) {
        let end = (self.pos + 1).min(self.src.len());
        self.info.links.anchor(self.tag_start, end);
    }

    /// Marks the `<base>` tag just closed: links and metadata resolve
    /// against it.
    pub(super) fn mark_base(&mut self) {
        let end = (self.pos + 1).min(self.src.len());
        self.info.links.base(self.tag_start, end);
    }

    /// Is the tag just closed a `<script>` of JSON-LD? Its own source
    /// is searched, a few dozen bytes.
    pub(super) fn is_ld_json(&self) -> bool {
        self.tag_name.get() == b"script"
            && self
                .src
                .as_bytes()
                .get(self.tag_start..self.pos)
                .is_some_and(|tag| memchr::memmem::find(tag, b"ld+json").is_some())
    }

    pub(super) fn meta_closed(&mut self) {
        self.mark_tag();
        if self.meta_is_title && self.info.og_title.is_empty() {
            self.info.og_title = String::from_utf8_lossy(&self.meta_content).into_owned();
        }
    }

    /// A `<title>` with no `</title>` in sight (truncated or broken pages)
    /// would swallow the page: the title ends at its first line break or
    /// `<` instead, and scanning resumes there as ordinary markup.
    pub(super) fn abandon_title(&mut self) {
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

    pub(super) fn leave_raw(&mut self, b: u8) {
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
}
