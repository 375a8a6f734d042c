//! Measuring and seeing extractions, outside the pure core: scoring against
//! gold text exactly as `shared/eval/score.py` does (`score`, `eval`),
//! reading evaluation manifests (`manifest`), and rendering charts and
//! self-contained HTML pages (`svg`, `explain_view`, `html`). File I/O is
//! limited to reading manifests, pages and gold files; writing reports and
//! the command line are the caller's.

pub mod error;
pub mod eval;
pub mod explain_view;
pub mod html;
pub mod manifest;
pub mod score;
pub mod svg;

pub use error::ReportError;
