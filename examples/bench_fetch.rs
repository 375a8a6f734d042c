//! Fetch-and-extract throughput against a local raw HTTP server on
//! 127.0.0.1: pages/s at 1, 16 and 100 concurrent connections, and the
//! resident memory added per in-flight page (peak RSS during the run minus
//! RSS before it, divided by the concurrency). Server and client share the
//! process and its cores, so the figures are a floor for the fetcher.
//!
//! `cargo run --release --example bench_fetch [PAGES] [PARAGRAPHS]`
//! (or `scripts/bench-fetch.sh`).

#[path = "../tests/fetch_support/mod.rs"]
mod fetch_support;

use fetch_support::{Request, Server, article, html, not_found};
use futures_util::StreamExt;
use linesift::fetch::{FetchOptions, Fetcher, Guard};
use linesift::{Extractor, Options};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let pages: usize = args.next().map_or(Ok(2000), |a| a.parse())?;
    let paragraphs: usize = args.next().map_or(Ok(60), |a| a.parse())?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    runtime.block_on(bench(pages, paragraphs))
}

async fn bench(pages: usize, paragraphs: usize) -> Result<(), Box<dyn std::error::Error>> {
    let body = Arc::new(article("Benchmark story", paragraphs).into_bytes());
    let page_len = body.len();
    let served = Arc::clone(&body);
    let srv = Server::start(move |r: &Request| match r.path.as_str() {
        "/robots.txt" => not_found(),
        _ => html(&served),
    })
    .await;
    println!(
        "page: {page_len} bytes; {} worker threads; server in-process on {}",
        std::thread::available_parallelism().map_or(1, |n| n.get()),
        srv.addr
    );
    println!(
        "concurrency   pages   seconds   pages/s     MB/s   peak RSS +MiB   KiB per in-flight page"
    );
    for concurrency in [1usize, 16, 100] {
        let n = if concurrency == 1 {
            pages.min(500)
        } else {
            pages
        };
        run(&srv, concurrency, n, page_len).await?;
    }
    Ok(())
}

async fn run(
    srv: &Server,
    concurrency: usize,
    n: usize,
    page_len: usize,
) -> Result<(), Box<dyn std::error::Error>> {
    let fetcher = Fetcher::new(
        Extractor::new(Options::default()),
        FetchOptions {
            guard: Guard {
                allow_loopback: true,
                allow_private: false,
                allow_metadata: false,
            },
            host_interval: Duration::ZERO,
            ..FetchOptions::default()
        },
    )?;
    // Warm up: robots.txt, connections.
    fetch_many(&fetcher, srv, concurrency, concurrency).await?;
    let baseline = rss_kib();
    let peak = Arc::new(AtomicU64::new(baseline));
    let done = Arc::new(AtomicBool::new(false));
    let sampler = tokio::spawn(sample_rss(Arc::clone(&peak), Arc::clone(&done)));
    let started = Instant::now();
    fetch_many(&fetcher, srv, concurrency, n).await?;
    let secs = started.elapsed().as_secs_f64();
    done.store(true, Ordering::Relaxed);
    sampler.await?;
    let grown = peak.load(Ordering::Relaxed).saturating_sub(baseline);
    println!(
        "{concurrency:>11} {n:>7} {secs:>9.2} {:>9.0} {:>8.1} {:>15.1} {:>24.1}",
        n as f64 / secs,
        (n * page_len) as f64 / secs / 1e6,
        grown as f64 / 1024.0,
        grown as f64 / concurrency as f64,
    );
    Ok(())
}

async fn fetch_many(
    fetcher: &Fetcher,
    srv: &Server,
    concurrency: usize,
    n: usize,
) -> Result<(), Box<dyn std::error::Error>> {
    let urls: Vec<String> = (0..n).map(|i| srv.url(&format!("/p/{i}"))).collect();
    let results: Vec<_> = futures_util::stream::iter(urls.iter().map(|u| fetcher.fetch(u)))
        .buffer_unordered(concurrency)
        .collect()
        .await;
    for r in results {
        let page = r?;
        if page.document.text.is_empty() {
            return Err("empty extraction".into());
        }
    }
    Ok(())
}

async fn sample_rss(peak: Arc<AtomicU64>, done: Arc<AtomicBool>) {
    while !done.load(Ordering::Relaxed) {
        peak.fetch_max(rss_kib(), Ordering::Relaxed);
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
}

/// Resident set size in KiB (Linux; 0 elsewhere).
fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|v| v.parse().ok())
        })
        .unwrap_or(0)
}
