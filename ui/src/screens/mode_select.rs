//! Mode select: every engine mode with its description, the ruleset of the modes that take
//! one (40 lines, marathon, ultra, custom: Left/Right), and the options of a custom game
//! (`custom.rs`), and the number of garbage rows of a cheese game (Left/Right; the preset's 20
//! ranks, any other count is played unranked).

use minotty_engine::{CHEESE_DEFAULT, CHEESE_MIN, Mode, ModeKind, RulesetId};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

pub use super::custom::{CustomOptions, Opt};
use super::{Nav, is_ctrl, nav, wrap};
use crate::draw;
use crate::keys::{Key, KeyEvent, KeyKind};
use crate::rules::{fixed_ruleset, ruleset_name, takes_ruleset};
use crate::session::GameSetup;
use crate::settings::{Settings, cycle};
use crate::text::sfmt;
use crate::theme::Theme;

/// What a locked Descent says.
pub const LOCKED_NOTE: &str = "Locked: Finish Puzzle to unlock";

/// The most garbage rows a player may choose for cheese here.
pub const CHEESE_CHOICE_MAX: u32 = 100;

/// The state of the mode select screen.
#[derive(Clone, Debug)]
pub struct ModeSelect {
    pub cursor: usize,
    /// The focused row of the custom options (an index into the rows shown), when they have
    /// focus.
    pub focus: Option<usize>,
    pub custom: CustomOptions,
    /// The ruleset of 40 lines, marathon, ultra and custom games (remembered in the settings).
    pub ruleset: RulesetId,
    /// The garbage rows a cheese game started here digs (`CHEESE_MIN..=CHEESE_CHOICE_MAX`).
    pub cheese_rows: u32,
    /// Descent can be started (the App's [`crate::App::descent_unlocked`]).
    pub descent_unlocked: bool,
}

impl Default for ModeSelect {
    fn default() -> ModeSelect {
        ModeSelect {
            cursor: 0,
            focus: None,
            custom: CustomOptions::default(),
            ruleset: RulesetId::default(),
            cheese_rows: CHEESE_DEFAULT,
            descent_unlocked: false,
        }
    }
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
    pub fn kind(&self) -> ModeKind {
        ModeKind::ALL[self.cursor.min(ModeKind::ALL.len() - 1)]
    }

    /// The ruleset a game of `kind` started here plays.
    pub fn ruleset_for(&self, kind: ModeKind) -> RulesetId {
        if takes_ruleset(kind) {
            self.ruleset
        } else {
            fixed_ruleset(kind)
        }
    }

    /// The game a preset of `kind` started here plays (cheese with the chosen rows).
    pub fn preset_setup(&self, kind: ModeKind) -> GameSetup {
        let mut setup = GameSetup::preset(kind, self.ruleset_for(kind));
        if kind == ModeKind::Cheese {
            setup.mode = Mode::cheese(self.cheese_rows);
        }
        setup
    }

    /// The custom game the options describe.
    pub fn custom_setup(&self, settings: &Settings) -> GameSetup {
        let c = &self.custom;
        GameSetup {
            mode: c.mode(),
            seed: c.seed,
            ruleset: self.ruleset,
            tuning: c.tuning(self.ruleset),
            handling: c.handling(settings.handling),
            preview: c.preview,
        }
    }

    /// Whether `kind` is shown but cannot be started (Descent until it is unlocked).
    pub fn locked(&self, kind: ModeKind) -> bool {
        kind == ModeKind::Descent && !self.descent_unlocked
    }

    pub fn handle(&mut self, ev: KeyEvent, settings: &Settings) -> ModeAction {
        if is_ctrl(ev, 'c') {
            return ModeAction::AskQuit;
        }
        let kind = self.kind();
        let Some(row) = self.focus else {
            match nav(ev) {
                Some(Nav::Up) => self.cursor = wrap(self.cursor, ModeKind::ALL.len(), false),
                Some(Nav::Down) => self.cursor = wrap(self.cursor, ModeKind::ALL.len(), true),
                Some(Nav::Left | Nav::Right) if takes_ruleset(kind) => {
                    let dir = if nav(ev) == Some(Nav::Left) { -1 } else { 1 };
                    self.ruleset = cycle(&RulesetId::ALL, self.ruleset, dir);
                }
                Some(Nav::Left) if kind == ModeKind::Cheese => {
                    self.cheese_rows = self.cheese_rows.saturating_sub(1).max(CHEESE_MIN);
                }
                Some(Nav::Right) if kind == ModeKind::Cheese => {
                    self.cheese_rows = (self.cheese_rows + 1).min(CHEESE_CHOICE_MAX);
                }
                Some(Nav::Select) if kind == ModeKind::Custom => self.focus = Some(0),
                // Locked: nothing to start.
                Some(Nav::Select | Nav::Right) if self.locked(kind) => return ModeAction::None,
                Some(Nav::Select | Nav::Right) => {
                    return ModeAction::Start(self.preset_setup(kind));
                }
                Some(Nav::Back) => return ModeAction::Back,
                _ => return ModeAction::None,
            }
            return ModeAction::Changed;
        };
        let rows = self.custom.row_count(self.ruleset);
        let row = row.min(rows.saturating_sub(1));
        let opt = self.custom.row(row, self.ruleset).unwrap_or(Opt::Start);
        if ev.kind != KeyKind::Release && !ev.mods.ctrl && !ev.mods.alt {
            match (opt, ev.key) {
                (Opt::Seed, Key::Char(c @ '0'..='9')) => {
                    let digit = u64::from(c as u8 - b'0');
                    let next = u64::from(self.custom.seed.unwrap_or(0)) * 10 + digit;
                    if let Ok(seed) = u32::try_from(next) {
                        self.custom.seed = Some(seed);
                    }
                    return ModeAction::Changed;
                }
                (Opt::Seed, Key::Backspace) => {
                    self.custom.seed = self.custom.seed.map(|s| s / 10).filter(|&s| s != 0);
                    return ModeAction::Changed;
                }
                (_, Key::Delete) => {
                    self.custom.reset(opt);
                    return ModeAction::Changed;
                }
                _ => {}
            }
        }
        let toggles = matches!(opt, Opt::LevelIncrease | Opt::SoftDropLock);
        match nav(ev) {
            Some(Nav::Up) => self.focus = Some(wrap(row, rows, false)),
            Some(Nav::Down) => self.focus = Some(wrap(row, rows, true)),
            Some(Nav::Left) => self.custom.change(opt, -1, &mut self.ruleset, settings),
            Some(Nav::Right) => self.custom.change(opt, 1, &mut self.ruleset, settings),
            Some(Nav::Select) if toggles && ev.key == Key::Char(' ') => {
                self.custom.change(opt, 1, &mut self.ruleset, settings);
            }
            Some(Nav::Select) => return ModeAction::Start(self.custom_setup(settings)),
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
    pub settings: &'a Settings,
    pub theme: Theme,
}

impl Widget for &ModeSelectView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let theme = self.theme;
        let st = self.state;
        let r = draw::centered(area, 76, 22);
        let inner = draw::frame(buf, r, theme, "CHOOSE A MODE", theme.dim());
        let list = Rect::new(inner.x + 1, inner.y + 1, 18, inner.height.saturating_sub(1));
        for (i, kind) in ModeKind::ALL.iter().enumerate() {
            let style = if i == st.cursor {
                if st.focus.is_some() {
                    theme.accent()
                } else {
                    theme.selected()
                }
            } else if st.locked(*kind) {
                theme.dim()
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
            inner.height.saturating_sub(3),
        );
        let kind = st.kind();
        draw::put(buf, right, right.x, right.y, kind.title(), theme.accent());
        if kind == ModeKind::Custom {
            if st.focus.is_none() {
                let rows = draw::wrapped(buf, right, right.y + 1, kind.description(), theme.dim());
                let at = Rect::new(right.x, right.y + 2 + rows, right.width, right.height);
                self.custom(buf, at.intersection(right));
            } else {
                let at = Rect::new(right.x, right.y + 1, right.width, right.height);
                self.custom(buf, at.intersection(right));
            }
        } else {
            let rows = draw::wrapped(buf, right, right.y + 2, kind.description(), theme.text());
            if takes_ruleset(kind) {
                let y = right.y + 3 + rows;
                let name = sfmt!(32; "< {} >", ruleset_name(st.ruleset));
                draw::put(buf, right, right.x, y, "Ruleset", theme.text());
                draw::put_right(buf, right, y, name.as_str(), theme.selected());
                let at = Rect::new(right.x, y + 1, right.width, 3).intersection(right);
                draw::wrapped(buf, at, y + 1, st.ruleset.description(), theme.dim());
            } else if kind == ModeKind::Cheese {
                let y = right.y + 3 + rows;
                let n = sfmt!(16; "< {} >", st.cheese_rows);
                draw::put(buf, right, right.x, y, "Garbage rows", theme.text());
                draw::put_right(buf, right, y, n.as_str(), theme.selected());
                let note = if st.cheese_rows == CHEESE_DEFAULT {
                    "The leaderboard's count. 10 rows show at a time."
                } else {
                    "Unranked: the leaderboard digs 20. 10 rows show at a time."
                };
                let at = Rect::new(right.x, y + 1, right.width, 2).intersection(right);
                let wrapped = draw::wrapped(buf, at, y + 1, note, theme.dim());
                let y = y + 2 + wrapped;
                draw::put(buf, right, right.x, y, "Ruleset: standard", theme.dim());
            } else {
                let y = right.y + 3 + rows;
                let name = sfmt!(32; "Ruleset: {}", ruleset_name(fixed_ruleset(kind)));
                draw::put(buf, right, right.x, y, name.as_str(), theme.dim());
                if st.locked(kind) {
                    draw::put(buf, right, right.x, y + 2, LOCKED_NOTE, theme.bad());
                }
            }
        }
        let opt = st.focus.and_then(|f| st.custom.row(f, st.ruleset));
        let hint = match (st.focus, opt) {
            (None, _) if takes_ruleset(kind) && kind != ModeKind::Custom => {
                "Up/Down mode   Left/Right ruleset   Enter start   Esc back"
            }
            (None, _) if kind == ModeKind::Cheese => {
                "Up/Down mode   Left/Right rows   Enter start   Esc back"
            }
            (None, _) if kind == ModeKind::Custom => {
                "Up/Down mode   Left/Right ruleset   Enter options   Esc back"
            }
            (None, _) if st.locked(kind) => "Up/Down choose   Esc back",
            (None, _) => "Up/Down choose   Enter start   Esc back",
            (Some(_), Some(Opt::Seed)) => "type digits   Backspace erase   Enter start",
            (Some(_), _) => "Left/Right change   Del default   Enter start   Esc back",
        };
        draw::hint(buf, inner, hint, theme);
    }
}

impl ModeSelectView<'_> {
    /// The custom options, scrolled to keep the focused row in view; a changed value has a `*`.
    fn custom(&self, buf: &mut Buffer, area: Rect) {
        let theme = self.theme;
        let st = self.state;
        let c = &st.custom;
        let visible = usize::from(area.height);
        if visible == 0 {
            return;
        }
        // The last two columns hold the scroll marks.
        let marks = area;
        let area = Rect::new(area.x, area.y, area.width.saturating_sub(2), area.height);
        let focus = st.focus.unwrap_or(0);
        let first = (focus + 1).saturating_sub(visible);
        let total = c.row_count(st.ruleset);
        for (i, opt) in c.rows(st.ruleset).enumerate().skip(first).take(visible) {
            let y = area.y + (i - first) as u16;
            let focused = st.focus == Some(i);
            let style = if focused {
                theme.selected()
            } else {
                theme.text()
            };
            if opt == Opt::Start {
                let style = if focused { style } else { theme.accent() };
                draw::put_centered(buf, area, y, " Start ", style);
                continue;
            }
            let (value, changed) = c.shown(opt, st.ruleset, self.settings);
            draw::put(buf, area, area.x, y, opt.label(), style);
            let mark = if changed { "*" } else { " " };
            let shown = if focused && opt != Opt::Seed {
                sfmt!(48; "< {} >{}", value.as_str(), mark)
            } else {
                sfmt!(48; "{}{}", value.as_str(), mark)
            };
            draw::put_right(buf, area, y, shown.as_str(), style);
        }
        // More rows above or below: a dim arrow at the right edge.
        let x = marks.right().saturating_sub(1);
        if first > 0 {
            draw::put(buf, marks, x, marks.y, "^", theme.dim());
        }
        if first + visible < total {
            draw::put(
                buf,
                marks,
                x,
                marks.bottom().saturating_sub(1),
                "v",
                theme.dim(),
            );
        }
    }
}
