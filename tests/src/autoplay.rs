//! Plays a real game over SSH by reading the screen, like a (fast, tidy) player: it finds the
//! playfield with [`crate::board::find`], tells the falling piece (the four blocks near the top)
//! from the stack, picks the placement the engine's bot evaluation likes best, and sends the
//! taps (rotate, shift, hard drop) as kitty keyboard press/release pairs.
//!
//! The session must have the kitty keyboard protocol on ([`kitty_reply`] answered at the
//! start), so that every tap is a press and a release and no key-repeat guessing applies.

use std::time::Duration;

use anyhow::{Context, bail};
use minotty_bots::{Weights, evaluate};
use minotty_engine::{Board, Cell, Piece, Placed, Rotation};

use crate::{PtySession, board};

/// What a terminal with the kitty keyboard protocol answers to the server's queries (flags,
/// then device attributes): the server then asks for press and release events.
pub const KITTY_REPLY: &[u8] = b"\x1b[?0u\x1b[?62;22c";

/// The bytes of one tap (press then release) of a key in the kitty protocol: a character, or
/// an arrow (`'A'` up, `'B'` down, `'C'` right, `'D'` left).
pub fn kitty_tap(key: KittyKey) -> Vec<u8> {
    match key {
        KittyKey::Char(c) => format!("\x1b[{};1:1u\x1b[{};1:3u", c as u32, c as u32).into_bytes(),
        KittyKey::Arrow(a) => format!("\x1b[1;1:1{a}\x1b[1;1:3{a}").into_bytes(),
    }
}

/// Text typed in the kitty protocol (each character tapped).
pub fn kitty_text(text: &str) -> Vec<u8> {
    text.chars()
        .flat_map(|c| kitty_tap(KittyKey::Char(c)))
        .collect()
}

/// Keys as the kitty protocol encodes them.
#[derive(Clone, Copy, Debug)]
pub enum KittyKey {
    Char(char),
    Arrow(char),
}

pub const K_ENTER: KittyKey = KittyKey::Char('\r');
pub const K_TAB: KittyKey = KittyKey::Char('\t');
pub const K_BACKSPACE: KittyKey = KittyKey::Char('\u{7f}');
pub const K_ESC: KittyKey = KittyKey::Char('\u{1b}');
pub const K_DOWN: KittyKey = KittyKey::Arrow('B');

/// The stack and the falling piece as read from the screen.
#[derive(Clone, Debug)]
struct Seen {
    stack: Board,
    piece: Placed,
}

/// Rows of the visible playfield the falling piece is looked for in.
const SPAWN_ROWS: usize = 4;

fn read(screen: &vt100::Screen) -> Option<Seen> {
    let b = board::find(screen)?;
    if b.lines.len() != 20 {
        return None;
    }
    let mut filled: Vec<(i8, i8)> = Vec::new();
    for (row, line) in b.lines.iter().enumerate() {
        let chars: Vec<char> = line.chars().collect();
        for (x, cell) in chars.chunks(2).enumerate() {
            let text: String = cell.iter().collect();
            if text == "██" || text == "[]" {
                filled.push((x as i8, row as i8));
            }
        }
    }
    let (top, rest): (Vec<_>, Vec<_>) = filled
        .into_iter()
        .partition(|&(_, y)| (y as usize) < SPAWN_ROWS);
    if top.len() != 4 {
        return None;
    }
    let min_x = top.iter().map(|c| c.0).min()?;
    let min_y = top.iter().map(|c| c.1).min()?;
    let mut shape: Vec<(i8, i8)> = top.iter().map(|&(x, y)| (x - min_x, y - min_y)).collect();
    shape.sort_unstable();
    let piece = Piece::ALL.into_iter().find(|p| {
        let cells = p.cells(Rotation::ALL[0]);
        let (dx, dy) = (
            cells.iter().map(|c| c.0).min().unwrap_or(0),
            cells.iter().map(|c| c.1).min().unwrap_or(0),
        );
        let mut norm: Vec<(i8, i8)> = cells.iter().map(|&(x, y)| (x - dx, y - dy)).collect();
        norm.sort_unstable();
        norm == shape
    })?;
    let cells = piece.cells(Rotation::ALL[0]);
    let dx = cells.iter().map(|c| c.0).min()?;
    let dy = cells.iter().map(|c| c.1).min()?;
    // Visible row 0 is board row 20 (20 hidden rows above).
    let placed = Placed {
        piece,
        rotation: Rotation::ALL[0],
        x: min_x - dx,
        y: min_y - dy + 20,
    };
    let mut stack = Board::new();
    for (x, y) in rest {
        stack.set(x as usize, y as usize + 20, Cell::Garbage);
    }
    Some(Seen {
        stack,
        piece: placed,
    })
}

/// What to play next on a screen: the stack it was read from (a new piece is one over a
/// changed stack) and the taps of the best placement.
#[derive(Clone, Debug)]
pub struct Move {
    pub stack: Board,
    pub keys: Vec<KittyKey>,
}

/// The next move on `screen`, when it shows a playfield with a piece at the top; `Err` when
/// the piece fits nowhere.
pub fn next_move(screen: &vt100::Screen) -> Option<anyhow::Result<Move>> {
    let seen = read(screen)?;
    Some(plan(&seen).context("no placement fits").map(|keys| Move {
        stack: seen.stack,
        keys,
    }))
}

/// The best placement's taps: rotations, shifts and the hard drop.
fn plan(seen: &Seen) -> Option<Vec<KittyKey>> {
    let weights = Weights::default();
    let mut best: Option<(i64, Vec<KittyKey>)> = None;
    for turns in 0..4i8 {
        let rotated = Placed {
            rotation: seen.piece.rotation.turned(turns),
            ..seen.piece
        };
        if !seen.stack.fits(&rotated) {
            continue;
        }
        for dir in [-1i8, 1] {
            let mut at = rotated;
            let mut shifts = 0;
            loop {
                let mut landed = at;
                while seen.stack.fits(&landed.shifted(0, 1)) {
                    landed = landed.shifted(0, 1);
                }
                let mut after = seen.stack.clone();
                after.lock(&landed);
                let full = after.full_rows();
                let lines = full.count_ones();
                after.clear_rows(full);
                let score = evaluate(&after, lines, &weights);
                if best.as_ref().is_none_or(|b| score > b.0) {
                    let mut keys = match turns {
                        0 => vec![],
                        1 => vec![KittyKey::Char('x')],
                        2 => vec![KittyKey::Char('x'), KittyKey::Char('x')],
                        _ => vec![KittyKey::Char('z')],
                    };
                    let arrow = if dir < 0 { 'D' } else { 'C' };
                    keys.extend(std::iter::repeat_n(KittyKey::Arrow(arrow), shifts));
                    keys.push(KittyKey::Char(' '));
                    best = Some((score, keys));
                }
                let next = at.shifted(dir, 0);
                if !seen.stack.fits(&next) {
                    break;
                }
                at = next;
                shifts += 1;
            }
        }
    }
    best.map(|b| b.1)
}

/// Plays the game on screen until `done` says so (e.g. the results appear), at most
/// `max_pieces` pieces.
pub async fn play_until(
    s: &mut PtySession,
    max_pieces: u32,
    done: impl Fn(&str) -> bool,
) -> anyhow::Result<u32> {
    let mut last_stack: Option<Board> = None;
    for placed in 0..max_pieces {
        // Wait for a new piece at the top over a changed stack (after a lock, the line-clear
        // pause and the next spawn).
        let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
        let next = loop {
            if done(&s.contents()) {
                return Ok(placed);
            }
            if let Some(next) = next_move(s.screen()) {
                let next = next?;
                if last_stack.as_ref() != Some(&next.stack) {
                    break next;
                }
            }
            if tokio::time::Instant::now() >= deadline {
                bail!(
                    "no new piece after {placed} pieces; screen:\n{}",
                    s.contents()
                );
            }
            s.pump_for(Duration::from_millis(20)).await;
        };
        let bytes: Vec<u8> = next.keys.into_iter().flat_map(kitty_tap).collect();
        s.send(&bytes).await?;
        last_stack = Some(next.stack);
    }
    bail!("the game did not end within {max_pieces} pieces")
}
