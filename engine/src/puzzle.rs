//! Puzzle mode's stages: a board of garbage and a fixed list of pieces each, to be cleared
//! perfectly (every cell gone once the last piece is placed). Stages grow harder, and many ask
//! for the acrobatics of the Ocular rotation system (O rolls, I and S/Z turns that step down
//! into caves, spins of every piece); puzzle mode is played under the `tetrs` ruleset.
//!
//! Each stage is one drawing that is both its board and its solution: `#` is garbage, and the
//! cells of the solution's n-th piece are marked with the n-th character of [`MARKS`]. The board
//! the player sees is the drawing with the marks left empty; [`Stage::solution`] turns the marks
//! into placements (rows cleared by earlier pieces taken out, as the game does), and
//! `bots/tests/puzzle.rs` plays every solution on a real game and shows which stages the
//! Super rotation system cannot solve with the same pieces.

use crate::board::{Board, Cell, HEIGHT, WIDTH};
use crate::piece::{Piece, Placed, Rotation};

/// Attempts at one stage; failing the last ends the game.
pub const MAX_ATTEMPTS: u8 = 5;
/// The level whose gravity and lock delay puzzle mode plays at (its shown level is the stage).
pub const PUZZLE_LEVEL: u32 = 1;
/// The characters that mark the solution's pieces in a drawing, in order.
pub const MARKS: &str = "123456789abcdef";

/// Where a puzzle game stands: the stage (1-based), the attempt at it (1-based) and its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PuzzleState {
    pub stage: u8,
    pub attempt: u8,
    pub name: &'static str,
}

/// One stage.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stage {
    pub name: &'static str,
    /// The pieces, in the order they come (each a letter of [`Piece::letter`]).
    pub pieces: &'static str,
    /// The drawing, top row first, bottom row on the floor: `#` garbage, a [`MARKS`] character
    /// a cell of that piece of the solution.
    pub drawing: &'static [&'static str],
    /// The stage cannot be solved with these pieces under the Super rotation system (shown by
    /// a search over every placement in `bots/tests/puzzle.rs`).
    pub needs_ocular: bool,
}

impl Stage {
    /// The board the stage starts on.
    pub fn board(&self) -> Board {
        let mut board = Board::new();
        let top = HEIGHT.saturating_sub(self.drawing.len());
        for (i, row) in self.drawing.iter().enumerate() {
            for (x, c) in row.chars().take(WIDTH).enumerate() {
                if c == '#' {
                    board.set(x, top + i, Cell::Garbage);
                }
            }
        }
        board
    }

    /// The stage's pieces in order.
    pub fn pieces(&self) -> impl Iterator<Item = Piece> + '_ {
        self.pieces.chars().filter_map(Piece::from_letter)
    }

    /// The solution: where each piece locks, in the board's coordinates at the time it locks
    /// (rows cleared by the pieces before it taken out). `None` when the drawing does not mark
    /// a shape of the right piece for every piece (a mistake in the table; the tests catch it).
    pub fn solution(&self) -> Option<Vec<Placed>> {
        let rows = self.drawing.len();
        // The drawing's rows still on the board, top first; the last one is on the floor.
        let mut alive: Vec<usize> = (0..rows).collect();
        let mut board = self.board();
        let mut out = Vec::new();
        for (n, piece) in self.pieces().enumerate() {
            let mark = MARKS.chars().nth(n)?;
            let mut cells = Vec::new();
            for (i, &row) in alive.iter().enumerate() {
                let y = HEIGHT - alive.len() + i;
                for (x, c) in self.drawing[row].chars().enumerate() {
                    if c == mark {
                        cells.push((x as i8, y as i8));
                    }
                }
            }
            let placed = placement_covering(piece, &cells)?;
            if !board.fits(&placed) {
                return None;
            }
            board.lock(&placed);
            let full = board.full_rows();
            let top = HEIGHT - alive.len();
            let mut kept = Vec::new();
            for (i, &row) in alive.iter().enumerate() {
                if full & (1 << (top + i)) == 0 {
                    kept.push(row);
                }
            }
            if full & ((1u64 << top) - 1) != 0 {
                return None;
            }
            board.clear_rows(full);
            alive = kept;
            out.push(placed);
        }
        Some(out)
    }
}

/// The placement of `piece` that covers exactly `cells`.
fn placement_covering(piece: Piece, cells: &[(i8, i8)]) -> Option<Placed> {
    if cells.len() != 4 {
        return None;
    }
    let mut want = cells.to_vec();
    want.sort_unstable();
    for rotation in Rotation::ALL {
        let shape = piece.cells(rotation);
        let (sx, sy) = shape.iter().copied().min()?;
        let (wx, wy) = want[0];
        let placed = Placed {
            piece,
            rotation,
            x: wx - sx,
            y: wy - sy,
        };
        let mut got = placed.cells().to_vec();
        got.sort_unstable();
        if got == want {
            return Some(placed);
        }
    }
    None
}

/// The number of stages.
pub const STAGE_COUNT: u8 = STAGES.len() as u8;

/// Stage `stage` (1-based, clamped to the table).
pub fn stage(stage: u8) -> &'static Stage {
    let i = usize::from(stage.clamp(1, STAGE_COUNT)) - 1;
    &STAGES[i]
}

/// Every stage, first to last.
pub static STAGES: [Stage; 24] = [
    Stage {
        name: "First Drop",
        pieces: "T",
        drawing: &["###111####", "####1#####"],
        needs_ocular: false,
    },
    Stage {
        name: "Slip Under",
        pieces: "IO",
        drawing: &["#####22###", "#####22###", "####1111##"],
        needs_ocular: true,
    },
    Stage {
        name: "Rolling Stone",
        pieces: "OT",
        drawing: &["##222#####", "###211####", "####11####"],
        needs_ocular: true,
    },
    Stage {
        name: "T Tuck",
        pieces: "TI",
        drawing: &["###12222##", "##111#####"],
        needs_ocular: true,
    },
    Stage {
        name: "Twins",
        pieces: "SZ",
        drawing: &["######11##", "###2211###", "####22####"],
        needs_ocular: false,
    },
    Stage {
        name: "Zig and Zag",
        pieces: "SZ",
        drawing: &["##22######", "###2211###", "####11####"],
        needs_ocular: true,
    },
    Stage {
        name: "Hooks",
        pieces: "LJ",
        drawing: &["#2######1#", "#222####1#", "########11"],
        needs_ocular: true,
    },
    Stage {
        name: "Double T",
        pieces: "TT",
        drawing: &["####1222##", "###11#2###", "####1#####"],
        needs_ocular: true,
    },
    Stage {
        name: "Three Friends",
        pieces: "TJL",
        drawing: &["####2221##", "#####3211#", "###333#1##"],
        needs_ocular: false,
    },
    Stage {
        name: "Corner Pocket",
        pieces: "TLJ",
        drawing: &["##2#1333##", "##2111#3##", "##22######"],
        needs_ocular: true,
    },
    Stage {
        name: "Snake Pit",
        pieces: "SZT",
        drawing: &["#333#1####", "##32211###", "####221###"],
        needs_ocular: true,
    },
    Stage {
        name: "Under Pressure",
        pieces: "IOT",
        drawing: &["#####333##", "####223###", "111122####"],
        needs_ocular: true,
    },
    Stage {
        name: "Pillars",
        pieces: "JLO",
        drawing: &["#2##33##1#", "#2##33##1#", "#22####11#"],
        needs_ocular: true,
    },
    Stage {
        name: "Spin Cycle",
        pieces: "TSZ",
        drawing: &["##133#####", "#1113322##", "#####22###"],
        needs_ocular: true,
    },
    Stage {
        name: "Stairway",
        pieces: "STZ",
        drawing: &["####11####", "###11#33##", "####22233#", "#####2####"],
        needs_ocular: false,
    },
    Stage {
        name: "Four Corners",
        pieces: "SZLJ",
        drawing: &["#11###333#", "114###322#", "##4#####22", "#44#######"],
        needs_ocular: true,
    },
    Stage {
        name: "Cave Diver",
        pieces: "ITS",
        drawing: &["#####33###", "####33####", "#####21111", "####222###"],
        needs_ocular: true,
    },
    Stage {
        name: "Knots",
        pieces: "OSZT",
        drawing: &["#####22###", "##332211##", "44433#11##", "#4########"],
        needs_ocular: true,
    },
    Stage {
        name: "Tower Climb",
        pieces: "IJLTO",
        drawing: &["#3###55###", "#3###55###", "233###444#", "22211114##"],
        needs_ocular: true,
    },
    Stage {
        name: "Tight Squeeze",
        pieces: "OTISZ",
        drawing: &["#441155###", "44#11#55##", "#222##3333", "##2#######"],
        needs_ocular: true,
    },
    Stage {
        name: "Long Haul",
        pieces: "SZTTI",
        drawing: &[
            "##22######",
            "###225555#",
            "##11######",
            "#11#333444",
            "#####3##4#",
        ],
        needs_ocular: true,
    },
    Stage {
        name: "Half Dozen",
        pieces: "JTSLZT",
        drawing: &[
            "####331###",
            "22233#14##",
            "#2666114##",
            "###655#44#",
            "#####55###",
        ],
        needs_ocular: true,
    },
    Stage {
        name: "Acrobatics",
        pieces: "TLOZIT",
        drawing: &[
            "44##1#666#",
            "#4411336##",
            "#222133###",
            "#2########",
            "######5555",
        ],
        needs_ocular: true,
    },
    Stage {
        name: "Grand Finale",
        pieces: "ITSZOJL",
        drawing: &[
            "##5544####",
            "##55#44#1#",
            "##73#2#61#",
            "777332261#",
            "####32661#",
        ],
        needs_ocular: true,
    },
];
