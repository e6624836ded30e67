//! A ghost race on the game screen: the ghost's board beside the player's (the setting
//! [`GhostView::Beside`], where the terminal has room for it) or an outline of its stack on the
//! player's board, and the split in the left column under the action text ("GHOST bob",
//! "+3 lines", "-1.2 s at 20 lines", "not ranked").

use minotty_engine::Game;
use minotty_engine::board::{BUFFER_HEIGHT, Cell, VISIBLE_HEIGHT, WIDTH};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use crate::draw;
use crate::session::{GameSession, GhostRun, lines_text, time_text};
use crate::settings::{GhostView, Settings};
use crate::theme::Theme;
use crate::widgets::board::Scale;
use crate::widgets::mini_board::{self, Framing};
use crate::widgets::stats::ACTION_ROWS;

/// Where the ghost's board goes beside a game screen of `width` x `height` at `scale` on an
/// `area`-sized terminal: its scale (the player's where it fits, else 1x), or `None` (no ghost,
/// the outline setting, or no room: the outline then).
pub fn beside_scale(
    area: Rect,
    session: &GameSession,
    settings: &Settings,
    (width, height): (u16, u16),
    scale: Scale,
) -> Option<Scale> {
    session.ghost_run()?;
    if settings.ghost_view != GhostView::Beside {
        return None;
    }
    [scale, Scale::ONE].into_iter().find(|&s| {
        let (w, h) = mini_board::full_size(s);
        width.saturating_add(1 + w) <= area.width && h + 2 <= height
    })
}

/// The columns the ghost's board adds beside the game screen (0 without one).
pub fn beside_width(beside: Option<Scale>) -> u16 {
    beside.map_or(0, |s| 1 + mini_board::full_size(s).0)
}

/// Draws the ghost's board at the top-left of `at`, named, the lines split in its bottom edge.
pub fn draw_beside(buf: &mut Buffer, at: Rect, run: &GhostRun, t: u64, scale: Scale, theme: Theme) {
    let split = run.split(t);
    let footer = lines_text(&split);
    let framing = Framing {
        title: "GHOST",
        footer: footer.as_str(),
        style: theme.dim(),
    };
    mini_board::full(buf, at, run.board(), theme, framing, scale);
}

/// Draws the ghost's stack as an outline on the player's board (`cells`: its cells' area at
/// `scale`), where the player's own board is empty.
pub fn draw_outline(
    buf: &mut Buffer,
    cells: Rect,
    game: &Game,
    run: &GhostRun,
    scale: Scale,
    theme: Theme,
) {
    let k = scale.k();
    let rows = (k / 2).max(1);
    let glyph = if theme.graphics == crate::settings::Graphics::Unicode {
        "░"
    } else {
        ":"
    };
    let active = game.active().map(|a| a.placed.cells());
    for y in 0..VISIBLE_HEIGHT {
        for x in 0..WIDTH {
            if mini_board::cell(run.board(), x, y) == 0 {
                continue;
            }
            let by = BUFFER_HEIGHT + y;
            let covered = active.is_some_and(|c| {
                c.iter()
                    .any(|&(cx, cy)| usize::try_from(cx) == Ok(x) && usize::try_from(cy) == Ok(by))
            });
            if covered || game.board().cell(x, by) != Cell::Empty {
                continue;
            }
            let sx = cells.x.saturating_add(x as u16 * k);
            let sy = cells.y.saturating_add(y as u16 * rows);
            for dy in 0..rows {
                for dx in 0..k {
                    let (px, py) = (sx.saturating_add(dx), sy.saturating_add(dy));
                    draw::put_narrow(buf, cells, px, py, glyph, theme.dim());
                }
            }
        }
    }
}

/// Draws the split in `column` (the left column's rows under the stats, action text first):
/// from the row after the action text down, as many of its four lines as fit.
pub fn draw_split(buf: &mut Buffer, column: Rect, session: &GameSession, name: &str, theme: Theme) {
    let Some(run) = session.ghost_run() else {
        return;
    };
    let t = session.game_time();
    let split = run.split(t);
    let y = column.y.saturating_add(ACTION_ROWS);
    let lines = lines_text(&split);
    let time = time_text(&split, usize::from(column.width));
    let ahead = |d: i64| {
        if d > 0 {
            theme.good()
        } else if d < 0 {
            theme.bad()
        } else {
            theme.dim()
        }
    };
    let x = draw::put(buf, column, column.x, y, "GHOST ", theme.dim());
    draw::put(buf, column, x, y, name, theme.title());
    draw::put(
        buf,
        column,
        column.x,
        y + 1,
        lines.as_str(),
        ahead(split.lines),
    );
    let time_style = split.time.map_or(theme.dim(), |(_, d)| ahead(-d));
    draw::put(buf, column, column.x, y + 2, time.as_str(), time_style);
    draw::put(buf, column, column.x, y + 3, "not ranked", theme.dim());
}
