//! The redirect rules: a limit, loop detection, http(s) only, and the SSRF
//! guard applied to every redirect target before it is followed (IP
//! literals here; names are checked again by the resolver on connect).
//!
//! The fetcher follows redirects itself (reqwest's own following is off):
//! each hop may lead to another host, whose robots.txt and request
//! interval apply to it as to any URL asked for directly.

use super::guard::{Guard, GuardError};
use thiserror::Error;
use url::Url;

/// Why a redirect was not followed.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum RedirectError {
    #[error("more than {limit} redirects")]
    TooMany { limit: usize },
    #[error("redirect loop back to {url}")]
    Loop { url: String },
    #[error("redirect to unsupported scheme {scheme}")]
    Scheme { scheme: String },
    #[error("redirect refused: {0}")]
    Guard(#[from] GuardError),
}

/// Whether the redirect to `next` may be followed, after the URLs in
/// `previous` (the requested one first): at most `limit` redirects, no URL
/// twice, http(s) only, and the guard's verdict on the target.
pub fn check(
    previous: &[Url],
    next: &Url,
    guard: Guard,
    limit: usize,
) -> Result<(), RedirectError> {
    // `previous` starts with the original URL, so it holds one more than
    // the redirects followed so far.
    if previous.len() > limit {
        return Err(RedirectError::TooMany { limit });
    }
    if previous.iter().any(|u| u == next) {
        return Err(RedirectError::Loop {
            url: next.to_string(),
        });
    }
    if !matches!(next.scheme(), "http" | "https") {
        return Err(RedirectError::Scheme {
            scheme: next.scheme().to_string(),
        });
    }
    guard.check_url(next)?;
    Ok(())
}
