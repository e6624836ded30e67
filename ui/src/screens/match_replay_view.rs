//! Draws the match replay viewer: a title row, every seat's board in the versus screen's grid
//! (full boards at the largest scale that fits, else minis or micros: `versus_layout.rs`), the
//! clock and the keys. A seat that is not played carries its note over its board.

use minotty_engine::versus::MatchKind;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

use super::match_replay::MatchReplayScreen;
use super::versus_layout::{draw_others, layout};
use crate::draw;
use crate::text::{clock, sfmt};
use crate::theme::Theme;
use crate::widgets::board::Scale;

/// Draws a match replay being watched.
#[derive(Debug)]
pub struct MatchReplayView<'a> {
    pub state: &'a MatchReplayScreen,
    pub theme: Theme,
}

/// Seats drawn at most (the screen keeps no more).
const SEATS: usize = minotty_protocol::MAX_MATCH_SEATS;

impl Widget for &MatchReplayView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let (s, theme) = (self.state, self.theme);
        if area.height < 4 || area.width < 8 {
            return;
        }
        let sep = sfmt!(8; " {} ", theme.dot());
        let sep = sep.as_str();
        let (x0, y0) = (area.x + 1, area.y);
        let x = draw::put(buf, area, x0, y0, "MATCH REPLAY", theme.accent());
        let x = draw::put(buf, area, x, y0, sep, theme.dim());
        let id = sfmt!(32; "m{}", s.id);
        let x = draw::put(buf, area, x, y0, id.as_str(), theme.title());
        let x = draw::put(buf, area, x, y0, sep, theme.dim());
        let kind = match (s.kind, s.ranked) {
            (MatchKind::Battle, true) => "ranked battle",
            (MatchKind::Battle, false) => "battle",
            (MatchKind::Race, true) => "ranked race",
            (MatchKind::Race, false) => "race",
        };
        let x = draw::put(buf, area, x, y0, kind, theme.text());
        let x = draw::put(buf, area, x, y0, sep, theme.dim());
        let speed = sfmt!(8; "{}x", s.speed());
        let x = draw::put(buf, area, x, y0, speed.as_str(), theme.accent());
        let x = draw::put(buf, area, x, y0, sep, theme.dim());
        let progress = sfmt!(40; "{} / {}", clock(s.position()).as_str(), clock(s.end()).as_str());
        let x = draw::put(buf, area, x, y0, progress.as_str(), theme.text());
        let state = match (s.finished(), s.paused, s.film) {
            (true, _, true) => "  FINISHED",
            (true, _, false) => "  FINISHED: Enter watch again",
            (false, true, _) => "  PAUSED",
            _ => "",
        };
        draw::put(buf, area, x, y0, state, theme.accent());

        // The settings that differ from the defaults under the title, where there is room.
        let top = match &s.settings {
            Some(line) if area.height >= 10 => {
                draw::put_centered(buf, area, y0 + 1, line, theme.dim());
                2
            }
            _ => 1,
        };
        // The grid, centred, between the title and the keys.
        let grid = Rect::new(area.x, area.y + top, area.width, area.height - top - 1);
        let n = s.views().len().min(SEATS);
        let plan = layout(n, grid.width, grid.height, Scale::MAX);
        let (cw, _) = plan.0.cell();
        let used = (cw * plan.1).saturating_sub(1).min(grid.width);
        let at = Rect {
            x: grid.x + (grid.width - used) / 2,
            width: used.max(1),
            ..grid
        };
        let seats = &s.seats[..n.min(s.seats.len())];
        let boards = draw_others(buf, at, &s.views()[..n], plan, s.kind, theme);
        for (seat, b) in seats.iter().zip(&boards) {
            let Some(note) = &seat.note else {
                continue;
            };
            let (title, rest) = match note.split_once(": ") {
                Some((_, why)) => ("UNVERIFIED", why),
                None => ("NO REPLAY", ""),
            };
            draw::clear(buf, *b);
            draw::put_centered(buf, *b, b.y + b.height / 2, title, theme.bad());
            // The reason, where the board is wide enough to read it.
            if !rest.is_empty() && b.width >= 14 {
                draw::wrapped(buf, *b, b.y + b.height / 2 + 1, rest, theme.dim());
            }
        }

        let footer = if s.film {
            "minotty match replay"
        } else {
            "Space pause   +/- speed   </> seek 5s   r restart   Esc back"
        };
        draw::put_centered(buf, area, area.bottom() - 1, footer, theme.dim());
    }
}

/// A stored match drawn at any match time without a clock or keys: the match replay viewer's
/// screen for a recording (`ssh HOST replay mN --cast`). minotty_engine::Time only moves forward.
#[derive(Clone, Debug)]
pub struct MatchFilm {
    screen: MatchReplayScreen,
}

impl MatchFilm {
    pub fn new(m: &minotty_protocol::MatchReplay) -> MatchFilm {
        MatchFilm {
            screen: MatchReplayScreen::for_film(m),
        }
    }

    /// The match time shown.
    pub fn position(&self) -> minotty_engine::Time {
        self.screen.position()
    }

    /// The longest seat's end.
    pub fn end(&self) -> minotty_engine::Time {
        self.screen.end()
    }

    pub fn finished(&self) -> bool {
        self.screen.finished()
    }

    /// Plays on to match time `t` (at most the end).
    pub fn advance_to(&mut self, t: minotty_engine::Time) {
        self.screen.film_to(t);
    }

    /// The next match time at which anything shown can change (`None`: at the end).
    pub fn next_change(&self) -> Option<minotty_engine::Time> {
        self.screen.wakeup()
    }

    /// Draws the screen as the viewer does.
    pub fn render(
        &self,
        area: ratatui::layout::Rect,
        buf: &mut ratatui::buffer::Buffer,
        settings: &crate::Settings,
    ) {
        let theme = crate::theme::Theme::new(settings);
        MatchReplayView {
            state: &self.screen,
            theme,
        }
        .render(area, buf);
    }
}
