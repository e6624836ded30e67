//! The picture the page draws: a fixed run of little-endian `u32` words, read by `replay.js`
//! as a `Uint32Array` over the module's memory. The word offsets are the constants below; the
//! script holds the same numbers (and `minotty-web`'s tests check that it does).

use minotty_engine::board::WIDTH;
use minotty_engine::game::MAX_PREVIEW;
use minotty_engine::{Game, Placed, Time};

use super::{ROWS, cell_code, piece_code, shown_rows};

/// The layout's version, word 0: a script reading another layout stops.
pub const LAYOUT: u32 = 1;
/// Words before the cells.
pub const HEADER: usize = 24;
/// Word offsets in the header.
pub const W_LAYOUT: usize = 0;
pub const W_WIDTH: usize = 1;
pub const W_ROWS: usize = 2;
pub const W_TIME: usize = 3;
pub const W_END: usize = 4;
pub const W_LINES: usize = 5;
pub const W_SCORE_LOW: usize = 6;
pub const W_SCORE_HIGH: usize = 7;
pub const W_PIECES: usize = 8;
pub const W_LEVEL: usize = 9;
pub const W_ATTACK: usize = 10;
/// The held piece's code (0: none), plus [`HOLD_USED`] while hold cannot be used.
pub const W_HOLD: usize = 11;
/// How many of the preview words are filled.
pub const W_PREVIEW_COUNT: usize = 12;
/// [`MAX_PREVIEW`] words from here: the next pieces' codes.
pub const W_PREVIEW: usize = 13;
/// 0 playing, 1 over and won, 2 over and lost.
pub const W_OVER: usize = 19;
/// A bit per shown row being cleared (bit 0: the top shown row).
pub const W_CLEARING: usize = 20;
/// The piece in play: a cell's code plus this (17 to 23).
pub const ACTIVE: u32 = 16;
/// Where the piece in play would land: a cell's code plus this (33 to 39).
pub const GHOST: u32 = 32;
/// Added to [`W_HOLD`]'s piece while hold cannot be used.
pub const HOLD_USED: u32 = 8;
/// All the words of a frame.
pub const WORDS: usize = HEADER + ROWS * WIDTH;

const _: () = assert!(W_PREVIEW + MAX_PREVIEW <= W_OVER && W_CLEARING < HEADER);

/// A time as the script reads it (49 days and more read as the most a `u32` holds).
pub fn ms(t: Time) -> u32 {
    u32::try_from(t).unwrap_or(u32::MAX)
}

/// One picture of a game: the header and the cells, row by row from the top.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame(pub [u32; WORDS]);

impl Frame {
    pub fn of(game: &Game, end: Time) -> Frame {
        let mut w = [0u32; WORDS];
        let stats = game.stats();
        w[W_LAYOUT] = LAYOUT;
        w[W_WIDTH] = WIDTH as u32;
        w[W_ROWS] = ROWS as u32;
        w[W_TIME] = ms(game.now());
        w[W_END] = ms(end);
        w[W_LINES] = stats.lines;
        w[W_SCORE_LOW] = stats.score as u32;
        w[W_SCORE_HIGH] = (stats.score >> 32) as u32;
        w[W_PIECES] = stats.pieces;
        w[W_LEVEL] = game.level();
        w[W_ATTACK] = stats.attack;
        w[W_HOLD] =
            game.hold_piece().map_or(0, piece_code) + if game.can_hold() { 0 } else { HOLD_USED };
        let mut count = 0;
        for (slot, piece) in w[W_PREVIEW..W_PREVIEW + MAX_PREVIEW]
            .iter_mut()
            .zip(game.preview())
        {
            *slot = piece_code(piece);
            count += 1;
        }
        w[W_PREVIEW_COUNT] = count;
        w[W_OVER] = match game.outcome() {
            None => 0,
            Some((_, true)) => 1,
            Some((_, false)) => 2,
        };
        let rows = shown_rows();
        let clearing = game.clearing_rows();
        for (i, y) in rows.clone().enumerate() {
            if clearing & (1 << y) != 0 {
                w[W_CLEARING] |= 1 << i;
            }
            for x in 0..WIDTH {
                w[HEADER + i * WIDTH + x] = cell_code(game.board().cell(x, y));
            }
        }
        let mut overlay = |placed: Placed, plus: u32| {
            for (x, y) in placed.cells() {
                let (Ok(x), Ok(y)) = (usize::try_from(x), usize::try_from(y)) else {
                    continue;
                };
                if x < WIDTH && rows.contains(&y) {
                    let i = HEADER + (y - rows.start) * WIDTH + x;
                    if w[i] == 0 || plus == ACTIVE {
                        w[i] = piece_code(placed.piece) + plus;
                    }
                }
            }
        };
        if !game.is_over() {
            if let Some(ghost) = game.ghost() {
                overlay(ghost, GHOST);
            }
            if let Some(active) = game.active() {
                overlay(active.placed, ACTIVE);
            }
        }
        Frame(w)
    }

    /// The cell codes, row by row from the top.
    pub fn cells(&self) -> &[u32] {
        &self.0[HEADER..]
    }
}
