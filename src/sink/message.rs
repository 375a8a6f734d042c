//! The queue's document message built from an extracted page: its stable
//! id, where it came from ([`Origin`]) and the core's fields. It encodes
//! nothing (`proto` does) and publishes nothing (the worker does).

use crate::Document;
use crate::extract::Block;
use crate::extract::links::Link;
use crate::proto::{self, DocumentMessage, LineRange, TableRow};

/// The stable id of a document: BLAKE3 of the task id and the record's id
/// (WARC-Record-ID, or the requested URL), 128 bits in hex. A redelivered
/// task yields the same ids, so downstream can drop duplicates.
pub fn document_id(task_id: &str, record_id: &str) -> String {
    let mut hasher = blake3::Hasher::new();
    // Length-prefixed so that ("ab","c") and ("a","bc") differ.
    hasher.update(&(task_id.len() as u64).to_le_bytes());
    hasher.update(task_id.as_bytes());
    hasher.update(record_id.as_bytes());
    hasher.finalize().to_hex()[..32].to_string()
}

/// Where a document came from, besides its task.
#[derive(Debug, Clone, Default)]
pub struct Origin {
    /// Identifies the record within the task (record id or requested URL).
    pub record_key: String,
    pub url: String,
    pub warc_record_id: String,
    pub status: u32,
    /// The page is not whole (a body cut at `max_body`; a WARC record's
    /// `WARC-Truncated`, or a first segment).
    pub truncated: bool,
    /// What the reader mended to read a WARC record
    /// ([`crate::warc::Repairs::names`]).
    pub repaired: Vec<&'static str>,
}

impl DocumentMessage {
    /// The message for one extracted page of task `task_id`.
    pub fn from_document(task_id: &str, origin: Origin, doc: Document) -> Self {
        let url = if origin.url.is_empty() {
            doc.url.unwrap_or_default()
        } else {
            origin.url
        };
        DocumentMessage {
            document_id: document_id(task_id, &origin.record_key),
            task_id: task_id.to_string(),
            url,
            warc_record_id: origin.warc_record_id,
            headline: doc.headline,
            title: doc.title,
            text: doc.text,
            encoding: doc.encoding,
            encoding_source: doc.encoding_source,
            language: doc.language,
            bytes: doc.bytes,
            lines_total: doc.lines_total,
            lines_selected: doc.lines_selected,
            content_chars: doc.content_chars,
            code_chars: doc.code_chars,
            regions: doc
                .regions
                .iter()
                .map(|r| LineRange {
                    start: r.first,
                    end: r.last,
                })
                .collect(),
            headline_line: doc.headline_line,
            digest: doc.digest,
            algorithm: doc.algorithm,
            status: origin.status,
            truncated: origin.truncated,
            text_truncated: doc.text_truncated,
            author: doc.meta.author,
            published: doc.meta.published,
            modified: doc.meta.modified,
            site_name: doc.meta.site_name,
            description: doc.meta.description,
            canonical: doc.meta.canonical,
            image: doc.meta.image,
            keywords: doc.meta.keywords,
            categories: doc.meta.categories,
            simhash: doc.simhash,
            minhash: doc.minhash,
            blocks: doc.blocks.into_iter().map(block_message).collect(),
            markdown: doc.markdown,
            links: doc
                .links
                .unwrap_or_default()
                .into_iter()
                .map(link_message)
                .collect(),
            warc_repaired: origin.repaired.into_iter().map(String::from).collect(),
        }
    }
}

/// A link as the proto carries it.
pub fn link_message(link: Link) -> proto::Link {
    proto::Link {
        url: link.url,
        text: link.text,
        rel: link.rel,
        in_content: link.in_content,
    }
}

/// A block as the proto carries it: its kind by name, the fields it does
/// not use unset.
fn block_message(block: Block) -> proto::Block {
    let kind = |kind: &str, text: String| proto::Block {
        kind: kind.to_string(),
        text,
        ..proto::Block::default()
    };
    match block {
        Block::Heading { level, text } => proto::Block {
            level: u32::from(level),
            ..kind("heading", text)
        },
        Block::Paragraph { text } => kind("paragraph", text),
        Block::ListItem {
            depth,
            ordered,
            start,
            quote,
            text,
        } => proto::Block {
            depth: u32::from(depth),
            ordered,
            start,
            quote: u32::from(quote),
            ..kind("list_item", text)
        },
        Block::Table {
            depth,
            header,
            rows,
        } => proto::Block {
            depth: u32::from(depth),
            header,
            rows: rows.into_iter().map(|cells| TableRow { cells }).collect(),
            ..kind("table", String::new())
        },
        Block::Code { depth, text } => proto::Block {
            depth: u32::from(depth),
            ..kind("code", text)
        },
        Block::Quote { quote, text } => proto::Block {
            quote: u32::from(quote),
            ..kind("quote", text)
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Asserts that `message` comes back the same from protobuf and from
    /// JSON, and returns its JSON.
    fn round_trips(message: &DocumentMessage) -> serde_json::Value {
        use crate::proto::{Encoding, decode, encode};
        for encoding in [Encoding::Protobuf, Encoding::Json] {
            let (bytes, content_type) = encode(message, encoding);
            let back: Result<DocumentMessage, _> = decode(&bytes, Some(content_type));
            assert_eq!(back.ok().as_ref(), Some(message), "{encoding:?}");
        }
        serde_json::from_slice(&encode(message, Encoding::Json).0).unwrap_or_default()
    }

    #[test]
    fn document_ids_are_stable_and_distinct() {
        assert_eq!(document_id("t", "r"), document_id("t", "r"));
        assert_ne!(document_id("ab", "c"), document_id("a", "bc"));
        assert_eq!(document_id("t", "r").len(), 32);
    }

    /// A block keeps its kind by name and the fields of its kind; the
    /// message round-trips both encodings, and its JSON has `blocks` and
    /// `markdown` only when they are set.
    #[test]
    fn blocks_and_markdown_are_carried_in_both_encodings() {
        use crate::proto::{Encoding, encode};
        let doc = Document {
            blocks: vec![
                Block::Heading {
                    level: 2,
                    text: "H".into(),
                },
                Block::ListItem {
                    depth: 2,
                    ordered: true,
                    start: None,
                    quote: 0,
                    text: "i".into(),
                },
                Block::Table {
                    depth: 0,
                    header: true,
                    rows: vec![vec!["a".into(), "b".into()]],
                },
            ],
            markdown: Some("## H".into()),
            ..Document::default()
        };
        let message = DocumentMessage::from_document("t", Origin::default(), doc);
        assert_eq!(
            message.blocks[1],
            proto::Block {
                kind: "list_item".into(),
                depth: 2,
                ordered: true,
                text: "i".into(),
                ..proto::Block::default()
            }
        );
        let json = round_trips(&message);
        assert_eq!(json["markdown"], "## H");
        assert_eq!(json["blocks"][0]["level"], 2);
        assert_eq!(
            json["blocks"][2]["rows"],
            serde_json::json!([{"cells": ["a", "b"]}])
        );
        let plain = DocumentMessage::from_document("t", Origin::default(), Document::default());
        let json: serde_json::Value =
            serde_json::from_slice(&encode(&plain, Encoding::Json).0).unwrap_or_default();
        assert!(json.get("blocks").is_none() && json.get("markdown").is_none());
    }

    /// A list item's start is carried in both encodings, and is null in
    /// the JSON of a block without one.
    #[test]
    fn a_list_items_start_is_carried_in_both_encodings() {
        let doc = Document {
            blocks: vec![
                Block::ListItem {
                    depth: 1,
                    ordered: true,
                    start: Some(5),
                    quote: 0,
                    text: "five".into(),
                },
                Block::ListItem {
                    depth: 1,
                    ordered: true,
                    start: None,
                    quote: 0,
                    text: "one".into(),
                },
            ],
            ..Document::default()
        };
        let message = DocumentMessage::from_document("t", Origin::default(), doc);
        assert_eq!(message.blocks[0].start, Some(5));
        let json = round_trips(&message);
        assert_eq!(json["blocks"][0]["start"], 5);
        assert_eq!(json["blocks"][1]["start"], serde_json::Value::Null);
    }

    /// Links are carried in both encodings, field by field, and left out
    /// of the JSON when there are none.
    #[test]
    fn links_are_carried_in_both_encodings() {
        use crate::proto::{Encoding, encode};
        let doc = Document {
            links: Some(vec![Link {
                url: "https://example.com/b".into(),
                text: "B".into(),
                rel: "nofollow".into(),
                in_content: true,
            }]),
            ..Document::default()
        };
        let message = DocumentMessage::from_document("t", Origin::default(), doc);
        let json = round_trips(&message);
        assert_eq!(
            json["links"],
            serde_json::json!([{"url": "https://example.com/b", "text": "B",
                "rel": "nofollow", "in_content": true}])
        );
        let none = Document {
            links: Some(Vec::new()),
            ..Document::default()
        };
        let message = DocumentMessage::from_document("t", Origin::default(), none);
        let json: serde_json::Value =
            serde_json::from_slice(&encode(&message, Encoding::Json).0).unwrap_or_default();
        assert!(json.get("links").is_none());
    }

    /// What the reader mended is carried in both encodings, and left out
    /// of the JSON when nothing was.
    #[test]
    fn repairs_are_carried_in_both_encodings() {
        use crate::proto::{Encoding, encode};
        let origin = Origin {
            truncated: true,
            repaired: vec!["content_length", "cut"],
            ..Origin::default()
        };
        let message = DocumentMessage::from_document("t", origin, Document::default());
        let json = round_trips(&message);
        assert_eq!(
            json["warc_repaired"],
            serde_json::json!(["content_length", "cut"])
        );
        let plain = DocumentMessage::from_document("t", Origin::default(), Document::default());
        let json: serde_json::Value =
            serde_json::from_slice(&encode(&plain, Encoding::Json).0).unwrap_or_default();
        assert!(json.get("warc_repaired").is_none());
    }
}
