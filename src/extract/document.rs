//! The result of extracting one page.

use super::charset::EncodingSource;
use super::links::Link;
use super::meta::Metadata;
use super::regions::Region;
use super::structure::Block;
use serde::{Deserialize, Serialize};

/// Seconds spent per stage, for metrics and benchmarks.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Timings {
    /// Charset sniffing, decoding and line scanning (while bytes arrive).
    pub scan: f64,
    /// Smoothing, regions, growth.
    pub select: f64,
    /// Tokenizing the selected lines into text.
    pub text: f64,
    /// Headline and language.
    pub headline: f64,
    /// Metadata (dates, authors, site name, ...).
    #[serde(default)]
    pub meta: f64,
}

/// A page's main content and what we know about how it was found.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Document {
    /// Where the page came from, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    pub headline: Option<String>,
    /// The `<title>` text, entities decoded and whitespace collapsed.
    pub title: Option<String>,
    /// Main content, one paragraph per line.
    pub text: String,
    /// The main content's structure, when asked for (`Options::blocks`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub blocks: Vec<Block>,
    /// The main content as Markdown, when asked for (`Options::markdown`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub markdown: Option<String>,
    /// The text was cut at `Options::max_text` bytes.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub text_truncated: bool,
    /// The encoding the page was decoded with (WHATWG name) and why.
    pub encoding: String,
    pub encoding_source: String,
    /// ISO 639-3 code of the text's language, if it could be told.
    pub language: Option<String>,
    /// Input size in bytes.
    pub bytes: u64,
    pub lines_total: u32,
    pub lines_selected: u32,
    /// Content and code characters over the whole page.
    pub content_chars: u64,
    pub code_chars: u64,
    /// The chosen regions as inclusive logical-line ranges.
    pub regions: Vec<Region>,
    /// The logical line of the headline, when it came from the body.
    pub headline_line: Option<u32>,
    /// BLAKE3 of the text (hex, 128 bits): equal texts, equal digests.
    pub digest: String,
    /// SimHash of the text (hex, 64 bits): near-duplicate texts differ in
    /// few bits (see [`fingerprint`](super::fingerprint)); empty, and left
    /// out of JSON, unless asked for (`Options::simhash`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub simhash: String,
    /// MinHash signature of the text's word shingles, when asked for
    /// (`Options::minhash`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub minhash: Vec<u32>,
    /// The page's outlinks, when asked for (`Options::links`; see
    /// [`links`](super::links) for which are kept).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub links: Option<Vec<Link>>,
    pub algorithm: String,
    /// Author, dates, site name and the rest the page says of itself.
    #[serde(flatten)]
    pub meta: Metadata,
    /// Seconds per stage, when asked for (`Options::timings`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timings: Option<Timings>,
}

impl Document {
    /// The encoding source in its serialized form.
    pub(crate) fn source_name(source: EncodingSource) -> String {
        serde_json::to_value(source)
            .ok()
            .and_then(|v| v.as_str().map(str::to_string))
            .unwrap_or_default()
    }
}

/// A stable digest of a text for dedupe: 128 bits of BLAKE3, hex.
pub fn digest(text: &str) -> String {
    let hash = blake3::hash(text.as_bytes());
    hash.to_hex()[..32].to_string()
}
