//! Paragraphs the selected text repeats, dropped where they are a second
//! copy of the page's content.
//!
//! Some pages carry their article twice: A/B variants of a story block
//! with all but one hidden by script, a print or mobile copy, the same
//! card for the desktop and the phone layout. The scanner sees no styles
//! or scripts, so both copies count as text, both are chosen, and the
//! extracted text says everything twice (precision halves). Other pages
//! repeat a paragraph on purpose: the same step in a recipe, the same
//! feature under each plan, a chorus, a test page's identical paragraphs.
//!
//! A long paragraph seen before is taken for a copy when it repeats a
//! stretch of the text: with the line before or after it (of any length)
//! it repeats, in the same order, the lines around its earlier copy, the
//! two stretches not overlapping (a story twice, a card twice); or when it
//! is far from its earlier copy (a quarter of the text or more between
//! them: a print copy of a one-paragraph story). A paragraph repeated
//! among other lines near its earlier copy, or right after it, stays. So
//! does a copy in one element with its earlier copy, as the caller tells:
//! a page printing its text twice in one column means both, and only a
//! copy in an element of its own (a variant for another layout, or for a
//! script to show) is a second copy of the page. Short ones ("Reply",
//! "Share", a date) always stay.
//!
//! This looks at the rendered text, one paragraph per line; which lines
//! were chosen, and where they sit, is the caller's business.

use std::collections::HashMap;
use std::hash::BuildHasher;
use std::ops::Range;

/// Paragraphs shorter than this (bytes) are never dropped: short lines
/// repeat in real articles (labels, bylines, list items).
pub const MIN_REPEAT: usize = 60;

/// A single repeated paragraph (no stretch around it repeats) goes when
/// at least this share of the text lies between it and its earlier copy.
const FAR_SHARE: usize = 4;

/// The byte ranges of the later copies of long paragraphs (at least
/// [`MIN_REPEAT`] bytes, whitespace at their ends aside) that repeat a
/// stretch of the text or lie far from their earlier copy (see the module
/// doc) and that `one_element` does not say sit in one element with
/// their earlier copy, each with its `\n`, in order;
/// [`super::cut_lines`] takes them out.
pub fn repeated_paragraphs(
    text: &str,
    mut one_element: impl FnMut(&str) -> bool,
) -> Vec<Range<usize>> {
    let repeats = long_repeats(text);
    if repeats.is_empty() {
        return Vec::new();
    }
    // Only pages with a repeat pay for the lines' spans.
    let lines = line_spans(text);
    let line = |i: usize| text.get(lines[i].clone()).unwrap_or("").trim();
    let mut dropped: Vec<Range<usize>> = Vec::new();
    // `one_element` answers once per paragraph: its answer depends on the
    // text alone, and asking it for each of thousands of copies looks at
    // every copy each time.
    let mut in_one: HashMap<&str, bool> = HashMap::new();
    for (copy, earlier) in repeats {
        if line(copy) != line(earlier) {
            continue; // a hash collision
        }
        let gap = lines[copy].start - lines[earlier].end;
        let far = gap * FAR_SHARE >= text.len();
        if (far || repeats_a_stretch(&line, lines.len(), earlier, copy))
            && !*in_one
                .entry(line(copy))
                .or_insert_with_key(|p| one_element(p))
        {
            dropped.push(lines[copy].clone());
        }
    }
    dropped
}

/// Each long paragraph seen before, as (its line, the line of its nearest
/// earlier copy), by the hash of its trimmed text.
fn long_repeats(text: &str) -> Vec<(usize, usize)> {
    let hasher = foldhash::fast::FixedState::with_seed(0);
    // Room for every paragraph that could be long enough, so the map
    // never grows by rehashing (most texts hold a few dozen).
    let room = text.len() / MIN_REPEAT;
    let mut last: HashMap<u64, usize, _> = HashMap::with_capacity_and_hasher(
        room.min(1 << 12),
        foldhash::fast::FixedState::with_seed(1),
    );
    let mut repeats = Vec::new();
    // Line ends found with memchr: `split_inclusive`'s char searcher cost
    // twice as much on rendered text.
    let ends = memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1);
    let mut at = 0;
    for (i, end) in ends.chain(std::iter::once(text.len())).enumerate() {
        let line = text.get(at..end).unwrap_or("");
        // A paragraph too short to count needs no trimming or hashing.
        if line.len() >= MIN_REPEAT {
            let key = line.trim();
            if key.len() >= MIN_REPEAT
                && let Some(earlier) = last.insert(hasher.hash_one(key), i)
            {
                repeats.push((i, earlier));
            }
        }
        at = end;
    }
    repeats
}

/// The byte range of each line of `text`, its `\n` included.
fn line_spans(text: &str) -> Vec<Range<usize>> {
    let ends = memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1);
    let mut at = 0;
    ends.chain(std::iter::once(text.len()))
        .map(|end| {
            let span = at..end;
            at = end;
            span
        })
        .collect()
}

/// Whether the line before or after `copy` is the one before or after
/// `earlier` (its earlier copy), the two stretches of two lines not
/// overlapping: `line(i)` is line `i` trimmed, of `n` lines.
fn repeats_a_stretch<'t>(
    line: &impl Fn(usize) -> &'t str,
    n: usize,
    earlier: usize,
    copy: usize,
) -> bool {
    // Two lines each: `earlier` and `copy` at least two apart.
    if copy - earlier < 2 {
        return false;
    }
    let before = earlier > 0 && line(copy - 1) == line(earlier - 1);
    let after = copy + 1 < n && line(copy + 1) == line(earlier + 1);
    before || after
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_element_question_is_asked_once_per_paragraph() {
        let a = "a".repeat(MIN_REPEAT);
        let b = "b".repeat(MIN_REPEAT);
        let text = format!("{a}\n{b}\n").repeat(50);
        let mut asked = 0;
        let dropped = repeated_paragraphs(&text, |_| {
            asked += 1;
            false
        });
        assert_eq!(dropped.len(), 98);
        assert_eq!(asked, 2);
    }

    /// Drops from `text` the later copies of long paragraphs (at least
    /// [`MIN_REPEAT`] bytes, whitespace at their ends aside) that repeat a
    /// stretch of it or lie far from their earlier copy (see the module doc).
    /// Returns how many were dropped. The text is rewritten only when one is.
    fn drop_repeated_paragraphs(text: &mut String) -> usize {
        let dropped = repeated_paragraphs(text, |_| false);
        if dropped.is_empty() {
            return 0;
        }
        crate::extract::text::cut_lines(text, &dropped);
        dropped.len()
    }

    const PARA: &str = "Shares of the real-estate firm rose sharply on Tuesday after the report.";

    /// A one-paragraph story carried twice: a quarter of the text or
    /// more lies between the copies.
    #[test]
    fn a_long_paragraph_far_from_its_earlier_copy_is_dropped() {
        let middle = "Second paragraph of the story, long enough to count.\n\
                      Third paragraph of the story, which is long enough too.";
        let mut text = format!("Headline\n{PARA}\n{middle}\n{PARA}\nEnd");
        assert_eq!(drop_repeated_paragraphs(&mut text), 1);
        assert_eq!(text, format!("Headline\n{PARA}\n{middle}\nEnd"));
    }

    /// A recipe repeating a step, a pricing table repeating a feature
    /// under each plan, a test page's identical paragraphs in a row: the
    /// repeats sit near their earlier copy, among other lines or right
    /// after it, and stay.
    #[test]
    fn identical_paragraphs_near_each_other_are_kept() {
        let step = "Stir the sauce gently over a low heat until it coats the back of a spoon.";
        let steps = [
            "Melt the butter in a wide pan and add the chopped onions with a pinch of salt.",
            step,
            "Pour in the stock a ladle at a time, letting each one simmer away before the next.",
            step,
            "Season with pepper, grate over the cheese and let the pan rest for two minutes.",
            "Serve at once in warm bowls, with bread on the side and the rest of the wine.",
            "Leftovers keep for two days in the fridge and reheat well with a splash of water.",
        ];
        let plans = (1..=3)
            .map(|i| format!("Plan {i}\n${i}0 a month\nUnlimited projects, priority support and daily backups included."))
            .collect::<Vec<_>>()
            .join("\n");
        let lorem =
            "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor.";
        for original in [
            steps.join("\n"),
            plans,
            format!("Test page\n{lorem}\n{lorem}\n{lorem}\nThe end"),
        ] {
            let mut text = original.clone();
            assert_eq!(drop_repeated_paragraphs(&mut text), 0, "{original}");
            assert_eq!(text, original);
        }
    }

    /// A card set twice for two layouts: its heading and its paragraph
    /// repeat together, so the paragraph is a copy though it is near.
    #[test]
    fn a_paragraph_repeated_with_the_line_before_it_is_dropped() {
        let card = "Lift Off\nBranding a beer on a mission to benefit a museum and stand out.";
        let other = "Well Distilled\nA revamped classic bourbon brand now found on top shelves in Kentucky.";
        let mut text = format!("{card}\n{card}\n{other}\n{other}\nContact us");
        assert_eq!(drop_repeated_paragraphs(&mut text), 2);
        assert_eq!(
            text,
            "Lift Off\nBranding a beer on a mission to benefit a museum and stand out.\n\
             Lift Off\n\
             Well Distilled\nA revamped classic bourbon brand now found on top shelves in Kentucky.\n\
             Well Distilled\nContact us"
        );
    }

    /// The same story twice stays twice where each paragraph's copies sit
    /// in one element; only the later copies are asked about.
    #[test]
    fn copies_in_one_element_are_kept() {
        let story =
            format!("{PARA}\nAnd a second paragraph that is as long as a sentence ought to be.");
        let original = format!("{story}\n{story}");
        let mut asked = Vec::new();
        let dropped = repeated_paragraphs(&original, |p| {
            asked.push(p.to_string());
            true
        });
        assert!(dropped.is_empty());
        assert_eq!(asked.len(), 2);
        assert_eq!(asked[0], PARA);
    }

    #[test]
    fn short_repeats_and_distinct_paragraphs_are_kept() {
        let original = format!("Reply\nShare this\nReply\nShare this\n{PARA}\n{PARA}.");
        let mut text = original.clone();
        assert_eq!(drop_repeated_paragraphs(&mut text), 0);
        assert_eq!(text, original);
    }

    #[test]
    fn the_whole_story_twice_is_kept_once_whatever_the_spacing() {
        let story =
            format!("{PARA}\nAnd a second paragraph that is as long as a sentence ought to be.");
        let mut text = format!(
            "{story}\n  {PARA}  \nAnd a second paragraph that is as long as a sentence ought to be."
        );
        assert_eq!(drop_repeated_paragraphs(&mut text), 2);
        assert_eq!(text, story);
    }
}
