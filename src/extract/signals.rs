//! Boilerplate signals from `class` and `id` attribute values (seed 003).
//!
//! A value is split into name parts at anything that is not a letter or a
//! digit and at lower→upper case changes (`site-footer`, `mainNav`,
//! `comment_list`), and each part is looked up whole. Substring matching is
//! deliberately avoided: `content-sidebar-wrap` must not read as "sidebar"
//! alone, since it wraps the content; content words in the same value
//! (content, main, article, post, ...) cancel the boilerplate words.
//!
//! This module only classifies one attribute value; the scanner decides what
//! an element's signal means for its lines.

/// What a class/id value says about its element.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Signal {
    #[default]
    Neutral,
    /// Names page furniture: navigation, footers, comments, sharing, ads.
    Boilerplate,
    /// Names the content itself.
    Content,
}

/// Name parts that mark page furniture.
const BOILERPLATE: &[&str] = &[
    "nav",
    "navbar",
    "navigation",
    "menu",
    "menus",
    "footer",
    "sidebar",
    "side",
    "aside",
    "comment",
    "comments",
    "commentlist",
    "share",
    "sharing",
    "social",
    "related",
    "advert",
    "advertisement",
    "ad",
    "ads",
    "adsense",
    "banner",
    "breadcrumb",
    "breadcrumbs",
    "promo",
    "widget",
    "widgets",
    "cookie",
    "cookies",
    "newsletter",
    "subscribe",
    "subscription",
    "popup",
    "modal",
    "masthead",
    "skip",
    "pagination",
    "pager",
    "toolbar",
    "login",
    "signup",
    "disqus",
    "outbrain",
    "taboola",
    "sponsored",
    "sponsor",
    "recommended",
    "recommendations",
    "trending",
    "popular",
    "copyright",
    "legal",
    "rss",
    "tagcloud",
    "topbar",
    "bottombar",
    "dropdown",
    "offcanvas",
    "sitemap",
    "teaser",
    "teasers",
    "more",
    "also",
    "latest",
    "hidden",
];

/// Name parts that mark the main content.
const CONTENT: &[&str] = &[
    "content",
    "main",
    "article",
    "articles",
    "post",
    "posts",
    "entry",
    "story",
    "body",
    "text",
    "blog",
    "prose",
    "markdown",
    "documentation",
    "docs",
    "answer",
    "question",
    "review",
    "description",
    "product",
    "recipe",
    "instructions",
];

/// Classifies one class or id attribute value.
pub fn classify(value: &[u8]) -> Signal {
    let mut boiler = false;
    let mut content = false;
    for part in NameParts::new(value) {
        if contains(BOILERPLATE, part) {
            boiler = true;
        } else if contains(CONTENT, part) {
            content = true;
        }
    }
    match (boiler, content) {
        (_, true) => Signal::Content,
        (true, false) => Signal::Boilerplate,
        (false, false) => Signal::Neutral,
    }
}

fn contains(words: &[&str], part: &[u8]) -> bool {
    words
        .iter()
        .any(|w| w.as_bytes().eq_ignore_ascii_case(part))
}

/// Iterates over the name parts of a class/id value without allocating.
struct NameParts<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> NameParts<'a> {
    fn new(bytes: &'a [u8]) -> Self {
        NameParts { bytes, pos: 0 }
    }
}

impl<'a> Iterator for NameParts<'a> {
    type Item = &'a [u8];

    fn next(&mut self) -> Option<&'a [u8]> {
        let b = self.bytes;
        while self.pos < b.len() && !b[self.pos].is_ascii_alphanumeric() {
            self.pos += 1;
        }
        if self.pos >= b.len() {
            return None;
        }
        let start = self.pos;
        self.pos += 1;
        while self.pos < b.len() {
            let c = b[self.pos];
            let camel = c.is_ascii_uppercase() && b[self.pos - 1].is_ascii_lowercase();
            if !c.is_ascii_alphanumeric() || camel {
                break;
            }
            self.pos += 1;
        }
        Some(&b[start..self.pos])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_parts_only() {
        assert_eq!(classify(b"site-footer"), Signal::Boilerplate);
        assert_eq!(classify(b"mainNav"), Signal::Content);
        assert_eq!(classify(b"topNav"), Signal::Boilerplate);
        assert_eq!(classify(b"navigation_bar"), Signal::Boilerplate);
        // "sidebar" as a part of a content wrapper is cancelled by "content".
        assert_eq!(classify(b"content-sidebar-wrap"), Signal::Content);
        // A word that merely contains "ad" is not an advert.
        assert_eq!(classify(b"headline shadow"), Signal::Neutral);
        assert_eq!(classify(b""), Signal::Neutral);
        assert_eq!(classify(b"comment-list"), Signal::Boilerplate);
    }
}
