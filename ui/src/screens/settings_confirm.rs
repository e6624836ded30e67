//! The settings screen's confirmation before it throws something away: resetting every
//! setting, or replacing the player's own keys with a preset. It says what will be lost, and
//! "Keep" is selected first, so a stray Enter loses nothing.

use minotty_engine::Button;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use std::fmt::Write;

use super::{Nav, nav};
use crate::draw;
use crate::keymap::{KeyPreset, Keymap};
use crate::keys::{Key, KeyEvent, KeyKind};
use crate::settings::Settings;
use crate::text::{StackStr, sfmt};
use crate::theme::Theme;

/// What is about to be replaced.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Confirm {
    /// Every setting back to its default.
    ResetAll,
    /// The keys replaced by a preset's.
    Keys(KeyPreset),
}

/// An open confirmation: what it is for and whether "Reset" is selected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ConfirmState {
    pub what: Confirm,
    pub yes: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ConfirmOutcome {
    None,
    Moved,
    /// Go ahead: the settings were changed.
    Applied,
    /// Keep everything as it was.
    Kept,
}

impl ConfirmState {
    pub fn new(what: Confirm) -> ConfirmState {
        ConfirmState { what, yes: false }
    }

    /// The settings after going ahead.
    fn result(self, s: &Settings) -> Settings {
        match self.what {
            Confirm::ResetAll => Settings::default(),
            Confirm::Keys(p) => Settings {
                keys: Keymap::preset(p),
                ..s.clone()
            },
        }
    }

    pub fn handle(&mut self, ev: KeyEvent, s: &mut Settings) -> ConfirmOutcome {
        if ev.kind == KeyKind::Release {
            return ConfirmOutcome::None;
        }
        let go = match (ev.key, nav(ev)) {
            (Key::Char('y' | 'Y'), _) => true,
            (Key::Char('n' | 'N'), _) | (_, Some(Nav::Back)) => false,
            (_, Some(Nav::Left | Nav::Right | Nav::Up | Nav::Down)) => {
                self.yes = !self.yes;
                return ConfirmOutcome::Moved;
            }
            (Key::Enter, _) => self.yes,
            _ => return ConfirmOutcome::None,
        };
        if go {
            *s = self.result(s);
            ConfirmOutcome::Applied
        } else {
            ConfirmOutcome::Kept
        }
    }

    /// Draws the dialog over `area`, saying what going ahead would lose from `s`.
    pub fn draw(&self, buf: &mut Buffer, area: Rect, s: &Settings, theme: Theme) {
        let (title, question, go) = match self.what {
            Confirm::ResetAll => (
                "RESET",
                sfmt!(64; "Reset every setting to its default?"),
                "Reset",
            ),
            Confirm::Keys(preset) => (
                "CONTROLS",
                sfmt!(64; "Replace your keys with the {} keys?", preset.name()),
                "Replace",
            ),
        };
        let question = question.as_str();
        let inner = draw::dialog(buf, area, 56, 12, theme, title);
        // The text stops two rows above the buttons, however long the list of what is lost.
        let text = Rect::new(
            inner.x + 2,
            inner.y,
            inner.width.saturating_sub(4),
            inner.height.saturating_sub(3),
        );
        draw::put(buf, text, text.x, inner.y + 1, question, theme.title());
        let after = self.result(s);
        let lost = lost(s, &after);
        draw::wrapped(buf, text, inner.y + 3, lost.as_str(), theme.text());
        let (g, k) = if self.yes {
            (theme.selected(), theme.text())
        } else {
            (theme.text(), theme.selected())
        };
        let y = inner.bottom().saturating_sub(2);
        let keep = "  Keep  ";
        let go = StackStr::<16>::format(format_args!("  {go}  "));
        let w = draw::width(keep) + 4 + draw::width(go.as_str());
        let x = inner.x + inner.width.saturating_sub(w) / 2;
        let x = draw::put(buf, inner, x, y, keep, k);
        let x = draw::put(buf, inner, x, y, "    ", theme.text());
        draw::put(buf, inner, x, y, go.as_str(), g);
    }
}

/// What going from `before` to `after` loses, in words: the actions whose keys change (the
/// player's own ones when they are not a preset), then the other settings that change.
pub fn lost(before: &Settings, after: &Settings) -> StackStr<240> {
    let mut out = StackStr::<240>::new();
    let mut keys: Vec<&str> = Button::ALL
        .into_iter()
        .filter(|&b| !before.keys.keys(b).eq(after.keys.keys(b)))
        .map(Button::name)
        .collect();
    if before.keys.retry_key() != after.keys.retry_key() {
        keys.push(super::retry::LABEL);
    }
    if !keys.is_empty() {
        let whose = if before.keys.which_preset().is_some() {
            "The keys of"
        } else {
            "Your own keys for"
        };
        let _ = write!(out, "{whose} {} will be lost.", keys.join(", "));
    }
    let others = changed(before, after);
    if !others.is_empty() {
        let sep = if out.is_empty() { "" } else { " " };
        let _ = write!(out, "{sep}Back to default: {}.", others.join(", "));
    }
    if out.is_empty() {
        let _ = out.write_str("Nothing changes: these are the defaults already.");
    }
    out
}

/// The names of the settings other than keys that differ between `a` and `b`.
fn changed(a: &Settings, b: &Settings) -> Vec<&'static str> {
    let (ha, hb) = (&a.handling, &b.handling);
    [
        (ha.das != hb.das, "DAS"),
        (ha.arr != hb.arr, "ARR"),
        (ha.sdf != hb.sdf, "soft drop speed"),
        (
            ha.hard_drop_guard != hb.hard_drop_guard,
            "hard drop after clear",
        ),
        (ha.das_cut != hb.das_cut, "DAS cut"),
        (ha.double_tap != hb.double_tap, "double tap"),
        (
            ha.move_under_lock != hb.move_under_lock,
            "moves under lock delay",
        ),
        (a.preview != b.preview, "next pieces"),
        (a.ghost != b.ghost, "ghost"),
        (a.graphics != b.graphics, "graphics"),
        (a.colors != b.colors, "colours"),
        (a.frame_rate != b.frame_rate, "frame rate"),
        (a.show_fps != b.show_fps, "FPS counter"),
        (
            a.release_timeout_ms != b.release_timeout_ms,
            "release timeout",
        ),
        (a.drop_trail != b.drop_trail, "drop trail"),
        (a.flashes != b.flashes, "flashes"),
        (a.board_size != b.board_size, "board size"),
        (a.ghost_view != b.ghost_view, "ghost race view"),
        (a.let_watch != b.let_watch, "let others watch"),
        (a.ruleset != b.ruleset, "ruleset"),
        (a.palette != b.palette, "palette"),
        (a.grid != b.grid, "grid"),
        (a.color_locked != b.color_locked, "locked tile colours"),
        (a.renderer != b.renderer, "board renderer"),
    ]
    .into_iter()
    .filter_map(|(differs, name)| differs.then_some(name))
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::{BoardSize, ColorMode, Graphics};
    use minotty_engine::Handling;

    /// Everything changed: the list of what is lost never runs into the buttons.
    #[test]
    fn a_long_loss_stays_above_the_buttons() {
        let mut s = Settings {
            handling: Handling {
                das: 90,
                arr: 0,
                sdf: 0,
                hard_drop_guard: 200,
                das_cut: 50,
                double_tap: 100,
                move_under_lock: true,
            },
            preview: 1,
            ghost: false,
            drop_trail: false,
            graphics: Graphics::Ascii,
            board_size: BoardSize::One,
            colors: ColorMode::Monochrome,
            frame_rate: 30,
            show_fps: true,
            release_timeout_ms: 90,
            let_watch: false,
            palette: crate::settings::Palette::Gruvbox,
            grid: false,
            color_locked: false,
            renderer: crate::settings::Renderer::Braille,
            flashes: false,
            ..Settings::default()
        };
        for (i, b) in Button::ALL.into_iter().enumerate() {
            s.keys.bind(b, Key::F(i as u8 + 1));
        }
        let theme = Theme::new(&Settings::default());
        let mut buf = Buffer::empty(Rect::new(0, 0, 80, 24));
        let area = buf.area;
        ConfirmState::new(Confirm::ResetAll).draw(&mut buf, area, &s, theme);
        let rows = crate::testutil::lines(&buf);
        let buttons = rows
            .iter()
            .position(|r| r.contains("Keep") && r.contains("Reset"))
            .expect("buttons drawn");
        assert!(
            rows[buttons - 1].trim_matches([' ', '│']).is_empty(),
            "{}",
            rows.join("\n")
        );
        assert!(
            rows.join(" ").contains("Your own keys for Move left"),
            "{}",
            rows.join("\n")
        );
    }
}
