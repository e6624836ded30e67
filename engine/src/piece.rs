//! Tetromino kinds, orientations and shapes.
//!
//! Coordinates are the board's own: `x` grows to the right, `y` grows *downwards*, and a piece's
//! position is the top-left corner of its bounding box (as in the rules seed, which spawns every
//! piece with its box at `(3, 0)` of the visible field).

/// The seven tetrominoes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Piece {
    I,
    O,
    T,
    S,
    Z,
    J,
    L,
}

impl Piece {
    /// All pieces, in the order a fresh 7-bag holds them before shuffling.
    pub const ALL: [Piece; 7] = [
        Piece::I,
        Piece::O,
        Piece::T,
        Piece::S,
        Piece::Z,
        Piece::J,
        Piece::L,
    ];

    /// The piece's letter.
    pub fn letter(self) -> char {
        match self {
            Piece::I => 'I',
            Piece::O => 'O',
            Piece::T => 'T',
            Piece::S => 'S',
            Piece::Z => 'Z',
            Piece::J => 'J',
            Piece::L => 'L',
        }
    }

    /// Parses a piece letter (case-insensitive).
    pub fn from_letter(c: char) -> Option<Piece> {
        Piece::ALL
            .into_iter()
            .find(|p| p.letter() == c.to_ascii_uppercase())
    }

    /// The four cells of this piece in `rotation`, relative to the bounding box's top-left corner.
    #[inline]
    pub fn cells(self, rotation: Rotation) -> [(i8, i8); 4] {
        SHAPES[self as usize][rotation as usize]
    }
}

/// The four orientations. `North` is the spawn orientation; `East` is one clockwise turn from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Rotation {
    North,
    East,
    South,
    West,
}

impl Rotation {
    pub const ALL: [Rotation; 4] = [
        Rotation::North,
        Rotation::East,
        Rotation::South,
        Rotation::West,
    ];

    /// The orientation after `turns` clockwise quarter turns (negative: counter-clockwise).
    #[inline]
    pub fn turned(self, turns: i8) -> Rotation {
        Rotation::ALL[(self as i8 + turns).rem_euclid(4) as usize]
    }
}

/// One rotation input: clockwise, counter-clockwise, or a half turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Turn {
    Cw,
    Ccw,
    Half,
}

impl Turn {
    /// Quarter turns clockwise.
    pub fn quarter_turns(self) -> i8 {
        match self {
            Turn::Cw => 1,
            Turn::Ccw => -1,
            Turn::Half => 2,
        }
    }
}

/// Shapes of the rules seed, indexed by `[Piece as usize][Rotation as usize]`.
const SHAPES: [[[(i8, i8); 4]; 4]; 7] = [
    // I
    [
        [(0, 1), (1, 1), (2, 1), (3, 1)],
        [(2, 0), (2, 1), (2, 2), (2, 3)],
        [(0, 2), (1, 2), (2, 2), (3, 2)],
        [(1, 0), (1, 1), (1, 2), (1, 3)],
    ],
    // O
    [
        [(1, 0), (2, 0), (1, 1), (2, 1)],
        [(1, 0), (2, 0), (1, 1), (2, 1)],
        [(1, 0), (2, 0), (1, 1), (2, 1)],
        [(1, 0), (2, 0), (1, 1), (2, 1)],
    ],
    // T
    [
        [(1, 0), (0, 1), (1, 1), (2, 1)],
        [(1, 0), (1, 1), (2, 1), (1, 2)],
        [(0, 1), (1, 1), (2, 1), (1, 2)],
        [(1, 0), (0, 1), (1, 1), (1, 2)],
    ],
    // S
    [
        [(1, 0), (2, 0), (0, 1), (1, 1)],
        [(1, 0), (1, 1), (2, 1), (2, 2)],
        [(1, 1), (2, 1), (0, 2), (1, 2)],
        [(0, 0), (0, 1), (1, 1), (1, 2)],
    ],
    // Z
    [
        [(0, 0), (1, 0), (1, 1), (2, 1)],
        [(2, 0), (1, 1), (2, 1), (1, 2)],
        [(0, 1), (1, 1), (1, 2), (2, 2)],
        [(1, 0), (0, 1), (1, 1), (0, 2)],
    ],
    // J
    [
        [(0, 0), (0, 1), (1, 1), (2, 1)],
        [(1, 0), (2, 0), (1, 1), (1, 2)],
        [(0, 1), (1, 1), (2, 1), (2, 2)],
        [(1, 0), (1, 1), (0, 2), (1, 2)],
    ],
    // L
    [
        [(2, 0), (0, 1), (1, 1), (2, 1)],
        [(1, 0), (1, 1), (1, 2), (2, 2)],
        [(0, 1), (1, 1), (2, 1), (0, 2)],
        [(0, 0), (1, 0), (1, 1), (1, 2)],
    ],
];

/// A shape as row bit masks, for collision checks a row at a time: the rows `top..top + rows`
/// of the box hold cells, `masks[i]` has bit `c` set for a cell at column `left + c` of row
/// `top + i`, and the cells span the box's columns `left..=right`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Footprint {
    pub top: i8,
    pub rows: u8,
    pub left: i8,
    pub right: i8,
    pub masks: [u16; 4],
}

const fn footprint(cells: [(i8, i8); 4]) -> Footprint {
    let (mut top, mut bottom, mut left, mut right) = (i8::MAX, i8::MIN, i8::MAX, i8::MIN);
    let mut i = 0;
    while i < 4 {
        let (x, y) = cells[i];
        top = if y < top { y } else { top };
        bottom = if y > bottom { y } else { bottom };
        left = if x < left { x } else { left };
        right = if x > right { x } else { right };
        i += 1;
    }
    let mut masks = [0u16; 4];
    let mut i = 0;
    while i < 4 {
        let (x, y) = cells[i];
        masks[(y - top) as usize] |= 1 << (x - left);
        i += 1;
    }
    Footprint {
        top,
        rows: (bottom - top + 1) as u8,
        left,
        right,
        masks,
    }
}

/// [`Footprint`]s of [`SHAPES`], same indices.
const FOOTPRINTS: [[Footprint; 4]; 7] = {
    let mut out = [[footprint(SHAPES[0][0]); 4]; 7];
    let mut p = 0;
    while p < 7 {
        let mut r = 0;
        while r < 4 {
            out[p][r] = footprint(SHAPES[p][r]);
            r += 1;
        }
        p += 1;
    }
    out
};

/// For each shape, the first rotation that covers the same cells up to a shift, and the shift
/// `(dx, dy)` that takes a box in this rotation to a box in that one (I, S and Z look the same
/// upside down, the O in every rotation).
const SAME_AS: [[(u8, i8, i8); 4]; 7] = {
    let mut out = [[(0u8, 0i8, 0i8); 4]; 7];
    let mut p = 0;
    while p < 7 {
        let mut r = 0;
        while r < 4 {
            let a = FOOTPRINTS[p][r];
            let mut first = 0;
            loop {
                let b = FOOTPRINTS[p][first];
                if a.rows == b.rows
                    && a.masks[0] == b.masks[0]
                    && a.masks[1] == b.masks[1]
                    && a.masks[2] == b.masks[2]
                    && a.masks[3] == b.masks[3]
                {
                    out[p][r] = (first as u8, a.left - b.left, a.top - b.top);
                    break;
                }
                first += 1;
            }
            r += 1;
        }
        p += 1;
    }
    out
};

impl Piece {
    /// The shape in `rotation` as row masks.
    #[inline(always)]
    pub(crate) fn footprint(self, rotation: Rotation) -> &'static Footprint {
        &FOOTPRINTS[self as usize][rotation as usize]
    }
}

/// A piece placed on the board: kind, orientation and the top-left corner of its bounding box.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Placed {
    pub piece: Piece,
    pub rotation: Rotation,
    pub x: i8,
    pub y: i8,
}

impl Placed {
    /// The board cells this placement covers.
    #[inline]
    pub fn cells(&self) -> [(i8, i8); 4] {
        self.piece
            .cells(self.rotation)
            .map(|(dx, dy)| (self.x + dx, self.y + dy))
    }

    /// The placement covering the same cells with the lowest-numbered rotation that can: for
    /// the I, S and Z, South becomes North and West becomes East (their shapes repeat upside
    /// down), and every O is North. Two placements cover the same cells exactly when their
    /// canonical forms are equal.
    pub fn canonical(&self) -> Placed {
        let (r, dx, dy) = SAME_AS[self.piece as usize][self.rotation as usize];
        Placed {
            piece: self.piece,
            rotation: Rotation::ALL[usize::from(r)],
            x: self.x + dx,
            y: self.y + dy,
        }
    }

    /// The same placement moved by `(dx, dy)`.
    pub fn shifted(&self, dx: i8, dy: i8) -> Placed {
        Placed {
            x: self.x + dx,
            y: self.y + dy,
            ..*self
        }
    }
}
