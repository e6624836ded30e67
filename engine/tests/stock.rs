//! Stock (a versus room's extra lives, `Mode::lives`), the entry delay and gravity's start
//! level as a room sets them, each through real games: a top-out with a life left is a fresh
//! board that keeps the numbers, the last life's top-out ends the game, and one replay spans
//! every life and verifies.

use minotty_engine::versus::{
    GameDraft, GameSettings, MatchKind, RoomLimit, RoomSettings, SeriesSettings,
};
use minotty_engine::{
    Button, EndReason, EventKind, Game, GameConfig, Input, Mode, RESPAWN_DELAY, Replay,
};

fn battle(stock: u8) -> Mode {
    RoomSettings::new(MatchKind::Battle, 2, RoomLimit::None)
        .with_series(SeriesSettings::new(1, 1, stock))
        .mode()
}

/// Hard drops at 50 ms steps until the game ends or `max` drops, noting each respawn's lives
/// left and the time it came.
fn drop_until_over(game: &mut Game, max: usize) -> Vec<(u8, u64)> {
    let mut t = 0;
    let mut respawns = Vec::new();
    for _ in 0..max {
        if game.is_over() {
            break;
        }
        t += 50;
        for e in game.update(t, Some(Input::Press(Button::HardDrop))) {
            if let EventKind::Respawn { left } = e.kind {
                respawns.push((left, e.time));
            }
        }
        t += 50;
        game.update(t, Some(Input::Release(Button::HardDrop)));
    }
    respawns
}

fn game(mode: Mode, seed: u32) -> Game {
    Game::new(
        GameConfig {
            mode,
            ..GameConfig::default()
        },
        seed,
    )
}

/// (stock) -> (respawns, each with the lives left after it), then the end.
#[test]
fn every_life_is_a_fresh_board_and_the_last_top_out_ends_the_game() {
    let rows: &[(u8, &[u8])] = &[(0, &[]), (1, &[0]), (2, &[1, 0]), (5, &[4, 3, 2, 1, 0])];
    for &(stock, want) in rows {
        let mut g = game(battle(stock), 11);
        assert_eq!(g.lives_left(), stock);
        let respawns = drop_until_over(&mut g, 2000);
        let lefts: Vec<u8> = respawns.iter().map(|r| r.0).collect();
        assert_eq!(lefts, want, "stock {stock}");
        assert!(g.is_over(), "stock {stock}: the last life ends it");
        assert!(
            matches!(
                g.outcome(),
                Some((
                    EndReason::TopOut | EndReason::BlockOut | EndReason::LockOut,
                    false
                ))
            ),
            "{:?}",
            g.outcome()
        );
        assert_eq!(g.lives_left(), 0);
    }
}

/// A respawn empties the board and the garbage waiting, keeps the pieces placed, and the next
/// piece comes `RESPAWN_DELAY` later.
#[test]
fn a_respawn_keeps_the_numbers_and_clears_the_board() {
    let mut g = game(battle(1), 5);
    let mut t = 0;
    let mut at = None;
    while at.is_none() && t < 100_000 {
        t += 50;
        if t == 500 {
            g.update(t, Some(Input::Garbage(3)));
        }
        for e in g.update(t, Some(Input::Press(Button::HardDrop))) {
            if let EventKind::Respawn { left } = e.kind {
                at = Some((left, e.time));
            }
        }
        t += 50;
        g.update(t, Some(Input::Release(Button::HardDrop)));
    }
    let (left, when) = at.expect("a respawn");
    assert_eq!(left, 0);
    let pieces = g.stats().pieces;
    assert!(pieces > 5);
    // Released at `when + 50`: the board is empty until the next piece.
    assert!(g.board().is_empty(), "{:?}", g.board().to_ascii());
    assert!(g.active().is_none());
    assert_eq!(g.garbage().pending(), (0, 0));
    let spawn = when + u64::from(RESPAWN_DELAY);
    g.update(spawn - 1, None);
    assert!(g.active().is_none(), "no piece before the delay");
    g.update(spawn, None);
    assert!(g.active().is_some(), "the next piece after it");
    assert_eq!(g.stats().pieces, pieces, "the numbers carry over");
    assert!(!g.is_over());
}

/// One replay spans every life: its bytes (format 5) hold the lives and it re-simulates to the
/// same numbers and end; a replay that claims more lives than a room has does not read.
#[test]
fn one_replay_spans_every_life_and_verifies() {
    let mut g = game(battle(2), 21);
    drop_until_over(&mut g, 2000);
    let replay = g.replay();
    assert_eq!(replay.mode.lives, 2);
    let bytes = replay.to_bytes();
    assert_eq!(bytes[4], 5, "format 5");
    let back = Replay::from_bytes(&bytes).expect("reads");
    assert_eq!(back, replay);
    let v = back.verify().expect("plays");
    assert_eq!(v.stats, *g.stats());
    assert_eq!(v.outcome, g.outcome());
    // The same game without lives ends at the first top-out: fewer pieces.
    let mut once = game(battle(0), 21);
    drop_until_over(&mut once, 2000);
    assert!(once.stats().pieces < g.stats().pieces);
    assert_eq!(
        once.replay().to_bytes()[4],
        1,
        "no lives: format 1 as before"
    );
    // Lives past any room's stock are refused.
    let mut wild = replay.clone();
    wild.mode.lives = 6;
    assert!(Replay::from_bytes(&wild.to_bytes()).is_err());
}

/// The room's entry delay is each piece's appearance delay: (entry) -> (when the second
/// piece spawns after the first hard drop at 50 ms).
#[test]
fn the_entry_delay_spaces_the_pieces() {
    let rows: &[(Option<u16>, u64)] = &[(None, 50), (Some(0), 50), (Some(300), 350)];
    for &(entry_ms, want) in rows {
        let settings = GameSettings::new(GameDraft {
            entry_ms,
            ..GameDraft::DEFAULT
        });
        let room = RoomSettings::new(MatchKind::Battle, 2, RoomLimit::None).with_game(settings);
        let mut g = Game::new(
            GameConfig {
                mode: room.mode(),
                tuning: settings.tuning(),
                ..GameConfig::default()
            },
            3,
        );
        g.update(0, None);
        let mut spawned = None;
        for e in g.update(50, Some(Input::Press(Button::HardDrop))) {
            if matches!(e.kind, EventKind::Spawn { .. }) {
                spawned = Some(e.time);
            }
        }
        g.update(60, Some(Input::Release(Button::HardDrop)));
        for t in (60..=1000).step_by(10) {
            for e in g.update(t, None) {
                if spawned.is_none() && matches!(e.kind, EventKind::Spawn { .. }) {
                    spawned = Some(e.time);
                }
            }
        }
        assert_eq!(spawned, Some(want), "entry {entry_ms:?}");
        // The replay records the tuning and verifies.
        assert!(g.replay().verify().is_ok());
    }
}

/// Gravity's start level: (start level) -> the game's level at the start.
#[test]
fn the_start_level_is_the_games() {
    for (start, want) in [(0u8, 0u32), (5, 5), (20, 20), (40, 20)] {
        let settings = GameSettings::new(GameDraft {
            start_level: start,
            ..GameDraft::DEFAULT
        });
        let room = RoomSettings::new(MatchKind::Battle, 2, RoomLimit::None).with_game(settings);
        let mut g = game(room.mode(), 1);
        g.update(0, None);
        assert_eq!(g.level(), want, "start {start}");
    }
}
