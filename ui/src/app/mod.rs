//! The App: which screen shows, where keys go, and the front-end contract (see `lib.rs`).
//! The key routing of each screen is in `route.rs`.

mod account;
mod bests;
mod doctor;
mod frames;
mod keys_box;
pub(crate) mod live;
mod match_replay;
mod menus;
mod parked;
mod puzzle;
mod race;
mod route;
mod snapshots;
mod solo;
mod unreachable;
mod versus;

pub use parked::ParkedGame;
#[cfg(test)]
pub use snapshots::NOTICE_MS as SNAPSHOT_NOTICE_MS;

use minotty_engine::{Game, ModeKind};
use ratatui::Frame;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

use crate::damage::Damage;
use crate::keys::{Key, KeyEvent, KeyKind};
use crate::screens::quit::QuitAction;
use crate::screens::too_small::TooSmallView;
use crate::session::{GameSession, GameSetup};
use crate::settings::Settings;
use crate::text::sanitize;
use crate::theme::Theme;
use crate::{AppContext, FinishedGame};
use crate::{Request, Response};
use minotty_protocol::Identity;

/// The full-screen views.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Screen {
    Menu,
    ModeSelect,
    Game,
    Results,
    Help,
    Settings,
    /// Welcome / sign-in, leaderboards, profile, replays, keys: see `account.rs`.
    Account,
    /// Quick match, rooms, matches and their results: see `versus.rs`.
    Versus,
    /// What others are playing now, a game watched, the TV: see `live.rs`.
    Live,
    /// The terminal doctor: see `doctor.rs`.
    Doctor,
    /// A stored versus match watched, every board side by side: see `match_replay.rs`.
    MatchReplay,
}

/// The whole UI state of one player.
#[derive(Debug)]
pub struct App {
    player: String,
    settings: Settings,
    settings_changed: bool,
    screen: Screen,
    /// The menus, the mode select, the help, the settings and the quit question (see
    /// `menus.rs`).
    menus: menus::Menus,
    /// The solo game (see `solo.rs`).
    solo: solo::Solo,
    releases: bool,
    now: u64,
    last_esc: Option<u64>,
    quit: bool,
    /// The whole screen changed since the last frame (see [`App::take_damage`]).
    dirty: bool,
    /// What else changed since the last frame: [`Damage::Time`] when the game's clock did,
    /// [`Damage::Board`] when the piece did.
    partial: Damage,
    identity: Identity,
    /// Requests for the front end, oldest first (see [`minotty_protocol`]).
    requests: Vec<Request>,
    account: account::AccountState,
    /// The tries of an unreachable account: the `unreachable` feature's own state (the account
    /// screens only show its screen).
    unreachable: unreachable::Retry,
    versus: versus::Versus,
    /// Snapshot requests in flight and the footer notice (see `snapshots.rs`).
    snaps: snapshots::SnapshotState,
    /// Whether the terminal, as last told by [`App::set_size`], is big enough to show a game.
    fits: bool,
    /// The Live screen (see `live.rs`).
    live: live::Live,
    /// A game parked by an earlier connection, offered to the player (see `parked.rs`).
    parked: parked::Waiting,
    doctor: doctor::DoctorState,
    /// The keys box (`?`) when open: whose keys it shows (see `keys_box.rs`).
    keys_box: Option<crate::screens::keys_help::Page>,
    /// The match replay viewer (see `match_replay.rs`).
    replays: match_replay::MatchReplays,
    /// How `ssh` reaches this server, when the front end said ([`AppContext::server_address`]).
    server_address: Option<String>,
    /// Where the web pages are, when the front end said ([`AppContext::web_address`]).
    web_address: Option<String>,
    /// The ghost asked for, if any (see `race.rs`).
    race: race::Asked,
}

/// Presses of Esc closer together than this are key repeats (terminals without releases).
const ESC_REPEAT_MS: u64 = 150;

impl App {
    pub fn new(ctx: AppContext) -> App {
        let ruleset = ctx.settings.ruleset;
        // A locked Descent does not start, whoever asks.
        let pending = ctx
            .start_mode
            .filter(|&k| k != ModeKind::Descent || ctx.descent_unlocked)
            .map(|kind| GameSetup::preset(kind, ruleset_for(kind, ruleset)));
        let mut app = App {
            player: sanitize(&ctx.player_name),
            settings: ctx.settings.clamped(),
            settings_changed: false,
            screen: Screen::Menu,
            menus: menus::Menus::new(ruleset, ctx.descent_unlocked),
            solo: solo::Solo::new(ctx.seed, pending, ctx.idle_pause_ms),
            releases: true,
            now: 0,
            last_esc: None,
            quit: false,
            dirty: true,
            partial: Damage::None,
            identity: ctx.identity,
            requests: Vec::new(),
            account: account::AccountState::default(),
            unreachable: unreachable::Retry::default(),
            versus: versus::Versus::default(),
            snaps: snapshots::SnapshotState::default(),
            fits: true,
            live: live::Live::default(),
            parked: parked::Waiting::default(),
            doctor: doctor::DoctorState::default(),
            keys_box: None,
            replays: match_replay::MatchReplays::default(),
            server_address: ctx.server_address.clone(),
            web_address: ctx.web_address.clone(),
            race: race::Asked::default(),
        };
        app.account_start();
        if let Some(id) = ctx.open_match {
            app.watch_match(id, 0);
        }
        if ctx.open_tv || ctx.tv_stream {
            app.live
                .set_stream(ctx.tv_stream, ctx.server_address.clone());
            app.open_live(true);
        }
        if ctx.start_doctor {
            app.open_doctor(None);
        }
        app
    }

    /// A new App with the player's stored settings.
    pub fn with_settings(ctx: AppContext, settings: Settings) -> App {
        App::new(AppContext { settings, ..ctx })
    }

    pub fn handle_key(&mut self, mut ev: KeyEvent, now_ms: u64) {
        self.now = self.now.max(now_ms);
        let now = self.now;
        self.note_arrival(now_ms);
        self.solo.note_key(now);
        if ev.key == Key::Esc && ev.kind == KeyKind::Press {
            // Without release events a held Esc arrives as a stream of presses: only the
            // first of them may pause or resume.
            if !self.releases && self.last_esc.is_some_and(|t| now - t < ESC_REPEAT_MS) {
                ev.kind = KeyKind::Repeat;
            }
            self.last_esc = Some(now);
        }
        if self.key_parked(ev, now) || self.key_box(ev) {
            return;
        }
        if self.solo.has_pending() {
            self.tick(now);
        }
        if !self.menus.quit_open() && self.versus.key_notice(ev, self.screen == Screen::Versus) {
            self.dirty = true;
            return;
        }
        let changed = if let Some(action) = self.menus.key_quit(ev) {
            match action {
                QuitAction::Quit => self.quit = true,
                QuitAction::Stay | QuitAction::Moved => {}
                QuitAction::None => return,
            }
            true
        } else {
            match self.screen {
                Screen::Menu | Screen::ModeSelect | Screen::Help | Screen::Settings => {
                    self.key_menus(ev, now)
                }
                Screen::Game => self.key_solo(false, ev, now),
                Screen::Results => self.key_solo(true, ev, now),
                Screen::Account => self.key_account(ev, now),
                Screen::Versus => self.key_versus(ev, now),
                Screen::Live => self.key_live(ev, now),
                Screen::Doctor => self.key_doctor(ev),
                Screen::MatchReplay => self.key_match_replay(ev, now),
            }
        };
        self.record_finished();
        self.dirty |= changed;
    }

    pub fn tick(&mut self, now_ms: u64) {
        let before = self.now;
        self.now = self.now.max(now_ms);
        let now = self.now;
        self.tick_parked(before, now);
        if let Some(setup) = self.solo.take_pending() {
            self.start(setup, now);
        }
        match self.screen {
            Screen::Account => self.dirty |= self.tick_account(now),
            Screen::Versus => self.dirty |= self.tick_versus(now),
            Screen::Live => self.dirty |= self.live.tick(now, &mut self.requests),
            Screen::MatchReplay => self.dirty |= self.tick_match_replay(now),
            _ => {}
        }
        if self.screen != Screen::Game {
            return;
        }
        if self.solo.session().is_none() {
            return;
        }
        let (solo, ctx) = self.split_solo();
        match solo.tick(now, &ctx) {
            Damage::All => self.dirty = true,
            part => self.partial = self.partial.and(part),
        }
        self.record_finished();
    }

    pub fn next_wakeup(&self) -> Option<u64> {
        if self.solo.has_pending() {
            return Some(self.now);
        }
        let screen = self.screen_wakeup();
        match self.parked_wakeup() {
            Some(at) => Some(screen.map_or(at, |s| s.min(at))),
            None => screen,
        }
    }

    fn screen_wakeup(&self) -> Option<u64> {
        match self.screen {
            Screen::Game => self.solo.wakeup(self.snapshot_wakeup()),
            Screen::Account => self.account_wakeup(),
            Screen::Versus => self.versus.wakeup(self.now),
            Screen::Live => self.live.wakeup(self.now),
            Screen::MatchReplay => self.match_replay_wakeup(),
            _ => None,
        }
    }

    /// Tells the App the terminal's size. A terminal too small to show the game pauses a
    /// running solo game (its clock stops); once it is big enough again the pause menu shows
    /// and the player resumes. Like any pause, it is recorded in the replay, so a timed game
    /// is no longer ranked (shrinking the window must not buy thinking time).
    pub fn set_size(&mut self, cols: u16, rows: u16, now_ms: u64) {
        self.now = self.now.max(now_ms);
        let (min_w, min_h) = crate::MIN_SIZE;
        let fits = cols >= min_w && rows >= min_h;
        self.dirty |= fits != self.fits;
        self.fits = fits;
        if !fits && self.screen == Screen::Game {
            self.dirty |= self.solo.auto_pause(self.now, &self.settings.keys);
        }
    }

    /// Whether anything visible changed since the last call ([`App::take_damage`], for a
    /// front end that redraws whole frames).
    pub fn take_dirty(&mut self) -> bool {
        self.take_damage() != Damage::None
    }

    pub fn mark_dirty(&mut self) {
        self.dirty = true;
    }

    pub fn should_quit(&self) -> bool {
        self.quit
    }

    pub fn render(&self, frame: &mut Frame<'_>) {
        let area = frame.area();
        self.render_into(area, frame.buffer_mut());
    }

    /// Draws the current screen into `area` of `buf` (a cleared buffer): what [`App::render`]
    /// does, for callers that own their buffer (the server's terminal).
    pub fn render_into(&self, area: Rect, buf: &mut Buffer) {
        let theme = Theme::new(&self.settings);
        // The Electronika 60 style is green on a black screen, whatever the screen.
        if let Some(bg) = theme.background() {
            buf.set_style(area, ratatui::style::Style::new().bg(bg));
        }
        let (min_w, min_h) = crate::MIN_SIZE;
        if area.width < min_w || area.height < min_h {
            TooSmallView {
                need: crate::MIN_SIZE,
                theme,
            }
            .render(area, buf);
            return;
        }
        match (self.screen, self.solo.session()) {
            (Screen::Game | Screen::Results, Some(_)) => self.solo.draw(
                self.screen == Screen::Results,
                area,
                buf,
                self.solo_view(theme),
            ),
            (Screen::Menu | Screen::ModeSelect | Screen::Help | Screen::Settings, _)
            | (Screen::Game | Screen::Results, None) => self.menus.draw(
                self.screen,
                area,
                buf,
                menus::View {
                    settings: &self.settings,
                    player: &self.player,
                    notice: self.unreachable.menu_notice(&self.identity),
                    guest: self.identity == Identity::Guest,
                    releases: self.releases,
                    theme,
                },
            ),
            (Screen::Account, _) => {
                let who = account::Who {
                    player: self.player.as_str(),
                    address: self.server_address.as_deref(),
                    web: self.web_address.as_deref(),
                };
                self.account.draw(area, buf, theme, &self.settings, who)
            }
            (Screen::Versus, _) => {
                self.versus
                    .draw(area, buf, theme, &self.settings, &self.player, self.now)
            }
            (Screen::Live, _) => self.live.draw(area, buf, theme, self.now),
            (Screen::Doctor, _) => self.doctor.draw(area, buf, theme),
            (Screen::MatchReplay, _) => self.draw_match_replay(area, buf, theme),
        }
        self.versus.draw_notice(area, buf, theme);
        self.render_parked(area, buf, theme);
        let quit_at = self
            .solo
            .quit_area(self.screen == Screen::Game, area, &self.settings);
        self.menus.draw_quit(quit_at.unwrap_or(area), buf, theme);
        self.draw_keys_box(area, buf, theme);
    }

    /// Tells the App whether the terminal reports key releases. Without them, releases are
    /// made up from key repeats and timeouts (see [`crate::release`]).
    pub fn set_release_events(&mut self, supported: bool) {
        self.dirty |= self.releases != supported;
        self.releases = supported;
        self.solo.set_synthesize(!supported);
    }

    /// Whether the terminal reports key releases, as last told.
    pub fn release_events(&self) -> bool {
        self.releases
    }

    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Replaces the settings (e.g. once the player's stored ones are loaded).
    pub fn set_settings(&mut self, settings: Settings) {
        self.settings = settings.clamped();
        self.menus.set_ruleset(self.settings.ruleset);
        self.solo.apply_settings(&self.settings);
        self.dirty = true;
    }

    /// Whether the player changed a setting since the last call (to store them).
    pub fn take_settings_changed(&mut self) -> bool {
        std::mem::take(&mut self.settings_changed)
    }

    /// The requests queued since the last call, oldest first: the front end carries them out
    /// and answers with [`App::deliver`] (see [`minotty_protocol`]).
    pub fn take_requests(&mut self) -> Vec<Request> {
        std::mem::take(&mut self.requests)
    }

    /// Whether requests are waiting (cheap; lets a front end skip `take_requests`).
    pub fn has_requests(&self) -> bool {
        !self.requests.is_empty()
    }

    /// Hands the App the answer to a request, or news from the server (garbage, a room).
    pub fn deliver(&mut self, response: Response, now_ms: u64) {
        self.now = self.now.max(now_ms);
        let now = self.now;
        let Some(response) = self.menus.on_response(response, &mut self.requests) else {
            self.dirty = true;
            return;
        };
        let Some(response) = self.race_response(response, now) else {
            self.dirty = true;
            return;
        };
        if self.doctor.on_response(&response) {
            self.dirty = true;
            if matches!(response, Response::Doctor(_)) {
                return;
            }
        }
        if self.match_replay_response(&response, now)
            || self
                .snaps
                .on_response(&response, now, self.menus.modes_mut())
            || self.live_response(&response, now)
            || self.unreachable_response(&response)
            || self.account_response(&response, now)
            || self.versus_response(response, now)
        {
            self.dirty = true;
        }
    }

    /// Who the player is to the server.
    pub fn identity(&self) -> &Identity {
        &self.identity
    }

    fn request(&mut self, request: Request) {
        self.requests.push(request);
    }

    /// The game that just ended, once (for leaderboards: its replay re-simulates it).
    pub fn take_finished_game(&mut self) -> Option<FinishedGame> {
        self.solo.take_finished()
    }

    /// Whether a game is in progress on screen: counting down, running or paused (menus, help
    /// and settings opened from the pause menu, and the results, do not count).
    pub fn in_game(&self) -> bool {
        (self.screen == Screen::Game && self.solo.session().is_some_and(|s| !s.is_over()))
            || (self.screen == Screen::Versus && self.versus.in_match())
    }

    /// A line to leave on the player's terminal when the server ends the session because it
    /// restarts: what becomes of their versus match, or the last word of a room that closed
    /// (already cleaned by the text policy). `None` when nothing is at stake.
    pub fn farewell(&self) -> Option<&str> {
        self.versus.farewell()
    }

    /// Whether the game on screen is a paused solo game (its clock stopped, waiting on the
    /// player: a front end idles it out like a menu).
    pub fn game_paused(&self) -> bool {
        self.screen == Screen::Game && self.solo.session().is_some_and(GameSession::is_paused)
    }

    /// The solo game being played now, for others to watch: counting down, running or paused,
    /// never over, never a versus game; with the number of games this App started, which
    /// tells one game from the next.
    pub fn live_game(&self) -> Option<(u64, &Game)> {
        self.solo.live_game()
    }

    /// The solo game in progress or last played.
    #[cfg(test)]
    pub(crate) fn ghost_run(&self) -> Option<&crate::session::GhostRun> {
        self.solo.session()?.ghost_run()
    }

    pub fn game(&self) -> Option<&Game> {
        self.solo.session().map(GameSession::game)
    }

    /// Milliseconds between frames at the player's frame rate (front ends draw no faster).
    pub fn frame_interval_ms(&self) -> u64 {
        self.settings.frame_interval_ms()
    }

    /// The custom game the mode select's options describe now (for tests).
    #[cfg(test)]
    pub(crate) fn custom_setup(&self) -> crate::session::GameSetup {
        self.menus.modes().custom_setup(&self.settings)
    }

    /// Whether Descent can be played (it is locked until the player finishes Puzzle; the
    /// front end says so with [`App::set_descent_unlocked`] or [`AppContext::descent_unlocked`]).
    pub fn descent_unlocked(&self) -> bool {
        self.menus.modes().descent_unlocked
    }

    /// Unlocks (or locks) Descent in the mode list.
    pub fn set_descent_unlocked(&mut self, unlocked: bool) {
        if self.menus.set_descent_unlocked(unlocked) {
            self.dirty = true;
        }
    }

    /// Starts a game of `kind` at once (e.g. `minotty play --mode 40l`).
    pub fn play(&mut self, kind: ModeKind, now_ms: u64) {
        if kind == ModeKind::Descent && !self.descent_unlocked() {
            return;
        }
        self.now = self.now.max(now_ms);
        let setup = GameSetup::preset(kind, ruleset_for(kind, self.settings.ruleset));
        self.start(setup, self.now);
    }

    fn start(&mut self, setup: GameSetup, now: u64) {
        self.solo.start(setup, now, &self.settings, self.releases);
        self.screen = Screen::Game;
        self.dirty = true;
    }

    fn record_finished(&mut self) {
        let (solo, mut ctx) = self.split_solo();
        solo.record_finished(&mut ctx);
    }

    /// The solo game, and what it needs of the rest of the App.
    fn split_solo(&mut self) -> (&mut solo::Solo, solo::Ctx<'_>) {
        let ctx = solo::Ctx {
            settings: &self.settings,
            releases: self.releases,
            fits: self.fits,
            modes: self.menus.modes_mut(),
            requests: &mut self.requests,
        };
        (&mut self.solo, ctx)
    }

    /// A key on the game screen or the results (`results`), carried out.
    fn key_solo(&mut self, results: bool, ev: KeyEvent, now: u64) -> bool {
        let (solo, mut ctx) = self.split_solo();
        match solo.handle_key(results, ev, now, &mut ctx) {
            solo::Outcome::Ignored => return false,
            solo::Outcome::Changed => {}
            solo::Outcome::Part(damage) => {
                self.partial = self.partial.and(damage);
                return false;
            }
            solo::Outcome::Show(screen) => self.screen = screen,
            solo::Outcome::Settings => self.open_settings(Screen::Game),
            solo::Outcome::Help => self.open_help(Screen::Game),
            solo::Outcome::AskQuit(yes) => return self.ask_quit(yes),
            solo::Outcome::Snapshot => self.take_snapshot(now),
            solo::Outcome::Notice(text) => self.snaps.show(text, now),
        }
        true
    }
}

/// The ruleset a preset of `kind` plays when the player's chosen one is `chosen`.
fn ruleset_for(kind: ModeKind, chosen: minotty_engine::RulesetId) -> minotty_engine::RulesetId {
    crate::rules::preset_ruleset(kind, chosen)
}
