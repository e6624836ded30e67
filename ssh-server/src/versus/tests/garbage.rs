//! A room's garbage settings reach every player's game through `MatchStart`, and the room
//! routes what those games send: a 200% multiplier's attack arrives doubled.

use minotty_engine::versus::{Blocking, GarbageDraft, GarbageSettings};
use minotty_engine::{
    Board, Button, EventKind, Game, GameConfig, Input, Piece, Position, Rotation,
};

use super::*;

/// The well an I down column 9 clears four rows of.
fn well() -> Board {
    Board::from_ascii(&[
        "##........",
        "#########.",
        "#########.",
        "#########.",
        "#########.",
    ])
}

#[tokio::test(start_paused = true)]
async fn a_match_under_non_default_garbage_settings_routes_the_multiplied_attack() {
    let garbage = GarbageSettings::new(GarbageDraft {
        multiplier: 200,
        blocking: Blocking::Passthrough,
        ..GarbageDraft::default()
    });
    let shared = SharedVersus::default();
    let (mut c, _) = room_of(&shared, battle(2).with_garbage(garbage), &["ann", "bob"]).await;
    assert_eq!(c[0].room().await.options.garbage(), &garbage);
    c[0].send(Request::Room(RoomCommand::Start));
    let mut starts = Vec::new();
    for client in c.iter_mut() {
        starts.push(
            client
                .wait(|r| match r {
                    Response::MatchStart(s) => Some(s),
                    _ => None,
                })
                .await,
        );
    }
    for s in &starts {
        assert_eq!(
            s.mode.garbage, garbage,
            "every player's game gets the settings"
        );
    }
    // Ann's game, as her App builds it from the match's start, makes a tetris.
    let config = GameConfig {
        mode: starts[0].mode.clone(),
        ..GameConfig::default()
    };
    let position = Position {
        board: well(),
        current: Piece::I,
        next: vec![Piece::I; 6],
        hold: None,
        combo: 0,
        back_to_back: false,
    };
    let mut game = Game::from_position(config, &position, starts[0].seed);
    let mut sent = Vec::new();
    for (t, input) in [
        (10, Input::Press(Button::RotateCw)),
        (10, Input::Release(Button::RotateCw)),
    ] {
        game.update(t, Some(input));
    }
    for _ in 0..4 {
        game.update(20, Some(Input::Press(Button::Right)));
        game.update(20, Some(Input::Release(Button::Right)));
    }
    let placed = game.active().map(|a| (a.placed.rotation, a.placed.x));
    assert_eq!(placed, Some((Rotation::East, 7)), "down column 9");
    for e in game.update(30, Some(Input::Press(Button::HardDrop))) {
        if let EventKind::AttackSent { lines } = e.kind {
            sent.push(lines);
        }
    }
    assert_eq!(sent, vec![8], "a tetris is 4 lines, doubled");
    c[0].report(sent.iter().map(|&lines| Report::Attack { lines }).collect());
    let (lines, from) = c[1]
        .wait(|r| match r {
            Response::Garbage { lines, from } => Some((lines, from)),
            _ => None,
        })
        .await;
    assert_eq!((lines, from), (8, 0));
}
