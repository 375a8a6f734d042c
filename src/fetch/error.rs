//! Errors of the fetcher, one variant per way a URL can fail, each carrying
//! the URL so that a report can say which page it was. [`FetchError::kind`]
//! gives a stable short name for JSON output and metrics.

use crate::extract::ExtractError;
use std::net::IpAddr;
use std::time::Duration;
use thiserror::Error;
use url::Url;

/// The `url` field of a [`FetchError`] (by reference or by mutable
/// reference, as `$error` is), `None` for [`FetchError::Client`]: one list
/// of the variants for [`FetchError::url`] and the credential scrub.
macro_rules! url_field {
    ($error:expr) => {
        match $error {
            FetchError::InvalidUrl { url, .. }
            | FetchError::Dns { url, .. }
            | FetchError::RefusedAddress { url, .. }
            | FetchError::Connect { url, .. }
            | FetchError::Tls { url, .. }
            | FetchError::Timeout { url, .. }
            | FetchError::Status { url, .. }
            | FetchError::TooLarge { url, .. }
            | FetchError::Robots { url, .. }
            | FetchError::NotHtml { url, .. }
            | FetchError::TooManyRedirects { url, .. }
            | FetchError::RedirectLoop { url }
            | FetchError::Http { url, .. }
            | FetchError::Local { url, .. }
            | FetchError::Extract { url, .. }
            | FetchError::HostBusy { url, .. } => Some(url),
            FetchError::Client(_) => None,
        }
    };
}

#[derive(Debug, Error)]
pub enum FetchError {
    /// The input is not an absolute http(s) URL.
    #[error("invalid URL {url}: {reason}")]
    InvalidUrl { url: String, reason: String },
    /// The host name could not be resolved: `temporary` unless the lookup
    /// said the name does not exist (a resolver that failed for now, a
    /// timeout, an error it does not explain).
    #[error("DNS lookup failed for {host} ({url}): {message}")]
    Dns {
        url: String,
        host: String,
        message: String,
        temporary: bool,
    },
    /// The address is private, loopback, link-local, ... and not allowed.
    #[error("refused to connect to {addr} for {url}: {reason} address")]
    RefusedAddress {
        url: String,
        addr: IpAddr,
        reason: &'static str,
    },
    /// The TCP connection could not be made.
    #[error("cannot connect for {url}: {message}")]
    Connect { url: String, message: String },
    /// The TLS handshake or certificate check failed.
    #[error("TLS error for {url}: {message}")]
    Tls { url: String, message: String },
    /// Connect, read or total timeout.
    #[error("timed out fetching {url}: {message}")]
    Timeout { url: String, message: String },
    /// A status other than 2xx (after redirects).
    #[error("HTTP status {status} from {url}")]
    Status {
        url: String,
        status: u16,
        retry_after: Option<Duration>,
    },
    /// The decoded body is over the limit and the policy is to refuse.
    #[error("body of {url} is larger than the limit of {limit} bytes (max_body)")]
    TooLarge { url: String, limit: u64 },
    /// robots.txt of the host disallows the URL, or could not be fetched
    /// (`temporary`: a 429, a 5xx or an unreachable host, which disallow
    /// everything only until robots.txt is read again).
    #[error("{url} is disallowed by robots.txt ({reason})")]
    Robots {
        url: String,
        reason: &'static str,
        temporary: bool,
    },
    /// The Content-Type is not HTML.
    #[error("{url} is not HTML (Content-Type: {content_type})")]
    NotHtml { url: String, content_type: String },
    /// More redirects than allowed.
    #[error("too many redirects (limit {limit}) fetching {url}")]
    TooManyRedirects { url: String, limit: usize },
    /// A redirect leads back to a URL already visited.
    #[error("redirect loop at {url}")]
    RedirectLoop { url: String },
    /// Any other HTTP-level failure (protocol error, broken body, decoding).
    #[error("HTTP error fetching {url}: {message}")]
    Http { url: String, message: String },
    /// A failure of this process, not of the page: a body's decoder could
    /// not be set up (zstd's context not allocated, memory short). Tried
    /// again, as network trouble is: it may pass.
    #[error("local failure fetching {url}: {message}")]
    Local { url: String, message: String },
    /// The page arrived but the core refused it.
    #[error("extraction failed for {url}: {source}")]
    Extract {
        url: String,
        #[source]
        source: ExtractError,
    },
    /// The host's next request slot is further out than the caller would
    /// wait (`Fetcher::fetch_within`): nothing was sent.
    #[error("{host} is busy: its next request slot is {wait:.1?} away ({url})")]
    HostBusy {
        url: String,
        host: String,
        wait: Duration,
    },
    /// The HTTP client could not be built (bad User-Agent, TLS setup).
    #[error("cannot build the HTTP client: {0}")]
    Client(String),
}

impl FetchError {
    /// A stable short name of the variant, for JSON output and metrics.
    pub fn kind(&self) -> &'static str {
        match self {
            FetchError::InvalidUrl { .. } => "invalid_url",
            FetchError::Dns { .. } => "dns",
            FetchError::RefusedAddress { .. } => "refused_address",
            FetchError::Connect { .. } => "connect",
            FetchError::Tls { .. } => "tls",
            FetchError::Timeout { .. } => "timeout",
            FetchError::Status { .. } => "http_status",
            FetchError::TooLarge { .. } => "too_large",
            FetchError::Robots { .. } => "robots",
            FetchError::NotHtml { .. } => "not_html",
            FetchError::TooManyRedirects { .. } => "too_many_redirects",
            FetchError::RedirectLoop { .. } => "redirect_loop",
            FetchError::Http { .. } => "http",
            FetchError::Local { .. } => "local",
            FetchError::Extract { .. } => "extract",
            FetchError::HostBusy { .. } => "host_busy",
            FetchError::Client(_) => "client",
        }
    }

    /// The URL the error is about, when there is one.
    pub fn url(&self) -> Option<&str> {
        url_field!(self).map(String::as_str)
    }

    /// The error without the URL it is about, for a report that names
    /// that URL already (`URL: HTTP status 404`); the message otherwise
    /// says what its `Display` says.
    pub fn reason(&self) -> String {
        match self {
            FetchError::InvalidUrl { reason, .. } => format!("invalid URL: {reason}"),
            FetchError::Dns { host, message, .. } => {
                format!("DNS lookup failed for {host}: {message}")
            }
            FetchError::RefusedAddress { addr, reason, .. } => {
                format!("refused to connect to {addr}: {reason} address")
            }
            FetchError::Connect { message, .. } => format!("cannot connect: {message}"),
            FetchError::Tls { message, .. } => format!("TLS error: {message}"),
            FetchError::Timeout { message, .. } => format!("timed out: {message}"),
            FetchError::Status { status, .. } => format!("HTTP status {status}"),
            FetchError::TooLarge { limit, .. } => {
                format!("body is larger than the limit of {limit} bytes (max_body)")
            }
            FetchError::Robots { reason, .. } => format!("disallowed by robots.txt ({reason})"),
            FetchError::NotHtml { content_type, .. } => {
                format!("not HTML (Content-Type: {content_type})")
            }
            FetchError::TooManyRedirects { limit, .. } => {
                format!("too many redirects (limit {limit})")
            }
            FetchError::RedirectLoop { .. } => "redirect loop".to_string(),
            FetchError::Http { message, .. } => format!("HTTP error: {message}"),
            FetchError::Local { message, .. } => format!("local failure: {message}"),
            FetchError::Extract { source, .. } => format!("extraction failed: {source}"),
            FetchError::HostBusy { host, wait, .. } => {
                format!("{host} is busy: its next request slot is {wait:.1?} away")
            }
            FetchError::Client(_) => self.to_string(),
        }
    }

    /// The error with the credentials (`user:password@`) taken out of the
    /// URL it carries, which goes to logs, dead-letter reasons and
    /// `Failure` events: whatever URL that is (the task's, as given or as
    /// parsed, or a redirect's target with credentials of its own), it goes
    /// through [`without_credentials`]. reqwest leaves them out of the URLs
    /// in its errors and messages. The request still sends them.
    pub fn without_credentials(mut self) -> Self {
        if let Some(url) = url_field!(&mut self) {
            *url = without_credentials(url);
        }
        self
    }

    /// Whether trying again later may succeed: network trouble (a DNS
    /// lookup that failed for now among it), a local failure, timeouts,
    /// 429 and the 5xx statuses of overloaded or restarting servers, and a
    /// robots.txt that could not be read for such a reason.
    pub fn is_transient(&self) -> bool {
        match self {
            FetchError::Connect { .. } | FetchError::Timeout { .. } => true,
            FetchError::Local { .. } => true,
            FetchError::Dns { temporary, .. } => *temporary,
            FetchError::HostBusy { .. } => true,
            FetchError::Robots { temporary, .. } => *temporary,
            FetchError::Status { status, .. } => matches!(status, 429 | 502 | 503 | 504),
            _ => false,
        }
    }
}

/// `url` with its userinfo (`user:password@`, `user@`) taken out, for
/// what goes to logs and error messages. A URL that parses has its
/// username and password taken out by the parser, which serializes it:
/// the userinfo is not looked for in the text, where it may be spelled
/// otherwise than the parser has it (the parser percent-encodes an `@`, a
/// space or a non-ASCII letter, and drops tabs and newlines). Then, and
/// for one that does not parse (an invalid task URL, kept as given in its
/// error), the userinfo is cut out as written too (see
/// `without_written_userinfo`): a password holding a `/` may make the
/// parser read its user as the host and what follows as a port and a path
/// (`http://admin:1234/s@h/`). That may cut a bit of an ordinary URL with
/// a port and an `@` after it, harmless in a log line; fields that name
/// the page take [`page_without_credentials`]. A URL without credentials
/// comes back as it was.
pub fn without_credentials(url: &str) -> String {
    match Url::parse(url) {
        // No authority (`mailto:`, `data:`): no userinfo either.
        Ok(parsed) if !parsed.has_authority() => url.to_string(),
        // A password holding an `@` and then a `/` (`u:p@a/ss@host`) is
        // read as userinfo `u:p`, host `a` and a path: what follows the
        // first `@` may be the rest of the password. With credentials
        // given, whatever comes before the last `@` goes.
        Ok(parsed) if !parsed.username().is_empty() || parsed.password().is_some() => {
            cut_to_last_at(&without_parsed_userinfo(parsed, url))
        }
        Ok(parsed) => without_written_userinfo(&without_parsed_userinfo(parsed, url)),
        Err(_) => without_written_userinfo(url),
    }
}

/// `url` without its userinfo, for the fields that name a page (a
/// `Failure` event's `url`, the JSONL `path` of `linesift extract`),
/// which programs read: a URL that parses as the parser reads it, the
/// page that was or would be fetched (`https://example.com:8443/@alice`
/// stays whole, where [`without_credentials`] cuts it for a log); one
/// that does not parse, as [`without_credentials`] cuts it.
pub fn page_without_credentials(url: &str) -> String {
    match Url::parse(url) {
        Ok(parsed) => without_parsed_userinfo(parsed, url),
        Err(_) => without_written_userinfo(url),
    }
}

/// A parsed URL without username and password, as the parser serializes
/// it; `url` as it was when it has none.
fn without_parsed_userinfo(mut parsed: Url, url: &str) -> String {
    if parsed.username().is_empty() && parsed.password().is_none() {
        return url.to_string();
    }
    if parsed.set_password(None).is_ok() && parsed.set_username("").is_ok() {
        parsed.into()
    } else {
        without_written_userinfo(url)
    }
}

/// What stands where userinfo was cut out of a URL's text, so that a
/// reader sees something was taken out (the rest may look like another
/// URL: `http://host:80/?mail=a@b.com` becomes `http://***@b.com`).
const CUT_USERINFO: &str = "***@";

/// `url` without the `user:password@` of its text as written: whatever
/// comes before the last `@` of the authority, as the parser reads it:
/// the text after `scheme:` and any run of `/` or `\` (`http:user@h`,
/// `http:/user@h` and `http:\\user@h` are all read so), up to the first
/// `/`, `?`, `#` or `\` (the parser ends an http(s) URL's authority at
/// `\` too). When what would be the host (the authority after that `@`,
/// or all of it) holds a `:` outside an IPv6 literal's brackets (a port,
/// perhaps empty), it may be a `user:password`, or a password after a
/// username with an `@` of its own (an e-mail address), cut where the
/// password holds a `/`, `?` or `#` (which end the authority for the
/// parser, the password's tail read as a port and a path): then whatever
/// comes before the last `@` of the whole text goes. That may take a bit
/// of a URL's path or query with it (`host:port/a@b`), which is harmless
/// in a log; a password left in it is not. [`CUT_USERINFO`] marks the cut.
fn without_written_userinfo(url: &str) -> String {
    let Some(start) = authority_start(url) else {
        return url.to_string();
    };
    let rest = &url[start..];
    let authority = &rest[..rest.find(['/', '?', '#', '\\']).unwrap_or(rest.len())];
    let host_from = authority.rfind('@').map_or(0, |at| at + 1);
    let at = if has_port_colon(&authority[host_from..]) {
        rest.rfind('@')
    } else {
        authority.rfind('@')
    };
    cut_at(url, start, at)
}

/// `url` with whatever comes before the last `@` of its text after
/// `scheme:` and its slashes cut out (see [`without_written_userinfo`]).
fn cut_to_last_at(url: &str) -> String {
    let Some(start) = authority_start(url) else {
        return url.to_string();
    };
    cut_at(url, start, url[start..].rfind('@'))
}

/// `url` with `url[start..start + at]` and the `@` after it replaced by
/// [`CUT_USERINFO`]; as it was when `at` is `None`.
fn cut_at(url: &str, start: usize, at: Option<usize>) -> String {
    match at {
        Some(at) => format!("{}{CUT_USERINFO}{}", &url[..start], &url[start + at + 1..]),
        None => url.to_string(),
    }
}

/// Where a URL's authority starts in its text: after `scheme:` (a letter,
/// then letters, digits, `+`, `-` or `.`) and any run of `/` or `\`;
/// `None` without a scheme.
fn authority_start(url: &str) -> Option<usize> {
    let colon = url.find(':')?;
    let scheme = &url[..colon];
    let is_scheme = scheme.starts_with(|c: char| c.is_ascii_alphabetic())
        && scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
    if !is_scheme {
        return None;
    }
    let after = &url[colon + 1..];
    let slashes = after.len() - after.trim_start_matches(['/', '\\']).len();
    Some(colon + 1 + slashes)
}

/// Whether a would-be host holds a `:` outside a leading IPv6 literal's
/// brackets: a port, or what the parser would take for one.
fn has_port_colon(host: &str) -> bool {
    match host.strip_prefix('[') {
        Some(literal) => literal
            .find(']')
            .is_some_and(|end| literal[end..].contains(':')),
        None => host.contains(':'),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every error about a URL, for the tests of what names it.
    fn every_error(url: &str) -> Vec<FetchError> {
        let (url, message) = (url.to_string(), "went wrong".to_string());
        vec![
            FetchError::InvalidUrl {
                url: url.clone(),
                reason: message.clone(),
            },
            FetchError::Dns {
                url: url.clone(),
                host: "h.example".into(),
                message: message.clone(),
                temporary: false,
            },
            FetchError::RefusedAddress {
                url: url.clone(),
                addr: IpAddr::from([10, 0, 0, 1]),
                reason: "private",
            },
            FetchError::Connect {
                url: url.clone(),
                message: message.clone(),
            },
            FetchError::Tls {
                url: url.clone(),
                message: message.clone(),
            },
            FetchError::Timeout {
                url: url.clone(),
                message: message.clone(),
            },
            FetchError::Status {
                url: url.clone(),
                status: 404,
                retry_after: None,
            },
            FetchError::TooLarge {
                url: url.clone(),
                limit: 10,
            },
            FetchError::Robots {
                url: url.clone(),
                reason: "disallowed",
                temporary: false,
            },
            FetchError::NotHtml {
                url: url.clone(),
                content_type: "image/png".into(),
            },
            FetchError::TooManyRedirects {
                url: url.clone(),
                limit: 5,
            },
            FetchError::RedirectLoop { url: url.clone() },
            FetchError::Http {
                url: url.clone(),
                message: message.clone(),
            },
            FetchError::Local {
                url: url.clone(),
                message: message.clone(),
            },
            FetchError::Extract {
                url: url.clone(),
                source: ExtractError::TooLarge { limit: 10 },
            },
            FetchError::HostBusy {
                url,
                host: "h.example".into(),
                wait: Duration::from_secs(3),
            },
        ]
    }

    #[test]
    fn a_reason_says_what_the_message_says_without_the_url() {
        let url = "http://h.example/page-name";
        for error in every_error(url) {
            let reason = error.reason();
            assert!(error.to_string().contains(url), "{error}");
            assert!(!reason.contains("page-name"), "{reason}");
            assert!(reason.len() > 8, "{error}: {reason}");
        }
    }

    #[test]
    fn a_page_s_url_keeps_what_the_parser_reads() {
        let cases = [
            // An ordinary URL with a port and an `@` after it: whole.
            (
                "https://example.com:8443/users/@alice",
                "https://example.com:8443/users/@alice",
            ),
            (
                "http://shop.example:8080/?mail=a@b.com",
                "http://shop.example:8080/?mail=a@b.com",
            ),
            (
                "https://u:p@example.com:8443/@alice",
                "https://example.com:8443/@alice",
            ),
            (
                "https://user:secret@example.com/a?b#c",
                "https://example.com/a?b#c",
            ),
            // A password the parser misreads as a port and a path: the
            // page as it is fetched (host `admin`), the password in it.
            (
                "http://admin:1234/secret@host/",
                "http://admin:1234/secret@host/",
            ),
            // Not a URL the parser takes: cut as for a log.
            ("http://u:pa/ss@exa mple.com/x", "http://***@exa mple.com/x"),
        ];
        for (url, page) in cases {
            assert_eq!(page_without_credentials(url), page, "{url}");
        }
        // The same ordinary URL in a log line is cut (it might hide a
        // password the parser misread).
        assert_eq!(
            without_credentials("https://example.com:8443/users/@alice"),
            "https://***@alice"
        );
    }

    #[test]
    fn credentials_are_taken_out_of_urls_parsed_or_not() {
        let cases = [
            (
                "https://user:secret@example.com/a?b#c",
                "https://example.com/a?b#c",
            ),
            ("https://user@example.com/", "https://example.com/"),
            ("https://example.com/a@b", "https://example.com/a@b"),
            ("http://[::1]/a@b", "http://[::1]/a@b"),
            ("mailto:bob@example.com", "mailto:bob@example.com"),
            // Not a URL the parser takes: the userinfo as written goes.
            ("http://u:secret@[bad/x", "http://***@[bad/x"),
            (
                "http://u:p@ss:secret@exa mple.com/x@y",
                "http://***@exa mple.com/x@y",
            ),
            ("not a url at all", "not a url at all"),
            ("http://exa mple.com/a@b", "http://exa mple.com/a@b"),
            // However many slashes, of either kind, follow the scheme.
            ("http:user:pa/ss@exa mple.com/", "http:***@exa mple.com/"),
            ("http:/user:secret@[bad/", "http:/***@[bad/"),
            ("http:\\\\user:secret@[bad/", "http:\\\\***@[bad/"),
            // A password holding a `/`, `?` or `#`, which ends the
            // authority for the parser (the URL fails on a bad port).
            (
                "http://user:pa/ss@exa mple.com/x",
                "http://***@exa mple.com/x",
            ),
            (
                "http://user:pa/ss@example.com/x",
                "http://***@example.com/x",
            ),
            (
                "http://user:pa?ss@example.com/x",
                "http://***@example.com/x",
            ),
            (
                "http://user:p#a/s?s@exa mple.com/x",
                "http://***@exa mple.com/x",
            ),
            (
                "http://u:a/b@c/d@exa mple.com/x",
                "http://***@exa mple.com/x",
            ),
            // ... or one the parser takes for a port and a path (an empty
            // port too), or a fragment.
            (
                "http://admin:1234/secret@example.com/",
                "http://***@example.com/",
            ),
            (
                "http://bob:2024#Winter@example.com/",
                "http://***@example.com/",
            ),
            (
                "http://user:/p4ss@example.com/x",
                "http://***@example.com/x",
            ),
            // After a username with an `@` of its own.
            (
                "http://me@mail.org:pa/ss@exa mple.com/x",
                "http://***@exa mple.com/x",
            ),
            (
                "http://me@mail.org:pa#ss@example.com/",
                "http://***@example.com/",
            ),
            (
                "http://me@mail.org:12/ss@example.com/",
                "http://***@example.com/",
            ),
            // Scrubbed as conservatively when an `@` follows in the path
            // or query, or when the `:` is a port's: a bit of the URL's
            // path goes, not the password, and the mark shows it.
            ("http://user:pa/ss@example.com/x?to=a@b", "http://***@b"),
            ("http://exa mple.com:80/a@b", "http://***@b"),
            ("http://exa mple.com:80/?mail=a@b.com", "http://***@b.com"),
        ];
        for (url, clean) in cases {
            assert_eq!(without_credentials(url), clean, "{url}");
        }
        let invalid = FetchError::InvalidUrl {
            url: "http://u:secret@[bad/".into(),
            reason: "invalid IPv6 address".into(),
        };
        let scrubbed = invalid.without_credentials();
        assert!(!scrubbed.to_string().contains("secret"), "{scrubbed}");
        let invalid = FetchError::InvalidUrl {
            url: "http://crawler:se/cret@exa mple.com/".into(),
            reason: "invalid port number".into(),
        };
        let shown = format!("{0} {0:?}", invalid.without_credentials());
        for secret in ["crawler", "se/", "cret"] {
            assert!(!shown.contains(secret), "{shown}");
        }
    }

    /// How an error carrying `url`, as given and as the parser writes it
    /// (when it parses), shows once its credentials are taken out: its
    /// message and its debug form.
    fn shown_in_errors(url: &str) -> Vec<String> {
        let parsed = Url::parse(url).map(String::from);
        [Ok(url.to_string()), parsed]
            .into_iter()
            .map(|carried| {
                let error = FetchError::Status {
                    url: carried.unwrap_or_default(),
                    status: 404,
                    retry_after: None,
                };
                format!("{0} {0:?}", error.without_credentials())
            })
            .collect()
    }

    /// A password holding an `@` and then a `/` is read by the parser as
    /// a short password, a host and a path: in a log, all before the last
    /// `@` goes, from the URL and from an error carrying it as given or as
    /// parsed. (The request goes to host `a`; the page fields keep what
    /// the parser reads.)
    #[test]
    fn a_password_the_parser_splits_at_a_slash_is_cut_whole() {
        let cases = [
            ("http://u:p@a/ss@host/x", "http://***@host/x"),
            ("http://u@a/ss@host/x", "http://***@host/x"),
            ("http://u:p@a:1/ss@host/x?q", "http://***@host/x?q"),
            ("https://u:p@example.com:8443/@alice", "https://***@alice"),
        ];
        for (url, clean) in cases {
            assert_eq!(without_credentials(url), clean, "{url:?}");
            for shown in shown_in_errors(url) {
                for secret in ["a/ss", "u:", "p@"] {
                    assert!(!shown.contains(secret), "{url:?}: {shown}");
                }
            }
        }
        assert_eq!(
            page_without_credentials("http://u:p@a/ss@host/x"),
            "http://a/ss@host/x"
        );
    }

    /// Userinfo the parser writes otherwise than the input does (an `@`,
    /// a space, a tab, a non-ASCII letter in the password) is taken out
    /// all the same, from the URL and from an error carrying either
    /// spelling of it.
    #[test]
    fn credentials_spelled_otherwise_by_the_parser_are_taken_out() {
        let cases = [
            ("http://u:p@ss@host/x", "http://host/x"),
            ("http://u:p ss@host/x", "http://host/x"),
            ("http://u:p\tss@host/x", "http://host/x"),
            ("http://u:p\u{e4}ssword@host/x", "http://host/x"),
            ("http://\u{fc}ser:pw@host/x?q#f", "http://host/x?q#f"),
        ];
        for (url, clean) in cases {
            assert_eq!(without_credentials(url), clean, "{url:?}");
            for shown in shown_in_errors(url) {
                assert!(shown.contains("http://host/x"), "{url:?}: {shown}");
                for secret in ["ss", "pw", "%", "\u{e4}", "\t", "u:", "ser"] {
                    assert!(!shown.contains(secret), "{url:?}: {shown}");
                }
            }
        }
    }
}
