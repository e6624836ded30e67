//! Which cells of a frame are written: the changes against what the client shows (wide
//! characters kept whole), ordered by style, with short gaps filled in.

use ratatui::buffer::{Buffer, Cell};
use ratatui::style::{Color, Modifier};
use unicode_width::UnicodeWidthStr;

use super::shown::Shown;

/// The cells of `next` to write to the client, with their positions, and `shown` made equal
/// to `next` (each cell that differs copied over, in the same pass). A wide character covers
/// the cells after it; when a wide character is replaced, the cells it covered are rewritten.
///
/// `next` covers all of `shown` or a part of it (`next.area` inside `shown.area`, both where
/// the client shows them): only that part's cells are compared.
pub(super) fn take_changes<'a>(shown: &mut Shown, next: &'a Buffer) -> Vec<(u16, u16, &'a Cell)> {
    let mut out = Vec::new();
    if next.area.intersection(shown.area) != next.area {
        return out;
    }
    let width = usize::from(next.area.width.max(1));
    let shown_width = usize::from(shown.area.width);
    let (dx, dy) = (
        usize::from(next.area.x - shown.area.x),
        usize::from(next.area.y - shown.area.y),
    );
    // Where cell `i` of `next` is in `shown`.
    let at = |i: usize| (dy + i / width) * shown_width + dx + i % width;
    let len = next.content.len();
    let mut repaint_until = 0;
    // Cells covered by a wide character written this frame.
    let mut covered_until = 0;
    // Whether the cell before was the same in both before this frame.
    let mut previous_same = true;
    for i in 0..len {
        let (Some(new), j) = (next.content.get(i), at(i)) else {
            break;
        };
        if j >= shown.cells.len() {
            break;
        }
        let same = shown.same(j, new);
        // Widths are computed for changed cells only (most cells of a frame are unchanged).
        let mut old_width = 0;
        if !same {
            old_width = shown.symbol(j).width();
            shown.set(j, new);
        }
        let previous_was_same = std::mem::replace(&mut previous_same, same);
        if i < covered_until || i >= repaint_until && same {
            continue;
        }
        // The cell after an unchanged wide character is covered by it: writing there would
        // break the character on the client.
        if i % width != 0
            && i >= repaint_until
            && previous_was_same
            && next
                .content
                .get(i - 1)
                .is_some_and(|c| c.symbol().width() > 1)
        {
            continue;
        }
        let x = u16::try_from(i % width).unwrap_or(u16::MAX);
        let y = u16::try_from(i / width).unwrap_or(u16::MAX);
        out.push((
            next.area.x.saturating_add(x),
            next.area.y.saturating_add(y),
            new,
        ));
        let new_width = new.symbol().width().max(1);
        // An old wide character that starts under the new cell and reaches past it is erased
        // whole by the client when part of it is overwritten: the cells it covered beyond the
        // new cell are written again. (Cells after `i` are not updated yet: their old widths.)
        for k in 0..new_width {
            let old_width = if k == 0 {
                old_width
            } else {
                let j = at(i) + k;
                if j < shown.cells.len() {
                    shown.symbol(j).width()
                } else {
                    0
                }
            };
            if k + old_width > new_width {
                repaint_until = repaint_until.max(i + k + old_width);
            }
        }
        covered_until = i + new_width;
    }
    out
}

/// Orders changed cells by style (the style the client has now first, then the others in
/// order of first appearance, positions in order within a style). Every cell is written at an
/// explicit position, so the order is free, and a style switch (about 13 bytes) costs more
/// than the cell it colours: a moving piece and its ghost alternate piece and grid colours
/// cell by cell, which this turns into one switch each, and a frame whose changes include the
/// style the last frame ended with starts without a switch.
pub(super) fn group_by_style(
    cells: &mut [(u16, u16, &Cell)],
    current: Option<(Color, Color, Modifier)>,
) {
    let mut styles: Vec<(Color, Color, Modifier)> = Vec::new();
    if let Some(style) = current
        && cells
            .iter()
            .any(|(_, _, c)| (c.fg, c.bg, c.modifier) == style)
    {
        styles.push(style);
    }
    for (_, _, c) in cells.iter() {
        let style = (c.fg, c.bg, c.modifier);
        if !styles.contains(&style) {
            styles.push(style);
        }
    }
    if styles.len() > 1 {
        cells.sort_by_key(|(_, _, c)| styles.iter().position(|s| *s == (c.fg, c.bg, c.modifier)));
    }
}

/// Between two changed cells on a row, in the same style, unchanged cells of that style are
/// written again instead of skipped when that is shorter than `CSI n C` (a gap of one to three
/// narrow cells, e.g. the unchanged digit between two that changed).
pub(super) fn fill_gaps<'a>(cells: &mut Vec<(u16, u16, &'a Cell)>, next: &'a Buffer) {
    let mut out: Vec<(u16, u16, &'a Cell)> = Vec::with_capacity(cells.len() + 8);
    let style = |c: &Cell| (c.fg, c.bg, c.modifier);
    for (i, &(x, y, cell)) in cells.iter().enumerate() {
        if i > 0
            && let Some(&(px, py, prev)) = out.last()
        {
            let end = px.saturating_add(u16::try_from(prev.symbol().width().max(1)).unwrap_or(1));
            if py == y && x > end && x - end <= 3 && style(prev) == style(cell) {
                // The gap's cells, looked at in place (no allocation on the frame path).
                let gap = || (end..x).map(|gx| (gx, next.cell((gx, y))));
                let fits = gap().all(|(_, c)| {
                    c.is_some_and(|c| c.symbol().width() == 1 && style(c) == style(cell))
                });
                let bytes: usize = gap().filter_map(|(_, c)| c).map(|c| c.symbol().len()).sum();
                let skip = 3 + if x - end == 1 { 0 } else { 1 };
                if fits && bytes < skip {
                    out.extend(gap().filter_map(|(gx, c)| c.map(|c| (gx, y, c))));
                }
            }
        }
        out.push((x, y, cell));
    }
    *cells = out;
}
