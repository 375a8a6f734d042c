//! A response's body as decoded chunks. Every content coding is decoded
//! here (see `codec::coding`), not by reqwest: its decoder misses a coding named
//! in another case (`GZIP`) or as `x-gzip`, takes deflate only
//! zlib-wrapped, and stacked codings (`gzip, br`) not at all. Errors are
//! typed as reqwest's decoding errors were: a damaged stream, or more
//! codings stacked than are decoded, is [`FetchError::Http`], one that
//! ends early [`FetchError::Connect`] (the connection may have been cut
//! off); a decoder that could not be set up is [`FetchError::Local`],
//! this process's fault, not the page's.
//!
//! Decoding yields to the runtime between pieces (it uses up the task's
//! cooperative budget, as reading a socket does), and between the pieces
//! one stacked coding's decoder gives the next: a small compressed chunk
//! can decode to `max_body` bytes without a read that would wait, and the
//! task's deadline must still be able to end it.

use super::client::classify;
use super::error::FetchError;
use crate::codec::coding::{Coding, DecodeError};
use crate::codec::stack::{Framing, Pulled, Stack};
use hyper::body::Bytes;
use reqwest::header::{CONTENT_LENGTH, TRANSFER_ENCODING};
use reqwest::{Response, Version};

/// A response's body, read chunk by chunk.
pub struct Body<'a> {
    response: &'a mut Response,
    /// For a body with content codings decoded here.
    decoder: Option<Stack>,
    url: &'a str,
}

impl<'a> Body<'a> {
    /// The body of `response` (fetched from `url`, for errors).
    pub fn new(response: &'a mut Response, url: &'a str) -> Result<Self, FetchError> {
        let decoder = match Coding::applied(response.headers()) {
            Some(codings) => {
                Stack::new(&codings, framing(response)).map_err(|e| decode_error(e, url))?
            }
            None => None,
        };
        Ok(Body {
            response,
            decoder,
            url,
        })
    }

    /// The decoded length the headers promise, when they do: not for a
    /// body decoded here, whose `Content-Length` counts the coded bytes.
    pub fn declared_length(&self) -> Option<u64> {
        match self.decoder {
            Some(_) => None,
            None => self.response.content_length(),
        }
    }

    /// The next decoded chunk; `None` at the end.
    pub async fn chunk(&mut self) -> Result<Option<Bytes>, FetchError> {
        let Some(decoder) = self.decoder.as_mut() else {
            return next_chunk(self.response, self.url).await;
        };
        loop {
            // A chunk may decode to many pieces with no read in between:
            // give the runtime its turn (a deadline, other tasks).
            tokio::task::coop::consume_budget().await;
            match decoder.pull().map_err(|e| decode_error(e, self.url))? {
                Pulled::Piece(piece) => return Ok(Some(piece)),
                Pulled::End => return Ok(None),
                Pulled::Busy => continue,
                Pulled::Input => {}
            }
            match next_chunk(self.response, self.url).await? {
                Some(input) => decoder.push(input),
                None => {
                    decoder.finish().map_err(|e| decode_error(e, self.url))?;
                    return Ok(None);
                }
            }
        }
    }
}

/// How the response's body ends (RFC 9112 §6.3): HTTP/2 and later by
/// its stream's end; HTTP/1 by chunking when `Transfer-Encoding` ends
/// with `chunked`, else (another transfer coding, read to the close) by
/// the connection's close; without `Transfer-Encoding`, by
/// `Content-Length` when there is one, else by the close. hyper checks
/// the delimited ones: a body cut short of them fails as it is read.
/// (hyper refuses `Transfer-Encoding` on HTTP/1.0, so its branch is for
/// HTTP/1.1. Over TLS a close without `close_notify` fails the read too,
/// so a close-delimited HTTPS body that ends well was not cut by the
/// network; it is still taken as `Close`, the cautious side: a damaged
/// one is retried a few times rather than failed for good.)
fn framing(response: &Response) -> Framing {
    if response.version() >= Version::HTTP_2 {
        return Framing::Delimited;
    }
    let headers = response.headers();
    // As hyper reads them, which decides how it reads the body.
    let delimited = match headers.get_all(TRANSFER_ENCODING).iter().next_back() {
        Some(value) => value
            .to_str()
            .ok()
            .and_then(|v| v.rsplit(',').next())
            .is_some_and(|last| last.trim().eq_ignore_ascii_case("chunked")),
        None => headers.contains_key(CONTENT_LENGTH),
    };
    if delimited {
        Framing::Delimited
    } else {
        Framing::Close
    }
}

async fn next_chunk(response: &mut Response, url: &str) -> Result<Option<Bytes>, FetchError> {
    response.chunk().await.map_err(|e| classify(&e, url))
}

/// The fetch error for a body that could not be decoded, worded as
/// reqwest words its decoding errors.
fn decode_error(e: DecodeError, url: &str) -> FetchError {
    let url = url.to_string();
    let message = format!("error decoding response body: {e}");
    match e {
        DecodeError::Corrupt { .. } | DecodeError::TooManyCodings { .. } => {
            FetchError::Http { url, message }
        }
        DecodeError::Truncated { .. } => FetchError::Connect { url, message },
        DecodeError::Local { .. } => FetchError::Local { url, message },
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::codec::coding::tests::{gzip, skippable, zstd};

    /// A decoder that cannot be set up is this process's failure, tried
    /// again (a fault once the worker's deliveries are used up), not a
    /// page that does not decode; the page's own failures stay as they
    /// were.
    #[test]
    fn a_decoder_that_cannot_be_set_up_is_a_local_transient_failure() {
        let url = "http://example.org/";
        let local = decode_error(
            DecodeError::Local {
                coding: "zstd",
                message: "out of memory".into(),
            },
            url,
        );
        assert_eq!(local.kind(), "local");
        assert!(local.is_transient(), "{local}");
        let corrupt = decode_error(
            DecodeError::Corrupt {
                coding: "gzip",
                message: "bad block".into(),
            },
            url,
        );
        assert_eq!((corrupt.kind(), corrupt.is_transient()), ("http", false));
        let cut = decode_error(DecodeError::Truncated { coding: "gzip" }, url);
        assert_eq!((cut.kind(), cut.is_transient()), ("connect", true));
    }

    /// One small chunk that decodes to many pieces gives the runtime its
    /// turn while it decodes: a task spawned on a one-thread runtime (as a
    /// deadline's timer would be served) runs before the last piece.
    #[tokio::test(flavor = "current_thread")]
    async fn decoding_one_chunk_yields_to_the_runtime() {
        let big = vec![b'a'; 32 << 20];
        for (coding, bomb) in [("gzip", gzip(&big)), ("gzip, gzip", gzip(&gzip(&big)))] {
            let mut response = coded(coding, bomb);
            let other = tokio::spawn(async {});
            let mut body = Body::new(&mut response, "http://example.org/").expect("body");
            let (mut pieces, mut other_ran_at) = (0, None);
            while body.chunk().await.expect("decodes").is_some() {
                pieces += 1;
                if other_ran_at.is_none() && other.is_finished() {
                    other_ran_at = Some(pieces);
                }
            }
            assert!(pieces >= 500, "{coding}: {pieces}");
            assert!(
                other_ran_at.is_some_and(|at| at < pieces),
                "{coding}: the other task ran at piece {other_ran_at:?} of {pieces}"
            );
        }
    }

    /// An inner stream of a stacked body that takes much before it puts
    /// anything out (a skippable zstd frame, gzipped) gives the runtime
    /// its turn before the first piece comes.
    #[tokio::test(flavor = "current_thread")]
    async fn a_stacked_body_yields_before_its_first_piece() {
        let body = [skippable(16 << 20), zstd(b"<p>page</p>")].concat();
        let mut response = coded("zstd, gzip", gzip(&body));
        let other = tokio::spawn(async {});
        let mut body = Body::new(&mut response, "http://example.org/").expect("body");
        let first = body.chunk().await.expect("decodes");
        assert_eq!(first.as_deref(), Some(&b"<p>page</p>"[..]));
        assert!(other.is_finished(), "the other task waited for the piece");
    }

    /// More codings stacked than are decoded: a permanent `http` error
    /// naming them, the page's URL in it.
    #[test]
    fn too_many_stacked_codings_are_a_permanent_http_error() {
        let mut response = coded("gzip, br, zstd", gzip(b"<p>x</p>"));
        let Err(e) = Body::new(&mut response, "http://example.org/a") else {
            panic!("three codings decoded");
        };
        assert_eq!((e.kind(), e.is_transient()), ("http", false), "{e}");
        assert_eq!(e.url(), Some("http://example.org/a"));
        assert!(e.to_string().contains("3 content codings stacked"), "{e}");
    }

    /// A body's end is known as hyper reads it: by `Content-Length`, by
    /// chunking when `chunked` is the last transfer coding, by an HTTP/2
    /// stream's end; else it is the connection's close.
    #[test]
    fn a_body_without_a_length_or_chunking_ends_at_the_close() {
        use Framing::{Close, Delimited};
        let length = ("Content-Length", "10");
        let transfer = |codings| ("Transfer-Encoding", codings);
        for (version, headers, expected) in [
            (Version::HTTP_11, &[length][..], Delimited),
            (Version::HTTP_10, &[length], Delimited),
            (Version::HTTP_11, &[transfer("chunked")], Delimited),
            (Version::HTTP_11, &[transfer("gzip, Chunked")], Delimited),
            (
                Version::HTTP_11,
                &[transfer("chunked"), transfer("gzip")],
                Close,
            ),
            (Version::HTTP_11, &[transfer("gzip"), length], Close),
            (Version::HTTP_11, &[], Close),
            (Version::HTTP_10, &[], Close),
            (Version::HTTP_2, &[], Delimited),
        ] {
            let mut response = hyper::Response::builder().version(version);
            for (name, value) in headers {
                response = response.header(*name, *value);
            }
            let response = Response::from(response.body(Vec::new()).expect("response"));
            assert_eq!(framing(&response), expected, "{version:?} {headers:?}");
        }
    }

    /// A response with `Content-Encoding: coding` and this body.
    pub(in crate::fetch) fn coded(coding: &'static str, body: Vec<u8>) -> Response {
        Response::from(
            hyper::Response::builder()
                .header(reqwest::header::CONTENT_ENCODING, coding)
                .body(body)
                .expect("response"),
        )
    }
}
