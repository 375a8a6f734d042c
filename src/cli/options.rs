//! Extraction options shared by every subcommand that extracts.

use linesift::extract::{Algorithm, HeadlineMethod, LinkFilter, Options};

#[derive(Debug, Clone, clap::Args)]
pub struct ExtractOptions {
    /// Line-selection algorithm: linesift (default), addanag, danag, dana, r2l.
    #[arg(long, default_value = "linesift")]
    pub algorithm: Algorithm,
    /// Maximum line distance between content regions (default: the
    /// algorithm's own: r2l 8, dana/danag/addanag 20, linesift 40).
    #[arg(long)]
    pub gap: Option<u32>,
    /// Hyperlink filter: normalize (Filter 3), strip (2), drop (1), none.
    #[arg(long)]
    pub filter: Option<LinkFilter>,
    /// Headline method: auto, tf, tf-idf, osm, aggregate, off.
    #[arg(long, default_value = "auto")]
    pub headline: HeadlineMethod,
    /// Wrap logical lines longer than this many characters at the next tag.
    #[arg(long)]
    pub wrap: Option<u32>,
    /// Refuse pages larger than this many bytes.
    #[arg(long)]
    pub max_bytes: Option<usize>,
}

impl ExtractOptions {
    pub fn options(&self) -> Options {
        let mut o = Options::for_algorithm(self.algorithm);
        if let Some(gap) = self.gap {
            o.gap = gap;
        }
        if let Some(filter) = self.filter {
            o.filter = filter;
        }
        if let Some(wrap) = self.wrap {
            o.wrap = wrap;
        }
        if let Some(max) = self.max_bytes {
            o.max_bytes = max;
        }
        o.headline = self.headline;
        o
    }
}
