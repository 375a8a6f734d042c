//! robots.txt per origin (scheme, host, port), parsed with
//! `texting_robots` and cached with a TTL. As crawlers customarily do: a
//! 2xx is parsed (a rule the parser refuses is dropped, the rest kept; a
//! file it cannot read at all allows everything), a 4xx allows everything, a
//! 429, a 5xx, an unreachable host or a 2xx whose body cannot be read
//! (cut off, damaged, in more codings stacked than the fetcher decodes,
//! or still coded: in an unknown coding with a body that looks
//! compressed or is not text, which would reach the parser still coded
//! and parse to allow-all) disallows everything for a shorter
//! while, and a page refused for it may be tried again later (the
//! refusal is temporary: the worker requeues the task rather than
//! dead-lettering it). A bogus coding no browser decodes either
//! (`Content-Encoding: none`, `UTF-8`, `identity;q=1`) on a plain file is
//! ignored, as it is for a page: the file is parsed as it came.
//! Crawl-delay is read for the rate limiter. One fetch per origin at a
//! time: concurrent tasks for the same origin wait for the first.

use super::body::Body;
use super::client::classify;
use super::error::FetchError;
use super::guard::Guard;
use super::page::redirect_target;
use super::redirect;
use crate::codec::coding::{Coding, looks_coded};
use reqwest::Client;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use texting_robots::Robot;
use url::Url;

/// Largest robots.txt read (Google reads 500 KiB).
const MAX_ROBOTS_BYTES: usize = 512 * 1024;
/// How long a failure (5xx, unreachable) is remembered at most.
const ERROR_TTL: Duration = Duration::from_secs(60);
/// Redirects followed for a robots.txt (RFC 9309 §2.3.1.2: at least five).
const MAX_REDIRECTS: usize = 5;

/// The rules in force for one origin.
#[derive(Debug)]
pub enum Rules {
    AllowAll,
    /// Disallow everything for now: robots.txt could not be read, for
    /// the reason given (`robots.txt answered 429/5xx`, ...).
    DisallowAll(&'static str),
    Parsed(Box<Robot>),
}

/// Why a URL may not be fetched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Refusal {
    pub reason: &'static str,
    /// robots.txt could not be read (429, 5xx, unreachable): the refusal
    /// lasts only until it is read again, so the page may be tried later.
    pub temporary: bool,
}

impl Rules {
    /// `Err` when `url` may not be fetched.
    pub fn check(&self, url: &Url) -> Result<(), Refusal> {
        match self {
            Rules::AllowAll => Ok(()),
            Rules::DisallowAll(reason) => Err(Refusal {
                reason,
                temporary: true,
            }),
            Rules::Parsed(robot) if robot.allowed(without_fragment(url).as_str()) => Ok(()),
            Rules::Parsed(_) => Err(Refusal {
                reason: "disallowed for our user agent",
                temporary: false,
            }),
        }
    }

    /// The Crawl-delay, if the rules give one.
    pub fn crawl_delay(&self) -> Option<Duration> {
        match self {
            Rules::Parsed(robot) => robot
                .delay
                .filter(|d| d.is_finite() && *d > 0.0)
                .map(|d| Duration::from_secs_f32(d.min(86_400.0))),
            _ => None,
        }
    }
}

/// `url` as it is requested: the fragment is never sent, and left on it
/// would hide the path's end from a `$` rule (`Disallow: /*.php$` against
/// `/a.php#top`).
fn without_fragment(url: &Url) -> std::borrow::Cow<'_, Url> {
    if url.fragment().is_none() {
        return std::borrow::Cow::Borrowed(url);
    }
    let mut sent = url.clone();
    sent.set_fragment(None);
    std::borrow::Cow::Owned(sent)
}

#[derive(Debug, Default)]
struct Slot {
    entry: Option<(Arc<Rules>, Instant)>,
}

/// Origins kept before the expired and unused ones are dropped. A worker
/// lives for weeks and meets ever new hosts: without a bound the parsed
/// rules of every origin it ever saw would stay in memory. After a prune
/// the next one waits until the map has doubled (or is back at this size),
/// so the scan is paid once per many new origins, not on every request.
const PRUNE_AT: usize = 4096;

/// The cache. `agent` is the product token matched against `User-agent:`.
#[derive(Debug)]
pub struct RobotsCache {
    agent: String,
    ttl: Duration,
    /// Checks the targets of robots.txt redirects (IP literals; names are
    /// checked by the client's resolver).
    guard: Guard,
    slots: Mutex<Slots>,
}

#[derive(Debug)]
struct Slots {
    map: HashMap<String, Arc<tokio::sync::Mutex<Slot>>>,
    /// The size at which the map is pruned next.
    prune_at: usize,
}

impl Slots {
    /// Drops the origins no task is using whose rules expired (or, when
    /// every entry is fresh, all that no task is using).
    fn prune(&mut self) {
        let now = Instant::now();
        let in_use = |slot: &Arc<tokio::sync::Mutex<Slot>>| Arc::strong_count(slot) > 1;
        self.map.retain(|_, slot| {
            in_use(slot)
                || slot
                    .try_lock()
                    .is_ok_and(|s| s.entry.as_ref().is_some_and(|(_, expires)| *expires > now))
        });
        if self.map.len() >= PRUNE_AT {
            self.map.retain(|_, slot| in_use(slot));
        }
        self.prune_at = PRUNE_AT.max(2 * self.map.len());
    }
}

impl RobotsCache {
    pub fn new(agent: &str, ttl: Duration, guard: Guard) -> Self {
        RobotsCache {
            agent: agent.to_string(),
            ttl,
            guard,
            slots: Mutex::new(Slots {
                map: HashMap::new(),
                prune_at: PRUNE_AT,
            }),
        }
    }

    /// The rules for `url`'s origin, fetched through `client` when not
    /// cached or expired. A refused address, a failed DNS lookup or a
    /// connection that could not be made to the page's own host is
    /// returned as that error (the page would fail the same way), not
    /// cached as a disallow.
    pub async fn rules(&self, client: &Client, url: &Url) -> Result<Arc<Rules>, FetchError> {
        let origin = url.origin().ascii_serialization();
        let slot = self.slot(&origin);
        let mut slot = slot.lock().await;
        if let Some((rules, expires)) = &slot.entry
            && *expires > Instant::now()
        {
            return Ok(Arc::clone(rules));
        }
        let (rules, ttl) = self.fetch(client, &origin).await?;
        let rules = Arc::new(rules);
        slot.entry = Some((Arc::clone(&rules), Instant::now() + ttl));
        Ok(rules)
    }

    fn slot(&self, origin: &str) -> Arc<tokio::sync::Mutex<Slot>> {
        let mut slots = match self.slots.lock() {
            Ok(guard) => guard,
            Err(poisoned) => poisoned.into_inner(),
        };
        if slots.map.len() >= slots.prune_at {
            slots.prune();
        }
        Arc::clone(slots.map.entry(origin.to_string()).or_default())
    }

    async fn fetch(&self, client: &Client, origin: &str) -> Result<(Rules, Duration), FetchError> {
        let error_ttl = self.ttl.min(ERROR_TTL);
        let Ok(first) = Url::parse(&format!("{origin}/robots.txt")) else {
            return Ok((Rules::AllowAll, self.ttl));
        };
        // Redirects followed here (the client follows none): sites move
        // robots.txt to https or to a www host as often as their pages.
        let mut url = first.clone();
        let mut chain = vec![first];
        let mut response = loop {
            let response = match client.get(url.clone()).send().await {
                Ok(response) => response,
                Err(e) => {
                    // On the first hop the page's own host failed, and the
                    // page would fail the same way: the task fails for
                    // what happened (a refused address, a name that does
                    // not resolve, a connection refused or cut off), not
                    // as a robots.txt refusal. Not cached: a refused
                    // connection costs no wait to find again. A
                    // redirect's target refused by the guard leaves
                    // robots.txt unavailable, as an IP literal refused
                    // below does; one that does not resolve or answer,
                    // unreachable for now, as a first hop that times out.
                    let first_hop = chain.len() == 1;
                    return match classify(&e, url.as_str()) {
                        e @ (FetchError::RefusedAddress { .. }
                        | FetchError::Dns { .. }
                        | FetchError::Connect { .. })
                            if first_hop =>
                        {
                            Err(e)
                        }
                        FetchError::RefusedAddress { .. } => Ok((Rules::AllowAll, self.ttl)),
                        _ => Ok((Rules::DisallowAll("robots.txt unreachable"), error_ttl)),
                    };
                }
            };
            let Some(next) = redirect_target(&response) else {
                break response;
            };
            // RFC 9309 §2.3.1.2: a chain that cannot be followed (too
            // long, a loop, a refused target) leaves robots.txt
            // unavailable, which allows everything, as a 4xx does.
            if redirect::check(&chain, &next, self.guard, MAX_REDIRECTS).is_err() {
                return Ok((Rules::AllowAll, self.ttl));
            }
            chain.push(next.clone());
            url = next;
        };
        let status = response.status();
        if status.as_u16() == 429 || status.is_server_error() {
            return Ok((Rules::DisallowAll("robots.txt answered 429/5xx"), error_ttl));
        }
        if !status.is_success() {
            return Ok((Rules::AllowAll, self.ttl));
        }
        Ok(match read_capped(&mut response, url.as_str()).await {
            Some(body) => (self.parse(&body), self.ttl),
            None => (Rules::DisallowAll("robots.txt unreadable"), error_ttl),
        })
    }

    fn parse(&self, body: &[u8]) -> Rules {
        let robot = Robot::new(&self.agent, body)
            .or_else(|_| Robot::new(&self.agent, &parsable_lines(&self.agent, body)));
        match robot {
            Ok(mut robot) => {
                // Never read, and a robots.txt may list thousands.
                robot.sitemaps = Vec::new();
                Rules::Parsed(Box::new(robot))
            }
            Err(_) => Rules::AllowAll,
        }
    }
}

/// `body` without the lines texting_robots refuses on their own (a rule
/// whose pattern compiles past its regex size limit): one such rule fails
/// the whole file, which would then allow everything, even what its other
/// rules disallow; RFC 9309 has a crawler use the rules it can parse.
/// A line at a time, and only after the whole file failed.
fn parsable_lines(agent: &str, body: &[u8]) -> Vec<u8> {
    let mut kept = Vec::with_capacity(body.len());
    let mut probe = Vec::new();
    for line in body.split(|&b| b == b'\n') {
        probe.clear();
        probe.extend_from_slice(b"User-agent: *\n");
        probe.extend_from_slice(line);
        if Robot::new(agent, &probe).is_ok() {
            kept.extend_from_slice(line);
            kept.push(b'\n');
        }
    }
    kept
}

/// Reads at most [`MAX_ROBOTS_BYTES`] (the rest is ignored, as Google does);
/// `None` when the body cannot be read (more codings stacked than are
/// decoded among the reasons), or is still coded: an unknown coding whose
/// body looks coded (see [`looks_coded`]). An unknown coding on a plain
/// file (`none`, `UTF-8`) is ignored, as a page's is.
async fn read_capped(response: &mut reqwest::Response, url: &str) -> Option<Vec<u8>> {
    let unknown = Coding::applied(response.headers()).is_none();
    let mut decoded = Body::new(response, url).ok()?;
    let mut body = Vec::new();
    while let Some(chunk) = decoded.chunk().await.ok()? {
        let room = MAX_ROBOTS_BYTES - body.len();
        body.extend_from_slice(&chunk[..chunk.len().min(room)]);
        if body.len() >= MAX_ROBOTS_BYTES {
            break;
        }
    }
    if unknown && looks_coded(&body) {
        return None;
    }
    Some(body)
}

/// The robots.txt error for a refused URL.
pub fn refused(url: &Url, refusal: Refusal) -> FetchError {
    FetchError::Robots {
        url: url.to_string(),
        reason: refusal.reason,
        temporary: refusal.temporary,
    }
}

/// The product token of a User-Agent (`linesift/0.1 (+...)` → `linesift`),
/// matched against robots.txt's `User-agent:` lines. A browser-style
/// agent names the crawler after `compatible;` (`Mozilla/5.0 (compatible;
/// FooBot/1.0; +https://...)` → `FooBot`, as Googlebot's does), not in
/// its first token.
pub fn product_token(user_agent: &str) -> &str {
    let named = user_agent
        .split_once("compatible;")
        .map_or(user_agent, |(_, rest)| rest.trim_start());
    named
        .split(|c: char| c == '/' || c == ';' || c == ')' || c.is_whitespace())
        .next()
        .filter(|t| !t.is_empty())
        .unwrap_or(user_agent)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parsed_rules_and_crawl_delay() {
        let cache = RobotsCache::new("linesift", Duration::from_secs(60), Guard::default());
        let rules = cache.parse(b"User-agent: *\nDisallow: /private\nCrawl-delay: 2\n");
        let ok = Url::parse("http://h/public").unwrap();
        let no = Url::parse("http://h/private/x").unwrap();
        assert!(rules.check(&ok).is_ok());
        assert!(rules.check(&no).is_err());
        assert_eq!(rules.crawl_delay(), Some(Duration::from_secs(2)));
    }

    /// The fragment is not part of what is requested, so it cannot hide
    /// the path's end from a `$` rule.
    #[test]
    fn a_fragment_does_not_hide_a_path_from_an_end_anchored_rule() {
        let cache = RobotsCache::new("linesift", Duration::from_secs(60), Guard::default());
        let rules = cache.parse(b"User-agent: *\nDisallow: /*.php$\n");
        for refused in ["http://h/a.php", "http://h/a.php#top"] {
            let url = Url::parse(refused).unwrap();
            assert!(rules.check(&url).is_err(), "{refused}");
        }
        assert!(
            rules
                .check(&Url::parse("http://h/a.html#x").unwrap())
                .is_ok()
        );
    }

    /// A rule too complex for the parser drops that rule, not the file:
    /// the others still hold.
    #[test]
    fn an_unparsable_rule_leaves_the_others_in_force() {
        let cache = RobotsCache::new("linesift", Duration::from_secs(60), Guard::default());
        let mut body = b"User-agent: *\nDisallow: /private\nDisallow: /".to_vec();
        body.extend_from_slice(&b"a*".repeat(20_000));
        body.extend_from_slice(b"$\nCrawl-delay: 3\n");
        assert!(
            Robot::new("linesift", &body).is_err(),
            "the rule no longer fails"
        );
        let rules = cache.parse(&body);
        assert!(
            rules
                .check(&Url::parse("http://h/private/x").unwrap())
                .is_err()
        );
        assert!(rules.check(&Url::parse("http://h/public").unwrap()).is_ok());
        assert_eq!(rules.crawl_delay(), Some(Duration::from_secs(3)));
    }

    /// A long-lived cache keeps a bounded number of origins: the expired
    /// and unused ones go once it is full; fresh rules and origins in use
    /// stay.
    #[test]
    fn the_cache_forgets_expired_origins_once_full() {
        let cache = RobotsCache::new("linesift", Duration::from_secs(60), Guard::default());
        let fresh = cache.slot("http://fresh");
        fresh.try_lock().expect("unlocked").entry = Some((
            Arc::new(Rules::AllowAll),
            Instant::now() + Duration::from_secs(3600),
        ));
        drop(fresh);
        let held = cache.slot("http://held");
        for i in 0..3 * PRUNE_AT {
            // Each origin's fetch failed or expired: nothing kept.
            drop(cache.slot(&format!("http://host-{i}")));
        }
        let slots = cache.slots.lock().expect("lock");
        assert!(slots.map.len() <= PRUNE_AT, "{}", slots.map.len());
        assert!(slots.map.contains_key("http://fresh"));
        assert!(slots.map.contains_key("http://held"));
        drop(held);
    }

    #[test]
    fn product_tokens() {
        assert_eq!(product_token("linesift/0.1 (+https://x)"), "linesift");
        assert_eq!(product_token("MyBot"), "MyBot");
        assert_eq!(
            product_token("Mozilla/5.0 (compatible; FooBot/1.0; +https://foo.example/bot)"),
            "FooBot"
        );
        assert_eq!(product_token("Mozilla/5.0 (compatible; BarBot)"), "BarBot");
    }
}
