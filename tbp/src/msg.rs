//! The messages of the Tetris Bot Protocol's minimum viable product (`tbp-spec`,
//! `text/0000-mvp.md`), as serde types. Every message is one JSON object on one line, tagged by
//! its `type`. As the specification asks, a message of a type not listed here parses as
//! `Unknown` (to be ignored) and attributes not listed here are ignored.

use serde::{Deserialize, Serialize};

/// A piece, as TBP names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TbpPiece {
    I,
    O,
    T,
    L,
    J,
    S,
    Z,
}

/// A filled board cell: the piece that filled it, or `G` for garbage.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum TbpCell {
    I,
    O,
    T,
    L,
    J,
    S,
    Z,
    G,
}

/// A rotation state: `north` is the spawn orientation, `east` one clockwise turn from it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Orientation {
    North,
    East,
    South,
    West,
}

/// Whether a move is a spin.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TbpSpin {
    None,
    Mini,
    Full,
}

/// Where a piece goes: its kind, orientation and the board coordinates of its centre (SRS true
/// rotation), `x` from the leftmost column and `y` from the bottom row, both from 0.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Location {
    #[serde(rename = "type")]
    pub kind: TbpPiece,
    pub orientation: Orientation,
    pub x: i32,
    pub y: i32,
}

/// A placement and whether it is reached by a spin.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Move {
    pub location: Location,
    pub spin: TbpSpin,
}

/// A board: 40 rows of 10 cells, the first row the bottom one (`board[y][x]`).
pub type TbpBoard = Vec<Vec<Option<TbpCell>>>;

/// The position a bot calculates from.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Start {
    pub hold: Option<TbpPiece>,
    /// The piece in play first, then the next pieces.
    pub queue: Vec<TbpPiece>,
    /// Consecutive line clears made so far.
    pub combo: u32,
    pub back_to_back: bool,
    pub board: TbpBoard,
}

/// Frontend to bot.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum FrontendMessage {
    /// The game's rules (empty in the MVP); the bot answers `ready` or `error`.
    Rules,
    Start(Start),
    Stop,
    Suggest,
    Play {
        #[serde(rename = "move")]
        mv: Move,
    },
    NewPiece {
        piece: TbpPiece,
    },
    /// Garbage rows pushed in under the board (the `garbage` extension, `tbp-spec`
    /// `text/0002-garbage.md`): the last row becomes the new bottom row. Sent only to a bot
    /// that lists [`FEATURE_GARBAGE`] in its `info`, and only while it calculates.
    Garbage {
        rows: TbpBoard,
    },
    Quit,
    #[serde(other)]
    Unknown,
}

/// Bot to frontend.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum BotMessage {
    Error {
        reason: String,
    },
    Ready,
    Info {
        name: String,
        version: String,
        author: String,
        features: Vec<String>,
    },
    Suggestion {
        moves: Vec<Move>,
    },
    #[serde(other)]
    Unknown,
}

/// The feature a bot lists in its `info` when it takes `garbage` messages.
pub const FEATURE_GARBAGE: &str = "garbage";

impl FrontendMessage {
    /// The message as one line of JSON, without the line break.
    pub fn to_line(&self) -> String {
        to_line(self)
    }

    /// The `rules` line; for a bot that takes `garbage` messages it says that garbage rows may
    /// come in any shape (`"garbage": "general"`), as the extension asks.
    pub fn rules_line(garbage: bool) -> String {
        if garbage {
            String::from(r#"{"type":"rules","garbage":"general"}"#)
        } else {
            FrontendMessage::Rules.to_line()
        }
    }
}

impl BotMessage {
    /// The message as one line of JSON, without the line break.
    pub fn to_line(&self) -> String {
        to_line(self)
    }
}

fn to_line(message: &impl Serialize) -> String {
    // These types hold only strings, numbers, enums and sequences: serialising cannot fail.
    serde_json::to_string(message).unwrap_or_else(|_| String::from("{}"))
}
