//! The consumer end of `scripts/bench-worker.sh`: declares the worker
//! topology and a queue bound to the results exchange, prints `ready`, then
//! consumes until `COUNT` distinct documents (by id) have arrived (failure
//! events are counted and reported, not waited for: a WARC file task
//! reports no event for a record it skips), prints the Unix time of the
//! last one in seconds,
//! and once a line (or EOF) comes on stdin, which the script sends after
//! stopping the workers, deletes what it declared.
//!
//! usage: worker_sink AMQP_URL PREFIX DELIVERY_LIMIT COUNT

use futures_util::StreamExt;
use lapin::options::{
    BasicAckOptions, BasicConsumeOptions, QueueDeclareOptions, QueueDeleteOptions,
};
use lapin::types::FieldTable;
use lapin::{Connection, ConnectionProperties};
use linesift::worker::{Names, topology};
use std::collections::HashSet;
use std::io::Write;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let [_, url, prefix, limit, count] = args.as_slice() else {
        return Err("usage: worker_sink AMQP_URL PREFIX DELIVERY_LIMIT COUNT".into());
    };
    let (limit, count): (u32, usize) = (limit.parse()?, count.parse()?);
    let names = Names::with_prefix(prefix);
    let sink = format!("{prefix}.sink");
    let conn = Connection::connect(url, ConnectionProperties::default()).await?;
    let ch = conn.create_channel().await?;
    topology::declare(&conn, &names, limit).await?;
    ch.queue_declare(
        sink.as_str().into(),
        QueueDeclareOptions::default(),
        FieldTable::default(),
    )
    .await?;
    topology::bind_to_results(&ch, &names, &sink).await?;
    ch.basic_qos(1000, Default::default()).await?;
    let mut consumer = ch
        .basic_consume(
            sink.as_str().into(),
            "".into(),
            BasicConsumeOptions::default(),
            FieldTable::default(),
        )
        .await?;
    println!("ready");
    std::io::stdout().flush()?;
    let mut seen = HashSet::new();
    let (mut failures, mut received) = (0usize, 0usize);
    while seen.len() < count {
        let next = tokio::time::timeout(Duration::from_secs(120), consumer.next()).await;
        let Ok(Some(Ok(d))) = next else {
            return Err(format!("stalled after {} of {count} documents", seen.len()).into());
        };
        let id = d
            .properties
            .message_id()
            .as_ref()
            .map(|m| m.to_string())
            .unwrap_or_default();
        match d.routing_key.as_str() {
            topology::ROUTING_DOCUMENT => seen.insert(id),
            _ => {
                failures += 1;
                false
            }
        };
        received += 1;
        // Ack every 100 (multiple) to keep the consumer cheap.
        if received % 100 == 0 || seen.len() == count {
            d.ack(BasicAckOptions { multiple: true }).await?;
        }
    }
    let done = SystemTime::now().duration_since(UNIX_EPOCH)?.as_secs_f64();
    eprintln!("worker_sink: {count} documents ({failures} failure events)");
    println!("{done:.6}");
    std::io::stdout().flush()?;
    tokio::task::spawn_blocking(|| std::io::stdin().read_line(&mut String::new())).await??;
    ch.queue_delete(sink.as_str().into(), QueueDeleteOptions::default())
        .await?;
    topology::delete(&ch, &names).await?;
    let _ = conn.close(200, "done".into()).await;
    Ok(())
}
