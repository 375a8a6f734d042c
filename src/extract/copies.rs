//! Where the copies of a repeated paragraph sit on the page: the chosen
//! lines that show it and the element each one opens in. The repeat
//! filter (`text::repeats`) keeps copies that share one element; this
//! module only answers where they are, and renders nothing but the lines
//! that may hold them.

use super::regions::Region;
use super::scan::{NO_ELEMENT, Scan};
use super::text;

/// Where the copies of a repeated paragraph sit: the chosen lines that
/// show it, each rendered on its own, and the innermost element open at
/// each one's start.
pub(super) struct Copies<'a> {
    scan: &'a Scan<'a>,
    regions: &'a [Region],
    anchors: text::Anchors,
}

impl<'a> Copies<'a> {
    pub(super) fn new(scan: &'a Scan<'a>, regions: &'a [Region], anchors: text::Anchors) -> Self {
        Copies {
            scan,
            regions,
            anchors,
        }
    }

    /// Do two chosen lines or more show `paragraph` (trimmed), all in one
    /// element? Copies on one line are one: a line holding a whole page's
    /// text twice (a feed's dump after its markup) is no pair of siblings.
    /// A paragraph that spans lines is not found, and counts as copies
    /// apart. Only the lines whose markup holds a run of the paragraph's
    /// plain words are rendered (see [`plain_run`]).
    pub(super) fn in_one_element(&self, paragraph: &str) -> bool {
        let run = plain_run(paragraph);
        let finder = memchr::memmem::Finder::new(run.as_bytes());
        let mut element = None;
        let mut copies = 0;
        let mut text = String::new();
        for r in self.regions {
            for l in self
                .scan
                .lines
                .get(r.first as usize..=r.last as usize)
                .unwrap_or(&[])
            {
                if l.text == 0 || finder.find(l.source(&self.scan.src).as_bytes()).is_none() {
                    continue;
                }
                text.clear();
                let range = (l.start as usize, l.end as usize);
                text::render(&self.scan.src, &[range], self.anchors, &mut text);
                if text.lines().any(|t| t.trim() == paragraph) {
                    copies += 1;
                    if *element.get_or_insert(l.container) != l.container {
                        return false;
                    }
                }
            }
        }
        copies >= 2 && element.is_some_and(|e| e != NO_ELEMENT)
    }
}

/// The longest run of a paragraph's text (up to 32 bytes) that its markup
/// holds as written wherever it is set: ASCII letters and digits, one
/// space between words. Empty (every line holds it) when the paragraph
/// has none.
fn plain_run(paragraph: &str) -> &str {
    const MAX: usize = 32;
    let b = paragraph.as_bytes();
    let (mut best, mut start) = (0..0, 0);
    for i in 0..=b.len() {
        let plain = match b.get(i) {
            Some(c) if c.is_ascii_alphanumeric() => true,
            Some(b' ') => i > start && b[i - 1].is_ascii_alphanumeric(),
            _ => false,
        };
        if plain && i - start < MAX {
            continue;
        }
        // The run `start..i` ends: all plain ASCII, so on char boundaries.
        let mut end = i;
        while end > start && b[end - 1] == b' ' {
            end -= 1;
        }
        if end - start > best.len() {
            best = start..end;
        }
        start = if plain { i } else { i + 1 };
    }
    paragraph.get(best).unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_paragraphs_plain_run_is_its_longest_stretch_of_ascii_words() {
        assert_eq!(
            plain_run("Caf\u{e9} \u{ab}ouvert\u{bb}: open from nine to five, daily"),
            "open from nine to five"
        );
        assert_eq!(
            plain_run("abcdefghij abcdefghij abcdefghij abcdefghij"),
            "abcdefghij abcdefghij abcdefghij"
        );
        assert_eq!(plain_run("two  spaces"), "spaces");
        assert_eq!(plain_run("\u{6f22}\u{5b57}\u{3060}\u{3051}"), "");
    }
}
