//! The versus screens' keys: the menu, the queue, the create and join forms, the room's
//! lobby, the match and the results. Versus carries out its own; what concerns the App (the
//! main menu, the quit question) goes back as an [`Outcome`].

use minotty_engine::versus::{MatchKind, Targeting, teams};
use minotty_protocol::{RoomCommand, RoomState};

use super::bot_picks;
use super::{CODE_MAX, Ctx, Outcome, Queue, READY_RESEND_MS, RESULTS_GRACE_MS, Versus, View};
use crate::Request;
use crate::app::Screen;
use crate::keys::{Key, KeyEvent, KeyKind};
use crate::screens::room_settings::SettingsEdit;
use crate::screens::versus_menu;
use crate::screens::versus_results;
use crate::screens::{Nav, is_ctrl, nav, wrap};

impl Versus {
    /// A key on the versus screens.
    pub(in crate::app) fn handle_key(
        &mut self,
        ev: KeyEvent,
        now: u64,
        ctx: &mut Ctx<'_>,
    ) -> Outcome {
        if self.view == View::Match {
            return self.key_match(ev, now, ctx);
        }
        if is_ctrl(ev, 'c') {
            return Outcome::AskQuit(true);
        }
        if ev.kind == KeyKind::Release {
            return Outcome::Ignored;
        }
        match self.view {
            View::Menu => self.key_menu(ev, now, ctx),
            View::Create => self.key_create(ev, ctx.requests),
            View::Join { spectate } => self.key_join(ev, spectate, ctx.requests),
            View::Queue => self.key_queue(ev, ctx.requests),
            View::Room => self.key_room(ev, now, ctx.requests),
            View::Results => self.key_results(ev, now, ctx.requests),
            View::OpenRooms => Outcome::changed(self.key_open_rooms(ev, ctx.requests)),
            View::Match => Outcome::Ignored,
        }
    }

    fn key_menu(&mut self, ev: KeyEvent, now: u64, ctx: &mut Ctx<'_>) -> Outcome {
        match nav(ev) {
            Some(Nav::Up) => {
                self.menu_cursor = wrap(self.menu_cursor, versus_menu::ITEMS.len(), false);
            }
            Some(Nav::Down) => {
                self.menu_cursor = wrap(self.menu_cursor, versus_menu::ITEMS.len(), true);
            }
            Some(Nav::Back) => return Outcome::Show(Screen::Menu),
            Some(Nav::Select | Nav::Right) => {
                let item = self.menu_cursor;
                if item == versus_menu::ITEMS.len() - 1 {
                    return Outcome::Show(Screen::Menu);
                }
                if ctx.offline {
                    self.message = Some(versus_menu::OFFLINE.to_string());
                    return Outcome::Changed;
                }
                self.message = None;
                match item {
                    0 => {
                        self.queue = Some(Queue {
                            since: now,
                            rating: None,
                            same_address: false,
                        });
                        self.bot_offer = None;
                        self.queue_secs = 0;
                        self.awaiting = true;
                        self.view = View::Queue;
                        self.send(Request::QuickMatch, ctx.requests);
                    }
                    1 => self.view = View::Create,
                    4 => self.open_open_rooms(now, ctx.requests),
                    versus_menu::CLIMB => {
                        self.awaiting = true;
                        self.message = Some("Joining the climb...".to_string());
                        self.send(Request::JoinClimb, ctx.requests);
                    }
                    _ => {
                        self.code.clear();
                        self.view = View::Join {
                            spectate: item == 3,
                        };
                    }
                }
            }
            _ => return Outcome::Ignored,
        }
        Outcome::Changed
    }

    fn key_queue(&mut self, ev: KeyEvent, requests: &mut Vec<Request>) -> Outcome {
        if self.bot_offer.is_some() && !ev.mods.ctrl && !ev.mods.alt {
            match ev.key {
                Key::Enter | Key::Char('y' | 'Y') => {
                    self.bot_offer = None;
                    self.message = Some("Starting a match against the bot...".to_string());
                    self.send(Request::AcceptBotMatch, requests);
                    return Outcome::Changed;
                }
                Key::Char('n' | 'N') => {
                    self.bot_offer = None;
                    self.message = Some("Still looking for a person.".to_string());
                    self.send(Request::DeclineBotMatch, requests);
                    return Outcome::Changed;
                }
                _ => {}
            }
        }
        if nav(ev) == Some(Nav::Back) {
            self.send(Request::CancelQuickMatch, requests);
            self.queue = None;
            self.bot_offer = None;
            self.message = None;
            self.awaiting = false;
            self.view = View::Menu;
            return Outcome::Changed;
        }
        Outcome::Ignored
    }

    fn key_create(&mut self, ev: KeyEvent, requests: &mut Vec<Request>) -> Outcome {
        match self.create.handle(ev) {
            versus_menu::FormAction::None => Outcome::Ignored,
            versus_menu::FormAction::Changed => Outcome::Changed,
            versus_menu::FormAction::Back => {
                self.view = View::Menu;
                Outcome::Changed
            }
            versus_menu::FormAction::Create(options) => {
                self.awaiting = true;
                self.message = Some("Creating the room...".to_string());
                self.send(Request::CreateRoom(options), requests);
                Outcome::Changed
            }
        }
    }

    fn key_join(&mut self, ev: KeyEvent, spectate: bool, requests: &mut Vec<Request>) -> Outcome {
        if ev.mods.ctrl || ev.mods.alt {
            return Outcome::Ignored;
        }
        match ev.key {
            Key::Esc => {
                self.view = View::Menu;
                self.message = None;
            }
            Key::Backspace => {
                self.code.pop();
            }
            Key::Enter => {
                if self.code.is_empty() {
                    self.message = Some("Type the room's code first.".to_string());
                    return Outcome::Changed;
                }
                self.awaiting = true;
                self.message = Some(format!("Joining {}...", self.code));
                let code = self.code.clone();
                self.send(Request::JoinRoom { code, spectate }, requests);
            }
            Key::Char(c) if c.is_ascii_alphanumeric() => {
                if self.code.len() < CODE_MAX {
                    self.code.push(c.to_ascii_uppercase());
                }
            }
            // Spaces and everything else are ignored: codes are read aloud as "K7 PQ".
            Key::Char(_) => return Outcome::Ignored,
            _ => return Outcome::Ignored,
        }
        Outcome::Changed
    }

    fn key_room(&mut self, ev: KeyEvent, now: u64, requests: &mut Vec<Request>) -> Outcome {
        let Some(room) = &self.room else {
            self.view = View::Menu;
            return Outcome::Changed;
        };
        if self.settings_edit.is_some() {
            return self.key_settings(ev, requests);
        }
        let you = room.you.and_then(|i| room.seats.get(i));
        let key = match ev.key {
            Key::Char(c) if !ev.mods.ctrl && !ev.mods.alt => Some(c.to_ascii_lowercase()),
            Key::Enter => Some('\n'),
            Key::Esc => Some('\x1b'),
            _ => None,
        };
        if key != Some('\n') && key != Some('s') {
            self.confirm_start = false;
        }
        match key {
            Some('\x1b') => {
                self.send(Request::LeaveRoom, requests);
                self.left(None);
            }
            Some('l') => return Outcome::changed(self.toggle_listed(requests)),
            Some('o') if room.state != RoomState::Playing => {
                self.settings_edit = Some(SettingsEdit::new(room.options));
            }
            Some('r') => {
                let Some(seat) = you else {
                    return Outcome::Ignored;
                };
                let ready = !seat.ready;
                // A held or hammered key asks once until the room answers (or a while passed:
                // the request may have been dropped).
                if self
                    .ready_sent
                    .is_some_and(|(r, at)| r == ready && now < at + READY_RESEND_MS)
                {
                    return Outcome::Ignored;
                }
                self.ready_sent = Some((ready, now));
                self.send(Request::Room(RoomCommand::Ready { ready }), requests);
            }
            Some('\n' | 's') => {
                if you.is_none() {
                    return Outcome::Ignored;
                }
                if !room.host {
                    self.message = Some("Only the host can start the match.".to_string());
                    return Outcome::Changed;
                }
                if room.seats.len() < 2 {
                    self.message = Some("Waiting for another player to join.".to_string());
                    return Outcome::Changed;
                }
                let waiting: Vec<&str> = room
                    .seats
                    .iter()
                    .filter(|s| !s.ready && !s.host)
                    .map(|s| s.name.as_str())
                    .collect();
                if !waiting.is_empty() && !self.confirm_start {
                    self.message = Some(format!(
                        "Not ready: {}. Press Enter again to start anyway.",
                        waiting.join(", ")
                    ));
                    self.confirm_start = true;
                    return Outcome::Changed;
                }
                self.confirm_start = false;
                self.message = None;
                self.send(Request::Room(RoomCommand::Start), requests);
            }
            Some('b') => {
                if !room.host || room.ranked {
                    return Outcome::Ignored;
                }
                if room.seats.len() >= usize::from(room.options.max_players()) {
                    self.message = Some("The room is full.".to_string());
                    return Outcome::Changed;
                }
                let pick = self.bot_level().min(bot_picks(room));
                self.message = None;
                // Past the built-in levels come the server's TBP bots, by name.
                let request = match room.tbp_bots.get(usize::from(pick).wrapping_sub(8)) {
                    Some(name) if pick > 7 => {
                        Request::Room(RoomCommand::AddTbpBot { name: name.clone() })
                    }
                    _ => Request::Room(RoomCommand::AddBot { level: pick }),
                };
                self.send(request, requests);
            }
            Some('x') => {
                if !room.host || room.ranked {
                    return Outcome::Ignored;
                }
                match room.seats.iter().rposition(|s| s.bot.is_some()) {
                    Some(seat) => {
                        self.message = None;
                        self.send(Request::Room(RoomCommand::RemoveBot { seat }), requests);
                    }
                    None => self.message = Some("No bot to remove.".to_string()),
                }
            }
            Some(c @ ('+' | '=' | '-')) => {
                if !room.host || room.ranked {
                    return Outcome::Ignored;
                }
                let level = self.bot_level().min(bot_picks(room));
                self.bot_level = match c {
                    '-' => level.saturating_sub(1).max(1),
                    _ => (level + 1).min(bot_picks(room)),
                };
            }
            Some('g') => {
                let (Some(i), Some(seat)) = (room.you, you) else {
                    return Outcome::Ignored;
                };
                let Some(team) = seat.team.filter(|_| room.state != RoomState::Playing) else {
                    return Outcome::Ignored;
                };
                let team = teams::next_team(team, room.options.teams());
                self.send(Request::Room(RoomCommand::Team { seat: i, team }), requests);
            }
            // The host moves seat N (1-8, top to bottom) to the next team.
            Some(c @ '1'..='8') if room.host && room.state != RoomState::Playing => {
                let i = usize::from(c as u8 - b'1');
                let Some(team) = room.seats.get(i).and_then(|s| s.team) else {
                    return Outcome::Ignored;
                };
                let team = teams::next_team(team, room.options.teams());
                self.send(Request::Room(RoomCommand::Team { seat: i, team }), requests);
            }
            Some('t') => {
                let can = you.is_some()
                    && room.options.kind() == MatchKind::Battle
                    && room.options.max_players() > 2;
                if !can {
                    return Outcome::Ignored;
                }
                let all = Targeting::ALL;
                let i = all.iter().position(|&t| t == self.targeting).unwrap_or(0);
                let next = all[(i + 1) % all.len()];
                self.targeting = next;
                self.send(
                    Request::Room(RoomCommand::Targeting { targeting: next }),
                    requests,
                );
            }
            _ => return Outcome::Ignored,
        }
        Outcome::Changed
    }

    /// The match the results show, as the server finds it by its room and seed.
    pub(in crate::app) fn played_match(&self) -> Option<minotty_protocol::MatchRef> {
        self.played.clone()
    }

    /// The room's settings screen: the host moves and changes rows and applies the draft
    /// (one `Settings` command); everyone else only looks.
    fn key_settings(&mut self, ev: KeyEvent, requests: &mut Vec<Request>) -> Outcome {
        let (Some(room), Some(edit)) = (&self.room, self.settings_edit.as_mut()) else {
            return Outcome::Ignored;
        };
        let host = room.host && !room.ranked;
        match ev.key {
            Key::Esc | Key::Char('o' | 'q') => self.settings_edit = None,
            // Everyone scrolls the rows; only the host changes them.
            Key::Up | Key::Char('k') => edit.up(),
            Key::Down | Key::Char('j') => edit.down(),
            Key::Left | Key::Char('h') if host => edit.step(-1),
            Key::Right | Key::Char('l') if host => edit.step(1),
            Key::Enter if host => {
                let settings = edit.draft;
                self.settings_edit = None;
                if settings != room.options {
                    self.send(Request::Room(RoomCommand::Settings { settings }), requests);
                }
            }
            _ => return Outcome::Ignored,
        }
        Outcome::Changed
    }

    fn key_results(&mut self, ev: KeyEvent, now: u64, requests: &mut Vec<Request>) -> Outcome {
        if now < self.results_at + RESULTS_GRACE_MS {
            // Keys still being hammered from the game do not choose anything here.
            return Outcome::Ignored;
        }
        let spectator = self.result.as_ref().is_some_and(|r| r.you.is_none());
        // `v`: every board of the match just played, from its stored replays (asked for by
        // the room and seed the match started with: it has no id yet).
        if ev.kind == crate::keys::KeyKind::Press
            && !ev.mods.ctrl
            && matches!(ev.key, crate::keys::Key::Char('v' | 'V'))
            && self.played_match().is_some()
        {
            return Outcome::WatchMatch;
        }
        match versus_results::handle(&mut self.results_cursor, ev, spectator) {
            versus_results::ResultsAction::None => Outcome::Ignored,
            versus_results::ResultsAction::Moved => Outcome::Changed,
            versus_results::ResultsAction::Rematch => {
                self.rematch = true;
                self.message = Some("Waiting for the others...".to_string());
                self.send(Request::Room(RoomCommand::Rematch), requests);
                Outcome::Changed
            }
            versus_results::ResultsAction::Room => {
                self.message = None;
                self.view = if self.room.is_some() {
                    View::Room
                } else {
                    View::Menu
                };
                Outcome::Changed
            }
            versus_results::ResultsAction::Leave => {
                self.send(Request::LeaveRoom, requests);
                self.left(None);
                Outcome::Changed
            }
        }
    }

    fn key_match(&mut self, ev: KeyEvent, now: u64, ctx: &mut Ctx<'_>) -> Outcome {
        if is_ctrl(ev, 'c') {
            // The quit dialog does not stop the game: the opponents keep playing.
            return Outcome::AskQuit(false);
        }
        let keys = &ctx.settings.keys;
        let Some(m) = &mut self.game else {
            self.view = View::Menu;
            return Outcome::Changed;
        };
        let press = ev.kind == KeyKind::Press;
        let Some(s) = &mut m.session else {
            // Spectating: Esc leaves.
            if press && ev.key == Key::Esc {
                self.send(Request::LeaveRoom, ctx.requests);
                self.left(None);
                return Outcome::Changed;
            }
            return Outcome::Ignored;
        };
        let plain = !ev.mods.ctrl && !ev.mods.alt;
        if m.forfeit_prompt && press && plain {
            match ev.key {
                Key::Char('y' | 'Y') | Key::Enter => {
                    m.forfeit_prompt = false;
                    s.forfeit(now, keys);
                    self.flush(now, ctx.requests);
                    return Outcome::Changed;
                }
                Key::Char('n' | 'N') | Key::Esc => {
                    m.forfeit_prompt = false;
                    return Outcome::Changed;
                }
                _ => {}
            }
        }
        if s.is_over() {
            // Out of the match (knocked out, forfeited, finished) while the others play on:
            // the player watches the rest, and may leave at any time: Esc, or q when it is
            // no game key of theirs (the others play on; the room says so).
            let leave = press
                && plain
                && (ev.key == Key::Esc
                    || (matches!(ev.key, Key::Char('q' | 'Q')) && keys.lookup(ev.key).is_none()));
            if leave {
                self.send(Request::LeaveRoom, ctx.requests);
                self.left(None);
                return Outcome::Changed;
            }
            // A climb's run ended (the server said how high): Enter starts the next one
            // (when Enter is no game key of the player's).
            let climb_again = press
                && plain
                && ev.key == Key::Enter
                && keys.lookup(ev.key).is_none()
                && self.climb.as_ref().is_some_and(|c| c.ended.is_some());
            if climb_again {
                self.message = None;
                self.send(Request::Room(RoomCommand::Rematch), ctx.requests);
                return Outcome::Changed;
            }
            return Outcome::changed(s.tick(now, keys));
        }
        if press && ev.key == Key::Esc {
            m.forfeit_prompt = true;
            return Outcome::Changed;
        }
        if is_ctrl(ev, 'd') {
            m.forfeit_prompt = true;
            return Outcome::Changed;
        }
        if ev.kind != KeyKind::Release && !plain {
            return Outcome::Ignored;
        }
        let changed = s.key(ev.key, ev.kind, keys, now);
        self.flush(now, ctx.requests);
        Outcome::changed(changed)
    }
}
