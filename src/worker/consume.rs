//! The consumer loop: connect, declare the topology, consume with a
//! prefetch, process up to `concurrency` tasks at once, and settle each
//! delivery exactly once: ack after all its results are confirmed, requeue
//! after a transient failure, ack an outcome once its `Failure` event is
//! confirmed, dead-letter a fault with its reason. Reconnects after
//! connection loss; drains on shutdown.
//!
//! Results queues: unless `bind_results` is off, every session declares
//! the documents and failures queues and binds them to the results
//! exchange (`topology::declare_results_queues`), so a worker started with
//! its defaults has its results taken. AMQP cannot tell a client what is
//! bound to an exchange, so with binding off the worker learns that
//! nothing is bound for a routing key only when a `mandatory` message
//! comes back unroutable: the first such return per exchange and routing
//! key is warned about in one line (reply code and text, task id).
//!
//! Four confirm channels, one per kind of message (see `publish` for why
//! kinds must not share one): documents (`mandatory`: an unbound results
//! exchange fails the task rather than dropping its documents), failure
//! events (not `mandatory`: nobody need listen to them), outcome events
//! (`mandatory`: they are a task's only record), dead letters
//! (`mandatory`).
//!
//! Outcomes and faults: a task that failed for good is one or the other
//! (`TaskError::is_outcome`). An outcome (an HTTP 404, not HTML, a
//! robots.txt Disallow, ...) is a normal answer of a crawl: it is
//! published as a fatal `Failure` event on its own `mandatory` channel and
//! the task is acked once the broker confirms it. Dead-lettering them
//! filled the dead-letter queue at crawl scale, and once its
//! `reject-publish` cap refused them, such tasks were requeued for ever.
//! The event is then the only record, so an event that is not confirmed
//! (no queue bound for `failure`, a nack, the channel lost) fails the task
//! as a failed publish of its documents does: requeued, and dead-lettered
//! (kind `publish`) at the delivery limit; never acked without it. With
//! `dead_letter_outcomes` an outcome is dead-lettered as a fault is.
//!
//! Dead-lettering: the worker publishes the original body, properties and
//! headers plus `x-linesift-reason`/`x-linesift-kind` to the dead-letter
//! exchange itself, waits for the confirm, and only then acks. Plain
//! `nack(requeue=false)` would let the broker dead-letter it, but the
//! broker's `x-death` header cannot carry *our* reason ("invalid protobuf",
//! "HTTP 404"), and an operator looking at the dead-letter queue needs it.
//! A `Failure` event (routing key `failure`, `fatal=true`,
//! `dead_lettered=true`) is published to the results exchange as well, for
//! downstream, best effort. A task that
//! panics is dead-lettered with kind `panic`. The queue's own
//! `x-delivery-limit` stays as the backstop for tasks that crash the worker
//! before it can decide (those arrive without our headers); for a task that
//! has been round the delay queue, whose earlier deliveries the broker no
//! longer counts, the worker adds them up itself before running it.
//!
//! Deferring: a URL task whose host's next request slot is further out
//! than `max_host_wait` is not waited for, which would hold one of the
//! worker's slots asleep (a queue full of one host's URLs would bring the
//! worker down to that host's pace). It is republished, with
//! `x-linesift-deferrals` counting up, to the delay queue, which returns it
//! to the task queue after `defer_delay`; acked once confirmed. A nack with
//! requeue would be simpler but counts against the delivery limit and
//! comes straight back. The new message starts a new delivery count, so
//! the failed deliveries before it travel in `x-linesift-attempts` and
//! still count toward the limit. After `max_deferrals` the task waits for
//! its host however long, so it gets done however busy the host stays.

use super::config::WorkerConfig;
use super::http::Health;
use super::metrics::Metrics;
use super::process::{
    Output, Processor, TaskError, gave_up, gives_up, panic_message, task_failure,
};
use super::publish::{self, Pending, PublishError, Publisher, count_header};
use super::shutdown::Shutdown;
use super::tally::{Tally, Verdict};
use super::topology::{
    self, HEADER_ATTEMPTS, HEADER_DEFERRALS, HEADER_DELIVERY_COUNT, ROUTING_DOCUMENT,
    ROUTING_FAILURE,
};
use crate::proto::{self, DocumentMessage, PageLinks, Task};
use futures_util::FutureExt;
use futures_util::StreamExt;
use lapin::message::Delivery;
use lapin::options::{
    BasicAckOptions, BasicCancelOptions, BasicConsumeOptions, BasicNackOptions, BasicQosOptions,
};
use lapin::types::FieldTable;
use lapin::{Connection, ConnectionProperties};
use std::collections::HashSet;
use std::panic::AssertUnwindSafe;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::{OwnedSemaphorePermit, Semaphore, mpsc};
use tokio::task::JoinSet;

/// Why a session with the broker ended.
#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    #[error("broker: {0}")]
    Amqp(#[from] lapin::Error),
    #[error("publisher: {0}")]
    Publish(#[from] PublishError),
    #[error("consumer stream ended")]
    ConsumerEnded,
    #[error("connection or channel no longer open")]
    Lost,
    #[error("no answer from the broker within {0:?} while setting up")]
    SetupTimeout(Duration),
    #[error("declaring or binding the results queues {documents}, {failures}: {source}")]
    ResultsQueues {
        documents: String,
        failures: String,
        source: lapin::Error,
    },
}

/// How often [`lost`] looks at the connection's and channels' state.
const WATCHDOG_PERIOD: Duration = Duration::from_secs(1);

/// How long connecting, declaring and starting to consume may take: lapin
/// has no handshake timeout, and a broker that accepts the TCP connection
/// but does not answer (booting, overloaded, partitioned) would hold the
/// session forever.
const SETUP_TIMEOUT: Duration = Duration::from_secs(30);

/// How long closing the connection after a drain may take (the broker may
/// not answer: a partition, or a disk alarm blocking the connection).
const CLOSE_TIMEOUT: Duration = Duration::from_secs(2);

/// What one delivery's handler needs; shared by all of a session's tasks.
struct Context {
    config: Arc<WorkerConfig>,
    processor: Arc<Processor>,
    /// Documents to the results exchange.
    documents: Publisher,
    /// Failure events to the results exchange, best effort.
    events: Publisher,
    /// Outcomes' failure events to the results exchange, `mandatory`: a
    /// channel apart from `events`, whose unroutable messages are fine.
    outcomes: Publisher,
    /// Dead letters to the dead-letter exchange.
    dead_letters: Publisher,
    /// Documents' outlinks to the results exchange, under the links
    /// routing key (when configured), `mandatory` as documents are.
    links: Option<Publisher>,
    /// Deferred tasks to the delay queue (when deferring is on). A channel
    /// of its own: a return for an unroutable message is matched to its
    /// confirm only when one channel carries one route (see `publish`).
    delays: Option<Publisher>,
    metrics: Metrics,
    shutdown: Shutdown,
    returned: Arc<Returned>,
}

/// Routes (exchange, routing key) whose messages came back unroutable,
/// each warned about once for the worker's life.
#[derive(Default)]
struct Returned(std::sync::Mutex<HashSet<(String, String)>>);

impl Returned {
    /// Warns, the first time for its exchange and routing key, that
    /// `error` is a message no queue took; other errors are not its
    /// business (the caller logs the task's retry or dead letter anyway).
    fn note(&self, task_id: &str, error: &PublishError) {
        let PublishError::Unroutable {
            exchange,
            routing_key,
            reply_code,
            reply_text,
        } = error
        else {
            return;
        };
        let first = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert((exchange.clone(), routing_key.clone()));
        if first {
            tracing::warn!(
                exchange = %exchange,
                routing_key = %routing_key,
                reply_code,
                reply_text = %reply_text,
                task_id,
                "nothing is bound for this routing key: its messages come back unroutable and \
                 their tasks are retried, then dead-lettered; bind a queue to the exchange (the \
                 worker binds its own unless --no-bind-results)"
            );
        }
    }
}

/// A session's connection and channels, once set up.
struct Setup {
    connection: Connection,
    channel: lapin::Channel,
    consumer: lapin::Consumer,
    documents: Publisher,
    events: Publisher,
    outcomes: Publisher,
    dead_letters: Publisher,
    links: Option<Publisher>,
    delays: Option<Publisher>,
}

/// Runs until `shutdown` is triggered and in-flight tasks are drained (or
/// the drain deadline passed). Connection loss is logged and survived.
pub async fn run(
    config: Arc<WorkerConfig>,
    processor: Arc<Processor>,
    health: Arc<Health>,
    shutdown: Shutdown,
) {
    let returned = Arc::new(Returned::default());
    while !shutdown.is_triggered() {
        let result = session(&config, &processor, &health, &shutdown, &returned).await;
        health.set_ready(false);
        match result {
            Ok(()) => return,
            Err(e) => tracing::warn!(
                error = %e,
                delay = ?config.reconnect_delay,
                "connection lost; reconnecting"
            ),
        }
        tokio::select! {
            _ = tokio::time::sleep(config.reconnect_delay) => {}
            _ = shutdown.wait() => return,
        }
    }
}

/// One connection's life: Ok after a clean drain, Err when the broker went
/// away (in-flight tasks are abandoned; the broker redelivers them).
async fn session(
    config: &Arc<WorkerConfig>,
    processor: &Arc<Processor>,
    health: &Health,
    shutdown: &Shutdown,
    returned: &Arc<Returned>,
) -> Result<(), SessionError> {
    // A shutdown while (re)connecting ends the session as cleanly as one
    // while consuming: nothing is held yet.
    let setup = tokio::select! {
        setup = tokio::time::timeout(SETUP_TIMEOUT, set_up(config)) => {
            setup.map_err(|_| SessionError::SetupTimeout(SETUP_TIMEOUT))??
        }
        _ = shutdown.wait() => return Ok(()),
    };
    let Setup {
        connection,
        channel,
        mut consumer,
        documents,
        events,
        outcomes,
        dead_letters,
        links,
        delays,
    } = setup;
    health.set_ready(true);
    tracing::info!(queue = %config.names.tasks, "consuming from the task queue");
    let mut watched = vec![
        channel.clone(),
        documents.channel().clone(),
        events.channel().clone(),
        outcomes.channel().clone(),
        dead_letters.channel().clone(),
    ];
    watched.extend(delays.as_ref().map(|d| d.channel().clone()));
    watched.extend(links.as_ref().map(|l| l.channel().clone()));
    let context = Arc::new(Context {
        config: config.clone(),
        processor: processor.clone(),
        documents,
        events,
        outcomes,
        dead_letters,
        links,
        delays,
        metrics: health.metrics.clone(),
        shutdown: shutdown.clone(),
        returned: returned.clone(),
    });
    let permits = Arc::new(Semaphore::new(config.concurrency.max(1)));
    let mut in_flight = JoinSet::new();
    let lost = lost(&connection, &watched);
    tokio::pin!(lost);
    let ended = loop {
        while in_flight.try_join_next().is_some() {}
        // Wait for a free slot first, so deliveries are taken only when
        // they can be worked on (the rest stay in the prefetch buffer).
        let permit = tokio::select! {
            p = permits.clone().acquire_owned() => p,
            _ = shutdown.wait() => break None,
            () = &mut lost => break Some(SessionError::Lost),
        };
        let Ok(permit) = permit else { break None };
        tokio::select! {
            _ = shutdown.wait() => break None,
            () = &mut lost => break Some(SessionError::Lost),
            next = consumer.next() => match next {
                Some(Ok(delivery)) => {
                    in_flight.spawn(handle(context.clone(), delivery, permit));
                }
                Some(Err(e)) => break Some(SessionError::Amqp(e)),
                None => break Some(SessionError::ConsumerEnded),
            },
        }
    };
    health.set_ready(false);
    if let Some(error) = ended {
        // The broker cancelled the consumer (its queue was deleted, say)
        // on a live channel: the tasks in flight can still be settled, so
        // they are drained rather than thrown away.
        if matches!(error, SessionError::ConsumerEnded) {
            drain(config, &channel, &consumer.tag(), in_flight).await;
        } else {
            abandon(in_flight).await;
        }
        return Err(error);
    }
    drain(config, &channel, &consumer.tag(), in_flight).await;
    let close = connection.close(200, "linesift worker shutting down".into());
    let _ = tokio::time::timeout(CLOSE_TIMEOUT, close).await;
    Ok(())
}

/// Connects, declares the topology, opens the publishers and starts
/// consuming with the prefetch.
async fn set_up(config: &WorkerConfig) -> Result<Setup, SessionError> {
    let connection = Connection::connect(&config.amqp_url, ConnectionProperties::default()).await?;
    topology::declare(&connection, &config.names, config.delivery_limit).await?;
    declare_results_queues(&connection, config).await?;
    let documents = Publisher::open(&connection, config.encoding).await?;
    let events = Publisher::open_unrouted_ok(&connection, config.encoding).await?;
    let outcomes = Publisher::open(&connection, config.encoding).await?;
    let dead_letters = Publisher::open(&connection, config.encoding).await?;
    let links = match config.links {
        Some(_) => Some(Publisher::open(&connection, config.encoding).await?),
        None => None,
    };
    let delays = match config.max_host_wait {
        Some(_) => {
            topology::declare_delay(&connection, &config.names, config.defer_delay).await?;
            Some(Publisher::open(&connection, config.encoding).await?)
        }
        None => None,
    };
    let channel = connection.create_channel().await?;
    channel
        .basic_qos(config.prefetch, BasicQosOptions::default())
        .await?;
    let consumer = channel
        .basic_consume(
            config.names.tasks.as_str().into(),
            "".into(),
            BasicConsumeOptions::default(),
            FieldTable::default(),
        )
        .await?;
    Ok(Setup {
        connection,
        channel,
        consumer,
        documents,
        events,
        outcomes,
        dead_letters,
        links,
        delays,
    })
}

/// Declares and binds the results queues, or says that it does not; one
/// line each.
async fn declare_results_queues(
    connection: &Connection,
    config: &WorkerConfig,
) -> Result<(), SessionError> {
    let names = &config.names;
    if !config.bind_results {
        tracing::info!(
            exchange = %names.results,
            "not declaring results queues (--no-bind-results): a routing key nothing is bound \
             for is warned about when its first message comes back unroutable"
        );
        return Ok(());
    }
    let failed = |source| SessionError::ResultsQueues {
        documents: names.documents.clone(),
        failures: names.failures.clone(),
        source,
    };
    let mut found = topology::declare_results_queues(connection, names)
        .await
        .map_err(failed)?;
    if let Some(links) = &config.links {
        let verdict =
            topology::declare_results_queue(connection, names, &links.queue, &links.routing_key)
                .await
                .map_err(failed)?;
        found.push(verdict);
        tracing::info!(
            exchange = %names.results,
            queue = %links.queue,
            routing_key = %links.routing_key,
            "links queue declared and bound"
        );
    }
    let links = config
        .links
        .as_ref()
        .map(|l| (l.queue.as_str(), l.routing_key.as_str()));
    let queues = names.results_queues().into_iter().chain(links);
    for ((queue, routing_key), verdict) in queues.zip(found) {
        if let topology::ResultsQueue::AsFound(reason) = verdict {
            tracing::warn!(
                queue,
                routing_key,
                reason = %reason,
                "the results queue exists with other arguments than a durable quorum queue's; \
                 bound as it is"
            );
        }
    }
    tracing::info!(
        exchange = %names.results,
        documents = %names.documents,
        failures = %names.failures,
        "results queues declared and bound (document, failure)"
    );
    Ok(())
}

/// Resolves once the connection or one of `channels` is no longer open.
/// lapin's consumer stream has been seen to miss a close the broker sent
/// (amqp-rs/lapin#222, #283): the session would then wait on
/// `consumer.next()` forever, ready by its health check but consuming
/// nothing. And a publisher's channel closed by a channel-level error (a
/// publish to an exchange an operator deleted) stays closed while the
/// connection lives: every task would fail to publish until the broker's
/// delivery limit dead-lettered it without our reason. A new session
/// declares the topology again and opens new channels. The status is what
/// lapin's own I/O loop sets, so polling it is the cheap and certain way
/// to notice.
async fn lost(connection: &Connection, channels: &[lapin::Channel]) {
    let mut tick = tokio::time::interval(WATCHDOG_PERIOD);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        if !connection.status().connected() || channels.iter().any(|c| !c.status().connected()) {
            return;
        }
    }
}

/// Stops consuming and waits for in-flight tasks up to the deadline; tasks
/// still running then are dropped unacked, so the broker redelivers them.
async fn drain(
    config: &WorkerConfig,
    channel: &lapin::Channel,
    tag: &lapin::types::ShortString,
    mut in_flight: JoinSet<()>,
) {
    // Reap what already finished, so the count below is what is waited for.
    while in_flight.try_join_next().is_some() {}
    tracing::info!(
        in_flight = in_flight.len(),
        deadline = ?config.drain_deadline,
        "draining in-flight tasks"
    );
    // The cancel is under the deadline too: a broker that does not answer
    // (partition; a disk alarm, during which lapin writes nothing to the
    // blocked connection) must not hold the drain past it.
    let all = async {
        let _ = channel
            .basic_cancel(tag.clone(), BasicCancelOptions::default())
            .await;
        while in_flight.join_next().await.is_some() {}
    };
    if tokio::time::timeout(config.drain_deadline, all)
        .await
        .is_err()
    {
        tracing::warn!("drain deadline passed; unfinished tasks go back to the queue");
        abandon(in_flight).await;
    }
}

/// Gives up the tasks in flight, unsettled (the broker hands them out
/// again), and waits until each is gone, so that its tally has counted it
/// abandoned before the session's end is reported.
async fn abandon(mut in_flight: JoinSet<()>) {
    in_flight.abort_all();
    while in_flight.join_next().await.is_some() {}
}

/// Settles one delivery and counts how it ended (`tally`); the permit is
/// held until then.
async fn handle(context: Arc<Context>, delivery: Delivery, _permit: OwnedSemaphorePermit) {
    let tally = Tally::received(&context.metrics);
    let started = Instant::now();
    let content_type = delivery
        .properties
        .content_type()
        .as_ref()
        .map(|c| c.as_str());
    let verdict = match proto::decode_task(&delivery.data, content_type) {
        Ok(task) => {
            // A panic (in the fetcher's inline extraction, say) would drop
            // the delivery unsettled: it would hold a prefetch slot until
            // the broker's consumer_timeout closed the channel, taking
            // every other in-flight task with it. Retrying would panic
            // again, so it is dead-lettered, unless it was settled before.
            let worked = AssertUnwindSafe(work(&context, &delivery, &task));
            match worked.catch_unwind().await {
                // Put aside before any work: not a task's run to time.
                Ok(Verdict::Deferred) => return tally.end(Verdict::Deferred),
                Ok(verdict) => verdict,
                Err(panic) if delivery.acker.usable() => {
                    let reason = panic_message(panic.as_ref());
                    let task = Some(&task);
                    dead_letter(&context, &delivery, task, "process", "panic", &reason).await
                }
                Err(_) => Verdict::Abandoned,
            }
        }
        Err(e) => {
            let reason = e.to_string();
            dead_letter(
                &context,
                &delivery,
                None,
                "decode",
                "invalid_message",
                &reason,
            )
            .await
        }
    };
    tally.end(verdict);
    context.metrics.observe("task", started);
}

/// Runs a decoded task and settles its delivery. A task put aside for a
/// busy host that the delay queue cannot take is run at once, waiting for
/// its host: it was never tried, so a retry would charge it an attempt.
async fn work(context: &Context, delivery: &Delivery, task: &Task) -> Verdict {
    let headers = delivery.properties.headers().as_ref();
    if let Some(why) = past_delivery_limit(context, headers) {
        let task = Some(task);
        return dead_letter(context, delivery, task, "worker", "delivery_limit", &why).await;
    }
    let deferrals = count_header(headers, HEADER_DEFERRALS);
    let max_host_wait = host_wait_bound(&context.config, deferrals);
    if let Some(verdict) = run_and_settle(context, delivery, task, max_host_wait).await {
        return verdict;
    }
    if let Some(verdict) = defer(context, delivery, task, deferrals).await {
        return verdict;
    }
    // With no bound the task cannot be put aside again.
    run_and_settle(context, delivery, task, None)
        .await
        .unwrap_or(Verdict::Abandoned)
}

/// Runs the task and settles its delivery, except when it comes back
/// deferred (its host busy for longer than `max_host_wait`): that is left
/// to the caller (`None`), with nothing published.
async fn run_and_settle(
    context: &Context,
    delivery: &Delivery,
    task: &Task,
    max_host_wait: Option<Duration>,
) -> Option<Verdict> {
    let (tx, rx) = mpsc::channel(32);
    let (result, published) = tokio::join!(
        context.processor.run_waiting(task, tx, max_host_wait),
        publish_outputs(context, task, rx)
    );
    let started = Instant::now();
    let confirmed = published.confirm().await;
    // A deferred task published nothing: no publishing time to record.
    if !matches!(result, Err(TaskError::Deferred { .. })) {
        context.metrics.observe("publish", started);
    }
    let verdict = match (result, confirmed) {
        (_, Err(e)) => {
            context.returned.note(&task.id, &e);
            let error = TaskError::Transient {
                stage: "publish",
                kind: "publish".into(),
                reason: e.to_string(),
            };
            retry(context, delivery, task, &error).await
        }
        (Ok(()), Ok((documents, links))) => {
            ack_as(delivery, Verdict::Acked { documents, links }).await
        }
        (Err(error @ TaskError::Transient { .. }), Ok(_)) => {
            retry(context, delivery, task, &error).await
        }
        (Err(error @ TaskError::Permanent { .. }), Ok(_))
            if error.is_outcome() && !context.config.dead_letter_outcomes =>
        {
            record_outcome(context, delivery, task, &error).await
        }
        (Err(error @ TaskError::Permanent { .. }), Ok(_)) => {
            let (stage, kind, reason) = error.parts();
            dead_letter(context, delivery, Some(task), stage, kind, reason).await
        }
        (Err(TaskError::Deferred { .. }), Ok(_)) => return None,
    };
    Some(verdict)
}

/// Why a task that came back through the delay queue must not run again:
/// its earlier deliveries, the ones before its deferral (carried in
/// `x-linesift-attempts`) and the ones since (the broker's count), reach
/// the delivery limit. `retry` gives up at the limit, so such a task got
/// there by deliveries that ended without a verdict: a worker that
/// crashed on it (an abort, the OOM killer) or lost its connection. The
/// broker's own `x-delivery-limit` is the backstop for those, but it sees
/// only the deliveries since the deferral; without this check a task that
/// kills the worker would go round up to `max_deferrals + 1` times as
/// often, taking the other tasks in flight down each time. `None` for a
/// task never deferred: the broker's count is all there is, and the
/// broker enforces it.
fn past_delivery_limit(context: &Context, headers: Option<&FieldTable>) -> Option<String> {
    let carried = count_header(headers, HEADER_ATTEMPTS);
    let earlier = delivery_count(headers).saturating_add(carried);
    let limit = u64::from(context.config.delivery_limit);
    (carried > 0 && earlier >= limit).then(|| {
        format!("gave up after {earlier} deliveries that ended without a verdict or failed")
    })
}

/// How long a task put aside `deferrals` times so far may wait for its
/// host before it is put aside again (`None`: however long it takes).
fn host_wait_bound(config: &WorkerConfig, deferrals: u64) -> Option<Duration> {
    config
        .max_host_wait
        .filter(|_| deferrals < u64::from(config.max_deferrals))
}

/// Puts a task for a busy host aside: republishes it to the delay queue
/// (through the default exchange) with its deferral count raised and its
/// failed attempts carried (`publish::deferred`), and acks once the broker
/// confirms. `None` when the delay queue did not take it (deferring off,
/// the queue deleted, the channel lost): the delivery is still unsettled.
async fn defer(
    context: &Context,
    delivery: &Delivery,
    task: &Task,
    deferrals: u64,
) -> Option<Verdict> {
    let delays = context.delays.as_ref()?;
    let headers = publish::deferred(delivery.properties.headers().as_ref(), deferrals);
    let properties = delivery.properties.clone().with_headers(headers);
    let delay = context.config.names.delay.as_str();
    let put_aside = async {
        delays
            .raw("", delay, &delivery.data, properties)
            .await?
            .confirmed()
            .await
    };
    if let Err(e) = put_aside.await {
        tracing::warn!(
            task_id = %task.id,
            delay_queue = %delay,
            error = %e,
            "could not defer the task; running it now"
        );
        if matches!(e, PublishError::Unroutable { .. }) {
            redeclare_delay(context, delays).await;
        }
        return None;
    }
    Some(ack_as(delivery, Verdict::Deferred).await)
}

/// Declares the delay queue again after it refused a task as unroutable
/// (deleted under the running worker). An unroutable message leaves the
/// channel open, so nothing else would notice: without this, every later
/// task for a busy host would hold a slot until the next reconnect. A
/// refused declaration (the queue made again with another wait) closes the
/// channel, which the session's watchdog sees, and the reconnect reports it.
async fn redeclare_delay(context: &Context, delays: &Publisher) {
    let config = &context.config;
    match topology::declare_delay_on(delays.channel(), &config.names, config.defer_delay).await {
        Ok(()) => tracing::info!(queue = %config.names.delay, "declared the delay queue again"),
        Err(e) => tracing::error!(
            queue = %config.names.delay,
            error = %e,
            "could not declare the delay queue again"
        ),
    }
}

/// What a task published, still to be confirmed.
struct Published {
    documents: Vec<Pending>,
    /// Links messages: confirmed as documents are (a frontier's links
    /// lost would go unnoticed otherwise).
    links: Vec<Pending>,
    failures: Vec<Pending>,
    error: Option<PublishError>,
}

impl Published {
    /// Waits for every confirm; Ok with the numbers of documents and links
    /// messages. Failure events go out unrouted when no queue is bound for
    /// them (they are informational); documents come back, and fail the
    /// task.
    async fn confirm(self) -> Result<(u64, u64), PublishError> {
        let count = (self.documents.len() as u64, self.links.len() as u64);
        let documents = publish::confirm_all(self.documents).await;
        let links = publish::confirm_all(self.links).await;
        let failures = publish::confirm_all(self.failures).await;
        match self.error {
            Some(e) => Err(e),
            None => documents.and(links).and(failures).map(|()| count),
        }
    }
}

/// Publishes results as the processor makes them. On the first publish
/// error it stops reading, which makes the processor stop too.
async fn publish_outputs(
    context: &Context,
    task: &Task,
    mut rx: mpsc::Receiver<Output>,
) -> Published {
    let mut published = Published {
        documents: Vec::new(),
        links: Vec::new(),
        failures: Vec::new(),
        error: None,
    };
    let results = context.config.names.results.as_str();
    while let Some(mut output) = rx.recv().await {
        if let (Output::Document(doc, _), Some(publisher), Some(route)) =
            (&mut output, &context.links, &context.config.links)
        {
            let links = page_links(doc, context.config.links_in_documents);
            let sent = publisher
                .message(results, &route.routing_key, &links, &doc.document_id)
                .await
                .map(|p| published.links.push(p));
            if let Err(e) = sent {
                published.error = Some(e);
                break;
            }
        }
        let sent = match &output {
            Output::Document(doc, _) => context
                .documents
                .message(results, ROUTING_DOCUMENT, doc.as_ref(), &doc.document_id)
                .await
                .map(|p| published.documents.push(p)),
            Output::Failure(failure) => context
                .events
                .message(results, ROUTING_FAILURE, failure, &task.id)
                .await
                .map(|p| published.failures.push(p)),
        };
        if let Err(e) = sent {
            published.error = Some(e);
            break;
        }
    }
    published
}

/// A document's links message; its links are taken out of the document
/// unless documents carry them too (`keep`).
fn page_links(doc: &mut DocumentMessage, keep: bool) -> PageLinks {
    let links = match keep {
        true => doc.links.clone(),
        false => std::mem::take(&mut doc.links),
    };
    PageLinks {
        document_id: doc.document_id.clone(),
        task_id: doc.task_id.clone(),
        url: doc.url.clone(),
        canonical: doc.canonical.clone(),
        links,
    }
}

/// Settles a task that ended in an outcome (`TaskError::is_outcome`):
/// publishes its fatal `Failure` event, `mandatory`, and acks once the
/// broker has confirmed it. The event is the outcome's only record, so if
/// it is not confirmed (no queue bound for `failure` returns it, a nack,
/// the channel lost) the task is not acked: it is retried as a task whose
/// documents could not be published, requeued and dead-lettered at the
/// delivery limit. Not logged when it works: at crawl scale outcomes are
/// a good share of all tasks, and the event and the metric carry them.
async fn record_outcome(
    context: &Context,
    delivery: &Delivery,
    task: &Task,
    error: &TaskError,
) -> Verdict {
    let (stage, kind, reason) = error.parts();
    // The event is the outcome's only record: it names the page.
    let failure = task_failure(Some(task), stage, kind, reason, false);
    let results = context.config.names.results.as_str();
    let recorded = async {
        context
            .outcomes
            .message(results, ROUTING_FAILURE, &failure, &task.id)
            .await?
            .confirmed()
            .await
    };
    match recorded.await {
        Ok(()) => ack_as(delivery, Verdict::Outcome(kind.to_string())).await,
        Err(e) => {
            context.returned.note(&task.id, &e);
            let unrecorded = TaskError::Transient {
                stage: "publish",
                kind: "publish".into(),
                reason: format!("outcome {stage}/{kind} not recorded ({e}): {reason}"),
            };
            retry(context, delivery, task, &unrecorded).await
        }
    }
}

/// Requeues after a pause, or dead-letters on the last allowed delivery.
async fn retry(context: &Context, delivery: &Delivery, task: &Task, error: &TaskError) -> Verdict {
    let (stage, kind, reason) = error.parts();
    let headers = delivery.properties.headers().as_ref();
    // Deliveries before this one, in this queue and before any deferral.
    let attempt = delivery_count(headers) + count_header(headers, HEADER_ATTEMPTS) + 1;
    if gives_up(attempt, context.config.delivery_limit) {
        let why = gave_up(attempt, reason);
        return dead_letter(context, delivery, Some(task), stage, kind, &why).await;
    }
    tracing::warn!(task_id = %task.id, attempt, error = %error, "task failed; requeued");
    // Hold the message a moment so a struggling server is not hit again at
    // once; a shutdown cuts the pause short.
    tokio::select! {
        _ = tokio::time::sleep(context.config.retry_delay) => {}
        _ = context.shutdown.wait() => {}
    }
    requeue(delivery).await
}

/// Publishes the delivery to the dead-letter exchange with the reason,
/// and acks once the broker has confirmed it; a fatal `Failure` event goes
/// out as well, best effort (it is informational: a failed event is
/// logged, and does not send the task round again, which would put a
/// second copy in the dead-letter queue). The event names the task (and
/// its page, as an outcome's does) when the message was a task at all
/// (`None`: it did not decode). If the dead letter fails, the delivery is
/// requeued instead, so the task is never lost.
async fn dead_letter(
    context: &Context,
    delivery: &Delivery,
    task: Option<&Task>,
    stage: &str,
    kind: &str,
    reason: &str,
) -> Verdict {
    let task_id = task.map_or("", |t| t.id.as_str());
    tracing::warn!(task_id, stage, kind, reason, "dead-lettering task");
    let headers = publish::with_reason(delivery.properties.headers().as_ref(), kind, reason);
    let properties = delivery.properties.clone().with_headers(headers);
    let names = &context.config.names;
    let dead = async {
        context
            .dead_letters
            .raw(
                &names.dead_letter_exchange,
                delivery.routing_key.as_str(),
                &delivery.data,
                properties,
            )
            .await?
            .confirmed()
            .await
    };
    if let Err(e) = dead.await {
        context.returned.note(task_id, &e);
        tracing::error!(task_id, error = %e, "could not dead-letter the task; requeueing");
        return requeue(delivery).await;
    }
    let failure = task_failure(task, stage, kind, reason, true);
    let event = async {
        context
            .events
            .message(&names.results, ROUTING_FAILURE, &failure, task_id)
            .await?
            .confirmed()
            .await
    };
    if let Err(e) = event.await {
        tracing::warn!(task_id, error = %e, "failure event not published");
    }
    ack_as(delivery, Verdict::DeadLettered(kind.to_string())).await
}

/// Acks: `verdict` once the ack is sent, abandoned when it cannot be.
async fn ack_as(delivery: &Delivery, verdict: Verdict) -> Verdict {
    match settled(delivery.acker.ack(BasicAckOptions::default()).await, "ack") {
        true => verdict,
        false => Verdict::Abandoned,
    }
}

/// Puts the delivery back in the queue (nack with requeue): retried, or
/// abandoned when the nack cannot be sent.
async fn requeue(delivery: &Delivery) -> Verdict {
    let requeue = BasicNackOptions {
        requeue: true,
        ..BasicNackOptions::default()
    };
    match settled(delivery.acker.nack(requeue).await, "nack") {
        true => Verdict::Retried,
        false => Verdict::Abandoned,
    }
}

/// Whether an ack or nack settled the delivery. lapin answers `Ok(false)`
/// when the channel was lost (the acker is poisoned) or the delivery was
/// settled already: the broker redelivers it, and the results already
/// published carry the same ids, so this is only logged (and counted as
/// abandoned).
fn settled(result: Result<bool, lapin::Error>, what: &str) -> bool {
    match result {
        Ok(true) => true,
        Ok(false) => {
            tracing::warn!(what, "not sent: the channel is gone");
            false
        }
        Err(e) => {
            tracing::warn!(what, error = %e, "settling the delivery failed");
            false
        }
    }
}

/// Earlier deliveries of this message, from the quorum queue's header.
pub fn delivery_count(headers: Option<&FieldTable>) -> u64 {
    count_header(headers, HEADER_DELIVERY_COUNT)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Needs the broker the tests run against (`.ci/run` starts it).
    #[tokio::test]
    async fn the_watchdog_notices_a_closed_connection_or_channel_and_only_then() {
        let url = "amqp://guest:guest@127.0.0.1:5672/%2f";
        let connection = Connection::connect(url, ConnectionProperties::default())
            .await
            .expect("broker at 127.0.0.1:5672");
        let channels = [
            connection.create_channel().await.expect("channel"),
            connection.create_channel().await.expect("channel"),
        ];
        let watch = lost(&connection, &channels);
        tokio::pin!(watch);
        let open = tokio::time::timeout(3 * WATCHDOG_PERIOD, &mut watch).await;
        assert!(open.is_err(), "an open connection was reported lost");
        // One channel closed, the connection still open (a channel-level
        // error closes a channel the same way).
        channels[1].close(200, "test".into()).await.expect("close");
        let closed = tokio::time::timeout(3 * WATCHDOG_PERIOD, &mut watch).await;
        assert!(closed.is_ok(), "a closed channel went unnoticed");
        let watch = lost(&connection, &channels[..1]);
        tokio::pin!(watch);
        let open = tokio::time::timeout(2 * WATCHDOG_PERIOD, &mut watch).await;
        assert!(open.is_err(), "the open channel was reported lost");
        connection.close(200, "test".into()).await.expect("close");
        let closed = tokio::time::timeout(3 * WATCHDOG_PERIOD, &mut watch).await;
        assert!(closed.is_ok(), "a closed connection went unnoticed");
    }

    /// A task may be put aside until it has been `max_deferrals` times;
    /// then, or with deferring off, it waits for its host however long.
    #[test]
    fn a_task_is_deferred_at_most_max_deferrals_times() {
        let config = WorkerConfig {
            amqp_url: String::new(),
            names: super::topology::Names::default(),
            prefetch: 1,
            concurrency: 1,
            delivery_limit: 5,
            retry_delay: Duration::ZERO,
            encoding: crate::proto::Encoding::Protobuf,
            drain_deadline: Duration::ZERO,
            reconnect_delay: Duration::ZERO,
            http: None,
            max_payload: 0,
            max_member: 0,
            task_deadline: None,
            max_host_wait: Some(Duration::from_secs(5)),
            defer_delay: Duration::from_secs(30),
            max_deferrals: 2,
            dead_letter_outcomes: false,
            bind_results: false,
            links: None,
            links_in_documents: false,
        };
        let bound = Some(Duration::from_secs(5));
        assert_eq!(host_wait_bound(&config, 0), bound);
        assert_eq!(host_wait_bound(&config, 1), bound);
        assert_eq!(host_wait_bound(&config, 2), None);
        assert_eq!(host_wait_bound(&config, u64::MAX), None);
        let off = WorkerConfig {
            max_host_wait: None,
            ..config
        };
        assert_eq!(host_wait_bound(&off, 0), None);
    }

    #[test]
    fn a_panics_message_is_its_reason() {
        let caught = std::panic::catch_unwind(|| panic!("bad {}", 42)).unwrap_err();
        assert_eq!(panic_message(caught.as_ref()), "panicked: bad 42");
        let caught = std::panic::catch_unwind(|| panic!("plain")).unwrap_err();
        assert_eq!(panic_message(caught.as_ref()), "panicked: plain");
    }

    /// A task aborted mid-way (connection lost, drain deadline) leaves
    /// the in-flight gauge and is counted as abandoned: the counters add
    /// up.
    #[tokio::test]
    async fn an_aborted_task_leaves_the_in_flight_gauge_and_counts_as_abandoned() {
        let metrics = super::super::Metrics::new().expect("metrics");
        let mut tasks = JoinSet::new();
        for _ in 0..3 {
            let m = metrics.clone();
            tasks.spawn(async move {
                let _tally = Tally::received(&m);
                std::future::pending::<()>().await;
            });
        }
        while metrics.tasks_in_flight.get() < 3 {
            tokio::task::yield_now().await;
        }
        tasks.abort_all();
        while tasks.join_next().await.is_some() {}
        let totals = super::super::tally::Totals::of(&metrics);
        assert_eq!(
            (totals.in_flight, totals.abandoned, totals.received),
            (0, 3, 3)
        );
        assert!(totals.add_up(), "{totals:?}");
    }
}
