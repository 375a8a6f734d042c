//! Unicode NFC for the extracted text: a page's "é" may be one character
//! or an "e" and a combining accent; the text gives it as one. Does not
//! fold compatibility characters (NFKC), which would change what a page says.
//!
//! Almost every text is NFC already, so the cost is the check: bytes
//! first (no byte from 0xCC up means every character is below U+0300, and
//! all of those are NFC and start a cluster), then `is_nfc_quick` from the
//! first character that may matter. The text is rewritten only when that
//! does not say yes.

use super::super::blocks::Block;
use unicode_normalization::{IsNormalized, UnicodeNormalization, is_nfc_quick};

/// The first byte that starts a character from U+0300 up: a lead byte of
/// 0xCC or more (continuation bytes are 0x80 to 0xBF). Sixteen bytes at
/// a time: most texts hold none, and this then reads all of them.
fn first_past_latin(text: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut at = 0;
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

/// Puts `text` in NFC, rewriting it only when it is not in NFC already.
/// Returns whether it changed.
pub fn to_nfc(text: &mut String) -> bool {
    let Some(first) = first_past_latin(text) else {
        return false;
    };
    // The characters before `first` are below U+0300: NFC, and each of
    // combining class 0. From the last of them on (a mark at `first`
    // may compose with it), checking is checking all.
    let before = text.get(..first).unwrap_or("");
    let from = before.char_indices().next_back().map_or(first, |(i, _)| i);
    let rest = text.get(from..).unwrap_or("");
    if is_nfc_quick(rest.chars()) == IsNormalized::Yes {
        return false;
    }
    let normal: String = rest.nfc().collect();
    if normal == rest {
        return false;
    }
    text.truncate(from);
    text.push_str(&normal);
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
                assert_eq!(first_past_latin(&text), naive, "{text:?}");
            }
        }
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
