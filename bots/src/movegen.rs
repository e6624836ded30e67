//! Move generation: every final resting placement the piece in play can reach with the game's
//! own moves, and the fewest button taps that get it there.
//!
//! The search is a breadth-first search over the piece's states `(x, y, rotation)`, one tap per
//! edge: a shift, a rotation with the ruleset's kicks (180° where the ruleset has it), a drop
//! to the floor without locking (sonic drop, or soft drop where that is what it does) and, where
//! soft drop moves one row per tap, a one-row step down, so that a piece can stop in the air
//! and slide into a cave. States on the ground keep searching (tucks, spins). Every state's
//! hard drop is a final placement; the first time a placement is found is with its fewest taps.
//! Each edge asks the same functions the game asks (`Board::fits`, the rotation system's kick
//! lists, `fits_under` for the top wall of a ruleset without hidden rows, `spin_at` for the
//! spin a lock earns), and under 20G every move ends on the floor as it does in the game.
//!
//! A T's placement on the ground can be reached with or without a rotation last (and, in
//! `standard`, with or without the last kick of its table), which changes the spin it earns:
//! under a three-corner spin rule those are distinct results, each found with its own fewest
//! taps. Elsewhere a placement is one result: a hard drop clears the rotation flag in
//! `tui-tetris` (so there a T-spin needs the lock delay, which these button sequences never
//! wait for), and tetrs' spin rule looks at the cells only.
//!
//! Taps are meant to be pressed and released at one instant, or at least faster than gravity
//! and the lock delay act: a path assumes the piece does not fall on its own between taps. A
//! caller that spreads taps over time checks the piece after each and asks [`path_to`] again
//! when gravity moved it. Paths are short (a few taps on the ground), far below the lock resets
//! a piece has.

mod mover;
mod search;

pub(crate) use mover::{Flag, MOVES, Mover};
pub(crate) use search::{Landing, Search};

use minotty_engine::game::Game;
use minotty_engine::input::Button;
use minotty_engine::piece::Placed;
use minotty_engine::scoring::Spin;

/// One reachable final placement of a piece.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reach {
    /// Where the piece locks, in the rotation the taps leave it in.
    pub placed: Placed,
    /// The taps, in order, each pressed and released: [`Button::Hold`] first when
    /// [`Reach::hold`], [`Button::HardDrop`] last.
    pub buttons: Vec<Button>,
    /// The piece's last successful action before it locks was a rotation (the flag spins
    /// need).
    pub rotated: bool,
    /// The spin the game awards for this lock.
    pub spin: Spin,
    /// The placement is of the piece that hold brings in (the held piece, or the next one when
    /// nothing is held).
    pub hold: bool,
}

/// Every distinct final placement of the piece in play, with the fewest taps for each: one
/// entry per covered cells and spin (a placement reached both with and without a spin appears
/// twice). Empty when no piece is in play or it was hard dropped already. In search order:
/// fewest taps first.
pub fn reachable(game: &Game) -> Vec<Reach> {
    let Some(a) = game.active().filter(|a| !a.dropped) else {
        return Vec::new();
    };
    let mover = Mover::of(game);
    let mut search = Search::default();
    search.run(game.board(), &mover, a.placed, a.rotated);
    search.reaches(false)
}

/// The same for the piece that hold brings in (the held piece, or the next one when nothing is
/// held): each path starts with [`Button::Hold`]. Empty when hold cannot be used now or the
/// piece would not fit where it appears.
pub fn reachable_after_hold(game: &Game) -> Vec<Reach> {
    let Some(start) = hold_start(game) else {
        return Vec::new();
    };
    let mover = Mover::of(game);
    let mut search = Search::default();
    search.run(game.board(), &mover, start, None);
    search.reaches(true)
}

/// The taps that bring a piece to `target` and lock it there: the piece in play, or when
/// `target` is of another kind (or the piece in play cannot get there) the piece hold brings in,
/// with [`Button::Hold`] first. `target` is matched by the cells it covers, so an I, S or Z
/// may be given in either of its look-alike rotations. Among the ways there, the one that
/// earns the best spin, then the fewest taps. `None` when `target` cannot be reached.
pub fn path_to(game: &Game, target: Placed) -> Option<Vec<Button>> {
    let a = game.active().filter(|a| !a.dropped)?;
    if a.placed.piece == target.piece
        && let Some(path) = path_via(game, target, false)
    {
        return Some(path);
    }
    path_via(game, target, true)
}

/// The taps to `target` for the piece in play, or (`hold`) for the piece hold brings in, with
/// [`Button::Hold`] first: the best spin, then the fewest taps.
pub(crate) fn path_via(game: &Game, target: Placed, hold: bool) -> Option<Vec<Button>> {
    let a = game.active().filter(|a| !a.dropped)?;
    let (start, flag) = if hold {
        (hold_start(game)?, None)
    } else {
        (a.placed, a.rotated)
    };
    if start.piece != target.piece {
        return None;
    }
    let mut search = Search::default();
    search.run(game.board(), &Mover::of(game), start, flag);
    let mut path = search.best_path_to(target.canonical())?;
    if hold {
        path.insert(0, Button::Hold);
    }
    Some(path)
}

/// Where the piece hold brings in appears (`None`: hold is used up, no piece is in play, or it
/// would not fit).
fn hold_start(game: &Game) -> Option<Placed> {
    game.active().filter(|a| !a.dropped)?;
    if !game.can_hold() {
        return None;
    }
    let piece = game.hold_piece().or_else(|| game.preview().next())?;
    Mover::of(game).spawn(game.board(), piece)
}
