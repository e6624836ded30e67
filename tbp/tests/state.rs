//! The TBP state both ends track, and minotty-bot's moves played on real engine games.

use minotty_engine::{Board, Game, GameConfig, Mode, Piece};
use minotty_tbp::frame::placed_to_location;
use minotty_tbp::path::{execute, outcomes, path_to};
use minotty_tbp::state::PlayError;
use minotty_tbp::{Location, Move, Orientation, TbpPiece, TbpSpin, TbpState, brain};

fn state(rows: &[&str], queue: &[Piece], hold: Option<Piece>) -> TbpState {
    TbpState {
        board: Board::from_ascii(rows),
        queue: queue.iter().copied().collect(),
        hold,
        combo: 0,
        back_to_back: false,
    }
}

fn mv(kind: TbpPiece, orientation: Orientation, x: i32, y: i32) -> Move {
    Move {
        location: Location {
            kind,
            orientation,
            x,
            y,
        },
        spin: TbpSpin::None,
    }
}

#[test]
fn play_places_clears_and_counts() {
    // An I laid flat in the gap clears the bottom row.
    let mut s = state(&["###....###"], &[Piece::I, Piece::T, Piece::O], None);
    s.play(&mv(TbpPiece::I, Orientation::North, 4, 0))
        .expect("fits");
    assert!(s.board.is_empty());
    assert_eq!(s.queue, [Piece::T, Piece::O]);
    assert_eq!((s.combo, s.back_to_back), (1, false));
    // A placement that clears nothing ends the combo.
    s.play(&mv(TbpPiece::T, Orientation::North, 4, 0))
        .expect("fits");
    assert_eq!(s.board, Board::from_ascii(&["....T.....", "...TTT...."]));
    assert_eq!(s.combo, 0);
}

#[test]
fn play_infers_hold_from_the_piece() {
    // The held piece is played; the piece in play goes to hold.
    let mut s = state(&[], &[Piece::T, Piece::O], Some(Piece::I));
    s.play(&mv(TbpPiece::I, Orientation::North, 4, 0))
        .expect("fits");
    assert_eq!((s.hold, s.queue.len()), (Some(Piece::T), 1));
    // With an empty hold, the next piece is played and the one in play is held.
    let mut s = state(&[], &[Piece::T, Piece::O, Piece::S], None);
    s.play(&mv(TbpPiece::O, Orientation::North, 4, 0))
        .expect("fits");
    assert_eq!(s.hold, Some(Piece::T));
    assert_eq!(s.queue, [Piece::S]);
    // Any other piece is refused, and nothing changes.
    let before = s.clone();
    assert_eq!(
        s.play(&mv(TbpPiece::Z, Orientation::North, 1, 0)),
        Err(PlayError::WrongPiece)
    );
    assert_eq!(s, before);
}

#[test]
fn play_refuses_what_does_not_fit() {
    let mut s = state(&["TTTTTTTTT."], &[Piece::T], None);
    let before = s.clone();
    for bad in [
        mv(TbpPiece::T, Orientation::North, 4, 0), // overlaps the stack
        mv(TbpPiece::T, Orientation::North, 4, -1), // below the floor
        mv(TbpPiece::T, Orientation::North, 9, 5), // through the right wall
        mv(TbpPiece::T, Orientation::North, 4, 9999),
    ] {
        assert_eq!(s.play(&bad), Err(PlayError::DoesNotFit), "{bad:?}");
        assert_eq!(s, before);
    }
}

#[test]
fn new_pieces_are_bounded() {
    let mut s = state(&[], &[], None);
    for _ in 0..minotty_tbp::state::MAX_QUEUE {
        s.new_piece(Piece::T).expect("room");
    }
    assert_eq!(s.new_piece(Piece::T), Err(PlayError::QueueFull));
    assert_eq!(s.queue.len(), minotty_tbp::state::MAX_QUEUE);
}

#[test]
fn a_game_seen_through_tbp_is_the_same_game() {
    let mut game = Game::new(GameConfig::default(), 7);
    game.update(0, None);
    let s = TbpState::of_game(&game, 5).expect("a piece in play");
    assert_eq!(s.queue.len(), 6);
    assert_eq!(s.to_start().queue.len(), 6);
    assert_eq!(TbpState::from_start(&s.to_start()), s);
    let copy = Game::from_position(GameConfig::default(), &s.position().expect("a piece"), 99);
    assert_eq!(copy.board(), game.board());
    assert_eq!(copy.active(), game.active());
    assert_eq!(
        copy.preview().take(5).collect::<Vec<_>>(),
        game.preview().take(5).collect::<Vec<_>>()
    );
}

/// Plays `game` with minotty-bot's first suggestion each piece, tracking the bot's view as a
/// frontend would, until `pieces` pieces are placed or the game ends.
fn play_with_minotty_bot(game: &mut Game, pieces: u32) {
    play_with(game, pieces, brain::suggest);
}

fn play_with(game: &mut Game, pieces: u32, mut suggest: impl FnMut(&TbpState) -> Vec<Move>) {
    game.update(0, None);
    while !game.is_over() && game.stats().pieces < pieces {
        if game.active().is_none() {
            let t = game.next_deadline().expect("a deadline while clearing");
            game.update(t, None);
            continue;
        }
        let mut view = TbpState::of_game(game, 5).expect("in play");
        let moves = suggest(&view);
        assert!(!moves.is_empty(), "no move at {:?}", game.board());
        let buttons = path_to(game, &moves[0]).expect("the bot's first move is reachable");
        let t = execute(game, &buttons);
        game.update(t + 100, None);
        // The bot's own bookkeeping of the move agrees with the engine.
        view.play(&moves[0]).expect("the bot's move plays");
        if game.active().is_some() {
            assert_eq!(&view.board, game.board());
            assert_eq!(view.hold, game.hold_piece());
        }
    }
}

#[test]
fn minotty_bot_plays_a_long_marathon_by_the_rules() {
    let mut game = Game::new(
        GameConfig {
            mode: Mode::marathon(),
            ..GameConfig::default()
        },
        5,
    );
    play_with_minotty_bot(&mut game, 200);
    assert_eq!(game.stats().pieces, 200, "topped out: {:?}", game.board());
    assert!(game.stats().lines >= 70, "{} lines", game.stats().lines);
    let verified = game.replay().verify().expect("the replay verifies");
    assert_eq!(verified.stats.pieces, 200);
    assert_eq!(verified.stats.lines, game.stats().lines);
}

#[test]
fn minotty_bot_with_the_versus_brain_plays_by_the_rules() {
    for level in [1, 4, 7] {
        let level = minotty_bots::versus::Level::new(level).expect("a level");
        let mut versus = brain::VersusBrain::new(level, 1);
        let mut game = Game::new(
            GameConfig {
                mode: Mode::marathon(),
                ..GameConfig::default()
            },
            // A seed whose pieces (the uniform bag of standard version 2) let the gentle
            // level clear 40 lines in 120 pieces (seed 21 did under version 1's bag).
            23,
        );
        play_with(&mut game, 120, |view| versus.suggest(view));
        assert_eq!(game.stats().pieces, 120, "{level}: topped out");
        assert!(
            game.stats().lines >= 40,
            "{level}: {} lines",
            game.stats().lines
        );
        assert!(game.replay().verify().is_ok());
    }
}

#[test]
fn every_reachable_placement_has_a_path_back() {
    let mut game = Game::new(GameConfig::default(), 11);
    game.update(0, None);
    game.set_board(Board::from_ascii(&[
        "#...#.....",
        "##.###.###",
        "##.#######",
    ]));
    let reached = outcomes(&game);
    assert!(reached.len() > 30, "{} placements", reached.len());
    for r in &reached {
        let m = Move {
            location: placed_to_location(r.placed),
            spin: r.spin.into(),
        };
        let buttons = path_to(&game, &m).expect("a path");
        let mut copy = game.fork();
        let before = copy.stats().pieces;
        execute(&mut copy, &buttons);
        assert_eq!(copy.stats().pieces, before + 1);
        let mut view = TbpState::of_game(&game, 5).expect("in play");
        view.play(&m).expect("plays");
        if copy.active().is_some() {
            assert_eq!(&view.board, copy.board(), "{m:?}");
        }
    }
}

#[test]
fn minotty_bot_finds_and_names_a_t_spin_double() {
    // A T-spin double slot: the T must turn into it under the overhang at (3, 2).
    let view = state(
        &["...#......", "#...######", "##.#######"],
        &[Piece::T, Piece::I],
        None,
    );
    let moves = brain::suggest(&view);
    let tsd = Move {
        location: Location {
            kind: TbpPiece::T,
            orientation: Orientation::South,
            x: 2,
            y: 1,
        },
        spin: TbpSpin::Full,
    };
    assert_eq!(moves.first(), Some(&tsd), "{moves:?}");
    // The frontend's path plays it as a spin on a real game.
    let game = Game::from_position(GameConfig::default(), &view.position().expect("a piece"), 1);
    let buttons = path_to(&game, &tsd).expect("reachable");
    let played = minotty_tbp::path::try_path(&game, &buttons).expect("locks");
    assert_eq!(played.spin, minotty_engine::Spin::Full);
    assert_eq!(played.lines, 2);
    // The piece turns into the slot last, then drops.
    use minotty_engine::Button::{HardDrop, Rotate180, RotateCcw, RotateCw};
    assert!(
        matches!(
            buttons[..],
            [.., RotateCw | RotateCcw | Rotate180, HardDrop]
        ),
        "{buttons:?}"
    );
}

#[test]
fn a_move_of_the_piece_in_play_is_played_without_hold() {
    // The next piece is a T too: a T move could also be played by holding this T and placing
    // the next one, but TBP infers hold from the piece, so it is played without.
    let view = state(&[], &[Piece::T, Piece::T, Piece::O], None);
    let mut game =
        Game::from_position(GameConfig::default(), &view.position().expect("a piece"), 1);
    // The T in play went right: through hold the next T would get to the left in fewer taps.
    execute(&mut game, &[minotty_engine::Button::Right; 4]);
    let m = mv(TbpPiece::T, Orientation::North, 1, 0);
    let buttons = path_to(&game, &m).expect("reachable");
    assert!(
        !buttons.contains(&minotty_engine::Button::Hold),
        "{buttons:?}"
    );
    // And a move of the next piece goes through hold.
    let m = mv(TbpPiece::O, Orientation::North, 7, 0);
    let view = state(&[], &[Piece::T, Piece::O], None);
    let game = Game::from_position(GameConfig::default(), &view.position().expect("a piece"), 1);
    let buttons = path_to(&game, &m).expect("reachable through hold");
    assert_eq!(buttons.first(), Some(&minotty_engine::Button::Hold));
}

#[test]
fn garbage_rows_push_the_board_up_and_are_found_again() {
    let before = state(&["TT........", "TTT.....OO"], &[Piece::I], None);
    let after = Board::from_ascii(&["TT........", "TTT.....OO", "GGGG.GGGGG", "GGGGGGG.GG"]);
    // Two rows, listed top first: the last one is the new bottom row.
    let rows = before.garbage_to(&after).expect("garbage rose");
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0][4], None, "the upper row's hole");
    assert_eq!(rows[1][7], None, "the bottom row's hole");
    let mut told = before.clone();
    told.add_garbage(&rows);
    assert_eq!(told.board, after);
    // Anything but rows pushed in under it is no garbage.
    let changed = Board::from_ascii(&["TT.......I", "TTT.....OO", "GGGG.GGGGG"]);
    assert_eq!(before.garbage_to(&changed), None);
    assert_eq!(before.garbage_to(&before.board), None);
}
