//! Shutdown signalling: a [`Shutdown`] handle that any part of the worker
//! can wait on, triggered by SIGTERM/SIGINT ([`on_signals`]) or by code
//! (tests, embedders). It only signals; draining in-flight tasks within the
//! deadline is the consumer loop's job.

use tokio::sync::watch;

/// A cloneable "stop consuming" flag that can be awaited.
#[derive(Debug, Clone)]
pub struct Shutdown {
    tx: watch::Sender<bool>,
}

impl Default for Shutdown {
    fn default() -> Self {
        Self::new()
    }
}

impl Shutdown {
    pub fn new() -> Self {
        Shutdown {
            tx: watch::channel(false).0,
        }
    }

    /// Asks the worker to stop consuming and drain.
    pub fn trigger(&self) {
        self.tx.send_replace(true);
    }

    pub fn is_triggered(&self) -> bool {
        *self.tx.borrow()
    }

    /// Resolves once [`trigger`](Self::trigger) was called (at once if it
    /// already was).
    pub async fn wait(&self) {
        let mut rx = self.tx.subscribe();
        // The sender lives in `self`, so `wait_for` cannot see it dropped.
        let _ = rx.wait_for(|stop| *stop).await;
    }
}

/// Triggers `shutdown` on the first SIGTERM or SIGINT (Ctrl-C), and exits
/// the process at once on the second (an operator who presses Ctrl-C again
/// does not want to wait for the drain; unsettled deliveries go back to
/// the queue when the connection drops). Must be called inside a tokio
/// runtime; returns an error when the handlers cannot be installed.
pub fn on_signals(shutdown: Shutdown) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let mut term = signal(SignalKind::terminate())?;
        let mut int = signal(SignalKind::interrupt())?;
        tokio::spawn(async move {
            tokio::select! {
                _ = term.recv() => {}
                _ = int.recv() => {}
            }
            tracing::info!("signal received, draining (again to stop at once)");
            shutdown.trigger();
            tokio::select! {
                _ = term.recv() => {}
                _ = int.recv() => {}
            }
            tracing::warn!("second signal, stopping without draining");
            std::process::exit(130);
        });
    }
    #[cfg(not(unix))]
    tokio::spawn(async move {
        if tokio::signal::ctrl_c().await.is_ok() {
            shutdown.trigger();
        }
    });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn wait_returns_after_trigger() {
        let s = Shutdown::new();
        assert!(!s.is_triggered());
        let waiter = tokio::spawn({
            let s = s.clone();
            async move { s.wait().await }
        });
        s.trigger();
        assert!(
            tokio::time::timeout(std::time::Duration::from_secs(5), waiter)
                .await
                .is_ok()
        );
        s.wait().await;
    }
}
