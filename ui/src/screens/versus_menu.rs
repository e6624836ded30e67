//! The versus menu, the create-room form, the join-by-code field and the notice box.

use minotty_engine::versus::MatchKind;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

use super::{Nav, nav, wrap};
use crate::draw;
use crate::keys::KeyEvent;
use crate::text::sfmt;
use crate::theme::Theme;
use minotty_protocol::{RoomLimit, RoomSettings};

pub const ITEMS: [&str; 7] = [
    "Quick match",
    "Create room",
    "Join room",
    "Watch room",
    "Open rooms",
    "Climb",
    "Back",
];

/// The menu's "Climb" entry.
pub const CLIMB: usize = 5;

/// What the menu says without a server.
pub const OFFLINE: &str = "Versus needs the server: connect with ssh to play against others.";

/// The arrow of the theme ("→", or "->" in ASCII).
pub fn arrow(theme: Theme) -> &'static str {
    if theme.graphics == crate::settings::Graphics::Unicode {
        "→"
    } else {
        "->"
    }
}

/// Draws a framed box with a title, a menu-like body and a status line; returns the inside.
fn panel(buf: &mut Buffer, area: Rect, w: u16, h: u16, title: &str, theme: Theme) -> Rect {
    let r = draw::centered(area, w, h);
    let inner = draw::frame(buf, r, theme, title, theme.dim());
    draw::put_centered(buf, inner, inner.y + 1, theme.minos(), theme.accent());
    inner
}

/// Writes the status line from row `y`, wrapped over every row down to the one above the key
/// hint (a room's closing word can take four: what was lost, the match's fate, the room).
fn status(buf: &mut Buffer, inner: Rect, y: u16, message: &str, theme: Theme) {
    if message.is_empty() {
        return;
    }
    let rows = inner.bottom().saturating_sub(2).saturating_sub(y).max(1);
    let area = Rect::new(inner.x + 1, y, inner.width.saturating_sub(2), rows).intersection(inner);
    draw::wrapped(buf, area, y, message, theme.accent());
}

/// The versus menu.
#[derive(Debug)]
pub struct MenuView<'a> {
    pub cursor: usize,
    pub message: &'a str,
    pub theme: Theme,
}

impl Widget for &MenuView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let theme = self.theme;
        let inner = panel(buf, area, 48, 22, "VERSUS", theme);
        draw::put_centered(
            buf,
            inner,
            inner.y + 3,
            "Play against others",
            theme.title(),
        );
        draw::menu(buf, inner, inner.y + 5, ITEMS, self.cursor, theme);
        status(buf, inner, inner.y + 13, self.message, theme);
        draw::hint(
            buf,
            inner,
            "Up/Down choose   Enter select   Esc back",
            theme,
        );
    }
}

/// The choices of the create-room form.
const LIMITS: [RoomLimit; 3] = [
    RoomLimit::None,
    RoomLimit::Lines(40),
    RoomLimit::Seconds(120),
];
const ROWS: usize = 5;

/// The create-room form.
#[derive(Clone, Copy, Debug)]
pub struct CreateForm {
    pub cursor: usize,
    pub kind: MatchKind,
    pub players: u8,
    /// Index into the limits (battle only; a race is always 40 lines).
    pub limit: usize,
}

impl Default for CreateForm {
    fn default() -> Self {
        CreateForm {
            cursor: 0,
            kind: MatchKind::Battle,
            players: 2,
            limit: 0,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FormAction {
    None,
    Changed,
    Back,
    Create(RoomSettings),
}

fn limit_name(limit: RoomLimit) -> crate::text::StackStr<24> {
    match limit {
        RoomLimit::None => sfmt!(24; "none"),
        RoomLimit::Lines(n) => sfmt!(24; "{} lines", n),
        RoomLimit::Seconds(s) => sfmt!(24; "{}:{:02}", s / 60, s % 60),
    }
}

impl CreateForm {
    pub fn options(&self) -> RoomSettings {
        RoomSettings::new(self.kind, self.players, LIMITS[self.limit % LIMITS.len()])
    }

    /// Handles a key: Up/Down choose a row, Left/Right change it, Enter creates (or goes back
    /// on "Back"), Esc goes back.
    pub fn handle(&mut self, ev: KeyEvent) -> FormAction {
        let Some(n) = nav(ev) else {
            return FormAction::None;
        };
        match n {
            Nav::Up => self.cursor = wrap(self.cursor, ROWS, false),
            Nav::Down => self.cursor = wrap(self.cursor, ROWS, true),
            Nav::Left | Nav::Right => {
                let up = n == Nav::Right;
                match self.cursor {
                    0 => {
                        self.kind = match self.kind {
                            MatchKind::Battle => MatchKind::Race,
                            MatchKind::Race => MatchKind::Battle,
                        }
                    }
                    1 => {
                        let (min, max) =
                            (*RoomSettings::PLAYERS.start(), *RoomSettings::PLAYERS.end());
                        self.players = if up {
                            if self.players >= max {
                                min
                            } else {
                                self.players + 1
                            }
                        } else if self.players <= min {
                            max
                        } else {
                            self.players - 1
                        }
                    }
                    2 => self.limit = wrap(self.limit, LIMITS.len(), up),
                    _ => return FormAction::None,
                }
            }
            Nav::Back => return FormAction::Back,
            Nav::Select => {
                return if self.cursor == ROWS - 1 {
                    FormAction::Back
                } else {
                    FormAction::Create(self.options())
                };
            }
        }
        FormAction::Changed
    }

    pub fn view<'a>(&'a self, message: &'a str, theme: Theme) -> CreateView<'a> {
        CreateView {
            form: self,
            message,
            theme,
        }
    }
}

#[derive(Debug)]
pub struct CreateView<'a> {
    form: &'a CreateForm,
    message: &'a str,
    theme: Theme,
}

impl Widget for &CreateView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let theme = self.theme;
        let f = self.form;
        let inner = panel(buf, area, 48, 20, "CREATE ROOM", theme);
        let kind = match f.kind {
            MatchKind::Battle => "battle",
            MatchKind::Race => "race",
        };
        let limit = match f.kind {
            MatchKind::Battle => limit_name(LIMITS[f.limit % LIMITS.len()]),
            MatchKind::Race => sfmt!(24; "40 lines"),
        };
        let players = sfmt!(8; "{}", f.players);
        let rows: [(&str, &str); 3] = [
            ("Match", kind),
            ("Players", players.as_str()),
            ("Limit", limit.as_str()),
        ];
        let row_area = Rect::new(
            inner.x + 6,
            inner.y,
            inner.width.saturating_sub(12),
            inner.height,
        );
        for (i, (label, value)) in rows.iter().enumerate() {
            let y = inner.y + 4 + i as u16 * 2;
            let style = if f.cursor == i {
                theme.selected()
            } else {
                theme.text()
            };
            let v = sfmt!(32; "< {} >", value);
            draw::put(buf, row_area, row_area.x, y, label, theme.text());
            draw::put_right(buf, row_area, y, v.as_str(), style);
        }
        let items = ["Create room", "Back"];
        let cursor = f.cursor.checked_sub(3).unwrap_or(usize::MAX);
        draw::menu(buf, inner, inner.y + 11, items, cursor, theme);
        status(buf, inner, inner.y + 14, self.message, theme);
        draw::hint(
            buf,
            inner,
            "Left/Right change   Enter create   Esc back",
            theme,
        );
    }
}

/// The join-by-code field (also for watching a room).
#[derive(Debug)]
pub struct JoinView<'a> {
    pub code: &'a str,
    pub spectate: bool,
    pub message: &'a str,
    pub theme: Theme,
}

impl Widget for &JoinView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let theme = self.theme;
        let title = if self.spectate {
            "WATCH ROOM"
        } else {
            "JOIN ROOM"
        };
        let inner = panel(buf, area, 48, 20, title, theme);
        let ask = if self.spectate {
            "Type the code of the room to watch"
        } else {
            "Type the room's code"
        };
        draw::put_centered(buf, inner, inner.y + 4, ask, theme.title());
        let field = draw::centered(Rect::new(inner.x, inner.y + 6, inner.width, 3), 14, 3);
        let box_inner = draw::frame(buf, field, theme, "", theme.accent());
        let shown = sfmt!(16; "{}_", self.code);
        draw::put_centered(buf, box_inner, box_inner.y, shown.as_str(), theme.accent());
        status(buf, inner, inner.y + 11, self.message, theme);
        draw::hint(buf, inner, "Enter join   Backspace erase   Esc back", theme);
    }
}

/// Draws a message box near the top of `area`, closed with Enter.
pub fn notice(buf: &mut Buffer, area: Rect, text: &str, theme: Theme) {
    let w = area.width.min(50);
    let top = Rect::new(
        area.x,
        area.y + 1,
        area.width,
        area.height.saturating_sub(1),
    );
    let inner = draw::dialog(
        buf,
        Rect::new(top.x, top.y, top.width, 8),
        w,
        8,
        theme,
        "NOTICE",
    );
    let body = Rect::new(inner.x + 1, inner.y, inner.width.saturating_sub(2), 4);
    draw::wrapped(buf, body, inner.y, text, theme.text());
    draw::hint(buf, inner, "Enter: OK", theme);
}
