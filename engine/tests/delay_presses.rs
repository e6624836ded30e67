//! Nothing pressed during a line clear delay or a spawn delay (ARE) is lost (issue 36, ruleset
//! version 3): every delay x every kind of press x every ruleset, with where the new piece is
//! and what it did as it spawned. Version 2 lost them all (the second table: today's inputs
//! under version 2, as old replays play), and the handling's "prevent accidental hard drop"
//! and DAS cut at their boundaries.
//!
//! Where a seed's text fixes the behaviour, the ruleset follows it; the lines are quoted in
//! [`TEXTS`]. Neither text makes a press in a delay do nothing: `tui-tetris`'s seed keeps its
//! piece in play (and taking actions) during the clear pause, and only a paused game ignores
//! them; `tetrs`'s seed spawns a piece rotated when a rotation button is held (which every
//! version did) and says nothing of the other presses. So all three play the same table; the
//! seeds' own limits stay (`tui-tetris` has no 180° turn: its press turns nothing). From
//! version 5 `tui-tetris`'s next piece is in play through its line clear pause, as its seed
//! says: a press there acts on it at once, and the table holds at the pause's end.

mod common;

use common::single_board;
use minotty_engine::game::{SPAWN_X, SPAWN_Y};
use minotty_engine::ruleset::ClearPause;
use minotty_engine::{
    Board, Button, EventKind, Game, GameConfig, Handling, Input, Mode, Phase, Piece, Rotation,
    Ruleset, RulesetId, Time, Tuning,
};

/// The seed texts' lines on presses during the delays and at spawn.
const TEXTS: [(RulesetId, &str); 2] = [
    (
        RulesetId::TuiTetris,
        "003 (Fixed-Step Semantics): \"`step_in_piece` increments once per fixed step while an \
         active piece exists, including while `LINE_CLEAR_PAUSE_MS` is counting down.\" / \
         \"When `line_clear_ms` reaches `0` during a tick, gameplay resumes in the **same** \
         `tick()` call (gravity/lock may advance immediately).\" / (State Machine) \"While \
         paused, gameplay actions (move/rotate/drop/hold) are ignored\": the piece takes \
         actions through the clear pause; from version 5 ours does too (the press acts on \
         it at once), before, the pause came before the spawn and they acted at the spawn. \
         Its actions have no 180 (\"RotateCw, // Clockwise + SRS kicks\", \"RotateCcw\").",
    ),
    (
        RulesetId::Tetrs,
        "000 (Future Work): \"the initial rotation mechanic, which allows spawning a piece \
         immediately rotated if a rotation button was held\" / (Game State) \"Buttons pressed \
         state: The game keeps an abstract state of which buttons are currently pressed.\": \
         a held rotation turns the piece at spawn (kept); taps, hold and drops in a delay the \
         text leaves open.",
    ),
];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Delay {
    /// The line clear delay (with tetrs' ARE after it).
    LineClear,
    /// The spawn delay after a lock that clears nothing (tetrs' own 50 ms; 120 ms tuned for
    /// the rulesets without one).
    Spawn,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Press {
    TapLeft,
    TapRight,
    HoldLeft,
    HoldRight,
    RotateCw,
    RotateCcw,
    Rotate180,
    Hold,
    HardDrop,
    SoftDrop,
}

const PRESSES: [Press; 10] = [
    Press::TapLeft,
    Press::TapRight,
    Press::HoldLeft,
    Press::HoldRight,
    Press::RotateCw,
    Press::RotateCcw,
    Press::Rotate180,
    Press::Hold,
    Press::HardDrop,
    Press::SoftDrop,
];

impl Press {
    fn button(self) -> Button {
        match self {
            Press::TapLeft | Press::HoldLeft => Button::Left,
            Press::TapRight | Press::HoldRight => Button::Right,
            Press::RotateCw => Button::RotateCw,
            Press::RotateCcw => Button::RotateCcw,
            Press::Rotate180 => Button::Rotate180,
            Press::Hold => Button::Hold,
            Press::HardDrop => Button::HardDrop,
            Press::SoftDrop => Button::SoftDrop,
        }
    }

    /// Held through the end of the delay (the others are released 1 ms after the press).
    fn held(self) -> bool {
        matches!(self, Press::HoldLeft | Press::HoldRight)
    }
}

/// The first piece drops at this time.
const DROP: Time = 100;

/// What the game looks like once everything due at the spawn has happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct AtSpawn {
    /// The piece in play (none while a spawn delay follows a lock at spawn).
    piece: Option<Piece>,
    rotation: Rotation,
    x: i8,
    y: i8,
    hold: Option<Piece>,
    pieces: u32,
}

/// A game of `ruleset` at `version` whose first piece drops at [`DROP`] into `delay`, the next
/// piece not an O (so that every rotation shows). Returns the game, the pieces it deals next
/// and when the next piece spawns.
fn into_delay(ruleset: RulesetId, delay: Delay, version: u16) -> (Game, [Piece; 2], Time) {
    let rules = Ruleset::get(ruleset);
    let tuning = Tuning {
        appearance_delay: (rules.appearance_delay == 0 && delay == Delay::Spawn).then_some(120),
        ..Tuning::default()
    };
    for seed in 1.. {
        let config = GameConfig {
            ruleset,
            mode: Mode::custom(0, false, None),
            handling: rules.handling,
            tuning,
        };
        let mut game = Game::of_version(config, seed, version).expect("a version");
        game.update(0, None);
        let next: Vec<Piece> = game.preview().take(2).collect();
        if next[0] == Piece::O {
            continue;
        }
        let first = game.active().expect("a piece").placed.piece;
        game.set_board(match delay {
            Delay::LineClear => single_board(first),
            Delay::Spawn => Board::new(),
        });
        let ev = game
            .update(DROP, Some(Input::Press(Button::HardDrop)))
            .to_vec();
        assert!(ev.iter().any(|e| matches!(e.kind, EventKind::Lock { .. })));
        game.update(DROP, Some(Input::Release(Button::HardDrop)));
        let cleared = game.stats().lines == 1;
        assert_eq!(cleared, delay == Delay::LineClear, "{ruleset:?} {delay:?}");
        if live_pause(ruleset, delay, version) {
            // The next piece is in play at once; the pause ends 12 steps on.
            let a = game
                .active()
                .expect("the next piece in play through the pause");
            assert_eq!(a.placed.piece, next[0]);
            assert_eq!(game.phase(), Phase::Falling);
            let rules = Ruleset::of_version(ruleset, version).expect("a version");
            let end = rules.after(DROP, rules.line_clear_delay);
            return (game, [next[0], next[1]], end);
        }
        let Phase::Clearing { until, .. } = game.phase() else {
            panic!("{ruleset:?} {delay:?}: no delay but {:?}", game.phase());
        };
        return (game, [next[0], next[1]], until);
    }
    unreachable!()
}

/// Whether the next piece is in play through this delay: the line clear pause of a ruleset
/// version whose pause keeps it ([`ClearPause::LivePiece`]: `tui-tetris` from version 5).
fn live_pause(ruleset: RulesetId, delay: Delay, version: u16) -> bool {
    let rules = Ruleset::of_version(ruleset, version).expect("a version");
    delay == Delay::LineClear && rules.clear_pause == ClearPause::LivePiece
}

/// The piece in play (or none) and what it did, read now.
fn read(game: &Game) -> AtSpawn {
    let a = game.active().map(|a| a.placed);
    AtSpawn {
        piece: a.map(|a| a.piece),
        rotation: a.map_or(Rotation::North, |a| a.rotation),
        x: a.map_or(SPAWN_X, |a| a.x),
        y: a.map_or(SPAWN_Y, |a| a.y),
        hold: game.hold_piece(),
        pieces: game.stats().pieces,
    }
}

/// Presses `press` 1 ms into the delay (released 1 ms later unless it is held), plays to the
/// spawn (with the piece in play through a live pause, to the pause's end), and reads the
/// piece then.
fn play(ruleset: RulesetId, delay: Delay, version: u16, press: Press) -> (AtSpawn, [Piece; 2]) {
    let (mut game, next, spawn) = into_delay(ruleset, delay, version);
    let b = press.button();
    game.update(DROP + 1, Some(Input::Press(b)));
    if !press.held() {
        game.update(DROP + 2, Some(Input::Release(b)));
    }
    if live_pause(ruleset, delay, version) {
        // The press acted on the piece in play at once; nothing else moves it in the pause
        // (a held direction's auto-shift comes when DAS runs out, in the pause or after).
        let at_once = read(&game);
        game.update(spawn, None);
        if !press.held() {
            assert_eq!(read(&game), at_once, "{press:?}: all at once");
        }
        return (read(&game), next);
    }
    game.update(spawn - 1, None);
    assert!(game.active().is_none(), "nothing spawns before {spawn}");
    assert_eq!(game.stats().pieces, 1, "nothing happens in the delay");
    game.update(spawn, None);
    (read(&game), next)
}

/// Whether DAS (held since 1 ms into the delay) ran out by the spawn at `spawn`.
fn charged(ruleset: RulesetId, delay: Delay) -> bool {
    let (game, _, spawn) = into_delay(ruleset, delay, Ruleset::get(ruleset).version);
    let _ = game;
    DROP + 1 + Time::from(Ruleset::get(ruleset).handling.das) <= spawn
}

/// Version 3: what each press does at the spawn.
fn expected(ruleset: RulesetId, delay: Delay, press: Press, next: [Piece; 2]) -> AtSpawn {
    let north = AtSpawn {
        piece: Some(next[0]),
        rotation: Rotation::North,
        x: SPAWN_X,
        y: SPAWN_Y,
        hold: None,
        pieces: 1,
    };
    // A held direction: the tap's move at spawn, and an auto-shift at once if DAS ran out in
    // the delay.
    let held = 1 + i8::from(charged(ruleset, delay));
    let turns_180 = Ruleset::get(ruleset).turns_180;
    let spawns_at_once = !(delay == Delay::Spawn || Ruleset::get(ruleset).appearance_delay > 0);
    match press {
        Press::TapLeft => AtSpawn {
            x: SPAWN_X - 1,
            ..north
        },
        Press::TapRight => AtSpawn {
            x: SPAWN_X + 1,
            ..north
        },
        Press::HoldLeft => AtSpawn {
            x: SPAWN_X - held,
            ..north
        },
        Press::HoldRight => AtSpawn {
            x: SPAWN_X + held,
            ..north
        },
        Press::RotateCw => AtSpawn {
            rotation: Rotation::East,
            ..north
        },
        Press::RotateCcw => AtSpawn {
            rotation: Rotation::West,
            ..north
        },
        Press::Rotate180 if turns_180 => AtSpawn {
            rotation: Rotation::South,
            ..north
        },
        Press::Rotate180 => north,
        Press::Hold => AtSpawn {
            piece: Some(next[1]),
            hold: Some(next[0]),
            ..north
        },
        // Dropped and locked at spawn: the piece after it is in play, or after a delay.
        Press::HardDrop => AtSpawn {
            piece: spawns_at_once.then_some(next[1]),
            pieces: 2,
            ..north
        },
        Press::SoftDrop => AtSpawn {
            y: SPAWN_Y + 1,
            ..north
        },
    }
}

/// Every version from 3 on: the table holds at the spawn, and where the piece is in play
/// through the pause (`tui-tetris` from version 5) it holds at the pause's end, the press
/// having acted at once.
#[test]
fn every_press_in_every_delay_acts_when_the_next_piece_spawns() {
    let mut rows = 0;
    let mut live = 0;
    for ruleset in RulesetId::ALL {
        let current = Ruleset::get(ruleset).version;
        assert!(current >= 5, "{ruleset:?} {current}");
        for version in 3..=current {
            for delay in [Delay::LineClear, Delay::Spawn] {
                live += usize::from(live_pause(ruleset, delay, version));
                for press in PRESSES {
                    let (got, next) = play(ruleset, delay, version, press);
                    let want = expected(ruleset, delay, press, next);
                    let text = TEXTS.iter().find(|t| t.0 == ruleset).map_or("", |t| t.1);
                    let case = format!("{ruleset:?} v{version} {delay:?} {press:?}");
                    assert_eq!(got, want, "{case} ({text})");
                    rows += 1;
                }
            }
        }
    }
    assert_eq!((rows, live), (180, 1));
}

/// Version 2 (old replays, and the engine before issue 36): the press was lost, a direction
/// only started DAS; a tui-tetris 180 turns nothing in either version.
#[test]
fn version_2_lost_every_press_in_a_delay() {
    for ruleset in RulesetId::ALL {
        for delay in [Delay::LineClear, Delay::Spawn] {
            for press in PRESSES {
                let (got, next) = play(ruleset, delay, 2, press);
                let lost = AtSpawn {
                    piece: Some(next[0]),
                    rotation: Rotation::North,
                    x: SPAWN_X,
                    y: SPAWN_Y,
                    hold: None,
                    pieces: 1,
                };
                let dx = i8::from(charged(ruleset, delay));
                let want = match press {
                    Press::HoldLeft => AtSpawn {
                        x: SPAWN_X - dx,
                        ..lost
                    },
                    Press::HoldRight => AtSpawn {
                        x: SPAWN_X + dx,
                        ..lost
                    },
                    _ => lost,
                };
                assert_eq!(got, want, "{ruleset:?} {delay:?} {press:?}");
                let now = expected(ruleset, delay, press, next);
                let same = ruleset == RulesetId::TuiTetris && press == Press::Rotate180;
                assert_eq!(got == now, same, "{ruleset:?} {delay:?} {press:?}");
            }
        }
    }
}

/// Several presses in one delay: each tap moves once, rotations add up, and the drop comes last
/// (after the moves and the turn), whatever order they came in.
#[test]
fn several_presses_in_one_delay_all_act_drop_last() {
    let (mut game, next, spawn) = into_delay(RulesetId::Standard, Delay::LineClear, 3);
    let mut t = DROP + 1;
    for b in [
        Button::HardDrop,
        Button::Right,
        Button::RotateCw,
        Button::Right,
        Button::RotateCw,
    ] {
        game.update(t, Some(Input::Press(b)));
        game.update(t + 1, Some(Input::Release(b)));
        t += 2;
    }
    let ev = game.update(spawn, None).to_vec();
    let lock = ev.iter().find_map(|e| match e.kind {
        EventKind::Lock { at, .. } => Some(at),
        _ => None,
    });
    let at = lock.expect("dropped at spawn");
    assert_eq!(
        (at.piece, at.rotation, at.x),
        (next[0], Rotation::South, SPAWN_X + 2)
    );
    assert_eq!(game.stats().pieces, 2);
}

/// A direction held through the delay with ARR 0: DAS ran out in the delay, so the new piece
/// slides to the wall as it spawns.
#[test]
fn a_direction_held_through_the_delay_slides_at_spawn_with_arr_zero() {
    for version in [2, 3] {
        let config = GameConfig {
            mode: Mode::custom(0, false, None),
            handling: Handling {
                das: 100,
                arr: 0,
                ..Handling::default()
            },
            ..GameConfig::default()
        };
        let mut game = Game::of_version(config, 7, version).expect("a version");
        game.update(0, None);
        let first = game.active().unwrap().placed.piece;
        game.set_board(single_board(first));
        game.update(50, Some(Input::Press(Button::HardDrop)));
        game.update(51, Some(Input::Press(Button::Left)));
        game.update(229, None);
        assert!(game.active().is_none());
        game.update(230, None);
        let a = game.active().unwrap().placed;
        assert!(
            !game.board().fits(&a.shifted(-1, 0)),
            "v{version}: at the wall"
        );
    }
}

// ---- "Prevent accidental hard drop" ----

fn guarded(guard: u32) -> Game {
    let config = GameConfig {
        mode: Mode::custom(0, false, None),
        handling: Handling {
            hard_drop_guard: guard,
            ..Handling::default()
        },
        ..GameConfig::default()
    };
    let mut game = Game::new(config, 3);
    game.update(0, None);
    let first = game.active().unwrap().placed.piece;
    game.set_board(single_board(first));
    game.update(DROP, Some(Input::Press(Button::HardDrop)));
    game.update(DROP, Some(Input::Release(Button::HardDrop)));
    assert_eq!(game.stats().lines, 1);
    game
}

fn hard_drop_at(game: &mut Game, t: Time) {
    game.update(t, Some(Input::Press(Button::HardDrop)));
    game.update(t, Some(Input::Release(Button::HardDrop)));
}

#[test]
fn the_hard_drop_guard_ignores_hard_drops_within_its_window_after_a_clear() {
    // In the delay (standard: the next piece spawns 180 ms after the clear).
    let mut g = guarded(100);
    hard_drop_at(&mut g, DROP + 99);
    g.update(DROP + 180, None);
    assert_eq!(g.stats().pieces, 1, "99 ms after the clear: ignored");
    let mut g = guarded(100);
    hard_drop_at(&mut g, DROP + 100);
    g.update(DROP + 180, None);
    assert_eq!(g.stats().pieces, 2, "100 ms after: dropped at spawn");
    // After the spawn, while the window lasts.
    let mut g = guarded(300);
    g.update(DROP + 180, None);
    hard_drop_at(&mut g, DROP + 299);
    assert_eq!(g.stats().pieces, 1, "299 ms after the clear: ignored");
    hard_drop_at(&mut g, DROP + 300);
    assert_eq!(g.stats().pieces, 2, "300 ms after: dropped");
    // Off (0), the default: the drop in the delay acts.
    let mut g = guarded(0);
    hard_drop_at(&mut g, DROP + 1);
    g.update(DROP + 180, None);
    assert_eq!(g.stats().pieces, 2);
    assert_eq!(Handling::default().hard_drop_guard, 0);
}

#[test]
fn the_hard_drop_guard_starts_only_at_a_clear() {
    let config = GameConfig {
        mode: Mode::custom(0, false, None),
        handling: Handling {
            hard_drop_guard: 500,
            ..Handling::default()
        },
        ..GameConfig::default()
    };
    let mut game = Game::new(config, 3);
    game.update(0, None);
    hard_drop_at(&mut game, 10);
    hard_drop_at(&mut game, 11);
    assert_eq!(game.stats().pieces, 2, "no clear, no guard");
}

// ---- DAS cut ----

fn cut_game(das_cut: u32, arr: u32) -> Game {
    let config = GameConfig {
        mode: Mode::custom(0, false, None),
        handling: Handling {
            das: 150,
            arr,
            das_cut,
            ..Handling::default()
        },
        ..GameConfig::default()
    };
    // Any piece but the O and the I: a T-like box, 3 wide at spawn.
    let seed = (1..)
        .find(|&s| {
            let mut g = Game::new(config.clone(), s);
            g.update(0, None);
            g.active().unwrap().placed.piece == Piece::T
        })
        .unwrap();
    let mut game = Game::new(config, seed);
    game.update(0, None);
    game
}

fn x(game: &Game) -> i8 {
    game.active().unwrap().placed.x
}

#[test]
fn the_das_cut_holds_auto_shift_back_after_a_rotation() {
    // Right held from 10 (moves at 10, DAS at 160, ARR 50: 210, 260...), CW at 200.
    for (cut, next) in [(0, 210), (10, 210), (60, 260), (61, 261)] {
        let mut g = cut_game(cut, 50);
        g.update(10, Some(Input::Press(Button::Right)));
        g.update(160, None);
        assert_eq!(x(&g), SPAWN_X + 2);
        g.update(200, Some(Input::Press(Button::RotateCw)));
        g.update(next - 1, None);
        assert_eq!(x(&g), SPAWN_X + 2, "cut {cut}: not before {next}");
        g.update(next, None);
        assert_eq!(x(&g), SPAWN_X + 3, "cut {cut}: at {next}");
    }
}

#[test]
fn the_das_cut_holds_an_arr_zero_slide_back_after_a_rotation() {
    // Right held and charged: the T slides to the wall at DAS. Turned counter-clockwise there
    // its box can slide one more column: at once without a cut, after the cut with one.
    for (cut, at) in [(0, 300), (80, 380)] {
        let mut g = cut_game(cut, 0);
        g.update(10, Some(Input::Press(Button::Right)));
        g.update(160, None);
        let wall = x(&g);
        g.update(300, Some(Input::Press(Button::RotateCcw)));
        if cut > 0 {
            assert_eq!(x(&g), wall, "cut {cut}: no slide at the turn");
            g.update(at - 1, None);
            assert_eq!(x(&g), wall);
        }
        g.update(at, None);
        assert_eq!(x(&g), wall + 1, "cut {cut}: slid at {at}");
    }
}

#[test]
fn the_das_cut_holds_auto_shift_back_after_a_spawn() {
    // Right held from 10 (ARR 50: 160, 210, 260...), the piece hard-dropped at 240: the next
    // spawns at once and auto-shifts at 260 without a cut, at 240 + cut with one.
    for (cut, next) in [(0, 260), (20, 260), (90, 330)] {
        let mut g = cut_game(cut, 50);
        g.update(10, Some(Input::Press(Button::Right)));
        hard_drop_at(&mut g, 240);
        assert_eq!(g.stats().pieces, 1);
        assert_eq!(x(&g), SPAWN_X);
        g.update(next - 1, None);
        assert_eq!(x(&g), SPAWN_X, "cut {cut}: not before {next}");
        g.update(next, None);
        assert_eq!(x(&g), SPAWN_X + 1, "cut {cut}: at {next}");
    }
}

#[test]
fn the_new_handling_settings_are_capped_off_by_default_and_replayed() {
    let h = Handling {
        hard_drop_guard: 5000,
        das_cut: 5000,
        ..Handling::default()
    }
    .clamped();
    assert_eq!((h.hard_drop_guard, h.das_cut), (1000, 1000));
    assert_eq!(
        (h.hard_drop_guard, h.das_cut),
        (
            minotty_engine::ruleset::MAX_HARD_DROP_GUARD,
            minotty_engine::ruleset::MAX_DAS_CUT
        )
    );
    for r in RulesetId::ALL {
        let d = Ruleset::get(r).handling;
        assert_eq!((d.hard_drop_guard, d.das_cut), (0, 0), "{r:?}");
    }
    // A game with both on replays to the same end (the replay's format 3 carries them), and
    // a game without them keeps format 1's bytes.
    let mut g = cut_game(40, 50);
    let mut cfg = g.config().clone();
    cfg.handling.hard_drop_guard = 250;
    g = Game::new(cfg, g.seed());
    let mut t = 0;
    for i in 0..400u32 {
        t += 7 + Time::from(i % 13);
        let b = Button::ALL[(i as usize * 5) % Button::ALL.len()];
        g.update(t, Some(Input::Press(b)));
        g.update(t + 3, Some(Input::Release(b)));
    }
    let replay = g.replay();
    let bytes = replay.to_bytes();
    assert_eq!(bytes[4], 3, "format 3");
    let back = minotty_engine::Replay::from_bytes(&bytes).expect("reads");
    assert_eq!(back, replay);
    assert_eq!(
        (back.handling.hard_drop_guard, back.handling.das_cut),
        (250, 40)
    );
    let played = back.play().expect("plays");
    assert_eq!(played.stats(), g.stats());
    assert_eq!(played.board(), g.board());
    let plain = Game::new(GameConfig::default(), 1).replay().to_bytes();
    assert_eq!(plain[4], 1, "format 1");
}
