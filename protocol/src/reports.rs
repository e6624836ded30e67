//! What a versus game tells its room: its events digested into reports (attacks, board,
//! numbers, the end), as a player's App and a server bot seat both send them.

use minotty_engine::board::{BUFFER_HEIGHT, VISIBLE_HEIGHT, WIDTH};
use minotty_engine::{Cell, EndReason, Event, EventKind, Game};

use crate::online::{BoardSnapshot, Progress, Report};

/// What a versus game's events since the last report mean for its room, as a player's App and
/// a server bot seat both report them.
#[derive(Debug, Default)]
pub struct EventDigest {
    /// One `Report::Attack` per attack sent, in order.
    pub attacks: Vec<Report>,
    /// The board changed for good (a lock, a clear, garbage rising): send it now.
    pub board: bool,
    /// The running numbers changed.
    pub progress: bool,
    /// The piece moved, spawned or was held: the board may be sent when the pace allows.
    pub moved: bool,
    /// The game ended: `(won, forfeited)`.
    pub finished: Option<(bool, bool)>,
}

impl EventDigest {
    pub fn of<'a>(events: impl IntoIterator<Item = &'a Event>) -> EventDigest {
        let mut d = EventDigest::default();
        for e in events {
            match e.kind {
                EventKind::AttackSent { lines } if lines > 0 => {
                    d.attacks.push(Report::Attack { lines });
                    d.progress = true;
                }
                EventKind::Lock { .. }
                | EventKind::LineClear(_)
                | EventKind::GarbageRisen { .. } => {
                    d.board = true;
                    d.progress = true;
                }
                EventKind::GarbageQueued { .. } | EventKind::GarbageCancelled { .. } => {
                    d.progress = true;
                }
                EventKind::Move { .. }
                | EventKind::Rotate { .. }
                | EventKind::Fall { .. }
                | EventKind::Spawn { .. } => d.moved = true,
                // The held piece and the queue changed: spectators see them in the numbers.
                EventKind::Hold { .. } => {
                    d.moved = true;
                    d.progress = true;
                }
                EventKind::GameOver { won, reason } => {
                    d.finished = Some((won, reason == EndReason::Forfeit));
                }
                _ => {}
            }
        }
        d
    }
}

/// The reports that close a game in a room: how it ended, then its replay.
pub fn end_reports(game: &Game, won: bool, forfeit: bool) -> [Report; 2] {
    let progress = progress_of(game);
    [
        if forfeit {
            Report::Forfeited { progress }
        } else {
            Report::Finished { won, progress }
        },
        Report::Replay(Box::new(game.replay())),
    ]
}

/// The 20 visible rows of a game's board with its falling piece.
pub fn snapshot(game: &Game) -> BoardSnapshot {
    let board = game.board();
    let mut rows = vec![[0u8; WIDTH]; VISIBLE_HEIGHT];
    for (vy, row) in rows.iter_mut().enumerate() {
        for (x, cell) in row.iter_mut().enumerate() {
            *cell = match board.cell(x, BUFFER_HEIGHT + vy) {
                Cell::Empty => 0,
                Cell::Block(p) => p as u8 + 1,
                Cell::Garbage => 8,
            };
        }
    }
    if let Some(a) = game.active() {
        for (x, y) in a.placed.cells() {
            let vy = isize::from(y) - BUFFER_HEIGHT as isize;
            if (0..VISIBLE_HEIGHT as isize).contains(&vy) && (0..WIDTH as i8).contains(&x) {
                rows[vy as usize][x as usize] = a.placed.piece as u8 + 1;
            }
        }
    }
    BoardSnapshot { rows }
}

/// The player's running numbers.
pub fn progress_of(game: &Game) -> Progress {
    let stats = game.stats();
    let (ready, waiting) = game.garbage().pending();
    let mut next = [0u8; crate::online::NEXT_SHOWN];
    for (slot, p) in next.iter_mut().zip(game.preview()) {
        *slot = p as u8 + 1;
    }
    Progress {
        lines: stats.lines,
        pieces: stats.pieces,
        attack_sent: stats.sent,
        garbage_received: stats.garbage_received,
        time_ms: game.now(),
        pending_garbage: ready + waiting,
        hold: game.hold_piece().map_or(0, |p| p as u8 + 1),
        next,
    }
}
