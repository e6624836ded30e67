//! What the store (`minotty-store`) reports, kept as metrics: the game writer's queue and
//! transactions in [`super::METRICS`], the spool's records and counts in [`SPOOL`].
//!
//! The store imports nothing of the server: it tells a [`StoreObserver`], and [`observer`] is
//! the one the server gives it ([`Store::observed_by`](minotty_store::Store::observed_by) where
//! the game writer is spawned, [`Spool::open_observed`](minotty_store::spool::Spool::open_observed)
//! where the spool is opened).

use std::fmt::Write as _;
use std::sync::Arc;
use std::time::Duration;

use minotty_store::StoreObserver;

use super::{Counter, Gauge, METRICS};

/// The observer that keeps the process's metrics (several stores and spools in one process,
/// in tests, add up).
#[derive(Clone, Copy, Debug, Default)]
pub struct StoreMetrics;

/// The server's [`StoreObserver`].
pub fn observer() -> Arc<dyn StoreObserver> {
    Arc::new(StoreMetrics)
}

impl StoreObserver for StoreMetrics {
    fn games_queued(&self, delta: i64) {
        METRICS.db_queue_games.add(delta);
    }

    fn games_written(&self, took: Duration) {
        METRICS.db_write_games.observe(took);
    }

    fn spool_records(&self, records: usize) {
        SPOOL
            .records
            .set(i64::try_from(records).unwrap_or(i64::MAX));
    }

    fn spooled(&self, kind: &'static str) {
        if kind == "game" {
            SPOOL.games.add(1);
        } else {
            SPOOL.matches.add(1);
        }
    }

    fn spool_full(&self) {
        SPOOL.full.add(1);
    }

    fn spool_replayed(&self) {
        SPOOL.replayed.add(1);
    }

    fn spool_aside(&self) {
        SPOOL.aside.add(1);
    }

    fn games_over_quota(&self, games: usize) {
        SPOOL
            .over_quota
            .add(u64::try_from(games).unwrap_or(u64::MAX));
    }
}

/// The spool's numbers, process-wide (several spools in one process, in tests, add up).
#[derive(Debug)]
pub struct SpoolMetrics {
    pub records: Gauge,
    pub games: Counter,
    pub matches: Counter,
    pub full: Counter,
    pub replayed: Counter,
    pub aside: Counter,
    /// Stored games the replay quota deleted (not the spool's, but the store's too).
    pub over_quota: Counter,
}

pub static SPOOL: SpoolMetrics = SpoolMetrics {
    records: Gauge::new(),
    games: Counter::new(),
    matches: Counter::new(),
    full: Counter::new(),
    replayed: Counter::new(),
    aside: Counter::new(),
    over_quota: Counter::new(),
};

/// The spool's lines of `/metrics`, and the replay quota's.
pub fn render_spool(o: &mut String) {
    let m = &SPOOL;
    let _ = writeln!(
        o,
        "# HELP minotty_spool_records Games and matches waiting in the spool to be stored.\n\
         # TYPE minotty_spool_records gauge\n\
         minotty_spool_records {}\n\
         # HELP minotty_spool_written_total Records spooled because the database did not take them.\n\
         # TYPE minotty_spool_written_total counter\n\
         minotty_spool_written_total{{kind=\"game\"}} {}\n\
         minotty_spool_written_total{{kind=\"match\"}} {}\n\
         # HELP minotty_spool_full_total Records refused by a full spool (logged whole instead).\n\
         # TYPE minotty_spool_full_total counter\n\
         minotty_spool_full_total {}\n\
         # HELP minotty_spool_replayed_total Spooled records stored (or found stored) and deleted.\n\
         # TYPE minotty_spool_replayed_total counter\n\
         minotty_spool_replayed_total {}\n\
         # HELP minotty_spool_aside_total Spooled records set aside: unreadable, or refused by the database.\n\
         # TYPE minotty_spool_aside_total counter\n\
         minotty_spool_aside_total {}\n\
         # HELP minotty_games_over_quota_total Stored games deleted by the replay quota of their player.\n\
         # TYPE minotty_games_over_quota_total counter\n\
         minotty_games_over_quota_total {}",
        m.records.get(),
        m.games.get(),
        m.matches.get(),
        m.full.get(),
        m.replayed.get(),
        m.aside.get(),
        m.over_quota.get(),
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What the store tells the server's observer moves the lines of `/metrics` it moved when
    /// the store wrote them itself.
    #[test]
    fn the_stores_reports_move_the_metrics() {
        let value = |text: &str, series: &str| -> i64 {
            text.lines()
                .find_map(|l| l.strip_prefix(series)?.strip_prefix(' ')?.parse().ok())
                .unwrap_or_else(|| panic!("no {series} in\n{text}"))
        };
        let series = [
            "minotty_spool_written_total{kind=\"game\"}",
            "minotty_spool_written_total{kind=\"match\"}",
            "minotty_spool_full_total",
            "minotty_spool_replayed_total",
            "minotty_spool_aside_total",
            "minotty_games_over_quota_total",
        ];
        let before = super::super::render();
        let writes_before = METRICS.db_write_games.count();
        let o = observer();
        o.spooled("game");
        o.spooled("match");
        o.spooled("match");
        o.spool_full();
        o.spool_replayed();
        o.spool_aside();
        o.spool_aside();
        o.games_over_quota(3);
        o.spool_records(7);
        o.games_written(Duration::from_millis(3));
        let after = super::super::render();
        let moved: Vec<i64> = series
            .iter()
            .map(|s| value(&after, s) - value(&before, s))
            .collect();
        assert_eq!(moved, [1, 2, 1, 1, 2, 3]);
        assert_eq!(value(&after, "minotty_spool_records"), 7);
        assert_eq!(METRICS.db_write_games.count(), writes_before + 1);
    }
}
