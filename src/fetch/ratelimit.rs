//! Per-host politeness: requests to one host start at least an interval
//! apart. The interval is the configured minimum, raised by the host's
//! robots.txt Crawl-delay; a 429/503 with Retry-After pushes the host's next
//! slot further out. Slots are reserved under a short lock and waited for
//! outside it, so concurrent tasks for the same host queue up in order.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Hosts remembered before idle ones are forgotten.
const PRUNE_AT: usize = 10_000;

#[derive(Debug)]
pub struct HostLimiter {
    default: Duration,
    hosts: Mutex<HashMap<String, HostState>>,
}

#[derive(Debug, Clone, Copy)]
struct HostState {
    /// Earliest start of the next request.
    next: Instant,
    /// Interval for this host when it differs from the default.
    interval: Option<Duration>,
}

impl HostLimiter {
    pub fn new(default: Duration) -> Self {
        HostLimiter {
            default,
            hosts: Mutex::new(HashMap::new()),
        }
    }

    /// Sets the host's interval to at least `interval` (Crawl-delay).
    pub fn set_interval(&self, host: &str, interval: Duration) {
        let interval = interval.max(self.default);
        self.with_host(host, |s| s.interval = Some(interval));
    }

    /// The interval in force for a host.
    pub fn interval(&self, host: &str) -> Duration {
        self.with_host(host, |s| s.interval.unwrap_or(self.default))
    }

    /// No request to the host starts before `until` (Retry-After).
    pub fn defer(&self, host: &str, until: Instant) {
        self.with_host(host, |s| s.next = s.next.max(until));
    }

    /// Reserves the host's next slot and returns when it starts.
    pub fn reserve(&self, host: &str) -> Instant {
        let now = Instant::now();
        self.with_host(host, |s| {
            let start = s.next.max(now);
            s.next = start + s.interval.unwrap_or(self.default);
            start
        })
    }

    /// Waits for the host's next slot.
    pub async fn wait(&self, host: &str) {
        let start = self.reserve(host);
        tokio::time::sleep_until(start.into()).await;
    }

    fn with_host<T>(&self, host: &str, f: impl FnOnce(&mut HostState) -> T) -> T {
        let mut hosts = match self.hosts.lock() {
            Ok(guard) => guard,
            Err(poisoned) => poisoned.into_inner(),
        };
        if hosts.len() >= PRUNE_AT {
            let now = Instant::now();
            hosts.retain(|_, s| s.next > now || s.interval.is_some());
        }
        let state = hosts.entry(host.to_string()).or_insert(HostState {
            next: Instant::now(),
            interval: None,
        });
        f(state)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_are_an_interval_apart_per_host() {
        let limiter = HostLimiter::new(Duration::from_secs(2));
        let a = limiter.reserve("a");
        let b = limiter.reserve("a");
        assert_eq!(b - a, Duration::from_secs(2));
        let other = limiter.reserve("b");
        assert!(other < b);
    }

    #[test]
    fn crawl_delay_raises_and_never_lowers_the_interval() {
        let limiter = HostLimiter::new(Duration::from_secs(1));
        limiter.set_interval("a", Duration::from_secs(5));
        assert_eq!(limiter.interval("a"), Duration::from_secs(5));
        limiter.set_interval("b", Duration::from_millis(10));
        assert_eq!(limiter.interval("b"), Duration::from_secs(1));
    }

    #[test]
    fn defer_pushes_the_next_slot() {
        let limiter = HostLimiter::new(Duration::ZERO);
        let until = Instant::now() + Duration::from_secs(30);
        limiter.defer("a", until);
        assert!(limiter.reserve("a") >= until);
    }
}
