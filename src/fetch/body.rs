//! A response's body as decoded chunks. reqwest decodes gzip, br and zstd
//! itself; `deflate` is inflated here (see `inflate`: reqwest takes only
//! the zlib-wrapped kind, and servers send raw deflate too). Errors are
//! typed as reqwest's decoding errors are: a damaged stream is
//! [`FetchError::Http`], one that ends early [`FetchError::Connect`], as a
//! gzip body cut short is (the connection may have been cut off).

use super::client::classify;
use super::error::FetchError;
use super::inflate::{InflateError, Inflater};
use hyper::body::Bytes;
use reqwest::Response;
use reqwest::header::CONTENT_ENCODING;

/// A response's body, read chunk by chunk.
pub struct Body<'a> {
    response: &'a mut Response,
    /// For `Content-Encoding: deflate`, which reqwest leaves to us.
    inflater: Option<Inflater>,
    url: &'a str,
}

impl<'a> Body<'a> {
    /// The body of `response` (fetched from `url`, for errors).
    pub fn new(response: &'a mut Response, url: &'a str) -> Self {
        let inflater = is_deflate(response).then(Inflater::new);
        Body {
            response,
            inflater,
            url,
        }
    }

    /// The decoded length the headers promise, when they do: not for a
    /// body inflated here, whose `Content-Length` counts the deflated bytes.
    pub fn declared_length(&self) -> Option<u64> {
        match self.inflater {
            Some(_) => None,
            None => self.response.content_length(),
        }
    }

    /// The next decoded chunk; `None` at the end.
    pub async fn chunk(&mut self) -> Result<Option<Bytes>, FetchError> {
        let Some(inflater) = self.inflater.as_mut() else {
            return next_chunk(self.response, self.url).await;
        };
        loop {
            if let Some(piece) = inflater.pull().map_err(|e| decode_error(e, self.url))? {
                return Ok(Some(piece));
            }
            if inflater.ended() {
                return Ok(None);
            }
            match next_chunk(self.response, self.url).await? {
                Some(input) => inflater.push(input),
                None => {
                    inflater.finish().map_err(|e| decode_error(e, self.url))?;
                    return Ok(None);
                }
            }
        }
    }
}

async fn next_chunk(response: &mut Response, url: &str) -> Result<Option<Bytes>, FetchError> {
    response.chunk().await.map_err(|e| classify(&e, url))
}

/// Whether the body is deflate-coded (codings are case-insensitive,
/// RFC 9110 §8.4.1). reqwest leaves such a body as it came.
fn is_deflate(response: &Response) -> bool {
    response
        .headers()
        .get(CONTENT_ENCODING)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.trim().eq_ignore_ascii_case("deflate"))
}

/// The fetch error for a deflate body that could not be inflated, worded
/// as reqwest words its decoding errors.
fn decode_error(e: InflateError, url: &str) -> FetchError {
    let url = url.to_string();
    let message = format!("error decoding response body: {e}");
    match e {
        InflateError::Corrupt(_) => FetchError::Http { url, message },
        InflateError::Truncated => FetchError::Connect { url, message },
    }
}
