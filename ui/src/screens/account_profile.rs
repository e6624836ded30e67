//! The player's own page: bests per mode (and per ruleset, where played) with their global
//! rank, recent games with their ruleset (Enter watches one), and the versus rating.

use ratatui::buffer::Buffer;
use ratatui::layout::{Margin, Rect};
use ratatui::widgets::Widget;

use super::account_form::{Load, clean, date, load_message};
use super::is_ctrl;
use crate::draw;
use crate::keys::{Key, KeyEvent, KeyKind};
use crate::online::Profile;
use crate::rules::ruleset_name;
use crate::text::{sanitize, sfmt};
use crate::theme::Theme;

/// The state of the profile screen.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ProfileScreen {
    /// The profile shown (cleaned of control characters).
    pub profile: Option<Profile>,
    pub load: Load,
    /// Over the bests, then the recent games.
    pub cursor: usize,
    /// A guest: explains how to get a profile instead.
    pub guest: bool,
    pub note: Option<String>,
    /// The player's own games on this computer (`minotty play`): there is no global rank.
    pub local: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProfileAction {
    None,
    Moved,
    Replay(i64),
    Back,
    AskQuit,
}

impl ProfileScreen {
    fn items(&self) -> usize {
        self.profile
            .as_ref()
            .map_or(0, |p| p.bests.len() + p.recent.len())
    }

    /// The game of item `i`, if it has one.
    fn game(&self, i: usize) -> Option<i64> {
        let p = self.profile.as_ref()?;
        match p.bests.get(i) {
            Some(b) => b.game,
            None => p.recent.get(i - p.bests.len()).map(|g| g.game),
        }
    }

    pub fn handle(&mut self, ev: KeyEvent) -> ProfileAction {
        if is_ctrl(ev, 'c') {
            return ProfileAction::AskQuit;
        }
        if ev.kind == KeyKind::Release || ev.mods.ctrl || ev.mods.alt {
            return ProfileAction::None;
        }
        let n = self.items();
        match ev.key {
            Key::Esc | Key::Backspace => ProfileAction::Back,
            Key::Down | Key::Char('j' | 's') if self.cursor + 1 < n => {
                self.cursor += 1;
                ProfileAction::Moved
            }
            Key::Up | Key::Char('k' | 'w') if self.cursor > 0 => {
                self.cursor -= 1;
                ProfileAction::Moved
            }
            Key::Enter | Key::Char(' ') if n > 0 => match self.game(self.cursor) {
                Some(g) => {
                    self.note = Some("Loading the replay...".into());
                    ProfileAction::Replay(g)
                }
                None => {
                    self.note = Some("No replay for this one.".into());
                    ProfileAction::Moved
                }
            },
            Key::Enter if self.guest || matches!(self.load, Load::Offline) => ProfileAction::Back,
            _ => ProfileAction::None,
        }
    }

    pub fn arrived(&mut self, p: &Profile) {
        let mut p = p.clone();
        p.name = sanitize(&p.name);
        for b in &mut p.bests {
            b.best = b.best.as_deref().map(clean);
        }
        for g in &mut p.recent {
            g.result = clean(&g.result);
            g.outcome = clean(&g.outcome);
        }
        self.profile = Some(p);
        self.load = Load::Ready;
        self.cursor = self.cursor.min(self.items().saturating_sub(1));
    }
}

/// Draws the profile screen.
#[derive(Debug)]
pub struct ProfileView<'a> {
    pub state: &'a ProfileScreen,
    pub theme: Theme,
}

impl Widget for &ProfileView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let theme = self.theme;
        let s = self.state;
        let r = draw::centered(area, 78, 24);
        let inner = draw::frame(buf, r, theme, "PROFILE", theme.dim());
        let body = inner.inner(Margin::new(2, 0));
        let hint = "Up/Down choose   Enter watch   Esc back";
        let message = if s.guest {
            Some(
                "You are playing as a guest: nothing is stored. Connect with an SSH key \
                 (ssh -i ~/.ssh/id_ed25519 ...) to save your games, keep your settings and \
                 enter the leaderboards.",
            )
        } else {
            load_message(&s.load)
        };
        let Some(p) = s.profile.as_ref().filter(|_| message.is_none()) else {
            let style = match s.load {
                Load::Failed(_) => theme.bad(),
                _ => theme.text(),
            };
            draw::wrapped(buf, body, inner.y + 3, message.unwrap_or(""), style);
            draw::hint(buf, inner, "Esc back", theme);
            return;
        };
        draw::put(buf, body, body.x, inner.y, &p.name, theme.title());
        if let Some((rating, deviation, games)) = p.rating {
            let line =
                sfmt!(64; "Versus rating {:.0} (+/-{:.0}, {} games)", rating, deviation, games);
            draw::put_right(buf, body, inner.y, line.as_str(), theme.accent());
        }
        // Bests.
        let y = inner.y + 2;
        draw::put(buf, body, body.x, y, "BESTS", theme.dim());
        if !s.local {
            draw::put_right(buf, body, y, "global rank", theme.dim());
        }
        for (i, b) in p.bests.iter().enumerate() {
            let y = y + 1 + i as u16;
            let style = if i == s.cursor {
                theme.selected()
            } else {
                theme.text()
            };
            let line = Rect::new(body.x, y, body.width, 1).intersection(body);
            for x in line.left()..line.right() {
                draw::put(buf, line, x, y, " ", style);
            }
            draw::put(buf, line, line.x, y, b.mode.title(), style);
            draw::put(buf, line, line.x + 10, y, ruleset_name(b.ruleset), style);
            let best = b.best.as_deref().unwrap_or("-");
            draw::put(buf, line, line.x + 22, y, best, style);
            let rank = match b.rank {
                Some(r) => sfmt!(24; "#{}", r),
                None => sfmt!(24; "-"),
            };
            draw::put_right(buf, line, y, rank.as_str(), style);
        }
        // Recent games, scrolled to keep the cursor in view.
        let y = y + 2 + p.bests.len() as u16;
        draw::put(buf, body, body.x, y, "RECENT GAMES", theme.dim());
        let rows = inner.bottom().saturating_sub(y + 3);
        let list = Rect::new(body.x, y + 1, body.width, rows).intersection(body);
        if p.recent.is_empty() {
            draw::put(buf, list, list.x, list.y, "No games yet.", theme.dim());
        }
        let selected = s.cursor.checked_sub(p.bests.len());
        let first = selected.map_or(0, |c| (c + 1).saturating_sub(usize::from(rows)));
        for (i, g) in p.recent.iter().enumerate().skip(first) {
            let y = list.y + (i - first) as u16;
            if y >= list.bottom() {
                break;
            }
            let style = if Some(i) == selected {
                theme.selected()
            } else {
                theme.text()
            };
            let line = Rect::new(list.x, y, list.width, 1);
            for x in line.left()..line.right() {
                draw::put(buf, line, x, y, " ", style);
            }
            draw::put(buf, line, line.x, y, g.mode.title(), style);
            draw::put(buf, line, line.x + 10, y, ruleset_name(g.ruleset), style);
            draw::put(buf, line, line.x + 22, y, &g.result, style);
            draw::put(buf, line, line.x + 40, y, &g.outcome, style);
            draw::put_right(buf, line, y, date(g.ended_at).as_str(), style);
        }
        if let Some(n) = &s.note {
            let y = inner.bottom().saturating_sub(2);
            draw::put_centered(buf, inner, y, n, theme.dim());
        }
        draw::hint(buf, inner, hint, theme);
    }
}
