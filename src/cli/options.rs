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
    /// Refuse pages larger than this (bytes; K, M, G suffixes; default 256M).
    #[arg(long, env = "LINESIFT_MAX_BYTES", value_name = "SIZE", value_parser = parse_size_usize)]
    pub max_bytes: Option<usize>,
    /// Refuse pages with more logical lines than this (default 1000000).
    #[arg(long, env = "LINESIFT_MAX_LINES", value_name = "N")]
    pub max_lines: Option<usize>,
    /// Cut the output text at this many bytes and flag it `text_truncated`
    /// (K, M, G suffixes; default 8M).
    #[arg(long, env = "LINESIFT_MAX_TEXT", value_name = "SIZE", value_parser = parse_size_usize)]
    pub max_text: Option<usize>,
    /// Keep every copy of a long paragraph the text repeats (by default
    /// the linesift algorithm drops the later copies).
    #[arg(long)]
    pub keep_repeats: bool,
    /// Add a MinHash signature of N values to each document (`minhash`;
    /// 0, the default: none).
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub minhash: u16,
    /// Add what the page says of itself: author, published and modified
    /// dates, site name, description, canonical URL, image, keywords and
    /// categories (about a third more extraction time).
    #[arg(long)]
    pub metadata: bool,
    /// Add a 64-bit SimHash of the text (`simhash`), which `linesift
    /// dedup` uses to find near duplicates.
    #[arg(long)]
    pub simhash: bool,
    /// Add the main content's structure to JSON documents (`blocks`):
    /// headings, paragraphs, list items, tables, code and quotes.
    #[arg(long)]
    pub blocks: bool,
    /// Add the page's outlinks to JSON documents (`links`: url, text, rel,
    /// in_content), resolved against its `<base>` or URL, and its
    /// canonical URL (`canonical`).
    #[arg(long)]
    pub links: bool,
    /// Add the seconds each stage of the extraction took to JSON documents
    /// (`timings`). Left out by default: without them, the same input
    /// gives the same output bytes every run.
    #[arg(long)]
    pub timings: bool,
}

/// Parses a size such as `4096`, `512K`, `16M` or `1G`.
pub fn parse_size(s: &str) -> Result<u64, String> {
    let s = s.trim();
    let (digits, unit) = match s.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
        Some((i, _)) => s.split_at(i),
        None => (s, ""),
    };
    let n: u64 = digits.parse().map_err(|_| format!("not a size: {s}"))?;
    // Binary units whichever way they are written (`16M`, `16MB`,
    // `16MiB`), and nothing else: `5BI` is a typo, not five bytes.
    let factor: u64 = match unit.to_ascii_uppercase().as_str() {
        "" | "B" => 1,
        "K" | "KB" | "KIB" => 1 << 10,
        "M" | "MB" | "MIB" => 1 << 20,
        "G" | "GB" | "GIB" => 1 << 30,
        _ => return Err(format!("unknown size unit in {s} (use K, M or G)")),
    };
    n.checked_mul(factor)
        .ok_or_else(|| format!("size too large: {s}"))
}

/// The fetch body limit from the `--max-body` and `--refuse-oversize` flags
/// (`extract` and `worker` both have them).
pub fn body_limit(max_body: u64, refuse_oversize: bool) -> linesift::fetch::BodyLimit {
    use linesift::fetch::Oversize;
    linesift::fetch::BodyLimit {
        max_body,
        oversize: if refuse_oversize {
            Oversize::Refuse
        } else {
            Oversize::Truncate
        },
    }
}

/// A charset label (WHATWG: `utf-8`, `latin1`, `windows-1251`,
/// `shift_jis`, ...), refused when no encoding has it: an unknown label
/// would otherwise be ignored without a word.
pub fn parse_charset(s: &str) -> Result<String, String> {
    match encoding_rs::Encoding::for_label(s.trim().as_bytes()) {
        Some(_) => Ok(s.trim().to_string()),
        None => Err(format!(
            "no encoding is called {s:?} (WHATWG labels, e.g. windows-1252)"
        )),
    }
}

/// [`parse_size`] for in-memory sizes.
pub fn parse_size_usize(s: &str) -> Result<usize, String> {
    usize::try_from(parse_size(s)?).map_err(|_| format!("size too large: {s}"))
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
        if let Some(max) = self.max_lines {
            o.max_lines = max;
        }
        if let Some(max) = self.max_text {
            o.max_text = max;
        }
        o.headline = self.headline;
        o.keep_repeats = self.keep_repeats;
        o.minhash = self.minhash;
        o.metadata = self.metadata;
        o.simhash = self.simhash;
        o.blocks = self.blocks;
        o.links = self.links;
        o.timings = self.timings;
        o
    }
}

/// A count that must be 1 at least (tasks at once, `--concurrency`): 0
/// would run nothing, so it is refused at parse time (exit 2) rather than
/// taken as 1.
pub fn at_least_one() -> clap::builder::RangedU64ValueParser<usize> {
    clap::builder::RangedU64ValueParser::new().range(1..=u64::from(u32::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_take_binary_units_and_nothing_else() {
        assert_eq!(parse_size("4096"), Ok(4096));
        assert_eq!(parse_size("5B"), Ok(5));
        for s in ["512K", "512k", "512KB", "512KiB", "512kib"] {
            assert_eq!(parse_size(s), Ok(512 << 10), "{s}");
        }
        assert_eq!(parse_size(" 16M "), Ok(16 << 20));
        assert_eq!(parse_size("16MiB"), Ok(16 << 20));
        assert_eq!(parse_size("1G"), Ok(1 << 30));
        for s in ["5bi", "5ib", "5BBB", "5MBB", "5T", "M", "", "-1", "1.5M"] {
            assert!(parse_size(s).is_err(), "{s} taken");
        }
        assert!(parse_size("99999999999G").is_err());
    }

    #[test]
    fn charsets_are_whatwg_labels() {
        assert_eq!(
            parse_charset(" Windows-1251 ").as_deref(),
            Ok("Windows-1251")
        );
        assert_eq!(parse_charset("latin1").as_deref(), Ok("latin1"));
        assert!(parse_charset("bogus").is_err());
        assert!(parse_charset("").is_err());
    }
}
