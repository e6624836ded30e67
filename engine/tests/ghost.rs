//! Ghost races: a ghost ends exactly where its replay ends (the same board, lines, time and
//! outcome) however the racer's updates are chunked; the bound on what one update feeds it.
//! (The placement bot's finished 40 lines, and the split against them, are in
//! `bots/tests/ghost.rs`.)

#[path = "common/v2_replays.rs"]
mod v2_replays;

use minotty_engine::{
    GHOST_STEP_INPUTS, Game, Ghost, Input, MAX_INPUTS, Mode, Replay, ReplayError, RulesetId, Time,
};

/// The recorded 40-lines games (pseudo-random inputs at odd times: each clears a few lines
/// and tops out; the placement bot's finished 40 lines are raced in `bots/tests/ghost.rs`).
fn sprints() -> Vec<(String, Replay)> {
    v2_replays::recorded()
        .into_iter()
        .filter(|(name, _, _)| name.contains("sprint"))
        .map(|(name, replay, _)| (name, replay))
        .collect()
}

fn same_end(ghost: &Ghost, want: &Game, what: &str) {
    let got = ghost.game();
    assert_eq!(got.board(), want.board(), "{what}: board");
    assert_eq!(got.stats(), want.stats(), "{what}: stats");
    assert_eq!(got.now(), want.now(), "{what}: time");
    assert_eq!(got.outcome(), want.outcome(), "{what}: outcome");
    assert_eq!(ghost.final_stats(), want.stats(), "{what}: final stats");
    assert!(ghost.finished(), "{what}: finished");
    assert_eq!(ghost.next_change(), None, "{what}: nothing more to come");
}

/// Advances `ghost` through `times` (each call until it catches up) and then far past its end.
fn run(ghost: &mut Ghost, times: impl Iterator<Item = Time>) {
    for t in times.chain([Time::MAX / 4]) {
        while !ghost.advance_to(t).caught_up {}
    }
}

#[test]
fn a_ghost_ends_exactly_where_its_replay_ends_however_updates_are_chunked() {
    let games = sprints();
    assert!(games.len() >= 3, "the sprint recordings are there");
    for (name, replay) in &games {
        let want = replay.play().expect("plays");
        assert!(want.stats().lines > 0, "{name} cleared lines");
        let end = replay.end;
        // One call; every millisecond; odd chunks; the recording's own input times; a frame
        // rate of 60 a second; the racer's clock running long past the ghost's end.
        let chunkings: Vec<(&str, Vec<Time>)> = vec![
            ("one call", vec![end]),
            ("every ms", (0..=end).collect()),
            ("odd chunks", (0..=end).step_by(37).collect()),
            (
                "input times",
                replay.inputs.iter().map(|&(t, _)| t).collect(),
            ),
            ("frames", (0..=end + 5_000).step_by(16).collect()),
        ];
        for (how, times) in chunkings {
            let mut ghost = Ghost::new(replay.clone()).expect("a ghost");
            run(&mut ghost, times.into_iter());
            same_end(&ghost, &want, &format!("{name}, {how}"));
        }
    }
}

#[test]
fn a_ghost_never_runs_past_its_recording() {
    let (name, replay) = sprints().remove(0);
    let want = replay.play().expect("plays");
    let mut ghost = Ghost::new(replay.clone()).expect("a ghost");
    while !ghost.advance_to(replay.end + 60_000).caught_up {}
    assert_eq!(ghost.game().now(), want.now(), "{name}");
    assert!(ghost.game().now() <= replay.end, "{name}");
    // Halfway, it stands where the replay cut there stands.
    let half = want.now() / 2;
    let mut cut = replay.clone();
    cut.inputs.retain(|&(t, _)| t <= half);
    cut.end = half;
    let want = cut.play().expect("plays");
    let mut ghost = Ghost::new(replay).expect("a ghost");
    while !ghost.advance_to(half).caught_up {}
    assert_eq!(ghost.game().board(), want.board());
    assert_eq!(ghost.game().stats(), want.stats());
    assert!(!ghost.finished());
}

#[test]
fn one_update_feeds_the_ghost_a_bounded_number_of_inputs() {
    // A recording with thousands of inputs at one time (presses and releases of a move).
    let mut game = Game::new(
        minotty_engine::GameConfig {
            ruleset: RulesetId::Standard,
            mode: Mode::sprint(),
            handling: minotty_engine::Handling::default(),
            tuning: minotty_engine::Tuning::default(),
        },
        7,
    );
    game.update(0, None);
    let dense = 5 * GHOST_STEP_INPUTS + 3;
    for i in 0..dense {
        let b = minotty_engine::Button::Left;
        let input = if i % 2 == 0 {
            Input::Press(b)
        } else {
            Input::Release(b)
        };
        game.update(100, Some(input));
    }
    game.update(200, None);
    let replay = game.replay();
    assert_eq!(replay.inputs.len(), dense);
    let want = replay.play().expect("plays");
    let mut ghost = Ghost::new(replay).expect("a ghost");
    let mut calls = 0;
    let mut fed = 0;
    loop {
        let step = ghost.advance_to(200);
        assert!(step.inputs <= GHOST_STEP_INPUTS, "bounded: {}", step.inputs);
        fed += step.inputs;
        calls += 1;
        if step.caught_up {
            break;
        }
        assert_eq!(step.inputs, GHOST_STEP_INPUTS, "held back only when full");
    }
    assert_eq!(fed, dense);
    assert_eq!(calls, dense.div_ceil(GHOST_STEP_INPUTS));
    assert_eq!(ghost.game().board(), want.board());
    assert_eq!(ghost.game().stats(), want.stats());
}

#[test]
fn a_ghost_is_refused_as_a_replay_is() {
    let (_, replay) = sprints().remove(0);
    let mut flood = replay.clone();
    flood.inputs = vec![(0, Input::ReleaseAll); MAX_INPUTS + 1];
    assert!(matches!(
        Ghost::new(flood).map(|_| ()),
        Err(ReplayError::TooManyInputs { .. })
    ));
    let mut later = replay.clone();
    later.version = u16::MAX;
    assert!(matches!(
        Ghost::new(later).map(|_| ()),
        Err(ReplayError::RulesetVersion { .. })
    ));
    let mut unordered = replay;
    unordered.inputs.swap(0, 5);
    assert_eq!(
        Ghost::new(unordered).map(|_| ()),
        Err(ReplayError::UnorderedInputs)
    );
}

#[test]
fn the_ghost_marker_survives_the_binary_form_and_changes_nothing() {
    let (_, replay) = sprints().remove(0);
    let mut marked = replay.clone();
    marked.inputs.insert(0, (0, Input::Ghost));
    let back = Replay::from_bytes(&marked.to_bytes()).expect("reads back");
    assert_eq!(back, marked);
    let (a, b) = (replay.play().expect("plays"), marked.play().expect("plays"));
    assert_eq!(a.board(), b.board());
    assert_eq!(a.stats(), b.stats());
    assert_eq!(a.outcome(), b.outcome());
}
