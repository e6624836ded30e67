//! Replays reproduce games exactly: every event, the final board and the stats; the binary and
//! JSON forms round-trip; damaged replays are refused without panicking.

use minotty_bots::autoplay;
use minotty_engine::{
    Button, EndReason, Event, Game, GameConfig, Handling, Input, Mode, Playback, Replay,
    ReplayError, Stat,
};

fn played(mode: Mode, seed: u32, pieces: u32) -> Game {
    let mut game = Game::new(
        GameConfig {
            mode,
            ..GameConfig::default()
        },
        seed,
    );
    autoplay(&mut game, pieces, 120);
    game
}

fn events_of(replay: &Replay) -> (Game, Vec<Event>) {
    let mut events = Vec::new();
    let game = replay.play_with(|e| events.push(*e)).expect("replay plays");
    (game, events)
}

#[test]
fn bot_finishes_a_sprint_and_its_replay_reproduces_every_event() {
    let game = played(Mode::sprint(), 7, 1000);
    assert_eq!(game.outcome(), Some((EndReason::Limit(Stat::Lines), true)));
    assert!(game.stats().lines >= 40);

    let replay = game.replay();
    let (first, events_a) = events_of(&replay);
    let (second, events_b) = events_of(&replay);
    assert!(!events_a.is_empty());
    assert_eq!(events_a, events_b);
    assert_eq!(first.board(), game.board());
    assert_eq!(second.board(), game.board());
    assert_eq!(first.stats(), game.stats());
    assert_eq!(replay.verify().expect("verifies").stats, *game.stats());
}

#[test]
fn binary_form_round_trips_and_is_compact() {
    for (mode, seed) in [
        (Mode::sprint(), 1),
        (Mode::cheese(20), 2),
        (Mode::combo(), 3),
        (Mode::master(), 4),
        (Mode::custom(5, false, Some((Stat::Pieces, 30))), 5),
    ] {
        let game = played(mode, seed, 60);
        let mut replay = game.replay();
        replay.handling = Handling {
            das: 120,
            arr: 0,
            sdf: 0,
            ..Handling::default()
        };
        replay.inputs.push((replay.end + 5, Input::Garbage(3)));
        replay.inputs.push((replay.end + 6, Input::ReleaseAll));
        replay.inputs.push((replay.end + 7, Input::Forfeit));
        replay.end += 10;
        let bytes = replay.to_bytes();
        assert_eq!(Replay::from_bytes(&bytes), Ok(replay.clone()));
        // About 2 bytes per tap (press or release) plus a small header.
        assert!(
            bytes.len() < 64 + 3 * replay.inputs.len(),
            "{} bytes",
            bytes.len()
        );
    }
}

#[test]
fn json_form_round_trips() {
    let replay = played(Mode::sprint(), 11, 30).replay();
    let json = serde_json::to_string(&replay).expect("serialises");
    let back: Replay = serde_json::from_str(&json).expect("parses");
    assert_eq!(back, replay);
}

#[test]
fn damaged_bytes_are_refused_without_panicking() {
    let bytes = played(Mode::sprint(), 3, 20).replay().to_bytes();
    for cut in 0..bytes.len() {
        assert!(Replay::from_bytes(&bytes[..cut]).is_err(), "prefix {cut}");
    }
    let mut wrong_magic = bytes.clone();
    wrong_magic[0] = b'X';
    assert_eq!(
        Replay::from_bytes(&wrong_magic),
        Err(ReplayError::Malformed("not a minotty replay"))
    );
    let mut trailing = bytes.clone();
    trailing.push(0);
    assert!(Replay::from_bytes(&trailing).is_err());
    // Flipping any single byte either fails to parse or parses to something else: never panics.
    for i in 0..bytes.len() {
        let mut flipped = bytes.clone();
        flipped[i] ^= 0xFF;
        if let Ok(r) = Replay::from_bytes(&flipped) {
            let _ = r.verify();
        }
    }
}

#[test]
fn tampered_replay_does_not_reproduce_the_stats() {
    let game = played(Mode::sprint(), 5, 40);
    let mut replay = game.replay();
    let honest = replay.verify().expect("verifies").stats;
    // Drop one hard drop: the game that the replay describes is a different one.
    let i = replay
        .inputs
        .iter()
        .position(|(_, i)| *i == Input::Press(Button::HardDrop))
        .expect("has a hard drop");
    replay.inputs.remove(i);
    assert_ne!(replay.verify().expect("still plays").stats, honest);
}

#[test]
fn replays_from_another_ruleset_version_or_out_of_order_are_refused() {
    let mut replay = played(Mode::sprint(), 5, 5).replay();
    replay.version += 1;
    assert!(matches!(
        replay.verify(),
        Err(ReplayError::RulesetVersion { .. })
    ));
    replay.version -= 1;
    replay.inputs.swap(0, 3);
    if replay.inputs[0].0 > replay.inputs[3].0 {
        assert_eq!(replay.verify(), Err(ReplayError::UnorderedInputs));
    }
}

#[test]
fn playback_in_steps_ends_where_the_game_ended() {
    let game = played(Mode::sprint(), 9, 30);
    let replay = game.replay();
    let mut playback = Playback::new(replay.clone()).expect("valid");
    let mut t = 0;
    let mut locks = 0;
    while !playback.finished() {
        t += 250; // 4x speed at 60 frames per second is about this step
        locks += playback
            .advance_to(t)
            .iter()
            .filter(|e| matches!(e.kind, minotty_engine::EventKind::Lock { .. }))
            .count();
    }
    assert_eq!(playback.game().board(), game.board());
    assert_eq!(playback.game().stats(), game.stats());
    assert_eq!(locks as u32, game.stats().pieces);
}

#[test]
fn game_is_send() {
    fn assert_send<T: Send + Sync>() {}
    assert_send::<Game>();
    assert_send::<Replay>();
}

#[test]
fn stats_without_pieces_by_type_still_parse() {
    // Stats serialised before `by_piece` existed.
    let old = r#"{"time":1000,"level":1,"lines":4,"pieces":10,"score":800,"garbage_cleared":0,
        "max_combo":0,"max_b2b":0,"singles":0,"doubles":0,"triples":0,"tetrises":1,"tspins":0,
        "perfect_clears":0,"attack":4,"sent":4,"garbage_received":0}"#;
    let s: minotty_engine::Stats = serde_json::from_str(old).expect("parses");
    assert_eq!((s.pieces, s.tetrises, s.by_piece), (10, 1, [0; 7]));
    // And an endless game's replay round trips in both forms.
    let replay = played(Mode::endless(), 4, 15).replay();
    let back = Replay::from_bytes(&replay.to_bytes()).expect("bytes");
    assert_eq!(back, replay);
    assert_eq!(back.mode.kind, minotty_engine::ModeKind::Endless);
    let json = serde_json::to_string(&replay).expect("serialises");
    assert_eq!(
        serde_json::from_str::<Replay>(&json).expect("parses"),
        replay
    );
}
