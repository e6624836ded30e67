//! The finesse faults of a finished 40-lines game, for its results.

use minotty_bots::finesse;
use minotty_engine::ModeKind;

use super::GameSession;

impl GameSession {
    /// The finesse faults of the game once it is over (40 lines only, `None` before and in any
    /// other mode): the pieces for which the player pressed more movement keys than the fewest
    /// that reach where they locked (`minotty_bots::finesse` says how each is counted).
    /// Judged by re-simulating the replay the first time it is asked for after the game ended,
    /// then kept: never per frame, never while the game is played.
    pub fn finesse_faults(&self) -> Option<u32> {
        let game = &self.game;
        if game.mode().kind != ModeKind::Sprint || !game.is_over() {
            return None;
        }
        *self
            .finesse
            .get_or_init(|| finesse(&game.replay()).ok().map(|f| f.faults))
    }

    /// Whether the finesse faults were judged already (tests count the judgements).
    #[cfg(test)]
    pub fn finesse_judged(&self) -> bool {
        self.finesse.get().is_some()
    }
}

#[cfg(test)]
mod tests {
    use minotty_engine::RulesetId;

    use super::super::GameSetup;
    use super::*;
    use crate::keys::{Key, KeyKind};
    use crate::settings::Settings;

    fn sprint() -> (GameSession, crate::keymap::Keymap) {
        let settings = Settings::default();
        let setup = GameSetup {
            seed: Some(99),
            ..GameSetup::preset(ModeKind::Sprint, RulesetId::Standard)
        };
        let s = GameSession::new(setup, 0, &settings, false, 10_000);
        (s, settings.keys)
    }

    fn tap(s: &mut GameSession, key: Key, keys: &crate::keymap::Keymap, now: u64) {
        s.key(key, KeyKind::Press, keys, now);
        s.key(key, KeyKind::Release, keys, now);
    }

    /// Nothing is judged while the game is played, however often it is asked (a frame asks);
    /// once over, one judgement answers every later ask.
    #[test]
    fn finesse_is_judged_once_when_the_game_is_over() {
        let (mut s, keys) = sprint();
        let mut now = 13_100;
        s.tick(now, &keys);
        for _ in 0..3 {
            tap(&mut s, Key::Left, &keys, now);
            tap(&mut s, Key::Right, &keys, now + 10);
            tap(&mut s, Key::Char(' '), &keys, now + 20);
            now += 500;
            s.tick(now, &keys);
            assert_eq!(s.finesse_faults(), None);
            assert!(!s.finesse_judged(), "judged while playing");
        }
        s.forfeit(now, &keys);
        assert!(s.is_over());
        assert!(!s.finesse_judged());
        assert_eq!(s.finesse_faults(), Some(3));
        assert!(s.finesse_judged());
        // The kept answer, not a new judgement: it stays whatever the cell holds.
        s.finesse.take();
        s.finesse.get_or_init(|| Some(7));
        assert_eq!(s.finesse_faults(), Some(7));
    }
}
