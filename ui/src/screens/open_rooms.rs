//! The Open rooms screen (the versus menu's "Open rooms"): rooms their hosts listed, in their
//! lobby with a free seat; Enter joins the one under the cursor by its code. Also the lobby's
//! words about listing: whether the room is listed, and the host's key for it.

use minotty_engine::versus::MatchKind;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

use crate::draw;
use crate::text::{StackStr, fit_width, sfmt};
use crate::theme::Theme;
use minotty_protocol::{OpenRoomEntry, RoomState, RoomView};

/// What an empty list says.
pub const EMPTY: &str = "No open rooms: create one and list it, or join by code";
/// Rows of rooms shown at once (the list scrolls with the cursor).
const ROWS: usize = 14;

/// The lobby's line about the room's listing.
pub fn listed_line(listed: bool) -> &'static str {
    if listed {
        "Listed: anyone can join from Open rooms"
    } else {
        "Private: join by code"
    }
}

/// The lobby's key hint with the host's listing key, where it applies (the host of an unranked
/// room out of a match).
pub fn lobby_hint(hint: &str, room: &RoomView) -> StackStr<96> {
    let can_list =
        room.host && !room.ranked && room.you.is_some() && room.state != RoomState::Playing;
    match (can_list, room.listed) {
        (false, _) => sfmt!(96; "{}", hint),
        (true, false) => sfmt!(96; "l list room   {}", hint),
        (true, true) => sfmt!(96; "l unlist   {}", hint),
    }
}

/// The list of open rooms.
#[derive(Debug)]
pub struct OpenRoomsView<'a> {
    pub rooms: &'a [OpenRoomEntry],
    pub cursor: usize,
    /// No answer has come yet.
    pub loading: bool,
    pub message: &'a str,
    pub theme: Theme,
}

impl Widget for &OpenRoomsView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let theme = self.theme;
        let w = area.width.clamp(60, 72);
        let r = draw::centered(area, w, area.height.min(24));
        let inner = draw::frame(buf, r, theme, "OPEN ROOMS", theme.dim());
        let list = Rect::new(inner.x + 2, inner.y + 1, inner.width.saturating_sub(4), 1);
        let head = sfmt!(96; "  {:<8}{:<18}{:<18}{}", "Code", "Host", "Mode", "Players");
        draw::put(buf, list, list.x, list.y, head.as_str(), theme.dim());
        if self.rooms.is_empty() {
            let line = if self.loading {
                "Looking for open rooms..."
            } else {
                EMPTY
            };
            draw::put_centered(buf, inner, inner.y + 4, line, theme.text());
        }
        let first = self.cursor.saturating_sub(ROWS - 1);
        for (row, (i, room)) in self
            .rooms
            .iter()
            .enumerate()
            .skip(first)
            .take(ROWS)
            .enumerate()
        {
            let y = inner.y + 3 + row as u16;
            let area = Rect::new(list.x, y, list.width, 1);
            let chosen = i == self.cursor;
            let mode = match room.kind {
                MatchKind::Battle => "Battle",
                MatchKind::Race => "Race to 40 lines",
            };
            let style = if chosen { theme.title() } else { theme.text() };
            // Each column at its own x, its text cut to the column's width in columns: a wide
            // (CJK) host name takes two per character and never pushes the next column.
            let marker = if chosen { ">" } else { " " };
            let seats = sfmt!(16; "{}/{}", room.players, room.seats);
            let columns = [
                (0, marker, 2),
                (2, fit_width(&room.code, 8), 8),
                (10, fit_width(&room.host, 16), 18),
                (28, mode, 18),
                (46, seats.as_str(), 8),
            ];
            for (x, text, w) in columns {
                let cell = Rect::new(area.x.saturating_add(x), y, w, 1).intersection(area);
                draw::put(buf, cell, cell.x, y, text, style);
            }
        }
        if !self.message.is_empty() {
            let area = Rect::new(
                inner.x + 1,
                inner.bottom().saturating_sub(3),
                inner.width.saturating_sub(2),
                2,
            );
            draw::wrapped(buf, area, area.y, self.message, theme.accent());
        }
        draw::hint(buf, inner, "Up/Down choose   Enter join   Esc back", theme);
    }
}
