//! Every delivery the worker receives counted exactly once, by how it
//! ended, so that received = acked + outcomes + retried + deferred +
//! dead-lettered + abandoned holds once nothing is in flight, whatever
//! happened to the broker meanwhile. It counts; it settles nothing.
//!
//! A [`Tally`] is made when a delivery arrives and ended with the
//! [`Verdict`] its settlement reached. One dropped without a verdict (its
//! task aborted when the connection was lost or the drain deadline
//! passed) counts as abandoned, as does a verdict whose ack or nack never
//! reached the broker (the channel was gone): in both cases the broker
//! holds the delivery unsettled and hands it out again, where it is
//! received and counted anew.

use super::metrics::Metrics;

/// How one delivery ended, as far as the broker knows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Verdict {
    /// Acked with its results confirmed; the documents it published, and
    /// the links messages with them.
    Acked { documents: u64, links: u64 },
    /// Acked once its outcome's `Failure` event was confirmed, by kind.
    Outcome(String),
    /// Requeued by the worker (nack): a transient failure, or a dead
    /// letter the dead-letter exchange did not confirm.
    Retried,
    /// Acked once the delay queue confirmed the copy put aside there.
    Deferred,
    /// Acked once the dead-letter exchange confirmed it, by kind.
    DeadLettered(String),
    /// Left unsettled: the ack or nack could not be sent (the channel was
    /// gone), or the task was given up mid-way. The broker returns it to
    /// the queue.
    Abandoned,
}

/// One delivery in the counters, from its receipt to its verdict; also
/// its place in the in-flight gauge.
pub struct Tally {
    metrics: Metrics,
    ended: bool,
}

impl Tally {
    /// Counts a delivery received, and in flight until the tally ends.
    pub fn received(metrics: &Metrics) -> Self {
        metrics.tasks_received.inc();
        metrics.tasks_in_flight.inc();
        Tally {
            metrics: metrics.clone(),
            ended: false,
        }
    }

    /// Counts the delivery's verdict.
    pub fn end(mut self, verdict: Verdict) {
        self.ended = true;
        count(&self.metrics, &verdict);
    }
}

impl Drop for Tally {
    fn drop(&mut self) {
        self.metrics.tasks_in_flight.dec();
        if !self.ended {
            count(&self.metrics, &Verdict::Abandoned);
        }
    }
}

fn count(metrics: &Metrics, verdict: &Verdict) {
    match verdict {
        Verdict::Acked { documents, links } => {
            metrics.documents_published.inc_by(*documents);
            metrics.links_published.inc_by(*links);
            metrics.tasks_acked.inc();
        }
        Verdict::Outcome(kind) => metrics.task_outcomes.with_label_values(&[kind]).inc(),
        Verdict::Retried => metrics.tasks_retried.inc(),
        Verdict::Deferred => metrics.tasks_deferred.inc(),
        Verdict::DeadLettered(kind) => metrics.tasks_dead_lettered.with_label_values(&[kind]).inc(),
        Verdict::Abandoned => metrics.tasks_abandoned.inc(),
    }
}

/// The counters' sums, read back: what the equation checks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Totals {
    pub received: u64,
    pub acked: u64,
    pub outcomes: u64,
    pub retried: u64,
    pub deferred: u64,
    pub dead_lettered: u64,
    pub abandoned: u64,
    pub in_flight: i64,
}

impl Totals {
    /// The metrics' current sums.
    pub fn of(metrics: &Metrics) -> Self {
        let sum = |vec: &prometheus::IntCounterVec| -> u64 {
            use prometheus::core::Collector;
            vec.collect()
                .iter()
                .flat_map(|family| family.get_metric())
                .map(|m| m.get_counter().get_value() as u64)
                .sum()
        };
        Totals {
            received: metrics.tasks_received.get(),
            acked: metrics.tasks_acked.get(),
            outcomes: sum(&metrics.task_outcomes),
            retried: metrics.tasks_retried.get(),
            deferred: metrics.tasks_deferred.get(),
            dead_lettered: sum(&metrics.tasks_dead_lettered),
            abandoned: metrics.tasks_abandoned.get(),
            in_flight: metrics.tasks_in_flight.get(),
        }
    }

    /// The deliveries that reached an end.
    pub fn ended(&self) -> u64 {
        self.acked
            + self.outcomes
            + self.retried
            + self.deferred
            + self.dead_lettered
            + self.abandoned
    }

    /// Whether every delivery received is counted once: ended, or still
    /// in flight.
    pub fn add_up(&self) -> bool {
        i128::from(self.received) == i128::from(self.ended()) + i128::from(self.in_flight)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tally_dropped_without_a_verdict_counts_as_abandoned() -> Result<(), prometheus::Error> {
        let metrics = Metrics::new()?;
        let tally = Tally::received(&metrics);
        assert_eq!(Totals::of(&metrics).in_flight, 1);
        assert!(Totals::of(&metrics).add_up());
        drop(tally);
        let totals = Totals::of(&metrics);
        assert_eq!(
            (totals.received, totals.abandoned, totals.in_flight),
            (1, 1, 0)
        );
        assert!(totals.add_up());
        Ok(())
    }

    #[test]
    fn every_verdict_is_counted_once_under_its_own_counter() -> Result<(), prometheus::Error> {
        let metrics = Metrics::new()?;
        let verdicts = [
            Verdict::Acked {
                documents: 3,
                links: 3,
            },
            Verdict::Outcome("http_status".into()),
            Verdict::Retried,
            Verdict::Deferred,
            Verdict::DeadLettered("open".into()),
            Verdict::Abandoned,
        ];
        for verdict in verdicts {
            Tally::received(&metrics).end(verdict);
        }
        let totals = Totals::of(&metrics);
        assert_eq!(
            totals,
            Totals {
                received: 6,
                acked: 1,
                outcomes: 1,
                retried: 1,
                deferred: 1,
                dead_lettered: 1,
                abandoned: 1,
                in_flight: 0,
            }
        );
        assert!(totals.add_up());
        assert_eq!(metrics.documents_published.get(), 3);
        assert_eq!(metrics.links_published.get(), 3);
        Ok(())
    }
}
