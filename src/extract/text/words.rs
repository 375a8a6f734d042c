//! Whitespace collapsing outside `<pre>`: a text run becomes phrases (words,
//! or ASCII words joined by single spaces), each knowing whether whitespace
//! came before it within the run.
//!
//! ASCII runs (most of them) are split on ASCII whitespace byte by byte;
//! others on Unicode whitespace. This only finds the words: where spaces
//! and line breaks go in the output is the renderer's business.

/// Calls `phrase(space_before, phrase)` for each phrase of `value` and
/// returns whether `value` ends in whitespace. A phrase is one word or, in
/// ASCII text, several joined by single spaces, which collapsing would
/// leave as they are: handing them over whole saves a call and a copy per
/// word. An empty or all-whitespace value has no phrases; the latter "ends
/// in whitespace".
pub(super) fn each_phrase(value: &str, mut phrase: impl FnMut(bool, &str)) -> bool {
    let mut space = false;
    if value.is_ascii() {
        let bytes = value.as_bytes();
        let n = bytes.len();
        let mut i = 0;
        while i < n {
            if bytes[i].is_ascii_whitespace() {
                space = true;
                i += 1;
                continue;
            }
            let start = i;
            loop {
                while i < n && !bytes[i].is_ascii_whitespace() {
                    i += 1;
                }
                // One plain space between two words stays in the phrase.
                if i + 1 < n && bytes[i] == b' ' && !bytes[i + 1].is_ascii_whitespace() {
                    i += 1;
                    continue;
                }
                break;
            }
            // ASCII: every index is a char boundary.
            phrase(space, value.get(start..i).unwrap_or(""));
            space = false;
        }
    } else {
        for (k, piece) in value.split(char::is_whitespace).enumerate() {
            if k > 0 {
                space = true;
            }
            if !piece.is_empty() {
                phrase(space, piece);
                space = false;
            }
        }
    }
    space
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(value: &str) -> (Vec<(bool, String)>, bool) {
        let mut out = Vec::new();
        let end = each_phrase(value, |s, w| out.push((s, w.to_string())));
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
        // Single spaces join words into one phrase; other whitespace not.
        let (w, end) = words("ab\u{b}c d  e f\ng");
        assert_eq!(
            w,
            [
                (false, "ab\u{b}c d".into()),
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
        ] {
            let mut old = String::new();
            let mut pending = false;
            let pieces: Vec<&str> = if value.is_ascii() {
                value.split(|c: char| c.is_ascii_whitespace()).collect()
            } else {
                value.split(char::is_whitespace).collect()
            };
            for (k, p) in pieces.iter().enumerate() {
                if !p.is_empty() {
                    if pending {
                        old.push(' ');
                    }
                    pending = false;
                    old.push_str(p);
                }
                if k + 1 < pieces.len() {
                    pending = true;
                }
            }
            let mut new = String::new();
            let mut pending_new = false;
            let end = each_phrase(value, |s, w| {
                if s || pending_new {
                    new.push(' ');
                }
                pending_new = false;
                new.push_str(w);
            });
            pending_new |= end;
            assert_eq!((new, pending_new), (old, pending), "{value:?}");
        }
    }
}
