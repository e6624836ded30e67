//! The statistics beside the board, fitted to the mode (a goal shows as "12/40"; a time limit
//! as time left), and the action text of the last clear.

use minotty_engine::{Game, Limit, Piece, Stat, Stats, Time};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

use crate::draw;
use crate::figures::pps;
use crate::session::{Effects, clear_name};
use crate::text::{StackStr, running_clock, sfmt};
use crate::theme::Theme;

/// Rows the statistics take at most.
pub const STATS_ROWS: u16 = 7;
/// Rows the action text takes at most.
pub const ACTION_ROWS: u16 = 5;

/// Draws the statistics of a game at game time `t`.
#[derive(Debug)]
pub struct StatsView<'a> {
    pub game: &'a Game,
    pub t: Time,
    /// When the last piece locked: pieces per second are the pieces over the time to their
    /// last lock, a figure that changes once a piece (`None`: over `t`).
    pub last_lock: Option<Time>,
    /// The last 5 and the last 10 pieces and the time each took (`Effects::recent_pieces`):
    /// pieces per second over them, shown in the last row where a mode leaves it free.
    pub recent: [Option<(u32, u64)>; 2],
    pub theme: Theme,
}

type Value = StackStr<24>;

/// `value`, or `value/goal` when the mode's goal watches `stat`.
fn with_goal(value: u64, stat: Stat, goal: Option<Limit>) -> Value {
    match goal {
        Some(g) if g.stat == stat => sfmt!(24; "{}/{}", value, g.value),
        _ => sfmt!(24; "{}", value),
    }
}

impl StatsView<'_> {
    /// The rows to show: label and value.
    pub fn rows(&self) -> [Option<(&'static str, Value)>; STATS_ROWS as usize] {
        let game = self.game;
        let s = game.stats();
        let goal = game.mode().goal();
        let step = crate::session::clock_step_ms(game.mode());
        let time = match game.mode().time_limit() {
            Some(limit) => (
                "LEFT",
                sfmt!(24; "{}", running_clock(limit.saturating_sub(self.t), step).as_str()),
            ),
            None => (
                "TIME",
                sfmt!(24; "{}", running_clock(self.t, step).as_str()),
            ),
        };
        if let Some(d) = game.descent() {
            // Descent: no lines, pieces or levels to speak of.
            return [
                Some(("GEMS", sfmt!(24; "{}", d.gems()))),
                Some((
                    if d.climbing() { "HEIGHT" } else { "DEPTH" },
                    sfmt!(24; "{}", d.depth()),
                )),
                Some(time),
                None,
                None,
                None,
                None,
            ];
        }
        let special = if goal.is_some_and(|g| g.stat == Stat::GarbageCleared) {
            Some((
                "DUG",
                with_goal(u64::from(s.garbage_cleared), Stat::GarbageCleared, goal),
            ))
        } else if game.mode().end_on_no_clear {
            let combo = game.combo().unwrap_or(0);
            Some(("COMBO", sfmt!(24; "{} (best {})", combo, s.max_combo)))
        } else {
            self.recent_pps()
        };
        if let Some(p) = game.puzzle_state() {
            let stages = u64::from(minotty_engine::puzzle::STAGE_COUNT);
            return [
                Some(("STAGE", sfmt!(24; "{}/{}", p.stage, stages))),
                Some((
                    "ATTEMPT",
                    sfmt!(24; "{}/{}", p.attempt, minotty_engine::puzzle::MAX_ATTEMPTS),
                )),
                Some(("SCORE", sfmt!(24; "{}", s.score))),
                Some(time),
                Some(("PIECES", sfmt!(24; "{}", s.pieces))),
                Some((
                    "PIECES LEFT",
                    sfmt!(24; "{}", game.preview().count() + usize::from(game.active().is_some())),
                )),
                None,
            ];
        }
        [
            Some(("LEVEL", with_goal(u64::from(s.level), Stat::Level, goal))),
            Some(("LINES", with_goal(u64::from(s.lines), Stat::Lines, goal))),
            Some(("SCORE", with_goal(s.score, Stat::Score, goal))),
            Some(time),
            Some(("PIECES", with_goal(u64::from(s.pieces), Stat::Pieces, goal))),
            Some((
                "PPS",
                sfmt!(24; "{}", pps(s.pieces, self.last_lock.unwrap_or(self.t)).as_str()),
            )),
            special,
        ]
    }
}

impl StatsView<'_> {
    /// Pieces per second over the last 5 and 10 pieces, once 5 are locked (`-` for 10 until
    /// then), one decimal each: `PPS 5/10   2.4 2.1`.
    fn recent_pps(&self) -> Option<(&'static str, Value)> {
        let [Some(five), ten] = self.recent else {
            return None;
        };
        let rate = |(n, ms): (u32, u64)| crate::figures::pps_short(n, ms);
        let ten = ten.map(rate);
        let ten = ten.as_ref().map_or("-", StackStr::as_str);
        Some(("PPS 5/10", sfmt!(24; "{} {}", rate(five).as_str(), ten)))
    }

    /// Draws the rows `step` rows apart (1: one under the other; 2 beside a 2x board, which
    /// spreads them along it).
    pub fn render_spaced(&self, area: Rect, buf: &mut Buffer, step: u16) {
        let styles = [self.theme.dim(), self.theme.text()];
        for (i, row) in self.rows().iter().flatten().enumerate() {
            let y = area.y.saturating_add(i as u16 * step.max(1));
            draw::put_row(buf, area, y, row.0, row.1.as_str(), styles);
        }
    }
}

impl Widget for &StatsView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        self.render_spaced(area, buf, 1);
    }
}

/// The locked pieces of each type as a column, one row each ("I   12"), the letter in the
/// piece's colour; as many rows as fit.
#[derive(Debug)]
pub struct PieceCountsView<'a> {
    pub stats: &'a Stats,
    pub theme: Theme,
}

impl PieceCountsView<'_> {
    /// The columns the view needs: a letter, a space and up to five digits.
    pub const MIN_W: u16 = 7;
}

impl Widget for &PieceCountsView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        for (i, p) in Piece::ALL.into_iter().enumerate() {
            let y = area.y.saturating_add(i as u16);
            if y >= area.bottom() {
                break;
            }
            draw::put(buf, area, area.x, y, piece_letter(p), self.theme.piece(p));
            let n = sfmt!(16; "{}", self.stats.locked(p));
            draw::put_right(buf, area, y, n.as_str(), self.theme.text());
        }
    }
}

/// A piece's name letter.
pub fn piece_letter(p: Piece) -> &'static str {
    match p {
        Piece::I => "I",
        Piece::O => "O",
        Piece::T => "T",
        Piece::S => "S",
        Piece::Z => "Z",
        Piece::J => "J",
        Piece::L => "L",
    }
}

/// The locked pieces of each type on one row centred in `area` ("I 12  O 10  T 9 ..."), the
/// letters in the pieces' colours; the gaps narrow to one space when two do not fit.
pub fn piece_counts_line(buf: &mut Buffer, area: Rect, y: u16, stats: &Stats, theme: Theme) {
    let counts = Piece::ALL.map(|p| sfmt!(16; "{}", stats.locked(p)));
    let items: u16 = counts.iter().map(|c| 2 + draw::width(c.as_str())).sum();
    let gap = if items + 12 <= area.width { 2 } else { 1 };
    let total = items + gap * 6;
    let mut x = area.x + area.width.saturating_sub(total) / 2;
    for (p, n) in Piece::ALL.into_iter().zip(&counts) {
        x = draw::put(buf, area, x, y, piece_letter(p), theme.piece(p));
        x = draw::put(buf, area, x, y, " ", theme.text());
        x = draw::put(buf, area, x, y, n.as_str(), theme.text());
        x = x.saturating_add(gap);
    }
}

/// Draws the action text of the last clear ("T-SPIN DOUBLE", "B2B", "3 COMBO", ...) and
/// level-ups while they show.
#[derive(Debug)]
pub struct ActionView<'a> {
    pub fx: &'a Effects,
    pub t: Time,
    pub theme: Theme,
}

impl Widget for &ActionView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let theme = self.theme;
        let mut y = area.y;
        let mut line = |s: &str, style| {
            if !s.is_empty() {
                draw::put(buf, area, area.x, y, s, style);
                y = y.saturating_add(1);
            }
        };
        if let Some((c, piece)) = self.fx.action(self.t) {
            line(clear_name(c, piece).as_str(), theme.accent());
            if c.b2b {
                line("B2B", theme.accent());
            }
            if c.combo > 0 {
                line(sfmt!(16; "{} COMBO", c.combo).as_str(), theme.accent());
            }
            if c.perfect {
                line("PERFECT CLEAR", theme.good());
            }
        }
        if let Some((stage, attempt)) = self.fx.stage(self.t) {
            let text = if attempt <= 1 {
                sfmt!(24; "STAGE {}", stage)
            } else {
                sfmt!(24; "ATTEMPT {}/{}", attempt, minotty_engine::puzzle::MAX_ATTEMPTS)
            };
            line(text.as_str(), theme.good());
        }
        if let Some(level) = self.fx.level_up(self.t) {
            line(sfmt!(16; "LEVEL {}", level).as_str(), theme.good());
        }
    }
}

#[cfg(test)]
mod tests {
    use minotty_engine::{Clear, Event, EventKind, Spin};
    use ratatui::buffer::Buffer;

    use super::*;
    use crate::settings::Settings;
    use crate::testutil::lines;

    fn action_text(clear: Clear, t: Time) -> Vec<String> {
        let mut fx = Effects::default();
        fx.absorb(&[Event {
            time: 1000,
            kind: EventKind::LineClear(clear),
        }]);
        let theme = Theme::new(&Settings::default());
        let mut buf = Buffer::empty(Rect::new(0, 0, 18, ACTION_ROWS));
        (&ActionView { fx: &fx, t, theme }).render(buf.area, &mut buf);
        lines(&buf)
            .iter()
            .map(|l| l.trim_end().to_string())
            .collect()
    }

    #[test]
    fn action_text_names_the_clear() {
        let clear = Clear {
            rows: 0,
            lines: 4,
            spin: Spin::None,
            combo: 3,
            b2b: true,
            perfect: true,
            score: 0,
            attack: 0,
        };
        assert_eq!(
            action_text(clear, 1000),
            ["TETRIS", "B2B", "3 COMBO", "PERFECT CLEAR", ""]
        );
        let tsd = Clear {
            lines: 2,
            spin: Spin::Full,
            combo: 0,
            b2b: false,
            perfect: false,
            ..clear
        };
        assert_eq!(action_text(tsd, 2999)[0], "T-SPIN DOUBLE");
        assert_eq!(action_text(tsd, 3000)[0], "", "gone after two seconds");
    }

    #[test]
    fn a_spin_is_named_after_the_piece_that_locked() {
        use minotty_engine::{Piece, Placed, Rotation};
        let lock = |piece| Event {
            time: 1000,
            kind: EventKind::Lock {
                at: Placed {
                    piece,
                    rotation: Rotation::North,
                    x: 3,
                    y: 30,
                },
                spin: Spin::Full,
            },
        };
        let clear = Clear {
            rows: 0,
            lines: 2,
            spin: Spin::Full,
            combo: 0,
            b2b: false,
            perfect: false,
            score: 0,
            attack: 0,
        };
        let theme = Theme::new(&Settings::default());
        for (piece, name) in [(Piece::L, "L-SPIN DOUBLE"), (Piece::T, "T-SPIN DOUBLE")] {
            let mut fx = Effects::default();
            let events = [
                lock(piece),
                Event {
                    time: 1000,
                    kind: EventKind::LineClear(clear),
                },
            ];
            fx.absorb(&events);
            let mut buf = Buffer::empty(Rect::new(0, 0, 18, ACTION_ROWS));
            (&ActionView {
                fx: &fx,
                t: 1000,
                theme,
            })
                .render(buf.area, &mut buf);
            assert_eq!(lines(&buf)[0].trim_end(), name);
        }
    }
}
