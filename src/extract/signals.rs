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

/// Classifies one class or id attribute value.
pub fn classify(value: &[u8]) -> Signal {
    let mut boiler = false;
    let mut content = false;
    for part in NameParts::new(value) {
        match word(part) {
            Signal::Boilerplate => boiler = true,
            Signal::Content => content = true,
            Signal::Neutral => {}
        }
    }
    match (boiler, content) {
        (_, true) => Signal::Content,
        (true, false) => Signal::Boilerplate,
        (false, false) => Signal::Neutral,
    }
}

/// The longest word in either list below; longer parts are neutral.
const LONGEST: usize = 15;

/// What one name part says, compared case-insensitively.
///
/// The parts are lowercased into a stack buffer and matched whole by a
/// `match`, which the compiler turns into a switch on length and a few
/// comparisons: this runs for every class and id on the page, and a linear
/// case-insensitive scan of the word lists was a tenth of the core's time.
fn word(part: &[u8]) -> Signal {
    if part.len() > LONGEST {
        return Signal::Neutral;
    }
    let mut buf = [0u8; LONGEST];
    let lower = &mut buf[..part.len()];
    lower.copy_from_slice(part);
    lower.make_ascii_lowercase();
    match &*lower {
        // Page furniture: navigation, footers, comments, sharing, ads.
        b"nav" | b"navbar" | b"navigation" | b"menu" | b"menus" | b"footer" | b"sidebar"
        | b"side" | b"aside" | b"comment" | b"comments" | b"commentlist" | b"share"
        | b"sharing" | b"social" | b"related" | b"advert" | b"advertisement" | b"ad" | b"ads"
        | b"adsense" | b"banner" | b"breadcrumb" | b"breadcrumbs" | b"promo" | b"widget"
        | b"widgets" | b"cookie" | b"cookies" | b"newsletter" | b"subscribe" | b"subscription"
        | b"popup" | b"modal" | b"masthead" | b"skip" | b"pagination" | b"pager" | b"toolbar"
        | b"login" | b"signup" | b"disqus" | b"outbrain" | b"taboola" | b"sponsored"
        | b"sponsor" | b"recommended" | b"recommendations" | b"trending" | b"popular"
        | b"copyright" | b"legal" | b"rss" | b"tagcloud" | b"topbar" | b"bottombar"
        | b"dropdown" | b"offcanvas" | b"sitemap" | b"teaser" | b"teasers" | b"more" | b"also"
        | b"latest" | b"hidden" => Signal::Boilerplate,
        // The main content.
        b"content" | b"main" | b"article" | b"articles" | b"post" | b"posts" | b"entry"
        | b"story" | b"body" | b"text" | b"blog" | b"prose" | b"markdown" | b"documentation"
        | b"docs" | b"answer" | b"question" | b"review" | b"description" | b"product"
        | b"recipe" | b"instructions" => Signal::Content,
        _ => Signal::Neutral,
    }
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

    #[test]
    fn parts_match_whole_and_case_insensitively() {
        // The longest words of each list, in any case.
        assert_eq!(classify(b"RECOMMENDATIONS"), Signal::Boilerplate);
        assert_eq!(classify(b"Documentation"), Signal::Content);
        assert_eq!(classify(b"ADS"), Signal::Boilerplate);
        // One letter past the longest word is no word at all.
        assert_eq!(classify(b"recommendationsx"), Signal::Neutral);
        assert_eq!(classify(b"navx"), Signal::Neutral);
        assert_eq!(classify(b"na"), Signal::Neutral);
        // Non-ASCII bytes separate parts and never match.
        assert_eq!(classify("menü footer".as_bytes()), Signal::Boilerplate);
    }
}
