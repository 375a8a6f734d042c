//! The flags that read Common Crawl's index (`enqueue --kind cdx`, and
//! `run` when a list is an index): where its file names point, which
//! entries are kept. Flags only; the parsing is `worker::cdx`'s.

use linesift::worker::cdx::IndexOptions;

#[derive(Debug, Clone, clap::Args)]
pub struct IndexArgs {
    /// Base that an index's relative file names are resolved against: a
    /// URL (`https://data.commoncrawl.org/`, `s3://commoncrawl/`) or a
    /// directory. Without it, names are used as they are (relative to
    /// the working directory).
    #[arg(long, value_name = "URL|DIR")]
    warc_prefix: Option<String>,
    /// Keep only index entries of these HTTP statuses (repeat or comma
    /// separate: `--status 200,203`).
    #[arg(long, value_name = "CODE", value_delimiter = ',')]
    status: Vec<u16>,
    /// Keep only index entries of these MIME types, compared without
    /// parameters or case (`--mime text/html,application/xhtml+xml`).
    #[arg(long, value_name = "TYPE", value_delimiter = ',')]
    mime: Vec<String>,
}

impl IndexArgs {
    pub fn options(&self) -> IndexOptions {
        IndexOptions {
            prefix: self.warc_prefix.clone(),
            status: self.status.clone(),
            mime: self.mime.iter().map(|m| m.trim().to_string()).collect(),
        }
    }
}
