//! How the versus bot judges a board and a move.
//!
//! A search path's value is the sum of its moves' rewards (lines, spins, back-to-back, combo,
//! perfect clears, attack) plus the value of the board it ends on (height, holes, surface,
//! wells, T-spin slots). The weights are integers in one arbitrary unit; their sizes follow
//! what strong public bots found (a tetris or a T-spin double is worth a lot, a single or
//! double that sends little is worth less than keeping the surface clean, danger near the top
//! outweighs everything), tuned with the bot arena (`BENCHMARKS.md`).

use minotty_engine::board::{Board, HEIGHT, WIDTH};
use minotty_engine::scoring::Spin;

/// Weights of the evaluation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Per row of the highest column.
    pub height: i32,
    /// Per row of the highest column above 10 and above 15 rows (on top of `height`).
    pub top_half: i32,
    pub top_quarter: i32,
    /// Per row of height plus garbage waiting to rise, above 14 rows.
    pub danger: i32,
    /// Height differences of neighbouring columns (the well column skipped), and their squares.
    pub bumpiness: i32,
    pub bumpiness_sq: i32,
    /// Filled/empty changes along each row, walls included.
    pub row_transitions: i32,
    /// Empty cells under the top of their column, and their count squared.
    pub holes: i32,
    pub holes_sq: i32,
    /// Filled cells above the highest hole of each column (at most 6 per column).
    pub covered: i32,
    /// Per row of the deepest well (up to 4), and per row beyond 4.
    pub well: i32,
    pub deep_well: i32,
    /// A T-spin double slot ready for a T, by the lines it would clear (0, 1, 2).
    pub tslot: [i32; 3],
    /// Back-to-back is on at the end of the path.
    pub b2b_kept: i32,
    /// A clear without a spin, by lines.
    pub clear: [i32; 5],
    /// A full T-spin, by lines.
    pub tspin: [i32; 4],
    /// A mini T-spin, by lines.
    pub mini: [i32; 3],
    /// A clear that continues back-to-back.
    pub b2b_clear: i32,
    /// Per line of combo attack.
    pub combo: i32,
    pub perfect: i32,
    /// Per line of attack (sent or cancelling incoming garbage).
    pub attack: i32,
    /// A T placed without a spin.
    pub wasted_t: i32,
}

impl Weights {
    /// The weights of every level that plays for spins.
    pub const SPINS: Weights = Weights {
        height: -39,
        top_half: -150,
        top_quarter: -500,
        danger: -60,
        bumpiness: -24,
        bumpiness_sq: -7,
        row_transitions: -5,
        holes: -170,
        holes_sq: -3,
        covered: -17,
        well: 57,
        deep_well: -40,
        tslot: [8, 148, 192],
        b2b_kept: 52,
        clear: [0, -143, -100, -58, 390],
        tspin: [0, 121, 410, 602],
        mini: [0, -158, -93],
        b2b_clear: 104,
        combo: 150,
        perfect: 999,
        attack: 30,
        wasted_t: -152,
    };

    /// The gentler levels: keep the stack low and clear lines, no spin set-ups.
    pub const PLAIN: Weights = Weights {
        tslot: [0, 0, 0],
        tspin: [0, 60, 120, 180],
        wasted_t: 0,
        b2b_kept: 0,
        b2b_clear: 20,
        clear: [0, 0, 20, 60, 200],
        well: 20,
        ..Weights::SPINS
    };
}

/// What one lock did, for its reward.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Move {
    pub lines: u32,
    pub spin: Spin,
    pub t_piece: bool,
    /// The clear continued back-to-back.
    pub b2b: bool,
    /// Lines of attack from the combo.
    pub combo_attack: u32,
    pub perfect: bool,
    pub attack: u32,
}

/// The reward of one move.
pub(crate) fn move_value(w: &Weights, m: &Move) -> i32 {
    let lines = m.lines as usize;
    let mut v = match m.spin {
        Spin::Full => w.tspin[lines.min(3)],
        Spin::Mini => w.mini[lines.min(2)],
        Spin::None => w.clear[lines.min(4)],
    };
    if m.t_piece && m.spin == Spin::None {
        v += w.wasted_t;
    }
    if m.b2b {
        v += w.b2b_clear;
    }
    if m.perfect {
        v += w.perfect;
    }
    v + w.combo * m.combo_attack as i32 + w.attack * m.attack as i32
}

/// The value of a board with `pending` lines of garbage waiting to rise.
pub(crate) fn board_value(board: &Board, w: &Weights, pending: u32) -> i32 {
    let heights = column_heights(board);
    let mut holes = 0i32;
    let mut covered = 0i32;
    for (x, &h) in heights.iter().enumerate() {
        let bit = 1u16 << x;
        let top = HEIGHT - h as usize;
        let mut above = 0;
        let mut last_hole_cover = 0;
        for y in top..HEIGHT {
            if board.row_mask(y) & bit != 0 {
                above += 1;
            } else {
                holes += 1;
                last_hole_cover = above;
            }
        }
        covered += last_hole_cover.min(6);
    }
    let max = heights.iter().copied().max().unwrap_or(0);
    // The deepest well: the lowest column, as deep as its lower neighbour (walls count as high).
    let (well_x, well_h) = heights
        .iter()
        .copied()
        .enumerate()
        .min_by_key(|&(x, h)| (h, x))
        .unwrap_or((0, 0));
    let left = if well_x > 0 {
        heights[well_x - 1]
    } else {
        i32::MAX
    };
    let right = heights.get(well_x + 1).copied().unwrap_or(i32::MAX);
    let depth = left.min(right).saturating_sub(well_h).max(0);
    let mut bumpiness = 0;
    let mut bumpiness_sq = 0;
    let mut prev: Option<i32> = None;
    for (x, &h) in heights.iter().enumerate() {
        if x == well_x {
            continue;
        }
        if let Some(p) = prev {
            let d = (h - p).abs();
            bumpiness += d;
            bumpiness_sq += d * d;
        }
        prev = Some(h);
    }
    let mut transitions = 0i32;
    for y in (HEIGHT - max as usize)..HEIGHT {
        // Walls on both sides count as filled.
        let row = (u32::from(board.row_mask(y)) << 1) | 1 | (1 << (WIDTH + 1));
        transitions += ((row ^ (row >> 1)) & ((1 << (WIDTH + 1)) - 1)).count_ones() as i32;
    }
    let danger = (max + pending as i32 - 14).max(0);
    w.height * max
        + w.top_half * (max - 10).max(0)
        + w.top_quarter * (max - 15).max(0)
        + w.danger * danger
        + w.bumpiness * bumpiness
        + w.bumpiness_sq * bumpiness_sq
        + w.row_transitions * transitions
        + w.holes * holes
        + w.holes_sq * holes * holes
        + w.covered * covered
        + w.well * depth.min(4)
        + w.deep_well * (depth - 4).max(0)
        + tslot_value(board, &heights, w)
}

/// Each column's height: rows from the bottom up to its highest filled cell.
fn column_heights(board: &Board) -> [i32; WIDTH] {
    let mut heights = [0i32; WIDTH];
    for (x, h) in heights.iter_mut().enumerate() {
        if let Some(top) = (0..HEIGHT).find(|&y| board.row_mask(y) & (1 << x) != 0) {
            *h = (HEIGHT - top) as i32;
        }
    }
    heights
}

/// The best T-spin double slot on the surface: a T pointing down fits into a stem hole with
/// filled corners under both arms and an overhang over one of them; valued by the lines it
/// would clear.
fn tslot_value(board: &Board, heights: &[i32; WIDTH], w: &Weights) -> i32 {
    if w.tslot == [0, 0, 0] {
        return 0;
    }
    let full = (1u16 << WIDTH) - 1;
    let filled = |x: i32, y: i32| {
        x < 0 || x >= WIDTH as i32 || y >= HEIGHT as i32 || {
            y >= 0 && board.row_mask(y as usize) & (1 << x) != 0
        }
    };
    let mut best = 0;
    for c in 1..(WIDTH as i32 - 1) {
        // The stem's cell is the top empty cell of the centre column.
        let stem = HEIGHT as i32 - heights[c as usize] - 1;
        let flat = stem - 1;
        if flat < 1 {
            continue;
        }
        let fits = !filled(c - 1, flat)
            && !filled(c, flat)
            && !filled(c + 1, flat)
            && filled(c - 1, stem)
            && filled(c + 1, stem);
        let overhang = filled(c - 1, flat - 1) != filled(c + 1, flat - 1);
        if !fits || !overhang || filled(c, flat - 1) {
            continue;
        }
        let arms = 0b111u16 << (c - 1);
        let lines = usize::from(board.row_mask(flat as usize) | arms == full)
            + usize::from(board.row_mask(stem as usize) | (1 << c) == full);
        best = best.max(w.tslot[lines]);
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn holes_and_height_cost_and_a_tsd_slot_is_worth_something() {
        let w = Weights::SPINS;
        let flat = Board::from_ascii(&["XXXXXXXXX."]);
        let holed = Board::from_ascii(&["XXXXXXXXX.", "XXXX.XXXXX"]);
        let tall = Board::from_ascii(&["XXXXXXXXX."; 12]);
        assert!(board_value(&flat, &w, 0) > board_value(&holed, &w, 0));
        assert!(board_value(&flat, &w, 0) > board_value(&tall, &w, 0));
        assert!(
            board_value(&tall, &w, 0) > board_value(&tall, &w, 8),
            "garbage is danger"
        );
        let slot = Board::from_ascii(&["XXXX......", "XXX...XXXX", "XXXX.XXXXX"]);
        let heights = column_heights(&slot);
        assert_eq!(heights, [3, 3, 3, 3, 0, 1, 2, 2, 2, 2]);
        assert_eq!(tslot_value(&slot, &heights, &w), w.tslot[2]);
        assert_eq!(tslot_value(&slot, &heights, &Weights::PLAIN), 0);
    }

    #[test]
    fn a_tetris_is_worth_more_than_four_singles() {
        let w = Weights::SPINS;
        let m = |lines, attack| Move {
            lines,
            spin: Spin::None,
            t_piece: false,
            b2b: false,
            combo_attack: 0,
            perfect: false,
            attack,
        };
        assert!(move_value(&w, &m(4, 4)) > 4 * move_value(&w, &m(1, 0)));
        let tsd = Move {
            spin: Spin::Full,
            t_piece: true,
            ..m(2, 4)
        };
        assert!(move_value(&w, &tsd) > move_value(&w, &m(2, 1)));
    }
}
