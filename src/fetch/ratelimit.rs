//! Per-host politeness: requests to one host start at least an interval
//! apart. The interval is the configured minimum, raised by the host's
//! robots.txt Crawl-delay; a 429/503 with Retry-After pushes the host's next
//! slot further out. Slots are reserved under a short lock and waited for
//! outside it, so concurrent tasks for the same host queue up in order.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Hosts remembered before those with no slot pending are forgotten. After
/// a prune the next one waits until the map has doubled, so a worker that
/// has seen many busy hosts does not scan them all on every request.
const PRUNE_AT: usize = 10_000;

/// A host's next slot was further out than the caller would wait.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Busy {
    /// How far out the slot was.
    pub wait: Duration,
}

#[derive(Debug)]
pub struct HostLimiter {
    default: Duration,
    hosts: Mutex<Hosts>,
}

#[derive(Debug)]
struct Hosts {
    map: HashMap<String, HostState>,
    /// The size at which the map is pruned next.
    prune_at: usize,
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
            hosts: Mutex::new(Hosts {
                map: HashMap::new(),
                prune_at: PRUNE_AT,
            }),
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
        // With no bound nothing is refused; a refusal would say how far
        // out the slot was.
        match self.reserve_slot_within(host, None) {
            Ok((start, _)) => start,
            Err(Busy { wait }) => Instant::now() + wait,
        }
    }

    /// The next slot, unless it starts more than `bound` from now: then
    /// nothing is reserved. Decided under the same lock as the reservation,
    /// so a refusal never moves the host's `next`.
    fn reserve_slot_within(
        &self,
        host: &str,
        bound: Option<Duration>,
    ) -> Result<(Instant, Instant), Busy> {
        self.with_host(host, |s| {
            // Read after a new host's entry is made (its `next` is the time
            // it was made), so a free host's slot is never in the future.
            let now = Instant::now();
            let start = s.next.max(now);
            let wait = start.saturating_duration_since(now);
            if bound.is_some_and(|bound| wait > bound) {
                return Err(Busy { wait });
            }
            s.next = start + s.interval.unwrap_or(self.default);
            Ok((start, s.next))
        })
    }

    /// Waits for the host's next slot. A wait given up (the task's
    /// deadline, a drain) hands its slot back when it was the host's last
    /// one, so abandoned waits do not push the host's later requests ever
    /// further out.
    pub async fn wait(&self, host: &str) {
        // With no bound the wait is never refused.
        let _ = self.wait_within(host, None).await;
    }

    /// Waits for the host's next slot unless it starts more than `bound`
    /// from now: then no slot is taken, and the error says how far out it
    /// was. A worker uses this to put a task for a busy host aside rather
    /// than hold one of its slots asleep.
    pub async fn wait_within(&self, host: &str, bound: Option<Duration>) -> Result<(), Busy> {
        let (start, next) = self.reserve_slot_within(host, bound)?;
        let mut slot = Reserved {
            limiter: self,
            host,
            start,
            next,
            used: false,
        };
        tokio::time::sleep_until(start.into()).await;
        slot.used = true;
        Ok(())
    }

    /// Gives a reserved slot back if no later one was reserved after it.
    fn release(&self, host: &str, start: Instant, next: Instant) {
        let mut hosts = self.lock();
        if let Some(s) = hosts.map.get_mut(host)
            && s.next == next
        {
            s.next = start;
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Hosts> {
        match self.hosts.lock() {
            Ok(guard) => guard,
            Err(poisoned) => poisoned.into_inner(),
        }
    }

    fn with_host<T>(&self, host: &str, f: impl FnOnce(&mut HostState) -> T) -> T {
        let mut hosts = self.lock();
        if hosts.map.len() >= hosts.prune_at {
            // Only pending slots matter: an interval from Crawl-delay is
            // set again from the cached robots.txt before every request.
            let now = Instant::now();
            hosts.map.retain(|_, s| s.next > now);
            hosts.prune_at = PRUNE_AT.max(2 * hosts.map.len());
        }
        let state = hosts.map.entry(host.to_string()).or_insert(HostState {
            next: Instant::now(),
            interval: None,
        });
        f(state)
    }

    /// Hosts remembered (for tests).
    #[cfg(test)]
    fn len(&self) -> usize {
        self.lock().map.len()
    }
}

/// A slot being waited for; handed back if the wait is dropped unused.
struct Reserved<'l> {
    limiter: &'l HostLimiter,
    host: &'l str,
    start: Instant,
    next: Instant,
    used: bool,
}

impl Drop for Reserved<'_> {
    fn drop(&mut self) {
        if !self.used {
            self.limiter.release(self.host, self.start, self.next);
        }
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

    /// A wait given up before its slot (a task's deadline) hands the slot
    /// back, so the host's next request is not pushed out by it; unless a
    /// later slot was reserved meanwhile, which keeps it taken.
    #[tokio::test]
    async fn an_abandoned_wait_gives_its_slot_back() {
        use futures_util::FutureExt;
        let limiter = HostLimiter::new(Duration::from_secs(10));
        let first = limiter.reserve("a");
        let given_up = tokio::time::timeout(Duration::from_millis(20), limiter.wait("a")).await;
        assert!(given_up.is_err(), "the second slot is 10 s out");
        // One interval after the first, not two.
        assert_eq!(limiter.reserve("a") - first, Duration::from_secs(10));

        let first = limiter.reserve("b");
        let mut waiting = Box::pin(limiter.wait("b"));
        assert!(waiting.as_mut().now_or_never().is_none());
        let third = limiter.reserve("b");
        drop(waiting);
        assert_eq!(third - first, Duration::from_secs(20));
        assert_eq!(limiter.reserve("b") - first, Duration::from_secs(30));
    }

    /// A slot further out than the bound is refused at once, with how far
    /// out it was, and not taken: the host's next slot does not move.
    /// Within the bound (or with none) the slot is waited for and kept.
    #[tokio::test]
    async fn a_bounded_wait_refuses_a_far_slot_and_gives_it_back() {
        let limiter = HostLimiter::new(Duration::from_secs(60));
        let first = limiter.reserve("a");
        let bound = Some(Duration::from_secs(5));
        let refused = tokio::time::timeout(Duration::from_secs(1), limiter.wait_within("a", bound))
            .await
            .expect("a refusal does not wait");
        let Busy { wait } = refused.expect_err("the next slot is 60 s out");
        assert!(
            wait > Duration::from_secs(55) && wait <= Duration::from_secs(60),
            "{wait:?}"
        );
        assert_eq!(limiter.reserve("a") - first, Duration::from_secs(60));

        // A free host's slot is now: taken within any bound, and kept.
        assert_eq!(limiter.wait_within("b", Some(Duration::ZERO)).await, Ok(()));
        let after = limiter.reserve("b");
        assert!(after > Instant::now() + Duration::from_secs(55));
    }

    /// Hosts with no slot pending are forgotten once the map is large, and
    /// the next prune waits for it to double rather than running on every
    /// request.
    #[test]
    fn idle_hosts_are_forgotten_and_pruning_is_amortised() {
        let limiter = HostLimiter::new(Duration::ZERO);
        for i in 0..PRUNE_AT {
            limiter.set_interval(&format!("idle-{i}"), Duration::ZERO);
        }
        assert_eq!(limiter.len(), PRUNE_AT);
        // A host with a slot far out is kept through the prune.
        limiter.defer("busy", Instant::now() + Duration::from_secs(600));
        assert_eq!(limiter.len(), 1);
        assert!(limiter.reserve("busy") > Instant::now() + Duration::from_secs(500));
        assert_eq!(limiter.lock().prune_at, PRUNE_AT);
    }
}
