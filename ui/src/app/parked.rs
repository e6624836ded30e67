//! Reconnecting to a solo game: when a front end's connection drops mid-game, it takes the game
//! out of its App ([`App::park_game`], paused like the player's own pause) and may hand it to a
//! later App of the same player ([`App::offer_parked`]), which asks "Enter resume, Esc discard"
//! over whatever screen it shows. Resuming puts the very same game (engine, replay, setup) on
//! the game screen, paused, with the pause menu open: the time spent away is one pause.

use minotty_engine::{Game, ModeKind};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use super::{App, Screen};
use crate::draw;
use crate::keys::{Key, KeyEvent, KeyKind};
use crate::session::GameSession;
use crate::text::sfmt;
use crate::theme::Theme;

/// A solo game taken out of an App, paused, waiting to be handed to another App. It holds
/// everything the game needs to go on (the engine with its recorded inputs, its setup) and
/// nothing of the App it came from.
#[derive(Debug)]
pub struct ParkedGame {
    session: GameSession,
}

impl ParkedGame {
    /// The mode of the game.
    pub fn kind(&self) -> ModeKind {
        self.session.game().mode().kind
    }

    /// The game as it stands (paused).
    pub fn game(&self) -> &Game {
        self.session.game()
    }
}

/// The App's side of parked games: the one offered, and the number of the game resumed from
/// one (the front end keeps its watchers on it, `App::resumed_game`).
#[derive(Debug, Default)]
pub(super) struct Waiting {
    offer: Option<Offer>,
    resumed: Option<u64>,
}

/// A parked game offered to the player, and since when (App time).
#[derive(Debug)]
pub(super) struct Offer {
    parked: ParkedGame,
    /// How long the game had waited when it was offered.
    away_ms: u64,
    offered_at: u64,
}

impl Offer {
    fn away_at(&self, now: u64) -> u64 {
        self.away_ms
            .saturating_add(now.saturating_sub(self.offered_at))
    }

    /// The answer a key gives: `Some(true)` Enter resumes, `Some(false)` Esc discards, `None`
    /// every other key (the offer waits, taking it).
    fn answer(ev: KeyEvent) -> Option<bool> {
        if ev.kind != KeyKind::Press {
            return None;
        }
        match ev.key {
            Key::Enter => Some(true),
            Key::Esc => Some(false),
            _ => None,
        }
    }

    /// The offer's clock shows whole seconds: the next time it changes.
    fn wakeup(&self, now: u64) -> u64 {
        let away = self.away_at(now);
        now + (1000 - away % 1000)
    }

    /// Whether the clock shows another second at `now` than at `before`.
    fn second_changed(&self, before: u64, now: u64) -> bool {
        self.away_at(before) / 1000 != self.away_at(now) / 1000
    }

    fn draw(&self, area: Rect, buf: &mut Buffer, theme: Theme, now: u64) {
        let secs = self.away_at(now) / 1000;
        let inner = draw::dialog(buf, area, 56, 9, theme, "GAME WAITING");
        let kind = self.parked.kind().title();
        let line =
            sfmt!(80; "Your {} game from {}:{:02} ago is waiting", kind, secs / 60, secs % 60);
        draw::put_centered(buf, inner, inner.y + 1, line.as_str(), theme.title());
        let stats = self.parked.game().stats();
        let lines = crate::text::plural(stats.lines, "line", "lines");
        let detail = sfmt!(80; "score {}, {} {}", stats.score, stats.lines, lines);
        draw::put_centered(buf, inner, inner.y + 3, detail.as_str(), theme.text());
        draw::hint(buf, inner, "Enter resume   Esc discard", theme);
    }
}

impl App {
    /// Takes the solo game in progress out of the App, paused, to be offered to a later App of
    /// the same player (the connection dropped). A running game is paused as the player's own
    /// pause is (recorded in its replay: a timed game is no longer ranked, as after any
    /// pause). Nothing for a versus game, a game that is over, or no game; a game offered to
    /// this App and not answered yet is given back as it came. `now_ms` is when the
    /// connection dropped: the game runs up to then.
    pub fn park_game(&mut self, now_ms: u64) -> Option<ParkedGame> {
        if let Some(offer) = self.parked.offer.take() {
            return Some(offer.parked);
        }
        self.tick(now_ms);
        let now = self.now;
        let (solo, mut ctx) = self.split_solo();
        let session = solo.park(now, &mut ctx)?;
        self.screen = Screen::Menu;
        self.dirty = true;
        Some(ParkedGame { session })
    }

    /// Offers the player a parked game that waited `away_ms` so far: "Enter resume, Esc
    /// discard" shows over the current screen until answered. A newer offer replaces one
    /// not answered yet.
    pub fn offer_parked(&mut self, parked: ParkedGame, away_ms: u64, now_ms: u64) {
        self.now = self.now.max(now_ms);
        self.parked.offer = Some(Offer {
            parked,
            away_ms,
            offered_at: self.now,
        });
        self.dirty = true;
    }

    /// Whether a parked game is being offered.
    pub fn parked_offered(&self) -> bool {
        self.parked.offer.is_some()
    }

    /// The number of the game resumed from a parked offer (the number [`App::live_game`]
    /// gives it while it is played): `None` before an offer is answered, or when it was
    /// discarded.
    pub fn resumed_game(&self) -> Option<u64> {
        self.parked.resumed
    }

    /// A key while the offer shows: Enter resumes, Esc discards (the game is dropped, as when
    /// a player leaves a game for the main menu), every other key waits. Returns whether the
    /// offer took the key.
    pub(super) fn key_parked(&mut self, ev: KeyEvent, now: u64) -> bool {
        if self.parked.offer.is_none() {
            return false;
        }
        match Offer::answer(ev) {
            Some(true) => self.resume_parked(now),
            Some(false) => self.parked.offer = None,
            None => return true,
        }
        self.dirty = true;
        true
    }

    fn resume_parked(&mut self, now: u64) {
        let Some(offer) = self.parked.offer.take() else {
            return;
        };
        self.solo
            .resume_parked(offer.parked.session, now, &self.settings, self.releases);
        self.menus.close_quit();
        self.screen = Screen::Game;
        self.parked.resumed = self.live_game().map(|(no, _)| no);
    }

    /// The offer's clock shows whole seconds: the next time it changes.
    pub(super) fn parked_wakeup(&self) -> Option<u64> {
        Some(self.parked.offer.as_ref()?.wakeup(self.now))
    }

    /// Marks the screen dirty when the offer's clock moved on to another second.
    pub(super) fn tick_parked(&mut self, before: u64, now: u64) {
        if self
            .parked
            .offer
            .as_ref()
            .is_some_and(|offer| offer.second_changed(before, now))
        {
            self.dirty = true;
        }
    }

    pub(super) fn render_parked(&self, area: Rect, buf: &mut Buffer, theme: Theme) {
        if let Some(offer) = &self.parked.offer {
            offer.draw(area, buf, theme, self.now);
        }
    }
}
