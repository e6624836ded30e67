//! The input budget of a game ([`MAX_INPUTS`]) and the pause marker: a flooded game ends at the
//! cap whatever the chunking, every way of reading a replay refuses one over the cap, and a
//! pause travels through both replay forms without touching the rules.

use minotty_engine::{
    Button, EndReason, Game, GameConfig, Input, MAX_INPUTS, Mode, Playback, Replay, ReplayError,
    Time,
};

/// `n` inputs of a key flood: Left pressed and released over and over, 200 to a millisecond,
/// so that the whole flood takes well under a second of game time and no piece locks.
fn flood(n: usize) -> Vec<(Time, Input)> {
    (0..n)
        .map(|i| {
            let input = if i % 2 == 0 {
                Input::Press(Button::Left)
            } else {
                Input::Release(Button::Left)
            };
            (i as Time / 200, input)
        })
        .collect()
}

fn sprint() -> GameConfig {
    GameConfig {
        mode: Mode::sprint(),
        ..GameConfig::default()
    }
}

/// Feeds `inputs`, with a plain time step before every `every`-th input when `every > 0`.
fn play(inputs: &[(Time, Input)], every: usize) -> (Game, Vec<(usize, Time)>) {
    let mut game = Game::new(sprint(), 7);
    let mut ends = Vec::new();
    for (i, &(t, input)) in inputs.iter().enumerate() {
        if every > 0 && i % every == 0 {
            game.update(t, None);
        }
        let over = game.update(t, Some(input)).iter().any(|e| {
            matches!(
                e.kind,
                minotty_engine::EventKind::GameOver {
                    reason: EndReason::InputLimit,
                    won: false
                }
            )
        });
        if over {
            ends.push((i, game.now()));
        }
    }
    game.update(inputs.last().map_or(0, |l| l.0) + 50, None);
    (game, ends)
}

#[test]
fn a_flood_ends_the_game_at_the_cap_and_later_inputs_are_never_stored() {
    let inputs = flood(MAX_INPUTS + 1000);
    let (game, ends) = play(&inputs, 0);
    // The game ended exactly once, at the cap-th input and its time.
    assert_eq!(ends, [(MAX_INPUTS - 1, inputs[MAX_INPUTS - 1].0)]);
    assert_eq!(game.outcome(), Some((EndReason::InputLimit, false)));
    assert_eq!(game.inputs().len(), MAX_INPUTS);
    assert_eq!(game.inputs(), &inputs[..MAX_INPUTS]);
    assert_eq!(game.stats().time, inputs[MAX_INPUTS - 1].0);
    // Chunked differently (time steps between inputs), the game is the same.
    let (chunked, chunked_ends) = play(&inputs, 7);
    assert_eq!(chunked_ends, ends);
    assert_eq!(chunked.outcome(), game.outcome());
    assert_eq!(chunked.stats(), game.stats());
    assert_eq!(chunked.replay(), game.replay());
    assert_eq!(
        format!("{:?}", chunked.board()),
        format!("{:?}", game.board())
    );
    // Its replay holds exactly the cap, reads back and re-simulates to the same end.
    let replay = game.replay();
    let back = Replay::from_bytes(&replay.to_bytes()).expect("a capped replay reads");
    assert_eq!(back, replay);
    let verified = back.verify().expect("a capped replay plays");
    assert_eq!(verified.outcome, Some((EndReason::InputLimit, false)));
    assert_eq!(verified.stats, *game.stats());
}

#[test]
fn an_input_that_ends_the_game_itself_keeps_its_own_reason() {
    // The cap-th input is a forfeit: the game ends as a forfeit, not at the limit.
    let mut inputs = flood(MAX_INPUTS - 1);
    let t = inputs.last().map_or(0, |l| l.0);
    inputs.push((t, Input::Forfeit));
    let (game, ends) = play(&inputs, 0);
    assert!(ends.is_empty());
    assert_eq!(game.outcome(), Some((EndReason::Forfeit, false)));
    assert_eq!(game.inputs().len(), MAX_INPUTS);
}

/// A replay of the capped game with one more real input after it.
fn over_the_cap() -> Replay {
    let (game, _) = play(&flood(MAX_INPUTS), 0);
    let mut replay = game.replay();
    replay
        .inputs
        .push((replay.end, Input::Press(Button::Right)));
    assert_eq!(replay.inputs.len(), MAX_INPUTS + 1);
    replay
}

#[test]
fn every_reader_refuses_a_replay_over_the_cap() {
    let replay = over_the_cap();
    let too_many = ReplayError::TooManyInputs {
        count: MAX_INPUTS as u64 + 1,
    };
    assert_eq!(
        Replay::from_bytes(&replay.to_bytes()),
        Err(too_many.clone())
    );
    assert_eq!(replay.verify(), Err(too_many.clone()));
    assert_eq!(replay.play().err(), Some(too_many.clone()));
    assert_eq!(Playback::new(replay.clone()).err(), Some(too_many.clone()));
    assert!(too_many.to_string().contains("100000"), "{too_many}");
    // The serde form refuses it too, while reading the inputs.
    let json = serde_json::to_string(&replay).expect("serialises");
    let err = serde_json::from_str::<Replay>(&json).expect_err("refused");
    assert!(err.to_string().contains("limit of 100000"), "{err}");
}

/// The reader refuses on the count alone, before it reads (or allocates for) a single input:
/// the claim is followed by no input at all here, and the error is the count, not a replay
/// cut short. (The workspace forbids `unsafe`, so no counting allocator checks this.)
#[test]
fn a_header_claiming_a_billion_inputs_is_refused_from_the_header() {
    let empty = Game::new(sprint(), 1).replay();
    let mut bytes = empty.to_bytes();
    // The input count is the last field of an empty replay: one zero byte.
    assert_eq!(bytes.pop(), Some(0));
    let mut count = 1_000_000_000u64;
    while count >= 0x80 {
        bytes.push((count as u8) | 0x80);
        count >>= 7;
    }
    bytes.push(count as u8);
    assert_eq!(
        Replay::from_bytes(&bytes),
        Err(ReplayError::TooManyInputs {
            count: 1_000_000_000
        })
    );
}

/// Two sprint games (seed 3) given the same hard drop; at 700 ms the first gets `marker`, the
/// second nothing.
fn marked_and_plain(marker: Input) -> (Game, Game) {
    let drops = [
        (500, Input::Press(Button::HardDrop)),
        (600, Input::Release(Button::HardDrop)),
    ];
    let mut plain = Game::new(sprint(), 3);
    let mut marked = Game::new(sprint(), 3);
    for &(t, input) in &drops {
        plain.update(t, Some(input));
        marked.update(t, Some(input));
    }
    marked.update(700, Some(marker));
    plain.update(700, None);
    (marked, plain)
}

/// Asserts that `game`'s replay ends with `marker` at 700 ms and reads back the same from its
/// binary and JSON forms; returns the binary form and the game the replay plays to.
fn round_trip(game: &Game, marker: Input) -> (Vec<u8>, Game) {
    let replay = game.replay();
    assert_eq!(replay.inputs.last(), Some(&(700, marker)));
    let bytes = replay.to_bytes();
    let back = Replay::from_bytes(&bytes).expect("reads");
    assert_eq!(back, replay);
    let json = serde_json::to_string(&replay).expect("serialises");
    assert_eq!(
        serde_json::from_str::<Replay>(&json).expect("parses"),
        replay
    );
    (bytes, back.play().expect("plays"))
}

#[test]
fn a_bot_marker_round_trips_and_changes_nothing_in_the_rules() {
    let (botted, plain) = marked_and_plain(Input::Bot);
    assert!(botted.bot_played() && botted.fork().bot_played());
    assert!(!plain.bot_played() && !botted.paused());
    assert_eq!(botted.stats(), plain.stats());
    assert_eq!(botted.next_deadline(), plain.next_deadline());
    let (bytes, replayed) = round_trip(&botted, Input::Bot);
    assert_eq!(bytes[bytes.len() - 1], 81, "the bot marker's code");
    assert!(replayed.bot_played());
    assert_eq!(replayed.stats(), botted.stats());
}

#[test]
fn a_pause_round_trips_and_changes_nothing_in_the_rules() {
    let (paused, plain) = marked_and_plain(Input::Pause);
    assert!(paused.paused());
    assert!(!plain.paused());
    assert!(paused.fork().paused());
    assert_eq!(paused.stats(), plain.stats());
    assert_eq!(paused.next_deadline(), plain.next_deadline());
    let (_, replayed) = round_trip(&paused, Input::Pause);
    assert!(replayed.paused());
    assert_eq!(replayed.stats(), paused.stats());
}

#[test]
fn format_one_replays_without_a_pause_read_as_before() {
    // A short 40-lines game (seed 11, a hard drop pressed at 300 ms and released at 350 ms,
    // recorded up to 400 ms) as the format-1 writer wrote it before the pause marker existed.
    // Version 1 of `standard`, as it was then (a newer version would deal other pieces).
    // Its 40 lines raised the level with the lines then (`ModeKind::preset_at`).
    let config = GameConfig {
        mode: minotty_engine::ModeKind::Sprint.preset_at(1),
        ..GameConfig::default()
    };
    let mut game = Game::of_version(config, 11, 1).expect("version 1 plays");
    game.update(300, Some(Input::Press(Button::HardDrop)));
    game.update(350, Some(Input::Release(Button::HardDrop)));
    game.update(400, None);
    let bytes = GOLDEN;
    assert_eq!(Replay::from_bytes(bytes).expect("reads"), game.replay());
    assert_eq!(game.replay().to_bytes(), bytes);
}

/// Printed by the engine before this change (format 1 without the pause marker).
const GOLDEN: &[u8] = &[
    77, 84, 82, 80, 1, 0, 1, 11, 150, 1, 50, 10, 0, 0, 1, 0, 1, 1, 40, 1, 0, 0, 144, 3, 2, 172, 2,
    6, 50, 22,
];

#[test]
fn in_versus_a_flood_is_a_loss_like_a_top_out() {
    use minotty_engine::versus::{Match, MatchEvent, MatchKind, Targeting};
    let config = GameConfig {
        mode: Mode::custom(0, false, None),
        ..GameConfig::default()
    };
    let mut m = Match::new(
        MatchKind::Battle,
        vec![config.clone(), config],
        &[1, 2],
        &[Targeting::Even; 2],
        9,
    );
    let mut decided = Vec::new();
    for (t, input) in flood(MAX_INPUTS + 10) {
        for e in m.input(0, t, input) {
            if !matches!(e, MatchEvent::Game { .. }) {
                decided.push(*e);
            }
        }
    }
    assert_eq!(
        decided,
        [
            MatchEvent::KnockOut {
                player: 0,
                by: None
            },
            MatchEvent::Over { winner: Some(1) }
        ]
    );
    let flooded = m.game(0).expect("player 0");
    assert_eq!(flooded.outcome(), Some((EndReason::InputLimit, false)));
    assert_eq!(flooded.inputs().len(), MAX_INPUTS);
}
