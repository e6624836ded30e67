//! A TBP game state as both ends track it: the board, the queue (the piece in play first), the
//! hold and the chains. The bot advances it on `play` and `new_piece`; the frontend advances its
//! copy the same way, so it knows what the bot believes and can tell when the real game went
//! elsewhere (garbage rose): then it sends `stop` and a fresh `start`.

use std::collections::VecDeque;

use minotty_engine::{Game, Piece, Position};

use crate::frame::{board_from_tbp, board_to_tbp, location_to_placed};
use crate::msg::{Move, Start, TbpBoard, TbpPiece, TbpSpin};

/// The most pieces a queue holds; `new_piece` beyond it is refused (a bound on what a frontend
/// can make a bot hold).
pub const MAX_QUEUE: usize = 1024;

/// What one side knows of a TBP game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TbpState {
    pub board: minotty_engine::Board,
    /// The piece in play first, then the next pieces.
    pub queue: VecDeque<Piece>,
    pub hold: Option<Piece>,
    pub combo: u32,
    pub back_to_back: bool,
}

/// Why a `play` or `new_piece` could not be applied.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PlayError {
    /// The move's piece is neither the piece in play nor reachable through hold.
    WrongPiece,
    /// The move's location is off the board or overlaps the stack.
    DoesNotFit,
    /// The queue is full.
    QueueFull,
}

impl TbpState {
    /// The position of a `start` message (queue cut at [`MAX_QUEUE`]).
    pub fn from_start(start: &Start) -> TbpState {
        TbpState {
            board: board_from_tbp(&start.board),
            queue: start
                .queue
                .iter()
                .take(MAX_QUEUE)
                .map(|&p| p.into())
                .collect(),
            hold: start.hold.map(Into::into),
            combo: start.combo,
            back_to_back: start.back_to_back,
        }
    }

    /// The `start` message for this position.
    pub fn to_start(&self) -> Start {
        Start {
            hold: self.hold.map(Into::into),
            queue: self.queue.iter().map(|&p| TbpPiece::from(p)).collect(),
            combo: self.combo,
            back_to_back: self.back_to_back,
            board: board_to_tbp(&self.board),
        }
    }

    /// A game's position as TBP sees it: the piece in play and the next `preview` pieces.
    /// `None` when no piece is in play (a line clear pause, or the game is over).
    pub fn of_game(game: &Game, preview: usize) -> Option<TbpState> {
        let active = game.active()?;
        let mut queue = VecDeque::with_capacity(preview + 1);
        queue.push_back(active.placed.piece);
        queue.extend(game.preview().take(preview));
        Some(TbpState {
            board: game.board().clone(),
            queue,
            hold: game.hold_piece(),
            combo: game.combo().map_or(0, |c| c.saturating_add(1)),
            back_to_back: game.back_to_back(),
        })
    }

    /// The engine position to search from; `None` with an empty queue.
    pub fn position(&self) -> Option<Position> {
        let mut pieces = self.queue.iter().copied();
        let current = pieces.next()?;
        Some(Position {
            board: self.board.clone(),
            current,
            next: pieces.collect(),
            hold: self.hold,
            combo: self.combo,
            back_to_back: self.back_to_back,
        })
    }

    /// Garbage rows pushed in under the board, as a `garbage` message lists them (the last row
    /// becomes the bottom row); rows pushed past the top are gone.
    pub fn add_garbage(&mut self, rows: &TbpBoard) {
        let old = board_to_tbp(&self.board);
        let height = old.len();
        let mut new: TbpBoard = rows.iter().rev().cloned().collect();
        new.extend(old);
        new.truncate(height);
        self.board = board_from_tbp(&new);
    }

    /// The garbage rows (as a `garbage` message lists them) that turn this board into `other`:
    /// `Some` when `other` is this board pushed up over 1 to 39 new rows with nothing lost at
    /// the top.
    pub fn garbage_to(&self, other: &minotty_engine::Board) -> Option<TbpBoard> {
        let a = board_to_tbp(&self.board);
        let b = board_to_tbp(other);
        let height = a.len();
        (1..height)
            .find(|&k| {
                b[k..] == a[..height - k] && a[height - k..].iter().flatten().all(Option::is_none)
            })
            .map(|k| b[..k].iter().rev().cloned().collect())
    }

    /// A piece joins the end of the queue.
    pub fn new_piece(&mut self, piece: Piece) -> Result<(), PlayError> {
        if self.queue.len() >= MAX_QUEUE {
            return Err(PlayError::QueueFull);
        }
        self.queue.push_back(piece);
        Ok(())
    }

    /// Plays `mv`: the piece comes from the front of the queue, or through hold (the held piece,
    /// or with an empty hold the next one), locks at its location and clears full rows. On an
    /// error nothing changes.
    pub fn play(&mut self, mv: &Move) -> Result<(), PlayError> {
        let placed = location_to_placed(&mv.location).ok_or(PlayError::DoesNotFit)?;
        if !self.board.fits(&placed) {
            return Err(PlayError::DoesNotFit);
        }
        let piece = placed.piece;
        let first = self.queue.front().copied();
        if first == Some(piece) {
            self.queue.pop_front();
        } else if first.is_some() && self.hold == Some(piece) {
            self.hold = self.queue.pop_front();
        } else if first.is_some() && self.hold.is_none() && self.queue.get(1) == Some(&piece) {
            self.hold = self.queue.pop_front();
            self.queue.pop_front();
        } else {
            return Err(PlayError::WrongPiece);
        }
        self.board.lock(&placed);
        let rows = self.board.full_rows();
        let lines = rows.count_ones();
        self.board.clear_rows(rows);
        if lines > 0 {
            self.combo = self.combo.saturating_add(1);
            self.back_to_back = lines == 4 || mv.spin != TbpSpin::None;
        } else {
            self.combo = 0;
        }
        Ok(())
    }
}
