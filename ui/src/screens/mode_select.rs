//! Mode select: every engine mode with its description, and the options of a custom game
//! (start level, level increase, one limit, an optional seed).

use minotty_engine::{Mode, ModeKind, Stat};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

use super::{Nav, is_ctrl, nav, wrap};
use crate::draw;
use crate::keys::{Key, KeyEvent, KeyKind};
use crate::session::GameSetup;
use crate::settings::step;
use crate::text::{StackStr, clock, sfmt};
use crate::theme::Theme;

/// The limit of a custom game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LimitKind {
    None,
    Time,
    Lines,
    Pieces,
    Score,
    Level,
}

impl LimitKind {
    pub const ALL: [LimitKind; 6] = [
        LimitKind::None,
        LimitKind::Time,
        LimitKind::Lines,
        LimitKind::Pieces,
        LimitKind::Score,
        LimitKind::Level,
    ];

    pub fn label(self) -> &'static str {
        ["none", "time", "lines", "pieces", "score", "level"][self as usize]
    }

    /// The engine stat, the step and the range of the value (time in seconds).
    fn spec(self) -> Option<(Stat, u32, u32, u32)> {
        match self {
            LimitKind::None => None,
            LimitKind::Time => Some((Stat::Time, 30, 10, 3600)),
            LimitKind::Lines => Some((Stat::Lines, 10, 1, 9999)),
            LimitKind::Pieces => Some((Stat::Pieces, 10, 1, 9999)),
            LimitKind::Score => Some((Stat::Score, 5000, 1000, 9_999_000)),
            LimitKind::Level => Some((Stat::Level, 1, 1, 30)),
        }
    }
}

/// The options of a custom game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CustomOptions {
    pub start_level: u32,
    pub level_increase: bool,
    pub limit: LimitKind,
    /// The value of each limit kind, kept while the player switches between them.
    pub values: [u32; 6],
    pub seed: Option<u32>,
}

impl Default for CustomOptions {
    fn default() -> Self {
        CustomOptions {
            start_level: 0,
            level_increase: true,
            limit: LimitKind::None,
            values: [0, 180, 40, 100, 50_000, 15],
            seed: None,
        }
    }
}

impl CustomOptions {
    pub fn value(&self) -> u32 {
        self.values[self.limit as usize]
    }

    pub fn mode(&self) -> Mode {
        let limit = self.limit.spec().map(|(stat, ..)| {
            let v = u64::from(self.value());
            (stat, if stat == Stat::Time { v * 1000 } else { v })
        });
        Mode::custom(self.start_level, self.level_increase, limit)
    }

    fn value_text(&self) -> StackStr<24> {
        match self.limit {
            LimitKind::None => sfmt!(24; "-"),
            LimitKind::Time => sfmt!(24; "{}", clock(u64::from(self.value()) * 1000).as_str()),
            _ => sfmt!(24; "{}", self.value()),
        }
    }

    fn change(&mut self, row: usize, dir: i32) {
        match row {
            0 => self.start_level = step(self.start_level, dir, 0, 30),
            1 => self.level_increase = !self.level_increase,
            2 => self.limit = crate::settings::cycle(&LimitKind::ALL, self.limit, dir),
            3 => {
                if let Some((_, by, lo, hi)) = self.limit.spec() {
                    let v = &mut self.values[self.limit as usize];
                    *v = step(*v, dir * by as i32, lo, hi);
                }
            }
            _ => {}
        }
    }
}

const ROWS: [&str; 5] = [
    "Start level",
    "Level increase",
    "Limit",
    "Limit value",
    "Seed",
];
const START_ROW: usize = ROWS.len();

/// The state of the mode select screen.
#[derive(Clone, Debug, Default)]
pub struct ModeSelect {
    pub cursor: usize,
    /// The focused row of the custom options, when they have focus.
    pub focus: Option<usize>,
    pub custom: CustomOptions,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ModeAction {
    None,
    Changed,
    Start(GameSetup),
    Back,
    AskQuit,
}

impl ModeSelect {
    pub fn handle(&mut self, ev: KeyEvent) -> ModeAction {
        if is_ctrl(ev, 'c') {
            return ModeAction::AskQuit;
        }
        let kind = ModeKind::ALL[self.cursor.min(ModeKind::ALL.len() - 1)];
        let Some(row) = self.focus else {
            match nav(ev) {
                Some(Nav::Up) => self.cursor = wrap(self.cursor, ModeKind::ALL.len(), false),
                Some(Nav::Down) => self.cursor = wrap(self.cursor, ModeKind::ALL.len(), true),
                Some(Nav::Select | Nav::Right) if kind == ModeKind::Custom => self.focus = Some(0),
                Some(Nav::Select | Nav::Right) => {
                    return ModeAction::Start(GameSetup {
                        mode: kind.mode(),
                        seed: None,
                    });
                }
                Some(Nav::Back) => return ModeAction::Back,
                _ => return ModeAction::None,
            }
            return ModeAction::Changed;
        };
        if ev.kind != KeyKind::Release && row == 4 {
            match ev.key {
                Key::Char(c @ '0'..='9') => {
                    let digit = u64::from(c as u8 - b'0');
                    let next = u64::from(self.custom.seed.unwrap_or(0)) * 10 + digit;
                    if let Ok(seed) = u32::try_from(next) {
                        self.custom.seed = Some(seed);
                    }
                    return ModeAction::Changed;
                }
                Key::Backspace | Key::Delete => {
                    self.custom.seed = self.custom.seed.map(|s| s / 10).filter(|&s| s != 0);
                    return ModeAction::Changed;
                }
                _ => {}
            }
        }
        match nav(ev) {
            Some(Nav::Up) => self.focus = Some(wrap(row, START_ROW + 1, false)),
            Some(Nav::Down) => self.focus = Some(wrap(row, START_ROW + 1, true)),
            Some(Nav::Left) => self.custom.change(row, -1),
            Some(Nav::Right) => self.custom.change(row, 1),
            Some(Nav::Select) if row == 1 && ev.key == Key::Char(' ') => self.custom.change(1, 1),
            Some(Nav::Select) => {
                return ModeAction::Start(GameSetup {
                    mode: self.custom.mode(),
                    seed: self.custom.seed,
                });
            }
            Some(Nav::Back) => self.focus = None,
            None => return ModeAction::None,
        }
        ModeAction::Changed
    }
}

/// Draws the mode select screen.
#[derive(Debug)]
pub struct ModeSelectView<'a> {
    pub state: &'a ModeSelect,
    pub theme: Theme,
}

impl Widget for &ModeSelectView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let theme = self.theme;
        let st = self.state;
        let r = draw::centered(area, 60, 20);
        let inner = draw::frame(buf, r, theme, "CHOOSE A MODE", theme.dim());
        let list = Rect::new(inner.x + 1, inner.y + 1, 18, inner.height.saturating_sub(1));
        for (i, kind) in ModeKind::ALL.iter().enumerate() {
            let style = if i == st.cursor {
                if st.focus.is_some() {
                    theme.accent()
                } else {
                    theme.selected()
                }
            } else {
                theme.text()
            };
            let y = list.y + i as u16 * 2;
            let x = draw::put(buf, list, list.x, y, " ", style);
            let x = draw::put(buf, list, x, y, kind.title(), style);
            draw::put(buf, list, x, y, " ", style);
        }
        let right = Rect::new(
            inner.x + 21,
            inner.y + 1,
            inner.width.saturating_sub(22),
            16,
        );
        let kind = ModeKind::ALL[st.cursor.min(ModeKind::ALL.len() - 1)];
        draw::put(buf, right, right.x, right.y, kind.title(), theme.accent());
        let rows = draw::wrapped(buf, right, right.y + 2, kind.description(), theme.text());
        if kind == ModeKind::Custom {
            let at = Rect::new(right.x, right.y + 3 + rows, right.width, 8);
            self.custom(buf, at.intersection(right));
        }
        let hint = match st.focus {
            None => "Up/Down choose   Enter start   Esc back",
            Some(4) => "type digits   Backspace erase   Enter start",
            Some(_) => "Left/Right change   Enter start   Esc back",
        };
        draw::hint(buf, inner, hint, theme);
    }
}

impl ModeSelectView<'_> {
    fn custom(&self, buf: &mut Buffer, area: Rect) {
        let theme = self.theme;
        let c = &self.state.custom;
        let values: [StackStr<24>; 5] = [
            sfmt!(24; "{}", c.start_level),
            sfmt!(24; "{}", if c.level_increase { "on" } else { "off" }),
            sfmt!(24; "{}", c.limit.label()),
            c.value_text(),
            match c.seed {
                Some(s) => sfmt!(24; "{}", s),
                None => sfmt!(24; "random"),
            },
        ];
        for (i, (label, value)) in ROWS.iter().zip(values.iter()).enumerate() {
            let y = area.y + i as u16;
            let focused = self.state.focus == Some(i);
            let style = if focused {
                theme.selected()
            } else {
                theme.text()
            };
            draw::put(buf, area, area.x, y, label, style);
            let shown = if focused && i != 4 {
                sfmt!(32; "< {} >", value.as_str())
            } else {
                sfmt!(32; "{}", value.as_str())
            };
            draw::put_right(buf, area, y, shown.as_str(), style);
        }
        let start_style = if self.state.focus == Some(START_ROW) {
            theme.selected()
        } else {
            theme.accent()
        };
        draw::put_centered(buf, area, area.y + 6, " Start ", start_style);
    }
}
