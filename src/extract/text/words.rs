//! Whitespace collapsing outside `<pre>`: a text run becomes phrases (words,
//! or words joined by single spaces), each knowing whether whitespace
//! came before it within the run.
//!
//! Runs are split on ASCII whitespace in ASCII runs, on Unicode
//! whitespace in others; the bytes where a phrase may end are found
//! sixteen at a time (`extract::blocks`), then checked one by one. This
//! only finds the words: where spaces and line breaks go in the output
//! is the renderer's business.

use super::super::blocks::{Block, at_most};
use wide::u8x16;

/// Calls `phrase(space_before, phrase)` for each phrase of `value` and
/// returns whether `value` ends in whitespace. A phrase is one word or
/// several joined by single spaces, which collapsing would leave as they
/// are: handing them over whole saves a call and a copy per word. An empty
/// or all-whitespace value has no phrases; the latter "ends in
/// whitespace".
///
/// Whitespace is `char::is_whitespace`'s: ASCII whitespace and U+000B,
/// and in text that is not all ASCII the non-ASCII spaces too. It is a
/// property of each character, so a run cut into other pieces gives the
/// same words (the renderer gets text in pieces that depend on how it was
/// tokenized).
///
/// `ascii` says whether `value` is all ASCII: the caller often knows.
pub(super) fn each_phrase(value: &str, ascii: bool, mut phrase: impl FnMut(bool, &str)) -> bool {
    if ascii {
        phrases::<false>(value, &mut phrase)
    } else {
        phrases::<true>(value, &mut phrase)
    }
}

/// [`each_phrase`] for ASCII (`UNICODE` false) or other text.
fn phrases<const UNICODE: bool>(value: &str, phrase: &mut impl FnMut(bool, &str)) -> bool {
    let bytes = value.as_bytes();
    let n = bytes.len();
    let mut space = false;
    let mut i = 0;
    while i < n {
        let w = whitespace_len::<UNICODE>(value, i);
        if w > 0 {
            space = true;
            i = after_ascii_space(bytes, i + w);
            continue;
        }
        let start = i;
        loop {
            i = if UNICODE {
                next_possible_space(bytes, i)
            } else {
                next_possible_stop(bytes, i)
            };
            if i < n && whitespace_len::<UNICODE>(value, i) == 0 {
                i += 1;
                continue;
            }
            // One plain space between two words stays in the phrase.
            if i + 1 < n && bytes[i] == b' ' && whitespace_len::<UNICODE>(value, i + 1) == 0 {
                i += 1;
                continue;
            }
            break;
        }
        // `i` stops only at whitespace or the end: char boundaries.
        phrase(space, value.get(start..i).unwrap_or(""));
        space = false;
    }
    space
}

/// The first byte at or after `i` that is not ASCII whitespace (U+000B
/// included), or `bytes.len()`. Sixteen bytes at a time: the runs between
/// block tags are mostly a line break and indentation, which took a loop
/// turn a byte.
fn after_ascii_space(bytes: &[u8], mut i: usize) -> usize {
    while i < bytes.len() {
        let block = Block::at(bytes, i);
        // Tab, line feed, U+000B, form feed, carriage return: 9 to 13.
        let space = block.eq(b' ') | at_most(block.v - u8x16::splat(9), 4);
        let other = !space & block.present;
        if other != 0 {
            return i + other.trailing_zeros() as usize;
        }
        i += 16;
    }
    bytes.len()
}

/// In ASCII text, the first byte at or after `i` where a phrase may end:
/// a byte below 0x20, or a space followed by a byte up to 0x20 (or by the
/// next chunk, or the end); `bytes.len()` if none. Every real end (a tab,
/// line break, form feed, two spaces, a trailing space) is among them; the
/// caller checks each exactly. Sixteen bytes at a time as a vector:
/// words are joined by single spaces, so a phrase is often a whole
/// sentence.
fn next_possible_stop(bytes: &[u8], mut i: usize) -> usize {
    while i < bytes.len() {
        let block = Block::at(bytes, i);
        let low = block.at_most(0x20);
        let control = block.at_most(0x1f);
        let space = low & !control;
        // The last byte's next byte is in the next block: that space may
        // end the phrase. (After the slice's end come zeros: a last space
        // is followed by a byte below 0x21, and may end it too.)
        let stop = (control | (space & ((low >> 1) | 1 << 15))) & block.present;
        if stop != 0 {
            return i + stop.trailing_zeros() as usize;
        }
        i += 16;
    }
    bytes.len()
}

/// In text that is not all ASCII, the first byte at or after `i` that
/// may start whitespace: a byte up to 0x20, or a lead byte `START` marks
/// (0xC2, 0xE1-0xE3); `bytes.len()` if none. The caller checks each
/// exactly. Sixteen bytes at a time: in most non-ASCII text (accented
/// Latin, Cyrillic, CJK) such bytes are a few per block.
fn next_possible_space(bytes: &[u8], mut i: usize) -> usize {
    while i < bytes.len() {
        let block = Block::at(bytes, i);
        let lead = at_most(block.v - u8x16::splat(0xe1), 2) | block.eq(0xc2);
        let maybe = (block.at_most(0x20) | lead) & block.present;
        if maybe != 0 {
            return i + maybe.trailing_zeros() as usize;
        }
        i += 16;
    }
    bytes.len()
}

/// What a byte can start: nothing that matters, ASCII whitespace (with
/// U+000B), or perhaps a non-ASCII whitespace character: the lead bytes
/// of U+0085 and U+00A0 (C2), U+1680 (E1), U+2000-U+205F (E2) and U+3000
/// (E3).
const NONE: u8 = 0;
const ASCII_SPACE: u8 = 1;
const MAYBE: u8 = 2;

/// A table: `whitespace_len` looks up every byte the block scans stop at.
static START: [u8; 256] = {
    let mut t = [NONE; 256];
    t[b' ' as usize] = ASCII_SPACE;
    t[b'\t' as usize] = ASCII_SPACE;
    t[b'\n' as usize] = ASCII_SPACE;
    t[0x0c] = ASCII_SPACE;
    t[b'\r' as usize] = ASCII_SPACE;
    t[0x0b] = ASCII_SPACE;
    t[0xc2] = MAYBE;
    t[0xe1] = MAYBE;
    t[0xe2] = MAYBE;
    t[0xe3] = MAYBE;
    t
};

/// The byte length of the whitespace character starting at byte `i`, or 0
/// (also for a byte inside a character: only lead bytes can start one).
#[inline(always)]
fn whitespace_len<const UNICODE: bool>(value: &str, i: usize) -> usize {
    match START[usize::from(value.as_bytes()[i])] {
        NONE => 0,
        ASCII_SPACE => 1,
        _ if !UNICODE => 0,
        _ => value
            .get(i..)
            .and_then(|rest| rest.chars().next())
            .filter(|c| c.is_whitespace())
            .map_or(0, char::len_utf8),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(value: &str) -> (Vec<(bool, String)>, bool) {
        let mut out = Vec::new();
        let end = each_phrase(value, value.is_ascii(), |s, w| out.push((s, w.to_string())));
        (out, end)
    }

    #[test]
    fn words_know_the_space_before_them() {
        let (w, end) = words(" a  b\tc ");
        assert_eq!(
            w,
            [(true, "a".into()), (true, "b".into()), (true, "c".into())]
        );
        assert!(end);
        // Single spaces join words into one phrase; other whitespace
        // (U+000B too, in ASCII text as in any other) not.
        let (w, end) = words("ab\u{b}c d  e f\ng");
        assert_eq!(
            w,
            [
                (false, "ab".into()),
                (true, "c d".into()),
                (true, "e f".into()),
                (true, "g".into())
            ]
        );
        assert!(!end);
        assert_eq!(words(""), (vec![], false));
        assert_eq!(words("  "), (vec![], true));
    }

    #[test]
    fn non_ascii_splits_on_unicode_whitespace() {
        let (w, end) = words("é\u{a0}x\u{b}y\u{3000}");
        assert_eq!(
            w,
            [(false, "é".into()), (true, "x".into()), (true, "y".into())]
        );
        assert!(end);
    }

    #[test]
    fn non_ascii_words_joined_by_one_space_are_one_phrase() {
        let (w, end) = words("é ü\u{a0}x € y  z");
        assert_eq!(
            w,
            [
                (false, "é ü".into()),
                (true, "x € y".into()),
                (true, "z".into())
            ]
        );
        assert!(!end);
    }

    /// The renderer used to drive words from `split` directly.
    #[test]
    fn same_as_split_driven_collapsing() {
        for value in [
            "",
            " ",
            "a",
            " a",
            "a ",
            "a  b",
            "a b c",
            " a b  c d ",
            "a b\tc d\n",
            "a \n",
            "\n\na\r\nb\t",
            "é  ü ",
            "x\u{85}y",
            "é ü x\u{a0}y z\u{2003}w",
            " é\u{b}a b\u{3000} c\u{1680}d\u{2028}e\u{205f}f\u{202f}g\u{2009}\u{a0}",
            "€ – „quoted“ — ✓ 日本 語",
            "\u{85}\u{85}é",
        ] {
            assert_eq!(collapsed(value), collapsed_as_split(value), "{value:?}");
        }
    }

    /// The text the renderer builds from the phrases, and whether a space
    /// is pending at the end.
    fn collapsed(value: &str) -> (String, bool) {
        let mut text = String::new();
        let mut pending = false;
        let end = each_phrase(value, value.is_ascii(), |space, phrase| {
            if space || pending {
                text.push(' ');
            }
            pending = false;
            text.push_str(phrase);
        });
        (text, pending | end)
    }

    /// The same, as the renderer once drove it from `split` directly.
    fn collapsed_as_split(value: &str) -> (String, bool) {
        let mut text = String::new();
        let mut pending = false;
        let pieces: Vec<&str> = value.split(char::is_whitespace).collect();
        for (k, p) in pieces.iter().enumerate() {
            if !p.is_empty() {
                if pending {
                    text.push(' ');
                }
                pending = false;
                text.push_str(p);
            }
            if k + 1 < pieces.len() {
                pending = true;
            }
        }
        (text, pending)
    }

    proptest::proptest! {
        /// ASCII phrases found a block at a time collapse as `split` does,
        /// with every byte below 0x21 that matters, at every lane.
        #[test]
        fn ascii_phrases_collapse_as_split_does(parts in proptest::collection::vec(
            proptest::sample::select(vec![
                " ", "  ", "a", "bc", "defghij", "\t", "\n", "\r", "\x0b", "\x0c", "\0", "\x1f", "!",
            ]),
            0..40,
        )) {
            let value = parts.concat();
            proptest::prop_assert_eq!(collapsed(&value), collapsed_as_split(&value));
        }

        /// The same for text that is not all ASCII: Unicode whitespace,
        /// and characters whose lead bytes are those of whitespace
        /// characters (0xC2, 0xE1-0xE3) without being whitespace.
        #[test]
        fn unicode_phrases_collapse_as_split_does(parts in proptest::collection::vec(
            proptest::sample::select(vec![
                " ", "  ", "a", "bc", "\t", "\n", "\x0b", "\0", "é", "日本語", "\u{a0}", "\u{85}",
                "\u{1680}", "\u{2003}", "\u{2028}", "\u{205f}", "\u{3000}", "©", "ᚠ", "€", "あ",
            ]),
            0..40,
        )) {
            let value = parts.concat();
            proptest::prop_assert_eq!(collapsed(&value), collapsed_as_split(&value));
        }
    }
}
