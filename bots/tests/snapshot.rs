//! Snapshots: a game resumed from one plays on exactly like the original (same inputs, same
//! times, same board and stats), the case of a snapshot taken after a hold, the bounded binary
//! form, and replays of resumed games.

use minotty_bots::{autoplay, execute};
use minotty_engine::snapshot::{MAX_BYTES, SnapshotPhase};
use minotty_engine::{
    Board, Button, Game, GameConfig, Generator, Input, Mode, ModeKind, Phase, Piece, Position,
    Replay, RulesetId, Snapshot, SnapshotError, StartBoard, Tuning,
};

fn config(ruleset: RulesetId, mode: Mode, tuning: Tuning) -> GameConfig {
    GameConfig {
        ruleset,
        mode,
        tuning,
        ..GameConfig::default()
    }
}

/// A custom game that starts from `s` under the snapshot's ruleset and tuning. Its seed is
/// deliberately unrelated: everything must come from the snapshot.
fn resumed(s: &Snapshot) -> Game {
    resumed_levelling(s, true)
}

/// [`resumed`] with the custom game's level rule (a snapshot leaves it to the custom game).
fn resumed_levelling(s: &Snapshot, level_increase: bool) -> Game {
    let mut mode = Mode::custom(0, level_increase, None);
    mode.start_board = StartBoard::Snapshot(Box::new(s.clone()));
    let mut game = Game::new(config(s.ruleset(), mode, s.tuning()), 0xDEAD_BEEF);
    game.update(0, None);
    game
}

/// Everything a player could see or a result could hold, for comparing two games.
fn view(g: &Game) -> (Vec<String>, String, Option<Piece>, bool, Vec<Piece>, String) {
    (
        g.board().to_ascii(),
        format!("{:?}", g.active()),
        g.hold_piece(),
        g.can_hold(),
        g.preview().collect(),
        format!(
            "{:?} {:?} {:?} {} {:?} {}",
            g.stats(),
            g.phase(),
            g.combo(),
            g.back_to_back(),
            g.outcome(),
            g.now()
        ),
    )
}

/// Snapshots `original` now, goes on playing it with the bot for `more` pieces, then feeds the
/// same inputs at the same times to a game resumed from the snapshot: both must end alike.
fn resumes_alike(name: &str, mut original: Game, more: u32) {
    let snap = original.snapshot().expect("a piece in play or a clear");
    let bytes = snap.to_bytes();
    assert!(bytes.len() <= MAX_BYTES, "{name}: {} bytes", bytes.len());
    assert_eq!(Snapshot::from_bytes(&bytes).as_ref(), Ok(&snap), "{name}");
    let from = original.inputs().len();
    // The same level rule as the original, so that only the snapshot can make them differ.
    let mut game = resumed_levelling(&snap, original.mode().level_increase);
    assert_eq!(view(&game), view(&original), "{name}: at the snapshot");
    let target = original.stats().pieces + more;
    autoplay(&mut original, target, 120);
    assert!(
        original.stats().pieces >= snap.stats().pieces + more.min(5) || original.is_over(),
        "{name}: the bot played on"
    );
    for &(t, input) in &original.inputs()[from..] {
        game.update(t, Some(input));
    }
    game.update(original.now(), None);
    assert_eq!(
        view(&game),
        view(&original),
        "{name}: after {more} more pieces"
    );
}

fn played(ruleset: RulesetId, mode: Mode, tuning: Tuning, seed: u32, pieces: u32) -> Game {
    let mut g = Game::new(config(ruleset, mode, tuning), seed);
    autoplay(&mut g, pieces, 120);
    g
}

/// A 4-deep stack with a well at the right and a chain already running (combo index 2).
fn mid_combo() -> Game {
    let row = "#########.";
    let position = Position {
        board: Board::from_ascii(&[row; 8]),
        current: Piece::I,
        next: vec![Piece::I, Piece::O, Piece::T, Piece::L, Piece::J],
        hold: Some(Piece::S),
        combo: 3,
        back_to_back: false,
    };
    let mut g = Game::from_position(
        config(RulesetId::Standard, Mode::marathon(), Tuning::default()),
        &position,
        7,
    );
    g.update(0, None);
    assert_eq!(g.combo(), Some(2));
    g
}

/// A T-spin double into the classic slot with back-to-back on, snapshotted while its rows
/// are being cleared.
fn after_tspin_b2b() -> Game {
    let position = Position {
        board: Board::from_ascii(&["####..#...", "###...####", "####.#####"]),
        current: Piece::T,
        next: vec![Piece::I, Piece::O, Piece::L, Piece::J, Piece::S],
        hold: None,
        combo: 0,
        back_to_back: true,
    };
    let mut g = Game::from_position(
        config(RulesetId::Standard, Mode::marathon(), Tuning::default()),
        &position,
        11,
    );
    g.update(0, None);
    let t = execute(
        &mut g,
        &[Button::RotateCcw, Button::Right, Button::SonicDrop],
        10,
    );
    let t = execute(&mut g, &[Button::RotateCcw], t);
    execute(&mut g, &[Button::HardDrop], t);
    assert_eq!(g.stats().tspins, 1);
    assert!(g.back_to_back());
    assert_eq!(g.stats().max_b2b, 1);
    assert!(
        matches!(g.phase(), Phase::Clearing { .. }),
        "{:?}",
        g.phase()
    );
    g
}

/// `tui-tetris` (version 5): an I clears the bottom row at 100 and the next piece is in play
/// through the line clear pause, gravity and the lock delay waiting for its last step (272).
fn in_tui_tetris_pause() -> Game {
    let position = Position {
        board: Board::from_ascii(&["###....###", "#########."]),
        current: Piece::I,
        next: vec![Piece::T, Piece::O, Piece::L, Piece::J, Piece::S],
        hold: None,
        combo: 0,
        back_to_back: false,
    };
    let mut g = Game::from_position(
        config(RulesetId::TuiTetris, Mode::marathon(), Tuning::default()),
        &position,
        5,
    );
    g.update(0, None);
    execute(&mut g, &[Button::HardDrop], 100);
    assert_eq!(g.stats().lines, 1);
    assert_eq!(
        g.phase(),
        Phase::Falling,
        "the next piece in play in the pause"
    );
    g
}

#[test]
fn a_snapshot_in_tui_tetris_s_line_clear_pause_keeps_the_pause() {
    let g = in_tui_tetris_pause();
    let s = g.snapshot().expect("a piece in play");
    let &SnapshotPhase::Falling { last_fall, .. } = s.phase() else {
        panic!("{:?}", s.phase());
    };
    assert_eq!(
        (s.time(), last_fall),
        (100, 272),
        "gravity counts from the pause's end"
    );
    let s = Snapshot::from_bytes(&s.to_bytes()).expect("its own bytes");
    let mut r = resumed(&s);
    assert_eq!(r.next_deadline(), g.next_deadline());
    // A shift and a hard drop in the pause: the piece after it spawns in the pause too and
    // waits for its end (its first row at 272 + 1008 = 1280) in both.
    let mut g = g;
    for game in [&mut g, &mut r] {
        execute(game, &[Button::Left, Button::HardDrop], 150);
        assert_eq!(game.stats().pieces, 2);
        assert_eq!(game.next_deadline(), Some(1280));
        game.update(1_279, None);
    }
    assert_eq!(view(&r), view(&g));
}

#[test]
fn a_resumed_game_plays_on_like_the_original() {
    let tuned = |g| Tuning {
        generator: Some(g),
        ..Tuning::default()
    };
    let mut cases: Vec<(String, Game, u32)> = vec![
        ("mid-combo".into(), mid_combo(), 12),
        (
            "after a T-spin double with back-to-back, mid-clear".into(),
            after_tspin_b2b(),
            12,
        ),
        (
            "cheese rows on the board, refilled after".into(),
            played(
                RulesetId::Standard,
                Mode::cheese(18),
                Tuning::default(),
                5,
                6,
            ),
            30,
        ),
        (
            "tui-tetris in its line clear pause, the next piece in play".into(),
            in_tui_tetris_pause(),
            12,
        ),
        (
            "combo well, walls rebuilt after".into(),
            played(RulesetId::Standard, Mode::combo(), Tuning::default(), 9, 0),
            1,
        ),
    ];
    for ruleset in RulesetId::ALL {
        cases.push((
            format!("{ruleset:?} marathon, right after a spawn"),
            played(ruleset, Mode::marathon(), Tuning::default(), 3, 9),
            20,
        ));
        // Mid-fall: gravity and (on the ground) the lock timer are running.
        let mut g = played(ruleset, Mode::marathon(), Tuning::default(), 4, 7);
        let t = g.now() + 1_337;
        g.update(t, None);
        cases.push((format!("{ruleset:?} mid-fall"), g, 15));
    }
    for generator in Generator::PRESETS {
        cases.push((
            format!("generator {}", generator.id()),
            played(
                RulesetId::Standard,
                Mode::marathon(),
                tuned(generator),
                21,
                11,
            ),
            25,
        ));
    }
    for (name, game, more) in cases {
        resumes_alike(&name, game, more);
    }
}

#[test]
fn a_snapshot_taken_after_a_hold_restores_exactly() {
    let mut g = Game::new(GameConfig::default(), 2024);
    g.update(0, None);
    let first = g.active().expect("a piece").placed.piece;
    let preview: Vec<Piece> = g.preview().collect();
    g.update(100, Some(Input::Press(Button::Hold)));
    g.update(120, Some(Input::Release(Button::Hold)));
    assert_eq!(g.hold_piece(), Some(first));
    assert!(!g.can_hold());
    let s = g.snapshot().expect("a piece in play");
    assert_eq!(s.hold(), Some(first));
    assert!(s.hold_used());
    assert_eq!(s.active().map(|p| p.piece), Some(preview[0]));
    assert_eq!(s.queue()[..preview.len() - 1], preview[1..]);
    assert_eq!(s.time(), 120);

    let s = Snapshot::from_bytes(&s.to_bytes()).expect("its own bytes");
    let mut r = resumed(&s);
    assert_eq!(view(&r), view(&g));
    assert_eq!(r.hold_piece(), Some(first));
    assert!(!r.can_hold(), "hold stays used for this piece");
    assert_eq!(r.active().map(|a| a.placed.piece), Some(preview[0]));
    assert_eq!(
        r.preview().collect::<Vec<_>>(),
        g.preview().collect::<Vec<_>>()
    );
    // Hold again does nothing in either; after the next lock hold is free again.
    for game in [&mut g, &mut r] {
        assert!(
            game.update(200, Some(Input::Press(Button::Hold)))
                .iter()
                .all(|e| !matches!(e.kind, minotty_engine::EventKind::Hold { .. }))
        );
        game.update(210, Some(Input::Release(Button::Hold)));
        game.update(220, Some(Input::Press(Button::HardDrop)));
        game.update(230, Some(Input::Release(Button::HardDrop)));
        game.update(1_000, None);
        assert!(game.can_hold());
    }
    assert_eq!(view(&r), view(&g));
}

#[test]
fn nothing_to_snapshot_before_the_start_or_after_the_end() {
    let mut g = Game::new(GameConfig::default(), 1);
    assert!(g.snapshot().is_none());
    g.update(0, None);
    assert!(g.snapshot().is_some());
    g.update(5, Some(Input::Forfeit));
    assert!(g.is_over());
    assert!(g.snapshot().is_none());
}

fn sample() -> Snapshot {
    let g = played(
        RulesetId::Standard,
        Mode::cheese(12),
        Tuning {
            generator: Some(Generator::Stock {
                multiplicity: 2,
                restock: 3,
            }),
            lock_delay: Some(700),
            ..Tuning::default()
        },
        77,
        9,
    );
    g.snapshot().expect("snapshot")
}

#[test]
fn damaged_bytes_are_refused_without_panicking() {
    let bytes = sample().to_bytes();
    for len in 0..bytes.len() {
        assert!(Snapshot::from_bytes(&bytes[..len]).is_err(), "cut at {len}");
    }
    let mut long = bytes.clone();
    long.push(0);
    assert_eq!(
        Snapshot::from_bytes(&long),
        Err(SnapshotError::Malformed("trailing bytes"))
    );
    let huge = vec![0u8; MAX_BYTES + 1];
    assert_eq!(
        Snapshot::from_bytes(&huge),
        Err(SnapshotError::TooLarge { len: MAX_BYTES + 1 })
    );
    // Every byte changed to every value: refused, or a snapshot a game can start from and play.
    let mut accepted = 0;
    for i in 4..bytes.len() {
        for v in [0u8, 1, 2, 7, 8, 9, 0x7f, 0x80, 0xff] {
            let mut b = bytes.clone();
            b[i] = v;
            if let Ok(s) = Snapshot::from_bytes(&b) {
                accepted += 1;
                if accepted % 16 == 0 {
                    let mut g = resumed(&s);
                    let target = s.stats().pieces + 3;
                    autoplay(&mut g, target, 50);
                }
            }
        }
    }
    assert!(accepted > 0);
}

#[test]
fn serde_form_is_the_bounded_binary_form() {
    let s = sample();
    let json = serde_json::to_string(&s).expect("serialize");
    let back: Snapshot = serde_json::from_str(&json).expect("deserialize");
    assert_eq!(back, s);
    let too_long = format!("[{}]", vec!["0"; MAX_BYTES + 1].join(","));
    assert!(serde_json::from_str::<Snapshot>(&too_long).is_err());
}

#[test]
fn a_resumed_game_replays_and_its_replay_round_trips() {
    let s = sample();
    let mut g = resumed(&s);
    let target = s.stats().pieces + 15;
    autoplay(&mut g, target, 100);
    let replay = g.replay();
    assert_eq!(replay.mode.kind, ModeKind::Custom);
    let bytes = replay.to_bytes();
    let back = Replay::from_bytes(&bytes).expect("round trip");
    assert_eq!(back, replay);
    let verified = back.verify().expect("verifies");
    assert_eq!(verified.stats, *g.stats());
    assert_eq!(verified.outcome, g.outcome());
    let json = serde_json::to_string(&replay).expect("json");
    assert_eq!(
        serde_json::from_str::<Replay>(&json).expect("json back"),
        replay
    );
    // The start board's code is 5, followed by the snapshot's length and bytes.
    let snap = s.to_bytes();
    let at = bytes
        .windows(snap.len())
        .position(|w| w == snap)
        .expect("the snapshot is in the replay");
    let len_bytes = if snap.len() < 128 { 1 } else { 2 };
    assert_eq!(bytes[at - len_bytes - 1], 5);
    // A snapshot in a replay is bounded like one on its own: a claimed length over the bound
    // is refused before the bytes are read.
    let mut b = bytes[..at - len_bytes].to_vec();
    b.extend_from_slice(&[0xff, 0xff, 0x03]);
    assert!(Replay::from_bytes(&b).is_err());
}

#[test]
fn snapshot_of_a_line_clear_resumes_in_it() {
    let g = after_tspin_b2b();
    let s = g.snapshot().expect("snapshot");
    assert!(matches!(s.phase(), SnapshotPhase::Clearing { .. }));
    assert_eq!(s.active(), None);
    let r = resumed(&s);
    assert_eq!(r.phase(), g.phase());
}

#[test]
fn a_resumed_game_is_the_same_however_its_updates_are_chunked() {
    let s = sample();
    let mut original = resumed(&s);
    let target = s.stats().pieces + 12;
    autoplay(&mut original, target, 90);
    let inputs = original.inputs().to_vec();
    let end = original.now();
    for step in [1, 7, 33, 250] {
        let mut g = resumed(&s);
        let mut t = g.now();
        for &(at, input) in &inputs {
            while t + step < at {
                t += step;
                g.update(t, None);
            }
            g.update(at, Some(input));
            t = at;
        }
        g.update(end, None);
        assert_eq!(view(&g), view(&original), "updates every {step} ms");
    }
}

#[test]
fn a_snapshot_taken_during_the_appearance_delay_reads_back_and_resumes_alike() {
    // tetrs waits 50 ms between a lock that clears nothing and the next piece: the game is
    // then between pieces (a clear of no rows), a moment a player can save. Its bytes were
    // written but refused on reading ("line clear"), so the saved snapshot was lost.
    let mut g = played(RulesetId::Tetrs, Mode::marathon(), Tuning::default(), 7, 3);
    let t = g.now() + 40;
    g.update(t, None);
    let locks = g.stats().pieces;
    g.update(t, Some(Input::Press(Button::HardDrop)));
    g.update(t + 1, Some(Input::Release(Button::HardDrop)));
    assert_eq!(g.stats().pieces, locks + 1, "the drop locked a piece");
    let snap = g.snapshot().expect("between pieces");
    assert!(
        matches!(snap.phase(), SnapshotPhase::Clearing { rows: 0, .. }),
        "{:?}",
        snap.phase()
    );
    resumes_alike("tetrs, appearance delay", g, 20);
}
