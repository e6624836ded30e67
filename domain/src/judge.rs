//! Judging a finished game before it is stored: whether it may enter a leaderboard, and for a
//! game that may, re-simulating its replay with the engine to check the stats it claims.

use minotty_engine::{EndReason, MAX_INPUTS, Replay, ReplayError, Stats, Verified};

use crate::ranking::{Unranked, eligible, rank_key};

/// What the store decided about a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Re-simulated and reproduced: the game enters the leaderboards with this key.
    Ranked { key: i64 },
    /// Stored as history only.
    Unranked(Unranked),
    /// The replay did not reproduce the game: stored for investigation, never ranked.
    Rejected(Rejected),
}

impl Verdict {
    /// The value of the `verdict` column.
    pub fn as_db(&self) -> &'static str {
        match self {
            Verdict::Ranked { .. } => "ranked",
            Verdict::Unranked(_) => "unranked",
            Verdict::Rejected(_) => "rejected",
        }
    }

    /// The `verdict_note` column: why the game does not rank.
    pub fn note(&self) -> Option<String> {
        match self {
            Verdict::Ranked { .. } => None,
            Verdict::Unranked(why) => Some(why.to_string()),
            Verdict::Rejected(why) => Some(why.to_string()),
        }
    }
}

/// Why a replay was rejected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Rejected {
    #[error("the replay does not play: {0}")]
    Unplayable(ReplayError),
    #[error("the replay gives other stats than the game claims: {replayed:?} vs {claimed:?}")]
    StatsDiffer {
        claimed: Box<Stats>,
        replayed: Box<Stats>,
    },
    #[error("the replay ends otherwise than the game claims: {replayed:?} vs {claimed:?}")]
    OutcomeDiffers {
        claimed: Option<(EndReason, bool)>,
        replayed: Option<(EndReason, bool)>,
    },
    #[error("the engine panicked while re-simulating the replay")]
    Panicked,
}

/// Re-simulates `replay` with this engine and checks that it reproduces `claimed`.
pub fn verify_replay(replay: &Replay, claimed: &Stats) -> Result<Verified, Rejected> {
    let verified = replay.verify().map_err(Rejected::Unplayable)?;
    if verified.stats != *claimed {
        return Err(Rejected::StatsDiffer {
            claimed: Box::new(*claimed),
            replayed: Box::new(verified.stats),
        });
    }
    Ok(verified)
}

/// Decides whether a game with this replay, claimed `stats` and claimed `outcome`
/// (`Game::outcome()`: `None` when the recording stopped before the game ended) ranks. Games
/// that cannot rank whatever their replay holds (a custom mode, a forfeit, a missed goal, by
/// their own account) are not re-simulated; the others are, which costs up to a few
/// milliseconds of CPU: call it on a blocking thread. An engine panic while re-simulating
/// rejects the game instead of unwinding further. A replay over [`MAX_INPUTS`] is rejected
/// before anything else, unplayed.
pub fn judge(replay: &Replay, stats: &Stats, outcome: Option<(EndReason, bool)>) -> Verdict {
    if replay.inputs.len() > MAX_INPUTS {
        return Verdict::Rejected(Rejected::Unplayable(ReplayError::TooManyInputs {
            count: replay.inputs.len() as u64,
        }));
    }
    if rank_key(replay.mode.kind, stats).is_none() {
        return Verdict::Unranked(Unranked::NoLeaderboard);
    }
    // Judged on the claims first: a claim can only keep a game out of the leaderboards.
    if let Err(why) = eligible(replay, stats, outcome) {
        return Verdict::Unranked(why);
    }
    let checked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        verify_replay(replay, stats)
    }));
    let verified = match checked {
        Ok(Ok(v)) => v,
        Ok(Err(why)) => return Verdict::Rejected(why),
        Err(_) => return Verdict::Rejected(Rejected::Panicked),
    };
    if verified.outcome != outcome {
        return Verdict::Rejected(Rejected::OutcomeDiffers {
            claimed: outcome,
            replayed: verified.outcome,
        });
    }
    match eligible(replay, &verified.stats, verified.outcome) {
        Ok(key) => Verdict::Ranked { key },
        Err(why) => Verdict::Unranked(why),
    }
}
