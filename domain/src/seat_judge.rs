//! Judging each seat's game of a versus match before the match is stored, as solo games are
//! judged (`judge.rs`): the replay a player's App sent is decoded, bounded and re-simulated
//! with this engine, and must be of the match's seed and hold at least what the room saw of
//! the game (the lines its reports claimed, the attack the room routed). What is stored is the
//! verdict's text ([`SeatCheck::as_db`]); the match replay viewer shows an unverified or
//! missing seat as such and plays only verified ones.
//!
//! Cost: at most [`MAX_INPUTS`] inputs re-simulated a seat (refused before decoding past
//! that); call it on a blocking thread.

use std::panic::{AssertUnwindSafe, catch_unwind};

use minotty_engine::{MAX_INPUTS, Replay};

/// What the room saw of one seat's game, to hold its replay against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeatClaims {
    pub seed: u32,
    /// Lines the player's reports claimed.
    pub lines: u32,
    /// Lines of the player's attack the room routed to others (0 in a race).
    pub routed_attack: u32,
}

/// A seat's replay as judged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SeatCheck {
    /// Re-simulated: it plays, on the match's seed, and holds what the room saw.
    Verified,
    /// No replay arrived (the session ended before its game did).
    Missing,
    /// It arrived and does not hold up: why, as a player reads it.
    Unverified(String),
    /// Stored before seats were checked.
    Unchecked,
}

/// The longest reason kept (the text is the server's own; this bounds what a row holds).
const MAX_REASON: usize = 120;

impl SeatCheck {
    /// The `replay_check` column.
    pub fn as_db(&self) -> Option<String> {
        match self {
            SeatCheck::Verified => Some("verified".into()),
            SeatCheck::Missing => Some("missing".into()),
            SeatCheck::Unverified(why) => Some(format!("unverified: {why}")),
            SeatCheck::Unchecked => None,
        }
    }

    /// The column read back (anything unknown is unverified: never played as verified).
    pub fn from_db(text: Option<&str>) -> SeatCheck {
        match text {
            None => SeatCheck::Unchecked,
            Some("verified") => SeatCheck::Verified,
            Some("missing") => SeatCheck::Missing,
            Some(other) => {
                let why = other.strip_prefix("unverified: ").unwrap_or(other);
                SeatCheck::Unverified(crate::text::sanitize_display(why, MAX_REASON))
            }
        }
    }
}

/// Judges one seat: `bytes` is the stored `Replay::to_bytes()`, if any arrived.
pub fn judge_seat(bytes: Option<&[u8]>, claims: SeatClaims) -> SeatCheck {
    let Some(bytes) = bytes else {
        return SeatCheck::Missing;
    };
    let replay = match Replay::from_bytes(bytes) {
        Ok(r) => r,
        Err(e) => return SeatCheck::Unverified(format!("does not decode: {e}")),
    };
    judge_replay(&replay, claims)
}

/// `replay` re-simulated, if it is of `seed` and within [`MAX_INPUTS`]; otherwise why not, as
/// a player reads it. An engine panic is caught and is a reason too.
pub fn resimulate(replay: &Replay, seed: u32) -> Result<minotty_engine::Verified, String> {
    if replay.inputs.len() > MAX_INPUTS {
        return Err("too many inputs".into());
    }
    if replay.seed != seed {
        return Err("of another seed".into());
    }
    match catch_unwind(AssertUnwindSafe(|| replay.verify())) {
        Ok(Ok(v)) => Ok(v),
        Ok(Err(e)) => Err(format!("does not play: {e}")),
        Err(_) => Err("the engine panicked replaying it".into()),
    }
}

/// Judges a decoded seat's replay.
pub fn judge_replay(replay: &Replay, claims: SeatClaims) -> SeatCheck {
    let verified = match resimulate(replay, claims.seed) {
        Ok(v) => v,
        Err(why) => return SeatCheck::Unverified(why),
    };
    if verified.stats.lines < claims.lines {
        return SeatCheck::Unverified(format!(
            "{} lines replayed, {} claimed",
            verified.stats.lines, claims.lines
        ));
    }
    if verified.stats.attack < claims.routed_attack {
        return SeatCheck::Unverified(format!(
            "{} attack replayed, {} routed",
            verified.stats.attack, claims.routed_attack
        ));
    }
    SeatCheck::Verified
}

#[cfg(test)]
mod tests {
    use minotty_engine::{Button, Game, GameConfig, Input, Mode};

    use super::*;

    /// A real game on `seed`: `drops` hard drops (no line cleared).
    fn played(seed: u32, drops: usize) -> Replay {
        let config = GameConfig {
            mode: Mode::custom(0, true, None),
            ..GameConfig::default()
        };
        let mut game = Game::new(config, seed);
        let mut t = 0;
        for _ in 0..drops {
            t += 50;
            game.update(t, Some(Input::Press(Button::HardDrop)));
            t += 50;
            game.update(t, Some(Input::Release(Button::HardDrop)));
        }
        game.replay()
    }

    fn claims(seed: u32, lines: u32, routed_attack: u32) -> SeatClaims {
        SeatClaims {
            seed,
            lines,
            routed_attack,
        }
    }

    #[test]
    fn seats_are_judged_by_the_table() {
        let good = played(7, 6).to_bytes();
        let mut truncated = good.clone();
        truncated.truncate(good.len() / 2);
        let ok = SeatCheck::Verified;
        let no = |s: &str| SeatCheck::Unverified(s.into());
        let table: [(&str, Option<&[u8]>, SeatClaims, SeatCheck); 7] = [
            ("a real game", Some(&good), claims(7, 0, 0), ok.clone()),
            (
                "lost at the top",
                Some(&played(3, 200).to_bytes()),
                claims(3, 0, 0),
                ok,
            ),
            ("no replay", None, claims(7, 0, 0), SeatCheck::Missing),
            (
                "other seed",
                Some(&good),
                claims(8, 0, 0),
                no("of another seed"),
            ),
            (
                "lines",
                Some(&good),
                claims(7, 4, 0),
                no("0 lines replayed, 4 claimed"),
            ),
            (
                "attack",
                Some(&good),
                claims(7, 0, 2),
                no("0 attack replayed, 2 routed"),
            ),
            (
                "garbage bytes",
                Some(b"MTRPxx"),
                claims(7, 0, 0),
                SeatCheck::Unchecked,
            ),
        ];
        for (name, bytes, claims, want) in table {
            let got = judge_seat(bytes, claims);
            match want {
                // Rows whose reason is the engine's own words: unverified, whatever they say.
                SeatCheck::Unchecked => {
                    assert!(matches!(got, SeatCheck::Unverified(_)), "{name}: {got:?}");
                }
                want => assert_eq!(got, want, "{name}"),
            }
        }
        assert!(matches!(
            judge_seat(Some(&truncated), claims(7, 0, 0)),
            SeatCheck::Unverified(_)
        ));
        // Inputs out of order (a forged replay; its binary form cannot hold them).
        let mut reversed = played(7, 6);
        reversed.inputs.reverse();
        assert!(matches!(
            judge_replay(&reversed, claims(7, 0, 0)),
            SeatCheck::Unverified(why) if why.starts_with("does not play")
        ));
    }

    #[test]
    fn the_column_round_trips_and_unknown_text_is_never_verified() {
        for check in [
            SeatCheck::Verified,
            SeatCheck::Missing,
            SeatCheck::Unverified("of another seed".into()),
            SeatCheck::Unchecked,
        ] {
            assert_eq!(SeatCheck::from_db(check.as_db().as_deref()), check);
        }
        assert_eq!(
            SeatCheck::from_db(Some("VERIFIED")),
            SeatCheck::Unverified("VERIFIED".into())
        );
        let long = "x".repeat(10_000);
        let SeatCheck::Unverified(why) = SeatCheck::from_db(Some(&long)) else {
            panic!("unverified");
        };
        assert_eq!(why.len(), MAX_REASON);
        let SeatCheck::Unverified(why) = SeatCheck::from_db(Some("unverified: a\u{1b}[2Jb")) else {
            panic!("unverified");
        };
        assert!(!why.contains('\u{1b}'), "{why:?}");
    }
}
