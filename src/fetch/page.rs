//! One attempt at one page: send the request, check status and
//! Content-Type, and stream the decoded body chunk by chunk into the core's
//! [`crate::extract::PageStream`] while it arrives.

use super::body::Body;
use super::client::classify;
use super::content;
use super::error::FetchError;
use super::retry::parse_retry_after;
use crate::extract::{Document, Extractor, Hints, PageStream};
use reqwest::header::{ACCEPT, CONTENT_TYPE, LOCATION, RETRY_AFTER};
use reqwest::{Client, Response};
use tokio::runtime::{Handle, RuntimeFlavor};
use url::Url;

/// What to do with a body over the limit.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Oversize {
    /// Extract the first `max_body` bytes and flag the page as truncated.
    #[default]
    Truncate,
    /// Fail with [`FetchError::TooLarge`].
    Refuse,
}

/// The body limit, on decoded bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BodyLimit {
    pub max_body: u64,
    pub oversize: Oversize,
}

/// A page fetched and extracted.
#[derive(Debug, Clone)]
pub struct Fetched {
    /// The document; its `url` is the final URL.
    pub document: Document,
    /// The URL after redirects.
    pub url: String,
    pub status: u16,
    pub content_type: Option<String>,
    /// Whether the body was cut at the limit.
    pub truncated: bool,
    /// Decoded body bytes fed to the core.
    pub body_bytes: u64,
    /// Attempts made (1 without retries).
    pub attempts: u32,
}

/// Pages at most this large are finished inline on the executor thread.
/// `finish()` (selection, text, headline) is linear in the page and takes
/// well under a millisecond for typical pages, less than handing it to
/// another thread would cost. Larger pages are finished in
/// `block_in_place`, which moves this worker's other tasks to another
/// thread meanwhile. (`spawn_blocking` would need a `'static` page, but a
/// `PageStream` borrows its `Extractor`.)
const FINISH_INLINE_MAX: u64 = 512 * 1024;

/// What one request gave.
#[derive(Debug)]
pub enum Outcome {
    /// The page, fetched and extracted.
    Page(Box<Fetched>),
    /// A redirect (301, 302, 303, 307, 308) to this URL, not yet followed.
    Redirect(Url),
}

/// Fetches `url` once and extracts it, or says where it redirects.
pub async fn fetch_once(
    client: &Client,
    extractor: &Extractor,
    url: &Url,
    limit: BodyLimit,
    default_charset: Option<&str>,
) -> Result<Outcome, FetchError> {
    let mut response = client
        .get(url.clone())
        .header(ACCEPT, "text/html,application/xhtml+xml;q=0.9,*/*;q=0.1")
        .send()
        .await
        .map_err(|e| classify(&e, url.as_str()))?;
    if let Some(next) = redirect_target(&response) {
        return Ok(Outcome::Redirect(next));
    }
    let final_url = response.url().to_string();
    check_status(&response, &final_url)?;
    let content_type = header(&response, CONTENT_TYPE);
    if let Some(ct) = content_type.as_deref().filter(|ct| !content::is_html(ct)) {
        return Err(FetchError::NotHtml {
            url: final_url,
            content_type: ct.to_string(),
        });
    }
    let charset = content_type.as_deref().and_then(content::charset);
    let hints = Hints {
        url: Some(final_url.clone()),
        charset,
        // Assumed only where the page declares nothing, `<meta>` included.
        fallback_charset: default_charset.map(String::from),
    };
    let mut page = extractor.stream(hints);
    let (body_bytes, truncated) = stream_body(&mut response, &mut page, limit, &final_url).await?;
    let document = finish(page, body_bytes).map_err(|source| FetchError::Extract {
        url: final_url.clone(),
        source,
    })?;
    Ok(Outcome::Page(Box::new(Fetched {
        document,
        url: final_url,
        status: response.status().as_u16(),
        content_type,
        truncated,
        body_bytes,
        attempts: 1,
    })))
}

/// Where a redirect points, resolved against the response's URL; `None`
/// for other statuses and for a redirect without a usable `Location`
/// (which then fails as the 3xx status it is).
pub(crate) fn redirect_target(response: &Response) -> Option<Url> {
    if !matches!(response.status().as_u16(), 301 | 302 | 303 | 307 | 308) {
        return None;
    }
    let location = response.headers().get(LOCATION)?.to_str().ok()?;
    response.url().join(location.trim()).ok()
}

fn header(response: &Response, name: reqwest::header::HeaderName) -> Option<String> {
    let value = response.headers().get(name)?;
    Some(String::from_utf8_lossy(value.as_bytes()).into_owned())
}

fn check_status(response: &Response, url: &str) -> Result<(), FetchError> {
    let status = response.status();
    if status.is_success() {
        return Ok(());
    }
    Err(FetchError::Status {
        url: url.to_string(),
        status: status.as_u16(),
        retry_after: header(response, RETRY_AFTER).and_then(|v| parse_retry_after(&v)),
    })
}

/// Feeds the body to the core chunk by chunk; returns the bytes fed and
/// whether the body was truncated at the limit.
async fn stream_body(
    response: &mut Response,
    page: &mut PageStream<'_>,
    limit: BodyLimit,
    url: &str,
) -> Result<(u64, bool), FetchError> {
    let too_large = || FetchError::TooLarge {
        url: url.to_string(),
        limit: limit.max_body,
    };
    let mut body = Body::new(response, url)?;
    let declared = body.declared_length().unwrap_or(0);
    if limit.oversize == Oversize::Refuse && declared > limit.max_body {
        return Err(too_large());
    }
    let extract_err = |source| FetchError::Extract {
        url: url.to_string(),
        source,
    };
    let mut fed = 0u64;
    while let Some(chunk) = body.chunk().await? {
        let room = limit.max_body - fed;
        if chunk.len() as u64 > room {
            if limit.oversize == Oversize::Refuse {
                return Err(too_large());
            }
            // `room` is below `chunk.len()`, so it fits in usize.
            let keep = usize::try_from(room).unwrap_or(chunk.len());
            page.feed(&chunk[..keep]).map_err(extract_err)?;
            return Ok((limit.max_body, true));
        }
        page.feed(&chunk).map_err(extract_err)?;
        fed += chunk.len() as u64;
    }
    Ok((fed, false))
}

/// Ends the page: inline for ordinary pages, in `block_in_place` for large
/// ones on a multi-thread runtime (see [`FINISH_INLINE_MAX`]).
fn finish(page: PageStream<'_>, bytes: u64) -> Result<Document, crate::extract::ExtractError> {
    let multi_thread =
        Handle::try_current().is_ok_and(|h| h.runtime_flavor() == RuntimeFlavor::MultiThread);
    if bytes > FINISH_INLINE_MAX && multi_thread {
        tokio::task::block_in_place(|| page.finish())
    } else {
        page.finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codec::coding::tests::{gzip, page, with_bad_block};
    use crate::extract::Options;
    use crate::fetch::body::tests::coded;

    /// A gzip body of a good member then a damaged one, in one chunk: a
    /// limit reached inside the good member's output keeps the body up to
    /// it, flagged truncated, as a body cut past the limit would be; one
    /// the good output does not pass (reached exactly, as a body cut right
    /// there fails too, or not reached) leaves the damage reported. The
    /// good member's output used to go with the damage, and the page fail
    /// whatever its limit.
    #[tokio::test]
    async fn a_limit_reached_before_a_damaged_member_keeps_the_body_to_it() {
        let page = page();
        let good = &page[..20_000];
        let body = [gzip(good), with_bad_block(&gzip(b"<p>second</p>"), 10)].concat();
        let extractor = Extractor::new(Options::default());
        for (max_body, expected) in [
            (10_000, Ok((10_000, true))),
            (19_999, Ok((19_999, true))),
            (20_000, Err("http")),
            (30_000, Err("http")),
        ] {
            let mut response = coded("gzip", body.clone());
            let mut stream = extractor.stream(Hints::default());
            let limit = BodyLimit {
                max_body,
                oversize: Oversize::Truncate,
            };
            let got = stream_body(&mut response, &mut stream, limit, "http://example.org/").await;
            assert_eq!(got.map_err(|e| e.kind()), expected, "{max_body}");
        }
    }
}
