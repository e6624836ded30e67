//! Replays recorded under earlier versions of each ruleset still play exactly as they did.
//!
//! `engine/tests/data/v1_replays.txt` (beside the engine's tests; the store's tests read it too)
//! holds games recorded by the engine *before* version 2 of every ruleset (issue 26: the tetrs
//! ground-time stall, tui-tetris's fixed steps, recency repeats, the bag's shuffle, Ocular's L/J
//! lists), one per line with the end state the old engine reached. Each
//! game is played again here by today's engine under its recorded version and must reach the
//! same end state: the same stats, outcome and board. The file was written by
//! `record_v1_replays` (ignored) run on the old engine; running it now would record the current
//! version instead, so it is kept only to show how the games were made.
//!
//! The games are pseudo-random inputs at odd times (so locks and clears of `tui-tetris` start
//! off its 16 ms grid), under every ruleset and the tunings the changes touch (recency and the
//! bag under every ruleset, Ocular under `standard` and `tui-tetris`), and "stall" games at 20G
//! that wiggle the piece on the ground without hard drops.

use minotty_bots::{Weights, best_plan};
use minotty_engine::rng::SplitMix;
use minotty_engine::{
    Button, Game, GameConfig, Generator, Handling, Input, Mode, Replay, RotationSystem, RulesetId,
    Time, Tuning,
};

/// One recorded game: how it was set up, and how many actions it got.
struct Setup {
    name: &'static str,
    ruleset: RulesetId,
    mode: Mode,
    tuning: Tuning,
    seed: u32,
    /// Only shifts and rotations (no drops, no hold): the piece stays on the ground as long as
    /// the rules let it.
    stall: bool,
}

fn setups() -> Vec<Setup> {
    let recency = Tuning {
        generator: Some(Generator::recency()),
        ..Tuning::default()
    };
    let bag = Tuning {
        generator: Some(Generator::Bag),
        ..Tuning::default()
    };
    let ocular = Tuning {
        rotation: Some(RotationSystem::Ocular),
        ..Tuning::default()
    };
    let custom = || Mode::custom(1, true, None);
    let mut v = Vec::new();
    for (i, seed) in [11u32, 12, 13].into_iter().enumerate() {
        let name = [
            "standard-sprint-a",
            "standard-sprint-b",
            "standard-sprint-c",
        ][i];
        v.push(Setup {
            name,
            ruleset: RulesetId::Standard,
            mode: Mode::sprint(),
            tuning: Tuning::default(),
            seed,
            stall: false,
        });
    }
    for (name, ruleset, mode, tuning, seed, stall) in [
        (
            "standard-marathon",
            RulesetId::Standard,
            Mode::marathon(),
            Tuning::default(),
            21,
            false,
        ),
        (
            "standard-recency",
            RulesetId::Standard,
            custom(),
            recency,
            22,
            false,
        ),
        (
            "standard-ocular",
            RulesetId::Standard,
            custom(),
            ocular,
            23,
            false,
        ),
        (
            "tui-tetris-sprint",
            RulesetId::TuiTetris,
            Mode::sprint(),
            Tuning::default(),
            31,
            false,
        ),
        (
            "tui-tetris-marathon",
            RulesetId::TuiTetris,
            Mode::marathon(),
            Tuning::default(),
            32,
            false,
        ),
        (
            "tui-tetris-recency",
            RulesetId::TuiTetris,
            custom(),
            recency,
            33,
            false,
        ),
        (
            "tui-tetris-ocular",
            RulesetId::TuiTetris,
            custom(),
            ocular,
            34,
            false,
        ),
        (
            "tetrs-sprint",
            RulesetId::Tetrs,
            Mode::sprint(),
            Tuning::default(),
            41,
            false,
        ),
        (
            "tetrs-marathon",
            RulesetId::Tetrs,
            Mode::marathon(),
            Tuning::default(),
            42,
            false,
        ),
        ("tetrs-bag", RulesetId::Tetrs, custom(), bag, 43, false),
        (
            "tetrs-master-stall",
            RulesetId::Tetrs,
            Mode::master(),
            Tuning::default(),
            44,
            true,
        ),
        (
            "tetrs-master-stall-b",
            RulesetId::Tetrs,
            Mode::master(),
            Tuning::default(),
            45,
            true,
        ),
        (
            "tetrs-marathon-stall",
            RulesetId::Tetrs,
            Mode::marathon(),
            Tuning::default(),
            46,
            true,
        ),
    ] {
        v.push(Setup {
            name,
            ruleset,
            mode,
            tuning,
            seed,
            stall,
        });
    }
    v
}

/// Plays `setup` and returns the game: stall games with random shifts and rotations only,
/// the others with the placement bot's moves at odd times, each piece finished by a hard drop
/// or by holding soft drop and waiting for the lock delay, with a random extra tap now and then.
fn play(setup: &Setup) -> Game {
    let config = GameConfig {
        ruleset: setup.ruleset,
        mode: setup.mode.clone(),
        handling: Handling::default(),
        tuning: setup.tuning,
    };
    let mut game = Game::new(config, setup.seed);
    let mut rng = SplitMix::new(setup.seed, 77);
    game.update(0, None);
    let t = if setup.stall {
        stall(&mut game, &mut rng)
    } else {
        placements(&mut game, &mut rng)
    };
    game.update(t + 1500, None);
    game
}

fn tap(game: &mut Game, t: &mut Time, rng: &mut SplitMix, button: Button, hold: u32) {
    game.update(*t, Some(Input::Press(button)));
    *t += Time::from(1 + rng.below(hold));
    game.update(*t, Some(Input::Release(button)));
}

fn stall(game: &mut Game, rng: &mut SplitMix) -> Time {
    let mut t: Time = 0;
    for _ in 0..500 {
        if game.is_over() {
            break;
        }
        t += Time::from(1 + rng.below(300));
        let button = match rng.below(100) {
            0..=29 => Button::Left,
            30..=59 => Button::Right,
            60..=79 => Button::RotateCw,
            80..=94 => Button::RotateCcw,
            _ => Button::Rotate180,
        };
        tap(game, &mut t, rng, button, 120);
    }
    t
}

fn placements(game: &mut Game, rng: &mut SplitMix) -> Time {
    let weights = Weights::default();
    let mut t: Time = 0;
    while !game.is_over() && game.stats().pieces < 120 {
        if game.active().is_none() {
            match game.next_deadline() {
                Some(due) => {
                    t = t.max(due);
                    game.update(t, None);
                    continue;
                }
                None => break,
            }
        }
        t += Time::from(1 + rng.below(200));
        let Some(plan) = best_plan(game, &weights) else {
            break;
        };
        if rng.below(10) == 0 {
            let extra = [
                Button::RotateCw,
                Button::RotateCcw,
                Button::Left,
                Button::Hold,
            ];
            let b = extra[rng.below(4) as usize];
            tap(game, &mut t, rng, b, 30);
        }
        let (moves, _) = plan.buttons.split_at(plan.buttons.len().saturating_sub(1));
        for &b in moves {
            tap(game, &mut t, rng, b, 30);
        }
        if rng.below(2) == 0 {
            tap(game, &mut t, rng, Button::HardDrop, 30);
        } else {
            tap(game, &mut t, rng, Button::SoftDrop, 700);
            // Let gravity and the lock delay finish the piece.
            t += Time::from(rng.below(1200));
            game.update(t, None);
        }
    }
    t
}

/// The end state a recording must reach: stats, outcome and board.
fn fingerprint(game: &Game) -> String {
    let s = game.stats();
    let board: Vec<String> = game
        .board()
        .to_ascii()
        .into_iter()
        .filter(|row| row.chars().any(|c| c != '.'))
        .collect();
    format!(
        "time={} level={} lines={} pieces={} score={} by_piece={:?} outcome={:?} board={}",
        s.time,
        s.level,
        s.lines,
        s.pieces,
        s.score,
        s.by_piece,
        game.outcome(),
        board.join("/")
    )
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn from_hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex"))
        .collect()
}

const RECORDED: &str = include_str!("../../engine/tests/data/v1_replays.txt");

/// The recorded games: `(name, replay, fingerprint)`.
fn recorded() -> Vec<(String, Replay, String)> {
    RECORDED
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|line| {
            let mut parts = line.splitn(3, '\t');
            let name = parts.next().expect("name").to_string();
            let bytes = from_hex(parts.next().expect("replay"));
            let replay = Replay::from_bytes(&bytes).expect("a replay");
            (name, replay, parts.next().expect("fingerprint").to_string())
        })
        .collect()
}

/// Writes `engine/tests/data/v1_replays.txt` from the engine as it is (run once, on the old
/// engine).
#[test]
#[ignore = "records the test data; run only on the engine whose version is being recorded"]
fn record_v1_replays() {
    let mut out = String::from(
        "# Games recorded by the engine before version 2 of every ruleset (issue 26).\n\
         # name<TAB>replay (binary form, hex)<TAB>end state; see tests/old_versions.rs.\n",
    );
    for setup in setups() {
        let game = play(&setup);
        let replay = game.replay();
        out.push_str(&format!(
            "{}\t{}\t{}\n",
            setup.name,
            hex(&replay.to_bytes()),
            fingerprint(&game)
        ));
    }
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../engine/tests/data/v1_replays.txt"
    );
    std::fs::write(path, out).expect("writes the recordings");
}

#[test]
fn version_1_replays_play_exactly_as_recorded() {
    let games = recorded();
    assert_eq!(games.len(), setups().len());
    for (name, replay, want) in &games {
        assert_eq!(replay.version, 1, "{name}");
        let game = replay.play().unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(&fingerprint(&game), want, "{name}");
        // And the verdict the server reaches from it: the same stats and outcome.
        let verified = replay.verify().expect("verifies");
        assert_eq!(&verified.stats, game.stats(), "{name}");
        assert_eq!(verified.outcome, game.outcome(), "{name}");
    }
}

#[test]
fn the_same_inputs_under_version_2_play_another_game() {
    // The recordings are sensitive to the changes: played by today's rules (the replay
    // relabelled as version 2), each reaches another end state, so the test above shows that
    // version 1's rules, not today's, reproduced them.
    let mut differ = Vec::new();
    for (name, replay, want) in recorded() {
        let mut now = replay.clone();
        now.version = 2;
        let game = now.play().expect("plays under version 2");
        if fingerprint(&game) != want {
            differ.push(name);
        }
    }
    println!("differ under version 2: {differ:?}");
    // Every one: the bag of standard and tetrs and recency anywhere deal other pieces, the
    // tui-tetris games lock and clear on other steps (inputs at odd times), Ocular's L/J
    // lists and the 20G stalls play out otherwise.
    assert_eq!(differ.len(), recorded().len(), "{differ:?}");
}
