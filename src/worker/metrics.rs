//! The worker's Prometheus metrics, in their own registry (so that tests
//! and embedders can run several workers in one process) and rendered in
//! the text exposition format. Serving them is `http`'s job.

use prometheus::{
    Encoder, HistogramOpts, HistogramVec, IntCounter, IntCounterVec, IntGauge, Opts, Registry,
    TextEncoder,
};

/// All metrics of one worker.
#[derive(Clone)]
pub struct Metrics {
    registry: Registry,
    pub tasks_received: IntCounter,
    pub tasks_acked: IntCounter,
    pub tasks_retried: IntCounter,
    pub tasks_deferred: IntCounter,
    pub tasks_abandoned: IntCounter,
    pub tasks_dead_lettered: IntCounterVec,
    pub task_outcomes: IntCounterVec,
    pub documents_published: IntCounter,
    pub links_published: IntCounter,
    pub bytes_in: IntCounter,
    pub stage_seconds: HistogramVec,
    pub fetch_status: IntCounterVec,
    pub tasks_in_flight: IntGauge,
}

impl std::fmt::Debug for Metrics {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Metrics")
    }
}

/// Upper bounds of `linesift_stage_seconds`: 0.5 ms to about 131 s by
/// fours (10 buckets: a page's extraction, a fetch, a publish), then 300,
/// 600, 1200, 1800 and 3600 s, so that a whole WARC file's `task` stage,
/// which may run to the task deadline (600 s by default, longer on a
/// queue of WARC files: README, Operations) and a little past it, is not
/// flattened into the `+Inf` bucket in the p95 panel. One set of buckets
/// for every stage: the label is the stage.
pub fn stage_buckets() -> Result<Vec<f64>, prometheus::Error> {
    let mut buckets = prometheus::exponential_buckets(0.0005, 4.0, 10)?;
    buckets.extend([300.0, 600.0, 1200.0, 1800.0, 3600.0]);
    Ok(buckets)
}

impl Metrics {
    /// Creates and registers the metrics. Fails only on a programming
    /// error (duplicate or invalid names).
    pub fn new() -> Result<Self, prometheus::Error> {
        let registry = Registry::new();
        let counter = |name: &str, help: &str| -> Result<IntCounter, prometheus::Error> {
            let c = IntCounter::new(name, help)?;
            registry.register(Box::new(c.clone()))?;
            Ok(c)
        };
        let labelled = |name: &str, help: &str, label: &str| {
            let c = IntCounterVec::new(Opts::new(name, help), &[label])?;
            registry.register(Box::new(c.clone()))?;
            Ok::<_, prometheus::Error>(c)
        };
        let stage_seconds = HistogramVec::new(
            HistogramOpts::new(
                "linesift_stage_seconds",
                "Seconds per stage (fetch, warc, extract, publish, task)",
            )
            .buckets(stage_buckets()?),
            &["stage"],
        )?;
        registry.register(Box::new(stage_seconds.clone()))?;
        let tasks_in_flight = IntGauge::new("linesift_tasks_in_flight", "Tasks being processed")?;
        registry.register(Box::new(tasks_in_flight.clone()))?;
        Ok(Metrics {
            tasks_received: counter("linesift_tasks_received_total", "Task deliveries received")?,
            // Outcomes are acked too but counted apart: `acked` stays the
            // tasks done with their documents, which is what the
            // no-progress alert and the dashboard's throughput read.
            tasks_acked: counter(
                "linesift_tasks_acked_total",
                "Tasks acked after their results were confirmed (outcomes are counted in linesift_task_outcomes_total)",
            )?,
            tasks_retried: counter(
                "linesift_tasks_retried_total",
                "Tasks requeued after a transient failure",
            )?,
            tasks_deferred: counter(
                "linesift_tasks_deferred_total",
                "Tasks put aside in the delay queue while their host was busy",
            )?,
            // The broker's side of these: deliveries it gets back
            // unsettled and hands out again (see `tally`).
            tasks_abandoned: counter(
                "linesift_tasks_abandoned_total",
                "Task deliveries left unsettled (connection or channel lost, drain deadline passed), which the broker returns to the queue",
            )?,
            tasks_dead_lettered: labelled(
                "linesift_tasks_dead_lettered_total",
                "Tasks sent to the dead-letter exchange, by reason kind",
                "reason",
            )?,
            // The same label as dead letters: one kind, one name, whichever
            // way the task ended.
            task_outcomes: labelled(
                "linesift_task_outcomes_total",
                "Tasks that ended in an outcome (HTTP 404, not HTML, robots.txt, ...), acked once their fatal Failure event was confirmed, by reason kind",
                "reason",
            )?,
            documents_published: counter(
                "linesift_documents_published_total",
                "Documents confirmed by the broker",
            )?,
            links_published: counter(
                "linesift_links_published_total",
                "Links messages (--links-routing-key) confirmed by the broker",
            )?,
            bytes_in: counter(
                "linesift_bytes_in_total",
                "Page bytes fed to the extraction core",
            )?,
            fetch_status: labelled(
                "linesift_fetch_status_total",
                "HTTP statuses of fetched pages (or the error kind)",
                "code",
            )?,
            stage_seconds,
            tasks_in_flight,
            registry,
        })
    }

    /// The metrics in Prometheus text format.
    pub fn render(&self) -> String {
        let mut out = Vec::new();
        // Encoding into a Vec fails only for invalid metric families, which
        // `new` does not register; an empty page is the safe fallback.
        if TextEncoder::new()
            .encode(&self.registry.gather(), &mut out)
            .is_err()
        {
            out.clear();
        }
        String::from_utf8(out).unwrap_or_default()
    }

    /// Records how long a stage took.
    pub fn observe(&self, stage: &str, started: std::time::Instant) {
        self.stage_seconds
            .with_label_values(&[stage])
            .observe(started.elapsed().as_secs_f64());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The buckets rise, stay few, start under a millisecond, and reach
    /// past the longest task deadline in use (the default, and the
    /// example WARC-file queue's in deploy/k8s), with a bound at the
    /// default deadline itself.
    #[test]
    fn stage_buckets_cover_the_task_deadlines() -> Result<(), prometheus::Error> {
        let buckets = stage_buckets()?;
        assert!(buckets.windows(2).all(|w| w[0] < w[1]), "{buckets:?}");
        assert!(buckets.len() <= 16, "{} buckets", buckets.len());
        assert!(buckets[0] <= 0.001);
        let top = buckets[buckets.len() - 1];
        assert!(top >= 1800.0, "top bucket {top} s");
        assert!(buckets.contains(&600.0), "{buckets:?}");
        let m = Metrics::new()?;
        m.stage_seconds.with_label_values(&["task"]).observe(700.0);
        let text = m.render();
        assert!(
            text.contains("linesift_stage_seconds_bucket{stage=\"task\",le=\"1200\"} 1"),
            "{text}"
        );
        assert!(
            text.contains("linesift_stage_seconds_bucket{stage=\"task\",le=\"600\"} 0"),
            "{text}"
        );
        Ok(())
    }

    #[test]
    fn renders_every_family() -> Result<(), prometheus::Error> {
        let m = Metrics::new()?;
        m.tasks_dead_lettered.with_label_values(&["decode"]).inc();
        m.task_outcomes.with_label_values(&["http_status"]).inc();
        m.fetch_status.with_label_values(&["200"]).inc();
        m.observe("fetch", std::time::Instant::now());
        let text = m.render();
        for name in [
            "linesift_tasks_received_total",
            "linesift_tasks_abandoned_total 0",
            "linesift_tasks_dead_lettered_total{reason=\"decode\"} 1",
            "linesift_task_outcomes_total{reason=\"http_status\"} 1",
            "linesift_fetch_status_total{code=\"200\"} 1",
            "linesift_stage_seconds_bucket{stage=\"fetch\"",
            "linesift_tasks_in_flight 0",
        ] {
            assert!(text.contains(name), "{name} missing in\n{text}");
        }
        Ok(())
    }
}
