//! What the extractor can be asked to do: algorithm, link filter, gap,
//! headline method, limits. Plain data with defaults; parsing from strings
//! is here so the CLI, the worker and the queue messages share it.

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// The line-selection algorithm.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum Algorithm {
    /// R2L: T1 = bytes ≥ 128, T2 = bytes < 128; outputs only the non-ASCII
    /// characters of the selected lines (thesis 000 §4.3). Gap 8.
    R2l,
    /// DANA: R2L's selection, selected lines parsed to text (§4.4). Gap 20.
    Dana,
    /// DANAg: T1 = text characters, T2 = line length − T1 (§4.5). Gap 20.
    Danag,
    /// AdDANAg: DANAg with hyperlink normalisation (Filter 3 by default,
    /// §4.6). Gap 20.
    Addanag,
    /// linesift's own: AdDANAg counts plus boilerplate signals, a headline
    /// bound and container-aware growth. The default.
    #[default]
    Linesift,
}

impl Algorithm {
    /// The gap the seeds use for each variant.
    pub fn default_gap(self) -> u32 {
        match self {
            Algorithm::R2l => 8,
            Algorithm::Dana | Algorithm::Danag | Algorithm::Addanag => 20,
            Algorithm::Linesift => 40,
        }
    }

    pub const ALL: [Algorithm; 5] = [
        Algorithm::R2l,
        Algorithm::Dana,
        Algorithm::Danag,
        Algorithm::Addanag,
        Algorithm::Linesift,
    ];
}

/// Hyperlink preprocessing in front of DANAg (seed 001).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum LinkFilter {
    /// No link preprocessing (plain DANAg).
    None,
    /// Filter 1: drop anchors with their text.
    Drop,
    /// Filter 2: drop the anchors' attributes.
    Strip,
    /// Filter 3: replace the attributes by max(LT − 7, 0) spaces.
    #[default]
    Normalize,
}

/// How the headline is found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum HeadlineMethod {
    /// TitleFinder with TF cosine, exactly as thesis 000 §5.3.
    Tf,
    /// TitleFinder with TF-IDF cosine.
    TfIdf,
    /// TitleFinder with the overlap scoring measure.
    Osm,
    /// TitleFinder with TF + TF-IDF + OSM.
    Aggregate,
    /// linesift's own: block-level candidates, title parts, `<h1>` agreement,
    /// og:title; falls back sensibly. The default.
    #[default]
    Auto,
    /// No headline.
    Off,
}

/// All knobs of one extraction.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Options {
    pub algorithm: Algorithm,
    /// Link filter; ignored by R2L/DANA, forced to `None` for DANAg.
    pub filter: LinkFilter,
    /// Maximum line distance between regions that still belong together.
    pub gap: u32,
    pub headline: HeadlineMethod,
    /// A logical line longer than this many characters breaks at its next tag.
    pub wrap: u32,
    // Resource limits. Memory per page is about `max_bytes` (the decoded
    // source is kept to render the selected lines) plus ~70 bytes per
    // logical line, so both are capped; see README "Resource limits".
    /// Pages larger than this many bytes are refused with
    /// [`ExtractError::TooLarge`](super::ExtractError::TooLarge). At most
    /// [`MAX_PAGE_BYTES`]: a larger setting is taken as that.
    #[serde(default = "default_max_bytes")]
    pub max_bytes: usize,
    /// Pages with more logical lines than this are refused with
    /// [`ExtractError::TooManyLines`](super::ExtractError::TooManyLines).
    #[serde(default = "default_max_lines")]
    pub max_lines: usize,
    /// The output text is cut to at most this many bytes (at a character
    /// boundary) and the document flagged `text_truncated`.
    #[serde(default = "default_max_text")]
    pub max_text: usize,
    /// Keep every copy of a paragraph the text repeats. By default
    /// `Linesift` drops the later copies of long paragraphs (a page's
    /// hidden A/B or print copy of its article; see
    /// [`text::repeats`](super::text::repeats)); the seed variants always
    /// keep them.
    #[serde(default)]
    pub keep_repeats: bool,
    /// MinHash values to compute for each document (0: none).
    #[serde(default)]
    pub minhash: u16,
    /// Read what the page says of itself: author, dates, site name,
    /// description and the rest (`Document::meta`). Off by default: it
    /// costs about a third of the extraction's time.
    #[serde(default)]
    pub metadata: bool,
    /// Fingerprint the text with a 64-bit SimHash (`Document::simhash`),
    /// for `linesift dedup`. Off by default.
    #[serde(default)]
    pub simhash: bool,
    /// Tell the main content's structure (`Document::blocks`): headings,
    /// paragraphs, list items, tables, code, quotes. Off by default.
    #[serde(default)]
    pub blocks: bool,
    /// Write the main content as Markdown (`Document::markdown`), from
    /// its blocks. Off by default.
    #[serde(default)]
    pub markdown: bool,
    /// Read the page's outlinks (`Document::links`): `<a href>` resolved
    /// against the base URL, with anchor text, `rel` and whether each lies
    /// in the main content; and the canonical URL. Off by default: the
    /// scanner then marks no anchor.
    #[serde(default)]
    pub links: bool,
    /// Time the stages (`Document::timings`). Off by default, so that the
    /// same page gives the same document, byte for byte, every run.
    #[serde(default)]
    pub timings: bool,
}

fn default_max_bytes() -> usize {
    DEFAULT_MAX_BYTES
}
fn default_max_lines() -> usize {
    DEFAULT_MAX_LINES
}
fn default_max_text() -> usize {
    DEFAULT_MAX_TEXT
}

/// Default of [`Options::max_bytes`]: 256 MiB.
pub const DEFAULT_MAX_BYTES: usize = 256 * 1024 * 1024;
/// Default of [`Options::max_lines`]: a million logical lines (~60 MB of
/// line counts); real pages have thousands.
pub const DEFAULT_MAX_LINES: usize = 1_000_000;
/// Default of [`Options::max_text`]: 8 MiB of text, far above any article.
pub const DEFAULT_MAX_TEXT: usize = 8 * 1024 * 1024;

impl Default for Options {
    fn default() -> Self {
        Options::for_algorithm(Algorithm::default())
    }
}

impl Options {
    /// The seed-faithful settings of a variant (its gap, its filter).
    pub fn for_algorithm(algorithm: Algorithm) -> Self {
        let filter = match algorithm {
            Algorithm::Addanag | Algorithm::Linesift => LinkFilter::Normalize,
            _ => LinkFilter::None,
        };
        Options {
            algorithm,
            filter,
            gap: algorithm.default_gap(),
            headline: HeadlineMethod::Auto,
            wrap: 600,
            max_bytes: DEFAULT_MAX_BYTES,
            max_lines: DEFAULT_MAX_LINES,
            max_text: DEFAULT_MAX_TEXT,
            keep_repeats: false,
            minhash: 0,
            metadata: false,
            simhash: false,
            blocks: false,
            markdown: false,
            links: false,
            timings: false,
        }
    }
}

macro_rules! from_str_names {
    ($ty:ty, $($name:literal => $value:expr),+ $(,)?) => {
        impl FromStr for $ty {
            type Err = String;
            fn from_str(s: &str) -> Result<Self, String> {
                match s.to_ascii_lowercase().as_str() {
                    $($name => Ok($value),)+
                    other => Err(format!(
                        "unknown value {other:?}; expected one of: {}",
                        [$($name),+].join(", ")
                    )),
                }
            }
        }
        impl fmt::Display for $ty {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                let name = match self { $(v if *v == $value => $name,)+ _ => "?" };
                f.write_str(name)
            }
        }
    };
}

from_str_names!(Algorithm,
    "r2l" => Algorithm::R2l, "dana" => Algorithm::Dana, "danag" => Algorithm::Danag,
    "addanag" => Algorithm::Addanag, "linesift" => Algorithm::Linesift);
from_str_names!(LinkFilter,
    "none" => LinkFilter::None, "drop" => LinkFilter::Drop, "strip" => LinkFilter::Strip,
    "normalize" => LinkFilter::Normalize);
from_str_names!(HeadlineMethod,
    "tf" => HeadlineMethod::Tf, "tf-idf" => HeadlineMethod::TfIdf, "osm" => HeadlineMethod::Osm,
    "aggregate" => HeadlineMethod::Aggregate, "auto" => HeadlineMethod::Auto,
    "off" => HeadlineMethod::Off);

/// The largest page the core takes: line offsets and counts are 32-bit,
/// and a page in a legacy single-byte encoding may triple in size as
/// UTF-8, so `u32::MAX / 3` bytes (about 1.4 GB) keeps every offset of the
/// decoded text in range.
pub const MAX_PAGE_BYTES: usize = (u32::MAX / 3) as usize;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for a in Algorithm::ALL {
            assert_eq!(a.to_string().parse::<Algorithm>(), Ok(a));
        }
        assert_eq!(
            "TF-IDF".parse::<HeadlineMethod>(),
            Ok(HeadlineMethod::TfIdf)
        );
        assert!(
            "bogus"
                .parse::<LinkFilter>()
                .unwrap_err()
                .contains("normalize")
        );
    }

    #[test]
    fn seed_gaps() {
        assert_eq!(Options::for_algorithm(Algorithm::R2l).gap, 8);
        assert_eq!(Options::for_algorithm(Algorithm::Danag).gap, 20);
        assert_eq!(
            Options::for_algorithm(Algorithm::Danag).filter,
            LinkFilter::None
        );
        assert_eq!(
            Options::for_algorithm(Algorithm::Addanag).filter,
            LinkFilter::Normalize
        );
    }
}
