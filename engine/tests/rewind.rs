//! Rewinding a game (undo, savepoints): a game put back to a checkpoint is that game exactly
//! (board, queue, hold, stats, every timer: the same inputs afterwards give the same events),
//! its replay still re-simulates to its state and says it was taken back, and a checkpoint of
//! a line of play that a rewind gave up is refused.

use minotty_engine::{
    Button, Checkpoint, Event, EventKind, Game, GameConfig, Handling, Input, Mode, Replay,
    RulesetId, Time,
};

/// A small deterministic stream of inputs: presses and releases of every button at irregular
/// times, so that pieces lock (hard drops), hold, turn and shift.
struct Player {
    state: u64,
    t: Time,
    /// The least time between two inputs (ms); up to 180 ms more at random.
    pace: Time,
}

impl Player {
    fn new(seed: u64) -> Player {
        Player {
            state: seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1,
            t: 0,
            pace: 20,
        }
    }

    fn next(&mut self) -> (Time, Input) {
        self.state ^= self.state << 13;
        self.state ^= self.state >> 7;
        self.state ^= self.state << 17;
        self.t += self.pace + self.state % 180;
        let button = Button::ALL[(self.state >> 8) as usize % Button::ALL.len()];
        let input = if (self.state >> 20).is_multiple_of(3) {
            Input::Release(button)
        } else {
            Input::Press(button)
        };
        (self.t, input)
    }
}

fn config(ruleset: RulesetId, mode: Mode) -> GameConfig {
    GameConfig {
        ruleset,
        mode,
        handling: Handling::default(),
        tuning: Default::default(),
    }
}

fn cases() -> Vec<(RulesetId, Mode)> {
    let mut v = Vec::new();
    for r in RulesetId::ALL {
        for m in [
            Mode::marathon(),
            Mode::sprint(),
            Mode::cheese(8),
            Mode::combo(),
            Mode::puzzle(3),
        ] {
            v.push((r, m));
        }
    }
    v
}

/// Plays `n` inputs, taking a checkpoint after each update that spawned a piece.
fn play(game: &mut Game, player: &mut Player, n: usize, marks: &mut Vec<Checkpoint>) {
    for _ in 0..n {
        let (t, input) = player.next();
        let spawned = game
            .update(t, Some(input))
            .iter()
            .any(|e| matches!(e.kind, EventKind::Spawn { .. }));
        if spawned && !game.is_over() {
            marks.push(game.checkpoint());
        }
        if game.is_over() {
            return;
        }
    }
}

/// Feeds the same inputs to two games; their events and states must agree throughout.
fn same_future(a: &mut Game, b: &mut Game, player: &mut Player, n: usize, what: &str) {
    for i in 0..n {
        let (t, input) = player.next();
        let ea: Vec<Event> = a.update(t, Some(input)).to_vec();
        let eb: Vec<Event> = b.update(t, Some(input)).to_vec();
        assert_eq!(ea, eb, "{what}: events after input {i}");
        assert_eq!(a.snapshot(), b.snapshot(), "{what}: state after input {i}");
    }
}

#[test]
fn a_rewound_game_is_the_game_at_its_checkpoint_exactly() {
    let mut rewound = 0;
    for (k, (ruleset, mode)) in cases().into_iter().enumerate() {
        let what = format!("{ruleset:?} {:?}", mode.kind);
        let mut game = Game::new(config(ruleset, mode), 1000 + k as u32);
        let mut player = Player::new(k as u64 + 7);
        let mut marks = Vec::new();
        play(&mut game, &mut player, 80, &mut marks);
        if game.is_over() || marks.len() < 2 {
            eprintln!("{what}: over before a rewind ({} pieces)", marks.len());
            continue;
        }
        let mark = &marks[marks.len() / 2];
        let then = mark.game();
        let preview: Vec<_> = then.preview().collect();
        assert!(game.rewind(mark), "{what}: rewind refused");
        rewound += 1;
        // The board, the hold, the queue, the stats, the clock and the preview are the
        // checkpoint's.
        assert_eq!(game.board(), then.board(), "{what}");
        assert_eq!(game.hold_piece(), then.hold_piece(), "{what}");
        assert_eq!(game.can_hold(), then.can_hold(), "{what}");
        assert_eq!(game.stats(), then.stats(), "{what}");
        assert_eq!(game.now(), mark.time(), "{what}");
        assert_eq!(game.preview().collect::<Vec<_>>(), preview, "{what}");
        assert!(Button::ALL.iter().all(|&b| !game.is_held(b)), "{what}");
        // So is everything else (the piece with its timers, the generator, the chains), with
        // every button released: the whole state, and all that comes after, is the
        // checkpoint's game's once it hears the release.
        let mut reference = then.fork();
        reference.update(mark.time(), Some(Input::ReleaseAll));
        assert_eq!(game.snapshot(), reference.snapshot(), "{what}");
        same_future(&mut game, &mut reference, &mut player, 150, &what);
        // The replay is the game as its state went: it re-simulates to the same state, and it
        // says it was taken back (also through the binary form).
        let replay = game.replay();
        assert!(
            replay.inputs.contains(&(mark.time(), Input::Rewind)),
            "{what}"
        );
        let played = replay.play().expect("replay plays");
        assert_eq!(played.snapshot(), game.snapshot(), "{what}: replay");
        assert_eq!(played.stats(), game.stats(), "{what}: replay stats");
        let back = Replay::from_bytes(&replay.to_bytes()).expect("binary form");
        assert_eq!(back, replay, "{what}: binary form");
    }
    assert!(rewound >= 10, "only {rewound} cases rewound");
}

#[test]
fn a_checkpoint_of_a_line_of_play_given_up_is_refused() {
    let mut game = Game::new(config(RulesetId::Standard, Mode::marathon()), 42);
    let mut player = Player::new(3);
    let mut marks = Vec::new();
    play(&mut game, &mut player, 120, &mut marks);
    assert!(!game.is_over());
    assert!(marks.len() >= 4, "pieces spawned: {}", marks.len());
    let (a, b) = (marks[1].clone(), marks[3].clone());
    assert!(game.rewind(&b));
    // Back to b, then further back to a: both still on this line of play.
    assert!(game.rewind(&a));
    // b's inputs after a are gone: b is refused, and nothing changes.
    let before = game.snapshot();
    assert!(!game.can_rewind(&b));
    assert!(!game.rewind(&b));
    assert_eq!(game.snapshot(), before);
    // a checkpoint of the new line is fine, and so is a again.
    let mut fresh = Vec::new();
    play(&mut game, &mut player, 100, &mut fresh);
    let c = fresh.first().expect("a piece spawned").clone();
    assert!(game.rewind(&c));
    assert!(game.rewind(&a));
    // Another game's checkpoint is refused.
    let other = Game::new(config(RulesetId::Standard, Mode::marathon()), 43);
    let mut other_marks = Vec::new();
    let mut other_game = other;
    play(&mut other_game, &mut Player::new(3), 50, &mut other_marks);
    assert!(!game.rewind(&other_marks[0]));
    // A game that is over is not taken back.
    game.update(game.now(), Some(Input::Forfeit));
    assert!(!game.rewind(&a));
}

/// A long game (over a minute): each piece shifted a random number of columns and turned,
/// then dropped after a pause, so that the stack spreads and grows slowly; and its replay.
fn long_replay(ruleset: RulesetId, mode: Mode, pieces: usize) -> Replay {
    let mut game = Game::new(config(ruleset, mode), 77);
    let mut player = Player::new(11);
    let mut t: Time = 0;
    let tap = |game: &mut Game, t: &mut Time, b: Button| {
        *t += 40;
        game.update(*t, Some(Input::Press(b)));
        *t += 40;
        game.update(*t, Some(Input::Release(b)));
    };
    for _ in 0..pieces {
        let (_, input) = player.next();
        let r = player.state;
        let side = if r.is_multiple_of(2) {
            Button::Left
        } else {
            Button::Right
        };
        for _ in 0..(r >> 3) % 6 {
            tap(&mut game, &mut t, side);
        }
        if let Input::Press(b) | Input::Release(b) = input
            && matches!(b, Button::RotateCw | Button::RotateCcw | Button::Hold)
        {
            tap(&mut game, &mut t, b);
        }
        t += 4_000;
        tap(&mut game, &mut t, Button::HardDrop);
        if game.is_over() {
            break;
        }
    }
    game.replay()
}

/// The game of `replay` played straight from its start up to `t`.
fn straight(replay: &Replay, t: Time) -> Game {
    let mut p = minotty_engine::Playback::new(replay.clone()).expect("plays");
    p.advance_to(t);
    p.game().fork()
}

#[test]
fn seeking_anywhere_is_playing_up_to_there() {
    use minotty_engine::{MAX_ANCHORS, MIN_ANCHOR_GAP, Playback};
    for ruleset in RulesetId::ALL {
        // Endless: long enough for many anchors (random play tops out, so a few games).
        let replay = long_replay(ruleset, Mode::custom(0, false, None), 200);
        let end = replay.end;
        let g = replay.play().expect("plays");
        assert!(
            end > 20 * MIN_ANCHOR_GAP,
            "{ruleset:?}: a game of {end} ms, {:?} {:?} {}",
            g.outcome(),
            g.stats(),
            replay.inputs.len()
        );
        let mut p = Playback::new(replay.clone()).expect("plays");
        // Forth, back, forth again, to the start and the end, at awkward times.
        let targets = [
            end / 2,
            end / 3 + 7,
            end - 1,
            1,
            0,
            end * 9 / 10,
            end / 10 + MIN_ANCHOR_GAP,
            end,
            end / 2 - 1,
        ];
        for t in targets {
            p.seek(t);
            let reference = straight(&replay, t);
            let what = format!("{ruleset:?} at {t} of {end}");
            assert_eq!(p.game().now(), reference.now(), "{what}");
            assert_eq!(p.game().snapshot(), reference.snapshot(), "{what}");
            assert_eq!(p.game().stats(), reference.stats(), "{what}");
            assert_eq!(p.game().board(), reference.board(), "{what}");
            assert_eq!(p.game().outcome(), reference.outcome(), "{what}");
        }
        assert!(p.anchors() <= MAX_ANCHORS);
        // Once playback has been everywhere, a jump costs at most one anchor gap of inputs.
        let gap = end.div_ceil(MAX_ANCHORS as Time).max(MIN_ANCHOR_GAP);
        let most_in_a_gap = (0..=end / gap)
            .map(|k| {
                replay
                    .inputs
                    .iter()
                    .filter(|&&(t, _)| t >= k * gap && t <= (k + 1) * gap)
                    .count() as u64
            })
            .max()
            .unwrap_or(0);
        for pct in [10, 90, 30, 70, 50] {
            let before = p.fed();
            p.seek(end * pct / 100);
            let cost = p.fed() - before;
            assert!(
                cost <= most_in_a_gap,
                "{ruleset:?}: a jump to {pct} % fed {cost} inputs (a gap holds {most_in_a_gap})"
            );
        }
    }
}

#[test]
fn taking_over_a_replay_starts_from_its_exact_state() {
    use minotty_engine::Playback;
    let replay = long_replay(RulesetId::Standard, Mode::marathon(), 40);
    let mut p = Playback::new(replay.clone()).expect("plays");
    let t = replay.end / 2;
    p.seek(replay.end);
    p.seek(t);
    let mut live = p.take_over().expect("not over at half time");
    let reference = straight(&replay, t);
    assert_eq!(live.now(), t);
    assert_eq!(live.board(), reference.board());
    assert_eq!(live.stats(), reference.stats());
    assert_eq!(live.hold_piece(), reference.hold_piece());
    assert_eq!(
        live.preview().collect::<Vec<_>>(),
        reference.preview().collect::<Vec<_>>()
    );
    // It plays on as the recorded game would have from there, and its own replay (the
    // recording up to t, the marker, what came after) re-simulates to it and does not rank.
    let mut reference = reference;
    reference.update(t, Some(Input::ReleaseAll));
    let mut player = Player::new(99);
    player.t = t;
    same_future(&mut live, &mut reference, &mut player, 100, "taken over");
    let own = live.replay();
    assert!(own.inputs.contains(&(t, Input::Rewind)));
    assert_eq!(own.play().expect("plays").snapshot(), live.snapshot());
    // A game that is over is not taken over.
    p.seek(replay.end);
    if p.game().is_over() {
        assert!(p.take_over().is_none());
    }
}
