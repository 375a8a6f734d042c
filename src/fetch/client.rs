//! The HTTP client: reqwest on tokio with rustls (ring), HTTP/2, the
//! content codings asked for (zstd, gzip, deflate, br; decoded by `body`,
//! not by reqwest), the guarded resolver, the redirect policy, timeouts
//! and no proxies (a proxy would resolve names itself and bypass the
//! guard). Also maps reqwest's errors to [`FetchError`].

use super::error::FetchError;
use super::guard::{Guard, GuardError, GuardedResolver, Lookup, NO_ADDRESSES};
use super::redirect::RedirectError;
use reqwest::Client;
use reqwest::header::{ACCEPT_ENCODING, HeaderMap, HeaderValue};
use std::error::Error as StdError;
use std::sync::Arc;
use std::time::Duration;

/// The codings asked for, all decoded by `body` (see `codec::coding`). Set here
/// because reqwest asks only for the codings it decodes itself, and here
/// it decodes none.
const ACCEPT_CODINGS: &str = "zstd,gzip,deflate,br";

/// What the client is built from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClientConfig {
    pub user_agent: String,
    pub connect_timeout: Duration,
    /// Longest wait for any read (headers or the next body chunk).
    pub read_timeout: Duration,
    /// Longest time for a whole request, body included.
    pub total_timeout: Duration,
    pub guard: Guard,
}

/// Builds the client. Installs ring as rustls's process-wide crypto
/// provider first unless one is installed already.
/// Names are looked up with `lookup` and filtered by the config's guard.
pub fn build(config: &ClientConfig, lookup: Arc<dyn Lookup>) -> Result<Client, FetchError> {
    // `Err` only means another provider is installed, which is fine.
    let _ = rustls::crypto::ring::default_provider().install_default();
    let mut headers = HeaderMap::new();
    headers.insert(ACCEPT_ENCODING, HeaderValue::from_static(ACCEPT_CODINGS));
    Client::builder()
        .user_agent(config.user_agent.as_str())
        .default_headers(headers)
        // Off even should another crate turn reqwest's features on: its
        // decoder takes only lower-case codings and would leave the
        // rest to us coded.
        .no_gzip()
        .no_brotli()
        .no_zstd()
        .no_deflate()
        .connect_timeout(config.connect_timeout)
        .read_timeout(config.read_timeout)
        .timeout(config.total_timeout)
        // Followed by the fetcher, hop by hop (see `redirect`).
        .redirect(reqwest::redirect::Policy::none())
        .dns_resolver(GuardedResolver::new(config.guard, lookup))
        .no_proxy()
        .build()
        .map_err(|e| FetchError::Client(message(&e)))
}

/// Maps a reqwest error to the typed error, looking through its causes
/// for the guard's, the redirect policy's and rustls's own errors.
pub fn classify(err: &reqwest::Error, requested: &str) -> FetchError {
    let url = err
        .url()
        .map_or_else(|| requested.to_string(), |u| u.to_string());
    for cause in causes(err) {
        if let Some(e) = cause.downcast_ref::<GuardError>() {
            return from_guard(e, url);
        }
        if let Some(e) = cause.downcast_ref::<RedirectError>() {
            return from_redirect(e, url);
        }
        if cause.downcast_ref::<rustls::Error>().is_some() {
            return FetchError::Tls {
                url,
                message: cause.to_string(),
            };
        }
    }
    let message = message(err);
    if err.is_timeout() {
        FetchError::Timeout { url, message }
    } else if err.is_connect() || causes(err).any(cut_off) {
        FetchError::Connect { url, message }
    } else {
        FetchError::Http { url, message }
    }
}

/// Whether an error is the connection failing under a request or its body
/// (reset, aborted, closed before the message was complete; over HTTP/2 a
/// stream the server refused or reset, or a connection it is closing): a
/// server restarting or overloaded, worth another try like a failed
/// connect, unlike a response that is malformed (bad chunking, a bad
/// header, an HTTP/2 protocol error), which would come back the same.
fn cut_off(cause: &(dyn StdError + 'static)) -> bool {
    use std::io::ErrorKind;
    if let Some(h2) = cause.downcast_ref::<h2::Error>() {
        return h2.is_io() || h2.is_go_away() || h2.reason().is_some_and(retried_reset);
    }
    if let Some(io) = cause.downcast_ref::<std::io::Error>() {
        return matches!(
            io.kind(),
            ErrorKind::ConnectionReset
                | ErrorKind::ConnectionAborted
                | ErrorKind::BrokenPipe
                | ErrorKind::UnexpectedEof
        );
    }
    cause
        .downcast_ref::<hyper::Error>()
        .is_some_and(hyper::Error::is_incomplete_message)
}

/// HTTP/2 reset reasons that say "not now" rather than "not like this":
/// the stream refused before work began, cancelled, the server's internal
/// error, a request to slow down, or a reset without error (a graceful
/// close).
fn retried_reset(reason: h2::Reason) -> bool {
    use h2::Reason;
    [
        Reason::NO_ERROR,
        Reason::REFUSED_STREAM,
        Reason::CANCEL,
        Reason::INTERNAL_ERROR,
        Reason::ENHANCE_YOUR_CALM,
    ]
    .contains(&reason)
}

pub(crate) fn from_guard(e: &GuardError, url: String) -> FetchError {
    match e {
        GuardError::Refused { addr, reason, .. } => FetchError::RefusedAddress {
            url,
            addr: *addr,
            reason,
        },
        GuardError::Resolve { host, message } => FetchError::Dns {
            url,
            host: host.clone(),
            message: message.clone(),
            temporary: !no_such_host(message),
        },
    }
}

/// Whether a failed lookup's message says the name does not exist, so
/// that asking again will not help: getaddrinfo's EAI_NONAME and
/// EAI_NODATA as glibc and macOS word them, or an answer with no address
/// at all. Anything else (EAI_AGAIN's "Temporary failure in name
/// resolution", a SERVFAIL, a message not known here) is taken as a
/// resolver that failed for now: a retry costs a lookup, where a wrong
/// "permanent" would dead-letter every task in flight at a resolver's
/// hiccup. std gives getaddrinfo's error only as text, hence the words.
fn no_such_host(message: &str) -> bool {
    const NO_SUCH_HOST: [&str; 4] = [
        "Name or service not known",
        "No address associated with hostname",
        "nodename nor servname provided",
        NO_ADDRESSES,
    ];
    NO_SUCH_HOST.iter().any(|words| message.contains(words))
}

pub(crate) fn from_redirect(e: &RedirectError, url: String) -> FetchError {
    match e {
        RedirectError::TooMany { limit } => FetchError::TooManyRedirects { url, limit: *limit },
        RedirectError::Loop { .. } => FetchError::RedirectLoop { url },
        RedirectError::Scheme { scheme } => FetchError::InvalidUrl {
            url,
            reason: format!("redirect to unsupported scheme {scheme}"),
        },
        RedirectError::Guard(g) => from_guard(g, url),
    }
}

/// The error and its causes. `io::Error` hides its inner error from
/// `source()`, so that link is followed with `get_ref()`.
fn causes<'a>(
    err: &'a (dyn StdError + 'static),
) -> impl Iterator<Item = &'a (dyn StdError + 'static)> {
    std::iter::successors(Some(err), |e: &&'a (dyn StdError + 'static)| {
        let e: &'a (dyn StdError + 'static) = *e;
        e.downcast_ref::<std::io::Error>()
            .and_then(|io| io.get_ref())
            .map(|inner| inner as &(dyn StdError + 'static))
            .or_else(|| e.source())
    })
}

/// The error's message with its causes, `a: b: c`.
fn message(err: &(dyn StdError + 'static)) -> String {
    let mut parts: Vec<String> = Vec::new();
    for cause in causes(err) {
        let text = cause.to_string();
        if !parts.last().is_some_and(|last| last.contains(&text)) {
            parts.push(text);
        }
    }
    parts.join(": ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// HTTP/2 streams the server refused or reset for now, and
    /// connections it is closing, are tried again (`Connect`); a protocol
    /// error is the response's own fault.
    #[test]
    fn http2_resets_for_now_are_cut_offs_and_protocol_errors_are_not() {
        use h2::Reason;
        for reason in [
            Reason::REFUSED_STREAM,
            Reason::CANCEL,
            Reason::INTERNAL_ERROR,
            Reason::ENHANCE_YOUR_CALM,
            Reason::NO_ERROR,
        ] {
            assert!(cut_off(&h2::Error::from(reason)), "{reason:?}");
        }
        for reason in [
            Reason::PROTOCOL_ERROR,
            Reason::FRAME_SIZE_ERROR,
            Reason::COMPRESSION_ERROR,
        ] {
            assert!(!cut_off(&h2::Error::from(reason)), "{reason:?}");
        }
    }

    /// A name that does not exist fails for good; a resolver failing for
    /// now (or with words not known here) is worth another try.
    #[test]
    fn only_a_name_that_does_not_exist_fails_dns_for_good() {
        let dns = |message: &str| {
            let e = GuardError::Resolve {
                host: "example.invalid".into(),
                message: message.into(),
            };
            from_guard(&e, "http://example.invalid/".into())
        };
        for gone in [
            "failed to lookup address information: Name or service not known",
            "failed to lookup address information: No address associated with hostname",
            "failed to lookup address information: nodename nor servname provided, or not known",
            NO_ADDRESSES,
        ] {
            let e = dns(gone);
            assert_eq!(e.kind(), "dns");
            assert!(!e.is_transient(), "{e}");
        }
        for now in [
            "failed to lookup address information: Temporary failure in name resolution",
            "failed to lookup address information: Try again",
            "",
        ] {
            assert!(dns(now).is_transient(), "{now}");
        }
    }
}
