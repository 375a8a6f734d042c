//! The broker objects the worker needs, declared idempotently at every
//! (re)connect: a durable quorum task queue with a delivery limit, a
//! dead-letter exchange and at-least-once dead-lettering, the dead-letter
//! queue behind it, and the topic exchange results are published to
//! (`document`, `failure`). The worker also declares a delay queue
//! ([`declare_delay`]): tasks put aside while their host is busy wait
//! there for a fixed time, then the broker dead-letters them back to the
//! task queue.
//!
//! Unless told not to, the worker also declares a documents queue and a
//! failures queue ([`declare_results_queues`]) and binds them to the
//! results exchange, so that a worker started with its defaults has
//! somewhere to put what it makes; deployments whose downstream owns its
//! queues turn that off. Declaring with different arguments than an
//! existing object has fails (PRECONDITION_FAILED); that is reported, not
//! papered over, because silently using a differently configured queue
//! would break the delivery-limit guarantees. The exceptions: a task queue
//! made without at-least-once dead-lettering (by linesift before it
//! declared that, or by hand) is used as it is, with a warning, since
//! refusing it would stop every worker of an existing deployment; and a
//! results queue made otherwise (a classic queue, say) is bound as it is,
//! with a warning, since nothing the worker guarantees rests on its
//! arguments.

use lapin::options::{
    ExchangeDeclareOptions, ExchangeDeleteOptions, QueueBindOptions, QueueDeclareOptions,
    QueueDeleteOptions,
};
use lapin::types::{AMQPValue, FieldTable, LongString};
use lapin::{Channel, Connection, ErrorKind, ExchangeKind};
use std::time::Duration;

/// Routing key of document results.
pub const ROUTING_DOCUMENT: &str = "document";
/// Routing key of failure events.
pub const ROUTING_FAILURE: &str = "failure";
/// Header on dead-lettered tasks: why the worker gave up on them.
pub const HEADER_REASON: &str = "x-linesift-reason";
/// Header on dead-lettered tasks: the failure's machine-readable kind.
pub const HEADER_KIND: &str = "x-linesift-kind";
/// Header quorum queues set on redeliveries: earlier delivery attempts.
pub const HEADER_DELIVERY_COUNT: &str = "x-delivery-count";
/// Header on deferred tasks: how many times the task was put aside in the
/// delay queue because its host was busy.
pub const HEADER_DEFERRALS: &str = "x-linesift-deferrals";
/// Header on deferred tasks: failed deliveries before the deferral (the
/// broker's count starts again for the republished message).
pub const HEADER_ATTEMPTS: &str = "x-linesift-attempts";

/// Names of the broker objects (configurable so that several pipelines,
/// or tests, can share one broker).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Names {
    pub tasks: String,
    pub dead_letter_exchange: String,
    pub dead_letter_queue: String,
    pub results: String,
    /// Where tasks for busy hosts wait before they return to `tasks`.
    pub delay: String,
    /// The queue the worker binds for routing key `document` (when it
    /// binds its results queues).
    pub documents: String,
    /// The queue the worker binds for routing key `failure`.
    pub failures: String,
}

impl Default for Names {
    fn default() -> Self {
        Names::with_prefix("linesift")
    }
}

impl Names {
    /// `{prefix}.tasks`, `{prefix}.dlx`, `{prefix}.dead`, `{prefix}.results`,
    /// `{prefix}.delay`, `{prefix}.documents`, `{prefix}.failures`.
    pub fn with_prefix(prefix: &str) -> Self {
        let tasks = format!("{prefix}.tasks");
        Names {
            delay: Names::delay_for(&tasks),
            tasks,
            dead_letter_exchange: format!("{prefix}.dlx"),
            dead_letter_queue: format!("{prefix}.dead"),
            results: format!("{prefix}.results"),
            documents: format!("{prefix}.documents"),
            failures: format!("{prefix}.failures"),
        }
    }

    /// The results queues and the routing key each is bound with.
    pub fn results_queues(&self) -> [(&str, &'static str); 2] {
        [
            (self.documents.as_str(), ROUTING_DOCUMENT),
            (self.failures.as_str(), ROUTING_FAILURE),
        ]
    }

    /// The default delay queue of a task queue: its name with `.tasks`
    /// replaced by `.delay` (`{prefix}.delay` for `{prefix}.tasks`), or
    /// with `.delay` added. A delay queue hands its tasks back to one task
    /// queue (its dead-letter routing key), so two task queues cannot
    /// share one: the second worker to declare it would be refused
    /// (PRECONDITION_FAILED) and never become ready.
    pub fn delay_for(tasks: &str) -> String {
        match tasks.strip_suffix(".tasks") {
            Some(stem) => format!("{stem}.delay"),
            None => format!("{tasks}.delay"),
        }
    }
}

fn long(value: &str) -> AMQPValue {
    AMQPValue::LongString(LongString::from(value))
}

/// How the task queue dead-letters, as far as its arguments say.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DeadLettering {
    /// At least once: `x-dead-letter-strategy` at-least-once, with the
    /// `x-overflow` reject-publish it needs. Without it a quorum queue
    /// dead-letters at most once, and a task the broker itself
    /// dead-letters (delivery limit reached) while a node stops is lost.
    AtLeastOnce,
    /// The queue existed without those arguments and is used as it is:
    /// at least once only if a policy says so (deploy/rabbitmq does).
    AsFound,
}

/// Arguments of the task queue; `at_least_once` adds the dead-lettering
/// strategy (older queues were declared without it).
fn task_queue_arguments(names: &Names, delivery_limit: u32, at_least_once: bool) -> FieldTable {
    let mut args = FieldTable::default();
    args.insert("x-queue-type".into(), long("quorum"));
    args.insert(
        "x-delivery-limit".into(),
        AMQPValue::LongLongInt(i64::from(delivery_limit)),
    );
    args.insert(
        "x-dead-letter-exchange".into(),
        long(&names.dead_letter_exchange),
    );
    if at_least_once {
        args.insert("x-dead-letter-strategy".into(), long("at-least-once"));
        // At-least-once dead-lettering works only with this overflow
        // behaviour; with no x-max-length it never rejects anything.
        args.insert("x-overflow".into(), long("reject-publish"));
    }
    args
}

/// Is `e` the broker refusing the dead-lettering arguments because the
/// queue exists without them?
fn exists_without_at_least_once(e: &lapin::Error) -> bool {
    let ErrorKind::ProtocolError(amqp) = e.kind() else {
        return false;
    };
    let message = amqp.get_message().as_str();
    amqp.get_id() == 406
        && (message.contains("x-dead-letter-strategy") || message.contains("x-overflow"))
}

/// Arguments of the delay queue: every message expires after `delay` and
/// is dead-lettered through the default exchange straight back to the
/// task queue. One TTL for the whole queue, not one per message: expiry
/// happens only at a queue's head, so equal waits keep it in order and no
/// message waits behind a longer one. At-least-once dead-lettering, as on
/// the task queue, so a node stopping at the moment of expiry loses none.
fn delay_queue_arguments(names: &Names, delay: Duration) -> FieldTable {
    let mut args = FieldTable::default();
    args.insert("x-queue-type".into(), long("quorum"));
    let millis = i64::try_from(delay.as_millis()).unwrap_or(i64::MAX);
    args.insert("x-message-ttl".into(), AMQPValue::LongLongInt(millis));
    args.insert("x-dead-letter-exchange".into(), long(""));
    args.insert("x-dead-letter-routing-key".into(), long(&names.tasks));
    args.insert("x-dead-letter-strategy".into(), long("at-least-once"));
    args.insert("x-overflow".into(), long("reject-publish"));
    args
}

/// Declares the delay queue with its wait. A queue that exists with a
/// different wait is refused by the broker (PRECONDITION_FAILED), and that
/// is reported. To change the wait, declare a queue of another name and
/// delete this one once empty: deleting it sooner drops the tasks in it.
pub async fn declare_delay(
    connection: &Connection,
    names: &Names,
    delay: Duration,
) -> Result<(), lapin::Error> {
    let channel = connection.create_channel().await?;
    declare_delay_on(&channel, names, delay).await?;
    let _ = channel.close(200, "declared".into()).await;
    Ok(())
}

/// [`declare_delay`] on a channel already open; a refusal closes it.
pub async fn declare_delay_on(
    channel: &Channel,
    names: &Names,
    delay: Duration,
) -> Result<(), lapin::Error> {
    channel
        .queue_declare(
            names.delay.as_str().into(),
            QueueDeclareOptions::durable(),
            delay_queue_arguments(names, delay),
        )
        .await?;
    Ok(())
}

/// Declares everything; safe to call again on every reconnect. Uses
/// channels of its own (a refused declaration closes its channel).
pub async fn declare(
    connection: &Connection,
    names: &Names,
    delivery_limit: u32,
) -> Result<DeadLettering, lapin::Error> {
    let channel = connection.create_channel().await?;
    declare_exchanges_and_dead_letters(&channel, names).await?;
    let queue = QueueDeclareOptions::durable();
    let tasks = names.tasks.as_str();
    let declared = channel
        .queue_declare(
            tasks.into(),
            queue,
            task_queue_arguments(names, delivery_limit, true),
        )
        .await;
    let dead_lettering = match declared {
        Ok(_) => {
            let _ = channel.close(200, "declared".into()).await;
            DeadLettering::AtLeastOnce
        }
        Err(e) if exists_without_at_least_once(&e) => {
            tracing::warn!(
                queue = %tasks,
                "the task queue exists without at-least-once dead-lettering; using it as it \
                 is. Unless a policy sets it (deploy/rabbitmq/definitions.json), a task the \
                 broker dead-letters while a node stops can be lost: add the policy, or drain \
                 and delete the queue so that it is declared anew"
            );
            let retry = connection.create_channel().await?;
            retry
                .queue_declare(
                    tasks.into(),
                    queue,
                    task_queue_arguments(names, delivery_limit, false),
                )
                .await?;
            let _ = retry.close(200, "declared".into()).await;
            DeadLettering::AsFound
        }
        Err(e) => return Err(e),
    };
    Ok(dead_lettering)
}

/// The exchanges, and the dead-letter queue bound behind its exchange.
async fn declare_exchanges_and_dead_letters(
    channel: &Channel,
    names: &Names,
) -> Result<(), lapin::Error> {
    let durable = ExchangeDeclareOptions {
        durable: true,
        ..ExchangeDeclareOptions::default()
    };
    // Fanout: whatever routing key a task carried, its dead letter lands in
    // the one dead-letter queue.
    channel
        .exchange_declare(
            names.dead_letter_exchange.as_str().into(),
            ExchangeKind::Fanout,
            durable,
            FieldTable::default(),
        )
        .await?;
    channel
        .exchange_declare(
            names.results.as_str().into(),
            ExchangeKind::Topic,
            durable,
            FieldTable::default(),
        )
        .await?;
    channel
        .queue_declare(
            names.dead_letter_queue.as_str().into(),
            QueueDeclareOptions::durable(),
            FieldTable::default(),
        )
        .await?;
    channel
        .queue_bind(
            names.dead_letter_queue.as_str().into(),
            names.dead_letter_exchange.as_str().into(),
            "".into(),
            QueueBindOptions::default(),
            FieldTable::default(),
        )
        .await
}

/// How a results queue was found by [`declare_results_queues`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ResultsQueue {
    /// Declared (or found) as the worker declares it: a durable quorum
    /// queue with no other arguments, as deploy/rabbitmq makes it (caps
    /// come from policies, which a redeclaration does not contradict).
    Declared,
    /// It exists with other arguments (the broker's reason, one line,
    /// naming the queue and the argument) and was bound as it is.
    AsFound(String),
}

/// Declares the documents and failures queues and binds each to the
/// results exchange with its routing key (the exchange must exist:
/// [`declare`] first). Safe to call on every reconnect. A queue that
/// exists with other arguments is bound as it is; each queue's verdict is
/// returned, in [`Names::results_queues`]' order. Uses channels of its own
/// (a refused declaration closes its channel).
pub async fn declare_results_queues(
    connection: &Connection,
    names: &Names,
) -> Result<Vec<ResultsQueue>, lapin::Error> {
    let mut found = Vec::new();
    for (queue, routing_key) in names.results_queues() {
        found.push(declare_results_queue(connection, names, queue, routing_key).await?);
    }
    Ok(found)
}

/// Declares one results queue, a durable quorum queue (or finds it with
/// other arguments, and says so), and binds it to the results exchange
/// with `routing_key`: a documents or failures queue, or the queue for a
/// worker's links routing key.
pub async fn declare_results_queue(
    connection: &Connection,
    names: &Names,
    queue: &str,
    routing_key: &str,
) -> Result<ResultsQueue, lapin::Error> {
    let channel = connection.create_channel().await?;
    let mut args = FieldTable::default();
    args.insert("x-queue-type".into(), long("quorum"));
    let declared = channel
        .queue_declare(queue.into(), QueueDeclareOptions::durable(), args)
        .await;
    let (channel, verdict) = match declared {
        Ok(_) => (channel, ResultsQueue::Declared),
        Err(e) => match precondition_failed(&e) {
            Some(reason) => (
                connection.create_channel().await?,
                ResultsQueue::AsFound(reason),
            ),
            None => return Err(e),
        },
    };
    channel
        .queue_bind(
            queue.into(),
            names.results.as_str().into(),
            routing_key.into(),
            QueueBindOptions::default(),
            FieldTable::default(),
        )
        .await?;
    let _ = channel.close(200, "declared".into()).await;
    Ok(verdict)
}

/// The broker's reason when `e` is a PRECONDITION_FAILED refusal (a
/// queue declared with other arguments than it has): one line, naming the
/// queue and the argument (`inequivalent arg 'x-queue-type' for queue ...`).
fn precondition_failed(e: &lapin::Error) -> Option<String> {
    let ErrorKind::ProtocolError(amqp) = e.kind() else {
        return None;
    };
    let message = amqp.get_message().as_str();
    let reason = message
        .strip_prefix("PRECONDITION_FAILED - ")
        .unwrap_or(message);
    (amqp.get_id() == 406).then(|| reason.replace('\n', " "))
}

/// Binds `queue` to the results exchange for every routing key (documents
/// and failures): what a downstream consumer of the worker does.
pub async fn bind_to_results(
    channel: &Channel,
    names: &Names,
    queue: &str,
) -> Result<(), lapin::Error> {
    channel
        .queue_bind(
            queue.into(),
            names.results.as_str().into(),
            "#".into(),
            QueueBindOptions::default(),
            FieldTable::default(),
        )
        .await
}

/// Messages ready in `queue`, from a passive declare: the queue leader's
/// count, unlike the periodically refreshed `rabbitmqctl list_queues`.
pub async fn ready_count(channel: &Channel, queue: &str) -> Result<u32, lapin::Error> {
    let options = QueueDeclareOptions {
        passive: true,
        ..QueueDeclareOptions::default()
    };
    Ok(channel
        .queue_declare(queue.into(), options, FieldTable::default())
        .await?
        .message_count())
}

/// Deletes everything [`declare`] made (tests, teardown). Missing objects
/// are not an error for RabbitMQ.
pub async fn delete(channel: &Channel, names: &Names) -> Result<(), lapin::Error> {
    let queues = [
        &names.tasks,
        &names.dead_letter_queue,
        &names.delay,
        &names.documents,
        &names.failures,
    ];
    for queue in queues {
        channel
            .queue_delete(queue.as_str().into(), QueueDeleteOptions::default())
            .await?;
    }
    for exchange in [&names.dead_letter_exchange, &names.results] {
        channel
            .exchange_delete(exchange.as_str().into(), ExchangeDeleteOptions::default())
            .await?;
    }
    Ok(())
}
