//! The Open rooms screen, versus's side: it asks the server for the listed rooms every
//! [`OPEN_ROOMS_EVERY_MS`] while it shows, and Enter joins the chosen room by its code (the
//! join path of a typed code, so the room's every check applies). Also the lobby host's key
//! that lists the room or makes it private again. The view is in `screens/open_rooms.rs`.

use super::{Versus, View};
use crate::Request;
use crate::keys::{Key, KeyEvent};
use crate::screens::open_rooms::OpenRoomsView;
use crate::screens::{Nav, nav, wrap};
use crate::text::sanitize;
use minotty_protocol::RoomCommand;
use minotty_protocol::{OpenRoomEntry, RoomState};

/// The list is asked for again this often while the screen shows.
pub const OPEN_ROOMS_EVERY_MS: u64 = 2_000;

/// The Open rooms screen's state.
#[derive(Debug, Default)]
pub(in crate::app) struct OpenRoomsState {
    rooms: Vec<OpenRoomEntry>,
    cursor: usize,
    /// When the list was last asked for (front-end time).
    asked_at: u64,
    /// An answer came since the screen opened.
    answered: bool,
}

impl Versus {
    /// Opens the Open rooms screen and asks for the list.
    pub(in crate::app) fn open_open_rooms(&mut self, now: u64, requests: &mut Vec<Request>) {
        let o = &mut self.open;
        o.rooms.clear();
        o.cursor = 0;
        o.answered = false;
        o.asked_at = now;
        self.view = View::OpenRooms;
        self.message = None;
        self.send(Request::OpenRooms, requests);
    }

    pub(in crate::app) fn key_open_rooms(
        &mut self,
        ev: KeyEvent,
        requests: &mut Vec<Request>,
    ) -> bool {
        let o = &mut self.open;
        let n = o.rooms.len();
        match nav(ev) {
            Some(Nav::Up) if n > 0 => o.cursor = wrap(o.cursor, n, false),
            Some(Nav::Down) if n > 0 => o.cursor = wrap(o.cursor, n, true),
            Some(Nav::Back) => {
                self.view = View::Menu;
                self.message = None;
            }
            Some(Nav::Select) if ev.key == Key::Enter => {
                let Some(room) = o.rooms.get(o.cursor) else {
                    return false;
                };
                let code = room.code.clone();
                self.awaiting = true;
                self.message = Some(format!("Joining {code}..."));
                self.send(
                    Request::JoinRoom {
                        code,
                        spectate: false,
                    },
                    requests,
                );
            }
            _ => return false,
        }
        true
    }

    /// Asks for the list again when it is due; `false`: nothing to draw.
    pub(in crate::app) fn tick_open_rooms(
        &mut self,
        now: u64,
        requests: &mut Vec<Request>,
    ) -> bool {
        if now >= self.open.asked_at + OPEN_ROOMS_EVERY_MS {
            self.open.asked_at = now;
            self.send(Request::OpenRooms, requests);
        }
        false
    }

    pub(in crate::app) fn open_rooms_wakeup(&self) -> Option<u64> {
        Some(self.open.asked_at + OPEN_ROOMS_EVERY_MS)
    }

    /// The server's list: kept (cleaned for drawing) while the screen shows.
    pub(in crate::app) fn open_rooms_response(&mut self, mut rooms: Vec<OpenRoomEntry>) -> bool {
        if self.view != View::OpenRooms {
            return false;
        }
        for r in &mut rooms {
            r.host = sanitize(&r.host);
            r.code = sanitize(&r.code);
        }
        let o = &mut self.open;
        // The cursor stays on the room it was on, if it is still listed.
        let chosen = o.rooms.get(o.cursor).map(|r| r.code.clone());
        o.cursor = chosen
            .and_then(|c| rooms.iter().position(|r| r.code == c))
            .unwrap_or(o.cursor.min(rooms.len().saturating_sub(1)));
        o.rooms = rooms;
        o.answered = true;
        true
    }

    pub(in crate::app) fn open_rooms_view<'a>(
        &'a self,
        message: &'a str,
        theme: crate::theme::Theme,
    ) -> OpenRoomsView<'a> {
        OpenRoomsView {
            rooms: &self.open.rooms,
            cursor: self.open.cursor,
            loading: !self.open.answered,
            message,
            theme,
        }
    }

    /// The lobby's `l`: the host lists the room or makes it private again.
    pub(in crate::app) fn toggle_listed(&mut self, requests: &mut Vec<Request>) -> bool {
        let Some(room) = &self.room else {
            return false;
        };
        if !room.host || room.ranked || room.you.is_none() || room.state == RoomState::Playing {
            return false;
        }
        let listed = !room.listed;
        self.send(Request::Room(RoomCommand::SetListed { listed }), requests);
        true
    }
}
