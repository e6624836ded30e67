//! The quick-match queue and a room's lobby.

use minotty_engine::versus::{MatchKind, Targeting, teams};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

use crate::draw;
use crate::text::sfmt;
use crate::theme::Theme;
use minotty_protocol::{RoomLimit, RoomState, RoomView};

/// The queue: a wait clock and the rating range searched.
#[derive(Debug)]
pub struct QueueView<'a> {
    pub waited_ms: u64,
    pub rating: Option<(i32, i32)>,
    /// The queue offers a match against a bot of this level.
    pub bot_offer: Option<u8>,
    /// Everyone else waiting connects from the player's address (see [`SAME_ADDRESS`]).
    pub same_address: bool,
    pub message: &'a str,
    pub theme: Theme,
}

/// Why nobody comes when everyone else waiting connects from the player's address.
pub const SAME_ADDRESS: &str = "Everyone else waiting connects from your address, and ranked \
                                never pairs one address: play them in a room instead.";

impl Widget for &QueueView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let theme = self.theme;
        // Three more rows below the rest for the one-address hint.
        let r = draw::centered(area, 48, if self.same_address { 18 } else { 14 });
        let inner = draw::frame(buf, r, theme, "QUICK MATCH", theme.dim());
        if self.same_address {
            let area = Rect::new(inner.x + 1, inner.y + 12, inner.width.saturating_sub(2), 3);
            draw::wrapped(buf, area, area.y, SAME_ADDRESS, theme.bad());
        }
        draw::put_centered(buf, inner, inner.y + 1, "Ranked 1v1 battle", theme.dim());
        draw::put_centered(
            buf,
            inner,
            inner.y + 3,
            "Looking for an opponent",
            theme.title(),
        );
        let secs = self.waited_ms / 1000;
        let clock = sfmt!(16; "{}:{:02}", secs / 60, secs % 60);
        draw::put_centered(buf, inner, inner.y + 5, clock.as_str(), theme.accent());
        let range = match self.rating {
            Some((rating, range)) => {
                sfmt!(64; "Your rating {}, opponents {} - {}", rating, rating - range, rating + range)
            }
            None => sfmt!(64; "Joining the queue..."),
        };
        draw::put_centered(buf, inner, inner.y + 7, range.as_str(), theme.text());
        if let Some(level) = self.bot_offer {
            draw::put_centered(
                buf,
                inner,
                inner.y + 9,
                "No one yet. Play a bot instead?",
                theme.title(),
            );
            let about =
                sfmt!(64; "Level {} ({}) {} unranked", level, bot_level_name(level), theme.dot());
            draw::put_centered(buf, inner, inner.y + 10, about.as_str(), theme.accent());
            draw::hint(
                buf,
                inner,
                "Enter play bot   n keep waiting   Esc cancel",
                theme,
            );
            return;
        }
        if !self.message.is_empty() {
            let area = Rect::new(inner.x + 1, inner.y + 9, inner.width.saturating_sub(2), 2);
            draw::wrapped(buf, area, area.y, self.message, theme.accent());
        }
        draw::hint(buf, inner, "Esc cancel", theme);
    }
}

/// The room's lobby: its code, options, seats and spectators.
#[derive(Debug)]
pub struct LobbyView<'a> {
    pub room: &'a RoomView,
    pub targeting: Targeting,
    /// The host's next bot: a level 1-7, or `8 + i` for `room.tbp_bots[i]` (`None`: not the
    /// host, or a ranked room).
    pub bot_level: Option<u8>,
    pub message: &'a str,
    pub theme: Theme,
}

impl Widget for &LobbyView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let theme = self.theme;
        let room = self.room;
        let w = area.width.clamp(60, 72);
        let r = draw::centered(area, w, area.height.min(24));
        // A spectator from the Live list is not told the code (it is what lets players in).
        let title = if room.code.is_empty() {
            sfmt!(32; "WATCHING")
        } else {
            sfmt!(32; "ROOM {}", room.code)
        };
        let inner = draw::frame(buf, r, theme, title.as_str(), theme.dim());

        if room.code.is_empty() {
            let line = "Watching a match from the Live list";
            draw::put_centered(buf, inner, inner.y + 1, line, theme.text());
        } else {
            // The code, large: each character spaced out in a box, and how friends join.
            let mut spaced = sfmt!(40; "");
            for c in room.code.chars().take(8) {
                spaced = sfmt!(40; "{}{} ", spaced.as_str(), c);
            }
            let code_box = draw::centered(Rect::new(inner.x, inner.y, inner.width, 3), 30, 3);
            let code_in = draw::frame(buf, code_box, theme, "", theme.accent());
            let line = sfmt!(48; "Room  {}", spaced.as_str().trim_end());
            draw::put_centered(buf, code_in, code_in.y, line.as_str(), theme.accent());
            let join = sfmt!(64; "Friends join with:  join {}", room.code);
            draw::put_centered(buf, inner, inner.y + 3, join.as_str(), theme.text());
            if !room.ranked {
                let listed = crate::screens::open_rooms::listed_line(room.listed);
                draw::put_centered(buf, inner, inner.y + 4, listed, theme.dim());
            }
        }

        let kind = match room.options.kind() {
            MatchKind::Battle => "Battle",
            MatchKind::Race => "Race to 40 lines",
        };
        let limit = match (room.options.kind(), room.options.limit()) {
            (MatchKind::Race, _) | (_, RoomLimit::None) => sfmt!(24; ""),
            (_, RoomLimit::Lines(n)) => sfmt!(24; " {} first to {} lines", theme.dot(), n),
            (_, RoomLimit::Seconds(s)) => {
                sfmt!(24; " {} {}:{:02} limit", theme.dot(), s / 60, s % 60)
            }
        };
        let ranked = if room.ranked { "Ranked " } else { "" };
        let about = sfmt!(96; "{}{}{} {} {}/{} players", ranked, kind, limit.as_str(), theme.dot(), room.seats.len(), room.options.max_players());
        draw::put_centered(buf, inner, inner.y + 5, about.as_str(), theme.title());
        // The settings everyone plays by, and the key to see them all (the host changes them).
        if !room.code.is_empty() {
            let series = crate::screens::room_settings::summary(&room.options);
            let series = format!("{series}   o settings");
            draw::put_centered(buf, inner, inner.y + 6, &series, theme.dim());
        }

        let list = Rect::new(inner.x + 2, inner.y + 7, inner.width.saturating_sub(4), 8);
        for (i, seat) in room.seats.iter().enumerate().take(8) {
            let y = list.y + i as u16;
            let you = room.you == Some(i);
            let mark = if seat.host { "★" } else { " " };
            let mark = if theme.graphics != crate::settings::Graphics::Unicode && seat.host {
                "*"
            } else {
                mark
            };
            let x = draw::put(
                buf,
                list,
                list.x,
                y,
                if you { ">" } else { " " },
                theme.accent(),
            );
            let x = draw::put(buf, list, x, y, mark, theme.accent());
            // A room of teams: the seat's team before the name.
            let x = match seat.team {
                Some(t) => {
                    let tag = sfmt!(8; " [{}]", teams::letter(t));
                    draw::put(buf, list, x, y, tag.as_str(), theme.accent())
                }
                None => x,
            };
            let name_style = if you { theme.title() } else { theme.text() };
            // The name in its column, up to the "host" column (a wide name is cut, not spilled).
            let column = Rect::new(x + 1, y, (list.x + 27).saturating_sub(x + 1), 1);
            draw::put(
                buf,
                column.intersection(list),
                x + 1,
                y,
                &seat.name,
                name_style,
            );
            let host = match (seat.host, seat.bot) {
                (true, _) => "host",
                (false, Some(_)) => "bot",
                (false, None) => "",
            };
            draw::put(buf, list, list.x + 28, y, host, theme.dim());
            let (ready, style) = if seat.ready {
                ("READY", theme.good())
            } else {
                ("not ready", theme.dim())
            };
            draw::put(buf, list, list.x + 34, y, ready, style);
            let right = match (seat.connected, seat.rating) {
                // Out of a match, a seat without its player is kept for their return.
                (false, _) if room.state != RoomState::Playing => sfmt!(16; "reconnecting..."),
                (false, _) => sfmt!(16; "offline"),
                (true, Some(r)) => sfmt!(16; "{}", r),
                (true, None) => sfmt!(16; ""),
            };
            let style = if seat.connected {
                theme.dim()
            } else {
                theme.bad()
            };
            draw::put_right(buf, list, y, right.as_str(), style);
        }
        // The host's bot keys, under the seats while one is free.
        if let Some(level) = self.bot_level
            && room.state != RoomState::Playing
            && room.seats.len() < 8
        {
            let free = room.seats.len() < usize::from(room.options.max_players());
            let has_bot = room.seats.iter().any(|s| s.bot.is_some());
            let which = match room.tbp_bots.get(usize::from(level).wrapping_sub(8)) {
                Some(name) if level > 7 => sfmt!(40; "{}, TBP", name),
                _ => sfmt!(40; "level {}, {}", level, bot_level_name(level)),
            };
            let choose = if room.tbp_bots.is_empty() {
                "+/- level"
            } else {
                "+/- bot"
            };
            // Each key only where it applies: no "remove" without a bot, no "add" when full.
            let line = match (free, has_bot) {
                (true, true) => {
                    sfmt!(96; "b add bot ({})   {}   x remove bot", which.as_str(), choose)
                }
                (true, false) => sfmt!(96; "b add a bot ({})   {}", which.as_str(), choose),
                (false, true) => sfmt!(96; "x remove bot"),
                (false, false) => sfmt!(96; ""),
            };
            let y = list.y + room.seats.len() as u16;
            draw::put(buf, list, list.x + 2, y, line.as_str(), theme.dim());
        }
        let mut y = list.y + room.seats.len().min(8) as u16 + 1;
        if room.spectators > 0 {
            let watching = sfmt!(32; "{} watching", room.spectators);
            draw::put(
                buf,
                inner,
                list.x,
                y.min(inner.y + 16),
                watching.as_str(),
                theme.dim(),
            );
        }
        y = inner.y + 17;
        let state = match room.state {
            RoomState::Lobby if room.ranked => "The match starts by itself.",
            RoomState::Lobby => "",
            RoomState::Playing => "A match is being played.",
            RoomState::Results => "The last match is over.",
        };
        draw::put_centered(buf, inner, y, state, theme.dim());
        let targets = room.options.kind() == MatchKind::Battle && room.options.max_players() > 2;
        let t = match (targets, room.options.teams() >= 2 && !room.ranked) {
            (true, false) => sfmt!(80; "Targeting: {}", self.targeting.name()),
            (true, true) if room.host => {
                sfmt!(80; "Targeting: {}   g team   1-8 move a seat", self.targeting.name())
            }
            (true, true) => sfmt!(80; "Targeting: {}   g change team", self.targeting.name()),
            (false, true) if room.host => sfmt!(80; "g team   1-8 move a seat"),
            (false, true) => sfmt!(80; "g change team"),
            (false, false) => sfmt!(80; ""),
        };
        draw::put_centered(buf, inner, y + 1, t.as_str(), theme.text());
        if !self.message.is_empty() {
            let area = Rect::new(inner.x + 1, y + 2, inner.width.saturating_sub(2), 2);
            draw::wrapped(buf, area, area.y, self.message, theme.accent());
        }
        let hint = match (room.you.is_some(), room.host) {
            (false, _) => "Watching   Esc leave",
            (true, true)
                if room.options.kind() == MatchKind::Battle && room.options.max_players() > 2 =>
            {
                "r ready   Enter start   t targeting   Esc leave"
            }
            (true, true) => "r ready   Enter start   Esc leave",
            (true, false)
                if room.options.kind() == MatchKind::Battle && room.options.max_players() > 2 =>
            {
                "r ready   t targeting   Esc leave"
            }
            (true, false) => "r ready   Esc leave",
        };
        let hint = crate::screens::open_rooms::lobby_hint(hint, room);
        draw::hint(buf, inner, hint.as_str(), theme);
    }
}

/// A bot level's name, as the engine names its levels.
fn bot_level_name(level: u8) -> &'static str {
    minotty_bots::versus::Level::new(level).map_or("?", |l| l.name())
}
