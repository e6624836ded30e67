//! Each mode's ranking, folded into one integer key where lower is better, and which games may
//! enter a leaderboard at all.
//!
//! | mode | ranked by | counts when |
//! |---|---|---|
//! | 40 lines | time | the 40 lines were cleared |
//! | marathon, ultra | score | the game ended (top out, goal or time) |
//! | master | lines, then time | the game ended |
//! | cheese | pieces | all the garbage was dug |
//! | combo | longest combo | the game ended |
//! | descent | gems (its score) | the game ended (its time limit) |
//! | classic | score | the game ended (a top out) |
//! | survival | time survived, more is better | the game ended (a top out) |
//!
//! And every board ranks only a game that achieved something in its measure ([`achieved`]): a
//! master game with 0 lines, a marathon or ultra game with 0 points, a combo game without a
//! combo, a descent game without a gem, a survival game that dug no garbage row is stored,
//! never ranked, so it is neither a personal best
//! nor on a board (40 lines and cheese already need their goal). This is the one place the rule
//! lives: the writer's verdict ([`eligible`]) decides both the boards and the personal bests.
//!
//! Endless and custom games are stored, never ranked. So is a cheese game with a row count other
//! than the preset's 20 (it is not the preset), and a classic game with its lock delay on (an aid
//! the NES game has not); a classic game from any start level the menu offers (0-19) is the
//! preset and ranks on the one board, as the NES game's own competitions choose their level.
//!
//! Every mode has a board under its home ruleset ([`crate::home_ruleset`]: `tetrs` for descent,
//! `standard` for the others); 40 lines, marathon and ultra also have one under `tui-tetris`
//! and one under `tetrs` ([`crate::ruleset_modes`]; the one table is [`crate::modes`]). A leaderboard game plays its mode's
//! preset exactly (a custom mode that calls itself 40 lines does not rank) under its ruleset's
//! own values: a game with any [`minotty_engine::Tuning`] is stored, never ranked. A forfeited
//! game never ranks. Neither does a game ended by the input limit (a flood of keys, not play),
//! nor a paused game of a timed mode (`Mode::timed`: 40 lines, ultra, master), whose replay
//! holds `Input::Pause`, nor a game a bot took over (`Input::Bot`), nor a ghost race
//! (`Input::Ghost`: dealt the ghost's seed, its player could know every piece in advance),
//! nor a game its player took back to an earlier moment (`Input::Rewind`: undo, a savepoint).

use minotty_engine::{CLASSIC_MAX_START, EndReason, Input, Mode, ModeKind, Replay, Stats};

use crate::modes::{Measure, has_board, measure};

/// Master keys lines above time: a time takes the low 40 bits (34 years of milliseconds) and
/// lines the 22 above them (4 million lines), so the key never overflows.
const TIME_BITS: u32 = 40;
const LINE_BITS: u32 = 22;

/// The leaderboard key of a game of `kind` with `stats` (lower is better), or `None` for a mode
/// without a leaderboard.
pub fn rank_key(kind: ModeKind, stats: &Stats) -> Option<i64> {
    let time = i64::try_from(stats.time).unwrap_or(i64::MAX);
    let score = i64::try_from(stats.score).unwrap_or(i64::MAX);
    Some(match measure(kind) {
        Measure::Time => time,
        // Descent's score is its gems (one point each, nothing else scores).
        Measure::Points { .. } | Measure::Gems => -score,
        Measure::TimeSurvived => -time,
        Measure::LinesThenTime => {
            let time = time.min((1 << TIME_BITS) - 1);
            let lines = stats.lines.min((1 << LINE_BITS) - 1);
            -(i64::from(lines) << TIME_BITS) + time
        }
        Measure::Pieces => i64::from(stats.pieces),
        Measure::Combo => -i64::from(stats.max_combo),
        // Endless is stored, never ranked: a game with no end has no comparable result yet.
        // Puzzle has its progress per account instead (the server's `store/puzzle.rs`).
        Measure::Unranked => return None,
    })
}

/// The first key of `key`'s bucket in `leaderboard_counts` (see `migrations/0004`). Buckets
/// are ranges of 2^shift keys, sized so that a board of 50,000 players with the stats people
/// reach has at most a few thousand buckets and few entries in each: 256 ms of a 40-lines time,
/// 2048 points of marathon and classic and 1024 of ultra, 16 s of a master time (within its
/// line count), 256 ms of a survival time,
/// and one bucket per value for cheese pieces, combos and descent gems. A bucket that is too coarse only
/// makes a rank look-up count more entries; any shift gives exact ranks.
pub fn bucket_floor(kind: ModeKind, key: i64) -> i64 {
    let shift = match measure(kind) {
        Measure::Time | Measure::TimeSurvived => 8,
        Measure::Points { bucket_shift } => bucket_shift,
        Measure::LinesThenTime => 14,
        Measure::Pieces | Measure::Combo | Measure::Gems | Measure::Unranked => 0,
    };
    // An arithmetic shift floors negative keys too, so buckets never straddle zero.
    (key >> shift) << shift
}

/// Why a game does not enter a leaderboard (it is still stored).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Unranked {
    #[error("this mode has no leaderboard")]
    NoLeaderboard,
    #[error("the mode differs from the {0} preset")]
    NotThePreset(&'static str),
    #[error("this mode has no board under this ruleset")]
    Ruleset,
    #[error("the ruleset was tuned")]
    Tuned,
    #[error("the game did not end")]
    Unfinished,
    #[error("the game was forfeited")]
    Forfeit,
    #[error("the goal was not reached")]
    GoalMissed,
    #[error("the game reached the input limit")]
    InputLimit,
    #[error("the game was paused")]
    Paused,
    #[error("a bot played")]
    Bot,
    #[error("a ghost race: the pieces were known in advance")]
    Ghost,
    #[error("taken back: undo or a savepoint was used")]
    Rewound,
    #[error("{0}")]
    Nothing(&'static str),
}

/// Whether a game of `kind` with `stats` achieved something in the measure its board ranks on;
/// `Err` says what it lacks. Modes ranked on a goal (40 lines, cheese) achieve it by winning,
/// which [`eligible`] checks.
pub fn achieved(kind: ModeKind, stats: &Stats) -> Result<(), Unranked> {
    match measure(kind).lacks(stats) {
        Some(lacks) => Err(Unranked::Nothing(lacks)),
        None => Ok(()),
    }
}

/// Whether `mode` is its kind's preset as its board ranks it: the preset as it was under ruleset
/// `version`, or for classic, the preset from any start level the menu offers
/// (`0..=CLASSIC_MAX_START`), without the lock delay.
pub fn is_ranked_preset(mode: &Mode, version: u16) -> bool {
    match mode.kind {
        ModeKind::Classic => {
            mode.start_level <= CLASSIC_MAX_START && *mode == Mode::classic(mode.start_level, false)
        }
        kind => *mode == kind.preset_at(version),
    }
}

/// Whether a game with this replay and (re-simulated) outcome may rank; the key when it may.
pub fn eligible(
    replay: &Replay,
    stats: &Stats,
    outcome: Option<(EndReason, bool)>,
) -> Result<i64, Unranked> {
    let kind = replay.mode.kind;
    let key = rank_key(kind, stats).ok_or(Unranked::NoLeaderboard)?;
    if !has_board(kind, replay.ruleset) {
        return Err(Unranked::Ruleset);
    }
    if !replay.tuning.is_default() {
        return Err(Unranked::Tuned);
    }
    if !is_ranked_preset(&replay.mode, replay.version) {
        return Err(Unranked::NotThePreset(kind.id()));
    }
    let (reason, won) = outcome.ok_or(Unranked::Unfinished)?;
    if reason == EndReason::Forfeit {
        return Err(Unranked::Forfeit);
    }
    if reason == EndReason::InputLimit {
        return Err(Unranked::InputLimit);
    }
    if replay.inputs.iter().any(|&(_, i)| i == Input::Bot) {
        return Err(Unranked::Bot);
    }
    // A ghost race is dealt the ghost's seed: its player could know every piece.
    if replay.inputs.iter().any(|&(_, i)| i == Input::Ghost) {
        return Err(Unranked::Ghost);
    }
    // Taken back: its player saw the pieces and the moves that came after.
    if replay.inputs.iter().any(|&(_, i)| i == Input::Rewind) {
        return Err(Unranked::Rewound);
    }
    if replay.mode.timed() && replay.inputs.iter().any(|&(_, i)| i == Input::Pause) {
        return Err(Unranked::Paused);
    }
    let needs_goal = matches!(kind, ModeKind::Sprint | ModeKind::Cheese);
    if needs_goal && !won {
        return Err(Unranked::GoalMissed);
    }
    achieved(kind, stats)?;
    Ok(key)
}

#[cfg(test)]
mod tests;
