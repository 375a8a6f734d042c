//! The queue worker: consumes [`Task`](crate::proto::Task)s from a
//! RabbitMQ quorum queue, runs them through the fetcher or the WARC reader
//! and the extraction core, publishes documents and failures to a topic
//! exchange on a confirm channel, and acks a task only after all its
//! results are confirmed (at-least-once; duplicates carry stable ids).
//!
//! One module per concern: `config` (settings, masking) · `topology`
//! (queues and exchanges) · `consume` (the loop: prefetch, concurrency,
//! ack/retry/dead-letter, reconnect, drain) · `process` (one task, no AMQP) · `kinds` (what each
//! failure kind means)
//! · `publish` (confirmed publishing) · `shutdown` (signals) · `metrics`
//! (Prometheus) · `tally` (every delivery counted once) · `http` (/metrics, /healthz, /readyz) · `enqueue`
//! (producing tasks) · `results` (results read back as JSON lines). Scaling out is running more workers on the same
//! queue; there is no coordination between workers.

pub mod cdx;
pub mod config;
pub mod consume;
pub mod enqueue;
pub mod http;
pub mod kinds;
pub mod metrics;
pub mod process;
pub mod publish;
pub mod results;
pub mod shutdown;
pub mod tally;
pub mod topology;

pub use config::WorkerConfig;
pub use metrics::Metrics;
pub use process::Processor;
pub use shutdown::Shutdown;
pub use topology::Names;

use crate::Extractor;
use crate::fetch::{FetchError, FetchOptions, Fetcher};
use crate::warc::ReaderOptions;
use std::sync::Arc;

/// Why the worker could not start (once running, it survives broker
/// trouble by reconnecting).
#[derive(Debug, thiserror::Error)]
pub enum WorkerError {
    #[error("metrics: {0}")]
    Metrics(#[from] prometheus::Error),
    #[error("fetcher: {0}")]
    Fetch(#[from] FetchError),
    #[error("cannot listen on {addr}: {source}")]
    Listen {
        addr: std::net::SocketAddr,
        source: std::io::Error,
    },
}

/// Runs a worker until `shutdown` is triggered and it has drained. The
/// HTTP endpoints, when configured, live as long as the worker.
pub async fn run(
    config: WorkerConfig,
    extractor: Extractor,
    fetch: FetchOptions,
    shutdown: Shutdown,
) -> Result<(), WorkerError> {
    let metrics = Metrics::new()?;
    let health = http::Health::new(metrics.clone());
    let server = match config.http {
        Some(addr) => {
            let listener = http::bind(addr)
                .await
                .map_err(|source| WorkerError::Listen { addr, source })?;
            Some(tokio::spawn(http::serve(listener, health.clone())))
        }
        None => None,
    };
    // The links messages need the links read, whatever the options say.
    let extractor = match config.links.is_some() && !extractor.options().links {
        true => Extractor::new(crate::extract::Options {
            links: true,
            ..*extractor.options()
        }),
        false => extractor,
    };
    let fetcher = Fetcher::new(extractor.clone(), fetch)?;
    let reader = ReaderOptions {
        max_payload: config.max_payload,
        max_member: config.max_member,
    };
    let processor = Arc::new(
        Processor::new(fetcher, extractor, reader, metrics.clone())
            .with_deadline(config.task_deadline),
    );
    consume::run(Arc::new(config), processor, health, shutdown).await;
    log_totals(&metrics);
    if let Some(server) = server {
        server.abort();
    }
    Ok(())
}

/// The worker's last line: how every delivery it received ended, so that
/// the counters' equation can be checked on a worker that has stopped
/// (and whose `/metrics` is gone with it).
fn log_totals(metrics: &Metrics) {
    let t = tally::Totals::of(metrics);
    tracing::info!(
        received = t.received,
        acked = t.acked,
        outcomes = t.outcomes,
        retried = t.retried,
        deferred = t.deferred,
        dead_lettered = t.dead_lettered,
        abandoned = t.abandoned,
        in_flight = t.in_flight,
        add_up = t.add_up(),
        "worker stopped; deliveries by how they ended"
    );
}
