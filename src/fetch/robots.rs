//! robots.txt per origin (scheme, host, port), parsed with
//! `texting_robots` and cached with a TTL. As crawlers customarily do: a
//! 2xx is parsed (unparsable means allow all), a 4xx allows everything, a
//! 429, a 5xx or an unreachable host disallows everything for a shorter
//! while. Crawl-delay is read for the rate limiter. One fetch per origin
//! at a time: concurrent tasks for the same origin wait for the first.

use super::client::classify;
use super::error::FetchError;
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

/// The rules in force for one origin.
#[derive(Debug)]
pub enum Rules {
    AllowAll,
    /// Disallow everything, with the reason (`robots.txt 503`, ...).
    DisallowAll(&'static str),
    Parsed(Box<Robot>),
}

impl Rules {
    /// `Err(reason)` when `url` may not be fetched.
    pub fn check(&self, url: &Url) -> Result<(), &'static str> {
        match self {
            Rules::AllowAll => Ok(()),
            Rules::DisallowAll(reason) => Err(reason),
            Rules::Parsed(robot) if robot.allowed(url.as_str()) => Ok(()),
            Rules::Parsed(_) => Err("disallowed for our user agent"),
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

#[derive(Debug, Default)]
struct Slot {
    entry: Option<(Arc<Rules>, Instant)>,
}

/// The cache. `agent` is the product token matched against `User-agent:`.
#[derive(Debug)]
pub struct RobotsCache {
    agent: String,
    ttl: Duration,
    slots: Mutex<HashMap<String, Arc<tokio::sync::Mutex<Slot>>>>,
}

impl RobotsCache {
    pub fn new(agent: &str, ttl: Duration) -> Self {
        RobotsCache {
            agent: agent.to_string(),
            ttl,
            slots: Mutex::new(HashMap::new()),
        }
    }

    /// The rules for `url`'s origin, fetched through `client` when not
    /// cached or expired. A refused address or a failed DNS lookup is
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
        Arc::clone(slots.entry(origin.to_string()).or_default())
    }

    async fn fetch(&self, client: &Client, origin: &str) -> Result<(Rules, Duration), FetchError> {
        let error_ttl = self.ttl.min(ERROR_TTL);
        let robots_url = format!("{origin}/robots.txt");
        let mut response = match client.get(&robots_url).send().await {
            Ok(response) => response,
            Err(e) => {
                return match classify(&e, &robots_url) {
                    e @ (FetchError::RefusedAddress { .. } | FetchError::Dns { .. }) => Err(e),
                    _ => Ok((Rules::DisallowAll("robots.txt unreachable"), error_ttl)),
                };
            }
        };
        let status = response.status();
        if status.as_u16() == 429 || status.is_server_error() {
            return Ok((Rules::DisallowAll("robots.txt answered 429/5xx"), error_ttl));
        }
        if !status.is_success() {
            return Ok((Rules::AllowAll, self.ttl));
        }
        Ok(match read_capped(&mut response).await {
            Some(body) => (self.parse(&body), self.ttl),
            None => (Rules::DisallowAll("robots.txt unreadable"), error_ttl),
        })
    }

    fn parse(&self, body: &[u8]) -> Rules {
        match Robot::new(&self.agent, body) {
            Ok(robot) => Rules::Parsed(Box::new(robot)),
            Err(_) => Rules::AllowAll,
        }
    }
}

/// Reads at most [`MAX_ROBOTS_BYTES`] (the rest is ignored, as Google does).
async fn read_capped(response: &mut reqwest::Response) -> Option<Vec<u8>> {
    let mut body = Vec::new();
    while let Some(chunk) = response.chunk().await.ok()? {
        let room = MAX_ROBOTS_BYTES - body.len();
        body.extend_from_slice(&chunk[..chunk.len().min(room)]);
        if body.len() >= MAX_ROBOTS_BYTES {
            break;
        }
    }
    Some(body)
}

/// The robots.txt error for a refused URL.
pub fn refused(url: &Url, reason: &'static str) -> FetchError {
    FetchError::Robots {
        url: url.to_string(),
        reason,
    }
}

/// The product token of a User-Agent (`linesift/0.1 (+...)` → `linesift`).
pub fn product_token(user_agent: &str) -> &str {
    user_agent
        .split(|c: char| c == '/' || c.is_whitespace())
        .next()
        .filter(|t| !t.is_empty())
        .unwrap_or(user_agent)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parsed_rules_and_crawl_delay() {
        let cache = RobotsCache::new("linesift", Duration::from_secs(60));
        let rules = cache.parse(b"User-agent: *\nDisallow: /private\nCrawl-delay: 2\n");
        let ok = Url::parse("http://h/public").unwrap();
        let no = Url::parse("http://h/private/x").unwrap();
        assert!(rules.check(&ok).is_ok());
        assert!(rules.check(&no).is_err());
        assert_eq!(rules.crawl_delay(), Some(Duration::from_secs(2)));
    }

    #[test]
    fn product_tokens() {
        assert_eq!(product_token("linesift/0.1 (+https://x)"), "linesift");
        assert_eq!(product_token("MyBot"), "MyBot");
    }
}
