//! Publishing on a confirm channel: every message is persistent, and a
//! publish counts only when the broker has confirmed it (ack, and, for a
//! `mandatory` publisher, not returned as unroutable). Used for results,
//! dead letters and `linesift enqueue`. Does not retry: a failed publish
//! fails the caller's task, which is then retried through the task queue.
//!
//! One kind of message per channel. lapin hands a returned (unroutable)
//! message to whichever of the channel's confirms completes next, and
//! completes the confirms of one `multiple` ack in no set order, so on a
//! channel where some messages route and others do not, a routed
//! message's confirm can carry another's return and an unroutable one's a
//! plain ack: a dropped document would count as delivered. Messages that
//! all route alike (one exchange, one routing key) cannot be mixed up
//! that way; messages nobody need receive go on a channel that is not
//! `mandatory`, where nothing is ever returned.

use crate::proto::{self, Encoding};
use lapin::options::{BasicPublishOptions, ConfirmSelectOptions};
use lapin::types::{AMQPValue, FieldTable};
use lapin::{BasicProperties, Channel, Connection};
use lapin::{Confirmation, PublisherConfirm};
use std::sync::Arc;

/// A publish that did not make it.
#[derive(Debug, thiserror::Error)]
pub enum PublishError {
    #[error("broker: {0}")]
    Amqp(#[from] lapin::Error),
    #[error("broker refused (nack) a message for {0:?}")]
    Nack(String),
    /// With `mandatory`, a message no queue is bound for comes back: the
    /// results exchange has no consumer queue, and the results would be
    /// lost. Treated as a (transient) failure so the task is not acked.
    #[error(
        "unroutable: no queue bound for exchange {exchange:?}, routing key {routing_key:?} \
         ({reply_code} {reply_text})"
    )]
    Unroutable {
        exchange: String,
        routing_key: String,
        /// The broker's reply code and text (312 NO_ROUTE).
        reply_code: u16,
        reply_text: String,
    },
}

/// Persistent delivery mode.
const PERSISTENT: u8 = 2;

/// A confirm-mode channel.
#[derive(Clone)]
pub struct Publisher {
    channel: Channel,
    encoding: Encoding,
    /// Messages no queue is bound for come back ([`PublishError::Unroutable`]).
    mandatory: bool,
    /// Held across each publish. lapin numbers a publish for its confirm
    /// before it queues the frames, under two locks: two tasks publishing
    /// at once on a multi-threaded runtime can put their messages on the
    /// wire in the other order than they were numbered, and a confirm
    /// would then settle the wrong one.
    order: Arc<tokio::sync::Mutex<()>>,
}

impl Publisher {
    /// Opens a channel on `connection` and puts it into confirm mode; its
    /// messages are `mandatory`. Publish only messages that route alike on
    /// it (see the module's doc).
    pub async fn open(connection: &Connection, encoding: Encoding) -> Result<Self, PublishError> {
        Self::open_with(connection, encoding, true).await
    }

    /// [`Publisher::open`] for messages that need no receiver (events):
    /// the broker drops an unroutable one instead of returning it.
    pub async fn open_unrouted_ok(
        connection: &Connection,
        encoding: Encoding,
    ) -> Result<Self, PublishError> {
        Self::open_with(connection, encoding, false).await
    }

    async fn open_with(
        connection: &Connection,
        encoding: Encoding,
        mandatory: bool,
    ) -> Result<Self, PublishError> {
        let channel = connection.create_channel().await?;
        channel
            .confirm_select(ConfirmSelectOptions::default())
            .await?;
        Ok(Publisher {
            channel,
            encoding,
            mandatory,
            order: Arc::default(),
        })
    }

    pub fn channel(&self) -> &Channel {
        &self.channel
    }

    /// Publishes a generated message in this publisher's encoding. Returns
    /// the confirmation to await (with [`Pending::confirmed`]).
    pub async fn message<M>(
        &self,
        exchange: &str,
        routing_key: &str,
        message: &M,
        message_id: &str,
    ) -> Result<Pending, PublishError>
    where
        M: prost::Message + serde::Serialize,
    {
        let (body, content_type) = proto::encode(message, self.encoding);
        let properties = BasicProperties::default()
            .with_content_type(content_type.into())
            .with_message_id(message_id.into());
        self.raw(exchange, routing_key, &body, properties).await
    }

    /// Publishes bytes with the given properties, made persistent.
    pub async fn raw(
        &self,
        exchange: &str,
        routing_key: &str,
        body: &[u8],
        properties: BasicProperties,
    ) -> Result<Pending, PublishError> {
        let _in_order = self.order.lock().await;
        let confirm = self
            .channel
            .basic_publish(
                exchange.into(),
                routing_key.into(),
                BasicPublishOptions {
                    mandatory: self.mandatory,
                    ..BasicPublishOptions::default()
                },
                body,
                properties.with_delivery_mode(PERSISTENT),
            )
            .await?;
        Ok(Pending {
            confirm,
            exchange: exchange.to_string(),
            routing_key: routing_key.to_string(),
        })
    }
}

/// A published message waiting for the broker's confirmation.
pub struct Pending {
    confirm: PublisherConfirm,
    exchange: String,
    routing_key: String,
}

impl Pending {
    /// Waits for the broker: Ok only for an ack of a routed message.
    pub async fn confirmed(self) -> Result<(), PublishError> {
        match self.confirm.await? {
            Confirmation::Ack(None) => Ok(()),
            // Named by what was published here, not by the returned
            // message: one channel carries one route (see the module's doc).
            Confirmation::Ack(Some(returned)) => Err(PublishError::Unroutable {
                exchange: self.exchange,
                routing_key: self.routing_key,
                reply_code: returned.reply_code,
                reply_text: returned.reply_text.to_string(),
            }),
            Confirmation::Nack(_) => Err(PublishError::Nack(self.exchange)),
            // Only without confirm_select, which `open` always does.
            Confirmation::NotRequested => Ok(()),
        }
    }
}

/// Waits for all confirmations; the first failure is returned (the rest
/// are still awaited so none is left dangling).
pub async fn confirm_all(pending: Vec<Pending>) -> Result<(), PublishError> {
    let mut first = None;
    for p in pending {
        if let Err(e) = p.confirmed().await
            && first.is_none()
        {
            first = Some(e);
        }
    }
    first.map_or(Ok(()), Err)
}

/// Headers of a dead letter: the original ones plus the reason.
pub fn with_reason(original: Option<&FieldTable>, kind: &str, reason: &str) -> FieldTable {
    use super::topology::{HEADER_KIND, HEADER_REASON};
    use lapin::types::{AMQPValue, LongString};
    let mut headers = original.cloned().unwrap_or_default();
    headers.insert(
        HEADER_REASON.into(),
        AMQPValue::LongString(LongString::from(reason)),
    );
    headers.insert(
        HEADER_KIND.into(),
        AMQPValue::LongString(LongString::from(kind)),
    );
    headers
}

/// Headers of a task put aside in the delay queue: the original ones with
/// the deferral count raised to `deferrals + 1` and the failed deliveries
/// so far (the broker's count plus any carried from an earlier deferral)
/// carried in `x-linesift-attempts`, since the republished message starts
/// a new broker count. Left out: the broker's delivery count, and the
/// dead-lettering history (`x-death`, `x-first-death-*`, `x-last-death-*`):
/// RabbitMQ before 4.0 reads a client's `x-death`, and a history that
/// names the task queue would make the delay queue's expiry back to it
/// look like a dead-letter cycle, which the broker drops.
pub fn deferred(original: Option<&FieldTable>, deferrals: u64) -> FieldTable {
    use super::topology::{HEADER_ATTEMPTS, HEADER_DEFERRALS, HEADER_DELIVERY_COUNT};
    let attempts = count_header(original, HEADER_DELIVERY_COUNT)
        .saturating_add(count_header(original, HEADER_ATTEMPTS));
    let mut headers = FieldTable::default();
    for (key, value) in original.map(FieldTable::inner).into_iter().flatten() {
        let key_str = key.as_str();
        let dropped = key_str == HEADER_DELIVERY_COUNT
            || key_str == "x-death"
            || key_str.starts_with("x-first-death-")
            || key_str.starts_with("x-last-death-");
        if !dropped {
            headers.insert(key.clone(), value.clone());
        }
    }
    let count = |n: u64| AMQPValue::LongLongInt(i64::try_from(n).unwrap_or(i64::MAX));
    headers.insert(HEADER_DEFERRALS.into(), count(deferrals.saturating_add(1)));
    headers.insert(HEADER_ATTEMPTS.into(), count(attempts));
    headers
}

/// A count carried in a header, whichever integer type the publisher (the
/// broker, or another client) chose; 0 when absent or not a count.
pub fn count_header(headers: Option<&FieldTable>, name: &str) -> u64 {
    let value = headers.and_then(|h| h.inner().get(name));
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
    use crate::worker::topology::{HEADER_ATTEMPTS, HEADER_DEFERRALS, HEADER_DELIVERY_COUNT};
    use lapin::types::{AMQPValue, LongString};

    /// The deferral count goes up by one from none or from what the last
    /// deferral wrote; failed deliveries add up (the broker's count, plus
    /// those an earlier deferral carried) in place of the broker's count;
    /// the dead-lettering history is dropped; other headers are kept.
    #[test]
    fn a_deferred_task_counts_its_deferrals_and_carries_its_attempts() {
        let first = deferred(None, 0);
        assert_eq!(
            first.inner().get(HEADER_DEFERRALS),
            Some(&AMQPValue::LongLongInt(1))
        );
        assert_eq!(
            first.inner().get(HEADER_ATTEMPTS),
            Some(&AMQPValue::LongLongInt(0))
        );
        let mut original = FieldTable::default();
        original.insert(
            "trace".into(),
            AMQPValue::LongString(LongString::from("t1")),
        );
        original.insert(HEADER_DELIVERY_COUNT.into(), AMQPValue::LongLongInt(2));
        original.insert(HEADER_ATTEMPTS.into(), AMQPValue::LongLongInt(1));
        original.insert(HEADER_DEFERRALS.into(), AMQPValue::LongLongInt(3));
        for history in ["x-death", "x-first-death-queue", "x-last-death-reason"] {
            original.insert(history.into(), AMQPValue::LongString(LongString::from("q")));
        }
        let again = deferred(Some(&original), 3);
        let get = |key: &str| again.inner().get(key).cloned();
        assert_eq!(get(HEADER_DEFERRALS), Some(AMQPValue::LongLongInt(4)));
        assert_eq!(get(HEADER_ATTEMPTS), Some(AMQPValue::LongLongInt(3)));
        assert_eq!(get(HEADER_DELIVERY_COUNT), None);
        assert_eq!(get("x-death"), None);
        assert_eq!(
            get("trace"),
            Some(AMQPValue::LongString(LongString::from("t1")))
        );
        assert_eq!(again.inner().len(), 3);
    }
}
