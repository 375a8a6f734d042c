//! `http(s)://` WARC locations: one GET a range (`Range: bytes=N-` or
//! `N-M`, with `If-Range` on a resume), its status and `Content-Range`
//! checked against what was asked. Retrying is `transfer`'s.

use super::{Body, Failure, FailureKind, Opened, env_duration};
use futures_util::StreamExt;
use reqwest::StatusCode;
use reqwest::header::{
    ACCEPT_ENCODING, CONTENT_RANGE, ETAG, HeaderMap, IF_RANGE, LAST_MODIFIED, RANGE,
};
use std::sync::OnceLock;
use std::time::Duration;

#[derive(Debug, Clone)]
pub(super) struct Http {
    client: reqwest::Client,
    url: url::Url,
}

/// One client for every location: its connection pool is shared.
fn client() -> Result<reqwest::Client, Failure> {
    static CLIENT: OnceLock<reqwest::Client> = OnceLock::new();
    if let Some(c) = CLIENT.get() {
        return Ok(c.clone());
    }
    // `Err` only means another provider is installed, which is fine.
    let _ = rustls::crypto::ring::default_provider().install_default();
    let client = reqwest::Client::builder()
        .user_agent(concat!("linesift/", env!("CARGO_PKG_VERSION")))
        .connect_timeout(env_duration(
            "LINESIFT_REMOTE_CONNECT_TIMEOUT",
            Duration::from_secs(10),
        ))
        // The longest wait for any read: a stalled body fails, and is
        // resumed, rather than hold its reader for ever.
        .read_timeout(env_duration(
            "LINESIFT_REMOTE_TIMEOUT",
            Duration::from_secs(30),
        ))
        .build()
        .map_err(|e| Failure::permanent(format!("making the HTTP client: {e}")))?;
    Ok(CLIENT.get_or_init(|| client).clone())
}

impl Http {
    pub(super) fn new(location: &str) -> Result<Http, Failure> {
        let url = url::Url::parse(location)
            .map_err(|e| Failure::permanent(format!("{location}: not a URL ({e})")))?;
        Ok(Http {
            client: client()?,
            url,
        })
    }

    pub(super) async fn get(
        &self,
        start: u64,
        end: Option<u64>,
        validator: Option<&str>,
    ) -> Result<Opened, Failure> {
        // The bytes as stored: a WARC's own compression is read by the
        // WARC layers, and offsets count stored bytes.
        let mut request = self
            .client
            .get(self.url.clone())
            .header(ACCEPT_ENCODING, "identity");
        let asked = range_header(start, end);
        if let Some(range) = &asked {
            request = request.header(RANGE, range.as_str());
            if let Some(v) = validator {
                request = request.header(IF_RANGE, v);
            }
        }
        let response = request.send().await.map_err(transport)?;
        let status = response.status();
        let total = check_status(status, response.headers(), start, end, asked.as_deref())?;
        let validator = version_of(response.headers());
        let body: Body = Box::pin(response.bytes_stream().map(|r| r.map_err(transport)));
        Ok(Opened {
            body,
            total,
            validator,
        })
    }
}

/// The Range header for `start..end`, none for the whole file.
fn range_header(start: u64, end: Option<u64>) -> Option<String> {
    match (start, end) {
        (0, None) => None,
        (s, None) => Some(format!("bytes={s}-")),
        // An empty range cannot be asked for; `transfer` asks for none.
        (s, Some(e)) => Some(format!("bytes={s}-{}", e.max(s + 1) - 1)),
    }
}

/// Whether the response answers what was asked; the file's size when it
/// says.
fn check_status(
    status: StatusCode,
    headers: &HeaderMap,
    start: u64,
    end: Option<u64>,
    asked: Option<&str>,
) -> Result<Option<u64>, Failure> {
    let length = || {
        headers
            .get(reqwest::header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok()?.parse::<u64>().ok())
    };
    match status {
        StatusCode::OK if start == 0 => Ok(length()),
        StatusCode::OK => Err(Failure::permanent(format!(
            "answered 200 (the whole file) to {}: the server serves no ranges, or the file \
             changed since reading began",
            asked.unwrap_or("a range request")
        ))),
        StatusCode::PARTIAL_CONTENT => {
            let value = headers
                .get(CONTENT_RANGE)
                .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned());
            check_content_range(value.as_deref(), start, end, asked)
        }
        StatusCode::RANGE_NOT_SATISFIABLE => Err(Failure::new(
            FailureKind::PastEnd,
            format!("HTTP 416 for {}", asked.unwrap_or("the file")),
        )),
        s if s.is_server_error()
            || s == StatusCode::TOO_MANY_REQUESTS
            || s == StatusCode::REQUEST_TIMEOUT =>
        {
            Err(Failure::transient(format!("HTTP {s}")))
        }
        s if s == StatusCode::NOT_FOUND || s == StatusCode::GONE => {
            Err(Failure::new(FailureKind::NotFound, format!("HTTP {s}")))
        }
        s if s == StatusCode::UNAUTHORIZED || s == StatusCode::FORBIDDEN => {
            Err(Failure::new(FailureKind::Denied, format!("HTTP {s}")))
        }
        s => Err(Failure::permanent(format!("HTTP {s}"))),
    }
}

/// Checks a 206's `Content-Range: bytes FIRST-LAST/TOTAL` against the range
/// asked for: it must start at `start` and end within `end`. Returns the
/// file's size (`None` for `*`). A wrong one is transient: its body is
/// not taken, and the range is asked for again (a cache or proxy on the
/// way may have answered for another request); one that stays wrong fails
/// once the retries are spent.
fn check_content_range(
    value: Option<&str>,
    start: u64,
    end: Option<u64>,
    asked: Option<&str>,
) -> Result<Option<u64>, Failure> {
    let asked = asked.unwrap_or("the whole file");
    let wrong = |why: &str| {
        Failure::transient(format!(
            "the server's Content-Range {} does not answer Range {asked}: {why}",
            value.map_or_else(|| "(none)".to_string(), |v| format!("{v:?}"))
        ))
    };
    let value = value.ok_or_else(|| wrong("a 206 must name its range"))?;
    let (first, last, total) = parse_content_range(value).ok_or_else(|| wrong("unreadable"))?;
    if first != start {
        return Err(wrong(&format!("it starts at byte {first}, not {start}")));
    }
    if last < first || total.is_some_and(|t| last >= t) {
        return Err(wrong("its bytes are out of order"));
    }
    if end.is_some_and(|e| last >= e) {
        return Err(wrong("it runs past the range asked for"));
    }
    Ok(total)
}

/// `bytes FIRST-LAST/TOTAL` (TOTAL may be `*`).
fn parse_content_range(value: &str) -> Option<(u64, u64, Option<u64>)> {
    let rest = value.trim().strip_prefix("bytes")?.trim_start();
    let (span, total) = rest.split_once('/')?;
    let (first, last) = span.trim().split_once('-')?;
    let total = match total.trim() {
        "*" => None,
        t => Some(t.parse().ok()?),
    };
    Some((first.trim().parse().ok()?, last.trim().parse().ok()?, total))
}

/// What names this version of the file for `If-Range`: a strong ETag,
/// else Last-Modified (a weak ETag may not be used there).
fn version_of(headers: &HeaderMap) -> Option<String> {
    let text = |name| headers.get(name)?.to_str().ok().map(str::to_string);
    text(ETAG)
        .filter(|e| !e.starts_with("W/"))
        .or_else(|| text(LAST_MODIFIED))
}

/// A request or body that failed on the way: a timeout, a refused or cut
/// connection. All may pass, short of a URL reqwest cannot send. The
/// message leaves the URL out (the caller names the location).
fn transport(e: reqwest::Error) -> Failure {
    let e = e.without_url();
    let mut message = e.to_string();
    let mut cause = std::error::Error::source(&e);
    while let Some(c) = cause {
        message.push_str(": ");
        message.push_str(&c.to_string());
        cause = c.source();
    }
    match e.is_builder() {
        true => Failure::permanent(message),
        false => Failure::transient(message),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_are_asked_for_only_past_the_start_or_with_an_end() {
        assert_eq!(range_header(0, None), None);
        assert_eq!(range_header(100, None).as_deref(), Some("bytes=100-"));
        assert_eq!(
            range_header(100, Some(150)).as_deref(),
            Some("bytes=100-149")
        );
    }

    #[test]
    fn a_content_range_must_start_where_asked_and_end_within_the_range() {
        let check = |v, start, end| check_content_range(Some(v), start, end, Some("r"));
        assert_eq!(check("bytes 100-149/1000", 100, Some(150)), Ok(Some(1000)));
        assert_eq!(check("bytes 100-120/*", 100, Some(150)), Ok(None));
        assert_eq!(check("bytes 100-999/1000", 100, None), Ok(Some(1000)));
        let wrong = check("bytes 0-999/1000", 100, None).unwrap_err();
        assert!(
            wrong.message.contains("starts at byte 0, not 100"),
            "{wrong}"
        );
        assert_eq!(wrong.kind, FailureKind::Transient);
        assert!(check("bytes 100-200/1000", 100, Some(150)).is_err());
        assert!(check("bytes 100-1200/1000", 100, None).is_err());
        assert!(check("items 1-2/3", 1, None).is_err());
        assert!(check_content_range(None, 1, None, None).is_err());
    }

    #[test]
    fn a_weak_etag_is_no_validator() {
        let mut h = HeaderMap::new();
        h.insert(ETAG, "W/\"abc\"".parse().unwrap());
        assert_eq!(version_of(&h), None);
        h.insert(
            LAST_MODIFIED,
            "Tue, 01 Dec 2026 10:00:00 GMT".parse().unwrap(),
        );
        assert_eq!(
            version_of(&h).as_deref(),
            Some("Tue, 01 Dec 2026 10:00:00 GMT")
        );
        h.insert(ETAG, "\"abc\"".parse().unwrap());
        assert_eq!(version_of(&h).as_deref(), Some("\"abc\""));
    }
}
