//! Versus: quick match, rooms and matches, the App's side (see [`minotty_protocol`]).
//!
//! The player's own game runs here, in a [`GameSession`] of the versus flavour (its clock never
//! stops); what happens in it goes to the room as [`Report`]s, and the room's garbage comes back
//! as [`Response::Garbage`]. The views are in `screens/versus_*.rs`.

mod keys;
mod open_rooms;

use minotty_engine::versus::Targeting;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

use super::{App, Screen};
use crate::keys::{Key, KeyEvent, KeyKind};
use crate::screens::is_ctrl;
use crate::screens::versus_match::{Match, MatchView};
use crate::screens::versus_menu::{self, CreateForm, JoinView, MenuView};
use crate::screens::versus_results::ResultsView;
use crate::screens::versus_room::{LobbyView, QueueView};
use crate::session::GameSession;
use crate::text::sanitize;
use crate::theme::Theme;
use crate::widgets::charts::AttackTimeline;
use crate::{Request, Response};
use minotty_protocol::{EventDigest, end_reports, progress_of, snapshot};
use minotty_protocol::{MatchResult, Report, RoomLimit, RoomState, RoomView};

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
}

/// The state of the versus screens and of a match in progress.
#[derive(Debug, Default)]
pub(super) struct VersusState {
    pub(super) view: View,
    menu_cursor: usize,
    create: CreateForm,
    code: String,
    queue: Option<Queue>,
    pub(super) room: Option<RoomView>,
    game: Option<Match>,
    result: Option<MatchResult>,
    results_cursor: usize,
    /// Rematch asked for: waiting for the room.
    rematch: bool,
    targeting: Targeting,
    /// When the results arrived (front-end time).
    results_at: u64,
    /// A line of status or error under the current screen.
    pub(super) message: Option<String>,
    /// A dismissable message box, drawn over any screen.
    notice: Option<String>,
    /// A `Room`, `Queued` or `RoomFailed` answer is expected (after a request from the menu).
    pub(super) awaiting: bool,
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
    pub(super) open: open_rooms::OpenRoomsState,
}

/// The level of the next bot a host adds, before they choose.
pub(crate) const DEFAULT_BOT_LEVEL: u8 = 3;

/// How many bots a host can choose from: the seven levels, then the server's TBP bots (pick
/// `8 + i` is `room.tbp_bots[i]`).
fn bot_picks(room: &RoomView) -> u8 {
    u8::try_from(7 + room.tbp_bots.len()).unwrap_or(u8::MAX)
}

impl VersusState {
    fn bot_level(&self) -> u8 {
        if self.bot_level == 0 {
            DEFAULT_BOT_LEVEL
        } else {
            self.bot_level
        }
    }
}

impl App {
    pub(super) fn open_versus(&mut self) {
        let v = &mut self.versus;
        v.view = View::Menu;
        v.menu_cursor = 0;
        v.message = None;
        self.screen = Screen::Versus;
    }

    pub(super) fn versus_send(&mut self, request: Request) {
        match &request {
            Request::QuickMatch
            | Request::CreateRoom(_)
            | Request::JoinRoom { .. }
            | Request::SpectateLive { .. } => {
                self.versus.left = None;
            }
            Request::LeaveRoom => {
                self.versus.left = self.versus.room.as_ref().map(|r| r.code.clone());
            }
            _ => {}
        }
        self.request(request);
    }

    pub(super) fn key_versus(&mut self, ev: KeyEvent, now: u64) -> bool {
        if self.versus.view == View::Match {
            return self.key_versus_match(ev, now);
        }
        if is_ctrl(ev, 'c') {
            return self.ask_quit(true);
        }
        if ev.kind == KeyKind::Release {
            return false;
        }
        match self.versus.view {
            View::Menu => self.key_versus_menu(ev, now),
            View::Create => self.key_versus_create(ev),
            View::Join { spectate } => self.key_versus_join(ev, spectate),
            View::Queue => self.key_versus_queue(ev),
            View::Room => self.key_versus_room(ev, now),
            View::Results => self.key_versus_results(ev, now),
            View::OpenRooms => self.key_open_rooms(ev),
            View::Match => false,
        }
    }

    /// Advances the match in progress; `true` when the screen changed.
    pub(super) fn tick_versus(&mut self, now: u64) -> bool {
        match self.versus.view {
            View::Match => {
                let keys = &self.settings.keys;
                let changed = match self.versus.game.as_mut() {
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
                self.versus_flush(now);
                changed
            }
            View::Queue => {
                let Some(q) = self.versus.queue else {
                    return false;
                };
                let secs = now.saturating_sub(q.since) / 1000;
                let changed = secs != self.versus.queue_secs;
                self.versus.queue_secs = secs;
                changed
            }
            View::OpenRooms => self.tick_open_rooms(now),
            _ => false,
        }
    }

    pub(super) fn versus_wakeup(&self) -> Option<u64> {
        match self.versus.view {
            View::Match => {
                let m = self.versus.game.as_ref()?;
                let Some(s) = m.session.as_ref() else {
                    return m.countdown_wakeup(self.now);
                };
                let board = m
                    .board_due
                    .then(|| m.last_board.map_or(self.now, |t| t + BOARD_EVERY_MS));
                [s.next_wakeup(), board].into_iter().flatten().min()
            }
            View::Queue => {
                let q = self.versus.queue?;
                let waited = self.now.saturating_sub(q.since);
                Some(q.since + (waited / 1000 + 1) * 1000)
            }
            View::OpenRooms => self.open_rooms_wakeup(),
            _ => None,
        }
    }

    /// Whether a versus match is being played (counts as in game for the idle timeout).
    pub(super) fn versus_in_match(&self) -> bool {
        self.versus.view == View::Match
            && self
                .versus
                .game
                .as_ref()
                .and_then(|m| m.session.as_ref())
                .is_some_and(|s| !s.is_over())
    }

    pub(super) fn render_versus(&self, area: Rect, buf: &mut Buffer, theme: Theme) {
        let v = &self.versus;
        let message = v.message.as_deref().unwrap_or("");
        match v.view {
            View::Menu => MenuView {
                cursor: v.menu_cursor,
                message,
                theme,
            }
            .render(area, buf),
            View::Create => v.create.view(message, theme).render(area, buf),
            View::Join { spectate } => JoinView {
                code: &v.code,
                spectate,
                message,
                theme,
            }
            .render(area, buf),
            View::Queue => QueueView {
                waited_ms: v.queue.map_or(0, |q| self.now.saturating_sub(q.since)),
                rating: v.queue.and_then(|q| q.rating),
                bot_offer: v.bot_offer,
                message,
                theme,
            }
            .render(area, buf),
            View::Room => match &v.room {
                Some(room) => LobbyView {
                    room,
                    targeting: v.targeting,
                    bot_level: (room.host && !room.ranked)
                        .then(|| v.bot_level().min(bot_picks(room))),
                    message,
                    theme,
                }
                .render(area, buf),
                None => MenuView {
                    cursor: v.menu_cursor,
                    message,
                    theme,
                }
                .render(area, buf),
            },
            View::OpenRooms => self.open_rooms_view(message, theme).render(area, buf),
            View::Match => {
                if let Some(m) = &v.game {
                    MatchView {
                        game: m,
                        settings: &self.settings,
                        player: &self.player,
                        now: self.now,
                    }
                    .render(area, buf);
                }
            }
            View::Results => {
                if let Some(result) = &v.result {
                    ResultsView {
                        result,
                        cursor: v.results_cursor,
                        message,
                        theme,
                        attack: &v.attack,
                    }
                    .render(area, buf);
                }
            }
        }
    }

    /// Draws the notice box, if one is open, over whatever screen shows.
    pub(super) fn render_versus_notice(&self, area: Rect, buf: &mut Buffer, theme: Theme) {
        if let Some(text) = &self.versus.notice {
            versus_menu::notice(buf, area, text, theme);
        }
    }

    /// A key while a notice is open: Enter (or Esc outside a match) closes it. Returns whether
    /// the key was used.
    pub(super) fn key_versus_notice(&mut self, ev: KeyEvent) -> bool {
        if self.versus.notice.is_none() || ev.kind != KeyKind::Press {
            return false;
        }
        let in_match = self.screen == Screen::Versus && self.versus.view == View::Match;
        if ev.key == Key::Enter || (ev.key == Key::Esc && !in_match) {
            self.versus.notice = None;
            return true;
        }
        false
    }

    /// Handles a versus response; `true` when the screen changed.
    pub(super) fn versus_response(&mut self, response: Response, now: u64) -> bool {
        let here = self.screen == Screen::Versus;
        let v = &mut self.versus;
        match response {
            Response::Offline => {
                if !here {
                    return false;
                }
                v.awaiting = false;
                v.queue = None;
                if matches!(v.view, View::Queue | View::Create | View::Join { .. }) {
                    v.view = View::Menu;
                }
                v.message = Some(versus_menu::OFFLINE.to_string());
            }
            Response::Error { message } => {
                if !here {
                    return false;
                }
                v.awaiting = false;
                if v.view == View::Queue {
                    v.queue = None;
                    v.view = View::Menu;
                }
                v.message = Some(sanitize_line(&message));
            }
            Response::BotOffer { level } => {
                if v.queue.is_none() {
                    return false;
                }
                v.bot_offer = Some(level);
            }
            Response::Queued { rating, range } => {
                let since = v.queue.map_or(now, |q| q.since);
                v.queue = Some(Queue {
                    since,
                    rating: Some((rating, range)),
                });
                if here && v.view != View::Match {
                    v.view = View::Queue;
                }
            }
            Response::Room(mut room) => {
                clean_room(&mut room);
                v.ready_sent = None;
                if v.left.as_deref() == Some(room.code.as_str()) {
                    // A late update of the room the player just left.
                    return false;
                }
                let follow = match v.view {
                    View::Results => v.rematch && room.state == RoomState::Lobby,
                    View::Match => false,
                    _ => true,
                };
                if v.room.as_ref().is_none_or(|r| r.code != room.code) {
                    v.targeting = Targeting::default();
                }
                v.room = Some(room);
                if follow {
                    self.screen = Screen::Versus;
                    if v.view != View::Room {
                        v.message = None;
                    }
                    v.view = View::Room;
                    v.queue = None;
                    v.awaiting = false;
                    v.rematch = false;
                }
            }
            Response::RoomFailed { message } => {
                if !here {
                    // E.g. `ssh HOST join CODE` with a wrong code: the player is on the main
                    // menu, not in the versus screens.
                    v.notice = Some(sanitize_line(&message));
                    return true;
                }
                v.awaiting = false;
                v.rematch = false;
                if v.view == View::Queue {
                    v.queue = None;
                    v.view = View::Menu;
                }
                v.message = Some(sanitize_line(&message));
            }
            Response::RoomClosed { message } => {
                self.versus_left(Some(sanitize_line(&message)));
            }
            Response::MatchStart(mut start) => {
                for p in &mut start.players {
                    *p = sanitize(p);
                }
                let session = start.you.map(|_| {
                    GameSession::new_versus(
                        start.mode.clone(),
                        start.seed,
                        &self.settings,
                        !self.releases,
                        now,
                        start.countdown_ms,
                    )
                });
                let v = &mut self.versus;
                v.attack.clear();
                let limit = v.room.as_ref().map_or(RoomLimit::None, |r| r.options.limit);
                v.game = Some(Match {
                    start,
                    started_at: now,
                    limit,
                    session,
                    opponents: Vec::new(),
                    forfeit_prompt: false,
                    last_board: None,
                    board_due: true,
                    finished_sent: false,
                });
                v.view = View::Match;
                v.queue = None;
                v.bot_offer = None;
                v.awaiting = false;
                v.rematch = false;
                v.message = None;
                self.screen = Screen::Versus;
                self.versus_flush(now);
            }
            Response::Garbage { lines, .. } => {
                let keys = &self.settings.keys;
                let Some(s) = v.game.as_mut().and_then(|m| m.session.as_mut()) else {
                    return false;
                };
                s.garbage(lines, now, keys);
                self.versus_flush(now);
            }
            Response::Opponents(mut list) => {
                let Some(m) = &mut v.game else { return false };
                for o in &mut list {
                    o.name = sanitize(&o.name);
                    v.attack
                        .note(o.seat, o.progress.time_ms, o.progress.attack_sent);
                }
                if let (Some(seat), Some(s)) = (m.start.you, &m.session) {
                    let own = progress_of(s.game());
                    v.attack.note(seat, own.time_ms, own.attack_sent);
                }
                m.opponents = list;
            }
            Response::MatchOver(mut result) => {
                for r in &mut result.rows {
                    r.name = sanitize(&r.name);
                }
                // A game still running when the match is decided: its record goes now.
                let replay = v
                    .game
                    .as_ref()
                    .and_then(|m| m.session.as_ref().filter(|_| !m.finished_sent))
                    .map(|s| s.game().replay());
                if let Some(replay) = replay {
                    self.versus_send(Request::Report(vec![Report::Replay(Box::new(replay))]));
                }
                let v = &mut self.versus;
                // The match is decided: a game still running stops here (its end was reported
                // by the room, not by the player).
                v.game = None;
                v.result = Some(result);
                v.results_cursor = 0;
                v.results_at = now;
                v.rematch = false;
                v.message = None;
                if v.view == View::Match || here {
                    v.view = View::Results;
                }
            }
            Response::Notice { message } => {
                v.notice = Some(sanitize_line(&message));
            }
            Response::OpenRooms(rooms) => return self.open_rooms_response(rooms),
            _ => return false,
        }
        true
    }

    /// The player left the room, or it closed: back to the versus menu.
    fn versus_left(&mut self, message: Option<String>) {
        let v = &mut self.versus;
        v.room = None;
        v.game = None;
        v.queue = None;
        v.rematch = false;
        v.awaiting = false;
        v.targeting = Targeting::default();
        v.menu_cursor = 0;
        v.message = message;
        if !matches!(v.view, View::Join { .. } | View::Create) || v.message.is_some() {
            v.view = View::Menu;
        }
    }

    /// Sends the room what happened in the player's game since the last report.
    fn versus_flush(&mut self, now: u64) {
        let Some(m) = &mut self.versus.game else {
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
            self.versus_send(Request::Report(reports));
        }
    }

    /// The player's versus game, if one is running or just ended.
    #[cfg(test)]
    pub(crate) fn versus_game(&self) -> Option<&minotty_engine::Game> {
        self.versus
            .game
            .as_ref()
            .and_then(|m| m.session.as_ref())
            .map(GameSession::game)
    }

    #[cfg(test)]
    pub(crate) fn versus_game_mut(&mut self) -> Option<&mut minotty_engine::Game> {
        self.versus
            .game
            .as_mut()
            .and_then(|m| m.session.as_mut())
            .map(GameSession::game_mut)
    }
}

/// A server message made safe to draw: the one allowlist, as for names, but it may be
/// longer than a name.
fn sanitize_line(s: &str) -> String {
    minotty_domain::text::sanitize_display(s, 300)
}

/// Every string of a room's view through the one allowlist: its code, the seated names (people
/// and bots) and the names of the bots the host may seat.
fn clean_room(room: &mut RoomView) {
    room.code = sanitize(&room.code);
    for s in &mut room.seats {
        s.name = sanitize(&s.name);
    }
    for name in &mut room.tbp_bots {
        *name = sanitize(name);
    }
}
