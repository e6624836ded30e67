//! Between TBP's frame and the engine's.
//!
//! The engine places a piece by the top-left corner of its bounding box, `x` to the right and
//! `y` *down* from the top of a 40-row board (rows 0-19 hidden, 20-39 visible). TBP places it by
//! its centre, `x` to the right and `y` *up* from the bottom row: TBP row `y` is engine row
//! `39 - y`, and TBP's board lists rows from the bottom. The centre is SRS's point of rotation:
//! the box's cell `(1, 1)` for J, L, S, T and Z in every orientation, and for I and O the cell
//! the specification names in each orientation (see [`centre`]). The engine's shapes are SRS's
//! in every rotation system, so the same table serves them all.

use minotty_engine::board::{HEIGHT, WIDTH};
use minotty_engine::{Board, Cell, Piece, Placed, Rotation, Spin};

use crate::msg::{Location, Orientation, TbpBoard, TbpCell, TbpPiece, TbpSpin};

impl From<Piece> for TbpPiece {
    fn from(p: Piece) -> TbpPiece {
        match p {
            Piece::I => TbpPiece::I,
            Piece::O => TbpPiece::O,
            Piece::T => TbpPiece::T,
            Piece::L => TbpPiece::L,
            Piece::J => TbpPiece::J,
            Piece::S => TbpPiece::S,
            Piece::Z => TbpPiece::Z,
        }
    }
}

impl From<TbpPiece> for Piece {
    fn from(p: TbpPiece) -> Piece {
        match p {
            TbpPiece::I => Piece::I,
            TbpPiece::O => Piece::O,
            TbpPiece::T => Piece::T,
            TbpPiece::L => Piece::L,
            TbpPiece::J => Piece::J,
            TbpPiece::S => Piece::S,
            TbpPiece::Z => Piece::Z,
        }
    }
}

impl From<Rotation> for Orientation {
    fn from(r: Rotation) -> Orientation {
        match r {
            Rotation::North => Orientation::North,
            Rotation::East => Orientation::East,
            Rotation::South => Orientation::South,
            Rotation::West => Orientation::West,
        }
    }
}

impl From<Orientation> for Rotation {
    fn from(o: Orientation) -> Rotation {
        match o {
            Orientation::North => Rotation::North,
            Orientation::East => Rotation::East,
            Orientation::South => Rotation::South,
            Orientation::West => Rotation::West,
        }
    }
}

impl From<Spin> for TbpSpin {
    fn from(s: Spin) -> TbpSpin {
        match s {
            Spin::None => TbpSpin::None,
            Spin::Mini => TbpSpin::Mini,
            Spin::Full => TbpSpin::Full,
        }
    }
}

impl From<TbpSpin> for Spin {
    fn from(s: TbpSpin) -> Spin {
        match s {
            TbpSpin::None => Spin::None,
            TbpSpin::Mini => Spin::Mini,
            TbpSpin::Full => Spin::Full,
        }
    }
}

/// A board cell in TBP's terms (`None`: empty).
pub fn cell_to_tbp(cell: Cell) -> Option<TbpCell> {
    match cell {
        Cell::Empty => None,
        Cell::Garbage => Some(TbpCell::G),
        Cell::Block(p) => Some(match TbpPiece::from(p) {
            TbpPiece::I => TbpCell::I,
            TbpPiece::O => TbpCell::O,
            TbpPiece::T => TbpCell::T,
            TbpPiece::L => TbpCell::L,
            TbpPiece::J => TbpCell::J,
            TbpPiece::S => TbpCell::S,
            TbpPiece::Z => TbpCell::Z,
        }),
    }
}

/// A TBP board cell in the engine's terms.
pub fn cell_from_tbp(cell: Option<TbpCell>) -> Cell {
    let piece = match cell {
        None => return Cell::Empty,
        Some(TbpCell::G) => return Cell::Garbage,
        Some(TbpCell::I) => TbpPiece::I,
        Some(TbpCell::O) => TbpPiece::O,
        Some(TbpCell::T) => TbpPiece::T,
        Some(TbpCell::L) => TbpPiece::L,
        Some(TbpCell::J) => TbpPiece::J,
        Some(TbpCell::S) => TbpPiece::S,
        Some(TbpCell::Z) => TbpPiece::Z,
    };
    Cell::Block(piece.into())
}

/// The engine board as TBP's 40 rows of 10, bottom row first.
pub fn board_to_tbp(board: &Board) -> TbpBoard {
    (0..HEIGHT)
        .map(|row| {
            let y = HEIGHT - 1 - row;
            (0..WIDTH).map(|x| cell_to_tbp(board.cell(x, y))).collect()
        })
        .collect()
}

/// A TBP board in the engine's terms. Rows past the 40th and cells past the 10th of a row are
/// ignored; missing ones are empty.
pub fn board_from_tbp(rows: &TbpBoard) -> Board {
    let mut board = Board::new();
    for (row, cells) in rows.iter().take(HEIGHT).enumerate() {
        for (x, &cell) in cells.iter().take(WIDTH).enumerate() {
            board.set(x, HEIGHT - 1 - row, cell_from_tbp(cell));
        }
    }
    board
}

/// The centre of `piece` in `rotation`, as a cell of its engine bounding box (`x` right, `y`
/// down from the box's top-left corner).
pub fn centre(piece: Piece, rotation: Rotation) -> (i8, i8) {
    match (piece, rotation) {
        // The middle-left mino in the north orientation, middle-top east, middle-right south,
        // middle-bottom west.
        (Piece::I, Rotation::North) => (1, 1),
        (Piece::I, Rotation::East) => (2, 1),
        (Piece::I, Rotation::South) => (2, 2),
        (Piece::I, Rotation::West) => (1, 2),
        // The bottom-left mino north, top-left east, top-right south, bottom-right west (the
        // engine's O covers the box's cells (1..=2, 0..=1) in every orientation).
        (Piece::O, Rotation::North) => (1, 1),
        (Piece::O, Rotation::East) => (1, 0),
        (Piece::O, Rotation::South) => (2, 0),
        (Piece::O, Rotation::West) => (2, 1),
        // The stationary point of SRS's basic rotation.
        _ => (1, 1),
    }
}

/// A placement as a TBP location.
pub fn placed_to_location(placed: Placed) -> Location {
    let (cx, cy) = centre(placed.piece, placed.rotation);
    Location {
        kind: placed.piece.into(),
        orientation: placed.rotation.into(),
        x: i32::from(placed.x) + i32::from(cx),
        y: (HEIGHT as i32 - 1) - (i32::from(placed.y) + i32::from(cy)),
    }
}

/// How far outside the board a box may be and still convert: enough for every placement that
/// can fit, small enough that no arithmetic on it can overflow.
const MARGIN: i32 = 8;

/// A TBP location as an engine placement; `None` when its box would be more than a few cells
/// outside the board (no such placement fits). Whether the piece fits is the caller's question.
pub fn location_to_placed(location: &Location) -> Option<Placed> {
    let piece = Piece::from(location.kind);
    let rotation = Rotation::from(location.orientation);
    let (cx, cy) = centre(piece, rotation);
    let x = location.x.checked_sub(i32::from(cx))?;
    let y = (HEIGHT as i32 - 1)
        .checked_sub(location.y)?
        .checked_sub(i32::from(cy))?;
    let inside = |v: i32, len: usize| (-MARGIN..=len as i32 + MARGIN).contains(&v);
    if !inside(x, WIDTH) || !inside(y, HEIGHT) {
        return None;
    }
    Some(Placed {
        piece,
        rotation,
        x: i8::try_from(x).ok()?,
        y: i8::try_from(y).ok()?,
    })
}
