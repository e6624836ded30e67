//! The rules a versus match's games were to run under, as its room's settings set them (the
//! ruleset, the mode with its garbage settings, start level and lives, the entry delay as
//! tuning, a fixed handling), to hold each seat's replay against before it is judged
//! (`seat_judge.rs`): a replay played under other rules (another ruleset, its own handling
//! where the room fixed one, no lives where the room had none) is unverified, whatever it
//! claims.

use minotty_engine::versus::RoomSettings;
use minotty_engine::{Handling, Mode, Replay, RulesetId, Tuning};

use crate::seat_judge::{SeatCheck, SeatClaims, judge_replay};

/// What every seat's game of a match was to run under.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchRules {
    pub ruleset: RulesetId,
    pub mode: Mode,
    pub tuning: Tuning,
    /// The handling the room fixed (`None`: each player's own).
    pub handling: Option<Handling>,
}

impl MatchRules {
    /// The rules of a match of a room with `settings` (what its `MatchStart` told every
    /// player's engine).
    pub fn of(settings: &RoomSettings) -> MatchRules {
        let game = settings.game();
        MatchRules {
            ruleset: game.ruleset(),
            mode: settings.mode(),
            tuning: game.tuning(),
            handling: game.handling(),
        }
    }

    /// Why `replay` was not played under these rules, if it was not.
    pub fn breach(&self, replay: &Replay) -> Option<&'static str> {
        if replay.ruleset != self.ruleset {
            return Some("not the room's ruleset");
        }
        if replay.mode != self.mode {
            return Some("not the room's mode");
        }
        if replay.tuning != self.tuning {
            return Some("not the room's entry delay");
        }
        match self.handling {
            Some(h) if replay.handling != h => Some("not the room's handling"),
            _ => None,
        }
    }
}

/// [`crate::seat_judge::judge_seat`] under the match's `rules`: a replay of other rules is
/// unverified before it is re-simulated.
pub fn judge_seat_under(bytes: Option<&[u8]>, claims: SeatClaims, rules: &MatchRules) -> SeatCheck {
    let Some(bytes) = bytes else {
        return SeatCheck::Missing;
    };
    let replay = match Replay::from_bytes(bytes) {
        Ok(r) => r,
        Err(e) => return SeatCheck::Unverified(format!("does not decode: {e}")),
    };
    if let Some(why) = rules.breach(&replay) {
        return SeatCheck::Unverified(why.into());
    }
    judge_replay(&replay, claims)
}

#[cfg(test)]
mod tests {
    use minotty_engine::versus::{GameDraft, GameSettings, MatchKind, RoomLimit, SeriesSettings};
    use minotty_engine::{Button, Game, GameConfig, Input};

    use super::*;

    fn room() -> RoomSettings {
        RoomSettings::new(MatchKind::Battle, 2, RoomLimit::None)
            .with_series(SeriesSettings::new(1, 1, 1))
            .with_game(GameSettings::new(GameDraft {
                ruleset: RulesetId::Tetrs,
                entry_ms: Some(100),
                handling: Some(Handling {
                    das: 100,
                    arr: 0,
                    sdf: 20,
                    hard_drop_guard: 0,
                    das_cut: 0,
                    double_tap: 0,
                    move_under_lock: false,
                }),
                ..GameDraft::DEFAULT
            }))
    }

    /// A real game of `config` on seed 7: a few hard drops.
    fn played(config: GameConfig) -> Vec<u8> {
        let mut game = Game::new(config, 7);
        let mut t = 0;
        for _ in 0..5 {
            t += 150;
            game.update(t, Some(Input::Press(Button::HardDrop)));
            t += 50;
            game.update(t, Some(Input::Release(Button::HardDrop)));
        }
        game.replay().to_bytes()
    }

    #[test]
    fn a_seat_is_judged_under_the_rooms_rules() {
        let rules = MatchRules::of(&room());
        let fair = GameConfig {
            ruleset: rules.ruleset,
            mode: rules.mode.clone(),
            tuning: rules.tuning,
            handling: rules.handling.expect("fixed"),
        };
        let claims = SeatClaims {
            seed: 7,
            lines: 0,
            routed_attack: 0,
        };
        let no = |s: &str| SeatCheck::Unverified(s.into());
        let own_handling = Handling {
            das: 50,
            ..fair.handling
        };
        let mut no_lives = fair.mode.clone();
        no_lives.lives = 0;
        let table: [(&str, GameConfig, SeatCheck); 5] = [
            ("the room's rules", fair.clone(), SeatCheck::Verified),
            (
                "another ruleset",
                GameConfig {
                    ruleset: RulesetId::Standard,
                    ..fair.clone()
                },
                no("not the room's ruleset"),
            ),
            (
                "no lives",
                GameConfig {
                    mode: no_lives,
                    ..fair.clone()
                },
                no("not the room's mode"),
            ),
            (
                "the ruleset's entry",
                GameConfig {
                    tuning: Tuning::default(),
                    ..fair.clone()
                },
                no("not the room's entry delay"),
            ),
            (
                "the player's own handling",
                GameConfig {
                    handling: own_handling,
                    ..fair.clone()
                },
                no("not the room's handling"),
            ),
        ];
        for (name, config, want) in table {
            let bytes = played(config);
            assert_eq!(
                judge_seat_under(Some(&bytes), claims, &rules),
                want,
                "{name}"
            );
        }
        assert_eq!(judge_seat_under(None, claims, &rules), SeatCheck::Missing);
        // A free handling takes each player's own.
        let free = MatchRules {
            handling: None,
            ..rules.clone()
        };
        let own = played(GameConfig {
            handling: own_handling,
            ..fair
        });
        assert_eq!(
            judge_seat_under(Some(&own), claims, &free),
            SeatCheck::Verified
        );
    }
}
