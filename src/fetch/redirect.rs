//! The redirect policy: a limit, loop detection, http(s) only, and the SSRF
//! guard applied to every redirect target before it is followed (IP
//! literals here; names are checked again by the resolver on connect).

use super::guard::{Guard, GuardError};
use reqwest::redirect::{Attempt, Policy};
use thiserror::Error;

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

/// A reqwest policy following at most `limit` redirects.
pub fn policy(guard: Guard, limit: usize) -> Policy {
    Policy::custom(move |attempt| match judge(&attempt, guard, limit) {
        Ok(()) => attempt.follow(),
        Err(e) => attempt.error(e),
    })
}

fn judge(attempt: &Attempt, guard: Guard, limit: usize) -> Result<(), RedirectError> {
    let next = attempt.url();
    // `previous` starts with the original URL, so it holds one more than the
    // redirects followed so far.
    if attempt.previous().len() > limit {
        return Err(RedirectError::TooMany { limit });
    }
    if attempt.previous().iter().any(|u| u == next) {
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
