//! A climb's run on its way to the leaderboard: its replay is re-simulated (on a blocking
//! thread; an engine panic only loses the run) and the height the replay itself reached is
//! what is stored, never the one the climber's reports claimed.

use std::panic::{AssertUnwindSafe, catch_unwind};

use minotty_domain::PlayerId;
use minotty_engine::versus::climb;
use minotty_engine::{MAX_INPUTS, Replay};
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
    #[error("the replay is of another seed")]
    OtherSeed,
    #[error("the replay does not play: {0}")]
    Unplayable(String),
    #[error("the engine panicked while re-simulating the replay")]
    Panicked,
    #[error("the run climbed no height")]
    Ground,
    #[error("the store refused it: {0}")]
    Store(String),
}

/// The replay's own height and game time, re-simulated.
pub(super) fn verified_height(run: &Finished) -> Result<(u32, u64), NotKept> {
    let replay = &run.replay;
    if replay.seed != run.seed {
        return Err(NotKept::OtherSeed);
    }
    if replay.inputs.len() > MAX_INPUTS {
        return Err(NotKept::Unplayable("too many inputs".into()));
    }
    let verified = match catch_unwind(AssertUnwindSafe(|| replay.verify())) {
        Ok(Ok(v)) => v,
        Ok(Err(e)) => return Err(NotKept::Unplayable(e.to_string())),
        Err(_) => return Err(NotKept::Panicked),
    };
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
