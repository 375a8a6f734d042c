//! A slow path to the broker, for the tests of what the worker does while
//! a publish is unconfirmed: a TCP proxy to the test broker that reads the
//! AMQP frames the worker sends and holds back, from the first publish to
//! one queue (through the default exchange) on, every frame on that
//! publish's channel, until released. The broker has not seen the message,
//! so it cannot confirm it: the publish is in flight for as long as the
//! test likes, without a sleep to time. Everything else goes through as
//! it comes, both ways. It also tells when the worker cancels a consumer
//! (what a drain starts with).

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::tcp::{OwnedReadHalf, OwnedWriteHalf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tokio::task::JoinHandle;

/// The broker the proxy forwards to.
const BROKER: &str = "127.0.0.1:5672";

/// AMQP 0-9-1 frame: type (1), channel (2), size (4), payload, end (1).
const FRAME_HEAD: usize = 7;
const METHOD_FRAME: u8 = 1;
/// basic.publish and basic.cancel: class 60, methods 40 and 30.
const BASIC_PUBLISH: [u8; 4] = [0, 60, 0, 40];
const BASIC_CANCEL: [u8; 4] = [0, 60, 0, 30];

/// What the proxy has seen, and whether the test released the hold.
#[derive(Debug, Clone, Copy, Default)]
struct Seen {
    /// A publish to the queue is held back.
    held: bool,
    /// The worker cancelled a consumer.
    cancelled: bool,
    released: bool,
}

pub struct Proxy {
    pub addr: SocketAddr,
    seen: watch::Sender<Seen>,
    tasks: Arc<Mutex<Vec<JoinHandle<()>>>>,
}

impl Proxy {
    /// Listens on 127.0.0.1 and holds back publishes to `queue`.
    pub async fn start(queue: &str) -> Proxy {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let addr = listener.local_addr().expect("local addr");
        let seen = watch::Sender::new(Seen::default());
        let tasks = Arc::new(Mutex::new(Vec::new()));
        let (route, seen2, tasks2) = (queue.to_string(), seen.clone(), Arc::clone(&tasks));
        let accept = tokio::spawn(async move {
            while let Ok((worker, _)) = listener.accept().await {
                let broker = TcpStream::connect(BROKER).await.expect("broker");
                let (from_worker, to_worker) = worker.into_split();
                let (from_broker, to_broker) = broker.into_split();
                let forward = Forward {
                    route: route.clone(),
                    seen: seen2.clone(),
                };
                let mut tasks = tasks2.lock().expect("tasks");
                tasks.push(tokio::spawn(forward.run(from_worker, to_broker)));
                tasks.push(tokio::spawn(copy(from_broker, to_worker)));
            }
        });
        tasks.lock().expect("tasks").push(accept);
        Proxy { addr, seen, tasks }
    }

    /// The AMQP URL of the broker through the proxy.
    pub fn url(&self) -> String {
        format!("amqp://guest:guest@{}/%2f", self.addr)
    }

    /// Waits until a publish to the queue is held back.
    pub async fn held(&self) {
        self.wait(|s| s.held).await;
    }

    /// Waits until the worker has cancelled a consumer.
    pub async fn cancelled(&self) {
        self.wait(|s| s.cancelled).await;
    }

    /// Sends what was held back, and holds nothing from now on.
    pub fn release(&self) {
        self.seen.send_modify(|s| s.released = true);
    }

    async fn wait(&self, what: impl Fn(&Seen) -> bool) {
        let mut rx = self.seen.subscribe();
        let waited = tokio::time::timeout(std::time::Duration::from_secs(20), rx.wait_for(what));
        assert!(matches!(waited.await, Ok(Ok(_))), "the proxy never saw it");
    }
}

impl Proxy {
    /// Closes every connection through the proxy (dropping what it held
    /// back), as a network failure would, or the end of a worker's
    /// process; and takes no more.
    pub fn close(&self) {
        for task in self.tasks.lock().expect("tasks").drain(..) {
            task.abort();
        }
    }
}

impl Drop for Proxy {
    fn drop(&mut self) {
        self.close();
    }
}

async fn copy(mut from: OwnedReadHalf, mut to: OwnedWriteHalf) {
    let _ = tokio::io::copy(&mut from, &mut to).await;
    let _ = to.shutdown().await;
}

/// The worker-to-broker direction, frame by frame.
struct Forward {
    route: String,
    seen: watch::Sender<Seen>,
}

impl Forward {
    async fn run(self, mut from: OwnedReadHalf, mut to: OwnedWriteHalf) {
        let mut released = self.seen.subscribe();
        let (mut unread, mut held) = (Vec::new(), Vec::new());
        // The protocol header (`AMQP` 0 0 9 1) comes before any frame.
        let mut header = [0u8; 8];
        if from.read_exact(&mut header).await.is_err() || to.write_all(&header).await.is_err() {
            return;
        }
        let mut holding: Option<[u8; 2]> = None;
        let mut chunk = vec![0u8; 64 * 1024];
        loop {
            tokio::select! {
                read = from.read(&mut chunk) => {
                    let Ok(n @ 1..) = read else { break };
                    unread.extend_from_slice(&chunk[..n]);
                    let mut out = Vec::new();
                    while let Some(frame) = next_frame(&mut unread) {
                        self.sort(frame, &mut holding, &mut out, &mut held);
                    }
                    if to.write_all(&out).await.is_err() {
                        break;
                    }
                }
                () = wait_released(&mut released), if holding.is_some() => {
                    holding = None;
                    if to.write_all(&std::mem::take(&mut held)).await.is_err() {
                        break;
                    }
                }
            }
        }
        let _ = to.shutdown().await;
    }

    /// Sends `frame` on (to `out`) or holds it back (in `held`).
    fn sort(
        &self,
        frame: Vec<u8>,
        holding: &mut Option<[u8; 2]>,
        out: &mut Vec<u8>,
        held: &mut Vec<u8>,
    ) {
        let channel = [frame[1], frame[2]];
        let payload = &frame[FRAME_HEAD..frame.len() - 1];
        let method = |m: [u8; 4]| frame[0] == METHOD_FRAME && payload.starts_with(&m);
        if method(BASIC_CANCEL) {
            self.seen.send_modify(|s| s.cancelled = true);
        }
        let released = self.seen.borrow().released;
        if holding.is_none() && !released && method(BASIC_PUBLISH) && self.routes(payload) {
            *holding = Some(channel);
            held.extend_from_slice(&frame);
            self.seen.send_modify(|s| s.held = true);
            return;
        }
        match *holding == Some(channel) {
            true => held.extend_from_slice(&frame),
            false => out.extend_from_slice(&frame),
        }
    }

    /// Whether a basic.publish's arguments (reserved short, exchange and
    /// routing key as short strings) name the default exchange and the
    /// queue.
    fn routes(&self, payload: &[u8]) -> bool {
        let exchange = payload.get(6).copied();
        let key_len = usize::from(payload.get(7).copied().unwrap_or(0));
        exchange == Some(0) && payload.get(8..8 + key_len) == Some(self.route.as_bytes())
    }
}

/// Resolves once the test has released the hold (never, should the proxy
/// be dropped first).
async fn wait_released(seen: &mut watch::Receiver<Seen>) {
    if seen.wait_for(|s| s.released).await.is_err() {
        std::future::pending::<()>().await;
    }
}

/// Takes the first whole frame off `unread`, if it holds one.
fn next_frame(unread: &mut Vec<u8>) -> Option<Vec<u8>> {
    let size = u32::from_be_bytes(unread.get(3..FRAME_HEAD)?.try_into().ok()?) as usize;
    let len = FRAME_HEAD + size + 1;
    (unread.len() >= len).then(|| unread.drain(..len).collect())
}
