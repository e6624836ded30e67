//! A climb's run on its way to the leaderboard: its replay is re-simulated as a match's seats
//! are (`minotty_domain::resimulate`, on a blocking thread; an engine panic only loses the run) and the height the replay itself reached is
//! what is stored, never the one the climber's reports claimed.

use minotty_domain::PlayerId;
use minotty_engine::Replay;
use minotty_engine::versus::climb;
use minotty_store::{ClimbRecord, Store};

/// A finished run to verify and keep.
#[derive(Debug)]
pub(super) struct Finished {
    pub player: PlayerId,
    /// The seed the climb gave the run.
    pub seed: u32,
    pub replay: Replay,
    pub ended_at: i64,
}

/// Why a run did not reach the board.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(super) enum NotKept {
    /// Not of the run's seed, too long, not playable or an engine panic (`resimulate`).
    #[error("the replay is {0}")]
    Unplayable(String),
    #[error("its check did not finish")]
    Panicked,
    #[error("the run climbed no height")]
    Ground,
    #[error("the store refused it: {0}")]
    Store(String),
}

/// The replay's own height and game time, re-simulated.
pub(super) fn verified_height(run: &Finished) -> Result<(u32, u64), NotKept> {
    let verified =
        minotty_domain::resimulate(&run.replay, run.seed).map_err(NotKept::Unplayable)?;
    let height = climb::height(verified.stats.lines, verified.stats.sent);
    Ok((height, verified.stats.time))
}

/// Verifies `run` and keeps its height on the board: the height stored, or why not.
pub(super) async fn keep(store: Option<Store>, run: Finished) -> Result<u32, NotKept> {
    let player = run.player;
    let ended_at = run.ended_at;
    let checked = tokio::task::spawn_blocking(move || verified_height(&run))
        .await
        .map_err(|_| NotKept::Panicked)??;
    let (height, time_ms) = checked;
    if height == 0 {
        return Err(NotKept::Ground);
    }
    let Some(store) = store else {
        return Err(NotKept::Store("no database".into()));
    };
    store
        .record_climb(ClimbRecord {
            player,
            height,
            time_ms,
            ended_at,
        })
        .await
        .map_err(|e| NotKept::Store(e.to_string()))?;
    Ok(height)
}
