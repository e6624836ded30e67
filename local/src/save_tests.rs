//! The save file and the local answers, on real games played by the engine's bot.

use std::path::PathBuf;

use minotty_bots::autoplay;
use minotty_engine::{Game, GameConfig, Mode, ModeKind, RulesetId};
use minotty_protocol::{BoardId, BoardPeriod, Identity};
use minotty_ui::{FinishedGame, Settings};
use minotty_ui::{Request, Response};

use super::local::Local;
use super::save::{self, FORMAT, LocalGame, MAX_GAMES, SaveFile, from_hex, to_hex};

const NOW: i64 = 1_790_000_000_000;

fn dir() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("minotty").join("save.json");
    (dir, path)
}

/// A game of `mode` played by the bot for at most `pieces` pieces.
fn played(mode: Mode, ruleset: RulesetId, seed: u32, pieces: u32) -> FinishedGame {
    let mut game = Game::new(
        GameConfig {
            ruleset,
            mode,
            ..GameConfig::default()
        },
        seed,
    );
    autoplay(&mut game, pieces, 100);
    let (reason, won) = game
        .outcome()
        .unwrap_or((minotty_engine::EndReason::Forfeit, false));
    FinishedGame {
        kind: game.mode().kind,
        replay: game.replay(),
        stats: *game.stats(),
        reason,
        won,
    }
}

fn sprint(seed: u32) -> FinishedGame {
    let game = played(Mode::sprint(), RulesetId::Standard, seed, 400);
    assert!(game.won, "the bot finishes 40 lines");
    game
}

fn note(r: &Response) -> String {
    match r {
        Response::GameRecorded(rec) => rec.note.clone().unwrap_or_default(),
        other => panic!("expected GameRecorded, got {other:?}"),
    }
}

#[test]
fn hex_round_trips_and_refuses_what_is_not_hex() {
    let bytes: Vec<u8> = (0..=255).collect();
    assert_eq!(from_hex(&to_hex(&bytes)), Some(bytes));
    assert_eq!(to_hex(&[0x0f, 0xa0]), "0fa0");
    for bad in ["0", "0g", "zz", "éé", "0fa"] {
        assert_eq!(from_hex(bad), None, "{bad}");
    }
}

#[test]
fn a_missing_file_is_an_empty_save_and_what_is_written_reads_back() {
    let (_tmp, path) = dir();
    let mut save = SaveFile::open(path.clone(), NOW);
    assert!(save.persistent() && save.problem.is_none());
    assert!(save.data.games.is_empty() && save.settings().is_none());
    let settings = Settings {
        frame_rate: 30,
        ghost: false,
        preview: 2,
        ..Settings::default()
    };
    save.set_settings(&settings);
    save.write().expect("writes, creating the directory");
    let again = SaveFile::open(path.clone(), NOW);
    assert_eq!(again.settings(), Some(settings));
    assert_eq!(again.data.format, FORMAT);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&path)
            .expect("exists")
            .permissions()
            .mode();
        assert_eq!(mode & 0o077, 0, "only the user reads the save");
    }
    assert!(
        !path.with_extension("json.tmp").exists(),
        "no temporary file left"
    );
}

#[test]
fn a_damaged_file_is_kept_aside_never_overwritten() {
    let (_tmp, path) = dir();
    std::fs::create_dir_all(path.parent().expect("parent")).expect("dir");
    std::fs::write(&path, b"{\"format\": 1, \"games\": [ {oops").expect("write");
    let save = SaveFile::open(path.clone(), NOW);
    let problem = save.problem.clone().expect("the player is told");
    assert!(problem.contains("damaged"), "{problem}");
    let aside = path.with_extension(format!("json.bad-{NOW}"));
    assert_eq!(
        std::fs::read(&aside).expect("kept aside"),
        b"{\"format\": 1, \"games\": [ {oops"
    );
    assert!(save.persistent(), "a new save starts");
    save.write().expect("writes");
    assert!(SaveFile::open(path, NOW).problem.is_none());
}

#[test]
fn a_file_from_a_newer_minotty_is_left_alone() {
    let (_tmp, path) = dir();
    std::fs::create_dir_all(path.parent().expect("parent")).expect("dir");
    let text = format!("{{\"format\": {}, \"games\": []}}", FORMAT + 1);
    std::fs::write(&path, &text).expect("write");
    let save = SaveFile::open(path.clone(), NOW);
    assert!(!save.persistent());
    assert!(save.problem.as_deref().is_some_and(|p| p.contains("newer")));
    save.write()
        .expect("a save that is not persistent writes nothing");
    assert_eq!(std::fs::read_to_string(&path).expect("still there"), text);
}

#[test]
fn a_file_over_the_size_bound_is_not_read() {
    let (_tmp, path) = dir();
    std::fs::create_dir_all(path.parent().expect("parent")).expect("dir");
    let file = std::fs::File::create(&path).expect("create");
    file.set_len(save::MAX_FILE_BYTES + 1).expect("sparse file");
    let save = SaveFile::open(path, NOW);
    assert!(save.problem.as_deref().is_some_and(|p| p.contains("MiB")));
    assert!(save.data.games.is_empty());
}

fn dummy(key: Option<i64>, mode: &str) -> LocalGame {
    LocalGame {
        id: 0,
        mode: mode.into(),
        ruleset: "standard".into(),
        ended_at: NOW,
        outcome: "won".into(),
        stats: minotty_engine::Stats::default(),
        key,
        note: None,
        replay: String::new(),
    }
}

#[test]
fn the_scoreboard_is_bounded_and_keeps_every_boards_best() {
    let mut save = SaveFile::disabled();
    // The best 40 lines first (oldest), then many worse games.
    let best = save.add_game(dummy(Some(10), "40l"));
    let best_marathon = save.add_game(dummy(Some(-5_000), "marathon"));
    for i in 0..MAX_GAMES as i64 + 50 {
        save.add_game(dummy(Some(1_000 + i), "40l"));
    }
    assert_eq!(save.data.games.len(), MAX_GAMES);
    let ids: Vec<i64> = save.data.games.iter().map(|g| g.id).collect();
    assert!(ids.contains(&best) && ids.contains(&best_marathon));
    assert!(
        ids.windows(2).all(|w| w[0] < w[1]),
        "ids grow, oldest first"
    );
    assert_eq!(
        ids.len(),
        ids.iter().collect::<std::collections::HashSet<_>>().len()
    );
}

#[test]
fn finished_games_make_the_local_scoreboard_profile_and_replays() {
    let (_tmp, path) = dir();
    let mut local = Local::new(SaveFile::open(path.clone(), NOW), "ana".into());
    assert_eq!(local.identity(), Identity::Local { name: "ana".into() });
    let games: Vec<FinishedGame> = (1..=3).map(sprint).collect();
    let mut notes = Vec::new();
    for (i, g) in games.iter().enumerate() {
        notes.push(note(&local.record(g.clone(), NOW + i as i64)));
    }
    // Each note places the game among the player's 40-lines games.
    let mut times: Vec<u64> = games.iter().map(|g| g.stats.time).collect();
    for (g, n) in games.iter().zip(&notes) {
        let place = times.iter().filter(|&&t| t < g.stats.time).count();
        assert!(n.starts_with("#"), "{n}");
        assert!(place < 3 && n.contains("of your 40 Lines games"), "{n}");
    }
    // The board, best first, every row the player's.
    let page = match local.answer(
        Request::Leaderboard {
            board: BoardId::Solo(ModeKind::Sprint),
            ruleset: RulesetId::Standard,
            period: BoardPeriod::AllTime,
            offset: 0,
        },
        NOW + 10,
    ) {
        Some(Response::Leaderboard(p)) => p,
        other => panic!("{other:?}"),
    };
    assert_eq!(page.total, 3);
    times.sort_unstable();
    let shown: Vec<String> = page.rows.iter().map(|r| r.values[0].clone()).collect();
    let expected: Vec<String> = times.iter().map(|&t| minotty_ui::boards::time(t)).collect();
    assert_eq!(shown, expected);
    assert!(page.rows.iter().all(|r| r.name == "ana"));
    assert_eq!(page.own.as_ref().map(|r| r.rank), Some(1));
    // Today's board counts the same games; a marathon board has none.
    let empty = local.answer(
        Request::Leaderboard {
            board: BoardId::Solo(ModeKind::Marathon),
            ruleset: RulesetId::Standard,
            period: BoardPeriod::Today,
            offset: 0,
        },
        NOW,
    );
    assert!(matches!(empty, Some(Response::Leaderboard(p)) if p.total == 0));
    // The replay of the best game plays back to its stats.
    let best = page.rows[0].game.expect("a game id");
    match local.answer(Request::Replay { game: best }, NOW) {
        Some(Response::Replay { replay, player, .. }) => {
            assert_eq!(player, "ana");
            let verified = replay.verify().expect("plays");
            assert_eq!(verified.stats.time, times[0]);
        }
        other => panic!("{other:?}"),
    }
    // The profile: the 40 lines best, the three games newest first.
    let profile = match local.answer(Request::Profile, NOW) {
        Some(Response::Profile(p)) => p,
        other => panic!("{other:?}"),
    };
    let sprint_best = profile
        .bests
        .iter()
        .find(|b| b.mode == ModeKind::Sprint && b.ruleset == RulesetId::Standard)
        .expect("a 40 lines row");
    assert_eq!(sprint_best.best.as_deref(), Some(expected[0].as_str()));
    // Every mode's home board has a row (descent's under tetrs), as on the server.
    assert_eq!(profile.bests.len(), minotty_domain::ranked_modes().len());
    assert!(
        profile
            .bests
            .iter()
            .any(|b| b.mode == ModeKind::Descent && b.ruleset == RulesetId::Tetrs)
    );
    assert_eq!(profile.recent.len(), 3);
    assert_eq!(profile.recent[0].ended_at, NOW + 2);
    // The charts: 40 lines' best after each game that beat it, and the three games' pace.
    let history = &profile.charts.bests;
    assert_eq!(history.len(), 1);
    assert_eq!(history[0].mode, ModeKind::Sprint);
    let mut improvements = Vec::new();
    for g in &games {
        if improvements.last().is_none_or(|&best| g.stats.time < best) {
            improvements.push(g.stats.time);
        }
    }
    let charted: Vec<u64> = history[0].points.iter().map(|p| p.value).collect();
    assert_eq!(charted, improvements);
    assert_eq!(profile.charts.pps.len(), 3);
    let pps = f64::from(games[0].stats.pieces) * 1000.0 / games[0].stats.time as f64;
    assert!((profile.charts.pps[0].pps - pps).abs() < 1e-9);
    // Everything is in the file: a new run sees the same board.
    let again = Local::new(SaveFile::open(path, NOW), "ana".into());
    assert_eq!(again.save().data.games.len(), 3);
}

#[test]
fn games_that_do_not_rank_are_kept_with_the_reason_and_empty_games_are_not() {
    let mut local = Local::new(SaveFile::disabled(), "ana".into());
    let endless = played(Mode::endless(), RulesetId::Standard, 7, 60);
    assert!(endless.stats.lines > 0);
    let n = note(&local.record(endless, NOW));
    assert!(n.contains("not on your scoreboard"), "{n}");
    assert!(n.ends_with("(this run only)"), "{n}");
    let mut empty = played(Mode::marathon(), RulesetId::Standard, 7, 1);
    empty.stats.lines = 0;
    let n = note(&local.record(empty, NOW));
    assert!(n.contains("not kept"), "{n}");
    assert_eq!(local.save().data.games.len(), 1);
}

#[test]
fn requests_that_need_a_server_are_answered_offline() {
    let mut local = Local::new(SaveFile::disabled(), "ana".into());
    for request in [
        Request::QuickMatch,
        Request::ListKeys,
        Request::Register {
            name: "x'); DROP TABLE games;--".into(),
        },
        Request::Leaderboard {
            board: BoardId::Versus,
            ruleset: RulesetId::Standard,
            period: BoardPeriod::AllTime,
            offset: 0,
        },
    ] {
        assert_eq!(local.answer(request, NOW), Some(Response::Offline));
    }
    assert!(matches!(
        local.answer(Request::Replay { game: 99 }, NOW),
        Some(Response::Error { .. })
    ));
}

#[test]
fn settings_saved_by_the_app_are_written_and_a_write_failure_is_reported() {
    let (_tmp, path) = dir();
    let mut local = Local::new(SaveFile::open(path.clone(), NOW), "ana".into());
    let settings = Settings {
        frame_rate: 120,
        ..Settings::default()
    };
    assert_eq!(
        local.answer(Request::SaveSettings(Box::new(settings.clone())), NOW),
        None
    );
    assert_eq!(SaveFile::open(path.clone(), NOW).settings(), Some(settings));
    // A directory at every temporary name tried: writing fails and says so, and the save
    // already on disk is untouched.
    let dir = path.parent().expect("parent");
    std::fs::create_dir_all(dir.join(format!(".save.json.{:016x}.tmp", 7))).expect("in the way");
    save::TEMPORARY_SUFFIXES.with(|s| *s.borrow_mut() = vec![7; 16]);
    match local.answer(Request::SaveSettings(Box::default()), NOW) {
        Some(Response::Error { message }) => assert!(message.contains("could not be saved")),
        other => panic!("{other:?}"),
    }
    assert_eq!(
        SaveFile::open(path, NOW).settings().map(|s| s.frame_rate),
        Some(120)
    );
    save::TEMPORARY_SUFFIXES.with(|s| s.borrow_mut().clear());
}

/// The attacker shares the save's directory and plants symbolic links: at the temporary name
/// the old code always used (`save.json.tmp`), and at the very name the next write will try.
/// Neither is followed: their targets are untouched and the save lands where it belongs.
#[cfg(unix)]
#[test]
fn links_planted_at_temporary_names_are_never_followed() {
    let (tmp, path) = dir();
    let dir = path.parent().expect("parent").to_path_buf();
    std::fs::create_dir_all(&dir).expect("dir");
    let victim = tmp.path().join("victim");
    std::fs::write(&victim, b"precious").expect("victim");
    let dangling = tmp.path().join("nothing-here");
    std::os::unix::fs::symlink(&victim, path.with_extension("json.tmp")).expect("old name");
    std::os::unix::fs::symlink(&victim, dir.join(format!(".save.json.{:016x}.tmp", 1)))
        .expect("the next name");
    std::os::unix::fs::symlink(&dangling, dir.join(format!(".save.json.{:016x}.tmp", 2)))
        .expect("a dangling link");
    // The next names tried: 1, then 2, then 3 (popped from the end).
    save::TEMPORARY_SUFFIXES.with(|s| *s.borrow_mut() = vec![3, 2, 1]);
    let mut save = SaveFile::open(path.clone(), NOW);
    save.data.puzzle_cleared = 4;
    save.write().expect("written past the links");
    save::TEMPORARY_SUFFIXES.with(|s| s.borrow_mut().clear());
    assert_eq!(std::fs::read(&victim).expect("victim"), b"precious");
    assert!(
        !dangling.exists(),
        "the dangling link's target was not created"
    );
    assert_eq!(SaveFile::open(path.clone(), NOW).data.puzzle_cleared, 4);
    assert!(
        !std::fs::symlink_metadata(&path)
            .expect("the save")
            .file_type()
            .is_symlink()
    );
    // No temporary file of ours is left; the planted links are left as they were.
    let left: Vec<String> = std::fs::read_dir(&dir)
        .expect("list")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert_eq!(left.len(), 3, "{left:?}");
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(&path).expect("meta").permissions().mode();
    assert_eq!(mode & 0o777, 0o600);
}

/// Oversized, garbage, and not a file at all: each gives a clear message, is never read past
/// the bound, and is kept aside (nothing is lost), also twice in one millisecond.
#[test]
fn an_oversized_or_garbage_save_gives_a_clear_error_and_loses_nothing() {
    let (_tmp, path) = dir();
    std::fs::create_dir_all(path.parent().expect("parent")).expect("dir");
    let file = std::fs::File::create(&path).expect("create");
    file.set_len(save::MAX_FILE_BYTES + 1).expect("sparse file");
    drop(file);
    let save = SaveFile::open(path.clone(), NOW);
    let problem = save.problem.clone().expect("told");
    assert!(
        problem.contains("larger than 64 MiB") && problem.contains("kept as"),
        "{problem}"
    );
    assert!(save.persistent(), "a new save starts");
    let aside = path.with_extension(format!("json.bad-{NOW}"));
    assert_eq!(
        std::fs::metadata(&aside).expect("kept aside").len(),
        save::MAX_FILE_BYTES + 1
    );
    // Garbage in the same millisecond: kept aside too, beside the first.
    std::fs::write(&path, [0xff, 0x00, 0x13, 0x37]).expect("garbage");
    let save = SaveFile::open(path.clone(), NOW);
    assert!(
        save.problem
            .as_deref()
            .is_some_and(|p| p.contains("damaged"))
    );
    assert_eq!(
        std::fs::read(path.with_extension(format!("json.bad-{NOW}-1"))).expect("second"),
        [0xff, 0x00, 0x13, 0x37]
    );
    assert!(
        std::fs::metadata(&aside).is_ok(),
        "the first is still there"
    );
    // A directory where the save should be: not read, moved aside with what it holds.
    std::fs::create_dir_all(path.join("inside")).expect("a directory");
    let save = SaveFile::open(path.clone(), NOW + 1);
    assert!(
        save.problem
            .as_deref()
            .is_some_and(|p| p.contains("not a regular file")),
        "{:?}",
        save.problem
    );
    assert!(
        path.with_extension(format!("json.bad-{}", NOW + 1))
            .join("inside")
            .is_dir()
    );
}

#[test]
fn a_path_that_cannot_be_read_saves_nothing_and_says_so() {
    let (tmp, _) = dir();
    let file = tmp.path().join("not-a-dir");
    std::fs::write(&file, b"x").expect("write");
    let save = SaveFile::open(file.join("save.json"), NOW);
    assert!(!save.persistent());
    assert!(
        save.problem
            .as_deref()
            .is_some_and(|p| p.contains("saves nothing"))
    );
}

#[test]
fn snapshots_are_kept_listed_newest_first_bounded_and_deleted() {
    let (_tmp, path) = dir();
    let mut local = Local::new(SaveFile::open(path.clone(), NOW), "ana".into());
    let mut game = Game::new(GameConfig::default(), 5);
    autoplay(&mut game, 3, 100);
    let snapshot = game.snapshot().expect("a piece in play");
    for i in 0..minotty_domain::MAX_SNAPSHOTS + 3 {
        let saved = local.answer(
            Request::SaveSnapshot {
                label: format!("game {i}\u{1b}[31m"),
                snapshot: Box::new(snapshot.clone()),
            },
            NOW + i as i64,
        );
        assert_eq!(
            saved,
            Some(Response::SnapshotSaved {
                label: format!("game {i}[31m")
            })
        );
    }
    let listed = |local: &mut Local| match local.answer(Request::ListSnapshots, NOW) {
        Some(Response::Snapshots(list)) => list,
        other => panic!("{other:?}"),
    };
    let list = listed(&mut local);
    assert_eq!(
        list.len(),
        minotty_domain::MAX_SNAPSHOTS,
        "the oldest go first"
    );
    assert_eq!(
        list[0].label,
        format!("game {}[31m", minotty_domain::MAX_SNAPSHOTS + 2)
    );
    assert_eq!(*list[0].snapshot, snapshot);
    assert_eq!(list[0].mode, game.mode().kind);
    // Kept in the file: a new run lists the same, and a deletion sticks.
    let mut again = Local::new(SaveFile::open(path.clone(), NOW), "ana".into());
    assert_eq!(listed(&mut again), list);
    let gone = list[3].id;
    match again.answer(Request::DeleteSnapshot { id: gone }, NOW) {
        Some(Response::Snapshots(left)) => {
            assert_eq!(left.len(), list.len() - 1);
            assert!(left.iter().all(|s| s.id != gone));
        }
        other => panic!("{other:?}"),
    }
    let mut third = Local::new(SaveFile::open(path, NOW), "ana".into());
    assert_eq!(listed(&mut third).len(), list.len() - 1);
}

#[test]
fn puzzle_progress_only_grows_and_is_kept() {
    let (_tmp, path) = dir();
    let mut local = Local::new(SaveFile::open(path.clone(), NOW), "ana".into());
    let progress = |cleared, completed| Some(Response::PuzzleProgress { cleared, completed });
    assert_eq!(
        local.answer(Request::PuzzleProgress, NOW),
        progress(0, false)
    );
    assert_eq!(
        local.answer(Request::PuzzleCleared { stage: 3 }, NOW),
        progress(3, false)
    );
    // A lower stage does not undo progress; a stage past the last counts as the last.
    assert_eq!(
        local.answer(Request::PuzzleCleared { stage: 2 }, NOW),
        progress(3, false)
    );
    let mut again = Local::new(SaveFile::open(path.clone(), NOW), "ana".into());
    assert_eq!(
        again.answer(Request::PuzzleProgress, NOW),
        progress(3, false)
    );
    let last = minotty_engine::puzzle::STAGE_COUNT;
    assert_eq!(
        again.answer(Request::PuzzleCleared { stage: 200 }, NOW),
        progress(last, true)
    );
}

#[test]
fn a_ghost_is_the_best_kept_here_and_a_ghost_race_is_kept_unranked() {
    use minotty_protocol::GhostWanted;
    let mut local = Local::new(SaveFile::disabled(), "ana".into());
    let wanted = GhostWanted::Best {
        mode: ModeKind::Sprint,
        ruleset: RulesetId::Standard,
    };
    assert!(matches!(
        local.answer(Request::Ghost(wanted.clone()), NOW),
        Some(Response::GhostFailed { .. })
    ));
    let best = sprint(5);
    local.record(best.clone(), NOW);
    let Some(Response::Ghost { replay, player, .. }) =
        local.answer(Request::Ghost(wanted.clone()), NOW)
    else {
        panic!("the best kept here is the ghost");
    };
    assert_eq!((*replay, player.as_str()), (best.replay.clone(), "ana"));
    // Asked for by the player's own name, it is the same best; a friend's is not kept here.
    let by_name = |name: &str| GhostWanted::Player {
        name: name.into(),
        mode: ModeKind::Sprint,
        ruleset: RulesetId::Standard,
    };
    assert!(matches!(
        local.answer(Request::Ghost(by_name("ANA")), NOW),
        Some(Response::Ghost { .. })
    ));
    let Some(Response::GhostFailed { message }) = local.answer(Request::Ghost(by_name("bob")), NOW)
    else {
        panic!("a friend's best is not kept here");
    };
    assert!(message.contains("only your own bests"), "{message}");
    // A race on its seed, marked: kept, never on the board.
    let mut race = best;
    race.replay
        .inputs
        .insert(0, (0, minotty_engine::Input::Ghost));
    let r = local.record(race, NOW + 1);
    assert!(note(&r).contains("ghost race"), "{}", note(&r));
}
