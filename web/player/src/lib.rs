//! # minotty-web-player
//!
//! The game page's replay player: the engine itself, built to WebAssembly, re-simulating a stored
//! replay in the page exactly as the server verified it (same inputs, fed at their times), with
//! seeking. [`Viewer`] is the whole player and runs on the host in tests; `abi.rs` exports it to
//! the page's script as a handful of functions over buffers this crate owns, and [`Frame`] is the
//! one picture the script draws (its layout is [`frame`]'s constants, mirrored in `replay.js`).

use minotty_engine::board::{BUFFER_HEIGHT, HEIGHT, WIDTH};
use minotty_engine::{Cell, Game, Piece, Replay, ReplayError, Time};

mod abi;
pub mod frame;

pub use frame::Frame;

/// The largest replay the player takes, in bytes: a replay of `MAX_INPUTS` inputs is well
/// under it (a few bytes each).
pub const MAX_REPLAY_BYTES: usize = 2 << 20;

/// Checkpoints kept for seeking back, at most: a game of any length costs this many copies of
/// the game at most, spread evenly over it.
pub const MAX_CHECKPOINTS: usize = 256;

/// Checkpoints are this far apart at least (game time, ms).
pub const CHECKPOINT_EVERY: Time = 2_000;

/// Rows drawn above the visible field (a piece spawning there shows).
pub const ROWS_ABOVE: usize = 2;

/// The rows a frame holds, top to bottom.
pub const ROWS: usize = minotty_engine::board::VISIBLE_HEIGHT + ROWS_ABOVE;

/// A replay being watched: the game at some time, and checkpoints to seek back to.
#[derive(Clone, Debug)]
pub struct Viewer {
    replay: Replay,
    game: Game,
    /// The next input to feed.
    next: usize,
    /// Copies of the game, and of `next`, at increasing times.
    checkpoints: Vec<(usize, Game)>,
    every: Time,
    /// When the next checkpoint is taken: past the newest one, so that playing a stretch again
    /// after seeking back takes none twice.
    due: Time,
}

impl Viewer {
    /// The player for `bytes` (a stored `Replay::to_bytes()`), at time 0.
    pub fn open(bytes: &[u8]) -> Result<Viewer, ReplayError> {
        if bytes.len() > MAX_REPLAY_BYTES {
            return Err(ReplayError::Malformed("longer than any replay"));
        }
        Viewer::new(Replay::from_bytes(bytes)?)
    }

    /// The player for `replay`, at time 0.
    pub fn new(replay: Replay) -> Result<Viewer, ReplayError> {
        let mut game = replay.new_game()?;
        game.update(0, None);
        let spread = replay.end / MAX_CHECKPOINTS as Time;
        let every = CHECKPOINT_EVERY.max(spread + 1);
        let checkpoints = vec![(0, game.clone())];
        Ok(Viewer {
            replay,
            game,
            next: 0,
            checkpoints,
            every,
            due: every,
        })
    }

    /// The replay's length (game time, ms).
    pub fn end(&self) -> Time {
        self.replay.end
    }

    /// The time shown.
    pub fn now(&self) -> Time {
        self.game.now()
    }

    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Moves to time `t` (capped at the end): forward by playing on, back from the last
    /// checkpoint before `t`.
    pub fn seek(&mut self, t: Time) {
        let t = t.min(self.replay.end);
        if t < self.game.now() {
            let at = self.checkpoints.partition_point(|(_, g)| g.now() <= t);
            // The first checkpoint is at time 0, so `at` is at least 1.
            let (next, game) = &self.checkpoints[at.saturating_sub(1)];
            self.next = *next;
            self.game = game.clone();
        }
        self.play_to(t);
    }

    /// Feeds the recorded inputs up to `t`, exactly as `Replay::play` does, and keeps a
    /// checkpoint each `every` ms of game time passed for the first time.
    fn play_to(&mut self, t: Time) {
        loop {
            let due = self.due;
            match self.replay.inputs.get(self.next).copied() {
                Some((time, input)) if time <= t && time <= due => {
                    self.game.update(time, Some(input));
                    self.next += 1;
                }
                _ if due <= t => {
                    self.game.update(due, None);
                    if self.checkpoints.len() < MAX_CHECKPOINTS {
                        self.checkpoints.push((self.next, self.game.clone()));
                    }
                    self.due = due.saturating_add(self.every);
                }
                _ => break,
            }
        }
        self.game.update(t, None);
    }

    /// Checkpoints held (a bound the tests count).
    pub fn checkpoints(&self) -> usize {
        self.checkpoints.len()
    }

    /// The picture of the game now.
    pub fn frame(&self) -> Frame {
        Frame::of(&self.game, self.replay.end)
    }

    /// The board's rows as `Board::to_ascii` gives them, with the piece in play left out: what
    /// the page reports once it reaches the end, for tests to compare with the server's.
    pub fn board_text(&self) -> String {
        self.game.board().to_ascii().join("/")
    }
}

/// A cell's code in a frame: 0 empty, 1 to 7 a piece's block (`Piece::ALL` order plus one), 8
/// garbage.
fn cell_code(cell: Cell) -> u32 {
    match cell {
        Cell::Empty => 0,
        Cell::Block(p) => piece_code(p),
        Cell::Garbage => 8,
    }
}

fn piece_code(p: Piece) -> u32 {
    p as u32 + 1
}

/// The rows of the board a frame shows.
fn shown_rows() -> std::ops::Range<usize> {
    HEIGHT - ROWS..HEIGHT
}

const _: () = assert!(ROWS <= HEIGHT && HEIGHT - ROWS == BUFFER_HEIGHT - ROWS_ABOVE);
const _: () = assert!(WIDTH == 10);

#[cfg(test)]
mod tests;
