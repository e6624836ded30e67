//! The versus screens' keys: the menu, the queue, the create and join forms, the room's
//! lobby, the match and the results.

use minotty_engine::versus::{MatchKind, Targeting};

use super::{CODE_MAX, Queue, READY_RESEND_MS, RESULTS_GRACE_MS, View, bot_picks};
use crate::Request;
use crate::app::{App, Screen};
use crate::keys::{Key, KeyEvent, KeyKind};
use crate::screens::versus_menu;
use crate::screens::versus_results;
use crate::screens::{Nav, is_ctrl, nav, wrap};

impl App {
    pub(super) fn key_versus_menu(&mut self, ev: KeyEvent, now: u64) -> bool {
        let v = &mut self.versus;
        match nav(ev) {
            Some(Nav::Up) => v.menu_cursor = wrap(v.menu_cursor, versus_menu::ITEMS.len(), false),
            Some(Nav::Down) => v.menu_cursor = wrap(v.menu_cursor, versus_menu::ITEMS.len(), true),
            Some(Nav::Back) => self.screen = Screen::Menu,
            Some(Nav::Select | Nav::Right) => {
                let item = v.menu_cursor;
                if item == versus_menu::ITEMS.len() - 1 {
                    self.screen = Screen::Menu;
                    return true;
                }
                if self.identity.without_server() {
                    v.message = Some(versus_menu::OFFLINE.to_string());
                    return true;
                }
                v.message = None;
                match item {
                    0 => {
                        v.queue = Some(Queue {
                            since: now,
                            rating: None,
                        });
                        v.bot_offer = None;
                        v.queue_secs = 0;
                        v.awaiting = true;
                        v.view = View::Queue;
                        self.versus_send(Request::QuickMatch);
                    }
                    1 => v.view = View::Create,
                    4 => self.open_open_rooms(now),
                    _ => {
                        v.code.clear();
                        v.view = View::Join {
                            spectate: item == 3,
                        };
                    }
                }
            }
            _ => return false,
        }
        true
    }

    pub(super) fn key_versus_queue(&mut self, ev: KeyEvent) -> bool {
        let v = &mut self.versus;
        if v.bot_offer.is_some() && !ev.mods.ctrl && !ev.mods.alt {
            match ev.key {
                Key::Enter | Key::Char('y' | 'Y') => {
                    v.bot_offer = None;
                    v.message = Some("Starting a match against the bot...".to_string());
                    self.versus_send(Request::AcceptBotMatch);
                    return true;
                }
                Key::Char('n' | 'N') => {
                    v.bot_offer = None;
                    v.message = Some("Still looking for a person.".to_string());
                    self.versus_send(Request::DeclineBotMatch);
                    return true;
                }
                _ => {}
            }
        }
        if nav(ev) == Some(Nav::Back) {
            self.versus_send(Request::CancelQuickMatch);
            let v = &mut self.versus;
            v.queue = None;
            v.bot_offer = None;
            v.message = None;
            v.awaiting = false;
            v.view = View::Menu;
            return true;
        }
        false
    }

    pub(super) fn key_versus_create(&mut self, ev: KeyEvent) -> bool {
        let v = &mut self.versus;
        match v.create.handle(ev) {
            versus_menu::FormAction::None => false,
            versus_menu::FormAction::Changed => true,
            versus_menu::FormAction::Back => {
                v.view = View::Menu;
                true
            }
            versus_menu::FormAction::Create(options) => {
                v.awaiting = true;
                v.message = Some("Creating the room...".to_string());
                self.versus_send(Request::CreateRoom(options));
                true
            }
        }
    }

    pub(super) fn key_versus_join(&mut self, ev: KeyEvent, spectate: bool) -> bool {
        let v = &mut self.versus;
        if ev.mods.ctrl || ev.mods.alt {
            return false;
        }
        match ev.key {
            Key::Esc => {
                v.view = View::Menu;
                v.message = None;
            }
            Key::Backspace => {
                v.code.pop();
            }
            Key::Enter => {
                if v.code.is_empty() {
                    v.message = Some("Type the room's code first.".to_string());
                    return true;
                }
                v.awaiting = true;
                v.message = Some(format!("Joining {}...", v.code));
                let code = v.code.clone();
                self.versus_send(Request::JoinRoom { code, spectate });
            }
            Key::Char(c) if c.is_ascii_alphanumeric() => {
                if v.code.len() < CODE_MAX {
                    v.code.push(c.to_ascii_uppercase());
                }
            }
            // Spaces and everything else are ignored: codes are read aloud as "K7 PQ".
            Key::Char(_) => return false,
            _ => return false,
        }
        true
    }

    pub(super) fn key_versus_room(&mut self, ev: KeyEvent, now: u64) -> bool {
        let Some(room) = &self.versus.room else {
            self.versus.view = View::Menu;
            return true;
        };
        let you = room.you.and_then(|i| room.seats.get(i));
        let key = match ev.key {
            Key::Char(c) if !ev.mods.ctrl && !ev.mods.alt => Some(c.to_ascii_lowercase()),
            Key::Enter => Some('\n'),
            Key::Esc => Some('\x1b'),
            _ => None,
        };
        if key != Some('\n') && key != Some('s') {
            self.versus.confirm_start = false;
        }
        match key {
            Some('\x1b') => {
                self.versus_send(Request::LeaveRoom);
                self.versus_left(None);
            }
            Some('l') => return self.toggle_listed(),
            Some('r') => {
                let Some(seat) = you else { return false };
                let ready = !seat.ready;
                // A held or hammered key asks once until the room answers (or a while passed:
                // the request may have been dropped).
                if self
                    .versus
                    .ready_sent
                    .is_some_and(|(r, at)| r == ready && now < at + READY_RESEND_MS)
                {
                    return false;
                }
                self.versus.ready_sent = Some((ready, now));
                self.versus_send(Request::SetReady(ready));
            }
            Some('\n' | 's') => {
                if you.is_none() {
                    return false;
                }
                if !room.host {
                    self.versus.message = Some("Only the host can start the match.".to_string());
                    return true;
                }
                if room.seats.len() < 2 {
                    self.versus.message = Some("Waiting for another player to join.".to_string());
                    return true;
                }
                let waiting: Vec<&str> = room
                    .seats
                    .iter()
                    .filter(|s| !s.ready && !s.host)
                    .map(|s| s.name.as_str())
                    .collect();
                if !waiting.is_empty() && !self.versus.confirm_start {
                    self.versus.message = Some(format!(
                        "Not ready: {}. Press Enter again to start anyway.",
                        waiting.join(", ")
                    ));
                    self.versus.confirm_start = true;
                    return true;
                }
                self.versus.confirm_start = false;
                self.versus.message = None;
                self.versus_send(Request::StartMatch);
            }
            Some('b') => {
                if !room.host || room.ranked {
                    return false;
                }
                if room.seats.len() >= usize::from(room.options.max_players) {
                    self.versus.message = Some("The room is full.".to_string());
                    return true;
                }
                let pick = self.versus.bot_level().min(bot_picks(room));
                self.versus.message = None;
                // Past the built-in levels come the server's TBP bots, by name.
                let request = match room.tbp_bots.get(usize::from(pick).wrapping_sub(8)) {
                    Some(name) if pick > 7 => Request::AddTbpBot { name: name.clone() },
                    _ => Request::AddBot { level: pick },
                };
                self.versus_send(request);
            }
            Some('x') => {
                if !room.host || room.ranked {
                    return false;
                }
                match room.seats.iter().rposition(|s| s.bot.is_some()) {
                    Some(seat) => {
                        self.versus.message = None;
                        self.versus_send(Request::RemoveBot { seat });
                    }
                    None => self.versus.message = Some("No bot to remove.".to_string()),
                }
            }
            Some(c @ ('+' | '=' | '-')) => {
                if !room.host || room.ranked {
                    return false;
                }
                let level = self.versus.bot_level().min(bot_picks(room));
                self.versus.bot_level = match c {
                    '-' => level.saturating_sub(1).max(1),
                    _ => (level + 1).min(bot_picks(room)),
                };
            }
            Some('t') => {
                let can = you.is_some()
                    && room.options.kind == MatchKind::Battle
                    && room.options.max_players > 2;
                if !can {
                    return false;
                }
                let all = Targeting::ALL;
                let i = all
                    .iter()
                    .position(|&t| t == self.versus.targeting)
                    .unwrap_or(0);
                let next = all[(i + 1) % all.len()];
                self.versus.targeting = next;
                self.versus_send(Request::SetTargeting(next));
            }
            _ => return false,
        }
        true
    }

    pub(super) fn key_versus_results(&mut self, ev: KeyEvent, now: u64) -> bool {
        let v = &mut self.versus;
        if now < v.results_at + RESULTS_GRACE_MS {
            // Keys still being hammered from the game do not choose anything here.
            return false;
        }
        match versus_results::handle(&mut v.results_cursor, ev) {
            versus_results::ResultsAction::None => false,
            versus_results::ResultsAction::Moved => true,
            versus_results::ResultsAction::Rematch => {
                v.rematch = true;
                v.message = Some("Waiting for the others...".to_string());
                self.versus_send(Request::Rematch);
                true
            }
            versus_results::ResultsAction::Room => {
                v.message = None;
                v.view = if v.room.is_some() {
                    View::Room
                } else {
                    View::Menu
                };
                true
            }
            versus_results::ResultsAction::Leave => {
                self.versus_send(Request::LeaveRoom);
                self.versus_left(None);
                true
            }
        }
    }

    pub(super) fn key_versus_match(&mut self, ev: KeyEvent, now: u64) -> bool {
        if is_ctrl(ev, 'c') {
            // The quit dialog does not stop the game: the opponents keep playing.
            return self.ask_quit(false);
        }
        let keys = &self.settings.keys;
        let Some(m) = &mut self.versus.game else {
            self.versus.view = View::Menu;
            return true;
        };
        let press = ev.kind == KeyKind::Press;
        let Some(s) = &mut m.session else {
            // Spectating: Esc leaves.
            if press && ev.key == Key::Esc {
                self.versus_send(Request::LeaveRoom);
                self.versus_left(None);
                return true;
            }
            return false;
        };
        let plain = !ev.mods.ctrl && !ev.mods.alt;
        if m.forfeit_prompt && press && plain {
            match ev.key {
                Key::Char('y' | 'Y') | Key::Enter => {
                    m.forfeit_prompt = false;
                    s.forfeit(now, keys);
                    self.versus_flush(now);
                    return true;
                }
                Key::Char('n' | 'N') | Key::Esc => {
                    m.forfeit_prompt = false;
                    return true;
                }
                _ => {}
            }
        }
        if s.is_over() {
            return s.tick(now, keys);
        }
        if press && ev.key == Key::Esc {
            m.forfeit_prompt = true;
            return true;
        }
        if is_ctrl(ev, 'd') {
            m.forfeit_prompt = true;
            return true;
        }
        if ev.kind != KeyKind::Release && !plain {
            return false;
        }
        let changed = s.key(ev.key, ev.kind, keys, now);
        self.versus_flush(now);
        changed
    }
}
