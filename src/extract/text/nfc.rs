//! Unicode NFC for the extracted text: a page's "é" may be one character
//! or an "e" and a combining accent; the text gives it as one. Does not
//! fold compatibility characters (NFKC), which would change what a page says.
//!
//! Almost every text is NFC already, so the cost is the check. Every
//! character below U+0300 is NFC and of combining class 0, so only the
//! stretches of characters from U+0300 up need `is_nfc_quick`, each on its
//! own (the character before a stretch is a starter); they are found
//! sixteen bytes at a time by their lead bytes (0xCC and up). The text is
//! rewritten only when a stretch is not plainly NFC and normalising
//! changes it.

use super::super::blocks::Block;
use unicode_normalization::{IsNormalized, UnicodeNormalization, is_nfc_quick};

/// The first byte at or after `from` that starts a character from U+0300
/// up: a lead byte of 0xCC or more (continuation bytes are 0x80 to 0xBF).
fn first_past_latin(bytes: &[u8], from: usize) -> Option<usize> {
    let mut at = from;
    while at < bytes.len() {
        let block = Block::at(bytes, at);
        let high = !block.at_most(0xcb) & block.present;
        if high != 0 {
            return Some(at + high.trailing_zeros() as usize);
        }
        at += 16;
    }
    None
}

/// Whether `text` is plainly NFC: every stretch of characters from U+0300
/// up passes `is_nfc_quick` (a combining mark that may compose with the
/// letter before it is a "maybe", and fails).
fn plainly_nfc(text: &str) -> bool {
    let mut at = 0;
    while let Some(start) = first_past_latin(text.as_bytes(), at) {
        let rest = text.get(start..).unwrap_or("");
        let len = rest
            .char_indices()
            .find(|&(_, c)| c < '\u{300}')
            .map_or(rest.len(), |(end, _)| end);
        let stretch = rest.get(..len).unwrap_or("");
        if !stretch.chars().all(plain) && is_nfc_quick(stretch.chars()) != IsNormalized::Yes {
            return false;
        }
        at = start + len.max(1);
    }
    true
}

/// Whether `c` is in a block of a common script, or typographic
/// punctuation, whose characters are all NFC and of combining class 0
/// (the tests check each): a few compares instead of two table lookups a
/// character for Cyrillic, CJK, kana and Hangul.
fn plain(c: char) -> bool {
    matches!(
        c,
        '\u{0400}'..='\u{0482}'
            | '\u{048A}'..='\u{04FF}'
            | '\u{2010}'..='\u{2027}'
            | '\u{3000}'..='\u{3029}'
            | '\u{3041}'..='\u{3096}'
            | '\u{30A1}'..='\u{30FA}'
            | '\u{4E00}'..='\u{9FFF}'
            | '\u{AC00}'..='\u{D7A3}'
            | '\u{FF01}'..='\u{FF5E}'
    )
}

/// Puts `text` in NFC, rewriting it only when it is not in NFC already.
/// Returns whether it changed.
pub fn to_nfc(text: &mut String) -> bool {
    if plainly_nfc(text) {
        return false;
    }
    let normal: String = text.nfc().collect();
    if normal == *text {
        return false;
    }
    *text = normal;
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Decomposed accents are composed (Latin, Greek, Hangul jamo), and
    /// text already in NFC, or with compatibility characters that NFKC
    /// would fold (ﬁ, ²), comes back as it was.
    #[test]
    fn decomposed_text_is_composed_and_nfc_text_kept() {
        let cases = [
            ("Cafe\u{301} cre\u{300}me", "Café crème"),
            ("Ha\u{308}user und „Stra\u{df}e“", "Häuser und „Straße“"),
            ("\u{3b1}\u{301}\u{3bb}\u{3c6}\u{3b1}", "άλφα"),
            ("\u{1112}\u{1161}\u{11ab}\u{1100}\u{1173}\u{11af}", "한글"),
            ("plain ASCII", "plain ASCII"),
            ("Straße, ﬁne, x², 東京", "Straße, ﬁne, x², 東京"),
        ];
        for (input, nfc) in cases {
            let mut text = input.to_string();
            assert_eq!(to_nfc(&mut text), input != nfc, "{input:?}");
            assert_eq!(text, nfc, "{input:?}");
        }
    }

    /// The block scan finds the byte a byte-by-byte search finds, in any
    /// of a block's places and past the last whole block.
    #[test]
    fn the_first_character_from_u0300_is_found_wherever_it_is() {
        for pad in 0..40 {
            for tail in ["", "\u{301}", "é\u{300}", "東", "ß"] {
                let text = format!("{}é{tail}x", "a".repeat(pad));
                let naive = text.bytes().position(|b| b >= 0xcc);
                assert_eq!(first_past_latin(text.as_bytes(), 0), naive, "{text:?}");
            }
        }
    }

    /// Every plain character is NFC and a starter, so a stretch of them
    /// needs no table lookups.
    #[test]
    fn plain_characters_are_nfc_starters() {
        use unicode_normalization::char::canonical_combining_class;
        let plain_chars = ('\u{0}'..='\u{FFFF}').filter(|&c| plain(c));
        let mut count = 0;
        for c in plain_chars {
            assert_eq!(is_nfc_quick(std::iter::once(c)), IsNormalized::Yes, "{c:?}");
            assert_eq!(canonical_combining_class(c), 0, "{c:?}");
            count += 1;
        }
        assert!(count > 30_000, "{count}");
    }

    /// A combining mark right after a Latin-1 letter, the first character
    /// the byte test lets through, composes with that letter.
    #[test]
    fn a_mark_composes_with_the_letter_before_the_first_checked_byte() {
        let mut text = "naï\u{308}ve n\u{303}".to_string();
        // "ï" + U+0308 does not compose; "n" + U+0303 does.
        to_nfc(&mut text);
        assert_eq!(text, "naï\u{308}ve ñ");
    }
}
