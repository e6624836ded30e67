//! How the versus match screen lays out the other players' boards: full size at the largest
//! whole-cell scale that fits, else half-block minis, else braille micros, in a grid; and at
//! which scale the player's own board is drawn beside them. Minis and micros carry the
//! player's name above and their status below, never over the board's rows; names too long
//! for their cell are cut by display columns and kept apart ([`labels`]).

use minotty_domain::text::{fit_width, width};
use minotty_engine::versus::MatchKind;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use crate::draw;
use crate::screens::opponent_board::{draw_full, status};
use crate::screens::versus_own;
use crate::text::sfmt;
use crate::theme::Theme;
use crate::widgets::board::Scale;
use crate::widgets::garbage_meter;
use crate::widgets::mini_board::{self, MICRO_H, MICRO_W, MINI_H, MINI_W, full_size};
use minotty_protocol::OpponentView;

/// How the opponents' boards are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tier {
    /// Framed at full size, at a scale, with a garbage meter.
    Full(Scale),
    /// 10 x 10 half blocks between a name row and a status row.
    Mini,
    /// 5 x 5 braille between a name row and a status row.
    Micro,
}

impl Tier {
    /// The cell one board takes in the grid, gaps included.
    pub fn cell(self) -> (u16, u16) {
        match self {
            Tier::Full(s) => {
                let (w, h) = full_size(s);
                (1 + w + 1, h)
            }
            // The meter, the board, a gap; the name above, the status below.
            Tier::Mini => (1 + MINI_W + 1, MINI_H + 2),
            // The meter, the board and a column more for its status, a gap.
            Tier::Micro => (1 + MICRO_W + 2, MICRO_H + 2),
        }
    }

    /// Larger is better: full (any scale), mini, micro.
    fn rank(self) -> u8 {
        match self {
            Tier::Full(_) => 2,
            Tier::Mini => 1,
            Tier::Micro => 0,
        }
    }
}

/// The largest tier (full boards at most at `max`) that fits `n` boards in `w` x `h`, with
/// its columns and rows.
pub fn layout(n: usize, w: u16, h: u16, max: Scale) -> (Tier, u16, u16) {
    let fit = |tier: Tier| {
        let (cw, ch) = tier.cell();
        let cols = (w + 1) / cw;
        let rows = h / ch;
        (tier, cols, rows)
    };
    let tiers = Scale::offered()
        .filter(|&s| s <= max)
        .map(Tier::Full)
        .chain([Tier::Mini]);
    for tier in tiers {
        let (t, cols, rows) = fit(tier);
        if usize::from(cols) * usize::from(rows) >= n {
            let cols = cols.min(n as u16).max(1);
            return (t, cols, rows);
        }
    }
    let (t, cols, rows) = fit(Tier::Micro);
    (t, cols.min(n as u16).max(1), rows)
}

/// The player's board scale and the opponents' grid in `w` x `h` (a column between them):
/// the largest scale (at most `max`) at which the player's block fits and the opponents still
/// get as good a tier as beside a 1x board.
pub fn plan(n: usize, w: u16, h: u16, max: Scale) -> (Scale, (Tier, u16, u16)) {
    let others = |s: Scale| {
        let (ow, _) = versus_own::size(s, versus_own::side_times(s));
        layout(n, w.saturating_sub(ow + 1), h, s)
    };
    let base = others(Scale::ONE);
    let capacity = |(_, c, r): (Tier, u16, u16)| usize::from(c) * usize::from(r);
    for s in Scale::offered().filter(|&s| s > Scale::ONE && s <= max) {
        let (ow, oh) = versus_own::size(s, versus_own::side_times(s));
        if ow + 1 > w || oh > h {
            continue;
        }
        let l = others(s);
        if l.0.rank() >= base.0.rank() && capacity(l).min(n) >= capacity(base).min(n) {
            return (s, l);
        }
    }
    (Scale::ONE, base)
}

/// The names drawn in cells `cols` wide: each cut by display columns; where cut names would
/// look alike, the middle words go ("Bot level 3" -> "Bot 3"), and names still alike get
/// their seat in front.
pub fn labels(names: &[&str], cols: usize) -> Vec<String> {
    let cut: Vec<String> = names
        .iter()
        .map(|n| fit_width(n, cols).trim_end().to_owned())
        .collect();
    let alike = |list: &[String], i: usize| list.iter().filter(|c| **c == list[i]).count() > 1;
    let mut out: Vec<String> = (0..names.len())
        .map(|i| {
            if !alike(&cut, i) || width(names[i]) <= cols {
                return cut[i].clone();
            }
            let words: Vec<&str> = names[i].split(' ').filter(|w| !w.is_empty()).collect();
            match (words.first(), words.last()) {
                (Some(first), Some(last)) if words.len() > 2 => {
                    let short = format!("{first} {last}");
                    if width(&short) <= cols {
                        return short;
                    }
                    let keep = cols.saturating_sub(width(last) + 1);
                    format!("{}~{last}", fit_width(first, keep))
                }
                _ => cut[i].clone(),
            }
        })
        .collect();
    let shown = out.clone();
    for (i, label) in out.iter_mut().enumerate() {
        if alike(&shown, i) {
            let seat = format!("{}.", i + 1);
            let rest = fit_width(&shown[i], cols.saturating_sub(seat.len())).to_owned();
            *label = format!("{seat}{rest}");
        }
    }
    out
}

/// Draws the other players' boards in a grid; returns the board areas drawn (cells only).
pub fn draw_others(
    buf: &mut Buffer,
    area: Rect,
    others: &[OpponentView],
    (tier, cols, rows): (Tier, u16, u16),
    kind: MatchKind,
    theme: Theme,
) -> Vec<Rect> {
    let (cw, ch) = tier.cell();
    let capacity = usize::from(cols) * usize::from(rows);
    let names: Vec<&str> = others.iter().map(|o| o.name.as_str()).collect();
    let names = labels(&names, usize::from(cw.saturating_sub(1)));
    let mut drawn = Vec::new();
    for (i, o) in others.iter().take(capacity).enumerate() {
        let col = i as u16 % cols.max(1);
        let row = i as u16 / cols.max(1);
        let at = Rect::new(area.x + col * cw, area.y + row * ch, cw, ch).intersection(area);
        let st = status(o, kind);
        let name_style = if o.alive { theme.text() } else { theme.bad() };
        if let Tier::Full(s) = tier {
            draw_full(buf, (at, area), o, kind, theme, s);
            let (w, h) = full_size(s);
            drawn.push(draw::inner(Rect::new(at.x + 1, at.y, w, h)).intersection(area));
            continue;
        }
        let name = Rect::new(at.x, at.y, cw.saturating_sub(1), 1).intersection(area);
        draw::put(buf, name, name.x, name.y, &names[i], name_style);
        // The incoming-garbage meter at the left, as beside a full board.
        let (bw, bh, per_cell) = if tier == Tier::Mini {
            (MINI_W, MINI_H, 2)
        } else {
            (MICRO_W, MICRO_H, 4)
        };
        let meter = Rect::new(at.x, at.y + 1, 1, bh).intersection(area);
        garbage_meter::draw_compact(buf, meter, o.progress.pending_garbage, per_cell, theme);
        let b = Rect::new(at.x + 1, at.y + 1, bw, bh).intersection(area);
        if tier == Tier::Mini {
            mini_board::mini(buf, b, &o.board, theme);
        } else {
            mini_board::micro(buf, b, &o.board, theme);
        }
        drawn.push(b);
        // The status under the board and its meter, right-aligned to the cell's gap.
        let line = Rect::new(at.x, at.y + 1 + bh, cw.saturating_sub(1), 1).intersection(area);
        let style = if o.alive { theme.accent() } else { theme.bad() };
        draw::put_right(buf, line, line.y, st.as_str(), style);
    }
    if others.len() > capacity {
        let more = sfmt!(16; "+{} more", others.len() - capacity);
        let y = area.bottom().saturating_sub(1);
        draw::put_right(buf, area, y, more.as_str(), theme.dim());
    }
    drawn
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiers_shrink_with_room() {
        let own = versus_own::size(Scale::ONE, 1).0;
        // 60 x 24: one opponent beside the player's block at full size.
        let one = Scale::ONE;
        assert_eq!(layout(1, 60 - own - 1, 22, one).0, Tier::Full(one));
        assert_eq!(layout(5, 60 - own - 1, 22, one).0, Tier::Micro);
        assert_eq!(layout(3, 60 - own - 1, 22, one).0, Tier::Micro);
        let (t, cols, rows) = layout(7, 60 - own - 1, 22, one);
        assert!(usize::from(cols * rows) >= 7, "{t:?} {cols} {rows}");
        assert_eq!(layout(5, 120 - own - 1, 38, one).0, Tier::Mini);
        assert_eq!(layout(2, 60, 22, one).0, Tier::Full(one));
        let two = Scale::offered().nth(1).unwrap_or(Scale::ONE);
        assert_eq!(layout(1, 200, 58, Scale::MAX).0, Tier::Full(two));
    }

    #[test]
    fn the_player_and_one_opponent_are_2x_at_200x60_and_1x_at_80x24() {
        let two = Scale::offered().nth(1).unwrap_or(Scale::ONE);
        assert_eq!(plan(1, 200, 58, Scale::MAX), (two, (Tier::Full(two), 1, 1)));
        assert_eq!(plan(1, 80, 22, Scale::MAX).0, Scale::ONE);
        // Seven opponents at 200x60: the player's board grows, theirs stay full at 1x.
        let (s, (tier, cols, rows)) = plan(7, 200, 58, Scale::MAX);
        assert_eq!((s, tier), (two, Tier::Full(Scale::ONE)));
        assert!(usize::from(cols * rows) >= 7);
        assert_eq!(plan(1, 200, 58, Scale::ONE).0, Scale::ONE);
    }

    #[test]
    fn cut_names_stay_apart() {
        let bots: Vec<String> = (1..=7).map(|l| format!("Bot level {l}")).collect();
        let mut names: Vec<&str> = bots.iter().map(String::as_str).collect();
        names.push("ada");
        let shown = labels(&names, 7);
        assert_eq!(shown[0], "Bot 1");
        assert_eq!(shown[7], "ada");
        for (i, a) in shown.iter().enumerate() {
            assert!(width(a) <= 7, "{a}");
            assert!(shown.iter().skip(i + 1).all(|b| b != a), "{shown:?}");
        }
        // The same bot twice: its seat tells them apart.
        let same = labels(&["Bot level 3", "Bot level 3"], 7);
        assert_eq!(same, ["1.Bot 3", "2.Bot 3"]);
        // Wide characters are cut by columns, never split.
        assert_eq!(labels(&["漢字漢字漢字"], 7), ["漢字漢"]);
    }
}
