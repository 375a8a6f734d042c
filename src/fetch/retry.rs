//! Retries: which failures are worth another try, how long to wait
//! (Retry-After when the server says, else exponential backoff with
//! jitter), and when to give up.

use super::error::FetchError;
use std::time::{Duration, SystemTime};

/// How retries are bounded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Retries after the first attempt.
    pub retries: u32,
    /// Backoff before the first retry; doubled for each further one.
    pub backoff: Duration,
    /// A Retry-After longer than this is not waited for: the error stands.
    pub max_wait: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            retries: 2,
            backoff: Duration::from_millis(500),
            max_wait: Duration::from_secs(60),
        }
    }
}

impl RetryPolicy {
    /// How long to wait before retry number `attempt` (1-based) after
    /// `error`, or `None` to give up.
    pub fn wait(&self, error: &FetchError, attempt: u32) -> Option<Duration> {
        if attempt > self.retries || !error.is_transient() {
            return None;
        }
        if let FetchError::Status {
            retry_after: Some(after),
            ..
        } = error
        {
            return (*after <= self.max_wait).then_some(*after);
        }
        let exp = self.backoff.saturating_mul(1 << (attempt - 1).min(16));
        Some(exp.min(self.max_wait) + jitter(self.backoff / 4))
    }
}

/// Parses a Retry-After value: delta-seconds or an HTTP date.
pub fn parse_retry_after(value: &str) -> Option<Duration> {
    let value = value.trim();
    if let Ok(secs) = value.parse::<u64>() {
        return Some(Duration::from_secs(secs));
    }
    let at = httpdate::parse_http_date(value).ok()?;
    Some(
        at.duration_since(SystemTime::now())
            .unwrap_or(Duration::ZERO),
    )
}

/// A small pseudo-random delay up to `max`, so retries of many tasks do
/// not arrive in lockstep.
fn jitter(max: Duration) -> Duration {
    let nanos = SystemTime::now()
        .duration_since(SystemTime::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    let max_nanos = max.as_nanos().max(1);
    Duration::from_nanos((u128::from(nanos) % max_nanos) as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn status(status: u16, retry_after: Option<u64>) -> FetchError {
        FetchError::Status {
            url: "http://x/".into(),
            status,
            retry_after: retry_after.map(Duration::from_secs),
        }
    }

    #[test]
    fn retry_after_forms() {
        assert_eq!(parse_retry_after("120"), Some(Duration::from_secs(120)));
        assert_eq!(
            parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT"),
            Some(Duration::ZERO)
        );
        assert_eq!(parse_retry_after("soon"), None);
    }

    #[test]
    fn only_transient_errors_are_retried_and_boundedly() {
        let p = RetryPolicy::default();
        assert_eq!(p.wait(&status(404, None), 1), None);
        assert_eq!(p.wait(&status(500, None), 1), None);
        assert!(p.wait(&status(503, None), 1).is_some());
        assert!(p.wait(&status(503, None), 3).is_none());
        assert_eq!(
            p.wait(&status(429, Some(7)), 1),
            Some(Duration::from_secs(7))
        );
        assert_eq!(p.wait(&status(429, Some(3600)), 1), None);
    }

    #[test]
    fn backoff_grows() {
        let p = RetryPolicy::default();
        let e = status(502, None);
        let (Some(a), Some(b)) = (p.wait(&e, 1), p.wait(&e, 2)) else {
            panic!("transient error not retried");
        };
        assert!(a >= p.backoff && b >= p.backoff * 2);
    }
}
