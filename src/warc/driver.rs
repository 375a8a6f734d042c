//! Records in, documents out: the one set of rules by which `linesift
//! warc`, `linesift run` and the worker tell what became of each WARC
//! record, and how reading a file ends. It runs no threads, writes no
//! file, reads no signal and formats no message for a user: how the
//! outcomes are counted, logged, retried or published is the callers'.
//!
//! The rules:
//! - A record that gives a document is an [`Outcome::Document`].
//! - A record that is no page for the core (its type, status, media type,
//!   a continuation, a payload that sniffs as no HTML) is
//!   [`Outcome::Skipped`]: counted by its reason, never a failure.
//! - A page that is lost is [`Outcome::Failed`], with a stage and a kind:
//!   to its bytes (`warc`/`bad_record`, `extract`/`payload`,
//!   `extract`/`extract`), or to the operator's limits (`warc`/`too_large`:
//!   a payload over `max_payload`, a gzip member, zstd or LZ4 frame over
//!   `max_member`). Reading goes on with the next record.
//! - A file whose reading stops early (a [`WarcReader`](super::WarcReader)
//!   error: the file is cut, or a read failed) keeps the records before
//!   the cut; the rest of the file is lost.

use super::error::WarcError;
use super::page::PageError;
use super::reader::{Item, ReaderOptions, SkipReason};
use crate::codec::error::ContainerError;
use crate::{Document, Extractor};

/// Judges records by one extractor and one set of reader limits.
#[derive(Debug, Clone, Copy)]
pub struct Driver<'a> {
    extractor: &'a Extractor,
    options: ReaderOptions,
}

/// What became of one record.
#[derive(Debug)]
pub enum Outcome {
    /// Made of an [`Item::Page`], never of another item.
    Document(Box<Document>),
    Skipped(Skip),
    Failed(Failure),
}

/// A record that is no page for the core.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Skip {
    /// Told from the record and its HTTP head, before the payload was
    /// decoded.
    Record(SkipReason),
    /// Told from the decoded payload (sniffed as no HTML, an encoding
    /// that cannot be undone).
    Payload(SkipReason),
}

impl Skip {
    pub fn reason(&self) -> &SkipReason {
        match self {
            Skip::Record(reason) | Skip::Payload(reason) => reason,
        }
    }

    /// The short key skips are counted by (`not-html`, `status:4xx`, ...).
    pub fn key(&self) -> String {
        self.reason().key()
    }

    /// Where it was told: `warc` for the record, `extract` for the
    /// payload.
    pub fn stage(&self) -> &'static str {
        match self {
            Skip::Record(_) => "warc",
            Skip::Payload(_) => "extract",
        }
    }
}

/// A page lost: where, of what kind, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// `warc` (the record) or `extract` (its payload, or the core).
    pub stage: &'static str,
    /// `bad_record`, `too_large`, `payload` or `extract`.
    pub kind: &'static str,
    /// One line, without the file's name or the record's offset.
    pub message: String,
}

impl<'a> Driver<'a> {
    pub fn new(extractor: &'a Extractor, options: ReaderOptions) -> Self {
        Driver { extractor, options }
    }

    pub fn options(&self) -> ReaderOptions {
        self.options
    }

    /// What becomes of `item`: a page is decoded and extracted here.
    pub fn outcome(&self, item: &Item) -> Outcome {
        match item {
            Item::Page(page) => match page.extract(self.extractor) {
                Ok(doc) => Outcome::Document(Box::new(doc)),
                Err(PageError::Skip(reason)) => Outcome::Skipped(Skip::Payload(reason)),
                Err(e) => Outcome::Failed(page_failure(&e)),
            },
            Item::Skipped {
                reason: SkipReason::TooLarge,
                ..
            } => Outcome::Failed(Failure {
                stage: "warc",
                kind: "too_large",
                message: format!(
                    "payload larger than the limit of {} bytes (max_payload)",
                    self.options.max_payload
                ),
            }),
            Item::Skipped { reason, .. } => Outcome::Skipped(Skip::Record(reason.clone())),
            Item::Bad { error, .. } => Outcome::Failed(record_failure(error)),
        }
    }
}

/// The failure of a record (or member) that could not be read: lost to
/// the operator's `max_member`, as a payload over `max_payload` is, or to
/// its bytes.
pub fn record_failure(error: &WarcError) -> Failure {
    let kind = match error {
        WarcError::Container(ContainerError::MemberTooLarge { .. }) => "too_large",
        _ => "bad_record",
    };
    Failure {
        stage: "warc",
        kind,
        message: error.to_string(),
    }
}

/// The failure of a page whose payload did not decode, or that the core
/// refused.
fn page_failure(error: &PageError) -> Failure {
    Failure {
        stage: "extract",
        kind: page_error_kind(error),
        message: error.to_string(),
    }
}

/// The kind a page error is counted as.
pub fn page_error_kind(e: &PageError) -> &'static str {
    match e {
        PageError::Skip(_) => "skipped",
        PageError::Payload(_) => "payload",
        PageError::Extract(_) => "extract",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::warc::RecordPos;

    fn outcome_of(item: &Item) -> Outcome {
        let extractor = Extractor::new(crate::Options::default());
        let options = ReaderOptions {
            max_payload: 4096,
            max_member: 1 << 20,
        };
        Driver::new(&extractor, options).outcome(item)
    }

    fn failure_of(item: &Item) -> Failure {
        match outcome_of(item) {
            Outcome::Failed(f) => f,
            other => panic!("{other:?}"),
        }
    }

    /// A page lost to a limit, a payload's or a member's, is a
    /// `too_large` failure naming the limit; a record lost to its bytes a
    /// `bad_record`; a record that is no page a skip, by its reason.
    #[test]
    fn pages_lost_to_a_limit_fail_as_too_large_and_other_records_skip() {
        let pos = RecordPos::default();
        let over = Item::Skipped {
            pos,
            reason: SkipReason::TooLarge,
        };
        let failure = failure_of(&over);
        assert_eq!((failure.stage, failure.kind), ("warc", "too_large"));
        assert!(
            failure.message.contains("4096 bytes (max_payload)"),
            "{failure:?}"
        );
        let bomb = Item::Bad {
            pos,
            error: WarcError::Container(ContainerError::MemberTooLarge {
                format: "gzip",
                offset: 7,
                limit: 1 << 20,
            }),
        };
        assert_eq!(failure_of(&bomb).kind, "too_large");
        let bad = Item::Bad {
            pos,
            error: WarcError::BadHeader("x".into()),
        };
        assert_eq!(failure_of(&bad).kind, "bad_record");
        let status = Item::Skipped {
            pos,
            reason: SkipReason::Status(404),
        };
        match outcome_of(&status) {
            Outcome::Skipped(skip) => {
                assert_eq!((skip.stage(), skip.key().as_str()), ("warc", "status:4xx"));
            }
            other => panic!("{other:?}"),
        }
    }
}
