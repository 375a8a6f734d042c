//! `linesift worker`: flags and environment to a [`WorkerConfig`], then
//! the library's worker on a tokio runtime until SIGTERM/SIGINT. Also the
//! broker flags shared with `linesift enqueue`.

use super::options::{ExtractOptions, body_limit, parse_size, parse_size_usize};
use anyhow::Context;
use clap::builder::BoolishValueParser;
use linesift::Extractor;
use linesift::fetch::{FetchOptions, Guard};
use linesift::proto::Encoding;
use linesift::warc::ReaderOptions;
use linesift::worker::config::LinksRoute;
use linesift::worker::topology::{ROUTING_DOCUMENT, ROUTING_FAILURE};
use linesift::worker::{self, Names, Shutdown, WorkerConfig};
use std::net::SocketAddr;
use std::process::ExitCode;
use std::time::Duration;

/// Where the broker is and what its objects are called.
#[derive(Debug, clap::Args)]
pub struct QueueArgs {
    /// AMQP URL of the broker (the password is never printed).
    #[arg(
        long,
        env = "AMQP_URL",
        // clap prints an env var's value in --help unless told not to.
        hide_env_values = true,
        default_value = "amqp://guest:guest@127.0.0.1:5672/%2f"
    )]
    pub amqp_url: String,
    /// Prefix of the default names: PREFIX.tasks, .dlx, .dead, .results,
    /// .delay, and the worker's .documents and .failures.
    #[arg(long, env = "LINESIFT_PREFIX", default_value = "linesift")]
    pub prefix: String,
    /// Task queue name (default PREFIX.tasks).
    #[arg(long, env = "LINESIFT_TASK_QUEUE")]
    pub task_queue: Option<String>,
    /// Dead-letter exchange (default PREFIX.dlx).
    #[arg(long, env = "LINESIFT_DEAD_LETTER_EXCHANGE")]
    pub dead_letter_exchange: Option<String>,
    /// Dead-letter queue (default PREFIX.dead).
    #[arg(long, env = "LINESIFT_DEAD_LETTER_QUEUE")]
    pub dead_letter_queue: Option<String>,
    /// Results topic exchange (default PREFIX.results).
    #[arg(long, env = "LINESIFT_RESULTS_EXCHANGE")]
    pub results_exchange: Option<String>,
    /// Delay queue for tasks whose host is busy (default: the task queue's
    /// name with .tasks replaced by .delay, or .delay added; PREFIX.delay
    /// for PREFIX.tasks). One per task queue: it hands tasks back to one.
    #[arg(long, env = "LINESIFT_DELAY_QUEUE")]
    pub delay_queue: Option<String>,
    /// Deliveries of one task before it is dead-lettered (at least 1).
    #[arg(long, env = "LINESIFT_DELIVERY_LIMIT", default_value_t = worker::config::DEFAULT_DELIVERY_LIMIT,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub delivery_limit: u32,
    /// Message encoding written: protobuf, or json for debugging.
    #[arg(long, env = "LINESIFT_ENCODING", default_value = "protobuf")]
    pub encoding: EncodingArg,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum EncodingArg {
    Protobuf,
    Json,
}

impl QueueArgs {
    pub fn names(&self) -> Names {
        let defaults = Names::with_prefix(&self.prefix);
        let tasks = self.task_queue.clone().unwrap_or(defaults.tasks);
        Names {
            delay: self
                .delay_queue
                .clone()
                .unwrap_or_else(|| Names::delay_for(&tasks)),
            tasks,
            dead_letter_exchange: self
                .dead_letter_exchange
                .clone()
                .unwrap_or(defaults.dead_letter_exchange),
            dead_letter_queue: self
                .dead_letter_queue
                .clone()
                .unwrap_or(defaults.dead_letter_queue),
            results: self.results_exchange.clone().unwrap_or(defaults.results),
            documents: defaults.documents,
            failures: defaults.failures,
        }
    }

    /// The broker's URL, checked ([`checked_amqp_url`]).
    pub fn amqp_url(&self) -> anyhow::Result<String> {
        checked_amqp_url(&self.amqp_url)
    }

    pub fn encoding(&self) -> Encoding {
        match self.encoding {
            EncodingArg::Protobuf => Encoding::Protobuf,
            EncodingArg::Json => Encoding::Json,
        }
    }
}

/// An `amqp://` or `amqps://` URL, trimmed. A value that is not one is
/// refused without being shown, since it may hold a password (lapin's own
/// error quotes it whole: `amqp://` left off leaves `user:password@host`).
pub fn checked_amqp_url(url: &str) -> anyhow::Result<String> {
    let url = url.trim();
    match url::Url::parse(url) {
        Ok(parsed) if matches!(parsed.scheme(), "amqp" | "amqps") => Ok(url.to_string()),
        _ => anyhow::bail!(
            "--amqp-url (AMQP_URL) is no amqp:// or amqps:// URL \
             (not shown: it may hold a password)"
        ),
    }
}

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    queue: QueueArgs,
    /// Unacked tasks the broker hands this worker at once (at least 1).
    #[arg(long, env = "LINESIFT_PREFETCH", default_value_t = 32,
          value_parser = clap::value_parser!(u16).range(1..))]
    prefetch: u16,
    /// Tasks processed at once (at least 1).
    #[arg(long, env = "LINESIFT_CONCURRENCY", default_value_t = 16,
          value_parser = super::options::at_least_one())]
    concurrency: usize,
    /// Seconds to hold a transiently failed task before requeueing it.
    #[arg(long, env = "LINESIFT_RETRY_DELAY", default_value_t = 1.0)]
    retry_delay: f64,
    /// Seconds allowed for in-flight tasks after SIGTERM/SIGINT.
    #[arg(long, env = "LINESIFT_DRAIN_DEADLINE", default_value_t = 30.0)]
    drain_deadline: f64,
    /// Seconds between reconnect attempts.
    #[arg(long, env = "LINESIFT_RECONNECT_DELAY", default_value_t = 2.0)]
    reconnect_delay: f64,
    /// Address for /metrics, /healthz and /readyz; `off` for none.
    #[arg(long, env = "LINESIFT_HTTP", default_value = "0.0.0.0:9898")]
    http: String,
    /// Longest wait, in seconds, for a host's turn (its interval,
    /// Crawl-delay, Retry-After) while holding a task slot: a task for a
    /// host busy for longer is put aside in the delay queue for
    /// --defer-delay and comes back after. 0 never puts a task aside.
    #[arg(
        long,
        env = "LINESIFT_MAX_HOST_WAIT",
        value_name = "SECONDS",
        default_value_t = 5.0
    )]
    max_host_wait: f64,
    /// Seconds a put-aside task waits in the delay queue (at least 1 ms).
    /// The queue is declared with it, and the broker refuses a second
    /// declaration with another wait (the worker reports that): to change
    /// it, give the workers a new --delay-queue and delete the old queue
    /// once it is empty (its tasks go back to the task queue as they
    /// expire; deleting it sooner drops them).
    #[arg(
        long,
        env = "LINESIFT_DEFER_DELAY",
        value_name = "SECONDS",
        default_value_t = 30.0
    )]
    defer_delay: f64,
    /// Times one task may be put aside; after that it waits for its host
    /// however long it takes, so a task for a host that stays busy still
    /// gets done. Each round costs the broker a publish and an expiry per
    /// task, and a long list of one host's URLs goes round the delay queue
    /// that many times: keep it small.
    #[arg(long, env = "LINESIFT_MAX_DEFERRALS", default_value_t = 5)]
    max_deferrals: u32,
    /// Dead-letter outcomes too: tasks that failed for good because of what
    /// the page is (HTTP 404 or 500, not HTML, robots.txt Disallow, a name
    /// that does not exist, ...), as the worker did before. Off (default):
    /// an outcome is acked once its fatal Failure event is confirmed on the
    /// results exchange, and only faults (malformed tasks, unreadable WARC
    /// input, retries used up, ...) are dead-lettered.
    #[arg(long, env = "LINESIFT_DEAD_LETTER_OUTCOMES", value_parser = BoolishValueParser::new())]
    dead_letter_outcomes: bool,
    /// Queue the worker declares and binds to the results exchange for
    /// documents (routing key `document`; default PREFIX.documents).
    #[arg(long, env = "LINESIFT_DOCUMENTS_QUEUE")]
    documents_queue: Option<String>,
    /// Queue the worker declares and binds to the results exchange for
    /// failure events (routing key `failure`; default PREFIX.failures).
    #[arg(long, env = "LINESIFT_FAILURES_QUEUE")]
    failures_queue: Option<String>,
    /// Declare no results queues and bind nothing: for deployments whose
    /// downstream binds its own queues to the results exchange. A result
    /// no queue takes comes back unroutable (warned about once per
    /// routing key), and its task is retried, then dead-lettered.
    #[arg(long, env = "LINESIFT_NO_BIND_RESULTS", value_parser = BoolishValueParser::new())]
    no_bind_results: bool,
    /// Publish each document's outlinks to the results exchange under this
    /// routing key, one message (PageLinks) per document, for a crawl
    /// frontier; confirmed as documents are. Documents carry them too only
    /// with --links.
    #[arg(long, env = "LINESIFT_LINKS_ROUTING_KEY", value_name = "KEY")]
    links_routing_key: Option<String>,
    /// Queue the worker declares and binds to the results exchange for the
    /// links routing key (default PREFIX.links).
    #[arg(long, env = "LINESIFT_LINKS_QUEUE")]
    links_queue: Option<String>,
    #[command(flatten)]
    task: TaskArgs,
    /// Log format on stderr: `text` (a line per event: time, level, what,
    /// fields) or `json` (a JSON object per line, for log pipelines).
    #[arg(long, env = "LINESIFT_LOG_FORMAT", default_value = "text")]
    log_format: LogFormat,
    /// Least severe events logged: error, warn, info (default), debug or
    /// trace (debug and trace add the libraries' own events).
    #[arg(long, env = "LINESIFT_LOG_LEVEL", default_value = "info")]
    log_level: tracing_subscriber::filter::LevelFilter,
}

/// How one task is run: the fetcher's and the WARC reader's limits and
/// the extraction options, shared by `linesift worker` and `linesift run`.
#[derive(Debug, clap::Args)]
pub struct TaskArgs {
    /// Give up WARC records whose payload is larger than this (bytes; K, M,
    /// G suffixes), each with a `too_large` failure event.
    #[arg(long, env = "LINESIFT_MAX_PAYLOAD", value_name = "SIZE", default_value = "64M",
          value_parser = parse_size_usize)]
    pub max_payload: usize,
    /// Give up a WARC file's gzip member or zstd frame that decompresses to
    /// more than this, with a failure event, and go on with the next
    /// (decompression bomb guard; K, M, G suffixes).
    #[arg(long, env = "LINESIFT_MAX_MEMBER", value_name = "SIZE", default_value = "16G",
          value_parser = parse_size)]
    pub max_member: u64,
    /// Largest decoded fetched body (K, M, G suffixes); larger ones are cut
    /// to it and kept with truncated=true, or refused with
    /// --refuse-oversize.
    #[arg(long, env = "LINESIFT_MAX_BODY", value_name = "SIZE", default_value = "16M",
          value_parser = parse_size)]
    max_body: u64,
    /// Refuse fetched bodies over --max-body (a `too_large` outcome)
    /// instead of extracting their start.
    #[arg(long, env = "LINESIFT_REFUSE_OVERSIZE", value_parser = BoolishValueParser::new())]
    refuse_oversize: bool,
    /// Wall-clock seconds one task may take; a slower task fails as
    /// transient (kind `deadline`): tried again, and a fault at the
    /// delivery limit. 0 turns the limit off. For the worker, keep it
    /// under half the broker's `consumer_timeout` (RabbitMQ: 30 min by
    /// default): a delivery may wait in the prefetch buffer for a task's
    /// length before its own starts, and one unacked for longer closes the
    /// channel.
    #[arg(
        long,
        env = "LINESIFT_TASK_DEADLINE",
        value_name = "SECONDS",
        default_value_t = 600.0
    )]
    task_deadline: f64,
    /// Per-request fetch time limit in seconds.
    #[arg(long, env = "LINESIFT_FETCH_TIMEOUT", default_value_t = 30.0)]
    fetch_timeout: f64,
    /// Minimum seconds between requests to one host (politeness).
    #[arg(long, env = "LINESIFT_HOST_INTERVAL", default_value_t = 1.0)]
    host_interval: f64,
    /// Fetch retries within one try of a task for transient errors (5xx,
    /// timeouts) before the task fails transiently (and is tried again).
    #[arg(long, env = "LINESIFT_FETCH_RETRIES", default_value_t = 2)]
    fetch_retries: u32,
    /// Allow private and loopback addresses (the SSRF guard off, but for
    /// the cloud metadata addresses: see --allow-metadata).
    #[arg(long, env = "LINESIFT_ALLOW_PRIVATE", value_parser = BoolishValueParser::new())]
    allow_private: bool,
    /// Allow the cloud metadata addresses (169.254.169.254, fd00:ec2::254,
    /// ...), which --allow-private leaves refused.
    #[arg(long, env = "LINESIFT_ALLOW_METADATA", value_parser = BoolishValueParser::new())]
    allow_metadata: bool,
    /// Do not fetch or obey robots.txt.
    #[arg(long, env = "LINESIFT_NO_ROBOTS", value_parser = BoolishValueParser::new())]
    no_robots: bool,
    #[command(flatten)]
    pub extract: ExtractOptions,
}

impl TaskArgs {
    /// The WARC reader's limits.
    pub fn reader(&self) -> ReaderOptions {
        ReaderOptions {
            max_payload: self.max_payload,
            max_member: self.max_member,
        }
    }

    /// `--task-deadline`: `None` for 0 (no limit).
    pub fn task_deadline(&self) -> anyhow::Result<Option<Duration>> {
        if self.task_deadline == 0.0 {
            return Ok(None);
        }
        seconds(self.task_deadline, "task-deadline").map(Some)
    }

    /// The fetcher's options.
    pub fn fetch_options(&self) -> anyhow::Result<FetchOptions> {
        let defaults = FetchOptions::default();
        let total = seconds(self.fetch_timeout, "fetch-timeout")?;
        Ok(FetchOptions {
            connect_timeout: defaults.connect_timeout.min(total),
            read_timeout: defaults.read_timeout.min(total),
            total_timeout: total,
            guard: Guard {
                allow_private: self.allow_private,
                allow_loopback: self.allow_private,
                allow_metadata: self.allow_metadata,
            },
            robots: !self.no_robots,
            body: body_limit(self.max_body, self.refuse_oversize),
            host_interval: seconds(self.host_interval, "host-interval")?,
            retry: linesift::fetch::RetryPolicy {
                retries: self.fetch_retries,
                ..defaults.retry
            },
            ..defaults
        })
    }
}

/// A duration flag in seconds. At most [`MAX_SECONDS`]: deadlines and
/// host slots are `Instant`s this far ahead, and `Instant + Duration`
/// panics where it overflows (near 2^63 ns on Linux), which an operator's
/// typo (`--task-deadline 1e19`) must not reach.
pub fn seconds(value: f64, name: &str) -> anyhow::Result<Duration> {
    let duration = Duration::try_from_secs_f64(value)
        .with_context(|| format!("--{name}: {value} is not a duration"))?;
    anyhow::ensure!(
        duration.as_secs_f64() <= MAX_SECONDS,
        "--{name}: {value} s is more than {MAX_SECONDS} s (about 31 years)"
    );
    Ok(duration)
}

/// The longest duration flag, in seconds.
const MAX_SECONDS: f64 = 1e9;

fn config(args: &Args) -> anyhow::Result<WorkerConfig> {
    let http = match args.http.as_str() {
        "off" | "" => None,
        addr => Some(
            addr.parse::<SocketAddr>()
                .with_context(|| format!("--http: {} is not host:port", super::printable(addr)))?,
        ),
    };
    let defer_delay = seconds(args.defer_delay, "defer-delay")?;
    let mut names = args.queue.names();
    if let Some(queue) = &args.documents_queue {
        names.documents.clone_from(queue);
    }
    if let Some(queue) = &args.failures_queue {
        names.failures.clone_from(queue);
    }
    Ok(WorkerConfig {
        amqp_url: args.queue.amqp_url()?,
        names,
        prefetch: args.prefetch,
        concurrency: args.concurrency,
        delivery_limit: args.queue.delivery_limit,
        retry_delay: seconds(args.retry_delay, "retry-delay")?,
        encoding: args.queue.encoding(),
        drain_deadline: seconds(args.drain_deadline, "drain-deadline")?,
        reconnect_delay: seconds(args.reconnect_delay, "reconnect-delay")?,
        http,
        max_payload: args.task.max_payload,
        max_member: args.task.max_member,
        task_deadline: args.task.task_deadline()?,
        max_host_wait: host_wait(args, defer_delay)?,
        defer_delay,
        max_deferrals: args.max_deferrals,
        dead_letter_outcomes: args.dead_letter_outcomes,
        bind_results: !args.no_bind_results,
        links: links_route(args)?,
        links_in_documents: args.task.extract.links,
    })
}

/// `--links-routing-key` and the queue bound for it.
fn links_route(args: &Args) -> anyhow::Result<Option<LinksRoute>> {
    let Some(routing_key) = &args.links_routing_key else {
        anyhow::ensure!(
            args.links_queue.is_none(),
            "--links-queue: needs --links-routing-key"
        );
        return Ok(None);
    };
    anyhow::ensure!(
        !routing_key.is_empty()
            && routing_key != ROUTING_DOCUMENT
            && routing_key != ROUTING_FAILURE,
        "--links-routing-key: {routing_key:?} must be a routing key of its own (not empty, \
         `document` or `failure`)"
    );
    let queue = args
        .links_queue
        .clone()
        .unwrap_or_else(|| format!("{}.links", args.queue.prefix));
    Ok(Some(LinksRoute {
        routing_key: routing_key.clone(),
        queue,
    }))
}

/// `--max-host-wait`, checked against the settings it works with: a
/// deferral wait the delay queue can hold (`x-message-ttl` is a 32-bit
/// count of milliseconds, and 0 would send a busy host's tasks round in a
/// loop), and a host wait shorter than the task deadline (a wait the
/// deadline cuts short fails the task as an attempt).
fn host_wait(args: &Args, delay: Duration) -> anyhow::Result<Option<Duration>> {
    if args.max_host_wait == 0.0 {
        return Ok(None);
    }
    let wait = seconds(args.max_host_wait, "max-host-wait")?;
    if delay < Duration::from_millis(1) || delay.as_millis() > u128::from(u32::MAX) {
        anyhow::bail!(
            "--defer-delay: {} s is outside 0.001 to {} s (the delay queue's TTL)",
            args.defer_delay,
            u32::MAX / 1000
        );
    }
    let deadline = args.task.task_deadline;
    if deadline != 0.0 && args.max_host_wait >= deadline {
        anyhow::bail!(
            "--max-host-wait: {} s must be shorter than --task-deadline ({} s)",
            args.max_host_wait,
            deadline
        );
    }
    Ok(Some(wait))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum LogFormat {
    Text,
    Json,
}

/// The worker's log: tracing events on stderr, in the format asked for.
/// Timestamps are UTC (RFC 3339); there are no colours, even on a terminal.
/// lapin's own warning for a returned message is left out: it prints the
/// whole client struct, message body and all, and the worker logs the
/// return itself in one line (exchange, routing key, reply, task id).
fn init_log(format: LogFormat, level: tracing_subscriber::filter::LevelFilter) {
    use tracing_subscriber::filter::{LevelFilter, Targets};
    use tracing_subscriber::layer::SubscriberExt;
    use tracing_subscriber::util::SubscriberInitExt;
    let filter = Targets::new()
        .with_default(level)
        .with_target("lapin::returned_messages", level.min(LevelFilter::ERROR));
    let text = tracing_subscriber::fmt::layer().with_writer(std::io::stderr);
    let registry = tracing_subscriber::registry();
    // `try_init`: a second logger (tests calling `run` twice) keeps the first.
    let _ = match format {
        LogFormat::Text => registry
            .with(tracing_subscriber::Layer::with_filter(text, filter))
            .try_init(),
        LogFormat::Json => registry
            .with(tracing_subscriber::Layer::with_filter(
                text.json().flatten_event(true),
                filter,
            ))
            .try_init(),
    };
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    init_log(args.log_format, args.log_level);
    let config = config(&args)?;
    let fetch = args.task.fetch_options()?;
    let extractor = Extractor::new(args.task.extract.options());
    tracing::info!(config = %config.describe(), "starting");
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    runtime.block_on(async {
        let shutdown = Shutdown::new();
        worker::shutdown::on_signals(shutdown.clone()).context("installing signal handlers")?;
        worker::run(config, extractor, fetch, shutdown).await?;
        tracing::info!("stopped");
        Ok(ExitCode::SUCCESS)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn queue_args(prefix: &str, task_queue: Option<&str>, delay_queue: Option<&str>) -> QueueArgs {
        QueueArgs {
            amqp_url: String::new(),
            prefix: prefix.into(),
            task_queue: task_queue.map(String::from),
            dead_letter_exchange: None,
            dead_letter_queue: None,
            results_exchange: None,
            delay_queue: delay_queue.map(String::from),
            delivery_limit: 5,
            encoding: EncodingArg::Protobuf,
        }
    }

    /// A duration past what `Instant` arithmetic can take is refused with
    /// the flag's name, not left to panic later.
    #[test]
    fn a_duration_flag_is_bounded() {
        assert_eq!(seconds(2.5, "x").ok(), Some(Duration::from_millis(2500)));
        assert!(seconds(MAX_SECONDS, "x").is_ok());
        for bad in [1e19, f64::INFINITY, -1.0, f64::NAN] {
            let e = seconds(bad, "task-deadline").expect_err("refused");
            assert!(e.to_string().contains("--task-deadline"), "{e}");
        }
    }

    /// A delay queue hands tasks back to one task queue, so a deployment
    /// that names only its own task queue gets a delay queue of its own,
    /// not the prefix's (which another task queue's workers declared with
    /// a different dead-letter routing key).
    #[test]
    fn the_default_delay_queue_follows_the_task_queue() {
        let delay = |prefix, tasks, delay| queue_args(prefix, tasks, delay).names().delay;
        assert_eq!(delay("linesift", None, None), "linesift.delay");
        assert_eq!(delay("crawl", None, None), "crawl.delay");
        assert_eq!(
            delay("linesift", Some("linesift.tasks"), None),
            "linesift.delay"
        );
        assert_eq!(
            delay("linesift", Some("linesift.tasks.bighost"), None),
            "linesift.tasks.bighost.delay"
        );
        assert_eq!(delay("linesift", Some("other.tasks"), None), "other.delay");
        assert_eq!(delay("linesift", Some("jobs"), None), "jobs.delay");
        assert_eq!(delay("linesift", Some("jobs"), Some("waiting")), "waiting");
        // The other names still follow the prefix.
        let names = queue_args("crawl", Some("jobs"), None).names();
        assert_eq!(names.tasks, "jobs");
        assert_eq!(names.dead_letter_queue, "crawl.dead");
    }

    /// `--links-routing-key` names the links' routing key and, by default,
    /// a `PREFIX.links` queue; `--links-queue` names it; a key of the
    /// documents' or failures' own, an empty one, or a queue without a
    /// key is refused with the flag's name.
    #[test]
    fn the_links_route_follows_its_flags() {
        #[derive(clap::Parser)]
        struct Cli {
            #[command(flatten)]
            args: Args,
        }
        let route = |flags: &[&str]| {
            let argv = ["worker"].iter().chain(flags).copied();
            let cli = <Cli as clap::Parser>::try_parse_from(argv).expect("parses");
            links_route(&cli.args).map_err(|e| e.to_string())
        };
        assert_eq!(route(&[]), Ok(None));
        let want = |key: &str, queue: &str| {
            Ok(Some(LinksRoute {
                routing_key: key.into(),
                queue: queue.into(),
            }))
        };
        assert_eq!(
            route(&["--prefix", "crawl", "--links-routing-key", "frontier"]),
            want("frontier", "crawl.links")
        );
        assert_eq!(
            route(&["--links-routing-key", "a.b", "--links-queue", "q"]),
            want("a.b", "q")
        );
        for bad in [
            &["--links-routing-key", "document"][..],
            &["--links-routing-key", "failure"],
            &["--links-routing-key", ""],
            &["--links-queue", "q"],
        ] {
            let e = route(bad).expect_err("refused");
            assert!(e.contains("--links-"), "{e}");
        }
    }
}
