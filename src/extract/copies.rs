//! Where the copies of a repeated paragraph sit on the page: the chosen
//! lines that show it and the element each one opens in. The repeat
//! filter (`text::repeats`) keeps copies that share one element; this
//! module only answers where they are, and renders only the lines that
//! may hold them (each chosen line once, on a page of many repeats).

use super::regions::Region;
use super::scan::{Line, NO_ELEMENT, Scan};
use super::text;
use memchr::memmem;
use std::collections::HashMap;

/// Questions answered by reading the chosen markup for the paragraph's
/// plain words (see [`plain_words`]); from the next one on, every chosen
/// line is rendered once into an index and looked up, so that a page of a
/// thousand repeats costs at most this many reads and one render of its
/// chosen lines. Most pages ask nothing; on the development corpus one
/// page in 250 asks more.
const SCANS: u32 = 16;

/// Where the copies of a repeated paragraph sit: the chosen lines that
/// show it, each rendered on its own, and the innermost element open at
/// each one's start.
pub(super) struct Copies<'a> {
    chosen: Chosen<'a>,
    questions: u32,
    /// Each long paragraph the chosen lines show, with the lines showing
    /// it (each once, in order), once more than [`SCANS`] are asked.
    index: Option<HashMap<String, Vec<u32>>>,
}

impl<'a> Copies<'a> {
    pub(super) fn new(scan: &'a Scan<'a>, regions: &'a [Region], anchors: text::Anchors) -> Self {
        Copies {
            chosen: Chosen {
                scan,
                regions,
                anchors,
            },
            questions: 0,
            index: None,
        }
    }

    /// Do two chosen lines or more show `paragraph` (trimmed), all in one
    /// element? Copies on one line are one: a line holding a whole page's
    /// text twice (a feed's dump after its markup) is no pair of siblings.
    /// A paragraph that spans lines is not found, and counts as copies
    /// apart; so does one whose plain words no line holds (see
    /// [`plain_words`]), which spares rendering lines that cannot show it.
    pub(super) fn in_one_element(&mut self, paragraph: &str) -> bool {
        self.questions += 1;
        let chosen = &self.chosen;
        let finders = plain_words(paragraph).map(|w| memmem::Finder::new(w.as_bytes()));
        let holds_words = |i: &u32| {
            let markup = chosen.line(*i).source(&chosen.scan.src).as_bytes();
            finders.iter().all(|f| f.find(markup).is_some())
        };
        let showing: Vec<u32> = if self.questions <= SCANS {
            chosen
                .with_text()
                .filter(|i| holds_words(i) && chosen.shows(*i, paragraph))
                .collect()
        } else {
            let index = self.index.get_or_insert_with(|| chosen.index());
            let found = index.get(paragraph).map_or(&[][..], Vec::as_slice);
            found.iter().copied().filter(holds_words).collect()
        };
        let mut elements = showing.iter().map(|&i| chosen.line(i).container);
        match elements.next() {
            Some(first) if first != NO_ELEMENT && showing.len() >= 2 => {
                elements.all(|e| e == first)
            }
            _ => false,
        }
    }
}

/// The chosen lines of a page, and how its text renders them.
struct Chosen<'a> {
    scan: &'a Scan<'a>,
    regions: &'a [Region],
    anchors: text::Anchors,
}

impl Chosen<'_> {
    /// Line `i` (the chosen regions' lines are the scan's).
    fn line(&self, i: u32) -> &Line {
        &self.scan.lines[i as usize]
    }

    /// The chosen lines with text, in order.
    fn with_text(&self) -> impl Iterator<Item = u32> + '_ {
        let lines = &self.scan.lines;
        self.regions
            .iter()
            .flat_map(|r| r.first..=r.last)
            .filter(|&i| lines.get(i as usize).is_some_and(|l| l.text > 0))
    }

    /// Line `i` rendered on its own.
    fn render(&self, i: u32) -> String {
        let l = self.line(i);
        let mut text = String::new();
        let range = (l.start as usize, l.end as usize);
        text::render(&self.scan.src, &[range], self.anchors, &mut text);
        text
    }

    /// Does line `i`, rendered on its own, show `paragraph`?
    fn shows(&self, i: u32, paragraph: &str) -> bool {
        self.render(i).lines().any(|t| t.trim() == paragraph)
    }

    /// Every long paragraph of the chosen lines, and the lines showing it.
    fn index(&self) -> HashMap<String, Vec<u32>> {
        let mut index: HashMap<String, Vec<u32>> = HashMap::new();
        for i in self.with_text() {
            for t in self.render(i).lines().map(str::trim) {
                if t.len() < text::repeats::MIN_REPEAT {
                    continue;
                }
                let found = index.entry(t.to_string()).or_default();
                if found.last() != Some(&i) {
                    found.push(i);
                }
            }
        }
        index
    }
}

/// The two longest words of a paragraph that markup holds as written
/// wherever the paragraph is set: ASCII letters and digits, which no page
/// writes as entities, and no space, which markup may break into a
/// newline and indentation. Where they are shorter than [`MIN_WORD`]
/// bytes (a paragraph in another script), its longest run of any letters
/// and digits. Empty words (every line holds them) where it has none.
fn plain_words(paragraph: &str) -> [&str; 2] {
    let mut ascii = ["", ""];
    for w in paragraph.split(|c: char| !c.is_ascii_alphanumeric()) {
        if w.len() > ascii[0].len() {
            ascii = [w, ascii[0]];
        } else if w.len() > ascii[1].len() && w != ascii[0] {
            ascii[1] = w;
        }
    }
    if ascii[0].len() >= MIN_WORD {
        return ascii;
    }
    let other = paragraph
        .split(|c: char| !c.is_alphanumeric())
        .max_by_key(|w| w.len())
        .unwrap_or("");
    if other.len() > ascii[0].len() {
        [other, ""]
    } else {
        ascii
    }
}

/// Bytes an ASCII word needs to stand for its paragraph.
const MIN_WORD: usize = 6;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_paragraphs_plain_words_are_its_two_longest_ascii_words_or_else_its_longest_word() {
        assert_eq!(
            plain_words("Fish &amp; chips: opening hours, opening days"),
            ["opening", "chips"]
        );
        assert_eq!(
            plain_words("The lighthouse keepers’ logbook"),
            ["lighthouse", "keepers"]
        );
        assert_eq!(
            plain_words("漢字だけの段落、<b>です"),
            ["漢字だけの段落", ""]
        );
        assert_eq!(plain_words("Ключевые слова"), ["Ключевые", ""]);
        assert_eq!(plain_words("& < —"), ["", ""]);
    }
}
