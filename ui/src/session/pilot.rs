//! The combo bot at the controls of a combo-mode game: the player hands the game over with a
//! key and takes it back with the same key (the tetrs seed's `-e`, made a toggle).
//!
//! The bot's moves are ordinary inputs: for each piece it plans with
//! [`minotty_bots::ComboBot`] (looking as far into the preview as the player sees),
//! then taps the plan's buttons at a watchable pace, each a press and a release at one game
//! time. So the replay re-simulates like any other; it holds an [`minotty_engine::Input::Bot`]
//! wherever the bot took over, which keeps the game off the leaderboards.

use std::collections::VecDeque;

use minotty_bots::{ComboBot, SeenPieces};
use minotty_engine::{Button, Game, Input, Time};

use super::{GameSession, GameSetup, RunState};
use crate::keymap::Keymap;
use crate::settings::Settings;

/// The bot's first tap comes this long after it sees a new piece (game ms).
pub const THINK_MS: Time = 20;
/// Then one tap per frame at 60 frames a second: with the 180 ms line clear of the rules, a
/// placement takes about a quarter of a second.
pub const TAP_MS: Time = 16;

/// The bot's side of one combo game: what it has seen of the pieces, whether it plays, and
/// the taps of the plan it is carrying out.
#[derive(Debug, Default)]
pub(super) struct Pilot {
    seen: SeenPieces,
    /// Pieces of preview the player sees, and so the bot looks at.
    pub(super) preview: usize,
    pub(super) on: bool,
    /// The bot took over but the game clock has not started: its marker is still to record.
    pub(super) announce: bool,
    /// The taps still to make for the piece in play, each at its game time.
    taps: VecDeque<(Time, Button)>,
}

impl Pilot {
    pub(super) fn new(preview: usize) -> Pilot {
        Pilot {
            preview,
            ..Pilot::default()
        }
    }

    /// Notes what the player sees of the pieces now (called on every update, bot or not, so
    /// that the bot knows what is left of the current bag when it takes over).
    pub(super) fn observe(&mut self, game: &Game) {
        self.seen.observe(game, self.preview);
    }

    /// Forgets the plan in progress (the bot decides again from the game as it is).
    pub(super) fn replan(&mut self) {
        self.taps.clear();
    }

    /// The next tap due at or before game time `t`.
    pub(super) fn due(&mut self, t: Time) -> Option<(Time, Button)> {
        let &(at, b) = self.taps.front()?;
        (at <= t).then(|| {
            self.taps.pop_front();
            (at, b)
        })
    }

    /// When the next tap is due (game time).
    pub(super) fn next_tap(&self) -> Option<Time> {
        self.taps.front().map(|&(t, _)| t)
    }

    /// With a piece in play and nothing planned, plans it at game time `t`: the taps start
    /// [`THINK_MS`] later. When nothing keeps the combo the bot hard-drops (the game ends as
    /// the combo breaks). Returns whether it planned.
    pub(super) fn plan(&mut self, game: &Game, t: Time) -> bool {
        if !self.on || !self.taps.is_empty() || game.is_over() {
            return false;
        }
        let Some(active) = game.active() else {
            return false;
        };
        if active.dropped {
            return false;
        }
        let buttons = ComboBot::for_game(game)
            .and_then(|bot| bot.plan(game, self.preview, &self.seen))
            .map_or_else(|| vec![Button::HardDrop], |plan| plan.buttons);
        let start = t + THINK_MS;
        self.taps = buttons
            .into_iter()
            .enumerate()
            .map(|(i, b)| (start + i as Time * TAP_MS, b))
            .collect();
        true
    }
}

/// The preview count the player sees in this game.
pub(super) fn preview(setup: &GameSetup, settings: &Settings) -> usize {
    usize::from(setup.preview.unwrap_or(settings.preview))
}

impl GameSession {
    /// Whether the combo bot can take this game over (combo mode, not over yet).
    pub fn bot_available(&self) -> bool {
        self.pilot.is_some() && !self.is_over()
    }

    /// Whether the combo bot is at the controls.
    pub fn bot_playing(&self) -> bool {
        self.pilot.as_ref().is_some_and(|p| p.on) && !self.is_over()
    }

    /// Hands the game to the combo bot, or takes it back. Taking over releases every button
    /// the player holds and records [`Input::Bot`] (during the countdown: when the clock
    /// starts); while the bot plays, the player's game keys do nothing. Returns whether
    /// anything changed.
    pub fn toggle_bot(&mut self, now: u64, keys: &Keymap) -> bool {
        self.tick(now, keys);
        if !matches!(self.state, RunState::Running | RunState::Countdown { .. }) {
            return false;
        }
        let running = self.state == RunState::Running;
        let Some(p) = &mut self.pilot else {
            return false;
        };
        p.replan();
        if p.on {
            p.on = false;
            p.announce = false;
            return true;
        }
        p.on = true;
        p.announce = !running;
        self.held = [0; Button::ALL.len()];
        self.synth.clear();
        if running {
            let t = self.game_time();
            if Button::ALL.iter().any(|&b| self.game.is_held(b)) {
                self.feed(t, Some(Input::ReleaseAll));
            }
            self.feed(t, Some(Input::Bot));
            if let Some(p) = &mut self.pilot {
                p.plan(&self.game, t);
            }
        }
        true
    }

    /// The bot's taps due up to game time `t`, each at its own time, planning each new piece
    /// as it comes. Returns whether the engine reported anything.
    pub(super) fn fly(&mut self, t: Time) -> bool {
        let mut changed = false;
        loop {
            let Some(p) = &mut self.pilot else {
                return changed;
            };
            if !p.on {
                return changed;
            }
            let now = self.game.now();
            p.plan(&self.game, now);
            let Some((at, b)) = p.due(t) else {
                return changed;
            };
            changed |= self.feed(at, Some(Input::Press(b)));
            changed |= self.feed(at, Some(Input::Release(b)));
        }
    }
}
