//! Paragraphs the selected text repeats, dropped after their first time.
//!
//! Some pages carry their article twice: A/B variants of a story block
//! with all but one hidden by script, a print or mobile copy, the same
//! text in a tab and in a teaser. The scanner sees no styles or scripts,
//! so both copies count as text, both are chosen, and the extracted text
//! says everything twice (precision halves). A long paragraph seen before
//! in the same text is such a copy; short ones ("Reply", "Share", a date)
//! repeat legitimately and are kept.
//!
//! This only looks at the rendered text, one paragraph per line; which
//! lines were chosen is `select`'s business.

use std::collections::HashSet;
use std::hash::BuildHasher;

/// Paragraphs shorter than this (bytes) are never dropped: short lines
/// repeat in real articles (labels, bylines, list items).
pub const MIN_REPEAT: usize = 60;

/// Drops from `text` every paragraph (line) of at least [`MIN_REPEAT`]
/// bytes that already appeared earlier in it, whitespace at its ends
/// aside. Returns how many were dropped. The text is rewritten only when
/// one is.
pub fn drop_repeated_paragraphs(text: &mut String) -> usize {
    let hasher = foldhash::fast::FixedState::with_seed(0);
    // Room for every paragraph that could be long enough, so the set
    // never grows by rehashing (most texts hold a few dozen).
    let room = text.len() / MIN_REPEAT;
    let mut seen: HashSet<u64, _> = HashSet::with_capacity_and_hasher(
        room.min(1 << 12),
        foldhash::fast::FixedState::with_seed(1),
    );
    let mut repeated = Vec::new();
    // Line ends found with memchr: `split_inclusive`'s char searcher cost
    // twice as much on rendered text.
    let ends = memchr::memchr_iter(b'\n', text.as_bytes()).map(|i| i + 1);
    let mut at = 0;
    for end in ends.chain(std::iter::once(text.len())) {
        let line = text.get(at..end).unwrap_or("");
        // A paragraph too short to count needs no trimming or hashing.
        if line.len() >= MIN_REPEAT {
            let key = line.trim();
            if key.len() >= MIN_REPEAT && !seen.insert(hasher.hash_one(key)) {
                repeated.push(at..end);
            }
        }
        at = end;
    }
    if repeated.is_empty() {
        return 0;
    }
    let mut kept = String::with_capacity(text.len());
    let mut from = 0;
    for r in &repeated {
        kept.push_str(&text[from..r.start]);
        from = r.end;
    }
    kept.push_str(&text[from..]);
    // A dropped last paragraph leaves the break before it.
    if !text.ends_with('\n') {
        while kept.ends_with('\n') {
            kept.pop();
        }
    }
    *text = kept;
    repeated.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    const PARA: &str = "Shares of the real-estate firm rose sharply on Tuesday after the report.";

    #[test]
    fn a_long_paragraph_seen_before_is_dropped() {
        let mut text = format!(
            "Headline\n{PARA}\nSecond paragraph of the story, long enough to count.\n{PARA}\nEnd"
        );
        assert_eq!(drop_repeated_paragraphs(&mut text), 1);
        assert_eq!(
            text,
            format!("Headline\n{PARA}\nSecond paragraph of the story, long enough to count.\nEnd")
        );
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
