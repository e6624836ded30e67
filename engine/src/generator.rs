//! Piece generators (placeholder on main until the generators branch lands: only the bag).

use crate::piece::Piece;
use crate::rng::Bag;

/// Which generator a game uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Generator {
    #[default]
    Bag,
    Stock {
        multiplicity: u8,
        restock: u8,
    },
    Recency {
        snap_centi: u16,
    },
    Uniform,
    BalanceRelative,
}

impl Generator {
    pub fn validated(self) -> Generator {
        self
    }
}

/// The running state of a generator.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PieceSource {
    bag: Bag,
}

impl PieceSource {
    pub fn new(_generator: Generator, seed: u32) -> PieceSource {
        PieceSource {
            bag: Bag::new(seed),
        }
    }

    pub fn next_piece(&mut self) -> Piece {
        self.bag.next_piece()
    }
}
