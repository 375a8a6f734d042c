//! `linesift results`: takes the worker's results from one queue (its
//! documents queue, failures queue, links queue or dead-letter queue) and writes each
//! as a JSON line ([`linesift::worker::results`]), acking a message only
//! once its line is written and flushed. Stops after `--max` messages, or
//! once the queue has stayed empty for `--wait` seconds. A message that is
//! no result is named on stderr and left in the queue (exit 1). Binds and
//! declares nothing: a queue that does not exist is an error (exit 2).

use super::worker::checked_amqp_url;
use anyhow::Context;
use lapin::options::{BasicAckOptions, BasicGetOptions, QueueDeclareOptions};
use lapin::types::FieldTable;
use lapin::{Channel, Connection, ConnectionProperties, ErrorKind};
use linesift::worker::results::{self, ResultMessage};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::{Duration, Instant};

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The queue to read (the worker's --documents-queue,
    /// --failures-queue or --links-queue, or its dead-letter queue).
    #[arg(long, value_name = "NAME")]
    queue: String,
    /// The routing key the worker publishes pages' links under (its
    /// --links-routing-key): messages under it are read as links.
    #[arg(long, value_name = "KEY")]
    links_routing_key: Option<String>,
    /// Append the lines to this file (created if missing, never
    /// truncated: what was written is gone from the queue); `-` or none
    /// for stdout.
    #[arg(short, long, value_name = "OUT")]
    output: Option<PathBuf>,
    /// Stop after N messages.
    #[arg(long, value_name = "N")]
    max: Option<u64>,
    /// Stop once the queue has stayed empty this many seconds (0: as
    /// soon as it is empty).
    #[arg(long, value_name = "SECONDS", default_value_t = 2.0)]
    wait: f64,
    /// AMQP URL of the broker (the password is never printed).
    #[arg(
        long,
        env = "AMQP_URL",
        hide_env_values = true,
        default_value = "amqp://guest:guest@127.0.0.1:5672/%2f"
    )]
    amqp_url: String,
}

/// How long connecting and the first look at the queue may take (lapin has
/// no handshake timeout of its own).
const CONNECT_TIMEOUT: Duration = Duration::from_secs(30);

/// Pause between looks at an empty queue.
const POLL: Duration = Duration::from_millis(100);

/// What a run took from the queue.
#[derive(Debug, Default)]
struct Counts {
    documents: u64,
    failures: u64,
    links: u64,
    dead_letters: u64,
    /// Messages that are no result, left in the queue.
    left: u64,
}

impl Counts {
    fn written(&self) -> u64 {
        self.documents + self.failures + self.links + self.dead_letters
    }

    fn add(&mut self, result: &ResultMessage) {
        match result {
            ResultMessage::Document(_) => self.documents += 1,
            ResultMessage::Failure(_) => self.failures += 1,
            ResultMessage::Links(_) => self.links += 1,
            ResultMessage::DeadLetter { .. } => self.dead_letters += 1,
        }
    }
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let amqp_url = checked_amqp_url(&args.amqp_url)?;
    let wait = Duration::try_from_secs_f64(args.wait)
        .with_context(|| format!("--wait: {} is not a duration", args.wait))?;
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("starting the async runtime")?;
    let queue = args.queue.as_str();
    let counts = runtime.block_on(async {
        let (connection, channel) = tokio::time::timeout(CONNECT_TIMEOUT, open(&amqp_url, queue))
            .await
            .map_err(|_| {
                anyhow::anyhow!("no answer from the broker within {CONNECT_TIMEOUT:?}")
            })??;
        let mut out = output(args.output.as_deref())?;
        let links_key = args.links_routing_key.as_deref();
        let counts = take(&channel, queue, links_key, &mut *out, args.max, wait).await;
        // Closing hands the messages left unacked back to the queue.
        let _ = connection.close(200, "linesift results done".into()).await;
        counts
    })?;
    let left = match counts.left {
        0 => String::new(),
        n => format!("; {n} message(s) left in the queue: not results"),
    };
    say!(
        "linesift results: {queue}: {} document(s), {} failure(s), {} links message(s), \
         {} dead letter(s) written{left}",
        counts.documents,
        counts.failures,
        counts.links,
        counts.dead_letters
    );
    Ok(if counts.left > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Connects and checks that the queue is there (a passive declare: it
/// creates nothing).
async fn open(amqp_url: &str, queue: &str) -> anyhow::Result<(Connection, Channel)> {
    let connection = Connection::connect(amqp_url, ConnectionProperties::default())
        .await
        .context("connecting to the broker")?;
    let channel = connection.create_channel().await?;
    let passive = QueueDeclareOptions {
        passive: true,
        ..QueueDeclareOptions::default()
    };
    if let Err(e) = channel
        .queue_declare(queue.into(), passive, FieldTable::default())
        .await
    {
        let missing = matches!(e.kind(), ErrorKind::ProtocolError(amqp) if amqp.get_id() == 404);
        if missing {
            anyhow::bail!("no queue named {queue:?} on the broker");
        }
        return Err(e).with_context(|| format!("queue {queue:?}"));
    }
    Ok((connection, channel))
}

fn output(path: Option<&std::path::Path>) -> anyhow::Result<Box<dyn Write>> {
    match path {
        None => Ok(Box::new(std::io::stdout().lock())),
        Some(p) if p.as_os_str() == "-" => Ok(Box::new(std::io::stdout().lock())),
        Some(p) => {
            let file = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)
                .with_context(|| format!("opening {}", p.display()))?;
            Ok(Box::new(std::io::BufWriter::new(file)))
        }
    }
}

/// Takes messages one at a time until `max` are written or the queue has
/// been empty for `wait`. Each is acked once its line is flushed, so a
/// run that dies loses none (one may be written twice).
async fn take(
    channel: &Channel,
    queue: &str,
    links_key: Option<&str>,
    out: &mut dyn Write,
    max: Option<u64>,
    wait: Duration,
) -> anyhow::Result<Counts> {
    let mut counts = Counts::default();
    let mut empty_since = Instant::now();
    while max.is_none_or(|max| counts.written() < max) {
        let got = channel
            .basic_get(queue.into(), BasicGetOptions::default())
            .await
            .with_context(|| format!("taking a message from {queue:?}"))?;
        let Some(message) = got else {
            let waited = empty_since.elapsed();
            if waited >= wait {
                break;
            }
            tokio::time::sleep(POLL.min(wait - waited)).await;
            continue;
        };
        let delivery = message.delivery;
        let properties = &delivery.properties;
        let decoded = results::decode(
            delivery.routing_key.as_str(),
            links_key,
            properties.content_type().as_ref().map(|c| c.as_str()),
            properties.headers().as_ref(),
            &delivery.data,
        );
        match decoded {
            Ok(result) => {
                out.write_all(&result.json_line()?)?;
                out.flush()?;
                delivery
                    .ack(BasicAckOptions::default())
                    .await
                    .with_context(|| format!("acking a message of {queue:?}"))?;
                counts.add(&result);
            }
            // Left unacked: the broker holds it for this channel, so it is
            // not taken again, and gives it back when the channel closes.
            Err(e) => {
                counts.left += 1;
                let id = properties.message_id().as_ref().map_or("", |i| i.as_str());
                say!(
                    "linesift results: {queue}: message id {id:?} is no result ({e}); \
                     left in the queue"
                );
            }
        }
        empty_since = Instant::now();
    }
    Ok(counts)
}
