//! Title, metadata and link capture (`<title>`, `og:title`, `<meta>`, JSON-LD, `<a>` and `<base>` marks); not tag reading.

use super::tokenizer::{Name, RawMode};
use super::{Page, TITLE_CAP};

impl Page {
    /// Marks the tag just closed, `start..end` (`<meta>`, `<link>`,
    /// `<time>`), for metadata.
    pub(super) fn mark_tag(&mut self, start: usize, end: usize) {
        self.info.meta.tag(start, end);
    }

    /// Marks the `<a>` start tag just closed for the page's links (with
    /// `ScanLimits::links` only); `close_anchor` marks where its text
    /// ends.
    pub(super) fn mark_anchor(&mut self, start: usize, end: usize) {
        self.info.links.anchor(start, end);
    }

    /// Marks the `<base>` tag just closed: links and metadata resolve
    /// against it.
    pub(super) fn mark_base(&mut self, start: usize, end: usize) {
        self.info.links.base(start, end);
    }

    /// Is the tag just closed, `src[start..at]` up to its `>`, a
    /// `<script>` of JSON-LD? Its own source is searched, a few dozen
    /// bytes.
    pub(super) fn is_ld_json(src: &str, name: &Name, start: usize, at: usize) -> bool {
        name.get() == b"script"
            && src
                .as_bytes()
                .get(start..at)
                .is_some_and(|tag| memchr::memmem::find(tag, b"ld+json").is_some())
    }

    pub(super) fn meta_closed(&mut self, start: usize, end: usize) {
        self.mark_tag(start, end);
        if self.meta_is_title && self.info.og_title.is_empty() {
            self.info.og_title = String::from_utf8_lossy(&self.meta_content).into_owned();
        }
    }

    /// A `<title>` with no `</title>` in sight (truncated or broken pages)
    /// would swallow the page: the tokenizer ends it at its first line
    /// break or `<` instead (`RawMode::Bounded`), and that is the title.
    pub(super) fn abandon_title(&mut self, title: &str) {
        self.info.title = title.to_string();
        self.title_done = true;
    }

    /// Raw text `src[start..end]` read as `mode` ended: a JSON-LD script
    /// is marked for metadata, a title kept.
    pub(super) fn leave_raw(&mut self, src: &str, mode: RawMode, start: usize, end: usize) {
        if self.raw_ld_json {
            self.raw_ld_json = false;
            self.info.meta.script(start, end);
        }
        if mode == RawMode::Bounded {
            self.title_done = true;
            let raw = &src[start..end];
            let end = raw.floor_char_boundary(TITLE_CAP);
            self.info.title = raw[..end].to_string();
        }
    }
}
