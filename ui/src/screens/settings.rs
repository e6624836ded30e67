//! Settings: handling, preview, ghost, graphics, colours, frame rate, FPS counter, release
//! timeout, hard drop trail, board size, whether others may watch, the controls (remapping)
//! and the way to the terminal doctor. Every change applies at once (handling from the next
//! game).

use minotty_engine::Button;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

use super::retry;
use super::settings_confirm::{Confirm, ConfirmOutcome, ConfirmState};
use super::settings_explain::{self, step_sdf};
use super::{Nav, is_ctrl, nav, wrap};
use crate::draw;
use crate::keymap::{KeyPreset, Keymap, Rebound, key_name};
use crate::keys::{Key, KeyEvent, KeyKind};
use crate::settings::{
    BoardSize, ColorMode, FRAME_RATES, GhostView, Graphics, MAX_ARR, MAX_DAS, MAX_DAS_CUT,
    MAX_DOUBLE_TAP, MAX_HARD_DROP_GUARD, Palette, RELEASE_TIMEOUT_RANGE, Renderer, Settings, cycle,
    step,
};
use crate::text::{StackStr, sfmt};
use crate::theme::Theme;

const ROWS: [&str; 27] = [
    "Controls",
    "DAS (auto-shift delay)",
    "ARR (auto-repeat rate)",
    "Soft drop speed",
    "Ignore hard drop after clear",
    "DAS cut delay",
    "Next pieces shown",
    "Ghost piece",
    "Graphics",
    "Colours",
    "Frame rate",
    "FPS counter",
    "Release timeout",
    "Effects",
    "Board size",
    "Ghost race view",
    "Let others watch my games",
    "Palette",
    "Board grid",
    "Colour locked tiles",
    "Board renderer",
    "Double tap teleports",
    "Moves beat lock delay",
    "Terminal doctor",
    "Account (password, keys)",
    "Reset to defaults",
    "Back",
];
/// The remap list: the buttons, Retry, then these.
const REMAP_EXTRA: [&str; 4] = ["Up arrow", "Key preset", "Reset controls", "Back"];
/// The row of the retry key in the remap list, after the buttons.
const RETRY_ROW: usize = Button::ALL.len();
const REMAP_ROWS: usize = RETRY_ROW + 1 + REMAP_EXTRA.len();

/// The state of the settings screen.
#[derive(Clone, Debug, Default)]
pub struct SettingsScreen {
    pub cursor: usize,
    /// The controls list, when open: its cursor and whether a key is being captured.
    pub remap: Option<(usize, bool)>,
    /// The confirmation before something is thrown away, when open.
    pub confirm: Option<ConfirmState>,
    /// What the last key binding took from elsewhere, until the next key.
    pub notice: Option<StackStr<96>>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SettingsAction {
    None,
    Moved,
    Changed,
    Back,
    /// Open the account's password and keys screen.
    Account,
    /// Open the terminal doctor.
    Doctor,
    AskQuit,
}

impl SettingsScreen {
    pub fn handle(&mut self, ev: KeyEvent, s: &mut Settings) -> SettingsAction {
        if is_ctrl(ev, 'c') {
            return SettingsAction::AskQuit;
        }
        if let Some(mut confirm) = self.confirm {
            let outcome = confirm.handle(ev, s);
            self.confirm = match outcome {
                ConfirmOutcome::None | ConfirmOutcome::Moved => Some(confirm),
                ConfirmOutcome::Applied | ConfirmOutcome::Kept => None,
            };
            return match outcome {
                ConfirmOutcome::None => SettingsAction::None,
                ConfirmOutcome::Applied => SettingsAction::Changed,
                ConfirmOutcome::Moved | ConfirmOutcome::Kept => SettingsAction::Moved,
            };
        }
        if let Some((cursor, capturing)) = self.remap {
            return self.handle_remap(cursor, capturing, ev, s);
        }
        let dir = match nav(ev) {
            Some(Nav::Up) => {
                self.cursor = wrap(self.cursor, ROWS.len(), false);
                return SettingsAction::Moved;
            }
            Some(Nav::Down) => {
                self.cursor = wrap(self.cursor, ROWS.len(), true);
                return SettingsAction::Moved;
            }
            Some(Nav::Back) => return SettingsAction::Back,
            Some(Nav::Left) => -1,
            Some(Nav::Right | Nav::Select) => 1,
            None => return SettingsAction::None,
        };
        let select = nav(ev) == Some(Nav::Select);
        let h = &mut s.handling;
        match self.cursor {
            0 if select => {
                self.remap = Some((0, false));
                return SettingsAction::Moved;
            }
            1 => h.das = step(h.das, dir * 10, 0, MAX_DAS),
            2 => h.arr = step(h.arr, dir * 5, 0, MAX_ARR),
            3 => h.sdf = step_sdf(h.sdf, dir),
            4 => h.hard_drop_guard = step(h.hard_drop_guard, dir * 10, 0, MAX_HARD_DROP_GUARD),
            5 => h.das_cut = step(h.das_cut, dir * 10, 0, MAX_DAS_CUT),
            6 => s.preview = step(u32::from(s.preview), dir, 0, 6) as u8,
            7 => s.ghost = !s.ghost,
            8 => s.graphics = cycle(&Graphics::ALL, s.graphics, dir),
            9 => s.colors = cycle(&ColorMode::ALL, s.colors, dir),
            10 => s.frame_rate = cycle(&FRAME_RATES, s.frame_rate, dir),
            11 => s.show_fps = !s.show_fps,
            12 => {
                let (lo, hi) = RELEASE_TIMEOUT_RANGE;
                let v = step(
                    u32::from(s.release_timeout_ms),
                    dir * 10,
                    lo.into(),
                    hi.into(),
                );
                s.release_timeout_ms = v as u16;
            }
            // All, no trail, none (reduced motion), round.
            13 => {
                let levels = [(true, true), (false, true), (false, false)];
                (s.drop_trail, s.flashes) = cycle(&levels, (s.drop_trail, s.flashes), dir);
            }
            14 => s.board_size = cycle(&BoardSize::ALL, s.board_size, dir),
            15 => s.ghost_view = cycle(&GhostView::ALL, s.ghost_view, dir),
            16 => s.let_watch = !s.let_watch,
            17 => s.palette = cycle(&Palette::ALL, s.palette, dir),
            18 => s.grid = !s.grid,
            19 => s.color_locked = !s.color_locked,
            20 => s.renderer = cycle(&Renderer::ALL, s.renderer, dir),
            21 => h.double_tap = step(h.double_tap, dir * 10, 0, MAX_DOUBLE_TAP),
            22 => h.move_under_lock = !h.move_under_lock,
            23 if select => return SettingsAction::Doctor,
            24 if select => return SettingsAction::Account,
            25 if select => {
                if *s != Settings::default() {
                    self.confirm = Some(ConfirmState::new(Confirm::ResetAll));
                }
                return SettingsAction::Moved;
            }
            26 if select => return SettingsAction::Back,
            _ => return SettingsAction::None,
        }
        SettingsAction::Changed
    }

    fn handle_remap(
        &mut self,
        cursor: usize,
        capturing: bool,
        ev: KeyEvent,
        s: &mut Settings,
    ) -> SettingsAction {
        if capturing {
            if ev.kind != KeyKind::Press || ev.mods.ctrl || ev.mods.alt {
                return SettingsAction::None;
            }
            self.remap = Some((cursor, false));
            if ev.key == Key::Esc {
                return SettingsAction::Moved;
            }
            if let Some(&b) = Button::ALL.get(cursor) {
                let rebound = s.keys.bind(b, ev.key);
                self.notice = notice(ev.key, b.name(), rebound, &s.keys);
            } else if cursor == RETRY_ROW && !retry::bindable(ev.key) {
                self.notice = Some(retry::refused_notice(ev.key, &s.keys));
                return SettingsAction::Moved;
            } else if cursor == RETRY_ROW {
                let rebound = s.keys.bind_retry(ev.key);
                self.notice = notice(ev.key, retry::LABEL, rebound, &s.keys);
            }
            return SettingsAction::Changed;
        }
        if ev.kind != KeyKind::Release {
            self.notice = None;
        }
        let button = Button::ALL.get(cursor).copied();
        let bindable = cursor <= RETRY_ROW;
        if ev.kind != KeyKind::Release && matches!(ev.key, Key::Backspace | Key::Delete) {
            match button {
                Some(b) => s.keys.clear(b),
                None if cursor == RETRY_ROW => s.keys.clear_retry(),
                None => return SettingsAction::None,
            }
            return SettingsAction::Changed;
        }
        match nav(ev) {
            Some(Nav::Up) => self.remap = Some((wrap(cursor, REMAP_ROWS, false), false)),
            Some(Nav::Down) => self.remap = Some((wrap(cursor, REMAP_ROWS, true), false)),
            Some(Nav::Back) => self.remap = None,
            Some(Nav::Select) if bindable => self.remap = Some((cursor, true)),
            Some(Nav::Select | Nav::Left | Nav::Right) if !bindable => {
                let dir = if nav(ev) == Some(Nav::Left) { -1 } else { 1 };
                let select = nav(ev) == Some(Nav::Select);
                match cursor - (RETRY_ROW + 1) {
                    0 => s.keys.set_up_rotates(!s.keys.up_rotates()),
                    1 => {
                        // From the player's own keys, Right and Enter offer TETR.IO-like
                        // (Reset controls is the way back to minotty's), Left minotty's.
                        let next = match s.keys.which_preset() {
                            Some(now) => cycle(&KeyPreset::ALL, now, dir),
                            None if dir < 0 => KeyPreset::Minotty,
                            None => KeyPreset::TetrioLike,
                        };
                        return self.replace_keys(next, s);
                    }
                    2 if select => return self.replace_keys(KeyPreset::Minotty, s),
                    3 if select => self.remap = None,
                    _ => return SettingsAction::None,
                }
                return SettingsAction::Changed;
            }
            _ => return SettingsAction::None,
        }
        SettingsAction::Moved
    }

    /// Puts the keys of `preset` in place: at once when the keys now are a preset (nothing of
    /// the player's own is lost), else after a confirmation that says what is lost.
    fn replace_keys(&mut self, preset: KeyPreset, s: &mut Settings) -> SettingsAction {
        if s.keys.which_preset().is_some() {
            if s.keys.which_preset() == Some(preset) {
                return SettingsAction::None;
            }
            s.keys = Keymap::preset(preset);
            return SettingsAction::Changed;
        }
        self.confirm = Some(ConfirmState::new(Confirm::Keys(preset)));
        SettingsAction::Moved
    }
}

/// What a binding of `key` to `action` (a button's name or Retry) changed elsewhere, in
/// words: "Space was Hard drop's: Hard drop keeps Up" or "... Hard drop has no key now", "R
/// was Retry's key: no key retries now!", and a key pushed out of a full button or the retry
/// key replaced.
fn notice(key: Key, action: &str, r: Rebound, keys: &Keymap) -> Option<StackStr<96>> {
    let name = key_name(key);
    if r.took_retry {
        return Some(retry::taken_notice(key));
    }
    if let Some(from) = r.taken_from {
        let left = keys.describe(from);
        return Some(if keys.keys(from).next().is_none() {
            sfmt!(96; "{} was {}'s key: {} has no key now!", name.as_str(), from.name(), from.name())
        } else {
            sfmt!(96; "{} was {}'s key: {} keeps {}.", name.as_str(), from.name(), from.name(), left.as_str())
        });
    }
    if action == retry::LABEL {
        return r.replaced.map(|old| retry::replaced_notice(key, old));
    }
    r.replaced.map(|old| {
        sfmt!(96; "{} has 3 keys at most: {} replaced {}.", action, name.as_str(), key_name(old).as_str())
    })
}

/// The value shown for settings row `i`.
fn value(s: &Settings, i: usize) -> StackStr<24> {
    let h = &s.handling;
    match i {
        1 => sfmt!(24; "{} ms", h.das),
        2 if h.arr == 0 => sfmt!(24; "0 ms (instant)"),
        2 => sfmt!(24; "{} ms", h.arr),
        3 if h.sdf == 0 && s.graphics == Graphics::Unicode => sfmt!(24; "∞ (instant)"),
        3 if h.sdf == 0 => sfmt!(24; "instant"),
        3 => sfmt!(24; "{}x", h.sdf),
        4 if h.hard_drop_guard == 0 => sfmt!(24; "off"),
        4 => sfmt!(24; "{} ms", h.hard_drop_guard),
        5 if h.das_cut == 0 => sfmt!(24; "off"),
        5 => sfmt!(24; "{} ms", h.das_cut),
        6 => sfmt!(24; "{}", s.preview),
        7 => sfmt!(24; "{}", if s.ghost { "on" } else { "off" }),
        8 => sfmt!(24; "{}", s.graphics.label()),
        9 => sfmt!(24; "{}", s.colors.label()),
        10 => sfmt!(24; "{} fps", s.frame_rate),
        11 => sfmt!(24; "{}", if s.show_fps { "shown" } else { "hidden" }),
        12 => sfmt!(24; "{} ms", s.release_timeout_ms),
        13 => sfmt!(24; "{}", match (s.drop_trail, s.flashes) {
            (true, true) => "all",
            (false, true) => "no trail",
            (false, false) => "none (still)",
            (true, false) => "trail only",
        }),
        14 => sfmt!(24; "{}", s.board_size.label()),
        15 => sfmt!(24; "{}", s.ghost_view.label()),
        16 => sfmt!(24; "{}", if s.let_watch { "yes" } else { "no" }),
        17 => sfmt!(24; "{}", s.palette.label()),
        18 => sfmt!(24; "{}", if s.grid { "dots" } else { "off" }),
        19 => sfmt!(24; "{}", if s.color_locked { "on" } else { "grey" }),
        20 if s.graphics != Graphics::Unicode => sfmt!(24; "blocks ({})", s.graphics.label()),
        20 => sfmt!(24; "{}", s.renderer.label()),
        21 if h.double_tap == 0 => sfmt!(24; "off"),
        21 => sfmt!(24; "within {} ms", h.double_tap),
        22 => sfmt!(24; "{}", if h.move_under_lock { "on" } else { "off" }),
        _ => StackStr::new(),
    }
}

/// Draws the settings screen (or its controls list).
#[derive(Debug)]
pub struct SettingsView<'a> {
    pub state: &'a SettingsScreen,
    pub settings: &'a Settings,
    pub theme: Theme,
}

impl Widget for &SettingsView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let theme = self.theme;
        // Every row with its explanation when the terminal has room; at 24 rows the list
        // scrolls with the cursor.
        let r = draw::centered(area, 60, 26);
        let title = if self.state.remap.is_some() {
            "CONTROLS"
        } else {
            "SETTINGS"
        };
        let inner = draw::frame(buf, r, theme, title, theme.dim());
        // Three rows of explanation and the hint stay below the list.
        let rows = (ROWS.len() as u16).min(inner.height.saturating_sub(4).max(1));
        let first = match self.state.remap {
            Some(_) => 0,
            None => self.state.cursor.saturating_sub(usize::from(rows) - 1),
        };
        let list = Rect::new(inner.x + 2, inner.y, inner.width.saturating_sub(4), rows);
        let list = list.intersection(inner);
        // Under the list, up to three rows on the selected row (or what a binding took).
        let about = Rect::new(
            list.x,
            inner.y.saturating_add(rows),
            list.width,
            inner.height.saturating_sub(rows + 1),
        )
        .intersection(inner);
        let (hint, explain) = match self.state.remap {
            Some((cursor, capturing)) => {
                self.remap(buf, list, cursor, capturing);
                let hint = if capturing {
                    "press the new key   Esc cancel"
                } else {
                    "Enter add a key   Backspace clear   Esc back"
                };
                (hint, settings_explain::remap_row(cursor))
            }
            None => {
                let shown = ROWS.iter().enumerate().skip(first).take(usize::from(rows));
                for (line, (i, label)) in shown.enumerate() {
                    let v = value(self.settings, i);
                    self.row(buf, list, line, label, v.as_str(), i == self.state.cursor);
                }
                let hint = "Left/Right change   Enter select   Esc back";
                (hint, settings_explain::row(self.state.cursor))
            }
        };
        match &self.state.notice {
            Some(notice) => draw::wrapped(buf, about, about.y, notice.as_str(), theme.bad()),
            None => draw::wrapped(buf, about, about.y, explain, theme.dim()),
        };
        draw::hint(buf, inner, hint, theme);
        if let Some(confirm) = &self.state.confirm {
            confirm.draw(buf, area, self.settings, theme);
        }
    }
}

impl SettingsView<'_> {
    fn row(&self, buf: &mut Buffer, list: Rect, i: usize, label: &str, v: &str, on: bool) {
        let theme = self.theme;
        let y = list.y.saturating_add(i as u16);
        let style = if on { theme.selected() } else { theme.text() };
        draw::put(buf, list, list.x, y, label, style);
        let shown = if on && !v.is_empty() {
            sfmt!(48; "< {} >", v)
        } else {
            sfmt!(48; "{}", v)
        };
        draw::put_right(buf, list, y, shown.as_str(), style);
    }

    fn remap(&self, buf: &mut Buffer, list: Rect, cursor: usize, capturing: bool) {
        let keys = &self.settings.keys;
        for (i, b) in Button::ALL.iter().enumerate() {
            let v = if capturing && i == cursor {
                sfmt!(40; "press a key...")
            } else {
                keys.describe(*b)
            };
            self.row(buf, list, i, b.name(), v.as_str(), i == cursor);
        }
        let v = match keys.retry_key() {
            _ if capturing && cursor == RETRY_ROW => sfmt!(40; "press a key..."),
            Some(key) => sfmt!(40; "{}", key_name(key).as_str()),
            None => sfmt!(40; "-"),
        };
        let on = cursor == RETRY_ROW;
        self.row(buf, list, RETRY_ROW, retry::LABEL, v.as_str(), on);
        for (j, label) in REMAP_EXTRA.iter().enumerate() {
            let i = RETRY_ROW + 1 + j;
            let v = match j {
                0 if keys.up_rotates() => "rotates",
                0 => "hard drop",
                1 => keys.which_preset().map_or("your own", KeyPreset::name),
                _ => "",
            };
            self.row(buf, list, i, label, v, i == cursor);
        }
    }
}
