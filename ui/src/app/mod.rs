//! The App: which screen shows, where keys go, and the front-end contract (see `lib.rs`).
//! The key routing of each screen is in `route.rs`.

mod account;
mod bests;
mod doctor;
mod leave;
pub(crate) mod live;
mod parked;
mod puzzle;
mod route;
mod self_pause;
mod snapshots;
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

use crate::keys::{Key, KeyEvent, KeyKind};
use crate::screens::game::GameView;
use crate::screens::help::{HelpScreen, HelpView};
use crate::screens::menu::MenuView;
use crate::screens::mode_select::{ModeSelect, ModeSelectView};
use crate::screens::quit::{self, QuitAction};
use crate::screens::results::ResultsView;
use crate::screens::settings::{SettingsScreen, SettingsView};
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
}

/// The whole UI state of one player.
#[derive(Debug)]
pub struct App {
    player: String,
    settings: Settings,
    settings_changed: bool,
    screen: Screen,
    help_back: Screen,
    help: HelpScreen,
    settings_back: Screen,
    /// The quit confirmation, when open: whether "Quit" is selected.
    quit_dialog: Option<bool>,
    menu_cursor: usize,
    modes: ModeSelect,
    pause_cursor: usize,
    /// "Leave this game?" is open over the pause menu (see `leave.rs`).
    leave: Option<crate::screens::leave::LeaveTo>,
    results_cursor: usize,
    settings_ui: SettingsScreen,
    session: Option<GameSession>,
    finished: Option<FinishedGame>,
    recorded: bool,
    releases: bool,
    pending: Option<GameSetup>,
    seed: u64,
    games: u64,
    now: u64,
    /// Frames drawn on the game screen, for the FPS counter (`Settings::show_fps`).
    fps: crate::fps::FpsMeter,
    last_esc: Option<u64>,
    quit: bool,
    dirty: bool,
    identity: Identity,
    /// Requests for the front end, oldest first (see [`minotty_protocol`]).
    requests: Vec<Request>,
    account: account::AccountState,
    /// The tries of an unreachable account: the `unreachable` feature's own state (the account
    /// screens only show its screen).
    unreachable: unreachable::Retry,
    versus: versus::VersusState,
    /// Snapshot requests in flight and the footer notice (see `snapshots.rs`).
    snaps: snapshots::SnapshotState,
    /// Whether the terminal, as last told by [`App::set_size`], is big enough to show a game.
    fits: bool,
    /// See [`AppContext::idle_pause_ms`].
    idle_pause: Option<u64>,
    /// When the last key arrived (or the last game started).
    last_key: u64,
    /// [`Request::PuzzleProgress`] was sent.
    puzzle_asked: bool,
    /// The Live screen (see `live.rs`).
    live: crate::screens::live::LiveState,
    /// A game parked by an earlier connection, offered to the player (see `parked.rs`).
    parked: Option<parked::Offer>,
    doctor: doctor::DoctorState,
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
            help_back: Screen::Menu,
            help: HelpScreen::default(),
            settings_back: Screen::Menu,
            quit_dialog: None,
            menu_cursor: 0,
            modes: ModeSelect {
                ruleset,
                descent_unlocked: ctx.descent_unlocked,
                ..ModeSelect::default()
            },
            pause_cursor: 0,
            leave: None,
            results_cursor: 0,
            settings_ui: SettingsScreen::default(),
            session: None,
            finished: None,
            recorded: false,
            releases: true,
            pending,
            seed: ctx.seed,
            games: 0,
            now: 0,
            fps: crate::fps::FpsMeter::default(),
            last_esc: None,
            quit: false,
            dirty: true,
            identity: ctx.identity,
            requests: Vec::new(),
            account: account::AccountState::default(),
            unreachable: unreachable::Retry::default(),
            versus: versus::VersusState::default(),
            snaps: snapshots::SnapshotState::default(),
            fits: true,
            idle_pause: ctx.idle_pause_ms,
            last_key: 0,
            puzzle_asked: false,
            live: crate::screens::live::LiveState::default(),
            parked: None,
            doctor: doctor::DoctorState::default(),
        };
        app.account_start();
        if ctx.open_tv || ctx.tv_stream {
            app.live.stream = ctx.tv_stream;
            app.live.address = ctx.server_address.clone();
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
        self.last_key = now;
        if ev.key == Key::Esc && ev.kind == KeyKind::Press {
            // Without release events a held Esc arrives as a stream of presses: only the
            // first of them may pause or resume.
            if !self.releases && self.last_esc.is_some_and(|t| now - t < ESC_REPEAT_MS) {
                ev.kind = KeyKind::Repeat;
            }
            self.last_esc = Some(now);
        }
        if self.key_parked(ev, now) {
            return;
        }
        if self.pending.is_some() {
            self.tick(now);
        }
        if self.quit_dialog.is_none() && self.key_versus_notice(ev) {
            self.dirty = true;
            return;
        }
        let changed = if let Some(yes) = &mut self.quit_dialog {
            match quit::handle(yes, ev) {
                QuitAction::Quit => self.quit = true,
                QuitAction::Stay => self.quit_dialog = None,
                QuitAction::Moved => {}
                QuitAction::None => return,
            }
            true
        } else {
            match self.screen {
                Screen::Menu => self.key_menu(ev),
                Screen::ModeSelect => self.key_modes(ev, now),
                Screen::Game => self.key_game(ev, now),
                Screen::Results => self.key_results(ev, now),
                Screen::Help => self.key_help(ev),
                Screen::Settings => self.key_settings(ev),
                Screen::Account => self.key_account(ev, now),
                Screen::Versus => self.key_versus(ev, now),
                Screen::Live => self.key_live(ev, now),
                Screen::Doctor => self.key_doctor(ev),
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
        if let Some(setup) = self.pending.take() {
            self.start(setup, now);
        }
        match self.screen {
            Screen::Account => self.dirty |= self.tick_account(now),
            Screen::Versus => self.dirty |= self.tick_versus(now),
            Screen::Live => self.dirty |= self.tick_live(now),
            _ => {}
        }
        if self.screen != Screen::Game {
            return;
        }
        if !self.fits || self.idle_pause_due().is_some_and(|at| now >= at) {
            self.auto_pause(now);
        }
        let Some(s) = &mut self.session else { return };
        self.dirty |= s.tick(now, &self.settings.keys);
        if s.results_due() && self.quit_dialog.is_none() {
            self.show_results();
        }
        self.record_finished();
    }

    pub fn next_wakeup(&self) -> Option<u64> {
        if self.pending.is_some() {
            return Some(self.now);
        }
        let screen = self.screen_wakeup();
        match self.parked_wakeup() {
            Some(at) => Some(screen.map_or(at, |s| s.min(at))),
            None => screen,
        }
    }

    fn screen_wakeup(&self) -> Option<u64> {
        match (&self.session, self.screen) {
            // The results are due but a dialog held them back: move on at once.
            (Some(s), Screen::Game) if s.results_due() => {
                self.quit_dialog.is_none().then_some(self.now)
            }
            (Some(s), Screen::Game) => [
                s.next_wakeup(),
                self.idle_pause_due(),
                self.snapshot_wakeup(),
            ]
            .into_iter()
            .flatten()
            .min(),
            (_, Screen::Account) => self.account_wakeup(),
            (_, Screen::Versus) => self.versus_wakeup(),
            (_, Screen::Live) => self.live_wakeup(),
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
            self.auto_pause(self.now);
        }
    }

    pub fn take_dirty(&mut self) -> bool {
        std::mem::take(&mut self.dirty)
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
        match (self.screen, &self.session) {
            (Screen::Menu, _) | (Screen::Game | Screen::Results, None) => MenuView {
                cursor: self.menu_cursor,
                player: &self.player,
                notice: self.menu_notice(),
                guest: self.identity == Identity::Guest,
                theme,
            }
            .render(area, buf),
            (Screen::ModeSelect, _) => ModeSelectView {
                state: &self.modes,
                settings: &self.settings,
                theme,
            }
            .render(area, buf),
            (Screen::Game, Some(session)) => GameView {
                session,
                settings: &self.settings,
                player: &self.player,
                pause_cursor: self.pause_cursor,
                leave: self.leave,
                notice: self.snapshot_notice(),
            }
            .render(area, buf),
            (Screen::Results, Some(session)) => ResultsView {
                game: session.game(),
                cursor: self.results_cursor,
                theme,
                online: self.results_note(),
                finesse: session.finesse_faults(),
                keys: &self.settings.keys,
            }
            .render(area, buf),
            (Screen::Help, _) => HelpView {
                state: &self.help,
                keys: &self.settings.keys,
                releases: self.releases,
                theme,
            }
            .render(area, buf),
            (Screen::Settings, _) => SettingsView {
                state: &self.settings_ui,
                settings: &self.settings,
                theme,
            }
            .render(area, buf),
            (Screen::Account, _) => self.render_account(area, buf, theme),
            (Screen::Versus, _) => self.render_versus(area, buf, theme),
            (Screen::Live, _) => crate::screens::live::LiveScreenView {
                state: &self.live,
                theme,
                now: self.now,
            }
            .render(area, buf),
            (Screen::Doctor, _) => self.render_doctor(area, buf, theme),
        }
        if self.settings.show_fps && matches!((self.screen, &self.session), (Screen::Game, Some(_)))
        {
            // Top right, on the title row at 80x24 (right of the player name), above it when taller.
            let rate = self.fps.frame(self.now);
            let text = crate::text::sfmt!(16; "{} fps", rate);
            crate::draw::put_right(buf, area, area.y, text.as_str(), theme.dim());
        }
        self.render_versus_notice(area, buf, theme);
        self.render_parked(area, buf, theme);
        if let Some(yes) = self.quit_dialog {
            quit::draw(buf, area, yes, theme);
        }
    }

    /// Tells the App whether the terminal reports key releases. Without them, releases are
    /// made up from key repeats and timeouts (see [`crate::release`]).
    pub fn set_release_events(&mut self, supported: bool) {
        self.dirty |= self.releases != supported;
        self.releases = supported;
        if let Some(s) = &mut self.session {
            s.set_synthesize(!supported);
        }
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
        self.modes.ruleset = self.settings.ruleset;
        if let Some(s) = &mut self.session {
            s.apply_settings(&self.settings);
        }
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
        if let Response::PuzzleProgress { cleared, completed } = response {
            let cleared = if completed {
                minotty_engine::puzzle::STAGE_COUNT
            } else {
                cleared
            };
            self.modes.note_puzzle_cleared(cleared);
            self.dirty = true;
            return;
        }
        let response = match self.bests_response(response) {
            Some(response) => response,
            None => return,
        };
        if matches!(response, Response::SignedIn { .. }) {
            // Progress made before signing in belongs to the account now, and an account the
            // key was linked to may have more.
            if self.modes.puzzle_cleared > 0 {
                let stage = self.modes.puzzle_cleared;
                self.request(Request::PuzzleCleared { stage });
            }
            if self.puzzle_asked {
                self.request(Request::PuzzleProgress);
            }
        }
        if self.doctor_response(&response) {
            self.dirty = true;
            if matches!(response, Response::Doctor(_)) {
                return;
            }
        }
        if self.snapshot_response(&response, now)
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
        self.finished.take()
    }

    /// Whether a game is in progress on screen: counting down, running or paused (menus, help
    /// and settings opened from the pause menu, and the results, do not count).
    pub fn in_game(&self) -> bool {
        (self.screen == Screen::Game && self.session.as_ref().is_some_and(|s| !s.is_over()))
            || (self.screen == Screen::Versus && self.versus_in_match())
    }

    /// Whether the game on screen is a paused solo game (its clock stopped, waiting on the
    /// player: a front end idles it out like a menu).
    pub fn game_paused(&self) -> bool {
        self.screen == Screen::Game && self.session.as_ref().is_some_and(GameSession::is_paused)
    }

    /// The solo game being played now, for others to watch: counting down, running or paused,
    /// never over, never a versus game; with the number of games this App started, which
    /// tells one game from the next.
    pub fn live_game(&self) -> Option<(u64, &Game)> {
        let s = self.session.as_ref()?;
        (!s.is_over() && !s.is_versus()).then(|| (self.games, s.game()))
    }

    /// The solo game in progress or last played.
    pub fn game(&self) -> Option<&Game> {
        self.session.as_ref().map(GameSession::game)
    }

    /// Milliseconds between frames at the player's frame rate (front ends draw no faster).
    pub fn frame_interval_ms(&self) -> u64 {
        self.settings.frame_interval_ms()
    }

    /// Whether Descent can be played (it is locked until the player finishes Puzzle; the
    /// front end says so with [`App::set_descent_unlocked`] or [`AppContext::descent_unlocked`]).
    pub fn descent_unlocked(&self) -> bool {
        self.modes.descent_unlocked
    }

    /// Unlocks (or locks) Descent in the mode list.
    pub fn set_descent_unlocked(&mut self, unlocked: bool) {
        if self.modes.descent_unlocked != unlocked {
            self.modes.descent_unlocked = unlocked;
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
        self.games += 1;
        let seed = mix(self.seed ^ now.rotate_left(23) ^ self.games.wrapping_mul(0x9E37));
        self.session = Some(GameSession::new(
            setup,
            seed as u32,
            &self.settings,
            !self.releases,
            now,
        ));
        self.screen = Screen::Game;
        self.pause_cursor = 0;
        self.leave = None;
        self.results_cursor = 0;
        self.recorded = false;
        self.dirty = true;
        // A game started without a key (`play`, a start mode) is not idle from the outset.
        self.last_key = now;
    }

    fn show_results(&mut self) {
        self.screen = Screen::Results;
        self.results_cursor = 0;
        self.dirty = true;
    }

    fn record_finished(&mut self) {
        self.note_puzzle_progress();
        let Some(s) = &self.session else { return };
        let game = s.game();
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
}

/// The ruleset a preset of `kind` plays when the player's chosen one is `chosen`.
fn ruleset_for(kind: ModeKind, chosen: minotty_engine::RulesetId) -> minotty_engine::RulesetId {
    crate::rules::preset_ruleset(kind, chosen)
}

/// SplitMix64's finaliser: spreads a seed's bits.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
