//! Games started from a position (`Game::from_position`): the board, pieces, hold and chains
//! are the position's, and the rules carry on from there.

use minotty_engine::{
    Board, Button, EndReason, EventKind, Game, GameConfig, Input, Piece, Position,
};

fn position(rows: &[&str], current: Piece, next: &[Piece]) -> Position {
    Position {
        board: Board::from_ascii(rows),
        current,
        next: next.to_vec(),
        hold: None,
        combo: 0,
        back_to_back: false,
    }
}

fn tap(game: &mut Game, time: u64, button: Button) -> Vec<EventKind> {
    let mut kinds: Vec<EventKind> = game
        .update(time, Some(Input::Press(button)))
        .iter()
        .map(|e| e.kind)
        .collect();
    kinds.extend(
        game.update(time, Some(Input::Release(button)))
            .iter()
            .map(|e| e.kind),
    );
    kinds
}

#[test]
fn the_position_is_the_game_state() {
    let mut p = position(&["##.#######"], Piece::I, &[Piece::T, Piece::S, Piece::Z]);
    p.hold = Some(Piece::O);
    let game = Game::from_position(GameConfig::default(), &p, 3);
    assert_eq!(game.board(), &p.board);
    assert_eq!(game.active().map(|a| a.placed.piece), Some(Piece::I));
    assert_eq!(
        game.preview().take(3).collect::<Vec<_>>(),
        [Piece::T, Piece::S, Piece::Z]
    );
    assert!(game.preview().count() >= 6, "dealt beyond the known pieces");
    assert_eq!(game.hold_piece(), Some(Piece::O));
    assert!(game.can_hold());
    assert_eq!(game.combo(), None);
    assert!(!game.back_to_back());
}

#[test]
fn chains_carry_on_from_the_position() {
    // A vertical I in the well clears four rows: the third clear of a chain, and back to back.
    let rows = ["#########.", "#########.", "#########.", "#########."];
    let mut p = position(&rows, Piece::I, &[Piece::T]);
    p.combo = 2;
    p.back_to_back = true;
    let mut game = Game::from_position(GameConfig::default(), &p, 3);
    assert_eq!(game.combo(), Some(1));
    assert!(game.back_to_back());
    tap(&mut game, 0, Button::RotateCw);
    for t in 1..=4 {
        tap(&mut game, t, Button::Right);
    }
    let kinds = tap(&mut game, 5, Button::HardDrop);
    let clear = kinds
        .iter()
        .find_map(|k| match k {
            EventKind::LineClear(c) => Some(*c),
            _ => None,
        })
        .expect("a clear");
    assert_eq!(clear.lines, 4);
    assert_eq!(clear.combo, 2);
    assert!(clear.b2b);
}

#[test]
fn a_position_whose_piece_cannot_spawn_is_over() {
    let full: Vec<&str> = vec!["#########."; 40];
    let game = Game::from_position(GameConfig::default(), &position(&full, Piece::T, &[]), 3);
    assert_eq!(game.outcome(), Some((EndReason::BlockOut, false)));
}
