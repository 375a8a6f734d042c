//! The consumer loop: connect, declare the topology, consume with a
//! prefetch, process up to `concurrency` tasks at once, and settle each
//! delivery exactly once: ack after all its results are confirmed, requeue
//! after a transient failure, dead-letter a poison task with its reason.
//! Reconnects after connection loss; drains on shutdown.
//!
//! Dead-lettering: the worker publishes the original body, properties and
//! headers plus `x-linesift-reason`/`x-linesift-kind` to the dead-letter
//! exchange itself, waits for the confirm, and only then acks. Plain
//! `nack(requeue=false)` would let the broker dead-letter it, but the
//! broker's `x-death` header cannot carry *our* reason ("invalid protobuf",
//! "HTTP 404"), and an operator looking at the dead-letter queue needs it.
//! A `Failure` event (routing key `failure`, `fatal=true`) is published to
//! the results exchange as well, for downstream. The queue's own
//! `x-delivery-limit` stays as the backstop for tasks that crash the worker
//! before it can decide (those arrive without our headers).

use super::config::WorkerConfig;
use super::http::Health;
use super::metrics::Metrics;
use super::process::{Output, Processor, TaskError};
use super::publish::{self, Pending, PublishError, Publisher};
use super::shutdown::Shutdown;
use super::topology::{self, HEADER_DELIVERY_COUNT, ROUTING_DOCUMENT, ROUTING_FAILURE};
use crate::proto::{self, Failure, Task};
use futures_util::StreamExt;
use lapin::message::Delivery;
use lapin::options::{
    BasicAckOptions, BasicCancelOptions, BasicConsumeOptions, BasicNackOptions, BasicQosOptions,
};
use lapin::types::{AMQPValue, FieldTable};
use lapin::{Connection, ConnectionProperties};
use prometheus::IntGauge;
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
}

/// How often [`lost`] looks at the connection's and channel's state.
const WATCHDOG_PERIOD: Duration = Duration::from_secs(1);

/// What one delivery's handler needs; shared by all of a session's tasks.
struct Context {
    config: Arc<WorkerConfig>,
    processor: Arc<Processor>,
    publisher: Publisher,
    metrics: Metrics,
    shutdown: Shutdown,
}

/// Runs until `shutdown` is triggered and in-flight tasks are drained (or
/// the drain deadline passed). Connection loss is logged and survived.
pub async fn run(
    config: Arc<WorkerConfig>,
    processor: Arc<Processor>,
    health: Arc<Health>,
    shutdown: Shutdown,
) {
    while !shutdown.is_triggered() {
        let result = session(&config, &processor, &health, &shutdown).await;
        health.set_ready(false);
        match result {
            Ok(()) => return,
            Err(e) => eprintln!(
                "linesift worker: connection lost ({e}); reconnecting in {:?}",
                config.reconnect_delay
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
) -> Result<(), SessionError> {
    let connection = Connection::connect(&config.amqp_url, ConnectionProperties::default()).await?;
    topology::declare(&connection, &config.names, config.delivery_limit).await?;
    let publisher = Publisher::open(&connection, config.encoding).await?;
    let channel = connection.create_channel().await?;
    channel
        .basic_qos(config.prefetch, BasicQosOptions::default())
        .await?;
    let mut consumer = channel
        .basic_consume(
            config.names.tasks.as_str().into(),
            "".into(),
            BasicConsumeOptions::default(),
            FieldTable::default(),
        )
        .await?;
    health.set_ready(true);
    eprintln!("linesift worker: consuming from {}", config.names.tasks);
    let context = Arc::new(Context {
        config: config.clone(),
        processor: processor.clone(),
        publisher,
        metrics: health.metrics.clone(),
        shutdown: shutdown.clone(),
    });
    let permits = Arc::new(Semaphore::new(config.concurrency.max(1)));
    let mut in_flight = JoinSet::new();
    let lost = lost(&connection, &channel);
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
        in_flight.abort_all();
        return Err(error);
    }
    drain(config, &channel, &consumer.tag(), in_flight).await;
    let _ = connection
        .close(200, "linesift worker shutting down".into())
        .await;
    Ok(())
}

/// Resolves once the connection or the consuming channel is no longer
/// open. lapin's consumer stream has been seen to miss a close the broker
/// sent (amqp-rs/lapin#222, #283): the session would then wait on
/// `consumer.next()` forever, ready by its health check but consuming
/// nothing. The status is what lapin's own I/O loop sets, so polling it is
/// the cheap and certain way to notice.
async fn lost(connection: &Connection, channel: &lapin::Channel) {
    let mut tick = tokio::time::interval(WATCHDOG_PERIOD);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tick.tick().await;
        if !connection.status().connected() || !channel.status().connected() {
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
    let _ = channel
        .basic_cancel(tag.clone(), BasicCancelOptions::default())
        .await;
    // Reap what already finished, so the count below is what is waited for.
    while in_flight.try_join_next().is_some() {}
    eprintln!(
        "linesift worker: draining {} in-flight task(s), deadline {:?}",
        in_flight.len(),
        config.drain_deadline
    );
    let all = async { while in_flight.join_next().await.is_some() {} };
    if tokio::time::timeout(config.drain_deadline, all)
        .await
        .is_err()
    {
        eprintln!("linesift worker: drain deadline passed; unfinished tasks go back to the queue");
        in_flight.abort_all();
    }
}

/// Settles one delivery; the permit is held until then.
async fn handle(context: Arc<Context>, delivery: Delivery, _permit: OwnedSemaphorePermit) {
    let metrics = &context.metrics;
    metrics.tasks_received.inc();
    let _counted = InFlight::new(&metrics.tasks_in_flight);
    let started = Instant::now();
    let content_type = delivery
        .properties
        .content_type()
        .as_ref()
        .map(|c| c.as_str());
    match proto::decode_task(&delivery.data, content_type) {
        Ok(task) => work(&context, &delivery, &task).await,
        Err(e) => {
            dead_letter(
                &context,
                &delivery,
                "",
                "decode",
                "invalid_message",
                &e.to_string(),
            )
            .await
        }
    }
    metrics.observe("task", started);
}

/// Counts a task in the in-flight gauge until dropped: also when the task
/// is aborted mid-way (connection lost, drain deadline), which a `dec()` at
/// the end of the task would miss.
struct InFlight(IntGauge);

impl InFlight {
    fn new(gauge: &IntGauge) -> Self {
        gauge.inc();
        InFlight(gauge.clone())
    }
}

impl Drop for InFlight {
    fn drop(&mut self) {
        self.0.dec();
    }
}

/// Runs a decoded task and settles its delivery.
async fn work(context: &Context, delivery: &Delivery, task: &Task) {
    let (tx, rx) = mpsc::channel(32);
    let (result, published) = tokio::join!(
        context.processor.run(task, tx),
        publish_outputs(context, task, rx)
    );
    let started = Instant::now();
    let confirmed = published.confirm().await;
    context.metrics.observe("publish", started);
    match (result, confirmed) {
        (_, Err(e)) => {
            let error = TaskError::Transient {
                stage: "publish",
                kind: "publish".into(),
                reason: e.to_string(),
            };
            retry(context, delivery, task, &error).await;
        }
        (Ok(()), Ok(documents)) => {
            if ack(delivery).await {
                context.metrics.documents_published.inc_by(documents);
                context.metrics.tasks_acked.inc();
            }
        }
        (Err(error @ TaskError::Transient { .. }), Ok(_)) => {
            retry(context, delivery, task, &error).await;
        }
        (Err(error @ TaskError::Permanent { .. }), Ok(_)) => {
            let (stage, kind, reason) = error.parts();
            dead_letter(context, delivery, &task.id, stage, kind, reason).await;
        }
    }
}

/// What a task published, still to be confirmed.
struct Published {
    documents: Vec<Pending>,
    failures: Vec<Pending>,
    error: Option<PublishError>,
}

impl Published {
    /// Waits for every confirm; Ok with the number of documents. Failure
    /// events no queue is bound for are tolerated (they are informational);
    /// unroutable documents are not.
    async fn confirm(self) -> Result<u64, PublishError> {
        let count = self.documents.len() as u64;
        let documents = publish::confirm_all(self.documents).await;
        let failures = tolerate_unroutable(publish::confirm_all(self.failures).await);
        match self.error {
            Some(e) => Err(e),
            None => documents.and(failures).map(|()| count),
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
        failures: Vec::new(),
        error: None,
    };
    let results = context.config.names.results.as_str();
    while let Some(output) = rx.recv().await {
        let sent = match &output {
            Output::Document(doc) => context
                .publisher
                .message(results, ROUTING_DOCUMENT, doc.as_ref(), &doc.document_id)
                .await
                .map(|p| published.documents.push(p)),
            Output::Failure(failure) => context
                .publisher
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

fn tolerate_unroutable(result: Result<(), PublishError>) -> Result<(), PublishError> {
    match result {
        Err(PublishError::Unroutable { .. }) => Ok(()),
        other => other,
    }
}

/// Requeues after a pause, or dead-letters on the last allowed delivery.
async fn retry(context: &Context, delivery: &Delivery, task: &Task, error: &TaskError) {
    let (stage, kind, reason) = error.parts();
    let attempt = delivery_count(delivery.properties.headers().as_ref()) + 1;
    if attempt >= u64::from(context.config.delivery_limit) {
        let why = format!("gave up after {attempt} attempts: {reason}");
        dead_letter(context, delivery, &task.id, stage, kind, &why).await;
        return;
    }
    eprintln!(
        "linesift worker: task {} attempt {attempt} failed, requeued: {error}",
        task.id
    );
    // Hold the message a moment so a struggling server is not hit again at
    // once; a shutdown cuts the pause short.
    tokio::select! {
        _ = tokio::time::sleep(context.config.retry_delay) => {}
        _ = context.shutdown.wait() => {}
    }
    let requeue = BasicNackOptions {
        requeue: true,
        ..BasicNackOptions::default()
    };
    if delivery.acker.nack(requeue).await.is_ok() {
        context.metrics.tasks_retried.inc();
    }
}

/// Publishes the delivery to the dead-letter exchange with the reason and
/// a fatal `Failure` event, then acks. If either publish fails, the
/// delivery is requeued instead, so the task is never lost.
async fn dead_letter(
    context: &Context,
    delivery: &Delivery,
    task_id: &str,
    stage: &str,
    kind: &str,
    reason: &str,
) {
    eprintln!("linesift worker: dead-lettering task {task_id:?}: {stage}/{kind}: {reason}");
    let headers = publish::with_reason(delivery.properties.headers().as_ref(), kind, reason);
    let properties = delivery.properties.clone().with_headers(headers);
    let failure = Failure {
        task_id: task_id.to_string(),
        stage: stage.to_string(),
        kind: kind.to_string(),
        reason: reason.to_string(),
        fatal: true,
        ..Failure::default()
    };
    let names = &context.config.names;
    let sent = async {
        let dead = context
            .publisher
            .raw(
                &names.dead_letter_exchange,
                delivery.routing_key.as_str(),
                &delivery.data,
                properties,
            )
            .await?;
        let event = context
            .publisher
            .message(&names.results, ROUTING_FAILURE, &failure, task_id)
            .await?;
        dead.confirmed().await?;
        tolerate_unroutable(event.confirmed().await)
    };
    match sent.await {
        Ok(()) => {
            if ack(delivery).await {
                context
                    .metrics
                    .tasks_dead_lettered
                    .with_label_values(&[kind])
                    .inc();
            }
        }
        Err(e) => {
            eprintln!("linesift worker: could not dead-letter ({e}); requeueing");
            let _ = delivery
                .acker
                .nack(BasicNackOptions {
                    requeue: true,
                    ..BasicNackOptions::default()
                })
                .await;
        }
    }
}

async fn ack(delivery: &Delivery) -> bool {
    match delivery.acker.ack(BasicAckOptions::default()).await {
        Ok(_) => true,
        Err(e) => {
            // The channel is gone: the broker redelivers, and the results
            // already published carry the same ids.
            eprintln!("linesift worker: ack failed: {e}");
            false
        }
    }
}

/// Earlier deliveries of this message, from the quorum queue's header.
pub fn delivery_count(headers: Option<&FieldTable>) -> u64 {
    let value = headers.and_then(|h| h.inner().get(HEADER_DELIVERY_COUNT));
    match value {
        Some(AMQPValue::LongLongInt(n)) => u64::try_from(*n).unwrap_or(0),
        Some(AMQPValue::LongInt(n)) => u64::try_from(*n).unwrap_or(0),
        Some(AMQPValue::LongUInt(n)) => u64::from(*n),
        Some(AMQPValue::ShortInt(n)) => u64::try_from(*n).unwrap_or(0),
        Some(AMQPValue::ShortUInt(n)) => u64::from(*n),
        Some(AMQPValue::ShortShortInt(n)) => u64::try_from(*n).unwrap_or(0),
        Some(AMQPValue::ShortShortUInt(n)) => u64::from(*n),
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Needs the broker the tests run against (`.ci/run` starts it).
    #[tokio::test]
    async fn the_watchdog_notices_a_closed_connection_and_only_then() {
        let url = "amqp://guest:guest@127.0.0.1:5672/%2f";
        let connection = Connection::connect(url, ConnectionProperties::default())
            .await
            .expect("broker at 127.0.0.1:5672");
        let channel = connection.create_channel().await.expect("channel");
        let watch = lost(&connection, &channel);
        tokio::pin!(watch);
        let open = tokio::time::timeout(3 * WATCHDOG_PERIOD, &mut watch).await;
        assert!(open.is_err(), "an open connection was reported lost");
        connection.close(200, "test".into()).await.expect("close");
        let closed = tokio::time::timeout(3 * WATCHDOG_PERIOD, &mut watch).await;
        assert!(closed.is_ok(), "a closed connection went unnoticed");
    }

    #[tokio::test]
    async fn an_aborted_task_leaves_the_in_flight_gauge() {
        let gauge = IntGauge::new("t_in_flight", "test").unwrap();
        let mut tasks = JoinSet::new();
        for _ in 0..3 {
            let g = gauge.clone();
            tasks.spawn(async move {
                let _counted = InFlight::new(&g);
                std::future::pending::<()>().await;
            });
        }
        while gauge.get() < 3 {
            tokio::task::yield_now().await;
        }
        tasks.abort_all();
        while tasks.join_next().await.is_some() {}
        assert_eq!(gauge.get(), 0);
    }
}
