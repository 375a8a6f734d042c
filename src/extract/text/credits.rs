//! Picture credits in the rendered text, found so that they can be
//! dropped: short paragraphs that a label names as a picture's credit
//! ("Foto: dpa", "(Bild: Dieter Stork)", "Credit: Getty Images"), and
//! short captions that end with one ("The ferry at dawn. Photo: NASA",
//! "Bike trip © Tourism Board").
//!
//! The renderer already leaves `<figcaption>` out; a caption or credit set
//! as a paragraph or a block of its own, under any class name, is told only
//! by its label. A credit says who took a picture, never what the article
//! says. Labels naming a source ("Source:", "Quelle:") are not credits: a
//! table's or a quotation's source is often part of the text. A paragraph
//! opening with `©` or "Copyright" is a page's copyright line, left alone.
//!
//! This only looks at the rendered text, one paragraph per line.

use std::ops::Range;

/// Longest credit (characters, its ends' whitespace aside): a longer
/// paragraph opening with a label is a caption that tells something.
const MAX_CREDIT: usize = 80;

/// Longest label (bytes) before the colon.
const MAX_LABEL: usize = 16;

/// Longest caption (characters) that a credit at its end marks as one.
const MAX_CAPTION: usize = 120;

/// Longest credit (characters) after the label's colon or the `©` that
/// ends a caption.
const MAX_TAIL: usize = 40;

/// The words that label a picture or its credit, lowercase, in English,
/// German, French, Spanish, Portuguese, Italian, Dutch and Polish.
const LABELS: &[&str] = &[
    "photo",
    "photos",
    "picture",
    "pictures",
    "image",
    "images",
    "credit",
    "credits",
    "foto",
    "fotos",
    "bild",
    "bilder",
    "titelbild",
    "beitragsbild",
    "crédit",
    "crédits",
    "crédito",
    "créditos",
    "imagen",
    "imagem",
    "fotografía",
    "fotografia",
    "immagine",
    "afbeelding",
    "zdjęcie",
];

/// The byte ranges of the lines of `text` that are picture credits or
/// captions ending with one (each with its `\n`), in order. Found from
/// the colons, `©`s and brackets, which are far fewer than the lines: only
/// a line with one of them is read.
pub fn credit_lines(text: &str) -> Vec<Range<usize>> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    // Where the next line to read starts: the lines before it are read.
    let mut read_to = 0;
    for at in memchr::memchr3_iter(b':', 0xA9, b'(', b) {
        if at < read_to {
            continue;
        }
        let start = memchr::memrchr(b'\n', &b[read_to..at]).map_or(read_to, |i| read_to + i + 1);
        let end = memchr::memchr(b'\n', &b[at..]).map_or(b.len(), |i| at + i + 1);
        read_to = end;
        let line = text[start..end].trim();
        if is_credit(line) || ends_with_credit(line) {
            out.push(start..end);
        }
    }
    out
}

/// Whether a paragraph (trimmed) is a picture credit: at most
/// [`MAX_CREDIT`] characters, opening (after a bracket, if any) with a
/// label of [`LABELS`] and a colon.
fn is_credit(line: &str) -> bool {
    let line = line.strip_prefix('(').unwrap_or(line);
    let head = &line.as_bytes()[..line.len().min(MAX_LABEL + 2)];
    let Some(colon) = memchr::memchr(b':', head) else {
        return false;
    };
    is_label(line[..colon].trim_end())
        && line.len() <= 4 * MAX_CREDIT
        && line.chars().count() <= MAX_CREDIT
}

/// Whether a paragraph (trimmed) is a caption of at most [`MAX_CAPTION`]
/// characters that ends with a credit: a label of [`LABELS`] and a colon,
/// after some caption, or a `©` or `(C)` after a space, then at most
/// [`MAX_TAIL`] characters with no sentence's end in them (`!`, `?`, `. `,
/// or a full stop closing the line: "Image: the quay, via." is a sentence).
fn ends_with_credit(line: &str) -> bool {
    let b = line.as_bytes();
    if b.len() > 4 * MAX_CAPTION || line.chars().count() > MAX_CAPTION {
        return false;
    }
    let tail_is_credit = |tail: &str, marks: &[char]| {
        let tail = tail.trim();
        !tail.is_empty()
            && tail.chars().count() <= MAX_TAIL
            && !tail.contains(marks)
            && !tail.as_bytes().windows(2).any(|w| w == b". ")
            && !tail.trim_end_matches([')', ']']).ends_with('.')
    };
    if let Some(colon) = memchr::memrchr(b':', b) {
        let label = line[..colon].trim_end();
        let mut words = label.rsplit(|c: char| !c.is_alphabetic());
        let word = words.next().unwrap_or(label);
        // A caption before the label: "Photo credit: …" has none.
        let caption = words.find(|w| !w.is_empty()).is_some_and(|w| !is_label(w));
        if is_label(word) && caption && tail_is_credit(&line[colon + 1..], &['!', '?']) {
            return true;
        }
    }
    let opens = |head: &str| {
        b.get(..head.len())
            .is_some_and(|h| h.eq_ignore_ascii_case(head.as_bytes()))
    };
    if opens("©") || opens("(c)") || opens("copyright") {
        return false;
    }
    // Where the last " ©" or " (C)" ends (`©` is C2 A9 in UTF-8).
    let copyright = memchr::memrchr_iter(0xA9, b)
        .find(|&i| i >= 2 && &b[i - 2..i] == b" \xC2")
        .map(|i| i + 1);
    let c = memchr::memrchr_iter(b'(', b)
        .find(|&i| i >= 1 && b[i - 1] == b' ' && b[i..].starts_with(b"(C)"))
        .map(|i| i + 3);
    copyright
        .max(c)
        .is_some_and(|end| tail_is_credit(&line[end..], &['!', '?', '©']))
}

/// Whether `word` is a label of [`LABELS`], in any case.
fn is_label(word: &str) -> bool {
    // A label's capitals take as many bytes as its small letters: the
    // length tells most words apart before their letters are read.
    LABELS
        .iter()
        .any(|w| w.len() == word.len() && word.chars().flat_map(char::to_lowercase).eq(w.chars()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn credits(text: &str) -> Vec<&str> {
        credit_lines(text)
            .into_iter()
            .map(|r| text[r].trim_end())
            .collect()
    }

    #[test]
    fn labelled_credits_are_found_in_any_case_and_language() {
        let text = "The ferry left at dawn.\n\
                    Foto: dpa\n\
                    (Bild: Dieter Stork)\n\
                    Photo : YONHAP News\n\
                    CRÉDITO: Minervino Júnior/CB\n\
                    Zdjęcie: domena publiczna\n\
                    It reached the island by noon.";
        assert_eq!(
            credits(text),
            [
                "Foto: dpa",
                "(Bild: Dieter Stork)",
                "Photo : YONHAP News",
                "CRÉDITO: Minervino Júnior/CB",
                "Zdjęcie: domena publiczna",
            ]
        );
    }

    /// A long caption tells something; a source may be part of the
    /// text; a label inside a sentence labels nothing.
    #[test]
    fn captions_sources_and_sentences_are_no_credits() {
        let caption = "Photo: the harbour master, who has watched the ferries \
                       come and go for thirty years, on the quay at dawn";
        for text in [
            caption,
            "Source: School Administrator, v59 n3 p6-12",
            "Quelle: Landesregierung",
            "The photo: a ferry at dawn.",
            "Images are licensed CC BY 4.0.",
            "Photography: a short history",
        ] {
            assert!(credits(text).is_empty(), "{text}");
        }
    }

    #[test]
    fn short_captions_ending_with_a_credit_are_found() {
        let text = "The ferry left at dawn.\n\
                    Radwege im Salzburger Land © Tourismus Salzburg / Markus Greber\n\
                    The ferry at the quay. Photo: Port Authority/Flickr\n\
                    Ab 2025 fährt die Fähre elektrisch. (Foto: Stadt Kiel)\n\
                    Le quai de l'université / (C) Kab Niang\n\
                    Birgit Kelle (Bild: Facebook)\n\
                    It reached the island by noon.";
        assert_eq!(
            credits(text),
            [
                "Radwege im Salzburger Land © Tourismus Salzburg / Markus Greber",
                "The ferry at the quay. Photo: Port Authority/Flickr",
                "Ab 2025 fährt die Fähre elektrisch. (Foto: Stadt Kiel)",
                "Le quai de l'université / (C) Kab Niang",
                "Birgit Kelle (Bild: Facebook)",
            ]
        );
    }

    /// A credit with a sentence's end in it is text; so is a long caption,
    /// a page's copyright line and a list's third item.
    #[test]
    fn copyright_lines_long_captions_and_sentences_keep_their_credit() {
        let long = "The harbour master, who has watched the ferries come and go \
                    for thirty years, on the quay at dawn before the first \
                    crossing. Photo: Port Authority";
        for text in [
            long,
            "© 2020 General Mills. All Rights Reserved",
            "Copyright © Fairfax Business Media",
            "The ferry at the quay © Port Authority. It left at dawn.",
            "Here is the photo: a ferry at dawn.",
            "The quay in 1934 (Source: the archive; Image: the quay, via.)",
            "Safeguards for: (a) the harbour; (b) the quay; (c) the ferries",
            "Der Hafen (Foto: siehe unten) wird 2025 umgebaut und erweitert, sagt die Stadt!",
        ] {
            assert!(credits(text).is_empty(), "{text}");
        }
    }

    #[test]
    fn each_credit_is_given_with_its_line_break() {
        let text = "Foto: dpa\nText of the article.\nImage: NASA";
        let ranges = credit_lines(text);
        assert_eq!(ranges, [0..10, 31..42]);
    }
}
