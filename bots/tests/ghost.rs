//! Ghost races against the placement bot's finished games: a 40-lines ghost under every
//! ruleset ends exactly where its replay ends (board, lines, time, outcome) however the racer's
//! updates are chunked, and the split against it reads as the table says.

use minotty_bots::autoplay;
use minotty_engine::{
    Game, GameConfig, Ghost, GhostSplit, Handling, Mode, Replay, RulesetId, Time, Tuning,
};

/// A 40-lines game the placement bot finished under `ruleset`, one piece every `piece_ms`.
fn finished_sprint(ruleset: RulesetId, seed: u32, piece_ms: Time) -> Replay {
    let mut game = Game::new(
        GameConfig {
            ruleset,
            mode: Mode::sprint(),
            handling: Handling::default(),
            tuning: Tuning::default(),
        },
        seed,
    );
    autoplay(&mut game, 400, piece_ms);
    assert_eq!(game.stats().lines, 40, "{ruleset:?}: the bot finished");
    assert_eq!(game.outcome().map(|(_, won)| won), Some(true));
    game.replay()
}

fn sprints() -> Vec<(String, Replay)> {
    RulesetId::ALL
        .iter()
        .enumerate()
        .map(|(i, &r)| {
            let seed = 11 + i as u32;
            (
                format!("{r:?}"),
                finished_sprint(r, seed, 90 + 7 * i as Time),
            )
        })
        .collect()
}

#[test]
fn a_40_lines_ghost_ends_exactly_where_its_replay_ends_however_updates_are_chunked() {
    for (name, replay) in sprints() {
        let want = replay.play().expect("plays");
        assert_eq!(want.now(), replay.end, "{name}: recorded to its end");
        let end = replay.end;
        let chunkings: Vec<(&str, Vec<Time>)> = vec![
            ("one call", vec![end]),
            ("every ms", (0..=end).collect()),
            ("odd chunks", (0..=end).step_by(41).collect()),
            ("frames", (0..=end + 3_000).step_by(16).collect()),
        ];
        for (how, times) in chunkings {
            let mut ghost = Ghost::new(replay.clone()).expect("a ghost");
            // The racer's clock always reaches the ghost's end (its game goes on).
            for t in times.into_iter().chain([end]) {
                while !ghost.advance_to(t).caught_up {}
            }
            let got = ghost.game();
            let what = format!("{name}, {how}");
            assert_eq!(got.board(), want.board(), "{what}");
            assert_eq!(got.stats(), want.stats(), "{what}");
            assert_eq!(got.stats().lines, 40, "{what}");
            assert_eq!(got.now(), end, "{what}");
            assert_eq!(got.outcome(), want.outcome(), "{what}");
            assert!(ghost.finished(), "{what}");
        }
    }
}

#[test]
fn the_split_against_the_ghost() {
    let (_, replay) = sprints().remove(0);
    assert_eq!(replay.ruleset, RulesetId::ALL[0]);
    let ghost = Ghost::new(replay.clone()).expect("a ghost");
    let t10 = ghost.time_of_line(10).expect("line 10");
    let t40 = ghost.time_of_line(40).expect("line 40");
    assert_eq!(ghost.time_of_line(0), None);
    assert_eq!(ghost.time_of_line(41), None);
    assert_eq!(ghost.lines_at(0), 0);
    assert_eq!(ghost.lines_at(t40), 40);
    assert!(ghost.lines_at(t10) >= 10 && ghost.lines_at(t10 - 1) < 10);
    // (racer now, racer lines, racer reached them at) -> split
    let rows: [(Time, u32, Time, GhostSplit); 6] = [
        // Nothing cleared yet: even, no time split.
        (
            0,
            0,
            0,
            GhostSplit {
                lines: 0,
                time: None,
            },
        ),
        // Ten lines at the ghost's moment exactly: even on both.
        (
            t10,
            10,
            t10,
            GhostSplit {
                lines: 10 - i64::from(ghost.lines_at(t10)),
                time: Some((10, 0)),
            },
        ),
        // Ten lines 1.2 s before the ghost had them: ahead.
        (
            t10 - 1200,
            10,
            t10 - 1200,
            GhostSplit {
                lines: 10 - i64::from(ghost.lines_at(t10 - 1200)),
                time: Some((10, -1200)),
            },
        ),
        // Ten lines 800 ms after the ghost: behind.
        (
            t10 + 800,
            10,
            t10 + 800,
            GhostSplit {
                lines: 10 - i64::from(ghost.lines_at(t10 + 800)),
                time: Some((10, 800)),
            },
        ),
        // Forty lines, the ghost's end: even.
        (
            t40,
            40,
            t40,
            GhostSplit {
                lines: 0,
                time: Some((40, 0)),
            },
        ),
        // More lines than the ghost ever cleared: no time to compare with.
        (
            t40 + 10_000,
            44,
            t40 + 9_000,
            GhostSplit {
                lines: 4,
                time: None,
            },
        ),
    ];
    for (i, (now, lines, reached, want)) in rows.into_iter().enumerate() {
        assert_eq!(ghost.split(now, lines, reached), want, "row {i}");
    }
}
