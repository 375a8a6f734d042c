//! The fetcher against a raw HTTP server on 127.0.0.1 started by each test:
//! streaming, content decoding, redirects, statuses and retries, limits,
//! robots.txt, content types, charsets, timeouts and the SSRF guard.
//! Nothing here talks to any address but 127.0.0.1 (the refused private
//! targets are refused before any connection).

mod fetch_support;

use fetch_support::{Request, Server, Step, article, chunked, html, not_found, redirect, response};
use linesift::fetch::{FetchError, FetchOptions, Fetcher, Guard, Oversize, RetryPolicy};
use linesift::{Document, Extractor, Hints, Options};
use std::io::Write;
use std::time::{Duration, Instant};

fn options() -> FetchOptions {
    FetchOptions {
        guard: Guard {
            allow_loopback: true,
            allow_private: false,
            allow_metadata: false,
        },
        host_interval: Duration::ZERO,
        connect_timeout: Duration::from_secs(2),
        read_timeout: Duration::from_secs(3),
        total_timeout: Duration::from_secs(10),
        retry: RetryPolicy {
            retries: 1,
            backoff: Duration::from_millis(20),
            max_wait: Duration::from_secs(5),
        },
        ..FetchOptions::default()
    }
}

fn fetcher(options: FetchOptions) -> Fetcher {
    Fetcher::new(Extractor::new(Options::default()), options).expect("client")
}

/// A fetcher that tries once and reads no robots.txt: a failure comes
/// back as it is, with no retry's wait or robots.txt request in front.
fn one_try_fetcher() -> Fetcher {
    fetcher(FetchOptions {
        retry: RetryPolicy {
            retries: 0,
            ..RetryPolicy::default()
        },
        robots: false,
        ..options()
    })
}

/// A robots.txt answer with these rules.
fn robots_txt(rules: &[u8]) -> Vec<Step> {
    response("200 OK", &[("Content-Type", "text/plain")], rules)
}

/// Serves robots.txt as 404 and everything else with `f`.
async fn server(f: impl Fn(&Request) -> Vec<Step> + Send + Sync + 'static) -> Server {
    Server::start(move |r: &Request| {
        if r.path == "/robots.txt" {
            not_found()
        } else {
            f(r)
        }
    })
    .await
}

fn in_memory(bytes: &[u8], url: &str, charset: Option<&str>) -> Document {
    let hints = Hints {
        url: Some(url.to_string()),
        charset: charset.map(String::from),
        ..Hints::default()
    };
    Extractor::new(Options::default())
        .extract(bytes, &hints)
        .expect("extract in memory")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn slow_chunked_body_streams_to_the_same_document_as_in_memory() {
    let page = article("Harbour plans approved", 40);
    let body = page.clone().into_bytes();
    let srv = server(move |_| {
        chunked(
            &[("Content-Type", "text/html; charset=utf-8")],
            &body,
            700,
            Duration::from_millis(5),
        )
    })
    .await;
    let url = srv.url("/slow");
    let got = fetcher(options()).fetch(&url).await.expect("fetch");
    assert_eq!(got.url, url);
    assert_eq!(got.status, 200);
    assert!(!got.truncated);
    assert_eq!(got.body_bytes, page.len() as u64);
    assert!(got.document.text.contains("Paragraph 39 of the story"));
    let expected = in_memory(page.as_bytes(), &url, Some("utf-8"));
    assert_eq!(got.document, expected);
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(bytes).expect("gzip");
    enc.finish().expect("gzip")
}

/// zlib-wrapped deflate (RFC 1950), what RFC 9110's `deflate` means.
fn zlib(bytes: &[u8]) -> Vec<u8> {
    let mut enc = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(bytes).expect("zlib");
    enc.finish().expect("zlib")
}

/// Raw deflate (RFC 1951), no zlib header or checksum.
fn raw_deflate(bytes: &[u8]) -> Vec<u8> {
    let mut enc = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::default());
    enc.write_all(bytes).expect("deflate");
    enc.finish().expect("deflate")
}

fn brotli(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut enc = brotli::CompressorWriter::new(&mut out, 4096, 5, 22);
        enc.write_all(bytes).expect("brotli");
    }
    out
}

async fn fetch_encoded(encoding: &'static str, encoded: Vec<u8>) -> (Server, Document) {
    let srv = server(move |_| {
        response(
            "200 OK",
            &[
                ("Content-Type", "text/html; charset=utf-8"),
                ("Content-Encoding", encoding),
            ],
            &encoded,
        )
    })
    .await;
    let got = fetcher(options())
        .fetch(&srv.url("/enc"))
        .await
        .expect("fetch");
    (srv, got.document)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn gzip_brotli_and_zstd_bodies_are_decoded() {
    let page = article("Compressed news", 20);
    let encodings: [(&str, Vec<u8>); 3] = [
        ("gzip", gzip(page.as_bytes())),
        ("br", brotli(page.as_bytes())),
        ("zstd", zstd::encode_all(page.as_bytes(), 3).expect("zstd")),
    ];
    for (name, encoded) in encodings {
        let (srv, doc) = fetch_encoded(name, encoded).await;
        let accept = srv.requests()[1]
            .header("accept-encoding")
            .unwrap_or("")
            .to_string();
        for coding in ["gzip", "br", "zstd", "deflate"] {
            assert!(accept.contains(coding), "{accept} lacks {coding}");
        }
        assert_eq!(
            doc,
            in_memory(page.as_bytes(), &srv.url("/enc"), Some("utf-8")),
            "{name}"
        );
    }
}

/// Codings are case-insensitive (RFC 9110 §8.4.1) and `x-gzip` is gzip
/// (§8.4.1.3): servers that say `GZIP`, `Gzip`, `x-gzip`, `BR` or `Zstd`
/// have their pages decoded, and their robots.txt, as browsers do; an
/// `identity` beside the coding changes nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn codings_in_any_case_and_x_gzip_are_decoded_for_pages_and_robots_txt() {
    let page = article("Shouting servers", 20);
    let bytes = page.as_bytes();
    let encodings: [(&str, Vec<u8>); 8] = [
        ("GZIP", gzip(bytes)),
        ("Gzip", gzip(bytes)),
        ("x-gzip", gzip(bytes)),
        ("X-GZIP", gzip(bytes)),
        ("BR", brotli(bytes)),
        ("Zstd", zstd::encode_all(bytes, 3).expect("zstd")),
        ("Deflate", raw_deflate(bytes)),
        ("identity, gzip", gzip(bytes)),
    ];
    for (name, encoded) in encodings {
        let (srv, doc) = fetch_encoded(name, encoded).await;
        assert_eq!(
            doc,
            in_memory(bytes, &srv.url("/enc"), Some("utf-8")),
            "{name}"
        );
    }
    for coding in ["GZIP", "x-gzip"] {
        robots_txt_coded_is_obeyed(coding, gzip(ROBOTS)).await;
    }
}

/// A robots.txt disallowing `/private`.
const ROBOTS: &[u8] = b"User-agent: *\nDisallow: /private\n";

/// A server whose robots.txt is `robots`, sent with `Content-Encoding:
/// coding`, and whose pages are plain: the fetcher decodes the robots.txt
/// and obeys it (`/public` fetched; `/private/x` refused for good, never
/// asked for).
async fn robots_txt_coded_is_obeyed(coding: &'static str, robots: Vec<u8>) {
    let srv = Server::start(move |r: &Request| match r.path.as_str() {
        "/robots.txt" => response(
            "200 OK",
            &[("Content-Type", "text/plain"), ("Content-Encoding", coding)],
            &robots,
        ),
        _ => html(article("Public page", 5).as_bytes()),
    })
    .await;
    let f = fetcher(options());
    f.fetch(&srv.url("/public")).await.expect("allowed");
    let e = f
        .fetch(&srv.url("/private/x"))
        .await
        .expect_err("disallowed");
    assert!(
        matches!(
            e,
            FetchError::Robots {
                temporary: false,
                ..
            }
        ),
        "{coding}: robots.txt not read: {e}"
    );
    assert_eq!(srv.hits("/private/x"), 0, "{coding}");
}

/// Stacked codings (RFC 9110 §8.4: listed in the order applied) are
/// decoded from the last listed back, as browsers decode them, over one
/// header or several, page and robots.txt alike: they used to reach the
/// core still compressed and fail as binary.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stacked_codings_are_decoded_for_pages_and_robots_txt() {
    let page = article("Twice compressed news", 20);
    let bytes = page.as_bytes();
    let zstd = |b: &[u8]| zstd::encode_all(b, 3).expect("zstd");
    let encodings: [(&[&'static str], Vec<u8>); 4] = [
        (&["gzip, gzip"], gzip(&gzip(bytes))),
        (&["gzip, br"], brotli(&gzip(bytes))),
        (&["Deflate", "identity, ZSTD"], zstd(&raw_deflate(bytes))),
        (&["x-gzip, zstd"], zstd(&gzip(bytes))),
    ];
    for (coding, encoded) in encodings {
        let srv = server(move |_| {
            let mut headers = vec![("Content-Type", "text/html; charset=utf-8")];
            headers.extend(coding.iter().map(|c| ("Content-Encoding", *c)));
            response("200 OK", &headers, &encoded)
        })
        .await;
        let got = fetcher(options())
            .fetch(&srv.url("/enc"))
            .await
            .unwrap_or_else(|e| panic!("{coding:?}: {e}"));
        assert_eq!(
            got.document,
            in_memory(bytes, &srv.url("/enc"), Some("utf-8")),
            "{coding:?}"
        );
    }
    robots_txt_coded_is_obeyed("gzip, gzip", gzip(&gzip(ROBOTS))).await;
    robots_txt_coded_is_obeyed("gzip, br", brotli(&gzip(ROBOTS))).await;
}

/// More codings stacked than the fetcher decodes (two) fail for good,
/// as a body that does not decode does: the page's `http` error, its URL
/// in it without the credentials asked with.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn too_many_stacked_codings_are_a_permanent_http_error() {
    let body = gzip(&gzip(&gzip(article("Onion", 5).as_bytes())));
    let srv = server(move |_| {
        response(
            "200 OK",
            &[
                ("Content-Type", "text/html"),
                ("Content-Encoding", "gzip, gzip, gzip"),
            ],
            &body,
        )
    })
    .await;
    let port = srv.addr.port();
    let e = one_try_fetcher()
        .fetch(&format!("http://crawler:s3cret@127.0.0.1:{port}/onion"))
        .await
        .expect_err("three codings");
    assert_eq!((e.kind(), e.is_transient()), ("http", false), "{e}");
    assert_eq!(e.url(), Some(srv.url("/onion").as_str()));
    assert!(e.to_string().contains("3 content codings stacked"), "{e}");
    assert!(!format!("{e} {e:?}").contains("s3cret"), "{e}");
}

/// `Content-Encoding: deflate` as RFC 9110 means it (zlib-wrapped) and as
/// old IIS servers and some CDNs send it (raw RFC 1951, no zlib header):
/// browsers take both, and so does the fetcher, page and robots.txt alike.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn zlib_and_raw_deflate_bodies_are_decoded() {
    let page = article("Deflated news", 20);
    for (name, encoded) in [
        ("zlib", zlib(page.as_bytes())),
        ("raw", raw_deflate(page.as_bytes())),
    ] {
        let (srv, doc) = fetch_encoded("deflate", encoded).await;
        assert_eq!(
            doc,
            in_memory(page.as_bytes(), &srv.url("/enc"), Some("utf-8")),
            "{name}"
        );
    }
    robots_txt_coded_is_obeyed("deflate", raw_deflate(ROBOTS)).await;
}

/// A deflate body that does not inflate fails as a gzip body that does not
/// decompress does: damaged, a permanent `Http` error; cut short inside the
/// stream, a `Connect` error (the connection may have been cut off), which
/// is transient.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_broken_deflate_body_fails_as_a_broken_gzip_body_does() {
    let page = article("Broken news", 20);
    let damaged = |mut body: Vec<u8>| {
        for b in &mut body[12..40] {
            *b ^= 0x55;
        }
        body
    };
    let cut = |body: Vec<u8>| body[..body.len() / 2].to_vec();
    let bodies = [
        ("gzip", damaged(gzip(page.as_bytes()))),
        ("deflate", damaged(zlib(page.as_bytes()))),
        ("deflate", damaged(raw_deflate(page.as_bytes()))),
        ("gzip", cut(gzip(page.as_bytes()))),
        ("deflate", cut(zlib(page.as_bytes()))),
        ("deflate", cut(raw_deflate(page.as_bytes()))),
    ];
    let mut kinds = Vec::new();
    for (coding, body) in bodies {
        let srv = server(move |_| {
            response(
                "200 OK",
                &[("Content-Type", "text/html"), ("Content-Encoding", coding)],
                &body,
            )
        })
        .await;
        let e = one_try_fetcher()
            .fetch(&srv.url("/broken"))
            .await
            .expect_err("broken body");
        assert!(
            e.to_string().contains("error decoding response body"),
            "{e}"
        );
        kinds.push((e.kind(), e.is_transient()));
    }
    assert_eq!(
        kinds,
        [
            ("http", false),
            ("http", false),
            ("http", false),
            ("connect", true),
            ("connect", true),
            ("connect", true),
        ]
    );
}

/// A stacked body (`br, gzip`) whose inner brotli stream is cut short
/// where its outer gzip member ends: with a Content-Length the body came
/// whole, and the brotli stream was cut before it was compressed, a
/// permanent `http` error; ending at the connection's close, the network
/// may have cut it right after that member, a transient `connect` error
/// (a page cut so used to fail for good).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_inner_stream_cut_at_a_close_delimited_body_s_end_is_transient() {
    let inner = brotli(article("Cut news", 20).as_bytes());
    let body = gzip(&inner[..inner.len() / 2]);
    let srv = server(move |r| {
        let headers = [
            ("Content-Type", "text/html"),
            ("Content-Encoding", "br, gzip"),
        ];
        if r.path == "/length" {
            return response("200 OK", &headers, &body);
        }
        let mut bytes =
            b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: br, gzip\r\n\r\n"
                .to_vec();
        bytes.extend_from_slice(&body);
        vec![Step::Send(bytes), Step::Close]
    })
    .await;
    let mut kinds = Vec::new();
    for path in ["/length", "/close"] {
        let e = one_try_fetcher()
            .fetch(&srv.url(path))
            .await
            .expect_err(path);
        assert!(e.to_string().contains("br "), "{path}: {e}");
        kinds.push((e.kind(), e.is_transient()));
    }
    assert_eq!(kinds, [("http", false), ("connect", true)]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn redirect_chain_reports_the_final_url() {
    let srv = server(|r| match r.path.as_str() {
        "/r/1" => redirect("/r/2"),
        "/r/2" => redirect("/r/3"),
        "/r/3" => redirect("/final"),
        _ => html(article("Final page", 5).as_bytes()),
    })
    .await;
    let got = fetcher(options())
        .fetch(&srv.url("/r/1"))
        .await
        .expect("fetch");
    assert_eq!(got.url, srv.url("/final"));
    assert_eq!(got.document.url.as_deref(), Some(got.url.as_str()));
}

/// `fetch_within` refuses a host whose next slot is further out than the
/// bound, at once and without a request (a transient `host_busy`), and the
/// refusal does not push the host's later requests out; within the bound,
/// or with none, the page is fetched.
#[tokio::test]
async fn a_busy_host_is_refused_within_a_bound_without_a_request() {
    let srv = server(|_| html(article("Busy", 3).as_bytes())).await;
    let f = fetcher(FetchOptions {
        robots: false,
        host_interval: Duration::from_secs(30),
        ..options()
    });
    let bound = Some(Duration::from_secs(1));
    f.fetch_within(&srv.url("/a"), bound)
        .await
        .expect("the host's first slot is now");
    let started = Instant::now();
    let refused = f
        .fetch_within(&srv.url("/b"), bound)
        .await
        .expect_err("the next slot is 30 s out");
    assert!(started.elapsed() < Duration::from_secs(1));
    assert_eq!(refused.kind(), "host_busy");
    assert!(refused.is_transient());
    assert_eq!(refused.url(), Some(srv.url("/b").as_str()));
    assert!(refused.to_string().contains("busy"), "{refused}");
    let FetchError::HostBusy { wait, .. } = refused else {
        panic!("{refused:?}")
    };
    assert!(wait > Duration::from_secs(28), "{wait:?}");
    // Refused again, the same distance out: the first refusal gave its
    // slot back rather than holding it.
    let again = f
        .fetch_within(&srv.url("/b"), bound)
        .await
        .expect_err("busy");
    let FetchError::HostBusy { wait: later, .. } = again else {
        panic!("{again:?}")
    };
    assert!(later <= wait, "{later:?} after {wait:?}");
    assert_eq!(srv.paths(), vec!["/a".to_string()]);
}

/// Only the first hop can be refused: a redirect to a busy host is waited
/// for, since deferring the task would request the first hop again.
#[tokio::test]
async fn a_redirect_to_a_busy_host_is_waited_for_not_refused() {
    let target = server(|_| html(article("Target", 3).as_bytes())).await;
    let page = target.url("/page");
    let short = server(move |_| redirect(&page)).await;
    let interval = Duration::from_millis(1500);
    let f = fetcher(FetchOptions {
        robots: false,
        host_interval: interval,
        ..options()
    });
    let bound = Some(Duration::from_millis(300));
    // Before the first fetch: its slot is where the interval starts.
    let started = Instant::now();
    f.fetch_within(&target.url("/first"), bound)
        .await
        .expect("the target's first slot is now");
    let got = f
        .fetch_within(&short.url("/s"), bound)
        .await
        .expect("the redirect's target is waited for");
    assert_eq!(got.url, target.url("/page"));
    assert!(started.elapsed() >= interval - Duration::from_millis(200));
    assert_eq!(short.paths(), vec!["/s".to_string()]);
}

/// A redirect to another host is a request to that host: its robots.txt
/// is read and obeyed, and its Crawl-delay spaces the requests that reach
/// it through short links on other hosts.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn redirect_targets_obey_their_own_robots_txt_and_crawl_delay() {
    let target = Server::start(|r: &Request| match r.path.as_str() {
        "/robots.txt" => robots_txt(b"User-agent: *\nDisallow: /private\nCrawl-delay: 1\n"),
        _ => html(article("Target page", 5).as_bytes()),
    })
    .await;
    let (private, one, two) = (
        target.url("/private/y"),
        target.url("/p/1"),
        target.url("/p/2"),
    );
    let short = server(move |r| match r.path.as_str() {
        "/x" => redirect(&private),
        "/s/1" => redirect(&one),
        _ => redirect(&two),
    })
    .await;
    let f = fetcher(options());
    let e = f.fetch(&short.url("/x")).await.expect_err("disallowed");
    assert!(
        matches!(
            e,
            FetchError::Robots {
                temporary: false,
                ..
            }
        ),
        "{e}"
    );
    assert_eq!(target.hits("/private/y"), 0);
    let started = Instant::now();
    let first = f.fetch(&short.url("/s/1")).await.expect("first");
    assert_eq!(first.url, target.url("/p/1"));
    f.fetch(&short.url("/s/2")).await.expect("second");
    assert!(
        started.elapsed() >= Duration::from_millis(900),
        "the target's crawl-delay not waited"
    );
    assert_eq!(target.hits("/robots.txt"), 1);
}

/// A name server for the robots.txt redirect test: `gone.test` does not
/// exist, `inside.test` is a private address, every other name is the
/// test server on loopback.
struct Names {
    port: u16,
}

impl linesift::fetch::Lookup for Names {
    fn lookup(
        &self,
        host: String,
    ) -> futures_util::future::BoxFuture<'static, std::io::Result<Vec<std::net::SocketAddr>>> {
        let port = self.port;
        Box::pin(async move {
            match host.as_str() {
                "gone.test" => Err(std::io::Error::other(
                    "failed to lookup address information: Name or service not known",
                )),
                "inside.test" => Ok(vec![std::net::SocketAddr::from(([10, 0, 0, 1], port))]),
                _ => Ok(vec![std::net::SocketAddr::from(([127, 0, 0, 1], port))]),
            }
        })
    }
}

/// A robots.txt redirected to a host that cannot be reached is the
/// robots.txt's failure, not the page's: a target that does not resolve
/// leaves it unreachable for now (the page is refused for the moment), a
/// target the guard refuses leaves it unavailable (everything allowed, as
/// for an IP literal). Neither fails the page as the page's own host's
/// DNS or address error would.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_robots_txt_redirected_out_of_reach_fails_only_the_robots_txt() {
    let srv = Server::start(|r: &Request| {
        let host = r.header("host").unwrap_or_default();
        let port = host.rsplit(':').next().unwrap_or_default().to_string();
        match (host.split(':').next(), r.path.as_str()) {
            (Some("a.test"), "/robots.txt") => {
                redirect(&format!("http://gone.test:{port}/robots.txt"))
            }
            (Some("b.test"), "/robots.txt") => {
                redirect(&format!("http://inside.test:{port}/robots.txt"))
            }
            _ => html(article("Reachable page", 4).as_bytes()),
        }
    })
    .await;
    let port = srv.addr.port();
    let f = Fetcher::with_lookup(
        Extractor::new(Options::default()),
        options(),
        std::sync::Arc::new(Names { port }),
    )
    .expect("client");
    let e = f
        .fetch(&format!("http://a.test:{port}/page"))
        .await
        .expect_err("robots.txt unreachable");
    assert!(
        matches!(
            e,
            FetchError::Robots {
                temporary: true,
                ..
            }
        ),
        "{e}"
    );
    let page = f
        .fetch(&format!("http://b.test:{port}/page"))
        .await
        .expect("robots.txt unavailable: allowed");
    assert!(page.document.text.contains("Reachable page"), "{page:?}");
}

/// robots.txt itself is often moved (to https, to a www host): its
/// redirects are followed, up to five, and its rules obeyed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_redirected_robots_txt_is_followed() {
    let srv = Server::start(|r: &Request| match r.path.as_str() {
        "/robots.txt" => redirect("/r/robots.txt"),
        "/r/robots.txt" => robots_txt(b"User-agent: *\nDisallow: /private\n"),
        _ => html(article("Page", 5).as_bytes()),
    })
    .await;
    let f = fetcher(options());
    let e = f
        .fetch(&srv.url("/private/z"))
        .await
        .expect_err("disallowed");
    assert!(matches!(e, FetchError::Robots { .. }), "{e}");
    assert_eq!(srv.hits("/private/z"), 0);
    f.fetch(&srv.url("/public")).await.expect("allowed");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn redirect_loops_and_long_chains_are_typed_errors() {
    let srv = server(|r| {
        let path = r.path.as_str();
        match path {
            "/a" => redirect("/b"),
            "/b" => redirect("/a"),
            _ => {
                let n: u32 = path.trim_start_matches("/n/").parse().unwrap_or(0);
                redirect(&format!("/n/{}", n + 1))
            }
        }
    })
    .await;
    let f = fetcher(FetchOptions {
        max_redirects: 3,
        ..options()
    });
    let e = f.fetch(&srv.url("/a")).await.expect_err("loop");
    assert!(matches!(e, FetchError::RedirectLoop { .. }), "{e}");
    let e = f.fetch(&srv.url("/n/0")).await.expect_err("too many");
    assert!(
        matches!(e, FetchError::TooManyRedirects { limit: 3, .. }),
        "{e}"
    );
    assert_eq!(srv.hits("/n/4"), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn statuses_are_errors_and_only_transient_ones_are_retried() {
    let srv = server(|r| match r.path.as_str() {
        "/404" => not_found(),
        "/500" => response("500 Internal Server Error", &[], b"oops"),
        _ => response("503 Service Unavailable", &[], b"busy"),
    })
    .await;
    let f = fetcher(options());
    for (path, status, hits) in [("/404", 404, 1), ("/500", 500, 1), ("/503", 503, 2)] {
        let e = f.fetch(&srv.url(path)).await.expect_err(path);
        assert!(
            matches!(e, FetchError::Status { status: s, .. } if s == status),
            "{e}"
        );
        assert_eq!(e.url(), Some(srv.url(path).as_str()));
        assert_eq!(srv.hits(path), hits, "{path}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn retry_after_is_waited_for_or_given_up_on() {
    let srv = server(|r| match r.path.as_str() {
        "/never" => response("429 Too Many Requests", &[("Retry-After", "3600")], b""),
        _ => response("429 Too Many Requests", &[("Retry-After", "1")], b""),
    })
    .await;
    let f = fetcher(options());
    let started = Instant::now();
    let e = f.fetch(&srv.url("/later")).await;
    // `/later` always answers 429 with Retry-After 1: one retry, then give up.
    assert!(matches!(e, Err(FetchError::Status { status: 429, .. })));
    assert_eq!(srv.hits("/later"), 2);
    assert!(started.elapsed() >= Duration::from_millis(900));
    let e = f.fetch(&srv.url("/never")).await.expect_err("429");
    assert!(
        matches!(e, FetchError::Status { status: 429, retry_after: Some(d), .. } if d == Duration::from_secs(3600)),
        "{e}"
    );
    assert_eq!(srv.hits("/never"), 1);
}

/// Retry-After is the server's word: a value past what the clock can hold
/// fails the fetch like any other refusal (it once panicked), and a long
/// one holds the host off only as long as a retry would be waited for,
/// not for an hour of every later task for that host. A 404's Retry-After
/// does not hold the host off at all.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_huge_or_long_retry_after_does_not_stall_the_host() {
    let srv = server(|r| match r.path.as_str() {
        "/huge" => response(
            "429 Too Many Requests",
            &[("Retry-After", "18446744073709551615")],
            b"",
        ),
        "/hour" => response("503 Service Unavailable", &[("Retry-After", "3600")], b""),
        "/gone" => response("404 Not Found", &[("Retry-After", "3600")], b""),
        _ => html(article("Still served", 5).as_bytes()),
    })
    .await;
    let mut o = options();
    o.retry.max_wait = Duration::from_secs(3);
    let f = fetcher(o);
    let e = f.fetch(&srv.url("/huge")).await.expect_err("429");
    assert!(matches!(e, FetchError::Status { status: 429, .. }), "{e}");
    let e = f.fetch(&srv.url("/gone")).await.expect_err("404");
    assert!(matches!(e, FetchError::Status { status: 404, .. }), "{e}");
    let started = Instant::now();
    let page = tokio::time::timeout(Duration::from_secs(10), f.fetch(&srv.url("/after-404")))
        .await
        .expect("a 404's Retry-After holds nothing off")
        .expect("page");
    assert!(page.document.text.contains("Still served"));
    assert!(
        started.elapsed() < Duration::from_millis(2500),
        "not held off"
    );
    let e = f.fetch(&srv.url("/hour")).await.expect_err("503");
    assert!(matches!(e, FetchError::Status { status: 503, .. }), "{e}");
    let started = Instant::now();
    let page = tokio::time::timeout(Duration::from_secs(10), f.fetch(&srv.url("/after-503")))
        .await
        .expect("the host is held off at most max_wait")
        .expect("page");
    assert!(page.document.text.contains("Still served"));
    assert!(
        started.elapsed() >= Duration::from_secs(2),
        "held off a while"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn retry_after_then_success() {
    let count = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let c = std::sync::Arc::clone(&count);
    let srv = server(move |_| {
        if c.fetch_add(1, std::sync::atomic::Ordering::SeqCst) == 0 {
            response("429 Too Many Requests", &[("Retry-After", "1")], b"")
        } else {
            html(article("Finally", 5).as_bytes())
        }
    })
    .await;
    let got = fetcher(options())
        .fetch(&srv.url("/p"))
        .await
        .expect("second try");
    assert_eq!(got.attempts, 2);
    assert!(got.document.text.contains("Finally"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn body_over_the_limit_is_truncated_or_refused() {
    let page = article("Long read", 300);
    let gz = gzip(page.as_bytes());
    let gz_br = brotli(&gzip(page.as_bytes()));
    let body = page.clone().into_bytes();
    let srv = server(move |r| match r.path.as_str() {
        "/gz" => response(
            "200 OK",
            &[("Content-Type", "text/html"), ("Content-Encoding", "gzip")],
            &gz,
        ),
        "/gz-br" => response(
            "200 OK",
            &[
                ("Content-Type", "text/html"),
                ("Content-Encoding", "gzip, br"),
            ],
            &gz_br,
        ),
        "/chunked" => chunked(
            &[("Content-Type", "text/html")],
            &body,
            4096,
            Duration::ZERO,
        ),
        _ => html(&body),
    })
    .await;
    let limit = 10_000u64;
    let mut opts = options();
    opts.body.max_body = limit;
    opts.body.oversize = Oversize::Truncate;
    for path in ["/plain", "/gz-br"] {
        let got = fetcher(opts.clone())
            .fetch(&srv.url(path))
            .await
            .expect("truncated");
        assert!(got.truncated, "{path}");
        assert_eq!(got.body_bytes, limit, "{path}");
        assert_eq!(got.document.bytes, limit, "{path}");
    }
    opts.body.oversize = Oversize::Refuse;
    let f = fetcher(opts);
    for path in ["/plain", "/chunked", "/gz", "/gz-br"] {
        let e = f.fetch(&srv.url(path)).await.expect_err(path);
        assert!(
            matches!(e, FetchError::TooLarge { limit: 10_000, .. }),
            "{path}: {e}"
        );
    }
    // The gzip body is far smaller than the limit: the limit is on decoded bytes.
    assert!(gzip(page.as_bytes()).len() < limit as usize);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn robots_txt_disallow_and_crawl_delay_are_obeyed() {
    let srv = Server::start(|r: &Request| match r.path.as_str() {
        "/robots.txt" => robots_txt(b"User-agent: *\nDisallow: /private\nCrawl-delay: 1\n"),
        _ => html(article("Public page", 5).as_bytes()),
    })
    .await;
    let f = fetcher(options());
    let e = f
        .fetch(&srv.url("/private/x"))
        .await
        .expect_err("disallowed");
    // A real Disallow stands: no point trying the page again.
    assert!(
        matches!(
            e,
            FetchError::Robots {
                temporary: false,
                ..
            }
        ),
        "{e}"
    );
    assert!(!e.is_transient());
    assert_eq!(srv.hits("/private/x"), 0);
    assert_eq!(
        f.host_interval(&srv.addr.to_string()),
        Duration::from_secs(1)
    );
    let started = Instant::now();
    f.fetch(&srv.url("/one")).await.expect("first");
    f.fetch(&srv.url("/two")).await.expect("second");
    assert!(
        started.elapsed() >= Duration::from_millis(900),
        "crawl-delay not waited"
    );
    assert_eq!(srv.hits("/robots.txt"), 1, "robots.txt is cached");

    let no_robots = fetcher(FetchOptions {
        robots: false,
        ..options()
    });
    no_robots
        .fetch(&srv.url("/private/y"))
        .await
        .expect("robots off");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn robots_txt_server_error_disallows_everything_for_now() {
    let srv = Server::start(|r: &Request| match r.path.as_str() {
        "/robots.txt" => response("503 Service Unavailable", &[], b""),
        _ => html(article("Page", 5).as_bytes()),
    })
    .await;
    let e = fetcher(options())
        .fetch(&srv.url("/page"))
        .await
        .expect_err("5xx robots");
    // Only until robots.txt can be read: the page may be tried later (the
    // worker requeues it rather than dead-lettering it as disallowed).
    assert!(
        matches!(
            e,
            FetchError::Robots {
                temporary: true,
                ..
            }
        ),
        "{e}"
    );
    assert!(e.is_transient());
    assert_eq!(srv.hits("/page"), 0);
}

/// A robots.txt in codings the fetcher does not decode (more stacked than
/// it decodes, or an unknown one over a body that looks coded: a gzip
/// magic number, or brotli's bytes, which have none) cannot be read: it
/// disallows everything for now, as an unreadable one does, instead of
/// reaching the parser still compressed and allowing everything.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_robots_txt_in_a_coding_not_decoded_disallows_everything_for_now() {
    let rules = b"User-agent: *\nDisallow: /\n";
    for (coding, body) in [
        ("gzip, gzip, gzip", gzip(&gzip(&gzip(rules)))),
        ("compress", gzip(rules)),
        ("none", brotli(rules)),
    ] {
        let srv = Server::start(move |r: &Request| match r.path.as_str() {
            "/robots.txt" => response(
                "200 OK",
                &[("Content-Type", "text/plain"), ("Content-Encoding", coding)],
                &body,
            ),
            _ => html(article("Page", 5).as_bytes()),
        })
        .await;
        let e = fetcher(options())
            .fetch(&srv.url("/page"))
            .await
            .expect_err("robots.txt unreadable");
        assert!(
            matches!(
                e,
                FetchError::Robots {
                    temporary: true,
                    ..
                }
            ),
            "{coding}: {e}"
        );
        assert_eq!(srv.hits("/page"), 0, "{coding}");
    }
}

/// A plain robots.txt under a bogus `Content-Encoding` that no browser
/// decodes either (`none`, a charset, a media type, `identity` with a
/// parameter) is read as it came and obeyed, as a page under one is read:
/// it used to disallow everything for the host, renewed for ever.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_plain_robots_txt_under_a_bogus_coding_is_obeyed() {
    for coding in ["none", "UTF-8", "utf-8", "text/plain", "identity;q=1"] {
        let srv = Server::start(move |r: &Request| {
            let (kind, body) = match r.path.as_str() {
                "/robots.txt" => (
                    "text/plain",
                    b"User-agent: *\r\nDisallow: /private\r\n".to_vec(),
                ),
                _ => (
                    "text/html; charset=utf-8",
                    article("Public page", 5).into_bytes(),
                ),
            };
            response(
                "200 OK",
                &[("Content-Type", kind), ("Content-Encoding", coding)],
                &body,
            )
        })
        .await;
        let f = fetcher(options());
        f.fetch(&srv.url("/public"))
            .await
            .unwrap_or_else(|e| panic!("{coding}: allowed: {e}"));
        let e = f
            .fetch(&srv.url("/private/x"))
            .await
            .expect_err("disallowed");
        assert!(
            matches!(
                e,
                FetchError::Robots {
                    temporary: false,
                    ..
                }
            ),
            "{coding}: robots.txt not obeyed: {e}"
        );
        assert_eq!(srv.hits("/private/x"), 0, "{coding}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn non_html_is_skipped_with_a_reason() {
    let srv = server(|_| {
        response(
            "200 OK",
            &[("Content-Type", "application/pdf")],
            b"%PDF-1.7",
        )
    })
    .await;
    let e = fetcher(options())
        .fetch(&srv.url("/doc.pdf"))
        .await
        .expect_err("pdf");
    match e {
        FetchError::NotHtml { content_type, url } => {
            assert_eq!(content_type, "application/pdf");
            assert_eq!(url, srv.url("/doc.pdf"));
        }
        other => panic!("expected NotHtml, got {other}"),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn header_charset_reaches_the_core_even_when_wrong() {
    let utf8 = "<html><head><title>Café culture</title></head><body>\
                <p>Le café du coin sert un crème brûlée délicieuse, à déguster en terrasse.</p>\
                </body></html>"
        .as_bytes()
        .to_vec();
    let latin1: Vec<u8> =
        "<html><body><p>Le café du coin, à déguster en terrasse.</p></body></html>"
            .chars()
            .map(|c| c as u32 as u8)
            .collect();
    let (u, l) = (utf8.clone(), latin1.clone());
    let srv = server(move |r| {
        let ct = [("Content-Type", "text/html; charset=ISO-8859-1")];
        if r.path == "/utf8" {
            response("200 OK", &ct, &u)
        } else {
            response("200 OK", &ct, &l)
        }
    })
    .await;
    let f = fetcher(options());
    let wrong = f.fetch(&srv.url("/utf8")).await.expect("utf8");
    assert_eq!(
        wrong.document.clone(),
        in_memory(&utf8, &srv.url("/utf8"), Some("ISO-8859-1"))
    );
    assert_eq!(wrong.document.encoding_source, "utf8_override");
    assert!(wrong.document.text.contains("café"));
    let right = f.fetch(&srv.url("/latin1")).await.expect("latin1");
    assert_eq!(right.document.encoding_source, "declared");
    assert!(
        right.document.text.contains("café"),
        "{}",
        right.document.text
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stalled_body_hits_the_read_timeout() {
    let page = article("Stalled", 30).into_bytes();
    let srv = server(move |_| {
        let mut steps = chunked(
            &[("Content-Type", "text/html")],
            &page[..2000],
            1000,
            Duration::ZERO,
        );
        steps.pop(); // no terminating chunk: the body stalls
        steps.push(Step::Sleep(Duration::from_secs(20)));
        steps
    })
    .await;
    let f = fetcher(FetchOptions {
        read_timeout: Duration::from_millis(300),
        retry: RetryPolicy {
            retries: 0,
            ..RetryPolicy::default()
        },
        ..options()
    });
    let started = Instant::now();
    let e = f.fetch(&srv.url("/stall")).await.expect_err("stall");
    assert!(matches!(e, FetchError::Timeout { .. }), "{e}");
    assert!(started.elapsed() < Duration::from_secs(5));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn broken_chunking_is_an_http_error() {
    let srv = server(|_| {
        vec![
            Step::Send(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nhello\r\n".to_vec()),
            Step::Close,
        ]
    })
    .await;
    let e = fetcher(options())
        .fetch(&srv.url("/bad"))
        .await
        .expect_err("bad chunking");
    assert!(matches!(e, FetchError::Http { .. }), "{e}");
}

/// A password in the URL asked for does not reach the error (logs,
/// dead-letter reasons, Failure events), whatever the failure.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn credentials_in_a_url_stay_out_of_its_errors() {
    let srv = server(|_| not_found()).await;
    let f = one_try_fetcher();
    let port = srv.addr.port();
    let gone = f
        .fetch(&format!("http://crawler:s3cret@127.0.0.1:{port}/gone"))
        .await
        .expect_err("404");
    assert!(
        matches!(gone, FetchError::Status { status: 404, .. }),
        "{gone}"
    );
    let closed = free_local_port();
    let unreachable = f
        .fetch(&format!("http://crawler:s3cret@127.0.0.1:{closed}/"))
        .await
        .expect_err("nothing listens");
    let private = f
        .fetch("http://crawler:s3cret@10.0.0.1/admin")
        .await
        .expect_err("a private address");
    assert!(
        matches!(private, FetchError::RefusedAddress { .. }),
        "{private}"
    );
    for e in [gone, unreachable, private] {
        let shown = format!("{e} {e:?}");
        assert!(!shown.contains("s3cret"), "{shown}");
        assert!(!shown.contains("crawler"), "{shown}");
    }
}

/// A host that refuses connections fails as a refused connection (the
/// transient `connect`), also when its robots.txt is the first thing asked
/// of it: not as a page robots.txt disallows.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_host_refusing_connections_is_a_connection_failure_not_robots() {
    let closed = free_local_port();
    for robots in [true, false] {
        let f = fetcher(FetchOptions {
            retry: RetryPolicy {
                retries: 0,
                ..RetryPolicy::default()
            },
            robots,
            ..options()
        });
        let e = f
            .fetch(&format!("http://127.0.0.1:{closed}/page"))
            .await
            .expect_err("nothing listens");
        assert!(
            matches!(e, FetchError::Connect { .. }),
            "robots {robots}: {e}"
        );
        assert_eq!(e.kind(), "connect");
        assert!(e.is_transient(), "{e}");
        assert!(!e.to_string().contains("robots.txt unreachable"), "{e}");
    }
}

/// A port nothing listens on (bound, then let go).
fn free_local_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free port")
}

/// A connection that closes before the body its Content-Length promised
/// is a server cut off (restarting, overloaded), worth another try, not a
/// malformed response: `Connect`, which is transient.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_body_cut_off_by_a_closed_connection_is_a_transient_connect_error() {
    let srv = server(|_| {
        vec![
            Step::Send(
                b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 5000\r\n\r\n<html><body><p>half"
                    .to_vec(),
            ),
            Step::Close,
        ]
    })
    .await;
    let e = one_try_fetcher()
        .fetch(&srv.url("/cut"))
        .await
        .expect_err("cut off");
    assert!(matches!(e, FetchError::Connect { .. }), "{e}");
    assert!(e.is_transient(), "{e}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn redirects_to_private_addresses_are_refused_before_connecting() {
    let srv = server(|r| match r.path.as_str() {
        "/meta" => redirect("http://169.254.169.254/latest/meta-data/"),
        "/ten" => redirect("http://10.0.0.1/admin"),
        "/mapped" => redirect("http://[::ffff:a9fe:a9fe]/"),
        _ => not_found(),
    })
    .await;
    let f = fetcher(FetchOptions {
        connect_timeout: Duration::from_secs(30),
        ..options()
    });
    for (path, addr) in [
        ("/meta", "169.254.169.254"),
        ("/ten", "10.0.0.1"),
        ("/mapped", "::ffff:169.254.169.254"),
    ] {
        let started = Instant::now();
        let e = f.fetch(&srv.url(path)).await.expect_err(path);
        match &e {
            FetchError::RefusedAddress { addr: a, .. } => assert_eq!(a.to_string(), addr),
            other => panic!("{path}: expected RefusedAddress, got {other}"),
        }
        // A connection attempt would wait for the 30 s connect timeout.
        assert!(started.elapsed() < Duration::from_secs(5));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn loopback_is_refused_by_default_on_literals_and_resolved_names() {
    let srv = server(|_| html(b"<p>secret</p>")).await;
    let f = fetcher(FetchOptions {
        guard: Guard::default(),
        ..options()
    });
    let e = f.fetch(&srv.url("/")).await.expect_err("literal");
    assert!(matches!(e, FetchError::RefusedAddress { .. }), "{e}");
    let by_name = format!("http://localhost:{}/", srv.addr.port());
    let e = f.fetch(&by_name).await.expect_err("resolved name");
    assert!(matches!(e, FetchError::RefusedAddress { .. }), "{e}");
    assert!(srv.paths().is_empty(), "the server was contacted");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connect_errors_and_bad_urls_are_typed() {
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
        l.local_addr().expect("addr").port()
    };
    let f = one_try_fetcher();
    let e = f
        .fetch(&format!("http://127.0.0.1:{port}/"))
        .await
        .expect_err("closed port");
    assert!(matches!(e, FetchError::Connect { .. }), "{e}");
    for bad in ["ftp://example.com/", "not a url", "http://[::1/"] {
        let e = f.fetch(bad).await.expect_err(bad);
        assert!(matches!(e, FetchError::InvalidUrl { .. }), "{bad}: {e}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tls_failures_are_typed() {
    // A plain-HTTP server answering a TLS handshake: rustls rejects it.
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    let task = tokio::spawn(async move {
        while let Ok((mut stream, _)) = listener.accept().await {
            use tokio::io::AsyncWriteExt;
            let _ = stream.write_all(b"HTTP/1.1 400 Bad Request\r\n\r\n").await;
        }
    });
    let f = one_try_fetcher();
    let e = f
        .fetch(&format!("https://{addr}/"))
        .await
        .expect_err("not TLS");
    task.abort();
    assert!(matches!(e, FetchError::Tls { .. }), "{e}");
}

/// A name server whose answer for every name turns from loopback to a
/// private address when the test says so: DNS rebinding.
struct Rebinding {
    port: u16,
    rebound: std::sync::atomic::AtomicBool,
}

impl linesift::fetch::Lookup for Rebinding {
    fn lookup(
        &self,
        _host: String,
    ) -> futures_util::future::BoxFuture<'static, std::io::Result<Vec<std::net::SocketAddr>>> {
        let ip = if self.rebound.load(std::sync::atomic::Ordering::SeqCst) {
            [10, 0, 0, 1]
        } else {
            [127, 0, 0, 1]
        };
        let addr = std::net::SocketAddr::from((ip, self.port));
        Box::pin(async move { Ok(vec![addr]) })
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_name_that_rebinds_to_a_private_address_is_refused_on_the_next_connection() {
    // Every reply closes its connection, so each request connects anew.
    let srv = server(|_| {
        let mut steps = html(article("Rebinding", 4).as_bytes());
        steps.push(Step::Close);
        steps
    })
    .await;
    let dns = std::sync::Arc::new(Rebinding {
        port: srv.addr.port(),
        rebound: false.into(),
    });
    let f = Fetcher::with_lookup(
        Extractor::new(Options::default()),
        FetchOptions {
            connect_timeout: Duration::from_secs(30),
            ..options()
        },
        dns.clone(),
    )
    .expect("client");
    let url = format!("http://rebind.test:{}/page", srv.addr.port());
    let first = f.fetch(&url).await.expect("loopback is allowed here");
    assert!(first.document.text.contains("Rebinding"), "{first:?}");
    let hits = srv.hits("/page");
    dns.rebound.store(true, std::sync::atomic::Ordering::SeqCst);
    let started = Instant::now();
    let e = f.fetch(&url).await.expect_err("rebound to 10.0.0.1");
    match &e {
        FetchError::RefusedAddress { addr, .. } => assert_eq!(addr.to_string(), "10.0.0.1"),
        other => panic!("expected RefusedAddress, got {other}"),
    }
    // Refused before connecting: a connection attempt to 10.0.0.1 would
    // wait for the 30 s connect timeout.
    assert!(started.elapsed() < Duration::from_secs(5));
    assert_eq!(srv.hits("/page"), hits);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn credentials_are_sent_but_not_kept_in_the_page_s_url() {
    let srv = server(|r| {
        let auth = r.header("authorization").unwrap_or("none").to_string();
        html(
            format!("<html><head><title>In</title></head><body><p>{auth}</p></body></html>")
                .as_bytes(),
        )
    })
    .await;
    let url = srv.url("/in").replacen("http://", "http://user:s3cret@", 1);
    let fetched = one_try_fetcher().fetch(&url).await.expect("fetch");
    // Basic user:s3cret, as the request sent it.
    assert!(
        fetched.document.text.contains("Basic dXNlcjpzM2NyZXQ="),
        "{}",
        fetched.document.text
    );
    assert_eq!(fetched.url, srv.url("/in"));
    assert_eq!(
        fetched.document.url.as_deref(),
        Some(srv.url("/in").as_str())
    );
}
