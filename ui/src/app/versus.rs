//! Versus: quick match, rooms and matches, the App's side (see [`minotty_protocol`]).
//!
//! The player's own game runs here, in a [`crate::session::GameSession`] of the versus flavour (its clock never
//! stops); what happens in it goes to the room as [`Report`]s, and the room's garbage comes back
//! as [`Response::Garbage`]. The App routes the versus screens' keys, its ticks, the responses
//! and the frames here; what versus needs of the App comes in as a [`Ctx`], and what it asks of
//! the App goes back as an [`Outcome`]. Keys are in `versus/keys.rs`, the answers in
//! `versus/responses.rs`, the frames in `versus/draw.rs`, the Open rooms screen in
//! `versus/open_rooms.rs`; the views are in `screens/versus_*.rs`.

mod draw;
mod keys;
mod open_rooms;
mod responses;

use minotty_engine::versus::Targeting;
use minotty_protocol::RoomCommand;

use super::{App, Screen};
use crate::keys::{Key, KeyEvent, KeyKind};
use crate::screens::versus_match::Match;
use crate::screens::versus_menu::CreateForm;
use crate::settings::Settings;
use crate::widgets::charts::AttackTimeline;
use crate::{Request, Response};
use minotty_protocol::{EventDigest, end_reports, progress_of, snapshot};
use minotty_protocol::{MatchResult, Report, RoomView};

/// The longest room code the join field takes.
pub const CODE_MAX: usize = 8;
/// Keys on the results screen count only this long after it opened.
const RESULTS_GRACE_MS: u64 = 700;
/// A ready state asked for again without an answer from the room goes out after this long.
const READY_RESEND_MS: u64 = 1000;
/// Board snapshots that only show the falling piece moving go out at most this often.
const BOARD_EVERY_MS: u64 = 100;

/// Which versus screen shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) enum View {
    #[default]
    Menu,
    Create,
    /// Typing a room code; `spectate` to watch instead of play.
    Join {
        spectate: bool,
    },
    Queue,
    Room,
    Match,
    Results,
    /// The rooms their hosts listed (`app/versus/open_rooms.rs`).
    OpenRooms,
}

/// The quick-match queue, as the player sees it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Queue {
    /// Front-end time the player joined the queue.
    pub since: u64,
    /// `(rating, range)` once the server confirmed.
    pub rating: Option<(i32, i32)>,
    /// Everyone else waiting connects from the player's address (the server says so after a
    /// while): ranked never pairs them.
    pub same_address: bool,
}

/// The versus feature's own state: the versus screens and a match in progress.
#[derive(Debug, Default)]
pub(super) struct Versus {
    view: View,
    menu_cursor: usize,
    create: CreateForm,
    code: String,
    queue: Option<Queue>,
    room: Option<RoomView>,
    game: Option<Match>,
    result: Option<MatchResult>,
    results_cursor: usize,
    /// Rematch asked for: waiting for the room.
    rematch: bool,
    targeting: Targeting,
    /// When the results arrived (front-end time).
    results_at: u64,
    /// The room's settings that differ from the defaults, in one line for the results
    /// (`None`: all default).
    results_settings: Option<String>,
    /// A line of status or error under the current screen.
    message: Option<String>,
    /// A dismissable message box, drawn over any screen.
    notice: Option<String>,
    /// A `Room`, `Queued` or `RoomFailed` answer is expected (after a request from the menu).
    awaiting: bool,
    /// The host was told who is not ready: the next Enter starts anyway.
    confirm_start: bool,
    /// The code of the room the player left last (its late updates are ignored).
    left: Option<String>,
    /// The queue's wait clock as last drawn (whole seconds).
    queue_secs: u64,
    /// The ready state last asked for and when, until the room's next view.
    ready_sent: Option<(bool, u64)>,
    /// The level of the next bot the host adds (0: the default).
    bot_level: u8,
    /// The queue offered a match against a bot of this level.
    bot_offer: Option<u8>,
    /// Attack sent by seat over the match (the results' chart), from `MatchStart` on.
    attack: AttackTimeline,
    /// The Open rooms screen.
    open: open_rooms::OpenRoomsState,
    /// The match the results show, by the room and seed it started with (its replay's key
    /// until the server stored it).
    played: Option<minotty_protocol::MatchRef>,
    /// The room's settings screen is open over the lobby (the host's draft in it).
    settings_edit: Option<crate::screens::room_settings::SettingsEdit>,
    /// The player is in a climb: its latest view (the server sends it before each run's
    /// `MatchStart`).
    climb: Option<minotty_protocol::ClimbView>,
}

/// What versus needs of the rest of the App: the shared settings and terminal facts, whether
/// its screens show, whether there is a server at all, and the requests queue.
pub(super) struct Ctx<'a> {
    pub settings: &'a Settings,
    /// Whether the terminal reports key releases.
    pub releases: bool,
    /// The versus screens show.
    pub here: bool,
    /// The player plays without a server (`minotty play`): the menu's entries say so.
    pub offline: bool,
    pub requests: &'a mut Vec<Request>,
}

/// What a key or a response did, for the App to carry out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Outcome {
    /// Nothing changed.
    Ignored,
    /// The versus screens changed.
    Changed,
    /// Show this screen: the main menu (the player left the versus menu), or the versus
    /// screens (a room or a match arrived).
    Show(Screen),
    /// Ask whether to quit, "Quit" selected or not.
    AskQuit(bool),
    /// Watch the match just played (the match replay feature's); Esc comes back here.
    WatchMatch,
}

impl Outcome {
    /// [`Outcome::Changed`] when `changed`, else [`Outcome::Ignored`].
    fn changed(changed: bool) -> Outcome {
        if changed {
            Outcome::Changed
        } else {
            Outcome::Ignored
        }
    }
}

/// The level of the next bot a host adds, before they choose.
pub(crate) const DEFAULT_BOT_LEVEL: u8 = 3;

/// How many bots a host can choose from: the seven levels, then the server's TBP bots (pick
/// `8 + i` is `room.tbp_bots[i]`).
fn bot_picks(room: &RoomView) -> u8 {
    u8::try_from(7 + room.tbp_bots.len()).unwrap_or(u8::MAX)
}

impl Versus {
    fn bot_level(&self) -> u8 {
        if self.bot_level == 0 {
            DEFAULT_BOT_LEVEL
        } else {
            self.bot_level
        }
    }

    /// Opens the versus menu at its first entry (the App shows the versus screens).
    pub(super) fn open(&mut self) {
        self.view = View::Menu;
        self.menu_cursor = 0;
        self.message = None;
    }

    /// Queues `request`, noting which room's late updates to ignore (the one just left).
    pub(super) fn send(&mut self, request: Request, requests: &mut Vec<Request>) {
        match &request {
            Request::QuickMatch
            | Request::CreateRoom(_)
            | Request::JoinRoom { .. }
            | Request::SpectateLive { .. } => {
                self.left = None;
            }
            Request::LeaveRoom => {
                self.left = self.room.as_ref().map(|r| r.code.clone());
            }
            _ => {}
        }
        requests.push(request);
    }

    /// Advances the match in progress; `true` when the screen changed.
    pub(super) fn tick(&mut self, now: u64, ctx: &mut Ctx<'_>) -> bool {
        match self.view {
            View::Match => {
                let keys = &ctx.settings.keys;
                let changed = match self.game.as_mut() {
                    Some(Match {
                        session: Some(s), ..
                    }) => s.tick(now, keys),
                    // Spectating: the countdown is the only thing that moves by itself, and
                    // ticks come only at its wakeups.
                    Some(m) => {
                        m.countdown(now).is_some()
                            || m.countdown_wakeup(now.saturating_sub(1)).is_some()
                    }
                    None => false,
                };
                self.flush(now, ctx.requests);
                changed
            }
            View::Queue => {
                let Some(q) = self.queue else {
                    return false;
                };
                let secs = now.saturating_sub(q.since) / 1000;
                let changed = secs != self.queue_secs;
                self.queue_secs = secs;
                changed
            }
            View::OpenRooms => self.tick_open_rooms(now, ctx.requests),
            _ => false,
        }
    }

    /// When the versus screens need the App next.
    pub(super) fn wakeup(&self, now: u64) -> Option<u64> {
        match self.view {
            View::Match => {
                let m = self.game.as_ref()?;
                let Some(s) = m.session.as_ref() else {
                    return m.countdown_wakeup(now);
                };
                let board = m
                    .board_due
                    .then(|| m.last_board.map_or(now, |t| t + BOARD_EVERY_MS));
                [s.next_wakeup(), board].into_iter().flatten().min()
            }
            View::Queue => {
                let q = self.queue?;
                let waited = now.saturating_sub(q.since);
                Some(q.since + (waited / 1000 + 1) * 1000)
            }
            View::OpenRooms => self.open_rooms_wakeup(),
            _ => None,
        }
    }

    /// Whether a versus match is being played (counts as in game for the idle timeout).
    pub(super) fn in_match(&self) -> bool {
        self.view == View::Match
            && self
                .game
                .as_ref()
                .and_then(|m| m.session.as_ref())
                .is_some_and(|s| !s.is_over())
    }

    /// What the player should still read when the server ends the session as it restarts:
    /// what becomes of their match (a match still running is abandoned, unrated; a decided one
    /// stands), or the room's last word shown on the versus menu. `None`: nothing at stake.
    pub(super) fn farewell(&self) -> Option<&str> {
        let playing = self.game.as_ref().is_some_and(|m| m.session.is_some());
        match (playing, &self.result) {
            (true, None) => Some("Your match is abandoned, not rated."),
            (_, Some(_)) if self.view == View::Results => Some("Your match's result stands."),
            _ if self.view == View::Menu => self.message.as_deref(),
            _ => None,
        }
    }

    /// Whether a notice is open (drawn over any screen).
    pub(super) fn has_notice(&self) -> bool {
        self.notice.is_some()
    }

    /// A key while a notice is open (`here`: the versus screens show): Enter (or Esc outside a
    /// match) closes it. Returns whether the key was used.
    pub(super) fn key_notice(&mut self, ev: KeyEvent, here: bool) -> bool {
        if self.notice.is_none() || ev.kind != KeyKind::Press {
            return false;
        }
        let in_match = here && self.view == View::Match;
        if ev.key == Key::Enter || (ev.key == Key::Esc && !in_match) {
            self.notice = None;
            return true;
        }
        false
    }

    /// The player left the room, or it closed: back to the versus menu.
    fn left(&mut self, message: Option<String>) {
        self.room = None;
        self.game = None;
        self.queue = None;
        self.rematch = false;
        self.awaiting = false;
        self.targeting = Targeting::default();
        self.settings_edit = None;
        self.climb = None;
        self.menu_cursor = 0;
        self.message = message;
        if !matches!(self.view, View::Join { .. } | View::Create) || self.message.is_some() {
            self.view = View::Menu;
        }
    }

    /// Sends the room what happened in the player's game since the last report.
    fn flush(&mut self, now: u64, requests: &mut Vec<Request>) {
        let Some(m) = &mut self.game else {
            return;
        };
        let Some(s) = &mut m.session else { return };
        let (events, moved) = s.take_versus_events();
        let digest = EventDigest::of(&events);
        let (board, progress, finished) = (digest.board, digest.progress, digest.finished);
        let mut reports = digest.attacks;
        m.board_due |= moved;
        let running = !matches!(s.state(), crate::session::RunState::Countdown { .. });
        let throttled = m.last_board.is_some_and(|t| now < t + BOARD_EVERY_MS);
        if board
            || (m.board_due && running && !throttled)
            || (m.board_due && m.last_board.is_none())
        {
            reports.push(Report::Board(snapshot(s.game())));
            m.last_board = Some(now);
            m.board_due = false;
        }
        if progress {
            reports.push(Report::Progress(progress_of(s.game())));
        }
        if let Some((won, forfeit)) = finished.filter(|_| !m.finished_sent) {
            m.finished_sent = true;
            m.forfeit_prompt = false;
            reports.extend(end_reports(s.game(), won, forfeit));
        }
        if !reports.is_empty() {
            self.send(Request::Room(RoomCommand::Report { reports }), requests);
        }
    }

    /// The player's versus game, if one is running or just ended.
    #[cfg(test)]
    fn game(&self) -> Option<&minotty_engine::Game> {
        self.game
            .as_ref()
            .and_then(|m| m.session.as_ref())
            .map(crate::session::GameSession::game)
    }

    #[cfg(test)]
    fn game_mut(&mut self) -> Option<&mut minotty_engine::Game> {
        self.game
            .as_mut()
            .and_then(|m| m.session.as_mut())
            .map(crate::session::GameSession::game_mut)
    }
}

impl App {
    pub(super) fn open_versus(&mut self) {
        self.versus.open();
        self.screen = Screen::Versus;
    }

    /// Versus, and what it needs of the rest of the App.
    fn split_versus(&mut self) -> (&mut Versus, Ctx<'_>) {
        let ctx = Ctx {
            settings: &self.settings,
            releases: self.releases,
            here: self.screen == Screen::Versus,
            offline: self.identity.without_server(),
            requests: &mut self.requests,
        };
        (&mut self.versus, ctx)
    }

    /// A key on the versus screens, carried out.
    pub(super) fn key_versus(&mut self, ev: KeyEvent, now: u64) -> bool {
        let (versus, mut ctx) = self.split_versus();
        let outcome = versus.handle_key(ev, now, &mut ctx);
        self.carry_out_versus(outcome)
    }

    /// Advances the match in progress; `true` when the screen changed.
    pub(super) fn tick_versus(&mut self, now: u64) -> bool {
        let (versus, mut ctx) = self.split_versus();
        versus.tick(now, &mut ctx)
    }

    /// Handles a versus response; `true` when the screen changed.
    pub(super) fn versus_response(&mut self, response: Response, now: u64) -> bool {
        let (versus, mut ctx) = self.split_versus();
        let outcome = versus.on_response(response, now, &mut ctx);
        self.carry_out_versus(outcome)
    }

    /// What versus asked of the App, carried out; `true` when the screen changed.
    fn carry_out_versus(&mut self, outcome: Outcome) -> bool {
        match outcome {
            Outcome::Ignored => false,
            Outcome::Changed => true,
            Outcome::Show(screen) => {
                self.screen = screen;
                true
            }
            Outcome::AskQuit(yes) => self.ask_quit(yes),
            Outcome::WatchMatch => match self.versus.played_match() {
                Some(of) => {
                    self.open_match_replay(of, Screen::Versus);
                    true
                }
                None => false,
            },
        }
    }

    /// The player's versus game, if one is running or just ended.
    #[cfg(test)]
    pub(crate) fn versus_game(&self) -> Option<&minotty_engine::Game> {
        self.versus.game()
    }

    #[cfg(test)]
    pub(crate) fn versus_game_mut(&mut self) -> Option<&mut minotty_engine::Game> {
        self.versus.game_mut()
    }
}
