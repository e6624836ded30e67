//! # minotty-engine
//!
//! A pure, deterministic rules engine for falling-tetromino games.
//!
//! Architecture Invariant: the engine does no IO, reads no clock, starts no thread and uses
//! no global randomness. Time is passed in by the caller as integral milliseconds of game time,
//! and randomness comes from generators seeded per game. The same seed and the same
//! timestamped inputs give the same game, bit for bit, however the caller chunks its updates.
//!
//! ```
//! use minotty_engine::{Button, Game, GameConfig, Input, Mode};
//!
//! let mut game = Game::new(GameConfig { mode: Mode::sprint(), ..GameConfig::default() }, 42);
//! game.update(0, None); // the first piece spawns
//! game.update(500, Some(Input::Press(Button::HardDrop)));
//! assert_eq!(game.stats().pieces, 1);
//! // A server sleeps until the next thing can happen on its own.
//! assert!(game.next_deadline().is_some());
//! ```

mod active;
pub mod board;
mod codec;
pub mod event;
pub mod game;
pub mod garbage;
mod garbage_settings;
pub mod generator;
pub mod input;
pub mod kicks;
mod limit;
pub mod mode;
pub mod nes;
pub mod piece;
mod preset;
pub mod puzzle;
pub mod rating;
pub mod replay;
pub mod rng;
pub mod ruleset;
pub mod scoring;
pub mod snapshot;
mod stock;
pub mod versus;

pub use board::{Board, Cell};
pub use event::{Clear, EndReason, Event, EventKind, Stats};
pub use game::{
    Active, CAMERA_MARGIN, Checkpoint, Descent, GEM_COLOURS, Game, GameConfig, Gem, Phase,
    Position, RESPAWN_DELAY, SCROLL_INTERVAL, WALL_X, survival_rise_at,
};
pub use generator::{Generator, PieceSource};
pub use input::{Button, Input, MAX_INPUTS};
pub use kicks::RotationSystem;
pub use mode::{
    ASCENT_TIME, CHEESE_DEFAULT, CHEESE_MAX, CHEESE_MIN, CLASSIC_LOCK_DELAY, CLASSIC_MAX_START,
    DESCENT_TIME, Gravity, Limit, Mode, ModeKind, StartBoard, Stat,
};
pub use piece::{Piece, Placed, Rotation, Turn};
pub use puzzle::PuzzleState;
pub use replay::{
    GHOST_STEP_INPUTS, Ghost, GhostSplit, GhostStep, MAX_ANCHORS, MIN_ANCHOR_GAP, Playback, Replay,
    ReplayError, Verified,
};
pub use ruleset::{Handling, Ruleset, RulesetId, Time, Tuning};
pub use scoring::Spin;
pub use snapshot::{Snapshot, SnapshotError};
