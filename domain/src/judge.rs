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

#[cfg(test)]
mod tests {
    use super::*;
    use minotty_engine::{Button, Game, GameConfig, Input, Mode, Piece, Time};

    fn tap(game: &mut Game, t: Time, b: Button) {
        game.update(t, Some(Input::Press(b)));
        game.update(t, Some(Input::Release(b)));
    }

    /// Hard drops from `t` on, a second apart, until the game is over.
    fn top_out(game: &mut Game, mut t: Time) {
        while !game.is_over() {
            t += 1000;
            tap(game, t, Button::HardDrop);
        }
    }

    fn judged(game: &Game) -> Verdict {
        judge(&game.replay(), game.stats(), game.outcome())
    }

    /// A Classic game from level 18 that scores, re-simulated and ranked on its points.
    #[test]
    fn the_judge_ranks_a_classic_game_on_its_score() {
        let config = GameConfig {
            mode: Mode::classic(18, false),
            ..GameConfig::default()
        };
        let mut game = Game::new(config, 4);
        game.update(0, None);
        // Soft drop scores a point a row.
        game.update(100, Some(Input::Press(Button::SoftDrop)));
        game.update(400, Some(Input::Release(Button::SoftDrop)));
        top_out(&mut game, 400);
        let score = game.stats().score;
        assert!(score > 0);
        assert_eq!(
            judged(&game),
            Verdict::Ranked {
                key: -(score as i64)
            }
        );
        // With its lock delay the game is stored, not ranked.
        let mut aided = Game::new(
            GameConfig {
                mode: Mode::classic(18, true),
                ..GameConfig::default()
            },
            4,
        );
        aided.update(0, None);
        aided.update(100, Some(Input::Press(Button::SoftDrop)));
        top_out(&mut aided, 400);
        assert!(matches!(
            judged(&aided),
            Verdict::Unranked(Unranked::NotThePreset("classic"))
        ));
    }

    /// A Survival game whose first I digs the first risen row, then tops out: ranked on the
    /// time it lasted. One that digs nothing is stored, not ranked.
    #[test]
    fn the_judge_ranks_a_survival_game_on_its_time() {
        let config = GameConfig {
            mode: Mode::survival(),
            ..GameConfig::default()
        };
        let seed = (0..)
            .find(|&s| {
                let mut g = Game::new(config.clone(), s);
                g.update(0, None);
                g.active().is_some_and(|a| a.placed.piece == Piece::I)
            })
            .expect("a seed dealing an I first");
        let mut game = Game::new(config.clone(), seed);
        game.update(0, None);
        game.update(10_000, None);
        assert_eq!(game.stats().garbage_received, 1, "the first row rose");
        let bottom = minotty_engine::board::HEIGHT - 1;
        let hole = (0..minotty_engine::board::WIDTH)
            .find(|&x| game.board().cell(x, bottom) == minotty_engine::Cell::Empty)
            .expect("its hole") as i8;
        tap(&mut game, 10_000, Button::RotateCw);
        let column = game.active().expect("the I").placed.cells()[0].0;
        let (button, taps) = if hole < column {
            (Button::Left, column - hole)
        } else {
            (Button::Right, hole - column)
        };
        for _ in 0..taps {
            tap(&mut game, 10_000, button);
        }
        tap(&mut game, 10_000, Button::HardDrop);
        assert_eq!(game.stats().garbage_cleared, 1, "dug the row");
        top_out(&mut game, 10_000);
        let time = game.stats().time;
        assert!(time > 10_000);
        assert_eq!(
            judged(&game),
            Verdict::Ranked {
                key: -(time as i64)
            }
        );
        // Left alone it digs nothing.
        let mut idle = Game::new(config, seed);
        idle.update(0, None);
        top_out(&mut idle, 10_000);
        assert_eq!(
            judged(&idle),
            Verdict::Unranked(Unranked::Nothing("no garbage row dug"))
        );
    }
}
