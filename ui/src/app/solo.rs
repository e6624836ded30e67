//! The solo game: the game in play (or last played), its pause, leave and results menus, the
//! game about to start, the record of the game that ended and the FPS counter. The App routes
//! the game and results screens' keys, its ticks and its frames here; what the solo game needs
//! of the App comes in as a [`Ctx`], and what it asks of the App goes back as an [`Outcome`].
//! Keys are in `solo/keys.rs`, leaving and retrying in `solo/leave.rs`, the pauses the game
//! makes by itself in `solo/self_pause.rs`.

mod keys;
mod leave;
mod self_pause;
#[cfg(test)]
mod tests;

use minotty_engine::Game;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

use super::Screen;
use crate::FinishedGame;
use crate::Request;
use crate::damage::{Damage, Parts};
use crate::fps::FpsMeter;
use crate::screens::game::GameView;
use crate::screens::leave::LeaveTo;
use crate::screens::mode_select::ModeSelect;
use crate::screens::results::{OnlineNote, ResultsView};
use crate::session::{GameSession, GameSetup};
use crate::settings::Settings;
use crate::theme::Theme;

/// How long after the results open Enter is taken there: an Enter pressed twice to leave the
/// final board (or held, or repeated) must not retry at once.
pub(super) const RESULTS_GUARD_MS: u64 = 400;

/// The solo game's own state.
#[derive(Debug)]
pub(super) struct Solo {
    session: Option<GameSession>,
    /// The game that ended, until the front end takes it.
    finished: Option<FinishedGame>,
    /// The game on screen was handed over as finished (once per game).
    recorded: bool,
    /// A game to start at the next tick (a start mode).
    pending: Option<GameSetup>,
    seed: u64,
    /// Games started by this App (tells one game from the next).
    games: u64,
    pause_cursor: usize,
    /// "Leave this game?" is open over the pause menu (see `solo/leave.rs`).
    leave: Option<LeaveTo>,
    results_cursor: usize,
    /// When the results opened (see [`RESULTS_GUARD_MS`]).
    results_at: u64,
    /// Frames drawn on the game screen, for the FPS counter (`Settings::show_fps`).
    fps: FpsMeter,
    /// See [`crate::AppContext::idle_pause_ms`].
    idle_pause: Option<u64>,
    /// When the last key arrived (or the last game started).
    last_key: u64,
}

/// What the solo game needs of the rest of the App: the shared settings and terminal facts,
/// the mode select's puzzle progress and the requests queue (a finished puzzle game reports
/// the stages it cleared).
pub(super) struct Ctx<'a> {
    pub settings: &'a Settings,
    /// Whether the terminal reports key releases.
    pub releases: bool,
    /// Whether the terminal is big enough to show the game.
    pub fits: bool,
    pub modes: &'a mut ModeSelect,
    pub requests: &'a mut Vec<Request>,
}

/// What a key did, for the App to carry out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Outcome {
    /// The key did nothing.
    Ignored,
    /// The solo game's screen changed.
    Changed,
    /// A part of it changed ([`Damage::Time`] or [`Damage::Board`]).
    Part(Damage),
    /// Show this screen (a game started: [`Screen::Game`]).
    Show(Screen),
    /// Open the settings, back to the game.
    Settings,
    /// Open the help, back to the game.
    Help,
    /// Ask whether to quit, "Quit" selected or not.
    AskQuit(bool),
    /// Store a snapshot of the game.
    Snapshot,
    /// Show this in the game's footer for a moment (the screen changed).
    Notice(&'static str),
}

/// What the game and results screens show besides the game: from the App and other features.
pub(super) struct View<'a> {
    pub settings: &'a Settings,
    pub player: &'a str,
    pub theme: Theme,
    /// The snapshot notice in the game's footer.
    pub notice: Option<&'a str>,
    /// What the results say about storing the game.
    pub online: OnlineNote<'a>,
    pub now: u64,
    /// Where the web pages are (the results show the game's link).
    pub web: Option<&'a str>,
}

impl Solo {
    pub(super) fn new(seed: u64, pending: Option<GameSetup>, idle_pause: Option<u64>) -> Solo {
        Solo {
            session: None,
            finished: None,
            recorded: false,
            pending,
            seed,
            games: 0,
            pause_cursor: 0,
            leave: None,
            results_cursor: 0,
            results_at: 0,
            fps: FpsMeter::default(),
            idle_pause,
            last_key: 0,
        }
    }

    /// The game in play or last played.
    pub(super) fn session(&self) -> Option<&GameSession> {
        self.session.as_ref()
    }

    /// Games started so far.
    pub(super) fn games(&self) -> u64 {
        self.games
    }

    pub(super) fn has_pending(&self) -> bool {
        self.pending.is_some()
    }

    pub(super) fn take_pending(&mut self) -> Option<GameSetup> {
        self.pending.take()
    }

    pub(super) fn take_finished(&mut self) -> Option<FinishedGame> {
        self.finished.take()
    }

    /// A key arrived now (the idle pause counts from it).
    pub(super) fn note_key(&mut self, now: u64) {
        self.last_key = now;
    }

    /// Starts a game of `setup` (the App shows the game screen).
    pub(super) fn start(
        &mut self,
        setup: GameSetup,
        now: u64,
        settings: &Settings,
        releases: bool,
    ) {
        self.games += 1;
        let seed = mix(self.seed ^ now.rotate_left(23) ^ self.games.wrapping_mul(0x9E37));
        self.session = Some(GameSession::new(
            setup,
            seed as u32,
            settings,
            !releases,
            now,
        ));
        self.pause_cursor = 0;
        self.leave = None;
        self.results_cursor = 0;
        self.recorded = false;
        // A game started without a key (`play`, a start mode) is not idle from the outset.
        self.last_key = now;
    }

    /// The results open at their first entry, `now` (the App shows the results screen); a
    /// confirming key is taken only [`RESULTS_GUARD_MS`] later.
    pub(super) fn open_results(&mut self, now: u64) {
        self.results_cursor = 0;
        self.results_at = now;
    }

    /// Moves the game on screen on to `now`: it pauses itself when the terminal is too small
    /// or no key came for the idle threshold. Returns what changed on the screen.
    pub(super) fn tick(&mut self, now: u64, ctx: &Ctx<'_>) -> Damage {
        let mut damage = Damage::None;
        if !ctx.fits || self.idle_pause_due().is_some_and(|at| now >= at) {
            damage = Damage::all_if(self.auto_pause(now, &ctx.settings.keys));
        }
        if let Some(s) = &mut self.session {
            damage = damage.and(s.tick_damage(now, &ctx.settings.keys));
        }
        damage
    }

    /// When the game screen needs the App next: the game's own next wakeup, the idle pause or
    /// `notice` (when the snapshot notice goes). The final board stays until Enter: the
    /// results never open by themselves.
    pub(super) fn wakeup(&self, notice: Option<u64>) -> Option<u64> {
        let s = self.session.as_ref()?;
        [s.next_wakeup(), self.idle_pause_due(), notice]
            .into_iter()
            .flatten()
            .min()
    }

    pub(super) fn set_synthesize(&mut self, synthesize: bool) {
        if let Some(s) = &mut self.session {
            s.set_synthesize(synthesize);
        }
    }

    pub(super) fn apply_settings(&mut self, settings: &Settings) {
        if let Some(s) = &mut self.session {
            s.apply_settings(settings);
        }
    }

    /// Hands the game over as finished once it has an outcome, and notes the puzzle stages it
    /// cleared.
    pub(super) fn record_finished(&mut self, ctx: &mut Ctx<'_>) {
        let Some(s) = &self.session else { return };
        let game = s.game();
        super::puzzle::note_progress(game, ctx.modes, ctx.requests);
        if self.recorded {
            return;
        }
        if let Some((reason, won)) = game.outcome() {
            self.recorded = true;
            self.finished = Some(FinishedGame {
                kind: game.mode().kind,
                replay: game.replay(),
                stats: *game.stats(),
                reason,
                won,
            });
        }
    }

    /// Takes the solo game in progress out, paused, to be parked: nothing for a versus game,
    /// a game that is over, or no game; a game the pause ended is recorded instead.
    pub(super) fn park(&mut self, now: u64, ctx: &mut Ctx<'_>) -> Option<GameSession> {
        let s = self.session.as_mut()?;
        if s.is_versus() || s.is_over() {
            return None;
        }
        s.pause(now, &ctx.settings.keys);
        if s.is_over() {
            // The pause was the input that reached the input cap: the game ended and is
            // handed over as any finished game.
            self.record_finished(ctx);
            return None;
        }
        self.session.take()
    }

    /// Puts a parked game back, paused, with the pause menu at its first entry (the App shows
    /// the game screen).
    pub(super) fn resume_parked(
        &mut self,
        mut session: GameSession,
        now: u64,
        settings: &Settings,
        releases: bool,
    ) {
        session.rebase(now);
        session.set_synthesize(!releases);
        session.apply_settings(settings);
        self.session = Some(session);
        self.pause_cursor = 0;
        self.results_cursor = 0;
        self.recorded = false;
        self.last_key = now;
    }

    /// Draws the game screen (or the results, `results`), with the FPS counter on the game.
    fn game_view<'a>(&'a self, session: &'a GameSession, view: &View<'a>) -> GameView<'a> {
        GameView {
            session,
            settings: view.settings,
            player: view.player,
            pause_cursor: self.pause_cursor,
            leave: self.leave,
            notice: view.notice,
            kept: !matches!(view.online, OnlineNote::Guest | OnlineNote::Unreachable),
        }
    }

    /// The game screen's [`GameView::parts`] (none with the frame rate shown: it changes
    /// every frame).
    pub(super) fn parts(&self, area: Rect, view: &View<'_>) -> Option<Parts> {
        let session = self.session.as_ref().filter(|_| !view.settings.show_fps)?;
        self.game_view(session, view).parts(area)
    }

    /// The game screen's [`GameView::render_time`].
    pub(super) fn render_time(&self, area: Rect, buf: &mut Buffer, view: &View<'_>) {
        if let Some(session) = &self.session {
            self.game_view(session, view).render_time(area, buf);
        }
    }

    /// The game screen's [`GameView::render_board`].
    pub(super) fn render_board(&self, area: Rect, buf: &mut Buffer, view: &View<'_>) {
        if let Some(session) = &self.session {
            self.game_view(session, view).render_board(area, buf);
        }
    }

    pub(super) fn draw(&self, results: bool, area: Rect, buf: &mut Buffer, view: View<'_>) {
        let Some(session) = &self.session else { return };
        let theme = view.theme;
        if results {
            ResultsView {
                game: session.game(),
                cursor: self.results_cursor,
                theme,
                online: view.online,
                web: view.web,
                finesse: session.finesse_faults(),
                keys: &view.settings.keys,
                taken_over: session.setup.from.as_ref().map(|f| f.source),
                ghost: session.ghost_run().map(|run| {
                    let name = session
                        .setup
                        .ghost
                        .as_ref()
                        .map_or("", |g| g.player.as_str());
                    (name, run.split(session.game_time()))
                }),
            }
            .render(area, buf);
            return;
        }
        self.game_view(session, &view).render(area, buf);
        if view.settings.show_fps {
            // Top right, on the title row at 80x24 (right of the player name), above it when taller.
            let rate = self.fps.frame(view.now);
            let text = crate::text::sfmt!(16; "{} fps", rate);
            crate::draw::put_right(buf, area, area.y, text.as_str(), theme.dim());
        }
    }

    /// Where the quit question goes on an `area`-sized screen when the game screen shows
    /// (`game`): beside the board while the game runs on behind it (a timed game a pause
    /// would unrank), never over it; `None`: anywhere (the game stands still or is not shown).
    pub(super) fn quit_area(&self, game: bool, area: Rect, settings: &Settings) -> Option<Rect> {
        let s = self.session.as_ref().filter(|_| game)?;
        let runs = !s.is_paused() && !s.is_over();
        runs.then(|| crate::screens::game::question_area_of(area, settings, s))
    }

    /// The solo game being played now (never over, never versus), with its number.
    pub(super) fn live_game(&self) -> Option<(u64, &Game)> {
        let s = self.session.as_ref()?;
        (!s.is_over() && !s.is_versus()).then(|| (self.games, s.game()))
    }
}

/// SplitMix64's finaliser: spreads a seed's bits.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
