//! The table of a race's results: what a race measures, and nothing of attack (a race sends
//! no garbage). Each player's place, their finish time when they reached the goal (else the
//! lines they cleared), and their pieces per second.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;

use crate::draw;
use crate::figures::pps;
use crate::text::{StackStr, sfmt};
use crate::theme::Theme;
use minotty_protocol::{MatchResult, ResultRow};

/// The lines a race is run to (the room's goal for a race).
pub const RACE_LINES: u32 = 40;

/// Rows of players a table shows.
pub const MAX_ROWS: usize = 8;

/// The table's width: place, name, finish, pace and "left".
const TABLE_W: u16 = 3 + 1 + 12 + 1 + 10 + 1 + 6 + 5;

/// A row's finish: the time when the player reached the goal, else their lines.
pub fn finish(row: &ResultRow) -> StackStr<16> {
    if row.lines >= RACE_LINES && row.time_ms > 0 {
        crate::figures::time(row.time_ms)
    } else if row.lines == 1 {
        sfmt!(16; "1 line")
    } else {
        sfmt!(16; "{} lines", row.lines)
    }
}

/// A row's pieces per second, from its counts where the server sent them.
pub fn row_pps(row: &ResultRow) -> StackStr<16> {
    if row.time_ms > 0 {
        pps(row.pieces, row.time_ms)
    } else {
        sfmt!(16; "{:.2}", row.pieces_per_second)
    }
}

/// Draws the race's table in `table` (its header, then one row per player, at most
/// [`MAX_ROWS`]). Returns the row under the last one drawn.
pub fn draw_table(buf: &mut Buffer, area: Rect, res: &MatchResult, theme: Theme) -> u16 {
    // Centred: the table is narrow.
    let table = draw::centered(area, TABLE_W.min(area.width), area.height);
    let header = sfmt!(64; "{:>3} {:<12} {:>10} {:>6}", "#", "Player", "Finish", "PPS");
    draw::put(buf, table, table.x, table.y, header.as_str(), theme.dim());
    let mut y = table.y + 1;
    for row in res.rows.iter().take(MAX_ROWS) {
        let style = draw_place_and_name(buf, table, y, res, row, theme);
        let nums = sfmt!(32; "{:>10} {:>6}", finish(row).as_str(), row_pps(row).as_str());
        let x = draw::put(buf, table, table.x + 17, y, nums.as_str(), style);
        if row.forfeited {
            draw::put(buf, table, x + 1, y, "left", theme.bad());
        }
        y += 1;
    }
    y
}

/// A results row's first columns on row `y` of `table`: the place (3 wide) and the name (12
/// wide, cut), in the title style on the player's own row. Returns the row's style for the
/// columns after them (the race and battle tables alike).
pub fn draw_place_and_name(
    buf: &mut Buffer,
    table: Rect,
    y: u16,
    res: &MatchResult,
    row: &ResultRow,
    theme: Theme,
) -> Style {
    let mine = res.you == Some(row.seat);
    let style = if mine { theme.title() } else { theme.text() };
    // A match of teams: the place and the team's letter (" 1A").
    let place = match res.teams.get(row.seat) {
        Some(&t) => sfmt!(8; "{:>2}{}", row.place, minotty_engine::versus::teams::letter(t)),
        None => sfmt!(8; "{:>3}", row.place),
    };
    draw::put(buf, table, table.x, y, place.as_str(), style);
    let name = Rect::new(table.x + 4, y, 12, 1).intersection(table);
    draw::put(buf, name, name.x, y, &row.name, style);
    style
}
