//! The worker's settings as plain data (the CLI fills them from flags and
//! environment) and their printable form with secrets masked. Parses
//! nothing from the environment itself.

use super::topology::Names;
use crate::proto::Encoding;
use std::net::SocketAddr;
use std::time::Duration;

/// Deliveries of one task before the worker gives up on it, unless told
/// otherwise: the task queue's `x-delivery-limit`, and the attempts
/// `linesift run` makes.
pub const DEFAULT_DELIVERY_LIMIT: u32 = 5;

/// Everything the worker can be told.
#[derive(Debug, Clone)]
pub struct WorkerConfig {
    pub amqp_url: String,
    pub names: Names,
    /// Unacked deliveries the broker hands this worker at once.
    pub prefetch: u16,
    /// Tasks processed at once (at most `prefetch` are ever held).
    pub concurrency: usize,
    /// Deliveries of one task before it is dead-lettered (quorum queue
    /// `x-delivery-limit`, and our own last-attempt check).
    pub delivery_limit: u32,
    /// Pause before a transiently failed task is requeued, so a flaky
    /// server is not hammered in a tight loop.
    pub retry_delay: Duration,
    /// Encoding of published results.
    pub encoding: Encoding,
    /// After SIGTERM/SIGINT: time allowed for in-flight tasks.
    pub drain_deadline: Duration,
    /// Pause between reconnect attempts.
    pub reconnect_delay: Duration,
    /// Address of the /metrics, /healthz, /readyz server (None: no server).
    pub http: Option<SocketAddr>,
    /// Largest WARC payload handed to the core.
    pub max_payload: usize,
    /// Largest decompressed gzip member / zstd frame of a WARC file.
    pub max_member: u64,
    /// Wall-clock limit of one task (one delivery); `None`: no limit.
    pub task_deadline: Option<Duration>,
    /// Longest wait for a host's turn while holding a slot; a task for a
    /// host busy longer is deferred (`None`: never deferred).
    pub max_host_wait: Option<Duration>,
    /// How long a deferred task waits in the delay queue.
    pub defer_delay: Duration,
    /// Deferrals of one task before it waits for its host however long.
    pub max_deferrals: u32,
    /// Dead-letter outcomes (404, not HTML, robots.txt, ...: see
    /// `TaskError::is_outcome`) as faults are, as the worker did before
    /// outcomes were told apart; off: an outcome is a confirmed fatal
    /// `Failure` event and an ack.
    pub dead_letter_outcomes: bool,
    /// Declare the documents and failures queues (`names.documents`,
    /// `names.failures`) and bind them to the results exchange; off for
    /// deployments that bind their own.
    pub bind_results: bool,
    /// Publish each document's outlinks apart, for a crawl frontier
    /// (`None`: not published).
    pub links: Option<LinksRoute>,
    /// Documents carry their outlinks (`links`) too; off, the links are
    /// published under `links` alone.
    pub links_in_documents: bool,
}

/// Where a document's outlinks go: one `PageLinks` message per document,
/// on the results exchange.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinksRoute {
    /// The routing key of the links messages.
    pub routing_key: String,
    /// The queue the worker declares and binds with that routing key (when
    /// it binds its results queues).
    pub queue: String,
}

impl WorkerConfig {
    /// A readable summary for the start-up log, password masked.
    pub fn describe(&self) -> String {
        format!(
            "amqp={} tasks={} dlx={} dlq={} results={} prefetch={} concurrency={} \
             delivery_limit={} retry_delay={:?} encoding={:?} drain={:?} http={} \
             max_payload={} max_member={} task_deadline={} delay={} max_host_wait={} \
             defer_delay={:?} max_deferrals={} dead_letter_outcomes={} documents={} \
             failures={} bind_results={} links={}",
            mask_password(&self.amqp_url),
            self.names.tasks,
            self.names.dead_letter_exchange,
            self.names.dead_letter_queue,
            self.names.results,
            self.prefetch,
            self.concurrency,
            self.delivery_limit,
            self.retry_delay,
            self.encoding,
            self.drain_deadline,
            self.http
                .map_or_else(|| "off".to_string(), |a| a.to_string()),
            self.max_payload,
            self.max_member,
            self.task_deadline
                .map_or_else(|| "off".to_string(), |d| format!("{d:?}")),
            self.names.delay,
            self.max_host_wait
                .map_or_else(|| "off".to_string(), |d| format!("{d:?}")),
            self.defer_delay,
            self.max_deferrals,
            self.dead_letter_outcomes,
            self.names.documents,
            self.names.failures,
            self.bind_results,
            self.links.as_ref().map_or_else(
                || "off".to_string(),
                |l| format!("{}->{}", l.routing_key, l.queue)
            ),
        )
    }
}

/// The URL with any password replaced by `***`. Unparsable URLs are
/// hidden entirely: they might hold a password we cannot find.
pub fn mask_password(url: &str) -> String {
    match url::Url::parse(url) {
        Ok(mut parsed) => {
            if parsed.password().is_some() && parsed.set_password(Some("***")).is_err() {
                return "<unprintable url>".into();
            }
            parsed.to_string()
        }
        Err(_) => "<unparsable url>".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_are_masked() {
        assert_eq!(
            mask_password("amqp://guest:secret@127.0.0.1:5672/%2f"),
            "amqp://guest:***@127.0.0.1:5672/%2f"
        );
        assert_eq!(
            mask_password("amqp://127.0.0.1:5672"),
            "amqp://127.0.0.1:5672"
        );
        assert!(!mask_password("not a url secret").contains("secret"));
    }
}
