//! The output of `linesift extract` for one input: the document's text
//! (headline above it unless the text holds it), or one JSON object with
//! the input's name and its document or error. It writes what it is
//! given; which inputs fail and why is the command's business.

use crate::Document;
use serde::Serialize;
use std::io::{self, Write};

/// One line of JSONL output: the input's name and its document or error.
#[derive(Serialize)]
pub struct Record<'a> {
    pub path: &'a str,
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub document: Option<&'a Document>,
    /// The body was cut at --max-body.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub truncated: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The fetch error's kind (`dns`, `timeout`, `robots`, ...).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error_kind: Option<&'static str>,
}

/// The headline text output prints above the text: none when the text
/// already holds it as a line of its own (an `<h1>` in the chosen
/// region), where printing it again would show it twice.
pub fn shown_headline(doc: &Document) -> Option<&str> {
    let headline = doc.headline.as_deref()?.trim();
    let in_text = doc.text.lines().any(|line| line.trim() == headline);
    (!headline.is_empty() && !in_text).then_some(headline)
}

/// Writes `doc` as text: the headline [`shown_headline`] gives, a blank
/// line, then the text (no blank line where there is no text).
pub fn write_text(out: &mut impl Write, doc: &Document) -> io::Result<()> {
    write_under(out, shown_headline(doc), &doc.text)
}

/// Writes `doc` as Markdown: the headline [`shown_headline`] gives as a
/// first-level heading, a blank line, then the document's Markdown.
pub fn write_markdown(out: &mut impl Write, doc: &Document) -> io::Result<()> {
    let heading = shown_headline(doc).map(|h| {
        crate::extract::structure::markdown(&[crate::extract::Block::Heading {
            level: 1,
            text: h.to_string(),
        }])
    });
    write_under(
        out,
        heading.as_deref(),
        doc.markdown.as_deref().unwrap_or(""),
    )
}

/// `head`, a blank line and `body`, each ended by a line end; `head` alone
/// when `body` is empty.
fn write_under(out: &mut impl Write, head: Option<&str>, body: &str) -> io::Result<()> {
    match head {
        Some(head) if body.is_empty() => writeln!(out, "{head}"),
        Some(head) => writeln!(out, "{head}\n\n{body}"),
        None => writeln!(out, "{body}"),
    }
}

/// Writes `record` as one JSON line, or indented (`pretty`) with a line
/// end after it.
pub fn write_json(out: &mut impl Write, record: &Record, pretty: bool) -> io::Result<()> {
    if pretty {
        serde_json::to_writer_pretty(&mut *out, record)?;
    } else {
        serde_json::to_writer(&mut *out, record)?;
    }
    writeln!(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn written(doc: &Document, write: fn(&mut Vec<u8>, &Document) -> io::Result<()>) -> String {
        let mut out = Vec::new();
        write(&mut out, doc).expect("writes to memory");
        String::from_utf8(out).expect("UTF-8")
    }

    #[test]
    fn a_headline_without_text_is_one_line() {
        let doc = Document {
            headline: Some("Harbour closed".into()),
            markdown: Some(String::new()),
            ..Document::default()
        };
        assert_eq!(written(&doc, write_text), "Harbour closed\n");
        assert_eq!(written(&doc, write_markdown), "# Harbour closed\n");
    }

    #[test]
    fn a_headline_and_text_are_apart_by_a_blank_line() {
        let doc = Document {
            headline: Some("Harbour closed".into()),
            text: "The pier shuts.".into(),
            markdown: Some("The pier shuts.".into()),
            ..Document::default()
        };
        assert_eq!(
            written(&doc, write_text),
            "Harbour closed\n\nThe pier shuts.\n"
        );
        assert_eq!(
            written(&doc, write_markdown),
            "# Harbour closed\n\nThe pier shuts.\n"
        );
    }
}
