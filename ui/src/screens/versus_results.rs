//! The results of a versus match: placements with each player's numbers, the ranked rating
//! change, each player's attack per minute over the match as a chart (where it fits), and
//! what next (rematch, back to the room, leave).

use minotty_engine::versus::{MatchKind, teams};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;

use super::{Nav, nav, wrap};
use crate::draw;
use crate::keys::KeyEvent;
use crate::screens::race_results;
use crate::screens::versus_menu::arrow;
use crate::text::{StackStr, sfmt};
use crate::theme::Theme;
use crate::widgets::charts::{AttackTimeline, ChartView, MAX_SERIES, MIN_CHART, Series};
use minotty_protocol::MatchResult;

pub const ITEMS: [&str; 3] = ["Rematch", "Back to room", "Leave"];
/// What a spectator can do next: no rematch (they did not play), the room's next match, or
/// leave.
pub const SPECTATOR_ITEMS: [&str; 2] = ["Keep watching", "Leave"];

/// The menu of a player (`spectator` false) or a spectator.
pub fn items(spectator: bool) -> &'static [&'static str] {
    if spectator { &SPECTATOR_ITEMS } else { &ITEMS }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResultsAction {
    None,
    Moved,
    Rematch,
    Room,
    Leave,
}

/// Handles a key: Up/Down choose, Enter selects, `r` rematch, Esc back to the room. A
/// `spectator` is offered no rematch: "Keep watching" is the room.
pub fn handle(cursor: &mut usize, ev: KeyEvent, spectator: bool) -> ResultsAction {
    if !spectator
        && ev.kind == crate::keys::KeyKind::Press
        && !ev.mods.ctrl
        && matches!(ev.key, crate::keys::Key::Char('r' | 'R'))
    {
        return ResultsAction::Rematch;
    }
    let n = items(spectator).len();
    match nav(ev) {
        Some(Nav::Up | Nav::Left) => *cursor = wrap(*cursor, n, false),
        Some(Nav::Down | Nav::Right) => *cursor = wrap(*cursor, n, true),
        Some(Nav::Back) => return ResultsAction::Room,
        Some(Nav::Select) => {
            return match (spectator, *cursor) {
                (false, 0) => ResultsAction::Rematch,
                (false, 1) | (true, 0) => ResultsAction::Room,
                _ => ResultsAction::Leave,
            };
        }
        None => return ResultsAction::None,
    }
    ResultsAction::Moved
}

/// A rating change, rounded as shown: `(before, after, signed change)`.
pub fn rating_change(before: f64, after: f64) -> (i64, i64, StackStr<16>) {
    let (b, a) = (before.round() as i64, after.round() as i64);
    (b, a, sfmt!(16; "{:+}", a - b))
}

#[derive(Debug)]
pub struct ResultsView<'a> {
    pub result: &'a MatchResult,
    pub cursor: usize,
    pub message: &'a str,
    pub theme: Theme,
    /// Attack sent over the match by seat, for the chart.
    pub attack: &'a AttackTimeline,
    /// The room's settings that differ from the defaults, in one line (`None`: all default).
    pub settings: Option<&'a str>,
}

/// The rows charted: placement order, at most [`MAX_SERIES`], the player's own always among
/// them.
fn charted(res: &MatchResult) -> Vec<&minotty_protocol::ResultRow> {
    let mut rows: Vec<_> = res.rows.iter().take(MAX_SERIES).collect();
    if let Some(own) = res
        .rows
        .iter()
        .skip(MAX_SERIES)
        .find(|r| Some(r.seat) == res.you)
        && let Some(last) = rows.last_mut()
    {
        *last = own;
    }
    rows
}

fn minutes(secs: f64) -> String {
    let s = secs.max(0.0).round() as u64;
    format!("{}:{:02}", s / 60, s % 60)
}

/// The series' running score in one line: each player's game wins (in seat order) and what
/// the series needs, or who won it.
pub fn series_line(res: &MatchResult, score: &minotty_protocol::SeriesScore) -> String {
    // With teams the score is by team (`wins[team]`), named by letter.
    let team_names: Vec<String> = (0..score.wins.len().min(8))
        .map(|t| format!("Team {}", teams::letter(t as u8)))
        .collect();
    let mut by_seat: Vec<(usize, &str)> = if res.teams.is_empty() {
        res.rows.iter().map(|r| (r.seat, r.name.as_str())).collect()
    } else {
        (0..team_names.len())
            .filter(|&t| res.teams.contains(&(t as u8)))
            .map(|t| (t, team_names[t].as_str()))
            .collect()
    };
    by_seat.sort_unstable();
    let wins: Vec<String> = by_seat
        .iter()
        .take(8)
        .map(|&(seat, name)| format!("{name} {}", score.wins.get(seat).copied().unwrap_or(0)))
        .collect();
    let wins = wins.join(" - ");
    let winner = score
        .winner
        .and_then(|w| by_seat.iter().find(|&&(seat, _)| seat == w))
        .map(|&(_, name)| name);
    match (score.over, winner) {
        (true, Some(name)) => format!("Series: {wins}. {name} wins the series!"),
        (true, None) => format!("Series: {wins}. Over."),
        (false, _) if score.win_by > 1 => format!(
            "Series: {wins} (game {}, first to {}, win by {})",
            score.games, score.first_to, score.win_by
        ),
        (false, _) => format!(
            "Series: {wins} (game {}, first to {})",
            score.games, score.first_to
        ),
    }
}

impl Widget for &ResultsView<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let theme = self.theme;
        let res = self.result;
        let race = res.kind == MatchKind::Race;
        // A race sends no attack: no attack chart after it.
        let chart = !race && !self.attack.is_empty();
        // A taller and wider frame where the chart has room.
        let extra = if chart && area.height >= 36 {
            (area.height - 24).min(14)
        } else {
            0
        };
        let w = if chart && area.width >= 110 {
            100
        } else {
            area.width.clamp(60, 76)
        };
        let r = draw::centered(area, w, 24 + extra);
        let inner = draw::frame(buf, r, theme, "MATCH RESULTS", theme.dim());
        let you = res
            .you
            .and_then(|seat| res.rows.iter().find(|row| row.seat == seat));
        let (head, style) = match you {
            Some(row) if row.place == 1 && !res.teams.is_empty() => {
                ("Your team wins!", theme.good())
            }
            Some(row) if row.place == 1 => ("You win!", theme.good()),
            Some(row) => {
                let _ = row;
                ("Defeat", theme.bad())
            }
            None => ("Match over", theme.title()),
        };
        // With teams, who won is a team.
        let winners = res
            .rows
            .first()
            .filter(|r| r.place == 1)
            .and_then(|r| res.teams.get(r.seat));
        let head = match (you, res.kind, winners) {
            (Some(row), _, Some(&t)) if row.place != 1 => {
                sfmt!(32; "Defeat: team {} wins", teams::letter(t))
            }
            (None, _, Some(&t)) => sfmt!(32; "Team {} wins", teams::letter(t)),
            (Some(row), MatchKind::Race, None) if row.place != 1 => {
                sfmt!(32; "Place {} of {}", row.place, res.rows.len())
            }
            _ => sfmt!(32; "{}", head),
        };
        draw::put_centered(buf, inner, inner.y, head.as_str(), style);

        let table = Rect::new(inner.x + 1, inner.y + 2, inner.width.saturating_sub(2), 10);
        if race {
            race_results::draw_table(buf, table, res, theme);
        } else {
            battle_table(buf, table, res, theme);
        }
        let mut y = table.y + 2 + res.rows.len().min(8) as u16;
        if let Some((before, after)) = you.and_then(|row| row.rating) {
            let (b, a, change) = rating_change(before, after);
            let line = sfmt!(64; "Rating {} {} {}  ({})", b, arrow(theme), a, change.as_str());
            let style = if a >= b { theme.good() } else { theme.bad() };
            draw::put_centered(buf, inner, y, line.as_str(), style);
            y += 1;
        }
        if let Some(score) = &res.series {
            let line = series_line(res, score);
            draw::put_centered(buf, inner, y, &line, theme.title());
            y += 1;
        }
        if let Some(line) = self.settings {
            draw::put_centered(buf, inner, y, line, theme.dim());
            y += 1;
        }
        // The menu and its message right above the key hint: the rows between are the chart's.
        let menu_y = (y + 1).max(inner.bottom().saturating_sub(1 + MENU_ROWS));
        let chart_h = menu_y.saturating_sub(y + 1);
        // Never a chart too small to show every player it names (a sparkline shows one).
        if chart && chart_h >= MIN_CHART.1 {
            let rows = charted(res);
            let points: Vec<Vec<(f64, f64)>> =
                rows.iter().map(|row| self.attack.apm(row.seat)).collect();
            let series: Vec<Series<'_>> = rows
                .iter()
                .zip(&points)
                .map(|(row, points)| Series {
                    label: &row.name,
                    points,
                })
                .collect();
            let area = Rect::new(inner.x + 1, y, inner.width.saturating_sub(2), chart_h);
            ChartView {
                title: "ATTACK PER MINUTE",
                series: &series,
                x_label: minutes,
                y_label: |v| format!("{v:.0}"),
                from_zero: true,
                theme,
            }
            .render(area, buf);
        }
        let spectator = res.you.is_none();
        let items = items(spectator);
        draw::menu(
            buf,
            inner,
            menu_y,
            items.iter().copied(),
            self.cursor,
            theme,
        );
        if !self.message.is_empty() {
            let area = Rect::new(
                inner.x + 1,
                menu_y + items.len() as u16,
                inner.width.saturating_sub(2),
                1,
            );
            draw::put_centered(buf, area, area.y, self.message, theme.accent());
        }
        let hint = if spectator {
            "Enter select   v replay   Esc room"
        } else {
            "Enter select   r rematch   v replay   Esc room"
        };
        draw::hint(buf, inner, hint, theme);
    }
}

/// The rows under the chart: the menu and a message line.
const MENU_ROWS: u16 = ITEMS.len() as u16 + 1;

/// A battle's table: places with each player's numbers and rating change.
fn battle_table(buf: &mut Buffer, table: Rect, res: &MatchResult, theme: Theme) {
    let header = "  # Player       KOs   APM  PPS Lines Sent Recv";
    draw::put(buf, table, table.x, table.y, header, theme.dim());
    for (i, row) in res.rows.iter().enumerate().take(8) {
        let y = table.y + 1 + i as u16;
        let style = race_results::draw_place_and_name(buf, table, y, res, row, theme);
        let nums = sfmt!(64; "{:>3} {:>5.1} {:>4.2} {:>5} {:>4} {:>4}",
            row.kos, row.attack_per_minute, row.pieces_per_second, row.lines,
            row.attack_sent, row.garbage_received);
        let nx = table.x + 17;
        let x = draw::put(buf, table, nx, y, nums.as_str(), style);
        if row.forfeited {
            draw::put(buf, table, x + 1, y, "left", theme.bad());
        } else if let Some((b, a)) = row.rating {
            let (_, _, change) = rating_change(b, a);
            draw::put(buf, table, x + 1, y, change.as_str(), theme.dim());
        }
    }
}
