use super::*;

/// The leaderboard's arguments as (board, period, ruleset).
fn lb(args: &[&str]) -> Result<(BoardId, Period, RulesetId), String> {
    parse_leaderboard(args).map(|q| (q.board, q.period, q.ruleset))
}

/// Moved from `exec.rs` with the leaderboard's argument parser.
#[test]
fn leaderboard_arguments() {
    let sprint = BoardId::Solo(ModeKind::Sprint);
    let std = RulesetId::Standard;
    assert_eq!(lb(&[]), Ok((sprint, Period::AllTime, std)));
    assert_eq!(
        lb(&["marathon", "--period", "today"]),
        Ok((BoardId::Solo(ModeKind::Marathon), Period::Today, std))
    );
    assert_eq!(
        lb(&["--period=month", "versus"]),
        Ok((BoardId::Versus, Period::Month, std))
    );
    assert_eq!(
        lb(&["--ruleset", "tetrs", "ultra"]),
        Ok((
            BoardId::Solo(ModeKind::Ultra),
            Period::AllTime,
            RulesetId::Tetrs
        ))
    );
    assert_eq!(
        lb(&["--ruleset=tui-tetris"]),
        Ok((sprint, Period::AllTime, RulesetId::TuiTetris))
    );
    assert!(lb(&["--ruleset", "nes"]).is_err());
    assert!(lb(&["--ruleset"]).is_err());
    let bad = lb(&["tetris"]).unwrap_err();
    assert_eq!(
        bad,
        "unknown mode \"tetris\"; modes: 40l, marathon, ultra, master, cheese, combo, descent, \
             classic, survival, ascent, versus, climb"
    );
    assert_eq!(
        lb(&["climb", "--period", "today"]),
        Ok((BoardId::Climb, Period::Today, std))
    );
    assert_eq!(
        lb(&["descent"]),
        Ok((BoardId::Solo(ModeKind::Descent), Period::AllTime, std))
    );
    assert_eq!(
        lb(&["classic", "--period", "month"]),
        Ok((BoardId::Solo(ModeKind::Classic), Period::Month, std))
    );
    assert_eq!(
        lb(&["survival"]),
        Ok((BoardId::Solo(ModeKind::Survival), Period::AllTime, std))
    );
    assert_eq!(
        lb(&["ascent"]),
        Ok((BoardId::Solo(ModeKind::Ascent), Period::AllTime, std))
    );
    assert!(lb(&["custom"]).is_err());
    assert!(
        lb(&["--period", "week"])
            .unwrap_err()
            .contains("all, month, today")
    );
    assert!(lb(&["--period"]).is_err());
    assert!(lb(&["40l", "ultra"]).is_err());
}

/// Every command word, as the handler, `exec.rs` and `command_run.rs` each recognised it before
/// there was one parser (issue 27): the same command for the same bytes.
#[test]
fn each_command_line_is_one_command() {
    let join = |code: &str, spectate| Command::Join {
        code: minotty_domain::RoomCode::parse(code).expect("a code"),
        spectate,
    };
    let unknown = |word: &str| Command::Unknown(word.to_owned());
    for (line, command) in [
        (&b"help"[..], Command::Help),
        (b"  -h  extra", Command::Help),
        (b"--help", Command::Help),
        (b"join K7PQ3M", join("K7PQ3M", false)),
        (b"watch K7PQ3M", join("K7PQ3M", true)),
        (b"spectate k7pq3m", join("k7pq3m", true)),
        (b"join", Command::JoinUsage),
        (b"join A B", Command::JoinUsage),
        (b"watch A B", Command::JoinUsage),
        (b"spectate A B", Command::JoinUsage),
        (b"watch", Command::Tv),
        (b" tv ", Command::Tv),
        (b"tv now", unknown("tv")),
        (b"spectate", unknown("spectate")),
        (b"doctor", Command::Doctor),
        (b"doctor -v", unknown("doctor")),
        (b"rm -rf /", unknown("rm")),
        (b"\x1b]0;pwned\x07", unknown("]0;pwned")),
        (b"", Command::Empty),
        (b" \t ", Command::Empty),
        (&[0xff, 0xfe], unknown("\u{fffd}\u{fffd}")),
        // `replay` needs valid UTF-8 (its arguments are read strictly).
        (b"replay 7 --cast \xff", unknown("replay")),
    ] {
        assert_eq!(Command::parse(line), command, "{line:?}");
    }
    assert_eq!(
        Command::parse(b"replay #42 --size 100x30 --cast"),
        Command::Replay(Ok(CastArgs {
            game: 42,
            cols: 100,
            rows: 30,
            of_match: false,
            cast: true
        }))
    );
    assert_eq!(
        Command::parse(b"replay 42"),
        Command::Replay(Err(
            "replays are exported as asciicast files: add --cast; usage: replay ID --cast \
             [--size COLSxROWS] (ID: the game number shown in the replay viewer and the \
             profile), or replay mN [--cast] for versus match N"
                .to_owned()
        ))
    );
    assert_eq!(
        Command::parse(b"lb marathon -p today"),
        Command::Leaderboard(Ok(BoardQuery {
            board: BoardId::Solo(ModeKind::Marathon),
            period: Period::Today,
            ruleset: RulesetId::Standard,
        }))
    );
    assert_eq!(
        Command::parse(b"leaderboard --period"),
        Command::Leaderboard(Err("--period needs a value: all, month or today".to_owned()))
    );
    let long = format!("{} x", "w".repeat(100));
    assert_eq!(Command::parse(long.as_bytes()), unknown(&"w".repeat(64)));
}

/// Which commands open a game screen (one per connection with a terminal).
#[test]
fn games_are_join_watch_tv_and_doctor() {
    for line in [
        "join A",
        "join",
        "watch A",
        "watch A B",
        "watch",
        "tv",
        "doctor",
    ] {
        assert!(Command::parse(line.as_bytes()).is_game(), "{line}");
    }
    for line in [
        "help",
        "lb",
        "replay 1 --cast",
        "tv x",
        "doctor x",
        "spectate",
        "",
    ] {
        assert!(!Command::parse(line.as_bytes()).is_game(), "{line}");
    }
}
