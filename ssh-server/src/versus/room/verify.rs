//! A ranked result that rests on another instance's reports is rated only once the winner's
//! replay is verified, as solo games are before they rank (`minotty_domain::judge`): a player of
//! another instance reached this room through a proxy, so what the room knows of their game
//! (lines, attack, that they are still alive) is that instance's say. The winner's replay,
//! re-simulated by this engine, must be of this match's seed, play, hold at least the lines
//! the reports claimed and produce at least the attack the room routed, and (unless the other
//! player gave up or left) not have ended in a loss. A result that fails is stored unrated,
//! and no rating changes.

use std::panic::{AssertUnwindSafe, catch_unwind};

use minotty_engine::{MAX_INPUTS, Replay};

use super::{Live, Room};
use crate::versus::MemberId;

/// Why a ranked result was not rated.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub(crate) enum Unverified {
    #[error("the winner sent no replay")]
    NoReplay,
    #[error("the winner's replay is of another seed")]
    OtherSeed,
    #[error("the winner's replay does not play: {0}")]
    Unplayable(String),
    #[error("the engine panicked while re-simulating the winner's replay")]
    Panicked,
    #[error("the winner's replay has {replayed} lines, the reports claimed {claimed}")]
    Lines { claimed: u32, replayed: u32 },
    #[error("the room routed {routed} lines of the winner's attack, the replay made {made}")]
    Attack { routed: u32, made: u32 },
    #[error("the winner's replay ended in a loss")]
    Lost,
}

/// What the room saw of the winner, to hold the replay against.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Claims {
    pub seed: u32,
    pub lines: u32,
    pub routed_attack: u32,
    /// The other player forfeited or left: the winner's own game does not decide the result.
    pub conceded: bool,
}

/// Checks the winner's replay against `claims`.
pub(crate) fn check_winner(replay: Option<&Replay>, claims: Claims) -> Result<(), Unverified> {
    let replay = replay.ok_or(Unverified::NoReplay)?;
    if replay.seed != claims.seed {
        return Err(Unverified::OtherSeed);
    }
    if replay.inputs.len() > MAX_INPUTS {
        return Err(Unverified::Unplayable("too many inputs".into()));
    }
    let verified = match catch_unwind(AssertUnwindSafe(|| replay.verify())) {
        Ok(Ok(v)) => v,
        Ok(Err(e)) => return Err(Unverified::Unplayable(e.to_string())),
        Err(_) => return Err(Unverified::Panicked),
    };
    if verified.stats.lines < claims.lines {
        return Err(Unverified::Lines {
            claimed: claims.lines,
            replayed: verified.stats.lines,
        });
    }
    if verified.stats.attack < claims.routed_attack {
        return Err(Unverified::Attack {
            routed: claims.routed_attack,
            made: verified.stats.attack,
        });
    }
    if !claims.conceded && verified.outcome.is_some_and(|(_, won)| !won) {
        return Err(Unverified::Lost);
    }
    Ok(())
}

impl Room {
    /// Whether `id` is a member of another instance (a cluster's proxy).
    pub(super) fn is_remote(&self, id: MemberId) -> bool {
        self.hub.is_remote_member(id)
    }

    /// Whether a player of the match in progress was a member of another instance when it
    /// started.
    pub(super) fn has_remote_player(&self) -> bool {
        self.live.as_ref().is_some_and(|l| l.remote)
    }
}

/// The verdict on a rated two-player match whose result rests on another instance's reports.
pub(super) fn verify_ranked(live: &Live) -> Result<(), Unverified> {
    let Some(winner) = (0..live.players.len()).find(|&p| live.router.place(p) == Some(1)) else {
        return Err(Unverified::NoReplay);
    };
    let conceded = live
        .players
        .iter()
        .enumerate()
        .any(|(p, pl)| p != winner && (pl.forfeited || pl.disconnected));
    let pl = &live.players[winner];
    let routed_attack = match live.kind {
        minotty_engine::versus::MatchKind::Battle => live.router.sent(winner),
        minotty_engine::versus::MatchKind::Race => 0,
    };
    check_winner(
        pl.replay.as_ref(),
        Claims {
            seed: live.seed,
            lines: pl.progress.lines,
            routed_attack,
            conceded,
        },
    )
}

#[cfg(test)]
mod tests {
    use minotty_engine::{Button, Game, GameConfig, Input, Mode, RulesetId};

    use super::*;

    /// A short real game: `pieces` hard drops (no lines cleared), recorded as a replay.
    fn played(seed: u32, pieces: usize) -> Replay {
        let config = GameConfig {
            ruleset: RulesetId::default(),
            mode: Mode::custom(0, true, None),
            handling: Default::default(),
            tuning: Default::default(),
        };
        let mut game = Game::new(config, seed);
        let mut t = 0;
        for _ in 0..pieces {
            t += 50;
            game.update(t, Some(Input::Press(Button::HardDrop)));
            t += 50;
            game.update(t, Some(Input::Release(Button::HardDrop)));
        }
        game.replay()
    }

    fn claims(seed: u32) -> Claims {
        Claims {
            seed,
            lines: 0,
            routed_attack: 0,
            conceded: false,
        }
    }

    #[test]
    fn a_real_game_verifies() {
        let replay = played(7, 5);
        assert_eq!(check_winner(Some(&replay), claims(7)), Ok(()));
    }

    #[test]
    fn forged_or_inconsistent_claims_do_not() {
        let replay = played(7, 5);
        assert_eq!(check_winner(None, claims(7)), Err(Unverified::NoReplay));
        assert_eq!(
            check_winner(Some(&replay), claims(8)),
            Err(Unverified::OtherSeed)
        );
        // Reports of lines the game never cleared, of attack it never made.
        let more_lines = Claims {
            lines: 40,
            ..claims(7)
        };
        assert!(matches!(
            check_winner(Some(&replay), more_lines),
            Err(Unverified::Lines { claimed: 40, .. })
        ));
        let more_attack = Claims {
            routed_attack: 12,
            ..claims(7)
        };
        assert!(matches!(
            check_winner(Some(&replay), more_attack),
            Err(Unverified::Attack { routed: 12, .. })
        ));
        // Inputs out of order: the replay does not play.
        let mut broken = replay.clone();
        broken.inputs.reverse();
        assert!(matches!(
            check_winner(Some(&broken), claims(7)),
            Err(Unverified::Unplayable(_))
        ));
    }

    #[test]
    fn a_winner_that_topped_out_did_not_win_unless_the_other_gave_up() {
        // Hard drops in one column until the stack reaches the top.
        let replay = played(3, 200);
        let lost = replay.verify().expect("plays").outcome;
        assert!(lost.is_some_and(|(_, won)| !won), "{lost:?}");
        assert_eq!(
            check_winner(Some(&replay), claims(3)),
            Err(Unverified::Lost)
        );
        let conceded = Claims {
            conceded: true,
            ..claims(3)
        };
        assert_eq!(check_winner(Some(&replay), conceded), Ok(()));
    }
}
