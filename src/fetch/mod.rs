//! The fetcher: pages from http(s) URLs streamed straight into the
//! extraction core, politely and safely.
//!
//! One module per concern:
//! `client` (reqwest with rustls, HTTP/2, Accept-Encoding, timeouts, error
//! mapping) · `body` (decoded body chunks: every content coding, named in
//! any case, decoded by `codec::coding` as the body streams in) ·
//! `guard` (SSRF: refused address classes, the filtering DNS
//! resolver) · `redirect` (limit, loops, guard on every hop) · `robots`
//! (robots.txt cache) · `ratelimit` (per-host intervals, Crawl-delay,
//! Retry-After) · `retry` (transient errors, backoff) · `content`
//! (Content-Type: HTML or not, charset) · `page` (one attempt, body
//! streamed chunk by chunk into [`PageStream::feed`](crate::extract::PageStream::feed)).
//!
//! ```no_run
//! # async fn demo() -> Result<(), linesift::fetch::FetchError> {
//! use linesift::fetch::{FetchOptions, Fetcher};
//! use linesift::{Extractor, Options};
//! let fetcher = Fetcher::new(Extractor::new(Options::default()), FetchOptions::default())?;
//! let page = fetcher.fetch("https://example.com/").await?;
//! println!("{} {}", page.url, page.document.text);
//! # Ok(()) }
//! ```

pub mod body;
pub mod client;
pub mod content;
pub mod error;
pub mod guard;
pub mod page;
pub mod ratelimit;
pub mod redirect;
pub mod retry;
pub mod robots;

pub use error::FetchError;
pub use guard::{Guard, Lookup, SystemLookup};
pub use page::{BodyLimit, Fetched, Outcome, Oversize};
pub use retry::RetryPolicy;

use crate::extract::Extractor;
use client::ClientConfig;
use ratelimit::HostLimiter;
use robots::RobotsCache;
use std::sync::Arc;
use std::time::{Duration, Instant};
use url::Url;

/// Everything the fetcher can be told.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FetchOptions {
    pub user_agent: String,
    pub connect_timeout: Duration,
    pub read_timeout: Duration,
    pub total_timeout: Duration,
    /// Limit on the decoded body, and what happens above it.
    pub body: BodyLimit,
    pub max_redirects: usize,
    pub guard: Guard,
    /// Obey robots.txt.
    pub robots: bool,
    pub robots_ttl: Duration,
    /// Minimum interval between requests to one host.
    pub host_interval: Duration,
    /// Crawl-delays above this are capped to it.
    pub max_crawl_delay: Duration,
    pub retry: RetryPolicy,
    /// Charset to assume when the page declares none (neither its
    /// Content-Type nor a `<meta>`), instead of detecting one.
    pub default_charset: Option<String>,
}

impl Default for FetchOptions {
    fn default() -> Self {
        FetchOptions {
            user_agent: concat!("linesift/", env!("CARGO_PKG_VERSION")).to_string(),
            connect_timeout: Duration::from_secs(10),
            read_timeout: Duration::from_secs(20),
            total_timeout: Duration::from_secs(60),
            body: BodyLimit {
                max_body: 16 * 1024 * 1024,
                oversize: Oversize::Truncate,
            },
            max_redirects: 10,
            guard: Guard::default(),
            robots: true,
            robots_ttl: Duration::from_secs(3600),
            host_interval: Duration::from_secs(1),
            max_crawl_delay: Duration::from_secs(30),
            retry: RetryPolicy::default(),
            default_charset: None,
        }
    }
}

/// Fetches and extracts pages. Share one per process (`&Fetcher` or an
/// `Arc`): it holds the connection pool, the robots.txt cache and the
/// per-host limiter.
#[derive(Debug)]
pub struct Fetcher {
    client: reqwest::Client,
    extractor: Extractor,
    robots: RobotsCache,
    limiter: HostLimiter,
    options: FetchOptions,
}

impl Fetcher {
    pub fn new(extractor: Extractor, options: FetchOptions) -> Result<Self, FetchError> {
        Self::with_lookup(extractor, options, Arc::new(SystemLookup))
    }

    /// A fetcher that looks names up with `lookup` instead of the system
    /// resolver (the guard still filters every answer).
    pub fn with_lookup(
        extractor: Extractor,
        options: FetchOptions,
        lookup: Arc<dyn Lookup>,
    ) -> Result<Self, FetchError> {
        let client = client::build(
            &ClientConfig {
                user_agent: options.user_agent.clone(),
                connect_timeout: options.connect_timeout,
                read_timeout: options.read_timeout,
                total_timeout: options.total_timeout,
                guard: options.guard,
            },
            lookup,
        )?;
        Ok(Fetcher {
            client,
            extractor,
            robots: RobotsCache::new(
                robots::product_token(&options.user_agent),
                options.robots_ttl,
                options.guard,
            ),
            limiter: HostLimiter::new(options.host_interval),
            options,
        })
    }

    pub fn options(&self) -> &FetchOptions {
        &self.options
    }

    /// The request interval in force for a host (`host:port`), after
    /// Crawl-delay.
    pub fn host_interval(&self, host: &str) -> Duration {
        self.limiter.interval(host)
    }

    /// Fetches one page and extracts it: URL and guard checks, robots.txt,
    /// the host's rate limit, then attempts with retries for transient
    /// failures. Redirects are followed here, hop by hop, and each hop's
    /// target is checked as the URL asked for is: the guard, its own
    /// robots.txt and its own host's interval (a redirect from a short-link
    /// host must not reach a page the target's robots.txt disallows, nor
    /// let many short links hit one host at full speed).
    pub async fn fetch(&self, url: &str) -> Result<Fetched, FetchError> {
        self.fetch_within(url, None).await
    }

    /// [`fetch`](Self::fetch), but if the URL's host's turn (its interval,
    /// Crawl-delay or Retry-After) is further than `max_host_wait` away,
    /// fails at once with [`FetchError::HostBusy`] before requesting the
    /// page (its robots.txt may have been read). A worker defers such a
    /// task rather than hold a slot for it. A redirect's target and the
    /// retries of a failed attempt are waited for regardless: the request
    /// already made would otherwise be made again, and a retry's back-off
    /// is the task's own pause, bounded by the retry policy.
    pub async fn fetch_within(
        &self,
        url: &str,
        max_host_wait: Option<Duration>,
    ) -> Result<Fetched, FetchError> {
        self.fetch_bounded(url, max_host_wait)
            .await
            .map_err(FetchError::without_credentials)
    }

    async fn fetch_bounded(
        &self,
        url: &str,
        max_host_wait: Option<Duration>,
    ) -> Result<Fetched, FetchError> {
        let mut url = parse_url(url)?;
        self.options
            .guard
            .check_url(&url)
            .map_err(|e| client::from_guard(&e, url.to_string()))?;
        let mut chain = vec![url.clone()];
        let mut retries = 0;
        loop {
            let host = host_key(&url);
            if self.options.robots {
                self.check_robots(&url, &host).await?;
            }
            // Only the first hop may be refused: once a request has been
            // made, deferring would make it again; a redirect's target is
            // waited for.
            let bound = if chain.len() == 1 {
                max_host_wait
            } else {
                None
            };
            match self.attempts(&url, &host, &mut retries, bound).await? {
                Outcome::Page(mut fetched) => {
                    fetched.attempts = retries + 1;
                    return Ok(*fetched);
                }
                Outcome::Redirect(next) => {
                    redirect::check(
                        &chain,
                        &next,
                        self.options.guard,
                        self.options.max_redirects,
                    )
                    .map_err(|e| client::from_redirect(&e, next.to_string()))?;
                    chain.push(next.clone());
                    url = next;
                }
            }
        }
    }

    /// One URL, with retries for transient failures (counted in
    /// `retries`), each attempt in the host's next slot; the first one
    /// only if that slot is within `max_host_wait`.
    async fn attempts(
        &self,
        url: &Url,
        host: &str,
        retries: &mut u32,
        max_host_wait: Option<Duration>,
    ) -> Result<Outcome, FetchError> {
        let mut attempt = 1;
        loop {
            let bound = if attempt == 1 { max_host_wait } else { None };
            if let Err(ratelimit::Busy { wait }) = self.limiter.wait_within(host, bound).await {
                return Err(FetchError::HostBusy {
                    url: url.to_string(),
                    host: host.to_string(),
                    wait,
                });
            }
            let error = match self.fetch_once(url).await {
                Ok(outcome) => return Ok(outcome),
                Err(e) => e,
            };
            // A 429 or 503 asks the client to hold off the host: its next
            // request waits, though at most as long as a retry would (the
            // value is the server's: a huge one must neither overflow the
            // clock nor stall every later task for the host).
            if let FetchError::Status {
                status: 429 | 503,
                retry_after: Some(after),
                ..
            } = &error
            {
                self.limiter
                    .defer(host, from_now((*after).min(self.options.retry.max_wait)));
            }
            let Some(wait) = self.options.retry.wait(&error, attempt) else {
                return Err(error);
            };
            self.limiter.defer(host, from_now(wait));
            attempt += 1;
            *retries += 1;
        }
    }

    async fn fetch_once(&self, url: &Url) -> Result<Outcome, FetchError> {
        page::fetch_once(
            &self.client,
            &self.extractor,
            url,
            self.options.body,
            self.options.default_charset.as_deref(),
        )
        .await
    }

    async fn check_robots(&self, url: &Url, host: &str) -> Result<(), FetchError> {
        let rules = self.robots.rules(&self.client, url).await?;
        if let Some(delay) = rules.crawl_delay() {
            self.limiter
                .set_interval(host, delay.min(self.options.max_crawl_delay));
        }
        rules
            .check(url)
            .map_err(|refusal| robots::refused(url, refusal))
    }
}

/// `wait` from now; far enough out for any wait that overflows the clock.
fn from_now(wait: Duration) -> Instant {
    let now = Instant::now();
    now.checked_add(wait)
        .or_else(|| now.checked_add(Duration::from_secs(86_400 * 365)))
        .unwrap_or(now)
}

/// Parses an absolute http(s) URL.
fn parse_url(input: &str) -> Result<Url, FetchError> {
    let invalid = |reason: String| FetchError::InvalidUrl {
        url: input.to_string(),
        reason,
    };
    let url = Url::parse(input).map_err(|e| invalid(e.to_string()))?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(invalid(format!("unsupported scheme {}", url.scheme())));
    }
    if url.host().is_none() {
        return Err(invalid("no host".into()));
    }
    Ok(url)
}

/// The rate-limit key: host and port.
fn host_key(url: &Url) -> String {
    match (url.host_str(), url.port_or_known_default()) {
        (Some(host), Some(port)) => format!("{host}:{port}"),
        (Some(host), None) => host.to_string(),
        _ => String::new(),
    }
}
