//! What the tests against the local RabbitMQ (127.0.0.1:5672, guest/guest;
//! `.ci/run` starts it) share: its URL, and names no other test or earlier
//! run uses, so tests running at once never meet each other's queues.

use std::sync::atomic::{AtomicUsize, Ordering};

pub const AMQP: &str = "amqp://guest:guest@127.0.0.1:5672/%2f";

/// `{suite}-{name}-{pid}-{nanos}-{n}`: the suite's prefix says which test
/// file left an object behind, if one ever does.
pub fn unique(suite: &str, name: &str) -> String {
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.subsec_nanos())
        .unwrap_or(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    format!("{suite}-{name}-{}-{nanos}-{n}", std::process::id())
}
