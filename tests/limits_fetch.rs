//! The fetcher's body limit (`max_body`, on decoded bytes) against
//! Content-Encoding bombs (gzip, br, zstd, and deflate both zlib-wrapped
//! and raw; and codings named in other cases or as `x-gzip`) served by a
//! local server: a
//! body decoding to exactly the limit passes whole; one byte over is cut
//! (truncated=true) or refused with an error naming the limit; a 64 MiB
//! bomb of a few hundred KiB stops at the limit. And the core's
//! `max_bytes` below `max_body` fails the fetch naming `max_bytes`.

mod bombs;
mod fetch_support;

use bombs::encoded;
use fetch_support::{Request, Server, Step, not_found, response};
use linesift::fetch::{BodyLimit, FetchError, FetchOptions, Fetcher, Guard, Oversize, RetryPolicy};
use linesift::{ExtractError, Extractor, Options};
use std::sync::Arc;
use std::time::Duration;

const LIMIT: u64 = 1 << 20;

fn options(oversize: Oversize) -> FetchOptions {
    FetchOptions {
        guard: Guard {
            allow_loopback: true,
            allow_private: false,
            allow_metadata: false,
        },
        robots: false,
        host_interval: Duration::ZERO,
        total_timeout: Duration::from_secs(30),
        retry: RetryPolicy {
            retries: 0,
            ..RetryPolicy::default()
        },
        body: BodyLimit {
            max_body: LIMIT,
            oversize,
        },
        ..FetchOptions::default()
    }
}

/// Serves `/at`, `/over` and `/bomb` encoded with `coding`, saying
/// `Content-Encoding: header`.
async fn server(coding: &'static str, header: &'static str) -> Server {
    let bodies = Arc::new([
        encoded(coding, LIMIT),
        encoded(coding, LIMIT + 1),
        encoded(coding, 64 << 20),
    ]);
    assert!(
        bodies[2].len() * 100 < 64 << 20,
        "{coding}: {}",
        bodies[2].len()
    );
    Server::start(move |r: &Request| {
        let body = match r.path.as_str() {
            "/at" => &bodies[0],
            "/over" => &bodies[1],
            "/bomb" => &bodies[2],
            _ => return not_found(),
        };
        let mut steps = response(
            "200 OK",
            &[("Content-Type", "text/html"), ("Content-Encoding", header)],
            body,
        );
        steps.push(Step::Close);
        steps
    })
    .await
}

fn fetcher(oversize: Oversize) -> Fetcher {
    Fetcher::new(Extractor::new(Options::default()), options(oversize)).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn content_encoding_bombs_are_cut_or_refused_at_max_body() {
    // `deflate-raw` is sent as `deflate`, as the servers that send it say.
    for (coding, header) in [
        ("gzip", "gzip"),
        ("br", "br"),
        ("zstd", "zstd"),
        ("deflate", "deflate"),
        ("deflate-raw", "deflate"),
        ("gzip", "x-gzip"),
        ("gzip", "GZIP"),
        ("br", "Br"),
        ("zstd", "ZSTD"),
    ] {
        let server = server(coding, header).await;
        let coding = format!("{coding} as {header}");
        let truncate = fetcher(Oversize::Truncate);
        let refuse = fetcher(Oversize::Refuse);

        for f in [&truncate, &refuse] {
            let at = f.fetch(&server.url("/at")).await.unwrap();
            assert!(!at.truncated, "{coding}");
            assert_eq!(
                (at.body_bytes, at.document.bytes),
                (LIMIT, LIMIT),
                "{coding}"
            );
        }

        for path in ["/over", "/bomb"] {
            let cut = truncate.fetch(&server.url(path)).await.unwrap();
            assert!(cut.truncated, "{coding} {path}");
            assert_eq!(cut.body_bytes, LIMIT, "{coding} {path}");
            assert_eq!(cut.document.bytes, LIMIT, "{coding} {path}");

            match refuse.fetch(&server.url(path)).await {
                Err(e @ FetchError::TooLarge { limit: LIMIT, .. }) => {
                    assert!(e.to_string().contains("(max_body)"), "{e}");
                    assert_eq!(e.kind(), "too_large");
                    assert!(!e.is_transient());
                }
                other => panic!("{coding} {path}: {other:?}"),
            }
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn core_max_bytes_below_max_body_fails_naming_max_bytes() {
    let server = server("gzip", "gzip").await;
    let core = Options {
        max_bytes: (LIMIT / 2) as usize,
        ..Options::default()
    };
    let f = Fetcher::new(Extractor::new(core), options(Oversize::Truncate)).unwrap();
    match f.fetch(&server.url("/at")).await {
        Err(FetchError::Extract { source, .. }) => {
            assert_eq!(
                source,
                ExtractError::TooLarge {
                    limit: (LIMIT / 2) as usize
                }
            );
        }
        other => panic!("{other:?}"),
    }
}
