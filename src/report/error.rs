//! Errors of the report layer (reading manifests, writing reports).

use std::path::PathBuf;
use thiserror::Error;

/// The messages leave the cause out: it is the error's source, which
/// `{:#}` prints after them.
#[derive(Debug, Error)]
pub enum ReportError {
    #[error("{}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{}: {message}", path.display())]
    Manifest { path: PathBuf, message: String },
    #[error("JSON: {0}")]
    Json(#[from] serde_json::Error),
}

impl ReportError {
    /// Wraps an I/O error with the path it concerns.
    pub fn io(path: impl Into<PathBuf>) -> impl FnOnce(std::io::Error) -> ReportError {
        let path = path.into();
        move |source| ReportError::Io { path, source }
    }
}
