//! Picture credits in the rendered text: short paragraphs that a label
//! names as a picture's credit ("Foto: dpa", "(Bild: Dieter Stork)",
//! "Credit: Getty Images"), found so that they can be dropped.
//!
//! The renderer already leaves `<figcaption>` out; a credit set as a
//! paragraph or a block of its own, under any class name, is told only by
//! its label. A credit says who took a picture, never what the article
//! says. Labels naming a source ("Source:", "Quelle:") are not credits: a
//! table's or a quotation's source is often part of the text.
//!
//! This only looks at the rendered text, one paragraph per line.

use std::ops::Range;

/// Longest credit (characters, its ends' whitespace aside): a longer
/// paragraph opening with a label is a caption that tells something.
const MAX_CREDIT: usize = 80;

/// Longest label (bytes) before the colon.
const MAX_LABEL: usize = 16;

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

/// The byte ranges of the lines of `text` that are picture credits (each
/// with its `\n`), in order. Found from the colons, which are far fewer
/// than the lines: only a line with a colon near its start is read.
pub fn credit_lines(text: &str) -> Vec<Range<usize>> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    // The end of the last line read: its other colons are passed over.
    let mut read_to = 0;
    for colon in memchr::memchr_iter(b':', b) {
        if colon < read_to {
            continue;
        }
        let lo = colon.saturating_sub(MAX_LABEL + 3);
        let start = match memchr::memrchr(b'\n', &b[lo..colon]) {
            Some(i) => lo + i + 1,
            None if lo == 0 => 0,
            None => continue,
        };
        let end = memchr::memchr(b'\n', &b[colon..]).map_or(b.len(), |i| colon + i + 1);
        read_to = end;
        if text
            .get(start..end)
            .is_some_and(|line| is_credit(line.trim()))
        {
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
    let label = line[..colon].trim_end();
    LABELS
        .iter()
        .any(|w| label.chars().flat_map(char::to_lowercase).eq(w.chars()))
        && line.len() <= 4 * MAX_CREDIT
        && line.chars().count() <= MAX_CREDIT
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
    fn each_credit_is_given_with_its_line_break() {
        let text = "Foto: dpa\nText of the article.\nImage: NASA";
        let ranges = credit_lines(text);
        assert_eq!(ranges, [0..10, 31..42]);
    }
}
