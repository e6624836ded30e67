//! The background writer of finished matches: rooms hand their records over a channel and never
//! wait for the database. A busy database is retried a few times.

use std::time::Duration;

use tokio::sync::mpsc;

use crate::store::{NewMatch, Store};

/// Tries per match before it is given up (and logged).
const TRIES: u32 = 5;

/// Starts the writer; it ends when every sender is gone.
pub(super) fn spawn(store: Store) -> mpsc::UnboundedSender<NewMatch> {
    let (tx, mut rx) = mpsc::unbounded_channel::<NewMatch>();
    tokio::spawn(async move {
        while let Some(m) = rx.recv().await {
            write(&store, &m).await;
        }
    });
    tx
}

async fn write(store: &Store, m: &NewMatch) {
    let mut delay = Duration::from_millis(50);
    for attempt in 1..=TRIES {
        match store.record_match(m).await {
            Ok(id) => {
                tracing::info!(id = id.0, room = %m.room, ranked = m.ranked, "match stored");
                return;
            }
            Err(e) if e.is_transient() && attempt < TRIES => {
                tracing::warn!(error = %e, attempt, "storing a match; trying again");
                tokio::time::sleep(delay).await;
                delay *= 4;
            }
            Err(e) => {
                tracing::error!(error = %e, room = %m.room, "a match was not stored");
                return;
            }
        }
    }
}
