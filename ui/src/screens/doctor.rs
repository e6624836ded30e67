//! The terminal doctor: what the server learned about the player's terminal, a mark per check,
//! and the advice that applies (`crate::doctor`). `r` asks again, Up/Down scroll the advice,
//! Esc goes back (or ends the session when it was opened with `ssh -t HOST doctor`).

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

use super::{Nav, is_ctrl, nav};
use crate::doctor::{self, DoctorReport, Mark};
use crate::draw;
use crate::keys::{Key, KeyEvent, KeyKind};
use crate::text::sfmt;
use crate::theme::Theme;

/// The Doctor screen's state.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DoctorScreen {
    /// The last report (kept while the checks run again).
    pub report: Option<DoctorReport>,
    /// The checks are running (the front end has the request).
    pub running: bool,
    /// The front end cannot run the checks (`minotty play`).
    pub unavailable: bool,
    /// Advice lines scrolled past.
    pub scroll: u16,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DoctorAction {
    None,
    Moved,
    Rerun,
    Back,
    AskQuit,
}

impl DoctorScreen {
    pub fn handle(&mut self, ev: KeyEvent) -> DoctorAction {
        if is_ctrl(ev, 'c') {
            return DoctorAction::AskQuit;
        }
        if ev.kind == KeyKind::Release || ev.mods.ctrl || ev.mods.alt {
            return DoctorAction::None;
        }
        match ev.key {
            Key::Char('r' | 'R') if !self.running && !self.unavailable => {
                return DoctorAction::Rerun;
            }
            Key::Char('q' | 'Q') => return DoctorAction::Back,
            _ => {}
        }
        match nav(ev) {
            Some(Nav::Back) => DoctorAction::Back,
            Some(Nav::Up) if self.scroll > 0 => {
                self.scroll -= 1;
                DoctorAction::Moved
            }
            Some(Nav::Down) if usize::from(self.scroll) + 1 < self.advice_lines() => {
                self.scroll += 1;
                DoctorAction::Moved
            }
            _ => DoctorAction::None,
        }
    }

    fn advice_lines(&self) -> usize {
        self.report
            .as_ref()
            .map_or(0, |r| doctor::advice(r).map(|a| a.lines.len()).sum())
    }
}

/// Draws the Doctor screen.
#[derive(Debug)]
pub struct DoctorView<'a> {
    pub state: &'a DoctorScreen,
    pub theme: Theme,
    /// Esc ends the session (opened by the `doctor` command) rather than going back.
    pub exits: bool,
}

impl Widget for &DoctorView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let theme = self.theme;
        let r = draw::centered(area, 80, area.height.min(40));
        let inner = draw::frame(buf, r, theme, "TERMINAL DOCTOR", theme.dim());
        let body = Rect::new(
            inner.x + 1,
            inner.y,
            inner.width.saturating_sub(2),
            inner.height.saturating_sub(1),
        );
        let hint = match (self.state.running, self.exits) {
            (true, _) => "asking your terminal...",
            (false, true) => "r check again   Up/Down scroll   q/Esc end",
            (false, false) => "r check again   Up/Down scroll   Esc back",
        };
        draw::hint(buf, inner, hint, theme);
        let mut y = body.y;
        if self.state.unavailable {
            let text = "The terminal doctor asks your terminal over SSH. Connect with";
            draw::put(buf, body, body.x, y + 1, text, theme.text());
            let command = "ssh -t -p PORT HOST doctor";
            draw::put(buf, body, body.x + 2, y + 3, command, theme.title());
            return;
        }
        let Some(report) = &self.state.report else {
            draw::put(
                buf,
                body,
                body.x,
                y + 1,
                "Asking your terminal a few questions (under two seconds)...",
                theme.text(),
            );
            return;
        };
        for check in doctor::checks(report) {
            let style = match check.mark {
                Mark::Good => theme.good(),
                Mark::Bad => theme.bad(),
                Mark::Warn => theme.accent(),
                Mark::Info | Mark::Unknown => theme.dim(),
            };
            let x = draw::put(buf, body, body.x, y, check.mark.symbol(), style);
            let x = draw::put(buf, body, x + 1, y, check.name, theme.title());
            let x = (body.x + 19).max(x + 1);
            draw::put(buf, body, x, y, check.detail.as_str(), theme.text());
            y += 1;
        }
        y += 1;
        let total = self.state.advice_lines();
        if total == 0 {
            draw::put(
                buf,
                body,
                body.x,
                y,
                "Nothing to change: this terminal plays the game as intended.",
                theme.good(),
            );
            return;
        }
        let room = usize::from(body.bottom().saturating_sub(y + 1));
        // Never scrolled further than the last line needs (a taller terminal shows it all).
        let scroll = usize::from(self.state.scroll).min(total.saturating_sub(room));
        let heading = if scroll > 0 || total > room {
            sfmt!(48; "What to change ({}-{} of {}):", scroll + 1, (scroll + room).min(total), total)
        } else {
            sfmt!(48; "What to change:")
        };
        draw::put(buf, body, body.x, y, heading.as_str(), theme.accent());
        y += 1;
        let lines = doctor::advice(report).flat_map(|a| a.lines.iter());
        for line in lines.skip(scroll).take(room) {
            draw::put(buf, body, body.x, y, line, theme.text());
            y += 1;
        }
    }
}
